"""The mutation campaign of scripts/fuzz_campaign.py: its instrument, and a small campaign.

All slow (each input runs in a forked child). The small campaign must end with every outcome a
result, an input error or a usage error; it fails on the main branch as long as the readers'
fixes of issue 11 have not all landed (that is expected: it is the check they are measured by).
The other tests check the instrument itself: a child that raises, escapes, aborts, hangs or
runs out of memory is classified as such, with the place in the code.
"""

from __future__ import annotations

import importlib.util
import math
import os
import random
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "fuzz_campaign.py"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not hasattr(os, "fork"), reason="the campaign forks")]


@pytest.fixture(scope="module")
def fc() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_campaign", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_campaign"] = module
    spec.loader.exec_module(module)
    return module


#: The campaign's readers, named here so that the campaign can be cut into one test per
#: reader at collection (loading the script then would set its one-thread environment for the
#: whole session); test_the_small_campaign_covers_every_reader checks the list.
READERS = ["table-csv", "table-ml-csv", "table-ml-json", "pyramid", "pan", "coref-conll",
           "coref-corefud", "coref-brat", "trees-conllu", "trees-bracket",
           "export-label-studio", "export-doccano", "export-prodigy", "trees-dirs"]


def _table_case(fc: ModuleType, argv: tuple[str, ...] = ("table", "x.csv")):
    return fc.Case("table-csv", {"x.csv": b"coder,unit,labels\nA,1,a\nB,1,a\nA,2,b\nB,2,c\n"},
                   "x.csv", list(argv), [], 0)


def _broken(monkeypatch: pytest.MonkeyPatch, behave) -> None:
    """The table command replaced (in this process, so in the forked child) by ``behave``."""
    import clusteragree.cli.table as table

    def run(args):
        behave()
        return 0

    monkeypatch.setattr(table, "run", run, raising=False)
    import clusteragree.cli as cli

    parser = cli.build_parser()
    # the subcommand's run function is bound at registration: rebuild with the patched one
    monkeypatch.setattr(cli, "build_parser", lambda: _with_run(parser, run))


def _with_run(parser, run):
    for action in parser._subparsers._group_actions:
        for sub in action.choices.values():
            sub.set_defaults(run=run)
    return parser


def test_a_good_run_and_an_input_error(fc: ModuleType, tmp_path: Path) -> None:
    good = fc.run_case(_table_case(fc), tmp_path / "a", 4096, 60.0)
    assert good.outcome == "ok", good.stderr
    bad = fc.Case("table-csv", {"x.csv": b"coder,unit\n"}, "x.csv", ["table", "x.csv"], [], 0)
    assert fc.run_case(bad, tmp_path / "b", 4096, 60.0).outcome == "input-error"
    usage = _table_case(fc, ("table", "x.csv", "--no-such-option"))
    assert fc.run_case(usage, tmp_path / "c", 4096, 60.0).outcome == "usage"


def _raise_key_error() -> None:
    {}["missing"]


def test_an_internal_error_has_its_type_message_and_place(fc, tmp_path, monkeypatch) -> None:
    _broken(monkeypatch, _raise_key_error)
    got = fc.run_case(_table_case(fc), tmp_path / "a", 4096, 60.0)
    assert got.outcome == "internal-error"
    assert got.exception == "KeyError"
    assert got.signature.startswith("internal-error | KeyError: '…' | ")
    assert got.signature.endswith("test_fuzz_campaign.py:_raise_key_error")


def test_an_escaping_exception_is_uncaught(fc, tmp_path, monkeypatch) -> None:
    def escape() -> None:
        raise SystemExit(3)

    _broken(monkeypatch, escape)
    got = fc.run_case(_table_case(fc), tmp_path / "a", 4096, 60.0)
    assert got.outcome == "uncaught" and got.exception == "SystemExit"


def test_a_signal_is_a_crash_and_a_sleep_a_hang(fc, tmp_path, monkeypatch) -> None:
    _broken(monkeypatch, os.abort)
    got = fc.run_case(_table_case(fc), tmp_path / "a", 4096, 60.0)
    assert got.outcome == "crash" and got.signature.startswith("crash | SIGABRT | ")
    _broken(monkeypatch, lambda: time.sleep(30))
    got = fc.run_case(_table_case(fc), tmp_path / "b", 4096, 3.0)
    assert got.outcome == "hang"
    assert "test_fuzz_campaign.py" in got.signature  # the fault handler's dump says where


def test_the_memory_limit_is_a_crash(fc, tmp_path, monkeypatch) -> None:
    _broken(monkeypatch, lambda: bytearray(2 * 1024**3))
    got = fc.run_case(_table_case(fc), tmp_path / "a", 1024, 60.0)
    assert got.outcome == "crash" and "memory" in got.signature.lower()


def test_mutations_are_seeded_and_change_the_input(fc) -> None:
    for name, reader in fc.READERS.items():
        seeds = reader.seeds()
        assert seeds, name
        one = [fc.make_case(name, random.Random(5), seeds) for _ in range(3)]
        two = [fc.make_case(name, random.Random(5), seeds) for _ in range(3)]
        assert [c.files for c in one] == [c.files for c in two]
    cases = [fc.make_case("pyramid", random.Random(k), fc.READERS["pyramid"].seeds())
             for k in range(30)]
    assert sum(c.files[c.mutated] != fc.READERS["pyramid"].seeds()[c.seed_index][c.mutated]
               for c in cases) >= 25


def test_the_small_campaign_covers_every_reader(fc) -> None:
    assert list(fc.READERS) == READERS


@pytest.mark.parametrize("reader", READERS)
def test_a_small_campaign_has_no_traceback_crash_or_hang(fc, reader: str, capsys) -> None:
    """Fails on main until the fixes of issue 11 land (expected).

    One reader per test: a reader's inputs depend on the seed and its name alone, so these are
    the inputs of one campaign over every reader (``--readers`` all, ``--n 20 --seed 7``),
    in pieces that can run side by side."""
    result = fc.campaign([reader], 20, 7, timeout=60.0, jobs=1, mem_mb=4096)
    out = capsys.readouterr().out
    assert sum(sum(c.values()) for c in result.counts.values()) == 20
    assert not result.failures, out


def _fail_on_marker() -> None:
    if b"B,2" in Path("x.csv").read_bytes():
        raise IndexError("marker found")


def test_a_failure_is_reduced_to_what_triggers_it(fc, tmp_path, monkeypatch) -> None:
    _broken(monkeypatch, _fail_on_marker)
    case = _table_case(fc)
    got = fc.run_case(case, tmp_path / "a", 4096, 60.0)
    assert got.outcome == "internal-error"
    small, runs = fc.reduce_case(case, got.signature, tmp_path, 4096, 60.0, 200)
    assert small.files["x.csv"] == b"B,2"
    assert runs <= 200


def _chain(n: int, relation: str) -> str:
    return "".join(f"{i}\tw{i}\t_\t_\t_\t_\t{i - 1}\t{relation}\t_\t_\n"
                   for i in range(1, n + 1)) + "\n"


def _cwd(proc: Path) -> str:
    try:
        return os.readlink(proc / "cwd")
    except OSError:  # gone, or not ours to read
        return ""


def test_a_child_neither_uses_the_parents_pools_nor_leaves_its_own(fc, tmp_path) -> None:
    """A command with --jobs 2 in a child forked from a process that keeps a pool: given the
    parent's pool (whose threads stay with the parent) it waited until the time limit; and
    the pool it starts itself must be stopped with it (``os._exit`` skips the handler)."""
    from clusteragree.core import parallel
    from clusteragree.trees.edit_distance import FILL_POOL_CELLS, MAX_CELLS

    assert parallel.map_chunks(abs, [-1, -2, -3], jobs=2) == [1, 2, 3]  # the parent's pool
    n = math.isqrt(FILL_POOL_CELLS) + 10  # one pair of trees is work enough for a pool
    assert (n + 1) ** 2 <= MAX_CELLS
    small = "1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n2\tb\t_\t_\t_\t_\t1\tdep\t_\t_\n\n"
    files = {"a.conllu": (_chain(n, "dep") + small).encode(),
             "b.conllu": (_chain(n, "obj") + small).encode()}
    case = fc.Case("trees-conllu", files, "a.conllu",
                   ["trees", "a.conllu", "b.conllu", "--jobs", "2"], [], 0)
    got = fc.run_case(case, tmp_path / "a", 0, 60.0)
    assert got.outcome == "ok", f"{got.signature}\n{got.stderr}"
    procs = Path("/proc")
    if (procs / "self" / "cwd").exists():  # Linux: no process is left in the child's folder
        where = str(tmp_path / "a")
        assert not [p.name for p in procs.iterdir()
                    if p.name.isdigit() and _cwd(p).startswith(where)]
