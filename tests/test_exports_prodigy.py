"""Prodigy's db-out JSONL (clusteragree.exports.prodigy).

Counts are checked against the fixtures read by a second route (``json.loads`` of each line,
the answers sorted out here by the documented rules, a union-find of the relations). The
fixtures are built from Prodigy's documented task formats
(corpora_fixtures/exports/prodigy/README.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clusteragree.errors import InputError, Ledger, ParameterError
from clusteragree.exports.doccano import sniff_doccano
from clusteragree.exports.labelstudio import sniff_label_studio
from clusteragree.exports.prodigy import read_prodigy, sniff_prodigy
from clusteragree.exports.reading import detect_export

FIX = Path(__file__).resolve().parent.parent / "corpora_fixtures" / "exports"
PRO = FIX / "prodigy"


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x]


def _components(edges: list[tuple[tuple[int, int], tuple[int, int]]]) -> int:
    parent: dict[tuple[int, int], tuple[int, int]] = {}

    def find(x: tuple[int, int]) -> tuple[int, int]:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for a, b in edges:
        parent[find(a)] = find(b)
    return len({find(x) for x in parent})


def _read(path: Path, **options: object):
    with Ledger() as ledger:
        export = read_prodigy(path, **options)  # type: ignore[arg-type]
    return export, ledger.notices


def test_manual_coreference_counts() -> None:
    path = PRO / "coref-manual.jsonl"
    export, notices = _read(path)
    kept: dict[tuple[str, int], dict] = {}  # the last accepted answer per annotator and input
    for line in _lines(path):
        if line["answer"] == "accept":
            kept[(line["_annotator_id"], line["_input_hash"])] = line
    assert len(export.documents) == len(kept)
    assert set(export.annotators) == {a for a, _ in kept}
    assert sum(len(d.spans) for d in export) == sum(len(x["spans"]) for x in kept.values())
    assert sum(len(d.relations) for d in export) == \
        sum(len(x["relations"]) for x in kept.values())
    chains = sum(_components([((r["head_span"]["start"], r["head_span"]["end"]),
                               (r["child_span"]["start"], r["child_span"]["end"]))
                              for r in x["relations"]]) for x in kept.values())
    assert sum(len(d.chains) for d in export) == chains
    assert {d.name for d in export} == {x["meta"]["doc_id"] for x in kept.values()}
    kinds = {n.message.split(" (")[0]: (n.kind, n.count) for n in notices}
    assert kinds["examples the annotator skipped"] == ("skipped", 1)
    assert kinds["examples the annotator rejected"] == ("skipped", 1)
    assert kinds["second manual annotations of one input by one annotator"] == ("skipped", 1)
    for doc in export:
        assert doc.tokens and all(doc.text[s.start:s.end] == s.text for s in doc.spans)


def test_rejected_examples_are_read_on_request() -> None:
    export, _ = _read(PRO / "coref-manual.jsonl", answers="accept,reject")
    bob = next(d for d in export if d.annotator == "coref-bob" and d.name == "t2")
    rejected = next(x for x in _lines(PRO / "coref-manual.jsonl") if x["answer"] == "reject")
    assert len(bob.spans) == len(rejected["spans"])
    with pytest.raises(ParameterError, match="answers"):
        read_prodigy(PRO / "coref-manual.jsonl", answers="accept,ignore")


def test_offsets_are_code_points_and_tokens_inclusive() -> None:
    export, _ = _read(PRO / "coref-manual.jsonl")
    first = _lines(PRO / "coref-manual.jsonl")[0]
    doc = next(d for d in export if d.annotator == first["_annotator_id"] and d.name == "t1")
    for span, raw in zip(doc.spans, first["spans"], strict=True):
        assert (span.start, span.end) == (raw["start"], raw["end"])
        assert doc.tokens[raw["token_start"]][0] == span.start
        assert doc.tokens[raw["token_end"]][1] == span.end  # the last token, included
    she = next(s for s in doc.spans if s.text == "She")
    assert she.start == doc.text.index("She")
    _, notices = _read(PRO / "token-mismatch.jsonl")
    assert [n.kind for n in notices] == ["mismatch"]


def test_document_labels_of_choices_and_binary_questions() -> None:
    choice, _ = _read(PRO / "textcat-choice.jsonl")
    lines = _lines(PRO / "textcat-choice.jsonl")
    assert sum(len(d.labels) for d in choice) == sum(len(x["accept"]) for x in lines)
    assert {lab.layer for d in choice for lab in d.labels} == {"choice"}
    binary, _ = _read(PRO / "textcat-binary.jsonl")
    lines = _lines(PRO / "textcat-binary.jsonl")
    assert len(binary.documents) == len({(x["_annotator_id"], x["_input_hash"])
                                         for x in lines})
    got = sorted((d.annotator, d.name, lab.layer, lab.label) for d in binary
                 for lab in d.labels)
    want = sorted((x["_annotator_id"], str(x["_input_hash"]), x["label"], x["answer"])
                  for x in lines)
    assert got == want


def test_binary_span_decisions_and_anonymous_sessions() -> None:
    with Ledger() as ledger, pytest.raises(InputError, match="no annotation to read"):
        read_prodigy(PRO / "ner-teach.jsonl")
    assert any("binary decisions" in n.message for n in ledger.notices)
    with pytest.raises(InputError, match=r"names no annotator.*\?session=NAME"):
        read_prodigy(PRO / "no-session.jsonl")


def test_strict_reading() -> None:
    with pytest.raises(InputError, match="strict reading refuses"), Ledger(strict=True):
        read_prodigy(PRO / "coref-manual.jsonl")
    with Ledger(strict=True):
        read_prodigy(PRO / "textcat-choice.jsonl")


@pytest.mark.parametrize(("content", "message"), [
    ('{"text": "ab", "_input_hash": 1, "answer": "maybe", "_session_id": "s"}', "answer"),
    ('{"text": "ab", "_input_hash": 1, "answer": "accept", "_session_id": "s", '
     '"tokens": [{"start": 0, "end": 9}]}', "not within the text"),
    ('{"text": "ab", "_input_hash": 1, "answer": "accept", "_session_id": "s", '
     '"tokens": [], "spans": [{"start": -1, "end": 1}]}', "below 0"),
    ('{"text": "ab", "_input_hash": 1, "answer": "accept", "_session_id": "s", '
     '"tokens": [], "relations": [{"head": 4, "child": 0}]}', "token 4"),
    ('{"text": "ab", "answer": "accept", "_session_id": "s"}', '"_input_hash" is missing'),
    ('{"text": "ab", "_input_hash": 1, "answer": "accept", "_session_id": "s", '
     '"options": [{"id": 1}], "accept": [[1]]}', "option ids"),
    ('{"text": "ab", "_input_hash": ' + "1" * 5000 + ', "answer": "accept"}', "too long"),
])
def test_malformed_input_is_an_input_error(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "db.jsonl"
    path.write_text('{"text": "x", "_input_hash": 9, "answer": "ignore", "_session_id": "s"}\n'
                    + content + "\n", encoding="utf-8")
    with Ledger(), pytest.raises(InputError) as caught:
        read_prodigy(path)
    assert message in str(caught.value)
    assert str(caught.value).startswith(f"{path}:2")


def _head(path: Path) -> bytes:
    return b"" if path.is_dir() else path.read_bytes()[:65536]


def _fixtures(folder: str) -> list[Path]:
    return [p for p in sorted((FIX / folder).iterdir()) if p.suffix != ".md"]


@pytest.mark.parametrize("path", _fixtures("prodigy"), ids=lambda p: p.name)
def test_only_its_recogniser_accepts_a_prodigy_fixture(path: Path) -> None:
    assert sniff_prodigy(path, _head(path))
    assert not sniff_label_studio(path, _head(path))
    assert not sniff_doccano(path, _head(path))
    assert detect_export(path, among=("label-studio", "doccano", "prodigy")) == "prodigy"


@pytest.mark.parametrize("path", _fixtures("labelstudio") + _fixtures("doccano"),
                         ids=lambda p: p.name)
def test_the_recogniser_refuses_the_other_formats(path: Path) -> None:
    assert not sniff_prodigy(path, _head(path))
