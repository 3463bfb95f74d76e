"""Every export format, how it is recognised, and one entry point that reads any of them.

:data:`EXPORT_FORMATS` names each format's reader and recogniser by module and function (the
modules are imported when a format is read or recognised, so the command line starts without
them). A reader is called ``read(path, *, encoding=None, **options) -> Export``; a recogniser
``sniff(path, head) -> bool`` with ``head`` the first 64 KiB of a file (``b""`` for a
directory). :func:`read_export` reads one path in a named format or, with ``"auto"``, in the one
format whose recogniser accepts it: none is an error naming the formats, several an error naming
the candidates and the option that decides (``--input-format`` on the command line,
``input_format`` in Python).

References
----------
docs/formats.md (each tool, how to export from it, what is read).
"""

from __future__ import annotations

import contextlib
import importlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import InputError, ParameterError, option
from ..inputs import objects_in_bulk
from .model import Export

__all__ = ["EXPORT_FORMATS", "IN_PARTS", "ExportFormat", "detect_export", "read_export"]


class ExportFormat(NamedTuple):
    """One export format: its ``--input-format`` name, the tool, what its files hold, and where
    its reader and recogniser are (module of :mod:`clusteragree.exports`, function names)."""

    name: str
    tool: str
    holds: str
    module: str
    reader: str
    sniffer: str


EXPORT_FORMATS: tuple[ExportFormat, ...] = (
    ExportFormat("inception", "INCEpTION / WebAnno", "a project export ZIP "
                 "(`annotation/DOCUMENT/USER.EXT`)", "inception", "read_inception_project",
                 "sniff_inception_project"),
    ExportFormat("webanno-tsv", "INCEpTION / WebAnno", "WebAnno TSV 3.x (one annotator's "
                 "document)", "webanno", "read_webanno_tsv", "sniff_webanno_tsv"),
    ExportFormat("uima-xmi", "INCEpTION / WebAnno / DKPro", "UIMA CAS XMI (with its type "
                 "system beside it; needs the `cas` extra)", "cas", "read_cas_xmi",
                 "sniff_cas_xmi"),
    ExportFormat("uima-json", "INCEpTION / WebAnno / DKPro", "UIMA CAS JSON (needs the `cas` "
                 "extra)", "cas", "read_cas_json", "sniff_cas_json"),
    ExportFormat("label-studio", "Label Studio", "the full JSON export (a list of tasks with "
                 "`annotations`)", "labelstudio", "read_label_studio", "sniff_label_studio"),
    ExportFormat("doccano", "doccano", "JSONL export: one file per user, or the ZIP of them",
                 "doccano", "read_doccano", "sniff_doccano"),
    ExportFormat("prodigy", "Prodigy", "`prodigy db-out` JSONL", "prodigy", "read_prodigy",
                 "sniff_prodigy"),
)

_BY_NAME = {f.name: f for f in EXPORT_FORMATS}
#: The formats whose reader takes ``jobs``: a large file read in parts on several processes
#: (:mod:`clusteragree.exports._jsonl_parts`).
IN_PARTS = frozenset({"prodigy"})
HEAD = 65536


def _function(module: str, name: str) -> Callable[..., Any]:
    return getattr(importlib.import_module(f"{__package__}.{module}"), name)


def _head(path: Path) -> bytes:
    if path.is_dir():
        return b""
    try:
        with open(path, "rb") as handle:
            return handle.read(HEAD)
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror or err}", path) from None


def detect_export(path: str | os.PathLike[str], *, among: tuple[str, ...] | None = None
                  ) -> str | None:
    """The one export format that recognises ``path`` (among ``among``, default all), None
    when none does.

    Raises
    ------
    InputError
        When several do (the message names them and the option that decides).
    """
    p = Path(path)
    head = _head(p)
    found = [f.name for f in EXPORT_FORMATS if (among is None or f.name in among)
             and _function(f.module, f.sniffer)(p, head)]
    if len(found) > 1:
        raise InputError(f"this input could be read as {', '.join(found)}: name its format "
                         f"with {option('input_format')}", p)
    return found[0] if found else None


def read_export(path: str | os.PathLike[str], input_format: str = "auto", *,
                encoding: str | None = None, **options: Any) -> Export:
    """Read an annotation tool's export.

    Parameters
    ----------
    path : str or os.PathLike
        The export: a file, a ZIP or a directory, as the format wants.
    input_format : str, default="auto"
        One of the names of :data:`EXPORT_FORMATS`, or ``"auto"`` (recognised from the file).
    encoding : str, optional
        The text encoding (default: UTF-8, a byte-order mark honoured).
    **options
        The format's own options (see its reader).

    Returns
    -------
    Export
    """
    if input_format == "auto":
        name = detect_export(path)
        if name is None:
            raise InputError("not an export this project reads (formats: "
                             f"{', '.join(_BY_NAME)}); name its format with "
                             f"{option('input_format')}", os.fspath(path))
    elif input_format in _BY_NAME:
        name = input_format
    else:
        raise ParameterError(f"{option('input_format')} must be one of "
                             f"{', '.join(['auto', *_BY_NAME])}. Got {input_format!r}.",
                             params=("input_format",))
    fmt = _BY_NAME[name]
    reader = _function(fmt.module, fmt.reader)
    with _collector_paused():
        return reader(path, encoding=encoding, **options)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while an export is read: a reader builds millions of
    small acyclic objects (parsed JSON, spans), and the collector's passes over them, each
    longer as the heap grows, took most of the reading time of large exports (about two thirds
    of ``json.loads`` alone). Reference counting still frees everything; the collector resumes
    at the end, the objects made counted old (:func:`clusteragree.inputs.objects_in_bulk`)."""
    with objects_in_bulk():
        yield
