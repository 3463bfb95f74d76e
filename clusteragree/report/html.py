"""One self-contained HTML page from a command's JSON output, made for adjudicating: the
headline figures with what they mean, a table of contents, a documents table (least reliable
first; sort, filter, open), charts written as SVG by the report itself, the annotations side by
side drawn on demand in the page (plain data the domains build, e.g.
:mod:`clusteragree.coref.sidebyside`), the units
that disagree most for each distance, every other result as a table, and the warnings.

The page needs no network and no library: its script and style are the files of
``clusteragree/report/assets`` inlined, its data one JSON block.
"""

from __future__ import annotations

import datetime
import html
import json
import math
import re
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from .._version import __version__
from ..core.intervals import NAMES
from .charts import Dot, bar_chart, dot_chart, heat_table
from .headline import explanations, figures, inputs_summary
from .spans import span_alignments, span_chart, span_documents

__all__ = ["TABLES", "html_report", "validation_section"]

#: Record kinds shown as tables, with their titles (the others are charts or the headline).
TABLES = {
    "metric": "coreference metrics",
    "difference_count": "where the annotators differ (Kummerfeld and Klein's categories)",
    "coref_difference": "the differences, one by one",
    "measure": "multi-label measures",
    "kappa": "chance-corrected agreement",
    "score": "pyramid scores of the peers",
    "correlation": "correlation of the annotators' scores",
    "scu_match": "SCUs matched between the two pyramids",
    "scu_link": "SCUs split on one side and merged on the other",
    "scu_only": "SCUs only one pyramid has",
    "unmarked_word": "words in an SCU on one side only",
    "sentence_difference": "sentences where the trees differ most",
    "category": "each category against the rest",
    "span_match_mean": "matching F1, mean over the pairs",
    "span_match": "matching F1 of each pair",
    "token_agreement": "token-level kappa and alpha",
    "unitizing": "unitizing alpha",
    "gamma": "gamma",
}

KIND_TITLES = {"difference_count": "differences by category"}

#: The class of a legend's sample mark, for the views whose legend shows one.
SAMPLES = {"chains": "chains-m", "spans": "spans-key"}


def _asset(name: str) -> str:
    return resources.files("clusteragree.report").joinpath(f"assets/{name}").read_text(
        encoding="utf-8")


def _plain(value: Any) -> Any:
    """A cell as the page's tables take it: numbers, text, None; lists and mappings as text."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_plain(v)) for v in value)
    if isinstance(value, Mapping):
        return "; ".join(f"{k}: {_plain(v)}" for k, v in value.items())
    return value


def _flat(record: Mapping[str, Any], skip: Sequence[str] = ("kind",)) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in record.items():
        if k in skip:
            continue
        if isinstance(v, Mapping) and k not in ("codes",):
            for k2, v2 in v.items():
                out[f"{k} {k2}"] = _plain(v2)
        else:
            out[k] = _plain(v)
    return out


def _spec(rows: Sequence[Mapping[str, Any]], *, sort: str | None = None, desc: bool = False,
          labels: Mapping[str, str] | None = None, order: Sequence[str] = ()
          ) -> dict[str, Any]:
    keys: list[str] = [k for k in order]
    for r in rows:
        keys += [k for k in r if k not in keys]
    keys = [k for k in keys if any(r.get(k) not in (None, "") for r in rows) or k in order]
    return {"columns": [{"key": k, "label": (labels or {}).get(k, k.replace("_", " "))}
                        for k in keys],
            "rows": [[r.get(k) for k in keys] for r in rows], "sort": sort, "desc": desc}


def _anchor(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


class _Page:
    """The sections of a page and the data of its tables, as they are added."""

    def __init__(self) -> None:
        self.sections: list[tuple[str, str, str]] = []
        self.tables: dict[str, Any] = {}

    def table(self, spec: Mapping[str, Any]) -> str:
        key = f"t{len(self.tables)}"
        self.tables[key] = spec
        return f'<div class="ca-table-box" data-ca-table="{key}"></div>'

    def add(self, title: str, body: str, ident: str | None = None) -> None:
        ident = ident or _anchor(title)
        while any(s[0] == ident for s in self.sections):
            ident += "-2"
        self.sections.append((ident, title, body))


def _item_index(views: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Document name -> the id of its item (the first view whose items are documents)."""
    out: dict[str, str] = {}
    for view in views:
        for item in view.get("items", []):
            if item.get("document") is not None and str(item["document"]) not in out \
                    and item.get("name") == item.get("document"):
                out[str(item["document"])] = str(item["id"])
    return out


def _documents(records: Sequence[Mapping[str, Any]], items: Mapping[str, str],
               page: _Page) -> None:
    """The documents table and the chart of alpha per document."""
    per_doc = _per_document(records)
    counts = [r for r in records if r.get("kind") == "difference_count"
              and r.get("document") is not None]
    rows: dict[str, dict[str, Any]] = {}
    distances = _distance_order(records, per_doc)
    for r in per_doc:
        doc, dist = str(r.get("document")), str(r.get("distance"))
        row = rows.setdefault(doc, {"document": doc})
        row[f"alpha {dist}"] = _plain(r.get("alpha"))
        ci = r.get("ci")
        if isinstance(ci, list) and len(ci) == 2:
            row[f"interval {dist}"] = {"text": f"[{_cell(ci[0])}, {_cell(ci[1])}]",
                                       "sort": _plain(ci[0])}
        if r.get("n") is not None:
            row["pairable values"] = r.get("n")
    f1: dict[str, list[float]] = {}
    for r in records:
        if r.get("kind") == "metric" and r.get("metric") == "conll" and r.get(
                "document") is not None and _num(r.get("f1")) is not None:
            f1.setdefault(str(r["document"]), []).append(float(r["f1"]))
    for doc, values in f1.items():
        row = rows.setdefault(doc, {"document": doc})
        row["CoNLL F1" + (" (mean of the pairs)" if len(values) > 1 else "")] = sum(
            values) / len(values)
    for r in counts:
        row = rows.setdefault(str(r["document"]), {"document": str(r["document"])})
        row[str(r["category"])] = row.get(str(r["category"]), 0) + int(r.get("count") or 0)
        row["differences"] = row.get("differences", 0) + int(r.get("count") or 0)
    spans, ranking = span_documents(records)
    for doc, figures_of in spans.items():
        rows.setdefault(doc, {"document": doc}).update(figures_of)
    if not rows:
        return
    for doc, row in rows.items():
        if doc in items:
            row["document"] = {"text": doc, "href": f"#open={items[doc]}",
                               "title": "open the annotations side by side"}
    first = f"alpha {distances[0]}" if distances else ranking or "differences"
    spec = _spec(list(rows.values()), sort=first, desc=not (distances or ranking),
                 order=["document", *(f"alpha {d}" for d in distances),
                        *([ranking] if ranking else [])])
    note = ("<p class='meta'>Least reliable first. Click a heading to sort, type to filter, "
            "click a document to open its annotations side by side.</p>" if items else
            "<p class='meta'>Least reliable first. Click a heading to sort, type to filter.</p>")
    page.add(f"documents ({len(rows):,})", note + page.table(spec), "documents")


def _per_document_chart(records: Sequence[Mapping[str, Any]], items: Mapping[str, str],
                        page: _Page) -> None:
    """Alpha per document as sorted dots, one chart per distance."""
    per_doc = _per_document(records)
    distances = _distance_order(records, per_doc)
    charts = []
    for dist in distances:
        dots = [Dot(str(r.get("document")), _num(r.get("alpha")),
                    *(_interval(r)), href=(f"#open={items[str(r.get('document'))]}"
                                           if str(r.get("document")) in items else None))
                for r in per_doc if str(r.get("distance")) == dist]
        width, height = (960, 240) if len(distances) == 1 else (520, 220)
        charts.append(f"<div><h3>{html.escape(dist)}</h3>" + dot_chart(
            dots, title=f"alpha ({dist}) per document", width=width, height=height)
            + "</div>")
    spans = span_chart(records, items)
    if spans:
        page.add(*spans, "per-document")
    if charts:
        click = " Click a dot to open the document." if items else ""
        page.add("alpha per document", "<p class='meta'>Each dot a document, sorted from the "
                 "lowest; whiskers: its interval where there is one; dashed: 0.667 and 0.8."
                 f"{click}</p><div class='charts'>" + "".join(charts)
                 + "</div>", "per-document")


def _per_document(records: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The records of alpha per document: ``document`` records, else the alpha rows that are
    not pooled (of all the annotators)."""
    return [r for r in records if r.get("kind") == "document"] or [
        r for r in records if r.get("kind") == "alpha" and r.get("pooled") is False
        and r.get("pair", "all") == "all"]


def _distance_order(records: Sequence[Mapping[str, Any]],
                    per_doc: Sequence[Mapping[str, Any]]) -> list[str]:
    """The distances of the per-document rows, in the order of the pooled results."""
    order: list[str] = []
    for r in [*records, *per_doc]:
        if r.get("kind") in ("alpha", "document") and str(r.get("distance")) not in order:
            order.append(str(r.get("distance")))
    present = {str(r.get("distance")) for r in per_doc}
    return [d for d in order if d in present]


def _num(x: Any) -> float | None:
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(
        x) else None


def _interval(r: Mapping[str, Any]) -> tuple[float | None, float | None]:
    ci = r.get("ci")
    if isinstance(ci, list) and len(ci) == 2:
        return _num(ci[0]), _num(ci[1])
    return None, None


def _cell(x: Any) -> str:
    return f"{x:.4f}" if _num(x) is not None else "undefined"


def _matrices(records: Sequence[Mapping[str, Any]], page: _Page) -> None:
    coincidences = [r for r in records if r.get("kind") == "coincidence"]
    if coincidences:
        values = [str(r["value"]) for r in coincidences]
        cells = [[_num(r["row"].get(v)) for v in values] for r in coincidences]
        page.add("coincidences", "<p class='meta'>How often each pair of values was given "
                 "to the same unit by two annotators (Krippendorff's o<sub>vw</sub>); off the "
                 "diagonal: confusions.</p>" + heat_table(values, values, cells,
                                                          title="coincidences"))
    annotators = [r for r in records if r.get("kind") == "annotator"]
    if annotators:
        names = [str(r["coder"]) for r in annotators]
        cells = [[None if a == b else _num(r["pairwise"].get(b)) for b in names]
                 for a, r in zip(names, annotators, strict=True)]
        without = "".join(f"<li>without {html.escape(str(r['coder']))}: "
                          f"{_cell(r.get('alpha_without'))} (change {_cell(r.get('change'))})"
                          "</li>" for r in annotators)
        page.add("pairs of annotators", heat_table(names, names, cells,
                                                   title="alpha of every pair of annotators")
                 + f"<ul class='meta'>{without}</ul>")


def _differences_chart(records: Sequence[Mapping[str, Any]], page: _Page) -> None:
    pooled = [r for r in records if r.get("kind") == "difference_count"
              and r.get("document") is None]
    if not pooled:
        return
    pairs: dict[tuple[str, str], list[tuple[str, float]]] = {}
    for r in pooled:
        pairs.setdefault((str(r["key"]), str(r["response"])), []).append(
            (str(r["category"]).replace("_", " "), float(r.get("count") or 0)))
    charts = [(f"<h3>{html.escape(key)} as key, {html.escape(response)} as response</h3>"
               if len(pairs) > 1 else "") + bar_chart(bars, title=f"differences, {key} / "
                                                      f"{response}", width=720)
              for (key, response), bars in pairs.items()]
    page.add("differences by category", "<p class='meta'>Kummerfeld and Klein's categories, "
             "counted over every document; the first annotator named is the key.</p>"
             + "".join(charts))


def _units(records: Sequence[Mapping[str, Any]], items: Mapping[str, str],
           page: _Page, positioned: bool = False) -> None:
    """The units that disagree most, a table per distance; with ``positioned`` (the view
    marks its elements with ``data-pos``, the units' positions) each unit links to its place."""
    units = [r for r in records if r.get("kind") == "unit"]
    if not units:
        return
    by_distance: dict[str, list[Mapping[str, Any]]] = {}
    for r in units:
        by_distance.setdefault(str(r.get("distance", "")), []).append(r)
    body = ["<p class='meta'>For each distance, the units whose disagreement adds most to "
            "the observed disagreement D<sub>o</sub>, and what each annotator gave them.</p>"]
    for distance, rows in by_distance.items():
        shown = []
        for r in rows:
            row: dict[str, Any] = {}
            if r.get("rank") is not None:
                row["rank"] = r["rank"]
            doc = r.get("document")
            unit: Any = str(r.get("unit"))
            if doc is not None and str(doc) in items:
                place = r.get("position")
                at = (f"&at=pos-{place[0]}-{place[-1]}" if positioned and isinstance(
                    place, list) and place else "")
                unit = {"text": unit, "href": f"#open={items[str(doc)]}{at}",
                        "title": "the unit in its document, side by side"}
            row["unit"] = unit
            if doc is not None:
                row["document"] = str(doc)
            row.update({"values": r.get("values"), "disagreement": _plain(r.get(
                "disagreement")), "share of D_o": _plain(r.get("share"))})
            row.update({str(k): _plain(v) for k, v in (r.get("codes") or {}).items()})
            shown.append(row)
        title = f"<h3>{html.escape(distance)}</h3>" if distance else ""
        body.append(title + page.table(_spec(shown)))
    page.add("units that disagree most", "".join(body), "units")


def _result_tables(records: Sequence[Mapping[str, Any]], items: Mapping[str, str],
                   page: _Page, named: Mapping[str, str] | None = None) -> None:
    """Every other kind of record as a table; a difference of coreference links to its place
    in its document, a sentence to its trees (``named``: item name -> id)."""
    running: dict[str, int] = {}
    named = named or {}
    for kind, title in TABLES.items():
        rows = [r for r in records if r.get("kind") == kind]
        if any("document" in r and r["document"] is None for r in rows):
            rows = [r for r in rows if r["document"] is None]
            title += " (pooled over the documents)"
        if not rows:
            continue
        flat = []
        for r in rows:
            row = _flat(r)
            if kind == "coref_difference":
                doc = str(r.get("document"))
                k = running.get(doc, 0)
                running[doc] = k + 1
                if doc in items:
                    row["where"] = {"text": "show", "href": f"#open={items[doc]}&at=d{k}",
                                    "title": "the difference in the text"}
            elif kind == "sentence_difference" and str(r.get("sentence")) in named:
                row["where"] = {"text": "show", "href": f"#open={named[str(r['sentence'])]}",
                                "title": "the trees side by side"}
            flat.append(row)
        order = ["where"] if any("where" in row for row in flat) else []
        page.add(title, page.table(_spec(flat, order=order)), _anchor(kind))
    differing, total = span_alignments(records, items)
    if total:
        said = (f"{len(differing):,} of the {total:,} unitary alignments of gamma's best "
                "alignment, the largest disorder first (an annotator has no unit in it, or the "
                "units' starts, ends or labels differ); \"show\" opens it in the text."
                if differing else f"The units of all {total:,} unitary alignments of gamma's "
                "best alignment have the same start, end and label.")
        page.add("gamma's alignment: where the units differ", f"<p class='meta'>{said}</p>"
                 + (page.table(_spec(differing, order=["where"], sort="disorder", desc=True))
                    if differing else ""), "aligned-unit")


def _alpha_rows(records: Sequence[Mapping[str, Any]], page: _Page) -> None:
    alphas = [r for r in records if r.get("kind") == "alpha"]
    title = "alpha, every row"
    if any(s[0] == "documents" for s in page.sections) and any(
            r.get("pooled") is False for r in alphas):
        alphas = [r for r in alphas if r.get("pooled") is not False]
        title = "alpha, every pooled row (the documents' rows are in the documents table)"
    if not alphas:
        return
    rows = []
    for r in alphas:
        row = _flat(r, skip=("kind", "bootstrap", "p_below", "ci", "signature", "se"))
        low, high = _interval(r)
        if low is not None:
            method = NAMES.get(str((r.get("bootstrap") or {}).get("method")), "")
            row["interval"] = {"text": f"[{_cell(low)}, {_cell(high)}] {method}", "sort": low}
        below = r.get("p_below")
        if isinstance(below, Mapping):
            row["P(<0.667)"], row["P(<0.8)"] = _plain(below.get("0.667")), _plain(
                below.get("0.8"))
        rows.append(row)
    page.add(title, page.table(_spec(rows, order=["distance", "alpha"])), "alpha-rows")


def _views(views: Sequence[Mapping[str, Any]], has_documents: bool, page: _Page) -> None:
    for view in views:
        items = view.get("items", [])
        sample = SAMPLES.get(str(view.get("kind")))
        legend = "".join(f"<span><span class='{html.escape(c)} {sample}'>sample</span> "
                         f"{html.escape(t)}</span>" if sample else
                         f"<span class='{html.escape(c)}'>{html.escape(t)}</span>"
                         for c, t in view.get("legend", []))
        body = [f"<div class='legend'>{legend}</div>" if legend else ""]
        for extra in view.get("tables", []):
            if extra.get("rows"):
                body.append(f"<h3>{html.escape(str(extra.get('title', '')))}</h3>"
                            + page.table(_spec([{k: _plain(v) for k, v in r.items()}
                                                for r in extra["rows"]])))
        as_documents = all(i.get("name") == i.get("document") for i in items)
        if not (as_documents and has_documents):
            rows = [{"name": {"text": str(i.get("name")), "href": f"#open={i['id']}"},
                     **({"document": i.get("document")} if not as_documents else {}),
                     **{c: _plain((i.get("cells") or {}).get(c)) for c in view.get(
                         "columns", [])}} for i in items]
            body.append("<p class='meta'>Worst first. Click a name to open it.</p>"
                        + page.table(_spec(rows)))
        else:
            body.append("<p class='meta'>Open a document from the documents table (or a dot "
                        "of the chart).</p>")
        if items:
            body.append(f"<p><a href='#open={html.escape(str(items[0]['id']))}'>open the "
                        f"first ({html.escape(str(items[0].get('name')))})</a></p>")
        if view is views[0]:
            body.append("<div id='ca-viewer-section'><div id='ca-viewer'><p class='meta'>"
                        "Nothing open yet.</p></div></div>")
        page.add(str(view.get("title") or "side by side"), "".join(body),
                 f"view-{view.get('kind')}")


def _json_script(data: Any) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def validation_section(records: Sequence[Mapping[str, Any]], inputs: Sequence[str]) -> str:
    """The validation of the inputs as HTML (``validate``'s ``incident`` and ``test`` records):
    per input, its counts by class and its incidents; empty when there is nothing to say.

    Examples
    --------
    >>> rec = {"kind": "incident", "test": "coref-crossing-mentions", "level": 2,
    ...        "class": "warning", "domain": "coref", "file": "a.conll", "line": 3,
    ...        "sentence": "d1", "node": None, "annotator": None, "count": 1,
    ...        "message": "mentions 1-3 and 2-4 cross"}
    >>> out = validation_section([rec], ["a.conll", "b.conll"])
    >>> "1 warning" in out, "cross" in out, "b.conll</code>: nothing to report" in out
    (True, True, True)
    >>> validation_section([], ["a.conll"])
    ''
    """
    incidents = [r for r in records if r.get("kind") == "incident"]
    tests = [r for r in records if r.get("kind") == "test"]
    if not incidents:
        return ""
    parts = []
    named = [str(p) for p in inputs]
    by_file: dict[str, list[Mapping[str, Any]]] = {}
    for r in incidents:
        key = str(r.get("file")) if r.get("file") in named else "across the inputs"
        by_file.setdefault(key, []).append(r)
    for key in [*named, "across the inputs"]:
        found = by_file.get(key, [])
        if not found:
            if key != "across the inputs":
                parts.append(f"<p class='meta'><code>{html.escape(key)}</code>: nothing to "
                             "report</p>")
            continue
        counts = {c: sum(int(r.get("count", 1)) for r in found if r.get("class") == c)
                  for c in ("error", "warning", "information")}
        said = ", ".join(f"{n} {c}{'s' if n != 1 and c != 'information' else ''}"
                         for c, n in counts.items() if n)
        rows = "".join(
            f"<tr class='{html.escape(str(r.get('class')))}'><td>{html.escape(str(r.get('class')))}"
            f"</td><td>L{r.get('level')}</td><td><code>{html.escape(str(r.get('test')))}</code>"
            f"</td><td>{html.escape(_place(r))}</td><td>{html.escape(str(r.get('message')))}"
            f"{'' if int(r.get('count', 1)) == 1 else ' (' + str(r.get('count')) + ' times)'}"
            "</td></tr>" for r in found)
        parts.append(f"<details{' open' if counts['error'] else ''}><summary><code>"
                     f"{html.escape(key)}</code>: {said}</summary><table class='incidents'>"
                     "<thead><tr><th>class</th><th>level</th><th>test</th><th>place</th>"
                     f"<th>what</th></tr></thead><tbody>{rows}</tbody></table></details>")
    hidden = sum(int(t.get("incidents", 0)) - int(t.get("shown", 0)) for t in tests)
    if hidden > 0:
        parts.append(f"<p class='meta'>{hidden} more incident(s) counted, not listed: "
                     "<code>clusteragree validate</code> with <code>--max-err 0</code> lists "
                     "them all.</p>")
    return "".join(parts)


def _place(r: Mapping[str, Any]) -> str:
    bits = [f"line {r['line']}" if r.get("line") is not None else ""]
    bits += [f"{name} {r[key]}" for key, name in (("sentence", "sentence"), ("node", "node"),
                                                   ("annotator", "annotator"))
             if r.get(key) is not None]
    return ", ".join(b for b in bits if b)


def html_report(envelope: Mapping[str, Any], views: Sequence[Mapping[str, Any]] = (),
                *, title: str | None = None,
                validation: Sequence[Mapping[str, Any]] = ()) -> str:
    """The HTML page of a command's JSON output (:func:`~clusteragree.report.schema.envelope`).

    Parameters
    ----------
    envelope : mapping
        What the command writes with ``-f json``: ``command``, ``inputs``, ``signature``,
        ``results``, ``warnings``.
    views : sequence of mapping
        Side-by-side views: plain data (``kind``, ``title``, ``annotators``, ``legend``,
        ``columns``, ``items``) drawn in the page by the renderer of their kind
        (docs/report.md, "Side by side").
    title : str, optional
        The page's title (default: the command).
    validation : sequence of mapping, optional
        ``validate``'s records on the same inputs: a section before the figures when they
        hold any incident (:func:`validation_section`).

    Returns
    -------
    str
        A complete HTML document with inline CSS, script and data.

    References
    ----------
    docs/report.md; docs/schema/clusteragree-1.json (the records).

    Examples
    --------
    >>> page = html_report({"command": "table", "inputs": ["a.csv"], "signature": "s",
    ...                     "results": [{"kind": "alpha", "distance": "nominal", "alpha": 0.5,
    ...                                  "pooled": True, "coders": 2, "units": 4}],
    ...                     "warnings": []})
    >>> page.startswith("<!DOCTYPE html>"), "0.5000" in page, "below 0.667" in page
    (True, True, True)
    """
    records = list(envelope.get("results", []))
    views = [v for v in views if v and v.get("items")]
    command = str(envelope.get("command", ""))
    name = title or f"clusteragree {command}"
    page = _Page()
    items = _item_index(views)
    _documents(records, items, page)
    has_documents = any(s[0] == "documents" for s in page.sections)
    _views(views, has_documents, page)
    _per_document_chart(records, items, page)
    _differences_chart(records, page)
    _matrices(records, page)
    _units(records, items, page,
           positioned=any(v.get("kind") in ("chains", "pyramids") for v in views))
    named = {str(i.get("name")): str(i["id"]) for v in views for i in v.get("items", [])}
    _result_tables(records, items, page, named)
    _alpha_rows(records, page)
    warnings = envelope.get("warnings", [])
    if warnings:
        page.add(f"warnings ({len(warnings)})", page.table(_spec(
            [{k: _plain(v) for k, v in w.items()} for w in warnings])), "warnings")
    blocks = figures(records)
    head = [f"<h1>{html.escape(name)}</h1>", inputs_summary(envelope.get("inputs", []))]
    checked = validation_section(validation, envelope.get("inputs", []))
    if checked:
        head.append(f"<section class='validation' id='validation'><h2>validation</h2>"
                    f"{checked}</section>")
    if blocks:
        head.append("<section class='headline' id='headline'><div class='figures'>"
                    + "".join(blocks) + "</div>" + explanations(records) + "</section>")
    toc = "".join(f"<a href='#{i}'>{html.escape(t)}</a>" for i, t, _ in page.sections)
    head.append(f"<nav class='toc' aria-label='contents'>{toc}</nav>")
    body = [f"<section id='{i}'><h2>{html.escape(t)}</h2>{b}</section>"
            for i, t, b in page.sections]
    body.append(f"<footer><h2>reproduce</h2><p class='meta'>clusteragree {__version__}, "
                f"{datetime.date.today().isoformat()}</p><details><summary>signature of the "
                f"run</summary><code class='signature'>"
                f"{html.escape(str(envelope.get('signature', '')))}</code></details></footer>")
    kinds = sorted({str(v.get("kind")) for v in views})
    style = _asset("core.css") + "".join(_asset(f"{k}.css") for k in kinds if _has(f"{k}.css"))
    script = "".join(_asset(f"{k}.js") for k in kinds if _has(f"{k}.js")) + _asset("core.js")
    data = {"tables": page.tables, "views": views}
    return ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{html.escape(name)}</title><style>{style}</style></head><body>"
            + "\n".join(head + body)
            + f"<script type='application/json' id='ca-data'>{_json_script(data)}</script>"
            + f"<script>{script}</script></body></html>\n")


def _has(name: str) -> bool:
    return resources.files("clusteragree.report").joinpath(f"assets/{name}").is_file()
