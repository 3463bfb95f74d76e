"""The vectorised path of the CoNLL-X / CoNLL-U dependency reader, for well-formed files.

:func:`fast_conll_trees` reads a whole file with numpy over its bytes: lines, blank and comment
lines, the ID, FORM, HEAD and DEPREL columns, the sentences, and the trees themselves (depths by
pointer jumping, subtree sizes and pre-order positions a level of the trees at a time), never a
Python loop over lines or words (only over the comment lines, for the ``# sent_id`` that names
each sentence). It reads only files that the line-by-line reader
(:func:`clusteragree.trees.read_conll_trees`) reads without an error or a dropped word, and
gives what that reader gives; on anything else (a line without ten columns, an id out of
order, a head outside its sentence, a cycle, no root, several roots with ``roots="one"``, two
``# sent_id`` lines for one sentence or one after the last, a tree deeper than 4096 levels, a
character it does not handle) it returns None and the
line-by-line reader, which knows every line number, reads the file.
"""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np

from ..errors import InputError
from ..inputs import Ints, Positions, ascii_naturals, byte_lines, decode_ranges, tab_columns
from .model import Sentence, Tree

__all__ = ["SEVERAL_ROOTS", "fast_conll_trees", "sent_id_of"]

_RANGE = re.compile(r"[0-9]+-[0-9]+")
_EMPTY = re.compile(r"[0-9]+\.[0-9]+")
#: The notice of sentences with several roots kept (``roots="many"``).
SEVERAL_ROOTS = "sentences with several roots (kept)"
_SENT_ID = re.compile(r"#[ \t]*sent_id[ \t]*=(.*)")
_DEEPEST = 4096  # deeper trees are built by the line-by-line reader


def sent_id_of(line: str, path: str, number: int) -> str | None:
    """The value of a ``# sent_id = VALUE`` comment line (spaces and TABs around it removed),
    or None for any other comment line; an empty value is an error.

    Examples
    --------
    >>> sent_id_of("# sent_id = s12", "a.conllu", 1), sent_id_of("# text = Hi", "a.conllu", 2)
    ('s12', None)
    """
    found = _SENT_ID.fullmatch(line)
    if found is None:
        return None
    value = found.group(1).strip(" \t")
    if not value:
        raise InputError("a # sent_id without a value; give the sentence's id after '='",
                         path=path, line=number)
    return value


def fast_conll_trees(text: str, path: str, roots: str = "one"
                     ) -> tuple[list[Sentence], Counter[str], dict[str, int]] | None:
    """The sentences of a well-formed CoNLL-X / CoNLL-U text, with what was skipped (counts,
    in the order the line-by-line reader counts them, and the first line of each), or None
    when the text needs the line-by-line reader.

    Parameters
    ----------
    text : str
        The whole decoded file.
    path : str
        The file, kept in every sentence.
    roots : {"one", "many"}, default="one"
        As for :func:`clusteragree.trees.read_conll_trees`.

    Returns
    -------
    tuple or None
        ``(sentences, skipped, first_lines)``: equal to what
        :func:`clusteragree.trees.read_conll_trees` builds for ``text``; or None.

    References
    ----------
    Universal Dependencies, the CoNLL-U format (universaldependencies.org/format.html).

    docs/trees.md, "Trees"; docs/performance.md.

    Examples
    --------
    "I saw" (Skjaerholt 2014, Figure 1, shortened): "saw" is the root, "I" its subject:

    >>> line = "{}\\t{}\\t_\\t_\\t_\\t_\\t{}\\t{}\\t_\\t_"
    >>> text = "\\n".join([line.format(1, "I", 2, "Subj"), line.format(2, "saw", 0, "Pred")])
    >>> sentences, skipped, _ = fast_conll_trees(text, "a.conllu")
    >>> sentences[0].tree, sentences[0].heads, dict(skipped)
    (Tree('(_ (Pred Subj))'), (2, 0), {})

    A head outside the sentence is for the line-by-line reader, which names the line:

    >>> fast_conll_trees(line.format(1, "I", 3, "Subj"), "a.conllu") is None
    True
    """
    got = byte_lines(text)
    if got is None:
        return None
    buf, starts, ends = got
    del got  # each array goes once used
    if len(buf) == 0:
        return [], Counter(), {}
    head_byte = buf[starts]
    empty = starts == ends
    spaced = ~empty & ((head_byte == 32) | (head_byte == 9))
    for row in np.flatnonzero(spaced).tolist():  # rare: a line that starts with a space
        if buf[starts[row]:ends[row]].tobytes().strip(b" \t"):
            return None
    blank = empty | spaced
    token = ~blank & (head_byte != 35)
    rows = np.flatnonzero(token)
    groups = np.cumsum(blank)
    group = groups[rows]  # blank lines before each token line
    comment = np.flatnonzero(~blank & (head_byte == 35))
    ids_at: list[tuple[int, int, str]] = []  # (group, line, value) of each # sent_id
    for row, text_ in zip(comment.tolist(), decode_ranges(buf, starts[comment], ends[comment]),
                          strict=True):
        if "sent_id" in text_:
            try:
                value = sent_id_of(text_, path, row + 1)
            except InputError:
                return None  # the line-by-line reader names it, or an earlier error
            if value is not None:
                ids_at.append((int(groups[row]), row + 1, value))
    del head_byte, empty, spaced, token, groups, comment
    cols = tab_columns(buf, starts[rows], ends[rows], 10, [0, 1, 6, 7])
    del starts, ends
    if cols is None:
        return None
    (id_s, id_e), (form_s, form_e), (head_s, head_e), (rel_s, rel_e) = cols
    ids, plain = ascii_naturals(buf, id_s, id_e)
    events: list[tuple[int, int, int, str]] = []  # (group, 0, line, what) per line skipped
    special = np.flatnonzero(~plain)
    for row, value in zip(special.tolist(), decode_ranges(buf, id_s[special], id_e[special]),
                          strict=True):
        if _RANGE.fullmatch(value):
            events.append((int(group[row]), 0, int(rows[row]) + 1, "multiword-token lines"))
        elif _EMPTY.fullmatch(value):
            events.append((int(group[row]), 0, int(rows[row]) + 1, "empty nodes"))
        else:
            return None
    word = np.flatnonzero(plain)
    rows, group, ids = rows[word], group[word], ids[word]
    heads, number = ascii_naturals(buf, head_s[word], head_e[word])
    del id_s, id_e, head_s, head_e, plain
    if not number.all():
        return None
    new = np.concatenate([[True], group[1:] != group[:-1]]) if len(word) else np.zeros(0, bool)
    first = np.flatnonzero(new)
    sent = np.cumsum(new) - 1
    size = np.diff(np.append(first, len(word)))
    if (ids != np.arange(len(word)) - first[sent] + 1).any() or (heads > size[sent]).any():
        return None
    root_count = np.bincount(sent, weights=heads == 0, minlength=len(first))
    several = np.flatnonzero(root_count > 1)
    if (root_count == 0).any() or (len(several) and roots == "one"):
        return None
    words = decode_ranges(buf, form_s[word], form_e[word], intern=True)
    del form_s, form_e
    rels = decode_ranges(buf, rel_s[word], rel_e[word], intern=True)
    del rel_s, rel_e, buf  # the bytes, once read, before the trees are built
    nodes = _pre_order(heads, sent, first)
    if nodes is None:
        return None
    order, subtree = nodes
    node_label = np.empty(len(word) + len(first), dtype=object)
    node_label[np.arange(len(word)) + sent + 1] = [r if r != "_" else "" for r in rels]
    node_label[first + np.arange(len(first))] = ""
    labels = node_label[order].tolist()
    del node_label
    sizes = subtree[order].tolist()
    del order, subtree
    named = _sent_ids(ids_at, group[first])
    if named is None:
        return None
    heads_list, lines = heads.tolist(), (rows[first] + 1).tolist()
    at, out = [*first.tolist(), len(word)], []
    for j, line in enumerate(lines):
        a, b = at[j], at[j + 1]
        tree = Tree._known(tuple(labels[a + j:b + j + 1]), tuple(sizes[a + j:b + j + 1]))
        out.append(Sentence(tree, tuple(words[a:b]), tuple(heads_list[a:b]), tuple(rels[a:b]),
                            line, path=path, sent_id=named.get(j)))
    events += [(int(group[first[j]]), 1, lines[j], SEVERAL_ROOTS) for j in several.tolist()]
    skipped: Counter[str] = Counter()
    first_lines: dict[str, int] = {}
    for _, _, line, what in sorted(events):
        skipped[what] += 1
        first_lines.setdefault(what, line)
    return out, skipped, first_lines


def _sent_ids(found: list[tuple[int, int, str]], groups: Ints) -> dict[int, str] | None:
    """Sentence -> its ``# sent_id``: a sent_id line belongs to the first sentence whose block
    (between blank lines) is its own or a later one, as the line-by-line reader assigns it;
    None when a sentence has two or a sent_id follows the last sentence."""
    if not found:
        return {}
    at = np.searchsorted(groups, np.array([g for g, _, _ in found]), side="left").tolist()
    out: dict[int, str] = {}
    for j, (_, _, value) in zip(at, found, strict=True):
        if j >= len(groups) or j in out:
            return None
        out[j] = value
    return out


def _pre_order(heads: Ints, sent: Ints, first: Ints) -> tuple[Positions, Positions] | None:
    """The nodes of every sentence's tree (the artificial root, then its words, numbered
    across sentences) in pre-order, children in surface order, and each node's subtree size;
    None when the heads of a sentence form a cycle."""
    words, count = len(heads), len(first)
    if words == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    n = words + count
    root = first + np.arange(count)  # the node of each sentence's artificial root
    node = np.arange(words) + sent + 1  # the node of each word
    kind = np.int32 if n < 2**31 else np.int64  # half the memory for any real file
    parent = np.empty(n, dtype=kind)
    parent[root] = root
    parent[node] = root[sent] + heads
    is_root = np.zeros(n, dtype=np.bool_)
    is_root[root] = True
    # Depths by pointer jumping: after k rounds every node has jumped 2^k levels up.
    depth = (~is_root).astype(kind)
    jump = parent.copy()
    longest = int(np.diff(np.append(first, words)).max(initial=0))
    for _ in range(math.ceil(math.log2(longest + 2)) + 1):
        depth += depth[jump]
        jump = jump[jump]
    if not is_root[jump].all():
        return None  # a cycle: some words never reach the root
    del jump, is_root
    if int(depth.max(initial=0)) > _DEEPEST:
        return None  # a level at a time would take longer than the line-by-line reader
    # Levels, deepest first: subtree sizes bottom-up, then positions top-down.
    by_depth = np.argsort(depth, kind="stable")
    cuts = np.searchsorted(depth[by_depth], np.arange(int(depth.max(initial=0)) + 2))
    subtree = np.ones(n, dtype=kind)
    for d in range(len(cuts) - 2, 0, -1):
        level = by_depth[cuts[d]:cuts[d + 1]]
        np.add.at(subtree, parent[level], subtree[level])
    # Before a node, in pre-order under its parent: the parent and the earlier siblings'
    # subtrees. Nodes are numbered in surface order, so siblings sorted by parent stay so.
    siblings = node[np.argsort(parent[node], kind="stable")]
    ahead = np.cumsum(subtree[siblings]) - subtree[siblings]
    starts = np.concatenate([[True], parent[siblings][1:] != parent[siblings][:-1]])
    ahead -= np.repeat(ahead[starts], np.diff(np.append(np.flatnonzero(starts), words)))
    step = np.zeros(n, dtype=kind)
    step[siblings] = ahead + 1
    del siblings, ahead, starts
    position = np.zeros(n, dtype=kind)
    for d in range(1, len(cuts) - 1):
        level = by_depth[cuts[d]:cuts[d + 1]]
        position[level] = position[parent[level]] + step[level]
    del by_depth, step, depth
    order = np.empty(n, dtype=kind)
    owner = np.repeat(root, np.diff(np.append(first, words)) + 1)
    order[owner + position] = np.arange(n)
    return order, subtree
