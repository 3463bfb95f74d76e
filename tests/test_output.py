"""Every command's output: JSON follows one versioned schema (docs/schema/clusteragree-1.json),
text puts the answer first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "corpora_fixtures"
SCHEMA = json.loads((ROOT / "docs" / "schema" / "clusteragree-1.json").read_text())
REG = FIX / "regressions"

RUNS = {
    "table-sets": ["table", str(FIX / "multilabel_example.csv")],
    "table-documents": ["table", str(REG / "core" / "total-document.csv"), "--distance",
                        "nominal"],
    "table-scalar": ["table", str(FIX / "krippendorff2011.csv"), "--scalar", "--distance",
                     "nominal,ordinal,interval,ratio"],
    "table-multilabel": ["table", str(FIX / "multilabel_ranked.csv")],
    "pyramid": ["pyramid", str(FIX / "passonneau2006" / "fig1-A1.pyr"),
                str(FIX / "passonneau2006" / "fig1-A2.pyr"), "--units", "spans"],
    "pan": ["pan", str(REG / "pyramids" / "A.D0901.M.100.A.1.pan"),
            str(REG / "pyramids" / "C.D0901.M.100.A.1.pan"), "--scores"],
    "coref": ["coref", str(FIX / "coref" / "annotator-a.conll"),
              str(FIX / "coref" / "annotator-b.conll"), "--per-doc"],
    "coref-brat": ["coref", str(FIX / "coref" / "brat" / "A"), str(FIX / "coref" / "brat" / "B"),
                   "--text-dir", str(FIX / "coref" / "brat" / "text"), "--units", "words"],
    "table-ci": ["table", str(FIX / "krippendorff2011.csv"), "--scalar", "--distance",
                 "nominal,interval", "--ci", "0.9", "--bootstrap", "200", "--seed", "4"],
    "coref-metrics-ci": ["coref", *[str(FIX / "coref" / f"annotator-{x}.conll") for x in "ab"],
                         "--ci", "0.9", "--bootstrap", "100", "--seed", "1"],
    "coref-ci-pairwise": ["coref", *[str(FIX / "coref" / f"annotator-{x}.conll")
                                     for x in "aba"], "--names", "a,b,c", "--pairwise",
                          "--ci", "0.95", "--bootstrap", "100", "--seed", "2",
                          "--metrics", "alpha"],
    "table-diagnostics": ["table", str(REG / "core" / "total-document.csv"), "--distance",
                          "nominal", "--diagnostics", "--worst", "3"],
    "table-diagnostics-scalar": ["table", str(FIX / "krippendorff2011.csv"), "--scalar",
                                 "--distance", "nominal,interval", "--diagnostics"],
    "table-kappa": ["table", str(FIX / "krippendorff2011.csv"), "--scalar", "--distance",
                    "nominal", "--metrics", "all", "--weights", "quadratic"],
    "pyramid-align": ["pyramid", str(FIX / "passonneau2006" / "fig1-A1.pyr"),
                      str(FIX / "passonneau2006" / "fig1-A2.pyr"), "--align"],
    "coref-diagnostics": ["coref", *[str(FIX / "coref" / f"annotator-{x}.conll") for x in "ab"],
                          "--diagnostics", "--units", "words", "--ci", "0.9", "--bootstrap",
                          "50", "--seed", "1"],
    "pyramid-diagnostics-pairwise": ["pyramid", *[str(FIX / "passonneau2006" / f"fig5-A{k}.pyr")
                                                  for k in (1, 2, 1)], "--names", "a,b,c",
                                     "--units", "spans", "--diagnostics", "--pairwise"],
    "coref-ualpha": ["coref", *[str(FIX / "coref" / f"annotator-{x}.conll") for x in "ab"],
                     "--metrics", "ualpha,muc", "--per-doc"],
    "coref-differences": ["coref", *[str(FIX / "coref" / f"annotator-{x}.conll") for x in "ab"],
                          "--differences", "--per-doc"],
    "trees-differences": ["trees", str(REG / "trees" / "ok.conllu"),
                          str(REG / "trees" / "relabelled.conllu"), "--differences"],
    "spans": ["spans", str(FIX / "spans" / "ner.csv"), "--text-dir", str(FIX / "spans" / "text"),
              "--per-doc", "--metrics", "f1,tokens,ualpha"],
    "spans-gamma": ["spans", str(FIX / "gamma" / "AlexPaulSuzan.csv"), "--alignment",
                    "--metrics", "f1,gamma", "--precision", "0.1"],
    "trees": ["trees", str(REG / "trees" / "ok.conllu"), str(REG / "trees" / "ok.conllu"),
              "--acc", "--distance", "all"],
}


def test_the_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_every_command_writes_the_schema(name: str, cli) -> None:
    code, out, err = cli(*RUNS[name], "-f", "json")
    assert code == 0, err
    obj = json.loads(out)
    jsonschema.validate(obj, SCHEMA)
    assert obj["schema"] == "clusteragree/1" and obj["command"] == RUNS[name][0]
    assert obj["results"], "a command with exit 0 has results"
    kinds = {r["kind"] for r in obj["results"]}
    assert kinds <= {"alpha", "metric", "measure", "accuracy", "score", "correlation", "unit",
                     "category", "annotator", "coincidence", "document", "kappa",
                     "scu_match", "scu_link", "scu_only", "unmarked_word",
                     "sentence_difference", "difference_count", "coref_difference",
                     "span_match", "span_match_mean", "token_agreement", "unitizing", "gamma",
                     "aligned_unit"}


def test_records_hold_only_the_fields_of_their_kind(cli) -> None:
    code, out, _ = cli(*RUNS["coref"], "-f", "json")
    assert code == 0
    obj = json.loads(out)
    for record in obj["results"]:
        if record["kind"] == "metric" and record["metric"] == "blanc":
            assert "recall_num" not in record and "c_key" in record
        if record["kind"] == "metric" and record["metric"] == "muc":
            assert "c_key" not in record and "recall_num" in record
        if record["kind"] == "alpha":
            assert "metric" not in record and "recall" not in record


@pytest.mark.parametrize("name", sorted(RUNS))
def test_text_output_puts_the_answer_first(name: str, cli) -> None:
    """The first lines (up to the first blank line) hold the first result, the figure the JSON
    output gives, to four decimals; tables and signatures come after."""
    code, out, _ = cli(*RUNS[name], "-f", "json")
    first = json.loads(out)["results"][0]
    value = next(first[k] for k in ("alpha", "value", "f1") if k in first)
    code, text, err = cli(*RUNS[name])
    assert code == 0, err
    headline, _, rest = text.partition("\n\n")
    assert ("undefined" if value is None else f"{value:.4f}") in headline
    assert rest.strip(), "the tables follow the headline"


def test_a_seed_makes_the_interval_reproducible(cli) -> None:
    runs = [cli(*RUNS["table-ci"], "-f", "json")[1] for _ in range(2)]
    first, second = (json.loads(r)["results"] for r in runs)
    assert [r["ci"] for r in first] == [r["ci"] for r in second]
    assert all(r["ci"][0] <= r["alpha"] <= r["ci"][1] for r in first)
    assert first[0]["bootstrap"] == {"n": 200, "resample": "units", "seed": 4, "level": 0.9,
                                     "method": "bca", "resampled": first[0]["units"],
                                     "undefined": first[0]["bootstrap"]["undefined"]}


def test_diagnostics_in_json_hold_every_kind(cli) -> None:
    code, out, err = cli(*RUNS["table-diagnostics-scalar"], "-f", "json")
    assert code == 0, err
    kinds = {r["kind"] for r in json.loads(out)["results"]}
    assert {"unit", "category", "annotator", "coincidence"} <= kinds
    code, out, err = cli(*RUNS["table-diagnostics"], "-f", "json")
    assert code == 0, err
    docs = [r for r in json.loads(out)["results"] if r["kind"] == "document"]
    assert docs and all(isinstance(d["document"], str) for d in docs)


def test_metric_intervals_in_json(cli) -> None:
    code, out, err = cli(*RUNS["coref-metrics-ci"], "-f", "json")
    assert code == 0, err
    metrics = [r for r in json.loads(out)["results"] if r["kind"] == "metric"]
    assert metrics and all(r["ci"][0] <= r["f1"] <= r["ci"][1] or r["ci"][0] <= r["ci"][1]
                           for r in metrics)
    assert all("ci_low" not in r for r in metrics)


def test_the_schema_knows_every_kind_of_warning() -> None:
    from clusteragree.errors import KINDS
    kinds = _find_warning_kinds(SCHEMA)
    assert set(kinds) == set(KINDS), kinds


def _find_warning_kinds(node: object) -> list[str]:
    """The enum of the warnings' ``kind`` in the schema, wherever it is defined."""
    if isinstance(node, dict):
        if "warnings" in node and isinstance(node["warnings"], dict):
            found = _find_warning_kinds(node["warnings"])
            if found:
                return found
        for key, value in node.items():
            if key == "kind" and isinstance(value, dict) and "repaired" in value.get("enum", []):
                return list(value["enum"])
            found = _find_warning_kinds(value)
            if found:
                return found
    if isinstance(node, list):
        for value in node:
            found = _find_warning_kinds(value)
            if found:
                return found
    return []
