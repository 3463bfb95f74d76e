"""validate on label tables (codings, multi-label CSV and JSON, Parquet, INCEpTION agreement
tables): one planted problem per test id, the project's real tables against counts made here,
the CLI and ``table --strict``."""

from __future__ import annotations

import csv
import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from clusteragree.cli import main
from clusteragree.incidents import TESTS
from clusteragree.labels.checks import validate_inputs

FIXTURES = Path(__file__).resolve().parents[1] / "corpora_fixtures"
CLEAN = "coder,unit,labels\nA,1,x\nB,1,x\nA,2,y\nB,2,x;y\n"


def _run(tmp_path, text, fmt="codings", name="t.csv", level=3, **options):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    found = list(validate_inputs([str(path)], fmt, level=level, encoding=None, names=None,
                                 options=options))
    return found, {i.test_id for i in found if not i.test_id.startswith("read-")}


def test_clean_tables_find_nothing(tmp_path):
    assert _run(tmp_path, CLEAN)[0] == []
    multi = "item,annotator,label\ni1,A,x\ni1,A,y\ni1,B,x\ni1,B,y\n"
    assert _run(tmp_path, multi, "multilabel-csv", "m.csv")[0] == []
    assert _run(tmp_path, CLEAN, vocabulary=["x", "y"])[0] == []


CODINGS = {
    "labels-malformed-row": CLEAN + "A,3\nB,,x\nA,4,x;;y\n",
    "labels-coded-twice": CLEAN + "A,1,y\n",
    "labels-empty-set": CLEAN + "A,3,\nB,3,x\n",
    "labels-unit-one-coder": CLEAN + "A,3,x\n",
    "labels-label-one-coder": CLEAN + "A,3,z\nB,3,x\n",
    "labels-label-variant": CLEAN.replace("B,1,x", "B,1,X"),
    "labels-coder-missing-document": "document,coder,unit,labels\nd1,A,1,x\nd1,B,1,x\n"
                                     "d2,A,1,x\nd2,B,1,x\nd3,A,1,x\nd3,C,1,x\n",
}
ALSO = {  # what one fault brings with it
    "labels-label-variant": {"labels-label-one-coder"},  # 'X' is B's alone
    "labels-coder-missing-document": set(),
}


@pytest.mark.parametrize("test_id", sorted(CODINGS))
def test_planted_in_codings(tmp_path, test_id):
    found, ids = _run(tmp_path, CODINGS[test_id])
    assert ids == {test_id} | ALSO.get(test_id, set())
    if test_id == "labels-malformed-row":  # every malformed row, where the reader stops at one
        assert [i.line for i in found if i.test_id == test_id] == [6, 7, 8]


def test_vocabulary(tmp_path):
    found, ids = _run(tmp_path, CLEAN, vocabulary=["x"])
    assert ids == {"labels-vocabulary"}
    (one,) = found
    assert (one.node, one.count, one.line) == ("y", 2, 4)


def test_multilabel_rows_mean_several_labels(tmp_path):
    text = "item,annotator,label\ni1,A,x\ni1,A,y\ni1,B,x\ni1,B,y\n"
    assert _run(tmp_path, text + "i1,A,x\n", "multilabel-csv", "m.csv")[1] == {
        "labels-coded-twice"}
    assert _run(tmp_path, text + "i1,A, \n", "multilabel-csv", "m.csv")[1] == {
        "labels-empty-label"}
    records = [{"item": "i1", "annotator": a, "label": lab} for a in "AB" for lab in "xy"]
    _, ids = _run(tmp_path, json.dumps([*records, records[0]]), "multilabel-json",
                      "m.json")
    assert ids == {"labels-coded-twice"}


def test_every_labels_test_is_planted():
    planted = set(CODINGS) | {"labels-vocabulary", "labels-empty-label"}
    assert {t for t, v in TESTS.items() if v.domain == "labels"} == planted


def test_parquet_and_agreement_tables(tmp_path):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    path = tmp_path / "c.parquet"
    pd.DataFrame({"coder": ["A", "B", "A", "A"], "unit": ["1", "1", "2", "1"],
                  "labels": ["x", "x", "y", "y"]}).to_parquet(path)
    found = list(validate_inputs([str(path)], "parquet", level=2, encoding=None, names=None,
                                 options={}))
    assert {i.test_id for i in found if i.level == 2} == {"labels-coded-twice",
                                                          "labels-unit-one-coder"}
    diff = tmp_path / "proj-diff.csv"
    diff.write_text("Type,Collection,Document,Layer,Feature,Position,Flags,ann1,ann2\r\n"
                    "SpanPosition,proj,d.txt,x.NamedEntity,value,0-3 [Joe],\"COMPLETE\",PER,"
                    "<no annotation>\r\n"
                    "SpanPosition,proj,d.txt,x.NamedEntity,value,4-7 [Ann],\"COMPLETE\",PER,"
                    "per\r\n", encoding="utf-8")
    found = list(validate_inputs([str(diff)], "inception-agreement", level=3, encoding=None,
                                 names=None, options={"vocabulary": ["PER"]}))
    ids = Counter(i.test_id for i in found)
    assert ids["labels-vocabulary"] == 1 and ids["labels-unit-one-coder"] == 1
    assert ids["labels-label-variant"] == 1


# --- the project's real tables, against counts made here with the csv module


def _expected(path):
    """Units of one coder, empty fields, rows repeated, labels of one coder: counted with the
    csv module and dictionaries (not the checks' code)."""
    csv.field_size_limit(1 << 30)
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    column = next(c for c in ("labels", "value", "label") if c in rows[0])
    coders, seen, users = defaultdict(set), Counter(), defaultdict(set)
    out = Counter()
    for r in rows:
        key = (r.get("document"), r["coder"].strip(), r["unit"].strip())
        seen[key] += 1
        coders[key[0], key[2]].add(key[1])
        field = r[column].strip()
        out["labels-empty-set"] += field == ""
        for label in filter(None, (x.strip() for x in field.split(";"))):
            users[label].add(key[1])
    out["labels-coded-twice"] = sum(n - 1 for n in seen.values())
    out["labels-unit-one-coder"] = sum(len(c) == 1 for c in coders.values())
    out["labels-label-one-coder"] = sum(len(u) == 1 for u in users.values())
    return out


REAL = ["krippendorff2011.csv", "multilabel_example.csv", "regressions/cli/codings.csv",
        "regressions/core/total-document.csv", "regressions/labels/long-field.csv",
        "regressions/labels/scalar-01.csv", "regressions/labels/no-shared-unit.csv"]


@pytest.mark.parametrize("name", REAL)
def test_real_tables_against_the_csv_module(name):
    found = list(validate_inputs([str(FIXTURES / name)], "codings", level=3, encoding=None,
                                 names=None, options={}))
    got = Counter()
    for i in found:
        got[i.test_id] += i.count
    expected = _expected(FIXTURES / name)
    for k in ("labels-empty-set", "labels-coded-twice", "labels-unit-one-coder",
              "labels-label-one-coder"):
        assert got[k] == expected[k], (name, k)
    assert not [i for i in found if i.severity == "error" and i.test_id != "read-refused"]


def test_krippendorff_2011_has_one_unit_of_one_coder():
    # Krippendorff (2011), the reliability data of the nominal example (4 observers, 12
    # units): unit 12 has a single value, which the paper leaves out as not pairable
    found = list(validate_inputs([str(FIXTURES / "krippendorff2011.csv")], "codings", level=3,
                                 encoding=None, names=None, options={}))
    (one,) = [i for i in found if i.test_id == "labels-unit-one-coder"]
    assert "('12')" in one.message and one.count == 1


# --- the command line


def test_cli_validate_and_table_strict(tmp_path, capsys):
    clean = tmp_path / "clean.csv"
    clean.write_text(CLEAN, encoding="utf-8")
    twice = tmp_path / "twice.csv"
    twice.write_text(CODINGS["labels-coded-twice"], encoding="utf-8")
    assert main(["validate", str(clean)]) == 0
    assert main(["validate", str(clean), "--vocabulary", "x"]) == 1
    assert main(["validate", str(clean), "--vocabulary", "x", "--level", "1"]) == 0
    capsys.readouterr()
    assert main(["validate", str(twice), "-f", "json", "--max-err", "1"]) == 1
    out = json.dumps(json.loads(capsys.readouterr().out))
    assert '"kind": "incident"' in out and '"kind": "test"' in out
    assert main(["table", str(clean), "--strict"]) == 0
    assert main(["table", str(twice)]) == 1  # the reader refuses it, strict or not
    multi = tmp_path / "m.csv"
    multi.write_text("item,annotator,label\ni1,A,x\ni1,A,y\ni1,B,x\n", encoding="utf-8")
    assert main(["table", str(multi), "--strict"]) == 0
    assert main(["validate", str(multi)]) == 0


# --- the checks on the reader's codes give what the row scan gives


def _slow_and_fast(path, sep=None, vocabulary=None, fast=None):
    """The level-2 and level-3 incidents of one codings file by the row scan (the path of
    files the reader refuses) and by the reader's codes (the path of files it accepts)."""
    from clusteragree.errors import Ledger
    from clusteragree.inputs import decode, read_bytes
    from clusteragree.labels.checks import (
        Pool,
        _scan_codings,
        check_across,
        check_coded,
        check_rows,
        pool_coded,
    )
    from clusteragree.labels.table import read_long_rows
    rows, bad = _scan_codings(str(path), decode(read_bytes(path), str(path)), sep)
    assert bad == []  # the reader accepted the file: the scan finds no malformed row
    slow = check_rows(rows, str(path), vocabulary=vocabulary) + check_across(rows, str(path))
    with Ledger():
        _, coded = read_long_rows(path, sep=";" if sep is None else sep, fast=fast)
    pool = Pool()
    pool_coded(pool, coded, sep)
    fast_found = (check_coded(coded, str(path), sep=sep, vocabulary=vocabulary)
                  + check_across(pool, str(path)))
    return slow, fast_found


def test_codes_and_scan_agree_on_the_fixtures():
    from clusteragree.errors import Ledger
    from clusteragree.labels.table import read_long_table
    checked = 0
    for path in sorted(FIXTURES.rglob("*.csv")):
        head = path.read_text(encoding="utf-8", errors="replace").split("\n", 1)[0].lower()
        if "coder" not in head or "unit" not in head:
            continue
        try:
            with Ledger():
                read_long_table(path)
        except Exception:  # refused: validate scans it (nothing to compare)
            continue
        for vocabulary in (None, ["x"]):
            for fast in (False, True):
                slow, fast_found = _slow_and_fast(path, vocabulary=vocabulary, fast=fast)
                assert fast_found == slow, path
        checked += 1
    assert checked >= 5


LABELS = ("x", "y", "X", "x y", "x-y", "Pos", "pos ", "z")


@pytest.mark.slow
def test_codes_and_scan_agree_on_random_tables(tmp_path):
    hypothesis = pytest.importorskip("hypothesis")
    st = hypothesis.strategies

    cells = st.lists(st.tuples(st.sampled_from(["d1", "d2", " d3"]),
                               st.sampled_from(["A", "B", "C ", "D"]),
                               st.sampled_from([f"u{k}" for k in range(8)]),
                               st.lists(st.sampled_from(LABELS), max_size=3)),
                     min_size=1, max_size=40, unique_by=lambda c: (c[0].strip(), c[1].strip(),
                                                                   c[2]))

    @hypothesis.settings(max_examples=80, deadline=None,
                         suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture,
                                                hypothesis.HealthCheck.too_slow,
                                                hypothesis.HealthCheck.filter_too_much])
    @hypothesis.given(cells=cells, documents=st.booleans(), extra=st.booleans(),
                      sep=st.sampled_from([None, "|", "none"]),
                      vocabulary=st.sampled_from([None, ["x", "y"], []]),
                      fast=st.booleans())
    def check(cells, documents, extra, sep, vocabulary, fast):
        from clusteragree.errors import Ledger
        from clusteragree.labels.table import read_long_table
        if not documents:  # one coder and unit once in the whole file
            cells = list({(c[1].strip(), c[2]): c for c in cells}.values())
        joiner = ";" if sep is None else ("|" if sep == "|" else "")
        lines = ["coder,unit,labels" + (",document" if documents else "")
                 + (",comment" if extra else "")]
        for doc, coder, unit, labels in cells:
            field = joiner.join(labels) if joiner else (labels[0] if labels else "")
            lines.append(f"{coder},{unit},{field}" + (f",{doc}" if documents else "")
                         + (",c" if extra else ""))
        path = tmp_path / "random.csv"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        try:
            with Ledger():
                read_long_table(path, sep=";" if sep is None else sep)
        except Exception:
            hypothesis.assume(False)  # refused (no shared unit): validate scans it
        slow, fast_found = _slow_and_fast(path, sep, vocabulary, fast)
        assert fast_found == slow

    check()


@pytest.mark.slow
def test_parquet_codes_and_scan_agree_on_random_tables(tmp_path):
    hypothesis = pytest.importorskip("hypothesis")
    pytest.importorskip("pyarrow")
    import pandas as pd
    st = hypothesis.strategies
    values = st.one_of(st.none(), st.sampled_from(["x", "y;x", " X ", "", "x-y", "z;y"]))
    cells = st.lists(st.tuples(st.sampled_from(["d1", "d2"]), st.sampled_from(["A", "B", "C"]),
                               st.integers(0, 6), values),
                     min_size=1, max_size=30, unique_by=lambda c: c[:3])

    @hypothesis.settings(max_examples=60, deadline=None,
                         suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture,
                                                hypothesis.HealthCheck.too_slow,
                                                hypothesis.HealthCheck.filter_too_much])
    @hypothesis.given(cells=cells, documents=st.booleans(), text_units=st.booleans(),
                      two_parts=st.booleans(), vocabulary=st.sampled_from([None, ["x", "y"]]))
    def check(cells, documents, text_units, two_parts, vocabulary):
        from clusteragree.errors import Ledger
        from clusteragree.labels.checks import (
            Pool,
            _scan_parquet,
            check_across,
            check_coded,
            check_rows,
            parquet_rows,
            pool_coded,
        )
        from clusteragree.labels.parquet import read_parquet_table
        if not documents:
            cells = list({c[1:3]: c for c in cells}.values())
        frame = pd.DataFrame({"coder": [c[1] for c in cells],
                              "unit": [f"u{c[2]}" if text_units else c[2] for c in cells],
                              "labels": [c[3] for c in cells]})
        if documents:
            frame["document"] = [c[0] for c in cells]
        folder = tmp_path / f"t{len(list(tmp_path.iterdir()))}"
        folder.mkdir()
        if two_parts and len(frame) > 1:
            half = len(frame) // 2
            frame.iloc[:half].to_parquet(folder / "part-0.parquet")
            frame.iloc[half:].to_parquet(folder / "part-1.parquet")
            path = str(folder)
        else:
            path = str(folder / "t.parquet")
            frame.to_parquet(path)
        try:
            with Ledger():
                read_parquet_table(path)
        except Exception:
            hypothesis.assume(False)  # refused: validate scans it
        rows = _scan_parquet(path, None)
        slow = check_rows(rows, path, vocabulary=vocabulary) + check_across(rows, path)
        coded = parquet_rows(path)
        assert coded is not None
        pool = Pool()
        pool_coded(pool, coded, None)
        fast = check_coded(coded, path, vocabulary=vocabulary) + check_across(pool, path)
        assert fast == slow

    check()
