"""A seeded mutation campaign over every command: counts of outcomes per reader, and each
distinct failure once, with a count, a small example and where in the code it happened.

Each input is a valid file (from ``corpora_fixtures/`` or written here) with one to four
mutations: the byte- and line-level operators of ``tests/mutations.py`` (flips, insertions,
deletions, truncation, lines dropped/repeated/swapped, numbers made huge, negative, non-ASCII
or NaN, CR line ends, a byte-order mark, non-UTF-8 bytes) and the structural ones below (an
empty file, arbitrary bytes, nesting 2,000 to 10^5 deep, an XML element or a bracket dropped or
repeated, a catastrophic document regex, duplicate ids, a 200,000-character field, a file
listed twice or a second file of the same name prefix). The command line (``clusteragree.cli
.main``) runs in a forked child with a time limit and an address-space limit. Outcomes:

* ``ok`` (exit 0), ``input-error`` (exit 1), ``usage`` (exit 2): what a user should see;
* ``internal-error`` (exit 70: the command's last-resort "internal error", a traceback a user
  would have seen), ``uncaught`` (an exception escaping ``main``, or another exit status),
  ``crash`` (killed by a signal: segmentation fault, abort; or out of memory under the limit),
  ``hang`` (no answer within the time limit).

Failures are grouped by signature: the outcome, the exception type, the start of its message
(numbers and quoted text blanked) and the innermost frame inside the package (from the
traceback, or the fault handler's dump for a crash or a hang).

Example::

    python scripts/fuzz_campaign.py --n 300 --jobs 1 --out /tmp/campaign

prints the table of counts and the distinct failures; with ``--out DIR`` it also writes
``DIR/summary.json`` and ``DIR/OUTCOME/NN-.../`` per failure: the input files, ``argv.txt``,
``stderr.txt``, ``traceback.txt``, ``info.json`` and, unless ``--minimize 0``, a reduced input
in ``minimal/``. It writes nothing else (its work files are in a temporary directory). Exit
status 1 when there is any failure.
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import importlib
import json
import os
import random
import re
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one thread per child: small, and safe to fork

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from mutations import OPERATORS as BYTE_OPERATORS  # noqa: E402
from mutations import mutate as byte_mutate  # noqa: E402

FIX = ROOT / "corpora_fixtures"
GOOD = ("ok", "input-error", "usage")
OUTCOMES = (*GOOD, "internal-error", "uncaught", "crash", "hang")
ESCAPED = 98  # the child's status when an exception escaped main
OUT_OF_MEMORY = "not enough memory for this input"
LONG_MESSAGE = 5_000  # characters on stderr worth a note

# ---------------------------------------------------------------------------------- seeds

CONLLU_TREES = (b"# sent_id = s1\n1\tI\t_\t_\t_\t_\t2\tnsubj\t_\t_\n"
                b"2\tsaw\t_\t_\t_\t_\t0\troot\t_\t_\n3-4\tthe\t_\t_\t_\t_\t_\t_\t_\t_\n"
                b"3\tthe\t_\t_\t_\t_\t4\tdet\t_\t_\n4\tman\t_\t_\t_\t_\t2\tobj\t_\t_\n\n"
                b"1\tIt\t_\t_\t_\t_\t2\tnsubj\t_\t_\n2\trained\t_\t_\t_\t_\t0\troot\t_\t_\n\n")
CONLLU_TREES_B = CONLLU_TREES.replace(b"4\tdet", b"2\tdet").replace(b"nsubj\t_\t_\n2\trained",
                                                                     b"dep\t_\t_\n2\trained")
BRACKETS = (b"(S (NP (D the) (N dog)) (VP (V saw) (NP (D a) (A big) (N cat))))\n"
            b"(S (NP (N it)) (VP (V rained)))\n")
BRACKETS_B = (b"(S (NP (D the) (N dog)) (VP (V saw) (NP (D a)) (NP (A big) (N cat))))\n"
              b"(S (NP (N it)) (VP (V rained)))\n")
JSON_LABELS = (b'[{"item": "i1", "annotator": "A", "label": "x", "rank": 1},\n'
               b' {"item": "i1", "annotator": "A", "label": "y", "rank": 2},\n'
               b' {"item": "i1", "annotator": "B", "label": "x", "rank": 1},\n'
               b' {"item": "i2", "annotator": "A", "label": "z"},\n'
               b' {"item": "i2", "annotator": "B", "label": "z"},\n'
               b' {"item": "i3", "annotator": "A", "label": "x"},\n'
               b' {"item": "i3", "annotator": "B", "label": "y"}]\n')
JSON_WEIGHTS = (b'[{"item": "m1", "annotator": "A", "label": "q", "weight": 0.5},\n'
                b' {"item": "m1", "annotator": "B", "label": "q", "weight": 1},\n'
                b' {"item": "m2", "annotator": "A", "label": "s", "weight": 1},\n'
                b' {"item": "m2", "annotator": "B", "label": "t", "weight": 1}]\n')
PAN_NAMES = ("A.D0901.M.100.A.1.pan", "B.D0901.M.100.A.1.pan")
Files = dict[str, bytes]


def _read(*parts: str) -> bytes:
    return FIX.joinpath(*parts).read_bytes()


def _glob(folder: str, pattern: str) -> list[Path]:
    return sorted((FIX / folder).glob(pattern))


def _pyramid_seeds() -> list[Files]:
    seeds = []
    for a in _glob("passonneau2006", "*-A[13].pyr"):  # the figures' pairs: A1/A2 and A3/A4
        b = a.with_name(a.name.replace("-A1", "-A2").replace("-A3", "-A4"))
        if b.exists():
            seeds.append({"a.pyr": a.read_bytes(), "b.pyr": b.read_bytes()})
    seeds += [{"a.pyr": p.read_bytes(), "b.pyr": p.read_bytes()}
              for p in _glob("pyramid-quirks", "*.pyr")]
    return seeds


def _brat_seed() -> list[Files]:
    return [{"A/story.ann": _read("coref", "brat", "A", "story.ann"),
             "B/story.ann": _read("coref", "brat", "B", "story.ann"),
             "text/story.txt": _read("coref", "brat", "text", "story.txt")}]


@dataclass(frozen=True)
class Reader:
    """Seed file sets, the files that may be mutated, the kind of content (for the structural
    operators) and the command lines to run (a ``{mutated}`` item is the mutated file)."""

    seeds: Callable[[], list[Files]]
    mutated: tuple[str, ...]
    kind: str
    argvs: tuple[tuple[str, ...], ...]


READERS: dict[str, Reader] = {
    "table-csv": Reader(
        lambda: [{"x.csv": _read("krippendorff2011.csv")}], ("x.csv",), "csv",
        (("table", "x.csv"), ("table", "x.csv", "-f", "json", "--strict"),
         ("table", "x.csv", "--scalar", "--distance", "nominal,ordinal,interval,ratio"),
         ("table", "x.csv", "--scalar", "--distance", "interval", "-f", "json"),
         ("table", "x.csv", "--engine", "generic", "--strict"))),
    "table-ml-csv": Reader(
        lambda: [{"x.csv": p.read_bytes()} for p in _glob(".", "multilabel_*.csv")], ("x.csv",),
        "csv", (("table", "x.csv"), ("table", "x.csv", "-f", "json"),
                ("table", "x.csv", "--distance", "masi,dice", "--strict"))),
    "table-ml-json": Reader(
        lambda: [{"x.json": JSON_LABELS}, {"x.json": JSON_WEIGHTS}], ("x.json",), "json",
        (("table", "x.json"), ("table", "x.json", "-f", "json"),
         ("table", "x.json", "--strict"))),
    "pyramid": Reader(
        _pyramid_seeds, ("a.pyr",), "xml",
        (("pyramid", "a.pyr", "b.pyr"),
         ("pyramid", "a.pyr", "b.pyr", "--units", "spans", "-f", "json"),
         ("pyramid", "a.pyr", "b.pyr", "--units", "contributors", "--tokenizer", "ducview"),
         ("pyramid", "a.pyr", "b.pyr", "--strict"))),
    "pan": Reader(
        lambda: [{PAN_NAMES[0]: p.read_bytes(), PAN_NAMES[1]: p.read_bytes()}
                 for p in _glob("pyramid-quirks", "*.pan")], (PAN_NAMES[0],), "xml",
        (("pan", *PAN_NAMES, "--scores"), ("pan", *PAN_NAMES, "-f", "json"),
         ("pan", *PAN_NAMES, "--table", "correlations", "--strict"))),
    "coref-conll": Reader(
        lambda: [{"a.conll": _read("coref", "annotator-a.conll"),
                  "b.conll": _read("coref", "annotator-b.conll")}], ("a.conll",), "conll",
        (("coref", "a.conll", "b.conll"),
         ("coref", "a.conll", "b.conll", "--lenient", "-f", "json"),
         ("coref", "a.conll", "b.conll", "--units", "words", "--metrics", "alpha,conll,lea"),
         ("coref", "a.conll", "b.conll", "--strict", "--singletons", "remove"))),
    "coref-corefud": Reader(
        lambda: [{"a.conllu": _read("coref", "corefud", "annotator-a.conllu"),
                  "b.conllu": _read("coref", "corefud", "annotator-b.conllu")}], ("a.conllu",),
        "conllu",
        (("coref", "a.conllu", "b.conllu"), ("coref", "a.conllu", "b.conllu", "--lenient"),
         ("coref", "a.conllu", "b.conllu", "--units", "words", "-f", "json", "--strict"))),
    "coref-brat": Reader(
        _brat_seed, ("A/story.ann", "A/story.ann", "A/story.ann", "text/story.txt"), "brat",
        (("coref", "A", "B", "--text-dir", "text"),
         ("coref", "A", "B", "--text-dir", "text", "--units", "words", "-f", "json"),
         ("coref", "A", "B", "--text-dir", "text", "--strict"))),
    "trees-conllu": Reader(
        lambda: [{"a.conllu": CONLLU_TREES, "b.conllu": CONLLU_TREES_B}], ("a.conllu",),
        "conllu-trees",
        (("trees", "a.conllu", "b.conllu", "--acc"),
         ("trees", "a.conllu", "b.conllu", "--roots", "many", "--cycles", "drop", "-f", "json"),
         ("trees", "a.conllu", "b.conllu", "--distance", "all", "--strict"))),
    "trees-bracket": Reader(
        lambda: [{"a.tree": BRACKETS, "b.tree": BRACKETS_B}], ("a.tree",), "bracket",
        (("trees", "a.tree", "b.tree", "--acc"), ("trees", "a.tree", "b.tree", "--words"),
         ("trees", "a.tree", "b.tree", "--distance", "all", "-f", "json", "--strict"))),
    # the readers of annotation tools' exports, through every command that reads them
    "export-label-studio": Reader(
        lambda: [{"x.json": _read("exports", "labelstudio", n)} for n in
                 ("project-utf16.json", "project-codepoints.json", "duplicates.json")],
        ("x.json",), "json",
        (("spans", "x.json", "--metrics", "f1,tokens", "--duplicates", "last"),
         ("coref", "x.json", "--metrics", "muc,lea", "--strict"),
         ("table", "x.json", "--annotator-key", "id", "--duplicates", "first"))),
    "export-doccano": Reader(
        lambda: [{f"d/{u}.jsonl": _read("exports", "doccano", folder, f"{u}.jsonl")
                  for u in ("alice", "bob", "chen")}
                 for folder in ("sequence-labelling", "text-classification")],
        ("d/alice.jsonl",), "json",
        (("spans", "d/alice.jsonl", "d/bob.jsonl", "d/chen.jsonl", "--metrics", "f1"),
         ("table", "d", "--strict"),
         ("coref", "d/alice.jsonl", "d/bob.jsonl", "--metrics", "muc"))),
    "export-prodigy": Reader(
        lambda: [{"x.jsonl": _read("exports", "prodigy", n)} for n in
                 ("coref-manual.jsonl", "textcat-binary.jsonl", "textcat-choice.jsonl")],
        ("x.jsonl",), "json",
        (("coref", "x.jsonl", "--metrics", "muc,bcub"), ("spans", "x.jsonl", "--strict"),
         ("table", "x.jsonl", "--answers", "accept,reject"))),
    "trees-dirs": Reader(
        lambda: [{"A/doc1-x.conllu": CONLLU_TREES, "B/doc1-y.conllu": CONLLU_TREES_B,
                  "A/doc2-x.conllu": CONLLU_TREES, "B/doc2-y.conllu": CONLLU_TREES}],
        ("A/doc1-x.conllu",), "conllu-trees",
        (("trees", "--dirs", "A", "B", "--acc"),
         ("trees", "--dirs", "A", "B", "-f", "json", "--strict"))),
}

# ------------------------------------------------------------------- structural operators

_ELEMENT = re.compile(rb"<(scu|peerscu|contributor|part|line|text|startDocumentRegEx|annotation"
                      rb"|pyramid)\b[^>]*?(?:/>|>.*?</\1>)", re.S)
_START_TAG = re.compile(rb"<([A-Za-z]\w*)\b[^>]*?(?<!/)>")
_REGEX_ELEMENT = re.compile(rb"(<startDocumentRegEx>)(.*?)(</startDocumentRegEx>)", re.S)
_ID_ATTR = re.compile(rb'\b(uid|label|id)="([^"]*)"')
_BAD_REGEXES = [b"(-+)+X", b"<![CDATA[(a|a)*b]]>", b"((((x*)*)*)*)*y", b"(", b"[", b"\\",
                b"(?P<x", b".*" * 40]
_JSON_VALUE = re.compile(rb'(: *)("[^"]*"|-?\d+(?:\.\d+)?|null|true|false)')
_LONG = [b"a" * 200_000, "é".encode() * 100_000, b"1" * 200_000, b"(" * 200_000]


def _depth(rnd: random.Random) -> int:
    return rnd.choice([2_000, 10_000, 30_000, 100_000])


def deep_tree(kind: str, rnd: random.Random) -> bytes:
    """A sentence whose tree is 2,000 to 10^5 deep (given to every annotator's file, so that the
    trees are compared), or an unbalanced one."""
    d = _depth(rnd)
    if kind == "bracket":
        return b"(S " * d + b"w" + (b")" * d if rnd.random() < 0.8 else b"") + b"\n"
    rows = [b"1\tw\t_\t_\t_\t_\t0\troot\t_\t_"]  # a chain: word i+1 depends on word i
    rows += [b"%d\tw\t_\t_\t_\t_\t%d\tdep\t_\t_" % (i, i - 1) for i in range(2, d + 1)]
    return b"\n".join(rows) + b"\n\n"


def _deep(data: bytes, kind: str, rnd: random.Random) -> bytes:
    if kind in ("bracket", "conllu-trees"):
        return data + b"\n" + deep_tree(kind, rnd)
    d = _depth(rnd)
    if kind == "xml":
        tags = list(_START_TAG.finditer(data))
        if not tags:
            return data + b"<a>" * d
        m = rnd.choice(tags)
        name = m.group(1) if rnd.random() < 0.5 else rnd.choice([b"scu", b"line", b"a"])
        close = b"</" + name + b">"
        inner = b"<" + name + b">" * 1
        return data[:m.end()] + (inner * d) + (close * d) + data[m.end():]
    if kind == "json":
        nest = b"[" * d + b"]" * d if rnd.random() < 0.5 else b'{"a": ' * d + b"1" + b"}" * d
        values = list(_JSON_VALUE.finditer(data))
        if not values or rnd.random() < 0.3:
            return nest
        m = rnd.choice(values)
        return data[:m.start(2)] + nest + data[m.end(2):]
    if kind == "conllu":  # entities opened on one word, closed (innermost first) on a later one
        lines = data.split(b"\n")
        words = [i for i, line in enumerate(lines) if line[:1].isdigit() and b"\t" in line]
        if len(words) < 2:
            return data
        i, j = sorted(rnd.sample(words, 2))
        opens = b"".join(b"(e%d-x-1-" % (9000 + k) for k in range(d))
        closes = b"".join(b"e%d)" % (9000 + k) for k in reversed(range(d)))
        for at, misc in ((i, opens), (j, closes)):
            lines[at] = lines[at].rsplit(b"\t", 1)[0] + b"\tEntity=" + misc
        return b"\n".join(lines)
    if kind == "conll":  # mentions opened on one token, closed on the next
        lines = data.split(b"\n")
        tokens = [i for i, line in enumerate(lines) if line.count(b"\t") > 5]
        if len(tokens) < 2:
            return data
        i = rnd.choice(tokens[:-1])
        same = rnd.random() < 0.5
        opens = b"|".join(b"(%d" % (1 if same else k) for k in range(d))
        closes = b"|".join(b"%d)" % (1 if same else k) for k in range(d))
        lines[i] = lines[i].rsplit(b"\t", 1)[0] + b"\t" + opens
        lines[i + 1] = lines[i + 1].rsplit(b"\t", 1)[0] + b"\t" + closes
        return b"\n".join(lines)
    if kind == "brat":  # a long chain of coreference relations
        n = d // 10
        rows = [b"T%d\tMention 0 4\tMary" % (1000 + i) for i in range(n)]
        rows += [b"R%d\tCoref Arg1:T%d Arg2:T%d" % (1000 + i, 1000 + i, 1001 + i)
                 for i in range(n - 1)]
        return data + b"\n" + b"\n".join(rows) + b"\n"
    return data + b"x" * d  # a csv or a text: one very long line


def _element(data: bytes, kind: str, rnd: random.Random, repeat: bool) -> bytes:
    """An XML element (or, elsewhere, a bracket) dropped or repeated."""
    if kind == "xml":
        found = list(_ELEMENT.finditer(data))
        if not found:
            return data
        m = rnd.choice(found)
        if repeat:
            return data[:m.end()] + m.group(0) + data[m.end():]
        return data[:m.start()] + data[m.end():]
    places = [m.start() for m in re.finditer(rb"[()\[\]{}]", data)]
    if not places:
        return data
    i = rnd.choice(places)
    return data[:i + 1] + data[i:] if repeat else data[:i] + data[i + 1:]


def _regex(data: bytes, kind: str, rnd: random.Random) -> bytes:
    bad = rnd.choice(_BAD_REGEXES)
    if _REGEX_ELEMENT.search(data):
        return _REGEX_ELEMENT.sub(lambda m: m.group(1) + bad + m.group(3), data, count=1)
    m = re.search(rb"<pyramid>", data)
    if m:
        return data[:m.end()] + b"<startDocumentRegEx>" + bad + b"</startDocumentRegEx>" + \
            data[m.end():]
    return data


def _duplicate_id(data: bytes, kind: str, rnd: random.Random) -> bytes:
    if kind == "xml":
        found = list(_ID_ATTR.finditer(data))
        same = [m for m in found if m.group(1) == b"uid"] or found
        if len(same) < 2:
            return data
        a, b = rnd.sample(same, 2)
        return data[:b.start(2)] + a.group(2) + data[b.end(2):]
    lines = data.split(b"\n")
    if kind == "json":
        objects = list(re.finditer(rb"\{[^{}]*\}", data))
        if not objects:
            return data
        m = rnd.choice(objects)
        return data[:m.end()] + b", " + m.group(0) + data[m.end():]
    rows = [i for i, line in enumerate(lines) if b"\t" in line or b"," in line]
    if len(rows) < 2:
        return data
    i, j = rnd.sample(rows, 2)
    sep = b"\t" if b"\t" in lines[i] else b","
    first = lines[i].split(sep, 1)[0]  # a token id, a mention id, a coder or document name
    lines[j] = first + sep + lines[j].split(sep, 1)[-1]
    return b"\n".join(lines)


def _long_field(data: bytes, kind: str, rnd: random.Random) -> bytes:
    long = rnd.choice(_LONG)
    fields = list(re.finditer(rb"[^\t,;\n<>\"]+", data))
    if not fields:
        return data + long
    m = rnd.choice(fields)
    return data[:m.start()] + long + data[m.end():]


def _garbage(data: bytes, kind: str, rnd: random.Random) -> bytes:
    return rnd.randbytes(rnd.randrange(1, 3000))


STRUCTURAL: dict[str, Callable[[bytes, str, random.Random], bytes]] = {
    "empty": lambda data, kind, rnd: b"",
    "garbage": _garbage,
    "deep": _deep,
    "drop-element": lambda data, kind, rnd: _element(data, kind, rnd, False),
    "repeat-element": lambda data, kind, rnd: _element(data, kind, rnd, True),
    "regex": _regex,
    "duplicate-id": _duplicate_id,
    "long-field": _long_field,
}
FILE_OPERATORS = ("same-file-twice", "same-prefix")
ALL_OPERATORS = (*BYTE_OPERATORS, *STRUCTURAL, *FILE_OPERATORS)


def _operators(kind: str) -> list[str]:
    ops = list(BYTE_OPERATORS) + [op for op in STRUCTURAL if op != "regex" or kind == "xml"]
    return ops + list(FILE_OPERATORS)


@dataclass
class Case:
    """One input: the files, the mutated file's name, the command line, what was done."""

    reader: str
    files: Files
    mutated: str
    argv: list[str]
    ops: list[str]
    seed_index: int

    def size(self) -> int:
        return len(self.files[self.mutated])


def make_case(name: str, rnd: random.Random, seeds: list[Files]) -> Case:
    """A seed of ``name`` with one to four mutations and one of its command lines."""
    reader = READERS[name]
    index = rnd.randrange(len(seeds))
    files = dict(seeds[index])
    target = rnd.choice(reader.mutated)
    argv = list(rnd.choice(reader.argvs))
    ops = rnd.sample(_operators(reader.kind), rnd.choices((1, 2, 3, 4), (45, 30, 15, 10))[0])
    data = files[target]
    for op in ops:
        if op == "deep" and reader.kind in ("bracket", "conllu-trees"):
            tree = deep_tree(reader.kind, rnd)
            suffix = target.rsplit(".", 1)[-1]
            other = tree  # the same, or with one label changed (a distance to compute)
            if rnd.random() < 0.5:
                other = tree.replace(b"\tdep\t", b"\tobj\t", 1).replace(b"(S ", b"(T ", 1)
            for rel in files:
                if rel != target and rel.endswith(suffix) and rnd.random() < 0.9:
                    files[rel] = files[rel] + other
            data = data + tree
        elif op in STRUCTURAL:
            data = STRUCTURAL[op](data, reader.kind, rnd)
        elif op == "same-file-twice":
            if argv[0] in ("pyramid", "pan", "coref", "trees") and target in argv:
                argv.insert(argv.index(target) + 1, target)
        elif op == "same-prefix":
            folder, _, base = target.rpartition("/")
            if folder:
                stem, dot, ext = base.rpartition(".")
                files[f"{folder}/{stem}-copy{dot}{ext}"] = data
        else:
            data = byte_mutate(data, op, rnd)
    files[target] = data
    return Case(name, files, target, argv, ops, index)


# ------------------------------------------------------------------------------- the child

def _child(argv: list[str], workdir: Path, mem_mb: int, timeout: float) -> None:
    """In the forked child: limit memory, run the command, exit with its status.

    The process pools the parent keeps (``--jobs``) are not the child's: their queues and
    threads stay with the parent, so a command given them would wait forever. The child
    forgets them, and stops the pools of its own before it exits (``os._exit`` skips the exit
    handler that would, and their workers would be left running)."""
    from clusteragree.core import parallel

    parallel._POOLS.clear()
    code = 99
    try:
        if mem_mb:
            limit = mem_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        os.chdir(workdir)
        out = os.open(".stdout", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        err = os.open(".stderr", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(out, 1)
        os.dup2(err, 2)
        sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 - the child's streams
        sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
        dump = open(".faults", "w")  # noqa: SIM115 - kept open until the child ends
        faulthandler.enable(file=dump)
        faulthandler.dump_traceback_later(max(timeout - 1.0, timeout * 0.8), file=dump)
        import clusteragree.cli as cli

        plain_error = cli._error

        def error(prefix: str, message: str) -> None:  # keeps the traceback of exit 70
            if "internal error" in prefix:
                Path(".traceback").write_text(traceback.format_exc())
            plain_error(prefix, message)

        cli._error = error
        try:
            code = cli.main(argv)
        except BaseException as exc:  # the command must not let one escape
            Path(".traceback").write_text(traceback.format_exc())
            print(f"uncaught: {type(exc).__name__}: {exc}", file=sys.stderr)
            code = ESCAPED
        faulthandler.cancel_dump_traceback_later()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        with contextlib.suppress(BaseException):
            parallel.shutdown()
        os._exit(code if isinstance(code, int) and 0 <= code < 256 else 99)



_FRAME = re.compile(r'File "([^"]+)", line (\d+)(?:, in | in )(\S+)')
_DUMP = re.compile(r"(?:Current thread 0x\w+|Thread 0x\w+|Stack) \(most recent call first\):"
                   r"\n((?:[ \t]+.*\n?)*)")
_EXC_LINE = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Iteration"
                       r"|Fault))(?::\s?(.*))?$")

def _where(text: str) -> tuple[str, str]:
    """(file:function, file:line) of the innermost frame in the package, or of any frame.

    The fault handler lists the innermost frame first, a traceback last."""
    dump = _DUMP.search(text)  # the fault handler's: innermost first, current thread first
    frames = [(f, int(n), fn) for f, n, fn in _FRAME.findall(dump.group(1) if dump else text)]
    if dump:
        frames.reverse()
    ours = [fr for fr in frames if "/clusteragree/" in fr[0] and "/cli/__init__.py" not in fr[0]]
    pick = (ours or frames or [("?", 0, "?")])[-1]
    path = pick[0].split("/clusteragree/", 1)[-1]
    path = f"clusteragree/{path}" if "/clusteragree/" in pick[0] else Path(path).name
    return f"{path}:{pick[2]}", f"{path}:{pick[1]}"


def _message_prefix(message: str) -> str:
    message = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", message)
    message = re.sub(r"\d+", "N", message)
    message = re.sub(r"\s+", " ", message).strip()
    return message[:60]


def _exception(tb: str, stderr: str) -> tuple[str, str]:
    """The exception type and message from a traceback (or from stderr)."""
    lines = [line for line in tb.splitlines() if line.strip()]
    for line in reversed(lines):
        m = _EXC_LINE.match(line.strip())
        if m and not line.startswith(" "):
            return m.group(1).rsplit(".", 1)[-1], m.group(2) or ""
    last = [line for line in stderr.splitlines() if line.strip()]
    text = last[-1] if last else ""
    m = re.search(r"internal error: (\w+): (.*)", text)
    return (m.group(1), m.group(2)) if m else ("", text)


@dataclass
class Outcome:
    outcome: str
    signature: str = ""
    where_line: str = ""
    exception: str = ""
    message: str = ""
    stderr: str = ""
    traceback: str = ""
    seconds: float = 0.0
    max_rss_mb: float = 0.0
    stderr_chars: int = 0


def classify(status: int | None, workdir: Path, seconds: float, rss_kb: int) -> Outcome:
    """The outcome of a child from its wait status (None: killed at the time limit)."""
    def read(name: str) -> str:
        path = workdir / name
        return path.read_text(errors="replace") if path.exists() else ""

    stderr, tb, faults = read(".stderr"), read(".traceback"), read(".faults")
    kept = stderr if len(stderr) <= 30_000 else f"{stderr[:10_000]}\n[...]\n{stderr[-20_000:]}"
    result = Outcome("", stderr=kept, seconds=seconds, max_rss_mb=rss_kb / 1024,
                     stderr_chars=len(stderr))
    if status is None:
        result.outcome = "hang"
        where, line = _where(faults)
        result.signature = f"hang | timeout | {where}"
        result.where_line, result.traceback = line, faults
        return result
    if os.WIFSIGNALED(status):
        sig = signal.Signals(os.WTERMSIG(status)).name
        where, line = _where(faults)
        result.outcome = "crash"
        result.signature = f"crash | {sig} | {where}"
        result.where_line, result.traceback, result.exception = line, faults, sig
        return result
    code = os.WEXITSTATUS(status)
    if code == 1 and OUT_OF_MEMORY in stderr:
        result.outcome, result.exception = "crash", "MemoryError"
        result.signature = "crash | memory | MemoryError caught by the command"
        return result
    result.outcome = {0: "ok", 1: "input-error", 2: "usage", 70: "internal-error"}.get(
        code, "uncaught")
    if result.outcome in GOOD:
        return result
    exc, message = _exception(tb, stderr)
    if result.outcome == "uncaught" and code != ESCAPED:
        exc, message = f"exit {code}", stderr.strip().splitlines()[-1] if stderr.strip() else ""
    if exc == "MemoryError":
        result.outcome = "crash"
    where, line = _where(tb)
    result.exception, result.message, result.traceback = exc, message, tb
    result.where_line = line
    result.signature = f"{result.outcome} | {exc}: {_message_prefix(message)} | {where}"
    return result


# ------------------------------------------------------------------------------ the runner

@dataclass
class Running:
    case: Case
    workdir: Path
    pid: int
    started: float


def _prepare(case: Case, workdir: Path) -> None:
    for rel, content in case.files.items():
        (workdir / rel).parent.mkdir(parents=True, exist_ok=True)
        (workdir / rel).write_bytes(content)


def _start(case: Case, workdir: Path, mem_mb: int, timeout: float) -> Running:
    _prepare(case, workdir)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        _child(case.argv, workdir, mem_mb, timeout)
    return Running(case, workdir, pid, time.monotonic())


def _poll(run: Running, timeout: float, block: bool = False) -> Outcome | None:
    """The outcome of a finished (or overdue) child, or None while it runs."""
    while True:
        pid, status, usage = os.wait4(run.pid, 0 if block else os.WNOHANG)
        elapsed = time.monotonic() - run.started
        if pid:
            return classify(status, run.workdir, elapsed, usage.ru_maxrss)
        if elapsed >= timeout:
            os.kill(run.pid, signal.SIGKILL)
            os.wait4(run.pid, 0)
            return classify(None, run.workdir, elapsed, 0)
        if not block:
            return None


def run_case(case: Case, workdir: Path, mem_mb: int, timeout: float) -> Outcome:
    """Run one case to its end (used to reduce an example)."""
    run = _start(case, workdir, mem_mb, timeout)
    try:
        while True:
            outcome = _poll(run, timeout)
            if outcome is not None:
                return outcome
            time.sleep(0.002)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _chunks(data: bytes, by_line: bool) -> list[bytes]:
    return data.split(b"\n") if by_line else [data[i:i + 1] for i in range(len(data))]


def reduce_case(case: Case, signature: str, tmp: Path, mem_mb: int, timeout: float,
                budget: int) -> tuple[Case, int]:
    """A smaller input with the same failure signature: chunks of lines, then of bytes (a
    simple delta debugging), within ``budget`` runs. Returns the case and the runs used."""
    runs = 0
    best = case
    deadline = time.monotonic() + max(60.0, 3 * timeout)

    def same(data: bytes) -> bool:
        nonlocal runs, budget
        runs += 1
        if time.monotonic() > deadline:
            budget = runs  # no more time: stop after this run
        trial = Case(case.reader, {**best.files, case.mutated: data}, case.mutated, case.argv,
                     case.ops, case.seed_index)
        got = run_case(trial, tmp / f"reduce-{runs}", mem_mb, timeout)
        return got.signature == signature

    for by_line in (True, False):
        sep = b"\n" if by_line else b""
        parts = _chunks(best.files[case.mutated], by_line)
        if not by_line and len(parts) > 20_000:
            step = len(parts) // 2  # long inputs: halves first, without a list of bytes
            data = best.files[case.mutated]
            while step >= 1 and runs < budget:
                cut = False
                for start in range(0, len(data), step):
                    if runs >= budget:
                        break
                    trial = data[:start] + data[start + step:]
                    if trial != data and same(trial):
                        data, cut = trial, True
                        best = Case(case.reader, {**best.files, case.mutated: data},
                                    case.mutated, case.argv, case.ops, case.seed_index)
                        break
                if not cut:
                    step //= 2
            continue
        n = 2
        while len(parts) >= 1 and runs < budget:
            size = max(1, len(parts) // n)
            removed = False
            for start in range(0, len(parts), size):
                if runs >= budget:
                    break
                kept = parts[:start] + parts[start + size:]
                if same(sep.join(kept)):
                    parts, removed = kept, True
                    best = Case(case.reader, {**best.files, case.mutated: sep.join(parts)},
                                case.mutated, case.argv, case.ops, case.seed_index)
                    n = max(n - 1, 2)
                    break
            if not removed:
                if size == 1:
                    break
                n = min(n * 2, len(parts))
    return best, runs


# ----------------------------------------------------------------------------- the campaign

@dataclass
class Failure:
    """One distinct failure: its counts per reader and its smallest example."""

    signature: str
    outcome: str
    counts: Counter[str] = field(default_factory=Counter)
    example: Case | None = None
    result: Outcome | None = None


@dataclass
class Campaign:
    counts: dict[str, Counter[str]]
    failures: dict[str, Failure]
    seeds: dict[str, list[str]]
    max_rss_mb: dict[str, float]
    usage: Counter[tuple[str, str]] = field(default_factory=Counter)
    long_messages: dict[str, tuple[str, int]] = field(default_factory=dict)


def warm_up() -> None:
    """Import every subcommand and library once, and compile the numba kernel, so that each
    child inherits them instead of paying for them."""
    from clusteragree.cli import build_parser

    build_parser()
    for module in ("clusteragree.core", "clusteragree.pyramids", "clusteragree.coref",
                   "clusteragree.labels", "clusteragree.trees", "clusteragree.report"):
        mod = importlib.import_module(module)
        for name in getattr(mod, "__all__", ()):
            getattr(mod, name)
    with contextlib.suppress(Exception):
        from clusteragree.trees import ted

        ted(("a", (("b", ()),)), ("a", ()))


def check_seeds(names: list[str], tmp: Path, mem_mb: int, timeout: float) -> dict[str, list[str]]:
    """Each seed unmutated with each command line: anything but exit 0 is listed (such a seed
    tests less than it should)."""
    bad: dict[str, list[str]] = {}
    for name in names:
        reader = READERS[name]
        for index, files in enumerate(reader.seeds()):
            for argv in reader.argvs:
                case = Case(name, dict(files), reader.mutated[0], list(argv), [], index)
                got = run_case(case, tmp / f"seed-{name}-{index}", mem_mb, timeout)
                if got.outcome != "ok":
                    last = got.stderr.strip().splitlines()[-1:] or [""]
                    bad.setdefault(name, []).append(
                        f"seed {index} {' '.join(argv)}: {got.outcome}: {last[0][:200]}")
    return bad


def campaign(names: list[str], n: int, seed: int, *, timeout: float = 20.0, jobs: int = 1,
             mem_mb: int = 4096, out_dir: Path | None = None, minimize: int = 0,
             progress: bool = False) -> Campaign:
    """Run ``n`` mutated inputs per reader; print the report (and write ``out_dir``)."""
    warm_up()
    tmp = Path(tempfile.mkdtemp(prefix="clusteragree-campaign-"))
    counts: dict[str, Counter[str]] = {name: Counter() for name in names}
    rss: dict[str, float] = dict.fromkeys(names, 0.0)
    failures: dict[str, Failure] = {}
    usage: Counter[tuple[str, str]] = Counter()
    long_messages: dict[str, tuple[str, int]] = {}
    running: list[Running] = []
    try:
        seeds_report = check_seeds(names, tmp, mem_mb, timeout)
        cases = (make_case(name, rnd, seeds) for name in names  # a reader's inputs depend on
                 for rnd in [random.Random(f"{seed}:{name}")]  # the seed, not on the others
                 for seeds in [READERS[name].seeds()] for _ in range(n))
        pending = next(cases, None)
        done, started = 0, time.monotonic()
        while pending is not None or running:
            while pending is not None and len(running) < jobs:
                case = pending
                pending = next(cases, None)
                running.append(_start(case, tmp / f"run-{done + len(running)}-{case.reader}",
                                      mem_mb, timeout))
            time.sleep(0.002)
            for run in list(running):
                got = _poll(run, timeout)
                if got is None:
                    continue
                running.remove(run)
                done += 1
                reader = run.case.reader
                counts[reader][got.outcome] += 1
                rss[reader] = max(rss[reader], got.max_rss_mb)
                if got.outcome == "usage":  # from a mutated file: worth a look
                    last = [line for line in got.stderr.splitlines() if "error:" in line][-1:]
                    usage[reader, _message_prefix(last[0] if last else got.stderr)] += 1
                if got.stderr_chars > LONG_MESSAGE:  # a message quoting a whole field?
                    example, seen = long_messages.get(reader, (
                        f"{' '.join(run.case.argv)} ({'+'.join(run.case.ops)}): "
                        f"{got.outcome}, {got.stderr_chars} characters: {got.stderr[:120]!r}",
                        0))
                    long_messages[reader] = (example, seen + 1)
                if got.outcome not in GOOD:
                    fail = failures.setdefault(got.signature,
                                               Failure(got.signature, got.outcome))
                    fail.counts[reader] += 1
                    if fail.example is None or run.case.size() < fail.example.size():
                        fail.example, fail.result = run.case, got
                shutil.rmtree(run.workdir, ignore_errors=True)
                if progress and done % 100 == 0:
                    print(f"... {done} inputs, {time.monotonic() - started:.0f} s",
                          file=sys.stderr, flush=True)
        result = Campaign(counts, failures, seeds_report, rss, usage, long_messages)
        _report(result, n, seed)
        if out_dir is not None:
            _write(result, n, seed, out_dir, tmp, mem_mb, timeout, minimize)
        return result
    finally:
        for run in running:
            with contextlib.suppress(ProcessLookupError, ChildProcessError):
                os.kill(run.pid, signal.SIGKILL)
                os.waitpid(run.pid, 0)
        shutil.rmtree(tmp, ignore_errors=True)


def _report(result: Campaign, n: int, seed: int) -> None:
    counts = result.counts
    width = max(len(r) for r in counts)
    cols = (*OUTCOMES, "max RSS MB")
    print(f"{'reader':<{width}}  " + "  ".join(f"{o:>14}" for o in cols))
    for reader, c in counts.items():
        print(f"{reader:<{width}}  " + "  ".join(f"{c[o]:>14}" for o in OUTCOMES)
              + f"  {result.max_rss_mb[reader]:>14.0f}")
    total = sum(counts.values(), Counter())
    print(f"{'total':<{width}}  " + "  ".join(f"{total[o]:>14}" for o in OUTCOMES))
    print(f"\n{sum(total.values())} inputs ({n} per reader), seed {seed}; "
          f"distinct failures: {len(result.failures)}")
    for number, fail in enumerate(_ordered(result.failures), 1):
        readers = ", ".join(f"{r} {k}" for r, k in fail.counts.most_common())
        print(f"{number:3d}. {sum(fail.counts.values()):5d}  {fail.signature}\n"
              f"            {readers}")
        if fail.example is not None and fail.result is not None:
            print(f"            e.g. {' '.join(fail.example.argv)}; mutations "
                  f"{'+'.join(fail.example.ops)} of seed {fail.example.seed_index}; "
                  f"{fail.example.size()} bytes; at {fail.result.where_line}")
    for reader, lines in result.seeds.items():
        for line in lines:
            print(f"note: {reader}: unmutated {line}")
    for reader, (example, count) in result.long_messages.items():
        print(f"note: {reader}: stderr over {LONG_MESSAGE} characters {count} times, e.g. "
              f"{example}")
    for (reader, message), count in sorted(result.usage.items()):
        print(f"note: {reader}: exit 2 (usage) {count} times: {message}")


def _ordered(failures: dict[str, Failure]) -> list[Failure]:
    rank = {o: i for i, o in enumerate(OUTCOMES)}
    return sorted(failures.values(), key=lambda f: (rank[f.outcome], -sum(f.counts.values()),
                                                    f.signature))


def _save_case(case: Case, outcome: Outcome, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for rel, content in case.files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(content)
    (folder / "argv.txt").write_text(" ".join(case.argv) + "\n")
    (folder / "stderr.txt").write_text(outcome.stderr)
    (folder / "traceback.txt").write_text(outcome.traceback)


def _write(result: Campaign, n: int, seed: int, out_dir: Path, tmp: Path, mem_mb: int,
           timeout: float, minimize: int) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    listed = []
    for number, fail in enumerate(_ordered(result.failures), 1):
        case, got = fail.example, fail.result
        assert case is not None and got is not None
        slug = re.sub(r"[^A-Za-z0-9]+", "-", got.exception or fail.outcome)[:40].strip("-")
        folder = out_dir / fail.outcome / f"{number:02d}-{case.reader}-{slug}"
        _save_case(case, got, folder)
        info = {"signature": fail.signature, "outcome": fail.outcome,
                "count": sum(fail.counts.values()), "readers": dict(fail.counts),
                "argv": case.argv, "mutated": case.mutated, "mutations": case.ops,
                "seed_index": case.seed_index, "bytes": case.size(), "where": got.where_line,
                "exception": got.exception, "message": got.message[:2000],
                "seconds": round(got.seconds, 2)}
        if minimize and fail.outcome != "hang":
            small, runs = reduce_case(case, fail.signature, tmp, mem_mb, timeout, minimize)
            again = run_case(small, tmp / "reduced", mem_mb, timeout)
            _save_case(small, again, folder / "minimal")
            info["minimal_bytes"], info["minimal_runs"] = small.size(), runs
            if small.size() <= 2000:
                info["minimal_input"] = small.files[case.mutated].decode("utf-8", "replace")
        (folder / "info.json").write_text(json.dumps(info, indent=1, ensure_ascii=False) + "\n")
        listed.append({**info, "folder": str(folder.relative_to(out_dir))})
    total = sum(result.counts.values(), Counter())
    summary = {"n_per_reader": n, "seed": seed, "timeout_s": timeout, "mem_limit_mb": mem_mb,
               "counts": {r: dict(c) for r, c in result.counts.items()}, "total": dict(total),
               "max_rss_mb": {r: round(v, 1) for r, v in result.max_rss_mb.items()},
               "seeds_not_ok": result.seeds,
               "long_messages": {r: {"example": e, "count": k}
                                 for r, (e, k) in result.long_messages.items()},
               "usage": [{"reader": r, "message": m, "count": k}
                         for (r, m), k in sorted(result.usage.items())],
               "failures": listed}
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False)
                                          + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        epilog="example: python scripts/fuzz_campaign.py --n 300 --jobs 1 --out /tmp/campaign")
    parser.add_argument("--n", type=int, default=500, help="inputs per reader (default 500)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--timeout", type=float, default=20.0,
                        help="seconds before an input counts as a hang (default 20)")
    parser.add_argument("--jobs", type=int, default=1, help="children at once (default 1)")
    parser.add_argument("--mem-limit", type=int, default=4096, metavar="MB",
                        help="address-space limit of each child in MB (0: none; default 4096)")
    parser.add_argument("--readers", default=",".join(READERS),
                        help="comma-separated among " + ",".join(READERS) + " (default: all)")
    parser.add_argument("--out", type=Path,
                        help="directory for summary.json and one folder per failure")
    parser.add_argument("--minimize", type=int, default=150, metavar="RUNS",
                        help="with --out, reduce each failure's example with at most RUNS more "
                             "runs (0: no reduction; default 150)")
    parser.add_argument("--progress", action="store_true", help="a line on stderr every 100")
    args = parser.parse_args(argv)
    names = [r.strip() for r in args.readers.split(",") if r.strip()]
    unknown = [r for r in names if r not in READERS]
    if unknown:
        parser.error(f"unknown readers: {', '.join(unknown)}")
    if args.n < 1 or args.jobs < 1 or args.timeout <= 0 or args.mem_limit < 0:
        parser.error("--n and --jobs must be >= 1, --timeout > 0, --mem-limit >= 0")
    result = campaign(names, args.n, args.seed, timeout=args.timeout, jobs=args.jobs,
                      mem_mb=args.mem_limit, out_dir=args.out, minimize=args.minimize,
                      progress=args.progress)
    return 1 if result.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
