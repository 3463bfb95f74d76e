"""Every span measure on one reading of the data: matching F1, token-level kappa and alpha,
Krippendorff's unitizing alpha and gamma, per document and pooled.

The engines are the core's; this module decides what each one is given, from one
:class:`~clusteragree.core.spans.SpanCorpus`:

* matching F1 (``f1``) and token-level agreement (``tokens``) need spans that mark a position:
  zero-length spans are left out of them (``skipped``), and of the unitizing alphas;
* token tags hold one span per position: where one annotator's spans overlap, the tags take
  the first of each overlapping run (by start, longest first) and the others are left out of
  the token measures (a ``note``; match them with ``f1``);
* the unitizing alphas need, per annotator and category, units that do not overlap: a span
  inside another of its annotator and category is left out (a ``note``) and spans that cross
  are joined (``merged``), as for coreference mentions;
* gamma takes every span as it is.

Token-level agreement and the unitizing alphas need each document's length; gamma and F1 do
not. Every annotator is taken to have annotated every document of the corpus.

References
----------
docs/spans.md, "One run, every measure".
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..core.alignment import MAX_CANDIDATES
from ..core.frames import TOTAL
from ..core.gamma_corpus import span_gamma
from ..core.span_match import SPAN_RULES, span_f1_tables
from ..core.span_tokens import SCHEMES, token_agreement
from ..core.spans import SpanCorpus
from ..core.unitizing import UnitizingStats
from ..core.unitizing_family import unitizing_family
from ..errors import AlphaUndefinedWarning, ParameterError, notify, option
from .intervals import span_intervals
from .measures import (
    GAMMA_MEASURES,
    LENGTH_MEASURES,
    MEASURES,
    NAMES,
    flat_spans,
    unitizing_statistics,
)

__all__ = ["LENGTH_MEASURES", "MEASURES", "SpanResults", "span_agreement",
           "unitizing_rows"]



@dataclass
class SpanResults:
    """The results of :func:`span_agreement`; a measure not computed is None.

    Attributes
    ----------
    corpus : SpanCorpus
        What was compared.
    measures : list of str
        The measures computed.
    f1_pairs, f1 : DataFrame
        :func:`~clusteragree.core.span_match.span_f1_pairs` and the mean over pairs
        (:func:`~clusteragree.core.span_match.span_f1`).
    tokens : DataFrame
        :func:`~clusteragree.core.span_tokens.token_agreement`.
    unitizing : DataFrame
        :func:`unitizing_rows`.
    gamma : DataFrame
        Gamma per document (and pooled).
    alignment : DataFrame
        Gamma's best alignment: which span of each annotator went with which.
    settings : dict
        The options that decide the values (for the signature).
    """

    corpus: SpanCorpus
    measures: list[str]
    f1_pairs: pd.DataFrame | None = None
    f1: pd.DataFrame | None = None
    tokens: pd.DataFrame | None = None
    unitizing: pd.DataFrame | None = None
    gamma: pd.DataFrame | None = None
    alignment: pd.DataFrame | None = None
    settings: dict[str, Any] = field(default_factory=dict)


def _measures(metrics: Sequence[str] | str | None, corpus: SpanCorpus) -> list[str]:
    if metrics is None:
        several = corpus.spans["label"].nunique() > 1
        chosen = [m for m in MEASURES
                  if (corpus.lengths is not None or m not in LENGTH_MEASURES)
                  and (several or m not in ("gamma-cat", "gamma-k"))]
        left = [m for m in LENGTH_MEASURES if m not in chosen]
        if left:
            notify("note", f"{', '.join(left)} not computed: they need each document's "
                   f"length, which the input does not give ({option('lengths')} or "
                   f"{option('text_dir')})")
        return chosen
    names = [m.strip() for m in metrics.split(",")] if isinstance(metrics, str) else list(metrics)
    bad = [m for m in names if m not in MEASURES]
    if bad or not names:
        raise ParameterError(f"{option('metrics', ','.join(map(str, names)))}: the span measures "
                             f"are {', '.join(MEASURES)}", params=("metrics",))
    return list(dict.fromkeys(names))


def span_agreement(corpus: SpanCorpus, metrics: Sequence[str] | str | None = None, *,
                   rules: Sequence[str] | str = ("exact", "overlap"), scheme: str = "bio",
                   per_document: bool = False, alpha: float = 1.0, beta: float = 1.0,
                   delta_empty: float = 1.0, precision: float = 0.02, seed: int = 0,
                   ci: float | None = None, bootstrap: int = 1000, interval: str = "bca",
                   jobs: int | None = 1, max_candidates: int = MAX_CANDIDATES) -> SpanResults:
    """Every span measure asked for, on one corpus.

    Parameters
    ----------
    corpus : SpanCorpus
        The spans of two or more annotators.
    metrics : sequence of str or str, optional
        Among :data:`MEASURES` (default: every one the corpus allows; those of
        :data:`LENGTH_MEASURES` need the documents' lengths).
    rules : sequence of str or str, default=("exact", "overlap")
        The matching rules of F1 (:data:`~clusteragree.core.span_match.SPAN_RULES`).
    scheme : {"bio", "io"}, default="bio"
        The tags of the token measures.
    per_document : bool, default=False
        Rows per document too (the pooled rows are always there).
    alpha, beta, delta_empty : float, default=1.0
        Gamma's dissimilarity: the weights of the positional and categorical parts, and the
        dissimilarity of a unit with none.
    precision : float, default=0.02
        Gamma: the relative half-width wanted for the 95% interval of the expected disorder.
    seed : int, default=0
        Gamma's sampling, and the bootstrap's.
    ci : float, optional
        A bootstrap interval at this level for every pooled value but macro F1's and gamma's
        (:mod:`clusteragree.spans.intervals`), resampling documents.
    bootstrap : int, default=1000
        Resamples.
    interval : {"bca", "percentile"}, default="bca"
        The interval's method.
    max_candidates : int, default=200000
        Gamma: the cap on the candidate unitary alignments of one group of units
        (:func:`~clusteragree.core.alignment.best_alignment`).
    jobs : int, optional
        Processes for gamma (its documents, or one document's samples); the values do not
        depend on it.

    Returns
    -------
    SpanResults

    Raises
    ------
    ParameterError
        An unknown measure, rule or scheme.
    InputError
        A measure that needs the documents' lengths, or whole-number offsets, without them.

    References
    ----------
    docs/spans.md, "One run, every measure".

    Examples
    --------
    >>> from clusteragree.core.spans import span_corpus
    >>> c = span_corpus([("A", "d", 0, 4, "PER"), ("A", "d", 10, 12, "LOC"),
    ...                  ("B", "d", 0, 4, "PER"), ("B", "d", 10, 13, "LOC")],
    ...                 lengths={"d": 20})
    >>> r = span_agreement(c, ["f1", "ualpha"])
    >>> micro = r.f1[(r.f1.document == "TOTAL") & (r.f1.average == "micro")]
    >>> micro[["rule", "f1"]].values.tolist()
    [['exact', 0.5], ['overlap', 1.0]]

    Unitizing alpha over both categories: PER agrees (D_o 0, D_e 0.0578), LOC's ends differ
    by 1 (D_o 2 / (2 x 20^2) = 0.0025, D_e 0.0244), so alpha is 1 - 0.0025 / 0.0822:

    >>> round(float(r.unitizing.query("category.isna()").alpha.iloc[0]), 4)
    0.9696
    """
    chosen = _measures(metrics, corpus)
    rule_list = [r.strip() for r in rules.split(",")] if isinstance(rules, str) else list(rules)
    bad = [r for r in rule_list if r not in SPAN_RULES]
    if bad or not rule_list:
        raise ParameterError(f"{option('rules', ','.join(rule_list))}: the rules are "
                             f"{', '.join(SPAN_RULES)}", params=("rules",))
    if scheme not in SCHEMES:
        raise ParameterError(f"{option('scheme', scheme)} must be one of {', '.join(SCHEMES)}",
                             params=("scheme",))
    how = f"give {option('lengths')} FILE (document,length) or {option('text_dir')}"
    for m in chosen:
        if m in LENGTH_MEASURES:
            corpus.need_lengths(NAMES[m], how)
    out = SpanResults(corpus, chosen, settings={
        "rules": rule_list, "scheme": scheme, "alpha": alpha, "beta": beta,
        "delta_empty": delta_empty, "precision": precision, "seed": seed,
        "per_document": per_document})
    if "f1" in chosen:
        marked = corpus.nonempty("matching F1")
        marked.need_whole("matching F1")
        pairs, means = span_f1_tables(marked.core_frame(), rule_list,
                                      annotators=corpus.annotators, documents=corpus.documents)
        out.f1_pairs = pairs if per_document else pairs[pairs["pooled"]].reset_index(drop=True)
        out.f1 = means if per_document else means[means["pooled"]].reset_index(drop=True)
    if "tokens" in chosen:
        frame = flat_spans(corpus, NAMES["tokens"])
        tags = token_agreement(frame, corpus.lengths or {}, scheme=scheme,
                               annotators=corpus.annotators)
        out.tokens = tags if per_document else tags[tags["pooled"]].reset_index(drop=True)
    found: list[pd.DataFrame] = []
    if "ualpha" in chosen:
        found.append(unitizing_rows(corpus, per_document=per_document))
    if "ualpha2016" in chosen:
        flat = flat_spans(corpus, NAMES["ualpha2016"])
        family = unitizing_family(flat, corpus.lengths or {}, annotators=corpus.annotators,
                                  per_document=per_document)
        found.append(family.drop(columns=["distance", "pairable"]))
    if found:
        out.unitizing = pd.concat(found, ignore_index=True)
    if ci is not None:
        span_intervals(out, pairs if "f1" in chosen else None, n=bootstrap, level=ci,
                       seed=seed, interval=interval)
    wanted = [m for m in GAMMA_MEASURES if m in chosen]
    if wanted:
        gammas = span_gamma(corpus.core_frame(), measures=wanted, annotators=corpus.annotators,
                            documents=corpus.documents, alpha=alpha, beta=beta,
                            delta_empty=delta_empty, precision=precision, seed=seed, jobs=jobs,
                            max_candidates=max_candidates)
        rows: pd.DataFrame = gammas.rows
        if ci is not None:
            rows = _gamma_intervals(rows, gammas.bootstrap(bootstrap, level=ci, seed=seed,
                                                           interval=interval))
        pooled = rows["pooled"].to_numpy(dtype=bool)
        out.gamma = rows if per_document else pd.DataFrame(rows[pooled]).reset_index(drop=True)
        aligned = pd.DataFrame(gammas.alignment).rename(columns={"alignment": "unitary"})
        aligned["span"] = corpus.spans.index.to_numpy()[aligned["span"].to_numpy(dtype=int)]
        out.alignment = _with_empty_slots(aligned, corpus.annotators)
    return out


def unitizing_rows(corpus: SpanCorpus, *, per_document: bool = False) -> pd.DataFrame:
    """Krippendorff's (1995, 2004) unitizing alpha of each category and over all, pooled over
    the documents (and per document).

    Per annotator and category, a span inside another is left out (a ``note``) and spans that
    cross are joined (``merged``); the statistics of the documents add
    (:class:`~clusteragree.core.unitizing.UnitizingStats`), so the pooled value is not the
    mean of the documents'.

    Returns
    -------
    DataFrame
        ``document`` (TOTAL for the pooled rows), ``pooled``, ``category`` (None: over all
        categories), ``alpha``, ``D_o``, ``D_e``, ``units`` (every annotator's), ``length``
        and ``annotators``.

    References
    ----------
    Krippendorff, K. (1995). On the reliability of unitizing continuous data. Sociological
    Methodology 25, 47-76. Krippendorff, K. (2004). Content Analysis, 2nd ed., section 12.4.

    Examples
    --------
    Krippendorff's (2004, p. 254) example, the continuum [150, 450) shifted to start at 0:

    >>> from clusteragree.core.spans import span_corpus
    >>> units = [(0, 75, 145, "c"), (0, 220, 250, "c"), (1, 70, 150, "c"), (1, 205, 225, "c"),
    ...          (1, 250, 270, "c"), (0, 30, 90, "k"), (0, 150, 200, "k"), (1, 30, 90, "k"),
    ...          (1, 150, 200, "k")]
    >>> c = span_corpus([(r, "p254", b, e, k) for r, b, e, k in units], lengths={"p254": 300})
    >>> unitizing_rows(c)[["category", "alpha"]].round(4).values.tolist()
    [['c', 0.7286], ['k', 1.0], [None, 0.8587]]
    """
    stats, labels = unitizing_statistics(corpus)
    counts = {d: int(sum(len(v) for v in s.units.values())) for d, s in stats.items()}
    docs = list(stats)
    total = sum((stats[d] for d in docs[1:]), stats[docs[0]])
    rows = _unitizing_rows(TOTAL, total, labels, sum(counts.values()))
    if per_document:
        for d in docs:
            rows += _unitizing_rows(d, stats[d], labels, counts[d])
    out = pd.DataFrame(rows)
    out["category"] = out["category"].astype(object).where(out["category"].notna(), None)
    undefined = int(out["alpha"].isna().sum())
    if undefined:
        warnings.warn(AlphaUndefinedWarning(
            f"unitizing alpha is undefined in {undefined} row(s): no unit of that category, or "
            "nothing to expect (a continuum that is one unit)"), stacklevel=2)
    return out


def _unitizing_rows(document: Hashable, stats: UnitizingStats, labels: list[Hashable],
                    units: int) -> list[dict[str, Any]]:
    rows = []
    for label in [*labels, None]:
        if label is None:
            pairs = [stats.disagreements(c) for c in labels]
            d_o, d_e = sum(p[0] for p in pairs), sum(p[1] for p in pairs)
        else:
            d_o, d_e = stats.disagreements(label)
        rows.append({"document": document, "pooled": document == TOTAL,
                     "coefficient": "alpha_u", "category": label,
                     "alpha": 1.0 - d_o / d_e if d_e > 0 else np.nan, "D_o": d_o, "D_e": d_e,
                     "units": units if label is None else len(stats.units.get(label, [])),
                     "length": stats.length, "annotators": len(stats.raters)})
    return rows


def _with_empty_slots(aligned: pd.DataFrame, annotators: Sequence[Hashable]) -> pd.DataFrame:
    """The alignment with a row for each annotator who has no unit in a unitary alignment
    (``span``, offsets and label None): which unit of each annotator went with which, or
    with none."""
    keys = aligned[["document", "unitary", "disorder", "size"]].drop_duplicates(
        ["document", "unitary"])
    every = keys.merge(pd.DataFrame({"annotator": list(annotators)}), how="cross")
    out = every.merge(aligned.drop(columns=["disorder", "size"]),
                      on=["document", "unitary", "annotator"], how="left")
    for col in ("span", "start", "end", "label"):
        out[col] = out[col].astype(object).where(out[col].notna(), None)
    order = {a: k for k, a in enumerate(annotators)}
    docs = {d: k for k, d in enumerate(dict.fromkeys(aligned["document"]))}
    out = out.assign(_d=out["document"].map(docs), _a=out["annotator"].map(order))
    out = out.sort_values(["_d", "unitary", "_a"], kind="stable").drop(columns=["_d", "_a"])
    return out[list(aligned.columns)].reset_index(drop=True)


def _gamma_intervals(rows: pd.DataFrame, found: pd.DataFrame) -> pd.DataFrame:
    """The gamma rows with the intervals of the pooled ones (:func:`~clusteragree.core.
    gamma_corpus.bootstrap_gamma`) in the columns the other span measures use."""
    keys = ["measure", "category"]
    found = found.assign(category=found["category"].astype(object)).rename(
        columns={"method": "ci_method"})
    keep = found[[*keys, "ci_low", "ci_high", "se", "ci_method"]]
    merged = rows.assign(category=rows["category"].astype(object)).merge(
        keep.assign(pooled=True), on=[*keys, "pooled"], how="left")
    merged["ci_note"] = None
    return merged
