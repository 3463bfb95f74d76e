"""``clusteragree table``: alpha of a long CSV of codings, or every multi-label measure."""

# The library is imported inside the run functions, so that --help and usage errors stay
# fast (they need only argparse and the option lists).
from __future__ import annotations

import argparse
import io
import sys
from typing import Any

from ..core.distances import get_distance
from ..core.result import format_signature
from ..errors import InputError, ParameterError, UsageError, notify, option
from ..inputs import decode
from ._common import (
    Deprecated,
    add_common,
    add_distance,
    command_signature,
    interval_options,
    name_list,
    print_json,
)
from .exports import add_export_options, read_exports
from .input_formats import detect, export_formats
from .unused import given

#: Options whose default is None when not given, and the value they then take.
_UNSET_DEFAULTS = {"per_doc": True, "table": "alpha", "weights": "identity",
                   "p": "0.5,0.75,1"}


def register(sub: Any) -> None:
    """Add the subcommand to the parser."""
    table = sub.add_parser(
        "table", help="Krippendorff's alpha of a long CSV of codings",
        description="Alpha of a long CSV with the header coder,unit,labels (and optionally "
        "document): one row per coder and unit; labels separated by --sep; an empty labels "
        "field is the empty set; a (coder, unit) pair without a row is missing. Multi-label "
        "files (item,annotator,label[,rank] or .json) give every multi-label measure.",
    )
    table.add_argument("file", help="CSV file, or - for standard input")
    table.add_argument(
        "--sep", type=_separator, default=None,
        help="codings: the separator of the labels of a set (default: ;); multi-label "
        "files: split every label field on it (default: one label per field, and a field "
        "holding ; is refused as ambiguous); none: no separator, a field is one label")
    add_distance(table)
    table.add_argument(
        "--scalar", action="store_true",
        help="one value per field instead of a set (needed for interval, ratio, ordinal)",
    )
    table.add_argument("--engine", choices=("auto", "classes", "generic"), default="auto",
                       help="alpha engine (default: %(default)s)")
    table.add_argument("--per-doc", action=argparse.BooleanOptionalAction, default=None,
                       help="with a document column, a row per document before the pooled "
                       "rows (default: yes; --no-per-doc prints the pooled rows only)")
    table.add_argument(
        "--metrics", default=None,
        help="codings: comma-separated among alpha (each --distance), fleiss, gwet (AC1, or "
        "AC2 with --weights), brennan_prediger, or all (default: alpha); multi-label files "
        "(header item,annotator,label[,rank] or .json): among kappa (augmented kappa at each "
        "--p), am (A_m), alpha, mvalpha, or all (default: all)")
    table.add_argument("--table", choices=("alpha", "kappa"), default=None,
                       help="-f csv/latex: the table to write: codings alpha (default) or "
                       "kappa; multi-label files their measures (default) or alpha (with "
                       "--ci or --pairwise)")
    table.add_argument("--weights", choices=("identity", "linear", "quadratic"),
                       default=None,
                       help="fleiss, gwet, brennan_prediger: weights between categories "
                       "(default: identity)")
    table.add_argument("--measures", dest="metrics", action=Deprecated, new="--metrics",
                       help=argparse.SUPPRESS)
    table.add_argument("--p", default=None, help="multi-label files: primary weights for "
                       "augmented kappa, each in [0.5, 1] (default: 0.5,0.75,1)")
    table.add_argument("--categories", help="multi-label files, A_m: the scheme's "
                       "categories, comma-separated (default: the labels used)")
    table.add_argument("--layer", default=None,
                       help="annotation tools' exports: the layer of document labels coded "
                       "(default: the only one; an export with several names them)")
    table.add_argument("--names", type=name_list, metavar="A,B,...",
                       help="names of the coders (annotators), comma-separated, one per coder "
                       "in the order they first appear in the file (default: as written)")
    table.add_argument(
        "--dask", nargs="?", const="local", default=None, metavar="ADDRESS",
        help="Parquet codings: compute on a dask cluster, the scheduler at ADDRESS "
        "(tcp://host:8786) or, without one, a local cluster of --jobs processes (default: one "
        "per core); alpha per document and pooled, and fleiss, gwet, brennan_prediger "
        "(identity weights)")
    add_export_options(table)
    add_common(table, pairwise=True, interval=True)
    table.set_defaults(run=_run_table)


def _separator(text: str) -> str:
    if not text:
        raise argparse.ArgumentTypeError("the label separator must not be empty")
    return text


def _given(args: argparse.Namespace) -> set[str]:
    """The options given on the command line among those whose effect depends on others
    (:func:`~clusteragree.cli.unused.given`); the defaults of :data:`_UNSET_DEFAULTS` are then
    filled in."""
    found = given(args, args.parser, [*_UNSET_DEFAULTS, "sep", "encoding"])
    for name, default in _UNSET_DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, default)
    return found


def _check_options(args: argparse.Namespace, given: set[str]) -> None:
    """Options that contradict each other are a usage error; an option of another input
    format, or one that only shapes what another option does, is an ``unused`` notice
    (:mod:`clusteragree.cli.unused`, for every command alike)."""
    multilabel = args.input_format.startswith("multilabel")
    if multilabel and args.table == "kappa":
        raise UsageError("--table kappa is the table of fleiss, gwet and brennan_prediger "
                         "of codings; multi-label files write their measures (default) or "
                         "alpha (--table alpha)")
    if not multilabel:
        if args.scalar and "sep" in given:
            raise UsageError("--sep separates the labels of a set and --scalar reads each "
                             "field as one value: give one of them")
        if args.input_format == "parquet" and args.sep == "none":
            raise UsageError("--sep none reads label fields whole in CSV and multi-label "
                             "files; for one label per row of Parquet codings give --scalar")
    if args.dask is not None and args.names:
        raise UsageError("--dask computes pooled values, which name no coder: --names is "
                         "for the other inputs")
    if args.input_format == "parquet" and "encoding" in given:
        notify("unused", "--encoding: Parquet stores its text as UTF-8, so there is nothing "
               "to decode")


def _input_format(path: str, chosen: str, encoding: str | None) -> str:
    """The input format: the one ``--input-format`` names, or (auto) multi-label JSON for a
    ``.json`` name, multi-label CSV for a header starting item,annotator,label (read leniently
    here; the reader decodes strictly), codings for any other file."""
    if chosen != "auto":
        if chosen not in ("codings", "parquet") and path == "-":
            raise UsageError("multi-label data is read from a file, not standard input")
        if chosen == "parquet" and path == "-":
            raise UsageError("Parquet is read from a file or a directory, not standard "
                                 "input")
        return chosen
    return detect("table", path, encoding)


def _metrics_of_multilabel(args: argparse.Namespace) -> list[str]:
    from ..labels.measures import MEASURES
    wanted = {m.strip().lower() for m in (args.metrics or "all").split(",") if m.strip()}
    known = {"all", *MEASURES}
    if not wanted or not wanted <= known:
        raise UsageError(f"--metrics must be among {sorted(known)}; got {args.metrics!r}")
    return list(MEASURES) if "all" in wanted else [m for m in MEASURES if m in wanted]


def _run_multilabel(args: argparse.Namespace, given: set[str]) -> int:
    from ..core.diagnostics import diagnostics
    from ..core.frames import alpha_report, pairwise_report
    from ..labels.measures import measures_table
    from ..labels.reader import read_multilabel
    from ..report import render
    from ..report import table as render_table
    from ..report.schema import alpha_records, diagnostic_records, envelope, records
    from ..report.tables import alpha_text
    from ..report.text import alpha_headline, diagnostic_sections, plural, text_report
    wanted = _metrics_of_multilabel(args)
    try:
        ps = tuple(float(x) for x in args.p.split(","))
    except ValueError:
        raise UsageError(f"--p must be numbers such as 0.5,1; got {args.p!r}") from None
    if not all(0.5 <= p <= 1 for p in ps):
        raise UsageError(f"--p must be in [0.5, 1] (the weight of the primary label); got "
                         f"{args.p!r}")
    data = read_multilabel(args.file, encoding=args.encoding,
                           input_format=args.input_format.removeprefix("multilabel-"),
                           sep=args.sep)
    if args.strict:
        _refuse_check_errors(data, args.file)
    if args.names:
        data = data.renamed(args.names)
    if "per_doc" in given and args.per_doc:
        notify("unused", "--per-doc: a multi-label file has no documents; its rows are pooled")
    cats = args.categories.split(",") if args.categories else None
    try:
        frame = measures_table(data, ps=ps, distances=tuple(args.distance), categories=cats,
                               engine=args.engine, metrics=wanted)
    except ParameterError as err:  # mv-alpha's sets too many: named, refused; else left out
        named = {m.strip().lower() for m in (args.metrics or "").split(",")}
        if "mvalpha" in named or "too many to enumerate" not in str(err):
            raise
        wanted = [m for m in wanted if m != "mvalpha"]
        notify("note", "mv-alpha is left out of the measures: "
               + str(err).split(": leave", 1)[0])
        frame = measures_table(data, ps=ps, distances=tuple(args.distance), categories=cats,
                               engine=args.engine, metrics=wanted)
    table = data.coding_table()
    names = list(data.annotators)
    alphas = None
    if args.ci is not None or args.pairwise:
        asked = ", ".join(o for o, on in (("--ci", args.ci is not None),
                                          ("--pairwise", args.pairwise)) if on)
        if "alpha" not in wanted:
            notify("unused", f"{asked}: intervals and pairs are given for alpha, which --metrics "
                   "leaves out")
        else:
            if args.ci is not None and len(wanted) > 1:
                notify("unused", "--ci: bootstrap intervals are given for alpha (over the "
                       "items); K', A_m and mv-alpha have none here")
            if args.pairwise:
                alphas = pairwise_report(
                    lambda chosen: table.select([names[i] for i in chosen]), names,
                    args.distance, engine=args.engine, per_document=False,
                    **interval_options(args))
            else:
                alphas = alpha_report(table, args.distance, engine=args.engine,
                                      per_document=False, **interval_options(args))
    found = diagnostics(table, args.distance, worst=args.worst) if args.diagnostics else {}
    signature = command_signature(args)
    if args.format == "json":
        print_json(envelope("table", [args.file], signature,
                            [*records(frame, "measure"),
                             *(alpha_records(alphas) if alphas is not None else []),
                             *diagnostic_records(found)],
                            {"items": len(data.items),
                             "annotators": [str(a) for a in data.annotators]}))
    elif args.format in ("csv", "latex"):
        if args.table == "alpha" and "table" in given:
            if alphas is None:
                raise UsageError("--table alpha writes alpha with its intervals or pairs: "
                                 "give --ci or --pairwise (the measures table holds alpha "
                                 "alone)")
            print(render(alphas, args.format))
        else:
            if alphas is not None:
                notify("unused", f"-f {args.format} writes the measures table; --table alpha "
                       "writes alpha with its intervals or pairs")
            print(frame.to_csv(index=False, float_format="%.10g").rstrip("\n")
                  if args.format == "csv" else render_table(frame, "latex"))
    else:
        shown = frame.drop(columns=["note"])
        firsts = shown.groupby(shown["measure"].str.split(" ").str[0], sort=False).head(1)
        headline = (f"{plural(len(data.annotators), 'annotator')}, "
                    f"{plural(len(data.items), 'item')}: "
                    + ", ".join(f"{m} {v:.4f}" if v == v else f"{m} undefined" for m, v in
                                zip(firsts["measure"], firsts["value"], strict=True)))
        sections: list[tuple[str | None, Any]] = [(None, shown)]
        footer: list[str] = []
        if alphas is not None:
            body, footer = alpha_text(alphas)
            headline += "\n" + alpha_headline(alphas)
            title = ("alpha with a bootstrap interval" if args.ci is not None else "alpha")
            sections.append((title + (" of every pair of annotators" if args.pairwise
                                      else ""), body))
        print(text_report(headline, [*sections, *diagnostic_sections(found)], footer,
                          digits=6))
    return 0


def _refuse_check_errors(data: Any, path: str) -> None:
    """--strict: refuse what ``clusteragree validate`` calls an error in the table read (its
    level-2 and level-3 checks, on the model read; docs/validate.md)."""
    from ..incidents import refuse_errors
    from ..labels.checks import check_across, check_rows, rows_of_model
    rows = rows_of_model(data)
    refuse_errors(check_rows(rows, path))
    refuse_errors(check_across(rows, path))


def _stdin(encoding: str | None) -> Any:
    """Standard input as text, decoded as ``--encoding`` says (UTF-8 by default)."""
    raw = getattr(sys.stdin, "buffer", None)
    if raw is None:  # a text stream without bytes beneath (tests): already decoded
        if encoding is not None:
            notify("unused", "--encoding: standard input came already decoded")
        return sys.stdin
    return io.StringIO(decode(raw.read(), "<stdin>", encoding=encoding))


def _run_table(args: argparse.Namespace) -> int:
    # Only what a small table needs is imported before it is known to be needed: pandas,
    # scipy and the diagnostics load with the options that use them (docs/performance.md).
    from ..core.frames import alpha_report, alpha_rows, pairwise_report
    from ..core.gwet import COEFFICIENTS, chance_corrected
    from ..core.model import CodingTable, name_coders
    from ..labels.table import read_long_table
    given = _given(args)
    args.input_format = _input_format(args.file, args.input_format, args.encoding)
    if args.dask is not None and args.input_format != "parquet":
        raise UsageError("--dask reads Parquet codings (a .parquet file or a directory of "
                             "them, or --input-format parquet)")
    _check_options(args, given)
    args.export = None
    if args.input_format in export_formats():  # document labels, written as codings
        import io

        from ..labels.exports import codings_from_exports
        export = read_exports([args.file], args.input_format, args)[0]
        args.export = io.StringIO(codings_from_exports(
            [export], layer=args.layer, sep=";" if args.sep is None else args.sep,
            names=args.names))
        args.names = None  # renamed in the codings
        args.input_format = "codings"
    elif args.input_format == "inception-agreement":
        import io

        from ..exports.agreement_csv import read_agreement_csv
        from ..labels.exports import codings_from_agreement
        args.export = io.StringIO(codings_from_agreement(
            read_agreement_csv(args.file, encoding=args.encoding),
            sep=";" if args.sep is None else args.sep, path=args.file))
        args.input_format = "codings"
    if args.input_format not in ("codings", "parquet"):
        return _run_multilabel(args, given)
    wanted = [m.strip().lower() for m in (args.metrics or "alpha").split(",") if m.strip()]
    everything = "all" in wanted
    if everything:
        wanted = ["alpha", *COEFFICIENTS]
    unknown = [m for m in wanted if m not in ("alpha", *COEFFICIENTS)]
    if unknown or not wanted:
        raise UsageError(f"--metrics for codings must be among alpha, "
                             f"{', '.join(COEFFICIENTS)} or all; got {args.metrics!r}")
    chosen = [m for m in COEFFICIENTS if m in wanted]
    if chosen and not args.scalar:  # label sets: alpha alone compares them
        if not everything:
            raise ParameterError(
                f"{', '.join(chosen)} {'compare' if len(chosen) > 1 else 'compares'} single "
                "values, one per field: read the file "
                f"with {option('scalar')}, or leave them out of {option('metrics', 'alpha')} "
                "(label sets have alpha with a set distance)", params=("metrics", "scalar"))
        notify("unused", f"--metrics all: {', '.join(chosen)} compare single values, so they "
               "are computed with --scalar only; label sets have alpha")
        chosen = []
    if "weights" in given and not chosen:
        raise UsageError(f"--weights weighs {', '.join(COEFFICIENTS)} of --scalar values: "
                         "name them in --metrics (alpha's weights are its --distance)")
    args.sep = ";" if args.sep is None else args.sep
    numeric_names = sorted(d for d in args.distance if get_distance(d).numeric)
    numeric = bool(numeric_names)
    if numeric and not args.scalar:
        raise UsageError(
            f"the distances {numeric_names} need --scalar values"
        )
    if args.dask is not None:
        return _run_dask(args, chosen, numeric)
    source: Any = _stdin(args.encoding) if args.file == "-" else args.file
    if args.export is not None:
        source = args.export
    if args.input_format == "parquet":
        from ..labels.parquet import read_parquet_table
        data = read_parquet_table(args.file, sep=args.sep, scalar=args.scalar, numeric=numeric)
    else:
        data = read_long_table(source, sep=args.sep, scalar=args.scalar, numeric=numeric,
                               path="<stdin>" if args.file == "-" else args.file,
                               encoding=None if args.export is not None else args.encoding)
    if args.strict:
        _refuse_check_errors(data, data.path)
    tables: Any = data.tables
    order = data.coder_order()
    if args.names:
        named = name_coders(order, args.names)
        tables = {d: t.relabel(coders=[named[c] for c in t.coders]) for d, t in tables.items()}
        order = [named[c] for c in order]
    if list(tables) == [None]:
        tables = tables[None]
        if "per_doc" in given and args.per_doc:
            notify("unused", f"--per-doc: {data.path} has no document column; its rows are "
                   "pooled")
    frame: Any
    if args.pairwise:
        docs = tables if isinstance(tables, dict) else {None: tables}
        names = order

        def tables_of(chosen: tuple[int, ...]) -> Any:
            wanted = [names[i] for i in chosen]
            picked = {d: t.select([c for c in wanted if c in t.coders]) for d, t in docs.items()}
            return picked if isinstance(tables, dict) else picked[None]

        frame = pairwise_report(tables_of, names, args.distance, engine=args.engine,
                                per_document=args.per_doc, **interval_options(args))
    elif args.ci is None and not args.diagnostics:  # nothing needs a DataFrame (nor pandas)
        frame = alpha_rows(tables, args.distance, engine=args.engine, per_document=args.per_doc,
                           jobs=args.jobs)
    else:
        frame = alpha_report(tables, args.distance, engine=args.engine,
                             per_document=args.per_doc, **interval_options(args))
    header = {
        "command": "table",
        "file": data.path,
        "rows": data.rows,
        "repairs": data.repairs,
        "signature": format_signature(
            "table", [("dist", ",".join(args.distance)), ("sep", args.sep),
                      ("values", "scalar" if args.scalar else "sets"), ("engine", args.engine)]),
    }
    found: Any = {}
    if args.diagnostics:
        from ..core.diagnostics import diagnostics
        found = diagnostics(tables, args.distance, worst=args.worst, report=frame)
    kappas = None
    if chosen:
        from ..core.diagnostics import combine
        pooled_table = tables if isinstance(tables, CodingTable) else combine(tables)
        kappas = chance_corrected(pooled_table, chosen, weights=args.weights,
                                  level=args.ci or 0.95)
    return _print(args, frame, kappas, found, header, [data.path], str(header["signature"]),
                  {"rows": data.rows, "repairs": data.repairs,
                   "coders": [str(c) for c in order]})


def _print(args: argparse.Namespace, frame: Any, kappas: Any, found: Any, header: dict,
           paths: list[str], signature: str, inputs: dict) -> int:
    """Write alpha's frame, the chance-corrected coefficients and the diagnostics in the format
    asked for (in memory and on dask alike)."""
    from ..report import render
    from ..report import table as render_table
    from ..report.schema import alpha_records, diagnostic_records, envelope, records
    from ..report.tables import alpha_text
    from ..report.text import alpha_headline, diagnostic_sections, text_report
    if args.format == "json":
        print_json(envelope("table", paths, signature,
                            [*alpha_records(frame),
                             *(records(kappas, "kappa") if kappas is not None else []),
                             *diagnostic_records(found)], inputs))
    elif args.format == "text" and (found or kappas is not None):
        body, signatures = alpha_text(frame)
        headline = [alpha_headline(frame)]
        sections: list[tuple[str | None, Any]] = [(None, body)]
        if kappas is not None:
            headline += [f"{r.coefficient} {r.value:.4f} [{r.ci_low:.4f}, {r.ci_high:.4f}] "
                         f"({(args.ci or 0.95):.0%} t interval from Gwet's standard error, "
                         f"{r.subjects} subjects)" for r in kappas.itertuples()]
            sections.append((f"chance-corrected agreement ({kappas['weights'].iloc[0]} "
                             f"weights; Gwet's standard errors, "
                             f"{(args.ci or 0.95):.0%} intervals)", kappas))
        print(text_report("\n".join(headline), [*sections, *diagnostic_sections(found)],
                          signatures))
    elif args.format in ("csv", "latex") and args.table == "kappa":
        if kappas is None:
            raise UsageError("--table kappa: give --metrics fleiss, gwet or "
                                 "brennan_prediger")
        print(render_table(kappas, args.format))
    else:
        print(render(frame, args.format, header=header))
    return 0


def _run_dask(args: argparse.Namespace, chosen: list[str], numeric: bool) -> int:
    """Alpha (per document and pooled) and the chance-corrected coefficients of Parquet
    codings on dask."""
    from ..core.dask_cluster import dask_client
    from ..core.distributed import dask_stats
    from ..core.parallel import resolve_jobs
    from ..labels.parquet import check_values, parquet_frame
    refused = [name for name, on in (("--pairwise", args.pairwise), ("--ci", args.ci),
                                     ("--diagnostics", args.diagnostics),
                                     ("--engine classes", args.engine == "classes")) if on]
    if refused:
        raise UsageError(f"--dask computes alpha with the generic engine, without resampling; "
                         f"it does not take {', '.join(refused)}")
    if chosen and args.weights != "identity":
        raise UsageError("--dask: fleiss, gwet and brennan_prediger with identity weights "
                         "only (other weights depend on every category, known only at the "
                         "end)")
    if chosen and not args.scalar:
        raise UsageError(f"--metrics {','.join(chosen)} compare single values: give --scalar")
    frame, roles, parts = parquet_frame(args.file)
    check_values(roles["value"], parts.columns[roles["value"]], args.file, scalar=args.scalar,
                 numeric=numeric)
    workers = resolve_jobs(args.jobs)
    try:
        with dask_client(None if args.dask == "local" else args.dask, workers):
            stats = dask_stats(frame, ("alpha", "gwet") if chosen else ("alpha",),
                               coder=roles["coder"], unit=roles["unit"], value=roles["value"],
                               document=roles.get("document"),
                               sep=None if args.scalar else args.sep, path=args.file)
        table = stats.report(args.distance, per_document=args.per_doc)
        kappas = stats.gwet.compute(chosen, level=args.ci or 0.95) if chosen and stats.gwet \
            else None
    except InputError as err:
        if err.path is not None:
            raise
        raise InputError(err.message, path=args.file) from None
    except ParameterError as err:  # what the data cannot give (two categories, ...)
        if err.params:
            raise
        raise InputError(str(err), path=args.file) from None
    signature = format_signature(
        "table", [("dist", ",".join(args.distance)), ("sep", args.sep),
                  ("values", "scalar" if args.scalar else "sets"), ("engine", "dask")])
    header = {"command": "table", "file": args.file, "rows": stats.rows, "repairs": {},
              "signature": signature}
    return _print(args, table, kappas, [], header, [args.file], signature,
                  {"rows": stats.rows, "repairs": {}})
