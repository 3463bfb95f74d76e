"""Results as DataFrames: alpha per document and distance, with pooled rows.

A report has one row per document and distance, then a pooled row per distance (labelled
``TOTAL``, marked by the column ``pooled``) computed from the summed statistics (pooled, not the
mean of document alphas). :mod:`clusteragree.report` renders it.

Examples
--------
>>> from clusteragree import CodingTable
>>> docs = {"d1": CodingTable.from_records([("A", 1, "x"), ("B", 1, "y"), ("A", 2, "y"),
...                                          ("B", 2, "y")]),
...         "d2": CodingTable.from_records([("A", 1, "x"), ("B", 1, "x")])}
>>> df = alpha_report(docs, ["nominal"])
>>> list(df["document"]), [round(a, 4) for a in df["alpha"]]
(['d1', 'd2', 'TOTAL'], [0.0, nan, 0.4444])
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .._lazy import module
from ..errors import AlphaUndefinedWarning, ParameterError, notify
from .bootstrap import RESAMPLE, block_stats, bootstrap_alpha
from .coefficient import Engine, alpha_stats, choose_engine
from .coincidence_bootstrap import krippendorff_bootstrap
from .distances import DEFAULT_DISTANCES, Distance, DistanceLike, get_distance
from .intervals import FEW_BLOCKS, check_resamples, interval_method
from .model import CodingTable
from .parallel import map_chunks, pool_running
from .result import AlphaResult

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = module("pandas")

__all__ = ["COLUMNS", "TOTAL", "alpha_report", "alpha_rows", "document_stats", "pairwise_report",
           "pooled_rows", "report_rows", "results_frame", "results_records"]

COLUMNS = ["document", "distance", "alpha", "D_o", "D_e", "n", "units", "coders", "engine",
           "signature", "pooled"]
TOTAL = "TOTAL"


def results_frame(rows: Iterable[tuple[Hashable, AlphaResult]],
                  pooled: Iterable[tuple[Hashable, AlphaResult]] = ()) -> pd.DataFrame:
    """A DataFrame with one row per ``(document, result)``, then the ``pooled`` rows.

    The column ``pooled`` tells the two apart (a document may well be called ``TOTAL``).

    Parameters
    ----------
    rows : iterable of (hashable, AlphaResult)
        The per-document results, each with the document's name.
    pooled : iterable of (hashable, AlphaResult), default=()
        The pooled results, usually labelled :data:`TOTAL`.

    Returns
    -------
    DataFrame
        Columns :data:`COLUMNS`: ``document, distance, alpha, D_o, D_e, n, units, coders,
        engine, signature`` (the fields of :meth:`AlphaResult.as_dict`) and ``pooled`` (bool);
        the rows of ``rows`` first, in their order, then those of ``pooled``.

    References
    ----------
    docs/alpha.md, "Statistics that add" and "Input and missing values" (the ``pooled`` column).

    Examples
    --------
    One table with units ``x, x`` and ``x, y``: ``D_o = 2/4``, and 6 of the 12 ordered pairs
    of ``x, x, x, y`` are unequal, so ``D_e = 6/12`` and nominal alpha is 0:

    >>> from clusteragree import CodingTable, alpha
    >>> r = alpha(CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "x"),
    ...                                     ("B", 2, "y")]), "nominal")
    >>> df = results_frame([("d1", r)], [(TOTAL, r)])
    >>> list(df.columns) == COLUMNS
    True
    >>> df["document"].tolist(), df["alpha"].tolist(), df["D_e"].tolist(), df["pooled"].tolist()
    (['d1', 'TOTAL'], [0.0, 0.0], [0.5, 0.5], [False, True])
    """
    return pd.DataFrame(results_records(rows, pooled), columns=COLUMNS)


def results_records(rows: Iterable[tuple[Hashable, AlphaResult]],
                    pooled: Iterable[tuple[Hashable, AlphaResult]] = ()) -> list[dict[str, Any]]:
    """The rows of :func:`results_frame` as dicts (column -> value), without pandas.

    Parameters
    ----------
    rows, pooled : iterable of (hashable, AlphaResult)
        As for :func:`results_frame`.

    Returns
    -------
    list of dict
        One dict per row, keys :data:`COLUMNS` in that order.

    References
    ----------
    docs/performance.md, "Start-up" (a small table answered without pandas).

    Examples
    --------
    >>> from clusteragree import CodingTable, alpha
    >>> r = alpha(CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "x"),
    ...                                     ("B", 2, "y")]), "nominal")
    >>> [(row["document"], row["alpha"], row["pooled"])
    ...  for row in results_records([], [(TOTAL, r)])]
    [('TOTAL', 0.0, True)]
    """
    data = [{"document": doc, **result.as_dict(), "pooled": False} for doc, result in rows]
    data += [{"document": doc, **result.as_dict(), "pooled": True} for doc, result in pooled]
    return [{column: row[column] for column in COLUMNS} for row in data]


def report_rows(report: pd.DataFrame | Sequence[Mapping[str, Any]]
                ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The rows of a report (a DataFrame, or the dicts of :func:`alpha_rows`) as dicts with
    string keys and Python scalars, and the report's ``attrs`` (none for dicts).

    Examples
    --------
    >>> report_rows([{"document": "TOTAL", "alpha": 0.5, "pooled": True}])
    ([{'document': 'TOTAL', 'alpha': 0.5, 'pooled': True}], {})
    """
    if isinstance(report, Sequence):  # rows already (a DataFrame is no Sequence)
        return [dict(row) for row in report], {}
    return ([{str(k): v for k, v in row.items()} for row in report.to_dict("records")],
            {str(k): v for k, v in report.attrs.items()})


def pooled_row(row: Mapping[str, Any]) -> bool:
    """Whether a row of :func:`report_rows` is pooled (as :func:`pooled_rows` tells).

    Examples
    --------
    >>> pooled_row({"document": "TOTAL", "pooled": False}), pooled_row({"document": "TOTAL"})
    (False, True)
    """
    return bool(row["pooled"]) if "pooled" in row else row["document"] == TOTAL


def pooled_rows(frame: pd.DataFrame) -> pd.Series:
    """Boolean mask of a report's pooled rows (by the ``pooled`` column, else by name).

    Parameters
    ----------
    frame : DataFrame
        A report (:func:`alpha_report`, :func:`results_frame`), or a table with a ``document``
        column such as a report read back from CSV without its ``pooled`` column.

    Returns
    -------
    Series of bool
        The ``pooled`` column as booleans when there is one; else ``document == "TOTAL"``.

    References
    ----------
    docs/alpha.md, "Input and missing values" (pooled rows are marked by the column ``pooled``).

    Examples
    --------
    A document called ``TOTAL`` is not taken for the pooled row when the column is there:

    >>> import pandas as pd
    >>> marked = pd.DataFrame({"document": ["TOTAL", "TOTAL"], "pooled": [False, True]})
    >>> pooled_rows(marked).tolist()
    [False, True]
    >>> pooled_rows(pd.DataFrame({"document": ["d1", "TOTAL"]})).tolist()
    [False, True]
    """
    if "pooled" in frame.columns:
        return frame["pooled"].astype(bool)
    return frame["document"] == TOTAL


def _warn_undefined(dist: str, undefined: list[tuple[Hashable, str]]) -> None:
    """One warning for all the documents whose alpha is undefined for a distance."""
    if not undefined:
        return
    shown = ", ".join(repr(doc) for doc, _ in undefined[:3])
    more = f" and {len(undefined) - 3} more" if len(undefined) > 3 else ""
    causes = sorted({cause for _, cause in undefined})
    warnings.warn(AlphaUndefinedWarning(
        f"alpha ({dist}) is undefined for {len(undefined)} document(s) ({shown}{more}): "
        + "; ".join(causes)), stacklevel=4)


def alpha_report(
    tables: CodingTable | Mapping[Any, CodingTable],
    distances: Sequence[DistanceLike] = DEFAULT_DISTANCES,
    *,
    engine: Engine = "auto",
    per_document: bool = True,
    ci: float | None = None,
    bootstrap: int = 1000,
    seed: int | None = None,
    resample: str = "auto",
    jobs: int | None = 1,
    interval: str | None = None,
) -> pd.DataFrame:
    """Alpha per document and pooled over all documents, for several distances.

    The pooled alpha is computed once from the statistics summed over the documents
    (:func:`~clusteragree.core.coefficient.alpha_stats`), not as a mean of document alphas.

    Parameters
    ----------
    tables : CodingTable or mapping document -> CodingTable
        Documents must be independent: a class never spans two documents. A single table gives
        its pooled rows only.
    distances : sequence of distance names, Distances or callables, default=DEFAULT_DISTANCES
        The distances, one row per document and distance (the default is the module's
        :data:`~clusteragree.core.distances.DEFAULT_DISTANCES`).
    engine : {"auto", "classes", "generic"}, default="auto"
        As for :func:`~clusteragree.core.coefficient.alpha`; with ``auto`` a distance uses the
        classes engine only when every table can.
    per_document : bool, default=True
        Include a row per document before the ``TOTAL`` rows.
    ci : float, optional
        A confidence level (e.g. 0.95): the pooled rows gain a bootstrap interval
        (``ci_low``, ``ci_high``, with ``ci_level`` and ``ci_method``), its standard error
        ``se``, the shares of resamples below 0.667 and 0.8 (``p_below_0.667``,
        ``p_below_0.8``) and, where the estimate lies outside its interval, why
        (``ci_note``, also a ``note`` in the warnings); see
        :func:`clusteragree.core.bootstrap.bootstrap_alpha`.
    bootstrap : int, default=1000
        Resamples drawn when ``ci`` is given.
    seed : int, optional
        Seed of the resamples (the same for every distance, so that they are compared on the
        same resamples).
    resample : {"auto", "units", "documents", "krippendorff"}, default="auto"
        What a resample draws: whole documents when there are several (their tokens are not
        independent), else units; or ``krippendorff``, pairs of values drawn from the pooled
        coincidences as the KALPHA macro does
        (:func:`~clusteragree.core.coincidence_bootstrap.krippendorff_bootstrap`). With one
        document, ``auto`` and ``documents`` resample its units (a ``note`` says so).
    jobs : int or None, default=1
        Processes for the documents' statistics (when they are large enough,
        :data:`POOL_CELLS`) and threads for the bootstrap; None or 0: every core. The values
        are the same whatever the number (statistics added in the order of the documents).
    interval : {"bca", "percentile"}, optional
        The interval's method (:func:`~clusteragree.core.intervals.bootstrap_interval`);
        default BCa, and percentile for ``resample="krippendorff"`` (the KALPHA macro's).

    Returns
    -------
    DataFrame
        Columns ``document, distance, alpha, D_o, D_e, n, units, coders, engine, signature``.
        The column ``pooled`` marks the pooled rows (labelled ``TOTAL``). Undefined alphas of
        single documents give one warning per distance naming the documents; the pooled
        ones are issued as they are. ``attrs["distances"]`` lists the distances' names.

    Raises
    ------
    ParameterError
        If ``tables`` is empty, or for an unknown distance or engine.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43. (Coincidences add over units, so over documents.)

    docs/alpha.md, "Statistics that add"; docs/architecture.md (``core/frames.py``).

    Examples
    --------
    In ``d1`` one unit of two disagrees: ``D_o = 2/4``, and 6 of the 12 ordered pairs of
    ``x, y, y, y`` are unequal, so ``D_e = 6/12`` and alpha is 0. ``d2`` agrees everywhere:
    alpha 1. Pooled, 2 of the 10 values disagree, ``D_o = 2/10``; with five ``x`` and five
    ``y``, ``D_e = (100 - 25 - 25) / 90 = 5/9``, so ``alpha = 1 - 0.36 = 0.64``, not the mean
    0.5 of the documents:

    >>> from clusteragree import CodingTable
    >>> d1 = CodingTable.from_records([("A", 1, "x"), ("B", 1, "y"), ("A", 2, "y"), ("B", 2, "y")])
    >>> d2 = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "x"), ("B", 2, "x"),
    ...                                ("A", 3, "y"), ("B", 3, "y")])
    >>> df = alpha_report({"d1": d1, "d2": d2}, ["nominal"])
    >>> df["document"].tolist(), [round(a, 4) for a in df["alpha"]], df["pooled"].tolist()
    (['d1', 'd2', 'TOTAL'], [0.0, 1.0, 0.64], [False, False, True])
    >>> df["n"].tolist(), df["units"].tolist()
    ([4, 6, 10], [2, 3, 5])

    Class-derived documents use the linear-time engine; the pooled values are those worked out
    under :class:`~clusteragree.core.alpha_classes.CardinalityStats` (nominal 8/35, Jaccard
    0.4375):

    >>> doc1 = CodingTable.from_clusterings({"A": [0, 0, 1], "B": [0, 0, 0]})
    >>> doc2 = CodingTable.from_clusterings({"A": [0, 1], "B": [0, 1]})
    >>> total = alpha_report({"doc1": doc1, "doc2": doc2}, ["nominal", "jaccard"],
    ...                      per_document=False)
    >>> [(r.distance, round(r.alpha, 6), r.engine) for r in total.itertuples()]
    [('nominal', 0.228571, 'classes'), ('jaccard', 0.4375, 'classes')]
    """
    tables, per_document = _documents(tables, per_document)
    dists = [get_distance(d) for d in distances]
    engines = _engines(tables, dists, engine)
    stats = _group_stats([tables], [engines], jobs)[0]
    return _report(tables, dists, engines, stats, per_document, ci, bootstrap, seed, resample,
                   jobs, interval)


def alpha_rows(
    tables: CodingTable | Mapping[Any, CodingTable],
    distances: Sequence[DistanceLike] = DEFAULT_DISTANCES,
    *,
    engine: Engine = "auto",
    per_document: bool = True,
    jobs: int | None = 1,
) -> list[dict[str, Any]]:
    """The rows of :func:`alpha_report` (without an interval) as dicts, without pandas.

    The command line answers a table with these when nothing asks for a DataFrame, so that a
    small table does not wait for pandas to load; the renderers of :mod:`clusteragree.report`
    take them as they take the DataFrame.

    Parameters
    ----------
    tables, distances, engine, per_document, jobs
        As for :func:`alpha_report`.

    Returns
    -------
    list of dict
        The rows of ``alpha_report(tables, distances, ...)``, in its order, keys
        :data:`COLUMNS`; the same warnings are issued.

    References
    ----------
    docs/performance.md, "Start-up".

    Examples
    --------
    >>> from clusteragree import CodingTable
    >>> t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "y"), ("B", 2, "x")])
    >>> [(r["distance"], r["alpha"], r["pooled"]) for r in alpha_rows(t, ["nominal"])]
    [('nominal', 0.0, True)]
    """
    tables, per_document = _documents(tables, per_document)
    dists = [get_distance(d) for d in distances]
    engines = _engines(tables, dists, engine)
    stats = _group_stats([tables], [engines], jobs)[0]
    return results_records(*_results(dists, engines, stats, per_document))


def _documents(tables: CodingTable | Mapping[Any, CodingTable], per_document: bool
               ) -> tuple[Mapping[Any, CodingTable], bool]:
    """Tables by document (a single table is the ``TOTAL`` document, without rows of its
    own)."""
    if isinstance(tables, CodingTable):
        return {TOTAL: tables}, False
    if not tables:
        raise ParameterError("alpha_report needs at least one table")
    return tables, per_document


def _engines(tables: Mapping[Any, CodingTable], dists: Sequence[Distance], engine: Engine
             ) -> dict[str, str]:
    """The engine of each distance: the classes engine when every document can use it."""
    engines = {}
    for dist in dists:
        chosen = {choose_engine(t, dist, engine) for t in tables.values()}
        engines[dist.name] = "classes" if chosen == {"classes"} else "generic"
    return engines


def _group_stats(groups: Sequence[Mapping[Any, CodingTable]],
                 engines: Sequence[Mapping[str, str]], jobs: int | None
                 ) -> list[dict[str, dict[Any, Any]]]:
    """For each group of documents, engine -> document -> statistics: every table of every
    group in one map over the processes, in order."""
    tasks = [(t, kind) for group, chosen in zip(groups, engines, strict=True)
             for kind in sorted(set(chosen.values())) for t in group.values()]
    cells = sum(t.n_coders * t.n_units for t, _ in tasks)
    found = iter(_stats_of_all(tasks, cells, jobs))
    return [{kind: {doc: next(found) for doc in group}
             for kind in sorted(set(chosen.values()))}
            for group, chosen in zip(groups, engines, strict=True)]


def _report(tables: Mapping[Any, CodingTable], dists: Sequence[Distance],
            engines: Mapping[str, str], stats_of: Mapping[str, Mapping[Any, Any]],
            per_document: bool, ci: float | None, bootstrap: int, seed: int | None,
            resample: str, jobs: int | None, interval: str | None = None,
            label: str | None = None) -> pd.DataFrame:
    """The rows of :func:`alpha_report` from the documents' statistics."""
    rows, totals = _results(dists, engines, stats_of, per_document)
    frame = results_frame(rows, totals)
    frame.attrs["distances"] = [d.name for d in dists]
    if ci is not None:
        _add_intervals(frame, tables, dists, ci, bootstrap, seed, resample, jobs, interval,
                       label)
    return frame


def _results(dists: Sequence[Distance], engines: Mapping[str, str],
             stats_of: Mapping[str, Mapping[Any, Any]], per_document: bool
             ) -> tuple[list[tuple[Hashable, AlphaResult]], list[tuple[Hashable, AlphaResult]]]:
    """The documents' results and the pooled ones, in the order of the distances."""
    rows: list[tuple[Hashable, AlphaResult]] = []
    totals: list[tuple[Hashable, AlphaResult]] = []
    for kind in sorted(set(engines.values())):
        stats = stats_of[kind]
        pooled: Any = sum(stats.values())
        for dist in (d for d in dists if engines[d.name] == kind):
            if per_document:
                undefined: list[tuple[Hashable, str]] = []
                for doc, s in stats.items():
                    with warnings.catch_warnings(record=True) as caught:
                        warnings.simplefilter("always", AlphaUndefinedWarning)
                        rows.append((doc, s.compute(dist)))
                    undefined += [(doc, _cause(w.message)) for w in caught
                                  if issubclass(w.category, AlphaUndefinedWarning)]
                    for w in caught:
                        if not issubclass(w.category, AlphaUndefinedWarning):
                            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
                _warn_undefined(dist.name, undefined)
            totals.append((TOTAL, pooled.compute(dist)))
    order = {d.name: i for i, d in enumerate(dists)}
    rows.sort(key=lambda r: order[r[1].distance])
    totals.sort(key=lambda r: order[r[1].distance])
    return rows, totals


#: Documents' statistics are counted on a pool of processes when the documents hold at least
#: POOL_CELLS cells in all (coders x units; starting a pool costs a second or two), or
#: RUNNING_POOL_CELLS once a pool runs; fewer cost more to send than to count.
POOL_CELLS = 5_000_000
RUNNING_POOL_CELLS = 200_000


def _workers(cells: int, jobs: int | None) -> int | None:
    """``jobs``, or 1 when ``cells`` are too few to pay for the pool."""
    return jobs if cells >= (RUNNING_POOL_CELLS if pool_running(jobs) else POOL_CELLS) else 1


def _stats_of(task: tuple[CodingTable, str]) -> Any:
    table, kind = task
    return alpha_stats(table, engine=kind)  # type: ignore[arg-type]


def _stats_of_all(tasks: Sequence[tuple[CodingTable, str]], cells: int, jobs: int | None
                  ) -> list[Any]:
    """:func:`_stats_of` of each task: one table alone takes ``jobs`` threads inside (the
    classes engine's pairs of coders); several share out over the processes."""
    if len(tasks) == 1:
        table, kind = tasks[0]
        return [alpha_stats(table, engine=kind, jobs=jobs)]  # type: ignore[arg-type]
    return map_chunks(_stats_of, tasks, _workers(cells, jobs))


def document_stats(tables: Sequence[CodingTable], kind: str, jobs: int | None = 1) -> list[Any]:
    """Alpha's statistics of each table (:func:`~clusteragree.core.coefficient.alpha_stats`
    with engine ``kind``), in order, on ``jobs`` processes when the tables are large enough
    (:data:`POOL_CELLS`, or :data:`RUNNING_POOL_CELLS` once a pool runs); the statistics are
    those of one process.

    Parameters
    ----------
    tables : sequence of CodingTable
        The documents.
    kind : {"classes", "generic"}
        The engine.
    jobs : int or None, default=1
        Processes (:func:`~clusteragree.core.parallel.resolve_jobs`).

    Returns
    -------
    list
        One :class:`~clusteragree.core.alpha_classes.CardinalityStats` or
        :class:`~clusteragree.core.alpha_generic.ValueStats` per table, in order: their sum is
        the pooled statistic.

    References
    ----------
    docs/alpha.md, "Statistics that add"; docs/parallel.md.

    Examples
    --------
    >>> t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "y")])
    >>> [s.n for s in document_stats([t, t], "generic")]
    [2, 2]
    """
    cells = sum(t.n_coders * t.n_units for t in tables)
    return _stats_of_all([(t, kind) for t in tables], cells, jobs)


#: Columns a report gains with a bootstrap interval (pooled rows only).
INTERVAL_COLUMNS = ["ci_low", "ci_high", "se", "p_below_0.667", "p_below_0.8",
                    "bootstrap_undefined", "ci_level", "ci_method", "ci_note"]


def _resampled(tables: Mapping[Any, CodingTable], resample: str, prefix: str = ""
               ) -> tuple[Any, str, int]:
    """The statistics a bootstrap reweights (per unit, or per document), what a block is, and
    how many documents have pairable units. One document: its units."""
    if resample not in ("auto", *RESAMPLE, "krippendorff"):
        raise ParameterError(f"resample must be auto, units, documents or krippendorff. Got "
                             f"{resample!r}.", params=("resample",))
    per_doc = {doc: block_stats(t) for doc, t in tables.items()}
    pairable = {doc: s for doc, s in per_doc.items() if len(s.blocks)}
    chosen = resample if resample != "auto" else ("documents" if len(tables) > 1 else "units")
    one = len(pairable) == 1 and next(iter(pairable)) != TOTAL  # a document, not a table
    if one and (chosen == "documents" or resample == "auto"):
        doc, only = next(iter(pairable.items()))
        units = str(tables[doc].meta.get("units", "units")).replace("peer-words", "words")
        notify("note", f"{prefix}there is one document ({doc}): the bootstrap resamples its "
               f"{len(only.blocks)} pairable {units} instead (the interval says how far this "
               "document's annotation would vary, not another document's)")
        chosen = "units"
    if chosen == "documents":
        kept = [s.collapse(doc) for doc, s in pairable.items()]
    else:
        kept = list(pairable.values())
    stats = sum(kept[1:], kept[0]) if kept else None
    return stats, chosen, len(pairable)


def _add_intervals(frame: pd.DataFrame, tables: Mapping[Any, CodingTable],
                   dists: Sequence[Distance], level: float, n: int, seed: int | None,
                   resample: str, jobs: int | None = 1, interval: str | None = None,
                   label: str | None = None) -> None:
    """Bootstrap columns on the pooled rows of ``frame`` (in place); ``label`` (a pair of
    annotators) starts the notes."""
    method = interval_method(interval, resample)
    check_resamples(n, len(dists))
    prefix = f"{label}: " if label else ""
    stats, chosen, _ = _resampled(tables, resample, prefix)
    for column in INTERVAL_COLUMNS:
        frame[column] = float("nan")
    for column in ("ci_method", "ci_note"):
        frame[column] = frame[column].astype(object)
    count = len(stats.blocks) if stats is not None else 0
    frame.attrs["bootstrap"] = {"n": int(n), "resample": chosen, "seed": seed,
                                "level": float(level), "method": method, "resampled": count}
    what = chosen if count != 1 else chosen[:-1]
    if count < 2 and chosen != "krippendorff":
        notify("note", f"{prefix}no bootstrap interval: there {'is' if count == 1 else 'are'} "
               f"{count} pairable {what}, nothing to resample")
        return
    if count < FEW_BLOCKS and chosen == "documents":
        notify("note", f"{prefix}the bootstrap resamples {count} {what}: with so few, its "
               "interval is too narrow (in the coverage study of docs/uncertainty.md, 95% "
               "intervals from 5 documents held the true alpha 82 to 86% of the time, from 2 "
               "about half the time)")
    elif count < FEW_BLOCKS and chosen != "krippendorff":
        notify("note", f"{prefix}the bootstrap resamples {count} {what}: with so few, its "
               "interval is rough (docs/uncertainty.md)")
    pooled = pooled_rows(frame)
    for dist in dists:
        row = pooled & (frame["distance"] == dist.name)
        if frame.loc[row, "alpha"].isna().all():  # undefined on the data: so is its interval
            warnings.warn(AlphaUndefinedWarning(
                f"alpha ({dist.name}) has no bootstrap interval: alpha itself is undefined on "
                "these data"), stacklevel=4)
            continue
        try:
            result = (krippendorff_bootstrap(stats, dist, n=n, level=level, seed=seed,
                                             jobs=jobs)
                      if chosen == "krippendorff" else
                      bootstrap_alpha(stats, dist, n=n, level=level, seed=seed,
                                      resample=chosen, jobs=jobs, interval=method))
        except ParameterError as err:
            if "undefined in every resample" not in str(err):
                raise
            warnings.warn(AlphaUndefinedWarning(
                f"alpha ({dist.name}) has no bootstrap interval: it is undefined in every one "
                f"of the {n} resamples"), stacklevel=4)
            continue
        frame.loc[row, INTERVAL_COLUMNS] = [result.ci[0], result.ci[1], result.se,
                                            result.p_below["0.667"], result.p_below["0.8"],
                                            result.undefined, float(level), result.method,
                                            result.note]
        if result.note:
            notify("note", f"{prefix}{dist.name} alpha: {result.note} (docs/uncertainty.md)")
        if result.undefined == n:
            notify("undefined", f"{prefix}{dist.name} alpha is undefined in every resample: no "
                   "interval")


def pairwise_report(
    tables_of: Callable[[tuple[int, ...]], CodingTable | Mapping[Any, CodingTable]],
    names: Sequence[Hashable],
    distances: Sequence[DistanceLike] = DEFAULT_DISTANCES,
    *,
    engine: Engine = "auto",
    per_document: bool = True,
    **interval: Any,
) -> pd.DataFrame:
    """Alpha of all the annotators together, then of every pair of them.

    Parameters
    ----------
    tables_of : callable
        Given the positions of some annotators in ``names`` (all of them, then each pair
        ``(i, j)``, ``i < j``), the table (or tables by document) of those annotators alone.
        A callable rather than one table, because what the units are can depend on who
        annotated (spans or mentions of the annotators compared).
    names : sequence
        The annotators' names, used in the ``pair`` column (``"A | B"``).
    distances, engine, per_document
        As :func:`alpha_report`.
    **interval
        ``ci``, ``bootstrap``, ``seed``, ``resample``, ``jobs``, ``interval``: as
        :func:`alpha_report`, for
        every row; the documents of all the pairs share one pool of processes.

    Returns
    -------
    DataFrame
        The rows of :func:`alpha_report` for all annotators (``pair`` = ``"all"``), then those
        of each pair; with two annotators only the first.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. (Alpha of a subset of
    the coders; pairwise values show which annotator departs from the others.)

    Examples
    --------
    A and B agree on both units, C disagrees with both on unit 2. All three: values x 4 times
    and y twice (n = 6); unit 2 holds the coincidences o_xy = o_yx = 2 x 1 / (3 - 1) = 1, so
    D_o = 2/6, D_e = (4 x 2 + 2 x 4) / (6 x 5) = 16/30 and alpha = 1 - (1/3) / (16/30) = 0.375.
    The pair A | B never disagrees: alpha 1.

    >>> t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("C", 1, "x"),
    ...                               ("A", 2, "y"), ("B", 2, "y"), ("C", 2, "x")])
    >>> f = pairwise_report(lambda idx: t.select([t.coders[i] for i in idx]),
    ...                     list(t.coders), ["nominal"])
    >>> f[["pair", "alpha"]].round(4).values.tolist()[:2]
    [['all', 0.375], ['A | B', 1.0]]
    """
    names = list(names)
    labels = ["all"]
    chosen = [tuple(range(len(names)))]
    if len(names) > 2:
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                labels.append(f"{names[i]} | {names[j]}")
                chosen.append((i, j))
    groups, flags = zip(*(_documents(tables_of(c), per_document) for c in chosen), strict=True)
    dists = [get_distance(d) for d in distances]
    engines = [_engines(group, dists, engine) for group in groups]
    options = {"ci": None, "bootstrap": 1000, "seed": None, "resample": "auto", "jobs": 1,
               "interval": None, **interval}
    # every document of every pair in one map over the processes
    stats = _group_stats(groups, engines, options["jobs"])
    parts = [_report(group, dists, chosen_engines, group_stats, flag, **options,
                     label=None if label == "all" else label)
             .assign(pair=label)
             for group, chosen_engines, group_stats, flag, label
             in zip(groups, engines, stats, flags, labels, strict=True)]
    out = pd.concat(parts, ignore_index=True)
    out.attrs = dict(parts[0].attrs)
    return out


def _cause(message: Warning | str) -> str:
    """The cause of an undefined alpha, in a few words."""
    text = str(message)
    if "pairable values" in text:
        return "fewer than two pairable values"
    if "D_e is 0" in text:
        return "no expected disagreement (every pairable value the same)"
    return text.split(": ", 1)[1] if ": " in text else text
