"""Reading multi-label data: a long CSV ``item,annotator,label[,rank]`` (or ``,weight``) or a
JSON list of objects with those keys."""

from __future__ import annotations

import os
from typing import Any

from ..errors import InputError, ParameterError, ParameterTypeError, notify
from ..inputs import csv_rows, decode, load_json, read_bytes
from .model import MultiLabel

__all__ = ["MULTILABEL_FORMATS", "read_multilabel"]


#: Input formats of multi-label files: ``auto`` reads names ending in ``.json`` as JSON.
MULTILABEL_FORMATS = ("auto", "csv", "json")


def read_multilabel(path: str | os.PathLike[str], *, encoding: str | None = None,
                    input_format: str = "auto") -> MultiLabel:
    """Read a long CSV with the header ``item,annotator,label[,rank]`` (or
    ``item,annotator,label,weight``), or a JSON list of objects with those keys (``.json``).

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
        that do not add up to 1, fewer than two annotators, and the other checks of
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
    """
    if not isinstance(path, (str, os.PathLike)):
        raise ParameterTypeError(f"path must be a file path. Got {type(path).__name__}.")
    if input_format not in MULTILABEL_FORMATS:
        raise ParameterError(f"input_format must be one of {', '.join(MULTILABEL_FORMATS)}. "
                             f"Got {input_format!r}.")
    name = os.fspath(path)
    text = decode(read_bytes(name), name, encoding=encoding)
    as_json = input_format == "json" or (input_format == "auto" and name.endswith(".json"))
    data = _read_json(text, name) if as_json else _read_csv(text, name)
    if len(data.annotators) < 2:
        raise InputError(
            f"nothing to compare: {len(data.annotators)} annotator(s) "
            f"({', '.join(map(str, data.annotators))}); agreement needs the labels of two or "
            "more annotators on the same items", path=name)
    return data


_KEYS = ("item", "annotator", "label", "rank")


def _read_json(text: str, name: str) -> MultiLabel:
    objects = load_json(text, name)
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
    return MultiLabel.from_records(records, source=name)


def _read_csv(text: str, name: str) -> MultiLabel:
    rows = csv_rows(text, name)
    first = next(rows, None)
    header = [h.strip().lower() for h in first[1]] if first else []
    if header[:3] != ["item", "annotator", "label"] or header[3:] not in ([], ["rank"],
                                                                            ["weight"]):
        raise InputError(f"the header is {header}; expected item,annotator,label[,rank] or "
                         "item,annotator,label,weight", path=name, line=first[0] if first else 1)
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
    if header[3:] == ["weight"]:
        return MultiLabel.from_weighted_records(rows_read, source=name,
                                                lines=lines)
    return MultiLabel.from_records(rows_read, source=name, lines=lines)
