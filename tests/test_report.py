"""``clusteragree report``: one self-contained HTML page per command, made for adjudicating.
Checked as text and data here and, in a real headless Chromium, as a person uses it: sort and
filter the documents table, open a document, point at a mention and see its chain lit in every
column, follow a difference to its place and back (marked ``browser``; CI installs Debian's
chromium and chromium-driver and sets CLUSTERAGREE_REQUIRE_BROWSER=1, elsewhere the tests skip
when they are absent). Screenshots go to CLUSTERAGREE_ARTIFACTS (default: a temporary
directory). No time is asserted: scripts/bench_report.py measures them."""

from __future__ import annotations

import json
import math
import os
import random
import re
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "corpora_fixtures"
SHARED = ROOT.parent / "shared" / "corpora"
PYRAMIDS = [str(FIX / "passonneau2006" / f"fig1-A{k}.pyr") for k in (1, 2)]
COREF = [str(FIX / "coref" / f"annotator-{x}.conll") for x in "ab"]
TREES = [str(FIX / "trees" / f"annotator-{x}.conllu") for x in "ab"]
CASES = {"pyramid": PYRAMIDS, "coref": COREF, "trees": TREES,
         "table": [str(FIX / "krippendorff2011.csv")],
         "multilabel": [str(FIX / "multilabel_ranked.csv")]}


def _page(cli, tmp_path: Path, command: str, *extra: str) -> tuple[str, dict]:
    """The page and the data block it carries."""
    out = tmp_path / f"{command}.html"
    name = "table" if command == "multilabel" else command
    code, stdout, err = cli("report", name, *CASES[command], *extra, "-o", str(out))
    assert code == 0, err
    assert str(out) in stdout
    text = out.read_text(encoding="utf-8")
    block = text.split("<script type='application/json' id='ca-data'>", 1)[1]
    return text, json.loads(block.split("</script>", 1)[0])


def _command_json(cli, command: str, *extra: str) -> dict:
    from clusteragree.cli.report import FORCED
    forced = [*FORCED[command], *(["--align"] if command == "pyramid" else [])]
    code, out, err = cli(command, *CASES[command], *extra, *forced, "-f", "json")
    assert code == 0, err
    return json.loads(out)


def test_the_page_is_self_contained_light_and_holds_the_answer(cli, tmp_path) -> None:
    page, data = _page(cli, tmp_path, "coref", "--ci", "0.9", "--bootstrap", "200",
                       "--seed", "3")
    obj = _command_json(cli, "coref", "--ci", "0.9", "--bootstrap", "200", "--seed", "3")
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""<(script|img|iframe)[^>]+src=|<link[^>]+href=""", page)
    assert len(page.encode("utf-8")) < 1_000_000  # a small input: under 1 MB
    first = next(r for r in obj["results"] if r["kind"] == "alpha")
    headline = page.split("id='headline'", 1)[1].split("</section>", 1)[0]
    assert f"{first['alpha']:.4f}" in headline
    low, high = first["ci"]
    assert f"[{low:.4f}, {high:.4f}]" in headline and "90% BCa bootstrap" in headline
    assert "0.667 and 0.8" in headline and "MASI" in headline
    # compact inputs: the common folder once
    assert page.count("corpora_fixtures/coref/</code>") == 1
    # every link of the contents leads to a section
    for target in re.findall(r"<nav class='toc'.*?</nav>", page, re.S)[0].split("href='#")[1:]:
        assert f"id='{target.split(chr(39))[0]}'" in page
    assert "NaN" not in json.dumps(data)
    # the signature is folded at the bottom, not above the figures; what the command read
    # for the page (the corpora) is not an option of the run and stays out of it
    assert page.index(obj["signature"].split("|")[1]) > page.index("id='headline'")
    signature = page.split("<code class='signature'>", 1)[1].split("</code>", 1)[0]
    assert "CorefCorpus" not in signature and len(signature) < 1000


def test_every_document_and_difference_is_reachable(cli, tmp_path) -> None:
    _, data = _page(cli, tmp_path, "coref")
    obj = _command_json(cli, "coref")
    (view,) = data["views"]
    documents = {r["document"] for r in obj["results"] if r["kind"] == "document"}
    assert {i["document"] for i in view["items"]} == documents  # all, not the worst five
    ids = {i["id"] for i in view["items"]}
    links = set()
    for spec in data["tables"].values():
        for row in spec["rows"]:
            links |= {c["href"] for c in row if isinstance(c, dict) and "href" in c}
    opened = {re.match(r"#open=([^&]+)", h).group(1) for h in links}
    assert opened == ids
    # each difference of the command links to an anchor its document's item carries
    anchors = {(i["id"], d["anchor"]) for i in view["items"] for d in i["differences"]}
    at = {tuple(re.match(r"#open=([^&]+)&at=(.+)", h).groups()) for h in links if "&at=" in h}
    places = {(i, a) for i, a in at if a.startswith("pos-")}
    at -= places
    differences = [r for r in obj["results"] if r["kind"] == "coref_difference"]
    assert len(at) == len(differences) and at <= anchors
    # each unit that disagrees most links to the mention it is (first and last token)
    units = [r for r in obj["results"] if r["kind"] == "unit"]
    spans = {(i["id"], f"pos-{m[0][0][0]}-{m[0][-1][1] - 1}") for i in view["items"]
             for ms in i["mentions"].values() for m in ms}
    assert places and places <= spans
    assert len(places) == len({(r["document"], tuple(r["position"])) for r in units})
    marked = {m[3] for i in view["items"] for ms in i["mentions"].values() for m in ms
              if m[3]}
    assert marked and marked <= {a for _, a in anchors}


@pytest.mark.parametrize("command,extra", [
    ("table", ("--ci", "0.95", "--bootstrap", "200", "--seed", "1")),
    ("multilabel", ("--ci", "0.95", "--bootstrap", "200", "--seed", "1")),
    ("pyramid", ()), ("trees", ())])
def test_every_command_gets_the_full_page(command: str, extra: tuple, cli, tmp_path) -> None:
    page, _ = _page(cli, tmp_path, command, *extra)
    obj = _command_json(cli, "table" if command == "multilabel" else command, *extra)
    kinds = {r["kind"] for r in obj["results"]}
    assert "id='headline'" in page
    if "unit" in kinds:
        assert "id='units'" in page
    if "category" in kinds:
        assert "each category against the rest" in page
    headline = page.split("id='headline'", 1)[1].split("</section>", 1)[0]
    if extra:  # the interval with its level and method
        assert "95% BCa bootstrap" in headline and "No interval" not in headline
    else:  # no interval asked for: the page says so, and how to get one
        assert "No interval" in headline and "--ci 0.95" in headline
    for r in obj["results"]:
        if r["kind"] == "measure":
            assert f"{r['value']:.4f}" in page.split("id='headline'", 1)[1]


def test_the_worst_units_are_text_a_person_reads(cli, tmp_path) -> None:
    _, data = _page(cli, tmp_path, "coref")
    cells = [c for spec in data["tables"].values() for row in spec["rows"] for c in row]
    text = [c if isinstance(c, str) else c.get("text", "") for c in cells
            if isinstance(c, (str, dict))]
    assert not [t for t in text if "frozenset(" in t or t.startswith("('")]


# ------------------------------------------------------------------------------ from Python
def test_the_page_from_python(tmp_path) -> None:
    from clusteragree import CodingTable, alpha, alpha_report, report
    from clusteragree.errors import InputError, ParameterError
    t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "y"), ("B", 2, "x"),
                                  ("A", 3, "y"), ("B", 3, "y"), ("A", 4, "x"), ("B", 4, "x")])
    result = alpha(t, "nominal", ci=0.9, bootstrap=100, seed=1)
    page = report(result, output=tmp_path / "a.html", title="mine")
    assert (tmp_path / "a.html").read_text(encoding="utf-8") == str(page)
    assert "<title>mine</title>" in page and f"{result.alpha:.4f}" in page
    low, high = result.uncertainty["ci"]
    assert f"[{low:.4f}, {high:.4f}]" in page._repr_html_()
    frame = alpha_report(t, distances=["nominal"])
    page = report(frame)
    assert f"{frame['alpha'].iloc[0]:.4f}" in page and "MASI" not in page
    (tmp_path / "r.json").write_text(json.dumps(page.envelope), encoding="utf-8")
    assert report(tmp_path / "r.json").envelope["results"] == page.envelope["results"]
    with pytest.raises(ParameterError, match="results must be"):
        report(42)
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.json"):
        report(tmp_path / "bad.json")
    same = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "x"),
                                     ("B", 2, "x")])
    with pytest.warns(Warning):  # no expected disagreement: alpha is undefined
        undefined = alpha(same, "nominal")
    page = report(undefined)  # NaN is null in the data, "undefined" on the page
    assert page.envelope["results"][0]["alpha"] is None and ">undefined<" in page
    import clusteragree.report as module
    assert callable(module) and module(result).startswith("<!DOCTYPE html>")


def test_a_result_renders_in_jupyter() -> None:
    from clusteragree import CodingTable, alpha
    t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "y"), ("B", 2, "x"),
                                  ("A", 3, "y"), ("B", 3, "y")])
    result = alpha(t, "nominal", ci=0.9, bootstrap=50, seed=1)
    page = result._repr_html_()
    low, high = result.uncertainty["ci"]
    assert f"<b>{result.alpha:.4f}</b> [{low:.4f}, {high:.4f}]" in page
    assert result.signature in page


# --------------------------------------------------------------------- the marks, by making
def _conll(chains: dict[int, int], n: int) -> list[str]:
    rows = [f"d 0 {t} w{t} " + (f"({chains[t]})" if t in chains else "-") for t in range(n)]
    return ["#begin document d", *rows, "#end document"]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["drop", "move", "split"]))
def test_the_marks_agree_with_how_the_second_annotation_was_made(seed: int, how: str) -> None:
    """A random partition; the second annotator changes it in one known way; the marks say
    exactly that way."""
    from clusteragree.coref import parse_conll
    from clusteragree.coref.sidebyside import CHAIN_FIELDS, document_view
    rng = random.Random(seed)
    n = 12
    chains = {t: rng.randrange(3) for t in sorted(rng.sample(range(n), 8))}
    while len(set(chains.values())) < 2 or min(
            list(chains.values()).count(c) for c in set(chains.values())) < 2:
        chains = {t: rng.randrange(3) for t in sorted(rng.sample(range(n), 8))}
    changed = dict(chains)
    sizes = {c: [t for t in chains if chains[t] == c] for c in set(chains.values())}
    if how == "drop":
        victim = rng.choice(list(chains))
        del changed[victim]
    elif how == "move":
        victim = rng.choice(list(chains))
        others = [c for c in sizes if c != chains[victim]]
        changed[victim] = rng.choice(others)
    else:  # the last mention of a chain of 3 or more goes into a new chain of its own
        big = [c for c, ts in sizes.items() if len(ts) >= 3]
        if not big:
            return
        victim = sizes[rng.choice(big)][-1]
        changed[victim] = 9
    a = parse_conll(_conll(chains, n), "a").documents["d"]
    b = parse_conll(_conll(changed, n), "b").documents["d"]
    item = document_view([a, b], ["A", "B"], "x")
    state = {m[0][0][0]: m[2] for m in item["mentions"]["A"]}
    if how == "drop":
        assert state[victim] == "one"
        assert all(s == "agree" for t, s in state.items() if t != victim)
    elif how == "move":
        # the old chain (two or more mentions) now lies in two chains of B: on one side of
        # the split (which, depends on which chain of B is its partner) a mention is in
        # another chain; nothing outside the two chains concerned is marked
        other = {t for t, s in state.items() if s == "other"}
        assert other and other <= set(sizes[chains[victim]]) | set(sizes[changed[victim]])
        assert "one" not in state.values()
    else:
        assert state[victim] == "other"
        rows = {name: [dict(zip(CHAIN_FIELDS, c, strict=True)) for c in item["chains"][name]]
                for name in ("A", "B")}
        chain = next(c for c in rows["A"] if c["id"] == str(chains[victim]))
        assert "split" in chain["status"]
        new = next(c for c in rows["B"] if c["id"] == "9")
        assert new["partner"][0] is not None and "split" not in new["status"]


def test_the_fitted_colour_scale_tells_close_values_apart() -> None:
    from clusteragree.report.charts import heat_table, scale_colour
    table = heat_table(["A", "B"], ["A", "B"], [[None, 0.9886], [0.9964, None]], title="t")
    colours = re.findall(r"background:(hsl\([^)]*\))", table)
    assert len(set(colours)) == 2
    assert scale_colour(0.9886, 0.9886, 0.9964) != scale_colour(0.9964, 0.9886, 0.9964)


def test_dots_are_sorted_and_placed_by_value() -> None:
    from clusteragree.report.charts import Dot, dot_chart
    values = [0.9, 0.1, 0.5, float("nan"), 0.7]
    svg = dot_chart([Dot(f"d{i}", v) for i, v in enumerate(values)], title="t")
    ys = [float(y) for y in re.findall(r'class="dot" cx="[^"]*" cy="([^"]*)"', svg)]
    assert len(ys) == 4 and ys == sorted(ys, reverse=True)  # higher value, higher on the page
    assert "1 undefined" in svg


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
                 "--disable-component-update", "--disable-sync", "--window-size=1280,1000"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def _errors(driver) -> list:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def _screenshot(driver, tmp_path: Path, name: str) -> None:
    artefacts = Path(os.environ.get("CLUSTERAGREE_ARTIFACTS", tmp_path))
    artefacts.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(artefacts / f"report-{name}.png"))


def _wait(driver, selector: str) -> list:
    """The elements, once the page has drawn them (following a link to ``#open=...`` draws
    on the page's next turn)."""
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, 10).until(lambda d: d.find_elements("css selector", selector))


def _fits(driver) -> bool:
    return driver.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.browser
def test_adjudicating_coreference_in_chromium(cli, tmp_path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    _, data = _page(cli, tmp_path, "coref")
    (view,) = data["views"]
    driver = _browser()
    try:
        driver.get((tmp_path / "coref.html").as_uri())
        assert not _errors(driver) and _fits(driver)
        box = driver.find_element("css selector", "#documents")
        rows = box.find_elements("css selector", "tbody tr")
        assert len(rows) == len(view["items"])
        # sort by a column, twice: the order turns round
        header = box.find_elements("css selector", "th")[1]
        header.click()
        first = [r.text for r in box.find_elements("css selector", "tbody tr")]
        said = header.get_attribute("aria-sort")
        header.click()
        assert [r.text for r in box.find_elements("css selector", "tbody tr")] == first[::-1]
        assert {said, header.get_attribute("aria-sort")} == {"ascending", "descending"}
        # filter: only the rows holding the text
        search = box.find_element("css selector", "input.ca-filter")
        search.send_keys("part 001")
        shown = box.find_elements("css selector", "tbody tr")
        assert len(shown) == 1 and "part 001" in shown[0].text
        # open it
        shown[0].find_element("css selector", "a").click()
        item = next(i for i in view["items"] if i["document"].endswith("part 001"))
        _wait(driver, "#ca-viewer .view-chains")
        viewer = driver.find_element("css selector", "#ca-viewer")
        heads = viewer.find_elements("css selector", ".chains-head")
        assert [h.text for h in heads[1:]] == view["annotators"]
        mentions = viewer.find_elements("css selector", ".chains-m")
        assert len({m.get_attribute("data-m") for m in mentions}) == sum(
            len(ms) for ms in item["mentions"].values())
        # point at a mention: its chain lit in its column, the aligned chain in the other
        from clusteragree.coref.sidebyside import CHAIN_FIELDS
        chains = [dict(zip(CHAIN_FIELDS, r, strict=True))
                  for r in item["chains"][view["annotators"][0]]]
        c = max(range(len(chains)), key=lambda k: chains[k]["n"])
        target = viewer.find_element("css selector", f'.chains-m[data-chain="0:{c}"]')
        ActionChains(driver).move_to_element(target).perform()
        lit = {e.get_attribute("data-m") for e in viewer.find_elements(
            "css selector", ".chains-hl")}
        assert len(lit) == chains[c]["n"]
        partner = chains[c]["partner"][1]
        other = {e.get_attribute("data-m") for e in viewer.find_elements(
            "css selector", ".chains-hl2")}
        expected = 0 if partner is None else item["chains"][view["annotators"][1]][partner][1]
        assert len(other) == expected
        # follow a difference to its place, and a mark back to its difference
        diffs = viewer.find_elements("css selector", ".ca-diffs li a")
        assert len(diffs) == len(item["differences"]) > 0
        marked = [d for d in item["differences"] if any(
            m[3] == d["anchor"] for ms in item["mentions"].values() for m in ms)]
        assert marked
        anchor = marked[0]["anchor"]
        viewer.find_element("css selector", f"#ca-d-{anchor} a").click()
        _wait(driver, f'[data-anchor="{anchor}"].ca-flash')
        flashed = viewer.find_elements("css selector", f'[data-anchor="{anchor}"].ca-flash')
        assert flashed
        assert "ca-current" in viewer.find_element(
            "css selector", f"#ca-d-{anchor}").get_attribute("class")
        # from the global list of differences to the document and the place
        driver.get((tmp_path / "coref.html").as_uri() + "#coref-difference")
        link = driver.find_element("css selector", "#coref-difference tbody a")
        link.click()
        assert _wait(driver, "#ca-viewer .ca-diffs li.ca-current")
        # from a unit that disagrees most to the mention it is
        unit = driver.find_element("css selector", "#units tbody a")
        place = unit.get_attribute("href").rsplit("pos-", 1)[1]
        unit.click()
        assert _wait(driver, f'#ca-viewer .chains-m[data-pos="{place}"].ca-flash')
        assert not _errors(driver) and _fits(driver)
        _screenshot(driver, tmp_path, "coref")
    finally:
        driver.quit()


@pytest.mark.browser
@pytest.mark.parametrize("command", ["trees", "pyramid", "table"])
def test_the_other_pages_in_chromium(command: str, cli, tmp_path) -> None:
    _, data = _page(cli, tmp_path, command)
    driver = _browser()
    try:
        driver.get((tmp_path / f"{command}.html").as_uri())
        assert not _errors(driver) and _fits(driver)
        for spec_box in driver.find_elements("css selector", "[data-ca-table]"):
            assert spec_box.find_elements("css selector", "table")
        for view in data["views"]:
            for item in view["items"]:
                driver.execute_script("CA_OPEN(arguments[0])", item["id"])
                assert driver.find_elements("css selector", f"#ca-viewer .view-{view['kind']}")
        # a unit that disagrees most, followed to its place: the word it names
        for link in [a.get_attribute("href") for a in driver.find_elements(
                "css selector", "#units tbody a") if "pos-" in a.get_attribute("href")]:
            driver.execute_script("location.hash = arguments[0]", link.split("#", 1)[1])
            place = link.rsplit("pos-", 1)[1]
            assert _wait(driver, f'#ca-viewer [data-pos="{place}"].ca-flash')
        assert not _errors(driver) and _fits(driver)
        _screenshot(driver, tmp_path, command)
    finally:
        driver.quit()


PA = SHARED / "coref-multi-annotator" / "participant-analysis"
D0631 = SHARED / "duc-pyramids" / "DUC2006" / "DUC2006pyramiddata" / "allpyramids" / "D0631.pyr"
CDT = SHARED / "syntax" / "cdt"


def _merged(tmp_path: Path) -> Path:
    """A second annotator of D0631: every fourth pair of adjacent SCUs merged (made by
    regular expressions, independent of the reader)."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from real_matrix import merge_scus
    finally:
        sys.path.remove(str(ROOT / "tests"))
    return merge_scus(D0631, tmp_path / "D0631-merged.pyr")


#: A real corpus of each kind the page draws: (command, inputs, options) for a work folder.
REAL = {
    "participant-analysis": lambda tmp: (
        "coref", [PA / "A", PA / "B"], ("--text-dir", str(PA / "text"))),
    "DUC 2006 D0631 and a merged copy": lambda tmp: (
        "pyramid", [D0631, _merged(tmp)] if D0631.exists() else [], ()),
    "CDT da": lambda tmp: ("trees", [CDT / f"da-{a}.conll" for a in ("lotte", "morten")],
                           ("--roots", "many", "--cycles", "drop")),
    "SSD": lambda tmp: ("trees", ["--dirs", *sorted((SHARED / "syntax" / "ssd").glob(
        "ssd.*"))], ()),
}


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("name", list(REAL))
def test_real_corpora_in_chromium(name: str, cli, tmp_path) -> None:
    if not SHARED.is_dir():
        pytest.skip("../shared/corpora is absent")
    command, inputs, options = REAL[name](tmp_path)
    paths = [Path(p) for p in inputs if p != "--dirs"]
    if len(paths) < 2 or not all(p.exists() for p in paths):
        pytest.skip(f"{name} is not under ../shared/corpora")
    out = tmp_path / "real.html"
    code, _, err = cli("report", command, *map(str, inputs), *options, "-o", str(out))
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    data = json.loads(text.split("id='ca-data'>", 1)[1].split("</script>", 1)[0])
    assert len(text.encode("utf-8")) < 10_000_000
    assert data["views"] and all(v["items"] for v in data["views"])
    driver = _browser()
    try:
        driver.get(out.as_uri())
        assert not _errors(driver) and _fits(driver)
        for view in data["views"]:
            for item in view["items"][:3] + view["items"][-1:]:
                driver.execute_script("CA_OPEN(arguments[0])", item["id"])
                assert driver.find_elements("css selector", f"#ca-viewer .view-{view['kind']}")
                assert _fits(driver)
        # every unit that disagrees most, followed to its place (BRAT: words, not characters)
        for link in [a.get_attribute("href") for a in driver.find_elements(
                "css selector", "#units tbody a") if "pos-" in a.get_attribute("href")]:
            driver.execute_script("location.hash = arguments[0]", link.split("#", 1)[1])
            assert _wait(driver, f'#ca-viewer [data-pos="{link.rsplit("pos-", 1)[1]}"]'
                         ".ca-flash")
        assert not _errors(driver)
        _screenshot(driver, tmp_path, re.sub(r"\W+", "-", name))
    finally:
        driver.quit()


@pytest.mark.slow
@pytest.mark.browser
def test_a_thousand_documents_by_three_annotators(cli, tmp_path) -> None:
    """Every document in the table and the data, views drawn only when opened; under 10 MB."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from bench_report import generate_corpus
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    files = generate_corpus(tmp_path / "gen", documents=1000, annotators=3, sentences=2)
    out = tmp_path / "thousand.html"
    code, _, err = cli("report", "coref", *map(str, files), "--metrics", "conll",
                       "-o", str(out))
    assert code == 0, err
    size = out.stat().st_size
    assert size < 10_000_000, size
    driver = _browser()
    try:
        driver.get(out.as_uri())
        assert not _errors(driver) and _fits(driver)
        assert not driver.find_elements("css selector", ".view-chains")  # nothing drawn yet
        box = driver.find_element("css selector", "#documents")
        assert "1000 rows" in box.find_element("css selector", ".ca-count").text
        box.find_element("css selector", ".ca-more").click()
        rows = box.find_elements("css selector", "tbody tr")
        assert len(rows) == 1000
        rows[-1].find_element("css selector", "a").click()
        assert len(_wait(driver, "#ca-viewer .chains-head")) == 4
        assert len(driver.find_elements("css selector", ".view-chains")) == 1
        assert not _errors(driver) and _fits(driver)
        _screenshot(driver, tmp_path, "thousand")
    finally:
        driver.quit()
    assert math.isfinite(size)


def test_the_validation_section_comes_before_the_figures_when_there_is_something_to_say(
        tmp_path: Path) -> None:
    """The page shows validate's incidents per input before the headline figures; a clean
    input gives no section."""
    from clusteragree.cli import main
    page = tmp_path / "coref.html"
    conll = [str(FIX / "coref" / f"annotator-{a}.conll") for a in "ab"]
    assert main(["report", "coref", *conll, "-o", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert "id='validation'" in text
    # part 001 of each file shares token 1 between two mentions of entity 1 (the fixtures'
    # README): validate's error, listed under its input, open
    section = text.split("id='validation'")[1].split("</section>")[0]
    assert section.count("coref-crossing-same-entity") == 2
    assert "<details open>" in section
    assert text.index("id='validation'") < text.index("id='headline'")
    clean = tmp_path / "clean.csv"
    clean.write_text("coder,unit,labels\n" + "".join(
        f"{c},u{u},{(u + (c == 'b')) % 3}\n" for u in range(6) for c in "ab"),
        encoding="utf-8")
    page = tmp_path / "table.html"
    assert main(["report", "table", str(clean), "--distance", "nominal", "-o", str(page)]) == 0
    assert "id='validation'" not in page.read_text(encoding="utf-8")
