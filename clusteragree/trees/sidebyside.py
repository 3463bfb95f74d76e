"""The sentences whose trees differ, as the data of the report's side-by-side trees view.

:func:`tree_view` turns several annotators' sentences (:class:`TreeAnnotations`) into the view
dict of the report's views contract (kind ``"trees"``): one item per sentence where two of the
annotators' trees differ, with its tree edit distance (the largest over the pairs compared),
the words whose head or relation differs (dependencies) or the labelled spans some annotators
have and others lack (phrase structure), and what the page's renderer draws: the words with
each annotator's heads and relations, or each annotator's constituents.

With three or more annotators a word (a constituent) is marked in the row of every annotator
whose value differs from that of at least one other annotator it is compared with (so with two
annotators: on both sides); the difference's text says who chose what, grouped by value.

References
----------
Zhang, K. & Shasha, D. (1989). Simple fast algorithms for the editing distance between trees
and related problems. SIAM Journal on Computing 18(6), 1245-1262.

docs/report.md, "The trees view".
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..errors import ParameterError, ParameterTypeError, option
from .alpha import unlabelled
from .edit_distance import TreeCache
from .model import Sentence, Tree, TreeAnnotations

__all__ = ["constituents", "tree_view"]

#: Legend entries of the renderer's classes (clusteragree/report/assets/trees.css).
LEGEND_DEPENDENCY = [
    ["trees-arc-differs", "an arc whose head differs from another annotator's (red, dashed, "
                          "thicker)"],
    ["trees-rel-differs", "a relation that differs from another annotator's on the same word "
                          "(orange, bold, underlined)"],
]
LEGEND_PHRASE = [
    ["trees-only", "a constituent (a label over its span) that another annotator lacks (red, "
                   "bold, dashed frame)"],
    ["trees-missing", "a constituent another annotator has and this one lacks (grey dashed "
                      "bracket under the span, its label struck through)"],
]


def constituents(tree: Tree) -> list[dict[str, Any]]:
    """A tree's nodes in pre-order, each with its label, the span of leaf positions it covers
    (first, end excluded) and its children (indexes into the list; the root is node 0).

    A flat list rather than nested dicts, so that a tree thousands of levels deep neither
    exceeds JSON's nor the page script's recursion.

    Parameters
    ----------
    tree : Tree
        A phrase-structure tree (its leaves are the leaf positions 0, 1, ...).

    Returns
    -------
    list of dict
        ``{"label": str, "span": [first, end], "children": [int, ...]}`` per node.

    References
    ----------
    docs/report.md, "The trees view".

    Examples
    --------
    ``(S (NP D N) V)``: the leaves D, N and V are 0, 1 and 2; NP spans 0-2, S 0-3:

    >>> from clusteragree.trees import as_tree
    >>> nodes = constituents(as_tree(("S", (("NP", (("D", ()), ("N", ()))), ("V", ())))))
    >>> [(n["label"], n["span"]) for n in nodes]
    [('S', [0, 3]), ('NP', [0, 2]), ('D', [0, 1]), ('N', [1, 2]), ('V', [2, 3])]
    >>> [n["children"] for n in nodes]
    [[1, 4], [2, 3], [], [], []]
    """
    nodes: list[dict[str, Any]] = []
    parents: list[int] = []  # the open nodes, innermost last
    ends: list[int] = []  # their ends in pre-order
    leaf = 0
    for p, (label, s) in enumerate(zip(tree.labels, tree.sizes, strict=True)):
        while ends and ends[-1] <= p:
            ends.pop()
            parents.pop()
        nodes.append({"label": label, "span": [leaf, leaf + 1], "children": []})
        if parents:
            nodes[parents[-1]]["children"].append(p)
        if s == 1:
            leaf += 1  # pre-order meets the leaves left to right
        else:
            ends.append(p + s)
            parents.append(p)
    for p in range(len(nodes) - 1, -1, -1):  # a node spans its first child to its last
        kids = nodes[p]["children"]
        if kids:
            nodes[p]["span"] = [nodes[kids[0]]["span"][0], nodes[kids[-1]]["span"][1]]
    return nodes


def _by_value(values: dict[str, Any], show: Any) -> str:
    """``'dog' (A, C), 'saw' (B)``: each value with the annotators that chose it."""
    groups: dict[Any, list[str]] = {}
    for name, value in values.items():
        groups.setdefault(value, []).append(name)
    return ", ".join(f"{show(v)} ({', '.join(who)})" for v, who in groups.items())


def _differs(values: dict[str, Any], pairs: list[tuple[str, str]]) -> set[str]:
    """The annotators whose value differs from that of one they are compared with."""
    out: set[str] = set()
    for a, b in pairs:
        if a in values and b in values and values[a] != values[b]:
            out.update((a, b))
    return out


def _dependency(shown: dict[str, Sentence], pairs: list[tuple[str, str]], labelled: bool
                ) -> dict[str, Any]:
    first = next(iter(shown.values()))
    words = list(first.words)
    annotations: dict[str, Any] = {}
    for name, s in shown.items():
        annotations[name] = {"heads": list(s.heads), "deprels": list(s.deprels),
                             "head_differs": [], "relation_differs": []}
        if s.words != first.words:
            annotations[name]["words"] = list(s.words)
    if any(len(s.words) != len(words) for s in shown.values()):
        lengths = _by_value({n: len(s.words) for n, s in shown.items()}, lambda v: f"{v} words")
        return {"words": words, "annotations": annotations,
                "cells": {"arcs differing": None, "heads differing": None},
                "differences": [{"anchor": "tok", "kind": "tokenised differently",
                                 "text": f"tokenised differently: {lengths}; the trees are "
                                         "compared by their edit distance only"}]}
    differences = []
    heads_differing = 0
    for i, word in enumerate(words, start=1):
        heads = {n: s.heads[i - 1] for n, s in shown.items()}
        rels = {n: s.deprels[i - 1] for n, s in shown.items()}
        head_who = _differs(heads, pairs)
        rel_who = _differs(rels, pairs) if labelled else set()
        if not head_who and not rel_who:
            continue
        for name in head_who:
            annotations[name]["head_differs"].append(i)
        for name in rel_who:
            annotations[name]["relation_differs"].append(i)
        heads_differing += bool(head_who)
        parts = []
        if head_who:
            parts.append("head " + _by_value(
                heads, lambda h: "the root" if h == 0 else f"{h} '{words[h - 1]}'"))
        if rel_who:
            parts.append("relation " + _by_value(rels, lambda r: r))
        kind = ("head and relation differ" if head_who and rel_who
                else "head differs" if head_who else "relation differs")
        differences.append({"anchor": f"w{i}", "kind": kind,
                            "text": f"{i} '{word}': " + "; ".join(parts)})
    for a in annotations.values():
        a["head_differs"].sort()
        a["relation_differs"].sort()
    return {"words": words, "annotations": annotations,
            "cells": {"arcs differing": len(differences), "heads differing": heads_differing},
            "differences": differences}


def _phrase(shown: dict[str, Sentence], pairs: list[tuple[str, str]], labelled: bool
            ) -> dict[str, Any]:
    trees = {}
    counts: dict[str, Counter[tuple[str, int, int]]] = {}
    for name, s in shown.items():
        nodes = constituents(s.tree)
        trees[name] = nodes
        counts[name] = Counter((n["label"] if labelled else "", *n["span"]) for n in nodes)
    spans = sorted({key for c in counts.values() for key in c},
                   key=lambda k: (k[1], -k[2], k[0]))
    annotations: dict[str, Any] = {name: {"nodes": trees[name], "missing": []}
                                   for name in shown}
    differences: list[dict[str, str]] = []
    for key in spans:
        have = {n: counts[n][key] for n in shown}
        more = {a for a, b in pairs if a in have and b in have and have[a] > have[b]}
        more |= {b for a, b in pairs if a in have and b in have and have[b] > have[a]}
        fewer = {a for a, b in pairs if a in have and b in have and have[a] < have[b]}
        fewer |= {b for a, b in pairs if a in have and b in have and have[b] < have[a]}
        if not more:
            continue
        anchor = f"c{len(differences) + 1}"
        label, first, end = key
        for name in more:
            for node in trees[name]:
                if (node["label"] if labelled else "", *node["span"]) == key:
                    node["differs"] = anchor
        for name in fewer:
            annotations[name]["missing"].append({"label": label, "span": [first, end],
                                                 "anchor": anchor})
        name = label if labelled else "a constituent"
        what = (f"{name} at leaf {end}" if end - first == 1
                else f"{name} over leaves {first + 1}-{end}")
        if all(have[n] <= 1 for n in shown):
            text = (f"{what}: in {', '.join(n for n in shown if n in more)}, not in "
                    f"{', '.join(n for n in shown if n in fewer)}")
        else:
            text = f"{what}: " + _by_value(have, lambda c: f"{c} times")
        differences.append({"anchor": anchor, "kind": "constituent differs", "text": text})
    return {"leaves": {name: sum(1 for n in trees[name] if not n["children"])
                       for name in shown},
            "annotations": annotations,
            "cells": {"constituents differing": len(differences)},
            "differences": differences}


def tree_view(annotations: TreeAnnotations, pairs: Sequence[tuple[str, str]] | None = None, *,
              every: bool = False, labelled: bool = True, free_empty: bool = True,
              cache: TreeCache | None = None) -> dict[str, Any] | None:
    """The view of the sentences whose trees differ (kind ``"trees"`` of the report's views
    contract), the most different first.

    Parameters
    ----------
    annotations : TreeAnnotations
        Read by :func:`~clusteragree.trees.read_tree_annotations`.
    pairs : sequence of (str, str), optional
        The pairs of annotators compared; default every pair. The view's annotators are those
        of the pairs, in the order they first appear.
    every : bool, default=False
        One item per sentence two of them annotated, those whose trees are equal included;
        by default only the sentences where two trees differ.
    labelled : bool, default=True
        False compares the structure alone: the edit distance of the unlabelled trees, the
        heads (not the relations), the spans (not their labels).
    free_empty : bool, default=True
        As :func:`~clusteragree.trees.tree_alpha` (the empty root label is free).
    cache : TreeCache, optional
        Reuse edit distances already computed (its ``free_empty`` must be ``free_empty``).

    Returns
    -------
    dict or None
        ``kind``, ``title``, ``annotators``, ``legend``, ``columns`` and ``items``; None where
        no item is left. An item holds ``id`` (``trees-K``, K the sentence's number in
        document order), ``name`` (its ``# sent_id``, else ``sentence K`` counted from 1 in
        its file), ``document`` (the first annotator's file), ``order`` (the largest edit
        distance over the pairs), ``cells``, ``differences`` and the payload: for
        dependencies ``words`` and ``annotations`` (annotator -> ``heads``, ``deprels``, the
        1-based words whose ``head_differs`` and ``relation_differs``, and ``words`` where
        they are not the item's), for phrase structure ``leaves`` (annotator -> number) and
        ``annotations`` (annotator -> ``nodes``, as :func:`constituents`, those another
        annotator lacks with ``differs`` = their anchor, and ``missing``: the spans another
        annotator has and this one lacks, with their anchors). An annotator who did not
        annotate the sentence has ``None``. Items are sorted by ``order`` descending, ties in
        document order.

    Raises
    ------
    ParameterTypeError
        Annotations that are not :class:`TreeAnnotations`, pairs that are not pairs of names.
    ParameterError
        An annotator not in the annotations, a pair of one annotator with itself, a cache
        whose ``free_empty`` differs.

    References
    ----------
    Zhang, K. & Shasha, D. (1989). SIAM Journal on Computing 18(6), 1245-1262 (the edit
    distance, :class:`~clusteragree.trees.TreeCache`).

    docs/report.md, "The trees view".

    Examples
    --------
    "I saw him": B attaches "him" to "I" and calls "I" obj. Two words differ, "him" in its
    head and "I" in its relation, each marked in both rows:

    >>> from clusteragree.trees import Sentence, TreeAnnotations
    >>> words = ("I", "saw", "him")
    >>> a = Sentence(("", (("root", (("nsubj", ()), ("obj", ()))),)), words, (2, 0, 2),
    ...              ("nsubj", "root", "obj"), path="a.conllu", sent_id="s1")
    >>> b = Sentence(("", (("root", (("obj", (("obj", ()),)),)),)), words, (2, 0, 1),
    ...              ("obj", "root", "obj"), path="b.conllu")
    >>> view = tree_view(TreeAnnotations({"A": {"s1": a}, "B": {"s1": b}}, "dependency", {}))
    >>> item = view["items"][0]
    >>> item["name"], item["order"], item["cells"]
    ('s1', 2.0, {'ted': 2.0, 'arcs differing': 2, 'heads differing': 1})
    >>> [d["text"] for d in item["differences"]]
    ["1 'I': relation nsubj (A), obj (B)", "3 'him': head 2 'saw' (A), 1 'I' (B)"]
    >>> item["annotations"]["B"]["head_differs"], item["annotations"]["B"]["relation_differs"]
    ([3], [1])
    """
    if not isinstance(annotations, TreeAnnotations):
        raise ParameterTypeError("tree_view takes TreeAnnotations (read_tree_annotations)")
    known = list(annotations.sentences)
    if pairs is None:
        pairs = [(a, b) for i, a in enumerate(known) for b in known[i + 1:]]
    if isinstance(pairs, (str, bytes)) or not all(
            isinstance(p, (tuple, list)) and len(p) == 2
            and all(isinstance(n, str) for n in p) for p in pairs):
        raise ParameterTypeError("pairs must be pairs of annotators' names, "
                                 "e.g. [('A', 'B')]")
    pairs = [(str(a), str(b)) for a, b in pairs]
    names: list[str] = []
    for a, b in pairs:
        for n in (a, b):
            if n not in annotations.sentences:
                raise ParameterError(f"no annotator {n!r}; there are {known}",
                                     params=("pairs",))
            if n not in names:
                names.append(n)
        if a == b:
            raise ParameterError(f"{option('pairs', [(a, b)])}: a pair of one annotator with "
                                 "itself", params=("pairs",))
    distance = cache if cache is not None else TreeCache(free_empty)
    if not isinstance(distance, TreeCache):
        raise ParameterTypeError("cache must be a TreeCache")
    if distance.free_empty != free_empty:
        raise ParameterError(f"the cache's free_empty differs from "
                             f"{option('free_empty', free_empty)}", params=("cache",))
    units: dict[Any, None] = {}
    for n in names:
        units.update(dict.fromkeys(annotations.sentences[n]))
    positions = _positions(annotations, names)
    phrase = annotations.kind != "dependency"
    items = []
    for number, unit in enumerate(units, start=1):
        shown = {n: annotations.sentences[n][unit] for n in names
                 if unit in annotations.sentences[n]}
        compared = [(a, b) for a, b in pairs if a in shown and b in shown]
        if not compared:
            continue
        teds = [float(distance(*(shown[x].tree if labelled else unlabelled(shown[x].tree)
                                 for x in (a, b)))) for a, b in compared]
        order = max(teds)
        built = (_phrase if phrase else _dependency)(shown, compared, labelled)
        if not every and order == 0 and not built["differences"]:
            continue
        first = next(iter(shown.values()))
        ids = [s.sent_id for s in shown.values() if s.sent_id is not None]
        name = ids[0] if ids else f"sentence {positions[unit]}"
        payload = {n: built["annotations"].get(n) for n in names}
        item: dict[str, Any] = {
            "id": f"trees-{number}", "name": name,
            "document": os.path.basename(first.path) if first.path else None,
            "order": order, "cells": {"ted": order, **built["cells"]},
            "differences": built["differences"], "annotations": payload}
        if phrase:
            item["leaves"] = built["leaves"]
        else:
            item["words"] = built["words"]
        items.append((number, item))
    if not items:
        return None
    items.sort(key=lambda x: (-x[1]["order"], x[0]))
    columns = (["ted", "constituents differing"] if phrase
               else ["ted", "arcs differing", "heads differing"])
    return {"kind": "trees",
            "title": ("the sentences of the treebank" if every
                      else "the sentences whose trees differ"),
            "annotators": names,
            "legend": LEGEND_PHRASE if phrase else LEGEND_DEPENDENCY,
            "columns": columns, "kind_of_trees": annotations.kind,
            "items": [item for _, item in items]}


def _positions(annotations: TreeAnnotations, names: list[str]) -> dict[Any, int]:
    """Each sentence's number from 1 in its file (the first annotator's that has it)."""
    out: dict[Any, int] = {}
    for n in names:
        seen: Counter[str | None] = Counter()
        for unit, s in annotations.sentences[n].items():
            seen[s.path] += 1
            out.setdefault(unit, seen[s.path])
    return out
