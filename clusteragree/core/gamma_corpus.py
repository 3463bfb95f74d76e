"""Gamma, gamma-cat and gamma-k of a corpus of spans: per document, pooled, with bootstrap
intervals over the documents and the best alignment as a DataFrame.

Each document is one continuum (:mod:`clusteragree.core.gamma`): every annotator compared
takes part, with no unit where they marked nothing (an *empty annotator*: its slots in the
unitary alignments are empty). Each document has its own best alignment and its own sampled
continua (sample ``i`` of the ``d``-th document is drawn with
``SeedSequence(seed, spawn_key=(d, i))``, so nothing depends on the order of the work or on
``jobs``), its observed and expected disorders and the precision of the latter.

Pooling. Each measure has statistics that add over documents: a weight ``w_d``, the observed
disorder ``o_d`` and the expected one ``e_d``, and the pooled value is

    ``1 - Σ w_d o_d / Σ w_d e_d``.

For gamma ``w_d`` is the document's average number of units per annotator, so that
``Σ w_d o_d`` is the sum of the unitary disorders of all the documents: the pooled observed
disorder is that of the corpus taken as one continuum whose units are never aligned across
documents, and the pooled expected disorder is the mean of the documents' expected disorders
weighted alike. For gamma-cat and gamma-k ``w_d`` is the document's sum of pair weights, so
that the pooled observed categorical disorder is that of all the pairs of the corpus. The
pooled expected disorder's precision (relative half-width of its 95% interval) is
``sqrt(Σ (w_d p_d e_d)^2) / Σ w_d e_d`` from the documents' precisions ``p_d``.

A bootstrap over documents draws documents with replacement and recomputes the pooled value
from these sums alone: no new alignment, no new sample.

Undefined: a document where nobody marked anything (named in ``documents=``) has NaN values
and weight 0, with an ``undefined`` notice; a document whose expected disorder is undefined
(all its units empty and at one point) is left out of the pool with a ``note``. Neither breaks
the pool.

References
----------
Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The unified and holistic method gamma (γ)
for inter-annotator agreement measure and alignment. Computational Linguistics 41(3), 437-479.

Mathet, Y. (2017). The agreement measure γcat, a complement to γ focused on categorization of
a continuum. Computational Linguistics 43(3), 661-681.

docs/gamma.md.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InputError, ParameterError, ParameterTypeError, notify, option
from .alignment import MAX_CANDIDATES, Continuum, best_alignment, prepare
from .frames import TOTAL
from .gamma import category_gammas, chance, check_sampling, span_length
from .gamma_cat import categorical_sums
from .intervals import DEFAULT_INTERVAL, bootstrap_interval, check_interval, check_resamples
from .parallel import map_chunks, resolve_jobs
from .span_match import SPAN_COLUMNS, Span

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["ALIGNMENT_COLUMNS", "GAMMA_COLUMNS", "MEASURES", "SpanGamma", "bootstrap_gamma",
           "gamma_frame", "pool_gamma", "span_gamma"]

#: The measures of the family.
MEASURES = ("gamma", "gamma-cat", "gamma-k")
#: The columns of the rows.
GAMMA_COLUMNS = ["document", "pooled", "measure", "category", "value", "observed", "expected",
                 "weight", "n_samples", "precision", "seed", "units", "annotators"]
#: The columns of the alignment: one row per unit.
ALIGNMENT_COLUMNS = ["document", "alignment", "annotator", "span", "start", "end", "label",
                     "disorder", "size"]
NAN = float("nan")


@dataclass(frozen=True)
class SpanGamma:
    """The gamma family of a corpus of spans.

    Attributes
    ----------
    rows : DataFrame
        Columns :data:`GAMMA_COLUMNS`: per document, then pooled (``document`` is
        :data:`~clusteragree.core.frames.TOTAL`, ``pooled`` True), for each measure (and
        category, for gamma-k; NaN for the others); ``weight`` is what pools the row (module
        docstring).
    alignment : DataFrame
        Columns :data:`ALIGNMENT_COLUMNS`: one row per unit: its document, its unitary
        alignment (numbered from 0 in each document, in the order of their first unit), its
        annotator, its row in the spans given (``span``), its offsets and label, the unitary
        alignment's disorder and its number of units. Empty slots have no row.

    References
    ----------
    docs/gamma.md, "A corpus of spans".

    Examples
    --------
    >>> r = span_gamma([("A", "d", 0, 4, "x"), ("B", "d", 0, 4, "x"), ("A", "d", 6, 9, "y"),
    ...                 ("B", "d", 6, 9, "y")], min_samples=5)
    >>> r.rows[["document", "measure", "category", "value", "observed"]]
      document    measure category  value  observed
    0        d      gamma      NaN    1.0       0.0
    1        d  gamma-cat      NaN    1.0       0.0
    2        d    gamma-k        x    1.0       0.0
    3        d    gamma-k        y    1.0       0.0
    4    TOTAL      gamma      NaN    1.0       0.0
    5    TOTAL  gamma-cat      NaN    1.0       0.0
    6    TOTAL    gamma-k        x    1.0       0.0
    7    TOTAL    gamma-k        y    1.0       0.0
    >>> r.alignment[["alignment", "annotator", "span", "label", "disorder", "size"]]
       alignment annotator  span label  disorder  size
    0          0         A     0     x       0.0     2
    1          0         B     1     x       0.0     2
    2          1         A     2     y       0.0     2
    3          1         B     3     y       0.0     2
    """

    rows: pd.DataFrame
    alignment: pd.DataFrame

    def bootstrap(self, n: int = 1000, *, level: float = 0.95, seed: int | None = None,
                  interval: str = DEFAULT_INTERVAL) -> pd.DataFrame:
        """The pooled rows with bootstrap intervals over the documents
        (:func:`bootstrap_gamma`)."""
        return bootstrap_gamma(self.rows, n=n, level=level, seed=seed, interval=interval)


def gamma_frame(spans: pd.DataFrame | Iterable[Span | Sequence[Any]]) -> pd.DataFrame:
    """The spans as a DataFrame of :data:`~clusteragree.core.span_match.SPAN_COLUMNS`,
    checked for gamma: offsets are finite numbers (not only whole ones) and ``end >= start``
    (a zero-length unit is a point of the continuum).

    Parameters
    ----------
    spans : DataFrame or iterable
        A DataFrame with the columns ``annotator, document, start, end, label`` (others are
        left out; rows are numbered from 0 in their order), or an iterable of
        :class:`~clusteragree.core.span_match.Span` or of 5-tuples in that order.

    Returns
    -------
    DataFrame
        The five columns, ``start`` and ``end`` as float.

    Raises
    ------
    ParameterTypeError
        If ``spans`` is neither, or a DataFrame lacks a column.
    InputError
        A span with no annotator, document or label, an offset that is not a finite number,
        or an end before its start (the span's row is named).

    References
    ----------
    docs/gamma.md, "A corpus of spans".

    Examples
    --------
    >>> gamma_frame([("A", "d1", 0.5, 0.5, "x")])
      annotator document  start  end label
    0         A       d1    0.5  0.5     x
    """
    import pandas as pd

    if isinstance(spans, pd.DataFrame):
        missing = [c for c in SPAN_COLUMNS if c not in spans.columns]
        if missing:
            raise ParameterTypeError(f"spans lacks the column(s) {', '.join(missing)}; a spans "
                                     f"DataFrame has the columns {', '.join(SPAN_COLUMNS)}")
        frame = spans.loc[:, list(SPAN_COLUMNS)].reset_index(drop=True)
    elif isinstance(spans, (str, bytes)) or not isinstance(spans, Iterable):
        raise ParameterTypeError("spans must be a DataFrame with the columns "
                                 f"{', '.join(SPAN_COLUMNS)} or an iterable of Span or of "
                                 f"5-tuples. Got {type(spans).__name__}.")
    else:
        rows = []
        for i, s in enumerate(spans):
            row = (s.annotator, s.document, s.start, s.end, s.label) if isinstance(s, Span) \
                else tuple(s) if isinstance(s, (tuple, list)) else None
            if row is None or len(row) != 5:
                raise InputError(f"span {i} is {s!r}; expected a Span or an (annotator, "
                                 "document, start, end, label) tuple")
            rows.append(row)
        frame = pd.DataFrame(rows, columns=list(SPAN_COLUMNS), dtype=object)
    for col in ("annotator", "document", "label"):
        bad = frame[col].isna().to_numpy()
        if bad.any():
            raise InputError(f"span {int(np.flatnonzero(bad)[0])} has no {col}; give every "
                             f"span its {col}")
    for col in ("start", "end"):
        values = pd.to_numeric(frame[col], errors="coerce").astype(float)
        bad = ~np.isfinite(values.to_numpy())
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise InputError(f"span {i} has {col} {frame[col].iloc[i]!r}; offsets are finite "
                             "numbers")
        frame[col] = values
    back = (frame["end"] < frame["start"]).to_numpy()
    if back.any():
        i = int(np.flatnonzero(back)[0])
        raise InputError(f"span {i} (annotator {frame['annotator'].iloc[i]!r}, document "
                         f"{frame['document'].iloc[i]!r}) ends at {frame['end'].iloc[i]:g} "
                         f"before it starts at {frame['start'].iloc[i]:g}")
    return frame


@dataclass(frozen=True)
class _Document:
    """What one document gives (computed in a worker: no notice is issued there)."""

    units: int
    xbar: float
    unitary: tuple[tuple[int | None, ...], ...]
    disorders: tuple[float, ...]
    observed: float
    expected: float
    n_samples: int
    precision: float
    cat: tuple[float, float, float, float, int]  # observed, expected, weight, precision, samples
    k: tuple[tuple[float, float, float, float, int], ...]
    span_zero: bool


def _document(task: tuple[Continuum, int, int, dict[str, Any]]) -> _Document:
    cont, index, seed, params = task
    nan5 = (NAN, NAN, 0.0, NAN, 0)
    n_cat = len(cont.categories)
    units = cont.n_units
    if units == 0:
        return _Document(0, 0.0, (), (), NAN, NAN, 0, NAN, nan5, (nan5,) * n_cat, False)
    aligned = best_alignment(cont, max_candidates=params["max_candidates"])
    xbar = units / cont.n_annotators
    if span_length(cont) == 0:
        return _Document(units, xbar, aligned.unitary, aligned.disorders, aligned.disorder, NAN,
                         0, NAN, nan5, (nan5,) * n_cat, True)
    sampled = chance(cont, seed=seed, key=(index,), precision=params["precision"],
                     min_samples=params["min_samples"], max_samples=params["max_samples"],
                     max_candidates=params["max_candidates"], jobs=params["jobs"])
    mean, count, reached = sampled.expected()
    cat, ks = category_gammas(categorical_sums(cont, aligned), sampled)

    def five(g: Any) -> tuple[float, float, float, float, int]:
        return (g.observed, g.expected, g.weight, g.precision, g.samples)

    return _Document(units, xbar, aligned.unitary, aligned.disorders, aligned.disorder, mean,
                     count, reached, five(cat), tuple(five(g) for g in ks), False)


def span_gamma(spans: pd.DataFrame | Iterable[Span | Sequence[Any]], *,
               measures: Sequence[str] = MEASURES,
               annotators: Sequence[Hashable] | None = None,
               documents: Sequence[Hashable] | None = None,
               alpha: float = 1.0, beta: float = 1.0, delta_empty: float = 1.0,
               categories: Sequence[Hashable] | None = None,
               category_matrix: np.ndarray | Sequence[Sequence[float]] | None = None,
               precision: float = 0.02, min_samples: int = 30, max_samples: int = 1000,
               seed: int = 0, max_candidates: int = MAX_CANDIDATES,
               jobs: int | None = 1) -> SpanGamma:
    """Gamma, gamma-cat and gamma-k per document and pooled, and the best alignments.

    Parameters
    ----------
    spans : DataFrame or iterable
        The spans (:func:`gamma_frame`).
    measures : sequence of str, default=MEASURES
        Any of ``"gamma"``, ``"gamma-cat"``, ``"gamma-k"`` (gamma-k for every category).
    annotators : sequence, optional
        The annotators compared (those who marked nothing included); default those with
        spans, in order of appearance. Spans of others are left out (an ``ignored`` notice).
    documents : sequence, optional
        The documents (those where nobody marked anything included); default those with
        spans. Every span must lie in one of them.
    alpha, beta, delta_empty, categories, category_matrix, max_candidates
        The dissimilarity and the cap of :func:`~clusteragree.core.alignment.best_alignment`;
        ``categories`` default to the labels in order of appearance (a ``category_matrix``
        needs them).
    precision, min_samples, max_samples, seed
        The sampling of each document (:func:`~clusteragree.core.gamma.gamma`).
    jobs : int or None, default=1
        Processes: documents are spread over them, or a single document's samples; the
        values do not depend on it.

    Returns
    -------
    SpanGamma

    Raises
    ------
    ParameterError
        Fewer than two annotators, an unknown measure, bad sampling bounds, more candidates
        than ``max_candidates`` in a group.
    InputError
        A span outside the documents given, or badly formed (:func:`gamma_frame`).

    References
    ----------
    Mathet, Widlöcher & Métivier (2015), Computational Linguistics 41(3);
    Mathet (2017), Computational Linguistics 43(3); docs/gamma.md.

    Examples
    --------
    >>> spans = [("A", "d1", 0, 10, "x"), ("B", "d1", 0, 10, "x"), ("A", "d1", 20, 30, "y"),
    ...          ("B", "d2", 5, 9, "x")]
    >>> r = span_gamma(spans, measures=["gamma"], min_samples=10, precision=0.2)
    >>> r.rows[["document", "units", "weight", "observed"]]
      document  units  weight  observed
    0       d1      3     1.5  0.666667
    1       d2      1     0.5  2.000000
    2    TOTAL      4     2.0  1.000000
    """
    import pandas as pd

    frame = gamma_frame(spans)
    wanted = _measures(measures)
    if category_matrix is not None and categories is None:
        raise ParameterError("give the categories with category_matrix (its rows and columns "
                             "in their order)", params=("categories", "category_matrix"))
    check_sampling(precision, min_samples, max_samples)
    chosen = _annotators(frame, annotators)
    frame = frame[frame["annotator"].isin(chosen)]
    docs = _documents(frame, documents)
    labels = list(categories) if categories is not None else list(pd.unique(frame["label"]))
    params = {"precision": precision, "min_samples": min_samples, "max_samples": max_samples,
              "max_candidates": max_candidates, "jobs": 1}
    annotator_of = pd.Index(chosen).get_indexer(frame["annotator"])
    doc_of = pd.Index(docs).get_indexer(frame["document"])
    tasks, rows_of = [], []
    for d in range(len(docs)):
        mine = np.flatnonzero(doc_of == d)
        per = [mine[annotator_of[mine] == a] for a in range(len(chosen))]
        cont = prepare([list(zip(frame["start"].to_numpy()[p], frame["end"].to_numpy()[p],
                                 frame["label"].to_numpy()[p], strict=True)) for p in per],
                       alpha=alpha, beta=beta, delta_empty=delta_empty, categories=labels,
                       category_matrix=(1.0 - np.eye(len(labels))) if category_matrix is None
                       else category_matrix)
        tasks.append((cont, d, seed, params))
        rows_of.append([frame.index.to_numpy()[p] for p in per])
    processes = resolve_jobs(jobs)
    if len(docs) >= processes:
        results = map_chunks(_document, tasks, processes)
    else:  # few documents: their samples are spread instead
        params["jobs"] = processes
        results = [_document(t) for t in tasks]
    table = _rows(docs, results, chosen, labels, wanted, seed)
    _notices(docs, results, table)
    rows = pd.DataFrame(table, columns=GAMMA_COLUMNS)
    rows = pd.concat([rows, pool_gamma(rows)], ignore_index=True)
    return SpanGamma(rows, _alignment_frame(frame, docs, results, chosen, rows_of))


def _measures(measures: Sequence[str]) -> list[str]:
    if isinstance(measures, str):
        measures = [measures]
    unknown = [m for m in measures if m not in MEASURES]
    if unknown or not measures:
        raise ParameterError(f"{option('measures', list(measures))}: choose among "
                             f"{', '.join(MEASURES)}", params=("measures",))
    return [m for m in MEASURES if m in measures]


def _annotators(frame: pd.DataFrame, annotators: Sequence[Hashable] | None) -> list[Hashable]:
    import pandas as pd

    if annotators is None:
        chosen = list(pd.unique(frame["annotator"]))
    else:
        chosen = list(annotators)
        if len(set(chosen)) != len(chosen):
            raise ParameterError("annotators names an annotator twice", params=("annotators",))
        outside = int((~frame["annotator"].isin(chosen)).sum())
        if outside:
            notify("ignored", f"{outside} spans of annotators not among the annotators "
                   "compared were left out", count=1, stacklevel=4)
    if len(chosen) < 2:
        raise ParameterError(
            f"gamma needs two annotators at least; the spans name {len(chosen)} (an annotator "
            "who marked nothing has no span: name every annotator with annotators=[...])",
            params=("annotators",))
    return chosen


def _documents(frame: pd.DataFrame, documents: Sequence[Hashable] | None) -> list[Hashable]:
    import pandas as pd

    if documents is None:
        return list(pd.unique(frame["document"]))
    chosen = list(documents)
    outside = ~frame["document"].isin(chosen)
    if outside.any():
        i = int(np.flatnonzero(outside.to_numpy())[0])
        raise InputError(f"span {frame.index[i]} lies in document "
                         f"{frame['document'].iloc[i]!r}, which is not among the "
                         f"{len(chosen)} documents given (documents=...)")
    return chosen


def _rows(docs: list[Hashable], results: list[_Document], chosen: list[Hashable],
          labels: list[Hashable], wanted: list[str], seed: int) -> list[list[Any]]:
    table = []
    n = len(chosen)
    for doc, r in zip(docs, results, strict=True):
        value = 1 - r.observed / r.expected if r.expected > 0 else NAN
        if "gamma" in wanted:
            table.append([doc, False, "gamma", None, value, r.observed, r.expected, r.xbar,
                          r.n_samples, r.precision, seed, r.units, n])
        pieces = ([("gamma-cat", None, r.cat)] if "gamma-cat" in wanted else []) + (
            [("gamma-k", c, k) for c, k in zip(labels, r.k, strict=True)]
            if "gamma-k" in wanted else [])
        for measure, category, (obs, exp, weight, reached, samples) in pieces:
            value = 1 - obs / exp if weight > 0 and exp > 0 else NAN
            table.append([doc, False, measure, category, value, obs, exp, weight, samples,
                          reached, seed, r.units, n])
    return table


def pool_gamma(rows: pd.DataFrame) -> pd.DataFrame:
    """The pooled rows (``document`` TOTAL) from per-document rows, by the definition of the
    module's docstring: ``1 - Σ w o / Σ w e`` over the documents where ``w > 0`` and both
    disorders are defined.

    Parameters
    ----------
    rows : DataFrame
        Per-document rows (:data:`GAMMA_COLUMNS`; rows with ``pooled`` True are left out).

    Returns
    -------
    DataFrame
        One row per measure (and category), ``n_samples`` and ``units`` summed.

    References
    ----------
    docs/gamma.md, "Pooling over documents".

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame([["a", False, "gamma", None, 0.5, 1.0, 2.0, 1.0, 30, 0.02, 0, 2, 2],
    ...                      ["b", False, "gamma", None, 0.0, 2.0, 2.0, 3.0, 30, 0.02, 0, 6, 2]],
    ...                     columns=GAMMA_COLUMNS)
    >>> pool_gamma(rows)[["document", "value", "observed", "expected", "weight"]]
      document  value  observed  expected  weight
    0    TOTAL  0.125      1.75       2.0     4.0
    """
    import pandas as pd

    docs = rows[~rows["pooled"].astype(bool)]
    out = []
    order = list(dict.fromkeys(zip(docs["measure"], map(_key, docs["category"]), strict=True)))
    for measure, category in order:
        part = _part(docs, measure, category)
        w, o, e = (part[c].to_numpy(dtype=float) for c in ("weight", "observed", "expected"))
        p = part["precision"].to_numpy(dtype=float)
        ok = (w > 0) & np.isfinite(o) & np.isfinite(e)
        sw, so, se = w[ok].sum(), (w * o)[ok].sum(), (w * e)[ok].sum()
        observed = so / sw if sw > 0 else NAN
        expected = se / sw if sw > 0 else NAN
        value = 1 - so / se if se > 0 else NAN
        spread = np.sqrt(np.nansum((w * p * e)[ok] ** 2))
        reached = spread / se if se > 0 else NAN
        out.append([TOTAL, True, measure, category, value, observed, expected, sw,
                    int(part["n_samples"].sum()), reached,
                    part["seed"].iloc[0] if len(part) else None, int(part["units"].sum()),
                    int(part["annotators"].max()) if len(part) else 0])
    return pd.DataFrame(out, columns=GAMMA_COLUMNS)


def _key(category: Any) -> Any:
    """A category as a key: None for a missing one (None or NaN)."""
    return None if category is None or (isinstance(category, float) and np.isnan(category)) \
        else category


def _part(docs: pd.DataFrame, measure: str, category: Any) -> pd.DataFrame:
    """The rows of one measure and category."""
    same = np.array([_key(c) == category for c in docs["category"]], dtype=bool)
    return docs[(docs["measure"] == measure).to_numpy() & same]


def bootstrap_gamma(rows: pd.DataFrame, *, n: int = 1000, level: float = 0.95,
                    seed: int | None = None, interval: str = DEFAULT_INTERVAL) -> pd.DataFrame:
    """Bootstrap intervals of the pooled values over the documents, from the per-document
    rows alone (no new alignment): documents drawn with replacement ``n`` times, each draw
    pooled by :func:`pool_gamma`'s definition.

    Parameters
    ----------
    rows : DataFrame
        The rows of :func:`span_gamma` (per-document rows are used).
    n : int, default=1000
        Resamples.
    level : float, default=0.95
        Confidence level.
    seed : int, optional
        Seed of numpy's default generator.
    interval : {"bca", "percentile"}, default=DEFAULT_INTERVAL
        The interval (:func:`~clusteragree.core.intervals.bootstrap_interval`; BCa's
        acceleration from the jackknife over documents).

    Returns
    -------
    DataFrame
        The pooled rows with ``ci_low``, ``ci_high``, ``se`` (standard deviation of the
        resampled values), ``method``, ``resamples``, ``level`` and ``documents`` (those
        resampled: weight > 0 and both disorders defined).

    Raises
    ------
    ParameterError
        A bad ``n``, ``level`` or ``interval``.

    References
    ----------
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame([[d, False, "gamma", None, 1 - o / 2, o, 2.0, 1.0, 30, 0.02, 0, 2, 2]
    ...                      for d, o in zip("abcd", [0.5, 1.0, 1.5, 1.0])],
    ...                     columns=GAMMA_COLUMNS)
    >>> b = bootstrap_gamma(rows, n=200, seed=1, interval="percentile")
    >>> float(b.value[0]), int(b.documents[0]), bool(b.ci_low[0] < 0.5 < b.ci_high[0])
    (0.5, 4, True)
    """
    import pandas as pd

    check_interval(interval)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ParameterError(f"{option('n', n)}: a whole number of resamples, at least 2",
                             params=("n",))
    if not 0 < level < 1:
        raise ParameterError(f"{option('level', level)} must be in (0, 1)", params=("level",))
    check_resamples(int(n))
    pooled = pool_gamma(rows)
    docs = rows[~rows["pooled"].astype(bool)]
    rng = np.random.default_rng(seed)
    extra: list[list[Any]] = []
    for _, row in pooled.iterrows():
        part = _part(docs, row["measure"], _key(row["category"]))
        w, o, e = (part[c].to_numpy(dtype=float) for c in ("weight", "observed", "expected"))
        ok = (w > 0) & np.isfinite(o) & np.isfinite(e)
        wo, we = (w * o)[ok], (w * e)[ok]
        m = len(wo)
        if m < 2 or not we.sum() > 0:
            extra.append([NAN, NAN, NAN, interval, int(n), level, m])
            continue
        counts = np.stack([np.bincount(rng.integers(0, m, m), minlength=m) for _ in range(n)])
        num, den = counts @ wo, counts @ we
        with np.errstate(divide="ignore", invalid="ignore"):
            values = np.where(den > 0, 1 - num / den, np.nan)
            jack = 1 - (wo.sum() - wo) / (we.sum() - we)
        found = bootstrap_interval(values, level, interval, estimate=float(row["value"]),
                                   jackknife=jack)
        kept = values[~np.isnan(values)]
        extra.append([found.low, found.high, float(np.std(kept, ddof=1)) if len(kept) > 1
                      else NAN, found.method, int(n), level, m])
    more = pd.DataFrame(extra, columns=["ci_low", "ci_high", "se", "method", "resamples",
                                        "level", "documents"])
    return pd.concat([pooled.reset_index(drop=True), more], axis=1)


def _notices(docs: list[Hashable], results: list[_Document], table: list[list[Any]]) -> None:
    empty = [d for d, r in zip(docs, results, strict=True) if r.units == 0]
    if empty:
        notify("undefined", f"gamma is undefined in {len(empty)} document(s) where nobody "
               f"marked anything ({', '.join(map(repr, empty[:3]))}"
               f"{', ...' if len(empty) > 3 else ''}): left out of the pool",
               count=len(empty), stacklevel=4)
    point = [d for d, r in zip(docs, results, strict=True) if r.span_zero]
    if point:
        notify("note", f"gamma's expected disorder is undefined in {len(point)} document(s) "
               "whose units are all empty and at one point: left out of the pool",
               count=len(point), stacklevel=4)
    undefined: dict[tuple[str, str], int] = {}
    for row in table:
        if row[11] and not np.isfinite(row[4]) and row[2] != "gamma":
            why = ("no aligned pair of units weighs anything" if not row[7] > 0 else
                   "no sampled continuum aligns a pair that weighs anything" if not row[8] else
                   "the sampled continua have no categorical disorder")
            undefined[row[2], why] = undefined.get((row[2], why), 0) + 1
    for (measure, why), count in undefined.items():
        notify("undefined", f"{measure} is undefined in {count} document row(s): {why}"
               + (" (pairs holding the category)" if measure == "gamma-k" else ""),
               count=count, stacklevel=4)


def _alignment_frame(frame: pd.DataFrame, docs: list[Hashable], results: list[_Document],
                     chosen: list[Hashable], rows_of: list[list[np.ndarray]]) -> pd.DataFrame:
    import pandas as pd

    parts = []
    for d, (doc, r) in enumerate(zip(docs, results, strict=True)):
        if not r.unitary:
            continue
        table = np.array([[-1 if u is None else u for u in row] for row in r.unitary],
                         dtype=np.int64)
        size = (table >= 0).sum(axis=1)
        ids, ann = np.nonzero(table >= 0)
        span = np.array([rows_of[d][a][u] for a, u in zip(ann, table[ids, ann], strict=True)],
                        dtype=np.int64)
        parts.append(pd.DataFrame({
            "document": [doc] * len(ids), "alignment": ids,
            "annotator": [chosen[a] for a in ann], "span": span,
            "start": frame.loc[span, "start"].to_numpy(), "end": frame.loc[span, "end"].to_numpy(),
            "label": frame.loc[span, "label"].to_numpy(),
            "disorder": np.asarray(r.disorders)[ids], "size": size[ids]}))
    if not parts:
        return pd.DataFrame(columns=ALIGNMENT_COLUMNS)
    return pd.concat(parts, ignore_index=True)[ALIGNMENT_COLUMNS]
