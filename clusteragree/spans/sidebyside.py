"""What an adjudicator needs to see several annotators' spans side by side: per document, one
strip per annotator on a common position axis (the text over it where it is known), gamma's
best alignment drawn as links between the strips, and every unit marked by how it differs
from the units aligned with it.

The result is plain data (a *view*, docs/report.md, "Side by side") that the report draws in
the page (``report/assets/spans.js``); nothing here knows HTML.

Definitions. Gamma's best alignment (Mathet, Widlöcher & Métivier 2015) cuts every document's
units into *unitary alignments*, each holding at most one unit of each annotator. A unit is

* **unmatched** when it is alone in its unitary alignment;
* otherwise compared with the other units of its unitary alignment: its **boundary** differs
  when one of them has another start or end, its **label** when one has another label; it
  is **partial** when some annotator has no unit in its unitary alignment (three or more
  annotators); and **matched** when none of these holds.

A unitary alignment takes the union of its units' marks. Documents are ordered worst first by
gamma (by the first F1 rule when gamma was not computed, then unitizing alpha, then token
alpha); labels worst first by the first F1 rule.

References
----------
Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The unified and holistic method gamma (γ)
for inter-annotator agreement measure and alignment. Computational Linguistics 41(3), 437-479.
docs/report.md, "Spans".
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..core.frames import TOTAL
from ..errors import ParameterError, option
from .agreement import SpanResults

__all__ = ["ALIGNMENT_FIELDS", "LEGEND", "STATUSES", "UNIT_FIELDS", "document_view",
           "span_view"]

#: The marks of a unit: one of these, or several of ``boundary``, ``label`` and ``partial``
#: joined by ``+`` (in this order). ``unaligned``: gamma was not computed, so there is no
#: alignment to compare with.
STATUSES = ("matched", "boundary", "label", "partial", "unmatched", "unaligned")

#: The fields of a unit's row: its offsets (``end`` exclusive), label, id as read, its text
#: where the document's text is known (None otherwise), its status (:data:`STATUSES`), the
#: index of its unitary alignment in the item's ``alignments`` (None: unaligned) and its row
#: number in the corpus (its identity in the results).
UNIT_FIELDS = ("start", "end", "label", "id", "text", "status", "alignment", "span")

#: The fields of a unitary alignment's row: the index of each annotator's unit in the item's
#: ``units`` of that annotator (None: no unit), gamma's number for it in the document, its
#: disorder, its status (the union of its units' marks) and the anchor of its difference
#: (None when matched).
ALIGNMENT_FIELDS = ("units", "unitary", "disorder", "status", "anchor")

#: The legend of the marks (CSS class of the view -> what it means).
LEGEND = [
    ["spans-st-matched", "aligned, same extent and label (solid frame)"],
    ["spans-st-boundary", "aligned with a unit of another extent (dashed frame, \u2194)"],
    ["spans-st-label", "aligned with a unit of another label (double frame, \u2260)"],
    ["spans-st-partial", "an annotator has no unit in its alignment (\u2026)"],
    ["spans-st-unmatched", "alone in its unitary alignment (dotted frame, \u2205)"],
]

#: What a difference of each mark is called in the list of differences.
KINDS = {"boundary": "boundary differs", "label": "label differs",
         "partial": "missing for some", "unmatched": "unmatched"}

#: The counts of units by mark, in the order of the columns (partial: three annotators or more).
_MARKS = ("matched", "boundary", "label", "unmatched", "partial")

#: The order of the measures that rank documents (the first one computed ranks them).
RANKING = ("gamma", "F1", "alpha_u", "token alpha")


def _number(x: Any) -> float | None:
    """A finite float, or None (NaN, None and infinities are undefined)."""
    if x is None or isinstance(x, bool):
        return None
    try:
        value = float(x)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def _missing(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _offset(x: Any) -> int | float:
    value = float(x)
    return int(value) if value.is_integer() else value


def _column(frame: pd.DataFrame, name: str, default: Any = None) -> list[Any]:
    return list(frame[name]) if name in frame.columns else [default] * len(frame)


def _figures(results: SpanResults) -> dict[Hashable, dict[str, float | None]]:
    """Document (TOTAL: pooled) -> its figures: ``gamma``, ``F1 RULE`` (micro, mean over the
    pairs of annotators), ``alpha_u`` (over every category; other unitizing coefficients
    under their names) and ``token alpha`` (BIO tags, every position)."""
    out: dict[Hashable, dict[str, float | None]] = {}
    f1 = results.f1
    if f1 is not None:
        for doc, rule, average, value in zip(f1["document"], f1["rule"], f1["average"],
                                             f1["f1"], strict=True):
            if average == "micro":
                out.setdefault(doc, {})[f"F1 {rule}"] = _number(value)
    g = results.gamma
    if g is not None:
        for doc, measure, category, value in zip(g["document"], _column(g, "measure", "gamma"),
                                                 _column(g, "category"), g["value"],
                                                 strict=True):
            if measure == "gamma" and _missing(category):
                out.setdefault(doc, {})["gamma"] = _number(value)
    u = results.unitizing
    if u is not None:
        for doc, coefficient, category, value in zip(
                u["document"], _column(u, "coefficient", "alpha_u"), u["category"], u["alpha"],
                strict=True):
            if _missing(category):
                name = "alpha_u" if _missing(coefficient) else str(coefficient)
                out.setdefault(doc, {})[name] = _number(value)
    t = results.tokens
    if t is not None:
        for doc, subset, measure, value in zip(t["document"], t["subset"], t["measure"],
                                               t["value"], strict=True):
            if subset == "all" and measure == "alpha":
                out.setdefault(doc, {})["token alpha"] = _number(value)
    return out


def _ranking(figures: dict[str, float | None], rules: Sequence[str]) -> str | None:
    """The figure that ranks the documents: the first of :data:`RANKING` computed."""
    for name in RANKING:
        names = [f"F1 {r}" for r in rules] if name == "F1" else [name]
        for n in names:
            if n in figures:
                return n
    return None


def _figure_rank(name: str) -> int:
    """Where a figure's column goes: gamma, F1, unitizing coefficients, token alpha."""
    if name == "gamma":
        return 0
    if name.startswith("F1 "):
        return 1
    return 3 if name == "token alpha" else 2


def _label_f1(results: SpanResults) -> dict[Hashable, dict[Any, dict[str, float | None]]]:
    """Document (TOTAL: pooled) -> label -> ``F1 RULE`` (mean over the pairs)."""
    out: dict[Hashable, dict[Any, dict[str, float | None]]] = {}
    f1 = results.f1
    if f1 is None:
        return out
    for doc, rule, label, average, value in zip(f1["document"], f1["rule"], f1["label"],
                                                f1["average"], f1["f1"], strict=True):
        if not average:
            out.setdefault(doc, {}).setdefault(label, {})[f"F1 {rule}"] = _number(value)
    return out


def _alignments(results: SpanResults) -> dict[Hashable, list[tuple[int, list[int | None],
                                                               float | None]]]:
    """Document -> its unitary alignments: (gamma's number, the span row of each annotator or
    None, the disorder)."""
    found = results.alignment
    out: dict[Hashable, list[tuple[int, list[int | None], float | None]]] = {}
    if found is None or not len(found):
        return out
    where = {a: i for i, a in enumerate(results.corpus.annotators)}
    n = len(where)
    index: dict[tuple[Hashable, int], int] = {}
    for doc, unitary, who, span, disorder in zip(found["document"], found["unitary"],
                                                 found["annotator"], found["span"],
                                                 found["disorder"], strict=True):
        key = (doc, int(unitary))
        if key not in index:
            rows = out.setdefault(doc, [])
            index[key] = len(rows)
            rows.append((int(unitary), [None] * n, _number(disorder)))
        if not _missing(span):
            out[doc][index[key]][1][where[who]] = int(span)
    return out


def _marks(members: list[tuple[int, tuple[Any, Any, Any]]], n: int) -> dict[int, str]:
    """Annotator -> the status of its unit, from the units (start, end, label) of one unitary
    alignment (``members``: annotator and unit; ``n``: how many annotators)."""
    if len(members) == 1:
        return {members[0][0]: "unmatched"}
    out = {}
    for a, (s, e, label) in members:
        flags = set()
        for b, (s2, e2, label2) in members:
            if b != a:
                if s2 != s or e2 != e:
                    flags.add("boundary")
                if label2 != label:
                    flags.add("label")
        if len(members) < n:
            flags.add("partial")
        out[a] = "+".join(f for f in ("boundary", "label", "partial") if f in flags) or "matched"
    return out


def _union(statuses: Iterable[str]) -> str:
    flags = {f for s in statuses for f in s.split("+")}
    if "unmatched" in flags:
        return "unmatched"
    return "+".join(f for f in ("boundary", "label", "partial") if f in flags) or "matched"


def _nice(x: float) -> float:
    """The smallest of 1, 2, 2.5, 5 times a power of ten that is at least ``x``."""
    if x <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(x))
    for step in (1, 2, 2.5, 5, 10):
        if step * power >= x * (1 - 1e-12):
            return step * power
    return 10 * power


def _character_rows(text: str, width: int) -> list[list[int]]:
    """Rows of a text: a newline ends a row, a longer line is cut after its last space
    within ``width`` characters (anywhere when it has none)."""
    rows: list[list[int]] = []
    start = 0
    for k, char in enumerate(text):
        if char == "\n":
            rows += _cut(text, start, k + 1, width)
            start = k + 1
    if start < len(text) or not rows:
        rows += _cut(text, start, len(text), width)
    return rows


def _cut(text: str, start: int, end: int, width: int) -> list[list[int]]:
    rows = []
    while end - start > width:
        space = text.rfind(" ", start, start + width)
        stop = space + 1 if space >= start else start + width
        rows.append([start, stop])
        start = stop
    rows.append([start, end])
    return rows


def _token_rows(tokens: Sequence[str], width: int) -> list[list[int]]:
    """Rows of tokens, each token ``len + 1`` characters wide, at most ``width`` wide (a
    longer token alone)."""
    rows: list[list[int]] = []
    start, used = 0, 0
    for k, token in enumerate(tokens):
        w = len(str(token)) + 1
        if k > start and used + w > width:
            rows.append([start, k])
            start, used = k, 0
        used += w
    rows.append([start, len(tokens)])
    return rows


def _position_rows(length: float, lengths: Sequence[float], width: int
                   ) -> tuple[list[list[float]], float]:
    """Rows of a continuum of ``length`` positions with no text, and the scale (characters of
    width per position): a unit of the median length is at least 4 characters wide, there
    are at most 400 rows, each spans a round number of positions."""
    length = length if length > 0 else 1.0  # nothing marked: an axis of one position
    marked = [x for x in lengths if x > 0]
    median = float(np.median(marked)) if marked else length / 10
    step = _nice(max(length / 400, min(length, width * median / 4)))
    count = max(1, math.ceil(length / step - 1e-9))
    rows = [[_offset(k * step), _offset((k + 1) * step)] for k in range(count)]
    return rows, width / step


def document_view(results: SpanResults, document: Hashable, item_id: str, *,
                  width: int = 100) -> dict[str, Any]:
    """One document as an item of the view: each annotator's units with their marks, the
    unitary alignments, the rows of the position axis, the figures and the differences.

    Parameters
    ----------
    results : SpanResults
        :func:`~clusteragree.spans.agreement.span_agreement` of the corpus (gamma gives the
        alignment; per document, its figures).
    document : hashable
        A document of ``results.corpus``.
    item_id : str
        The item's id in the page.
    width : int, default=100
        The width of a row, in characters (a character of the text is one, a token its
        length plus one).

    Returns
    -------
    dict
        ``id, name, document, order`` (worse is bigger: ``1 - `` the ranking figure, -1 when
        undefined), ``measure`` (the figure that ranks it), ``cells``, ``unit``, ``length``,
        ``text`` (characters) or ``tokens``, ``rows`` (``[start, end)`` of the axis),
        ``scale`` (characters of width per position; with no text), ``units`` per annotator
        (rows of :data:`UNIT_FIELDS`, by start, longest first), ``alignments`` (rows of
        :data:`ALIGNMENT_FIELDS`), ``labels`` (per label its F1 and units, worst first) and
        ``differences`` (each unitary alignment that is not matched, in reading order).

    Raises
    ------
    ParameterError
        A document the corpus does not have, a width under 10.

    References
    ----------
    docs/report.md, "Spans".

    Examples
    --------
    B's second unit ends one position later, and B has a third unit A lacks:

    >>> from clusteragree.core.spans import span_corpus
    >>> from clusteragree.spans.agreement import span_agreement
    >>> c = span_corpus([("A", "d", 0, 4, "PER"), ("A", "d", 10, 12, "LOC"),
    ...                  ("B", "d", 0, 4, "PER"), ("B", "d", 10, 13, "LOC"),
    ...                  ("B", "d", 16, 18, "LOC")], lengths={"d": 20})
    >>> item = document_view(span_agreement(c, ["gamma"], per_document=True), "d", "doc0")
    >>> [u[5] for u in item["units"]["A"]], [u[5] for u in item["units"]["B"]]
    (['matched', 'boundary'], ['matched', 'boundary', 'unmatched'])
    >>> [d["kind"] for d in item["differences"]]
    ['boundary differs', 'unmatched']
    """
    corpus = results.corpus
    if document not in corpus.documents:
        raise ParameterError(f"{option('document', document)}: the corpus has no such document",
                             params=("document",))
    if width < 10:
        raise ParameterError(f"{option('width', width)}: give 10 characters or more",
                             params=("width",))
    figures = _figures(results)
    by_label = _label_f1(results)
    return _item(results, document, item_id, corpus.in_document(document),
                 _alignments(results).get(document, []), figures.get(document, {}),
                 by_label.get(document, {}), width)


def _item(results: SpanResults, document: Hashable, item_id: str, spans: pd.DataFrame,
          found: list[tuple[int, list[int | None], float | None]],
          figures: dict[str, float | None], label_f1: dict[Any, dict[str, float | None]],
          width: int) -> dict[str, Any]:
    corpus = results.corpus
    names = [str(a) for a in corpus.annotators]
    n = len(names)
    source = (corpus.texts or {}).get(document) if corpus.whole else None
    text: str | None = None
    tokens: list[str] | None = None
    if source is not None and corpus.unit == "characters":
        text = source if isinstance(source, str) else "".join(map(str, source))
    elif source is not None and corpus.unit == "tokens":
        tokens = [str(t) for t in source]
    # each annotator's units, by start, longest first
    order = np.lexsort((np.arange(len(spans)), -spans["end"].to_numpy(dtype=float),
                       spans["start"].to_numpy(dtype=float)))
    ordered = spans.iloc[order]
    place: dict[int, tuple[int, int]] = {}  # span row -> (annotator, index in its units)
    units: list[list[list[Any]]] = [[] for _ in names]
    where = {a: i for i, a in enumerate(corpus.annotators)}
    for row, who, s, e, label, ident in zip(ordered.index, ordered["annotator"],
                                            ordered["start"], ordered["end"],
                                            ordered["label"], ordered["id"], strict=True):
        a = where[who]
        piece = None
        if text is not None:
            piece = text[int(s):int(e)]
        elif tokens is not None:
            piece = " ".join(tokens[int(s):int(e)])
        place[int(row)] = (a, len(units[a]))
        units[a].append([_offset(s), _offset(e), str(label), None if _missing(ident)
                         else str(ident), piece, "unaligned", None, int(row)])
    # the unitary alignments and the marks
    alignments: list[list[Any]] = []
    for unitary, spans_of, disorder in sorted(found, key=lambda f: f[0]):
        members = [place[r] for r in spans_of if r is not None and r in place]
        marks = _marks([(a, tuple(units[a][i][:3])) for a, i in members], n)
        picks: list[int | None] = [None] * n
        for a, i in members:
            picks[a] = i
            units[a][i][5] = marks[a]
            units[a][i][6] = len(alignments)
        status = _union(marks.values()) if marks else "matched"
        alignments.append([picks, unitary, disorder, status,
                           None if status == "matched" else f"a{unitary}"])
    differences = _differences(alignments, units, names)
    # rows of the axis
    ends = [u[1] for us in units for u in us]
    length = max([float((corpus.lengths or {}).get(document, 0)), *map(float, ends)])
    scale = None
    if text is not None:
        rows: list[list[Any]] = _character_rows(text, width)
    elif tokens is not None:
        rows = _token_rows(tokens, width)
    else:
        rows, scale = _position_rows(length, [u[1] - u[0] for us in units for u in us], width)
    # figures, counts, labels
    counts = Counter(f for us in units for u in us for f in u[5].split("+"))
    cells: dict[str, Any] = dict(figures)
    for name, mine in zip(names, units, strict=True):
        cells[f"units {name}"] = len(mine)
    if results.alignment is not None:
        cells.update({mark: counts.get(mark, 0) for mark in _MARKS[:4 if n < 3 else 5]})
    ranking = _ranking(figures, results.settings.get("rules", []))
    value = figures.get(ranking) if ranking else None
    return {"id": item_id, "name": str(document), "document": str(document),
            "order": -1.0 if value is None else 1.0 - value, "measure": ranking,
            "cells": cells, "unit": corpus.unit, "length": _offset(length),
            "text": text, "tokens": tokens, "rows": rows, "scale": scale,
            "units": dict(zip(names, units, strict=True)), "alignments": alignments,
            "labels": _label_rows(units, names, label_f1, results.settings.get("rules", [])),
            "differences": differences}


def _differences(alignments: list[list[Any]], units: list[list[list[Any]]],
                 names: list[str]) -> list[dict[str, Any]]:
    """Every unitary alignment that is not matched, in reading order."""
    out = []
    for picks, _, disorder, status, anchor in alignments:
        if anchor is None:
            continue
        present = [(a, units[a][i]) for a, i in enumerate(picks) if i is not None]
        parts = []
        for a, name in enumerate(names):
            i = picks[a]
            if i is None:
                parts.append(f"{name}: nothing")
                continue
            u = units[a][i]
            said = f" \u201c{_short(u[4])}\u201d" if u[4] is not None else ""
            parts.append(f"{name}: {u[0]}-{u[1]} {u[2]}{said}")
        kind = ", ".join(KINDS[f] for f in status.split("+"))
        text = " | ".join(parts) + ("" if disorder is None else f" (disorder {disorder:.4f})")
        first = min(float(u[0]) for _, u in present) if present else math.inf
        out.append((first, {"anchor": anchor, "kind": kind, "who": [a for a, _ in present],
                            "text": text}))
    out.sort(key=lambda x: x[0])
    return [d for _, d in out]


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


def _label_rows(units: list[list[list[Any]]], names: list[str],
                label_f1: dict[Any, dict[str, float | None]], rules: Sequence[str]
                ) -> list[dict[str, Any]]:
    """Per label: F1 of each rule, units of each annotator, units by mark; worst first (by
    the first rule's F1, undefined last; without F1, the most units not matched first)."""
    labels = list(dict.fromkeys([*(str(k) for k in label_f1),
                                 *(u[2] for us in units for u in us)]))
    f1 = {str(k): v for k, v in label_f1.items()}
    rows = []
    for label in labels:
        row: dict[str, Any] = {"label": label, **f1.get(label, {})}
        marks = Counter(f for us in units for u in us if u[2] == label
                        for f in u[5].split("+"))
        for name, mine in zip(names, units, strict=True):
            row[f"units {name}"] = sum(1 for u in mine if u[2] == label)
        row.update({"matched": marks.get("matched", 0), "not matched": sum(
            1 for us in units for u in us if u[2] == label and u[5] not in ("matched",
                                                                             "unaligned"))})
        rows.append(row)
    first = f"F1 {rules[0]}" if rules else None

    def key(row: dict[str, Any]) -> tuple[Any, ...]:
        value = row.get(first) if first else None
        if value is not None:
            return (0, value, row["label"])
        if first and first in row:  # undefined F1: last
            return (2, 0.0, row["label"])
        return (1, -row["not matched"], row["label"])
    return sorted(rows, key=key)


def span_view(results: SpanResults, *, width: int = 100) -> dict[str, Any]:
    """The side-by-side view of every document of a span corpus, the worst first.

    Parameters
    ----------
    results : SpanResults
        :func:`~clusteragree.spans.agreement.span_agreement` of the corpus, ideally with
        ``per_document=True`` (the figures that order the documents) and gamma (its best
        alignment links the strips and gives the marks; without it the units are drawn
        unaligned).
    width : int, default=100
        The width of a row, in characters.

    Returns
    -------
    dict
        The view: ``kind`` ``"spans"``, ``title``, ``annotators``, ``legend``, ``columns``
        (of the items' cells), ``unit``, ``aligned`` (whether gamma's alignment is there),
        ``tables`` (the labels, worst first, pooled over the documents) and ``items``
        (:func:`document_view` of each document, worst first; ties in the corpus's order).

    Raises
    ------
    ParameterError
        A width under 10.

    References
    ----------
    docs/report.md, "Spans".

    Examples
    --------
    >>> from clusteragree.core.spans import span_corpus
    >>> from clusteragree.spans.agreement import span_agreement
    >>> c = span_corpus([("A", "d1", 0, 4, "x"), ("B", "d1", 0, 4, "x"),
    ...                  ("A", "d2", 0, 4, "x"), ("B", "d2", 5, 9, "x")])
    >>> view = span_view(span_agreement(c, ["f1"], per_document=True))
    >>> [(i["document"], i["measure"], i["order"]) for i in view["items"]]
    [('d2', 'F1 exact', 1.0), ('d1', 'F1 exact', 0.0)]
    """
    if width < 10:
        raise ParameterError(f"{option('width', width)}: give 10 characters or more",
                             params=("width",))
    corpus = results.corpus
    names = [str(a) for a in corpus.annotators]
    figures = _figures(results)
    by_label = _label_f1(results)
    aligned = _alignments(results)
    groups: dict[Hashable, pd.DataFrame] = dict(iter(corpus.spans.groupby("document",
                                                                           sort=False)))
    empty = corpus.spans.iloc[:0]
    items = [_item(results, doc, f"doc{k}", groups.get(doc, empty), aligned.get(doc, []),
                   figures.get(doc, {}), by_label.get(doc, {}), width)
             for k, doc in enumerate(corpus.documents)]
    position = {item["id"]: k for k, item in enumerate(items)}
    items.sort(key=lambda item: (-item["order"], position[item["id"]]))
    pooled_units = [[u for i in items for u in i["units"][n]] for n in names]
    labels = _label_rows(pooled_units, names, by_label.get(TOTAL, {}),
                         results.settings.get("rules", []))
    shown = [k for doc in corpus.documents for k in figures.get(doc, {})]
    marks = _MARKS[:4 if len(names) < 3 else 5] if results.alignment is not None else ()
    columns = list(dict.fromkeys([*sorted(shown, key=_figure_rank),
                                  *(f"units {n}" for n in names), *marks]))
    return {"kind": "spans", "title": "the spans side by side", "annotators": names,
            "legend": LEGEND, "columns": columns, "unit": corpus.unit,
            "aligned": results.alignment is not None,
            "tables": [{"title": "labels, the worst first (pooled over the documents)",
                        "rows": labels}],
            "items": items}
