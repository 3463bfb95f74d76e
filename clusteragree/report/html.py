"""One self-contained HTML page from a command's JSON output: the headline figures with their
intervals, per-document alpha as a chart, coincidence and pairwise-annotator heatmaps, a
sortable table of the units that disagree most, the other result tables, and side-by-side views
of the annotations (:mod:`clusteragree.report.views`).

Charts are drawn by plotly (the optional extra ``report``: ``pip install
'clusteragree[report]'``), its script inlined once, so that the page needs no network to open.
"""

from __future__ import annotations

import datetime
import html
import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from .._version import __version__
from ..core.intervals import NAMES, describe
from ..errors import ClusterAgreeError

__all__ = ["html_report"]

INSTALL = "pip install 'clusteragree[report]'"

STYLE = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1200px;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
.headline{font-size:1.1em;background:#f4f6fa;padding:.8em 1em;border-radius:6px}
.headline li{margin:.2em 0}.meta{color:#666;font-size:.85em}.note{color:#a40;font-size:.85em}
table{border-collapse:collapse;font-size:.85em;margin:.5em 0}
th,td{border:1px solid #ddd;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#f0f0f0}table.sortable th{cursor:pointer}
.chains .annotator{display:flex;margin:.4em 0}.chains .who,.trees .who{font-weight:bold;
min-width:10em}.chains .text{line-height:2.4}
.mention{border-bottom:3px solid;padding-bottom:2px}
.mention .mention{padding-bottom:6px}.only-one{outline:1px dashed #c00}
.trees svg{display:block;margin-bottom:1em}.arc{fill:none;stroke:#4477aa;stroke-width:1.5}
.arc.differs{stroke:#c00;stroke-width:2.5}.rel{font-size:10px;text-anchor:middle;fill:#555}
.rel.differs{fill:#c00;font-weight:bold}.word{font-size:13px;text-anchor:middle}
"""

SORT_SCRIPT = """
document.querySelectorAll('table.sortable th').forEach(function(th){
  th.addEventListener('click', function(){
    var table = th.closest('table'), body = table.tBodies[0];
    var index = Array.prototype.indexOf.call(th.parentNode.children, th);
    var up = th.dataset.order !== 'up'; th.dataset.order = up ? 'up' : 'down';
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function(a, b){
      var x = a.cells[index].textContent, y = b.cells[index].textContent;
      var nx = parseFloat(x), ny = parseFloat(y);
      var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return up ? c : -c;
    });
    rows.forEach(function(r){ body.appendChild(r); });
  });
});
"""


def _plotly() -> Any:
    try:
        import plotly.graph_objects as go
        import plotly.io as pio
    except ImportError:
        raise ClusterAgreeError(f"the HTML report draws its charts with plotly, which is not "
                                f"installed: {INSTALL}") from None
    return go, pio


def _figure(pio: Any, fig: Any, first: bool) -> str:
    fig.update_layout(margin={"l": 60, "r": 20, "t": 40, "b": 60}, height=300,
                      template="plotly_white")
    return str(pio.to_html(fig, full_html=False, include_plotlyjs=bool(first),
                           config={"displaylogo": False}))


def _number(value: Any) -> str:
    if isinstance(value, float):
        return "undefined" if math.isnan(value) else f"{value:.4f}"
    return "undefined" if value is None else str(value)


def _table(frame: pd.DataFrame, sortable: bool = False) -> str:
    shown = frame.copy()
    for column in shown.columns:
        if shown[column].dtype.kind == "f":
            shown[column] = shown[column].map(lambda v: "" if v != v else f"{v:.4f}")
    classes = "sortable" if sortable else ""
    return str(shown.to_html(index=False, classes=classes, border=0, escape=True,
                             na_rep=""))


def _interval(r: Mapping[str, Any]) -> str:
    """`` [low, high] (95% BCa bootstrap over 22 documents, 1000 resamples)``, the shares of
    resamples below 0.667 and 0.8 where there are, and the note when the estimate lies
    outside its interval; empty without an interval."""
    if not r.get("ci") or r["ci"][0] is None:
        return ""
    about = r.get("bootstrap", {})
    how = describe(about.get("level", float("nan")), about.get("method", "percentile"),
                   about.get("n", 0), about.get("resample"), about.get("resampled"))
    text = (f" [{_number(r['ci'][0])}, {_number(r['ci'][1])}] "
            f"<span class='meta'>({html.escape(how)})</span>")
    below = r.get("p_below")
    if below:
        text += (f"<br><span class='meta'>share of resamples below 0.667: "
                 f"{_number(below['0.667'])}, below 0.8: {_number(below['0.8'])}</span>")
    if about.get("note"):
        text += f"<br><span class='note'>note: {html.escape(str(about['note']))}</span>"
    return text


def _headline(records: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = []
    for r in records:
        if r["kind"] == "alpha" and r.get("pooled", True) and r.get("pair", "all") == "all":
            lines.append(f"alpha ({html.escape(str(r['distance']))}): "
                         f"<b>{_number(r['alpha'])}</b> "
                         f"<span class='meta'>({r.get('coders', '?')} annotators, "
                         f"{r.get('units', '?')} units)</span>{_interval(r)}")
        if r["kind"] == "metric" and r.get("metric") == "conll" and r.get("document") is None:
            lines.append(f"CoNLL F1, {html.escape(str(r['key']))} as key against "
                         f"{html.escape(str(r['response']))}: <b>{_number(r['f1'])}</b>"
                         f"{_interval(r)}")
        if r["kind"] == "accuracy":
            lines.append(f"{html.escape(str(r['metric']))}: <b>{_number(r['value'])}</b>")
    return lines


def _charts(records: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """(title, HTML) of each chart the records allow (plotly is imported only when there is
    one to draw)."""
    documents = [r for r in records if r["kind"] == "document"] or [
        {"document": r["document"], "distance": r["distance"], "alpha": r["alpha"]}
        for r in records if r["kind"] == "alpha" and not r.get("pooled", True)]
    coincidences = [r for r in records if r["kind"] == "coincidence"]
    annotators = [r for r in records if r["kind"] == "annotator"]
    bars = [(kind, rows) for kind, rows in (
        (kind, [r for r in records if r["kind"] == kind]) for kind in BARS) if rows]
    if not (documents or coincidences or annotators or bars):
        return []
    go, pio = _plotly()
    out: list[tuple[str, Any]] = []
    if documents:
        frame = pd.DataFrame(documents)
        fig = go.Figure()
        for distance, rows in frame.groupby("distance", sort=False):
            fig.add_trace(go.Bar(x=rows["document"].astype(str), y=rows["alpha"],
                                 name=str(distance)))
        fig.update_layout(barmode="group", yaxis_title="alpha", xaxis_title="document")
        out.append(("alpha per document", fig))
    if coincidences:
        values = [str(r["value"]) for r in coincidences]
        z = [[r["row"].get(v, 0.0) for v in values] for r in coincidences]
        fig = go.Figure(go.Heatmap(z=z, x=values, y=values, colorscale="Blues",
                                   text=[[f"{c:.2f}" for c in row] for row in z],
                                   texttemplate="%{text}"))
        fig.update_layout(xaxis_title="value", yaxis_title="value",
                          yaxis={"autorange": "reversed"})
        out.append(("coincidences (Krippendorff's o_vw)", fig))
    if annotators:
        names = [str(r["coder"]) for r in annotators]
        z = [[1.0 if a == b else r["pairwise"].get(b) for b in names]
             for a, r in zip(names, annotators, strict=True)]
        fig = go.Figure(go.Heatmap(z=z, x=names, y=names, colorscale="RdYlGn", zmin=-1,
                                   zmax=1, text=[[_number(c) for c in row] for row in z],
                                   texttemplate="%{text}"))
        fig.update_layout(yaxis={"autorange": "reversed"})
        out.append(("alpha of every pair of annotators", fig))
    for kind, rows in bars:
        chart_title, x, y, y_title = BARS[kind]
        frame = pd.DataFrame(rows)
        if kind == "difference_count":
            frame = frame[frame["document"].isna()]
            if frame[["key", "response"]].drop_duplicates().shape[0] > 1:
                frame = frame.assign(category=frame["key"].astype(str) + " / "
                                     + frame["response"].astype(str) + ": "
                                     + frame["category"])
        labels = frame[x].astype(str) if x in frame else frame.index.astype(str)
        fig = go.Figure(go.Bar(x=labels, y=frame[y]))
        fig.update_layout(yaxis_title=y_title)
        out.append((chart_title, fig))
    return [(title, _figure(pio, fig, first=i == 0)) for i, (title, fig) in enumerate(out)]


#: Bar charts of other records: kind -> (title, x field, y field, y axis title).
BARS = {
    "difference_count": ("differences by category", "category", "count", "errors"),
    "sentence_difference": ("tree edit distance of the sentences that differ most",
                            "sentence", "ted", "tree edit distance"),
    "scu_match": ("overlap (Jaccard) of the matched SCUs", "a_label", "jaccard",
                  "Jaccard of the words covered"),
}


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
}


def html_report(envelope: Mapping[str, Any], views: Sequence[tuple[str, str]] = (),
                *, title: str | None = None) -> str:
    """The HTML page of a command's JSON output (:func:`~clusteragree.report.schema.envelope`).

    Parameters
    ----------
    envelope : mapping
        What the command writes with ``-f json``: ``command``, ``inputs``, ``signature``,
        ``results``, ``warnings``.
    views : sequence of (str, str)
        Side-by-side views (title, HTML fragment) from :mod:`clusteragree.report.views`.
    title : str, optional
        The page's title (default: the command and its inputs).

    Returns
    -------
    str
        A complete HTML document with inline CSS, script and charts.

    Raises
    ------
    ClusterAgreeError
        plotly is not installed (the message says how to install it).

    References
    ----------
    docs/report.md; docs/schema/clusteragree-1.json (the records).

    Examples
    --------
    >>> page = html_report({"command": "table", "inputs": ["a.csv"], "signature": "s",
    ...                     "results": [{"kind": "alpha", "distance": "nominal", "alpha": 0.5,
    ...                                  "pooled": True, "coders": 2, "units": 4}],
    ...                     "warnings": []})
    >>> page.startswith("<!DOCTYPE html>"), "<b>0.5000</b>" in page
    (True, True)
    """
    records = list(envelope.get("results", []))
    inputs = ", ".join(html.escape(str(i)) for i in envelope.get("inputs", []))
    name = title or f"clusteragree {envelope.get('command', '')}: {inputs}"
    body = [f"<h1>{html.escape(name)}</h1>",
            f"<p class='meta'>clusteragree {__version__}, "
            f"{datetime.date.today().isoformat()}; signature "
            f"<code>{html.escape(str(envelope.get('signature', '')))}</code></p>"]
    lines = _headline(records)
    if lines:
        body.append("<ul class='headline'>" + "".join(f"<li>{x}</li>" for x in lines)
                    + "</ul>")
    for chart_title, chart in _charts(records):
        body.append(f"<h2>{html.escape(chart_title)}</h2><div class='chart'>{chart}</div>")
    for view_title, fragment in views:
        body.append(f"<h2>{html.escape(view_title)}</h2>{fragment}")
    units = [r for r in records if r["kind"] == "unit"]
    if units:
        frame = pd.DataFrame([{"unit": r["unit"], "values": r["values"],
                               "disagreement": r["disagreement"], "share of D_o": r["share"],
                               **{str(k): v for k, v in r["codes"].items()}} for r in units])
        body.append("<h2>units that disagree most (click a column to sort)</h2>"
                    + _table(frame, sortable=True))
    for kind, table_title in TABLES.items():
        rows = [{k: v for k, v in r.items() if k != "kind"} for r in records
                if r["kind"] == kind]
        if any("document" in r and r["document"] is None for r in rows):
            rows = [r for r in rows if r["document"] is None]  # the pooled rows only
            table_title += " (pooled over the documents)"
        if rows:
            body.append(f"<h2>{html.escape(table_title)}</h2>"
                        + _table(pd.json_normalize(rows), sortable=True))
    alphas = [r for r in records if r["kind"] == "alpha"]
    if alphas:
        shown = pd.DataFrame(alphas).drop(columns=["kind"], errors="ignore")
        if "ci" in shown:  # the interval and the shares below 0.667 and 0.8 as plain cells
            shown.insert(shown.columns.get_loc("alpha") + 1, "interval", [
                f"[{_number(c[0])}, {_number(c[1])}] {NAMES.get(str(b.get('method')), '')}"
                if isinstance(c, list) and isinstance(b, dict) else ""
                for c, b in zip(shown["ci"], shown.get("bootstrap", [None] * len(shown)),
                                strict=True)])
            for q in ("0.667", "0.8"):
                shown[f"P(<{q})"] = [p.get(q) if isinstance(p, dict) else None
                                     for p in shown.get("p_below", [None] * len(shown))]
        shown = shown.drop(columns=[c for c in ("bootstrap", "p_below", "ci")
                                    if c in shown], errors="ignore")
        body.append("<h2>alpha, every row</h2>" + _table(shown, sortable=True))
    warnings = envelope.get("warnings", [])
    if warnings:
        body.append("<h2>warnings</h2>" + _table(pd.DataFrame(warnings)))
    return ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<title>{html.escape(name)}</title><style>{STYLE}</style></head><body>"
            + "\n".join(body) + f"<script>{SORT_SCRIPT}</script></body></html>\n")
