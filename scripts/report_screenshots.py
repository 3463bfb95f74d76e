"""Screenshots of ``clusteragree report`` for a pyramid pair, a coreference pair, a treebank
pair and a BRAT pair read as spans, from corpora_fixtures/ (the top of each page, and its
worst item opened side by side), taken in headless Chromium (Debian's chromium and
chromium-driver, driven by selenium), for docs/report.md.

Usage::

    python scripts/report_screenshots.py [--out DIR | --docs] [--height 2000]

``--docs`` writes docs/report/*.png (tracked); ``--out DIR`` writes there; without either, the
reports and screenshots go to a temporary directory that is printed. Each page is checked for
console errors on the way (the script fails on one).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The inputs, relative to the repository (the pages name them as given).
CASES = {
    "pyramid": [f"corpora_fixtures/passonneau2006/fig1-A{k}.pyr" for k in (1, 2)],
    "coref": [f"corpora_fixtures/coref/annotator-{x}.conll" for x in "ab"],
    "trees": [f"corpora_fixtures/trees/annotator-{x}.conllu" for x in "ab"],
    "spans": ["corpora_fixtures/coref/brat/A", "corpora_fixtures/coref/brat/B", "--text-dir",
              "corpora_fixtures/coref/brat/text"],
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="directory for the screenshots")
    parser.add_argument("--docs", action="store_true",
                        help=f"write them to {ROOT / 'docs' / 'report'} (tracked)")
    parser.add_argument("--height", type=int, default=2000,
                        help="pixels of each page kept (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.out and args.docs:
        parser.error("give --out or --docs, not both")
    out = ROOT / "docs" / "report" if args.docs else args.out or Path(tempfile.mkdtemp())
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        print("chromium and chromedriver are needed (Debian: apt-get install chromium "
              "chromium-driver)", file=sys.stderr)
        return 1
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    from clusteragree.cli import main as cli

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 f"--window-size=1200,{args.height}", "--hide-scrollbars"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    pages = Path(tempfile.mkdtemp())
    os.chdir(ROOT)
    try:
        for command, files in CASES.items():
            page = pages / f"{command}.html"
            if cli(["report", command, *files, "-o", str(page)]):
                return 1
            driver.get(page.as_uri())
            errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
            if errors:
                print(f"{command}: console errors {errors}", file=sys.stderr)
                return 1
            driver.save_screenshot(str(out / f"{command}.png"))
            print(f"{out / f'{command}.png'}")
            opened = driver.execute_script(
                "var v = JSON.parse(document.getElementById('ca-data').textContent).views;"
                "if (!v.length) { return false; } CA_OPEN(v[0].items[0].id);"
                "document.getElementById('ca-viewer').scrollIntoView(); return true;")
            if opened:  # the worst item, side by side
                driver.save_screenshot(str(out / f"{command}-view.png"))
                print(f"{out / f'{command}-view.png'}")
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
