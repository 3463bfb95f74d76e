"""CorefUD CoNLL-U: our fixture by hand, malformed files, the CorefUD scorer's test files."""

from __future__ import annotations

from pathlib import Path

import pytest

from clusteragree.cli import main
from clusteragree.coref import coref_tables, read_conll, read_corefud
from clusteragree.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "corpora_fixtures" / "coref" / "corefud"
TESTS = ROOT.parent / "shared" / "corpora" / "coref-scorer-tests"


def test_reader_by_hand() -> None:
    doc = read_corefud(FIX / "annotator-a.conllu").documents["d1"]
    assert doc.tokens[:4] == ("Mary", "said", "her", "brother")
    assert [(m.spans, m.entity, m.head) for m in doc.mentions] == [
        (((0, 1),), "e1", 0), (((2, 4),), "e2", 3), (((2, 3),), "e1", 2),
        (((5, 6),), "e2", 5), (((6, 8), (9, 10)), "e3", 6), (((7, 8),), "e1", 7)]


def test_head_policy_and_agreement_between_fixtures() -> None:
    corpora = [read_corefud(FIX / "annotator-a.conllu"), read_corefud(FIX / "annotator-b.conllu")]
    heads = coref_tables(corpora, units="words", word_policy="head", coders=["A", "B"])["d1"]
    # "brother" (3) heads e2 with "He" (5) for A; B has no "He".
    assert heads.value("A", 3) == frozenset({5}) and heads.value("B", 3) == frozenset()
    assert heads.value("A", 2) == frozenset({0, 7})  # "her" heads its e1 mention
    inner = coref_tables(corpora, units="words", coders=["A", "B"])["d1"]
    assert inner.value("A", 9) == frozenset({6})  # "him": e3 with "and" ("she" is e1 inside)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [("# newdoc id = x\n# global.Entity = eid-etype-head-other\n"
      "1\ta\t_\t_\t_\t_\t0\t_\t_\tEntity=e1)\n", 3, "mention e1 closes here but was not opened"),
     ("# newdoc id = x\n# global.Entity = eid-etype-head-other\n"
      "1\ta\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1-x-1-\n", 3, "document x: mention of e1 opened at "
      "line 3 is not closed"),
     ("# newdoc id = x\n1\ta\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1-x-1-)\n", 2,
      "Entity= annotations but no # global.Entity header"),
     ("# newdoc id = x\n# global.Entity = eid-etype-head-other\n"
      "1\ta\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1-x-h-)\n", 3, "head of e1 'h' is not a whole number"),
     ("# newdoc id = x\n1\ta\t_\n", 2, "3 columns, expected the 10 TAB-separated columns"),
     ("# newdoc id = x\n# global.Entity = eid-etype-head-other\n"
      "1\ta\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1-x-1-)(e2-x-1-)\n", 3,
      "document x: the mention at tokens 0-0 is marked twice (entity e1, line 3, and entity "
      "e2)")],
)
def test_malformed_corefud(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = tmp_path / "bad.conllu"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        read_corefud(path)
    assert str(err.value).startswith(f"{path}:{line}: {message}")


def test_cli_detects_conllu(capsys) -> None:
    files = [str(FIX / "annotator-a.conllu"), str(FIX / "annotator-b.conllu")]
    assert main(["coref", *files, "--units", "words", "--word-policy", "head"]) == 0
    assert "masi" in capsys.readouterr().out


@pytest.mark.skipif(not TESTS.is_dir(), reason="../shared/corpora absent")
def test_corefud_scorer_files_read_as_their_conll_twins() -> None:
    ud = TESTS / "corefud-scorer" / "tests" / "tests-corefud"
    conll = TESTS / "reference-scorer" / "test" / "DataFiles"
    pairs = [(f, conll / f.name) for f in sorted((ud / "exact-match").glob("TC-*"))
             if (conll / f.name).exists()]
    assert len(pairs) == 50
    for u, c in pairs:
        a = sorted(sorted(x) for d in read_corefud(u, lenient=True).documents.values()
                   for x in d.clusters())
        b = sorted(sorted(x) for d in read_conll(c, lenient=True).documents.values()
                   for x in d.clusters())
        assert a == b, u.name
    others = [f for f in ud.rglob("*") if f.is_file() and "README" not in f.name]
    for f in others:
        assert read_corefud(f, lenient=True).documents, f
