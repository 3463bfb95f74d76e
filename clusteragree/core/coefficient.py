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
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from .._lazy import module
from ..errors import InputError, ParameterError, ParameterTypeError, notify, option
from .alpha_classes import CardinalityStats, class_stats
from .alpha_generic import ValueStats, value_stats
from .bootstrap import block_stats, bootstrap_alpha
from .coincidence_bootstrap import krippendorff_bootstrap
from .distances import Distance, DistanceLike, get_distance
from .intervals import FEW_BLOCKS, interval_method
from .model import CodingTable
from .result import AlphaResult

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = module("pandas")

__all__ = ["AlphaResult", "CardinalityStats", "ValueStats", "alpha", "alpha_many", "alpha_stats",
           "as_table", "choose_engine"]

Engine = Literal["auto", "classes", "generic"]
AlphaStats = CardinalityStats | ValueStats


def _check_engine(engine: str) -> None:
    if engine not in ("auto", "classes", "generic"):
        raise ParameterError(
            f"The 'engine' parameter of alpha must be one of 'auto', 'classes', 'generic'. "
            f"Got {engine!r}.", params=("engine",))


def as_table(table: Any, what: str = "table") -> CodingTable:
    """A :class:`CodingTable` from what ``alpha`` accepts, or a precise refusal.

    A CodingTable is used as it is; a 2-D list or numpy array is reliability data, one row per
    coder and one column per unit (:meth:`CodingTable.from_matrix`). A DataFrame is refused: it
    could be long or wide, so say which with :meth:`CodingTable.from_dataframe`.

    Parameters
    ----------
    table : CodingTable, 2-D list or ndarray, shape (coders, units)
        The table, or reliability data with ``None`` or NaN for a missing value (as in
        Krippendorff 2011 and the ``krippendorff`` package).
    what : str, default="table"
        The name of the argument, for the error message.

    Returns
    -------
    CodingTable
        ``table`` itself, or the table of the reliability data (coders and units numbered from
        0).

    Raises
    ------
    ParameterTypeError
        For a DataFrame (say which layout with ``CodingTable.from_dataframe``) and for anything
        else that is neither a CodingTable nor a 2-D list or array.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43. (Reliability data: a
    coders x units matrix with missing values.)

    docs/alpha.md, "Input and missing values".

    Examples
    --------
    Two coders, two units: row 0 is coder 0, so coder 0 gave 1 to unit 0:

    >>> t = as_table([[1, 2], [1, 3]])
    >>> t.n_coders, t.n_units, t.value(0, 0), t.value(1, 1)
    (2, 2, 1, 3)
    >>> as_table(t) is t
    True
    >>> as_table(pd.DataFrame({"coder": ["A"], "unit": [1]}))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.ParameterTypeError: table is a DataFrame, which could hold one row ...
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
    """The engine ``alpha`` uses: ``classes`` or ``generic`` (``auto`` resolved).

    ``auto`` picks the linear-time classes engine when the table is class-derived and the
    distance is a set distance (a function of ``|A|, |B|, |A & B|``), and the generic engine
    otherwise. Both give the same alpha where both apply.

    Parameters
    ----------
    table : CodingTable
        The table to score.
    distance : Distance
        The distance (see :func:`~clusteragree.core.distances.get_distance`).
    engine : {"auto", "classes", "generic"}
        The engine asked for.

    Returns
    -------
    str
        ``"classes"`` or ``"generic"``.

    Raises
    ------
    ParameterError
        If ``engine`` is not one of the three, or ``"classes"`` is asked for a table that is not
        class-derived or a distance that is not a set distance.

    References
    ----------
    docs/alpha.md, "Two engines"; docs/architecture.md (``core/coefficient.py``).

    Examples
    --------
    >>> from clusteragree.core.distances import get_distance
    >>> classes = CodingTable.from_clusterings({"A": [0, 0, 1], "B": [0, 0, 0]})
    >>> records = CodingTable.from_records([("A", 1, {"a"}), ("B", 1, {"a", "b"})])
    >>> [choose_engine(classes, get_distance("masi"), "auto"),
    ...  choose_engine(classes, get_distance("interval"), "auto"),
    ...  choose_engine(classes, get_distance("masi"), "generic"),
    ...  choose_engine(records, get_distance("masi"), "auto")]
    ['classes', 'generic', 'generic', 'generic']
    >>> choose_engine(records, get_distance("masi"), "classes")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.ParameterError: engine='classes' needs a class-derived table ...
    """
    _check_engine(engine)
    if engine == "classes":
        if not table.is_class_derived:
            raise ParameterError(
                f"{option('engine', 'classes')} needs a class-derived table (the other units "
                "of a unit's class, CodingTable.from_clusterings); these values are given as "
                f"they are: use {option('engine', 'generic')} or {option('engine', 'auto')}",
                params=("engine",))
        if distance.kind != "set":
            raise ParameterError(
                f"{option('engine', 'classes')} needs a set distance; {distance.name!r} is a "
                f"{distance.kind} distance: use {option('engine', 'generic')} or "
                f"{option('engine', 'auto')}", params=("engine", "distance"))
        return "classes"
    if engine == "auto" and table.is_class_derived and distance.kind == "set":
        return "classes"
    return "generic"


def alpha_stats(table: CodingTable, *, engine: Engine = "auto", jobs: int | None = 1
                ) -> AlphaStats:
    """The additive statistics of a table, for one or many distances.

    Parameters
    ----------
    table : CodingTable or 2-D list or ndarray
        The table (reliability data is accepted as by :func:`as_table`).
    engine : {"auto", "classes", "generic"}, default="auto"
        ``auto`` gives :class:`CardinalityStats` for class-derived tables (set distances only)
        and :class:`ValueStats` otherwise (any distance).
    jobs : int or None, default=1
        Pairs of coders counted at once by the classes engine (threads; None or 0: one per
        core); the statistics do not depend on it.

    Returns
    -------
    CardinalityStats or ValueStats
        Statistics that add (``+``, ``sum``) across documents; ``.compute(distance)`` gives an
        :class:`AlphaResult`.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43.

    docs/alpha.md, "Statistics that add".

    Examples
    --------
    Two documents of one unit each: coders disagree (x, y) in the first and agree (x, x) in
    the second. Pooled, one unit of two disagrees, so ``D_o = 2/4``; of the 4 * 3 ordered pairs
    of ``x, y, x, x``, 6 are unequal, so ``D_e = 6/12`` and alpha is 0. (Alone, the first
    document has alpha 0, since ``D_o = D_e`` with one unit, and the second none, since
    ``D_e = 0``: the pooled alpha is not a mean of these.)

    >>> docs = [CodingTable.from_records([("A", 1, "x"), ("B", 1, "y")]),
    ...         CodingTable.from_records([("A", 2, "x"), ("B", 2, "x")])]
    >>> pooled = sum(alpha_stats(t) for t in docs)
    >>> round(pooled.compute("nominal").alpha, 4)
    0.0

    A class-derived table gives cardinality statistics unless the generic engine is asked for:

    >>> classes = CodingTable.from_clusterings({"A": [0, 0, 1], "B": [0, 0, 0]})
    >>> type(alpha_stats(classes)).__name__, type(alpha_stats(classes, engine="generic")).__name__
    ('CardinalityStats', 'ValueStats')
    """
    _check_engine(engine)
    table = as_table(table)
    if engine == "classes" or (engine == "auto" and table.is_class_derived):
        return class_stats(table, jobs=jobs)
    return value_stats(table)


def alpha(
    table: CodingTable, distance: DistanceLike = "masi", *, engine: Engine = "auto",
    ci: float | None = None, bootstrap: int = 1000, seed: int | None = None, jobs: int | None = 1,
    resample: str = "units", interval: str | None = None,
) -> AlphaResult:
    """Krippendorff's alpha of a coding table.

    ``alpha = 1 - D_o / D_e`` over the pairable units (coded by at least two coders), with
    Krippendorff's (2011) coincidence form (see the module's description); missing values are
    allowed.

    Parameters
    ----------
    table : CodingTable or 2-D list or ndarray
        Coders x units, missing values allowed; reliability data (one row per coder, ``None``
        or NaN for missing) is accepted as by :func:`as_table`.
    distance : str, Distance or callable, default="masi"
        A name from :data:`clusteragree.core.distances.DISTANCES` (``nominal``, ``jaccard``,
        ``dice``, ``masi``, ``masi_nltk_legacy``, ``masi_dkpro``, ``passonneau2004``,
        ``interval``, ``ratio``, ``ordinal``), a :class:`Distance`, or any ``f(x, y)``.
    engine : {"auto", "classes", "generic"}, default="auto"
        ``auto`` uses the linear-time engine for a class-derived table with a set distance and
        the generic engine otherwise (:func:`choose_engine`); both give the same alpha.
    ci : float, optional
        A confidence level (e.g. 0.95): the result also holds a bootstrap interval over
        resampled units, its standard error, the shares of resamples below 0.667 and 0.8, and
        how it was obtained (``result.uncertainty``, its ``bootstrap`` entry naming the
        method, and why the estimate lies outside its interval when it does;
        :func:`clusteragree.core.bootstrap.bootstrap_alpha`).
        For documents, resample them with :func:`clusteragree.alpha_report`.
    bootstrap : int, default=1000
        Resamples drawn when ``ci`` is given.
    seed : int, optional
        Seed of the resamples.
    jobs : int or None, default=1
        Threads for the statistics of the classes engine (pairs of coders at once) and for the
        bootstrap (None or 0: one per core; the same resamples whatever the number,
        :func:`~clusteragree.core.bootstrap.bootstrap_alpha`).
    resample : {"units", "krippendorff"}, default="units"
        Units drawn with replacement, or pairs of values drawn from the coincidences as
        Hayes and Krippendorff's KALPHA macro does
        (:func:`~clusteragree.core.coincidence_bootstrap.krippendorff_bootstrap`).
    interval : {"bca", "percentile"}, optional
        The interval's method (:func:`~clusteragree.core.intervals.bootstrap_interval`):
        default BCa, and percentile with ``resample="krippendorff"`` (as KALPHA computes it).

    Returns
    -------
    AlphaResult
        ``alpha`` in (-inf, 1], NaN with an :class:`~clusteragree.errors.AlphaUndefinedWarning`
        when there is no pairable value or no expected disagreement; with ``D_o``, ``D_e``,
        ``n`` and a reproducibility ``signature``.

    Raises
    ------
    ParameterError
        For an unknown distance or engine, or an engine that does not apply.
    ParameterTypeError
        If ``table`` is neither a CodingTable nor reliability data.
    InputError
        If the table holds no coded value.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43.

    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and pragmatic
    annotation. Proceedings of LREC 2006, Genoa. (Set values with the Jaccard and MASI distances.)

    docs/alpha.md.

    Examples
    --------
    Two coders, set values. Unit 1 holds ``{a}`` and ``{a, b}``, at Jaccard distance 1/2,
    and unit 2 agrees, so ``D_o = 2 (1/2) / 4 = 1/4``. Over the unordered pairs of the four
    values, ``{a}, {a, b}`` is at 1/2, the four pairs with a ``{c}`` at 1 and ``{c}, {c}`` at 0,
    so ``D_e = 2 (1/2 + 4) / (4 * 3) = 3/4`` and ``alpha = 1 - 1/3 = 2/3``. With MASI the
    first pair is at ``1 - (1/2)(2/3) = 2/3``: ``D_o = 1/3``, ``D_e = 2 (2/3 + 4) / 12 = 7/9``
    and ``alpha = 1 - 3/7 = 4/7``:

    >>> t = CodingTable.from_records([("A", 1, {"a"}), ("B", 1, {"a", "b"}),
    ...                               ("A", 2, {"c"}), ("B", 2, {"c"})])
    >>> round(alpha(t, "jaccard").alpha, 4), round(alpha(t, "masi").alpha, 4)
    (0.6667, 0.5714)

    Reliability data as in the ``krippendorff`` package: the 3 coders x 15 units of the
    Wikipedia article "Krippendorff's alpha" (NaN for missing). Twelve units are pairable,
    with 26 values: seven 1s, four 2s, ten 3s and five 4s. Three units disagree: ``(3, 3, 4)``
    (4 of its 6 ordered pairs, each weighing 1/2), ``(1, 3)`` and ``(3, 4)`` (2 pairs each), so
    nominal ``D_o = 6/26``; ``D_e = (26^2 - 7^2 - 4^2 - 10^2 - 5^2) / (26 * 25) = 486/650`` and
    ``alpha = 1 - 150/486 = 56/81``. The package gives 0.691358 and, interval, 0.810845:

    >>> nan = float("nan")
    >>> data = [[nan, nan, nan, nan, nan, 3, 4, 1, 2, 1, 1, 3, 3, nan, 3],
    ...         [1, nan, 2, 1, 3, 3, 4, 3, nan, nan, nan, nan, nan, nan, nan],
    ...         [nan, nan, 2, 1, 3, 4, 4, nan, 2, 1, 1, 3, 3, nan, 4]]
    >>> result = alpha(data, "nominal")
    >>> result.units, result.n, round(result.alpha, 6), round(56 / 81, 6)
    (12, 26, 0.691358, 0.691358)
    >>> round(alpha(data, "interval").alpha, 6)
    0.810845

    A class-derived table uses the linear-time engine, with the same alpha as the generic one
    (A's values ``{1}, {0}, {}``, B's ``{1, 2}, {0, 2}, {0, 1}``; MASI alpha 1/8, worked out under
    :func:`~clusteragree.core.alpha_classes.class_stats`):

    >>> classes = CodingTable.from_clusterings({"A": [0, 0, 1], "B": [0, 0, 0]})
    >>> fast, slow = alpha(classes, "masi"), alpha(classes, "masi", engine="generic")
    >>> fast.engine, slow.engine, round(fast.alpha, 6), round(slow.alpha, 6)
    ('classes', 'generic', 0.125, 0.125)
    """
    table = as_table(table)
    dist = get_distance(distance)
    chosen = choose_engine(table, dist, engine)
    _has_values(table)
    stats = class_stats(table, jobs=jobs) if chosen == "classes" else value_stats(table)
    result = stats.compute(dist)
    if ci is None:
        return result
    if resample not in ("units", "krippendorff"):
        raise ParameterError(f"resample must be 'units' or 'krippendorff' (documents: "
                             f"alpha_report). Got {resample!r}.", params=("resample",))
    method = interval_method(interval, resample)
    blocks = block_stats(table)
    count = len(blocks.blocks)
    if 2 <= count < FEW_BLOCKS and resample == "units":
        what = str(table.meta.get("units", "units"))
        notify("note", f"the bootstrap resamples {count} {what}: with so few, its interval "
               "is rough (docs/uncertainty.md)")
    drawn = (krippendorff_bootstrap(blocks, dist, n=bootstrap, level=ci, seed=seed,
                                    jobs=jobs) if resample == "krippendorff" else
             bootstrap_alpha(blocks, dist, n=bootstrap, level=ci, seed=seed, jobs=jobs,
                             interval=method))
    if drawn.note:
        notify("note", f"{dist.name} alpha: {drawn.note} (docs/uncertainty.md)")
    return replace(result, uncertainty=drawn.as_dict())


def alpha_many(
    table: CodingTable, distances: Iterable[DistanceLike], *, engine: Engine = "auto",
    jobs: int | None = 1,
) -> list[AlphaResult]:
    """Alpha for several distances, computing each kind of statistics once.

    Parameters
    ----------
    table : CodingTable or 2-D list or ndarray
        As for :func:`alpha`.
    distances : iterable of str, Distance or callable
        The distances, as for :func:`alpha` (a list, not a single name).
    engine : {"auto", "classes", "generic"}, default="auto"
        As for :func:`alpha`, per distance.
    jobs : int or None, default=1
        As for :func:`alpha_stats`.

    Returns
    -------
    list of AlphaResult
        One result per distance, in the order given.

    Raises
    ------
    ParameterTypeError
        If ``distances`` is a single distance rather than a list.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43.

    docs/alpha.md, "Two engines" (the statistics are distance-free).

    Examples
    --------
    The set-valued table of :func:`alpha`: Jaccard 2/3 and MASI 4/7 as worked out there.
    Nominal: unit 1 disagrees, so ``D_o = 2/4``; of the 16 ordered pairs of
    ``{a}, {a, b}, {c}, {c}`` (the value with itself included), ``1 + 1 + 4`` are equal, so
    ``D_e = 10/12`` and ``alpha = 1 - 0.6 = 0.4``:

    >>> t = CodingTable.from_records([("A", 1, {"a"}), ("B", 1, {"a", "b"}),
    ...                               ("A", 2, {"c"}), ("B", 2, {"c"})])
    >>> [(r.distance, round(r.alpha, 4)) for r in alpha_many(t, ["nominal", "jaccard", "masi"])]
    [('nominal', 0.4), ('jaccard', 0.6667), ('masi', 0.5714)]
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
            cache[chosen] = (class_stats(table, jobs=jobs) if chosen == "classes"
                             else value_stats(table))
        results.append(cache[chosen].compute(dist))
    return results
