"""The fast path of the WebAnno TSV 3 reader: a file of the common shape read in one lean pass.

:func:`read_fast` reads a file whose header declares span layers (of primitive features, or of
none) and chain layers only, and whose body holds sentences of ``#Text=`` lines and token lines
``S-T<TAB>begin-end<TAB>token<TAB>cells`` without sub-tokens, backslashes, unknown header
lines, or anything the general path (:class:`clusteragree.exports.webanno._Reader`) would
notice, repair or refuse. It gives the document the general path gives, value for value, or
None as soon as the file leaves that shape (before anything is said in the warnings ledger):
the general path then reads the file from its start, and gives its own values, notices and
errors. tests/test_webanno_fast.py compares both paths on the fixtures, INCEpTION's suite and
random files.

What makes it fast: a token is a few entries of parallel lists (no object per token); a span
on one token without a disambiguation id (a POS tag, most named entities) is made whole from
its row, without the per-span dictionary of features the general path fills; the offsets of
the whole document are checked in one go (code points, else UTF-16 code units with one
``searchsorted`` over the characters outside the BMP); spans are made through their slots
(:func:`~clusteragree.exports.model.new_span`) and their ids need no uniqueness set unless
two spans without id share a token and a layer.

References
----------
INCEpTION user guide, "WebAnno TSV 3.3 File format". docs/formats.md, "How the readers are
fast".
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import numpy as np

from ._webanno_escapes import _escaped, _suffix, split_unescaped, unescape_text, unescape_value
from .model import AnnotatedDocument, Chain, Span, new_span
from .offsets import UNITS, OffsetCheck, _positions, resolve_offsets, unit_notice

if TYPE_CHECKING:
    from .webanno import _Reader

__all__ = ["read_fast"]

#: ``S-T<TAB>begin-end<TAB>`` at the start of a token line (no sub-token).
_ROW = re.compile(r"([0-9]{1,9}-[0-9]{1,9})\t([0-9]{1,12})-([0-9]{1,12})\t")
_LINK = re.compile(r"(.*)->([0-9]{1,9})-([0-9]{1,9})\Z", re.S)
_NON_BMP = re.compile("[\U00010000-\U0010FFFF]")
#: Lines split a block of about this many characters at a time.
_BLOCK = 1 << 20


class _Abandon(Exception):
    """The file leaves the shape of the fast path: the general path reads it."""


def _lines(text: str) -> Any:
    """``(number, line)`` as :func:`clusteragree.inputs.iter_lines` gives them, split a block
    at a time."""
    number, start, size = 0, 0, len(text)
    while start < size:
        stop = text.find("\n", start + _BLOCK)
        stop = size if stop < 0 else stop + 1
        block = text[start:stop].split("\n")
        if stop == size and not text.endswith("\n"):
            pass
        else:
            block.pop()  # the empty piece after the block's last line break
        if text.find("\r", start, stop) >= 0:
            block = [b[:-1] if b.endswith("\r") else b for b in block]
        for line in block:
            number += 1
            yield number, line
        start = stop


def _did(raw: str) -> int:
    if not raw.isdigit() or not raw.isascii() or len(raw) > 9:
        raise _Abandon  # the general path refuses it
    return int(raw)


def _split_suffix(raw: str) -> tuple[str, int | None]:
    """``V[N]`` as ``(V, N)``, as the general path reads it."""
    if not raw.endswith("]"):
        return raw, None
    if "\\" in raw:
        value, suffix = _suffix(raw)
        return value, None if suffix is None else _did(suffix)
    i = raw.rfind("[")
    if i < 0 or "]" in raw[i + 1:-1]:
        return raw, None
    return raw[:i], _did(raw[i + 1:-1])


def read_fast(r: _Reader, text: str) -> AnnotatedDocument | None:
    """The document of ``text`` read by ``r`` (a fresh reader), or None when the general path
    must read it (see the module's description)."""
    try:
        return _read(r, text)
    except _Abandon:
        return None


def _read(r: _Reader, text: str) -> AnnotatedDocument:
    from .webanno import InputError

    lines = _lines(text)
    number, line = next(lines, (1, ""))
    try:
        r.format_line(number, line)
    except InputError:
        raise _Abandon from None
    # the header, as the general path reads it
    first: tuple[int, str] | None = None
    for number, line in lines:
        if line.startswith("#T_"):
            try:
                r.layer_line(number, line)
            except InputError:
                raise _Abandon from None
            continue
        first = (number, line)
        break
    r.name_layers()
    plan_spans: list[tuple[int, int, str, list[tuple[int, str | None, bool]]]] = []
    plan_chains: list[tuple[int, int, int | None, int | None]] = []
    col = 3
    for li, layer in enumerate(r.layers):
        kinds = [c.kind for c in layer.columns]
        if layer.kind == "span":
            if any(k not in ("primitive", "placeholder") for k in kinds):
                raise _Abandon
            names = [c.feature for c in layer.columns if c.kind == "primitive"]
            if len(set(names)) != len(names):
                raise _Abandon
            lf = layer.label_feature
            cols = [(col + j, c.feature if c.kind == "primitive" else None, c.feature == lf)
                    for j, c in enumerate(layer.columns)]
            plan_spans.append((li, len(plan_spans), layer.name, cols))
        elif layer.kind == "chain":
            link = max((j for j, k in enumerate(kinds) if k == "chain-link"), default=None)
            kind = max((j for j, k in enumerate(kinds) if k == "chain-type"), default=None)
            plan_chains.append((li, col, None if link is None else col + link,
                                None if kind is None else col + kind))
        else:
            raise _Abandon
        col += len(layer.columns)
    ncols = 3 + r.ncols
    # ids are unique by construction unless a layer's name holds a colon (or two spans
    # without id share a token and a layer: found below)
    collide = any(":" in layer.name for layer in r.layers)
    minor = r.minor
    # tokens: parallel lists
    uids: list[str] = []
    begins: list[int] = []
    ends: list[int] = []
    covered: list[str] = []
    lines_of: list[int] = []
    seen_ids: set[str] = set()
    # spans made whole from one row: (layer slot, unit, label, features, line)
    # spans that may grow: [layer slot, units, did, line, features dict]
    order: list[Any] = []  # every span in the order the general path makes them
    by_did: dict[int, list[Any]] = {}
    links: dict[tuple[int, int, int], list[Any]] = {}  # [layer, chain, element, units, line,
    #                                                    type, relation]
    sentences = r.sentences
    state = "between"
    texts: list[str] = []
    sentence_first = 0
    if first is None:
        state = "header"
        rest: Any = ()
    else:
        number, line = first
        if line.strip() and not line.startswith(("#Text=", "#Sentence.id=")):
            raise _Abandon
        rest = _chain_one(first, lines)
    for number, line in rest:
        if not line or line.isspace():
            if state == "tokens":
                sentences.append((sentence_first, len(uids)))
            elif state == "sentence":
                raise _Abandon
            state = "between"
            continue
        if state != "tokens" and line[0] == "#":
            if state == "between":
                texts = []
                state = "sentence"
            if line.startswith("#Text="):
                texts.append(unescape_text(line[6:], minor))
            elif not line.startswith("#Sentence.id="):
                raise _Abandon
            continue
        if state == "between" or (state == "sentence" and not texts):
            raise _Abandon
        m = _ROW.match(line)
        if m is None:
            raise _Abandon
        fields = line.split("\t")
        if (len(fields) != ncols + 1 or fields[ncols]) and \
                (len(fields) < ncols or any(fields[ncols:])):
            raise _Abandon
        uid = m.group(1)
        b, e = int(m.group(2)), int(m.group(3))
        if e < b or uid in seen_ids:
            raise _Abandon
        seen_ids.add(uid)
        unit = len(uids)
        if state == "sentence":
            try:
                r.start_sentence(texts, b, number)
            except InputError:
                raise _Abandon from None
            sentence_first = unit
        state = "tokens"
        uids.append(uid)
        begins.append(b)
        ends.append(e)
        covered.append(fields[2])
        lines_of.append(number)
        for _, slot, _, cols in plan_spans:
            simple = True
            empty = True
            for j, _, _ in cols:
                cell = fields[j]
                if cell != "_":
                    empty = False
                    if "|" in cell or "[" in cell or "\\" in cell:
                        simple = False
                        break
            if empty:
                continue
            if simple:  # one span on this token, without id: made whole
                label = None
                feats: list[tuple[str, str]] = []
                for j, feature, is_label in cols:
                    cell = fields[j]
                    if cell == "_" or cell == "*" or feature is None:
                        continue
                    if is_label:
                        label = cell
                    else:
                        feats.append((feature, cell))
                order.append((slot, unit, label, tuple(feats), number))
                continue
            stack: list[list[Any]] = []
            fresh = 0
            for j, feature, _ in cols:
                cell = fields[j]
                if cell == "_":
                    continue
                for i, raw in enumerate(cell.split("|") if "\\" not in cell else
                                        split_unescaped(cell, "|")):
                    value, did = _split_suffix(raw)
                    if i < len(stack):
                        span = stack[i]
                    elif did is not None and did in by_did:
                        span = by_did[did]
                        if span[0] != slot:
                            raise _Abandon  # one id for two layers: refused
                        if span[1][-1] != unit:
                            span[1].append(unit)
                        stack.append(span)
                    else:
                        span = [slot, [unit], did, number, {}]
                        order.append(span)
                        if did is not None:
                            by_did[did] = span
                        else:
                            fresh += 1
                        stack.append(span)
                    if feature is not None:
                        span[4][feature] = None if value == "*" else unescape_value(value)
            if fresh > 1:
                collide = True
        for li, _, link_at, type_at in plan_chains:
            link_cell = "_" if link_at is None else fields[link_at]
            type_cell = "_" if type_at is None else fields[type_at]
            if link_cell == "_":
                if type_cell != "_":
                    raise _Abandon  # a type without a link: noticed
                continue
            here: list[list[Any]] = []
            for raw in split_unescaped(link_cell, "|"):
                lm = _LINK.match(raw)
                if lm is None or _escaped(raw, lm.start(2) - 2):
                    raise _Abandon
                key = (li, int(lm.group(2)), int(lm.group(3)))
                lk = links.get(key)
                if lk is None:
                    lk = [li, key[1], key[2], [unit], number, None, None]
                    links[key] = lk
                elif lk[3][-1] != unit:
                    lk[3].append(unit)
                lk[6] = None if lm.group(1) == "*" else unescape_value(lm.group(1))
                here.append(lk)
            if type_cell != "_":
                for i, raw in enumerate(split_unescaped(type_cell, "|")):
                    value, chain = _suffix(raw)
                    if i >= len(here) or (chain is not None and chain != str(here[i][1])):
                        raise _Abandon  # noticed by the general path
                    here[i][5] = None if value == "*" else unescape_value(value)
    if state == "header":
        pass
    elif state == "tokens":
        sentences.append((sentence_first, len(uids)))
    elif state == "sentence":
        raise _Abandon
    return _document(r, uids, begins, ends, covered, lines_of, plan_spans, order, links,
                     collide)


def _chain_one(first: tuple[int, str], rest: Any) -> Any:
    yield first
    yield from rest


def _offsets(r: _Reader, text: str, uids: list[str], begins: list[int], ends: list[int],
             covered: list[str], lines_of: list[int]) -> list[tuple[int, int] | None]:
    """Every token's code-point offsets, as :func:`resolve_offsets` finds them (and says)."""
    size = len(text)
    if (not ends or max(ends) <= size) and \
            [text[b:e] for b, e in zip(begins, ends, strict=True)] == covered:
        return list(zip(begins, ends, strict=True))
    if not text.isascii() and _NON_BMP.search(text) is not None:
        pairs = np.asarray(_positions(text).pairs(), dtype=np.int64)
        b16 = np.asarray(begins, dtype=np.int64)
        e16 = np.asarray(ends, dtype=np.int64)
        kb = np.searchsorted(pairs, b16, side="right")
        ke = np.searchsorted(pairs, e16, side="right")
        padded = np.append(pairs, -2)  # no offset is -3
        between = (padded[kb] - 1 == b16) | (padded[ke] - 1 == e16)
        b_cp, e_cp = b16 - kb, e16 - ke
        if not between.any() and (len(e_cp) == 0 or int(e_cp.max()) <= size):
            found = list(zip(b_cp.tolist(), e_cp.tolist(), strict=True))
            if [text[b:e] for b, e in found] == covered:
                unit_notice(UNITS[1], path=r.path, document=r.document)
                return found  # type: ignore[return-value]
    checks = [OffsetCheck(b, e, c, n, f"token {u}") for u, b, e, c, n in
              zip(uids, begins, ends, covered, lines_of, strict=True)]
    return resolve_offsets(text, checks, path=r.path, document=r.document)[1]


def _document(r: _Reader, uids: list[str], begins: list[int], ends: list[int],
              covered: list[str], lines_of: list[int],
              plan_spans: list[tuple[int, int, str, list[tuple[int, str | None, bool]]]],
              order: list[Any], links: dict[tuple[int, int, int], list[Any]],
              collide: bool) -> AnnotatedDocument:
    from .webanno import _short

    text = "".join(r.text_parts)
    if text.endswith("\n"):
        text = text[:-1]
    found = _offsets(r, text, uids, begins, ends, covered, lines_of)
    tokens = tuple(f or (0, 0) for f in found)
    used: set[str] = set()

    def unique(name: str) -> str:
        if not collide:
            return name
        out, n = name, 1
        while out in used:
            n += 1
            out = f"{name}#{n}"
        used.add(out)
        return out

    def extent(of: list[int]) -> tuple[int, int] | None:
        parts = [found[u] for u in of if found[u] is not None]
        if not parts:
            return None
        return (min(p[0] for p in parts if p is not None),
                max(p[1] for p in parts if p is not None))

    names = [p[2] for p in plan_spans]
    label_features = [r.layers[p[0]].label_feature for p in plan_spans]
    spans: list[Span] = []
    add = spans.append
    for sp in order:
        if type(sp) is tuple:
            slot, unit, label, feats, line = sp
            ext = found[unit]
            if ext is None:
                r.tally.add("skipped", "spans on tokens outside the text", line)
                continue
            add(new_span(unique(f"{names[slot]}:{uids[unit]}"), ext[0], ext[1], names[slot],
                         label, feats, line=line))
            continue
        slot, units, did, line, features = sp
        ext = found[units[0]] if len(units) == 1 else extent(units)
        if ext is None:
            r.tally.add("skipped", "spans on tokens outside the text", line)
            continue
        lf = label_features[slot]
        add(new_span(unique(f"{names[slot]}:{uids[units[0]]}"
                            + ("" if did is None else f"[{did}]")),
                     ext[0], ext[1], names[slot], features.get(lf) if lf else None,
                     tuple((k, v) for k, v in features.items() if k != lf and v is not None),
                     line=line))
    chains: list[Chain] = []
    by_chain: dict[tuple[int, int], list[list[Any]]] = {}
    for link in links.values():
        by_chain.setdefault((link[0], link[1]), []).append(link)
    for group in by_chain.values():
        group.sort(key=lambda k: k[2])
        ids = []
        layer = r.layers[group[0][0]]
        for _, chain, element, units, line, kind, relation in group:
            ext = extent(units)
            if ext is None:
                r.tally.add("skipped", "chain links on tokens outside the text", line)
                continue
            link_id = unique(f"{layer.name}:{chain}-{element}")
            spans.append(Span(link_id, ext[0], ext[1], layer.name, kind,
                              (() if relation is None else (("referenceRelation", relation),)),
                              line=line))
            ids.append(link_id)
        chain_layer = _short(layer.type_name)
        chain_layer = (chain_layer[:-4] if chain_layer.endswith("Link") else
                       chain_layer) + "Chain"
        if ids:
            chains.append(Chain(f"{chain_layer}:{group[0][1]}", chain_layer, tuple(ids),
                                line=min(k[4] for k in group)))
    r.tally.report()
    return AnnotatedDocument(r.document, r.annotator, text, tokens, tuple(r.sentences),
                             tuple(spans), (), tuple(chains), path=r.path, line=1,
                             tool=r.tool)
