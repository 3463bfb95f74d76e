"""The categorical disorder of an alignment: Mathet's (2017) gamma-cat and gamma-k.

gamma-cat measures the agreement on the categories of the units that gamma's best alignment
puts together, leaving their positions aside. In a unitary alignment of ``k >= 2`` units
(empty slots do not count), every pair of its units ``(u, v)`` is a categorisation of "the
same thing" by two annotators, weighted by

* ``1 / (k - 1)``: each unit's pairs weigh 1 in all, as a value of Krippendorff's alpha that
  is pairable with ``k - 1`` others;
* the *pairing confidence* ``p(u, v) = max(0, 1 - d_pos(u, v))`` (``d_pos`` the positional
  dissimilarity of gamma, ``Δ`` included, without the weight ``alpha``): a pair of units
  far apart says little about their categories.

The categorical disorder is the weighted mean of ``d_cat(u, v) = M[c_u, c_v] Δ`` over these
pairs: ``Σ w d_cat / Σ w``. gamma-k, for one category ``k``, keeps the pairs of which at
least one unit has category ``k``. Both are undefined (NaN) when no pair has a positive
weight.

The sums ``Σ w d_cat`` and ``Σ w`` are kept apart (:class:`CategoricalSums`), so that the
disorders of several documents pool by adding them.

References
----------
Mathet, Y. (2017). The agreement measure γcat, a complement to γ focused on categorization of
a continuum. Computational Linguistics 43(3), 661-681 (section 4.2: pairs, pairing
confidence, weights).

docs/gamma.md, "gamma-cat and gamma-k".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .alignment import Alignment, Continuum, positional

__all__ = ["CategoricalSums", "aligned_pairs", "categorical_sums"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class CategoricalSums:
    """The weighted categorical disorder of an alignment, as sums.

    Attributes
    ----------
    numerator, weight : float
        ``Σ w d_cat`` and ``Σ w`` over all the pairs (gamma-cat).
    by_category_numerator, by_category_weight : ndarray of float
        The same over the pairs holding each category (gamma-k), in the order of the
        continuum's categories.

    References
    ----------
    Mathet (2017), Computational Linguistics 43(3), section 4.2.

    Examples
    --------
    >>> s = CategoricalSums(0.5, 2.0, np.array([0.5, 0.0]), np.array([2.0, 0.0]))
    >>> s.disorder, s.category_disorder(1)
    (0.25, nan)
    """

    numerator: float
    weight: float
    by_category_numerator: FloatArray
    by_category_weight: FloatArray

    @property
    def disorder(self) -> float:
        """``numerator / weight``; NaN when no pair weighs anything."""
        return self.numerator / self.weight if self.weight > 0 else float("nan")

    def category_disorder(self, code: int) -> float:
        """The disorder of the pairs holding category ``code``; NaN when they weigh nothing."""
        w = float(self.by_category_weight[code])
        return float(self.by_category_numerator[code]) / w if w > 0 else float("nan")


def aligned_pairs(cont: Continuum, alignment: Alignment
                  ) -> tuple[IntArray, IntArray, FloatArray, FloatArray]:
    """Every pair of units in a unitary alignment: the positions of both in ``cont.flat()``,
    the pair's weight ``p / (k - 1)`` and its ``d_cat``.

    Examples
    --------
    >>> from clusteragree.core.alignment import best_alignment, prepare
    >>> cont = prepare([[(0, 10, "x")], [(0, 8, "y")], []])
    >>> i, j, w, d = aligned_pairs(cont, best_alignment(cont))
    >>> i.tolist(), j.tolist(), w.round(4).tolist(), d.tolist()  # p = 1 - (2/18)^2, k = 2
    ([0], [1], [0.9877], [1.0])
    """
    n = cont.n_annotators
    offsets = np.concatenate([[0], np.cumsum([len(s) for s in cont.starts])])
    table = np.array([[-1 if u is None else offsets[a] + u for a, u in enumerate(row)]
                      for row in alignment.unitary], dtype=np.int64).reshape(-1, n)
    size = (table >= 0).sum(axis=1)
    parts_i, parts_j, parts_k = [], [], []
    for a in range(n):
        for b in range(a + 1, n):
            both = (table[:, a] >= 0) & (table[:, b] >= 0)
            parts_i.append(table[both, a])
            parts_j.append(table[both, b])
            parts_k.append(size[both])
    if not parts_i:
        empty = np.zeros(0)
        return np.zeros(0, np.int64), np.zeros(0, np.int64), empty, empty
    i, j, k = np.concatenate(parts_i), np.concatenate(parts_j), np.concatenate(parts_k)
    s, e, c, _ = cont.flat()
    confidence = np.maximum(0.0, 1.0 - positional(s[i], e[i], s[j], e[j], cont.delta_empty))
    weight = confidence / np.maximum(k - 1, 1)
    dcat = cont.delta_empty * cont.category_matrix[c[i], c[j]]
    return i, j, weight, dcat


def categorical_sums(cont: Continuum, alignment: Alignment) -> CategoricalSums:
    """The sums of gamma-cat and of gamma-k for every category, for one alignment.

    Parameters
    ----------
    cont : Continuum
        The units (:func:`~clusteragree.core.alignment.prepare`).
    alignment : Alignment
        An alignment of them, usually the best one.

    Returns
    -------
    CategoricalSums

    References
    ----------
    Mathet (2017), Computational Linguistics 43(3), section 4.2.

    Examples
    --------
    Two annotators agree on the position of two units and disagree on one category; the
    second pair is 2 apart in 18, so its weight is ``1 - (2/18)^2 = 80/81`` and the disorder
    ``(80/81) / (1 + 80/81) = 80/161``:

    >>> from clusteragree.core.alignment import best_alignment, prepare
    >>> cont = prepare([[(0, 10, "x"), (20, 30, "y")], [(0, 10, "x"), (22, 30, "x")]])
    >>> s = categorical_sums(cont, best_alignment(cont))
    >>> round(s.disorder, 6), round(80 / 161, 6), s.category_disorder(1)  # the last: "y"'s pairs
    (0.496894, 0.496894, 1.0)
    """
    i, j, weight, dcat = aligned_pairs(cont, alignment)
    k = len(cont.categories)
    c = cont.flat()[2]
    ci, cj = c[i], c[j]
    num = weight * dcat
    by_num = np.bincount(ci, weights=num, minlength=k) + np.bincount(
        cj[ci != cj], weights=num[ci != cj], minlength=k)
    by_weight = np.bincount(ci, weights=weight, minlength=k) + np.bincount(
        cj[ci != cj], weights=weight[ci != cj], minlength=k)
    return CategoricalSums(float(num.sum()), float(weight.sum()), by_num.astype(float),
                           by_weight.astype(float))
