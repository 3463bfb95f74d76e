"""``clusteragree table`` on its inputs other than Parquet: labels joined in a multi-label file,
the intervals, pairs and diagnostics of the alpha figures a multi-label file gives, ``--names``,
and every option acting, or saying why not, on every input format.

Values are checked against NLTK's ``AnnotationTask`` on the same label sets (an implementation
independent of clusteragree's), and against the codings format read from the same sets.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from nltk.metrics import agreement
from nltk.metrics.distance import jaccard_distance, masi_distance

#: Three annotators' label sets on six items; two sets are joined with ";" in the labels.
SETS: dict[str, dict[str, frozenset[str]]] = {
    "A": {"i1": frozenset({"PER", "ORG"}), "i2": frozenset({"LOC"}), "i3": frozenset({"ORG"}),
          "i4": frozenset({"PER"}), "i5": frozenset({"LOC", "PER"}), "i6": frozenset({"MISC"})},
    "B": {"i1": frozenset({"PER"}), "i2": frozenset({"LOC"}), "i3": frozenset({"PER", "LOC"}),
          "i4": frozenset({"PER"}), "i5": frozenset({"LOC"}), "i6": frozenset({"MISC"})},
    "C": {"i1": frozenset({"PER", "ORG"}), "i2": frozenset({"ORG"}), "i3": frozenset({"ORG"}),
          "i4": frozenset({"PER", "MISC"}), "i5": frozenset({"LOC", "PER"})},
}


def _nltk_alpha(coders: list[str], distance: Any) -> float:
    records = [(c, i, labels) for c in coders for i, labels in SETS[c].items()]
    return float(agreement.AnnotationTask(records, distance=distance).alpha())


def _joined(coders: list[str], path: Path, *, header: str = "item,annotator,label") -> Path:
    rows = [header] + [f"{i},{c},{';'.join(sorted(labels))}" for c in coders
                       for i, labels in SETS[c].items()]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _codings(coders: list[str], path: Path) -> Path:
    rows = ["coder,unit,labels"] + [f"{c},{i},{';'.join(sorted(labels))}" for c in coders
                                    for i, labels in SETS[c].items()]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _json(cli: Any, *argv: str) -> dict[str, Any]:
    code, out, err = cli(*argv, "-f", "json")
    assert code == 0, err
    return json.loads(out)


def _alphas(obj: dict[str, Any], pair: str | None = None) -> dict[str, dict[str, Any]]:
    return {r["distance"]: r for r in obj["results"]
            if r["kind"] == "alpha" and r.get("pooled", True) and r.get("pair", "all") ==
            (pair or "all")}


# ------------------------------------------------------------------ labels joined by ";"
def test_joined_labels_of_a_multilabel_file_are_refused_then_read_as_told(cli, tmp_path) -> None:
    path = _joined(["A", "B"], tmp_path / "joined.csv")
    # they used to be one label each, in silence ("PER;ORG" a category of its own)
    code, _, err = cli("table", str(path))
    assert code == 1
    assert "joined.csv:2: label 'ORG;PER' holds ';'" in err
    assert "--sep ;" in err and "--sep none" in err and "sep=" not in err
    split = _json(cli, "table", str(path), "--sep", ";")
    measures = {r["measure"]: r["value"] for r in split["results"] if r["kind"] == "measure"}
    assert measures["alpha (jaccard)"] == pytest.approx(_nltk_alpha(["A", "B"],
                                                                    jaccard_distance))
    assert measures["alpha (masi)"] == pytest.approx(_nltk_alpha(["A", "B"], masi_distance))
    # the same sets as codings give the same alpha
    codings = _json(cli, "table", str(_codings(["A", "B"], tmp_path / "c.csv")))
    assert measures["alpha (jaccard)"] == pytest.approx(_alphas(codings)["jaccard"]["alpha"])
    # kept whole, each joined field is one label
    whole = _json(cli, "table", str(path), "--sep", "none")
    nominal = {r["measure"]: r["value"] for r in whole["results"]}["alpha (jaccard)"]
    as_labels = {c: {i: frozenset({";".join(sorted(s))}) for i, s in SETS[c].items()}
                 for c in ("A", "B")}
    records = [(c, i, v) for c, cells in as_labels.items() for i, v in cells.items()]
    assert nominal == pytest.approx(agreement.AnnotationTask(
        records, distance=jaccard_distance).alpha())


def test_joined_labels_in_json_and_with_ranks(cli, tmp_path) -> None:
    objects = [{"item": i, "annotator": c, "label": ";".join(sorted(labels))}
               for c in ("A", "B") for i, labels in SETS[c].items()]
    path = tmp_path / "joined.json"
    path.write_text(json.dumps(objects), encoding="utf-8")
    code, _, err = cli("table", str(path))
    assert code == 1 and "object 1: label 'ORG;PER' holds ';'" in err
    measures = {r["measure"]: r["value"] for r in _json(cli, "table", str(path), "--sep",
                                                        ";")["results"]}
    assert measures["alpha (jaccard)"] == pytest.approx(_nltk_alpha(["A", "B"],
                                                                    jaccard_distance))
    ranked = tmp_path / "ranked.csv"
    ranked.write_text("item,annotator,label,rank\ni1,A,PER|ORG,1\ni1,B,PER,1\n",
                      encoding="utf-8")
    code, _, err = cli("table", str(ranked), "--sep", "|")
    assert code == 1 and "ranked.csv:2: 2 labels in 'PER|ORG' with the rank '1'" in err
    empty = tmp_path / "empty.csv"
    empty.write_text("item,annotator,label\ni1,A,PER;;ORG\ni1,B,PER\n", encoding="utf-8")
    code, _, err = cli("table", str(empty), "--sep", ";")
    assert code == 1 and "empty.csv:2: empty label in 'PER;;ORG'" in err


# ------------------------------------------------------------------ --ci, --pairwise, --diagnostics
def test_ci_pairwise_and_diagnostics_act_on_a_multilabel_file(cli, tmp_path) -> None:
    path = _joined(["A", "B", "C"], tmp_path / "three.csv")
    codings = _codings(["A", "B", "C"], tmp_path / "three-codings.csv")
    options = ("--ci", "0.9", "--bootstrap", "200", "--seed", "3", "--pairwise")
    multi = _json(cli, "table", str(path), "--sep", ";", *options)
    same = _json(cli, "table", str(codings), *options)
    for pair in (None, "A | B", "A | C", "B | C"):
        got, want = _alphas(multi, pair), _alphas(same, pair)
        coders = ["A", "B", "C"] if pair is None else pair.split(" | ")
        assert got["jaccard"]["alpha"] == pytest.approx(_nltk_alpha(coders, jaccard_distance))
        assert got["masi"]["alpha"] == pytest.approx(_nltk_alpha(coders, masi_distance))
        for distance in ("nominal", "jaccard", "masi"):  # the same interval as the codings
            assert got[distance]["ci"] == pytest.approx(want[distance]["ci"])
            assert got[distance]["ci"][0] < got[distance]["ci"][1]
    notes = [w["message"] for w in multi["warnings"] if w["kind"] == "unused"]
    assert any("K', A_m and mv-alpha have none" in n for n in notes)
    # text: the measures, then alpha with its interval and pairs
    code, out, _ = cli("table", str(path), "--sep", ";", *options)
    assert code == 0 and "90% CI" in out and "A | C" in out


def _disagreement_by_hand() -> dict[str, float]:
    """Each item's Jaccard distances over ordered pairs of its annotators' sets, each pair
    weighted 1 / (m - 1) (Krippendorff's coincidences)."""
    score = {}
    for item in SETS["A"]:
        values = [SETS[c][item] for c in SETS if item in SETS[c]]
        score[item] = sum(jaccard_distance(set(a), set(b)) for k, a in enumerate(values)
                          for b in values[k + 1:]) * 2 / (len(values) - 1)
    return score


def test_the_diagnostics_of_a_multilabel_file_list_the_worst_items(cli, tmp_path) -> None:
    path = _joined(["A", "B", "C"], tmp_path / "three.csv")
    code, out, _ = cli("table", str(path), "--sep", ";", "--diagnostics", "--distance",
                       "jaccard", "--worst", "3", "-f", "json")  # was ignored, in silence
    assert code == 0
    rows = [r for r in json.loads(out)["results"] if r["kind"] == "unit"]
    by_hand = _disagreement_by_hand()
    assert len(rows) == 3
    for row in rows:
        assert row["disagreement"] == pytest.approx(by_hand[row["unit"]])
    assert min(r["disagreement"] for r in rows) >= sorted(by_hand.values())[-3] - 1e-12


def test_latex_of_a_multilabel_file_is_latex(cli, tmp_path) -> None:
    path = _joined(["A", "B"], tmp_path / "j.csv")
    code, out, _ = cli("table", str(path), "--sep", ";", "-f", "latex")
    assert code == 0 and "\\begin{tabular}" in out and "alpha (jaccard)" in out  # was text


# ------------------------------------------------------------------ --names
def test_names_rename_the_coders_in_the_order_they_first_appear(cli, tmp_path) -> None:
    path = tmp_path / "c.csv"
    path.write_text("coder,unit,labels\nzed,1,x\namy,1,y\nzed,2,x\namy,2,x\nbob,1,x\n"
                    "bob,2,y\n", encoding="utf-8")
    named = _json(cli, "table", str(path), "--names", "Z,A,B", "--pairwise")
    assert named["meta"]["coders"] == ["Z", "A", "B"]
    assert {r["pair"] for r in named["results"] if r["kind"] == "alpha"} == {
        "all", "Z | A", "Z | B", "A | B"}
    plain = _json(cli, "table", str(path), "--pairwise")
    pairs = {r["pair"]: r["alpha"] for r in plain["results"] if r["kind"] == "alpha"}
    renamed = {r["pair"]: r["alpha"] for r in named["results"] if r["kind"] == "alpha"}
    assert renamed["Z | A"] == pairs["zed | amy"] and renamed["A | B"] == pairs["amy | bob"]
    code, _, err = cli("table", str(path), "--names", "Z,A")
    assert code == 1
    assert "--names Z,A gives 2 names for the 3 coders (zed, amy, bob, in the order they " \
           "first appear)" in err
    multi = _joined(["A", "B"], tmp_path / "m.csv")
    obj = _json(cli, "table", str(multi), "--sep", ";", "--names", "ann1,ann2")
    assert obj["meta"]["annotators"] == ["ann1", "ann2"]
    code, _, err = cli("table", str(multi), "--sep", ";", "--names", "x,y,z")
    assert code == 1 and "for the 2 annotators (A, B" in err


# ------------------------------------------------------------------ every option, every format
def _inputs(tmp_path: Path) -> dict[str, Path]:
    codings = _codings(["A", "B"], tmp_path / "codings.csv")
    multi = _joined(["A", "B"], tmp_path / "multi.csv")
    objects = [{"item": i, "annotator": c, "label": label}
               for c in ("A", "B") for i, labels in SETS[c].items() for label in labels]
    as_json = tmp_path / "multi.json"
    as_json.write_text(json.dumps(objects), encoding="utf-8")
    return {"codings": codings, "multilabel-csv": multi, "multilabel-json": as_json}


#: (option, formats it applies to, what it does elsewhere: exit status and a word said; an
#: option of another format is an `unused` notice, as on every command)
REFUSED_ELSEWHERE = [
    (("--p", "0.75"), {"multilabel-csv", "multilabel-json"},
     (0, "unused: --p acts on multilabel-csv and multilabel-json input; these inputs are")),
    (("--categories", "PER,ORG,LOC,MISC"), {"multilabel-csv", "multilabel-json"},
     (0, "unused: --categories acts on multilabel-csv")),
    (("--scalar",), {"codings"},
     (0, "unused: --scalar acts on codings and inception-agreement and parquet and tools' "
         "exports input")),
    (("--dask",), set(), (2, "--dask reads Parquet")),
]


@pytest.mark.parametrize(("option", "applies", "elsewhere"), REFUSED_ELSEWHERE,
                         ids=lambda x: " ".join(x) if isinstance(x, tuple) and
                         isinstance(x[0], str) and x[0].startswith("--") else "")
@pytest.mark.parametrize("fmt", ["codings", "multilabel-csv", "multilabel-json"])
def test_an_option_of_another_format_is_refused(cli, tmp_path, fmt, option, applies,
                                                elsewhere) -> None:
    path = _inputs(tmp_path)[fmt]
    sep = ("--sep", ";") if fmt == "multilabel-csv" else ()
    scalar = ("--scalar", "--distance", "nominal") if "--weights" in option \
        and fmt == "codings" else ()
    code, _, err = cli("table", str(path), *sep, *scalar, *option)
    if fmt in applies:
        assert code in (0, 1), err  # acts (1: the data cannot take it, said)
        assert "options of" not in err
    else:
        assert code == elsewhere[0] and elsewhere[1] in err, err


def test_weights_on_a_multilabel_file_are_said(cli, tmp_path) -> None:
    path = _inputs(tmp_path)["multilabel-json"]
    code, _, err = cli("table", str(path), "--weights", "linear")
    assert code == 0 and ("unused: --weights acts on codings and inception-agreement and "
                          "parquet and tools' exports input") in err, err


NOTED = [
    (("--bootstrap", "20"), "--bootstrap shapes the bootstrap interval"),
    (("--seed", "1", "--resample", "units"), "--resample shapes the bootstrap interval"),
    (("--worst", "2"), "--worst says how many units --diagnostics lists"),
    (("--table", "alpha", "-f", "json"), "--table chooses the one table"),
    (("--per-doc",), "--per-doc:"),
]


@pytest.mark.parametrize(("option", "said"), NOTED, ids=lambda x: " ".join(x)
                         if isinstance(x, tuple) else "")
@pytest.mark.parametrize("fmt", ["codings", "multilabel-csv", "multilabel-json"])
def test_an_option_without_effect_says_so(cli, tmp_path, fmt, option, said) -> None:
    path = _inputs(tmp_path)[fmt]
    sep = ("--sep", ";") if fmt == "multilabel-csv" else ()
    code, out, err = cli("table", str(path), *sep, *option)
    assert code == 0, err
    assert said in out + err


def test_option_conflicts_and_refusals_of_codings(cli, tmp_path) -> None:
    path = _codings(["A", "B"], tmp_path / "c.csv")
    code, _, err = cli("table", str(path), "--scalar", "--sep", ";", "--distance", "nominal")
    assert code == 2 and "--sep separates the labels of a set and --scalar" in err
    code, _, err = cli("table", str(path), "--metrics", "fleiss")  # was exit 70
    assert code == 1 and "fleiss compares single values" in err and "--scalar" in err
    code, _, err = cli("table", str(path), "--metrics", "all")  # was exit 70
    assert code == 0 and "--metrics all: fleiss, gwet, brennan_prediger compare single" in err
    code, _, err = cli("table", str(path), "--engine", "classes")  # was exit 70
    assert code == 1 and "--engine classes needs a class-derived table" in err
    code, _, err = cli("table", str(path), "--weights", "linear")
    assert code == 2 and "--weights weighs" in err
    whole = _alphas(_json(cli, "table", str(path), "--sep", "none"))["jaccard"]["alpha"]
    records = [(c, i, frozenset({";".join(sorted(s))})) for c in ("A", "B")
               for i, s in SETS[c].items()]  # each field one label: "ORG;PER" as written
    assert whole == pytest.approx(agreement.AnnotationTask(
        records, distance=jaccard_distance).alpha())


def test_multilabel_refusals_name_their_option(cli, tmp_path) -> None:
    paths = _inputs(tmp_path)
    code, _, err = cli("table", str(paths["multilabel-json"]), "--table", "kappa", "-f", "csv")
    assert code == 2 and "--table kappa is the table of fleiss" in err
    code, _, err = cli("table", str(paths["multilabel-json"]), "--table", "alpha", "-f", "csv")
    assert code == 2 and "give --ci or --pairwise" in err
    code, out, err = cli("table", str(paths["multilabel-json"]), "--ci", "0.9", "--bootstrap",
                         "30", "--seed", "1", "--table", "alpha", "-f", "csv")
    assert code == 0 and out.startswith("document,distance,alpha") and "ci_low" in out
    code, out, err = cli("table", str(paths["multilabel-json"]), "--ci", "0.9", "--bootstrap",
                         "30", "-f", "csv")
    assert code == 0 and "-f csv writes the measures table; --table alpha" in err
    code, _, err = cli("table", str(paths["multilabel-json"]), "--categories", "PER,ORG")
    assert code == 1 and "is not among the categories (--categories PER,ORG)" in err
    code, _, err = cli("table", str(paths["multilabel-json"]), "--metrics", "kappa", "--ci",
                       "0.9")
    assert code == 0 and "--ci: intervals and pairs are given for alpha, which --metrics" in err


def test_undefined_multilabel_measures_say_so_and_too_many_sets_are_refused(cli,
                                                                           tmp_path) -> None:
    one = tmp_path / "one.csv"
    one.write_text("item,annotator,label\ni1,A,x\ni1,B,x\ni2,A,x\ni2,B,x\n", encoding="utf-8")
    obj = _json(cli, "table", str(one))
    undefined = " ".join(w["message"] for w in obj["warnings"] if w["kind"] == "undefined")
    for measure in ("K' (p=0.5)", "A_m", "alpha (nominal)", "mv-alpha"):
        assert f"{measure} is undefined" in undefined  # A_m and mv-alpha: exit 70, or silent
    many = tmp_path / "many.csv"
    labels = [f"L{k}" for k in range(40)]
    rows = ["item,annotator,label"] + [f"i{i},{a},{labels[(i * 7 + a_k * 3 + j) % 40]}"
                                       for i in range(12) for a_k, a in enumerate("AB")
                                       for j in range(3)]
    many.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, _, err = cli("table", str(many), "--metrics", "alpha,mvalpha")
    assert code == 1 and "too many to enumerate: leave mv-alpha out (--metrics " \
        "alpha)" in err  # was exit 70
    for metrics in ((), ("--metrics", "all")):  # not named: left out, and said
        code, out, err = cli("table", str(many), *metrics)
        assert code == 0 and "mv-alpha is left out of the measures" in err
        assert "mv-alpha" not in out.split("\n\n")[1]


def test_an_undefined_alpha_has_no_interval_and_no_crash(cli, tmp_path) -> None:
    path = tmp_path / "same.csv"
    path.write_text("coder,unit,labels\nA,1,x\nB,1,x\nA,2,x\nB,2,x\n", encoding="utf-8")
    obj = _json(cli, "table", str(path), "--ci", "0.9", "--bootstrap", "20")  # was exit 70
    assert all(r["alpha"] is None and "ci" not in r for r in _alphas(obj).values())
    assert any("has no bootstrap interval" in w["message"] for w in obj["warnings"])


def test_standard_input_is_decoded_as_encoding_says(cli, tmp_path, monkeypatch) -> None:
    text = "coder,unit,labels\nA,1,caf\u00e9\nB,1,caf\u00e9\nA,2,th\u00e9\nB,2,caf\u00e9\n"

    class Stdin(io.StringIO):
        buffer = io.BytesIO(text.encode("latin-1"))

    monkeypatch.setattr(sys, "stdin", Stdin())
    code, out, err = cli("table", "-", "--encoding", "latin-1", "-f", "json")
    assert code == 0, err  # --encoding used to be ignored on standard input
    utf8 = tmp_path / "utf8.csv"
    utf8.write_text(text, encoding="utf-8")
    assert _alphas(json.loads(out)) == _alphas(_json(cli, "table", str(utf8)))
    monkeypatch.setattr(sys, "stdin", Stdin())
    Stdin.buffer = io.BytesIO(text.encode("latin-1"))
    code, _, err = cli("table", "-")
    assert code == 1 and "is not UTF-8" in err


def test_numbers_near_the_largest_float_in_a_codings_file(cli, tmp_path) -> None:
    import krippendorff
    import numpy as np

    path = tmp_path / "big.csv"
    path.write_text("coder,unit,value\nA,1,1e308\nB,1,-1e308\nA,2,5e307\nB,2,5e307\n"
                    "A,3,-1e308\nB,3,-1e308\n", encoding="utf-8")
    data = np.array([[1, 0.5, -1], [-1, 0.5, -1]])
    obj = _json(cli, "table", str(path), "--scalar", "--distance", "ratio")
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="ratio")
    assert _alphas(obj)["ratio"]["alpha"] == pytest.approx(expected)  # x + y overflowed
    converted = [w["message"] for w in obj["warnings"] if w["kind"] == "converted"]
    assert converted and "'1e308' read as 1e+308" in converted[0]  # not an int of 309 digits
    code, _, err = cli("table", str(path), "--scalar", "--distance", "interval")
    want = krippendorff.alpha(reliability_data=data, level_of_measurement="interval")
    assert code == 1 and f"alpha (interval) is {want:.6g}, but D_o" in err
    assert "D_e is 0" not in err and "divide the values by a power of ten" in err
