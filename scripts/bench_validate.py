"""Time and peak memory of ``clusteragree validate`` on generated corpora of ``--tokens`` tokens
per annotator, two annotators, at level 3, against the floor of reading the same files with the
domain's reader alone, and against UD's validator (``udvalidate``, when installed) on the same
CoNLL-U files.

Generates, for each format asked: dependency trees in CoNLL-U (sentences of 5 to 30 tokens, a
projective tree each, the second annotator with one head in ten moved to the root), CorefUD
CoNLL-U (the same trees with entity mentions in MISC ``Entity``, a chain of two to five mentions
per sentence or two), CoNLL-2012 coreference (the same mentions in the last column), a codings
table
(``codings``: one CSV ``coder,unit,labels`` whose two coders, the annotators, code ``--tokens``
units each, labels drawn from five, one in ten differing; ``multilabel-csv`` and
``multilabel-json``: the same codings as a multi-label file, one label per row), INCEpTION's
WebAnno TSV 3.3 (``webanno-tsv``: one file per annotator, written by ``write_webanno_tsv`` of
scripts/bench_exports.py: POS on every token, named entities, coreference chains), DUCView
pyramids (``pyramid``: one
``.pyr`` per annotator of ``--tokens`` words, two model summaries of half as many words each,
one SCU per ten words with a contributor of five words in each summary, written by
:func:`clusteragree.pyramids.writers.pyramid_xml`) and span tables, where ``--tokens`` counts
the spans of each annotator (``spans-csv``: one table ``annotator,document,start,end,label``
of two annotators, documents of 1,000 spans each, labels drawn from ten; ``pygamma``: one
pygamma-agreement CSV, one continuum, of the same spans one after the other; the second
annotator differs on about 3 % of the spans: an end moved, a label changed, a span left out or
one added), and the JSON exports of annotation tools (``label-studio``, ``doccano``,
``prodigy``: one export of both annotators, written by scripts/bench_exports.py, of
``--tokens`` / 24 texts of 18 to 29 words, three to six spans each). Each run is a fresh
Python process; the report gives its time (wall clock, and CPU
time, which depends less on the load of a shared machine), its peak resident memory
(``VmHWM``, else ``ru_maxrss``) and the ratio to the floor and to the peer.

The target of issue 25: 10^6 tokens validated in under 5 s, memory bounded as for reading.

Usage::

    python scripts/bench_validate.py [--tokens 1000000]
        [--formats conllu,corefud,conll,codings,pyramid,multilabel-csv,multilabel-json,
                   spans-csv,pygamma,webanno-tsv,label-studio,doccano,prodigy]
        [--peer-tokens 100000] [--no-peer] [--out FILE]

``--peer-tokens`` runs ``udvalidate`` on a file of that many tokens (it is much slower) and the
ratio is taken per token. ``--out`` writes the figures as JSON; nothing else is written (the
generated files go to a temporary directory, deleted at the end).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The repository of this script: its children import the package from here, so that the
#: code measured is the code beside the script (``python -c`` puts the working directory first).
ROOT = Path(__file__).resolve().parent.parent

FORMATS = ("conllu", "corefud", "conll", "codings", "pyramid", "multilabel-csv",
           "multilabel-json", "spans-csv", "pygamma", "webanno-tsv", "label-studio", "doccano",
           "prodigy")
#: The JSON exports of annotation tools: one export of both annotators, written by
#: scripts/bench_exports.py, of ``--tokens`` / TOKENS_PER_TASK tasks (texts).
JSON_EXPORTS = ("label-studio", "doccano", "prodigy")
TOKENS_PER_TASK = 24  # (bench_exports' texts: 18 to 29 words and a full stop)
WORDS = ("the", "court", "said", "that", "police", "in", "Paris", "met", "report", "of", "and",
         "people", "year", "Zoë", "naïve")

_CHILD = """
import resource, sys, time
argv = sys.argv[1:]
start = time.perf_counter()
if argv[0] == "--read":
    import importlib
    kind, paths = argv[1], argv[2:]
    # the reader of each format (module, function); webanno-tsv through read_export
    readers = {"conll": ("clusteragree.coref.conll", "read_conll"),
               "corefud": ("clusteragree.coref.corefud", "read_corefud"),
               "codings": ("clusteragree.labels.table", "read_long_table"),
               "pyramid": ("clusteragree.pyramids.reader", "read_pyramid"),
               "multilabel-csv": ("clusteragree.labels.reader", "read_multilabel"),
               "multilabel-json": ("clusteragree.labels.reader", "read_multilabel"),
               "spans-csv": ("clusteragree.spans.readers", "read_span_table"),
               "pygamma": ("clusteragree.spans.readers", "read_pygamma_csv"),
               "webanno-tsv": ("clusteragree.exports.reading", "read_export"),
               "label-studio": ("clusteragree.exports.reading", "read_export"),
               "doccano": ("clusteragree.exports.reading", "read_export"),
               "prodigy": ("clusteragree.exports.reading", "read_export"),
               "conllu": ("clusteragree.trees.readers", "read_conll_trees")}
    where, name = readers[kind]
    read = getattr(importlib.import_module(where), name)
    for p in paths:
        read(p, kind) if kind in ("webanno-tsv", "label-studio", "doccano", "prodigy") else \
            read(p)
    code = 0
else:
    from clusteragree.cli import main
    code = main(argv)
took = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_SELF)
# the peak of this process's own memory: VmHWM where Linux gives it (ru_maxrss would count the
# memory the benchmark itself had when it started this process: Linux keeps the high-water
# mark across exec, and the benchmark grows as it writes the inputs)
peak = usage.ru_maxrss * 1024
try:
    with open("/proc/self/status", encoding="ascii") as status:
        peak = next(int(x.split()[1]) * 1024 for x in status if x.startswith("VmHWM:"))
except (OSError, StopIteration):
    pass
print(took, usage.ru_utime + usage.ru_stime, peak, code)
"""


def _sentences(tokens: int, seed: int) -> list[list[tuple[str, int]]]:
    """(word, head) per token, sentences of projective trees (each token's head the token
    before or after it, the first of the sentence the root)."""
    rng = random.Random(seed)
    out, made = [], 0
    while made < tokens:
        n = min(rng.randint(5, 30), tokens - made)
        root = rng.randint(1, n)
        rows = [(rng.choice(WORDS), 0 if i == root else (i + 1 if i < root else i - 1))
                for i in range(1, n + 1)]
        out.append(rows)
        made += n
    return out


def _mentions(sentence: int, n: int, rng: random.Random) -> list[tuple[int, int, int]]:
    """(start, end, entity) mentions of one sentence, nested or apart, never crossing."""
    spans = []
    pos = 1
    while pos + 1 <= n and len(spans) < 3:
        start = pos + rng.randint(0, 2)
        end = min(n, start + rng.randint(0, 2))
        if start > n:
            break
        spans.append((start, end, rng.randint(1, 1 + sentence // 2)))
        pos = end + 2
    return spans


def write_codings(path: Path, tokens: int) -> None:
    """Two coders, A and B, each coding ``tokens`` units; B differs from A on one unit in
    ten."""
    rng = random.Random(0)
    labels = ("positive", "negative", "neutral", "mixed", "other")
    with open(path, "w", encoding="utf-8") as out:
        out.write("coder,unit,labels\n")
        for k in range(tokens):
            a = rng.choice(labels)
            b = rng.choice(labels) if rng.random() < 0.1 else a
            out.write(f"A,u{k},{a}\nB,u{k},{b}\n")


def write_multilabel(path: Path, tokens: int) -> None:
    """The codings of :func:`write_codings` as a multi-label file (one label per row):
    ``item,annotator,label`` CSV, or a JSON list of such objects."""
    rng = random.Random(0)
    labels = ("positive", "negative", "neutral", "mixed", "other")
    rows = []
    for k in range(tokens):
        a = rng.choice(labels)
        b = rng.choice(labels) if rng.random() < 0.1 else a
        rows += [(f"u{k}", "A", a), (f"u{k}", "B", b)]
    with open(path, "w", encoding="utf-8") as out:
        if path.suffix == ".json":
            json.dump([{"item": i, "annotator": c, "label": lab} for i, c, lab in rows], out)
        else:
            out.write("item,annotator,label\n")
            out.writelines(f"{i},{c},{lab}\n" for i, c, lab in rows)


def span_rows(spans: int, continuum: bool = False) -> list[tuple[str, str, int, int, str]]:
    """``(annotator, document, start, end, label)`` of two annotators, A and B, with
    ``spans`` spans each (B about as many): documents of 1,000 spans of A, each span 1 to 20
    positions long, 0 to 10 after the one before (one in twenty overlapping it instead),
    labels drawn from ten; B's spans are A's but for one in about thirty: its end moved, its
    label changed, left out, or a span added after it. With ``continuum`` the offsets run on
    from one document to the next (one continuum)."""
    rng = random.Random(3)
    labels = [f"L{k}" for k in range(10)]
    a_rows: list[tuple[str, str, int, int, str]] = []
    b_rows: list[tuple[str, str, int, int, str]] = []
    pos = 0
    for k in range(spans):
        doc = f"d{k // 1000}"
        if k % 1000 == 0 and not continuum:
            pos = 0
        start = pos - rng.randint(1, 3) if pos > 3 and rng.random() < 0.05 else \
            pos + rng.randint(0, 10)
        end = start + rng.randint(1, 20)
        pos = max(pos, end)
        label = rng.choice(labels)
        a_rows.append(("A", doc, start, end, label))
        change = rng.random()
        if change < 0.01:
            b_rows.append(("B", doc, start, end + 1, label))
        elif change < 0.02:
            b_rows.append(("B", doc, start, end, rng.choice(labels)))
        elif change < 0.025:
            continue
        elif change < 0.03:
            b_rows += [("B", doc, start, end, label), ("B", doc, end, end + 2, label)]
        else:
            b_rows.append(("B", doc, start, end, label))
    return a_rows + b_rows


def write_spans(path: Path, spans: int, pygamma: bool) -> None:
    """The spans of :func:`span_rows` as a span table, or as pygamma-agreement's CSV (no
    header, ``annotator,category,start,end``, one continuum)."""
    with open(path, "w", encoding="utf-8") as out:
        if pygamma:
            out.writelines(f"{a},{lab},{s},{e}\n"
                           for a, _, s, e, lab in span_rows(spans, continuum=True))
        else:
            out.write("annotator,document,start,end,label\n")
            out.writelines(f"{a},{d},{s},{e},{lab}\n" for a, d, s, e, lab in span_rows(spans))


def write_pyramid(path: Path, tokens: int, annotator: int) -> None:
    """A pyramid of two model summaries of ``tokens // 2`` words (sentences of 20 words, one a
    line), one SCU per ten words of a summary with a contributor of five words in each; the
    second annotator's SCUs take one word less in one SCU in ten."""
    from clusteragree.pyramids.model import SCU, Contributor, Part, Pyramid
    from clusteragree.pyramids.writers import NIST_REGEX, _text_of, pyramid_xml
    rng = random.Random(20 + annotator)
    half = max(10, tokens // 2)
    words = [WORDS[k % len(WORDS)] for k in range(half)]
    body = "\n".join(" ".join(words[i:i + 20]) for i in range(0, half, 20))
    text, spans = _text_of([("D0001.M.250.A.A", body), ("D0001.M.250.A.B", body)])
    starts = []  # the offset of every word of a body, from its start
    pos = 0
    for i in range(0, half, 20):
        for w in words[i:i + 20]:
            starts.append(pos)
            pos += len(w) + 1
    scus = []
    for k in range(half // 10):
        size = 4 if annotator and rng.random() < 0.1 else 5
        contributors = []
        for summary in spans:
            lo = summary.body[0]
            start = lo + starts[10 * k]
            end = lo + starts[10 * k + size - 1] + len(words[10 * k + size - 1])
            label = text[start:end].replace("\n", "")
            contributors.append(Contributor(label, (Part(start, end, label),)))
        scus.append(SCU(k + 1, f"SCU {k + 1}", tuple(contributors)))
    pyramid = Pyramid(text, tuple(spans), tuple(scus), str(path), NIST_REGEX, "stored regex")
    path.write_text(pyramid_xml(pyramid), encoding="utf-8")


def write(kind: str, path: Path, tokens: int, annotator: int) -> None:
    if kind == "pyramid":
        write_pyramid(path, tokens, annotator)
        return
    sentences = _sentences(tokens, seed=1)
    rng = random.Random(10 + annotator)
    with open(path, "w", encoding="utf-8") as out:
        if kind == "conll":
            out.write("#begin document (bench); part 000\n")
        elif kind == "corefud":
            out.write("# newdoc id = bench\n"
                      "# global.Entity = eid-etype-head-other-infstat-minspan-identity\n")
        for s, rows in enumerate(sentences):
            mentions = _mentions(s, len(rows), random.Random(s)) if kind != "conllu" else []
            if annotator and mentions and rng.random() < 0.1:
                mentions = mentions[:-1]
            opens: dict[int, list[str]] = {}
            closes: dict[int, list[str]] = {}
            for start, end, e in mentions:
                if kind == "conll":
                    if start == end:
                        opens.setdefault(start, []).append(f"({e})")
                    else:
                        opens.setdefault(start, []).append(f"({e}")
                        closes.setdefault(end, []).append(f"{e})")
                else:
                    if start == end:
                        opens.setdefault(start, []).append(f"(e{e}--1)")
                    else:
                        opens.setdefault(start, []).append(f"(e{e}--1")
                        closes.setdefault(end, []).append(f"e{e})")
            if kind != "conll":
                out.write(f"# sent_id = s{s + 1}\n# text = {' '.join(w for w, _ in rows)}\n")
            root = next(i for i, (_, h) in enumerate(rows, 1) if h == 0)
            for i, (word, head) in enumerate(rows, 1):
                if annotator and head and rng.random() < 0.1:
                    head = root  # attached to the root instead: still a tree
                if kind == "conll":
                    coref = "|".join(opens.get(i, []) + closes.get(i, [])) or "-"
                    out.write(f"bench\t0\t{i - 1}\t{word}\tNN\t*\t-\t-\t-\t-\t*\t{coref}\n")
                    continue
                misc = "_"
                if kind == "corefud" and (i in opens or i in closes):
                    misc = "Entity=" + "".join(opens.get(i, [])) + "".join(closes.get(i, []))
                deprel = "root" if head == 0 else "dep"
                out.write(f"{i}\t{word}\t{word.lower()}\tX\t_\t_\t{head}\t{deprel}\t_\t{misc}\n")
            out.write("\n")
        if kind == "conll":
            out.write("#end document\n")


def measure(argv: list[str]) -> tuple[float, int, int, float]:
    """Wall-clock seconds, peak resident bytes, exit code and CPU seconds of one fresh
    process (the CPU time, user and system, depends less on the machine's load)."""
    done = subprocess.run([sys.executable, "-c", _CHILD, *argv], capture_output=True,
                          text=True, cwd=ROOT)  # (the child imports the package beside it)
    if done.returncode:
        raise SystemExit(f"{argv[:2]} failed:\n{done.stderr[-2000:]}")
    took, cpu, peak, code = done.stdout.split()[-4:]
    return float(took), int(peak), int(code), float(cpu)


def peer(path: Path, coref: bool) -> float | None:
    tool = shutil.which("udvalidate") or str(Path(sys.executable).parent / "udvalidate")
    if not Path(tool).exists():
        return None
    argv = [tool, "--lang", "ud", "--level", "2", "--max-err", "20", str(path)]
    if coref:
        argv.append("--coref")
    start = time.perf_counter()
    subprocess.run(argv, capture_output=True, text=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tokens", type=int, default=1_000_000,
                        help="tokens per annotator (span tables: spans per annotator)")
    parser.add_argument("--formats", default=",".join(FORMATS),
                        help="comma-separated among " + ", ".join(FORMATS))
    parser.add_argument("--peer-tokens", type=int, default=100_000,
                        help="tokens of the file given to udvalidate (default: %(default)s)")
    parser.add_argument("--no-peer", action="store_true", help="do not run udvalidate")
    parser.add_argument("--out", type=Path, help="write the figures as JSON to this path")
    args = parser.parse_args()
    kinds = [k.strip() for k in args.formats.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in FORMATS]
    if unknown:
        parser.error(f"unknown format(s) {', '.join(unknown)}")
    rows = []
    print(f"{args.tokens:,} tokens x 2 annotators; validate --level 3; floor = the reader "
          "alone on the same files; peer = udvalidate --level 2 (per token)")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds:
            suffix = {"conll": ".conll", "codings": ".csv", "pyramid": ".pyr"}.get(kind,
                                                                                  ".conllu")
            if kind == "codings":  # one table, its two coders the annotators
                files = [Path(tmp) / "codings.csv"]
                write_codings(files[0], args.tokens)
            elif kind in ("spans-csv", "pygamma"):  # one table, its two annotators
                files = [Path(tmp) / ("spans.csv" if kind == "spans-csv" else "talk.csv")]
                write_spans(files[0], args.tokens, kind == "pygamma")
            elif kind == "webanno-tsv":  # INCEpTION's files of one document, one a user
                sys.path.insert(0, str(Path(__file__).resolve().parent))
                from bench_exports import write_webanno_tsv
                write_webanno_tsv(Path(tmp) / "webanno", args.tokens, 2)
                files = sorted((Path(tmp) / "webanno").iterdir())
            elif kind in JSON_EXPORTS:  # one export of both annotators
                sys.path.insert(0, str(Path(__file__).resolve().parent))
                import bench_exports
                tasks = max(1, round(args.tokens / TOKENS_PER_TASK))
                target = Path(tmp) / {"label-studio": "export.json", "doccano": "doccano",
                                      "prodigy": "db-out.jsonl"}[kind]
                {"label-studio": bench_exports.write_label_studio,
                 "doccano": bench_exports.write_doccano,
                 "prodigy": bench_exports.write_prodigy}[kind](target, tasks, 2)
                files = [target]
            elif kind.startswith("multilabel"):  # one file, its two annotators
                files = [Path(tmp) / ("labels.json" if kind.endswith("json") else "labels.csv")]
                write_multilabel(files[0], args.tokens)
            else:
                files = [Path(tmp) / f"{kind}-{a}{suffix}" for a in (0, 1)]
                for a, f in enumerate(files):
                    write(kind, f, args.tokens, a)
            ours = measure(["validate", *map(str, files), "--input-format", kind, "--level",
                            "3", "-f", "json", "-o", str(Path(tmp) / "out.json")])
            floor = measure(["--read", kind, *map(str, files)])
            row = {"format": kind, "tokens": args.tokens, "annotators": 2,
                   "seconds": round(ours[0], 2), "exit": ours[2],
                   "cpu_seconds": round(ours[3], 2),
                   "floor_seconds": round(floor[0], 2),
                   "floor_cpu_seconds": round(floor[3], 2),
                   "over_floor": round(ours[0] / floor[0], 2),
                   "peak_mb": round(ours[1] / 2**20, 1),
                   "floor_peak_mb": round(floor[1] / 2**20, 1)}
            if kind in ("conllu", "corefud") and not args.no_peer:
                small = Path(tmp) / f"{kind}-peer{suffix}"
                write(kind, small, args.peer_tokens, 0)
                took = peer(small, kind == "corefud")
                if took is not None:
                    per_token = took / args.peer_tokens
                    row["peer_seconds_per_million"] = round(per_token * 1e6, 1)
                    row["peer_over_ours"] = round(per_token * 2 * args.tokens / ours[0], 1)
            rows.append(row)
            peer_text = (f"  udvalidate {row['peer_seconds_per_million']} s per 10^6 tokens "
                         f"(ours {row['peer_over_ours']}x faster)"
                         if "peer_seconds_per_million" in row else "")
            print(f"{kind:9} ours {row['seconds']:6.2f} s (CPU {row['cpu_seconds']:.2f} s, exit "
                  f"{row['exit']})  reader alone {row['floor_seconds']:6.2f} s (CPU "
                  f"{row['floor_cpu_seconds']:.2f} s; {row['over_floor']}x)  peak "
                  f"{row['peak_mb']:7.1f} MB (reader alone {row['floor_peak_mb']:.1f} MB)"
                  f"{peer_text}")
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
