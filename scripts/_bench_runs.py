"""The measured cases of scripts/bench.py: the data of each section and each tool's run on it.

A tool is a pair of functions: ``prepare(size, params)`` makes the data, outside the timing, in
the form the tool takes (the peers get their own input format, built here without our package
wherever the format allows), and ``run(data)`` is what is timed and returns the tool's value
(a float, or a dict with ``"value"`` and the details the report compares: per-pair distances,
per-document scores). ``RUNS[(section, tool)]`` holds them; ``bench.py --child`` runs one in a
fresh process.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import warnings
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

SCRIPTS = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS))

ROOT = SCRIPTS.parent
SYNTAX = ROOT.parent / "shared" / "corpora" / "syntax"
PYRAMIDS = ROOT.parent / "shared" / "corpora" / "duc-pyramids"
DOC = 500
COREF_METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")

Prepare = Callable[[int, dict[str, Any]], Any]
Run = Callable[[Any], Any]
RUNS: dict[tuple[str, str], tuple[Prepare, Run]] = {}


def tool(section: str, name: str, prepare: Prepare) -> Callable[[Run], Run]:
    """Register ``run`` as tool ``name`` of ``section``, its data made by ``prepare``."""
    def register(run: Run) -> Run:
        RUNS[(section, name)] = (prepare, run)
        return run
    return register


# ------------------------------------------------------------------ class-derived values
def class_ids(n: int, coders: int = 2, seed: int = 12345) -> list[np.ndarray]:
    """Class ids of ``coders`` coders over n units (-1 where a coder left a unit uncoded).

    The first coder's classes have geometric sizes (mean about 1.5, many singletons) and lie
    within documents of 500 units, units shuffled within each document; every other coder
    moves 15% of the units to another class of the same document and leaves 2% uncoded.
    Seeded; with two coders, the data of scripts/bench_alpha.py.
    """
    rng = np.random.default_rng(seed)
    sizes = rng.geometric(0.65, n)
    a = np.repeat(np.arange(n), sizes)[:n]
    a = a + (np.arange(n) // DOC) * n  # classes inside documents
    order = np.argsort(np.arange(n) // DOC + rng.random(n) * 0.999, kind="stable")
    a = a[order]
    others = []
    for _ in range(coders - 1):
        b = a.copy()
        move = np.flatnonzero(rng.random(n) < 0.15)
        target = np.clip(move + rng.integers(-DOC // 2, DOC // 2, len(move)), 0, n - 1)
        same_doc = target // DOC == move // DOC
        b[move[same_doc]] = a[target[same_doc]]
        b[rng.random(n) < 0.02] = -1
        others.append(b)
    ids, compact = np.unique(a, return_inverse=True)  # ids 0..K-1, as a reader gives them
    out = [compact.astype(np.int64)]
    out += [np.where(b < 0, -1, np.searchsorted(ids, b)).astype(np.int64) for b in others]
    return out


def nltk_records(ids: list[np.ndarray]) -> list[tuple[str, int, frozenset]]:
    """NLTK's triples (coder, item, label) of class-derived values, built from the class ids
    alone: a unit's value is the other units of its class."""
    records = []
    for c, row in enumerate(ids):
        members: dict[int, list[int]] = defaultdict(list)
        for unit, k in enumerate(row.tolist()):
            if k >= 0:
                members[k].append(unit)
        for unit, k in enumerate(row.tolist()):
            if k >= 0:
                records.append((f"c{c}", unit, frozenset(members[k]) - {unit}))
    return records


def nltk_masi_alpha(records: list[tuple[str, int, frozenset]]) -> float:
    """NLTK's alpha with MASI; its ``masi_distance`` divides by zero on two empty sets (two
    singletons), so it is wrapped to return 0 there, the value of the definition."""
    from nltk.metrics.agreement import AnnotationTask
    from nltk.metrics.distance import masi_distance

    def masi(x: frozenset, y: frozenset) -> float:
        return 0.0 if not x and not y else masi_distance(x, y)

    return float(AnnotationTask(data=records, distance=masi).alpha())


def ours_classes(ids: list[np.ndarray]) -> float:
    from clusteragree import CodingTable, alpha

    table = CodingTable.from_clusterings({f"c{c}": row for c, row in enumerate(ids)})
    return alpha(table, "masi", jobs=None).alpha  # every core, as the command line


for _section, _coders in (("alpha-classes", 2), ("alpha-sets", 5)):
    def _ids(n: int, params: dict[str, Any], coders: int = _coders) -> list[np.ndarray]:
        return class_ids(n, coders)

    def _records(n: int, params: dict[str, Any], coders: int = _coders) -> list:
        return nltk_records(class_ids(n, coders))

    tool(_section, "clusteragree", _ids)(ours_classes)
    tool(_section, "NLTK", _records)(nltk_masi_alpha)


# ------------------------------------------------------------------ integer nominal values
def reliability_data(n: int, coders: int = 5, labels: int = 5, seed: int = 3) -> np.ndarray:
    """Coders x units of nominal labels 0..labels-1 as floats, NaN missing (10% of the cells);
    each coder gives the unit's true label with probability 0.7, else a random one."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, labels, n)
    data = np.where(rng.random((coders, n)) < 0.7, truth,
                    rng.integers(0, labels, (coders, n))).astype(float)
    data[rng.random((coders, n)) < 0.1] = np.nan
    return data


def _matrix(n: int, params: dict[str, Any]) -> np.ndarray:
    return reliability_data(n, params.get("coders", 5), params.get("labels", 5))


@tool("alpha-int", "clusteragree", _matrix)
def ours_int(data: np.ndarray) -> float:
    from clusteragree import CodingTable, alpha

    return alpha(CodingTable.from_matrix(data), "nominal").alpha


@tool("alpha-int", "krippendorff", _matrix)
def krippendorff_int(data: np.ndarray) -> float:
    import krippendorff

    return float(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))


def _long_frame(n: int, params: dict[str, Any]) -> Any:
    import pandas as pd

    data = _matrix(n, params)
    coder, unit = np.nonzero(~np.isnan(data))
    return pd.DataFrame({"unit": unit, "coder": coder, "label": data[coder, unit].astype(int)})


@tool("alpha-int", "simpledorff", _long_frame)
def simpledorff_int(df: Any) -> float:
    import simpledorff

    return float(simpledorff.calculate_krippendorffs_alpha_for_df(
        df, experiment_col="unit", annotator_col="coder", class_col="label"))


# ------------------------------------------------------------------ coreference
def _coref_files(n: int, params: dict[str, Any]) -> tuple[Path, Path]:
    return Path(params["a"]), Path(params["b"])


def _doc_name(name: str) -> str:
    """A document's name as ``NAME-PART`` whatever the reader's spelling."""
    m = re.fullmatch(r"\(?(.*?)\)?;\s*part\s*(\S+)", name)
    return f"{m.group(1)}-{m.group(2)}" if m else name


@tool("coref", "clusteragree", _coref_files)
def ours_coref(paths: tuple[Path, Path]) -> dict[str, Any]:
    """Read both files, then every metric (MUC, B-cubed, CEAFm, CEAFe, BLANC, LEA, mention
    identification, CoNLL) in both directions, pooled and per document."""
    from clusteragree.coref import coref_metrics, read_conll

    corpora = [read_conll(p) for p in paths]
    scores = coref_metrics(corpora, [*COREF_METRICS, "lea", "mentions", "conll"],
                           coders=["A", "B"], per_document=True)
    scores = scores[(scores["key"] == "A") & scores["metric"].isin((*COREF_METRICS, "conll"))]
    pooled = scores[scores["document"].isna()].set_index("metric")
    per_doc = {}
    for row in scores[scores["document"].notna()].itertuples():
        if row.metric in COREF_METRICS:
            per_doc.setdefault(_doc_name(str(row.document)), {})[row.metric] = [
                float(row.recall), float(row.precision)]
    return {"value": float(pooled.loc["conll", "f1"]),
            "pooled": {m: [float(pooled.loc[m, "recall"]), float(pooled.loc[m, "precision"])]
                       for m in COREF_METRICS},
            "per_doc": per_doc}


@tool("coref", "scorch", _coref_files)
def scorch_coref(paths: tuple[Path, Path]) -> dict[str, Any]:
    """scorch's CoNLL reader, then its five metrics document by document (its corpus score is
    a mean of document scores, so the documents are compared one by one); the CoNLL score
    pooled from its recalls and precisions times their denominators, as the reference
    scorer sums counts. Its reader parses sentence by sentence and refuses a mention that
    crosses a sentence break, as the generator's may: it reads each document as one block
    (blank lines dropped)."""
    from scorch import conll, scores

    docs = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            lines = (line.strip() for line in f)
            docs.append(dict(conll.parse_file(line for line in lines if line)))
    functions = {"muc": scores.muc, "bcub": scores.b_cubed, "ceafm": scores.ceaf_m,
                 "ceafe": scores.ceaf_e, "blanc": scores.blanc}
    per_doc: dict[str, dict[str, list[float]]] = {}
    sums = {m: np.zeros(4) for m in ("muc", "bcub", "ceafe")}
    for name, key_entities in docs[0].items():
        key = [set(m) for m in key_entities.values()]
        response = [set(m) for m in docs[1].get(name, {}).values()]
        per_doc[name] = {m: [float(x) for x in f(key, response)[:2]]
                         for m, f in functions.items()}
        dens = {"muc": (sum(len(e) - 1 for e in key), sum(len(e) - 1 for e in response)),
                "bcub": (sum(map(len, key)), sum(map(len, response))),
                "ceafe": (len(key), len(response))}
        for m, (dk, dr) in dens.items():
            r, p = per_doc[name][m]
            sums[m] += [r * dk, dk, p * dr, dr]
    f1 = []
    for rn, rd, pn, pd_ in sums.values():
        r, p = rn / rd, pn / pd_
        f1.append(2 * r * p / (r + p) if r + p else 0.0)
    return {"value": float(np.mean(f1)), "per_doc": per_doc}


def _perl_files(n: int, params: dict[str, Any]) -> tuple[str, Path, Path]:
    return (params["perl_scorer"], *_coref_files(n, params))


@tool("coref", "reference scorer (Perl)", _perl_files)
def perl_coref(args: tuple[str, Path, Path]) -> dict[str, Any]:
    """The reference scorer, ``all`` metrics, totals only; recall and precision from the
    counts it prints (its percentages are rounded)."""
    scorer, a, b = args
    out = subprocess.run(["perl", scorer, "all", str(a), str(b), "none"], capture_output=True,
                         text=True, check=True).stdout
    pooled: dict[str, list[float]] = {}
    for block in out.split("METRIC ")[1:]:
        metric = block.split(":", 1)[0]
        line = "BLANC:" if metric == "blanc" else "Coreference:"
        text = block[block.index(line):]
        counts = re.findall(r"\(([\d.eE+-]+) / ([\d.eE+-]+)\)", text)[:2]
        pooled[metric] = [float(n) / float(d) if float(d) else 0.0 for n, d in counts]
    f1 = [2 * r * p / (r + p) if r + p else 0.0
          for r, p in (pooled[m] for m in ("muc", "bcub", "ceafe"))]
    return {"value": float(np.mean(f1)), "pooled": pooled}


# ------------------------------------------------------------------ trees
def tree_pairs(n: int) -> list[tuple[Any, Any]]:
    """n pairs of NDT1 trees (the Danish files of both annotators), drawn with a fixed seed,
    as scripts/reproduce_skjaerholt2014.py times its kernels."""
    from clusteragree.trees import read_conll_trees

    files = [read_conll_trees(SYNTAX / "ndt" / f"{a}-danish.conll") for a in ("odin", "thor")]
    trees = [s.tree for f in files for s in f.sentences]
    rng = np.random.default_rng(0)
    return [(trees[i], trees[j]) for i, j in rng.integers(0, len(trees), size=(n, 2))]


def _children(t: Any, p: int) -> list[int]:
    """The children of node p of a tree in preorder with subtree sizes."""
    kids, c = [], p + 1
    while c < p + t.sizes[p]:
        kids.append(c)
        c += t.sizes[c]
    return kids


def _to_zss(t: Any) -> Any:
    import zss

    nodes = [zss.Node(label) for label in t.labels]
    for p in range(len(nodes)):
        for c in _children(t, p):
            nodes[p].addkid(nodes[c])
    return nodes[0]


def _to_apted(t: Any) -> Any:
    from apted.helpers import Tree

    def text(p: int) -> str:
        label = t.labels[p].replace("{", "(").replace("}", ")") or "_root_"
        return "{" + label + "".join(text(c) for c in _children(t, p)) + "}"
    return Tree.from_text(text(0))


def _distances(found: list[float]) -> dict[str, Any]:
    return {"value": float(sum(found)), "per_pair": [float(x) for x in found]}


for _kernel in ("numba", "python"):
    def _ours_ted(pairs: list, kernel: str = _kernel) -> dict[str, Any]:
        from clusteragree.trees import ted

        return _distances([ted(a, b, kernel=kernel) for a, b in pairs])

    tool("trees", f"clusteragree ({_kernel} kernel)",
         lambda n, params: tree_pairs(n))(_ours_ted)


@tool("trees", "zss", lambda n, params: [(_to_zss(a), _to_zss(b)) for a, b in tree_pairs(n)])
def zss_ted(pairs: list) -> dict[str, Any]:
    import zss

    return _distances([zss.simple_distance(a, b, label_dist=lambda x, y: 0 if x == y else 1)
                       for a, b in pairs])


@tool("trees", "apted",
      lambda n, params: [(_to_apted(a), _to_apted(b)) for a, b in tree_pairs(n)])
def apted_ted(pairs: list) -> dict[str, Any]:
    from apted import APTED

    return _distances([APTED(a, b).compute_edit_distance() for a, b in pairs])


def _command(argv: list[str]) -> Callable[[int, dict[str, Any]], list[str]]:
    return lambda n, params: [*argv, *params.get("extra", [])]


def run_command(argv: list[str]) -> None:
    """Run a whole script or program (its wall time is the measure; nothing is compared)."""
    with tempfile.TemporaryDirectory() as tmp:
        argv = [tmp if a == "{tmp}" else a for a in argv]
        subprocess.run(argv, check=True, capture_output=True, text=True)


tool("trees", "Table 2 reproduction, whole script",
     _command([sys.executable, str(SCRIPTS / "reproduce_skjaerholt2014.py")]))(run_command)
tool("trees", "syn-agreement, NDT1",
     lambda n, params: [params["syn_agreement"], "--conll", "--metric=all",
                        *(str(SYNTAX / "ndt" / f"{a}-danish.conll") for a in ("odin", "thor"))]
     )(run_command)
tool("pyramids", "pyramid units study, whole script",
     _command([sys.executable, str(SCRIPTS / "study_pyramid_units.py"), "--out", "{tmp}"])
     )(run_command)


# ------------------------------------------------------------------ DataFrame entry
def _frame(n: int, params: dict[str, Any]) -> Any:
    from bench_dataframe import frame

    return frame(n, params["coders"], params["labels"], params["kind"], seed=1)


@tool("dataframe", "clusteragree", _frame)
def ours_frame(df: Any) -> float:
    from clusteragree import CodingTable, alpha

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return alpha(CodingTable.from_dataframe(df), "nominal").alpha


@tool("dataframe", "krippendorff", _frame)
def krippendorff_frame(df: Any) -> float:
    from bench_dataframe import krippendorff_long

    return krippendorff_long(df)
