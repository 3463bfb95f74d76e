"""WebAnno TSV 3 (INCEpTION, WebAnno): one annotator's annotation of one document.

A WebAnno TSV 3.x file has a header naming its layers and their feature columns
(``#T_SP=`` span layers, ``#T_CH=`` chain layers, ``#T_RL=`` relation layers), then one
block per sentence: its text on ``#Text=`` lines (several when the sentence holds line
breaks) and one line per token ``S-T<TAB>begin-end<TAB>token<TAB>columns...``, followed by
its sub-tokens ``S-T.N`` (parts of a token, and zero-length positions). What is read:

* **the text**, rebuilt as INCEpTION rebuilds it: the sentences' texts (escapes undone),
  each starting at its first token's offset (spaces fill a gap, a sentence that starts where
  the previous one ends loses the line break between them); the line break after the last
  sentence is not part of the text. Text between sentences is not in the format (it is
  spaces here).
* **offsets** are UTF-16 code units (Java's): every token's and sub-token's offsets are
  checked against its text in the rebuilt text (:func:`~clusteragree.exports.offsets.
  resolve_offsets`: the unit that matches is used and said once in the warnings ledger) and
  converted to code points.
* **spans** of each span layer: a cell value ``V`` (or ``V[N]``) makes a span on that token;
  ``[N]`` is a disambiguation id, unique in the file, that joins the tokens of one span
  (multi-token spans) and tells stacked spans apart; ``A|B`` are stacked spans; ``_`` is no
  span, ``*`` a span whose feature is empty. A span runs from its first token's start to its
  last token's end. Its layer is the type's short name (``NamedEntity`` for
  ``de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity``; the full name when two layers
  of the file share a short name), its label the feature ``value`` (else the first feature),
  its other features in :attr:`~clusteragree.exports.model.Span.features`.
* **chains**: the ``referenceRelation`` column holds ``rel->C-L`` (link ``L`` of chain ``C``),
  the ``referenceType`` column ``type[C]``; each link is a span of the link layer
  (``CoreferenceLink``, label the reference type, feature ``referenceRelation``) and each chain
  a :class:`~clusteragree.exports.model.Chain` of the chain layer (``CoreferenceChain``) with
  its links in link order.
* **relations**: a relation layer's columns are its features then ``BT_<type>``, the id of the
  token the relation comes from (its source), with ``[S_T]`` naming the source's and the
  target's disambiguation ids (``0``: not needed); the target is the span of the base type on
  the token of the line. DKPro's ``Dependency`` is attached to tokens, as INCEpTION reads it:
  its ends are spans of the layer ``Token``.
* **slot features** (``ROLE_...`` and the target column after it): each filled slot is a
  relation from the slot's host span to its target, of the layer ``HOST:feature`` (e.g.
  ``SimpleLinkHost:links``), labelled with the role.

Speed: a file of span and chain layers in the common shape is read by a fast path
(:mod:`clusteragree.exports._webanno_fast`) that gives the same document, notices and errors
(``_records.FAST = False`` turns it off); anything else is read by the general path below.

Escapes: feature values undo ``\\\\ \\[ \\] \\| \\_ \\-> \\; \\t \\n \\*``; sentence texts
undo ``\\t \\n \\r \\f \\b \\\\`` and a backslash before another control character (3.2 and
later) or Java's escapes (3.0, 3.1). WebAnno TSV 1 and 2 (headers `` # type | feature``) are
refused with the way to export TSV 3.

References
----------
INCEpTION user guide, "WebAnno TSV 3.3 File format" (inception-project/inception,
``inception-io-webanno-tsv/src/main/resources/META-INF/asciidoc/user-guide/webannotsv.adoc``),
and INCEpTION's conformance suite ``tsv3-suite`` (the cases this reader is tested on).
docs/formats.md, "INCEpTION and WebAnno".
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError, Tally
from ..inputs import decode, iter_lines, read_bytes
from . import _records
from ._webanno_escapes import _escaped, _suffix, split_unescaped, unescape_text, unescape_value
from ._webanno_fast import read_fast
from .model import AnnotatedDocument, Chain, Export, Relation, Span
from .offsets import OffsetCheck, resolve_offsets

__all__ = ["parse_webanno_tsv", "read_webanno_tsv", "read_webanno_tsv_bytes",
           "sniff_webanno_tsv"]

TOOL = "webanno-tsv"
#: DKPro Core's dependency relation: INCEpTION attaches it to tokens whatever ``BT_`` says.
DEPENDENCY = "de.tudarmstadt.ukp.dkpro.core.api.syntax.type.dependency.Dependency"
#: The layer of the token spans that relations attached to tokens point at.
TOKEN_LAYER = "Token"
TOKEN_TYPE = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Token"
UNTYPED = "uima.tcas.Annotation"

_FORMAT = re.compile(r"#FORMAT=(.*?) ([0-9]+)(?:\.([0-9]+))?[ \t]*")
_OLD_HEADER = re.compile(r" ?# ?[A-Za-z_][\w.$]* ?\|")
_UNIT_ID = re.compile(r"([0-9]{1,9})-([0-9]{1,9})(?:\.([0-9]{1,9}))?")
_OFFSETS = re.compile(r"([0-9]{1,12})-([0-9]{1,12})")
_NON_BMP = re.compile("[\U00010000-\U0010FFFF]")
_LINK = re.compile(r"(.*)->([0-9]{1,9})-([0-9]{1,9})\Z", re.S)


# ------------------------------------------------------------------------------ header

@dataclass
class _Layer:
    kind: str  # "span", "chain", "relation"
    type_name: str
    line: int
    name: str = ""
    columns: list[_Column] = field(default_factory=list)
    attach: str | None = None  # relation layers: the base type

    @property
    def label_feature(self) -> str | None:
        names = [c.feature for c in self.columns if c.kind == "primitive"]
        return "value" if "value" in names else (names[0] if names else None)


@dataclass
class _Column:
    layer: _Layer
    kind: str  # primitive, placeholder, role, target, source, chain-type, chain-link
    feature: str = ""
    target_type: str = ""


@dataclass
class _Unit:
    id: str
    begin: int
    end: int
    text: str
    line: int
    sub: bool
    annotations: dict[int, list[object]] = field(default_factory=dict)  # layer index -> stack


@dataclass
class _SpanBuild:
    layer: _Layer
    units: list[_Unit]
    did: int | None
    line: int
    features: dict[str, str | None] = field(default_factory=dict)
    roles: dict[str, str] = field(default_factory=dict)
    targets: dict[str, str] = field(default_factory=dict)
    id: str = ""


@dataclass
class _RelationBuild:
    layer: _Layer
    unit: _Unit
    line: int
    features: dict[str, str | None] = field(default_factory=dict)
    source: tuple[str, int, int] | None = None


@dataclass
class _LinkBuild:
    layer: _Layer
    chain: int
    element: int
    units: list[_Unit]
    line: int
    type: str | None = None
    relation: str | None = None
    id: str = ""


def _short(type_name: str) -> str:
    return type_name.rsplit(".", 1)[-1]


class _Reader:
    """One TSV file being read (see :func:`parse_webanno_tsv`)."""

    def __init__(self, path: str, document: str, annotator: str, tool: str) -> None:
        self.path, self.document, self.annotator, self.tool = path, document, annotator, tool
        self.tally = Tally(path)
        self.minor = 3
        self.layers: list[_Layer] = []
        self.ncols = 0
        self.units: dict[str, _Unit] = {}
        self.main_units: list[_Unit] = []
        self.sentences: list[tuple[int, int]] = []
        self.spans: list[_SpanBuild] = []
        self.by_did: dict[int, _SpanBuild] = {}
        self.relations: list[_RelationBuild] = []
        self.links: dict[tuple[int, int, int], _LinkBuild] = {}
        self.text_parts: list[str] = []
        self.text_len16 = 0  # the text's length in UTF-16 code units

    def error(self, message: str, line: int | None) -> InputError:
        return InputError(message, self.path, line)

    # -- header ---------------------------------------------------------------------------

    def format_line(self, number: int, line: str) -> None:
        m = _FORMAT.fullmatch(line)
        if m is None:
            if _OLD_HEADER.match(line) or line.startswith(("#id=", "#text=")):
                raise self.error(
                    "this is WebAnno TSV 1 or 2 (a header of ' # type | feature' columns), "
                    "which is not read: export the document again from INCEpTION or "
                    "WebAnno 3 as 'WebAnno TSV 3.3' (annotation page: Export; or the "
                    "project export with that format)", number)
            raise self.error("not a WebAnno TSV file: the first line should be "
                             "'#FORMAT=WebAnno TSV 3.3'", number)
        name, major, minor = m.group(1), int(m.group(2)), int(m.group(3) or 0)
        if name != "WebAnno TSV":
            raise self.error(f"unknown format {name!r} (expected 'WebAnno TSV 3.x')", number)
        if major != 3:
            raise self.error(f"WebAnno TSV {major} is not read (only TSV 3.x): export the "
                             "document again as 'WebAnno TSV 3.3'", number)
        self.minor = minor
        if minor > 3:
            self.tally.add("note", f"WebAnno TSV 3.{minor} is newer than 3.3; read as 3.3",
                           number)

    def layer_line(self, number: int, line: str) -> None:
        kind = {"#T_SP=": "span", "#T_CH=": "chain", "#T_RL=": "relation"}.get(line[:6])
        if kind is None:
            raise self.error(f"unknown layer declaration {line[:40]!r} (expected #T_SP=, "
                             "#T_CH= or #T_RL=)", number)
        fields = [f for f in line[6:].split("|") if f]
        if not fields or not fields[0].strip():
            raise self.error("a layer declaration without a type name", number)
        layer = _Layer(kind, fields[0], number)
        prev: _Column | None = None
        for decl in fields[1:]:
            col = self.column(layer, decl, prev, number)
            layer.columns.append(col)
            prev = col
        if len(fields) == 1:
            layer.columns.append(_Column(layer, "placeholder"))
        if prev is not None and prev.kind == "role":
            raise self.error(f"slot column {decl!r} of {layer.type_name} has no target type "
                             "column after it", number)
        if kind == "relation" and not any(c.kind == "source" for c in layer.columns):
            raise self.error(f"relation layer {layer.type_name} has no BT_ column (the type "
                             "of the spans it links)", number)
        if kind == "chain" and not any(c.kind == "chain-link" for c in layer.columns):
            raise self.error(f"chain layer {layer.type_name} has no referenceRelation "
                             "column", number)
        self.layers.append(layer)
        self.ncols += len(layer.columns)

    def column(self, layer: _Layer, decl: str, prev: _Column | None, number: int) -> _Column:
        if layer.kind == "span" and decl.startswith("ROLE_"):
            parts = decl.split("_")
            if len(parts) < 3 or ":" not in parts[1]:
                raise self.error(f"slot column {decl!r} is not ROLE_<type>:<feature>_<link "
                                 "type>", number)
            return _Column(layer, "role", parts[1].split(":", 1)[1])
        if layer.kind == "relation" and decl.startswith("BT_"):
            layer.attach = decl[3:]
            return _Column(layer, "source", target_type=decl[3:])
        if layer.kind == "chain" and decl in ("referenceType", "referenceRelation"):
            return _Column(layer, "chain-type" if decl == "referenceType" else "chain-link",
                           decl)
        if prev is not None and prev.kind == "role":
            return _Column(layer, "target", prev.feature, target_type=decl)
        if layer.kind == "span" and "." in decl:
            raise self.error(f"column {decl!r} of {layer.type_name} names a type but does "
                             "not follow a ROLE_ slot column", number)
        return _Column(layer, "primitive", decl)

    def name_layers(self) -> None:
        shorts: dict[str, int] = {}
        for layer in self.layers:
            short = _short(layer.type_name)
            shorts[short] = shorts.get(short, 0) + 1
        shorts[TOKEN_LAYER] = shorts.get(TOKEN_LAYER, 0) + 1
        for layer in self.layers:
            short = _short(layer.type_name)
            layer.name = short if shorts[short] == 1 else layer.type_name

    # -- body -----------------------------------------------------------------------------

    def read(self, text: str) -> AnnotatedDocument:
        if _records.FAST:
            doc = read_fast(_Reader(self.path, self.document, self.annotator, self.tool), text)
            if doc is not None:
                return doc
        return self.read_general(text)

    def read_general(self, text: str) -> AnnotatedDocument:
        """The general path: every row checked, noticed or refused as the format says."""
        lines = iter_lines(text)
        number, line = next(lines, (1, ""))
        self.format_line(number, line)
        state = "header"
        texts: list[str] = []
        header_line = 0
        prev_main: _Unit | None = None
        sentence_first = 0
        for number, line in lines:
            if state == "header":
                if line.startswith("#T_"):
                    self.layer_line(number, line)
                    continue
                self.name_layers()
                if line.strip() and not line.startswith(("#Text=", "#Sentence.id=")):
                    raise self.error("expected a layer declaration (#T_SP=, #T_CH=, #T_RL=) "
                                     f"or the blank lines that end the header, not "
                                     f"{line[:40]!r}", number)
                state = "between"
            if not line.strip():
                if state == "tokens":
                    self.sentences.append((sentence_first, len(self.main_units)))
                elif state == "sentence":
                    raise self.error("a sentence without tokens (the #Text= lines are not "
                                     "followed by token lines)", header_line)
                state = "between"
                continue
            if line.startswith("#") and state in ("between", "sentence"):
                if state == "between":
                    texts, header_line = [], number
                    state = "sentence"
                if line.startswith("#Text="):
                    texts.append(unescape_text(line[6:], self.minor))
                elif not line.startswith("#Sentence.id="):
                    self.tally.add("ignored", "sentence header lines other than #Text= and "
                                   "#Sentence.id= (not part of the format)", number)
                continue
            if state == "between":
                raise self.error("a token line outside a sentence (a sentence starts with "
                                 "its #Text= line after a blank line)", number)
            if state == "sentence" and not texts:
                raise self.error("a sentence without a #Text= line", number)
            unit = self.unit(number, line)
            if unit.sub:
                if prev_main is None or state == "sentence" or \
                        not unit.id.startswith(prev_main.id + "."):
                    raise self.error(f"sub-token {unit.id} does not follow its token", number)
            else:
                if state == "sentence":
                    self.start_sentence(texts, unit.begin, number)
                    sentence_first = len(self.main_units)
                self.main_units.append(unit)
                prev_main = unit
            state = "tokens"
            self.annotate(unit, line, number)
        if state == "header":
            self.name_layers()
        elif state == "tokens":
            self.sentences.append((sentence_first, len(self.main_units)))
        elif state == "sentence":
            raise self.error("a sentence without tokens at the end of the file", header_line)
        return self.document_of()

    def start_sentence(self, texts: list[str], begin: int, number: int) -> None:
        """The text of a sentence whose first token begins at ``begin`` (UTF-16) added."""
        if self.text_len16 > begin:
            if self.text_len16 == begin + 1 and self.text_parts and \
                    self.text_parts[-1].endswith("\n"):
                self.text_parts[-1] = self.text_parts[-1][:-1]
                self.text_len16 -= 1
            else:
                raise self.error(f"the sentence starts at offset {begin}, inside the text "
                                 f"before it ({self.text_len16} UTF-16 units long): the "
                                 "offsets do not fit the sentence texts", number)
        if self.text_len16 < begin:
            self.text_parts.append(" " * (begin - self.text_len16))
            self.text_len16 = begin
        sentence = "\n".join(texts) + "\n"
        self.text_parts.append(sentence)
        self.text_len16 += len(sentence) + (0 if sentence.isascii() else
                                            len(_NON_BMP.findall(sentence)))

    def unit(self, number: int, line: str) -> _Unit:
        fields = line.split("\t")
        if len(fields) < 3 + self.ncols:
            raise self.error(f"a token line of {len(fields)} tab-separated fields; the header "
                             f"declares {3 + self.ncols} (id, offsets, token and "
                             f"{self.ncols} annotation columns)", number)
        if any(f for f in fields[3 + self.ncols:]):
            raise self.error(f"a token line of more than {3 + self.ncols} fields; the header "
                             f"declares {self.ncols} annotation columns", number)
        uid, offsets = fields[0], fields[1]
        m = _UNIT_ID.fullmatch(uid)
        if m is None:
            raise self.error(f"token id {uid[:30]!r} is not SENTENCE-TOKEN or "
                             "SENTENCE-TOKEN.SUB (numbers)", number)
        o = _OFFSETS.fullmatch(offsets)
        if o is None:
            raise self.error(f"offsets {offsets[:30]!r} of token {uid} are not BEGIN-END "
                             "(numbers)", number)
        begin, end = int(o.group(1)), int(o.group(2))
        if end < begin:
            raise self.error(f"token {uid} ends ({end}) before it begins ({begin})", number)
        if uid in self.units:
            raise self.error(f"token id {uid} is given twice (first at line "
                             f"{self.units[uid].line})", number)
        unit = _Unit(uid, begin, end, fields[2], number, m.group(3) is not None)
        self.units[uid] = unit
        return unit

    # -- annotation cells -----------------------------------------------------------------

    def annotate(self, unit: _Unit, line: str, number: int) -> None:
        fields = line.split("\t")
        col = 3
        for li, layer in enumerate(self.layers):
            cells = fields[col:col + len(layer.columns)]
            col += len(layer.columns)
            if all(c == "_" for c in cells):
                continue
            if layer.kind == "span":
                self.span_cells(unit, li, layer, cells, number)
            elif layer.kind == "relation":
                self.relation_cells(unit, li, layer, cells, number)
            else:
                self.chain_cells(unit, li, layer, cells, number)

    def did(self, raw: str | None, number: int) -> int | None:
        if raw is None:
            return None
        if not raw.isdigit() or not raw.isascii() or len(raw) > 9:
            raise self.error(f"disambiguation id [{raw[:20]}] is not a number", number)
        return int(raw)

    def span_of(self, unit: _Unit, li: int, layer: _Layer, index: int, did: int | None,
                number: int) -> _SpanBuild:
        stack = unit.annotations.setdefault(li, [])
        if index < len(stack):
            found = stack[index]
            assert isinstance(found, _SpanBuild)
            return found
        if did is not None and did in self.by_did:
            span = self.by_did[did]
            if span.layer is not layer:
                raise self.error(f"disambiguation id [{did}] is used by {layer.type_name} "
                                 f"and by {span.layer.type_name} (line {span.line}); an id "
                                 "names one annotation", number)
            if unit not in span.units:
                span.units.append(unit)
        else:
            span = _SpanBuild(layer, [unit], did, number)
            self.spans.append(span)
            if did is not None:
                self.by_did[did] = span
        stack.append(span)
        return span

    def span_cells(self, unit: _Unit, li: int, layer: _Layer, cells: list[str],
                   number: int) -> None:
        for column, cell in zip(layer.columns, cells, strict=True):
            if cell == "_":
                continue
            for i, raw in enumerate(split_unescaped(cell, "|")):
                if column.kind == "target":
                    self.span_of(unit, li, layer, i, None, number).targets[column.feature] = raw
                    continue
                value, suffix = _suffix(raw)
                span = self.span_of(unit, li, layer, i, self.did(suffix, number), number)
                if column.kind == "primitive":
                    span.features[column.feature] = None if value == "*" else \
                        unescape_value(value)
                elif column.kind == "role":
                    span.roles[column.feature] = value

    def relation_cells(self, unit: _Unit, li: int, layer: _Layer, cells: list[str],
                       number: int) -> None:
        stack = unit.annotations.setdefault(li, [])
        for column, cell in zip(layer.columns, cells, strict=True):
            if cell == "_":
                continue
            for i, raw in enumerate(split_unescaped(cell, "|")):
                if i < len(stack):
                    rel = stack[i]
                    assert isinstance(rel, _RelationBuild)
                else:
                    rel = _RelationBuild(layer, unit, number)
                    stack.append(rel)
                    self.relations.append(rel)
                if column.kind == "source":
                    value, suffix = _suffix(raw)
                    src = tgt = 0
                    if suffix is not None:
                        ids = suffix.split("_")
                        if len(ids) != 2 or not all(x.isdigit() and x.isascii() and len(x) < 10
                                                    for x in ids):
                            raise self.error(f"relation ends [{suffix[:20]}] are not "
                                             "[SOURCE_TARGET] disambiguation ids", number)
                        src, tgt = int(ids[0]), int(ids[1])
                    rel.source = (value, src, tgt)
                elif column.kind == "primitive":
                    rel.features[column.feature] = None if raw == "*" else unescape_value(raw)

    def chain_cells(self, unit: _Unit, li: int, layer: _Layer, cells: list[str],
                    number: int) -> None:
        stack = unit.annotations.setdefault(li, [])
        by_kind = {c.kind: cell for c, cell in zip(layer.columns, cells, strict=True)}
        link_cell = by_kind.get("chain-link", "_")
        if link_cell != "_":
            for i, raw in enumerate(split_unescaped(link_cell, "|")):
                m = _LINK.match(raw)
                if m is None or _escaped(raw, m.start(2) - 2):
                    raise self.error(f"chain link {raw[:40]!r} is not RELATION->CHAIN-LINK",
                                     number)
                key = (id(layer), int(m.group(2)), int(m.group(3)))
                link = self.links.get(key)
                if link is None:
                    link = _LinkBuild(layer, key[1], key[2], [unit], number)
                    self.links[key] = link
                elif unit not in link.units:
                    link.units.append(unit)
                link.relation = None if m.group(1) == "*" else unescape_value(m.group(1))
                if i >= len(stack):
                    stack.append(link)
        type_cell = by_kind.get("chain-type", "_")
        if type_cell != "_":
            for i, raw in enumerate(split_unescaped(type_cell, "|")):
                value, suffix = _suffix(raw)
                if i >= len(stack):
                    self.tally.add("skipped", "chain types without a chain link beside them "
                                   "(referenceType given, referenceRelation '_')", number)
                    continue
                here = stack[i]
                assert isinstance(here, _LinkBuild)
                if suffix is not None and suffix != str(here.chain):
                    self.tally.add("mismatch", "chain ids of referenceType ([C]) that differ "
                                   "from the chain of the link (C-L); the link's is used",
                                   number)
                here.type = None if value == "*" else unescape_value(value)

    # -- the document ---------------------------------------------------------------------

    def document_of(self) -> AnnotatedDocument:
        text = "".join(self.text_parts)
        if text.endswith("\n"):
            text = text[:-1]
        units = list(self.units.values())
        checks = [OffsetCheck(u.begin, u.end, u.text, u.line,
                              f"{'sub-token' if u.sub else 'token'} {u.id}") for u in units]
        _, found = resolve_offsets(text, checks, path=self.path, document=self.document)
        where = {u.id: f for u, f in zip(units, found, strict=True)}
        tokens = tuple(where[u.id] or (0, 0) for u in self.main_units)
        spans: list[Span] = []
        used: set[str] = set()

        def unique(name: str) -> str:
            out, n = name, 1
            while out in used:
                n += 1
                out = f"{name}#{n}"
            used.add(out)
            return out

        def extent(of: list[_Unit]) -> tuple[int, int] | None:
            parts = [where[u.id] for u in of if where[u.id] is not None]
            if not parts:
                return None
            return (min(p[0] for p in parts if p is not None),
                    max(p[1] for p in parts if p is not None))

        for sb in self.spans:
            ext = extent(sb.units)
            if ext is None:
                self.tally.add("skipped", "spans on tokens outside the text", sb.line)
                continue
            sb.id = unique(f"{sb.layer.name}:{sb.units[0].id}"
                           + ("" if sb.did is None else f"[{sb.did}]"))
            label_feature = sb.layer.label_feature
            spans.append(Span(sb.id, ext[0], ext[1], sb.layer.name,
                              sb.features.get(label_feature) if label_feature else None,
                              tuple((k, v) for k, v in sb.features.items()
                                    if k != label_feature and v is not None),
                              line=sb.line))
        chains: list[Chain] = []
        by_chain: dict[tuple[int, int], list[_LinkBuild]] = {}
        for link in self.links.values():
            by_chain.setdefault((id(link.layer), link.chain), []).append(link)
        for links in by_chain.values():
            links.sort(key=lambda k: k.element)
            ids = []
            for link in links:
                ext = extent(link.units)
                if ext is None:
                    self.tally.add("skipped", "chain links on tokens outside the text",
                                   link.line)
                    continue
                link.id = unique(f"{link.layer.name}:{link.chain}-{link.element}")
                spans.append(Span(link.id, ext[0], ext[1], link.layer.name, link.type,
                                  (() if link.relation is None else
                                   (("referenceRelation", link.relation),)), line=link.line))
                ids.append(link.id)
            layer = links[0].layer
            chain_layer = _short(layer.type_name)
            chain_layer = (chain_layer[:-4] if chain_layer.endswith("Link") else
                           chain_layer) + "Chain"
            if ids:
                chains.append(Chain(f"{chain_layer}:{links[0].chain}", chain_layer,
                                    tuple(ids), line=min(k.line for k in links)))
        token_spans: dict[str, Span] = {}
        relations = self.resolve_relations(where, token_spans, unique)
        relations += self.resolve_slots(where, token_spans, unique)
        spans.extend(token_spans.values())
        self.tally.report()
        return AnnotatedDocument(self.document, self.annotator, text, tokens,
                                 tuple(self.sentences), tuple(spans), tuple(relations),
                                 tuple(chains), path=self.path, line=1, tool=self.tool)

    def token_span(self, unit: _Unit, where: dict[str, tuple[int, int] | None],
                   token_spans: dict[str, Span], unique: Callable[[str], str]) -> str | None:
        if unit.id not in token_spans:
            ext = where[unit.id]
            if ext is None:
                return None
            token_spans[unit.id] = Span(unique(f"{TOKEN_LAYER}:{unit.id}"), ext[0], ext[1],
                                        TOKEN_LAYER, None, line=unit.line)
        return token_spans[unit.id].id

    def end_of(self, unit_id: str, did: int, type_name: str,
               where: dict[str, tuple[int, int] | None], token_spans: dict[str, Span],
               unique: Callable[[str], str]) -> str | None:
        """The id of the span a relation end or a slot names, None when it is not there."""
        if did > 0:
            span = self.by_did.get(did)
            return span.id or None if span is not None else None
        unit = self.units.get(unit_id)
        if unit is None:
            return None
        if type_name == TOKEN_TYPE:
            return self.token_span(unit, where, token_spans, unique)
        for li, layer in enumerate(self.layers):
            if layer.kind == "span" and (layer.type_name == type_name or type_name == UNTYPED):
                stack = unit.annotations.get(li)
                if stack:
                    first = stack[0]
                    assert isinstance(first, _SpanBuild)
                    return first.id or None
        return None

    def resolve_relations(self, where: dict[str, tuple[int, int] | None],
                          token_spans: dict[str, Span], unique: Callable[[str], str]
                          ) -> list[Relation]:
        out = []
        for rel in self.relations:
            if rel.source is None:
                self.tally.add("skipped", "relations without their source column (BT_...: "
                               "'_' where the relation has feature values)", rel.line)
                continue
            attach = TOKEN_TYPE if rel.layer.type_name == DEPENDENCY else \
                rel.layer.attach or ""
            source = self.end_of(rel.source[0], rel.source[1], attach, where, token_spans,
                                 unique)
            target = self.end_of(rel.unit.id, rel.source[2], attach, where, token_spans,
                                 unique)
            if source is None or target is None:
                self.tally.add("skipped", "relations whose source or target span is not in "
                               "the file", rel.line)
                continue
            label_feature = rel.layer.label_feature
            out.append(Relation(source, target, rel.layer.name,
                                rel.features.get(label_feature) if label_feature else None,
                                rel.line,
                                features=tuple((k, v) for k, v in rel.features.items()
                                               if k != label_feature and v is not None)))
        return out

    def resolve_slots(self, where: dict[str, tuple[int, int] | None],
                      token_spans: dict[str, Span], unique: Callable[[str], str]) -> list[Relation]:
        out = []
        for sb in self.spans:
            if not sb.id:
                continue
            for col in sb.layer.columns:
                if col.kind != "target":
                    continue
                raw_roles = sb.roles.get(col.feature, "_")
                raw_targets = sb.targets.get(col.feature, "*")
                roles = [] if raw_roles == "_" else split_unescaped(raw_roles, ";")
                targets = [] if raw_targets == "*" else split_unescaped(raw_targets, ";")
                if len(roles) != len(targets):
                    self.tally.add("skipped", "slots whose roles and targets differ in "
                                   "number (read pairwise, the extra ones left out)", sb.line)
                for role, target in zip(roles, targets, strict=False):
                    if target in ("*", "_"):
                        continue
                    tid, suffix = _suffix(target)
                    did = 0 if suffix is None else self.did(suffix, sb.line) or 0
                    end = self.end_of(tid, did, col.target_type, where, token_spans, unique)
                    if end is None:
                        self.tally.add("skipped", "slots whose target span is not in the file",
                                       sb.line)
                        continue
                    out.append(Relation(sb.id, end, f"{sb.layer.name}:{col.feature}",
                                        None if role == "*" else unescape_value(role),
                                        sb.line))
        return out


# ------------------------------------------------------------------------------ entry points

def parse_webanno_tsv(text: str, *, path: str | os.PathLike[str], document: str,
                      annotator: str, tool: str = TOOL) -> AnnotatedDocument:
    """One WebAnno TSV 3.x text as an annotated document (see the module's description).

    Parameters
    ----------
    text : str
        The file's text.
    path : str or os.PathLike
        Where it comes from (for messages; ``ZIP!member`` inside a ZIP).
    document, annotator : str
        The document's and the annotator's names.
    tool : str, default="webanno-tsv"
        The reader named in :attr:`~clusteragree.exports.model.AnnotatedDocument.tool`.

    Returns
    -------
    AnnotatedDocument

    Raises
    ------
    InputError
        A malformed file, with its line; WebAnno TSV 1 and 2, with how to export TSV 3.

    Examples
    --------
    >>> tsv = ("#FORMAT=WebAnno TSV 3.3\\n"
    ...        "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value\\n\\n\\n"
    ...        "#Text=Ms. Haag plays .\\n"
    ...        "1-1\\t0-3\\tMs.\\tPER[1]\\t\\n1-2\\t4-8\\tHaag\\tPER[1]\\t\\n"
    ...        "1-3\\t9-14\\tplays\\t_\\t\\n1-4\\t15-16\\t.\\t_\\t\\n")
    >>> doc = parse_webanno_tsv(tsv, path="d.tsv", document="d", annotator="ann")
    >>> [(s.layer, s.label, doc.covered(s)) for s in doc.spans]
    [('NamedEntity', 'PER', 'Ms. Haag')]
    """
    name = os.fspath(path)
    return _Reader(name, document, annotator, tool).read(text)


def read_webanno_tsv_bytes(raw: bytes, *, path: str | os.PathLike[str], document: str,
                           annotator: str, encoding: str | None = None,
                           tool: str = TOOL) -> AnnotatedDocument:
    """:func:`parse_webanno_tsv` of bytes (UTF-8 unless ``encoding`` is named): the project
    export reads its members with it. UTF-8 bytes go to the fast path as bytes (no decoded
    copy of the whole file); the general path decodes them when it reads."""
    name = os.fspath(path)
    if encoding is not None:  # the fast path on the decoded text, else the general path
        return _Reader(name, document, annotator, tool).read(decode(raw, path,
                                                                    encoding=encoding))
    if _records.FAST:
        doc = read_fast(_Reader(name, document, annotator, tool),
                        raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw)
        if doc is not None:
            return doc
    return _Reader(name, document, annotator, tool).read_general(decode(raw, path))


def read_webanno_tsv(path: str | os.PathLike[str], *, encoding: str | None = None,
                     annotator: str | None = None, document: str | None = None) -> Export:
    """Read one WebAnno TSV 3.x file (INCEpTION's or WebAnno's export of one annotator's
    document).

    Parameters
    ----------
    path : str or os.PathLike
        The ``.tsv`` file.
    encoding : str, optional
        Its encoding (TSV files are UTF-8; a byte-order mark is honoured).
    annotator : str, optional
        The annotator's name (default: the file's stem; INCEpTION names a user's file
        ``USER.tsv`` in a project export).
    document : str, optional
        The document's name (default: the file's stem).

    Returns
    -------
    Export
        One document.

    References
    ----------
    INCEpTION user guide, "WebAnno TSV 3.3 File format". docs/formats.md.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "kafka.tsv").write_text(
    ...     "#FORMAT=WebAnno TSV 3.3\\n#T_CH=de.tudarmstadt.ukp.dkpro.core.api.coref.type."
    ...     "CoreferenceLink|referenceType|referenceRelation\\n\\n\\n#Text=K. sah ihn .\\n"
    ...     "1-1\\t0-2\\tK.\\tnam[1]\\tana->1-1\\t\\n1-2\\t3-6\\tsah\\t_\\t_\\t\\n"
    ...     "1-3\\t7-10\\tihn\\tpro[1]\\t*->1-2\\t\\n1-4\\t11-12\\t.\\t_\\t_\\t\\n",
    ...     encoding="utf-8")
    >>> doc = read_webanno_tsv(folder / "kafka.tsv").documents[0]
    >>> doc.annotator, [[doc.covered(s) for s in doc.spans if s.id in c.spans]
    ...                 for c in doc.chains]
    ('kafka', [['K.', 'ihn']])
    """
    p = Path(path)
    raw = read_bytes(p)
    doc = read_webanno_tsv_bytes(raw, path=os.fspath(path), encoding=encoding,
                                 document=p.stem if document is None else document,
                                 annotator=p.stem if annotator is None else annotator)
    return Export((doc,), os.fspath(path), TOOL)


def sniff_webanno_tsv(path: Path, head: bytes) -> bool:
    """Whether ``head`` starts a WebAnno TSV file: ``#FORMAT=WebAnno TSV`` on its first line
    (or an old TSV 1/2 header, which the reader then refuses with the reason)."""
    try:
        start = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
        if start.startswith(b"#FORMAT=WebAnno TSV"):
            return True
        first = start.split(b"\n", 1)[0].decode("utf-8", "replace")
        return bool(_OLD_HEADER.match(first)) and (b"\n#text=" in start or
                                                   b"\n#id=" in start)
    except Exception:  # a recogniser never raises
        return False
