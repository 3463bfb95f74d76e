"""The coreference view of ``clusteragree report coref``: the corpora the command read, as
:func:`clusteragree.coref.sidebyside.chain_views` data."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["coref_views"]


def coref_views(inner: argparse.Namespace, envelope: dict[str, Any]) -> dict[str, Any] | None:
    """Every shared document of the command's inputs side by side (None with one input)."""
    from ..coref.sidebyside import chain_views
    corpora = inner.coref_corpora  # what the command read
    if len(corpora) < 2:
        return None
    names = envelope.get("meta", {}).get("annotators") or list(inner.files)
    return chain_views(corpora, [str(n) for n in names], lenient=inner.lenient,
                       singletons=inner.singletons)
