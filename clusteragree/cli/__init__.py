"""Command line: ``clusteragree SUBCOMMAND ...``; wiring only, the work is in the library.

Results go to stdout, warnings and errors to stderr. Exit status: 0 success, 1 bad input
(the message starts with ``FILE:LINE:``), 2 bad usage. One module per subcommand.
"""

from __future__ import annotations

import argparse
import signal
import sys
import warnings
from collections.abc import Sequence
from typing import Any

from .._version import __version__
from ..errors import ClusterAgreeError, InputError, ParameterError
from . import coref, pyramid, table, trees

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``clusteragree`` command."""
    parser = argparse.ArgumentParser(
        prog="clusteragree",
        description="Inter-annotator agreement on clusters, label sets and trees.",
    )
    parser.add_argument("--version", action="version", version=f"clusteragree {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for module in (table, pyramid, coref, trees):
        module.register(sub)
    return parser


def _show_warning(message: Any, category: Any, *rest: Any, **kwargs: Any) -> None:
    print(f"warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``clusteragree`` command; returns the exit status."""
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    parser = build_parser()
    args = parser.parse_args(argv)
    warnings.showwarning = _show_warning
    try:
        return int(args.run(args))
    except InputError as err:
        print(f"{err}", file=sys.stderr)
        return 1
    except ParameterError as err:
        parser.error(str(err))
    except ClusterAgreeError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0  # pragma: no cover
