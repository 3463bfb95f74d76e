"""The report's trees view from the ``trees`` command's arguments (the lead's report calls
:func:`tree_views`)."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import UsageError


def tree_views(inner: argparse.Namespace, envelope: dict[str, Any]) -> dict[str, Any] | None:
    """The view of the sentences whose trees differ (kind ``"trees"``), or None.

    Parameters
    ----------
    inner : argparse.Namespace
        The parsed ``trees`` arguments; ``inner.tree_annotations`` where the command ran and
        set it, else the files are read again (their notices were the command's).
    envelope : dict
        The command's JSON output (its ``meta.annotators`` order the rows, when given).

    Returns
    -------
    dict or None
        :func:`clusteragree.trees.sidebyside.tree_view` with the command's costs
        (``--unit-root``, ``--max-cells``) and ``--unlabelled``; None when no two trees differ.
    """
    from ..errors import Ledger
    from ..trees.edit_distance import TreeCache
    from ..trees.readers import read_tree_annotations
    from ..trees.sidebyside import tree_view
    annotations = getattr(inner, "tree_annotations", None)  # what the command read
    if annotations is None:
        if inner.dirs and inner.files:
            raise UsageError("give paired files or --dirs, not both")
        with Ledger():  # read again: its notices are those the command reported
            annotations = read_tree_annotations(
                inner.files, dirs=inner.dirs or (), names=inner.names, roots=inner.roots,
                cycles=inner.cycles, words=inner.words, encoding=inner.encoding,
                input_format=inner.input_format)
    names = [str(n) for n in (envelope.get("meta", {}).get("annotators") or [])]
    order = names if sorted(names) == sorted(annotations.sentences) else list(
        annotations.sentences)
    pairs = [(a, b) for i, a in enumerate(order) for b in order[i + 1:]]
    cache = TreeCache(free_empty=not inner.unit_root, max_cells=inner.max_cells)
    return tree_view(annotations, pairs, labelled=not inner.unlabelled,
                     free_empty=not inner.unit_root, cache=cache)
