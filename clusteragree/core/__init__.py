"""The core: the coding table, distances, both alpha engines, additive statistics and the kappa
family. It knows no file format and no domain.

Names are loaded on first use (the command line starts without numpy and pandas)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:
    from .alpha_classes import CardinalityStats, class_stats
    from .alpha_generic import ValueStats, value_stats
    from .bootstrap import (
        RESAMPLE,
        BlockStats,
        Bootstrap,
        block_stats,
        bootstrap_alpha,
        reweighted_alpha,
    )
    from .coefficient import alpha, alpha_many, alpha_stats, as_table, choose_engine
    from .convert import memberships_table
    from .crosstab import contingency, groups, sum_by_key
    from .distances import (
        DEFAULT_DISTANCES,
        DISTANCES,
        Distance,
        DistanceLike,
        as_numbers,
        dice,
        get_distance,
        interval,
        jaccard,
        masi,
        masi_dkpro,
        masi_nltk_legacy,
        nominal,
        passonneau2004,
        ratio,
        set_distance,
    )
    from .frames import COLUMNS, TOTAL, alpha_report, pairwise_report, pooled_rows, results_frame
    from .kappa import (
        bennett_s,
        cohen_kappa,
        fleiss_pi,
        multi_kappa,
        observed_agreement,
        pairwise,
        scott_pi,
    )
    from .model import CodingTable, is_missing, require_records, unique_labels
    from .result import AlphaResult, alpha_from_sums, format_signature
    from .text import first_difference

_WHERE = {
    'AlphaResult': '.result',
    'COLUMNS': '.frames',
    'CardinalityStats': '.alpha_classes',
    'CodingTable': '.model',
    'DEFAULT_DISTANCES': '.distances',
    'DISTANCES': '.distances',
    'Distance': '.distances',
    'DistanceLike': '.distances',
    'TOTAL': '.frames',
    'ValueStats': '.alpha_generic',
    'alpha': '.coefficient',
    'alpha_from_sums': '.result',
    'alpha_many': '.coefficient',
    'alpha_report': '.frames',
    'alpha_stats': '.coefficient',
    'as_numbers': '.distances',
    'as_table': '.coefficient',
    'bennett_s': '.kappa',
    'choose_engine': '.coefficient',
    'class_stats': '.alpha_classes',
    'cohen_kappa': '.kappa',
    'RESAMPLE': '.bootstrap',
    'BlockStats': '.bootstrap',
    'Bootstrap': '.bootstrap',
    'block_stats': '.bootstrap',
    'bootstrap_alpha': '.bootstrap',
    'reweighted_alpha': '.bootstrap',
    'contingency': '.crosstab',
    'sum_by_key': '.crosstab',
    'dice': '.distances',
    'first_difference': '.text',
    'fleiss_pi': '.kappa',
    'format_signature': '.result',
    'get_distance': '.distances',
    'groups': '.crosstab',
    'interval': '.distances',
    'is_missing': '.model',
    'jaccard': '.distances',
    'masi': '.distances',
    'masi_dkpro': '.distances',
    'masi_nltk_legacy': '.distances',
    'memberships_table': '.convert',
    'multi_kappa': '.kappa',
    'nominal': '.distances',
    'observed_agreement': '.kappa',
    'pairwise': '.kappa',
    'passonneau2004': '.distances',
    'pairwise_report': '.frames',
    'pooled_rows': '.frames',
    'ratio': '.distances',
    'require_records': '.model',
    'results_frame': '.frames',
    'scott_pi': '.kappa',
    'set_distance': '.distances',
    'unique_labels': '.model',
    'value_stats': '.alpha_generic',
}
__getattr__, __dir__ = attach(__name__, _WHERE)

__all__ = [
    'COLUMNS',
    'DEFAULT_DISTANCES',
    'DISTANCES',
    'RESAMPLE',
    'TOTAL',
    'AlphaResult',
    'BlockStats',
    'Bootstrap',
    'CardinalityStats',
    'CodingTable',
    'Distance',
    'DistanceLike',
    'ValueStats',
    'alpha',
    'alpha_from_sums',
    'alpha_many',
    'alpha_report',
    'alpha_stats',
    'as_numbers',
    'as_table',
    'bennett_s',
    'block_stats',
    'bootstrap_alpha',
    'choose_engine',
    'class_stats',
    'cohen_kappa',
    'contingency',
    'dice',
    'first_difference',
    'fleiss_pi',
    'format_signature',
    'get_distance',
    'groups',
    'interval',
    'is_missing',
    'jaccard',
    'masi',
    'masi_dkpro',
    'masi_nltk_legacy',
    'memberships_table',
    'multi_kappa',
    'nominal',
    'observed_agreement',
    'pairwise',
    'pairwise_report',
    'passonneau2004',
    'pooled_rows',
    'ratio',
    'require_records',
    'results_frame',
    'reweighted_alpha',
    'scott_pi',
    'set_distance',
    'sum_by_key',
    'unique_labels',
    'value_stats'
]
