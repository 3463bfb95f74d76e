"""Label Studio's full JSON export, read as annotated documents: one per (task, annotator).

The export (project, **Export**, **JSON**; or ``label-studio export PROJECT JSON``) is a list
of tasks; each task has an ``id``, its ``data`` (the text under some key), its
``annotations`` (each with ``completed_by``, ``was_cancelled``, ``ground_truth`` and a
``result`` list of regions) and its ``predictions``. What is read:

* ``labels`` regions (``value.start``, ``value.end``, ``value.text``, ``value.labels``) are
  spans of the layer named by the control (``from_name``); a region with several labels is one
  span per label at the same offsets (the first keeps the region's id, the others get
  ``ID[2]``, ``ID[3]``..., as WebAnno numbers stacked annotations); relations attach to the
  first. Labels regions on audio (offsets in seconds) or HTML (XPath offsets) are ignored;
* ``choices`` results are labels of the whole document (one per choice), or, when their ``id``
  is a labels region's (``perRegion`` choices), features of that region's spans;
* ``relation`` results (``from_id``, ``to_id``, ``labels``, ``direction``) are relations
  between regions (``direction: left`` reverses them); the chains are the connected components
  of the relations (coreference annotated as relations between mentions);
* any other result type (``textarea``, ``rating``, ``taxonomy``, image regions...) is ignored,
  with a count per type in the warnings ledger.

Left out, with a count in the ledger: cancelled (skipped) annotations, ``predictions`` (a
model's suggestions) and ``drafts``; annotations marked ``ground_truth`` are read as their
annotator's and counted (kind ``note``). Two annotations by one user on one task are refused
naming both, or one is chosen with ``duplicates="first"`` or ``"last"``.

Annotators are named by ``completed_by``: a user id in some versions, an object with ``id``
and ``email`` in others; ``annotator_key="email"`` (the default) names them by their e-mail
address (their id when they have none, and a bare id is renamed to the e-mail address the same
file gives that id elsewhere), ``"id"`` by their id.

Offsets: Label Studio's front end counted in UTF-16 code units until its 2022 fix (code
points since), so a project annotated across an upgrade holds both. Every region carries its
covered text (``value.text``): :func:`~clusteragree.exports.offsets.resolve_offsets` finds
the unit of each annotation's offsets, says so once per document when it is not code points,
and refuses an annotation whose regions mix units.

The JSON-MIN and CSV/TSV exports are recognised and refused: they flatten each annotation into
columns, so regions lose their ids and the relations between them.

References
----------
Label Studio documentation, "Export annotations and data from Label Studio" (the JSON format of
annotated tasks, JSON_MIN, CSV) and "Label Studio Task Format"; Label Studio issues #1347
(UTF-16 offsets after an emoji, 2021) and #1008 / pull request #1559 (code points, 2022).
docs/formats.md, "Label Studio".
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import InputError, ParameterError, Tally, option
from ..inputs import check_encoding, objects_in_bulk, read_bytes
from . import _records
from ._json_array import iter_json_array_bytes
from ._labelstudio_fast import (
    CANCELLED,
    DRAFTS,
    GROUND_TRUTH,
    PREDICTIONS,
    RELATION_LAYER,
    STRAY_RELATIONS,
    TOOL,
    _Cursor,
    read_task,
)
from ._labelstudio_fast import REGION_KEYS as _REGION_KEYS
from ._labelstudio_fast import VALUE_KEYS as _VALUE_KEYS
from ._records import _INTERNED, field, label_text, text_field
from .model import (
    AnnotatedDocument,
    DocumentLabel,
    Export,
    Relation,
    Span,
    chains_of,
    new_document,
    new_label,
    new_relation,
    new_span,
)
from .offsets import OffsetCheck, resolve_offsets, resolve_plain

__all__ = ["read_label_studio", "sniff_label_studio"]

DUPLICATES = ("refuse", "first", "last")
ANNOTATOR_KEYS = ("email", "id")
STACKED = "regions with several labels, read as one span per label"
_MIN_KEYS = re.compile(rb'"annotation_id"\s*:')
_FULL_KEYS = re.compile(rb'"(?:annotations|completions)"\s*:\s*\[')
_TASK_KEYS = re.compile(rb'"(?:data|completed_by|result|was_cancelled)"\s*:')


def sniff_label_studio(path: Path, head: bytes) -> bool:
    """Whether ``path`` looks like a Label Studio export: the full JSON (a list of tasks with
    ``annotations``), or JSON-MIN or CSV/TSV (recognised to be refused with the reason).

    Examples
    --------
    >>> from pathlib import Path
    >>> sniff_label_studio(Path("p.json"), b'[{"id": 1, "annotations": [{"result": []}]}]')
    True
    >>> sniff_label_studio(Path("p.jsonl"), b'{"text": "a", "label": []}')
    False
    """
    try:
        if not head:
            return False
        body = head.removeprefix(b"\xef\xbb\xbf").lstrip()
        if body.startswith(b"["):
            if not body[1:].lstrip().startswith(b"{"):
                return False
            if _FULL_KEYS.search(body) and _TASK_KEYS.search(body):
                return True
            return bool(_MIN_KEYS.search(body) and b'"annotator"' in body)
        first = body.split(b"\n", 1)[0]
        columns = re.split(rb"[,\t]", first.strip())
        return b"annotation_id" in columns and b"annotator" in columns
    except Exception:  # a recogniser never raises
        return False


def _check_options(duplicates: str, text_key: str | None, annotator_key: str) -> None:
    if duplicates not in DUPLICATES:
        raise ParameterError(f"{option('duplicates')} must be one of {', '.join(DUPLICATES)}. "
                             f"Got {duplicates!r}.", params=("duplicates",))
    if annotator_key not in ANNOTATOR_KEYS:
        raise ParameterError(f"{option('annotator_key')} must be one of "
                             f"{', '.join(ANNOTATOR_KEYS)}. Got {annotator_key!r}.",
                             params=("annotator_key",))
    if text_key is not None and (not isinstance(text_key, str) or not text_key):
        raise ParameterError(f"{option('text_key')} must be the name of a field of the tasks' "
                             f"data. Got {text_key!r}.", params=("text_key",))


def read_label_studio(path: str | os.PathLike[str], *, encoding: str | None = None,
                      duplicates: str = "refuse", text_key: str | None = None,
                      annotator_key: str = "email") -> Export:
    """Read Label Studio's full JSON export.

    Parameters
    ----------
    path : str or os.PathLike
        The export (a ``.json`` file: a list of tasks).
    encoding : str, optional
        Default UTF-8 (a byte-order mark honoured).
    duplicates : {"refuse", "first", "last"}, default="refuse"
        Two annotations by one user on one task: an error naming both (``"refuse"``), or the
        first or the last in the file is read, the other left out with a notice.
    text_key : str, optional
        The field of ``data`` holding the text. By default the one string field, or, when
        there are several, the one the labels regions' covered texts are found in; an error
        names the fields when that does not decide.
    annotator_key : {"email", "id"}, default="email"
        How annotators are named when the export gives ``completed_by`` as an object.

    Returns
    -------
    Export
        One :class:`~clusteragree.exports.model.AnnotatedDocument` per (task, annotator),
        named by the task id.

    Raises
    ------
    InputError
        Malformed input (with its line), a JSON-MIN or CSV export, duplicate annotations
        (under ``duplicates="refuse"``), an ambiguous text field.

    References
    ----------
    Label Studio documentation, "Export annotations and data from Label Studio".

    Examples
    --------
    >>> import json, tempfile, os
    >>> task = {"id": 7, "data": {"text": "Mary met John."}, "annotations": [
    ...     {"id": 1, "completed_by": 3, "was_cancelled": False, "result": [
    ...         {"id": "a", "from_name": "label", "to_name": "text", "type": "labels",
    ...          "value": {"start": 0, "end": 4, "text": "Mary", "labels": ["PER"]}}]}]}
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     name = os.path.join(tmp, "export.json")
    ...     with open(name, "w") as f:
    ...         json.dump([task], f)
    ...     export = read_label_studio(name)
    >>> doc = export.documents[0]
    >>> doc.name, doc.annotator, [(s.start, s.end, s.label) for s in doc.spans]
    ('7', '3', [(0, 4, 'PER')])
    """
    _check_options(duplicates, text_key, annotator_key)
    check_encoding(encoding)
    name = Path(path)
    if name.is_dir():
        raise InputError("is a directory; give the JSON file Label Studio exported", name)
    raw = read_bytes(name)
    _refuse_flat(raw[:65536].decode(check_encoding(encoding) or "utf-8", "replace"), name)
    reader = _Reader(name, duplicates, text_key, annotator_key)
    with objects_in_bulk():
        for line, window, start, end, task in iter_json_array_bytes(raw, name,
                                                                    encoding=encoding,
                                                                    what="task"):
            reader.task(task, line, window, start, end)
    reader.tally.report()
    return Export(reader.documents(), os.fspath(name), TOOL)


def _refuse_flat(text: str, path: Path) -> None:
    """Refuse the CSV/TSV export (its header names annotation_id and annotator)."""
    body = text.lstrip()
    if body.startswith("["):
        return
    first = body.split("\n", 1)[0]
    columns = {c.strip().strip('"') for c in re.split(r"[,\t]", first)}
    if {"annotation_id", "annotator"} <= columns:
        raise InputError("a Label Studio CSV/TSV export: it flattens each annotation into "
                         "columns, so regions lose their ids and the relations between them; "
                         "export the project as JSON (the full export) instead", path, 1)


class _Reader:
    def __init__(self, path: Path, duplicates: str, text_key: str | None,
                 annotator_key: str) -> None:
        self.path, self.shown = path, os.fspath(path)
        self.duplicates, self.text_key, self.annotator_key = duplicates, text_key, annotator_key
        self.tally = Tally(path)
        self.docs: list[AnnotatedDocument] = []
        self.chosen_key: str | None = text_key
        self.emails: dict[str, str] = {}
        self.names: dict[int, str] = {}  # annotators given by a number, named once
        self.checked_first = False

    # --- a task

    def task(self, task: Any, line: int, window: str | bytes, start: int, end: int) -> None:
        if _records.FAST and self.checked_first and type(task) is dict and read_task(
                self, task, line, window, start, end):
            return  # the whole task at once (else, nothing done, it is read as below)
        if not isinstance(task, dict):
            raise InputError(f"the task at line {line} is not a JSON object", self.path, line)
        if not self.checked_first:
            self._check_kind(task, line)
            self.checked_first = True
        what = f"the task at line {line}"
        name = text_field(task, "id", what=what, path=self.path, line=line)
        assert name is not None
        what = f"task {name}"
        annotations = field(task, "annotations", list, what=what, path=self.path, line=line,
                            required=False, default=[])
        for key, message in (("predictions", PREDICTIONS), ("drafts", DRAFTS)):
            extra = field(task, key, list, what=what, path=self.path, line=line,
                          required=False, default=[])
            self.tally.add("ignored", message, line, len(extra))
        if not annotations:
            return
        data = field(task, "data", dict, what=what, path=self.path, line=line)
        cursor = _Cursor(window, start, end, line)
        # a task written on one line: every region is on the task's line (no search needed)
        flat = _records.FAST and window.find(cursor.newline, start, end) < 0
        read: dict[str, tuple[str, int, AnnotatedDocument]] = {}
        for k, ann in enumerate(annotations, 1):
            if not isinstance(ann, dict):
                raise InputError(f"{what}: annotation {k} is not a JSON object", self.path,
                                 line)
            value = ann.get("id")
            if type(value) is int:
                ann_id = str(value)
            elif type(value) is str and value:
                ann_id = value
            else:
                ann_id = text_field(ann, "id", what=f"{what}, annotation {k}", path=self.path,
                                    line=line, required=False) or f"#{k}"
            where = f"{what}, annotation {ann_id}"
            value = ann.get("was_cancelled")
            if value is True or (value is not False and field(
                    ann, "was_cancelled", bool, what=where, path=self.path, line=line,
                    required=False, default=False)):
                self.tally.add("skipped", CANCELLED, line)
                continue
            value = ann.get("completed_by")
            annotator = label_text(str(value)) if type(value) is int else \
                self._annotator(ann, where, line)
            value = ann.get("ground_truth")
            if value is True or (value is not False and field(
                    ann, "ground_truth", bool, what=where, path=self.path, line=line,
                    required=False, default=False)):
                self.tally.add("note", GROUND_TRUTH, line)
            result = ann.get("result")
            if type(result) is not list:
                result = field(ann, "result", list, what=where, path=self.path, line=line,
                               required=False, default=[])
            doc = None
            if _records.FAST:
                doc = self._annotation_fast(name, annotator, data, result, line, cursor, flat)
            if doc is None:
                doc = self._annotation(name, annotator, data, result, where, line, cursor)
            if annotator in read:
                doc = self._duplicate(name, annotator, read[annotator], (ann_id, line, doc))
            read[annotator] = (ann_id, line, doc)
        self.docs.extend(doc for _, _, doc in read.values())

    def _check_kind(self, task: dict[str, Any], line: int) -> None:
        if "completions" in task and "annotations" not in task:
            raise InputError("a Label Studio 0.x export ('completions'): its annotations name "
                             "no annotator; export the project from Label Studio 1.0 or later "
                             "(JSON)", self.path, line)
        if "annotations" not in task and "data" not in task and (
                "annotator" in task or "annotation_id" in task):
            raise InputError("a Label Studio JSON-MIN export: it flattens each annotation into "
                             "the task's fields, so regions lose their ids and the relations "
                             "between them; export the project as JSON (the full export) "
                             "instead", self.path, line)

    def _annotator(self, ann: dict[str, Any], where: str, line: int) -> str:
        who = ann.get("completed_by")
        if isinstance(who, dict):
            user_id = text_field(who, "id", what=f"{where}, completed_by", path=self.path,
                                 line=line, required=False)
            email = field(who, "email", str, what=f"{where}, completed_by", path=self.path,
                          line=line, required=False)
            if email and user_id is not None:
                self.emails.setdefault(user_id, email)
            if self.annotator_key == "email" and email:
                return label_text(email)
            if user_id is None:
                raise InputError(f"{where}: completed_by names no user (no id, no email)",
                                 self.path, line)
            return label_text(user_id)
        if who is None:
            raise InputError(f"{where} names no annotator (completed_by is missing); such an "
                             "annotation cannot be attributed", self.path, line)
        value = text_field(ann, "completed_by", what=where, path=self.path, line=line)
        assert value is not None
        return label_text(value)

    def _duplicate(self, task: str, annotator: str, old: tuple[str, int, AnnotatedDocument],
                   new: tuple[str, int, AnnotatedDocument]) -> AnnotatedDocument:
        if self.duplicates == "refuse":
            raise InputError(
                f"task {task}: the user {annotator!r} made two annotations (ids {old[0]} and "
                f"{new[0]}); "
                f"read one with {option('duplicates', 'first')} or "
                f"{option('duplicates', 'last')}", self.path, new[1])
        self.tally.add("skipped", "second annotations by one user on one task left out "
                       f"(duplicates={self.duplicates!r} keeps the {self.duplicates})", new[1])
        return old[2] if self.duplicates == "first" else new[2]

    # --- the text

    def _text(self, data: dict[str, Any], regions: list[tuple[int, int, str | None]],
              where: str, line: int) -> str | None:
        if self.chosen_key is not None:
            value = data.get(self.chosen_key)
            if isinstance(value, str):
                return value
            if self.text_key is not None:
                keys = ", ".join(sorted(map(str, data))) or "none"
                raise InputError(f"{where}: data has no text field {self.text_key!r} (its "
                                 f"fields: {keys}); name another with {option('text_key')}",
                                 self.path, line)
        strings = [k for k, v in data.items() if isinstance(v, str)]
        if len(strings) == 1:
            self.chosen_key = strings[0]
            return str(data[strings[0]])
        if not strings:
            return None
        fitting = [k for k in strings if all(_covers(data[k], r) for r in regions)]
        if regions and len(fitting) == 1:
            self.chosen_key = fitting[0]
            return str(data[fitting[0]])
        if not regions:
            self.tally.add("note", "tasks without spans whose text field is not known yet, "
                           "read without text", line)
            return None
        raise InputError(f"{where}: which field of data is the text? The regions fit "
                         f"{', '.join(fitting) or 'none'} of the fields {', '.join(strings)}; "
                         f"name it with {option('text_key')}", self.path, line)

    # --- an annotation

    def _annotation(self, task: str, annotator: str, data: dict[str, Any], result: list[Any],
                    where: str, line: int, cursor: _Cursor) -> AnnotatedDocument:
        regions: list[tuple[str, str, int, int, str | None, list[str], int]] = []
        choices: list[tuple[str | None, str, list[str]]] = []
        relations: list[tuple[str, str, list[str], str, int]] = []
        for k, res in enumerate(result, 1):
            if not isinstance(res, dict):
                raise InputError(f"{where}: result {k} is not a JSON object", self.path, line)
            kind = res.get("type")
            if kind == "relation":
                at = cursor.find('"from_id"')
                rw = f"{where}, relation {k}"
                src = text_field(res, "from_id", what=rw, path=self.path, line=at)
                dst = text_field(res, "to_id", what=rw, path=self.path, line=at)
                labels = _strings(res, "labels", rw, self.path, at)
                direction = res.get("direction")
                assert src is not None and dst is not None
                relations.append((src, dst, labels, str(direction), at))
                continue
            rid = text_field(res, "id", what=f"{where}, result {k}", path=self.path,
                             line=line, required=False)
            at = cursor.find(f'"{rid}"') if rid is not None and kind == "labels" else \
                cursor.line
            rw = f"{where}, region {rid!r}" if rid is not None else f"{where}, result {k}"
            layer = field(res, "from_name", str, what=rw, path=self.path, line=at,
                          required=False, default=str(kind))
            value = field(res, "value", dict, what=rw, path=self.path, line=at,
                          required=kind in ("labels", "choices"), default={})
            if kind == "labels":
                start, end = value.get("start"), value.get("end")
                if not (type(start) is int and type(end) is int):
                    if isinstance(start, (int, float, str)) and isinstance(end, (int, float, str)):
                        self.tally.add("ignored", "labels regions whose offsets are not "
                                       "characters of a text (audio seconds, HTML XPath)", at)
                        continue
                    raise InputError(f'{rw}: "start" and "end" must be whole numbers',
                                     self.path, at)
                covered = field(value, "text", str, what=rw, path=self.path, line=at,
                                required=False)
                labels = _strings(value, "labels", rw, self.path, at)
                if rid is None:
                    raise InputError(f'{rw}: a labels region without an "id"', self.path, at)
                regions.append((rid, label_text(layer), start, end, covered, labels, at))
            elif kind == "choices":
                choices.append((rid, label_text(layer), _strings(value, "choices", rw,
                                                                 self.path, at)))
            else:
                self.tally.add("ignored", f"results of type {str(kind)[:40]!r} (not text "
                               "spans, relations or choices)", at)
        text = self._text(data, [(s, e, c) for _, _, s, e, c, _, _ in regions], where, line)
        spans = self._spans(task, text, regions, choices)
        region_ids = {r[0] for r in regions}
        doc_labels = tuple(DocumentLabel(layer, value, line) for rid, layer, values in choices
                           if rid is None or rid not in region_ids for value in values)
        rels = self._relations({s.id for s in spans}, relations)
        return AnnotatedDocument(task, annotator, text, spans=spans, relations=rels,
                                 chains=chains_of(spans, rels) if rels else (),
                                 labels=doc_labels, path=os.fspath(self.path), line=line,
                                 tool=TOOL)

    def _annotation_fast(self, task: str, annotator: str, data: dict[str, Any],
                         result: list[Any], line: int, cursor: _Cursor, flat: bool
                         ) -> AnnotatedDocument | None:
        """:meth:`_annotation` for an annotation of labels regions (one label or none each,
        with their covered text), relations and choices, all well formed, whose text field is
        known: the same document, the same notices. None, with nothing done, for anything
        else (the general path then reads it)."""
        text = data.get(self.chosen_key) if self.chosen_key is not None else None
        if type(text) is not str:
            return None
        pos, at_line = cursor.pos, cursor.line
        regions: list[tuple[str, str, int, int, str, str | None, int]] = []
        choices: list[tuple[str | None, str, list[str]]] = []
        relations: list[tuple[str, str, list[str], str, int]] = []
        interned, done = _INTERNED.get, False
        region_keys, value_keys = _REGION_KEYS, _VALUE_KEYS
        try:
            for res in result:
                kind = res["type"]
                if kind == "labels":
                    rid, layer, value = region_keys(res)
                    start, end, covered, labels = value_keys(value)
                    if not (type(rid) is str is type(layer) is type(covered) and
                            type(start) is int is type(end) and type(labels) is list):
                        break
                    if labels:
                        label = labels[0]
                        if type(label) is not str or len(labels) > 1:
                            break
                        label = interned(label) or label_text(label)
                    else:
                        label = None
                    regions.append((rid, interned(layer) or label_text(layer), start, end,
                                    covered, label,
                                    line if flat else cursor.find(f'"{rid}"')))
                elif kind == "relation":
                    src, dst, labels = res["from_id"], res["to_id"], res.get("labels")
                    if type(src) is not str or type(dst) is not str or not (
                            labels is None or (type(labels) is list and
                                               all(type(v) is str for v in labels))):
                        break
                    relations.append((src, dst, list(labels or ()),
                                      str(res.get("direction")),
                                      line if flat else cursor.find('"from_id"')))
                elif kind == "choices":
                    rid, layer, values = res.get("id"), res["from_name"], \
                        res["value"].get("choices")
                    if (rid is not None and type(rid) is not str) or type(layer) is not str \
                            or not (values is None or (type(values) is list and
                                                       all(type(v) is str for v in values))):
                        break
                    choices.append((rid, interned(layer) or label_text(layer),
                                    list(values or ())))
                else:
                    break
            else:
                done = True
        except (KeyError, TypeError, AttributeError):
            pass
        if done:
            return self._fast_document(task, annotator, text, regions, choices, relations,
                                       line)
        cursor.pos, cursor.line = pos, at_line
        return None

    def _fast_document(self, task: str, annotator: str, text: str,
                       regions: list[tuple[str, str, int, int, str, str | None, int]],
                       choices: list[tuple[str | None, str, list[str]]],
                       relations: list[tuple[str, str, list[str], str, int]], line: int
                       ) -> AnnotatedDocument:
        spans: tuple[Span, ...] = ()
        if regions:
            plain = [(s, e, c) for _, _, s, e, c, _, _ in regions]
            found = resolve_plain(text, plain, self.tally, regions[0][6])
            if found is None:  # the general reckoning of units, with its notices
                checks = [OffsetCheck(s, e, c, at, f"region {rid!r}")
                          for rid, _, s, e, c, _, at in regions]
                offsets = resolve_offsets(text, checks, path=self.path, document=task,
                                          tally=self.tally)[1]
            else:
                offsets = found  # type: ignore[assignment]
            features: dict[str, list[tuple[str, str]]] = {}
            for rid, layer, values in choices:
                if rid is not None:
                    features.setdefault(rid, []).append((layer, "|".join(values)))
            if features:
                spans = tuple(new_span(rid, at[0], at[1], layer, label,
                                       tuple(features[rid]) if rid in features else (),
                                       covered, place)
                              for (rid, layer, _, _, covered, label, place), at
                              in zip(regions, offsets, strict=True) if at is not None)
            else:
                spans = tuple(new_span(rid, at[0], at[1], layer, label, (), covered, place)
                              for (rid, layer, _, _, covered, label, place), at
                              in zip(regions, offsets, strict=True) if at is not None)
        doc_labels: tuple[DocumentLabel, ...] = ()
        if choices:
            region_ids = {r[0] for r in regions}
            doc_labels = tuple(new_label(layer, value, line)
                               for rid, layer, values in choices
                               if rid is None or rid not in region_ids for value in values)
        rels = self._relations({s.id for s in spans}, relations) if relations else ()
        return new_document(task, annotator, text, (), (), spans, rels,
                            chains_of(spans, rels) if rels else (), doc_labels, self.shown,
                            line, TOOL)

    def _spans(self, task: str, text: str | None,
               regions: list[tuple[str, str, int, int, str | None, list[str], int]],
               choices: list[tuple[str | None, str, list[str]]]) -> tuple[Span, ...]:
        if not regions:
            return ()
        if text is None:
            self.tally.add("note", "tasks without a text field: their regions' offsets are "
                           "read unchecked", regions[0][6])
            offsets: list[tuple[int, int] | None] = [(s, e) for _, _, s, e, _, _, _ in regions]
        else:
            checks = [OffsetCheck(s, e, c, at, f"region {rid!r}")
                      for rid, _, s, e, c, _, at in regions]
            _, offsets = resolve_offsets(text, checks, path=self.path, document=task,
                                         tally=self.tally)
        features: dict[str, list[tuple[str, str]]] = {}
        for rid, layer, values in choices:
            if rid is not None:
                features.setdefault(rid, []).append((layer, "|".join(values)))
        out: list[Span] = []
        for (rid, layer, _, _, covered, labels, at), found in zip(regions, offsets,
                                                                  strict=True):
            if found is None:
                continue
            feats = tuple(features.get(rid, ()))
            if len(labels) > 1:
                self.tally.add("note", STACKED, at)
            for k, label in enumerate(labels or [None], 1):
                out.append(Span(rid if k == 1 else f"{rid}[{k}]", found[0], found[1], layer,
                                None if label is None else label_text(label), feats,
                                text=covered, line=at))
        return tuple(out)

    def _relations(self, ids: set[str], relations: list[tuple[str, str, list[str], str, int]]
                   ) -> tuple[Relation, ...]:
        out: list[Relation] = []
        for src, dst, labels, direction, at in relations:
            if src not in ids or dst not in ids:
                self.tally.add("skipped", STRAY_RELATIONS, at)
                continue
            if direction == "left":
                src, dst = dst, src
            for label in labels or [None]:  # type: ignore[list-item]
                out.append(new_relation(src, dst, RELATION_LAYER,
                                        None if label is None else label_text(label), at))
        return tuple(out)

    def documents(self) -> tuple[AnnotatedDocument, ...]:
        """The documents, a bare user id renamed to the e-mail address the file gives it."""
        if self.annotator_key == "email" and self.emails:
            return tuple(dataclasses.replace(d, annotator=self.emails[d.annotator])
                         if d.annotator in self.emails else d for d in self.docs)
        return tuple(self.docs)


def _covers(text: str, region: tuple[int, int, str | None]) -> bool:
    start, end, covered = region
    if covered is None:
        return end <= len(text)
    return text[start:end] == covered or covered in text


def _strings(record: dict[str, Any], key: str, what: str, path: Path, line: int
             ) -> list[str]:
    values: Sequence[Any] = field(record, key, list, what=what, path=path, line=line,
                                  required=False, default=[])
    for v in values:
        if not isinstance(v, str):
            raise InputError(f'{what}: "{key}" must be a list of strings', path, line)
    return list(values)
