"""Fuzzing the table and multi-label readers and the ``table`` command (see ``fuzzing.py``)."""

from __future__ import annotations

import io
from pathlib import Path

from fuzzing import files, mutated, read_or_refuse, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusteragree.labels import MultiLabel, read_long_table, read_multilabel

FIXTURES = Path(__file__).resolve().parent.parent / "corpora_fixtures"
CODINGS = (FIXTURES / "multilabel_example.csv").read_bytes()
SCALARS = (FIXTURES / "krippendorff2011.csv").read_bytes()
MULTI = (FIXTURES / "multilabel_ranked.csv").read_bytes()
JSON = (b'[{"item": "i1", "annotator": "A", "label": "x", "rank": 1},\n'
        b' {"item": "i1", "annotator": "A", "label": "y", "rank": 2},\n'
        b' {"item": "i1", "annotator": "B", "label": "x", "rank": 1},\n'
        b' {"item": "i2", "annotator": "A", "label": "z"},\n'
        b' {"item": "i2", "annotator": "B", "label": "z"}]\n')
FUZZ = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
JSON_JUNK = [b"NaN", b"Infinity", b"-Infinity", b"1e999", b"1" + b"0" * 400, b"null", b"[]",
             b"{}", b'"\\ud800"', b"[" * 5000 + b"]" * 5000, b"true", b"1.7", b"-3"]


@FUZZ
@given(st.binary(max_size=1500))
def test_any_bytes_are_read_or_refused(data: bytes) -> None:
    with files({"x.csv": data, "x.json": data}) as root:
        read_or_refuse(lambda: read_long_table(root / "x.csv"))
        read_or_refuse(lambda: read_long_table(root / "x.csv", scalar=True, numeric=True))
        read_or_refuse(lambda: read_multilabel(root / "x.csv"))
        read_or_refuse(lambda: read_multilabel(root / "x.json"))


@FUZZ
@given(st.text(max_size=600), st.sampled_from([";", "|", ",,"]))
def test_any_text_stream_is_read_or_refused(text: str, sep: str) -> None:
    read_or_refuse(lambda: read_long_table(io.StringIO(text), sep=sep))
    read_or_refuse(lambda: read_long_table(io.StringIO(text), scalar=True))


@FUZZ
@given(st.sampled_from([CODINGS, SCALARS, MULTI]).flatmap(mutated))
def test_mutated_csv_files_are_read_or_refused(data: bytes) -> None:
    with files({"x.csv": data}) as root:
        read_or_refuse(lambda: read_long_table(root / "x.csv"))
        read_or_refuse(lambda: read_long_table(root / "x.csv", scalar=True))
        read_or_refuse(lambda: read_multilabel(root / "x.csv"))


@FUZZ
@given(mutated(JSON), st.sampled_from(JSON_JUNK), st.booleans())
def test_mutated_json_is_read_or_refused(data: bytes, junk: bytes, splice: bool) -> None:
    if splice:
        data = data.replace(b"1", junk, 1)
    with files({"x.json": data}) as root:
        read_or_refuse(lambda: read_multilabel(root / "x.json"))
        run_cli(["table", "x.json", "-f", "json"], cwd=root)


@FUZZ
@given(st.lists(st.tuples(st.one_of(st.none(), st.integers(), st.text(max_size=2)),
                          st.sampled_from(["A", "B", None, float("nan")]),
                          st.one_of(st.none(), st.floats(), st.text(max_size=2), st.integers(),
                                    st.lists(st.integers(), max_size=1)),
                          st.one_of(st.none(), st.integers(-1, 3), st.floats(), st.text(max_size=2),
                                    st.booleans())),
                max_size=8))
def test_junk_records_end_in_a_result_or_a_package_error(records: list) -> None:
    read_or_refuse(lambda: MultiLabel.from_records(records))


@FUZZ
@given(st.sampled_from([(CODINGS, []), (SCALARS, ["--scalar", "--distance", "ordinal,interval"]),
                        (SCALARS, ["--scalar", "--distance", "nominal", "--strict"]),
                        (MULTI, ["--measures", "all"]), (CODINGS, ["--sep", "|", "-f", "csv"]),
                        (CODINGS, ["--no-per-doc", "--engine", "generic", "-f", "latex"])])
       .flatmap(lambda seed: st.tuples(mutated(seed[0]), st.just(seed[1]))))
def test_table_command_on_mutated_files(case: tuple[bytes, list[str]]) -> None:
    data, options = case
    with files({"x.csv": data}) as root:
        run_cli(["table", "x.csv", *options], cwd=root)
