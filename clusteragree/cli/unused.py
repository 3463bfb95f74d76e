"""Options given that do nothing on this run: each is a notice of kind ``unused`` saying why.

An option the user sets (its value differs from the default) must change the results, or the
run says why it does not: ``--bootstrap`` without ``--ci``, ``--worst`` without
``--diagnostics``, ``--text-dir`` on CoNLL files, ``--size`` with the plain tree distance, and
so on. The notices are facts about the command line, not about the input, so ``--strict`` does
not refuse them. Whether an input is of a format is decided by
:func:`clusteragree.cli.input_formats.detect`, as ``--input-format auto`` decides it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Iterator

from ..errors import Ledger, Notice
from ..exports.reading import IN_PARTS
from .exports import EXPORT_OPTIONS
from .input_formats import EXPORTS, detect

__all__ = ["check_unused", "given", "unused_options"]


def _set(args: argparse.Namespace, parser: argparse.ArgumentParser, dest: str) -> bool:
    """Whether the option of ``dest`` was given a value other than its default."""
    if not hasattr(args, dest):
        return False
    for action in parser._actions:
        if action.dest == dest:
            return getattr(args, dest) != action.default
    return False


def given(args: argparse.Namespace, parser: argparse.ArgumentParser,
          dests: Iterable[str]) -> set[str]:
    """Those of ``dests`` whose option was given a value other than its default (an option
    whose default is None is given whenever it is on the command line).

    Examples
    --------
    >>> from clusteragree.cli import build_parser
    >>> args = build_parser().parse_args(["table", "x.csv", "--sep", ";", "--seed", "2"])
    >>> sorted(given(args, args.parser, ["sep", "seed", "worst"]))
    ['seed', 'sep']
    """
    return {dest for dest in dests if _set(args, parser, dest)}


def _flag(parser: argparse.ArgumentParser, dest: str) -> str:
    for action in parser._actions:
        if action.dest == dest:
            longs = [o for o in action.option_strings if o.startswith("--")]
            if longs:
                return longs[0]
    return "--" + dest.replace("_", "-")


def _inputs(args: argparse.Namespace) -> list[str]:
    if getattr(args, "dirs", None):
        return list(args.dirs)
    files = getattr(args, "files", None)
    if files:
        return list(files)
    file = getattr(args, "file", None)
    return [file] if file else []


def _formats(args: argparse.Namespace) -> set[str]:
    chosen = getattr(args, "input_format", "auto") or "auto"
    if chosen != "auto":
        return {chosen}
    return {detect(args.command, path, getattr(args, "encoding", None))
            for path in _inputs(args)}


#: Options that act on some input formats only: command -> dest -> formats.
FORMAT_OPTIONS: dict[str, dict[str, set[str]]] = {
    "table": {"sep": {"codings", "parquet", "inception-agreement", *EXPORTS},
              "scalar": {"codings", "parquet", "inception-agreement", *EXPORTS},
              "engine": {"codings", "parquet", "inception-agreement", *EXPORTS},
              "weights": {"codings", "parquet", "inception-agreement", *EXPORTS},
              "p": {"multilabel-csv", "multilabel-json"},
              "categories": {"multilabel-csv", "multilabel-json"}, "layer": set(EXPORTS)},
    "coref": {"text_dir": {"brat"}, "types": {"brat"}, "relations": {"brat"},
              "layer": set(EXPORTS), "chain_layer": set(EXPORTS)},
    "trees": {"roots": {"conll"}, "cycles": {"conll"}, "words": {"brackets"}},
    "spans": {"lengths": {"spans-csv"}, "text_dir": {"spans-csv", "brat"},
              "types": {"brat", *EXPORTS}, "layer": set(EXPORTS),
              "fragments": {"brat", "conll", "corefud", "pyramid", "pan", *EXPORTS}},
}


_LABEL_TABLES = {"codings", "multilabel-csv", "multilabel-json", "parquet", "inception-agreement"}
FORMAT_OPTIONS["validate"] = {
    "text_dir": {"brat"}, "sep": {"codings", "multilabel-csv"},
    "vocabulary": {*_LABEL_TABLES, "spans-csv", "pygamma", *EXPORTS},
    "names": {"conll", "corefud", "brat", "conllu", "brackets", "pyramid", "pan", "spans-csv",
              "pygamma", *EXPORTS},
    "chain_layer": set(EXPORTS), "jobs": set(IN_PARTS),
}

for _command in ("coref", "spans", "table", "validate"):  # the options of the export readers
    FORMAT_OPTIONS[_command].update({dest: set(formats)
                                     for dest, (formats, _) in EXPORT_OPTIONS.items()})


def _named(formats: set[str]) -> str:
    """Formats in words: every export format of the tools at once as "tools' exports".

    Examples
    --------
    >>> _named({"codings", "parquet", *EXPORTS})
    "codings and parquet and tools' exports"
    """
    names = sorted(formats - set(EXPORTS)) if set(EXPORTS) <= formats else sorted(formats)
    return " and ".join([*names, *(["tools' exports"] if set(EXPORTS) <= formats else [])])


def _metrics(args: argparse.Namespace) -> set[str]:
    value = getattr(args, "metrics", None)
    if value is None:
        return set()
    names = value if isinstance(value, (list, tuple)) else str(value).split(",")
    return {str(n).strip().lower() for n in names}


def unused_options(args: argparse.Namespace, parser: argparse.ArgumentParser
                   ) -> Iterator[str]:
    """The reasons why options given on this command line do nothing, one per option.

    Examples
    --------
    >>> from clusteragree.cli import build_parser
    >>> args = build_parser().parse_args(["table", "x.csv", "--bootstrap", "50"])
    >>> list(unused_options(args, args.parser))
    ['--bootstrap shapes the bootstrap interval, which only --ci asks for']
    """
    given: Callable[[str], bool] = lambda dest: _set(args, parser, dest)  # noqa: E731
    flag: Callable[[str], str] = lambda dest: _flag(parser, dest)  # noqa: E731
    command = args.command
    fmt = getattr(args, "format", "text")
    metrics = _metrics(args)
    gamma = command in ("spans", "coref") and bool({"gamma", "gamma-cat", "gamma-k"} & (
        metrics or ({"gamma"} if command == "spans" else set())))
    if getattr(args, "ci", 0) is None:
        for dest in ("bootstrap", "seed", "resample", "interval"):
            if dest == "seed" and gamma:
                continue  # the seed of gamma's sampling too
            if given(dest):
                yield f"{flag(dest)} shapes the bootstrap interval, which only --ci asks for"
    if given("worst") and not getattr(args, "diagnostics", False) \
            and not getattr(args, "differences", False):
        yield ("--worst says how many units --diagnostics lists (and sentences or differences "
               "--differences lists); neither was asked for")
    if given("table") and fmt not in ("csv", "latex"):
        yield (f"--table chooses the one table that -f csv or -f latex writes; -f {fmt} "
               "writes every table")
    if command == "pan" and given("scores") and fmt != "text":
        yield (f"--scores adds the scores to the text output; -f {fmt} "
               + ("holds them always" if fmt == "json" else "writes them with --table scores"))
    if given("pairwise") and command in ("pyramid", "coref", "trees", "pan"):
        count = len(getattr(args, "names", None) or []) or len(_inputs(args))
        if command != "pan" and count == 2:
            yield "--pairwise adds the rows of every pair of three or more annotators; with " \
                  "two, their pair is all of them"
    bound = {dest: formats for dest, formats in FORMAT_OPTIONS.get(command, {}).items()
             if given(dest)}
    if bound:
        found = _formats(args)
        for dest, formats in bound.items():
            if found and not found & formats:
                yield (f"{flag(dest)} acts on {_named(formats)} input; "
                       f"these inputs are {' and '.join(sorted(found))}")
    if command == "spans":
        chosen = set(metrics or {"f1", "tokens", "ualpha", "ualpha2016", "gamma"})
        if chosen & {"gamma-cat", "gamma-k"}:
            chosen.add("gamma")  # one alignment and one set of samples serve the family
        for dest, measure in (("rules", "f1"), ("scheme", "tokens"), ("alpha", "gamma"),
                              ("beta", "gamma"), ("delta_empty", "gamma"),
                              ("precision", "gamma"), ("alignment", "gamma"),
                              ("max_candidates", "gamma")):
            if given(dest) and measure not in chosen:
                yield f"{flag(dest)} acts on {measure}, which --metrics does not ask for"
    if command == "table":
        if given("p") and metrics and not metrics & {"kappa", "all"}:
            yield "--p is augmented kappa's primary weight (--metrics kappa)"
        if given("categories") and metrics and not metrics & {"am", "all"}:
            yield "--categories are A_m's categories (--metrics am)"
    if command == "coref":
        if given("singletons") and metrics and not metrics - {"alpha", "ualpha", "f1", "gamma"}:
            yield "--singletons acts on the coreference metrics; only alpha was asked for"
        if given("word_policy") and getattr(args, "units", "") != "words":
            yield "--word-policy says which mention a word takes its chain from: " \
                  "--units words"
    if command == "validate" and getattr(args, "level", 3) < 2:
        for dest in ("vocabulary", "chain_layer"):
            if given(dest):
                yield (f"{flag(dest)} acts on the checks of each annotation, level 2; "
                       f"--level {args.level} checks the files only")
    if command == "trees":
        distances = set(getattr(args, "distance", None) or [])
        if given("size") and distances and not distances & {"diff", "norm"}:
            yield "--size is |x| of the diff and norm distances; only plain was asked for"


def check_unused(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Add a notice of kind ``unused`` to the run's ledger for each option given that does
    nothing here (see :func:`unused_options`)."""
    ledger = Ledger.current()
    if ledger is None:
        return
    for reason in unused_options(args, parser):
        ledger.add(Notice("unused", reason))
