"""Chance-corrected agreement of many raters with missing ratings, and its standard error.

Gwet's framework (2014) writes Fleiss's kappa, Gwet's AC1 (AC2 with weights) and Brennan and
Prediger's coefficient as ``(p_a - p_e) / (1 - p_e)`` over the same agreement table ``r_ik``
(raters who put subject ``i`` in category ``k``), with weights ``w_kl`` between categories:

* ``p_a``: over the ``n'`` subjects rated at least twice, the mean of
  ``sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1))`` with ``r*_ik = sum_l w_kl r_il``;
* ``pi_k``: over the ``n`` subjects rated at least once, the mean of ``r_ik / r_i``;
* ``p_e``: Fleiss ``sum_kl w_kl pi_k pi_l``; Gwet ``T_w / (q (q - 1)) sum_k pi_k (1 - pi_k)``
  with ``T_w = sum_kl w_kl``; Brennan-Prediger ``T_w / q^2``.

The standard error is Gwet's linearisation: each subject's coefficient ``c_i`` corrected for its
share of chance agreement, ``c*_i = c_i - 2 (1 - c) (p_e|i - p_e) / (1 - p_e)``, and
``var(c) = (1 - f) / (n (n - 1)) sum_i (c*_i - c)^2`` (``f`` the sampling fraction of the
subjects, 0 for an infinite population). The interval is ``c +- t_{n-1} se``.

References
----------
Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence of high
agreement. British Journal of Mathematical and Statistical Psychology 61, 29-48.
Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed. Advanced Analytics.
Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological
Bulletin 76(5), 378-382.
Brennan, R. L. & Prediger, D. J. (1981). Coefficient kappa: some uses, misuses, and
alternatives. Educational and Psychological Measurement 41, 687-699.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .._lazy import module
from ..errors import ParameterError, ParameterTypeError, option
from .model import CodingTable

if TYPE_CHECKING:
    import pandas as pd
    from scipy import stats
else:
    pd = module("pandas")
    stats = module("scipy.stats")

__all__ = ["COEFFICIENTS", "WEIGHTS", "agreement_table", "chance_corrected", "weight_matrix"]

FloatArray = npt.NDArray[np.float64]

#: The coefficients of :func:`chance_corrected`.
COEFFICIENTS = ("fleiss", "gwet", "brennan_prediger")

#: Named weights between ordered categories (their positions ``k, l`` among ``q``).
WEIGHTS = ("identity", "linear", "quadratic")


def agreement_table(table: CodingTable, categories: Sequence[Any] | None = None
                    ) -> tuple[FloatArray, list[Any]]:
    """Subjects x categories: how many raters put each subject in each category.

    Parameters
    ----------
    table : CodingTable
        Coders x units of single values (units are the subjects).
    categories : sequence, optional
        Every category the raters could choose, in order (for weights, and for ``q`` in AC1
        and Brennan-Prediger); default: the values used, sorted.

    Returns
    -------
    counts : ndarray, shape (units, q)
        ``r_ik``.
    categories : list
        The categories of the columns.

    References
    ----------
    Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed., chapter 2.

    Examples
    --------
    >>> t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "y"), ("C", 1, "y"),
    ...                               ("A", 2, "x")])
    >>> counts, cats = agreement_table(t)
    >>> counts.tolist(), cats
    ([[1.0, 2.0], [1.0, 0.0]], ['x', 'y'])
    """
    if table.value_kind == "set":
        raise ParameterError("chance-corrected coefficients need single values, not sets; "
                             f"read one value per field ({option('scalar')})",
                             params=("metrics",))
    used = sorted({table.values[c] for c in np.unique(table.codes[table.codes >= 0])},
                  key=lambda v: (str(type(v)), v))
    cats = list(categories) if categories is not None else used
    missing = [v for v in used if v not in cats]
    if missing:
        raise ParameterError(f"values {missing!r} are not among the categories given",
                             params=("categories",))
    column = {v: k for k, v in enumerate(cats)}
    code_to_col = np.array([column.get(v, -1) for v in table.values] or [-1], dtype=np.int64)
    counts = np.zeros((table.n_units, len(cats)))
    coder_ix, unit_ix = np.nonzero(table.codes >= 0)
    cells = unit_ix * len(cats) + code_to_col[table.codes[coder_ix, unit_ix]]
    counts += np.bincount(cells, minlength=counts.size).reshape(counts.shape)
    return counts, cats


def weight_matrix(weights: str | npt.ArrayLike, q: int,
                  categories: Sequence[Any] | None = None) -> FloatArray:
    """The weights ``w_kl`` between categories.

    Parameters
    ----------
    weights : {"identity", "linear", "quadratic"} or array (q, q)
        ``identity``: 1 on the diagonal (nominal: AC1, Fleiss's kappa); ``linear``:
        ``1 - |k - l| / (q - 1)``; ``quadratic``: ``1 - (k - l)^2 / (q - 1)^2``, with ``k, l``
        the categories' values when they are numbers, else their positions.
    q : int
        Number of categories.
    categories : sequence, optional
        The categories (numbers give the distances of linear and quadratic weights).

    Returns
    -------
    ndarray, shape (q, q)

    References
    ----------
    Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed., chapter 3 (weights).

    Examples
    --------
    >>> weight_matrix("linear", 3).tolist()
    [[1.0, 0.5, 0.0], [0.5, 1.0, 0.5], [0.0, 0.5, 1.0]]
    """
    if not isinstance(weights, str):
        matrix = np.asarray(weights, dtype=np.float64)
        if matrix.shape != (q, q):
            raise ParameterError(f"weights must be a {q} x {q} matrix; got {matrix.shape}")
        return matrix
    if weights not in WEIGHTS:
        raise ParameterError(f"weights must be one of {list(WEIGHTS)} or a matrix. Got "
                             f"{weights!r}.")
    if weights == "identity" or q < 2:
        return np.eye(q)
    numeric = categories is not None and all(
        isinstance(c, (int, float, np.integer, np.floating)) and not isinstance(c, bool)
        for c in categories)
    x = np.asarray(categories, dtype=np.float64) if numeric else np.arange(q, dtype=np.float64)
    span = float(x.max() - x.min()) or 1.0
    gap = np.abs(x[:, None] - x[None, :]) / span
    return 1.0 - gap if weights == "linear" else 1.0 - gap ** 2


def chance_corrected(
    table: CodingTable,
    coefficients: Sequence[str] = COEFFICIENTS,
    *,
    weights: str | npt.ArrayLike = "identity",
    categories: Sequence[Any] | None = None,
    level: float = 0.95,
    population: float = float("inf"),
) -> pd.DataFrame:
    """Fleiss's kappa, Gwet's AC1/AC2 and Brennan-Prediger, with standard errors.

    Parameters
    ----------
    table : CodingTable
        Coders x units (subjects) of single values; missing ratings allowed.
    coefficients : sequence of {"fleiss", "gwet", "brennan_prediger"}
        Which to compute (``gwet`` is AC1 with identity weights, AC2 otherwise).
    weights : {"identity", "linear", "quadratic"} or array, default="identity"
        See :func:`weight_matrix`.
    categories : sequence, optional
        Every category the raters could choose (see :func:`agreement_table`).
    level : float, default=0.95
        Confidence level of the interval.
    population : float, default=inf
        Number of subjects in the population (finite population correction
        ``f = n / population``).

    Returns
    -------
    DataFrame
        One row per coefficient: ``coefficient`` (``fleiss``, ``ac1`` or, with weights other
        than identity, ``ac2``, ``brennan_prediger``), ``value``, ``se``, ``ci_low``, ``ci_high``,
        ``p_a``, ``p_e``, ``subjects`` (rated at least once), ``weights``.

    Raises
    ------
    ParameterError
        Set values, an unknown coefficient or weights, fewer than two subjects rated twice.

    References
    ----------
    Gwet, K. L. (2008). British Journal of Mathematical and Statistical Psychology 61, 29-48.
    Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed., chapters 5 and 6.

    Examples
    --------
    Two raters, four subjects: (x, x), (x, x), (y, y), (x, y). p_a = 3/4; pi_x = (1 + 1 + 0 +
    1/2) / 4 = 5/8, pi_y = 3/8. Fleiss: p_e = 25/64 + 9/64 = 34/64, kappa = (48/64 - 34/64) /
    (30/64) = 7/15. AC1: p_e = 2 x (5/8)(3/8) = 30/64, AC1 = (48 - 30) / (64 - 30) = 9/17.
    Brennan-Prediger: p_e = 1/2, (3/4 - 1/2) / (1/2) = 1/2.

    >>> t = CodingTable.from_records([(c, u, v) for u, pair in enumerate(["xx", "xx", "yy",
    ...                               "xy"]) for c, v in zip("AB", pair)])
    >>> f = chance_corrected(t)
    >>> [round(v, 6) for v in f["value"]], [7 / 15, 9 / 17, 1 / 2]  # doctest: +NUMBER
    ([0.466667, 0.529412, 0.5], [0.466667, 0.529412, 0.5])
    """
    unknown = [c for c in coefficients if c not in COEFFICIENTS]
    if unknown:
        raise ParameterError(f"unknown coefficients {unknown}; choose among "
                             f"{list(COEFFICIENTS)}")
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise ParameterTypeError(f"level must be between 0 and 1. Got {level!r}.")
    counts, cats = agreement_table(table, categories)
    q = len(cats)
    w = weight_matrix(weights, q, cats)
    r_i = counts.sum(axis=1)
    rated = r_i >= 1
    counts, r_i = counts[rated], r_i[rated]
    n = len(r_i)
    twice = r_i >= 2
    n2 = int(twice.sum())
    if n2 < 2 or q < 2:
        raise ParameterError(f"chance-corrected coefficients need at least two subjects rated "
                             f"twice and two categories; there are {n2} and {q}",
                             params=("metrics",))
    weighted = counts @ w.T  # r*_ik
    pa_i = np.zeros(n)
    denom = r_i[twice] * (r_i[twice] - 1.0)
    pa_i[twice] = (counts[twice] * (weighted[twice] - 1.0)).sum(axis=1) / denom
    p_a = float(pa_i[twice].mean())
    shares = counts / r_i[:, None]
    pi = shares.mean(axis=0)
    t_w = float(w.sum())
    f = n / population if np.isfinite(population) else 0.0
    rows = []
    for name in coefficients:
        if name == "fleiss":
            p_e = float(pi @ w @ pi)
            pe_i = shares @ (w @ pi)  # the subject's share of chance agreement
        elif name == "gwet":
            p_e = t_w / (q * (q - 1.0)) * float(pi @ (1.0 - pi))
            pe_i = t_w / (q * (q - 1.0)) * (shares @ (1.0 - pi))
        else:
            p_e = t_w / (q * q)
            pe_i = np.full(n, p_e)
        value = (p_a - p_e) / (1.0 - p_e) if p_e != 1 else float("nan")
        c_i = np.where(twice, (n / n2) * (pa_i - p_e) / (1.0 - p_e), 0.0)
        c_star = c_i - 2.0 * (1.0 - value) * (pe_i - p_e) / (1.0 - p_e)
        variance = (1.0 - f) / (n * (n - 1.0)) * float(((c_star - value) ** 2).sum())
        se = float(np.sqrt(variance))
        half = float(stats.t.ppf(1.0 - (1.0 - level) / 2.0, n - 1)) * se
        label = ("ac1" if name == "gwet" and (isinstance(weights, str)
                                              and weights == "identity") else
                 "ac2" if name == "gwet" else name)
        rows.append({"coefficient": label, "value": value, "se": se,
                     "ci_low": value - half, "ci_high": min(1.0, value + half), "p_a": p_a,
                     "p_e": p_e, "subjects": n,
                     "weights": weights if isinstance(weights, str) else "matrix"})
    return pd.DataFrame(rows)
