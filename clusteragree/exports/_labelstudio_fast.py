"""Label Studio's fast path for a whole task: the common, well-formed task read in one loop.

:func:`read_task` reads a task whose annotations are all of the usual shape (see there) and
gives the documents and notices of the general path (:class:`clusteragree.exports.labelstudio.
_Reader`); it takes nothing else. It checks the whole task before anything is kept: the
notices are counted, and the documents added, only once every annotation has been read, so that
a task it leaves is read by the general path from its start, with nothing counted twice.

What makes it faster than reading annotation by annotation: the checks of the task and of each
annotation are a few tests of type on values taken at once (no message built, no field looked
up twice); the regions of an annotation are checked against the text as they are read (their
covered text at their offsets in code points), and only when one does not match are the
offsets read as UTF-16 code units, through a table of the text made once for all the task's
annotators (:func:`~clusteragree.exports.offsets.utf16_positions`: two look-ups a span); each
region is made a draft of its span at once, made a Span in place at the end
(:class:`~clusteragree.exports.model.SpanDraft`); the places of the regions are searched for
only in a task written over several lines.

References
----------
docs/formats.md, "Label Studio" and "Performance".
"""

from __future__ import annotations

import functools
from operator import attrgetter, itemgetter
from typing import Any, Protocol

from ..errors import Tally
from ._records import _INTERNED, label_text
from .model import (
    AnnotatedDocument,
    DocumentLabel,
    Relation,
    Span,
    SpanDraft,
    chains_of,
    finish_spans,
    new_document,
    new_label,
    new_relation,
)
from .offsets import UTF16_NOTE, utf16_positions

__all__ = ["CANCELLED", "DRAFTS", "GROUND_TRUTH", "PREDICTIONS", "RELATION_LAYER",
           "STRAY_RELATIONS", "TOOL", "read_task"]

TOOL = "label-studio"
RELATION_LAYER = "relation"
CANCELLED = "cancelled (skipped) annotations left out"
PREDICTIONS = "predictions (a model's suggestions, not an annotator's) left out"
DRAFTS = "drafts (annotations not submitted) left out"
GROUND_TRUTH = "annotations marked ground truth, read as their annotator's"
STRAY_RELATIONS = ("relations with an end that is not a text region of the same annotation "
                   "left out")

#: The keys of a labels region and of its value, taken at once
REGION_KEYS = itemgetter("id", "from_name", "value")
VALUE_KEYS = itemgetter("start", "end", "text", "labels")
#: The fields of an annotation the fast path reads, taken at once (absent ones are None)
_ANNOTATION_KEYS = ("id", "was_cancelled", "completed_by", "ground_truth", "result")
_ANNOTATION = itemgetter(*_ANNOTATION_KEYS)
_STRINGS = {str}
_ID = attrgetter("id")
#: The code point at each UTF-16 offset of a text, made once for the annotators of a task
_utf16 = functools.lru_cache(maxsize=4)(utf16_positions)

Notice = tuple[str, str, "int | None", int]


class Reader(Protocol):
    """What :func:`read_task` uses of the reader."""

    chosen_key: str | None
    shown: str
    tally: Tally
    docs: list[AnnotatedDocument]
    names: dict[int, str]


class _Cursor:
    """The line of each region and relation of one task, found by moving forward through the
    task's text in the order the parsed values come (so the search is linear in the task)."""

    def __init__(self, text: str | bytes, start: int, end: int, line: int) -> None:
        self.text, self.pos, self.end, self.line = text, start, end, line
        self.raw = type(text) is bytes  # the file's bytes (read by orjson): tokens in UTF-8
        self.newline: Any = b"\n" if self.raw else "\n"

    def find(self, token: str) -> int:
        found: Any = token.encode("utf-8", "surrogatepass") if self.raw else token
        at = self.text.find(found, self.pos, self.end)
        if at < 0:
            return self.line
        self.line += self.text.count(self.newline, self.pos, at)
        self.pos = at + len(found)
        return self.line


def read_task(reader: Reader, task: dict[str, Any], line: int, window: str | bytes,
              start: int, end: int) -> bool:
    """Read ``task`` (at ``line``, the bytes or characters ``start:end`` of ``window``)
    as the general path reads it, and say True; or say False, with nothing done, for a task
    of another shape: its id not a number or a string, its annotations, predictions or drafts
    not lists, its data not an object with the text under the reader's chosen key; an
    annotation whose id is not a number or a non-empty string, whose ``completed_by`` is not
    a number or a string, whose ``was_cancelled`` and ``ground_truth`` are not true, false or
    absent, whose ``result`` is not a list; two annotations by one user; a result that
    :func:`_regions` does not take; regions whose offsets do not all cover their text in code
    points, nor all in UTF-16 code units."""
    key = reader.chosen_key
    value = task.get("id")
    if type(value) is int:
        name = str(value)
    elif type(value) is str:
        name = value
    else:
        return False
    annotations, predictions, drafts = task.get("annotations"), task.get("predictions"), \
        task.get("drafts")
    if type(annotations) is not list or not (predictions is None or type(predictions) is list) \
            or not (drafts is None or type(drafts) is list):
        return False
    notices: list[Notice] = []
    if predictions:
        notices.append(("ignored", PREDICTIONS, line, len(predictions)))
    if drafts:
        notices.append(("ignored", DRAFTS, line, len(drafts)))
    docs: list[AnnotatedDocument] = []
    if annotations:
        data = task.get("data")
        if type(data) is not dict or key is None:
            return False
        text = data.get(key)
        if type(text) is not str:
            return False
        # a task written on one line: every region is on the task's line (no search needed)
        newline: Any = b"\n" if type(window) is bytes else "\n"
        cursor = None if window.find(newline, start, end) < 0 else \
            _Cursor(window, start, end, line)
        annotators: set[str] = set()
        names = reader.names
        for ann in annotations:
            if type(ann) is not dict:
                return False
            try:
                ann_id, cancelled, who, truth, result = _ANNOTATION(ann)
            except KeyError:  # (a field left out: None, as the general path reads it)
                ann_id, cancelled, who, truth, result = map(ann.get, _ANNOTATION_KEYS)
            if not ((type(ann_id) is int or (type(ann_id) is str and ann_id)) and
                    (type(result) is list or result is None)):
                return False
            if cancelled is True:
                notices.append(("skipped", CANCELLED, line, 1))
                continue
            if cancelled is not False and cancelled is not None:
                return False
            if type(who) is int:
                annotator = names.get(who) or names.setdefault(who, label_text(str(who)))
            elif type(who) is str:
                annotator = label_text(who)
            else:
                return False
            if annotator in annotators:
                return False
            annotators.add(annotator)
            if truth is True:
                notices.append(("note", GROUND_TRUTH, line, 1))
            elif truth is not False and truth is not None:
                return False
            doc = _document(name, annotator, text, result or (), line, cursor, notices,
                            reader.shown)
            if doc is None:
                return False
            docs.append(doc)
    add = reader.tally.add
    for kind, message, at, count in notices:
        add(kind, message, at, count)
    reader.docs.extend(docs)
    return True


def _document(task: str, annotator: str, text: str, result: Any, line: int,
              cursor: _Cursor | None, notices: list[Notice], shown: str
              ) -> AnnotatedDocument | None:
    """One annotation's document; None for a result it does not take (see :func:`_regions`)
    or offsets that fit neither unit."""
    found = _regions(text, result, line, cursor)
    if found is None:
        return None
    drafts, choices, relations, fits = found
    spans: tuple[Span, ...] = ()
    ids: set[str] = set()
    if drafts:
        if not fits:  # all in UTF-16 code units, as offsets.resolve_plain reads them
            table = _utf16(text)
            if table is None:
                return None
            last = len(table) - 1
            for draft in drafts:
                s, e = draft.start, draft.end
                if not 0 <= s <= e <= last:
                    return None
                a, b = table[s], table[e]
                if a is None or b is None or text[a:b] != draft.text:
                    return None
                draft.start, draft.end = a, b
            notices.append(("note", UTF16_NOTE, drafts[0].line, 1))
        if choices or relations:
            ids = set(map(_ID, drafts))
        for rid, _, _ in choices:
            if rid is not None and rid in ids:  # a perRegion choice: features of its spans
                features: dict[str, list[tuple[str, str]]] = {}
                for rid2, layer2, values2 in choices:
                    if rid2 is not None:
                        features.setdefault(rid2, []).append((layer2, "|".join(values2)))
                for draft in drafts:
                    if draft.id in features:
                        draft.features = tuple(features[draft.id])
                break
        spans = finish_spans(drafts)
    labels: tuple[DocumentLabel, ...] = ()
    if choices:
        made_labels = []
        for rid, layer, values in choices:
            if rid is None or rid not in ids:
                for value in values:
                    made_labels.append(new_label(layer, value, line))
        labels = tuple(made_labels)
    rels: tuple[Relation, ...] = ()
    if relations:
        made: list[Relation] = []
        for src, dst, names, direction, at in relations:
            if src not in ids or dst not in ids:
                notices.append(("skipped", STRAY_RELATIONS, at, 1))
                continue
            if direction == "left":
                src, dst = dst, src
            for label in names or (None,):
                made.append(new_relation(src, dst, RELATION_LAYER,
                                         None if label is None else label_text(label), at))
        rels = tuple(made)
    return new_document(task, annotator, text, (), (), spans, rels,
                        chains_of(spans, rels) if rels else (), labels, shown, line, TOOL)


def _regions(text: str, result: Any, line: int, cursor: _Cursor | None
             ) -> tuple[list[SpanDraft], list[tuple[str | None, str, list[str]]],
                        list[tuple[str, str, list[str], str, int]], bool] | None:
    """The labels regions (one label or none each, with their covered text) as drafts of
    spans at the offsets written, the choices and relations of a result, all well formed,
    and whether every region covers its text at its offsets in code points; None for
    anything else (another type of result, a field of another type or missing, several
    labels)."""
    size = len(text)
    fits = True
    drafts: list[SpanDraft] = []
    choices: list[tuple[str | None, str, list[str]]] = []
    relations: list[tuple[str, str, list[str], str, int]] = []
    interned, region_keys, value_keys = _INTERNED.get, REGION_KEYS, VALUE_KEYS
    try:
        for res in result:
            kind = res["type"]
            if kind == "labels":
                rid, layer, value = region_keys(res)
                start, end, covered, labels = value_keys(value)
                if type(start) is not int or type(end) is not int or type(covered) is not str \
                        or type(labels) is not list or type(rid) is not str \
                        or type(layer) is not str:
                    return None
                if labels:
                    label = labels[0]
                    if type(label) is not str or len(labels) > 1:
                        return None
                    label = interned(label) or label_text(label)
                else:
                    label = None
                if fits and not (0 <= start <= end <= size and text[start:end] == covered):
                    fits = False
                draft = SpanDraft()
                draft.id, draft.start, draft.end, draft.label, draft.text = \
                    rid, start, end, label, covered
                draft.layer = interned(layer) or label_text(layer)
                draft.features = draft.fragments = ()
                draft.line = line if cursor is None else cursor.find(f'"{rid}"')
                drafts.append(draft)
            elif kind == "relation":
                src, dst, labels = res["from_id"], res["to_id"], res.get("labels")
                if type(src) is not str or type(dst) is not str or not (
                        labels is None or (type(labels) is list and _strings(labels))):
                    return None
                relations.append((src, dst, labels or [], str(res.get("direction")),
                                  line if cursor is None else cursor.find('"from_id"')))
            elif kind == "choices":
                rid, layer, values = res.get("id"), res["from_name"], \
                    res["value"].get("choices")
                if (rid is not None and type(rid) is not str) or type(layer) is not str \
                        or not (values is None or (type(values) is list and
                                                   _strings(values))):
                    return None
                choices.append((rid, interned(layer) or label_text(layer), values or []))
            else:
                return None
    except (KeyError, TypeError, AttributeError):
        return None
    return drafts, choices, relations, fits


def _strings(values: list[Any]) -> bool:
    """Whether every value of the list is a string (one value, the common case, at once)."""
    if len(values) == 1:
        return type(values[0]) is str
    return not values or set(map(type, values)) == _STRINGS
