"""Bootstrap intervals of the coreference metrics: a resample of documents must score exactly
as the corpus in which each document is repeated as often as drawn, scored from scratch."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
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
