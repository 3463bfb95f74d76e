"""Helpers shared by the subcommands: the common options and JSON output."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
from typing import Any

from ..core.distances import get_distance
from ..errors import Ledger, Notice, ParameterError
from ..inputs import check_encoding
from ..report import FORMATS

__all__ = ["add_common", "distance_list", "print_json"]


def distance_list(text: str) -> list[str]:
    """Comma-separated distance names, checked (an argparse type)."""
    names = [t.strip() for t in text.split(",") if t.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give at least one distance")
    try:
        return [get_distance(name).name for name in names]
    except ParameterError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _encoding(text: str) -> str:
    try:
        return str(check_encoding(text))
    except ParameterError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_common(parser: argparse.ArgumentParser,
               format_flags: tuple[str, ...] = ("-f", "--format")) -> None:
    """The options of every subcommand: ``-f/--format`` (with the CLUSTERAGREE_FORMAT
    environment override), ``--strict`` and ``--encoding``."""
    env = os.environ.get("CLUSTERAGREE_FORMAT")
    parser.add_argument(
        *format_flags, dest="format", choices=FORMATS, default=env if env in FORMATS else "text",
        help="output format (default: %(default)s; env CLUSTERAGREE_FORMAT)",
    )
    parser.add_argument(
        "--strict", action="store_true",
        help="refuse input that needs a repair, skip, merge or conversion (exit 1) instead of "
        "reporting it as a warning")
    parser.add_argument(
        "--encoding", type=_encoding, default=None,
        help="encoding of the input files (default: UTF-8, with or without a byte-order mark)")


def _clean(value: Any, path: str, nulls: list[str]) -> Any:
    """Numpy scalars as Python ones, NaN and infinities as None (their paths in ``nulls``)."""
    if hasattr(value, "item") and not isinstance(value, (list, dict, str)):
        with contextlib.suppress(ValueError, TypeError):
            value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        nulls.append(path)
        return None
    if isinstance(value, dict):
        return {str(k): _clean(v, f"{path}.{k}" if path else str(k), nulls)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v, f"{path}[{i}]", nulls) for i, v in enumerate(value)]
    return value


def print_json(obj: dict[str, Any]) -> None:
    """Print a result object as JSON, with the ledger's notices under ``"warnings"``.

    NaN and infinities become null (valid JSON), and a notice of kind ``undefined`` names
    where; the JSON never holds a bare NaN.
    """
    nulls: list[str] = []
    out = _clean(obj, "", nulls)
    ledger = Ledger.current()
    notices = ledger.notices if ledger is not None else []
    if nulls:
        shown = ", ".join(nulls[:5]) + (", ..." if len(nulls) > 5 else "")
        notices.append(Notice("undefined", f"{len(nulls)} value(s) undefined on these data, "
                              f"written as null: {shown}"))
    out["warnings"] = [n.as_dict() for n in notices]
    print(json.dumps(out, indent=2, ensure_ascii=False, allow_nan=False, default=str))
