"""doccano's JSONL export, read as annotated documents: one file per user.

doccano (project, **Dataset**, **Actions**, **Export Dataset**, format JSONL) writes a ZIP. With
the project's setting "Share annotations across all users" (collaborative annotation) off,
the ZIP holds one file per project member, ``<username>.jsonl``, each with that user's labels;
with it on, one ``all.jsonl`` with every user's labels merged, which says nothing of who
annotated what and is refused with that reason. Older doccano (1.x) also wrote
``unknown.jsonl``, the documents nobody labelled: left out with a notice.

A line is one document: its ``id``, its text (``text``; ``data`` before doccano 1.6), the
metadata fields, and the labels of the project's task:

* sequence labelling: ``label`` as ``[[start, end, "TAG"], ...]``;
* sequence labelling with relations: ``entities`` as objects ``{id, label, start_offset,
  end_offset}`` and ``relations`` as ``{id, from_id, to_id, type}``; the chains are the
  connected components of the relations;
* text classification: ``label`` as a list of category names (labels of the document);
* intent detection and slot filling: ``entities`` as ``[start, end, "TAG"]`` and ``cats``.

Spans are of the layer ``label``, document labels too. ``Comments`` and the metadata fields are
not read (a ``note`` names the fields once per file).

Offsets are code points (doccano's back end is Python). doccano writes no covered text, so
offsets can only be checked to lie within the text: a span outside it, or ending before it
starts, is left out with a notice.

Read from: the ZIP; a directory of ``<username>.jsonl`` files; one or several such files. The
annotator is the file's stem. Since doccano 1.7 every user's file lists every document of the
project, labelled by that user or not: a document a user never labelled reads as annotated
with nothing (the export with "Export only approved documents" lists only the documents each
user approved).

References
----------
doccano source, ``backend/data_export`` (celery_tasks.py: ``all.jsonl`` for collaborative
projects, ``<username>.jsonl`` per member otherwise; models.py and pipeline/formatters.py: the
fields of a line); doccano issue #2116 (the files of an export with and without shared
annotations). docs/formats.md, "doccano".
"""

from __future__ import annotations

import os
import re
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from ..errors import InputError, Tally, notify
from ..inputs import check_encoding, objects_in_bulk
from . import _records
from ._records import field, iter_jsonl, label_text, text_field
from .model import (
    AnnotatedDocument,
    DocumentLabel,
    Export,
    Relation,
    Span,
    chains_of,
    new_span,
)

__all__ = ["read_doccano", "sniff_doccano"]

TOOL = "doccano"
LAYER = "label"
MERGED = ("all", "unknown")
_ANNOTATION_KEYS = ("label", "entities", "cats", "relations")
_KNOWN = {"id", "text", "data", "Comments", *_ANNOTATION_KEYS}
_PRODIGY = re.compile(rb'"(?:_input_hash|_task_hash|_annotator_id|_session_id|answer)"\s*:')
_DOCCANO_TEXT = re.compile(rb'^\{.*"(?:text|data)"\s*:\s*"', re.S)
_DOCCANO_LABELS = re.compile(rb'"(?:label|entities|cats)"\s*:\s*\[')
_COLLABORATIVE = ("doccano wrote all.jsonl: the project shares annotations across users (the "
                  "setting 'Share annotations across all users'), so its export does not say "
                  "who annotated what; turn that setting off in the project's settings and "
                  "export again (JSONL): the ZIP then holds one file per user")


def _doccano_line(line: bytes) -> bool:
    line = line.removeprefix(b"\xef\xbb\xbf").strip()
    return bool(_DOCCANO_TEXT.match(line) and _DOCCANO_LABELS.search(line)
                and not _PRODIGY.search(line))


def _first_line(head: bytes) -> bytes:
    for line in head.split(b"\n"):
        if line.strip():
            return line
    return b""


def sniff_doccano(path: Path, head: bytes) -> bool:
    """Whether ``path`` looks like doccano's JSONL export: a ``.jsonl`` file, a directory of
    them, or the ZIP of them, whose lines have a text and doccano's labels (and none of
    Prodigy's fields).

    Examples
    --------
    >>> from pathlib import Path
    >>> sniff_doccano(Path("alice.jsonl"), b'{"id": 1, "text": "a b", "label": [[0, 1, "X"]]}')
    True
    >>> sniff_doccano(Path("p.jsonl"), b'{"text": "a", "label": "X", "answer": "accept"}')
    False
    """
    try:
        if path.is_dir():
            files = sorted(path.glob("*.jsonl"))
            if not files or len(files) != len([p for p in path.iterdir() if p.is_file()
                                               and not p.name.startswith(".")]):
                return False
            with open(files[0], "rb") as handle:
                return _doccano_line(_first_line(handle.read(65536)))
        if head.startswith(b"PK"):
            with zipfile.ZipFile(path) as archive:
                names = [n for n in archive.namelist() if not n.endswith("/")]
                if not names or not all(n.endswith(".jsonl") for n in names):
                    return False
                with archive.open(names[0]) as member:
                    return _doccano_line(_first_line(member.read(65536)))
        return _doccano_line(_first_line(head))
    except Exception:  # a recogniser never raises
        return False


Source = tuple[str, str, Any]  # (annotator, path for messages, opener)


def read_doccano(path: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *,
                 encoding: str | None = None) -> Export:
    """Read doccano's JSONL export: the ZIP of per-user files, a directory of them, or one or
    several ``<username>.jsonl`` files.

    Parameters
    ----------
    path : str, os.PathLike or a sequence of them
        The export.
    encoding : str, optional
        Default UTF-8 (a byte-order mark honoured).

    Returns
    -------
    Export
        One :class:`~clusteragree.exports.model.AnnotatedDocument` per (document, user),
        named by the document's ``id``; the annotator is the file's stem.

    Raises
    ------
    InputError
        Malformed input (with its file and line), a merged ``all.jsonl``, a file of another
        export format.

    References
    ----------
    doccano source, ``backend/data_export`` (the files and fields of the export).

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     name = os.path.join(tmp, "alice.jsonl")
    ...     with open(name, "w") as f:
    ...         _ = f.write('{"id": 3, "text": "Mary met John.", "label": [[0, 4, "PER"]]}\\n')
    ...     export = read_doccano(name)
    >>> doc = export.documents[0]
    >>> doc.name, doc.annotator, [(s.start, s.end, s.label) for s in doc.spans]
    ('3', 'alice', [(0, 4, 'PER')])
    """
    check_encoding(encoding)
    sources, where = _sources(path)
    docs: list[AnnotatedDocument] = []
    seen_users: dict[str, str] = {}
    with objects_in_bulk():
        for user, shown, opener in sources:
            if user in seen_users:
                raise InputError(f"two files of the user {user!r}: {seen_users[user]} and "
                                 f"{shown}; give each user's file once", shown)
            seen_users[user] = shown
            with opener() as stream:
                docs.extend(_read_file(stream, user, shown, encoding))
    if not docs:
        raise InputError("the export holds no document", where)
    return Export(tuple(docs), where, TOOL)


def _sources(path: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]
             ) -> tuple[list[Source], str]:
    if isinstance(path, (str, os.PathLike)):
        p = Path(path)
        if p.is_dir():
            files = sorted(p.glob("*.jsonl"))
            if not files:
                raise InputError("no .jsonl file in this directory; give the directory of "
                                 "doccano's files by user (<username>.jsonl)", p)
            return _files(files), os.fspath(p)
        if not p.exists():
            raise InputError("no such file or directory", p)
        if zipfile.is_zipfile(p):
            return _zip_members(p), os.fspath(p)
        return _files([p]), os.fspath(p)
    paths = [Path(p) for p in path]
    if not paths:
        raise InputError("no file given; give doccano's files by user (<username>.jsonl)")
    return _files(paths), os.fspath(paths[0])


def _stem(name: str) -> str:
    base = name.rsplit("/", 1)[-1]
    return base[:-len(".jsonl")] if base.endswith(".jsonl") else base.rsplit(".", 1)[0]


def _files(paths: list[Path]) -> list[Source]:
    out: list[Source] = []
    for p in paths:
        user = _stem(p.name)
        if p.is_dir():
            raise InputError("is a directory; give doccano's files by user, or their "
                             "directory alone", p)
        if not p.exists():
            raise InputError("no such file", p)
        if user in MERGED:
            _merged(user, os.fspath(p))
            continue
        out.append((user, os.fspath(p), lambda p=p: _open(p)))
    if not out:
        raise InputError("no file of a user to read", paths[0])
    return out


def _open(p: Path) -> IO[bytes]:
    try:
        return open(p, "rb")
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror or err}", p) from None


def _merged(user: str, shown: str) -> None:
    if user == "all":
        raise InputError(_COLLABORATIVE, shown)
    notify("skipped", "unknown.jsonl left out: the documents no user labelled (doccano 1.x "
           "writes them under the user 'unknown')", path=shown)


def _zip_members(p: Path) -> list[Source]:
    try:
        with zipfile.ZipFile(p) as archive:
            names = [n for n in archive.namelist() if not n.endswith("/")]
    except (zipfile.BadZipFile, OSError, ValueError) as err:
        raise InputError(f"not a readable ZIP: {err}", p) from None
    other = [n for n in names if not n.endswith(".jsonl")]
    if other:
        raise InputError(f"the ZIP holds {other[0]!r}, not a JSONL file: export the dataset "
                         "from doccano as JSONL", p)
    if not names:
        raise InputError("the ZIP holds no file", p)
    out: list[Source] = []
    for name in names:
        user, shown = _stem(name), f"{os.fspath(p)}!{name}"
        if user in MERGED:
            _merged(user, shown)
            continue
        out.append((user, shown, lambda name=name: _member(p, name)))
    if not out:
        raise InputError("no file of a user in the ZIP", p)
    return out


class _Member:
    """A ZIP member opened for reading, closing the archive with it."""

    def __init__(self, p: Path, name: str) -> None:
        self.archive = zipfile.ZipFile(p)
        try:
            self.stream = self.archive.open(name)
        except BaseException:
            self.archive.close()
            raise

    def __enter__(self) -> IO[bytes]:
        return self.stream

    def __exit__(self, *exc: object) -> None:
        self.stream.close()
        self.archive.close()


def _member(p: Path, name: str) -> _Member:
    try:
        return _Member(p, name)
    except (zipfile.BadZipFile, OSError, ValueError, RuntimeError,
            NotImplementedError) as err:
        raise InputError(f"cannot read {name} in the ZIP: {err}", p) from None


def _lines(stream: IO[bytes], shown: str, encoding: str | None
           ) -> Iterator[tuple[int, Any]]:
    try:
        yield from iter_jsonl(stream, shown, encoding=encoding)
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError) as err:
        raise InputError(f"cannot read: {err}", shown) from None


def _read_file(stream: IO[bytes], user: str, shown: str, encoding: str | None
               ) -> list[AnnotatedDocument]:
    tally = Tally(shown)
    docs: list[AnnotatedDocument] = []
    names: dict[str, int] = {}
    metadata: dict[str, None] = {}
    for line, record in _lines(stream, shown, encoding):
        if not isinstance(record, dict):
            raise InputError("a line of doccano's export is a JSON object; this one is not",
                             shown, line)
        doc = _document(record, user, shown, line, tally)
        if doc.name in names:
            raise InputError(f"document {doc.name} is written twice in this user's file "
                             f"(lines {names[doc.name]} and {line}): is it a merged file? "
                             "Give doccano's files by user as exported", shown, line)
        names[doc.name] = line
        for key in record:
            if key not in _KNOWN and key not in metadata and len(metadata) < 20:
                metadata[key] = None
        docs.append(doc)
    if metadata:
        notify("note", f"fields not read (document metadata): {', '.join(metadata)}",
               path=shown, once=("doccano metadata", shown))
    tally.report()
    return docs


def _document(record: dict[str, Any], user: str, shown: str, line: int, tally: Tally
              ) -> AnnotatedDocument:
    what = f"the document at line {line}"
    if "annotations" in record and not any(k in record for k in _ANNOTATION_KEYS):
        raise InputError("a doccano 1.x JSONL export ('annotations' with label ids): it names "
                         "labels by their ids only; export from doccano 1.6 or later (JSONL), "
                         "one file per user", shown, line)
    key = "data" if "data" in record and "text" not in record else "text"
    text = record.get(key)
    if type(text) is not str:
        text = field(record, key, str, what=what, path=shown, line=line)
    size, fast = len(text), _records.FAST
    name = record.get("id")
    if type(name) is int:
        name = str(name)
    elif type(name) is not str:
        name = text_field(record, "id", what=what, path=shown, line=line, required=False)
    if name is None:
        name = f"line {line}"
        tally.add("note", "documents without an id, named by their line", line)
    spans: list[Span] = []
    labels: list[DocumentLabel] = []
    relations: list[Relation] = []
    for column in ("label", "entities", "cats"):
        values = record.get(column)
        if type(values) is not list:
            values = field(record, column, list, what=what, path=shown, line=line,
                           required=False, default=[])
        for k, value in enumerate(values, 1):
            if fast and type(value) is dict and column == "entities":  # the common case
                sid, start, end = value.get("id"), value.get("start_offset"), \
                    value.get("end_offset")
                label = value.get("label")
                if type(start) is int and type(end) is int and type(label) is str and \
                        type(sid) in (int, str) and 0 <= start < end <= size:
                    spans.append(new_span(str(sid), start, end, LAYER, label_text(label),
                                          line=line))
                    continue
            item = f"{what}, {column} {k}"
            if isinstance(value, str):
                labels.append(DocumentLabel(LAYER, label_text(value), line))
            elif isinstance(value, list) and column != "cats":
                span = _tuple_span(value, len(spans), text, item, shown, line, tally)
                if span is not None:
                    spans.append(span)
            elif isinstance(value, dict) and column == "entities":
                span = _object_span(value, text, item, shown, line, tally)
                if span is not None:
                    spans.append(span)
            else:
                raise InputError(f"{item} is neither a category name nor a span "
                                 "([start, end, label] or an entity object)", shown, line)
    ids = {s.id for s in spans}
    if len(ids) != len(spans):
        raise InputError(f"{what}: two entities have one id", shown, line)
    rels = record.get("relations")
    if type(rels) is not list:
        rels = field(record, "relations", list, what=what, path=shown, line=line,
                     required=False, default=[])
    for k, rel in enumerate(rels, 1):
        src, dst = _end(rel, "from_id"), _end(rel, "to_id")
        kind = rel.get("type") if type(rel) is dict else None
        if not fast or src is None or dst is None or (kind is not None and
                                                        type(kind) is not str):
            item = f"{what}, relation {k}"
            if not isinstance(rel, dict):
                raise InputError(f"{item} is not a JSON object", shown, line)
            src = text_field(rel, "from_id", what=item, path=shown, line=line)
            dst = text_field(rel, "to_id", what=item, path=shown, line=line)
            kind = field(rel, "type", str, what=item, path=shown, line=line, required=False)
        if src not in ids or dst not in ids:
            tally.add("skipped", "relations with an end that is not an entity of the document "
                      "left out", line)
            continue
        assert src is not None and dst is not None
        relations.append(Relation(src, dst, "relations",
                                  None if kind is None else label_text(kind), line))
    if record.get("Comments") not in (None, []) and field(
            record, "Comments", list, what=what, path=shown, line=line, required=False,
            default=[]):
        tally.add("ignored", "comments on documents", line)
    found, rels = tuple(spans), tuple(relations)
    return AnnotatedDocument(name, user, text, spans=found, relations=rels,
                             chains=chains_of(found, rels) if rels else (),
                             labels=tuple(labels), path=shown, line=line, tool=TOOL)


def _end(rel: Any, key: str) -> str | None:
    """A relation's end as its id, None when it is not a whole number or a string."""
    value = rel.get(key) if type(rel) is dict else None
    return str(value) if type(value) is int else value if type(value) is str else None


def _in_text(start: int, end: int, text: str, item: str, line: int, tally: Tally) -> bool:
    if 0 <= start < end <= len(text):
        return True
    tally.add("skipped", "spans outside the text (or ending before they start) left out",
              line)
    return False


def _tuple_span(value: list[Any], index: int, text: str, item: str, shown: str, line: int,
                tally: Tally) -> Span | None:
    if len(value) != 3 or type(value[0]) is not int or type(value[1]) is not int or \
            not isinstance(value[2], str):
        raise InputError(f"{item} must be [start, end, label] (two whole numbers and a "
                         "string)", shown, line)
    start, end, label = value
    if not _in_text(start, end, text, item, line, tally):
        return None
    return Span(f"s{index + 1}", start, end, LAYER, label_text(label), line=line)


def _object_span(value: dict[str, Any], text: str, item: str, shown: str, line: int,
                 tally: Tally) -> Span | None:
    sid, start, end = value.get("id"), value.get("start_offset"), value.get("end_offset")
    label = value.get("label")
    if type(start) is int and type(end) is int and type(label) is str and \
            type(sid) in (int, str) and 0 <= start < end <= len(text):  # the common case
        return Span(str(sid), start, end, LAYER, label_text(label), line=line)
    sid = text_field(value, "id", what=item, path=shown, line=line)
    start = field(value, "start_offset", int, what=item, path=shown, line=line)
    end = field(value, "end_offset", int, what=item, path=shown, line=line)
    label = field(value, "label", str, what=item, path=shown, line=line, required=False)
    if not _in_text(start, end, text, item, line, tally):
        return None
    assert sid is not None
    return Span(sid, start, end, LAYER, None if label is None else label_text(label),
                line=line)
