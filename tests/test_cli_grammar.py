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


def _subcommands() -> dict:
    return build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]


def _visible_flags(sub) -> set[str]:
    import argparse
    return {f for action in sub._actions for f in action.option_strings
            if action.help != argparse.SUPPRESS}


def test_input_format_choices_are_the_readers_formats() -> None:
    from clusteragree.cli.input_formats import INPUTS, input_formats
    from clusteragree.labels.reader import MULTILABEL_FORMATS
    from clusteragree.trees.readers import TREE_FORMATS
    subs = _subcommands()
    for command in ("table", "pyramid", "pan", "coref", "trees"):
        action = next((a for a in subs[command]._actions if "--input-format" in a.option_strings),
                      None)
        choices = input_formats(command)
        assert (action is None) == (not choices), command
        if action is not None:
            assert tuple(action.choices) == choices and action.default == "auto"
    assert input_formats("trees") == TREE_FORMATS
    from clusteragree.cli.input_formats import EXPORTS
    assert input_formats("table") == ("auto", "codings", "parquet",
                                      *(f"multilabel-{f}" for f in MULTILABEL_FORMATS[1:]),
                                      "inception-agreement", *EXPORTS)
    assert input_formats("coref") == ("auto", "conll", "corefud", "brat", *EXPORTS)
    for entry in INPUTS:  # every option a format names is an option of its command
        assert set(entry.options) <= _visible_flags(subs[entry.command]), entry


def test_docs_list_every_input_format() -> None:
    from clusteragree.cli.input_formats import INPUTS
    docs = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text()
    for f in INPUTS:
        name = f"`{f.name}`" if f.name else "(one format)"
        options = ", ".join(f"`{o}`" for o in f.options)
        assert f"| `{f.command}` | {name} | {f.holds} | {f.chosen} | {options} |" in docs, f


def test_docs_options_table_is_the_parser() -> None:
    """docs/cli.md's table of options by command says what the parser has."""
    docs = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text()
    _, _, rest = docs.partition("| option | table | pyramid | pan | coref | trees | spans |")
    assert rest, "the options table is in docs/cli.md"
    subs = _subcommands()
    commands = ["table", "pyramid", "pan", "coref", "trees", "spans"]
    rows = []
    for line in rest.splitlines()[2:]:  # after the separator, up to the end of the table
        if not line.startswith("|"):
            break
        rows.append(line)
    assert len(rows) >= 10
    for line in rows:
        cells = [c.strip() for c in line.strip("|").split("|")]
        flags = [f.strip("`") for f in cells[0].split(", ")]
        for command, mark in zip(commands, cells[1:1 + len(commands)], strict=True):
            has = all(f in _visible_flags(subs[command]) for f in flags)
            assert has == (mark == "yes"), (flags, command, mark)


def test_formats_lists_the_formats(cli) -> None:
    import jsonschema

    from clusteragree.cli.input_formats import INPUTS
    schema = json.loads((FIX.parent / "docs" / "schema" / "clusteragree-1.json").read_text())
    code, out, _ = cli("formats", "-f", "json")
    assert code == 0
    jsonschema.validate(json.loads(out), schema)
    results = json.loads(out)["results"]
    assert [(r["command"], r["input_format"]) for r in results] == [
        (f.command, f.name or "-") for f in INPUTS]
    code, out, _ = cli("formats", "-f", "csv")
    assert code == 0 and out.splitlines()[0] == "command,input_format,holds,auto,options"
    code, out, _ = cli("formats")
    assert code == 0 and "multilabel-json" in out and "brackets" in out


def test_input_format_reads_files_whatever_their_names(tmp_path: Path, cli) -> None:
    # Multi-label JSON in a .txt file: codings by default (auto), JSON when asked.
    records = [{"item": i, "annotator": a, "label": lab}
               for i, a, lab in [("s1", "u1", "x"), ("s1", "u2", "x"), ("s2", "u1", "y"),
                                 ("s2", "u2", "x")]]
    (tmp_path / "labels.txt").write_text(json.dumps(records))
    (tmp_path / "labels.json").write_text(json.dumps(records))
    code, _, _ = cli("table", str(tmp_path / "labels.txt"))
    assert code == 1
    code, out, err = cli("table", str(tmp_path / "labels.txt"), "--input-format",
                         "multilabel-json", "-f", "json")
    assert code == 0, err
    code, same, _ = cli("table", str(tmp_path / "labels.json"), "-f", "json")
    assert [r["value"] for r in json.loads(out)["results"]] == [
        r["value"] for r in json.loads(same)["results"]]
    # Bracketed trees in .txt files, and a .tree file read as CoNLL when asked (an error).
    for name, text in (("a", "(S (NP D N) (VP V))\n"), ("b", "(S (NP D) (VP N V))\n")):
        (tmp_path / f"{name}.txt").write_text(text)
        (tmp_path / f"{name}.tree").write_text(text)
    code, out, err = cli("trees", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"),
                         "--input-format", "brackets", "-f", "json")
    code2, out2, _ = cli("trees", str(tmp_path / "a.tree"), str(tmp_path / "b.tree"), "-f",
                         "json")
    assert code == code2 == 0, err
    assert json.loads(out)["results"][0]["alpha"] == json.loads(out2)["results"][0]["alpha"]
    code, _, err = cli("trees", str(tmp_path / "a.tree"), str(tmp_path / "b.tree"),
                       "--input-format", "conll")
    assert code == 1 and "a.tree:1" in err


def test_deprecated_spellings_are_reported_and_change_nothing_else(cli) -> None:
    code, out, _ = cli("coref", *CONLL, "--lenient", "--metrics", "muc", "-f", "json")
    obj = json.loads(out)
    assert code == 0 and any(w["kind"] == "deprecated" and "--lenient" in w["message"]
                             for w in obj["warnings"])
    code, plain, _ = cli("coref", *CONLL, "--metrics", "muc", "-f", "json")
    assert json.loads(plain)["results"] == obj["results"]
    trees = [str(FIX / "regressions" / "trees" / f) for f in ("ok.conllu", "relabelled.conllu")]
    code, old, _ = cli("trees", *trees, "--acc", "-f", "json")
    code2, new, _ = cli("trees", *trees, "--metrics", "accuracy", "-f", "json")
    assert code == code2 == 0
    assert json.loads(old)["results"] == json.loads(new)["results"]
    assert any(w["kind"] == "deprecated" for w in json.loads(old)["warnings"])
    assert not json.loads(new)["warnings"]


def test_tree_accuracies_are_in_the_headline(cli) -> None:
    trees = [str(FIX / "regressions" / "trees" / f) for f in ("ok.conllu", "relabelled.conllu")]
    code, out, _ = cli("trees", *trees, "--metrics", "accuracy", "-f", "json")
    want = {r["metric"]: r["value"] for r in json.loads(out)["results"] if r["kind"] == "accuracy"}
    code, text, _ = cli("trees", *trees, "--metrics", "accuracy")
    headline = text.partition("\n\n")[0]
    assert code == 0 and f"LAS {want['las']:.4f}, UAS {want['uas']:.4f}" in headline


@pytest.mark.parametrize(("argv", "said"), [
    (["table", "corpora_fixtures/multilabel_example.csv", "--bootstrap", "50"],
     "--bootstrap shapes the bootstrap interval"),
    (["table", "corpora_fixtures/multilabel_example.csv", "--worst", "3"], "--worst says"),
    (["table", "corpora_fixtures/multilabel_example.csv", "--p", "0.5"],
     "--p acts on multilabel-csv and multilabel-json input; these inputs are codings"),
    (["coref", "corpora_fixtures/coref/annotator-a.conll",
      "corpora_fixtures/coref/annotator-b.conll", "--text-dir", "."],
     "--text-dir acts on brat input; these inputs are conll"),
    (["coref", "corpora_fixtures/coref/annotator-a.conll",
      "corpora_fixtures/coref/annotator-b.conll", "--pairwise"], "with two, their pair"),
    (["coref", "corpora_fixtures/coref/annotator-a.conll",
      "corpora_fixtures/coref/annotator-b.conll", "--word-policy", "outermost"],
     "--units words"),
    (["coref", "corpora_fixtures/coref/annotator-a.conll",
      "corpora_fixtures/coref/annotator-b.conll", "--table", "metrics"],
     "--table chooses"),
])
def test_unused_options_are_said(cli, monkeypatch, tmp_path: Path, argv: list[str],
                                 said: str) -> None:
    """An option that does nothing on the run is an `unused` notice saying why (not an error,
    and not refused by --strict); the results are those of the run without it."""
    monkeypatch.chdir(FIX.parent)
    # the coreference fixtures' part 001 has two mentions of one entity sharing a token, an
    # error strict reading refuses (coref-crossing-same-entity): part 000 alone is clean
    for name in ("annotator-a.conll", "annotator-b.conll"):
        text = (FIX / "coref" / name).read_text(encoding="utf-8")
        (tmp_path / name).write_text(text.split("#end document")[0] + "#end document\n",
                                     encoding="utf-8")
    argv = [str(tmp_path / Path(a).name) if a.startswith("corpora_fixtures/coref/") else a
            for a in argv]
    code, _out, err = cli(*argv, "--strict")
    assert code == 0, err
    notices = [line for line in err.splitlines() if line.startswith("warning: unused: ")]
    assert len(notices) == 1 and said in notices[0], err


def test_options_that_act_are_not_said(cli, monkeypatch) -> None:
    monkeypatch.chdir(FIX.parent)
    code, _, err = cli("table", "corpora_fixtures/multilabel_example.csv", "--ci", "0.9",
                       "--bootstrap", "50", "--seed", "3", "--diagnostics", "--worst", "3")
    assert code == 0 and "unused" not in err, err
