"""A large JSON Lines export read on several processes: parts of whole lines, each read by a
worker, merged by the caller in the order of the file.

A reader whose work per line splits into what a line alone gives (its spans, tokens and
notices) and what depends on the lines before it (one document per input and annotator, the
last answer read, documents named in order) reads a large file in parts: :func:`line_parts`
cuts it at line ends, a worker reads each part (:func:`read_part`) and gives back its events,
the things that depend on the lines before, in order, with the notices said between them
(:class:`Captured`); the caller replays them in the order of the parts. The values, notices and
errors are those of reading the file in one process: the tests read random exports both ways.

Documents cross between processes as plain tuples (:func:`pack_document`,
:func:`unpack_document`): a frozen dataclass with slots pickles through a Python-level
``__getstate__`` per object, ten times the cost.

References
----------
docs/formats.md, "Performance"; docs/parallel.md.
"""

from __future__ import annotations

import contextlib
import io
import mmap
import os
import warnings
from collections.abc import Iterator
from operator import attrgetter
from typing import Any

import numpy as np

from ..errors import InputWarning, Notice, notify, spelling, strict
from ..inputs import check_encoding
from . import _jsonl_blocks, _records, _token_bytes
from .model import (
    _DOCUMENT_FIELDS,
    _LABEL_FIELDS,
    _RELATION_FIELDS,
    _SPAN_FIELDS,
    AnnotatedDocument,
    Chain,
    Relation,
    Span,
    new_document,
    new_label,
    new_relation,
    new_span,
)

__all__ = ["MERGE_COST", "PART", "SIZE", "START_BYTES", "WORKER_COST", "Captured", "line_parts",
           "own_share", "pack_document", "read_part", "replay", "unpack_document", "wanted",
           "warm"]

#: The size of file from which a reader asked for several processes uses them (a worker pays
#: about a second to start), and the bytes of a part.
SIZE = 64 << 20
PART = 4 << 20


#: The cost of a part read by a worker (made into events, pickled), and of replaying it here,
#: against reading it here; and how much later a worker starts reading than this process
#: (spawned and the package imported, while this process loads the same compiled scans), as
#: the bytes this process reads meanwhile (scripts/bench_exports.py, Prodigy, 100,000 tasks x
#: 3, two cores: about 1.6, 0.3 and half a second, the time of 16 MB; shares of 0.52, 0.565
#: and 0.61 of the file read here took 16.5, 15.1 and 15.9 s).
WORKER_COST, MERGE_COST, START_BYTES = 1.6, 0.3, 16 << 20


def own_share(processes: int, size: int) -> float:
    """The share of a file of ``size`` bytes that this process reads itself, first, so that it
    ends it and replays the workers' parts as the workers end theirs: with ``S`` the reading
    of the whole file here, ``s S + m (1 - s) S = t + w (1 - s) S / (p - 1)``, where ``m`` is
    :data:`MERGE_COST`, ``w`` :data:`WORKER_COST`, ``t`` a worker's start (the reading of
    :data:`START_BYTES` here) and ``p`` the processes. This process also takes back the
    parts no worker has started when it reaches them.

    Examples
    --------
    >>> round(own_share(2, 650 << 20), 2), round(own_share(4, 650 << 20), 2)
    (0.58, 0.21)
    >>> own_share(2, 4 << 20)  # a worker would start after this process has read it all
    1.0
    """
    each = WORKER_COST / max(1, processes - 1)
    start = START_BYTES / max(1, size)
    return min(1.0, max(0.0, (start + each - MERGE_COST) / (1 - MERGE_COST + each)))


def warm(_: object = None) -> None:
    """A worker's first task: load the compiled scans, so that its first part does not wait
    for them."""
    if _jsonl_blocks.scanner() is not None:
        _token_bytes.KERNEL.get()


def wanted(path: str | os.PathLike[str], processes: int, encoding: str | None) -> bool:
    """Whether a file is read in parts: several processes asked for, the fast path on (orjson,
    UTF-8) and a file of :data:`SIZE` bytes or more."""
    if processes < 2 or not _records.FAST or _records._orjson is None or \
            (check_encoding(encoding) or "utf-8") != "utf-8":  # (as iter_jsonl's fast path)
        return False
    try:
        return os.stat(path).st_size >= SIZE
    except OSError:
        return False


def line_parts(path: str | os.PathLike[str], part: int | None = None
               ) -> list[tuple[int, int, int]]:
    """The file cut into parts of whole lines of about ``part`` bytes (default :data:`PART`):
    ``(start, end, first line)``, the byte range and the number of its first line (a part
    ends after a ``\\n``, or at the end of the file; a line longer than ``part`` is whole).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(delete=False) as f:
    ...     _ = f.write(b"a\\nbb\\nccc\\nd")
    >>> line_parts(f.name, 3)
    [(0, 5, 1), (5, 9, 3), (9, 10, 4)]
    >>> os.unlink(f.name)
    """
    size = part or PART
    out: list[tuple[int, int, int]] = []
    with open(path, "rb") as handle:
        length = os.fstat(handle.fileno()).st_size
        if not length:
            return out
        with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
            start, line = 0, 1
            while start < length:
                end = mapped.find(b"\n", min(start + size, length) - 1) + 1 or length
                out.append((start, end, line))
                view = np.frombuffer(mapped, np.uint8, end - start, start)
                line += int(np.count_nonzero(view == 10))
                del view  # (the map closes only without views on it)
                start = end
    return out


def read_part(path: str | os.PathLike[str], start: int, end: int, first_line: int,
              shared: str | None) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for the lines of bytes ``start`` to ``end`` of a UTF-8 JSON
    Lines file, as :func:`~clusteragree.exports._records.iter_jsonl` gives them (the compiled
    scan whatever the part's size, where numba serves)."""
    with open(path, "rb") as handle:
        handle.seek(start)
        data = handle.read(end - start)
    yield from _records.iter_jsonl(io.BytesIO(data), path, shared=shared,
                                   first_line=first_line, scan=True)


class Captured:
    """Strict reading and the spelling of options as the caller has them (in a worker), and
    the warnings said, kept to be replayed in order among the events (:meth:`events`,
    :meth:`add`; around a part the calling process reads, the warnings alone).

    Examples
    --------
    >>> with Captured(False, None) as captured:
    ...     notify("note", "something", path="x.jsonl", line=2)
    ...     captured.add(("doc", 1))
    >>> captured.events[0][0], captured.events[1]
    ('warning', ('doc', 1))
    """

    def __init__(self, strict_on: bool, options: dict[str, str] | None) -> None:
        self.strict_on, self.options = strict_on, options
        self.events: list[tuple[Any, ...]] = []
        self._stack = contextlib.ExitStack()
        self._caught: list[warnings.WarningMessage] = []

    def __enter__(self) -> Captured:
        stack = self._stack
        stack.enter_context(strict(self.strict_on))
        if self.options is not None:
            stack.enter_context(spelling(self.options))
        self._caught = stack.enter_context(warnings.catch_warnings(record=True))
        warnings.simplefilter("always")
        return self

    def __exit__(self, *exc: object) -> None:
        self._drain()
        self._stack.close()

    def _drain(self) -> None:
        for caught in self._caught:
            message = caught.message
            if isinstance(message, InputWarning):
                self.events.append(("warning", message.notice))
            else:
                self.events.append(("other-warning", caught.category, str(message)))
        self._caught.clear()

    def add(self, event: tuple[Any, ...]) -> None:
        """An event, after the warnings said before it."""
        if self._caught:
            self._drain()
        self.events.append(event)


def replay(event: tuple[Any, ...]) -> bool:
    """Say a warning of a worker's events here (True), or leave the event to the caller
    (False)."""
    kind = event[0]
    if kind == "warning":
        notice: Notice = event[1]
        notify(notice.kind, notice.message, path=notice.file, line=notice.line,
               count=notice.count, stacklevel=3)
        return True
    if kind == "other-warning":
        warnings.warn(event[2], event[1], stacklevel=3)
        return True
    return False


_span_row = attrgetter(*_SPAN_FIELDS)
_span_shape = attrgetter("layer", "line", "features", "fragments", "text")
_span_short = attrgetter("id", "start", "end", "label")
_relation_row = attrgetter(*_RELATION_FIELDS)
_label_row = attrgetter(*_LABEL_FIELDS)
_chain_row = attrgetter("id", "layer", "spans", "label", "line")
_document_row = attrgetter(*_DOCUMENT_FIELDS)


def pack_document(doc: AnnotatedDocument) -> tuple[Any, ...]:
    """The document as plain tuples, for pickling (:func:`unpack_document` makes it again).

    Examples
    --------
    >>> from clusteragree.exports.model import Relation
    >>> doc = AnnotatedDocument("d", "a", "Mary met", tokens=((0, 4),),
    ...     spans=(Span("s1", 0, 4, "label", "PER", line=2),),
    ...     relations=(Relation("s1", "s1", "r", None, 2),),
    ...     chains=(Chain("c", "relations", ("s1",)),), line=2)
    >>> unpack_document(pack_document(doc)) == doc
    True
    """
    row = list(_document_row(doc))
    spans = doc.spans
    shapes = set(map(_span_shape, spans))
    if len(shapes) == 1 and next(iter(shapes))[2:] == ((), (), None):
        # one layer and line, no features, parts or covered text: (layer, line, rows)
        layer, at = next(iter(shapes))[:2]
        row[5] = (layer, at, list(map(_span_short, spans)))
    else:
        row[5] = list(map(_span_row, spans))
    row[6] = list(map(_relation_row, doc.relations))
    row[7] = list(map(_chain_row, doc.chains))
    row[8] = list(map(_label_row, doc.labels))
    return tuple(row)


def unpack_document(row: tuple[Any, ...]) -> AnnotatedDocument:
    """The document :func:`pack_document` packed, equal field by field."""
    (name, annotator, text, tokens, sentences, spans, relations, chains, labels, path, line,
     tool) = row
    if type(spans) is tuple:
        layer, at, short = spans
        made = tuple(new_span(span_id, start, end, layer, label, (), None, at)
                     for span_id, start, end, label in short)
    else:
        made = tuple(Span(*row) for row in spans)
    rels = tuple(Relation(*row) if row[5] else new_relation(*row[:5]) for row in relations)
    return new_document(name, annotator, text, tokens, sentences, made, rels,
                        tuple(Chain(*c) for c in chains),
                        tuple(new_label(*lab) for lab in labels), path, line, tool)
