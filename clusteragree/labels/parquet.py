"""Parquet tables of codings: the columns of the long CSV, in one file or a directory of parts.

The columns are those of :func:`~clusteragree.labels.table.read_long_table`: ``coder``,
``unit``, one of ``labels``, ``value``, ``label``, and optionally ``document`` (names compared
without case); other columns are ignored, with a notice (the index pandas stores is not a
column). Columns keep their Parquet types: a number stays a number, text stays text, a
dictionary (categorical) column gives its values. Without ``scalar``, text values are label
sets separated by ``sep`` as in the CSV (an empty string is the empty set).

Nulls: a null coder or unit is refused, as the CSV refuses an empty one; a null document is the
document ``''``, as the CSV reads an empty document field (reported, ``converted``); a null
value is a missing cell, as a row left out of the CSV (a ``note``: Parquet tells a null from an
empty string, which the CSV cannot).

A directory is read as its files, in the order of their paths, skipping names that start with
``_`` or ``.`` (``_SUCCESS``, ``.crc``); directories named ``key=value`` (Hive partitioning, as
``to_parquet(partition_cols=...)`` writes) give the column ``key``. Every part must have the
same columns, of the same kind (number, text, ...): a part that differs, or that is not a
Parquet file, is refused by name.

:func:`read_parquet_table` reads into memory (pyarrow: ``pip install "clusteragree[parquet]"``);
:func:`parquet_frame` opens the same parts as a dask DataFrame, one partition per file, for
:func:`~clusteragree.core.distributed.dask_stats` (``pip install "clusteragree[dask]"``).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

import numpy as np
import pandas as pd

from ..core.columns import label_sets
from ..core.dask_cluster import one_line
from ..core.distributed import note_nulls
from ..core.model import CodingTable
from ..errors import ClusterAgreeError, InputError, notify
from .table import VALUE_COLUMNS, LongTable, _check_pairable

__all__ = ["ParquetParts", "parquet_columns", "parquet_frame", "parquet_parts",
           "read_parquet_table"]


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


def _kind(dtype: Any) -> str:
    """What a Parquet column holds, as far as the table cares: number, text, boolean, list,
    null (no value at all) or the type's name."""
    import pyarrow as pa
    types = pa.types
    if types.is_dictionary(dtype):
        dtype = dtype.value_type
    if types.is_integer(dtype) or types.is_floating(dtype) or types.is_decimal(dtype):
        return "number"
    if types.is_string(dtype) or types.is_large_string(dtype) or (
            hasattr(types, "is_string_view") and types.is_string_view(dtype)):
        return "text"
    if types.is_boolean(dtype):
        return "boolean"
    if types.is_null(dtype):
        return "null"
    if types.is_list(dtype) or types.is_large_list(dtype) or types.is_fixed_size_list(dtype):
        return "list"
    return str(dtype)


@dataclass(frozen=True)
class ParquetParts:
    """The parts of a Parquet input and the columns each must have.

    Attributes
    ----------
    path : str
        The file or directory as given (the name in messages about the whole input).
    files : tuple of str
        The part files, in the order of their paths.
    keys : tuple of tuple
        For each part, its ``(column, value)`` pairs from ``key=value`` directories.
    columns : dict
        Column -> kind (:func:`_kind`) of the first part: every part must have these columns
        and kinds (a part's column of nulls only goes with any kind).
    roles : dict
        ``coder``, ``unit``, ``value`` (and ``document``) -> the column.
    filesystem : object, optional
        The fsspec filesystem of a URL (``s3://...``); None for a local path.
    """

    path: str
    files: tuple[str, ...]
    keys: tuple[tuple[tuple[str, Any], ...], ...]
    columns: dict[str, str]
    roles: dict[str, str]
    filesystem: Any = field(default=None, compare=False)

    def name(self, k: int) -> str:
        """Part ``k`` as messages name it: its path, or its URL."""
        fs = self.filesystem
        return self.files[k] if fs is None else str(fs.unstrip_protocol(self.files[k]))


def _hive(relative: str) -> tuple[tuple[str, Any], ...]:
    """The ``key=value`` directories of a part's path (relative to the input)."""
    keys = []
    for piece in posixpath.dirname(relative).split("/"):
        key, eq, value = piece.partition("=")
        if eq and key:
            value = unquote(value)
            keys.append((unquote(key), None if value == "__HIVE_DEFAULT_PARTITION__" else value))
    return tuple(keys)


def _skipped(relative: str) -> bool:
    return any(piece.startswith(("_", ".")) for piece in relative.split("/"))


def _listing(path: str) -> tuple[list[str], list[str], Any]:
    """The files of ``path`` (itself when it is a file) and their paths relative to it."""
    if "://" in path:
        try:
            import fsspec
        except ImportError:
            raise ClusterAgreeError('reading Parquet from a URL needs fsspec: pip install '
                                    '"clusteragree[dask]"') from None
        try:
            fs, root = fsspec.core.url_to_fs(path)
            if not fs.isdir(root):
                return [root], [posixpath.basename(root)], fs
            found = sorted(fs.find(root))
        except (OSError, ValueError, ImportError) as err:
            raise InputError(f"cannot list the Parquet parts ({one_line(err)})",
                             path=path) from None
        root = root.rstrip("/")
        return found, [f[len(root) + 1:] for f in found], fs
    if os.path.isfile(path):
        return [path], [os.path.basename(path)], None
    if not os.path.isdir(path):
        raise InputError("no such file or directory", path=path)
    found = []
    for top, dirs, names in os.walk(path):
        dirs.sort()
        found += [os.path.join(top, name) for name in names]
    found.sort()
    return found, [os.path.relpath(f, path).replace(os.sep, "/") for f in found], None


def _unreadable(err: BaseException, file: str) -> InputError:
    return InputError(f"not a readable Parquet file ({one_line(err)}); replace it, or remove "
                      "it from the directory", path=file)


def _arrow_errors() -> tuple[type[BaseException], ...]:
    import pyarrow as pa
    return (OSError, ValueError, EOFError, pa.ArrowException)


def _open(file: str, shown: str, fs: Any) -> Any:
    """A part as a pyarrow ParquetFile (its footer read), refused by name (``shown``) when it
    is not one."""
    pq = _pyarrow("parquet")
    try:
        return pq.ParquetFile(file, filesystem=fs)
    except _arrow_errors() as err:
        if isinstance(err, InputError):
            raise
        raise _unreadable(err, shown) from None


def _schema(handle: Any) -> dict[str, str]:
    """Column -> kind of a part, without the index pandas stores as columns."""
    schema = handle.schema_arrow
    meta = schema.pandas_metadata or {}
    index = {c for c in meta.get("index_columns", []) if isinstance(c, str)}
    return {name: _kind(schema.field(name).type) for name in schema.names if name not in index}


def parquet_parts(path: str) -> ParquetParts:
    """The parts of a Parquet file or directory, the columns of the first one and their
    roles (the other parts are checked as they are read).

    Parameters
    ----------
    path : str
        A ``.parquet`` file, a directory of parts, or a URL that fsspec reads.

    Returns
    -------
    ParquetParts

    Raises
    ------
    InputError
        No such path, no part, a first part that is not Parquet, missing columns.

    Examples
    --------
    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> frame = pd.DataFrame({"coder": ["A", "B"], "unit": [1, 1], "value": ["x", "y"]})
    >>> frame.to_parquet(os.path.join(folder, "part-0.parquet"), index=False)
    >>> parts = parquet_parts(folder)
    >>> [os.path.basename(f) for f in parts.files], parts.columns
    (['part-0.parquet'], {'coder': 'text', 'unit': 'number', 'value': 'text'})
    """
    files, relative, fs = _listing(path)
    kept = [k for k, rel in enumerate(relative) if not _skipped(rel)]
    if not kept:
        raise InputError("no Parquet file in the directory (names starting with _ or . are "
                         "skipped)", path=path)
    files = [files[k] for k in kept]
    keys = tuple(_hive(relative[k]) for k in kept)
    shown = files[0] if fs is None else str(fs.unstrip_protocol(files[0]))
    columns = _schema(_open(files[0], shown, fs)) | {key: "text" for key, _ in keys[0]}
    roles = parquet_columns(list(columns), path)
    return ParquetParts(path, tuple(files), keys, columns, roles, fs)


def _differences(parts: ParquetParts, found: dict[str, str]) -> list[str]:
    want = parts.columns
    diff = [f"{c!r} is missing" for c in want if c not in found]
    diff += [f"{c!r} is extra" for c in found if c not in want]
    diff += [f"{c!r} holds {found[c]}, not {want[c]}" for c in want
             if c in found and found[c] != want[c] and "null" not in (found[c], want[c])]
    return diff


def read_part(parts: ParquetParts, k: int) -> pd.DataFrame:
    """Part ``k``: the columns of the roles, checked against the first part's.

    A coder or unit that is null is refused with the part and the row; documents and values
    are read as they are (nulls included).

    Raises
    ------
    InputError
        Naming the part: not a Parquet file, columns that differ from the first part's
        (missing, extra, or of another kind), a null coder or unit.
    """
    handle = _open(parts.files[k], parts.name(k), parts.filesystem)
    found = _schema(handle) | {key: "text" for key, _ in parts.keys[k]}
    diff = _differences(parts, found)
    if diff:
        raise InputError(f"the columns differ from those of the first part "
                         f"{parts.name(0)} ({'; '.join(diff)}); write every part with the "
                         "same columns, or read the parts one by one", path=parts.name(k))
    hive = dict(parts.keys[k])
    stored = [c for c in parts.roles.values() if c not in hive]
    try:
        frame = handle.read(columns=stored).to_pandas(integer_object_nulls=True)
    except _arrow_errors() as err:
        if isinstance(err, InputError):
            raise
        raise _unreadable(err, parts.name(k)) from None
    for column in parts.roles.values():
        if column in hive:
            frame[column] = pd.Series([hive[column]] * len(frame), dtype=object)
    for role in ("coder", "unit"):
        missing = frame[parts.roles[role]].isna().to_numpy()
        if missing.any():
            raise InputError(f"row {int(np.flatnonzero(missing)[0]) + 1}: empty {role}; every "
                             f"row needs a {role}", path=parts.name(k))
    return frame[list(parts.roles.values())]


def check_values(column: str, kind: str, path: str, *, scalar: bool, numeric: bool) -> None:
    """Refuse a value column the options cannot read: numbers or booleans as label sets, text
    for a numeric distance, lists (``kind`` as :class:`ParquetParts` gives it).

    Examples
    --------
    >>> check_values("value", "number", "a.parquet", scalar=False, numeric=False)
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: a.parquet: the column 'value' holds numbers; give --scalar for one value per row, or write label sets as text
    """  # noqa: E501
    what = {"number": "numbers", "boolean": "booleans", "list": "lists"}.get(kind, kind)
    if kind == "list":
        raise InputError(f"the column {column!r} holds lists; write label sets as text "
                         "separated by --sep, or one value per row with --scalar", path=path)
    if kind == "null":
        return
    if not scalar and kind != "text":
        raise InputError(f"the column {column!r} holds {what}; give --scalar for one value "
                         "per row, or write label sets as text", path=path)
    if scalar and numeric and kind != "number":
        raise InputError(f"the column {column!r} holds {what}, not numbers; numeric "
                         "distances need a numeric column", path=path)


def _pandas_kind(values: pd.Series) -> str:
    """The kind of a value column read (for parts whose first holds nulls only)."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        values = values.astype(values.cat.categories.dtype)
    present = values.dropna()
    if len(present) == 0:
        return "null"
    if pd.api.types.is_bool_dtype(present) or all(
            isinstance(v, (bool, np.bool_)) for v in present.tolist()):
        return "boolean"
    if pd.api.types.is_numeric_dtype(present) or all(
            isinstance(v, (int, float, np.number)) for v in present.tolist()):
        return "number"
    return "text"


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
        One table per document (``None`` without a document column), documents in order of
        first appearance, the rows read, no repairs.

    Raises
    ------
    InputError
        With the file (the part, in a directory): not a Parquet file, parts whose columns
        differ, missing columns, a null coder or unit, a coder coding a unit twice, text where
        numbers are needed, numbers where label sets are expected, lists, an empty label
        between separators, no unit coded by two coders.
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
    _pyarrow("parquet")
    parts = parquet_parts(path)
    roles = parts.roles
    check_values(roles["value"], parts.columns[roles["value"]], path, scalar=scalar,
                 numeric=numeric)
    frames, where = [], []
    for k in range(len(parts.files)):
        frame = read_part(parts, k)
        if not scalar:
            frame[roles["value"]] = label_sets(frame[roles["value"]], sep, parts.name(k))
        frames.append(frame)
        where.append(np.full(len(frame), k, dtype=np.int64))
    frame = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    if len(frame) == 0:
        raise InputError("no codings in the file", path=path)
    part_of = np.concatenate(where)
    if parts.columns[roles["value"]] == "null":  # the first part has no value: the others'
        check_values(roles["value"], _pandas_kind(frame[roles["value"]]), path,
                     scalar=scalar, numeric=numeric)
    return _tables(frame, roles, parts, part_of)


def _document_column(frame: pd.DataFrame, roles: dict[str, str]) -> pd.Series:
    """The documents, a null one read as ``''``."""
    docs = frame[roles["document"]]
    if isinstance(docs.dtype, pd.CategoricalDtype):
        docs = docs.astype(object)
    null = docs.isna().to_numpy()
    if null.any():
        docs = docs.astype(object).where(~null, "")
    return docs


def _tables(frame: pd.DataFrame, roles: dict[str, str], parts: ParquetParts,
            part_of: np.ndarray) -> LongTable:
    path = parts.path
    values = frame[roles["value"]]
    note_nulls(int(values.isna().sum()), int(frame[roles["document"]].isna().sum())
               if "document" in roles else 0, path)
    data = pd.DataFrame({"coder": frame[roles["coder"]], "unit": frame[roles["unit"]],
                         "value": values})
    groups: list[tuple[Hashable, Any]]
    if "document" in roles:  # documents in order of first appearance
        codes, uniques = pd.factorize(_document_column(frame, roles).to_numpy(), sort=False)
        names = uniques.tolist()  # Python scalars
        order = np.argsort(codes, kind="stable")
        cuts = np.flatnonzero(np.diff(codes[order])) + 1
        groups = [(names[codes[rows[0]]], rows) for rows in np.split(order, cuts)]
    else:
        groups = [(None, slice(None))]
    tables: dict[Hashable, CodingTable] = {}
    for doc, rows in groups:
        chunk = data.iloc[rows]
        try:
            tables[doc] = CodingTable.from_dataframe(chunk.reset_index(drop=True))
        except InputError as err:
            found = _twice(chunk, doc, parts, part_of)
            text = re.sub(r"^(record|row) \d+: ", "", str(err))
            raise found or InputError(text if doc is None else f"document {doc!r}: {text}",
                                      path=path) from None
    _check_pairable(tables, path)
    return LongTable(tables, len(frame), {}, path)


def _twice(chunk: pd.DataFrame, doc: Hashable, parts: ParquetParts, part_of: np.ndarray
           ) -> InputError | None:
    """A coder coding a unit twice, named by part and row (None when that is not the
    error)."""
    again = chunk.duplicated(["coder", "unit"], keep="first").to_numpy()
    if not again.any():
        return None
    second = int(chunk.index[np.flatnonzero(again)[0]])
    row = chunk.loc[second]
    same = (chunk["coder"] == row["coder"]) & (chunk["unit"] == row["unit"])
    first = int(chunk.index[np.flatnonzero(same.to_numpy())[0]])

    def place(k: int) -> tuple[str, int]:
        p = int(part_of[k])
        return parts.name(p), k - int(np.searchsorted(part_of, p)) + 1

    (file1, row1), (file2, row2) = place(first), place(second)
    where = f"row {row1}" + ("" if file1 == file2 else f" of {file1}")
    in_doc = "" if doc is None else f" in document {doc!r}"
    coder, unit = (v.item() if isinstance(v, np.generic) else v
                   for v in (row["coder"], row["unit"]))
    return InputError(f"row {row2}: coder {coder!r} coded unit {unit!r} twice"
                      f"{in_doc} (first at {where}); keep one row per coder and unit",
                      path=file2)


def parquet_frame(path: str) -> tuple[Any, dict[str, str], ParquetParts]:
    """A Parquet file or directory as a dask DataFrame (one partition per part), the column
    of each role, and the parts.

    Each partition is read by :func:`read_part` on the worker that computes it: a part that
    is not Parquet, whose columns differ from the first part's, or with a null coder or unit
    is refused there, by name.

    Parameters
    ----------
    path : str
        A ``.parquet`` file, a directory of them, or a URL that fsspec reads.

    Returns
    -------
    frame : dask DataFrame
        The columns of the roles only (read lazily, partition by partition).
    roles : dict
        ``coder``, ``unit``, ``value`` (and ``document``) -> the file's column.
    parts : ParquetParts

    Raises
    ------
    InputError
        An unreadable path or first part, or missing columns.
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
    parts = parquet_parts(path)
    meta = _meta(parts)
    frame = dd.from_map(_Reader(parts), range(len(parts.files)), meta=meta,
                        enforce_metadata=False, label="read-codings")
    return frame, parts.roles, parts


def _meta(parts: ParquetParts) -> pd.DataFrame:
    """The empty frame of the roles' columns (the first part's types; no row read)."""
    hive = dict(parts.keys[0])
    schema = _open(parts.files[0], parts.name(0), parts.filesystem).schema_arrow
    stored = [c for c in parts.roles.values() if c not in hive]
    frame = schema.empty_table().select(stored).to_pandas()
    for column in hive:
        frame[column] = pd.Series([], dtype=object)
    return frame[list(parts.roles.values())]


class _Reader:
    """:func:`read_part` of one set of parts (a picklable callable for dask)."""

    def __init__(self, parts: ParquetParts) -> None:
        self.parts = parts

    def __call__(self, k: int) -> pd.DataFrame:
        return read_part(self.parts, k)
