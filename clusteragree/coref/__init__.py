"""Coreference: the chains model, the CoNLL, CorefUD and BRAT readers, alpha over mentions or
words, unitizing alpha over the mentions, the standard metrics (MUC, B-cubed, CEAF, BLANC, LEA),
and where two annotations differ (Kummerfeld and Klein's categories).

Names are loaded on first use (the command line starts without numpy and pandas)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:
    from .agreement import coref_alpha, coref_tables
    from .brat import read_brat, read_brat_dir
    from .conll import parse_conll, read_conll
    from .corefud import read_corefud
    from .errors import (
        ERROR_KINDS,
        CorefDifference,
        coref_differences,
        document_errors,
        error_counts,
    )
    from .exports import corpora_from_export, export_from_corpus
    from .intervals import metric_intervals, reweighted
    from .metrics import BlancCounts, Counts, add, score
    from .model import CONLL_AVERAGE, METRICS, CorefCorpus, CorefDocument, Mention, unique_mentions
    from .scoring import coref_metrics, match_documents
    from .unitizing import mention_units, mentions_u_alpha

_WHERE = {
    'ERROR_KINDS': '.errors',
    'CorefDifference': '.errors',
    'coref_differences': '.errors',
    'document_errors': '.errors',
    'error_counts': '.errors',
    'BlancCounts': '.metrics',
    'CONLL_AVERAGE': '.model',
    'CorefCorpus': '.model',
    'CorefDocument': '.model',
    'Counts': '.metrics',
    'METRICS': '.model',
    'Mention': '.model',
    'add': '.metrics',
    'coref_alpha': '.agreement',
    'coref_metrics': '.scoring',
    'coref_tables': '.agreement',
    'corpora_from_export': '.exports',
    'export_from_corpus': '.exports',
    'match_documents': '.scoring',
    'mention_units': '.unitizing',
    'mentions_u_alpha': '.unitizing',
    'metric_intervals': '.intervals',
    'parse_conll': '.conll',
    'read_brat': '.brat',
    'read_brat_dir': '.brat',
    'read_conll': '.conll',
    'read_corefud': '.corefud',
    'reweighted': '.intervals',
    'score': '.metrics',
    'unique_mentions': '.model',
}
__getattr__, __dir__ = attach(__name__, _WHERE)

__all__ = [
    'CONLL_AVERAGE',
    'ERROR_KINDS',
    'METRICS',
    'BlancCounts',
    'CorefCorpus',
    'CorefDifference',
    'CorefDocument',
    'Counts',
    'Mention',
    'add',
    'coref_alpha',
    'coref_differences',
    'coref_metrics',
    'coref_tables',
    'corpora_from_export',
    'document_errors',
    'error_counts',
    'export_from_corpus',
    'match_documents',
    'mention_units',
    'mentions_u_alpha',
    'metric_intervals',
    'parse_conll',
    'read_brat',
    'read_brat_dir',
    'read_conll',
    'read_corefud',
    'reweighted',
    'score',
    'unique_mentions'
]
