"""Multi-label data: the model and readers, augmented kappa, A_m, multi-valued alpha, and the
codings CSV reader of ``clusteragree table``.

Names are loaded on first use (the command line starts without numpy and pandas)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:
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
    from .rosenberg_binkowski import (
        AugmentedKappa,
        augmented_kappa,
        item_classes,
        kappa_sweep,
        weight_matrix,
    )
    from .table import LongTable, read_long_table

_WHERE = {
    'AmResult': '.bhowmick',
    'AugmentedKappa': '.rosenberg_binkowski',
    'LongTable': '.table',
    'MultiLabel': '.model',
    'MvAlpha': '.mvalpha',
    'a_m': '.bhowmick',
    'a_m_pairwise': '.bhowmick',
    'agreement_bins': '.bhowmick',
    'augmented_kappa': '.rosenberg_binkowski',
    'category_confusion': '.bhowmick',
    'category_disagreement': '.bhowmick',
    'gold_standard': '.bhowmick',
    'item_classes': '.rosenberg_binkowski',
    'kappa_sweep': '.rosenberg_binkowski',
    'measures_table': '.measures',
    'mv_alpha': '.mvalpha',
    'read_long_table': '.table',
    'read_multilabel': '.reader',
    'require_multilabel': '.model',
    'weight_matrix': '.rosenberg_binkowski',
}
__getattr__, __dir__ = attach(__name__, _WHERE)

__all__ = [
    'AmResult', 'AugmentedKappa', 'LongTable', 'MultiLabel', 'MvAlpha', 'a_m', 'a_m_pairwise',
    'agreement_bins', 'augmented_kappa', 'category_confusion', 'category_disagreement',
    'gold_standard', 'item_classes', 'kappa_sweep', 'measures_table', 'mv_alpha',
    'read_long_table', 'read_multilabel', 'require_multilabel', 'weight_matrix'
]
