"""Agreement on mentions alone: Krippendorff's unitizing alpha over the token continuum of each
document, the annotators' mentions as units (their chains play no part).

u-alpha needs the units of one annotator not to overlap, and mentions nest ("[the leader of
[the party]]"). By default an annotator's units are the outermost of their mentions: a mention
inside another of the same annotator is left out (and counted in a ``note``); mentions that
cross (overlap without one containing the other, possible in CorefUD and BRAT) are joined into
one unit (a ``merged`` warning). A discontinuous mention counts as the tokens from its first to
its last.

References
----------
Krippendorff, K. (1995). On the reliability of unitizing continuous data. Sociological
Methodology 25, 47-76.

docs/coref.md, "Agreement on mentions: unitizing alpha".
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import pandas as pd

from ..core.model import unique_labels
from ..core.spans import outermost_units
from ..core.unitizing import UnitizingStats, unitizing_stats
from ..errors import notify
from .model import CorefCorpus, CorefDocument
from .scoring import check_corpora, match_documents

__all__ = ["mention_units", "mentions_u_alpha"]


def mention_units(document: CorefDocument) -> tuple[list[tuple[int, int]], int, int]:
    """The outermost mentions of one annotation as non-overlapping units ``[start, end)``.

    Parameters
    ----------
    document : CorefDocument
        One annotator's annotation of a document.

    Returns
    -------
    units : list of (int, int)
        Sorted, not overlapping.
    nested : int
        Mentions left out because another mention contains them.
    crossing : int
        Mentions joined with one they cross.

    References
    ----------
    Krippendorff, K. (1995). On the reliability of unitizing continuous data. (Units of one
    rater do not overlap.)

    Examples
    --------
    "[the leader of [the party]] met [him]": the inner mention is left out.

    >>> from clusteragree.coref import Mention
    >>> d = CorefDocument("d", tuple("the leader of the party met him".split()),
    ...                   (Mention(((0, 5),), "1"), Mention(((3, 5),), "2"),
    ...                    Mention(((6, 7),), "1")))
    >>> mention_units(d)
    ([(0, 5), (6, 7)], 1, 0)
    """
    frame = pd.DataFrame({"start": [m.start for m in document.mentions],
                          "end": [m.end for m in document.mentions]}, dtype=np.int64)
    units, nested, crossing = outermost_units(frame)
    return list(zip(units["start"].tolist(), units["end"].tolist(), strict=True)), nested, \
        crossing


def mentions_u_alpha(corpora: Sequence[CorefCorpus], *,
                     coders: Sequence[Hashable] | None = None, lenient: bool = False,
                     per_document: bool = False) -> pd.DataFrame:
    """Unitizing alpha of the annotators' mentions, pooled over the shared documents.

    Pooled, the documents are one continuum, one after another, with no gap running from one
    document into the next (:class:`~clusteragree.core.unitizing.UnitizingStats` add); like
    alpha, the pooled value is not the mean of the documents'.

    Parameters
    ----------
    corpora : sequence of CorefCorpus
        Two or more annotators' corpora.
    coders : sequence, optional
        The annotators' names (default: the corpora's paths, made unique).
    lenient : bool, default=False
        Leave out documents missing from some corpora
        (:func:`~clusteragree.coref.scoring.match_documents`).
    per_document : bool, default=False
        Also a row per document after the pooled row.

    Returns
    -------
    DataFrame
        ``document`` (None for the pooled row), ``alpha``, ``D_o``, ``D_e``, ``units`` (the
        mentions counted, every annotator), ``tokens`` (the continuum's length) and
        ``coders``.

    Raises
    ------
    InputError, ParameterError
        As :func:`~clusteragree.coref.scoring.match_documents`.

    References
    ----------
    Krippendorff, K. (1995). On the reliability of unitizing continuous data. Sociological
    Methodology 25, 47-76.

    Examples
    --------
    Ten tokens; A marks [0, 2) and [5, 8), B marks [0, 2) and [5, 7): one boundary one token
    apart, D_o = 2 x (0^2 + 1^2) / (2 x 1 x 10^2) = 0.01:

    >>> from clusteragree.coref import parse_conll
    >>> def annotator(path, cells):
    ...     rows = [f"d 0 {i} w{i} {c}" for i, c in enumerate(cells)]
    ...     return parse_conll(["#begin document d", *rows, "#end document"], path)
    >>> a = annotator("a", ["(1", "1)", "-", "-", "-", "(2", "-", "2)", "-", "-"])
    >>> b = annotator("b", ["(1", "1)", "-", "-", "-", "(2", "2)", "-", "-", "-"])
    >>> row = mentions_u_alpha([a, b]).iloc[0]
    >>> round(float(row.D_o), 4), int(row.units), int(row.tokens)
    (0.01, 4, 10)
    """
    check_corpora(corpora)
    names = list(coders) if coders else unique_labels([c.path for c in corpora])
    common, _ = match_documents(corpora, lenient=lenient)
    nested = crossing = 0
    per_doc: dict[str, UnitizingStats] = {}
    counted: dict[str, int] = {}
    for n in common:
        units = []
        for name, corpus in zip(names, corpora, strict=True):
            found, inner, crossed = mention_units(corpus.documents[n])
            nested, crossing = nested + inner, crossing + crossed
            units += [(name, start, end, "mention") for start, end in found]
        length = len(corpora[0].documents[n].tokens)
        per_doc[n] = unitizing_stats(units, length, raters=names, categories=["mention"])
        counted[n] = len(units)
    if nested:
        notify("note", "mentions inside another mention of the same annotator left out of "
               "u-alpha (it needs units that do not overlap)", count=nested)
    if crossing:
        notify("merged", "mentions that cross another mention of the same annotator joined "
               "with it for u-alpha", count=crossing)
    docs = list(per_doc)
    total = sum((per_doc[d] for d in docs[1:]), per_doc[docs[0]])
    rows = [_row(None, total, sum(counted.values()))]
    if per_document:
        rows += [_row(d, per_doc[d], counted[d]) for d in docs]
    return pd.DataFrame(rows)


def _row(document: str | None, stats: UnitizingStats, units: int) -> dict:
    d_o, d_e = stats.disagreements("mention")
    return {"document": document, "alpha": stats.alpha("mention"), "D_o": d_o, "D_e": d_e,
            "units": units, "tokens": stats.length, "coders": len(stats.raters)}
