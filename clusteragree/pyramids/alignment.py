"""Where two pyramids differ: their SCUs aligned by the words their contributors cover.

Two annotators who build pyramids over the same model summaries rarely number or word their
SCUs alike, but an SCU is pinned down by the words its contributors cover. The alignment:

1. each SCU becomes the set of word positions its parts cover (the words of
   :func:`~clusteragree.pyramids.units.word_units`);
2. an optimal one-to-one matching maximises the total Jaccard overlap of matched SCUs (the
   Hungarian algorithm on the overlap matrix; pairs that share no word are never matched);
3. every SCU left unmatched is linked to the SCU of the other side it overlaps most: an SCU of
   A linked to a B SCU that is already matched means B merged what A split (and the reverse);
4. SCUs that overlap nothing on the other side are only one annotator's; words in an SCU on one
   side and in none on the other are listed too.

References
----------
Nenkova, A. & Passonneau, R. (2004). Evaluating content selection in summarization: the pyramid
method. Proceedings of HLT-NAACL 2004 (SCUs and their contributors).
Kuhn, H. W. (1955). The Hungarian method for the assignment problem. Naval Research Logistics
Quarterly 2, 83-97.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.optimize import linear_sum_assignment

from ..errors import ParameterTypeError
from .model import Pyramid
from .units import word_units

__all__ = ["ScuAlignment", "align_scus", "overlap_matrix"]


def overlap_matrix(a: dict[int, frozenset[int]], b: dict[int, frozenset[int]]
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Jaccard overlap and shared word counts of every SCU of ``a`` with every SCU of ``b``.

    Parameters
    ----------
    a, b : dict of SCU uid -> set of word positions
        The words each SCU covers.

    Returns
    -------
    jaccard, shared : ndarray, shape (len(a), len(b))
        In the order of the dictionaries' keys.

    References
    ----------
    Jaccard, P. (1908). Nouvelles recherches sur la distribution florale. Bulletin de la
    Société vaudoise des sciences naturelles 44, 223-270.

    Examples
    --------
    {1, 2, 3} and {2, 3, 4} share 2 of 4 words:

    >>> j, s = overlap_matrix({1: frozenset({1, 2, 3})}, {7: frozenset({2, 3, 4})})
    >>> j.tolist(), s.tolist()
    ([[0.5]], [[2]])
    """
    shared = np.array([[len(x & y) for y in b.values()] for x in a.values()],
                      dtype=np.int64).reshape(len(a), len(b))
    size_a = np.array([len(x) for x in a.values()], dtype=np.int64)
    size_b = np.array([len(y) for y in b.values()], dtype=np.int64)
    union = size_a[:, None] + size_b[None, :] - shared
    with np.errstate(divide="ignore", invalid="ignore"):
        jaccard = np.where(union > 0, shared / np.where(union > 0, union, 1), 0.0)
    return jaccard, shared


@dataclass(frozen=True)
class ScuAlignment:
    """Two pyramids' SCUs aligned by the words they cover.

    Attributes
    ----------
    matched : DataFrame
        The one-to-one matching: ``a_uid``, ``b_uid``, ``a_label``, ``b_label``,
        ``a_weight``, ``b_weight``, ``jaccard``, ``shared`` (words), best overlap first.
    linked : DataFrame
        Unmatched SCUs linked to the other side's SCU they overlap most: ``side`` (whose SCU is
        unmatched), ``uid``, ``label``, ``weight``, ``to_uid``, ``to_label``, ``jaccard``,
        ``shared``, and ``link``: ``"split"`` when the linked SCU is matched (the other
        annotator merged what this one split) or ``"partial"`` when it is not.
    only : DataFrame
        SCUs that share no word with any SCU of the other side: ``side``, ``uid``, ``label``,
        ``weight``, ``words``.
    unmarked : DataFrame
        Words in an SCU on one side and in none on the other: ``side`` (the side that marked
        it), ``position``, ``word``, ``uids``.

    References
    ----------
    docs/pyramids.md, "Where two pyramids differ".

    Examples
    --------
    A pyramid aligned with itself: every SCU matched to itself with overlap 1, nothing else
    (:func:`align_scus` shows a split).

    >>> from clusteragree.pyramids import build_pyramid
    >>> p = build_pyramid([("D1.M.100.A.A", "a b c")], [("ab", [[(0, "a b")]])])
    >>> found = align_scus(p, p)
    >>> found.matched["jaccard"].tolist(), len(found.linked), len(found.only)
    ([1.0], 0, 0)
    """

    matched: pd.DataFrame
    linked: pd.DataFrame
    only: pd.DataFrame
    unmarked: pd.DataFrame


def align_scus(a: Pyramid, b: Pyramid, *, tokenizer: str = "ws") -> ScuAlignment:
    """Align the SCUs of two pyramids of the same model summaries.

    Parameters
    ----------
    a, b : Pyramid
        Two annotators' pyramids (same texts; checked).
    tokenizer : {"ws", "ducview", "alnum"}, default="ws"
        How the text is cut into words (:func:`~clusteragree.pyramids.units.tokens`).

    Returns
    -------
    ScuAlignment

    Raises
    ------
    InputError
        The two pyramids' texts differ.

    References
    ----------
    Kuhn, H. W. (1955). The Hungarian method for the assignment problem.

    Examples
    --------
    Over "a b c d e f": A has SCU 1 = {a b}, SCU 2 = {c d} and SCU 3 = {f}; B has SCU 1 =
    {a b c d} and nothing on f. The best one-to-one matching pairs B's SCU with one of A's first
    two (Jaccard 2/4 = 1/2 either way); A's other one is linked to it as a split (A split what B
    merged); A's SCU 3 overlaps nothing of B's, and its word f is marked by A alone.

    >>> from clusteragree.pyramids import build_pyramid
    >>> summary = [("D1.M.100.A.A", "a b c d e f")]
    >>> pa = build_pyramid(summary, [("ab", [[(0, "a b")]]), ("cd", [[(0, "c d")]]),
    ...                              ("f", [[(0, "f")]])])
    >>> pb = build_pyramid(summary, [("abcd", [[(0, "a b c d")]])])
    >>> found = align_scus(pa, pb)
    >>> [tuple(r) for r in found.matched[["a_uid", "b_uid", "jaccard"]].itertuples(index=False)]
    [(1, 1, 0.5)]
    >>> found.linked[["side", "uid", "to_uid", "link"]].values.tolist()
    [['A', 2, 1, 'split']]
    >>> found.only[["side", "uid"]].values.tolist(), found.unmarked["word"].tolist()
    ([['A', 3]], ['f'])
    """
    if not isinstance(a, Pyramid) or not isinstance(b, Pyramid):
        raise ParameterTypeError("align_scus compares two Pyramid objects (read_pyramid)")
    units = word_units([a, b], tokenizer)
    sides = []
    for pyramid, members in zip((a, b), units.members, strict=True):
        by_uid: dict[int, set[int]] = {}
        for word, uid in members.tolist():
            by_uid.setdefault(uid, set()).add(word)
        scus = {s.uid: s for s in pyramid.scus}
        words = {uid: frozenset(ws) for uid, ws in sorted(by_uid.items())}
        sides.append((words, scus))
    (words_a, scus_a), (words_b, scus_b) = sides
    uids_a, uids_b = list(words_a), list(words_b)
    jaccard, shared = overlap_matrix(words_a, words_b)
    matched_rows: list[dict[str, object]] = []
    matched_a, matched_b = set(), set()
    if jaccard.size:
        rows, cols = linear_sum_assignment(jaccard, maximize=True)
        for i, j in zip(rows.tolist(), cols.tolist(), strict=True):
            if shared[i, j] == 0:
                continue
            matched_a.add(i)
            matched_b.add(j)
            matched_rows.append({
                "a_uid": uids_a[i], "b_uid": uids_b[j], "a_label": scus_a[uids_a[i]].label,
                "b_label": scus_b[uids_b[j]].label, "a_weight": scus_a[uids_a[i]].weight,
                "b_weight": scus_b[uids_b[j]].weight, "jaccard": float(jaccard[i, j]),
                "shared": int(shared[i, j])})
    linked, only = [], []
    for side, uids, scus, other_uids, other_scus, overlap, common, matched, other_matched in (
            ("A", uids_a, scus_a, uids_b, scus_b, jaccard, shared, matched_a, matched_b),
            ("B", uids_b, scus_b, uids_a, scus_a, jaccard.T, shared.T, matched_b,
             matched_a)):
        for i, uid in enumerate(uids):
            if i in matched:
                continue
            if overlap.shape[1] == 0 or common[i].max(initial=0) == 0:
                only.append({"side": side, "uid": uid, "label": scus[uid].label,
                             "weight": scus[uid].weight,
                             "words": len((words_a if side == "A" else words_b)[uid])})
                continue
            j = int(np.argmax(overlap[i]))
            linked.append({"side": side, "uid": uid, "label": scus[uid].label,
                           "weight": scus[uid].weight, "to_uid": other_uids[j],
                           "to_label": other_scus[other_uids[j]].label,
                           "jaccard": float(overlap[i, j]), "shared": int(common[i, j]),
                           "link": "split" if j in other_matched else "partial"})
    covered_a = set().union(*words_a.values()) if words_a else set()
    covered_b = set().union(*words_b.values()) if words_b else set()
    unmarked = []
    for side, mine, theirs, words in (("A", covered_a, covered_b, words_a),
                                      ("B", covered_b, covered_a, words_b)):
        for position in sorted(mine - theirs):
            unmarked.append({"side": side, "position": position,
                             "word": units.labels[position],
                             "uids": sorted(u for u, ws in words.items() if position in ws)})
    matched_frame = pd.DataFrame(matched_rows, columns=[
        "a_uid", "b_uid", "a_label", "b_label", "a_weight", "b_weight", "jaccard", "shared"])
    return ScuAlignment(
        matched_frame.sort_values("jaccard", ascending=False, kind="stable")
        .reset_index(drop=True),
        pd.DataFrame(linked, columns=["side", "uid", "label", "weight", "to_uid", "to_label",
                                      "jaccard", "shared", "link"]),
        pd.DataFrame(only, columns=["side", "uid", "label", "weight", "words"]),
        pd.DataFrame(unmarked, columns=["side", "position", "word", "uids"]))
