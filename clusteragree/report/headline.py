"""The top of the report: what was compared (the inputs, their common folder once), the
figures first with what each interval is, what the thresholds 0.667 and 0.8 mean, one line on
what each distance measures, and the run's signature folded away."""

from __future__ import annotations

import html
import math
import os
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.intervals import describe

__all__ = ["explanations", "figures", "inputs_summary", "verdict"]

#: What the distances of the results measure, by the name the results give them (display text
#: only: the engines never look at a name).
MEANING = {
    "nominal": "nominal: two values agree only when identical (for a class minus its unit: "
               "the very same other members)",
    "jaccard": "Jaccard: 1 - |A & B| / |A | B| between two sets, partial credit for overlap",
    "dice": "Dice: 1 - 2|A & B| / (|A| + |B|), overlap counted more generously than Jaccard",
    "masi": "MASI: Jaccard weighted by how the sets relate (Passonneau 2006): one inside the "
            "other costs less than a mere overlap",
    "interval": "interval: squared difference of numbers",
    "ordinal": "ordinal: squared distance of ranks, from the values' frequencies",
    "ratio": "ratio: squared difference relative to the sum",
    "ted-plain": "tree edit distance (squared): words moved, relabelled, re-attached",
}


def _finite(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _number(x: Any) -> str:
    return f"{x:.4f}" if _finite(x) else "undefined"


def inputs_summary(inputs: Sequence[str]) -> str:
    """The inputs as HTML: one line (their common folder once, the names after it, at most
    eight, the rest counted) and every path folded below.

    Examples
    --------
    >>> inputs_summary(["data/a.pyr", "data/b.pyr"]).split("<details")[0]
    '<p class="inputs">2 inputs in <code>data/</code>: <code>a.pyr</code>, <code>b.pyr</code></p>'
    """
    paths = [str(p) for p in inputs]
    if not paths:
        return ""
    try:
        common = os.path.commonpath([os.path.dirname(p) or "." for p in paths])
    except ValueError:
        common = ""
    common = "" if common in ("", ".") else common
    shown = [os.path.relpath(p, common) if common else p for p in paths]
    names = ", ".join(f"<code>{html.escape(s)}</code>" for s in shown[:8])
    if len(shown) > 8:
        names += f" and {len(shown) - 8} more"
    where = f" in <code>{html.escape(common.rstrip('/') + '/')}</code>" if common else ""
    noun = "input" if len(paths) == 1 else "inputs"
    full = "".join(f"<li><code>{html.escape(p)}</code></li>" for p in paths)
    return (f'<p class="inputs">{len(paths)} {noun}{where}: {names}</p>'
            f"<details><summary>every input</summary><ul class='meta'>{full}</ul></details>")


def verdict(alpha: Any) -> tuple[str, str]:
    """The class and words of an alpha against Krippendorff's thresholds.

    Examples
    --------
    >>> verdict(0.85), verdict(0.7)[1], verdict(float("nan"))[0]
    (('good', 'at least 0.8'), '0.667 to 0.8: tentative', 'none')
    """
    if not _finite(alpha):
        return "none", "undefined"
    if alpha >= 0.8:
        return "good", "at least 0.8"
    if alpha >= 0.667:
        return "fair", "0.667 to 0.8: tentative"
    return "poor", "below 0.667"


def _interval(r: Mapping[str, Any]) -> str:
    ci = r.get("ci")
    if not (isinstance(ci, list) and len(ci) == 2 and _finite(ci[0]) and _finite(ci[1])):
        return ""
    about = r.get("bootstrap") or {}
    how = describe(about.get("level", float("nan")), about.get("method", "percentile"),
                   about.get("n", 0), about.get("resample"), about.get("resampled"))
    text = (f'<div class="ci">[{_number(ci[0])}, {_number(ci[1])}] '
            f'<span class="meta">{html.escape(how)}</span></div>')
    below = r.get("p_below")
    if isinstance(below, Mapping) and below:
        text += ('<div class="ci">share of resamples below 0.667: '
                 f'{_number(below.get("0.667"))}, below 0.8: {_number(below.get("0.8"))}'
                 "</div>")
    if about.get("note"):
        text += f"<div class='note'>note: {html.escape(str(about['note']))}</div>"
    return text


def _figure(value: Any, what: str, extra: str = "", chip: bool = False) -> str:
    badge = ""
    if chip:
        cls, words = verdict(value)
        badge = f'<span class="verdict {cls}">{html.escape(words)}</span>'
    return (f'<div class="figure"><div class="what">{what}</div>'
            f'<span class="value">{_number(value)}</span>{badge}{extra}</div>')


def figures(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """The headline figures of the results, as HTML blocks: every pooled alpha of all the
    annotators (with its interval), the CoNLL F1 of each pair, tree accuracies, the
    multi-label measures.

    Examples
    --------
    >>> blocks = figures([{"kind": "alpha", "pooled": True, "pair": "all", "distance": "masi",
    ...                    "alpha": 0.81, "coders": 2, "units": 40}])
    >>> "0.8100" in blocks[0] and "at least 0.8" in blocks[0]
    True
    """
    out = []
    pairs: set[frozenset[str]] = set()
    for r in records:
        kind = r.get("kind")
        if kind == "metric" and r.get("metric") == "conll" and r.get("document") is None:
            pair = frozenset((str(r.get("key")), str(r.get("response"))))
            if pair in pairs:  # F1 is symmetric: each pair once
                continue
            pairs.add(pair)
        if kind == "alpha" and r.get("pooled", True) and r.get("pair", "all") == "all":
            what = (f"alpha, {html.escape(str(r.get('distance')))} "
                    f"<span class='meta'>({r.get('coders', '?')} annotators, "
                    f"{r.get('units', '?')} units)</span>")
            out.append(_figure(r.get("alpha"), what, _interval(r), chip=True))
        elif kind == "metric" and r.get("metric") == "conll" and r.get("document") is None:
            what = (f"CoNLL F1, {html.escape(str(r.get('key')))} as key, "
                    f"{html.escape(str(r.get('response')))} as response")
            out.append(_figure(r.get("f1"), what, _interval(r)))
        elif kind == "accuracy":
            out.append(_figure(r.get("value"), html.escape(str(r.get("metric")))))
        elif kind == "measure":
            note = f"<div class='meta'>{html.escape(str(r['note']))}</div>" if r.get(
                "note") else ""
            out.append(_figure(r.get("value"), html.escape(str(r.get("measure"))), note))
    return out


def explanations(records: Sequence[Mapping[str, Any]],
                 describe_distance: Mapping[str, str] | None = None) -> str:
    """What the figures mean: the thresholds, the intervals, each distance present.

    Examples
    --------
    >>> "MASI" in explanations([{"kind": "alpha", "distance": "masi", "alpha": 0.5}])
    True
    """
    lines = []
    alphas = [r for r in records if r.get("kind") == "alpha"]
    if alphas:
        lines.append("0.667 and 0.8: Krippendorff (2004, p. 241) advises relying on data "
                     "only where alpha is at least 0.800, and drawing tentative conclusions "
                     "only where it lies between 0.667 and 0.800; below, the annotations "
                     "do not support conclusions. The share of bootstrap resamples below each "
                     "threshold says how sure that verdict is.")
    if alphas and not any(isinstance(r.get("ci"), list) for r in alphas):
        lines.append("No interval: the run asked for none. A bootstrap interval says how far "
                     "each figure can be trusted (the option --ci 0.95, or ci=0.95 in Python; "
                     "it takes longer on a large corpus).")
    if any(isinstance(r.get("ci"), list) for r in records):
        lines.append("An interval is a bootstrap confidence interval at the level it names "
                     "(BCa: corrected for bias and skew; percentile: the plain quantiles), "
                     "over what it resamples (documents, units or pairs of values).")
    seen: list[str] = []
    for r in alphas:
        name = str(r.get("distance"))
        if name not in seen:
            seen.append(name)
    known = {**MEANING, **(describe_distance or {})}
    if len(seen) > 1:
        lines.append("The distances answer different questions, so their alphas differ "
                     "on the same annotations:")
    for name in seen:
        lines.append(html.escape(known.get(name) or known.get(name.split("-")[0])
                                 or f"{name}: a distance given by the user"))
    if not lines:
        return ""
    return "<ul class='explain'>" + "".join(f"<li>{x}</li>" for x in lines) + "</ul>"
