"""Published and textbook values of alpha (sources in ../shared/notes/measures.md, section 8)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from clusteragree import CodingTable, alpha, alpha_many

# Krippendorff (2011), p. 8: 4 coders x 12 units with missing data (None).
K2011 = pd.DataFrame(
    [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
        [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
    ],
    index=list("ABCD"),
    columns=range(1, 13),
    dtype=object,
)


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        ("nominal", Fraction(113, 152)),
        ("ordinal", Fraction(108577, 133160)),
        ("interval", Fraction(951, 1120)),
        ("ratio", Fraction(18222619, 22852465)),
    ],
)
def test_krippendorff_2011_four_coders_with_missing(level: str, expected: Fraction) -> None:
    result = alpha(CodingTable.from_dataframe(K2011, layout="wide"), level)
    assert result.alpha == pytest.approx(float(expected), abs=1e-12)
    assert result.n == 40  # unit 12 has one value: not pairable
    assert result.units == 11


def test_krippendorff_2011_nominal_components() -> None:
    # From the printed coincidence matrix: D_o = (40 - 32) / 40 (off-diagonal mass 8).
    result = alpha(CodingTable.from_dataframe(K2011, layout="wide"), "nominal")
    assert result.D_o == pytest.approx(8 / 40)
    marginals = np.array([9, 13, 10, 5, 3])
    assert result.D_e == pytest.approx((40**2 - marginals @ marginals) / (40 * 39))


# Wikipedia / fast-krippendorff: 3 coders x 15 units.
WIKI = pd.DataFrame(
    [
        [None, None, None, None, None, 3, 4, 1, 2, 1, 1, 3, 3, None, 3],
        [1, None, 2, 1, 3, 3, 4, 3, None, None, None, None, None, None, None],
        [None, None, 2, 1, 3, 4, 4, None, 2, 1, 1, 3, 3, None, 4],
    ],
    index=list("ABC"),
    dtype=object,
)


@pytest.mark.parametrize(
    ("level", "expected", "tol"),
    [
        ("nominal", 56 / 81, 1e-12),
        ("interval", 643 / 793, 1e-12),
        ("ordinal", 0.806721, 5e-7),  # derived in the notes, 6 decimals
        ("ratio", 0.808944, 5e-7),
    ],
)
def test_wikipedia_three_coders(level: str, expected: float, tol: float) -> None:
    result = alpha(CodingTable.from_dataframe(WIKI, layout="wide"), level)
    assert result.alpha == pytest.approx(expected, abs=tol)
    assert result.n == 26


# DKPro Statistics SetAnnotationsTest: 9 items, 2 coders, with empty sets.
DKPRO = [
    (set(), set()), ({"A"}, set()), ({"A"}, {"A"}), ({"A"}, {"B"}), ({"A", "B"}, {"A"}),
    ({"A", "B"}, {"A", "C"}), ({"A", "B", "C"}, {"A", "B", "C"}), ({"C"}, {"A", "C"}),
    ({"C"}, {"A", "C"}),
]


def _two_coder_table(pairs: list[tuple[set[str], set[str]]]) -> CodingTable:
    recs = [(coder, i, v) for i, pair in enumerate(pairs)
            for coder, v in zip("12", pair, strict=True)]
    return CodingTable.from_records(recs)


@pytest.mark.parametrize(
    ("distance", "d_o", "d_e", "value", "tol"),
    [
        # DKPro's test asserts 3 decimals within 0.001; NLTK with the same distances gives
        # 0.1862 and 0.2529 (notes); MASI 1 - J*M is derived in the notes to 4 decimals.
        ("passonneau2004", 0.333, 0.409, 0.186, 1e-3),
        ("masi_dkpro", 0.253, 0.338, 0.252, 1e-3),
        ("masi", 0.5432, 0.7473, 0.2731, 5e-5),
    ],
)
def test_dkpro_set_example(distance: str, d_o: float, d_e: float, value: float, tol: float) -> None:
    result = alpha(_two_coder_table(DKPRO), distance)
    assert result.alpha == pytest.approx(value, abs=tol)
    assert result.D_o == pytest.approx(d_o, abs=tol)
    assert result.D_e == pytest.approx(d_e, abs=tol)


def test_dkpro_set_example_percentage_agreement() -> None:
    # DKPro's percentage agreement 0.333: 3 of 9 items identical, i.e. 1 - D_o (nominal).
    assert 1 - alpha(_two_coder_table(DKPRO), "nominal").D_o == pytest.approx(3 / 9)


@pytest.mark.parametrize(
    ("distance", "value"), [("passonneau2004", 0.1862), ("masi_dkpro", 0.2529)]
)
def test_dkpro_set_example_four_decimals(distance: str, value: float) -> None:
    assert alpha(_two_coder_table(DKPRO), distance).alpha == pytest.approx(value, abs=5e-5)


# stats.stackexchange q/407453: 2 coders x 11 multi-label items.
SE = [
    ({"l1", "l2"}, {"l1"}), ({"l1", "l2"}, {"l1", "l2"}), ({"l1"}, {"l1"}), ({"l3"}, {"l3"}),
    ({"l3"}, {"l1", "l3"}), ({"l4"}, {"l4"}), ({"l2"}, {"l4"}), ({"l1", "l2"}, {"l1"}),
    ({"l1", "l2"}, {"l1", "l2", "l3"}), ({"l1"}, {"l1"}), ({"l1"}, {"l1"}),
]


@pytest.mark.parametrize(
    ("distance", "value"),
    [
        ("masi", 0.540356),
        ("masi_nltk_legacy", 0.540966),
        ("jaccard", 0.601562),
        ("dice", 0.661208),
        ("nominal", 0.438503),
    ],
)
def test_stackexchange_set_example(distance: str, value: float) -> None:
    assert alpha(_two_coder_table(SE), distance).alpha == pytest.approx(value, abs=5e-7)


def test_artstein_poesio_dialogue_acts() -> None:
    # Contingency (rows coder b, columns coder a) from A&P (2008); alpha nominal = 2396/2993.
    cells = {("STAT", "STAT"): 46, ("STAT", "IREQ"): 6, ("IREQ", "IREQ"): 32,
             ("CHCK", "IREQ"): 6, ("CHCK", "CHCK"): 10}
    recs, item = [], 0
    for (b, a), count in cells.items():
        for _ in range(count):
            recs += [("a", item, a), ("b", item, b)]
            item += 1
    result = alpha(CodingTable.from_records(recs), "nominal")
    assert result.alpha == pytest.approx(2396 / 2993, abs=1e-12)
    assert result.n == 200


def test_fleiss_1971_table() -> None:
    counts = [
        [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
    ]
    recs = []
    for subject, row in enumerate(counts):
        labels = [cat for cat, k in enumerate(row) for _ in range(k)]
        recs += [(rater, subject, label) for rater, label in enumerate(labels)]
    assert alpha(CodingTable.from_records(recs), "nominal").alpha == pytest.approx(
        0.215574, abs=5e-7
    )


def test_nltk_easy_example() -> None:
    recs = [("c1", "d1", "YES"), ("c2", "d1", "NO"), ("c3", "d1", "NO"),
            ("c1", "d2", "YES"), ("c2", "d2", "NO"), ("c3", "d3", "NO")]
    assert alpha(CodingTable.from_records(recs), "nominal").alpha == pytest.approx(-1 / 3)


def test_single_unit_with_disagreement_is_zero() -> None:
    # nltk#2991: {l1} vs {l1, l2} in one unit gives D_o = D_e, alpha = 0 by construction.
    t = CodingTable.from_records([("A", 1, {"l1"}), ("B", 1, {"l1", "l2"})])
    for result in alpha_many(t, ["masi", "jaccard", "nominal"]):
        assert result.alpha == pytest.approx(0.0, abs=1e-12)


# Passonneau (2006), Figures 2 and 3: mean similarity over the columns x, y, z,
# computed as the paper does: on the sets as printed, one minus the mean distance (= 1 - D_o).
FIG2 = {"A3": [{"x", "y"}, {"x", "y"}, {"x"}], "A4": [{"x", "y", "z"}] * 3}
FIG3 = {"A3": [{"x", "y"}, {"x", "y"}, {"z"}], "A4": [{"x"}, {"y", "z"}, {"y", "z"}]}


def _figure(fig: dict[str, list[set[str]]]) -> CodingTable:
    return CodingTable.from_records(
        (coder, unit, value)
        for coder, sets in fig.items()
        for unit, value in zip("xyz", sets, strict=True)
    )


def _mean_similarity_by_hand(fig: dict[str, list[set[str]]], monotonicity: bool) -> Fraction:
    total = Fraction(0)
    for p, q in zip(fig["A3"], fig["A4"], strict=True):
        j = Fraction(len(p & q), len(p | q))
        if monotonicity:
            m = 1 if p == q else Fraction(2, 3) if (p <= q or q <= p) else Fraction(1, 3)
            j *= m
        total += j
    return total / 3


def test_passonneau_figure2_means() -> None:
    table = _figure(FIG2)
    assert _mean_similarity_by_hand(FIG2, False) == Fraction(5, 9)  # as printed in the paper
    assert _mean_similarity_by_hand(FIG2, True) == Fraction(10, 27)
    assert 1 - alpha(table, "jaccard").D_o == pytest.approx(5 / 9)
    assert 1 - alpha(table, "masi").D_o == pytest.approx(10 / 27)


def test_passonneau_figure3_mean_masi_follows_definition_not_print() -> None:
    # The paper prints 4/9 (Jaccard) and 6/27 (MASI); its own definitions give 4/9 and 7/27
    # (docs/reproduction/passonneau2006-figures.md explains the column values behind 6/27).
    table = _figure(FIG3)
    assert _mean_similarity_by_hand(FIG3, False) == Fraction(4, 9)
    assert _mean_similarity_by_hand(FIG3, True) == Fraction(7, 27)
    assert 1 - alpha(table, "jaccard").D_o == pytest.approx(4 / 9)
    assert 1 - alpha(table, "masi").D_o == pytest.approx(7 / 27)
    assert 1 - alpha(table, "masi").D_o != pytest.approx(6 / 27)


@pytest.mark.parametrize(("fig", "jaccard", "masi"), [(FIG2, 1 / 2, 1 / 3), (FIG3, 0.0, 0.0)])
def test_passonneau_figures_with_the_unit_removed(fig, jaccard: float, masi: float) -> None:
    removed = {coder: [s - {unit} for unit, s in zip("xyz", sets, strict=True)]
               for coder, sets in fig.items()}
    table = _figure(removed)
    assert 1 - alpha(table, "jaccard").D_o == pytest.approx(jaccard)
    assert 1 - alpha(table, "masi").D_o == pytest.approx(masi)
