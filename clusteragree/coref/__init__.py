"""Coreference: the chains model, the CoNLL, CorefUD and BRAT readers, alpha over mentions or
words, and the standard metrics (MUC, B-cubed, CEAF, BLANC, LEA)."""

from __future__ import annotations

from .agreement import coref_alpha, coref_metrics, coref_tables, match_documents
from .brat import read_brat, read_brat_dir
from .conll import parse_conll, read_conll
from .corefud import read_corefud
from .metrics import METRICS, BlancCounts, Counts, add, score
from .model import CorefCorpus, CorefDocument, Mention, unique_mentions

__all__ = [
    'METRICS',
    'BlancCounts',
    'CorefCorpus',
    'CorefDocument',
    'Counts',
    'Mention',
    'add',
    'coref_alpha',
    'coref_metrics',
    'coref_tables',
    'match_documents',
    'parse_conll',
    'read_brat',
    'read_brat_dir',
    'read_conll',
    'read_corefud',
    'score',
    'unique_mentions'
]
