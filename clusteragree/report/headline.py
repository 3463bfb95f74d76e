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
    return out + span_figures(records)


#: The names of the token-level measures of ``clusteragree spans``.
TOKEN_MEASURES = {"cohen_kappa": "Cohen's kappa", "fleiss_kappa": "Fleiss's kappa",
                  "alpha": "alpha"}


def span_figures(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """The headline figures of ``clusteragree spans``: matching F1 of each rule (micro, mean
    over the pairs), the token-level alpha (with the kappas) of each subset of positions,
    the unitizing coefficients over every category (with a badge: they are alphas), and
    gamma (pooled; without a pooled row, the one document's, or the median of the
    documents' with the lowest and highest) with the precision of its expected disorder.

    Examples
    --------
    >>> blocks = span_figures([{"kind": "gamma", "document": None, "pooled": True,
    ...     "measure": "gamma", "category": None, "value": 0.9, "observed": 0.1,
    ...     "expected": 1.0, "precision": 0.014, "n_samples": 30, "seed": 0}])
    >>> "0.9000" in blocks[0], "\u00b11.4%" in blocks[0], "30 sampled continua" in blocks[0]
    (True, True, True)
    """
    out = []
    tokens: dict[str, list[Mapping[str, Any]]] = {}
    gammas: list[Mapping[str, Any]] = []
    for r in records:
        kind = r.get("kind")
        if kind == "gamma" and r.get("category") is None:
            gammas.append(r)
        if r.get("document") is not None:
            continue
        if kind == "span_match_mean" and r.get("average") == "micro":
            pairs = r.get("pairs")
            out.append(_figure(r.get("f1"), f"matching F1, {html.escape(str(r.get('rule')))} "
                               f"<span class='meta'>(micro, mean over {pairs} pair"
                               f"{'s' if pairs != 1 else ''} of annotators)</span>",
                               _interval(r)))
        elif kind == "token_agreement":
            tokens.setdefault(str(r.get("subset")), []).append(r)
        elif kind == "unitizing" and r.get("category") is None:
            what = (f"unitizing {html.escape(str(r.get('coefficient') or 'alpha_u'))}, every "
                    f"category <span class='meta'>({r.get('annotators', '?')} annotators, "
                    f"{r.get('units', '?')} units)</span>")
            out.append(_figure(r.get("alpha"), what, _interval(r), chip=True))
    for subset, rows in tokens.items():
        alpha = next((r for r in rows if r.get("measure") == "alpha"), rows[0])
        others = ", ".join(f"{TOKEN_MEASURES.get(str(r.get('measure')), r.get('measure'))} "
                           f"{_number(r.get('value'))}" for r in rows if r is not alpha)
        where = "every position" if subset == "all" else (
            "the positions some annotator marked" if subset == "annotated"
            else f"positions: {html.escape(subset)}")
        what = (f"token-level {TOKEN_MEASURES.get(str(alpha.get('measure')), 'alpha')}, "
                f"{html.escape(str(alpha.get('scheme', '')).upper())} tags "
                f"<span class='meta'>({where}, {alpha.get('positions', '?')})</span>")
        extra = _interval(alpha) + (f"<div class='ci'>{html.escape(others)}</div>"
                                    if others else "")
        out.append(_figure(alpha.get("value"), what, extra,
                           chip=alpha.get("measure") == "alpha"))
    return out + _gamma_figures(gammas)


def _precision(r: Mapping[str, Any]) -> str:
    precision = r.get("precision")
    if precision is None or not _finite(precision):
        return ""
    return (f"<div class='ci'>expected disorder {_number(r.get('expected'))} "
            f"\u00b1{100 * precision:.1f}% (95%) from {r.get('n_samples', '?')} sampled "
            f"continua, seed {r.get('seed', '?')}; observed {_number(r.get('observed'))}"
            "</div>")


def _gamma_figures(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    pooled = [r for r in rows if r.get("document") is None]
    out = []
    for r in pooled:
        measure = html.escape(str(r.get("measure") or "gamma"))
        out.append(_figure(r.get("value"), f"{measure} <span class='meta'>(pooled, "
                           f"{r.get('units', '?')} units)</span>",
                           _interval(r) + _precision(r)))
    mine = [r for r in rows if r.get("document") is not None
            and (r.get("measure") or "gamma") == "gamma"]
    if pooled or not mine:
        return out
    if len(mine) == 1:
        r = mine[0]
        return [_figure(r.get("value"), f"gamma <span class='meta'>(document "
                        f"{html.escape(str(r['document']))}, {r.get('units', '?')} units)"
                        "</span>", _precision(r))]
    values = sorted((float(r["value"]), str(r["document"])) for r in mine
                    if _finite(r.get("value")))
    if not values:
        return [_figure(None, f"gamma <span class='meta'>({len(mine)} documents)</span>")]
    median = (values[(len(values) - 1) // 2][0] + values[len(values) // 2][0]) / 2
    low, high = values[0], values[-1]
    undefined = len(mine) - len(values)
    extra = (f"<div class='ci'>lowest {_number(low[0])} ({html.escape(low[1])}), highest "
             f"{_number(high[0])} ({html.escape(high[1])})"
             + (f"; {undefined} undefined" if undefined else "") + "</div>")
    return [_figure(median, f"gamma, median of {len(values)} documents <span class='meta'>"
                    "(no pooled gamma in these results)</span>", extra)]


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
    unitizing = any(r.get("kind") == "unitizing" for r in records) or any(
        r.get("kind") == "token_agreement" and r.get("measure") == "alpha" for r in records)
    if alphas or unitizing:
        lines.append("0.667 and 0.8: Krippendorff (2004, p. 241) advises relying on data "
                     "only where alpha is at least 0.800, and drawing tentative conclusions "
                     "only where it lies between 0.667 and 0.800; below, the annotations "
                     "do not support conclusions. The share of bootstrap resamples below each "
                     "threshold says how sure that verdict is.")
    spans = [r for r in records if r.get("kind") in ("span_match_mean", "token_agreement",
                                                      "unitizing", "gamma")]
    if (alphas or spans) and not any(isinstance(r.get("ci"), list) for r in [*alphas, *spans]):
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
    lines += _span_meanings(records)
    if not lines:
        return ""
    return "<ul class='explain'>" + "".join(f"<li>{x}</li>" for x in lines) + "</ul>"


def _span_meanings(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """One line on each span measure present."""
    kinds = {str(r.get("kind")) for r in records}
    lines = []
    if "span_match_mean" in kinds:
        lines.append("Matching F1: the share of spans two annotators both marked, 2 x matched "
                     "/ (spans of one + spans of the other); exact: same start, end and label; "
                     "overlap: sharing a position and the label, each span matched once. The "
                     "mean over the pairs of annotators.")
    if "token_agreement" in kinds:
        lines.append("Token-level kappa and alpha: every position tagged with the label of "
                     "the span it begins (B) or continues (I), or outside (O); every position, "
                     "or only those some annotator marked.")
    if "unitizing" in kinds:
        lines.append("Unitizing alpha (Krippendorff 1995, 2004): disagreement on where units "
                     "begin and end and what they are, measured over the continuum itself.")
    if "gamma" in kinds:
        lines.append("Gamma (Mathet, Widlöcher & Métivier 2015): 1 - the disorder of the best "
                     "alignment of the units / the disorder expected by chance, estimated "
                     "from shuffled continua; its precision (\u00b1) is that of the expected "
                     "disorder, not an interval of gamma. The page draws no threshold for it "
                     "(0.667 and 0.8 are Krippendorff's, for alpha).")
    return lines
