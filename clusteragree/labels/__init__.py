"""Multi-label data: the model and readers, augmented kappa, A_m, multi-valued alpha, and the
codings CSV reader of ``clusteragree table``."""

from __future__ import annotations

from .augmented_kappa import (
    AugmentedKappa,
    augmented_kappa,
    item_classes,
    kappa_sweep,
    weight_matrix,
)
from .bhowmick import (
    AmResult,
    a_m,
    a_m_pairwise,
    agreement_bins,
    category_confusion,
    category_disagreement,
    gold_standard,
)
from .measures import measures_table
from .model import MultiLabel, require_multilabel
from .mvalpha import MvAlpha, mv_alpha
from .reader import read_multilabel
from .table import LongTable, read_long_table

__all__ = [
    'AmResult', 'AugmentedKappa', 'LongTable', 'MultiLabel', 'MvAlpha', 'a_m', 'a_m_pairwise',
    'agreement_bins', 'augmented_kappa', 'category_confusion', 'category_disagreement',
    'gold_standard', 'item_classes', 'kappa_sweep', 'measures_table', 'mv_alpha',
    'read_long_table', 'read_multilabel', 'require_multilabel', 'weight_matrix'
]
