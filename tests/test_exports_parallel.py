"""Prodigy's JSON Lines read on several processes (``jobs``): the same documents, notices and
errors as one process, part boundaries anywhere.

The workers are real processes (spawned, as the package starts them); the file is cut into
parts of a few dozen bytes here (``_jsonl_parts.SIZE`` and ``PART`` patched in this process,
which cuts the file), so that every answer of a text, the second answer of an annotator, the
texts named alike by ``meta`` and the errors fall in different parts, some read here and some
by a worker.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from alike import same, script
from export_strategies import prodigy_lines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusteragree.core import parallel
from clusteragree.errors import InputError, Ledger, spelling, strict
from clusteragree.exports import _jsonl_blocks, _jsonl_parts, prodigy
from clusteragree.exports.model import (
    AnnotatedDocument,
    Chain,
    DocumentLabel,
    Relation,
    Span,
)
from clusteragree.exports.prodigy import read_prodigy
from clusteragree.exports.reading import read_export

FIX = Path(__file__).resolve().parent.parent / "corpora_fixtures" / "exports"
SETTINGS = settings(max_examples=30, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def _outcome(read: Callable[[], Any]) -> tuple[Any, list[tuple[Any, ...]]]:
    """The export or the error, and the notices."""
    with Ledger() as ledger:
        try:
            found: Any = read()
        except InputError as err:
            found = ("error", str(err), err.line, err.col)
    return found, [(n.kind, n.message, n.file, n.line, n.count) for n in ledger.notices]


def _in_parts(monkeypatch: pytest.MonkeyPatch, part: int) -> None:
    """Parts of ``part`` bytes, whatever the file's size; workers counted as started."""
    monkeypatch.setattr(_jsonl_parts, "SIZE", 0)
    monkeypatch.setattr(_jsonl_parts, "PART", part)
    monkeypatch.setattr(_jsonl_parts, "START_BYTES", 0)


def _alike(read: Callable[[int], Any], monkeypatch: pytest.MonkeyPatch, part: int) -> Any:
    """Read with one process, then with two in parts of ``part`` bytes: the same outcome."""
    one, said = _outcome(lambda: read(1))
    with monkeypatch.context() as patch:
        _in_parts(patch, part)
        two, told = _outcome(lambda: read(2))
    same(one, two, f"parts of {part} bytes")
    assert told == said
    return one


def _parts_read(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The futures given to the workers, from now on (to see that workers did read; the
    worker is started first, else this process may read every part before it is up)."""
    parallel.start_workers(_jsonl_parts.warm, [None], 2)[0].result()
    seen: list[Any] = []
    original = prodigy.start_workers

    def kept(func: Any, items: Any, jobs: int) -> Any:
        futures = original(func, items, jobs)
        seen.extend(futures)
        return futures

    monkeypatch.setattr(prodigy, "start_workers", kept)
    return seen


# --- cutting the file


@given(data=st.lists(st.sampled_from([b"a", b"\n", b"\xef\xbb\xbf", b"{}", b"\r"]),
                     max_size=40).map(b"".join), part=st.integers(1, 12))
@settings(max_examples=200, deadline=None)
def test_parts_are_whole_lines_end_to_end(tmp_path_factory: pytest.TempPathFactory,
                                          data: bytes, part: int) -> None:
    path = tmp_path_factory.mktemp("parts") / "x.jsonl"
    path.write_bytes(data)
    parts = _jsonl_parts.line_parts(path, part)
    at, line = 0, 1
    for start, end, first in parts:
        assert (start, first) == (at, line) and end > start
        piece = data[start:end]
        assert piece.endswith(b"\n") or end == len(data)
        if end < len(data):  # cut at the first line end from the part's size on
            assert len(piece) >= part and b"\n" not in piece[part - 1:-1]
        line += piece.count(b"\n")
        at = end
    assert at == len(data)


@pytest.mark.parametrize("compiled", [True, False])
def test_a_part_reads_its_lines_as_the_file_numbers_them(
        tmp_path: Path, compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the compiled scan, and without it (line by line, as a worker without numba)."""
    if not compiled:
        monkeypatch.setattr(_jsonl_blocks, "scanner", lambda: None)
    lines = [b'\xef\xbb\xbf{"a": 1}', b"", b'{"a": 2}\r', b'{"a": [3]}', b"  ", b'{"a": 4}']
    path = tmp_path / "x.jsonl"
    path.write_bytes(b"\n".join(lines))
    whole = [(n, v) for n, v in _jsonl_parts.read_part(path, 0, path.stat().st_size, 1, None)]
    assert whole == [(1, {"a": 1}), (3, {"a": 2}), (4, {"a": [3]}), (6, {"a": 4})]
    for part in range(1, 30):
        got = [pair for start, end, first in _jsonl_parts.line_parts(path, part)
               for pair in _jsonl_parts.read_part(path, start, end, first, None)]
        assert got == whole, part


def test_a_mark_is_dropped_only_at_the_start_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(b'{"a": 1}\n\xef\xbb\xbf{"a": 2}\n')
    first, second = _jsonl_parts.line_parts(path, 1)
    assert list(_jsonl_parts.read_part(path, *first, None)) == [(1, {"a": 1})]
    with pytest.raises(InputError) as err:
        list(_jsonl_parts.read_part(path, *second, None))
    assert err.value.line == 2


# --- documents across processes

SPANS = st.lists(st.builds(
    Span, st.sampled_from(["s1", "T2"]), st.integers(0, 9), st.integers(0, 9),
    st.sampled_from(["label", "ner"]), st.sampled_from([None, "PER"]),
    st.sampled_from([(), (("k", "v"),)]), st.sampled_from([(), ((0, 1), (2, 3))]),
    st.sampled_from([None, "ab"]), st.sampled_from([None, 3, 4])), max_size=4)


@given(spans=SPANS, tokens=st.sampled_from([(), ((0, 1),), [(0, 2)]]),
       relations=st.lists(st.builds(Relation, st.just("s1"), st.just("T2"),
                                    st.just("r"), st.sampled_from([None, "x"]),
                                    st.sampled_from([None, 2]),
                                    st.sampled_from([(), (("k", "v"),)])), max_size=2),
       chains=st.lists(st.builds(Chain, st.just("c"), st.just("relations"),
                                 st.just(("s1", "T2")), st.sampled_from([None, "x"]),
                                 st.sampled_from([None, 2])), max_size=2),
       labels=st.lists(st.builds(DocumentLabel, st.just("choice"), st.just("x"),
                                 st.sampled_from([None, 2])), max_size=2),
       text=st.sampled_from([None, "Mary met John"]))
@settings(max_examples=300, deadline=None)
def test_a_packed_document_is_the_document(spans: list[Span], tokens: Any,
                                           relations: list[Relation], chains: list[Chain],
                                           labels: list[DocumentLabel],
                                           text: str | None) -> None:
    doc = AnnotatedDocument("d", "a", text, tokens, ((0, 4),), tuple(spans), tuple(relations),
                            tuple(chains), tuple(labels), "x.jsonl", 3, "prodigy")
    same(doc, _jsonl_parts.unpack_document(_jsonl_parts.pack_document(doc)))


def test_every_fixture_document_packs_and_unpacks() -> None:
    """Every document of every fixture export that reads alone (the others are the fixtures
    of refusals, READMEs and the parts of a project)."""
    read = 0
    for path in sorted(p for p in FIX.rglob("*") if p.is_file()):
        try:
            export = read_export(path)
        except InputError:
            continue
        for doc in export.documents:
            same(doc, _jsonl_parts.unpack_document(_jsonl_parts.pack_document(doc)),
                 f"{path.name}: {doc.name}")
            read += 1
    assert read >= 80  # 85 documents when written


INCEPTION = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora" / \
    "tool-exports" / "inception"


@pytest.mark.skipif(not INCEPTION.is_dir(), reason="../shared/corpora/tool-exports is not here")
def test_the_real_exports_pack_and_unpack() -> None:
    """Every document of INCEpTION's real exports (the Kafka chapter's chains, the suite's
    stacked, discontinuous and featured spans, the project ZIP)."""
    read, chains = 0, 0
    for path in sorted(INCEPTION.rglob("*")):
        if path.suffix not in (".tsv", ".zip"):
            continue
        try:
            export = read_export(path)
        except InputError:
            continue
        for doc in export.documents:
            same(doc, _jsonl_parts.unpack_document(_jsonl_parts.pack_document(doc)), doc.name)
            read, chains = read + 1, chains + len(doc.chains)
    assert read > 50 and chains >= 89  # the Kafka chapter has 89


# --- reading in parts


@given(data=st.data(), answers=st.sampled_from(["accept", "accept,reject"]),
       part=st.integers(1, 400))
@SETTINGS
def test_random_prodigy_exports_read_alike_in_parts(tmp_path: Path, data: st.DataObject,
                                                    answers: str, part: int,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Random exports (those of tests/test_exports_fast.py), their lines shuffled, with
    texts that reuse another's hash now and then."""
    lines = data.draw(prodigy_lines(5, 4))
    if data.draw(st.integers(0, 4)) == 0:  # another text under a hash already used
        lines.append(json.dumps({"text": "other", "_input_hash": 0, "answer": "accept",
                                 "_annotator_id": "ann-1", "tokens": [], "spans": []}))
    lines = data.draw(st.permutations(lines))
    path = tmp_path / "db.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _alike(lambda jobs: read_prodigy(path, answers=answers, jobs=jobs), monkeypatch, part)


def _line(text: str, annotator: str, spans: list[tuple[int, int, str]], **extra: Any) -> str:
    words, tokens, at = text.split(" "), [], 0
    for k, word in enumerate(words):
        tokens.append({"text": word, "start": at, "end": at + len(word), "id": k})
        at += len(word) + 1
    return json.dumps({"text": text, "_input_hash": extra.pop("input_hash", zlib.crc32(
                           text.encode())),
                       "_task_hash": 1, "tokens": tokens,
                       "spans": [{"start": s, "end": e, "label": lab} for s, e, lab in spans],
                       "answer": "accept", "_view_id": "ner_manual",
                       "_annotator_id": annotator, **extra}, ensure_ascii=False)


def _export(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "db.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_workers_read_and_the_last_answer_is_read(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Forty texts by two annotators, the first annotator's first text answered again at
    the end (in a worker's part): its last answer is read, the first counted."""
    lines = [_line(f"Mary met John {k}", who, [(0, 4, "PER")]) for k in range(40)
             for who in ("ann-1", "ann-2")]
    lines.append(_line("Mary met John 0", "ann-1", [(9, 13, "PER")]))
    path = _export(tmp_path, lines)
    futures = _parts_read(monkeypatch)
    export = _alike(lambda jobs: read_prodigy(path, jobs=jobs), monkeypatch, 200)
    assert futures and any(f.done() and not f.cancelled() for f in futures)
    first = next(d for d in export.documents if d.annotator == "ann-1" and d.text.endswith(" 0"))
    assert [(s.start, s.end) for s in first.spans] == [(9, 13)]
    assert len(export.documents) == 80


def test_texts_named_alike_across_parts_read_again_in_one_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two texts whose meta names them alike, far apart: the second is named ID#HASH, which
    a worker could not know; the file is read again in one process, alike."""
    lines = [_line(f"Mary met John {k}", "ann-1", [(0, 4, "PER")], meta={"id": f"d{k}"})
             for k in range(30)]
    lines.append(_line("A text of its own", "ann-1", [(0, 1, "X")], meta={"id": "d0"}))
    path = _export(tmp_path, lines)
    export = _alike(lambda jobs: read_prodigy(path, jobs=jobs), monkeypatch, 150)
    names = sorted(d.name for d in export.documents)
    assert any(n.startswith("d0#") for n in names) and "d0" in names


@pytest.mark.parametrize("at", [1, 20, 39])
def test_an_error_is_the_first_of_the_file(tmp_path: Path, at: int,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """An error in the part read here, in a worker's part, or in the last: the error of one
    process (line and message), after the notices of the lines before it."""
    lines = [_line(f"Mary met John {k}", "ann-1", [(0, 4, "PER"), (0, 99, "X")])
             for k in range(40)]
    lines[at] = lines[at].replace('"answer": "accept"', '"answer": "maybe"')
    path = _export(tmp_path, lines)
    found = _alike(lambda jobs: read_prodigy(path, jobs=jobs), monkeypatch, 100)
    assert found[0] == "error" and found[2] == at + 1


def test_another_text_under_a_hash_is_refused_across_parts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [_line(f"Mary met John {k}", "ann-1", [], input_hash=k) for k in range(30)]
    lines.append(_line("Edited text", "ann-1", [], input_hash=2))
    path = _export(tmp_path, lines)
    found = _alike(lambda jobs: read_prodigy(path, jobs=jobs), monkeypatch, 120)
    assert found[0] == "error" and found[2] == 31 and "line 3" in found[1]


@pytest.mark.parametrize("at", [5, 25])
def test_strict_reading_and_the_options_spelling_reach_the_workers(
        tmp_path: Path, at: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A span whose text is not the text at its offsets, in the part read here or in a
    worker's: under strict reading, the refusal of one process at its line, ``--strict``
    spelt as the command line spells it; a rejected example after it is counted too."""
    lines = [_line(f"Mary met John {k}", "ann-1", [(0, 4, "PER")]) for k in range(30)]
    lines[at] = lines[at].replace('"label": "PER"}', '"label": "PER", "text": "John"}')
    lines[27] = lines[27].replace('"accept"', '"reject"')
    path = _export(tmp_path, lines)

    def read(jobs: int) -> Any:
        with strict(), spelling({"strict": "--strict"}):
            return read_prodigy(path, jobs=jobs)

    found = _alike(read, monkeypatch, 100)
    assert found[0] == "error" and found[2] == at + 1 and "without --strict" in found[1]
    _, said = _outcome(lambda: read_prodigy(path, jobs=1))
    assert [n[3] for n in said] == [at + 1, 28]


def test_the_warnings_of_every_part_are_said_in_the_order_of_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Spans whose text is not the text at their offsets (a warning at their line) in the
    part read here and in the workers' parts: said in the order of the lines."""
    lines = [_line(f"Mary met John {k}", "ann-1", [(0, 4, "PER")]) for k in range(40)]
    for at in (2, 21, 33, 38):
        lines[at] = lines[at].replace('"label": "PER"}', '"label": "PER", "text": "John"}')
    path = _export(tmp_path, lines)
    _parts_read(monkeypatch)
    _alike(lambda jobs: read_prodigy(path, jobs=jobs), monkeypatch, 100)
    _, said = _outcome(lambda: read_prodigy(path, jobs=1))
    assert [n[3] for n in said] == [3, 22, 34, 39]


def test_another_text_under_a_hash_within_a_workers_part(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two texts under one hash on lines next to each other, both in a worker's part."""
    lines = [_line(f"Mary met John {k}", "ann-1", [], input_hash=k) for k in range(30)]
    lines.insert(29, _line("Edited text", "ann-1", [], input_hash=28))
    path = _export(tmp_path, lines)
    _parts_read(monkeypatch)
    found = _alike(lambda jobs: read_prodigy(path, jobs=jobs), monkeypatch, 400)
    assert found[0] == "error" and found[2] == 30 and "line 29" in found[1]


def test_one_process_below_the_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file below SIZE, one process asked for, or no orjson: no worker."""
    path = _export(tmp_path, [_line("Mary met John", "ann-1", [(0, 4, "PER")])] * 3)
    futures = _parts_read(monkeypatch)
    read_prodigy(path, jobs=2)
    monkeypatch.setattr(_jsonl_parts, "SIZE", 0)
    read_prodigy(path, jobs=1)
    assert not futures
    assert not _jsonl_parts.wanted(path, 2, "latin-1")


def test_the_benchmark_export_reads_alike_in_parts(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmark's Prodigy export (scripts/bench_exports.py), 400 tasks by 3 annotators,
    in parts of 20 kB, with every process the machine has."""
    script("bench_exports").write_prodigy(tmp_path / "db.jsonl", 400, 3)
    futures = _parts_read(monkeypatch)
    export = _alike(lambda jobs: read_prodigy(tmp_path / "db.jsonl", jobs=jobs), monkeypatch,
                    20_000)
    assert len(export.documents) == 1200
    assert any(f.done() and not f.cancelled() for f in futures)
    with monkeypatch.context() as patch:
        _in_parts(patch, 20_000)
        many = read_prodigy(tmp_path / "db.jsonl", jobs=max(3, os.cpu_count() or 1))
    same(export, many)


def test_the_pool_left_by_a_dead_worker_is_started_afresh() -> None:
    """A broken pool is forgotten, so that the next reading starts a new one."""
    pool = parallel._pool(1)
    from concurrent.futures.process import BrokenProcessPool

    parallel.forget_broken(2, BrokenProcessPool("gone"))
    assert parallel._POOLS.get(1) is not pool
    pool.shutdown()


# --- the command line


def test_the_commands_read_in_parts_with_jobs(tmp_path: Path, cli: Any,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """``validate``, ``spans`` and ``convert`` read in parts with ``--jobs 2`` what they read
    with ``--jobs 1``: the same output (the signature does not hold ``--jobs``)."""
    script("bench_exports").write_prodigy(tmp_path / "db.jsonl", 120, 2)
    futures = _parts_read(monkeypatch)
    _in_parts(monkeypatch, 5_000)
    path = str(tmp_path / "db.jsonl")
    for command in (["validate", path, "-f", "json"],
                    ["spans", path, "-f", "json", "--metrics", "f1,tokens"],
                    ["coref", path, "-f", "json"]):
        one = cli(*command, "--jobs", "1")
        two = cli(*command, "--jobs", "2")
        assert one == two and one[0] in (0, 1), command
    for jobs in ("1", "2"):
        code, _, _ = cli("convert", path, "-f", "conll2012", "-o", str(tmp_path / jobs))
        assert code == 0
        code, _, _ = cli("convert", path, "-f", "conll2012", "-o", str(tmp_path / jobs),
                         "--force", "--jobs", jobs)
        assert code == 0
    assert sorted(p.read_bytes() for p in (tmp_path / "1").rglob("*") if p.is_file()) == \
        sorted(p.read_bytes() for p in (tmp_path / "2").rglob("*") if p.is_file())
    assert any(f.done() and not f.cancelled() for f in futures)


def test_jobs_on_inputs_not_read_in_parts_says_so(tmp_path: Path, cli: Any) -> None:
    """``validate`` and ``convert`` take ``--jobs`` for Prodigy's reader alone: on other
    inputs it is an unused option, said in the notices."""
    conll = FIX.parent / "regressions" / "intervals" / "one-document-a.conll"
    code, out, _ = cli("validate", str(conll), "--jobs", "2", "-f", "json")
    said = [n["message"] for n in json.loads(out)["warnings"] if n["kind"] == "unused"]
    assert any(m.startswith("--jobs acts on prodigy input") for m in said), said
    code, out, _ = cli("validate", str(conll), "-f", "json")
    assert not any("--jobs" in n["message"] for n in json.loads(out)["warnings"])
    code, out, err = cli("convert", str(conll), "-f", "conll2012", "-o", str(tmp_path / "out"),
                         "--jobs", "2")
    assert code == 0, err
    assert "--jobs reads a large file of prodigy" in out + err
