"""Span F1 against bratiaa (kldtz/bratiaa on PyPI), an inter-annotator agreement tool for BRAT
projects, on random projects written to a temporary folder.

What bratiaa computes (its README, section "Agreement Measure", and bratiaa/agree.py):

* a project is a folder with ``annotation.conf`` (its ``[entities]`` are the labels) and one
  folder per annotator holding ``NAME.ann`` and ``NAME.txt``; the documents compared are those
  with an ``.ann`` in every annotator's folder; only text-bound annotations (``T`` lines)
  count;
* instance-based agreement: an annotation is ``(label, offsets)``; each annotator's
  annotations of a document form a *set* (two identical ones count once); with ``tp`` the size
  of the intersection of two annotators' sets and ``total`` the sum of their sizes, F1 is
  ``2 tp / total``: exact offsets and label, our ``exact`` rule;
* counts are kept per pair of annotators, document and label, summed over documents (per label),
  over labels (per document) or both (total), then F1 is taken per pair and averaged over
  every pair with the population standard deviation (``np.mean``, ``np.std``): pooled counts
  per pair, like ``span_f1``, not a mean of document F1s. Where a pair has no annotation in a
  scope its F1 is 0/0, NaN, and so is the mean over pairs; ``span_f1`` averages the pairs
  where F1 is defined (``pairs`` says how many);
* a token-level mode (``token_func``): every annotation is cut into the tokens it overlaps, a
  *multiset* of ``(label, token)``, and F1 is ``2 |A & B| / (|A| + |B|)``: the same exact F1
  over spans cut into one-token spans, which ``span_f1`` computes when given those spans. It
  is an F1, not a kappa.

So on projects without repeated annotations bratiaa's total, per-document and per-label mean
and sd are ``span_f1``'s pooled micro, per-document micro and pooled per-label rows of the
``exact`` rule. Repeated spans are where the two differ: ``span_f1`` counts a span marked
twice twice (spans are a multiset), bratiaa once (``test_repeated_spans_differ``).

bratiaa sets numpy's error state for the whole process when imported (``np.seterr(divide=
"ignore", invalid="ignore")``), so it is imported inside ``np.errstate()``, which restores it.
"""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from clusteragree.core import span_f1
from clusteragree.errors import AlphaUndefinedWarning

with np.errstate():
    bratiaa = pytest.importorskip("bratiaa")

LABELS = ["LOC", "ORG", "PER"]
ANNOTATORS = ["ann1", "ann2", "ann3"]


def random_project(root: Path, seed: int, annotators: int = 3, documents: int = 4,
                   length: int = 60) -> list[tuple[str, str, int, int, str]]:
    """Write a BRAT project of random annotations (overlapping and nested ones included, no
    repeated one) under ``root``; its spans as (annotator, document, start, end, label), the
    document named as bratiaa names it (its path in an annotator's folder)."""
    rng = random.Random(seed)
    (root / "annotation.conf").write_text("[entities]\n" + "\n".join(LABELS) + "\n\n"
                                          "[relations]\n\n[events]\n\n[attributes]\n")
    text = {f"doc{k}.ann": "".join(rng.choice("abcdefgh ") for _ in range(length))
            for k in range(documents)}
    reference = {doc: [(s, s + rng.randint(1, 6), rng.choice(LABELS))
                       for s in rng.sample(range(length - 6), 8)] for doc in text}
    spans = []
    for who in ANNOTATORS[:annotators]:
        folder = root / who
        folder.mkdir()
        for doc, body in text.items():
            mine = set()
            for s, e, lab in reference[doc]:
                roll = rng.random()
                if roll < 0.15:
                    continue  # missed
                if roll < 0.3:
                    e = max(s + 1, e + rng.choice([-1, 1]))  # a boundary moved
                elif roll < 0.4:
                    lab = rng.choice(LABELS)
                mine.add((s, e, lab))
            for _ in range(rng.randint(0, 2)):  # extra spans
                s = rng.randrange(length - 6)
                mine.add((s, s + rng.randint(1, 6), rng.choice(LABELS)))
            lines = [f"T{k + 1}\t{lab} {s} {e}\t{body[s:e]}"
                     for k, (s, e, lab) in enumerate(sorted(mine))]
            (folder / doc).write_text("\n".join(lines) + ("\n" if lines else ""))
            (folder / doc.replace(".ann", ".txt")).write_text(body)
            spans += [(who, doc, s, e, lab) for s, e, lab in sorted(mine)]
    return spans


def project_spans(root: Path, written: list[tuple]) -> list[tuple]:
    """The spans of the project at ``root``, read by clusteragree's BRAT reader (so that the
    reader is checked too), named as bratiaa names documents (the ``.ann`` file's name); they
    are the spans written."""
    from clusteragree.spans import read_spans

    folders = sorted(p for p in root.iterdir() if p.is_dir())
    corpus = read_spans(folders, "brat", names=[p.name for p in folders])
    read = [(a, f"{d}.ann", int(s), int(e), lab) for a, d, s, e, lab in
            corpus.spans[["annotator", "document", "start", "end", "label"]].values]
    assert sorted(read) == sorted(written)
    return read


def bratiaa_agreement(root: Path, token_func=None):
    with np.errstate(divide="ignore", invalid="ignore"):
        return bratiaa.compute_f1_agreement(str(root), token_func=token_func)


def ours(spans: list[tuple], documents: list[str], annotators: int = 3) -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AlphaUndefinedWarning)
        return span_f1(spans, "exact", annotators=ANNOTATORS[:annotators],
                       documents=documents)


def compare(theirs_mean, theirs_sd, rows: pd.DataFrame, n_pairs: int) -> None:
    """bratiaa's mean and sd over every pair against span_f1's over the pairs where F1 is
    defined: equal where every pair has a span there, else bratiaa gives NaN."""
    for mean, sd, row in zip(np.atleast_1d(theirs_mean), np.atleast_1d(theirs_sd),
                             rows.itertuples(), strict=True):
        if row.pairs == n_pairs:
            assert (mean, sd) == pytest.approx((row.f1, row.sd), abs=1e-12)
        else:
            assert np.isnan(mean)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("annotators", [2, 3])
def test_instance_f1_matches_bratiaa(tmp_path: Path, seed: int, annotators: int) -> None:
    written = random_project(tmp_path, seed, annotators)
    agreement = bratiaa_agreement(tmp_path)
    assert agreement.annotators == ANNOTATORS[:annotators]
    docs = agreement.documents  # every document is in every annotator's folder
    out = ours(project_spans(tmp_path, written), docs, annotators)
    n_pairs = annotators * (annotators - 1) // 2
    micro = out[out.average == "micro"]
    compare(*agreement.mean_sd_total(), micro[micro.pooled], n_pairs)
    compare(*agreement.mean_sd_per_document(),
            micro[~micro.pooled].set_index("document").loc[docs].reset_index(), n_pairs)
    labels = out[out.pooled & (out.average == "")].set_index("label")
    mean, sd = agreement.mean_sd_per_label()
    for k, label in enumerate(agreement.labels):
        if label in labels.index:
            compare(mean[k], sd[k], labels.loc[[label]], n_pairs)
        else:  # no annotator used it: bratiaa's F1 is 0/0
            assert np.isnan(mean[k])


def test_token_mode_is_exact_f1_over_one_position_spans(tmp_path: Path) -> None:
    """bratiaa's token level, with every character a token: span_f1's exact rule on the spans
    cut into one-position spans (each span once: bratiaa drops repeated ones first)."""
    written = random_project(tmp_path, 11)
    agreement = bratiaa_agreement(
        tmp_path, token_func=lambda text: ((i, i + 1) for i in range(len(text))))
    cut = [(who, doc, p, p + 1, lab) for who, doc, s, e, lab in set(written)
           for p in range(s, e)]
    out = ours(cut, agreement.documents)
    micro = out[out.average == "micro"]
    compare(*agreement.mean_sd_total(), micro[micro.pooled], 3)


def test_repeated_spans_differ(tmp_path: Path) -> None:
    """A marks PER 0-2 twice, B once: bratiaa reads sets (F1 2 x 1 / (1 + 1) = 1), span_f1 a
    multiset (2 x 1 / (2 + 1) = 2/3)."""
    (tmp_path / "annotation.conf").write_text("[entities]\nPER\n")
    for who, lines in (("A", "T1\tPER 0 2\tab\nT2\tPER 0 2\tab\n"), ("B", "T1\tPER 0 2\tab\n")):
        (tmp_path / who).mkdir()
        (tmp_path / who / "d.ann").write_text(lines)
        (tmp_path / who / "d.txt").write_text("abc")
    assert bratiaa_agreement(tmp_path).mean_sd_total()[0] == 1.0
    spans = [("A", "d.ann", 0, 2, "PER"), ("A", "d.ann", 0, 2, "PER"),
             ("B", "d.ann", 0, 2, "PER")]
    out = span_f1(spans, "exact")
    assert out[out.pooled & (out.average == "micro")].f1.iloc[0] == pytest.approx(2 / 3)


def test_bratiaa_leaves_numpy_error_state_alone() -> None:
    assert np.geterr()["divide"] == "warn"

