"""INCEpTION's project export: every annotator's annotation of every document, in one ZIP.

A project export (Project settings > Export, "Export the whole project") is a ZIP holding:

* ``exportedproject*.json``: the project (its documents with their formats, and each
  annotator's annotation document with its state);
* ``annotation/DOCUMENT/USER.EXT``: each annotator's annotation of each document, in the
  format chosen at export time (``.tsv`` for WebAnno TSV 3.x, read here; ``.zip`` holding
  UIMA CAS XMI and its type system, and ``.json`` UIMA CAS JSON, read through
  :mod:`clusteragree.exports.cas` when ``dkpro-cassis`` is installed; plain text and other
  formats carry no annotation this project reads and are refused, naming the format to
  choose);
* ``curation/DOCUMENT/CURATION_USER.EXT``: the curated annotation, read as one more annotator
  named ``curation`` only when asked (``curation=True``), else left out with a note;
* ``source/DOCUMENT``: the original files; a plain-text source (format ``text``) checks the
  text rebuilt from the annotation and, when every token agrees with it, replaces it (the TSV
  format cannot record the text between sentences);
* ``annotation_ser/``, ``curation_ser/``: the same annotations serialised by Java (``.ser``),
  which only INCEpTION reads: ignored, with a notice.

Annotators and documents are named as the export names them (a user's file stem, the
document's folder). A user without a file for a document is *missing* there (no entry), not
an empty annotation. States (``exportedproject*.json``): ``IN_PROGRESS`` and ``FINISHED`` are
read; ``IGNORE`` (the document was locked for the user, or the user gave up on it) and
``NEW`` (never opened: INCEpTION exports no file for it, an older export may hold the initial
copy) are left out as missing, with a notice; the pseudo-user ``INITIAL_CAS`` (the document as
imported) is no annotator and is left out.

References
----------
INCEpTION user guide, "Projects > Export"; INCEpTION's ``AnnotationDocumentExporter`` (the
layout of ``annotation/`` and which states are exported) and ``AnnotationDocumentState``.
docs/formats.md, "INCEpTION and WebAnno".
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import Any

from ..errors import InputError, ParameterTypeError, Tally, notify, option
from ..inputs import decode, load_json
from . import cas
from .model import AnnotatedDocument, Export
from .webanno import read_webanno_tsv_bytes

__all__ = ["read_inception_project", "sniff_inception_project"]

TOOL = "inception"
CURATION = "curation"
CURATION_USER = "CURATION_USER"
INITIAL_CAS = "INITIAL_CAS"
#: States of an annotator's document that are read; the others are left out as missing.
READ_STATES = ("IN_PROGRESS", "FINISHED")
#: A member larger than this is refused rather than read into memory.
MAX_MEMBER = 1 << 30
_CAS_EXTS = ("xmi", "zip", "json")
HOW = ("export the project again choosing the format 'WebAnno TSV v3.3' (Project settings > "
       "Export > Format)")


class _Source:
    """The members of a ZIP or of an unpacked export folder, by posix name."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.zip: zipfile.ZipFile | None = None
        if path.is_dir():
            self.names = sorted(PurePosixPath(p.relative_to(path)).as_posix()
                                for p in path.rglob("*") if p.is_file())
            return
        try:
            self.zip = zipfile.ZipFile(path)
            self.names = [i.filename for i in self.zip.infolist()
                          if i.filename and not i.filename.endswith("/")]
        except FileNotFoundError:
            raise InputError("no such file", path) from None
        except (zipfile.BadZipFile, OSError, ValueError, IndexError, EOFError) as err:
            raise InputError(f"not a readable ZIP file ({err}); give INCEpTION's project "
                             "export as downloaded", path) from None

    def where(self, name: str) -> str:
        return f"{os.fspath(self.path)}!{name}" if self.zip is not None else \
            os.fspath(self.path / name)

    def read(self, name: str) -> bytes:
        try:
            if self.zip is None:
                size = (self.path / name).stat().st_size
                if size > MAX_MEMBER:
                    raise InputError(f"too large to read ({size} bytes)", self.where(name))
                return (self.path / name).read_bytes()
            info = self.zip.getinfo(name)
            if info.file_size > MAX_MEMBER:
                raise InputError(f"too large to read ({info.file_size} bytes)",
                                 self.where(name))
            with self.zip.open(info) as handle:
                data = handle.read(MAX_MEMBER + 1)
            if len(data) > MAX_MEMBER:
                raise InputError("too large to read", self.where(name))
            return data
        except InputError:
            raise
        except Exception as err:  # zipfile and its decompressors raise many kinds
            raise InputError(f"cannot read this member ({type(err).__name__}: {err}); "
                             "download the export again", self.where(name)) from None

    def close(self) -> None:
        if self.zip is not None:
            self.zip.close()


def _project_json(source: _Source) -> tuple[str | None, dict[str, Any]]:
    names = [n for n in source.names if "/" not in n and n.startswith("exportedproject")
             and n.endswith(".json")]
    if not names:
        return None, {}
    raw = source.read(names[0])
    data = load_json(decode(raw, source.where(names[0])), source.where(names[0]))
    if not isinstance(data, dict):
        raise InputError("the project description is not a JSON object", source.where(names[0]),
                         1)
    return names[0], data


def _states(project: dict[str, Any]) -> tuple[dict[tuple[str, str], str], dict[str, str]]:
    """``(document, user) -> state`` and ``document -> format`` from the project JSON."""
    states: dict[tuple[str, str], str] = {}
    for entry in project.get("annotation_documents") or ():
        if isinstance(entry, dict) and isinstance(entry.get("name"), str) and \
                isinstance(entry.get("user"), str):
            states[(entry["name"], entry["user"])] = str(entry.get("state") or "")
    formats: dict[str, str] = {}
    for entry in project.get("source_documents") or ():
        if isinstance(entry, dict) and isinstance(entry.get("name"), str):
            formats[entry["name"]] = str(entry.get("format") or "")
    return states, formats


def _members(source: _Source, folder: str) -> Iterator[tuple[str, str, str, str]]:
    """``(member, document, user, extension)`` under ``folder/DOCUMENT/USER.EXT``."""
    for name in source.names:
        parts = name.split("/")
        if parts[0] != folder or len(parts) < 3 or not parts[-1]:
            continue
        document, file = "/".join(parts[1:-1]), parts[-1]
        stem, dot, ext = file.rpartition(".")
        if not dot:
            stem, ext = file, ""
        yield name, document, stem, ext.lower()


def _read_member(source: _Source, name: str, document: str, user: str, ext: str,
                 encoding: str | None) -> AnnotatedDocument:
    where = source.where(name)
    if ext == "tsv":
        return read_webanno_tsv_bytes(source.read(name), path=where, document=document,
                                      annotator=user, encoding=encoding, tool=TOOL)
    if ext in _CAS_EXTS:
        if ext == "json":
            return cas.read_cas_json_bytes(source.read(name), path=where, document=document,
                                           annotator=user, tool=TOOL)
        if ext == "zip":
            return cas.read_cas_zip_bytes(source.read(name), path=where, document=document,
                                          annotator=user, tool=TOOL)
        folder = name.rsplit("/", 1)[0]
        ts = next((n for n in source.names if n.rsplit("/", 1)[0] == folder
                   and n.rsplit("/", 1)[-1].lower() == "typesystem.xml"), None)
        if ts is None:
            raise InputError("a UIMA CAS XMI file without its type system (no "
                             f"{folder}/TypeSystem.xml beside it); {HOW}", where)
        return cas.read_cas_xmi_bytes(source.read(name), source.read(ts), path=where,
                                      document=document, annotator=user, tool=TOOL)
    if ext == "txt":
        raise InputError("the annotations were exported as plain text, which holds no "
                         f"annotation (the format 'AUTO' of a plain-text document); {HOW}",
                         where)
    raise InputError(f"annotations in the format '.{ext}' are not read from a project "
                     f"export; {HOW}, or 'UIMA CAS XMI' with dkpro-cassis installed", where)


def _check_source(doc: AnnotatedDocument, source: _Source, name: str, encoding: str | None
                  ) -> AnnotatedDocument:
    """``doc`` with the source's text when every token agrees with it; a notice otherwise."""
    if doc.text is None:
        return doc
    try:
        text = decode(source.read(name), source.where(name), encoding=encoding)
    except InputError:
        notify("skipped", f"the source of document {doc.name!r} is not readable text; the "
               "text rebuilt from the annotation is used", path=source.where(name))
        return doc
    bad = [t for t in doc.tokens if doc.text[t[0]:t[1]] != text[t[0]:t[1]]]
    if bad:
        notify("mismatch", f"{len(bad)} token(s) of {doc.annotator!r}'s annotation of "
               f"{doc.name!r} differ from the source text at their offsets (first at "
               f"{bad[0][0]}-{bad[0][1]}); the text rebuilt from the annotation is used",
               path=doc.path)
        return doc
    return replace(doc, text=text)


def read_inception_project(path: str | os.PathLike[str], *, encoding: str | None = None,
                           curation: bool = False) -> Export:
    """Read an INCEpTION (or WebAnno 3) project export: every annotator's documents.

    Parameters
    ----------
    path : str or os.PathLike
        The export ZIP (or the folder it unpacks to).
    encoding : str, optional
        The encoding of the annotation and source files (default UTF-8).
    curation : bool, default=False
        Read ``curation/`` as one more annotator named ``curation``
        (``--curation`` on the command line).

    Returns
    -------
    Export
        One document per (document, annotator) with a file; ``notes`` name the project.

    Raises
    ------
    InputError
        Not a project export; annotations in a format this project does not read (the
        message names the format to choose when exporting); a malformed annotation file
        (``ZIP!member:LINE``).

    References
    ----------
    INCEpTION user guide, "Projects > Export". docs/formats.md, "INCEpTION and WebAnno".

    Examples
    --------
    >>> import io, pathlib, tempfile, zipfile
    >>> tsv = ("#FORMAT=WebAnno TSV 3.3\\n#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type."
    ...        "NamedEntity|value\\n\\n\\n#Text=Hi Bo\\n1-1\\t0-2\\tHi\\t_\\t\\n"
    ...        "1-2\\t3-5\\tBo\\tPER\\t\\n")
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "project.zip"
    >>> with zipfile.ZipFile(path, "w") as z:
    ...     z.writestr("exportedproject1.json", '{"name": "demo", "annotation_documents": '
    ...                '[{"name": "d.txt", "user": "ann", "state": "FINISHED"}]}')
    ...     z.writestr("annotation/d.txt/ann.tsv", tsv)
    >>> export = read_inception_project(path)
    >>> [(d.name, d.annotator, [s.label for s in d.spans]) for d in export]
    [('d.txt', 'ann', ['PER'])]
    """
    if not isinstance(curation, bool):
        raise ParameterTypeError(f"{option('curation')} must be True or False. Got "
                                 f"{curation!r}.", params=("curation",))
    p = Path(path)
    if not p.exists():
        raise InputError("no such file or folder", os.fspath(path))
    source = _Source(p)
    try:
        return _read(source, os.fspath(path), encoding, curation)
    finally:
        source.close()


def _read(source: _Source, path: str, encoding: str | None, curation: bool) -> Export:
    json_name, project = _project_json(source)
    if json_name is None and not any(n.startswith("annotation/") for n in source.names):
        raise InputError("not an INCEpTION project export: no exportedproject*.json and no "
                         "annotation/ folder", path)
    states, formats = _states(project)
    tally = Tally(path)
    documents: list[AnnotatedDocument] = []
    read_pairs: set[tuple[str, str]] = set()
    for name, document, user, ext in _members(source, "annotation"):
        if user == INITIAL_CAS:
            tally.add("note", "the documents as imported (pseudo-user INITIAL_CAS) are no "
                      "annotator's and were left out")
            continue
        state = states.get((document, user))
        if state is not None and state not in READ_STATES:
            why = ("IGNORE: locked for this user, or given up" if state == "IGNORE" else
                   f"{state}: not started")
            tally.add("skipped", f"annotation documents in state {why}; left out as missing "
                      "(not empty)")
            continue
        documents.append(_read_member(source, name, document, user, ext, encoding))
        read_pairs.add((document, user))
    curated = list(_members(source, "curation"))
    if curated and curation:
        for name, document, user, ext in curated:
            if user != CURATION_USER:
                tally.add("ignored", "files under curation/ not named CURATION_USER")
                continue
            documents.append(_read_member(source, name, document, CURATION, ext, encoding))
    elif curated:
        notify("note", f"the curated documents (curation/, {len(curated)} file(s)) were left "
               f"out; read them as an annotator named {CURATION!r} with "
               f"{option('curation')}", path=path)
    serialised = [n for n in source.names if n.endswith(".ser")]
    tally.add("ignored", "annotations serialised by Java (*.ser, readable by INCEpTION only; "
              "the same annotations are read from annotation/ and curation/)",
              count=len(serialised))
    known = ("annotation/", "curation/", "source/")
    others = [n for n in source.names if not n.startswith(known) and not n.endswith(".ser")
              and n != json_name]
    tally.add("ignored", "members that hold no annotation (" + ", ".join(
        sorted({n.split("/")[0] + ("/" if "/" in n else "") for n in others})[:5]) + ")",
        count=len(others))
    missing = [k for k, s in states.items() if s in READ_STATES and k not in read_pairs
               and k[1] not in (CURATION_USER, INITIAL_CAS)]
    tally.add("note", "annotation documents the project lists as started or finished have "
              "no annotation file in the export (missing for those annotators)",
              count=len(missing))
    tally.report()
    if not documents:
        raise InputError("no annotation to read: the export holds no file under "
                         "annotation/DOCUMENT/USER.EXT that is in progress or finished"
                         + ("" if curation or not curated else
                            f" (the curation is read with {option('curation')})"), path)
    checked = []
    for doc in documents:
        src = f"source/{doc.name}"
        if formats.get(doc.name) == "text" and src in source.names:
            doc = _check_source(doc, source, src, encoding)
        checked.append(doc)
    notes = (f"project {project['name']!r}",) if isinstance(project.get("name"), str) else ()
    return Export(tuple(checked), path, TOOL, notes)


def sniff_inception_project(path: Path, head: bytes) -> bool:
    """Whether ``path`` is an INCEpTION project export: a ZIP (or folder) with an
    ``exportedproject*.json`` at its top and an ``annotation/`` folder."""
    try:
        if path.is_dir():
            return (path / "annotation").is_dir() and any(path.glob("exportedproject*.json"))
        if not head.startswith(b"PK\x03\x04"):
            return False
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
        return any("/" not in n and n.startswith("exportedproject") and n.endswith(".json")
                   for n in names) and any(n.startswith("annotation/") for n in names)
    except Exception:  # a recogniser never raises
        return False
