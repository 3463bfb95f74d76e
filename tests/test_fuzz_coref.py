"""Fuzzing the coreference readers and the ``coref`` command (see ``fuzzing.py``)."""

from __future__ import annotations

from pathlib import Path

from fuzzing import files, mutated, read_or_refuse, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusteragree.coref import read_brat, read_brat_dir, read_conll, read_corefud

FIXTURES = Path(__file__).resolve().parent.parent / "corpora_fixtures" / "coref"
CONLL_A = (FIXTURES / "annotator-a.conll").read_bytes()
CONLL_B = (FIXTURES / "annotator-b.conll").read_bytes()
COREFUD = {p.name: p.read_bytes() for p in sorted((FIXTURES / "corefud").glob("*.conllu"))}
COREFUD_SEED = next(iter(COREFUD.values())) if COREFUD else b""
ANN_A = (FIXTURES / "brat" / "A" / "story.ann").read_bytes()
ANN_B = (FIXTURES / "brat" / "B" / "story.ann").read_bytes()
TEXT = (FIXTURES / "brat" / "text" / "story.txt").read_bytes()
FUZZ = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FUZZ
@given(st.binary(max_size=1500))
def test_any_bytes_are_read_or_refused(data: bytes) -> None:
    with files({"x.conll": data, "x.conllu": data, "x.ann": data, "x.txt": TEXT,
                "y.ann": ANN_A, "y.txt": data}) as root:
        read_or_refuse(lambda: read_conll(root / "x.conll"))
        read_or_refuse(lambda: read_conll(root / "x.conll", lenient=True))
        read_or_refuse(lambda: read_corefud(root / "x.conllu"))
        read_or_refuse(lambda: read_brat(root / "x.ann"))
        read_or_refuse(lambda: read_brat(root / "y.ann", types=("Mention",)))


@FUZZ
@given(mutated(CONLL_A), st.sampled_from([[], ["--lenient"], ["--strict", "-f", "json"],
                                          ["--units", "words", "--per-doc", "--metrics",
                                           "alpha,muc,lea"]]))
def test_coref_command_on_mutated_conll(data: bytes, options: list[str]) -> None:
    with files({"a.conll": data, "b.conll": CONLL_B}) as root:
        read_or_refuse(lambda: read_conll(root / "a.conll", lenient=True))
        run_cli(["coref", "a.conll", "b.conll", *options], cwd=root)


@FUZZ
@given(mutated(COREFUD_SEED), st.sampled_from([[], ["--lenient", "-f", "json"],
                                               ["--units", "words", "--word-policy", "head"]]))
def test_coref_command_on_mutated_corefud(data: bytes, options: list[str]) -> None:
    with files({"a.conllu": data, "b.conllu": COREFUD_SEED}) as root:
        read_or_refuse(lambda: read_corefud(root / "a.conllu"))
        run_cli(["coref", "a.conllu", "b.conllu", *options], cwd=root)


@FUZZ
@given(mutated(ANN_A), st.booleans(), st.sampled_from([[], ["--types", "Mention"],
                                                       ["--relations", "Coref", "--strict"],
                                                       ["--units", "words", "-f", "csv"]]))
def test_coref_command_on_mutated_brat(ann: bytes, crlf: bool, options: list[str]) -> None:
    text = TEXT.replace(b"\n", b"\r\n") if crlf else TEXT
    with files({"A/story.ann": ann, "B/story.ann": ANN_B, "text/story.txt": text}) as root:
        read_or_refuse(lambda: read_brat_dir(root / "A", root / "text"))
        run_cli(["coref", "A", "B", "--text-dir", "text", *options], cwd=root)


@FUZZ
@given(mutated(TEXT))
def test_mutated_brat_texts_are_read_or_refused(text: bytes) -> None:
    with files({"A/story.ann": ANN_A, "B/story.ann": ANN_B, "text/story.txt": text}) as root:
        run_cli(["coref", "A", "B", "--text-dir", "text"], cwd=root)
