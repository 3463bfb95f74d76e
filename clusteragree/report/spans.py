"""What the page shows of ``clusteragree spans``'s records (docs/schema/clusteragree-1.json:
``span_match``, ``span_match_mean``, ``token_agreement``, ``unitizing``, ``gamma``,
``aligned_unit``) beside its side-by-side view: each document's figures for the documents
table, the measure that ranks them, the chart of that measure per document, and the links of
the alignment table to the units in the text.

The records are read as they are written, and defensively: gamma rows may come pooled
(``document`` null) or per document only, with a ``measure`` other than ``gamma`` (gamma-cat,
gamma-k, per ``category``); unitizing rows may name another ``coefficient``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .charts import Dot, dot_chart

__all__ = ["SPAN_KINDS", "span_alignments", "span_chart", "span_documents"]

#: The record kinds of ``clusteragree spans``.
SPAN_KINDS = ("span_match", "span_match_mean", "token_agreement", "unitizing", "gamma",
              "aligned_unit")


def _finite(x: Any) -> float | None:
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) and \
        math.isfinite(x) else None


def span_documents(records: Sequence[Mapping[str, Any]]
                   ) -> tuple[dict[str, dict[str, Any]], str | None]:
    """Each document's figures (``gamma``, ``F1 RULE`` micro mean over the pairs, the
    unitizing coefficients over every category, ``token alpha`` over every position,
    ``units``), and the column that ranks them (gamma, else the first F1 rule, else
    unitizing alpha, else token alpha; None without spans records).

    Examples
    --------
    >>> rows, first = span_documents([
    ...     {"kind": "gamma", "document": "d", "measure": "gamma", "category": None,
    ...      "value": 0.5, "units": 4},
    ...     {"kind": "span_match_mean", "document": "d", "rule": "exact", "average": "micro",
    ...      "label": None, "f1": 0.25}])
    >>> rows["d"], first
    ({'gamma': 0.5, 'units': 4, 'F1 exact': 0.25}, 'gamma')
    """
    rows: dict[str, dict[str, Any]] = {}
    rules: list[str] = []
    coefficients: list[str] = []
    for r in records:
        kind, doc = r.get("kind"), r.get("document")
        if kind not in SPAN_KINDS or doc is None:
            continue
        row = rows.setdefault(str(doc), {})
        if kind == "gamma" and r.get("measure", "gamma") == "gamma" and r.get(
                "category") is None:
            row["gamma"] = _finite(r.get("value"))
            if r.get("units") is not None:
                row["units"] = r.get("units")
        elif kind == "span_match_mean" and r.get("average") == "micro":
            rule = str(r.get("rule"))
            rules += [rule] if rule not in rules else []
            row[f"F1 {rule}"] = _finite(r.get("f1"))
        elif kind == "unitizing" and r.get("category") is None:
            name = str(r.get("coefficient") or "alpha_u")
            coefficients += [name] if name not in coefficients else []
            row[name] = _finite(r.get("alpha"))
        elif kind == "token_agreement" and r.get("subset") == "all" and r.get(
                "measure") == "alpha":
            row["token alpha"] = _finite(r.get("value"))
    rows = {d: row for d, row in rows.items() if row}
    present = {k for row in rows.values() for k in row}
    ranking = [c for c in ("gamma", *(f"F1 {r}" for r in rules), *coefficients,
                           "token alpha") if c in present]
    return rows, (ranking[0] if ranking else None)


def span_chart(records: Sequence[Mapping[str, Any]], items: Mapping[str, str]
               ) -> tuple[str, str] | None:
    """The title and the chart of the ranking figure per document (dots sorted from the
    lowest; no threshold line: 0.667 and 0.8 are alpha's), or None with fewer than two
    documents.

    Examples
    --------
    >>> title, svg = span_chart([{"kind": "gamma", "document": d, "measure": "gamma",
    ...     "category": None, "value": v} for d, v in (("a", .2), ("b", .9))], {"a": "doc0"})
    >>> title, svg.count('class="dot"'), 'class="ref"' in svg, "#open=doc0" in svg
    ('gamma per document', 2, False, True)
    """
    rows, first = span_documents(records)
    if first is None or len(rows) < 2:
        return None
    dots = [Dot(doc, row.get(first), href=f"#open={items[doc]}" if doc in items else None)
            for doc, row in rows.items()]
    click = " Click a dot to open the document." if items else ""
    return f"{first} per document", (
        f"<p class='meta'>Each dot a document, sorted from the lowest.{click}</p>"
        + dot_chart(dots, title=f"{first} per document", thresholds=()))


def span_alignments(records: Sequence[Mapping[str, Any]], items: Mapping[str, str]
                    ) -> tuple[list[dict[str, Any]], int]:
    """The unitary alignments of gamma's best alignment (``aligned_unit`` records) whose
    units differ, one row each: its document, gamma's number for it, its disorder, each
    annotator's unit (``start-end label``, empty where it has none) and a link to it in the
    text (the view marks each unit with ``data-pos="alK"``, K gamma's number); and how many
    unitary alignments there are in all. Units differ when an annotator has none or their
    starts, ends or labels are not all the same.

    Examples
    --------
    >>> rows, total = span_alignments([
    ...     {"kind": "aligned_unit", "document": "d", "unitary": 0, "annotator": "A",
    ...      "start": 0, "end": 4, "label": "x", "disorder": 0.0},
    ...     {"kind": "aligned_unit", "document": "d", "unitary": 0, "annotator": "B",
    ...      "start": 0, "end": 4, "label": "x", "disorder": 0.0},
    ...     {"kind": "aligned_unit", "document": "d", "unitary": 1, "annotator": "A",
    ...      "start": 6, "end": 9, "label": "x", "disorder": 1.0},
    ...     {"kind": "aligned_unit", "document": "d", "unitary": 1, "annotator": "B",
    ...      "start": None, "end": None, "label": None, "disorder": 1.0}], {"d": "doc0"})
    >>> total, [(r["unitary"], r["A"], r["B"], r["where"]["href"]) for r in rows]
    (2, [(1, '6-9 x', '', '#open=doc0&at=pos-al1')])
    """
    groups: dict[tuple[str, Any], list[Mapping[str, Any]]] = {}
    names: list[str] = []
    for r in records:
        if r.get("kind") == "aligned_unit":
            groups.setdefault((str(r.get("document")), r.get("unitary")), []).append(r)
            who = str(r.get("annotator"))
            names += [who] if who not in names else []
    rows = []
    for (doc, unitary), units in groups.items():
        present = [u for u in units if u.get("start") is not None]
        if len(present) == len(names) and len({(u.get("start"), u.get("end"), u.get("label"))
                                                for u in present}) == 1:
            continue
        row: dict[str, Any] = {"document": doc, "unitary": unitary,
                               "disorder": _finite(units[0].get("disorder"))}
        for u in units:
            row[str(u.get("annotator"))] = "" if u.get("start") is None else \
                f"{u['start']}-{u['end']} {u.get('label')}"
        if doc in items:
            row["where"] = {"text": "show", "href": f"#open={items[doc]}&at=pos-al{unitary}",
                            "title": "the unitary alignment in the text"}
        rows.append(row)
    return rows, len(groups)
