"""Skjaerholt (2014): Krippendorff's alpha over whole sentences with tree edit distance (the
uncorrected accuracies are in :mod:`clusteragree.trees.accuracy`).

Units are sentences; a value is an annotator's tree of the sentence. Distances are squared, as
in the paper's "mean squared distance":

* ``plain``: TED(x, y);
* ``diff``: TED(x, y) - abs(|x| - |y|) (not a metric: distinct trees can be at distance 0);
* ``norm``: TED(x, y) / (|x| + |y|).

Values are bare trees or the :class:`~clusteragree.trees.readers.Sentence` objects the readers
give. |x| (``size_by``) is, by default (``"auto"``), the reference code's size: for a dependency
sentence its words plus the root (``"tokens"``: words left out of the tree because their heads
form a cycle still count), for a phrase-structure sentence its leaves (``"leaves"``), for a bare
tree its nodes (``"nodes"``). The reproduction convention (``free_empty=True``, default) makes a
node labelled ``""`` (the root) free to insert or delete. Distances between distinct trees are
cached, since the expected disagreement needs every pair.

Examples
--------
>>> t1 = ("", (("Pred", (("Subj", ()), ("Obj", (("Det", ()),)))),))
>>> t3 = ("", (("Pred", (("Subj", ()),)),))
>>> table = tree_table({"A": [t1, t1], "B": [t1, t3]})
>>> round(tree_alpha(table, "plain").alpha, 4)
0.0
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..core.coefficient import alpha
from ..core.distances import Distance
from ..core.model import CodingTable
from ..core.result import AlphaResult
from ..errors import InputError, ParameterError, ParameterTypeError
from .edit_distance import TreeCache
from .model import (
    METRICS,
    SIZES,
    Sentence,
    Tree,
    TreeAnnotations,
    TreeLike,
    as_tree,
    leaves,
    size,
)

__all__ = ["tree_alpha", "tree_table", "unlabelled"]


Value = Tree | Sentence


def tree_table(annotations: TreeAnnotations
               | Mapping[Any, Sequence[Value | None] | Mapping[Any, Value]]) -> CodingTable:
    """Annotator -> trees or sentences (a list by sentence position, None for missing, or a
    mapping sentence -> value), or :class:`TreeAnnotations`, as a coding table."""
    if isinstance(annotations, TreeAnnotations):
        annotations = annotations.sentences
    if not isinstance(annotations, Mapping):
        raise ParameterTypeError(
            "annotations must be TreeAnnotations or a mapping annotator -> trees (a list, or "
            f"a mapping sentence -> tree). Got {type(annotations).__name__}.")
    records = []
    for annotator, trees in annotations.items():
        if isinstance(trees, (str, bytes)) or not isinstance(trees, (Mapping, Sequence)):
            raise ParameterTypeError(f"the trees of annotator {annotator!r} must be a list or "
                                     f"a mapping. Got {type(trees).__name__}.")
        items = trees.items() if isinstance(trees, Mapping) else enumerate(trees)
        for unit, tree in items:
            try:
                value = tree if tree is None or isinstance(tree, Sentence) else as_tree(tree)
            except ParameterTypeError as err:
                raise ParameterTypeError(f"sentence {unit!r} of annotator {annotator!r}: "
                                         f"{err}") from None
            records.append((annotator, unit, value))
    return CodingTable.from_records(records, meta={"units": "sentences"})


def unlabelled(tree: TreeLike) -> Tree:
    """The same tree with every label ``"x"`` except empty (root) labels, which stay ``""``.

    >>> unlabelled(("", (("Subj", ()), ("Obj", ()))))
    Tree('(_ x x)')
    """
    return as_tree(tree).relabel(lambda x: "" if x == "" else "x")


def _tree(value: Value) -> Tree:
    return value.tree if isinstance(value, Sentence) else as_tree(value)


def _sizer(table: CodingTable, size_by: str) -> tuple[str, Callable[[Value], int]]:
    """The size function, with ``"auto"`` resolved from the values."""
    values = table.values
    if size_by == "auto":
        if values and all(isinstance(v, Sentence) and v.words for v in values):
            size_by = "tokens"
        elif values and all(isinstance(v, Sentence) for v in values):
            size_by = "leaves"
        else:
            size_by = "nodes"
    if size_by == "tokens":
        if not all(isinstance(v, Sentence) and v.words for v in values):
            raise ParameterError("size_by='tokens' needs dependency sentences (the Sentence "
                                 "values of read_conll_trees); bare trees have nodes and leaves")
        return size_by, lambda v: v.tokens
    if size_by == "nodes":
        return size_by, lambda v: size(_tree(v))
    return size_by, lambda v: leaves(_tree(v))


def tree_alpha(table: CodingTable, metric: str = "plain", *, free_empty: bool = True,
               size_by: str = "auto", cache: TreeCache | None = None,
               labelled: bool = True) -> AlphaResult:
    """Tree alpha with squared plain, diff or norm distances (``labelled=False``: the
    structure alone, every relation label the same); ``size_by`` as in the module text."""
    if not isinstance(table, CodingTable):
        raise ParameterTypeError(f"table must be a CodingTable (tree_table). Got "
                                 f"{type(table).__name__}.")
    if metric not in METRICS:
        raise ParameterError(f"The metric must be one of {list(METRICS)}. Got {metric!r}.")
    if size_by not in SIZES:
        raise ParameterError(f"size_by must be one of {list(SIZES)}. Got {size_by!r}.")
    if cache is not None and not isinstance(cache, TreeCache):
        raise ParameterTypeError(f"cache must be a TreeCache or None. Got "
                                 f"{type(cache).__name__}.")
    if cache is not None and cache.free_empty != bool(free_empty):
        raise ParameterError(f"the cache computes distances with free_empty="
                             f"{cache.free_empty}, but free_empty={bool(free_empty)} was asked: "
                             "give a TreeCache with the same free_empty")
    distance_of = cache if cache is not None else TreeCache(free_empty)
    size_by, measure = _sizer(table, size_by)

    def squared(x: Any, y: Any) -> float:
        try:
            d = distance_of(_tree(x), _tree(y))
        except InputError as err:  # a pair too large to tabulate: say which sentences
            read = [v for v in (x, y) if isinstance(v, Sentence) and v.path]
            if err.path is not None or not read:
                raise
            also = (f" and the sentence at {read[1].path}:{read[1].line}" if len(read) > 1
                    else "")
            raise InputError(f"this sentence{also}: {err.message}", path=read[0].path,
                             line=read[0].line) from None
        if metric == "diff":
            d -= abs(measure(x) - measure(y))
        elif metric == "norm":
            d /= measure(x) + measure(y)
        return d * d

    fields = {"ted": "zhang-shasha", "root": "free" if free_empty else "unit",
              "size": size_by, "labels": "yes" if labelled else "no"}
    if not labelled:
        table = CodingTable.from_records(
            ((c, u, replace(v, tree=unlabelled(v.tree)) if isinstance(v, Sentence)
              else unlabelled(v)) for c, u, v in table.records()), meta=table.meta)
    return alpha(table, Distance(f"ted-{metric}", "value", squared, signature_fields=fields),
                 engine="generic")
