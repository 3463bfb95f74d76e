"""SCU alignment: the one-to-one matching is optimal (against every matching, by brute force),
and every SCU is matched, linked or alone."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree.pyramids import build_pyramid
from clusteragree.pyramids.alignment import align_scus

WORDS = ["w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "w9"]
SUMMARY = [("D1.M.100.A.A", " ".join(WORDS))]


@st.composite
def scu_spans(draw: st.DrawFn) -> list[tuple[int, int]]:
    """Up to four SCUs, each a run of words; SCUs of one pyramid do not overlap."""
    cuts = sorted(draw(st.sets(st.integers(1, len(WORDS) - 1), max_size=5)))
    runs = list(zip([0, *cuts], [*cuts, len(WORDS)], strict=True))
    return draw(st.lists(st.sampled_from(runs), unique=True, max_size=4))


def _pyramid(spans: list[tuple[int, int]]):
    return build_pyramid(SUMMARY, [(f"scu{a}-{b}", [[(0, " ".join(WORDS[a:b]))]])
                                   for a, b in spans])


def _jaccard(x: set[int], y: set[int]) -> float:
    return len(x & y) / len(x | y) if x | y else 0.0


@settings(max_examples=80, deadline=None)
@given(scu_spans(), scu_spans())
def test_the_matching_is_optimal_and_every_scu_is_accounted_for(spans_a, spans_b) -> None:
    found = align_scus(_pyramid(spans_a), _pyramid(spans_b))
    sets_a = [set(range(a, b)) for a, b in spans_a]
    sets_b = [set(range(a, b)) for a, b in spans_b]
    best = 0.0  # brute force over every one-to-one matching
    small, large = (sets_a, sets_b) if len(sets_a) <= len(sets_b) else (sets_b, sets_a)
    for chosen in itertools.permutations(range(len(large)), len(small)):
        best = max(best, sum(_jaccard(small[i], large[j]) for i, j in enumerate(chosen)))
    assert found.matched["jaccard"].sum() == pytest.approx(best)
    accounted_a = (set(found.matched["a_uid"]) | set(found.linked.query("side == 'A'")["uid"])
                   | set(found.only.query("side == 'A'")["uid"]))
    accounted_b = (set(found.matched["b_uid"]) | set(found.linked.query("side == 'B'")["uid"])
                   | set(found.only.query("side == 'B'")["uid"]))
    assert accounted_a == set(range(1, len(spans_a) + 1))
    assert accounted_b == set(range(1, len(spans_b) + 1))
    covered_a = set().union(*sets_a) if sets_a else set()
    covered_b = set().union(*sets_b) if sets_b else set()
    unmarked = found.unmarked
    assert set(unmarked.query("side == 'A'")["position"]) == covered_a - covered_b
    assert set(unmarked.query("side == 'B'")["position"]) == covered_b - covered_a


def test_align_takes_two_pyramids(cli) -> None:
    from pathlib import Path

    fix = Path(__file__).resolve().parent.parent / "corpora_fixtures" / "passonneau2006"
    files = [str(fix / f"fig1-A{k}.pyr") for k in (1, 2)]
    code, _, err = cli("pyramid", *files, files[0], "--align")
    assert code == 2 and "exactly two" in err
    code, out, err = cli("pyramid", *files, "--align")
    assert code == 0, err
    # Passonneau (2006) Figure 1: A1 splits into three SCUs what A2 has as one
    assert "SCUs: 1 matched, 2 split on one side and merged on the other" in out
