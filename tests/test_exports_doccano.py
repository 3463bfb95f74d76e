"""doccano's JSONL export by user (clusteragree.exports.doccano).

Counts are checked against the fixtures read by a second route (``json.loads`` of each line
and a union-find of the relations here). The fixtures are built from doccano's export code
(corpora_fixtures/exports/doccano/README.md).
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from clusteragree.errors import InputError, Ledger
from clusteragree.exports.doccano import read_doccano, sniff_doccano
from clusteragree.exports.labelstudio import sniff_label_studio
from clusteragree.exports.prodigy import sniff_prodigy
from clusteragree.exports.reading import detect_export

FIX = Path(__file__).resolve().parent.parent / "corpora_fixtures" / "exports"
DOC = FIX / "doccano"


def _components(edges: list[tuple[int, int]]) -> int:
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for a, b in edges:
        parent[find(a)] = find(b)
    return len({find(x) for x in parent})


def _files(path: Path) -> dict[str, list[dict]]:
    """user -> the records of their file, read with json.loads."""
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as z:
            return {n[:-6]: [json.loads(x) for x in z.read(n).decode().splitlines() if x]
                    for n in z.namelist()}
    return {p.stem: [json.loads(x) for x in p.read_text(encoding="utf-8").splitlines() if x]
            for p in sorted(path.glob("*.jsonl")) if p.stem != "unknown"}


def _read(path: object):
    with Ledger() as ledger:
        export = read_doccano(path)  # type: ignore[arg-type]
    return export, ledger.notices


@pytest.mark.parametrize("name", ["relations-by-user.zip", "sequence-labelling",
                                  "text-classification", "doccano-1.5"])
def test_counts_match_the_raw_lines(name: str) -> None:
    export, _ = _read(DOC / name)
    files = _files(DOC / name)
    records = [(user, r) for user, rs in files.items() for r in rs]
    assert set(export.annotators) == set(files)
    assert len(export.documents) == len(records)
    spans = labels = relations = chains = 0
    for _, r in records:
        text = r.get("text", r.get("data"))
        for value in r.get("label", []):
            if isinstance(value, str):
                labels += 1
            else:
                spans += value[1] <= len(text)  # the span past the end is left out
        spans += len(r.get("entities", []))
        relations += len(r.get("relations", []))
        chains += _components([(x["from_id"], x["to_id"]) for x in r.get("relations", [])])
    assert sum(len(d.spans) for d in export) == spans
    assert sum(len(d.labels) for d in export) == labels
    assert sum(len(d.relations) for d in export) == relations
    assert sum(len(d.chains) for d in export) == chains


def test_offsets_are_code_points() -> None:
    export, _ = _read(DOC / "relations-by-user.zip")
    files = _files(DOC / "relations-by-user.zip")
    for doc in export:
        record = next(r for r in files[doc.annotator] if str(r["id"]) == doc.name)
        for span, entity in zip(doc.spans, record["entities"], strict=True):
            assert (span.start, span.end) == (entity["start_offset"], entity["end_offset"])
            assert span.id == str(entity["id"])
    text = next(d.text for d in export if d.name == "1")
    she = next(s for d in export if d.name == "1" and d.annotator == "alice"
               for s in d.spans if text[s.start:s.end] == "She")
    assert she.start == text.index("She")  # after the emoji, counted as one character


def test_the_paths_given_as_files_directory_or_zip_agree() -> None:
    folder, _ = _read(DOC / "sequence-labelling")
    files, _ = _read(sorted((DOC / "sequence-labelling").glob("*.jsonl")))
    one, _ = _read(DOC / "sequence-labelling" / "bob.jsonl")
    assert [(d.name, d.annotator, d.spans) for d in folder] == \
        [(d.name, d.annotator, d.spans) for d in files]
    assert one.annotators == ("bob",)


def test_notices() -> None:
    _, notices = _read(DOC / "sequence-labelling")
    outside = [n for n in notices if n.kind == "skipped"]
    assert len(outside) == 1 and outside[0].line == 3 and "outside the text" in \
        outside[0].message
    assert any(n.kind == "note" and "source" in n.message for n in notices)
    _, notices = _read(DOC / "doccano-1.5")
    assert any(n.kind == "skipped" and "unknown.jsonl" in n.message for n in notices)
    with pytest.raises(InputError, match="strict reading refuses"), Ledger(strict=True):
        read_doccano(DOC / "sequence-labelling")


def test_a_merged_export_is_refused_with_the_option_to_choose() -> None:
    with pytest.raises(InputError, match="Share annotations across all users"):
        read_doccano(DOC / "collaborative.zip")


def test_missing_documents_are_missing_in_old_exports() -> None:
    export, _ = _read(DOC / "doccano-1.5")
    assert {d.name for d in export if d.annotator == "bob"} == {"1", "2"}
    assert {d.name for d in export if d.annotator == "alice"} == {"1", "2", "3"}


@pytest.mark.parametrize(("content", "message"), [
    ('{"id": 1, "text": "ab", "label": [[0, 1]]}', "[start, end, label]"),
    ('{"id": 1, "text": "ab", "label": [[0, "1", "X"]]}', "[start, end, label]"),
    ('{"id": 1, "label": []}', '"text" is missing'),
    ('{"id": 1, "text": "ab", "label": [}', "not JSON"),
    ('[1, 2]', "not"),
    ('{"id": 1, "text": "ab"}\n{"id": 1, "text": "ab"}', "written twice"),
    ('{"id": 1, "text": "ab", "entities": [{"id": 1, "label": "X", "start_offset": 0}]}',
     '"end_offset" is missing'),
    ('{"id": 1, "text": "ab", "annotations": [{"label": 3, "start_offset": 0, '
     '"end_offset": 1, "user": 1}]}', "1.x"),
    ('{"id": 1, "text": "ab", "label": [[0, 1, "X"]]}\n\xff', "byte 0xff"),
])
def test_malformed_input_is_an_input_error(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "ann.jsonl"
    path.write_bytes(content.encode("utf-8").replace(b"\xc3\xbf", b"\xff"))
    with pytest.raises(InputError) as caught:
        read_doccano(path)
    assert message in str(caught.value)
    assert str(caught.value).startswith(str(path))


def test_all_jsonl_alone_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "all.jsonl"
    path.write_text('{"id": 1, "text": "ab", "label": [[0, 1, "X"]]}\n', encoding="utf-8")
    with pytest.raises(InputError, match="does not say who annotated what"):
        read_doccano(path)


def _head(path: Path) -> bytes:
    return b"" if path.is_dir() else path.read_bytes()[:65536]


def _fixtures(folder: str) -> list[Path]:
    return [p for p in sorted((FIX / folder).iterdir()) if p.suffix != ".md"]


@pytest.mark.parametrize("path", _fixtures("doccano"), ids=lambda p: p.name)
def test_only_its_recogniser_accepts_a_doccano_fixture(path: Path) -> None:
    assert sniff_doccano(path, _head(path))
    assert not sniff_label_studio(path, _head(path))
    assert not sniff_prodigy(path, _head(path))
    if path.name != "doccano-1.5":  # its unknown.jsonl is among the files
        assert detect_export(path, among=("label-studio", "doccano", "prodigy")) == "doccano"


@pytest.mark.parametrize("path", _fixtures("labelstudio") + _fixtures("prodigy"),
                         ids=lambda p: p.name)
def test_the_recogniser_refuses_the_other_formats(path: Path) -> None:
    assert not sniff_doccano(path, _head(path))
