"""``validate`` on span tables and annotation tools' exports (clusteragree.spans.checks).

One hand-made file per test id, with one planted problem, fires that id (and what follows from
it by definition, named where it happens); the clean files fire nothing at error class. On the
real files (INCEpTION's TSV suite, the Kafka chapter and project export in ../shared/corpora,
the fixtures of corpora_fixtures/), validate runs without an internal error and its counts are
checked against counts made here from the raw files (a regular expression over WebAnno TSV,
``json.loads`` of the JSON exports, the csv module over the tables), or against a perturbation
whose effect is known (a second annotator made from the first).
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

from clusteragree.cli import main
from clusteragree.cli.validate import validate_paths
from clusteragree.errors import InputError
from clusteragree.exports import AnnotatedDocument, Chain, Relation, Span
from clusteragree.incidents import TESTS, Incident
from clusteragree.spans.checks import document_incidents

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "corpora_fixtures"
INCEPTION = ROOT.parent / "shared" / "corpora" / "tool-exports" / "inception"
SUITE = sorted(INCEPTION.glob("tsv3-suite/*/reference.tsv")) if INCEPTION.is_dir() else []
KAFKA = INCEPTION / "tsv3" / "coref.tsv"
needs_inception = pytest.mark.skipif(not SUITE or not KAFKA.exists(),
                                     reason="../shared/corpora/tool-exports is not here")

HEADER = "annotator,document,start,end,label\n"
CLEAN = HEADER + "A,d1,0,4,PER\nA,d1,9,13,LOC\nB,d1,0,4,PER\nB,d1,9,13,LOC\n"


def incidents(paths: list[Path], fmt: str = "auto", level: int = 3, **options: Any
              ) -> list[Incident]:
    return list(validate_paths([str(p) for p in paths], fmt, level=level, **options))


def ids(found: list[Incident]) -> set[str]:
    return {i.test_id for i in found}


def counts(found: list[Incident]) -> Counter[str]:
    out: Counter[str] = Counter()
    for i in found:
        out[i.test_id] += i.count
    return out


def table(tmp_path: Path, text: str, name: str = "spans.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def tsv(text: str, tokens: list[tuple[str, int, int, str, str]]) -> str:
    """A one-sentence WebAnno TSV 3.3 file with one span layer (NamedEntity value)."""
    lines = ["#FORMAT=WebAnno TSV 3.3",
             "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value", "", "",
             f"#Text={text}"]
    lines += [f"{uid}\t{b}-{e}\t{form}\t{ne}\t" for uid, b, e, form, ne in tokens]
    return "\n".join(lines) + "\n"


def doccano(tmp_path: Path, user: str, docs: dict[int, tuple[str, list[list[object]]]]) -> Path:
    folder = tmp_path / "doccano"
    folder.mkdir(exist_ok=True)
    path = folder / f"{user}.jsonl"
    path.write_text("".join(json.dumps({"id": k, "text": t, "label": spans}) + "\n"
                            for k, (t, spans) in docs.items()), encoding="utf-8")
    return path


TEXT1 = "Mary met John in Rome."
TEXT2 = "Paris is big."


# --- the registry --------------------------------------------------------------------------

def test_every_test_of_the_domain_is_registered_with_a_class_and_level() -> None:
    ours = {k: t for k, t in TESTS.items() if t.domain == "spans"}
    assert len(ours) == 20
    assert all(k.startswith("spans-") for k in ours)
    errors = {k for k, t in ours.items() if t.severity == "error"}
    assert errors == {"spans-row-fields", "spans-row-empty", "spans-row-offset",
                      "spans-bad-offsets", "spans-label-unknown", "spans-relation-end-missing",
                      "spans-tokens-overlap", "spans-text-differs", "spans-document-twice"}


# --- span tables: one planted problem each --------------------------------------------------

def test_a_clean_table_fires_nothing(tmp_path: Path) -> None:
    assert incidents([table(tmp_path, CLEAN)]) == []


@pytest.mark.parametrize(("row", "expected"), [
    ("A,d1,5,7\n", "spans-row-fields"),
    ("A,,5,7,PER\n", "spans-row-empty"),
    ("A,d1,five,7,PER\n", "spans-row-offset"),
    ("A,d1,5,nan,PER\n", "spans-row-offset"),
])
def test_a_bad_row_is_reported_once_at_level_1(tmp_path: Path, row: str, expected: str) -> None:
    found = incidents([table(tmp_path, CLEAN + row)])
    # the reader refuses the file at that row: said once, by the scan's test
    assert [(i.test_id, i.line) for i in found] == [(expected, 6)]
    assert TESTS[expected].severity == "error"


def test_the_scan_reports_every_bad_row_not_only_the_first(tmp_path: Path) -> None:
    text = CLEAN + "A,d1,5,7\nB,d1,1,2,PER\nA,d1,x,y,PER\n,d1,1,2,PER\n"
    found = incidents([table(tmp_path, text)], level=1)
    assert [(i.test_id, i.line) for i in found] == [
        ("spans-row-fields", 6), ("spans-row-offset", 8), ("spans-row-offset", 8),
        ("spans-row-empty", 9)]


def test_pygamma_rows_are_scanned_too(tmp_path: Path) -> None:
    path = table(tmp_path, "Alex,1,2,9\nAlex,1,2\nPaul,,2,x\nPaul,1,2,9\n", "talk.csv")
    found = incidents([path], "pygamma", level=1)
    assert [(i.test_id, i.line) for i in found] == [
        ("spans-row-fields", 2), ("spans-row-empty", 3), ("spans-row-offset", 3)]


def test_a_refusal_the_scan_does_not_see_is_the_readers(tmp_path: Path) -> None:
    found = incidents([table(tmp_path, "annotator,document,begin\nA,d,1\n")],
                      "spans-csv")
    assert [i.test_id for i in found] == ["read-refused"]


@pytest.mark.parametrize(("row", "expected", "severity"), [
    ("A,d1,7,5,PER\n", "spans-bad-offsets", "error"),
    ("A,d1,-1,5,PER\n", "spans-bad-offsets", "error"),
    ("A,d1,5,5,PER\n", "spans-zero-length", "warning"),
    ("A,d1,0,4,PER\n", "spans-duplicate", "warning"),
    ("A,d1,2,6,PER\n", "spans-overlap", "information"),
])
def test_one_planted_problem_per_level_2_test(tmp_path: Path, row: str, expected: str,
                                              severity: str) -> None:
    found = incidents([table(tmp_path, CLEAN + row)], level=2)
    assert ids(found) == {expected}
    assert TESTS[expected].severity == severity and TESTS[expected].level == 2


def test_offsets_past_the_text_and_fractional_ones_need_the_texts(tmp_path: Path) -> None:
    texts = tmp_path / "text"
    texts.mkdir()
    (texts / "d1.txt").write_text(TEXT1, encoding="utf-8")
    past = table(tmp_path, CLEAN + "A,d1,17,40,LOC\n")
    assert ids(incidents([past], level=2)) == set()
    found = incidents([past], level=2, text_dir=str(texts))
    assert [(i.test_id, i.line) for i in found] == [("spans-bad-offsets", 6)]
    half = table(tmp_path, CLEAN + "A,d1,0.5,4,PER\n", "half.csv")
    assert ids(incidents([half], level=2)) == {"spans-overlap"}
    assert ids(incidents([half], level=2, text_dir=str(texts))) == {
        "spans-fractional-offset", "spans-overlap"}  # 0.5-4 overlaps 0-4 by definition


def test_labels_outside_the_vocabulary(tmp_path: Path) -> None:
    path = table(tmp_path, CLEAN)
    assert incidents([path], vocabulary=["PER", "LOC"]) == []
    found = incidents([path], vocabulary=["PER", "ORG"])
    assert [(i.test_id, i.annotator, i.line) for i in found] == [
        ("spans-label-unknown", "A", 3), ("spans-label-unknown", "B", 5)]


def test_one_annotator_files_named_by_names_or_stems(tmp_path: Path) -> None:
    a = table(tmp_path, "document,start,end,label\nd1,0,4,PER\n", "ann1.csv")
    b = table(tmp_path, "document,start,end,label\nd1,0,4,PER\nd1,5,8,PER\n", "ann2.csv")
    found = incidents([a, b])
    assert [(i.test_id, i.annotator) for i in found] == [("spans-one-annotator", "ann2.csv")]
    found = incidents([a, b], names=["x", "y"])
    assert [(i.test_id, i.annotator) for i in found] == [("spans-one-annotator", "y")]


def test_level_3_on_tables(tmp_path: Path) -> None:
    extra = table(tmp_path, CLEAN + "B,d1,15,20,LOC\n")
    assert [(i.test_id, i.annotator) for i in incidents([extra])] == [
        ("spans-one-annotator", "B")]
    unmarked = table(tmp_path, CLEAN + "A,d2,0,4,PER\n", "unmarked.csv")
    found = incidents([unmarked])
    # B marks nothing in d2: A's span there is one only A has, by definition
    assert [(i.test_id, i.annotator) for i in found] == [
        ("spans-document-unmarked", "B"), ("spans-one-annotator", "A")]
    drift = table(tmp_path, CLEAN + "B,d1,15,20,MISC\n", "drift.csv")
    assert [(i.test_id, i.annotator) for i in incidents([drift])] == [
        ("spans-label-one-annotator", "B"), ("spans-one-annotator", "B")]
    assert {TESTS[k].severity for k in ("spans-one-annotator", "spans-document-unmarked",
                                        "spans-label-one-annotator")} == {"information"}


# --- exports: one planted problem each ------------------------------------------------------

TOKENS = [("1-1", 0, 4, "Mary", "PER"), ("1-2", 5, 8, "met", "_"), ("1-3", 9, 13, "John", "PER"),
          ("1-4", 14, 16, "in", "_"), ("1-5", 17, 21, "Rome", "LOC"), ("1-6", 21, 22, ".", "_")]


def test_a_clean_webanno_document_by_two_annotators_fires_nothing(tmp_path: Path) -> None:
    a, b = tmp_path / "a.tsv", tmp_path / "b.tsv"
    a.write_text(tsv(TEXT1, TOKENS), encoding="utf-8")
    b.write_text(tsv(TEXT1, TOKENS), encoding="utf-8")
    assert incidents([a, b]) == []


def test_tokens_that_overlap_or_leave_text_uncovered(tmp_path: Path) -> None:
    over = tmp_path / "over.tsv"
    over.write_text(tsv("aaaa bb", [("1-1", 0, 3, "aaa", "_"), ("1-2", 1, 4, "aaa", "_"),
                                    ("1-3", 5, 7, "bb", "_")]), encoding="utf-8")
    found = incidents([over], level=2)
    assert [(i.test_id, i.node) for i in found] == [("spans-tokens-overlap", "2")]
    gap = tmp_path / "gap.tsv"
    gap.write_text(tsv("ab cd xy", [("1-1", 0, 2, "ab", "_"), ("1-2", 6, 8, "xy", "_")]),
                   encoding="utf-8")
    found = incidents([gap], level=2)
    assert [i.test_id for i in found] == ["spans-tokens-gap"]
    assert "2-6, ' cd '" in found[0].message


def test_a_text_that_differs_names_the_first_differing_character(tmp_path: Path) -> None:
    a, b = tmp_path / "a.tsv", tmp_path / "b.tsv"
    a.write_text(tsv(TEXT1, TOKENS), encoding="utf-8")
    b.write_text(tsv(TEXT1.replace("Rome", "Rame"), [
        t if t[0] != "1-5" else ("1-5", 17, 21, "Rame", "LOC") for t in TOKENS]),
        encoding="utf-8")
    found = incidents([a, b])
    assert [(i.test_id, i.annotator) for i in found] == [("spans-text-differs", "b.tsv")]
    assert f"from character {TEXT1.index('Rome') + 1}" in found[0].message


def test_the_readers_mismatch_notice_is_not_reported_again(tmp_path: Path) -> None:
    path = tmp_path / "ls.json"
    region = {"id": "r1", "from_name": "label", "to_name": "text", "type": "labels",
              "value": {"start": 0, "end": 4, "text": "Mory", "labels": ["PER"]}}
    path.write_text(json.dumps([{"id": 1, "data": {"text": TEXT1}, "annotations": [
        {"id": 1, "completed_by": 1, "result": [region]}]}]), encoding="utf-8")
    assert [i.test_id for i in incidents([path], "label-studio")] == ["read-mismatch"]


def test_relation_and_chain_ends_that_are_not_spans() -> None:
    # every reader leaves such relations out (a read-skipped notice): the model is made here
    doc = AnnotatedDocument("d", "ann", TEXT1, spans=(Span("1", 0, 4, "ne", "PER"),),
                            relations=(Relation("1", "7", "coref", None, line=3),),
                            chains=(Chain("c1", "chain", ("1", "8", "9")),))
    found = list(document_incidents(doc))
    assert [(i.test_id, i.node, i.count) for i in found] == [
        ("spans-relation-end-missing", "7", 1), ("spans-relation-end-missing", "8", 2)]


def test_the_vocabulary_applies_to_the_layers_that_use_it() -> None:
    doc = AnnotatedDocument("d", "ann", TEXT1, spans=(
        Span("1", 0, 4, "ne", "PER"), Span("2", 17, 21, "ne", "LCO"),
        Span("3", 0, 4, "lemma", "Mary")))
    found = list(document_incidents(doc, vocabulary=["PER", "LOC"]))
    assert [(i.test_id, i.node) for i in found] == [("spans-vocabulary-layers", None),
                                                   ("spans-label-unknown", "2")]
    assert "'lemma'" in found[0].message


def test_missing_documents_and_no_shared_document(tmp_path: Path) -> None:
    alice = doccano(tmp_path, "alice", {1: (TEXT1, [[0, 4, "PER"]]), 2: (TEXT2, [[0, 5, "PER"]])})
    bob = doccano(tmp_path, "bob", {1: (TEXT1, [[0, 4, "PER"]])})
    found = incidents([alice, bob], "doccano")
    assert [(i.test_id, i.annotator, i.count) for i in found] == [
        ("spans-document-missing", "bob", 1)]
    assert TESTS["spans-document-missing"].severity == "information"
    bob = doccano(tmp_path, "bob", {3: (TEXT2, [[0, 5, "PER"]])})
    found = incidents([alice, bob], "doccano")
    assert [(i.test_id, i.annotator) for i in found] == [
        ("spans-document-missing", "alice"), ("spans-document-missing", "bob"),
        ("spans-no-shared-document", None)]


def test_a_document_twice_by_one_annotator(tmp_path: Path) -> None:
    alice = doccano(tmp_path, "alice", {1: (TEXT1, [[0, 4, "PER"]])})
    found = incidents([alice, alice], "doccano")
    assert [(i.test_id, i.annotator) for i in found] == [("spans-document-twice", "alice")]


def test_names_rename_the_annotators_of_exports(tmp_path: Path) -> None:
    alice = doccano(tmp_path, "alice", {1: (TEXT1, [[0, 4, "PER"], [9, 13, "PER"]])})
    bob = doccano(tmp_path, "bob", {1: (TEXT1, [[0, 4, "PER"]])})
    found = incidents([alice, bob], "doccano", names=["x", "y"])
    assert [(i.test_id, i.annotator) for i in found] == [("spans-one-annotator", "x")]


# --- the command line ------------------------------------------------------------------------

def test_exit_codes_levels_max_err_and_json(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    clean = table(tmp_path, CLEAN)
    assert main(["validate", str(clean)]) == 0
    bad = table(tmp_path, CLEAN + "A,d1,7,5,PER\nA,d1,9,8,PER\nB,d1,30,20,PER\n", "bad.csv")
    assert main(["validate", str(bad), "--level", "1"]) == 0  # the offsets are level 2
    capsys.readouterr()
    assert main(["validate", str(bad), "--level", "2", "--max-err", "1"]) == 1
    out = capsys.readouterr().out
    assert out.count("[L2 spans spans-bad-offsets]") == 1
    assert "(2 of 3 incidents not shown" in out and "FAILED" in out
    assert main(["validate", str(bad), "-f", "json", "--max-err", "0"]) == 1
    records = json.loads(capsys.readouterr().out)["results"]
    shown = [r for r in records if r["kind"] == "incident"]
    summary = {r["test"]: r["count"] for r in records if r["kind"] == "test"}
    assert [r["line"] for r in shown if r["test"] == "spans-bad-offsets"] == [6, 7, 8]
    assert summary["spans-bad-offsets"] == 3
    assert main(["validate", str(clean), "--vocabulary", "PER"]) == 1


def test_strict_spans_refuses_exactly_the_errors(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    alice = doccano(tmp_path, "alice", {1: (TEXT1, [[0, 4, "PER"], [0, 4, "PER"]])})
    bob = doccano(tmp_path, "bob", {1: (TEXT1, [[0, 4, "PER"]])})
    args = ["spans", str(alice), str(bob), "--input-format", "doccano", "--metrics", "f1"]
    assert main([*args, "--strict"]) == 0  # a duplicate is a warning
    capsys.readouterr()
    twice = tmp_path / "twice"
    twice.mkdir()
    shutil.copy(alice, twice / "alice.jsonl")
    assert main(["spans", str(alice), str(twice / "alice.jsonl"), str(bob),
                 "--input-format", "doccano", "--metrics", "f1", "--strict"]) == 1
    assert "annotated twice" in capsys.readouterr().err


def test_strict_refusal_of_a_check_error_on_a_model(tmp_path: Path) -> None:
    from clusteragree.exports import Export
    from clusteragree.spans.checks import refuse_export_errors
    doc = AnnotatedDocument("d", "ann", TEXT1, spans=(Span("1", 0, 40, "ne", "PER"),))
    with pytest.raises(InputError, match="spans-bad-offsets"):
        refuse_export_errors([Export((doc,), "x.json", "label-studio")])
    ok = AnnotatedDocument("d", "ann", TEXT1, spans=(Span("1", 0, 4, "ne", "PER"),) * 2)
    refuse_export_errors([Export((ok,), "x.json", "label-studio")])


# --- real files ------------------------------------------------------------------------------

def _zero_length_spans(raw: str) -> int:
    """Zero-length spans of a WebAnno TSV file, counted from its raw columns: entries of span
    and chain columns on zero-width units (``N-M.K  B-B``) whose id ``[n]`` is on no other
    place."""
    cols: list[tuple[str, bool]] = []
    for line in raw.splitlines():
        if line.startswith("#T_"):
            kind, feats = line[3:5], line.split("=", 1)[1].split("|")[1:]
            n = (max(1, len([f for f in feats if f])) if kind == "SP" else
                 2 if kind == "CH" else len(feats))
            cols += [(kind, i == 0) for i in range(n)]
    places: dict[tuple[int, str], set[tuple[str, str]]] = defaultdict(set)
    count = 0
    for line in raw.splitlines():
        if not re.match(r"\d+-\d+(\.\d+)?\t", line):
            continue
        f = line.split("\t")
        b, e = f[1].split("-")
        for k, (kind, first) in enumerate(cols):
            if kind in ("SP", "CH") and first and f[3 + k] not in ("_", ""):
                for entry in f[3 + k].split("|"):
                    m = re.search(r"\[(\d+)\]$", entry)
                    if m:
                        places[(k, m.group(1))].add((b, e))
                    elif b == e:
                        count += 1
    return count + sum(1 for v in places.values() if len(v) == 1 and
                       next(iter(v))[0] == next(iter(v))[1])


@needs_inception
def test_the_inception_suite_validates_and_zero_length_spans_match_the_raw_columns() -> None:
    total = 0
    for path in SUITE:
        found = incidents([path], "webanno-tsv")
        # (the chains' errors, stacked chains, are tests/test_checks_export_chains.py's)
        assert {TESTS[i.test_id].severity for i in found
                if TESTS[i.test_id].domain != "coref"} <= {"warning", "information"}, path
        got = counts(found)["spans-zero-length"]
        assert got == _zero_length_spans(path.read_text(encoding="utf-8")), path
        total += got
    assert total == 26


@needs_inception
def test_the_project_export_is_refused_by_its_reader_with_a_reason() -> None:
    found = incidents([INCEPTION / "project-export-3.6.1.zip"])
    assert [i.test_id for i in found] == ["read-refused"]
    assert "plain text" in found[0].message


@needs_inception
def test_kafka_against_a_perturbed_second_annotator(tmp_path: Path) -> None:
    raw = KAFKA.read_text(encoding="utf-8")
    same = tmp_path / "same.tsv"
    same.write_text(raw, encoding="utf-8")
    found = incidents([KAFKA, same])
    assert {i.test_id for i in found} == {"spans-duplicate", "spans-overlap", "coref-same-span"}
    # twice each: once per annotator
    assert counts(found)["spans-duplicate"] % 2 == 0
    # a second annotator who labels one named entity otherwise
    line = re.search(r"^(\d+-\d+)\t(\d+)-(\d+)\tGrubach\tPER\t.*$", raw, re.M)
    assert line is not None
    relabelled = tmp_path / "relabelled.tsv"
    relabelled.write_text(raw.replace(line.group(0), line.group(0).replace(
        "\tGrubach\tPER\t", "\tGrubach\tORG\t"), 1), encoding="utf-8")
    found = incidents([KAFKA, relabelled])
    one = [i for i in found if i.test_id == "spans-one-annotator"]
    assert [(i.annotator, i.count) for i in one] == [("coref.tsv", 1), ("relabelled.tsv", 1)]
    # a second annotator whose copy of the text differs in one letter
    begin = int(line.group(2))
    typo = tmp_path / "typo.tsv"
    sentence = raw.rfind("#Text=", 0, line.start())
    end_of_sentence = raw.index("\n", sentence)
    typo.write_text(raw[:sentence] + raw[sentence:end_of_sentence].replace("Grubach", "Grubich",
                                                                          1)
                    + raw[end_of_sentence:line.start()]
                    + line.group(0).replace("\tGrubach\t", "\tGrubich\t")
                    + raw[line.end():], encoding="utf-8")
    found = incidents([KAFKA, typo])
    differs = [i for i in found if i.test_id == "spans-text-differs"]
    assert len(differs) == 1 and f"from character {begin + 4}" in differs[0].message


def _one_annotator_spans(by_annotator: dict[str, set[tuple[Any, ...]]]) -> int:
    holders: Counter[tuple[Any, ...]] = Counter()
    for keys in by_annotator.values():
        holders.update(keys)
    return sum(1 for keys in by_annotator.values() for k in keys if holders[k] == 1)


def _overlapping(pairs: list[tuple[int, int]]) -> int:
    """Spans (of one layer, not empty) that overlap an earlier one in (start, end) order:
    brute force over every earlier span."""
    pairs = sorted(pairs)
    return sum(1 for i, (s, _) in enumerate(pairs) if any(e2 > s for _, e2 in pairs[:i]))


def test_label_studio_fixture_counts_match_json_loads() -> None:
    path = FIX / "exports" / "labelstudio" / "project-codepoints.json"
    found = counts(incidents([path]))
    docs: dict[object, dict[str, set[tuple[Any, ...]]]] = defaultdict(dict)
    overlap = 0
    for task in json.loads(path.read_text(encoding="utf-8")):
        for ann in task["annotations"]:
            who = ann["completed_by"]["email"]
            keys = {(r["value"]["start"], r["value"]["end"], r["from_name"], label)
                    for r in ann["result"] if r["type"] == "labels"
                    for label in r["value"]["labels"]}
            docs[task["id"]][who] = keys
            overlap += _overlapping([(k[0], k[1]) for k in keys])
    assert found["spans-one-annotator"] == sum(_one_annotator_spans(d) for d in docs.values())
    assert found["spans-overlap"] == overlap
    assert found["spans-one-annotator"] > 0


def test_doccano_fixture_counts_match_json_loads() -> None:
    folder = FIX / "exports" / "doccano" / "sequence-labelling"
    paths = sorted(folder.glob("*.jsonl"))
    found = incidents(paths, "doccano")
    docs: dict[object, dict[str, set[tuple[Any, ...]]]] = defaultdict(dict)
    outside = 0
    for p in paths:
        for row in map(json.loads, p.read_text(encoding="utf-8").splitlines()):
            keep = {(s, e, "label", t) for s, e, t in row["label"] if e <= len(row["text"])}
            outside += len(row["label"]) - len(keep)
            docs[row["id"]][p.stem] = keep
    c = counts(found)
    assert c["read-skipped"] == outside == 1  # the reader's notice, not a second report
    assert c["spans-bad-offsets"] == 0
    assert c["spans-one-annotator"] == sum(_one_annotator_spans(d) for d in docs.values())


@pytest.mark.parametrize("name", ["3by100.csv", "5by100.csv", "AlexPaulSuzan.csv",
                                  "annotation_paul_suzann_alex.csv", "example_figure10.csv",
                                  "example_figure19.csv"])
def test_pygamma_fixture_counts_match_the_csv_module(name: str) -> None:
    path = FIX / "gamma" / name
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    found = counts(incidents([path]))
    by: dict[str, set[tuple[Any, ...]]] = defaultdict(set)
    labels: dict[str, set[str]] = defaultdict(set)
    for who, cat, s, e in rows:
        by[who].add((float(s), float(e), "", cat))
        labels[cat].add(who)
    overlap = sum(_overlapping([(k[0], k[1]) for k in keys]) for keys in by.values())
    assert found["spans-one-annotator"] == _one_annotator_spans(by)
    assert found["spans-overlap"] == overlap
    drift = sum(1 for who, cat, _, _ in rows if len(labels[cat]) == 1)
    assert found["spans-label-one-annotator"] == drift
    assert sum(v for k, v in found.items() if TESTS[k].severity == "error") == 0


def test_the_span_table_fixture_counts_match_the_csv_module() -> None:
    path = FIX / "spans" / "ner.csv"
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    found = counts(incidents([path], text_dir=str(FIX / "spans" / "text")))
    who = {r["annotator"] for r in rows}
    docs: dict[str, dict[str, set[tuple[Any, ...]]]] = defaultdict(
        lambda: {w: set() for w in who})
    for r in rows:
        docs[r["document"]][r["annotator"]].add((int(r["start"]), int(r["end"]), r["label"]))
    assert found["spans-one-annotator"] == sum(_one_annotator_spans(d) for d in docs.values())
    assert found["spans-document-unmarked"] == sum(1 for d in docs.values() for w in who
                                                   if not d[w])
    assert sum(v for k, v in found.items() if TESTS[k].severity == "error") == 0


def test_every_fixture_export_validates_without_an_internal_error() -> None:
    exports = FIX / "exports"
    inputs = [([p], "auto") for p in sorted((exports / "labelstudio").glob("*.json"))]
    inputs += [([p], "prodigy") for p in sorted((exports / "prodigy").glob("*.jsonl"))]
    inputs += [([exports / "doccano" / n], "doccano") for n in (
        "sequence-labelling", "text-classification", "doccano-1.5", "relations-by-user.zip",
        "collaborative.zip")]
    inputs += [([exports / "inception" / "project"], "inception")]
    refused = []
    for paths, fmt in inputs:
        found = incidents(paths, fmt)
        refused += [paths[0].name for i in found if i.test_id == "read-refused"]
        assert not ids(found) & {"spans-bad-offsets", "spans-relation-end-missing",
                                 "spans-tokens-overlap", "spans-text-differs"}, paths
    # the files written to be refused, and the prodigy file of binary decisions only
    assert sorted(refused) == ["collaborative.zip", "duplicates.json", "json-min.json",
                               "mixed-units.json", "ner-teach.jsonl", "no-session.jsonl"]


def test_the_fast_scan_finds_what_the_row_by_row_scan_finds(tmp_path: Path) -> None:
    """The scan's pattern over the whole file against the scan of every row (csv_rows and
    parse_float on each field), on random tables with random faults."""
    import random

    from clusteragree.inputs import csv_rows
    from clusteragree.spans.table_checks import _detailed, scan_table
    rng = random.Random(7)
    pieces = ["A", "d1", " ", "", "0", "12", "3.5", ".5", "-2", "1e3", "1e999", "x", "nan",
              " 7 ", "+4", "\t", "é", "1.", "--1"]
    names = [("annotator", 0), ("document", 1), ("label", 4)]
    offsets = [("start", 2), ("end", 3)]
    for k in range(150):
        rows = [",".join(rng.choice(pieces) for _ in range(rng.choice([5, 5, 5, 4, 6])))
                for _ in range(rng.randrange(1, 12))]
        path = tmp_path / f"t{k}.csv"
        path.write_text(HEADER + "\n".join(rows) + rng.choice(["", "\n", "\n\n"]),
                        encoding="utf-8")
        fast = [(i.test_id, i.line, i.message) for i in scan_table(str(path), "spans-csv", None)]
        slow = [(i.test_id, i.line, i.message) for i in _detailed(
            (r for r in csv_rows(path.read_text(encoding="utf-8"), str(path)) if r[0] > 1),
            str(path), 5, "the header has", names, offsets)]
        assert fast == slow, path.read_text(encoding="utf-8")


@needs_inception
def test_uima_xmi_without_its_type_system_is_the_readers_refusal() -> None:
    xmi = next(p.parent / "reference.xmi" for p in SUITE
               if (p.parent / "reference.xmi").exists())
    found = incidents([xmi], "uima-xmi")
    assert [i.test_id for i in found] == ["read-refused"]
    assert "type system" in found[0].message
