"""Uncorrected agreement between syntactic annotators: LAS, UAS and label accuracy for
dependencies, bracket Jaccard for phrase structure.

Two aggregations over several annotators:

* :func:`accuracies`: one row per pair of annotators, pooled over the tokens (brackets) of the
  sentences both annotated;
* :func:`mean_pairwise_accuracy`: Skjaerholt (2014), equation (3): per sentence the mean over
  the pairs of its annotators, weighted by the length of the sentence (for dependencies the
  words of the first annotation; for phrase structure its leaves).

LAS, UAS and label accuracy need the same words: a dependency sentence whose annotations differ
in length is left out and counted (``skipped`` per pair, ``ignored`` per sentence);
:func:`mean_pairwise_accuracy` also reports them (:func:`clusteragree.errors.notify`, kind
``skipped``, with the file and line of the first one), and reports the accuracies undefined
(kind ``undefined``, NaN values) when every sentence was left out.

Examples
--------
>>> from clusteragree.trees.readers import Sentence
>>> a = Sentence(("", ()), words=("I", "saw"), heads=(2, 0), deprels=("Subj", "Pred"))
>>> b = Sentence(("", ()), words=("I", "saw"), heads=(2, 0), deprels=("Obj", "Pred"))
>>> mean_pairwise_accuracy({"A": {0: a}, "B": {0: b}})["las"]
0.5
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError, ParameterError, ParameterTypeError, notify
from .model import Sentence, TreeAnnotations, TreeFile, check_paired, leaves

__all__ = ["accuracies", "mean_pairwise_accuracy"]

Annotations = TreeAnnotations | Mapping[Any, TreeFile | Mapping[Any, Sentence]]


def _by_unit(annotations: Annotations) -> tuple[dict[Any, dict[Any, Sentence]], str]:
    """annotator -> {unit: Sentence}, and the kind (dependency or phrase), checked."""
    if isinstance(annotations, TreeAnnotations):
        return annotations.sentences, annotations.kind
    if not isinstance(annotations, Mapping):
        raise ParameterTypeError(
            "annotations must be TreeAnnotations (read_tree_annotations) or a mapping "
            f"annotator -> TreeFile or {{sentence: Sentence}}. Got {type(annotations).__name__}.")
    check_paired([v for v in annotations.values() if isinstance(v, TreeFile)])
    out: dict[Any, dict[Any, Sentence]] = {}
    kinds = set()
    for annotator, value in annotations.items():
        if isinstance(value, TreeFile):
            sentences = dict(enumerate(value.sentences))
        elif isinstance(value, Mapping):
            sentences = dict(value)
        else:
            raise ParameterTypeError(f"the annotations of {annotator!r} must be a TreeFile or a "
                                     f"mapping sentence -> Sentence. Got {type(value).__name__}.")
        for unit, s in sentences.items():
            if not isinstance(s, Sentence):
                raise ParameterTypeError(f"sentence {unit!r} of {annotator!r} must be a Sentence "
                                         f"(the readers give them). Got {type(s).__name__}.")
            if s.words:
                kinds.add("dependency")
            elif s.brackets:
                kinds.add("phrase")
            else:
                raise ParameterError(f"sentence {unit!r} of {annotator!r} has neither words "
                                     "(dependencies) nor brackets (phrase structure): the "
                                     "accuracies have nothing to compare")
        out[annotator] = sentences
    if len(kinds) > 1:
        raise ParameterError("dependency and phrase-structure sentences mixed: compare one kind "
                             "at a time")
    return out, kinds.pop() if kinds else "dependency"


def _dependency_counts(a: Sentence, b: Sentence) -> tuple[int, int, int]:
    """Tokens with the same head and relation, the same head, the same relation."""
    ha, hb = np.array(a.heads), np.array(b.heads)
    ra, rb = np.array(a.deprels), np.array(b.deprels)
    same_head, same_rel = ha == hb, ra == rb
    return int((same_head & same_rel).sum()), int(same_head.sum()), int(same_rel.sum())


def accuracies(annotations: Annotations) -> pd.DataFrame:
    """LAS, UAS and label accuracy (dependencies) or bracket Jaccard (phrase structure) for every
    pair of annotators, pooled over the tokens (brackets) of the sentences both annotated.

    ``annotations``: :class:`TreeAnnotations`, or annotator -> file (sentences aligned by
    position) or -> {unit: Sentence}.

    Parameters
    ----------
    annotations : TreeAnnotations or mapping
        :class:`~clusteragree.trees.TreeAnnotations`
        (:func:`~clusteragree.trees.read_tree_annotations`), or ``annotator ->``
        :class:`~clusteragree.trees.TreeFile` (files of the same sentences, aligned by
        position) or ``annotator -> {sentence: Sentence}``. All dependency sentences (with
        words) or all phrase-structure sentences (with brackets).

    Returns
    -------
    pandas.DataFrame
        One row per pair of annotators ``a``, ``b`` (in the order given). Dependencies:
        ``tokens`` (the words of the sentences compared), ``las`` (same head and relation),
        ``uas`` (same head), ``la`` (same relation), each a fraction of ``tokens`` (NaN when
        there is none), and ``skipped`` (sentences left out because the two annotations differ
        in length). Phrase structure: ``brackets`` (the size of the union of the two
        annotators' labelled brackets, summed over the sentences) and ``jaccard`` (the shared
        brackets over that union, pooled).

    Raises
    ------
    ParameterTypeError
        Annotations that are not TreeAnnotations or a mapping of TreeFiles or Sentences.
    ParameterError
        A sentence with neither words nor brackets, or the two kinds mixed.
    InputError
        Paired files holding different numbers of sentences.

    References
    ----------
    Skjaerholt, A. (2014). A chance-corrected measure of inter-annotator agreement for syntax.
    Proceedings of ACL 2014, pp. 934-944. LAS, "the percentage of tokens
    that receive the correct head and dependency relation", beside the alphas (Table 2).

    docs/trees.md, "Accuracies".

    Examples
    --------
    Three annotators of "I saw the man" (Skjaerholt 2014, Figure 1: heads 2, 0, 4, 2). B
    labels "man" Subj instead of Obj, C attaches "the" to "saw" (head 2). A and B: every head
    is the same, 3 of 4 relations, so LAS 3/4, UAS 1, LA 3/4; A and C: 3 heads, 4 relations,
    3 both; B and C: 3 heads, 3 relations, 2 both ("I" and "saw"):

    >>> from clusteragree.trees import Sentence
    >>> def dep(heads, rels):  # the accuracies read the heads and relations only
    ...     return Sentence(("", ()), ("I", "saw", "the", "man"), heads, rels)
    >>> ann = {"A": {0: dep((2, 0, 4, 2), ("Subj", "Pred", "Det", "Obj"))},
    ...        "B": {0: dep((2, 0, 4, 2), ("Subj", "Pred", "Det", "Subj"))},
    ...        "C": {0: dep((2, 0, 2, 2), ("Subj", "Pred", "Det", "Obj"))}}
    >>> accuracies(ann)[["a", "b", "tokens", "las", "uas", "la"]].values.tolist()
    [['A', 'B', 4, 0.75, 1.0, 0.75], ['A', 'C', 4, 0.75, 0.75, 1.0], ['B', 'C', 4, 0.5, 0.75, 0.75]]

    Phrase structure: ``(S (NP D N) (VP V))`` has the brackets D 0-1, N 1-2, V 2-3, NP 0-2,
    VP 2-3 and S 0-3; ``(S (NP D) (VP N V))`` D 0-1, N 1-2, V 2-3, NP 0-1, VP 1-3 and S 0-3.
    4 are shared, 8 in the union, so Jaccard 4/8:

    >>> from clusteragree.trees import parse_brackets
    >>> def ps(text):
    ...     tree, brackets = parse_brackets(text)
    ...     return Sentence(tree, brackets=brackets)
    >>> acc = accuracies({"A": {0: ps("(S (NP D N) (VP V))")}, "B": {0: ps("(S (NP D) (VP N V))")}})
    >>> acc.values.tolist()
    [['A', 'B', 8, 0.5]]
    """
    by_unit, kind = _by_unit(annotations)
    rows = []
    for a, b in combinations(by_unit, 2):
        sa_all, sb_all = by_unit[a], by_unit[b]
        common = [u for u in sa_all if u in sb_all]
        if kind == "dependency":
            tokens = las = uas = la = skipped = 0
            for u in common:
                sa, sb = sa_all[u], sb_all[u]
                if len(sa.heads) != len(sb.heads):
                    skipped += 1
                    continue
                counts = _dependency_counts(sa, sb)
                tokens += len(sa.heads)
                las, uas, la = las + counts[0], uas + counts[1], la + counts[2]
            rows.append({"a": a, "b": b, "tokens": tokens,
                         "las": las / tokens if tokens else np.nan,
                         "uas": uas / tokens if tokens else np.nan,
                         "la": la / tokens if tokens else np.nan, "skipped": skipped})
        else:
            inter = union = 0
            for u in common:
                inter += len(sa_all[u].brackets & sb_all[u].brackets)
                union += len(sa_all[u].brackets | sb_all[u].brackets)
            rows.append({"a": a, "b": b, "brackets": union,
                         "jaccard": inter / union if union else np.nan})
    return pd.DataFrame(rows)


def mean_pairwise_accuracy(annotations: Annotations, *, weighted: bool = True
                           ) -> dict[str, float]:
    """Skjaerholt's (2014) equation (3): per sentence the mean accuracy over the pairs of its
    annotators, weighted by the sentence's length, over the sentences with two or more
    annotations.

    Returns ``las``, ``uas``, ``la`` (dependencies) or ``jaccard`` (phrase structure), with
    ``sentences`` (used), ``ignored`` (dependency sentences whose annotations differ in length)
    and ``weight`` (the summed lengths). The length is that of the first annotation in annotator
    order: words for dependencies (all annotations agree, or the sentence is ignored), leaves
    for phrase structure (annotations may differ: annotator order then matters).
    ``weighted=False`` gives every sentence the same weight. Sentences left out are reported
    (kind ``skipped``, with the first one's file and line); no sentence annotated twice is an
    :class:`~clusteragree.errors.InputError` (nothing to compare).

    Parameters
    ----------
    annotations : TreeAnnotations or mapping
        As for :func:`accuracies`: :class:`~clusteragree.trees.TreeAnnotations`, or
        ``annotator ->`` :class:`~clusteragree.trees.TreeFile` or
        ``annotator -> {sentence: Sentence}``.
    weighted : bool, default=True
        Weight each sentence by its length (equation (3)); False: every sentence counts once.

    Returns
    -------
    dict
        ``las``, ``uas``, ``la`` (dependencies) or ``jaccard`` (phrase structure), each a
        float (NaN when every sentence was left out); ``sentences`` (int, the sentences used),
        ``ignored`` (int) and ``weight`` (float, the summed weights).

    Raises
    ------
    ParameterTypeError, ParameterError
        As for :func:`accuracies`.
    InputError
        No sentence annotated by two annotators, or paired files of different lengths.

    References
    ----------
    Skjaerholt, A. (2014). A chance-corrected measure of inter-annotator agreement for syntax.
    Proceedings of ACL 2014, pp. 934-944. Equation (3) and Table 2 (LAS
    beside the alphas; bracket Jaccard for SSD).

    docs/trees.md, "Accuracies"; docs/reproduction/skjaerholt2014.md.

    Examples
    --------
    Sentence 0, "I saw the man", annotated by A, B and C as in :func:`accuracies`: the pairs'
    LAS are 3/4, 3/4 and 1/2, mean 2/3. Sentence 1, "I saw", annotated by A and B, who differ
    on the relation of "I": LAS 1/2. Weighted by 4 and 2 words, LAS = (4 * 2/3 + 2 * 1/2) / 6
    = 11/18; unweighted, (2/3 + 1/2) / 2 = 7/12:

    >>> from clusteragree.trees import Sentence
    >>> def dep(words, heads, rels):  # the accuracies read the heads and relations only
    ...     return Sentence(("", ()), tuple(words.split()), heads, rels)
    >>> ann = {"A": {0: dep("I saw the man", (2, 0, 4, 2), ("Subj", "Pred", "Det", "Obj")),
    ...              1: dep("I saw", (2, 0), ("Subj", "Pred"))},
    ...        "B": {0: dep("I saw the man", (2, 0, 4, 2), ("Subj", "Pred", "Det", "Subj")),
    ...              1: dep("I saw", (2, 0), ("Obj", "Pred"))},
    ...        "C": {0: dep("I saw the man", (2, 0, 2, 2), ("Subj", "Pred", "Det", "Obj"))}}
    >>> r = mean_pairwise_accuracy(ann)
    >>> round(r["las"], 4), round(11 / 18, 4), r["sentences"], r["weight"]
    (0.6111, 0.6111, 2, 6.0)
    >>> round(mean_pairwise_accuracy(ann, weighted=False)["las"], 4), round(7 / 12, 4)
    (0.5833, 0.5833)
    """
    by_unit, kind = _by_unit(annotations)
    units: dict[Any, None] = {}
    for sentences in by_unit.values():
        units.update(dict.fromkeys(sentences))
    names = ["las", "uas", "la"] if kind == "dependency" else ["jaccard"]
    total = dict.fromkeys(names, 0.0)
    weight = 0.0
    used = ignored = pairable = 0
    first_ignored: Sentence | None = None
    for u in units:
        present = [s[u] for s in by_unit.values() if u in s]
        if len(present) < 2:
            continue
        pairable += 1
        pairs = list(combinations(present, 2))
        if kind == "dependency":
            if len({len(s.heads) for s in present}) > 1:
                ignored += 1
                first_ignored = first_ignored or present[0]
                continue
            n = len(present[0].heads)
            fractions = np.mean([_dependency_counts(a, b) for a, b in pairs], axis=0) / n
        else:
            n = leaves(present[0].tree)
            fractions = np.array([np.mean([len(a.brackets & b.brackets)
                                           / len(a.brackets | b.brackets) for a, b in pairs])])
        w = n if weighted else 1
        for name, value in zip(names, fractions, strict=True):
            total[name] += w * float(value)
        weight += w
        used += 1
    if not pairable:
        raise InputError("nothing to compare: no sentence was annotated by two annotators; give "
                         "the annotations of the same sentences")
    if ignored and first_ignored is not None:
        notify("skipped", "sentences left out of the accuracies (their annotations have "
               "different numbers of words)", path=first_ignored.path, line=first_ignored.line,
               count=ignored)
    if not used:
        notify("undefined", "the accuracies are undefined: every sentence annotated twice has "
               "annotations of different numbers of words")
    out = {name: (value / weight if weight else float("nan")) for name, value in total.items()}
    out.update(sentences=used, ignored=ignored, weight=weight)
    return out
