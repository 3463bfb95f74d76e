"""clusteragree convert and the writers: a round trip (read, write, read) keeps every span and
chain a format can hold, and says with counts what it cannot.

Expected values come from elsewhere than the writers: the clusters read from the original
files by the project's readers, counts made with regular expressions over the raw files, the
covered text of spans built here, the SOURCES.md of the corpora, and (when
CLUSTERAGREE_PERL_SCORER names its scorer.pl) the official CoNLL scorer.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree.coref import parse_conll, read_brat_dir, read_conll, read_corefud
from clusteragree.coref.exports import corpora_from_export, export_from_corpus
from clusteragree.errors import InputError, Ledger, ParameterError, strict
from clusteragree.exports.model import (
    AnnotatedDocument,
    Chain,
    DocumentLabel,
    Export,
    Relation,
    Span,
)
from clusteragree.exports.writers import (
    write_brat,
    write_codings_csv,
    write_conll2012,
    write_corefud,
)
from clusteragree.labels.table import read_long_table

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora"
SCORER = SHARED / "coref-scorer-tests"
DATA = SCORER / "reference-scorer" / "test" / "DataFiles"
PARTICIPANTS = SHARED / "coref-multi-annotator" / "participant-analysis"
NONCONTIG = SCORER / "corefud-scorer" / "tests" / "tests-corefud" / "partial-corefud-match" \
    / "noncontig_mentions"  # TC-NCMA.key, TC-NCMA-1.response, ...
needs = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/corpora is absent")


def _quiet(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def _clusters(corpus) -> list:
    """Each document's chains as sets of token spans, documents in file order."""
    return [sorted(sorted(c) for c in d.clusters()) for d in corpus.documents.values()]


def _written(tmp_path: Path, name: str, write, documents, **kw) -> Path:
    path = tmp_path / name
    with open(path, "w", encoding="utf-8", newline="") as handle:
        _quiet(write, documents, handle, **kw)
    return path


# (a) real files --------------------------------------------------------------------------------

@needs
def test_conll_files_round_trip_through_conll2012_and_corefud(tmp_path: Path) -> None:
    files = sorted(DATA.glob("TC-*"))
    assert len(files) == 50  # 14 keys and 36 responses (SOURCES.md)
    for f in files:
        original = _quiet(read_conll, f, lenient=True)
        export = _quiet(export_from_corpus, original, "a")
        again = read_conll(_written(tmp_path, "x.conll", write_conll2012, export.documents))
        assert _clusters(again) == _clusters(original), f
        assert list(again.documents) == list(original.documents), f  # names kept
        ud = read_corefud(_written(tmp_path, "x.conllu", write_corefud, export.documents))
        assert _clusters(ud) == _clusters(original), f
        for d, e in zip(original.documents.values(), again.documents.values(), strict=True):
            assert [t or "_" for t in d.tokens] == list(e.tokens)


@needs
def test_brat_corpus_round_trips_through_brat(tmp_path: Path) -> None:
    text = PARTICIPANTS / "text"
    for annotator, mentions in (("A", 1438 + 117), ("B", 1438 + 136)):  # SOURCES.md
        original = _quiet(read_brat_dir, PARTICIPANTS / annotator, text)
        raw = sum(len(re.findall(r"(?m)^T\d+\t", p.read_text(encoding="utf-8")))
                  for p in (PARTICIPANTS / annotator).glob("*.ann"))
        assert raw == mentions
        export = _quiet(export_from_corpus, original, annotator)
        done = _quiet(write_brat, export.documents, tmp_path / annotator)
        assert done.mentions == mentions and done.documents == 13
        again = _quiet(read_brat_dir, tmp_path / annotator)
        assert _clusters(again) == _clusters(original)
        for d, e in zip(original.documents.values(), again.documents.values(), strict=True):
            assert d.tokens == e.tokens  # the characters of the text


@needs
def test_brat_to_conll2012_keeps_every_chain_on_shared_tokens(tmp_path: Path) -> None:
    """Both annotators' CoNLL files have the same tokens; each mention's words, read back,
    are its characters in the text (spaces left out); the chains are the same sets."""
    text = PARTICIPANTS / "text"
    corpora = {a: _quiet(read_brat_dir, PARTICIPANTS / a, text) for a in "AB"}
    docs = [d for a in "AB" for d in _quiet(export_from_corpus, corpora[a], a).documents]
    read = {}
    for a in "AB":
        mine = [d for d in docs if d.annotator == a]
        read[a] = read_conll(_written(tmp_path, f"{a}.conll", write_conll2012, mine,
                                      tokens_from=docs))
    for name in corpora["A"].documents:
        key = f"({name}); part 000"
        assert read["A"].documents[key].tokens == read["B"].documents[key].tokens
        for a in "AB":
            chars = corpora[a].documents[name]
            words = read[a].documents[key]
            assert _got(words) == _got(chars), (a, name)


@needs
def test_corefud_discontinuous_mentions_to_conll2012_as_extents(tmp_path: Path) -> None:
    files = sorted(p for p in NONCONTIG.glob("TC-*") if p.suffix in (".key", ".response"))
    assert files
    seen = 0
    for f in files:
        original = _quiet(read_corefud, f, lenient=True)
        parts = len(re.findall(r"\([^()]*\[1/\d+\]", f.read_text(encoding="utf-8")))
        export = _quiet(export_from_corpus, original, "a")
        out = io.StringIO()
        with Ledger() as ledger:
            write_conll2012(export.documents, out)
        said = sum(n.count for n in ledger.notices if "as their extent" in n.message)
        assert said == parts, f
        seen += said
        extents = [sorted(sorted(((m[0][0], m[-1][1]),) for m in c) for c in d.clusters())
                   for d in original.documents.values()]
        assert _clusters(parse_conll(out.getvalue().splitlines())) == extents, f
    assert seen > 0


def _perl(key: Path, response: Path) -> list[str] | None:
    """The official scorer's counts for every metric (its lines that name no file); None
    when it refuses to score."""
    run = subprocess.run([shutil.which("perl") or "perl", os.environ["CLUSTERAGREE_PERL_SCORER"],
                          "all", str(key), str(response), "none"], capture_output=True,
                         text=True, check=False, timeout=120)
    if run.returncode:
        return None
    return [line for line in run.stdout.splitlines()
            if line.startswith(("METRIC", "Coreference", "Identification"))]


@needs
@pytest.mark.skipif(not os.environ.get("CLUSTERAGREE_PERL_SCORER"),
                    reason="CLUSTERAGREE_PERL_SCORER names no scorer.pl")
def test_the_official_scorer_scores_written_files_as_the_originals(tmp_path: Path) -> None:
    """Every key and response of the official test cases, written by write_conll2012: the
    official scorer (v8.01) gives the same counts for every metric as on the original files,
    and a written key scores 100 against itself. (TC-A-9.response repeats more than ten
    mentions: the scorer refuses it; read leniently, the first of each is kept, as the scorer
    does for fewer repeats, and the written file is scored.)"""
    pairs, refused = 0, []
    for key in sorted(DATA.glob("TC-*.key")):
        written = {}
        for f in [key, *sorted(DATA.glob(key.stem + "-*.response"))]:
            original = _quiet(read_conll, f, lenient=True)
            written[f] = _written(tmp_path, f.name, write_conll2012,
                                  _quiet(export_from_corpus, original, "a").documents)
        self_score = _perl(written[key], written[key]) or []
        counts = [m.groups() for line in self_score
                  for m in re.finditer(r"\((\d+) / (\d+)\)", line)]
        assert counts and all(a == b for a, b in counts), key  # recall = precision = 1
        for response in list(written)[1:]:
            expected = _perl(key, response)
            if expected is None:
                refused.append(response.name)
                continue
            assert _perl(written[key], written[response]) == expected, response
            pairs += 1
    assert pairs == 35 and refused == ["TC-A-9.response"]


@needs
@pytest.mark.skipif(not os.environ.get("CLUSTERAGREE_PERL_SCORER"),
                    reason="CLUSTERAGREE_PERL_SCORER names no scorer.pl")
def test_brat_written_as_conll2012_scores_as_the_brat_itself(tmp_path: Path) -> None:
    """The two annotators of participant-analysis (BRAT, sub-word mentions), written as
    CoNLL-2012 on shared tokens: the official scorer's MUC and B-cubed counts are those
    clusteragree computes on the BRAT directories themselves."""
    from clusteragree.coref.scoring import coref_metrics
    corpora = [_quiet(read_brat_dir, PARTICIPANTS / a, PARTICIPANTS / "text") for a in "AB"]
    docs = [d for a, c in zip("AB", corpora, strict=True)
            for d in _quiet(export_from_corpus, c, a).documents]
    files = [_written(tmp_path, f"{a}.conll", write_conll2012,
                      [d for d in docs if d.annotator == a], tokens_from=docs) for a in "AB"]
    ours = _quiet(coref_metrics, corpora, ["muc", "bcub"], coders=["A", "B"])
    lines = [line for line in _perl(*files) or [] if line.startswith("Coreference:")]
    for metric, line in zip(("muc", "bcub"), lines[:2], strict=True):
        row = ours[(ours["key"] == "A") & (ours["metric"] == metric)].iloc[0]
        found = [float(x) for x in re.findall(r"\(([0-9.]+) / ([0-9.]+)\)", line)[0]]
        assert found[0] == pytest.approx(row["recall_num"]) and found[1] == row["recall_den"]


# (b) exports built here ------------------------------------------------------------------------

TEXT = "Zoë 👩🏽‍🔬 met Jose\u0301 at the café. She said: «he is late».\nThe cafe\u0301 closed."


def _at(word: str, start: int = 0) -> tuple[int, int]:
    k = TEXT.index(word, start)
    return k, k + len(word)


def _export() -> Export:
    """Two annotators of one text with emoji and combining accents; no tokens; a
    discontinuous mention ("The ... closed"); chains made of relations (ann) and the export's
    own chains with a span in none (bob)."""
    zoe, sci, jose = _at("Zoë"), _at("👩🏽‍🔬"), _at("Jose\u0301")
    cafe, she, he = _at("café"), _at("She"), _at("he", TEXT.index("«"))
    the, closed = _at("The"), _at("closed")
    spans_a = (Span("1", *zoe, "m", "PER"), Span("2", *sci, "m", "PER"),
               Span("3", *jose, "m", "PER"), Span("4", *cafe, "m", "LOC"),
               Span("5", *she, "m", "PER"), Span("6", *he, "m", "PER"),
               Span("7", the[0], closed[1], "m", "LOC", fragments=(the, closed)))
    a = AnnotatedDocument("doc 1", "ann", TEXT, spans=spans_a, relations=(
        Relation("5", "1", "coref", None), Relation("2", "1", "coref", None),
        Relation("6", "3", "coref", None), Relation("7", "4", "coref", None)),
        labels=(DocumentLabel("topic", "meeting"), DocumentLabel("tone", "calm")),
        tool="label-studio")
    b = AnnotatedDocument("doc 1", "bob", TEXT, spans=spans_a[:6], chains=(
        Chain("x", "k", ("1", "5", "6")), Chain("y", "k", ("3",)), Chain("z", "k", ("4",))),
        labels=(DocumentLabel("topic", "meeting"), DocumentLabel("topic", "food")),
        tool="inception")
    return Export((a, b), "built.json", "test")


#: The chains each annotator means, by span id, written out by hand (bob's span 2 is in no
#: chain: a singleton).
MEANT = {"ann": [["1", "2", "5"], ["3", "6"], ["4", "7"]],
         "bob": [["1", "5", "6"], ["3"], ["4"], ["2"]]}


def _want(doc: AnnotatedDocument, extent: bool = False) -> list:
    """The meant chains as sorted surfaces without spaces (a discontinuous span: its parts,
    or with ``extent`` everything from its first character to its last)."""
    by_id = {s.id: s for s in doc.spans}

    def surface(sp: Span) -> str:
        if extent:
            return "".join(TEXT[sp.start:sp.end].split())
        return "".join(TEXT[s:e] for s, e in sp.parts)
    return sorted(sorted(surface(by_id[i]) for i in g) for g in MEANT[doc.annotator])


def _got(doc) -> list:
    return sorted(sorted("".join("".join(doc.tokens[s:e]) for s, e in m).replace(" ", "")
                         .replace("\n", "") for m in c) for c in doc.clusters())


@pytest.mark.parametrize("fmt", ["conll2012", "corefud", "brat"])
def test_built_exports_round_trip_through_each_writer(tmp_path: Path, fmt: str) -> None:
    export = _export()
    for doc in export.documents:
        if fmt == "brat":
            _quiet(write_brat, [doc], tmp_path / doc.annotator)
            back = _quiet(read_brat_dir, tmp_path / doc.annotator).documents["doc_1"]
            assert "".join(back.tokens) == TEXT
            parts = sorted(m.spans for m in back.mentions)
            assert parts == sorted(tuple(sp.parts) for sp in doc.spans)  # code points kept
        else:
            write = write_conll2012 if fmt == "conll2012" else write_corefud
            path = _written(tmp_path, f"{doc.annotator}.x", write, [doc],
                            tokens_from=export.documents)
            (back,) = (read_conll(path) if fmt == "conll2012" else
                       read_corefud(path)).documents.values()
        assert _got(back) == _want(doc, extent=fmt == "conll2012"), (fmt, doc.annotator)


def test_the_adapter_and_the_conll_writer_agree(tmp_path: Path) -> None:
    export = _export()
    corpora = _quiet(corpora_from_export, export)
    assert list(corpora) == ["ann", "bob"]
    for annotator, corpus in corpora.items():
        mine = [d for d in export.documents if d.annotator == annotator]
        back = read_conll(_written(tmp_path, "a.conll", write_conll2012, mine,
                                   tokens_from=export.documents, discontinuous="extent"))
        (doc,) = corpus.documents.values()
        (read,) = back.documents.values()
        assert doc.tokens == read.tokens
        extents = sorted(sorted(((m[0][0], m[-1][1]),) for m in c) for c in doc.clusters())
        assert sorted(sorted(c) for c in read.clusters()) == extents
    # both annotators' documents have the same tokens (one tokenisation of the text)
    assert corpora["ann"].documents["doc 1"].tokens == corpora["bob"].documents["doc 1"].tokens


def test_codings_csv_is_what_table_reads() -> None:
    out = io.StringIO()
    done = _quiet(write_codings_csv, _export().documents, out)
    assert done.rows == 3  # ann: topic, tone; bob: topic (his tone is missing)
    table = read_long_table(io.StringIO(out.getvalue()), path="codings.csv")
    topic = table.tables["topic"]
    assert topic.value("ann", "doc 1") == frozenset({"meeting"})
    assert topic.value("bob", "doc 1") == frozenset({"meeting", "food"})
    with pytest.raises(InputError, match="holds the separator"):
        write_codings_csv([AnnotatedDocument("d", "a", None,
                                             labels=(DocumentLabel("t", "a;b"),))], io.StringIO())


def test_what_a_format_cannot_hold_is_said_and_strict_refuses_it(tmp_path: Path) -> None:
    export = _export()
    ann = [d for d in export.documents if d.annotator == "ann"]
    with Ledger() as ledger:
        write_conll2012(ann, io.StringIO(), discontinuous="drop")
    kinds = {(n.kind, n.count) for n in ledger.notices if "discontinuous" in n.message}
    assert kinds == {("skipped", 1)}
    with Ledger() as ledger:
        write_brat(ann, tmp_path / "b")
    assert any(n.kind == "ignored" and n.count == 2 and "document labels" in n.message
               for n in ledger.notices)
    with strict(), pytest.raises(InputError, match="extent"):
        write_conll2012(ann, io.StringIO())


def test_ambiguous_layers_are_refused_naming_the_option() -> None:
    doc = AnnotatedDocument("d", "a", "x y", spans=(Span("1", 0, 1, "ne", None),
                                                   Span("2", 2, 3, "pos", None)))
    with pytest.raises(ParameterError, match="layer"):
        write_conll2012([doc], io.StringIO())
    out = io.StringIO()
    _quiet(write_conll2012, [doc], out, layer="pos")
    assert "(1)" in out.getvalue() and out.getvalue().count("(1)") == 1


# Hypothesis: random documents on tokens -> CoNLL-2012 -> parse_conll ---------------------------

@st.composite
def _documents(draw):
    n = draw(st.integers(1, 12))
    words = [draw(st.sampled_from(["a", "bb", "é", "😀", "x\u0301"])) for _ in range(n)]
    text = " ".join(words)
    starts = [sum(len(w) + 1 for w in words[:k]) for k in range(n)]
    spans = []
    for _ in range(draw(st.integers(0, 8))):
        s = draw(st.integers(0, n - 1))
        e = draw(st.integers(s + 1, n))
        spans.append((s, e, draw(st.integers(0, 3))))
    # CoNLL cannot tell two mentions of one span apart, nor hold two crossing mentions of one
    # chain (brackets): such documents are left out
    keys = [(s, e) for s, e, _ in spans]
    if len(set(keys)) != len(keys):
        return None
    for s1, e1, c1 in spans:
        for s2, e2, c2 in spans:
            if c1 == c2 and s1 < s2 < e1 < e2:
                return None
    marks = tuple(Span(str(k), starts[s], starts[e - 1] + len(words[e - 1]), "m", None)
                  for k, (s, e, _) in enumerate(spans))
    chains = {}
    for k, (_, _, c) in enumerate(spans):
        chains.setdefault(c, []).append(str(k))
    doc = AnnotatedDocument("d", "a", text, tokens=tuple(
        (starts[k], starts[k] + len(words[k])) for k in range(n)), spans=marks,
        chains=tuple(Chain(str(c), "k", tuple(ids)) for c, ids in chains.items()))
    want = sorted(sorted(((s, e),) for s, e, cc in spans if cc == c) for c in chains)
    return doc, want


@settings(max_examples=150, deadline=None)
@given(_documents())
def test_random_documents_keep_their_clusters_through_conll2012(case) -> None:
    if case is None:
        return
    doc, want = case
    out = io.StringIO()
    _quiet(write_conll2012, [doc], out)
    corpus = parse_conll(out.getvalue().splitlines())
    got = [sorted(sorted(c) for c in d.clusters()) for d in corpus.documents.values()]
    assert got == [want]


# The command line --------------------------------------------------------------------------------

@needs
def test_convert_writes_one_file_per_annotator_and_refuses_to_overwrite(tmp_path: Path,
                                                                         cli) -> None:
    key, response = DATA / "TC-A.key", DATA / "TC-A-1.response"
    out = tmp_path / "out"
    code, stdout, err = cli("convert", str(key), str(response), "-f", "conll2012", "-o",
                            str(out), "--names", "k,r")
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["k.conll", "r.conll"]
    assert "k.conll" in stdout
    assert _clusters(read_conll(out / "k.conll")) == _clusters(read_conll(key))
    code, _, err = cli("convert", str(key), "-f", "conll2012", "-o", str(out), "--names", "k")
    assert code == 1 and "already there" in err and "--force" in err
    code, _, err = cli("convert", str(key), "-f", "conll2012", "-o", str(out), "--names",
                       "k", "--force")
    assert code == 0, err
    code, _, err = cli("convert", str(key), "-f", "corefud", "-o", str(out), "--sep", "|")
    assert code == 0 and "unused: --sep acts on csv output" in err


@needs
def test_convert_summary_json_follows_the_schema(tmp_path: Path, cli) -> None:
    import jsonschema
    schema = json.loads((Path(__file__).resolve().parent.parent / "docs" / "schema"
                         / "clusteragree-1.json").read_text())
    code, stdout, err = cli("convert", str(PARTICIPANTS / "A"), str(PARTICIPANTS / "B"),
                            "--text-dir", str(PARTICIPANTS / "text"), "-f", "corefud", "-o",
                            str(tmp_path), "--summary", "json")
    assert code == 0, err
    obj = json.loads(stdout)
    jsonschema.validate(obj, schema)
    assert [r["mentions"] for r in obj["results"]] == [1438 + 117, 1438 + 136]
    assert "warning:" not in err  # the warnings are in the JSON
    code, _, err = cli("coref", str(tmp_path / "A.conllu"), str(tmp_path / "B.conllu"),
                       "--metrics", "muc")
    assert code == 0, err


def test_convert_csv_is_read_by_table(tmp_path: Path, cli, monkeypatch) -> None:
    import clusteragree.cli.convert as convert
    export = _export()
    monkeypatch.setattr(convert, "input_kind", lambda path, chosen: "test")
    monkeypatch.setattr(convert, "read_export_inputs",
                        lambda paths, kinds, args: dict.fromkeys(range(len(paths)), export))
    code, _, err = cli("convert", "built.json", "-f", "csv", "-o", str(tmp_path),
                       "--unlabelled", "empty")
    assert code == 0, err
    text = (tmp_path / "codings.csv").read_text(encoding="utf-8")
    assert text.splitlines()[0] == "coder,unit,labels,document"
    code, out, err = cli("table", str(tmp_path / "codings.csv"), "-f", "json")
    assert code == 0, err
    assert {r["document"] for r in json.loads(out)["results"] if r["kind"] == "alpha"} >= {
        "topic", "tone"}
