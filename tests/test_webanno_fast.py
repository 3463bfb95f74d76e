"""The fast path of the WebAnno TSV reader against its general path: the same documents, field
by field, the same notices and the same errors.

Each input is read with the general path alone (``_records.FAST = False``) and with the fast
path (``True``, the default), the latter with its chunks of token lines of the default size and
of one sentence each. The inputs are the TSV fixtures (corpora_fixtures/exports/
inception: files and the project export), INCEpTION's conformance suite and examples in
../shared/corpora (skipped when absent), the benchmark's generated export, hand-made files that
leave the fast path's shape in one place each, and random files (hypothesis) mixing what the
fast path takes with what it must leave to the general path (stacked and multi-token spans,
chains, relation and slot layers, sub-tokens, escapes, offsets in either unit or off the text,
malformed rows).
"""

from __future__ import annotations

import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from alike import same, script
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusteragree.errors import InputError, Ledger
from clusteragree.exports import _records, _webanno_fast
from clusteragree.exports._webanno_fast import read_fast
from clusteragree.exports.columns import SpanColumns, spans_by_id
from clusteragree.exports.inception import read_inception_project
from clusteragree.exports.webanno import (
    _Reader,
    parse_webanno_tsv,
    read_webanno_tsv,
    read_webanno_tsv_bytes,
)

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "corpora_fixtures" / "exports" / "inception"
INCEPTION = ROOT.parent / "shared" / "corpora" / "tool-exports" / "inception"
SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])
NE = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
POS = "de.tudarmstadt.ukp.dkpro.core.api.lexmorph.type.pos.POS"
LINK = "de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceLink"


def _outcome(read: Callable[[], Any], fast: bool, monkeypatch: pytest.MonkeyPatch,
             chunk: int | None = None) -> tuple[Any, list[tuple[Any, ...]]]:
    """What one reading gives: the export or the error, and the notices (``chunk``: the
    fast path's chunk of token lines)."""
    with monkeypatch.context() as patch:
        patch.setattr(_records, "FAST", fast)
        if chunk is not None:
            patch.setattr(_webanno_fast, "CHUNK", chunk)
        with Ledger() as ledger, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                found: Any = read()
            except InputError as err:
                found = ("error", str(err), err.line, err.col)
    notices = [(n.kind, n.message, n.file, n.line, n.count) for n in ledger.notices]
    return found, notices


def _check(read: Callable[[], Any], monkeypatch: pytest.MonkeyPatch) -> Any:
    general, notices = _outcome(read, False, monkeypatch)
    for chunk in (None, 1):  # chunks of the default size, and of one sentence each
        found, said = _outcome(read, True, monkeypatch, chunk)
        same(general, found, f"export (chunk {chunk})")
        assert said == notices
        _found_by_id_alike(found)
    return general


def _found_by_id_alike(export: Any) -> None:
    """``spans_by_id`` on the fast path's columns (the rows of the known ids, without making
    every id) finds what a look at every span finds: the known ids, some others, one unknown."""
    for doc in getattr(export, "documents", ()):
        spans = doc.spans
        if not isinstance(spans, SpanColumns):
            continue
        every = [s.id for s in spans]
        for wanted in (set(spans.known_ids), set(every[::3]) | {"no-such-id"},
                       set(spans.known_ids) | set(every[:2])):
            assert spans_by_id(spans, wanted) == {s.id: s for s in spans if s.id in wanted}


def _took_fast(text: str) -> bool:
    """Whether the fast path reads ``text`` itself (not handing it to the general path)."""
    with Ledger(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return read_fast(_Reader("x.tsv", "x", "a", "webanno-tsv"), text) is not None
        except InputError:  # offsets that mix units: refused by both paths alike
            return True


def _parse(text: str) -> Callable[[], Any]:
    return lambda: parse_webanno_tsv(text, path="x.tsv", document="x", annotator="a")


# --- files --------------------------------------------------------------------------------

def _files() -> list[Path]:
    found = sorted(FIX.rglob("*.tsv"))
    if INCEPTION.is_dir():
        found += sorted(INCEPTION.rglob("*.tsv"))
    return found


@pytest.mark.parametrize("path", _files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_tsv_files_read_alike(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _check(lambda: read_webanno_tsv(path), monkeypatch)


def test_the_suite_is_there_or_skipped() -> None:
    if not INCEPTION.is_dir():
        pytest.skip("../shared/corpora/tool-exports/inception is absent")
    assert len(list((INCEPTION / "tsv3-suite").glob("*/reference.tsv"))) > 50


def test_the_fast_path_takes_the_common_files() -> None:
    """The fixtures of span and chain layers only are read by the fast path itself."""
    taken = [p.name for p in sorted(FIX.rglob("*.tsv"))
             if _took_fast(p.read_text(encoding="utf-8"))]
    assert taken, "no fixture takes the fast path"
    if INCEPTION.is_dir():
        chain = (INCEPTION / "tsv3" / "coref.tsv").read_text(encoding="utf-8")
        assert _took_fast(chain)


def _zips(tmp: Path) -> list[Path]:
    out = []
    project = FIX / "project"
    if project.is_dir():
        target = tmp / "project.zip"
        with zipfile.ZipFile(target, "w") as z:
            for f in sorted(project.rglob("*")):
                if f.is_file():
                    z.write(f, f.relative_to(project).as_posix())
        out.append(target)
    if INCEPTION.is_dir():
        out += sorted(INCEPTION.glob("*.zip"))
    return out


def test_the_project_exports_read_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    zips = _zips(tmp_path)
    assert zips
    for z in zips:
        _check(lambda z=z: read_inception_project(z), monkeypatch)


def test_the_benchmark_export_reads_alike(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """scripts/bench_exports.py's generated files (2,000 tokens, three annotators) are read
    by the fast path, and alike."""
    script("bench_exports").write_webanno_tsv(tmp_path, 2000, 3)
    for f in sorted(tmp_path.iterdir()):
        assert _took_fast(f.read_text(encoding="utf-8")), f.name
        export = _check(lambda f=f: read_webanno_tsv(f), monkeypatch)
        doc = export.documents[0]
        # tokens counted from the raw rows, a second way
        rows = [line for line in f.read_text(encoding="utf-8").split("\n")
                if line[:1].isdigit()]
        assert len(doc.tokens) == len(rows) == 2000


# --- hand-made files, each leaving the fast path's shape once ------------------------------

HEAD = f"#FORMAT=WebAnno TSV 3.3\n#T_SP={NE}|identifier|value\n#T_CH={LINK}|referenceType|" \
       "referenceRelation\n\n\n"
ROWS = ("#Text=Ms. Haag plays 😀 .\n"
        "1-1\t0-3\tMs.\t*[1]\tPER[1]\tnam[1]\tcoref->1-1\t\n"
        "1-2\t4-8\tHaag\t*[1]\tPER[1]\tnam[1]\tcoref->1-1\t\n"
        "1-3\t9-14\tplays\t_\t_\t_\t_\t\n"
        "1-4\t15-17\t😀\t*\tOTH\tpro[1]\t*->1-2\t\n"
        "1-5\t18-19\t.\t_\t_\t_\t_\t\n")
VARIANTS = {
    "plain": ROWS,
    "code points": ROWS.replace("15-17", "15-16").replace("18-19", "17-18"),
    "off the text": ROWS.replace("18-19", "40-41"),
    "a mismatch": ROWS.replace("Haag", "Hagg"),
    "a sub-token": ROWS + "1-5.1\t18-19\t.\t_\t_\t_\t_\t\n",
    "an escape": ROWS.replace("OTH", "O\\|TH"),
    "a stranger header line": ROWS.replace("#Text=", "#Other=x\n#Text="),
    "a type without a link": ROWS.replace("plays\t_\t_\t_", "plays\t_\t_\tnam"),
    "a chain id apart": ROWS.replace("pro[1]", "pro[01]"),
    "stacked without ids": ROWS.replace("*\tOTH", "*|*\tOTH|LOC"),
    "one id, two layers": ROWS,  # see below
    "no trailing tab": ROWS.replace("\t\n", "\n"),
    "an extra field": ROWS.replace("coref->1-1\t\n", "coref->1-1\tx\n", 1),
    "a short row": ROWS.replace("\t*->1-2", ""),
    "a bad id": ROWS.replace("1-3\t", "1-x\t"),
    "a bad disambiguation id": ROWS.replace("PER[1]", "PER[x]", 1),
    "a duplicate token": ROWS.replace("1-3\t", "1-2\t"),
    "backwards offsets": ROWS.replace("9-14", "14-9"),
    "a sentence without text": ROWS.replace("#Text=Ms. Haag plays 😀 .\n", ""),
    "a second sentence": ROWS + "\n#Text=Ok\n2-1\t20-22\tOk\t_\tX\t_\t_\t\n",
    "no gap": ROWS + "\n#Text=Ok\n2-1\t19-21\tOk\t_\tX\t_\t_\t\n",
    "overlapping sentences": ROWS + "\n#Text=Ok\n2-1\t5-7\tOk\t_\tX\t_\t_\t\n",
    "a sentence id": ROWS.replace("#Text=", "#Sentence.id=s1\n#Text="),
    "carriage returns": ROWS.replace("\n", "\r\n"),
    "a span over a gap of two sentences": ROWS + "\n#Text=Ok\n2-1\t20-22\tOk\t*[1]\tPER[1]\t_\t_"
                                                 "\t\n",
    "one token, two values": ROWS.replace("*\tOTH", "*[7]|*[8]\tOTH[7]|LOC[8]"),
    "a value joined twice": ROWS.replace("*\tOTH", "*[7]|*[7]\tOTH[7]|LOC[7]"),
    "an id, then a value without": ROWS.replace("*\tOTH", "*[7]|*\tOTH[7]|LOC"),
    "a value without id, then an id": ROWS.replace("*\tOTH", "*|*[7]\tOTH|LOC[7]"),
    "a row read both ways": ROWS.replace("4-8\tHaag\t*[1]\tPER[1]", "4-8\tHaag\t*[1]|*\tPER[1]|LOC")
    .replace("plays\t_\t_", "plays\t*[1]|*[9]\tPER[1]"),
    "an id whose rows differ": ROWS.replace("4-8\tHaag\t*[1]\tPER[1]", "4-8\tHaag\t_\tPER[1]|LOC"),
    "an empty file": "",
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_hand_made_variants_read_alike(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = HEAD + VARIANTS[name] if VARIANTS[name] else ""
    if name == "one id, two layers":
        text = (f"#FORMAT=WebAnno TSV 3.3\n#T_SP={NE}|value\n#T_SP={POS}|PosValue\n\n\n"
                "#Text=a b\n1-1\t0-1\ta\tX[1]\tY[1]\t\n1-2\t2-3\tb\t_\t_\t\n")
    _check(_parse(text), monkeypatch)
    if name in ("plain", "code points", "no trailing tab", "a second sentence", "no gap",
                "a sentence id", "carriage returns", "one token, two values",
                "a value joined twice", "a span over a gap of two sentences",
                "an id, then a value without", "a value without id, then an id",
                "a row read both ways", "an id whose rows differ"):
        assert _took_fast(text), name


def test_the_three_layer_kinds_without_relations_take_the_fast_path() -> None:
    text = (f"#FORMAT=WebAnno TSV 3.4\n#T_SP={POS}|PosValue|coarseValue\n"
            "#T_SP=webanno.custom.Span\n\n\n#Text=a b\n"
            "1-1\t0-1\ta\tNN\tNOUN\t*\t\n1-2\t2-3\tb\t*\t_\t*[3]|*[4]\t\n")
    assert _took_fast(text)


# --- random files ---------------------------------------------------------------------------

WORDS = ("a", "bc", "Zoë", "\N{GRINNING FACE}", "x|y", "[1]", "d_e", "é")
VALUES = ("PER", "ORG", "*", "a b", "ü")
JUNK = ("_", "*", "A", "A[1]", "A|B", "A[x]", "\\_", "[", "]", "A[1]|B[2]", "*[2]", "",
        "x->1-1", "*->1-2|*->2-1", "n[1]|p[2]", "1-1", "1-1[0_0]", "1-9")


@st.composite
def _layers(draw: st.DrawFn) -> list[str]:
    out = []
    for k in range(draw(st.integers(1, 3))):
        features = draw(st.lists(st.sampled_from(["value", "identifier", "PosValue",
                                                  "coarseValue"]), max_size=3,
                                 unique=draw(st.integers(0, 9)) > 0))
        out.append("#T_SP=" + "|".join([(NE, POS, f"webanno.custom.S{k}")[k], *features]))
    if draw(st.booleans()):
        cols = ["referenceType", "referenceRelation"]
        if draw(st.booleans()):
            cols.reverse()
        out.append("#T_CH=" + "|".join([LINK, *cols]))
    extra = draw(st.integers(0, 9))
    if extra == 0:
        out.append(f"#T_RL=webanno.custom.Rel|label|BT_{NE}")
    elif extra == 1:
        out.append("#T_SP=webanno.custom.Slot|ROLE_webanno.custom.Slot:links_webanno.custom."
                   f"SlotLink|{NE}")
    return out


def _columns(layer: str) -> list[str]:
    parts = layer[6:].split("|")
    if layer.startswith("#T_SP=") and len(parts) == 1:
        return ["placeholder"]
    return parts[1:]


@st.composite
def _tsv(draw: st.DrawFn) -> str:
    layers = draw(_layers())
    columns = [(layer, c) for layer in layers for c in _columns(layer)]
    minor = draw(st.sampled_from(["3", "3", "3", "2", "4"]))
    lines = [f"#FORMAT=WebAnno TSV 3.{minor}", *layers, "", ""]
    at16 = 0
    did = 0
    chain_links: dict[int, int] = {}
    for s in range(1, draw(st.integers(1, 4)) + 1):
        words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6))
        lines.append("#Text=" + " ".join(words))
        # spans: per span layer a few (first token, length, stacked) with ids when needed
        cells: list[list[str]] = [["_"] * len(words) for _ in columns]
        for ci, (layer, col) in enumerate(columns):
            if col in ("referenceType", "referenceRelation") or layer.startswith("#T_RL"):
                continue
            if ci > 0 and columns[ci - 1][0] == layer:
                continue  # filled with the layer's first column
            width = len(_columns(layer))
            for _ in range(draw(st.integers(0, 2))):
                first = draw(st.integers(0, len(words) - 1))
                length = draw(st.integers(1, len(words) - first))
                stacked = any(cells[ci][j] != "_" for j in range(first, first + length))
                suffix = ""
                # WebAnno writes an id on stacked and longer spans; a file may lack it
                if length > 1 or (stacked and draw(st.integers(0, 4))) or \
                        draw(st.integers(0, 5)) == 0:
                    did += 1
                    suffix = f"[{did}]"
                values = [draw(st.sampled_from(VALUES)) + suffix for _ in range(width)]
                for j in range(first, first + length):
                    for w in range(width):
                        old = cells[ci + w][j]
                        if j > first and old == "_" and width > 1 and \
                                draw(st.integers(0, 6)) == 0:
                            continue  # a feature left blank on a later token of the span
                        cells[ci + w][j] = values[w] if old == "_" else old + "|" + values[w]
        for ci, (layer, col) in enumerate(columns):
            if col != "referenceRelation":
                continue
            ti = next(k for k, (lay, c) in enumerate(columns)
                      if lay == layer and c == "referenceType")
            for _ in range(draw(st.integers(0, 2))):
                chain = draw(st.integers(1, 3))
                chain_links[chain] = chain_links.get(chain, 0) + 1
                first = draw(st.integers(0, len(words) - 1))
                length = draw(st.integers(1, min(2, len(words) - first)))
                rel = draw(st.sampled_from(["coref", "*"]))
                kind = draw(st.sampled_from(["nam", "pro", "*"]))
                for j in range(first, first + length):
                    for at, value in ((ci, f"{rel}->{chain}-{chain_links[chain]}"),
                                      (ti, f"{kind}[{chain}]")):
                        old = cells[at][j]
                        cells[at][j] = value if old == "_" else old + "|" + value
        utf16 = draw(st.integers(0, 9)) != 0
        pos = at16
        for t, w in enumerate(words):
            size = len(w.encode("utf-16-le")) // 2 if utf16 else len(w)
            row = [f"{s}-{t + 1}", f"{pos}-{pos + size}", w, *(c[t] for c in cells), ""]
            if draw(st.integers(0, 60)) == 0:  # now and then something off
                row[draw(st.integers(0, len(row) - 1))] = draw(st.sampled_from(JUNK))
            lines.append("\t".join(row))
            if draw(st.integers(0, 60)) == 0:
                lines.append(f"{s}-{t + 1}.1\t{pos}-{pos}\t\t" + "\t".join(
                    "_" for _ in columns) + "\t")
            pos += size + 1
        at16 = pos + draw(st.sampled_from([0] * 8 + [1, -1]))
        lines.append("")
    text = "\n".join(lines)
    if draw(st.integers(0, 10)) == 0:
        text = text.replace("\n", "\r\n")
    return text


@SETTINGS
@given(text=_tsv())
def test_random_files_read_alike(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _check(_parse(text), monkeypatch)


def test_random_files_often_take_the_fast_path() -> None:
    """The random files above exercise the fast path itself, not only its way out."""
    taken = []

    @settings(max_examples=60, deadline=None, database=None, derandomize=True)
    @given(text=_tsv())
    def probe(text: str) -> None:
        taken.append(_took_fast(text))

    probe()
    assert sum(taken) >= len(taken) // 5, f"{sum(taken)} of {len(taken)}"


def test_a_lone_surrogate_is_read_by_the_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text that UTF-8 cannot encode (a lone surrogate, as a decoding that escapes bad
    bytes leaves) is not read by columns of bytes: the general path reads it."""
    for where in ("#Text=Ms.", "\tMs.\t"):
        text = HEAD + ROWS.replace(where, where.replace("Ms.", "M\udcffs"), 1)
        assert not _took_fast(text)
        _check(_parse(text), monkeypatch)


# --- bytes ----------------------------------------------------------------------------------

def _bytes(raw: bytes) -> Callable[[], Any]:
    return lambda: read_webanno_tsv_bytes(raw, path="x.tsv", document="x", annotator="a")


@pytest.mark.parametrize("name", [n for n in VARIANTS if VARIANTS[n]])
def test_hand_made_variants_read_alike_from_bytes(name: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The files read from their bytes (as read_webanno_tsv and the project export read them:
    the fast path without a decoded copy of the file), with and without a byte-order mark."""
    text = HEAD + VARIANTS[name]
    for raw in (text.encode(), b"\xef\xbb\xbf" + text.encode()):
        assert same(_check(_bytes(raw), monkeypatch), _check(_parse(text), monkeypatch)) \
            is None


@pytest.mark.parametrize("where", ["#FORMAT", "#T_SP", "#Text=Ms", "\tMs.\t", "\tPER[1]",
                                   "\tOTH\t", "coref->1-1\t", "#Sentence.id=s1", "\t\n"])
def test_bytes_not_utf8_are_refused_by_the_general_path(where: str,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """A byte that is not UTF-8 anywhere in the file (each place the fast path reads in its
    own way) makes the fast path give up, and the general path refuse the file at its line."""
    text = HEAD + ROWS.replace("#Text=", "#Sentence.id=s1\n#Text=")
    assert where in text
    raw = text.encode().replace(where.encode(), where.encode()[:-1] + b"\xff" +
                                where.encode()[-1:], 1)
    assert read_fast(_Reader("x.tsv", "x", "a", "webanno-tsv"), raw) is None
    refused = _check(_bytes(raw), monkeypatch)
    assert "not UTF-8" in str(refused), refused


# --- a column's cells read as bases and ids ---------------------------------------------------

_CELL = st.text(alphabet=st.sampled_from(list("AB*_é😀[]|\\019 ")), max_size=22)


@settings(max_examples=400, deadline=None)
@given(cells=st.lists(st.one_of(_CELL, st.builds(lambda v, d: f"{v}[{d}]", _CELL,
                                                 st.integers(0, 10**10))),
                      min_size=1, max_size=30))
def test_cells_read_by_columns_as_one_by_one(cells: list[str]) -> None:
    """``cell_bases`` (the bytes of every cell at once) against ``value_of_cell`` (a cell at
    a time, as the general path reads a value): the same base and id for every cell, short
    (16 bytes and fewer) or long, or a refusal when one cell is refused."""
    from clusteragree.exports._tsv_columns import Lines
    from clusteragree.exports._webanno_layers import Abandon, cell_bases, value_of_cell

    raw = "".join(f"1-{k + 1}\t0-1\tx\t{c}\t\n" for k, c in enumerate(cells)).encode()
    lines = Lines.of(raw, 4)
    assert lines is not None
    expected: list[tuple[str, int | None]] | None = []
    try:
        for c in cells:
            expected.append((c, None) if "|" in c or "\\" in c else value_of_cell(c))
    except Abandon:
        expected = None
    try:
        codes, dids, bases = cell_bases(lines, 3)
    except Abandon:
        assert expected is None
        return
    assert expected is not None
    assert [(bases[c], None if d < 0 else d) for c, d in zip(codes.tolist(), dids.tolist(),
                                                             strict=True)] == expected
