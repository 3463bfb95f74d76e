"""How heavy and how fast ``clusteragree report`` pages are: page size, time to open in headless
Chromium (the page's own navigation timing: load event end, median of three loads after one to
warm the browser), time to draw the worst document side by side, the build's time and peak
memory, and whether the page is wider than its window.

The pages: the fixtures (a coreference, a pyramid and a treebank pair), the real corpora in
../shared/corpora where present (the doubly annotated participant-analysis texts, a DUC 2006
pyramid pair, a CDT treebank pair; as spans, the participant-analysis entities and the D0631
peer annotations of two annotators), and a generated coreference corpus of ``--documents``
documents by ``--annotators`` annotators (CoNLL; each annotator a perturbation of one
partition: mentions dropped, moved to another chain, chains split).

Usage::

    python scripts/bench_report.py [--documents 1000] [--annotators 3] [--only TEXT] [--out DIR]

Without ``--out`` the pages and the table go to a temporary directory that is printed;
nothing tracked is written. Needs Debian's chromium and chromium-driver and selenium.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "corpora"
WORDS = ["the", "king", "said", "that", "he", "would", "go", "to", "the", "city", "with",
         "his", "people", "and", "they", "followed", "him", "there", "while", "she", "waited",
         "by", "the", "river", "for", "her", "brother"]


def generate_corpus(out: Path, documents: int = 1000, annotators: int = 3,
                    sentences: int = 6, seed: int = 0) -> list[Path]:
    """CoNLL files, one per annotator, of ``documents`` documents of ``sentences`` sentences:
    a base partition of mentions into chains, each annotator's copy perturbed (a mention
    dropped, one moved to another chain, a chain split) with a document-dependent rate, so
    that documents differ in agreement. Returns the files."""
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    base = []
    for _ in range(documents):
        tokens = [[rng.choice(WORDS) for _ in range(rng.randint(6, 14))]
                  for _ in range(sentences)]
        flat = [(s, t) for s, sent in enumerate(tokens) for t in range(len(sent))]
        positions = sorted(rng.sample(range(len(flat)), k=min(len(flat), 12)))
        chains = [rng.randrange(4) for _ in positions]
        base.append((tokens, flat, positions, chains, rng.random() * 0.5))
    files = []
    for a in range(annotators):
        lines = []
        for d, (tokens, flat, positions, chains, rate) in enumerate(base):
            mine = {}
            for p, c in zip(positions, chains, strict=True):
                r = rng.random()
                if a and r < rate / 3:
                    continue  # dropped
                if a and r < rate * 2 / 3:
                    c = (c + 1) % 4  # moved to another chain
                elif a and r < rate and c == 0:
                    c = 10  # chain 0 split
                mine[flat[p]] = c
            lines.append(f"#begin document (doc{d:04d}); part 000")
            for s, sent in enumerate(tokens):
                for t, word in enumerate(sent):
                    c = mine.get((s, t))
                    lines.append(f"doc{d:04d} 0 {t} {word} " + ("-" if c is None else f"({c})"))
                lines.append("")
            lines.append("#end document")
        path = out / f"annotator-{a + 1}.conll"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        files.append(path)
    return files


def build(argv: list[str], page: Path) -> dict[str, float]:
    """Run ``clusteragree report`` in a child process; its time and peak memory (its own
    maximum resident set, from ``wait4``)."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        child = subprocess.Popen([sys.executable, "-m", "clusteragree", "report", *argv,
                                  "-o", str(page)], stdout=subprocess.DEVNULL, stderr=err,
                                 cwd=ROOT)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - started
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise SystemExit(f"report {' '.join(argv)} failed: {err.read()[-2000:]!r}")
    return {"build_s": seconds, "peak_mb": usage.ru_maxrss / 1024}


def browser():  # type: ignore[no-untyped-def]
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def measure(driver, page: Path) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """Load event end of three loads (after one to warm up), and the time to draw the worst
    item side by side."""
    loads = []
    for k in range(4):
        driver.get(page.as_uri())
        end = driver.execute_script(
            "return performance.getEntriesByType('navigation')[0].loadEventEnd")
        if k:
            loads.append(float(end))
    draw = driver.execute_script(
        "var v = JSON.parse(document.getElementById('ca-data').textContent).views;"
        "if (!v.length) { return null; } var t = performance.now();"
        "CA_OPEN(v[0].items[0].id); return performance.now() - t;")
    width = driver.execute_script(
        "return document.documentElement.scrollWidth - window.innerWidth")
    return {"open_ms": statistics.median(loads), "draw_ms": draw if draw is not None else -1,
            "overflow_px": width}


def cases(work: Path, documents: int, annotators: int) -> dict[str, list[str]]:
    fix = ROOT / "corpora_fixtures"
    found = {
        "coref fixture": ["coref", *(str(fix / "coref" / f"annotator-{x}.conll") for x in "ab")],
        "pyramid fixture": ["pyramid", *(str(fix / "passonneau2006" / f"fig1-A{k}.pyr")
                                         for k in (1, 2))],
        "trees fixture": ["trees", *(str(fix / "trees" / f"annotator-{x}.conllu")
                                     for x in "ab")],
    }
    pa = SHARED / "coref-multi-annotator" / "participant-analysis"
    if pa.is_dir():
        found["participant-analysis (BRAT, 13 texts)"] = [
            "coref", str(pa / "A"), str(pa / "B"), "--text-dir", str(pa / "text")]
    pans = [SHARED / "duc-pyramids" / "DUC2006" / "DUC2006pyramiddata" / "allpans"
            / f"{a}.D0631.M.250.D.1.pan" for a in (114, 115)]
    if all(p.exists() for p in pans):
        found["DUC 2006 D0631 (the pyramids of two annotators' .pan files)"] = [
            "pyramid", *map(str, pans)]
    if pa.is_dir():
        found["spans: participant-analysis (BRAT entities, 13 texts)"] = [
            "spans", str(pa / "A"), str(pa / "B"), "--text-dir", str(pa / "text")]
    peers = sorted((SHARED / "duc-pyramids" / "DUC2006" / "DUC2006pyramiddata" / "allpans")
                   .glob("*.D0631.*.pan"))
    if peers:
        found[f"spans: DUC 2006 D0631 peers (.pan, {len(peers)} files)"] = [
            "spans", *map(str, peers)]
    cdt = [SHARED / "syntax" / "cdt" / f"da-{a}.conll" for a in ("lotte", "morten")]
    if all(p.exists() for p in cdt):
        found["CDT da (two annotators)"] = ["trees", *map(str, cdt), "--roots", "many",
                                            "--cycles", "drop"]
    generated = generate_corpus(work / "generated", documents, annotators)
    found[f"generated: {documents} documents x {annotators} annotators"] = [
        "coref", *map(str, generated)]
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=1000,
                        help="documents of the generated corpus (default: %(default)s)")
    parser.add_argument("--annotators", type=int, default=3,
                        help="annotators of the generated corpus (default: %(default)s)")
    parser.add_argument("--only", metavar="TEXT",
                        help="measure only the pages whose name holds TEXT (e.g. spans)")
    parser.add_argument("--out", type=Path, help="directory for the pages and the table")
    args = parser.parse_args(argv)
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        print("chromium and chromedriver are needed (Debian: apt-get install chromium "
              "chromium-driver)", file=sys.stderr)
        return 1
    out = (args.out or Path(tempfile.mkdtemp(prefix="clusteragree-report-bench-"))).resolve()
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    driver = browser()
    try:
        for k, (name, command) in enumerate(cases(out, args.documents, args.annotators).items()):
            if args.only and args.only not in name:
                continue
            page = out / f"page-{k}.html"
            figures = build(command, page)
            figures.update(measure(driver, page))
            figures["size_kb"] = page.stat().st_size / 1024
            rows.append({"page": name, **figures})
    finally:
        driver.quit()
    lines = ["| page | size | opens (load event) | draws the worst item | build | build's "
             "peak memory | wider than the window |", "|---|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {r['page']} | {r['size_kb']:,.0f} KB | {r['open_ms']:.0f} ms | "
              f"{r['draw_ms']:.0f} ms | {r['build_s']:.1f} s | {r['peak_mb']:,.0f} MB | "
              + (f"{r['overflow_px']} px |" if r["overflow_px"] > 0 else "no |")
              for r in rows]
    text = ("`python scripts/bench_report.py` (headless Chromium, this machine; the build "
            "includes starting Python):\n\n" + "\n".join(lines) + "\n")
    print(text)
    (out / "bench_report.md").write_text(text, encoding="utf-8")
    (out / "bench_report.json").write_text(json.dumps(rows, indent=1), encoding="utf-8")
    print(f"pages and figures in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
