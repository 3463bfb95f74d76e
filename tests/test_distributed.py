"""The dask backend against the in-memory engine, on random partitionings.

Units are deliberately cut across partitions, rows shuffled, cells missing, coders absent from
partitions, values as ints, floats, strings and categoricals (whose local codes differ between
partitions). The in-memory engine (and the krippendorff package, for nominal and interval
alpha) is the reference; the dask statistics must give the same numbers (to rounding: the sums
are added in another order). A LocalCluster of two processes runs the same check on Parquet.
"""

from __future__ import annotations

import json
import math
from itertools import pairwise
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

dask = pytest.importorskip("dask", reason="the dask backend needs dask (the dask extra)")
dd = pytest.importorskip("dask.dataframe", reason="the dask backend needs dask[dataframe]")
pytest.importorskip("pyarrow", reason="dask reads Parquet with pyarrow (the dask extra)")

import krippendorff  # noqa: E402

from clusteragree import CodingTable, alpha  # noqa: E402
from clusteragree.core.distributed import dask_stats  # noqa: E402
from clusteragree.core.gwet import chance_corrected  # noqa: E402
from clusteragree.core.kappa import bennett_s, cohen_kappa, observed_agreement, scott_pi  # noqa: E402
from clusteragree.errors import InputError  # noqa: E402

KINDS = ("int", "float", "str", "category")
NUMERIC = ("nominal", "interval", "ordinal", "ratio")


def _values(codes: list[int], kind: str) -> pd.Series:
    if kind == "int":
        return pd.Series(codes, dtype="int64")
    if kind == "float":
        return pd.Series([c / 2 + 1 for c in codes], dtype="float64")
    return pd.Series([f"v{c}" for c in codes], dtype=object)


@st.composite
def long_frames(draw: st.DrawFn, complete: bool = False) -> tuple[pd.DataFrame, list[int], str]:
    """A long frame, where to cut it (row positions), and the value kind."""
    n_units = draw(st.integers(1, 10))
    n_coders = draw(st.integers(2, 4))
    kind = draw(st.sampled_from(KINDS))
    rows = []
    for u in range(n_units):
        for c in range(n_coders):
            if complete or draw(st.booleans()) or draw(st.booleans()):
                rows.append((f"c{c}", u * 7 % 11 if kind != "str" else f"u{u}",
                             draw(st.integers(0, 3))))
    if not rows:
        rows = [("c0", 0, 0)]
    frame = pd.DataFrame(rows, columns=["coder", "unit", "code"])
    if draw(st.booleans()):  # unsorted
        order = draw(st.permutations(range(len(frame))))
        frame = frame.iloc[list(order)].reset_index(drop=True)
    frame["value"] = _values(frame.pop("code").tolist(), kind)
    if not complete and kind == "float" and draw(st.booleans()):
        frame.loc[draw(st.integers(0, len(frame) - 1)), "value"] = np.nan  # a missing value
    cuts = sorted(draw(st.lists(st.integers(0, len(frame)), max_size=5)))
    return frame, cuts, kind


def _dask_frame(frame: pd.DataFrame, cuts: list[int], kind: str):
    bounds = [0, *cuts, len(frame)]
    chunks = [frame.iloc[a:b].reset_index(drop=True) for a, b in pairwise(bounds)]
    if kind == "category":  # each partition its own categories: the local codes differ
        chunks = [c.assign(value=c["value"].astype("category")) for c in chunks]
    meta = chunks[0].iloc[:0]
    return dd.from_delayed([dask.delayed(c) for c in chunks], meta=meta, verify_meta=False)


def _close(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def _reliability(table: CodingTable) -> np.ndarray:
    """Reliability data for the krippendorff package: value codes as numbers, NaN missing."""
    values = np.array([v if isinstance(v, (int, float)) else k
                       for k, v in enumerate(table.values)] + [np.nan], dtype=float)
    return values[table.codes]


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(long_frames(), st.integers(1, 4))
def test_alpha_and_gwet_match_the_in_memory_engine(drawn, buckets: int) -> None:
    frame, cuts, kind = drawn
    table = CodingTable.from_dataframe(frame)
    pairable = (table.present.sum(axis=0) >= 2).any()
    with dask.config.set(scheduler="synchronous"):
        stats = dask_stats(_dask_frame(frame, cuts, kind), ("alpha", "gwet"), buckets=buckets)
    distances = NUMERIC if kind in ("int", "float") else ("nominal",)
    if not pairable:
        with pytest.raises(InputError):
            stats.alphas(distances)
        return
    for dist, got in zip(distances, stats.alphas(distances), strict=True):
        want = alpha(table, dist)
        assert (got.n, got.units, got.coders) == (want.n, want.units, want.coders)
        for field in ("alpha", "D_o", "D_e"):
            assert _close(getattr(got, field), getattr(want, field)), (dist, field)
        if dist in ("nominal", "interval") and not math.isnan(want.alpha):
            other = krippendorff.alpha(reliability_data=_reliability(table),
                                       level_of_measurement=dist)
            assert math.isclose(got.alpha, other, rel_tol=1e-9, abs_tol=1e-12)
    try:
        want_k = chance_corrected(table)
    except ValueError:
        return
    assert stats.gwet is not None
    got_k = stats.gwet.compute()
    assert got_k["coefficient"].tolist() == want_k["coefficient"].tolist()
    assert got_k["subjects"].tolist() == want_k["subjects"].tolist()
    for field in ("value", "p_a", "p_e"):
        for g, w in zip(got_k[field], want_k[field], strict=True):
            assert _close(float(g), float(w)), field
    # The standard error is the square root of a sum of squares taken from co-moments: where
    # the variance cancels to rounding (a standard error near 0) it keeps about 8 digits.
    for field, near_zero in (("se", 1e-7), ("ci_low", 1e-5), ("ci_high", 1e-5)):
        for g, w in zip(got_k[field], want_k[field], strict=True):
            assert math.isclose(g, w, rel_tol=1e-9, abs_tol=near_zero), field


@settings(max_examples=30, deadline=None)
@given(long_frames(complete=True))
def test_kappa_family_matches_the_in_memory_engine(drawn) -> None:
    frame, cuts, kind = drawn
    table = CodingTable.from_dataframe(frame)
    with dask.config.set(scheduler="synchronous"):
        stats = dask_stats(_dask_frame(frame, cuts, kind), ("kappa",))
    assert stats.kappa is not None
    got = stats.kappa.compute()
    for name, fn in (("observed_agreement", observed_agreement), ("bennett_s", bennett_s),
                     ("scott_pi", scott_pi), ("cohen_kappa", cohen_kappa)):
        assert _close(got[name], fn(table)), name


def test_incomplete_data_are_refused_by_the_kappa_family() -> None:
    frame = pd.DataFrame({"coder": ["A", "B", "A"], "unit": [1, 1, 2], "value": [1, 1, 2]})
    with dask.config.set(scheduler="synchronous"):
        stats = dask_stats(dd.from_pandas(frame, npartitions=2), ("kappa",))
    with pytest.raises(InputError, match="complete data"):
        stats.kappa.compute()


def test_a_cell_given_twice_in_two_partitions_is_refused() -> None:
    frame = pd.DataFrame({"coder": ["A", "B", "C", "A"], "unit": [1, 1, 2, 1],
                          "value": [1, 2, 1, 3]})
    with dask.config.set(scheduler="synchronous"), pytest.raises(InputError, match="twice"):
        dask_stats(dd.from_pandas(frame, npartitions=2, sort=False))


def test_list_values_and_missing_columns_are_refused(tmp_path: Path) -> None:
    lists = pd.DataFrame({"coder": ["A", "B"], "unit": [1, 1], "value": [["x"], ["y"]]})
    lists.to_parquet(tmp_path / "lists.parquet")  # a Parquet list column
    with dask.config.set(scheduler="synchronous"), pytest.raises(InputError, match="lists"):
        dask_stats(dd.read_parquet(tmp_path / "lists.parquet"))
    with pytest.raises(InputError, match="columns"):
        dask_stats(dd.from_pandas(lists.rename(columns={"unit": "item"}), npartitions=1))


def test_label_sets_split_from_text_match_the_in_memory_engine() -> None:
    frame = pd.DataFrame({"coder": list("ABABAB"), "unit": [1, 1, 2, 2, 3, 3],
                          "labels": ["x;y", "x", "", "z", "y;x", "x;y"]})
    sets = frame.assign(labels=[frozenset(t.split(";")) if t else frozenset()
                                for t in frame["labels"]])
    want = alpha(CodingTable.from_dataframe(sets), "masi")
    with dask.config.set(scheduler="synchronous"):
        got = dask_stats(dd.from_pandas(frame, npartitions=3, sort=False), sep=";")
    assert _close(got.alphas(["masi"])[0].alpha, want.alpha)


# -- a LocalCluster of two processes, on Parquet ---------------------------------------------

@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed", reason="the cluster tests need "
                                      "dask[distributed]")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        yield c


def _write_parts(folder: Path, seed: int = 3) -> pd.DataFrame:
    """Unsorted codings (string units, 4 coders, categorical values) in 5 Parquet parts."""
    rng = np.random.default_rng(seed)
    rows = [(f"c{c}", f"u{u}", f"v{(u + rng.integers(0, 2) * c) % 4}")
            for u in range(300) for c in range(4) if rng.random() < 0.85]
    frame = pd.DataFrame(rows, columns=["coder", "unit", "value"])
    frame = frame.iloc[rng.permutation(len(frame))].reset_index(drop=True)
    folder.mkdir()
    for k, part in enumerate(np.array_split(np.arange(len(frame)), 5)):
        chunk = frame.iloc[part].reset_index(drop=True)
        chunk.assign(value=chunk["value"].astype("category")).to_parquet(
            folder / f"part-{k}.parquet", index=False)
    return frame


@pytest.mark.cluster
def test_a_local_cluster_gives_the_in_memory_values(tmp_path: Path, client) -> None:
    frame = _write_parts(tmp_path / "codings")
    table = CodingTable.from_dataframe(frame)
    stats = dask_stats(dd.read_parquet(str(tmp_path / "codings")), ("alpha", "gwet"))
    got, want = stats.alphas(["nominal"])[0], alpha(table, "nominal")
    assert (got.n, got.units, got.coders) == (want.n, want.units, want.coders)
    assert _close(got.alpha, want.alpha) and _close(got.D_e, want.D_e)
    kappas, reference = stats.gwet.compute(), chance_corrected(table)
    assert np.allclose(kappas["value"], reference["value"], rtol=1e-9)
    assert np.allclose(kappas["se"], reference["se"], rtol=1e-9)


@pytest.mark.cluster
def test_the_command_line_on_a_cluster_gives_the_in_memory_values(tmp_path: Path, client,
                                                                  cli) -> None:
    _write_parts(tmp_path / "codings")
    folder = str(tmp_path / "codings")
    args = ("table", folder, "--scalar", "--distance", "nominal", "--metrics", "alpha,fleiss,gwet",
            "-f", "json")
    code, memory, err = cli(*args)
    assert code == 0, err
    code, distributed, err = cli(*args, "--dask", client.scheduler.address)
    assert code == 0, err
    mem, dist = json.loads(memory)["results"], json.loads(distributed)["results"]
    assert len(mem) == len(dist) == 3
    for a, b in zip(mem, dist, strict=True):
        for field in ("alpha", "value", "se"):
            if field in a:
                assert math.isclose(a[field], b[field], rel_tol=1e-9), field


@pytest.mark.cluster
def test_a_cell_given_twice_is_an_input_error_naming_the_file(tmp_path: Path, client,
                                                              cli) -> None:
    folder = tmp_path / "twice"
    folder.mkdir()
    pd.DataFrame({"coder": ["A", "B"], "unit": [1, 1], "value": [1, 2]}).to_parquet(
        folder / "a.parquet", index=False)
    pd.DataFrame({"coder": ["A", "B"], "unit": [2, 1], "value": [1, 3]}).to_parquet(
        folder / "b.parquet", index=False)  # B codes unit 1 again, in another part
    code, _, err = cli("table", str(folder), "--scalar", "--distance", "nominal", "--dask",
                       client.scheduler.address)
    assert code == 1 and err.startswith(f"{folder}: coder 'B' coded unit 1 twice"), err


@pytest.mark.cluster
def test_dask_without_an_address_starts_and_closes_a_local_cluster(tmp_path: Path,
                                                                    cli) -> None:
    frame = pd.DataFrame({"coder": list("ABAB"), "unit": [1, 1, 2, 2], "value": [1, 1, 2, 1]})
    frame.to_parquet(tmp_path / "codings.parquet", index=False)
    code, out, err = cli("table", str(tmp_path / "codings.parquet"), "--scalar", "--distance",
                         "nominal", "--dask", "--jobs", "2", "-f", "json")
    assert code == 0, err
    # units (1, 1) and (2, 1): D_o = 2/4; 6 of the 12 ordered pairs of 1, 1, 2, 1 differ
    result = json.loads(out)["results"][0]
    assert result["alpha"] == pytest.approx(1 - (2 / 4) / (6 / 12))
