"""``clusteragree report COMMAND ...``: one self-contained HTML page of any command's results.

The command runs as it does on its own (same inputs and options), with what the page shows
switched on (``--diagnostics``, ``--per-doc``, ``--differences``, ``--align`` where the command
has them); its JSON output is then rendered by :func:`clusteragree.report.html.html_report`,
with side-by-side views of the annotations for coreference (chains over the text) and
dependency trees (the arcs, differences marked).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from typing import Any

from ..errors import InputError, UsageError, spelling

__all__ = ["register"]

COMMANDS = ("table", "pyramid", "pan", "coref", "trees")

#: What each command is asked for, so that the page has its charts and tables.
FORCED = {
    "table": ("--diagnostics",),
    "pyramid": ("--diagnostics",),
    "pan": ("--diagnostics", "--per-doc"),
    "coref": ("--diagnostics", "--per-doc", "--differences"),
    "trees": ("--diagnostics", "--differences"),
}

#: At most this many documents (sentences) are shown side by side.
SHOWN = 5


def register(sub: Any) -> None:
    """Add the subcommand to the parser."""
    report = sub.add_parser(
        "report", help="one self-contained HTML page of any command's results",
        usage="clusteragree report COMMAND INPUTS [options of COMMAND] [-o FILE.html]",
        description="Runs COMMAND (table, pyramid, pan, coref or trees) on its inputs with its "
        "options, and writes one HTML file that opens without a network: the headline figures "
        "with their intervals, per-document alpha, coincidence and pairwise heatmaps, a "
        "sortable table of the units that disagree most, and the annotations side by side. "
        "-o names the file (default: clusteragree-report.html). The charts need plotly: "
        "pip install 'clusteragree[report]'.")
    report.add_argument("what", choices=COMMANDS, metavar="COMMAND",
                        help="the command whose results to show: " + ", ".join(COMMANDS))
    report.add_argument("rest", nargs=argparse.REMAINDER, metavar="INPUTS",
                        help="the inputs and options of COMMAND")
    report.set_defaults(run=_run_report)


def _run_report(args: argparse.Namespace) -> int:
    from ..report.html import html_report
    from . import build_parser, option_spelling
    from .unused import check_unused
    parser = build_parser()
    argv = [args.what, *args.rest, *FORCED[args.what]]
    try:
        inner = parser.parse_args(argv)
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
    views = _views(inner, envelope)
    page = html_report(envelope, views)
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(page)
    except OSError as err:
        raise InputError(f"cannot write the report: {err.strerror}", path=path) from None
    print(f"clusteragree report: {path} ({len(page) // 1024:,} KB)", file=sys.stdout)
    return 0


def _views(inner: argparse.Namespace, envelope: dict[str, Any]) -> list[tuple[str, str]]:
    """Side-by-side views: chains for coreference, arcs for dependency trees."""
    if inner.command == "coref":
        return _coref_views(inner, envelope)
    if inner.command == "trees":
        return _tree_views(inner, envelope)
    return []


def _coref_views(inner: argparse.Namespace, envelope: dict[str, Any]) -> list[tuple[str, str]]:
    from ..report.views import chains_view
    from .coref import _read_coref
    corpora = [_read_coref(f, inner) for f in inner.files]
    names = envelope["meta"].get("annotators") or list(inner.files)
    counts: dict[str, int] = {}
    for r in envelope["results"]:
        if r["kind"] == "coref_difference":
            counts[r["document"]] = counts.get(r["document"], 0) + 1
    shared = [d for d in corpora[0].documents if all(d in c.documents for c in corpora)]
    chosen = sorted(shared, key=lambda d: -counts.get(d, 0))[:SHOWN]
    views = []
    for document in chosen:
        docs = [c.documents[document] for c in corpora]
        annotations = {str(n): [(m.start, m.end, m.entity) for m in d.mentions]
                       for n, d in zip(names, docs, strict=True)}
        views.append(chains_view(docs[0].tokens, annotations,
                                 title=f"{document} ({counts.get(document, 0)} differences)",
                                 joiner="" if docs[0].words else " "))
    if not views:
        return []
    return [("the annotations side by side (underline: the entity's colour; dashed frame: "
             "a mention only one annotator marked)", "".join(views))]


def _tree_views(inner: argparse.Namespace, envelope: dict[str, Any]) -> list[tuple[str, str]]:
    from ..errors import Ledger
    from ..report.views import dependency_view
    from ..trees.readers import read_tree_annotations
    worst = [r for r in envelope["results"]
             if r["kind"] == "sentence_difference" and r["ted"] > 0][:SHOWN]
    if not worst:
        return []
    annotations = getattr(inner, "tree_annotations", None)  # what the command read
    if annotations is None:
        if inner.dirs and inner.files:
            raise UsageError("give paired files or --dirs, not both")
        with Ledger():  # read again: its notices are those the command reported
            annotations = read_tree_annotations(
                inner.files, dirs=inner.dirs or (), names=inner.names, roots=inner.roots,
                cycles=inner.cycles, words=inner.words, encoding=inner.encoding,
                input_format=inner.input_format)
    if annotations.kind != "dependency":
        return []  # bracketed trees: the table of differing sentences shows both trees
    views = []
    for record in worst:
        pair = [record["first"], record["second"]]
        found = {name: {str(u): s for u, s in annotations.sentences[name].items()}
                 for name in pair}
        first = found[pair[0]].get(str(record["sentence"]))
        second = found[pair[1]].get(str(record["sentence"]))
        if first is None or second is None or not first.words:
            continue
        views.append(dependency_view(
            first.words, {pair[0]: (first.heads, first.deprels, first.words),
                          pair[1]: (second.heads, second.deprels, second.words)},
            title=f"sentence {record['sentence']}: tree edit distance {record['ted']:g}"))
    if not views:
        return []
    return [("the sentences whose trees differ most (red: an arc whose head or relation "
             "differs from the first annotator's)", "".join(views))]
