"""Coreference: the CoNLL reader, the metrics (official scorer cases and cases by hand), alpha."""

from __future__ import annotations

import json
import math
import warnings
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest
from reference import SET_DISTANCES, brute_alpha

from clusteragree import alpha, alpha_many
from clusteragree.cli import main
from clusteragree.coref import (
    add,
    coref_alpha,
    coref_metrics,
    coref_tables,
    parse_conll,
    read_conll,
    score,
)
from clusteragree.errors import InputError, InputWarning, strict

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "corpora_fixtures" / "coref"
SCORER = ROOT.parent / "shared" / "corpora" / "coref-scorer-tests" / "reference-scorer"
needs_shared = pytest.mark.skipif(not SCORER.is_dir(), reason="../shared/corpora absent")


def _corpora():
    return [read_conll(FIX / "annotator-a.conll"), read_conll(FIX / "annotator-b.conll")]


def test_reader_spans_nesting_and_close_open_on_one_token() -> None:
    a, b = _corpora()
    assert list(a.documents) == ["(d1); part 000", "(d1); part 001"]
    d0 = a.documents["(d1); part 000"]
    assert d0.tokens[:3] == ("Mary", "said", "her")
    assert {e: [m.spans for m in ms] for e, ms in d0.chains.items()} == {
        "1": [((0, 1),), ((2, 4),)], "2": [((5, 6),), ((7, 8),)], "3": [((6, 7),)]}
    d1 = a.documents["(d1); part 001"]
    assert [(m.spans, m.entity) for m in d1.mentions] == [
        (((0, 2),), "1"), (((1, 3),), "1"), (((3, 7),), "2"), (((3, 6),), "2")]
    assert [m.spans for m in b.documents["(d1); part 001"].mentions][2:] == [((3, 7),),
                                                                         ((3, 6),)]


def test_metrics_by_hand() -> None:
    a, b = _corpora()
    got = score(a.documents["(d1); part 000"].clusters(), b.documents["(d1); part 000"].clusters())
    expect = {"muc": (Fraction(1, 2), Fraction(1, 2)), "bcub": (Fraction(3, 5), Fraction(2, 3)),
              "ceafm": (Fraction(3, 5), Fraction(3, 4)),
              "ceafe": (Fraction(22, 45), Fraction(11, 15)),
              "lea": (Fraction(2, 5), Fraction(1, 4)), "blanc": (Fraction(3, 8), Fraction(1, 2))}
    for metric, (r, p) in expect.items():
        rec, prec, f1 = got[metric].rpf
        assert (rec, prec) == (pytest.approx(float(r)), pytest.approx(float(p)))
        if metric != "blanc":
            assert f1 == pytest.approx(float(2 * r * p / (r + p)))
    assert got["blanc"].rpf[2] == pytest.approx(21 / 55)
    # Exchanging key and response exchanges recall and precision.
    back = score(b.documents["(d1); part 000"].clusters(), a.documents["(d1); part 000"].clusters())
    for metric in expect:
        assert back[metric].rpf[:2] == pytest.approx(got[metric].rpf[1::-1])


def _official(name: str) -> list[dict]:
    return json.loads((SCORER / "expected" / name).read_text())


def _score_files(key_path: Path, response_path: Path) -> dict:
    key, resp = read_conll(key_path, lenient=True), read_conll(response_path, lenient=True)
    total: dict = {}
    for name, doc in key.documents.items():
        other = resp.documents.get(name)
        total = add(total, score(doc.clusters(), other.clusters() if other else []))
    return total


@needs_shared
@pytest.mark.parametrize("file", ["expected_metrics_from_CorefMetricTestConfig.json",
                                  "expected_metrics_LEA-scorer-branch.json"])
def test_official_scorer_test_cases(file: str) -> None:
    cases = _official(file)
    assert len(cases) in (36, 34)
    for case in cases:
        total = _score_files(SCORER / "test" / case["key_file"],
                             SCORER / "test" / case["response_file"])
        for metric, expected in case["expected_metrics"].items():
            got = total[metric].rpf
            # The official test's tolerance: |dR| + |dP| + |dF| < 1e-4.
            assert sum(abs(g - e) for g, e in zip(got, expected, strict=True)) < 1e-4, (
                case["id"], metric, got, expected)


@needs_shared
def test_official_scorer_raw_counts() -> None:
    raw = json.loads((SCORER / "expected" / "perl_scorer_v8.01_outputs.json").read_text())
    lea = json.loads((SCORER / "expected" / "perl_scorer_LEA-branch_lea_outputs.json").read_text())
    assert len(raw) == 36
    for case_id, case in raw.items():
        d = SCORER / "test" / "DataFiles"
        total = _score_files(d / case["key"], d / case["response"])
        for metric in ("muc", "bcub", "ceafm", "ceafe"):
            want = case["scores"][metric]["Coreference"]
            got = total[metric]
            assert (got.recall_num, got.recall_den, got.precision_num, got.precision_den) == (
                pytest.approx(want["recall_num"]), pytest.approx(want["recall_den"]),
                pytest.approx(want["precision_num"]), pytest.approx(want["precision_den"])), (
                case_id, metric)
        links = case["scores"]["blanc"]
        b = total["blanc"]
        assert (b.c_both, b.c_key, b.c_resp) == (
            links["Coreference links"]["recall_num"], links["Coreference links"]["recall_den"],
            links["Coreference links"]["precision_den"])
        assert (b.n_both, b.n_key, b.n_resp) == (
            links["Non-coreference links"]["recall_num"],
            links["Non-coreference links"]["recall_den"],
            links["Non-coreference links"]["precision_den"])
        ident = case["scores"]["muc"]["Identification of Mentions"]
        got_m = total["mentions"]
        assert (got_m.recall_num, got_m.recall_den, got_m.precision_num,
                got_m.precision_den) == (
            pytest.approx(ident["recall_num"]), pytest.approx(ident["recall_den"]),
            pytest.approx(ident["precision_num"]), pytest.approx(ident["precision_den"])), (
            case_id, "mentions")
        want = lea[case_id]
        got = total["lea"]
        assert got.recall_num == pytest.approx(want["recall_num"]) and (
            got.precision_num == pytest.approx(want["precision_num"])), case_id


# ---------------------------------------------------------------------------- malformed input
BAD = [
    ("#begin document (x); part 000\nx 0 0 a 1)\n#end document\n", 2,
     "entity 1 closes here ('1)') but no mention of it is open"),
    ("#begin document (x); part 000\nx 0 0 a (1\n#end document\n", 3,
     "document (x); part 000: 1 mention(s) still open at #end document, the first of entity 1 "
     "opened at line 2"),
    ("#begin document (x); part 000\nx 0 0 a (1)\n", 2,
     "document (x); part 000 (line 1) has no #end document"),
    ("#begin document (x); part 000\nx 0 0 a (p1)\n#end document\n", 2,
     "coreference cell '(p1)' has a non-numeric entity id at '(p1)'"),
    ("#begin document (x); part 000\nx 0 0 a (1)\n# note (5)\n#end document\n", 3,
     "comment line inside document (x); part 000"),
    ("#begin document (x); part 000\nx 0 0 a (1)|(2)\n#end document\n", 2,
     "document (x); part 000: the mention at tokens 0-0 is marked twice (entity 1, line 2, and "
     "entity 2)"),
    ("#begin document (x); part 000\nx 0 0 a -\n#begin document (y); part 000\n", 3,
     "#begin document inside document (x); part 000"),
    ("#begin document (x); part 000\nx 0 0 a -\n#end document\n#begin document (x); part 000\n"
     "x 0 0 a -\n#end document\n", 4, "document (x); part 000 occurs twice in the file (first "
                                       "at line 1)"),
]


@pytest.mark.parametrize(("text", "line", "message"), BAD)
def test_malformed_input_names_file_and_line(tmp_path: Path, text: str, line: int,
                                             message: str) -> None:
    path = tmp_path / "bad.conll"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        read_conll(path)
    assert str(err.value).startswith(f"{path}:{line}: {message}")


def test_lenient_repairs_are_counted() -> None:
    text = ("#begin document (x); part 000\nx 0 0 a (1)|(2)\nx 0 1 b 3)\n# note\nx 0 2 c (4\n"
            "#end document\n#begin document (y); part 000\ny 0 0 a (7)\n")
    corpus = parse_conll(text.splitlines(), "t.conll", lenient=True)
    assert corpus.repairs == {
        "repeated mentions removed (first kept)": 1, "closes without an open ignored": 1,
        "comment lines inside documents skipped": 1, "unclosed mentions dropped": 1,
        "missing #end document supplied": 1}
    assert [m.entity for m in corpus.documents["(x); part 000"].mentions] == ["1"]


def test_documents_and_tokens_must_match(tmp_path: Path) -> None:
    a = tmp_path / "a.conll"
    b = tmp_path / "b.conll"
    a.write_text("#begin document (x); part 000\nx 0 0 cat (1)\nx 0 1 sat -\n#end document\n"
                 "#begin document (z); part 000\nz 0 0 a -\n#end document\n")
    b.write_text("#begin document (x); part 000\nx 0 0 cat (1)\nx 0 1 sit -\n#end document\n")
    corpora = [read_conll(a), read_conll(b)]
    with pytest.raises(InputError, match=r"document \(z\); part 000 is in .*a.conll but not in"):
        coref_tables(corpora)
    # Tokens written differently are compared by position (as the reference scorer does),
    # reported as a mismatch, and refused under strict reading.
    c = tmp_path / "c.conll"
    c.write_text("#begin document (x); part 000\nx 0 0 cat (1)\nx 0 1 sat -\n#end document\n")
    same_docs = [read_conll(c), read_conll(b)]
    with strict(), pytest.raises(InputError, match=r"b.conll:3: .*document \(x\); part 000: "
                                 r"tokens written differently .*token 1, 'sit' here, 'sat'"):
        coref_tables(same_docs)
    with pytest.warns(InputWarning, match="mismatch"):
        coref_tables(same_docs)


# ---------------------------------------------------------------------------- alpha
def _cells(table) -> dict:
    return {(c, u): v for c, u, v in table.records()}


@pytest.mark.parametrize("units", ["mentions", "words"])
@pytest.mark.parametrize("unmarked", ["empty", "missing"])
def test_alpha_equals_brute_force_and_generic_engine(units: str, unmarked: str) -> None:
    tables = coref_tables(_corpora(), units=units, unmarked=unmarked)
    for table in tables.values():
        assert table.is_class_derived
        for name in ("nominal", "jaccard", "masi"):
            ref = brute_alpha(_cells(table), SET_DISTANCES[name])
            fast, slow = alpha(table, name), alpha(table, name, engine="generic")
            assert fast.engine == "classes"
            if ref is None:
                assert math.isnan(fast.alpha)
                continue
            assert fast.D_o == pytest.approx(float(ref[0]))
            assert fast.D_e == pytest.approx(float(ref[1]))
            assert (math.isnan(fast.alpha) and math.isnan(slow.alpha)) or (
                fast.alpha == pytest.approx(slow.alpha))


def test_mention_values_by_hand() -> None:
    table = coref_tables(_corpora(), coders=["A", "B"])["(d1); part 000"]
    # Units: the union of mentions in span order: Mary, her brother, John, it, he.
    assert table.value("A", 0) == frozenset({1}) and table.value("B", 0) == frozenset({1, 2})
    assert table.value("A", 3) == frozenset() and table.value("B", 3) == frozenset()
    missing = coref_tables(_corpora(), coders=["A", "B"], unmarked="missing")["(d1); part 000"]
    assert missing.value("B", 3) is None


def test_word_policies() -> None:
    inner = coref_tables(_corpora(), units="words", coders=["A", "B"])["(d1); part 001"]
    outer = coref_tables(_corpora(), units="words", coders=["A", "B"],
                         word_policy="outermost")["(d1); part 001"]
    # Token 4 ("big") is inside B's mentions 3-5 (entity 2) and 3-6 (entity 3).
    assert inner.value("B", 4) == frozenset({3, 5}) and outer.value("B", 4) == frozenset({3, 5, 6})
    with pytest.raises(ValueError, match="needs heads"):
        coref_tables(_corpora(), units="words", word_policy="head")


def test_alpha_pooled_and_pairwise_and_nltk() -> None:
    nltk = pytest.importorskip("nltk.metrics.agreement")
    corpora = _corpora()
    frame = coref_alpha([*corpora, corpora[0]], coders=["A", "B", "C"], pairwise=True)
    pairs = set(frame["pair"])
    assert pairs == {"all", "A | B", "A | C", "B | C"}
    same = frame[(frame["pair"] == "A | C") & (frame["document"] == "TOTAL")]
    assert (same["alpha"] == 1.0).all()
    tables = coref_tables(corpora, coders=["A", "B"])
    records = [(c, (doc, u), v) for doc, t in tables.items() for c, u, v in t.records()]

    def jaccard(x, y):
        return 0.0 if not x and not y else 1 - len(x & y) / len(x | y)

    pooled = frame[(frame["pair"] == "A | B") & (frame["document"] == "TOTAL")
                   & (frame["distance"] == "jaccard")]["alpha"].iloc[0]
    # Values of different documents never intersect: label them by document for NLTK.
    labelled = [(c, u, frozenset((u[0], x) for x in v)) for c, u, v in records]
    assert pooled == pytest.approx(nltk.AnnotationTask(labelled, distance=jaccard).alpha())
    assert alpha_many(tables["(d1); part 000"], ["nominal"])[0].n == 10


def test_cli_coref_json(capsys) -> None:
    files = [str(FIX / "annotator-a.conll"), str(FIX / "annotator-b.conll")]
    assert main(["coref", *files, "-f", "json", "--metrics", "alpha,muc,blanc"]) == 0
    obj = json.loads(capsys.readouterr().out)
    alphas = [r for r in obj["results"] if "distance" in r]
    metrics = [r for r in obj["results"] if "metric" in r]
    assert [r["distance"] for r in alphas] == ["nominal", "jaccard", "masi"]
    assert {(r["metric"], r["key"]) for r in metrics} == {
        ("muc", "annotator-a.conll"), ("muc", "annotator-b.conll"),
        ("blanc", "annotator-a.conll"), ("blanc", "annotator-b.conll")}
    assert {"recall", "precision", "f1"} <= set(metrics[0])


def test_cli_coref_bad_file(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.conll"
    bad.write_text(BAD[0][0])
    # Repairs are the default (reported); --strict refuses the repair, at its line.
    code = main(["coref", str(FIX / "annotator-a.conll"), str(bad), "--strict"])
    err = capsys.readouterr().err.splitlines()
    assert code == 1 and err[-1].startswith(f"{bad}:2: closes without an open ignored "
                                            "(repaired; strict reading refuses it")
    assert err[:-1] == [f"warning: {bad}:2: repaired: closes without an open ignored"]


def test_every_problem_of_a_file_in_one_run(tmp_path: Path, cli) -> None:
    """Four kinds of repairable problems in one file: each is reported once with its first
    line and count, whether the run goes on (the default) or --strict refuses (once)."""
    bad = tmp_path / "bad.conll"
    bad.write_text("#begin document (x); part 000\nx 0 0 a (1)\nx 0 1 b 3)\n# note\n"
                   "x 0 2 c (1)|(2)\nx 0 3 d 4)\n# again\nx 0 4 e (5\n#end document\n")
    good = tmp_path / "good.conll"
    good.write_text("#begin document (x); part 000\n" + "".join(
        f"x 0 {i} {w} -\n" for i, w in enumerate("abcde")) + "#end document\n")
    expected = [f"warning: {bad}:3: repaired: closes without an open ignored (2 times)",
                f"warning: {bad}:4: repaired: comment lines inside documents skipped (2 times)",
                f"warning: {bad}:8: repaired: unclosed mentions dropped",
                f"warning: {bad}:5: repaired: repeated mentions removed (first kept)"]
    code, _, err = cli("coref", str(good), str(bad), "--metrics", "muc")
    assert code == 0 and sorted(err.splitlines()) == sorted(expected)
    code, _, err = cli("coref", str(good), str(bad), "--metrics", "muc", "--strict")
    lines = err.splitlines()
    assert code == 1 and sorted(lines[:-1]) == sorted(expected)
    assert lines[-1].startswith(f"{bad}:3: closes without an open ignored (repaired, 2 times; "
                                "strict reading refuses it") and "3 other problem(s)" in lines[-1]


def test_cli_coref_metrics_only_and_words(capsys) -> None:
    files = [str(FIX / "annotator-a.conll"), str(FIX / "annotator-b.conll")]
    assert main(["coref", *files, "--metrics", "lea", "--units", "words"]) == 0
    out = capsys.readouterr().out
    assert "lea" in out and "jaccard" not in out


def test_coref_metrics_frame_has_both_directions_and_counts() -> None:
    frame = coref_metrics(_corpora(), ["muc"], coders=["A", "B"])
    ab = frame[(frame["key"] == "A") & (frame["response"] == "B")].iloc[0]
    # Part 000 by hand: recall 1/2, precision 1/2. Part 001: key A {0-1, 1-2} {3-6, 3-5},
    # response B {0-1, 1-2} {3-5} {3-6}: recall (1 + 0) / (1 + 1), precision (1 + 0 + 0) / 1.
    assert (ab["recall_num"], ab["recall_den"]) == (2, 4)
    assert (ab["precision_num"], ab["precision_den"]) == (2, 3)
    ba = frame[(frame["key"] == "B")].iloc[0]
    assert (ba["recall"], ba["precision"]) == (ab["precision"], ab["recall"])


def _random_corpus(rng, name: str, n_tokens: int, docs: int):
    from clusteragree.coref import CorefCorpus, CorefDocument, Mention

    out = {}
    for d in range(docs):
        spans = set()
        while len(spans) < n_tokens // 3:
            s = int(rng.integers(0, n_tokens - 2))
            spans.add((s, s + int(rng.integers(1, 3))))
        mentions = tuple(Mention(((s, e),), str(int(rng.integers(0, 5))))
                         for s, e in sorted(spans))
        out[f"doc{d}"] = CorefDocument(f"doc{d}", ("w",) * n_tokens, mentions, name)
    return CorefCorpus(out, name)


@pytest.mark.parametrize("seed", range(6))
def test_alpha_on_random_chains_equals_generic_engine_and_nltk(seed: int) -> None:
    import numpy as np

    nltk = pytest.importorskip("nltk.metrics.agreement")
    rng = np.random.default_rng(seed)
    corpora = [_random_corpus(rng, f"ann{k}", 15, 3) for k in range(2 + seed % 2)]
    units = "words" if seed % 3 == 0 else "mentions"
    frame = coref_alpha(corpora, ["nominal", "jaccard", "masi"], units=units)
    tables = coref_tables(corpora, units=units)
    records = [(c, (doc, u), frozenset((doc, x) for x in v))
               for doc, t in tables.items() for c, u, v in t.records()]
    nltk_distances = {"nominal": lambda x, y: float(x != y),
                      "jaccard": lambda x, y: 0.0 if not (x | y) else 1 - len(x & y) / len(x | y),
                      "masi": lambda x, y: 0.0 if not (x | y) else
                      pytest.importorskip("nltk.metrics.distance").masi_distance(x, y)}
    for name, dist in nltk_distances.items():
        total = frame[(frame["document"] == "TOTAL") & (frame["distance"] == name)].iloc[0]
        assert total["alpha"] == pytest.approx(nltk.AnnotationTask(records, distance=dist).alpha())
        for table in tables.values():
            fast, slow = alpha(table, name), alpha(table, name, engine="generic")
            assert (math.isnan(fast.alpha) and math.isnan(slow.alpha)) or (
                fast.alpha == pytest.approx(slow.alpha))


def test_semeval_2010_layout(tmp_path: Path) -> None:
    rows = [("1", "El", "el", "el", "d", "d", "_", "_", "2", "2", "spec", "spec", "_", "_", "(5"),
            ("2", "president", "president", "president", "n", "n", "_", "_", "3", "3", "suj",
             "suj", "_", "_", "5)"),
            ("3", "va", "anar", "anar", "v", "v", "_", "_", "0", "0", "root", "root", "_", "_",
             "_"),
            ("4", "ell", "ell", "ell", "p", "p", "_", "_", "3", "3", "cd", "cd", "_", "_", "(5)")]
    path = tmp_path / "semeval.txt"
    path.write_text("#begin document CESS-CAT-AAP/95694_20030723.tbf.xml\n"
                    + "\n".join("\t".join(r) for r in rows) + "\n#end document\n")
    doc = read_conll(path).documents["CESS-CAT-AAP/95694_20030723.tbf.xml"]
    assert doc.tokens == ("El", "president", "va", "ell")
    assert [(m.spans, m.entity) for m in doc.mentions] == [(((0, 2),), "5"), (((3, 4),), "5")]


@needs_shared
def test_conll_average_is_the_mean_f1_of_the_scorer_counts() -> None:
    raw = json.loads((SCORER / "expected" / "perl_scorer_v8.01_outputs.json").read_text())
    d = SCORER / "test" / "DataFiles"
    checked = 0
    for case_id, case in raw.items():
        try:
            corpora = [read_conll(d / case["key"], lenient=True),
                       read_conll(d / case["response"], lenient=True)]
            frame = coref_metrics(corpora, ["conll"], lenient=True)
        except InputError:
            continue  # key and response of different documents: compared by position later
        f1s = []
        for metric in ("muc", "bcub", "ceafe"):
            c = case["scores"][metric]["Coreference"]
            r = c["recall_num"] / c["recall_den"] if c["recall_den"] else 0.0
            p = c["precision_num"] / c["precision_den"] if c["precision_den"] else 0.0
            f1s.append(0.0 if r + p == 0 else 2 * r * p / (r + p))
        row = frame[(frame["key"] == frame["key"].iloc[0]) & (frame["metric"] == "conll")]
        assert row["f1"].iloc[0] == pytest.approx(sum(f1s) / 3), case_id
        checked += 1
    assert checked >= 20


@needs_shared
def test_scorer_cases_through_the_command_line_compare_tokens_by_position(cli) -> None:
    # Response files of the reference scorer's tests replace words (x versus jnk): the
    # scorer compares by position, and so does the command line, with a mismatch warning.
    d = SCORER / "test" / "DataFiles"
    raw = json.loads((SCORER / "expected" / "perl_scorer_v8.01_outputs.json").read_text())
    mismatched: list[dict] = []
    for case_id, case in raw.items():
        code, out, err = cli("coref", str(d / case["key"]), str(d / case["response"]),
                             "--metrics", "muc,mentions", "--lenient", "-f", "json")
        assert code == 0, (case_id, err)
        obj = json.loads(out)
        if any(w["kind"] == "mismatch" for w in obj["warnings"]):
            mismatched.append(case)
        got = {r["metric"]: r for r in obj["results"] if r["kind"] == "metric"
               and r["key"] == obj["meta"]["annotators"][0]}
        want = case["scores"]["muc"]["Coreference"]
        assert got["muc"]["recall_num"] == pytest.approx(want["recall_num"]), case_id
        ident = case["scores"]["muc"]["Identification of Mentions"]
        assert got["mentions"]["precision_den"] == pytest.approx(ident["precision_den"])
    assert mismatched
    code, _, err = cli("coref", str(d / mismatched[0]["key"]),
                       str(d / mismatched[0]["response"]), "--metrics", "muc", "--strict")
    assert code == 1 and "coref-token-text" in err  # validate's error, refused first


def test_singletons_can_be_removed_and_metrics_given_per_document(tmp_path: Path) -> None:
    key = tmp_path / "k.conll"
    resp = tmp_path / "r.conll"
    doc = ("#begin document (d); part 000\nd 0 0 A (1)\nd 0 1 B (2)\nd 0 2 C (1)\n"
           "#end document\n")
    key.write_text(doc)
    resp.write_text(doc.replace("(2)", "-"))  # the response lacks the singleton B
    corpora = [read_conll(key), read_conll(resp)]
    kept = coref_metrics(corpora, ["mentions", "bcub"])
    removed = coref_metrics(corpora, ["mentions", "bcub"], singletons="remove")
    first = kept["key"].iloc[0]

    def pick(f: pd.DataFrame, m: str) -> pd.Series:
        return f[(f["key"] == first) & (f["metric"] == m)].iloc[0]

    assert pick(kept, "mentions")["recall"] == pytest.approx(2 / 3)  # B missed
    assert pick(removed, "mentions")["recall"] == 1.0  # only the chain {A, C} is scored
    assert pick(removed, "bcub")["f1"] == 1.0
    per_doc = coref_metrics(corpora, ["muc"], per_document=True)
    assert [None if pd.isna(x) else x for x in per_doc["document"]] == [
        None, "(d); part 000", None, "(d); part 000"]


@needs_shared
def test_a_mismatch_is_counted_once_however_many_measures_match_the_documents(cli) -> None:
    """The tokens written differently, counted straight from the two files' word columns, are
    the count of the one mismatch notice, whatever the measures asked for (each matches the
    documents again)."""
    d = SCORER / "test" / "DataFiles"
    key, response = d / "TC-A.key", d / "TC-A-10.response"

    def words(path: Path) -> list[str]:
        rows = [line.split() for line in path.read_text().splitlines()
                if line.strip() and not line.startswith("#")]
        return [r[3] if len(r) >= 5 else r[1] for r in rows]

    differ = sum(a != b for a, b in zip(words(key), words(response), strict=True))
    assert differ > 0
    for metrics in ("muc", "alpha,muc,ualpha"):
        code, out, _ = cli("coref", str(key), str(response), "--metrics", metrics,
                           "--differences", "-f", "json")
        counts = [w["count"] for w in json.loads(out)["warnings"] if w["kind"] == "mismatch"]
        assert code == 0 and sum(counts) == differ


def test_metrics_all_is_every_measure(cli) -> None:
    """``--metrics all``: the same results as every measure named, ualpha included."""
    files = [str(FIX / "annotator-a.conll"), str(FIX / "annotator-b.conll")]
    code, out, err = cli("coref", *files, "--metrics", "all", "-f", "json")
    assert code == 0, err
    every = "alpha,muc,bcub,ceafm,ceafe,blanc,lea,mentions,conll,ualpha,f1,gamma"
    code, named, _ = cli("coref", *files, "--metrics", every, "-f", "json")
    assert code == 0 and json.loads(out)["results"] == json.loads(named)["results"]
    kinds = {(r["kind"], r.get("metric") or r.get("distance")) for r in json.loads(out)["results"]}
    assert {("alpha", "unitizing"), ("metric", "conll"), ("metric", "lea")} <= kinds
    code, usage, _ = cli("coref", "--help")
    assert code == 0 and "all: every one of them)" in " ".join(usage.split())


def test_cr_line_ends_are_line_ends(tmp_path: Path) -> None:
    """An old Mac file (CR line ends) reads as the same file with LF line ends, with nothing
    to report; a CR among LF line ends is read as a line end too, and reported."""
    lf = (FIX / "annotator-a.conll").read_bytes()
    want = read_conll(FIX / "annotator-a.conll")
    for fast in (True, False):
        mac = tmp_path / f"mac{fast}" / "annotator-a.conll"
        mac.parent.mkdir()
        mac.write_bytes(lf.replace(b"\n", b"\r"))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = read_conll(mac, fast=fast)
        assert got.documents == {n: replace(d, path=str(mac))
                                 for n, d in want.documents.items()}
        mixed = tmp_path / f"mixed{fast}.conll"
        mixed.write_bytes(lf.replace(b"\n", b"\r", 3))  # lines 1-3 end in CR, the rest in LF
        with pytest.warns(InputWarning) as caught:
            got = read_conll(mixed, fast=fast)
        assert [str(w.message) for w in caught] == [
            f"{mixed}:1: converted: carriage returns (CR) read as line ends in a file whose "
            "other lines end in LF (a stray CR splits its line) (3 times)"]
        assert got.documents["(d1); part 000"].tokens == want.documents["(d1); part 000"].tokens
        with strict(), pytest.raises(InputError, match=r"mixed.*:1: carriage returns"):
            read_conll(mixed, fast=fast)


def test_documents_named_after_their_users_pair_by_order(cli, tmp_path) -> None:
    """INCEpTION's CoNLL-2012 export names its document after the user: the files share no
    name, which is refused naming --pair-documents order; with it, the one document of each
    file is compared (the MUC counts by hand: key chains {Mary, she} and {John}; the response
    links Mary and she too: recall 1/1, precision 1/1)."""
    rows = [("Mary", "(1)", "(7)"), ("met", "-", "-"), ("John", "(2)", "(8)"),
            ("and", "-", "-"), ("she", "(1)", "(7)"), ("smiled", "-", "-")]
    paths = []
    for user, column in (("alice", 1), ("bob", 2)):
        lines = [f"#begin document ({user}); part 000"]
        lines += [f"{user}\t0\t{i}\t{r[0]}\t{r[column]}" for i, r in enumerate(rows)]
        path = tmp_path / f"{user}.conll"
        path.write_text("\n".join([*lines, "#end document"]) + "\n")
        paths.append(str(path))
    code, _, err = cli("coref", *paths, "--metrics", "muc")
    assert code == 1 and "--pair-documents order" in err
    code, out, err = cli("coref", *paths, "--metrics", "muc", "--pair-documents", "order",
                         "-f", "json")
    assert code == 0, err
    muc = [r for r in json.loads(out)["results"] if r.get("metric") == "muc"]
    assert muc and all(r["recall"] == 1 and r["precision"] == 1 for r in muc)
    assert any("paired in file order" in w["message"] for w in json.loads(out)["warnings"])
