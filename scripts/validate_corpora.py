"""Run ``clusteragree validate`` on every real corpus beside the project and count the incidents
per test: every input alone at levels 1 and 2, and the sets annotated by several people
(one input per annotator) at level 3, whose level-3 incidents are added.

With ``--write-docs`` the counts and the list of every registered test replace the parts of
docs/validate.md between their markers;
``--out`` writes the counts as JSON. Nothing tracked is written otherwise.

Usage::

    python scripts/validate_corpora.py [--corpora ../shared/corpora] [--out counts.json]
                                       [--write-docs]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from clusteragree.cli.validate import known_tests, validate_paths  # noqa: E402
from clusteragree.errors import ClusterAgreeError, Ledger  # noqa: E402
from clusteragree.incidents import TESTS  # noqa: E402

BEGIN, END = "<!-- counts: begin -->", "<!-- counts: end -->"
TESTS_BEGIN, TESTS_END = "<!-- tests: begin -->", "<!-- tests: end -->"


def alone(corpora: Path) -> Iterator[tuple[str, list[Path], dict[str, str]]]:
    """(corpus, [input], options) for every input validated alone."""
    duc = corpora / "duc-pyramids"
    for name, folder in (("DUC 2006", duc / "DUC2006" / "DUC2006pyramiddata"),
                         ("DUC 2007", duc / "DUC2007" / "mainPyramidEval"),
                         ("DUC 2007 update", duc / "DUC2007" / "updateEval" / "Pyramid")):
        for p in sorted((folder / "allpyramids").glob("*.pyr")):
            yield f"{name} pyramids", [p], {}
        for p in sorted((folder / "allpans").glob("*.pan")):
            yield f"{name} peer annotations", [p], {}
    for p in sorted((duc / "pyreval-format").glob("*.pyr")):
        yield "PyrEval pyramids", [p], {}
    scorer = corpora / "coref-scorer-tests"
    for p in sorted((scorer / "reference-scorer" / "test" / "DataFiles").iterdir()):
        if p.is_file() and p.suffix in (".key", ".response"):
            yield "reference scorer cases", [p], {"input_format": "conll"}
    for p in sorted((scorer / "coval" / "tests").rglob("*")):
        if p.is_file() and "README" not in p.name:
            yield "coval cases", [p], {"input_format": "conll"}
    # tests-ua holds the Universal Anaphora format, which no reader of the project reads
    for sub, fmt in (("tests-conll", "conll"), ("tests-corefud", "corefud")):
        for p in sorted((scorer / "corefud-scorer" / "tests" / sub).rglob("*")):
            if p.is_file() and not p.name.endswith(("README", ".md", ".txt", ".py")) \
                    and "README" not in p.name:
                yield f"CorefUD scorer {sub}", [p], {"input_format": fmt}
    pa = corpora / "coref-multi-annotator" / "participant-analysis"
    for coder in ("A", "B"):
        if (pa / coder).is_dir():
            yield "participant-analysis", [pa / coder], {"text_dir": str(pa / "text")}
    lit = corpora / "coref-multi-annotator" / "litbank" / "coref"
    for p in sorted((lit / "conll").glob("*.conll")):
        yield "LitBank", [p], {}
    if (lit / "brat").is_dir():
        yield "LitBank", [lit / "brat"], {"text_dir": str(lit / "brat")}
    syntax = corpora / "syntax"
    for p in sorted((syntax / "cdt").glob("*.conll")):
        yield "CDT", [p], {}
    for lang in ("es", "it"):
        for d in sorted((syntax / "cdt" / lang).iterdir()) if (syntax / "cdt" / lang).is_dir() \
                else []:
            yield "CDT", [d], {}
    for p in sorted((syntax / "ndt").glob("*.conll")):
        yield "NDT", [p], {}
    for d in sorted((syntax / "ssd").iterdir()) if (syntax / "ssd").is_dir() else []:
        yield "SSD", [d], {}
    tools = corpora / "tool-exports" / "inception"
    for p in sorted((tools / "tsv3-suite").rglob("*.tsv")):
        yield "INCEpTION TSV suite", [p], {"input_format": "webanno-tsv"}
    for p in sorted(tools.glob("*.zip")):
        yield "INCEpTION project export", [p], {}
    for p in sorted((tools / "tsv3").glob("*.tsv")):
        yield "INCEpTION TSV examples (the Kafka chapter)", [p], {"input_format": "webanno-tsv"}


def together(corpora: Path) -> Iterator[tuple[str, list[Path], dict[str, str]]]:
    """(corpus, inputs, options) for the sets annotated by several people."""
    pa = corpora / "coref-multi-annotator" / "participant-analysis"
    if pa.is_dir():
        yield "participant-analysis", [pa / "A", pa / "B"], {"text_dir": str(pa / "text")}
    pans = corpora / "duc-pyramids" / "DUC2006" / "DUC2006pyramiddata" / "allpans"
    by_peer: dict[str, list[Path]] = {}
    for p in sorted(pans.glob("*.pan")):
        by_peer.setdefault(p.name.split(".", 1)[1], []).append(p)
    for files in by_peer.values():
        if len(files) > 1:
            yield "DUC 2006 peer annotations", files, {}
    syntax = corpora / "syntax"
    for lang in ("da", "en"):
        files = sorted((syntax / "cdt").glob(f"{lang}-*.conll"))
        if len(files) > 1:
            yield "CDT", files, {}
    for lang in ("es", "it"):
        folder = syntax / "cdt" / lang
        if folder.is_dir():
            yield "CDT", sorted(folder.iterdir()), {}
    for lang in ("danish", "norwegian", "swedish", "caterpillar"):
        files = sorted((syntax / "ndt").glob(f"*-{lang}.conll"))
        if len(files) > 1:
            yield "NDT", files, {}
    if (syntax / "ssd").is_dir():
        yield "SSD", sorted((syntax / "ssd").iterdir()), {}


def run(corpora: Path) -> tuple[list[dict[str, object]], float]:
    known_tests()
    counts: Counter[tuple[str, str]] = Counter()
    inputs: Counter[str] = Counter()
    start = time.perf_counter()
    for level, source in ((2, alone), (3, together)):
        for corpus, paths, options in source(corpora):
            fmt = options.pop("input_format", "auto")
            if level == 2 or corpus not in inputs:
                inputs[corpus] += 1 if level == 2 else len(paths)
            try:
                with Ledger():
                    found = list(validate_paths([str(p) for p in paths], fmt, level=level,
                                                **options))
            except ClusterAgreeError as err:
                counts[(corpus, "(validate refused the inputs)")] += 1
                print(f"{corpus}: {paths[0]}: {err}", file=sys.stderr)
                continue
            for incident in found:
                if level == 2 or incident.level == 3:
                    counts[(corpus, incident.test_id)] += incident.count
    rows = [{"corpus": corpus, "inputs": inputs[corpus], "test": test,
             "level": TESTS[test].level if test in TESTS else None,
             "class": TESTS[test].severity if test in TESTS else None, "count": n}
            for (corpus, test), n in sorted(counts.items())]
    for corpus in inputs:
        if not any(r["corpus"] == corpus for r in rows):
            rows.append({"corpus": corpus, "inputs": inputs[corpus], "test": "(nothing)",
                         "level": None, "class": None, "count": 0})
    return rows, time.perf_counter() - start


def markdown(rows: list[dict[str, object]]) -> str:
    lines = ["| corpus | inputs | test | level | class | count |", "|---|---:|---|---:|---|---:|"]
    for r in sorted(rows, key=lambda r: (str(r["corpus"]), str(r["test"]))):
        lines.append(f"| {r['corpus']} | {r['inputs']} | `{r['test']}` | "
                     f"{r['level'] or ''} | {r['class'] or ''} | {r['count']:,} |")
    return "\n".join(lines)


def tests_table() -> str:
    """Every registered test: id, level, class, domain, what it finds."""
    known_tests()
    lines = ["| test | level | class | domain | what it finds |", "|---|---:|---|---|---|"]
    order = {"input": 0}
    for t in sorted(TESTS.values(), key=lambda t: (order.get(t.domain, 1), t.domain, t.level,
                                                   t.id)):
        lines.append(f"| `{t.id}` | {t.level} | {t.severity} | {t.domain} | "
                     f"{t.summary.replace('|', '/')} |")
    return "\n".join(lines)


def _replace(text: str, begin: str, end: str, body: str) -> str:
    head, found, rest = text.partition(begin)
    if not found:
        raise SystemExit(f"docs/validate.md has no {begin} marker")
    _, _, tail = rest.partition(end)
    return f"{head}{begin}\n{body}\n{end}{tail}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora",
                        help="the real corpora (default: ../shared/corpora)")
    parser.add_argument("--out", type=Path, help="write the counts as JSON to this path")
    parser.add_argument("--write-docs", action="store_true",
                        help="replace the counts in docs/validate.md")
    args = parser.parse_args()
    if not args.corpora.is_dir():
        raise SystemExit(f"no corpora at {args.corpora}")
    rows, took = run(args.corpora)
    table = markdown(rows)
    print(table)
    print(f"\n{sum(1 for _ in alone(args.corpora))} inputs alone and "
          f"{sum(1 for _ in together(args.corpora))} sets of annotators in {took:.1f} s")
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    if args.write_docs:
        doc = ROOT / "docs" / "validate.md"
        text = _replace(doc.read_text(encoding="utf-8"), BEGIN, END, table)
        doc.write_text(_replace(text, TESTS_BEGIN, TESTS_END, tests_table()), encoding="utf-8")


if __name__ == "__main__":
    main()
