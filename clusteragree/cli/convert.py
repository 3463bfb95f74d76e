"""``clusteragree convert``: write each annotator's annotation in a format other tools read.

Here ``-f/--format`` names the format *written* (``conll2012``, ``corefud``, ``brat``, ``csv``)
and ``-o/--output`` the directory written to; the summary of what was written goes to standard
output as text, or as the JSON of every command with ``--summary json`` (warnings included).
"""

# The library is imported inside the run function, so that --help and usage errors stay fast.
from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from ..errors import InputError, Ledger, Notice, ParameterError, option
from ._common import _encoding, add_jobs, command_signature, name_list, print_json
from .exports import EXPORT_OPTIONS, add_export_options, read_export_inputs
from .input_formats import auto_rule, input_formats
from .unused import given

__all__ = ["WRITTEN", "input_kind", "register"]

#: The formats written, and the name of each annotator's output (``{}``: the annotator).
WRITTEN = {"conll2012": "{}.conll", "corefud": "{}.conllu", "brat": "{}", "csv": "codings.csv"}


def _export_formats() -> tuple[str, ...]:
    from ..exports.reading import EXPORT_FORMATS
    return tuple(f.name for f in EXPORT_FORMATS)


def register(sub: Any) -> None:
    """Add the subcommand to the parser."""
    convert = sub.add_parser(
        "convert", help="write each annotator's annotation as CoNLL-2012, CorefUD, BRAT or "
        "the codings CSV of table",
        description="Read coreference files (CoNLL, CorefUD, BRAT) or annotation tools' "
        "exports and write, per annotator, what other tools read: CoNLL-2012 (the official "
        "scorer), CorefUD, BRAT standoff, or the long CSV of clusteragree table (every "
        "annotator in one codings.csv). Every file of a document has the same tokens. What a "
        "format cannot hold is said in the warnings, with counts; --strict refuses it.")
    convert.add_argument("files", nargs="+", metavar="INPUT",
                         help="coreference files or directories, or exports of annotation "
                         "tools")
    convert.add_argument("-f", "--format", dest="format", required=True,
                         choices=tuple(WRITTEN),
                         help="the format written: conll2012 (ANNOTATOR.conll), corefud "
                         "(ANNOTATOR.conllu), brat (a directory ANNOTATOR/ of NAME.txt and "
                         "NAME.ann), csv (codings.csv: the document labels of every annotator)")
    convert.add_argument("-o", "--output", dest="directory", required=True, metavar="DIR",
                         help="the directory to write into (created if needed)")
    convert.add_argument("--force", action="store_true",
                         help="replace files already in DIR (default: refuse, naming them)")
    choices = (*input_formats("convert"), *_export_formats())
    convert.add_argument("--input-format", dest="input_format", choices=choices,
                         default="auto", help=f"input format; auto: {auto_rule('convert')}; "
                         "else the export format that recognises it (default: %(default)s)")
    convert.add_argument("--names", type=name_list, metavar="A,B,...",
                         help="names of the annotators, one per annotator in the order they "
                         "first appear (a coreference file is one annotator; an export names "
                         "its own), comma-separated (default: from the files or the export)")
    convert.add_argument("--layer", default=None,
                         help="the span layer of the mentions when an export has several "
                         "(default: the layers of its chains; refused when it cannot be told)")
    convert.add_argument("--chain-layer", dest="chain_layer", default=None,
                         help="the chain layer, or the relation layer whose relations link "
                         "coreferent spans, when an export has several")
    convert.add_argument("--singletons", choices=("keep", "remove"), default="keep",
                         help="conll2012: write chains of one mention, or leave them out as "
                         "the CoNLL-2012 data do (default: %(default)s; corefud and brat keep "
                         "them)")
    convert.add_argument("--discontinuous", choices=("extent", "drop"), default="extent",
                         help="conll2012: a discontinuous mention written from its first token "
                         "to its last, or left out (default: %(default)s)")
    convert.add_argument("--sep", default=";",
                         help="csv: the separator of a set of labels (default: %(default)s)")
    convert.add_argument("--unlabelled", choices=("missing", "empty"), default="missing",
                         help="csv: a document an annotator gave no label of a layer is "
                         "missing (no row) or the empty set (default: %(default)s)")
    convert.add_argument("--text-dir", help="BRAT input: the directory of the .txt files "
                         "(default: beside the .ann files)")
    convert.add_argument("--types", type=_names, default=None,
                         help="BRAT input: comma-separated entity types read as mentions "
                         "(default: every type)")
    convert.add_argument("--relations", type=_names, default=(),
                         help="BRAT input: comma-separated relation types whose two arguments "
                         "corefer")
    convert.add_argument("--summary", choices=("text", "json"), default="text",
                         help="what was written, on standard output: a table, or the JSON of "
                         "every command with the warnings (default: %(default)s)")
    convert.add_argument(
        "--strict", action="store_true",
        help="refuse input that needs a repair, and a conversion that loses anything the "
        "format cannot hold (exit 1), instead of reporting it as a warning")
    convert.add_argument("--encoding", type=_encoding, default=None,
                         help="encoding of the input files (default: UTF-8, with or without a "
                         "byte-order mark)")
    add_export_options(convert)
    add_jobs(convert)
    convert.set_defaults(run=_run_convert)


def _names(text: str) -> tuple[str, ...]:
    names = tuple(t.strip() for t in text.split(",") if t.strip())
    if not names:
        raise argparse.ArgumentTypeError("give at least one name")
    return names


#: Options that act on one written format only.
_WRITTEN_OPTIONS = {"singletons": {"conll2012"}, "discontinuous": {"conll2012"},
                    "sep": {"csv"}, "unlabelled": {"csv"},
                    "layer": {"conll2012", "corefud"},
                    "chain_layer": {"conll2012", "corefud", "brat"}}
_BRAT_INPUT = ("text_dir", "types", "relations")


def input_kind(path: str, chosen: str) -> str:
    """The format an input is read as: ``chosen``, or (``auto``) a directory of ``.ann``
    files is ``brat``, a name ending in ``.conllu`` ``corefud``, a file whose first line
    starts a CoNLL document ``conll``, anything else the one export format that recognises it.

    Examples
    --------
    >>> input_kind("a.conllu", "auto"), input_kind("x.json", "label-studio")
    ('corefud', 'label-studio')
    """
    if chosen != "auto":
        return chosen
    p = Path(path)
    if p.is_dir() and any(p.glob("*.ann")):
        return "brat"
    if path.lower().endswith(".conllu"):
        return "corefud"
    if p.is_file() and _starts_conll(p):
        return "conll"
    from ..exports.reading import detect_export
    found = detect_export(p)
    if found is None:
        raise InputError("cannot tell the format of this input: neither a coreference file "
                         "(#begin document, .conllu, a directory of .ann) nor an export this "
                         f"project reads; name it with {option('input_format')}", path)
    return found


def _starts_conll(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    for line in head.decode("utf-8", errors="replace").lstrip("\ufeff").splitlines():
        if line.strip():
            return line.lstrip().startswith("#") and "begin document" in line
    return False


def _read(path: str, args: argparse.Namespace, index: int) -> Any:
    """An export of the annotation of ``path``."""
    from ..coref.brat import read_brat_dir
    from ..coref.conll import read_conll
    from ..coref.corefud import read_corefud
    from ..coref.exports import export_from_corpus
    kind = input_kind(path, args.input_format)
    lenient = not args.strict
    if kind in ("conll", "corefud", "brat"):
        if kind == "brat":
            corpus = read_brat_dir(path, args.text_dir, types=args.types,
                                   relations=args.relations, encoding=args.encoding)
        elif kind == "corefud":
            corpus = read_corefud(path, lenient=lenient, encoding=args.encoding)
        else:
            corpus = read_conll(path, lenient=lenient, encoding=args.encoding)
        if args.strict:  # refuse what validate calls an error in this annotation
            from ..coref.checks import refuse_check_errors
            refuse_check_errors([corpus], level=2)
        stem = Path(path.rstrip("/\\")).name
        if kind != "brat":
            stem = Path(stem).stem
        return kind, export_from_corpus(corpus, stem or path)
    return kind, args.read_exports[index]  # read together (_run_convert)


def _run_convert(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from ..exports.reading import IN_PARTS
    from ..exports.writers import (
        safe_name,
        write_brat,
        write_codings_csv,
        write_conll2012,
        write_corefud,
    )
    from ..report.schema import envelope
    from ..report.text import text_report
    ledger = Ledger.current()
    input_kinds = [input_kind(path, args.input_format) for path in args.files]
    args.read_exports = read_export_inputs(args.files, input_kinds, args)
    read = [_read(path, args, i) for i, path in enumerate(args.files)]
    kinds = {kind for kind, _ in read}
    for dest, formats in _WRITTEN_OPTIONS.items():
        if given(args, args.parser, [dest]) and args.format not in formats:
            _unused(ledger, f"{_flag(dest)} acts on {' and '.join(sorted(formats))} output; "
                    f"this run writes {args.format}")
    for dest, (readers, _) in EXPORT_OPTIONS.items():
        if getattr(args, dest, None) is not None and not readers & kinds:
            _unused(ledger, f"{_flag(dest)} acts on {' and '.join(sorted(readers))} input; "
                    f"these inputs are {' and '.join(sorted(kinds))}")
    if given(args, args.parser, ["jobs"]) and not IN_PARTS & kinds:
        _unused(ledger, f"--jobs reads a large file of {' and '.join(sorted(IN_PARTS))} on "
                f"several processes; these inputs are {' and '.join(sorted(kinds))}")
    for dest in _BRAT_INPUT:
        if given(args, args.parser, [dest]) and "brat" not in kinds:
            _unused(ledger, f"{_flag(dest)} acts on brat input; these inputs are "
                    f"{' and '.join(sorted(kinds))}")
    # The annotators, in order of appearance: (input, annotator) pairs; renamed by --names.
    pairs = list(dict.fromkeys((k, d.annotator) for k, (_, e) in enumerate(read)
                               for d in e.documents))
    if args.names is not None and len(args.names) != len(pairs):
        shown = ", ".join(a for _, a in pairs)
        raise ParameterError(f"{option('names')} gives {len(args.names)} names for "
                             f"{len(pairs)} annotators ({shown})", params=("names",))
    rename = {pair: (args.names[k] if args.names else pair[1]) for k, pair in enumerate(pairs)}
    documents = [replace(d, annotator=rename[(k, d.annotator)])
                 for k, (_, e) in enumerate(read) for d in e.documents]
    by_annotator: dict[str, list[Any]] = {}
    for doc in documents:
        by_annotator.setdefault(doc.annotator, []).append(doc)
    for annotator, docs in by_annotator.items():
        seen: dict[str, str] = {}
        for doc in docs:
            if doc.name in seen:
                raise InputError(f"annotator {annotator!r} has document {doc.name!r} twice "
                                 f"(also in {seen[doc.name]}); give each input's annotator "
                                 f"its own name with {option('names')}", doc.path or None)
            seen[doc.name] = doc.path
    folder = Path(args.directory)
    targets = ({"codings": folder / WRITTEN["csv"]} if args.format == "csv" else
               {a: folder / WRITTEN[args.format].format(safe_name(a)) for a in by_annotator})
    if len(set(targets.values())) != len(targets):
        raise InputError(f"two annotators' names give the same file name; rename them with "
                         f"{option('names')}", folder)
    if not args.force:
        existing = [str(t) for t in targets.values() if os.path.lexists(t)]
        if existing:
            raise InputError(f"already there: {', '.join(existing)}; give --force to replace "
                             "them, or another directory", folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(f"cannot make the directory: {err.strerror}", folder) from None
    rows = []
    if args.format == "csv":
        target = targets["codings"]
        with _open(target) as handle:
            done = write_codings_csv(documents, handle, sep=args.sep,
                                     unlabelled=args.unlabelled)
        rows.append(_record("all", args.format, target, done))
    else:
        for annotator, docs in by_annotator.items():
            target = targets[annotator]
            if args.format == "brat":
                done = write_brat(docs, target, chain_layer=args.chain_layer,
                                  decided_from=documents)
            else:
                with _open(target) as handle:
                    if args.format == "conll2012":
                        done = write_conll2012(docs, handle, layer=args.layer,
                                               chain_layer=args.chain_layer,
                                               singletons=args.singletons,
                                               discontinuous=args.discontinuous,
                                               tokens_from=documents)
                    else:
                        done = write_corefud(docs, handle, layer=args.layer,
                                             chain_layer=args.chain_layer,
                                             tokens_from=documents)
            rows.append(_record(annotator, args.format, target, done))
    if args.summary == "json":
        args.written = args.format  # -f names what is written: part of the signature
        print_json(envelope("convert", args.files, command_signature(args), rows,
                            {"format": args.format, "directory": str(folder),
                             "annotators": list(by_annotator)}))
        return 0
    import pandas as pd
    frame = pd.DataFrame(rows).drop(columns=["kind"])
    what = "rows" if args.format == "csv" else "mentions"
    total = int(frame[what].sum()) if what in frame else 0
    print(text_report(f"Wrote {len(rows)} {args.format} output(s) into {folder}: "
                      f"{len(by_annotator)} annotator(s), {total} {what}",
                      [(None, frame)]))
    return 0


def _unused(ledger: Ledger | None, message: str) -> None:
    if ledger is not None:
        ledger.add(Notice("unused", message))


def _flag(dest: str) -> str:
    return "--" + dest.replace("_", "-")


def _open(path: Path) -> Any:
    try:
        return open(path, "w", encoding="utf-8", newline="")
    except OSError as err:
        raise InputError(f"cannot write: {err.strerror}", path) from None


def _record(annotator: str, fmt: str, path: Path, done: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": "written", "annotator": annotator, "format": fmt,
                           "path": str(path), "documents": done.documents}
    if fmt == "csv":
        out["rows"] = done.rows
    else:
        if fmt != "brat":
            out["tokens"] = done.tokens
        out["mentions"] = done.mentions
        out["chains"] = done.chains
    return out

