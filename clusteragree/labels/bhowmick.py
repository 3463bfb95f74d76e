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
>>> round(r.po, 4), round(r.pe, 4), round(r.a_m, 4)
(0.6667, 0.6667, 0.0)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..errors import ParameterError
from .model import MultiLabel, require_multilabel

__all__ = ["AmResult", "a_m", "a_m_pairwise", "agreement_bins", "category_confusion",
           "category_disagreement", "gold_standard"]


@dataclass(frozen=True)
class AmResult:
    """Po, Pe, A_m and each item's observed agreement P_i."""

    po: float
    pe: float
    a_m: float
    per_item: pd.Series


def _membership(data: MultiLabel, annotators: Sequence[Hashable],
                categories: Sequence[Hashable]) -> tuple[npt.NDArray[np.int8], list[Hashable]]:
    items = data.complete_items(annotators)
    col = {c: k for k, c in enumerate(categories)}
    x = np.zeros((len(annotators), len(items), len(categories)), dtype=np.int8)
    for u, annotator in enumerate(annotators):
        for i, item in enumerate(items):
            for label in data.labels(annotator, item):
                if label not in col:
                    raise ParameterError(f"label {label!r} is not among the categories")
                x[u, i, col[label]] = 1
    return x, items


def a_m(data: MultiLabel, *, categories: Sequence[Hashable] | None = None,
        annotators: Sequence[Hashable] | None = None, consistent: bool = False) -> AmResult:
    """A_m over the items labelled by all ``annotators`` (default: every annotator).

    ``categories`` is the category set of the scheme (default: the labels used); unused
    categories add ``[0 0]`` agreements to both Po and Pe, as in the paper.
    """
    require_multilabel(data)
    who = list(annotators) if annotators is not None else list(data.annotators)
    cats = list(categories) if categories is not None else list(data.categories)
    if len(who) < 2 or len(cats) < 2:
        raise ParameterError("A_m needs two annotators and two categories at least")
    x, items = _membership(data, who, cats)
    pairs_c = list(combinations(range(len(cats)), 2))
    pairs_u = list(combinations(range(len(who)), 2))
    a_idx = np.array([a for a, _ in pairs_c])
    b_idx = np.array([b for _, b in pairs_c])
    codes = 2 * x[:, :, a_idx] + x[:, :, b_idx]  # annotators x items x category pairs
    groups = np.where(codes == 2, 1, codes)  # [1 0] joins [0 1]
    seen = groups if consistent else codes
    agree = np.zeros(len(items))
    for u, v in pairs_u:
        agree += (seen[u] == seen[v]).sum(axis=1)
    p_i = agree / (len(pairs_c) * len(pairs_u))
    po = float(p_i.mean())
    shares = np.stack([(groups == g).mean(axis=1) for g in (0, 1, 3)], axis=-1)  # U x S x 3
    p_p = np.mean([(shares[u] * shares[v]).sum(axis=-1) for u, v in pairs_u], axis=0)
    pe = float(p_p.mean())
    value = float("nan") if pe == 1 else (po - pe) / (1 - pe)
    return AmResult(po, pe, value, pd.Series(p_i, index=items, name="P_i"))


def a_m_pairwise(data: MultiLabel, **kwargs: object) -> pd.DataFrame:
    """Po, Pe and A_m for every pair of annotators (the paper's Table 2)."""
    rows = []
    for a, b in combinations(data.annotators, 2):
        r = a_m(data, annotators=[a, b], **kwargs)  # type: ignore[arg-type]
        rows.append({"annotator_a": a, "annotator_b": b, "Po": r.po, "Pe": r.pe, "A_m": r.a_m})
    return pd.DataFrame(rows)


def agreement_bins(result: AmResult, edges: Sequence[float] = (0, 0.2, 0.4, 0.7, 1.0)
                   ) -> pd.Series:
    """Number of items by observed agreement P_i in bins ``(lo, hi]`` (the paper's Table 3;
    an item with P_i = 0 falls in the first bin)."""
    bins = pd.cut(result.per_item, list(edges), include_lowest=True)
    return bins.value_counts(sort=False)


def category_disagreement(data: MultiLabel) -> pd.DataFrame:
    """Per annotator pair and category: items on which one has the category and the other not
    (the paper's Table 4), with a Total row."""
    require_multilabel(data)
    cats = list(data.categories)
    rows = {}
    for a, b in combinations(data.annotators, 2):
        x, _ = _membership(data, [a, b], cats)
        rows[f"{a}-{b}"] = (x[0] != x[1]).sum(axis=0)
    frame = pd.DataFrame(rows, index=cats).T
    frame.loc["Total"] = frame.sum()
    return frame


def category_confusion(data: MultiLabel) -> pd.DataFrame:
    """For categories a < b: items where one annotator has a but not b and another has b but not
    a, counted over annotator pairs (the paper's Table 5)."""
    require_multilabel(data)
    cats = list(data.categories)
    out = pd.DataFrame(0, index=cats, columns=cats)
    for a, b in combinations(data.annotators, 2):
        x, _ = _membership(data, [a, b], cats)
        only = x[:, :, :, None] & (1 - x[:, :, None, :])  # [u, item, has c1, lacks c2]
        both_ways = (only[0] & only[1].transpose(0, 2, 1)).sum(axis=0)
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
