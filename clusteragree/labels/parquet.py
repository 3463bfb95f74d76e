"""Parquet tables of codings: the columns of the long CSV, in one file or a directory of parts.

The columns are those of :func:`~clusteragree.labels.table.read_long_table`: ``coder``,
``unit``, one of ``labels``, ``value``, ``label``, and optionally ``document`` (names compared
without case); other columns are ignored, with a notice. Columns keep their Parquet types: a
number stays a number, text stays text, a dictionary (categorical) column gives its values. A
null value is a missing cell; a null coder or unit is refused. Without ``scalar``, text values
are label sets separated by ``sep`` as in the CSV (an empty field is the empty set).

:func:`read_parquet_table` reads into memory (pyarrow: ``pip install "clusteragree[parquet]"``);
:func:`parquet_frame` opens the same files as a dask DataFrame for
:func:`~clusteragree.core.distributed.dask_stats` (``pip install "clusteragree[dask]"``).
"""

from __future__ import annotations

import os
from collections.abc import Hashable
from typing import Any

import numpy as np
import pandas as pd

from ..core.model import CodingTable
from ..errors import ClusterAgreeError, InputError, notify
from .table import VALUE_COLUMNS, LongTable, _check_pairable

__all__ = ["parquet_columns", "parquet_frame", "read_parquet_table"]


def _pyarrow(extra: str) -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise ClusterAgreeError(f"reading Parquet needs pyarrow, which is not installed: "
                                f'pip install "clusteragree[{extra}]"') from None
    return pq


def parquet_columns(names: list[str], path: str) -> dict[str, str]:
    """The file's column for each role (``coder``, ``unit``, ``value`` and, when present,
    ``document``); the others are reported as ignored.

    Raises
    ------
    InputError
        When ``coder``, ``unit`` or a value column is missing.

    Examples
    --------
    >>> parquet_columns(["Coder", "unit", "value"], "codings.parquet")
    {'coder': 'Coder', 'unit': 'unit', 'value': 'value'}
    """
    lower = {n.strip().lower(): n for n in reversed(names)}
    value = next((lower[c] for c in VALUE_COLUMNS if c in lower), None)
    if "coder" not in lower or "unit" not in lower or value is None:
        raise InputError(f"the columns are {names}; expected coder, unit and labels (or value, "
                         "label; optionally document)", path=path)
    roles = {"coder": lower["coder"], "unit": lower["unit"], "value": value}
    if "document" in lower:
        roles["document"] = lower["document"]
    extra = [n for n in names if n not in roles.values()]
    if extra:
        notify("ignored", f"columns not used: {', '.join(repr(c) for c in extra)} (the table "
               "reads coder, unit, document and one of labels, value, label)", path=path)
    return roles


def _sets(values: pd.Series, sep: str, path: str) -> pd.Series:
    """Text values as label sets split at ``sep`` (nulls stay missing)."""
    def split(text: Any) -> Any:
        if not isinstance(text, str):
            return text
        labels = [piece.strip() for piece in text.split(sep)] if text else []
        if any(not label for label in labels):
            raise InputError(f"empty label in {text!r} (separator {sep!r}); remove the extra "
                             "separator", path=path)
        return frozenset(labels)
    return values.astype(object).map(split)


def read_parquet_table(path: str, *, sep: str = ";", scalar: bool = False,
                       numeric: bool = False) -> LongTable:
    """Read codings from a Parquet file or a directory of Parquet parts.

    Parameters
    ----------
    path : str
        A ``.parquet`` file or a directory of them (read as one table).
    sep : str, default=";"
        Without ``scalar``: the separator of the labels of a text value.
    scalar : bool, default=False
        One value per row (a number, a string or a category) instead of a label set.
    numeric : bool, default=False
        With ``scalar``: the value column must hold numbers.

    Returns
    -------
    LongTable
        One table per document (``None`` without a document column), the rows read, no
        repairs.

    Raises
    ------
    InputError
        With the path: an unreadable file, missing columns, a null coder or unit, a coder
        coding a unit twice, text where numbers are needed, numbers where label sets are
        expected, an empty label between separators, no unit coded by two coders.
    ClusterAgreeError
        When pyarrow is not installed.

    References
    ----------
    docs/cli.md (``clusteragree table``, input formats); docs/scale.md.

    Examples
    --------
    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> name = os.path.join(folder, "codings.parquet")
    >>> pd.DataFrame({"coder": ["A", "B", "A", "B"], "unit": [1, 1, 2, 2],
    ...               "value": [1, 2, 3, 3]}).to_parquet(name)
    >>> table = read_parquet_table(name, scalar=True).tables[None]
    >>> table.value("A", 1), table.value("B", 2)
    (1, 3)
    """
    pq = _pyarrow("parquet")
    try:
        schema = pq.read_schema(path) if os.path.isfile(path) else \
            pq.ParquetDataset(path).schema
        roles = parquet_columns(list(schema.names), path)
        frame = pq.read_table(path, columns=list(roles.values())).to_pandas()
    except (OSError, ValueError) as err:
        if isinstance(err, InputError):
            raise
        raise InputError(f"not a readable Parquet file or directory ({err})", path=path) \
            from None
    return _tables(frame, roles, path, sep, scalar, numeric)


def _tables(frame: pd.DataFrame, roles: dict[str, str], path: str, sep: str, scalar: bool,
            numeric: bool) -> LongTable:
    if len(frame) == 0:
        raise InputError("no codings in the file", path=path)
    values = frame[roles["value"]]
    if isinstance(values.dtype, pd.CategoricalDtype):
        values = values.astype(values.cat.categories.dtype)
    is_number = pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)
    if not scalar and is_number:
        raise InputError(f"the column {roles['value']!r} holds numbers ({values.dtype}); give "
                         "--scalar for one value per row, or write label sets as text",
                         path=path)
    if scalar and numeric and not is_number:
        raise InputError(f"the column {roles['value']!r} holds {values.dtype}, not numbers; "
                         "numeric distances need a numeric column", path=path)
    if not scalar:
        values = _sets(values, sep, path)
    for role in ("coder", "unit"):
        missing = frame[roles[role]].isna().to_numpy()
        if missing.any():
            raise InputError(f"row {int(np.flatnonzero(missing)[0]) + 1}: empty {role}",
                             path=path)
    data = pd.DataFrame({"coder": frame[roles["coder"]], "unit": frame[roles["unit"]],
                         "value": values})
    tables: dict[Hashable, CodingTable] = {}
    try:
        if "document" in roles:
            for doc, rows in data.groupby(frame[roles["document"]], sort=False,
                                          observed=True):
                tables[doc] = CodingTable.from_dataframe(rows.reset_index(drop=True))
        else:
            tables[None] = CodingTable.from_dataframe(data)
    except InputError as err:
        raise InputError(str(err), path=path) from None
    _check_pairable(tables, path)
    return LongTable(tables, len(frame), {}, path)


def parquet_frame(path: str) -> tuple[Any, dict[str, str]]:
    """A Parquet file or directory as a dask DataFrame, and the column of each role.

    Parameters
    ----------
    path : str
        A ``.parquet`` file or a directory of them.

    Returns
    -------
    frame : dask DataFrame
        The columns of the roles only (read lazily, partition by partition).
    roles : dict
        ``coder``, ``unit``, ``value`` (and ``document``) -> the file's column.

    Raises
    ------
    InputError
        An unreadable path or missing columns.
    ClusterAgreeError
        When dask or pyarrow is not installed.

    References
    ----------
    docs/scale.md.
    """
    _pyarrow("dask")
    try:
        import dask.dataframe as dd
    except ImportError:
        raise ClusterAgreeError('the --dask option needs dask, which is not installed: '
                                'pip install "clusteragree[dask]"') from None
    try:
        frame = dd.read_parquet(path)
        roles = parquet_columns([str(c) for c in frame.columns], path)
        return frame[list(roles.values())], roles
    except (OSError, ValueError) as err:
        if isinstance(err, InputError):
            raise
        raise InputError(f"not a readable Parquet file or directory ({err})", path=path) \
            from None
