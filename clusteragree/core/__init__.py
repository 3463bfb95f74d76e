"""The core: the coding table, distances, both alpha engines, additive statistics and the kappa
family. It knows no file format and no domain."""

from __future__ import annotations

from .alpha import alpha, alpha_many, alpha_stats, as_table, choose_engine
from .alpha_classes import CardinalityStats, class_stats
from .alpha_generic import ValueStats, value_stats
from .convert import first_difference, memberships_table
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
from .frames import COLUMNS, TOTAL, alpha_report, pooled_rows, results_frame
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

__all__ = [
    'COLUMNS',
    'DEFAULT_DISTANCES',
    'DISTANCES',
    'TOTAL',
    'AlphaResult',
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
    'choose_engine',
    'class_stats',
    'cohen_kappa',
    'dice',
    'first_difference',
    'fleiss_pi',
    'format_signature',
    'get_distance',
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
    'passonneau2004',
    'pooled_rows',
    'ratio',
    'require_records',
    'results_frame',
    'scott_pi',
    'set_distance',
    'unique_labels',
    'value_stats'
]
