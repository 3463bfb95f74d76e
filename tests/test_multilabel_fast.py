"""The column path of the multi-label reader (``read_multilabel(fast=True)``) against the
record-by-record path (``fast=False``): the same data field by field (types and order
included), the same notices and the same errors, on random files and on the fixtures."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusteragree.errors import InputError, Ledger
from clusteragree.labels import read_multilabel
from clusteragree.labels.reader_fast import csv_columns, json_columns, multilabel_of_columns

FIXTURES = Path(__file__).resolve().parent.parent / "corpora_fixtures"
SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])

ITEMS = ["m1", "m2", " m3", "m3", "4", ""]
ANNOTATORS = ["A", "B", "a", "C\t"]
# labels the record path keeps, and ones it refuses or splits: case and space variants, the
# separator of label sets, empty labels, a label with spaces around it
LABELS = ["x", "y", "z", "X", " y", "x y", "x  y", "a;b", "a|b", "", " ", ";", "é"]
SEPS = [None, ";", "none", "|"]


def outcome(path: Path, sep: str | None, fast: bool) -> str:
    """Everything read: the fields of the data (or the error) and the notices, as text that
    tells types and order apart."""
    with Ledger() as ledger:
        try:
            data = read_multilabel(path, sep=sep, fast=fast)
            got: Any = ("data", data.items, data.annotators, data.categories,
                        list(data.cells.items()), data.ranked, data.weights)
        except InputError as err:
            got = ("error", err.message, err.path, err.line)
    notices = [(n.kind, n.message, n.file, n.line, n.count) for n in ledger.notices]
    return repr((got, notices))


def same_either_way(path: Path, sep: str | None) -> str:
    fast, slow = outcome(path, sep, True), outcome(path, sep, False)
    assert fast == slow
    return fast


records = st.lists(st.tuples(st.sampled_from(ITEMS), st.sampled_from(ANNOTATORS),
                             st.sampled_from(LABELS)), min_size=0, max_size=14)


@SETTINGS
@given(records, st.sampled_from(SEPS), st.sampled_from(["", "rank", "weight"]),
       st.sampled_from(["\n", "\r\n"]), st.booleans(), st.booleans(), st.booleans())
def test_csv_fast_and_record_paths_agree(tmp_path: Path, rows: list[tuple[str, str, str]],
                                         sep: str | None, extra: str, end: str, last: bool,
                                         blank: bool, quoted: bool) -> None:
    header = "item,annotator,label" + (f",{extra}" if extra else "")
    lines = [header]
    for k, (item, annotator, label) in enumerate(rows):
        fields = [item, annotator, f'"{label}"' if quoted and k == 0 else label]
        if extra == "rank":
            fields.append(["1", "2", ""][k % 3])
        elif extra == "weight":
            fields.append("1")
        lines.append(",".join(fields))
    if blank and len(lines) > 2:
        lines.insert(2, "")
    path = tmp_path / "labels.csv"
    path.write_bytes((end.join(lines) + (end if last else "")).encode("utf-8"))
    same_either_way(path, sep)


json_ids = st.one_of(st.sampled_from(ITEMS), st.integers(0, 3), st.sampled_from([True, 1.5]))
json_labels = st.one_of(st.sampled_from(LABELS), st.sampled_from([None, 1, ["x"]]))


@SETTINGS
@given(st.lists(st.fixed_dictionaries(
    {"item": json_ids, "annotator": st.sampled_from(ANNOTATORS), "label": json_labels},
    optional={"rank": st.sampled_from([1, 2, None]), "note": st.just("n")}),
    min_size=0, max_size=14), st.sampled_from(SEPS))
def test_json_fast_and_record_paths_agree(tmp_path: Path, objects: list[dict[str, Any]],
                                          sep: str | None) -> None:
    path = tmp_path / "labels.json"
    path.write_text(json.dumps(objects), encoding="utf-8")
    same_either_way(path, sep)


@SETTINGS
@given(st.lists(st.tuples(st.sampled_from(["m1", "m2", "m3", "m4"]),
                          st.sampled_from(["A", "B", "C"]),
                          st.sampled_from(["x", "y", "z", "w"])), min_size=1, max_size=20,
                unique=True), st.sampled_from(SEPS))
def test_plain_files_take_the_column_path(tmp_path: Path, rows: list[tuple[str, str, str]],
                                          sep: str | None) -> None:
    """Files of distinct plain rows are read by columns (the comparison above would hold
    trivially if they were not), with the same result."""
    text = "item,annotator,label\n" + "".join(f"{i},{a},{lab}\n" for i, a, lab in rows)
    objects = [{"item": i, "annotator": a, "label": lab} for i, a, lab in rows]
    from_csv = csv_columns(text)
    assert from_csv is not None
    for columns in (from_csv[0], json_columns(objects)):
        assert columns is not None
        assert multilabel_of_columns(columns, sep) is not None
    (tmp_path / "labels.csv").write_text(text, encoding="utf-8")
    (tmp_path / "labels.json").write_text(json.dumps(objects), encoding="utf-8")
    for name in ("labels.csv", "labels.json"):
        got = same_either_way(tmp_path / name, sep)
        if len({a for _, a, _ in rows}) >= 2:
            assert got.startswith("(('data'")


def fixture_variants() -> dict[str, str]:
    """The multi-label fixtures as they are and as plain item,annotator,label files (the
    ranked one without its ranks, the codings one a row per label), in CSV and JSON."""
    ranked = (FIXTURES / "multilabel_ranked.csv").read_text(encoding="utf-8")
    codings = (FIXTURES / "multilabel_example.csv").read_text(encoding="utf-8")
    unranked = [row[:3] for row in csv.reader(io.StringIO(ranked))][1:]
    split = [(unit, coder, label) for coder, unit, labels in
             list(csv.reader(io.StringIO(codings)))[1:] for label in labels.split(";")
             if label]
    out = {"ranked.csv": ranked, "codings.csv": codings}
    for name, rows in (("unranked", unranked), ("split", split)):
        out[f"{name}.csv"] = "item,annotator,label\n" + "".join(
            ",".join(row) + "\n" for row in rows)
        out[f"{name}.json"] = json.dumps([{"item": i, "annotator": a, "label": lab}
                                          for i, a, lab in rows])
    out["ranked.json"] = json.dumps([{"item": i, "annotator": a, "label": lab,
                                      "rank": int(r)} for i, a, lab, r in
                                     list(csv.reader(io.StringIO(ranked)))[1:]])
    return out


@pytest.mark.parametrize("name", sorted(fixture_variants()))
@pytest.mark.parametrize("sep", SEPS)
def test_fixtures_read_the_same_either_way(tmp_path: Path, name: str, sep: str | None
                                           ) -> None:
    path = tmp_path / name
    path.write_text(fixture_variants()[name], encoding="utf-8")
    got = same_either_way(path, sep)
    if name.startswith(("unranked", "split")):
        assert got.startswith("(('data'")


def test_column_path_on_a_plain_fixture_matches_its_rows() -> None:
    """The fields of the ranked fixture without its ranks, written out by hand from the file
    (cells in order of their first row, labels sorted)."""
    got = csv_columns(fixture_variants()["unranked.csv"])
    assert got is not None
    data = multilabel_of_columns(got[0], None)
    assert data is not None
    assert list(data.cells.items()) == [
        (("A", "m1"), ("answer", "question")), (("B", "m1"), ("question",)),
        (("A", "m2"), ("social",)), (("B", "m2"), ("planning", "social")),
        (("A", "m3"), ("planning",)), (("B", "m3"), ("answer",)),
        (("A", "m4"), ("answer",)), (("B", "m4"), ("answer",))]
    assert data.items == ("m1", "m2", "m3", "m4") and data.annotators == ("A", "B")
    assert data.categories == ("answer", "planning", "question", "social")
    assert not data.ranked and data.weights is None


# --- clusteragree validate: the checks on the reader's codes against the scan of the rows


def incidents(paths: list[Path], sep: str | None, vocabulary: list[str] | None,
              by_columns: bool, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every incident of validating ``paths`` at level 3, the files read by columns (the
    checks then run on the reader's codes) or record by record (the rows then scanned)."""
    from clusteragree.labels import reader
    from clusteragree.labels.checks import validate_inputs

    monkeypatch.setattr(reader, "FAST_MIN_CHARS", 0 if by_columns else 1 << 62)
    monkeypatch.setattr(reader, "json_columns",
                        json_columns if by_columns else lambda objects: None)
    fmt = "multilabel-json" if paths[0].suffix == ".json" else "multilabel-csv"
    with Ledger():
        return [repr(i) for i in validate_inputs(
            [str(p) for p in paths], fmt, level=3, encoding=None, names=None,
            options={"sep": sep, "vocabulary": vocabulary})]


plain_rows = st.lists(st.tuples(st.sampled_from(["m1", "m2", "m3", "m4", "m5"]),
                                st.sampled_from(["A", "B", "C", "3"]),
                                st.sampled_from(["x", "y", "z", "X", "w w", ""])),
                      min_size=0, max_size=14)


@SETTINGS
@given(st.lists(plain_rows, min_size=1, max_size=2), st.sampled_from(SEPS),
       st.sampled_from([None, ["x", "y"], []]), st.booleans())
def test_validate_gives_the_same_incidents_either_way(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: list[list[tuple[str, ...]]],
        sep: str | None, vocabulary: list[str] | None, as_json: bool) -> None:
    paths = []
    for k, rows in enumerate(files):
        path = tmp_path / f"labels{k}.{'json' if as_json else 'csv'}"
        if as_json:  # (annotator "3" as a number)
            path.write_text(json.dumps([{"item": i, "annotator": int(a) if a.isdigit() else a,
                                         "label": lab} for i, a, lab in rows]),
                            encoding="utf-8")
        else:
            path.write_text("item,annotator,label\n"
                            + "".join(",".join(r) + "\n" for r in rows), encoding="utf-8")
        paths.append(path)
    assert (incidents(paths, sep, vocabulary, True, monkeypatch)
            == incidents(paths, sep, vocabulary, False, monkeypatch))


@pytest.mark.parametrize("vocabulary", [None, ["answer", "social"]])
@pytest.mark.parametrize("suffix", ["csv", "json"])
def test_validate_a_plain_fixture_either_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             vocabulary: list[str] | None, suffix: str) -> None:
    path = tmp_path / f"unranked.{suffix}"
    if suffix == "csv":
        path.write_text(fixture_variants()["unranked.csv"] + "m5,A,answer\nm5,A,social\n",
                        encoding="utf-8")
    else:
        objects = json.loads(fixture_variants()["unranked.json"])
        path.write_text(json.dumps(objects + [{"item": "m5", "annotator": "A", "label": lab}
                                              for lab in ("answer", "social")]),
                        encoding="utf-8")
    from clusteragree.labels import checks

    scans = {k: getattr(checks, k) for k in ("_scan_multilabel_csv", "_scan_multilabel_json")}

    def no_scan(*args: Any) -> Any:
        raise AssertionError("a file read by columns is scanned again")

    for k in scans:
        monkeypatch.setattr(checks, k, no_scan)
    got = incidents([path], None, vocabulary, True, monkeypatch)
    for k, scan in scans.items():
        monkeypatch.setattr(checks, k, scan)
    assert got == incidents([path], None, vocabulary, False, monkeypatch)
    # m5 has two labels, both of A: one coder (not two rows); planning and question outside
    assert any("labels-unit-one-coder" in i and "'m5'" in i for i in got)
    assert sum("labels-vocabulary" in i for i in got) == (2 if vocabulary else 0)
