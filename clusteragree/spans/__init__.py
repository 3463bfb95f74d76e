"""Spans: positioned units (document, start, end, label) of several annotators, read from
plain tables, pygamma-agreement's CSV and BRAT, and every span measure on them in one run
(matching F1, token-level kappa and alpha, Krippendorff's unitizing alphas, gamma), and the
report's view of them side by side (``span_view``).

The engines are in the core (``clusteragree.core.span_match``, ``span_tokens``,
``unitizing``, ``alignment``, ``gamma``) so that the coreference and pyramid domains hand
their mentions and contributors to the same measures (``clusteragree.coref.spans``,
``clusteragree.pyramids.spans``).

Names are loaded on first use (the command line starts without numpy and pandas)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:
    from .brat import FRAGMENTS, read_brat_spans
    from .readers import read_lengths, read_pygamma_csv, read_span_table, read_texts
    from .reading import SPAN_FORMATS, read_spans
    from .sidebyside import span_view

_WHERE = {
    'FRAGMENTS': '.brat',
    'SPAN_FORMATS': '.reading',
    'read_brat_spans': '.brat',
    'read_lengths': '.readers',
    'read_pygamma_csv': '.readers',
    'read_span_table': '.readers',
    'read_spans': '.reading',
    'read_texts': '.readers',
    'span_view': '.sidebyside',
}
__getattr__, __dir__ = attach(__name__, _WHERE)

__all__ = [
    'FRAGMENTS', 'SPAN_FORMATS', 'read_brat_spans', 'read_lengths', 'read_pygamma_csv',
    'read_span_table', 'read_spans', 'read_texts', 'span_view',
]
