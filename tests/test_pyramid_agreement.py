"""Pyramid agreement: units, policies, engines, peer annotations, scores; checked by hand,
against the generic engine and brute force, and against NIST's DUC 2006 score table."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from reference import SET_DISTANCES, brute_alpha

from clusteragree import CodingTable, alpha
from clusteragree.core.convert import memberships_table
from clusteragree.pyramids import (
    build_pyramid,
    pan_agreement,
    pan_scores,
    pan_xml,
    pyramid_agreement,
    pyramid_score,
    pyramid_table,
    read_pyramid,
)

ROOT = Path(__file__).resolve().parent.parent
FIG = ROOT / "corpora_fixtures" / "passonneau2006"
QUIRKS = ROOT / "corpora_fixtures" / "pyramid-quirks"
SHARED = ROOT.parent / "shared" / "corpora" / "duc-pyramids"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/corpora absent")


def _cells(table: CodingTable) -> dict:
    return {(c, u): v for c, u, v in table.records()}


def test_figure4_spans_are_the_seven_spans_with_class_minus_self_values() -> None:
    pyramids = [read_pyramid(FIG / "fig4-A1.pyr"), read_pyramid(FIG / "fig4-A2.pyr")]
    table, units = pyramid_table(pyramids, units="spans", coders=["A1", "A2"])
    assert len(units) == 7
    # Figure 4, units in text order: span 1, 5, 6, 2, 7, 3, 4 (summaries 1 to 5).
    order = [1, 5, 6, 2, 7, 3, 4]
    a1 = {1: {1, 2, 3, 4}, 2: {1, 2, 3, 4}, 3: {1, 2, 3, 4}, 4: {1, 2, 3, 4}, 5: {5, 7},
          6: {6}, 7: {5, 7}}
    for k, span in enumerate(order):
        want_a1 = {order.index(s) for s in a1[span]} - {k}
        assert table.value("A1", k) == frozenset(want_a1)
        assert table.value("A2", k) == frozenset(range(7)) - {k}


def test_figure1_words_and_contributors() -> None:
    pyramids = [read_pyramid(FIG / "fig1-A1.pyr"), read_pyramid(FIG / "fig1-A2.pyr")]
    _, units = pyramid_table(pyramids, units="words")
    assert len(units) == 38  # every word of the five printed contributors' summaries
    assert units.labels[:4] == ("Saudi", "Arabian", "officials,", "under")
    cont, cunits = pyramid_table(pyramids, units="contributors")
    # A1 has 7 one-part contributors (spans 1-7); A2 five, of which {1,5} and {2,7} have two
    # parts and 6, 3, 4 are A1's: 9 distinct extents.
    assert len(cunits) == 9
    # A1's span 6 is a singleton SCU; A2 has no contributor with the extent of span 5 alone.
    assert sum(v == frozenset() for _, _, v in cont.records()) >= 1


@pytest.mark.parametrize("units", ["words", "spans", "contributors"])
@pytest.mark.parametrize("fig", ["fig1", "fig3", "fig5"])
def test_alpha_on_figures_equals_brute_force(units: str, fig: str) -> None:
    pyramids = [read_pyramid(FIG / f"{fig}-A1.pyr" if fig != "fig3" else FIG / "fig3-A3.pyr"),
                read_pyramid(FIG / f"{fig}-A2.pyr" if fig != "fig3" else FIG / "fig3-A4.pyr")]
    table, _ = pyramid_table(pyramids, units=units)
    for name in ("nominal", "jaccard", "masi"):
        ref = brute_alpha(_cells(table), SET_DISTANCES[name])
        assert ref is not None
        d_o, d_e, _ = ref
        got = alpha(table, name)
        assert got.D_o == pytest.approx(float(d_o)) and got.D_e == pytest.approx(float(d_e))


def test_figure3_words_by_hand() -> None:
    # A3 {x, y} {z}; A4 {x} {y, z}: values A3 x:{y} y:{x} z:{}; A4 x:{} y:{z} z:{y}.
    # Observed: every unit disagrees, Jaccard distance 1 in all three: D_o = 1.
    table, _ = pyramid_table([read_pyramid(FIG / "fig3-A3.pyr"),
                              read_pyramid(FIG / "fig3-A4.pyr")])
    r = alpha(table, "jaccard")
    assert r.D_o == pytest.approx(1.0)
    # Expected: 6 values {y},{x},{},{},{z},{y}; 30 ordered pairs; identical pairs: ({},{}) x2
    # and ({y},{y}) x2, so 26 pairs at distance 1 (all other pairs are disjoint).
    assert r.D_e == pytest.approx(26 / 30)
    assert r.alpha == pytest.approx(1 - 30 / 26)


def _overlapping_pair():
    summaries = [("D0001.M.100.A.A", "a b c d e"), ("D0001.M.100.A.B", "f g h")]
    p = build_pyramid(summaries, [("s1", [[(0, "a b c")], [(1, "f")]]),
                                  ("s2", [[(0, "c d")]]), ("s3", [[(1, "g h")]])])
    q = build_pyramid(summaries, [("t1", [[(0, "a b")], [(1, "f g")]]), ("t2", [[(0, "d e")]])])
    return p, q


def test_overlap_policies() -> None:
    p, q = _overlapping_pair()
    union, units = pyramid_table([p, q], units="words", coders=["P", "Q"])
    assert units.labels == ("a", "b", "c", "d", "e", "f", "g", "h")
    assert not union.is_class_derived  # 'c' is in two SCUs of P: union values are not classes
    assert union.value("P", 2) == frozenset({0, 1, 3, 5})  # c: {a b c f} | {c d}, minus c
    assert union.value("P", 3) == frozenset({2})  # d: {c d} minus d
    component, _ = pyramid_table([p, q], units="words", coders=["P", "Q"], overlap="component")
    assert component.is_class_derived
    assert component.value("P", 3) == frozenset({0, 1, 2, 5})  # s1 and s2 merge through c
    assert component.value("P", 4) == frozenset()  # e is in no SCU of P
    missing, _ = pyramid_table([p, q], units="words", coders=["P", "Q"], unmarked="missing")
    assert missing.value("P", 4) is None and missing.value("Q", 2) is None
    for table in (union, component, missing):
        for name in ("nominal", "jaccard", "masi"):
            ref = brute_alpha(_cells(table), SET_DISTANCES[name])
            assert ref is not None
            assert alpha(table, name).D_e == pytest.approx(float(ref[1]))
            assert alpha(table, name).D_o == pytest.approx(float(ref[0]))


def test_memberships_table_linear_and_generic_agree_on_random_partitions() -> None:
    rng = np.random.default_rng(4)
    for _ in range(20):
        n = int(rng.integers(5, 40))
        members = []
        for _ in range(2):
            units = np.flatnonzero(rng.random(n) < 0.8)
            members.append(np.column_stack([units, rng.integers(0, 6, len(units))]))
        table = memberships_table(members, n, ["A", "B"])
        assert table.is_class_derived
        for name in ("nominal", "jaccard", "masi"):
            fast = alpha(table, name).alpha
            slow = alpha(table, name, engine="generic").alpha
            assert (math.isnan(fast) and math.isnan(slow)) or fast == pytest.approx(slow)


def test_pyramid_agreement_frame_and_signature() -> None:
    frame = pyramid_agreement([FIG / "fig5-A1.pyr", FIG / "fig5-A2.pyr"], units="words",
                              distances=["masi"])
    row = frame.iloc[-1]
    assert row["document"] == "TOTAL" and row["distance"] == "masi"
    assert "units:words|tok:ws|overlap:union|unmarked:empty" in row["signature"]
    with pytest.raises(ValueError, match="at least two pyramids"):
        pyramid_agreement([FIG / "fig5-A1.pyr"])


# ---------------------------------------------------------------------------- peer annotations
def _write_pans(tmp_path: Path) -> list[Path]:
    p = read_pyramid(QUIRKS / "line-break-part.pyr")
    peers = {"1": "The protests against the mine continued.\nThe UN called for closing it.",
             "2": "Nothing happened.\nA month later it rained."}
    found = {
        ("114", "1"): {1: [["protests against the mine"]], 2: [["UN called for closing it"]]},
        ("115", "1"): {1: [["The protests against the mine continued"]]},
        ("114", "2"): {3: [["A month later"]]},
        ("115", "2"): {3: [["A month later"]], 0: [["Nothing happened"]]},
    }
    paths = []
    for (annotator, peer), scus in found.items():
        path = tmp_path / f"{annotator}.D0901.M.100.A.{peer}.pan"
        path.write_text(pan_xml(p, peers[peer], scus))
        paths.append(path)
    return paths


def test_pan_agreement_pools_peers_and_equals_brute_force(tmp_path: Path) -> None:
    frame, table = pan_agreement(_write_pans(tmp_path))
    assert set(table.coders) == {"114", "115"}
    assert table.n_units == 12 + 7  # tokens of peer 1 and peer 2, counted by hand
    assert table.value("114", ("D0901.M.100.A.1", 1)) == frozenset({1})  # "protests"
    assert table.value("115", ("D0901.M.100.A.2", 0)) == frozenset({0})  # "Nothing": uid 0
    for _, row in frame.iterrows():
        d_o, d_e, n = brute_alpha(_cells(table), SET_DISTANCES[row["distance"]])
        assert row["n"] == n and row["D_o"] == pytest.approx(float(d_o))
        assert row["D_e"] == pytest.approx(float(d_e))
    _, without = pan_agreement(_write_pans(tmp_path), nonmatching=False)
    assert without.value("115", ("D0901.M.100.A.2", 0)) == frozenset()


def test_pan_scores_by_hand(tmp_path: Path) -> None:
    scores, corr = pan_scores(_write_pans(tmp_path))
    got = {(r.peer[-1], r.annotator): (r.scus, r.original, r.modified)
           for r in scores.itertuples()}
    # Weights: SCU 1 and 2 have 2 contributors, SCU 3 one; 5 contributors / 2 models = 2.5,
    # rounded half up to 3 SCUs: the best three weigh 2 + 2 + 1 = 5.
    assert got[("1", "114")] == (2, 1.0, pytest.approx(4 / 5))
    assert got[("1", "115")] == (1, 1.0, pytest.approx(2 / 5))
    assert got[("2", "114")] == (1, pytest.approx(1 / 2), pytest.approx(1 / 5))
    assert len(corr) == 2 and set(corr["peers"]) == {2}


def test_pyramid_score_average_rounding() -> None:
    p = read_pyramid(QUIRKS / "line-break-part.pyr")
    assert pyramid_score(p, [1], "modified", average="round") == pytest.approx(2 / 5)
    assert pyramid_score(p, [1], "modified", average="floor") == pytest.approx(2 / 4)
    assert Fraction(5, 2) == Fraction(p.n_contributors, len(p.summaries))


def test_pan_files_must_be_named_and_texts_must_agree(tmp_path: Path) -> None:
    paths = _write_pans(tmp_path)
    odd = tmp_path / "oddname.pan"
    odd.write_text(paths[0].read_text())
    with pytest.raises(ValueError, match=r"ANNOTATOR\.DOCSET\.M\.LEN\.SEL\.PEER\.pan"):
        pan_agreement([*paths, odd])
    changed = tmp_path / "115.D0901.M.100.A.1.pan"
    text = changed.read_text()
    changed.write_text(text.replace("<line>The UN called", "<line>The U.N. called"))
    with pytest.raises(ValueError, match=r"peer D0901\.M\.100\.A\.1: the peer text differs"):
        pan_agreement(paths)


@needs_shared
def test_modified_scores_of_d0631_match_nist() -> None:
    base = SHARED / "DUC2006" / "DUC2006pyramiddata"
    nist = {}
    for line in (base / "scoring" / "2006_modified_scores.txt").read_text().splitlines():
        f = line.split()
        if f and f[0] == "D0631":
            nist[f[1], f[5]] = (float(f[2]), int(f[3]))
    scores, corr = pan_scores(sorted((base / "allpans").glob("11[45].D0631.*.pan")))
    assert len(scores) == 44
    for r in scores.itertuples():
        printed, n_scus = nist[r.peer.split(".")[-1], r.annotator]
        assert r.scus == n_scus
        assert r.modified == pytest.approx(printed, abs=5e-5)  # printed to 4 decimals
    assert (corr["pearson"] > 0.7).all()


# ---------------------------------------------------------------------------- command line


def test_cli_pyramid_json_and_text_differences(cli) -> None:
    code, out, _ = cli("pyramid", str(FIG / "fig5-A1.pyr"), str(FIG / "fig5-A2.pyr"),
                        "--units", "spans", "-f", "json")
    obj = json.loads(out)
    assert code == 0 and [r["distance"] for r in obj["results"]] == ["nominal", "jaccard", "masi"]
    assert {"alpha", "D_o", "D_e", "n", "signature"} <= set(obj["results"][0])
    code, out, err = cli("pyramid", str(QUIRKS / "line-break-part.pyr"),
                          str(ROOT / "corpora_fixtures" / "pyramid-bad" / "other-text.pyr"))
    assert code == 1 and out == ""
    assert "other-text.pyr: the summaries' text differs from" in err
    assert "at character 121 (text line 9, column 14): ';' here, ',' there" in err
    code, _, err = cli("pyramid", str(FIG / "fig5-A1.pyr"))
    assert code == 2 and "at least two" in err


def test_cli_reports_repairs_and_strict_refuses(cli) -> None:
    shifted = str(QUIRKS / "shifted-offsets.pyr")
    code, _, err = cli("pyramid", shifted, shifted)
    assert code == 0
    assert ("shifted-offsets.pyr:47: repaired: part re-anchored (label not at its offsets) "
            "(2 times)") in err
    code, _, err = cli("pyramid", shifted, shifted, "--strict")
    assert code == 1 and "shifted-offsets.pyr:" in err and "strict reading refuses" in err


def test_cli_pan(tmp_path: Path, cli) -> None:
    paths = [str(p) for p in _write_pans(tmp_path)]
    code, out, _ = cli("pan", *paths, "-f", "json")
    obj = json.loads(out)
    alphas = [r for r in obj["results"] if r["kind"] == "alpha"]
    assert code == 0 and obj["meta"]["peers"] == 2 and len(alphas) == 3
    correlations = [r for r in obj["results"] if r["kind"] == "correlation"]
    assert {c["score"] for c in correlations} == {"original", "modified"}
    code, out, _ = cli("pan", *paths, "--scores")
    assert code == 0 and "correlation of the annotators' pyramid scores" in out
    assert "modified" in out and out.startswith("Krippendorff's alpha (peer words as units): ")


@pytest.mark.parametrize(
    "name",
    ["empty.pyr", "not-xml.pyr", "wrong-root.pyr", "no-text.pyr", "offsets-out-of-range.pyr",
     "start-after-end.pyr", "label-far-away.pyr", "pyreval.pyr", "pyreval-readable.pyr"],
)
def test_cli_bad_pyramid_exits_1_with_file_and_line(cli, name: str) -> None:
    bad = ROOT / "corpora_fixtures" / "pyramid-bad" / name
    code, out, err = cli("pyramid", str(QUIRKS / "line-break-part.pyr"), str(bad))
    assert code == 1 and out == ""
    assert err.startswith(f"{bad}:") and err.split(":")[1].strip().isdigit()


def test_pan_ci_resamples_peers(tmp_path: Path, cli) -> None:
    """Two peers: alpha's interval comes from drawing peers, its point value is unchanged;
    with fewer than three peers the correlations have no interval (as they have no value)."""
    import numpy as np
    from scipy import stats

    from clusteragree.pyramids.intervals import resampled_correlations

    paths = [str(p) for p in _write_pans(tmp_path)]
    code, out, err = cli("pan", *paths, "--ci", "0.9", "--bootstrap", "300", "--seed", "2",
                         "-f", "json")
    assert code == 0, err
    results = json.loads(out)["results"]
    plain, _ = pan_agreement(paths)
    for record in (r for r in results if r["kind"] == "alpha"):
        point = float(plain.set_index("distance").loc[record["distance"], "alpha"])
        assert record["alpha"] == pytest.approx(point)
        assert record["bootstrap"]["resample"] == "documents"
    correlations = [r for r in results if r["kind"] == "correlation"]
    assert correlations and all(r["pearson_low"] is None for r in correlations)
    rng = np.random.default_rng(4)  # each resample's correlations against scipy's
    a, b = rng.random(6), rng.random(6)
    draws = rng.integers(0, 6, (20, 6))
    r, rho = resampled_correlations(a, b, draws)
    for k, row in enumerate(draws):
        if len(set(row.tolist())) > 1:
            assert r[k] == pytest.approx(stats.pearsonr(a[row], b[row])[0])
            assert rho[k] == pytest.approx(stats.spearmanr(a[row], b[row])[0])


def test_pan_per_doc_gives_alpha_of_each_peer_alone(tmp_path: Path, cli) -> None:
    paths = [str(p) for p in _write_pans(tmp_path)]
    code, out, err = cli("pan", *paths, "--per-doc", "-f", "json")
    assert code == 0, err
    per_peer = [r for r in json.loads(out)["results"] if r["kind"] == "alpha" and not r["pooled"]]
    assert {r["document"] for r in per_peer} == {"D0901.M.100.A.1", "D0901.M.100.A.2"}
    for record in per_peer:
        alone = [p for p in paths if p.endswith(record["document"] + ".pan")]
        frame, _ = pan_agreement(alone, [record["distance"]])
        assert record["alpha"] == pytest.approx(float(frame["alpha"].iloc[0]), nan_ok=True)
    code, out, _ = cli("pan", *paths, "--per-doc")
    assert code == 0 and "each peer: alpha on it and each annotator's scores" in out
    assert "114 original" in out


def test_pan_pairwise_and_diagnostics_agree_with_each_pair_alone(tmp_path: Path, cli) -> None:
    """A third annotator (116) of both peers: each pair's row equals alpha of that pair's files
    alone (and brute force), and the diagnostics' unit shares add up to D_o * n."""
    paths = [str(p) for p in _write_pans(tmp_path)]
    p = read_pyramid(QUIRKS / "line-break-part.pyr")
    peers = {"1": "The protests against the mine continued.\nThe UN called for closing it.",
             "2": "Nothing happened.\nA month later it rained."}
    third = {"1": {2: [["The UN called for closing it"]]}, "2": {0: [["A month later"]]}}
    for peer, scus in third.items():
        path = tmp_path / f"116.D0901.M.100.A.{peer}.pan"
        path.write_text(pan_xml(p, peers[peer], scus))
        paths.append(str(path))
    code, out, err = cli("pan", *paths, "--pairwise", "--diagnostics", "-f", "json")
    assert code == 0, err
    results = json.loads(out)["results"]
    pairs = [r for r in results if r["kind"] == "alpha" and r.get("pair") not in (None, "all")]
    assert {r["pair"] for r in pairs} == {"114 | 115", "114 | 116", "115 | 116"}
    for record in pairs:
        who = record["pair"].split(" | ")
        alone = [q for q in paths if Path(q).name.split(".")[0] in who]
        frame, table = pan_agreement(alone, [record["distance"]])
        assert record["alpha"] == pytest.approx(float(frame["alpha"].iloc[0]))
        d_o, d_e, n = brute_alpha(_cells(table), SET_DISTANCES[record["distance"]])
        assert record["D_e"] == pytest.approx(float(d_e))
        assert record["n"] == n and record["D_o"] == pytest.approx(float(d_o))
    everyone = next(r for r in results if r["kind"] == "alpha" and r.get("pair") == "all"
                    and r["distance"] == "nominal")
    units = [r for r in results if r["kind"] == "unit"]
    assert units and all(r["document"].startswith("D0901.M.100.A.") for r in units)
    assert all(r["unit"].startswith("word ") for r in units)
    frame, _ = pan_agreement(paths, ["nominal"], diagnose=True, worst=10_000)
    shares = frame.attrs["diagnostics"]["units"]["disagreement"].sum()
    assert shares == pytest.approx(everyone["D_o"] * everyone["n"])
    code, text, err = cli("pan", *paths, "--pairwise", "--diagnostics")
    assert code == 0 and "alpha without each annotator" in text, err
