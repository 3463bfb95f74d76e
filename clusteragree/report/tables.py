"""Renderings of results: text, JSON, CSV and LaTeX of a report's DataFrame
(:func:`clusteragree.core.frames.alpha_report`).

Examples
--------
>>> from clusteragree import CodingTable, alpha_report
>>> df = alpha_report(CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "y"),
...                                             ("B", 2, "x")]), ["nominal"])
>>> print(render(df, "csv").splitlines()[0])
document,distance,alpha,D_o,D_e,n,units,coders,engine,signature,pooled
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Union, cast

from .._lazy import module
from ..core.frames import COLUMNS, TOTAL, pooled_row, report_rows
from ..core.intervals import INTERVALS, NAMES
from ..errors import ParameterError
from .formats import FORMATS
from .text import alpha_headline, text_report

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = module("pandas")

__all__ = ["FORMATS", "json_object", "render", "table"]

#: An alpha report: the DataFrame of :func:`~clusteragree.core.frames.alpha_report`, or the
#: rows of :func:`~clusteragree.core.frames.alpha_rows` (rendered alike, without pandas).
Report = Union["pd.DataFrame", Sequence[Mapping[str, Any]]]



def _clean(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item"):
        return _clean(value.item())
    return value


def _records(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: _clean(v) for k, v in row.items()} for row in rows]


def _fmt(x: Any) -> str:
    if isinstance(x, float):
        return "nan" if math.isnan(x) else f"{x:.6f}"
    return str(x)


def json_object(frame: Report, header: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The JSON shape of a report: ``header`` fields, ``results`` (the pooled rows, one per
    distance) and ``documents`` (the per-document rows, when there are any); NaN as None.

    Parameters
    ----------
    frame : DataFrame or list of dict
        An alpha report (:func:`~clusteragree.core.frames.alpha_report`, or the rows of
        :func:`~clusteragree.core.frames.alpha_rows`).
    header : mapping, optional
        Fields put first in the object (command, signature, inputs, ...).

    Returns
    -------
    dict
        ``header``'s fields, then ``results``: the pooled rows without ``document`` and
        ``pooled``; then, if the report has per-document rows, ``documents``: those rows
        without ``pooled``. NaN is None, numpy scalars are Python numbers.

    References
    ----------
    docs/cli.md, "JSON output" and "Undefined values and empty input" (NaN written as null).

    Examples
    --------
    The report worked out under :func:`~clusteragree.core.frames.alpha_report` (alpha 0 for
    ``d1``, 1 for ``d2``, 0.64 pooled):

    >>> from clusteragree import CodingTable, alpha_report
    >>> d1 = CodingTable.from_records([("A", 1, "x"), ("B", 1, "y"), ("A", 2, "y"), ("B", 2, "y")])
    >>> d2 = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "x"), ("B", 2, "x"),
    ...                                ("A", 3, "y"), ("B", 3, "y")])
    >>> df = alpha_report({"d1": d1, "d2": d2}, ["nominal"])
    >>> obj = json_object(df, {"command": "table"})
    >>> list(obj), obj["results"][0]["alpha"], [d["document"] for d in obj["documents"]]
    (['command', 'results', 'documents'], 0.64, ['d1', 'd2'])

    An undefined alpha is written as None (JSON null):

    >>> json_object(pd.DataFrame({"document": ["TOTAL"], "distance": ["nominal"],
    ...                            "alpha": [float("nan")], "pooled": [True]}))
    {'results': [{'distance': 'nominal', 'alpha': None}]}
    """
    rows, _ = report_rows(frame)
    pooled = [r for r in rows if pooled_row(r)]
    per_doc = [r for r in rows if not pooled_row(r)]
    obj: dict[str, Any] = dict(header or {})
    obj["results"] = [{k: v for k, v in r.items() if k not in ("document", "pooled")}
                      for r in _records(pooled)]
    if per_doc:
        obj["documents"] = [{k: v for k, v in r.items() if k != "pooled"}
                            for r in _records(per_doc)]
    return obj


def render(
    frame: Report, fmt: str = "text", *, header: Mapping[str, Any] | None = None,
    what: str = "Krippendorff's alpha",
) -> str:
    """Render a report as ``text``, ``json``, ``csv`` or ``latex``.

    JSON is an object ``{"results": [...], ...header}``: ``results`` holds the pooled rows
    (one per distance) and ``documents`` the per-document rows when there are any; NaN is
    written as null.

    Parameters
    ----------
    frame : DataFrame or list of dict
        An alpha report (:func:`~clusteragree.core.frames.alpha_report`, or the rows of
        :func:`~clusteragree.core.frames.alpha_rows`, rendered alike).
    fmt : {"text", "json", "csv", "latex"}, default="text"
        ``text``: a headline with the pooled alpha of each distance (``what``, then the
        figures), a blank line, an aligned table of ``document`` (left out when there are only
        pooled rows), ``distance``, ``alpha``, ``D_o``, ``D_e``, ``n``, ``units``, ``coders``
        with six decimals, then one signature line per distance; ``json``: :func:`json_object`,
        indented; ``csv``: every column, floats to 10 significant digits; ``latex``: the
        text table's columns as a booktabs ``tabular``.
    header : mapping, optional
        Fields put first in the JSON object (ignored by the other formats).
    what : str, default="Krippendorff's alpha"
        The name of the coefficient in the text headline.

    Returns
    -------
    str
        The rendering, without a final newline. If a document is called ``TOTAL``, the pooled
        rows are shown as ``TOTAL (pooled)`` in text and LaTeX.

    Raises
    ------
    ParameterError
        If ``fmt`` is not one of :data:`~clusteragree.report.formats.FORMATS`.

    References
    ----------
    docs/cli.md, "JSON output"; docs/alpha.md, "The signature".

    Examples
    --------
    The report worked out under :func:`~clusteragree.core.frames.alpha_report` (alpha 0 for
    ``d1``, 1 for ``d2``, 0.64 pooled):

    >>> from clusteragree import CodingTable, alpha_report
    >>> d1 = CodingTable.from_records([("A", 1, "x"), ("B", 1, "y"), ("A", 2, "y"), ("B", 2, "y")])
    >>> d2 = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "x"), ("B", 2, "x"),
    ...                                ("A", 3, "y"), ("B", 3, "y")])
    >>> df = alpha_report({"d1": d1, "d2": d2}, ["nominal"])
    >>> print(render(df))  # doctest: +ELLIPSIS
    Krippendorff's alpha: nominal 0.6400 (2 coders, 5 pairable units, 10 values)
    <BLANKLINE>
    document  distance     alpha       D_o       D_e   n  units  coders
    d1        nominal   0.000000  0.500000  0.500000   4      2       2
    d2        nominal   1.000000  0.000000  0.533333   6      3       2
    TOTAL     nominal   0.640000  0.200000  0.555556  10      5       2
    <BLANKLINE>
    nominal: alpha|dist:nominal|engine:generic|coders:2|pairable:5|n:10|agg:pooled|v:...
    >>> print(render(df, "latex").splitlines()[2])
    document & distance & alpha & D\\_o & D\\_e & n & units & coders \\\\
    >>> import json
    >>> json.loads(render(df, "json", header={"command": "table"}))["results"][0]["alpha"]
    0.64
    """
    if fmt not in FORMATS:
        raise ParameterError(f"The format must be one of {list(FORMATS)}. Got {fmt!r}.")
    if fmt == "json":
        return json.dumps(json_object(frame, header), indent=2, ensure_ascii=False)
    if fmt == "csv":
        whole = (pd.DataFrame(list(frame), columns=COLUMNS) if isinstance(frame, Sequence)
                 else cast("pd.DataFrame", frame))  # rows: as the DataFrame of alpha_report
        return whole.to_csv(index=False, float_format="%.10g").rstrip("\n")
    if fmt == "latex":
        rows, attrs = report_rows(frame)
        shown = _alpha_columns(rows)
        rows, shown = _interval_columns(_named_total(rows), attrs, shown)
        left = shown.index("distance") + 1
        lines = [r"\begin{tabular}{" + "l" * left + "r" * (len(shown) - left) + "}", r"\toprule",
                 " & ".join(c.replace("_", r"\_").replace("%", r"\%") for c in shown)
                 + r" \\", r"\midrule"]
        for row in rows:
            cells = [_fmt(row[c]).replace("_", r"\_") for c in shown]
            lines.append(" & ".join(cells) + r" \\")
        lines += [r"\bottomrule", r"\end{tabular}"]
        return "\n".join(lines)
    body, signatures = alpha_text(frame)
    return text_report(alpha_headline(frame, what), [(None, body)], signatures)


def _named_total(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The pooled rows' document shown as ``TOTAL (pooled)`` when a document is called TOTAL."""
    if any(str(r["document"]) == TOTAL for r in rows if not pooled_row(r)):
        return [{**r, "document": f"{TOTAL} (pooled)"} if pooled_row(r) else r for r in rows]
    return rows


def _alpha_columns(rows: list[dict[str, Any]]) -> list[str]:
    shown = ["document", "distance", "alpha", "D_o", "D_e", "n", "units", "coders"]
    if all(pooled_row(r) for r in rows):
        shown.remove("document")
    if rows and "pair" in rows[0] and len({r["pair"] for r in rows if _clean(r["pair"])
                                           is not None}) > 1:
        shown.insert(0, "pair")
    return shown


def _interval_columns(rows: list[dict[str, Any]], attrs: Mapping[str, Any], shown: list[str]
                      ) -> tuple[list[dict[str, Any]], list[str]]:
    """The bootstrap interval after alpha (its level and method in the header, or in each
    cell when BCa was not usable on some rows), then the shares of resamples below 0.667 and
    0.8; the rows and columns unchanged without intervals."""
    if not rows or "ci_low" not in rows[0]:
        return rows, shown
    level = attrs.get("bootstrap", {}).get("level", float("nan"))
    methods = sorted({str(r["ci_method"]) for r in rows
                      if _clean(r.get("ci_method")) is not None}, key=INTERVALS.index)
    label = f"{level:.0%} CI" + (f" ({NAMES.get(methods[0], methods[0])})"
                                 if len(methods) == 1 else "")

    def cell(row: Mapping[str, Any]) -> str:
        if row["ci_low"] != row["ci_low"]:
            return ""
        text = f"[{row['ci_low']:.4f}, {row['ci_high']:.4f}]"
        method = str(row.get("ci_method"))
        return text if len(methods) < 2 else f"{text} {NAMES.get(method, method)}"

    added = [label]
    rows = [{**r, label: cell(r)} for r in rows]
    for q in ("0.667", "0.8"):
        column = f"p_below_{q}"
        if column in rows[0]:
            added.append(f"P(<{q})")
            rows = [{**r, f"P(<{q})": "" if r[column] != r[column] else f"{r[column]:.3f}"}
                    for r in rows]
    at = shown.index("alpha") + 1
    return rows, [*shown[:at], *added, *shown[at:]]


def alpha_text(frame: Report) -> tuple[str, list[str]]:
    """The table of an alpha report (a DataFrame or the rows of
    :func:`~clusteragree.core.frames.alpha_rows`) as text, and the signature line of each
    pooled row."""
    rows, attrs = report_rows(frame)
    shown = _alpha_columns(rows)
    pooled = [r for r in rows if pooled_row(r)]
    rows, shown = _interval_columns(_named_total(rows), attrs, shown)
    table = [[c for c in shown]] + [[_fmt(row[c]) for c in shown] for row in rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(shown))]
    left = shown.index("distance") + 1
    out = ["  ".join(cell.rjust(w) if i >= left else cell.ljust(w)
                     for i, (cell, w) in enumerate(zip(r, widths, strict=True))).rstrip()
           for r in table]
    pair = "pair" in shown
    return "\n".join(out), [f"{r['pair'] + ' ' if pair else ''}{r['distance']}: {r['signature']}"
                            for r in _records(pooled)]


def table(frame: pd.DataFrame, fmt: str) -> str:
    """Any result table (coreference metrics, peer scores, correlations) as CSV or LaTeX.

    Parameters
    ----------
    frame : DataFrame
        The table; every column is written.
    fmt : {"csv", "latex"}
        ``csv``: floats to 10 significant digits, no index; ``latex``: a booktabs ``tabular``,
        numeric columns right-aligned and the others left-aligned, floats with six decimals,
        underscores escaped.

    Returns
    -------
    str
        The rendering, without a final newline.

    Raises
    ------
    ParameterError
        If ``fmt`` is neither ``csv`` nor ``latex``.

    References
    ----------
    docs/cli.md (the ``-f/--format`` option of every command).

    Examples
    --------
    >>> print(table(pd.DataFrame({"metric": ["muc"], "f1": [0.5]}), "latex"))
    \\begin{tabular}{lr}
    \\toprule
    metric & f1 \\\\
    \\midrule
    muc & 0.500000 \\\\
    \\bottomrule
    \\end{tabular}
    >>> print(table(pd.DataFrame({"metric": ["muc"], "f1": [1 / 3]}), "csv"))
    metric,f1
    muc,0.3333333333
    """
    if fmt == "csv":
        return frame.to_csv(index=False, float_format="%.10g").rstrip("\n")
    if fmt != "latex":
        raise ParameterError(f"table writes csv or latex. Got {fmt!r}.")
    cols = [str(c) for c in frame.columns]
    align = "".join("r" if pd.api.types.is_numeric_dtype(frame[c]) else "l"
                    for c in frame.columns)
    lines = [r"\begin{tabular}{" + align + "}", r"\toprule",
             " & ".join(c.replace("_", r"\_") for c in cols) + r" \\", r"\midrule"]
    for row in frame.itertuples(index=False, name=None):
        lines.append(" & ".join(_fmt(v).replace("_", r"\_") for v in row) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines)

