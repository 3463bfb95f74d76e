"""``clusteragree formats``: the input formats of every command and the options that read them
(:data:`clusteragree.cli.input_formats.INPUTS`)."""

from __future__ import annotations

import argparse
from typing import Any

from .._version import __version__
from ._common import add_output, print_json
from .input_formats import INPUTS

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the subcommand to the parser."""
    formats = sub.add_parser(
        "formats", help="the input formats of every command and the options that read them",
        description="Every input format: the command that reads it, its --input-format name, "
        "how --input-format auto recognises it, and the options that change how it is read.")
    add_output(formats)
    formats.set_defaults(run=_run_formats)


def _run_formats(args: argparse.Namespace) -> int:
    import pandas as pd

    from ..report import table as render_table
    from ..report.schema import envelope, records
    from ..report.text import text_report
    frame = pd.DataFrame([{"command": f.command, "input_format": f.name or "-",
                           "holds": f.holds.replace("`", ""),
                           "auto": f.chosen.replace("`", ""), "options": " ".join(f.options)}
                          for f in INPUTS])
    if args.format == "json":
        print_json(envelope("formats", [], "formats|v:" + __version__,
                            records(frame, "format")))
    elif args.format in ("csv", "latex"):
        print(render_table(frame, args.format))
    else:
        commands = frame["command"].unique()
        print(text_report(
            f"{len(frame)} input formats of {len(commands)} commands; --input-format NAME "
            "chooses one, auto (the default) recognises each as shown",
            [(command, frame[frame["command"] == command].drop(columns="command"))
             for command in commands]))
    return 0
