"""The fast path of the WebAnno TSV 3 reader: a file of the common shape read in a few passes
over whole columns.

:func:`read_fast` reads a file whose header declares span layers (of primitive features, or of
none) and chain layers only, and whose body holds sentences of ``#Text=`` (and
``#Sentence.id=``) lines and token lines ``S-T<TAB>begin-end<TAB>token<TAB>cells`` without
sub-tokens, separated by empty lines, with every token's offsets matching its text in one unit
and nothing the general path (:class:`clusteragree.exports.webanno._Reader`) would notice,
repair or refuse. It gives the document the general path gives, value for value, or None as
soon as the file leaves that shape (before anything is said in the warnings ledger): the
general path then reads the file from its start, and gives its own values, notices and errors.
tests/test_webanno_fast.py compares both paths on the fixtures, INCEpTION's suite and random
files.

What makes it fast:

* the sentences are found a sentence at a time (their ``#Text=`` lines are read as the general
  path reads them), their token lines kept as one block each;
* the token lines are split a chunk of about 65,000 at a time into columns (one ``split`` of
  the chunk, the columns sliced out of it), whose ids and offsets are checked with one regular
  expression each and converted in one go; the chunk is then dropped, so that memory holds the
  spans, not the file's fields;
* the offsets of a chunk are checked in one go (code points, else UTF-16 code units with one
  ``searchsorted`` over the characters outside the BMP), the unit decided for the whole file as
  :func:`~clusteragree.exports.offsets.resolve_offsets` decides it;
* a layer whose cells hold no stacked value (``|``), disambiguation id (``[N]``) or escape in a
  chunk makes one span per busy token from its columns, without the per-span dictionary of
  features the general path fills; labels and feature tuples are shared between the spans
  that have the same;
* spans are made through their slots (as :func:`~clusteragree.exports.model.new_span` makes
  them) and their ids need no set of the ids used: they are unique by construction (layer
  names hold neither ``:`` nor ``#``; spans without id stacked on one token are numbered as
  the general path numbers them).

References
----------
INCEpTION user guide, "WebAnno TSV 3.3 File format". docs/formats.md, "How the readers are
fast".
"""

from __future__ import annotations

import re
from itertools import repeat
from operator import eq
from typing import Any

import numpy as np

from ..errors import InputError
from ._webanno_escapes import _escaped, _suffix, split_unescaped, unescape_text, unescape_value
from .model import (
    AnnotatedDocument,
    Chain,
    Span,
    _new,
    _set_end,
    _set_features,
    _set_fragments,
    _set_id,
    _set_label,
    _set_layer,
    _set_line,
    _set_start,
    _set_text,
)
from .offsets import UNITS, _positions, unit_notice

#: The general path's reader of one file (:class:`clusteragree.exports.webanno._Reader`), whose
#: state and notices the fast path shares (named, not imported: that module imports this one).
_Reader = Any

__all__ = ["read_fast"]

#: ``S-T<TAB>begin-end<TAB>`` at the start of a token line (no sub-token).
_ROW = re.compile(r"([0-9]{1,9}-[0-9]{1,9})\t([0-9]{1,12})-([0-9]{1,12})\t")
_LINK = re.compile(r"(.*)->([0-9]{1,9})-([0-9]{1,9})\Z", re.S)
#: Token ids and offsets, one a line (no sub-token).
_IDS = re.compile(r"[0-9]{1,9}-[0-9]{1,9}(?:\n[0-9]{1,9}-[0-9]{1,9})*")
_OFFSET_LIST = re.compile(r"[0-9]{1,12}-[0-9]{1,12}(?:\n[0-9]{1,12}-[0-9]{1,12})*")
_NON_BMP = re.compile("[\U00010000-\U0010FFFF]")
#: Token lines split this many at a time.
CHUNK = 1 << 16


class _Abandon(Exception):
    """The file leaves the shape of the fast path: the general path reads it."""


def read_fast(r: _Reader, text: str) -> AnnotatedDocument | None:
    """The document of ``text`` read by ``r`` (a fresh reader), or None when the general path
    must read it (see the module's description).

    Examples
    --------
    >>> from clusteragree.exports.webanno import _Reader
    >>> tsv = ("#FORMAT=WebAnno TSV 3.3\\n#T_SP=webanno.custom.Span|value\\n\\n\\n"
    ...        "#Text=a b\\n1-1\\t0-1\\ta\\tX\\t\\n1-2\\t2-3\\tb\\t_\\t\\n")
    >>> [(s.id, s.label) for s in read_fast(_Reader("d.tsv", "d", "a", "t"), tsv).spans]
    [('Span:1-1', 'X')]
    >>> read_fast(_Reader("d.tsv", "d", "a", "t"), tsv.replace("1-2", "1-1.1")) is None
    True
    """
    try:
        return _read(r, text)
    except _Abandon:
        return None


def _line_at(text: str, pos: int) -> tuple[str, int]:
    """The line starting at ``pos`` and the position after its line break."""
    end = text.find("\n", pos)
    if end < 0:
        return text[pos:], len(text)
    return text[pos:end], end + 1


def _read(r: _Reader, text: str) -> AnnotatedDocument:
    if "\r" in text:  # a line's final CR is not part of it (clusteragree.inputs.iter_lines)
        text = text.replace("\r\n", "\n")
        if text.endswith("\r"):
            text = text[:-1]
    line, pos = _line_at(text, 0)
    try:
        r.format_line(1, line)
        number = 1
        while text.startswith("#T_", pos):
            line, pos = _line_at(text, pos)
            number += 1
            r.layer_line(number, line)
    except InputError:
        raise _Abandon from None
    r.name_layers()
    if any(":" in layer.name or "#" in layer.name for layer in r.layers):
        raise _Abandon  # span ids made unique by a set: the general path
    body = text if text.endswith("\n") else text + "\n"
    del text
    size = len(body)
    if pos < size:
        line = _line_at(body, pos)[0]
        if line.strip() and not line.startswith(("#Text=", "#Sentence.id=")):
            raise _Abandon
    while body.startswith("\n", pos):
        pos += 1
        number += 1
    # the sentences, a sentence at a time; their token lines as (start, end) in the body
    blocks: list[tuple[int, int]] = []
    firsts: list[int] = []  # the line of each block's first token
    sizes: list[int] = []  # the number of its token lines
    minor, rows = r.minor, 0
    while pos < size:
        texts = []
        while body.startswith("#", pos):
            line, pos = _line_at(body, pos)
            number += 1
            if line.startswith("#Text="):
                texts.append(unescape_text(line[6:], minor))
            elif not line.startswith("#Sentence.id="):
                raise _Abandon
        first = _ROW.match(body, pos)
        if not texts or first is None:
            raise _Abandon
        end = body.find("\n\n", pos)
        end = size if end < 0 else end + 1
        n = body.count("\n", pos, end)
        try:
            r.start_sentence(texts, int(first.group(2)), number + 1)
        except InputError:
            raise _Abandon from None
        r.sentences.append((rows, rows + n))
        blocks.append((pos, end))
        firsts.append(number + 1)
        sizes.append(n)
        rows += n
        number += n
        pos = end
        while body.startswith("\n", pos):
            pos += 1
            number += 1
    return _Document(r, body, blocks, firsts, sizes).read()


class _Document:
    """The token lines of a read body, chunk by chunk, made into the document."""

    def __init__(self, r: _Reader, body: str, blocks: list[tuple[int, int]],
                 firsts: list[int], sizes: list[int]) -> None:
        self.r, self.body, self.blocks, self.firsts, self.sizes = r, body, blocks, firsts, sizes
        self.uids: list[str] = []
        text = "".join(r.text_parts)
        self.text = text[:-1] if text.endswith("\n") else text
        self.nonbmp = not self.text.isascii() and _NON_BMP.search(self.text) is not None
        self.pairs = (np.asarray(_positions(self.text).pairs(), dtype=np.int64)
                      if self.nonbmp else None)
        self.cp_all, self.u16_all, self.differs = True, True, False
        self.last_id = (-1, -1)
        self.found: list[tuple[int, int]] = []
        self.lines_of: list[int] = []
        self.entries: list[Any] = []  # spans, and the spans that grow: [name, units, ...]
        self.by_did: dict[int, list[Any]] = {}
        self.links: dict[tuple[int, int, int], list[Any]] = {}
        self.labels: dict[str, str] = {}
        self.features: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}
        self.ncols = 3 + r.ncols

    def read(self) -> AnnotatedDocument:
        r = self.r
        at, count = 0, 0
        for k, size in enumerate(self.sizes):
            count += size
            if count >= CHUNK or k == len(self.sizes) - 1:
                self.chunk(at, k + 1)
                at, count = k + 1, 0
        del self.body
        if not self.cp_all:
            if not self.u16_all or self.differs:
                raise _Abandon  # the units are reckoned token by token: the general path
            unit_notice(UNITS[1], path=r.path, document=r.document)
        spans = [e if type(e) is Span else self.grown(e) for e in self.entries]
        del self.entries
        chains = self.chains(spans)
        r.tally.report()
        return AnnotatedDocument(r.document, r.annotator, self.text, tuple(self.found),
                                 tuple(r.sentences), tuple(spans), (), tuple(chains),
                                 path=r.path, line=1, tool=r.tool)

    # -- a chunk of token lines -------------------------------------------------------------

    def chunk(self, lo: int, hi: int) -> None:
        body, ncols = self.body, self.ncols
        start = len(self.found)
        for first, size in zip(self.firsts[lo:hi], self.sizes[lo:hi], strict=True):
            self.lines_of.extend(range(first, first + size))
        rows_text = "".join([body[s:e] for s, e in self.blocks[lo:hi]])
        cols = self.columns(rows_text, ncols)
        del rows_text
        ids = self.uids = cols[0]
        if _IDS.fullmatch("\n".join(ids)) is None or \
                _OFFSET_LIST.fullmatch("\n".join(cols[1])) is None:
            raise _Abandon  # sub-tokens, or ids and offsets the general path refuses
        numbers = np.asarray(list(map(int, "-".join(ids).split("-"))), dtype=np.int64)
        sid, tid = numbers[0::2], numbers[1::2]
        prev_s, prev_t = self.last_id
        if not (sid[0] > prev_s or (sid[0] == prev_s and tid[0] > prev_t)) or not bool(
                np.all((sid[1:] > sid[:-1]) | ((sid[1:] == sid[:-1]) & (tid[1:] > tid[:-1])))):
            raise _Abandon  # ids out of order (perhaps one given twice): the general path
        self.last_id = (int(sid[-1]), int(tid[-1]))
        offsets = list(map(int, "-".join(cols[1]).split("-")))
        begins, ends = offsets[0::2], offsets[1::2]
        del offsets, numbers
        if any(map(int.__gt__, begins, ends)):
            raise _Abandon
        self.offsets(begins, ends, cols[2])
        del begins, ends
        made: list[tuple[list[int], list[Any]]] = []
        chain_layers = []
        at, k = 3, len(self.r.layers)
        for li, layer in enumerate(self.r.layers):
            width = len(layer.columns)
            if layer.kind == "span":
                made.append(self.span_layer(li, cols[at:at + width], start, k))
            elif layer.kind == "chain":
                kinds = [c.kind for c in layer.columns]
                link = max((j for j, x in enumerate(kinds) if x == "chain-link"), default=None)
                kind = max((j for j, x in enumerate(kinds) if x == "chain-type"), default=None)
                chain_layers.append((li, None if link is None else cols[at + link],
                                     None if kind is None else cols[at + kind]))
            else:
                raise _Abandon
            at += width
        if chain_layers:
            self.chain_links(chain_layers, start)
        busy = [m for m in made if m[0]]
        if len(busy) > 1:  # layers interleaved as the rows have them
            keys = [key for m in busy for key in m[0]]
            every = [e for m in busy for e in m[1]]
            self.entries += [every[i] for i in sorted(range(len(keys)), key=keys.__getitem__)]
        elif busy:
            self.entries += busy[0][1]

    @staticmethod
    def columns(rows_text: str, ncols: int) -> list[Any]:
        """The fields of the token lines, a column each, checked as the general path checks
        them (the number of fields; the ids and offsets are checked by the caller)."""
        rows = rows_text.split("\n")
        rows.pop()
        n = len(rows)
        tabs = set(map(str.count, rows, repeat("\t")))
        if tabs == {ncols} or tabs == {ncols - 1}:
            width = ncols + 1 if tabs == {ncols} else ncols
            del rows
            flat = rows_text.replace("\n", "\t").split("\t")
            cols = [flat[j:n * width:width] for j in range(width)]
            del flat
            if width > ncols and any(cols[ncols]):
                raise _Abandon  # a field past the declared columns: refused
            return cols[:ncols]
        fields = [row.split("\t") for row in rows]
        del rows
        if any(len(f) < ncols or any(f[ncols:]) for f in fields):
            raise _Abandon  # refused by the general path
        return [[f[j] for f in fields] for j in range(ncols)]

    def offsets(self, begins: list[int], ends: list[int], covered: list[str]) -> None:
        """The code-point offsets of a chunk's tokens, in the unit the whole file will
        show (see :meth:`read`)."""
        text, size = self.text, len(self.text)
        cp_ok = max(ends) <= size and all(map(eq, map(text.__getitem__, map(slice, begins,
                                                                               ends)), covered))
        u16_ok = cp_ok
        b_list: list[int] = []
        e_list: list[int] = []
        if self.nonbmp:
            pairs = self.pairs
            assert pairs is not None
            b16, e16 = np.asarray(begins, dtype=np.int64), np.asarray(ends, dtype=np.int64)
            kb = np.searchsorted(pairs, b16, side="right")
            ke = np.searchsorted(pairs, e16, side="right")
            padded = np.append(pairs, -2)  # no offset is -3
            b_cp, e_cp = b16 - kb, e16 - ke
            u16_ok = not bool(((padded[kb] - 1 == b16) | (padded[ke] - 1 == e16)).any()) and \
                int(e_cp.max()) <= size
            if u16_ok:
                b_list, e_list = b_cp.tolist(), e_cp.tolist()
                u16_ok = all(map(eq, map(text.__getitem__, map(slice, b_list, e_list)),
                                 covered))
                if cp_ok and u16_ok and (b_list != begins or e_list != ends):
                    self.differs = True
        self.cp_all = self.cp_all and cp_ok
        self.u16_all = self.u16_all and u16_ok
        if cp_ok:
            self.found += zip(begins, ends, strict=True)
        elif u16_ok:
            self.found += zip(b_list, e_list, strict=True)
        else:
            raise _Abandon  # the units are reckoned token by token: the general path

    # -- span layers ------------------------------------------------------------------------

    def span_layer(self, li: int, cells: list[Any], start: int, k: int
                   ) -> tuple[list[int], list[Any]]:
        """The spans of one span layer in a chunk: ``(keys, entries)``, the key of a span
        ``row * k + li`` (the general path makes them row by row, layer by layer), an entry a
        span or, for one that may grow over later tokens, ``[name, units, did, line,
        features, label feature, id]``."""
        layer = self.r.layers[li]
        if any(c.kind not in ("primitive", "placeholder") for c in layer.columns):
            raise _Abandon
        features = [c.feature if c.kind == "primitive" else None for c in layer.columns]
        named = [f for f in features if f is not None]
        if len(set(named)) != len(named):
            raise _Abandon
        lf = layer.label_feature
        if len(cells) == 1:
            busy = [i for i, c in enumerate(cells[0]) if c != "_"]
        else:
            blank = ("_",) * len(cells)
            busy = [i for i, c in enumerate(zip(*cells, strict=True)) if c != blank]
        joined = "\t".join(map("\t".join, cells))
        if "|" not in joined and "[" not in joined and "\\" not in joined:
            return self.simple_layer(li, layer.name, features, lf, cells, busy, start, k)
        return self.stacked_layer(li, layer.name, features, lf, cells, busy, start, k)

    def simple_layer(self, li: int, name: str, features: list[str | None], lf: str | None,
                     cells: list[Any], busy: list[int], start: int, k: int
                     ) -> tuple[list[int], list[Any]]:
        """One span on each busy token, without id, made whole from its row."""
        label_at = next((j for j, f in enumerate(features) if f is not None and f == lf), None)
        others = [(j, f) for j, f in enumerate(features) if f is not None and f != lf]
        shared = self.labels
        labels: Any
        if label_at is None:
            labels = repeat(None)
        else:
            col = cells[label_at]
            labels = [None if (v := col[i]) == "_" or v == "*" else shared.setdefault(v, v)
                      for i in busy]
        cache = self.features
        feats: Any
        if not others:
            feats = repeat(())
        elif len(others) == 1:
            j, f = others[0]
            col = cells[j]
            feats = [() if (v := col[i]) == "_" or v == "*" else
                     (cache.get((f, v)) or cache.setdefault((f, v), ((f, v),))) for i in busy]
        else:
            feats = [tuple((f, v) for j, f in others if (v := cells[j][i]) != "_" and v != "*")
                     for i in busy]
        uids, found, lines_of = self.uids, self.found, self.lines_of
        ids = [uids[i] for i in busy]
        prefix = name + ":"
        out: list[Span] = []
        add = out.append
        for i, uid, label, fs in zip(busy, ids, labels, feats, strict=False):  # repeat()
            row = start + i
            where = found[row]
            span = _new(Span)
            _set_id(span, prefix + uid)
            _set_start(span, where[0])
            _set_end(span, where[1])
            _set_layer(span, name)
            _set_label(span, label)
            _set_features(span, fs)
            _set_fragments(span, ())
            _set_text(span, None)
            _set_line(span, lines_of[row])
            add(span)
        return [(start + i) * k + li for i in busy], out

    def stacked_layer(self, li: int, name: str, features: list[str | None], lf: str | None,
                      cells: list[Any], busy: list[int], start: int, k: int
                      ) -> tuple[list[int], list[Any]]:
        """The spans of a layer with stacked values or disambiguation ids, row by row as the
        general path makes them."""
        keys: list[int] = []
        entries: list[Any] = []
        by_did, uids, lines_of = self.by_did, self.uids, self.lines_of
        columns = list(enumerate(features))
        for i in busy:
            row = start + i
            stack: list[list[Any]] = []
            fresh = 0
            for j, feature in columns:
                cell = cells[j][i]
                if cell == "_":
                    continue
                if "|" in cell or "\\" in cell:
                    pairs = [_value_id(raw) for raw in (
                        cell.split("|") if "\\" not in cell else split_unescaped(cell, "|"))]
                else:  # one value, read here as _value_id reads it
                    value, did = cell, None
                    if cell[-1:] == "]":
                        at = cell.rfind("[")
                        if at >= 0:
                            digits = cell[at + 1:-1]
                            if digits.isdigit() and digits.isascii() and len(digits) < 10:
                                value, did = cell[:at], int(digits)
                            elif "]" not in digits:
                                raise _Abandon  # not a number: refused
                    if stack:  # the span of the row, made by an earlier column
                        if feature is not None:
                            stack[0][4][feature] = None if value == "*" else value
                        continue
                    pairs = [(value, did)]
                for n, (value, did) in enumerate(pairs):
                    if n < len(stack):
                        span = stack[n]
                    elif did is not None and did in by_did:
                        span = by_did[did]
                        if span[0] != name:
                            raise _Abandon  # one id for two layers: refused
                        if span[1][-1] != row:
                            span[1].append(row)
                        stack.append(span)
                    else:
                        if did is None:
                            fresh += 1
                            uid = f"{name}:{uids[i]}" + ("" if fresh == 1 else f"#{fresh}")
                        else:
                            uid = f"{name}:{uids[i]}[{did}]"
                        span = [name, [row], did, lines_of[row], {}, lf, uid]
                        keys.append(row * k + li)
                        entries.append(span)
                        if did is not None:
                            by_did[did] = span
                        stack.append(span)
                    if feature is not None:
                        span[4][feature] = None if value == "*" else unescape_value(value)
        return keys, entries

    def grown(self, e: list[Any]) -> Span:
        """The span of an entry of :meth:`stacked_layer`, now that every token is read."""
        name, units, _, line, features, lf, uid = e
        start, end = self.extent(units)
        span = _new(Span)
        _set_id(span, uid)
        _set_start(span, start)
        _set_end(span, end)
        _set_layer(span, name)
        _set_label(span, features.get(lf) if lf else None)
        _set_features(span, tuple((k, v) for k, v in features.items()
                                  if k != lf and v is not None))
        _set_fragments(span, ())
        _set_text(span, None)
        _set_line(span, line)
        return span

    def extent(self, units: list[int]) -> tuple[int, int]:
        found = self.found
        if len(units) == 1:
            return found[units[0]]
        return min(found[u][0] for u in units), max(found[u][1] for u in units)

    # -- chains -----------------------------------------------------------------------------

    def chain_links(self, layers: list[tuple[int, Any, Any]], start: int) -> None:
        """The chain links of a chunk, in the order the general path finds them: ``(layer,
        chain, element) -> [layer, chain, element, units, line, type, relation]``."""
        links, lines_of = self.links, self.lines_of
        busy: set[int] = set()
        for _, link_col, type_col in layers:
            for col in (link_col, type_col):
                if col is not None:
                    busy.update(i for i, c in enumerate(col) if c != "_")
        for i in sorted(busy):
            row = start + i
            for li, link_col, type_col in layers:
                link_cell = "_" if link_col is None else link_col[i]
                type_cell = "_" if type_col is None else type_col[i]
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
                        lk = [li, key[1], key[2], [row], lines_of[row], None, None]
                        links[key] = lk
                    elif lk[3][-1] != row:
                        lk[3].append(row)
                    lk[6] = None if lm.group(1) == "*" else unescape_value(lm.group(1))
                    here.append(lk)
                if type_cell != "_":
                    for n, raw in enumerate(split_unescaped(type_cell, "|")):
                        value, chain = _suffix(raw)
                        if n >= len(here) or (chain is not None and chain != str(here[n][1])):
                            raise _Abandon  # noticed by the general path
                        here[n][5] = None if value == "*" else unescape_value(value)

    def chains(self, spans: list[Span]) -> list[Chain]:
        """The links' spans added to ``spans``, and the chains, as the general path makes
        them."""
        out: list[Chain] = []
        by_chain: dict[tuple[int, int], list[list[Any]]] = {}
        for lk in self.links.values():
            by_chain.setdefault((lk[0], lk[1]), []).append(lk)
        for group in by_chain.values():
            group.sort(key=lambda x: x[2])
            ids = []
            layer = self.r.layers[group[0][0]]
            for _, chain, element, units, line, kind, relation in group:
                start, end = self.extent(units)
                link_id = f"{layer.name}:{chain}-{element}"
                spans.append(Span(link_id, start, end, layer.name, kind,
                                  (() if relation is None else
                                   (("referenceRelation", relation),)), line=line))
                ids.append(link_id)
            chain_layer = layer.type_name.rsplit(".", 1)[-1]  # (webanno._short)
            chain_layer = (chain_layer[:-4] if chain_layer.endswith("Link") else
                           chain_layer) + "Chain"
            out.append(Chain(f"{chain_layer}:{group[0][1]}", chain_layer, tuple(ids),
                             line=min(x[4] for x in group)))
        return out


def _did(raw: str) -> int:
    if not raw.isdigit() or not raw.isascii() or len(raw) > 9:
        raise _Abandon  # the general path refuses it
    return int(raw)


def _value_id(raw: str) -> tuple[str, int | None]:
    """``V[N]`` as ``(V, N)``, as the general path reads a cell's value."""
    if raw[-1:] != "]":
        return raw, None
    if "\\" in raw:
        value, suffix = _suffix(raw)
        return value, None if suffix is None else _did(suffix)
    at = raw.rfind("[")
    if at < 0 or "]" in raw[at + 1:-1]:
        return raw, None
    return raw[:at], _did(raw[at + 1:-1])
