"""Every input format of every subcommand, how ``--input-format auto`` chooses it, and the
options that change how it is read.

:data:`INPUTS` is the one list of input formats: each subcommand's ``--input-format`` choices
come from it, ``clusteragree formats`` prints it, and docs/cli.md's table of input formats is
checked against it by the tests.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["INPUTS", "InputFormat", "auto_rule", "input_formats"]


class InputFormat(NamedTuple):
    """One input format of one subcommand."""

    command: str
    #: The ``--input-format`` value that names it (None: the command reads only this format).
    name: str | None
    #: What the files hold.
    holds: str
    #: How ``--input-format auto`` (or the command) recognises it.
    chosen: str
    #: The options that change how it is read.
    options: tuple[str, ...]


INPUTS: tuple[InputFormat, ...] = (
    InputFormat("table", "codings", "long CSV `coder,unit,labels` (or `value`, `label`; "
                "optional `document`)", "any other file, or `-` (standard input)",
                ("--sep", "--scalar")),
    InputFormat("table", "parquet", "Parquet with the columns of `codings` (one file, or a "
                "directory of parts)", "a name ending in `.parquet`, or a directory of them",
                ("--sep", "--scalar", "--dask")),
    InputFormat("table", "multilabel-csv", "multi-label CSV `item,annotator,label[,rank]` or "
                "`...,weight`", "a header starting `item,annotator,label`",
                ("--sep", "--metrics", "--p", "--categories")),
    InputFormat("table", "multilabel-json", "multi-label JSON list of objects `item`, "
                "`annotator`, `label`, `rank`", "a name ending in `.json`",
                ("--sep", "--metrics", "--p", "--categories")),
    InputFormat("pyramid", None, "DUCView 1.4/1.5 `.pyr` (or the pyramid of a `.pan`)",
                "always", ("--units", "--tokenizer", "--overlap", "--unmarked")),
    InputFormat("pan", None, "DUCView `.pan`, named `ANNOTATOR.DOCSET.M.LEN.SEL.PEER.pan`",
                "always", ("--tokenizer", "--no-nonmatching", "--scores")),
    InputFormat("coref", "conll", "CoNLL-2011/2012 or SemEval-2010", "any other file",
                ("--singletons",)),
    InputFormat("coref", "corefud", "CorefUD CoNLL-U", "a name ending in `.conllu`",
                ("--word-policy",)),
    InputFormat("coref", "brat", "BRAT standoff: a directory of `.ann` files", "a directory",
                ("--text-dir", "--types", "--relations")),
    InputFormat("trees", "conll", "CoNLL-X / CoNLL-U dependencies", "any name but `.tree`",
                ("--roots", "--cycles")),
    InputFormat("trees", "brackets", "bracketed trees, one after another",
                "a name ending in `.tree`", ("--words",)),
)


def input_formats(command: str) -> tuple[str, ...]:
    """The ``--input-format`` choices of ``command``: ``auto`` and the names of its formats
    (empty when the command reads one format only)."""
    names = tuple(f.name for f in INPUTS if f.command == command and f.name is not None)
    return ("auto", *names) if names else ()


def auto_rule(command: str) -> str:
    """How ``--input-format auto`` chooses, in words (for the option's help)."""
    return "; ".join(f"{f.chosen}: {f.name}" for f in INPUTS
                     if f.command == command and f.name is not None)
