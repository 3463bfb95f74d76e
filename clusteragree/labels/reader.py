"""Reading multi-label data: a long CSV ``item,annotator,label[,rank]`` (or ``,weight``) or a
JSON list of objects with those keys."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from ..errors import InputError, ParameterError, ParameterTypeError, notify, option
from ..inputs import csv_rows, decode, load_json, read_bytes
from .model import MultiLabel
from .reader_fast import Columns, csv_columns, json_columns, multilabel_of_columns
from .table import CodingRows
from .table_fast import FAST_MIN_CHARS

__all__ = ["MULTILABEL_FORMATS", "SET_SEPARATOR", "read_multilabel", "read_multilabel_rows"]


#: Input formats of multi-label files: ``auto`` reads names ending in ``.json`` as JSON.
MULTILABEL_FORMATS = ("auto", "csv", "json")


#: The separator of label sets in the codings format: in a multi-label file, whose rows give
#: one label each, a label holding it is ambiguous (one label, or several joined?).
SET_SEPARATOR = ";"


def read_multilabel(path: str | os.PathLike[str], *, encoding: str | None = None,
                    input_format: str = "auto", sep: str | None = None,
                    fast: bool | None = None) -> MultiLabel:
    """Read a long CSV with the header ``item,annotator,label[,rank]`` (or
    ``item,annotator,label,weight``), or a JSON list of objects with those keys (``.json``).

    A row gives one label. A label that holds ``;`` (:data:`SET_SEPARATOR`, the separator of
    label sets in the codings format) is ambiguous, several labels joined or one label, and
    refused unless ``sep`` says: ``sep=";"`` (any separator) splits every label field into
    labels, ``sep="none"`` keeps each field whole.

    A missing label (an empty JSON ``null``) gives no label and is reported; ranks are the
    integers 1 and 2 (``1.0`` reads as 1, ``1.7`` is refused); numbers in JSON must be finite
    and of at most 18 digits; keys or columns the format does not use are reported
    (``ignored``). Data with fewer than two annotators is refused: there is nothing to compare.

    Parameters
    ----------
    path : str or os.PathLike
        The file; a name ending in ``.json`` is read as JSON, any other as CSV, unless
        ``input_format`` says.
    encoding : str, optional
        The file's encoding (default UTF-8, with or without a byte-order mark).
    input_format : {"auto", "csv", "json"}, default="auto"
        The format of the file (auto: by its name).
    sep : str, optional
        The separator of several labels in one field (each piece stripped; a field with a
        rank or a weight must hold one label); ``"none"``: every field is one label, whatever
        it holds. Default: one label per field, a field holding ``;`` refused.
    fast : bool or None, default=None
        Read plain files by columns (:mod:`clusteragree.labels.reader_fast`): a CSV of the
        header ``item,annotator,label`` without quotes, blank lines or empty fields (read
        with pyarrow when it is installed), or a JSON list of objects with the keys item,
        annotator and label only, whose labels the record-by-record reader would keep as
        they are without a notice. Anything else, and every file with ``fast=False``, is read
        record by record, so the data, notices and errors are the same either way. None: a
        CSV by columns from :data:`~clusteragree.labels.table_fast.FAST_MIN_CHARS`
        characters on (below, loading pyarrow costs more than it saves), a JSON file always.

    Returns
    -------
    MultiLabel
        The labels per annotator and item; ``ranked`` when a rank column or key was given,
        ``weights`` set when the CSV has a weight column.

    Raises
    ------
    InputError
        With the file and line: a wrong header, a wrong number of fields, a rank other than 1
        or 2, a label given twice or differing from another only in case or spaces, weights
        that do not add up to 1, fewer than two annotators, a label holding ``;`` without
        ``sep``, an empty label between separators, and the other checks of
        :meth:`MultiLabel.from_records`.
    ParameterTypeError
        When ``path`` is not a path.

    References
    ----------
    Rosenberg, A. and Binkowski, E. (2004). Augmenting the kappa statistic to determine
    interannotator reliability for multiply labeled data points. HLT-NAACL 2004, short papers,
    pp. 77-80 (primary and secondary labels, section 3; a label's weight, section 5.1).

    Bhowmick, P. K., Mitra, P. and Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. Coling 2008 workshop on
    Human Judgements in Computational Linguistics, pp. 58-65 (several categories per item).

    docs/multilabel.md, section "Reading" (the format and its checks); docs/cli.md
    (``clusteragree table``).

    Examples
    --------
    A CSV with ranks: A labels m1 primarily ``question`` and secondarily ``answer``; B gives one
    label and leaves its rank empty:

    >>> import json, os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "labels.csv")
    ...     with open(path, "w", encoding="utf-8") as f:
    ...         _ = f.write("item,annotator,label,rank\\n"
    ...                     "m1,A,question,1\\nm1,A,answer,2\\nm1,B,question,\\n")
    ...     data = read_multilabel(path)
    >>> data.labels("A", "m1"), data.labels("B", "m1"), data.ranked
    (('question', 'answer'), ('question',), True)

    The same kind of data as JSON, one object per label (no ranks here):

    >>> records = [{"item": "s1", "annotator": "u1", "label": "anger"},
    ...            {"item": "s1", "annotator": "u1", "label": "disgust"},
    ...            {"item": "s1", "annotator": "u2", "label": "anger"}]
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "labels.json")
    ...     with open(path, "w", encoding="utf-8") as f:
    ...         json.dump(records, f)
    ...     data = read_multilabel(path)
    >>> data.labels("u1", "s1"), data.labels("u2", "s1"), data.ranked
    (('anger', 'disgust'), ('anger',), False)

    Labels joined by ``;`` in one field: refused as ambiguous, read as several with ``sep``:

    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "joined.csv")
    ...     with open(path, "w", encoding="utf-8") as f:
    ...         _ = f.write("item,annotator,label\\ni1,A,PER;ORG\\ni1,B,PER\\n")
    ...     try:
    ...         read_multilabel(path)
    ...     except InputError as err:
    ...         print(err.message)  # doctest: +ELLIPSIS
    ...     data = read_multilabel(path, sep=";")
    label 'PER;ORG' holds ';', which separates the labels of a set: ...
    >>> data.labels("A", "i1")
    ('ORG', 'PER')
    """
    return read_multilabel_rows(path, encoding=encoding, input_format=input_format, sep=sep,
                                fast=fast)[0]


def read_multilabel_rows(path: str | os.PathLike[str], *, encoding: str | None = None,
                         input_format: str = "auto", sep: str | None = None,
                         fast: bool | None = None) -> tuple[MultiLabel, CodingRows | None]:
    """:func:`read_multilabel`, and the rows of a CSV it read by columns.

    Returns
    -------
    (MultiLabel, CodingRows or None)
        The data, and for a file read by columns its rows in file order, one label each, as
        :class:`~clusteragree.labels.table.CodingRows` (annotators as coders, items as units,
        labels as fields, no documents; no lines for JSON), what ``clusteragree validate``
        checks without reading the file again; None for a file read record by record.

    References
    ----------
    docs/validate.md; docs/multilabel.md, "Reading".

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "labels.csv")
    ...     with open(path, "w", encoding="utf-8") as f:
    ...         _ = f.write("item,annotator,label\\nm1,A,x\\nm1,A,y\\nm1,B,x\\n")
    ...     data, rows = read_multilabel_rows(path, fast=True)
    >>> data.labels("A", "m1"), rows.coders, rows.fields, rows.line.tolist()
    (('x', 'y'), ['A', 'B'], ['x', 'y'], [2, 3, 4])
    """
    if not isinstance(path, (str, os.PathLike)):
        raise ParameterTypeError(f"path must be a file path. Got {type(path).__name__}.")
    if input_format not in MULTILABEL_FORMATS:
        raise ParameterError(f"input_format must be one of {', '.join(MULTILABEL_FORMATS)}. "
                             f"Got {input_format!r}.")
    if sep is not None and (not isinstance(sep, str) or not sep):
        raise ParameterError(f"sep must be a non-empty string or 'none'. Got {sep!r}.",
                             params=("sep",))
    name = os.fspath(path)
    text = decode(read_bytes(name), name, encoding=encoding)
    as_json = input_format == "json" or (input_format == "auto" and name.endswith(".json"))
    data, rows = (_read_json(text, name, sep, fast) if as_json
                  else _read_csv(text, name, sep, fast))
    if len(data.annotators) < 2:
        raise InputError(
            f"nothing to compare: {len(data.annotators)} annotator(s) "
            f"({', '.join(map(str, data.annotators))}); agreement needs the labels of two or "
            "more annotators on the same items", path=name)
    return data, rows


_KEYS = ("item", "annotator", "label", "rank")


def _labels_of(label: Any, sep: str | None, name: str, line: int | None, where: str
               ) -> list[Any]:
    """The labels of one label field: split on ``sep``; whole with ``"none"``; without
    ``sep``, whole unless it holds the separator of label sets (ambiguous: refused)."""
    if not isinstance(label, str) or sep == "none":
        return [label]
    if sep is None:
        if SET_SEPARATOR in label:
            raise InputError(
                f"{where}label {label!r} holds {SET_SEPARATOR!r}, which separates the labels "
                f"of a set: read it as several labels with {option('sep', SET_SEPARATOR)}, or "
                f"as one label with {option('sep', 'none')}", path=name, line=line)
        return [label]
    pieces = [piece.strip() for piece in label.split(sep)]
    if len(pieces) > 1 and any(not piece for piece in pieces):
        raise InputError(f"{where}empty label in {label!r} (separator {sep!r}); remove the "
                         "extra separator", path=name, line=line)
    return pieces


def _split(records: list[tuple[Any, ...]], lines: list[int | None], sep: str | None,
           name: str, what: str) -> tuple[list[tuple[Any, ...]], list[int | None]]:
    """Records of one label each: every label field read by :func:`_labels_of`; a field of
    several labels with a rank or a weight is refused (each row ranks or weighs one
    label)."""
    out: list[tuple[Any, ...]] = []
    out_lines: list[int | None] = []
    for pos, (record, line) in enumerate(zip(records, lines, strict=True), start=1):
        where = "" if line is not None else f"object {pos}: "
        labels = _labels_of(record[2], sep, name, line, where)
        if len(labels) > 1 and len(record) > 3 and record[3] is not None:
            raise InputError(
                f"{where}{len(labels)} labels in {record[2]!r} with the {what} {record[3]!r}; "
                f"a {what} belongs to one label: write one row per label", path=name,
                line=line)
        for label in labels:
            out.append((*record[:2], label, *record[3:]))
            out_lines.append(line)
    return out, out_lines


def _read_json(text: str, name: str, sep: str | None = None, fast: bool | None = None
               ) -> tuple[MultiLabel, CodingRows | None]:
    objects = load_json(text, name)
    if fast is not False:
        columns = json_columns(objects)
        data = None if columns is None else multilabel_of_columns(columns, sep)
        if columns is not None and data is not None:
            return data, _coding_rows(columns, None)
    if not isinstance(objects, list) or not all(isinstance(o, dict) for o in objects):
        raise InputError("expected a JSON list of objects with item, annotator, label",
                         path=name, line=1)
    extra: set[str] = set()
    records = []
    for pos, o in enumerate(objects, start=1):
        missing = [k for k in _KEYS[:3] if k not in o]
        if missing:
            raise InputError(f"object {pos} lacks the key {missing[0]!r}", path=name)
        for k in ("item", "annotator", "label"):
            if isinstance(o[k], (list, dict)):
                raise InputError(f"object {pos}: the {k} is a JSON {type(o[k]).__name__}; "
                                 "give one string or number", path=name)
        extra |= set(o) - set(_KEYS)
        records.append((o["item"], o["annotator"], o["label"], o.get("rank")))
    if extra:
        notify("ignored", f"keys not used: {', '.join(sorted(map(repr, extra)))} (a record "
               "reads item, annotator, label and rank)", path=name)
    records, _ = _split(records, [None] * len(records), sep, name, "rank")
    return MultiLabel.from_records(records, source=name), None


def _coding_rows(columns: Columns, lines: np.ndarray | None) -> CodingRows:
    """The rows of columns as :class:`~clusteragree.labels.table.CodingRows`: annotators as
    coders, items as units, labels as fields, no documents."""
    items, item, annotators, annotator, labels, label = columns
    return CodingRows(np.zeros(len(item), dtype=np.int32), annotator, item, label, lines,
                      None, annotators, items, labels)


def _read_csv(text: str, name: str, sep: str | None = None, fast: bool | None = None
              ) -> tuple[MultiLabel, CodingRows | None]:
    rows = csv_rows(text, name)
    first = next(rows, None)
    header = [h.strip().lower() for h in first[1]] if first else []
    if header[:3] != ["item", "annotator", "label"] or header[3:] not in ([], ["rank"],
                                                                            ["weight"]):
        raise InputError(f"the header is {header}; expected item,annotator,label[,rank] or "
                         "item,annotator,label,weight", path=name, line=first[0] if first else 1)
    if fast is None:
        fast = len(text) >= FAST_MIN_CHARS
    # (by columns only when the header is on the first line)
    if fast and first is not None and first[0] == 1 and len(header) == 3:
        got = csv_columns(text)
        data = None if got is None else multilabel_of_columns(got[0], sep)
        if got is not None and data is not None:
            return data, _coding_rows(got[0], got[1])
    rows_read: list[tuple[Any, ...]] = []
    lines: list[int] = []
    for number, row in rows:
        if len(row) != len(header):
            raise InputError(f"{len(row)} fields, expected {len(header)}", path=name,
                             line=number)
        values: list[Any] = [c.strip() for c in row]
        if len(values) == 4 and values[3] == "":
            values[3] = None
        rows_read.append(tuple(values))
        lines.append(number)
    weighted = header[3:] == ["weight"]
    split, split_lines = _split(rows_read, list(lines), sep, name,
                                "weight" if weighted else "rank")
    if weighted:
        return MultiLabel.from_weighted_records(split, source=name, lines=split_lines), None
    return MultiLabel.from_records(split, source=name, lines=split_lines), None
