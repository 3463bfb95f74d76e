"""Start-up: what the command line loads to answer a small table, and that the lighter route
answers as the DataFrame route does.

A small codings table is answered without pandas, scipy, numba or pyarrow (checked on
``sys.modules`` of a fresh interpreter, never on a clock): they load with the options and sizes
that use them. The rows of :func:`~clusteragree.core.frames.alpha_rows` must render exactly as
the DataFrame of :func:`~clusteragree.core.frames.alpha_report` (hypothesis, every format).
docs/performance.md, "Start-up".
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusteragree import CodingTable
from clusteragree.core.frames import alpha_report, alpha_rows
from clusteragree.report import alpha_headline, alpha_records, render

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "corpora_fixtures" / "krippendorff2011.csv"
HEAVY = ("pandas", "scipy", "numba", "pyarrow")

PROBE = f"""
import json, sys
from clusteragree.cli import main
code = main(sys.argv[1:])
sys.stdout.flush()
print("\\nLOADED " + json.dumps(sorted({{m.split(".")[0] for m in sys.modules}} & {set(HEAVY)!r})))
sys.exit(code)
"""


def _loaded(*argv: str) -> tuple[int, list[str], str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    head, _, tail = done.stdout.rpartition("\nLOADED ")
    return done.returncode, json.loads(tail), head


@pytest.mark.parametrize("argv", [
    ["table", str(FIXTURE), "--scalar", "--distance", "nominal"],
    ["table", str(FIXTURE), "--scalar", "--distance", "nominal,interval", "-f", "json"],
    ["table", str(FIXTURE), "--scalar", "--distance", "ordinal,ratio", "--no-per-doc"],
])
def test_a_small_table_loads_no_heavy_library(argv: list[str]) -> None:
    code, loaded, out = _loaded(*argv)
    assert code == 0, out
    assert "alpha" in out.lower()
    assert loaded == [], f"{loaded} imported to answer a small table"


def test_a_small_table_of_sets_loads_neither_scipy_stats_nor_numba() -> None:
    """Sets of labels still factorise their labels with pandas and count shared labels with
    a sparse product (scipy.sparse), but nothing loads scipy.stats or numba."""
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from clusteragree.cli import main; "
         "code = main(sys.argv[1:]); print(sorted(m for m in sys.modules if m in "
         "('scipy.stats', 'numba'))); sys.exit(code)", "table",
         str(ROOT / "corpora_fixtures" / "multilabel_example.csv")],
        capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_the_heavy_libraries_load_when_asked_for() -> None:
    """The probe can fail: an option that needs scipy (Gwet's intervals) loads it."""
    code, loaded, _ = _loaded("table", str(FIXTURE), "--scalar", "--distance", "nominal",
                              "--metrics", "gwet")
    assert code == 0
    assert "scipy" in loaded and "pandas" in loaded


def test_usage_and_version_load_nothing_heavy() -> None:
    code, loaded, _ = _loaded("--version")
    assert (code, loaded) == (0, [])
    code, loaded, _ = _loaded("table", "--help")
    assert (code, loaded) == (0, [])


LABELS = st.sampled_from(["x", "y", "z", "w"])


@st.composite
def reports(draw: st.DrawFn) -> tuple[object, list[str], bool]:
    """One table or several documents (one may be called TOTAL), scalar or set values, some
    cells missing, so that alpha is sometimes undefined."""
    sets = draw(st.booleans())
    names = draw(st.lists(st.sampled_from(["d1", "d2", "TOTAL", "d 3"]), min_size=1,
                          max_size=3, unique=True))
    docs = {}
    for name in names:
        records = []
        for unit in range(draw(st.integers(1, 5))):
            for coder in ("A", "B", "C")[:draw(st.integers(1, 3))]:
                if draw(st.booleans()):
                    value = draw(st.frozensets(LABELS, max_size=2)) if sets else draw(LABELS)
                    records.append((coder, unit, value))
        if not records:
            records = [("A", 0, frozenset() if sets else "x")]
        docs[name] = CodingTable.from_records(records)
    single = draw(st.booleans())
    tables: object = docs[names[0]] if single else docs
    distances = ["nominal", "jaccard", "masi"] if sets else ["nominal"]
    return tables, draw(st.permutations(distances)), draw(st.booleans())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reports())
def test_rows_render_as_the_dataframe(case: tuple[object, list[str], bool]) -> None:
    tables, distances, per_document = case
    with warnings.catch_warnings(record=True) as seen_frame:
        warnings.simplefilter("always")
        frame = alpha_report(tables, distances, per_document=per_document)  # type: ignore[arg-type]
    with warnings.catch_warnings(record=True) as seen_rows:
        warnings.simplefilter("always")
        rows = alpha_rows(tables, distances, per_document=per_document)  # type: ignore[arg-type]
    assert [str(w.message) for w in seen_rows] == [str(w.message) for w in seen_frame]
    assert len(rows) == len(frame)
    for fmt in ("text", "json", "csv", "latex"):
        header = {"command": "table"}
        assert render(rows, fmt, header=header) == render(frame, fmt, header=header), fmt
    assert alpha_headline(rows, "alpha") == alpha_headline(frame, "alpha")
    assert json.dumps(alpha_records(rows), default=str) == json.dumps(alpha_records(frame),
                                                                      default=str)
