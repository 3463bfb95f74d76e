"""CorefUD CoNLL-U: our fixture by hand, malformed files, the CorefUD scorer's test files."""

from __future__ import annotations

import warnings
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


def _row(i: int, form: str, misc: str = "_") -> str:
    return "\t".join([str(i), form, "_", "_", "_", "_", "0", "_", "_", misc])


HEADER = "# global.Entity = eid-etype-head-other\n"


def test_lenient_reading_repairs_and_strict_reading_lists_every_kind(tmp_path: Path,
                                                                      cli) -> None:
    """A close without an open (line 3), a mention marked twice (line 4), a discontinuous
    mention with one of two parts (line 5) and a mention never closed (line 6)."""
    text = HEADER + "# newdoc id = d\n" + "\n".join([
        _row(1, "a", "Entity=e9)"), _row(2, "b", "Entity=(e1-x-1-)(e2-x-1-)"),
        _row(3, "c", "Entity=(e3[1/2]-x-1-)"), _row(4, "d", "Entity=(e4-x-1-"),
        _row(5, "e", "Entity=(e1-x-1-)")]) + "\n"
    bad = tmp_path / "d.conllu"
    bad.write_text(text)
    with pytest.warns(Warning) as caught:
        corpus = read_corefud(bad, lenient=True)
    assert [(m.spans, m.entity) for m in corpus.documents["d"].mentions] == [
        (((1, 2),), "e1"), (((4, 5),), "e1")]
    expected = [f"{bad}:3: repaired: closes of a mention that is not open ignored",
                f"{bad}:4: repaired: repeated mentions removed (first kept)",
                f"{bad}:5: repaired: discontinuous mentions with parts missing dropped",
                f"{bad}:6: repaired: mentions not closed by the end of their document dropped"]
    assert sorted(str(w.message) for w in caught) == expected
    # Read without repairs, the first problem is an error at once, with its own message.
    with pytest.raises(InputError, match=r"d.conllu:3: mention e9 closes here but was not"):
        read_corefud(bad)
    good = tmp_path / "g.conllu"
    good.write_text(HEADER + "# newdoc id = d\n" + "\n".join(
        _row(i, w) for i, w in enumerate("abcde", start=1)) + "\n")
    code, _, err = cli("coref", str(good), str(bad), "--metrics", "muc", "--strict")
    lines = err.splitlines()
    assert code == 1 and sorted(lines[:-1]) == [f"warning: {e}" for e in expected]
    assert lines[-1].startswith(f"{bad}:") and "3 other problem(s)" in lines[-1]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [(HEADER + _row(1, "a") + "\n# newdoc id = x\n" + _row(1, "b") + "\n", 3,
      "the documents at lines 2 and 3 are both named x (a document without # newdoc id is "
      "named after the file)"),
     (HEADER + "# newdoc\n" + _row(1, "a") + "\n# newdoc\n" + _row(1, "b") + "\n", 4,
      "the documents at lines 2 and 4 are both named x"),
     (HEADER + "# newdoc id = d\n" + _row(1, "a") + "\n# newdoc id = d\n" + _row(1, "b")
      + "\n", 4, "# newdoc id = d again (first at line 2)")],
)
def test_two_documents_of_one_name_are_refused(tmp_path: Path, text: str, line: int,
                                               message: str) -> None:
    """The document before the first # newdoc, or one without an id, is named after the file
    (x): a later document of that name used to replace it without a word."""
    path = tmp_path / "x.conllu"
    path.write_text(text)
    for fast in (True, False):
        with pytest.raises(InputError) as err:
            read_corefud(path, lenient=True, fast=fast)
        assert str(err.value).startswith(f"{path}:{line}: {message}")


def test_a_newdoc_without_id_starts_a_document(tmp_path: Path) -> None:
    path = tmp_path / "x.conllu"
    path.write_text(HEADER + "# newdoc id = y\n" + _row(1, "a") + "\n# newdoc\n" + _row(1, "b")
                    + "\n")
    for fast in (True, False):  # b used to be read as the second token of y
        docs = read_corefud(path, fast=fast).documents
        assert {n: d.tokens for n, d in docs.items()} == {"y": ("a",), "x": ("b",)}


@pytest.mark.parametrize("end", ["\r", "\r\n"])
def test_cr_and_crlf_line_ends_read_as_lf(tmp_path: Path, end: str) -> None:
    lf = (FIX / "annotator-a.conllu").read_bytes()
    other = tmp_path / "other" / "annotator-a.conllu"
    other.parent.mkdir()
    other.write_bytes(lf.replace(b"\n", end.encode()))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing to report: every line ends alike
        got = read_corefud(other)
    want = read_corefud(FIX / "annotator-a.conllu")
    assert got.documents["d1"].tokens == want.documents["d1"].tokens
    assert got.documents["d1"].mentions == want.documents["d1"].mentions
    assert got.documents["d1"].token_lines == want.documents["d1"].token_lines


@pytest.mark.parametrize("fast", [False, True])
def test_two_discontinuous_mentions_of_one_entity(tmp_path, fast) -> None:
    """Parts are matched in order (as Udapi does): e1 has two discontinuous mentions of two
    parts each, tokens 1 and 3, then 4 and 6 (1-based), and a third part-less mention."""
    misc = ["Entity=(e1[1/2])", "_", "Entity=(e1[2/2])", "Entity=(e1[1/2])", "_",
            "Entity=(e1[2/2])", "Entity=(e1)"]
    lines = ["# newdoc id = d", "# global.Entity = eid-etype-head-other", "# sent_id = 1",
             "# text = " + " ".join(f"w{i}" for i in range(1, 8))]
    lines += [f"{i}\tw{i}\tw\tX\t_\t_\t0\troot\t_\t{m}" for i, m in enumerate(misc, start=1)]
    path = tmp_path / "d.conllu"
    path.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    doc = read_corefud(path, fast=fast).documents["d"]
    assert sorted(m.spans for m in doc.mentions) == [((0, 1), (2, 3)), ((3, 4), (5, 6)),
                                                     ((6, 7),)]
    assert {m.entity for m in doc.mentions} == {"e1"}
