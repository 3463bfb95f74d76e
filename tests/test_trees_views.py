"""The report's trees view (issue 22): the data of clusteragree.trees.sidebyside checked
against brute-force comparisons written here from the raw text (CoNLL-U columns, brackets),
on inline inputs, the fixtures and the real treebanks; the renderer (report/assets/trees.js)
in headless Chromium; the order of ``trees --differences``."""

from __future__ import annotations

import argparse
import json
import re
import warnings
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from clusteragree.errors import Ledger
from clusteragree.trees import read_tree_annotations, ted
from clusteragree.trees.sidebyside import tree_view

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "corpora_fixtures" / "trees"
ASSETS = ROOT / "clusteragree" / "report" / "assets"
SYNTAX = ROOT.parent / "shared" / "corpora" / "syntax"


# ------------------------------------------------------------ brute force, from the raw text
def conllu_sentences(text: str) -> list[tuple[str | None, list[tuple[str, int, str]]]]:
    """(sent_id, [(form, head, relation)]) per sentence, read from the columns directly."""
    out = []
    for block in re.split(r"\n\s*\n", text.strip()):
        sid, words = None, []
        for line in block.splitlines():
            if line.startswith("#"):
                m = re.match(r"#\s*sent_id\s*=\s*(.*\S)", line)
                sid = m.group(1) if m else sid
                continue
            cols = line.split("\t")
            if "-" in cols[0] or "." in cols[0]:
                continue
            words.append((cols[1], int(cols[6]), cols[7]))
        out.append((sid, words))
    return out


def bracket_spans(text: str) -> Counter[tuple[str, int, int]]:
    """Every node of one bracketed tree as (label, first leaf, end leaf), with multiplicity."""
    tokens = re.findall(r"\(|\)|[^\s()]+", text)
    found: Counter[tuple[str, int, int]] = Counter()
    stack: list[tuple[str, int]] = []
    leaf, k = 0, 0
    while k < len(tokens):
        if tokens[k] == "(":
            stack.append((tokens[k + 1], leaf))
            k += 2
        elif tokens[k] == ")":
            label, first = stack.pop()
            found[(label, first, leaf)] += 1
            k += 1
        else:
            found[(tokens[k], leaf, leaf + 1)] += 1
            leaf += 1
            k += 1
    return found


def bracket_trees(text: str) -> list[str]:
    trees, depth, buf = [], 0, ""
    for ch in text:
        if depth or ch == "(":
            buf += ch
        depth += (ch == "(") - (ch == ")")
        if buf and depth == 0:
            trees.append(buf)
            buf = ""
    return trees


def dependency_expectations(per_annotator: dict[str, list[tuple[str, int, str]]]
                            ) -> dict[str, Any]:
    """Words whose head (relation) differs in some pair, and who is marked."""
    names = list(per_annotator)
    n = len(next(iter(per_annotator.values())))
    head_marks = {a: set() for a in names}
    rel_marks = {a: set() for a in names}
    differing = set()
    for i in range(n):
        for a, b in combinations(names, 2):
            if per_annotator[a][i][1] != per_annotator[b][i][1]:
                head_marks[a].add(i + 1)
                head_marks[b].add(i + 1)
                differing.add(i + 1)
            if per_annotator[a][i][2] != per_annotator[b][i][2]:
                rel_marks[a].add(i + 1)
                rel_marks[b].add(i + 1)
                differing.add(i + 1)
    return {"differing": differing, "heads": head_marks, "rels": rel_marks}


def write(tmp: Path, name: str, text: str) -> str:
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def conllu(*sentences: tuple[str | None, list[tuple[str, int, str]]]) -> str:
    out = []
    for sid, words in sentences:
        lines = [f"# sent_id = {sid}"] if sid else []
        lines += ["\t".join([str(i), form, "_", "_", "_", "_", str(h), rel, "_", "_"])
                  for i, (form, h, rel) in enumerate(words, start=1)]
        out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


# ----------------------------------------------------------------------------- inline inputs
A1 = [("I", 2, "nsubj"), ("saw", 0, "root"), ("him", 2, "obj")]
B1 = [("I", 2, "obj"), ("saw", 0, "root"), ("him", 1, "obj")]
C1 = [("I", 2, "nsubj"), ("saw", 0, "root"), ("him", 1, "obj")]
LONG = [("w1", 2, "a"), ("w2", 0, "root"), ("w3", 2, "a"), ("w4", 3, "a"), ("w5", 4, "a"),
        ("w6", 5, "a"), ("w7", 6, "a"), ("w8", 7, "a")]


def _three(tmp_path: Path) -> tuple[list[str], dict[str, str]]:
    texts = {
        "a": conllu(("x-1", A1), (None, LONG), (None, A1)),
        "b": conllu(("x-1", B1), (None, LONG), (None, C1)),
        "c": conllu(("x-1", C1), (None, LONG), (None, A1)),
    }
    return [write(tmp_path, f"{k}.conllu", t) for k, t in texts.items()], texts


def test_dependency_items_match_a_word_by_word_comparison(tmp_path: Path) -> None:
    files, texts = _three(tmp_path)
    view = tree_view(read_tree_annotations(files, names=["a", "b", "c"]))
    assert view is not None and view["kind"] == "trees" and view["annotators"] == ["a", "b", "c"]
    raw = {k: conllu_sentences(t) for k, t in texts.items()}
    # the second sentence is the same for all: no item; the others named by sent_id / position
    assert [i["name"] for i in view["items"]] == ["x-1", "sentence 3"]
    for item, k in zip(view["items"], (0, 2), strict=True):
        expected = dependency_expectations({a: raw[a][k][1] for a in raw})
        assert {d["anchor"] for d in item["differences"]} == {f"w{i}" for i in
                                                              expected["differing"]}
        assert item["cells"]["arcs differing"] == len(expected["differing"])
        for a in "abc":
            assert set(item["annotations"][a]["head_differs"]) == expected["heads"][a]
            assert set(item["annotations"][a]["relation_differs"]) == expected["rels"][a]
            assert item["annotations"][a]["heads"] == [h for _, h, _ in raw[a][k][1]]
        trees = read_tree_annotations(files, names=["a", "b", "c"]).sentences
        unit = item["name"] if item["name"] == "x-1" else "3"
        assert item["order"] == max(float(ted(trees[a][unit].tree, trees[b][unit].tree,
                                              free_empty=True))
                                    for a, b in combinations("abc", 2))
    # sentence 3: a and c agree, b differs on "him"'s head: all three marked, b's text apart
    third = view["items"][1]
    assert third["differences"][0]["text"] == "3 'him': head 2 'saw' (a, c), 1 'I' (b)"
    # every=True keeps the sentence where all agree
    every = tree_view(read_tree_annotations(files, names=["a", "b", "c"]), every=True)
    assert every is not None and len(every["items"]) == 3
    assert every["items"][-1]["order"] == 0.0 and every["items"][-1]["differences"] == []


def test_items_are_sorted_by_edit_distance_then_sentence_order(tmp_path: Path) -> None:
    one = [("a", 0, "root"), ("b", 1, "x")]
    files = [write(tmp_path, "a.conllu", conllu((None, one), (None, one), (None, LONG))),
             write(tmp_path, "b.conllu", conllu(
                 (None, [("a", 0, "root"), ("b", 1, "y")]),
                 (None, [("a", 0, "root"), ("b", 1, "z")]),
                 (None, [(f, 1 if i == 4 else h, r) for i, (f, h, r) in enumerate(LONG)])))]
    view = tree_view(read_tree_annotations(files))
    assert view is not None
    orders = [i["order"] for i in view["items"]]
    assert orders == sorted(orders, reverse=True) and orders[0] > orders[1] == orders[2]
    assert [i["name"] for i in view["items"]] == ["sentence 3", "sentence 1", "sentence 2"]


def test_bracketed_items_match_the_spans_of_the_brackets() -> None:
    files = [str(FIX / f"annotator-{x}.tree") for x in "ab"]
    view = tree_view(read_tree_annotations(files, names=["A", "B"]))
    assert view is not None
    _check_phrase(view, {n: [bracket_spans(t) for t in
                             bracket_trees(Path(f).read_text(encoding="utf-8"))]
                         for n, f in zip("AB", files, strict=True)})
    # sentence 2: VP over V alone in B (over V P D N in A); sentence 3: the AP only B has
    assert [(i["name"], i["cells"]["constituents differing"]) for i in view["items"]] == [
        ("sentence 2", 2), ("sentence 3", 1)]


def _check_phrase(view: dict[str, Any], spans: dict[str, list[Counter[tuple[str, int, int]]]]
                  ) -> None:
    names = view["annotators"]
    for item in view["items"]:
        k = int(item["name"].split()[-1]) - 1 if item["name"].startswith("sentence") else None
        assert k is not None
        mine = {n: spans[n][k] for n in names}
        expected = {key for a, b in combinations(names, 2)
                    for key in (mine[a] - mine[b]) + (mine[b] - mine[a])}
        assert item["cells"]["constituents differing"] == len(expected)
        for n in names:
            nodes = item["annotations"][n]["nodes"]
            assert Counter((x["label"], *x["span"]) for x in nodes) == mine[n]
            marked = Counter((x["label"], *x["span"]) for x in nodes if "differs" in x)
            assert marked == Counter({key: c for key, c in mine[n].items() if key in expected
                                      and any(mine[o][key] < c for o in names if o != n)})
            missing = {(m["label"], *m["span"]) for m in item["annotations"][n]["missing"]}
            assert missing == {key for key in expected
                               if any(mine[o][key] > mine[n][key] for o in names if o != n)}


# ------------------------------------------------------------------------------- real data
def _read(files: list[str] = (), dirs: list[str] = (), **options: Any):  # type: ignore[assignment]
    with warnings.catch_warnings(), Ledger():
        warnings.simplefilter("ignore")
        return read_tree_annotations(files, dirs=dirs, roots="many", cycles="drop", **options)


REAL_PAIRS = {"CDT da": ("cdt", "da-lotte.conll", "da-morten.conll"),
              "CDT en": ("cdt", "en-lotte.conll", "en-morten.conll"),
              "NDT danish": ("ndt", "odin-danish.conll", "thor-danish.conll")}


@pytest.mark.parametrize("corpus", list(REAL_PAIRS))
def test_real_pairs_match_a_word_by_word_comparison(corpus: str) -> None:
    folder, a, b = REAL_PAIRS[corpus]
    paths = [SYNTAX / folder / a, SYNTAX / folder / b]
    if not all(p.exists() for p in paths):
        pytest.skip("../shared/corpora absent")
    raw = [conllu_sentences(p.read_text(encoding="utf-8")) for p in paths]
    view = tree_view(_read([str(p) for p in paths], names=["A", "B"]))
    assert view is not None
    expected_items = []
    for k, ((_, x), (_, y)) in enumerate(zip(*raw, strict=True), start=1):
        if len(x) != len(y):
            expected_items.append(k)
            continue
        if x != y and [(h, r) for _, h, r in x] != [(h, r) for _, h, r in y]:
            expected_items.append(k)
    got = {int(i["name"].split()[-1]): i for i in view["items"]}
    assert sorted(got) == expected_items
    for k, item in got.items():
        x, y = raw[0][k - 1][1], raw[1][k - 1][1]
        if len(x) != len(y):
            assert item["cells"]["arcs differing"] is None
            continue
        expected = dependency_expectations({"A": x, "B": y})
        assert item["cells"]["arcs differing"] == len(expected["differing"])
        assert item["cells"]["heads differing"] == len(expected["heads"]["A"])
        for n in "AB":
            assert set(item["annotations"][n]["head_differs"]) == expected["heads"][n]
            assert set(item["annotations"][n]["relation_differs"]) == expected["rels"][n]
    orders = [i["order"] for i in view["items"]]
    assert orders == sorted(orders, reverse=True)


def test_real_ssd_three_annotators_match_the_brackets() -> None:
    dirs = sorted((SYNTAX / "ssd").glob("ssd.*"))
    if len(dirs) != 3:
        pytest.skip("../shared/corpora absent")
    view = tree_view(_read(dirs=[str(d) for d in dirs]))
    assert view is not None and len(view["annotators"]) == 3
    for item in view["items"]:
        prefix = item["document"].split("-")[0]
        shown = [n for n in view["annotators"] if item["annotations"][n] is not None]
        spans = {}
        for n in shown:
            (path,) = (SYNTAX / "ssd" / n).glob(f"{prefix}-*.tree")
            spans[n] = [bracket_spans(bracket_trees(path.read_text(encoding="utf-8"))[0])]
        _check_phrase({**view, "annotators": shown, "items": [item]}, spans)


def test_cdt_it_dirs_with_missing_annotators() -> None:
    dirs = sorted((SYNTAX / "cdt" / "it").iterdir()) if (SYNTAX / "cdt" / "it").exists() else []
    if len(dirs) != 3:
        pytest.skip("../shared/corpora absent")
    annotations = _read(dirs=[str(d) for d in dirs])
    view = tree_view(annotations)
    assert view is not None
    absent = [i for i in view["items"] if None in i["annotations"].values()]
    assert absent  # some texts have two annotators of three
    units = [u for u in annotations.sentences["iorn"]]
    assert len({i["id"] for i in view["items"]}) == len(view["items"])
    assert all(re.fullmatch(r"[A-Za-z0-9_-]+", i["id"]) for i in view["items"])
    assert len(view["items"]) <= len(set(units) | {u for s in annotations.sentences.values()
                                                   for u in s})
    json.dumps(view, allow_nan=False)  # plain JSON


def _ran(*argv: str) -> argparse.Namespace:
    """The parsed arguments of ``clusteragree trees`` after the command ran (it hands over
    what it read and its edit distances)."""
    import contextlib
    import io

    from clusteragree.cli import build_parser
    inner = build_parser().parse_args([*argv, "-f", "json"])
    with contextlib.redirect_stdout(io.StringIO()):
        assert inner.run(inner) == 0
    return inner


def test_tree_views_from_the_command_arguments() -> None:
    from clusteragree.cli.views_trees import tree_views
    files = [str(FIX / f"annotator-{x}.conllu") for x in "ab"]
    inner = _ran("trees", *files)
    view = tree_views(inner, {"meta": {}, "results": []})
    assert view is not None and [i["name"] for i in view["items"]] == ["s4", "s2", "s3"]
    inner = _ran("trees", *files, "--unlabelled")  # relations no longer count: s3 differs
    view = tree_views(inner, {"meta": {}, "results": []})  # only in one
    assert view is not None and [i["name"] for i in view["items"]] == ["s4", "s2"]
    inner = _ran("trees", files[0], files[0])
    assert tree_views(inner, {"meta": {}, "results": []}) is None


# ------------------------------------------------- trees --differences (issue 22, regression)
def test_differences_are_sorted_by_edit_distance_and_named_by_sent_id(cli, tmp_path) -> None:
    # sentence 1: 2 words, one relation differs (ted 1, norm 1/6); sentence 2 "s-long": 8
    # words, two relations differ (ted 2, norm 2/18): by edit distance s-long comes first
    one = [("a", 0, "root"), ("b", 1, "x")]
    relabelled = [(f, h, "b" if i in (3, 5) else r) for i, (f, h, r) in enumerate(LONG)]
    a = write(tmp_path, "a.conllu", conllu((None, one), ("s-long", LONG)))
    b = write(tmp_path, "b.conllu", conllu((None, [("a", 0, "root"), ("b", 1, "y")]),
                                           ("s-long", relabelled)))
    code, out, _ = cli("trees", a, b, "--differences", "-f", "json")
    assert code == 0
    rows = [r for r in json.loads(out)["results"] if r["kind"] == "sentence_difference"]
    assert [(r["sentence"], r["ted"]) for r in rows] == [("s-long", 2.0), ("1", 1.0)]


# ------------------------------------------------------------------------- in a real browser
def _browser():
    from test_report import _browser as start
    return start()


def _harness(views: list[dict[str, Any]]) -> str:
    script = (ASSETS / "trees.js").read_text(encoding="utf-8")
    style = (ASSETS / "trees.css").read_text(encoding="utf-8")
    calls = "".join(
        f"<script>var v = {json.dumps(v)}; v.items.forEach(function (it) {{"
        "document.getElementById('out').appendChild(CA_RENDER.trees(it, v)); });</script>"
        for v in views)
    return (f"<!doctype html><html><head><meta charset='utf-8'><style>{style}</style></head>"
            f"<body><div id='out'></div><script>{script}</script>{calls}</body></html>")


COUNT = """
return Array.from(document.querySelectorAll('.view-trees')).map(function (view) {
  function n(el, css) { return el.querySelectorAll(css).length; }
  return {
    anchors: Array.from(new Set(Array.from(view.querySelectorAll('[data-anchor]')).map(
      function (e) { return e.getAttribute('data-anchor'); }))),
    rows: Array.from(view.querySelectorAll('.trees-row')).map(function (row) {
      return {annotator: row.getAttribute('data-annotator'), arc: n(row, 'path.trees-arc'),
              word: n(row, 'text.trees-word'), arcDiffers: n(row, '.trees-arc-differs'),
              relDiffers: n(row, '.trees-rel-differs'), node: n(row, 'g.trees-node'),
              only: n(row, 'g.trees-only'), missing: n(row, 'g.trees-missing')};
    })};
});
"""


@pytest.mark.browser
def test_the_renderer_draws_what_the_data_holds(tmp_path: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    dependency = tree_view(read_tree_annotations([str(FIX / f"annotator-{x}.conllu")
                                                  for x in "ab"]))
    phrase = tree_view(read_tree_annotations([str(FIX / f"annotator-{x}.tree") for x in "ab"]))
    views = [dependency, phrase]
    raw = {x: conllu_sentences((FIX / f"annotator-{x}.conllu").read_text(encoding="utf-8"))
           for x in "ab"}
    brackets = {x: [bracket_spans(t) for t in bracket_trees(
        (FIX / f"annotator-{x}.tree").read_text(encoding="utf-8"))] for x in "ab"}
    paths = [SYNTAX / "cdt" / f"en-{a}.conll" for a in ("lotte", "morten")]
    real = None
    if all(p.exists() for p in paths):
        real = tree_view(_read([str(p) for p in paths]))
        assert real is not None  # the widest sentence of CDT(en), and a few more
        widest = max(real["items"], key=lambda i: len(i["words"]))
        real["items"] = [widest, *[i for i in real["items"][:4] if i is not widest]]
        views.append(real)
    page = tmp_path / "trees.html"
    page.write_text(_harness([v for v in views if v]), encoding="utf-8")
    driver = _browser()
    try:
        driver.set_window_size(1280, 1000)
        driver.get(page.as_uri())
        assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        drawn = driver.find_elements("css selector", ".view-trees")
        counted = driver.execute_script(COUNT)  # one round trip: every view's marks
        items = [i for v in views if v for i in v["items"]]
        assert len(drawn) == len(counted) == len(items)
        for found, item in zip(counted, items, strict=True):
            assert len(found["rows"]) == 2
            assert set(found["anchors"]) == {d["anchor"] for d in item["differences"]}
            if "words" in item:
                k = None
                if item["document"].startswith("annotator"):
                    k = [sid for sid, _ in raw["a"]].index(item["name"])
                for row, x in zip(found["rows"], "ab", strict=True):
                    ann = item["annotations"][row["annotator"]]
                    n = len(raw[x][k][1]) if k is not None else len(ann["heads"])
                    assert row["arc"] == row["word"] == n
                    if k is not None:
                        expected = dependency_expectations({"a": raw["a"][k][1],
                                                            "b": raw["b"][k][1]})
                        heads, rels = len(expected["heads"][x]), len(expected["rels"][x])
                    else:
                        heads, rels = len(ann["head_differs"]), len(ann["relation_differs"])
                    assert (row["arcDiffers"], row["relDiffers"]) == (heads, rels)
            else:
                k = int(item["name"].split()[-1]) - 1
                mine = {x: brackets[x][k] for x in "ab"}
                for row, x, y in zip(found["rows"], "ab", "ba", strict=True):
                    assert row["node"] == sum(mine[x].values())
                    assert row["only"] == sum((mine[x] - mine[y]).values())
                    assert row["missing"] == len(mine[y] - mine[x])
        width = driver.execute_script("return [document.documentElement.scrollWidth, "
                                      "window.innerWidth]")
        assert width[0] <= width[1] <= 1280
        if real is not None:  # the widest sentence does scroll, inside its own box
            box = drawn[len(dependency["items"]) + len(phrase["items"])].find_element(
                "css selector", ".trees-scroll")
            assert driver.execute_script("return arguments[0].scrollWidth > "
                                         "arguments[0].clientWidth", box)
        # hovering a word lights it in both rows, and nothing else's word
        first = drawn[0]
        word = first.find_elements("css selector", "text.trees-word")[2]
        ActionChains(driver).move_to_element(word).perform()
        lit = first.find_elements("css selector", "text.trees-word.trees-hover")
        assert [e.get_attribute("data-col") for e in lit] == ["3", "3"]
        leaf = drawn[len(dependency["items"])].find_elements("css selector", "g.trees-leaf")[1]
        ActionChains(driver).move_to_element(leaf).perform()
        lit = drawn[len(dependency["items"])].find_elements("css selector",
                                                            "g.trees-leaf.trees-hover")
        assert [e.get_attribute("data-col") for e in lit] == ["2", "2"]
        assert not first.find_elements("css selector", ".trees-hover")
        assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        driver.quit()
