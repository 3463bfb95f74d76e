"""``clusteragree table`` on Parquet: the same values as the long CSV, the same errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("pyarrow", reason="Parquet is read with pyarrow (the parquet extra)")

from clusteragree.labels.parquet import read_parquet_table


def _codings(seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = [(f"c{c}", f"u{u}", int(rng.integers(1, 5)))
            for u in range(40) for c in range(3) if rng.random() < 0.8]
    return pd.DataFrame(rows, columns=["coder", "unit", "value"])


def _results(out: str) -> dict[str, float]:
    return {r["distance"]: r["alpha"] for r in json.loads(out)["results"]}


def test_a_file_and_a_directory_give_the_csv_values(tmp_path: Path, cli) -> None:
    frame = _codings()
    frame.to_csv(tmp_path / "codings.csv", index=False)
    frame.to_parquet(tmp_path / "codings.parquet", index=False)
    (tmp_path / "parts").mkdir()
    for k, rows in enumerate(np.array_split(np.arange(len(frame)), 3)):
        frame.iloc[rows].to_parquet(tmp_path / "parts" / f"{k}.parquet", index=False)
    common = ("--scalar", "--distance", "nominal,interval", "-f", "json")
    code, csv_out, err = cli("table", str(tmp_path / "codings.csv"), *common)
    assert code == 0, err
    for path in ("codings.parquet", "parts"):
        code, out, err = cli("table", str(tmp_path / path), *common)
        assert code == 0, err
        assert _results(out) == pytest.approx(_results(csv_out))


def test_label_sets_are_split_as_in_the_csv(tmp_path: Path, cli) -> None:
    frame = pd.DataFrame({"coder": list("ABABAB"), "unit": list("112233"),
                          "labels": ["x;y", "x", "", "z", "y;x", "x;y"]})
    frame.to_csv(tmp_path / "sets.csv", index=False)
    frame.to_parquet(tmp_path / "sets.data", index=False)  # named anything: --input-format
    code, csv_out, _ = cli("table", str(tmp_path / "sets.csv"), "--distance", "masi",
                           "-f", "json")
    code2, out, err = cli("table", str(tmp_path / "sets.data"), "--input-format", "parquet",
                          "--distance", "masi", "-f", "json")
    assert code == code2 == 0, err
    assert _results(out) == pytest.approx(_results(csv_out))


@pytest.mark.parametrize(("frame", "options", "message"), [
    (pd.DataFrame({"coder": ["A"], "item": [1], "value": [1]}), ("--scalar",), "expected coder"),
    (pd.DataFrame({"coder": ["A", "B"], "unit": [1, 1], "value": [1, 2]}), (),
     "holds numbers"),
    (pd.DataFrame({"coder": ["A", "B"], "unit": [1, 1], "value": ["x", "y"]}),
     ("--scalar", "--distance", "interval"), "not numbers"),
    (pd.DataFrame({"coder": ["A", "A", "B"], "unit": [1, 1, 1], "value": [1, 2, 1]}),
     ("--scalar", "--distance", "nominal"), "twice"),
    (pd.DataFrame({"coder": ["A", None], "unit": [1, 1], "value": [1, 2]}),
     ("--scalar", "--distance", "nominal"), "row 2: empty coder"),
    (pd.DataFrame({"coder": ["A", "B"], "unit": [1, 2], "value": [1, 2]}),
     ("--scalar", "--distance", "nominal"), "nothing to compare"),
])
def test_bad_parquet_is_an_input_error_naming_the_file(tmp_path: Path, cli, frame, options,
                                                       message) -> None:
    path = tmp_path / "bad.parquet"
    frame.to_parquet(path, index=False)
    code, _, err = cli("table", str(path), *options)
    assert code == 1 and err.startswith(f"{path}:") and message in err, err
    assert "Traceback" not in err


def test_an_unreadable_file_is_an_input_error(tmp_path: Path, cli) -> None:
    path = tmp_path / "broken.parquet"
    path.write_bytes(b"PAR1 not really")
    code, _, err = cli("table", str(path), "--scalar", "--distance", "nominal")
    assert code == 1 and err.startswith(f"{path}:") and "not a readable Parquet" in err, err


def test_documents_give_one_table_each(tmp_path: Path) -> None:
    frame = _codings().assign(document=lambda f: np.where(f["unit"] < "u2", "d1", "d2"))
    frame.to_parquet(tmp_path / "docs.parquet", index=False)
    long = read_parquet_table(str(tmp_path / "docs.parquet"), scalar=True)
    assert sorted(long.tables) == ["d1", "d2"]
    assert sum(t.present.sum() for t in long.tables.values()) == len(frame) == long.rows


def test_dask_refuses_csv_and_what_it_does_not_reduce(tmp_path: Path, cli) -> None:
    frame = _codings()
    frame.to_csv(tmp_path / "codings.csv", index=False)
    frame.to_parquet(tmp_path / "codings.parquet", index=False)
    code, _, err = cli("table", str(tmp_path / "codings.csv"), "--scalar", "--dask")
    assert code == 2 and "--dask reads Parquet" in err
    for extra in (("--pairwise",), ("--ci", "0.95"), ("--metrics", "gwet", "--weights",
                                                      "linear")):
        code, _, err = cli("table", str(tmp_path / "codings.parquet"), "--scalar",
                           "--distance", "nominal", "--dask", *extra)
        assert code == 2 and "--dask" in err, (extra, err)
