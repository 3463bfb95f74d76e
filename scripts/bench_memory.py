"""Peak memory of the readers on large generated files.

Writes one file per format of about ``--size-mb`` megabytes (a DUCView pyramid, a long CSV of
codings, a CoNLL-2012 coreference file, ...), reads each in a fresh Python process and prints
that process's peak resident memory (``ru_maxrss``) beside the file size, the memory of the
interpreter with clusteragree imported (the baseline) and the time. The target is a peak of
at most 5 times the input's size; every reader must stay under 2 GB at 200 MB. ``pyr-pair``
reads two pyramids of ``--size-mb`` each in one process (as ``clusteragree pyramid A B``
reads them), its ratio taken over both files. The long CSV has ``--units`` distinct units
(a million by default), each coder a pass over them.

Usage::

    python scripts/bench_memory.py [--size-mb 200] [--formats pyr,pyr-pair,csv,conll]
        [--units 1000000] [--out DIR]

The generated files and ``memory.json`` go to ``--out`` (default: a temporary directory,
deleted at the end unless ``--keep``).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import numpy as np

#: The repository of this script: its children import the package from here, so that the
#: code measured is the code beside the script (``python -c`` puts the working directory first).
ROOT = Path(__file__).resolve().parent.parent

MB = 1 << 20
_VOCABULARY = """the of and to in a is that for it as was with be by on not he this are or his
from at which but have an they you were her she there been one all we their has would when if so
no will more about out can what up said who also other some into two could time these may than
first then any like new very my only its over protest police government minister election court
people report year"""
WORDS = tuple(_VOCABULARY.split())


def _sentence(rng: np.random.Generator, n: int) -> list[str]:
    return [WORDS[k] for k in rng.integers(0, len(WORDS), n)]


def write_pyramid(path: Path, size: int, rng: np.random.Generator) -> None:
    """A DUCView .pyr: NIST-style model summaries and SCUs with 1-4 one-part contributors."""
    text_parts: list[str] = []
    lines: list[tuple[int, str]] = []  # (offset, line) of the summary bodies
    offset = 0

    def add(line: str, body: bool = False) -> None:
        nonlocal offset
        text_parts.append(line)
        if body:
            lines.append((offset, line))
        offset += len(line) + 1

    models = max(4, size // (40 * 1024))
    add(f"#{models}")
    add("")
    add("")
    for m in range(models):
        add("----------")
        add(f"D{m:04d}.M.250.A.{chr(65 + m % 26)}")
        add("----------")
        add("")
        for _ in range(20):
            add(" ".join(_sentence(rng, int(rng.integers(8, 25)))).capitalize() + ".", True)
    with path.open("w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<pyramid>\n')
        out.write("<startDocumentRegEx><![CDATA[[-]*\\nD[0-9]*\\.M\\.[0-9]*\\.[A-Z]\\.[A-Z]\\n"
                  "[-]*\\n]]></startDocumentRegEx>\n<text>\n")
        for line in text_parts:
            out.write(f"<line>{escape(line)}</line>\n")
        out.write("</text>\n")
        uid = 0
        while out.tell() < size:
            uid += 1
            picks = rng.integers(0, len(lines), int(rng.integers(1, 5)))
            out.write(f'<scu uid="{uid}" label="scu {uid}">\n')
            for k in picks.tolist():
                start, line = lines[k]
                words = [(w.start(), w.end()) for w in _words(line)]
                a = int(rng.integers(0, max(1, len(words) - 3)))
                b = min(len(words) - 1, a + int(rng.integers(1, 6)))
                s, e = words[a][0], words[b][1]
                label = line[s:e]
                out.write(f"<contributor label={quoteattr(label)}>\n<part label={quoteattr(label)}"
                          f' start="{start + s}" end="{start + e}"/>\n</contributor>\n')
            out.write("</scu>\n")
        out.write("</pyramid>\n")


def _words(line: str) -> Iterator[re.Match[str]]:
    return re.finditer(r"\S+", line)


def write_csv(path: Path, size: int, rng: np.random.Generator, units: int = 1_000_000) -> None:
    """A long CSV ``coder,unit,labels`` of ``units`` distinct units (a million by default),
    each coder a pass over all of them, as many coders as the size needs; label sets of 0-3
    of 20 labels."""
    labels = [";".join(sorted({f"l{x}" for x in rng.integers(0, 20, k).tolist()}))
              for k in (0, 1, 1, 2, 2, 3) for _ in range(50)]
    with path.open("w", encoding="utf-8") as out:
        out.write("coder,unit,labels\n")
        coder = 0
        while coder < 2 or out.tell() < size:  # two coders at least: something to compare
            coder += 1
            for start in range(0, units, 100_000):
                picks = rng.integers(0, len(labels), min(100_000, units - start)).tolist()
                out.write("".join(f"c{coder},u{start + k},{labels[p]}\n"
                                  for k, p in enumerate(picks)))
                if out.tell() >= size and coder > 1:
                    return


def write_conll(path: Path, size: int, rng: np.random.Generator) -> None:
    """A CoNLL-2012 file of 500-token documents with nested and discontinuous-free chains."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_coref import DOC, _cells, _document

    with path.open("w", encoding="utf-8") as out:
        d = 0
        while out.tell() < size:
            name = f"bench/{d:06d}"
            mentions = _document(rng, DOC)
            rows = [f"#begin document ({name}); part 000\n"]
            for t, cell in enumerate(_cells(mentions, DOC)):
                word = WORDS[t % len(WORDS)]
                rows.append(f"{name}\t0\t{t % 25}\t{word}\tNN\t*\t-\t-\t-\t-\t*\t{cell}\n")
                if t % 25 == 24:
                    rows.append("\n")
            rows.append("#end document\n")
            out.write("".join(rows))
            d += 1


#: format -> (file suffix, writer, import line, reading expression, summary expression); the
#: reading expression sees the input as PATH, or as PATHS when the format reads two files.
FORMATS: dict[str, tuple[str, Callable[..., None], str, str, str]] = {
    "pyr": (".pyr", write_pyramid, "from clusteragree.pyramids import read_pyramid",
            "read_pyramid(PATH)", "f'{len(obj.scus)} SCUs'"),
    "pyr-pair": (".pyr", write_pyramid, "from clusteragree.pyramids import read_pyramid",
                 "[read_pyramid(p) for p in PATHS]",
                 "' + '.join(f'{len(p.scus)} SCUs' for p in obj)"),
    "csv": (".csv", write_csv, "from clusteragree.labels import read_long_table",
            "read_long_table(PATH)", "f'{obj.rows} rows'"),
    "conll": (".conll", write_conll, "from clusteragree.coref import read_conll",
              "read_conll(PATH)", "f'{len(obj.documents)} documents'"),
}

CHILD = """
import json, resource, time
{imports}
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
PATHS = {paths!r}
PATH = PATHS[0]
t0 = time.perf_counter()
obj = {call}
seconds = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"base_kb": base, "peak_kb": peak, "seconds": seconds,
                  "read": {summary}}}))
"""


def measure(fmt: str, *paths: Path) -> dict[str, object]:
    """Read ``paths`` in a fresh interpreter; its peak RSS, baseline and time."""
    _, _, imports, call, summary = FORMATS[fmt]
    code = CHILD.format(imports=imports, paths=[str(p.resolve()) for p in paths], call=call,
                        summary=summary)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT)  # (the child imports the package beside it)
    if done.returncode != 0:
        return {"format": fmt, "error": done.stderr.strip().splitlines()[-1:]}
    got = json.loads(done.stdout)
    size = sum(p.stat().st_size for p in paths)
    return {"format": fmt, "file_mb": size / MB, "peak_mb": got["peak_kb"] / 1024,
            "baseline_mb": got["base_kb"] / 1024, "ratio": got["peak_kb"] * 1024 / size,
            "seconds": got["seconds"], "read": got["read"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=float, default=200.0, help="size of each file")
    parser.add_argument("--formats", default=",".join(FORMATS),
                        help="comma-separated among " + ", ".join(FORMATS))
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--units", type=int, default=1_000_000,
                        help="distinct units of the long CSV (default: %(default)s)")
    parser.add_argument("--out", type=Path, help="directory for the files and memory.json "
                        "(default: a temporary directory)")
    parser.add_argument("--keep", action="store_true", help="keep the generated files")
    args = parser.parse_args()
    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    unknown = sorted(set(formats) - set(FORMATS))
    if unknown:
        parser.error(f"unknown formats {unknown}; choose among {sorted(FORMATS)}")
    out = args.out or Path(tempfile.mkdtemp(prefix="clusteragree-memory-"))
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    try:
        for fmt in formats:
            suffix, writer, *_ = FORMATS[fmt]
            paths = [out / f"large{k or ''}{suffix}" for k in range(2 if "pair" in fmt else 1)]
            for k, path in enumerate(paths):
                extra = {"units": args.units} if fmt == "csv" else {}
                writer(path, int(args.size_mb * MB), np.random.default_rng(args.seed + k),
                       **extra)
            row = measure(fmt, *paths)
            rows.append(row)
            if "error" in row:
                print(f"{fmt:<6} failed: {row['error']}")
                continue
            verdict = ("within 5x" if row["ratio"] <= 5 else "under 2 GB" if row["peak_mb"]
                       < 2048 else "OVER 2 GB")
            print(f"{fmt:<8} file {row['file_mb']:7.1f} MB  peak {row['peak_mb']:8.1f} MB "
                  f"(baseline {row['baseline_mb']:5.1f} MB)  {row['ratio']:5.2f}x  "
                  f"{row['seconds']:6.1f} s  {verdict}  [{row['read']}]")
            if not args.keep:
                for path in paths:
                    path.unlink()
        (out / "memory.json").write_text(json.dumps(rows, indent=2) + "\n")
        if args.out is not None:
            print(f"written: {out / 'memory.json'}")
    finally:
        if args.out is None and not args.keep:
            shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
