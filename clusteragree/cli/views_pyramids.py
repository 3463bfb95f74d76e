"""The pyramids view of ``clusteragree report pyramid A.pyr B.pyr``: the two pyramids the
command read (``--align``, which the report switches on for two files), as the view data of
:func:`clusteragree.pyramids.sidebyside.pyramid_view`."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["pyramid_views"]


def pyramid_views(inner: argparse.Namespace, envelope: dict[str, Any]) -> dict[str, Any] | None:
    """The pyramids view of a report on ``clusteragree pyramid`` with two pyramid files.

    Parameters
    ----------
    inner : argparse.Namespace
        The parsed arguments of ``clusteragree pyramid`` after the command ran: ``pyramids``
        (what it read), ``--names``, ``--tokenizer``.
    envelope : dict
        The command's JSON output (its ``meta.annotators`` names the sides when ``--names``
        is not given).

    Returns
    -------
    dict or None
        The view (kind ``"pyramids"``), or None when the command did not read two pyramids.
    """
    from ..pyramids.sidebyside import pyramid_view
    from ._common import check_names
    pyramids = getattr(inner, "pyramids", None)
    if getattr(inner, "command", None) != "pyramid" or not pyramids or len(pyramids) != 2:
        return None
    names = check_names(inner.names, 2) or envelope.get("meta", {}).get("annotators")
    if not (isinstance(names, list) and len(names) == 2):
        names = None  # named after the files, as the agreement tables name them
    return pyramid_view(pyramids[0], pyramids[1], tokenizer=inner.tokenizer,
                        annotators=[str(n) for n in names] if names else None)
