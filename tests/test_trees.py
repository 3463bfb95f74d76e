"""Tree edit distance, tree alpha and the tree readers."""

from __future__ import annotations

import json
import math
import re
import warnings
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree.errors import AlphaUndefinedWarning, InputError, ParameterError
from clusteragree.trees import (
    Sentence,
    TreeCache,
    accuracies,
    mean_pairwise_accuracy,
    parse_brackets,
    read_conll_trees,
    read_tree_annotations,
    read_tree_dirs,
    size,
    ted,
    tree_alpha,
    tree_table,
)

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora" / "syntax"

# Skjaerholt (2014), Figure 2.
T1 = ("", (("Pred", (("Subj", ()), ("Obj", (("Det", ()),)))),))
T2 = ("", (("Pred", (("Subj", ()), ("Obj", (("Det", ()), ("Atr", (("Pred", (("Obj", (
    ("Det", ()),)),)),)))))),))
T3 = ("", (("Pred", (("Subj", ()),)),))


def test_figure_2_distances() -> None:
    assert (ted(T1, T2), ted(T1, T3), ted(T2, T3)) == (4.0, 2.0, 6.0)
    assert ted(T1, T2) - abs(size(T1) - size(T2)) == 0  # delta_diff = 0, as the paper says
    assert ted(T1, T3) - abs(size(T1) - size(T3)) == 0


def _forest_distance(f, g, free_empty, indel=None, relabel=None):
    """The textbook recursion on forests (rightmost roots), memoised: independent of the
    key-root algorithm."""

    def cost(label):
        return 0.0 if free_empty and label == "" else (indel or {}).get(label, 1.0)

    def change(x, y):
        return (0.0 if x == y else 1.0) if relabel is None else relabel[x, y]

    def weight(forest):
        return sum(cost(t[0]) + weight(t[1]) for t in forest)

    @cache
    def d(f, g):
        if not f and not g:
            return 0.0
        if not f:
            return weight(g)
        if not g:
            return weight(f)
        v, w = f[-1], g[-1]
        return min(d(f[:-1] + v[1], g) + cost(v[0]),
                   d(f, g[:-1] + w[1]) + cost(w[0]),
                   d(v[1], w[1]) + d(f[:-1], g[:-1]) + change(v[0], w[0]))

    return d((f,), (g,))


labels = st.sampled_from(["", "a", "b", "c"])
trees = st.recursive(st.tuples(labels, st.just(())),
                     lambda kids: st.tuples(labels, st.lists(kids, max_size=3).map(tuple)),
                     max_leaves=7)


@settings(max_examples=200, deadline=None)
@given(trees, trees, st.booleans())
def test_ted_equals_the_forest_recursion(a, b, free_empty) -> None:
    assert ted(a, b, free_empty=free_empty) == pytest.approx(_forest_distance(a, b, free_empty))
    assert ted(a, b, free_empty=free_empty) == ted(b, a, free_empty=free_empty)


costs = st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0])
LABELS = ["", "a", "b", "c"]


@settings(max_examples=150, deadline=None)
def _zss_node(t):
    import zss
    node = zss.Node(t[0])
    for child in t[1]:
        node.addkid(_zss_node(child))
    return node


@settings(max_examples=200, deadline=None)
@given(trees, trees)
def test_ted_equals_the_zss_package(a, b) -> None:
    """A second implementation of Zhang and Shasha (1989): the zss package, unit costs. zss
    prices inserting or deleting a node as relabelling it from or to the empty label, so
    empty-labelled nodes are free there: our ``free_empty=True``."""
    zss = pytest.importorskip("zss")
    want = zss.simple_distance(_zss_node(a), _zss_node(b),
                               label_dist=lambda x, y: 0 if x == y else 1)
    assert ted(a, b, free_empty=True) == want


@given(trees, trees, st.booleans(), st.lists(costs, min_size=4, max_size=4),
       st.lists(costs, min_size=16, max_size=16), st.sampled_from(["python", "auto"]))
def test_ted_with_custom_costs_equals_the_forest_recursion(a, b, free_empty, indel_costs,
                                                          relabel_costs, kernel) -> None:
    indel = dict(zip(LABELS, indel_costs, strict=True))
    relabel = {(x, y): relabel_costs[4 * i + j] for i, x in enumerate(LABELS)
               for j, y in enumerate(LABELS)}
    got = ted(a, b, free_empty=free_empty, indel=indel.__getitem__,
              relabel=lambda x, y: relabel[x, y], kernel=kernel)
    assert got == pytest.approx(_forest_distance(a, b, free_empty, indel, relabel))


def test_negative_costs_are_refused() -> None:
    with pytest.raises(ParameterError, match="non-negative"):
        ted(T1, T3, indel=lambda x: -1.0)
    for kernel in ("python", "auto"):
        with pytest.raises(ParameterError, match="non-negative"):
            ted(T1, T3, relabel=lambda x, y: -1.0, kernel=kernel)


def test_deep_tree_does_not_overflow() -> None:
    chain = ("x", ())
    for _ in range(3000):
        chain = ("x", (chain,))
    assert ted(chain, ("x", ())) == 3000.0


def test_tree_alpha_by_hand() -> None:
    # Two sentences; A: t1, t1; B: t1, t3. Squared plain distances: d(t1, t3)^2 = 4.
    # D_o = (1/4) * (0 + 2 * 4 / 1) = 2. Values t1, t1, t1, t3: ordered pairs at distance
    # 4: 3 * 2 = 6 of 12, so D_e = 6 * 4 / 12 = 2, and alpha = 0.
    table = tree_table({"A": [T1, T1], "B": [T1, T3]})
    r = tree_alpha(table, "plain")
    assert (r.D_o, r.D_e, r.alpha) == (pytest.approx(2.0), pytest.approx(2.0), pytest.approx(0))
    # With a third sentence on which they agree (t2, t2): D_o = 8 / 6; values t1 t1 t1 t3 t2 t2;
    # squared distances t1-t3 4, t1-t2 16, t3-t2 36: sum over ordered pairs
    # 2 * (3*1*4 + 3*2*16 + 1*2*36) = 360, D_e = 360 / 30 = 12; alpha = 1 - (4/3) / 12.
    table = tree_table({"A": [T1, T1, T2], "B": [T1, T3, T2]})
    assert tree_alpha(table, "plain").alpha == pytest.approx(1 - (4 / 3) / 12)
    # norm: d(t1, t3) / (5 + 3) = 1/4, squared 1/16.
    assert tree_alpha(tree_table({"A": [T1, T1], "B": [T1, T3]}), "norm").D_o == pytest.approx(
        (2 * (1 / 16)) / 4)
    cache = TreeCache(True)
    # Every delta_diff here is 0 (the paper's point about diff), so D_e = 0: NaN with a warning.
    with pytest.warns(AlphaUndefinedWarning):
        assert math.isnan(tree_alpha(table, "diff", cache=cache).alpha)
    assert cache.misses == 3 and cache.hits > 0


CONLL = ("1\tI\t_\t_\t_\t_\t2\tSubj\t_\t_\n2\tsaw\t_\t_\t_\t_\t0\tPred\t_\t_\n"
         "3\tthe\t_\t_\t_\t_\t4\tDet\t_\t_\n4\tman\t_\t_\t_\t_\t2\tObj\t_\t_\n")


def test_conll_sentence_becomes_figure_1_tree(tmp_path: Path) -> None:
    path = tmp_path / "a.conll"
    path.write_text("# a comment\n" + CONLL + "\n1-2\tIsaw\t_\t_\t_\t_\t_\t_\t_\t_\n"
                    "1\tI\t_\t_\t_\t_\t0\tPred\t_\t_\n1.1\tx\t_\t_\t_\t_\t_\t_\t_\t_\n")
    f = read_conll_trees(path)
    assert f.sentences[0].tree.to_nested() == T1
    assert f.skipped == {"multiword-token lines": 1, "empty nodes": 1}
    assert f.sentences[1].tree.to_nested() == ("", (("Pred", ()),))


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [(CONLL.replace("\t0\tPred", "\t4\tPred"), 1, "the sentence has no root"),
     (CONLL.replace("\t2\tObj", "\t0\tObj"), 1,
      "1 sentence with several roots (head 0) (the first here); a tree has one root: "
      "roots='many' keeps"),
     (CONLL.replace("\t2\tSubj", "\t9\tSubj"), 1, "word 1 has head 9, outside the sentence"),
     ("1\ta\t_\t_\t_\t_\t2\tx\t_\t_\n2\tb\t_\t_\t_\t_\t1\ty\t_\t_\n3\tc\t_\t_\t_\t_\t0\tz\t_\t_\n",
      1, "1 sentence whose heads form a cycle (the first here); a tree has no cycle: "
      "cycles='drop' leaves"),
     ("1\ta\t_\t_\t_\t_\t0\tx\t_\t_\n3\tb\t_\t_\t_\t_\t1\ty\t_\t_\n", 2, "word id '3', expected 2"),
     ("1\ta\t_\n", 1, "3 columns, expected the 10")],
)
def test_malformed_trees(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = tmp_path / "bad.conll"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        read_conll_trees(path)
    assert str(err.value).startswith(f"{path}:{line}: {message}")


def test_brackets_and_jaccard(tmp_path: Path) -> None:
    _, brackets = parse_brackets("(S (NP D N) (VP V))")
    assert brackets == {("S", 0, 3), ("NP", 0, 2), ("VP", 2, 3), ("D", 0, 1), ("N", 1, 2),
                        ("V", 2, 3)}
    with pytest.raises(InputError, match="unbalanced"):
        parse_brackets("(S (NP D N)")
    a_dir, b_dir = tmp_path / "ann1", tmp_path / "ann2"
    a_dir.mkdir()
    b_dir.mkdir()
    (a_dir / "1-x.tree").write_text("(S (NP D N) (VP V))\n")
    (b_dir / "1-y.tree").write_text("(S (NP D) (VP N V))\n")
    files = read_tree_dirs([a_dir, b_dir])
    acc = accuracies(files["1"])
    # Brackets: S, D, N, V and NP(0,2), VP(2,3) against S, D, N, V, NP(0,1), VP(1,3): 4 of 8.
    assert acc["jaccard"].iloc[0] == pytest.approx(4 / 8)


def test_accuracies_by_hand(tmp_path: Path) -> None:
    a, b = tmp_path / "a.conll", tmp_path / "b.conll"
    a.write_text(CONLL)
    b.write_text(CONLL.replace("\t4\tDet", "\t2\tDet").replace("\tSubj", "\tObj"))
    acc = accuracies({"a": read_conll_trees(a), "b": read_conll_trees(b)}).iloc[0]
    # Of 4 words: "the" has another head (UAS 3/4), "I" another label (LA 3/4); LAS 2/4.
    assert (acc["uas"], acc["la"], acc["las"]) == (0.75, 0.75, 0.5)


def test_cli_trees(tmp_path: Path, cli) -> None:
    a, b = tmp_path / "a.conll", tmp_path / "b.conll"
    a.write_text(CONLL + "\n" + CONLL)
    b.write_text(CONLL + "\n" + CONLL.replace("\t4\tDet", "\t2\tDet"))
    code, out, _ = cli("trees", str(a), str(b), "--metric", "all", "--acc", "-f", "json")
    obj = json.loads(out)
    assert code == 0 and [r["distance"].removeprefix("ted-") if r["kind"] == "alpha"
                          else r["metric"] for r in obj["results"]] == [
        "plain", "diff", "norm", "las", "uas", "la"]
    assert obj["results"][3]["value"] == pytest.approx(7 / 8)
    code, _, err = cli("trees", str(a))
    assert code == 2 and "two or more files" in err
    for name, text in (("x", "(S (NP D N) (VP V))\n"), ("y", "(S (NP D) (VP N V))\n")):
        (tmp_path / name).mkdir()
        (tmp_path / name / f"1-{name}.tree").write_text(text)
    code, out, _ = cli("trees", "--dirs", str(tmp_path / "x"), str(tmp_path / "y"), "--acc",
                       "-f", "json")
    jaccard = json.loads(out)["results"][1]
    assert code == 0 and jaccard["metric"] == "jaccard" and jaccard["value"] == 0.5


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/corpora absent")
def test_multi_annotator_directories_load() -> None:
    es = SHARED / "cdt" / "es"
    with pytest.raises(InputError, match=r"roots='many'.*cycles='drop'"):
        read_tree_dirs(sorted(p for p in es.iterdir() if p.is_dir()))
    with pytest.raises(InputError, match=r"^[^;]*cycle[^;]*;[^;]*cycles='drop'") as err:
        read_tree_dirs(sorted(p for p in es.iterdir() if p.is_dir()), roots="many")
    assert "roots=" not in str(err.value)
    files = read_tree_dirs(sorted(p for p in es.iterdir() if p.is_dir()), roots="many",
                           cycles="drop")
    annotations = sum(len(tf.sentences) for group in files.values() for tf in group.values())
    assert annotations == 161  # the corpus notes: CDT(es) has 161 sentence annotations


def test_cycles_can_be_left_out_and_are_counted(tmp_path: Path) -> None:
    path = tmp_path / "c.conll"
    path.write_text("1\ta\t_\t_\t_\t_\t2\tx\t_\t_\n2\tb\t_\t_\t_\t_\t1\ty\t_\t_\n"
                    "3\tc\t_\t_\t_\t_\t0\tz\t_\t_\n")
    f = read_conll_trees(path, cycles="drop")
    assert f.sentences[0].tree.to_nested() == ("", (("z", ()),))
    assert f.skipped == {"words in cycles left out": 2}


@settings(max_examples=100, deadline=None)
@given(trees, trees, st.booleans())
def test_numba_kernel_equals_python_kernel(a, b, free_empty) -> None:
    pytest.importorskip("numba")
    assert ted(a, b, free_empty=free_empty, kernel="numba") == ted(
        a, b, free_empty=free_empty, kernel="python")


# Skjaerholt (2014), Table 2 as printed: alpha_plain, alpha_diff, alpha_norm, LAS (SSD: mean
# pairwise bracket Jaccard), in percent; the footnotes' ignored sentences. CDT(es) and CDT(it)
# LAS are not reproduced (docs/reproduction/skjaerholt2014.md): None here.
PRINTED = {
    "NDT1": ((98.4, 93.0, 98.8, 94.0), 0), "NDT2": ((98.9, 95.0, 99.1, 94.4), 0),
    "NDT3": ((97.9, 91.2, 98.7, 95.3), 0), "CDT(da)": ((95.7, 84.7, 96.2, 90.4), 0),
    "CDT(en)": ((92.4, 70.7, 95.0, 88.4), 0), "CDT(es)": ((86.6, 48.8, 85.8, None), 2),
    "CDT(it)": ((84.5, 55.7, 89.2, None), 15), "SSD": ((99.1, 98.6, 99.3, 87.9), 0),
}


def _corpus(name: str):
    if name.startswith("NDT"):
        stem = {"1": "danish", "2": "swedish", "3": "norwegian"}[name[3]]
        return read_tree_annotations([SHARED / "ndt" / f"{a}-{stem}.conll"
                                      for a in ("odin", "thor")])
    if name == "SSD":
        return read_tree_annotations(dirs=sorted(p for p in (SHARED / "ssd").iterdir()
                                                 if p.is_dir()))
    lang = name[4:6]
    if lang in ("da", "en"):
        return read_tree_annotations([SHARED / "cdt" / f"{lang}-{a}.conll"
                                      for a in ("lotte", "morten")], roots="many",
                                     cycles="drop")
    return read_tree_annotations(dirs=sorted(p for p in (SHARED / "cdt" / lang).iterdir()
                                             if p.is_dir()), roots="many", cycles="drop")


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/corpora absent")
@pytest.mark.parametrize("name", list(PRINTED))
def test_table_2_as_printed(name: str) -> None:
    pytest.importorskip("numba")  # the pure Python kernel would take minutes here
    printed, ignored = PRINTED[name]
    corpus = _corpus(name)
    table = tree_table(corpus)
    cache = TreeCache(True)
    ours = [round(100 * tree_alpha(table, m, cache=cache).alpha, 1)
            for m in ("plain", "diff", "norm")]
    acc = mean_pairwise_accuracy(corpus)
    ours.append(round(100 * acc["las" if corpus.kind == "dependency" else "jaccard"], 1))
    assert [o if p is not None else None for o, p in zip(ours, printed, strict=True)] == list(
        printed)
    assert acc["ignored"] == ignored


def test_size_counts_the_words_of_a_cycle() -> None:
    # Words 1 and 2 head each other: the tree keeps the root and word 3 (2 nodes), but the
    # sentence has 3 words: |x| = 4 by default ("tokens"), 2 with size_by="nodes".
    cyc = Sentence(("", (("z", ()),)), words=("a", "b", "c"), heads=(2, 1, 0),
                   deprels=("x", "y", "z"))
    full = Sentence(("", (("z", (("x", ()), ("y", ()))),)), words=("a", "b", "c"),
                    heads=(3, 3, 0), deprels=("x", "y", "z"))
    table = tree_table({"A": [cyc, full], "B": [full, full]})
    # TED(cyc, full) = 2 (insert x and y). diff: 2 - |4 - 4| = 2 by tokens, 2 - |2 - 4| = 0 by
    # nodes; norm: 2 / 8 by tokens, 2 / 6 by nodes. One disagreeing pair in unit 0: D_o =
    # 2 d^2 / 4; values cyc, full x3: D_e = 6 d^2 / 12, so alpha = 0 whenever d > 0.
    assert tree_alpha(table, "diff").D_o == pytest.approx(2 * 4 / 4)
    with pytest.warns(AlphaUndefinedWarning):
        assert math.isnan(tree_alpha(table, "diff", size_by="nodes").alpha)
    assert tree_alpha(table, "norm").D_o == pytest.approx(2 * (2 / 8) ** 2 / 4)
    assert tree_alpha(table, "norm", size_by="nodes").D_o == pytest.approx(
        2 * (2 / 6) ** 2 / 4)
    with pytest.raises(ParameterError, match="needs dependency sentences"):
        tree_alpha(tree_table({"A": [T1], "B": [T3]}), "diff", size_by="tokens")


def _dep(heads: tuple[int, ...], rels: tuple[str, ...]) -> Sentence:
    return Sentence(("", ()), words=tuple("w" * len(heads)), heads=heads, deprels=rels)


def test_mean_pairwise_accuracy_by_hand() -> None:
    # Sentence 0 (2 words), three annotators: pair LAS A-B 1/2, A-C 2/2, B-C 1/2, mean 2/3.
    # Sentence 1 (4 words), A and B: LAS 1/4. Sentence 2: lengths differ: ignored.
    # Sentence 3: only A: not pairable. Equation (3): (2 * 2/3 + 4 * 1/4) / 6 = 7/18.
    a = {0: _dep((2, 0), ("s", "p")), 1: _dep((2, 0, 2, 3), ("s", "p", "o", "d")),
         2: _dep((0,), ("p",)), 3: _dep((0,), ("p",))}
    b = {0: _dep((2, 0), ("o", "p")), 1: _dep((0, 1, 2, 2), ("s", "p", "o", "x")),
         2: _dep((2, 0), ("s", "p"))}
    c = {0: _dep((2, 0), ("s", "p"))}
    acc = mean_pairwise_accuracy({"A": a, "B": b, "C": c})
    assert acc["las"] == pytest.approx(7 / 18)
    assert (acc["sentences"], acc["ignored"], acc["weight"]) == (2, 1, 6)
    # Unweighted: (2/3 + 1/4) / 2. UAS: sentence 0 all 1, sentence 1 (word 3 only) 1/4.
    assert mean_pairwise_accuracy({"A": a, "B": b, "C": c}, weighted=False)["las"] == (
        pytest.approx((2 / 3 + 1 / 4) / 2))
    assert acc["uas"] == pytest.approx((2 * 1 + 4 * 1 / 4) / 6)
    pairs = accuracies({"A": a, "B": b, "C": c})
    # Pooled per pair: A-B over sentences 0 and 1 (2 ignored): (1 + 1) / 6.
    assert pairs.set_index(["a", "b"]).loc[("A", "B"), "las"] == pytest.approx(2 / 6)
    assert pairs.set_index(["a", "b"]).loc[("A", "B"), "skipped"] == 1


def test_paired_files_must_hold_the_same_sentences(tmp_path: Path) -> None:
    a, b = tmp_path / "a.conll", tmp_path / "b.conll"
    a.write_text(CONLL + "\n" + CONLL)
    b.write_text(CONLL)
    with pytest.raises(InputError) as err:
        read_tree_annotations([a, b])
    assert str(err.value).startswith(f"{b}: 1 sentences where {a} has 2")
    with pytest.raises(ParameterError, match="not both"):
        read_tree_annotations([a, b], dirs=[tmp_path])


def test_unlabelled_alpha_ignores_relations() -> None:
    relabelled = ("", (("Pred", (("Obj", ()), ("Obj", (("Det", ()),)))),))  # Subj -> Obj
    table = tree_table({"A": [T1, T3, T2], "B": [relabelled, T3, T2]})
    assert tree_alpha(table, "plain", labelled=False).D_o == 0.0
    assert tree_alpha(table, "plain").D_o > 0.0


# ---------------------------------------------------------------- the tree model's builders
def test_children_that_do_not_form_a_tree_are_refused() -> None:
    from clusteragree.errors import ParameterTypeError
    from clusteragree.trees import Tree
    # A cycle looped for ever, filling memory; a child out of range was an IndexError.
    with pytest.raises(ParameterError, match="reached twice"):
        Tree.from_children(["a", "b"], [[1], [0]])
    with pytest.raises(ParameterError, match="reached twice"):
        Tree.from_children(["a", "b", "c"], [[1, 2], [2], []])  # c has two parents
    with pytest.raises(ParameterError, match="not a node id"):
        Tree.from_children(["a"], [[5]])
    with pytest.raises(ParameterError, match="one list of children per label"):
        Tree.from_children(["a", "b"], [[1]])
    with pytest.raises(ParameterError, match="root must be"):
        Tree.from_children(["a"], [[]], root=3)
    # Unreached nodes are left out (what the reader does with words in a cycle).
    assert Tree.from_children(["r", "x", "y"], [[], [2], [1]]) == Tree(["r"], [1])
    # Sizes are whole numbers: 1.5 was truncated to 1, "x" a bare ValueError.
    with pytest.raises(ParameterTypeError, match="whole numbers"):
        Tree(["a"], [1.5])
    with pytest.raises(ParameterTypeError, match="whole numbers"):
        Tree(["a"], ["x"])
    with pytest.raises(ParameterTypeError, match="labels must be a sequence"):
        Tree(3, [1])  # type: ignore[arg-type]


def test_a_sentence_holds_a_flat_tree_and_where_it_was_read(tmp_path: Path) -> None:
    from clusteragree.trees import Tree
    nested = Sentence(T3, words=("a", "b"), heads=(0, 1), deprels=("Pred", "Subj"))
    assert isinstance(nested.tree, Tree) and nested.tree == Tree.from_nested(T3)
    with pytest.raises(ParameterError, match="one head and one relation per word"):
        Sentence(T3, words=("a", "b"), heads=(0,), deprels=("Pred", "Subj"))
    path = tmp_path / "a.conll"
    path.write_text(CONLL)
    sentence = read_conll_trees(path).sentences[0]
    assert (sentence.path, sentence.line) == (str(path), 1)
    assert sentence == Sentence(sentence.tree, sentence.words, sentence.heads,
                                sentence.deprels)  # where it was read is not compared


# ---------------------------------------------------------------- arguments
def _sentences() -> dict:
    return {"A": {0: _dep((2, 0), ("s", "p"))}, "B": {0: _dep((2, 0), ("o", "p"))}}


@pytest.mark.parametrize(("call", "error", "message"), [
    # Each was a bare TypeError, ValueError, AttributeError or IndexError from inside.
    (lambda: ted(None, T1), "ParameterTypeError", "a: a tree is"),
    (lambda: ted(T1, 3), "ParameterTypeError", "b: a tree is"),
    (lambda: ted(T1, T3, relabel=3), "ParameterTypeError", "relabel must be a callable"),
    (lambda: ted(T1, T3, indel="x"), "ParameterTypeError", "indel must be a callable"),
    (lambda: ted(T1, T3, max_cells="x"), "ParameterTypeError", "max_cells must be a whole"),
    (lambda: ted(T1, T3, max_cells=0), "ParameterError", "max_cells must be positive"),
    (lambda: ted(T1, T3, relabel=lambda x, y: "a"), "ParameterError", "relabelling costs"),
    (lambda: ted(T1, T3, relabel=lambda x, y: "a", kernel="python"), "ParameterError",
     "relabelling costs"),
    (lambda: ted(T1, T3, indel=lambda x: None), "ParameterError", "insert/delete costs"),
    (lambda: ted(T1, T3, indel=lambda x: math.inf), "ParameterError", "insert/delete costs"),
    (lambda: TreeCache(relabel=3), "ParameterTypeError", "relabel must be a callable"),
    (lambda: TreeCache(max_cells=2.5), "ParameterTypeError", "max_cells"),
    (lambda: TreeCache()(T1, None), "ParameterTypeError", "b: a tree is"),
    (lambda: tree_alpha(tree_table({"A": [T1], "B": [T3]}), cache=3), "ParameterTypeError",
     "cache must be a TreeCache"),
    (lambda: tree_alpha(tree_table({"A": [T1], "B": [T3]}), cache=TreeCache(False)),
     "ParameterError", "same free_empty"),
    (lambda: tree_table({"A": [T1, 3]}), "ParameterTypeError",
     "sentence 1 of annotator 'A'"),
    (lambda: accuracies(3), "ParameterTypeError", "annotations must be TreeAnnotations"),
    (lambda: accuracies({"A": 3}), "ParameterTypeError", "annotations of 'A' must be"),
    (lambda: mean_pairwise_accuracy({"A": {0: T1}}), "ParameterTypeError",
     "sentence 0 of 'A' must be a Sentence"),
    (lambda: mean_pairwise_accuracy({"A": {0: Sentence(T1)}, "B": {0: Sentence(T1)}}),
     "ParameterError", "neither words"),
    (lambda: accuracies({**_sentences(), "C": {0: parse_sentence("(S a b)")}}),
     "ParameterError", "mixed"),
    (lambda: read_tree_annotations([3, 4]), "ParameterTypeError", "files must be a list"),
    (lambda: read_tree_annotations(["a", "b"], names="ab"), "ParameterTypeError",
     "names must be a list of str"),
    (lambda: read_tree_dirs(3), "ParameterTypeError", "directories must be a list"),
    (lambda: parse_brackets(3), "ParameterTypeError", "text must be str"),
])
def test_public_functions_check_their_arguments(call, error: str, message: str) -> None:
    import clusteragree.errors as errors
    with pytest.raises(getattr(errors, error), match=message):
        call()


def parse_sentence(text: str) -> Sentence:
    tree, brackets = parse_brackets(text)
    return Sentence(tree, brackets=brackets)


def test_sentences_left_out_of_the_accuracies_are_reported(tmp_path: Path) -> None:
    import warnings

    from clusteragree.errors import InputWarning
    a, b = tmp_path / "a.conll", tmp_path / "b.conll"
    longer = CONLL + "5\tnow\t_\t_\t_\t_\t2\tAdv\t_\t_\n"
    a.write_text(CONLL + "\n" + CONLL)
    b.write_text(CONLL + "\n" + longer)
    annotations = read_tree_annotations([a, b])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        acc = mean_pairwise_accuracy(annotations)
    notices = [w.message.notice for w in caught if isinstance(w.message, InputWarning)]
    assert [(n.kind, n.file, n.line, n.count) for n in notices] == [("skipped", str(a), 6, 1)]
    assert (acc["sentences"], acc["ignored"], acc["las"]) == (1, 1, 1.0)
    # Every sentence left out: the accuracies are undefined, and say so.
    b.write_text(longer + "\n" + longer)
    with pytest.warns(InputWarning, match="undefined: every sentence annotated twice"):
        assert math.isnan(mean_pairwise_accuracy(read_tree_annotations([a, b]))["las"])
    # No sentence annotated twice: nothing to compare.
    with pytest.raises(InputError, match="nothing to compare"):
        mean_pairwise_accuracy({"A": {0: _dep((0,), ("p",))}, "B": {1: _dep((0,), ("p",))}})


def test_trees_ci_gives_an_interval_over_sentences(tmp_path, cli) -> None:
    import json

    sentences_a, sentences_b = [], []
    for k in range(8):
        head_b = "2" if k % 3 else "0"
        root_b = "0" if k % 3 else "1"
        sentences_a.append(f"1\tw{k}\t_\t_\t_\t_\t2\tnsubj\t_\t_\n2\tv{k}\t_\t_\t_\t_\t0\troot\t_\t_\n")
        sentences_b.append(f"1\tw{k}\t_\t_\t_\t_\t{head_b}\tnsubj\t_\t_\n"
                           f"2\tv{k}\t_\t_\t_\t_\t{root_b}\troot\t_\t_\n")
    (tmp_path / "a.conllu").write_text("\n".join(sentences_a) + "\n", encoding="utf-8")
    (tmp_path / "b.conllu").write_text("\n".join(sentences_b) + "\n", encoding="utf-8")
    argv = ["trees", str(tmp_path / "a.conllu"), str(tmp_path / "b.conllu"), "--distance",
            "plain", "--ci", "0.9", "--bootstrap", "200", "--seed", "3", "-f", "json"]
    code, out, err = cli(*argv)
    assert code == 0, err
    record = json.loads(out)["results"][0]
    assert record["ci"][0] <= record["alpha"] <= record["ci"][1]
    assert record["bootstrap"]["n"] == 200 and record["bootstrap"]["resample"] == "units"
    assert json.loads(cli(*argv)[1])["results"][0]["ci"] == record["ci"]


def test_trees_pairwise_equals_alpha_of_each_pair_alone(tmp_path, cli) -> None:
    import json

    heads = {"a": "2022", "b": "2002", "c": "0200"}  # per sentence: token 1 head
    for name, pattern in heads.items():
        blocks = []
        for k, h in enumerate(pattern):
            root2 = "0" if h != "0" else "1"
            blocks.append(f"1\tw{k}\t_\t_\t_\t_\t{h}\tdep\t_\t_\n"
                          f"2\tv{k}\t_\t_\t_\t_\t{root2}\troot\t_\t_\n")
        (tmp_path / f"{name}.conllu").write_text("\n".join(blocks) + "\n", encoding="utf-8")
    files = [str(tmp_path / f"{n}.conllu") for n in "abc"]
    code, out, err = cli("trees", *files, "--names", "a,b,c", "--distance", "plain",
                         "--pairwise", "-f", "json")
    assert code == 0, err
    by_pair = {r["pair"]: r["alpha"] for r in json.loads(out)["results"]}
    assert set(by_pair) == {"all", "a | b", "a | c", "b | c"}
    for x, y in [("a", "b"), ("a", "c"), ("b", "c")]:
        _, alone, _ = cli("trees", str(tmp_path / f"{x}.conllu"), str(tmp_path / f"{y}.conllu"),
                          "--distance", "plain", "-f", "json")
        expected = json.loads(alone)["results"][0]["alpha"]
        assert by_pair[f"{x} | {y}"] == pytest.approx(expected)


def test_trees_diagnostics_share_out_the_observed_disagreement(tmp_path, cli) -> None:
    import json

    heads = {"a": "2022", "b": "2002", "c": "0200"}
    for name, pattern in heads.items():
        blocks = [f"1\tw{k}\t_\t_\t_\t_\t{h}\tdep\t_\t_\n2\tv{k}\t_\t_\t_\t_\t"
                  f"{'0' if h != '0' else '1'}\troot\t_\t_\n" for k, h in enumerate(pattern)]
        (tmp_path / f"{name}.conllu").write_text("\n".join(blocks) + "\n", encoding="utf-8")
    files = [str(tmp_path / f"{n}.conllu") for n in "abc"]
    code, out, err = cli("trees", *files, "--distance", "plain", "--diagnostics", "--worst",
                         "50", "-f", "json")
    assert code == 0, err
    results = json.loads(out)["results"]
    alpha_record = next(r for r in results if r["kind"] == "alpha")
    units = [r for r in results if r["kind"] == "unit"]
    assert sum(r["disagreement"] for r in units) == pytest.approx(
        alpha_record["D_o"] * alpha_record["n"])
    assert {r["kind"] for r in results} >= {"unit", "annotator"}
    # every word's head and relation, in full
    assert all(re.fullmatch(r"\d+ \w+(, \d+ \w+)*", code)
               for r in units for code in r["codes"].values())


def test_sentence_differences_agree_with_the_accuracies(tmp_path) -> None:
    """Summed over sentences, the words whose head differs are the tokens UAS misses, and with
    the words whose relation alone differs, those LAS misses (a separate implementation)."""
    import numpy as np

    from clusteragree.trees import accuracies, read_tree_annotations
    from clusteragree.trees.differences import sentence_differences

    rng = np.random.default_rng(11)
    files = []
    for name in ("a", "b"):
        blocks = []
        for k in range(12):
            n = int(rng.integers(2, 6))
            lines = []
            for i in range(1, n + 1):  # a chain to the left, some words reattached to word 1
                head = i - 1 if i > 1 else 0
                if i > 2 and rng.random() < 0.3:
                    head = 1
                rel = "x" if rng.random() < 0.7 else "y"
                lines.append(f"{i}\tw{k}_{i}\t_\t_\t_\t_\t{head}\t{rel}\t_\t_\n")
            blocks.append("".join(lines))
        path = tmp_path / f"{name}.conllu"
        path.write_text("\n".join(blocks) + "\n", encoding="utf-8")
        files.append(str(path))
    annotations = read_tree_annotations(files, names=["a", "b"])
    found = sentence_differences(annotations, "a", "b")
    acc = accuracies(annotations).iloc[0]
    tokens = int(acc["tokens"])
    assert found["attachments"].sum() == round(tokens * (1 - acc["uas"]))
    assert (found["attachments"] + found["labels"]).sum() == round(tokens * (1 - acc["las"]))
    assert list(found["ted"]) == sorted(found["ted"], reverse=True)  # most edits first


# ---------------------------------------------------------------- real treebanks (issue 21)
def _conllu(path: Path, sentences: list[tuple[str | None, list[tuple[str, int, str]]]]) -> str:
    """Write CoNLL-U sentences ``(sent_id or None, [(form, head, relation), ...])``."""
    lines = []
    for sent_id, words in sentences:
        if sent_id is not None:
            lines.append(f"# sent_id = {sent_id}")
        lines += ["\t".join([str(i), form, "_", "_", "_", "_", str(head), rel, "_", "_"])
                  for i, (form, head, rel) in enumerate(words, start=1)]
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


SANG = [("She", 2, "nsubj"), ("sang", 0, "root"), ("loudly.", 2, "advmod")]
SANG_SPLIT = [("She", 2, "nsubj"), ("sang", 0, "root"), ("loudly", 2, "advmod"),
              (".", 2, "punct")]
RAINED = [("It", 2, "nsubj"), ("rained", 0, "root")]


def test_sentences_tokenised_differently_are_a_mismatch(tmp_path: Path) -> None:
    """``loudly.`` against ``loudly`` ``.``: a mismatch notice with the file, the first line
    and the number of sentences; strict reading refuses it. Tree alpha compares the trees as
    annotated; the accuracies leave the sentence out."""
    from clusteragree.errors import Ledger, strict
    a = _conllu(tmp_path / "a.conllu", [("s1", SANG), ("s2", RAINED), ("s3", SANG)])
    b = _conllu(tmp_path / "b.conllu", [("s1", SANG_SPLIT), ("s2", RAINED), ("s3", SANG_SPLIT)])
    with Ledger() as ledger:
        annotations = read_tree_annotations([a, b])
    assert [(n.kind, n.file, n.line, n.count) for n in ledger.notices] == [
        ("mismatch", b, 2, 2)]
    assert "tokenised differently from those of " + a in ledger.notices[0].message
    # By hand: in s1 and s3, root(nsubj, advmod) (4 nodes with the artificial root) against
    # root(nsubj, advmod, punct) (5 nodes): distance 1 (insert punct); s2 is the same 3-node
    # tree t for both, at distance 1 from the 4-node tree and 2 from the 5-node one. Six
    # values, two of each tree. D_o: two ordered pairs at distance 1 in each of s1 and s3,
    # over 6 values. D_e over the 30 ordered pairs of values: 8 pairs of 4 against 5 nodes
    # (squared distance 1), 8 of 4 nodes against t (1), 8 of 5 nodes against t (4).
    d_o = 4 / 6
    d_e = (8 * 1 + 8 * 1 + 8 * 4) / 30
    assert tree_alpha(tree_table(annotations)).alpha == pytest.approx(1 - d_o / d_e)
    acc = mean_pairwise_accuracy(annotations)
    assert (acc["sentences"], acc["ignored"]) == (1, 2)
    with Ledger(), strict(), pytest.raises(InputError) as err:
        read_tree_annotations([a, b])
    assert str(err.value).startswith(f"{b}:2: sentences tokenised differently")
    assert "(mismatch, 2 times; strict reading refuses it" in str(err.value)
    # The same number of words with other forms: another notice, compared word by word.
    c = _conllu(tmp_path / "c.conllu", [("s1", SANG), ("s2", [("It", 2, "nsubj"),
                                                              ("poured", 0, "root")]),
                                        ("s3", SANG)])
    with Ledger() as ledger:
        read_tree_annotations([a, c])
    assert [(n.kind, n.file, n.line, n.count) for n in ledger.notices] == [
        ("mismatch", c, 7, 1)]
    assert "words differ from those of" in ledger.notices[0].message


def test_sentences_are_named_by_sent_id_or_counted_from_1(tmp_path: Path, cli) -> None:
    from clusteragree.errors import Ledger
    a = _conllu(tmp_path / "a.conllu", [("w-1", SANG), ("w-2", RAINED)])
    b = _conllu(tmp_path / "b.conllu", [("w-1", SANG), ("x-2", RAINED)])
    with Ledger() as ledger:
        annotations = read_tree_annotations([a, b], names=["A", "B"])
    assert list(annotations.sentences["B"]) == ["w-1", "w-2"]  # the first annotator's names
    assert [(n.kind, n.file, n.line, n.count) for n in ledger.notices] == [
        ("mismatch", b, 7, 1)]  # a sentence's line is its first word's
    assert "# sent_id differs" in ledger.notices[0].message
    plain = [_conllu(tmp_path / f"{x}.conll", [(None, SANG), (None, RAINED)]) for x in "pq"]
    assert list(read_tree_annotations(plain).sentences["p.conll"]) == ["1", "2"]
    # A name given twice is refused, naming both sentences.
    twice = _conllu(tmp_path / "twice.conllu", [("s", SANG), ("s", RAINED)])
    with pytest.raises(InputError) as err:
        read_tree_annotations([twice, twice])
    assert str(err.value).startswith(f"{twice}:7: two sentences of this text are named 's' "
                                     f"(the other at {twice}:2)")
    # Directories: the text's prefix, then the sentence's name.
    for who in ("A", "B"):
        (tmp_path / who).mkdir()
        _conllu(tmp_path / who / f"doc1-{who}.conllu", [("w-1", SANG), (None, RAINED)])
    named = read_tree_annotations(dirs=[tmp_path / "A", tmp_path / "B"])
    assert list(named.sentences["A"]) == ["doc1/w-1", "doc1/2"]
    # Everywhere the command line names a sentence: differences, diagnostics.
    c = _conllu(tmp_path / "c.conllu", [("w-1", SANG), ("w-2", [("It", 0, "root"),
                                                                ("rained", 1, "dep")])])
    code, out, err = cli("trees", a, c, "--differences", "--diagnostics", "-f", "json")
    assert code == 0, err
    results = json.loads(out)["results"]
    assert [r["sentence"] for r in results if r["kind"] == "sentence_difference"] == [
        "w-2", "w-1"]
    assert {r["unit"] for r in results if r["kind"] == "unit"} == {'sentence w-2: "It rained"'}
    code, out, _ = cli("trees", a, c, "--differences", "--diagnostics")
    rows = [line.split()[0] for line in out.split("differ most")[1].strip().splitlines()[1:3]]
    assert code == 0 and rows == ["w-2", "w-1"]
    assert out.split("disagree most")[1].splitlines()[2].split()[:3] == ["1", "sentence", "w-2:"]


def test_every_problem_of_every_file_is_reported_in_one_run(tmp_path: Path, cli) -> None:
    """Several roots in both files and a cycle in the second: every file's first line and
    count in the ledger, then one refusal naming every option that accepts them."""
    from clusteragree.errors import Ledger
    two = [("Yes", 0, "root"), ("I", 3, "nsubj"), ("did", 0, "root")]
    one = [("Yes", 3, "discourse"), ("I", 3, "nsubj"), ("did", 0, "root")]
    cycle = [("Go", 0, "root"), ("and", 3, "cc"), ("stop", 2, "conj")]
    go = [("Go", 0, "root"), ("and", 3, "cc"), ("stop", 1, "conj")]
    a = _conllu(tmp_path / "a.conll", [(None, two), (None, go), (None, two)])
    b = _conllu(tmp_path / "b.conll", [(None, one), (None, cycle), (None, two)])
    with Ledger() as ledger, pytest.raises(InputError) as err:
        read_tree_annotations([a, b])
    assert [(n.kind, n.file, n.line, n.count) for n in ledger.notices] == [
        ("note", a, 1, 2), ("note", b, 5, 1), ("note", b, 9, 1)]
    assert str(err.value) == (
        f"{a}:1: 3 sentences with several roots (head 0) in 2 files (the first here) and 1 "
        f"sentence whose heads form a cycle (the first at {b}:5); a tree has one root and no "
        "cycle: roots='many' keeps several roots under the artificial root, cycles='drop' "
        "leaves the words of a cycle out, as the reference code does (every file's first is "
        "in the warnings)")
    with Ledger(), pytest.raises(InputError, match=r"^[^;]*cycle[^;]*; a tree has no cycle: "
                                 r"cycles='drop'[^=]*$"):
        read_tree_annotations([a, b], roots="many")
    # The command line names its options as it spells them.
    code, _, stderr = cli("trees", a, b)
    message = stderr.strip().splitlines()[-1]
    assert code == 1 and "--roots many keeps" in message and "--cycles drop leaves" in message
    assert "roots=" not in stderr and "cycles=" not in stderr
    assert f"warning: {b}:5: note: sentences whose heads form a cycle (refused: --cycles drop" in (
        stderr)
    # A malformed line later in the run ends it, and what was found before it is reported.
    bad = tmp_path / "c.conll"
    bad.write_text(Path(b).read_text() + "1\tx\t_\n", encoding="utf-8")
    with Ledger() as ledger, pytest.raises(InputError, match="3 columns"):
        read_tree_annotations([a, bad])
    assert [(n.file, n.line) for n in ledger.notices] == [(a, 1), (str(bad), 5), (str(bad), 9)]


def test_the_report_draws_sentences_tokenised_differently(tmp_path: Path, cli) -> None:
    """The dependency view indexed the second tree by the first one's words (IndexError,
    exit 70, on CDT(it)); each tree is drawn over its own words, its arcs not compared."""
    a = _conllu(tmp_path / "a.conllu", [("s1", SANG_SPLIT), ("s2", RAINED)])
    b = _conllu(tmp_path / "b.conllu", [("s1", SANG), ("s2", RAINED)])
    page = tmp_path / "t.html"
    code, _, err = cli("report", "trees", a, b, "-o", str(page))
    assert code == 0, err
    text = page.read_text(encoding="utf-8")
    data = json.loads(text.split("id='ca-data'>", 1)[1].split("</script>", 1)[0])
    (view,) = data["views"]
    (item,) = view["items"]  # s2 is the same on both sides
    assert item["name"] == "s1"
    assert [d["kind"] for d in item["differences"]] == ["tokenised differently"]


def test_differences_of_sentences_tokenised_differently_follow_the_schema(tmp_path: Path,
                                                                         cli) -> None:
    """The word-by-word fields of a sentence tokenised differently were null (the schema
    wants lists); they are left out, and the counts of the others stay whole numbers."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).resolve().parent.parent / "docs" / "schema"
                         / "clusteragree-1.json").read_text(encoding="utf-8"))
    a = _conllu(tmp_path / "a.conllu", [("s1", SANG), ("s2", RAINED)])
    b = _conllu(tmp_path / "b.conllu", [("s1", SANG_SPLIT), ("s2", RAINED)])
    code, out, err = cli("trees", a, b, "--differences", "-f", "json")
    assert code == 0, err
    obj = json.loads(out)
    jsonschema.validate(obj, schema)
    rows = {r["sentence"]: r for r in obj["results"] if r["kind"] == "sentence_difference"}
    assert "heads_differ" not in rows["s1"] and rows["s1"]["second_tree"] == "2 0 2 2"
    assert rows["s2"]["attachments"] == 0 and isinstance(rows["s2"]["attachments"], int)


@pytest.mark.parametrize("fast", [True, False])
def test_cr_line_ends_are_line_ends(tmp_path: Path, fast: bool) -> None:
    """Issue 21: a treebank saved with CR line ends (old Mac) reads as the same sentences as
    with LF ones, on both readers; CRs among LF line ends are a converted notice."""
    from clusteragree.errors import InputWarning
    from clusteragree.trees.readers import read_conll_trees, read_trees
    lf = ("# sent_id = s1\n1\tThe\t_\tDET\t_\t_\t2\tdet\t_\t_\n"
          "2\tcat\t_\tNOUN\t_\t_\t0\troot\t_\t_\n"
          "\n1\tIt\t_\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\tran\t_\tVERB\t_\t_\t0\troot\t_\t_\n\n")
    (tmp_path / "lf.conllu").write_text(lf, encoding="utf-8", newline="")
    (tmp_path / "cr.conllu").write_text(lf.replace("\n", "\r"), encoding="utf-8", newline="")
    (tmp_path / "mixed.conllu").write_text(lf.replace("\n", "\r", 2), encoding="utf-8",
                                           newline="")
    want = read_conll_trees(tmp_path / "lf.conllu", fast=fast)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = read_conll_trees(tmp_path / "cr.conllu", fast=fast)
    assert not [w for w in caught if issubclass(w.category, InputWarning)]
    assert [(s.words, s.heads, s.line) for s in got.sentences] == \
        [(s.words, s.heads, s.line) for s in want.sentences] and len(want.sentences) == 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mixed = read_conll_trees(tmp_path / "mixed.conllu", fast=fast)
    notices = [w.message.notice for w in caught if issubclass(w.category, InputWarning)]
    assert [(n.kind, n.line, n.count) for n in notices] == [("converted", 1, 2)]
    assert [s.words for s in mixed.sentences] == [s.words for s in want.sentences]
    (tmp_path / "cr.tree").write_text("(S (NP D N) (VP V))\r(S (NP D) (VP N V))\r",
                                      encoding="utf-8", newline="")
    assert len(read_trees(tmp_path / "cr.tree").sentences) == 2
