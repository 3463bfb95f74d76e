"""Pyramids: the DUCView model and reader, units and policies, agreement between pyramids and
between peer annotators, pyramid scores."""

from __future__ import annotations

from .agreement import (
    PanSet,
    load_pans,
    pan_agreement,
    pan_scores,
    pyramid_agreement,
    pyramid_score,
    pyramid_table,
)
from .model import SCU, Contributor, Part, PeerAnnotation, Pyramid, Summary
from .reader import HEADER_PATTERN, read_ducview, read_pan, read_pyramid
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

__all__ = [
    'DTD',
    'HEADER_PATTERN',
    'NIST_REGEX',
    'PAN_DTD',
    'SCU',
    'TOKENIZERS',
    'Contributor',
    'Noise',
    'PanSet',
    'Part',
    'PeerAnnotation',
    'Pyramid',
    'Summary',
    'Units',
    'build_pyramid',
    'check_same_text',
    'contributor_units',
    'load_pans',
    'pan_agreement',
    'pan_scores',
    'pan_xml',
    'pyramid_agreement',
    'pyramid_score',
    'pyramid_table',
    'pyramid_xml',
    'read_ducview',
    'read_pan',
    'read_pyramid',
    'second_annotator',
    'span_units',
    'tokens',
    'word_units'
]
