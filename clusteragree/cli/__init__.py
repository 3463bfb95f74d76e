"""Command line: ``clusteragree SUBCOMMAND ...``; wiring only, the work is in the library.

Results go to stdout; warnings and errors to stderr. Every run is read into a warnings ledger
(:class:`~clusteragree.errors.Ledger`): text, CSV and LaTeX outputs print its notices on stderr
at the end, JSON lists them under ``"warnings"``; ``--strict`` refuses any notice about the
input. Exit status: 0 success, 1 bad input (the message starts with ``FILE:LINE:``), a refusal
under ``--strict``, options the data cannot take, or nothing to compare; 2 bad usage: argument
parsing and the commands' own checks of their options (:class:`~clusteragree.errors.UsageError`,
the subcommand's usage line first); 70 an internal error (a bug: the message says how to report
it), among them a library :class:`~clusteragree.errors.ParameterError` about no option of the
command; 130 interrupted. Messages name options as the command line spells them
(:func:`~clusteragree.errors.option`) and are one line each. One module per subcommand.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from typing import NoReturn

from .._version import __version__
from ..errors import (
    ClusterAgreeError,
    InputError,
    Ledger,
    Notice,
    ParameterError,
    UsageError,
    spelling,
)
from ..progress import shown
from .unused import check_unused

__all__ = ["EXIT_INPUT", "EXIT_INTERNAL", "EXIT_USAGE", "build_parser", "main"]

EXIT_INPUT, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 1, 2, 70, 130


EXAMPLES = {
    "table": "clusteragree table codings.csv --distance nominal,masi",
    "pyramid": "clusteragree pyramid A.pyr B.pyr --units words",
    "pan": "clusteragree pan A.D0601.M.250.A.1.pan B.D0601.M.250.A.1.pan --scores",
    "coref": "clusteragree coref key.conll response.conll --metrics alpha,muc,conll",
    "trees": "clusteragree trees a.conllu b.conllu --distance all --metrics accuracy",
    "spans": "clusteragree spans annotator_a/ annotator_b/ --metrics f1,gamma",
    "formats": "clusteragree formats -f csv",
    "convert": "clusteragree convert export.json -f conll2012 -o converted/",
    "validate": "clusteragree validate annotator_a.conllu annotator_b.conllu --level 3",
    "report": "clusteragree report coref key.conll response.conll -o report.html",
}


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors show the usage line and one example."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        example = EXAMPLES.get(self.prog.split()[-1])
        if example:
            print(f"example: {example}", file=sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``clusteragree`` command."""
    parser = Parser(
        prog="clusteragree",
        description="Inter-annotator agreement on clusters, label sets and trees.",
        epilog="Exit status: 0 success, 1 bad input or a refusal under --strict, 2 bad usage, "
        "70 internal error. Warnings (repairs, skips, ...) go to stderr, or to the "
        "\"warnings\" list of JSON output.",
    )
    parser.add_argument("--version", action="version", version=f"clusteragree {__version__}")
    from . import (  # when needed
        convert,
        coref,
        formats,
        pyramid,
        report,
        spans,
        table,
        trees,
        validate,
    )

    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for module in (table, pyramid, coref, trees, spans, validate, convert, report, formats):
        module.register(sub)
    for name, subparser in sub.choices.items():
        subparser.set_defaults(parser=subparser, command=name)
        if name in EXAMPLES and not subparser.epilog:
            subparser.epilog = f"example: {EXAMPLES[name]}"
    return parser


#: A message longer than this (it quotes a huge field of the input) is cut in its middle.
LONGEST_MESSAGE = 1000


def one_line(message: str) -> str:
    r"""A message on one line, cut in the middle when it quotes too much of the input.

    Examples
    --------
    >>> one_line("a\n  b")
    'a b'
    >>> len(one_line("x" * 5000)) < 1100
    True
    """
    message = " ".join(message.split())
    if len(message) > LONGEST_MESSAGE:
        cut = len(message) - LONGEST_MESSAGE
        message = (f"{message[:700]} [... {cut:,} characters ...] "
                   f"{message[-(LONGEST_MESSAGE - 700):]}")
    return message


def _print_notices(ledger: Ledger) -> None:
    for notice in ledger.notices:
        print(f"warning: {one_line(str(notice))}", file=sys.stderr)


def _error(prefix: str, message: str) -> None:
    message = one_line(message)
    print(f"{prefix}: {message}" if prefix else message, file=sys.stderr)


#: Library parameters that the command line sets through an option of another name.
ALIASES = {"coders": "names", "annotators": "names", "per_peer": "per_doc",
           "per_document": "per_doc", "size_by": "size", "level": "ci", "n": "bootstrap"}


def option_spelling(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Library parameter name -> the option that sets it (``{"roots": "--roots"}``), from a
    subcommand's parser (and :data:`ALIASES`), for :func:`clusteragree.errors.spelling`."""
    found: dict[str, str] = {}
    for action in parser._actions:
        longs = [o for o in action.option_strings if o.startswith("--")]
        if longs and action.dest not in found:
            found[action.dest] = longs[0]
    for param, dest in ALIASES.items():
        if dest in found:
            found.setdefault(param, found[dest])
    return found


def _internal(prog: str, err: BaseException) -> int:
    if os.environ.get("CLUSTERAGREE_DEBUG"):
        raise err
    _error(f"{prog}: internal error",
           f"{type(err).__name__}: {err}. This is a bug in clusteragree {__version__}; "
           "please report it with the command line and the input (CLUSTERAGREE_DEBUG=1 "
           "shows the traceback)")
    return EXIT_INTERNAL


@contextlib.contextmanager
def _output(path: str | None) -> Iterator[None]:
    """Standard output, or the file of ``-o/--output`` (written only when the run succeeds)."""
    if path is None:
        yield
        return
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        yield
    try:
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(buffer.getvalue())
    except OSError as err:
        raise InputError(f"cannot write the output: {err.strerror}", path=path) from None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``clusteragree`` command; returns the exit status."""
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    if argv is None:
        argv = sys.argv[1:]
    if list(argv) == ["--version"]:  # answered before loading numpy and pandas
        print(f"clusteragree {__version__}")
        return 0
    parser = build_parser()
    for arg in argv:
        if "\x00" in arg:  # no file name or option value can hold one
            parser.print_usage(sys.stderr)
            _error("clusteragree: error", f"argument {arg!r} contains a NUL character")
            return EXIT_USAGE
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # the subcommand's own usage, not the top-level one
            args.parser.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as done:  # --help, --version, or a usage error argparse has printed
        return done.code if isinstance(done.code, int) else EXIT_USAGE
    sub: argparse.ArgumentParser = args.parser
    if hasattr(args, "jobs"):  # processes share the cores: the libraries' threads stay at one
        from ..core.parallel import pin_threads_for

        pin_threads_for(args.jobs)
    ledger = Ledger(strict=getattr(args, "strict", False))
    in_json = (getattr(args, "format", "text") == "json"
               or getattr(args, "summary", "text") == "json")  # convert: -f is what it writes
    code = 0
    options = option_spelling(sub)
    try:
        with ledger, _output(getattr(args, "output", None)), shown(sys.stderr.isatty()), \
                spelling(options):
            for note in getattr(args, "deprecations", None) or []:
                ledger.add(Notice("deprecated", note))
            check_unused(args, sub)
            code = int(args.run(args))
    except InputError as err:
        _print_notices(ledger)
        _error("" if err.where else f"{sub.prog}: error", str(err))
        return EXIT_INPUT
    except UsageError as err:  # the command's own check of its options
        _print_notices(ledger)
        sub.print_usage(sys.stderr)
        if args.command in EXAMPLES:
            print(f"example: {EXAMPLES[args.command]}", file=sys.stderr)
        _error(f"{sub.prog}: error", str(err))
        return EXIT_USAGE
    except ParameterError as err:
        _print_notices(ledger)
        if not err.params:  # about no option: the command passed the library a bad value
            return _internal(sub.prog, err)
        _error(f"{sub.prog}: error", str(err))  # options the data cannot take
        return EXIT_INPUT
    except ClusterAgreeError as err:
        _print_notices(ledger)
        _error(f"{sub.prog}: error", str(err))
        return EXIT_INPUT
    except MemoryError:
        _error(f"{sub.prog}: error", "not enough memory for this input")
        return EXIT_INPUT
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except Exception as err:
        return _internal(sub.prog, err)
    if not in_json:
        _print_notices(ledger)
    return code
