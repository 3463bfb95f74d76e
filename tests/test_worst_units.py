"""The units that disagree most, under every distance of a run: the ranking checked against each
unit's contribution to D_o computed from the definition (Krippendorff 2011: the unit's ordered
pairs of values, each weighted 1 / (m_u - 1), times the distance), the tie order, and the names
written as a person reads them on a real corpus of each domain."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from clusteragree import CodingTable
from clusteragree.core.diagnostics import diagnostics, units_by_distance, worst_units
from clusteragree.core.readable import UnitText
from clusteragree.report.schema import diagnostic_records
from clusteragree.report.text import diagnostic_sections

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "corpora"


# --------------------------------------------------------------------------- the definition

def _jaccard(a: frozenset, b: frozenset) -> Fraction:
    if not a and not b:
        return Fraction(0)
    return 1 - Fraction(len(a & b), len(a | b))


def _masi(a: frozenset, b: frozenset) -> Fraction:
    if not a and not b:
        return Fraction(0)
    j = Fraction(len(a & b), len(a | b))
    m = (Fraction(1) if a == b else Fraction(2, 3) if a <= b or b <= a
         else Fraction(1, 3) if a & b else Fraction(0))
    return 1 - j * m


def absolute(x: int, y: int) -> float:
    """A distance of one's own, passed as a plain callable."""
    return float(abs(x - y))


#: distance as given to the library -> (its name in the output, the definition, exactly)
SCALAR = {"nominal": ("nominal", lambda x, y: Fraction(x != y)),
          "interval": ("interval", lambda x, y: Fraction((x - y) ** 2)),
          absolute: ("absolute", lambda x, y: Fraction(abs(x - y)))}
SETS = {"nominal": ("nominal", lambda a, b: Fraction(a != b)),
        "jaccard": ("jaccard", _jaccard), "masi": ("masi", _masi)}


def _brute(records, definition) -> dict[object, tuple[Fraction, int]]:
    """Each pairable unit's contribution to D_o * n, and m_u."""
    by_unit: dict[object, list[object]] = {}
    for _, unit, value in records:
        by_unit.setdefault(unit, []).append(value)
    out = {}
    for unit, values in by_unit.items():
        m = len(values)
        if m < 2:
            continue
        total = sum((definition(v, w) for i, v in enumerate(values)
                     for j, w in enumerate(values) if i != j), Fraction(0))
        out[unit] = (total / (m - 1), m)
    return out


@st.composite
def coded(draw: st.DrawFn) -> tuple[list[tuple[str, int, object]], bool]:
    sets = draw(st.booleans())
    value = (st.frozensets(st.sampled_from("abcd"), max_size=3) if sets
             else st.integers(0, 4))
    records = []
    for u in draw(st.permutations(range(draw(st.integers(1, 12))))):  # units out of repr order
        for c in range(draw(st.integers(1, 4))):
            if draw(st.booleans()) or c < 1:
                records.append((f"c{c}", u, draw(value)))
    return records, sets


@settings(max_examples=120, deadline=None)
@given(coded(), st.integers(1, 6))
def test_each_distance_ranks_the_units_by_their_contribution_to_D_o(drawn, k) -> None:
    records, sets = drawn
    table = CodingTable.from_records(records)
    assume(table.n_coders >= 2)
    distances = SETS if sets else SCALAR
    found = units_by_distance(table, list(distances), k)
    position = {u: i for i, u in enumerate(table.units)}
    assert found.attrs["distances"] == [name for name, _ in distances.values()]
    for name, definition in distances.values():
        brute = _brute(records, definition)
        total = sum(c for c, _ in brute.values())
        expected = sorted((u for u, (c, _) in brute.items() if c > 0),
                          key=lambda u: (-brute[u][0], -brute[u][1], position[u]))[:k]
        mine = found[found["distance"] == name]
        assert mine["key"].tolist() == expected
        assert mine["rank"].tolist() == list(range(1, len(expected) + 1))
        assert mine["disagreement"].tolist() == pytest.approx(
            [float(brute[u][0]) for u in expected], abs=1e-9)
        assert mine["values"].tolist() == [brute[u][1] for u in expected]
        assert mine["share"].tolist() == pytest.approx(
            [float(brute[u][0] / total) for u in expected], abs=1e-9)


def test_ties_go_to_more_values_then_to_reading_order_never_to_the_labels() -> None:
    # "b" (x, y) and "a" (x, y) contribute 2 with two values; "c" (x, x, y) contributes 4/2 = 2
    # with three: c first (more values), then b and a in the order the domain reads them
    records = [("A", "b", "x"), ("B", "b", "y"), ("A", "a", "x"), ("B", "a", "y"),
               ("A", "c", "x"), ("B", "c", "x"), ("C", "c", "y")]
    table = CodingTable.from_records(records)
    top = worst_units(table, "nominal")
    assert top["disagreement"].tolist() == pytest.approx([2.0, 2.0, 2.0])
    assert top["key"].tolist() == ["c", "b", "a"]  # table order: b before a
    where = {"a": ("d1", 1), "b": ("d1", 7), "c": ("d2", 0)}

    def describe(unit):
        return UnitText(f"unit {unit}", *where[unit][:1], position=(where[unit][1],))

    top = worst_units(table, "nominal", describe_unit=describe)
    assert top["key"].tolist() == ["c", "a", "b"]  # a is read before b in d1
    assert top["document"].tolist() == ["d2", "d1", "d1"]


def test_documents_are_read_in_the_order_given() -> None:
    one = CodingTable.from_records([("A", 1, "x"), ("B", 1, "y")])
    found = diagnostics({"z-doc": one, "a-doc": one}, ["nominal"])["units"]
    assert found["document"].tolist() == ["z-doc", "a-doc"]
    assert found["unit"].tolist() == ["1", "1"]


def test_records_and_text_hold_one_table_per_distance() -> None:
    t = CodingTable.from_records([("A", 1, frozenset({"PER"})), ("B", 1, frozenset({"PER", "ORG"})),
                                  ("A", 2, frozenset({"LOC"})), ("B", 2, frozenset({"ORG"}))])
    found = diagnostics(t, ["nominal", "jaccard"], worst=5)
    recs = [r for r in diagnostic_records(found) if r["kind"] == "unit"]
    # jaccard: unit 2 (disjoint, 1 each way: 2) before unit 1 ({PER} vs {ORG, PER}: 1/2 twice)
    assert [(r["distance"], r["rank"], r["unit"]) for r in recs] == [
        ("nominal", 1, "1"), ("nominal", 2, "2"), ("jaccard", 1, "2"), ("jaccard", 2, "1")]
    assert recs[0]["codes"] == {"A": "PER", "B": "ORG, PER"}
    assert recs[0]["document"] is None
    titles = [title for title, _ in diagnostic_sections(found) if title.startswith("units")]
    assert titles == ["units that disagree most under nominal (each annotator's value)",
                      "units that disagree most under jaccard (each annotator's value)"]
    agree = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x")])
    sections = diagnostic_sections(diagnostics(agree, ["nominal"]))
    assert ("units that disagree most under nominal (each annotator's value)",
            "no unit disagrees under nominal") in sections


# --------------------------------------------------------------------------- real corpora

def _readable(records: list[dict], distances: set[str]) -> None:
    units = [r for r in records if r["kind"] == "unit"]
    assert units, "the run lists the units that disagree most"
    assert {r["distance"] for r in units} == distances
    for r in units:
        for text in (r["unit"], r["document"] or "", *r["codes"].values()):
            assert "frozenset(" not in text and "('" not in text and "..." not in text, text
    for name in distances:
        ranks = [r["rank"] for r in units if r["distance"] == name]
        assert ranks == list(range(1, len(ranks) + 1))


def _need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return path


def _json(cli, *argv: str) -> list[dict]:
    code, out, err = cli(*argv, "-f", "json")
    assert code == 0, err
    return json.loads(out)["results"]


def test_pyramid_units_are_summary_words_and_values_are_scus(cli, tmp_path) -> None:
    pyr = _need(SHARED / "duc-pyramids" / "DUC2006" / "DUC2006pyramiddata" / "allpyramids"
                / "D0631.pyr")
    sys.path.insert(0, str(ROOT / "tests"))
    from real_matrix import merge_scus
    other = merge_scus(pyr, tmp_path / "merged.pyr")
    results = _json(cli, "pyramid", str(pyr), str(other), "--diagnostics", "--worst", "5")
    _readable(results, {"nominal", "jaccard", "masi"})
    first = next(r for r in results if r["kind"] == "unit")
    assert first["document"].startswith("D0631.M.250.")
    assert first["unit"].startswith(("word ", "words ")) and ': "' in first["unit"]
    assert any(v.startswith("SCU ") for v in first["codes"].values())


def test_coreference_units_are_words_and_values_are_chains(cli) -> None:
    pa = _need(SHARED / "coref-multi-annotator" / "participant-analysis")
    results = _json(cli, "coref", str(pa / "A"), str(pa / "B"), "--text-dir", str(pa / "text"),
                    "--diagnostics")
    _readable(results, {"nominal", "jaccard", "masi"})
    units = [r for r in results if r["kind"] == "unit"]
    assert all(r["document"] for r in units)
    values = [v for r in units for v in r["codes"].values()]
    assert any(v.startswith("chain of \"") and "other mention" in v for v in values)
    # jaccard ranks otherwise than nominal (under nominal every disagreement weighs 2 here)
    assert ([r["unit"] for r in units if r["distance"] == "nominal"]
            != [r["unit"] for r in units if r["distance"] == "jaccard"])


def test_tree_units_are_sentences_and_values_their_heads(cli) -> None:
    cdt = _need(SHARED / "syntax" / "cdt")
    results = _json(cli, "trees", str(cdt / "da-lotte.conll"), str(cdt / "da-morten.conll"),
                    "--roots", "many", "--cycles", "drop", "--diagnostics", "--worst", "3",
                    "--distance", "plain,norm")
    _readable(results, {"ted-plain", "ted-norm"})
    first = next(r for r in results if r["kind"] == "unit")
    assert first["unit"].startswith("sentence ") and first["document"] is None
