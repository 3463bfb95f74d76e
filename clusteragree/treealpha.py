"""Skjaerholt (2014): Krippendorff's alpha over whole sentences with tree edit distance, and the
usual accuracies between annotators.

Units are sentences; a value is an annotator's tree of the sentence. Distances are squared, as
in the paper's "mean squared distance":

* ``plain``: TED(x, y);
* ``diff``: TED(x, y) - abs(|x| - |y|) (not a metric: distinct trees can be at distance 0);
* ``norm``: TED(x, y) / (|x| + |y|).

|x| counts nodes (dependency trees: words + the root) by default, as the reference code does for
dependencies; ``size="leaves"`` counts leaves, as it does for phrase-structure trees. The
reproduction convention (``free_empty=True``, default) makes a node labelled ``""`` (the
root) free to insert or delete. Distances between distinct trees are cached, since the expected
disagreement needs every pair.

Examples
--------
>>> t1 = ("", (("Pred", (("Subj", ()), ("Obj", (("Det", ()),)))),))
>>> t3 = ("", (("Pred", (("Subj", ()),)),))
>>> table = tree_table({"A": [t1, t1], "B": [t1, t3]})
>>> round(tree_alpha(table, "plain").alpha, 4)
0.0
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from .alpha import alpha
from .distances import Distance
from .errors import InputError, ParameterError
from .model import CodingTable
from .readers.trees import TreeFile
from .result import AlphaResult
from .ted import Tree, TreeCache, leaves, size

__all__ = ["METRICS", "accuracies", "tree_alpha", "tree_table", "unlabelled"]

METRICS = ("plain", "diff", "norm")


def tree_table(annotations: Mapping[Any, Sequence[Tree | None] | Mapping[Any, Tree]]
               ) -> CodingTable:
    """Annotator -> trees (a list by sentence position, None for missing, or a mapping
    sentence -> tree) as a coding table whose values are trees."""
    records = []
    for annotator, trees in annotations.items():
        items = trees.items() if isinstance(trees, Mapping) else enumerate(trees)
        for unit, tree in items:
            records.append((annotator, unit, tree))
    return CodingTable.from_records(records, meta={"units": "sentences"})


def unlabelled(tree: Tree) -> Tree:
    """The same tree with every label ``"x"`` except empty (root) labels, which stay ``""``.

    >>> unlabelled(("", (("Subj", ()), ("Obj", ()))))
    ('', (('x', ()), ('x', ())))
    """
    return ("" if tree[0] == "" else "x", tuple(unlabelled(c) for c in tree[1]))


def tree_alpha(table: CodingTable, metric: str = "plain", *, free_empty: bool = True,
               size_by: str = "nodes", cache: TreeCache | None = None,
               labelled: bool = True) -> AlphaResult:
    """Tree alpha with squared plain, diff or norm distances (``labelled=False``: the
    structure alone, every relation label the same)."""
    if metric not in METRICS:
        raise ParameterError(f"The metric must be one of {list(METRICS)}. Got {metric!r}.")
    if size_by not in ("nodes", "leaves"):
        raise ParameterError(f"size_by must be 'nodes' or 'leaves'. Got {size_by!r}.")
    distance_of = cache if cache is not None else TreeCache(free_empty)
    measure = size if size_by == "nodes" else leaves

    def squared(x: Any, y: Any) -> float:
        d = distance_of(x, y)
        if metric == "diff":
            d -= abs(measure(x) - measure(y))
        elif metric == "norm":
            d /= measure(x) + measure(y)
        return d * d

    fields = {"ted": "zhang-shasha", "root": "free" if free_empty else "unit",
              "size": size_by, "labels": "yes" if labelled else "no"}
    if not labelled:
        table = CodingTable.from_records(((c, u, unlabelled(v)) for c, u, v in table.records()),
                                         meta=table.meta)
    return alpha(table, Distance(f"ted-{metric}", "value", squared, signature_fields=fields),
                 engine="generic")


def accuracies(files: Mapping[Any, TreeFile]) -> pd.DataFrame:
    """LAS, UAS and label accuracy (dependencies) or bracket Jaccard (phrase structure) for every
    pair of annotators, pooled over the tokens (brackets) of the sentences both annotated.

    Sentences are aligned by position; a pair whose sentences differ in length is left out of
    the token counts and counted in ``skipped``.
    """
    rows = []
    for a, b in combinations(files, 2):
        fa, fb = files[a], files[b]
        if len(fa.sentences) != len(fb.sentences):
            raise InputError(f"{fa.path} has {len(fa.sentences)} sentences and {fb.path} "
                             f"{len(fb.sentences)}; paired files must hold the same sentences",
                             path=fb.path)
        if fa.kind == "dependency":
            tokens = las = uas = la = skipped = 0
            for sa, sb in zip(fa.sentences, fb.sentences, strict=True):
                if len(sa.heads) != len(sb.heads):
                    skipped += 1
                    continue
                ha, hb = np.array(sa.heads), np.array(sb.heads)
                ra, rb = np.array(sa.deprels), np.array(sb.deprels)
                tokens += len(ha)
                uas += int((ha == hb).sum())
                la += int((ra == rb).sum())
                las += int(((ha == hb) & (ra == rb)).sum())
            rows.append({"a": a, "b": b, "tokens": tokens, "las": las / tokens if tokens else
                         np.nan, "uas": uas / tokens if tokens else np.nan,
                         "la": la / tokens if tokens else np.nan, "skipped": skipped})
        else:
            inter = union = 0
            for sa, sb in zip(fa.sentences, fb.sentences, strict=True):
                inter += len(sa.brackets & sb.brackets)
                union += len(sa.brackets | sb.brackets)
            rows.append({"a": a, "b": b, "brackets": union,
                         "jaccard": inter / union if union else np.nan})
    return pd.DataFrame(rows)
