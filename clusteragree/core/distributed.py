"""Alpha and the kappa family over a dask DataFrame in the long layout, reduced exactly.

Every statistic here adds across disjoint sets of units (:class:`ValueStats` for alpha,
:class:`~clusteragree.core.kappa_stats.KappaStats` and
:class:`~clusteragree.core.kappa_stats.SubjectStats` for the kappa family) but needs all the
values of a unit together. The frame is read twice:

1. each partition reports the smallest and largest unit it holds;
2. each partition keeps the rows whose unit lies outside every *other* partition's range (its
   units are wholly inside it) and computes their statistics with the in-memory engine; the
   other rows (units that may straddle partitions) are sent to buckets by a hash of the unit,
   so that all the rows of a unit meet in one bucket, whose statistics are computed likewise.

The statistics of the partitions and of the buckets are then summed in a tree. The sum is the
statistics of the whole frame whatever the partitioning: a unit is counted either in the one
partition that holds all its rows or in the one bucket that receives them all. When the data
are sorted by unit only the units at the edges of the partitions travel; when they are not (or
the units cannot be ordered) every row goes through the buckets, which is a full shuffle.

Categories and values are keyed by the value itself, never by a partition's local codes, so
equal values seen in different partitions merge. Values are scalars (numbers, strings,
categoricals) or, with ``sep``, label sets split from strings; list columns are refused.
Weights other than identity for Gwet's framework are refused (see
:mod:`~clusteragree.core.kappa_stats`).

dask is an optional dependency: ``pip install "clusteragree[dask]"``.

References
----------
Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
Communication Departmental Papers 43. (The coincidences, sums over units.)

docs/scale.md (running on a cluster; what is exact and why; measurements).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ClusterAgreeError, InputError, ParameterError
from .alpha_generic import ValueStats, value_stats
from .distances import DistanceLike, get_distance
from .kappa_stats import KappaStats, SubjectStats, kappa_stats, subject_stats
from .model import CodingTable
from .result import AlphaResult

__all__ = ["DaskStats", "dask_stats"]

INSTALL = 'pip install "clusteragree[dask]"'

#: Buckets for the rows of units that may straddle partitions (at most one per partition).
BUCKETS = 16

#: Partial sums added per task of the final reduction.
FAN_IN = 8

KINDS = ("alpha", "kappa", "gwet")


def _dask() -> Any:
    try:
        import dask
    except ImportError:
        raise ClusterAgreeError(f"the dask backend needs dask, which is not installed: "
                                f"{INSTALL}") from None
    return dask


@dataclass(frozen=True)
class DaskStats:
    """The reduced statistics of a dask frame.

    Attributes
    ----------
    alpha : ValueStats or None
        Marginals and coincidences (``.compute(distance)`` gives alpha).
    kappa : KappaStats or None
        The complete-data kappa family.
    gwet : SubjectStats or None
        Gwet's framework with identity weights.
    coders : frozenset
        The coders with at least one value.
    rows : int
        Rows of the frame.

    References
    ----------
    docs/scale.md ("What is exact, and why").

    Examples
    --------
    Two sets of units add: unit 1 ``(x, x)`` and unit 2 ``(x, y)`` give nominal ``D_o = 2/4``
    and ``D_e = 6/12`` (6 of the 12 ordered pairs of ``x, x, x, y`` differ), so alpha is 0:

    >>> from clusteragree.core.alpha_generic import value_stats
    >>> one = DaskStats(value_stats(CodingTable.from_records([("A", 1, "x"), ("B", 1, "x")])),
    ...                 None, None, frozenset("AB"), 2)
    >>> two = DaskStats(value_stats(CodingTable.from_records([("A", 2, "x"), ("C", 2, "y")])),
    ...                 None, None, frozenset("AC"), 2)
    >>> [(r.alpha, r.units, r.coders) for r in (one + two).alphas(["nominal"])]
    [(0.0, 2, 3)]
    """

    alpha: ValueStats | None
    kappa: KappaStats | None
    gwet: SubjectStats | None
    coders: frozenset[Any]
    rows: int

    def __add__(self, other: DaskStats) -> DaskStats:
        def add(a: Any, b: Any) -> Any:
            return b if a is None else a if b is None else a + b
        return DaskStats(add(self.alpha, other.alpha), add(self.kappa, other.kappa),
                         add(self.gwet, other.gwet), self.coders | other.coders,
                         self.rows + other.rows)

    def alphas(self, distances: Iterable[DistanceLike]) -> list[AlphaResult]:
        """Alpha for each distance (the generic engine's result, ``coders`` counted over the
        whole frame)."""
        if self.alpha is None:
            raise ParameterError("the alpha statistics were not computed (kinds=)")
        if self.alpha.n == 0:
            raise InputError("nothing to compare: no unit was coded by two coders")
        stats = ValueStats(self.alpha.values, self.alpha.counts, self.alpha.pairs,
                           self.alpha.weights, self.alpha.units, len(self.coders),
                           self.alpha.meta)
        return [stats.compute(get_distance(d)) for d in distances]


def _plain(series: pd.Series) -> pd.Series:
    """A categorical column as its values (categories differ between partitions)."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        return series.astype(series.cat.categories.dtype)
    return series


def _bounds(part: pd.DataFrame, unit: str) -> tuple[Any, Any, int] | None:
    """(smallest unit, largest unit, rows); None when the units cannot be ordered."""
    units = _plain(part[unit])
    if len(units) == 0:
        return (None, None, 0)
    if units.isna().any():
        return None  # refused with a message by the in-memory reading of the rows
    try:
        return (units.min(), units.max(), len(units))
    except TypeError:
        return None


def _others(bounds: Sequence[tuple[Any, Any, int] | None], i: int
            ) -> tuple[np.ndarray, np.ndarray] | None:
    """The union of the unit ranges of the partitions other than ``i``, as sorted disjoint
    intervals (lows, highs); None when some range is unknown (every row travels)."""
    ranges = [b for k, b in enumerate(bounds) if k != i and (b is None or b[2] > 0)]
    if any(b is None for b in ranges):
        return None
    try:
        spans = sorted((b[0], b[1]) for b in ranges if b is not None)
    except TypeError:  # partitions whose units are of different types
        return None
    lows: list[Any] = []
    highs: list[Any] = []
    for low, high in spans:
        if highs and low <= highs[-1]:
            highs[-1] = max(highs[-1], high)
        else:
            lows.append(low)
            highs.append(high)
    return np.array(lows, dtype=object), np.array(highs, dtype=object)


def _shared(units: pd.Series, others: tuple[np.ndarray, np.ndarray] | None) -> np.ndarray:
    """Rows whose unit lies in another partition's range (they may straddle partitions)."""
    if others is None:
        return np.ones(len(units), dtype=bool)
    lows, highs = others
    if len(lows) == 0 or len(units) == 0:
        return np.zeros(len(units), dtype=bool)
    values = units.to_numpy()
    if values.dtype != object:  # compare numbers as numbers, not as Python objects
        try:
            typed = lows.astype(values.dtype), highs.astype(values.dtype)
            exact = bool((typed[0] == lows).all() and (typed[1] == highs).all())
        except (TypeError, ValueError, OverflowError):
            exact = False
        if exact:
            lows, highs = typed
        else:
            values = values.astype(object)
    at = np.searchsorted(lows, values, side="right") - 1
    inside = np.zeros(len(values), dtype=bool)
    ok = at >= 0
    inside[ok] = values[ok] <= highs[at[ok]]
    return inside


def _table(part: pd.DataFrame, names: tuple[str, str, str], sep: str | None) -> CodingTable:
    """The in-memory table of rows (categorical columns are read by their values)."""
    coder, unit, value = names
    values = part[value]
    if sep is not None:
        values = _plain(values)
        if values.dtype != object and not pd.api.types.is_string_dtype(values):
            raise InputError(f"label sets are split from text; the column {value!r} holds "
                             f"{values.dtype} (read it as scalar values)")
        values = values.map(lambda text: text if not isinstance(text, str) else frozenset(
            piece.strip() for piece in text.split(sep)) if text else frozenset())
    elif len(values) and values.dtype == object and values.map(
            lambda v: isinstance(v, (list, tuple, set, frozenset, np.ndarray))).any():
        raise InputError(f"the column {value!r} holds lists: the dask backend reads scalar "
                         "values, or label sets split from text with sep")
    frame = pd.DataFrame({"coder": part[coder], "unit": part[unit], "value": values})
    return CodingTable.from_dataframe(frame.reset_index(drop=True))


def _chunk(part: pd.DataFrame, names: tuple[str, str, str], kinds: tuple[str, ...],
           sep: str | None) -> DaskStats:
    """The statistics of rows that hold every row of their units."""
    if len(part) == 0:
        return DaskStats(None, None, None, frozenset(), 0)
    try:
        table = _table(part, names, sep)
    except InputError as err:  # row numbers within a partition would mislead
        text = re.sub(r" \(first at record \d+\)", "", str(err))
        raise InputError(re.sub(r"^(record|row) \d+: ", "", text)) from None
    used = np.asarray((table.codes >= 0).any(axis=1)).tolist()
    coders = frozenset(c for c, on in zip(table.coders, used, strict=True) if on)
    return DaskStats(value_stats(table) if "alpha" in kinds else None,
                     kappa_stats(table) if "kappa" in kinds else None,
                     subject_stats(table) if "gwet" in kinds else None, coders, 0)


def _split(part: pd.DataFrame, others: tuple[np.ndarray, np.ndarray] | None, buckets: int,
           names: tuple[str, str, str], kinds: tuple[str, ...], sep: str | None
           ) -> tuple[DaskStats, list[pd.DataFrame]]:
    """A partition's own units' statistics, and its other rows by bucket."""
    units = _plain(part[names[1]])
    shared = _shared(units, others)
    own = _chunk(part[~shared], names, kinds, sep)
    own = DaskStats(own.alpha, own.kappa, own.gwet, own.coders, len(part))
    if not shared.any() or buckets == 0:
        return own, [part.iloc[:0]] * buckets
    travel = part[shared]
    keys = units[shared].to_numpy()
    if keys.dtype.kind in "iu":  # one hash for a number whatever its width
        keys = keys.astype(np.int64)
    elif keys.dtype.kind == "f":
        keys = keys.astype(np.float64)
    bucket = pd.util.hash_array(keys) % np.uint64(buckets)
    return own, [travel[bucket == b] for b in range(buckets)]


def _bucket(pieces: list[pd.DataFrame], names: tuple[str, str, str], kinds: tuple[str, ...],
            sep: str | None) -> DaskStats:
    frames = [p for p in pieces if len(p)]
    if not frames:
        return DaskStats(None, None, None, frozenset(), 0)
    return _chunk(pd.concat(frames, ignore_index=True), names, kinds, sep)


def _total(parts: list[DaskStats]) -> DaskStats:
    total = parts[0]
    for p in parts[1:]:
        total = total + p
    return total


def _tree(dask: Any, items: list[Any], fan_in: int = FAN_IN) -> Any:
    total = dask.delayed(_total, pure=True)
    while len(items) > 1:
        items = [total(items[k:k + fan_in]) for k in range(0, len(items), fan_in)]
    return items[0]


def dask_stats(frame: Any, kinds: Sequence[str] = ("alpha",), *, coder: str = "coder",
               unit: str = "unit", value: str | None = None, sep: str | None = None,
               buckets: int = BUCKETS,
               compute: Callable[..., Any] | None = None) -> DaskStats:
    """The additive statistics of a dask DataFrame in the long layout, exact for any
    partitioning.

    Parameters
    ----------
    frame : dask DataFrame
        One row per coded cell: the columns ``coder``, ``unit`` and ``value`` (default: the
        first of ``value``, ``labels``, ``label``); NaN/None values are missing. The rows of a
        unit may be in any partitions, in any order.
    kinds : sequence of {"alpha", "kappa", "gwet"}, default=("alpha",)
        The statistics to compute, in one pass: alpha's coincidences, the complete-data kappa
        family, Gwet's framework.
    coder, unit, value : str
        Column names.
    sep : str, optional
        Split text values into label sets at ``sep`` (the empty string is the empty set).
    buckets : int, default=16
        Buckets for the rows of units that may straddle partitions (at most one per
        partition).
    compute : callable, optional
        The function that computes dask objects (default ``dask.compute``, which uses the
        current distributed client if there is one).

    Returns
    -------
    DaskStats
        The summed statistics; ``.alphas(distances)``, ``.kappa.compute()`` and
        ``.gwet.compute(coefficients)`` give the coefficients.

    Raises
    ------
    ClusterAgreeError
        When dask is not installed.
    InputError
        Missing columns, list values, a coder coding a unit twice, missing coders or units
        (the in-memory reading's errors).
    ParameterError
        Unknown kinds.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability.

    docs/scale.md.

    Examples
    --------
    Krippendorff's (2011) 4 coders x 12 units in the long layout, three partitions that cut
    through units: nominal alpha 113/152 = 0.743 as in memory (the synchronous scheduler keeps
    the example quick):

    >>> import dask, dask.dataframe as dd
    >>> data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    ...         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    ...         [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    ...         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None]]
    >>> long = pd.DataFrame([(c, u, v) for c, row in zip("ABCD", data)
    ...                      for u, v in enumerate(row) if v is not None],
    ...                     columns=["coder", "unit", "value"])
    >>> frame = dd.from_pandas(long, npartitions=3, sort=False)
    >>> with dask.config.set(scheduler="synchronous"):
    ...     stats = dask_stats(frame)
    >>> [round(r.alpha, 6) for r in stats.alphas(["nominal", "interval"])]
    [0.743421, 0.849107]
    """
    dask = _dask()
    kinds = tuple(kinds)
    bad = [k for k in kinds if k not in KINDS]
    if bad or not kinds:
        raise ParameterError(f"kinds must be among {list(KINDS)}; got {list(kinds)}")
    columns = list(frame.columns)
    value_col = value if value is not None else next(
        (c for c in ("value", "labels", "label") if c in columns), None)
    if coder not in columns or unit not in columns or value_col not in columns:
        raise InputError(f"the frame needs the columns {coder}, {unit} and {value or 'value'} "
                         f"(or labels, label); it has {columns}")
    assert value_col is not None
    names = (coder, unit, value_col)
    run = compute or dask.compute
    parts = frame[list(names)].to_delayed()
    delayed = dask.delayed
    bounds = run(*[delayed(_bounds, pure=True)(p, unit) for p in parts])
    n_buckets = min(max(int(buckets), 1), len(parts)) if len(parts) > 1 else 0
    split = [delayed(_split, nout=2, pure=True)(p, _others(bounds, i), n_buckets, names, kinds,
                                                sep) for i, p in enumerate(parts)]
    items = [s[0] for s in split]
    for b in range(n_buckets):
        items.append(delayed(_bucket, pure=True)([s[1][b] for s in split], names, kinds, sep))
    (total,) = run(_tree(dask, items))
    result: DaskStats = total
    return result

