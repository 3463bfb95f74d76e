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

import numpy as np

from ..core.coefficient import alpha
from ..core.distances import Distance
from ..core.model import CodingTable
from ..core.parallel import resolve_jobs
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

__all__ = ["tree_alpha", "tree_distance", "tree_table", "unlabelled"]


Value = Tree | Sentence


def tree_table(annotations: TreeAnnotations
               | Mapping[Any, Sequence[Value | None] | Mapping[Any, Value]]) -> CodingTable:
    """Annotator -> trees or sentences (a list by sentence position, None for missing, or a
    mapping sentence -> value), or :class:`TreeAnnotations`, as a coding table.

    Parameters
    ----------
    annotations : TreeAnnotations or mapping
        :class:`TreeAnnotations` (from :func:`~clusteragree.trees.read_tree_annotations`), or
        ``annotator -> values`` where the values are a list (sentence ``k`` is the ``k``-th
        item, None for a sentence the annotator did not annotate) or a mapping
        ``sentence -> value``. A value is a :class:`~clusteragree.trees.Tree`, the nested form
        ``(label, (child, ...))`` or a :class:`~clusteragree.trees.Sentence`.

    Returns
    -------
    CodingTable
        Annotators as coders, sentences as units, the trees (or Sentences) as values, with
        ``meta={"units": "sentences"}``; the input of :func:`tree_alpha`.

    Raises
    ------
    ParameterTypeError
        Annotations that are not a mapping, an annotator's trees that are not a list or a
        mapping, or a value that is not a tree (naming the annotator and the sentence).

    References
    ----------
    Skjaerholt, A. (2014). A chance-corrected measure of inter-annotator agreement for syntax.
    Proceedings of ACL 2014, pp. 934-944. Section 2: units are sentences,
    values the annotators' trees.

    docs/trees.md, "Tree alpha".

    Examples
    --------
    Two annotators and two sentences; B left sentence 1 out. The table has 2 coders and 2
    units, and the one distinct tree is its only value:

    >>> t = ("", (("Pred", ()),))
    >>> table = tree_table({"A": [t, t], "B": [t, None]})
    >>> table
    <CodingTable 2 coders x 2 units, scalar values>
    >>> len(table.values), table.value("B", 1)
    (1, None)

    Sentences named by a mapping:

    >>> list(tree_table({"A": {"s1": t}, "B": {"s1": t}}).units)
    ['s1']
    """
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

    Parameters
    ----------
    tree : Tree or tuple
        A :class:`~clusteragree.trees.Tree` or the nested form ``(label, (child, ...))``.

    Returns
    -------
    Tree
        The same shape; every non-empty label replaced by ``"x"``, so that the edit distance
        counts structural differences only (``tree_alpha(..., labelled=False)``).

    References
    ----------
    Skjaerholt, A. (2014). A chance-corrected measure of inter-annotator agreement for syntax.
    Proceedings of ACL 2014, pp. 934-944. Section 2 compares labelled trees
    (Figure 1); the unlabelled variant is this package's, for the structure alone.

    docs/trees.md, "Tree alpha".

    Examples
    --------
    The root keeps its empty label (printed ``_``), Subj and Obj become x:

    >>> unlabelled(("", (("Subj", ()), ("Obj", ()))))
    Tree('(_ x x)')

    Swapping the two labels costs two relabellings, but nothing once the labels are gone:

    >>> from clusteragree.trees import ted
    >>> a, b = ("", (("Subj", ()), ("Obj", ()))), ("", (("Obj", ()), ("Subj", ())))
    >>> ted(a, b), ted(unlabelled(a), unlabelled(b))
    (2.0, 0.0)
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
               labelled: bool = True, ci: float | None = None, bootstrap: int = 1000,
               seed: int | None = None, jobs: int | None = 1,
               interval: str | None = None) -> AlphaResult:
    """Tree alpha with squared plain, diff or norm distances (``labelled=False``: the
    structure alone, every relation label the same); ``size_by`` as in the module text.

    Krippendorff's alpha over sentences, ``1 - D_o / D_e``, with the squared distance
    ``delta(x, y) ** 2`` between two annotators' trees of a sentence: ``D_o`` averages it over
    the pairs of trees of the same sentence (each sentence weighted by ``1 / (m - 1)`` for its
    ``m`` trees), ``D_e`` over all pairs of trees of the sentences annotated at least twice.

    Parameters
    ----------
    table : CodingTable
        Sentences as units, trees or :class:`~clusteragree.trees.Sentence` objects as values
        (:func:`tree_table`).
    metric : {"plain", "diff", "norm"}, default="plain"
        ``plain``: TED(x, y); ``diff``: TED(x, y) - abs(|x| - |y|) (not a metric: distinct
        trees can be at distance 0); ``norm``: TED(x, y) / (|x| + |y|).
    free_empty : bool, default=True
        The reproduction convention: a node labelled ``""`` (the root) is free to insert or
        delete, as in the reference code.
    size_by : {"auto", "tokens", "nodes", "leaves"}, default="auto"
        What ``|x|`` counts for diff and norm: ``tokens`` the words plus the root of a
        dependency Sentence (words dropped from a cycle included), ``nodes`` the tree's nodes,
        ``leaves`` its leaves; ``auto`` tokens for dependency Sentences, leaves for
        phrase-structure Sentences, nodes for bare trees.
    cache : TreeCache, optional
        Distances to reuse (and fill), e.g. across the three metrics; its ``free_empty`` must
        be the one asked.
    labelled : bool, default=True
        False compares the structure alone (:func:`unlabelled`).
    ci, bootstrap, seed, interval
        A bootstrap interval over sentences (resampled with replacement), as
        :func:`clusteragree.alpha`; the distances between every two distinct trees are
        tabulated once (at most 3,000 distinct trees).
    jobs : int or None, default=1
        Processes for the tree edit distances (and threads for the bootstrap): None or 0
        every core (:func:`~clusteragree.core.parallel.resolve_jobs`). The values are those
        of ``jobs=1``, bit for bit. One by default, since a pool costs a second or so to
        start; the command line uses every core.

    Returns
    -------
    AlphaResult
        ``alpha`` (NaN when undefined: no sentence annotated twice, or ``D_e == 0``), ``D_o``,
        ``D_e``, ``n`` (pairable trees), ``units`` (sentences annotated at least twice),
        ``coders`` and the signature (distance ``ted-<metric>``, root convention, size, labels).

    Raises
    ------
    ParameterTypeError
        A table that is not a CodingTable, a cache that is not a TreeCache.
    ParameterError
        An unknown metric or size, ``size_by="tokens"`` without dependency Sentences, a cache
        with another ``free_empty``.
    InputError
        A pair of trees too large to compare (:data:`~clusteragree.trees.MAX_CELLS`), naming
        the sentences' file and line.

    References
    ----------
    Skjaerholt, A. (2014). A chance-corrected measure of inter-annotator agreement for syntax.
    Proceedings of ACL 2014, pp. 934-944. Section 2: alpha over sentences
    with tree edit distance, the three distances, Figure 2.

    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. (The normalisation of
    ``D_o`` and ``D_e``.)

    docs/trees.md, "Tree alpha"; docs/reproduction/skjaerholt2014.md (the paper's Table 2).

    Examples
    --------
    Two annotators agree on sentences 0 (tree t1) and 1 (t3) and disagree on sentence 2;
    TED(t1, t3) = 2 (delete Obj and Det), squared 4. Of the n = 6 trees three are t1 and three
    t3. Within sentence 2 the two ordered pairs give 8, so D_o = 8 / 6; over all 6 * 5 ordered
    pairs, the 2 * 3 * 3 = 18 pairs of a t1 and a t3 give 72, so D_e = 72 / 30 = 2.4, and
    alpha = 1 - (8 / 6) / 2.4 = 4 / 9:

    >>> t1 = ("", (("Pred", (("Subj", ()), ("Obj", (("Det", ()),)))),))
    >>> t3 = ("", (("Pred", (("Subj", ()),)),))
    >>> r = tree_alpha(tree_table({"A": [t1, t3, t1], "B": [t1, t3, t3]}))
    >>> round(r.alpha, 4), round(r.D_o, 4), round(r.D_e, 4), r.n
    (0.4444, 1.3333, 2.4, 6)

    Skjaerholt (2014), Figure 2: A annotates t1 twice, B t2 and t3. TED(t1, t2) = 4,
    TED(t1, t3) = 2, TED(t2, t3) = 6 (see :func:`~clusteragree.trees.ted`). Plain: within the
    sentences 2 * 16 + 2 * 4 = 40; over the pairs of the n = 4 trees 2 * (16 + 0 + 4 + 16 +
    36 + 4) = 152; alpha = 1 - (n - 1) * 40 / 152 = 4 / 19. Norm, with sizes 5, 9 and 3 nodes:
    the distances are 4 / 14, 2 / 8 and 6 / 12, squared 4 / 49, 1 / 16 and 1 / 4, and
    alpha = 1 - 3 * (8/49 + 1/8) / (2 * (8/49 + 1/8 + 1/4)) = 83 / 422:

    >>> t2 = ("", (("Pred", (("Subj", ()), ("Obj", (("Det", ()),
    ...        ("Atr", (("Pred", (("Obj", (("Det", ()),)),)),)))))),))
    >>> table = tree_table({"A": [t1, t1], "B": [t2, t3]})
    >>> round(tree_alpha(table, "plain").alpha, 4), round(4 / 19, 4)
    (0.2105, 0.2105)
    >>> round(tree_alpha(table, "norm").alpha, 4), round(83 / 422, 4)
    (0.1967, 0.1967)

    The diff distance puts these three distinct trees at 0 from one another (4 - 4, 2 - 2,
    6 - 6: the paper's point about Figure 2), so D_e = 0 and alpha_diff is undefined:

    >>> import warnings
    >>> from clusteragree.errors import AlphaUndefinedWarning
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", AlphaUndefinedWarning)
    ...     tree_alpha(table, "diff").alpha
    nan
    """
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
    jobs = resolve_jobs(jobs)
    cache = cache if cache is not None else TreeCache(free_empty)
    table, distance = tree_distance(table, metric, free_empty=free_empty, size_by=size_by,
                                    cache=cache, labelled=labelled)
    if jobs > 1:  # the distances of every two trees the expected disagreement needs
        cache.fill([_tree(v) for v in _pairable_values(table)], jobs)
    return alpha(table, distance, engine="generic", ci=ci, bootstrap=bootstrap, seed=seed,
                 jobs=jobs, interval=interval)


def _pairable_values(table: CodingTable) -> list[Any]:
    """The distinct values of the sentences annotated at least twice."""
    codes = table.codes
    pairable = (codes >= 0).sum(axis=0) >= 2
    used = np.unique(codes[:, pairable])
    return [table.values[k] for k in used[used >= 0].tolist()]


def tree_distance(table: CodingTable, metric: str = "plain", *, free_empty: bool = True,
                  size_by: str = "auto", cache: TreeCache | None = None,
                  labelled: bool = True) -> tuple[CodingTable, Distance]:
    """The squared tree distance of :func:`tree_alpha` as a :class:`~clusteragree.Distance`,
    with the table it applies to (relabelled when ``labelled`` is False).

    Parameters
    ----------
    table : CodingTable
        Annotators x sentences (:func:`tree_table`).
    metric, free_empty, size_by, cache, labelled
        As :func:`tree_alpha` (checked there).

    Returns
    -------
    table : CodingTable
        The table, every relation label the same when ``labelled`` is False.
    distance : Distance
        ``ted-plain``, ``ted-diff`` or ``ted-norm``, squared, a function of two sentences.

    References
    ----------
    Skjaerholt, A. (2014). A chance-corrected measure of inter-annotator agreement for syntax.
    Proceedings of ACL 2014, pp. 934-944, section 2.

    Examples
    --------
    S over the siblings a and b, against S over a over b: a mapping keeps ancestors, so a and b
    cannot both be kept; delete b and insert it under a, two edits, squared 4.

    >>> from clusteragree.trees import Tree
    >>> a = Tree.from_nested(("S", (("a", ()), ("b", ()))))
    >>> b = Tree.from_nested(("S", (("a", (("b", ()),)),)))
    >>> t = CodingTable.from_records([("A", 1, a), ("B", 1, b)])
    >>> _, d = tree_distance(t)
    >>> d.func(a, b)
    4.0
    """
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
    return table, Distance(f"ted-{metric}", "value", squared, signature_fields=fields)
