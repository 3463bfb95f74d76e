"""The report's charts, written as SVG and HTML by the report itself (no charting library):
alpha per document as sorted dots with their intervals, bars, and heat tables whose colour
scale is fitted to the values shown.

Why no library: a page of a few documents must stay well under 1 MB and open at once, and
the charts it needs are few and simple (docs/report.md, "Charts").
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Dot", "bar_chart", "dot_chart", "heat_table", "scale_colour"]

#: The thresholds drawn on alpha charts (Krippendorff 2004, p. 241).
THRESHOLDS = (0.667, 0.8)


@dataclass(frozen=True)
class Dot:
    """One point of :func:`dot_chart`: a label, a value, its interval and a link."""

    label: str
    value: float | None
    low: float | None = None
    high: float | None = None
    href: str | None = None


def _finite(x: float | None) -> bool:
    return x is not None and isinstance(x, (int, float)) and math.isfinite(x)


def _fmt(x: float | None) -> str:
    return f"{x:.4f}" if _finite(x) else "undefined"


def dot_chart(dots: Sequence[Dot], *, title: str, width: int = 960, height: int = 240,
              thresholds: Sequence[float] = THRESHOLDS) -> str:
    """Values as dots sorted from the lowest, with their intervals as whiskers and the
    thresholds (alpha's 0.667 and 0.8 unless told) as dashed lines; each dot a link with its
    label as tooltip.

    The value axis spans the values and intervals shown (and 0 to 1 when they lie within),
    so that close values stay apart.

    Parameters
    ----------
    dots : sequence of Dot
        The points (undefined values are left out and counted in the caption).
    title : str
        The accessible name of the chart.
    width, height : int
        The view box (the chart scales to the page's width).
    thresholds : sequence of float, default=(0.667, 0.8)
        The dashed lines (none for a measure that has no such thresholds, such as gamma).

    Returns
    -------
    str
        An ``<svg class="chart">`` element.

    References
    ----------
    docs/report.md, "Charts".

    Examples
    --------
    >>> svg = dot_chart([Dot("d1", 0.5, href="#open=d1"), Dot("d2", 0.9), Dot("d3", None)],
    ...                 title="alpha per document")
    >>> svg.count('class="dot"'), "1 undefined" in svg
    (2, True)
    """
    shown = sorted((d for d in dots if _finite(d.value)), key=lambda d: d.value or 0.0)
    undefined = len(dots) - len(shown)
    values = [float(v) for d in shown for v in (d.value, d.low, d.high)
              if v is not None and math.isfinite(v)]
    lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
    if lo >= 0 and hi <= 1 and thresholds:
        lo, hi = min(lo, 0.6), 1.0  # the thresholds stay in view when values are fair
    if hi - lo < 1e-9:
        lo, hi = lo - 0.5, hi + 0.5
    pad = (hi - lo) * 0.05
    lo, hi = lo - pad, hi + pad
    left, right, top, bottom = 48, 10, 10, 28
    plot_w, plot_h = width - left - right, height - top - bottom

    def y(v: float) -> float:
        return top + plot_h * (hi - v) / (hi - lo)

    step = plot_w / max(len(shown), 1)
    radius = max(1.6, min(5.0, step / 2.5))
    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" role="img" '
             f'aria-label="{html.escape(title)}" xmlns="http://www.w3.org/2000/svg">']
    for tick in _ticks(lo, hi):
        parts.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" '
                     f'y2="{y(tick):.1f}"/><text x="{left - 4}" y="{y(tick) + 4:.1f}" '
                     f'text-anchor="end">{tick:g}</text>')
    for ref in thresholds:
        if lo < ref < hi:
            parts.append(f'<line class="ref" x1="{left}" x2="{width - right}" y1="{y(ref):.1f}" '
                         f'y2="{y(ref):.1f}"><title>{ref}</title></line>')
    for i, d in enumerate(shown):
        x = left + step * (i + 0.5)
        tip = html.escape(f"{d.label}: {_fmt(d.value)}" + (
            f" [{_fmt(d.low)}, {_fmt(d.high)}]" if _finite(d.low) else ""))
        mark = ""
        if d.low is not None and d.high is not None and _finite(d.low) and _finite(d.high):
            mark += (f'<line class="whisker" x1="{x:.1f}" x2="{x:.1f}" y1="{y(d.low):.1f}" '
                     f'y2="{y(d.high):.1f}"/>')
        mark += (f'<circle class="dot" cx="{x:.1f}" cy="{y(float(d.value or 0.0)):.1f}" '
                 f'r="{radius:.1f}"><title>{tip}</title></circle>')
        parts.append(f'<a href="{html.escape(d.href)}">{mark}</a>' if d.href else mark)
    parts.append(f'<line class="axis" x1="{left}" x2="{width - right}" y1="{top + plot_h}" '
                 f'y2="{top + plot_h}"/>')
    caption = f"{len(shown)} sorted from the lowest" + (
        f"; {undefined} undefined, not drawn" if undefined else "")
    parts.append(f'<text x="{left}" y="{height - 8}">{html.escape(caption)}</text></svg>')
    return "".join(parts)


def _ticks(lo: float, hi: float) -> list[float]:
    span = hi - lo
    raw = span / 5
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(lo / step) * step
    return [round(first + k * step, 10) for k in range(int((hi - first) / step) + 1)]


def bar_chart(bars: Sequence[tuple[str, float]], *, title: str, width: int = 960) -> str:
    """Horizontal bars, one per (label, value), longest scaled to the width.

    Parameters
    ----------
    bars : sequence of (str, float)
        Labels and values (non-negative).
    title : str
        The accessible name of the chart.
    width : int
        The view box's width.

    Returns
    -------
    str
        An ``<svg class="chart">`` element (empty string when there are no bars).

    References
    ----------
    docs/report.md, "Charts".

    Examples
    --------
    >>> bar_chart([("missing mention", 3), ("extra mention", 1)], title="t").count('class="bar"')
    2
    """
    if not bars:
        return ""
    row, left = 20, 170
    height = row * len(bars) + 8
    top = max((v for _, v in bars if _finite(v)), default=0.0) or 1.0
    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" role="img" '
             f'aria-label="{html.escape(title)}" xmlns="http://www.w3.org/2000/svg">']
    for i, (label, value) in enumerate(bars):
        y = 4 + i * row
        length = (width - left - 70) * (value / top if _finite(value) else 0.0)
        parts.append(f'<text x="{left - 6}" y="{y + 13}" text-anchor="end">'
                     f'{html.escape(label)}</text><rect class="bar" x="{left}" y="{y + 2}" '
                     f'width="{length:.1f}" height="{row - 6}"><title>{html.escape(label)}: '
                     f'{value:g}</title></rect><text x="{left + length + 4:.1f}" y="{y + 13}">'
                     f'{value:g}</text>')
    parts.append("</svg>")
    return "".join(parts)


def scale_colour(value: float | None, lo: float, hi: float) -> str:
    """A colour from pale to deep blue for ``value`` on the scale ``lo..hi`` (white for an
    undefined value).

    Examples
    --------
    >>> scale_colour(0.5, 0.0, 1.0), scale_colour(None, 0, 1)
    ('hsl(212,60%,63%)', '#ffffff')
    """
    if not _finite(value):
        return "#ffffff"
    share = 0.5 if hi - lo < 1e-12 else (float(value) - lo) / (hi - lo)  # type: ignore[arg-type]
    share = min(max(share, 0.0), 1.0)
    return f"hsl(212,60%,{96 - 66 * share:.0f}%)"


def heat_table(rows: Sequence[str], columns: Sequence[str],
               cells: Sequence[Sequence[float | None]], *, title: str) -> str:
    """A table whose cells are shaded on a scale fitted to the values shown (the lowest
    palest, the highest deepest), with the scale's ends written under it.

    Parameters
    ----------
    rows, columns : sequence of str
        The labels.
    cells : sequence of sequence of float or None
        The values, row by row (None: no value, left blank).
    title : str
        The table's caption.

    Returns
    -------
    str
        A ``<table class="plain heat">`` in a scroll box, and its scale.

    References
    ----------
    docs/report.md, "Charts".

    Examples
    --------
    >>> page = heat_table(["A", "B"], ["A", "B"], [[None, 0.9886], [0.9886, None]], title="t")
    >>> page.count("<td"), "0.9886" in page
    (4, True)
    """
    values = [float(v) for r in cells for v in r if v is not None and math.isfinite(v)]
    lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = []
    for label, r in zip(rows, cells, strict=True):
        tds = []
        for v in r:
            if v is None or not math.isfinite(v):
                tds.append('<td class="num"></td>')
                continue
            colour = scale_colour(v, lo, hi)
            dark = hi - lo > 1e-12 and (v - lo) / (hi - lo) > 0.55
            tds.append(f'<td class="num" style="background:{colour}'
                       + (';color:#fff' if dark else '') + f'">{v:.4f}</td>')
        body.append(f"<tr><th>{html.escape(label)}</th>{''.join(tds)}</tr>")
    scale = (f'<p class="meta">shading from {lo:.4f} (palest) to {hi:.4f} (deepest)'
             f'<span class="scale" style="background:linear-gradient(90deg,'
             f'{scale_colour(lo, lo, hi)},{scale_colour(hi, lo, hi)})"></span></p>')
    return (f'<div class="ca-scroll"><table class="plain heat"><caption class="meta">'
            f'{html.escape(title)}</caption><thead><tr><th></th>{head}</tr></thead><tbody>'
            + "".join(body) + "</tbody></table></div>" + scale)
