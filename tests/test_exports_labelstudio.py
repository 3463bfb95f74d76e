"""Label Studio's full JSON export (clusteragree.exports.labelstudio).

Counts are checked against the fixture read by a second route: ``json.load`` of the file and
a count of its results here (a union-find of the relations for the chains), never against the
reader's output. The fixtures are built from the documented format
(corpora_fixtures/exports/labelstudio/README.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clusteragree.errors import InputError, Ledger, ParameterError
from clusteragree.exports.doccano import sniff_doccano
from clusteragree.exports.labelstudio import read_label_studio, sniff_label_studio
from clusteragree.exports.prodigy import sniff_prodigy
from clusteragree.exports.reading import detect_export, read_export

FIX = Path(__file__).resolve().parent.parent / "corpora_fixtures" / "exports"
LS = FIX / "labelstudio"


def _components(edges: list[tuple[str, str]]) -> int:
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for a, b in edges:
        parent[find(a)] = find(b)
    return len({find(x) for x in parent})


def _expected(path: Path) -> dict[str, object]:
    """Counts of the export made from the raw JSON."""
    tasks = json.loads(path.read_text(encoding="utf-8"))
    docs = spans = relations = chains = labels = 0
    annotators = set()
    for task in tasks:
        for ann in task["annotations"]:
            if ann["was_cancelled"]:
                continue
            docs += 1
            who = ann["completed_by"]
            annotators.add(who["email"] if isinstance(who, dict) else str(who))
            regions = {r["id"] for r in ann["result"] if r["type"] == "labels"}
            spans += sum(len(r["value"]["labels"]) for r in ann["result"]
                         if r["type"] == "labels")
            edges = [(r["from_id"], r["to_id"]) for r in ann["result"]
                     if r["type"] == "relation"]
            relations += sum(max(1, len(r["labels"])) for r in ann["result"]
                             if r["type"] == "relation")
            chains += _components(edges)
            labels += sum(len(r["value"]["choices"]) for r in ann["result"]
                          if r["type"] == "choices" and r["id"] not in regions)
    return {"documents": docs, "spans": spans, "relations": relations, "chains": chains,
            "labels": labels, "annotators": annotators, "tasks": len(tasks)}


def _read(path: Path, **options: object):
    with Ledger() as ledger:
        export = read_label_studio(path, **options)
    return export, ledger.notices


@pytest.mark.parametrize("name", ["project-utf16.json", "project-codepoints.json"])
def test_counts_match_the_raw_json(name: str) -> None:
    export, _ = _read(LS / name)
    want = _expected(LS / name)
    assert len(export.documents) == want["documents"]
    assert sum(len(d.spans) for d in export) == want["spans"]
    assert sum(len(d.relations) for d in export) == want["relations"]
    assert sum(len(d.chains) for d in export) == want["chains"]
    assert sum(len(d.labels) for d in export) == want["labels"]
    assert set(export.annotators) == want["annotators"]
    assert len(export.document_names) == want["tasks"]
    assert export.tool == "label-studio"


@pytest.mark.parametrize("name", ["project-utf16.json", "project-codepoints.json"])
def test_every_span_covers_its_text(name: str) -> None:
    export, _ = _read(LS / name)
    for doc in export:
        for span in doc.spans:
            assert doc.text is not None and doc.text[span.start:span.end] == span.text


def test_the_unit_of_the_offsets_is_found_and_said() -> None:
    utf16, notes16 = _read(LS / "project-utf16.json")
    points, notes = _read(LS / "project-codepoints.json")
    said = [n for n in notes16 if "UTF-16 code units" in n.message]
    # said once for the file, counting the annotations whose regions miss their covered text
    # in code points (those of tasks 1 and 2: task 3 is ASCII)
    tasks = json.loads((LS / "project-utf16.json").read_text(encoding="utf-8"))
    off = [(t["id"], a["id"]) for t in tasks for a in t["annotations"]
           if not a["was_cancelled"] and any(
               r["type"] == "labels" and t["data"]["text"][r["value"]["start"]:
                                                          r["value"]["end"]]
               != r["value"]["text"] for r in a["result"])]
    assert {t for t, _ in off} == {1, 2}
    assert len(said) == 1 and said[0].count == len(off)
    assert not any("UTF-16" in n.message for n in notes)
    # the same regions, read from either unit, land on the same code points
    emails = {"1": "alice@example.org", "2": "bob@example.org", "3": "chen@example.org"}
    a = {(d.name, emails[d.annotator]): {(s.start, s.end, s.text) for s in d.spans}
         for d in utf16}
    b = {(d.name, d.annotator): {(s.start, s.end, s.text) for s in d.spans} for d in points}
    for key, found in b.items():
        assert found <= a[key]  # utf16 adds bob's second label of Paris on task 3
    text = next(d.text for d in points if d.name == "1")
    she = next(s for d in points if d.name == "1" for s in d.spans if s.text == "She")
    assert (she.start, she.end) == (text.index("She"), text.index("She") + 3)
    raw = json.loads((LS / "project-utf16.json").read_text(encoding="utf-8"))
    written = next(r["value"] for r in raw[0]["annotations"][0]["result"]
                   if r["type"] == "labels" and r["value"]["text"] == "She")
    assert written["start"] == she.start + 1  # one more UTF-16 unit: the emoji's surrogate


def test_edge_cases_are_in_the_ledger() -> None:
    export, notices = _read(LS / "project-utf16.json")
    by = {n.message.split(" (")[0].split(",")[0]: n for n in notices}
    assert by["predictions"].kind == "ignored" and by["predictions"].count == 1
    assert by["cancelled"].kind == "skipped" and by["cancelled"].count == 1
    assert by["annotations marked ground truth"].kind == "note"
    assert by["regions with several labels"].count == 1
    assert any(n.kind == "ignored" and "'textarea'" in n.message for n in notices)
    paris = [s for d in export if d.name == "3" and d.annotator == "2" for s in d.spans
             if s.text == "Paris"]
    assert sorted((s.id.endswith("[2]"), s.label) for s in paris) == [(False, "LOC"),
                                                                        (True, "ORG")]
    chen = next(d for d in export if d.name == "3" and d.annotator == "3")
    assert chen.spans[0].features == (("sure", "certain"),)
    assert {lab.layer for lab in chen.labels} == {"topic"}
    left = next(d for d in export if d.name == "1" and d.annotator == "3")
    assert ("t1-3-3", "t1-3-2") in {(r.source, r.target) for r in left.relations}


def test_strict_reading_refuses_what_is_left_out() -> None:
    with pytest.raises(InputError, match="strict reading refuses"), Ledger(strict=True):
        read_label_studio(LS / "project-utf16.json")


def test_annotators_by_email_or_id() -> None:
    by_email, _ = _read(LS / "project-codepoints.json")
    by_id, _ = _read(LS / "project-codepoints.json", annotator_key="id")
    assert by_email.annotators == ("alice@example.org", "bob@example.org",
                                   "chen@example.org")
    assert by_id.annotators == ("1", "2", "3")


def test_duplicates_are_refused_or_chosen() -> None:
    with pytest.raises(InputError, match=r"ids 301 and 303.*duplicates='first'"):
        read_label_studio(LS / "duplicates.json")
    raw = json.loads((LS / "duplicates.json").read_text(encoding="utf-8"))[0]["annotations"]
    labels = [sum(1 for r in a["result"] if r["type"] == "labels") for a in raw]
    for choice, which in (("first", 0), ("last", 2)):
        export, notices = _read(LS / "duplicates.json", duplicates=choice)
        alice = next(d for d in export if d.annotator == "1")
        assert len(alice.spans) == labels[which]
        assert any(n.kind == "skipped" and choice in n.message for n in notices)
        assert len(export.documents) == 2


def test_the_text_field_is_found_or_named() -> None:
    export, _ = _read(LS / "two-text-fields.json")
    raw = json.loads((LS / "two-text-fields.json").read_text(encoding="utf-8"))
    assert export.documents[0].text == raw[0]["data"]["text"]
    with pytest.raises(InputError, match=r"no text field 'body' \(its fields: text, title\)"):
        read_label_studio(LS / "two-text-fields.json", text_key="body")


def test_mixed_units_are_refused() -> None:
    with pytest.raises(InputError, match="mix units"):
        read_label_studio(LS / "mixed-units.json")


@pytest.mark.parametrize("name", ["json-min.json", "export.csv"])
def test_flat_exports_are_refused_with_the_reason(name: str) -> None:
    with pytest.raises(InputError, match=r"regions lose their ids.*as JSON"):
        read_label_studio(LS / name)


def test_bad_options() -> None:
    with pytest.raises(ParameterError, match="duplicates"):
        read_label_studio(LS / "duplicates.json", duplicates="both")
    with pytest.raises(ParameterError, match="annotator_key"):
        read_label_studio(LS / "duplicates.json", annotator_key="name")


@pytest.mark.parametrize(("content", "message"), [
    ('[{"id": 1, "annotations": [}]', "not JSON"),
    ("[1]", "not a JSON object"),
    ('[{"id": 1, "data": {"text": "ab"}, "annotations": [{"id": 2, "result": []}]}]',
     "names no annotator"),
    ('[{"id": 1, "data": {"text": "ab"}, "annotations": [{"completed_by": 1, "result": '
     '[{"id": "r", "type": "labels", "value": {"start": "0", "end": 1, "labels": []}}]}]}]',
     "character"),
    ('[{"id": 1, "data": {"text": "ab"}, "annotations": [{"completed_by": 1, "result": '
     '[{"id": "r", "type": "labels", "value": {"start": 0, "end": 1e999}}]}]}]',
     "out of the range"),
    ('[{"id": 1, "data": {"text": "ab"}}] x', "after the end"),
    ('{"id": 1}', "not a JSON array"),
    ('[{"id": 1, "completions": []}]', "0.x"),
])
def test_malformed_input_is_an_input_error(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(content, encoding="utf-8")
    with Ledger():
        try:
            read_label_studio(path)
        except InputError as err:
            assert message in str(err)
            assert str(err).startswith(str(path))
        else:
            assert message == "character"  # offsets in seconds: ignored, not an error


JSON_FORMATS = ("label-studio", "doccano", "prodigy")


def test_auto_detection_reads_it() -> None:
    path = LS / "project-codepoints.json"
    assert detect_export(path, among=JSON_FORMATS) == "label-studio"
    with Ledger():
        export = read_export(path, "label-studio")
    assert export.tool == "label-studio"


def _fixtures(folder: str) -> list[Path]:
    return sorted((FIX / folder).iterdir())


def _head(path: Path) -> bytes:
    return b"" if path.is_dir() else path.read_bytes()[:65536]


@pytest.mark.parametrize("path", _fixtures("labelstudio"), ids=lambda p: p.name)
def test_only_its_recogniser_accepts_a_label_studio_fixture(path: Path) -> None:
    if path.suffix == ".md":
        return
    assert sniff_label_studio(path, _head(path))
    assert not sniff_doccano(path, _head(path))
    assert not sniff_prodigy(path, _head(path))


@pytest.mark.parametrize("path", _fixtures("doccano") + _fixtures("prodigy"),
                         ids=lambda p: p.name)
def test_the_recogniser_refuses_the_other_formats(path: Path) -> None:
    assert not sniff_label_studio(path, _head(path))


def test_the_array_read_a_window_at_a_time_is_the_array_read_whole(monkeypatch) -> None:
    """Random arrays (non-ASCII, emoji, several layouts) and corrupted copies: the windowed
    reading gives the elements and lines, or the refusal and its line, that reading the text
    whole gives, whatever the window's size."""
    import random

    from clusteragree.exports import _json_array, _records

    rnd = random.Random(24)
    for _ in range(300):
        items = [{"id": k, "t": "é\N{GRINNING FACE}x" * rnd.randint(0, 20), "n": [1, 2.5, None]}
                 for k in range(rnd.randint(0, 8))]
        sep = rnd.choice([",", ",\n", " ,\r\n  "])
        text = ("[" + rnd.choice(["", "\n"]) + sep.join(
            json.dumps(i, ensure_ascii=rnd.random() < 0.5, indent=rnd.choice([None, 1]))
            for i in items) + rnd.choice(["", "\n"]) + "]" + rnd.choice(["", "\n"]))
        if items and rnd.random() < 0.5:
            k = rnd.randrange(len(text))
            text = text[:k] + rnd.choice(["", "}", "x", ",", "]", "["]) + text[k + 1:]
        monkeypatch.setattr(_json_array, "WINDOW", rnd.choice([1, 3, 8, 64, 1000]))
        whole = windowed = None
        try:
            whole = [(n, v) for n, _, _, v in _records.iter_json_array(text, "x")]
        except InputError as err:
            whole = err.line
        try:
            windowed = [(n, v) for n, _, _, _, v in
                        _json_array.iter_json_array_bytes(text.encode(), "x")]
        except InputError as err:
            windowed = err.line
        assert whole == windowed


def test_utf16_offsets_and_the_grapheme_shortcut_against_brute_force() -> None:
    """Every UTF-16 offset of random texts (emoji, combining marks, Hangul, flags, CR LF)
    read as code points as the definition says (the code point where that many UTF-16 units
    end, none inside a surrogate pair); and a text is checked for graphemes exactly when its
    grapheme clusters are not its code points."""
    import random

    import regex

    from clusteragree.exports.offsets import UNITS, _needs_check, _positions, convert_offsets

    rnd = random.Random(7)
    pool = ["a", "é", "e\u0301", "\N{GRINNING FACE}", "\u1100\u1161", "\U0001F1EB\U0001F1F7",
            "\r\n", "\u200d", "\u0915\u094d", "Ł", " "]
    for _ in range(400):
        text = "".join(rnd.choice(pool) for _ in range(rnd.randrange(0, 12)))
        units = len(text.encode("utf-16-le")) // 2
        ends = {len(text[:c].encode("utf-16-le")) // 2: c for c in range(len(text) + 1)}
        got = [_positions(text).to_code_points(u, UNITS[1]) for u in range(units + 2)]
        assert got == [ends.get(u) for u in range(units + 2)]
        assert convert_offsets(text, [(0, units)], UNITS[1]) == [(0, len(text))]
        clusters = len(regex.findall(r"\X", text))
        differs = clusters != len(text) or units != len(text)
        assert _needs_check(text) == differs
