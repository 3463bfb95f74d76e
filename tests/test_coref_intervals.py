"""Bootstrap intervals of the coreference metrics: a resample of documents must score exactly
as the corpus in which each document is repeated as often as drawn, scored from scratch."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from clusteragree.coref import coref_metrics
from clusteragree.coref.conll import read_conll
from clusteragree.coref.intervals import metric_intervals, reweighted
from clusteragree.coref.model import METRICS

FIX = Path(__file__).resolve().parent.parent / "corpora_fixtures" / "coref"


def _repeated(corpus, names, weights):
    docs = {f"{name}#{copy}": corpus.documents[name] for name, w in zip(names, weights,
                                                                         strict=True)
            for copy in range(int(w))}
    return replace(corpus, documents=docs)


def test_a_resample_scores_as_the_repeated_corpus() -> None:
    a, b = read_conll(str(FIX / "annotator-a.conll")), read_conll(str(FIX / "annotator-b.conll"))
    per_doc = coref_metrics([a, b], [*METRICS, "conll"], coders=["a", "b"],
                            per_document=True)
    names = list(dict.fromkeys(per_doc["document"].dropna()))
    rng = np.random.default_rng(2)
    weights = rng.integers(0, 4, (12, len(names)))
    weights[weights.sum(axis=1) == 0, 0] = 1
    found = reweighted(per_doc, weights)
    for row, w in enumerate(weights):
        pooled = coref_metrics([_repeated(a, names, w), _repeated(b, names, w)],
                               [*METRICS, "conll"], coders=["a", "b"])
        for record in pooled.itertuples():
            _, values = found[record.key, record.response, record.metric]
            assert values[row] == pytest.approx(record.f1, abs=1e-12), (record.metric, w)
    corpus = coref_metrics([a, b], [*METRICS, "conll"], coders=["a", "b"])
    for record in corpus.itertuples():
        assert found[record.key, record.response, record.metric][0] == \
            pytest.approx(record.f1, abs=1e-12)


def test_intervals_are_reproducible_and_hold_the_corpus_score() -> None:
    a, b = read_conll(str(FIX / "annotator-a.conll")), read_conll(str(FIX / "annotator-b.conll"))
    per_doc = coref_metrics([a, b], [*METRICS, "conll"], coders=["a", "b"],
                            per_document=True)
    first = metric_intervals(per_doc, n=200, seed=9)
    again = metric_intervals(per_doc, n=200, seed=9)
    assert first.equals(again)
    assert set(first["metric"]) == {"muc", "bcub", "ceafm", "ceafe", "blanc", "lea",
                                    "mentions", "conll"}
    assert ((first["ci_low"] <= first["ci_high"]) & (first["se"] >= 0)).all()
    with pytest.raises(ValueError, match="per-document counts"):
        metric_intervals(coref_metrics([a, b]))


def _synthetic(documents: int, seed: int) -> pd.DataFrame:
    """Per-document MUC and B-cubed counts of one pair of annotators, made up at random."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(documents):
        for metric in ("muc", "bcub"):
            den_r, den_p = rng.integers(3, 30, 2).astype(float)
            rows.append({"key": "a", "response": "b", "document": f"d{d}", "metric": metric,
                         "recall_num": float(rng.integers(0, den_r + 1)), "recall_den": den_r,
                         "precision_num": float(rng.integers(0, den_p + 1)),
                         "precision_den": den_p})
    return pd.DataFrame(rows)


def test_bca_of_the_metrics_is_scipys_on_the_same_resamples() -> None:
    """scipy.stats.bootstrap(method='BCa'), given the F1 of the same resamples of documents
    and F1 as a statistic of the drawn documents (it takes the jackknife itself, leaving out
    each document), finds the same interval. The resamples are drawn here as
    metric_intervals draws them: one generator seeded with the seed, documents drawn with
    replacement, one resample after the other."""
    from scipy import stats as scipy_stats

    per_doc = _synthetic(15, 4)
    found = metric_intervals(per_doc, n=1500, level=0.9, seed=8)
    assert set(found["ci_method"]) == {"bca"}
    rng = np.random.default_rng(8)
    weights = np.stack([np.bincount(rng.integers(0, 15, 15), minlength=15)
                        for _ in range(1500)]).astype(float)
    for metric in ("muc", "bcub"):
        drawn = reweighted(per_doc, weights)["a", "b", metric][1]

        def f1(idx: np.ndarray, axis: int = -1, metric: str = metric) -> np.ndarray:
            idx = np.moveaxis(np.asarray(idx), axis, -1)
            flat = idx.reshape(-1, idx.shape[-1]).astype(int)
            w = np.stack([np.bincount(r, minlength=15) for r in flat]).astype(float)
            return reweighted(per_doc, w)["a", "b", metric][1].reshape(idx.shape[:-1])

        theirs = scipy_stats.bootstrap(
            (np.arange(15),), f1, n_resamples=0, method="BCa", confidence_level=0.9,
            bootstrap_result=scipy_stats._resampling.BootstrapResult(
                confidence_interval=None, bootstrap_distribution=drawn, standard_error=None))
        row = found[found["metric"] == metric].iloc[0]
        assert row["ci_low"] == pytest.approx(theirs.confidence_interval.low, abs=1e-12)
        assert row["ci_high"] == pytest.approx(theirs.confidence_interval.high, abs=1e-12)
    percentile = metric_intervals(per_doc, n=1500, level=0.9, seed=8, interval="percentile")
    muc = reweighted(per_doc, weights)["a", "b", "muc"][1]
    assert percentile.loc[percentile["metric"] == "muc", "ci_low"].iloc[0] == \
        pytest.approx(np.quantile(muc, 0.05), abs=1e-12)


def test_one_document_gives_no_interval_and_says_why() -> None:
    from clusteragree.errors import InputWarning

    per_doc = _synthetic(1, 2)
    with pytest.warns(InputWarning, match="resample documents, and there is one: they have no "
                      "interval"):
        found = metric_intervals(per_doc, n=100, seed=1)
    assert found["ci_low"].isna().all() and set(found["metric"]) == {"muc", "bcub"}
    assert found["f1"].notna().all()
    with pytest.raises(ValueError, match="interval"):
        metric_intervals(_synthetic(3, 1), interval="normal")
