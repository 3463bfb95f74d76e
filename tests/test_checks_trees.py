"""validate for syntax trees: one planted problem per test id, the structure checks against
brute-force definitions, the real treebanks against udvalidate and independent counts, the CLI,
and --strict on the trees command."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree.incidents import TESTS
from clusteragree.trees.checks import validate_inputs
from clusteragree.trees.scan import clean_conll, scan_conll
from clusteragree.trees.structure import flag_sentences, non_projective_arcs, unreachable

SYNTAX = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "syntax"
UDVALIDATE = shutil.which("udvalidate") or str(Path(sys.executable).parent / "udvalidate")


def row(i: object, form: str, head: object, rel: str = "r") -> str:
    return "\t".join([str(i), form, "_", "_", "_", "_", str(head), rel, "_", "_"])


CLEAN = "\n".join(["# sent_id = s1", row(1, "I", 2, "Subj"), row(2, "saw", 0, "Pred"),
                   row(3, "the", 4, "Det"), row(4, "man", 2, "Obj"), "",
                   "# sent_id = s2", row(1, "Go", 0, "Pred"), ""]) + "\n"


def run(tmp_path: Path, *texts: str, fmt: str = "conllu", level: int = 3,
        suffix: str = ".conllu") -> list:
    paths = []
    for k, text in enumerate(texts):
        p = tmp_path / f"a{k}{suffix}"
        p.write_text(text, encoding="utf-8")
        paths.append(str(p))
    return list(validate_inputs(paths, fmt, level=level, encoding=None, names=None,
                                options={}))


def ids(found: list) -> set[str]:
    """The test ids found, but the reader's information (multiword-token lines read)."""
    return {i.test_id for i in found if i.test_id != "read-note"}


def test_clean_file_has_no_error(tmp_path: Path) -> None:
    assert run(tmp_path, CLEAN, CLEAN) == []


# One planted problem per test id: (test id, the file's text).
PLANTED = [
    ("trees-columns", CLEAN.replace(row(3, "the", 4, "Det"), "3\tthe\t_\t4")),
    ("trees-id", CLEAN.replace(row(3, "the", 4, "Det"), row("x", "the", 4, "Det"))),
    ("trees-id-sequence", CLEAN.replace(row(3, "the", 4, "Det"), row(5, "the", 4, "Det"))),
    ("trees-head", CLEAN.replace(row(3, "the", 4, "Det"), row(3, "the", "_", "Det"))),
    ("trees-sent-id", CLEAN.replace("# sent_id = s2", "# sent_id = s2\n# sent_id = s3")),
    ("trees-number-form", CLEAN.replace(row(3, "the", 4, "Det"), row(3, "the", "04", "Det"))),
    ("trees-blank-line", CLEAN.replace("\n\n# sent_id = s2", "\n\n\n# sent_id = s2")),
    ("trees-comment", CLEAN.replace(row(4, "man", 2, "Obj"), row(4, "man", 2, "Obj")
                                    + "\n# late")),
    ("trees-multiword", CLEAN.replace(row(3, "the", 4, "Det"), "5-6\t" + "\t".join(["_"] * 9)
                                      + "\n" + row(3, "the", 4, "Det"))),
    ("trees-empty-node", CLEAN.replace(row(3, "the", 4, "Det"), row(3, "the", 4, "Det")
                                       + "\n1.1\t" + "\t".join(["_"] * 9))),
    ("trees-no-words", CLEAN + "1-2\t" + "\t".join(["_"] * 9) + "\n\n"),
    ("trees-head-range", CLEAN.replace(row(3, "the", 4, "Det"), row(3, "the", 9, "Det"))),
    ("trees-no-root", CLEAN.replace(row(2, "saw", 0, "Pred"), row(2, "saw", 4, "Pred"))),
    ("trees-several-roots", CLEAN.replace(row(4, "man", 2, "Obj"), row(4, "man", 0, "Obj"))),
    ("trees-cycle", CLEAN.replace(row(4, "man", 2, "Obj"), row(4, "man", 3, "Obj"))),
    ("trees-non-projective", CLEAN.replace(row(1, "I", 2, "Subj"), row(1, "I", 4, "Subj"))
     .replace(row(3, "the", 4, "Det"), row(3, "the", 2, "Det"))),
    ("trees-sent-id-duplicate", CLEAN.replace("s2", "s1")),
]


@pytest.mark.parametrize(("test_id", "text"), PLANTED, ids=[t for t, _ in PLANTED])
def test_one_planted_problem_fires_its_test_alone(tmp_path: Path, test_id: str,
                                                  text: str) -> None:
    found = run(tmp_path, text, level=2)
    assert ids(found) == {test_id}, [str(i) for i in found]


def test_encoding(tmp_path: Path) -> None:
    p = tmp_path / "a.conllu"
    p.write_bytes(CLEAN.replace("man", "m\xe9n").encode("latin-1"))
    found = list(validate_inputs([str(p)], "conllu", level=2, encoding=None, names=None,
                                 options={}))
    assert ids(found) == {"trees-encoding"} and found[0].line == 5


def test_every_malformed_line_is_reported_and_stops_only_its_sentence(tmp_path: Path) -> None:
    text = CLEAN.replace(row(1, "I", 2, "Subj"), "1\tI").replace(
        row(3, "the", 4, "Det"), "3\tthe") + row(1, "Hi", 0) + "\n" + row(2, "x", 7) + "\n\n"
    found = run(tmp_path, text, level=2)
    assert [(i.test_id, i.line) for i in found] == [
        ("trees-columns", 2), ("trees-columns", 4), ("trees-head-range", 11)]


LEVEL3 = [
    ("trees-sentence-count", CLEAN, CLEAN.split("\n\n")[0] + "\n\n"),
    ("trees-sent-id-mismatch", CLEAN, CLEAN.replace("s2", "x2")),
    ("trees-token-count", CLEAN, CLEAN.replace(row(1, "Go", 0, "Pred"), row(1, "Go", 0, "Pred")
                                               + "\n" + row(2, "!", 1, "Det"))),
    ("trees-word-form", CLEAN, CLEAN.replace("\tman\t", "\tmen\t")),
    ("trees-labels-differ", CLEAN, CLEAN.replace("Det", "DT")),
    ("trees-label-case", CLEAN, CLEAN.replace("Det", "det")),
]


@pytest.mark.parametrize(("test_id", "a", "b"), LEVEL3, ids=[t for t, _, _ in LEVEL3])
def test_level3_planted(tmp_path: Path, test_id: str, a: str, b: str) -> None:
    found = run(tmp_path, a, b)
    expected = {test_id} | ({"trees-labels-differ"} if test_id == "trees-label-case" else set())
    assert ids(found) == expected, [str(i) for i in found]
    assert run(tmp_path, a, b, level=2) == []


def test_directories_missing_texts_and_prefixes(tmp_path: Path) -> None:
    for d, names in (("ann1", ["t1-x.conll", "t2-x.conll", "t2-y.conll"]),
                     ("ann2", ["t1-z.conll"])):
        (tmp_path / d).mkdir()
        for n in names:
            (tmp_path / d / n).write_text(CLEAN, encoding="utf-8")
    found = list(validate_inputs([str(tmp_path / "ann1"), str(tmp_path / "ann2")], "conllu",
                                 level=3, encoding=None, names=None, options={}))
    assert sorted((i.test_id, i.annotator) for i in found) == [
        ("trees-document-missing", "ann2"), ("trees-prefix", "ann1")]


def test_a_file_with_level1_errors_is_not_compared(tmp_path: Path) -> None:
    found = run(tmp_path, CLEAN, CLEAN.replace(row(3, "the", 4, "Det"), "3\tthe"))
    assert ids(found) == {"trees-columns", "trees-not-compared"}


BRACKETS = [
    ("trees-brackets-unbalanced", "(S (NP D N) (VP V)))\n"),
    ("trees-brackets-unbalanced", "(S (NP D N) (VP V)\n"),
    ("trees-brackets-outside", "(S (NP D N)) V\n"),
    ("trees-brackets-outside", "(S (NP D N)) (S V)\n"),
    ("trees-no-sentence", "\n"),
]


@pytest.mark.parametrize(("test_id", "text"), BRACKETS)
def test_brackets_planted(tmp_path: Path, test_id: str, text: str) -> None:
    found = run(tmp_path, text, fmt="brackets", suffix=".tree", level=2)
    assert ids(found) == {test_id}, [str(i) for i in found]


def test_brackets_level3(tmp_path: Path) -> None:
    found = run(tmp_path, "(S (NP D N) (VP V))\n", "(S (NP D) (VP V))\n", fmt="brackets",
                suffix=".tree")
    assert ids(found) == {"trees-leaf-count"}
    assert run(tmp_path, "(S (NP D N) (VP V))\n", "(S (NP D N) (VP V))\n", fmt="brackets",
               suffix=".tree") == []


def test_every_test_has_a_planted_file() -> None:
    planted = {t for t, _ in PLANTED} | {t for t, _, _ in LEVEL3} | {t for t, _ in BRACKETS}
    planted |= {"trees-encoding", "trees-document-missing", "trees-prefix",
                "trees-not-compared", "trees-leaf-count"}
    assert {t for t, test in TESTS.items() if test.domain == "trees"} == planted


# --- the structure checks against their definitions

def brute_unreachable(heads: list[int]) -> set[int]:
    out = set()
    for w in range(1, len(heads) + 1):
        k, steps = w, 0
        while k != 0 and steps <= len(heads):
            k, steps = heads[k - 1], steps + 1
        if k != 0:
            out.add(w)
    return out


def brute_non_projective(heads: list[int]) -> list[tuple[int, int]]:
    def dominated(h: int, k: int) -> bool:
        while k != 0:
            if k == h:
                return True
            k = heads[k - 1]
        return h == 0
    return [(h, d) for d, h in enumerate(heads, 1) if h
            and any(not dominated(h, k) for k in range(min(h, d) + 1, max(h, d)))]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.integers(0, 9), min_size=1, max_size=9), min_size=1, max_size=6))
def test_structure_flags_match_definitions(sentences: list[list[int]]) -> None:
    flags = flag_sentences(sentences)
    for j, heads in enumerate(sentences):
        n = len(heads)
        out = any(h > n for h in heads)
        assert flags.out_of_range[j] == out
        assert flags.roots[j] == heads.count(0)
        if out or 0 not in heads:
            continue
        lost = brute_unreachable(heads)
        assert flags.cyclic[j] == bool(lost)
        if lost:
            cycle, hanging = unreachable(heads)
            assert set(cycle) | set(hanging) == lost
            continue
        arcs = brute_non_projective(heads)
        assert non_projective_arcs(heads) == arcs
        assert flags.gapped[j] == bool(arcs)


def test_clean_shortcut_agrees_with_the_scan() -> None:
    """clean_conll says True only where scan_conll finds nothing, on random mutations."""
    rnd = random.Random(3)
    edits = ["", " ", "\n", "#c\n", "0", "+", "\t", "1-2\t_\t_\t_\t_\t_\t_\t_\t_\t_\n"]
    for _ in range(400):
        text = list(CLEAN)
        for _ in range(rnd.randint(0, 2)):
            text.insert(rnd.randrange(len(text) + 1), rnd.choice(edits))
        mutated = "".join(text)
        if re.search(r"(?m)^[0-9]+[-.]", mutated):
            continue  # the reader's notice of these lines sends the file to the scan
        if clean_conll(mutated.encode()):
            found = [i for i in scan_conll(mutated, "x").incidents
                     if i.test_id not in ("trees-columns", "trees-id", "trees-head",
                                          "trees-id-sequence")]  # the reader refuses those
            assert found == [], (mutated, found)


# --- the CLI

def test_cli_exit_codes_level_max_err_json(tmp_path: Path, cli) -> None:
    good, bad = tmp_path / "a.conllu", tmp_path / "b.conllu"
    good.write_text(CLEAN, encoding="utf-8")
    cyclic = CLEAN.split("\n\n")[0].replace(row(4, "man", 2, "Obj"), row(4, "man", 3, "Obj"))
    bad.write_text(cyclic + "\n\n" + cyclic.replace("s1", "s2") + "\n\n", encoding="utf-8")
    assert cli("validate", str(good), str(good))[0] == 0
    code, out, _ = cli("validate", str(bad), "--max-err", "1")
    assert code == 1 and "trees-cycle" in out and "1 of 2 incidents not shown" in out
    assert cli("validate", str(bad), "--level", "1")[0] == 0
    code, out, _ = cli("validate", str(good), str(bad), "-f", "json")
    records = json.loads(out)["results"]
    kinds = {r["kind"] for r in records}
    assert code == 1 and kinds == {"incident", "test"}
    assert {r["test"] for r in records if r["kind"] == "test"} == {"trees-cycle",
                                                                   "trees-token-count"}


def test_trees_strict_refuses_the_errors_validate_reports(tmp_path: Path, cli) -> None:
    a, b = tmp_path / "a.conllu", tmp_path / "b.conllu"
    a.write_text(CLEAN, encoding="utf-8")
    b.write_text(CLEAN.replace(row(4, "man", 2, "Obj"), row(4, "man", 0, "Obj")),
                 encoding="utf-8")
    # several roots: a warning; --roots many reads them, and --strict accepts them
    assert cli("trees", str(a), str(b), "--roots", "many", "--strict")[0] == 0
    b.write_text(CLEAN.replace(row(4, "man", 2, "Obj"), row(4, "man", 3, "Obj")),
                 encoding="utf-8")
    assert cli("trees", str(a), str(b), "--cycles", "drop")[0] == 0
    assert cli("trees", str(a), str(b), "--cycles", "drop", "--strict")[0] == 1
    assert cli("validate", str(a), str(b))[0] == 1


# --- the real treebanks

def _udvalidate_structure(path: Path) -> set[tuple[int, str]]:
    """udvalidate's structural incidents, (line, kind) with kinds named as ours."""
    kinds = {"multiple-roots": "roots", "non-tree": "tree", "head-self-loop": "tree",
             "unknown-head": "range", "number-of-columns": "cols", "word-id-sequence": "ids",
             "invalid-word-id": "ids", "invalid-head": "head"}
    done = subprocess.run([UDVALIDATE, "--lang", "ud", "--level", "2", "--max-err", "0",
                           str(path)], capture_output=True, text=True, check=False)
    out = set()
    for line in (done.stdout + done.stderr).splitlines():
        m = re.match(r"\[Line (\d+)[^\]]*\]: \[L\d \w+ ([a-z0-9-]+)\]", line)
        if m and m.group(2) in kinds:
            out.add((int(m.group(1)), kinds[m.group(2)]))
    return out


OURS = {"trees-several-roots": "roots", "trees-cycle": "tree", "trees-no-root": "tree",
        "trees-head-range": "range", "trees-columns": "cols", "trees-id-sequence": "ids",
        "trees-id": "ids", "trees-head": "head"}


@pytest.mark.slow
def test_real_treebanks_against_udvalidate() -> None:
    if not SYNTAX.is_dir() or not Path(UDVALIDATE).exists():
        pytest.skip("../shared/corpora/syntax or udvalidate absent")
    files = sorted(SYNTAX.glob("ndt/*.conll")) + sorted(SYNTAX.glob("cdt/*.conll"))
    for path in files:
        text = path.read_text(encoding="utf-8")
        starts = [m.start() for m in re.finditer(r"(?m)^1\t", text)]
        first_line = [text.count("\n", 0, s) + 1 for s in starts]

        def sentence_of(line: int, first_line: list[int] = first_line) -> int:
            return max(x for x in first_line if x <= line)

        ud = {(sentence_of(line), k) for line, k in _udvalidate_structure(path)}
        found = [i for i in validate_inputs([str(path)], "conllu", level=2, encoding=None,
                                            names=None, options={}) if i.test_id in OURS]
        ours = {(i.line, OURS[i.test_id]) for i in found}
        # udvalidate stops a sentence at its first structural failure: it looks for no cycle
        # in a sentence with several roots, nor for several roots once a word is its own head
        both = {s for s, k in ours if k == "roots"} & {s for s, k in ours if k == "tree"}
        assert {x for x in ours if x[0] not in both} == {x for x in ud if x[0] not in both}
        assert {x for x in ud if x[0] in both} <= {x for x in ours if x[0] in both}


@pytest.mark.slow
def test_real_treebanks_level3_against_raw_counts() -> None:
    if not SYNTAX.is_dir():
        pytest.skip("../shared/corpora/syntax absent")
    # several roots, counted by a regex over the raw file: words with head 0 per sentence
    for path in sorted(SYNTAX.glob("cdt/*.conll")):
        blocks = path.read_text(encoding="utf-8").strip("\n").split("\n\n")
        several = sum(1 for b in blocks if len(re.findall(r"(?m)^(?:[^\t]*\t){6}0\t", b)) > 1)
        found = [i for i in validate_inputs([str(path)], "conllu", level=2, encoding=None,
                                            names=None, options={})]
        assert sum(i.test_id == "trees-several-roots" for i in found) == several
        assert not {i.test_id for i in found} - {"trees-several-roots", "trees-cycle",
                                                 "trees-non-projective"}
    # SSD: leaves counted as the bare tokens of each file
    dirs = [SYNTAX / "ssd" / d for d in ("ssd.emily2", "ssd.woodley", "ssd.woodley2")]
    leaves = {d.name: {f.name.split("-")[0]: len(re.findall(r"[^\s()]+(?=[\s)])",
                                                            re.sub(r"\(\S+", "(", f.read_text())))
                       for f in d.iterdir()} for d in dirs}
    expected = sum(1 for d in dirs[1:] for p, n in leaves[d.name].items()
                   if p in leaves["ssd.emily2"] and leaves["ssd.emily2"][p] != n)
    found = list(validate_inputs([str(d) for d in dirs], "brackets", level=3, encoding=None,
                                 names=None, options={}))
    assert sum(i.test_id == "trees-leaf-count" for i in found) == expected
    missing = sum(1 for d in dirs for p in set().union(*leaves.values()) - set(leaves[d.name]))
    assert sum(i.test_id == "trees-document-missing" for i in found) == missing
