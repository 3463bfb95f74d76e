"""Rosenberg & Binkowski (2004): augmented kappa for a primary and an optional secondary label.

For annotator A, the annotation matrix ``M_A`` (items x labels) holds 1 for a single label, ``p``
for a primary and ``1 - p`` for a secondary label (``0.5 <= p <= 1``). Then, exactly as the paper
defines them (section 5):

* ``p(A) = sum over cells of M_A * M_B / N`` (product rule: two identical two-label annotations
  score ``p**2 + (1 - p)**2``, below 1: that is the paper's definition);
* ``Freq_A[y] = sum over items of M_A[x, y] / N`` and ``p(E) = sum_y Freq_A[y] * Freq_B[y]``;
* ``K' = (p(A) - p(E)) / (1 - p(E))``.

Several annotators: the mean over pairs (the paper averages over its three annotators). At
``p = 1`` secondary labels weigh nothing and K' is Cohen's kappa on the primary labels.

Per item, the paper sorts messages into four classes by their "average kappa ... individually
at different p values" without defining it; clusteragree's rule is in docs/multilabel.md: the
item's kappa is ``(A_x - p(E)) / (1 - p(E))`` with its own agreement ``A_x = sum_y M_A M_B`` and
the corpus ``p(E)``, averaged over pairs, at ``p = 0.5`` and ``p = 1``.

Examples
--------
>>> from clusteragree.labels.model import MultiLabel
>>> recs = [("m1", "A", "a", 1), ("m1", "A", "b", 2), ("m2", "A", "b", 1),
...         ("m1", "B", "a", 1), ("m2", "B", "b", 1), ("m2", "B", "a", 2)]
>>> r = augmented_kappa(MultiLabel.from_records(recs), p=0.6)
>>> round(r.p_a, 4), round(r.p_e, 4), round(r.value, 4)
(0.6, 0.42, 0.3103)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..errors import InputError, ParameterError, ParameterTypeError
from .model import MultiLabel, require_multilabel

__all__ = ["AugmentedKappa", "augmented_kappa", "item_classes", "kappa_sweep", "weight_matrix"]


def _check_p(p: float) -> None:
    if isinstance(p, bool) or not isinstance(p, (int, float, np.number)):
        raise ParameterTypeError(f"The primary weight p must be a number in [0.5, 1]. Got "
                                 f"{p!r}.")
    if not 0.5 <= p <= 1.0:
        raise ParameterError(f"The primary weight p must be in [0.5, 1]. Got {p!r}.",
                             params=("p",))


def weight_matrix(data: MultiLabel, annotator: Hashable, p: float,
                  items: Sequence[Hashable] | None = None) -> npt.NDArray[np.float64]:
    """``M_annotator`` (items x categories) for primary weight ``p`` (explicit weights, when
    the data have them, are used as they are and ``p`` is ignored).

    A single label weighs 1, a primary ``p`` and a secondary ``1 - p``; every other cell is 0.

    Parameters
    ----------
    data : MultiLabel
        The labels; ranked when a cell has two labels (or built from explicit weights).
    annotator : hashable
        Whose matrix.
    p : float
        The weight of a primary label, in [0.5, 1] (checked even when explicit weights make it
        unused).
    items : sequence of hashable, optional
        The rows, in this order (default: every item of ``data``); an item the annotator did
        not label gives a row of zeros.

    Returns
    -------
    numpy.ndarray of float, shape (len(items), len(data.categories))
        Columns in the order of ``data.categories``; each row of a labelled item adds up to 1.

    Raises
    ------
    InputError
        When a cell has two labels without ranks, or more than two labels.
    ParameterError, ParameterTypeError
        When ``p`` is not a number in [0.5, 1].

    References
    ----------
    Rosenberg, A. and Binkowski, E. (2004). Augmenting the kappa statistic to determine
    interannotator reliability for multiply labeled data points. HLT-NAACL 2004, short papers,
    pp. 77-80.
    Section 5.1 (the annotation matrix), Tables 1-2.

    Examples
    --------
    Annotator A labels the five messages of the paper's Table 1 (``a,b``, ``b,a``, ``b``,
    ``c``, ``c,b``); B's labels bring in category ``d``, which A never uses. At ``p = 0.6`` the
    matrix, its column totals and relative frequencies are those of the paper's Table 2
    (totals 1, 2.4, 1.6, 0) and Table 3 (0.2, 0.48, 0.32, 0):

    >>> A = {"m1": "a b", "m2": "b a", "m3": "b", "m4": "c", "m5": "c b"}  # the paper's Table 1
    >>> B = {"m1": "a", "m2": "a b", "m3": "b", "m4": "d", "m5": "c"}
    >>> data = MultiLabel.from_records([(m, who, label, rank) for who, cells in (("A", A), ("B", B))
    ...                                 for m, labels in cells.items()
    ...                                 for rank, label in enumerate(labels.split(), start=1)])
    >>> m = weight_matrix(data, "A", 0.6)
    >>> data.categories
    ('a', 'b', 'c', 'd')
    >>> m.round(2).tolist()
    [[0.6, 0.4, 0.0, 0.0], [0.4, 0.6, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0],
     [0.0, 0.4, 0.6, 0.0]]
    >>> m.sum(axis=0).round(2).tolist(), (m.sum(axis=0) / 5).round(2).tolist()
    ([1.0, 2.4, 1.6, 0.0], [0.2, 0.48, 0.32, 0.0])

    At ``p = 1`` secondary labels weigh nothing:

    >>> weight_matrix(data, "A", 1.0, items=["m1"]).tolist()
    [[1.0, 0.0, 0.0, 0.0]]
    """
    _check_p(p)
    items = list(items) if items is not None else list(data.items)
    col = {c: k for k, c in enumerate(data.categories)}
    m = np.zeros((len(items), len(data.categories)))
    if data.weights is not None:
        for r, item in enumerate(items):
            for label, w in data.weights.get((annotator, item), {}).items():
                m[r, col[label]] = w
        return m
    for r, item in enumerate(items):
        labels = data.labels(annotator, item)
        if len(labels) == 1:
            m[r, col[labels[0]]] = 1.0
        elif len(labels) == 2:
            if not data.ranked:
                raise InputError(f"annotator {annotator!r} gives item {item!r} two labels "
                                 "without ranks; augmented kappa needs a primary and a secondary")
            m[r, col[labels[0]]] = p
            m[r, col[labels[1]]] = 1.0 - p
        elif len(labels) > 2:
            raise InputError(f"annotator {annotator!r} gives item {item!r} {len(labels)} labels; "
                             "augmented kappa takes one or two")
    return m


@dataclass(frozen=True)
class AugmentedKappa:
    """K' and its parts; for several annotators, means over pairs (``pairs`` has each).

    The shape of every chance-corrected agreement (as the kappa family's rows and
    :class:`~clusteragree.labels.AmResult`): ``value``, ``p_a``, ``p_e``.

    Attributes
    ----------
    p : float
        The primary weight used.
    p_a : float
        Observed agreement p(A), the mean over pairs of annotators.
    p_e : float
        Chance agreement p(E), the mean over pairs.
    value : float
        K', the mean over pairs of each pair's ``(p(A) - p(E)) / (1 - p(E))`` (NaN for a pair
        whose p(E) is 1); also ``kappa``, its name in version 0.1.
    items : int
        The largest number of items shared by a pair (each pair uses the items both labelled).
    pairs : tuple of (hashable, hashable, float, float, float)
        ``(annotator_a, annotator_b, p_a, p_e, kappa)`` for every pair.

    References
    ----------
    Rosenberg, A. and Binkowski, E. (2004). Augmenting the kappa statistic to determine
    interannotator reliability for multiply labeled data points. HLT-NAACL 2004, short papers,
    pp. 77-80.
    Sections 5.1-5.3; section 6 averages K' over the pairs of its three annotators.

    Examples
    --------
    Three annotators, two items, one label each. A and B agree on both items and use x and y
    half the time (p(E) = 1/2 x 1/2 + 1/2 x 1/2 = 1/2, K' = 1); C says x twice, so with A or B
    p(A) = 1/2 and p(E) = 1/2 x 1 = 1/2 (K' = 0). The means are p(A) = 2/3, p(E) = 1/2 and
    K' = 1/3:

    >>> data = MultiLabel.from_records([("i1", "A", "x"), ("i2", "A", "y"), ("i1", "B", "x"),
    ...                                 ("i2", "B", "y"), ("i1", "C", "x"), ("i2", "C", "x")])
    >>> r = augmented_kappa(data)
    >>> round(r.p_a, 4), r.p_e, round(r.value, 4), r.items
    (0.6667, 0.5, 0.3333, 2)
    >>> [(a, b, kappa) for a, b, _, _, kappa in r.pairs]
    [('A', 'B', 1.0), ('A', 'C', 0.0), ('B', 'C', 0.0)]
    """

    p: float
    p_a: float
    p_e: float
    value: float
    items: int
    pairs: tuple[tuple[Hashable, Hashable, float, float, float], ...]

    @property
    def kappa(self) -> float:
        """``value`` by its name in version 0.1."""
        return self.value


def _pair(data: MultiLabel, a: Hashable, b: Hashable, p: float):
    items = data.complete_items([a, b])
    if not items:
        raise InputError(f"annotators {a!r} and {b!r} share no item")
    ma, mb = weight_matrix(data, a, p, items), weight_matrix(data, b, p, items)
    n = len(items)
    p_a = float((ma * mb).sum() / n)
    p_e = float(ma.sum(0) / n @ (mb.sum(0) / n))
    kappa = float("nan") if p_e == 1 else (p_a - p_e) / (1 - p_e)
    return items, ma, mb, p_a, p_e, kappa


def augmented_kappa(data: MultiLabel, p: float = 0.6,
                    annotators: Sequence[Hashable] | None = None) -> AugmentedKappa:
    """Rosenberg & Binkowski's K' (mean over pairs of annotators).

    For each pair, on the items both labelled: ``p(A)`` is the sum of ``M_A * M_B`` over all
    cells divided by the number of items N, ``p(E) = sum_y Freq_A[y] Freq_B[y]`` with
    ``Freq_A[y]`` the column total of ``M_A`` over N, and ``K' = (p(A) - p(E)) / (1 - p(E))``
    (:func:`weight_matrix` gives ``M_A``). Two identical two-label annotations score
    ``p**2 + (1 - p)**2`` in p(A), less than 1: that is the paper's definition.

    Parameters
    ----------
    data : MultiLabel
        One label, or a ranked primary and secondary, per cell (or explicit weights).
    p : float, default=0.6
        The weight of a primary label, in [0.5, 1]; ``1 - p`` goes to the secondary. At
        ``p = 1`` K' is Cohen's kappa on the primary labels. Ignored for explicit weights.
    annotators : sequence of hashable, optional
        The annotators to compare (default: all); at least two.

    Returns
    -------
    AugmentedKappa
        K', p(A) and p(E) (means over pairs of annotators) and each pair's values.

    Raises
    ------
    ParameterError
        Fewer than two annotators, or ``p`` outside [0.5, 1].
    InputError
        Two labels without ranks in a cell, more than two labels, or a pair of annotators with
        no item in common.

    See Also
    --------
    kappa_sweep : K' over several values of p.
    item_classes : per-item kappas and the paper's four classes of items.

    References
    ----------
    Rosenberg, A. and Binkowski, E. (2004). Augmenting the kappa statistic to determine
    interannotator reliability for multiply labeled data points. HLT-NAACL 2004, short papers,
    pp. 77-80.
    Section 5 (p(A) in 5.1, p(E) in 5.2, K' in 5.3).

    docs/multilabel.md, section "Augmented kappa".

    Examples
    --------
    Two annotators give the same single label to both items; each uses x and y half the time,
    so chance agreement is 1/2 x 1/2 + 1/2 x 1/2:

    >>> data = MultiLabel.from_records([("i1", "A", "x"), ("i1", "B", "x"),
    ...                                 ("i2", "A", "y"), ("i2", "B", "y")])
    >>> r = augmented_kappa(data)
    >>> r.p_a, r.p_e, r.value
    (1.0, 0.5, 1.0)

    Annotator A of the paper's Table 1 against an annotator B (their ``m2`` is the ``{ab, ba}``
    case, primary and secondary swapped). At ``p = 0.6`` the products ``M_A * M_B`` per
    message are 0.6, 0.4 x 0.6 + 0.6 x 0.4 = 0.48, 1, 0 and 0.6, so p(A) = 2.68 / 5 = 0.536;
    Freq_A = (0.2, 0.48, 0.32, 0) and Freq_B = (0.32, 0.28, 0.2, 0.2) give
    p(E) = 0.064 + 0.1344 + 0.064 = 0.2624, and K' = 0.2736 / 0.7376 = 0.3709:

    >>> A = {"m1": "a b", "m2": "b a", "m3": "b", "m4": "c", "m5": "c b"}  # the paper's Table 1
    >>> B = {"m1": "a", "m2": "a b", "m3": "b", "m4": "d", "m5": "c"}
    >>> data = MultiLabel.from_records([(m, who, label, rank) for who, cells in (("A", A), ("B", B))
    ...                                 for m, labels in cells.items()
    ...                                 for rank, label in enumerate(labels.split(), start=1)])
    >>> r = augmented_kappa(data, p=0.6)
    >>> round(r.p_a, 4), round(r.p_e, 4), round(r.value, 4)
    (0.536, 0.2624, 0.3709)

    At ``p = 1`` only primary labels count: they agree on m1, m3 and m5 (p(A) = 3/5), and
    p(E) = 0.2 x 0.4 + 0.4 x 0.2 + 0.4 x 0.2 = 0.24, so K' = 0.36 / 0.76 = 9/19, Cohen's kappa:

    >>> from clusteragree.core import cohen_kappa
    >>> round(augmented_kappa(data, p=1.0).value, 4)
    0.4737
    >>> round(cohen_kappa([["a", "b", "b", "c", "c"], ["a", "a", "b", "d", "c"]]), 4)
    0.4737
    """
    require_multilabel(data)
    who = list(annotators) if annotators is not None else list(data.annotators)
    if len(who) < 2:
        raise ParameterError("augmented kappa needs at least two annotators")
    rows = []
    n_items = 0
    for a, b in combinations(who, 2):
        items, _, _, p_a, p_e, kappa = _pair(data, a, b, p)
        rows.append((a, b, p_a, p_e, kappa))
        n_items = max(n_items, len(items))
    return AugmentedKappa(p, float(np.mean([r[2] for r in rows])),
                          float(np.mean([r[3] for r in rows])),
                          float(np.mean([r[4] for r in rows])), n_items, tuple(rows))


def kappa_sweep(data: MultiLabel, ps: Sequence[float] = (0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
                ) -> pd.DataFrame:
    """K', p(A) and p(E) for each primary weight p.

    The paper reads how annotators use the secondary label from the way K' moves with p
    (section 6: 0.299 at p = 1 and 0.281 at p = 0.5 on its corpus).

    Parameters
    ----------
    data : MultiLabel
        As for :func:`augmented_kappa` (all annotators are compared).
    ps : sequence of float, default=(0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
        Primary weights, each in [0.5, 1].

    Returns
    -------
    pandas.DataFrame
        One row per p, in the order given, with the columns ``p``, ``p_A`` (observed
        agreement), ``p_E`` (chance agreement) and ``kappa`` (K'), each a mean over pairs of
        annotators.

    References
    ----------
    Rosenberg, A. and Binkowski, E. (2004). Augmenting the kappa statistic to determine
    interannotator reliability for multiply labeled data points. HLT-NAACL 2004, short papers,
    pp. 77-80.
    Sections 5 and 6.

    Examples
    --------
    The data of :func:`augmented_kappa`'s example. At ``p = 0.5`` the products per message are
    0.5, 0.5, 1, 0 and 0.5 (p(A) = 2.5 / 5 = 0.5), Freq_A = (0.2, 0.5, 0.3, 0) and
    Freq_B = (0.3, 0.3, 0.2, 0.2) give p(E) = 0.06 + 0.15 + 0.06 = 0.27 and
    K' = 0.23 / 0.73 = 0.3151; the rows for 0.6 and 1 are worked out there:

    >>> A = {"m1": "a b", "m2": "b a", "m3": "b", "m4": "c", "m5": "c b"}  # the paper's Table 1
    >>> B = {"m1": "a", "m2": "a b", "m3": "b", "m4": "d", "m5": "c"}
    >>> data = MultiLabel.from_records([(m, who, label, rank) for who, cells in (("A", A), ("B", B))
    ...                                 for m, labels in cells.items()
    ...                                 for rank, label in enumerate(labels.split(), start=1)])
    >>> kappa_sweep(data, ps=(0.5, 0.6, 1.0)).round(4)
         p    p_A     p_E   kappa
    0  0.5  0.500  0.2700  0.3151
    1  0.6  0.536  0.2624  0.3709
    2  1.0  0.600  0.2400  0.4737
    """
    rows = []
    for p in ps:
        r = augmented_kappa(data, p)
        rows.append({"p": p, "p_A": r.p_a, "p_E": r.p_e, "kappa": r.value})
    return pd.DataFrame(rows)


def item_classes(data: MultiLabel, *, high: float = 0.6, delta: float = 0.05) -> pd.DataFrame:
    """Per-item kappa at p = 0.5 and p = 1 and the paper's four classes of items.

    The rule (docs/multilabel.md): when the two kappas differ by more than ``delta``, the item
    is "better at p = 1" or "better at p = 0.5"; otherwise it is "constant high" when their mean
    is at least ``high`` and "constant low" when not.

    An item's kappa at p is ``(A_x - p(E)) / (1 - p(E))``, with its own agreement
    ``A_x = sum_y M_A[x, y] M_B[x, y]`` and the corpus p(E) at that p, averaged over pairs of
    annotators (the paper does not define it; docs/multilabel.md gives this choice).

    Parameters
    ----------
    data : MultiLabel
        As for :func:`augmented_kappa`.
    high : float, default=0.6
        The mean kappa from which a steady item is "constant high" (the paper counts messages
        with K' > 0.6 as usable).
    delta : float, default=0.05
        How much larger the kappa at one p must be for the item to be better at that p.

    Returns
    -------
    pandas.DataFrame
        One row per item with the columns ``item``, ``kappa_p0.5``, ``kappa_p1`` and
        ``class`` ("constant high", "constant low", "better at p = 1" or
        "better at p = 0.5").

    References
    ----------
    Rosenberg, A. and Binkowski, E. (2004). Augmenting the kappa statistic to determine
    interannotator reliability for multiply labeled data points. HLT-NAACL 2004, short papers,
    pp. 77-80.
    Section 6 (the four classes of messages: 92, 183, 58 and 47 of 380).

    docs/multilabel.md, "The four classes of items: a documented choice".

    Examples
    --------
    The data of :func:`augmented_kappa`'s example; p(E) is 0.27 at p = 0.5 and 0.24 at p = 1.
    m1 (``a,b`` against ``a``) and m5 (``c,b`` against ``c``) agree on the primary label:
    A_x = 0.5 at p = 0.5 (kappa 0.23 / 0.73 = 0.3151) and 1 at p = 1 (kappa 1). m2 swaps
    primary and secondary: A_x = 0.5 (0.3151), then 0 (-0.24 / 0.76 = -0.3158). m3 agrees at
    both (kappa 1). m4 (``c`` against ``d``) never agrees, yet its kappa moves from
    -0.27 / 0.73 = -0.3699 to -0.3158 because p(E) changes; that is 0.054 more than at
    p = 0.5, above the default ``delta``, so m4 counts as better at p = 1:

    >>> A = {"m1": "a b", "m2": "b a", "m3": "b", "m4": "c", "m5": "c b"}  # the paper's Table 1
    >>> B = {"m1": "a", "m2": "a b", "m3": "b", "m4": "d", "m5": "c"}
    >>> data = MultiLabel.from_records([(m, who, label, rank) for who, cells in (("A", A), ("B", B))
    ...                                 for m, labels in cells.items()
    ...                                 for rank, label in enumerate(labels.split(), start=1)])
    >>> item_classes(data).round(4)
      item  kappa_p0.5  kappa_p1              class
    0   m1      0.3151    1.0000    better at p = 1
    1   m2      0.3151   -0.3158  better at p = 0.5
    2   m3      1.0000    1.0000      constant high
    3   m4     -0.3699   -0.3158    better at p = 1
    4   m5      0.3151    1.0000    better at p = 1

    With ``delta=0.1`` m4 is steady, and low:

    >>> item_classes(data, delta=0.1)["class"].tolist()
    ['better at p = 1', 'better at p = 0.5', 'constant high', 'constant low', 'better at p = 1']
    """
    require_multilabel(data)
    per: dict[float, dict[Hashable, list[float]]] = {0.5: {}, 1.0: {}}
    for p in per:
        for a, b in combinations(data.annotators, 2):
            items, ma, mb, _, p_e, _ = _pair(data, a, b, p)
            agree = (ma * mb).sum(axis=1)
            for item, a_x in zip(items, agree, strict=True):
                per[p].setdefault(item, []).append((a_x - p_e) / (1 - p_e) if p_e < 1
                                                   else float("nan"))
    rows = []
    for item in per[1.0]:
        k_half, k_one = float(np.mean(per[0.5][item])), float(np.mean(per[1.0][item]))
        if k_one - k_half > delta:
            cls = "better at p = 1"
        elif k_half - k_one > delta:
            cls = "better at p = 0.5"
        else:
            cls = "constant high" if (k_half + k_one) / 2 >= high else "constant low"
        rows.append({"item": item, "kappa_p0.5": k_half, "kappa_p1": k_one, "class": cls})
    return pd.DataFrame(rows)
