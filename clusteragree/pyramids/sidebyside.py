"""Two pyramids of the same model summaries side by side: the data of the report's pyramids
view (kind ``"pyramids"``, docs/report_pyramids_view.md).

The SCUs of the two pyramids are aligned by the words they cover
(:func:`~clusteragree.pyramids.alignment.align_scus`: an optimal one-to-one matching, then every
unmatched SCU linked to the SCU of the other side it overlaps most). The matched pairs and the
links make a graph between the SCUs of A and those of B; each connected part of it is a *group*,
and the group gives its SCUs their status:

* ``matched``: one SCU of A and one of B (a matched pair, nothing linked to it);
* ``split``: one SCU of A and several of B (B split what A has as one SCU);
* ``merged``: several SCUs of A and one of B (B merged what A has as several SCUs);
* ``regrouped``: several on both sides (splits and merges crossing; rare);
* ``one-sided``: one SCU that shares no word with any SCU of the other side.

Every SCU is in exactly one group; both sides' SCUs of a group share the group's colour index.
Then each model summary becomes one item: its text, the word tokens, and each side's
contributors over it (a contributor with parts in two summaries shows its parts in each).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any

from ..core.model import unique_labels
from ..errors import ParameterError, ParameterTypeError, notify
from .alignment import ScuAlignment, align_scus
from .model import Pyramid
from .units import tokens

__all__ = ["STATUSES", "pyramid_view"]

#: The statuses of an SCU, and what each means (the legend's text).
STATUSES: dict[str, str] = {
    "matched": "matched: one SCU of each side (solid underline)",
    "split": "split: one SCU of A, several of B (double underline, marked S)",
    "merged": "merged: several SCUs of A, one of B (dashed underline, marked M)",
    "regrouped": "regrouped: several SCUs on both sides (grooved underline, marked R)",
    "one-sided": "one-sided: no SCU of the other side shares a word (dotted underline, "
                 "marked \u2020)",
}
_SIDES = ("A", "B")


def _groups(aligned: ScuAlignment, uids: tuple[list[int], list[int]]
            ) -> tuple[list[dict[str, Any]], dict[tuple[str, int], int]]:
    """Connected parts of the graph of matched pairs and links, in the order of the SCUs."""
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def find(x: tuple[str, int]) -> tuple[str, int]:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for side, side_uids in zip(_SIDES, uids, strict=True):
        for uid in side_uids:
            parent[(side, uid)] = (side, uid)
    edges: list[tuple[tuple[str, int], tuple[str, int], float, str]] = []
    for a_uid, b_uid, jac in aligned.matched[["a_uid", "b_uid", "jaccard"]].itertuples(
            index=False):
        edges.append((("A", int(a_uid)), ("B", int(b_uid)), float(jac), "matched"))
    for side, uid, to_uid, jac in aligned.linked[["side", "uid", "to_uid", "jaccard"]
                                                 ].itertuples(index=False):
        other = "B" if side == "A" else "A"
        edges.append(((str(side), int(uid)), (other, int(to_uid)), float(jac), "linked"))
    for x, y, _, _ in edges:
        rx, ry = find(x), find(y)
        if rx != ry:
            parent[ry] = rx
    members: dict[tuple[str, int], list[tuple[str, int]]] = {}
    for node in parent:  # A's SCUs first, in file order, then B's
        members.setdefault(find(node), []).append(node)
    groups: list[dict[str, Any]] = []
    index: dict[tuple[str, int], int] = {}
    for nodes in members.values():
        a = [uid for side, uid in nodes if side == "A"]
        b = [uid for side, uid in nodes if side == "B"]
        if not a or not b:
            status = "one-sided"
        elif len(a) == 1 and len(b) == 1:
            status = "matched"
        elif len(a) == 1:
            status = "split"
        elif len(b) == 1:
            status = "merged"
        else:
            status = "regrouped"
        for node in nodes:
            index[node] = len(groups)
        groups.append({"status": status, "A": [str(u) for u in a], "B": [str(u) for u in b],
                       "links": []})
    for x, y, jac, how in edges:
        groups[index[x]]["links"].append(
            {"A": str(x[1] if x[0] == "A" else y[1]), "B": str(y[1] if y[0] == "B" else x[1]),
             "jaccard": jac, "how": how})
    return groups, index


def _scu_table(pyramids: Sequence[Pyramid], aligned: ScuAlignment) -> dict[str, Any]:
    """The pyramid-level alignment: every SCU of each side with its status, and the groups."""
    uids = ([s.uid for s in pyramids[0].scus], [s.uid for s in pyramids[1].scus])
    groups, index = _groups(aligned, uids)
    partners: dict[tuple[str, int], dict[str, float]] = {}
    for group in groups:
        for link in group["links"]:
            partners.setdefault(("A", int(link["A"])), {})[link["B"]] = link["jaccard"]
            partners.setdefault(("B", int(link["B"])), {})[link["A"]] = link["jaccard"]
    table: dict[str, Any] = {}
    for side, pyramid in zip(_SIDES, pyramids, strict=True):
        table[side] = {
            str(s.uid): {"label": s.label.strip(), "weight": s.weight,
                         "status": groups[index[(side, s.uid)]]["status"],
                         "group": index[(side, s.uid)], "words": 0,
                         "partners": partners.get((side, s.uid), {})}
            for s in pyramid.scus}
    table["groups"] = groups
    return table


def _item(k: int, pyramids: Sequence[Pyramid], scus: dict[str, Any], tokenizer: str,
          first_word: int, unmarked: dict[str, set[int]], names: Sequence[str]
          ) -> tuple[dict[str, Any], int]:
    """One model summary: its text, words, each side's contributors, order, cells, differences.
    Returns the item and its number of words."""
    summary = pyramids[0].summaries[k]
    lo, hi = summary.body
    text = pyramids[0].text[lo:hi]
    starts, ends = tokens(pyramids[0].text, [summary.body], tokenizer)
    words = [[s - lo, e - lo] for s, e in zip(starts.tolist(), ends.tolist(), strict=True)]
    word_starts, word_ends = [w[0] for w in words], [w[1] for w in words]
    sides: dict[str, Any] = {}
    cover: dict[str, list[set[int]]] = {}
    for side, pyramid in zip(_SIDES, pyramids, strict=True):
        contributors: list[dict[str, Any]] = []
        cover[side] = [set() for _ in words]
        for scu in pyramid.scus:
            for c, contributor in enumerate(scu.contributors):
                parts = sorted({(max(p.start, lo) - lo, min(p.end, hi) - lo)
                                for p in contributor.parts if p.start < hi and p.end > lo})
                if not parts:
                    continue
                inside = {w for s, e in parts  # the words overlapping a part
                          for w in range(bisect.bisect_right(word_ends, s),
                                         bisect.bisect_left(word_starts, e))}
                for w in inside:
                    if scu.uid not in cover[side][w]:
                        cover[side][w].add(scu.uid)
                        scus[side][str(scu.uid)]["words"] += 1  # the words it covers
                contributors.append({
                    "scu": str(scu.uid), "contributor": c, "parts": [list(p) for p in parts],
                    "text": " ... ".join(text[s:e].replace("\n", " ").strip()
                                         for s, e in parts),
                    "anchor": None})
        contributors.sort(key=lambda x: (x["parts"][0], int(x["scu"]), x["contributor"]))
        sides[side] = {"contributors": contributors,
                       "only": sorted(w - first_word for w in unmarked[side]
                                      if first_word <= w < first_word + len(words))}
    differences: list[tuple[int, int, dict[str, str]]] = []
    cells = {status: 0 for status in STATUSES}
    who = dict(zip(_SIDES, names, strict=True))
    for side in _SIDES:
        them = "B" if side == "A" else "A"
        for j, contributor in enumerate(sides[side]["contributors"]):
            info = scus[side][contributor["scu"]]
            cells[info["status"]] += 1
            if info["status"] == "matched":
                continue
            anchor = f"{side}-c{j}"
            contributor["anchor"] = anchor
            others = "; ".join(f"SCU {u} '{scus[them][u]['label']}'"
                               for u in info["partners"])
            differences.append((contributor["parts"][0][0], 0, {
                "anchor": anchor, "kind": f"{info['status']} SCU ({who[side]})",
                "text": f"{who[side]}: SCU {contributor['scu']} '{info['label']}' (weight "
                        f"{info['weight']}): '{contributor['text']}'"
                        + (f"; with {who[them]}'s {others}" if others else "")}))
        for w in sides[side]["only"]:
            differences.append((words[w][0], 1, {
                "anchor": f"{side}-w{w}", "kind": f"word marked by {who[side]} only",
                "text": f"'{text[words[w][0]:words[w][1]]}': in {who[side]}'s SCU "
                        + ", ".join(sorted((str(u) for u in cover[side][w]), key=int))
                        + f", in no SCU of {who[them]}'s"}))
    differences.sort(key=lambda d: (d[0], d[1], d[2]["anchor"]))
    differing = 0
    for w in range(len(words)):
        a, b = cover["A"][w], cover["B"][w]
        statuses = {scus["A"][str(u)]["status"] for u in a} | {
            scus["B"][str(u)]["status"] for u in b}
        partners_a = {p for u in a for p in scus["A"][str(u)]["partners"]}
        if statuses - {"matched"} or partners_a != {str(u) for u in b}:
            differing += 1
    share = differing / len(words) if words else 0.0
    cells["words differing"] = differing
    cells["marked by one side"] = sum(len(sides[s]["only"]) for s in _SIDES)
    item = {"id": f"pyr-s{k}", "name": summary.id, "document": summary.id,
            "order": share, "cells": cells, "differences": [d for *_, d in differences],
            "text": text, "words": words, "sides": sides}
    return item, len(words)


def pyramid_view(a: Pyramid, b: Pyramid, *, tokenizer: str = "ws",
                 annotators: Sequence[str] | None = None) -> dict[str, Any]:
    """The data of the report's pyramids view: each model summary with both annotators'
    contributors marked, and the SCU alignment of the two pyramids.

    Parameters
    ----------
    a, b : Pyramid
        Two annotators' pyramids of the same model summaries (equal texts; checked).
    tokenizer : {"ws", "ducview", "alnum"}, default="ws"
        How the text is cut into words (:func:`~clusteragree.pyramids.units.tokens`), for the
        alignment and the words of the view.
    annotators : sequence of two str, optional
        The names shown for ``a`` and ``b`` (default: from their paths, as the agreement
        tables name them). In the data the sides are ``"A"`` (``a``) and ``"B"`` (``b``).

    Returns
    -------
    dict
        A view of kind ``"pyramids"`` (docs/report_pyramids_view.md): ``items`` one per model
        summary, in text order, each with ``text`` (the summary's body), ``words`` (token spans
        ``[start, end)`` in it), ``sides`` (per side ``"A"``/``"B"``: ``contributors``, each
        ``scu`` uid, ``contributor`` index in its SCU, ``parts`` spans in the text, ``text``
        and ``anchor``; ``only``: the words it alone puts in an SCU), ``order`` (the share of
        the words whose SCUs do not correspond, see Notes), ``cells`` and ``differences``;
        ``scus``: per side the SCUs by uid (``label``, ``weight``, ``status``, ``group``,
        ``words``, ``partners``: uid of the other side -> Jaccard) and ``groups``.

    Raises
    ------
    InputError
        The two pyramids' texts differ.

    Notes
    -----
    A word's SCUs correspond when every SCU covering it, on either side, is matched, and the
    partners of A's SCUs covering it are exactly B's SCUs covering it (a word in no SCU of
    either side corresponds). ``order`` is the share of the summary's words whose SCUs do not
    correspond (0 for a summary without words). ``cells`` count the contributors in the
    summary of each status (both sides together), the words that differ, and the words marked
    by one side only. A part outside every model summary's body (in a header) is not shown; a
    ``note`` says how many.

    References
    ----------
    Nenkova, A. & Passonneau, R. (2004). Evaluating content selection in summarization: the
    pyramid method. Proceedings of HLT-NAACL 2004 (SCUs and their contributors).

    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006. Figure 1 (two annotators' SCUs of the
    same contributors: one SCU against three).

    docs/report_pyramids_view.md.

    Examples
    --------
    Over "a b c d e f": A has SCU 1 = {a b}, SCU 2 = {c d}, SCU 3 = {f}; B has SCU 1 =
    {a b c d}. B's SCU is matched to A's SCU 1 and A's SCU 2 is linked to it: B merged what A
    has as two SCUs. A's SCU 3 is one-sided, and "f" is marked by A only:

    >>> from clusteragree.pyramids import build_pyramid
    >>> summary = [("D1.M.100.A.A", "a b c d e f")]
    >>> pa = build_pyramid(summary, [("ab", [[(0, "a b")]]), ("cd", [[(0, "c d")]]),
    ...                              ("f", [[(0, "f")]])])
    >>> pb = build_pyramid(summary, [("abcd", [[(0, "a b c d")]])])
    >>> view = pyramid_view(pa, pb, annotators=["X", "Y"])
    >>> [(g["status"], g["A"], g["B"]) for g in view["scus"]["groups"]]
    [('merged', ['1', '2'], ['1']), ('one-sided', ['3'], [])]
    >>> item = view["items"][0]
    >>> item["sides"]["A"]["only"], item["cells"]["merged"], item["cells"]["one-sided"]
    ([5], 3, 1)

    Every word but "e" (in no SCU on either side) differs: 5 of 6:

    >>> item["order"], [d["kind"] for d in item["differences"]][:2]
    (0.8333333333333334, ['merged SCU (X)', 'merged SCU (Y)'])
    """
    if not isinstance(a, Pyramid) or not isinstance(b, Pyramid):
        raise ParameterTypeError("pyramid_view compares two Pyramid objects (read_pyramid)")
    names = list(annotators) if annotators is not None else unique_labels([a.path, b.path])
    if len(names) != 2:
        raise ParameterError(f"pyramid_view: {len(names)} annotators' names for two pyramids; "
                             "give two", params=("annotators",))
    pyramids = (a, b)
    aligned = align_scus(a, b, tokenizer=tokenizer)  # checks that the texts are equal
    scus = _scu_table(pyramids, aligned)
    unmarked = {side: set(aligned.unmarked.loc[aligned.unmarked["side"] == side, "position"]
                          .astype(int).tolist()) for side in _SIDES}
    items, first = [], 0
    for k in range(len(a.summaries)):
        item, n_words = _item(k, pyramids, scus, tokenizer, first, unmarked, names)
        items.append(item)
        first += n_words
    bodies = [s.body for s in a.summaries]
    for side, pyramid in zip(names, pyramids, strict=True):
        outside = sum(1 for p in (q for s in pyramid.scus for q in s.parts)
                      if not any(p.start < hi and p.end > lo for lo, hi in bodies))
        notify("note", f"the pyramids view shows the model summaries' bodies: {outside} "
               f"part(s) of {side}'s SCUs outside them are not shown", path=pyramid.path,
               count=outside)
    status_count = {s: sum(1 for g in scus["groups"] if g["status"] == s) for s in STATUSES}
    return {
        "kind": "pyramids",
        "title": "the model summaries with both annotators' SCU contributors",
        "annotators": [str(n) for n in names],
        "legend": [*([f"pyr-st-{s.replace('-', '')}",
                      text.replace("of A", f"of {names[0]}").replace("of B", f"of {names[1]}")]
                     for s, text in STATUSES.items() if status_count[s] or s != "regrouped"),
                   ["pyr-only", "a word in an SCU of one annotator and in none of the other's "
                    "(dashed red frame)"]],
        "columns": ["words differing", "matched", "split", "merged", "one-sided",
                    "marked by one side"] + (["regrouped"] if status_count["regrouped"] else []),
        "items": items,
        "scus": scus,
        "tokenizer": tokenizer,
    }
