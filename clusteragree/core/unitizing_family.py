"""Krippendorff's 2016 unitizing alpha family: u-alpha, |u-alpha, cu-alpha and (k)u-alpha.

Each of ``m`` annotators cuts a continuum of length ``L`` (the positions of a document, or of
all documents one after the other) into *sections*: the units (spans) marked, each with its
category, and the gaps between them, whose value is the empty category ``∅``. The sections of
one annotator never overlap, so every annotator gives every position exactly one value.

* **Observed coincidences** (as lengths): ``l_ck = 1/(m-1) sum_i sum_{j != i} sum_g sum_h
  |s_ig ∩ s_jh|`` over the sections ``s_ig`` of annotator ``i`` valued ``c`` and ``s_jh`` of
  ``j`` valued ``k``, ``∅`` included; ``l.. = m L``.
* **Expected coincidences**: ``e_ck = l.. (l_c. l_.k - [c = k] S_c) / (l..^2 - sum_c S_c)``
  with ``S_c`` the sum of the squared lengths of the units valued ``c`` and ``S_∅`` the total
  length of the gaps (a gap is no unit: each of its positions is paired as a section of its
  own), the ``- [c = k] S_c`` leaving out the pairs of positions within one section.
* ``u-alpha = 1 - sum_{c != k} l_ck / sum_{c != k} e_ck`` (nominal: the gaps have no place on
  a scale).
* ``|u-alpha``: the same collapsed to gap against unit, ``1 - sum_{k != ∅} l_∅k /
  sum_{k != ∅} e_∅k``: agreement on what is relevant matter, whatever its category.
* ``cu-alpha``: the coincidences of categories where two annotators' units overlap,
  ``l*_ck = l_ck`` for ``c, k != ∅``, margins ``l*_c``, total ``l*..``; expected
  ``e*_ck = (l*_c l*_k - [c = k] S*_c) / (l*.. - sum_c S*_c / l*..)``, ``S*_c`` the squared
  *pairable* lengths of the units valued ``c`` (below); ``cu-alpha = 1 - sum delta_ck l*_ck /
  sum delta_ck e*_ck`` with any distance ``delta`` between categories.
* ``(k)u-alpha`` for each category ``k``: ``1 - (sum_c delta_ck l*_ck / l*_k) /
  (sum_c delta_ck e*_ck / e*_k)``, ``e*_k = sum_c e*_ck``: the disagreement of the positions
  valued ``k`` against what chance would give them.

The pairable length of a unit ``g`` of annotator ``i``: ``p_g^j = |g ∩ (units of j)|`` for
each other annotator ``j`` (its share of ``l*_c`` is ``sum_j p_g^j / (m - 1)``). ``S*_c`` sums
over the units valued ``c`` one of (``self_pairs``):

* ``"mean"`` (default): ``(sum_j p_g^j / (m - 1))^2``, the square of the unit's share of the
  margin, as ``S_c`` squares the unit's length in u-alpha;
* ``"pairwise"``: ``sum_j (p_g^j)^2 / (m - 1)``;
* ``"union"``: ``|g ∩ (units of all j != i)|^2``.

The three agree for two annotators. The 2016 paper's own equation could not be consulted when
this was written; the alternatives are the readings of public re-implementations, and they can
leave ``l*.. - sum S*_c / l*..`` at 0 or below (three annotators, one marking nothing): there
cu-alpha and (k)u-alpha are undefined. docs/unitizing.md states the sources and the choices.

Statistics add: the sums above are kept per document (:class:`UnitizingFamilyStats`) and a
corpus is the sum of its documents, which is also the alpha of the documents laid end to end
(a gap's positions count singly, so two gaps that meet add exactly).

References
----------
Krippendorff, K., Mathet, Y., Bouvry, S. and Widlöcher, A. (2016). On the reliability of
unitizing textual continua: Further developments. Quality & Quantity 50(6), 2347-2364
(erratum 50(6), 2365).

Krippendorff, K. (2019). Content Analysis: An Introduction to Its Methodology, 4th ed., Sage,
section 12.6.

docs/unitizing.md.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from .._lazy import module
from ..errors import InputError, ParameterError, ParameterTypeError, notify, option
from .distances import Distance, DistanceLike, as_numbers, checked, get_distance
from .frames import TOTAL
from .span_match import Span, span_frame

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = module("pandas")

__all__ = ["FAMILY_COLUMNS", "SELF_PAIRS", "UnitizingFamilyStats", "unitizing_family",
           "unitizing_family_stats"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
SelfPairs = Literal["mean", "pairwise", "union"]

#: Readings of the self-pairs of cu-alpha's expected coincidences (see the module).
SELF_PAIRS: tuple[str, ...] = ("mean", "pairwise", "union")
#: The columns of :func:`unitizing_family`.
FAMILY_COLUMNS = ("document", "pooled", "coefficient", "category", "alpha", "D_o", "D_e",
                  "distance", "annotators", "length", "units", "pairable")
_ROW_COLUMNS = FAMILY_COLUMNS[2:]
_ARRAYS = ("units", "unit_lengths", "unit_squares", "paired_units", "pair_squares",
           "pairwise_squares", "union_squares")


@dataclass(frozen=True, eq=False)
class UnitizingFamilyStats:
    """The sums of the 2016 unitizing alpha family for one continuum; they add.

    Every array but ``overlap`` has one entry per category of ``categories``; ``overlap`` has
    the empty category ``∅`` (the gaps) first. Sums of lengths are whole numbers, kept
    exactly in float64 below ``2**53``.

    Attributes
    ----------
    annotators : tuple
        The annotators (``m`` of them).
    categories : tuple
        The categories the arrays describe.
    length : int
        ``L``, the number of positions.
    overlap : ndarray, shape (C + 1, C + 1)
        ``(m - 1) l_ck``: over ordered pairs of annotators, the lengths of the intersections of
        a section valued ``c`` with one valued ``k`` (``∅`` first).
    units, unit_lengths, unit_squares : ndarray, shape (C,)
        Number of units of each category, and the sums of their lengths and squared lengths.
    paired_units : ndarray, shape (C,)
        Units that overlap a unit of another annotator.
    pair_squares, pairwise_squares, union_squares : ndarray, shape (C,)
        Sums over the units of ``(sum_j p_g^j)^2``, ``sum_j (p_g^j)^2`` and
        ``|g ∩ (units of the others)|^2`` (the module's ``self_pairs`` readings, before
        dividing by ``(m - 1)^2``, ``m - 1`` and 1).

    References
    ----------
    Krippendorff, K., Mathet, Y., Bouvry, S. and Widlöcher, A. (2016). On the reliability of
    unitizing textual continua: Further developments. Quality & Quantity 50(6), 2347-2364.

    docs/unitizing.md.

    Examples
    --------
    Two documents whose statistics add to those of the corpus. Laid end to end (9 positions),
    A and B agree on x at 2 positions, A alone marks x at one and y at two: ``l_∅∅ = 8``,
    ``l_xx = 4``, ``l_x∅ = 1``, ``l_y∅ = 2`` (and their mirrors), so ``D_o = 6 / 18``;
    ``D_e = (18^2 - 11^2 - 5^2 - 2^2) / (18^2 - 11 - 13 - 4) = 174 / 296``:

    >>> spans = [("A", "d1", 0, 3, "x"), ("B", "d1", 1, 3, "x"), ("A", "d2", 0, 2, "y")]
    >>> stats = unitizing_family_stats(spans, {"d1": 5, "d2": 4}, annotators=["A", "B"])
    >>> total = stats["d1"] + stats["d2"]
    >>> total.categories, total.length, total.units.tolist()
    (('x', 'y'), 9, [2.0, 1.0])
    >>> from clusteragree.errors import Ledger
    >>> with Ledger() as ledger:  # cu-alpha is undefined: one category where units overlap
    ...     table = total.coefficients()
    >>> table[["coefficient", "category", "alpha", "D_o", "D_e"]].round(4)
      coefficient category   alpha     D_o     D_e
    0     u_alpha     None  0.4330  0.3333  0.5878
    1    bu_alpha     None  0.3593  0.3333  0.5203
    2    cu_alpha     None     NaN  0.0000  0.0000
    3    ku_alpha        x     NaN  0.0000  0.0000
    4    ku_alpha        y     NaN     NaN     NaN
    >>> [n.kind for n in ledger.notices]
    ['undefined']
    """

    annotators: tuple[Hashable, ...]
    categories: tuple[Hashable, ...]
    length: int
    overlap: FloatArray
    units: FloatArray
    unit_lengths: FloatArray
    unit_squares: FloatArray
    paired_units: FloatArray
    pair_squares: FloatArray
    pairwise_squares: FloatArray
    union_squares: FloatArray

    def aligned(self, categories: Sequence[Hashable]) -> UnitizingFamilyStats:
        """The same statistics over ``categories`` (a superset; new ones get zeros).

        Parameters
        ----------
        categories : sequence
            Every category of ``self.categories`` and any others, in the order wanted.

        Returns
        -------
        UnitizingFamilyStats
        """
        categories = tuple(categories)
        if categories == self.categories:
            return self
        where = {c: k for k, c in enumerate(categories)}
        missing = [c for c in self.categories if c not in where]
        if missing:
            raise ParameterError(f"categories lacks {missing[0]!r}, which these statistics "
                                 "have", params=("categories",))
        idx = np.array([where[c] for c in self.categories], dtype=np.int64)
        full = np.concatenate([[0], idx + 1])
        overlap = np.zeros((len(categories) + 1,) * 2)
        overlap[np.ix_(full, full)] = self.overlap
        arrays = {}
        for name in _ARRAYS:
            out = np.zeros(len(categories))
            out[idx] = getattr(self, name)
            arrays[name] = out
        return UnitizingFamilyStats(self.annotators, categories, self.length, overlap,
                                    **arrays)

    def __add__(self, other: object) -> UnitizingFamilyStats:
        if isinstance(other, int) and other == 0:
            return self
        if not isinstance(other, UnitizingFamilyStats):
            return NotImplemented
        if set(self.annotators) != set(other.annotators) or \
                len(self.annotators) != len(other.annotators):
            raise ParameterError("statistics of different annotators cannot be added: "
                                 f"{list(self.annotators)} and {list(other.annotators)}")
        cats = tuple(dict.fromkeys([*self.categories, *other.categories]))
        a, b = self.aligned(cats), other.aligned(cats)
        sums = {f.name: getattr(a, f.name) + getattr(b, f.name) for f in fields(a)
                if f.name not in ("annotators", "categories")}
        return UnitizingFamilyStats(self.annotators, cats, **sums)

    def __radd__(self, other: object) -> UnitizingFamilyStats:
        return self.__add__(other)

    def coefficients(self, distance: DistanceLike = "nominal", *,
                     self_pairs: SelfPairs = "mean") -> pd.DataFrame:
        """The four coefficients: one row each for u-alpha, |u-alpha and cu-alpha, then one
        (k)u-alpha row per category.

        Parameters
        ----------
        distance : str, Distance or callable, default="nominal"
            The distance between categories for cu-alpha and (k)u-alpha (u-alpha and |u-alpha
            are nominal by definition). Any distance of
            :func:`~clusteragree.core.distances.get_distance`; ``ordinal`` sorts the
            categories by value and counts them by their cu margins ``l*_c``.
        self_pairs : {"mean", "pairwise", "union"}, default="mean"
            The reading of cu-alpha's ``S*_c`` (see the module's description).

        Returns
        -------
        DataFrame
            The columns ``coefficient`` (``u_alpha``, ``bu_alpha`` for |u-alpha, ``cu_alpha``,
            ``ku_alpha``), ``category`` (None but for ``ku_alpha``), ``alpha``, ``D_o``,
            ``D_e``, ``distance``, ``annotators`` (``m``), ``length`` (``L``), ``units`` (all
            units for u-alpha and |u-alpha, those overlapping another annotator's unit for
            cu-alpha and (k)u-alpha) and ``pairable`` (``l.. = m L``, ``l*..``, ``l*_k``).
            Undefined coefficients are NaN, with one ``undefined`` notice saying why.

        Raises
        ------
        ParameterError
            For an unknown ``self_pairs`` or a distance that does not apply to the categories.
        """
        rows, reasons = _rows(self, get_distance(distance), self_pairs)
        _notify_undefined(reasons, len(rows))
        return _frame(rows, _ROW_COLUMNS)


# ------------------------------------------------------------------------------- the input
@dataclass(frozen=True)
class _Input:
    """The spans as arrays: annotator, document, start, end, category (1..C), frame row."""

    annotators: list[Hashable]
    categories: list[Hashable]
    documents: list[Hashable]
    lengths: IntArray
    ann: IntArray
    doc: IntArray
    start: IntArray
    end: IntArray
    cat: IntArray
    row: IntArray


def _describe(frame: pd.DataFrame, i: int) -> str:
    r = frame.iloc[i]
    return (f"span {i} (annotator {r['annotator']!r}, document {r['document']!r}, "
            f"{r['start']}-{r['end']}, label {r['label']!r})")


def _lengths(lengths: Any) -> dict[Hashable, int]:
    if isinstance(lengths, pd.Series):
        lengths = dict(lengths.items())
    if not isinstance(lengths, Mapping):
        raise ParameterTypeError("lengths must map each document to the length of its "
                                 f"continuum (positions 0..length). Got {type(lengths).__name__}.")
    out = {}
    for doc, n in lengths.items():
        whole = isinstance(n, (int, np.integer)) or (isinstance(n, (float, np.floating))
                                                     and float(n).is_integer())
        if isinstance(n, (bool, np.bool_)) or not whole or n < 0:
            raise ParameterError(f"lengths gives document {doc!r} the length {n!r}; a length "
                                 "is a whole number of positions, 0 or more",
                                 params=("lengths",))
        out[doc] = int(n)
    return out


def _prepare(spans: Any, lengths: Any, annotators: Sequence[Hashable] | None,
             categories: Sequence[Hashable] | None) -> _Input:
    """Read and check the spans (the module's rules), as arrays."""
    frame = span_frame(spans)
    sizes = _lengths(lengths)
    if annotators is None:
        names = list(pd.unique(frame["annotator"]))
    else:
        names = list(annotators)
        if len(set(names)) != len(names):
            raise ParameterError("annotators names an annotator twice", params=("annotators",))
        outside = ~frame["annotator"].isin(names)
        if outside.any():
            notify("ignored", f"{int(outside.sum())} spans of annotators not among the "
                   "annotators compared were left out", count=1, stacklevel=3)
    if len(names) < 2:
        raise ParameterError(
            f"unitizing alpha needs two annotators at least; got {len(names)} (an annotator "
            f"who marked nothing has no span: name every annotator with "
            f"{option('annotators')})", params=("annotators",))
    rows = np.flatnonzero(frame["annotator"].isin(names).to_numpy())
    given, frame = frame, frame.iloc[rows].reset_index(drop=True)

    def describe(i: int) -> str:  # the span as the caller numbered it
        return _describe(given, int(rows[i]))
    docs = list(sizes)
    doc = pd.Index(docs).get_indexer(frame["document"]).astype(np.int64)
    if (doc < 0).any():
        i = int(np.flatnonzero(doc < 0)[0])
        raise InputError(f"{describe(i)} lies in a document that lengths does not "
                         "give; give the length of every document that holds spans")
    if categories is None:
        cats = list(pd.unique(frame["label"]))
    else:
        cats = list(categories)
        if len(set(cats)) != len(cats):
            raise ParameterError("categories names a category twice", params=("categories",))
    cat = pd.Index(cats).get_indexer(frame["label"]).astype(np.int64)
    if (cat < 0).any():
        i = int(np.flatnonzero(cat < 0)[0])
        raise InputError(f"{describe(i)} has a label that is not among the "
                         f"{option('categories')} given")
    ann = pd.Index(names).get_indexer(frame["annotator"]).astype(np.int64)
    start, end = frame["start"].to_numpy(np.int64), frame["end"].to_numpy(np.int64)
    size = np.array([sizes[d] for d in docs], dtype=np.int64)
    beyond = end > size[doc]
    if beyond.any():
        i = int(np.flatnonzero(beyond)[0])
        raise InputError(f"{describe(i)} ends after its document, whose length is "
                         f"{int(size[doc[i]])} (positions 0..{int(size[doc[i]])})")
    order = np.lexsort((start, doc, ann))
    a, d, s, e = ann[order], doc[order], start[order], end[order]
    clash = np.flatnonzero((a[1:] == a[:-1]) & (d[1:] == d[:-1]) & (s[1:] < e[:-1]))
    if len(clash):
        i, j = int(order[clash[0]]), int(order[clash[0] + 1])
        raise InputError(
            f"{describe(i)} and {describe(j)} overlap; the unitizing alpha "
            "family needs the spans of one annotator in one document not to overlap (each "
            "position has one value per annotator): keep one, or compare nested layers "
            "separately")
    return _Input(names, cats, docs, size, ann, doc, start, end, cat + 1,
                  rows.astype(np.int64))


# ------------------------------------------------------------------------------ the sweep
def _group_sums(inp: _Input, group_of_doc: IntArray, n_groups: int) -> dict[str, Any]:
    """The statistics' sums for groups of documents (a document in one group), laid end to
    end: observed overlaps as COO triples, the per-unit sums by (group, category)."""
    m, n_cat = len(inp.annotators), len(inp.categories) + 1
    off = np.concatenate([[0], np.cumsum(inp.lengths)])
    total = int(off[-1])
    gs, ge = off[inp.doc] + inp.start, off[inp.doc] + inp.end
    bounds = np.unique(np.concatenate([off, gs, ge]))
    lens = np.diff(bounds).astype(np.float64)
    n_int = len(lens)
    int_group = group_of_doc[np.searchsorted(off[1:], bounds[:-1], side="right")] \
        if n_int else np.zeros(0, dtype=np.int64)
    ia, ib = np.searchsorted(bounds, gs), np.searchsorted(bounds, ge)
    count = ib - ia
    span_of = np.repeat(np.arange(len(ia)), count)
    interval = ia[span_of] + np.arange(len(span_of)) - np.repeat(np.cumsum(count) - count,
                                                                 count)
    marked = np.bincount(interval, minlength=n_int).astype(np.float64)  # units there
    # observed: N^T diag(len) N - diag(sum len n), N the intervals x (group, value) counts
    gap = m - marked
    rows = np.concatenate([interval, np.arange(n_int)])
    cols = np.concatenate([group_of_doc[inp.doc[span_of]] * n_cat + inp.cat[span_of],
                           int_group * n_cat])
    vals = np.concatenate([np.ones(len(interval)), gap])
    counts = sp.csr_matrix((vals, (rows, cols)), shape=(n_int, n_groups * n_cat))
    product = (counts.T @ sp.diags(lens) @ counts).tocoo()
    diag = np.asarray(counts.T @ lens).ravel()
    left, right, value = product.row, product.col, product.data
    value = value - np.where(left == right, diag[left], 0.0)
    # pairable lengths of each unit
    length = (inp.end - inp.start).astype(np.float64)
    others = np.concatenate([[0.0], np.cumsum(lens * marked)])
    pair_total = others[ib] - others[ia] - length
    union_cum = np.concatenate([[0.0], np.cumsum(lens * (marked >= 2))])
    union = union_cum[ib] - union_cum[ia]
    pairwise = np.zeros(len(ia))
    for j in range(m):
        mine = inp.ann[span_of] == j
        covered = np.bincount(interval[mine], minlength=n_int).astype(np.float64)
        cum = np.concatenate([[0.0], np.cumsum(lens * covered)])
        p = cum[ib] - cum[ia]
        p[inp.ann == j] = 0.0
        pairwise += p * p
    key = group_of_doc[inp.doc] * (n_cat - 1) + (inp.cat - 1)
    width = n_groups * (n_cat - 1)

    def by_key(w: FloatArray) -> FloatArray:
        out = np.bincount(key, weights=w, minlength=width).astype(np.float64)
        return out.reshape(n_groups, n_cat - 1)

    return {
        "total": total, "left": left, "right": right, "value": value, "n_cat": n_cat,
        "units": by_key(np.ones(len(key))), "unit_lengths": by_key(length),
        "unit_squares": by_key(length * length),
        "paired_units": by_key((pair_total > 0).astype(np.float64)),
        "pair_squares": by_key(pair_total * pair_total), "pairwise_squares": by_key(pairwise),
        "union_squares": by_key(union * union),
    }


def _stats(inp: _Input, per_document: bool) -> list[UnitizingFamilyStats]:
    """The statistics of each document (its own categories), or of the corpus (every
    category)."""
    n_docs = len(inp.documents)
    groups = n_docs if per_document else 1
    group_of_doc = np.arange(n_docs, dtype=np.int64) if per_document \
        else np.zeros(n_docs, dtype=np.int64)
    sums = _group_sums(inp, group_of_doc, groups)
    n_cat = sums["n_cat"]
    grp = sums["left"] // n_cat
    order = np.argsort(grp, kind="stable")
    starts = np.searchsorted(grp[order], np.arange(groups + 1))
    lengths = np.bincount(group_of_doc, weights=inp.lengths, minlength=groups)
    out = []
    for g in range(groups):
        present = np.flatnonzero(sums["units"][g] > 0) if per_document \
            else np.arange(n_cat - 1)
        local = np.full(n_cat, -1, dtype=np.int64)
        local[0] = 0
        local[present + 1] = np.arange(1, len(present) + 1)
        pick = order[starts[g]:starts[g + 1]]
        overlap = np.zeros((len(present) + 1,) * 2)
        np.add.at(overlap, (local[sums["left"][pick] % n_cat],
                            local[sums["right"][pick] % n_cat]), sums["value"][pick])
        out.append(UnitizingFamilyStats(
            tuple(inp.annotators), tuple(inp.categories[k] for k in present.tolist()),
            int(lengths[g]), overlap, **{name: sums[name][g, present] for name in _ARRAYS}))
    return out


# ------------------------------------------------------------------------ the coefficients
def _category_distances(dist: Distance, categories: Sequence[Hashable],
                        margins: FloatArray) -> FloatArray:
    """``delta`` between the categories, checked (an ordinal distance bound to ``margins``)."""
    cats = list(categories)
    if dist.marginal:
        dist = dist.bind(cats, margins)
    if dist.equality:
        return 1.0 - np.eye(len(cats))
    if dist.embedding is not None:
        try:
            x = np.asarray(dist.embedding(cats), dtype=np.float64)
        except ParameterError as err:
            raise ParameterError(f"the {dist.name!r} distance: {err}",
                                 params=("distance",)) from None
        d = (x[:, None] - x[None, :]) ** 2
    elif dist.kind == "scalar":
        x = as_numbers(cats)
        d = np.asarray(dist.func(x[:, None], x[None, :]), dtype=np.float64)
    else:
        if dist.kind == "set" and not all(isinstance(c, (set, frozenset)) for c in cats):
            raise ParameterError(
                f"the {dist.name!r} distance compares sets; the categories are single labels "
                f"({option('distance', 'nominal')} compares any labels)", params=("distance",))
        d = np.array([[float(dist(a, b)) for b in cats] for a in cats], dtype=np.float64)
    d = d.reshape(len(cats), len(cats))
    return checked(dist, d, lambda k: f"the categories {cats[k // len(cats)]!r} and "
                                      f"{cats[k % len(cats)]!r}")


def _alpha(d_o: float, d_e: float) -> float:
    return 1.0 - d_o / d_e


def _rows(stats: UnitizingFamilyStats, dist: Distance, self_pairs: str
          ) -> tuple[list[tuple[Any, ...]], list[tuple[str, str]]]:
    """The coefficients' rows, and ``(coefficient, reason)`` for each undefined one."""
    if self_pairs not in SELF_PAIRS:
        raise ParameterError(f"self_pairs must be one of {', '.join(SELF_PAIRS)}. Got "
                             f"{self_pairs!r}.", params=("self_pairs",))
    nan = float("nan")
    m, big_l, cats = len(stats.annotators), stats.length, stats.categories
    l_all = float(m * big_l)
    obs = stats.overlap / (m - 1)
    n = obs.sum(axis=1)
    squares = np.concatenate([[l_all - stats.unit_lengths.sum()], stats.unit_squares])
    denominator = l_all * l_all - squares.sum()
    units = float(stats.units.sum())
    base = (m, big_l)
    rows: list[tuple[Any, ...]] = []
    reasons: list[tuple[str, str]] = []

    def add(coef: str, cat: Any, values: tuple[float, float, float], dist_name: str,
            n_units: float, pairable: float, reason: str | None) -> None:
        if reason is not None:
            values = (nan, *values[1:])
            reasons.append((coef, reason))
        rows.append((coef, cat, *values, dist_name, *base, int(n_units), pairable))

    # u-alpha
    if big_l == 0:
        add("u_alpha", None, (nan, nan, nan), "nominal", units, 0.0, "no position")
        add("bu_alpha", None, (nan, nan, nan), "nominal", units, 0.0, "no position")
    else:
        d_o = (l_all - float(np.trace(obs))) / l_all
        d_e = (l_all * l_all - float(n @ n)) / denominator
        one = (n > 0).sum() < 2
        add("u_alpha", None, (_alpha(d_o, d_e) if not one else nan, d_o, d_e), "nominal",
            units, l_all, "every position has one value (no unit, or no gap and one "
            "category)" if one else None)
        gaps = float(n[0])
        d_o = 2.0 * (gaps - float(obs[0, 0])) / l_all
        d_e = 2.0 * gaps * (l_all - gaps) / denominator
        bu_why = "no unit" if gaps == l_all else "no gap" if gaps == 0 else None
        add("bu_alpha", None, (_alpha(d_o, d_e) if bu_why is None else nan, d_o, d_e),
            "nominal", units, l_all, bu_why)
    # cu-alpha and (k)u-alpha
    star = obs[1:, 1:]
    n_star = star.sum(axis=1)
    t = float(n_star.sum())
    self_sq = {"mean": stats.pair_squares / (m - 1) ** 2,
               "pairwise": stats.pairwise_squares / (m - 1),
               "union": stats.union_squares}[self_pairs]
    delta = _category_distances(dist, cats, n_star)
    paired = float(stats.paired_units.sum())
    den = t - float(self_sq.sum()) / t if t > 0 else 0.0
    if t == 0:
        why: str | None = "no unit overlaps a unit of another annotator"
    elif den <= 1e-9 * t:  # 0 or below but for rounding
        why = (f"the expected coincidences are not defined under "
               f"{option('self_pairs', self_pairs)} (l*.. - sum S*/l*.. = {den:.6g})")
    else:
        why = None
    expected = (np.outer(n_star, n_star) - np.diag(self_sq)) / den if why is None \
        else np.full_like(star, nan)
    d_o = float((delta * star).sum()) / t if t > 0 else nan
    d_e = float((delta * expected).sum()) / t if why is None else nan
    if why is None and not d_e > 0:
        why = "no disagreement is expected (one category among the overlapping units)"
    add("cu_alpha", None, (_alpha(d_o, d_e) if why is None else nan, d_o, d_e), dist.name,
        paired, t, why)
    for k, cat in enumerate(cats):
        n_k, e_k = float(n_star[k]), float(expected[k].sum())
        k_o = float(delta[k] @ star[k]) / n_k if n_k > 0 else nan
        k_e = float(delta[k] @ expected[k]) / e_k if e_k > 0 else nan
        if n_k == 0:
            k_why = f"no unit of {cat!r} overlaps a unit of another annotator"
        elif why is not None and not why.startswith("no disagreement"):
            k_why = why
        elif not k_e > 0:
            k_why = f"no disagreement is expected for {cat!r} (one category)"
        else:
            k_why = None
        add("ku_alpha", cat, (_alpha(k_o, k_e) if k_why is None else nan, k_o, k_e),
            dist.name, float(stats.paired_units[k]), n_k, k_why)
    return rows, reasons


def _notify_undefined(reasons: list[tuple[str, str]], total: int, stacklevel: int = 3
                      ) -> None:
    if not reasons:
        return
    grouped: dict[tuple[str, str], int] = {}
    for key in reasons:
        grouped[key] = grouped.get(key, 0) + 1
    parts = [f"{coef} in {k} ({why})" for (coef, why), k in grouped.items()]
    notify("undefined", f"unitizing alpha is undefined (NaN) in {len(reasons)} of {total} "
           "rows: " + "; ".join(parts), stacklevel=stacklevel)


# ------------------------------------------------------------------------------ the API
def unitizing_family_stats(
    spans: pd.DataFrame | Iterable[Span | Sequence[Any]],
    lengths: Mapping[Hashable, int] | pd.Series,
    *,
    annotators: Sequence[Hashable] | None = None,
    categories: Sequence[Hashable] | None = None,
) -> dict[Hashable, UnitizingFamilyStats]:
    """The statistics of the unitizing alpha family, one per document.

    Parameters
    ----------
    spans : DataFrame or iterable
        The spans of every annotator, as :func:`~clusteragree.core.span_match.span_frame`
        reads them (``end`` exclusive; a zero-length span is refused there). The spans of one
        annotator in one document may not overlap or nest.
    lengths : mapping or Series
        Document -> the length of its continuum (positions ``0..length``). Every document of
        the spans must be there; a document without spans is all gap.
    annotators : sequence, optional
        The annotators compared (default: those with spans, in order of appearance). Name an
        annotator who marked nothing here; spans of others are left out (an ``ignored``
        notice).
    categories : sequence, optional
        The categories (default: the labels of the spans, in order of appearance); every
        span's label must be among them.

    Returns
    -------
    dict
        Document -> :class:`UnitizingFamilyStats` over the categories of its units, in the
        order of ``lengths``. Their sum is the corpus (:meth:`UnitizingFamilyStats.aligned`
        sets the categories).

    Raises
    ------
    ParameterError
        Fewer than two annotators, an annotator or category named twice, a length that is not
        a whole number of 0 or more.
    InputError
        A span outside ``lengths``' documents or past its document's end, a label outside
        ``categories``, two spans of one annotator that overlap in a document (both named).

    References
    ----------
    Krippendorff, K., Mathet, Y., Bouvry, S. and Widlöcher, A. (2016). On the reliability of
    unitizing textual continua: Further developments. Quality & Quantity 50(6), 2347-2364.

    docs/unitizing.md.

    Examples
    --------
    >>> spans = [("A", "d", 0, 4, "x"), ("B", "d", 1, 4, "x")]
    >>> s = unitizing_family_stats(spans, {"d": 10})["d"]
    >>> s.overlap.tolist()  # (m - 1) l_ck, the gaps first: 3 positions of x against x
    [[12.0, 1.0], [1.0, 6.0]]
    >>> s.unit_squares.tolist(), s.pair_squares.tolist()
    ([25.0], [18.0])
    """
    inp = _prepare(spans, lengths, annotators, categories)
    return dict(zip(inp.documents, _stats(inp, True), strict=True))


def unitizing_family(
    spans: pd.DataFrame | Iterable[Span | Sequence[Any]],
    lengths: Mapping[Hashable, int] | pd.Series,
    *,
    annotators: Sequence[Hashable] | None = None,
    categories: Sequence[Hashable] | None = None,
    distance: DistanceLike = "nominal",
    self_pairs: SelfPairs = "mean",
    per_document: bool = False,
) -> pd.DataFrame:
    """Krippendorff's 2016 unitizing alpha family of spans: u-alpha, |u-alpha, cu-alpha and
    (k)u-alpha, pooled over the documents (and per document).

    u-alpha is agreement on where units are and what category they have, |u-alpha on what is
    marked at all, cu-alpha on the categories where the annotators' units overlap, and
    (k)u-alpha on each category there (the module's description has the formulas).

    Parameters
    ----------
    spans : DataFrame or iterable
        The spans (see :func:`unitizing_family_stats`).
    lengths : mapping or Series
        Document -> the length of its continuum.
    annotators : sequence, optional
        The annotators compared (default: those with spans); name an annotator who marked
        nothing.
    categories : sequence, optional
        The categories and the order of their rows (default: the spans' labels in order of
        appearance); a category without a unit gets its (k)u-alpha row (NaN).
    distance : str, Distance or callable, default="nominal"
        The distance between categories for cu-alpha and (k)u-alpha.
    self_pairs : {"mean", "pairwise", "union"}, default="mean"
        The reading of cu-alpha's expected coincidences (the module's description).
    per_document : bool, default=False
        Also give the rows of each document (its (k)u-alpha rows for the categories of its
        units), before the pooled rows.

    Returns
    -------
    DataFrame
        The columns :data:`FAMILY_COLUMNS`: ``document`` (``TOTAL`` for the pooled rows),
        ``pooled``, and those of :meth:`UnitizingFamilyStats.coefficients`. Pooled rows are
        computed from the summed statistics (the documents laid end to end), not averaged.
        Undefined coefficients are NaN with one ``undefined`` notice.

    Raises
    ------
    ParameterError, InputError, ParameterTypeError
        As :func:`unitizing_family_stats`; a distance that does not apply to the categories.

    References
    ----------
    Krippendorff, K., Mathet, Y., Bouvry, S. and Widlöcher, A. (2016). On the reliability of
    unitizing textual continua: Further developments. Quality & Quantity 50(6), 2347-2364.

    Krippendorff, K. (2019). Content Analysis, 4th ed., section 12.6.

    docs/unitizing.md.

    Examples
    --------
    Two annotators mark a person and a place in a text of 20 characters; B starts the person
    one character late and calls the place an organisation:

    >>> spans = [("A", "t", 2, 8, "PER"), ("A", "t", 12, 16, "LOC"),
    ...          ("B", "t", 3, 8, "PER"), ("B", "t", 12, 16, "ORG")]
    >>> out = unitizing_family(spans, {"t": 20})
    >>> out[["coefficient", "category", "alpha", "units", "pairable"]].round(4)
      coefficient category   alpha  units  pairable
    0     u_alpha     None  0.6307      4      40.0
    1    bu_alpha     None  0.9069      4      40.0
    2    cu_alpha     None  0.4398      4      18.0
    3    ku_alpha      PER  1.0000      2      10.0
    4    ku_alpha      LOC  0.0000      1       4.0
    5    ku_alpha      ORG  0.0000      1       4.0

    Position by position: ``l_∅∅ = 20``, ``l_PER,PER = 10``, ``l_PER,∅ = 1``,
    ``l_LOC,ORG = 4`` (and mirrors), so u-alpha's ``D_o = 10 / 40``; the sections' squared
    lengths (gaps: their lengths) sum to 114, so ``D_e = (40^2 - 21^2 - 11^2 - 4^2 - 4^2) /
    (40^2 - 114) = 0.6770`` and u-alpha ``= 1 - 0.25 / 0.6770``. Where units overlap, PER meets
    PER (10) and LOC meets ORG (8 of 18): cu-alpha ``= 1 - (8 / 18) / 0.7934``. Every position
    valued LOC meets ORG, which chance would pair with it as often: (LOC)u-alpha is 0.
    """
    dist = get_distance(distance)
    inp = _prepare(spans, lengths, annotators, categories)
    rows: list[tuple[Any, ...]] = []
    reasons: list[tuple[str, str]] = []
    scopes = [*zip(inp.documents, _stats(inp, True), strict=True)] if per_document else []
    scopes.append((TOTAL, _stats(inp, False)[0]))
    for k, (doc, stats) in enumerate(scopes):
        found, why = _rows(stats, dist, self_pairs)
        reasons += why
        pooled = k == len(scopes) - 1
        rows += [(doc, pooled, *row) for row in found]
    _notify_undefined(reasons, len(rows))
    return _frame(rows, FAMILY_COLUMNS)


def _frame(rows: list[tuple[Any, ...]], columns: Sequence[str]) -> pd.DataFrame:
    """The rows as a DataFrame; ``document`` and ``category`` keep their objects (None
    included)."""
    cols = list(zip(*rows, strict=True)) if rows else [()] * len(columns)
    data = {}
    for name, values in zip(columns, cols, strict=True):
        if name in ("document", "category", "coefficient", "distance"):
            data[name] = pd.Series(list(values), dtype=object)
        elif name == "pooled":
            data[name] = pd.Series(np.array(values, dtype=bool))
        elif name in ("annotators", "length", "units"):
            data[name] = pd.Series(np.array(values, dtype=np.int64))
        else:
            data[name] = pd.Series(np.array(values, dtype=np.float64))
    return pd.DataFrame(data)
