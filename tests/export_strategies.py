"""Random exports for the tests of the JSON readers (Label Studio, doccano, Prodigy): records
written to exercise both what the fast paths take (well-formed records, UTF-16 offsets after
characters outside the BMP) and what they must leave to the general path (wrong types, missing
fields, offsets off the text, several labels, long whole numbers, deep nesting, non-JSON
numbers, lone surrogates)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

#: Texts of words: characters outside the BMP (UTF-16 offsets differ after them), a
#: combining accent and CR LF (grapheme clusters differ), ASCII.
TEXT = st.lists(st.sampled_from(["\N{GRINNING FACE}", "Zo\u00eb", "e\u0301t\u00e9", "ab", "\r\n",
                                 "x", "\N{GRINNING FACE}!"]), max_size=6).map(" ".join)
NAME = st.one_of(st.sampled_from(["A", "B", "r1", "r2"]), st.integers(1, 3))
ODD = st.sampled_from([None, 1.5, True, "x", [], {}, 2**64 + 1, -1])


def utf16_offset(text: str, offset: int) -> int:
    return len(text[:offset].encode("utf-16-le")) // 2


@st.composite
def offsets(draw: st.DrawFn, text: str, utf16: bool) -> tuple[Any, Any, Any]:
    """Start, end and covered text, mostly right (in code points or UTF-16 units)."""
    s = draw(st.integers(0, len(text)))
    e = draw(st.integers(s, len(text)))
    covered: Any = text[s:e]
    if utf16 != rarely(draw):
        s, e = utf16_offset(text, s), utf16_offset(text, e)
    how = draw(st.integers(0, 24))
    if how in (11, 12):
        s, e = draw(st.integers(-2, len(text) + 3)), draw(st.integers(-2, len(text) + 3))
    elif how in (13, 14):
        covered = draw(TEXT)
    elif how == 15:
        covered = draw(ODD)
    elif how == 16:
        s = draw(ODD)
    return s, e, covered


def rarely(draw: st.DrawFn) -> bool:
    """True about once in twenty-five draws (so that most exports are read, some refused); not
    at 0, which hypothesis draws more often than the others."""
    return draw(st.integers(0, 24)) == 17


def drop(draw: st.DrawFn, record: dict[str, Any]) -> dict[str, Any]:
    """Now and then a field left out or given a value of another type."""
    if record and rarely(draw):
        key = draw(st.sampled_from(sorted(record)))
        if draw(st.booleans()):
            del record[key]
        else:
            record[key] = draw(ODD)
    return record


@st.composite
def ls_annotation(draw: st.DrawFn, text: str, k: int) -> dict[str, Any]:
    result: list[Any] = []
    ids = []
    utf16 = draw(st.booleans())
    for r in range(draw(st.integers(0, 4))):
        s, e, covered = draw(offsets(text, utf16))
        rid = f"a{k}r{r}" if draw(st.integers(0, 7)) else draw(NAME)
        ids.append(rid)
        labels = draw(st.sampled_from([["PER"], ["LOC"], ["PER"], ["LOC"], [], ["PER", "LOC"]]))
        labels = [3] if rarely(draw) else labels
        value = {"start": s, "end": e, "text": covered, "labels": labels}
        result.append(drop(draw, {"id": rid, "type": "labels", "from_name": "label",
                                   "to_name": "text", "value": drop(draw, value)}))
    for _ in range(draw(st.integers(0, 2))):
        ends = [*ids, "nowhere"]
        result.append(drop(draw, {"type": "relation", "from_id": draw(st.sampled_from(ends)),
                                   "to_id": draw(st.sampled_from(ends)),
                                   "direction": draw(st.sampled_from(["left", "right"])),
                                   "labels": draw(st.sampled_from([[], ["coref"], None]))}))
    if draw(st.booleans()):
        rid = draw(st.sampled_from([None, *ids]))
        choice = {"type": "choices", "from_name": "topic", "to_name": "text",
                  "value": {"choices": [1] if rarely(draw) else draw(
                      st.sampled_from([["x"], ["x", "y"]]))}}
        if rid is not None:
            choice["id"] = rid
        result.append(drop(draw, choice))
    if rarely(draw):
        result.append({"id": "t", "type": "textarea", "value": {"text": ["note"]}})
    if rarely(draw):
        result.append("not an object")
    who = draw(st.one_of(st.integers(1, 3), st.sampled_from(["u1", "u2"]),
                         st.builds(lambda i: {"id": i, "email": f"u{i}@x.org"},
                                   st.integers(1, 3))))
    return drop(draw, {"id": draw(st.one_of(st.integers(1, 9), st.just("x"))),
                        "completed_by": who, "result": result,
                        "was_cancelled": rarely(draw), "ground_truth": rarely(draw)})


@st.composite
def ls_export(draw: st.DrawFn) -> str:
    tasks = []
    for t in range(draw(st.integers(1, 4))):
        text = draw(TEXT)
        data: dict[str, Any] = {"text": text}
        if rarely(draw):
            data["title"] = draw(TEXT)
        task = {"id": t + 1, "data": data,
                "annotations": [draw(ls_annotation(text, k)) for k in range(
                    draw(st.integers(0, 3)))],
                "predictions": draw(st.sampled_from([[], [{"result": []}]]))}
        tasks.append(drop(draw, task))
    return json.dumps(tasks, ensure_ascii=draw(st.booleans()),
                      indent=draw(st.sampled_from([None, None, 1])))


@st.composite
def tokens_of(draw: st.DrawFn, text: str) -> list[Any]:
    out: list[Any] = []
    at = 0
    for word in text.split(" "):
        out.append({"text": word, "start": at, "end": at + len(word), "id": len(out)})
        at += len(word) + 1
    if out and rarely(draw):
        k = draw(st.integers(0, len(out) - 1))
        out[k] = drop(draw, dict(out[k])) if draw(st.booleans()) else \
            {**out[k], "text": draw(TEXT)}
    return out


@st.composite
def prodigy_line(draw: st.DrawFn, text: str, tokens: list[Any], t: int) -> str:
    spans = []
    utf16 = draw(st.booleans())
    for _ in range(draw(st.integers(0, 3))):
        s, e, covered = draw(offsets(text, utf16))
        span: dict[str, Any] = {"start": s, "end": e, "label": 3 if rarely(draw) else
                                draw(st.sampled_from(["PER", "LOC", None]))}
        if draw(st.booleans()):
            span["text"] = covered
        if tokens and draw(st.booleans()):
            first = draw(st.integers(0, len(tokens) - 1))
            span.update(token_start=first, token_end=draw(st.integers(first, len(tokens))))
        spans.append(drop(draw, span))
    record: dict[str, Any] = {
        "text": text, "_input_hash": 2**64 + t if rarely(draw) else
        draw(st.sampled_from([t, t, str(t)])),
        "_task_hash": 100 + t, "tokens": tokens, "spans": spans,
        "answer": draw(st.sampled_from(["accept", "accept", "accept", "reject", "ignore"])),
        "_view_id": draw(st.sampled_from(["ner_manual", "ner_manual", "ner", None])),
        "_annotator_id": draw(st.sampled_from(["ann-1", "ann-2", "ann-1", "ann-2", ""])),
        "_session_id": "ann-s", "meta": {"id": draw(st.sampled_from([None, "d", 7]))}}
    if spans and rarely(draw):
        record["relations"] = [{"head": 0, "child": draw(st.integers(0, 3)),
                                "label": "COREF"}]
    if rarely(draw):
        record["meta"]["deep"] = json.loads("[" * 150 + "]" * 150)
    line = json.dumps(drop(draw, record), ensure_ascii=draw(st.booleans()))
    if not rarely(draw):
        return line
    return draw(st.sampled_from([line.replace("}", ', "x": NaN}', 1),
                                 line.replace("}", ', "x": 1e400}', 1),
                                 line.replace("}", ', "x": "\\ud800"}', 1),
                                 line.replace("}", ', "x": 12345678901234567890}', 1)]))


@st.composite
def doccano_line(draw: st.DrawFn, t: int, text: str) -> str:
    entities: list[Any] = []
    for k in range(draw(st.integers(0, 4))):
        s, e, _ = draw(offsets(text, False))
        if draw(st.integers(0, 5)) == 3:
            entities.append([s, e, "PER"])
        else:
            entities.append(drop(draw, {"id": draw(st.sampled_from([t * 10 + k, str(k), k])),
                                         "label": "PER", "start_offset": s, "end_offset": e}))
    ids = [x["id"] for x in entities if isinstance(x, dict) and "id" in x] + [999]
    relations = [drop(draw, {"id": r, "from_id": draw(st.sampled_from(ids)),
                              "to_id": draw(st.sampled_from(ids)), "type": "coref"})
                 for r in range(draw(st.integers(0, 2)))]
    record: dict[str, Any] = {"id": draw(st.sampled_from([t, str(t), None])), "text": text,
                              "entities": entities, "relations": relations,
                              "cats": [1] if rarely(draw) else draw(
                                  st.sampled_from([[], ["x"]])),
                              "Comments": draw(st.sampled_from([[], ["c"], None]))}
    if draw(st.booleans()):
        record["label"] = draw(st.sampled_from([[[0, 1, "X"]], ["topic"], [[0, 99, "X"]]]))
    return json.dumps(drop(draw, record), ensure_ascii=draw(st.booleans()))


@st.composite
def prodigy_lines(draw: st.DrawFn, texts: int = 4, answers: int = 3) -> list[str]:
    """The lines of a random Prodigy export: up to ``texts`` texts, each answered up to
    ``answers`` times (:func:`prodigy_line`)."""
    lines = []
    for t in range(draw(st.integers(1, texts))):
        text = draw(TEXT)
        tokens = draw(tokens_of(text))
        for _ in range(draw(st.integers(1, answers))):
            lines.append(draw(prodigy_line(text, tokens, t)))
    return lines
