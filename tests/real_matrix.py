"""The real-data matrix: every subcommand, and ``report`` for each, on the real corpora of
``../shared/corpora``, crossed with the option families.

:func:`build` writes the derived inputs a corpus of one annotator needs (a perturbed second
annotation, tables made from real annotations) into a scratch directory and returns the cases;
``tests/test_real_corpora.py`` runs them and ``scripts/`` need not know about them. A case is a
command line and the exit statuses it may end with (0, or 0 and 1 where the data decide).

The derivations are deliberately simple and independent of the library: regular expressions
over the files' text, so a reader's bug cannot hide in the derived input.
"""

from __future__ import annotations

import csv
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "corpora"

DUC06 = SHARED / "duc-pyramids" / "DUC2006" / "DUC2006pyramiddata"
DUC07 = SHARED / "duc-pyramids" / "DUC2007" / "mainPyramidEval"
DUC07U = SHARED / "duc-pyramids" / "DUC2007" / "updateEval" / "Pyramid"
PA = SHARED / "coref-multi-annotator" / "participant-analysis"
LITBANK = SHARED / "coref-multi-annotator" / "litbank" / "coref"
REF = SHARED / "coref-scorer-tests" / "reference-scorer" / "test" / "DataFiles"
COVAL = SHARED / "coref-scorer-tests" / "coval" / "tests"
UD = SHARED / "coref-scorer-tests" / "corefud-scorer" / "tests" / "tests-corefud"
SYNTAX = SHARED / "syntax"


@dataclass(frozen=True)
class Case:
    """One command line of the matrix.

    ``exits`` are the statuses it may end with; ``must`` are strings stderr or stdout must
    hold (the option a refusal names, say).
    """

    id: str
    argv: tuple[str, ...]
    exits: frozenset[int] = frozenset({0})
    must: tuple[str, ...] = ()
    slow: bool = False
    tags: frozenset[str] = field(default_factory=frozenset)


def available() -> bool:
    """Whether the shared corpora are beside the project."""
    return SHARED.is_dir()


# --------------------------------------------------------------------------- derivations


def merge_scus(src: Path, dst: Path, every: int = 4) -> Path:
    """A second pyramid of the same summaries: every ``every``-th pair of adjacent SCUs merged
    (the closing tag of one and the opening tag of the next removed)."""
    raw, n = src.read_bytes(), [0]

    def merge(m: re.Match[bytes]) -> bytes:
        n[0] += 1
        return b"" if n[0] % every == 0 else m.group(0)

    dst.write_bytes(re.sub(rb"</scu>\s*<scu\s[^>]*>", merge, raw))
    return dst


def shuffle_conll_chains(src: Path, dst: Path, seed: int = 1, share: float = 0.2) -> Path:
    """A second CoNLL annotation: a share of the chain ids renamed to other chains' ids (so
    entities merge), everything else byte for byte."""
    text = src.read_text(encoding="utf-8")
    ids = sorted({int(n) for line in text.split("\n")
                  if line.strip() and not line.startswith("#")
                  for n in re.findall(r"\d+", line.rpartition("\t")[2])})
    rng = random.Random(seed)
    moved = {i: rng.choice(ids) for i in ids if rng.random() < share}

    def repl(m: re.Match[str]) -> str:
        return str(moved.get(int(m.group(0)), int(m.group(0))))

    lines = []
    for line in text.split("\n"):
        if line.startswith("#") or not line.strip():
            lines.append(line)
            continue
        head, sep, last = line.rpartition("\t")
        lines.append(head + sep + re.sub(r"\d+", repl, last))
    dst.write_text("\n".join(lines), encoding="utf-8")
    return dst


def perturb_brat(src_dir: Path, dst_dir: Path, seed: int = 2) -> Path:
    """A second BRAT annotation: every fifth text-bound annotation dropped, with the chains and
    relations that name it."""
    dst_dir.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    for ann in sorted(src_dir.glob("*.ann")):
        lines = ann.read_text(encoding="utf-8").splitlines()
        drop = {line.split("\t", 1)[0] for line in lines
                if line.startswith("T") and rng.random() < 0.2}
        kept = []
        for line in lines:
            ident = line.split("\t", 1)[0]
            if ident in drop:
                continue
            if line.startswith(("*", "R", "#", "A", "E", "N")):
                names = set(re.findall(r"\bT\d+\b", line.split("\t", 1)[-1]))
                if names & drop:
                    if line.startswith("*"):
                        rest = [t for t in line.split("\t")[1].split()[1:] if t not in drop]
                        if len(rest) >= 2:
                            kept.append(f"*\t{line.split()[1]} {' '.join(rest)}")
                    continue
            kept.append(line)
        (dst_dir / ann.name).write_text("\n".join(kept) + "\n", encoding="utf-8")
    return dst_dir


def codings_from_pans(pans: list[Path], dst: Path, with_document: bool = True) -> Path:
    """A long CSV ``document,coder,unit,labels`` from several annotators' .pan files: a
    document is a peer, a unit an SCU of the pyramid, its label ``expressed`` when the
    annotator found a contributor of it in the peer (the empty set otherwise); read by
    regular expressions."""
    with dst.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["document", "coder", "unit", "labels"] if with_document
                     else ["coder", "unit", "labels"])
        for pan in pans:
            annotator, peer = pan.name.split(".")[0], ".".join(pan.name.split(".")[1:-1])
            raw = pan.read_text(encoding="utf-8", errors="replace")
            for scu in re.finditer(r'<peerscu uid="(\d+)"[^>]*>(.*?)</peerscu>', raw, re.S):
                label = "expressed" if "<contributor" in scu.group(2) else ""
                unit = scu.group(1) if with_document else f"{peer}:{scu.group(1)}"
                out.writerow([peer, annotator, unit, label] if with_document
                             else [annotator, unit, label])
    return dst


def multilabel_from_pans(pans: list[Path], dst: Path) -> Path:
    """``item,annotator,label`` rows from .pan files of two annotators: an item is a peer
    contributor's text, its labels the SCU uids it was matched to."""
    with dst.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["item", "annotator", "label"])
        for pan in pans:
            annotator = pan.name.split(".")[0]
            peer = pan.name.split(".")[-2]
            raw = pan.read_text(encoding="utf-8", errors="replace")
            for scu in re.finditer(r'<scu uid="(\d+)"[^>]*>(.*?)</scu>', raw, re.S):
                for label in re.findall(r'<contributor label="([^"]*)"', scu.group(2)):
                    out.writerow([f"{peer}:{label[:60]}", annotator, scu.group(1)])
    return dst


def types_per_window(pair: list[Path], dst: Path, width: int = 400) -> Path:
    """``item,annotator,label`` rows from BRAT annotators: an item is a window of ``width``
    characters of a document, its labels the entity types of the mentions that start in it
    (read by regular expressions)."""
    seen: dict[tuple[str, str], dict[str, None]] = {}
    for number, coder_dir in enumerate(pair):
        for ann in sorted(coder_dir.glob("*.ann")):
            for line in ann.read_text(encoding="utf-8").splitlines():
                m = re.match(r"T\d+\t(\S+) (\d+) \d+\t", line)
                if m:
                    item = f"{ann.stem}:{int(m.group(2)) // width}"
                    seen.setdefault((item, f"ann{number}"), {})[m.group(1)] = None
    with dst.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["item", "annotator", "label"])
        for (item, coder), labels in seen.items():
            for label in labels:
                out.writerow([item, coder, label])
    return dst


def joined_multilabel(src: Path, dst: Path) -> Path:
    """The same labels with one row per item and annotator, the labels joined by ``;`` (as
    the codings format writes a set): ambiguous in a multi-label file without ``--sep``."""
    with src.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    cells: dict[tuple[str, str], list[str]] = {}
    for item, annotator, label in rows[1:]:
        cells.setdefault((item, annotator), []).append(label)
    with dst.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(rows[0])
        for (item, annotator), labels in cells.items():
            out.writerow([item, annotator, ";".join(labels)])
    return dst


def parquet_from_csv(src: Path, dst: Path, parts: int = 3) -> Path | None:
    """A directory of Parquet parts holding the rows of a long CSV (None without pyarrow)."""
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover
        return None
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return None
    frame = pd.read_csv(src, dtype=str, keep_default_na=False)
    dst.mkdir(parents=True, exist_ok=True)
    size = -(-len(frame) // parts)
    for i in range(parts):
        frame.iloc[i * size:(i + 1) * size].to_parquet(dst / f"part-{i}.parquet", index=False)
    return dst


# --------------------------------------------------------------------------- the cases

FORMATS = ("json", "csv", "latex")


def _families(cmd: str, inputs: list[str], *, base: tuple[str, ...] = (), ci: bool = True,
              diagnostics: bool = True, pairwise: bool = True, per_doc: bool = True,
              differences: bool = False, metrics_all: bool = True, strict_exits=(0, 1),
              names: bool = True, report: bool = True, bootstrap: str = "50",
              heavy: bool = False,
              ) -> Iterator[tuple[str, tuple[str, ...], frozenset[int]]]:
    """The option families for one command on one input set (``heavy``: a corpus whose every
    run takes seconds gets the families of :data:`CORE` only; the output formats, jobs and
    names are crossed with the lighter corpora of the same command)."""
    for name, argv, exits in _all_families(
            cmd, inputs, base=base, ci=ci, diagnostics=diagnostics, pairwise=pairwise,
            per_doc=per_doc, differences=differences, metrics_all=metrics_all,
            strict_exits=strict_exits, names=names, report=report, bootstrap=bootstrap):
        if not heavy or name in CORE:
            yield name, argv, exits


#: The families every corpus gets, however long its runs take.
CORE = frozenset({"default", "strict", "report+"})  # report+: --ci, --diagnostics and what
# the report switches on (--differences, --per-doc, the JSON output), in one run


def _all_families(cmd: str, inputs: list[str], *, base: tuple[str, ...], ci: bool,
                  diagnostics: bool, pairwise: bool, per_doc: bool, differences: bool,
                  metrics_all: bool, strict_exits: tuple[int, ...], names: bool,
                  report: bool, bootstrap: str,
                  ) -> Iterator[tuple[str, tuple[str, ...], frozenset[int]]]:
    ok = frozenset({0})
    yield "default", (cmd, *inputs, *base), ok
    for f in FORMATS:
        yield f"-f {f}", (cmd, *inputs, *base, "-f", f), ok
    if ci:
        yield "ci", (cmd, *inputs, *base, "--ci", "0.95", "--bootstrap", bootstrap,
                     "--seed", "1"), ok
    if diagnostics:
        yield "diagnostics", (cmd, *inputs, *base, "--diagnostics"), ok
    if pairwise:
        yield "pairwise", (cmd, *inputs, *base, "--pairwise"), ok
    if per_doc:
        yield "per-doc", (cmd, *inputs, *base, "--per-doc"), ok
    if differences:
        yield "differences", (cmd, *inputs, *base, "--differences"), ok
    if metrics_all:
        yield "metrics all", (cmd, *inputs, *base, "--metrics", "all"), ok
    yield "jobs 1", (cmd, *inputs, *base, "--jobs", "1", "-f", "json"), ok
    yield "jobs 2", (cmd, *inputs, *base, "--jobs", "2", "-f", "json"), ok
    yield "strict", (cmd, *inputs, *base, "--strict"), frozenset(strict_exits)
    if names:
        letters = ",".join(f"ann{i}" for i in range(len([a for a in inputs
                                                           if not a.startswith("-")])))
        yield "names", (cmd, *inputs, *base, "--names", letters), ok
    if report:
        yield "report", ("report", cmd, *inputs, *base, "-o", "{tmp}/report.html"), ok
        opts = ["--ci", "0.95", "--bootstrap", bootstrap, "--seed", "1"] if ci else []
        if diagnostics:
            opts.append("--diagnostics")
        yield "report+", ("report", cmd, *inputs, *base, *opts, "-o", "{tmp}/report2.html"), ok


def build(tmp: Path) -> list[Case]:
    """Every case of the matrix, with its derived inputs written under ``tmp``."""
    cases: list[Case] = []

    def add(group: str, families: Iterator[tuple[str, tuple[str, ...], frozenset[int]]],
            slow: bool = False, must: dict[str, tuple[str, ...]] | None = None) -> None:
        for name, argv, exits in families:
            cases.append(Case(f"{group} [{name}]", argv, exits, (must or {}).get(name, ()),
                              slow=slow))

    # ---- pyramids: DUC 2006 and 2007 pyramids against a copy with SCUs merged
    derived = tmp / "derived"
    derived.mkdir(parents=True, exist_ok=True)
    pyramid_pairs = [
        ("DUC2006 D0631", DUC06 / "allpyramids" / "D0631.pyr"),
        ("DUC2007 D0716", DUC07 / "allpyramids" / "D0716-CDEF.pyr"),
        ("DUC2007 update D0716-B", DUC07U / "allpyramids" / "D0716-B-CDEF.pyr"),
    ]
    for first, (name, pyr) in enumerate(pyramid_pairs):
        other = merge_scus(pyr, derived / f"{pyr.stem}-merged.pyr")
        inputs = [str(pyr), str(other)]
        add(f"pyramid {name}", _families("pyramid", inputs, per_doc=False, metrics_all=False))
        for units in ("spans", "contributors"):  # every family on the first pair, the core ones
            add(f"pyramid {name} --units {units}",  # on the others
                _families("pyramid", inputs, base=("--units", units), per_doc=False,
                          metrics_all=False, names=False, pairwise=False, heavy=first > 0))
        add(f"pyramid {name} --overlap component",
            _families("pyramid", inputs, base=("--overlap", "component"), per_doc=False,
                      metrics_all=False, names=False, pairwise=False, heavy=first > 0))
    # the interval methods: percentile beside the default BCa, and KALPHA's draws
    d0631 = [str(DUC06 / "allpyramids" / "D0631.pyr"), str(derived / "D0631-merged.pyr")]
    cases.append(Case("pyramid DUC2006 D0631 [ci percentile]",
                      ("pyramid", *d0631, "--ci", "0.9", "--bootstrap", "50", "--seed", "1",
                       "--interval", "percentile", "-f", "json")))
    cases.append(Case("pyramid DUC2006 D0631 [ci krippendorff]",
                      ("pyramid", *d0631, "--ci", "0.9", "--bootstrap", "50", "--seed", "1",
                       "--resample", "krippendorff")))
    cases.append(Case("pyramid DUC2006 D0631 [ci bca krippendorff]",
                      ("pyramid", *d0631, "--ci", "0.9", "--interval", "bca", "--resample",
                       "krippendorff"), frozenset({1}), ("--interval bca",)))
    # three annotators: the pyramid, its merged copy, and a copy merged otherwise
    third = merge_scus(DUC06 / "allpyramids" / "D0631.pyr", derived / "D0631-merged3.pyr", 3)
    add("pyramid DUC2006 D0631 x3",
        _families("pyramid", [str(DUC06 / "allpyramids" / "D0631.pyr"),
                              str(derived / "D0631-merged.pyr"), str(third)],
                  per_doc=False, metrics_all=False))
    # the pyramids embedded in the two D0631 annotators' .pan files
    add("pyramid DUC2006 pans 114/115",
        _families("pyramid", [str(DUC06 / "allpans" / "114.D0631.M.250.D.1.pan"),
                              str(DUC06 / "allpans" / "115.D0631.M.250.D.1.pan")],
                  per_doc=False, metrics_all=False, report=False))

    # ---- pans: the doubly annotated D0631 set (22 peers x 2 annotators)
    pans = sorted((DUC06 / "allpans").glob("11[45].D0631.*.pan"))
    add("pan DUC2006 D0631 all", _families("pan", [str(p) for p in pans], metrics_all=False,
                                           names=False, bootstrap="30"), slow=True)
    one_peer = [str(DUC06 / "allpans" / f"{a}.D0631.M.250.D.1.pan") for a in (114, 115)]
    add("pan DUC2006 D0631 peer 1", _families("pan", one_peer, metrics_all=False, names=False))
    add("pan DUC2006 D0631 peer 1 --scores",
        _families("pan", [*one_peer, "--scores"], metrics_all=False, names=False, ci=False,
                  diagnostics=False, pairwise=False, report=False))
    # --names: the annotator of each file (names repeat across peers)
    add("pan DUC2006 D0631 peer 1 --names",
        _families("pan", [*one_peer, "--names", "site114,site115"], metrics_all=False,
                  names=False, ci=False, pairwise=False, report=False))
    # DUC 2007: file names without an annotator field; two different peers, nothing to compare
    pans07 = [str(DUC07 / "allpans" / f"D0716.M.250.D.{i}.pan") for i in (1, 2)]
    add("pan DUC2007 D0716",
        iter([("no annotator", ("pan", *pans07), frozenset({1})),
              ("--names", ("pan", *pans07, "--names", "a,b"), frozenset({1}))]),
        must={"no annotator": ("--names",), "--names": ("no peer was annotated by two",)})

    # ---- coreference: participant-analysis (BRAT, two annotators)
    brat_base = ("--text-dir", str(PA / "text"))
    add("coref participant-analysis",
        _families("coref", [str(PA / "A"), str(PA / "B")], base=brat_base, differences=True,
                  bootstrap="50"))
    add("coref participant-analysis --units words",
        _families("coref", [str(PA / "A"), str(PA / "B")], base=(*brat_base, "--units",
                                                                 "words"),
                  names=False, report=False, pairwise=False))
    add("coref participant-analysis no --text-dir",
        iter([("missing text", ("coref", str(PA / "A"), str(PA / "B")), frozenset({0, 1}))]),
        must={"missing text": ("--text-dir",)})
    # one document per annotator
    one = derived / "pa-one"
    for coder in ("A", "B"):
        (one / coder).mkdir(parents=True, exist_ok=True)
        (one / coder / "Psalms_011.ann").write_bytes((PA / coder / "Psalms_011.ann").read_bytes())
    add("coref participant-analysis one document",
        _families("coref", [str(one / "A"), str(one / "B")], base=brat_base, differences=True,
                  per_doc=False, names=False))
    # LitBank: one adjudicated annotation against a copy with chains merged
    lit = next(LITBANK.glob("conll/*.conll"))
    lit2 = shuffle_conll_chains(lit, derived / "litbank-merged.conll")
    add("coref LitBank CoNLL", _families("coref", [str(lit), str(lit2)], differences=True))
    lit_brat = perturb_brat(LITBANK / "brat", derived / "litbank-brat-b")
    add("coref LitBank BRAT",
        _families("coref", [str(LITBANK / "brat"), str(lit_brat)],
                  base=("--text-dir", str(LITBANK / "brat")), differences=True, names=False,
                  report=False))
    # CR line ends (old Mac files): the same annotation as the LF original, CoNLL F1 1
    lit_cr = derived / "litbank-cr.conll"
    lit_cr.write_bytes(lit.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r"))
    cases.append(Case("coref LitBank CoNLL [CR line ends]",
                      ("coref", str(lit_cr), str(lit), "--metrics", "muc,conll", "--strict"),
                      must=(": 1.0000",)))
    ud_cr = derived / "TC-A-cr.key"
    ud_cr.write_bytes((UD / "exact-match" / "TC-A.key").read_bytes().replace(b"\n", b"\r"))
    cases.append(Case("coref CorefUD TC-A.key [CR line ends]",
                      ("coref", str(ud_cr), str(UD / "exact-match" / "TC-A.key"),
                       "--input-format", "corefud", "--metrics", "muc,conll", "--strict"),
                      must=(": 1.0000",)))
    # the reference scorer's test cases: key against each response
    for key in ("TC-A", "TC-M", "TC-N"):
        response = REF / f"{key}-1.response"
        add(f"coref scorer {key}",
            _families("coref", [str(REF / f"{key}.key"), str(response)], differences=True,
                      names=False, report=key == "TC-A", pairwise=False))
    # the CorefUD scorer's tests (CoNLL-U with other extensions)
    for key, response in (("exact-match/TC-A.key", "exact-match/TC-A-1.response"),
                          ("partial-corefud-match/overlapping_mentions/TC-OLMA.key",
                           "partial-corefud-match/overlapping_mentions/TC-OLMA-1.response"),
                          ("partial-corefud-match/noncontig_mentions/TC-NCMA.key",
                           "partial-corefud-match/noncontig_mentions/TC-NCMA-1.response")):
        add(f"coref CorefUD {key.split('/')[-1]}",
            _families("coref", [str(UD / key), str(UD / response)],
                      base=("--input-format", "corefud"), differences=True, names=False,
                      report=key.startswith("exact"), pairwise=False))

    # ---- spans: the same annotations read as spans (entities, mentions, contributors)
    span_opts = dict(diagnostics=False, pairwise=False)
    add("spans participant-analysis",
        _families("spans", [str(PA / "A"), str(PA / "B")], base=brat_base, names=False,
                  heavy=True, **span_opts))
    add("spans participant-analysis --fragments parts --rules all four",
        iter([("options", ("spans", str(PA / "A"), str(PA / "B"), *brat_base, "--fragments",
                           "parts", "--rules", "exact,exact-span,overlap,overlap-span",
                           "--scheme", "io", "--metrics", "f1,tokens,ualpha2016",
                           "--per-doc", "-f", "json"), frozenset({0}))]))
    add("spans DUC2006 D0631 pyramids",
        _families("spans", d0631, **span_opts))
    add("spans DUC2006 D0631 peer 1", _families("spans", one_peer, names=False, **span_opts))
    add("spans DUC2006 D0631 peers, gamma options",
        iter([("gamma", ("spans", *[str(p) for p in pans], "--metrics", "gamma",
                         "--gamma-alpha", "3", "--gamma-beta", "1", "--delta-empty", "2",
                         "--precision", "0.05", "--alignment", "--per-doc", "-f", "json"),
                frozenset({0}))]))
    add("spans scorer TC-A",
        _families("spans", [str(REF / "TC-A.key"), str(REF / "TC-A-1.response")],
                  base=("--input-format", "conll"), names=False, **span_opts))
    add("spans CorefUD TC-NCMA --fragments parts",
        _families("spans", [str(UD / "partial-corefud-match/noncontig_mentions/TC-NCMA.key"),
                            str(UD / "partial-corefud-match/noncontig_mentions/"
                                "TC-NCMA-1.response")],
                  base=("--input-format", "corefud", "--fragments", "parts"), names=False,
                  report=False, **span_opts))
    add("coref participant-analysis --metrics f1,gamma",
        iter([("span measures", ("coref", str(PA / "A"), str(PA / "B"), *brat_base,
                                 "--metrics", "f1,gamma,muc", "-f", "json"),
               frozenset({0}))]))

    # ---- trees: CDT directories (three annotators), files, NDT, SSD brackets
    cdt = SYNTAX / "cdt"
    it_dirs = [str(cdt / "it" / a) for a in ("iorn", "lisa", "morten")]
    repair = ("--roots", "many", "--cycles", "drop")
    add("trees CDT it --dirs",
        _families("trees", ["--dirs", *it_dirs], base=repair, differences=True, per_doc=False,
                  names=False, heavy=True), slow=True)
    add("trees CDT it --dirs, defaults",
        iter([("refused", ("trees", "--dirs", *it_dirs), frozenset({1}))]),
        must={"refused": ("--roots many", "--cycles drop")})
    es_dirs = [str(p) for p in sorted((cdt / "es").iterdir())]
    # every problem of the run in one refusal, naming only the options still needed
    add("trees CDT es --dirs, defaults",
        iter([("refused", ("trees", "--dirs", *es_dirs), frozenset({1}))]),
        must={"refused": ("--roots many", "--cycles drop")})
    da = [str(cdt / f"da-{a}.conll") for a in ("lotte", "morten")]
    add("trees CDT da --roots many",
        iter([("refused", ("trees", *da, "--roots", "many"), frozenset({1}))]),
        must={"refused": ("3 sentences whose heads form a cycle", "--cycles drop")})
    add("trees CDT es --dirs",
        _families("trees", ["--dirs", *es_dirs], base=repair, per_doc=False, names=False,
                  ci=False, report=False, pairwise=False))
    for lang in ("da", "en"):
        files = [str(cdt / f"{lang}-lotte.conll"), str(cdt / f"{lang}-morten.conll")]
        add(f"trees CDT {lang}", _families("trees", files, base=repair, differences=True,
                                           per_doc=False, report=lang == "da", heavy=True))
    for lang in ("danish", "caterpillar"):
        files = [str(SYNTAX / "ndt" / f"{a}-{lang}.conll") for a in ("odin", "thor")]
        add(f"trees NDT {lang}", _families("trees", files, base=repair, differences=True,
                                           per_doc=False, report=lang == "caterpillar"))
    ssd = [str(p) for p in sorted((SYNTAX / "ssd").iterdir())]
    add("trees SSD --dirs", _families("trees", ["--dirs", *ssd], differences=True,
                                      per_doc=False, names=False, bootstrap="30", heavy=True),
        slow=True)

    # ---- table: codings derived from the D0631 peer annotations (is each SCU expressed?)
    codings = codings_from_pans(pans, derived / "pan-codings.csv")
    add("table DUC2006 pan codings",
        _families("table", [str(codings)], names=False, pairwise=False))
    plain = codings_from_pans(pans, derived / "pan-codings-nodoc.csv", False)
    add("table DUC2006 pan codings, no document",
        _families("table", [str(plain)], names=False, pairwise=False, per_doc=False,
                  report=False))
    parquet = parquet_from_csv(codings, derived / "pan-codings-parquet")
    if parquet is not None:
        add("table DUC2006 pan codings Parquet",
            _families("table", [str(parquet)], names=False, pairwise=False, report=False))
        for jobs in ("1", "2"):
            cases.append(Case(f"table DUC2006 pan codings Parquet [dask jobs {jobs}]",
                              ("table", str(parquet), "--dask", "--jobs", jobs, "-f", "json"),
                              slow=True, tags=frozenset({"dask"})))
        cases.append(Case("table DUC2006 pan codings Parquet [dask no-per-doc]",
                          ("table", str(parquet), "--dask", "--no-per-doc"), slow=True,
                          tags=frozenset({"dask"})))
        # the chance-corrected coefficients of label sets read as scalars
        cases.append(Case("table DUC2006 pan codings Parquet [dask scalar metrics]",
                          ("table", str(parquet), "--dask", "--jobs", "1", "--scalar",
                           "--distance", "nominal", "--metrics", "fleiss,gwet,brennan_prediger",
                           "-f", "json"), exits=frozenset({0, 1}), slow=True,
                          tags=frozenset({"dask"})))
    multi = multilabel_from_pans(
        [DUC06 / "allpans" / f"{a}.D0631.M.250.D.1.pan" for a in (114, 115)],
        derived / "pan-multilabel.csv")
    add("table DUC2006 pans multi-label",
        _families("table", [str(multi)], names=False, per_doc=False))
    cases.append(Case("table DUC2006 pan codings [names]",
                      ("table", str(codings), "--names", "first,second", "--diagnostics",
                       "-f", "json")))
    cases.append(Case("table DUC2006 pans multi-label [names]",
                      ("table", str(multi), "--names", "a114,a115", "--pairwise", "--ci",
                       "0.9", "--bootstrap", "30", "--seed", "1")))
    cases.append(Case("table DUC2006 pans multi-label [names, wrong count]",
                      ("table", str(multi), "--names", "a114"), frozenset({1}),
                      ("--names a114 gives 1 name for the 2 annotators",)))
    # LitBank's entity types per window of text as label sets (the BRAT annotation against
    # its perturbed copy), one row per label, then the labels of a cell joined by ";"
    types = types_per_window([LITBANK / "brat", lit_brat], derived / "litbank-types.csv")
    add("table LitBank types per window",
        _families("table", [str(types)], names=False, per_doc=False, report=False))
    joined = joined_multilabel(types, derived / "litbank-types-joined.csv")
    cases.append(Case("table LitBank types joined [default]",
                      ("table", str(joined)), frozenset({1}), ("--sep ;", "--sep none")))
    add("table LitBank types joined --sep",
        _families("table", [str(joined)], base=("--sep", ";"), names=False, per_doc=False,
                  report=False))

    # ---- validate: every real corpus, several annotators together, every option
    either = frozenset({0, 1})  # the data decide whether an error is found
    sets = [
        ("DUC2006 D0631 pyramids", list(d0631), ()),
        ("DUC2006 D0631 peer 1", list(one_peer), ()),
        ("DUC2006 D0631 all pans", [str(p) for p in pans], ()),
        ("participant-analysis", [str(PA / "A"), str(PA / "B")], brat_base),
        ("LitBank CoNLL", [str(lit), str(lit2)], ()),
        ("scorer TC-A", [str(REF / "TC-A.key"), str(REF / "TC-A-1.response")], ()),
        ("CorefUD TC-NCMA", [str(UD / "partial-corefud-match/noncontig_mentions/TC-NCMA.key"),
                             str(UD / "partial-corefud-match/noncontig_mentions/"
                                 "TC-NCMA-1.response")], ("--input-format", "corefud")),
        ("CDT da", list(da), ()),
        ("CDT it", it_dirs, ()),
        ("NDT caterpillar", [str(SYNTAX / "ndt" / f"{a}-caterpillar.conll")
                             for a in ("odin", "thor")], ()),
        ("SSD", ssd, ()),
        ("pan codings", [str(codings)], ()),
        ("pans multi-label", [str(multi)], ()),
        ("Kafka chapter", [str(SHARED / "tool-exports" / "inception" / "tsv3" / "coref.tsv")],
         ()),
    ]
    for name, inputs, base in sets:
        for family, extra in (("default", ()), ("level 1", ("--level", "1")),
                              ("level 2 json", ("--level", "2", "-f", "json")),
                              ("all csv", ("--max-err", "0", "-f", "csv")),
                              ("names", ("--names", ",".join(f"ann{i}"
                                                              for i in range(len(inputs)))))):
            cases.append(Case(f"validate {name} [{family}]",
                              ("validate", *inputs, *base, *extra), either))
    return cases
