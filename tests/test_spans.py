"""The spans domain: readers (span tables, pygamma CSV, BRAT), the span corpus, coreference
mentions and pyramid contributors as spans, and ``clusteragree spans`` end to end.

Expected values are worked out by hand in the comments (the fixture corpora_fixtures/spans is
small enough to count), or come from the corpora's own documentation (the participant-analysis
SOURCES.md counts of shared and one-sided mentions)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from clusteragree.core.spans import span_corpus
from clusteragree.errors import InputError, InputWarning, ParameterError
from clusteragree.spans import read_brat_spans, read_pygamma_csv, read_span_table, read_spans
from clusteragree.spans.agreement import span_agreement, unitizing_rows
from clusteragree.spans.measures import flat_spans

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "corpora_fixtures"
NER = FIX / "spans"
SHARED = ROOT.parent / "shared" / "corpora"
PA = SHARED / "coref-multi-annotator" / "participant-analysis"
DUC = SHARED / "duc-pyramids" / "DUC2006" / "DUC2006pyramiddata"


def _ner(**kw):
    return read_spans([NER / "ner.csv"], "spans-csv", text_dir=NER / "text", **kw)


def _micro(frame, rule):
    row = frame[(frame["document"] == "TOTAL") & (frame["rule"] == rule)
                & (frame["average"] == "micro")]
    return row


# --- readers ---------------------------------------------------------------------------------

def test_span_table_reads_every_column(tmp_path: Path) -> None:
    p = tmp_path / "s.tsv"
    p.write_text("label\tend\tstart\tdocument\tannotator\tsure\nPER\t4\t0\td\tA\tyes\n")
    frame = read_span_table(p)
    assert frame[["annotator", "document", "start", "end", "label", "sure"]].values.tolist() \
        == [["A", "d", 0.0, 4.0, "PER", "yes"]]
    assert frame["line"].tolist() == [2]


@pytest.mark.parametrize(("text", "line", "words"), [
    ("annotator,document,start\nA,d,0\n", 1, r"lacks the column\(s\) end"),
    ("annotator,document,start,end\nA,d,0\n", 2, "3 fields where the header has 4"),
    ("annotator,document,start,end\nA,d,0,x\n", 2, "not a number"),
    ("annotator,document,start,end,label\nA,d,0,1,\n", 2, "the label is empty"),
    ("annotator,document,start,end\n,d,0,1\n", 2, "the annotator is empty"),
    ("annotator,document,document,start,end\n", 1, "names 'document' twice"),
    ("", 1, "the file is empty"),
])
def test_span_table_refuses_with_file_and_line(tmp_path: Path, text: str, line: int,
                                               words: str) -> None:
    p = tmp_path / "bad.csv"
    p.write_text(text)
    with pytest.raises(InputError, match=words) as err:
        read_span_table(p)
    assert err.value.line == line and err.value.path == str(p)


def test_span_table_annotator_named_twice_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "a.csv"
    p.write_text("annotator,document,start,end\nA,d,0,1\n")
    with pytest.raises(ParameterError, match=r"names them too"):
        read_span_table(p, annotator="X")
    q = tmp_path / "b.csv"
    q.write_text("document,start,end\nd,0,1\n")
    with pytest.raises(InputError, match="no annotator column"):
        read_span_table(q)
    assert read_span_table(q, annotator="X")["annotator"].tolist() == ["X"]


def test_one_file_per_annotator_and_an_annotator_who_marked_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text("document,start,end,label\nd,0,4,PER\nd,6,8,LOC\n")
    (tmp_path / "b.csv").write_text("document,start,end,label\n")  # marked nothing
    corpus = read_spans([tmp_path / "a.csv", tmp_path / "b.csv"], "spans-csv",
                        lengths={"d": 10})
    assert corpus.annotators == ("a.csv", "b.csv") and corpus.n_spans == 2
    with pytest.warns(Warning):
        r = span_agreement(corpus, ["f1", "tokens", "ualpha"])
    # F1 = 2 tp / (n_a + n_b) = 0 / 2: one annotator marking nothing disagrees completely
    assert _micro(r.f1, "exact")["f1"].tolist() == [0.0]
    # unitizing alpha is not 1 (a bug users report elsewhere): B's gap covers A's units
    overall = r.unitizing[r.unitizing["category"].isna()]["alpha"].iloc[0]
    assert overall < 0


def test_pygamma_csv_is_one_document_per_file() -> None:
    frame = read_pygamma_csv(FIX / "gamma" / "AlexPaulSuzan.csv")
    assert set(frame["document"]) == {"AlexPaulSuzan"}
    assert frame.groupby("annotator").size().to_dict() == {"Alex": 6, "Paul": 4, "Suzan": 6}


def test_brat_entities_types_attributes_fragments(tmp_path: Path) -> None:
    (tmp_path / "d.txt").write_text("Mary met John in Rome.")
    (tmp_path / "d.ann").write_text(
        "T1\tPER 0 4\tMary\nT2\tPER 9 13\tJohn\nT3\tLOC 17 21\tRome\n"
        "T4\tEVT 0 4;5 8\tMary met\nA1\tNeg T2\nM2\tConf T3 High\nR1\tRel Arg1:T1 Arg2:T2\n"
        "#1\tAnnotatorNotes T1\tnote\n")
    with pytest.warns(InputWarning) as seen:
        spans, texts = read_brat_spans(tmp_path, "A")
    kinds = {w.message.notice.kind for w in seen}
    assert kinds == {"ignored", "note"}  # relations and notes; the discontinuous T4
    assert spans[["start", "end", "label"]].values.tolist() == [
        [0, 4, "PER"], [9, 13, "PER"], [17, 21, "LOC"], [0, 8, "EVT"]]
    assert spans["Neg"].tolist() == [None, True, None, None]
    assert spans["Conf"].tolist() == [None, None, "High", None]
    assert texts == {"d": "Mary met John in Rome."}
    parts, _ = read_brat_spans(tmp_path, "A", fragments="parts", types=["EVT"])
    assert parts[["start", "end", "id"]].values.tolist() == [[0, 4, "T4"], [5, 8, "T4"]]


@pytest.mark.parametrize(("ann", "words"), [
    ("T1\tPER 0 40\tMary\n", "outside the text"),
    ("T1\tPER 0 4\tJohn\n", "says 'John'"),
    ("T1\tPER 0 4\tMary\nT1\tPER 0 4\tMary\n", "defined twice"),
    ("A1\tNeg T9\n", "not a text-bound annotation"),
    ("X1\twhat\n", "BRAT does not define"),
])
def test_brat_refuses_with_file_and_line(tmp_path: Path, ann: str, words: str) -> None:
    (tmp_path / "d.txt").write_text("Mary met John.")
    (tmp_path / "d.ann").write_text(ann)
    with pytest.raises(InputError, match=words) as err:
        read_brat_spans(tmp_path, "A")
    assert err.value.path == str(tmp_path / "d.ann") and err.value.line is not None


def test_brat_documents_not_every_annotator_has_are_skipped(tmp_path: Path) -> None:
    for who, docs in (("A", ("d1", "d2")), ("B", ("d1",))):
        (tmp_path / who).mkdir()
        for d in docs:
            (tmp_path / who / f"{d}.txt").write_text("Mary met John.")
            (tmp_path / who / f"{d}.ann").write_text("T1\tPER 0 4\tMary\n")
    with pytest.warns(InputWarning, match="not every annotator has"):
        corpus = read_spans([tmp_path / "A", tmp_path / "B"], "brat")
    assert corpus.documents == ("d1",) and corpus.annotators == ("A", "B")
    (tmp_path / "B" / "d1.txt").write_text("Mary met Jack.")
    with pytest.raises(InputError, match="differs between A and B from character 10"):
        read_spans([tmp_path / "A", tmp_path / "B"], "brat")


# --- the corpus ------------------------------------------------------------------------------

def test_span_corpus_checks() -> None:
    with pytest.raises(ParameterError, match="two or more annotators"):
        span_corpus([("A", "d", 0, 1, "x")])
    with pytest.raises(InputError, match="past the document's end"):
        span_corpus([("A", "d", 0, 11, "x"), ("B", "d", 0, 1, "x")], lengths={"d": 10})
    with pytest.raises(InputError, match="not among the annotators"):
        span_corpus([("A", "d", 0, 1, "x"), ("C", "d", 0, 1, "x")], annotators=["A", "B"])
    with pytest.raises(InputError, match="not a number"):
        span_corpus([("A", "d", 0, "x", "x"), ("B", "d", 0, 1, "x")])
    c = span_corpus([("A", "d", 2, 2, "x"), ("B", "d", 0, 1, "x")])
    with pytest.warns(InputWarning, match="zero-length"):
        assert c.nonempty("F1").n_spans == 1


# --- measures on the fixture, by hand ---------------------------------------------------------

def test_f1_on_the_fixture_by_hand() -> None:
    # A: Mary PER, John Smith PER, Rome LOC | Bank of Italy ORG, Italy LOC, Milan LOC (6)
    # B: John PER, Rome LOC, Monday DATE | The Bank of Italy ORG, Milan ORG (5)
    # C: Mary PER, John Smith PER, Rome LOC (3)
    # exact: A-B 1 (Rome), A-C 3, B-C 1 (Rome): F1 2/11, 6/9, 2/8
    # overlap, same label: A-B 3 (John, Rome, Bank), A-C 3, B-C 2 (John, Rome): 6/11, 6/9, 4/8
    with pytest.warns(Warning):
        r = span_agreement(_ner(), ["f1"])
    exact = _micro(r.f1, "exact").iloc[0]
    overlap = _micro(r.f1, "overlap").iloc[0]
    assert exact["f1"] == pytest.approx((2 / 11 + 6 / 9 + 2 / 8) / 3)
    assert overlap["f1"] == pytest.approx((6 / 11 + 6 / 9 + 4 / 8) / 3)
    assert exact["pairs"] == 3 and exact["min"] == pytest.approx(2 / 11)


def test_token_spans_keep_one_span_per_position() -> None:
    with pytest.warns(InputWarning, match="overlap an earlier span"):
        kept = flat_spans(_ner(), "tokens")
    # A's "Italy" lies inside its "Bank of Italy": left out of the tags
    a = kept[kept["annotator"] == "A"]
    assert len(a) == 5 and not ((a["start"] == 12) & (a["end"] == 17)).any()


def test_unitizing_reproduces_krippendorff_2004() -> None:
    # Krippendorff (2004), p. 254: c 0.7286, k 1 (printed); over both 0.8587 exactly (the
    # printed 0.8591 comes from disagreements rounded to four decimals)
    units = [(0, 75, 145, "c"), (0, 220, 250, "c"), (1, 70, 150, "c"), (1, 205, 225, "c"),
             (1, 250, 270, "c"), (0, 30, 90, "k"), (0, 150, 200, "k"), (1, 30, 90, "k"),
             (1, 150, 200, "k")]
    c = span_corpus([(r, "p254", b, e, k) for r, b, e, k in units], lengths={"p254": 300})
    found = unitizing_rows(c).set_index(pd.Index(["c", "k", "all"]))["alpha"]
    assert round(found["c"], 4) == 0.7286 and found["k"] == 1.0
    assert round(found["all"], 4) == 0.8587


def test_identical_annotations_agree_perfectly() -> None:
    spans = [(a, "d", s, e, lab) for a in "AB" for s, e, lab in ((0, 4, "x"), (6, 9, "y"))]
    r = span_agreement(span_corpus(spans, lengths={"d": 12}))
    assert _micro(r.f1, "exact")["f1"].tolist() == [1.0]
    assert (r.tokens["value"] == 1.0).all()
    assert (r.unitizing["alpha"].dropna() == 1.0).all()
    assert r.gamma["value"].tolist() == [1.0] * 4  # gamma, gamma-cat, gamma-k of x and y


def test_no_shared_document() -> None:
    with pytest.warns(Warning):
        r = span_agreement(span_corpus([("A", "d1", 0, 4, "x"), ("B", "d2", 0, 4, "x")],
                                       lengths={"d1": 10, "d2": 10}), ["f1", "ualpha"])
    assert _micro(r.f1, "exact")["f1"].tolist() == [0.0]
    assert r.unitizing["alpha"].iloc[-1] < 0


def test_measures_needing_lengths_say_how() -> None:
    corpus = span_corpus([("A", "d", 0, 4, "x"), ("B", "d", 0, 4, "x")])
    with pytest.raises(InputError, match="lengths"):
        span_agreement(corpus, ["tokens"])
    with pytest.warns(InputWarning, match="not computed"):
        r = span_agreement(corpus)
    assert r.tokens is None and r.unitizing is None and r.f1 is not None


def test_alignment_rows_point_at_the_spans() -> None:
    r = span_agreement(_ner(), ["gamma"], precision=0.3)
    spans = _ner().spans
    found = r.alignment.dropna(subset=["span"])
    assert set(found["span"].astype(int)) == set(spans.index)  # every span once
    assert found["span"].is_unique
    for row in found.itertuples():
        assert spans.loc[int(row.span), "annotator"] == row.annotator
        assert spans.loc[int(row.span), "document"] == row.document


# --- other domains' inputs --------------------------------------------------------------------

def test_coref_mentions_as_spans(cli) -> None:
    files = [str(FIX / "coref" / f"annotator-{x}.conll") for x in "ab"]
    code, out, err = cli("spans", *files, "-f", "json", "--metrics", "f1", "--rules", "exact")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["meta"]["offsets"] == "tokens"
    labels = {r["label"] for r in obj["results"] if r["kind"] == "span_match" and r["label"]}
    assert labels == {"mention"}  # chain ids are never categories


def _corefud(path: Path, entities: list[str]) -> str:
    """A CorefUD document of one sentence, one token per ``Entity=`` value given."""
    lines = ["# newdoc id = d", "# global.Entity = eid-etype-head-other", "# sent_id = 1",
             "# text = " + " ".join(f"w{i}" for i in range(len(entities)))]
    for i, e in enumerate(entities, start=1):
        misc = f"Entity={e}" if e else "_"
        lines.append(f"{i}\tw{i}\tw\tX\t_\t_\t0\troot\t_\t{misc}")
    path.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    return str(path)


def test_corefud_entity_types_are_the_labels(cli, tmp_path: Path) -> None:
    """etype labels the mentions (chain ids never do): F1 per type counted by hand."""
    a = _corefud(tmp_path / "a.conllu", ["(e1-person-1)", "(e2-place-1)", "(e1-person-1)", ""])
    b = _corefud(tmp_path / "b.conllu", ["(e7-person-1)", "(e8-person-1)", "", "(e9--1)"])
    code, out, err = cli("spans", a, b, "-f", "json", "--metrics", "f1", "--rules", "exact")
    assert code == 0, err
    rows = [r for r in json.loads(out)["results"] if r["kind"] == "span_match_mean"
            or r["kind"] == "span_match"]
    f1 = {r["label"]: r["f1"] for r in rows if r.get("label") and r.get("document") is None}
    # person: a has w1, w3; b has w1, w2 -> one match: 2/(2+2); place: a w2, b none -> 0;
    # an entity without a type is a "mention": b's w4 alone -> 0
    assert f1["person"] == pytest.approx(0.5)
    assert f1["place"] == 0 and f1["mention"] == 0
    assert any("entity's type" in w["message"] for w in json.loads(out)["warnings"])


def test_corefud_entity_typed_twice_keeps_the_first(tmp_path: Path) -> None:
    from clusteragree.coref.corefud import read_corefud
    path = _corefud(tmp_path / "a.conllu", ["(e1-person-1)", "(e1-place-1)"])
    with pytest.warns(InputWarning, match="different types"):
        doc = read_corefud(path).documents["d"]
    assert doc.entity_types == (("e1", "person"),)


def test_pyramid_contributors_as_spans(cli) -> None:
    a, b = (str(FIX / "passonneau2006" / f"fig1-A{k}.pyr") for k in (1, 2))
    code, out, err = cli("spans", a, b, "-f", "json", "--metrics", "f1")
    assert code == 0, err
    labels = {r["label"] for r in json.loads(out)["results"]
              if r["kind"] == "span_match" and r["label"]}
    assert labels == {"contributor"}


# --- the command ------------------------------------------------------------------------------

def test_command_text_and_exit_codes(cli, tmp_path: Path) -> None:
    args = [str(NER / "ner.csv"), "--text-dir", str(NER / "text")]
    code, out, err = cli("spans", *args, "--metrics", "f1,tokens,ualpha")
    assert code == 0, err
    assert out.startswith("3 annotators, 2 documents, 14 spans (offsets in characters)")
    assert "Matching F1 (micro, mean over 3 pairs of annotators): exact 0.3662" in out
    code, _, err = cli("spans", str(NER / "ner.csv"), "--metrics", "tokens")
    assert code == 1 and "--lengths" in err
    bad = tmp_path / "x.txt"
    bad.write_text("hello\n")
    code, _, err = cli("spans", str(bad), str(bad))
    assert code == 1 and "--input-format" in err and "x.txt:1" in err
    code, _, err = cli("spans", str(NER / "ner.csv"), "--rules", "fuzzy")
    assert code == 2
    code, _, err = cli("spans", str(NER / "ner.csv"), "--names", "a,b,c")
    assert code == 1 and "--names" in err


def test_command_csv_tables(cli) -> None:
    args = [str(NER / "ner.csv"), "--lengths", str(NER / "lengths.csv")]
    code, out, err = cli("spans", *args, "-f", "csv", "--table", "unitizing", "--metrics",
                         "ualpha")
    assert code == 0, err
    assert out.splitlines()[0].startswith("coefficient,category,alpha,D_o,D_e")
    code, out, err = cli("spans", *args, "-f", "csv", "--table", "alignment", "--metrics", "f1")
    assert code == 2 and "--alignment" in err
    code, out, err = cli("spans", *args, "-f", "csv", "--table", "alignment", "--alignment",
                         "--metrics", "gamma", "--precision", "0.3")
    assert code == 0 and out.splitlines()[0] == "document,unitary,disorder,A,B,C"


def test_zero_length_spans_go_to_gamma_only(cli) -> None:
    code, out, err = cli("spans", str(FIX / "gamma" / "example_figure19.csv"), "-f", "json",
                         "--metrics", "f1,gamma")
    assert code == 0, err
    obj = json.loads(out)
    assert any(w["kind"] == "skipped" and "zero-length" in w["message"]
               for w in obj["warnings"]) or not any(
        r["kind"] == "aligned_unit" for r in obj["results"])


# --- real corpora (skipped without ../shared) ------------------------------------------------

needs_pa = pytest.mark.skipif(not PA.is_dir(), reason="../shared corpora absent")


@needs_pa
def test_participant_analysis_counts_match_its_documentation(cli) -> None:
    # SOURCES.md: 1,438 mention spans shared by A and B, 117 A-only and 136 B-only
    code, out, err = cli("spans", str(PA / "A"), str(PA / "B"), "--text-dir", str(PA / "text"),
                         "--metrics", "f1", "--rules", "exact", "-f", "json")
    assert code == 0, err
    row = next(r for r in json.loads(out)["results"] if r["kind"] == "span_match"
               and r["average"] == "micro")
    assert (row["tp"], row["n_reference"], row["n_other"]) == (1438, 1438 + 117, 1438 + 136)


@pytest.mark.skipif(not DUC.is_dir(), reason="../shared corpora absent")
def test_duc_peer_annotations_as_spans(cli) -> None:
    pans = sorted(str(p) for p in (DUC / "allpans").glob("*.D0631.*.pan"))
    code, out, err = cli("spans", *pans, "--metrics", "f1", "-f", "json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["meta"]["documents"] == 22 and obj["meta"]["annotators"] == ["114", "115"]
    # every contributor of the .pan files is a span: count them from the XML directly
    from lxml import etree
    marked = 0
    for p in pans:
        tree = etree.parse(p)
        marked += len(tree.findall(".//annotation//peerscu/contributor"))
    assert obj["meta"]["spans"] == marked


def test_spans_are_the_same_whatever_the_order_of_rows(tmp_path: Path) -> None:
    frame = pd.read_csv(NER / "ner.csv")
    shuffled = frame.sample(frac=1.0, random_state=3)
    shuffled.to_csv(tmp_path / "s.csv", index=False)
    with pytest.warns(Warning):
        a = span_agreement(_ner(), ["f1"]).f1
        b = span_agreement(read_spans([tmp_path / "s.csv"], "spans-csv",
                                      text_dir=NER / "text"), ["f1"]).f1
    key = ["rule", "label", "average"]
    merged = a.merge(b, on=key)
    assert np.allclose(merged["f1_x"], merged["f1_y"], equal_nan=True)


# --- intervals: a resample's value is the value of the resampled corpus -------------------------

def _random_corpus(seed: int, documents: int = 4):
    rng = np.random.default_rng(seed)
    rows, lengths = [], {}
    for d in range(documents):
        length = int(rng.integers(30, 60))
        lengths[f"d{d}"] = length
        for a in "ABC":
            pos = int(rng.integers(0, 4))
            while pos < length - 2:
                end = min(length, pos + int(rng.integers(1, 6)))
                rows.append((a, f"d{d}", pos, end, str(rng.choice(["x", "y"]))))
                pos = end + int(rng.integers(0, 8))
    return rows, lengths


@pytest.mark.parametrize("seed", [1, 2])
def test_a_resample_is_the_resampled_corpus(monkeypatch, seed: int) -> None:
    """The reweighted per-document statistics give what the whole computation gives on a
    corpus made of the drawn documents (document 0 twice, 1 not, 2 and 3 once)."""
    from clusteragree.spans import intervals

    rows, lengths = _random_corpus(seed)
    weights = np.array([2.0, 0.0, 1.0, 1.0])
    monkeypatch.setattr(intervals, "document_weights",
                        lambda docs, n, s: (np.vstack([weights, weights]), 1 - np.eye(docs)))
    measures = ["f1", "tokens", "ualpha", "ualpha2016"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = span_agreement(span_corpus(rows, lengths=lengths), measures, ci=0.9,
                               bootstrap=2, interval="percentile")
    drawn = [(a, f"{d}#{k}", s, e, lab) for d, times in (("d0", 2), ("d2", 1), ("d3", 1))
             for k in range(times) for a, doc, s, e, lab in rows if doc == d]
    sizes = {f"{d}#{k}": lengths[d] for d, times in (("d0", 2), ("d2", 1), ("d3", 1))
             for k in range(times)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        direct = span_agreement(span_corpus(drawn, lengths=sizes), measures)
    for name, value in (("f1", "f1"), ("f1_pairs", "f1"), ("tokens", "value"),
                        ("unitizing", "alpha")):
        mine, theirs = getattr(found, name), getattr(direct, name)
        rows_ci = mine[mine["ci_low"].notna()]
        assert len(rows_ci), name
        keys = [c for c in ("rule", "label", "average", "reference", "other", "subset",
                            "measure", "coefficient", "category") if c in mine]
        merged = rows_ci.merge(theirs[theirs["document"] == "TOTAL"], on=keys,
                               suffixes=("", "_direct"))
        assert len(merged) == len(rows_ci), name
        assert np.allclose(merged["ci_low"], merged[f"{value}_direct"], equal_nan=True), name
        assert np.allclose(merged["ci_high"], merged[f"{value}_direct"], equal_nan=True), name


@pytest.mark.parametrize(("a", "b", "c", "d"), [(40, 10, 6, 10), (3, 0, 2, 50), (7, 5, 5, 0)])
def test_hripcsak_rothschild_formulas(a: int, b: int, c: int, d: int) -> None:
    """Hripcsak & Rothschild (2005): F1 = 2a / (2a + b + c) and Cohen's kappa of the 2 x 2
    table 2(ad - bc) / ((a + c)(c + d) + (a + b)(b + d)), by the engines on spans of one
    position (scripts/reproduce_hripcsak2005.py prints the limit d -> infinity)."""
    from clusteragree.core.span_match import span_f1_pairs
    from clusteragree.core.span_tokens import token_agreement

    spans = [(x, "d", pos, pos + 1, "x")
             for pos, who in enumerate(["AB"] * a + ["A"] * b + ["B"] * c) for x in who]
    f1 = span_f1_pairs(spans, "exact").query("pooled and average == 'micro'").f1.iloc[0]
    assert f1 == pytest.approx(2 * a / (2 * a + b + c))
    kappa = token_agreement(spans, {"d": a + b + c + d}, scheme="io").query(
        "pooled and subset == 'all' and measure == 'cohen_kappa'").value.iloc[0]
    assert kappa == pytest.approx(2 * (a * d - b * c) / ((a + c) * (c + d) + (a + b) * (b + d)))
