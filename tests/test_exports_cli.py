"""Annotation tools' exports through the command line: recognised, read into every measure,
and the report drawn; on the real INCEpTION files of ../shared/corpora/tool-exports (a second
annotator derived by removing annotations, counted here from the raw columns) and on the
fixtures of corpora_fixtures/exports."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from clusteragree.cli import main

ROOT = Path(__file__).resolve().parent.parent
KAFKA = ROOT.parent / "shared" / "corpora" / "tool-exports" / "inception" / "tsv3" / "coref.tsv"
FIX = ROOT / "corpora_fixtures" / "exports"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def _named_entities(lines: list[str]) -> dict[str, list[int]]:
    """The NamedEntity spans of a TSV (column 4), by span key, with their token lines:
    ``PER[3]`` cells of one id are one span, a cell without an id is a span of one token.
    Stacked cells (``A|B``) are not expected in this file (checked)."""
    spans: dict[str, list[int]] = {}
    for i, line in enumerate(lines):
        cols = line.split("\t")
        if len(cols) < 5 or not re.fullmatch(r"\d+-\d+", cols[0]) or cols[3] in ("_", "*"):
            continue
        assert "|" not in cols[3]
        key = cols[3] if "[" in cols[3] else f"{cols[3]}@{i}"
        spans.setdefault(key, []).append(i)
    return spans


@pytest.mark.skipif(not KAFKA.is_file(), reason="../shared/corpora is absent")
def test_kafka_chapter_named_entities_f1_against_a_count_of_the_raw_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bob is the chapter with every third named entity removed: exact F1 is 2m/(n + m), n
    the entities of the raw column and m those bob keeps; recognised without
    --input-format."""
    lines = KAFKA.read_text(encoding="utf-8").split("\n")
    spans = _named_entities(lines)
    dropped = list(spans)[::3]
    bob = list(lines)
    for key in dropped:
        for i in spans[key]:
            cols = bob[i].split("\t")
            cols[3] = "_"
            bob[i] = "\t".join(cols)
    a, b = tmp_path / "alice.tsv", tmp_path / "bob.tsv"
    a.write_text("\n".join(lines), encoding="utf-8")
    b.write_text("\n".join(bob), encoding="utf-8")
    code, _, err = run(capsys, "spans", str(a), str(b), "--metrics", "f1")
    assert code == 1 and "--layer" in err  # NamedEntity, Lemma and the coreference links
    code, out, err = run(capsys, "spans", str(a), str(b), "--layer", "NamedEntity",
                         "--metrics", "f1", "--rules", "exact", "-f", "json")
    assert code == 0, err
    n, m = len(spans), len(spans) - len(dropped)
    micro = next(r for r in json.loads(out)["results"]
                 if r["kind"] == "span_match_mean" and r.get("average") == "micro")
    assert micro["f1"] == pytest.approx(2 * m / (n + m))
    assert json.loads(out)["meta"]["documents"] == 1


@pytest.mark.skipif(not KAFKA.is_file(), reason="../shared/corpora is absent")
def test_kafka_chapter_chains_against_themselves_and_with_one_chain_left_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The chapter against itself scores 1 on every metric; with a chain of k links that
    shares no token with another mention removed, MUC recall loses exactly k - 1 links of
    the key's sum of (size - 1) over chains, counted from the raw column."""
    lines = KAFKA.read_text(encoding="utf-8").split("\n")
    chains: dict[str, set[str]] = {}
    cells: dict[int, str] = {}
    for i, line in enumerate(lines):
        cols = line.split("\t")
        if len(cols) < 7 or not re.fullmatch(r"\d+-\d+", cols[0]) or cols[6] in ("_", "*"):
            continue
        cells[i] = cols[6]
        for link in re.findall(r"->(\d+)-(\d+)", cols[6]):
            chains.setdefault(link[0], set()).add(link[1])
    # a chain none of whose tokens carries another chain's link
    alone = [c for c, links in chains.items() if len(links) >= 3 and all(
        len(re.findall(r"->(\d+)-(\d+)", cell)) == 1 for cell in cells.values()
        if f"->{c}-" in cell)]
    assert alone, "no chain stands alone"
    gone = alone[0]
    bob = list(lines)
    for i in cells:
        cols = bob[i].split("\t")
        if f"->{gone}-" in cols[6]:
            cols[5] = cols[6] = "_"
            bob[i] = "\t".join(cols)
    a, b = tmp_path / "alice.tsv", tmp_path / "bob.tsv"
    a.write_text("\n".join(lines), encoding="utf-8")
    b.write_text("\n".join(bob), encoding="utf-8")
    code, out, err = run(capsys, "coref", str(a), str(a), "--metrics", "muc,bcub,lea",
                         "-f", "json")
    assert code == 0, err
    assert all(r["f1"] == 1 for r in json.loads(out)["results"] if r.get("metric"))
    code, out, err = run(capsys, "coref", str(a), str(b), "--metrics", "muc", "-f", "json")
    assert code == 0, err
    row = next(r for r in json.loads(out)["results"]
               if r.get("metric") == "muc" and r.get("key") == "alice.tsv")
    assert row["precision"] == 1
    # the chains as read may join some (spans on the same tokens); the removed chain stands
    # alone, so the recall's numerator drops by its links minus one
    assert row["recall_den"] - row["recall_num"] == len(chains[gone]) - 1


def test_label_studio_through_every_command_and_the_report(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One export, three annotators: spans, chains (relations) and document labels, each
    recognised; the report pages are written; the annotators renamed with --names."""
    export = str(FIX / "labelstudio" / "project-codepoints.json")
    raw = json.loads(Path(export).read_text(encoding="utf-8"))
    annotators = {str(a["completed_by"]["email"] if isinstance(a["completed_by"], dict)
                      else a["completed_by"])
                  for t in raw for a in t["annotations"] if not a.get("was_cancelled")}
    code, out, err = run(capsys, "spans", export, "--metrics", "f1", "-f", "json")
    assert code == 0, err
    assert len(json.loads(out)["meta"]["annotators"]) == len(annotators)
    names = ",".join(f"A{i}" for i in range(len(annotators)))
    code, out, err = run(capsys, "spans", export, "--metrics", "f1", "-f", "json",
                         "--names", names)
    assert code == 0, err
    assert json.loads(out)["meta"]["annotators"] == names.split(",")
    code, out, err = run(capsys, "coref", export, "--metrics", "muc", "-f", "json")
    assert code == 0, err
    code, out, err = run(capsys, "table", export, "-f", "json")
    assert code == 0, err
    for command in ("spans", "coref", "table"):
        page = tmp_path / f"{command}.html"
        code, _, err = run(capsys, "report", command, export, "-o", str(page))
        assert code == 0, err
        assert page.stat().st_size > 10_000
    code, _, err = run(capsys, "spans", export, "--curation")
    assert code == 0 and "--curation" in err and "unused" in err


def test_inception_project_with_curation_and_missing_documents(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The project fixture: d2 is alice's alone (missing for the others, left out); carol's
    d1 is in state IGNORE (missing); --curation adds the annotator 'curation'."""
    project = str(FIX / "inception" / "project")
    code, out, err = run(capsys, "spans", project, "--layer", "NamedEntity", "--metrics", "f1",
                         "-f", "json")
    assert code == 0, err
    meta = json.loads(out)["meta"]
    assert meta["annotators"] == ["alice", "bob"] and meta["documents"] == 1
    code, out, err = run(capsys, "spans", project, "--layer", "NamedEntity", "--metrics", "f1",
                         "-f", "json", "--curation")
    assert code == 0, err
    assert "curation" in json.loads(out)["meta"]["annotators"]
    code, _, err = run(capsys, "spans", project, "--layer", "NamedEntity", "--strict")
    assert code == 1 and "strict" in err
