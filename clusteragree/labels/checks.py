"""What ``validate`` checks in label tables: codings (``coder,unit,labels``), multi-label CSV
and JSON, Parquet codings and INCEpTION's agreement tables.

Level 1 is the reader's (the one ``clusteragree table`` uses, under
:func:`~clusteragree.incidents.read_checked`), and, for the CSV formats, a scan of every row,
so that every malformed row is listed where the reader stops at the first. Levels 2 and 3 look
at the rows as written (a coder coding a unit twice is refused by the reader, so the model
cannot hold it): labels outside a vocabulary, a coder coding a unit twice, empty label fields,
units only one coder coded, and across the coders (the annotators of a table are its coders):
labels only one coder uses, labels that two coders spell differently, coders missing whole
documents.

When the reader accepts a codings CSV, it has no malformed or repeated rows, and the checks
run on the reader's integer codes (:func:`check_coded`, :func:`pool_coded`: numpy over the
rows, Python only per distinct field, label and document) instead of a second, Python scan of
every row; the incidents are the same, in the same order (tests/test_checks_labels.py compares
both paths on random tables and on the fixtures). Files the reader refuses are scanned.

A row of codings is one coder's coding of one unit (its field a set of labels), so two rows
for one coder and unit are an error, as ``table`` says; a row of a multi-label file is one
label, so two rows for one annotator and item are two labels, and only the same label twice is
an error (as :func:`~clusteragree.labels.reader.read_multilabel` says).

References
----------
Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability (reliability data: coders
by units; a unit coded by one coder is not pairable).

docs/validate.md (every test); docs/multilabel.md, "Reading" (the formats and their checks).

Examples
--------
>>> rows = Rows()
>>> for coder, unit, labels in [("A", "1", ("x",)), ("B", "1", ("x",)), ("A", "1", ("y",)),
...                             ("A", "2", ("z",))]:
...     rows.add(None, coder, unit, labels, None)
>>> [i.test_id for i in check_rows(rows, "t.csv", vocabulary=["x", "y"])]
['labels-vocabulary', 'labels-coded-twice', 'labels-unit-one-coder']
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Hashable, Iterator, Sequence
from functools import partial
from typing import Any

import numpy as np

from ..errors import InputError, Ledger
from ..exports.agreement_csv import read_agreement_csv
from ..incidents import Incident, Test, read_checked, register
from ..inputs import csv_rows, decode, load_json, read_bytes
from .exports import codings_from_agreement
from .model import MultiLabel
from .parquet import parquet_parts, read_parquet_table, read_part
from .reader import read_multilabel, read_multilabel_rows
from .table import VALUE_COLUMNS, CodingRows, read_long_rows, read_long_table

__all__ = ["Pool", "Rows", "check_across", "check_coded", "check_rows", "parquet_rows",
           "pool_coded", "rows_of_model", "validate_inputs"]

_D = "labels"
_CODINGS = ("codings", "parquet", "inception-agreement")
_MULTI = ("multilabel-csv", "multilabel-json")

register(
    Test("labels-malformed-row", 1, "error", _D, "a row the reader cannot read: the wrong "
         "number of fields, an empty coder or unit, an empty label between separators; "
         "every such row", ("codings", "multilabel-csv")),
    Test("labels-vocabulary", 2, "error", _D, "a label outside the vocabulary given "
         "(--vocabulary); one per label, counting its rows"),
    Test("labels-coded-twice", 2, "error", _D, "codings: a coder codes a unit (of a document) "
         "in two rows; multi-label files: an annotator gives an item the same label twice"),
    Test("labels-empty-label", 2, "error", _D, "multi-label files: a row whose label is empty "
         "(a row gives one label; leave it out instead)", _MULTI),
    Test("labels-empty-set", 2, "information", _D, "codings: a labels field left empty, read "
         "as the empty set (a missing coding has no row)", _CODINGS),
    Test("labels-unit-one-coder", 2, "information", _D, "units (items) coded by one coder "
         "only, which agreement cannot pair; one per document, counting its units"),
    Test("labels-label-one-coder", 3, "information", _D, "labels only one coder ever uses "
         "(the vocabulary drifts between coders); one per coder, with the labels"),
    Test("labels-label-variant", 3, "warning", _D, "labels of different coders that differ "
         "only in case, spaces, hyphens or underscores (one category written two ways?)"),
    Test("labels-coder-missing-document", 3, "warning", _D, "a coder with codings in some "
         "documents and none in a document the other coders coded",
         ("codings", "parquet")),
)


class Rows:
    """Codings as written, one entry per row: document, coder, unit, labels, line.

    ``labels`` is a tuple (empty for an empty field); multi-label files give one label per
    row. Parallel lists, so that a million rows stay a few lists."""

    def __init__(self, multilabel: bool = False) -> None:
        self.multilabel = multilabel
        self.docs: list[Hashable] = []
        self.coders: list[Hashable] = []
        self.units: list[Hashable] = []
        self.labels: list[tuple[Hashable, ...]] = []
        self.lines: list[int | None] = []
        self.has_documents = False

    def add(self, doc: Hashable, coder: Hashable, unit: Hashable,
            labels: tuple[Hashable, ...], line: int | None) -> None:
        self.docs.append(doc)
        self.coders.append(coder)
        self.units.append(unit)
        self.labels.append(labels)
        self.lines.append(line)

    def __len__(self) -> int:
        return len(self.coders)

    def extend(self, other: Rows) -> None:
        for name in ("docs", "coders", "units", "labels", "lines"):
            getattr(self, name).extend(getattr(other, name))
        self.has_documents = self.has_documents or other.has_documents


def _at(line: int | None) -> str:
    return f"line {line}" if line is not None else "an earlier row"


def check_rows(rows: Rows, file: str | None, *, vocabulary: Sequence[str] | None = None
               ) -> list[Incident]:
    """The level-2 incidents of one input's rows.

    Parameters
    ----------
    rows : Rows
        As :func:`validate_inputs` scans them, or as :func:`rows_of_model` gives them from
        what a reader read.
    file : str or None
        The input, for the incidents.
    vocabulary : sequence of str, optional
        The labels allowed (none checked when not given).

    Returns
    -------
    list of Incident
        Vocabulary, repeated codings, empty labels or fields, units of one coder.

    Examples
    --------
    A multi-label file: two labels of one annotator for one item are two rows, not an error;
    the same label twice is:

    >>> rows = Rows(multilabel=True)
    >>> for annotator, item, label in [("A", "i", "x"), ("A", "i", "y"), ("A", "i", "x"),
    ...                                ("B", "i", "x")]:
    ...     rows.add(None, annotator, item, (label,), None)
    >>> [(i.test_id, i.node) for i in check_rows(rows, "m.csv")]
    [('labels-coded-twice', "A i 'x'")]
    """
    out: list[Incident] = []
    allowed = set(vocabulary) if vocabulary is not None else None
    outside: dict[Hashable, list[Any]] = {}
    first: dict[tuple[Hashable, ...], int | None] = {}
    coders_of: defaultdict[tuple[Hashable, Hashable], set[Hashable]] = defaultdict(set)
    unit_line: dict[tuple[Hashable, Hashable], int | None] = {}
    empty: list[int | None] = []
    for doc, coder, unit, labels, line in zip(rows.docs, rows.coders, rows.units, rows.labels,
                                              rows.lines, strict=True):
        if allowed is not None:
            for label in labels:
                if label not in allowed:
                    seen = outside.setdefault(label, [line, coder, 0])
                    seen[2] += 1
        if rows.multilabel:
            if not labels or (isinstance(labels[0], str) and not labels[0].strip()):
                out.append(Incident("labels-empty-label", f"annotator {coder!r} gives item "
                                    f"{unit!r} an empty label; leave the row out instead",
                                    file, line, None, str(unit), str(coder)))
                continue
            key: tuple[Hashable, ...] = (doc, coder, unit, labels[0])
        else:
            key = (doc, coder, unit)
            if not labels:
                empty.append(line)
        if key in first:
            what = (f"annotator {coder!r} gives item {unit!r} the label {labels[0]!r} again"
                    if rows.multilabel else f"coder {coder!r} codes unit {unit!r} again")
            out.append(Incident("labels-coded-twice", f"{what} (first at {_at(first[key])}); "
                                + ("write each label once" if rows.multilabel else
                                   "keep one row per coder and unit"), file, line,
                                None if doc is None else str(doc),
                                f"{coder} {unit} {labels[0]!r}" if rows.multilabel else
                                f"{coder} {unit}", str(coder)))
        else:
            first[key] = line
        coders_of[(doc, unit)].add(coder)
        unit_line.setdefault((doc, unit), line)
    if empty:
        out.append(Incident("labels-empty-set", f"{len(empty)} labels field(s) left empty, "
                            "read as the empty set (a coding of no label; a missing coding "
                            "has no row)", file, empty[0], count=len(empty)))
    for label, (line, coder, n) in outside.items():
        out.insert(0, Incident("labels-vocabulary", f"label {label!r} is not in the vocabulary "
                               f"({n} row(s); first by {coder!r})", file, line,
                               node=str(label), annotator=str(coder), count=n))
    lonely: defaultdict[Hashable, list[Hashable]] = defaultdict(list)
    for (doc, unit), who in coders_of.items():
        if len(who) == 1:
            lonely[doc].append(unit)
    for doc, units in lonely.items():
        shown = ", ".join(repr(u) for u in units[:5]) + (", ..." if len(units) > 5 else "")
        out.append(Incident("labels-unit-one-coder", f"{len(units)} unit(s) coded by one coder "
                            f"only ({shown}); agreement cannot pair them", file,
                            unit_line[(doc, units[0])], None if doc is None else str(doc),
                            count=len(units)))
    return out


_VARIANT = re.compile(r"[\s_\-]+")


class Pool:
    """What the level-3 checks need of the rows of every input, pooled in file order: who
    uses each label and its first line, the coders in order, the coders of each document.
    Kept by label, coder and document, not by row, so that its memory does not grow with
    the rows.

    Examples
    --------
    >>> rows = Rows()
    >>> rows.add(None, "A", "u1", ("x", "y"), 2)
    >>> rows.add(None, "B", "u1", ("x",), 3)
    >>> pool = Pool()
    >>> pool.add_rows(rows)
    >>> {label: sorted(who) for label, who in pool.users.items()}, pool.first_line
    ({'x': ['A', 'B'], 'y': ['A']}, {'x': 2, 'y': 2})
    """

    def __init__(self) -> None:
        self.users: dict[Hashable, set[Hashable]] = {}
        self.first_line: dict[Hashable, int | None] = {}
        self.coders: dict[Hashable, None] = {}
        self.coded_by: dict[Hashable, set[Hashable]] = {}
        self.has_documents = False

    def add_rows(self, rows: Rows) -> None:
        """Pool the rows of one input (as scanned, or as :func:`rows_of_model` gives them)."""
        users, first_line = self.users, self.first_line
        for coder, labels, line in zip(rows.coders, rows.labels, rows.lines, strict=True):
            for label in labels:
                if isinstance(label, str) and not label.strip():
                    continue  # an empty label: level 2 says so
                who = users.get(label)
                if who is None:
                    users[label] = who = set()
                    first_line[label] = line
                who.add(coder)
        self.coders.update(dict.fromkeys(rows.coders))
        for doc, coder in zip(rows.docs, rows.coders, strict=True):
            self.coded_by.setdefault(doc, set()).add(coder)
        self.has_documents = self.has_documents or rows.has_documents

    def add_label(self, label: Hashable, coders: set[Hashable], line: int | None) -> None:
        """Pool one label, used by ``coders`` and first written at ``line`` (labels added in
        the order they first appear)."""
        if isinstance(label, str) and not label.strip():
            return
        who = self.users.get(label)
        if who is None:
            self.users[label] = who = set()
            self.first_line[label] = line
        who |= coders


def check_across(rows: Rows | Pool, file: str | None) -> list[Incident]:
    """The level-3 incidents across the coders of ``rows`` (one input, or several pooled).

    Examples
    --------
    B alone writes ``Positive``, which A writes ``positive``; C alone uses ``other``:

    >>> rows = Rows()
    >>> for coder, label in [("A", "positive"), ("B", "Positive"), ("C", "other"),
    ...                      ("C", "positive")]:
    ...     rows.add(None, coder, "u1", (label,), None)
    >>> [(i.test_id, i.annotator) for i in check_across(rows, "t.csv")]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('labels-label-one-coder', 'B'), ('labels-label-one-coder', 'C'),
     ('labels-label-variant', 'B')]
    """
    if isinstance(rows, Rows):
        pool = Pool()
        pool.add_rows(rows)
    else:
        pool = rows
    out: list[Incident] = []
    users, first_line = pool.users, pool.first_line
    coders = list(pool.coders)
    if len(coders) < 2:
        return out
    private: defaultdict[Hashable, list[Hashable]] = defaultdict(list)
    for label, who in users.items():
        if len(who) == 1:
            private[next(iter(who))].append(label)
    for coder in coders:
        mine = private.get(coder)
        if mine:
            out.append(Incident("labels-label-one-coder", f"coder {coder!r} alone uses the "
                                f"label(s) {', '.join(repr(x) for x in mine[:10])}"
                                + (f" and {len(mine) - 10} more" if len(mine) > 10 else ""),
                                file, first_line[mine[0]], annotator=str(coder),
                                count=len(mine)))
    spelled: defaultdict[str, list[Hashable]] = defaultdict(list)
    for label in users:
        if isinstance(label, str):
            spelled[_VARIANT.sub(" ", label).strip().casefold()].append(label)
    for variants in spelled.values():
        if len(variants) < 2:
            continue
        for label in variants[1:]:
            if users[label] == users[variants[0]]:
                continue  # one coder's own spellings are not drift between coders
            names = sorted(map(str, users[label]))
            out.append(Incident("labels-label-variant", f"label {label!r} (coder(s) "
                                f"{', '.join(names)}) and {variants[0]!r} (coder(s) "
                                f"{', '.join(sorted(map(str, users[variants[0]])))}) differ "
                                "only in case, spaces, hyphens or underscores",
                                file, first_line[label], node=str(label), annotator=names[0]))
    if pool.has_documents:
        coded_by = pool.coded_by
        for coder in coders:
            for doc, who in coded_by.items():
                if coder not in who and len(who) >= 1:
                    out.append(Incident("labels-coder-missing-document", f"coder {coder!r} "
                                        f"has no coding in document {doc!r}, which "
                                        f"{len(who)} other coder(s) coded", file,
                                        sentence=str(doc), annotator=str(coder)))
    return out


# --- the same checks on the reader's codes (codings the reader accepted)


def _firsts(codes: np.ndarray, n: int) -> np.ndarray:
    """The first row of each code below ``n`` (``len(codes)`` for a code no row has)."""
    first = np.full(n, len(codes), dtype=np.int64)
    distinct, at = np.unique(codes, return_index=True)
    first[distinct] = at
    return first


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values of an integer array, sorted (by a sort: ``np.unique`` without
    ``return_index`` hashes in numpy 2.4, some fifty times slower on a million int64)."""
    ordered = np.sort(values)
    if len(ordered) < 2:
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


def _line_of(rows: CodingRows) -> Any:
    """The line of a row (None for rows without lines: Parquet)."""
    lines = rows.line
    if lines is None:
        return lambda row: None
    return lambda row: int(lines[row])


def parquet_rows(path: str) -> CodingRows | None:
    """The rows of a Parquet input as :class:`~clusteragree.labels.table.CodingRows` (no
    lines; the rows whose value is null left out, as the row scan leaves them), for
    :func:`check_coded` and :func:`pool_coded`; None when a column holds what the scan would
    read differently (values other than text; coders, units or documents other than text or
    whole numbers, or null documents): such inputs are scanned."""
    import pandas as pd

    parts = parquet_parts(path)
    roles = parts.roles
    frames = [read_part(parts, k) for k in range(len(parts.files))]
    frame = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    del frames
    value = frame[roles["value"]].astype(object)
    if pd.api.types.infer_dtype(value, skipna=True) != "string":
        return None
    keep = value.notna().to_numpy()
    columns = {}
    for role in ("document", "coder", "unit"):
        if role not in roles:
            continue
        column = frame[roles[role]][keep]
        kind = pd.api.types.infer_dtype(column, skipna=False)
        if kind not in ("string", "integer", "empty"):
            return None
        codes, uniques = pd.factorize(column.astype(object), use_na_sentinel=True)
        if (codes < 0).any():
            return None
        columns[role] = (codes.astype(np.int32), list(uniques.tolist()))
    codes, uniques = pd.factorize(value[keep], use_na_sentinel=True)
    n = int(keep.sum())
    doc = columns.get("document", (np.zeros(n, dtype=np.int32), None))
    return CodingRows(doc[0], columns["coder"][0], columns["unit"][0], codes.astype(np.int32),
                      None, doc[1], columns["coder"][1], columns["unit"][1],
                      [t.strip() for t in uniques.tolist()])


class _Fields:
    """The distinct labels fields of :class:`~clusteragree.labels.table.CodingRows` split
    into labels as the row scan splits them, with the first row and the rows of each."""

    def __init__(self, rows: CodingRows, sep: str | None) -> None:
        n = len(rows.fields)
        self.count = np.bincount(rows.field, minlength=n)
        self.first = _firsts(rows.field, n)
        self.used = [k for k in np.argsort(self.first, kind="stable").tolist()
                     if self.count[k]]  # in order of first appearance
        # (a field the scan would refuse, None, cannot be here: the reader refused it)
        self.labels = {k: _split(rows.fields[k], sep) or () for k in self.used}

    def in_order(self) -> Iterator[tuple[int, int, str]]:
        """(first row, field, label) of each label at its first appearance, in file order."""
        seen: set[str] = set()
        for k in self.used:
            for label in self.labels[k]:
                if label not in seen:
                    seen.add(label)
                    yield int(self.first[k]), k, label


def check_coded(rows: CodingRows, file: str | None, *, sep: str | None = None,
                vocabulary: Sequence[str] | None = None) -> list[Incident]:
    """:func:`check_rows` on the rows of a codings CSV the reader accepted (or of a
    multi-label CSV it read by columns, with ``sep="none"``), by their codes
    (a pass of numpy over the rows, Python only per distinct field, label, document and
    lonely unit): the same incidents, in the same order.

    The reader accepted the rows, so none repeats a coder and unit of a document (in a
    multi-label file: an annotator's label for an item), no label is empty and every field
    splits into labels: only the vocabulary, empty fields and units of one coder can fire.

    Examples
    --------
    >>> import io
    >>> from clusteragree.labels.table import read_long_rows
    >>> text = "coder,unit,labels\\nA,1,x\\nB,1,x;z\\nA,2,\\n"
    >>> _, coded = read_long_rows(io.StringIO(text))
    >>> [(i.test_id, i.line, i.count) for i in check_coded(coded, "t.csv", vocabulary=["x"])]
    [('labels-vocabulary', 3, 1), ('labels-empty-set', 4, 1), ('labels-unit-one-coder', 4, 1)]
    """
    out: list[Incident] = []
    fields = _Fields(rows, sep)
    line = _line_of(rows)
    if vocabulary is not None:
        allowed = set(vocabulary)
        n_of: dict[Hashable, int] = {}
        for k in fields.used:
            for label in fields.labels[k]:
                if label not in allowed:
                    n_of[label] = n_of.get(label, 0) + int(fields.count[k])
        for row, _, label in fields.in_order():
            if label in n_of:
                out.insert(0, Incident("labels-vocabulary", f"label {label!r} is not in the "
                                       f"vocabulary ({n_of[label]} row(s); first by "
                                       f"{rows.coders[int(rows.coder[row])]!r})", file,
                                       line(row), node=str(label),
                                       annotator=str(rows.coders[int(rows.coder[row])]),
                                       count=n_of[label]))
    empty = [k for k in fields.used if not fields.labels[k]]
    if empty:
        n = int(sum(int(fields.count[k]) for k in empty))
        row = int(min(fields.first[k] for k in empty))
        out.append(Incident("labels-empty-set", f"{n} labels field(s) left empty, read as the "
                            "empty set (a coding of no label; a missing coding has no row)",
                            file, line(row), count=n))
    key = rows.doc.astype(np.int64) * len(rows.units) + rows.unit
    _, at, inverse = np.unique(key, return_index=True, return_inverse=True)
    del key
    # the coders of each unit (of a document); a multi-label file gives a coder's unit a row
    # per label
    coded = _distinct(inverse.reshape(-1).astype(np.int64) * len(rows.coders) + rows.coder)
    n_coders = np.bincount(coded // len(rows.coders), minlength=len(at))
    del inverse, coded
    lonely = np.sort(at[n_coders == 1])
    if len(lonely):
        docs = rows.doc[lonely]
        distinct, first = np.unique(docs, return_index=True)
        for d in distinct[np.argsort(first, kind="stable")].tolist():
            mine = lonely[docs == d]
            units = [rows.units[u] for u in rows.unit[mine[:5]].tolist()]
            shown = ", ".join(repr(u) for u in units) + (", ..." if len(mine) > 5 else "")
            out.append(Incident("labels-unit-one-coder", f"{len(mine)} unit(s) coded by one "
                                f"coder only ({shown}); agreement cannot pair them", file,
                                line(int(mine[0])),
                                None if rows.docs is None else str(rows.docs[d]),
                                count=len(mine)))
    return out


def pool_coded(pool: Pool, rows: CodingRows, sep: str | None = None) -> None:
    """Add the rows of a codings CSV the reader accepted to ``pool``, by their codes, as
    :meth:`Pool.add_rows` adds the scanned rows."""
    fields = _Fields(rows, sep)
    n_c = len(rows.coders)
    pairs = _distinct(rows.field.astype(np.int64) * n_c + rows.coder)
    coders_of: defaultdict[int, set[Hashable]] = defaultdict(set)
    for k, c in zip((pairs // n_c).tolist(), (pairs % n_c).tolist(), strict=True):
        coders_of[k].add(rows.coders[c])
    users: defaultdict[Hashable, set[Hashable]] = defaultdict(set)
    for k in fields.used:
        for label in fields.labels[k]:
            users[label] |= coders_of[k]
    line = _line_of(rows)
    for row, _, label in fields.in_order():
        pool.add_label(label, users[label], line(row))
    first = _firsts(rows.coder, n_c)
    pool.coders.update(dict.fromkeys(rows.coders[c] for c in np.argsort(first, kind="stable")
                                     .tolist() if first[c] < len(rows.coder)))
    docs = rows.docs
    pairs = _distinct(rows.doc.astype(np.int64) * n_c + rows.coder)
    doc_first = _firsts(rows.doc, len(docs) if docs is not None else 1)
    by_doc: defaultdict[int, set[Hashable]] = defaultdict(set)
    for d, c in zip((pairs // n_c).tolist(), (pairs % n_c).tolist(), strict=True):
        by_doc[d].add(rows.coders[c])
    for d in np.argsort(doc_first, kind="stable").tolist():
        if d in by_doc:
            pool.coded_by.setdefault(None if docs is None else docs[d], set()).update(by_doc[d])
    pool.has_documents = pool.has_documents or docs is not None


# --- the rows of each format


def _split(text: str, sep: str | None) -> tuple[str, ...] | None:
    """A codings field as labels (None: an empty label between separators)."""
    if sep == "none":
        return (text,) if text else ()
    if not text:
        return ()
    labels = tuple(piece.strip() for piece in text.split(sep or ";"))
    return None if any(not label for label in labels) else labels


def _scan_codings(path: str, text: str, sep: str | None) -> tuple[Rows, list[Incident]]:
    rows, bad = Rows(), list[Incident]()
    it = csv_rows(text, path)
    try:
        first = next(it, None)
        if first is None:
            return rows, bad
        columns = [h.strip().lower() for h in first[1]]
        value = next((c for c in VALUE_COLUMNS if c in columns), None)
        if "coder" not in columns or "unit" not in columns or value is None:
            return rows, bad  # the reader's refusal says what the header lacks
        ic, iu, iv = columns.index("coder"), columns.index("unit"), columns.index(value)
        idoc = columns.index("document") if "document" in columns else None
        rows.has_documents = idoc is not None
        width = len(columns)
        for line, row in it:
            if len(row) != width:
                bad.append(Incident("labels-malformed-row", f"{len(row)} fields, expected "
                                    f"{width} as in the header; quote a field that contains "
                                    "a comma", path, line))
                continue
            coder, unit = row[ic].strip(), row[iu].strip()
            if not coder or not unit:
                bad.append(Incident("labels-malformed-row",
                                    "empty " + ("coder" if not coder else "unit"), path, line))
                continue
            labels = _split(row[iv].strip(), sep)
            if labels is None:
                bad.append(Incident("labels-malformed-row", f"empty label in {row[iv]!r} "
                                    f"(separator {sep or ';'!r}); remove the extra separator",
                                    path, line))
                continue
            rows.add(row[idoc].strip() if idoc is not None else None, coder, unit, labels,
                     line)
    except InputError:  # an open quote, a bare carriage return: the reader's refusal says
        pass
    return rows, bad


def _scan_multilabel_csv(path: str, text: str, sep: str | None
                         ) -> tuple[Rows, list[Incident]]:
    rows, bad = Rows(multilabel=True), list[Incident]()
    it = csv_rows(text, path)
    try:
        first = next(it, None)
        if first is None:
            return rows, bad
        header = [h.strip().lower() for h in first[1]]
        if header[:3] != ["item", "annotator", "label"]:
            return rows, bad
        for line, row in it:
            if len(row) != len(header):
                bad.append(Incident("labels-malformed-row", f"{len(row)} fields, expected "
                                    f"{len(header)}", path, line))
                continue
            item, annotator, label = (c.strip() for c in row[:3])
            if not item or not annotator:
                bad.append(Incident("labels-malformed-row", f"empty "
                                    f"{'item' if not item else 'annotator'}", path, line))
                continue
            labels = [label] if sep is None or sep == "none" else [
                p.strip() for p in label.split(sep)]
            if len(labels) > 1 and not all(labels):
                bad.append(Incident("labels-malformed-row", f"empty label in {label!r} "
                                    f"(separator {sep!r})", path, line))
                continue
            for one in labels:
                rows.add(None, annotator, item, (one,), line)
    except InputError:
        pass
    return rows, bad


def _scan_multilabel_json(path: str, text: str, sep: str | None) -> Rows:
    rows = Rows(multilabel=True)
    try:
        objects = load_json(text, path)
    except InputError:
        return rows
    if not isinstance(objects, list):
        return rows
    for o in objects:
        if not isinstance(o, dict) or not all(k in o for k in ("item", "annotator", "label")):
            continue
        label = o["label"]
        if label is None or isinstance(label, (list, dict)):
            continue  # a missing label is the reader's notice; a list its refusal
        labels = ([label] if not isinstance(label, str) or sep is None or sep == "none"
                  else [p.strip() for p in label.split(sep)])
        for one in labels:
            rows.add(None, o["annotator"], o["item"], (one,), None)
    return rows


def _scan_parquet(path: str, sep: str | None) -> Rows:
    rows = Rows()
    try:
        parts = parquet_parts(path)
        roles = parts.roles
        rows.has_documents = "document" in roles
        for k in range(len(parts.files)):
            frame = read_part(parts, k)
            docs = (frame[roles["document"]].tolist() if "document" in roles
                    else [None] * len(frame))
            for doc, coder, unit, value in zip(docs, frame[roles["coder"]].tolist(),
                                               frame[roles["unit"]].tolist(),
                                               frame[roles["value"]].tolist(), strict=True):
                if value is None or value != value:
                    continue
                labels = _split(value.strip(), sep) if isinstance(value, str) else (value,)
                if labels is not None:
                    rows.add(doc, coder, unit, labels, None)
    except InputError:
        pass
    return rows


def _scan_agreement(path: str, encoding: str | None, sep: str | None) -> Rows:
    rows = Rows()
    try:
        with Ledger():  # its notices are the reader's, reported at level 1
            read = read_agreement_csv(path, encoding=encoding)
    except InputError:
        return rows
    for coder, unit, label in read:
        if label is None:
            continue
        labels = _split(label, ";" if sep is None else sep)
        if labels is not None:
            rows.add(None, coder, unit, labels, None)
    return rows


def _parquet_rows(path: str) -> CodingRows | None:
    try:
        return parquet_rows(path)
    except InputError:  # (the reader read it: not expected)
        return None


def _read(path: str, input_format: str, encoding: str | None, sep: str | None,
          keep: bool = False) -> Any:
    """What ``clusteragree table`` reads (and its notices and refusal); codings with
    ``keep``: the table and its rows (:func:`~clusteragree.labels.table.read_long_rows`),
    multi-label files with ``keep``: the data and the rows of a CSV read by columns
    (:func:`~clusteragree.labels.reader.read_multilabel_rows`)."""
    if input_format == "codings":
        if keep:
            return read_long_rows(path, sep=";" if sep is None else sep, encoding=encoding)
        return read_long_table(path, sep=";" if sep is None else sep, encoding=encoding)
    if input_format in _MULTI:
        if keep:
            return read_multilabel_rows(path, encoding=encoding, sep=sep,
                                        input_format=input_format.removeprefix("multilabel-"))
        return read_multilabel(path, encoding=encoding,
                               input_format=input_format.removeprefix("multilabel-"), sep=sep)
    if input_format == "parquet":
        return read_parquet_table(path, sep=";" if sep is None else sep)
    import io

    text = codings_from_agreement(read_agreement_csv(path, encoding=encoding),
                                  sep=";" if sep is None else sep, path=path)
    return read_long_table(io.StringIO(text), sep=";" if sep is None else sep, path=path)


def rows_of_model(model: Any) -> Rows:
    """The rows of what a reader read: a
    :class:`~clusteragree.labels.table.LongTable` (codings, Parquet, agreement tables) or a
    :class:`~clusteragree.labels.model.MultiLabel` (no lines: the model keeps none).

    Examples
    --------
    >>> import io
    >>> from clusteragree.labels.table import read_long_table
    >>> long = read_long_table(io.StringIO("coder,unit,labels\\nA,1,x;y\\nB,1,\\n"))
    >>> rows = rows_of_model(long)
    >>> list(zip(rows.coders, rows.units, rows.labels))
    [('A', '1', ('x', 'y')), ('B', '1', ())]
    """
    if isinstance(model, MultiLabel):
        rows = Rows(multilabel=True)
        for (annotator, item), labels in model.cells.items():
            for label in labels:
                rows.add(None, annotator, item, (label,), None)
        return rows
    rows = Rows()
    rows.has_documents = list(model.tables) != [None]
    for doc, table in model.tables.items():
        codes = table.codes
        for i, coder in enumerate(table.coders):
            for j, unit in enumerate(table.units):
                k = int(codes[i, j])
                if k < 0:
                    continue
                value = table.values[k]
                labels = (tuple(sorted(value, key=str)) if isinstance(value, frozenset)
                          else (value,))
                rows.add(doc, coder, unit, labels, None)
    return rows


def validate_inputs(paths: list[str], input_format: str, *, level: int,
                    encoding: str | None, names: Sequence[str] | None,
                    options: dict[str, Any]) -> Iterator[Incident]:
    """Every incident of ``paths`` (label tables of one format) up to ``level``.

    Each input is read by the reader ``clusteragree table`` uses (level 1), its rows scanned
    as written (every malformed row: level 1; level 2), or, for a codings CSV the reader
    accepted, checked on the reader's codes (the same incidents); level 3 pools the rows of
    every input
    and compares the coders (the annotators of a table are its coders, named as written:
    ``names`` is not used). ``options``: ``vocabulary`` (the labels allowed) and ``sep`` (the
    separator of labels in a field, as ``table --sep``).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = pathlib.Path(folder.name, "codings.csv")
    >>> _ = path.write_text("coder,unit,labels\\nA,1,x\\nB,1,x\\nA,1,y\\nB,2\\n")
    >>> [(i.test_id, i.line) for i in validate_inputs([str(path)], "codings", level=2,
    ...                                               encoding=None, names=None, options={})]
    [('labels-malformed-row', 5), ('read-refused', 5), ('labels-coded-twice', 4)]
    >>> folder.cleanup()
    """
    sep = options.get("sep")
    vocabulary = options.get("vocabulary")
    pool = Pool()
    for path in paths:
        path = os.fspath(path)
        model, found = read_checked(path, partial(_read, path, input_format, encoding, sep,
                                                  keep=True))
        coded = None
        split = sep
        if model is not None and input_format in ("codings", *_MULTI):  # (JSON: no lines)
            coded = model[1]
            if input_format in _MULTI:  # one label per row, read whole
                split = "none"
        elif model is not None and input_format == "parquet":
            model = None  # (its tables are not needed beside the rows)
            coded = _parquet_rows(path)
        if coded is not None:
            # the reader accepted every row: the checks run on codes, no scan needed
            yield from found
            if level >= 2:
                yield from check_coded(coded, path, sep=split, vocabulary=vocabulary)
                pool_coded(pool, coded, split)
            del model, coded
            continue
        bad: list[Incident] = []
        rows: Rows | None = None
        if input_format in ("codings", "multilabel-csv", "multilabel-json"):
            try:
                text = decode(read_bytes(path), path, encoding=encoding)
            except InputError:
                text = None
            if text is not None:
                if input_format == "codings":
                    rows, bad = _scan_codings(path, text, sep)
                elif input_format == "multilabel-csv":
                    rows, bad = _scan_multilabel_csv(path, text, sep)
                else:
                    rows = _scan_multilabel_json(path, text, sep)
        elif input_format == "parquet":
            rows = _scan_parquet(path, sep)
        else:
            rows = _scan_agreement(path, encoding, sep)
        yield from bad
        yield from found
        if level < 2 or rows is None:
            continue
        yield from check_rows(rows, path, vocabulary=vocabulary)
        pool.add_rows(rows)
    if level >= 3:
        yield from check_across(pool, paths[0] if len(paths) == 1 else None)
