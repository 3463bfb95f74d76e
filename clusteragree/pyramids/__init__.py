"""Pyramids: the DUCView model and reader, units and policies, agreement between pyramids and
between peer annotators, pyramid scores.

Names are loaded on first use (the command line starts without numpy and pandas)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:
    from .agreement import (
        PanSet,
        load_pans,
        pan_agreement,
        pan_scores,
        pyramid_agreement,
        pyramid_score,
        pyramid_table,
    )
    from .alignment import ScuAlignment, align_scus, overlap_matrix
    from .intervals import resampled_correlations, score_intervals
    from .model import SCU, Contributor, Part, PeerAnnotation, Pyramid, Summary
    from .reader import HEADER_PATTERN, read_ducview, read_pan, read_pyramid
    from .sidebyside import STATUSES, pyramid_view
    from .simulate import Noise, second_annotator
    from .units import (
        TOKENIZERS,
        Units,
        check_same_text,
        contributor_units,
        span_units,
        tokens,
        word_units,
    )
    from .writers import DTD, NIST_REGEX, PAN_DTD, build_pyramid, pan_xml, pyramid_xml

_WHERE = {
    'overlap_matrix': '.alignment',
    'align_scus': '.alignment',
    'ScuAlignment': '.alignment',
    'resampled_correlations': '.intervals',
    'score_intervals': '.intervals',
    'Contributor': '.model',
    'DTD': '.writers',
    'HEADER_PATTERN': '.reader',
    'NIST_REGEX': '.writers',
    'Noise': '.simulate',
    'PAN_DTD': '.writers',
    'PanSet': '.agreement',
    'Part': '.model',
    'PeerAnnotation': '.model',
    'Pyramid': '.model',
    'SCU': '.model',
    'STATUSES': '.sidebyside',
    'Summary': '.model',
    'TOKENIZERS': '.units',
    'Units': '.units',
    'build_pyramid': '.writers',
    'check_same_text': '.units',
    'contributor_units': '.units',
    'load_pans': '.agreement',
    'pan_agreement': '.agreement',
    'pan_scores': '.agreement',
    'pan_xml': '.writers',
    'pyramid_agreement': '.agreement',
    'pyramid_score': '.agreement',
    'pyramid_table': '.agreement',
    'pyramid_view': '.sidebyside',
    'pyramid_xml': '.writers',
    'read_ducview': '.reader',
    'read_pan': '.reader',
    'read_pyramid': '.reader',
    'second_annotator': '.simulate',
    'span_units': '.units',
    'tokens': '.units',
    'word_units': '.units',
}
__getattr__, __dir__ = attach(__name__, _WHERE)

__all__ = [
    'DTD',
    'HEADER_PATTERN',
    'NIST_REGEX',
    'PAN_DTD',
    'SCU',
    'STATUSES',
    'TOKENIZERS',
    'Contributor',
    'Noise',
    'PanSet',
    'Part',
    'PeerAnnotation',
    'Pyramid',
    'ScuAlignment',
    'Summary',
    'Units',
    'align_scus',
    'build_pyramid',
    'check_same_text',
    'contributor_units',
    'load_pans',
    'overlap_matrix',
    'pan_agreement',
    'pan_scores',
    'pan_xml',
    'pyramid_agreement',
    'pyramid_score',
    'pyramid_table',
    'pyramid_view',
    'pyramid_xml',
    'read_ducview',
    'read_pan',
    'read_pyramid',
    'resampled_correlations',
    'score_intervals',
    'second_annotator',
    'span_units',
    'tokens',
    'word_units'
]
