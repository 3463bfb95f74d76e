"""The report of scripts/bench.py: docs/performance.md from the figures of one run.

The prose here holds no figure: every number on the page is filled in from the run.
"""

from __future__ import annotations

import math
import os
import platform
import re
import subprocess
import time
from collections import defaultdict
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
from _bench_runs import COREF_METRICS, ROOT
from _bench_startup import QUICK_RUNS as STARTUP_QUICK_RUNS
from _bench_startup import RUNS_PER_CASE as STARTUP_RUNS

SECTIONS = ("alpha-classes", "alpha-int", "alpha-sets", "coref", "trees", "pyramids",
            "dataframe", "startup", "memory", "spans", "gamma")
TOLERANCE = 1e-9
PEERS = ("nltk", "krippendorff", "simpledorff", "scorch", "zss", "apted", "seqeval",
         "nervaluate", "scikit-learn")
OURS = {"trees": "clusteragree (numba kernel)"}
GAMMA_TOLERANCE = 1e-5  # pygamma's disorders are float32

TITLES = {
    "alpha-classes": "Class-derived values: MASI alpha against NLTK",
    "alpha-int": "Integer labels: nominal alpha against krippendorff and simpledorff",
    "alpha-sets": "Class-derived sets of five coders",
    "coref": "Coreference: a CoNLL-2012 pair read and scored",
    "trees": "Tree edit distance, and Skjaerholt's Table 2",
    "pyramids": "Pyramids: the units study",
    "dataframe": "From a DataFrame to alpha",
    "startup": "Start-up: a small table as a whole process, and the first call",
    "memory": "Memory of the readers on large files",
    "spans": "Spans: matching F1 and token kappa against seqeval, nervaluate, scikit-learn "
             "and krippendorff",
    "gamma": "Gamma: the best alignment and gamma against pygamma-agreement",
}

NOTES = {
    "spans": """\
**Data.** `scripts/bench_spans.py`'s generator: 1,000 documents, a reference of flat spans
(ten labels, widths 1 to 6, gaps 0 to 12) and two annotators, each a noisy copy (8% missed,
10% with a boundary moved by one or two positions, 4% relabelled, 8% extra spans); the size is
the spans of both annotators together (10^6 spans: documents of about 5,000 positions).
**Timed**, each tool from its own input made beforehand: clusteragree from the spans
DataFrame: **F1**: `span_f1_pairs(spans, [exact, exact-span, overlap, overlap-span])` (every
rule, per document and pooled, per label, micro and macro: more than the peers compute;
value: exact micro F1, pooled); **kappa** and **alpha**: `token_agreement(spans, lengths,
scheme="bio")` (Cohen's and Fleiss's kappa and alpha, per document and pooled, over all and
over the annotated positions; value: the pooled figure over every position). seqeval:
`f1_score` of the two annotators' BIO tags, a list per document; nervaluate:
`Evaluator(...).evaluate()` on each annotator's entities per document (its `strict` F1;
it computes four matching modes per label); scikit-learn: `cohen_kappa_score` of the two
annotators' integer tag codes over every position; krippendorff: `alpha` of the 2 x positions
array of tag codes, nominal (it builds arrays of units x values x values, 1.8 GB each at
10^5 spans and 18 GB at 10^6: not run there). The tag codes given to the peers are made by
the script with numpy, not by the package.""",
    "gamma": """\
**Data.** pygamma-agreement's own test files `5by100.csv` (5 annotators, 100 units each;
copied under `corpora_fixtures/gamma/`) and `2by5000.csv` (2 annotators, 5,000 units each;
read from `--pygamma-data`), their zero-length units left out for both tools (pygamma discards
them; 2by5000 has two); then, ours alone, continua of 5 and 10 annotators derived from one
seeded reference of units (geometric lengths, mean 6, and gaps, mean 12; each annotator misses
5%, moves every boundary by a rounded normal error of sd 1, swaps 10% of the categories among
5, adds 5% units of its own; `scripts/_bench_gamma.py`). **Dissimilarity:** alpha = 3,
beta = 1, Δ = 1 for both. **Timed.** *best alignment*: ours `best_alignment(units, ...)`;
pygamma `continuum.get_best_alignment(dissim)`; **value**: its disorder (pygamma computes in
float32: |diff| is relative, the run fails above 1e-5). *gamma*: ours `gamma(units, ...,
precision=0.02, jobs=None)` (samples over every core); pygamma `continuum.compute_gamma(dissim,
sampler=ShuffleContinuumSampler(), precision_level=0.02)` (the paper's shuffled continua, as
ours; its own process pool); **value**: gamma, whose expected disorder both estimate by
sampling, so |diff| is within the sampling error, not 0, and the run does not fail on it. A
continuum with more candidate unitary alignments in one group than `max_candidates` (default
200,000) is refused by ours: the seconds are then the time to the refusal. The
first call of each process (imports; pygamma's numba compilation) runs on the small
`AlexPaulSuzan.csv` first and is left out of the seconds; its time is the column *first
call*. pygamma runs under the interpreter of `--pygamma-python`.""",
    "memory": """\
**Data.** The generators of `scripts/bench_memory.py`, one file per case of the size given
(both files for the pair): a long CSV `coder,unit,labels` of a million distinct units, each
coder a pass over them, label sets of 0 to 3 of 20 labels; DUCView pyramids of NIST-style
model summaries and SCUs of one to four contributors. **Measured:** the file read by
`read_long_table` or `read_pyramid` in a fresh interpreter (`python scripts/bench_memory.py
--formats FORMAT --size-mb SIZE`); **peak**: that interpreter's resident peak
(`ru_maxrss`), its imports included; **baseline**: its resident size with the reader
imported, before reading; **ratio**: peak over the input's size (the target is at most 5).""",
    "startup": """\
**Timed.** Whole processes, each run {runs} times after one round to warm the disk cache:
`python -m clusteragree table corpora_fixtures/krippendorff2011.csv --scalar --distance nominal`
(text output); a script that reads the same CSV with the csv module into a coders x units
array and calls `krippendorff.alpha(..., level_of_measurement="nominal")`; and the
interpreter alone (`python -c pass`). **Best** and **median**: wall clock of the whole
process; **CPU**: its user and system time, the best run (steadier than the wall clock on a
shared machine). Then the first `clusteragree.alpha` on 1,000 units in a fresh interpreter,
after numpy, `import clusteragree` and the table built (`clusteragree.CodingTable`; **imports**
is that time), so that the first call includes loading alpha's own modules, and the second
call; the median of {runs} fresh interpreters; **loaded**: the heavy libraries in
`sys.modules` after the two calls. The package's bytecode is compiled
first, as an installation leaves it; the case "package compiled at each start" runs a copy
of the package without bytecode under `PYTHONDONTWRITEBYTECODE=1`, as an editable install
does where that variable is set (the figures of the first call exclude it). The code of these
runs: `scripts/_bench_startup.py`.""",
    "alpha-classes": """\
**Data.** Two coders partition the units into classes; a unit's value is its class minus
itself. The first coder's classes have geometric sizes (mean about 1.5, many singletons) and
lie within documents of 500 units, as coreference chains and pyramid SCUs do; the second moves
15% of the units to another class of the same document and leaves 2% uncoded (missing).
Seeded. **Timed.** clusteragree: `CodingTable.from_clusterings` then `alpha(table, "masi")`.
NLTK: `AnnotationTask(data, distance=masi).alpha()` on the same values as (coder, item,
frozenset) triples built from the class ids; its `masi_distance` divides by zero on two empty
sets (two singletons) and is wrapped to return 0 there, the value of the definition. NLTK's
expected disagreement enumerates pairs of distinct values, so its time grows with their square;
ours sums over pairs of intersecting classes (docs/alpha.md), linear in the units.""",
    "alpha-int": """\
**Data.** Five coders, nominal labels 0 to {labels_minus_one}, each coder giving the unit's true
label with probability 0.7 and a random one otherwise, 10% of the cells missing (NaN); seeded.
**Timed.** clusteragree: `CodingTable.from_matrix(data)` then `alpha(table, "nominal")`, on the
coders x units float array that krippendorff takes; krippendorff:
`krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")`; simpledorff:
`calculate_krippendorffs_alpha_for_df` on the long DataFrame of the coded cells (unit, coder,
label), built beforehand.""",
    "alpha-sets": """\
**Data.** Class-derived values as above, with five coders: the first partitions the units,
each of the four others perturbs that partition on its own (15% of the units moved within
their document, 2% uncoded); seeded. **Timed.** clusteragree: `from_clusterings` with five
coders, then MASI alpha with `jobs=None` (every core, the command line's default: the ten
pairs of coders are counted in threads). NLTK runs at the smallest size only, as a check of
the value: almost every value is distinct, and its time grows with the square of the distinct
values.
krippendorff and simpledorff take scalar labels, not sets, so they cannot compute this alpha.""",
    "coref": """\
**Data.** The generator of `scripts/bench_coref.py`: two CoNLL-2012 files, documents of 500
tokens, about one mention per five tokens (one to four tokens long, some nested), chains with a
long tail, most mentions singletons; the second annotator misses 10% of the first's mentions,
adds 10% and moves 10% to another chain. **Timed**, each tool from the two files:
clusteragree: `read_conll` of both, then `coref_metrics(..., per_document=True)` (MUC,
B-cubed, CEAFm, CEAFe, BLANC, LEA, mention identification and the CoNLL score, in both
directions, pooled and per document: more than the peers compute). scorch: its reader
(`scorch.conll.parse_file`, each document read as one block: it refuses a mention across a
sentence break, which the generator makes) and its five metrics (MUC, B-cubed, CEAFm, CEAFe,
BLANC) document by document, one direction. The reference scorer:
`perl scorer.pl all KEY RESPONSE none` (the five metrics, one direction, totals), timed as its
own process, whose peak memory is given.
**Value:** the CoNLL score (mean F1 of MUC, B-cubed and CEAFe over pooled counts).
**|diff|:** against the reference scorer, the recall and precision of the five metrics from the
counts it prints (its percentages are rounded); against scorch, the recall and precision of the
five metrics in every document (its corpus figure is a mean of document scores, not of pooled
counts).""",
    "trees": """\
**Data.** Pairs of dependency trees drawn (seeded) from the two annotators' NDT1 (Danish) files
of Skjaerholt's corpora. **Timed:** the edit distance with unit costs of every pair: ours,
`ted(a, b)` with its numba kernel (the default) and with its pure Python kernel; zss
`simple_distance`; apted `APTED(a, b).compute_edit_distance()`; the trees are converted to each
package's type beforehand. **Value:** the sum of the distances; **|diff|:** the largest
difference over the pairs. The speed-up is against the numba kernel. Then the whole Table 2
reproduction, `python scripts/reproduce_skjaerholt2014.py` (eight corpora, alpha_plain,
alpha_diff, alpha_norm and the accuracies, the kernel comparison; report printed, nothing
written), timed as a process from start to end.""",
    "pyramids": """\
`python scripts/study_pyramid_units.py --out TMP` (every DUC 2006/2007 pyramid, a simulated
second annotator at each noise level, words and spans as units, four distances; its report,
CSV and figure written to a temporary directory), timed as a process from start to end.""",
    "dataframe": """\
**Data.** The frames of `scripts/bench_dataframe.py`: a row per cell (coder, unit, value),
every unit coded by every coder, nominal labels, 5% of the cells missing; the label column as
Python strings (`object`), categoricals (`category`, the coder column too) or floats
(`number`). **Timed:** clusteragree `CodingTable.from_dataframe(df)` then
`alpha(table, "nominal")`; krippendorff, the usual route: labels to numbers (`pd.factorize`),
`df.pivot`, `krippendorff.alpha`. The krippendorff package builds a units x labels x labels
array, so its time grows with the square of the labels.""",
}

HOW = """\
## How the fast paths work

* **Class-derived values** (every value is "the class of unit t, minus t"): a set distance of
  `(|A|, |B|, |A & B|)` is summed over pairs of intersecting classes instead of pairs of values.
  Per pair of coders, `(class A, class B, m_t)` is packed into one integer per unit and sorted;
  the runs give the class pairs, their intersections and observed weights, turned into five
  kinds of value pairs (docs/alpha.md). Units alone in their class for both coders are counted
  before the sort. The statistics are histograms over `(|A|, |B|, |A & B|)`, so evaluating one
  more distance costs next to nothing. `python scripts/bench_choices.py` times the alternatives
  to the sort (hashing, `numpy.unique`) on the same data; its figures are not quoted here.
* **Scalar labels** go to the generic engine, which maps each cell to its value type once and
  counts coincidences per pair of coders into a dense table of type pairs, or from the counts of
  each label in each unit when coders are many.
* **Coreference** metrics share one contingency table per document; CEAF solves its assignment
  per connected component, most of them one key entity against one response entity.
* **DataFrames**: `from_dataframe` factorises the coder, unit and value columns once, with no
  Python loop per row; the krippendorff route pivots the frame and builds a units x labels x
  labels array. `scripts/bench_dataframe.py` also times wide frames and lists of records.
* **Tree edit distance** runs a numba-compiled Zhang-Shasha kernel where numba loads, and a pure
  Python one (the reference of a property test) elsewhere, with a `performance` warning.
* **Start-up**: pandas, scipy, numba and pyarrow are deferred imports, loaded by the functions
  that use them; a small table of codings is read row by row, held with its labels as tuples,
  and its report rendered from plain rows, so the command answers with numpy alone (checked on
  `sys.modules` by tests/test_startup.py). Options that need more (intervals, diagnostics,
  the kappa family, CSV output, sets of labels) load it then.
* **Spans**: the spans are sorted once per call by one packed integer (document and label,
  start, end); exact matches are runs of equal keys, overlap matches chains of overlapping
  spans, most of them one span of each annotator, the rest matched greedily in order of end
  (a maximum matching for intervals), side by side in numpy. The rows of F1 are laid out as
  scopes x pairs x slots arrays, so the output needs no sort and the mean over pairs no
  groupby. Token kappa and alpha come from counts made in one pass over the tag table
  (positions, agreeing pairs of annotators, tags per annotator, per document), not from a
  table per document. docs/spans.md, "Speed".
* **Readers' memory**: the long CSV is parsed by pyarrow a chunk of whole lines at a time and
  its text dropped before its distinct strings become Python objects; a pyramid that needs no
  repair is parsed from disk by lxml, each SCU dropped from the tree once read.
* **validate** reads each input once, with its domain's reader, and checks what the reader
  read when it accepted the input without repair: codings (CSV and Parquet) on the integer
  codes of their rows (numpy over the rows, Python per distinct field, label and document),
  pyramids on the reader's model. Only inputs the reader refused or repaired are read a
  second time (a row scan, a parse without repairs) to list every fault. The pyramid reader
  asks lxml for events of the elements it reads only. docs/validate.md, "Speed".

Other scripts time narrower questions and are not quoted on this page: `bench_alpha.py`
(class-derived alpha, three distances), `bench_coref.py` (coreference stage by stage),
`bench_dataframe.py` (every DataFrame entry and shape), `bench_memory.py` (other formats and
sizes than the memory section's), `bench_validate.py` (`validate` against the readers
alone, docs/validate.md), `bench_bootstrap.py` and `bench_choices.py`.
"""


# ------------------------------------------------------------------ formatting
def seconds(s: float) -> str:
    if s >= 100:
        return f"{s:,.0f}"
    if s >= 10:
        return f"{s:.1f}"
    if s >= 1:
        return f"{s:.2f}"
    return f"{s:#.3g}"


def times(x: float) -> str:
    return f"{x:,.0f}x" if x >= 10 else f"{x:.1f}x"


def size(section: str, n: int) -> str:
    exp = math.log10(n) if n > 0 else 0
    text = f"10^{exp:.0f}" if n >= 10_000 and exp == int(exp) else f"{n:,}"
    unit = {"coref": " tokens", "trees": " pairs", "dataframe": " rows",
            "spans": " spans"}.get(section, "")
    return text + unit


def value(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer() and abs(v) > 1:
        return f"{v:,.0f}"
    return f"{v:.6f}" if isinstance(v, float) else str(v)


def stopped(r: dict[str, Any]) -> str:
    """The seconds cell of a case stopped at the time limit."""
    if r.get("at_least"):
        return f"> {seconds(r['at_least'])} s (stopped)"
    return f"stopped before its timing began ({seconds(r['timeout'])} s)"


def row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


# ------------------------------------------------------------------ comparing values
def difference(section: str, ours: dict[str, Any], peer: dict[str, Any]) -> float:
    """The largest difference between a peer's values and ours (inf where they cannot be
    matched)."""
    if section == "trees":
        a, b = ours["per_pair"], peer["per_pair"]
        return max(abs(x - y) for x, y in zip(a, b, strict=True)) if len(a) == len(b) else math.inf
    if section == "coref":
        if "per_doc" in peer:
            mine, theirs = ours["per_doc"], peer["per_doc"]
            if set(mine) != set(theirs):
                return math.inf
            return max(abs(x - y) for d in mine for m in COREF_METRICS
                       for x, y in zip(mine[d][m], theirs[d][m], strict=True))
        return max(abs(x - y) for m in COREF_METRICS
                   for x, y in zip(ours["pooled"][m], peer["pooled"][m], strict=True))
    return abs(ours["value"] - peer["value"])


def _group_key(r: dict[str, Any]) -> tuple:
    p = r["params"]
    return (r["size"], p.get("coders", 0), p.get("labels", 0), p.get("kind", ""))


# ------------------------------------------------------------------ tables
def comparison(section: str, results: list[dict[str, Any]], failures: list[str]) -> list[str]:
    """The side-by-side table of a section: a block of rows per size (and shape)."""
    mine = OURS.get(section, "clusteragree")
    groups: dict[tuple, list[dict[str, Any]]] = defaultdict(list)
    for r in results:
        if "whole script" not in r["tool"] and "syn-agreement" not in r["tool"]:
            groups[_group_key(r)].append(r)
    groups = {k: v for k, v in groups.items() if len(v) > 1}
    if not groups:
        return []
    shape = section == "dataframe"
    per_pair = section == "trees"
    measure = section == "spans"
    head = ["size", *(["coders", "labels", "column"] if shape else []),
            *(["measure"] if measure else []), "tool", "seconds",
            *(["ms per pair"] if per_pair else []), "peak MiB", "value",
            "speed-up (peer s / ours s)", "\\|diff\\| from ours"]
    lines = [row(head), row(["---"] * len(head))]
    for key in sorted(groups):
        block = sorted(groups[key], key=lambda r: (r["tool"] != mine, r["tool"]))
        ours = next((r for r in block if r["tool"] == mine and r["status"] == "ok"), None)
        for r in block:
            cells = [size(section, r["size"])]
            if shape:
                cells += [str(r["params"]["coders"]), str(r["params"]["labels"]),
                          r["params"]["kind"]]
            if measure:
                cells.append(r["params"]["kind"])
            cells.append(r["tool"])
            speed, diff = "", ""
            if r["status"] == "ok":
                cells.append(seconds(r["seconds"]))
                if per_pair:
                    cells.append(f"{1000 * r['seconds'] / r['size']:.3f}")
                cells += [f"{r['peak_mib']:,.0f}", value(r.get("value"))]
                if ours is not None and r is not ours:
                    speed = times(r["seconds"] / ours["seconds"])
                if ours is not None and r is not ours:
                    d = difference(section, ours, r)
                    diff = f"{d:.1e}"
                    if not d <= TOLERANCE:
                        failures.append(f"{section}: {r['tool']} at {size(section, r['size'])}"
                                        f" differs from ours by {d:.3g}")
            elif r["status"] == "timeout":
                cells += [stopped(r)] + [""] * (2 + per_pair)
                if ours is not None and r.get("at_least"):
                    speed = ">= " + times(r["at_least"] / ours["seconds"])
            else:
                why = {"skipped": "not run (stopped at a smaller size)",
                       "failed": f"failed: {r.get('error', '')}"}[r["status"]]
                cells += [why] + [""] * (2 + per_pair)
            lines.append(row([*cells, speed, diff]))
    return lines


def growth(section: str, results: list[dict[str, Any]]) -> list[str]:
    """Ours alone across decades: seconds, peak, local exponents and the fitted slope."""
    rows = sorted((r for r in results if r.get("scale") and r["status"] == "ok"),
                  key=lambda r: r["size"])
    if len(rows) < 2:
        return []
    lines = ["Ours alone, each size in a fresh process:", "",
             row(["units", "seconds", "peak MiB", "local exponent"]), row(["---"] * 4)]
    for i, r in enumerate(rows):
        local = ""
        if i:
            prev = rows[i - 1]
            slope = math.log(r["seconds"] / prev["seconds"]) / math.log(r["size"] / prev["size"])
            local = f"{slope:.2f}"
        lines.append(row([size(section, r["size"]), seconds(r["seconds"]),
                          f"{r['peak_mib']:,.0f}", local]))
    fits = []
    for lo in range(len(rows) - 1):
        pts = rows[lo:]
        slope = np.polyfit(np.log10([r["size"] for r in pts]),
                           np.log10([r["seconds"] for r in pts]), 1)[0]
        fits.append(f"**{slope:.2f}** from {size(section, pts[0]['size'])} to "
                    f"{size(section, pts[-1]['size'])}")
        if len(pts) <= 3:
            break
    lines += ["", "Growth exponent (least-squares slope of log time on log N): "
              + ", ".join(fits) + "; the local exponent is the slope between neighbouring "
              "sizes."]
    return lines


def scripts_table(section: str, results: list[dict[str, Any]]) -> list[str]:
    rows = [r for r in results if "whole script" in r["tool"] or "syn-agreement" in r["tool"]]
    if not rows:
        return []
    lines = [row(["run", "seconds", "peak MiB"]), row(["---"] * 3)]
    for r in rows:
        if r["status"] == "ok":
            lines.append(row([r["tool"], seconds(r["seconds"]), f"{r['peak_mib']:,.0f}"]))
        elif r["status"] == "timeout":
            lines.append(row([r["tool"], stopped(r), ""]))
        else:
            lines.append(row([r["tool"], f"failed: {r.get('error', '')}", ""]))
    return lines


def startup_table(results: list[dict[str, Any]]) -> list[str]:
    """Whole processes (best, median, CPU, ratio to the krippendorff script), then the first
    call in a fresh interpreter."""
    lines: list[str] = []
    whole = [r for r in results if "whole process" in r["tool"] or "alone" in r["tool"]]
    peer = next((r for r in whole if "krippendorff" in r["tool"] and r["status"] == "ok"),
                None)
    if whole:
        head = ["run", "best s", "median s", "CPU s", "value", "best over the script's",
                "CPU over the script's"]
        lines += [row(head), row(["---"] * len(head))]
        for r in whole:
            if r["status"] != "ok":
                lines.append(row([r["tool"], f"{r['status']} {r.get('error', '')}",
                                  *[""] * 5]))
                continue
            ratio = (times(r["best"] / peer["best"]), times(r["cpu"] / peer["cpu"])) \
                if peer is not None and r is not peer else ("", "")
            lines.append(row([r["tool"], seconds(r["best"]), seconds(r["median"]),
                              seconds(r["cpu"]), value(r.get("value")), *ratio]))
    first = [r for r in results if r["tool"].startswith("first alpha")]
    if first:
        head = ["values", "imports s", "first call s", "second call s", "value", "loaded"]
        lines += ["", row(head), row(["---"] * len(head))]
        for r in first:
            if r["status"] != "ok":
                lines.append(row([r["params"]["kind"], f"{r['status']} {r.get('error', '')}",
                                  *[""] * 4]))
                continue
            lines.append(row([r["params"]["kind"], seconds(r["imports"]),
                              seconds(r["first"]), seconds(r["second"]),
                              value(r.get("value")), ", ".join(r["loaded"]) or "none"]))
    return lines


def gamma_table(results: list[dict[str, Any]], failures: list[str]) -> list[str]:
    """Each data set's best alignment and gamma: ours, pygamma's, the speed-up and |diff|."""
    head = ["data", "units", "measured", "tool", "seconds", "first call s", "peak MiB",
            "value", "samples", "speed-up (peer s / ours s)", "\\|diff\\| from ours"]
    lines = [row(head), row(["---"] * len(head))]
    blocks: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in results:
        blocks[r["params"]["data"], r["params"]["kind"]].append(r)
    for (data, kind), block in blocks.items():
        block.sort(key=lambda r: r["tool"] != "clusteragree")
        ours = next((r for r in block if r["tool"] == "clusteragree" and r["status"] == "ok"),
                    None)
        for r in block:
            measured = "best alignment" if kind == "alignment" else "gamma"
            cells = [data, f"{r['size']:,}", measured, r["tool"]]
            speed = diff = ""
            if r["status"] == "ok":
                warm = r.get("warm_seconds")
                shown = f"refused: {r['refused']}" if r.get("refused") else value(r.get("value"))
                if r["params"].get("max_candidates"):
                    shown += f" (max_candidates={r['params']['max_candidates']:,})"
                cells += [seconds(r["seconds"]), seconds(warm) if warm else "",
                          f"{r['peak_mib']:,.0f}", shown, str(r.get("samples", ""))]
                if ours is not None and r is not ours and ours.get("value") is not None:
                    speed = times(r["seconds"] / ours["seconds"])
                    d = abs(r["value"] - ours["value"])
                    if kind == "alignment":
                        d /= abs(ours["value"]) or 1.0
                        if not d <= GAMMA_TOLERANCE:
                            failures.append(f"gamma: {r['tool']}'s disorder on {data} differs "
                                            f"from ours by {d:.3g} (relative)")
                    diff = f"{d:.1e}" + (" (relative)" if kind == "alignment" else
                                         " (sampling)")
            elif r["status"] == "timeout":
                cells += [stopped(r), "", "", "", ""]
                if ours is not None and r.get("at_least"):
                    speed = ">= " + times(r["at_least"] / ours["seconds"])
            else:
                why = {"skipped": "not run (stopped at a smaller size)",
                       "failed": f"failed: {r.get('error', '')}"}[r["status"]]
                cells += [why, "", "", "", ""]
            lines.append(row([*cells, speed, diff]))
    versions = sorted({r["version"] for r in results if r.get("version")})
    if versions:
        lines += ["", f"pygamma-agreement {', '.join(versions)}."]
    return lines


def memory_table(results: list[dict[str, Any]]) -> list[str]:
    """Each reader's input, peak, baseline, ratio and time."""
    head = ["reader", "input MB", "peak MB", "baseline MB", "peak / input", "seconds",
            "read"]
    lines = [row(head), row(["---"] * len(head))]
    for r in results:
        if r["status"] != "ok":
            lines.append(row([r["tool"], f"{r['status']} {r.get('error', '')}", *[""] * 5]))
            continue
        lines.append(row([r["params"]["format"], f"{r['file_mb']:,.1f}",
                          f"{r['peak_mb']:,.0f}", f"{r['baseline_mb']:,.0f}",
                          f"{r['ratio']:.2f}", seconds(r["seconds"]), str(r["read"])]))
    return lines


def _memory_goal(results: list[dict[str, Any]]) -> tuple[str, bool] | None:
    found = [r for r in results if r["section"] == "memory" and r["status"] == "ok"]
    if not found:
        return None
    worst = max(found, key=lambda r: r["ratio"])
    return (f"{worst['ratio']:.2f}x ({worst['params']['format']}, "
            f"{worst['file_mb']:,.0f} MB)", worst["ratio"] <= 5)


def _startup_goal(results: list[dict[str, Any]]) -> tuple[str, bool] | None:
    ours = _find(results, "startup", "clusteragree table, whole process", 1)
    peer = _find(results, "startup", "script calling krippendorff, whole process", 1)
    if ours is None or peer is None or "ok" not in (ours["status"], peer["status"]) \
            or ours["status"] != peer["status"]:
        return None
    ratio = ours["best"] / peer["best"]
    return f"{times(ratio)} (CPU {times(ours['cpu'] / peer['cpu'])})", ratio <= 3


def _first_goal(results: list[dict[str, Any]]) -> tuple[str, bool] | None:
    found = [r for r in results if r["tool"].startswith("first alpha") and r["status"] == "ok"]
    if not found:
        return None
    worst = max(r["first"] for r in found)
    return f"{seconds(worst)} s", worst < 0.1


# ------------------------------------------------------------------ goals
def _spans_goal(kind: str) -> Callable[[list[dict[str, Any]]], tuple[str, bool] | None]:
    def check(results: list[dict[str, Any]]) -> tuple[str, bool] | None:
        r = next((r for r in results if r["section"] == "spans" and r["size"] == 10**6
                  and r["tool"] == "clusteragree" and r["params"].get("kind") == kind
                  and r["status"] == "ok"), None)
        return None if r is None else (f"{seconds(r['seconds'])} s", r["seconds"] < 2)
    return check


def _find(results: list[dict[str, Any]], section: str, tool: str, n: int
          ) -> dict[str, Any] | None:
    return next((r for r in results if r["section"] == section and r["tool"] == tool
                 and r["size"] == n and r["status"] in ("ok", "timeout")), None)


def _ratio_goal(section: str, peer: str, n: int, at_least: float
                ) -> Callable[[list[dict[str, Any]]], tuple[str, bool] | None]:
    def check(results: list[dict[str, Any]]) -> tuple[str, bool] | None:
        ours, theirs = _find(results, section, "clusteragree", n), _find(results, section, peer, n)
        if ours is None or theirs is None or ours["status"] != "ok":
            return None
        if theirs["status"] == "timeout":
            if not theirs.get("at_least"):
                return None
            ratio = theirs["at_least"] / ours["seconds"]
            return f">= {times(ratio)}", ratio >= at_least
        ratio = theirs["seconds"] / ours["seconds"]
        return times(ratio), ratio >= at_least
    return check


def _time_goal(section: str, tool: str, n: int, limit: float, gb: float | None = None
               ) -> Callable[[list[dict[str, Any]]], tuple[str, bool] | None]:
    def check(results: list[dict[str, Any]]) -> tuple[str, bool] | None:
        r = _find(results, section, tool, n)
        if r is None:
            return None
        if r["status"] == "timeout":
            return stopped(r), False
        if gb is not None:
            peak = r["peak_mib"] * 2**20 / 1e9
            return f"{peak:.2f} GB", peak < gb
        return f"{seconds(r['seconds'])} s", r["seconds"] < limit
    return check


def _gamma_ratio(results: list[dict[str, Any]]) -> tuple[str, bool] | None:
    """The least speed-up over pygamma-agreement on 2by5000 and 5by100, best alignment and
    gamma (a lower bound where pygamma was stopped)."""
    found = []
    for data in ("2by5000", "5by100"):
        for kind in ("alignment", "gamma"):
            pick = [r for r in results if r["section"] == "gamma"
                    and r["params"].get("data") == data and r["params"].get("kind") == kind]
            ours = next((r for r in pick if r["tool"] == "clusteragree"
                         and r["status"] == "ok"), None)
            peer = next((r for r in pick if r["tool"] == "pygamma-agreement"), None)
            if ours is None or peer is None:
                return None
            if peer["status"] == "ok":
                found.append((peer["seconds"] / ours["seconds"], "", data, kind))
            elif peer["status"] == "timeout" and peer.get("at_least"):
                found.append((peer["at_least"] / ours["seconds"], ">= ", data, kind))
            else:
                return None
    ratio, bound, data, kind = min(found)
    return f"{bound}{times(ratio)} (least: {data}, {kind})", ratio >= 50


def _gamma_time(results: list[dict[str, Any]]) -> tuple[str, bool] | None:
    r = next((r for r in results if r["section"] == "gamma" and r["tool"] == "clusteragree"
              and r["params"].get("data") == "10x1000" and r["params"].get("kind") == "gamma"),
             None)
    if r is None:
        return None
    if r["status"] == "timeout":
        return stopped(r), False
    if r["status"] != "ok":
        return f"failed: {r.get('error', '')[:80]}", False
    if r.get("refused"):
        return f"refused after {seconds(r['seconds'])} s ({r['refused']})", False
    return f"{seconds(r['seconds'])} s", r["seconds"] < 60


GOALS = [
    ("class-derived MASI alpha at least 3,000x faster than NLTK at 4,000 units",
     _ratio_goal("alpha-classes", "NLTK", 4000, 3000)),
    ("integer nominal alpha at least 3x faster than krippendorff at 10^6 units x 5 coders",
     _ratio_goal("alpha-int", "krippendorff", 10**6, 3)),
    ("integer nominal alpha at 10^7 units x 5 coders: peak memory under 4 GB",
     _time_goal("alpha-int", "clusteragree", 10**7, 0, gb=4)),
    ("class-derived sets, 10^7 units x 5 coders: under 6 s",
     _time_goal("alpha-sets", "clusteragree", 10**7, 6)),
    ("class-derived sets, 10^7 units x 5 coders: peak memory under 3 GB",
     _time_goal("alpha-sets", "clusteragree", 10**7, 0, gb=3)),
    ("coreference, 10^6 tokens read and scored: under 60 s",
     _time_goal("coref", "clusteragree", 10**6, 60)),
    ("Skjaerholt's Table 2 reproduced: under 12 s",
     _time_goal("trees", "Table 2 reproduction, whole script", 1, 12)),
    ("the pyramid units study: under 15 s",
     _time_goal("pyramids", "pyramid units study, whole script", 1, 15)),
    ("a small table as a whole process within 3x of a script calling krippendorff",
     _startup_goal),
    ("the first alpha on 1,000 units in a fresh process: under 0.1 s beyond its imports",
     _first_goal),
    ("every reader within 5x of its input's size in peak memory", _memory_goal),
    ("span F1 (four rules) over 10^6 spans: under 2 s", _spans_goal("F1")),
    ("token kappa and alpha (BIO) over 10^6 spans: under 2 s", _spans_goal("kappa")),
    ("gamma's best alignment and gamma at least 50x faster than pygamma-agreement on its "
     "2by5000 and 5by100", _gamma_ratio),
    ("gamma of 10 annotators x 1,000 units (realistic continuum): under a minute", _gamma_time),
]


def goals(results: list[dict[str, Any]], quick: bool) -> list[str]:
    lines = ["## Goals", "", row(["goal", "measured", "verdict"]), row(["---"] * 3)]
    for text, check in GOALS:
        found = None if quick else check(results)
        if found is None:
            lines.append(row([text, "not measured in this run", ""]))
        else:
            lines.append(row([text, found[0], "met" if found[1] else "**missed**"]))
    return lines


# ------------------------------------------------------------------ the page
def _version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def machine(perl_scorer: Path | None) -> str:
    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    parts = [f"{os.cpu_count()} cores", f"{ram:.0f} GiB", f"Python {platform.python_version()}"]
    parts += [f"{n} {v}" for n in ("clusteragree", "numpy", "pandas", "scipy", "numba")
              if (v := _version(n))]
    parts += [f"{n} {v}" for n in PEERS if (v := _version(n))]
    if perl_scorer is not None:
        head = perl_scorer.parent / "lib" / "CorScorer.pm"
        found = re.search(r"VERSION\s*=\s*'([^']+)'", head.read_text(errors="replace")) \
            if head.is_file() else None
        parts.append(f"reference scorer {found.group(1) if found else '(version unknown)'}")
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                                capture_output=True, check=True).stdout.strip()
        parts.append(f"commit {commit}")
    except (OSError, subprocess.CalledProcessError):
        pass
    return ", ".join(parts)


def render(results: list[dict[str, Any]], *, notes: list[str], quick: bool, command: str,
           started: float, load: float, perl_scorer: Path | None, timeout: float,
           repeat: int, labels: int) -> tuple[str, list[str]]:
    """The page, and the list of values that disagree (or cases that failed)."""
    failures: list[str] = [f"{r['section']}: {r['tool']} at {size(r['section'], r['size'])} "
                           f"failed: {r.get('error', '')}" for r in results
                           if r["status"] == "failed"
                           and not r["tool"].startswith("syn-agreement")]  # not ours to fix
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(started))
    lines = [
        "# Performance", "",
        f"Every figure on this page comes from one run of `{command}`"
        + (" (**--quick: small sizes, a smoke run, not the page's figures**)" if quick else "")
        + f", started {when} on {machine(perl_scorer)}; load average "
        f"{load:.1f} at the start (the machine may have been shared).", "",
        "Each case (one tool at one size) runs in a fresh process. **Seconds**: wall clock of the "
        f"tool's call, best of {repeat} runs (a single run where one takes more than 10 s), after "
        "a first call on small data (imports, compiled kernels) and excluding making the data. "
        "**Peak MiB**: the resident peak of that process during the timed runs, its data "
        "included (the peak is reset once the data are made); for a tool that is a program of "
        "its own (the Perl scorer, a whole script), that program's peak. A case's process "
        f"(data and first call included) is stopped after {seconds(timeout)} s; its seconds "
        "are then a lower bound (\"> T s\": the time its timed call had run), its speed-up "
        "too, and it is not run at larger sizes. **Speed-up**: the peer's seconds over ours. "
        "**\\|diff\\|**: the largest difference between the peer's values and ours "
        f"(the run fails above {TOLERANCE:g})."
        + (" This system could not reset the peak: it includes making the data."
           if any(r.get("peak_reset") is False for r in results) else ""), ""]
    lines += [*goals(results, quick), ""]
    by_section: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in results:
        by_section[r["section"]].append(r)
    for section in SECTIONS:
        rs = by_section.get(section)
        skipped = [n.split(": ", 1)[1] for n in notes if n.startswith(section + ":")]
        if not rs and not skipped:
            continue
        lines += [f"## {TITLES[section]}", "",
                  NOTES[section].format(labels_minus_one=labels - 1,
                                        runs=STARTUP_QUICK_RUNS if quick else STARTUP_RUNS),
                  ""]
        parts = ([startup_table(rs or [])] if section == "startup" else
                 [memory_table(rs or [])] if section == "memory" else
                 [gamma_table(rs or [], failures)] if section == "gamma" else
                 [comparison(section, rs or [], failures), growth(section, rs or []),
                  scripts_table(section, rs or [])])
        for part in parts:
            if part:
                lines += [*part, ""]
        lines += [f"* {n}." for n in skipped]
        if skipped:
            lines.append("")
    lines += [HOW, "## The command", "", "    " + command, "",
              "Run it alone on the machine; `--quick` runs small sizes in under a minute, "
              "`--only SECTIONS` a part. `--perl-scorer PATH` adds the reference coreference "
              "scorer, `--syn-agreement PATH` Skjaerholt's own tool where it runs.", ""]
    return "\n".join(lines), failures
