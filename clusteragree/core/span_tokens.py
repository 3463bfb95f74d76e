"""Agreement on spans position by position: the spans of each annotator as a tag sequence
(BIO or IO) over every position of every document, then the kappa family and alpha.

Each position of a document of length ``n`` (positions ``0 .. n-1``) gets one tag per
annotator: ``O`` outside every span of that annotator; under ``scheme="bio"`` ``B-label`` at
the first position of a span and ``I-label`` at the others; under ``scheme="io"`` ``I-label``
at every position of a span (two adjacent spans of one label then read as one: IO does not
mark where a span begins). A tag sequence holds one span per position, so overlapping (nested
or crossing) spans of one annotator are refused.

The positions are the items of the kappa family (:mod:`clusteragree.core.kappa`) and the
units of nominal alpha (:func:`clusteragree.core.coefficient.alpha`). The figures of every
document and of the pooled table come from counts made in one pass over the tag table: each
table's positions, the pairs of annotators that agree on a position, and each annotator's count
of each tag; the kappa family's and alpha's formulas for complete data apply to them (the tests
check them against those functions on a table of tags, scikit-learn and the krippendorff
package). Hripcsak & Rothschild (2005) put three figures side by side: F1
(:func:`clusteragree.core.span_match.span_f1`), kappa over every position, and kappa over the
positions someone annotated; kappa over every position grows towards F1 as the positions nobody
marks grow in number.

References
----------
Hripcsak, G. and Rothschild, A. S. (2005). Agreement, the F-measure, and reliability in
information retrieval. Journal of the American Medical Informatics Association 12(3):296-298.

Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
Communication Departmental Papers 43.

docs/spans.md.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..errors import AlphaUndefinedWarning, InputError, ParameterError, option
from .frames import TOTAL
from .span_match import Span, _annotators, _documents, span_frame

__all__ = ["MEASURES", "SCHEMES", "SUBSETS", "span_tags", "token_agreement", "token_counts",
           "token_figures"]

IntArray = npt.NDArray[np.int64]
TagArray = npt.NDArray[np.int32]

#: Tag schemes: name -> what it marks.
SCHEMES = {"bio": "B-label at a span's first position, I-label at the others, O outside",
           "io": "I-label at every position of a span, O outside"}


def _lengths(lengths: Mapping[Hashable, int]) -> dict[Hashable, int]:
    if not isinstance(lengths, Mapping) or not lengths:
        raise ParameterError("lengths must map every document to its number of positions "
                             f"(a dict, not empty). Got {type(lengths).__name__}.",
                             params=("lengths",))
    out = {}
    for doc, n in lengths.items():
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
            raise ParameterError(f"lengths gives document {doc!r} the length {n!r}; a length "
                                 "is a whole number of positions, 0 or more",
                                 params=("lengths",))
        out[doc] = int(n)
    return out


def _tag_table(spans: Any, lengths: Mapping[Hashable, int], scheme: str,
               annotators: Sequence[Hashable] | None
               ) -> tuple[list[Hashable], list[Hashable], IntArray, TagArray, list[str]]:
    """Annotators, documents, document offsets, the annotators x positions tag codes (0 is
    ``O``) and the tags."""
    if scheme not in SCHEMES:
        raise ParameterError(f"scheme must be one of {', '.join(SCHEMES)}. Got {scheme!r}.",
                             params=("scheme",))
    sizes = _lengths(lengths)
    frame = span_frame(spans)
    chosen = _annotators(frame, annotators)
    docs = _documents(frame, sizes, "lengths")
    frame = frame[frame["annotator"].isin(chosen)]
    offsets = np.zeros(len(docs) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([sizes[d] for d in docs])
    d = pd.Categorical(frame["document"], categories=docs).codes.astype(np.int64)
    start, end = frame["start"].to_numpy(), frame["end"].to_numpy()
    long = end > offsets[d + 1] - offsets[d]
    if long.any():
        i = int(np.flatnonzero(long)[0])
        raise InputError(f"a span of annotator {frame['annotator'].iloc[i]!r} ends at "
                         f"{end[i]} in document {docs[d[i]]!r}, whose length is "
                         f"{sizes[docs[d[i]]]} (lengths=...); give each document's number of "
                         "positions, in the offsets' unit")
    lab_codes, lab_values = pd.factorize(frame["label"])
    names = [str(x) for x in lab_values]
    if scheme == "bio":
        tags = ["O", *(f"{p}-{x}" for x in names for p in "BI")]
        first, rest = 2 * lab_codes + 1, 2 * lab_codes + 2
    else:
        tags = ["O", *(f"I-{x}" for x in names)]
        first = rest = lab_codes + 1
    a = pd.Categorical(frame["annotator"], categories=chosen).codes.astype(np.int64)
    begin, stop = offsets[d] + start, offsets[d] + end
    total = int(offsets[-1])
    # every annotator's spans by start, annotator by annotator: one sort of a packed key
    order = np.argsort(a * (total + 1) + begin, kind="stable")
    lift = a[order] * (total + 1)  # an annotator's first span outruns the ends before it
    reach = np.maximum.accumulate(stop[order] + lift) - lift
    clash = np.flatnonzero((a[order][1:] == a[order][:-1]) & (begin[order][1:] < reach[:-1]))
    if len(clash):
        j = order[clash[0] + 1]
        k = int(a[j])
        prior = order[np.searchsorted(a[order], k):clash[0] + 1]
        i = prior[np.argmax(stop[prior] > begin[j])]
        raise ParameterError(
            f"{option('scheme', scheme)} gives one tag per position and cannot hold "
            f"overlapping spans: annotator {chosen[k]!r} marks {start[i]}-{end[i]} "
            f"{lab_values[lab_codes[i]]!r} and {start[j]}-{end[j]} "
            f"{lab_values[lab_codes[j]]!r} in document {docs[d[j]]!r}; score nested "
            "spans by matching (span_f1) or keep one span per position",
            params=("scheme",))
    codes = np.zeros((len(chosen), total), dtype=np.int32)  # tag codes
    flat = codes.reshape(-1)
    width = (stop - begin)[order]
    head = a[order] * total + begin[order]
    flat[np.repeat(head - np.cumsum(width) + width, width) + np.arange(width.sum())] = \
        np.repeat(rest[order], width)
    flat[head] = first[order]
    return chosen, docs, offsets, codes, tags


def span_tags(
    spans: pd.DataFrame | Iterable[Span | Sequence[Any]],
    lengths: Mapping[Hashable, int],
    *,
    scheme: str = "bio",
    annotators: Sequence[Hashable] | None = None,
) -> dict[Hashable, dict[Hashable, list[str]]]:
    """Each annotator's tag sequence for each document.

    Parameters
    ----------
    spans : DataFrame or iterable
        The spans of every annotator (see :func:`~clusteragree.core.span_match.span_frame`);
        no two spans of one annotator may share a position.
    lengths : mapping
        Every document (those without spans too) -> its number of positions, in the unit of
        the spans' offsets.
    scheme : {"bio", "io"}, default="bio"
        The tags (:data:`SCHEMES`).
    annotators : sequence, optional
        The annotators (default: those with spans, in order of first appearance); name an
        annotator who marked nothing here.

    Returns
    -------
    dict
        ``annotator -> document -> list of tags`` (``O``, ``B-label``, ``I-label``), the
        documents in the order of ``lengths``.

    Raises
    ------
    ParameterError
        For an unknown scheme, bad lengths, fewer than two annotators, or two spans of one
        annotator that share a position (the message names them).
    InputError
        For a span that cannot be read, lies in a document not in ``lengths`` or ends past
        its document's length.

    References
    ----------
    Ramshaw, L. A. and Marcus, M. P. (1995). Text chunking using transformation-based
    learning. Third Workshop on Very Large Corpora, 82-94. (The IOB tags.)

    docs/spans.md, "Token-level agreement".

    Examples
    --------
    >>> spans = [("A", "d", 0, 2, "PER"), ("A", "d", 2, 3, "PER"), ("B", "d", 1, 3, "LOC")]
    >>> span_tags(spans, {"d": 4})["A"]
    {'d': ['B-PER', 'I-PER', 'B-PER', 'O']}
    >>> span_tags(spans, {"d": 4}, scheme="io")["A"]
    {'d': ['I-PER', 'I-PER', 'I-PER', 'O']}
    """
    chosen, docs, offsets, codes, tags = _tag_table(spans, lengths, scheme, annotators)
    names = np.array(tags, dtype=object)
    return {a: {doc: list(names[codes[k, offsets[i]:offsets[i + 1]]])
                for i, doc in enumerate(docs)} for k, a in enumerate(chosen)}


MEASURES = ("cohen_kappa", "fleiss_kappa", "alpha")
SUBSETS = ("all", "annotated")


def _scope_counts(codes: TagArray, offsets: IntArray, n_tags: int
                  ) -> tuple[IntArray, IntArray, IntArray]:
    """For each document and then the pooled scope: its positions, the ordered pairs of
    annotators giving the same tag summed over them, and each annotator's count of each tag
    (annotators x scopes x tags)."""
    n_docs = len(offsets) - 1
    n_coders = codes.shape[0]
    doc = np.repeat(np.arange(n_docs, dtype=np.int64), np.diff(offsets))
    positions = np.bincount(doc, minlength=n_docs)
    same = np.zeros(n_docs, dtype=np.int64)
    for i in range(n_coders):
        for j in range(i + 1, n_coders):
            same += np.bincount(doc[codes[i] == codes[j]], minlength=n_docs)
    base = doc * n_tags
    tags = np.stack([np.bincount(base + row, minlength=n_docs * n_tags).reshape(n_docs, n_tags)
                     for row in codes])
    return _with_total(positions, 0), _with_total(2 * same, 0), _with_total(tags, 1)


def _with_total(x: IntArray, axis: int) -> IntArray:
    """``x`` and its sum along ``axis`` as one more entry (the pooled scope)."""
    return np.concatenate([x, x.sum(axis=axis, keepdims=True)], axis=axis)


def _figures(positions: IntArray, agree: IntArray, tags: IntArray
             ) -> tuple[npt.NDArray[np.float64], list[str | None]]:
    """Cohen's (multi-)kappa, Fleiss's multi-pi and nominal alpha of each scope (scopes x 3),
    and why they are undefined (None where they are not).

    With ``c`` annotators, ``n`` positions, ``s`` ordered pairs of annotators that agree and
    ``n_k`` the tags ``k`` given: ``A_o = s / (n c (c - 1))``; Cohen's ``A_e`` is the mean over
    pairs of annotators of ``sum_k P(k | i) P(k | j)``, Fleiss's the square of the pooled
    shares (:mod:`clusteragree.core.kappa`); each coefficient is ``(A_o - A_e) / (1 - A_e)``.
    Every annotator tags every position, so nominal alpha's observed disagreement is
    ``(n c (c - 1) - s) / (c - 1)`` over the ``N = n c`` values, and alpha is
    ``1 - (N - 1) (n c (c - 1) - s) / ((c - 1) (N^2 - sum_k n_k^2))`` (Krippendorff 2011)."""
    n_coders = tags.shape[0]
    n = positions.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        a_o = agree / (positions * n_coders * (n_coders - 1))
        shares = tags / n[None, :, None]
        cohen_e = np.mean([(shares[i] * shares[j]).sum(axis=1)
                           for i, j in combinations(range(n_coders), 2)], axis=0)
        pooled = shares.mean(axis=0)
        fleiss_e = (pooled * pooled).sum(axis=1)
        values = positions * n_coders
        given = tags.sum(axis=0)
        disagree = (positions * n_coders * (n_coders - 1) - agree).astype(np.float64)
        spread = values.astype(np.float64) ** 2 - (given.astype(np.float64) ** 2).sum(axis=1)
        out = np.stack([np.where(e == 1, np.nan, (a_o - e) / (1 - e))
                        for e in (cohen_e, fleiss_e)]
                       + [1 - (values - 1.0) * disagree / ((n_coders - 1) * spread)], axis=1)
    used = (given > 0).sum(axis=1)
    why: list[str | None] = [None] * len(positions)
    for k in np.flatnonzero(used < 2):
        why[k] = "no position" if positions[k] == 0 else "every tag the same"
        out[k] = np.nan
    return out, why


def token_counts(
    spans: pd.DataFrame | Iterable[Span | Sequence[Any]],
    lengths: Mapping[Hashable, int],
    *,
    scheme: str = "bio",
    annotators: Sequence[Hashable] | None = None,
) -> tuple[list[Hashable], list[tuple[IntArray, IntArray, IntArray]]]:
    """Each document's statistics of the token measures, which add over documents: for each
    subset of positions (:data:`SUBSETS`), the positions, the ordered pairs of annotators
    giving the same tag summed over them, and each annotator's count of each tag.

    Parameters
    ----------
    spans, lengths, scheme, annotators
        As :func:`token_agreement`.

    Returns
    -------
    documents : list
        The documents, in the order of ``lengths``.
    counts : list of (positions, agree, tags)
        One per subset: arrays over the documents (``tags``: annotators x documents x tags).
        Summed (or reweighted) along the documents, they give :func:`token_figures` the
        pooled (or resampled) values.

    References
    ----------
    docs/spans.md, "Token-level agreement" and "Intervals".

    Examples
    --------
    >>> spans = [("A", "d1", 0, 2, "x"), ("B", "d1", 0, 2, "x"), ("B", "d2", 1, 2, "x")]
    >>> docs, ((n, agree, tags), _) = token_counts(spans, {"d1": 4, "d2": 3}, scheme="io")
    >>> docs, n.tolist(), agree.tolist()
    (['d1', 'd2'], [4, 3], [8, 4])
    >>> values, _ = token_figures(n.sum(keepdims=True), agree.sum(keepdims=True),
    ...                           tags.sum(axis=1, keepdims=True))

    Over the seven positions they agree on six; A tags I on 2, B on 3, so Cohen's chance
    agreement is (2/7)(3/7) + (5/7)(4/7) = 26/49 and kappa (6/7 - 26/49) / (23/49) = 16/23:

    >>> round(float(values[0, 0]), 4)
    0.6957
    """
    _, docs, offsets, codes, tags = _tag_table(spans, lengths, scheme, annotators)
    marked = (codes != 0).any(axis=0)
    ends = np.concatenate([[0], np.cumsum(marked)])[offsets]
    out = []
    for found in (_scope_counts(codes, offsets, len(tags)),
                  _scope_counts(codes.compress(marked, axis=1), ends, len(tags))):
        positions, agree, per_tag = found
        out.append((positions[:-1], agree[:-1], per_tag[:, :-1, :]))
    return docs, out


def token_figures(positions: npt.ArrayLike, agree: npt.ArrayLike, tags: npt.ArrayLike
                  ) -> tuple[npt.NDArray[np.float64], list[str | None]]:
    """Cohen's (multi-)kappa, Fleiss's multi-pi and nominal alpha (columns, in the order of
    :data:`MEASURES`) of scopes of positions given by their summed statistics
    (:func:`token_counts`): ``positions`` and ``agree`` over the scopes, ``tags`` annotators x
    scopes x tags; and why each scope's values are undefined (None where they are not). The
    formulas are those of :func:`token_agreement`.

    References
    ----------
    docs/spans.md, "Token-level agreement".

    Examples
    --------
    See :func:`token_counts`.
    """
    return _figures(np.asarray(positions), np.asarray(agree), np.asarray(tags))


def token_agreement(
    spans: pd.DataFrame | Iterable[Span | Sequence[Any]],
    lengths: Mapping[Hashable, int],
    *,
    scheme: str = "bio",
    annotators: Sequence[Hashable] | None = None,
) -> pd.DataFrame:
    """Cohen's kappa, Fleiss's kappa and nominal alpha over the positions' tags, per document
    and pooled, over all positions and over the positions someone annotated.

    ``cohen_kappa`` is Cohen's kappa for two annotators (Davies & Fleiss's multi-kappa for
    more), ``fleiss_kappa`` Fleiss's multi-pi (Scott's pi for two),
    :func:`~clusteragree.core.kappa.cohen_kappa` and :func:`~clusteragree.core.kappa.fleiss_pi`
    of the core; ``alpha`` is :func:`~clusteragree.core.coefficient.alpha` with the nominal
    distance. Every annotator tags every position, so the data are complete.

    Parameters
    ----------
    spans : DataFrame or iterable
        The spans of every annotator (see :func:`~clusteragree.core.span_match.span_frame`).
    lengths : mapping
        Every document -> its number of positions (see :func:`span_tags`).
    scheme : {"bio", "io"}, default="bio"
        The tags (:data:`SCHEMES`).
    annotators : sequence, optional
        The annotators (default: those with spans); name an annotator who marked nothing.

    Returns
    -------
    DataFrame
        One row per document (then the pooled rows), subset and measure: ``document``
        (TOTAL for the pooled rows, ``pooled`` True: every position of every document as one
        table), ``subset`` (``all`` positions, or ``annotated``: the positions where some
        annotator's tag is not ``O``), ``measure`` (``cohen_kappa``, ``fleiss_kappa``,
        ``alpha``), ``value``, ``positions`` (how many). NaN where there
        is no position or every tag is the same (an ``AlphaUndefinedWarning`` counts them).

    Raises
    ------
    ParameterError, InputError
        As :func:`span_tags`.

    References
    ----------
    Hripcsak, G. and Rothschild, A. S. (2005). Agreement, the F-measure, and reliability in
    information retrieval. Journal of the American Medical Informatics Association
    12(3):296-298.

    Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
    Psychological Measurement 20(1):37-46. Fleiss, J. L. (1971). Measuring nominal scale
    agreement among many raters. Psychological Bulletin 76(5):378-382.

    docs/spans.md, "Token-level agreement".

    Examples
    --------
    Ten tokens; A marks 0-2 and 5-7 as PER, B only 0-2 (exact F1 ``2 x 1 / (2 + 1) = 2/3``).
    A tags B-PER, I-PER, O on 2, 2 and 6 positions, B on 1, 1 and 8; they agree on 8 of 10:
    Cohen's ``A_e = 0.2 x 0.1 + 0.2 x 0.1 + 0.6 x 0.8 = 0.52``, kappa ``(0.8 - 0.52) / 0.48
    = 0.5833``; pooled shares 0.15, 0.15, 0.7 give Fleiss's ``A_e = 0.535``, kappa ``0.265 /
    0.465 = 0.5699``, and alpha ``1 - (19/20) (0.2 / 0.465) = 0.5914``. Over the 4 annotated
    positions they agree on 2: ``A_e = 0.25`` and kappa 1/3:

    >>> spans = [("A", "d", 0, 2, "PER"), ("A", "d", 5, 7, "PER"), ("B", "d", 0, 2, "PER")]
    >>> out = token_agreement(spans, {"d": 10})
    >>> out[out.pooled].drop(columns=["document", "pooled"]).round(4)
           subset       measure   value  positions
    6         all   cohen_kappa  0.5833         10
    7         all  fleiss_kappa  0.5699         10
    8         all         alpha  0.5914         10
    9   annotated   cohen_kappa  0.3333          4
    10  annotated  fleiss_kappa  0.2381          4
    11  annotated         alpha  0.3333          4
    """
    _, docs, offsets, codes, tags = _tag_table(spans, lengths, scheme, annotators)
    marked = (codes != 0).any(axis=0)
    ends = np.concatenate([[0], np.cumsum(marked)])[offsets]  # offsets among marked positions
    parts = [_figures(*_scope_counts(codes, offsets, len(tags))),
             _figures(*_scope_counts(codes.compress(marked, axis=1), ends, len(tags)))]
    positions = [np.diff(offsets), np.diff(ends)]
    n_scopes = len(docs) + 1
    # rows: scope, then subset, then measure
    values = np.stack([p[0] for p in parts], axis=1).reshape(-1)
    counts = np.stack([np.append(x, x.sum()) for x in positions], axis=1)
    why = [w for k in range(n_scopes) for w in (parts[0][1][k], parts[1][1][k])]
    undefined: dict[str, int] = {}
    for w in why:
        if w is not None:
            undefined[w] = undefined.get(w, 0) + 1
    if undefined:
        causes = "; ".join(f"{why} in {n}" for why, n in undefined.items())
        warnings.warn(AlphaUndefinedWarning(
            f"token agreement is undefined (NaN) in {sum(undefined.values())} of "
            f"{2 * n_scopes} tables of positions ({causes})"), stacklevel=2)
    each = 2 * len(MEASURES)
    return pd.DataFrame({
        "document": [d for d in [*docs, TOTAL] for _ in range(each)],
        "pooled": np.repeat(np.arange(n_scopes) == len(docs), each),
        "subset": [s for _ in range(n_scopes) for s in SUBSETS for _ in MEASURES],
        "measure": list(MEASURES) * (2 * n_scopes),
        "value": values,
        "positions": np.repeat(counts.reshape(-1), len(MEASURES)).astype(np.int64)},
        columns=["document", "pooled", "subset", "measure", "value", "positions"])
