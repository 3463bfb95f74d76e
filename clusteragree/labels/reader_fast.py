"""The column path of the multi-label reader, for plain files.

:func:`multilabel_of_columns` builds a :class:`~clusteragree.labels.model.MultiLabel` from the
integer codes of the item, annotator and label of every row (a pass of numpy over the rows,
Python only per distinct value and per cell) instead of record by record. It takes only what
:meth:`MultiLabel.from_records <clusteragree.labels.model.MultiLabel.from_records>` would
accept without a notice, from unranked and unweighted rows of one label each: no label
holding the separator of label sets, no label empty or differing from another only in case or
spaces, no label given twice to an item by an annotator. On anything else it returns None and
the record-by-record reader, which names the line of every error, reads the file.

:func:`csv_columns` and :func:`json_columns` give those codes for a plain CSV (by
:func:`~clusteragree.labels.table_fast.fast_columns`, pyarrow) and for a JSON list of objects
with the keys item, annotator and label only.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import repeat
from operator import eq, itemgetter
from typing import Any

import numpy as np
import pandas as pd

from .model import MultiLabel
from .table_fast import fast_columns, names_of

__all__ = ["Columns", "csv_columns", "json_columns", "multilabel_of_columns"]

#: The codes of the item, annotator and label of each row and the distinct values of each, in
#: order of first appearance: ``(items, item_codes, annotators, annotator_codes, labels,
#: label_codes)``.
Columns = tuple[list[Any], np.ndarray, list[Any], np.ndarray, list[Any], np.ndarray]


def csv_columns(text: str) -> tuple[Columns, np.ndarray] | None:
    """The columns of a plain CSV ``item,annotator,label`` (its header on the first line,
    already checked) and the line of each row, or None when the file is not plain or a label
    is empty.

    Examples
    --------
    >>> (items, item_codes, annotators, _, labels, _), lines = csv_columns(
    ...     "item,annotator,label\\nm1,A,x\\nm1,B, y\\nm2,A,x\\n")
    >>> items, item_codes.tolist(), annotators, labels, lines.tolist()
    (['m1', 'm2'], [0, 0, 1], ['A', 'B'], ['x', 'y'], [2, 3, 4])
    """
    got = fast_columns(text, 3, [None, 1, 0, 2], scalar=True)
    if got is None:
        return None
    dictionaries, arrays = got
    _, annotators, items, labels = names_of(dictionaries)
    return ((items, arrays["unit"], annotators, arrays["coder"], labels, arrays["value"]),
            arrays["line"])


_PLAIN_TYPES = {str, int}  # exact types an item or annotator may have here (no bool, no float)


def _codes(values: list[Any]) -> tuple[list[Any], np.ndarray]:
    """The distinct values (strings and whole numbers, as Python objects) in order of first
    appearance, and each value's code: pandas' hash table, not a Python loop per value."""
    codes, names = pd.factorize(np.array(values, dtype=object))
    return names.tolist(), codes.astype(np.int64, copy=False)


def json_columns(objects: Any) -> Columns | None:
    """The columns of a JSON list of objects each with exactly the keys item, annotator and
    label (items and annotators strings or whole numbers, labels strings), or None.

    Examples
    --------
    >>> got = json_columns([{"item": 1, "annotator": "A", "label": "x"},
    ...                     {"item": 1, "annotator": "B", "label": "y"}])
    >>> got[0], got[2], got[4], got[5].tolist()
    ([1], ['A', 'B'], ['x', 'y'], [0, 1])
    >>> json_columns([{"item": 1, "annotator": "A", "label": "x", "rank": 1}]) is None
    True
    """
    if not isinstance(objects, list) or not objects:
        return None
    keys = {"item", "annotator", "label"}
    # (the checks and the columns by C loops over the objects: map, not a Python loop)
    if set(map(type, objects)) != {dict} or set(map(len, objects)) != {3} or not all(
            map(eq, map(dict.keys, objects), repeat(keys))):
        return None
    items = list(map(itemgetter("item"), objects))
    annotators = list(map(itemgetter("annotator"), objects))
    labels = list(map(itemgetter("label"), objects))
    if not (set(map(type, items)) <= _PLAIN_TYPES and set(map(type, annotators)) <= _PLAIN_TYPES
            and set(map(type, labels)) == {str}):
        return None
    item_names, item_codes = _codes(items)
    del items
    annotator_names, annotator_codes = _codes(annotators)
    del annotators
    label_names, label_codes = _codes(labels)
    return (item_names, item_codes, annotator_names, annotator_codes, label_names, label_codes)


def _plain_labels(labels: Sequence[Any], sep: str | None) -> bool:
    """Whether every label is what the record-by-record reader keeps as it is, without an
    error: a non-empty string, not holding the separator in effect (``;`` without ``sep``),
    without spaces around it when ``sep`` splits, and no two differing only in case or
    spaces."""
    split = sep is not None and sep != "none"
    marker = ";" if sep is None else sep
    spelled: set[str] = set()
    for label in labels:
        if type(label) is not str or not label.strip():
            return False
        if sep != "none" and marker in label:
            return False
        if split and label != label.strip():
            return False
        spelled.add(" ".join(label.split()).casefold())
    return len(spelled) == len(labels)


def multilabel_of_columns(columns: Columns, sep: str | None) -> MultiLabel | None:
    """The :class:`~clusteragree.labels.model.MultiLabel` that
    :meth:`~clusteragree.labels.model.MultiLabel.from_records` builds from the rows
    ``(item, annotator, label)`` of ``columns`` (labels read with ``sep`` as
    :func:`~clusteragree.labels.reader.read_multilabel` reads them), or None when it would
    refuse them, report something or split a label: then the record-by-record path reads
    them.

    Parameters
    ----------
    columns : Columns
        The distinct values and codes of the rows (:func:`csv_columns`,
        :func:`json_columns`).
    sep : str or None
        The separator of labels in one field, as ``read_multilabel`` takes it.

    Returns
    -------
    MultiLabel or None
        Items and annotators in order of first appearance, cells in order of the first row of
        each (annotator, item), their labels sorted; not ranked, no weights.

    References
    ----------
    docs/multilabel.md, "Reading".

    Examples
    --------
    >>> got = json_columns([{"item": "m1", "annotator": "A", "label": "q"},
    ...                     {"item": "m1", "annotator": "A", "label": "a"},
    ...                     {"item": "m1", "annotator": "B", "label": "q"}])
    >>> data = multilabel_of_columns(got, None)
    >>> data == MultiLabel.from_records([("m1", "A", "q"), ("m1", "A", "a"), ("m1", "B", "q")])
    True
    >>> data.cells
    {('A', 'm1'): ('a', 'q'), ('B', 'm1'): ('q',)}

    A label given twice is left to the record-by-record path, which refuses it at its line:

    >>> twice = json_columns([{"item": "m1", "annotator": "A", "label": "q"}] * 2)
    >>> multilabel_of_columns(twice, None) is None
    True
    """
    items, item_codes, annotators, annotator_codes, labels, label_codes = columns
    if not _plain_labels(labels, sep):
        return None
    n = len(item_codes)
    if n == 0:
        return None
    pair = annotator_codes.astype(np.int64) * len(items) + item_codes
    distinct, first, inverse = np.unique(pair, return_index=True, return_inverse=True)
    del pair
    in_order = np.argsort(first, kind="stable")  # the pairs in order of their first row
    del first
    position = np.empty(len(distinct), dtype=np.int64)
    position[in_order] = np.arange(len(distinct))
    by_text = sorted(range(len(labels)), key=labels.__getitem__)
    label_rank = np.empty(len(labels), dtype=np.int64)
    label_rank[by_text] = np.arange(len(labels))
    key = position[inverse.reshape(-1)] * len(labels) + label_rank[label_codes]
    del inverse, label_rank
    rows = np.argsort(key, kind="stable")
    key = key[rows]
    if n > 1 and bool((key[1:] == key[:-1]).any()):
        return None  # a label given twice to an item by an annotator: refused at its line
    sizes = np.bincount(key // len(labels), minlength=len(distinct))
    del key
    cell_labels = np.array(labels, dtype=object)[label_codes[rows]].tolist()
    del rows
    pairs = distinct[in_order]
    keys: list[tuple[Hashable, Hashable]] = list(zip(
        np.array(annotators, dtype=object)[pairs // len(items)].tolist(),
        np.array(items, dtype=object)[pairs % len(items)].tolist(), strict=True))
    values: list[tuple[Hashable, ...]]
    if bool((sizes == 1).all()):
        values = [(label,) for label in cell_labels]
    else:
        ends = np.cumsum(sizes).tolist()
        values = [tuple(cell_labels[s:e]) for s, e in zip([0, *ends[:-1]], ends, strict=True)]
    cells = dict(zip(keys, values, strict=True))
    categories = tuple(sorted(labels, key=str))
    return MultiLabel(tuple(items), tuple(annotators), categories, cells, False)
