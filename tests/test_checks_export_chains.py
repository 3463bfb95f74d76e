"""The coreference checks of exports' chains (``clusteragree.coref.export_checks``): one
planted problem per test id in hand-made WebAnno TSV and Label Studio files, a brute-force
definition on random chains (hypothesis), the real INCEpTION files against counts taken from
their raw columns, and ``--strict`` in the commands that read exports."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree.cli import main
from clusteragree.cli.validate import validate_paths
from clusteragree.coref.export_checks import export_incidents
from clusteragree.errors import ParameterError
from clusteragree.exports.model import AnnotatedDocument, Chain, Export, Relation, Span
from clusteragree.incidents import Incident

ROOT = Path(__file__).resolve().parent.parent
INCEPTION = ROOT.parent / "shared" / "corpora" / "tool-exports" / "inception"
CHAINED = sorted([*INCEPTION.glob("tsv3-suite/*Chain/reference.tsv"),
                  INCEPTION / "tsv3" / "coref.tsv"]) if INCEPTION.is_dir() else []
needs_inception = pytest.mark.skipif(not CHAINED or not CHAINED[-1].exists(),
                                     reason="../shared/corpora/tool-exports is not here")

WORDS = ["Mary", "met", "John", "and", "he", "smiled", "at", "her", "."]
LAYER = "de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceLink"


def chain_tsv(links: dict[tuple[int, int], list[int]], words: list[str] = WORDS) -> str:
    """A one-sentence WebAnno TSV 3.3 file with one chain layer: ``links`` maps (chain, link)
    to the tokens it covers."""
    lines = ["#FORMAT=WebAnno TSV 3.3", f"#T_CH={LAYER}|referenceType|referenceRelation", "",
             "", f"#Text={' '.join(words)}"]
    at = 0
    for k, w in enumerate(words):
        mine = sorted(key for key, tokens in links.items() if k in tokens)
        kinds = "|".join(f"*[{c}]" for c, _ in mine) or "_"
        rels = "|".join(f"*->{c}-{n}" for c, n in mine) or "_"
        lines.append(f"1-{k + 1}\t{at}-{at + len(w)}\t{w}\t{kinds}\t{rels}\t")
        at += len(w) + 1
    return "\n".join(lines) + "\n"


def coref_found(paths: list[Path], fmt: str = "auto", **options: object) -> list[Incident]:
    return [i for i in validate_paths([str(p) for p in paths], fmt, **options)
            if i.test_id.startswith("coref-")]


# (the planted file, the test id, the line and node of the incident)
PLANTED = {
    "coref-same-span": ({(1, 1): [0], (1, 2): [4], (2, 1): [0], (2, 2): [2]}, 6, "2-1"),
    "coref-duplicate-mention": ({(1, 1): [0], (1, 2): [0], (1, 3): [4]}, 6, "1-2"),
    "coref-crossing-same-entity": ({(1, 1): [0, 1], (1, 2): [1, 2]}, 7, "1-2"),
    "coref-crossing-mentions": ({(1, 1): [0, 1], (1, 2): [4], (2, 1): [1, 2], (2, 2): [7]},
                                7, "2-1"),
    "coref-singletons-allowed": ({(1, 1): [0], (2, 1): [2], (2, 2): [4]}, 6, "1-1"),
}


def test_a_clean_chain_file_has_no_coreference_incident(tmp_path: Path) -> None:
    path = tmp_path / "clean.tsv"
    path.write_text(chain_tsv({(1, 1): [0], (1, 2): [7], (2, 1): [2], (2, 2): [4]}),
                    encoding="utf-8")
    assert coref_found([path]) == []


@pytest.mark.parametrize("test_id", sorted(PLANTED))
def test_webanno_planted(tmp_path: Path, test_id: str) -> None:
    links, line, node = PLANTED[test_id]
    path = tmp_path / "planted.tsv"
    path.write_text(chain_tsv(links), encoding="utf-8")
    found = coref_found([path])
    assert [(i.test_id, i.line, i.node) for i in found] == \
        [(test_id, line, f"CoreferenceLink:{node}")]
    assert found[0].annotator == "planted.tsv" and found[0].file == str(path)
    assert coref_found([path], level=1) == []  # level 2 tests


def test_a_span_in_two_chains_and_unknown_members() -> None:
    spans = (Span("a", 0, 4, "m", None), Span("b", 9, 13, "m", None),
             Span("c", 18, 20, "m", None))
    doc = AnnotatedDocument("d", "ann", " ".join(WORDS), spans=spans, path="x.json",
                            chains=(Chain("c1", "ch", ("a", "b", "zz"), line=3),
                                    Chain("c2", "ch", ("c", "b"), line=5)))
    found = list(export_incidents([Export((doc,), "x.json", "t")]))
    assert [(i.test_id, i.line, i.node) for i in found] == \
        [("coref-mention-in-two-chains", 5, "b"), ("coref-singletons-allowed", None, "c")]
    assert "c1 and in the chain c2" in found[0].message


def test_chains_are_told_apart_by_place_not_by_name() -> None:
    """Two chains of one name (a tool's ids need not be unique) are two entities."""
    spans = (Span("a", 0, 8, "m", None), Span("b", 5, 13, "m", None))
    doc = AnnotatedDocument("d", "ann", " ".join(WORDS), spans=spans,
                            chains=(Chain("x", "ch", ("a",)), Chain("x", "ch", ("b",))))
    found = list(export_incidents([Export((doc,), "x", "t")]))
    assert [i.test_id for i in found] == ["coref-crossing-mentions", "coref-singletons-allowed"]
    assert "the chains x and x" in found[0].message


def test_every_chain_layer_on_its_own_or_the_one_named() -> None:
    spans = (Span("a", 0, 8, "m", None), Span("b", 5, 13, "m", None))
    doc = AnnotatedDocument("d", "ann", " ".join(WORDS), spans=spans,
                            chains=(Chain("x", "one", ("a", "b")), Chain("y", "two", ("a",)),
                                    Chain("z", "two", ("b",))),
                            relations=(Relation("a", "b", "rel", None),))
    export = [Export((doc,), "x", "t")]
    assert [i.test_id for i in export_incidents(export)] == \
        ["coref-crossing-same-entity", "coref-crossing-mentions", "coref-singletons-allowed"]
    assert [i.test_id for i in export_incidents(export, chain_layer="two")] == \
        ["coref-crossing-mentions", "coref-singletons-allowed"]
    # a relation layer named: its connected components are the chains
    assert [i.test_id for i in export_incidents(export, chain_layer="rel")] == \
        ["coref-crossing-same-entity"]
    with pytest.raises(ParameterError, match="'one', 'two', 'rel'"):
        list(export_incidents(export, chain_layer="nope"))


# --- a brute-force definition on random chains -------------------------------------------

def _chars(parts: tuple[tuple[int, int], ...]) -> set[int]:
    return {c for s, e in parts for c in range(s, e)}


def brute(doc: AnnotatedDocument) -> Counter[tuple[str, str]]:
    """The incidents by definition: every pair compared, nothing swept."""
    by_id = {s.id: s for s in doc.spans}
    out: Counter[tuple[str, str]] = Counter()
    chain_of: dict[str, int] = {}
    members: list[tuple[Span, int]] = []
    for k, c in enumerate(doc.chains):
        for i in dict.fromkeys(c.spans):
            if i not in by_id:
                continue
            if i in chain_of:
                out["coref-mention-in-two-chains", i] += 1
            else:
                chain_of[i] = k
                members.append((by_id[i], k))
    first: dict[tuple[tuple[int, int], ...], tuple[Span, int]] = {}
    for span, k in members:
        if span.parts in first:
            same = first[span.parts][1] == k
            out["coref-duplicate-mention" if same else "coref-same-span", span.id] += 1
        else:
            first[span.parts] = (span, k)
    for (a, ka), (b, kb) in combinations(first.values(), 2):
        ca, cb = _chars(a.parts), _chars(b.parts)
        if ca & cb and not ca <= cb and not cb <= ca:
            later = max((a, b), key=lambda s: (s.parts[0][0], -s.parts[-1][1], s.parts))
            out["coref-crossing-same-entity" if ka == kb else "coref-crossing-mentions",
                later.id] += 1
    distinct: dict[int, set[tuple[tuple[int, int], ...]]] = defaultdict(set)
    for span, k in members:
        distinct[k].add(span.parts)
    single = sum(len(v) == 1 for v in distinct.values())
    if single:
        out["coref-singletons-allowed", "*"] += single
    return out


@st.composite
def documents(draw: st.DrawFn) -> AnnotatedDocument:
    n = draw(st.integers(1, 9))
    spans = []
    for k in range(n):
        starts = sorted(draw(st.lists(st.integers(0, 12), min_size=1, max_size=2, unique=True)))
        parts = tuple((s, s + draw(st.integers(1, 4))) for s in starts)
        if len(parts) == 2 and parts[0][1] >= parts[1][0]:
            parts = ((parts[0][0], max(parts[0][1], parts[1][1])),)
        spans.append(Span(f"s{k}", parts[0][0], parts[-1][1], "m", None,
                          fragments=parts if len(parts) > 1 else ()))
    ids = [s.id for s in spans] + ["unknown"]
    chains = tuple(Chain(f"c{k}", "ch", tuple(draw(st.lists(st.sampled_from(ids), min_size=1,
                                                             max_size=5))))
                   for k in range(draw(st.integers(1, 4))))
    return AnnotatedDocument("d", "ann", "x" * 20, spans=tuple(spans), chains=chains)


@settings(max_examples=400, deadline=None)
@given(documents())
def test_the_checks_are_the_definition_on_random_chains(doc: AnnotatedDocument) -> None:
    got: Counter[tuple[str, str]] = Counter()
    for i in export_incidents([Export((doc,), "x", "t")]):
        single = i.test_id == "coref-singletons-allowed"
        got[i.test_id, "*" if single else str(i.node)] += i.count
    assert got == brute(doc)


# --- Label Studio: relations as chains -----------------------------------------------------

def label_studio(tmp_path: Path, regions: list[tuple[str, int, int]],
                 relations: list[tuple[str, str]]) -> Path:
    text = " ".join(WORDS)
    result: list[dict[str, object]] = [
        {"id": rid, "from_name": "label", "to_name": "text", "type": "labels",
         "value": {"start": s, "end": e, "text": text[s:e], "labels": ["PER"]}}
        for rid, s, e in regions]
    result += [{"from_id": a, "to_id": b, "type": "relation", "direction": "right"}
               for a, b in relations]
    task = {"id": 1, "data": {"text": text}, "annotations": [
        {"id": 10, "completed_by": {"id": 1, "email": "ann@x.org"}, "result": result,
         "was_cancelled": False}]}
    path = tmp_path / "ls.json"
    path.write_text(json.dumps([task]), encoding="utf-8")
    return path


def test_label_studio_relations_crossing_in_one_chain(tmp_path: Path) -> None:
    path = label_studio(tmp_path, [("r1", 0, 8), ("r2", 5, 13), ("r3", 18, 20)],
                        [("r1", "r2"), ("r2", "r3")])
    found = coref_found([path])
    assert [(i.test_id, i.annotator) for i in found] == \
        [("coref-crossing-same-entity", "ann@x.org")]
    assert [i.test_id for i in coref_found([path], chain_layer="relation")] == \
        ["coref-crossing-same-entity"]
    with pytest.raises(ParameterError, match=r"chain[-_]layer"):
        coref_found([path], chain_layer="nope")


def test_cli_chain_layer_exit_codes_and_unused(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = label_studio(tmp_path, [("r1", 0, 8), ("r2", 5, 13)], [("r1", "r2")])
    assert main(["validate", str(path), "-f", "json"]) == 1
    records = json.loads(capsys.readouterr().out)["results"]
    assert any(r.get("test") == "coref-crossing-same-entity" for r in records)
    assert main(["validate", str(path), "--chain-layer", "nope"]) == 1
    assert "--chain-layer nope: no chain or relation layer" in capsys.readouterr().err
    conll = tmp_path / "a.conll"
    conll.write_text("#begin document (d); part 000\nd 0 0 Mary (1)\nd 0 1 she (1)\n"
                     "#end document\n", encoding="utf-8")
    assert main(["validate", str(conll), "--chain-layer", "x"]) == 0
    assert "--chain-layer" in capsys.readouterr().err
    # at level 1 the chains are not checked: said, and an unknown layer not looked for
    assert main(["validate", str(path), "--level", "1", "--chain-layer", "nope"]) == 0
    assert "--chain-layer acts on the checks of each annotation, level 2" in \
        capsys.readouterr().err


@pytest.mark.parametrize("command", ["spans", "coref", "convert"])
def test_strict_refuses_the_chain_errors_in_every_command(tmp_path: Path, command: str,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    links, _, _ = PLANTED["coref-crossing-same-entity"]
    paths = []
    for who in ("a", "b"):
        path = tmp_path / f"{who}.tsv"
        path.write_text(chain_tsv(links), encoding="utf-8")
        paths.append(str(path))
    extra = {"convert": ["-f", "conll2012", "-o", str(tmp_path / "out")]}.get(command, [])
    assert main([command, *paths, *extra, "--strict"]) == 1
    assert "coref-crossing-same-entity" in capsys.readouterr().err


# --- the real files ---------------------------------------------------------------------------

def raw_links(raw: str) -> tuple[dict[tuple[str, str], tuple[int, int]], list[tuple[str, str]]]:
    """The chain links of a WebAnno TSV file from its raw columns: (chain, link) -> the
    characters from its first token's start to its last token's end, and the links in order."""
    extent: dict[tuple[str, str], tuple[int, int]] = {}
    for line in raw.splitlines():
        if not re.match(r"\d+-\d+(\.\d+)?\t", line):
            continue
        f = line.split("\t")
        b, e = (int(x) for x in f[1].split("-"))
        for chain, link in re.findall(r"->(\d+)-(\d+)", "\t".join(f[3:])):
            s0, e0 = extent.get((chain, link), (b, e))
            extent[chain, link] = (min(s0, b), max(e0, e))
    return extent, list(extent)


def raw_counts(raw: str) -> Counter[str]:
    extent, _ = raw_links(raw)
    groups: dict[tuple[int, int], list[str]] = defaultdict(list)
    for (chain, _), span in extent.items():
        groups[span].append(chain)
    out: Counter[str] = Counter()
    for chains in groups.values():
        assert len(set(chains)) in (1, len(chains))  # no mixed group in these files
        if len(chains) > 1:
            out["coref-same-span" if len(set(chains)) > 1 else "coref-duplicate-mention"] += \
                len(chains) - 1
    mentions = [(span, chains[0]) for span, chains in groups.items()]
    for ((s1, e1), c1), ((s2, e2), c2) in combinations(mentions, 2):
        if s1 < s2 < e1 < e2 or s2 < s1 < e2 < e1:
            out["coref-crossing-same-entity" if c1 == c2 else "coref-crossing-mentions"] += 1
    distinct: dict[str, set[tuple[int, int]]] = defaultdict(set)
    for (chain, _), span in extent.items():
        distinct[chain].add(span)
    single = sum(len(v) == 1 for v in distinct.values())
    if single:
        out["coref-singletons-allowed"] = single
    return out


@needs_inception
def test_the_real_chains_against_their_raw_columns() -> None:
    seen = {}
    for path in CHAINED:
        found = coref_found([path], "webanno-tsv")
        got: Counter[str] = Counter()
        for i in found:
            got[i.test_id] += i.count
        assert got == raw_counts(path.read_text(encoding="utf-8")), path
        seen[path.parent.name if path.name == "reference.tsv" else path.stem] = got
    # the stacked chains of INCEpTION's suite and the Kafka chapter's 84 links marked in two
    # chains (chains 84 and 89 on the same pronouns)
    assert seen["testStackedChain"]["coref-same-span"] == 3
    assert seen["coref"]["coref-same-span"] == 84
    assert sum(seen["testSimpleChain"].values()) == 0
