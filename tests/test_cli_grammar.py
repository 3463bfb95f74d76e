"""One grammar in every subcommand: the common options, -o/--output, --names, and the old
spellings kept for one release with a deprecation warning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clusteragree.cli import build_parser

FIX = Path(__file__).resolve().parent.parent / "corpora_fixtures"
PYR = [str(FIX / "passonneau2006" / "fig1-A1.pyr"), str(FIX / "passonneau2006" / "fig1-A2.pyr")]
CONLL = [str(FIX / "coref" / "annotator-a.conll"), str(FIX / "coref" / "annotator-b.conll")]


@pytest.mark.parametrize("command", ["table", "pyramid", "pan", "coref", "trees"])
def test_every_subcommand_has_the_common_options(command: str) -> None:
    sub = build_parser()._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    flags = {f for action in sub._actions for f in action.option_strings}
    assert {"-f", "--format", "-o", "--output", "--strict", "--encoding", "--distance"} <= flags
    if command in ("pyramid", "coref", "trees"):
        assert "--names" in flags
    if command in ("table", "pyramid", "coref", "trees"):
        assert "--pairwise" in flags


def test_output_goes_to_the_file_of_o(tmp_path: Path, cli) -> None:
    out = tmp_path / "alpha.json"
    code, stdout, _ = cli("table", str(FIX / "multilabel_example.csv"), "-f", "json", "-o",
                          str(out))
    assert code == 0 and stdout == ""
    assert json.loads(out.read_text(encoding="utf-8"))["results"][0]["distance"] == "nominal"
    code, _, err = cli("table", str(FIX / "multilabel_example.csv"), "-o",
                       str(tmp_path / "no-such-dir" / "x.txt"))
    assert code == 1 and "cannot write the output" in err


def test_names_name_the_annotators(cli) -> None:
    code, out, _ = cli("coref", *CONLL, "--names", "ann1,ann2", "--metrics", "muc", "-f", "json")
    assert code == 0
    assert {r["key"] for r in json.loads(out)["results"]} == {"ann1", "ann2"}
    code, _, err = cli("coref", *CONLL, "--names", "only-one")
    assert code == 2 and "--names gives 1 names for 2 inputs" in err
    code, _, err = cli("pyramid", *PYR, "--names", "a,a")
    assert code == 2 and "distinct" in err


def test_old_spellings_still_work_with_a_warning(cli) -> None:
    code, out, _ = cli("coref", *CONLL, "--format", "conll", "--metrics", "muc")
    assert code == 0 and "muc" in out
    code, out, _ = cli("coref", *CONLL, "--input-format", "conll", "--metrics", "muc", "-f",
                       "json")
    warnings = json.loads(out)["warnings"]
    assert code == 0 and not any("deprecated" in w["message"] for w in warnings)
    table = str(FIX / "multilabel_ranked.csv")
    code, out, _ = cli("table", table, "--measures", "am", "-f", "json")
    assert code == 0
    assert any("--measures is deprecated: use --metrics" in w["message"]
               for w in json.loads(out)["warnings"])
    assert all(r["measure"].startswith("A_m") for r in json.loads(out)["results"])


def test_per_doc_takes_both_spellings(cli) -> None:
    for flag in ("--per-doc", "--no-per-doc"):
        code, _, _ = cli("coref", *CONLL, "--metrics", "alpha", flag)
        assert code == 0


def test_csv_writes_one_table_chosen_by_table(cli) -> None:
    code, out, _ = cli("coref", *CONLL, "-f", "csv")
    assert code == 0 and out.splitlines()[0].startswith("document,distance,alpha")
    assert "muc" not in out  # the metrics are another table
    code, out, _ = cli("coref", *CONLL, "-f", "csv", "--table", "metrics")
    assert code == 0 and out.splitlines()[0].startswith("key,response,metric")
    assert len({line.split(",")[2] for line in out.splitlines()[1:]}) == 8  # 7 metrics + conll
    code, _, err = cli("coref", *CONLL, "-f", "csv", "--metrics", "muc", "--table", "alpha")
    assert code == 2 and "was not computed" in err and "example: clusteragree coref" in err


def test_usage_errors_show_one_example(cli) -> None:
    code, _, err = cli("trees", "--no-such-option")
    assert code == 2 and "example: clusteragree trees" in err


def test_pairwise_rows_are_alpha_of_the_pair_alone(cli) -> None:
    """table --pairwise: each pair's alpha equals alpha over a table built from that pair's
    rows of the CSV alone (Krippendorff 2011's four coders)."""
    import csv

    from clusteragree import CodingTable, alpha

    path = FIX / "krippendorff2011.csv"
    code, out, err = cli("table", str(path), "--scalar", "--distance", "nominal,interval",
                         "--pairwise", "-f", "json")
    assert code == 0, err
    results = json.loads(out)["results"]
    # coders in the order the file first names them: A, B, D, C
    assert {r["pair"] for r in results} == {"all", "A | B", "A | D", "A | C", "B | D", "B | C",
                                            "D | C"}
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    for r in results:
        coders = r["pair"].split(" | ") if r["pair"] != "all" else ["A", "B", "C", "D"]
        table = CodingTable.from_records((row["coder"], row["unit"], int(row["labels"]))
                                         for row in rows
                                         if row["coder"] in coders and row["labels"])
        assert r["alpha"] == pytest.approx(alpha(table, r["distance"]).alpha, abs=1e-12)
    everyone = {r["distance"]: r["alpha"] for r in results if r["pair"] == "all"}
    assert round(everyone["nominal"], 3) == 0.743 and round(everyone["interval"], 3) == 0.849


def test_pyramid_pairwise_names_each_pair(cli) -> None:
    three = [*PYR, PYR[0]]
    code, out, err = cli("pyramid", *three, "--names", "a,b,c", "--pairwise", "-f", "json")
    assert code == 0, err
    results = json.loads(out)["results"]
    pairs = {r["pair"] for r in results}
    assert pairs == {"all", "a | b", "a | c", "b | c"}
    same = [r["alpha"] for r in results if r["pair"] == "a | c"]
    assert same and all(a == pytest.approx(1.0) for a in same)  # c is a's own file


@pytest.mark.parametrize("bad", [["--ci", "95"], ["--ci", "x"], ["--bootstrap", "1"],
                                 ["--seed", "-1"], ["--resample", "coders"]])
def test_bad_interval_options_are_usage_errors(cli, bad: list[str]) -> None:
    code, _, err = cli("table", str(FIX / "krippendorff2011.csv"), "--scalar", *bad)
    assert code == 2 and "usage:" in err
