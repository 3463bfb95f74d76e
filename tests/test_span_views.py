"""The report's spans view (``clusteragree report spans``): the marks of a second annotator made
from the first in one known way (hypothesis), the rows of the position axis against their
definition, the units of every annotator and document against the raw files read here
(BRAT ``.ann`` lines, CoNLL columns, pygamma CSV rows, DUCView parts), the links against the
``aligned_unit`` records, and the page in headless Chromium (strips and units counted against
the data, pointing at a unit lights its aligned partners, a difference followed to its marks).
The real corpora are the slow tests."""

from __future__ import annotations

import csv
import json
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree.core.spans import span_corpus
from clusteragree.spans.agreement import span_agreement
from clusteragree.spans.sidebyside import ALIGNMENT_FIELDS, UNIT_FIELDS, document_view, span_view

ROOT = Path(__file__).resolve().parent.parent
GAMMA = ROOT / "corpora_fixtures" / "gamma"
SHARED = ROOT.parent / "shared" / "corpora"
PA = SHARED / "coref-multi-annotator" / "participant-analysis"
DUC = SHARED / "duc-pyramids" / "DUC2006" / "DUC2006pyramiddata"
COVAL = SHARED / "coref-scorer-tests" / "coval" / "tests"
FAST = ("--precision", "0.5")  # gamma's expected disorder roughly: the view needs its alignment


def _units(item: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [dict(zip(UNIT_FIELDS, u, strict=True)) for u in item["units"][name]]


def _alignments(item: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(zip(ALIGNMENT_FIELDS, a, strict=True)) for a in item["alignments"]]


# ------------------------------------------------------------------ the marks, by making
@st.composite
def _made(draw: Any) -> tuple[list[tuple[int, int, str]], list[tuple[int, int, str]], str, int]:
    """Units of A (apart from each other by 3 positions or more) and B made from them in one
    way: a boundary moved, a label changed, a unit deleted."""
    n = draw(st.integers(2, 6))
    pos = draw(st.integers(0, 3))
    a = []
    for _ in range(n):
        length = draw(st.integers(2, 9))
        a.append((pos, pos + length, draw(st.sampled_from("xyz"))))
        pos += length + draw(st.integers(3, 7))
    how = draw(st.sampled_from(["boundary", "label", "delete"]))
    k = draw(st.integers(0, n - 1))
    b = list(a)
    s, e, label = a[k]
    if how == "boundary":  # one boundary 1 or 2 positions out, or 1 in (the unit keeps 2)
        step = draw(st.integers(-1, 2).filter(lambda x: x != 0))
        if step < 0 and e - s <= 2:
            step = 1
        if draw(st.booleans()) and s - step >= 0:
            s -= step
        else:
            e += step
        b[k] = (s, e, label)
    elif how == "label":
        b[k] = (s, e, draw(st.sampled_from([x for x in "xyz" if x != label])))
    else:
        del b[k]
    return a, b, how, k


@settings(max_examples=25, deadline=None)
@given(_made())
def test_the_marks_say_how_the_second_annotator_was_made(made: Any) -> None:
    a, b, how, k = made
    corpus = span_corpus([("A", "d", *u) for u in a] + [("B", "d", *u) for u in b])
    results = span_agreement(corpus, ["gamma"], per_document=True, precision=0.5)
    item = document_view(results, "d", "x")
    mine, theirs = _units(item, "A"), _units(item, "B")
    assert [(u["start"], u["end"], u["label"]) for u in mine] == a  # A's in reading order
    expected = {"boundary": "boundary", "label": "label", "delete": "unmatched"}[how]
    assert [u["status"] for u in mine] == [expected if j == k else "matched"
                                          for j in range(len(a))]
    if how == "delete":
        assert all(u["status"] == "matched" for u in theirs)
    else:
        assert [u["status"] for u in theirs] == [expected if j == k else "matched"
                                                for j in range(len(b))]
    (difference,) = item["differences"]
    assert difference["kind"] == {"boundary": "boundary differs", "label": "label differs",
                                  "delete": "unmatched"}[how]
    assert difference["who"] == ([0] if how == "delete" else [0, 1])
    # the links: each of A's units goes with B's unit made from it
    pairs = {(al["units"][0], al["units"][1]) for al in _alignments(item)}
    made_from = [j if how != "delete" else (j if j < k else j - 1 if j > k else None)
                 for j in range(len(a))]
    assert pairs == {(j, made_from[j]) for j in range(len(a))}
    assert item["cells"]["units A"] == len(a) and item["cells"]["units B"] == len(b)


def test_a_unit_an_annotator_lacks_among_three_is_partial() -> None:
    units = [(0, 4, "x"), (8, 12, "y"), (20, 25, "x")]
    rows = [(w, "d", *u) for w in "AB" for u in units] + [("C", "d", *u) for u in units[:2]]
    item = document_view(span_agreement(span_corpus(rows), ["gamma"], per_document=True,
                                        precision=0.5), "d", "x")
    for name in "AB":
        assert [u["status"] for u in _units(item, name)] == ["matched", "matched", "partial"]
    assert [u["status"] for u in _units(item, "C")] == ["matched", "matched"]
    (difference,) = item["differences"]
    assert difference["kind"] == "missing for some" and difference["who"] == [0, 1]
    assert item["cells"]["partial"] == 2


def test_documents_and_labels_worst_first() -> None:
    rows = [("A", "good", 0, 4, "x"), ("B", "good", 0, 4, "x"),
            ("A", "bad", 0, 4, "x"), ("B", "bad", 10, 14, "x"),
            ("A", "mid", 0, 4, "x"), ("A", "mid", 6, 9, "y"),
            ("B", "mid", 0, 4, "x"), ("B", "mid", 6, 8, "y")]
    view = span_view(span_agreement(span_corpus(rows), ["f1", "gamma"], per_document=True,
                                    precision=0.5))
    gammas = [i["cells"]["gamma"] for i in view["items"]]
    assert [i["document"] for i in view["items"]] == ["bad", "mid", "good"]
    assert gammas == sorted(gammas) and view["items"][0]["measure"] == "gamma"
    # labels: y (exact F1 0: one span each, boundary differs) before x (F1 2/3 over 3 docs)
    (labels,) = view["tables"]
    assert [r["label"] for r in labels["rows"]] == ["y", "x"]
    assert labels["rows"][0]["F1 exact"] == 0.0
    x = labels["rows"][1]  # x: A 3, B 3, exact matches 2 -> 2 * 2 / (3 + 3)
    assert x["F1 exact"] == pytest.approx(2 / 3) and x["units A"] == x["units B"] == 3


# ---------------------------------------------------------------------- the position axis
@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="ab \n", max_size=400), st.integers(10, 60))
def test_rows_of_a_text_cover_it_and_cut_at_its_lines(text: str, width: int) -> None:
    from clusteragree.spans.sidebyside import _character_rows
    rows = _character_rows(text, width)
    assert rows[0][0] == 0 and rows[-1][1] == len(text)
    assert all(r[1] == s[0] for r, s in pairwise(rows))
    assert all(0 < e - s <= width for s, e in rows) or text == ""
    ends = {e for _, e in rows}
    assert all(p + 1 in ends for p, c in enumerate(text) if c == "\n")  # a line ends a row
    for s, e in rows:  # no newline inside a row but at its end
        assert "\n" not in text[s:e - 1]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="abc", min_size=1, max_size=30), min_size=1, max_size=60),
       st.integers(10, 60))
def test_rows_of_tokens_cover_them_within_the_width(tokens: list[str], width: int) -> None:
    from clusteragree.spans.sidebyside import _token_rows
    rows = _token_rows(tokens, width)
    assert rows[0][0] == 0 and rows[-1][1] == len(tokens)
    assert all(r[1] == s[0] and r[1] > r[0] for r, s in pairwise(rows))
    for s, e in rows:
        used = sum(len(t) + 1 for t in tokens[s:e])
        assert used <= width or e - s == 1  # a longer token alone


def test_rows_of_positions_are_round_and_cover_the_continuum() -> None:
    from clusteragree.spans.sidebyside import _position_rows
    rows, scale = _position_rows(1234.0, [8.0] * 10, 100)
    step = rows[0][1] - rows[0][0]
    assert step == 200 and scale == 0.5  # a unit of 8 positions: 4 characters wide
    assert rows[-1][1] >= 1234 and all(r[1] - r[0] == step for r in rows)


# ------------------------------------------------------------- a small BRAT corpus, end to end
TEXTS = {"d1": "Moses spoke to Aaron.\nAaron lit the lamps of the menorah.\n",
         "d2": "The LORD spoke to Moses.\n"}
ANN = {  # B: "Aaron" longer, "lamps" another label, "the menorah" missing, "spoke" extra
    "A": {"d1": [("PER", 0, 5), ("PER", 15, 20), ("PER", 22, 27), ("OBJ", 36, 41),
                 ("OBJ", 45, 56)],
          "d2": [("PER", 0, 8), ("PER", 18, 23)]},
    "B": {"d1": [("PER", 0, 5), ("PER", 15, 21), ("PER", 22, 27), ("ACT", 6, 11),
                 ("PER", 36, 41)],
          "d2": [("PER", 0, 8), ("PER", 18, 23)]},
}


def _brat(tmp_path: Path) -> list[str]:
    (tmp_path / "text").mkdir()
    for doc, text in TEXTS.items():
        (tmp_path / "text" / f"{doc}.txt").write_text(text, encoding="utf-8")
    for who, docs in ANN.items():
        (tmp_path / who).mkdir()
        for doc, units in docs.items():
            lines = [f"T{k + 1}\t{label} {s} {e}\t{TEXTS[doc][s:e]}"
                     for k, (label, s, e) in enumerate(units)]
            (tmp_path / who / f"{doc}.ann").write_text("\n".join(lines) + "\n",
                                                       encoding="utf-8")
    return [str(tmp_path / "A"), str(tmp_path / "B"), "--text-dir", str(tmp_path / "text")]


def _page(cli: Any, tmp_path: Path, *inputs: str) -> tuple[str, dict[str, Any]]:
    out = tmp_path / "spans.html"
    code, _, err = cli("report", "spans", *inputs, *FAST, "-o", str(out))
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    block = text.split("<script type='application/json' id='ca-data'>", 1)[1]
    return text, json.loads(block.split("</script>", 1)[0])


def _ann_units(folder: Path) -> dict[str, Counter[tuple[int, int, str, str]]]:
    """(start, end, label, surface) of every text-bound annotation, per document, read from
    the ``.ann`` lines (a discontinuous one from its first to its last character)."""
    out: dict[str, Counter[tuple[int, int, str, str]]] = {}
    for ann in sorted(folder.glob("*.ann")):
        found: Counter[tuple[int, int, str, str]] = Counter()
        for line in ann.read_text(encoding="utf-8").splitlines():
            m = re.match(r"T\d+\t(\S+) ([\d ;]+)\t(.*)$", line)
            if m:
                offsets = [int(x) for x in re.split(r"[ ;]", m.group(2).strip())]
                found[(offsets[0], offsets[-1], m.group(1), m.group(3))] += 1
        out[ann.stem] = found
    return out


def _check_brat(view: dict[str, Any], folders: dict[str, Path], texts: Path) -> None:
    """Every annotator's units of every document are the ``.ann`` file's, with the text of
    the ``.txt`` file at their offsets."""
    for name, folder in folders.items():
        raw = _ann_units(folder)
        for item in view["items"]:
            text = (texts / f"{item['document']}.txt").read_text(encoding="utf-8")
            units = _units(item, name)
            assert item["cells"][f"units {name}"] == len(units)
            got = Counter((u["start"], u["end"], u["label"], u["text"]) for u in units)
            assert sum(raw[item["document"]].values()) == len(units)
            for (s, e, label, surface), count in raw[item["document"]].items():
                if ";" not in surface:  # a fragment's surface is its parts joined
                    assert surface == text[s:e]
                assert got[(s, e, label, text[s:e])] == count
            assert item["text"] == text


def _check_links(view: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """The view's unitary alignments are the ``aligned_unit`` records, unit for unit; every
    unit is in exactly one."""
    names = view["annotators"]
    expected: dict[tuple[str, int], dict[str, Any]] = {}
    for r in records:
        if r["kind"] == "aligned_unit":
            unit = None if r["start"] is None else (r["start"], r["end"], r["label"])
            expected.setdefault((r["document"], r["unitary"]), {})[r["annotator"]] = unit
    got = {}
    for item in view["items"]:
        seen: Counter[tuple[int, int]] = Counter()
        for k, al in enumerate(_alignments(item)):
            members = {}
            for a, i in enumerate(al["units"]):
                if i is None:
                    members[names[a]] = None
                    continue
                u = _units(item, names[a])[i]
                assert u["alignment"] == k
                members[names[a]] = (u["start"], u["end"], u["label"])
                seen[(a, i)] += 1
            got[(item["document"], al["unitary"])] = members
        assert sorted(seen) == [(a, i) for a, n in enumerate(names)
                                for i in range(len(item["units"][n]))]
        assert set(seen.values()) <= {1}
    assert got == expected


def test_a_brat_corpus_against_its_files(cli, tmp_path) -> None:
    inputs = _brat(tmp_path)
    page, data = _page(cli, tmp_path, *inputs)
    (view,) = data["views"]
    assert view["kind"] == "spans" and view["annotators"] == ["A", "B"]
    _check_brat(view, {"A": tmp_path / "A", "B": tmp_path / "B"}, tmp_path / "text")
    code, out, err = cli("spans", *inputs, *FAST, "--per-doc", "--alignment", "-f", "json")
    assert code == 0, err
    records = json.loads(out)["results"]
    _check_links(view, records)
    # d1 is the worse: its marks say how B differs (made by hand above)
    first = view["items"][0]
    assert first["document"] == "d1" and view["items"][1]["cells"]["gamma"] == 1.0
    marks = {(u["start"], u["end"], u["label"]): u["status"] for u in _units(first, "A")}
    assert marks == {(0, 5, "PER"): "matched", (15, 20, "PER"): "boundary",
                     (22, 27, "PER"): "matched", (36, 41, "OBJ"): "label",
                     (45, 56, "OBJ"): "unmatched"}
    assert {(u["start"], u["label"]): u["status"] for u in _units(first, "B")}[
        (6, "ACT")] == "unmatched"
    assert sorted(d["kind"] for d in first["differences"]) == [
        "boundary differs", "label differs", "unmatched", "unmatched"]
    assert [u["text"] for u in _units(first, "A")][:2] == ["Moses", "Aaron"]
    # the page: documents table worst first, headline figures, the differing alignments
    gamma = next(r for r in records if r["kind"] == "gamma" and r["document"] == "d1")
    documents = next(s for s in data["tables"].values() if s["columns"][0]["key"] == "document"
                     and any(c["key"] == "gamma" for c in s["columns"]))
    assert documents["sort"] == "gamma" and not documents["desc"]
    headline = page.split("id='headline'", 1)[1].split("</section>", 1)[0]
    f1 = next(r for r in records if r["kind"] == "span_match_mean" and r["document"] is None
              and r["average"] == "micro" and r["rule"] == "exact")
    assert f"{f1['f1']:.4f}" in headline and "matching F1, exact" in headline
    pooled = next(r for r in records if r["kind"] == "gamma" and r["pooled"]
                  and r["measure"] == "gamma")
    assert f"{pooled['value']:.4f}" in headline and f"{gamma['value']:.4f}" in page
    differing = [s for s in data["tables"].values()
                 if any(c["key"] == "unitary" for c in s["columns"])]
    assert len(differing) == 1 and len(differing[0]["rows"]) == 4  # d1's four


def _check_rows(view: dict[str, Any], path: Path) -> None:
    """A pygamma CSV (one document): each annotator's units are its rows; no text, an axis
    of positions from 0 past the last end."""
    (item,) = view["items"]
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    for name in view["annotators"]:
        raw = Counter((int(s), int(e), c) for who, c, s, e in rows if who == name)
        got = Counter((u["start"], u["end"], u["label"]) for u in _units(item, name))
        assert got == raw and all(u["text"] is None for u in _units(item, name))
    assert item["text"] is None and item["tokens"] is None and item["scale"] > 0
    top = max(int(r[3]) for r in rows)
    assert item["rows"][0][0] == 0 and item["rows"][-1][1] >= top


def _check_differing(view: dict[str, Any], data: dict[str, Any]) -> None:
    """The unitary alignments the view does not mark matched are the rows of the page's
    table of the alignments that differ (made from the ``aligned_unit`` records), unit for
    unit; every unit is in one unitary alignment."""
    tables = [s for s in data["tables"].values()
              if any(c["key"] == "unitary" for c in s["columns"])]
    assert len(tables) <= 1
    keys = [c["key"] for c in tables[0]["columns"]] if tables else []
    expected = {}
    for row in tables[0]["rows"] if tables else []:
        cells = dict(zip(keys, row, strict=True))
        expected[(cells["document"], cells["unitary"])] = {
            n: cells.get(n) or "" for n in view["annotators"]}
    got = {}
    for item in view["items"]:
        seen = Counter()
        for al in _alignments(item):
            for a, i in enumerate(al["units"]):
                if i is not None:
                    seen[(a, i)] += 1
            if al["status"] == "matched":
                continue
            got[(item["document"], al["unitary"])] = {
                n: "" if i is None else "{}-{} {}".format(*item["units"][n][i][:3])
                for n, i in zip(view["annotators"], al["units"], strict=True)}
        assert sorted(seen) == [(a, i) for a, n in enumerate(view["annotators"])
                                for i in range(len(item["units"][n]))]
        assert set(seen.values()) <= {1}
    assert got == expected


def test_pygamma_csv_against_its_rows(cli, tmp_path) -> None:
    _, data = _page(cli, tmp_path, str(GAMMA / "example_figure10.csv"))
    (view,) = data["views"]
    _check_rows(view, GAMMA / "example_figure10.csv")
    _check_differing(view, data)


# ------------------------------------------------------------------------- in a real browser
def _browser() -> Any:
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from test_report import _browser as browser
    finally:
        sys.path.remove(str(ROOT / "tests"))
    return browser()


def _errors(driver: Any) -> list[Any]:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def _fits(driver: Any) -> bool:
    return bool(driver.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"))


def _wait(driver: Any, selector: str) -> list[Any]:
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, 10).until(lambda d: d.find_elements("css selector", selector))


def _drawn(driver: Any, view: dict[str, Any], item: dict[str, Any]) -> None:
    """The open item: a strip per annotator in every row, every unit drawn."""
    strips = driver.find_elements("css selector", "#ca-viewer .spans-who")
    assert len(strips) == len(item["rows"]) * len(view["annotators"])
    drawn = {e.get_attribute("data-u") for e in driver.find_elements(
        "css selector", "#ca-viewer .spans-u")}
    assert drawn == {f"{a}:{i}" for a, n in enumerate(view["annotators"])
                     for i in range(len(item["units"][n]))}


def _partners(driver: Any, view: dict[str, Any], item: dict[str, Any]) -> None:
    """Pointing at a unit of an alignment of two units or more lights it and its partners
    (as many as the alignment holds), and a click keeps them lit."""
    from selenium.webdriver.common.action_chains import ActionChains
    names = view["annotators"]
    al = next((a for a in _alignments(item) if sum(i is not None for i in a["units"]) >= 2),
              None)
    if al is None:
        return
    a = next(k for k, i in enumerate(al["units"]) if i is not None)
    target = driver.find_element("css selector", f'#ca-viewer .spans-u[data-u="{a}:'
                                 f'{al["units"][a]}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
    ActionChains(driver).move_to_element(target).perform()
    lit = {e.get_attribute("data-u") for e in driver.find_elements(
        "css selector", "#ca-viewer .spans-u.spans-hl")}
    partners = {e.get_attribute("data-u") for e in driver.find_elements(
        "css selector", "#ca-viewer .spans-u.spans-hl2")}
    expected = {f"{b}:{i}" for b, i in enumerate(al["units"]) if i is not None and b != a}
    assert lit == {f"{a}:{al['units'][a]}"} and partners == expected
    info = driver.find_element("css selector", "#ca-viewer .spans-info").text
    assert f"unitary alignment {al['unitary']}" in info and names[a] in info
    ActionChains(driver).click(target).perform()
    away = driver.find_element("css selector", "#ca-viewer h3")
    ActionChains(driver).move_to_element(away).perform()
    assert {e.get_attribute("data-u") for e in driver.find_elements(
        "css selector", "#ca-viewer .spans-u.spans-hl2")} == expected


@pytest.mark.browser
def test_adjudicating_spans_in_chromium(cli, tmp_path) -> None:
    _, data = _page(cli, tmp_path, *_brat(tmp_path))
    (view,) = data["views"]
    driver = _browser()
    try:
        driver.get((tmp_path / "spans.html").as_uri())
        assert not _errors(driver) and _fits(driver)
        assert not driver.find_elements("css selector", ".view-spans")  # nothing drawn yet
        box = driver.find_element("css selector", "#documents")
        rows = box.find_elements("css selector", "tbody tr")
        assert [r.find_element("css selector", "a").text for r in rows] == [
            i["document"] for i in view["items"]]  # the worst first
        rows[0].find_element("css selector", "a").click()
        item = view["items"][0]
        _wait(driver, "#ca-viewer .view-spans")
        _drawn(driver, view, item)
        _partners(driver, view, item)
        # a difference followed to its marks, and a mark back to its difference
        diffs = driver.find_elements("css selector", "#ca-viewer .ca-diffs li a")
        assert len(diffs) == len(item["differences"]) == 4
        anchor = item["differences"][0]["anchor"]
        driver.find_element("css selector", f"#ca-d-{anchor} a").click()
        flashed = _wait(driver, f'#ca-viewer [data-anchor="{anchor}"].ca-flash')
        al = next(a for a in _alignments(item) if a["anchor"] == anchor)
        assert len({e.get_attribute("data-u") for e in flashed}) == sum(
            i is not None for i in al["units"])
        # from the table of the alignments that differ to the units in the text
        driver.get((tmp_path / "spans.html").as_uri() + "#aligned-unit")
        link = driver.find_element("css selector", "#aligned-unit tbody a")
        place = link.get_attribute("href").rsplit("pos-", 1)[1]
        link.click()
        assert _wait(driver, f'#ca-viewer .spans-u[data-pos="{place}"].ca-flash')
        assert not _errors(driver) and _fits(driver)
    finally:
        driver.quit()


# ------------------------------------------------------------------------- the real corpora
def _merged(tmp_path: Path) -> Path:
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from real_matrix import merge_scus
    finally:
        sys.path.remove(str(ROOT / "tests"))
    return merge_scus(DUC / "allpyramids" / "D0631.pyr", tmp_path / "D0631-merged.pyr")


def _parts(path: Path, element: str) -> list[list[tuple[int, int, str]]]:
    """The parts ``(start, end, label)`` of every contributor under ``element`` elements."""
    root = ET.parse(path).getroot()
    return [[(int(p.get("start", 0)), int(p.get("end", 0)), p.get("label", ""))
             for p in c.iter("part")] for e in root.iter(element) for c in e.iter("contributor")]


def _check_pyramid(view: dict[str, Any], files: list[Path], element: str) -> None:
    """Each annotator has a unit per contributor (one per summary its parts lie in), and the
    text of every part is in the text of one of its annotator's units."""
    for name, path in zip(view["annotators"], files, strict=True):
        contributors = _parts(path, element)
        units = [u for i in view["items"] for u in _units(i, name)]
        assert len(contributors) <= len(units) <= sum(len(c) for c in contributors)
        texts = [" ".join(u["text"].split()) for u in units]
        for parts in contributors:
            for _, _, label in parts:
                assert any(" ".join(label.split()) in t for t in texts), label


def _check_pans(view: dict[str, Any], files: list[Path]) -> None:
    """Each peer's units are its annotators' peer contributors, from their first part's start
    to their last part's end in the peer's text."""
    by = {}
    for path in files:
        who, _, rest = path.name.partition(".")
        peer = rest.removesuffix(".pan")
        by[(who, peer)] = Counter((min(p[0] for p in c), max(p[1] for p in c))
                                  for c in _parts(path, "peerscu"))
    for item in view["items"]:
        for name in view["annotators"]:
            got = Counter((u["start"], u["end"]) for u in _units(item, name))
            assert got == by[(name, item["document"])]


def _conll_units(path: Path) -> dict[str, Counter[tuple[int, int, str]]]:
    """Per document, (first token, last token + 1, words) of every mention, read from the
    last column's brackets."""
    out: dict[str, Counter[tuple[int, int, str]]] = {}
    doc, words, opened = None, [], {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#begin document"):
            doc, words, opened = line[len("#begin document"):].strip(), [], {}
            out.setdefault(doc, Counter())
            continue
        cols = line.split()
        if doc is None or len(cols) < 4 or line.startswith("#"):
            continue
        t = len(words)
        words.append(cols[3])
        for part in cols[-1].split("|"):
            m = re.fullmatch(r"(\()?(\d+)(\))?", part)
            if not m:
                continue
            if m.group(1) and m.group(3):
                out[doc][(t, t + 1, cols[3])] += 1
            elif m.group(1):
                opened.setdefault(m.group(2), []).append(t)
            elif m.group(3):
                s = opened[m.group(2)].pop()
                out[doc][(s, t + 1, " ".join(words[s:t + 1]))] += 1
    return out


def _check_conll(view: dict[str, Any], files: list[Path]) -> None:
    for name, path in zip(view["annotators"], files, strict=True):
        raw = _conll_units(path)
        for item in view["items"]:
            key = item["document"]
            got = Counter((u["start"], u["end"], u["text"]) for u in _units(item, name))
            if name == view["annotators"][0]:  # the first annotator's words are shown
                assert got == raw[key]
            else:
                assert Counter((s, e) for s, e, _ in got.elements()) == Counter(
                    (s, e) for s, e, _ in raw[key].elements())


REAL = {
    "participant-analysis (BRAT)": lambda tmp: (
        [PA / "A", PA / "B"], ["--text-dir", str(PA / "text")],
        lambda view: _check_brat(view, {"A": PA / "A", "B": PA / "B"}, PA / "text")),
    "D0631 pyramid and a merged copy": lambda tmp: (
        [DUC / "allpyramids" / "D0631.pyr", _merged(tmp)], [],
        lambda view: _check_pyramid(view, [DUC / "allpyramids" / "D0631.pyr",
                                           tmp / "D0631-merged.pyr"], "scu")),
    "D0631 peer annotations (.pan)": lambda tmp: (
        sorted((DUC / "allpans").glob("*.D0631.*.pan")), [],
        lambda view: _check_pans(view, sorted((DUC / "allpans").glob("*.D0631.*.pan")))),
    "CoNLL scorer test TC-M": lambda tmp: (
        [COVAL / "TC-M.key", COVAL / "TC-M-3.response"], ["--input-format", "conll"],
        lambda view: _check_conll(view, [COVAL / "TC-M.key", COVAL / "TC-M-3.response"])),
    "pygamma AlexPaulSuzan": lambda tmp: (
        [GAMMA / "AlexPaulSuzan.csv"], [],
        lambda view: _check_rows(view, GAMMA / "AlexPaulSuzan.csv")),
}


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("name", list(REAL))
def test_real_corpora(name: str, cli, tmp_path) -> None:
    if not SHARED.is_dir():
        pytest.skip("../shared/corpora is absent")
    if "merged" in name and not (DUC / "allpyramids" / "D0631.pyr").exists():
        pytest.skip(f"{name} is not under ../shared/corpora")
    inputs, options, check = REAL[name](tmp_path)
    if len(inputs) < 1 or not all(Path(p).exists() for p in inputs):
        pytest.skip(f"{name} is not under ../shared/corpora")
    page, data = _page(cli, tmp_path, *map(str, inputs), *options)
    assert len(page.encode("utf-8")) < 5_000_000
    (view,) = data["views"]
    check(view)
    _check_differing(view, data)
    orders = [i["order"] for i in view["items"]]
    assert orders == sorted(orders, reverse=True)
    driver = _browser()
    try:
        driver.get((tmp_path / "spans.html").as_uri())
        assert not _errors(driver) and _fits(driver)
        for item in view["items"][:2] + view["items"][-1:]:
            driver.execute_script("CA_OPEN(arguments[0])", item["id"])
            _drawn(driver, view, item)
            assert _fits(driver)
        _partners(driver, view, view["items"][-1])
        assert not _errors(driver)
    finally:
        driver.quit()


def test_a_document_nobody_marked_and_zero_length_units() -> None:
    from clusteragree.spans.sidebyside import _position_rows
    rows, scale = _position_rows(0.0, [], 100)
    assert rows == [[0, 1]] and scale == 100
    corpus = span_corpus([("A", "d", 3, 3, "x"), ("B", "d", 3, 3, "x"), ("A", "d", 5, 9, "y")],
                         documents=["d", "empty"], annotators=["A", "B"])
    view = span_view(span_agreement(corpus, ["gamma"], per_document=True, precision=0.5))
    empty = next(i for i in view["items"] if i["document"] == "empty")
    assert empty["units"] == {"A": [], "B": []} and empty["rows"] == [[0, 1]]
    assert empty["order"] == -1.0 and view["items"][-1] is empty  # undefined gamma: last
    d = next(i for i in view["items"] if i["document"] == "d")
    assert [u["status"] for u in _units(d, "A")] == ["matched", "unmatched"]


def test_the_view_reads_pooled_gamma_and_other_coefficients_when_they_come() -> None:
    """Rows the measures may gain (pooled gamma, gamma-cat and gamma-k, unitizing
    coefficients by name) are read for what they are, not mistaken for gamma's."""
    import pandas as pd

    from clusteragree.cli.spans_tables import span_records
    from clusteragree.core.frames import TOTAL
    from clusteragree.report.html import html_report
    corpus = span_corpus([("A", "d", 0, 4, "x"), ("B", "d", 0, 5, "x"),
                          ("A", "e", 0, 4, "x"), ("B", "e", 9, 12, "y")], lengths={"d": 20,
                                                                                    "e": 20})
    results = span_agreement(corpus, per_document=True, precision=0.5)
    plain = {i["document"]: i["cells"]["gamma"] for i in span_view(results)["items"]}
    g = results.gamma
    extra = [{**g.iloc[0].to_dict(), "document": TOTAL, "pooled": True, "value": 0.123},
             {**g.iloc[0].to_dict(), "measure": "gamma-cat", "value": 0.9},
             {**g.iloc[0].to_dict(), "measure": "gamma-k", "category": "x", "value": 0.8}]
    results.gamma = pd.concat([g, pd.DataFrame(extra)], ignore_index=True)
    u = results.unitizing
    results.unitizing = pd.concat([u.assign(coefficient="alpha_u"), u.assign(
        coefficient="u-alpha", alpha=0.5)], ignore_index=True)
    view = span_view(results)
    assert {i["document"]: i["cells"]["gamma"] for i in view["items"]} == plain
    assert all(i["cells"]["u-alpha"] == 0.5 for i in view["items"])
    page = html_report({"command": "spans", "inputs": [], "signature": "s",
                        "results": span_records(results, alignment=True), "warnings": []},
                       [view])
    headline = page.split("id='headline'", 1)[1].split("</section>", 1)[0]
    assert "0.1230" in headline and "gamma <span class='meta'>(pooled" in headline
    assert "median of" not in headline
