"""Bootstrap intervals of the pooled span measures, resampling whole documents.

Every pooled span measure is a function of statistics that add over documents: matching F1 of
its matched pairs and span counts, the token measures of their tag counts (positions, agreeing
pairs of tags, each annotator's tags), Krippendorff's unitizing alphas of their section
statistics. A resample of documents (drawn with replacement, as many as there are) is a
reweighting of the per-document statistics, and its value is computed from the reweighted sums
exactly as the pooled value is from the plain sums. The same draws serve every measure, and
BCa's acceleration comes from the jackknife over documents (each left out in turn).

Intervals are given for: the micro F1 of each pair and rule and its mean over the pairs, every
token measure, and every unitizing coefficient (each category and over all). Macro F1 has none.

References
----------
Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.

docs/spans.md, "Intervals".
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Hashable, Iterator
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..core.frames import TOTAL
from ..core.intervals import FEW_BLOCKS, bootstrap_interval, check_resamples, outside_note
from ..core.span_tokens import MEASURES, token_counts, token_figures
from ..core.unitizing import UnitizingStats
from ..core.unitizing_family import UnitizingFamilyStats, unitizing_family_stats
from ..errors import notify
from .measures import NAMES, flat_spans, unitizing_statistics

__all__ = ["document_weights", "span_intervals"]

FloatArray = npt.NDArray[np.float64]


def document_weights(documents: int, n: int, seed: int | None
                     ) -> tuple[FloatArray, FloatArray]:
    """``n`` resamples of ``documents`` documents as multiplicities (``n x documents``), and
    the jackknife's (each document left out in turn).

    Examples
    --------
    >>> w, jack = document_weights(3, 4, seed=1)
    >>> w.sum(axis=1).tolist(), jack.tolist()
    ([3.0, 3.0, 3.0, 3.0], [[0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0]])
    """
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, documents, size=(n, documents))
    weights = np.zeros((n, documents))
    np.add.at(weights, (np.repeat(np.arange(n), documents), draws.ravel()), 1.0)
    return weights, 1.0 - np.eye(documents)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Resamples where a value is undefined say nothing: the interval leaves their NaN out and
    counts them."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _ratio(num: FloatArray, den: FloatArray) -> FloatArray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


# --- the intervals ---------------------------------------------------------------------------

class _Intervals:
    """Intervals of pooled values from resampled ones, written into result frames."""

    def __init__(self, weights: FloatArray, jackknife: FloatArray, level: float, method: str,
                 documents: int) -> None:
        self.weights, self.jackknife = weights, jackknife
        self.level, self.method, self.documents = level, method, documents

    def add(self, frame: pd.DataFrame, row: Any, estimate: float, draws: FloatArray,
            left_out: FloatArray, what: str) -> None:
        found = bootstrap_interval(draws, self.level, self.method, estimate=estimate,
                                   jackknife=left_out if self.method == "bca" else None)
        kept = draws[~np.isnan(draws)]
        note = outside_note(estimate, found, kept, blocks=self.documents, what="documents")
        if note:
            notify("note", f"{what}: {note} (docs/uncertainty.md)")
        frame.loc[row, ["ci_low", "ci_high", "se"]] = [
            found.low, found.high, float(np.std(kept, ddof=1)) if len(kept) > 1 else np.nan]
        frame.loc[row, "ci_method"] = found.method
        frame.loc[row, "ci_note"] = note

    def both(self, per_doc: Callable[[FloatArray], Any]) -> tuple[Any, Any]:
        """A statistic on every resample and on every jackknife sample."""
        return per_doc(self.weights), per_doc(self.jackknife)


def _columns(frame: pd.DataFrame | None) -> None:
    if frame is not None:
        for col in ("ci_low", "ci_high", "se"):
            frame[col] = np.nan
        frame["ci_method"] = None
        frame["ci_note"] = None


def span_intervals(results: Any, pairs: pd.DataFrame | None, *, n: int, level: float,
                   seed: int | None, interval: str) -> None:
    """Add ``ci_low``, ``ci_high``, ``se``, ``ci_method`` and ``ci_note`` to the pooled rows of
    ``results``' frames (see the module's docstring); ``pairs`` are the per-document F1 rows
    of every pair. The run's settings go to ``results.settings["bootstrap"]``."""
    corpus = results.corpus
    docs = list(corpus.documents)
    check_resamples(int(n), 1)
    results.settings["bootstrap"] = {"n": int(n), "resample": "documents", "seed": seed,
                                     "level": float(level), "method": interval,
                                     "resampled": len(docs)}
    for frame in (results.f1, results.f1_pairs, results.tokens, results.unitizing):
        _columns(frame)
    if len(docs) < 2:
        notify("note", f"the intervals of the span measures resample documents, and there "
               f"{'is one' if docs else 'is none'}: they have no interval")
        return
    if len(docs) < FEW_BLOCKS:
        notify("note", f"the intervals of the span measures resample {len(docs)} documents: "
               "with so few, they are rough (docs/uncertainty.md)")
    weights, jackknife = document_weights(len(docs), int(n), seed)
    ci = _Intervals(weights, jackknife, level, interval, len(docs))
    if results.f1 is not None and pairs is not None:
        _f1(results, pairs, docs, ci)
    if results.tokens is not None:
        _tokens(results, docs, ci)
    if results.unitizing is not None:
        _unitizing(results, docs, ci)


def _f1(results: Any, pairs: pd.DataFrame, docs: list[Hashable], ci: _Intervals) -> None:
    micro = pairs[(pairs["average"] == "micro") & ~pairs["pooled"]]
    resampled: dict[str, list[FloatArray]] = {}
    jack: dict[str, list[FloatArray]] = {}
    for (rule, ref, other), rows in micro.groupby(["rule", "reference", "other"], sort=False):
        by_doc = rows.set_index("document").reindex(docs)
        tp = by_doc["tp"].fillna(0).to_numpy(float)
        size = (by_doc["n_reference"] + by_doc["n_other"]).fillna(0).to_numpy(float)
        def f1(w: FloatArray, tp: FloatArray = tp, size: FloatArray = size) -> FloatArray:
            return _ratio(2 * (w @ tp), w @ size)

        draws, left = ci.both(f1)
        at = results.f1_pairs.index[(results.f1_pairs["document"] == TOTAL)
                                    & (results.f1_pairs["rule"] == rule)
                                    & (results.f1_pairs["reference"] == ref)
                                    & (results.f1_pairs["other"] == other)
                                    & (results.f1_pairs["average"] == "micro")]
        for row in at:
            ci.add(results.f1_pairs, row, float(results.f1_pairs.loc[row, "f1"]), draws, left,
                   f"matching F1 ({rule}) of {ref} and {other}")
        resampled.setdefault(rule, []).append(draws)
        jack.setdefault(rule, []).append(left)
    for rule in resampled:
        with np.errstate(all="ignore"), _quiet():
            draws = np.nanmean(np.vstack(resampled[rule]), axis=0)
            left = np.nanmean(np.vstack(jack[rule]), axis=0)
        at = results.f1.index[(results.f1["document"] == TOTAL) & (results.f1["rule"] == rule)
                              & (results.f1["average"] == "micro")]
        for row in at:
            ci.add(results.f1, row, float(results.f1.loc[row, "f1"]), draws, left,
                   f"matching F1 ({rule}), mean over the pairs")


def _tokens(results: Any, docs: list[Hashable], ci: _Intervals) -> None:
    corpus = results.corpus
    frame = flat_spans(corpus, NAMES["tokens"])
    _, counts = token_counts(frame, corpus.lengths or {}, scheme=results.settings["scheme"],
                             annotators=list(corpus.annotators))
    for subset, (positions, agree, tags) in zip(("all", "annotated"), counts, strict=True):

        def values(w: FloatArray, n: Any = positions, s: Any = agree, t: Any = tags
                   ) -> FloatArray:
            found, _ = token_figures(w @ n, w @ s, np.einsum("bd,adk->abk", w, t))
            return found

        draws, left = ci.both(values)
        for k, measure in enumerate(MEASURES):
            at = results.tokens.index[(results.tokens["document"] == TOTAL)
                                      & (results.tokens["subset"] == subset)
                                      & (results.tokens["measure"] == measure)]
            for row in at:
                ci.add(results.tokens, row, float(results.tokens.loc[row, "value"]),
                       draws[:, k], left[:, k], f"{measure.replace('_', ' ')} over {subset} "
                       "positions")


def _unitizing(results: Any, docs: list[Hashable], ci: _Intervals) -> None:
    corpus = results.corpus
    frame = results.unitizing
    pooled = frame["document"] == TOTAL
    if (frame["coefficient"] == "alpha_u").any():
        stats, labels = unitizing_statistics(corpus)
        series = [stats[d] for d in docs]

        def alpha_u(w: FloatArray) -> dict[Hashable, FloatArray]:
            out: dict[Hashable, list[float]] = {c: [] for c in [*labels, None]}
            for row in w:
                total = _weighted(series, row)
                for c in labels:
                    out[c].append(total.alpha(c))
                out[None].append(total.alpha())
            return {c: np.array(v) for c, v in out.items()}

        draws, left = ci.both(alpha_u)
        for row in frame.index[pooled & (frame["coefficient"] == "alpha_u")]:
            c = frame.loc[row, "category"]
            key = None if c is None or (isinstance(c, float) and np.isnan(c)) else c
            ci.add(frame, row, float(frame.loc[row, "alpha"]), draws[key], left[key],
                   f"unitizing alpha (1995/2004), {'all categories' if key is None else key}")
    family_rows = frame.index[pooled & (frame["coefficient"] != "alpha_u")]
    if len(family_rows):
        flat = flat_spans(corpus, NAMES["ualpha2016"])
        found = unitizing_family_stats(flat, corpus.lengths or {},
                                       annotators=list(corpus.annotators))
        cats = tuple(dict.fromkeys(c for s in found.values() for c in s.categories))
        empty = next(iter(found.values())).aligned(cats) if found else None
        parts = [found[d].aligned(cats) if d in found else _zero(empty) for d in docs]

        def family(w: FloatArray) -> dict[tuple[str, Any], FloatArray]:
            out: dict[tuple[str, Any], list[float]] = {}
            for row in w:
                table = _linear(parts, row).coefficients()
                for r in table.to_dict("records"):
                    out.setdefault((str(r["coefficient"]), r["category"]), []).append(
                        float(r["alpha"]))
            return {k: np.array(v, dtype=float) for k, v in out.items()}

        with _quiet():
            draws, left = ci.both(family)
        for row in family_rows:
            key = (frame.loc[row, "coefficient"], frame.loc[row, "category"])
            key = (key[0], None if key[1] is None or (isinstance(key[1], float)
                                                      and np.isnan(key[1])) else key[1])
            if key in draws:
                ci.add(frame, row, float(frame.loc[row, "alpha"]), draws[key], left[key],
                       f"{key[0]}{'' if key[1] is None else ' ' + str(key[1])}")


def _weighted(series: list[UnitizingStats], weights: FloatArray) -> UnitizingStats:
    """The 1995/2004 statistics of a resample: each document's ``weights`` times."""
    picked = [s for s, k in zip(series, weights, strict=True) for _ in range(int(k))]
    return sum(picked[1:], picked[0]) if picked else series[0]


def _linear(series: list[UnitizingFamilyStats], weights: FloatArray) -> UnitizingFamilyStats:
    """The 2016 statistics of a resample: every sum weighted (they add linearly)."""
    first = series[0]
    sums = {}
    for name in ("overlap", "units", "unit_lengths", "unit_squares", "paired_units",
                 "pair_squares", "pairwise_squares", "union_squares"):
        sums[name] = sum(k * getattr(s, name) for s, k in zip(series, weights, strict=True))
    length = int(sum(k * s.length for s, k in zip(series, weights, strict=True)))
    return UnitizingFamilyStats(first.annotators, first.categories, length, **sums)


def _zero(like: UnitizingFamilyStats | None) -> UnitizingFamilyStats:
    assert like is not None
    arrays = {name: np.zeros_like(getattr(like, name)) for name in (
        "overlap", "units", "unit_lengths", "unit_squares", "paired_units", "pair_squares",
        "pairwise_squares", "union_squares")}
    return UnitizingFamilyStats(like.annotators, like.categories, 0, **arrays)
