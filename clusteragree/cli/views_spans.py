"""The spans view of ``clusteragree report spans``: what the command read and computed (it
keeps its :class:`~clusteragree.spans.agreement.SpanResults` in ``args.span_results``), as the
view data of :func:`clusteragree.spans.sidebyside.span_view`."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["span_views"]


def span_views(inner: argparse.Namespace) -> dict[str, Any] | None:
    """The spans view of a report on ``clusteragree spans``.

    Parameters
    ----------
    inner : argparse.Namespace
        The parsed arguments of ``clusteragree spans`` after the command ran (the report
        switches on ``--per-doc``, whose figures order the documents, and ``--alignment``).

    Returns
    -------
    dict or None
        The view (kind ``"spans"``), or None when the command kept no results.
    """
    from ..spans.sidebyside import span_view
    results = getattr(inner, "span_results", None)
    return None if results is None else span_view(results)
