"""Alpha and the kappa family over a dask DataFrame in the long layout, reduced exactly.

Every statistic here adds across disjoint sets of units (:class:`ValueStats` for alpha,
:class:`~clusteragree.core.kappa_stats.KappaStats` and
:class:`~clusteragree.core.kappa_stats.SubjectStats` for the kappa family) but needs all the
values of a unit together. A unit is a value of the unit column or, with a document column, a
pair (document, unit), ordered by document, then unit. The frame is read twice:

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

With documents, alpha's statistics are kept per document (they add over the partitions as they
do over units) and pooled as the in-memory report pools them; the kappa family's subjects are
the (document, unit) pairs, as in :func:`~clusteragree.core.diagnostics.combine`.

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

import numbers
import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ClusterAgreeError, InputError, ParameterError, notify
from .alpha_generic import ValueStats, value_stats
from .columns import label_sets
from .distances import DistanceLike, get_distance
from .frames import TOTAL, _report
from .kappa_stats import KappaStats, SubjectStats, kappa_stats, subject_stats
from .model import CodingTable
from .result import AlphaResult

__all__ = ["DaskStats", "dask_stats", "note_nulls"]

INSTALL = 'pip install "clusteragree[dask]"'

#: Buckets for the rows of units that may straddle partitions (at most one per partition).
BUCKETS = 16

#: Partial sums added per task of the final reduction.
FAN_IN = 8

KINDS = ("alpha", "kappa", "gwet")

#: coder, unit, value and document (None: no document column) columns.
Names = tuple[str, str, str, "str | None"]


def _dask() -> Any:
    try:
        import dask
    except ImportError:
        raise ClusterAgreeError(f"the dask backend needs dask, which is not installed: "
                                f"{INSTALL}") from None
    return dask


def _merge(a: Mapping[Any, Any], b: Mapping[Any, Any], add: Callable[[Any, Any], Any]
           ) -> dict[Any, Any]:
    out = dict(a)
    for key, value in b.items():
        out[key] = add(out[key], value) if key in out else value
    return out


@dataclass(frozen=True)
class DaskStats:
    """The reduced statistics of a dask frame.

    Attributes
    ----------
    alpha : ValueStats or None
        Marginals and coincidences (``.compute(distance)`` gives alpha), pooled over the
        documents.
    kappa : KappaStats or None
        The complete-data kappa family.
    gwet : SubjectStats or None
        Gwet's framework with identity weights.
    coders : frozenset
        The coders with at least one value.
    rows : int
        Rows of the frame.
    documents : dict or None
        With a document column: document -> its alpha statistics.
    document_coders : dict
        Document -> the coders with at least one value in it.
    first : dict
        Document -> (partition, row) of its first row: the documents' order.
    missing : int
        Rows whose value is null (missing cells).
    null_documents : int
        Rows whose document is null (read as the document ``''``).

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
    documents: dict[Hashable, ValueStats] | None = None
    document_coders: dict[Hashable, frozenset[Any]] = field(default_factory=dict)
    first: dict[Hashable, tuple[int, int]] = field(default_factory=dict)
    missing: int = 0
    null_documents: int = 0

    def __add__(self, other: DaskStats) -> DaskStats:
        def add(a: Any, b: Any) -> Any:
            return b if a is None else a if b is None else a + b
        documents = None if self.documents is None and other.documents is None else \
            _merge(self.documents or {}, other.documents or {}, add)
        return DaskStats(add(self.alpha, other.alpha), add(self.kappa, other.kappa),
                         add(self.gwet, other.gwet), self.coders | other.coders,
                         self.rows + other.rows, documents,
                         _merge(self.document_coders, other.document_coders, frozenset.union),
                         _merge(self.first, other.first, min), self.missing + other.missing,
                         self.null_documents + other.null_documents)

    def _by_document(self) -> dict[Hashable, ValueStats]:
        """Alpha's statistics of each document in order of first appearance (each with its
        own coders), or of the whole frame under ``None``."""
        if self.alpha is None:
            raise ParameterError("the alpha statistics were not computed (kinds=)")
        if self.alpha.n == 0:
            raise InputError("nothing to compare: no unit was coded by two coders; agreement "
                             "needs the same units coded by at least two coders")
        if self.documents is None:
            return {None: replace(self.alpha, coders=len(self.coders))}
        order = sorted(self.documents, key=lambda d: self.first[d])
        return {d: replace(self.documents[d], coders=len(self.document_coders.get(d, ())))
                for d in order}

    def alphas(self, distances: Iterable[DistanceLike]) -> list[AlphaResult]:
        """Pooled alpha for each distance (the generic engine's result, ``coders`` counted as
        the in-memory report counts them: over the frame, or the most of any document)."""
        pooled = sum(self._by_document().values())
        assert isinstance(pooled, ValueStats)
        return [pooled.compute(get_distance(d)) for d in distances]

    def report(self, distances: Sequence[DistanceLike], per_document: bool = True
               ) -> pd.DataFrame:
        """The rows :func:`~clusteragree.core.frames.alpha_report` gives for the same data:
        one per document and distance (with documents and ``per_document``), then the pooled
        rows, with the same warnings.

        Raises
        ------
        InputError
            When no unit was coded by two coders.
        """
        stats = self._by_document()
        dists = [get_distance(d) for d in distances]
        if self.documents is None:
            stats, per_document = {TOTAL: stats[None]}, False
        return _report({}, dists, {d.name: "generic" for d in dists}, {"generic": stats},
                       per_document, None, 0, None, "auto", 1)


def _plain(series: pd.Series) -> pd.Series:
    """A categorical column as its values (categories differ between partitions)."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        return series.astype(series.cat.categories.dtype)
    return series


def _keys(part: pd.DataFrame, names: Names) -> tuple[pd.Series | None, pd.Series, int]:
    """The documents (a null one read as ``''``), the units, and the null documents."""
    units = _plain(part[names[1]])
    if names[3] is None:
        return None, units, 0
    docs = _plain(part[names[3]])
    null = docs.isna().to_numpy()
    count = int(null.sum())
    if count:
        docs = docs.astype(object).where(~null, "")
    return docs, units, count


Bound = tuple[tuple[Any, ...], tuple[Any, ...], int]


def _bounds(part: pd.DataFrame, names: Names) -> Bound | None:
    """(smallest key, largest key, rows); None when the keys cannot be ordered."""
    docs, units, _ = _keys(part, names)
    if len(units) == 0:
        return ((), (), 0)
    if units.isna().any():
        return None  # refused with a message by the in-memory reading of the rows
    try:
        if docs is None:
            return ((units.min(),), (units.max(),), len(units))
        low, high = docs.min(), docs.max()
        return ((low, units[(docs == low).to_numpy()].min()),
                (high, units[(docs == high).to_numpy()].max()), len(units))
    except TypeError:
        return None


def _others(bounds: Sequence[Bound | None], i: int
            ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]] | None:
    """The union of the key ranges of the partitions other than ``i``, as sorted disjoint
    intervals (lows, highs); None when some range is unknown (every row travels)."""
    ranges = [b for k, b in enumerate(bounds) if k != i and (b is None or b[2] > 0)]
    if any(b is None for b in ranges):
        return None
    try:
        spans = sorted((b[0], b[1]) for b in ranges if b is not None)
        lows: list[tuple[Any, ...]] = []
        highs: list[tuple[Any, ...]] = []
        for low, high in spans:
            if highs and low <= highs[-1]:
                highs[-1] = max(highs[-1], high)
            else:
                lows.append(low)
                highs.append(high)
    except TypeError:  # partitions whose keys are of different types
        return None
    return lows, highs


def _typed(values: np.ndarray, bounds: list[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Values and bounds in one dtype: the values' own when every bound is exact in it (numbers
    compare as numbers), else Python objects."""
    objects = np.empty(len(bounds), dtype=object)
    objects[:] = bounds
    if values.dtype != object:
        try:
            typed = objects.astype(values.dtype)
            if bool((typed == objects).all()):
                return values, typed
        except (TypeError, ValueError, OverflowError):
            pass
        return values.astype(object), objects
    return values, objects


def _inside(docs: np.ndarray | None, units: np.ndarray,
            others: tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]) -> np.ndarray:
    """Whether each key lies in one of the sorted disjoint intervals (lexicographic order on
    (document, unit)). Raises TypeError for keys that do not compare."""
    lows, highs = others
    m = len(lows)
    u, bu = _typed(units, [k[-1] for k in lows] + [k[-1] for k in highs])
    if docs is None:
        pos = np.searchsorted(bu[:m], u, side="right")
        at = pos - 1
        inside = np.zeros(len(u), dtype=bool)
        ok = at >= 0
        inside[ok] = np.asarray(u[ok] <= bu[m:][at[ok]], dtype=bool)
        return inside
    d, bd = _typed(docs, [k[0] for k in lows] + [k[0] for k in highs])
    low_d, high_d, low_u, high_u = bd[:m], bd[m:], bu[:m], bu[m:]
    start = np.searchsorted(low_d, d, side="left")
    stop = np.searchsorted(low_d, d, side="right")
    pos = start.copy()  # lows whose document sorts before the row's, then same-document lows
    tie = np.flatnonzero(stop > start)
    if len(tie):
        block = start[tie] * (m + 1) + stop[tie]
        for key in np.unique(block).tolist():
            rows = tie[block == key]
            a, b = divmod(key, m + 1)
            pos[rows] = a + np.searchsorted(low_u[a:b], u[rows], side="right")
    at = pos - 1
    inside = np.zeros(len(u), dtype=bool)
    rows = np.flatnonzero(at >= 0)
    k = at[rows]
    below = np.asarray(d[rows] < high_d[k], dtype=bool)
    same = np.asarray(d[rows] == high_d[k], dtype=bool)
    inside[rows] = below | (same & np.asarray(u[rows] <= high_u[k], dtype=bool))
    return inside


def _shared(docs: pd.Series | None, units: pd.Series,
            others: tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]] | None) -> np.ndarray:
    """Rows whose key lies in another partition's range (they may straddle partitions)."""
    if others is None:
        return np.ones(len(units), dtype=bool)
    if len(others[0]) == 0 or len(units) == 0:
        return np.zeros(len(units), dtype=bool)
    try:
        return _inside(None if docs is None else docs.to_numpy(), units.to_numpy(), others)
    except TypeError:  # keys that do not compare with the bounds: they all travel
        return np.ones(len(units), dtype=bool)


def _hash(values: np.ndarray) -> np.ndarray:
    """A hash of each value that equal values share whatever their container: a number
    hashes as a float64 (1, 1.0 and True alike), anything else as itself."""
    if values.dtype.kind in "biuf":
        return pd.util.hash_array(values.astype(np.float64) + 0.0)  # + 0.0: -0.0 is 0.0
    values = values.astype(object)
    if pd.api.types.infer_dtype(values, skipna=False) == "string":
        return pd.util.hash_array(values)
    number = np.fromiter((isinstance(v, (numbers.Real, Decimal, np.bool_)) for v in values),
                         dtype=bool, count=len(values))
    out = np.empty(len(values), dtype=np.uint64)
    if number.any():
        out[number] = pd.util.hash_array(values[number].astype(np.float64) + 0.0)
    if not number.all():
        out[~number] = pd.util.hash_array(values[~number])
    return out


def _table(part: pd.DataFrame, names: Names, sep: str | None) -> CodingTable:
    """The in-memory table of rows (categorical columns are read by their values)."""
    coder, unit, value = names[:3]
    values = part[value]
    if sep is not None:
        values = _plain(values)
        if values.dtype != object and not pd.api.types.is_string_dtype(values):
            raise InputError(f"label sets are split from text; the column {value!r} holds "
                             f"{values.dtype} (read it as scalar values)")
        values = label_sets(values, sep)
    elif len(values) and values.dtype == object and values.map(
            lambda v: isinstance(v, (list, tuple, set, frozenset, np.ndarray))).any():
        raise InputError(f"the column {value!r} holds lists: the dask backend reads scalar "
                         "values, or label sets split from text with sep")
    frame = pd.DataFrame({"coder": part[coder], "unit": part[unit], "value": values})
    return CodingTable.from_dataframe(frame.reset_index(drop=True))


def _read(part: pd.DataFrame, names: Names, sep: str | None, doc: Hashable = None
          ) -> CodingTable:
    """:func:`_table`, its errors without row numbers (they would mislead in a partition)."""
    try:
        return _table(part, names, sep)
    except InputError as err:
        text = re.sub(r" \(first at (record|row) \d+\)", "", str(err))
        text = re.sub(r"^(record|row) \d+: ", "", text)
        raise InputError(text if names[3] is None else f"document {doc!r}: {text}") from None


def _used(table: CodingTable) -> frozenset[Any]:
    used = np.asarray((table.codes >= 0).any(axis=1)).tolist()
    return frozenset(c for c, on in zip(table.coders, used, strict=True) if on)


def _chunk(part: pd.DataFrame, names: Names, kinds: tuple[str, ...], sep: str | None
           ) -> DaskStats:
    """The statistics of rows that hold every row of their units."""
    if len(part) == 0:
        return DaskStats(None, None, None, frozenset(), 0)
    if names[3] is None:
        table = _read(part, names, sep)
        return DaskStats(value_stats(table) if "alpha" in kinds else None,
                         *_kappas(table, kinds), _used(table), 0)
    # One table whose units are the (document, unit) pairs, numbered; a document's units are
    # a block of its columns.
    docs = _keys(part, names)[0]
    assert docs is not None
    doc_codes, doc_names = pd.factorize(docs.to_numpy(), sort=False)
    unit_codes, unit_names = pd.factorize(_plain(part[names[1]]).to_numpy(), sort=False)
    pairs = doc_codes.astype(np.int64) * max(len(unit_names), 1) + unit_codes
    try:
        table = _table(part.assign(**{str(names[1]): pairs}), names, sep)
    except InputError:  # the message names the document and the unit, not their number
        rows = np.argsort(doc_codes, kind="stable")
        for group in np.split(rows, np.flatnonzero(np.diff(doc_codes[rows])) + 1):
            _read(part.iloc[group], names, sep, doc_names[doc_codes[group[0]]])
        raise
    doc_of = np.asarray(table.units, dtype=np.int64) // max(len(unit_names), 1)
    order = np.argsort(doc_of, kind="stable")
    labels = doc_names.tolist()  # Python scalars, as the in-memory readers name documents
    per_doc: dict[Hashable, ValueStats] = {}
    coders: dict[Hashable, frozenset[Any]] = {}
    for cols in np.split(order, np.flatnonzero(np.diff(doc_of[order])) + 1):
        doc = labels[int(doc_of[cols[0]])]
        sub = CodingTable(table.coders, table.units[cols], codes=table.codes[:, cols],
                          values=table.values)
        coders[doc] = _used(sub)
        if "alpha" in kinds:
            per_doc[doc] = value_stats(sub)
    return DaskStats(value_stats(table) if "alpha" in kinds else None, *_kappas(table, kinds),
                     _used(table), 0, per_doc if "alpha" in kinds else None, coders)


def _kappas(table: CodingTable, kinds: tuple[str, ...]
            ) -> tuple[KappaStats | None, SubjectStats | None]:
    """The kappa family's statistics of a table; none for rows without a value (null
    values only), which add nothing (and have no kind of value to check)."""
    if not table.values:
        return None, None
    return (kappa_stats(table) if "kappa" in kinds else None,
            subject_stats(table) if "gwet" in kinds else None)


def _split(part: pd.DataFrame, i: int, others: Any, buckets: int, names: Names,
           kinds: tuple[str, ...], sep: str | None) -> tuple[DaskStats, list[pd.DataFrame]]:
    """A partition's own units' statistics, and its other rows by bucket."""
    docs, units, null_docs = _keys(part, names)
    if docs is not None and null_docs:
        part = part.assign(**{str(names[3]): docs})
    shared = _shared(docs, units, others)
    own = _chunk(part[~shared], names, kinds, sep)
    first: dict[Hashable, tuple[int, int]] = {}
    if docs is not None and len(docs):
        codes, uniques = pd.factorize(docs.to_numpy(), sort=False)
        _, at = np.unique(codes, return_index=True)
        first = {doc: (i, row) for doc, row in zip(uniques.tolist(), at.tolist(), strict=True)}
    own = replace(own, rows=len(part), first=first, missing=int(part[names[2]].isna().sum()),
                  null_documents=null_docs,
                  documents=own.documents if own.documents is not None or docs is None
                  else {})
    if not shared.any() or buckets == 0:
        return own, [part.iloc[:0]] * buckets
    travel = part[shared]
    key = _hash(units[shared].to_numpy())
    if docs is not None:
        key = _hash(docs[shared].to_numpy()) * np.uint64(0x9E3779B97F4A7C15) ^ key
    bucket = key % np.uint64(buckets)
    return own, [travel[bucket == b] for b in range(buckets)]


def _bucket(pieces: list[pd.DataFrame], names: Names, kinds: tuple[str, ...],
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


def note_nulls(missing: int, null_documents: int, path: str | None = None) -> None:
    """The notices of null cells, the same for every reader of typed columns: a null
    document is read as the document ``''`` (``converted``), a null value as a missing cell
    (``note``).

    Examples
    --------
    >>> from clusteragree.errors import Ledger
    >>> with Ledger() as ledger:
    ...     note_nulls(2, 0, "codings.parquet")
    >>> [str(n) for n in ledger.notices]  # doctest: +ELLIPSIS
    ['codings.parquet: note: null values are read as missing cells ... (2 times)']
    """
    notify("converted", "a null document is read as the document '' (as the CSV reads an "
           "empty document field); fill the documents in", path=path, count=null_documents)
    notify("note", "null values are read as missing cells (a coder who did not code the "
           "unit)", path=path, count=missing)


def dask_stats(frame: Any, kinds: Sequence[str] = ("alpha",), *, coder: str = "coder",
               unit: str = "unit", value: str | None = None, document: str | None = None,
               sep: str | None = None, buckets: int = BUCKETS,
               compute: Callable[..., Any] | None = None, path: str | None = None
               ) -> DaskStats:
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
    document : str, optional
        The column of the documents: units are (document, unit) pairs, alpha is kept per
        document too (:meth:`DaskStats.report`). A null document is the document ``''``
        (reported, ``converted``).
    sep : str, optional
        Split text values into label sets at ``sep`` (the empty string is the empty set).
    buckets : int, default=16
        Buckets for the rows of units that may straddle partitions (at most one per
        partition).
    compute : callable, optional
        The function that computes dask objects (default ``dask.compute``, which uses the
        current distributed client if there is one).
    path : str, optional
        The input's name in the notices.

    Returns
    -------
    DaskStats
        The summed statistics; ``.alphas(distances)``, ``.report(distances)``,
        ``.kappa.compute()`` and ``.gwet.compute(coefficients)`` give the coefficients. Null
        values are counted (``missing``, and a ``note``).

    Raises
    ------
    ClusterAgreeError
        When dask is not installed.
    InputError
        Missing columns, list values, a coder coding a unit twice, missing coders or units
        (the in-memory reading's errors), an empty label between separators.
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

    The same units in two documents (the first six and the other six), rows shuffled: a row
    per document in order of first appearance (the first row shuffled in is of d1), then the
    pooled row, whose statistics are those of the whole table:

    >>> long["document"] = ["d1" if u < 6 else "d2" for u in long["unit"]]
    >>> frame = dd.from_pandas(long.sample(frac=1, random_state=1), npartitions=3, sort=False)
    >>> with dask.config.set(scheduler="synchronous"):
    ...     stats = dask_stats(frame, document="document")
    >>> report = stats.report(["nominal"])
    >>> report["document"].tolist(), round(float(report["alpha"].iloc[-1]), 6)
    (['d1', 'd2', 'TOTAL'], 0.743421)
    """
    dask = _dask()
    kinds = tuple(kinds)
    bad = [k for k in kinds if k not in KINDS]
    if bad or not kinds:
        raise ParameterError(f"kinds must be among {list(KINDS)}; got {list(kinds)}",
                             params=("kinds",))
    columns = list(frame.columns)
    value_col = value if value is not None else next(
        (c for c in ("value", "labels", "label") if c in columns), None)
    wanted = [coder, unit, value_col] + ([document] if document is not None else [])
    if any(c not in columns for c in wanted):
        raise InputError(f"the frame needs the columns {coder}, {unit} and {value or 'value'} "
                         f"(or labels, label){f' and {document}' if document else ''}; it has "
                         f"{columns}", path=path)
    assert value_col is not None
    names: Names = (coder, unit, value_col, document)
    run = compute or dask.compute
    parts = frame[[c for c in wanted if c is not None]].to_delayed()
    delayed = dask.delayed
    bounds = run(*[delayed(_bounds, pure=True)(p, names) for p in parts])
    n_buckets = min(max(int(buckets), 1), len(parts)) if len(parts) > 1 else 0
    split = [delayed(_split, nout=2, pure=True)(p, i, _others(bounds, i), n_buckets, names,
                                                kinds, sep) for i, p in enumerate(parts)]
    items = [s[0] for s in split]
    for b in range(n_buckets):
        items.append(delayed(_bucket, pure=True)([s[1][b] for s in split], names, kinds, sep))
    (total,) = run(_tree(dask, items))
    result: DaskStats = total
    note_nulls(result.missing, result.null_documents, path)
    return result
