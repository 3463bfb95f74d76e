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
from clusteragree.core.dask_cluster import _one_line_warnings, _report_logs, quiet_logs  # noqa: E402
from clusteragree.core.diagnostics import combine  # noqa: E402
from clusteragree.core.distributed import _hash, _inside, _others, dask_stats  # noqa: E402
from clusteragree.core.frames import alpha_report  # noqa: E402
from clusteragree.core.gwet import chance_corrected  # noqa: E402
from clusteragree.core.kappa import bennett_s, cohen_kappa, observed_agreement, scott_pi  # noqa: E402
from clusteragree.errors import InputError, Ledger  # noqa: E402

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
    with dask.config.set(scheduler="synchronous"), Ledger() as ledger:
        stats = dask_stats(_dask_frame(frame, cuts, kind), ("alpha", "gwet"), buckets=buckets)
    missing = int(frame["value"].isna().sum())
    assert [(n.kind, n.count) for n in ledger.notices] == ([("note", missing)] if missing else [])
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


# -- documents: units are (document, unit) pairs ---------------------------------------------

@st.composite
def documented_frames(draw: st.DrawFn) -> tuple[pd.DataFrame, list[int], str]:
    """A long frame with a document column (the same unit names in several documents, now
    and then a null document), unsorted or sorted by document, and where to cut it."""
    kind = draw(st.sampled_from(KINDS))
    n_docs = draw(st.integers(1, 3))
    docs: list = [f"d{k}" for k in range(n_docs)] if draw(st.booleans()) else list(range(n_docs))
    if draw(st.booleans()):
        docs.append(None)  # read as the document ''
    n_coders = draw(st.integers(2, 4))
    rows = []
    for doc in docs:
        for u in range(draw(st.integers(1, 5))):
            for c in range(n_coders):
                if draw(st.booleans()) or draw(st.booleans()):
                    rows.append((doc, f"c{c}", u if kind != "str" else f"u{u}",
                                 draw(st.integers(0, 3))))
    if not rows:
        rows = [(docs[0], "c0", 0, 0)]
    frame = pd.DataFrame(rows, columns=["document", "coder", "unit", "code"])
    if draw(st.booleans()):  # unsorted
        order = draw(st.permutations(range(len(frame))))
        frame = frame.iloc[list(order)].reset_index(drop=True)
    frame["value"] = _values(frame.pop("code").tolist(), kind)
    cuts = sorted(draw(st.lists(st.integers(0, len(frame)), max_size=5)))
    return frame, cuts, kind


def _documents(frame: pd.DataFrame) -> dict:
    """The in-memory tables, one per document in order of first appearance (a null document
    is the document '', as the CSV reads an empty field)."""
    docs = frame["document"].astype(object).where(frame["document"].notna(), "")
    return {doc: CodingTable.from_dataframe(rows.drop(columns="document").reset_index(drop=True))
            for doc, rows in frame.assign(document=docs).groupby("document", sort=False)}


ROW_FIELDS = ("document", "distance", "n", "units", "coders")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documented_frames(), st.integers(1, 4), st.booleans())
def test_documents_match_the_in_memory_report(drawn, buckets: int, per_doc: bool) -> None:
    frame, cuts, kind = drawn
    tables = _documents(frame)
    distances = NUMERIC if kind in ("int", "float") else ("nominal",)
    with dask.config.set(scheduler="synchronous"), Ledger() as ledger:
        stats = dask_stats(_dask_frame(frame, cuts, kind), ("alpha", "gwet"), buckets=buckets,
                           document="document")
    nulls = int(frame["document"].isna().sum())
    assert [n.count for n in ledger.notices if n.kind == "converted"] == ([nulls] if nulls else [])
    assert stats.rows == len(frame)
    if not any((t.present.sum(axis=0) >= 2).any() for t in tables.values()):
        with pytest.raises(InputError, match="nothing to compare"):
            stats.report(distances)
        return
    with Ledger() as got_ledger:
        got = stats.report(distances, per_document=per_doc)
    with Ledger() as want_ledger:
        want = alpha_report(tables, distances, per_document=per_doc)
    assert got[list(ROW_FIELDS)].values.tolist() == want[list(ROW_FIELDS)].values.tolist()
    for field in ("alpha", "D_o", "D_e"):
        for g, w in zip(got[field], want[field], strict=True):
            assert _close(g, w), field
    assert [str(n) for n in got_ledger.notices] == [str(n) for n in want_ledger.notices]
    try:
        reference = chance_corrected(combine(tables))
    except ValueError:
        return
    kappas = stats.gwet.compute()
    assert kappas["subjects"].tolist() == reference["subjects"].tolist()
    for g, w in zip(kappas["value"], reference["value"], strict=True):
        assert _close(float(g), float(w))


def _key_order(key: tuple) -> tuple:
    return key


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(0, 6)), max_size=30),
       st.lists(st.tuples(st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(0, 6)),
                          st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(0, 6))),
                min_size=1, max_size=5),
       st.booleans(), st.booleans())
def test_keys_inside_other_ranges_as_tuples_compare(keys, ranges, one_level: bool,
                                                    floats: bool) -> None:
    """The vectorised range test against Python's comparison of tuples, on the merged ranges
    of other partitions (units as ints, floats or objects)."""
    ranges = [(min(a, b), max(a, b)) for a, b in ranges]
    if one_level:
        keys = [(u,) for _, u in keys]
        ranges = [((a[1],), (b[1],)) for a, b in ranges if a[1] <= b[1]] or [((0,), (0,))]
    bounds = [(lo, hi, 1) for lo, hi in ranges]
    merged = _others([*bounds, ((), (), 0)], len(bounds))
    assert merged is not None
    lows, highs = merged
    units = np.array([k[-1] for k in keys], dtype=np.float64 if floats else np.int64)
    docs = None if one_level else np.array([k[0] for k in keys], dtype=object)
    got = _inside(docs, units, merged).tolist() if keys else []
    want = [any(lo <= k <= hi for lo, hi in ranges) for k in keys]
    assert got == want
    assert all(a <= b for a, b in zip(lows, highs, strict=True))


def test_equal_keys_hash_alike_in_any_column_type() -> None:
    """A unit 1 in an int column, 1.0 in a float column, 1 or True among strings: one bucket
    (else a unit split between partitions of different types would be counted twice)."""
    ints = _hash(np.array([1, 2], dtype=np.int64))
    floats = _hash(np.array([1.0, 2.0]))
    mixed = _hash(np.array([1, "x", 2.0, True, -0.0], dtype=object))
    assert ints.tolist() == floats.tolist() == mixed[[0, 2]].tolist()
    assert mixed[3] == ints[0] and mixed[4] == _hash(np.array([0]))[0]
    text = _hash(pd.Series(["x", "y"], dtype="string").to_numpy())
    assert text[0] == mixed[1] == _hash(np.array(["x"], dtype=object))[0]


def test_the_same_unit_in_two_documents_is_two_units() -> None:
    """Unit 1 of d1 (x, x) and unit 1 of d2 (x, y) across partitions: per document alpha 1
    (D_e 0 there: undefined) and 0, pooled D_o = 2/4 and D_e = 6/12 (as one table of two
    units), so 0."""
    frame = pd.DataFrame({"document": ["d1", "d2", "d1", "d2"], "coder": list("AABB"),
                          "unit": [1, 1, 1, 1], "value": ["x", "x", "x", "y"]})
    with dask.config.set(scheduler="synchronous"):
        stats = dask_stats(dd.from_pandas(frame, npartitions=2, sort=False),
                           document="document")
    with Ledger():
        report = stats.report(["nominal"])
    assert report["document"].tolist() == ["d1", "d2", "TOTAL"]
    assert report["units"].tolist() == [1, 1, 2]
    assert math.isnan(report["alpha"].iloc[0]) and report["alpha"].iloc[1] == 0.0
    assert report["D_o"].iloc[2] == 0.5 and report["D_e"].iloc[2] == 0.5


def test_a_cell_given_twice_in_a_document_is_refused_by_name() -> None:
    frame = pd.DataFrame({"document": ["d1", "d2", "d2", "d2"], "coder": ["B", "B", "A", "B"],
                          "unit": ["u1", "u1", "u1", "u1"], "value": [1, 2, 1, 3]})
    with dask.config.set(scheduler="synchronous"), pytest.raises(InputError) as caught:
        dask_stats(dd.from_pandas(frame, npartitions=2, sort=False), document="document")
    assert str(caught.value).startswith("document 'd2': coder 'B' coded unit 'u1' twice;")


def test_an_empty_label_is_refused_as_in_memory() -> None:
    frame = pd.DataFrame({"coder": ["A", "B"], "unit": [1, 1], "labels": ["x;;y", "x"]})
    with dask.config.set(scheduler="synchronous"), pytest.raises(InputError,
                                                                match="empty label"):
        dask_stats(dd.from_pandas(frame, npartitions=1), sep=";")


def test_dask_logs_are_kept_from_stderr_and_reported(capfd) -> None:
    import logging
    with quiet_logs() as kept:
        logging.getLogger("distributed.worker").error("Compute Failed\nTraceback: ...")
        logging.getLogger("distributed.nanny").warning("Restarting worker")
        logging.getLogger("distributed.core").info("Starting")
    assert capfd.readouterr().err == ""
    with Ledger() as ledger:
        _report_logs(kept)
    assert [(n.kind, n.message) for n in ledger.notices] == [
        ("other", "dask (distributed.worker): Compute Failed"),
        ("other", "dask (distributed.nanny): Restarting worker")]
    assert logging.getLogger("distributed").propagate is True


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
    """Regression: without --jobs (every core) the local cluster was never started: exit 70,
    "'>' not supported between 'NoneType' and 'int'"."""
    frame = pd.DataFrame({"coder": list("ABAB"), "unit": [1, 1, 2, 2], "value": [1, 1, 2, 1]})
    frame.to_parquet(tmp_path / "codings.parquet", index=False)
    code, out, err = cli("table", str(tmp_path / "codings.parquet"), "--scalar", "--distance",
                         "nominal", "--dask", "-f", "json")
    assert code == 0, err
    # units (1, 1) and (2, 1): D_o = 2/4; 6 of the 12 ordered pairs of 1, 1, 2, 1 differ
    result = json.loads(out)["results"][0]
    assert result["alpha"] == pytest.approx(1 - (2 / 4) / (6 / 12))


def _documented_parts(folder: Path, seed: int = 5) -> pd.DataFrame:
    """Codings of 6 documents (unit names shared between documents, some cells missing,
    two rows with no document), shuffled and cut into 4 Parquet parts (documents and units
    split between parts); the same rows as a CSV beside the folder."""
    rng = np.random.default_rng(seed)
    rows = [(f"doc{d}", f"c{c}", f"u{u}", f"v{(u + d + rng.integers(0, 3) * c) % 4}")
            for d in range(6) for u in range(int(rng.integers(3, 15))) for c in range(3)
            if rng.random() < 0.8]
    frame = pd.DataFrame(rows, columns=["document", "coder", "unit", "value"])
    frame = frame.iloc[rng.permutation(len(frame))].reset_index(drop=True)
    frame.loc[[3, 11], "document"] = None  # their unit and coder are unique in document ''
    frame.loc[[3, 11], "unit"] = "lone"
    frame.loc[[3, 11], "coder"] = ["c0", "c1"]
    frame.to_csv(folder.with_suffix(".csv"), index=False)
    folder.mkdir()
    for k, part in enumerate(np.array_split(np.arange(len(frame)), 4)):
        frame.iloc[part].to_parquet(folder / f"part-{k}.parquet", index=False)
    return frame


def _rows(out: str) -> tuple[list, list]:
    result = json.loads(out)
    fields = ("document", "distance", "coefficient", "n", "units", "coders", "subjects")
    keys = [tuple(r.get(f) for f in fields) for r in result["results"]]
    values = [r.get("alpha", r.get("value")) for r in result["results"]]
    return keys, values


@pytest.mark.cluster
@pytest.mark.parametrize("options", [("--per-doc",), ("--no-per-doc",),
                                     ("--metrics", "alpha,fleiss,gwet,brennan_prediger")])
def test_documents_on_a_cluster_give_the_csv_values(tmp_path: Path, client, cli,
                                                    options) -> None:
    _documented_parts(tmp_path / "codings")
    common = ("--scalar", "--distance", "nominal", "-f", "json", *options)
    code, csv_out, err = cli("table", str(tmp_path / "codings.csv"), *common)
    assert code == 0, err
    code, out, err = cli("table", str(tmp_path / "codings"), *common, "--dask",
                         client.scheduler.address)
    assert code == 0, err
    (want_keys, want), (got_keys, got) = _rows(csv_out), _rows(out)
    assert got_keys == want_keys and len(got_keys) == (1 if "--no-per-doc" in options else
                                                       8 if "--per-doc" in options else 11)
    assert got == pytest.approx(want, rel=1e-9)
    notices = sorted((w["kind"], w["count"]) for w in json.loads(out)["warnings"])
    assert notices == sorted([("converted", 2), *((w["kind"], w["count"]) for w in
                                                  json.loads(csv_out)["warnings"])])


@pytest.mark.cluster
def test_bad_parts_on_a_cluster_are_named_in_one_line(tmp_path: Path, client, cli) -> None:
    frame = _write_parts(tmp_path / "codings")
    folder = tmp_path / "codings"
    common = ("table", str(folder), "--scalar", "--distance", "nominal", "--dask",
              client.scheduler.address)
    frame.iloc[:10].assign(extra=1).to_parquet(folder / "part-2.parquet", index=False)
    code, _, err = cli(*common)
    assert code == 1 and err.count("\n") == 1, err
    assert err.startswith(f"{folder / 'part-2.parquet'}: the columns differ") and "'extra'" in err
    (folder / "part-2.parquet").write_bytes(b"PAR1 not really")
    code, _, err = cli(*common)
    assert code == 1 and err.count("\n") == 1, err
    assert err.startswith(f"{folder / 'part-2.parquet'}: not a readable Parquet file"), err


@pytest.mark.cluster
def test_an_extra_column_is_reported_on_a_cluster(tmp_path: Path, client, cli) -> None:
    _codings = pd.DataFrame({"coder": list("ABAB"), "unit": [1, 1, 2, 2], "value": [1, 1, 2, 1],
                             "annotator_id": [7, 8, 7, 8]})
    _codings.to_parquet(tmp_path / "codings.parquet", index=False)
    code, out, err = cli("table", str(tmp_path / "codings.parquet"), "--scalar", "--distance",
                         "nominal", "-f", "json", "--dask", client.scheduler.address)
    assert code == 0, err
    assert [w["kind"] for w in json.loads(out)["warnings"]] == ["ignored"]


@pytest.mark.slow
@pytest.mark.cluster
def test_a_corrupt_part_on_a_local_cluster_is_one_line_on_stderr(tmp_path: Path) -> None:
    """As a user runs it (a process of its own, its workers writing to the same stderr):
    regression for dask's log lines and tracebacks on stderr, and exit 70."""
    import subprocess
    import sys
    _write_parts(tmp_path / "codings")
    bad = tmp_path / "codings" / "part-3.parquet"
    bad.write_bytes(b"PAR1 not really")
    done = subprocess.run([sys.executable, "-m", "clusteragree", "table",
                           str(tmp_path / "codings"), "--scalar", "--distance", "nominal",
                           "--dask", "--jobs", "2"], capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(f"{bad}: not a readable Parquet file"), done.stderr
    assert done.stderr.count("\n") == 1, done.stderr


def test_dask_warnings_are_one_line_and_ours_unchanged() -> None:
    import warnings

    from clusteragree.errors import notify
    with Ledger() as ledger, _one_line_warnings():
        warnings.warn("Port 8787 is already in use.\nPerhaps you already have a cluster "
                      "running?", UserWarning, stacklevel=1)
        notify("note", "kept as annotated", path="a.parquet")
    assert [str(n) for n in ledger.notices] == [
        "other: UserWarning: Port 8787 is already in use. Perhaps you already have a cluster "
        "running?", "a.parquet: note: kept as annotated"]


@pytest.mark.slow
@pytest.mark.cluster
def test_a_scheduler_that_cannot_be_reached_is_one_line(tmp_path: Path, cli,
                                                         monkeypatch) -> None:
    """Regression: an address where no scheduler listens ended in exit 70. (The client gives
    up after 2 s instead of 20: it retries until then, whatever the time.)"""
    pytest.importorskip("distributed")
    from clusteragree.core import dask_cluster

    monkeypatch.setattr(dask_cluster, "CONNECT_TIMEOUT", "2s")
    pd.DataFrame({"coder": list("ABAB"), "unit": [1, 1, 2, 2], "value": [1, 1, 2, 1]}
                 ).to_parquet(tmp_path / "codings.parquet", index=False)
    code, _, err = cli("table", str(tmp_path / "codings.parquet"), "--scalar", "--distance",
                       "nominal", "--dask", "tcp://127.0.0.1:1")
    assert code == 1 and err.count("\n") == 1, err
    assert err.startswith("clusteragree table: error: cannot start or reach the scheduler at "
                          "tcp://127.0.0.1:1"), err


def test_a_partition_of_null_values_only_adds_nothing() -> None:
    """Regression: the kappa family's statistics of rows whose values are all null were
    refused ("single values, not sets": an empty table has no kind), failing the whole run."""
    frame = pd.DataFrame({"coder": ["A", "B", "A", "B", "A", "B"], "unit": [1, 1, 2, 2, 3, 3],
                          "value": [None, None, "x", "x", "x", "y"]})
    table = CodingTable.from_dataframe(frame)
    with dask.config.set(scheduler="synchronous"), Ledger():
        stats = dask_stats(dd.from_pandas(frame, npartitions=3, sort=False), ("alpha", "gwet"))
    got, want = stats.gwet.compute(), chance_corrected(table)
    assert got["value"].tolist() == pytest.approx(want["value"].tolist(), rel=1e-12)
    assert stats.alphas(["nominal"])[0].alpha == pytest.approx(alpha(table, "nominal").alpha)
