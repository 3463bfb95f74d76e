"""The report's pyramids view: the statuses of the SCUs (against a pair built to have each
status, Passonneau 2006 Figure 1, and a recomputation from the alignment on every real DUC
pyramid with a simulated second annotator), the words and contributors of each summary (against
the files' offsets), and the renderer in a real browser."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from clusteragree.pyramids import Noise, build_pyramid, read_pyramid, second_annotator
from clusteragree.pyramids.alignment import align_scus
from clusteragree.pyramids.sidebyside import pyramid_view

ROOT = Path(__file__).resolve().parent.parent
FIG = ROOT / "corpora_fixtures" / "passonneau2006"
ASSETS = ROOT / "clusteragree" / "report" / "assets"
DUC = ROOT.parent / "shared" / "corpora" / "duc-pyramids"

SUMMARIES = [("D1.M.100.A.A", "a b c d e f g h i j"), ("D1.M.100.A.B", "k l m n o p"),
             ("D1.M.100.A.C", "q r s")]


def constructed() -> tuple[Any, Any]:
    """A pair with every status by construction (SCU uids are 1, 2, ... in order):

    A1 = B1 over "a b" and "m n" (matched, two summaries); A2 = "c d e f", which B cuts in
    B2 "c d" and B3 "e f" (split); A3 "g" and A4 "h", which B joins in B4 "g h" (merged);
    A5 "i j" (one-sided); B5 "k ... p" (one-sided, discontinuous); A6 = B6 = "n o"
    (matched, overlapping A1/B1 on "n"). The third summary has no SCU.
    """
    a = build_pyramid(SUMMARIES, [
        ("ab mn", [[(0, "a b")], [(1, "m n")]]), ("cdef", [[(0, "c d e f")]]),
        ("g", [[(0, "g")]]), ("h", [[(0, "h")]]), ("ij", [[(0, "i j")]]),
        ("no", [[(1, "n o")]])], path="A.pyr")
    b = build_pyramid(SUMMARIES, [
        ("ab mn", [[(0, "a b")], [(1, "m n")]]), ("cd", [[(0, "c d")]]),
        ("ef", [[(0, "e f")]]), ("gh", [[(0, "g h")]]), ("k p", [[(1, "k"), (1, "p")]]),
        ("no", [[(1, "n o")]])], path="B.pyr")
    return a, b


def statuses(view: dict[str, Any]) -> dict[str, dict[int, str]]:
    return {side: {int(u): s["status"] for u, s in view["scus"][side].items()}
            for side in ("A", "B")}


def test_each_status_of_the_constructed_pair() -> None:
    view = pyramid_view(*constructed())
    assert statuses(view) == {
        "A": {1: "matched", 2: "split", 3: "merged", 4: "merged", 5: "one-sided",
              6: "matched"},
        "B": {1: "matched", 2: "split", 3: "split", 4: "merged", 5: "one-sided",
              6: "matched"}}
    assert view["scus"]["A"]["1"]["partners"] == {"1": 1.0}  # 4 words of 4 shared
    assert view["scus"]["A"]["2"]["partners"] == {"2": 0.5, "3": 0.5}  # 2 of 4 words each
    assert view["scus"]["B"]["4"]["partners"] == {"3": 0.5, "4": 0.5}
    first, second, third = view["items"]
    # i and j marked by A only; k and p (first and last word of the second summary) by B only
    assert (first["sides"]["A"]["only"], first["sides"]["B"]["only"]) == ([8, 9], [])
    assert (second["sides"]["A"]["only"], second["sides"]["B"]["only"]) == ([], [0, 5])
    # words that differ: c d e f (split), g h (merged), i j (one-sided): 8 of 10; in the
    # second summary k and p (B's one-sided SCU); n is in A1 and A6 and in B1 and B6 (agree)
    assert first["order"] == pytest.approx(8 / 10)
    assert second["order"] == pytest.approx(2 / 6)
    assert third["order"] == 0.0 and third["differences"] == []
    assert third["sides"]["A"]["contributors"] == third["sides"]["B"]["contributors"] == []
    assert {k: first["cells"][k] for k in ("matched", "split", "merged", "one-sided")} == {
        "matched": 2, "split": 3, "merged": 3, "one-sided": 1}
    # the discontinuous contributor keeps its two parts ("k" at 0, "p" at 10)
    (b5,) = [c for c in second["sides"]["B"]["contributors"] if c["scu"] == "5"]
    assert b5["parts"] == [[0, 1], [10, 11]] and b5["text"] == "k ... p"
    # a difference per contributor of a split/merged/one-sided SCU and per word of one side
    assert len(first["differences"]) == 3 + 3 + 1 + 2
    assert [d["anchor"] for d in second["differences"]] == ["B-c0", "B-w0", "B-w5"]
    assert all(re.fullmatch(r"[A-Za-z0-9_-]+", it["id"]) for it in view["items"])


def test_passonneau_figure_1() -> None:
    """Figure 1: annotator A1 has three SCUs where A2 has one (A2's SCU 201 over every
    contributor): B merged what A has as three SCUs."""
    a, b = (read_pyramid(FIG / f"fig1-A{k}.pyr") for k in (1, 2))
    view = pyramid_view(a, b, annotators=["A1", "A2"])
    assert statuses(view) == {"A": {1: "merged", 2: "merged", 3: "merged"},
                              "B": {201: "merged"}}
    (group,) = view["scus"]["groups"]
    assert (group["A"], group["B"]) == (["1", "2", "3"], ["201"])
    # five summaries, each with A2's one contributor; A1's contributors: 2, 1, 2, 1, 1
    assert [len(it["sides"]["B"]["contributors"]) for it in view["items"]] == [1] * 5
    assert [len(it["sides"]["A"]["contributors"]) for it in view["items"]] == [2, 1, 2, 1, 1]
    assert all(it["order"] == 1.0 for it in view["items"])  # every marked word differs
    assert view["annotators"] == ["A1", "A2"]


def _statuses_from_alignment(a: Any, b: Any) -> dict[str, dict[int, str]]:
    """The statuses recomputed from the alignment's frames: a graph walk over the matched
    pairs and the links, each component classified by its numbers of SCUs per side."""
    found = align_scus(a, b)
    edges: dict[tuple[str, int], set[tuple[str, int]]] = {}
    nodes = [("A", s.uid) for s in a.scus] + [("B", s.uid) for s in b.scus]
    for node in nodes:
        edges[node] = set()
    for row in found.matched.itertuples():
        edges[("A", row.a_uid)].add(("B", row.b_uid))
        edges[("B", row.b_uid)].add(("A", row.a_uid))
    for row in found.linked.itertuples():
        x, y = (row.side, row.uid), ("B" if row.side == "A" else "A", row.to_uid)
        edges[x].add(y)
        edges[y].add(x)
    out: dict[str, dict[int, str]] = {"A": {}, "B": {}}
    for node in nodes:
        if node[1] in out[node[0]]:
            continue
        seen, todo = {node}, [node]
        while todo:
            for nxt in edges[todo.pop()] - seen:
                seen.add(nxt)
                todo.append(nxt)
        n_a = sum(1 for s, _ in seen if s == "A")
        n_b = len(seen) - n_a
        status = ("one-sided" if not n_a or not n_b else "matched" if n_a == n_b == 1
                  else "split" if n_a == 1 else "merged" if n_b == 1 else "regrouped")
        for side, uid in seen:
            out[side][uid] = status
    return out


def _check_items(view: dict[str, Any], a: Any, b: Any) -> None:
    """Each item against the files: the words, the contributors, the one-side words, the
    order."""
    for item, summary in zip(view["items"], a.summaries, strict=True):
        lo, hi = summary.body
        assert item["text"] == a.text[lo:hi]
        assert item["words"] == [[m.start(), m.end()] for m in re.finditer(r"\S+", item["text"])]
        marked: dict[str, list[set[str]]] = {}
        for side, pyramid in (("A", a), ("B", b)):
            expected = sorted(
                (str(s.uid), k) for s in pyramid.scus for k, c in enumerate(s.contributors)
                if any(p.start < hi and p.end > lo for p in c.parts))
            got = item["sides"][side]["contributors"]
            assert sorted((c["scu"], c["contributor"]) for c in got) == expected
            chars: list[set[str]] = [set() for _ in item["text"]]
            for s in pyramid.scus:
                for p in s.parts:
                    for x in range(max(p.start, lo), min(p.end, hi)):
                        chars[x - lo].add(str(s.uid))
            marked[side] = [set().union(*chars[ws:we]) for ws, we in item["words"]]
        for side, other in (("A", "B"), ("B", "A")):
            only = [w for w, m in enumerate(marked[side]) if m and not marked[other][w]]
            assert item["sides"][side]["only"] == only
        differ = 0
        for ma, mb in zip(marked["A"], marked["B"], strict=True):
            sa = {view["scus"]["A"][u]["status"] for u in ma}
            sb = {view["scus"]["B"][u]["status"] for u in mb}
            partners = {p for u in ma for p in view["scus"]["A"][u]["partners"]}
            differ += bool((sa | sb) - {"matched"} or partners != mb)
        assert item["order"] == pytest.approx(differ / len(item["words"]) if item["words"]
                                              else 0.0)
        for contributor in item["sides"]["A"]["contributors"]:
            status = view["scus"]["A"][contributor["scu"]]["status"]
            assert (contributor["anchor"] is None) == (status == "matched")


def test_constructed_pair_against_the_files() -> None:
    a, b = constructed()
    view = pyramid_view(a, b)
    _check_items(view, a, b)
    assert statuses(view) == _statuses_from_alignment(a, b)


COLLECTIONS = ("DUC2006/DUC2006pyramiddata/allpyramids", "DUC2007/mainPyramidEval/allpyramids",
               "DUC2007/updateEval/Pyramid/allpyramids")


def _real_pairs(every: bool) -> list[tuple[str, Any, Any]]:
    """Each DUC pyramid (every one, or the first of each collection) with a simulated second
    annotator, and the D0631 pyramids embedded in two annotators' .pan files."""
    if not DUC.is_dir():
        pytest.skip("../shared/corpora is absent")
    pairs = []
    for collection in COLLECTIONS:
        paths = sorted((DUC / collection).glob("*.pyr"))
        for path in paths if every else paths[:1]:
            p = read_pyramid(path)
            pairs.append((path.name, p, second_annotator(p, Noise.level(0.1), seed=1)))
    pans = sorted((DUC / "DUC2006" / "DUC2006pyramiddata" / "allpans").glob(
        "11[45].D0631.M.250.D.1.pan"))
    assert len(pans) == 2
    pairs.append(("pans 114/115", read_pyramid(pans[0]), read_pyramid(pans[1])))
    return pairs


def _check_real(pairs: list[tuple[str, Any, Any]]) -> set[str]:
    seen: set[str] = set()
    for name, a, b in pairs:
        view = pyramid_view(a, b)
        got = statuses(view)
        assert got == _statuses_from_alignment(a, b), name
        seen |= {s for side in got.values() for s in side.values()}
        _check_items(view, a, b)
        json.dumps(view, allow_nan=False)
        if name == "pans 114/115":  # the same pyramid twice: everything matched
            assert set(got["A"].values()) == set(got["B"].values()) == {"matched"}
            assert all(it["order"] == 0.0 and not it["differences"] for it in view["items"])
    return seen


@pytest.mark.filterwarnings("ignore::clusteragree.errors.InputWarning")
def test_real_duc_pyramids() -> None:
    """The first pyramid of each DUC collection (2006, 2007 main, 2007 update) against a
    simulated second annotator (moves, splits, merges, trims, extensions), and the D0631
    pyramids embedded in two annotators' .pan files (identical)."""
    seen = _check_real(_real_pairs(every=False))
    assert {"matched", "merged"} <= seen


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::clusteragree.errors.InputWarning")
def test_every_real_duc_pyramid() -> None:
    """Every DUC 2006/2007 pyramid, as :func:`test_real_duc_pyramids` (about ten seconds)."""
    pairs = _real_pairs(every=True)
    assert len(pairs) == 20 + 23 + 30 + 1
    assert {"matched", "split", "merged"} <= _check_real(pairs)


# ------------------------------------------------------------------------- in a real browser
def _driver():
    from test_report import _browser
    return _browser()


def _harness(tmp_path: Path, views: list[dict[str, Any]]) -> Path:
    data = [json.dumps(v, allow_nan=False).replace("</", "<\\/") for v in views]
    script = "".join(
        f"(function () {{ var v = {data[k]}; "
        "v.items.forEach(function (it) { var e = CA_RENDER.pyramids(it, v); "
        f"e.setAttribute('data-view', '{k}'); e.setAttribute('data-item', it.id); "
        "document.getElementById('out').appendChild(e); }); })();"
        for k in range(len(views)))
    page = ("<!DOCTYPE html><html><head><meta charset='utf-8'><style>body{margin:8px;"
            "font-family:sans-serif}" + (ASSETS / "pyramids.css").read_text(encoding="utf-8")
            + "</style></head><body><div id='out'></div><script>"
            + (ASSETS / "pyramids.js").read_text(encoding="utf-8") + "</script><script>"
            + script + "</script></body></html>")
    path = tmp_path / "pyramids.html"
    path.write_text(page, encoding="utf-8")
    return path


def _views() -> list[dict[str, Any]]:
    a, b = (read_pyramid(FIG / f"fig1-A{k}.pyr") for k in (1, 2))
    views = [pyramid_view(a, b, annotators=["A1", "A2"]), pyramid_view(*constructed())]
    astral = read_pyramid(ROOT / "corpora_fixtures" / "pyramid-quirks" / "astral-utf16.pyr")
    views.append(pyramid_view(astral, astral))  # characters outside the BMP before the parts
    if DUC.is_dir():
        p = read_pyramid(DUC / "DUC2007" / "updateEval" / "Pyramid" / "allpyramids"
                         / "D0716-B-CDEF.pyr")
        real = pyramid_view(p, second_annotator(p, Noise.level(0.15), seed=3))
        real["items"] = real["items"][:2]
        views.append(real)
    return views


TEXTS = """var out = {};
Array.from(arguments[0].querySelectorAll('.pyr-c')).forEach(function (e) {
  var walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT), n, t = '';
  while ((n = walker.nextNode())) { if (!n.parentNode.closest('.pyr-sign')) { t += n.data; } }
  out[e.getAttribute('data-c')] = (out[e.getAttribute('data-c')] || '') + t;
});
return out;"""

DISTINCT = """return Array.from(new Set(Array.from(arguments[0].querySelectorAll(arguments[1]))
.map(function (e) { return e.getAttribute('data-c'); }))).length;"""


@pytest.mark.browser
@pytest.mark.filterwarnings("ignore::clusteragree.errors.InputWarning")
def test_the_renderer_in_chromium(tmp_path: Path) -> None:
    views = _views()
    page = _harness(tmp_path, views)
    driver = _driver()
    try:
        driver.set_window_size(1280, 1000)
        driver.get(page.as_uri())
        assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        width = driver.execute_script("return [document.documentElement.scrollWidth, "
                                      "window.innerWidth]")
        assert width[0] <= width[1] <= 1280
        hovered = 0
        for k, view in enumerate(views):
            for item in view["items"]:
                root = driver.find_element(
                    "css selector", f".view-pyramids[data-view='{k}'][data-item='{item['id']}']")
                for d in item["differences"]:
                    assert root.find_elements("css selector", f"[data-anchor='{d['anchor']}']")
                for side, other in (("A", "B"), ("B", "A")):
                    col = root.find_element("css selector", f".pyr-col[data-side='{side}']")
                    contributors = item["sides"][side]["contributors"]
                    assert driver.execute_script(DISTINCT, col, ".pyr-c") == len(contributors)
                    # each contributor marks exactly the characters of its parts
                    texts = driver.execute_script(TEXTS, col)
                    for j, c in enumerate(contributors):
                        assert texts[f"{side}{j}"] == "".join(item["text"][s:e]
                                                              for s, e in c["parts"])
                    if not contributors:
                        continue
                    # hover the first and the last contributor of this side
                    for j in sorted({0, len(contributors) - 1}):
                        uid = contributors[j]["scu"]
                        partners = view["scus"][side][uid]["partners"]
                        mark = col.find_element("css selector", f".pyr-c[data-c='{side}{j}']")
                        driver.execute_script(
                            "arguments[0].dispatchEvent(new MouseEvent('mouseover', "
                            "{bubbles: true}))", mark)
                        mine = sum(c["scu"] == uid for c in contributors)
                        theirs = sum(c["scu"] in partners
                                     for c in item["sides"][other]["contributors"])
                        other_col = root.find_element(
                            "css selector", f".pyr-col[data-side='{other}']")
                        assert driver.execute_script(DISTINCT, col, ".pyr-c.pyr-hl") == mine
                        assert driver.execute_script(DISTINCT, other_col,
                                                     ".pyr-c.pyr-hl") == theirs
                        assert view["scus"][side][uid]["label"] in root.find_element(
                            "css selector", ".pyr-info").text
                        assert view["scus"][side][uid]["label"].strip() in (
                            mark.get_attribute("title") or "")
                        hovered += 1
        assert hovered >= 2 * (5 + 2)
        # a real pointer over the first contributor of Figure 1 (A1's SCU 1 and A2's SCU 201)
        from selenium.webdriver.common.action_chains import ActionChains
        one = ".view-pyramids[data-view='0'][data-item='pyr-s0']"
        first = driver.find_element("css selector", f"{one} .pyr-c")
        ActionChains(driver).move_to_element(first).perform()
        lit = driver.find_elements("css selector",
                                   f"{one} .pyr-c.pyr-hl")
        assert {e.get_attribute("data-c") for e in lit} == {"A0", "B0"}
        assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        driver.quit()


def test_the_assets_use_no_library_and_no_network() -> None:
    js = (ASSETS / "pyramids.js").read_text(encoding="utf-8")
    assert "CA_RENDER.pyramids = function" in js and js.count("CA_RENDER.") == 1
    assert not re.search(r"https?://|fetch\(|XMLHttpRequest|import\s", js)


def _ran(*argv: str):
    """The parsed arguments of ``clusteragree pyramid`` after the command ran as the report
    runs it (two files: ``--align``, whose pyramids it hands over)."""
    import contextlib
    import io

    from clusteragree.cli import build_parser
    files = [a for a in argv[1:] if a.endswith(".pyr")]
    inner = build_parser().parse_args([*argv, "-f", "json",
                                       *(["--align"] if len(files) == 2 else [])])
    with contextlib.redirect_stdout(io.StringIO()):
        assert inner.run(inner) == 0
    return inner


def test_pyramid_views_takes_the_pyramids_the_command_read() -> None:
    """The lead's hook: the arguments of ``clusteragree pyramid`` after it ran; --names names
    the sides, a command on other than two files gives no view."""
    from clusteragree.cli.views_pyramids import pyramid_views
    files = [str(FIG / f"fig1-A{k}.pyr") for k in (1, 2)]
    inner = _ran("pyramid", *files, "--names", "first,second", "--tokenizer", "alnum")
    view = pyramid_views(inner, {"meta": {}})
    assert view is not None and view["annotators"] == ["first", "second"]
    assert view["tokenizer"] == "alnum" and len(view["items"]) == 5
    # alnum cuts "officials," to "officials": after "Saudi " (6) and "Arabian " (8), 14-23
    assert view["items"][0]["words"][2] == [14, 23]
    plain = _ran("pyramid", *files)
    assert pyramid_views(plain, {"meta": {}})["annotators"] == ["fig1-A1.pyr", "fig1-A2.pyr"]
    three = _ran("pyramid", *files, files[0])
    assert pyramid_views(three, {"meta": {}}) is None


def test_a_part_in_a_header_is_not_shown_and_a_note_says_so() -> None:
    """A part outside every summary body (here in the first summary's header) cannot be drawn
    over a summary: the ledger gets a note with its count, nothing else changes."""
    import dataclasses

    from clusteragree.errors import Ledger
    from clusteragree.pyramids import SCU, Contributor, Part
    a, b = constructed()
    start, _ = a.summaries[0].header
    header = a.text[start:start + 5]
    stray = SCU(99, "in the header", (Contributor(header, (Part(start, start + 5, header),)),))
    with Ledger() as ledger:
        view = pyramid_view(dataclasses.replace(a, scus=(*a.scus, stray)), b)
    notes = [n for n in ledger.notices if "not shown" in n.message]
    assert [(n.kind, n.count) for n in notes] == [("note", 1)]
    assert all(c["scu"] != "99" for it in view["items"] for c in it["sides"]["A"]["contributors"])
    assert view["scus"]["A"]["99"]["status"] == "one-sided"
