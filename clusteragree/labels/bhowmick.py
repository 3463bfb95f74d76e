"""Bhowmick, Mitra & Basu (2008): the A_m agreement measure for multi-label items, its tables,
and the gold standard of their Algorithm 1.

For every unordered pair of categories ``(a, b)`` and annotator ``u``, the item's assignment
combination is ``[1(a in L_iu), 1(b in L_iu)]``: ``[0 0]``, ``[0 1]``, ``[1 0]`` or ``[1 1]``.

* Po: for item i, the share of (category pair, annotator pair) combinations on which the two
  annotators' combinations are equal; Po is its mean over items (equations 1-4).
* Pe: per category pair and annotator, the shares of items in each of three groups, ``[0 0]``,
  ``[0 1]``/``[1 0]`` merged, ``[1 1]``; the products of two annotators' shares, summed over the
  groups, averaged over annotator pairs, then over category pairs (equations 5-8).
* ``A_m = (Po - Pe) / (1 - Pe)``.

The paper's Po counts ``[0 1]`` against ``[1 0]`` as a disagreement while its Pe merges them, so
Pe is larger than the chance value of its own Po and A_m is biased down. ``consistent=True``
merges the two in Po as well (docs/multilabel.md).

Examples
--------
>>> from clusteragree.labels.model import MultiLabel
>>> recs = [(1, "u1", "x"), (1, "u2", "x"), (2, "u1", "x"), (2, "u1", "y"), (2, "u2", "y"),
...         (3, "u1", "y"), (3, "u2", "y")]
>>> r = a_m(MultiLabel.from_records(recs))
>>> round(r.p_a, 4), round(r.p_e, 4), round(r.value, 4)
(0.6667, 0.6667, 0.0)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt
import pandas as pd
import scipy.sparse as sp

from ..errors import InputError, ParameterError, option
from .model import MultiLabel, require_multilabel

__all__ = ["AmResult", "a_m", "a_m_pairwise", "agreement_bins", "category_confusion",
           "category_disagreement", "gold_standard"]


@dataclass(frozen=True)
class AmResult:
    """Po, Pe, A_m and each item's observed agreement P_i.

    The shape of every chance-corrected agreement (as the kappa family's rows and
    :class:`~clusteragree.labels.AugmentedKappa`): ``value``, ``p_a``, ``p_e``.

    Attributes
    ----------
    p_a : float
        Observed agreement Po, the mean of ``per_item`` (equation 4); also ``po``, its name in
        version 0.1.
    p_e : float
        Chance agreement Pe (equation 8); also ``pe``.
    value : float
        A_m, ``(Po - Pe) / (1 - Pe)`` (equation 1); NaN when Pe is 1; also ``a_m``.
    per_item : pandas.Series
        P_i (equation 3), indexed by item, named ``P_i``: the share of (category pair,
        annotator pair) combinations on which the item's assignments agree.

    References
    ----------
    Bhowmick, P. K., Mitra, P. and Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. Coling 2008 workshop on
    Human Judgements in Computational Linguistics, Manchester, pp. 58-65.
    Section 3.2, equations 1-8.

    Examples
    --------
    Two annotators, one category pair (x, y). Item 1: ``[1 0]`` and ``[1 0]`` agree; item 2:
    ``[1 1]`` and ``[0 1]`` do not; item 3: ``[0 1]`` and ``[0 1]`` agree. So P_i = 1, 0, 1 and
    Po = 2/3. In Pe, u1's items fall in the groups ``[0 1]``/``[1 0]``, ``[1 1]``,
    ``[0 1]``/``[1 0]`` (shares 0, 2/3, 1/3) and u2's all in the mixed group (share 1), so
    Pe = 2/3 x 1 = 2/3 and A_m = 0:

    >>> data = MultiLabel.from_records([(1, "u1", "x"), (1, "u2", "x"), (2, "u1", "x"),
    ...                                 (2, "u1", "y"), (2, "u2", "y"), (3, "u1", "y"),
    ...                                 (3, "u2", "y")])
    >>> r = a_m(data)
    >>> r.per_item.tolist(), round(r.p_a, 4), round(r.p_e, 4), round(r.value, 4)
    ([1.0, 0.0, 1.0], 0.6667, 0.6667, 0.0)
    """

    p_a: float
    p_e: float
    value: float
    per_item: pd.Series

    @property
    def po(self) -> float:
        """``p_a`` by its name in version 0.1."""
        return self.p_a

    @property
    def pe(self) -> float:
        """``p_e`` by its name in version 0.1."""
        return self.p_e

    @property
    def a_m(self) -> float:
        """``value`` by its name in version 0.1."""
        return self.value


def _membership(data: MultiLabel, annotators: Sequence[Hashable],
                categories: Sequence[Hashable]) -> tuple[list[sp.csr_matrix], list[Hashable]]:
    """Each annotator's labels as a sparse items x categories 0/1 matrix, over the items every
    one of ``annotators`` labelled (no annotators x items x categories array is made)."""
    items = data.complete_items(annotators)
    col = {c: k for k, c in enumerate(categories)}
    out = []
    for annotator in annotators:
        rows: list[int] = []
        cols: list[int] = []
        for i, item in enumerate(items):
            for label in data.labels(annotator, item):
                if label not in col:
                    raise ParameterError(
                        f"label {label!r} of annotator {annotator!r} is not among the "
                        f"categories ({option('categories', list(categories))}); name every "
                        "label used", params=("categories",))
                rows.append(i)
                cols.append(col[label])
        x = sp.csr_matrix((np.ones(len(rows)), (rows, cols)),
                          shape=(len(items), len(categories)))
        x.sum_duplicates()
        x.data[:] = 1.0
        out.append(x)
    return out, items


def _choose2(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    return x * (x - 1.0) / 2.0


def _pair_shares(xu: sp.csr_matrix, xv: sp.csr_matrix) -> float:
    """Sum over category pairs a < b of the products of two annotators' shares of items in the
    groups ``[0 0]``, ``[0 1]``/``[1 0]`` and ``[1 1]`` (Pe's inner sums), from label counts and
    co-occurrences (categories x categories), without an item axis."""
    n_items = xu.shape[0]
    sums = []
    for x in (xu, xv):
        m = np.asarray(x.sum(axis=0)).ravel()
        both = (x.T @ x).toarray()
        one = m[:, None] + m[None, :] - 2.0 * both
        sums.append(((n_items - m[:, None] - m[None, :] + both), one, both))
    total = sum(a * b for a, b in zip(sums[0], sums[1], strict=True))
    return float(np.triu(total, k=1).sum()) / n_items**2


def a_m(data: MultiLabel, *, categories: Sequence[Hashable] | None = None,
        annotators: Sequence[Hashable] | None = None, consistent: bool = False) -> AmResult:
    """A_m over the items labelled by all ``annotators`` (default: every annotator).

    ``categories`` is the category set of the scheme (default: the labels used); unused
    categories add ``[0 0]`` agreements to both Po and Pe, as in the paper.

    For every pair of categories (a, b), an annotator's assignment of an item is ``[0 0]``,
    ``[0 1]``, ``[1 0]`` or ``[1 1]`` (whether it has a, whether it has b). Po counts the
    (category pair, annotator pair) combinations on which two annotators' assignments are
    equal; Pe merges ``[0 1]`` and ``[1 0]`` into one group of three. The paper's Po counts
    ``[0 1]`` against ``[1 0]`` as a disagreement, so A_m is biased down and can be negative;
    ``consistent=True`` merges the two in Po as well.

    Parameters
    ----------
    data : MultiLabel
        Any number of labels per cell (ranks are not used).
    categories : sequence of hashable, optional
        The scheme's categories (default: the labels used); at least two, and every label used
        must be among them.
    annotators : sequence of hashable, optional
        The annotators to compare (default: all); at least two. Only the items labelled by
        all of them count.
    consistent : bool, default=False
        Count ``[0 1]`` against ``[1 0]`` as an agreement in Po, as Pe does.

    Returns
    -------
    AmResult
        Po, Pe, A_m and the per-item observed agreement P_i.

    Raises
    ------
    ParameterError
        Fewer than two annotators or categories, or a label that is not among
        ``categories``.
    InputError
        No item is labelled by every one of the annotators: nothing to compare.

    See Also
    --------
    a_m_pairwise : A_m for every pair of annotators.
    agreement_bins : items by observed agreement.

    References
    ----------
    Bhowmick, P. K., Mitra, P. and Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. Coling 2008 workshop on
    Human Judgements in Computational Linguistics, Manchester, pp. 58-65.
    Section 3.2, equations 1-8.

    docs/multilabel.md, section "A_m" (Po against Pe, the category set).

    Examples
    --------
    Two annotators u and v, categories a, b and c (pairs ab, ac, bc). Item 1 (``{a}`` and
    ``{a}``) agrees on all three pairs: P_1 = 1. Item 2 (``{a}`` against ``{b}``): ab is
    ``[1 0]`` against ``[0 1]``, ac ``[1 0]`` against ``[0 0]``, bc ``[0 0]`` against
    ``[1 0]``: P_2 = 0. Item 3 (``{b, c}`` against ``{c}``) agrees on ac only: P_3 = 1/3.
    Po = (1 + 0 + 1/3) / 3 = 4/9. In Pe, the shares of the groups (``[0 0]``, mixed,
    ``[1 1]``) over the three items are, for u and v: ab (0, 1, 0) and (1/3, 2/3, 0), giving
    2/3; ac the same, 2/3; bc (2/3, 0, 1/3) and (1/3, 2/3, 0), giving 2/9. Pe is their mean,
    14/27, and A_m = (12/27 - 14/27) / (13/27) = -2/13:

    >>> data = MultiLabel.from_records([(1, "u", "a"), (1, "v", "a"), (2, "u", "a"),
    ...                                 (2, "v", "b"), (3, "u", "b"), (3, "u", "c"),
    ...                                 (3, "v", "c")])
    >>> r = a_m(data)
    >>> round(r.p_a, 4), round(r.p_e, 4), round(r.value, 4)
    (0.4444, 0.5185, -0.1538)

    Counting item 2's ``[1 0]`` against ``[0 1]`` on ab as an agreement gives P_2 = 1/3,
    Po = 5/9 and A_m = (15/27 - 14/27) / (13/27) = 1/13:

    >>> r = a_m(data, consistent=True)
    >>> round(r.p_a, 4), round(r.value, 4)
    (0.5556, 0.0769)

    The example of the public implementation (github.com/SyrupType/bhowmick_agreement_measure,
    ``example_categories.csv`` and ``example_annotations.csv``): six categories, three
    annotators, ten items; it gives Po = 383/450 and A_m = 0.675073 (0.689622 with
    ``consistent=True``):

    >>> sets = {1: ("fi", "fi", "fi ps"), 2: ("ind", "fn", "ind"), 3: ("lr", "lr", "lr"),
    ...         4: ("ps", "ps", "ps"), 5: ("fn lr", "fn", "lr"), 6: ("em", "em", "em"),
    ...         7: ("em ps", "em", "em"), 8: ("ps", "ps fi", "ps"), 9: ("em", "em", "em"),
    ...         10: ("fn", "fn", "fn")}
    >>> big = MultiLabel.from_records([(item, annotator, label)
    ...                                for item, cells in sets.items()
    ...                                for annotator, labels in zip((1, 2, 3), cells)
    ...                                for label in labels.split()])
    >>> cats = ["fi", "ps", "em", "lr", "fn", "ind"]
    >>> r = a_m(big, categories=cats)
    >>> round(r.p_a * 450, 6), round(r.value, 6)
    (383.0, 0.675073)
    >>> round(a_m(big, categories=cats, consistent=True).a_m, 6)
    0.689622
    """
    require_multilabel(data)
    who = list(annotators) if annotators is not None else list(data.annotators)
    cats = list(categories) if categories is not None else list(data.categories)
    if len(who) < 2 or len(cats) < 2:
        raise ParameterError("A_m needs two annotators and two categories at least")
    xs, items = _membership(data, who, cats)
    if not items:
        raise InputError(
            f"nothing to compare: no item is labelled by every one of the annotators {who!r}; "
            "A_m is computed over the items they all labelled (choose annotators=, or use "
            "a_m_pairwise)")
    n_cats = len(cats)
    pairs_c = n_cats * (n_cats - 1) / 2
    pairs_u = list(combinations(range(len(who)), 2))
    sizes = [np.asarray(x.sum(axis=1)).ravel() for x in xs]
    # Per item, annotators u and v agree on a category pair when they agree on both categories
    # (the paper's Po): C(z, 2) pairs, z = categories on which they agree; with consistent=True
    # also when each has exactly one of the two, and not the same one: plus |L_u - L_v| |L_v - L_u|.
    agree = np.zeros(len(items))
    for u, v in pairs_u:
        shared = np.asarray(xs[u].multiply(xs[v]).sum(axis=1)).ravel()
        only_u, only_v = sizes[u] - shared, sizes[v] - shared
        agree += _choose2(n_cats - only_u - only_v)
        if consistent:
            agree += only_u * only_v
    p_i = agree / (pairs_c * len(pairs_u))
    po = float(p_i.mean())
    pe = float(np.mean([_pair_shares(xs[u], xs[v]) for u, v in pairs_u]) / pairs_c)
    value = float("nan") if pe == 1 else (po - pe) / (1 - pe)
    return AmResult(po, pe, value, pd.Series(p_i, index=items, name="P_i"))


def a_m_pairwise(data: MultiLabel, **kwargs: object) -> pd.DataFrame:
    """Po, Pe and A_m for every pair of annotators (the paper's Table 2).

    Parameters
    ----------
    data : MultiLabel
        The labels.
    **kwargs
        Passed to :func:`a_m`: ``categories`` and ``consistent``.

    Returns
    -------
    pandas.DataFrame
        One row per pair of annotators (in the order of ``data.annotators``) with the columns
        ``annotator_a``, ``annotator_b``, ``Po``, ``Pe`` and ``A_m``.

    References
    ----------
    Bhowmick, P. K., Mitra, P. and Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. Coling 2008 workshop on
    Human Judgements in Computational Linguistics, Manchester, pp. 58-65.
    Table 2 (the pairwise values; the "0.72" of the abstract is their mean, not the joint
    A_m of Table 1).

    Examples
    --------
    One category pair (x, y), two items. u1 and u2 both give item 1 ``[1 1]`` and item 2
    ``[0 1]``: Po = 1; each has shares (0, 1/2, 1/2) over the groups (``[0 0]``, mixed,
    ``[1 1]``), so Pe = 1/4 + 1/4 = 1/2 and A_m = 1. u3 gives item 1 ``[1 0]``, so with u1 or
    u2 only item 2 agrees (Po = 1/2); u3's shares are (0, 1, 0), Pe = 1/2 and A_m = 0:

    >>> data = MultiLabel.from_records([(1, "u1", "x"), (1, "u1", "y"), (1, "u2", "x"),
    ...                                 (1, "u2", "y"), (1, "u3", "x"), (2, "u1", "y"),
    ...                                 (2, "u2", "y"), (2, "u3", "y")])
    >>> a_m_pairwise(data)
      annotator_a annotator_b   Po   Pe  A_m
    0          u1          u2  1.0  0.5  1.0
    1          u1          u3  0.5  0.5  0.0
    2          u2          u3  0.5  0.5  0.0
    """
    rows = []
    for a, b in combinations(data.annotators, 2):
        r = a_m(data, annotators=[a, b], **kwargs)  # type: ignore[arg-type]
        rows.append({"annotator_a": a, "annotator_b": b, "Po": r.p_a, "Pe": r.p_e, "A_m": r.value})
    return pd.DataFrame(rows)


def agreement_bins(result: AmResult, edges: Sequence[float] = (0, 0.2, 0.4, 0.7, 1.0)
                   ) -> pd.Series:
    """Number of items by observed agreement P_i in bins ``(lo, hi]`` (the paper's Table 3;
    an item with P_i = 0 falls in the first bin).

    Parameters
    ----------
    result : AmResult
        A result of :func:`a_m` (its ``per_item``).
    edges : sequence of float, default=(0, 0.2, 0.4, 0.7, 1.0)
        Increasing bin edges; the default bins are those of the paper's Table 3.

    Returns
    -------
    pandas.Series
        The number of items in each bin, indexed by the bins (pandas intervals, the first
        closed on the left), in increasing order; empty bins count 0.

    References
    ----------
    Bhowmick, P. K., Mitra, P. and Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. Coling 2008 workshop on
    Human Judgements in Computational Linguistics, Manchester, pp. 58-65.
    Table 3 (14, 73, 198 and 715 of 1000 sentences).

    Examples
    --------
    The items of :func:`a_m`'s example have P_i = 1, 0 and 1/3: one in the first bin (0 is
    included there), one in (0.2, 0.4], none in (0.4, 0.7] and one in (0.7, 1.0]:

    >>> data = MultiLabel.from_records([(1, "u", "a"), (1, "v", "a"), (2, "u", "a"),
    ...                                 (2, "v", "b"), (3, "u", "b"), (3, "u", "c"),
    ...                                 (3, "v", "c")])
    >>> agreement_bins(a_m(data)).tolist()
    [1, 1, 0, 1]
    """
    bins = pd.cut(result.per_item, list(edges), include_lowest=True)
    return bins.value_counts(sort=False)


def category_disagreement(data: MultiLabel) -> pd.DataFrame:
    """Per annotator pair and category: items on which one has the category and the other not
    (the paper's Table 4), with a Total row.

    Parameters
    ----------
    data : MultiLabel
        The labels; each pair of annotators is compared on the items both labelled.

    Returns
    -------
    pandas.DataFrame
        One row per pair of annotators, named ``"a-b"``, and a last row ``Total``; one column
        per category of ``data.categories``; integer counts of items.

    References
    ----------
    Bhowmick, P. K., Mitra, P. and Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. Coling 2008 workshop on
    Human Judgements in Computational Linguistics, Manchester, pp. 58-65.
    Section 5.2, Table 4.

    Examples
    --------
    The data of :func:`a_m`'s example: on item 2 u has a and v has b; on item 3 u has b and
    v has not. Category a is disputed once, b twice and c never:

    >>> data = MultiLabel.from_records([(1, "u", "a"), (1, "v", "a"), (2, "u", "a"),
    ...                                 (2, "v", "b"), (3, "u", "b"), (3, "u", "c"),
    ...                                 (3, "v", "c")])
    >>> category_disagreement(data)
           a  b  c
    u-v    1  2  0
    Total  1  2  0
    """
    require_multilabel(data)
    cats = list(data.categories)
    rows = {}
    for a, b in combinations(data.annotators, 2):
        (xa, xb), _ = _membership(data, [a, b], cats)
        differ = np.asarray((xa + xb - 2 * xa.multiply(xb)).sum(axis=0)).ravel()
        rows[f"{a}-{b}"] = differ.astype(np.int64)
    frame = pd.DataFrame(rows, index=cats).T
    frame.loc["Total"] = frame.sum()
    return frame


def category_confusion(data: MultiLabel) -> pd.DataFrame:
    """For categories a < b: items where one annotator has a but not b and another has b but not
    a, counted over annotator pairs (the paper's Table 5).

    Parameters
    ----------
    data : MultiLabel
        The labels; each pair of annotators is compared on the items both labelled.

    Returns
    -------
    pandas.DataFrame
        Categories by categories (``data.categories`` as index and columns); the count for
        the pair (a, b) is in row a, column b of the upper triangle, and every other cell is 0.

    References
    ----------
    Bhowmick, P. K., Mitra, P. and Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. Coling 2008 workshop on
    Human Judgements in Computational Linguistics, Manchester, pp. 58-65.
    Section 5.2 (one annotator's ``[a -]`` against another's ``[- b]``), Table 5.

    Examples
    --------
    The data of :func:`a_m`'s example: on item 2 u has a without b and v has b without a, the
    one confusion (a, b); on item 3 (``{b, c}`` against ``{c}``) no one has c without b:

    >>> data = MultiLabel.from_records([(1, "u", "a"), (1, "v", "a"), (2, "u", "a"),
    ...                                 (2, "v", "b"), (3, "u", "b"), (3, "u", "c"),
    ...                                 (3, "v", "c")])
    >>> category_confusion(data)
       a  b  c
    a  0  1  0
    b  0  0  0
    c  0  0  0
    """
    require_multilabel(data)
    cats = list(data.categories)
    out = pd.DataFrame(0, index=cats, columns=cats)
    for a, b in combinations(data.annotators, 2):
        (xa, xb), _ = _membership(data, [a, b], cats)
        shared = xa.multiply(xb)
        # Items where a has c1 but not b, and b has c2 but not a: c1 in L_a - L_b, c2 in L_b - L_a.
        both_ways = ((xa - shared).T @ (xb - shared)).toarray().astype(np.int64)
        out += both_ways + both_ways.T
    upper = np.triu(np.ones((len(cats), len(cats)), dtype=bool), k=1)
    return out.where(upper, 0)


def gold_standard(data: MultiLabel, *, update_on_ties: bool = False) -> tuple[
        dict[Hashable, set[Hashable]], dict[Hashable, int]]:
    """Majority gold standard with the expert index of Algorithm 1.

    Items and categories are taken in order. A category goes to an item when more annotators
    assigned it than not; on a tie, when the summed expert index of those who assigned it is
    larger than that of those who did not. After a majority decision, the index of every
    annotator on the winning side grows by one (Algorithm 1); the prose also grows it after a
    tie is resolved, which ``update_on_ties=True`` does. Returns the labels per item and the
    final expert indices.

    Only the annotators who labelled an item vote on it. On a tie with equal summed indices
    the category is left out (the paper's condition is a strict "greater than").

    Parameters
    ----------
    data : MultiLabel
        The labels.
    update_on_ties : bool, default=False
        Also raise the expert index of the winning side after a tie is resolved (the paper's
        prose), not only after a majority decision (its Algorithm 1).

    Returns
    -------
    gold : dict
        ``item -> set of categories`` for every item of ``data``.
    index : dict
        ``annotator -> final expert index``.

    References
    ----------
    Bhowmick, P. K., Mitra, P. and Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. Coling 2008 workshop on
    Human Judgements in Computational Linguistics, Manchester, pp. 58-65.
    Section 4, Algorithm 1.

    docs/multilabel.md, section "A_m" (Algorithm 1 on ties).

    Examples
    --------
    On item i1, A and B say x and C says y: x wins 2 to 1 (A and B gain a point) and y loses
    1 to 2 (A and B, who left it out, gain another). Item i2 is labelled by A (x) and C (y)
    only: both categories tie 1 to 1, and A's index (2) beats C's (0), so x is assigned and y
    is not. Without updates on ties the indices stay A 2, B 2, C 0; with them A gains a point
    for each of the two tied decisions:

    >>> data = MultiLabel.from_records([("i1", "A", "x"), ("i1", "B", "x"), ("i1", "C", "y"),
    ...                                 ("i2", "A", "x"), ("i2", "C", "y")])
    >>> gold_standard(data)
    ({'i1': {'x'}, 'i2': {'x'}}, {'A': 2, 'B': 2, 'C': 0})
    >>> gold_standard(data, update_on_ties=True)[1]
    {'A': 4, 'B': 2, 'C': 0}
    """
    require_multilabel(data)
    index = dict.fromkeys(data.annotators, 0)
    gold: dict[Hashable, set[Hashable]] = {}
    for item in data.items:
        who = [a for a in data.annotators if (a, item) in data.cells]
        gold[item] = set()
        for c in data.categories:
            yes = [a for a in who if c in data.labels(a, item)]
            no = [a for a in who if c not in data.labels(a, item)]
            if len(yes) != len(no):
                assign = len(yes) > len(no)
                update = True
            else:
                assign = sum(index[a] for a in yes) > sum(index[a] for a in no)
                update = update_on_ties
            if assign:
                gold[item].add(c)
            if update:
                for a in yes if assign else no:
                    index[a] += 1
    return gold, index
