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
>>> round(r.p_a, 4), round(r.p_e, 4), round(r.kappa, 4)
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
        raise ParameterError(f"The primary weight p must be in [0.5, 1]. Got {p!r}.")


def weight_matrix(data: MultiLabel, annotator: Hashable, p: float,
                  items: Sequence[Hashable] | None = None) -> npt.NDArray[np.float64]:
    """``M_annotator`` (items x categories) for primary weight ``p`` (explicit weights, when
    the data have them, are used as they are and ``p`` is ignored)."""
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
    """K' and its parts; for several annotators, means over pairs (``pairs`` has each)."""

    p: float
    p_a: float
    p_e: float
    kappa: float
    items: int
    pairs: tuple[tuple[Hashable, Hashable, float, float, float], ...]


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

    Examples
    --------
    Two annotators give the same single label to both items; each uses x and y half the time,
    so chance agreement is 1/2 x 1/2 + 1/2 x 1/2:

    >>> data = MultiLabel.from_records([("i1", "A", "x"), ("i1", "B", "x"),
    ...                                 ("i2", "A", "y"), ("i2", "B", "y")])
    >>> r = augmented_kappa(data)
    >>> r.p_a, r.p_e, r.kappa
    (1.0, 0.5, 1.0)
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
    """K', p(A) and p(E) for each primary weight p."""
    rows = []
    for p in ps:
        r = augmented_kappa(data, p)
        rows.append({"p": p, "p_A": r.p_a, "p_E": r.p_e, "kappa": r.kappa})
    return pd.DataFrame(rows)


def item_classes(data: MultiLabel, *, high: float = 0.6, delta: float = 0.05) -> pd.DataFrame:
    """Per-item kappa at p = 0.5 and p = 1 and the paper's four classes of items.

    The rule (docs/multilabel.md): when the two kappas differ by more than ``delta``, the item
    is "better at p = 1" or "better at p = 0.5"; otherwise it is "constant high" when their mean
    is at least ``high`` and "constant low" when not.
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
