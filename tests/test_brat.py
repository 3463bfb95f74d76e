"""BRAT standoff coreference: our fixture by hand, malformed files, the doubly annotated corpus."""

from __future__ import annotations

from pathlib import Path

import pytest
from reference import SET_DISTANCES, brute_alpha

from clusteragree import alpha
from clusteragree.cli import main
from clusteragree.coref import coref_alpha, coref_metrics, coref_tables, read_brat, read_brat_dir
from clusteragree.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "corpora_fixtures" / "coref" / "brat"
DATA = ROOT.parent / "shared" / "corpora" / "coref-multi-annotator" / "participant-analysis"


def _pair():
    return [read_brat_dir(FIX / "A", FIX / "text"), read_brat_dir(FIX / "B", FIX / "text")]


def test_reader_by_hand() -> None:
    doc = _pair()[0].documents["story"]
    assert [m.spans for m in doc.mentions] == [
        ((0, 4),), ((10, 21),), ((10, 13),), ((26, 30),), ((35, 37),), ((39, 41),)]
    chains: dict[str, set] = {}
    for m in doc.mentions:
        chains.setdefault(m.entity, set()).add(m.spans)
    assert {frozenset(c) for c in chains.values()} == {
        frozenset({((0, 4),), ((10, 13),)}), frozenset({((10, 21),), ((26, 30),), ((39, 41),)}),
        frozenset({((35, 37),)})}
    assert len(doc.words) == 10 and doc.words[7] == (35, 38)  # "it;"
    assert "".join(doc.tokens).startswith("Mary said")


def test_values_by_hand_and_brute_force() -> None:
    mentions = coref_tables(_pair(), coders=["A", "B"])["story"]
    # Units in span order: Mary 0, her 1, her brother 2, John 3, it 4, he 5.
    assert mentions.value("A", 0) == frozenset({1})
    assert mentions.value("B", 0) == frozenset({1, 3})
    assert mentions.value("B", 2) == frozenset()  # B did not mark "her brother"
    assert mentions.value("A", 5) == frozenset({2, 3})
    words = coref_tables(_pair(), units="words", coders=["A", "B"])["story"]
    # "her" is in A's "her" (entity 1) and "her brother" (entity 2): innermost is "her".
    assert words.value("A", 2) == frozenset({0})
    assert words.value("A", 8) == frozenset({3, 5})  # he: brother, John
    for table in (mentions, words):
        for name in ("nominal", "jaccard", "masi"):
            d_o, d_e, _ = brute_alpha({(c, u): v for c, u, v in table.records()},
                                      SET_DISTANCES[name])
            r = alpha(table, name)
            assert (r.D_o, r.D_e) == (pytest.approx(float(d_o)), pytest.approx(float(d_e)))


@pytest.mark.parametrize(
    ("ann", "line", "message"),
    [("T1\tMention 0 99\tMary\n", 1, "T1 offsets 0-99 are outside the text"),
     ("T1\tMention 0 4\tJohn\n", 1, "T1 says 'John' but the text at 0 4 is 'Mary'"),
     ("T1\tMention 0 4\tMary\n*\tCoreference T1 T9\n", 2, "the chain names T9"),
     ("T1\tMention 0 4\tMary\nT2\tMention 10 13\ther\n*\tCoreference T1 T2\n*\tCoreference "
      "T1\n", 4, "T1 is in two chains"),
     ("T1\tMention 0 4\n", 1, "cannot read the text-bound annotation"),
     ("X1 what\n", 1, "a line BRAT does not define")],
)
def test_malformed_brat(tmp_path: Path, ann: str, line: int, message: str) -> None:
    (tmp_path / "s.txt").write_text((FIX / "text" / "story.txt").read_text())
    (tmp_path / "s.ann").write_text(ann)
    with pytest.raises(InputError) as err:
        read_brat(tmp_path / "s.ann")
    assert str(err.value).startswith(f"{tmp_path / 's.ann'}:{line}: {message}")


def test_cli_brat_directories(capsys) -> None:
    assert main(["coref", str(FIX / "A"), str(FIX / "B"), "--text-dir", str(FIX / "text"),
                 "--metrics", "alpha,muc"]) == 0
    out = capsys.readouterr().out
    assert "masi" in out and "muc" in out


@pytest.mark.skipif(not DATA.is_dir(), reason="../shared/corpora absent")
def test_doubly_annotated_corpus() -> None:
    a, b = read_brat_dir(DATA / "A", DATA / "text"), read_brat_dir(DATA / "B", DATA / "text")
    assert len(a.documents) == 13
    both = a_only = b_only = 0
    for name in a.documents:
        ma = {m.spans for m in a.documents[name].mentions}
        mb = {m.spans for m in b.documents[name].mentions}
        both, a_only, b_only = both + len(ma & mb), a_only + len(ma - mb), b_only + len(mb - ma)
    assert (both, a_only, b_only) == (1438, 117, 136)  # as counted in the corpus notes
    frame = coref_alpha([a, b], ["jaccard"], coders=["A", "B"])
    total = frame[frame["document"] == "TOTAL"].iloc[0]
    assert total["n"] == 2 * (1438 + 117 + 136) and total["engine"] == "classes"
    tables = coref_tables([a, b], coders=["A", "B"])
    for table in list(tables.values())[:3]:
        assert alpha(table, "masi").alpha == pytest.approx(
            alpha(table, "masi", engine="generic").alpha)
    metrics = coref_metrics([a, b], coders=["A", "B"])
    assert ((metrics["f1"] > 0.5) & (metrics["f1"] < 1)).all()


TWICE = ROOT / "corpora_fixtures" / "regressions" / "coref" / "twice"


def test_the_same_characters_marked_twice_are_one_mention(recwarn) -> None:
    """A: Mary (T1, T5) and She (T3, T6) marked twice, the second ids in a chain; B: Mary and
    him marked again (T5, T6) in a chain that joins B's two chains. MUC by its definition
    (Vilain et al. 1995): key A {Mary, She} {John} {him}, response B {Mary, She, John, him};
    recall (2 - 1) / (2 - 1) = 1, precision (4 - 3) / (4 - 1) = 1/3."""
    a = read_brat_dir(TWICE / "A", TWICE / "text")
    b = read_brat_dir(TWICE / "B", TWICE / "text")
    spans = [m.spans for m in a.documents["story"].mentions]
    assert spans == [((0, 4),), ((9, 13),), ((15, 18),), ((25, 28),)]  # each once
    assert len({m.entity for m in b.documents["story"].mentions}) == 1
    notices = [str(w.message) for w in recwarn]
    assert any("B/story.ann:7: merged: chains joined" in n and "(2 times)" in n
               for n in notices)
    muc = coref_metrics([a, b], ["muc"], coders=["A", "B"]).set_index(["key", "metric"])
    assert muc.loc[("A", "muc"), "recall"] == 1.0
    assert muc.loc[("A", "muc"), "precision"] == pytest.approx(1 / 3)


def test_a_missing_text_names_the_option_and_the_file(tmp_path: Path, cli) -> None:
    (tmp_path / "A").mkdir()
    (tmp_path / "A" / "s.ann").write_text("T1\tMention 0 4\tMary\n")
    with pytest.raises(InputError) as err:
        read_brat_dir(tmp_path / "A")
    assert str(err.value) == (f"{tmp_path / 'A' / 's.txt'}: no such text for s.ann: the texts "
                              "are looked for beside the .ann files; give the directory of the "
                              "texts with text_dir")
    code, _, err_text = cli("coref", str(tmp_path / "A"), str(tmp_path / "A"), "--text-dir",
                            str(tmp_path))
    assert code == 1 and err_text.strip() == (f"{tmp_path / 's.txt'}: no such text for s.ann: "
                                              f"the texts are looked for in --text-dir {tmp_path}")


def test_every_notice_of_a_brat_file_before_the_refusal(tmp_path: Path, cli) -> None:
    """Types not read, relations not used and a span marked twice: all three in the ledger
    under --strict, then one refusal."""
    (tmp_path / "s.txt").write_text((FIX / "text" / "story.txt").read_text())
    ann = ("T1\tMention 0 4\tMary\nT2\tOther 0 4\tMary\nR1\tLikes Arg1:T1 Arg2:T1\n"
           "T3\tMention 0 4\tMary\n")
    for d in ("A", "B"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "s.ann").write_text(ann)
    code, _, err = cli("coref", str(tmp_path / "A"), str(tmp_path / "B"), "--text-dir",
                       str(tmp_path), "--types", "Mention", "--strict")
    lines = err.splitlines()
    a = tmp_path / "A" / "s.ann"
    assert code == 1 and sorted(lines[:-1]) == [
        f"warning: {a}:2: skipped: text-bound annotations of types not read as mentions: "
        "Other (1) (--types chooses)",
        f"warning: {a}:3: ignored: relations of type Likes not used (--relations names "
        "coreference relations)",
        f"warning: {a}:4: repaired: text-bound annotations of characters marked before read as "
        "that mention (the first id kept; a chain naming either id names it)"]
    assert lines[-1].startswith(f"{a}:") and "strict reading refuses it" in lines[-1]
    assert "2 other problem(s) of this file are in the warnings" in lines[-1]
