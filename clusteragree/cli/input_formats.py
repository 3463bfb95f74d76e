"""Every input format of every subcommand, how ``--input-format auto`` chooses it, and the
options that change how it is read.

:data:`INPUTS` is the one list of input formats: each subcommand's ``--input-format`` choices
come from it, ``clusteragree formats`` prints it, and docs/cli.md's table of input formats is
checked against it by the tests.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from ..exports.reading import EXPORT_FORMATS, IN_PARTS

__all__ = ["EXPORTS", "INPUTS", "InputFormat", "auto_rule", "detect", "export_formats",
           "input_formats"]

#: The ``--input-format`` names of annotation tools' exports (:mod:`clusteragree.exports`).
EXPORTS: tuple[str, ...] = tuple(f.name for f in EXPORT_FORMATS)


#: How ``--input-format auto`` recognises each export (its recogniser, in words).
RECOGNISED = {
    "inception": "a ZIP (or its folder) with `exportedproject*.json` and `annotation/`",
    "webanno-tsv": "a first line `#FORMAT=WebAnno TSV ...`",
    "uima-xmi": "an `xmi:XMI` document of the UIMA CAS namespace",
    "uima-json": "a JSON object starting with `%TYPES` or `%FEATURE_STRUCTURES`",
    "label-studio": "a JSON list whose first task has `annotations`",
    "doccano": "`.jsonl` (a file, a folder or a ZIP of them) with a text and `label`, "
               "`entities` or `cats`",
    "prodigy": "JSONL whose first line has `_input_hash` and `answer`",
}


def _reader_options(fmt: str) -> tuple[str, ...]:
    """The command-line options of the reader of the export format ``fmt``."""
    from .exports import EXPORT_OPTIONS
    return tuple("--" + dest.replace("_", "-") for dest, (formats, _) in EXPORT_OPTIONS.items()
                 if fmt in formats)


def export_formats() -> tuple[str, ...]:
    """The ``--input-format`` names of annotation tools' exports."""
    return EXPORTS


def _export(path: str) -> str | None:
    """The export format that recognises ``path``, None when none does (several: refused)."""
    if path == "-" or not os.path.exists(path):  # the reader says what is missing
        return None
    from ..exports.reading import detect_export
    return detect_export(path)


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
    InputFormat("table", "inception-agreement", "INCEpTION's agreement page: its Diagnosis "
                "(`...-diff.csv`) or CSV download", "a header of one of those tables",
                ("--sep", "--scalar", "--names")),
    *(InputFormat("table", f.name, f"{f.tool}: {f.holds}; its document labels",
                  RECOGNISED[f.name],
                  ("--layer", "--sep", "--scalar", "--names", *_reader_options(f.name)))
      for f in EXPORT_FORMATS),
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
    *(InputFormat("coref", f.name, f"{f.tool}: {f.holds}; its chains", RECOGNISED[f.name],
                  ("--layer", "--chain-layer", "--names", *_reader_options(f.name)))
      for f in EXPORT_FORMATS),
    InputFormat("spans", "spans-csv", "span table (CSV, or TSV for `.tsv`): header with "
                "`document,start,end` and `annotator`, `label`, attributes", "a header naming "
                "`document`, `start` and `end`", ("--names", "--lengths", "--text-dir")),
    InputFormat("spans", "pygamma", "pygamma-agreement CSV `annotator,category,start,end` "
                "(no header; one document per file)", "a first line of four fields ending in "
                "two numbers", ()),
    InputFormat("spans", "brat", "BRAT standoff entities: a directory of `.ann` files per "
                "annotator", "a directory", ("--text-dir", "--types", "--fragments")),
    InputFormat("spans", "conll", "CoNLL-2011/2012 coreference mentions", "a name ending in "
                "`.conll` or `_conll`", ("--fragments",)),
    InputFormat("spans", "corefud", "CorefUD CoNLL-U mentions", "a name ending in `.conllu`",
                ("--fragments",)),
    InputFormat("spans", "pyramid", "DUCView `.pyr`: contributors in the model summaries",
                "a name ending in `.pyr`", ("--fragments",)),
    InputFormat("spans", "pan", "DUCView `.pan`: contributors in the peer summaries",
                "a name ending in `.pan`", ("--fragments", "--names")),
    *(InputFormat("spans", f.name, f"{f.tool}: {f.holds}", RECOGNISED[f.name],
                  ("--layer", "--types", "--fragments", "--names", *_reader_options(f.name)))
      for f in EXPORT_FORMATS),
    InputFormat("convert", "conll", "CoNLL-2011/2012 or SemEval-2010 coreference", "a file "
                "whose first line is `#begin document`", ()),
    InputFormat("convert", "corefud", "CorefUD CoNLL-U", "a name ending in `.conllu`", ()),
    InputFormat("convert", "brat", "BRAT standoff: a directory of `.ann` files",
                "a directory of `.ann` files", ("--text-dir", "--types", "--relations")),
    InputFormat("trees", "conll", "CoNLL-X / CoNLL-U dependencies", "any name but `.tree`",
                ("--roots", "--cycles")),
    InputFormat("trees", "brackets", "bracketed trees, one after another",
                "a name ending in `.tree`", ("--words",)),
    InputFormat("validate", "conll", "CoNLL-2011/2012 or SemEval-2010 coreference",
                "a first line `#begin document`", ("--names",)),
    InputFormat("validate", "corefud", "CorefUD CoNLL-U (coreference in MISC `Entity`)",
                "a name ending in `.conllu` whose first 64 KiB hold `Entity=`", ("--names",)),
    InputFormat("validate", "brat", "BRAT standoff: a directory of `.ann` files",
                "a directory of `.ann` files", ("--names", "--text-dir")),
    InputFormat("validate", "conllu", "CoNLL-X / CoNLL-U dependency trees", "any other "
                "file of tab-separated lines, or a directory of them", ("--names",)),
    InputFormat("validate", "brackets", "bracketed trees", "a name ending in `.tree`, or a "
                "directory of them", ("--names",)),
    InputFormat("validate", "pyramid", "DUCView `.pyr`", "a name ending in `.pyr`", ("--names",)),
    InputFormat("validate", "pan", "DUCView `.pan`", "a name ending in `.pan`", ("--names",)),
    InputFormat("validate", "codings", "long CSV `coder,unit,labels`", "a name ending in "
                "`.csv` or `.tsv`, or `-`", ("--sep", "--vocabulary")),
    InputFormat("validate", "multilabel-csv", "multi-label CSV `item,annotator,label[,rank]`",
                "a header starting `item,annotator,label`", ("--sep", "--vocabulary")),
    InputFormat("validate", "parquet", "Parquet with the columns of `codings`", "a name "
                "ending in `.parquet`, or a directory of them", ("--vocabulary",)),
    InputFormat("validate", "multilabel-json", "multi-label JSON", "a name ending in `.json` "
                "that is no tool's export", ("--vocabulary",)),
    InputFormat("validate", "inception-agreement", "INCEpTION's agreement page tables",
                "a header of one of those tables", ("--vocabulary",)),
    InputFormat("validate", "spans-csv", "span table with `document,start,end`",
                "a header naming `document`, `start` and `end`", ("--names", "--vocabulary")),
    InputFormat("validate", "pygamma", "pygamma-agreement CSV", "a first line of four fields "
                "ending in two numbers", ("--names", "--vocabulary")),
    *(InputFormat("validate", f.name, f"{f.tool}: {f.holds}", RECOGNISED[f.name],
                  ("--vocabulary", "--names", "--chain-layer", *_reader_options(f.name),
                   *(("--jobs",) if f.name in IN_PARTS else ())))
      for f in EXPORT_FORMATS),
)


def input_formats(command: str) -> tuple[str, ...]:
    """The ``--input-format`` choices of ``command``: ``auto`` and the names of its formats
    (empty when the command reads one format only)."""
    names = tuple(f.name for f in INPUTS if f.command == command and f.name is not None)
    return ("auto", *names) if names else ()


def auto_rule(command: str) -> str:
    """How ``--input-format auto`` chooses, in words (for the option's help)."""
    return "; ".join(f"{f.chosen}: {f.name}" for f in INPUTS
                     if f.command == command and f.name is not None).replace("%", "%%")


def detect(command: str, path: str, encoding: str | None = None) -> str:
    """The format ``--input-format auto`` reads ``path`` as, for ``command`` (the rules of
    :data:`INPUTS`); ``""`` for a command that reads one format.

    Examples
    --------
    >>> detect("coref", "a.conllu"), detect("trees", "a.tree"), detect("table", "x.json")
    ('corefud', 'brackets', 'multilabel-json')
    """
    if command == "validate":
        return _validate_format(path, encoding)
    if command in ("coref", "spans", "table"):
        found = _export(path)
        if found is not None:
            return found
    if command == "coref":
        return ("brat" if os.path.isdir(path)
                else "corefud" if path.endswith(".conllu") else "conll")
    if command == "spans":
        return _span_format(path, encoding)
    if command == "trees":
        if os.path.isdir(path):  # a directory of one annotator: its files decide
            names = sorted(os.listdir(path))
            return "brackets" if names and all(n.endswith(".tree") for n in names) else "conll"
        return "brackets" if path.endswith(".tree") else "conll"
    if command == "table":
        if path != "-" and _is_agreement(path):
            return "inception-agreement"
        if path != "-" and _is_parquet(path):
            return "parquet"
        if path.endswith(".json"):
            return "multilabel-json"
        return ("multilabel-csv" if path != "-" and _has_multilabel_header(path, encoding)
                else "codings")
    return ""


def _head_text(path: str, size: int = 65536) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read(size).decode("utf-8", errors="replace").lstrip("\ufeff")
    except OSError:
        return ""


def _validate_format(path: str, encoding: str | None) -> str:
    """The format ``validate`` reads ``path`` as (the rules of :data:`INPUTS`)."""
    if path != "-" and os.path.isdir(path):
        names = sorted(os.listdir(path))
        if _is_parquet(path):
            return "parquet"
        if any(n.endswith(".ann") for n in names):
            return "brat"
        if names and all(n.endswith(".tree") for n in names):
            return "brackets"
        found = _export(path)
        return found if found is not None else "conllu"
    if path == "-":
        return "codings"
    for suffix, name in ((".pyr", "pyramid"), (".pan", "pan"), (".tree", "brackets")):
        if path.endswith(suffix):
            return name
    found = _export(path)
    if found is not None:
        return found
    head = _head_text(path)
    first = next((line for line in head.splitlines() if line.strip()), "")
    if first.startswith("#begin document"):
        return "conll"
    if path.endswith(".conllu"):
        return "corefud" if "Entity=" in head else "conllu"
    if path.endswith(".json"):
        return "multilabel-json"
    if _is_agreement(path):
        return "inception-agreement"
    if _is_parquet(path):
        return "parquet"
    if _has_multilabel_header(path, encoding):
        return "multilabel-csv"
    if path.endswith((".csv", ".tsv")):
        from ..spans.readers import sniff_table
        span = sniff_table(path, encoding)
        if span in ("spans-csv", "pygamma"):
            return span
    if "\t" in first or first.startswith("#"):
        return "conllu"
    return "codings"


def _span_format(path: str, encoding: str | None) -> str:
    """The format of a ``spans`` input (the rules of :data:`INPUTS`); a file none of them
    recognise is refused with the choices."""
    from ..errors import InputError

    if os.path.isdir(path):
        return "brat"
    name = path.lower()
    for end, kind in ((".conllu", "corefud"), (".pyr", "pyramid"), (".pan", "pan"),
                      (".conll", "conll"), ("_conll", "conll")):
        if name.endswith(end):
            return kind
    from ..spans.readers import sniff_table
    found = sniff_table(path, encoding)
    if found is None:
        choices = ", ".join(f.name or "" for f in INPUTS if f.command == "spans")
        raise InputError("cannot tell the format of this file: its first line is neither a "
                         "span table's header (document,start,end, ...) nor a line of "
                         f"pygamma-agreement's CSV; choose it with --input-format ({choices})",
                         path, 1)
    return found


def _is_agreement(path: str) -> bool:
    """A table downloaded from INCEpTION's agreement page (its header)."""
    from pathlib import Path

    from ..exports.agreement_csv import sniff_agreement_csv
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return sniff_agreement_csv(Path(path), head)


def _is_parquet(path: str) -> bool:
    """A name ending in ``.parquet``, or a directory holding ``.parquet`` files."""
    if path.lower().endswith(".parquet"):
        return True
    return os.path.isdir(path) and any(
        name.lower().endswith(".parquet") for _, _, names in os.walk(path) for name in names)


def _has_multilabel_header(path: str, encoding: str | None) -> bool:
    """A first line starting ``item,annotator,label`` (read leniently; the reader decodes
    strictly)."""
    try:
        with open(path, "rb") as handle:
            head = handle.readline(4096)
    except OSError:
        return False
    text = head.decode(encoding or "utf-8-sig", errors="replace").lstrip("\ufeff")
    return text.strip().lower().replace(" ", "").startswith("item,annotator,label")
