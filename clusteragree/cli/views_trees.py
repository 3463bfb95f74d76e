"""The report's trees view from what the ``trees`` command read and computed."""

from __future__ import annotations

import argparse
from typing import Any


def tree_views(inner: argparse.Namespace, envelope: dict[str, Any]) -> dict[str, Any] | None:
    """The view of the sentences whose trees differ (kind ``"trees"``), or None.

    Parameters
    ----------
    inner : argparse.Namespace
        The parsed ``trees`` arguments after the command ran: ``tree_annotations`` (what it
        read) and ``tree_cache`` (the edit distances it computed, with its costs).
    envelope : dict
        The command's JSON output (its ``meta.annotators`` order the rows, when given).

    Returns
    -------
    dict or None
        :func:`clusteragree.trees.sidebyside.tree_view` with the command's costs
        (``--unit-root``, ``--max-cells``) and ``--unlabelled``; None when no two trees differ.
    """
    from ..trees.sidebyside import tree_view
    annotations = inner.tree_annotations
    names = [str(n) for n in (envelope.get("meta", {}).get("annotators") or [])]
    order = names if sorted(names) == sorted(annotations.sentences) else list(
        annotations.sentences)
    pairs = [(a, b) for i, a in enumerate(order) for b in order[i + 1:]]
    return tree_view(annotations, pairs, labelled=not inner.unlabelled,
                     free_empty=not inner.unit_root, cache=inner.tree_cache)
