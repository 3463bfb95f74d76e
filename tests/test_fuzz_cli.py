"""Fuzzing the command line's arguments: any argv ends in exit 0, 1 or 2, never a traceback.

The readers are fuzzed over their inputs in the per-domain ``test_fuzz_*`` files; here the
inputs are the bundled fixtures and the arguments are arbitrary: options that exist with values
they may or may not take, options that do not exist, files that do not exist, directories given
as files, repeated and missing operands. Each run is in-process through
:func:`clusteragree.cli.main`; an exception escaping it, or the last-resort exit 70 ("internal
error"), fails the test with the argv that produced it.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from clusteragree.cli import EXIT_INTERNAL, main

FIXTURES = Path(__file__).resolve().parent.parent / "corpora_fixtures"

FILES = {
    "table": ["multilabel_example.csv", "multilabel_ranked.csv", "krippendorff2011.csv"],
    "pyramid": ["passonneau2006/fig1-A1.pyr", "passonneau2006/fig1-A2.pyr",
                "pyramid-quirks/shifted-offsets.pyr", "pyramid-bad/not-xml.pyr"],
    "pan": ["pyramid-quirks/peer.pan", "pyramid-quirks/autopan.pan",
            "pyramid-quirks/ducview15-score.pan"],
    "coref": ["coref/annotator-a.conll", "coref/annotator-b.conll", "coref/brat"],
    "trees": ["coref/annotator-a.conll", "passonneau2006"],
}

# -o/--output is left out: a fuzzed value could name a fixture and overwrite it.
COMMON = ["-f", "--format", "--strict", "--encoding", "--distance", "-h"]
INTERVAL = ["--ci", "--bootstrap", "--seed", "--jobs"]
OPTIONS = {
    "table": ["--sep", "--scalar", "--engine", "--no-per-doc", "--per-doc", "--metrics",
              "--measures", "--p", "--categories", "--pairwise", "--weights", "--table",
              "--resample", "--diagnostics", "--worst", "--input-format", *INTERVAL],
    "pyramid": ["--tokenizer", "--units", "--overlap", "--unmarked", "--pairwise", "--align",
                "--resample", "--diagnostics", "--worst", "--names", *INTERVAL],
    "pan": ["--tokenizer", "--no-nonmatching", "--scores", "--table", "--per-doc", "--pairwise",
            "--diagnostics", "--worst", *INTERVAL],
    "coref": ["--units", "--metrics", "--unmarked", "--word-policy", "--text-dir", "--lenient",
              "--differences",
              "--per-doc", "--pairwise", "--table", "--singletons", "--resample",
              "--diagnostics", "--worst", "--input-format", *INTERVAL],
    "trees": ["--dirs", "--distance", "--metric", "--names", "--acc", "--metrics", "--size",
              "--words", "--input-format",
              "--roots", "--cycles", "--unlabelled", "--unit-root", "--pairwise",
              "--differences", "--diagnostics", "--worst", *INTERVAL],
}
VALUES = ["text", "json", "csv", "latex", "auto", "conll", "brat", "corefud", "nominal",
          "jaccard,masi", "interval", "ordinal", "masi,nope", "", ",", ";", "\t", "0", "-1",
          "0.5", "1e999", "nan", "10" * 30, "utf-8", "latin-1", "no-such-codec", "words",
          "spans", "contributors", "mentions", "all", "plain", "muc,lea", "bogus", "x" * 300,
          "metrics", "alpha", "scores", "correlations", "remove", "keep", "0.95", "2", "3",
          "units", "documents", "kappa", "fleiss,gwet", "linear", "quadratic", "brackets",
          "codings", "multilabel-csv", "multilabel-json", "accuracy",
          "--", "-", "é", "\x00"]


def _argv(data: st.DataObject) -> list[str]:
    command = data.draw(st.sampled_from(sorted(FILES)), label="command")
    valid = [str(FIXTURES / f) for f in FILES[command]]
    pool = [*valid, str(FIXTURES / "no-such-file"), str(FIXTURES),
            str(FIXTURES / "regressions")]
    flags = st.sampled_from([*COMMON, *OPTIONS[command], "--no-such-option"])
    option = st.one_of(flags.map(lambda f: [f]),
                       st.tuples(flags, st.sampled_from(VALUES + pool)).map(list))
    files = data.draw(st.lists(st.sampled_from(valid if data.draw(st.booleans()) else pool),
                               max_size=3), label="files")
    options = data.draw(st.lists(option, max_size=4), label="options")
    return [command, *files, *(token for pair in options for token in pair)]


def _run(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as done:  # main must not let one escape
            raise AssertionError(f"SystemExit({done.code}) escaped main for {argv!r}") from None
    return code, err.getvalue()


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_any_arguments_end_in_a_result_or_a_clean_error(data: st.DataObject) -> None:
    argv = _argv(data)
    code, err = _run(argv)
    event(f"exit {code}")
    assert code in (0, 1, 2), (argv, code, err)
    assert code != EXIT_INTERNAL and "Traceback" not in err, (argv, err)


@pytest.mark.parametrize("command", sorted(FILES))
def test_every_command_rejects_an_unknown_option_with_its_own_usage(command: str) -> None:
    code, err = _run([command, "--no-such-option"])
    assert code == 2
    assert err.startswith(f"usage: clusteragree {command}")


@pytest.mark.parametrize("command", sorted(FILES))
def test_a_missing_file_is_an_input_error_naming_it(command: str) -> None:
    missing = str(FIXTURES / "no-such-file")
    argv = [command, missing, missing]
    if command == "table":
        argv = [command, missing]
    elif command == "trees":
        argv = [command, "--dirs", missing, missing]
    code, err = _run(argv)
    assert code == 1, err
    assert "no-such-file" in err
