"""The vectorised CoNLL-U readers against the line-by-line ones: the same sentences and
documents, the same errors and the same warnings, on generated well-formed, broken and
byte-mutated files.

The line-by-line readers (``fast=False``) are the reference: every generated file is read both
ways and must give equal model objects (trees, words, heads, relations, lines; documents,
tokens, mentions) or the same error message, and the same warnings. Well-formed files must
take the vectorised path (checked on the fast functions directly), so the comparison is not
vacuous.
"""

from __future__ import annotations

import contextlib
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fuzzing import mutated
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusteragree.coref import read_corefud
from clusteragree.coref.corefud_fast import corefud_lines
from clusteragree.errors import InputError
from clusteragree.inputs import read_text
from clusteragree.trees import read_conll_trees
from clusteragree.trees.conllu_fast import fast_conll_trees

ROOT = Path(__file__).resolve().parent.parent
TREES = ROOT / "corpora_fixtures" / "trees"
SYNTAX = ROOT.parent / "shared" / "corpora" / "syntax"
SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def read_both(data: str | bytes, suffix: str, read: Callable[..., Any],
              options: list[dict[str, Any]], where: str | None = None
              ) -> tuple[list[object], list[object]]:
    """What the reader gives for the file with ``fast=True`` and ``fast=False``, under each of
    ``options``: the result and its warnings, or the error (the file written as ``x`` with
    ``suffix`` in directory ``where``, default a new one)."""
    out: dict[bool, list[object]] = {True: [], False: []}
    with contextlib.nullcontext(where) if where else tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"x{suffix}"
        if isinstance(data, str):
            path.write_text(data, encoding="utf-8", newline="")
        else:
            path.write_bytes(data)
        for fast in (True, False):
            for option in options:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    try:
                        got: object = read(path, fast=fast, **option)
                    except InputError as err:
                        got = ("error", str(err))
                out[fast].append((got, [str(w.message) for w in caught]))
    return out[True], out[False]


def inserted(text: str, pieces: list[tuple[int, str]]) -> str:
    """``text`` with each piece inserted at its offset (taken modulo the length)."""
    for at, piece in pieces:
        at %= len(text) + 1
        text = text[:at] + piece + text[at:]
    return text


# --- Dependency trees

TREE_OPTIONS = [{"roots": r, "cycles": c} for r in ("one", "many") for c in ("error", "drop")]


def read_trees_and_where(path: Path, **options: Any) -> tuple[object, list[object]]:
    """The file read, with where each sentence was found and its sent_id (which equality of
    sentences leaves out)."""
    tf = read_conll_trees(path, **options)
    return tf, [(s.line, s.path, s.sent_id) for s in tf.sentences]


@st.composite
def treebanks(draw: st.DrawFn) -> list[list[tuple[int, str]]]:
    """Sentences as (head, relation) per word, each a tree: every word's head is a word
    attached before it in a random order, or 0 for the first (and, now and then, others)."""
    out = []
    for _ in range(draw(st.integers(0, 5))):
        n = draw(st.integers(1, 9))
        order = draw(st.permutations(range(1, n + 1)))
        heads = [0] * (n + 1)
        for k in range(1, n):
            heads[order[k]] = (0 if draw(st.integers(0, 9)) == 0
                               else order[draw(st.integers(0, k - 1))])
        rels = [draw(st.sampled_from(["nsubj", "obj", "_", "det", "acl:relcl", "é"]))
                for _ in range(n)]
        out.append(list(zip(heads[1:], rels, strict=True)))
    return out


def render_trees(sentences: list[list[tuple[int, str]]], extras: int, crlf: bool,
                 final_newline: bool) -> str:
    """CoNLL-U text; ``extras`` adds comment lines, multiword tokens, empty nodes and blank
    lines made of spaces and TABs (in that order of what it turns on)."""
    lines = ["# newdoc id = d"] if extras else []
    for s, words in enumerate(sentences):
        if extras > 0:
            lines.append(f"# sent_id = {s}")
        for i, (head, rel) in enumerate(words, start=1):
            if extras > 1 and i == 2:
                lines.append("\t".join(["2-3", "du", *["_"] * 8]))
            form = ["Mary", "saw", "ÿé", "x y", "12", "a#b", ""][(i + s) % 7]
            lines.append("\t".join([str(i), form, "_", "NOUN", "_", "_", str(head), rel, "_",
                                    "_"]))
            if extras > 2 and i == 1:
                lines.append("\t".join(["1.1", "e", *["_"] * 8]))
            if extras > 0 and i == 1 and s % 2:
                lines.append("# a comment inside the sentence")
        lines.append(" \t " if extras > 3 and s % 2 else "")
    text = ("\r\n" if crlf else "\n").join(lines)
    return text + ("\r\n" if crlf else "\n") if final_newline else text


@SETTINGS
@given(treebanks(), st.integers(0, 4), st.booleans(), st.booleans())
def test_well_formed_treebanks_take_the_fast_path_and_read_the_same(sentences, extras, crlf,
                                                                     end) -> None:
    text = render_trees(sentences, extras, crlf, end)
    several = any(sum(h == 0 for h, _ in words) > 1 for words in sentences)
    for roots in ("one", "many"):
        fast = fast_conll_trees(text, "x.conllu", roots)
        assert (fast is None) == (several and roots == "one")
    fast_read, slow_read = read_both(text, ".conllu", read_trees_and_where, TREE_OPTIONS)
    assert fast_read == slow_read  # the lines, files and sent_ids too
    for (got, _), roots in zip(fast_read, [o["roots"] for o in TREE_OPTIONS], strict=True):
        if got[0] != "error":
            assert [s.sent_id for s in got[0].sentences] == (
                [str(k) for k in range(len(sentences))] if extras else [None] * len(sentences))
        else:
            assert several and roots == "one"


TREE_BREAKS = ["\n", "\t", " ", "#", "1", "0", "-", ".", "x", "\r", "\x0c", "\u2028", "\xa0",
               "\ufeff", "99999999999999999999", "1-2\t_\t_\t_\t_\t_\t_\t_\t_\t_\n", "\t_",
               "\n\n", " \n", "+1", "\u0663", "\n# sent_id = z\n", "# sent_id =\n",
               "\n#sent_id=\ty \n", "sent_id = w"]


@SETTINGS
@given(treebanks(), st.integers(0, 4),
       st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(TREE_BREAKS)), min_size=1,
                max_size=3))
def test_broken_treebanks_read_the_same_or_fail_the_same(sentences, extras, breaks) -> None:
    """Pieces that break the format anywhere (cycles, heads outside, bad ids, odd spaces,
    wrong columns): both paths agree on the sentences, or on the error (file, line and
    message), and on every warning."""
    text = inserted(render_trees(sentences, extras, False, True), breaks)
    fast_read, slow_read = read_both(text, ".conllu", read_trees_and_where, TREE_OPTIONS)
    assert fast_read == slow_read


def test_a_cycle_and_a_deep_chain_take_the_line_by_line_path() -> None:
    row = "{}\tw\t_\t_\t_\t_\t{}\tdep\t_\t_"
    cycle = "\n".join([row.format(1, 0), row.format(2, 3), row.format(3, 2)])
    assert fast_conll_trees(cycle, "x.conllu") is None
    deep = "\n".join(row.format(i, i - 1) for i in range(1, 5000))
    assert fast_conll_trees(deep, "x.conllu") is None
    shallow = "\n".join(row.format(i, i - 1) for i in range(1, 4000))
    assert fast_conll_trees(shallow, "x.conllu") is not None


ROW = "{}\tw\t_\t_\t_\t_\t{}\tdep\t_\t_"


@pytest.mark.parametrize(("text", "fast", "expected"), [
    # A sent_id in a block of comments alone names the next sentence, as does one among its
    # words; # sent_id with no space and a TAB is one too, # sent_id: is a plain comment.
    ("# sent_id = a\n\n" + ROW.format(1, 0) + "\n\n" + ROW.format(1, 0) + "\n# sent_id = b\n",
     True, ["a", "b"]),
    ("#sent_id=\tq \n# sent_id: r\n" + ROW.format(1, 0) + "\n", True, ["q"]),
    ("# sent_id = a\n" + ROW.format(1, 0) + "\n# sent_id = b\n", False,
     "x.conllu:3: a second # sent_id for one sentence (the first at line 1)"),
    (ROW.format(1, 0) + "\n\n# sent_id = c\n", False,
     "x.conllu:3: a # sent_id after the last sentence"),
    ("# sent_id = \n" + ROW.format(1, 0) + "\n", False, "x.conllu:1: a # sent_id without a value"),
])
def test_sent_ids_are_read_the_same_both_ways(text: str, fast: bool, expected: Any) -> None:
    assert (fast_conll_trees(text, "x.conllu") is not None) == fast
    fast_read, slow_read = read_both(text, ".conllu", read_trees_and_where, [{}])
    assert fast_read == slow_read
    got = fast_read[0][0]
    if isinstance(expected, list):
        assert [s.sent_id for s in got[0].sentences] == expected
    else:
        assert got[0] == "error" and f"/{expected}" in got[1]


@pytest.mark.parametrize("path", sorted(TREES.glob("*.conllu")), ids=lambda p: p.name)
def test_tree_fixtures_take_the_fast_path(path: Path) -> None:
    got = fast_conll_trees(read_text(path), str(path))
    assert got is not None
    want = read_conll_trees(path, fast=False).sentences
    assert tuple(got[0]) == want
    assert [s.sent_id for s in got[0]] == [s.sent_id for s in want] == [
        f"s{k}" for k in range(1, len(want) + 1)]  # the fixtures name every sentence


def test_real_treebanks_read_the_same() -> None:
    """The dependency files of the shared corpora (skipped when absent): the same both ways,
    and the vectorised path taken by every file it can read (``roots="many"`` for the
    Copenhagen files, which have sentences with several roots)."""
    files = sorted(p for p in SYNTAX.rglob("*") if p.is_file() and p.suffix not in (".md", ".tree"))
    if not files:
        pytest.skip("the shared corpora are absent")
    taken = 0
    for path in files:
        fast_read, slow_read = read_both(path.read_bytes(), path.suffix, read_trees_and_where,
                                         [{"roots": "many"}, {"roots": "one"}])
        assert fast_read == slow_read, path
        taken += fast_conll_trees(read_text(path), str(path), "many") is not None
    assert taken >= len(files) // 2


# --- CorefUD coreference

COREF_OPTIONS = [{"lenient": False}, {"lenient": True}]
COREFUD = ROOT / "corpora_fixtures" / "coref" / "corefud"
MULTI = ROOT.parent / "shared" / "corpora" / "coref-multi-annotator"


@st.composite
def corefud_documents(draw: st.DrawFn) -> list[tuple[int, list[str]]]:
    """Documents as (number of tokens, MISC cell of each token): mentions of one or more
    tokens, nested, with and without heads, now and then discontinuous (two parts) or
    marked twice."""
    out = []
    for _ in range(draw(st.integers(0, 3))):
        n = draw(st.integers(0, 10))
        opens: list[list[str]] = [[] for _ in range(n)]
        closes: list[list[str]] = [[] for _ in range(n)]
        for _ in range(draw(st.integers(0, 6)) if n else 0):
            start = draw(st.integers(0, n - 1))
            end = min(n, start + draw(st.integers(1, 4)))
            eid = f"e{draw(st.integers(1, 4))}"
            if draw(st.integers(0, 5)) == 0 and end - start > 2:  # two parts, a gap between
                for k, (a, b) in enumerate([(start, start + 1), (end - 1, end)], start=1):
                    part = f"{eid}[{k}/2]"
                    if a + 1 == b:
                        opens[a].append(f"({part}-person-1-)")
                    else:
                        opens[a].append(f"({part}-person-1-")
                        closes[b - 1].insert(0, f"{part})")
                continue
            head = draw(st.sampled_from(["1", "", str(end - start)]))
            if end - start == 1:
                opens[start].append(f"({eid}-person-{head}-)")
            else:
                opens[start].append(f"({eid}-person-{head}-")
                closes[end - 1].insert(0, f"{eid})")
        cells = []
        for t in range(n):
            chunks = "".join(closes[t] + opens[t])
            cells.append(draw(st.sampled_from(["{}", "SpaceAfter=No|{}", "{}|X=1"])).format(
                f"Entity={chunks}") if chunks else draw(st.sampled_from(["_", "SpaceAfter=No"])))
        out.append((n, cells))
    return out


def render_corefud(docs: list[tuple[int, list[str]]], extras: int, ends: str | bool,
                   final_newline: bool) -> str:
    """CorefUD text; ``extras`` adds tokens before the first document, multiword tokens,
    empty nodes, and blank lines of spaces (in that order of what it turns on)."""
    lines = ["# global.Entity = eid-etype-head-other"]
    if extras > 0:
        lines.append("1\tBefore\t_\t_\t_\t_\t_\t_\t_\t_")
    for d, (n, cells) in enumerate(docs):
        lines.append(f"# newdoc id = doc{d}")
        for t in range(n):
            if t % 6 == 0:
                lines.append(f"# sent_id = {d}-{t}")
            if extras > 1 and t == 1:
                lines.append("\t".join(["2-3", "du", *["_"] * 8]))
            if extras > 2 and t == 2:
                lines.append("\t".join(["2.1", "_", *["_"] * 7, "_"]))
            word = ["Mary", "saw", "ÿé", "x y", "12", "a#b"][t % 6]
            lines.append("\t".join([str(t % 6 + 1), word, "_", "_", "_", "_", "0", "root", "_",
                                    cells[t]]))
            if t % 6 == 5:
                lines.append(" \t" if extras > 3 else "")
    end = "\r\n" if ends is True else "\n" if ends is False else ends
    text = end.join(lines)
    return text + end if final_newline else text


@SETTINGS
@given(corefud_documents(), st.integers(0, 4), st.sampled_from(["\n", "\r\n", "\r"]),
       st.booleans())
def test_well_formed_corefud_takes_the_fast_path_and_reads_the_same(docs, extras, ends,
                                                                     end) -> None:
    """Lines ending in LF, CRLF or CR (old Mac files) alike."""
    text = render_corefud(docs, extras, ends, end)
    assert corefud_lines(text) is not None
    fast_read, slow_read = read_both(text, ".conllu", read_corefud, COREF_OPTIONS)
    assert fast_read == slow_read
    if ends != "\n":  # the same as the file with LF line ends, line numbers and all
        with tempfile.TemporaryDirectory() as tmp:
            assert read_both(text, ".conllu", read_corefud, COREF_OPTIONS, tmp) == read_both(
                render_corefud(docs, extras, "\n", end), ".conllu", read_corefud,
                COREF_OPTIONS, tmp)


COREF_BREAKS = ["\n", "\t", " ", "#", "1", "-", ".", "x", "\r", "\x0c", "\u2028", "\xa0",
                "\ufeff", "(", ")", "e1)", "(e1-x-", "[1/2]", "Entity=", "|",
                "# newdoc id = doc0\n", "# global.Entity = eid-head\n",
                "\n1-2\t_\t_\t_\t_\t_\t_\t_\t_\t_\n", "\u0663"]


@SETTINGS
@given(corefud_documents(), st.integers(0, 4),
       st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(COREF_BREAKS)), min_size=1,
                max_size=3))
def test_broken_corefud_reads_the_same_or_fails_the_same(docs, extras, breaks) -> None:
    text = inserted(render_corefud(docs, extras, False, True), breaks)
    fast_read, slow_read = read_both(text, ".conllu", read_corefud, COREF_OPTIONS)
    assert fast_read == slow_read


@pytest.mark.parametrize("which", ["trees", "corefud"])
@SETTINGS
@given(data=st.data())
def test_mutated_fixtures_read_the_same(which: str, data: st.DataObject) -> None:
    """Byte mutations of a real fixture (the fuzz campaign's mutations), read both ways."""
    seed, read, options = {"trees": (TREES, read_trees_and_where, TREE_OPTIONS),
                           "corefud": (COREFUD, read_corefud, COREF_OPTIONS)}[which]
    mutant = data.draw(mutated((seed / "annotator-a.conllu").read_bytes()))
    fast_read, slow_read = read_both(mutant, ".conllu", read, options)
    assert fast_read == slow_read


def test_corefud_files_take_the_fast_path_and_read_the_same() -> None:
    """The bundled CorefUD fixtures, and the shared corpora's CoNLL-U files when present."""
    files = sorted(COREFUD.glob("*.conllu")) + sorted(MULTI.rglob("*.conllu"))
    for path in files:
        assert corefud_lines(read_text(path)) is not None, path
        fast_read, slow_read = read_both(path.read_bytes(), ".conllu", read_corefud,
                                         COREF_OPTIONS)
        assert fast_read == slow_read, path
