"""The pyramids view of ``clusteragree report pyramid A.pyr B.pyr``: the two pyramids read as
``clusteragree pyramid`` reads them, and the view data of
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
        The parsed arguments of ``clusteragree pyramid`` (files, ``--names``,
        ``--tokenizer``, ``--encoding``, ``--strict``).
    envelope : dict
        The command's JSON output (its ``meta.annotators`` names the sides when ``--names``
        is not given).

    Returns
    -------
    dict or None
        The view (kind ``"pyramids"``), or None when the command is not ``pyramid`` on two
        files.

    Notes
    -----
    The command has already read the files and reported their repairs and notes; they are
    read again here inside a ledger of their own, so that the run's ledger counts each once.
    """
    from ..errors import Ledger
    from ..pyramids.reader import read_pyramid
    from ..pyramids.sidebyside import pyramid_view
    from ._common import check_names
    if getattr(inner, "command", None) != "pyramid" or len(inner.files) != 2:
        return None
    with Ledger(strict=inner.strict):  # already reported by the command itself
        pyramids = [read_pyramid(f, strict=inner.strict, encoding=inner.encoding)
                    for f in inner.files]
    names = check_names(inner.names, 2) or envelope.get("meta", {}).get("annotators")
    if not (isinstance(names, list) and len(names) == 2):
        names = None  # named after the files, as the agreement tables name them
    return pyramid_view(pyramids[0], pyramids[1], tokenizer=inner.tokenizer,
                        annotators=[str(n) for n in names] if names else None)
