"""``clusteragree validate FILES...``: every problem of an annotated corpus in one run.

Each input is read with the reader its format names; what the reader refuses, repairs or skips
is a level-1 incident, and the domain's checks (``<domain>/checks.py``) add level 2 (each
annotation) and level 3 (across the inputs, one annotator each). Wiring only: the tests live in
the domains, the incidents in :mod:`clusteragree.incidents`.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import importlib
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from functools import partial
from typing import Any

from .._version import __version__
from ..core.parallel import resolve_jobs
from ..errors import InputError, option
from ..incidents import LEVELS, TESTS, Incident, Validation
from ..inputs import objects_in_bulk
from ._common import add_jobs, add_output, check_names, name_list, print_json
from .exports import EXPORT_OPTIONS, add_export_options
from .input_formats import EXPORTS, detect, input_formats

__all__ = ["DOMAINS", "register", "validate_paths"]

#: The domain whose ``checks`` module validates each ``--input-format`` of ``validate``.
DOMAINS: dict[str, str] = {
    "conll": "coref", "corefud": "coref", "brat": "coref",
    "conllu": "trees", "brackets": "trees",
    "pyramid": "pyramids", "pan": "pyramids",
    "codings": "labels", "multilabel-csv": "labels", "multilabel-json": "labels",
    "inception-agreement": "labels", "parquet": "labels",
    "spans-csv": "spans", "pygamma": "spans",
}


def _domain(input_format: str) -> str:
    return DOMAINS.get(input_format, "spans")  # the exports: spans, chains, labels


def register(sub: Any) -> None:
    """Add the subcommand to the parser."""
    parser = sub.add_parser(
        "validate", help="every problem of an annotated corpus, before agreement is computed",
        description="Read every input and report every problem found, each with a test id, "
        "a class (error, warning, information) and a place: level 1 the file (encoding, "
        "columns, syntax), level 2 each annotation (what its format or structure forbids), "
        "level 3 across the inputs, one annotator each (the same documents, tokens, "
        "vocabulary). Exit 0 when no error is found at the levels checked, 1 otherwise.")
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="the inputs, one annotator each (a directory for BRAT and for "
                        "an annotator's trees)")
    add_output(parser)
    parser.add_argument("--input-format", dest="input_format",
                        choices=input_formats("validate"), default="auto",
                        help="input format (default: %(default)s, recognised from each file; "
                        "clusteragree formats lists the rules)")
    parser.add_argument("--level", type=int, choices=LEVELS, default=3,
                        help="the highest level checked: 1 the file, 2 each annotation, "
                        "3 across annotators (default: %(default)s)")
    parser.add_argument("--max-err", dest="max_err", type=_max_err, default=20, metavar="N",
                        help="incidents shown per test id, the others counted in the "
                        "summary; 0 shows all (default: %(default)s)")
    parser.add_argument("--names", type=name_list, metavar="A,B,...",
                        help="names of the annotators, one per input, comma-separated "
                        "(default: from the file names)")
    parser.add_argument("--vocabulary", type=name_list, metavar="L1,L2,...",
                        help="label tables, spans and exports: the labels allowed; a label "
                        "outside is an error (default: none checked)")
    parser.add_argument("--text-dir", dest="text_dir", metavar="DIR",
                        help="BRAT: the folder of the .txt files, when not beside the .ann "
                        "files (mention texts are checked against them)")
    parser.add_argument("--sep", default=None, metavar="SEP",
                        help="label tables: the separator of several labels in one field "
                        "(default: as the table command reads them)")
    parser.add_argument("--encoding", default=None,
                        help="encoding of the input files (default: UTF-8, with or without a "
                        "byte-order mark)")
    parser.add_argument("--chain-layer", dest="chain_layer", default=None, metavar="LAYER",
                        help="exports: the one layer whose chains are checked as coreference, "
                        "a chain layer or a relation layer whose linked spans corefer "
                        "(default: every chain layer, and the chains Label Studio's, "
                        "doccano's and Prodigy's relations make, as the coref command reads "
                        "them)")
    add_export_options(parser)
    add_jobs(parser)
    parser.set_defaults(run=_run)


def _max_err(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("0 (all) or more")
    return value


def validate_paths(paths: Sequence[str], input_format: str = "auto", *, level: int = 3,
                   encoding: str | None = None, names: Sequence[str] | None = None,
                   **options: Any) -> Iterator[Incident]:
    """The incidents of ``paths`` (one annotator each): the inputs are grouped by format, and
    each group validated by its domain's ``checks.validate_inputs``; the chains of exports
    also by the coreference domain (:func:`clusteragree.coref.export_checks.export_incidents`,
    on the exports the spans domain read).

    Parameters
    ----------
    options
        The domain's options (``vocabulary``, ``text_dir``, ``sep``, the export readers'
        ``typesystem``, ``curation``, ...), and for exports ``chain_layer``: the one layer whose
        chains are checked as coreference (default: every chain layer).

    Raises
    ------
    InputError
        When the inputs are of several formats (the levels across annotators need one).
    ParameterError
        ``chain_layer`` names no chain or relation layer of the exports.
    """
    formats = [input_format if input_format != "auto" else detect("validate", p, encoding)
               for p in paths]
    found = sorted(set(formats))
    if len(found) > 1:
        listed = ", ".join(f"{p} ({f})" for p, f in zip(paths, formats, strict=True))
        other = next(p for p, f in zip(paths, formats, strict=True) if f != formats[0])
        raise InputError(f"the inputs are of several formats ({listed}): validate one format "
                         f"per run, or name it with {option('input_format')}", other)
    fmt = found[0]
    module = importlib.import_module(f"clusteragree.{_domain(fmt)}.checks")
    if fmt in EXPORTS:  # an export's chains are coreference: checked by that domain too
        from ..coref.export_checks import export_incidents
        options["chain_checks"] = partial(export_incidents,
                                          chain_layer=options.pop("chain_layer", None))
    yield from module.validate_inputs(list(paths), fmt, level=level, encoding=encoding,
                                      names=names, options=options)


def _run(args: argparse.Namespace) -> int:
    names = check_names(args.names, len(args.files))
    options = {k: v for k, v in (("vocabulary", args.vocabulary), ("text_dir", args.text_dir),
                                 ("sep", args.sep), ("chain_layer", args.chain_layer))
               if v is not None}
    options.update({keyword: getattr(args, dest) for dest, (_, keyword) in EXPORT_OPTIONS.items()
                    if getattr(args, dest, None) is not None})
    options["jobs"] = resolve_jobs(args.jobs)  # (the readers of IN_PARTS take it)
    found = Validation(level=args.level, max_err=args.max_err)
    for path in args.files:
        found.checked(path)
    # (the collector paused: the models of large inputs are millions of acyclic objects)
    with _stdin_spooled(args.files) as (files, spooled), objects_in_bulk():
        for incident in validate_paths(files, args.input_format, level=args.level,
                                       encoding=args.encoding, names=names, **options):
            if spooled is not None and incident.file == spooled:
                incident = dataclasses.replace(incident, file="-")
            found.add(incident)
    signature = (f"validate|level:{args.level}|max-err:{args.max_err}|"
                 f"format:{args.input_format}|v:{__version__}")
    _render(found, args, signature)
    if not found.failed:
        return 0
    first = next(i for i in found.shown() if i.severity == "error")
    place = first.file + (f":{first.line}" if first.line is not None else "") + ": " \
        if first.file else ""
    print(f"clusteragree validate: error: {found.by_class()['error']} error(s) at level "
          f"{args.level} or below; the first: {place}{first.test_id}", file=sys.stderr)
    return 1


@contextlib.contextmanager
def _stdin_spooled(files: list[str]) -> Iterator[tuple[list[str], str | None]]:
    """The inputs with ``-`` (standard input, as ``table`` reads it) written to a temporary
    file first, so that the checks can read it more than once; incidents there are named
    ``-``."""
    if "-" not in files:
        yield files, None
        return
    if files.count("-") > 1:
        raise InputError("standard input (-) can be given once", "-")
    data = sys.stdin.buffer.read()
    with tempfile.TemporaryDirectory() as tmp:
        spooled = os.path.join(tmp, "stdin.csv")
        with open(spooled, "wb") as handle:
            handle.write(data)
        yield [spooled if f == "-" else f for f in files], spooled


def _render(found: Validation, args: argparse.Namespace, signature: str) -> None:
    from ..report import table as render_table
    from ..report.schema import envelope
    by_class = found.by_class()
    verdict = "FAILED" if found.failed else "PASSED"
    headline = (f"*** {verdict} *** {len(found.inputs)} input(s) validated to level "
                f"{args.level}: {by_class['error']} error(s), {by_class['warning']} "
                f"warning(s), {by_class['information']} information")
    if args.format == "json":
        print_json(envelope("validate", found.inputs, signature,
                            [i.as_dict() for i in found.shown()] + found.summary_records(),
                            {"level": args.level, "max_err": args.max_err,
                             "passed": not found.failed, **{f"{k}s" if k != "information"
                                                             else k: v
                                                             for k, v in by_class.items()}}))
        return
    if args.format in ("csv", "latex"):
        import pandas as pd  # (only here: importing it takes a second)

        frame = pd.DataFrame([i.as_dict() for i in found.shown()],
                             columns=["kind", "test", "level", "class", "domain", "file",
                                      "line", "sentence", "node", "annotator", "count",
                                      "message"])
        print(render_table(frame.drop(columns="kind"), args.format))
        return
    for incident in found.shown():
        print(str(incident))
    counts = found.summary_records()
    if counts:
        print()
        width = max(len(r["test"]) for r in counts)
        for r in counts:
            hidden = r["incidents"] - r["shown"]
            more = (f" ({hidden} of {r['incidents']} incidents not shown: --max-err 0 shows "
                    "all)" if hidden > 0 else "")
            print(f"{r['class']:<11} L{r['level']} {r['test']:<{width}} {r['count']:>7}{more}")
    print()
    print(headline)
    print(f"signature: {signature}")


def known_tests() -> dict[str, Any]:
    """Every test of every domain (each domain's ``checks`` module imported)."""
    for domain in sorted(set(DOMAINS.values()) | {"spans"}):
        importlib.import_module(f"clusteragree.{domain}.checks")
    return dict(TESTS)
