"""``clusteragree report``: one self-contained HTML page per command, checked as text here and,
in a real headless Chromium, for what it draws (marked ``browser``; CI installs Debian's chromium
and chromium-driver and sets CLUSTERAGREE_REQUIRE_BROWSER=1, elsewhere the test skips when they
are absent). Screenshots go to CLUSTERAGREE_ARTIFACTS (default: a temporary directory)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "corpora_fixtures"
PYRAMIDS = [str(FIX / "passonneau2006" / f"fig1-A{k}.pyr") for k in (1, 2)]
COREF = [str(FIX / "coref" / f"annotator-{x}.conll") for x in "ab"]
TREES = [str(FIX / "trees" / f"annotator-{x}.conllu") for x in "ab"]
CASES = {"pyramid": PYRAMIDS, "coref": COREF, "trees": TREES}


def _report(cli, tmp_path: Path, command: str, *extra: str) -> tuple[str, dict]:
    """The page, and the command's own JSON with the options the report switches on."""
    out = tmp_path / f"{command}.html"
    code, stdout, err = cli("report", command, *CASES[command], *extra, "-o", str(out))
    assert code == 0, err
    assert str(out) in stdout
    from clusteragree.cli.report import FORCED
    forced = [*FORCED[command], *(["--align"] if command == "pyramid" else [])]
    code, js, err = cli(command, *CASES[command], *extra, *forced, "-f", "json")
    assert code == 0, err
    return out.read_text(encoding="utf-8"), json.loads(js)


def test_the_page_is_self_contained_and_holds_the_answer(cli, tmp_path) -> None:
    pytest.importorskip("plotly")
    page, obj = _report(cli, tmp_path, "coref")
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""<script[^>]+src=|<link[^>]+href=["']?https?:""", page)
    first = next(r for r in obj["results"] if r["kind"] == "alpha")
    assert f"<b>{first['alpha']:.4f}</b>" in page
    assert page.count('class="annotator"') == 2 * 2  # two documents, two annotators
    assert "table.sortable" in page and 'class="dataframe sortable"' in page


def test_trees_and_pyramids(cli, tmp_path) -> None:
    pytest.importorskip("plotly")
    page, obj = _report(cli, tmp_path, "trees")
    differing = [r for r in obj["results"] if r["kind"] == "sentence_difference"
                 and r["ted"] > 0]
    assert len(differing) == 3 and page.count('<svg class="tree"') == 2 * 3
    # red arcs: the fixture's annotators differ on one word in each of three sentences (the
    # head of "head" in s2, the relation of "decide" in s3, the head of "sentences" in s4)
    assert page.count('class="arc differs"') == 3
    page, obj = _report(cli, tmp_path, "pyramid")
    matched = [r for r in obj["results"] if r["kind"] == "scu_match"]
    assert matched and "SCUs matched between the two pyramids" in page


def test_a_missing_plotly_is_named_with_its_install_line(cli, tmp_path, monkeypatch) -> None:
    import builtins
    real = builtins.__import__

    def refuse(name, *args, **kwargs):
        if name.startswith("plotly"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse)
    code, _, err = cli("report", "coref", *COREF, "-o", str(tmp_path / "x.html"))
    assert code == 1 and "pip install 'clusteragree[report]'" in err
    code, _, err = cli("report", "coref", COREF[0], "--no-such-option")
    assert code == 2


# ------------------------------------------------------------------------- in a real browser
def _browser():
    required = os.environ.get("CLUSTERAGREE_REQUIRE_BROWSER") == "1"
    found = shutil.which("chromium") and shutil.which("chromedriver")
    try:
        import selenium  # noqa: F401
    except ImportError:
        found = None
    if not found:
        if required:
            pytest.fail("CLUSTERAGREE_REQUIRE_BROWSER=1 but chromium, chromedriver or "
                        "selenium is missing")
        pytest.skip("chromium, chromedriver or selenium absent")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1300,1800"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


@pytest.mark.browser
@pytest.mark.parametrize("command", ["pyramid", "coref", "trees"])
def test_reports_render_in_chromium(command: str, cli, tmp_path) -> None:
    pytest.importorskip("plotly")
    _, obj = _report(cli, tmp_path, command)
    driver = _browser()
    try:
        driver.get((tmp_path / f"{command}.html").as_uri())
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
        charts = driver.find_elements("css selector", ".plotly-graph-div")
        kinds = {r["kind"] for r in obj["results"]}
        expected = sum(1 for k in ("document", "coincidence", "annotator", "difference_count",
                                   "sentence_difference", "scu_match") if k in kinds)
        assert len(charts) == expected > 0
        assert all(c.size["height"] > 100 for c in charts)  # drawn, not empty boxes
        bars = driver.find_elements("css selector", ".plotly-graph-div g.point")
        assert bars, "the charts hold bars or cells"
        if command == "coref":
            shown = driver.find_elements("css selector", ".chains .annotator")
            mentions = driver.find_elements("css selector", ".chains .mention")
            docs = {m.get_attribute("data-entity") for m in mentions}
            assert len(shown) == 4 and len(mentions) >= 13 and docs
            assert driver.find_elements("css selector", ".only-one")
        if command == "trees":
            arcs = driver.find_elements("css selector", "svg.tree path.arc")
            red = driver.find_elements("css selector", "svg.tree path.arc.differs")
            assert len(arcs) == 2 * (7 + 6 + 6) and len(red) == 3
        if command == "pyramid":
            rows = driver.find_elements("css selector", "table.sortable tbody tr")
            assert len(rows) >= len([r for r in obj["results"] if r["kind"] == "scu_match"])
        header = driver.find_element("css selector", "table.sortable th")
        header.click()  # the sorting script runs without an error
        assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        artefacts = Path(os.environ.get("CLUSTERAGREE_ARTIFACTS", tmp_path))
        artefacts.mkdir(parents=True, exist_ok=True)
        height = driver.execute_script("return document.body.scrollHeight")
        driver.set_window_size(1300, min(int(height) + 100, 8000))
        assert driver.save_screenshot(str(artefacts / f"report-{command}.png"))
    finally:
        driver.quit()


def test_a_result_renders_in_jupyter() -> None:
    from clusteragree import CodingTable, alpha
    t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "y"), ("B", 2, "x"),
                                  ("A", 3, "y"), ("B", 3, "y")])
    result = alpha(t, "nominal", ci=0.9, bootstrap=50, seed=1)
    page = result._repr_html_()
    low, high = result.uncertainty["ci"]
    assert f"<b>{result.alpha:.4f}</b> [{low:.4f}, {high:.4f}]" in page
    assert result.signature in page
