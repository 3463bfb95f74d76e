"""WebAnno TSV 3.x (clusteragree.exports.webanno) on INCEpTION's own conformance suite.

Every ``reference.tsv`` of the suite is read (or refused with a reason); where the case has an
XMI twin, the spans, relations, slot links and chains read from the TSV are compared with
those parsed from the XMI here with lxml (an independent route: the CAS the TSV was written
from, its offsets UTF-16 code units converted here). The Kafka chapter's chains are counted
against a regular expression over the raw referenceRelation column.
"""

from __future__ import annotations

import re
import warnings
from collections import Counter
from pathlib import Path

import pytest

from clusteragree.errors import InputError, InputWarning, Ledger, strict
from clusteragree.exports.webanno import (
    parse_webanno_tsv,
    read_webanno_tsv,
    sniff_webanno_tsv,
    split_unescaped,
    unescape_value,
)

CORPORA = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora"
INCEPTION = CORPORA / "tool-exports" / "inception"
SUITE = INCEPTION / "tsv3-suite"
CASES = sorted(p.parent.name for p in SUITE.glob("*/reference.tsv")) if SUITE.is_dir() else []
needs_suite = pytest.mark.skipif(not CASES, reason="the INCEpTION TSV suite is not here")

#: Cases where the TSV cannot say what the XMI holds, by the format's documented rules: an
#: annotation starting or ending in the space between tokens is cut to the tokens, and a
#: zero-width one outside a token moves to the nearest token boundary (the user guide's note
#: under "Span Annotations"; the case names say it).
TRUNCATED = {"testAnnotationWithLeadingWhitespace", "testAnnotationWithTrailingWhitespace",
             "testAnnotationWithLeadingWhitespaceAtStart",
             "testAnnotationWithTrailingWhitespaceAtEnd",
             "testZeroWidthAnnotationBeforeFirstTokenIsMovedToBeginOfFirstToken",
             "testZeroWidthAnnotationBetweenTokenIsMovedToEndOfPreviousToken",
             "testZeroWidthAnnotationBeyondLastTokenIsMovedToEndOfLastToken"}


def _read(path: Path):  # type: ignore[no-untyped-def]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        return read_webanno_tsv(path).documents[0]


# --------------------------------------------------------------------- the XMI, parsed here

XMI = "{http://www.omg.org/XMI}"
STRUCTURE = {"Token", "Sentence", "DocumentMetaData", "Sofa", "View", "NULL", "TagsetDescription"}


def _utf16_to_cp(text: str) -> dict[int, int]:
    """UTF-16 offset -> code point offset, for every boundary of ``text``."""
    out, u = {0: 0}, 0
    for i, ch in enumerate(text):
        u += len(ch.encode("utf-16-le")) // 2
        out[u] = i + 1
    return out


def xmi_annotation(path: Path) -> dict[str, object]:
    """Spans, relations, slot links and chains of an XMI file, by offsets (code points)."""
    from lxml import etree

    root = etree.parse(str(path)).getroot()
    text = ""
    for el in root:
        if etree.QName(el).localname == "Sofa":
            text = el.get("sofaString") or ""
    cp = _utf16_to_cp(text)
    by_id = {el.get(f"{XMI}id"): el for el in root}

    def where(el: object) -> tuple[int, int]:
        return cp[int(el.get("begin"))], cp[int(el.get("end"))]  # type: ignore[attr-defined]

    in_chain = set()
    chains = []
    for el in root:
        if el.get("first") is not None:
            links, cur = [], by_id.get(el.get("first"))
            while cur is not None:
                in_chain.add(cur.get(f"{XMI}id"))
                links.append(where(cur))
                cur = by_id.get(cur.get("next")) if cur.get("next") else None
            chains.append(tuple(links))
    spans, relations, slots = Counter(), Counter(), Counter()
    for el in root:
        name = etree.QName(el).localname
        if name in STRUCTURE or el.get("begin") is None or el.get(f"{XMI}id") in in_chain:
            continue
        if el.get("Governor") is not None:
            relations[(where(by_id[el.get("Governor")]), where(by_id[el.get("Dependent")]))] += 1
            continue
        spans[where(el)] += 1
        for attr, value in el.attrib.items():
            ids = value.split()
            if attr in ("begin", "end", "sofa") or not ids or not all(
                    i in by_id and (by_id[i].get("role") is not None
                                    or by_id[i].get("target") is not None) for i in ids):
                continue
            for i in ids:
                link = by_id[i]
                target = by_id.get(link.get("target"))
                if target is not None:
                    slots[(where(el), link.get("role"), where(target))] += 1
    return {"text": text, "spans": spans, "relations": relations, "slots": slots,
            "chains": Counter(chains)}


def tsv_annotation(doc) -> dict[str, object]:  # type: ignore[no-untyped-def]
    chain_layers = {c.layer[:-5] + "Link" for c in doc.chains}
    by_id = {s.id: s for s in doc.spans}
    spans = Counter((s.start, s.end) for s in doc.spans
                    if s.layer != "Token" and s.layer not in chain_layers)
    relations, slots = Counter(), Counter()
    for r in doc.relations:
        a, b = by_id[r.source], by_id[r.target]
        if ":" in r.layer:
            slots[((a.start, a.end), r.label, (b.start, b.end))] += 1
        else:
            relations[((a.start, a.end), (b.start, b.end))] += 1
    chains = Counter(tuple((by_id[i].start, by_id[i].end) for i in c.spans) for c in doc.chains)
    return {"text": doc.text, "spans": spans, "relations": relations, "slots": slots,
            "chains": chains}


# ----------------------------------------------------------------------------- the suite

@needs_suite
@pytest.mark.parametrize("case", CASES)
def test_every_suite_case_is_read_or_refused(case: str) -> None:
    try:
        doc = _read(SUITE / case / "reference.tsv")
    except InputError as err:  # a refusal says what is not supported
        assert "not" in str(err) and str(err).startswith(str(SUITE / case))
        return
    assert doc.annotator == "reference" and doc.text is not None
    for span in doc.spans:
        assert 0 <= span.start <= span.end <= len(doc.text)
    ids = [s.id for s in doc.spans]
    assert len(ids) == len(set(ids))
    for rel in doc.relations:
        assert rel.source in ids and rel.target in ids
    for chain in doc.chains:
        assert set(chain.spans) <= set(ids)
    # every token's text is the text at its offsets (the raw token column, split here)
    raw = [line.split("\t") for line in
           (SUITE / case / "reference.tsv").read_text(encoding="utf-8").split("\n")
           if re.match(r"\d+-\d+\t", line)]
    assert [doc.text[s:e] for s, e in doc.tokens] == [f[2] for f in raw]


@needs_suite
@pytest.mark.parametrize("case", [c for c in CASES if (SUITE / c / "reference.xmi").exists()])
def test_suite_case_matches_its_xmi_twin(case: str) -> None:
    tsv = tsv_annotation(_read(SUITE / case / "reference.tsv"))
    xmi = xmi_annotation(SUITE / case / "reference.xmi")
    if case in TRUNCATED:
        assert sum(tsv["spans"].values()) == sum(xmi["spans"].values())  # type: ignore[attr-defined]
        return
    assert tsv["text"] == xmi["text"]
    for what in ("spans", "relations", "slots", "chains"):
        assert tsv[what] == xmi[what], what


@needs_suite
def test_suite_counts() -> None:
    """All cases read (none refused); the cases with an XMI twin are 73 of 75."""
    read = [c for c in CASES if _read(SUITE / c / "reference.tsv") is not None]
    assert len(CASES) == 75 and len(read) == 75
    assert len(list(SUITE.rglob("*"))) - len(CASES) == 153


# ------------------------------------------------------------------------ Kafka's chapter

@pytest.mark.skipif(not (INCEPTION / "tsv3" / "coref.tsv").exists(), reason="no Kafka file")
def test_kafka_chapter_chains_counted_against_the_raw_column() -> None:
    path = INCEPTION / "tsv3" / "coref.tsv"
    doc = _read(path)
    header = path.read_text(encoding="utf-8").split("\n")
    ch_line = next(h for h in header if h.startswith("#T_CH="))
    layers_before = [h for h in header[:header.index(ch_line)] if h.startswith("#T_")]
    column = 3 + sum(max(1, len([f for f in h[6:].split("|") if f]) - 1) for h in layers_before)
    column += [f for f in ch_line[6:].split("|") if f][1:].index("referenceRelation")
    links: set[tuple[str, str]] = set()
    for line in header:
        fields = line.split("\t")
        if re.match(r"\d+-\d+(\.\d+)?$", fields[0]) and fields[column] != "_":
            links.update(re.findall(r"->(\d+)-(\d+)", fields[column]))
    chains = {c for c, _ in links}
    assert len(doc.chains) == len(chains) == 89
    assert sum(len(c.spans) for c in doc.chains) == len(links)
    assert {c.layer for c in doc.chains} == {"CoreferenceChain"}
    # each chain's links in link order, and their text the tokens' text
    by_id = {s.id: s for s in doc.spans}
    assert by_id["CoreferenceLink:1-1"].label == "CM"
    assert doc.covered(by_id["CoreferenceLink:1-1"]) == "Frau Grubach"
    assert dict(by_id["CoreferenceLink:1-1"].features)["referenceRelation"] == "COREFERENTIAL"


# ------------------------------------------------------------------------ format facts

def tsv(body: str, header: str = "#T_SP=webanno.custom.Span|value") -> str:
    return f"#FORMAT=WebAnno TSV 3.3\n{header}\n\n\n{body}"


def test_escapes_and_splitting() -> None:
    assert unescape_value(r"a\|b\_c\[1\]\->d\;e\*f\\g\th\n") == "a|b_c[1]->d;e*f\\g\th\n"
    assert unescape_value(r"\x") == r"\x"  # not an escape: kept
    assert split_unescaped(r"x\\|y", "|") == ["x\\\\", "y"]  # an escaped backslash, then |
    body = "#Text=a b\n1-1\t0-1\ta\tx\\\\[1]|y[2]\t\n1-2\t2-3\tb\tx\\\\[1]\t\n"
    doc = parse_webanno_tsv(tsv(body), path="m.tsv", document="m", annotator="u")
    assert [(s.label, s.start, s.end) for s in doc.spans] == [("x\\", 0, 3), ("y", 0, 1)]


def test_utf16_offsets_are_converted_and_said() -> None:
    text = "#Text=\N{GRINNING FACE} ok\n1-1\t0-2\t\N{GRINNING FACE}\t_\t\n1-2\t3-5\tok\tX\t\n"
    with Ledger() as ledger:
        doc = parse_webanno_tsv(tsv(text), path="e.tsv", document="e", annotator="u")
    assert doc.covered(doc.spans[0]) == "ok" and (doc.spans[0].start, doc.spans[0].end) == (2, 4)
    assert any("UTF-16" in n.message for n in ledger.notices)


def test_sentences_rebuild_the_text_with_gaps_and_line_breaks() -> None:
    body = ("#Text=A\n#Text=b\n1-1\t0-1\tA\t_\t\n1-2\t2-3\tb\t_\t\n\n"
            "#Text=c\n2-1\t6-7\tc\tX\t\n")
    doc = parse_webanno_tsv(tsv(body), path="t.tsv", document="t", annotator="u")
    assert doc.text == "A\nb\n  c" and doc.sentences == ((0, 2), (2, 3))
    assert doc.covered(doc.spans[0]) == "c"


def test_malformed_files_are_refused_with_their_line() -> None:
    cases = {
        "#Text=a\n1-1\t0-1\ta\n": ":6: a token line of 3",
        "#Text=a\n1-1\t0-x\ta\t_\t\n": ":6: offsets",
        "#Text=a\n1-1\t0-1\ta\tX[q]\t\n": ":6: disambiguation id",
        "1-1\t0-1\ta\t_\t\n": ":5: a token line outside",
        "#Text=a\n\n": ":5: a sentence without tokens",
        "#Text=abc\n1-1\t0-3\tabc\t_\t\n\n#Text=d\n2-1\t1-2\td\t_\t\n": ":9: the sentence starts",
        "#Text=a\n1-1\t0-1\ta\t_\t\n1-1\t0-1\ta\t_\t\n": ":7: token id 1-1 is given twice",
    }
    for body, where in cases.items():
        with pytest.raises(InputError, match=re.escape(where)):
            parse_webanno_tsv(tsv(body), path="x.tsv", document="x", annotator="u")
    with pytest.raises(InputError, match="WebAnno TSV 1 or 2"):
        parse_webanno_tsv(" # de.tud.POS | PosValue\n#id=1\n#text=a\n1-1\ta\tNN\n", path="o.tsv",
                          document="o", annotator="u")
    with pytest.raises(InputError, match="WebAnno TSV 2 is not read"):
        parse_webanno_tsv("#FORMAT=WebAnno TSV 2.0\n", path="o.tsv", document="o",
                          annotator="u")


def test_token_text_that_is_not_at_its_offsets_is_a_mismatch() -> None:
    body = "#Text=ab cd\n1-1\t0-2\tab\t_\t\n1-2\t3-5\tcx\tX\t\n"
    with Ledger() as ledger:
        parse_webanno_tsv(tsv(body), path="m.tsv", document="m", annotator="u")
    assert [n.kind for n in ledger.notices] == ["mismatch"]
    with strict(), pytest.raises(InputError, match=r"m\.tsv:7"):
        parse_webanno_tsv(tsv(body), path="m.tsv", document="m", annotator="u")


def test_sniffer() -> None:
    assert sniff_webanno_tsv(Path("a.tsv"), b"\xef\xbb\xbf#FORMAT=WebAnno TSV 3.3\n")
    assert sniff_webanno_tsv(Path("a"), b" # de.x.POS | PosValue\n#id=1\n#text=a\n")
    assert not sniff_webanno_tsv(Path("a.tsv"), b"1-1\t0-1\ta\n")
    assert not sniff_webanno_tsv(Path("a.conll"), b"#begin document (x); part 000\n")
