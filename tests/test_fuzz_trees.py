"""Deep trees, the numba fallback, the tree readers' input checks, and fuzzing (``fuzzing.py``)."""

from __future__ import annotations

import os
import random
import warnings
from pathlib import Path

import pytest
from fuzzing import files, mutated, read_or_refuse, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import clusteragree.trees.edit_distance as ted_module
from clusteragree.errors import (
    AlphaUndefinedWarning,
    InputError,
    ParameterError,
    PerformanceWarning,
)
from clusteragree.trees import (
    Tree,
    TreeCache,
    parse_brackets,
    read_conll_trees,
    read_tree_annotations,
    read_trees,
    ted,
    tree_alpha,
    tree_table,
)

DEPTH = 100_000
CONLLU = (
    b"# sent_id = 1\n"
    b"1\tI\tI\tPRON\t_\t_\t2\tnsubj\t_\t_\n"
    b"2\tsaw\tsee\tVERB\t_\t_\t0\troot\t_\t_\n"
    b"3-4\tthe\t_\t_\t_\t_\t_\t_\t_\t_\n"
    b"3\tthe\tthe\tDET\t_\t_\t4\tdet\t_\t_\n"
    b"4\tman\tman\tNOUN\t_\t_\t2\tobj\t_\t_\n"
    b"4.1\tx\t_\t_\t_\t_\t_\t_\t_\t_\n"
    b"\n"
    b"1\tIt\tit\tPRON\t_\t_\t2\tnsubj\t_\t_\n"
    b"2\trained\train\tVERB\t_\t_\t0\troot\t_\t_\n"
    b"\n"
)
BRACKETS = b"(S (NP D N) (VP V (NP D A N)))\n(S (NP N) (VP V))\n"
FUZZ = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _chain_conllu(n: int, relation: str = "dep") -> str:
    lines = [f"{i}\tw{i}\t_\t_\t_\t_\t{i - 1}\t{relation}\t_\t_" for i in range(1, n + 1)]
    return "\n".join(lines) + "\n\n"


# ---------------------------------------------------------------- the flat tree
@st.composite
def nested_trees(draw: st.DrawFn, depth: int = 4) -> tuple:
    label = draw(st.sampled_from(["", "a", "b", "NP"]))
    if depth == 0:
        return (label, ())
    kids = draw(st.lists(nested_trees(depth=depth - 1), max_size=3))
    return (label, tuple(kids))


@settings(max_examples=200, deadline=None)
@given(nested_trees(), nested_trees())
def test_flat_trees_keep_the_nested_form_and_its_equality(a: tuple, b: tuple) -> None:
    ta, tb = Tree.from_nested(a), Tree.from_nested(b)
    assert ta.to_nested() == a
    assert (ta == tb) == (a == b)
    assert (hash(ta) == hash(tb)) or a != b
    assert ted(ta, tb) == ted(a, b) == ted(ta, b)


def test_a_malformed_tree_is_refused() -> None:
    with pytest.raises(ParameterError):
        Tree(["a", "b"], [2, 2])
    with pytest.raises(ParameterError):
        Tree(["a", "b", "c"], [3, 1, 2])  # the last subtree runs past the tree
    with pytest.raises(TypeError, match="nested tuples"):
        ted(None, ("a", ()))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="nested tuples"):
        ted(("a", [("b", ())]), ("a", ()))  # type: ignore[arg-type]


# ---------------------------------------------------------------- deep trees
def test_a_dependency_chain_100000_deep_is_read_and_scored(tmp_path: Path) -> None:
    # A chain this deep used to kill the interpreter: nested tuples are hashed, compared
    # and printed recursively in C.
    for name in ("a.conllu", "b.conllu"):
        (tmp_path / name).write_text(_chain_conllu(DEPTH), encoding="utf-8")
    tree = read_conll_trees(tmp_path / "a.conllu").sentences[0].tree
    assert len(tree) == DEPTH + 1 and tree.leaves == 1
    assert hash(tree) == hash(read_conll_trees(tmp_path / "b.conllu").sentences[0].tree)
    assert repr(tree).startswith("Tree('(_ (dep (dep")
    code, err = run_cli(["trees", "a.conllu", "b.conllu", "--acc", "-f", "json"], cwd=tmp_path)
    assert code == 0, err


def test_a_bracketed_tree_100000_deep_is_read_and_scored(tmp_path: Path) -> None:
    deep = "(X " * DEPTH + "w" + ")" * DEPTH
    for name in ("a.tree", "b.tree"):
        (tmp_path / name).write_text(deep + "\n(S (NP D N) VP)\n", encoding="utf-8")
    tree = read_trees(tmp_path / "a.tree").sentences[0].tree
    assert len(tree) == DEPTH + 1
    table = tree_table(read_tree_annotations([tmp_path / "a.tree", tmp_path / "b.tree"]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AlphaUndefinedWarning)
        assert tree_alpha(table, "plain").D_o == 0.0
    code, err = run_cli(["trees", "a.tree", "b.tree", "--acc"], cwd=tmp_path)
    assert code == 0, err


def test_two_different_huge_trees_are_refused_not_tabulated(tmp_path: Path) -> None:
    a = Tree(["x"] * DEPTH, range(DEPTH, 0, -1))
    b = a.relabel(lambda x: "y")
    with pytest.raises(InputError, match="table cells, more than the limit"):
        ted(a, b)
    with pytest.raises(InputError, match="max_cells"):
        TreeCache()(a, b)
    assert ted(a, a) == 0.0  # equal trees need no table
    (tmp_path / "a.conllu").write_text(_chain_conllu(DEPTH), encoding="utf-8")
    (tmp_path / "b.conllu").write_text(_chain_conllu(DEPTH, "other"), encoding="utf-8")
    code, err = run_cli(["trees", "a.conllu", "b.conllu"], cwd=tmp_path)
    assert code == 1 and "table cells" in err


# ---------------------------------------------------------------- numba
def test_numba_failing_for_any_reason_falls_back_with_one_warning(monkeypatch) -> None:
    def broken() -> None:
        raise RuntimeError("llvmlite could not be loaded")

    monkeypatch.setattr(ted_module.KERNEL, "value", False)  # not built yet
    monkeypatch.setattr(ted_module.KERNEL, "build", broken)
    t1, t2 = ("", (("a", ()), ("b", ()))), ("", (("a", ()),))
    with pytest.warns(PerformanceWarning, match="RuntimeError: llvmlite"):
        assert ted(t1, t2) == ted(t1, t2, kernel="python") == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once per process
        assert ted(t2, t1) == 1.0


# ---------------------------------------------------------------- readers
def test_ids_and_heads_are_ascii_numbers(tmp_path: Path) -> None:
    for bad, message in [("\u00b2", "word id"), ("\u0661", "word id")]:
        path = tmp_path / "x.conllu"
        path.write_text(CONLLU.decode().replace("1\tI\t", f"{bad}\tI\t", 1), encoding="utf-8")
        with pytest.raises(InputError, match=f"x.conllu:2: {message}"):
            read_conll_trees(path)
    path.write_text(CONLLU.decode().replace("\t2\tnsubj", "\t99999999999999999999999\tnsubj", 1),
                    encoding="utf-8")
    with pytest.raises(InputError, match=r"x.conllu:2: head .* too large"):
        read_conll_trees(path)


def test_non_utf8_bytes_say_where_and_encoding_reads_them(tmp_path: Path) -> None:
    path = tmp_path / "x.conllu"
    path.write_bytes(CONLLU.replace(b"man\tman", b"m\xe9n\tman"))
    with pytest.raises(InputError, match=r"x.conllu:6:4: byte 0xe9 is not UTF-8.*--encoding"):
        read_conll_trees(path)
    assert read_conll_trees(path, encoding="latin-1").sentences[0].words[3] == "mén"
    (tmp_path / "y.tree").write_bytes(BRACKETS + b"(S \xff)\n")
    with pytest.raises(InputError, match=r"y.tree:3:4: byte 0xff"):
        read_trees(tmp_path / "y.tree")


def test_skipped_lines_are_reported_with_their_first_line(tmp_path: Path) -> None:
    path = tmp_path / "x.conllu"
    path.write_bytes(CONLLU)
    with pytest.warns(Warning) as caught:
        read_conll_trees(path)
    notes = {str(w.message) for w in caught}
    assert any("x.conllu:4: note: multiword-token lines" in n for n in notes)
    assert any("x.conllu:7: note: empty nodes" in n for n in notes)


def _dirs(tmp_path: Path) -> list[str]:
    for ann in ("a", "b"):
        d = tmp_path / ann / "trees"
        d.mkdir(parents=True)
        (d / "doc1-x.conllu").write_bytes(CONLLU)
    return [str(tmp_path / "a" / "trees"), str(tmp_path / "b" / "trees")]


def test_dirs_with_the_same_base_name_stay_two_annotators(tmp_path: Path) -> None:
    annotations = read_tree_annotations(dirs=_dirs(tmp_path))
    assert len(annotations.sentences) == 2


def test_dirs_problems_are_named(tmp_path: Path) -> None:
    dirs = _dirs(tmp_path)
    with pytest.raises(ParameterError, match="two or more directories"):
        read_tree_annotations(dirs=dirs[:1])
    code, err = run_cli(["trees", "--dirs", dirs[0]])
    assert code == 2 and "usage: clusteragree trees" in err
    (Path(dirs[0]) / "doc1-y.conllu").write_bytes(CONLLU)
    with pytest.raises(InputError, match="two files of prefix 'doc1' in one directory"):
        read_tree_annotations(dirs=dirs)
    code, err = run_cli(["trees", "--dirs", dirs[1], str(tmp_path / "a" / "trees" /
                                                         "doc1-x.conllu")])
    assert code == 1 and "not a directory" in err
    if os.geteuid() != 0:  # root reads any directory
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0)
        try:
            code, err = run_cli(["trees", "--dirs", dirs[1], str(locked)])
            assert code == 1 and "cannot list the directory" in err
        finally:
            locked.chmod(0o755)


def test_dirs_pass_words_through(tmp_path: Path) -> None:
    for ann in ("a", "b"):
        (tmp_path / ann).mkdir()
        (tmp_path / ann / "doc1-x.tree").write_text("(S (NP (D the) (N cat)) (VP (V sat)))\n")
    annotations = read_tree_annotations(dirs=[tmp_path / "a", tmp_path / "b"], words=True)
    tree = next(iter(annotations.sentences["a"].values())).tree
    assert tree == parse_brackets("(S (NP D N) (VP V))")[0]


# ---------------------------------------------------------------- fuzzing
@FUZZ
@given(st.binary(max_size=1500))
def test_any_bytes_are_read_or_refused(data: bytes) -> None:
    with files({"x.conllu": data, "x.tree": data}) as root:
        read_or_refuse(lambda: read_conll_trees(root / "x.conllu"))
        read_or_refuse(lambda: read_trees(root / "x.tree"))
        read_or_refuse(lambda: read_trees(root / "x.tree", words=True))


@FUZZ
@given(mutated(CONLLU), st.sampled_from([[], ["--roots", "many", "--cycles", "drop"],
                                         ["--acc", "-f", "json"], ["--strict", "--metric", "all"],
                                         ["--unlabelled", "--size", "nodes"]]))
def test_trees_command_on_mutated_conllu(data: bytes, options: list[str]) -> None:
    with files({"a.conllu": data, "b.conllu": CONLLU}) as root:
        read_or_refuse(lambda: read_conll_trees(root / "a.conllu", roots="many",
                                                cycles="drop"))
        run_cli(["trees", "a.conllu", "b.conllu", *options], cwd=root)


@FUZZ
@given(mutated(BRACKETS), st.sampled_from([[], ["--words"], ["--acc", "-f", "csv"]]))
def test_trees_command_on_mutated_brackets(data: bytes, options: list[str]) -> None:
    with files({"a.tree": data, "b.tree": BRACKETS}) as root:
        run_cli(["trees", "a.tree", "b.tree", *options], cwd=root)


@FUZZ
@given(mutated(CONLLU), st.sampled_from(["doc1-x.conllu", "doc1-y.conllu", "doc2-x.conllu"]))
def test_trees_command_on_mutated_directories(data: bytes, name: str) -> None:
    with files({f"a/{name}": data, "b/doc1-x.conllu": CONLLU, "b/doc2-x.conllu": CONLLU}) as root:
        run_cli(["trees", "--dirs", "a", "b", "--acc"], cwd=root)


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False))
def test_random_deep_bracket_nesting_is_read_or_refused(rnd: random.Random) -> None:
    depth = rnd.choice([10, 1000, 20_000])
    text = "(X " * depth + "w" + ")" * (depth - rnd.choice([0, 0, 1]))
    with files({"x.tree": text.encode()}) as root:
        read_or_refuse(lambda: read_trees(root / "x.tree"))


def test_a_pair_too_large_names_its_sentences_and_max_cells_raises_the_limit(
        tmp_path: Path) -> None:
    # 60-word chains (61 nodes) differing in one relation: 62 x 62 = 3,844 cells.
    (tmp_path / "a.conllu").write_text("# s\n" + _chain_conllu(60), encoding="utf-8")
    (tmp_path / "b.conllu").write_text("# s\n" + _chain_conllu(60, "other"),
                                       encoding="utf-8")
    code, err = run_cli(["trees", "a.conllu", "b.conllu", "--max-cells", "3843"], cwd=tmp_path)
    assert code == 1, err
    # The error said neither which sentences nor how to raise the limit from the command line.
    assert "a.conllu:2: this sentence and the sentence at b.conllu:2: the tree edit" in err
    assert "--max-cells" in err
    code, err = run_cli(["trees", "a.conllu", "b.conllu", "--max-cells", "3844"], cwd=tmp_path)
    assert code == 0, err
    code, err = run_cli(["trees", "a.conllu", "b.conllu", "--max-cells", "0"], cwd=tmp_path)
    assert code == 2 and "--max-cells" in err


def test_dirs_report_the_entries_they_ignore(tmp_path: Path) -> None:
    from clusteragree.errors import InputWarning
    for d in ("A", "B"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "doc1-x.conllu").write_bytes(CONLLU)
    (tmp_path / "A" / "old").mkdir()  # a subdirectory was passed over in silence
    with pytest.warns(InputWarning, match="entries that are not files ignored .the first: old"):
        read_tree_annotations(dirs=[tmp_path / "A", tmp_path / "B"])
