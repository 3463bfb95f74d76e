"""UIMA CAS XMI and JSON (INCEpTION, WebAnno, DKPro Core), read through ``dkpro-cassis``.

``dkpro-cassis`` is an optional extra (``pip install 'clusteragree[cas]'``): it is imported
when a CAS is read, and its absence is an :class:`~clusteragree.errors.InputError` saying how
to install it (or to export WebAnno TSV 3.3, which needs nothing more).

What is read from a CAS (its initial view):

* the text (the view's sofa string) and, where present, DKPro Core's ``Token`` and
  ``Sentence`` annotations;
* **chains**: every feature structure with a ``first`` feature (DKPro's
  ``de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceChain``, INCEpTION's custom
  chain layers ``webanno.custom.*Chain``) is a chain; its links are found by following
  ``next`` from ``first``, each a span of the link layer (``CoreferenceLink``, label the
  ``referenceType``, feature ``referenceRelation``);
* **relations**: annotations with ``Governor`` and ``Dependent`` features (DKPro's
  ``Dependency``, INCEpTION's relation layers), from governor to dependent;
* **spans**: every other annotation (``NamedEntity``, custom span layers ``webanno.custom.*``,
  POS, lemmas, ...) except tokens, sentences and the document's metadata; layer the type's
  short name (the full name when two types share one), label the feature ``value`` (else the
  first string feature), the other primitive features in ``features``;
* **slot features** (a feature holding link structures with ``role`` and ``target``): a
  relation from the host span to each target, of the layer ``HOST:feature``, labelled with
  the role.

Offsets: a CAS written by Java counts UTF-16 code units; cassis converts them to code points
when it loads the XMI or JSON, and each span is checked against the text like every other
export.

The type system of an XMI file is found, in this order: the ``typesystem`` argument; a file
``TypeSystem.xml`` (any letter case) beside the XMI; inside a ZIP (INCEpTION's "UIMA CAS XMI"
export of a document is a ZIP of the XMI and ``TypeSystem.xml``), its ``*.xml`` member that is
not the XMI. A JSON CAS carries its type system.

References
----------
UIMA XMI CAS serialization; the UIMA JSON CAS format (apache/uima-uimaj-io-jsoncas);
dkpro-cassis (dkpro/dkpro-cassis). docs/formats.md, "INCEpTION and WebAnno".
"""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import InputError, Tally
from ..inputs import read_bytes
from .model import AnnotatedDocument, Chain, Export, Relation, Span

__all__ = ["read_cas_json", "read_cas_json_bytes", "read_cas_xmi", "read_cas_xmi_bytes",
           "read_cas_zip_bytes", "sniff_cas_json", "sniff_cas_xmi"]

TOOL_XMI, TOOL_JSON = "uima-xmi", "uima-json"
INSTALL = ("reading UIMA CAS needs dkpro-cassis: pip install 'clusteragree[cas]' (or export "
           "the annotation as 'WebAnno TSV v3.3', which needs nothing more)")
TOKEN = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Token"
SENTENCE = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Sentence"
_SKIPPED_TYPES = {TOKEN, SENTENCE, "uima.tcas.DocumentAnnotation",
                  "de.tudarmstadt.ukp.dkpro.core.api.metadata.type.DocumentMetaData",
                  "de.tudarmstadt.ukp.dkpro.core.api.metadata.type.TagsetDescription"}
_BUILTIN = {"sofa", "begin", "end"}


def _cassis() -> Any:
    try:
        import cassis
    except ImportError:
        raise InputError(INSTALL) from None
    return cassis


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _features(fs: Any) -> list[Any]:
    return [f for f in fs.type.all_features if f.name not in _BUILTIN]


def _is_primitive(ts: Any, feature: Any) -> bool:
    return bool(ts.is_primitive(feature.rangeType))


def _value(fs: Any, name: str) -> Any:
    try:
        return fs.get(name)
    except Exception:  # a feature the type does not have
        return None


def document_of_cas(cas: Any, *, path: str, document: str, annotator: str, tool: str
                    ) -> AnnotatedDocument:
    """A loaded :class:`cassis.Cas` as an annotated document (see the module's description)."""
    ts = cas.typesystem
    text = cas.sofa_string or ""
    tally = Tally(path)
    select = getattr(cas, "select_all_fs", None) or cas.select_all  # cassis < 0.10
    fss = list(select())
    annotations = [fs for fs in fss if ts.subsumes("uima.tcas.Annotation", fs.type.name)]
    tokens = sorted((fs.begin, fs.end) for fs in annotations if fs.type.name == TOKEN)
    sentences = []
    for fs in sorted((fs for fs in annotations if fs.type.name == SENTENCE),
                     key=lambda f: f.begin):
        inside = [i for i, (b, e) in enumerate(tokens) if b >= fs.begin and e <= fs.end]
        if inside:
            sentences.append((inside[0], inside[-1] + 1))

    chain_heads = [fs for fs in fss if any(f.name == "first" for f in fs.type.all_features)
                   and not ts.subsumes("uima.tcas.Annotation", fs.type.name)]
    in_chain: dict[int, tuple[int, int]] = {}
    chain_links: list[list[Any]] = []
    for ci, head in enumerate(chain_heads):
        links: list[Any] = []
        cur, seen = _value(head, "first"), set()
        while cur is not None and cur.xmiID not in seen:
            seen.add(cur.xmiID)
            in_chain[cur.xmiID] = (ci, len(links) + 1)
            links.append(cur)
            cur = _value(cur, "next")
        chain_links.append(links)

    def is_relation(fs: Any) -> bool:
        names = {f.name for f in fs.type.all_features}
        return "Governor" in names and "Dependent" in names

    span_fss = [fs for fs in annotations if fs.type.name not in _SKIPPED_TYPES
                and not is_relation(fs) and fs.xmiID not in in_chain]
    names = {fs.type.name for fs in span_fss} | {fs.type.name for c in chain_links for fs in c}
    names |= {fs.type.name for fs in annotations if is_relation(fs)}
    shorts: dict[str, int] = {}
    for n in names | {TOKEN}:
        shorts[_short(n)] = shorts.get(_short(n), 0) + 1

    def layer(name: str) -> str:
        return _short(name) if shorts[_short(name)] == 1 else name

    spans: list[Span] = []
    ids: dict[int, str] = {}

    def add_span(fs: Any, label_feature: str | None, extra: Iterable[tuple[str, str]] = (),
                 sid: str | None = None) -> None:
        if not (0 <= fs.begin <= fs.end <= len(text)):
            tally.add("skipped", "annotations outside the text")
            return
        prim = [f for f in _features(fs) if _is_primitive(ts, f)]
        label = None
        if label_feature is None:
            strings = [f.name for f in prim if f.rangeType.name == "uima.cas.String"]
            label_feature = "value" if "value" in strings else (strings[0] if strings else None)
        if label_feature is not None:
            v = _value(fs, label_feature)
            label = None if v is None else str(v)
        feats = [(f.name, str(_value(fs, f.name))) for f in prim
                 if f.name != label_feature and _value(fs, f.name) is not None]
        ids[fs.xmiID] = sid or f"{layer(fs.type.name)}:{fs.xmiID}"
        spans.append(Span(ids[fs.xmiID], fs.begin, fs.end, layer(fs.type.name), label,
                          tuple(feats) + tuple(extra)))

    for fs in sorted(span_fss, key=lambda f: (f.begin, f.end, f.xmiID)):
        add_span(fs, None)
    chains = []
    for ci, (head, links) in enumerate(zip(chain_heads, chain_links, strict=True)):
        members = []
        for li, fs in enumerate(links, 1):
            rel = _value(fs, "referenceRelation")
            add_span(fs, "referenceType" if any(f.name == "referenceType"
                                                for f in fs.type.all_features) else None,
                     sid=f"{layer(fs.type.name)}:{ci + 1}-{li}")
            spans[-1] = Span(spans[-1].id, spans[-1].start, spans[-1].end, spans[-1].layer,
                             spans[-1].label, tuple(x for x in spans[-1].features
                                                    if x[0] != "referenceRelation")
                             + ((("referenceRelation", str(rel)),) if rel is not None else ()))
            members.append(ids[fs.xmiID])
        if members:
            chains.append(Chain(f"{_short(head.type.name)}:{ci + 1}", _short(head.type.name),
                                tuple(members)))
    token_spans: dict[tuple[int, int], str] = {}

    def end_id(fs: Any) -> str | None:
        if fs is None:
            return None
        if fs.xmiID in ids:
            return ids[fs.xmiID]
        if fs.type.name == TOKEN:
            key = (fs.begin, fs.end)
            if key not in token_spans:
                token_spans[key] = f"Token:{fs.begin}-{fs.end}"
                spans.append(Span(token_spans[key], fs.begin, fs.end, "Token", None))
            return token_spans[key]
        return None

    relations = []
    for fs in sorted((fs for fs in annotations if is_relation(fs)),
                     key=lambda f: (f.begin, f.end, f.xmiID)):
        gov, dep = end_id(_value(fs, "Governor")), end_id(_value(fs, "Dependent"))
        if gov is None or dep is None:
            tally.add("skipped", "relations whose governor or dependent is not a span read")
            continue
        prim = [f for f in _features(fs) if _is_primitive(ts, f)]
        strings = [f.name for f in prim if f.rangeType.name == "uima.cas.String"]
        lf = "value" if "value" in strings else (
            "DependencyType" if "DependencyType" in strings else (strings[0] if strings else None))
        lv = _value(fs, lf) if lf else None
        relations.append(Relation(gov, dep, layer(fs.type.name),
                                  None if lv is None else str(lv), None,
                                  tuple((f.name, str(_value(fs, f.name))) for f in prim
                                        if f.name != lf and _value(fs, f.name) is not None)))
    for fs in sorted(span_fss, key=lambda f: (f.begin, f.end, f.xmiID)):
        for f in _features(fs):
            if _is_primitive(ts, f):
                continue
            value = _value(fs, f.name)
            elements = getattr(value, "elements", None)
            if not isinstance(elements, list):
                continue
            for link in elements:
                target = end_id(_value(link, "target"))
                if target is None:
                    tally.add("skipped", "slots whose target is not a span read")
                    continue
                role = _value(link, "role")
                relations.append(Relation(ids[fs.xmiID], target, f"{layer(fs.type.name)}:"
                                          f"{f.name}", None if role is None else str(role)))
    tally.report()
    return AnnotatedDocument(document, annotator, text, tuple(tokens), tuple(sentences),
                             tuple(spans), tuple(relations), tuple(chains), path=path,
                             tool=tool)


def _load(loader: str, data: bytes, typesystem: bytes | None, path: str) -> Any:
    cassis = _cassis()
    try:
        kwargs: dict[str, Any] = {}
        if typesystem is not None:
            kwargs["typesystem"] = cassis.load_typesystem(io.BytesIO(typesystem))
        if loader == "xmi":
            return cassis.load_cas_from_xmi(io.BytesIO(data), **kwargs)
        return cassis.load_cas_from_json(io.BytesIO(data), **kwargs)
    except InputError:
        raise
    except RecursionError:
        raise InputError("nested too deeply to read", path) from None
    except Exception as err:  # cassis and lxml raise many kinds on malformed input
        what = "type system or XMI" if loader == "xmi" else "JSON CAS"
        raise InputError(f"not a readable UIMA CAS ({what}): {type(err).__name__}: "
                         f"{str(err)[:300]}", path) from None


def read_cas_xmi_bytes(xmi: bytes, typesystem: bytes, *, path: str, document: str,
                       annotator: str, tool: str = TOOL_XMI) -> AnnotatedDocument:
    """An XMI CAS and its type system (bytes) as an annotated document."""
    cas = _load("xmi", xmi, typesystem, path)
    return document_of_cas(cas, path=path, document=document, annotator=annotator, tool=tool)


def read_cas_json_bytes(raw: bytes, *, path: str, document: str, annotator: str,
                        tool: str = TOOL_JSON) -> AnnotatedDocument:
    """A JSON CAS (with its type system inside) as an annotated document."""
    cas = _load("json", raw, None, path)
    return document_of_cas(cas, path=path, document=document, annotator=annotator, tool=tool)


def read_cas_zip_bytes(raw: bytes, *, path: str, document: str, annotator: str,
                       tool: str = TOOL_XMI) -> AnnotatedDocument:
    """INCEpTION's XMI export of a document: a ZIP of one ``.xmi`` and its type system."""
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as z:
            names = [n for n in z.namelist() if not n.endswith("/")]
            xmis = [n for n in names if n.lower().endswith(".xmi")]
            tss = [n for n in names if n.lower().endswith(".xml")]
            if len(xmis) != 1 or len(tss) != 1:
                raise InputError(f"a ZIP of UIMA CAS XMI should hold one .xmi file and its "
                                 f"type system (.xml); this one holds {len(xmis)} and "
                                 f"{len(tss)}", path)
            xmi, ts = z.read(xmis[0]), z.read(tss[0])
    except InputError:
        raise
    except Exception as err:  # zipfile and its decompressors raise many kinds
        raise InputError(f"not a readable ZIP ({type(err).__name__}: {err})", path) from None
    return read_cas_xmi_bytes(xmi, ts, path=f"{path}!{xmis[0]}", document=document,
                              annotator=annotator, tool=tool)


def _type_system_beside(p: Path) -> Path | None:
    try:
        for q in sorted(p.parent.iterdir()):
            if q.name.lower() == "typesystem.xml":
                return q
    except OSError:
        return None
    return None


def read_cas_xmi(path: str | os.PathLike[str], *, encoding: str | None = None,
                 typesystem: str | os.PathLike[str] | None = None,
                 annotator: str | None = None, document: str | None = None) -> Export:
    """Read a UIMA CAS XMI file (or INCEpTION's ZIP of one with its type system).

    Parameters
    ----------
    path : str or os.PathLike
        The ``.xmi`` file, or a ``.zip`` holding one ``.xmi`` and its type system.
    encoding : str, optional
        Not used: XMI says its encoding itself (accepted for the common reader signature).
    typesystem : str or os.PathLike, optional
        The type system (``--typesystem``); default: ``TypeSystem.xml`` beside the XMI.
    annotator, document : str, optional
        Their names (default: the file's stem).

    Returns
    -------
    Export

    Raises
    ------
    InputError
        dkpro-cassis is not installed (the message says how to install it); no type system;
        a file cassis cannot read.
    """
    p = Path(path)
    stem = p.stem
    annotator = stem if annotator is None else annotator
    document = stem if document is None else document
    raw = read_bytes(p)
    if raw.startswith(b"PK\x03\x04"):
        doc = read_cas_zip_bytes(raw, path=os.fspath(path), document=document,
                                 annotator=annotator)
        return Export((doc,), os.fspath(path), TOOL_XMI)
    ts_path = Path(typesystem) if typesystem is not None else _type_system_beside(p)
    if ts_path is None:
        raise InputError("a UIMA CAS XMI file needs its type system: put TypeSystem.xml beside "
                         "it (INCEpTION's XMI export holds one), or name it with "
                         "typesystem=PATH (--typesystem)", os.fspath(path))
    doc = read_cas_xmi_bytes(raw, read_bytes(ts_path, what="type system file"),
                             path=os.fspath(path), document=document, annotator=annotator)
    return Export((doc,), os.fspath(path), TOOL_XMI)


def read_cas_json(path: str | os.PathLike[str], *, encoding: str | None = None,
                  annotator: str | None = None, document: str | None = None) -> Export:
    """Read a UIMA CAS JSON file (INCEpTION's "UIMA CAS JSON" export of a document).

    Parameters
    ----------
    path : str or os.PathLike
        The ``.json`` file (it carries its type system).
    encoding : str, optional
        Not used (JSON CAS is UTF-8).
    annotator, document : str, optional
        Their names (default: the file's stem).
    """
    p = Path(path)
    doc = read_cas_json_bytes(read_bytes(p), path=os.fspath(path),
                              document=p.stem if document is None else document,
                              annotator=p.stem if annotator is None else annotator)
    return Export((doc,), os.fspath(path), TOOL_JSON)


def sniff_cas_xmi(path: Path, head: bytes) -> bool:
    """An XMI document (``xmi:XMI`` with the UIMA CAS namespace in its first 64 KiB)."""
    try:
        return b"<xmi:XMI" in head[:4096] and b"http:///uima/cas.ecore" in head
    except Exception:
        return False


def sniff_cas_json(path: Path, head: bytes) -> bool:
    """A JSON CAS (a JSON object whose ``%TYPES``/``%FEATURE_STRUCTURES`` keys start it)."""
    try:
        start = head.lstrip()[:4096]
        return start.startswith(b"{") and (b'"%TYPES"' in start or
                                           b'"%FEATURE_STRUCTURES"' in start)
    except Exception:
        return False
