"""Time and peak memory of the readers of annotation tools' exports, against the floor of
parsing the same file with the standard library alone (``json``; for WebAnno TSV, splitting).

Generates an export of ``--tasks`` tasks annotated by ``--annotators`` annotators in each format
asked (Label Studio's full JSON export, doccano's per-user JSONL files, Prodigy's ``db-out``
JSONL): a sentence of about 150 characters per task, with a word outside the Basic Multilingual
Plane now and then, three to six labelled spans per annotation, a relation between two of them
in one task of three, and a document label. Each file is read in a fresh Python process by
:func:`clusteragree.exports.read_export` and, as the floor, by ``json.load`` / ``json.loads``
per line (what any reader must do at least, with the cyclic garbage collector paused as the
readers pause it); the report gives each time (and the processor time, steadier on a shared
machine), the ratio of ours to the floor, the peak resident memory of the process
(``ru_maxrss``), the baseline (the interpreter with the package imported) and the peak over the
file size. With orjson installed (the extra ``fast``) the readers parse JSON Lines with it; the
floor is always the standard library.

``webanno-tsv`` is INCEpTION's WebAnno TSV 3.3 export of one document per annotator
(``user1.tsv``...; see :func:`write_webanno_tsv`), ``--tokens`` tokens each, read file by file;
its floor is splitting the same files into lines and tab-separated fields with the standard
library alone.

The targets of issue 24: 100,000 tasks x 3 annotators read in under 15 s and under 5x the
file's size in memory; issue 25 asks 10^6 tokens read (and validated) in under 5 s.

Prodigy's reader reads a large file on several processes (``jobs``; the command line's
``--jobs``, every core by default): it is measured with ``--jobs`` processes, by default with
one and with every core, a row each. The peak memory of a run with workers adds each worker's
(at most the largest one's, ``RUSAGE_CHILDREN``) to the reading process's.

Usage::

    python scripts/bench_exports.py [--tasks 100000] [--tokens 1000000] [--annotators 3]
        [--formats label-studio,doccano,prodigy,webanno-tsv] [--repeat 1] [--jobs 1,2]
        [--out FILE]

``--out`` writes the figures as JSON; nothing else is written (the generated files go to a
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

WORDS = ("the", "minister", "said", "that", "police", "in", "Paris", "Zoë", "met", "report",
         "of", "court", "and", "people", "year", "\N{GRINNING FACE}", "naïve", "Łódź")
LABELS = ("PER", "ORG", "LOC", "MISC")
FORMATS = ("label-studio", "doccano", "prodigy", "webanno-tsv")


def _task(rng: np.random.Generator) -> tuple[str, list[tuple[int, int]], list[int]]:
    """A text, its word offsets (code points) and the UTF-16 width of each character's end."""
    n = int(rng.integers(18, 30))
    words = [WORDS[i] for i in rng.integers(0, len(WORDS), n)]
    text = " ".join(words) + "."
    offsets, at = [], 0
    for w in words:
        offsets.append((at, at + len(w)))
        at += len(w) + 1
    utf16 = [0]
    for ch in text:
        utf16.append(utf16[-1] + (2 if ord(ch) > 0xFFFF else 1))
    return text, offsets, utf16


def _spans(rng: np.random.Generator, offsets: list[tuple[int, int]]
           ) -> list[tuple[int, int, int, int, str]]:
    """Three to six spans of one or two words: start, end (code points), first and last
    word, label."""
    k = int(rng.integers(3, 7))
    firsts = sorted(rng.choice(len(offsets) - 1, size=k, replace=False).tolist())
    out = []
    for i in firsts:
        j = i + int(rng.integers(0, 2))
        if out and out[-1][3] >= i:
            continue
        out.append((offsets[i][0], offsets[j][1], i, j, LABELS[int(rng.integers(0, 4))]))
    return out


def write_label_studio(path: Path, tasks: int, annotators: int, seed: int = 0) -> None:
    """Label Studio's full JSON export: one task per text, one annotation per annotator
    (``completed_by`` an integer id), offsets in UTF-16 units as its front end counts."""
    rng = np.random.default_rng(seed)
    with open(path, "w", encoding="utf-8") as out:
        out.write("[")
        for t in range(tasks):
            text, offsets, utf16 = _task(rng)
            annotations = []
            for a in range(annotators):
                result = []
                spans = _spans(rng, offsets)
                for k, (s, e, _, _, label) in enumerate(spans):
                    result.append({"id": f"t{t}a{a}r{k}", "type": "labels",
                                   "from_name": "label", "to_name": "text",
                                   "origin": "manual",
                                   "value": {"start": utf16[s], "end": utf16[e],
                                             "text": text[s:e], "labels": [label]}})
                if t % 3 == 0 and len(spans) > 1:
                    result.append({"type": "relation", "from_id": f"t{t}a{a}r0",
                                   "to_id": f"t{t}a{a}r1", "direction": "right",
                                   "labels": []})
                result.append({"id": f"t{t}a{a}c", "type": "choices", "from_name": "topic",
                                "to_name": "text", "origin": "manual",
                                "value": {"choices": [LABELS[int(rng.integers(0, 4))]]}})
                annotations.append({"id": t * annotators + a, "completed_by": a + 1,
                                    "result": result, "was_cancelled": False,
                                    "ground_truth": False, "lead_time": 12.5,
                                    "created_at": "2026-01-01T00:00:00.000000Z"})
            task = {"id": t + 1, "data": {"text": text}, "annotations": annotations,
                    "predictions": [], "meta": {}, "inner_id": t + 1}
            out.write(("," if t else "") + json.dumps(task, ensure_ascii=False))
        out.write("]\n")


def write_doccano(folder: Path, tasks: int, annotators: int, seed: int = 0) -> None:
    """doccano's export by user: ``<user>.jsonl`` per annotator, one line per text, with
    ``entities``, ``relations`` and ``cats`` (offsets in code points)."""
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    outs = [open(folder / f"user{a + 1}.jsonl", "w", encoding="utf-8")  # noqa: SIM115
            for a in range(annotators)]
    try:
        for t in range(tasks):
            text, offsets, _ = _task(rng)
            for out in outs:
                spans = _spans(rng, offsets)
                entities = [{"id": t * 100 + k, "label": label, "start_offset": s,
                             "end_offset": e} for k, (s, e, _, _, label) in enumerate(spans)]
                relations = ([{"id": t, "from_id": t * 100, "to_id": t * 100 + 1,
                               "type": "coref"}] if t % 3 == 0 and len(spans) > 1 else [])
                out.write(json.dumps({"id": t + 1, "text": text, "entities": entities,
                                      "relations": relations,
                                      "cats": [LABELS[int(rng.integers(0, 4))]]},
                                     ensure_ascii=False) + "\n")
    finally:
        for out in outs:
            out.close()


def write_prodigy(path: Path, tasks: int, annotators: int, seed: int = 0) -> None:
    """``prodigy db-out`` JSONL of a multi-user session: one line per text and annotator,
    with tokens, spans (``token_end`` inclusive), ``answer`` and ``_annotator_id``."""
    rng = np.random.default_rng(seed)
    with open(path, "w", encoding="utf-8") as out:
        for t in range(tasks):
            text, offsets, _ = _task(rng)
            tokens = [{"text": text[s:e], "start": s, "end": e, "id": i, "ws": True}
                      for i, (s, e) in enumerate(offsets)]
            for a in range(annotators):
                spans = [{"start": s, "end": e, "token_start": i, "token_end": j,
                          "label": label} for s, e, i, j, label in _spans(rng, offsets)]
                out.write(json.dumps({"text": text, "_input_hash": 1000 + t,
                                      "_task_hash": 5000 + t, "tokens": tokens,
                                      "spans": spans, "answer": "accept",
                                      "_view_id": "ner_manual", "_timestamp": 1700000000 + t,
                                      "_annotator_id": f"ner-user{a + 1}",
                                      "_session_id": f"ner-user{a + 1}"},
                                     ensure_ascii=False) + "\n")


WEBANNO_HEADER = (
    "#FORMAT=WebAnno TSV 3.3\n"
    "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.lexmorph.type.pos.POS|PosValue|coarseValue\n"
    "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value\n"
    "#T_CH=de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceLink|referenceType|"
    "referenceRelation\n\n\n")
POS = (("NN", "NOUN"), ("VBD", "VERB"), ("DT", "DET"), ("IN", "ADP"), ("NNP", "PROPN"),
       ("JJ", "ADJ"), ("CC", "CCONJ"))


def write_webanno_tsv(folder: Path, tokens: int, annotators: int, seed: int = 0) -> None:
    """INCEpTION's WebAnno TSV 3.3 export of one document per annotator, ``<user>.tsv`` (as
    in a project export's ``annotation/DOCUMENT/``), of ``tokens`` tokens each: sentences of
    18 to 29 words (a word outside the Basic Multilingual Plane now and then, so that the
    UTF-16 offsets differ from code points), a POS layer on every token (two features), named
    entities (``identifier`` and ``value``) of one to three tokens, one in ten stacked on
    another, and coreference chains (``referenceType``, ``referenceRelation``) whose links
    (one or two tokens) run across sentences. The annotators share the text; one label in
    ten differs."""
    folder.mkdir(parents=True, exist_ok=True)
    for a in range(annotators):
        rng = np.random.default_rng(seed)  # the same text and structure for everyone
        own = np.random.default_rng(seed + 1 + a)
        did, chains, made, s, at16 = 0, [], 0, 0, 0
        with open(folder / f"user{a + 1}.tsv", "w", encoding="utf-8") as out:
            out.write(WEBANNO_HEADER)
            while made < tokens:
                text, offsets, utf16 = _task(rng)
                n = min(len(offsets), tokens - made)
                words = offsets[:n]
                text = text[:words[-1][1]]
                s += 1
                ne: list[list[str]] = [[] for _ in range(n)]  # identifier|value stacks
                ne_v: list[list[str]] = [[] for _ in range(n)]
                k = 0
                while k < n:
                    k += int(rng.integers(1, 6))
                    if k >= n:
                        break
                    length = min(int(rng.integers(1, 4)), n - k)
                    stacked = rng.random() < 0.1
                    label = LABELS[int(rng.integers(0, 4))]
                    for lab in ([label, LABELS[(LABELS.index(label) + 1) % 4]] if stacked
                                else [label]):
                        if own.random() < 0.1:
                            lab = LABELS[int(own.integers(0, 4))]
                        ident = ""
                        if length > 1 or stacked:
                            did += 1
                            ident = f"[{did}]"
                        for j in range(k, k + length):
                            ne[j].append("*" + ident)
                            ne_v[j].append(lab + ident)
                    k += length
                ch_t: list[str] = ["_"] * n
                ch_r: list[str] = ["_"] * n
                if n > 3 and rng.random() < 0.7:
                    if not chains or rng.random() < 0.3:
                        chains.append([len(chains) + 1, 0])
                    chain = chains[int(rng.integers(max(0, len(chains) - 5), len(chains)))]
                    chain[1] += 1
                    first = int(rng.integers(0, n - 2))
                    kind = ("nam", "pro", "nom")[int(own.integers(0, 3))
                                                 if own.random() < 0.1 else chain[0] % 3]
                    for j in range(first, first + 1 + int(rng.integers(0, 2))):
                        ch_t[j] = f"{kind}[{chain[0]}]"
                        ch_r[j] = f"coref->{chain[0]}-{chain[1]}"
                out.write(f"#Text={text}\n")
                for j, (b, e) in enumerate(words):
                    pos, coarse = POS[int(rng.integers(0, len(POS)))]
                    out.write(f"{s}-{j + 1}\t{at16 + utf16[b]}-{at16 + utf16[e]}\t"
                              f"{text[b:e]}\t{pos}\t{coarse}\t"
                              f"{'|'.join(ne[j]) or '_'}\t{'|'.join(ne_v[j]) or '_'}\t"
                              f"{ch_t[j]}\t{ch_r[j]}\t\n")
                out.write("\n")
                at16 += utf16[words[-1][1]] + 1
                made += n


_CHILD = """
import gc, json, resource, sys, time
from pathlib import Path
kind, path, floor, jobs = sys.argv[1], Path(sys.argv[2]), sys.argv[3] == "1", int(sys.argv[4])
from clusteragree.exports.reading import IN_PARTS, read_export
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
start, cpu = time.perf_counter(), time.process_time()
if floor:
    gc.disable()  # as the readers pause the cyclic collector
    files = sorted(path.iterdir()) if path.is_dir() else [path]
    for f in files:
        with open(f, encoding="utf-8") as h:
            if f.suffix == ".tsv":  # lines and tab-separated fields
                for line in h:
                    line.split("\t")
            elif f.suffix == ".json":
                json.load(h)
            else:
                for line in h:
                    json.loads(line)
    count = -1
elif kind == "webanno-tsv":  # one file per annotator
    count = 0
    for f in sorted(path.iterdir()):
        count += sum(len(d.spans) for d in read_export(f, kind).documents)
else:
    export = read_export(path, kind, **({"jobs": jobs} if kind in IN_PARTS else {}))
    count = sum(len(d.spans) for d in export.documents)
took, cpu = time.perf_counter() - start, time.process_time() - cpu
from clusteragree.core.parallel import shutdown
shutdown()  # (the workers' peak is known once they have ended)
workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024  # the largest
print(took, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, base, count, cpu,
      workers)
"""


def measure(kind: str, path: Path, floor: bool, repeat: int, jobs: int = 1
            ) -> tuple[float, int, int, int, float, int]:
    """Best time, and the peak memory, baseline, spans read, processor time (this process's)
    and the largest peak of a worker process (0 without workers) of the best run, each run a
    fresh process."""
    runs = []
    for _ in range(repeat):
        done = subprocess.run([sys.executable, "-c", _CHILD, kind, str(path.resolve()),
                               str(int(floor)), str(jobs)], capture_output=True, text=True,
                              cwd=ROOT)  # (the child imports the package beside it)
        if done.returncode:
            raise SystemExit(f"{kind}: the reader failed:\n{done.stderr[-2000:]}")
        took, peak, base, count, cpu, workers = done.stdout.split()
        runs.append((float(took), int(peak), int(base), int(count), float(cpu), int(workers)))
    return min(runs)


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.iterdir()) if path.is_dir() else path.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=100_000, help="tasks (texts) per export")
    parser.add_argument("--tokens", type=int, default=1_000_000,
                        help="webanno-tsv: tokens per annotator (default: %(default)s)")
    parser.add_argument("--annotators", type=int, default=3, help="annotators per task")
    parser.add_argument("--formats", default=",".join(FORMATS),
                        help="comma-separated among " + ", ".join(FORMATS))
    parser.add_argument("--repeat", type=int, default=1, help="runs per reader (best kept)")
    parser.add_argument("--jobs", default=None, metavar="N[,N...]",
                        help="processes for the readers that read a large file in parts "
                        "(prodigy), a row each (default: 1 and every core)")
    parser.add_argument("--out", type=Path, help="write the figures as JSON to this path")
    parser.add_argument("--write", nargs=2, metavar=("FORMAT", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    writers = {"label-studio": write_label_studio, "doccano": write_doccano,
               "prodigy": write_prodigy, "webanno-tsv": write_webanno_tsv}
    if args.write:  # a child process writes the file, so that the readers' parent never held it
        kind, target = args.write
        writers[kind](Path(target), args.tokens if kind == "webanno-tsv" else args.tasks,
                      args.annotators)
        return
    kinds = [k.strip() for k in args.formats.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in writers]
    if unknown:
        parser.error(f"unknown format(s) {', '.join(unknown)}")
    from clusteragree.core.parallel import usable_cores

    job_counts = ([1, usable_cores()] if args.jobs is None else
                  [int(j) for j in args.jobs.split(",") if j.strip()])
    if not job_counts or min(job_counts) < 1:
        parser.error("--jobs: whole numbers of processes, 1 or more")
    job_counts = list(dict.fromkeys(job_counts))
    figures = []
    try:
        import orjson  # noqa: F401
        lines = "JSON Lines parsed by orjson (the extra 'fast')"
    except ImportError:
        lines = "JSON Lines parsed by the standard library (orjson not installed)"
    print(f"{args.tasks:,} tasks (webanno-tsv: {args.tokens:,} tokens) x {args.annotators} "
          f"annotators; best of {args.repeat}; floor = json.load of the same file(s) "
          f"(webanno-tsv: its lines split at tabs); {lines}")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds:
            path = Path(tmp) / {"label-studio": "ls.json", "doccano": "doccano",
                                "prodigy": "prodigy.jsonl", "webanno-tsv": "webanno"}[kind]
            subprocess.run([sys.executable, __file__, "--tasks", str(args.tasks),
                            "--tokens", str(args.tokens),
                            "--annotators", str(args.annotators), "--write", kind, str(path)],
                           check=True)
            size = _size(path)
            floor = measure(kind, path, True, args.repeat)
            for jobs in (job_counts if kind == "prodigy" else [1]):
                ours = measure(kind, path, False, args.repeat, jobs)
                workers = ours[5] * max(0, jobs - 1)  # (each at most the largest)
                row = {"format": kind, "annotators": args.annotators,
                       **({"tokens": args.tokens} if kind == "webanno-tsv" else
                          {"tasks": args.tasks}), "jobs": jobs,
                       "file_mb": round(size / 2**20, 1), "seconds": round(ours[0], 2),
                       "floor_seconds": round(floor[0], 2), "cpu_seconds": round(ours[4], 2),
                       "floor_cpu_seconds": round(floor[4], 2),
                       "over_floor": round(ours[0] / floor[0], 2) if floor[0] else None,
                       "peak_mb": round(ours[1] / 2**20, 1),
                       "workers_peak_mb": round(workers / 2**20, 1),
                       "baseline_mb": round(ours[2] / 2**20, 1),
                       "peak_over_file": round((ours[1] + workers) / size, 2),
                       "floor_peak_over_file": round(floor[1] / size, 2), "spans": ours[3]}
                figures.append(row)
                alone = "split alone" if kind == "webanno-tsv" else "json alone"
                on = f" --jobs {jobs}" if kind == "prodigy" else ""
                print(f"{kind + on:22} {row['file_mb']:8.1f} MB  ours {row['seconds']:6.2f} s "
                      f"(processor {row['cpu_seconds']:.2f} s)  {alone} "
                      f"{row['floor_seconds']:6.2f} s (processor "
                      f"{row['floor_cpu_seconds']:.2f} s)  ({row['over_floor']}x)  "
                      f"peak {row['peak_mb']:7.1f} MB"
                      + (f" + workers {row['workers_peak_mb']:.1f} MB" if workers else "")
                      + f" = {row['peak_over_file']}x the file "
                      f"({alone} {row['floor_peak_over_file']}x; baseline "
                      f"{row['baseline_mb']:.0f} MB)  {row['spans']:,} spans")
    if args.out:
        args.out.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
