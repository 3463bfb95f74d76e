"""What each span measure is given: the measures' names, the spans of one value per position,
and the units of the 1995/2004 unitizing alpha.

References
----------
docs/spans.md, "One run, every measure".
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np
import pandas as pd

from ..core.spans import SpanCorpus, outermost_units
from ..core.unitizing import UnitizingStats, unitizing_stats
from ..errors import notify

__all__ = ["GAMMA_MEASURES", "LENGTH_MEASURES", "MEASURES", "NAMES", "flat_spans",
           "unitizing_statistics"]

#: The measures, by name: matching F1, token-level kappa and alpha, Krippendorff's (1995,
#: 2004) unitizing alpha, the 2016 family (u-alpha, |u-alpha, cu-alpha, (k)u-alpha), gamma,
#: gamma-cat and gamma-k (Mathet 2017: the categories of the aligned units, over all and per
#: category).
MEASURES = ("f1", "tokens", "ualpha", "ualpha2016", "gamma", "gamma-cat", "gamma-k")
#: The measures that need each document's length.
LENGTH_MEASURES = ("tokens", "ualpha", "ualpha2016")
#: What each measure is called in messages.
NAMES = {"f1": "matching F1", "tokens": "token-level agreement",
         "ualpha": "unitizing alpha (1995/2004)", "ualpha2016": "the 2016 unitizing alphas",
         "gamma": "gamma", "gamma-cat": "gamma-cat", "gamma-k": "gamma-k"}
#: The measures of the gamma family (one alignment, one set of samples).
GAMMA_MEASURES = ("gamma", "gamma-cat", "gamma-k")


def flat_spans(corpus: SpanCorpus, measure: str) -> pd.DataFrame:
    """The spans a measure of one value per position takes (the token tags, the 2016
    unitizing alphas): non-empty, whole-number, and per annotator the first of each run of
    overlapping spans (by start, longest first), the others left out (a ``note``).

    Examples
    --------
    >>> from clusteragree.core.spans import span_corpus
    >>> c = span_corpus([("A", "d", 0, 5, "x"), ("A", "d", 2, 3, "y"), ("B", "d", 0, 5, "x")],
    ...                 lengths={"d": 9})
    >>> flat_spans(c, "tokens")[["annotator", "start", "end", "label"]].values.tolist()
    [['A', 0, 5, 'x'], ['B', 0, 5, 'x']]
    """
    marked = corpus.nonempty(measure)
    marked.need_whole(measure)
    frame = marked.core_frame()
    order = np.lexsort((-frame["end"].to_numpy(), frame["start"].to_numpy(),
                        pd.factorize(frame["document"])[0],
                        pd.factorize(frame["annotator"])[0]))
    frame = frame.iloc[order]
    group = (frame["annotator"].astype(str) + "\x00" + frame["document"].astype(str)).to_numpy()
    start, end = frame["start"].to_numpy(), frame["end"].to_numpy()
    keep = np.ones(len(frame), dtype=bool)
    reach = -1
    for i in range(len(frame)):
        if i and group[i] != group[i - 1]:
            reach = -1
        if start[i] < reach:
            keep[i] = False
        else:
            reach = end[i]
    dropped = int((~keep).sum())
    if dropped:
        notify("note", f"spans that overlap an earlier span of their annotator are left out of "
               f"{measure} (one value per position; matching F1 and gamma take them)",
               count=dropped)
    return frame[keep].sort_index()


def unitizing_statistics(corpus: SpanCorpus
                         ) -> tuple[dict[Hashable, UnitizingStats], list[Hashable]]:
    """Each document's statistics of the 1995/2004 unitizing alpha, and the categories (see
    :func:`unitizing_rows` for the units taken)."""
    marked = corpus.nonempty(NAMES["ualpha"])
    marked.need_whole(NAMES["ualpha"])
    lengths = corpus.lengths or {}
    frame = marked.core_frame()
    labels = list(dict.fromkeys(frame["label"]))
    nested = crossing = 0
    stats: dict[Hashable, UnitizingStats] = {}
    for doc in corpus.documents:
        mine = frame[frame["document"] == doc]
        units = []
        for (who, label), group in mine.groupby(["annotator", "label"], sort=False):
            found, inner, crossed = outermost_units(group)
            nested, crossing = nested + inner, crossing + crossed
            units += [(who, int(s), int(e), label)
                      for s, e in zip(found["start"], found["end"], strict=True)]
        stats[doc] = unitizing_stats(units, lengths[doc], raters=corpus.annotators,
                                     categories=labels)
    notify("note", "spans inside another span of their annotator and category left out of "
           "unitizing alpha (it needs units that do not overlap)", count=nested,
           once=("nested", "ualpha"))
    notify("merged", "spans that cross another span of their annotator and category joined "
           "with it for unitizing alpha", count=crossing, once=("crossing", "ualpha"))
    return stats, labels
