"""Helpers shared by the subcommands: the common options and JSON output."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from ..core.distances import DEFAULT_DISTANCES, DISTANCES, get_distance
from ..core.intervals import INTERVALS
from ..core.result import format_signature
from ..errors import Ledger, Notice, ParameterError, UsageError
from ..inputs import check_encoding
from ..report.formats import FORMATS
from .input_formats import auto_rule, input_formats

__all__ = [
    "Deprecated",
    "add_common",
    "add_distance",
    "add_jobs",
    "add_output",
    "check_names",
    "command_signature",
    "diagnostic_options",
    "distance_list",
    "interval_method",
    "interval_options",
    "name_list",
    "print_json",
]


def distance_list(text: str) -> list[str]:
    """Comma-separated distance names, checked (an argparse type)."""
    names = [t.strip() for t in text.split(",") if t.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give at least one distance")
    try:
        return [get_distance(name).name for name in names]
    except ParameterError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_distance(parser: argparse.ArgumentParser) -> None:
    """``--distance``: the distances of alpha (default :data:`DEFAULT_DISTANCES`)."""
    parser.add_argument(
        "--distance", type=distance_list, default=list(DEFAULT_DISTANCES),
        help="comma-separated distances among " + ", ".join(DISTANCES)
        + " (default: " + ",".join(DEFAULT_DISTANCES) + ")")


def name_list(text: str) -> list[str]:
    """Comma-separated names (an argparse type)."""
    names = [t.strip() for t in text.split(",")]
    if not all(names) or len(set(names)) != len(names):
        raise argparse.ArgumentTypeError("give distinct, non-empty names separated by commas")
    return names


def file_name_list(text: str) -> list[str]:
    """Comma-separated names, one per file, which may repeat (an argparse type)."""
    names = [t.strip() for t in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError("give non-empty names separated by commas")
    return names


class Deprecated(argparse.Action):
    """An old spelling of an option: stores into the new option's destination and warns."""

    def __init__(self, option_strings: list[str], dest: str, new: str = "", **kw: Any) -> None:
        self.new = new
        super().__init__(option_strings, dest, **kw)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        notes = getattr(namespace, "deprecations", None) or []
        notes.append(f"{option_string} is deprecated: use {self.new}")
        namespace.deprecations = notes  # warned about once the run's ledger is open
        setattr(namespace, self.dest, self.const if values is None or values == [] else values)


def check_names(names: list[str] | None, count: int) -> list[str] | None:
    """``--names`` must give one name per input."""
    if names is not None and len(names) != count:
        raise UsageError(f"--names gives {len(names)} names for {count} inputs")
    return names


_NOT_OPTIONS = {"run", "parser", "command", "files", "file", "dirs", "output", "format",
                "deprecations", "names", "encoding", "jobs", "interval_noted",
                "coref_corpora", "tree_annotations", "tree_cache", "pyramids",
                "directory", "force", "summary", "read_exports", "export", "span_results"}
# coref_corpora ... pyramids: what a command read or computed, handed to the report;
# directory, force, summary: where and how convert writes (its -f is kept as "written")


def command_signature(args: argparse.Namespace) -> str:
    """``command|option:value|...|v:VERSION``: the options that shape the results."""
    fields = []
    for key, value in sorted(vars(args).items()):
        if key in _NOT_OPTIONS or value is None:
            continue
        if isinstance(value, (list, tuple)):
            value = ",".join(map(str, value))
        if isinstance(value, (str, int, float, bool)):
            fields.append((key.replace("_", "-"), value))
    return format_signature(args.command, fields)


def _encoding(text: str) -> str:
    try:
        return str(check_encoding(text))
    except ParameterError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_output(parser: argparse.ArgumentParser, legacy_formats: tuple[str, ...] = ()) -> None:
    """``-f/--format`` (with the CLUSTERAGREE_FORMAT environment override) and
    ``-o/--output``: the output options of every subcommand."""
    env = os.environ.get("CLUSTERAGREE_FORMAT")
    parser.add_argument(
        "-f", "--format", dest="format", choices=FORMATS + legacy_formats,
        default=env if env in FORMATS else "text",
        metavar="{" + ",".join(FORMATS) + "}",
        help="output format (default: %(default)s; env CLUSTERAGREE_FORMAT)",
    )
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the results to FILE instead of standard output")


def add_common(parser: argparse.ArgumentParser, *, names: bool | str = False,
               pairwise: bool = False,
               interval: bool = False, documents: bool = True, diagnose: bool | None = None,
               legacy_formats: tuple[str, ...] = ()) -> None:
    """The options of every subcommand that reads annotations: the output options
    (:func:`add_output`), ``--input-format`` where the command reads several formats (the
    choices of :data:`clusteragree.cli.formats.INPUTS`), ``--strict`` and ``--encoding``; with
    ``names``, ``--names`` to name the annotators (``names="per-file"``: the annotator of each
    file, names repeating); with ``pairwise``, ``--pairwise``; with
    ``interval``, the bootstrap of alpha (``--ci``, ``--bootstrap``, ``--seed``,
    ``--interval``) and, unless
    ``documents`` is False, ``--resample``; ``--jobs`` (:func:`add_jobs`) always; with
    ``diagnose`` (default: as
    ``interval`` and ``documents``), ``--diagnostics`` and ``--worst``."""
    add_output(parser, legacy_formats)
    command = parser.prog.split()[-1]
    choices = input_formats(command)
    if choices:
        parser.add_argument("--input-format", dest="input_format", choices=choices,
                            default="auto",
                            help=f"input format; auto: {auto_rule(command)} (default: "
                            "%(default)s; clusteragree formats lists them all)")
    if names == "per-file":
        parser.add_argument("--names", type=file_name_list, metavar="A,B,...",
                            help="the annotator of each file, one name per file in order, "
                            "comma-separated; names repeat across peers (default: the first "
                            "field of ANNOTATOR.DOCSET.M.LEN.SEL.PEER.pan)")
    elif names:
        parser.add_argument("--names", type=name_list, metavar="A,B,...",
                            help="names of the annotators, one per input, comma-separated "
                            "(default: from the file names)")
    if interval:
        parser.add_argument("--ci", type=_level, metavar="LEVEL",
                            help="a bootstrap interval of alpha at this confidence level, "
                            "e.g. 0.95, with its standard error and the shares of resamples "
                            "below 0.667 and 0.8 (default: none)")
        parser.add_argument("--bootstrap", type=_resamples, default=1000, metavar="N",
                            help="resamples of the bootstrap (default: %(default)s)")
        parser.add_argument("--seed", type=_seed, default=None, metavar="S",
                            help="seed of the resamples (default: fresh each run)")
        parser.add_argument("--interval", choices=INTERVALS, default=None,
                            help="the bootstrap interval: bias-corrected and accelerated "
                            "(bca), or percentile (default: bca; percentile with --resample "
                            "krippendorff, as KALPHA computes it)")
    if interval and documents:
        parser.add_argument("--resample", choices=("auto", "units", "documents",
                                                   "krippendorff"),
                            default="auto",
                            help="what the bootstrap draws: whole documents when there are "
                            "several (auto), units, or pairs of values from the coincidences "
                            "as Krippendorff's KALPHA does (default: %(default)s)")
    if diagnose if diagnose is not None else (interval and documents):
        parser.add_argument("--diagnostics", action="store_true",
                            help="after the answer: the units that disagree most, each "
                            "category against the rest, alpha without each annotator and of "
                            "every pair, the coincidences, documents least reliable first")
        parser.add_argument("--worst", type=_count, default=10, metavar="K",
                            help="--diagnostics: how many units to list (default: "
                            "%(default)s)")
    if pairwise:
        parser.add_argument("--pairwise", action="store_true",
                            help="with three or more annotators, alpha for every pair as well "
                            "(column pair; all of them together: all)")
    add_jobs(parser)
    parser.add_argument(
        "--strict", action="store_true",
        help="refuse input that needs a repair, skip, merge or conversion (exit 1) instead of "
        "reporting it as a warning")
    parser.add_argument(
        "--encoding", type=_encoding, default=None,
        help="encoding of the input files (default: UTF-8, with or without a byte-order mark)")


def add_jobs(parser: argparse.ArgumentParser) -> None:
    """``--jobs N``: processes for the work that splits (documents, sentence pairs, annotator
    pairs) and threads for the bootstrap. The default, None, is every usable core; the results
    are the same whatever N, so N is not part of the signature."""
    parser.add_argument("--jobs", type=jobs_count, default=None, metavar="N",
                        help="processes (and bootstrap threads) to use; 0: every core, -k: "
                        "every core but k - 1; the results are the same whatever N "
                        "(default: every core)")


def jobs_count(text: str) -> int:
    """A number of processes: a whole number, 0 (every core) or negative (every core but
    some), as :func:`clusteragree.core.parallel.resolve_jobs` reads it (an argparse type)."""
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 6:
        raise argparse.ArgumentTypeError(f"give a whole number of processes (0: every core, "
                                         f"-k: every core but k - 1); got {text!r}")
    return int(text)


def _level(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"give a confidence level between 0 and 1, such as "
                                         f"0.95; got {text!r}")
    return value


def _resamples(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 9 or int(text) < 2:
        raise argparse.ArgumentTypeError(f"give a whole number of resamples of at least 2; "
                                         f"got {text!r}")
    return int(text)


def _count(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 9 or int(text) < 1:
        raise argparse.ArgumentTypeError(f"give a positive whole number; got {text!r}")
    return int(text)


def _seed(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise argparse.ArgumentTypeError(f"give a non-negative whole number; got {text!r}")
    return int(text)


def interval_method(args: argparse.Namespace) -> str | None:
    """The interval's method from ``--interval`` (BCa by default; percentile with
    ``--resample krippendorff``), stored back into ``args`` so that the run's signature names
    it (the bootstrap options given without ``--ci`` are said to do nothing by
    :mod:`clusteragree.cli.unused`)."""
    from ..core.intervals import interval_method as resolve
    if args.ci is None:
        return None
    args.interval = resolve(args.interval, getattr(args, "resample", "auto"))
    return str(args.interval)


def interval_options(args: argparse.Namespace) -> dict[str, Any]:
    """The bootstrap keywords of :func:`clusteragree.alpha_report` from the parsed options."""
    return {"ci": args.ci, "bootstrap": args.bootstrap, "seed": args.seed,
            "resample": args.resample, "jobs": args.jobs, "interval": interval_method(args)}


def diagnostic_options(args: argparse.Namespace) -> dict[str, Any]:
    """``diagnose`` and ``worst`` for the domain agreement functions."""
    return {"diagnose": args.diagnostics, "worst": args.worst}


def print_json(obj: dict[str, Any]) -> None:
    """Print a result object as JSON, with the ledger's notices under ``"warnings"``.

    NaN and infinities become null (valid JSON), and a notice of kind ``undefined`` names
    where; the JSON never holds a bare NaN.
    """
    from ..report.schema import plain_json
    out, nulls = plain_json(obj)
    ledger = Ledger.current()
    notices = ledger.notices if ledger is not None else []
    if nulls:
        shown = ", ".join(nulls[:5]) + (", ..." if len(nulls) > 5 else "")
        notices.append(Notice("undefined", f"{len(nulls)} value(s) undefined on these data, "
                              f"written as null: {shown}"))
    out["warnings"] = [n.as_dict() for n in notices]
    print(json.dumps(out, indent=2, ensure_ascii=False, allow_nan=False, default=str))
