"""Text output with the answer first: a headline of the main figures, then titled tables, then
the reproducibility signatures.

Every command's text output is made here, so that the command line only wires arguments and
all commands read alike (docs/cli.md).

Examples
--------
>>> import pandas as pd
>>> print(text_report("alpha 0.5", [("pairs", pd.DataFrame({"a": ["x"], "f1": [0.25]}))]))
alpha 0.5
<BLANKLINE>
pairs
a     f1
x 0.2500
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .._lazy import module
from ..core.frames import pooled_row, report_rows
from ..core.intervals import INTERVALS, describe

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = module("pandas")

__all__ = ["alpha_headline", "diagnostic_sections", "interval_label", "plural", "text_report"]

Section = tuple[str | None, "pd.DataFrame | str"]


def plural(count: int, noun: str) -> str:
    """``"1 unit"``, ``"2 units"``: a count and its noun.

    Parameters
    ----------
    count : int
        How many.
    noun : str
        The singular; an ``s`` is added for any other count.

    Returns
    -------
    str
        The count, a space and the noun.

    References
    ----------
    docs/cli.md (the text output of every command).

    Examples
    --------
    >>> plural(1, "sentence"), plural(3, "sentence")
    ('1 sentence', '3 sentences')
    """
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _missing(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _number(x: float, digits: int = 4) -> str:
    return "undefined" if isinstance(x, float) and math.isnan(x) else f"{x:.{digits}f}"


def alpha_headline(frame: pd.DataFrame | Sequence[Mapping[str, Any]],
                   what: str = "Krippendorff's alpha") -> str:
    """One line with the pooled alpha of each distance of a report and what it rests on.

    Parameters
    ----------
    frame : DataFrame or list of dict
        A report of :func:`clusteragree.core.frames.alpha_report` (columns ``distance``,
        ``alpha``, ``units``, ``coders``, ``n``; pooled rows marked), or the rows of
        :func:`clusteragree.core.frames.alpha_rows`.
    what : str
        The name of the coefficient, first on the line.

    Returns
    -------
    str
        ``"Krippendorff's alpha: nominal 0.4385, masi 0.5404 (2 coders, 11 pairable units,
        22 values)"``; an alpha that is undefined reads ``undefined``. With bootstrap
        intervals, each alpha is followed by its interval and the figures by how they were
        drawn (:func:`interval_label`).

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. Annenberg School for
    Communication, University of Pennsylvania. (What a report of alpha should state: the
    coefficient, the coders, the pairable units and values.)

    Examples
    --------
    Two coders agree on unit 1 and disagree on unit 2, over two values: D_o = 2/4 (one of the
    two pairs inside units disagrees, each counted twice, over n = 4) and D_e = 1 - (3*2 +
    1*0)/(4*3) = 1/2 (three x and one y), so alpha = 1 - (1/2)/(1/2) = 0.

    >>> from clusteragree import CodingTable, alpha_report
    >>> t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "y"),
    ...                               ("B", 2, "x")])
    >>> print(alpha_headline(alpha_report(t, ["nominal"])))
    Krippendorff's alpha: nominal 0.0000 (2 coders, 2 pairable units, 4 values)
    """
    rows, _ = report_rows(frame)
    pooled = [r for r in rows if pooled_row(r)]
    if pooled and "pair" in pooled[0]:  # all annotators together; the pairs are in the table
        pooled = [r for r in pooled if r["pair"] == "all"]
    if not pooled:
        return f"{what}: nothing computed"
    figures = ", ".join(f"{r['distance']} {_number(float(r['alpha']))}" for r in pooled)
    if "ci_low" in pooled[0] and any(not _missing(r["ci_low"]) for r in pooled):
        figures = ", ".join(_with_interval(r) for r in pooled)
        figures += f" ({interval_label(frame)})"
    first = pooled[0]
    return (f"{what}: {figures} ({plural(int(first['coders']), 'coder')}, "
            f"{plural(int(first['units']), 'pairable unit')}, {plural(int(first['n']), 'value')})")


def interval_label(frame: pd.DataFrame | Sequence[Mapping[str, Any]]) -> str:
    """How the bootstrap intervals of an alpha report were drawn, in words.

    Parameters
    ----------
    frame : DataFrame
        A report with intervals (``attrs["bootstrap"]``, columns ``ci_method``).

    Returns
    -------
    str
        ``95% BCa bootstrap over 38 units, 1000 resamples`` (the methods of all rows,
        ``BCa/percentile``, when BCa was not usable on some).

    References
    ----------
    docs/uncertainty.md.

    Examples
    --------
    >>> f = pd.DataFrame({"ci_method": ["bca", "bca"]})
    >>> f.attrs["bootstrap"] = {"n": 1000, "resample": "documents", "level": 0.95,
    ...                         "method": "bca", "resampled": 22}
    >>> interval_label(f)
    '95% BCa bootstrap over 22 documents, 1000 resamples'
    """
    rows, attrs = report_rows(frame)
    about = attrs.get("bootstrap", {})
    methods = [str(r["ci_method"]) for r in rows if not _missing(r.get("ci_method"))]
    method = ("/".join(sorted(set(methods), key=INTERVALS.index))
              or str(about.get("method", "percentile")))
    return describe(float(about.get("level", float("nan"))), method, int(about.get("n", 0)),
                    about.get("resample"), about.get("resampled"))


def _with_interval(row: dict) -> str:
    figure = f"{row['distance']} {_number(float(row['alpha']))}"
    low, high = float(row["ci_low"]), float(row["ci_high"])
    if math.isnan(low):
        return figure
    return f"{figure} [{_number(low)}, {_number(high)}]"


def _table(frame: pd.DataFrame, digits: int) -> str:
    if frame.empty:
        return "(none)"
    frame = frame.copy()
    for column in [c for c in frame.columns if frame[c].dtype == "object"]:  # None: a number
        cells = frame[column]
        if all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool))
               for v in cells):
            frame[column] = pd.to_numeric(cells.astype(object).where(cells.notna()),
                                          errors="coerce")
    return frame.to_string(index=False, na_rep="-",
                           float_format=lambda x: _number(x, digits))


def text_report(headline: str, sections: Sequence[Section], footer: Sequence[str] = (),
                *, digits: int = 4) -> str:
    """The text output of a command: the headline, each titled table, then the footer lines.

    Parameters
    ----------
    headline : str
        The answer, in one or two lines.
    sections : sequence of (title or None, DataFrame or str)
        Tables in the order shown, each after a blank line and its title; a string is a table
        already laid out.
    footer : sequence of str
        Lines after the tables (reproducibility signatures).
    digits : int, default=4
        Decimals of floats; NaN prints as ``-``.

    Returns
    -------
    str
        The lines joined by newlines.

    References
    ----------
    docs/cli.md (the text output of every command).

    Examples
    --------
    >>> import pandas as pd
    >>> f = pd.DataFrame({"metric": ["muc", "conll"], "f1": [0.5, float("nan")]})
    >>> print(text_report("F1 0.5", [("metrics", f)], ["sig"]))
    F1 0.5
    <BLANKLINE>
    metrics
    metric     f1
       muc 0.5000
     conll      -
    <BLANKLINE>
    sig
    """
    lines = [headline]
    for title, frame in sections:
        lines.append("")
        if title:
            lines.append(title)
        lines.append(frame if isinstance(frame, str) else _table(frame, digits))
    if footer:
        lines.append("")
        lines.extend(footer)
    return "\n".join(lines)


_TITLES = {
    "units": "units that disagree most (each annotator's value)",
    "categories": "categories, least reliable first (nominal alpha of each against the rest)",
    "annotators": "alpha without each annotator (change: how much the others gain)",
    "pairwise": "alpha of every pair of annotators",
    "coincidences": "coincidences (Krippendorff's o_vw; n_v: marginals)",
    "documents": "documents, least reliable first",
}


def diagnostic_sections(found: dict[str, pd.DataFrame]) -> list[Section]:
    """Titled tables of :func:`clusteragree.core.diagnostics.diagnostics`, for
    :func:`text_report`.

    Parameters
    ----------
    found : dict of DataFrame
        The diagnostics by name (``units``, ``categories``, ``annotators``, ``pairwise``,
        ``coincidences``, ``documents``).

    Returns
    -------
    list of (title, DataFrame)
        In that order, those present; the units one table per distance (without the
        ``document`` column when no unit has one); the pairwise and coincidence matrices keep
        their row labels as a first column.

    References
    ----------
    docs/uncertainty.md, "Where the disagreement sits".

    Examples
    --------
    >>> import pandas as pd
    >>> units = pd.DataFrame({"distance": ["nominal", "jaccard"], "rank": [1, 1],
    ...                       "unit": ["u2", "u1"], "document": [None, None]})
    >>> [title for title, _ in diagnostic_sections({"units": units})]
    ["units that disagree most under nominal (each annotator's value)",
     "units that disagree most under jaccard (each annotator's value)"]
    """
    out: list[Section] = []
    for name, title in _TITLES.items():
        if name not in found:
            continue
        frame = found[name]
        if name == "units":
            out += _unit_sections(frame)
            continue
        if name in ("pairwise", "coincidences"):
            frame = frame.reset_index(names="")
        out.append((title, frame))
    return out


def _unit_sections(frame: pd.DataFrame) -> list[Section]:
    """One table per distance: rank, unit, document (where there are documents), m_u, the
    contribution and its share, and each annotator's value."""
    if "distance" not in frame:  # a frame of worst_units alone
        return [(_TITLES["units"], frame.drop(columns=["key", "position"], errors="ignore"))]
    out: list[Section] = []
    names = list(dict.fromkeys([*frame.attrs.get("distances", ()), *frame["distance"]]))
    for distance in names:
        rows = frame[frame["distance"] == distance]
        title = f"units that disagree most under {distance} (each annotator's value)"
        shown = rows.drop(columns=["distance", "key", "position"], errors="ignore")
        if "document" in shown and shown["document"].isna().all():
            shown = shown.drop(columns=["document"])
        out.append((title, shown.reset_index(drop=True) if len(shown) else
                    f"no unit disagrees under {distance}"))
    return out
