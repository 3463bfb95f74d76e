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
        raise ParameterError("give the labels of at least two coders", params=("data",))
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

    For each item, the number of ordered pairs of coders who gave the same label,
    ``sum_k n_ik (n_ik - 1)``, divided by all ordered pairs ``c (c - 1)``; then the mean over
    items. With two coders this is the proportion of items they agree on.

    Parameters
    ----------
    data : CodingTable or sequence of sequences
        One sequence of labels per coder, all of the same length (every coder labels every item),
        or a :class:`~clusteragree.CodingTable` without missing cells. Labels are any hashable
        values.

    Returns
    -------
    float
        A_o, in [0, 1].

    Raises
    ------
    InputError
        If the data are not complete (coders of different lengths, or missing cells).
    ParameterError
        If fewer than two coders are given.
    ParameterTypeError
        If ``data`` is neither a CodingTable nor a list of label sequences.

    References
    ----------
    Artstein, R. and Poesio, M. (2008). Inter-coder agreement for computational linguistics.
    Computational Linguistics 34(4):555-596. Sections 2-3 (A_o for two and for many coders).

    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological
    Bulletin 76(5):378-382. (The mean agreement over subjects, P-bar.)

    Examples
    --------
    Two coders agree on 3 of 4 items; A says ``a`` half the time, B a quarter:

    >>> data = [["a", "a", "b", "b"], ["a", "b", "b", "b"]]
    >>> observed_agreement(data)
    0.75

    A third coder, C, like A: items 1, 3 and 4 have all 3 pairs agreeing, item 2 (a, b, a) one pair
    of 3, so ``A_o = (1 + 1/3 + 1 + 1) / 4 = 5/6``:

    >>> round(observed_agreement(data + [["a", "a", "b", "b"]]), 6)
    0.833333
    >>> from clusteragree import CodingTable
    >>> observed_agreement(CodingTable.from_matrix(data))
    0.75
    """
    m, k = _matrix(data)
    c, _ = m.shape
    items = m.shape[1]  # items x categories, counted at once
    counts = np.bincount((np.arange(items) * k + m).reshape(-1),
                         minlength=items * k).reshape(items, k)
    return float((counts * (counts - 1)).sum() / (m.shape[1] * c * (c - 1)))


def bennett_s(data: Labels, categories: int | None = None) -> float:
    """Bennett, Alpert & Goldstein's S: ``A_e = 1 / categories`` (default: categories used).

    ``S = (A_o - A_e) / (1 - A_e)`` with A_o from :func:`observed_agreement`: chance agreement
    assumes every category equally likely.

    Parameters
    ----------
    data : CodingTable or sequence of sequences
        One sequence of labels per coder, all of the same length, or a
        :class:`~clusteragree.CodingTable` without missing cells.
    categories : int, optional
        The number k of categories of the scheme. Default: the number of distinct labels in the
        data (for a CodingTable, its distinct values). Give it when a category of the scheme was
        never used.

    Returns
    -------
    float
        S, at most 1; NaN when ``A_e == 1`` (a single category).

    Raises
    ------
    InputError, ParameterError, ParameterTypeError
        As :func:`observed_agreement`.

    References
    ----------
    Bennett, E. M., Alpert, R. and Goldstein, A. C. (1954). Communications through limited-response
    questioning. Public Opinion Quarterly 18(3):303-308.

    Artstein, R. and Poesio, M. (2008). Inter-coder agreement for computational linguistics.
    Computational Linguistics 34(4):555-596. Sections 2-3.

    Examples
    --------
    Two coders agree on 3 of 4 items; A says ``a`` half the time, B a quarter:

    >>> data = [["a", "a", "b", "b"], ["a", "b", "b", "b"]]
    >>> bennett_s(data)  # A_e = 1/2: (3/4 - 1/2) / (1 - 1/2)
    0.5

    With a scheme of 4 categories, two of them unused, A_e = 1/4 and
    ``S = (3/4 - 1/4) / (3/4) = 2/3``:

    >>> round(bennett_s(data, categories=4), 6)
    0.666667

    Artstein & Poesio's dialogue-act example (2 coders, 100 utterances, 3 categories; the same
    data as NLTK's ``artstein_poesio_example.txt``): the coders agree on 46 + 32 + 10 = 88
    utterances, so ``S = (0.88 - 1/3) / (2/3) = 0.82``, the published value:

    >>> a = ["STAT"] * 46 + ["IREQ"] * 44 + ["CHCK"] * 10
    >>> b = ["STAT"] * 52 + ["IREQ"] * 32 + ["CHCK"] * 16
    >>> round(bennett_s([a, b]), 4)
    0.82
    """
    _, k = _matrix(data)
    return _kappa(observed_agreement(data), 1.0 / (categories or k))


def _shares(m: npt.NDArray[np.int64], k: int) -> npt.NDArray[np.float64]:
    return np.stack([np.bincount(row, minlength=k) / m.shape[1] for row in m])


def fleiss_pi(data: Labels) -> float:
    """Fleiss's multi-pi ("Fleiss' kappa"): one pooled category distribution.

    ``(A_o - A_e) / (1 - A_e)`` with A_o from :func:`observed_agreement` and
    ``A_e = sum_k p_k**2``, where p_k is the share of all labels (of all coders) that are k. With
    two coders it is Scott's pi.

    Parameters
    ----------
    data : CodingTable or sequence of sequences
        One sequence of labels per coder, all of the same length, or a
        :class:`~clusteragree.CodingTable` without missing cells.

    Returns
    -------
    float
        multi-pi, at most 1; NaN when ``A_e == 1`` (every label the same).

    Raises
    ------
    InputError, ParameterError, ParameterTypeError
        As :func:`observed_agreement`.

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological
    Bulletin 76(5):378-382.

    Scott, W. A. (1955). Reliability of content analysis: the case of nominal scale coding. Public
    Opinion Quarterly 19(3):321-325.

    Artstein, R. and Poesio, M. (2008). Inter-coder agreement for computational linguistics.
    Computational Linguistics 34(4):555-596. Sections 2-3 (pi and multi-pi).

    Examples
    --------
    Two coders agree on 3 of 4 items; A says ``a`` half the time, B a quarter:

    >>> data = [["a", "a", "b", "b"], ["a", "b", "b", "b"]]
    >>> round(fleiss_pi(data), 6)  # pooled a = 3/8: A_e = 34/64, pi = 7/15
    0.466667

    Fleiss (1971)'s table: 10 subjects, 14 raters, 5 categories, given as the number of raters
    who chose each category. Multi-pi depends only on these counts, so any assignment of the
    ratings to raters will do. The published value is 0.210 (exactly 4211/20059 = 0.2099):

    >>> counts = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0],
    ...           [2, 2, 8, 1, 1], [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2],
    ...           [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]
    >>> subjects = [[k for k, n in enumerate(row) for _ in range(n)] for row in counts]
    >>> raters = [list(r) for r in zip(*subjects)]  # 14 raters x 10 subjects
    >>> round(fleiss_pi(raters), 4)
    0.2099
    """
    m, k = _matrix(data)
    pooled = _shares(m, k).mean(axis=0)
    return _kappa(observed_agreement(data), float(pooled @ pooled))


def scott_pi(data: Labels) -> float:
    """Scott's pi (two coders; with more, it is multi-pi).

    The same function as :func:`fleiss_pi`: chance agreement from one category distribution
    pooled over the coders, ``A_e = sum_k p_k**2``.

    Parameters
    ----------
    data : CodingTable or sequence of sequences
        One sequence of labels per coder, all of the same length, or a
        :class:`~clusteragree.CodingTable` without missing cells.

    Returns
    -------
    float
        pi, at most 1; NaN when ``A_e == 1`` (every label the same).

    Raises
    ------
    InputError, ParameterError, ParameterTypeError
        As :func:`observed_agreement`.

    References
    ----------
    Scott, W. A. (1955). Reliability of content analysis: the case of nominal scale coding. Public
    Opinion Quarterly 19(3):321-325.

    Artstein, R. and Poesio, M. (2008). Inter-coder agreement for computational linguistics.
    Computational Linguistics 34(4):555-596. Sections 2-3.

    Examples
    --------
    Artstein & Poesio's dialogue-act example (2 coders, 100 utterances; the data of NLTK's
    ``artstein_poesio_example.txt``): coder a labels 46 STAT, 44 IREQ, 10 CHCK, coder b 52 STAT,
    32 IREQ, 16 CHCK, and they agree on 88. Pooled: STAT 98/200, IREQ 76/200, CHCK 26/200, so
    ``A_e = 0.49**2 + 0.38**2 + 0.13**2 = 0.4014`` and
    ``pi = (0.88 - 0.4014) / (1 - 0.4014) = 2393/2993``:

    >>> a = ["STAT"] * 46 + ["IREQ"] * 44 + ["CHCK"] * 10
    >>> b = ["STAT"] * 52 + ["IREQ"] * 32 + ["CHCK"] * 16
    >>> round(scott_pi([a, b]), 6)
    0.799532
    """
    return fleiss_pi(data)


def multi_kappa(data: Labels) -> float:
    """Davies & Fleiss's multi-kappa: per-coder distributions, averaged over pairs of coders.

    ``(A_o - A_e) / (1 - A_e)`` with A_o from :func:`observed_agreement` and A_e the mean over
    pairs of coders (m, n) of ``sum_k P(k | m) P(k | n)``, where ``P(k | m)`` is the share of
    coder m's labels that are k. With two coders it is Cohen's kappa.

    Parameters
    ----------
    data : CodingTable or sequence of sequences
        One sequence of labels per coder, all of the same length, or a
        :class:`~clusteragree.CodingTable` without missing cells.

    Returns
    -------
    float
        multi-kappa, at most 1; NaN when ``A_e == 1``.

    Raises
    ------
    InputError, ParameterError, ParameterTypeError
        As :func:`observed_agreement`.

    References
    ----------
    Davies, M. and Fleiss, J. L. (1982). Measuring agreement for multinomial data. Biometrics
    38(4):1047-1051.

    Artstein, R. and Poesio, M. (2008). Inter-coder agreement for computational linguistics.
    Computational Linguistics 34(4):555-596. Sections 2-3 (kappa and multi-kappa).

    Examples
    --------
    Two coders agree on 3 of 4 items; A says ``a`` half the time, B a quarter:

    >>> data = [["a", "a", "b", "b"], ["a", "b", "b", "b"]]
    >>> multi_kappa(data)  # A_e = 1/2 x 1/4 + 1/2 x 3/4 = 1/2
    0.5

    A third coder C like A: A_o = 5/6 (see :func:`observed_agreement`); every pair of coders has
    A_e = 1/2 (A with C: 1/4 + 1/4), so ``(5/6 - 1/2) / (1/2) = 2/3``:

    >>> round(multi_kappa(data + [["a", "a", "b", "b"]]), 6)
    0.666667
    """
    m, k = _matrix(data)
    shares = _shares(m, k)
    pairs = list(combinations(range(m.shape[0]), 2))
    a_e = float(np.mean([shares[i] @ shares[j] for i, j in pairs]))
    return _kappa(observed_agreement(data), a_e)


def cohen_kappa(data: Labels) -> float:
    """Cohen's kappa (two coders; with more, Davies & Fleiss's multi-kappa).

    The same function as :func:`multi_kappa`: chance agreement from each coder's own category
    distribution, ``A_e = sum_k P(k | A) P(k | B)``.

    Parameters
    ----------
    data : CodingTable or sequence of sequences
        One sequence of labels per coder, all of the same length, or a
        :class:`~clusteragree.CodingTable` without missing cells.

    Returns
    -------
    float
        kappa, at most 1; NaN when ``A_e == 1``.

    Raises
    ------
    InputError, ParameterError, ParameterTypeError
        As :func:`observed_agreement`.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and Psychological
    Measurement 20(1):37-46.

    Artstein, R. and Poesio, M. (2008). Inter-coder agreement for computational linguistics.
    Computational Linguistics 34(4):555-596. Sections 2-3.

    Examples
    --------
    Artstein & Poesio's Table 1 (two categories), the contingency table [[20, 20], [10, 50]]:
    A says yes 40 times, B 30 times, they agree on 20 + 50 = 70 items, so
    ``A_e = 0.4 x 0.3 + 0.6 x 0.7 = 0.54`` and ``kappa = (0.7 - 0.54) / 0.46 = 0.348``:

    >>> a = ["yes"] * 40 + ["no"] * 60
    >>> b = ["yes"] * 20 + ["no"] * 20 + ["yes"] * 10 + ["no"] * 50
    >>> round(cohen_kappa([a, b]), 3)
    0.348

    Their dialogue-act example (see :func:`scott_pi`): coder a's shares .46, .44, .10 and b's .52,
    .32, .16 give ``A_e = 0.396`` and ``kappa = (0.88 - 0.396) / 0.604 = 121/151``:

    >>> a = ["STAT"] * 46 + ["IREQ"] * 44 + ["CHCK"] * 10
    >>> b = ["STAT"] * 52 + ["IREQ"] * 32 + ["CHCK"] * 16
    >>> round(cohen_kappa([a, b]), 6)
    0.801325
    """
    return multi_kappa(data)


def pairwise(data: Labels, coefficient: Any = cohen_kappa) -> float:
    """The mean of a two-coder coefficient over all pairs of coders.

    With Cohen's kappa this is what NLTK's ``AnnotationTask.kappa()`` returns; it differs from
    Davies & Fleiss's :func:`multi_kappa`, which averages the expected agreement over pairs and
    computes one coefficient.

    Parameters
    ----------
    data : CodingTable or sequence of sequences
        One sequence of labels per coder, all of the same length, or a
        :class:`~clusteragree.CodingTable` without missing cells.
    coefficient : callable, default=cohen_kappa
        A function of two coders' labels (a list of two label sequences) returning a float, such
        as :func:`cohen_kappa`, :func:`scott_pi` or :func:`bennett_s`.

    Returns
    -------
    float
        The unweighted mean of ``coefficient`` over the ``c (c - 1) / 2`` pairs of coders.

    Raises
    ------
    InputError, ParameterError, ParameterTypeError
        As :func:`observed_agreement`.

    References
    ----------
    Artstein, R. and Poesio, M. (2008). Inter-coder agreement for computational linguistics.
    Computational Linguistics 34(4):555-596. Sections 2-3.

    NLTK, ``nltk/metrics/agreement.py``, ``AnnotationTask.kappa`` (the mean of the pairwise Cohen
    kappas).

    docs/multilabel.md, "Kappa family".

    Examples
    --------
    Two coders agree on 3 of 4 items; A says ``a`` half the time, B a quarter:

    >>> data = [["a", "a", "b", "b"], ["a", "b", "b", "b"]]
    >>> pairwise(data, cohen_kappa)  # one pair: Cohen's kappa itself
    0.5

    With a third coder C like A, Scott's pi is 7/15 for A-B and B-C (see :func:`fleiss_pi`) and 1
    for A-C (identical labels, A_e = 1/2), so the mean is ``(7/15 + 7/15 + 1) / 3 = 29/45``:

    >>> round(pairwise(data + [["a", "a", "b", "b"]], scott_pi), 6)
    0.644444
    """
    m, _ = _matrix(data)
    return float(np.mean([coefficient([m[i], m[j]])
                          for i, j in combinations(range(m.shape[0]), 2)]))
