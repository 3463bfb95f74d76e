"""Agreement between coreference annotators: chance-corrected alpha and the standard metrics.

Units (Passonneau 2004, 2006: a unit's value is its chain minus itself):

* ``mentions``: the union of all annotators' mentions (by token span); an annotator who did not
  mark a mention gives it the empty set (``unmarked="empty"``, default: a disagreement with any
  annotator who put it in a chain) or leaves it missing (``unmarked="missing"``).
* ``words``: every token; a token takes the chain of its innermost mention (default), its
  outermost mention (``word_policy="outermost"``) or of the mention whose head it is
  (``"head"``, CorefUD heads); tokens in no mention are singletons.

Documents are matched by name and must have the same tokens; alpha is reported per document and
pooled (summed statistics), for all annotators together and pairwise. The metrics (MUC, B-cubed,
CEAFm, CEAFe, BLANC, LEA) are given for every ordered pair (key, response), micro-averaged over
documents.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..core.convert import memberships_table
from ..core.diagnostics import diagnostics
from ..core.distances import DEFAULT_DISTANCES, DistanceLike
from ..core.frames import alpha_report, pairwise_report
from ..core.model import CodingTable, unique_labels
from ..errors import ParameterError, option
from .model import CorefCorpus, CorefDocument
from .naming import CorefNames, mention_order
from .scoring import check_corpora, coref_metrics, match_documents

__all__ = ["coref_alpha", "coref_metrics", "coref_tables", "match_documents"]


def _mention_units(docs: Sequence[CorefDocument]):
    units: dict[tuple[tuple[int, int], ...], int] = {}
    for d in docs:
        for m in sorted(d.mentions, key=lambda m: m.spans):
            units.setdefault(m.spans, len(units))
    members = []
    for d in docs:
        entity = {e: k for k, e in enumerate(d.chains)}
        rows = [(units[m.spans], entity[m.entity]) for m in d.mentions]
        members.append(np.array(rows, dtype=np.int64).reshape(-1, 2))
    return members, len(units)


def _word_units(docs: Sequence[CorefDocument], policy: str):
    words = docs[0].word_spans
    starts = np.array([s for s, _ in words], dtype=np.int64)
    ends = np.array([e for _, e in words], dtype=np.int64)
    n = len(words)
    members = []
    for d in docs:
        entity = {e: k for k, e in enumerate(d.chains)}
        best = np.full(n, -1, dtype=np.int64)
        length = np.full(n, -1, dtype=np.int64)
        for m in d.mentions:
            size = sum(e - s for s, e in m.spans)
            if policy == "head":
                if m.head is None:
                    raise ParameterError(
                        f"{d.path}: document {d.name} has mentions without heads; "
                        f"{option('word_policy', 'head')} needs heads (CorefUD files with a "
                        f"head field in # global.Entity); use "
                        f"{option('word_policy', 'innermost')} or outermost",
                        params=("word_policy",))
                spans: tuple[tuple[int, int], ...] = ((m.head, m.head + 1),)
            else:
                spans = m.spans
            for s, e in spans:
                first = int(np.searchsorted(ends, s, side="right"))
                last = int(np.searchsorted(starts, e, side="left"))
                for w in range(first, last):
                    better = (length[w] < 0 or (size < length[w] if policy == "innermost"
                                                else size > length[w]))
                    if better:
                        best[w], length[w] = entity[m.entity], size
        covered = np.flatnonzero(best >= 0)
        members.append(np.column_stack([covered, best[covered]]).astype(np.int64))
    return members, n


def coref_tables(
    corpora: Sequence[CorefCorpus],
    *,
    units: str = "mentions",
    unmarked: str = "empty",
    word_policy: str = "innermost",
    coders: Sequence[Hashable] | None = None,
    lenient: bool = False,
    labelled: bool = False,
) -> dict[str, CodingTable]:
    """One coding table per document shared by all annotators.

    A unit's value is the set of the other units of its chain (its chain minus itself), so a
    singleton has the empty set; see the module docstring for the two kinds of units.

    Parameters
    ----------
    corpora : sequence of CorefCorpus
        Two or more annotators' corpora.
    units : {"mentions", "words"}, default="mentions"
        ``"mentions"``: the union of all annotators' mentions, by token spans, numbered in
        span order of the first annotator's mentions, then those only later annotators
        marked. ``"words"``: every word of the document (a token, or for BRAT a run of
        non-space characters).
    unmarked : {"empty", "missing"}, default="empty"
        For mention units: a mention an annotator did not mark gets the empty set (like a
        singleton) or is missing for that annotator.
    word_policy : {"innermost", "outermost", "head"}, default="innermost"
        For word units: the mention whose chain a word takes when several cover it (the
        shortest, the longest, or the mention of which it is the head; ``"head"`` needs
        CorefUD heads).
    coders : sequence of hashable, optional
        The annotators' names (default: the corpora's paths, made unique).
    lenient : bool, default=False
        Leave out documents missing from some corpora (see :func:`match_documents`).
    labelled : bool, default=False
        Name the units by their words and token spans (``"he [4:5]"``) rather than by their
        position (the diagnostics name them by :class:`~clusteragree.coref.naming.CorefNames`
        instead).

    Returns
    -------
    dict of str to CodingTable
        Per shared document, a table of coders by units with class-derived values (frozensets
        of unit numbers).

    Raises
    ------
    ParameterError
        A policy not among those listed, fewer than two corpora, ``"head"`` without heads.
    InputError
        As in :func:`match_documents`.

    References
    ----------
    Passonneau, R. (2004). Computing reliability for coreference annotation. Proceedings of
    LREC 2004, pp. 1503-1506. (Mentions as coding units, the equivalence class as the value.)

    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006, section 3.3 (the coding unit itself is
    removed from its class before values are compared).

    docs/coref.md, "Agreement".

    Examples
    --------
    "Mary met John and he smiled", document ``d``: annotator A puts he with John, annotator B
    puts he with Mary.

    >>> from clusteragree.coref import parse_conll
    >>> words = "Mary met John and he smiled".split()
    >>> def annotator(path, cells):
    ...     rows = [f"d 0 {i} {w} {c}" for i, (w, c) in enumerate(zip(words, cells))]
    ...     return parse_conll(["#begin document d", *rows, "#end document"], path)
    >>> a = annotator("a.conll", ["(1)", "-", "(2)", "-", "(2)", "-"])
    >>> b = annotator("b.conll", ["(1)", "-", "(2)", "-", "(1)", "-"])

    The mention units are 0 Mary, 1 John and 2 he. For A, Mary is alone (empty set), John's
    value is {2} (he) and he's is {1} (John); for B, Mary's is {2}, John's empty, he's {0}:

    >>> t = coref_tables([a, b], coders=["A", "B"])["d"]
    >>> [[sorted(t.value(c, u)) for u in range(3)] for c in ("A", "B")]
    [[[], [2], [1]], [[2], [], [0]]]

    With word units, every one of the six words is a unit; met, and, smiled are in no mention
    and have the empty set for both:

    >>> w = coref_tables([a, b], coders=["A", "B"], units="words")["d"]
    >>> [[sorted(w.value(c, u)) for u in range(6)] for c in ("A", "B")]
    [[[], [], [4], [], [2], []], [[4], [], [], [], [0], []]]
    """
    check_corpora(corpora)
    if len(corpora) < 2:
        raise ParameterError("give the coreference annotations of at least two annotators")
    if units not in ("mentions", "words"):
        raise ParameterError(f"units must be 'mentions' or 'words'. Got {units!r}.")
    if word_policy not in ("innermost", "outermost", "head"):
        raise ParameterError(
            f"word_policy must be 'innermost', 'outermost' or 'head'. Got {word_policy!r}.")
    names = list(coders) if coders else unique_labels([c.path for c in corpora])
    common, _ = match_documents(corpora, lenient=lenient)
    tables = {}
    for n in common:
        docs = [c.documents[n] for c in corpora]
        if units == "mentions":
            members, size = _mention_units(docs)
            meta = {"units": "mentions"}
        else:
            members, size = _word_units(docs, word_policy)
            meta = {"units": "words", "word": word_policy}
        table = memberships_table(members, size, names, unmarked=unmarked, meta=meta)
        if labelled:
            table = CodingTable(table.coders, _unit_labels(docs, units, size),
                                classes=table.classes, meta=table.meta)
        tables[n] = table
    return tables


def _unit_labels(docs: Sequence[CorefDocument], units: str, size: int) -> list[str]:
    """Readable names of the units: a mention's words and token span, or a word and its
    position (made unique, as a unit's name must be)."""
    tokens = docs[0].tokens
    if units == "mentions":
        labels = [" ".join(" ".join(tokens[a:b]) for a, b in span)
                  + " [" + ", ".join(f"{a}:{b}" for a, b in span) + "]"
                  for span in mention_order(docs)]
    else:
        words = docs[0].word_spans
        labels = [f"{' '.join(tokens[a:b])} [{a}:{b}]" for a, b in words]
    return labels[:size] + [str(k) for k in range(len(labels), size)]


def coref_alpha(
    corpora: Sequence[CorefCorpus],
    distances: Sequence[DistanceLike] = DEFAULT_DISTANCES,
    *,
    units: str = "mentions",
    unmarked: str = "empty",
    word_policy: str = "innermost",
    coders: Sequence[Hashable] | None = None,
    lenient: bool = False,
    pairwise: bool = False,
    ci: float | None = None,
    bootstrap: int = 1000,
    seed: int | None = None,
    resample: str = "auto",
    jobs: int | None = 1,
    interval: str | None = None,
    diagnose: bool = False,
    worst: int = 10,
) -> pd.DataFrame:
    """Alpha per document and pooled (TOTAL); with ``pairwise``, also for every pair of
    annotators (column ``pair``; the joint rows have pair ``all``).

    Parameters
    ----------
    corpora : sequence of CorefCorpus
        Two or more annotators' corpora.
    distances : sequence of distance names, Distances or callables, default=DEFAULT_DISTANCES
        The distances between values (sets of units) to compute alpha with; the default is
        ``("nominal", "jaccard", "masi")``.
    units, unmarked, word_policy, coders, lenient
        As in :func:`coref_tables`.
    pairwise : bool, default=False
        With more than two annotators, also report alpha of every pair of them, from that
        pair's tables alone (``pair`` is ``"A | B"``).
    ci, bootstrap, seed, resample, jobs, interval
        A bootstrap interval on the pooled rows, resampling whole documents when there are
        several (the mentions or words of a single document): as
        :func:`clusteragree.core.frames.alpha_report`.
    diagnose, worst
        Also the diagnostics of :func:`clusteragree.core.diagnostics.diagnostics` (the
        ``worst`` units), over all documents, in ``frame.attrs["diagnostics"]``.

    Returns
    -------
    DataFrame
        One row per document and distance, then the pooled rows (document ``TOTAL``, column
        ``pooled`` True); columns ``document, distance, alpha, D_o, D_e, n, units, coders,
        engine, signature, pooled, pair``.

    Raises
    ------
    ParameterError, InputError
        As in :func:`coref_tables`.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43.

    Passonneau, R. (2004). Computing reliability for coreference annotation. Proceedings of
    LREC 2004, pp. 1503-1506. (Mentions as coding units, the equivalence class as the value.)

    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006, section 3.3 (the coding unit itself is
    removed from its class before values are compared).

    docs/coref.md, "Agreement"; docs/alpha.md.

    Examples
    --------
    "Mary met John and he smiled", document ``d``: annotator A puts he with John, annotator B
    puts he with Mary.

    >>> from clusteragree.coref import parse_conll
    >>> words = "Mary met John and he smiled".split()
    >>> def annotator(path, cells):
    ...     rows = [f"d 0 {i} {w} {c}" for i, (w, c) in enumerate(zip(words, cells))]
    ...     return parse_conll(["#begin document d", *rows, "#end document"], path)
    >>> a = annotator("a.conll", ["(1)", "-", "(2)", "-", "(2)", "-"])
    >>> b = annotator("b.conll", ["(1)", "-", "(2)", "-", "(1)", "-"])

    Over the three mentions (see :func:`coref_tables`) the values are A: {}, {he}, {John} and
    B: {he}, {}, {Mary}. Every unit disagrees, so D_o = 1. Of the 6 values, {} and {he} occur
    twice, so 6*5 - 2 - 2 = 26 of the 30 ordered pairs differ: D_e = 26/30, and alpha =
    1 - 30/26 = -2/13. Any two different values here are disjoint, so Jaccard and MASI
    distances are 1 wherever nominal is, and give the same alpha:

    >>> frame = coref_alpha([a, b], coders=["A", "B"])
    >>> pooled = frame[frame.pooled]
    >>> [(r.distance, round(r.alpha, 4), round(r.D_e, 4)) for r in pooled.itertuples()]
    [('nominal', -0.1538, 0.8667), ('jaccard', -0.1538, 0.8667), ('masi', -0.1538, 0.8667)]

    Over the six words, three agree (met, and, smiled, all empty), so D_o = 3/6. The 12 values
    are {} 8 times, {he} twice, {John} and {Mary} once: 132 - 56 - 2 = 74 of the 132 ordered
    pairs differ, D_e = 74/132, alpha = 1 - 0.5 * 132/74 = 4/37:

    >>> words_frame = coref_alpha([a, b], ["nominal"], coders=["A", "B"], units="words")
    >>> round(float(words_frame.alpha.iloc[-1]), 4)
    0.1081
    """
    check_corpora(corpora)
    names = list(coders) if coders else unique_labels([c.path for c in corpora])

    def tables_of(chosen: tuple[int, ...]) -> dict[str, CodingTable]:
        return coref_tables([corpora[i] for i in chosen], units=units, unmarked=unmarked,
                            word_policy=word_policy, coders=[names[i] for i in chosen],
                            lenient=lenient)

    options: dict[str, Any] = {"ci": ci, "bootstrap": bootstrap, "seed": seed,
                               "resample": resample, "jobs": jobs, "interval": interval}
    everyone = tuple(range(len(names)))
    tables = tables_of(everyone)
    frame = (pairwise_report(tables_of, names, distances, **options) if pairwise else
             alpha_report(tables, distances, **options).assign(pair="all"))
    if diagnose:  # units by their words and positions, values by their chains
        common, _ = match_documents(corpora, lenient=lenient)
        naming = CorefNames({n: [c.documents[n] for c in corpora] for n in tables
                             if n in common}, names, units)
        frame.attrs["diagnostics"] = diagnostics(
            tables, distances, worst=worst, report=frame[frame["pair"] == "all"],
            describe_unit=naming.unit, describe_value=naming.value)
    return frame
