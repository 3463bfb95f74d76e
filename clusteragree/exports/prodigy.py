"""Prodigy's ``db-out`` JSONL, read as annotated documents: one per (input, annotator).

``prodigy db-out DATASET > DATASET.jsonl`` writes one line per answer: the task as it was shown
(``text``, ``tokens``, ``spans``, ``relations``, ``options``, ``label``, ``meta``), the
annotator's ``answer`` and Prodigy's fields: ``_input_hash`` (the input: the same text has the
same hash), ``_task_hash`` (the input and the question asked about it), ``_view_id`` (the
interface), ``_annotator_id`` and ``_session_id``.

**Annotators.** ``_annotator_id``, else ``_session_id`` (Prodigy names both
``DATASET-NAME`` for a named multi-user session, ``?session=NAME``); a line with neither is
refused: without named sessions every annotator's answers are one anonymous session.

**Answers.** ``accept``: the annotation as shown is the annotator's (for manual recipes: these
spans, relations, options are the whole annotation). ``reject``: for manual recipes, the
annotator rejected the example itself (it is unusable, or breaks the guidelines), so it holds
no annotation; Prodigy's ``review`` and training leave such examples out, and so does this
reader (counted), unless ``answers="accept,reject"``; for binary questions (``textcat.teach``,
a ``label`` asked of the whole text) ``reject`` is the answer "not this label" and is read as
such. ``ignore``: the annotator skipped the example: left out, counted.

**What is read.**

* manual spans (``ner.manual``, ``spans.manual``, ``rel.manual``, ``coref.manual``; the views
  ``*_manual``, ``relations``, ``dep``, or lines with ``tokens``): ``start``, ``end``
  (characters, code points: Prodigy is Python) and ``label``; ``token_start`` and
  ``token_end`` (INCLUSIVE) are checked against ``tokens`` (a ``mismatch`` notice); where a span
  gives its ``text``, it is checked as every covered text is
  (:func:`~clusteragree.exports.offsets.resolve_offsets`), else the offsets are range-checked;
* ``tokens``: the document's tokens (their ``text`` checked against the text);
* ``relations``: ``head_span`` and ``child_span`` (or the tokens ``head`` and ``child``) give
  the spans related, ``label`` the relation's value; a relation end that is not among the
  spans is read as a span of its own (counted); the chains are the connected components of the
  relations (``coref.manual`` links mentions with ``COREF`` relations);
* choices (``options`` and the ``accept`` list of option ids): labels of the document, layer
  ``choice``; a binary ``label`` question: a label of the layer named by the label, value
  ``accept`` or ``reject``;
* binary decisions about one suggested span (``ner.teach``: the views ``ner`` and ``spans``
  without ``tokens``) are not a complete annotation of the text: left out, counted.

**Duplicates.** Answers of one annotator on one input (one ``_input_hash``) make one document:
binary questions about several labels add up; a second manual annotation of the same input, or
a second answer to the same question (``_task_hash``), replaces the first (the last answer is
read) and is counted as a duplicate.

**Documents** are named by an id-like field of ``meta`` (``id``, ``doc_id``, ``document_id``,
``doc``, ``name``, ``file``, ``filename``, ``path``), else by ``_input_hash``.

References
----------
Prodigy documentation: "Annotation task formats" (spans with inclusive ``token_end``,
relations with ``head_span``/``child_span``), "Multi-user sessions" (``_session_id``,
``_annotator_id``), the ``review`` recipe (manual annotations: ``ignore`` and ``reject`` are
left out), ``db-out``. docs/formats.md, "Prodigy".
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from itertools import chain, repeat
from operator import itemgetter, le
from pathlib import Path
from typing import IO, Any

from ..errors import InputError, ParameterError, Tally, is_strict, option, spelling_in_use
from ..inputs import check_encoding, objects_in_bulk
from ..workers import forget_broken, resolve_jobs, start_workers
from . import _jsonl_blocks, _jsonl_parts, _records
from ._records import _INTERNED, Shared, field, integer, iter_jsonl, label_text, text_field
from ._token_bytes import token_offsets
from .model import (
    AnnotatedDocument,
    DocumentLabel,
    Export,
    Relation,
    Span,
    chains_of,
    new_document,
    new_span,
    spans_in_bulk,
)
from .offsets import OffsetCheck, resolve_offsets, resolve_plain

__all__ = ["read_prodigy", "sniff_prodigy"]

TOOL = "prodigy"
LAYER = "label"
CHOICE = "choice"
ANSWERS = ("accept", "reject")
META_IDS = ("id", "doc_id", "document_id", "doc", "name", "file", "filename", "path")
_MANUAL_VIEWS = ("relations", "dep", "coref", "blocks")
IGNORED = "examples the annotator skipped (answer 'ignore') left out"
REJECTED = ("examples the annotator rejected (answer 'reject' in a manual recipe: the example "
            "is unusable) left out; read them with answers='accept,reject'")
_START_END = itemgetter("start", "end")
_SPAN_KEYS = itemgetter("start", "end", "label", "token_start", "token_end")
#: The ids of a line's spans, made once (``s1``, ``s2``...: the span's place in the line)
_SPAN_IDS = tuple(f"s{k}" for k in range(1, 1001))
_TOKEN_TEXT = "tokens whose text is not the text at their offsets"
_TOKEN_MISMATCH = ("spans whose token_start and token_end (inclusive) are not the tokens at "
                   "their start and end; read at start and end")
BINARY_SPANS = ("binary decisions on one suggested span (ner.teach, spans.teach) left out: "
                "they are not a complete annotation of the text")


def sniff_prodigy(path: Path, head: bytes) -> bool:
    """Whether ``path`` looks like ``prodigy db-out`` JSONL: its first line is a JSON object
    with ``_input_hash`` and ``answer``.

    Examples
    --------
    >>> from pathlib import Path
    >>> sniff_prodigy(Path("d.jsonl"), b'{"text": "a", "_input_hash": 1, "answer": "accept"}')
    True
    >>> sniff_prodigy(Path("d.jsonl"), b'{"text": "a", "label": [[0, 1, "X"]]}')
    False
    """
    try:
        if not head:
            return False
        first = next((line for line in head.split(b"\n") if line.strip()), b"")
        first = first.removeprefix(b"\xef\xbb\xbf").strip()
        return first.startswith(b"{") and b'"_input_hash"' in first and b'"answer"' in first
    except Exception:  # a recogniser never raises
        return False


def _answers(answers: str | Sequence[str]) -> frozenset[str]:
    values = [a.strip() for a in answers.split(",")] if isinstance(answers, str) else \
        list(answers)
    if not values or "accept" not in values or any(a not in ANSWERS for a in values):
        raise ParameterError(f"{option('answers')} must be 'accept' or 'accept,reject' (the "
                             "answers whose examples are read as annotations; 'ignore' means "
                             f"skipped and holds none). Got {answers!r}.", params=("answers",))
    return frozenset(values)


@dataclasses.dataclass(slots=True)
class _Doc:
    """What one annotator's answers on one input add up to."""

    name: str
    annotator: str
    text: str
    line: int
    manual: AnnotatedDocument | None = None
    manual_task: object = None
    labels: dict[str, tuple[object, tuple[DocumentLabel, ...]]] = dataclasses.field(
        default_factory=dict)


def read_prodigy(path: str | os.PathLike[str], *, encoding: str | None = None,
                 answers: str | Sequence[str] = "accept", jobs: int | None = 1) -> Export:
    """Read ``prodigy db-out`` JSONL.

    Parameters
    ----------
    path : str or os.PathLike
        The JSONL file.
    encoding : str, optional
        Default UTF-8 (a byte-order mark honoured).
    answers : {"accept", "accept,reject"}, default="accept"
        The answers whose manual examples are read as annotations; ``reject`` is always read
        for binary label questions (it is their answer "no").
    jobs : int or None, default=1
        Processes (as :func:`~clusteragree.workers.resolve_jobs` reads them; None:
        every core). A file of 64 MiB or more is then read in parts of whole lines shared
        among the processes, and merged in the order of the file
        (:mod:`~clusteragree.exports._jsonl_parts`): the documents, notices and errors are
        those of one process. Smaller files, and reading without orjson or in another
        encoding than UTF-8, take one process.

    Returns
    -------
    Export
        One :class:`~clusteragree.exports.model.AnnotatedDocument` per (input, annotator).

    Raises
    ------
    InputError
        Malformed input (with its line), a line naming no annotator.

    References
    ----------
    Prodigy documentation, "Annotation task formats", "Multi-user sessions", ``db-out``.

    Examples
    --------
    >>> import json, tempfile, os
    >>> line = {"text": "Mary met John.", "_input_hash": 11, "_task_hash": 12,
    ...         "tokens": [{"text": "Mary", "start": 0, "end": 4, "id": 0}],
    ...         "spans": [{"start": 0, "end": 4, "token_start": 0, "token_end": 0,
    ...                    "label": "PER"}],
    ...         "answer": "accept", "_view_id": "ner_manual", "_annotator_id": "ner-ann"}
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     name = os.path.join(tmp, "ner.jsonl")
    ...     with open(name, "w") as f:
    ...         _ = f.write(json.dumps(line) + "\\n")
    ...     export = read_prodigy(name)
    >>> doc = export.documents[0]
    >>> doc.name, doc.annotator, [(s.start, s.end, s.label) for s in doc.spans]
    ('11', 'ner-ann', [(0, 4, 'PER')])
    """
    wanted = _answers(answers)
    check_encoding(encoding)
    name = Path(path)
    if name.is_dir():
        raise InputError("is a directory; give the JSONL file of prodigy db-out", name)
    processes = resolve_jobs(jobs)
    reader: _Reader | None = None
    if _jsonl_parts.wanted(name, processes, encoding):
        reader = _Reader(name, wanted)
        if not _in_parts(reader, name, processes):
            reader = None  # (read in part: read again, in one process)
    if reader is None:
        reader = _Reader(name, wanted)
        with objects_in_bulk(), _open(name) as handle:
            for line, record in iter_jsonl(handle, name, encoding=encoding, shared="tokens"):
                reader.record(record, line)
    reader.tally.report()
    docs = reader.documents()
    if not docs:
        raise InputError("no annotation to read (every answer was left out: see the "
                         "warnings)", name)
    return Export(docs, os.fspath(name), TOOL)


def _in_parts(reader: _Reader, name: Path, processes: int) -> bool:
    """Read the file in parts into ``reader``, on ``processes`` processes: this one reads the
    first parts itself (:func:`~clusteragree.exports._jsonl_parts.own_share` of them), the
    workers the others in order, and this one then replays the workers' events
    (:func:`_read_part`) in order, reading itself any part no worker has started when it gets
    there. True when done; False where a document was named otherwise than a worker named it
    (two texts under one meta id across parts: the caller then reads the file again in one
    process). The warnings are said once the reading is done, or before its error."""
    _open(name).close()  # (a file that cannot be read is said here)
    start_workers(_jsonl_parts.warm, [None] * (processes - 1), processes)
    parts = [(os.fspath(name), start, end, first, sorted(reader.answers), is_strict(),
              spelling_in_use()) for start, end, first in _jsonl_parts.line_parts(name)]
    if len(parts) < 2:
        return False
    share = _jsonl_parts.own_share(processes, parts[-1][1])
    first = max(1, min(len(parts) - 1, round(share * len(parts))))
    futures = [None] * first + start_workers(_read_part, parts[first:], processes)
    captured = _jsonl_parts.Captured(is_strict(), spelling_in_use())
    said = captured.events  # the warnings, said once the reading is sure
    try:
        with objects_in_bulk():
            for k, (path, start, end, line_one, *_) in enumerate(parts):
                future = futures[k]
                if future is None or future.cancel():  # not taken by a worker: read here
                    with captured:
                        for line, record in _jsonl_parts.read_part(path, start, end,
                                                                   line_one, "tokens"):
                            reader.record(record, line)
                    continue
                events, tally = future.result()
                if not reader.replay(events, said):
                    return False
                reader.tally.merge(tally)
    except InputError:
        for event in said:
            _jsonl_parts.replay(event)
        raise
    except BaseException as err:
        forget_broken(processes, err)
        raise
    finally:
        for future in futures:
            if future is not None:
                future.cancel()
    for event in said:
        _jsonl_parts.replay(event)
    return True


def _read_part(part: tuple[str, int, int, int, list[str], bool, dict[str, str] | None]
               ) -> tuple[list[tuple[Any, ...]], Tally]:
    """A worker's reading of one part of a file: its events (see :meth:`_Reader.replay`) and
    the counts of its notices."""
    path, start, end, first, answers, strict_on, options = part
    reader = _PartReader(Path(path), frozenset(answers))
    with _jsonl_parts.Captured(strict_on, options) as captured, objects_in_bulk():
        reader.captured = captured
        try:
            for line, record in _jsonl_parts.read_part(path, start, end, first, "tokens"):
                reader.record(record, line)
        except InputError as err:
            captured.add(("error", err))
    return captured.events, reader.tally


def _open(name: Path) -> IO[bytes]:
    try:
        return open(name, "rb")
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror or err}", name) from None


class _Reader:
    def __init__(self, path: Path, answers: frozenset[str]) -> None:
        self.path, self.answers, self.shown = path, answers, os.fspath(path)
        self.tally = Tally(path)
        self.docs: dict[tuple[str, object], _Doc] = {}
        self.names: dict[str, object] = {}
        self.tokens: dict[str, tuple[tuple[int, int], ...]] = {}
        #: per text, the bytes of the last tokens list read as shared, its tokens and the
        #: number whose text is not the text at their offsets
        self.shared: dict[str, tuple[bytes, tuple[tuple[int, int], ...], int]] = {}

    def record(self, record: Any, line: int) -> None:
        if not isinstance(record, dict):
            raise InputError("a line of prodigy db-out is a JSON object; this one is not",
                             self.path, line)
        what = f"the example at line {line}"
        answer = record.get("answer")
        if type(answer) is not str:
            answer = field(record, "answer", str, what=what, path=self.path, line=line)
        if answer not in ("accept", "reject", "ignore"):
            raise InputError(f'{what}: "answer" is {answer[:40]!r}, not accept, reject or '
                             "ignore", self.path, line)
        annotator = record.get("_annotator_id")
        if type(annotator) is not str or not annotator:
            annotator = (field(record, "_annotator_id", str, what=what, path=self.path,
                               line=line, required=False)
                         or field(record, "_session_id", str, what=what, path=self.path,
                                  line=line, required=False))
        if not annotator:
            raise InputError(f"{what} names no annotator (_annotator_id, _session_id): "
                             "annotate in named multi-user sessions (?session=NAME in the "
                             "app's address) so that each answer says whose it is",
                             self.path, line)
        if answer == "ignore":
            self.tally.add("skipped", IGNORED, line)
            return
        text = record.get("text")
        if type(text) is not str:
            text = field(record, "text", str, what=what, path=self.path, line=line,
                         required=False)
        if text is None:
            self.tally.add("ignored", "examples without a text (images, audio) left out", line)
            return
        value = record.get("_input_hash")
        input_hash = str(value) if type(value) is int else value if type(value) is str else \
            text_field(record, "_input_hash", what=what, path=self.path, line=line)
        value = record.get("_task_hash")
        task_hash = str(value) if type(value) is int else value if type(value) is str else \
            text_field(record, "_task_hash", what=what, path=self.path, line=line,
                       required=False)
        assert input_hash is not None
        view = record.get("_view_id")
        if not isinstance(view, str):
            view = None
        manual = (view is not None and (view.endswith("_manual") or view in _MANUAL_VIEWS)) \
            or (view is None and "tokens" in record)
        choice = "options" in record
        binary = not manual and not choice and isinstance(record.get("label"), str)
        if answer == "reject" and not binary and "reject" not in self.answers:
            self.tally.add("skipped", REJECTED, line)
            return
        if not (manual or choice or binary) and record.get("spans"):
            self.tally.add("ignored", BINARY_SPANS, line)
            return
        doc = self._doc(label_text(annotator), input_hash, record, text, what, line)
        if binary:
            label = label_text(record["label"])
            self._labels(doc, f"binary {label}", task_hash,
                         (DocumentLabel(label, answer, line),), line)
            return
        if choice:
            self._labels(doc, CHOICE, task_hash, self._choices(record, what, line), line)
        if manual or not choice:
            self._set_manual(doc, self._manual(doc, record, what, line), task_hash, line)

    def _set_manual(self, doc: _Doc, manual: AnnotatedDocument, task_hash: str | None,
                    line: int) -> None:
        if doc.manual is not None:
            self.tally.add("skipped", "second manual annotations of one input by one "
                           "annotator (one _input_hash) left out: the last is read", line)
        doc.manual = manual
        doc.manual_task = task_hash

    def _doc(self, annotator: str, input_hash: str, record: dict[str, Any], text: str,
             what: str, line: int) -> _Doc:
        key = (annotator, input_hash)
        found = self._found(key, text, what, line)
        if found is not None:
            return found
        name = self._named(_meta_name(record, input_hash), input_hash, line)
        doc = self.docs[key] = _Doc(name, annotator, text, line)
        return doc

    def _known_doc(self, key: tuple[str, str], text: str, name: str, what: str, line: int
                   ) -> _Doc:
        """:meth:`_doc` from what a worker read of the line (``name``: from its ``meta``)."""
        found = self._found(key, text, what, line)
        if found is not None:
            return found
        doc = self.docs[key] = _Doc(self._named(name, key[1], line), key[0], text, line)
        return doc

    def _found(self, key: tuple[str, str], text: str, what: str, line: int) -> _Doc | None:
        """The document of ``key`` met before, its text checked; None for a new one."""
        found = self.docs.get(key)
        if found is not None and found.text != text:
            raise InputError(f"{what}: its _input_hash {key[1]} is that of another text "
                             f"(line {found.line}); is the file edited?", self.path, line)
        return found

    def replay(self, events: list[tuple[Any, ...]], said: list[tuple[Any, ...]]) -> bool:
        """A worker's events, in order (:class:`_PartReader`): a document met (``doc``), its
        labels (``labels``), its manual annotation (``manual``), an error (raised), warnings
        (kept in ``said``). False where a document is named otherwise than the worker named
        it (nothing is then finished: the caller reads the file again)."""
        doc: _Doc | None = None
        for event in events:
            kind = event[0]
            if kind == "doc":
                _, key, text, meta_name, used, line = event
                doc = self._known_doc(key, text, meta_name, f"the example at line {line}", line)
                if doc.name != used:
                    return False
            elif kind == "manual":
                assert doc is not None
                _, packed, task_hash, line = event
                manual = _jsonl_parts.unpack_document(packed)
                tokens = self._shared(doc.text, tuple(manual.tokens))  # one tuple per text
                if tokens is not manual.tokens:
                    object.__setattr__(manual, "tokens", tokens)
                self._set_manual(doc, manual, task_hash, line)
            elif kind == "labels":
                assert doc is not None
                _, key, task_hash, labels, line = event
                self._labels(doc, key, task_hash, labels, line)
            elif kind == "error":
                raise event[1]
            else:
                said.append(event)
        return True

    def _named(self, name: str, input_hash: str, line: int) -> str:
        owner = self.names.setdefault(name, input_hash)
        if owner != input_hash:
            self.tally.add("note", "documents whose meta id names several texts, named "
                           "ID#_input_hash", line)
            name = f"{name}#{input_hash}"
            self.names.setdefault(name, input_hash)
        return name

    def _labels(self, doc: _Doc, key: str, task_hash: str | None,
                labels: tuple[DocumentLabel, ...], line: int) -> None:
        if key in doc.labels:
            self.tally.add("skipped", "second answers of one annotator to one question (one "
                           "_task_hash) left out: the last is read", line)
        doc.labels[key] = (task_hash, labels)

    def _choices(self, record: dict[str, Any], what: str, line: int
                 ) -> tuple[DocumentLabel, ...]:
        options = field(record, "options", list, what=what, path=self.path, line=line)
        known = set()
        for k, opt in enumerate(options, 1):
            if not isinstance(opt, dict):
                raise InputError(f"{what}: option {k} is not a JSON object", self.path, line)
            known.add(text_field(opt, "id", what=f"{what}, option {k}", path=self.path,
                                 line=line))
        accepted = field(record, "accept", list, what=what, path=self.path, line=line,
                         required=False, default=[])
        out = []
        for value in accepted:
            if isinstance(value, bool) or not isinstance(value, (str, int)):
                raise InputError(f'{what}: "accept" must list option ids', self.path, line)
            if str(value) not in known:
                self.tally.add("mismatch", "accepted choices that are not among the options",
                               line)
            out.append(DocumentLabel(CHOICE, label_text(str(value)), line))
        return tuple(out)

    # --- manual spans, tokens and relations

    def _manual(self, doc: _Doc, record: dict[str, Any], what: str, line: int
                ) -> AnnotatedDocument:
        text = doc.text
        tokens = self._tokens(record, text, what, line)
        raw = record.get("spans")
        if type(raw) is not list:
            raw = field(record, "spans", list, what=what, path=self.path, line=line,
                        required=False, default=[])
        spans = self._spans_fast(raw, tokens, text, doc.name, line) if _records.FAST else None
        if spans is None:
            spans = self._spans(raw, tokens, text, doc.name, what, line)
        extra: list[Span] = []
        relations = self._relations(record, spans, extra, tokens, text, what, line)
        made = (*spans, *extra) if extra else tuple(spans)
        return new_document(doc.name, doc.annotator, text, tokens, (), made, relations,
                            chains_of(made, relations) if relations else (), (), self.shown,
                            line, TOOL)

    def _tokens(self, record: dict[str, Any], text: str, what: str, line: int
                ) -> tuple[tuple[int, int], ...]:
        raw = record.get("tokens")
        cut = None
        if type(raw) is Shared:  # the bytes of the list: the same bytes, the same tokens
            cut = raw.raw
            known = self.shared.get(text)
            if known is not None and (known[0] is cut or known[0] == cut):
                self.tally.add("mismatch", _TOKEN_TEXT, line, known[2])
                return known[1]
            found = token_offsets(cut, text) if _records.FAST and _jsonl_blocks.loaded() \
                else None
            if found is not None:  # read from the bytes (see _token_bytes)
                tokens, wrong = found
                self.tally.add("mismatch", _TOKEN_TEXT, line, wrong)
                tokens = self._shared(text, tokens)
                self.shared[text] = (cut, tokens, wrong)
                return tokens
            raw = raw.parsed()
        if type(raw) is not list:
            raw = field(record, "tokens", list, what=what, path=self.path, line=line,
                        required=False, default=[])
        found = self._tokens_fast(raw, text) if _records.FAST and raw else None
        if found is not None:
            tokens, wrong = found
            self.tally.add("mismatch", _TOKEN_TEXT, line, wrong)
            tokens = self._shared(text, tokens)
            if cut is not None:
                self.shared[text] = (cut, tokens, wrong)
            return tokens
        out: list[tuple[int, int]] = []
        size, wrong = len(text), 0
        for k, tok in enumerate(raw):
            start = tok.get("start") if type(tok) is dict else None
            end = tok.get("end") if type(tok) is dict else None
            if type(start) is not int or type(end) is not int or not 0 <= start <= end <= size:
                item = f"{what}, token {k}"
                if not isinstance(tok, dict):
                    raise InputError(f"{item} is not a JSON object", self.path, line)
                start = integer(tok, "start", what=item, path=self.path, line=line)
                end = integer(tok, "end", what=item, path=self.path, line=line)
                raise InputError(f"{item}: {start}-{end} is not within the text "
                                 f"({size} characters)", self.path, line)
            written = tok.get("text")
            if written is not None and written != text[start:end]:
                wrong += 1
            out.append((start, end))
        self.tally.add("mismatch", _TOKEN_TEXT, line, wrong)
        return self._shared(text, tuple(out))

    def _shared(self, text: str, tokens: tuple[tuple[int, int], ...]
                ) -> tuple[tuple[int, int], ...]:
        """The annotators of one text share its tokens: one tuple for all of them."""
        shared = self.tokens.get(text)
        if shared == tokens:
            return shared
        self.tokens[text] = tokens
        return tokens

    @staticmethod
    def _tokens_fast(raw: list[Any], text: str) -> tuple[tuple[tuple[int, int], ...], int] | None:
        """The tokens' offsets and the number whose text is not the text at them, for tokens
        that are objects with whole-number ``start`` and ``end`` within the text; None for
        anything else (:meth:`_tokens` then reads them, and says what is wrong)."""
        try:
            pairs = tuple(map(_START_END, raw))
        except (KeyError, TypeError):
            return None
        flat = list(chain.from_iterable(pairs))
        starts, ends = flat[::2], flat[1::2]
        if {*map(type, flat)} != {int} or min(starts) < 0 or max(ends) > len(text) or \
                not all(map(le, starts, ends)):
            return None
        written = list(map(dict.get, raw, repeat("text")))  # every token is a dict here
        covered = list(map(text.__getitem__, map(slice, starts, ends)))
        wrong = 0 if written == covered else \
            sum(1 for w, c in zip(written, covered, strict=True) if w is not None and w != c)
        return pairs, wrong

    def _spans_fast(self, raw: list[Any], tokens: tuple[tuple[int, int], ...], text: str,
                    name: str, line: int) -> list[Span] | None:
        """:meth:`_spans` for spans that are objects with whole-number offsets, string labels
        and texts (or none) and whole-number token indices (or none): the same spans and
        notices. None, with nothing done, for anything else."""
        found: list[tuple[str, int, int, str | None, str | None]] = []
        wrong, count, size = 0, len(tokens), len(text)
        interned = _INTERNED.get
        within, covers = True, 0  # every span within the text; how many give their text
        for sid, sp in zip(_SPAN_IDS, raw, strict=False):
            if type(sp) is not dict:
                return None
            try:  # the usual keys at once
                start, end, label, first, last = _SPAN_KEYS(sp)
            except KeyError:
                get = sp.get
                start, end, label = get("start"), get("end"), get("label")
                first, last = get("token_start"), get("token_end")
            covered = sp.get("text")
            if not (type(start) is int is type(end) and start >= 0 and end >= 0) or \
                    (covered is not None and type(covered) is not str):
                return None
            if label is not None:
                if type(label) is not str:
                    return None
                label = interned(label) or label_text(label)
            if first is not None or last is not None:
                if (first is not None and type(first) is not int) or \
                        (last is not None and type(last) is not int):
                    return None
                if first is not None and last is not None and count and (
                        not 0 <= first <= last < count or tokens[first][0] != start or
                        tokens[last][1] != end):
                    wrong += 1
            if covered is not None:
                covers += 1
            if end > size or start > end:
                within = False
            found.append((sid, start, end, label, covered))
        if len(found) < len(raw):
            return None  # more spans than ids made in advance
        self.tally.add("mismatch", _TOKEN_MISMATCH, line, wrong)
        if covers or not within:
            return self._found_spans(found, text, name, line)
        # no covered text to check, every span within the text: the spans as they are
        return spans_in_bulk(found, LAYER, line)

    def _spans(self, raw: list[Any], tokens: tuple[tuple[int, int], ...], text: str,
               name: str, what: str, line: int) -> list[Span]:
        found: list[tuple[str, int, int, str | None, str | None]] = []
        for k, sp in enumerate(raw, 1):
            item = f"{what}, span {k}"
            if not isinstance(sp, dict):
                raise InputError(f"{item} is not a JSON object", self.path, line)
            start = integer(sp, "start", what=item, path=self.path, line=line)
            end = integer(sp, "end", what=item, path=self.path, line=line)
            label = field(sp, "label", str, what=item, path=self.path, line=line,
                          required=False)
            covered = field(sp, "text", str, what=item, path=self.path, line=line,
                            required=False)
            self._token_check(sp, start, end, tokens, item, line)
            found.append((f"s{k}", start, end, None if label is None else label_text(label),
                          covered))
        return self._found_spans(found, text, name, line)

    def _found_spans(self, found: list[tuple[str, int, int, str | None, str | None]],
                     text: str, name: str, line: int) -> list[Span]:
        if not found:
            return []
        plain = None
        if _records.FAST and all(c is not None for *_, c in found):
            plain = resolve_plain(text, [(s, e, c) for _, s, e, _, c in found
                                         if c is not None], self.tally, line)
        offsets: list[tuple[int, int] | None]
        if plain is not None:
            offsets = list(plain)
        elif any(c is not None for *_, c in found):
            checks = [OffsetCheck(s, e, c, line, f"span {sid}") for sid, s, e, _, c in found]
            _, offsets = resolve_offsets(text, checks, path=self.path, document=name,
                                         tally=self.tally)
        else:
            offsets = [(s, e) if 0 <= s <= e <= len(text) else None
                       for _, s, e, _, _ in found]
            if None in offsets:
                self.tally.add("skipped", "spans outside the text left out", line,
                               offsets.count(None))
        return [new_span(sid, at[0], at[1], LAYER, label, (), covered, line)
                for (sid, _, _, label, covered), at in zip(found, offsets, strict=True)
                if at is not None]

    def _token_check(self, sp: dict[str, Any], start: int, end: int,
                     tokens: tuple[tuple[int, int], ...], item: str, line: int) -> None:
        first = field(sp, "token_start", int, what=item, path=self.path, line=line,
                      required=False)
        last = field(sp, "token_end", int, what=item, path=self.path, line=line,
                     required=False)
        if first is None or last is None or not tokens:
            return
        if not (0 <= first <= last < len(tokens)) or tokens[first][0] != start or \
                tokens[last][1] != end:
            self.tally.add("mismatch", _TOKEN_MISMATCH, line)

    def _relations(self, record: dict[str, Any], spans: list[Span], extra: list[Span],
                   tokens: tuple[tuple[int, int], ...], text: str, what: str, line: int
                   ) -> tuple[Relation, ...]:
        raw = record.get("relations")
        if raw is None or (type(raw) is list and not raw):  # none: at once
            return ()
        raw = field(record, "relations", list, what=what, path=self.path, line=line,
                    required=False, default=[])
        if not raw:
            return ()
        by_place: dict[tuple[int, int], str] = {}
        by_label: dict[tuple[int, int, str | None], str] = {}
        for s in spans:
            by_place.setdefault((s.start, s.end), s.id)
            by_label.setdefault((s.start, s.end, s.label), s.id)
        out: list[Relation] = []
        for k, rel in enumerate(raw, 1):
            item = f"{what}, relation {k}"
            if not isinstance(rel, dict):
                raise InputError(f"{item} is not a JSON object", self.path, line)
            ends = []
            for side in ("head", "child"):
                place = self._end(rel, side, tokens, text, item, line)
                if place is None:
                    break
                start, end, label = place
                sid = by_label.get((start, end, label)) or by_place.get((start, end))
                if sid is None:
                    sid = f"r{start}-{end}"
                    extra.append(Span(sid, start, end, LAYER, label, line=line))
                    by_place[(start, end)] = by_label[(start, end, label)] = sid
                    self.tally.add("note", "relation ends that are not among the spans, read "
                                   "as spans", line)
                ends.append(sid)
            if len(ends) < 2:
                continue
            label = field(rel, "label", str, what=item, path=self.path, line=line,
                          required=False)
            out.append(Relation(ends[0], ends[1], "relations",
                                None if label is None else label_text(label), line))
        return tuple(out)

    def _end(self, rel: dict[str, Any], side: str, tokens: tuple[tuple[int, int], ...],
             text: str, item: str, line: int) -> tuple[int, int, str | None] | None:
        span = field(rel, f"{side}_span", dict, what=item, path=self.path, line=line,
                     required=False)
        if span is not None:
            start = integer(span, "start", what=f"{item}, {side}_span", path=self.path,
                            line=line)
            end = integer(span, "end", what=f"{item}, {side}_span", path=self.path,
                          line=line)
            label = field(span, "label", str, what=f"{item}, {side}_span", path=self.path,
                          line=line, required=False)
        else:
            index = integer(rel, side, what=item, path=self.path, line=line)
            if index >= len(tokens):
                raise InputError(f'{item}: "{side}" is token {index}, but the example has '
                                 f"{len(tokens)} tokens", self.path, line)
            (start, end), label = tokens[index], None
        if not 0 <= start <= end <= len(text):
            self.tally.add("skipped", "relations with an end outside the text left out", line)
            return None
        return start, end, None if label is None else label_text(label)

    def documents(self) -> tuple[AnnotatedDocument, ...]:
        out = []
        for doc in self.docs.values():
            labels = tuple(lab for _, group in doc.labels.values() for lab in group)
            if doc.manual is not None:
                out.append(dataclasses.replace(doc.manual, labels=labels) if labels else
                           doc.manual)
            else:
                out.append(AnnotatedDocument(doc.name, doc.annotator, doc.text, labels=labels,
                                             path=os.fspath(self.path), line=doc.line,
                                             tool=TOOL))
        return tuple(out)


def _meta_name(record: dict[str, Any], input_hash: str) -> str:
    """A document's name from its line: an id-like field of ``meta``, else the input hash."""
    meta = record.get("meta")
    if isinstance(meta, dict):
        for key in META_IDS:
            value = meta.get(key)
            if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
                return str(value)
    return input_hash


class _PartReader(_Reader):
    """A worker's reader of a part of the file: what a line alone gives (spans, tokens,
    notices) is made here; what depends on the lines before (the documents met, named, and
    their last answers) is logged as events for :meth:`_Reader.replay`, in order."""

    captured: _jsonl_parts.Captured

    def _doc(self, annotator: str, input_hash: str, record: dict[str, Any], text: str,
             what: str, line: int) -> _Doc:
        key = (annotator, input_hash)
        name = _meta_name(record, input_hash)
        found = self.docs.get(key)
        if found is None or found.text != text:  # (another text: the caller refuses it)
            found = self.docs[key] = _Doc(name, annotator, text, line)
        self.captured.add(("doc", key, found.text, name, found.name, line))
        return found

    def _labels(self, doc: _Doc, key: str, task_hash: str | None,
                labels: tuple[DocumentLabel, ...], line: int) -> None:
        self.captured.add(("labels", key, task_hash, labels, line))

    def _set_manual(self, doc: _Doc, manual: AnnotatedDocument, task_hash: str | None,
                    line: int) -> None:
        self.captured.add(("manual", _jsonl_parts.pack_document(manual), task_hash, line))
