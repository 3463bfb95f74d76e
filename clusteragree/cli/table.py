"""``clusteragree table``: alpha of a long CSV of codings, or every multi-label measure."""

# The library is imported inside the run functions, so that --help and usage errors stay
# fast (they need only argparse and the option lists).
from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from ..core.distances import get_distance
from ..core.result import format_signature
from ..errors import InputError, UsageError
from ._common import (
    Deprecated,
    add_common,
    add_distance,
    command_signature,
    interval_options,
    print_json,
)


def register(sub: Any) -> None:
    """Add the subcommand to the parser."""
    table = sub.add_parser(
        "table", help="Krippendorff's alpha of a long CSV of codings",
        description="Alpha of a long CSV with the header coder,unit,labels (and optionally "
        "document): one row per coder and unit; labels separated by --sep; an empty labels "
        "field is the empty set; a (coder, unit) pair without a row is missing.",
    )
    table.add_argument("file", help="CSV file, or - for standard input")
    table.add_argument("--sep", type=_separator, default=";",
                       help="label separator (default: %(default)s)")
    add_distance(table)
    table.add_argument(
        "--scalar", action="store_true",
        help="one value per field instead of a set (needed for interval, ratio, ordinal)",
    )
    table.add_argument("--engine", choices=("auto", "classes", "generic"), default="auto",
                       help="alpha engine (default: %(default)s)")
    table.add_argument("--per-doc", action=argparse.BooleanOptionalAction, default=True,
                       help="with a document column, a row per document before the pooled "
                       "rows (default: yes; --no-per-doc prints the pooled rows only)")
    table.add_argument(
        "--metrics", default=None,
        help="codings: comma-separated among alpha (each --distance), fleiss, gwet (AC1, or "
        "AC2 with --weights), brennan_prediger, or all (default: alpha); multi-label files "
        "(header item,annotator,label[,rank] or .json): among kappa (augmented kappa at each "
        "--p), am (A_m), alpha, mvalpha, or all (default: all)")
    table.add_argument("--table", choices=("alpha", "kappa"), default="alpha",
                       help="-f csv/latex: the table to write (default: %(default)s)")
    table.add_argument("--weights", choices=("identity", "linear", "quadratic"),
                       default="identity",
                       help="fleiss, gwet, brennan_prediger: weights between categories "
                       "(default: %(default)s)")
    table.add_argument("--measures", dest="metrics", action=Deprecated, new="--metrics",
                       help=argparse.SUPPRESS)
    table.add_argument("--p", default="0.5,0.75,1", help="primary weights for augmented kappa "
                       "(default: %(default)s)")
    table.add_argument("--categories", help="A_m: the scheme's categories, comma-separated "
                       "(default: the labels used)")
    table.add_argument(
        "--dask", nargs="?", const="local", default=None, metavar="ADDRESS",
        help="Parquet codings: compute on a dask cluster, the scheduler at ADDRESS "
        "(tcp://host:8786) or, without one, a local cluster of --jobs processes (one per core "
        "when --jobs is 1); pooled alpha and fleiss, gwet, brennan_prediger (identity weights)")
    add_common(table, pairwise=True, interval=True)
    table.set_defaults(run=_run_table)


def _separator(text: str) -> str:
    if not text:
        raise argparse.ArgumentTypeError("the label separator must not be empty")
    return text


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
    if path != "-" and _is_parquet(path):
        return "parquet"
    if path.endswith(".json"):
        return "multilabel-json"
    return "multilabel-csv" if path != "-" and _has_multilabel_header(path, encoding) \
        else "codings"


def _is_parquet(path: str) -> bool:
    """A name ending in ``.parquet``, or a directory holding ``.parquet`` files."""
    if path.lower().endswith(".parquet"):
        return True
    return os.path.isdir(path) and any(
        name.lower().endswith(".parquet") for _, _, names in os.walk(path) for name in names)


def _has_multilabel_header(path: str, encoding: str | None) -> bool:
    try:
        with open(path, "rb") as handle:
            head = handle.readline(4096)
    except OSError:
        return False
    text = head.decode(encoding or "utf-8-sig", errors="replace").lstrip("\ufeff")
    return text.strip().lower().replace(" ", "").startswith("item,annotator,label")


def _run_multilabel(args: argparse.Namespace) -> int:
    from ..labels.measures import measures_table
    from ..labels.reader import read_multilabel
    from ..report.schema import envelope, records
    data = read_multilabel(args.file, encoding=args.encoding,
                           input_format=args.input_format.removeprefix("multilabel-"))
    wanted = {m.strip().lower() for m in (args.metrics or "all").split(",")}
    known = {"all", "kappa", "am", "alpha", "mvalpha"}
    if not wanted <= known:
        raise UsageError(f"--metrics must be among {sorted(known)}; got {args.metrics!r}")
    try:
        ps = tuple(float(x) for x in args.p.split(","))
    except ValueError:
        raise UsageError(f"--p must be numbers such as 0.5,1; got {args.p!r}") from None
    cats = args.categories.split(",") if args.categories else None
    frame = measures_table(data, ps=ps, distances=tuple(args.distance), categories=cats)
    keep = frame["measure"].map(lambda m: "all" in wanted or (
        ("kappa" in wanted and m.startswith("K'")) or ("am" in wanted and m.startswith("A_m"))
        or ("alpha" in wanted and m.startswith("alpha")) or ("mvalpha" in wanted
                                                             and m == "mv-alpha")))
    frame = frame[keep]
    from ..report.text import plural, text_report
    if args.format == "json":
        print_json(envelope("table", [args.file], command_signature(args),
                            records(frame, "measure"),
                            {"items": len(data.items),
                             "annotators": [str(a) for a in data.annotators]}))
    elif args.format == "csv":
        print(frame.to_csv(index=False, float_format="%.10g").rstrip("\n"))
    else:
        shown = frame.drop(columns=["note"])
        firsts = shown.groupby(shown["measure"].str.split(" ").str[0], sort=False).head(1)
        headline = (f"{plural(len(data.annotators), 'annotator')}, "
                    f"{plural(len(data.items), 'item')}: "
                    + ", ".join(f"{m} {v:.4f}" if v == v else f"{m} undefined" for m, v in
                                zip(firsts["measure"], firsts["value"], strict=True)))
        print(text_report(headline, [(None, shown)], digits=6))
    return 0


def _run_table(args: argparse.Namespace) -> int:
    from ..core.diagnostics import combine, diagnostics
    from ..core.frames import alpha_report, pairwise_report
    from ..core.gwet import COEFFICIENTS, chance_corrected
    from ..core.model import CodingTable
    from ..labels.parquet import read_parquet_table
    from ..labels.table import read_long_table
    args.input_format = _input_format(args.file, args.input_format, args.encoding)
    if args.dask is not None and args.input_format != "parquet":
        raise UsageError("--dask reads Parquet codings (a .parquet file or a directory of "
                             "them, or --input-format parquet)")
    if args.input_format not in ("codings", "parquet"):
        return _run_multilabel(args)
    wanted = [m.strip().lower() for m in (args.metrics or "alpha").split(",") if m.strip()]
    if "all" in wanted:
        wanted = ["alpha", *COEFFICIENTS]
    unknown = [m for m in wanted if m not in ("alpha", *COEFFICIENTS)]
    if unknown or not wanted:
        raise UsageError(f"--metrics for codings must be among alpha, "
                             f"{', '.join(COEFFICIENTS)} or all; got {args.metrics!r}")
    chosen = [m for m in COEFFICIENTS if m in wanted]
    numeric_names = sorted(d for d in args.distance if get_distance(d).numeric)
    numeric = bool(numeric_names)
    if numeric and not args.scalar:
        raise UsageError(
            f"the distances {numeric_names} need --scalar values"
        )
    if args.dask is not None:
        return _run_dask(args, chosen, numeric)
    source: Any = sys.stdin if args.file == "-" else args.file
    if args.input_format == "parquet":
        data = read_parquet_table(args.file, sep=args.sep, scalar=args.scalar, numeric=numeric)
    else:
        data = read_long_table(source, sep=args.sep, scalar=args.scalar, numeric=numeric,
                               path="<stdin>" if args.file == "-" else args.file,
                               encoding=args.encoding)
    tables: Any = data.tables
    if list(tables) == [None]:
        tables = tables[None]
    if args.pairwise:
        docs = tables if isinstance(tables, dict) else {None: tables}
        names = list(dict.fromkeys(c for t in docs.values() for c in t.coders))

        def tables_of(chosen: tuple[int, ...]) -> Any:
            wanted = [names[i] for i in chosen]
            picked = {d: t.select([c for c in wanted if c in t.coders]) for d, t in docs.items()}
            return picked if isinstance(tables, dict) else picked[None]

        frame = pairwise_report(tables_of, names, args.distance, engine=args.engine,
                                per_document=args.per_doc, **interval_options(args))
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
    found = diagnostics(tables, args.distance, worst=args.worst, report=frame) \
        if args.diagnostics else {}
    kappas = None
    if chosen:
        pooled_table = tables if isinstance(tables, CodingTable) else combine(tables)
        kappas = chance_corrected(pooled_table, chosen, weights=args.weights,
                                  level=args.ci or 0.95)
    return _print(args, frame, kappas, found, header, [data.path], str(header["signature"]),
                  {"rows": data.rows, "repairs": data.repairs})


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
    """Pooled alpha and the chance-corrected coefficients of Parquet codings on dask."""
    from ..core.distributed import dask_stats
    from ..core.frames import TOTAL, results_frame
    from ..labels.parquet import parquet_frame
    refused = [name for name, on in (("--pairwise", args.pairwise), ("--ci", args.ci),
                                     ("--diagnostics", args.diagnostics)) if on]
    if refused:
        raise UsageError(f"--dask computes pooled values; it does not take "
                             f"{', '.join(refused)}")
    if chosen and args.weights != "identity":
        raise UsageError("--dask: fleiss, gwet and brennan_prediger with identity weights "
                             "only (other weights depend on every category, known only at "
                             "the end)")
    frame, roles = parquet_frame(args.file)
    if "document" in roles:
        raise UsageError("--dask reads codings without a document column (give units "
                             "names unique over the documents)")
    if numeric or args.scalar:
        dtype = frame[roles["value"]].dtype
        if numeric and not (str(dtype) != "bool" and _numeric(dtype)):
            raise InputError(f"the column {roles['value']!r} holds {dtype}, not numbers; "
                             "numeric distances need a numeric column", path=args.file)
    from distributed import Client, LocalCluster
    cluster = None
    if args.dask == "local":
        workers = args.jobs if args.jobs > 1 else (os.cpu_count() or 1)
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        address: Any = cluster
    else:
        address = args.dask
    try:
        with Client(address) as client:
            stats = dask_stats(frame, ("alpha", "gwet") if chosen else ("alpha",),
                               coder=roles["coder"], unit=roles["unit"], value=roles["value"],
                               sep=None if args.scalar else args.sep)
            del client
    except InputError as err:
        raise InputError(str(err), path=args.file) from None
    finally:
        if cluster is not None:
            cluster.close()
    results = stats.alphas(args.distance)
    table = results_frame([], [(TOTAL, r) for r in results])
    kappas = stats.gwet.compute(chosen, level=args.ci or 0.95) if chosen and stats.gwet \
        else None
    signature = format_signature(
        "table", [("dist", ",".join(args.distance)), ("sep", args.sep),
                  ("values", "scalar" if args.scalar else "sets"), ("engine", "dask")])
    header = {"command": "table", "file": args.file, "rows": stats.rows, "repairs": {},
              "signature": signature}
    return _print(args, table, kappas, [], header, [args.file], signature,
                  {"rows": stats.rows, "repairs": {}})


def _numeric(dtype: Any) -> bool:
    import pandas as pd
    if isinstance(dtype, pd.CategoricalDtype):
        dtype = dtype.categories.dtype
    return bool(pd.api.types.is_numeric_dtype(dtype))
