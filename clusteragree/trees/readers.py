"""Syntax trees: CoNLL-X / CoNLL-U dependencies and bracketed phrase-structure trees.

Dependency sentences become ordered labelled trees as in Skjaerholt (2014): the artificial root
is a node labelled ``""``, every word is a node labelled with its relation, children in surface
order; forms, lemmas and tags are ignored. Multiword-token lines (``3-4``) and empty nodes
(``5.1``) are skipped and counted; a ``# sent_id = ...`` comment names the sentence it precedes.
A sentence without a root or with a head outside the sentence is an error with the file and
line; sentences with several roots (``roots``) or heads forming a cycle (``cycles``) are counted
over every file of a run and reported with each file's first line, and the run is refused once,
naming every option that would accept them (:mod:`clusteragree.trees.findings`).

Bracketed trees (``(S (NP D N) (VP V))``, with or without words) become trees without their
words: with words, pre-terminals become leaves.

Several annotators (``read_tree_dirs``): one directory per annotator, files named
``<prefix>-<anything>`` matched by prefix across directories; a missing file is a missing
annotation. ``read_tree_annotations`` assembles paired files or such directories into
annotator -> {sentence: Sentence}, the input of the tree alpha and the accuracies, sentences
named by their sent_id or their number from 1 (:mod:`clusteragree.trees.pairing`).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..core.model import unique_labels
from ..errors import InputError, ParameterError, ParameterTypeError, notify
from ..inputs import CR_MIXED, iter_lines, line_ends, parse_int, read_text
from .conllu_fast import SEVERAL_ROOTS, fast_conll_trees, sent_id_of
from .findings import Findings, findings
from .model import Sentence, Tree, TreeAnnotations, TreeFile, check_paired
from .pairing import compare_words, name_sentences

__all__ = ["TREE_FORMATS", "parse_brackets", "read_conll_trees", "read_tree_annotations",
           "read_tree_dirs", "read_trees"]


def _tree_from_heads(heads: list[int], rels: list[str], path: str, line: int
                     ) -> tuple[Tree, int]:
    """The tree, and the number of words left out of it because their heads form a cycle
    (they never reach the root). A sentence without a root or with a head outside it is an
    error."""
    n = len(heads)
    if 0 not in heads:
        raise InputError("the sentence has no root: no word has head 0 (a tree has one)",
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
    labels = [""] + [r if r != "_" else "" for r in rels]
    return Tree.from_children(labels, children), n + 1 - seen


def _path(path: object) -> str:
    if not isinstance(path, (str, os.PathLike)):
        raise ParameterTypeError(f"path must be a file path (str or PathLike). Got "
                                 f"{type(path).__name__}.")
    return os.fspath(path)


def _paths(paths: object, what: str) -> list[str]:
    """A list of paths, checked."""
    if isinstance(paths, (str, bytes, os.PathLike)) or not isinstance(paths, Iterable):
        raise ParameterTypeError(f"{what} must be a list of paths (str or PathLike), one per "
                                 f"annotator. Got {type(paths).__name__}.")
    out = []
    for p in paths:
        if not isinstance(p, (str, os.PathLike)):
            raise ParameterTypeError(f"{what} must be a list of paths (str or PathLike). Got "
                                     f"an item of type {type(p).__name__}.")
        out.append(os.fspath(p))
    return out


def _names(names: object) -> list[str]:
    """Annotator names, checked."""
    if isinstance(names, (str, bytes)) or not isinstance(names, Iterable):
        raise ParameterTypeError(f"names must be a list of str, one per annotator. Got "
                                 f"{type(names).__name__}.")
    out = list(names)
    if not all(isinstance(x, str) for x in out):
        raise ParameterTypeError("names must be a list of str, one per annotator")
    return out


def _notices(name: str, skipped: Counter[str], lines: dict[str, int],
             found: Findings) -> None:
    """What a reader left out or kept as it was, once per kind with its first line."""
    for what, count in skipped.items():
        kind = "note" if ("(kept)" in what or "lines" in what or "nodes" in what) else "skipped"
        found.note(kind, what, name, lines.get(what), count)


_RANGE = re.compile(r"[0-9]+-[0-9]+")
_EMPTY = re.compile(r"[0-9]+\.[0-9]+")


def read_conll_trees(path: str | os.PathLike[str], *, roots: str = "one",
                     cycles: str = "error", encoding: str | None = None,
                     fast: bool = True) -> TreeFile:
    """Dependency trees from a CoNLL-X or CoNLL-U file (``#`` comment lines are skipped).

    ``roots="one"`` (default) refuses a sentence with several words headed by 0; ``"many"``
    accepts them as children of the artificial root (some treebanks, such as the Copenhagen
    Dependency Treebanks, have them) and counts them in ``skipped``. ``cycles="drop"`` leaves
    out words whose heads form a cycle (they never reach the root), counted too. Ids and heads
    are ASCII numbers; multiword-token lines (``3-4``) and empty nodes (``5.1``) are not part
    of the basic tree and are counted. Everything counted is also reported
    (:func:`clusteragree.errors.notify`) with the file and its first line.

    Parameters
    ----------
    path : str or os.PathLike
        The file: sentences separated by blank lines, one word a line in 10 TAB-separated
        columns, of which ID (1), HEAD (7) and DEPREL (8) make the tree and FORM (2) the words.
    roots : {"one", "many"}, default="one"
        Refuse (``one``) or keep (``many``) sentences with several words headed by 0.
    cycles : {"error", "drop"}, default="error"
        Refuse sentences whose heads form a cycle, or leave those words out of the tree
        (``drop``, as the reference code does; they still count in ``Sentence.tokens``).
    encoding : str, optional
        The file's encoding; default UTF-8 (a byte that is not is reported with its line and
        column).
    fast : bool, default=True
        Read a well-formed file with the vectorised reader
        (:func:`clusteragree.trees.conllu_fast.fast_conll_trees`), which gives the same
        sentences and counts; any other file, and every file with ``fast=False``, is read line
        by line, so errors name their line as before.

    Returns
    -------
    TreeFile
        The sentences (``kind="dependency"``), each a :class:`~clusteragree.trees.Sentence`
        with its tree, words, heads, relations and first line, and ``skipped``: what was left
        out or kept, with counts.

    Raises
    ------
    ParameterTypeError, ParameterError
        A path that is not a path, an unknown ``roots`` or ``cycles``.
    InputError
        With the file and line: a wrong number of columns, ids that do not count 1, 2, ...,
        a head that is not a number or lies outside the sentence, no root, two ``# sent_id``
        lines for one sentence or one after the last sentence, an empty sent_id. Sentences
        with several roots (``roots="one"``) or a cycle (``cycles="error"``) are each
        reported (kind ``note``, with the first line and the count) once the whole file is
        read, then refused by one error at the first of them naming the options that accept
        them.

    References
    ----------
    Buchholz, S. and Marsi, E. (2006). CoNLL-X shared task on multilingual dependency parsing.
    Proceedings of CoNLL-X, pp. 149-164 (the 10-column format).

    Universal Dependencies, the CoNLL-U format (universaldependencies.org/format.html):
    multiword-token ranges and empty nodes.

    Skjaerholt, A. (2014). A chance-corrected measure of inter-annotator agreement for syntax.
    Proceedings of ACL 2014, pp. 934-944. Section 2 and Figure 1: the tree
    of a dependency analysis.

    docs/trees.md, "Trees" and "Errors and repairs".

    Examples
    --------
    Skjaerholt (2014), Figure 1, "I saw the man": "saw" is the root (Pred), "I" its subject,
    "man" its object, "the" the determiner of "man". The tree is the artificial root over
    Pred, over Subj and Obj, with Det under Obj; 4 words and the root make 5 tokens:

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> def conll(name, *sentences):  # sentences of (form, head, relation)
    ...     with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
    ...         for words in sentences:
    ...             for i, (form, head, rel) in enumerate(words, start=1):
    ...                 cols = [str(i), form, "_", "_", "_", "_", str(head), rel, "_", "_"]
    ...                 f.write("\\t".join(cols) + "\\n")
    ...             f.write("\\n")
    ...     return os.path.join(folder, name)
    >>> path = conll("a.conll", [("I", 2, "Subj"), ("saw", 0, "Pred"), ("the", 4, "Det"),
    ...                          ("man", 2, "Obj")])
    >>> tf = read_conll_trees(path)
    >>> s = tf.sentences[0]
    >>> s.tree, s.heads, s.tokens, s.line, tf.kind
    (Tree('(_ (Pred Subj (Obj Det)))'), (2, 0, 4, 2), 5, 1, 'dependency')

    In "go and stop" below, "and" and "stop" are each other's heads, so neither reaches the
    root "go": the file is refused (after every sentence was read, each problem counted and
    reported), or with ``cycles="drop"`` it is a tree of the root and "go" alone (the sentence
    still counts 3 words and the root):

    >>> import warnings
    >>> from clusteragree.errors import InputWarning
    >>> path = conll("b.conll", [("go", 0, "Pred"), ("and", 3, "Co"), ("stop", 2, "Conj")])
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", InputWarning)  # the sentence is reported
    ...     read_conll_trees(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: ...b.conll:1: 1 sentence whose heads form a cycle (the ...
    a tree has no cycle: cycles='drop' leaves the words of a cycle out, ...
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", InputWarning)  # the two words left out are reported
    ...     tf = read_conll_trees(path, cycles="drop")
    >>> tf.sentences[0].tree, tf.sentences[0].tokens, tf.skipped
    (Tree('(_ Pred)'), 4, {'words in cycles left out': 2})
    """
    _check_options(roots, cycles)
    name = _path(path)
    with findings() as found:
        return _read_conll(name, _lines_text(name, encoding, found), roots, cycles, fast, found)


def _lines_text(name: str, encoding: str | None, found: Findings | None) -> str:
    """The decoded file, every CR line end (old Mac files) read as a line end; CRs among LF
    line ends are a ``converted`` notice (in ``found``, or at once)."""
    text, line, count = line_ends(read_text(name, encoding=encoding))
    if count and found is not None:
        found.note("converted", CR_MIXED, name, line, count)
    elif count:
        notify("converted", CR_MIXED, path=name, line=line, count=count, stacklevel=3)
    return text


def _read_conll(name: str, text: str, roots: str, cycles: str, fast: bool,
                found: Findings) -> TreeFile:
    """:func:`read_conll_trees` of a decoded file, its notices and problems in ``found``."""
    done = fast_conll_trees(text, name, roots) if fast else None
    if done is not None:
        _notices(name, done[1], done[2], found)
        return TreeFile(tuple(done[0]), name, "dependency", dict(done[1]))
    skipped: Counter[str] = Counter()
    first_lines: dict[str, int] = {}

    def count(what: str, line: int, n: int = 1) -> None:
        skipped[what] += n
        first_lines.setdefault(what, line)

    sentences: list[Sentence] = []
    rows: list[tuple[int, list[str]]] = []
    sent_id: list[tuple[int, str]] = []  # the pending # sent_id: its line and value

    def flush() -> None:
        if not rows:
            return
        first = rows[0][0]
        words, heads, rels = [], [], []
        for k, (number, cols) in enumerate(rows, start=1):
            word_id = parse_int(cols[0], what="word id", path=name, line=number, lo=1)
            if word_id != k:
                raise InputError(f"word id {cols[0]!r}, expected {k}: ids must count 1, 2, ...",
                                 path=name, line=number)
            heads.append(parse_int(cols[6], what="head", path=name, line=number, lo=0))
            words.append(cols[1])
            rels.append(cols[7])
        tree, dropped = _tree_from_heads(heads, rels, name, first)
        if heads.count(0) > 1:
            if roots == "many":
                count(SEVERAL_ROOTS, first)
            else:
                found.problem("roots", name, first)
        if dropped:
            if cycles == "drop":
                count("words in cycles left out", first, dropped)
            else:
                found.problem("cycles", name, first)
        sentences.append(Sentence(tree, tuple(words), tuple(heads), tuple(rels), first,
                                  path=name, sent_id=sent_id[0][1] if sent_id else None))
        rows.clear()
        sent_id.clear()

    for number, line in iter_lines(text):
        if not line.strip():
            flush()
            continue
        if line.startswith("#"):
            value = sent_id_of(line, name, number)
            if value is not None:
                if sent_id:
                    raise InputError(f"a second # sent_id for one sentence (the first at line "
                                     f"{sent_id[0][0]}); give each sentence one, before its "
                                     "words", path=name, line=number)
                sent_id.append((number, value))
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            raise InputError(f"{len(cols)} columns, expected the 10 TAB-separated columns of "
                             "CoNLL-X / CoNLL-U", path=name, line=number)
        if _RANGE.fullmatch(cols[0]):
            count("multiword-token lines", number)
            continue
        if _EMPTY.fullmatch(cols[0]):
            count("empty nodes", number)
            continue
        rows.append((number, cols))
    flush()
    if sent_id:
        raise InputError("a # sent_id after the last sentence: no sentence follows it",
                         path=name, line=sent_id[0][0])
    _notices(name, skipped, first_lines, found)
    return TreeFile(tuple(sentences), name, "dependency", dict(skipped))


_TOKEN = re.compile(r"\(|\)|[^\s()]+")


def parse_brackets(text: str, path: str = "<trees>", line: int = 1, *,
                   words: bool = False) -> tuple[Tree, frozenset[tuple[str, int, int]]]:
    """One bracketed tree and its brackets ``(label, first leaf, end leaf)``.

    Without words (``words=False``, the delexicalised input of the reference data) every bare
    token is a leaf node. With ``words=True`` bare tokens are words and are dropped: their
    pre-terminal becomes the leaf.

    Parameters
    ----------
    text : str
        One tree: ``(label child ...)``, a child being a bracketed subtree or a bare token.
    path : str, default="<trees>"
        The file named in errors.
    line : int, default=1
        The line named in errors.
    words : bool, default=False
        Bare tokens are words (dropped) rather than leaf nodes.

    Returns
    -------
    tree : Tree
        The tree, without words.
    brackets : frozenset of (str, int, int)
        Every node as ``(label, first leaf, end leaf)``, leaves numbered from 0 and the end
        excluded; leaf-level nodes included (the bracket Jaccard of
        :func:`~clusteragree.trees.accuracies` compares these).

    Raises
    ------
    ParameterTypeError
        ``text`` not a str.
    InputError
        Unbalanced brackets, two trees, text outside the brackets, a node with both words and
        subtrees (``words=True``), naming ``path`` and ``line``.

    References
    ----------
    Skjaerholt, A. (2014). A chance-corrected measure of inter-annotator agreement for syntax.
    Proceedings of ACL 2014, pp. 934-944. Section 2: phrase-structure trees
    compared without their words; SSD's leaves are lexical types.

    The reference code of Skjaerholt (2014), github.com/arnsholt/syn-agreement (``--tree``
    mode: delexicalised bracketed trees).

    docs/trees.md, "Trees".

    Examples
    --------
    Without words, D, N and V are leaves; with words, "the", "cat" and "sat" are dropped
    and their pre-terminals D, N and V become the leaves, the same tree:

    >>> parse_brackets("(S (NP D N) (VP V))")[0]
    Tree('(S (NP D N) (VP V))')
    >>> parse_brackets("(S (NP (D the) (N cat)) (VP (V sat)))", words=True)[0]
    Tree('(S (NP D N) (VP V))')

    The leaves D, N, V are 0-1, 1-2 and 2-3; NP spans D and N (0-2), VP V (2-3), S all
    three (0-3):

    >>> sorted(parse_brackets("(S (NP D N) (VP V))")[1])
    [('D', 0, 1), ('N', 1, 2), ('NP', 0, 2), ('S', 0, 3), ('V', 2, 3), ('VP', 2, 3)]
    >>> parse_brackets("(S (NP D N)")
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: <trees>:1: unbalanced brackets
    """
    if not isinstance(text, str):
        raise ParameterTypeError(f"text must be str (one bracketed tree). Got "
                                 f"{type(text).__name__}.")
    tokens = _TOKEN.findall(text)
    labels: list[str] = []
    children: list[list[int]] = []
    stack: list[list[int]] = []  # node id, first leaf, words
    root: int | None = None
    leaf = 0
    brackets: set[tuple[str, int, int]] = set()
    k = 0

    def new_node(label: str) -> int:
        labels.append(label)
        children.append([])
        if stack:
            children[stack[-1][0]].append(len(labels) - 1)
        return len(labels) - 1

    while k < len(tokens):
        tok = tokens[k]
        if tok == "(":
            if root is not None and not stack:
                raise InputError("a second tree where one was expected", path=path, line=line)
            label = tokens[k + 1] if k + 1 < len(tokens) and tokens[k + 1] not in "()" else ""
            node = new_node(label)
            if root is None:
                root = node
            stack.append([node, leaf, 0])
            k += 2 if label else 1
            continue
        if tok == ")":
            if not stack:
                raise InputError("a closing bracket without an opening one", path=path,
                                 line=line)
            node, start, n_words = stack.pop()
            if n_words and children[node]:
                raise InputError(f"node {labels[node]!r} has both words and subtrees",
                                 path=path, line=line)
            if n_words:
                leaf += 1  # a pre-terminal: its words are dropped, it is a leaf
            brackets.add((labels[node], start, leaf))
            k += 1
            continue
        if not stack:
            raise InputError(f"text {tok[:40]!r} outside the brackets", path=path, line=line)
        if words:
            stack[-1][2] += 1
        else:
            new_node(tok)
            brackets.add((tok, leaf, leaf + 1))
            leaf += 1
        k += 1
    if stack or root is None:
        raise InputError("unbalanced brackets", path=path, line=line)
    return Tree.from_children(labels, children, root), frozenset(brackets)


def read_trees(path: str | os.PathLike[str], *, words: bool = False,
               encoding: str | None = None) -> TreeFile:
    """Bracketed trees, one after another (a tree may span several lines); ``words`` as in
    :func:`parse_brackets`.

    Parameters
    ----------
    path : str or os.PathLike
        The file (by convention ``.tree``; blank lines between trees are ignored).
    words : bool, default=False
        Bare tokens are words and are dropped (see :func:`parse_brackets`).
    encoding : str, optional
        The file's encoding; default UTF-8.

    Returns
    -------
    TreeFile
        The sentences (``kind="phrase"``), each a :class:`~clusteragree.trees.Sentence` with
        its tree, brackets and first line, no words.

    Raises
    ------
    ParameterTypeError
        A path that is not a path.
    InputError
        Unbalanced brackets or text outside them, with the file and line.

    References
    ----------
    Skjaerholt, A. (2014). A chance-corrected measure of inter-annotator agreement for syntax.
    Proceedings of ACL 2014, pp. 934-944. Section 2.

    The reference code of Skjaerholt (2014), github.com/arnsholt/syn-agreement (``--tree``
    mode: delexicalised bracketed trees).

    docs/trees.md, "Trees"; docs/cli.md (``.tree`` files).

    Examples
    --------
    Two trees, the second over three lines (it starts on line 2):

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "a.tree")
    >>> with open(path, "w", encoding="utf-8") as f:
    ...     _ = f.write("(S (NP D N) (VP V))\\n(S\\n  (NP D)\\n  (VP N V))\\n")
    >>> tf = read_trees(path)
    >>> [s.tree for s in tf.sentences], [s.line for s in tf.sentences], tf.kind
    ([Tree('(S (NP D N) (VP V))'), Tree('(S (NP D) (VP N V))')], [1, 2], 'phrase')
    """
    name = _path(path)
    text = _lines_text(name, encoding, None)
    sentences = []
    depth, start = 0, 1
    buf: list[str] = []
    for number, line in iter_lines(text):
        if not buf and not line.strip():
            continue
        if not buf:
            start = number
        buf.append(line)
        depth += line.count("(") - line.count(")")
        if depth == 0 and "".join(buf).strip():
            tree, brackets = parse_brackets("\n".join(buf), name, start, words=words)
            sentences.append(Sentence(tree, line=start, brackets=brackets, path=name))
            buf = []
        elif depth < 0:
            raise InputError("a closing bracket without an opening one", path=name, line=number)
    if buf:
        raise InputError("unbalanced brackets at the end of the file", path=name, line=start)
    return TreeFile(tuple(sentences), name, "phrase", {})


#: Input formats of tree files: ``auto`` reads ``.tree`` files as bracketed trees and any other
#: file as CoNLL-X/CoNLL-U dependencies.
TREE_FORMATS = ("auto", "conll", "brackets")


def _read_tree_file(path: str | os.PathLike[str], input_format: str, *, roots: str,
                    cycles: str, words: bool, encoding: str | None, found: Findings
                    ) -> TreeFile:
    """One file read by the reader its format names (``auto``: by its extension)."""
    kind = input_format
    if kind == "auto":
        kind = "brackets" if Path(path).suffix == ".tree" else "conll"
    if kind == "brackets":
        return read_trees(path, words=words, encoding=encoding)
    name = _path(path)
    return _read_conll(name, _lines_text(name, encoding, found), roots, cycles, True, found)


def _check_format(input_format: object) -> str:
    if input_format not in TREE_FORMATS:
        raise ParameterError(f"input_format must be one of {', '.join(TREE_FORMATS)}. Got "
                             f"{input_format!r}.")
    return str(input_format)


def read_tree_dirs(directories: Sequence[str | os.PathLike[str]], *, roots: str = "one",
                   cycles: str = "error", words: bool = False, encoding: str | None = None,
                   names: Sequence[str] | None = None, input_format: str = "auto"
                   ) -> dict[str, dict[str, TreeFile]]:
    """``prefix -> annotator -> file`` for several annotators' directories.

    Files are matched across directories by the prefix of their name before the first ``-``.
    Annotators are named by ``names`` or the directories' names (made unique as files are by
    :func:`~clusteragree.core.model.unique_labels`). Two files of one prefix in one directory, a
    path that is not a readable directory, or one directory alone are refused; entries that are
    not files (subdirectories) are reported ignored.

    Parameters
    ----------
    directories : sequence of str or os.PathLike
        Two or more directories, one per annotator. Files ending in ``.tree`` are read as
        bracketed trees (:func:`read_trees`), the others as CoNLL (:func:`read_conll_trees`),
        unless ``input_format`` says otherwise.
    roots, cycles : str
        As for :func:`read_conll_trees` (defaults ``"one"`` and ``"error"``).
    words : bool, default=False
        As for :func:`read_trees`.
    encoding : str, optional
        The files' encoding; default UTF-8.
    names : sequence of str, optional
        One distinct annotator name per directory; default the directories' names.
    input_format : {"auto", "conll", "brackets"}, default="auto"
        As for :func:`read_tree_annotations`.

    Returns
    -------
    dict
        ``prefix -> {annotator: TreeFile}``; an annotator without a file of that prefix is
        absent (a missing annotation).

    Raises
    ------
    ParameterTypeError, ParameterError
        Directories or names that are not lists, fewer than two directories, names not one
        distinct name per directory.
    InputError
        A path that is not a directory or cannot be listed, two files of one prefix in one
        directory, and whatever the readers refuse.

    References
    ----------
    The reference code of Skjaerholt (2014), github.com/arnsholt/syn-agreement (``--dirs``:
    one directory per annotator, files matched by prefix).

    docs/trees.md, "Deep trees, limits and input checks" (``--dirs``).

    Examples
    --------
    Annotator ``ann1`` has files for texts ``t1`` and ``t2``, ``ann2`` for ``t1`` only; the
    files of ``t1`` are matched by the part of their names before the first ``-``:

    >>> import os, tempfile
    >>> root = tempfile.mkdtemp()
    >>> line = "\\t".join(["1", "Go", "_", "_", "_", "_", "0", "Pred", "_", "_"]) + "\\n"
    >>> for name in ["ann1/t1-x.conll", "ann1/t2-x.conll", "ann2/t1-y.conll"]:
    ...     os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
    ...     with open(os.path.join(root, name), "w", encoding="utf-8") as f:
    ...         _ = f.write(line)
    >>> read = read_tree_dirs([os.path.join(root, "ann1"), os.path.join(root, "ann2")])
    >>> {prefix: sorted(files) for prefix, files in sorted(read.items())}
    {'t1': ['ann1', 'ann2'], 't2': ['ann1']}
    >>> read["t1"]["ann2"].sentences[0].tree
    Tree('(_ Pred)')
    """
    with findings() as found:
        return _read_dirs(directories, roots=roots, cycles=cycles, words=words,
                          encoding=encoding, names=names, input_format=input_format,
                          found=found)


def _check_options(roots: object, cycles: object) -> None:
    if roots not in ("one", "many"):
        raise ParameterError(f"roots must be 'one' or 'many'. Got {roots!r}.", params=("roots",))
    if cycles not in ("error", "drop"):
        raise ParameterError(f"cycles must be 'error' or 'drop'. Got {cycles!r}.",
                             params=("cycles",))


def _read_dirs(directories: Sequence[str | os.PathLike[str]], *, roots: str, cycles: str,
               words: bool, encoding: str | None, names: Sequence[str] | None,
               input_format: str, found: Findings) -> dict[str, dict[str, TreeFile]]:
    """:func:`read_tree_dirs`, its notices and problems in ``found``."""
    dirs = _paths(directories, "directories")
    _check_format(input_format)
    _check_options(roots, cycles)
    if len(dirs) < 2:
        raise ParameterError(f"give two or more directories, one per annotator; got {len(dirs)}")
    labels = _names(names) if names is not None else unique_labels(dirs)
    if len(labels) != len(dirs) or len(set(labels)) != len(labels):
        raise ParameterError("give one distinct name per directory")
    out: dict[str, dict[str, TreeFile]] = {}
    for directory, label in zip(dirs, labels, strict=True):
        folder = Path(directory)
        if not folder.is_dir():
            raise InputError("not a directory (give one directory per annotator)",
                             path=str(folder))
        try:
            entries = sorted(folder.iterdir())
        except OSError as err:
            raise InputError(f"cannot list the directory: {err.strerror}",
                             path=str(folder)) from None
        first: dict[str, Path] = {}
        others = [f for f in entries if not f.is_file()]
        if others:
            found.note("ignored", f"entries that are not files ignored (the first: "
                       f"{others[0].name})", str(folder), None, len(others))
        for f in entries:
            if not f.is_file():
                continue
            prefix = f.name.split("-")[0]
            if prefix in first:
                raise InputError(f"two files of prefix {prefix!r} in one directory (also "
                                 f"{first[prefix].name}); files are matched across directories "
                                 "by the part of their name before the first '-'", path=str(f))
            first[prefix] = f
            out.setdefault(prefix, {})[label] = _read_tree_file(
                f, input_format, roots=roots, cycles=cycles, words=words, encoding=encoding,
                found=found)
    return out


def read_tree_annotations(files: Sequence[str | os.PathLike[str]] = (), *,
                          dirs: Sequence[str | os.PathLike[str]] = (),
                          names: Sequence[str] | None = None, roots: str = "one",
                          cycles: str = "error", words: bool = False,
                          encoding: str | None = None, input_format: str = "auto"
                          ) -> TreeAnnotations:
    """Paired files of the same sentences (``.tree`` files are bracketed trees, anything else
    CoNLL, unless ``input_format`` says) or one directory per annotator (``dirs``), as
    annotator -> {unit: Sentence}.

    Paired files must hold the same number of sentences; in the directory layout the files of
    one prefix must too (else :class:`InputError` naming the file). Annotators are named by
    ``names``, or the file names (directory names). Sentences whose words differ from those
    of the first annotator's file (tokenised differently: tree alpha compares their trees as
    annotated, the accuracies leave them out) and sentences whose sent_ids differ are reported
    as ``mismatch`` notices, once per file with the first line and the number of sentences
    (:mod:`clusteragree.trees.pairing`); strict reading refuses them. Everything the readers
    report is reported once the whole run is read, and a run with sentences that ``roots``
    or ``cycles`` refuse is refused once, naming both options where both are needed.

    Parameters
    ----------
    files : sequence of str or os.PathLike, default=()
        Two or more files of the same sentences, one per annotator, paired by position; a
        sentence is the unit named by its ``# sent_id`` (the first annotator's that gives
        one) or its number counted from 1 (``"1"``, ``"2"``, ...).
    dirs : sequence of str or os.PathLike, default=()
        Or two or more directories, one per annotator (:func:`read_tree_dirs`); a sentence of
        the files of prefix ``p`` is the unit ``"p/NAME"``, NAME as for ``files``.
    names : sequence of str, optional
        One annotator name per file (directory); default their base names.
    roots, cycles : str
        As for :func:`read_conll_trees` (defaults ``"one"`` and ``"error"``).
    words : bool, default=False
        As for :func:`read_trees`.
    encoding : str, optional
        The files' encoding; default UTF-8.
    input_format : {"auto", "conll", "brackets"}, default="auto"
        The reader of every file: CoNLL-X/CoNLL-U dependencies, bracketed trees, or (auto)
        bracketed trees for names ending in ``.tree`` and CoNLL for any other.

    Returns
    -------
    TreeAnnotations
        ``sentences`` (annotator -> {unit: Sentence}), ``kind`` (``"dependency"`` or
        ``"phrase"``) and ``skipped`` (file -> {what: count}); the input of
        :func:`~clusteragree.trees.tree_table` and the accuracies.

    Raises
    ------
    ParameterTypeError, ParameterError
        Both or neither of ``files`` and ``dirs``, fewer than two files, names not one per
        file, arguments that are not lists.
    InputError
        Files of one text with different numbers of sentences, two sentences of one text with
        the same name, no sentence annotated twice, dependencies and bracketed trees mixed,
        and whatever the readers refuse.

    References
    ----------
    Skjaerholt, A. (2014). A chance-corrected measure of inter-annotator agreement for syntax.
    Proceedings of ACL 2014, pp. 934-944.

    The reference code of Skjaerholt (2014), github.com/arnsholt/syn-agreement (``--dirs``:
    one directory per annotator, files matched by prefix).

    docs/trees.md, "Accuracies"; docs/cli.md (``trees``).

    Examples
    --------
    Two annotators of two sentences: they agree on "I saw the man" (Figure 1 of Skjaerholt
    2014, tree t1) and differ on the relation of "I" in "I saw" (trees y = root(Pred(Subj))
    and y' = root(Pred(Obj))):

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> def conll(name, *sentences):  # sentences of (form, head, relation)
    ...     with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
    ...         for words in sentences:
    ...             for i, (form, head, rel) in enumerate(words, start=1):
    ...                 cols = [str(i), form, "_", "_", "_", "_", str(head), rel, "_", "_"]
    ...                 f.write("\\t".join(cols) + "\\n")
    ...             f.write("\\n")
    ...     return os.path.join(folder, name)
    >>> man = [("I", 2, "Subj"), ("saw", 0, "Pred"), ("the", 4, "Det"), ("man", 2, "Obj")]
    >>> a = conll("a.conll", man, [("I", 2, "Subj"), ("saw", 0, "Pred")])
    >>> b = conll("b.conll", man, [("I", 2, "Obj"), ("saw", 0, "Pred")])
    >>> ann = read_tree_annotations([a, b])
    >>> sorted(ann.sentences), sorted(ann.sentences["a.conll"]), ann.kind, ann.n_annotations
    (['a.conll', 'b.conll'], ['1', '2'], 'dependency', 4)

    Tree alpha of these: TED(y, y') = 1 (one relabelling), TED(t1, y) = TED(t1, y') = 2
    (5 against 3 nodes; delete Obj and Det, or Subj and Det). Squared, the two ordered pairs
    within sentence 1 give 2; all pairs of the four trees give 2 * (0 + 4 * 4 + 1) = 34; so
    alpha = 1 - (4 - 1) * 2 / 34 = 14 / 17:

    >>> from clusteragree.trees import tree_alpha, tree_table
    >>> round(tree_alpha(tree_table(ann)).alpha, 4), round(14 / 17, 4)
    (0.8235, 0.8235)
    """
    files, dirs = _paths(files, "files"), _paths(dirs, "dirs")
    _check_format(input_format)
    if bool(files) == bool(dirs):
        raise ParameterError("give two or more paired files, or directories (dirs), not both")
    _check_options(roots, cycles)
    with findings() as found:
        read: dict[str, dict[str, TreeFile]] = {}
        if dirs:
            read = _read_dirs(list(dirs), roots=roots, cycles=cycles, words=words,
                              encoding=encoding, names=names, input_format=input_format,
                              found=found)
        else:
            if len(files) < 2:
                raise ParameterError("give two or more paired files of the same sentences")
            labels = _names(names) if names is not None else unique_labels(files)
            if len(labels) != len(files):
                raise ParameterError("give one name per file")
            read = {"": {label: _read_tree_file(f, input_format, roots=roots, cycles=cycles,
                                                words=words, encoding=encoding, found=found)
                         for label, f in zip(labels, files, strict=True)}}
        kinds = {tf.kind for by_annotator in read.values() for tf in by_annotator.values()}
        if len(kinds) > 1:
            raise InputError("dependency and bracketed files mixed: compare one kind at a "
                             "time")
        sentences: dict[str, dict[Any, Sentence]] = {}
        skipped: dict[str, dict[str, int]] = {}
        for prefix, by_annotator in read.items():
            paired = list(by_annotator.values())
            check_paired(paired)
            names_of = name_sentences(paired, found)
            compare_words(paired, found)
            for annotator, tf in by_annotator.items():
                if tf.skipped:
                    skipped[tf.path] = dict(tf.skipped)
                target = sentences.setdefault(annotator, {})
                for name, sentence in zip(names_of, tf.sentences, strict=True):
                    target[f"{prefix}/{name}" if dirs else name] = sentence
        per_unit: Counter[Any] = Counter(u for by_unit in sentences.values() for u in by_unit)
        if not any(n >= 2 for n in per_unit.values()):
            raise InputError(
                "nothing to compare: no sentence was annotated by two annotators (with --dirs, "
                "files are matched across directories by the part of their name before the "
                "first '-'); give the annotations of the same sentences")
    return TreeAnnotations(sentences, kinds.pop() if kinds else "dependency", skipped)
