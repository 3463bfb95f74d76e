"""The fast paths of the JSON readers (Label Studio, doccano, Prodigy) against their general
path: the same documents, field by field, the same notices and the same errors.

Each input is read four ways: the general path alone (``_records.FAST = False``), the fast
paths with orjson, the fast paths with the standard library's ``json`` (orjson hidden), and
the compiled ones (JSON Lines found and checked a block at a time, in blocks of a few dozen
bytes so that lines cross them; Prodigy's tokens read from their bytes: _jsonl_blocks,
_token_bytes).
The inputs are the fixtures (corpora_fixtures/exports) and random exports (hypothesis) written
to exercise both what the fast paths take (well-formed records, UTF-16 offsets after
characters outside the BMP) and what they must leave to the general path (wrong types,
missing fields, offsets off the text, several labels, long whole numbers, deep nesting,
non-JSON numbers, lone surrogates, records written over several lines).
"""

from __future__ import annotations

import dataclasses
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from alike import same, script
from export_strategies import TEXT, doccano_line, ls_export, prodigy_lines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusteragree.errors import InputError, Ledger
from clusteragree.exports import _json_array, _jsonl_blocks, _records, labelstudio, model
from clusteragree.exports.doccano import read_doccano
from clusteragree.exports.labelstudio import read_label_studio
from clusteragree.exports.model import (
    _DOCUMENT_FIELDS,
    _LABEL_FIELDS,
    _RELATION_FIELDS,
    _SPAN_FIELDS,
    AnnotatedDocument,
    Chain,
    DocumentLabel,
    Relation,
    Span,
    SpanDraft,
    chains_of,
    finish_spans,
    new_document,
    new_label,
    new_relation,
    new_span,
    spans_in_bulk,
)
from clusteragree.exports.offsets import utf16_positions
from clusteragree.exports.prodigy import read_prodigy

FIX = Path(__file__).resolve().parent.parent / "corpora_fixtures" / "exports"
MODES = ("general", "fast", "fast-stdlib", "compiled")
SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def _outcome(read: Callable[[], Any], mode: str, monkeypatch: pytest.MonkeyPatch
             ) -> tuple[Any, list[tuple[Any, ...]]]:
    """What one reading gives in ``mode``: the export or the error, and the notices."""
    with monkeypatch.context() as patch:
        patch.setattr(_records, "FAST", mode != "general")
        if mode == "fast-stdlib":
            patch.setattr(_records, "_orjson", None)
        if mode == "compiled":
            if _records._orjson is None or _jsonl_blocks.scanner() is None:
                return _outcome(read, "fast", monkeypatch)
            patch.setattr(_jsonl_blocks, "MIN_SIZE", 0)
            patch.setattr(_jsonl_blocks, "BLOCK", 37)
        else:  # the line-by-line path and the tokens checked object by object
            patch.setattr(_jsonl_blocks, "loaded", lambda: False)
        with Ledger() as ledger:
            try:
                found: Any = read()
            except InputError as err:
                found = ("error", str(err), err.line, err.col)
    notices = [(n.kind, n.message, n.file, n.line, n.count) for n in ledger.notices]
    return found, notices


def _check(read: Callable[[], Any], monkeypatch: pytest.MonkeyPatch) -> None:
    general, notices = _outcome(read, "general", monkeypatch)
    for mode in MODES[1:]:
        found, said = _outcome(read, mode, monkeypatch)
        same(general, found, mode)
        assert said == notices, mode


# --- the fixtures

def _fixtures() -> list[tuple[str, Path]]:
    out = [("label-studio", p) for p in sorted((FIX / "labelstudio").glob("*.json"))]
    out += [("prodigy", p) for p in sorted((FIX / "prodigy").glob("*.jsonl"))]
    out += [("doccano", p) for p in sorted((FIX / "doccano").iterdir())
            if p.is_dir() or p.suffix == ".zip"]
    return out


READERS: dict[str, Callable[..., Any]] = {"label-studio": read_label_studio,
                                          "prodigy": read_prodigy, "doccano": read_doccano}


@pytest.mark.parametrize(("kind", "path"), _fixtures(), ids=lambda x: getattr(x, "name", x))
def test_the_fixtures_read_alike(kind: str, path: Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    _check(lambda: READERS[kind](path), monkeypatch)


# --- random exports

@given(content=ls_export(), duplicates=st.sampled_from(["refuse", "first", "last"]),
       key=st.sampled_from(["email", "id"]), text_key=st.sampled_from(["text", None]),
       window=st.sampled_from([_json_array.WINDOW, 40, 200, 700]))
@SETTINGS
def test_random_label_studio_exports_read_alike(tmp_path: Path, content: str, duplicates: str,
                                                key: str, text_key: str | None, window: int,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """With windows smaller than the file too, so that orjson reads the array's elements
    (the last window is always the standard library's)."""
    path = tmp_path / "export.json"
    path.write_text(content, encoding="utf-8")
    monkeypatch.setattr(_json_array, "WINDOW", window)
    _check(lambda: read_label_studio(path, duplicates=duplicates, annotator_key=key,
                                     text_key=text_key), monkeypatch)


#: Elements of a JSON array, some of which orjson must leave to the standard library: escaped
#: quotes and backslashes before quotes, brackets in strings, numbers JSON refuses, a run of
#: nineteen digits, deep nesting, a lone surrogate, elements that are not objects.
ELEMENT = st.one_of(
    st.builds(lambda t, n: {"id": n, "t": t, "r": [{"v": {"x": [t]}}]},
              st.text(st.sampled_from('ab"\\{}[],: \n\u00e9\N{GRINNING FACE}'), max_size=8),
              st.integers(-5, 10**6)),
    st.sampled_from(['{"a": NaN}', '{"a": 1e400}', '{"a": 123456789012345678901}',
                     '{"a": 1234567890123456789}', '{"a": "\\ud800"}', '{"a": -0.0}',
                     '{"a": "\\\\"}', '{"a": "\\\\\\""}', '{"a": "x\\\\\\\\"}',
                     '{"d": ' + "[" * 120 + "]" * 120 + "}", '{"d": ' + "[" * 60 + "]" * 60 + "}",
                     '{"d": ' + "[" * 1010 + "]" * 1010 + "}",
                     "3", '"s"', "[1, 2]", "{}", '{"a": 1,}', '{"a" 1}', "{"]))


#: Elements whose last key has a value without objects or arrays (the key by which the ends of
#: the next elements are guessed), the same key nested or in strings before it, braces in
#: strings after it, and now and then an element of another shape.
_GUESS_TEXT = st.text(st.sampled_from('ab"\\{}[],: \n\u00e9\N{GRINNING FACE}'), max_size=8)
GUESSED = st.one_of(
    st.builds(lambda t, n: {"r": [{"v": {"x": [t]}}], "t": t, "id": n}, _GUESS_TEXT,
              st.integers(-5, 10**6)),
    st.builds(lambda t, n: {"r": [{"id": n, "v": t}], "id": n}, _GUESS_TEXT, st.integers(0, 9)),
    st.builds(lambda t: {"t": '"id": 1}' + t, "id": t + "}"}, _GUESS_TEXT),
    st.builds(lambda t: {"id": t, "e": []}, _GUESS_TEXT),
    st.sampled_from(['{"big": 123456789012345678901, "id": 1}',  # a float to orjson
                     '{"d": ' + "[" * 1010 + "]" * 1010 + ', "id": 2}',  # too deep for json
                     '{"d": ' + "[" * 120 + "]" * 120 + ', "id": 3}']),
    ELEMENT)


@st.composite
def _array(draw: st.DrawFn, element: st.SearchStrategy[Any] = ELEMENT) -> bytes:
    items = [x if isinstance(x, str) else json.dumps(
        x, ensure_ascii=draw(st.booleans()), indent=draw(st.sampled_from([None, 1])))
        for x in draw(st.lists(element, max_size=12))]
    seps = [draw(st.sampled_from([",", ", ", ",\n", " ,\r\n  ", ",\t"])) for _ in items]
    body = "".join(x + sep for x, sep in zip(items, seps, strict=True))
    body = body[:len(body) - len(seps[-1])] if items else ""
    raw = ("[" + draw(st.sampled_from(["", "\n"])) + body + "]\n").encode()
    if len(raw) > 2 and draw(st.integers(0, 9)) < 4:  # a fault, or a byte that is not UTF-8
        k = draw(st.integers(1, len(raw) - 2))
        if raw[k] == 0x2C and draw(st.booleans()):  # a comma
            raw = raw[:k] + draw(st.sampled_from([b"", b" ", b"x", b"]"])) + raw[k + 1:]
        else:
            raw = raw[:k] + draw(st.sampled_from([b",", b"]", b"}", b"\xff", b"\xc3", b""])) + \
                raw[k + 1:]
    return raw


def _elements(raw: bytes) -> list[Any]:
    """The elements given (line, the element's text and value), then the error if any."""
    out: list[Any] = []
    try:
        for line, window, start, end, value in _json_array.iter_json_array_bytes(
                raw, "x.json", what="task"):
            out.append((line, window[start:end].decode() if isinstance(window, bytes)
                        else window[start:end], repr(value)))
    except InputError as err:
        out.append(("error", str(err), err.line, err.col))
    return out


@given(raw=_array(), window=st.sampled_from([16, 64, 150, 400, 4096]))
@settings(max_examples=300, deadline=None)
def test_the_array_read_by_orjson_is_the_array_read_by_json(raw: bytes, window: int) -> None:
    """Window for window, orjson's reading of a JSON array gives the elements, their lines
    and texts, and the errors of the standard library's."""
    with pytest.MonkeyPatch.context() as patch:
        _general_then_fast(raw, window, patch)


def _general_then_fast(raw: bytes, window: int, patch: pytest.MonkeyPatch) -> list[Any]:
    """The elements of ``raw`` read in windows of ``window`` bytes by the standard library,
    after checking that orjson's reading gives them alike; ``patch`` stays on the fast path."""
    patch.setattr(_json_array, "WINDOW", window)
    patch.setattr(_records, "FAST", False)
    general = _elements(raw)
    patch.setattr(_records, "FAST", True)
    assert _elements(raw) == general
    return general


@given(raw=_array(GUESSED), window=st.sampled_from([16, 64, 150, 400, 4096]))
@settings(max_examples=300, deadline=None)
def test_guessed_ends_read_the_array_as_json(raw: bytes, window: int) -> None:
    """The ends of elements guessed from the key that ends them (proven by orjson) give the
    elements, lines and errors of the standard library's reading, as the scan does."""
    with pytest.MonkeyPatch.context() as patch:
        general = _general_then_fast(raw, window, patch)
        patch.setattr(_json_array, "_tail_of", lambda *_: None)  # the scan alone
        assert _elements(raw) == general


def test_the_ends_of_an_export_are_guessed(monkeypatch: pytest.MonkeyPatch) -> None:
    """On an array of objects of the same keys, the windows after the first are read by
    guessing (the scan serves only the element each window cuts)."""
    items = [{"id": k, "t": "\N{GRINNING FACE} \\\" ]}", "r": [[k]], "n": k} for k in range(300)]
    raw = json.dumps(items, ensure_ascii=False).encode()
    monkeypatch.setattr(_json_array, "WINDOW", 1000)
    guessed: list[int] = []
    original = _json_array._guessed

    def counted(*args: Any) -> Any:
        before = len(args[-1])
        done = original(*args)
        guessed.append(len(args[-1]) - before)
        return done

    monkeypatch.setattr(_json_array, "_guessed", counted)
    values = [v for _, _, _, _, v in _json_array.iter_json_array_bytes(raw, "x")]
    assert values == items
    assert sum(guessed) > 250


_DEEP = '{"d": ' + "[" * 1010 + "]" * 1010 + "}"  # too deep for json's scanner, not orjson's


@pytest.mark.parametrize(("raw", "window"), [
    (b'[{"a": 1}, {"b": "\xff"}, {"c": 3}, {"d": 4}]', 20),  # not UTF-8 in the window's tail
    (b'[{"a": 1}, {"b": 2}\xff, {"c": 3}, {"d": 4}]', 19),  # ... right after an element
    (b'[{"a": 1}, {"b": 2} {"c": 3}, {"d": 4}, {"e": 5}]', 64),  # a comma missing
    (b'[{"a": 1}, {"b": 2}, x, {"d": 4}, {"e": 5}]', 64),  # not JSON
    (b'[{"a": 1}, {"b": 2}, 3, {"d": 4}, {"e": 5}]', 64),  # an element not an object
    (b'[{"a": 1}, {"b": 2}, ]  , {"d": 4}, {"e": 5}]', 64),  # a comma before the end
    (b'[{"a": 1}, {"b": 2}]  , {"d": 4}, {"e": 5}]', 64),  # text after the end
    (b'[{"a": 1}, {"b": 123456789012345678901}, {"c": 3}, {"d": 4}]', 64),  # long digits
    (b'[{"a": 1}, {"b": NaN}, {"c": 3}, {"d": 4}]', 64),
    (b'[{"a": 1}, {"b": "\\ud800"}, {"c": 3}, {"d": 4}]', 64),  # a lone surrogate
    (b'[{"a": 1}, {"b": "\\\\"}, {"c": "\\"}"}, {"d": 4}]', 64),  # escapes
    (b'[{"a": 1}, ' + _DEEP.encode() + b', {"c": 3}' + b', {"d": 4}' * 400 + b"]", 4096),
    # the same, the ends guessed from the key "a" that ends every element
    (b'[{"a": 1}, {"b": 123456789012345678901, "a": 2}, {"a": 3}, {"a": 4}]', 64),
    (b'[{"a": 1}' + b', {"a": 3}' * 400 + b", " + _DEEP[:-1].encode() + b', "a": 2}' +
     b', {"a": 3}' * 400 + b"]", 4096),
])
def test_the_array_read_by_orjson_leaves_the_standard_library_its_cases(
        raw: bytes, window: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each case where orjson, or its reading of windows, could differ: the elements given
    before the error, the lines and the error are the standard library's, whatever the
    window."""
    for size in range(max(8, window - 12), window + 12):
        monkeypatch.setattr(_json_array, "WINDOW", size)
        monkeypatch.setattr(_records, "FAST", False)
        general = _elements(raw)
        monkeypatch.setattr(_records, "FAST", True)
        assert _elements(raw) == general, size


def test_orjson_reads_the_windows_of_a_large_array(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast reading is taken (the window given is the file's bytes) on all but the last
    window of an array of objects, and on none where orjson is absent."""
    items = [{"id": k, "t": "\N{GRINNING FACE} \\\" ]}", "r": [[k]]} for k in range(300)]
    raw = json.dumps(items, ensure_ascii=False, indent=1).encode()
    monkeypatch.setattr(_json_array, "WINDOW", 1000)
    kinds = [type(w) for _, w, _, _, _ in _json_array.iter_json_array_bytes(raw, "x")]
    assert kinds.count(bytes) > 250 and kinds[-1] is str
    monkeypatch.setattr(_records, "_orjson", None)
    assert {type(w) for _, w, _, _, _ in _json_array.iter_json_array_bytes(raw, "x")} == {str}


@given(data=st.data(), answers=st.sampled_from(["accept", "accept,reject"]))
@SETTINGS
def test_random_prodigy_exports_read_alike(tmp_path: Path, data: st.DataObject, answers: str,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    lines = data.draw(prodigy_lines())
    path = tmp_path / "db.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _check(lambda: read_prodigy(path, answers=answers), monkeypatch)


@given(data=st.data())
@SETTINGS
def test_random_doccano_exports_read_alike(tmp_path: Path, data: st.DataObject,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    for user in ("alice", "bob"):
        lines = [data.draw(doccano_line(t, data.draw(TEXT)))
                 for t in range(data.draw(st.integers(1, 4)))]
        (folder / f"{user}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    _check(lambda: read_doccano(folder), monkeypatch)


def test_a_generated_benchmark_export_reads_alike(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A small export of the benchmark (scripts/bench_exports.py), in each format."""
    bench = script("bench_exports")
    bench.write_label_studio(tmp_path / "ls.json", 60, 3)
    bench.write_doccano(tmp_path / "doccano", 60, 3)
    bench.write_prodigy(tmp_path / "prodigy.jsonl", 60, 3)
    _check(lambda: read_label_studio(tmp_path / "ls.json"), monkeypatch)
    _check(lambda: read_doccano(tmp_path / "doccano"), monkeypatch)
    _check(lambda: read_prodigy(tmp_path / "prodigy.jsonl"), monkeypatch)


def _tasks_taken(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether the path of whole tasks took each task it was given, from now on."""
    taken: list[bool] = []
    original = labelstudio.read_task

    def counted(*args: Any) -> bool:
        taken.append(original(*args))
        return taken[-1]

    monkeypatch.setattr(labelstudio, "read_task", counted)
    return taken


def test_the_task_path_reads_every_task_of_the_benchmark(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparisons above go through the path of whole tasks: it takes every task of the
    benchmark's export but the first (read by the general path, which chooses the text
    field)."""
    bench = script("bench_exports")
    bench.write_label_studio(tmp_path / "ls.json", 60, 3)
    taken = _tasks_taken(monkeypatch)
    with Ledger():
        read_label_studio(tmp_path / "ls.json")
    assert taken == [True] * 59


def test_a_task_left_midway_is_counted_once(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A task whose last annotation the path of whole tasks does not take (a textarea) is read
    by the general path from its start: its predictions and its ground truth counted once."""
    region = {"id": "r", "type": "labels", "from_name": "label", "to_name": "text",
              "value": {"start": 0, "end": 4, "text": "Mary", "labels": ["PER"]}}
    plain = {"id": 1, "completed_by": 1, "result": [region]}
    tasks = [{"id": 1, "data": {"text": "Mary ran."}, "annotations": [plain]},
             {"id": 2, "data": {"text": "Mary ran."}, "predictions": [{}, {}, {}],
              "annotations": [{**plain, "id": 2, "ground_truth": True},
                              {"id": 3, "completed_by": 2, "result": [
                                  region, {"id": "t", "type": "textarea",
                                           "value": {"text": ["x"]}}]}]}]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(tasks), encoding="utf-8")
    _check(lambda: read_label_studio(path), monkeypatch)
    with Ledger() as ledger:
        read_label_studio(path)
    counts = {n.message: n.count for n in ledger.notices}
    assert counts[labelstudio.PREDICTIONS] == 3 and counts[labelstudio.GROUND_TRUTH] == 1


def test_the_task_path_takes_every_usual_result(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A task with a cancelled annotation, ground truth, predictions and drafts, a region
    without a label, a relation read leftwards, one to no region, choices per region and of
    the document: read by the path of whole tasks, as the general path reads it."""
    def region(rid: str, s: int, e: int, covered: str, labels: list[str]) -> dict[str, Any]:
        return {"id": rid, "type": "labels", "from_name": "label", "to_name": "text",
                "value": {"start": s, "end": e, "text": covered, "labels": labels}}

    first = {"id": 1, "data": {"text": "Ann."}, "annotations": [
        {"id": 1, "completed_by": 1, "result": [region("a", 0, 3, "Ann", ["PER"])]}]}
    result = [region("r1", 0, 4, "Mary", ["PER"]), region("r2", 9, 12, "she", []),
              {"type": "relation", "from_id": "r2", "to_id": "r1", "direction": "left",
               "labels": ["coref"]},
              {"type": "relation", "from_id": "r1", "to_id": "gone", "direction": "right"},
              {"id": "r1", "type": "choices", "from_name": "kind",
               "value": {"choices": ["a", "b"]}},
              {"type": "choices", "from_name": "topic", "value": {"choices": ["x"]}}]
    second = {"id": 2, "data": {"text": "Mary met she."}, "predictions": [{}], "drafts": [{}],
              "annotations": [{"id": 5, "completed_by": 9, "was_cancelled": True, "result": []},
                              {"id": 6, "completed_by": 1, "ground_truth": True,
                               "result": result}]}
    path = tmp_path / "export.json"
    path.write_text(json.dumps([first, second]), encoding="utf-8")
    _check(lambda: read_label_studio(path), monkeypatch)
    taken = _tasks_taken(monkeypatch)
    with Ledger() as ledger:
        doc = read_label_studio(path).documents[1]
    assert taken == [True]
    assert [(s.id, s.label, s.features) for s in doc.spans] == [
        ("r1", "PER", (("kind", "a|b"),)), ("r2", None, ())]
    assert [(r.source, r.target, r.label) for r in doc.relations] == [("r1", "r2", "coref")]
    assert [(lab.layer, lab.label) for lab in doc.labels] == [("topic", "x")]
    counts = {n.message: n.count for n in ledger.notices}
    for message in (labelstudio.CANCELLED, labelstudio.GROUND_TRUTH, labelstudio.PREDICTIONS,
                    labelstudio.DRAFTS, labelstudio.STRAY_RELATIONS):
        assert counts[message] == 1, message


def test_offsets_before_the_text_are_never_read_from_its_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A negative offset whose slice from the end of the text would match its covered text
    (in code points, or in UTF-16 units through the table) is no span."""
    def task(k: int, text: str, regions: list[tuple[int, int, str]]) -> dict[str, Any]:
        result = [{"id": f"r{k}{j}", "type": "labels", "from_name": "label", "to_name": "text",
                   "value": {"start": s, "end": e, "text": c, "labels": ["PER"]}}
                  for j, (s, e, c) in enumerate(regions)]
        return {"id": k, "data": {"text": text},
                "annotations": [{"id": k, "completed_by": 1, "result": result}]}

    smile = "\N{GRINNING FACE} Mary ran."
    tasks = [task(1, "Mary ran.", [(0, 4, "Mary")]),
             task(2, "Mary ran.", [(0, 4, "Mary"), (-4, -1, "ran")]),
             task(3, smile, [(3, 7, "Mary"), (-4, -1, "an.")]),
             task(4, smile, [(3, 7, "Mary"), (8, 11, "ran")])]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(tasks), encoding="utf-8")
    _check(lambda: read_label_studio(path), monkeypatch)
    with Ledger():
        docs = read_label_studio(path).documents
    assert all(s.start >= 0 for d in docs for s in d.spans)
    assert [(s.start, s.end) for s in docs[3].spans] == [(2, 6), (7, 10)]


# --- the constructor of the readers' many spans

LABEL = st.one_of(st.none(), st.text(max_size=3))


def test_the_fast_constructor_follows_the_dataclass() -> None:
    assert tuple(f.name for f in dataclasses.fields(Span)) == _SPAN_FIELDS
    assert tuple(f.name for f in dataclasses.fields(AnnotatedDocument)) == _DOCUMENT_FIELDS
    assert tuple(f.name for f in dataclasses.fields(DocumentLabel)) == _LABEL_FIELDS
    assert tuple(f.name for f in dataclasses.fields(Relation)) == _RELATION_FIELDS


@given(a=st.text(max_size=3), b=st.text(max_size=3), layer=st.text(max_size=3), label=LABEL,
       line=st.one_of(st.none(), st.integers(1, 9)))
def test_new_label_and_new_relation_are_the_dataclasses(a: str, b: str, layer: str,
                                                       label: str | None,
                                                       line: int | None) -> None:
    for made, want in ((new_label(layer, a, line), DocumentLabel(layer, a, line)),
                       (new_relation(a, b, layer, label, line),
                        Relation(a, b, layer, label, line))):
        same(want, made)
        assert hash(made) == hash(want) and repr(made) == repr(want)



@given(id_=st.text(max_size=3), start=st.integers(0, 9), end=st.integers(0, 9),
       layer=st.text(max_size=3), label=LABEL,
       features=st.lists(st.tuples(st.text(max_size=2), st.text(max_size=2)),
                         max_size=2).map(tuple),
       text=LABEL, line=st.one_of(st.none(), st.integers(1, 9)))
def test_new_span_is_the_span(id_: str, start: int, end: int, layer: str, label: str | None,
                              features: tuple[tuple[str, str], ...], text: str | None,
                              line: int | None) -> None:
    made = new_span(id_, start, end, layer, label, features, text, line)
    want = Span(id_, start, end, layer, label, features, text=text, line=line)
    same(want, made)
    assert hash(made) == hash(want) and repr(made) == repr(want)
    bulk = spans_in_bulk([(id_, start, end, label, text), (id_, end, start, None, "x")], layer,
                         line)
    same((Span(id_, start, end, layer, label, line=line),
          Span(id_, end, start, layer, None, line=line)), tuple(bulk))


@given(id_=st.text(max_size=3), start=st.integers(0, 9), end=st.integers(0, 9),
       layer=st.text(max_size=3), label=LABEL,
       features=st.lists(st.tuples(st.text(max_size=2), st.text(max_size=2)),
                         max_size=2).map(tuple),
       text=LABEL, line=st.one_of(st.none(), st.integers(1, 9)))
def test_span_drafts_become_the_span(id_: str, start: int, end: int, layer: str,
                                     label: str | None, features: tuple[tuple[str, str], ...],
                                     text: str | None, line: int | None) -> None:
    draft = SpanDraft()
    draft.id, draft.start, draft.end, draft.layer, draft.label = id_, start, end, layer, label
    draft.features, draft.fragments, draft.text, draft.line = features, (), text, line
    (made,) = finish_spans([draft])
    want = Span(id_, start, end, layer, label, features, text=text, line=line)
    assert type(made) is Span
    same(want, made)
    assert made == want and hash(made) == hash(want) and repr(made) == repr(want)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.start = 3  # type: ignore[misc]
    incomplete = SpanDraft()
    incomplete.id, incomplete.start = id_, start
    with pytest.raises(AttributeError):
        finish_spans([incomplete])
    assert type(incomplete) is SpanDraft  # never made a span


@given(text=st.text(st.sampled_from(["a", "\u00e9", "\N{GRINNING FACE}", "\U00010000", "\r",
                                     "\n", "\u0301"]), max_size=12))
def test_the_utf16_table_is_the_utf16_encoding(text: str) -> None:
    """Against the definition: the UTF-16 offset of each code point, from the encoder."""
    at = {len(text[:c].encode("utf-16-le")) // 2: c for c in range(len(text) + 1)}
    want = [at.get(u) for u in range(max(at) + 1)]
    table = utf16_positions(text)
    if table is None:
        assert want == list(range(len(text) + 1))  # the two units agree
    else:
        assert table == want


SPANS = st.lists(st.builds(Span, st.text(max_size=2), st.integers(0, 9), st.integers(0, 9),
                           st.text(max_size=2), LABEL), max_size=3).map(tuple)


@given(name=st.text(max_size=3), annotator=st.text(max_size=3), text=LABEL,
       tokens=st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=2).map(tuple),
       spans=SPANS, relations=st.lists(st.builds(Relation, st.text(max_size=2),
                                                  st.text(max_size=2), st.text(max_size=2),
                                                  LABEL), max_size=2).map(tuple),
       labels=st.lists(st.builds(DocumentLabel, st.text(max_size=2), st.text(max_size=2)),
                       max_size=2).map(tuple),
       line=st.one_of(st.none(), st.integers(1, 9)), tool=st.text(max_size=3))
def test_new_document_is_the_document(name: str, annotator: str, text: str | None,
                                      tokens: tuple[tuple[int, int], ...],
                                      spans: tuple[Span, ...],
                                      relations: tuple[Relation, ...],
                                      labels: tuple[DocumentLabel, ...], line: int | None,
                                      tool: str) -> None:
    chains = (Chain("c", "relations", ("a", "b")),) if relations else ()
    made = new_document(name, annotator, text, tokens, ((0, 1),), spans, relations, chains,
                        labels, "p", line, tool)
    want = AnnotatedDocument(name, annotator, text, tokens, ((0, 1),), spans, relations, chains,
                             labels, "p", line, tool)
    same(want, made)
    assert made == want and repr(made) == repr(want) and vars(made) == vars(want)
    assert list(vars(made)) == list(vars(want))  # the same order of fields
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.name = "x"  # type: ignore[misc]
    assert new_document(name, annotator, text) == AnnotatedDocument(name, annotator, text)


IDS = st.sampled_from(["a", "b", "c", "zz"])


@given(ids=st.lists(IDS, max_size=4), source=IDS, target=IDS,
       line=st.one_of(st.none(), st.integers(1, 9)))
def test_one_relation_makes_the_chain_of_the_general_reckoning(
        ids: list[str], source: str, target: str, line: int | None) -> None:
    """chains_of takes one relation at once; the connected components of the general
    reckoning give the same chain (ids repeated, or not among the spans, too)."""
    spans = tuple(Span(i, 0, 1, "s", None) for i in ids)
    rel = Relation(source, target, "r", None, line)
    order = {s.id: i for i, s in enumerate(spans)}
    general = model._components(order, [rel], None, "relations")
    same(general, chains_of(spans, (rel,)))
    # by hand: the source first unless the target comes before it among the spans (an id
    # given twice at its last place; an id not among them after as many places as ids)
    place = {i: k for k, i in enumerate(ids)}
    unknown = len(place)
    first, second = (target, source) if place.get(target, unknown) < place.get(
        source, unknown) else (source, target)
    members = (first,) if source == target else (first, second)
    assert chains_of(spans, (rel,)) == (Chain(f"chain-{first}", "relations", members,
                                              line=line if first == source else None),)


# --- Prodigy's tokens, cut out of the lines that repeat them (iter_jsonl(shared="tokens"))

_WORDS = ["Zo\u00eb", "]", *(f"w{k}" for k in range(40))]
_TEXT = " ".join(_WORDS)
_TOKS = [{"text": w, "start": len(" ".join(_WORDS[:k])) + (k > 0), "id": k, "ws": True}
         for k, w in enumerate(_WORDS)]
for _tok in _TOKS:
    _tok["end"] = _tok["start"] + len(_tok["text"])


def _spelled(tokens: list[dict[str, Any]], how: str) -> str:
    """The tokens list written another way: the same value or one that only looks so."""
    if how == "float":
        tokens = [{**tokens[0], "start": 0.0}, *tokens[1:]]
    elif how == "bool":
        tokens = [{**tokens[0], "id": False}, *tokens[1:]]
    elif how == "order":
        tokens = [dict(reversed(list(t.items()))) for t in tokens]
    elif how == "null":
        tokens = [{**tokens[0], "text": None}, *tokens[1:]]
    elif how == "missing":
        tokens = [{k: v for k, v in tokens[0].items() if k != "text"}, *tokens[1:]]
    elif how == "other":
        tokens = [{**tokens[0], "text": "x"}, *tokens[1:]]
    elif how == "tail":  # the same first few hundred bytes, the same length
        tokens = [*tokens[:-1], {**tokens[-1], "text": "w99"}]
    elif how == "long":  # a number orjson would read as a float
        tokens = [{**tokens[0], "start": 2**64 + 1}, *tokens[1:]]
    written = json.dumps(tokens, ensure_ascii=how != "ascii")
    if how == "compact":
        written = json.dumps(tokens, separators=(",", ":"))
    elif how == "escaped":
        written = written.replace("Zo", "Z\\u006f")
    return written


SPELLINGS = ("same", "same", "float", "bool", "order", "null", "missing", "other", "tail",
             "long", "ascii", "compact", "escaped")
#: Lines whose "tokens" are not what a first look at the bytes suggests.
TRICKS = (
    '{"text": TEXT, "meta": {"tokens": TOKS}, "tokens": {"\\u0000": 0}, REST}',
    '{"text": TEXT, "meta": {"tokens": TOKS}, "tokens": TOKS, REST}',
    '{"text": TEXT, "tokens": TOKS, "tokens": [], REST}',
    '{"text": TEXT, "tokens": [], "tokens": TOKS, REST}',
    '{"text": TEXT, "tokens": TOKS, "x": "\\u0000", REST}',
    '{"text": TEXT, "x": "a\\"tokens\": [1, \\"b", "tokens": TOKS, REST}',
    '{"text": TEXT, "tokens":\tTOKS , REST}',
    '{"text": TEXT, "tokens": TOKS, "deep": ' + "[" * 99 + "]" * 99 + ", REST}",
    '{"text": TEXT, "tokens": TOKS, "n": 12345678901234567890, REST}',
    '{"text": TEXT, "tokens": TOKS, "n": NaN, REST}',
    '{"text": TEXT, "tokens": TOKS REST}',
    '{"text": TEXT, "tokens": TOKS, "tokens": "x", REST}',
)


@given(data=st.data(), tricks=st.lists(st.sampled_from(TRICKS), max_size=3))
@SETTINGS
def test_tokens_read_once_per_text_are_the_tokens_of_each_line(
        tmp_path: Path, data: st.DataObject, tricks: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The annotators of a text repeat its tokens; where a line's tokens are written
    otherwise (1.0 for 1, false for 0, another key order, a null text, other escapes, other
    spacing) or its bytes deceive (a "tokens" key in meta first, keys given twice, the
    stand-in's bytes elsewhere in the line, a "]" in a token's text), the reading is the
    general path's."""
    rest = ('"_input_hash": 1, "_task_hash": 2, "answer": "accept", "_view_id": "ner_manual", '
            '"spans": [{"start": 0, "end": 3, "token_start": 0, "token_end": 0, '
            '"label": "PER"}], "_annotator_id": "ANN"')
    lines = []
    for k in range(data.draw(st.integers(1, 8))):
        how = data.draw(st.sampled_from(SPELLINGS))
        tokens = _spelled(_TOKS, how)
        line = '{"text": TEXT, "tokens": TOKS, REST}'
        if tricks and data.draw(st.booleans()):
            line = tricks.pop()
        lines.append(line.replace("TOKS", tokens).replace("REST", rest).replace(
            "ANN", f"ann-{k}").replace("TEXT", json.dumps(_TEXT)))
    path = tmp_path / "db.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _check(lambda: read_prodigy(path), monkeypatch)


@pytest.mark.parametrize("trick", TRICKS)
def test_a_shared_value_is_the_value_of_its_line(trick: str) -> None:
    """Line for line, iter_jsonl(shared=...) gives the values of iter_jsonl, the shared
    tokens parsed; the lines that only repeat the first's tokens give them as its bytes."""
    pytest.importorskip("orjson")
    rest = '"answer": "accept"'
    plain = '{"text": TEXT, "tokens": TOKS, REST}'
    lines = [x.replace("TOKS", _spelled(_TOKS, how)).replace("REST", rest).replace(
        "TEXT", json.dumps(_TEXT)) for x, how in (
            (plain, "same"), (trick, "same"), (plain, "same"), (plain, "tail"),
            (plain, "long"), (plain, "float"), (trick, "compact"), (plain, "compact"))]
    raw = ("\n".join(lines) + "\n").encode()

    def values(shared: str | None) -> list[Any]:
        out: list[Any] = []
        try:
            for _, value in _records.iter_jsonl(raw.splitlines(keepends=True), "x.jsonl",
                                                shared=shared):
                if isinstance(value, dict) and type(value.get("tokens")) is _records.Shared:
                    value["tokens"] = ("shared", value["tokens"].parsed())
                out.append(value)
        except InputError as err:
            out.append(("error", str(err), err.line, err.col))
        return out

    general, cut = values(None), values("tokens")
    assert len(general) == len(cut)
    for was, now in zip(general, cut, strict=True):
        if isinstance(now, dict) and isinstance(now.get("tokens"), tuple):
            now["tokens"] = now["tokens"][1]
        assert json.dumps(was) == json.dumps(now) and repr(was) == repr(now)
    with pytest.MonkeyPatch.context() as patch:  # a line repeating the bytes: not parsed
        patch.setattr(_records, "FAST", True)
        again = list(_records.iter_jsonl([lines[0].encode(), lines[2].encode()], "x.jsonl",
                                         shared="tokens"))[1][1]
    assert type(again["tokens"]) is _records.Shared and again["tokens"].value is \
        _records._NO_VALUE
