"""The kappa family for single-label data (Artstein & Poesio 2008, sections 2-3).

Every coefficient is ``(A_o - A_e) / (1 - A_e)``; they differ in the expected agreement:

* Bennett's S: ``A_e = 1/k`` over the k categories;
* Scott's pi and Fleiss's multi-pi: one pooled distribution of categories for all coders;
* Cohen's kappa and Davies & Fleiss's multi-kappa: one distribution per coder, averaged over
  pairs of coders.

The data are complete: every coder labels every item (a coder x item table of labels, or a
:class:`~clusteragree.CodingTable` with no missing cell). ``pairwise`` gives the average of the
two-coder coefficients over all pairs (what NLTK's ``kappa()`` returns).

Examples
--------
>>> labels = [["a", "a", "b", "b"], ["a", "b", "b", "b"]]
>>> round(cohen_kappa(labels), 4), round(scott_pi(labels), 4), round(bennett_s(labels), 4)
(0.5, 0.4667, 0.5)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import InputError, ParameterError, ParameterTypeError
from .model import CodingTable

__all__ = [
    "bennett_s",
    "cohen_kappa",
    "fleiss_pi",
    "multi_kappa",
    "observed_agreement",
    "pairwise",
    "scott_pi",
]

Labels = Sequence[Sequence[Hashable]] | CodingTable


def _matrix(data: Labels) -> tuple[npt.NDArray[np.int64], int]:
    """Coder x item matrix of category indices, and the number of categories."""
    if isinstance(data, CodingTable):
        if (data.codes < 0).any():
            raise InputError("the kappa family needs complete data: every coder labels every "
                             "item; use alpha for data with missing values")
        return data.codes, len(data.values)
    if isinstance(data, (str, bytes)) or not isinstance(data, (Sequence, np.ndarray)) or not all(
            isinstance(r, (Sequence, np.ndarray)) and not isinstance(r, (str, bytes))
            for r in data):
        raise ParameterTypeError(
            "data must be a CodingTable or one sequence of labels per coder (a list of lists). "
            f"Got {type(data).__name__}.")
    rows = [list(r) for r in data]
    if len(rows) < 2:
        raise ParameterError("give the labels of at least two coders")
    if len({len(r) for r in rows}) != 1:
        raise InputError("coders have labelled different numbers of items; the kappa family "
                         "needs complete data")
    index: dict[Any, int] = {}
    out = np.array([[index.setdefault(x, len(index)) for x in r] for r in rows], dtype=np.int64)
    return out, len(index)


def _kappa(a_o: float, a_e: float) -> float:
    return float("nan") if a_e == 1 else (a_o - a_e) / (1 - a_e)


def observed_agreement(data: Labels) -> float:
    """Share of agreeing pairs of coders, averaged over items (A&P's multi-coder A_o).

    Examples
    --------
    Two coders agree on 3 of 4 items; A says ``a`` half the time, B a quarter:

    >>> data = [["a", "a", "b", "b"], ["a", "b", "b", "b"]]
    >>> observed_agreement(data)
    0.75
    """
    m, k = _matrix(data)
    c, _ = m.shape
    counts = np.stack([np.bincount(col, minlength=k) for col in m.T])  # items x categories
    return float((counts * (counts - 1)).sum() / (m.shape[1] * c * (c - 1)))


def bennett_s(data: Labels, categories: int | None = None) -> float:
    """Bennett, Alpert & Goldstein's S: ``A_e = 1 / categories`` (default: categories used).

    Examples
    --------
    Two coders agree on 3 of 4 items; A says ``a`` half the time, B a quarter:

    >>> data = [["a", "a", "b", "b"], ["a", "b", "b", "b"]]
    >>> bennett_s(data)  # A_e = 1/2: (3/4 - 1/2) / (1 - 1/2)
    0.5
    """
    _, k = _matrix(data)
    return _kappa(observed_agreement(data), 1.0 / (categories or k))


def _shares(m: npt.NDArray[np.int64], k: int) -> npt.NDArray[np.float64]:
    return np.stack([np.bincount(row, minlength=k) / m.shape[1] for row in m])


def fleiss_pi(data: Labels) -> float:
    """Fleiss's multi-pi ("Fleiss' kappa"): one pooled category distribution.

    Examples
    --------
    Two coders agree on 3 of 4 items; A says ``a`` half the time, B a quarter:

    >>> data = [["a", "a", "b", "b"], ["a", "b", "b", "b"]]
    >>> round(fleiss_pi(data), 6)  # pooled a = 3/8: A_e = 34/64, pi = 7/15
    0.466667
    """
    m, k = _matrix(data)
    pooled = _shares(m, k).mean(axis=0)
    return _kappa(observed_agreement(data), float(pooled @ pooled))


def scott_pi(data: Labels) -> float:
    """Scott's pi (two coders; with more, it is multi-pi)."""
    return fleiss_pi(data)


def multi_kappa(data: Labels) -> float:
    """Davies & Fleiss's multi-kappa: per-coder distributions, averaged over pairs of coders.

    Examples
    --------
    Two coders agree on 3 of 4 items; A says ``a`` half the time, B a quarter:

    >>> data = [["a", "a", "b", "b"], ["a", "b", "b", "b"]]
    >>> multi_kappa(data)  # A_e = 1/2 x 1/4 + 1/2 x 3/4 = 1/2
    0.5
    """
    m, k = _matrix(data)
    shares = _shares(m, k)
    pairs = list(combinations(range(m.shape[0]), 2))
    a_e = float(np.mean([shares[i] @ shares[j] for i, j in pairs]))
    return _kappa(observed_agreement(data), a_e)


def cohen_kappa(data: Labels) -> float:
    """Cohen's kappa (two coders; with more, Davies & Fleiss's multi-kappa)."""
    return multi_kappa(data)


def pairwise(data: Labels, coefficient: Any = cohen_kappa) -> float:
    """The mean of a two-coder coefficient over all pairs of coders.

    Examples
    --------
    Two coders agree on 3 of 4 items; A says ``a`` half the time, B a quarter:

    >>> data = [["a", "a", "b", "b"], ["a", "b", "b", "b"]]
    >>> pairwise(data, cohen_kappa)  # one pair: Cohen's kappa itself
    0.5
    """
    m, _ = _matrix(data)
    return float(np.mean([coefficient([m[i], m[j]])
                          for i, j in combinations(range(m.shape[0]), 2)]))
