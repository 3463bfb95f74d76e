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

* a UTF-8 file is read as bytes (no decoded copy of the whole file); the sentences are found a
  sentence at a time (their ``#Text=`` lines read as the general path reads them), their token
  lines kept as one block each;
* the token lines are read about 65,000 at a time as columns of bytes
  (:mod:`clusteragree.exports._tsv_columns`): the fields' bounds, the ids and offsets as
  numbers, each token's text compared with the document's text at its offsets (code points,
  else UTF-16 code units, the unit decided for the whole file as
  :func:`~clusteragree.exports.offsets.resolve_offsets` decides it);
* the span layers' cells are read as their values and ids ``[N]`` from the bytes of whole
  columns, and the spans made from rows of codes
  (:mod:`clusteragree.exports._webanno_layers`);
* the document keeps its spans and tokens as columns
  (:class:`~clusteragree.exports.columns.SpanColumns`,
  :class:`~clusteragree.exports.columns.PairColumns`), their ids made when asked for.

References
----------
INCEpTION user guide, "WebAnno TSV 3.3 File format". docs/formats.md, "How the readers are
fast".
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ..errors import InputError
from ._tsv_columns import Lines, covered_match, text_bytes
from ._webanno_escapes import _escaped, _suffix, split_unescaped, unescape_text, unescape_value
from ._webanno_layers import Abandon as _Abandon
from ._webanno_layers import SpanLayer, cell_bases
from .columns import PairColumns, SpanColumns
from .model import AnnotatedDocument, Chain
from .offsets import UNITS, _positions, unit_notice

#: The general path's reader of one file (:class:`clusteragree.exports.webanno._Reader`), whose
#: state and notices the fast path shares (named, not imported: that module imports this one).
_Reader = Any

__all__ = ["read_fast"]

#: ``S-T<TAB>begin-end<TAB>`` at the start of a token line (no sub-token).
_ROW = re.compile(rb"([0-9]{1,9}-[0-9]{1,9})\t([0-9]{1,12})-([0-9]{1,12})\t")
_LINK = re.compile(r"(.*)->([0-9]{1,9})-([0-9]{1,9})\Z", re.S)
_NON_BMP = re.compile("[\U00010000-\U0010FFFF]")
#: Token lines split this many at a time.
CHUNK = 1 << 16


def read_fast(r: _Reader, text: str | bytes) -> AnnotatedDocument | None:
    """The document of ``text`` (the file's text, or its UTF-8 bytes without a byte-order
    mark) read by ``r`` (a fresh reader), or None when the general path must read it (see the
    module's description). Bytes are read as bytes, without a decoded copy of the whole file;
    bytes that are not UTF-8 make it give up (the general path then says where).

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
        raw = text.encode() if isinstance(text, str) else text
        return _read(r, raw)
    except (_Abandon, UnicodeError):  # a lone surrogate, or bytes that are not UTF-8
        return None


def _line_at(text: bytes, pos: int) -> tuple[bytes, int]:
    """The line starting at ``pos`` and the position after its line break."""
    end = text.find(b"\n", pos)
    if end < 0:
        return text[pos:], len(text)
    return text[pos:end], end + 1


def _read(r: _Reader, text: bytes) -> AnnotatedDocument:
    if b"\r" in text:  # a line's final CR is not part of it (clusteragree.inputs.iter_lines)
        text = text.replace(b"\r\n", b"\n")
        if text.endswith(b"\r"):
            text = text[:-1]
    line, pos = _line_at(text, 0)
    try:
        r.format_line(1, line.decode())
        number = 1
        while text.startswith(b"#T_", pos):
            line, pos = _line_at(text, pos)
            number += 1
            r.layer_line(number, line.decode())
    except InputError:
        raise _Abandon from None
    r.name_layers()
    if any(":" in layer.name or "#" in layer.name for layer in r.layers):
        raise _Abandon  # span ids made unique by a set: the general path
    body = text if text.endswith(b"\n") else text + b"\n"
    del text
    size = len(body)
    if pos < size:
        line = _line_at(body, pos)[0]
        if line.strip() and not line.startswith((b"#Text=", b"#Sentence.id=")):
            raise _Abandon
    while body.startswith(b"\n", pos):
        pos += 1
        number += 1
    # the sentences, a sentence at a time; their token lines as (start, end) in the body
    blocks: list[tuple[int, int]] = []
    firsts: list[int] = []  # the line of each block's first token
    sizes: list[int] = []  # the number of its token lines
    minor, rows = r.minor, 0
    find, count, starts, match = body.find, body.count, body.startswith, _ROW.match
    start_sentence, sentences = r.start_sentence, r.sentences
    while pos < size:
        texts = []
        while starts(b"#", pos):  # (the body ends with a line feed: every line has one)
            end = find(b"\n", pos)
            number += 1
            if starts(b"#Text=", pos):
                texts.append(unescape_text(body[pos + 6:end].decode(), minor))
            elif starts(b"#Sentence.id=", pos):
                body[pos:end].decode()  # (every byte of the file is read as UTF-8)
            else:
                raise _Abandon
            pos = end + 1
        first = match(body, pos)
        if not texts or first is None:
            raise _Abandon
        end = find(b"\n\n", pos)
        end = size if end < 0 else end + 1
        n = count(b"\n", pos, end)
        try:
            start_sentence(texts, int(first.group(2)), number + 1)
        except InputError:
            raise _Abandon from None
        sentences.append((rows, rows + n))
        blocks.append((pos, end))
        firsts.append(number + 1)
        sizes.append(n)
        rows += n
        number += n
        pos = end
        while starts(b"\n", pos):
            pos += 1
            number += 1
    return _Document(r, body, blocks, firsts, sizes).read()


class _Document:
    """The token lines of a read body, chunk by chunk, made into the document."""

    def __init__(self, r: _Reader, body: bytes, blocks: list[tuple[int, int]],
                 firsts: list[int], sizes: list[int]) -> None:
        self.r, self.body, self.blocks, self.firsts, self.sizes = r, body, blocks, firsts, sizes
        text = "".join(r.text_parts)
        self.text = text[:-1] if text.endswith("\n") else text
        self.nonbmp = not self.text.isascii() and _NON_BMP.search(self.text) is not None
        self.pairs = (np.asarray(_positions(self.text).pairs(), dtype=np.int64)
                      if self.nonbmp else None)
        try:
            self.text_bytes = text_bytes(self.text)
        except UnicodeEncodeError:  # a lone surrogate: the general path
            raise _Abandon from None
        self.cp_all, self.u16_all, self.differs = True, True, False
        self.last_id = (-1, -1)
        self.rows = 0
        # the tokens' offsets (code points), ids and lines, a chunk each
        self.begins: list[Any] = []
        self.ends: list[Any] = []
        self.sids: list[Any] = []
        self.tids: list[Any] = []
        self.lines: list[Any] = []
        self.span_layers: dict[int, SpanLayer] = {}
        self.links: dict[tuple[int, int, int], list[Any]] = {}
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
        if not self.cp_all and (not self.u16_all or self.differs):
            raise _Abandon  # the units are reckoned token by token: the general path
        begins, ends = _joined(self.begins), _joined(self.ends)
        sids, tids, lines = _joined(self.sids), _joined(self.tids), _joined(self.lines)
        del self.begins, self.ends, self.sids, self.tids, self.lines
        seen: set[int] = set()
        for layer in self.span_layers.values():
            dids = layer.dids()
            if not seen.isdisjoint(dids):
                raise _Abandon  # an id in two layers: refused, or read otherwise
            seen |= dids
        spans = _Spans(r, sids, tids, lines, (begins, ends))
        for layer in self.span_layers.values():
            spans.add_layer(layer)
        if not self.cp_all:
            unit_notice(UNITS[1], path=r.path, document=r.document)
        chains = self.chains(spans, begins, ends)
        r.tally.report()
        return AnnotatedDocument(r.document, r.annotator, self.text,
                                 PairColumns(begins, ends),
                                 tuple(r.sentences), spans.columns(), (), tuple(chains),
                                 path=r.path, line=1, tool=r.tool)

    # -- a chunk of token lines -------------------------------------------------------------

    def chunk(self, lo: int, hi: int) -> None:
        body, ncols = self.body, self.ncols
        start = self.rows
        firsts = np.asarray(self.firsts[lo:hi], dtype=np.int64)
        sizes = np.asarray(self.sizes[lo:hi], dtype=np.int64)
        n = int(sizes.sum())
        lines = np.repeat(firsts - (np.cumsum(sizes) - sizes), sizes) + np.arange(n)
        raw = b"".join([body[s:e] for s, e in self.blocks[lo:hi]])
        cols = Lines.of(raw, ncols)
        del raw
        if cols is None:
            raise _Abandon  # fields in another number, or past the declared columns
        ids = cols.pairs(0, 9)
        offsets = cols.pairs(1, 12)
        if ids is None or offsets is None:
            raise _Abandon  # sub-tokens, or ids and offsets the general path refuses
        sid, tid = ids
        prev_s, prev_t = self.last_id
        if not (sid[0] > prev_s or (sid[0] == prev_s and tid[0] > prev_t)) or not bool(
                np.all((sid[1:] > sid[:-1]) | ((sid[1:] == sid[:-1]) & (tid[1:] > tid[:-1])))):
            raise _Abandon  # ids out of order (perhaps one given twice): the general path
        self.last_id = (int(sid[-1]), int(tid[-1]))
        begins, ends = offsets
        if bool((begins > ends).any()):
            raise _Abandon
        self.offsets(begins, ends, cols)
        self.sids.append(sid)
        self.tids.append(tid)
        self.lines.append(lines)
        chain_layers = []
        at = 3
        for li, layer in enumerate(self.r.layers):
            width = len(layer.columns)
            if layer.kind == "span":
                self.span_layer(li).add([cell_bases(cols, at + j) for j in range(width)],
                                        start)
            elif layer.kind == "chain":
                kinds = [c.kind for c in layer.columns]
                link = max((j for j, x in enumerate(kinds) if x == "chain-link"), default=None)
                kind = max((j for j, x in enumerate(kinds) if x == "chain-type"), default=None)
                chain_layers.append((li, None if link is None else at + link,
                                     None if kind is None else at + kind))
            else:
                raise _Abandon
            at += width
        if chain_layers:
            self.chain_links(chain_layers, start, lines, cols)
        self.rows += n

    def span_layer(self, li: int) -> SpanLayer:
        """The reader of the span layer ``li`` (made on its first chunk)."""
        found = self.span_layers.get(li)
        if found is None:
            layer = self.r.layers[li]
            if any(c.kind not in ("primitive", "placeholder") for c in layer.columns):
                raise _Abandon
            found = self.span_layers[li] = SpanLayer(
                li, layer.name, [c.feature if c.kind == "primitive" else None
                                 for c in layer.columns], layer.label_feature)
        return found

    def offsets(self, begins: Any, ends: Any, cols: Lines) -> None:
        """The code-point offsets of a chunk's tokens, in the unit the whole file will
        show (see :meth:`read`)."""
        size = len(self.text)
        cp_ok = covered_match(self.text_bytes, size, cols, 2, begins, ends)
        u16_ok = cp_ok
        b_cp: Any = None
        e_cp: Any = None
        if self.nonbmp:
            pairs = self.pairs
            assert pairs is not None
            kb = np.searchsorted(pairs, begins, side="right")
            ke = np.searchsorted(pairs, ends, side="right")
            padded = np.append(pairs, -2)  # no offset is -3
            b_cp, e_cp = begins - kb, ends - ke
            u16_ok = not bool(((padded[kb] - 1 == begins) | (padded[ke] - 1 == ends)).any()) \
                and covered_match(self.text_bytes, size, cols, 2, b_cp, e_cp)
            if cp_ok and u16_ok and (bool((kb != 0).any()) or bool((ke != 0).any())):
                self.differs = True
        self.cp_all = self.cp_all and cp_ok
        self.u16_all = self.u16_all and u16_ok
        if cp_ok:
            self.begins.append(begins)
            self.ends.append(ends)
        elif u16_ok:
            self.begins.append(b_cp)
            self.ends.append(e_cp)
        else:
            raise _Abandon  # the units are reckoned token by token: the general path

    # -- chains -----------------------------------------------------------------------------

    def chain_links(self, layers: list[tuple[int, Any, Any]], start: int, lines: Any,
                    cols: Lines) -> None:
        """The chain links of a chunk, in the order the general path finds them: ``(layer,
        chain, element) -> [layer, chain, element, units, line, type, relation]``."""
        links = self.links
        blank = np.ones(cols.n, dtype=bool)
        for _, *columns in layers:
            for j in columns:
                if j is not None:
                    blank &= cols.blank(j)
        rows = np.flatnonzero(~blank)
        cells: dict[int, list[str]] = {}
        for _, *columns in layers:
            for j in columns:
                if j is not None:
                    cells[j] = cols.cells(j, rows)
        layers = [(li, None if a is None else cells[a], None if b is None else cells[b])
                  for li, a, b in layers]
        for at, i in enumerate(rows.tolist()):
            row = start + i
            for li, link_col, type_col in layers:
                link_cell = "_" if link_col is None else link_col[at]
                type_cell = "_" if type_col is None else type_col[at]
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
                        lk = [li, key[1], key[2], [row], int(lines[i]), None, None]
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

    def chains(self, spans: _Spans, begins: Any, ends: Any) -> list[Chain]:
        """The links' spans added to ``spans``, and the chains, as the general path makes
        them."""
        out: list[Chain] = []
        by_chain: dict[tuple[int, int], list[list[Any]]] = {}
        for lk in self.links.values():
            by_chain.setdefault((lk[0], lk[1]), []).append(lk)
        used = np.asarray(sorted({u for lk in self.links.values() for u in lk[3]}),
                          dtype=np.int64)
        first = dict(zip(used.tolist(), begins[used].tolist(), strict=True))
        last = dict(zip(used.tolist(), ends[used].tolist(), strict=True))
        for group in by_chain.values():
            group.sort(key=lambda x: x[2])
            ids = []
            layer = self.r.layers[group[0][0]]
            for _, chain, element, units, line, kind, relation in group:
                link_id = f"{layer.name}:{chain}-{element}"
                spans.add_span(link_id, min(map(first.__getitem__, units)),
                               max(map(last.__getitem__, units)), layer.name,
                               kind, (() if relation is None else
                                      (("referenceRelation", relation),)), line)
                ids.append(link_id)
            chain_layer = layer.type_name.rsplit(".", 1)[-1]  # (webanno._short)
            chain_layer = (chain_layer[:-4] if chain_layer.endswith("Link") else
                           chain_layer) + "Chain"
            out.append(Chain(f"{chain_layer}:{group[0][1]}", chain_layer, tuple(ids),
                             line=min(x[4] for x in group)))
        return out


class _Ids:
    """The ids of a document's spans, made when asked for (all, or one): each layer's spans
    read as columns by their first token, id and number among the spans without id their
    token starts, those read row by row by the ids they were given, the chains' links last.
    Holds only what the ids need."""

    def __init__(self, parts: list[dict[str, Any]], order: Any, extra: list[str], sids: Any,
                 tids: Any) -> None:
        self.parts = [(p["prefix"], sids[p["rows"]], tids[p["rows"]], p["dids"], p["fresh"],
                       p["ids"]) for p in parts]
        self.offsets = np.cumsum([0, *(len(p[1]) + len(p[5]) for p in self.parts)])
        self.order, self.extra = order, extra

    def __call__(self) -> list[str]:
        made: list[str] = []
        for prefix, sentences, tokens, dids, fresh, slow in self.parts:
            made += [_span_id(prefix, s, t, d, f) for s, t, d, f in zip(
                sentences.tolist(), tokens.tolist(), dids.tolist(), fresh.tolist(),
                strict=True)]
            made += slow
        return [made[i] for i in self.order.tolist()] + self.extra

    def known_rows(self) -> dict[str, int]:
        """The row of each span whose id was given (read row by row) and of each chain link:
        the ids known without making the others, the last row of an id given twice."""
        n = len(self.order)
        found: list[tuple[int, str]] = []
        if any(p[5] for p in self.parts):
            inverse = np.empty(n, dtype=np.int64)
            inverse[self.order] = np.arange(n)
            for k, (_, sentences, _, _, _, slow) in enumerate(self.parts):
                base = int(self.offsets[k]) + len(sentences)
                found += [(int(inverse[base + j]), x) for j, x in enumerate(slow)]
        found.sort()
        found += [(n + k, x) for k, x in enumerate(self.extra)]
        return {x: row for row, x in found}

    def at(self, i: int) -> str:
        """The id of the span ``i``."""
        if i >= len(self.order):
            return self.extra[i - len(self.order)]
        g = int(self.order[i])
        k = int(np.searchsorted(self.offsets, g, side="right")) - 1
        prefix, sentences, tokens, dids, fresh, slow = self.parts[k]
        local = g - int(self.offsets[k])
        if local >= len(sentences):
            return str(slow[local - len(sentences)])
        return _span_id(prefix, int(sentences[local]), int(tokens[local]), int(dids[local]),
                        int(fresh[local]))


def _span_id(prefix: str, sentence: int, token: int, did: int, fresh: int) -> str:
    """The id the general path gives a span: its layer, its first token, its id ``[N]``, or
    ``#n`` for the n-th span without id its first token starts (n > 1)."""
    if did >= 0:
        return f"{prefix}{sentence}-{token}[{did}]"
    return f"{prefix}{sentence}-{token}" if fresh == 1 else f"{prefix}{sentence}-{token}#{fresh}"


def _joined(parts: list[Any]) -> Any:
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


class _Spans:
    """The document's spans as columns, layer by layer in the general path's order, then the
    chains' links."""

    def __init__(self, r: _Reader, sids: Any, tids: Any, lines: Any,
                 found: tuple[Any, Any]) -> None:
        self.k = len(r.layers)
        self.sids, self.tids, self.lines, self.found = sids, tids, lines, found
        self.layers: dict[str, int] = {}
        self.labels: dict[str | None, int] = {}
        self.features: dict[tuple[tuple[str, str], ...], int] = {}
        # the layer spans, a layer each: keys, seq, starts, ends, layer, label and feature
        # codes, lines, and how to name them (rows and ids, or the ids themselves)
        self.parts: list[dict[str, Any]] = []
        self.extra: list[tuple[str, int, int, int, int, int, int]] = []  # chain links

    def code(self, table: dict[Any, int], value: Any) -> int:
        found = table.get(value)
        if found is None:
            found = table[value] = len(table)
        return found

    def uid(self, row: int) -> str:
        return f"{self.sids[row]}-{self.tids[row]}"

    def add_layer(self, layer: SpanLayer) -> None:
        fast, slow = layer.spans(self.k, self.uid, self.found, self.lines)
        lc = self.code(self.layers, layer.name)
        n = len(fast["rows"])
        codes = fast["codes"]
        lf = layer.lf
        label_at = next((j for j, f in enumerate(layer.features) if f is not None and f == lf),
                        None)
        if label_at is None:
            labels = np.full(n, self.code(self.labels, None), dtype=np.int64)
        else:
            lut = np.asarray([self.code(self.labels, None if v is None or v == "*" else v)
                              for v in layer.columns[label_at].distinct_values()],
                             dtype=np.int64)
            labels = lut[layer.value_codes(codes[:, label_at], label_at)]
        feats = self.feature_codes(layer, codes, lf, n)
        self.parts.append({
            "keys": np.concatenate([fast["keys"], np.asarray([s["key"] for s in slow],
                                                              dtype=np.int64)]),
            "seq": np.concatenate([fast["seq"], np.asarray([s["seq"] for s in slow],
                                                            dtype=np.int64)]),
            "starts": np.concatenate([fast["starts"], np.asarray([s["start"] for s in slow],
                                                                  dtype=np.int64)]),
            "ends": np.concatenate([fast["ends"], np.asarray([s["end"] for s in slow],
                                                              dtype=np.int64)]),
            "layers": np.full(n + len(slow), lc, dtype=np.int64),
            "labels": np.concatenate([labels, np.asarray(
                [self.code(self.labels, s["label"]) for s in slow], dtype=np.int64)]),
            "features": np.concatenate([feats, np.asarray(
                [self.code(self.features, s["features"]) for s in slow], dtype=np.int64)]),
            "lines": np.concatenate([self.lines[fast["rows"]],
                                     np.asarray([s["line"] for s in slow], dtype=np.int64)]),
            "rows": fast["rows"], "dids": fast["dids"], "fresh": fast["fresh"],
            "prefix": layer.name + ":",
            "ids": [s["id"] for s in slow],
        })

    def feature_codes(self, layer: SpanLayer, codes: Any, lf: str | None, n: int) -> Any:
        """The codes of the feature tuples of spans read as columns (their cells' codes)."""
        others = [(j, f) for j, f in enumerate(layer.features) if f is not None and f != lf]
        if not others or not n:
            return np.full(n, self.code(self.features, ()), dtype=np.int64)
        values = [layer.columns[j].distinct_values() for j, _ in others]
        key = np.zeros(n, dtype=np.int64)
        for (j, _), distinct in zip(others, values, strict=True):
            if len(distinct) > (1 << 62) // max(1, int(key.max(initial=0)) + 1):
                raise _Abandon  # too many combinations for one key (never in practice)
            key = key * len(distinct) + layer.value_codes(codes[:, j], j)
        combos, inverse = np.unique(key, return_inverse=True)
        table = []
        for combo in combos.tolist():
            parts = []
            for (_, f), distinct in zip(reversed(others), reversed(values), strict=True):
                combo, vc = divmod(combo, len(distinct))
                if (v := distinct[vc]) is not None and v != "*":
                    parts.append((f, v))
            table.append(self.code(self.features, tuple(reversed(parts))))
        return np.asarray(table, dtype=np.int64)[np.asarray(inverse).reshape(-1)]

    def add_span(self, span_id: str, start: int, end: int, layer: str, label: str | None,
                 features: tuple[tuple[str, str], ...], line: int) -> None:
        """A chain link's span, after the layers' spans."""
        self.extra.append((span_id, start, end, self.code(self.layers, layer),
                           self.code(self.labels, label), self.code(self.features, features),
                           line))

    def columns(self) -> SpanColumns:
        parts, self.parts = self.parts, []
        order = np.lexsort((_joined([p.pop("seq") for p in parts]),
                            _joined([p.pop("keys") for p in parts])))
        extra = self.extra

        def column(name: str, at: int) -> Any:  # (each layer's column dropped once used)
            return np.concatenate([_joined([p.pop(name) for p in parts])[order],
                                   np.asarray([x[at] for x in extra], dtype=np.int64)])

        ids = _Ids(parts, order, [x[0] for x in extra], self.sids, self.tids)
        known = frozenset([x[0] for x in extra] + [x for p in parts for x in p["ids"]])
        return SpanColumns(column("starts", 1), column("ends", 2), tuple(self.layers),
                           column("layers", 3), tuple(self.labels), column("labels", 4),
                           tuple(self.features), column("features", 5), column("lines", 6),
                           ids, id_at=ids.at, known_ids=known, known_rows=ids.known_rows)
