"""A document's spans kept as columns: the spans of a large export without an object each.

:class:`SpanColumns` is a read-only sequence of :class:`~clusteragree.exports.model.Span`
(what :attr:`AnnotatedDocument.spans <clusteragree.exports.model.AnnotatedDocument.spans>`
holds, like a tuple): it keeps the offsets and lines as integer arrays and the layers, labels
and features as codes into small tables of the distinct values, and makes a ``Span`` only
when one is asked for. It equals the tuple of the same spans, hashes as it, and every reader
of spans reads it as one; the checks of :mod:`clusteragree.spans.checks` read its columns
without making the spans. A reader of a million-token file (WebAnno TSV) gives it: about 40
bytes a span instead of some 250, and no ``Span`` made unless one is used.

References
----------
docs/formats.md, "WebAnno TSV" under "Performance".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from operator import attrgetter
from typing import Any, TypeGuard, overload

import numpy as np

from .model import Span, new_span

__all__ = ["PairColumns", "SpanColumns", "is_columns", "missing_ids", "span_column",
           "spans_by_id"]


class _AsTuple:
    """Equality and hashing of a sequence that reads as the tuple of its items: equal to that
    tuple and to another such sequence of the same items, hashed as the tuple."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (tuple, _AsTuple)):
            return len(self) == len(other) and tuple(self) == tuple(other)  # type: ignore
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))  # type: ignore


class SpanColumns(_AsTuple, Sequence[Span]):
    """Continuous spans without covered text, as columns.

    Parameters
    ----------
    starts, ends : array of int
        Code-point offsets, end exclusive.
    layers : sequence of str
        The distinct layers; ``layer_codes`` index into it.
    layer_codes : array of int
    labels : sequence of str or None
        The distinct labels; ``label_codes`` index into it.
    label_codes : array of int
    features : sequence of tuple of (str, str)
        The distinct feature tuples; ``feature_codes`` index into it.
    feature_codes : array of int
    lines : array of int
        The line of each span; ``-1`` for none.
    ids : list of str, or a callable giving it
        The spans' ids; a callable is called once, when every id is first asked for.
    id_at : callable, optional
        The id of one span (by its place), without making every id.
    known_ids : set of str, optional
        Ids of some of the spans, known without making every id (:func:`missing_ids`).
    known_rows : callable, optional
        Gives the row of each of ``known_ids`` (the last, for an id given twice), a dict,
        without making every id (:func:`spans_by_id`).

    Examples
    --------
    >>> import numpy as np
    >>> spans = SpanColumns(np.array([0, 5]), np.array([4, 9]), ("ne",), np.array([0, 0]),
    ...                     ("PER", None), np.array([0, 1]), ((),), np.array([0, 0]),
    ...                     np.array([3, -1]), lambda: ["T1", "T2"])
    >>> spans[1] == Span("T2", 5, 9, "ne", None)
    True
    >>> spans == (Span("T1", 0, 4, "ne", "PER", line=3), Span("T2", 5, 9, "ne", None))
    True
    >>> span_column(spans, "label")
    ['PER', None]
    >>> import pickle
    >>> pickle.loads(pickle.dumps(spans)) == spans
    True
    """

    __slots__ = (
        "_id_at",
        "_ids",
        "_known_rows",
        "_make_ids",
        "ends",
        "feature_codes",
        "features",
        "known_ids",
        "label_codes",
        "labels",
        "layer_codes",
        "layers",
        "lines",
        "starts",
    )

    def __init__(self, starts: Any, ends: Any, layers: Sequence[str], layer_codes: Any,
                 labels: Sequence[str | None], label_codes: Any,
                 features: Sequence[tuple[tuple[str, str], ...]], feature_codes: Any,
                 lines: Any, ids: list[str] | Callable[[], list[str]], *,
                 id_at: Callable[[int], str] | None = None,
                 known_ids: frozenset[str] = frozenset(),
                 known_rows: Callable[[], dict[str, int]] | None = None) -> None:
        self.starts = np.asarray(starts, dtype=np.int64)
        self.ends = np.asarray(ends, dtype=np.int64)
        self.layers = tuple(layers)
        self.layer_codes = np.asarray(layer_codes, dtype=np.int64)
        self.labels = tuple(labels)
        self.label_codes = np.asarray(label_codes, dtype=np.int64)
        self.features = tuple(features)
        self.feature_codes = np.asarray(feature_codes, dtype=np.int64)
        self.lines = np.asarray(lines, dtype=np.int64)
        n = len(self.starts)
        if any(len(c) != n for c in (self.ends, self.layer_codes, self.label_codes,
                                     self.feature_codes, self.lines)):
            raise ValueError("the columns of SpanColumns differ in length")
        self._ids: list[str] | None = None if callable(ids) else list(ids)
        self._make_ids = ids if callable(ids) else None
        self._id_at = id_at
        self.known_ids = known_ids
        self._known_rows = known_rows
        if self._ids is not None and len(self._ids) != n:
            raise ValueError("the ids of SpanColumns are not one a span")

    @property
    def ids(self) -> list[str]:
        """The spans' ids (made on first use when given as a callable)."""
        if self._ids is None:
            assert self._make_ids is not None
            made = list(self._make_ids())
            if len(made) != len(self.starts):
                raise ValueError("the ids of SpanColumns are not one a span")
            self._ids, self._make_ids = made, None
        return self._ids

    def __len__(self) -> int:
        return len(self.starts)

    def id_at(self, i: int) -> str:
        """The id of the span ``i`` (without making every id when it can)."""
        if self._ids is None and self._id_at is not None:
            return self._id_at(i)
        return self.ids[i]

    def known_rows(self) -> dict[str, int] | None:
        """The row of each of :attr:`known_ids` (the last, for an id given twice), when the
        reader said how to find them without making every id; None otherwise."""
        return None if self._known_rows is None else self._known_rows()

    def _rows(self, rows: Any, ids: Any = None) -> Iterator[Span]:
        rows = np.asarray(rows, dtype=np.int64)
        if ids is None:
            ids = self.ids if len(rows) != 1 or self._id_at is None else {
                int(rows[0]): self.id_at(int(rows[0]))}
        layers, labels, features = self.layers, self.labels, self.features
        for i, s, e, lc, bc, fc, ln in zip(
                rows.tolist(), self.starts[rows].tolist(), self.ends[rows].tolist(),
                self.layer_codes[rows].tolist(), self.label_codes[rows].tolist(),
                self.feature_codes[rows].tolist(), self.lines[rows].tolist(), strict=True):
            yield new_span(ids[i], s, e, layers[lc], labels[bc], features[fc],
                           line=None if ln < 0 else ln)

    @overload
    def __getitem__(self, index: int) -> Span: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Span, ...]: ...

    def __getitem__(self, index: int | slice) -> Span | tuple[Span, ...]:
        n = len(self)
        if isinstance(index, slice):
            return tuple(self._rows(range(n)[index]))
        i = index.__index__()
        if not -n <= i < n:
            raise IndexError("span index out of range")
        return next(self._rows([i % n]))

    def __iter__(self) -> Iterator[Span]:
        return self._rows(np.arange(len(self)))

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled with its ids made (a callable that makes them may not pickle)
        return (_rebuilt, (self.starts, self.ends, self.layers, self.layer_codes, self.labels,
                           self.label_codes, self.features, self.feature_codes, self.lines,
                           self.ids, self.known_ids))

    def __repr__(self) -> str:
        return f"SpanColumns({len(self)} spans, layers {list(self.layers)!r})"


class PairColumns(_AsTuple, Sequence[tuple[int, int]]):
    """Pairs of integers (a document's token offsets) kept as two arrays: the tuple of the
    pairs, without an object a pair.

    Examples
    --------
    >>> tokens = PairColumns([0, 5], [4, 9])
    >>> tokens[1], tokens == ((0, 4), (5, 9)), list(tokens)
    ((5, 9), True, [(0, 4), (5, 9)])
    """

    __slots__ = ("ends", "starts")

    def __init__(self, starts: Any, ends: Any) -> None:
        self.starts = np.asarray(starts, dtype=np.int64)
        self.ends = np.asarray(ends, dtype=np.int64)
        if self.starts.shape != self.ends.shape or self.starts.ndim != 1:
            raise ValueError("the columns of PairColumns differ in length")

    def __len__(self) -> int:
        return len(self.starts)

    @overload
    def __getitem__(self, index: int) -> tuple[int, int]: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[tuple[int, int], ...]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return tuple(zip(self.starts[index].tolist(), self.ends[index].tolist(),
                             strict=True))
        i = index.__index__()
        if not -len(self) <= i < len(self):
            raise IndexError("pair index out of range")
        return int(self.starts[i]), int(self.ends[i])

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return zip(self.starts.tolist(), self.ends.tolist(), strict=True)

    def __reduce__(self) -> tuple[Any, ...]:
        return (PairColumns, (self.starts, self.ends))

    def __repr__(self) -> str:
        return f"PairColumns({len(self)} pairs)"


def is_columns(spans: Sequence[Span]) -> TypeGuard[SpanColumns]:
    """Whether ``spans`` is a :class:`SpanColumns`: ``isinstance``, without its cost on a
    tuple (an abstract base class's check, a microsecond, for each of a million small
    documents).

    Examples
    --------
    >>> is_columns(()), is_columns([])
    (False, False)
    """
    return type(spans) is not tuple and isinstance(spans, SpanColumns)


def _rebuilt(*args: Any) -> SpanColumns:
    return SpanColumns(*args[:-1], known_ids=args[-1])


def span_column(spans: Sequence[Span], name: str) -> list[Any]:
    """One field of every span, a list (``start``, ``end``, ``layer``, ``label``, ``id``,
    ``line``, ``features``): read from the columns of a :class:`SpanColumns` without making
    its spans, from each span otherwise.

    Examples
    --------
    >>> span_column((Span("T1", 0, 4, "ne", "PER"),), "layer")
    ['ne']
    """
    if is_columns(spans):
        if name == "start":
            return spans.starts.tolist()
        if name == "end":
            return spans.ends.tolist()
        if name == "id":
            return list(spans.ids)
        if name == "line":
            return [None if x < 0 else x for x in spans.lines.tolist()]
        table, codes = {"layer": (spans.layers, spans.layer_codes),
                        "label": (spans.labels, spans.label_codes),
                        "features": (spans.features, spans.feature_codes)}[name]
        return list(map(table.__getitem__, codes.tolist()))
    return list(map(attrgetter(name), spans))


def missing_ids(spans: Sequence[Span], wanted: set[str]) -> set[str]:
    """The ids of ``wanted`` that no span has (the ends of relations and chains checked):
    without making every id of a :class:`SpanColumns` when its known ids hold them all.

    Examples
    --------
    >>> sorted(missing_ids((Span("T1", 0, 4, "ne", "PER"),), {"T1", "T9"}))
    ['T9']
    """
    if is_columns(spans):
        wanted = wanted - spans.known_ids
        if not wanted:
            return set()
    return wanted.difference(span_column(spans, "id"))


def spans_by_id(spans: Sequence[Span], wanted: Iterable[str]) -> dict[str, Span]:
    """The spans of the ids ``wanted`` that ``spans`` has (the last, for an id given twice, as
    ``{s.id: s for s in spans}`` keeps it): a :class:`SpanColumns` makes only those spans when
    its known ids hold them all (a chain's links among a million spans), every span otherwise.

    Examples
    --------
    >>> spans = (Span("T1", 0, 4, "ne", "PER"), Span("T2", 5, 9, "ne", None))
    >>> spans_by_id(spans, {"T2", "T9"})
    {'T2': Span(id='T2', start=5, end=9, layer='ne', label=None, features=(), fragments=(), \
text=None, line=None)}
    """
    wanted = set(wanted)
    if isinstance(spans, SpanColumns) and wanted <= spans.known_ids:
        rows = spans.known_rows()
        if rows is not None:
            return _picked(spans, {i: rows[i] for i in wanted})
    if isinstance(spans, SpanColumns):  # every id made, but only the spans wanted
        return _picked(spans, {x: r for r, x in enumerate(spans.ids) if x in wanted})
    return {s.id: s for s in spans if s.id in wanted}


def _picked(spans: SpanColumns, rows: dict[str, int]) -> dict[str, Span]:
    at = sorted(rows.values())
    ids = {r: i for i, r in rows.items()}
    return {s.id: s for s in spans._rows(at, ids)}
