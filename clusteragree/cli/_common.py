"""Helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import os
import sys

from ..distances import get_distance
from ..errors import ParameterError
from ..report import FORMATS

__all__ = ["add_output", "distance_list", "report_files"]


def distance_list(text: str) -> list[str]:
    """Comma-separated distance names, checked (an argparse type)."""
    names = [t.strip() for t in text.split(",") if t.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give at least one distance")
    try:
        return [get_distance(name).name for name in names]
    except ParameterError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_output(parser: argparse.ArgumentParser) -> None:
    """``-f/--format``, with the CLUSTERAGREE_FORMAT environment override."""
    env = os.environ.get("CLUSTERAGREE_FORMAT")
    parser.add_argument(
        "-f", "--format", choices=FORMATS, default=env if env in FORMATS else "text",
        help="output format (default: %(default)s; env CLUSTERAGREE_FORMAT)",
    )


def report_files(repairs: dict[str, dict[str, int]], notes: dict[str, dict[str, int]]) -> None:
    """Print what was repaired or noted in each input file on stderr."""
    for path, done in repairs.items():
        for what, count in done.items():
            print(f"{path}: repaired: {count} x {what}", file=sys.stderr)
    for path, seen in notes.items():
        for what, count in seen.items():
            print(f"{path}: note: {count} {what} (kept as annotated)", file=sys.stderr)
