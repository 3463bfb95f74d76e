"""The coding table: coders x units, each cell a value or missing.

A value is a frozenset (a set of labels, or a unit's class minus the unit itself) or a scalar
(a label, a number); one table holds one kind. ``None`` (and NaN, ``pd.NA``, ``pd.NaT``, a masked
cell: :func:`~clusteragree.core.columns.is_missing`) mean missing: the coder did not code that
unit, which is not the same as coding it with the empty set.

A table built from clusterings keeps each coder's class ids instead of materialised sets, so the
linear-time alpha engine can use them directly; the sets are built only when asked for.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from functools import cached_property
from itertools import chain
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .._lazy import module
from ..errors import InputError, ParameterError, ParameterTypeError, option
from .columns import (
    hide,
    is_missing,
    long_cells,
    normalise,
    numeric_cells,
    numeric_matrix,
    record_cells,
    record_columns,
    unmasked,
    wide_cells,
)

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = module("pandas")

__all__ = ["CodingTable", "is_missing", "name_coders", "require_records", "unique_labels"]

IntArray = npt.NDArray[np.int64]

#: Fewer records than this are read one by one: pandas' fixed cost per factorisation is more
#: than the loop takes (they meet near a hundred records).
FEW_RECORDS = 100


def require_records(records: Any, shape: str, builder: str) -> None:
    """Refuse anything but an iterable of records (a string, a mapping, a DataFrame).

    The record builders (:meth:`CodingTable.from_records`, ``MultiLabel.from_records``) call this
    first, so that a string is not read character by character and a DataFrame is not read as its
    column names.

    Parameters
    ----------
    records : object
        What the caller passed as records.
    shape : str
        The shape of one record, for the message, e.g. ``"(coder, unit, value)"``.
    builder : str
        The class whose ``from_dataframe`` the message suggests for a DataFrame, e.g.
        ``"CodingTable"``.

    Returns
    -------
    None
        When ``records`` is an iterable other than a string, bytes, a mapping or a DataFrame.

    Raises
    ------
    ParameterTypeError
        Otherwise, naming the type received (and ``builder.from_dataframe`` for a DataFrame).

    References
    ----------
    docs/alpha.md, "Input and missing values" (wrong types are ParameterTypeError naming the
    argument).

    Examples
    --------
    >>> require_records([("A", 1, "x")], "(coder, unit, value)", "CodingTable") is None
    True
    >>> require_records("A,1,x", "(coder, unit, value)", "CodingTable")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.ParameterTypeError: records must be an iterable of ... tuples. Got str.
    """
    if isinstance(records, (str, bytes, Mapping, pd.DataFrame)) or not isinstance(
            records, Iterable):
        raise ParameterTypeError(
            f"records must be an iterable of {shape} tuples. Got {type(records).__name__}"
            + (f"; for a DataFrame use {builder}.from_dataframe"
               if isinstance(records, pd.DataFrame) else "") + ".")


class CodingTable:
    """Coders x units table of coding values, with missing cells.

    Build one with :meth:`from_records`, :meth:`from_dataframe` or :meth:`from_clusterings`
    rather than with the constructor.

    Parameters
    ----------
    coders, units : sequence
        Coder and unit labels, in order.
    codes : ndarray of int, shape (n_coders, n_units), optional
        Index into ``values`` for each cell, -1 where missing.
    values : sequence, optional
        The distinct values (value types) that ``codes`` points to.
    classes : ndarray of int, shape (n_coders, n_units), optional
        For class-derived tables: each coder's class id per unit (ids are per coder), -1 where
        missing. The value of a unit is its class minus the unit itself.
    meta : mapping, optional
        Provenance (``units``, ``tok``, ...) echoed in result signatures.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43. (Reliability data: coders x units, with missing
    values.)

    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006, Genoa. Section 3.3 (the value of a unit is
    its class with the unit itself removed).

    docs/alpha.md, "Input and missing values"; docs/architecture.md.

    Examples
    --------
    Coder A gives unit 1 the set {x} and leaves unit 2 missing; B gives unit 1 {x, y} and never
    mentions unit 2, which is missing too:

    >>> t = CodingTable.from_records([("A", 1, {"x"}), ("B", 1, {"x", "y"}), ("A", 2, None)])
    >>> t.n_coders, t.n_units, t.value_kind
    (2, 2, 'set')
    >>> sorted(t.value("B", 1)), t.value("A", 2), t.value("B", 2)
    (['x', 'y'], None, None)
    """

    def __init__(
        self,
        coders: Sequence[Hashable] | pd.Index,
        units: Sequence[Hashable] | pd.Index,
        *,
        codes: npt.ArrayLike | None = None,
        values: Sequence[Any] | None = None,
        classes: npt.ArrayLike | None = None,
        meta: Mapping[str, str] | None = None,
    ) -> None:
        self._coders, self._units = _axis(coders), _axis(units)
        self.meta: dict[str, str] = dict(meta or {})
        shape = (len(self._coders), len(self._units))
        if (codes is None) == (classes is None):
            raise ParameterError("give exactly one of codes (with values) and classes")
        if classes is not None:
            self._classes: IntArray | None = np.asarray(classes, dtype=np.int64)
            if self._classes.shape != shape:
                raise ParameterError(f"classes has shape {self._classes.shape}, expected {shape}")
        else:
            self._classes = None
            codes_arr = np.asarray(codes, dtype=np.int64)
            if codes_arr.shape != shape:
                raise ParameterError(f"codes has shape {codes_arr.shape}, expected {shape}")
            vals = tuple(values or ())
            if codes_arr.size and codes_arr.max(initial=-1) >= len(vals):
                raise ParameterError("codes point past the end of values")
            self.__dict__["codes"] = codes_arr
            self.__dict__["values"] = vals
        if not _unique(self._coders):
            raise ParameterError("coder labels must be unique")
        if not _unique(self._units):
            raise ParameterError("unit labels must be unique")

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_records(
        cls,
        records: Iterable[tuple[Hashable, Hashable, Any]],
        *,
        meta: Mapping[str, str] | None = None,
        source: str | None = None,
    ) -> CodingTable:
        """Build a table from ``(coder, unit, value)`` records.

        Sets, frozensets and lists become frozensets of labels; other values are scalars.
        A missing value (:func:`is_missing`: None, NaN, ``pd.NA``, ``pd.NaT``, a masked cell)
        is missing, as is a (coder, unit) pair that never occurs.

        The records are read in one pass into three columns, which pandas factorises at once
        (:func:`~clusteragree.core.columns.record_cells`); where that could differ from reading
        them one by one (an error among them, a label or value that pandas compares otherwise
        than Python, such as a NaN inside a tuple), and below :data:`FEW_RECORDS` records,
        where the loop is faster, they are read one by one, which gives the table or names the
        record.

        Raises
        ------
        InputError
            If a (coder, unit) pair occurs twice, a value is unhashable, or sets and scalars
            are mixed. The record's position (1-based) is named; ``source`` names the data.
        """
        require_records(records, "(coder, unit, value)", "CodingTable")
        coders: list[Any] = []
        units: list[Any] = []
        values: list[Any] = []
        failed: Exception | None = None
        try:
            rest = record_columns(records, coders, units, values)
        except Exception as err:  # from the iterable itself
            failed = err
        if failed is not None:  # an error in the records read before it comes first
            cls._read_records(zip(coders, units, values, strict=True), meta=meta, source=source,
                              build=False)
            raise failed
        few = len(values) < FEW_RECORDS
        cells = None if rest or few else record_cells(coders, units, values)
        if cells is None:  # few, an error among them, or labels pandas compares otherwise
            read = chain(zip(coders, units, values, strict=True), rest)
            table = cls._read_records(read, meta=meta, source=source)
            assert table is not None
            return table
        coder_labels, unit_labels, codes, distinct = cells
        return cls(coder_labels, unit_labels, codes=codes, values=distinct, meta=meta)

    @classmethod
    def _read_records(
        cls,
        records: Iterable[Any],
        *,
        meta: Mapping[str, str] | None,
        source: str | None,
        build: bool = True,
    ) -> CodingTable | None:
        """:meth:`from_records` one record at a time: the reference, and the errors' author
        (with ``build=False`` it only checks the records, and returns None)."""
        coder_ix: dict[Hashable, int] = {}
        unit_ix: dict[Hashable, int] = {}
        value_ix: dict[Any, int] = {}
        cells: dict[tuple[int, int], int] = {}
        first_at: dict[tuple[int, int], int] = {}
        kind: str | None = None
        for pos, record in enumerate(records, start=1):
            try:
                coder, unit, raw = record
            except (TypeError, ValueError):
                raise InputError(
                    f"record {pos} is {record!r}; expected a (coder, unit, value) triple",
                    path=source,
                ) from None
            try:
                c = coder_ix.setdefault(coder, len(coder_ix))
                u = unit_ix.setdefault(unit, len(unit_ix))
            except TypeError:
                raise InputError(
                    f"record {pos}: coder {coder!r} or unit {unit!r} is not hashable; coders "
                    "and units are labels (str, int, ...)", path=source) from None
            if is_missing(coder) or is_missing(unit):
                raise InputError(
                    f"record {pos}: the coder or the unit is missing ({coder!r}, {unit!r})",
                    path=source)
            if (c, u) in cells:
                raise InputError(
                    f"record {pos}: coder {coder!r} coded unit {unit!r} twice (first at record "
                    f"{first_at[c, u]}); keep one record per coder and unit (a set value holds "
                    "several labels)",
                    path=source,
                )
            first_at[c, u] = pos
            if is_missing(raw):
                cells[c, u] = -1
                continue
            try:
                value, this_kind = normalise(raw)
            except InputError as err:
                raise InputError(f"record {pos}: {err.message}", path=source) from None
            if kind is None:
                kind = this_kind
            elif kind != this_kind:
                raise InputError(
                    f"record {pos}: coder {coder!r}, unit {unit!r} has a {this_kind} value "
                    f"{raw!r} but earlier values are {kind}s; a table holds one kind of value",
                    path=source,
                )
            cells[c, u] = value_ix.setdefault(value, len(value_ix))
        if not build:
            return None
        codes = np.full((len(coder_ix), len(unit_ix)), -1, dtype=np.int64)
        if cells:
            (cs, us), vs = zip(*cells.keys(), strict=True), list(cells.values())
            codes[np.array(cs), np.array(us)] = vs
        return cls(list(coder_ix), list(unit_ix), codes=codes, values=list(value_ix), meta=meta)

    @classmethod
    def from_matrix(
        cls,
        data: Any,
        *,
        coders: Sequence[Hashable] | None = None,
        units: Sequence[Hashable] | None = None,
        meta: Mapping[str, str] | None = None,
    ) -> CodingTable:
        """Build a table from reliability data: one row per coder, one column per unit.

        This is Krippendorff's layout (and the ``krippendorff`` package's): ``data[i][j]`` is
        coder ``i``'s value for unit ``j``; None, NaN, ``pd.NA``, ``pd.NaT`` and the cells a
        numpy masked array hides are missing (:func:`is_missing`). A cell may hold a set (or
        list) of labels; a table holds sets or scalars, not both.

        Parameters
        ----------
        data : 2-D array-like
            A list of equally long rows, or a 2-D numpy array (masked arrays and masked rows
            too: a masked cell is missing).
        coders, units : sequence, optional
            Labels of the rows and columns (default: 0, 1, ...).

        Examples
        --------
        >>> t = CodingTable.from_matrix([[1, 2, None], [1, 3, 3]], coders=["A", "B"])
        >>> t.n_coders, t.n_units, t.value("A", 2)
        (2, 3, None)

        A masked cell is missing; its hidden value is not among the table's values:

        >>> import numpy as np
        >>> m = CodingTable.from_matrix(np.ma.masked_array([[1, 2], [1, 3]], [[0, 0], [0, 1]]))
        >>> m.value(1, 1), m.values
        (None, (1, 2))
        """
        if isinstance(data, pd.DataFrame):
            raise ParameterTypeError(
                "from_matrix takes a 2-D list or numpy array; for a DataFrame use "
                "CodingTable.from_dataframe(df, layout='long' or 'wide')")
        data, hidden = unmasked(data)  # a masked cell is missing
        arr = numeric_matrix(data)
        if arr is not None:  # numbers only: coded at once, as reading cell by cell would
            return cls._from_numeric(arr, coders, units, meta, hidden)
        if isinstance(data, np.ndarray):
            if data.ndim != 2:
                raise ParameterError(
                    f"reliability data must be 2-D (coders x units); got shape {data.shape}")
            rows: list[Sequence[Any]] = [list(r) for r in data.tolist()]
        elif isinstance(data, Sequence) and not isinstance(data, (str, bytes)):
            rows = []
            for i, row in enumerate(data):
                if isinstance(row, (str, bytes, Mapping)) or not isinstance(
                        row, (Sequence, np.ndarray)):
                    raise ParameterTypeError(
                        f"row {i} of the reliability data is {type(row).__name__}; each row "
                        "is one coder's values, a list")
                rows.append(list(row))
        else:
            raise ParameterTypeError(
                "reliability data must be a 2-D list (one row per coder) or a 2-D numpy "
                f"array. Got {type(data).__name__}.")
        widths = {len(r) for r in rows}
        if len(widths) > 1:
            raise ParameterError(
                f"the rows of the reliability data have different lengths {sorted(widths)}; "
                "give every coder one entry per unit (None where missing)")
        width = widths.pop() if widths else 0
        coder_labels = list(range(len(rows))) if coders is None else list(coders)
        unit_labels = list(range(width)) if units is None else list(units)
        if len(coder_labels) != len(rows) or len(unit_labels) != width:
            raise ParameterError(
                f"{len(coder_labels)} coder and {len(unit_labels)} unit labels for data of "
                f"shape ({len(rows)}, {width})")
        table = cls.from_records(
            ((coder_labels[i], unit_labels[j], v) for i, row in enumerate(rows)
             for j, v in enumerate(row)), meta=meta)
        if table.n_coders != len(rows) or table.n_units != width:  # labels were not unique
            raise ParameterError("coder and unit labels must be unique")
        return table

    @classmethod
    def _from_numeric(cls, arr: npt.NDArray[Any], coders: Sequence[Hashable] | None,
                      units: Sequence[Hashable] | None, meta: Mapping[str, str] | None,
                      hidden: npt.NDArray[np.bool_] | None = None) -> CodingTable:
        """:meth:`from_matrix` of a numeric array (NaN and the ``hidden`` cells missing),
        without a record per cell."""
        n_rows, width = arr.shape
        coder_labels: Sequence[Hashable] = range(n_rows) if coders is None else list(coders)
        unit_labels: Sequence[Hashable] | pd.Index = (
            pd.RangeIndex(width) if units is None else list(units))
        if len(coder_labels) != n_rows or len(unit_labels) != width:
            raise ParameterError(
                f"{len(coder_labels)} coder and {len(unit_labels)} unit labels for data of "
                f"shape ({n_rows}, {width})")
        codes, values = hide(*numeric_cells(arr), hidden)
        try:
            return cls(list(coder_labels), unit_labels, codes=codes, values=values, meta=meta)
        except ParameterError:
            raise ParameterError("coder and unit labels must be unique") from None

    @classmethod
    def from_dataframe(
        cls,
        df: pd.DataFrame,
        *,
        layout: str = "long",
        coder: str = "coder",
        unit: str = "unit",
        value: str | None = None,
        meta: Mapping[str, str] | None = None,
    ) -> CodingTable:
        """Build a table from a DataFrame: long (a row per coded cell) or, when asked, wide.

        Both layouts are read with vectorised pandas operations (factorize), so a frame of a
        million cells takes a fraction of a second (:func:`~clusteragree.core.columns.long_cells`,
        :func:`~clusteragree.core.columns.wide_cells`). The wide layout gives what its records
        ``(row label, column label, cell)`` give to :meth:`from_records`, errors included.

        Parameters
        ----------
        df : DataFrame
            Long layout: the columns named by ``coder``, ``unit`` and ``value`` (default: the
            first of ``value``, ``labels``, ``label``), one row per coded cell; a value is a
            label, a number, or a set (or list) of labels; None, NaN, ``pd.NA``, ``pd.NaT``
            and masked cells are missing (:func:`is_missing`). Wide layout
            (``layout="wide"``): one row per coder (the index) and one column per unit,
            Krippendorff's reliability data.
        layout : {"long", "wide"}, default="long"
            Never guessed: a frame without the long columns is refused with a message.
        coder, unit, value : str
            Column names of the long layout.

        Raises
        ------
        InputError
            Missing columns, a coder or unit that is missing, a (coder, unit) pair given twice
            (naming both rows), sets mixed with single values, a missing label inside a set.

        Examples
        --------
        >>> long = pd.DataFrame({"coder": ["A", "B", "A"], "unit": [1, 1, 2],
        ...                      "value": ["x", "y", None]})
        >>> t = CodingTable.from_dataframe(long)
        >>> t.n_coders, t.n_units, t.value("B", 1), t.value("A", 2)
        (2, 2, 'y', None)
        >>> wide = pd.DataFrame({"u1": [1, 1], "u2": [2, None]}, index=["A", "B"])
        >>> CodingTable.from_dataframe(wide, layout="wide").value("B", "u2") is None
        True
        """
        if not isinstance(df, pd.DataFrame):
            raise ParameterTypeError(f"df must be a pandas DataFrame. Got {type(df).__name__}.")
        if layout not in ("long", "wide"):
            raise ParameterError(f"layout must be 'long' or 'wide'. Got {layout!r}.")
        if layout == "wide":
            cells = wide_cells(df)
            if cells is not None:
                coders, units, codes, values = cells
                return cls(coders, units, codes=codes, values=values, meta=meta)
            recs = (
                (c, u, v)
                for c, row in zip(df.index, df.itertuples(index=False, name=None), strict=True)
                for u, v in zip(df.columns, row, strict=True)
            )
            return cls.from_records(recs, meta=meta)
        cols = list(df.columns)
        value_col = value if value is not None else next(
            (c for c in ("value", "labels", "label") if c in cols), None)
        if coder not in cols or unit not in cols or value_col not in cols:
            raise InputError(
                f"a long DataFrame needs the columns {coder}, {unit} and {value or 'value'} "
                f"(or labels, label; coder=, unit=, value= name others); it has {cols}. For one "
                "row per coder and one column per unit, give layout='wide'")
        return cls._from_columns(df[coder], df[unit], df[value_col], meta)

    @classmethod
    def _from_columns(cls, coders: pd.Series, units: pd.Series, values: pd.Series,
                      meta: Mapping[str, str] | None) -> CodingTable:
        """The long layout, vectorised; rows are named by their position (1-based)."""
        c_labels, u_labels, codes, distinct = long_cells(coders, units, values)
        return cls(c_labels, u_labels, codes=codes, values=distinct, meta=meta)

    @classmethod
    def from_clusterings(
        cls,
        clusterings: Mapping[Hashable, Any],
        *,
        meta: Mapping[str, str] | None = None,
    ) -> CodingTable:
        """Build a class-derived table: each unit's value is its class minus itself.

        Parameters
        ----------
        clusterings : mapping
            Coder -> clustering, where a clustering is either a mapping unit -> class id
            (units absent, or mapped to None, are missing for that coder), a pandas Series
            indexed by unit, or an array-like of class ids for units ``0..n-1`` in which
            a negative id (or a missing value, :func:`is_missing`, or a masked cell) is
            missing. Class ids are per coder: class 1 of one
            coder has nothing to do with class 1 of another.

        Examples
        --------
        >>> t = CodingTable.from_clusterings({"A": {"x": 1, "y": 1, "z": 2},
        ...                                   "B": {"x": 7, "y": 8, "z": 8}})
        >>> sorted(t.value("A", "x")), sorted(t.value("B", "z"))
        (['y'], ['y'])
        >>> CodingTable.from_clusterings({"A": [0, 0, 1], "B": [5, -1, 5]}).value("B", 1) is None
        True
        """
        if not isinstance(clusterings, Mapping):
            raise ParameterTypeError(
                "clusterings must be a mapping coder -> clustering (a dict unit -> class id, a "
                f"Series, or an array of class ids). Got {type(clusterings).__name__}.")
        if not clusterings:
            raise InputError("from_clusterings needs at least one coder")
        series: dict[Hashable, pd.Series] = {}
        arrays: dict[Hashable, np.ndarray] = {}
        for coder, clustering in clusterings.items():
            if isinstance(clustering, pd.Series):
                series[coder] = clustering
            elif isinstance(clustering, Mapping):
                series[coder] = pd.Series(list(clustering.values()),
                                          index=list(clustering.keys()), dtype=object)
            elif isinstance(clustering, (str, bytes)) or not hasattr(clustering, "__len__"):
                raise ParameterTypeError(
                    f"the clustering of coder {coder!r} must be a mapping unit -> class id, a "
                    f"Series or an array of class ids. Got {type(clustering).__name__}.")
            else:
                arrays[coder] = _ids_of(clustering)
                if arrays[coder].ndim != 1:
                    raise ParameterError(
                        f"the class ids of coder {coder!r} must be one-dimensional; got shape "
                        f"{arrays[coder].shape}")
        if arrays and not series:
            lengths = {len(a) for a in arrays.values()}
            if len(lengths) != 1:
                raise InputError(
                    f"class-id arrays of the coders have different lengths {sorted(lengths)}; "
                    "arrays must cover the same units 0..n-1"
                )
            units: pd.Index = pd.RangeIndex(lengths.pop())
            classes = np.empty((len(arrays), len(units)), dtype=np.int64)
            for k, c in enumerate(clusterings):  # each row written once, in place
                _class_codes(arrays[c], out=classes[k])
            return cls(list(clusterings), units, classes=classes, meta=meta)
        else:
            for coder, arr in arrays.items():
                series[coder] = pd.Series(arr)
            seen: pd.Index | None = None  # appending to an empty Index is deprecated
            for coder in clusterings:
                s = series[coder]
                if not s.index.is_unique:
                    dup = s.index[s.index.duplicated()][0]
                    raise InputError(f"coder {coder!r} gives unit {dup!r} more than one class")
                seen = s.index if seen is None else seen.append(s.index[~s.index.isin(seen)])
            units = seen if seen is not None else pd.Index([])
            rows = [_class_codes(series[c].reindex(units).to_numpy()) for c in clusterings]
        classes = np.vstack(rows) if rows else np.empty((0, len(units)), dtype=np.int64)
        return cls(list(clusterings), units, classes=classes, meta=meta)

    # ------------------------------------------------------------------ properties
    @property
    def coders(self) -> pd.Index:
        """The coder labels, in order."""
        axis = self._coders
        if isinstance(axis, tuple):
            axis = self._coders = pd.Index(axis)
        return axis

    @property
    def units(self) -> pd.Index:
        """The unit labels, in order."""
        axis = self._units
        if isinstance(axis, tuple):
            axis = self._units = pd.Index(axis)
        return axis

    @property
    def n_coders(self) -> int:
        """Number of coders."""
        return len(self._coders)

    @property
    def n_units(self) -> int:
        """Number of units."""
        return len(self._units)

    @property
    def classes(self) -> IntArray | None:
        """Per-coder class ids (n_coders x n_units, -1 missing) for class-derived tables."""
        return self._classes

    @property
    def is_class_derived(self) -> bool:
        """True when every value is a unit's class minus the unit itself."""
        return self._classes is not None

    @property
    def present(self) -> npt.NDArray[np.bool_]:
        """Boolean mask (n_coders x n_units) of the cells that hold a value."""
        if self._classes is not None:
            return self._classes >= 0
        return self.codes >= 0

    @cached_property
    def codes(self) -> IntArray:
        """Value-type index per cell (n_coders x n_units), -1 where missing."""
        self._materialise()
        return self.__dict__["codes"]

    @cached_property
    def values(self) -> tuple[Any, ...]:
        """The distinct values that :attr:`codes` points to."""
        self._materialise()
        return self.__dict__["values"]

    @cached_property
    def value_kind(self) -> str:
        """``"set"`` when values are frozensets, ``"scalar"`` otherwise (``"set"`` if empty)."""
        if self._classes is not None or not self.values:
            return "set"
        return "set" if isinstance(self.values[0], frozenset) else "scalar"

    def value(self, coder: Hashable, unit: Hashable) -> Any:
        """The value of one cell, or None when it is missing."""
        code = self.codes[self.coders.get_loc(coder), self.units.get_loc(unit)]
        return None if code < 0 else self.values[code]

    def records(self) -> Iterable[tuple[Hashable, Hashable, Any]]:
        """The non-missing cells as ``(coder, unit, value)`` records."""
        cs, us = np.nonzero(self.codes >= 0)
        for c, u in zip(cs.tolist(), us.tolist(), strict=True):
            yield self.coders[c], self.units[u], self.values[self.codes[c, u]]

    def select(self, coders: Sequence[Hashable]) -> CodingTable:
        """The table of some of the coders (in the order given), every unit kept.

        Parameters
        ----------
        coders : sequence of coder labels
            Coders of this table, each once.

        Returns
        -------
        CodingTable
            Their rows; a class-derived table stays class-derived.

        Raises
        ------
        ParameterError
            A coder that is not in the table, or one named twice.

        References
        ----------
        Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability (alpha of any subset
        of the coders is computed from their rows alone).

        Examples
        --------
        >>> t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "y"), ("C", 1, "x")])
        >>> sub = t.select(["C", "A"])
        >>> list(sub.coders), sub.value("C", 1)
        (['C', 'A'], 'x')
        """
        wanted = list(coders)
        missing = [c for c in wanted if c not in self.coders]
        if missing or len(set(wanted)) != len(wanted):
            raise ParameterError(
                f"select needs coders of this table, each once; got {wanted!r} (the table has "
                f"{list(self.coders)!r})")
        rows = self.coders.get_indexer(pd.Index(wanted))
        if self._classes is not None:
            return CodingTable(wanted, self.units, classes=self._classes[rows], meta=self.meta)
        return CodingTable(wanted, self.units, codes=self.codes[rows], values=self.values,
                           meta=self.meta)

    def relabel(self, units: Sequence[Hashable] | None = None, *,
                coders: Sequence[Hashable] | None = None) -> CodingTable:
        """The same cells under other unit labels (one per unit, in order, unique), or other
        coder labels (``coders``, likewise), or both.

        A class-derived table stays class-derived (its values, the other units of a class,
        are then written with the new labels); any other keeps its values as they are.

        Examples
        --------
        >>> t = CodingTable.from_records([("A", 1, {"x"}), ("B", 1, {"x", "y"})])
        >>> list(t.relabel(["first"]).units), t.relabel(["first"]).value("B", "first") == {"x", "y"}
        (['first'], True)
        >>> c = CodingTable.from_clusterings({"A": [0, 0], "B": [0, 1]})
        >>> sorted(c.relabel(["w1", "w2"]).value("A", "w1"))
        ['w2']
        >>> list(t.relabel(coders=["Ann", "Bo"]).coders)
        ['Ann', 'Bo']
        """
        new_units = self._units if units is None else units
        new_coders = self._coders if coders is None else coders
        if len(new_units) != self.n_units:
            raise ParameterError(f"relabel needs {self.n_units} unit labels; got "
                                 f"{len(new_units)}", params=("units",))
        if len(new_coders) != self.n_coders:
            raise ParameterError(f"relabel needs {self.n_coders} coder labels; got "
                                 f"{len(new_coders)}", params=("coders",))
        if self._classes is not None:
            return CodingTable(new_coders, new_units, classes=self._classes, meta=self.meta)
        return CodingTable(new_coders, new_units, codes=self.codes, values=self.values,
                           meta=self.meta)

    def to_frame(self) -> pd.DataFrame:
        """Wide DataFrame, coders as rows and units as columns, None where missing."""
        vals = np.empty(len(self.values) + 1, dtype=object)
        vals[:-1] = self.values
        vals[-1] = None
        return pd.DataFrame(vals[self.codes], index=self.coders, columns=self.units)

    def __repr__(self) -> str:
        kind = "class-derived" if self.is_class_derived else self.value_kind
        return f"<CodingTable {self.n_coders} coders x {self.n_units} units, {kind} values>"

    # ------------------------------------------------------------------ internals
    def _materialise(self) -> None:
        """Build class-minus-unit frozensets from class ids (class-derived tables only)."""
        if "codes" in self.__dict__:
            return
        assert self._classes is not None
        labels = self.units.to_numpy()
        value_ix: dict[frozenset[Any], int] = {}
        codes = np.full(self._classes.shape, -1, dtype=np.int64)
        for c, row in enumerate(self._classes):
            idx = np.flatnonzero(row >= 0)
            order = idx[np.argsort(row[idx], kind="stable")]
            ids = row[order]
            bounds = np.flatnonzero(np.diff(ids)) + 1
            for members in np.split(order, bounds):
                whole = frozenset(labels[members].tolist())
                for t in members.tolist():
                    value = whole - {labels[t]}
                    codes[c, t] = value_ix.setdefault(value, len(value_ix))
        self.__dict__["codes"] = codes
        self.__dict__["values"] = tuple(value_ix)


def name_coders(coders: Sequence[Hashable], names: Sequence[Hashable],
                what: str = "coders") -> dict[Hashable, Hashable]:
    """Each coder's new name: one distinct name per coder, in the coders' order.

    Parameters
    ----------
    coders : sequence
        The coders, in the order the names follow (the order they first appear in the data).
    names : sequence
        The names, as many as there are coders, all different.
    what : str, default="coders"
        What the coders are called in the message (``"annotators"``).

    Returns
    -------
    dict
        coder -> name.

    Raises
    ------
    ParameterError
        About ``names`` (the command line's ``--names``): a wrong count or a name given twice,
        naming the coders in their order.

    References
    ----------
    docs/cli.md (``--names``).

    Examples
    --------
    >>> name_coders(["c1", "c2"], ["Ann", "Bo"])
    {'c1': 'Ann', 'c2': 'Bo'}
    >>> name_coders(["c1", "c2"], ["Ann"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.ParameterError: names=['Ann'] gives 1 name for the 2 coders (c1, c2, ...
    """
    coders, names = list(coders), list(names)
    if len(names) != len(coders) or len(set(names)) != len(names):
        shown = ", ".join(map(str, coders[:12])) + (", ..." if len(coders) > 12 else "")
        raise ParameterError(
            f"{option('names', names)} gives {len(names)} "
            f"{'name' if len(names) == 1 else 'names'}"
            f"{'' if len(set(names)) == len(names) else ' (some twice)'} for the "
            f"{len(coders)} {what} ({shown}, in the order they first appear); give one "
            f"distinct name per {what[:-1]}", params=("names",))
    return dict(zip(coders, names, strict=True))


def _axis(labels: Sequence[Hashable] | pd.Index) -> pd.Index | tuple[str, ...]:
    """Labels that are all strings, as a tuple (the Index is built when first asked for, so
    that a table read from a file and answered needs no pandas); any others as an Index."""
    if isinstance(labels, (list, tuple)) and all(type(x) is str for x in labels):
        return tuple(labels)
    return pd.Index(labels)


def _unique(axis: pd.Index | tuple[str, ...]) -> bool:
    return len(set(axis)) == len(axis) if isinstance(axis, tuple) else bool(axis.is_unique)


def unique_labels(paths: Sequence[str]) -> list[str]:
    """Short unique coder labels for files: base names, else full paths, else numbered.

    Used to name coders after their input files when no names are given (the command line's
    ``--names``).

    Parameters
    ----------
    paths : sequence of str
        One path per coder, in order.

    Returns
    -------
    list of str
        One label per path, in order: the base names if they are all different; otherwise the
        paths as given if those are all different; otherwise ``name#1``, ``name#2``, ... (the
        paths numbered by position).

    References
    ----------
    docs/cli.md (``--names``: one name per input, by default from the file names).

    Examples
    --------
    Different base names are enough; equal base names in different folders keep the folders; the
    same path twice is numbered:

    >>> unique_labels(["a/x.pyr", "b/y.pyr"]), unique_labels(["a/x.pyr", "b/x.pyr"])
    (['x.pyr', 'y.pyr'], ['a/x.pyr', 'b/x.pyr'])
    >>> unique_labels(["x.pyr", "x.pyr"])
    ['x.pyr#1', 'x.pyr#2']
    """
    import os

    names = [os.path.basename(os.path.normpath(p)) for p in paths]
    if len(set(names)) < len(names):
        names = list(paths)
    if len(set(names)) < len(names):
        names = [f"{n}#{i + 1}" for i, n in enumerate(names)]
    return names


def _ids_of(clustering: Any) -> np.ndarray:
    """An array of class ids, a masked cell missing (-1 among integers, else None)."""
    if not isinstance(clustering, np.ma.MaskedArray):
        return np.asarray(clustering)
    hidden = np.ma.getmaskarray(clustering)
    ids = np.ma.getdata(clustering)
    if not hidden.any():
        return ids
    if ids.dtype.kind == "i":
        return np.where(hidden, -1, ids)
    obj = ids.astype(object)
    obj[hidden] = None
    return obj


def _class_codes(raw: np.ndarray, out: IntArray | None = None) -> IntArray:
    """Class ids of one coder as non-negative ints, -1 for missing (written into ``out`` when
    given)."""
    if raw.dtype.kind in "iu" and (raw.dtype.kind == "i" or not len(raw)
                                   or int(raw.max()) <= np.iinfo(np.int64).max):
        top = int(raw.max()) if len(raw) else -1
        if top < 4 * len(raw) + 16:  # small ids: kept, negative ones made -1
            if out is None:
                out = np.empty(len(raw), dtype=np.int64)
            if raw.dtype.kind == "u":
                np.copyto(out, raw, casting="unsafe")
            else:
                np.maximum(raw, raw.dtype.type(-1), out=out, casting="unsafe")
            return out
        ids = raw.astype(np.int64, copy=False)
        missing = ids < 0
        codes, _ = pd.factorize(np.where(missing, -1, ids))
        return _into(np.where(missing, -1, codes).astype(np.int64), out)
    obj = raw.astype(object)
    missing = np.fromiter((is_missing(x) for x in obj), dtype=bool, count=len(obj))
    if raw.dtype.kind == "f":
        missing |= raw < 0
    for x in obj[~missing]:
        try:
            hash(x)
        except TypeError:
            raise InputError(f"class id {x!r} is not hashable; class ids are ints or str") \
                from None
    obj[missing] = None
    codes, _ = pd.factorize(obj, use_na_sentinel=True)
    return _into(np.where(missing, -1, codes).astype(np.int64), out)


def _into(codes: IntArray, out: IntArray | None) -> IntArray:
    if out is None:
        return codes
    out[:] = codes
    return out
