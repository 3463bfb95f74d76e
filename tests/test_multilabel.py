"""Multi-label measures: the kappa family, augmented kappa, A_m, mv-alpha, on published examples,
by hand, and as properties."""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree.core.kappa import (
    bennett_s,
    cohen_kappa,
    fleiss_pi,
    multi_kappa,
    observed_agreement,
    pairwise,
    scott_pi,
)
from clusteragree.errors import InputError, ParameterError
from clusteragree.labels import (
    MultiLabel,
    a_m,
    a_m_pairwise,
    agreement_bins,
    augmented_kappa,
    category_confusion,
    category_disagreement,
    gold_standard,
    item_classes,
    kappa_sweep,
    measures_table,
    mv_alpha,
    read_multilabel,
    weight_matrix,
)


# ---------------------------------------------------------------------------- kappa family
def _ap_dialogue_acts():
    cells = {("STAT", "STAT"): 46, ("STAT", "IREQ"): 6, ("IREQ", "IREQ"): 32,
             ("CHCK", "IREQ"): 6, ("CHCK", "CHCK"): 10}
    a, b = [], []
    for (bb, aa), n in cells.items():
        a += [aa] * n
        b += [bb] * n
    return [a, b]


def test_artstein_poesio_values() -> None:
    data = _ap_dialogue_acts()
    assert observed_agreement(data) == pytest.approx(22 / 25)
    assert bennett_s(data) == pytest.approx(41 / 50)
    assert scott_pi(data) == pytest.approx(2393 / 2993)
    assert cohen_kappa(data) == pytest.approx(121 / 151)
    table1 = [["y"] * 20 + ["y"] * 20 + ["n"] * 10 + ["n"] * 50,
              ["y"] * 20 + ["n"] * 20 + ["y"] * 10 + ["n"] * 50]
    assert cohen_kappa(table1) == pytest.approx(0.16 / 0.46)


def test_fleiss_table() -> None:
    counts = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0],
              [2, 2, 8, 1, 1], [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2],
              [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]
    raters = [[c for c, k in enumerate(row) for _ in range(k)] for row in counts]
    data = [list(col) for col in zip(*raters, strict=True)]  # 14 raters x 10 subjects
    assert fleiss_pi(data) == pytest.approx(4211 / 20059)


@pytest.mark.parametrize("seed", range(5))
def test_kappa_family_equals_nltk(seed: int) -> None:
    agreement = pytest.importorskip("nltk.metrics.agreement")
    rng = random.Random(seed)
    data = [[rng.choice("abcd") for _ in range(30)] for _ in range(3)]
    task = agreement.AnnotationTask([(c, i, x) for c, row in enumerate(data)
                                     for i, x in enumerate(row)])
    assert pairwise(data, cohen_kappa) == pytest.approx(task.kappa())
    assert multi_kappa(data) == pytest.approx(task.multi_kappa())
    assert fleiss_pi(data) == pytest.approx(task.pi())
    assert bennett_s(data) == pytest.approx(task.S())


def test_kappa_needs_complete_data() -> None:
    with pytest.raises(InputError, match="complete data"):
        cohen_kappa([["a", "b"], ["a"]])


# ---------------------------------------------------------------------------- augmented kappa
def _rb_example() -> MultiLabel:
    a = [("Msg1", ("a", "b")), ("Msg2", ("b", "a")), ("Msg3", ("b",)), ("Msg4", ("c",)),
         ("Msg5", ("c", "b"))]
    recs = [(m, "A", lab, k + 1) for m, labs in a for k, lab in enumerate(labs)]
    recs += [(m, "B", "d", 1) for m, _ in a]  # B only makes the label d exist
    return MultiLabel.from_records(recs)


def test_rosenberg_binkowski_tables_1_to_3() -> None:
    data = _rb_example()
    m = weight_matrix(data, "A", 0.6)
    expected = np.array([[0.6, 0.4, 0, 0], [0.4, 0.6, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0],
                         [0, 0.4, 0.6, 0]])
    np.testing.assert_allclose(m, expected)
    np.testing.assert_allclose(m.sum(axis=0), [1, 2.4, 1.6, 0])
    np.testing.assert_allclose(m.sum(axis=0) / 5, [0.2, 0.48, 0.32, 0])


def _ranked(draw_cells) -> MultiLabel:
    recs = []
    for (annotator, item), labels in draw_cells.items():
        recs += [(item, annotator, lab, k + 1) for k, lab in enumerate(labels)]
    return MultiLabel.from_records(recs)


cells_strategy = st.dictionaries(
    st.tuples(st.sampled_from(["A", "B"]), st.integers(0, 7)),
    st.lists(st.sampled_from("abcd"), min_size=1, max_size=2, unique=True), min_size=4)


@settings(max_examples=80, deadline=None)
@given(cells_strategy)
def test_kappa_at_p1_is_cohen_on_primary_labels(cells) -> None:
    data = _ranked(cells)
    items = data.complete_items()
    if set(data.annotators) != {"A", "B"} or not items:
        return
    primaries = [[data.labels(a, i)[0] for i in items] for a in ("A", "B")]
    expected = cohen_kappa(primaries)
    got = augmented_kappa(data, 1.0).kappa
    assert (math.isnan(expected) and math.isnan(got)) or got == pytest.approx(expected)


def test_identical_annotators() -> None:
    recs = [(i, a, lab, k + 1) for a in ("A", "B") for i, labs in
            enumerate([("x",), ("y", "x"), ("z",), ("y",)]) for k, lab in enumerate(labs)]
    data = MultiLabel.from_records(recs)
    assert augmented_kappa(data, 1.0).kappa == pytest.approx(1.0)
    # The paper's product rule: identical two-label cells score p^2 + (1-p)^2 < 1.
    assert augmented_kappa(data, 0.6).p_a == pytest.approx((3 + 0.36 + 0.16) / 4)
    assert a_m(data).a_m == pytest.approx(1.0)
    units: dict = {}
    for (a, i), labels in data.cells.items():
        units.setdefault(i, {})[a] = set(labels)
    assert mv_alpha(units).alpha == pytest.approx(1.0)


def test_sweep_classes_and_order_invariance() -> None:
    recs = [("m1", "A", "a", 1), ("m1", "A", "b", 2), ("m1", "B", "b", 1), ("m1", "B", "a", 2),
            ("m2", "A", "a", 1), ("m2", "B", "a", 1), ("m3", "A", "a", 1), ("m3", "A", "c", 2),
            ("m3", "B", "a", 1), ("m4", "A", "c", 1), ("m4", "B", "b", 1)]
    data = MultiLabel.from_records(recs)
    sweep = kappa_sweep(data)
    assert list(sweep["p"]) == [0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    classes = item_classes(data).set_index("item")["class"].to_dict()
    assert classes == {"m1": "better at p = 0.5", "m2": "constant high",
                       "m3": "better at p = 1", "m4": "constant low"}
    shuffled = MultiLabel.from_records(list(reversed(recs)))
    assert augmented_kappa(shuffled, 0.7).kappa == pytest.approx(augmented_kappa(data, 0.7).kappa)
    assert a_m(shuffled).a_m == pytest.approx(a_m(data).a_m)


# ---------------------------------------------------------------------------- A_m
SYRUP = {1: [{"fi"}, {"fi"}, {"fi", "ps"}], 2: [{"ind"}, {"fn"}, {"ind"}], 3: [{"lr"}] * 3,
         4: [{"ps"}] * 3, 5: [{"fn", "lr"}, {"fn"}, {"lr"}], 6: [{"em"}] * 3,
         7: [{"em", "ps"}, {"em"}, {"em"}], 8: [{"ps"}, {"ps", "fi"}, {"ps"}], 9: [{"em"}] * 3,
         10: [{"fn"}] * 3}
SYRUP_CATEGORIES = ["fi", "ps", "em", "lr", "fn", "ind"]


def _syrup() -> MultiLabel:
    return MultiLabel.from_records((i, f"a{u + 1}", lab) for i, row in SYRUP.items()
                                   for u, labels in enumerate(row) for lab in sorted(labels))


def test_a_m_example_from_the_notes() -> None:
    r = a_m(_syrup(), categories=SYRUP_CATEGORIES)
    assert r.po == pytest.approx(383 / 450)
    assert r.pe == pytest.approx(0.541778, abs=5e-7)
    assert r.a_m == pytest.approx(0.675073, abs=5e-7)
    consistent = a_m(_syrup(), categories=SYRUP_CATEGORIES, consistent=True)
    assert consistent.po == pytest.approx(0.857778, abs=5e-7)
    assert consistent.a_m == pytest.approx(0.689622, abs=5e-7)


def test_a_m_formulas_by_hand() -> None:
    # Two annotators, categories x, y (one category pair). Item 1: {x} / {x}: [1 0] = [1 0].
    # Item 2: {x} / {y}: [1 0] against [0 1], a disagreement for the paper's Po.
    # Po = (1 + 0) / 2 = 1/2. Pe groups: both annotators put both items in [0 1]/[1 0]:
    # P = 1 * 1 = 1 for that group, so Pe = 1 and A_m is undefined (NaN).
    data = MultiLabel.from_records([(1, "u", "x"), (1, "v", "x"), (2, "u", "x"), (2, "v", "y")])
    r = a_m(data)
    assert r.po == 0.5 and r.pe == 1.0 and math.isnan(r.a_m)
    # With a third item {x, y} / {} ... every annotator labels every item, so: {x, y} / {y}:
    # [1 1] against [0 1]. Po = (1 + 0 + 0) / 3. Groups of u: [1 0], [1 0], [1 1] -> shares
    # (0, 2/3, 1/3); of v: [1 0], [0 1], [0 1] -> (0, 1, 0). Pe = 2/3. A_m = (1/3 - 2/3)/(1/3).
    data = MultiLabel.from_records([(1, "u", "x"), (1, "v", "x"), (2, "u", "x"), (2, "v", "y"),
                                    (3, "u", "x"), (3, "u", "y"), (3, "v", "y")])
    r = a_m(data)
    assert (r.po, r.pe, r.a_m) == (pytest.approx(1 / 3), pytest.approx(2 / 3), pytest.approx(-1))


def test_a_m_tables_and_gold_standard() -> None:
    data = _syrup()
    pairs = a_m_pairwise(data, categories=SYRUP_CATEGORIES)
    assert len(pairs) == 3 and set(pairs.columns) >= {"Po", "Pe", "A_m"}
    r = a_m(data, categories=SYRUP_CATEGORIES)
    bins = agreement_bins(r)
    assert bins.sum() == 10 and bins.iloc[-1] == 8
    dis = category_disagreement(data)
    # Item 1: a3 adds ps; item 2: ind/fn; item 5: fn/lr; item 7: a1 adds ps; item 8: a2 adds fi.
    assert dis.loc["Total", "ps"] == 4 and dis.loc["Total", "em"] == 0
    conf = category_confusion(data)
    assert conf.loc["fn", "ind"] == 2 and conf.loc["fn", "lr"] == 1 and conf.values.sum() == 3
    gold, index = gold_standard(data)
    assert gold[5] == {"fn", "lr"} and gold[1] == {"fi"} and gold[7] == {"em"}
    assert sum(index.values()) > 0


def test_gold_standard_ties_by_expert_index() -> None:
    # By hand. Item 1: x by both (assigned, both indices +1), y by neither (not assigned, both
    # +1). Item 2: x by both (+1 each: u 3, v 3); y by u only: a tie, indices 3 against 3, so
    # not assigned, and Algorithm 1 updates no index on a tie.
    recs = [(1, "u", "x"), (1, "v", "x"), (2, "u", "x"), (2, "u", "y"), (2, "v", "x")]
    gold, index = gold_standard(MultiLabel.from_records(recs))
    assert gold == {1: {"x"}, 2: {"x"}} and index == {"u": 3, "v": 3}
    # With z among the categories, items 1 and 2 also decide "not z" (u, v +1 each): u 5,
    # v 5. Item 3 (u, v, w): x by v only: not assigned, u and w +1; y by none: all +1; z by u
    # and w: assigned, u and w +1: u 8, v 6, w 3. Item 4 (u, v): x by v only and y by u only
    # are ties: x loses (6 < 8), y wins (8 > 6); z by none: u 9, v 7.
    recs += [(3, "u", "z"), (3, "v", "x"), (3, "w", "z"), (4, "u", "y"), (4, "v", "x")]
    gold, index = gold_standard(MultiLabel.from_records(recs))
    assert gold[3] == {"z"} and gold[4] == {"y"}
    assert index == {"u": 9, "v": 7, "w": 3}


def test_mv_alpha_oracles() -> None:
    table3 = {"U1": {"F": {"b", "d"}, "G": {"d"}},
              "U2": {"F": {"a", "b", "d"}, "G": {"b"}, "H": {"b", "d"}},
              "U3": {"F": set(), "G": {"a"}, "H": {"a"}}, "U4": {"F": {"a"}}}
    r = mv_alpha(table3)
    assert r.alpha == pytest.approx(0.2865907, abs=5e-8) and r.do == pytest.approx(37 / 80)
    # Reading the empty set and missing the other way round gives 0.3090 (notes).
    swapped = {"U1": {**table3["U1"], "H": set()}, "U2": table3["U2"],
               "U3": {"G": {"a"}, "H": {"a"}},
               "U4": {"F": {"a"}, "G": set(), "H": set()}}
    assert mv_alpha(swapped).alpha == pytest.approx(0.3090, abs=5e-5)
    se = [({"l1", "l2"}, {"l1"}), ({"l1", "l2"}, {"l1", "l2"}), ({"l1"}, {"l1"}),
          ({"l3"}, {"l3"}), ({"l3"}, {"l1", "l3"}), ({"l4"}, {"l4"}), ({"l2"}, {"l4"}),
          ({"l1", "l2"}, {"l1"}), ({"l1", "l2"}, {"l1", "l2", "l3"}), ({"l1"}, {"l1"}),
          ({"l1"}, {"l1"})]
    r = mv_alpha({i: {"1": a, "2": b} for i, (a, b) in enumerate(se)})
    assert r.alpha == pytest.approx(0.680815, abs=5e-7)
    assert (r.do, r.de) == (pytest.approx(0.2), pytest.approx(0.626597, abs=5e-7))


# ---------------------------------------------------------------------------- input
@pytest.mark.parametrize(
    ("rows", "line", "message"),
    [("m1,A,a,1\nm1,A,b,2\nm1,A,c,2\n", 4, "annotator 'A' gives item 'm1' two labels of rank 2"),
     ("m1,A,a,1\nm1,A,b,2\nm1,A,c,\n", 4, "annotator 'A' gives item 'm1' 3 ranked labels"),
     ("m1,A,a,1\nm1,B,A ,1\n", 3, "label 'A' differs from 'a' (line 2) only in case or spaces"),
     ("m1,A,a,3\n", 2, "rank 3 is not 1 (primary) or 2 (secondary)"),
     ("m1,A,,1\n", 2, "empty label")],
)
def test_bad_multilabel_input(tmp_path: Path, rows: str, line: int, message: str) -> None:
    path = tmp_path / "labels.csv"
    path.write_text("item,annotator,label,rank\n" + rows)
    with pytest.raises(InputError) as err:
        read_multilabel(path)
    assert str(err.value).startswith(f"{path}:{line}: {message}")


def test_p_outside_range_and_annotator_without_items() -> None:
    data = _rb_example()
    with pytest.raises(ParameterError, match=r"p must be in \[0.5, 1\]"):
        augmented_kappa(data, 0.4)
    with pytest.raises(InputError, match="annotator 'C' has no items"):
        MultiLabel.from_records([("m1", "A", "a")], annotators=["A", "C"])


def test_measures_table() -> None:
    table = measures_table(_syrup(), categories=SYRUP_CATEGORIES)
    values = table.set_index("measure")["value"]
    assert values["A_m"] == pytest.approx(0.675073, abs=5e-7)
    assert math.isnan(values["K' (p=0.5)"])  # two labels without ranks
    assert {"alpha (masi)", "mv-alpha", "A_m (consistent Po)"} <= set(values.index)


def test_cli_table_multilabel(tmp_path: Path, capsys) -> None:
    import json

    from clusteragree.cli import main

    fixture = Path(__file__).resolve().parent.parent / "corpora_fixtures" / "multilabel_ranked.csv"
    assert main(["table", str(fixture), "-f", "json", "--measures", "kappa,am"]) == 0
    obj = json.loads(capsys.readouterr().out)
    values = {r["measure"]: r["value"] for r in obj["results"]}
    # By hand at p = 1: primaries agree on 3 of 4 items; Freq_A = 1/4 each of q, s, p, a and
    # Freq_B = q 1/4, s 1/4, a 1/2, so p(E) = 1/4 and K' = (3/4 - 1/4) / (3/4) = 2/3.
    assert values["K' (p=1)"] == pytest.approx(2 / 3)
    assert set(values) == {"K' (p=0.5)", "K' (p=0.75)", "K' (p=1)", "A_m", "A_m (consistent Po)"}
    as_json = tmp_path / "labels.json"
    as_json.write_text(json.dumps([{"item": i, "annotator": a, "label": lab, "rank": r}
                                   for i, a, lab, r in [("m1", "A", "x", 1), ("m1", "B", "x", 1),
                                                        ("m2", "A", "y", 1), ("m2", "B", "x", 1)]]))
    assert main(["table", str(as_json), "--measures", "mvalpha"]) == 0
    assert "mv-alpha" in capsys.readouterr().out
    code = main(["table", str(fixture), "--measures", "kappa", "--p", "0.3"])
    assert code == 2 and "p must be in [0.5, 1]" in capsys.readouterr().err


def test_explicit_weights(tmp_path: Path) -> None:
    path = tmp_path / "w.csv"
    path.write_text("item,annotator,label,weight\nm1,A,a,0.7\nm1,A,b,0.3\nm1,B,a,1\n"
                    "m2,A,b,1\nm2,B,b,0.5\nm2,B,c,0.5\n")
    data = read_multilabel(path)
    # By hand: Ag = 0.7 (m1) + 0.5 (m2), p(A) = 0.6; Freq_A = a .35, b .65; Freq_B = a .5,
    # b .25, c .25; p(E) = .175 + .1625 = .3375; K' = .2625 / .6625.
    r = augmented_kappa(data)
    assert (r.p_a, r.p_e) == (pytest.approx(0.6), pytest.approx(0.3375))
    assert r.kappa == pytest.approx(0.2625 / 0.6625)
    assert data.cells["A", "m1"] == ("a", "b")  # heavier label first
    path.write_text("item,annotator,label,weight\nm1,A,a,0.7\nm1,A,b,0.2\nm1,B,a,1\n")
    with pytest.raises(InputError, match=r"w.csv:2: the weights of annotator 'A' on item 'm1' "
                                         r"add up to 0.9, not 1"):
        read_multilabel(path)
    path.write_text("item,annotator,label,weight\nm1,A,a,1.5\n")
    with pytest.raises(InputError, match=r"w.csv:2: weight 1.5 is not in \(0, 1\]"):
        read_multilabel(path)


def test_one_result_shape_per_kind_of_measure() -> None:
    """Alpha-like results answer alpha, D_o, D_e and n; chance-corrected agreements value, p_a
    and p_e (the kappa family's columns); the names of version 0.1 still read the same."""
    from clusteragree import CodingTable, alpha
    from clusteragree.core.gwet import chance_corrected
    from clusteragree.labels import a_m, augmented_kappa, mv_alpha

    data = MultiLabel.from_records([("u1", "A", "a"), ("u1", "B", "a"), ("u2", "A", "b"),
                                    ("u2", "B", "b"), ("u3", "A", "a"), ("u3", "B", "b"),
                                    ("u4", "A", "c"), ("u4", "B", "c")])
    units = {"u1": {"A": {"a"}, "B": {"a"}}, "u2": {"A": {"b"}, "B": {"b"}},
             "u3": {"A": {"a"}, "B": {"b"}}, "u4": {"A": {"c"}, "B": {"c"}}}
    table = CodingTable.from_records([(c, u, v) for u, by in units.items()
                                      for c, v in by.items()])
    for result in (alpha(table, "nominal"), mv_alpha(units)):
        assert {"alpha", "D_o", "D_e", "n"} <= set(dir(result))
        assert result.alpha == pytest.approx(1 - result.D_o / result.D_e)
    mv = mv_alpha(units)
    assert (mv.do, mv.de) == (mv.D_o, mv.D_e)
    kappas = chance_corrected(CodingTable.from_records(
        [(c, u, next(iter(v))) for u, by in units.items() for c, v in by.items()]))
    assert {"value", "p_a", "p_e"} <= set(kappas.columns)
    for result in (a_m(data), augmented_kappa(data)):
        assert {"value", "p_a", "p_e"} <= set(dir(result)) and result.p_e < 1
        assert result.value == pytest.approx((result.p_a - result.p_e) / (1 - result.p_e))
    am, ak = a_m(data), augmented_kappa(data)
    assert (am.po, am.pe, am.a_m, ak.kappa) == (am.p_a, am.p_e, am.value, ak.value)


@st.composite
def label_sets(draw) -> tuple[dict, list, list, list]:
    annotators = list(range(draw(st.integers(2, 4))))
    categories = list("abcdefg"[:draw(st.integers(2, 7))])
    items = list(range(draw(st.integers(1, 8))))
    cells = {(a, i): frozenset(draw(st.sets(st.sampled_from(categories), max_size=4)))
             for a in annotators for i in items}
    return cells, annotators, categories, items


@settings(max_examples=150, deadline=None)
@given(label_sets(), st.booleans())
def test_a_m_by_counts_equals_its_definition_over_all_combinations(case, consistent) -> None:
    from reference import dense_a_m

    cells, annotators, categories, items = case
    records = [(i, a, c) for (a, i), labels in cells.items() for c in sorted(labels)]
    records += [(i, a, None) for (a, i), labels in cells.items() if not labels]
    data = MultiLabel.from_records(records) if records else None
    if data is None or data.complete_items(annotators) != items:
        return  # an empty cell is not a labelled item here; the definition needs them all
    got = a_m(data, categories=categories, annotators=annotators, consistent=consistent)
    po, pe = dense_a_m(cells, annotators, categories, items, consistent)
    assert got.p_a == pytest.approx(po, abs=1e-12) and got.p_e == pytest.approx(pe, abs=1e-12)
    # The tables count the same combinations from the pairs of annotators.
    pair = MultiLabel.from_records([r for r in records if r[1] in annotators[:2]])
    dis = category_disagreement(pair)
    for c in pair.categories:
        want = sum(int((c in cells[annotators[0], i]) != (c in cells[annotators[1], i]))
                   for i in pair.complete_items(annotators[:2]))
        assert dis.loc[f"{annotators[0]}-{annotators[1]}", c] == want
    conf = category_confusion(pair)
    for c1 in pair.categories:
        for c2 in pair.categories:
            if c1 >= c2:
                continue
            want = sum(int(c1 in s - t and c2 in t - s) + int(c2 in s - t and c1 in t - s)
                       for i in pair.complete_items(annotators[:2])
                       for s, t in [(cells[annotators[0], i], cells[annotators[1], i])])
            assert conf.loc[c1, c2] == want


def test_a_m_with_no_item_labelled_by_all_is_an_error() -> None:
    data = MultiLabel.from_records([(1, "u", "a"), (2, "v", "b")])
    with pytest.raises(InputError, match="nothing to compare"):
        a_m(data)


def _brute_a_m(data: MultiLabel, categories: list, consistent: bool) -> tuple[float, float]:
    """Po and Pe of A_m by the paper's loops: every item, pair of annotators and pair of
    categories, each assignment one of [0 0], [0 1], [1 0], [1 1]."""
    from itertools import combinations

    who = list(data.annotators)
    items = data.complete_items(who)
    pairs_c = list(combinations(categories, 2))

    def code(u, item, a, b):
        labels = data.labels(u, item)
        return 2 * (a in labels) + (b in labels)

    def group(c):
        return 1 if c == 2 else c

    po_items = []
    for item in items:
        agree = 0
        for u, v in combinations(who, 2):
            for a, b in pairs_c:
                cu, cv = code(u, item, a, b), code(v, item, a, b)
                agree += (group(cu) == group(cv)) if consistent else (cu == cv)
        po_items.append(agree / (len(pairs_c) * len(list(combinations(who, 2)))))
    pe_pairs = []
    for a, b in pairs_c:
        share = {u: [sum(group(code(u, i, a, b)) == g for i in items) / len(items)
                     for g in (0, 1, 3)] for u in who}
        pe_pairs.append(np.mean([sum(x * y for x, y in zip(share[u], share[v], strict=True))
                                 for u, v in combinations(who, 2)]))
    return float(np.mean(po_items)), float(np.mean(pe_pairs))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_a_m_counted_by_categories_equals_the_loops_over_pairs(seed: int,
                                                               consistent: bool) -> None:
    """A_m is counted from each category and each two categories (no annotators x items x
    category pairs array); the paper's loops over pairs of categories give the same Po, Pe."""
    rng = np.random.default_rng(seed)
    cats = list("abcdef"[: rng.integers(2, 7)])
    records = [(item, who, c) for item in range(int(rng.integers(1, 9)))
               for who in "uvw"[: rng.integers(2, 4)]
               for c in ([c for c in cats if rng.random() < 0.4] or [cats[0]])]
    data = MultiLabel.from_records(records)
    categories = [*cats, "unused"]
    result = a_m(data, categories=categories, consistent=consistent)
    po, pe = _brute_a_m(data, categories, consistent)
    assert result.p_a == pytest.approx(po, abs=1e-12)
    assert result.p_e == pytest.approx(pe, abs=1e-12)
