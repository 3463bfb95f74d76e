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
                                                      "linear"), ("--engine", "classes")):
        code, _, err = cli("table", str(tmp_path / "codings.parquet"), "--scalar",
                           "--distance", "nominal", "--dask", *extra)
        assert code == 2 and "--dask" in err, (extra, err)
    frame.assign(value=frame["value"].astype(str)).to_parquet(tmp_path / "text.parquet")
    code, _, err = cli("table", str(tmp_path / "text.parquet"), "--distance", "nominal",
                       "--metrics", "fleiss", "--dask")
    assert code == 1 and "with --scalar" in err, err  # the data (label sets) cannot take it


# -- a directory of parts: every part checked, by name ----------------------------------------

def _one_line_error(code: int, err: str, start: str, *words: str) -> None:
    assert code == 1, err
    assert err.count("\n") == 1 and err.startswith(start), err
    assert "Traceback" not in err
    for word in words:
        assert word in err, err


def _parts(folder: Path, *frames: pd.DataFrame) -> Path:
    folder.mkdir()
    for k, frame in enumerate(frames):
        frame.to_parquet(folder / f"part-{k}.parquet", index=False)
    return folder


def test_a_corrupt_part_is_named(tmp_path: Path, cli) -> None:
    frame = _codings()
    folder = _parts(tmp_path / "parts", frame.iloc[:50], frame.iloc[50:])
    raw = (folder / "part-1.parquet").read_bytes()
    (folder / "part-1.parquet").write_bytes(raw[:len(raw) // 2] + raw[-8:])  # footer cut
    code, _, err = cli("table", str(folder), "--scalar", "--distance", "nominal")
    _one_line_error(code, err, f"{folder / 'part-1.parquet'}: not a readable Parquet file",
                    "replace it, or remove it")
    (folder / "notes.txt").write_text("not codings\n")  # any other file is a part too
    (folder / "part-1.parquet").write_bytes(raw)
    code, _, err = cli("table", str(folder), "--scalar", "--distance", "nominal")
    _one_line_error(code, err, f"{folder / 'notes.txt'}: not a readable Parquet file")


@pytest.mark.parametrize(("second", "words"), [
    (lambda f: f.rename(columns={"value": "label"}), ("'value' is missing", "'label' is extra")),
    (lambda f: f.assign(note="x"), ("'note' is extra",)),
    (lambda f: f.assign(unit=f["unit"].str[1:].astype(int)), ("'unit' holds number, not text",)),
])
def test_parts_whose_columns_differ_are_refused(tmp_path: Path, cli, second, words) -> None:
    """Regression: a part with another value column was read as missing cells (exit 0)."""
    frame = _codings()
    folder = _parts(tmp_path / "parts", frame.iloc[:60], second(frame.iloc[60:]))
    code, _, err = cli("table", str(folder), "--scalar", "--distance", "nominal")
    _one_line_error(code, err, f"{folder / 'part-1.parquet'}: the columns differ from those of "
                    f"the first part {folder / 'part-0.parquet'}", *words)


def test_a_null_document_is_read_as_the_csv_reads_an_empty_one(tmp_path: Path, cli) -> None:
    """Regression: rows with a null document were dropped (alpha 1 where the CSV gives 0.4444:
    d1 agrees, the document '' does not)."""
    frame = pd.DataFrame({"document": ["d1", "d1", "d1", "d1", None, None],
                          "coder": list("ABABAB"), "unit": [1, 1, 2, 2, 3, 3],
                          "value": ["x", "x", "y", "y", "x", "y"]})
    frame.to_csv(tmp_path / "codings.csv", index=False)
    frame.to_parquet(tmp_path / "codings.parquet", index=False)
    common = ("--scalar", "--distance", "nominal", "-f", "json")
    code, csv_out, err = cli("table", str(tmp_path / "codings.csv"), *common)
    assert code == 0, err
    code, out, err = cli("table", str(tmp_path / "codings.parquet"), *common)
    assert code == 0, err
    rows = {r["document"]: r["alpha"] for r in json.loads(out)["results"]}
    assert rows == {r["document"]: r["alpha"] for r in json.loads(csv_out)["results"]}
    # d1 agrees; '' has one unit x/y; pooled (None): D_o = 2/6, D_e = (36 - 9 - 9)/30 = 0.6
    assert rows[""] == 0 and rows[None] == pytest.approx(1 - (2 / 6) / 0.6)
    kinds = [(w["kind"], w["count"]) for w in json.loads(out)["warnings"]]
    assert ("converted", 2) in kinds
    code, _, err = cli("table", str(tmp_path / "codings.parquet"), *common, "--strict")
    _one_line_error(code, err, f"{tmp_path / 'codings.parquet'}: a null document")


def test_null_values_are_missing_cells_with_a_note(tmp_path: Path, cli) -> None:
    frame = pd.DataFrame({"coder": list("ABCABC"), "unit": [1, 1, 1, 2, 2, 2],
                          "value": [1.0, 1.0, None, 2.0, 1.0, None]})
    frame.to_parquet(tmp_path / "codings.parquet", index=False)
    code, out, err = cli("table", str(tmp_path / "codings.parquet"), "--scalar", "--distance",
                         "nominal", "-f", "json")
    assert code == 0, err
    result = json.loads(out)
    assert result["results"][0]["n"] == 4
    assert [(w["kind"], w["count"]) for w in result["warnings"]] == [("note", 2)]


def test_extra_columns_and_the_pandas_index(tmp_path: Path, cli) -> None:
    frame = _codings().assign(annotator_id=7)
    frame.iloc[5:].to_parquet(tmp_path / "codings.parquet")  # keeps its index as a column
    code, out, err = cli("table", str(tmp_path / "codings.parquet"), "--scalar",
                         "--distance", "nominal", "-f", "json")
    assert code == 0, err
    warnings = json.loads(out)["warnings"]
    assert [w["kind"] for w in warnings] == ["ignored"]
    assert "'annotator_id'" in warnings[0]["message"] and "index" not in warnings[0]["message"]


def test_hive_partitions_give_the_documents(tmp_path: Path, cli) -> None:
    frame = _codings().assign(document=lambda f: np.where(f["unit"] < "u2", "d1", "d2"))
    frame.to_csv(tmp_path / "codings.csv", index=False)
    frame.to_parquet(tmp_path / "hive", partition_cols=["document"], index=False)
    common = ("--scalar", "--distance", "nominal,interval", "-f", "json")
    code, csv_out, _ = cli("table", str(tmp_path / "codings.csv"), *common)
    code2, out, err = cli("table", str(tmp_path / "hive"), *common)
    assert code == code2 == 0, err
    got = {(r["document"], r["distance"]): r["alpha"] for r in json.loads(out)["results"]}
    want = {(r["document"], r["distance"]): r["alpha"] for r in json.loads(csv_out)["results"]}
    assert len(got) == 6 and got == pytest.approx(want)


def test_a_coder_twice_across_parts_is_named_by_part_and_row(tmp_path: Path, cli) -> None:
    first = pd.DataFrame({"coder": ["A", "B", "A"], "unit": [1, 1, 2], "value": [1, 1, 2]})
    second = pd.DataFrame({"coder": ["B", "A"], "unit": [2, 1], "value": [2, 3]})
    folder = _parts(tmp_path / "parts", first, second)
    code, _, err = cli("table", str(folder), "--scalar", "--distance", "nominal")
    _one_line_error(code, err, f"{folder / 'part-1.parquet'}: row 2: coder 'A' coded unit 1 "
                    f"twice (first at row 1 of {folder / 'part-0.parquet'})")


@pytest.mark.parametrize(("make", "options", "start", "words"), [
    (lambda d: d.mkdir(), (), "", ("no Parquet file",)),
    (lambda d: (d.mkdir(), (d / "_SUCCESS").write_text("")), (), "", ("no Parquet file",)),
    (lambda d: (d.mkdir(), pd.DataFrame({"coder": ["A", "B"], "unit": [1, 1],
                                         "labels": [["x"], ["y"]]}).to_parquet(
        d / "a.parquet")), (), "", ("holds lists", "--sep")),
    (lambda d: (d.mkdir(), pd.DataFrame({"coder": ["A", "B"], "unit": [1, 1],
                                         "value": [True, False]}).to_parquet(
        d / "a.parquet")), (), "", ("holds booleans", "--scalar")),
])
def test_what_cannot_be_read_is_one_line(tmp_path: Path, cli, make, options, start,
                                        words) -> None:
    folder = tmp_path / "codings.parquet"
    make(folder)
    code, _, err = cli("table", str(folder), "--input-format", "parquet", *options)
    _one_line_error(code, err, f"{folder}:{start}", *words)


def test_a_url_is_read_through_fsspec_and_its_parts_named_by_url(tmp_path: Path, cli) -> None:
    pytest.importorskip("fsspec", reason="URLs are read with fsspec (the dask extra)")
    frame = _codings()
    folder = _parts(tmp_path / "parts", frame.iloc[:50], frame.iloc[50:])
    common = ("--input-format", "parquet", "--scalar", "--distance", "nominal", "-f", "json")
    code, local, err = cli("table", str(folder), *common)
    code2, remote, err2 = cli("table", folder.as_uri(), *common)
    assert code == code2 == 0, err + err2
    assert _results(remote) == _results(local)
    (folder / "part-1.parquet").write_bytes(b"PAR1 not really")
    code, _, err = cli("table", folder.as_uri(), *common)
    _one_line_error(code, err, f"{folder.as_uri()}/part-1.parquet: not a readable Parquet")


def test_sep_none_reads_each_text_as_one_label(tmp_path) -> None:
    """--sep none: a text value is one label, as in the CSV (it was split at the word
    "none")."""
    pytest.importorskip("pyarrow")
    import pandas as pd

    from clusteragree.labels.parquet import read_parquet_table
    path = tmp_path / "c.parquet"
    pd.DataFrame({"coder": ["a", "b", "a", "b"], "unit": ["u1", "u1", "u2", "u2"],
                  "labels": ["none of them", "a;b", "a;b", "a;b"]}).to_parquet(path)
    table = read_parquet_table(str(path), sep="none")
    assert sorted(table.tables[None].records()) == [
        ("a", "u1", frozenset({"none of them"})), ("a", "u2", frozenset({"a;b"})),
        ("b", "u1", frozenset({"a;b"})), ("b", "u2", frozenset({"a;b"}))]
