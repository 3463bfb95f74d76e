"""The options of annotation tools' exports, the same in every command that reads them
(``coref``, ``spans``, ``table``, ``convert``), and the reading of the inputs with them.

Each option belongs to the readers of some export formats (:data:`EXPORT_OPTIONS`); given
with another format it does nothing and says so (``unused``, :mod:`clusteragree.cli.unused`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

__all__ = ["EXPORT_OPTIONS", "add_export_options", "export_kwargs", "read_export_inputs",
           "read_exports"]

#: Option dest -> (the export formats whose reader takes it, its keyword there).
EXPORT_OPTIONS: dict[str, tuple[frozenset[str], str]] = {
    "curation": (frozenset({"inception"}), "curation"),
    "typesystem": (frozenset({"uima-xmi"}), "typesystem"),
    "duplicates": (frozenset({"label-studio"}), "duplicates"),
    "text_key": (frozenset({"label-studio"}), "text_key"),
    "annotator_key": (frozenset({"label-studio"}), "annotator_key"),
    "answers": (frozenset({"prodigy"}), "answers"),
}


def add_export_options(parser: argparse.ArgumentParser) -> None:
    """Add the options of the export readers, in a group of their own."""
    group = parser.add_argument_group("annotation tools' exports")
    group.add_argument("--curation", action="store_true", default=None,
                       help="INCEpTION project: read the curated documents too, as the "
                       "annotator 'curation' (default: left out, with a note)")
    group.add_argument("--typesystem", metavar="FILE", default=None,
                       help="UIMA CAS XMI: the type system (default: TypeSystem.xml beside the "
                       "file, or the one in INCEpTION's ZIP)")
    group.add_argument("--duplicates", choices=("refuse", "first", "last"), default=None,
                       help="Label Studio: two annotations of one task by one user are refused "
                       "(default), or the first or the last is read")
    group.add_argument("--text-key", dest="text_key", metavar="NAME", default=None,
                       help="Label Studio: the field of the tasks' data that holds the text "
                       "(default: the one string field, or the one the regions are found in)")
    group.add_argument("--annotator-key", dest="annotator_key", choices=("email", "id"),
                       default=None,
                       help="Label Studio: name annotators by e-mail address (default) or id")
    group.add_argument("--answers", choices=("accept", "accept,reject"), default=None,
                       help="Prodigy: the answers read in manual recipes (default: accept; "
                       "rejected examples left out, with a count)")


def export_kwargs(args: argparse.Namespace, fmt: str) -> dict[str, Any]:
    """The reader keywords of the export options given, for the format ``fmt``."""
    out: dict[str, Any] = {}
    for dest, (formats, keyword) in EXPORT_OPTIONS.items():
        value = getattr(args, dest, None)
        if value is not None and fmt in formats:
            out[keyword] = value
    return out


#: Formats whose file is one annotator's annotation of one document, and names neither.
ONE_DOCUMENT = frozenset({"webanno-tsv", "uima-xmi", "uima-json"})


def read_exports(paths: Sequence[str], fmt: str, args: argparse.Namespace) -> list[Any]:
    """Read every input of one export format with the options given.

    A file of :data:`ONE_DOCUMENT` formats holds one annotator's annotation of one document
    and names neither: the inputs are taken as the annotations of one document (named after
    the first file) by as many annotators (named after the files, as coreference files are);
    a project export holds several documents and names its annotators. ``--jobs`` reaches the
    readers that read a large file on several processes (:data:`IN_PARTS`). Under ``--strict`` the
    exports' level-2 and level-3 errors of ``validate`` are refused here, for every command
    that reads them (:func:`clusteragree.spans.checks.refuse_export_errors`, and for the
    chains :func:`clusteragree.coref.export_checks.refuse_chain_errors`).
    """
    from pathlib import Path

    from ..core.model import unique_labels
    from ..exports.reading import IN_PARTS, read_export
    kwargs = export_kwargs(args, fmt)
    if fmt in IN_PARTS and hasattr(args, "jobs"):  # a large file read on several processes
        kwargs["jobs"] = args.jobs
    encoding = getattr(args, "encoding", None)
    if fmt in ONE_DOCUMENT:
        document = Path(paths[0]).stem
        exports = [read_export(p, fmt, encoding=encoding, annotator=str(name),
                               document=document, **kwargs)
                   for p, name in zip(paths, unique_labels(list(paths)), strict=True)]
    else:
        exports = [read_export(p, fmt, encoding=encoding, **kwargs) for p in paths]
    if getattr(args, "strict", False):
        from ..coref.export_checks import refuse_chain_errors
        from ..spans.checks import refuse_export_errors
        refuse_export_errors(exports)
        refuse_chain_errors(exports, chain_layer=getattr(args, "chain_layer", None))
    return exports


def read_export_inputs(paths: Sequence[str], kinds: Sequence[str], args: argparse.Namespace
                       ) -> dict[int, Any]:
    """The exports among the inputs, by position: the inputs of one export format are read
    together (:func:`read_exports`: one-document files are one document); the inputs of other
    formats (``kinds`` not an export format) are left to the command."""
    from ..exports.reading import EXPORT_FORMATS
    names = {f.name for f in EXPORT_FORMATS}
    out: dict[int, Any] = {}
    for kind in dict.fromkeys(k for k in kinds if k in names):
        at = [i for i, k in enumerate(kinds) if k == kind]
        out.update(zip(at, read_exports([paths[i] for i in at], kind, args), strict=True))
    return out
