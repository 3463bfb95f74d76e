"""The column paths of span tables against the row-by-row ones (clusteragree.spans.table_fast,
readers, table_checks).

The readers of ``spans-csv`` and ``pygamma`` read a plain file by columns (pyarrow); each is
compared with the row-by-row reader (the column path switched off) on random files with
quotes, byte-order marks, blank lines, CRLF, rows of another width, empty names, offsets that
are not numbers (or only almost: ``1e999``, ``nan``, Arabic-Indic digits), odd whitespace,
extra columns: the same frame (values, types, attributes) or the same refusal. ``validate``
scans a table row by row only when its reader refused or reported something; that a table
the reader accepted has nothing to scan is checked on every file. The level-2 and level-3
checks of tables (numpy over integer codes) are compared with their definitions written out
here in plain Python (dictionaries over the rows), on random frames and on the span tables of
corpora_fixtures/ and ../shared/corpora (skipped when absent).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import Any
from unittest import mock

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusteragree.errors import InputError, option
from clusteragree.incidents import Incident
from clusteragree.spans import readers
from clusteragree.spans.checks import validate_inputs
from clusteragree.spans.readers import read_pygamma_csv, read_span_table, sniff_table
from clusteragree.spans.table_checks import scan_table, table_checks
from clusteragree.spans.table_fast import plain_columns

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "corpora"
SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def _tables() -> list[tuple[Path, str]]:
    found = []
    for root in (ROOT / "corpora_fixtures", SHARED):
        if root.is_dir():
            for p in sorted(root.rglob("*")):
                if p.suffix.lower() in (".csv", ".tsv", ".tab") and p.is_file():
                    kind = sniff_table(p)
                    if kind is not None:
                        found.append((p, kind))
    return found


TABLES = _tables()


# --- the readers --------------------------------------------------------------------------

def _row_by_row() -> Any:
    return mock.patch.object(readers, "plain_columns", lambda *a, **k: None)


def _outcome(read: Callable[[], pd.DataFrame]) -> tuple[str, Any]:
    try:
        return "read", read()
    except InputError as err:
        return "refused", (str(err), err.path, err.line)


def assert_same_reading(read: Callable[[], pd.DataFrame]) -> bool:
    """The outcome of ``read`` by columns and row by row; whether the column path read it."""
    calls: list[bool] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        got = plain_columns(*args, **kwargs)
        calls.append(got is not None)
        return got

    with mock.patch.object(readers, "plain_columns", spy):
        fast = _outcome(read)
    with _row_by_row():
        slow = _outcome(read)
    assert fast[0] == slow[0], (fast, slow)
    if fast[0] == "refused":
        assert fast[1] == slow[1]
        return False
    pd.testing.assert_frame_equal(fast[1], slow[1], check_exact=True)
    assert list(fast[1].dtypes) == list(slow[1].dtypes)
    assert fast[1].attrs == slow[1].attrs
    if len(fast[1]):
        assert [type(v) for v in fast[1].iloc[0]] == [type(v) for v in slow[1].iloc[0]]
    return any(calls)


NAMES = st.sampled_from(["A", "B", "A", "B", " A ", "Zoë", "", " ", "A\u00a0", "\ufeffA",
                         "A\tB"])
DOCS = st.sampled_from(["d1", "d2", "d1", " d2", "", "ä"])
LABELS = st.sampled_from(["PER", "LOC", "PER", " LOC", "", "x y"])
OFFSETS = st.sampled_from(["0", "3", "4", "10", "3", "4", "-1", "2.5", " 4 ", "\t4", "+3",
                           "1e1", "007", ".5", "5.", "-0", "x", "", "nan", "inf", "1e999",
                           "\u0663", "1_0", "0x1", "3.0", "12345678901234567890.5",
                           "9007199254740993", "99999999999999999999", "\x0c4"])
NOTES = st.sampled_from(["", "sure", " sure ", "a;b", "é"])


@st.composite
def table_text(draw: Any, pygamma: bool) -> tuple[str, str]:
    """A table's text (and its separator) with, now and then, one of the faults above."""
    sep = "," if pygamma else draw(st.sampled_from([",", ",", "\t"]))
    rows = draw(st.lists(st.tuples(NAMES, DOCS, OFFSETS, OFFSETS, LABELS, NOTES),
                         min_size=0, max_size=12))
    plain = draw(st.booleans())
    if plain:  # mostly rows the column path reads
        rows = [(draw(st.sampled_from(["A", "B", " A "])), draw(st.sampled_from(["d1", "d2"])),
                 draw(st.sampled_from(["0", "3", "4", "2.5", " 4", "-1", "+3", ".5", "1e1"])),
                 draw(st.sampled_from(["0", "3", "4", "10", "5.", "3.0", "9007199254740993",
                                       "007"])),
                 draw(st.sampled_from(["PER", "LOC", " PER"])), n)
                for _, _, _, _, _, n in rows]
    if pygamma:
        columns = ["annotator", "label", "start", "end"]
    else:
        columns = draw(st.permutations(["annotator", "document", "start", "end", "label",
                                        "note"]))
        columns = [c for c in columns if c not in draw(st.sets(st.sampled_from(
            ["annotator", "label", "note"])))]
    lines = []
    for who, doc, s, e, label, note in rows:
        value = {"annotator": who, "document": doc, "start": s, "end": e, "label": label,
                 "note": note}
        fields = [value[c] for c in columns]
        fault = draw(st.integers(0, 19)) if not plain else 99
        if fault == 0:
            fields = fields[:-1]
        elif fault == 1:
            fields = [*fields, "x"]
        elif fault == 2:
            fields[0] = f'"{fields[0]}"'
        elif fault == 3 and "note" in columns:
            fields[columns.index("note")] = f'"a{sep}b"'
        elif fault == 4:
            lines.append("")
        elif fault == 5:
            fields = [""] * len(fields)
        lines.append(sep.join(fields))
    header = [] if pygamma else [sep.join(draw(st.sampled_from([c, c.upper(), f" {c}"]))
                                          for c in columns)]
    end = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    text = end.join(header + lines) + draw(st.sampled_from([end, ""]))
    if draw(st.integers(0, 5)) == 0:
        text = "\ufeff" + text
    if draw(st.integers(0, 9)) == 0:
        text = end + text  # a blank line first
    return text, sep


@SETTINGS
@given(table_text(False), st.sampled_from([None, "C"]))
def test_span_table_by_columns_as_row_by_row(tmp_path: Path, made: tuple[str, str],
                                             annotator: str | None) -> None:
    text, sep = made
    path = tmp_path / ("spans.tsv" if sep == "\t" else "spans.csv")
    path.write_bytes(text.encode("utf-8"))
    try:
        assert_same_reading(lambda: read_span_table(path, fallback=annotator))
    except Exception:
        print(repr(text))
        raise


@SETTINGS
@given(table_text(True))
def test_pygamma_by_columns_as_row_by_row(tmp_path: Path, made: tuple[str, str]) -> None:
    text, _ = made
    path = tmp_path / "talk.csv"
    path.write_bytes(text.encode("utf-8"))
    assert_same_reading(lambda: read_pygamma_csv(path))


@pytest.mark.parametrize(("text", "name"), [
    ("annotator,document,start,end,label\nA,d1,0,4,PER\nB,d1,0,4.5, LOC\n", "a.csv"),
    ("\ufeffannotator,document,start,end,label\r\nA,d1,0,4,PER\r\nB,d1,0,4,PER", "b.csv"),
    ("document\tstart\tend\tnote\nd1\t0\t4\t sure \nd2\t1\t2\t\n", "c.tsv"),
    ("Alex,1,2,9\nPaul,1,2.5,9\n", "talk.csv"),
])
def test_plain_tables_read_by_columns(tmp_path: Path, text: str, name: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    if name == "talk.csv":
        assert assert_same_reading(lambda: read_pygamma_csv(path))
    else:
        assert assert_same_reading(lambda: read_span_table(path, fallback="C"))


@pytest.mark.parametrize(("path", "kind"), TABLES, ids=[str(p.name) for p, _ in TABLES])
def test_tables_of_the_corpora_by_columns(path: Path, kind: str) -> None:
    read = (lambda: read_pygamma_csv(path)) if kind == "pygamma" else (
        lambda: read_span_table(path, fallback="C"))
    assert assert_same_reading(read)


# --- validate: the scan skipped on what the reader accepted -------------------------------

def _validate(path: Path, kind: str, fast: bool) -> list[Incident]:
    with nullcontext() if fast else _row_by_row():
        return list(validate_inputs([str(path)], kind, level=3))


@SETTINGS
@given(st.booleans(), st.data())
def test_validate_tables_by_columns_as_row_by_row(tmp_path: Path, pygamma: bool,
                                                  data: Any) -> None:
    text, sep = data.draw(table_text(pygamma))
    path = tmp_path / ("talk.csv" if pygamma else "spans.tsv" if sep == "\t" else "spans.csv")
    path.write_bytes(text.encode("utf-8"))
    kind = "pygamma" if pygamma else "spans-csv"
    fast = _validate(path, kind, True)
    assert fast == _validate(path, kind, False)
    # What the skip rests on: a table its reader accepts without a word has no row to scan
    # (validate reads one table with no annotator to fall back on).
    try:
        read_pygamma_csv(path) if pygamma else read_span_table(path)
    except InputError:
        return
    assert list(scan_table(str(path), kind, None)) == []
    assert not [i for i in fast if i.level == 1]


# --- the checks against their definitions ---------------------------------------------------

def _show(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


Row = tuple[str, str, float, float, str, "str | None", "int | None"]


def _rows(frame: pd.DataFrame) -> list[Row]:
    node = frame["id"].tolist() if "id" in frame.columns else [None] * len(frame)
    line = frame["line"].tolist() if "line" in frame.columns else [None] * len(frame)
    return [(str(a), str(d), float(s), float(e), str(lab), None if n is None else str(n),
             None if li is None else int(li))
            for a, d, s, e, lab, n, li in zip(frame["annotator"], frame["document"],
                                               frame["start"], frame["end"], frame["label"],
                                               node, line, strict=True)]


def expected(frame: pd.DataFrame, *, texts: dict[Hashable, str] | None = None,
             vocabulary: Sequence[str] | None = None,
             annotators: Sequence[str] | None = None) -> list[Incident]:
    """The incidents of levels 2 and 3 as the tests define them, row by row."""
    rows = _rows(frame)
    file_of: dict[str, str | None] = {}
    if "file" in frame.columns:
        for r, f in zip(rows, frame["file"], strict=True):
            file_of.setdefault(r[0], str(f))
    out: list[Incident] = []
    lengths = None if texts is None else {str(k): len(v) for k, v in texts.items()}
    ok: list[Row] = []
    for r in rows:
        who, doc, s, e, label, node, line = r
        where = (file_of.get(who), line, doc, node, who)
        length = math.inf if lengths is None else lengths.get(doc, math.nan)
        bad = s < 0 or e < s or e > length
        if bad:
            why = ("has a negative start" if s < 0 else "ends before it starts" if e < s
                   else f"ends past the text ({int(length)} characters)")
            out.append(Incident("spans-bad-offsets", f"the span {_show(s)}-{_show(e)} {why}; "
                                "spans run from start to end (exclusive), 0 <= start <= end "
                                "<= the text's length", *where))
        else:
            ok.append(r)
        if not bad and lengths is not None and (s % 1 or e % 1):
            out.append(Incident("spans-fractional-offset", f"the span {s}-{e} has offsets "
                                "that are not whole numbers, but the texts given make them "
                                "count characters", *where))
        if not bad and s == e:
            out.append(Incident("spans-zero-length", f"the span at {_show(s)} (label "
                                f"{label!r}) has no length", *where))
        if vocabulary is not None and label not in vocabulary:
            out.append(Incident("spans-label-unknown", f"the label {label!r} is not in the "
                                f"vocabulary ({option('vocabulary')})", *where))
    same: dict[tuple[Any, ...], list[Row]] = defaultdict(list)
    for r in ok:
        same[r[:5]].append(r)
    for group in same.values():
        if len(group) > 1:
            who, doc, s, e, label, node, line = group[0]
            out.append(Incident("spans-duplicate", f"the span {_show(s)}-{_show(e)} with the "
                                f"label {label!r} is stacked on an identical one (exact "
                                "matching counts each)", file_of.get(who), line, doc, node,
                                who, count=len(group) - 1))
    spans: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    for who, doc, s, e, _ in same:
        if s < e:
            spans[(who, doc)].append((s, e))
    for (who, doc), pairs in sorted(spans.items()):
        pairs.sort()
        reach = -math.inf
        n = 0
        for s, e in pairs:
            n += s < reach
            reach = max(reach, e)
        if n:
            out.append(Incident("spans-overlap", "a span overlaps an earlier span",
                                file_of.get(who), None, doc, None, who, count=n))
    who_all = ([str(a) for a in annotators] if annotators is not None
               else list(dict.fromkeys(r[0] for r in rows)))
    if len(who_all) < 2:
        return out
    documents = list(dict.fromkeys(r[1] for r in rows))
    for w in who_all:
        have = {r[1] for r in rows if r[0] == w}
        lacking = [d for d in documents if d not in have]
        if lacking:
            out.append(Incident("spans-document-unmarked", "no span in a document others "
                                f"marked: {', '.join(lacking[:5])}"
                                f"{' ...' if len(lacking) > 5 else ''} (a span table cannot "
                                "say whether the document was annotated: it is compared as "
                                "marking nothing; leave it out of every annotator's rows if "
                                "it was not annotated)", file_of.get(w), None, None, None, w,
                                count=len(lacking)))
    users: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        users[r[4]][r[0]] += 1
    for label, by in users.items():
        if len(by) == 1:
            (w, n), = by.items()
            out.append(Incident("spans-label-one-annotator", f"the label {label!r} is used by "
                                "this annotator only (its spans counted)", file_of.get(w), None,
                                None, None, w, count=n))
    distinct = list(dict.fromkeys(r[:5] for r in rows))
    holders = Counter((d, s, e, lab) for _, d, s, e, lab in distinct)
    alone: Counter[tuple[str, str]] = Counter()
    for w, d, s, e, lab in distinct:
        if holders[(d, s, e, lab)] == 1:
            alone[(d, w)] += 1
    for (d, w), n in alone.items():
        out.append(Incident("spans-one-annotator", "a span that no other annotator has (the "
                            "same start, end and label)", file_of.get(w), None, d, None, w,
                            count=n))
    return out


OFFSET_VALUES = st.sampled_from([0.0, -0.0, 1.0, 2.0, 3.0, 4.0, 2.5, -1.0, 7.0, 1e15, 0.1])
frames = st.lists(st.tuples(st.sampled_from(["A", "B", "C"]),
                            st.sampled_from(["d1", "d2", "d3"]), OFFSET_VALUES, OFFSET_VALUES,
                            st.sampled_from(["PER", "LOC", "ORG", "x"])),
                  min_size=1, max_size=30)


@SETTINGS
@given(frames, st.sampled_from([None, {"d1": "0123", "d2": "01234567"}]),
       st.sampled_from([None, ["PER", "LOC"]]),
       st.sampled_from([None, ["A", "B"], ["A", "B", "C", "D"]]), st.booleans())
def test_table_checks_as_defined(rows: list[tuple[Any, ...]],
                                 texts: dict[Hashable, str] | None,
                                 vocabulary: list[str] | None, annotators: list[str] | None,
                                 with_places: bool) -> None:
    frame = pd.DataFrame(rows, columns=["annotator", "document", "start", "end", "label"])
    if with_places:
        frame["id"] = [str(k + 2) for k in range(len(frame))]
        frame["file"] = [f"{a}.csv" for a in frame["annotator"]]
        frame["line"] = range(2, len(frame) + 2)
    got = list(table_checks(frame, level=3, texts=texts, vocabulary=vocabulary,
                            annotators=annotators))
    assert got == expected(frame, texts=texts, vocabulary=vocabulary, annotators=annotators)


@pytest.mark.parametrize(("path", "kind"), TABLES, ids=[str(p.name) for p, _ in TABLES])
def test_checks_of_the_corpora_as_defined(path: Path, kind: str) -> None:
    frame = read_pygamma_csv(path) if kind == "pygamma" else read_span_table(path)
    labels = sorted(set(frame["label"]))[:2]
    for vocabulary in (None, labels):
        got = list(table_checks(frame, level=3, vocabulary=vocabulary))
        assert got == expected(frame, vocabulary=vocabulary)
    assert _validate(path, kind, True) == _validate(path, kind, False)


def test_no_tables_is_a_skip() -> None:
    if not TABLES:
        pytest.skip("no span table in corpora_fixtures/ or ../shared/corpora")
    assert {k for _, k in TABLES} <= {"spans-csv", "pygamma"}
