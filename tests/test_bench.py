"""scripts/bench.py: one run of every peer side by side. These tests run it at small sizes and
check what its report says: the tables are there, and each peer's values equal ours (the
|diff| column, and the values themselves). No time is asserted."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "bench.py"
SYNTAX = ROOT.parent / "shared" / "corpora" / "syntax"


def run_bench(tmp_path: Path, *args: str) -> tuple[str, list[dict]]:
    """Run the script from an empty directory; its report and raw figures. The tracked page
    must be left alone (no --write-docs)."""
    docs = (ROOT / "docs" / "performance.md").read_bytes()
    out = tmp_path / "out"
    work = tmp_path / "cwd"
    work.mkdir()
    done = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--repeat", "1", "--out",
                           str(out), *args], capture_output=True, text=True, cwd=work,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert (ROOT / "docs" / "performance.md").read_bytes() == docs
    assert not list(work.iterdir())
    text = (out / "performance.md").read_text()
    assert text.strip() == done.stdout.strip()
    return text, json.loads((out / "bench.json").read_text())


def cells(line: str) -> list[str]:
    """The cells of a markdown table row (an escaped pipe is text)."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def tables(text: str) -> dict[str, list[dict[str, str]]]:
    """The side-by-side tables of the report by section title, as rows of cells by header."""
    out: dict[str, list[dict[str, str]]] = {}
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        title, _, body = section.partition("\n")
        start = body.find("\n| ")  # the section's first table
        lines = [] if start < 0 else re.findall(r"^\|.*", body[start + 1:].split("\n\n")[0],
                                                 flags=re.M)
        if not lines or "from ours" not in lines[0]:
            continue
        head, *rows = [cells(line) for line in lines]
        out[title] = [dict(zip(head, row, strict=True)) for row in rows[1:]]
    return out


def check_agreement(rows: list[dict[str, str]], peers: set[str]) -> None:
    """Every peer gives our value (|diff| below 1e-9, and the printed values equal)."""
    seen = set()
    ours = {}
    for row in rows:
        key = tuple(v for k, v in row.items() if k in ("size", "coders", "labels", "column"))
        if row["tool"].startswith("clusteragree"):  # ours come first in a block
            ours.setdefault(key, row)
    for row in rows:
        key = tuple(v for k, v in row.items() if k in ("size", "coders", "labels", "column"))
        if row is ours[key]:
            continue
        diff = row["\\|diff\\| from ours"]
        assert diff, row
        assert float(diff) < 1e-9, row
        assert row["value"] == ours[key]["value"], row
        seen.add(row["tool"])
    assert peers <= seen, (peers, seen)


def test_sets_and_coreference_agree_with_the_peers(tmp_path: Path) -> None:
    text, raw = run_bench(tmp_path, "--only", "alpha-sets,coref")
    found = tables(text)
    check_agreement(found["Class-derived sets of five coders"], {"NLTK"})
    peers = {"scorch"}
    if os.environ.get("CLUSTERAGREE_PERL_SCORER"):
        peers.add("reference scorer (Perl)")
    else:
        assert "reference Perl scorer was not given" in text
    check_agreement(found["Coreference: a CoNLL-2012 pair read and scored"], peers)
    assert "Ours alone, each size in a fresh process" in text
    assert "Growth exponent" in text
    assert {r["status"] for r in raw} == {"ok"}
    assert all(r["peak_mib"] > 0 for r in raw)


#: The sections the tests below run on their own, with the same options.
ELSEWHERE = ("alpha-sets", "coref", "startup", "memory", "spans")


def _sections() -> list[str]:
    """The script's sections (``SECTIONS`` of scripts/_bench_doc.py, read without importing
    the scripts)."""
    tree = ast.parse((ROOT / "scripts" / "_bench_doc.py").read_text(encoding="utf-8"))
    return next(list(ast.literal_eval(node.value)) for node in tree.body
                if isinstance(node, ast.Assign)
                and [getattr(t, "id", None) for t in node.targets] == ["SECTIONS"])


@pytest.mark.slow
def test_every_section_agrees_with_its_peers(tmp_path: Path) -> None:
    """The sections not run by the other tests (a run of every section did those again:
    alpha-sets and coref as test_sets_and_coreference_agree_with_the_peers does, start-up and
    memory as test_start_up_and_memory_sections does, whose checks are stricter, spans as
    test_spans_agree_with_their_peers does)."""
    sections = _sections()
    rest = [s for s in sections if s not in ELSEWHERE]
    assert len(rest) == len(sections) - len(ELSEWHERE) > 0
    text, _ = run_bench(tmp_path, "--only", ",".join(rest))
    found = tables(text)
    check_agreement(found["Class-derived values: MASI alpha against NLTK"], {"NLTK"})
    check_agreement(found["Integer labels: nominal alpha against krippendorff and simpledorff"],
                    {"krippendorff", "simpledorff"})
    check_agreement(found["From a DataFrame to alpha"], {"krippendorff"})
    if SYNTAX.is_dir():
        check_agreement(found["Tree edit distance, and Skjaerholt's Table 2"],
                        {"zss", "apted", "clusteragree (python kernel)"})
    assert "## Goals" in text and "## The command" in text
    assert "python scripts/bench.py --quick --repeat 1 --out PATH" in text


def test_spans_agree_with_their_peers(tmp_path: Path) -> None:
    """The spans section at its quick size: F1 as seqeval and nervaluate give it, Cohen's
    kappa as scikit-learn's, alpha as krippendorff's."""
    text, raw = run_bench(tmp_path, "--only", "spans")
    rows = tables(text)["Spans: matching F1 and token kappa against seqeval, nervaluate, "
                        "scikit-learn and krippendorff"]
    for kind, peers in (("F1", {"seqeval", "nervaluate"}), ("kappa", {"scikit-learn"}),
                        ("alpha", {"krippendorff"})):
        block = [r for r in rows if r["measure"] == kind]
        check_agreement(block, {p for p in peers if importlib.util.find_spec(
            "sklearn" if p == "scikit-learn" else p) is not None})
    assert {r["status"] for r in raw} == {"ok"}


def test_a_case_past_its_time_limit_is_a_lower_bound(tmp_path: Path) -> None:
    """A case stopped at the time limit is reported, not lost, and the peer is not run at
    larger sizes."""
    text, raw = run_bench(tmp_path, "--only", "alpha-int", "--timeout", "0.01")
    assert {r["status"] for r in raw} == {"timeout", "skipped"}
    assert "stopped before its timing began" in text
    assert "not run (stopped at a smaller size)" in text


def test_an_unknown_section_is_a_usage_error() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--only", "alpha,trees"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "unknown section(s) alpha" in done.stderr


def test_start_up_and_memory_sections(tmp_path: Path) -> None:
    """The start-up section times whole processes and the first call (our table's alpha is
    the krippendorff script's), the memory section reads every format; no time asserted."""
    text, raw = run_bench(tmp_path, "--only", "startup,memory", "--memory-mb", "2")
    assert "## Start-up: a small table as a whole process, and the first call" in text
    assert "## Memory of the readers on large files" in text
    assert {r["status"] for r in raw} == {"ok"}, [r.get("error") for r in raw]
    found = {r["tool"]: r for r in raw}
    ours = found["clusteragree table, whole process"]
    assert ours["value"] == found["clusteragree table, whole process, package compiled at "
                                  "each start"]["value"]
    peer = found.get("script calling krippendorff, whole process")
    if peer is not None:  # the peer is installed
        assert abs(ours["value"] - peer["value"]) < 5e-7  # ours printed to six decimals
    assert all(r["best"] <= r["median"] for r in raw if "best" in r)
    first = [r for r in raw if r["tool"].startswith("first alpha")]
    assert {r["params"]["kind"] for r in first} == {"integer", "class-derived"}
    assert all("scipy" not in r["loaded"] and "numba" not in r["loaded"] for r in first)
    memory = [r for r in raw if r["section"] == "memory"]
    assert {r["params"]["format"] for r in memory} == {"csv", "pyr", "pyr-pair"}
    pair = next(r for r in memory if r["params"]["format"] == "pyr-pair")
    assert pair["file_mb"] > 3.5 and " + " in pair["read"]  # two files of about 2 MB
    assert all(r["peak_mb"] > r["baseline_mb"] > 0 for r in memory)
