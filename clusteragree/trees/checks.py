"""``validate`` for syntax trees: CoNLL-X / CoNLL-U dependencies (``conllu``) and bracketed
trees (``brackets``), one input per annotator, a file or a directory of that annotator's files.

Level 1, the file: every line is scanned (:mod:`clusteragree.trees.scan`: encoding, columns,
IDs, HEAD, ``# sent_id``, blank lines and comments, multiword-token ranges and empty nodes;
bracket balance), then the file is read by the tree reader through
:func:`~clusteragree.incidents.read_checked` (its notices become ``read-*`` incidents). Level 2,
each sentence (:mod:`clusteragree.trees.structure`): no root, several roots, heads outside the
sentence, cycles, non-projective arcs, two sentences of a file with one name. Level 3, across
the annotators: the same texts, the same number of sentences, the same sent_ids, the same
words, and the relation labels each uses.

The tests are registered here (:data:`TREE_TESTS`). Their classes follow what the ``trees``
command does with the same input: an *error* is what it refuses, by default or under
``--strict`` (:func:`annotation_incidents` gives it the level-2 and level-3 incidents of what
it read). Several roots are a warning: some treebanks have them (the Copenhagen Dependency
Treebanks) and ``--roots many`` reads them. Words whose heads form a cycle are an error:
``--cycles drop`` leaves them out, a repair that ``--strict`` refuses.

References
----------
Universal Dependencies, the CoNLL-U format (universaldependencies.org/format.html), and its
validator (``validate.py`` of UD tools; the test ids it shares with these are listed in
docs/validate.md).

Skjaerholt, A. (2014). A chance-corrected measure of inter-annotator agreement for syntax.
Proceedings of ACL 2014, pp. 934-944 (paired files, and one directory per annotator).

Examples
--------
Two annotators of "I saw the man" (Skjaerholt 2014, Figure 1); the second gives "the" the
head 5, outside the sentence of 4 words:

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> def conll(name, heads):
...     words = ["I", "saw", "the", "man"]
...     rels = ["Subj", "Pred", "Det", "Obj"]
...     with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
...         for i, (w, h, r) in enumerate(zip(words, heads, rels), start=1):
...             _ = f.write("\\t".join([str(i), w, "_", "_", "_", "_", str(h), r, "_", "_"])
...                         + "\\n")
...         _ = f.write("\\n")
...     return os.path.join(folder, name)
>>> a, b = conll("a.conll", [2, 0, 4, 2]), conll("b.conll", [2, 0, 5, 2])
>>> for i in validate_inputs([a, b], "conllu", level=3, encoding=None, names=None,
...                          options={}):
...     print(i.test_id, i.line, i.node)
trees-head-range 3 3
"""

from __future__ import annotations

import os
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..errors import InputError
from ..incidents import Incident, Test, read_checked, register
from ..inputs import check_encoding, line_ends, read_bytes
from .conllu_fast import SEVERAL_ROOTS
from .model import TreeAnnotations
from .readers import read_conll_trees, read_trees
from .scan import Scan, clean_conll, scan_brackets, scan_conll
from .structure import flag_sentences, non_projective_arcs, unreachable

__all__ = ["TREE_TESTS", "annotation_incidents", "sentence_incidents", "validate_inputs"]

_C, _B = ("conllu",), ("brackets",)
#: The tests of syntax trees.
TREE_TESTS = (
    # level 1: the file
    Test("trees-encoding", 1, "error", "trees", "a byte that does not decode in the file's "
         "encoding (UTF-8 unless --encoding names another)"),
    Test("trees-columns", 1, "error", "trees", "a word line without the 10 TAB-separated "
         "columns of CoNLL-X / CoNLL-U", _C),
    Test("trees-id", 1, "error", "trees", "an ID that is neither a word's number, a "
         "multiword-token range N-M nor an empty node N.M", _C),
    Test("trees-id-sequence", 1, "error", "trees", "the words of a sentence not numbered 1, "
         "2, ... in order", _C),
    Test("trees-head", 1, "error", "trees", "a HEAD that is not a whole number", _C),
    Test("trees-sent-id", 1, "error", "trees", "a # sent_id without a value, two for one "
         "sentence, or one after the last sentence", _C),
    Test("trees-number-form", 1, "warning", "trees", "an ID or HEAD written with a sign, a "
         "leading zero or spaces (read as the number)", _C),
    Test("trees-blank-line", 1, "warning", "trees", "the blank-line structure: a line of "
         "spaces, several blank lines, a blank line before a sentence's words or none at the "
         "end", _C),
    Test("trees-comment", 1, "warning", "trees", "a comment line after the words of a "
         "sentence, or after the last sentence", _C),
    Test("trees-multiword", 1, "warning", "trees", "a multiword-token range out of place, "
         "reversed, overlapping another or past the last word", _C),
    Test("trees-empty-node", 1, "warning", "trees", "an empty node not numbered after the "
         "word it follows (N.1, N.2, ...)", _C),
    Test("trees-no-words", 1, "warning", "trees", "a sentence of multiword-token lines or "
         "empty nodes only (the reader leaves it out)", _C),
    Test("trees-brackets-unbalanced", 1, "error", "trees", "a closing bracket without an "
         "opening one, or a tree not closed at the end of the file", _B),
    Test("trees-brackets-outside", 1, "error", "trees", "text outside the brackets, or a "
         "second tree beginning on the line where one ends", _B),
    Test("trees-prefix", 1, "error", "trees", "two files of one annotator's directory with "
         "the same prefix (files are matched by the part of their name before '-')"),
    Test("trees-no-sentence", 1, "warning", "trees", "a file without any sentence"),
    # level 2: one annotation
    Test("trees-head-range", 2, "error", "trees", "a head outside the sentence (larger than "
         "its number of words)", _C),
    Test("trees-no-root", 2, "error", "trees", "a sentence where no word is headed by 0", _C),
    Test("trees-several-roots", 2, "warning", "trees", "a sentence with several words "
         "headed by 0 (trees --roots many reads them)", _C),
    Test("trees-cycle", 2, "error", "trees", "words whose heads form a cycle, never reaching "
         "the root (trees --cycles drop leaves them out)", _C),
    Test("trees-non-projective", 2, "information", "trees", "non-projective arcs (a word "
         "between head and dependent is not under the head): count of arcs", _C),
    Test("trees-sent-id-duplicate", 2, "error", "trees", "two sentences of a file with one "
         "name (a sent_id given twice, or equal to another sentence's number)", _C),
    # level 3: across annotators
    Test("trees-document-missing", 3, "information", "trees", "a text (file prefix) that some "
         "annotators' directories have and this one has not"),
    Test("trees-not-compared", 3, "information", "trees", "a file left out of the "
         "comparison across annotators because some of its sentences cannot be read"),
    Test("trees-sentence-count", 3, "error", "trees", "files of one text holding different "
         "numbers of sentences (the missing sent_ids named where every sentence has one)"),
    Test("trees-sent-id-mismatch", 3, "error", "trees", "a sentence whose # sent_id differs "
         "from the one paired with it by position", _C),
    Test("trees-token-count", 3, "error", "trees", "a sentence tokenised differently: another "
         "number of words than the first annotator's", _C),
    Test("trees-word-form", 3, "error", "trees", "a sentence with other word forms than the "
         "first annotator's, at the same positions", _C),
    Test("trees-leaf-count", 3, "warning", "trees", "a bracketed tree with another number of "
         "leaves than the first annotator's", _B),
    Test("trees-labels-differ", 3, "information", "trees", "relation (node) labels some "
         "annotators use and this one never does, or only this one uses"),
    Test("trees-label-case", 3, "warning", "trees", "labels that differ only in letter case "
         "between annotators (one label spelt two ways?)"),
)
register(*TREE_TESTS)


class _Sent(Protocol):
    """What the checks read of a sentence (a :class:`~clusteragree.trees.Sentence` or a
    :class:`~clusteragree.trees.scan.Record`)."""

    @property
    def line(self) -> int | None: ...
    @property
    def sent_id(self) -> str | None: ...
    @property
    def words(self) -> tuple[str, ...]: ...
    @property
    def heads(self) -> tuple[int, ...]: ...
    @property
    def deprels(self) -> tuple[str, ...]: ...


@dataclass
class _File:
    """One annotator's file of one text, as read."""

    path: str
    annotator: str
    sentences: Sequence[Any] | None  # None: left out of level 3
    kind: str  # "dependency" or "phrase"


def _word_line(s: Any, k: int) -> int | None:
    lines = getattr(s, "lines", ())
    return lines[k - 1] if lines else s.line


def sentence_incidents(sentences: Sequence[Any], path: str | None, *,
                       numbered: bool = True) -> list[Incident]:
    """The level-2 incidents of one file's dependency sentences: heads out of range, no root,
    several roots, cycles, non-projective arcs, two sentences of one name (by ``# sent_id``,
    or by number counted from 1 where ``numbered``).

    Examples
    --------
    >>> from clusteragree.trees.scan import Record
    >>> def rec(line, *heads):
    ...     n = len(heads)
    ...     return Record(line, None, ("w",) * n, heads, ("r",) * n, "a.conll")
    >>> [(i.test_id, i.line, i.node, i.count) for i in sentence_incidents(
    ...     [rec(1, 2, 0), rec(4, 0, 0), rec(7, 0, 3, 2), rec(11, 0, 4, 1, 1)], "a.conll")]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('trees-several-roots', 4, '1,2', 1), ('trees-cycle', 7, '2,3', 1),
     ('trees-non-projective', 11, '2', 1)]
    """
    found: list[Incident] = []
    if not sentences:
        return found
    flags = flag_sentences([s.heads for s in sentences])
    odd = flags.out_of_range | (flags.roots != 1) | flags.cyclic | flags.gapped
    for j in np.flatnonzero(odd).tolist():
        s = sentences[j]
        heads, sid = s.heads, s.sent_id
        n = len(heads)
        if flags.out_of_range[j]:
            found.extend(Incident(
                "trees-head-range", f"word {k} has head {h}, outside the sentence of {n} words",
                path, _word_line(s, k), sid, str(k)) for k, h in enumerate(heads, 1) if h > n)
            continue
        if flags.roots[j] == 0:
            found.append(Incident("trees-no-root", "no word has head 0 (a tree has one "
                                  "root)", path, s.line, sid))
            continue
        if flags.roots[j] > 1:
            roots = [k for k, h in enumerate(heads, 1) if h == 0]
            found.append(Incident(
                "trees-several-roots", f"{len(roots)} words headed by 0: "
                f"{', '.join(map(str, roots))} (a tree has one root; trees --roots many "
                "keeps them under the artificial root)", path, s.line, sid,
                ",".join(map(str, roots))))
        if flags.cyclic[j]:
            cycle, hanging = unreachable(heads)
            also = (f"; words {', '.join(map(str, hanging))} hang from it" if hanging
                    else "")
            found.append(Incident(
                "trees-cycle", f"the heads of words {', '.join(map(str, cycle))} form a "
                f"cycle{also}: none reaches the root (trees --cycles drop leaves them out)",
                path, s.line, sid, ",".join(map(str, cycle))))
        elif flags.gapped[j]:
            arcs = non_projective_arcs(heads)
            shown = ", ".join(f"{h}->{d}" for h, d in arcs[:10])
            more = f" and {len(arcs) - 10} more" if len(arcs) > 10 else ""
            found.append(Incident(
                "trees-non-projective", f"non-projective arcs (head->dependent): "
                f"{shown}{more}", path, s.line, sid, ",".join(str(d) for _, d in arcs),
                count=len(arcs)))
    seen: dict[str, int | None] = {}
    for k, s in enumerate(sentences, start=1):
        name = s.sent_id if s.sent_id is not None else (str(k) if numbered else None)
        if name is None:
            continue
        if name in seen:
            found.append(Incident(
                "trees-sent-id-duplicate", f"a second sentence named {name!r} (the first at "
                f"line {seen[name]}): sentences are named by their # sent_id, or their number "
                "where they have none; give each a distinct sent_id", path, s.line, name))
        else:
            seen[name] = s.line
    found.sort(key=lambda i: (i.line or 0))
    return found


def _level1_read(path: str, fmt: str, encoding: str | None
                 ) -> tuple[Any, list[Incident], Scan | None]:
    """The model (None when the reader refuses), the level-1 incidents and the scan (None
    when the file needed none)."""
    if fmt == "brackets":
        model, notices = read_checked(path, lambda: read_trees(path, encoding=encoding))
    else:
        model, notices = read_checked(path, lambda: read_conll_trees(
            path, roots="many", cycles="drop", encoding=encoding))
    # Several roots and cycles are level-2 tests of their own, with every sentence.
    notices = [i for i in notices if not i.message.startswith(
        (SEVERAL_ROOTS, "words in cycles left out"))]
    try:
        raw = read_bytes(path)
    except InputError:
        return model, notices, None
    codec = check_encoding(encoding) or "utf-8-sig"
    skipped = getattr(model, "skipped", {}) or {}
    if (fmt == "conllu" and model is not None and codec == "utf-8-sig" and not skipped
            and clean_conll(raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw)):
        return model, notices, None
    text = raw.decode(codec, errors="surrogateescape")
    text = line_ends(text)[0]
    scan = scan_brackets(text, path) if fmt == "brackets" else scan_conll(text, path)
    return model, notices, scan


def _inputs(paths: Sequence[str], names: Sequence[str] | None
            ) -> tuple[list[str], dict[str, list[tuple[str, str]]], list[Incident]]:
    """Annotator names, ``prefix -> [(annotator, file)]`` and the layout's incidents."""
    dirs = [os.path.isdir(p) for p in paths]
    if any(dirs) and not all(dirs):
        mixed = next(p for p, d in zip(paths, dirs, strict=True) if d != dirs[0])
        raise InputError("give one file per annotator, or one directory per annotator, not "
                         "both", mixed)
    labels = list(names) if names else [Path(p).name if d else Path(p).stem
                                        for p, d in zip(paths, dirs, strict=True)]
    texts: dict[str, list[tuple[str, str]]] = defaultdict(list)
    found: list[Incident] = []
    for path, label, is_dir in zip(paths, labels, dirs, strict=True):
        if not is_dir:
            texts[""].append((label, path))
            continue
        first: dict[str, str] = {}
        for entry in sorted(Path(path).iterdir()):
            if not entry.is_file():
                continue
            prefix = entry.name.split("-")[0]
            if prefix in first:
                found.append(Incident(
                    "trees-prefix", f"two files of prefix {prefix!r} in one directory (also "
                    f"{first[prefix]}); files are matched across directories by the part of "
                    "their name before the first '-'", str(entry), annotator=label))
                continue
            first[prefix] = entry.name
            texts[prefix].append((label, str(entry)))
    return labels, texts, found


def validate_inputs(paths: list[str], input_format: str, *, level: int,
                    encoding: str | None, names: Sequence[str] | None,
                    options: dict[str, Any]) -> Iterator[Incident]:
    """Every incident of the inputs (one annotator each: a file, or a directory of the
    annotator's files matched by prefix) up to ``level``: see the module's description.

    Parameters
    ----------
    paths : list of str
        One file or directory per annotator (all files or all directories).
    input_format : {"conllu", "brackets"}
        The format of every file.
    level : {1, 2, 3}
        The highest level checked.
    encoding : str, optional
        The files' encoding; default UTF-8.
    names : sequence of str, optional
        The annotators' names; default the files' stems (the directories' names).
    options : dict
        Not used by trees (``vocabulary``, ``text_dir`` and ``sep`` concern other formats).

    Yields
    ------
    Incident
        File by file (levels 1 and 2), then across the annotators (level 3).

    Raises
    ------
    InputError
        Files and directories mixed.
    """
    labels, texts, layout = _inputs(paths, names)
    yield from layout
    kind = "phrase" if input_format == "brackets" else "dependency"
    read: dict[str, list[_File]] = {}
    for prefix, members in texts.items():
        for label, path in members:
            model, notices, scan = _level1_read(path, input_format, encoding)
            found = list(notices)
            if scan is not None:
                found += scan.incidents
            sentences: Sequence[Any] | None = model.sentences if model is not None else (
                scan.records if scan is not None and kind == "dependency" else None)
            if kind == "dependency" and sentences is not None:
                found += sentence_incidents(sentences, path, numbered=model is not None)
            errors = any(i.severity == "error" and i.test_id != "read-refused"
                         for i in found)
            if errors:  # the reader's refusal is one of these, reported with its own test
                found = [i for i in found if i.test_id != "read-refused"]
            empty = (scan.sentences == 0 and not errors if scan is not None
                     else model is not None and not model.sentences)
            if empty:
                found.append(Incident("trees-no-sentence", "the file holds no sentence", path))
            level1_error = any(i.severity == "error" and i.level == 1 for i in found)
            yield from (i for i in found if i.level <= level)
            whole = model.sentences if model is not None else (
                scan.records if scan is not None and kind == "dependency"
                and len(scan.records) == scan.sentences else None)
            read.setdefault(prefix, []).append(_File(
                path, label, None if level1_error else whole, kind))
    if level >= 3 and len(paths) > 1:
        yield from across(read, labels, dirs=os.path.isdir(paths[0]))


def annotation_incidents(annotations: TreeAnnotations, *, dirs: bool) -> list[Incident]:
    """The level-2 and level-3 incidents of what the ``trees`` command read (for
    ``--strict``, which refuses their errors): each file's sentences, then, with several
    annotators, across them.

    Parameters
    ----------
    annotations : TreeAnnotations
        As :func:`~clusteragree.trees.read_tree_annotations` returns them.
    dirs : bool
        Whether they were read from one directory per annotator (texts matched by prefix).
    """
    by_file: dict[str, list[tuple[str, Any]]] = defaultdict(list)  # path -> [(annotator, s)]
    for annotator, units in annotations.sentences.items():
        for sentence in units.values():
            by_file[sentence.path or annotator].append((annotator, sentence))
    found: list[Incident] = []
    read: dict[str, list[_File]] = defaultdict(list)
    for path, items in by_file.items():
        sentences = [s for _, s in items]
        if annotations.kind == "dependency":
            found += sentence_incidents(sentences, path)
        prefix = Path(path).name.split("-")[0] if dirs else ""
        read[prefix].append(_File(path, items[0][0], sentences, annotations.kind))
    if len(annotations.sentences) > 1:
        found += across(read, list(annotations.sentences), dirs=dirs)
    return found


def across(read: dict[str, list[_File]], labels: Sequence[str], *, dirs: bool
           ) -> Iterator[Incident]:
    """Level 3: the annotators' files of each text compared with the first annotator's, then
    the labels each annotator uses."""
    for prefix, files in read.items():
        if dirs:
            present = {f.annotator for f in files}
            for label in labels:
                if label not in present:
                    yield Incident(
                        "trees-document-missing", f"the text of prefix {prefix!r} (annotated "
                        f"by {', '.join(sorted(present))}) has no file here: a missing "
                        "annotation", None, sentence=prefix, annotator=label)
        compared = []
        for f in files:
            if f.sentences is None:
                yield Incident("trees-not-compared", "left out of the comparison across "
                               "annotators: some of its sentences cannot be read (the "
                               "errors above)", f.path,
                               annotator=f.annotator)
            else:
                compared.append(f)
        if len(compared) > 1:
            yield from _compare(compared)
    yield from _labels(read, labels)


def _compare(files: list[_File]) -> Iterator[Incident]:
    reference = files[0]
    paired = [reference]
    for f in files[1:]:
        a, b = len(reference.sentences or ()), len(f.sentences or ())
        if a == b:
            paired.append(f)
            continue
        message = f"{b} sentences, {a} in {reference.path}"
        ids_a = [s.sent_id for s in reference.sentences or ()]
        ids_b = [s.sent_id for s in f.sentences or ()]
        if None not in ids_a and None not in ids_b:
            missing = [x for x in ids_a if x not in set(ids_b)]
            extra = [x for x in ids_b if x not in set(ids_a)]
            for what, ids in (("missing", missing), ("not in the other", extra)):
                if ids:
                    message += (f"; {what}: {', '.join(ids[:5])}"
                                + (f" and {len(ids) - 5} more" if len(ids) > 5 else ""))
        yield Incident("trees-sentence-count", message + " (files of one text hold the "
                       "same sentences, paired by position)", f.path, annotator=f.annotator)
    if len(paired) < 2:
        return
    columns = list(zip(*(f.sentences or () for f in paired), strict=True))
    for k, sentences in enumerate(columns, start=1):
        given = [s.sent_id for s in sentences if s.sent_id is not None]
        name = given[0] if given else str(k)
        for f, s in zip(paired, sentences, strict=True):
            if s.sent_id is not None and s.sent_id != name:
                yield Incident("trees-sent-id-mismatch", f"# sent_id {s.sent_id!r}, but the "
                               f"sentence paired with it by position is {name!r}", f.path,
                               s.line, name, annotator=f.annotator)
        first = sentences[0]
        for f, s in zip(paired[1:], sentences[1:], strict=True):
            yield from _same_words(first, s, f, paired[0].path, name)


def _same_words(first: Any, s: Any, f: _File, reference: str, name: str
                ) -> Iterator[Incident]:
    if f.kind == "phrase":
        a, b = first.tree.leaves, s.tree.leaves
        if a != b:
            yield Incident("trees-leaf-count", f"{b} leaves, {a} in the tree of {reference}",
                           f.path, s.line, name, annotator=f.annotator)
        return
    if first.words == s.words:
        return
    if len(first.words) != len(s.words):
        yield Incident("trees-token-count", f"{len(s.words)} words, {len(first.words)} in "
                       f"{reference} (tokenised differently: tree alpha compares the trees as "
                       "annotated, the accuracies leave the sentence out)", f.path, s.line,
                       name, annotator=f.annotator)
        return
    pairs = zip(first.words, s.words, strict=True)
    differ = [(k, x, y) for k, (x, y) in enumerate(pairs, start=1) if x != y]
    shown = ", ".join(f"word {k} {y!r} ({x!r})" for k, x, y in differ[:3])
    more = f" and {len(differ) - 3} more" if len(differ) > 3 else ""
    yield Incident("trees-word-form", f"{len(differ)} word(s) differ from {reference}'s "
                   f"(here, there): {shown}{more}", f.path, _word_line(s, differ[0][0]),
                   name, str(differ[0][0]), annotator=f.annotator)


def _labels(read: dict[str, list[_File]], labels: Sequence[str]) -> Iterator[Incident]:
    used: dict[str, Counter[str]] = {label: Counter() for label in labels}
    for files in read.values():
        for f in files:
            if f.sentences is None:
                continue
            counter = used.setdefault(f.annotator, Counter())
            for s in f.sentences:
                if f.kind == "dependency":
                    counter.update(s.deprels)
                else:
                    tree = s.tree
                    counter.update(lab for lab, n in zip(tree.labels, tree.sizes, strict=True)
                                   if n > 1)
    active = {a: c for a, c in used.items() if c}
    if len(active) < 2:
        return
    every = Counter[str]()
    for c in active.values():
        every.update(c)
    for a, c in active.items():
        others = Counter[str]()
        for b, d in active.items():
            if b != a:
                others.update(d)
        lacking = sorted(set(every) - set(c))
        only = sorted(set(c) - set(others))
        if not lacking and not only:
            continue
        parts = []
        if lacking:
            parts.append("never uses " + _listed([(x, every[x]) for x in lacking]) +
                         " (used by others)")
        if only:
            parts.append("alone uses " + _listed([(x, c[x]) for x in only]))
        yield Incident("trees-labels-differ", "; ".join(parts), None, annotator=a)
    spellings: dict[str, set[str]] = defaultdict(set)
    for x in every:
        spellings[x.lower()].add(x)
    for group in sorted(spellings.values(), key=sorted):
        if len(group) < 2:
            continue
        who = "; ".join(f"{x!r} by {', '.join(a for a, c in active.items() if x in c)}"
                        for x in sorted(group))
        yield Incident("trees-label-case", f"one label spelt {len(group)} ways: {who}", None)


def _listed(items: list[tuple[str, int]], most: int = 12) -> str:
    shown = ", ".join(f"{x!r} ({n})" for x, n in items[:most])
    return shown + (f" and {len(items) - most} more" if len(items) > most else "")
