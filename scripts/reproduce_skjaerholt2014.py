"""Skjaerholt (2014), Table 2: tree alpha and accuracy on the real corpora in
../shared/corpora/syntax/, written to docs/reproduction/skjaerholt2014.md (--jobs N: processes
for the tree edit distances, default every core).

Corpora (the paper's names): NDT1-3 (the danish, swedish and norwegian files of two annotators),
CDT da and en (two annotators), CDT es and it (one directory per annotator), SSD (three
annotators' bracketed derivation trees, one directory each). For each: alpha_plain, alpha_diff,
alpha_norm (squared distances, the reproduction conventions of docs/trees.md) and the mean
pairwise LAS (dependencies) or bracket Jaccard (SSD). Prints the time spent in tree edit
distances against the rest, the cache hit rate, and how fast the TED kernel is against the zss
package on the same pairs (when zss is installed). ``--jobs N`` computes the tree edit distances
on N processes (default: every core); the values are the same whatever N.

Usage: ``python scripts/reproduce_skjaerholt2014.py [--out OUTPUT.md | --docs] [--jobs N]``
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from itertools import permutations
from pathlib import Path
from typing import Any

import numpy as np

from clusteragree import __version__
from clusteragree.core import CodingTable, resolve_jobs
from clusteragree.errors import AlphaUndefinedWarning
from clusteragree.trees import (
    TreeAnnotations,
    TreeCache,
    accuracies,
    mean_pairwise_accuracy,
    read_conll_trees,
    read_tree_annotations,
    ted,
    tree_alpha,
    tree_table,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _cli import output_path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "corpora" / "syntax"
OUT = ROOT / "docs" / "reproduction" / "skjaerholt2014.md"

#: Skjaerholt (2014), Table 2 as printed (percent): alpha_plain, alpha_diff, alpha_norm, LAS
#: (mean pairwise bracket Jaccard for SSD). PCEDT (95.9, 89.9, 96.5, 68.0) is not public.
PAPER = {
    "NDT1": (98.4, 93.0, 98.8, 94.0), "NDT2": (98.9, 95.0, 99.1, 94.4),
    "NDT3": (97.9, 91.2, 98.7, 95.3), "CDT(da)": (95.7, 84.7, 96.2, 90.4),
    "CDT(en)": (92.4, 70.7, 95.0, 88.4), "CDT(es)": (86.6, 48.8, 85.8, 78.9),
    "CDT(it)": (84.5, 55.7, 89.2, 81.3), "SSD": (99.1, 98.6, 99.3, 87.9),
}
#: The table's footnotes: sentences ignored in the LAS computation.
PAPER_IGNORED = {"CDT(es)": 2, "CDT(it)": 15}
COLUMNS = ("plain", "diff", "norm", "acc")

#: Why a printed value is not reproduced, by (corpus, column); a difference the script finds
#: without an entry here is reported as unexplained.
EXPLAINED = {
    ("CDT(es)", "acc"): (
        "not reproduced. Our value is the paper's equation (3) (per sentence the mean over its "
        "annotators' pairs, weighted by the sentence's words), ignoring the sentences whose "
        "annotations differ in length; it ignores the footnote's number of sentences. None of "
        "the other aggregations in the table below gives both printed values (78.9 and 81.3). "
        "The alphas of the same data agree to the printed digit, so the trees are read alike; "
        "the printed LAS must come from another aggregation or another version of the data."),
    ("CDT(it)", "acc"): "not reproduced, as under CDT(es).",
}


class TimedCache(TreeCache):
    """A TED cache that also times the distances it computes."""

    seconds = 0.0

    def __call__(self, a, b):  # type: ignore[override]
        start = time.perf_counter()
        try:
            return super().__call__(a, b)
        finally:
            self.seconds += time.perf_counter() - start

    def fill(self, trees, jobs=1):  # type: ignore[override]
        start = time.perf_counter()
        try:
            return super().fill(trees, jobs)
        finally:
            self.seconds += time.perf_counter() - start


def corpora() -> list[tuple[str, TreeAnnotations]]:
    """The paper's corpora, by its names."""
    out = []
    for name, stem in (("NDT1", "danish"), ("NDT2", "swedish"), ("NDT3", "norwegian")):
        out.append((name, read_tree_annotations(
            [DATA / "ndt" / f"{a}-{stem}.conll" for a in ("odin", "thor")],
            names=["odin", "thor"])))
    for lang in ("da", "en"):
        out.append((f"CDT({lang})", read_tree_annotations(
            [DATA / "cdt" / f"{lang}-{a}.conll" for a in ("lotte", "morten")],
            names=["lotte", "morten"], roots="many", cycles="drop")))
    for lang in ("es", "it"):
        dirs = sorted(p for p in (DATA / "cdt" / lang).iterdir() if p.is_dir())
        out.append((f"CDT({lang})", read_tree_annotations(dirs=dirs, roots="many",
                                                          cycles="drop")))
    ssd_dirs = sorted(p for p in (DATA / "ssd").iterdir() if p.is_dir())
    out.append(("SSD", read_tree_annotations(dirs=ssd_dirs)))
    return out


def _alphas(table: CodingTable, cache: TreeCache, size_by: str = "auto", jobs: int | None = 1
            ) -> list[float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AlphaUndefinedWarning)
        return [tree_alpha(table, m, size_by=size_by, cache=cache, jobs=jobs).alpha
                for m in ("plain", "diff", "norm")]


def _las_variants(annotations: TreeAnnotations) -> dict[str, float]:
    """LAS of several annotators under the aggregations one might read into the paper."""
    pairs = accuracies(annotations)
    eq3 = mean_pairwise_accuracy(annotations)
    words = sum(len(s.words) for s in _first_annotations(annotations))
    return {
        "equation (3), the default": eq3["las"],
        "every sentence the same weight": mean_pairwise_accuracy(annotations,
                                                                 weighted=False)["las"],
        "pooled over the tokens of every pair": float(
            (pairs["las"] * pairs["tokens"]).sum() / pairs["tokens"].sum()),
        "mean of the pairs' pooled LAS": float(pairs["las"].mean()),
        "ignored sentences' words counted as disagreement": eq3["las"] * eq3["weight"] / words,
    }


def _first_annotations(annotations: TreeAnnotations) -> list:
    """Each sentence's first annotation, over sentences with two or more."""
    units: dict = {}
    for sentences in annotations.sentences.values():
        for u, s in sentences.items():
            units.setdefault(u, []).append(s)
    return [v[0] for v in units.values() if len(v) > 1]


def main() -> None:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--jobs", type=int, default=None)
    known, rest = parser.parse_known_args()
    sys.argv[1:] = rest
    jobs = resolve_jobs(known.jobs)
    out = output_path(__doc__, OUT)
    if not DATA.is_dir():
        print(f"{DATA} is absent: nothing to reproduce", file=sys.stderr)
        return
    start = time.perf_counter()
    rows = []
    cache = TimedCache(True)
    variants: dict[str, dict[str, float]] = {}
    by_nodes = []
    jaccard_range = (float("nan"), float("nan"))
    for name, corpus in corpora():
        table = tree_table(corpus)
        values = _alphas(table, cache, jobs=jobs)
        acc = mean_pairwise_accuracy(corpus)
        column = "las" if corpus.kind == "dependency" else "jaccard"
        cycles = sum(c.get("words in cycles left out", 0)
                     for c in corpus.skipped.values())
        if cycles:
            by_nodes.append((name, cycles, *_alphas(table, cache, "nodes", jobs)[1:]))
        if name in PAPER_IGNORED:
            variants[name] = _las_variants(corpus)
        if corpus.kind == "phrase":
            orders = [mean_pairwise_accuracy(TreeAnnotations(
                {a: corpus.sentences[a] for a in order}, "phrase", {}))["jaccard"]
                for order in permutations(corpus.sentences)]
            jaccard_range = (100 * min(orders), 100 * max(orders))
        rows.append((name, table.n_units, corpus.n_annotations,
                     *values, acc[column], acc["ignored"]))
    total = time.perf_counter() - start
    speed = _kernel_comparison()
    lines = [
        "# Skjaerholt (2014), Table 2: tree alpha on the real corpora", "",
        f"Written by `scripts/reproduce_skjaerholt2014.py` (clusteragree {__version__}) in "
        f"{total:.1f} s on {jobs} process{'es' if jobs > 1 else ''}, of which "
        f"{cache.seconds:.1f} s in tree edit distances "
        f"({cache.misses} distinct pairs computed, cache hit rate "
        f"{cache.hits / max(1, cache.hits + cache.misses):.1%}).", "",
        "Conventions (docs/trees.md): squared distances; |x| = the words plus the root for "
        "dependencies (words left out of the tree because their heads form a cycle still "
        "count), leaves for SSD; the empty root free to insert or delete; CDT sentences with "
        "several roots kept under the root and words in head cycles left out of the tree. "
        "Accuracy: the paper's equation (3), the mean pairwise LAS per sentence weighted by its "
        "words (bracket Jaccard weighted by leaves for SSD), sentences whose annotations differ "
        "in length ignored.", "",
        "Each cell: ours / the paper's printed value, in percent; **bold** where they differ at "
        "the printed precision. PCEDT is not public.", "",
        "| corpus | sentences | annotations | alpha_plain | alpha_diff | alpha_norm | "
        "LAS / Jaccard | ignored |", "|---|---|---|---|---|---|---|---|"]
    differences = []
    for name, n_units, n_ann, *values, ignored in rows:
        cells = []
        for col, ours, printed in zip(COLUMNS, values, PAPER[name], strict=True):
            same = f"{100 * ours:.1f}" == f"{printed:.1f}"
            cell = f"{100 * ours:.1f} / {printed:.1f}"
            cells.append(cell if same else f"**{cell}**")
            if not same:
                differences.append((name, col, 100 * ours, printed))
        paper_ignored = PAPER_IGNORED.get(name, 0)
        cells.append(f"{ignored} / {paper_ignored}" if ignored == paper_ignored
                     else f"**{ignored} / {paper_ignored}**")
        lines.append(f"| {name} | {n_units} | {n_ann} | " + " | ".join(cells) + " |")
    lines += ["", f"{sum(len(v) for v in PAPER.values()) - len(differences)} of "
              f"{sum(len(v) for v in PAPER.values())} printed values reproduced.", "",
              "## Differences", ""]
    label = {"plain": "alpha_plain", "diff": "alpha_diff", "norm": "alpha_norm",
             "acc": "LAS / Jaccard"}
    for name, col, ours, printed in differences:
        why = EXPLAINED.get((name, col), "unexplained.")
        lines.append(f"* {name} {label[col]}: ours {ours:.2f}, printed {printed:.1f}: {why}")
    if not differences:
        lines.append("None.")
    if variants:
        names = list(variants)
        lines += ["", "| LAS aggregation | " + " | ".join(
            f"{n} (printed {PAPER[n][3]:.1f})" for n in names) + " |",
            "|---|" + "---|" * len(names)]
        for how in variants[names[0]]:
            lines.append(f"| {how} | " + " | ".join(f"{100 * variants[n][how]:.1f}"
                                                    for n in names) + " |")
    lines += [
        "", "## Choices the printed values depend on", "",
        "* **|x| of a dependency sentence** is its words plus the root, not the nodes of its "
        "tree: the two differ where words are left out of a head cycle. Counting the tree's "
        "nodes instead changes alpha_diff and alpha_norm (alpha_plain does not use |x|):", "",
        "| corpus | words in cycles | alpha_diff (nodes) | alpha_norm (nodes) |",
        "|---|---|---|---|"]
    for name, cycles, diff, norm in by_nodes:
        lines.append(f"| {name} | {cycles} | {100 * diff:.1f} | {100 * norm:.1f} |")
    lines += [
        "", "* **SSD's Jaccard weight** is the leaf count of the first annotation in annotator "
        "order (`ssd.emily2`, the sorted directory order); five SSD sentences differ in leaf "
        "count between annotators, so the value depends on the order: "
        f"{jaccard_range[0]:.2f} to {jaccard_range[1]:.2f} over the six orders.",
        "* **The paper's text** says sentences were excluded from LAS for the English and "
        "Italian CDT corpora; the table's footnotes and the data say Spanish and Italian.", ""]
    lines += ["The rankings the paper states in its text, checked on our values:", ""]
    value = {r[0]: dict(zip(COLUMNS, r[3:7], strict=True)) for r in rows}
    stated = [("acc", ["NDT3", "NDT2", "NDT1"]), ("acc", ["CDT(da)", "CDT(en)", "CDT(it)",
                                                          "CDT(es)"]),
              ("diff", ["NDT2", "NDT1", "NDT3"]), ("diff", ["CDT(da)", "CDT(en)", "CDT(it)",
                                                            "CDT(es)"]),
              ("norm", ["NDT2", "NDT1", "NDT3"]), ("norm", ["CDT(da)", "CDT(en)", "CDT(it)",
                                                            "CDT(es)"]),
              ("plain", ["NDT2", "NDT1", "NDT3"]), ("plain", ["CDT(da)", "CDT(en)", "CDT(es)",
                                                              "CDT(it)"])]
    for metric, order in stated:
        ours = sorted(order, key=lambda c: -value[c][metric])
        verdict = "holds" if ours == order else f"does not hold (ours: {' > '.join(ours)})"
        lines.append(f"* {label[metric].split(' ')[0]}: {' > '.join(order)}: {verdict}")
    lines += ["", speed, ""]
    print("\n".join(lines))
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("\n".join(lines) + "\n")


def _kernel_comparison() -> str:
    """Time the kernels on the same 300 pairs of NDT1 trees."""
    files = [read_conll_trees(DATA / "ndt" / f"{a}-danish.conll") for a in ("odin", "thor")]
    trees = [s.tree for f in files for s in f.sentences]
    rng = np.random.default_rng(0)
    pairs = [(trees[i], trees[j]) for i, j in rng.integers(0, len(trees), size=(300, 2))]
    ted(pairs[0][0], pairs[0][1])  # compile the numba kernel before timing
    times = {}
    for kernel in ("python", "numba"):
        try:
            t0 = time.perf_counter()
            for a, b in pairs:
                ted(a, b, free_empty=True, kernel=kernel)
            times[kernel] = time.perf_counter() - t0
        except ImportError:
            pass
    same: dict[str, int] = {}
    ours = [ted(a, b, free_empty=False) for a, b in pairs]  # unit costs, as the peers use
    try:
        import zss

        def to_zss(t: Any) -> Any:
            nodes = [zss.Node(label) for label in t.labels]
            for p, size in enumerate(t.sizes):  # children of p: the subtrees inside its own
                c = p + 1
                while c < p + size:
                    nodes[p].addkid(nodes[c])
                    c += t.sizes[c]
            return nodes[0]

        zpairs = [(to_zss(a), to_zss(b)) for a, b in pairs]
        found = []
        t0 = time.perf_counter()
        for a, b in zpairs:
            found.append(zss.simple_distance(a, b, label_dist=lambda x, y: 0 if x == y else 1))
        times["zss"] = time.perf_counter() - t0
        same["zss"] = sum(x == y for x, y in zip(found, ours, strict=True))
    except ImportError:
        pass
    try:
        from apted import APTED
        from apted.helpers import Tree as AptedTree

        def to_apted(t: Any) -> Any:
            def text(p: int) -> str:
                kids, c = [], p + 1
                while c < p + t.sizes[p]:
                    kids.append(text(c))
                    c += t.sizes[c]
                label = t.labels[p].replace("{", "(").replace("}", ")") or "_root_"
                return "{" + label + "".join(kids) + "}"
            return AptedTree.from_text(text(0))

        apairs = [(to_apted(a), to_apted(b)) for a, b in pairs]
        found = []
        t0 = time.perf_counter()
        for a, b in apairs:
            found.append(APTED(a, b).compute_edit_distance())
        times["apted"] = time.perf_counter() - t0
        same["apted"] = sum(x == y for x, y in zip(found, ours, strict=True))
    except (ImportError, RecursionError):
        pass
    parts = [f"{k} {1000 * v / len(pairs):.3f} ms" for k, v in times.items()]
    ratio = ""
    for peer in ("zss", "apted"):
        if peer in times:
            ratio += f"; against {peer}: " + ", ".join(
                f"{k} {times[peer] / v:.0f}x" for k, v in times.items() if k in ("python", "numba"))
    agree = "".join(f" {peer} gives our distance (unit costs) on {n} of {len(pairs)} pairs."
                    for peer, n in same.items())
    return (f"TED kernels on the same {len(pairs)} pairs of NDT1 trees, per pair: "
            + ", ".join(parts) + ratio + "." + agree)


if __name__ == "__main__":
    main()
