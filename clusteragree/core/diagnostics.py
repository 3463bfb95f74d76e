"""Where the disagreement sits: units, categories and annotators behind an alpha.

* :func:`unit_disagreement`: each pairable unit's observed disagreement and its share of D_o;
  the shares add up to 1 and the contributions to ``D_o * n``;
* :func:`worst_units`: the units that disagree most, with every annotator's value;
* :func:`coincidence_matrix`: Krippendorff's coincidences ``o_vw`` with the marginals;
* :func:`per_category`: for each label, alpha of the table reduced to "this label or not"
  (one-versus-rest; for label sets, whether the set holds the label);
* :func:`annotator_agreement`: per annotator, alpha with that annotator left out, and the
  matrix of pairwise alphas.

Every figure is alpha (or a part of it) recomputed on a smaller or recoded table, so each can be
checked against :func:`clusteragree.alpha` on that table (the tests do).

References
----------
Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. (Coincidences.)
Krippendorff, K. (2004). Content Analysis: An Introduction to Its Methodology, 2nd ed., Sage,
section 11.4 (reliability of single categories, and of coders).
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import AlphaUndefinedWarning, ParameterError
from .bootstrap import block_stats, pair_distances
from .coefficient import alpha
from .distances import DistanceLike, get_distance
from .model import CodingTable
from .readable import DescribeUnit, DescribeValue, UnitText, label_set, plain_unit, plain_value

__all__ = ["UNIT_COLUMNS", "Diagnostics", "annotator_agreement", "coincidence_matrix", "combine",
           "diagnostics", "per_category", "unit_disagreement", "units_by_distance",
           "worst_units"]

class Diagnostics(dict[str, pd.DataFrame]):
    """The diagnostics by name (a dict of DataFrames) that equals only itself.

    pandas compares the ``attrs`` of frames it concatenates; a plain dict of DataFrames there
    would make that comparison ambiguous, so this one compares by identity.

    Parameters
    ----------
    *args, **kwargs
        As :class:`dict`: the diagnostics' names and their DataFrames (``units``,
        ``categories``, ``annotators``, ``pairwise``, ``coincidences``, ``documents``).

    References
    ----------
    docs/uncertainty.md, "Where the disagreement sits".

    Examples
    --------
    >>> found = Diagnostics(units=None)
    >>> found == Diagnostics(units=None), found == found, sorted(found)
    (False, True, ['units'])
    """

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    __hash__ = None


#: The coincidence matrix is shown for at most this many distinct values.
MAX_MATRIX_VALUES = 12


def _label(value: Any) -> str:
    """A value in the coincidence matrix and the categories: sets as ``{a, b}``."""
    if isinstance(value, frozenset):
        return "{" + (label_set(value) if value else "") + "}"
    return str(value)


#: The columns of the ``units`` diagnostics before one column per annotator.
UNIT_COLUMNS = ("key", "unit", "document", "values", "disagreement", "share")


def _tie_key(per_unit: np.ndarray) -> np.ndarray:
    """Contributions rounded to 10 significant digits below the largest: equal contributions
    summed in another order (1e-16 apart) rank as the ties they are."""
    scale = float(np.max(np.abs(per_unit))) if len(per_unit) else 0.0
    if scale <= 0 or not np.isfinite(scale):
        return per_unit
    return np.round(per_unit / scale, 10)


def unit_disagreement(table: CodingTable, distance: DistanceLike = "nominal", *,
                      order: Sequence[Any] | None = None) -> pd.DataFrame:
    """Each pairable unit's part of the observed disagreement, most disagreeing first.

    Parameters
    ----------
    table : CodingTable
        Coders x units.
    distance : str, Distance or callable, default="nominal"
        As :func:`clusteragree.alpha`.
    order : sequence, optional
        One sort key per unit of the table, in the table's order: the reading order (document,
        then position) that breaks ties. Default: the units' order in the table.

    Returns
    -------
    DataFrame
        One row per pairable unit: ``unit``, ``values`` (``m_u``), ``disagreement`` (the unit's
        coincidences times the distance, summed; over all units this is ``D_o * n``) and
        ``share`` (of the total; 0 when nobody disagrees). Sorted by ``disagreement``
        (descending), then ``values`` (descending: of two units that disagree as much, the one
        more annotators coded), then reading order; never by the units' labels.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability.

    Examples
    --------
    Unit 2 holds x, x, y: its two disagreeing ordered pairs (x, y) and (y, x) count twice each
    (two x's), weighted 1 / (3 - 1): a contribution of 4 / 2 = 2, all of the disagreement.

    >>> t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "x"),
    ...                               ("B", 2, "x"), ("C", 2, "y")])
    >>> [tuple(row) for row in unit_disagreement(t).itertuples(index=False)]
    [(2, 3, 2.0, 1.0), (1, 2, 0.0, 0.0)]
    """
    dist = get_distance(distance)
    stats = block_stats(table)
    if dist.marginal:
        pooled = np.asarray(stats.counts.sum(axis=0), dtype=np.float64).ravel()
        dist = dist.bind(stats.values, pooled)
    per_unit = np.asarray(stats.within @ pair_distances(stats, dist), dtype=np.float64).ravel()
    total = float(per_unit.sum())
    values = np.asarray(stats.counts.sum(axis=1), dtype=np.int64).ravel()
    where = table.units.get_indexer(pd.Index(list(stats.blocks), tupleize_cols=False))
    if order is None:
        reading = np.argsort(np.argsort(where, kind="stable"), kind="stable")
    else:
        keys = [order[i] for i in where.tolist()]
        ranked = sorted(range(len(keys)), key=keys.__getitem__)
        reading = np.empty(len(keys), dtype=np.int64)
        reading[ranked] = np.arange(len(keys))
    sort = np.lexsort((reading, -values, -_tie_key(per_unit)))
    frame = pd.DataFrame({
        "unit": pd.Series(list(stats.blocks), dtype=object),
        "values": values,
        "disagreement": per_unit,
        "share": per_unit / total if total > 0 else np.zeros(len(per_unit)),
    })
    return frame.iloc[sort].reset_index(drop=True)


def _check_k(k: Any) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ParameterError(f"k must be a positive whole number. Got {k!r}.", params=("k",))
    return int(k)


def _reading_order(table: CodingTable, describe_unit: DescribeUnit
                   ) -> tuple[list[UnitText], list[tuple[Any, ...]]]:
    """Every unit's text and its reading key: (the document's first place in the table, the
    unit's position in it, or its place in the table)."""
    texts = [describe_unit(u) for u in table.units]
    first: dict[str | None, int] = {}
    keys = []
    for i, text in enumerate(texts):
        doc = first.setdefault(text.document, len(first))
        keys.append((doc, tuple(text.position) or (i,), i))
    return texts, keys


def worst_units(table: CodingTable, distance: DistanceLike = "nominal", k: int = 10, *,
                describe_unit: DescribeUnit | None = None,
                describe_value: DescribeValue | None = None) -> pd.DataFrame:
    """The ``k`` units that disagree most under one distance, with every annotator's value.

    Parameters
    ----------
    table : CodingTable
        Coders x units.
    distance : str, Distance or callable, default="nominal"
        As :func:`clusteragree.alpha`.
    k : int, default=10
        How many units.
    describe_unit : callable, optional
        ``describe_unit(unit) -> UnitText`` (:mod:`clusteragree.core.readable`): the unit as a
        person reads it, its document and its position (default: its label as given).
    describe_value : callable, optional
        ``describe_value(coder, unit, value) -> str`` (default: the value as it is, label sets
        as ``PER, ORG``, class-derived values as the other units of the class).

    Returns
    -------
    DataFrame
        ``key`` (the unit's label in the table), ``unit`` (its text), ``document`` (or None),
        ``position`` (its place in the document as the domain gives it, or empty),
        ``values``, ``disagreement``, ``share`` (as :func:`unit_disagreement`, in its order:
        contribution, then ``m_u``, then reading order), then one column per coder with its
        value as text (empty where missing). Units that do not disagree are left out.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability.

    Examples
    --------
    >>> t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "x"),
    ...                               ("B", 2, "y")])
    >>> worst_units(t)[["unit", "A", "B"]].values.tolist()
    [['2', 'x', 'y']]
    """
    k = _check_k(k)
    derived = table.is_class_derived
    describe_unit = describe_unit or plain_unit
    texts, keys = _reading_order(table, describe_unit)
    ranked = unit_disagreement(table, distance, order=keys)
    top = ranked[ranked["disagreement"] > 0].head(k).reset_index(drop=True)
    index = table.units.get_indexer(pd.Index(list(top["unit"]), tupleize_cols=False))
    show = describe_value or (lambda _c, _u, v: plain_value(v, derived=derived))
    frame = pd.DataFrame({
        "key": pd.Series(list(top["unit"]), dtype=object),
        "unit": [texts[i].text for i in index.tolist()],
        "document": pd.Series([texts[i].document for i in index.tolist()], dtype=object),
        "position": pd.Series([tuple(texts[i].position) for i in index.tolist()],
                              dtype=object),
        "values": top["values"], "disagreement": top["disagreement"], "share": top["share"]})
    for coder in table.coders:
        frame[str(coder)] = [
            "" if (v := table.value(coder, unit)) is None else show(coder, unit, v)
            for unit in frame["key"]]
    return frame


def units_by_distance(table: CodingTable, distances: Sequence[DistanceLike], k: int = 10, *,
                      describe_unit: DescribeUnit | None = None,
                      describe_value: DescribeValue | None = None) -> pd.DataFrame:
    """:func:`worst_units` for every distance, one after the other.

    Parameters
    ----------
    table : CodingTable
        Coders x units.
    distances : sequence of str, Distance or callable
        The distances of the run; each is named by its :class:`Distance` name.
    k, describe_unit, describe_value
        As :func:`worst_units`.

    Returns
    -------
    DataFrame
        ``distance``, ``rank`` (1-based within the distance), then the columns of
        :func:`worst_units`; the distances in the order given (a distance under which no unit
        disagrees has no row; ``attrs["distances"]`` names them all).

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability.

    Examples
    --------
    {a} against {a, b} is half as far under Jaccard as {a} against {b}, and as far under
    nominal:

    >>> t = CodingTable.from_records([("A", 1, {"a"}), ("B", 1, {"a", "b"}),
    ...                               ("A", 2, {"a"}), ("B", 2, {"b"})])
    >>> found = units_by_distance(t, ["nominal", "jaccard"])
    >>> found[["distance", "rank", "unit", "disagreement"]].values.tolist()
    [['nominal', 1, '1', 2.0], ['nominal', 2, '2', 2.0], ['jaccard', 1, '2', 2.0], \
['jaccard', 2, '1', 1.0]]
    """
    k = _check_k(k)
    frames = []
    for spec in distances:
        dist = get_distance(spec)
        top = worst_units(table, dist, k, describe_unit=describe_unit,
                          describe_value=describe_value)
        top.insert(0, "rank", np.arange(1, len(top) + 1, dtype=np.int64))
        top.insert(0, "distance", dist.name)
        frames.append(top)
    out = (pd.concat(frames, ignore_index=True) if frames else
           pd.DataFrame(columns=["distance", "rank", *UNIT_COLUMNS]))
    out.attrs["distances"] = [get_distance(spec).name for spec in distances]
    return out


def coincidence_matrix(table: CodingTable) -> pd.DataFrame:
    """Krippendorff's coincidence matrix of the pairable values, with the marginals.

    Parameters
    ----------
    table : CodingTable
        Coders x units (single values or label sets; each distinct value is a row).

    Returns
    -------
    DataFrame
        Rows and columns the distinct pairable values (sorted where they can be), cells
        ``o_vw``; a last column ``n_v`` holds the marginals. The cells add up to ``n``.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability, the coincidence
    matrix of the 4 coders x 12 units example.

    Examples
    --------
    Two units (x, x) and (x, y): o_xx = 2 (unit 1's two ordered pairs), o_xy = o_yx = 1.

    >>> t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "x"),
    ...                               ("B", 2, "y")])
    >>> coincidence_matrix(t).values.tolist()
    [[2.0, 1.0, 3.0], [1.0, 0.0, 1.0]]
    """
    stats = block_stats(table)
    n_types = len(stats.values)
    within = np.asarray(stats.within.sum(axis=0)).ravel()
    matrix = np.zeros((n_types, n_types))
    if len(stats.pairs):
        np.add.at(matrix, (stats.pairs[:, 0], stats.pairs[:, 1]), within)
    labels = [_label(v) for v in stats.values]
    try:
        order = sorted(range(n_types), key=lambda i: stats.values[i])
    except TypeError:
        order = sorted(range(n_types), key=lambda i: labels[i])
    frame = pd.DataFrame(matrix[np.ix_(order, order)], index=[labels[i] for i in order],
                         columns=[labels[i] for i in order])
    frame["n_v"] = frame.sum(axis=1)
    return frame


def _binarised(table: CodingTable, label: Hashable) -> CodingTable:
    codes = table.codes
    is_set = table.value_kind == "set"
    hit = np.array([(label in v) if is_set else (v == label) for v in table.values], dtype=bool)
    binary = np.where(codes >= 0, hit[np.maximum(codes, 0)].astype(np.int64), -1)
    return CodingTable(table.coders, table.units, codes=binary, values=[False, True],
                       meta=table.meta)


def per_category(table: CodingTable) -> pd.DataFrame:
    """One-versus-rest alpha for every label: how reliably is this label told from the others?

    Parameters
    ----------
    table : CodingTable
        Coders x units of single labels or label sets.

    Returns
    -------
    DataFrame
        One row per label: ``category``, ``alpha`` (nominal alpha of the table recoded to
        "holds this label" / "does not"), ``n`` (pairable values) and ``uses`` (values that
        hold the label), least reliable first. Alpha is NaN, without a warning, for a label
        every value holds or none does.

    References
    ----------
    Krippendorff, K. (2004). Content Analysis, 2nd ed., section 11.4.2 (the reliability of
    single categories).

    Examples
    --------
    Units (x, x), (y, z), (y, y): for y against the rest the recoded units are (no, no),
    (yes, no), (yes, yes): one disagreeing unit of three, D_o = 2/6, D_e = 2 x 3 x 3 / 30 =
    18/30, alpha = 1 - (1/3) / (18/30) = 4/9.

    >>> t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "y"),
    ...                               ("B", 2, "z"), ("A", 3, "y"), ("B", 3, "y")])
    >>> round(float(per_category(t).set_index("category").loc["y", "alpha"]), 4)
    0.4444
    """
    labels: set[Any] = set()
    for v in table.values:
        labels.update(v if isinstance(v, frozenset) else [v])
    rows = []
    for label in sorted(labels, key=str):
        recoded = _binarised(table, label)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AlphaUndefinedWarning)
            result = alpha(recoded, "nominal")
        counts = block_stats(recoded)
        uses = sum(int(counts.counts[:, i].sum()) for i, v in enumerate(counts.values) if v)
        rows.append({"category": _label(label), "alpha": result.alpha, "n": result.n,
                     "uses": uses})
    frame = pd.DataFrame(rows, columns=["category", "alpha", "n", "uses"])
    return frame.sort_values("alpha", kind="stable", na_position="last").reset_index(drop=True)


def annotator_agreement(table: CodingTable, distance: DistanceLike = "nominal"
                        ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per annotator, alpha without them; and the matrix of alpha between every two of them.

    Parameters
    ----------
    table : CodingTable
        Coders x units, at least three coders for the left-out column to mean anything.
    distance : str, Distance or callable, default="nominal"
        As :func:`clusteragree.alpha`.

    Returns
    -------
    left_out : DataFrame
        ``coder``, ``alpha_without`` (alpha of the others; NaN with two coders), ``change``
        (``alpha_without - alpha``: positive when the others agree better without them).
    pairwise : DataFrame
        Coders x coders, alpha of each pair (1 on the diagonal).

    References
    ----------
    Krippendorff, K. (2004). Content Analysis, 2nd ed., section 11.4 (which coders to retrain).

    Examples
    --------
    A and B agree on both units, C disagrees on unit 2 (all three together: alpha 0.375, see
    :func:`clusteragree.core.frames.pairwise_report`); without C, alpha is 1.

    >>> t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("C", 1, "x"),
    ...                               ("A", 2, "y"), ("B", 2, "y"), ("C", 2, "x")])
    >>> left_out, pairs = annotator_agreement(t)
    >>> left_out.round(4).values.tolist()
    [['C', 1.0, 0.625], ['A', 0.0, -0.375], ['B', 0.0, -0.375]]
    >>> float(pairs.loc["A", "B"])
    1.0
    """
    dist = get_distance(distance)
    coders = list(table.coders)

    def quiet(sub: CodingTable) -> float:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AlphaUndefinedWarning)
            return float(alpha(sub, dist).alpha)

    everyone = quiet(table)
    rows = []
    for coder in coders:
        others = [c for c in coders if c != coder]
        without = quiet(table.select(others)) if len(others) >= 2 else float("nan")
        rows.append({"coder": coder, "alpha_without": without, "change": without - everyone})
    left_out = pd.DataFrame(rows, columns=["coder", "alpha_without", "change"]).sort_values(
        "change", ascending=False, kind="stable").reset_index(drop=True)
    matrix = pd.DataFrame(np.eye(len(coders)), index=coders, columns=coders)
    for i, a in enumerate(coders):
        for b in coders[i + 1:]:
            matrix.loc[a, b] = matrix.loc[b, a] = quiet(table.select([a, b]))
    return left_out, matrix


def combine(tables: Mapping[Any, CodingTable]) -> CodingTable:
    """The tables of several documents as one, units named ``(document, unit)``.

    Parameters
    ----------
    tables : mapping document -> CodingTable
        Tables of one kind of value; coders are matched by name.

    Returns
    -------
    CodingTable
        Every coder of any document; a coder absent from a document is missing there.

    References
    ----------
    docs/uncertainty.md, "Where the disagreement sits".

    Examples
    --------
    >>> d1 = CodingTable.from_records([("A", 1, "x"), ("B", 1, "y")])
    >>> d2 = CodingTable.from_records([("A", 1, "y"), ("C", 1, "y")])
    >>> t = combine({"d1": d1, "d2": d2})
    >>> list(t.coders), list(t.units), t.value("C", ("d2", 1))
    (['A', 'B', 'C'], [('d1', 1), ('d2', 1)], 'y')
    """
    coders = list(dict.fromkeys(c for t in tables.values() for c in t.coders))
    index: dict[Any, int] = {}
    blocks, units = [], []
    for doc, t in tables.items():
        remap = np.array([index.setdefault(v, len(index)) for v in t.values] or [0],
                         dtype=np.int64)
        codes = np.full((len(coders), t.n_units), -1, dtype=np.int64)
        rows = pd.Index(coders).get_indexer(list(t.coders))
        codes[rows] = np.where(t.codes >= 0, remap[np.maximum(t.codes, 0)], -1)
        blocks.append(codes)
        units += [(doc, u) for u in t.units]
    data = np.hstack(blocks) if blocks else np.zeros((len(coders), 0), dtype=np.int64)
    unit_index = pd.Index(units, tupleize_cols=False)
    return CodingTable(coders, unit_index, codes=data, values=list(index))


def diagnostics(tables: CodingTable | Mapping[Any, CodingTable],
                distances: Sequence[DistanceLike] = ("nominal",), *, worst: int = 10,
                report: pd.DataFrame | None = None, categorical: bool = True,
                describe_unit: DescribeUnit | None = None,
                describe_value: DescribeValue | None = None) -> dict[str, pd.DataFrame]:
    """Every diagnostic of a table (or of the documents of a corpus, taken together).

    Parameters
    ----------
    tables : CodingTable or mapping document -> CodingTable
        What alpha was computed on.
    distances : sequence, default=("nominal",)
        The distances of the run: ``units`` ranks the units under each; the first is used for
        the annotators.
    worst : int, default=10
        How many units to list under each distance.
    report : DataFrame, optional
        The alpha report of these tables (:func:`clusteragree.alpha_report`); its rows per
        document, least reliable first, become ``documents``.
    categorical : bool, default=True
        False for values that are no categories (trees): no ``categories`` nor
        ``coincidences``.
    describe_unit : callable, optional
        ``describe_unit(unit) -> UnitText`` (:mod:`clusteragree.core.readable`), given by the
        domain that built the tables. ``unit`` is the unit's label in the table, or
        ``(document, unit)`` when ``tables`` is a mapping. Default: the unit's label as given,
        and its document.
    describe_value : callable, optional
        ``describe_value(coder, unit, value) -> str``, ``unit`` as for ``describe_unit``.
        Default: the value as it is (label sets as ``PER, ORG``; a class-derived value as the
        other units of the class).

    Returns
    -------
    dict of DataFrame
        ``units`` (:func:`units_by_distance`: the ``worst`` units under each distance, with
        ``distance`` and ``rank``); ``categories`` (:func:`per_category`) and
        ``coincidences`` (:func:`coincidence_matrix`, with at most 12 distinct values) unless
        the values are class-derived (a class minus its unit is no category); ``annotators``
        (:func:`annotator_agreement`, left out) and ``pairwise`` (its matrix) with three or
        more coders; ``documents`` when a report with documents is given.

    References
    ----------
    Krippendorff, K. (2004). Content Analysis, 2nd ed., section 11.4.

    Examples
    --------
    >>> t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("C", 1, "x"),
    ...                               ("A", 2, "y"), ("B", 2, "y"), ("C", 2, "x")])
    >>> found = diagnostics(t)
    >>> sorted(found), found["units"]["unit"].tolist()
    (['annotators', 'categories', 'coincidences', 'pairwise', 'units'], ['2'])
    >>> sorted(diagnostics(t.select(["A", "C"])))
    ['categories', 'coincidences', 'units']
    """
    derived = (isinstance(tables, CodingTable) and tables.is_class_derived) or (
        not isinstance(tables, CodingTable)
        and any(t.is_class_derived for t in tables.values()))
    class_derived = derived
    table = tables if isinstance(tables, CodingTable) else combine(tables)
    if describe_unit is None and not isinstance(tables, CodingTable):
        def describe_unit(unit: Any) -> UnitText:
            return plain_unit(unit[1], unit[0])
    if describe_value is None:
        def describe_value(coder: Hashable, unit: Hashable, value: Any) -> str:
            return plain_value(value, derived=class_derived)
    distances = list(distances) or ["nominal"]
    first = distances[0]
    out = Diagnostics(units=units_by_distance(table, distances, worst,
                                              describe_unit=describe_unit,
                                              describe_value=describe_value))
    derived = derived or not categorical
    if not derived:  # a class minus its unit is no category, and has no useful coincidences
        out["categories"] = per_category(table)
    if table.n_coders >= 3:
        out["annotators"], out["pairwise"] = annotator_agreement(table, first)
    if not derived:
        matrix = coincidence_matrix(table)
        if len(matrix) <= MAX_MATRIX_VALUES:
            out["coincidences"] = matrix
    if report is not None and "pooled" in report and (~report["pooled"].astype(bool)).any():
        docs = report[~report["pooled"].astype(bool)]
        out["documents"] = docs[["document", "distance", "alpha", "n"]].sort_values(
            ["distance", "alpha"], kind="stable", na_position="last").reset_index(drop=True)
    return out
