"""``clusteragree report COMMAND ...``: one self-contained HTML page of any command's results.

The command runs as it does on its own (same inputs and options), with what the page shows
switched on (``--diagnostics``, ``--per-doc``, ``--differences``, ``--align`` where the command
has them); its JSON output is then rendered by :func:`clusteragree.report.html.html_report`,
with the side-by-side views the domains build from what the command read (coreference chains
over the text, dependency and bracketed trees, the summaries of two pyramids with their SCU
contributors, every annotator's spans on one strip per document with gamma's alignment).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from typing import Any

from ..errors import InputError, spelling

__all__ = ["register"]

COMMANDS = ("table", "pyramid", "pan", "coref", "trees", "spans")

#: What each command is asked for, so that the page has its charts and tables.
FORCED = {
    "table": ("--diagnostics",),
    "pyramid": ("--diagnostics",),
    "pan": ("--diagnostics", "--per-doc"),
    "coref": ("--diagnostics", "--per-doc", "--differences"),
    "trees": ("--diagnostics", "--differences"),
    "spans": ("--per-doc", "--alignment"),
}

def register(sub: Any) -> None:
    """Add the subcommand to the parser."""
    report = sub.add_parser(
        "report", help="one self-contained HTML page of any command's results",
        usage="clusteragree report COMMAND INPUTS [options of COMMAND] [-o FILE.html]",
        description="Runs COMMAND (table, pyramid, pan, coref, trees or spans) on its inputs with "
        "its options, and writes one HTML file that opens without a network, made for "
        "adjudicating: the headline figures and what they mean, a documents table (least "
        "reliable first; sort, filter, open), every document's annotations side by side "
        "(coreference chains, trees, pyramid summaries, span strips aligned by gamma) with "
        "each difference linked to its "
        "place, the units that disagree most under each distance, and every result table. "
        "-o names the file (default: clusteragree-report.html).")
    report.add_argument("what", choices=COMMANDS, metavar="COMMAND",
                        help="the command whose results to show: " + ", ".join(COMMANDS))
    report.add_argument("rest", nargs=argparse.REMAINDER, metavar="INPUTS",
                        help="the inputs and options of COMMAND")
    report.set_defaults(run=_run_report)


def _run_report(args: argparse.Namespace) -> int:
    """Run the command with what the page shows switched on, render its JSON output and the
    views of what it read, and write the page."""
    from ..report.html import html_report
    from . import build_parser, option_spelling
    from .unused import check_unused
    try:
        inner = build_parser().parse_args([args.what, *args.rest, *FORCED[args.what]])
    except SystemExit as done:  # the command's own usage error, already printed
        return done.code if isinstance(done.code, int) else 2
    if inner.command == "pyramid" and len(inner.files) == 2:
        inner.align = True  # two pyramids: their SCUs aligned
    path = inner.output or "clusteragree-report.html"
    inner.output, inner.format = None, "json"
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured), spelling(option_spelling(inner.parser)):
        check_unused(inner, inner.parser)
        code = int(inner.run(inner))
    if code:
        return code
    envelope = json.loads(captured.getvalue())
    page = html_report(envelope, _views(inner, envelope), validation=_validation(inner))
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(page)
    except OSError as err:
        raise InputError(f"cannot write the report: {err.strerror}", path=path) from None
    print(f"clusteragree report: {path} ({len(page) // 1024:,} KB)", file=sys.stdout)
    return 0


#: ``validate``'s name of each command's input format (the others have the same name).
VALIDATE_FORMAT = {("trees", "conll"): "conllu", ("pyramid", ""): "pyramid", ("pan", ""): "pan"}


def _validation(inner: argparse.Namespace) -> list[dict[str, Any]]:
    """``validate``'s records on the command's inputs (level 3, 20 incidents per test at most),
    for the page's validation section; none when validate cannot take these inputs (it says
    why in the warnings)."""
    from ..errors import ClusterAgreeError, notify
    from ..incidents import Validation
    from .exports import EXPORT_OPTIONS
    from .input_formats import input_formats
    from .validate import validate_paths
    files = [str(f) for f in (getattr(inner, "dirs", None) or getattr(inner, "files", None)
                              or ([inner.file] if getattr(inner, "file", None) else []))]
    if not files or "-" in files:
        return []
    given = getattr(inner, "input_format", "auto") or "auto"
    fmt = VALIDATE_FORMAT.get((inner.command, given if given != "auto" else ""), given)
    if fmt not in input_formats("validate"):
        fmt = "auto"
    found = Validation(level=3, max_err=20)
    # (the exports read with the command's own reader options and chain layer)
    options = {keyword: getattr(inner, dest) for dest, (_, keyword) in EXPORT_OPTIONS.items()
               if getattr(inner, dest, None) is not None}
    if getattr(inner, "chain_layer", None) is not None:
        options["chain_layer"] = inner.chain_layer
    try:
        found.extend(validate_paths(files, fmt, encoding=getattr(inner, "encoding", None),
                                    names=getattr(inner, "names", None), **options))
    except ClusterAgreeError as err:
        notify("note", f"the page has no validation section: {err}")
        return []
    return [i.as_dict() for i in found.shown()] + found.summary_records()


def _views(inner: argparse.Namespace, envelope: dict[str, Any]) -> list[dict[str, Any]]:
    """The side-by-side views of the command's inputs (plain data the page draws)."""
    if inner.command == "coref":
        from .views_coref import coref_views
        found = coref_views(inner, envelope)
    elif inner.command == "trees":
        from .views_trees import tree_views
        found = tree_views(inner, envelope)
    elif inner.command == "pyramid" and len(inner.files) == 2:
        from .views_pyramids import pyramid_views
        found = pyramid_views(inner, envelope)
    elif inner.command == "spans":
        from .views_spans import span_views
        found = span_views(inner)
    else:
        found = None
    return [found] if found else []
