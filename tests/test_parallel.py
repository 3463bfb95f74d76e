"""Every core: ``jobs`` gives the values of one process, bit for bit, on every parallel path
(tree alpha's edit distances, documents' statistics, coreference metrics per document and
pair, the bootstrap); ``--jobs`` is accepted by every command that works and refused with a
usage message when it is not a number of processes."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree import CodingTable
from clusteragree.core import alpha_report, map_chunks, resolve_jobs, usable_cores
from clusteragree.core.bootstrap import block_stats, bootstrap_alpha
from clusteragree.core.coincidence_bootstrap import krippendorff_bootstrap
from clusteragree.core.convert import memberships_table
from clusteragree.coref import CorefCorpus, CorefDocument, Mention, coref_alpha
from clusteragree.errors import ParameterTypeError
from clusteragree.trees import TreeCache, read_tree_annotations, tree_alpha, tree_table

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora" / "syntax"
JOBS = (1, 2, 3)


def _same(x: float, y: float) -> bool:
    """Equal to the last bit (NaN equal to NaN)."""
    return (math.isnan(x) and math.isnan(y)) or x == y


# ------------------------------------------------------------------ the helper
def test_resolve_jobs_reads_every_spelling() -> None:
    cores = usable_cores()
    assert resolve_jobs(None) == resolve_jobs(0) == resolve_jobs(-1) == cores
    assert resolve_jobs(-2) == max(1, cores - 1)
    assert resolve_jobs(-10**6) == 1
    assert [resolve_jobs(n) for n in (1, 2, 7)] == [1, 2, 7]
    assert resolve_jobs(np.int64(3)) == 3


@pytest.mark.parametrize("bad", [True, 1.5, "2", [2]])
def test_resolve_jobs_refuses_what_is_not_a_number_of_processes(bad: object) -> None:
    with pytest.raises(ParameterTypeError, match="jobs must be a whole number"):
        resolve_jobs(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("jobs", JOBS)
def test_map_chunks_gives_what_the_loop_gives_in_order(jobs: int) -> None:
    items = [(-1) ** k * k for k in range(101)]
    assert map_chunks(abs, items, jobs) == [abs(x) for x in items]
    assert map_chunks(abs, items, jobs, chunk_size=7) == [abs(x) for x in items]
    assert map_chunks(abs, [], jobs) == []


@pytest.mark.parametrize("jobs", (1, 2))
def test_map_chunks_raises_the_first_error_in_the_order_of_the_items(jobs: int) -> None:
    with pytest.raises(ValueError, match="'x'"):
        map_chunks(int, ["1", "2", "x", "3", "y"] * 5, jobs, chunk_size=1)


# ------------------------------------------------------------------ tree alpha
def _random_tree(rng: np.random.Generator, size: int) -> tuple:
    """A random ordered tree of ``size`` nodes below an empty root, labels from four."""
    nodes: list[tuple[str, list]] = [("", [])]
    for _ in range(size):
        child: tuple[str, list] = (str("abcd"[rng.integers(4)]), [])
        nodes[int(rng.integers(len(nodes)))][1].append(child)
        nodes.append(child)

    def nested(node: tuple[str, list]) -> tuple:
        return (node[0], tuple(nested(c) for c in node[1]))

    return nested(nodes[0])


def _random_annotations(seed: int) -> CodingTable:
    rng = np.random.default_rng(seed)
    gold = [_random_tree(rng, int(rng.integers(2, 14))) for _ in range(30)]
    annotators = {}
    for a in "ABC":
        annotators[a] = [None if rng.random() < 0.1 else
                         (g if rng.random() < 0.5 else _random_tree(rng, int(rng.integers(2, 14))))
                         for g in gold]
    return tree_table(annotators)


@pytest.fixture
def pool_for_any_work(monkeypatch):
    """Tree edit distances go to the pool however few they are."""
    import clusteragree.trees.edit_distance as edit_distance

    monkeypatch.setattr(edit_distance, "FILL_POOL_CELLS", 0)
    monkeypatch.setattr(edit_distance, "FILL_RUNNING_CELLS", 0)


@pytest.mark.parametrize("seed", range(2))
def test_tree_alpha_is_the_same_whatever_the_processes(seed: int, pool_for_any_work) -> None:
    table = _random_annotations(seed)
    for metric in ("plain", "diff", "norm"):
        found = []
        for jobs in JOBS:
            cache = TreeCache(True)
            result = tree_alpha(table, metric, cache=cache, jobs=jobs)
            found.append((result.alpha, result.D_o, result.D_e, result.n, cache.hits,
                          cache.misses, sorted(cache.cache.values())))
        one = found[0]
        for other in found[1:]:
            assert all(_same(a, b) for a, b in zip(one[:3], other[:3], strict=True))
            assert one[3:] == other[3:]  # the same pairs computed, and the same distances


def test_a_filled_cache_gives_the_distances_of_ted(monkeypatch) -> None:
    import clusteragree.trees.edit_distance as edit_distance
    from clusteragree.trees import ted

    table = _random_annotations(5)
    trees = [v for v in table.values if v is not None]
    cache = TreeCache(True)
    monkeypatch.setattr(edit_distance, "FILL_RUNNING_CELLS", 10**12)
    assert cache.fill(trees, jobs=2) == 0  # too little work for a pool: left to the calls
    monkeypatch.setattr(edit_distance, "FILL_POOL_CELLS", 0)
    monkeypatch.setattr(edit_distance, "FILL_RUNNING_CELLS", 0)
    assert cache.fill(trees, jobs=2) > 0
    for a in trees[:8]:
        for b in trees[:8]:
            assert cache(a, b) == ted(a, b, free_empty=True)


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/corpora absent")
def test_tree_alpha_on_a_real_corpus_is_the_same_whatever_the_processes(pool_for_any_work
                                                                        ) -> None:
    corpus = read_tree_annotations([SHARED / "ndt" / f"{a}-swedish.conll"
                                    for a in ("odin", "thor")])
    table = tree_table(corpus)
    one, two = (tree_alpha(table, "norm", jobs=jobs) for jobs in (1, 2))
    assert (one.alpha, one.D_o, one.D_e) == (two.alpha, two.D_o, two.D_e)


# ------------------------------------------------------------------ documents
def _random_corpus(rng: np.random.Generator, name: str, n_tokens: int, docs: int
                   ) -> CorefCorpus:
    out = {}
    for d in range(docs):
        spans: set[tuple[int, int]] = set()
        while len(spans) < n_tokens // 3:
            s = int(rng.integers(0, n_tokens - 2))
            spans.add((s, s + int(rng.integers(1, 3))))
        mentions = tuple(Mention(((s, e),), str(int(rng.integers(0, 6))))
                         for s, e in sorted(spans))
        out[f"doc{d}"] = CorefDocument(f"doc{d}", ("w",) * n_tokens, mentions, name)
    return CorefCorpus(out, name)


def _corpora(seed: int) -> list[CorefCorpus]:
    rng = np.random.default_rng(seed)
    return [_random_corpus(rng, f"ann{k}", 40, 9) for k in range(3)]


def test_alpha_of_documents_is_the_same_whatever_the_processes(monkeypatch) -> None:
    import clusteragree.core.frames as frames

    monkeypatch.setattr(frames, "POOL_CELLS", 0)
    monkeypatch.setattr(frames, "RUNNING_POOL_CELLS", 0)
    corpora = _corpora(4)
    found = [coref_alpha(corpora, ["nominal", "jaccard", "masi"], units=units, jobs=jobs,
                         pairwise=True)
             for units in ("mentions", "words") for jobs in JOBS]
    for k in (0, 3):
        for frame in found[k + 1:k + 3]:
            assert frame.equals(found[k])
    tables = {f"d{k}": CodingTable.from_records(
        [(c, u, frozenset(np.flatnonzero(np.random.default_rng(k * 10 + u).random(5) < 0.4)
                          .tolist()) if c != "C" or u % 3 else None)
         for c in "ABC" for u in range(12)]) for k in range(5)}
    reports = [alpha_report(tables, ["jaccard", "masi"], jobs=jobs) for jobs in JOBS]
    for report in reports[1:]:
        assert report.equals(reports[0])


# ------------------------------------------------------------------ bootstrap
@pytest.mark.parametrize("kind", ["units", "krippendorff"])
def test_bootstrap_resamples_are_the_same_whatever_the_threads(kind: str) -> None:
    rng = np.random.default_rng(8)
    table = CodingTable.from_records([(c, u, int(rng.integers(0, 4))) for c in "ABC"
                                      for u in range(300) if rng.random() < 0.9])
    stats = block_stats(table)
    run = bootstrap_alpha if kind == "units" else krippendorff_bootstrap
    found = [run(stats, "ordinal", n=1200, seed=5, jobs=jobs) for jobs in (*JOBS, None)]
    for other in found[1:]:
        assert np.array_equal(found[0].alphas, other.alphas, equal_nan=True)
        assert found[0].ci == other.ci


# ------------------------------------------------------------------ union values
@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 11), st.integers(0, 4)), max_size=30),
       st.sampled_from(["empty", "missing"]))
def test_union_values_follow_their_definition(members: list[tuple[int, int]],
                                              unmarked: str) -> None:
    """Each unit's value is the union of the other units of all its SCUs, by plain sets."""
    other = [(u, 0) for u in range(0, 12, 2)]
    table = memberships_table([np.array(members, dtype=np.int64).reshape(-1, 2),
                               np.array(other, dtype=np.int64)], 12, ["A", "B"],
                              unmarked=unmarked)
    for unit in range(12):
        scus = {s for u, s in members if u == unit}
        if not scus:
            expected = frozenset() if unmarked == "empty" else None
        else:
            expected = frozenset(u for u, s in members if s in scus) - {unit}
        assert table.value("A", unit) == expected


# ------------------------------------------------------------------ the command line
CODINGS = "coder,unit,document,value\n" + "".join(
    f"{c},u{u},d{u % 4},{(u * 7 + (c == 'B') * (u % 3 == 0)) % 3}\n"
    for c in "AB" for u in range(40))


@pytest.mark.parametrize("command", ["table", "pyramid", "pan", "coref", "trees"])
def test_every_working_command_takes_jobs(command: str) -> None:
    from clusteragree.cli import build_parser

    parser = build_parser()
    files = ["x", "y"] if command != "table" else ["x"]
    for value, expected in (("3", 3), ("0", 0), ("-1", -1)):
        args = parser.parse_args([command, *files, "--jobs", value])
        assert args.jobs == expected
    assert parser.parse_args([command, *files]).jobs is None  # every core


@pytest.mark.parametrize("value", ["x", "1.5", "", "2e3"])
def test_a_bad_jobs_value_is_a_usage_error(value: str, tmp_path: Path, cli) -> None:
    path = tmp_path / "codings.csv"
    path.write_text(CODINGS)
    code, out, err = cli("table", str(path), "--jobs", value)
    assert code == 2 and out == ""
    assert "usage: clusteragree table" in err and "--jobs" in err
    assert "Traceback" not in err


def test_the_command_line_gives_the_same_results_whatever_jobs(tmp_path: Path, cli,
                                                               monkeypatch) -> None:
    import clusteragree.core.frames as frames

    monkeypatch.setattr(frames, "POOL_CELLS", 0)
    monkeypatch.setattr(frames, "RUNNING_POOL_CELLS", 0)
    path = tmp_path / "codings.csv"
    path.write_text(CODINGS)
    outputs = []
    for jobs in ("1", "2", "3"):
        code, out, _ = cli("table", str(path), "--distance", "nominal", "--ci", "0.9",
                           "--seed", "3", "--jobs", jobs, "-f", "json")
        assert code == 0
        outputs.append(json.loads(out))
    assert outputs[0] == outputs[1] == outputs[2]  # jobs is not in the signature either
