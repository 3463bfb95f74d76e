"""Benchmark: a synthetic pair of CoNLL-2012 files of 10^6 tokens, read and scored.

The generator writes documents of 500 tokens with realistic chains: about one mention per five
tokens, mentions of one to four tokens (some nested in a longer one), chain sizes with a long
tail, most mentions singletons. The second annotator misses 10% of the mentions, adds 10% new
ones and moves 10% to another chain of the document. Then, timing each stage: reading both files
(strict), alpha with mentions and with words as units (nominal, Jaccard, MASI, per document and
pooled), and the six metrics (MUC, B-cubed, CEAFm, CEAFe, BLANC, LEA) in both directions.

Usage: ``python scripts/bench_coref.py [--tokens 1000000] [--seed 7]``. Target: under 60 s.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _cli import printed_to

DOC = 500


def _document(rng: np.random.Generator, n: int) -> list[tuple[int, int, int]]:
    """Mentions (start, end exclusive, chain) of one document."""
    mentions = []
    pos = 0
    chains = 0
    while pos < n - 4:
        pos += int(rng.integers(1, 8))
        length = int(rng.choice([1, 1, 1, 2, 2, 3, 4]))
        if pos + length > n:
            break
        chain = int(rng.integers(0, chains)) if chains and rng.random() < 0.45 else chains
        chains += chain == chains
        mentions.append((pos, pos + length, chain))
        if length >= 3 and rng.random() < 0.3:  # a nested mention in the longer one
            inner = chains if rng.random() < 0.5 else int(rng.integers(0, chains))
            chains += inner == chains
            mentions.append((pos + length - 1, pos + length, inner))
        pos += length
    return mentions


def _perturb(rng: np.random.Generator, mentions: list[tuple[int, int, int]], n: int
             ) -> list[tuple[int, int, int]]:
    out = [m for m in mentions if rng.random() >= 0.10]
    top = max((c for _, _, c in mentions), default=0) + 1
    taken = {(s, e) for s, e, _ in out}
    for _ in range(len(mentions) // 10):
        s = int(rng.integers(0, n - 1))
        if (s, s + 1) not in taken:
            out.append((s, s + 1, int(rng.integers(0, top + 5))))
            taken.add((s, s + 1))
    return [(s, e, int(rng.integers(0, top)) if rng.random() < 0.10 else c) for s, e, c in out]


def _cells(mentions: list[tuple[int, int, int]], n: int) -> list[str]:
    opens: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    closes: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for s, e, c in mentions:
        if e - s == 1:
            opens[s].append((-1, c))
        else:
            opens[s].append((e, c))
            closes[e - 1].append((s, c))
    cells = []
    for t in range(n):
        chunks = [f"{c})" for s, c in sorted(closes[t], reverse=True)]
        chunks += [f"({c}" for e, c in sorted(opens[t], reverse=True) if e != -1]
        chunks += [f"({c})" for e, c in opens[t] if e == -1]
        cells.append("|".join(chunks) or "-")
    return cells


def write_pair(path: Path, tokens: int, seed: int) -> tuple[Path, Path]:
    rng = np.random.default_rng(seed)
    a_lines, b_lines = [], []
    for d in range(tokens // DOC):
        name = f"(bench/{d:05d}); part 000"
        a = _document(rng, DOC)
        b = _perturb(rng, a, DOC)
        for lines, mentions in ((a_lines, a), (b_lines, b)):
            lines.append(f"#begin document {name}")
            for t, cell in enumerate(_cells(mentions, DOC)):
                lines.append(f"bench/{d:05d}\t0\t{t}\tw{t % 97}\tNN\t*\t-\t-\t-\t-\t*\t{cell}")
                if t % 25 == 24:
                    lines.append("")
            lines.append("#end document")
    pa, pb = path / "a.conll", path / "b.conll"
    pa.write_text("\n".join(a_lines) + "\n")
    pb.write_text("\n".join(b_lines) + "\n")
    return pa, pb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, help="also write the report to DIR/bench_coref.txt")
    args = parser.parse_args()
    with printed_to(args.out, "bench_coref.txt"):
        from clusteragree.coref import coref_alpha, coref_metrics, read_conll

        with tempfile.TemporaryDirectory() as tmp:
            times: dict[str, float] = {}
            start = time.perf_counter()
            pa, pb = write_pair(Path(tmp), args.tokens, args.seed)
            times["generate and write (not scored)"] = time.perf_counter() - start
            t0 = time.perf_counter()
            a, b = read_conll(pa), read_conll(pb)
            times["read both files"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            mentions = coref_alpha([a, b], ["nominal", "jaccard", "masi"], coders=["A", "B"])
            times["alpha, mentions, 3 distances"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            words = coref_alpha([a, b], ["nominal", "jaccard", "masi"], units="words",
                                coders=["A", "B"])
            times["alpha, words, 3 distances"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            metrics = coref_metrics([a, b], coders=["A", "B"])
            times["6 metrics, both directions"] = time.perf_counter() - t0
            scored = sum(v for k, v in times.items() if "not scored" not in k)
        n_mentions = sum(len(d.mentions) for d in a.documents.values())
        print(f"{args.tokens:,} tokens, {len(a.documents):,} documents, "
              f"{n_mentions:,} mentions (A)")
        for stage, seconds in times.items():
            print(f"  {stage:<34} {seconds:7.2f} s")
        print(f"  {'read and scored, total':<34} {scored:7.2f} s (target: under 60 s)")
        for frame, label in ((mentions, "mentions"), (words, "words")):
            total = frame[frame["document"] == "TOTAL"]
            print(f"alpha ({label}): " + ", ".join(f"{r.distance} {r.alpha:.4f}"
                                                   for r in total.itertuples()))
        ab = metrics[metrics["key"] == "A"]
        print("F1 (A key): " + ", ".join(f"{r.metric} {r.f1:.4f}" for r in ab.itertuples()))


if __name__ == "__main__":
    main()
