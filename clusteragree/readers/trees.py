"""Syntax trees: CoNLL-X / CoNLL-U dependencies and bracketed phrase-structure trees.

Dependency sentences become ordered labelled trees as in Skjaerholt (2014): the artificial root
is a node labelled ``""``, every word is a node labelled with its relation, children in surface
order; forms, lemmas and tags are ignored. Multiword-token lines (``3-4``) and empty nodes
(``5.1``) are skipped and counted. A sentence whose heads form a cycle, has several roots or a
head outside the sentence is an error with the file and line.

Bracketed trees (``(S (NP D N) (VP V))``, with or without words) become trees without their
words: with words, pre-terminals become leaves.

Several annotators (``read_tree_dirs``): one directory per annotator, files named
``<prefix>-<anything>`` matched by prefix across directories; a missing file is a missing
annotation. ``read_tree_annotations`` assembles paired files or such directories into
annotator -> {sentence: Sentence}, the input of the tree alpha and the accuracies.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError, ParameterError
from ..model import unique_labels
from ..ted import Tree

__all__ = ["Sentence", "TreeAnnotations", "TreeFile", "check_paired", "parse_brackets",
           "read_conll_trees",
           "read_tree_annotations", "read_tree_dirs", "read_trees"]


@dataclass(frozen=True)
class Sentence:
    """One annotated sentence: its tree, and for dependencies the words, heads and relations.

    Two annotators' sentences are equal when their annotations are (the line is not compared).
    ``tokens`` is the reference code's size of a dependency sentence: the words plus the
    artificial root, words left out of the tree by ``cycles="drop"`` included.
    """

    tree: Tree
    words: tuple[str, ...] = ()
    heads: tuple[int, ...] = ()
    deprels: tuple[str, ...] = ()
    line: int | None = field(default=None, compare=False)
    brackets: frozenset[tuple[str, int, int]] = frozenset()

    @property
    def tokens(self) -> int:
        """Words + 1 for the artificial root (dependencies)."""
        return len(self.words) + 1


@dataclass(frozen=True)
class TreeFile:
    """The sentences of one file, and what was skipped."""

    sentences: tuple[Sentence, ...]
    path: str
    kind: str
    skipped: dict[str, int] = field(default_factory=dict)


def _tree_from_heads(heads: list[int], rels: list[str], path: str, line: int,
                     many_roots: bool, drop_cycles: bool) -> tuple[Tree, int]:
    """The tree, and the number of words dropped because they are in a cycle."""
    n = len(heads)
    roots = [i for i, h in enumerate(heads, start=1) if h == 0]
    if len(roots) != 1 and not (many_roots and roots):
        raise InputError(f"the sentence has {len(roots)} roots (head 0); a tree has one "
                         "(several roots under the artificial root: roots='many')",
                         path=path, line=line)
    children: list[list[int]] = [[] for _ in range(n + 1)]
    for i, h in enumerate(heads, start=1):
        if not 0 <= h <= n:
            raise InputError(f"word {i} has head {h}, outside the sentence of {n} words",
                             path=path, line=line)
        children[h].append(i)
    seen = 0
    stack = [0]
    while stack:
        node = stack.pop()
        seen += 1
        stack.extend(children[node])
    if seen != n + 1 and not drop_cycles:
        raise InputError(f"the heads form a cycle: {n + 1 - seen} words do not reach the root "
                         "(cycles='drop' leaves them out, as the reference code does)",
                         path=path, line=line)
    built: dict[int, Tree] = {}
    order: list[int] = []
    stack = [0]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(children[node])
    for node in reversed(order):
        label = "" if node == 0 else (rels[node - 1] if rels[node - 1] != "_" else "")
        built[node] = (label, tuple(built[c] for c in children[node]))
    return built[0], n + 1 - seen


def read_conll_trees(path: str | os.PathLike[str], *, roots: str = "one",
                     cycles: str = "error") -> TreeFile:
    """Dependency trees from a CoNLL-X or CoNLL-U file (``#`` comment lines are skipped).

    ``roots="one"`` (default) refuses a sentence with several words headed by 0; ``"many"``
    accepts them as children of the artificial root (some treebanks, such as the Copenhagen
    Dependency Treebanks, have them) and counts them in ``skipped``. ``cycles="drop"`` leaves
    out words whose heads form a cycle (they never reach the root), counted too.
    """
    if roots not in ("one", "many"):
        raise InputError(f"roots must be 'one' or 'many'. Got {roots!r}.")
    name = os.fspath(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as err:
        raise InputError(f"cannot open: {err.strerror}", path=name) from None
    skipped: Counter[str] = Counter()
    sentences: list[Sentence] = []
    rows: list[tuple[int, list[str]]] = []

    def flush() -> None:
        if not rows:
            return
        first = rows[0][0]
        words, heads, rels = [], [], []
        for k, (number, cols) in enumerate(rows, start=1):
            if cols[0] != str(k):
                raise InputError(f"word id {cols[0]!r}, expected {k}: ids must count 1, 2, ...",
                                 path=name, line=number)
            try:
                heads.append(int(cols[6]))
            except ValueError:
                raise InputError(f"head {cols[6]!r} is not a number", path=name,
                                 line=number) from None
            words.append(cols[1])
            rels.append(cols[7])
        if heads.count(0) > 1:
            skipped["sentences with several roots (kept)"] += 1
        tree, dropped = _tree_from_heads(heads, rels, name, first, roots == "many",
                                         cycles == "drop")
        if dropped:
            skipped["words in cycles left out"] += dropped
        sentences.append(Sentence(tree, tuple(words), tuple(heads), tuple(rels), first))
        rows.clear()

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r")
        if not line.strip():
            flush()
            continue
        if line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            raise InputError(f"{len(cols)} columns, expected the 10 TAB-separated columns of "
                             "CoNLL-X / CoNLL-U", path=name, line=number)
        if "-" in cols[0]:
            skipped["multiword-token lines"] += 1
            continue
        if "." in cols[0]:
            skipped["empty nodes"] += 1
            continue
        rows.append((number, cols))
    flush()
    return TreeFile(tuple(sentences), name, "dependency", dict(skipped))


_TOKEN = re.compile(r"\(|\)|[^\s()]+")


def parse_brackets(text: str, path: str = "<trees>", line: int = 1, *,
                   words: bool = False) -> tuple[Tree, frozenset[tuple[str, int, int]]]:
    """One bracketed tree and its brackets ``(label, first leaf, end leaf)``.

    Without words (``words=False``, the delexicalised input of the reference data) every bare
    token is a leaf node. With ``words=True`` bare tokens are words and are dropped: their
    pre-terminal becomes the leaf.

    >>> parse_brackets("(S (NP D N) (VP V))")[0]
    ('S', (('NP', (('D', ()), ('N', ()))), ('VP', (('V', ()),))))
    >>> parse_brackets("(S (NP (D the) (N cat)) (VP (V sat)))", words=True)[0]
    ('S', (('NP', (('D', ()), ('N', ()))), ('VP', (('V', ()),))))
    """
    tokens = _TOKEN.findall(text)
    stack: list[tuple[str, list[Tree], int, int]] = []  # label, children, first leaf, words
    result: Tree | None = None
    leaf = 0
    brackets: set[tuple[str, int, int]] = set()
    k = 0
    while k < len(tokens):
        tok = tokens[k]
        if tok == "(":
            label = tokens[k + 1] if k + 1 < len(tokens) and tokens[k + 1] not in "()" else ""
            stack.append((label, [], leaf, 0))
            k += 2 if label else 1
            continue
        if tok == ")":
            if not stack:
                raise InputError("a closing bracket without an opening one", path=path,
                                 line=line)
            label, kids, start, n_words = stack.pop()
            if n_words and kids:
                raise InputError(f"node {label!r} has both words and subtrees", path=path,
                                 line=line)
            if n_words:
                leaf += 1  # a pre-terminal: its words are dropped, it is a leaf
            node: Tree = (label, tuple(kids))
            brackets.add((label, start, leaf))
            if stack:
                stack[-1][1].append(node)
            else:
                result = node
            k += 1
            continue
        if not stack:
            raise InputError(f"text {tok!r} outside the brackets", path=path, line=line)
        if words:
            top = stack[-1]
            stack[-1] = (top[0], top[1], top[2], top[3] + 1)
        else:
            stack[-1][1].append((tok, ()))
            brackets.add((tok, leaf, leaf + 1))
            leaf += 1
        k += 1
    if stack or result is None:
        raise InputError("unbalanced brackets", path=path, line=line)
    return result, frozenset(brackets)


def read_trees(path: str | os.PathLike[str], *, words: bool = False) -> TreeFile:
    """Bracketed trees, one after another (a tree may span several lines); ``words`` as in
    :func:`parse_brackets`."""
    name = os.fspath(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as err:
        raise InputError(f"cannot open: {err.strerror}", path=name) from None
    sentences = []
    depth, start = 0, 1
    buf: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not buf and not line.strip():
            continue
        if not buf:
            start = number
        buf.append(line)
        depth += line.count("(") - line.count(")")
        if depth == 0 and "".join(buf).strip():
            tree, brackets = parse_brackets("\n".join(buf), name, start, words=words)
            sentences.append(Sentence(tree, line=start, brackets=brackets))
            buf = []
        elif depth < 0:
            raise InputError("a closing bracket without an opening one", path=name, line=number)
    if buf:
        raise InputError("unbalanced brackets at the end of the file", path=name, line=start)
    return TreeFile(tuple(sentences), name, "phrase", {})


def read_tree_dirs(directories: list[str | os.PathLike[str]], *, roots: str = "one",
                   cycles: str = "error") -> dict[str, dict[str, TreeFile]]:
    """``prefix -> annotator directory name -> file`` for several annotators' directories."""
    out: dict[str, dict[str, TreeFile]] = {}
    for directory in directories:
        folder = Path(directory)
        if not folder.is_dir():
            raise InputError("not a directory", path=str(folder))
        for f in sorted(folder.iterdir()):
            if not f.is_file():
                continue
            prefix = f.name.split("-")[0]
            tf = (read_trees(f) if f.suffix == ".tree"
                  else read_conll_trees(f, roots=roots, cycles=cycles))
            out.setdefault(prefix, {})[folder.name] = tf
    return out


@dataclass(frozen=True)
class TreeAnnotations:
    """Several annotators' sentences: ``sentences[annotator][unit]``, units being positions in
    paired files or ``(prefix, position)`` in the directory layout; what the readers skipped,
    by file."""

    sentences: dict[str, dict[Any, Sentence]]
    kind: str
    skipped: dict[str, dict[str, int]]

    @property
    def n_annotations(self) -> int:
        """Number of annotated sentences over all annotators."""
        return sum(len(s) for s in self.sentences.values())


def check_paired(files: Sequence[TreeFile]) -> None:
    """Refuse files of one text that do not hold the same number of sentences."""
    for tf in files[1:]:
        if len(tf.sentences) != len(files[0].sentences):
            raise InputError(f"{len(tf.sentences)} sentences where {files[0].path} has "
                             f"{len(files[0].sentences)}; the files of one text must hold the "
                             "same sentences", path=tf.path)


def read_tree_annotations(files: Sequence[str | os.PathLike[str]] = (), *,
                          dirs: Sequence[str | os.PathLike[str]] = (),
                          names: Sequence[str] | None = None, roots: str = "one",
                          cycles: str = "error", words: bool = False) -> TreeAnnotations:
    """Paired files of the same sentences (``.tree`` files are bracketed trees, anything else
    CoNLL) or one directory per annotator (``dirs``), as annotator -> {unit: Sentence}.

    Paired files must hold the same number of sentences; in the directory layout the files of
    one prefix must too (else :class:`InputError` naming the file). Annotators are named by
    ``names``, or the file names (directory names).
    """
    if bool(files) == bool(dirs):
        raise ParameterError("give two or more paired files, or directories (dirs), not both")
    read: dict[str, dict[str, TreeFile]] = {}
    if dirs:
        read = read_tree_dirs(list(dirs), roots=roots, cycles=cycles)
    else:
        if len(files) < 2:
            raise ParameterError("give two or more paired files of the same sentences")
        labels = (list(names) if names is not None
                  else unique_labels([os.fspath(f) for f in files]))
        read = {"": {label: (read_trees(f, words=words) if Path(f).suffix == ".tree"
                             else read_conll_trees(f, roots=roots, cycles=cycles))
                     for label, f in zip(labels, files, strict=True)}}
    sentences: dict[str, dict[Any, Sentence]] = {}
    skipped: dict[str, dict[str, int]] = {}
    kinds = set()
    for prefix, by_annotator in read.items():
        check_paired(list(by_annotator.values()))
        for annotator, tf in by_annotator.items():
            kinds.add(tf.kind)
            if tf.skipped:
                skipped[tf.path] = dict(tf.skipped)
            target = sentences.setdefault(annotator, {})
            for k, sentence in enumerate(tf.sentences):
                target[(prefix, k) if dirs else k] = sentence
    if len(kinds) > 1:
        raise ParameterError("dependency and bracketed files mixed: compare one kind at a "
                             "time")
    return TreeAnnotations(sentences, kinds.pop() if kinds else "dependency", skipped)
