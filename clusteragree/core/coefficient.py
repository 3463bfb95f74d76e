r"""Krippendorff's alpha: one definition, two engines.

.. math::

    \alpha = 1 - D_o / D_e, \quad
    D_o = \frac{1}{n} \sum_u \frac{1}{m_u - 1} \sum_{i \ne j \in u} d(v_i, v_j), \quad
    D_e = \frac{1}{n (n - 1)} \sum_{i \ne j} d(v_i, v_j)

where ``u`` runs over the pairable units (coded by at least two coders), ``m_u`` is the number of
values in ``u``, ``n`` the number of pairable values, and the last sum runs over all ordered pairs
of distinct pairable values (Krippendorff 2011).

The *generic* engine (:mod:`clusteragree.core.alpha_generic`) works on distinct value types
and takes any distance. The *classes* engine (:mod:`clusteragree.core.alpha_classes`) is exact
and linear in the number of units for class-derived values (a unit's class minus the unit), with
any set distance of the three cardinalities. ``engine="auto"`` picks the classes engine when it
applies. Both engines produce statistics that add across documents; alpha of a corpus is computed
from the summed statistics (pooled), not as a mean of document alphas.

References
----------
Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
Communication Departmental Papers 43.

Examples
--------
>>> from clusteragree import CodingTable, alpha
>>> table = CodingTable.from_clusterings({"A": {"x": 1, "y": 1, "z": 2, "w": 3},
...                                       "B": {"x": 1, "y": 1, "z": 1, "w": 3}})
>>> result = alpha(table, distance="masi")
>>> round(result.alpha, 4), result.n, result.engine
(0.3, 8, 'classes')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..errors import InputError, ParameterError, ParameterTypeError
from .alpha_classes import CardinalityStats, class_stats
from .alpha_generic import ValueStats, value_stats
from .bootstrap import block_stats, bootstrap_alpha
from .distances import Distance, DistanceLike, get_distance
from .model import CodingTable
from .result import AlphaResult

__all__ = ["AlphaResult", "CardinalityStats", "ValueStats", "alpha", "alpha_many", "alpha_stats",
           "as_table", "choose_engine"]

Engine = Literal["auto", "classes", "generic"]
AlphaStats = CardinalityStats | ValueStats


def _check_engine(engine: str) -> None:
    if engine not in ("auto", "classes", "generic"):
        raise ParameterError(
            f"The 'engine' parameter of alpha must be one of 'auto', 'classes', 'generic'. "
            f"Got {engine!r}."
        )


def as_table(table: Any, what: str = "table") -> CodingTable:
    """A :class:`CodingTable` from what ``alpha`` accepts, or a precise refusal.

    A CodingTable is used as it is; a 2-D list or numpy array is reliability data, one row per
    coder and one column per unit (:meth:`CodingTable.from_matrix`). A DataFrame is refused: it
    could be long or wide, so say which with :meth:`CodingTable.from_dataframe`.
    """
    if isinstance(table, CodingTable):
        return table
    if isinstance(table, pd.DataFrame):
        raise ParameterTypeError(
            f"{what} is a DataFrame, which could hold one row per coded cell (long) or one row "
            "per coder (wide): build the table with CodingTable.from_dataframe(df, "
            "layout='long') or layout='wide'")
    if isinstance(table, np.ndarray) or (
            isinstance(table, (list, tuple)) and table
            and all(isinstance(r, (list, tuple, np.ndarray)) for r in table)):
        return CodingTable.from_matrix(table)
    raise ParameterTypeError(
        f"{what} must be a CodingTable (CodingTable.from_records, from_dataframe, "
        "from_clusterings) or reliability data as a 2-D list or array (one row per coder). "
        f"Got {type(table).__name__}.")


def _has_values(table: CodingTable) -> None:
    if not table.present.any():
        raise InputError(
            f"nothing to compare: the table ({table.n_coders} coders x {table.n_units} units) "
            "holds no coded value")


def choose_engine(table: CodingTable, distance: Distance, engine: str) -> str:
    """The engine ``alpha`` uses: ``classes`` or ``generic`` (``auto`` resolved)."""
    _check_engine(engine)
    if engine == "classes":
        if not table.is_class_derived:
            raise ParameterError(
                "The classes engine needs a class-derived table (CodingTable.from_clusterings)."
            )
        if distance.kind != "set":
            raise ParameterError(
                f"The classes engine needs a set distance; {distance.name!r} is a "
                f"{distance.kind} distance. Use engine='generic'."
            )
        return "classes"
    if engine == "auto" and table.is_class_derived and distance.kind == "set":
        return "classes"
    return "generic"


def alpha_stats(table: CodingTable, *, engine: Engine = "auto") -> AlphaStats:
    """The additive statistics of a table, for one or many distances.

    Parameters
    ----------
    table : CodingTable
    engine : {"auto", "classes", "generic"}, default="auto"
        ``auto`` gives :class:`CardinalityStats` for class-derived tables (set distances only)
        and :class:`ValueStats` otherwise (any distance).

    Returns
    -------
    CardinalityStats or ValueStats
        Statistics that add (``+``, ``sum``) across documents; ``.compute(distance)`` gives an
        :class:`AlphaResult`.

    Examples
    --------
    >>> docs = [CodingTable.from_records([("A", 1, "x"), ("B", 1, "y")]),
    ...         CodingTable.from_records([("A", 2, "x"), ("B", 2, "x")])]
    >>> pooled = sum(alpha_stats(t) for t in docs)
    >>> round(pooled.compute("nominal").alpha, 4)
    0.0
    """
    _check_engine(engine)
    table = as_table(table)
    if engine == "classes" or (engine == "auto" and table.is_class_derived):
        return class_stats(table)
    return value_stats(table)


def alpha(
    table: CodingTable, distance: DistanceLike = "masi", *, engine: Engine = "auto",
    ci: float | None = None, bootstrap: int = 1000, seed: int | None = None,
) -> AlphaResult:
    """Krippendorff's alpha of a coding table.

    Parameters
    ----------
    table : CodingTable
        Coders x units, missing values allowed.
    distance : str, Distance or callable, default="masi"
        A name from :data:`clusteragree.core.distances.DISTANCES` (``nominal``, ``jaccard``,
        ``dice``, ``masi``, ``masi_nltk_legacy``, ``masi_dkpro``, ``passonneau2004``,
        ``interval``, ``ratio``, ``ordinal``), a :class:`Distance`, or any ``f(x, y)``.
    engine : {"auto", "classes", "generic"}, default="auto"
    ci : float, optional
        A confidence level (e.g. 0.95): the result also holds a bootstrap percentile interval
        over resampled units, its standard error and the shares of resamples below 0.667 and
        0.8 (``result.uncertainty``; :func:`clusteragree.core.bootstrap.bootstrap_alpha`).
        For documents, resample them with :func:`clusteragree.alpha_report`.
    bootstrap : int, default=1000
        Resamples drawn when ``ci`` is given.
    seed : int, optional
        Seed of the resamples.

    Returns
    -------
    AlphaResult
        ``alpha`` in (-inf, 1], NaN with an :class:`~clusteragree.errors.AlphaUndefinedWarning`
        when there is no pairable value or no expected disagreement; with ``D_o``, ``D_e``,
        ``n`` and a reproducibility ``signature``.

    Examples
    --------
    >>> t = CodingTable.from_records([("A", 1, {"a"}), ("B", 1, {"a", "b"}),
    ...                               ("A", 2, {"c"}), ("B", 2, {"c"})])
    >>> round(alpha(t, "jaccard").alpha, 4)
    0.6667
    """
    table = as_table(table)
    dist = get_distance(distance)
    chosen = choose_engine(table, dist, engine)
    _has_values(table)
    stats = class_stats(table) if chosen == "classes" else value_stats(table)
    result = stats.compute(dist)
    if ci is None:
        return result
    drawn = bootstrap_alpha(block_stats(table), dist, n=bootstrap, level=ci, seed=seed)
    return replace(result, uncertainty=drawn.as_dict())


def alpha_many(
    table: CodingTable, distances: Iterable[DistanceLike], *, engine: Engine = "auto"
) -> list[AlphaResult]:
    """Alpha for several distances, computing each kind of statistics once.

    Examples
    --------
    >>> t = CodingTable.from_records([("A", 1, {"a"}), ("B", 1, {"a", "b"}),
    ...                               ("A", 2, {"c"}), ("B", 2, {"c"})])
    >>> [r.distance for r in alpha_many(t, ["nominal", "masi"])]
    ['nominal', 'masi']
    """
    table = as_table(table)
    if isinstance(distances, (str, Distance)) or not isinstance(distances, Iterable):
        raise ParameterTypeError(
            "distances must be a list of distances (names, Distance objects or callables). "
            f"Got {type(distances).__name__}; for one distance use alpha().")
    _has_values(table)
    cache: dict[str, AlphaStats] = {}
    results = []
    for spec in distances:
        dist = get_distance(spec)
        chosen = choose_engine(table, dist, engine)
        if chosen not in cache:
            cache[chosen] = class_stats(table) if chosen == "classes" else value_stats(table)
        results.append(cache[chosen].compute(dist))
    return results
