"""UIMA CAS XMI and JSON (clusteragree.exports.cas, through dkpro-cassis): the XMI twins of
INCEpTION's TSV suite read and compared with the TSV reading of the same case."""

from __future__ import annotations

import warnings
from collections import Counter
from pathlib import Path

import pytest

from clusteragree.errors import InputError, InputWarning
from clusteragree.exports.webanno import read_webanno_tsv

cassis = pytest.importorskip("cassis")

from clusteragree.exports.cas import (  # noqa: E402
    read_cas_json,
    read_cas_xmi,
    sniff_cas_json,
    sniff_cas_xmi,
)

SUITE = (Path(__file__).resolve().parent.parent.parent / "shared" / "corpora" / "tool-exports"
         / "inception" / "tsv3-suite")
CASES = sorted(p.parent.name for p in SUITE.glob("*/reference.xmi")) if SUITE.is_dir() else []
XMI = "{http://www.omg.org/XMI}"
#: Features that hold references (to other feature structures), by name, in DKPro Core's and
#: INCEpTION's types; links holds an array of link structures.
REFERENCES = {"Governor", "Dependent", "next", "first", "target", "pos", "lemma", "stem",
              "morph"}
#: The TSV cannot say what the XMI holds in these (see test_exports_webanno.TRUNCATED).
TRUNCATED = {c for c in CASES if "Whitespace" in c or "ZeroWidth" in c}


def type_system_of(paths: list[Path]):  # type: ignore[no-untyped-def]
    """A type system that declares every type and feature the XMI files use (the suite has
    none beside them): built here from the elements and attributes, with the reference
    features DKPro Core and INCEpTION use."""
    from lxml import etree

    types: dict[str, tuple[str, dict[str, str]]] = {}
    for path in paths:
        for el in etree.parse(str(path)).getroot():
            q = etree.QName(el)
            if q.namespace in ("http:///uima/cas.ecore", "http://www.omg.org/XMI"):
                continue
            package = q.namespace.removeprefix("http:///").removesuffix(".ecore").replace("/",
                                                                                         ".")
            name = f"{package}.{q.localname}"
            if q.localname == "DocumentMetaData":
                parent = "uima.tcas.DocumentAnnotation"
            elif el.get("begin") is not None:
                parent = "uima.tcas.Annotation"
            elif el.get("sofa") is not None:
                parent = "uima.cas.AnnotationBase"
            else:
                parent = "uima.cas.TOP"
            feats = types.setdefault(name, (parent, {}))[1]
            for attr in el.attrib:
                if attr.startswith("{") or attr in ("sofa", "begin", "end"):
                    continue
                feats[attr] = ("ref" if attr in REFERENCES else "array" if attr == "links"
                               else "string")
    ts = cassis.TypeSystem()
    for name, (parent, _) in sorted(types.items()):
        if not ts.contains_type(name):
            ts.create_type(name, supertypeName=parent)
    for name, (_, feats) in sorted(types.items()):
        t = ts.get_type(name)
        for feat, kind in sorted(feats.items()):
            if any(f.name == feat for f in t.all_features):
                continue
            if kind == "ref":
                ts.create_feature(t, feat, "uima.cas.TOP")
            elif kind == "array":
                ts.create_feature(t, feat, "uima.cas.FSArray", elementType="uima.cas.TOP")
            else:
                ts.create_feature(t, feat, "uima.cas.String")
    return ts


@pytest.fixture(scope="module")
def typesystem(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not CASES:
        pytest.skip("the INCEpTION TSV suite is not here")
    path = tmp_path_factory.mktemp("ts") / "TypeSystem.xml"
    path.write_text(type_system_of([SUITE / c / "reference.xmi" for c in CASES]).to_xml(),
                    encoding="utf-8")
    return path


def shape(doc) -> dict[str, Counter]:  # type: ignore[no-untyped-def]
    chain_layers = {c.spans[0].split(":")[0] for c in doc.chains}
    by_id = {s.id: s for s in doc.spans}
    out: dict[str, Counter] = {"spans": Counter(), "relations": Counter(), "slots": Counter(),
                               "chains": Counter()}
    for s in doc.spans:
        if s.layer != "Token" and s.layer not in chain_layers:
            out["spans"][(s.start, s.end)] += 1
    for r in doc.relations:
        a, b = by_id[r.source], by_id[r.target]
        out["slots" if ":" in r.layer else "relations"][
            ((a.start, a.end), (b.start, b.end)) + ((r.label,) if ":" in r.layer else ())] += 1
    for c in doc.chains:
        out["chains"][tuple((by_id[i].start, by_id[i].end) for i in c.spans)] += 1
    return out


@pytest.mark.parametrize("case", CASES)
def test_xmi_reads_like_the_tsv_of_the_same_case(case: str, typesystem: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        xmi = read_cas_xmi(SUITE / case / "reference.xmi", typesystem=typesystem).documents[0]
        tsv = read_webanno_tsv(SUITE / case / "reference.tsv").documents[0]
    a, b = shape(xmi), shape(tsv)
    if case in TRUNCATED:
        assert sum(a["spans"].values()) == sum(b["spans"].values())
        return
    assert xmi.text == tsv.text
    assert xmi.tokens == tsv.tokens
    assert a == b


def test_emoji_offsets_are_code_points(typesystem: Path) -> None:
    doc = read_cas_xmi(SUITE / "testSentenceWithEmoji" / "reference.xmi",
                       typesystem=typesystem).documents[0]
    (span,) = [s for s in doc.spans if s.layer != "Token"]
    assert doc.covered(span) == "\N{SMILING FACE WITH SMILING EYES}" and span.end - span.start == 1


def test_json_and_zip_and_missing_type_system(typesystem: Path, tmp_path: Path) -> None:
    import zipfile

    ts = cassis.load_typesystem(typesystem.read_text(encoding="utf-8"))
    cas = cassis.load_cas_from_xmi((SUITE / "testMultiTokenChain" / "reference.xmi")
                                   .read_text(encoding="utf-8"), typesystem=ts)
    (tmp_path / "d.json").write_text(cas.to_json(), encoding="utf-8")
    head = (tmp_path / "d.json").read_bytes()[:65536]
    assert sniff_cas_json(tmp_path / "d.json", head)
    doc = read_cas_json(tmp_path / "d.json").documents[0]
    by_id = {s.id: s for s in doc.spans}
    assert [[doc.covered(by_id[i]) for i in c.spans] for c in doc.chains] == \
        [["This is", "a test"]]
    with zipfile.ZipFile(tmp_path / "d.zip", "w") as z:
        z.write(SUITE / "testMultiTokenChain" / "reference.xmi", "d.xmi")
        z.write(typesystem, "TypeSystem.xml")
    assert read_cas_xmi(tmp_path / "d.zip").documents[0].chains == doc.chains
    xmi = SUITE / "testMultiTokenChain" / "reference.xmi"
    assert sniff_cas_xmi(xmi, xmi.read_bytes()[:65536])
    with pytest.raises(InputError, match="needs its type system"):
        read_cas_xmi(xmi)
    (tmp_path / "bad.xmi").write_bytes(b"<xmi:XMI xmlns:xmi='http://www.omg.org/XMI'><oops")
    with pytest.raises(InputError, match="not a readable UIMA CAS"):
        read_cas_xmi(tmp_path / "bad.xmi", typesystem=typesystem)


def test_project_export_with_xmi_members(typesystem: Path, tmp_path: Path) -> None:
    """INCEpTION's project export in the XMI format: annotation/DOC/USER.zip, each a ZIP of
    the XMI and its type system."""
    import io
    import zipfile

    from clusteragree.exports.inception import read_inception_project

    def user_zip(case: str) -> bytes:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            z.write(SUITE / case / "reference.xmi", "doc.xmi")
            z.write(typesystem, "TypeSystem.xml")
        return buf.getvalue()

    path = tmp_path / "project.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("exportedproject1.json", '{"name": "p"}')
        z.writestr("annotation/doc.txt/ann1.zip", user_zip("testSimpleChain"))
        z.writestr("annotation/doc.txt/ann2.zip", user_zip("testMultiTokenChain"))
    export = read_inception_project(path)
    assert export.annotators == ("ann1", "ann2")
    sizes = [[len(c.spans) for c in d.chains] for d in export]
    assert sizes == [[3], [2]]
    assert export.documents[0].path.endswith("project.zip!annotation/doc.txt/ann1.zip!doc.xmi")
