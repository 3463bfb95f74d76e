"""Coding records as three columns (coder, unit, value), turned into table cells at once.

Three entries of :class:`~clusteragree.CodingTable` read columns rather than records one by
one: the long DataFrame (:func:`long_cells`), the wide DataFrame (:func:`wide_cells`: its rows
repeated, its columns tiled, its cells in row-major order) and records (:func:`record_cells`).
Each factorises a column once with pandas' hash tables, finds a (coder, unit) pair given twice
with one count over all cells, and scatters the value codes into the coders x units matrix.

The wide and record entries promise what reading the records one by one gives
(:meth:`CodingTable.from_records`): Python's equality of dict keys, the first value seen kept,
the errors naming the record. Where pandas could answer differently (a missing coder or unit, a
missing value of a kind pandas may code otherwise, such as ``numpy.float32("nan")`` or a masked
cell, a NaN inside a tuple, which its hash tables equate and Python does not) or the data hold an
error, they return None and the caller reads the records one by one, which gives the table or
the error. What is missing is what :func:`is_missing` says, on every entry.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .._lazy import loaded, module
from ..errors import InputError
from ..inputs import objects_in_bulk

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = module("pandas")

__all__ = ["hide", "is_missing", "label_sets", "long_cells", "numeric_cells", "numeric_matrix",
           "record_cells", "unmasked", "wide_cells"]

IntArray = npt.NDArray[np.int64]
#: The labels, the coders x units value codes (-1 missing) and the distinct values of a table.
Cells = tuple[list[Any], list[Any], IntArray, list[Any]]
SET_TYPES = (set, frozenset, list)


def _missing_types() -> tuple[type, ...]:
    """Types whose every value is missing (pandas' factorisation agrees)."""
    return (type(None), type(pd.NA), type(pd.NaT))


#: Types none of whose values is missing (exactly these types: subclasses are asked).
_NEVER_MISSING = frozenset({str, int, bool, frozenset, set, tuple, list, bytes})


def is_missing(value: Any) -> bool:
    """None, NaN, ``pd.NA``, ``pd.NaT`` and a masked cell mean a missing value.

    A missing cell is a unit the coder did not code; it is not the same as coding it with the empty
    set, which is a value. What counts as missing is what pandas counts (``pd.isna`` of a
    single value), and numpy's masked cell (``numpy.ma.masked``, what a masked array gives for
    a cell it hides), so that every entry of a table (records, reliability data, DataFrames)
    reads the same data the same way.

    Parameters
    ----------
    value : object
        Any cell value.

    Returns
    -------
    bool
        True for None, ``pd.NA``, ``pd.NaT``, ``numpy.ma.masked``, a float or complex NaN
        (Python's or numpy's, of any precision), numpy's ``NaT`` (``datetime64`` and
        ``timedelta64``) and ``Decimal("NaN")``; False otherwise, for containers too.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43. (Missing values in reliability data.)

    docs/alpha.md, "Input and missing values".

    Examples
    --------
    >>> is_missing(None), is_missing(float("nan")), is_missing(pd.NA), is_missing(0)
    (True, True, True, False)
    >>> is_missing(pd.NaT), is_missing(np.float32("nan")), is_missing(np.ma.masked)
    (True, True, True)
    >>> is_missing(frozenset()), is_missing(""), is_missing(float("inf"))  # values
    (False, False, False)
    """
    if type(value) in _NEVER_MISSING:  # the common cases, first
        return False
    if value is None or value is np.ma.masked or (  # no pd.NA nor pd.NaT without pandas
            loaded("pandas") and (value is pd.NA or value is pd.NaT)):
        return True
    if isinstance(value, (float, complex, np.inexact)):
        return bool(value != value)
    if isinstance(value, (np.datetime64, np.timedelta64)):
        return bool(np.isnat(value))
    if isinstance(value, Decimal):
        return value.is_nan()
    return False


def plain(value: Any) -> Any:
    """A numpy scalar as the Python value it holds."""
    return value.item() if isinstance(value, np.generic) else value


def normalise(value: Any) -> tuple[Any, str]:
    """The stored form of a value and its kind (``"set"`` or ``"scalar"``)."""
    if isinstance(value, SET_TYPES):
        for label in value:
            if is_missing(label):
                raise InputError(
                    f"label set {value!r} holds a missing label ({label!r}); a missing label "
                    "cannot be compared: leave it out of the set, or make the whole cell "
                    "None (missing)")
            try:
                hash(label)
            except TypeError:
                raise InputError(
                    f"label set {value!r} holds the unhashable label {label!r}; labels are "
                    "str or numbers") from None
        return frozenset(value), "set"
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        value = value.item()
    try:
        hash(value)
    except TypeError:
        raise InputError(
            f"value {value!r} of type {type(value).__name__} is not hashable; "
            "give label sets as set, frozenset or list and labels as str or numbers"
        ) from None
    return value, "scalar"


def factorize_column(column: pd.Series) -> tuple[npt.NDArray[np.intp], Any]:
    """``pd.factorize(column)``, missing values coded -1, in less time for Python strings.

    pandas' own factorisation of a column of Python-backed strings (the ``str`` dtype without
    pyarrow) copies the strings and hashes them as generic objects; the object array the column
    holds gives the same codes in about half the time. Other columns (categoricals,
    pyarrow-backed, numbers, objects) keep pandas' own path.

    Parameters
    ----------
    column : Series
        Any column.

    Returns
    -------
    codes : ndarray of intp
        The code of each row, in order of first appearance; -1 where missing.
    uniques : Index
        The distinct values, of the column's dtype: what ``pd.factorize(column)`` gives.

    References
    ----------
    docs/performance.md, "From a DataFrame to alpha".

    Examples
    --------
    >>> codes, uniques = factorize_column(pd.Series(["b", None, "a", "b"], dtype="str"))
    >>> codes.tolist(), list(uniques), uniques.dtype == pd.Series(["a"], dtype="str").dtype
    ([0, -1, 1, 0], ['b', 'a'], True)
    """
    dtype = column.dtype
    if isinstance(dtype, pd.StringDtype) and dtype.storage == "python":
        codes, uniques = pd.factorize(column.to_numpy(dtype=object), use_na_sentinel=True)
        return codes, pd.Index(uniques, dtype=dtype)
    return pd.factorize(column, use_na_sentinel=True)


def _first_repeat(keys: IntArray, cells: int) -> int:
    """The position of the first key seen before, or -1; ``cells`` bounds the keys."""
    if cells <= 8 * len(keys) + 1024:  # count into a table of all cells
        if len(keys) == 0 or np.bincount(keys, minlength=cells).max() <= 1:
            return -1
    elif pd.Index(keys).is_unique:
        return -1
    return int(np.flatnonzero(pd.Index(keys).duplicated())[0])


def _scatter(keys: IntArray, shape: tuple[int, int], codes: npt.ArrayLike) -> IntArray:
    """The coders x units matrix holding ``codes`` at the flat positions ``keys``, -1 elsewhere."""
    matrix = np.full(shape, -1, dtype=np.int64)
    matrix.reshape(-1)[keys] = codes
    return matrix


def _frozen_sets(values: pd.Series, is_set: npt.NDArray[np.bool_]) -> pd.Series:
    """The sets and lists of a value column as frozensets, other values as they are."""
    try:
        with objects_in_bulk():
            frozen = values.map(lambda v: frozenset(v) if isinstance(v, (set, list)) else v)
    except TypeError:  # an unhashable label: name its row
        for row in np.flatnonzero(is_set).tolist():
            try:
                normalise(values.iloc[row])
            except InputError as err:
                raise InputError(f"row {row + 1}: {err.message}") from None
        raise
    return values.where(~is_set, frozen)


def long_cells(coders: pd.Series, units: pd.Series, values: pd.Series
               ) -> tuple[Any, Any, IntArray, list[Any]]:
    """The cells of a long DataFrame: one row per coded cell; rows named by position (1-based).

    Parameters
    ----------
    coders, units, values : Series
        The three columns, equally long. A value is a label, a number, or a set (or list) of
        labels; what :func:`is_missing` calls missing (None, NaN, ``pd.NA``, ``pd.NaT``, a
        masked cell) is missing.

    Returns
    -------
    coders, units : Index
        The distinct coders and units in order of first appearance.
    codes : ndarray of int64, shape (n_coders, n_units)
        Index into ``values`` for each cell, -1 where missing.
    values : list
        The distinct values (numpy scalars as Python ones, sets as frozensets).

    Raises
    ------
    InputError
        A missing coder or unit, a (coder, unit) pair given twice (naming both rows), sets mixed
        with single values, an unhashable value, a missing label inside a set.

    References
    ----------
    docs/alpha.md, "Input and missing values"; docs/performance.md, "From a DataFrame to alpha".

    Examples
    --------
    >>> c, u, codes, vals = long_cells(pd.Series(["A", "B", "A"]), pd.Series([1, 1, 2]),
    ...                                pd.Series(["x", "y", None]))
    >>> list(c), list(u), codes.tolist(), vals
    (['A', 'B'], [1, 2], [[0, -1], [1, -1]], ['x', 'y'])
    """
    c_codes, c_labels = factorize_column(coders)
    u_codes, u_labels = factorize_column(units)
    if len(c_codes) and min(c_codes.min(), u_codes.min()) < 0:
        bad = np.flatnonzero((c_codes < 0) | (u_codes < 0))
        raise InputError(f"row {bad[0] + 1}: the coder or the unit is missing")
    vals = values
    scalar_kinds = ("string", "integer", "floating", "mixed-integer-float", "boolean",
                    "decimal", "empty")
    if vals.dtype == object and pd.api.types.infer_dtype(vals, skipna=True) \
            not in scalar_kinds:
        vals = vals.reset_index(drop=True)
        is_set = vals.map(lambda v: isinstance(v, SET_TYPES)).to_numpy(dtype=bool)
        missing = ~is_set & vals.map(is_missing).to_numpy(dtype=bool)
        unseen = missing & ~vals.isna().to_numpy(dtype=bool)  # a masked cell, say
        if unseen.any():
            vals = vals.where(~unseen, None)
        if is_set.any() and (~is_set & ~missing).any():
            row = int(np.flatnonzero(~is_set & ~missing)[0]) + 1
            raise InputError(f"row {row}: a single value among label sets; a table holds "
                             "one kind of value")
        if is_set.any():
            vals = _frozen_sets(vals, is_set)
    n_u = max(len(u_labels), 1)
    keys = c_codes.astype(np.int64, copy=False) * n_u + u_codes
    again = _first_repeat(keys, len(c_labels) * n_u)
    if again >= 0:
        first = int(np.flatnonzero(keys == keys[again])[0])
        raise InputError(
            f"record {again + 1}: coder {plain(c_labels[c_codes[again]])!r} coded unit "
            f"{plain(u_labels[u_codes[again]])!r} twice (first at record {first + 1}); "
            "keep one record per coder and unit (a set value holds several labels)")
    try:  # None, NaN, pd.NA and pd.NaT all get the code -1: missing
        v_codes, v_uniques = factorize_column(vals)
    except TypeError as err:
        raise InputError(f"a value is not hashable ({err}); give label sets as set, "
                         "frozenset or list and labels as str or numbers") from None
    distinct = [normalise(v)[0] for v in v_uniques.tolist()]
    return c_labels, u_labels, _scatter(keys, (len(c_labels), len(u_labels)), v_codes), distinct


def _nan_inside(value: Any) -> bool:
    """A NaN inside a tuple (at any depth): pandas' hash tables take two such tuples for equal,
    Python only when it is the same NaN object."""
    return isinstance(value, tuple) and any(
        (isinstance(x, (float, complex)) and x != x) or _nan_inside(x) for x in value)


def _labels(column: npt.NDArray[np.object_]) -> tuple[npt.NDArray[np.intp], list[Any]] | None:
    """Codes and distinct labels (the first object seen of each) of coders or units; None for
    anything the records must decide (a missing or unhashable label, a NaN inside a tuple)."""
    try:
        codes, uniques = pd.factorize(column, use_na_sentinel=True)
    except (TypeError, ValueError):
        return None
    labels = uniques.tolist()
    if len(codes) and codes.min() < 0:
        return None
    if any(issubclass(t, tuple) for t in set(map(type, labels))) and any(
            _nan_inside(x) for x in labels):
        return None
    return codes, labels


def record_values(raw: np.ndarray) -> tuple[npt.NDArray[np.intp], list[Any]] | None:
    """The codes (-1 missing) and distinct stored values of the values of records, in order.

    What :meth:`CodingTable.from_records` makes of them one by one, Python's equality deciding
    which are equal (the first seen kept, numpy scalars as Python ones, sets and lists as
    frozensets); None where the records must be read one by one: an unhashable value or label,
    a missing label inside a set, sets mixed with single values, a value that pandas takes for
    missing and :func:`is_missing` does not, a NaN inside a tuple.

    Parameters
    ----------
    raw : ndarray
        The values, an object array (or a numeric one: NaN is then the only missing value).

    Returns
    -------
    (ndarray of intp, list) or None
        The code of each value and the distinct values; or None.

    References
    ----------
    docs/alpha.md, "Input and missing values".

    Examples
    --------
    >>> codes, values = record_values(np.array(["x", 1, None, 1.0, True], dtype=object))
    >>> codes.tolist(), values
    ([0, 1, -1, 1, 1], ['x', 1])
    >>> record_values(np.array([{"x"}, "x"], dtype=object)) is None  # sets and a label
    True
    """
    if raw.dtype != object:  # numbers: NaN is the only missing value
        codes, uniques = pd.factorize(raw, use_na_sentinel=True)
        return codes, uniques.tolist()
    types = set(map(type, raw))
    sets = any(issubclass(t, SET_TYPES) for t in types)
    values = raw
    if sets:
        if not all(issubclass(t, (*SET_TYPES, float)) or t in _missing_types() for t in types):
            return None  # a single value among the sets
        present = np.flatnonzero(~pd.isna(raw))
        values = raw.copy()
        try:
            with objects_in_bulk():
                values[present] = np.fromiter(map(frozenset, raw[present]), dtype=object,
                                              count=len(present))
        except TypeError:  # an unhashable label, or a number among the sets
            return None
    try:
        codes, uniques = pd.factorize(values, use_na_sentinel=True)
    except (TypeError, ValueError):
        return None
    if len(codes) and codes.min() < 0:  # missing for pandas: missing for is_missing too?
        odd = set(map(type, raw[codes < 0]))
        if not all(t in _missing_types() or issubclass(t, float) for t in odd):
            return None
    distinct = []
    tuples = any(issubclass(t, tuple) for t in types)
    for value in uniques.tolist():
        if sets != isinstance(value, frozenset) or (tuples and _nan_inside(value)):
            return None
        try:
            distinct.append(normalise(value)[0])
        except InputError:
            return None
    return codes, distinct


def record_columns(records: Iterable[Any], coders: list[Any], units: list[Any],
                   values: list[Any]) -> list[Any]:
    """Read records of three fields in one pass, into three lists.

    Parameters
    ----------
    records : iterable
        Anything iterable; each record is unpacked as ``coder, unit, value = record``.
    coders, units, values : list
        Where the fields go, one entry per record, in order. Whatever the iterable itself raises
        propagates, the lists holding the records read before.

    Returns
    -------
    list
        Empty when every record unpacked; else the first one that did not (the records after it
        are not read), alone.

    References
    ----------
    docs/alpha.md, "Input and missing values".

    Examples
    --------
    >>> coders, units, values = [], [], []
    >>> record_columns([("A", 1, "x"), ("B", 1, {"y"}), ("C", 2), ("D", 2, "z")],
    ...                coders, units, values)
    [('C', 2)]
    >>> coders, units, values
    (['A', 'B'], [1, 1], ['x', {'y'}])
    """
    add_coder, add_unit, add_value = coders.append, units.append, values.append
    for record in records:
        try:
            coder, unit, value = record
        except (TypeError, ValueError):
            return [record]
        add_coder(coder)
        add_unit(unit)
        add_value(value)
    return []


def record_cells(coders: list[Any], units: list[Any], values: list[Any]) -> Cells | None:
    """The cells of records given as three columns, as reading them one by one makes them.

    Parameters
    ----------
    coders, units, values : list
        The fields of the records, in order (:func:`record_columns`).

    Returns
    -------
    (coders, units, codes, values) or None
        The distinct coders and units (the first object seen of each, in order of first
        appearance), the coders x units value codes (-1 missing) and the distinct values; None
        when the records must be read one by one (an error among them, or a label or value
        that pandas and Python compare differently).

    References
    ----------
    docs/alpha.md, "Input and missing values".

    Examples
    --------
    >>> record_cells(["A", "B", "A"], [1, 1, 2], ["x", "y", None])
    (['A', 'B'], [1, 2], array([[ 0, -1],
           [ 1, -1]]), ['x', 'y'])
    >>> record_cells(["A", "A"], [1, 1], ["x", "y"]) is None  # coded twice: read them one by one
    True
    """
    n = len(values)
    if not n:
        return None
    c = _labels(np.fromiter(coders, dtype=object, count=n))
    u = _labels(np.fromiter(units, dtype=object, count=n))
    if c is None or u is None:
        return None
    (c_codes, c_labels), (u_codes, u_labels) = c, u
    keys = c_codes.astype(np.int64, copy=False) * len(u_labels) + u_codes
    if _first_repeat(keys, len(c_labels) * len(u_labels)) >= 0:
        return None
    found = record_values(np.fromiter(values, dtype=object, count=n))
    if found is None:
        return None
    codes = _scatter(keys, (len(c_labels), len(u_labels)), found[0])
    return c_labels, u_labels, codes, found[1]


def _distinct_labels(index: pd.Index, labels: list[Any]) -> bool:
    """Hashable, none missing, none equal to another (as dict keys): ``labels`` are those of
    ``index``, as iterating over it gives them."""
    try:
        if len(dict.fromkeys(labels)) < len(labels):
            return False
    except TypeError:
        return False
    if isinstance(index, pd.MultiIndex):  # tuples: none is missing
        return True
    return not index.hasnans  # what is_missing calls missing, pandas does too


def _same_as_iterated(dtype: Any) -> bool:
    """A column whose ``to_numpy(dtype=object)`` holds what iterating over it gives."""
    if isinstance(dtype, np.dtype):
        return dtype.kind in "biufO"
    if isinstance(dtype, pd.CategoricalDtype):  # numbers with NaN may come out as floats
        dtype = dtype.categories.dtype
        return (isinstance(dtype, np.dtype) and dtype.kind == "O") \
            or isinstance(dtype, pd.StringDtype)
    return isinstance(dtype, pd.StringDtype)


def wide_cells(df: pd.DataFrame) -> Cells | None:
    """The cells of a wide DataFrame (a row per coder, a column per unit), vectorised.

    The same as reading the records ``(row label, column label, cell)`` row by row; None where
    they must be read so (duplicate or missing labels, an error or an unusual value among the
    cells, a column of another dtype than numbers, objects, strings and categoricals of strings
    or objects, an empty frame).

    Parameters
    ----------
    df : DataFrame
        Krippendorff's reliability data: coders as the index, units as the columns.

    Returns
    -------
    (coders, units, codes, values) or None
        As :func:`record_cells`.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43. (Reliability data: coders x units.)

    Examples
    --------
    Each value as its record holds it: 1 from the column of ints, 2.0 from the column of floats
    (which NaN made float):

    >>> wide = pd.DataFrame({"u1": [1, 1], "u2": [2, None]}, index=["A", "B"])
    >>> wide_cells(wide)
    (['A', 'B'], ['u1', 'u2'], array([[ 0,  1],
           [ 0, -1]]), [1, 2.0])
    """
    coders, units = list(df.index), list(df.columns)
    if df.size == 0 or not (_distinct_labels(df.index, coders)
                            and _distinct_labels(df.columns, units)):
        return None
    dtypes = set(df.dtypes.tolist())
    if not all(_same_as_iterated(d) for d in dtypes):
        return None
    numeric = len(dtypes) == 1 and all(isinstance(d, np.dtype) and d.kind in "biuf"
                                       for d in dtypes)
    cells = df.to_numpy() if numeric else df.to_numpy(dtype=object)
    found = record_values(cells.reshape(-1))  # row by row, as the records come
    if found is None:
        return None
    codes = np.asarray(found[0], dtype=np.int64).reshape(len(coders), len(units))
    return coders, units, codes, found[1]



#: Integer values spanning at most this many codes are coded through a lookup table.
DENSE_VALUE_SPAN = 1 << 22


def unmasked(data: Any) -> tuple[Any, npt.NDArray[np.bool_] | None]:
    """Reliability data with numpy's masks turned into missing cells.

    A masked cell is missing (:func:`is_missing`), wherever it is: a 2-D masked array of
    numbers gives its data and its mask (the caller codes the hidden cells as missing); any
    other masked array, and masked rows of a list, give lists in which a hidden cell is None.
    Anything else is returned as it is. Converting a masked array with ``numpy.asarray``
    would drop the mask and read the hidden cells as values.

    Parameters
    ----------
    data : object
        Reliability data as :meth:`~clusteragree.CodingTable.from_matrix` takes it.

    Returns
    -------
    (data, mask)
        The data without masks, and the mask of the hidden cells (None when no mask is left
        to apply: none was given, or the hidden cells are None now).

    References
    ----------
    docs/alpha.md, "Input and missing values".

    Examples
    --------
    >>> values, hidden = unmasked(np.ma.masked_array([[1, 2], [1, 3]], [[0, 1], [0, 0]]))
    >>> values.tolist(), hidden.tolist()
    ([[1, 2], [1, 3]], [[False, True], [False, False]])
    >>> unmasked([["a", "b"], np.ma.masked_array(["a", "c"], [0, 1])])
    ([['a', 'b'], ['a', None]], None)
    """
    if isinstance(data, np.ma.MaskedArray):
        if data.ndim == 2 and data.dtype.kind in "biuf":
            return np.ma.getdata(data), np.ma.getmaskarray(data)
        return data.tolist(), None  # hidden cells as None
    if isinstance(data, (list, tuple)) and any(isinstance(r, np.ma.MaskedArray) for r in data):
        return [r.tolist() if isinstance(r, np.ma.MaskedArray) else r for r in data], None
    return data, None


def numeric_matrix(data: Any) -> npt.NDArray[Any] | None:
    """Reliability data as a 2-D numeric array, or None when it is not plainly numeric.

    A numpy array of booleans, integers or floats is taken as it is. A list of rows is
    converted by numpy and kept when every cell became a number (no None, sets, strings or
    masked cells) and, for floats, no magnitude reaches 2**53, where a Python int could have
    been rounded. Masked arrays are for :func:`unmasked` first.
    """
    if isinstance(data, np.ma.MaskedArray):
        return None
    if isinstance(data, np.ndarray):
        return data if data.ndim == 2 and data.dtype.kind in "biuf" else None
    try:
        with warnings.catch_warnings():  # numpy turns a masked cell into NaN, with a warning
            warnings.filterwarnings("error", message=".*masked element", category=UserWarning)
            arr = np.asarray(data)
    except (ValueError, TypeError, UserWarning):
        return None
    if arr.ndim != 2 or arr.dtype.kind not in "biuf":
        return None
    if arr.dtype.kind == "f" and arr.size:
        with np.errstate(invalid="ignore"):
            if float(np.nanmax(np.abs(arr), initial=0.0)) >= 2.0**53:
                return None
    return arr


def hide(codes: IntArray, values: list[Any], hidden: npt.NDArray[np.bool_] | None
         ) -> tuple[IntArray, list[Any]]:
    """``codes`` with the ``hidden`` cells missing (-1), and only the values still used.

    Examples
    --------
    >>> codes, values = hide(np.array([[0, 1], [0, 2]]), [1, 2, 3],
    ...                      np.array([[False, True], [False, False]]))
    >>> codes.tolist(), values
    ([[0, -1], [0, 1]], [1, 3])
    """
    if hidden is None or not hidden.any():
        return codes, values
    codes = np.where(hidden, -1, codes)
    used = np.flatnonzero(np.bincount(codes[codes >= 0], minlength=len(values)))
    if len(used) == len(values):
        return codes, values
    remap = np.full(len(values) + 1, -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    return remap[codes], [values[k] for k in used.tolist()]


def numeric_cells(arr: npt.NDArray[Any]) -> tuple[IntArray, list[Any]]:
    """Value codes (-1 where NaN) and the distinct values, sorted, of a numeric matrix.

    The vectorised twin of reading the matrix cell by cell: the values are the Python numbers
    the cells hold (``float`` for a float array, ``int`` for an integer one, ``bool`` for a
    boolean one), NaN is missing. Integer values, and floats that are all whole numbers, of a
    span up to :data:`DENSE_VALUE_SPAN` are coded through a lookup table in linear time; other
    data are factorised by sorting.

    Parameters
    ----------
    arr : ndarray of bool, int or float, shape (coders, units)
        Reliability data.

    Returns
    -------
    codes : ndarray of int64, shape (coders, units)
        Index of each cell's value in ``values``, -1 for NaN.
    values : list
        The distinct values in increasing order.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43. (Reliability data, NaN for a missing value.)

    Examples
    --------
    >>> codes, values = numeric_cells(np.array([[1.0, np.nan, 3.0], [3.0, 1.0, 2.5]]))
    >>> codes.tolist(), values
    ([[0, -1, 2], [2, 0, 1]], [1.0, 2.5, 3.0])
    >>> numeric_cells(np.array([[7, 9], [9, 9]]))
    (array([[0, 1],
           [1, 1]]), [7, 9])
    """
    kind = arr.dtype.kind
    flat = arr.reshape(-1)
    codes_of = _dense_codes(flat, kind)
    if codes_of is not None:
        codes, values = codes_of
        return codes.reshape(arr.shape), values
    missing = np.isnan(flat) if kind == "f" else None
    present = flat if missing is None else flat[~missing]
    codes = np.full(flat.shape, -1, dtype=np.int64)
    if not present.size:
        return codes.reshape(arr.shape), []
    distinct, inverse = np.unique(present, return_inverse=True)
    if missing is None:
        codes[:] = inverse.reshape(-1)
    else:
        codes[~missing] = inverse.reshape(-1)
    return codes.reshape(arr.shape), distinct.tolist()


def _dense_codes(flat: npt.NDArray[Any], kind: str) -> tuple[IntArray, list[Any]] | None:
    """Codes through a lookup table when the values are whole numbers of a small span (NaN
    missing), in a few passes over the cells; None otherwise."""
    if not flat.size:
        return None
    if kind == "b":
        lo, hi = 0, 1
    elif kind in "iu":
        lo, hi = int(flat.min()), int(flat.max())
    else:
        lo_v, hi_v = np.fmin.reduce(flat), np.fmax.reduce(flat)  # NaN left out
        if not (np.isfinite(lo_v) and np.isfinite(hi_v)) or max(abs(lo_v), abs(hi_v)) >= 2**53:
            return None
        lo, hi = int(np.floor(lo_v)), int(np.floor(hi_v))
    span = hi - lo + 1
    if span > DENSE_VALUE_SPAN:
        return None
    if kind == "f":
        shifted = flat - float(lo)
        missing = np.isnan(shifted)
        np.copyto(shifted, float(span), where=missing)  # missing: the last slot
        ints = shifted.astype(np.int64)
        back = ints.astype(np.float64)
        back += float(lo)
        np.copyto(back, np.nan, where=missing)
        # a value that is not a whole number (compared with the value itself: 1 + 1e-20 is
        # 1.0 once shifted, 1e-20 is not a whole number)
        if not np.array_equal(back, flat, equal_nan=True):
            return None
    elif kind in "ib":
        ints = flat.astype(np.int64) - lo
    else:
        ints = (flat - flat.dtype.type(lo)).astype(np.int64)
    seen = np.bincount(ints, minlength=span + 1)[:span] > 0
    table = np.empty(span + 1, dtype=np.int64)
    np.cumsum(seen, out=table[:span])
    table[:span] -= 1
    table[span] = -1
    found = np.flatnonzero(seen)
    if kind == "b":
        values: list[Any] = [bool(v) for v in found]
    elif kind == "f":
        values = (found.astype(np.float64) + float(lo)).tolist()
    else:
        values = [lo + int(v) for v in found]
    return table[ints], values


def label_sets(values: pd.Series, sep: str, path: str | None = None) -> pd.Series:
    """Text values as label sets split at ``sep`` (labels trimmed; an empty text is the empty
    set; values that are not text, nulls among them, stay as they are).

    Parameters
    ----------
    values : Series
        One text per cell.
    sep : str
        The separator of the labels; ``"none"``: each text is one label (as ``--sep none``
        reads the CSV's label fields).
    path : str, optional
        The file the values come from, for the error.

    Returns
    -------
    Series of frozenset
        The same index.

    Raises
    ------
    InputError
        An empty label (two separators in a row, or one at an end).

    References
    ----------
    docs/scale.md (Parquet codings, split as the CSV's label fields are).

    Examples
    --------
    >>> [sorted(labels) for labels in label_sets(pd.Series(["PER; ORG", ""]), ";")]
    [['ORG', 'PER'], []]
    >>> [sorted(labels) for labels in label_sets(pd.Series(["none of them", "a;b"]), "none")]
    [['none of them'], ['a;b']]
    """
    def split(text: Any) -> Any:
        if not isinstance(text, str):
            return text
        pieces = [text] if sep == "none" else text.split(sep)  # none: the field is one label
        labels = [piece.strip() for piece in pieces] if text else []
        if any(not label for label in labels):
            raise InputError(f"empty label in {text!r} (separator {sep!r}); remove the extra "
                             "separator", path=path)
        return frozenset(labels)
    values = values.astype(object)
    if len(values) and pd.api.types.infer_dtype(values, skipna=True) == "string":
        # text and nulls only: each distinct text split once, in order of first appearance
        # (so that the first empty label refused is the first in the column)
        codes, uniques = pd.factorize(values, use_na_sentinel=True)
        sets = np.empty(len(uniques), dtype=object)
        for k, text in enumerate(uniques.tolist()):
            sets[k] = split(text)
        out = sets[codes] if len(sets) else np.empty(len(values), dtype=object)
        null = codes < 0
        if null.any():
            out[null] = values.to_numpy()[null]
        return pd.Series(out, index=values.index, name=values.name, dtype=object)
    return values.map(split)
