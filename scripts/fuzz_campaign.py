"""A seeded mutation campaign over every command: counts of outcomes per reader.

Each input is a valid file of the project's fixtures (or one written here) with one to four
mutations (``tests/mutations.py``), given to the command line in a forked child process with a
time limit and a memory limit. Outcomes:

* ``ok`` (exit 0), ``input-error`` (exit 1), ``usage`` (exit 2): what a user should see;
* ``internal-error`` (exit 70: a traceback caught at the last moment), ``uncaught`` (an
  exception escaping the command, or another exit status), ``crash`` (killed by a signal:
  segmentation fault, abort, out of memory), ``hang`` (no answer within the time limit).

Usage::

    python scripts/fuzz_campaign.py [--n 500] [--seed 1] [--timeout 20] [--jobs 2]
                                    [--readers table-csv,pyramid,...] [--out DIR]

It prints a table of counts by reader and outcome, and the distinct failures (outcome and
last line of stderr) with a count. With ``--out DIR`` it writes ``summary.json`` and, for each
distinct failure, one example input with its command line and stderr. It writes nothing else.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import random
import resource
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from mutations import OPERATORS, mutate  # noqa: E402

FIX = ROOT / "corpora_fixtures"
GOOD = ("ok", "input-error", "usage")
OUTCOMES = (*GOOD, "internal-error", "uncaught", "crash", "hang")

CONLLU_TREES = (b"1\tI\t_\t_\t_\t_\t2\tnsubj\t_\t_\n2\tsaw\t_\t_\t_\t_\t0\troot\t_\t_\n"
                b"3-4\tthe\t_\t_\t_\t_\t_\t_\t_\t_\n3\tthe\t_\t_\t_\t_\t4\tdet\t_\t_\n"
                b"4\tman\t_\t_\t_\t_\t2\tobj\t_\t_\n\n1\tIt\t_\t_\t_\t_\t2\tnsubj\t_\t_\n"
                b"2\trained\t_\t_\t_\t_\t0\troot\t_\t_\n\n")
BRACKETS = b"(S (NP D N) (VP V (NP D A N)))\n(S (NP N) (VP V))\n"
JSON_LABELS = (b'[{"item": "i1", "annotator": "A", "label": "x", "rank": 1},\n'
               b' {"item": "i1", "annotator": "A", "label": "y", "rank": 2},\n'
               b' {"item": "i1", "annotator": "B", "label": "x", "rank": 1},\n'
               b' {"item": "i2", "annotator": "A", "label": "z"},\n'
               b' {"item": "i2", "annotator": "B", "label": "z"}]\n')


@dataclass(frozen=True)
class Reader:
    """Files to write (one of them mutated) and the command lines to run on them."""

    files: Callable[[], dict[str, bytes]]
    mutated: str
    argvs: tuple[tuple[str, ...], ...]


def _read(*parts: str) -> bytes:
    return FIX.joinpath(*parts).read_bytes()


def _pair(name: str, data: bytes) -> dict[str, bytes]:
    return {f"a{name}": data, f"b{name}": data}


READERS: dict[str, Reader] = {
    "table-csv": Reader(lambda: {"x.csv": _read("multilabel_example.csv")}, "x.csv",
                        (("table", "x.csv"), ("table", "x.csv", "-f", "json", "--strict"))),
    "table-scalar": Reader(lambda: {"x.csv": _read("krippendorff2011.csv")}, "x.csv",
                           (("table", "x.csv", "--scalar", "--distance", "nominal,ordinal,"
                             "interval,ratio"), ("table", "x.csv", "--scalar", "--distance",
                                                 "nominal", "-f", "json"))),
    "table-ml-csv": Reader(lambda: {"x.csv": _read("multilabel_ranked.csv")}, "x.csv",
                           (("table", "x.csv"), ("table", "x.csv", "-f", "json"))),
    "table-ml-json": Reader(lambda: {"x.json": JSON_LABELS}, "x.json",
                            (("table", "x.json"), ("table", "x.json", "-f", "json"))),
    "pyramid": Reader(lambda: {"a.pyr": _read("passonneau2006", "fig1-A1.pyr"),
                               "b.pyr": _read("passonneau2006", "fig1-A2.pyr")}, "a.pyr",
                      (("pyramid", "a.pyr", "b.pyr"),
                       ("pyramid", "a.pyr", "b.pyr", "--units", "spans", "-f", "json"),
                       ("pyramid", "a.pyr", "b.pyr", "--strict"))),
    "pan": Reader(lambda: {"A.D0901.M.100.A.1.pan": _read("pyramid-quirks", "peer.pan"),
                           "B.D0901.M.100.A.1.pan": _read("pyramid-quirks", "peer.pan")},
                  "A.D0901.M.100.A.1.pan",
                  (("pan", "A.D0901.M.100.A.1.pan", "B.D0901.M.100.A.1.pan", "--scores"),
                   ("pan", "A.D0901.M.100.A.1.pan", "B.D0901.M.100.A.1.pan", "-f", "json"))),
    "coref-conll": Reader(lambda: {"a.conll": _read("coref", "annotator-a.conll"),
                                   "b.conll": _read("coref", "annotator-b.conll")}, "a.conll",
                          (("coref", "a.conll", "b.conll"),
                           ("coref", "a.conll", "b.conll", "--lenient", "-f", "json"),
                           ("coref", "a.conll", "b.conll", "--units", "words"))),
    "coref-corefud": Reader(
        lambda: _pair(".conllu", next(iter(sorted((FIX / "coref" / "corefud").glob(
            "*.conllu")))).read_bytes()), "a.conllu",
        (("coref", "a.conllu", "b.conllu"), ("coref", "a.conllu", "b.conllu", "--lenient"))),
    "coref-brat": Reader(lambda: {"A/story.ann": _read("coref", "brat", "A", "story.ann"),
                                  "B/story.ann": _read("coref", "brat", "B", "story.ann"),
                                  "text/story.txt": _read("coref", "brat", "text",
                                                          "story.txt")}, "A/story.ann",
                         (("coref", "A", "B", "--text-dir", "text"),
                          ("coref", "A", "B", "--text-dir", "text", "--units", "words",
                           "-f", "json"))),
    "brat-text": Reader(lambda: {"A/story.ann": _read("coref", "brat", "A", "story.ann"),
                                 "B/story.ann": _read("coref", "brat", "B", "story.ann"),
                                 "text/story.txt": _read("coref", "brat", "text",
                                                         "story.txt")}, "text/story.txt",
                        (("coref", "A", "B", "--text-dir", "text"),)),
    "trees-conllu": Reader(lambda: _pair(".conllu", CONLLU_TREES), "a.conllu",
                           (("trees", "a.conllu", "b.conllu", "--acc"),
                            ("trees", "a.conllu", "b.conllu", "--roots", "many", "--cycles",
                             "drop", "-f", "json"))),
    "trees-bracket": Reader(lambda: _pair(".tree", BRACKETS), "a.tree",
                            (("trees", "a.tree", "b.tree", "--acc"),
                             ("trees", "a.tree", "b.tree", "--words"))),
    "trees-dirs": Reader(lambda: {"A/doc1-x.conllu": CONLLU_TREES,
                                  "B/doc1-x.conllu": CONLLU_TREES,
                                  "A/doc2-x.conllu": CONLLU_TREES,
                                  "B/doc2-y.conllu": CONLLU_TREES},
                         "A/doc1-x.conllu", (("trees", "--dirs", "A", "B", "--acc"),)),
}


def _child(argv: list[str], workdir: Path, out: Path, err: Path, mem_mb: int) -> None:
    """In the forked child: limit memory, run the command, exit with its status."""
    code = 99
    try:
        if mem_mb:
            limit = mem_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        os.chdir(workdir)
        with open(out, "w") as o, open(err, "w") as e:
            os.dup2(o.fileno(), 1)
            os.dup2(e.fileno(), 2)
            sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 - the child's streams
            sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
            from clusteragree.cli import main

            try:
                code = main(argv)
            except SystemExit as done:
                print(f"uncaught: SystemExit({done.code})", file=sys.stderr)
                code = 98
            except BaseException as exc:  # the command must not let one escape
                print(f"uncaught: {type(exc).__name__}: {exc}", file=sys.stderr)
                code = 98
            sys.stdout.flush()
            sys.stderr.flush()
    finally:
        os._exit(code if isinstance(code, int) else 99)


def _classify(status: int | None) -> str:
    if status is None:
        return "hang"
    if os.WIFSIGNALED(status):
        return "crash"
    code = os.WEXITSTATUS(status)
    return {0: "ok", 1: "input-error", 2: "usage", 70: "internal-error"}.get(code, "uncaught")


def _signature(outcome: str, status: int | None, stderr: str) -> str:
    if outcome == "crash" and status is not None:
        return f"crash: signal {signal.Signals(os.WTERMSIG(status)).name}"
    if outcome == "hang":
        return "hang"
    last = [line for line in stderr.splitlines() if line.strip()]
    text = last[-1] if last else ""
    text = text.split(": internal error: ", 1)[-1]
    return f"{outcome}: {text[:160]}"


@dataclass
class Run:
    reader: str
    argv: list[str]
    workdir: Path
    pid: int
    started: float
    out: Path
    err: Path
    data: bytes


def campaign(names: list[str], n: int, seed: int, timeout: float, jobs: int, mem_mb: int,
             out_dir: Path | None) -> dict[str, Counter[str]]:
    """Run the campaign; return counts by reader and outcome (and write --out)."""
    from clusteragree.cli import build_parser

    build_parser()  # imports every subcommand and its library once, inherited by each child
    for module in ("clusteragree.core", "clusteragree.pyramids", "clusteragree.coref",
                   "clusteragree.labels", "clusteragree.trees", "clusteragree.report"):
        for name in getattr(importlib.import_module(module), "__all__", ()):
            getattr(importlib.import_module(module), name)

    with contextlib.suppress(Exception):  # compile the numba kernel once, before forking
        from clusteragree.trees import ted

        ted(("a", (("b", ()),)), ("a", ()))
    rnd = random.Random(seed)
    tmp = Path(tempfile.mkdtemp(prefix="clusteragree-campaign-"))
    counts: dict[str, Counter[str]] = {name: Counter() for name in names}
    failures: dict[str, list[Run | int]] = {}
    queue = []
    for name in names:
        reader = READERS[name]
        seeds = reader.files()
        for k in range(n):
            data = seeds[reader.mutated]
            for op in rnd.sample(OPERATORS, rnd.randint(1, 4)):
                data = mutate(data, op, rnd)
            queue.append((name, k, data, list(rnd.choice(reader.argvs)), seeds))
    running: list[Run] = []
    try:
        while queue or running:
            while queue and len(running) < jobs:
                name, k, data, argv, seeds = queue.pop(0)
                workdir = tmp / f"{name}-{k}"
                for rel, content in seeds.items():
                    (workdir / rel).parent.mkdir(parents=True, exist_ok=True)
                    (workdir / rel).write_bytes(content)
                (workdir / READERS[name].mutated).write_bytes(data)
                outp, errp = workdir / ".stdout", workdir / ".stderr"
                pid = os.fork()
                if pid == 0:
                    _child(argv, workdir, outp, errp, mem_mb)
                running.append(Run(name, argv, workdir, pid, time.monotonic(), outp, errp,
                                   data))
            time.sleep(0.002)
            for run in list(running):
                pid, status = os.waitpid(run.pid, os.WNOHANG)
                if pid == 0 and time.monotonic() - run.started < timeout:
                    continue
                final: int | None = status if pid else None
                if pid == 0:
                    os.kill(run.pid, signal.SIGKILL)
                    os.waitpid(run.pid, 0)
                running.remove(run)
                outcome = _classify(final)
                counts[run.reader][outcome] += 1
                if outcome not in GOOD:
                    stderr = run.err.read_text(errors="replace") if run.err.exists() else ""
                    key = f"{run.reader} | {_signature(outcome, final, stderr)}"
                    entry = failures.setdefault(key, [0])
                    entry[0] = int(entry[0]) + 1  # type: ignore[call-overload]
                    if len(entry) == 1:
                        entry.append(run)
                        _keep(run, stderr, key, out_dir)
                else:
                    shutil.rmtree(run.workdir, ignore_errors=True)
    finally:
        for run in running:
            with contextlib.suppress(ProcessLookupError):
                os.kill(run.pid, signal.SIGKILL)
        shutil.rmtree(tmp, ignore_errors=True)
    distinct = {key: int(v[0]) for key, v in failures.items()}  # type: ignore[call-overload]
    _report(counts, distinct, n, seed, out_dir)
    return counts


def _keep(run: Run, stderr: str, key: str, out_dir: Path | None) -> None:
    if out_dir is None:
        return
    folder = out_dir / f"failure-{abs(hash(key)) % 10**8:08d}"
    shutil.copytree(run.workdir, folder, dirs_exist_ok=True)
    (folder / "argv.json").write_text(json.dumps({"argv": run.argv, "failure": key}, indent=1))
    (folder / "stderr.txt").write_text(stderr)


def _report(counts: dict[str, Counter[str]], failures: dict[str, int], n: int, seed: int,
            out_dir: Path | None) -> None:
    width = max(len(r) for r in counts)
    print(f"{'reader':<{width}}  " + "  ".join(f"{o:>14}" for o in OUTCOMES))
    for reader, c in counts.items():
        print(f"{reader:<{width}}  " + "  ".join(f"{c[o]:>14}" for o in OUTCOMES))
    total = sum(counts.values(), Counter())
    print(f"{'total':<{width}}  " + "  ".join(f"{total[o]:>14}" for o in OUTCOMES))
    print(f"\n{sum(total.values())} inputs, seed {seed}; distinct failures: {len(failures)}")
    for key, count in sorted(failures.items(), key=lambda kv: -kv[1]):
        print(f"  {count:5d}  {key}")
    if out_dir is not None:
        summary = {"n_per_reader": n, "seed": seed,
                   "counts": {r: dict(c) for r, c in counts.items()},
                   "total": dict(total), "failures": failures}
        (out_dir / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=500, help="inputs per reader (default 500)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=20.0,
                        help="seconds before an input counts as a hang (default 20)")
    parser.add_argument("--jobs", type=int, default=2, help="children at once (default 2)")
    parser.add_argument("--mem-limit", type=int, default=4096,
                        help="address-space limit of each child in MB (0: none; default 4096)")
    parser.add_argument("--readers", default=",".join(READERS),
                        help="comma-separated among " + ",".join(READERS))
    parser.add_argument("--out", type=Path, help="directory for summary.json and failures")
    args = parser.parse_args(argv)
    names = [r.strip() for r in args.readers.split(",") if r.strip()]
    unknown = [r for r in names if r not in READERS]
    if unknown or args.n < 1 or args.jobs < 1:
        parser.error(f"unknown readers {unknown}" if unknown else "--n and --jobs must be >= 1")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
    counts = campaign(names, args.n, args.seed, args.timeout, args.jobs, args.mem_limit,
                      args.out)
    bad = sum(c[o] for c in counts.values() for o in OUTCOMES if o not in GOOD)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
