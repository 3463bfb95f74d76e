"""Time and peak memory of the CoNLL-U readers, vectorised path against line by line.

Writes a generated CoNLL-U file of about ``--tokens`` words for each reader (dependency trees
for :func:`clusteragree.trees.read_conll_trees`, CorefUD coreference for
:func:`clusteragree.coref.read_corefud`), reads it in a fresh Python process with ``fast=True``
and with ``fast=False`` (best of ``--repeat`` runs each) and prints the time, the peak resident
memory of that process (``ru_maxrss``), the same before reading (the interpreter with the
package imported, the baseline) and the file size.

Usage::

    python scripts/bench_readers.py [--tokens 1000000] [--repeat 3] [--out FILE]

``--out`` writes the figures as JSON; nothing is written otherwise (the generated files go to a
temporary directory, deleted at the end).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

#: The repository of this script: its children import the package from here, so that the
#: code measured is the code beside the script (``python -c`` puts the working directory first).
ROOT = Path(__file__).resolve().parent.parent

WORDS = ("the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "was", "police",
         "government", "minister", "élection", "court", "people", "report", "year")
RELS = ("nsubj", "obj", "det", "amod", "nmod", "case", "advmod", "conj", "cc", "punct")


def _heads(rng: np.random.Generator, n: int) -> list[int]:
    """Heads of a random projective-or-not tree over ``n`` words (1-based, 0 the root)."""
    order = rng.permutation(n) + 1
    heads = [0] * (n + 1)
    for k in range(1, n):
        heads[order[k]] = int(order[rng.integers(0, k)])
    return heads[1:]


def write_trees(path: Path, tokens: int, rng: np.random.Generator) -> None:
    """Sentences of 5 to 40 words, one comment line each, a multiword token now and then."""
    out: list[str] = []
    done, sent = 0, 0
    while done < tokens:
        n = int(rng.integers(5, 41))
        sent += 1
        out.append(f"# sent_id = s{sent}")
        for i, head in enumerate(_heads(rng, n), start=1):
            if sent % 50 == 0 and i == 2:
                out.append("2-3\tdu\t_\t_\t_\t_\t_\t_\t_\t_")
            word = WORDS[(i * 7 + sent) % len(WORDS)]
            out.append(f"{i}\t{word}\t{word}\tNOUN\t_\t_\t{head}\t{RELS[(i + head) % 10]}\t_\t_")
        out.append("")
        done += n
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def write_corefud(path: Path, tokens: int, rng: np.random.Generator) -> None:
    """Documents of 2000 words: mentions of 1 to 4 words of 50 entities, nested now and then."""
    out = ["# global.Entity = eid-etype-head-other"]
    done, doc = 0, 0
    while done < tokens:
        doc += 1
        out.append(f"# newdoc id = d{doc}")
        i = 0
        pending: dict[int, list[str]] = {}
        for t in range(2000):
            if i == 0 or i > 25:
                i = 1
                out.append(f"# sent_id = d{doc}-{t}")
            chunks = pending.pop(t, [])
            if rng.random() < 0.2 and t < 1995:
                e, n = int(rng.integers(1, 50)), int(rng.integers(1, 5))
                if n == 1:
                    chunks.append(f"(e{e}-person-1-)")
                else:
                    chunks.append(f"(e{e}-person-{int(rng.integers(1, n + 1))}-")
                    pending.setdefault(t + n - 1, []).insert(0, f"e{e})")
            misc = "Entity=" + "".join(chunks) if chunks else "_"
            word = WORDS[t % len(WORDS)]
            out.append(f"{i}\t{word}\t{word}\tNOUN\t_\t_\t0\troot\t_\t{misc}")
            i += 1
        done += 2000
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


_CHILD = """
import resource, sys, time, warnings
warnings.simplefilter("ignore")
from clusteragree.trees import read_conll_trees
from clusteragree.coref import read_corefud
reader = {"trees": read_conll_trees, "corefud": read_corefud}[sys.argv[1]]
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
start = time.perf_counter()
out = reader(sys.argv[2], fast=sys.argv[3] == "1")
took = time.perf_counter() - start
print(took, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, base)
"""


def measure(kind: str, path: Path, fast: bool, repeat: int) -> tuple[float, int, int]:
    """Best time, and the peak memory and the baseline (the interpreter with the package
    imported) of the best run, each run a fresh process."""
    runs = []
    for _ in range(repeat):
        done = subprocess.run([sys.executable, "-c", _CHILD, kind, str(path.resolve()),
                               str(int(fast))], check=True, capture_output=True, text=True,
                              cwd=ROOT)  # (the child imports the package beside it)
        took, peak, base = done.stdout.split()
        runs.append((float(took), int(peak), int(base)))
    return min(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tokens", type=int, default=1_000_000, help="words per file")
    parser.add_argument("--repeat", type=int, default=3, help="runs per reader (best kept)")
    parser.add_argument("--readers", default="trees,corefud", help="trees, corefud or both")
    parser.add_argument("--out", type=Path, help="write the figures as JSON to this path")
    parser.add_argument("--write", nargs=2, metavar=("READER", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.write:  # a child process writes the file: the reading processes are forked from
        kind, target = args.write  # a parent that never held it (peak memory is inherited)
        (write_trees if kind == "trees" else write_corefud)(Path(target), args.tokens,
                                                            np.random.default_rng(0))
        return
    figures = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.readers.split(","):
            path = Path(tmp) / f"{kind}.conllu"
            subprocess.run([sys.executable, __file__, "--tokens", str(args.tokens), "--write",
                            kind, str(path)], check=True)
            size = path.stat().st_size
            for fast in (False, True):
                took, peak, base = measure(kind, path, fast, args.repeat)
                figures.append({"reader": kind, "fast": fast, "tokens": args.tokens,
                                "file_mb": round(size / 2**20, 1), "seconds": round(took, 2),
                                "peak_mb": round(peak / 2**20, 1),
                                "baseline_mb": round(base / 2**20, 1),
                                "peak_over_file": round(peak / size, 2),
                                "above_baseline_over_file": round((peak - base) / size, 2)})
                print(f"{kind:8} {'new' if fast else 'old'}  {size / 2**20:7.1f} MB file  "
                      f"{took:7.2f} s  peak {peak / 2**20:7.1f} MB ({peak / size:.1f}x file; "
                      f"{(peak - base) / size:.1f}x above the {base / 2**20:.0f} MB baseline)")
    if args.out:
        args.out.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
