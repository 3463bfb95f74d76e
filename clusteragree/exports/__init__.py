"""What annotation tools export (INCEpTION/WebAnno, Label Studio, doccano, Prodigy), read into
one neutral shape (:class:`~clusteragree.exports.model.Export` of annotated documents) that the
domains adapt to their models; and the writers of the formats other tools read.

This package imports the input layer only (no domain, no core)."""

from __future__ import annotations

from .model import AnnotatedDocument, Chain, DocumentLabel, Export, Relation, Span, connected_chains
from .offsets import UNITS, OffsetCheck, convert_offsets, resolve_offsets

__all__ = ["UNITS", "AnnotatedDocument", "Chain", "DocumentLabel", "Export", "OffsetCheck",
           "Relation", "Span", "connected_chains", "convert_offsets", "resolve_offsets"]
