"""Agreement on spans by matching: pairwise precision, recall and F1 between annotators.

A span is a positioned unit of one annotator: ``(annotator, document, start, end, label)``,
``end`` exclusive, offsets in whatever unit the caller uses (characters or tokens). For every
pair of annotators, one taken as the reference, the spans of the two are matched one to one
under a named rule (:data:`SPAN_RULES`):

* ``exact``: same start, same end, same label;
* ``exact-span``: same start and end, label ignored (unlabelled);
* ``overlap``: the spans share at least one position and have the same label;
* ``overlap-span``: the spans share at least one position, label ignored.

Under the overlap rules a span may overlap several of the other annotator's; the matching is a
*maximum* matching: the most pairs of overlapping spans, each span in one pair at most. Spans
are first cut into chains of overlapping spans; a chain with one span of an annotator matches
one pair, and the others are matched greedily in order of end, which is exact for intervals
(:mod:`clusteragree.core.interval_matching` gives the argument). Under the exact rules a span
matches a span with the same key; a key marked twice by one annotator counts twice (spans are
a multiset).

With ``tp`` matched pairs, ``n_r`` spans of the reference and ``n_o`` of the other,
precision is ``tp / n_o``, recall ``tp / n_r`` and ``F1 = 2 tp / (n_r + n_o)``, symmetric
(the other direction swaps precision and recall). F1 is positive specific agreement
``2a / (2a + b + c)`` with ``a = tp`` spans marked by both and ``b``, ``c`` the spans marked
by one only: Hripcsak & Rothschild (2005) show that the average pairwise F1 among annotators
is their positive specific agreement, which needs no count of negatives.

Per label (labelled rules) and over all labels: *micro* from the counts summed over labels,
*macro* the mean over the labels either annotator of the pair uses there. Per document and
pooled (counts summed over documents, then the ratios). :func:`span_f1` averages F1 over
every pair of annotators with its spread.

References
----------
Hripcsak, G. and Rothschild, A. S. (2005). Agreement, the F-measure, and reliability in
information retrieval. Journal of the American Medical Informatics Association 12(3):296-298.

docs/spans.md.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..errors import AlphaUndefinedWarning, InputError, ParameterError, ParameterTypeError, notify
from .interval_matching import exact_pairs, interval_order, overlap_pairs
from .span_rows import over_pairs, pair_rows, rule_cells

__all__ = ["SPAN_COLUMNS", "SPAN_RULES", "Span", "span_f1", "span_f1_pairs", "span_f1_tables",
           "span_frame"]

IntArray = npt.NDArray[np.int64]

#: The columns of a spans DataFrame (``end`` exclusive).
SPAN_COLUMNS = ("annotator", "document", "start", "end", "label")
#: Matching rules: name -> (positions must overlap rather than coincide, labels must agree).
SPAN_RULES: dict[str, tuple[bool, bool]] = {
    "exact": (False, True),
    "exact-span": (False, False),
    "overlap": (True, True),
    "overlap-span": (True, False),
}


@dataclass(frozen=True)
class Span:
    """One span of one annotator: positions ``start`` to ``end`` (exclusive) of a document.

    Parameters
    ----------
    annotator, document : hashable
        Who marked it, and where.
    start, end : int
        Its first position and the position after its last (``0 <= start < end``).
    label : hashable
        Its category (give one label to all spans that have none).

    References
    ----------
    docs/spans.md, "Spans".

    Examples
    --------
    >>> span_frame([Span("A", "d1", 0, 2, "PER"), ("B", "d1", 0, 2, "PER")])
      annotator document  start  end label
    0         A       d1      0    2   PER
    1         B       d1      0    2   PER
    """

    annotator: Hashable
    document: Hashable
    start: int
    end: int
    label: Hashable


def span_frame(spans: pd.DataFrame | Iterable[Span | Sequence[Any]]) -> pd.DataFrame:
    """The spans as a DataFrame of :data:`SPAN_COLUMNS`, checked.

    Parameters
    ----------
    spans : DataFrame or iterable
        A DataFrame with the columns ``annotator, document, start, end, label`` (others are
        left out), or an iterable of :class:`Span` or of 5-tuples in that order.

    Returns
    -------
    DataFrame
        The five columns, ``start`` and ``end`` as int64, in the order given.

    Raises
    ------
    ParameterTypeError
        If ``spans`` is neither, or a DataFrame lacks a column.
    InputError
        If a span has no annotator, document or label, an offset that is not a whole number,
        a negative start, or an end not after its start (a zero-length span marks no
        position: it can neither overlap a span nor be tagged). The span's row (0-based) is
        named.

    References
    ----------
    docs/spans.md, "Spans".

    Examples
    --------
    >>> span_frame([("A", "d1", 3, 3, "PER")])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: span 0 (annotator 'A', document 'd1', 3-3) is empty: ...
    """
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
            i = int(np.flatnonzero(bad)[0])
            raise InputError(f"span {i} has no {col}; give every span its {col}"
                             + (" (one label for all spans that have none)"
                                if col == "label" else ""))
    for col in ("start", "end"):
        values = pd.to_numeric(frame[col], errors="coerce")
        whole = values.notna() & (values == np.floor(values))
        if not whole.all():
            i = int(np.flatnonzero(~whole.to_numpy())[0])
            raise InputError(f"span {i} has {col} {frame[col].iloc[i]!r}; offsets are whole "
                             "numbers")
        frame[col] = values.astype(np.int64)
    start, end = frame["start"].to_numpy(), frame["end"].to_numpy()
    bad = (start < 0) | (end <= start)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        a, d = frame["annotator"].iloc[i], frame["document"].iloc[i]
        what = ("has a negative start" if start[i] < 0 else
                "is empty: a zero-length span marks no position" if end[i] == start[i] else
                "ends before it starts")
        raise InputError(f"span {i} (annotator {a!r}, document {d!r}, {start[i]}-{end[i]}) "
                         f"{what}; spans run from start to end exclusive, end > start >= 0")
    return frame


def _annotators(frame: pd.DataFrame, annotators: Sequence[Hashable] | None) -> list[Hashable]:
    """The annotators compared: those given, else those with spans in order of appearance."""
    if annotators is None:
        chosen = list(pd.unique(frame["annotator"]))
    else:
        chosen = list(annotators)
        if len(set(chosen)) != len(chosen):
            raise ParameterError("annotators names an annotator twice", params=("annotators",))
        outside = ~frame["annotator"].isin(chosen)
        if outside.any():
            notify("ignored", f"{int(outside.sum())} spans of annotators not among the "
                   "annotators compared were left out", count=1, stacklevel=3)
    if len(chosen) < 2:
        raise ParameterError(
            f"span agreement needs two annotators at least; the spans name {len(chosen)} "
            "(an annotator who marked nothing has no span: name every annotator with "
            "annotators=[...])", params=("annotators",))
    return chosen


def _documents(frame: pd.DataFrame, documents: Iterable[Hashable] | None,
               param: str = "documents") -> list[Hashable]:
    """The documents scored: those given (every span must lie in one), else those with spans."""
    if documents is None:
        return list(pd.unique(frame["document"]))
    chosen = list(documents)
    outside = ~frame["document"].isin(chosen)
    if outside.any():
        i = int(np.flatnonzero(outside.to_numpy())[0])
        raise InputError(f"span {i} lies in document {frame['document'].iloc[i]!r}, which is "
                         f"not among the {len(chosen)} documents given ({param}=...); give "
                         "every document that holds spans")
    return chosen


def _codes(frame: pd.DataFrame, annotators: list[Hashable], documents: list[Hashable]
           ) -> dict[str, Any]:
    """The spans as integer columns (annotator, document, label codes; start, end), once for
    every rule."""
    lab_codes, lab_index = pd.factorize(frame["label"])
    return {"ann": pd.Index(annotators).get_indexer(frame["annotator"]).astype(np.int64),
            "doc": pd.Index(documents).get_indexer(frame["document"]).astype(np.int64),
            "lab": lab_codes.astype(np.int64), "labels": list(lab_index),
            "start": frame["start"].to_numpy(), "end": frame["end"].to_numpy(),
            "n_ann": len(annotators), "n_docs": len(documents)}


def _pair_counts(codes: dict[str, Any], rule: str) -> tuple[IntArray, IntArray, IntArray]:
    """tp, n_reference and n_other of every pair ``(i, j)`` (``i < j``, in order) as scopes x
    pairs x labels arrays: the documents, then the pooled scope (their sum); unlabelled
    rules have one label, the total. The keys, counts and order of a labelling are kept in
    ``codes`` for the next rule."""
    overlap, labelled = SPAN_RULES[rule]
    ann, start, end = codes["ann"], codes["start"], codes["end"]
    slot = "by label" if labelled else "by document"
    if slot not in codes:
        n_lab = max(len(codes["labels"]), 1) if labelled else 1
        key = codes["doc"] * n_lab + codes["lab"] if labelled else codes["doc"]
        n_keys = codes["n_docs"] * n_lab
        marked = np.bincount(ann * n_keys + key, minlength=codes["n_ann"] * n_keys
                             ).reshape(codes["n_ann"], n_keys)
        order = interval_order(key, start, end)  # once: each pair takes its spans in order
        codes[slot] = (n_lab, key, n_keys, marked, order, ann[order])
    n_lab, key, n_keys, marked, order, sorted_ann = codes[slot]
    pairs_of = overlap_pairs if overlap else exact_pairs
    pairs = list(combinations(range(codes["n_ann"]), 2))
    tp = np.stack([pairs_of(key, start, end, ann == j, n_keys,
                            order=order[(sorted_ann == i) | (sorted_ann == j)])
                   for i, j in pairs])
    sides = [marked[[p[k] for p in pairs]] for k in (0, 1)]
    shape = (len(pairs), codes["n_docs"], n_lab)
    return tuple(
        np.concatenate([x.reshape(shape), x.reshape(shape).sum(axis=1, keepdims=True)],
                       axis=1).transpose(1, 0, 2) for x in (tp, *sides))


def _pairs_frame(spans: Any, rules: Sequence[str] | str, annotators: Sequence[Hashable] | None,
                 documents: Iterable[Hashable] | None
                 ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Each rule's :func:`~clusteragree.core.span_rows.rule_cells`, and the names of the
    documents, rules, labels and pairs."""
    if isinstance(rules, str):
        rules = [r.strip() for r in rules.split(",")]
    unknown = [r for r in rules if r not in SPAN_RULES]
    if unknown or not rules:
        raise ParameterError(f"rules must be among {', '.join(SPAN_RULES)}. Got "
                             f"{list(rules)!r}.", params=("rules",))
    frame = span_frame(spans)
    chosen = _annotators(frame, annotators)
    frame = frame[frame["annotator"].isin(chosen)]
    docs = _documents(frame, documents)
    codes = _codes(frame, chosen, docs)
    rules = list(dict.fromkeys(rules))
    blocks = [rule_cells(*_pair_counts(codes, rule), labelled=SPAN_RULES[rule][1])
              for rule in rules]
    return blocks, {"docs": docs, "rules": rules, "labels": codes["labels"],
                    "pairs": [(chosen[i], chosen[j])
                              for i, j in combinations(range(len(chosen)), 2)]}


def _warn_undefined(blocks: list[dict[str, Any]]) -> None:
    """One warning counting the pairs' rows whose F1, or precision or recall, is undefined."""
    rows = none = one = 0
    for cells in blocks:
        present = cells["present"]
        rows += int(present.sum())
        none += int((present & np.isnan(cells["f1"])).sum())
        one += int((present & (np.isnan(cells["precision"]) | np.isnan(cells["recall"]))).sum())
    one -= none
    if none or one:
        what = [f"F1 in {none} (neither annotator of the pair marks a span there)"] * bool(none)
        what += [f"precision or recall in {one}{' more' if none else ''} (one annotator of "
                 "the pair marks no span there)"] * bool(one)
        warnings.warn(AlphaUndefinedWarning(
            f"span agreement is undefined (NaN) in {none + one} of {rows} rows: "
            + "; ".join(what)), stacklevel=3)


def span_f1_pairs(
    spans: pd.DataFrame | Iterable[Span | Sequence[Any]],
    rules: Sequence[str] | str = ("exact", "overlap"),
    *,
    annotators: Sequence[Hashable] | None = None,
    documents: Iterable[Hashable] | None = None,
) -> pd.DataFrame:
    """Precision, recall and F1 of every pair of annotators, per document and pooled.

    Every annotator is taken to have annotated every document scored: one who marks no span
    in a document marked nothing there (recall 0 against one who did). For each pair ``(i,
    j)``, ``i`` before ``j`` in ``annotators``, ``i`` is the reference: precision
    ``tp / n_other``, recall ``tp / n_reference``; the other direction swaps them. F1 is
    ``2 tp / (n_reference + n_other)``, the positive specific agreement ``2a / (2a + b + c)``
    of Hripcsak & Rothschild (2005).

    Parameters
    ----------
    spans : DataFrame or iterable
        The spans of every annotator (see :func:`span_frame`).
    rules : sequence of str or str, default=("exact", "overlap")
        Matching rules among :data:`SPAN_RULES` (``exact``, ``exact-span``, ``overlap``,
        ``overlap-span``), or one comma-separated string.
    annotators : sequence, optional
        The annotators compared, in order (default: those with spans, in order of first
        appearance). Name an annotator who marked nothing here; spans of others are left out
        (an ``ignored`` notice).
    documents : iterable, optional
        The documents scored (default: those with spans). A document without spans gets its
        rows (F1 undefined); a span outside them is refused.

    Returns
    -------
    DataFrame
        One row per document (then the pooled rows, ``document`` TOTAL and ``pooled`` True:
        counts summed over documents), rule and pair, with the columns ``document, pooled,
        rule, label, average, reference, other, tp, n_reference, n_other, precision, recall,
        f1, labels``. Labelled rules give a row per label used by the pair there (``average``
        empty), then ``label`` TOTAL with ``average`` ``micro`` (counts summed over labels)
        and ``macro`` (the mean over the ``labels`` used by the pair; precision and recall
        over the labels where they are defined); unlabelled rules give the micro row only.
        Precision is NaN where the other annotator marks nothing, recall where the reference
        marks nothing, F1 where neither marks anything (an ``AlphaUndefinedWarning`` counts
        the rows).

    Raises
    ------
    ParameterError
        For an unknown rule, or fewer than two annotators.
    InputError, ParameterTypeError
        For spans that cannot be read (:func:`span_frame`), or a span outside ``documents``.

    References
    ----------
    Hripcsak, G. and Rothschild, A. S. (2005). Agreement, the F-measure, and reliability in
    information retrieval. Journal of the American Medical Informatics Association
    12(3):296-298.

    docs/spans.md.

    Examples
    --------
    A marks two persons; B finds the first exactly and the second one token short:

    >>> spans = [("A", "d", 0, 2, "PER"), ("A", "d", 5, 8, "PER"),
    ...          ("B", "d", 0, 2, "PER"), ("B", "d", 5, 7, "PER"), ("B", "d", 9, 10, "LOC")]
    >>> out = span_f1_pairs(spans, ["exact", "overlap"])
    >>> out[out.pooled & (out.average != "")][["rule", "average", "tp", "precision", "recall",
    ...                                        "f1"]].round(4)
           rule average  tp  precision  recall    f1
    6     exact   micro   1     0.3333     0.5  0.40
    7     exact   macro   1     0.2500     0.5  0.25
    14  overlap   micro   2     0.6667     1.0  0.80
    15  overlap   macro   2     0.5000     1.0  0.50

    Under ``overlap`` the PER F1 is 1 and LOC's 0 (A marks no LOC: its recall is undefined),
    so macro F1 is 1/2; micro F1 is ``2 x 2 / (2 + 3)``.
    """
    blocks, names = _pairs_frame(spans, rules, annotators, documents)
    _warn_undefined(blocks)
    return pair_rows(blocks, **names)


def span_f1(
    spans: pd.DataFrame | Iterable[Span | Sequence[Any]],
    rules: Sequence[str] | str = ("exact", "overlap"),
    *,
    annotators: Sequence[Hashable] | None = None,
    documents: Iterable[Hashable] | None = None,
) -> pd.DataFrame:
    """F1 averaged over every pair of annotators, with its spread, per document and pooled.

    The mean of the pairwise F1 of :func:`span_f1_pairs` is the annotators' positive specific
    agreement (Hripcsak & Rothschild 2005): agreement on spans without counting the
    positions nobody marked.

    Parameters
    ----------
    spans : DataFrame or iterable
        The spans of every annotator (see :func:`span_frame`).
    rules : sequence of str or str, default=("exact", "overlap")
        Matching rules among :data:`SPAN_RULES`.
    annotators : sequence, optional
        The annotators compared (default: those with spans); see :func:`span_f1_pairs`.
    documents : iterable, optional
        The documents scored (default: those with spans).

    Returns
    -------
    DataFrame
        One row per document (then ``pooled``), rule, label and average (as in
        :func:`span_f1_pairs`) with ``f1`` the mean over the pairs where it is defined, its
        ``sd`` (population: the pairs are all the pairs), ``min``, ``max``, and ``pairs``
        the number of pairs averaged (a pair that marks nothing there has no F1). A label
        row averages the pairs that use the label.

    Raises
    ------
    ParameterError, InputError, ParameterTypeError
        As :func:`span_f1_pairs`.

    References
    ----------
    Hripcsak, G. and Rothschild, A. S. (2005). Agreement, the F-measure, and reliability in
    information retrieval. Journal of the American Medical Informatics Association
    12(3):296-298.

    docs/spans.md.

    Examples
    --------
    Three annotators; C marks only the first span, exactly. Pairs A-B, A-C and B-C have
    exact F1 1/2 (see :func:`span_f1_pairs`: 2 x 1 / (2 + 2)), 2/3 and 2/3:

    >>> spans = [("A", "d", 0, 2, "PER"), ("A", "d", 5, 8, "PER"),
    ...          ("B", "d", 0, 2, "PER"), ("B", "d", 5, 7, "PER"), ("C", "d", 0, 2, "PER")]
    >>> out = span_f1(spans, "exact")
    >>> out[out.pooled & (out.average == "micro")][["f1", "sd", "min", "max", "pairs"]
    ...                                            ].round(4)
           f1      sd  min     max  pairs
    4  0.6111  0.0786  0.5  0.6667      3
    """
    blocks, names = _pairs_frame(spans, rules, annotators, documents)
    _warn_undefined(blocks)
    del names["pairs"]
    return over_pairs(blocks, **names)


def span_f1_tables(
    spans: pd.DataFrame | Iterable[Span | Sequence[Any]],
    rules: Sequence[str] | str = ("exact", "overlap"),
    *,
    annotators: Sequence[Hashable] | None = None,
    documents: Iterable[Hashable] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`span_f1_pairs` and :func:`span_f1` from one matching (the arguments, rows and
    warnings of those two).

    References
    ----------
    docs/spans.md.

    Examples
    --------
    >>> spans = [("A", "d", 0, 2, "PER"), ("B", "d", 0, 2, "PER"), ("C", "d", 0, 3, "PER")]
    >>> pairs, means = span_f1_tables(spans, "exact")
    >>> len(pairs) == len(span_f1_pairs(spans, "exact")), means.equals(span_f1(spans, "exact"))
    (True, True)
    """
    blocks, names = _pairs_frame(spans, rules, annotators, documents)
    _warn_undefined(blocks)
    pairs = pair_rows(blocks, **names)
    del names["pairs"]
    return pairs, over_pairs(blocks, **names)
