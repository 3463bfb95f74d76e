"""Benchmark: coreference scoring against its peers, on the same files, in one run.

Generates the pair of CoNLL-2012 files of ``bench_coref.py`` (``--tokens``, default 10^6) and
runs each tool in a child process of its own, timing the whole process (start-up, reading and
scoring; best of ``--repeat``) and taking its peak resident memory (``ru_maxrss`` from
``wait4``, through a small launcher process so that the benchmark's own memory is not counted):

* clusteragree: ``read_conll`` of both files and ``coref_metrics`` (MUC, B-cubed, CEAFm, CEAFe,
  BLANC, LEA and mention identification, both directions);
* scorch (the ``scorch`` package, if installed): it reads one JSON file per document, so each
  CoNLL file is first converted with its own converter (``python -m scorch.conll``); the
  conversion is not timed. Its directory mode averages per-document scores weighted by mention
  counts, so its values are expected to differ from the summed counts of the official scorer
  for some metrics; the table says which agree;
* the official CoNLL reference scorer v8.01 (``perl scorer.pl all KEY RESPONSE none``), given
  with ``--perl-scorer PATH`` (skipped with a message without it). It has no LEA.

Then the values: clusteragree's recall, precision and F1 against each peer's, to the precision
the peer prints (the Perl scorer: hundredths of a percent), and the time ratios.

Usage::

    python scripts/bench_coref_peers.py [--tokens 1000000] [--perl-scorer PATH] [--repeat 3]
                                        [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _cli import printed_to
from bench_coref import write_pair

ROOT = Path(__file__).resolve().parent.parent
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions")
OURS = """
import json, sys
from clusteragree.coref import coref_metrics, read_conll
a, b = read_conll(sys.argv[1]), read_conll(sys.argv[2])
frame = coref_metrics([a, b], coders=["A", "B"])
rows = frame[frame["key"] == "A"]
print(json.dumps({r.metric: [r.recall, r.precision, r.f1] for r in rows.itertuples()}))
"""
PERL_NAMES = {"muc": "muc", "bcub": "bcub", "ceafm": "ceafm", "ceafe": "ceafe",
              "blanc": "blanc"}
SCORCH_NAMES = {"MUC": "muc", "B³": "bcub", "CEAF_m": "ceafm", "CEAF_e": "ceafe",
                "BLANC": "blanc"}
_PERCENT = re.compile(r"Recall: \(.*?\) ([\d.]+)%\s+Precision: \(.*?\) ([\d.]+)%\s+F1: ([\d.]+)%")


# Children are started by this small launcher, which reports their wall time and peak memory:
# a child forked straight from the benchmark would count the benchmark's own memory at the fork
# in its ru_maxrss (Linux keeps the high-water mark across exec).
LAUNCH = """
import os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:])
_, status, usage = os.wait4(child.pid, 0)
sys.stderr.write(f"\\nLAUNCHED {time.perf_counter() - start} {usage.ru_maxrss}\\n")
sys.exit(os.waitstatus_to_exitcode(status))
"""


def run(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Wall-clock seconds, peak resident memory (MB) and standard output of a child."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        done = subprocess.run([sys.executable, "-c", LAUNCH, *command], stdout=out,
                              stderr=err, env=env, check=False)
        out.seek(0)
        err.seek(0)
        errors = err.read().decode(errors="replace")
        if done.returncode != 0:
            raise SystemExit(f"{command[0]} failed ({done.returncode}): {errors[-2000:]}")
        seconds, rss = errors.rsplit("LAUNCHED ", 1)[1].split()[:2]
        return float(seconds), int(rss) / 1024, out.read().decode("utf-8", errors="replace")


def best_of(command: list[str], repeat: int, env: dict[str, str] | None = None
            ) -> tuple[float, float, str]:
    runs = [run(command, env) for _ in range(repeat)]
    return min(r[0] for r in runs), max(r[1] for r in runs), runs[-1][2]


def parse_perl(text: str) -> dict[str, list[float]]:
    """Recall, precision and F1 (fractions) of each metric from ``scorer.pl all`` output."""
    out: dict[str, list[float]] = {}
    for block in text.split("METRIC ")[1:]:
        name = block.split(":", 1)[0].strip()
        lines = block.splitlines()
        if "mentions" not in out:
            ident = next(ln for ln in lines if ln.startswith("Identification of Mentions"))
            out["mentions"] = [float(x) / 100 for x in _PERCENT.search(ident).groups()]  # type: ignore[union-attr]
        final = [ln for ln in lines if ln.startswith(("Coreference: Recall", "BLANC: Recall"))]
        if name in PERL_NAMES and final:
            out[PERL_NAMES[name]] = [float(x) / 100 for x in _PERCENT.search(final[-1]).groups()]  # type: ignore[union-attr]
    return out


def parse_scorch(text: str) -> dict[str, list[float]]:
    out = {}
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        if name in SCORCH_NAMES:
            out[SCORCH_NAMES[name]] = [float(v.split("=")[1]) for v in rest.split()]
    return out


def agrees(mine: float, theirs: float, tool: str) -> bool:
    """Whether a percentage agrees with a peer's to the precision it prints: the Perl scorer
    truncates to hundredths (``int(x * 10000) / 100``), scorch prints every digit."""
    if tool.startswith("Perl"):
        return theirs - 1e-7 <= mine < theirs + 0.01 + 1e-7
    return abs(mine - theirs) <= 1e-7


def to_scorch(conll: Path, folder: Path) -> int:
    """One scorch JSON file per document (its input: entity -> mention ids). Scorch's own
    converter reads a document sentence by sentence and refuses mentions that cross a blank
    line, which the generated files have, so the conversion uses clusteragree's reader."""
    from clusteragree.coref import read_conll

    folder.mkdir()
    corpus = read_conll(conll)
    for d, doc in enumerate(corpus.documents.values()):
        clusters = {e: [f"{m.start}-{m.end}" for m in ms] for e, ms in doc.chains.items()}
        (folder / f"doc{d:07d}.json").write_text(json.dumps(
            {"name": doc.name, "type": "clusters", "clusters": clusters}))
    return len(corpus.documents)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of clusteragree and scorch, best taken (%(default)s)")
    parser.add_argument("--perl-repeat", type=int, default=1,
                        help="runs of the Perl scorer (%(default)s)")
    parser.add_argument("--perl-scorer", type=Path,
                        help="the official scorer.pl (CoNLL reference scorer v8.01)")
    parser.add_argument("--out", type=Path,
                        help="also write the report to DIR/bench_coref_peers.txt")
    args = parser.parse_args()
    with printed_to(args.out, "bench_coref_peers.txt"), tempfile.TemporaryDirectory() as tmp:
        pa, pb = write_pair(Path(tmp), args.tokens, args.seed)
        print(f"{args.tokens:,} tokens per file ({pa.stat().st_size / 2**20:.1f} MB); "
              "whole child processes, best of the runs")
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        times: dict[str, tuple[float, float]] = {}
        values: dict[str, dict[str, list[float]]] = {}
        t, mem, out = best_of([sys.executable, "-c", OURS, str(pa), str(pb)], args.repeat, env)
        times["clusteragree"], values["clusteragree"] = (t, mem), json.loads(out)
        try:
            import scorch  # noqa: F401
        except ImportError:
            print("scorch: not installed, skipped")
        else:
            gold, system = Path(tmp) / "gold", Path(tmp) / "sys"
            count = to_scorch(pa, gold), to_scorch(pb, system)
            print(f"scorch: {count[0]:,} JSON files per side (one per document, its input), "
                  "converted from the CoNLL files before timing (not timed)")
            t, mem, out = best_of([sys.executable, "-m", "scorch.main", str(gold), str(system)],
                                  args.repeat)
            times["scorch"], values["scorch"] = (t, mem), parse_scorch(out)
        perl = args.perl_scorer
        if perl is None or not perl.is_file() or shutil.which("perl") is None:
            print("Perl scorer: not given (--perl-scorer PATH) or perl missing, skipped")
        else:
            t, mem, out = best_of(["perl", str(perl), "all", str(pa), str(pb), "none"],
                                  args.perl_repeat)
            times["Perl scorer v8.01"], values["Perl scorer v8.01"] = (t, mem), parse_perl(out)
        ours = times["clusteragree"][0]
        print(f"\n{'tool':<20} {'seconds':>8} {'peak MB':>8} {'time / ours':>12}")
        for tool, (t, mem) in times.items():
            print(f"{tool:<20} {t:8.2f} {mem:8.0f} {t / ours:11.1f}x")
        print("\nrecall / precision / F1 in %, A as key (clusteragree | peer; = agrees to the "
              "peer's printed precision). Scorch's directory mode averages per-document scores "
              "weighted by mention counts and adds response-only mentions to the key as "
              "singletons, so it is not expected to give the official scorer's summed counts")
        for tool, got in values.items():
            if tool == "clusteragree":
                continue
            for m in METRICS:
                if m not in got:
                    continue
                mine = [100 * x for x in values["clusteragree"][m]]
                theirs = [100 * x for x in got[m]]
                same = all(agrees(x, y, tool) for x, y in zip(mine, theirs, strict=True))
                print(f"  {tool:<18} {m:<9} " + " ".join(f"{x:7.3f}" for x in mine) + " | "
                      + " ".join(f"{y:7.3f}" for y in theirs) + ("  =" if same else "  differs"))


if __name__ == "__main__":
    main()
