"""What ``clusteragree spans`` writes: the tables of each measure, their JSON records and the
text report's headline."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..core.frames import TOTAL
from ..report.schema import records

__all__ = ["span_records", "span_sections", "span_tables"]

_CI = ("ci_low", "ci_high", "se")

#: The gamma family, as the headline names it.
GAMMAS = {"gamma": "Gamma (where units are and what they are)",
          "gamma-cat": "Gamma-cat (the categories of the aligned units)",
          "gamma-k": "Gamma-k (each category)"}

#: The unitizing coefficients, as the headline names them.
COEFFICIENTS = {
    "alpha_u": "Krippendorff's unitizing alpha (1995/2004), over all categories",
    "u_alpha": "u-alpha (2016: where units are and what they are)",
    "bu_alpha": "|u-alpha (2016: where units are, categories ignored)",
    "cu_alpha": "cu-alpha (2016: the categories of overlapping units)",
    "ku_alpha": "(k)u-alpha (2016: each category against the rest)",
}


def _document(value: Any) -> str | None:
    return None if value == TOTAL else str(value)


def _label(value: Any) -> str | None:
    return None if value is None or (isinstance(value, float) and np.isnan(value)) \
        else str(value)


def _shown(frame: pd.DataFrame, columns: list[str], per_doc: bool) -> pd.DataFrame:
    """The columns of a table (the document's when there are rows per document, and the
    interval's when there is one)."""
    keep = (["document"] if per_doc else []) + columns
    keep += [c for c in _CI if c in frame and frame[c].notna().any()]
    if "ci_method" in frame and frame["ci_method"].notna().any() \
            and frame["ci_method"].dropna().nunique() > 1:
        keep.append("ci_method")  # BCa not usable on some rows: say which interval each is
    return frame[[c for c in keep if c in frame]].reset_index(drop=True)


def span_tables(results: Any, *, alignment: bool = False) -> dict[str, pd.DataFrame]:
    """The tables of the measures computed, by the name ``--table`` gives them."""
    per_doc = bool(results.settings.get("per_document"))
    out: dict[str, pd.DataFrame] = {}
    if results.f1 is not None:
        out["f1"] = _shown(_by_label(results.f1), ["rule", "label", "average", "f1", "sd",
                                                   "min", "max", "pairs"], per_doc)
        out["f1-pairs"] = _shown(_by_label(results.f1_pairs), [
            "rule", "label", "average", "reference", "other", "tp", "n_reference", "n_other",
            "precision", "recall", "f1"], per_doc)
    if results.tokens is not None:
        out["tokens"] = _shown(results.tokens, ["subset", "measure", "value", "positions"],
                               per_doc)
    if results.unitizing is not None:
        shown = results.unitizing.assign(category=results.unitizing["category"].map(
            lambda c: "all" if c is None else c))
        out["unitizing"] = _shown(shown, ["coefficient", "category", "alpha", "D_o", "D_e",
                                          "units", "length", "annotators"], per_doc)
    if results.gamma is not None:
        shown = results.gamma.assign(category=results.gamma["category"].map(
            lambda c: "" if _label(c) is None else c))
        out["gamma"] = _shown(shown, ["measure", "category", "value", "observed", "expected",
                                      "precision", "n_samples", "units"], per_doc)
    if alignment and results.alignment is not None:
        out["alignment"] = alignment_table(results)
    return out


def _by_label(frame: pd.DataFrame) -> pd.DataFrame:
    """F1 rows in reading order: per document and rule, the labels sorted, then the micro and
    macro rows over all labels."""
    order = {d: i for i, d in enumerate(dict.fromkeys(frame["document"]))}
    rank = frame["average"].map({"": 0, "micro": 1, "macro": 2}).fillna(0)
    key = pd.DataFrame({"doc": frame["document"].map(order), "rule": frame["rule"],
                        "rank": rank, "label": frame["label"].astype(str)})
    return frame.loc[key.sort_values(["doc", "rule", "rank", "label"], kind="stable").index]


def alignment_table(results: Any) -> pd.DataFrame:
    """Gamma's best alignment, one row per unitary alignment and a column per annotator
    (``start-end label``, empty where the annotator has no unit in it)."""
    found = results.alignment
    spans = results.corpus.spans
    if not len(found):
        return pd.DataFrame(columns=["document", "unitary", "disorder"])
    cells = []
    for row in found.itertuples():
        if row.span is None or pd.isna(row.span):
            text = ""
        else:
            s = spans.loc[int(row.span)]
            text = f"{s['start']}-{s['end']} {s['label']}"
        cells.append(text)
    wide = found.assign(cell=cells).pivot_table(index=["document", "unitary", "disorder"],
                                                columns="annotator", values="cell",
                                                aggfunc="first", sort=False)
    wide = wide.reindex(columns=list(results.corpus.annotators)).fillna("")
    wide.columns = [str(c) for c in wide.columns]
    return wide.reset_index()


def _with_ci(rec: dict[str, Any], row: dict[str, Any], about: dict[str, Any] | None
             ) -> dict[str, Any]:
    """The record with its interval, standard error and how they were drawn, when the row
    has an interval."""
    low = row.get("ci_low")
    if low is not None and not (isinstance(low, float) and np.isnan(low)):
        rec["ci"] = [low, row.get("ci_high")]
        rec["se"] = row.get("se")
        if about is not None:
            drawn = {k: v for k, v in about.items() if k != "method"}
            drawn["method"] = row.get("ci_method") or about.get("method")
            if row.get("ci_note"):
                drawn["note"] = str(row["ci_note"])
            rec["bootstrap"] = drawn
    return rec


def span_records(results: Any, *, alignment: bool = False) -> list[dict[str, Any]]:
    """The results as JSON records (docs/schema/clusteragree-1.json): ``span_match`` (a pair
    of annotators), ``span_match_mean`` (the mean over pairs), ``token_agreement``,
    ``unitizing``, ``gamma`` and, with ``alignment``, ``aligned_unit``."""
    about = results.settings.get("bootstrap")
    out: list[dict[str, Any]] = []

    def rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
        """The rows, pooled first (the headline's figures lead), then in their order; F1's
        micro rows before the macro and label rows."""
        found = [dict(r) for r in records(frame, "x")]
        rank = {"micro": 0, "macro": 1}
        return sorted(found, key=lambda r: (not r.get("pooled", False),
                                             rank.get(r.get("average") or "", 2)))

    if results.f1 is not None:
        for r in rows(results.f1):
            out.append(_with_ci({
                "kind": "span_match_mean", "document": _document(r["document"]),
                "pooled": bool(r["pooled"]), "rule": r["rule"],
                "label": _label(r["label"]) if r["label"] != TOTAL else None,
                "average": r["average"] or None, "f1": r["f1"], "sd": r["sd"], "min": r["min"],
                "max": r["max"], "pairs": int(r["pairs"])}, r, about))
    if results.tokens is not None:
        for r in rows(results.tokens):
            out.append(_with_ci({
                "kind": "token_agreement", "document": _document(r["document"]),
                "pooled": bool(r["pooled"]), "scheme": results.settings["scheme"],
                "subset": r["subset"], "measure": r["measure"], "value": r["value"],
                "positions": int(r["positions"])}, r, about))
    if results.unitizing is not None:
        for r in rows(results.unitizing):
            out.append(_with_ci({
                "kind": "unitizing", "coefficient": r["coefficient"],
                "document": _document(r["document"]), "pooled": bool(r["pooled"]),
                "category": _label(r["category"]), "alpha": r["alpha"], "D_o": r["D_o"],
                "D_e": r["D_e"], "units": int(r["units"]), "length": int(r["length"]),
                "annotators": int(r["annotators"])}, r, about))
    if results.gamma is not None:
        for r in rows(results.gamma):
            out.append(_with_ci({
                "kind": "gamma", "document": _document(r["document"]),
                "pooled": bool(r["pooled"]), "measure": r["measure"],
                "category": _label(r.get("category")), "value": r["value"],
                "observed": r["observed"], "expected": r["expected"],
                "n_samples": int(r["n_samples"]), "precision": r["precision"],
                "seed": int(r["seed"]), "units": int(r["units"]),
                "annotators": int(r["annotators"])}, r, about))
    if results.f1_pairs is not None:
        for r in rows(results.f1_pairs):
            out.append({"kind": "span_match", "document": _document(r["document"]),
                        "pooled": bool(r["pooled"]), "rule": r["rule"],
                        "label": _label(r["label"]) if r["label"] != TOTAL else None,
                        "average": r["average"] or None, "reference": str(r["reference"]),
                        "other": str(r["other"]), "tp": int(r["tp"]),
                        "n_reference": int(r["n_reference"]), "n_other": int(r["n_other"]),
                        "precision": r["precision"], "recall": r["recall"], "f1": r["f1"]})
            _with_ci(out[-1], r, about)
    if alignment and results.alignment is not None:
        spans = results.corpus.spans
        for r in rows(results.alignment):
            span = r["span"]
            known = span is not None and not (isinstance(span, float) and np.isnan(span))
            s = spans.loc[int(span)] if known else None
            out.append({"kind": "aligned_unit", "document": str(r["document"]),
                        "unitary": int(r["unitary"]), "annotator": str(r["annotator"]),
                        "span": str(s["id"]) if s is not None else None,
                        "start": _number(s["start"]) if s is not None else None,
                        "end": _number(s["end"]) if s is not None else None,
                        "label": _label(s["label"]) if s is not None else None,
                        "disorder": r["disorder"]})
    return out


def _number(x: Any) -> int | float:
    x = float(x)
    return int(x) if x.is_integer() else x


def _value(x: Any) -> str:
    return "undefined" if x is None or (isinstance(x, float) and np.isnan(x)) else f"{x:.4f}"


def _ci(row: Any) -> str:
    low = row.get("ci_low") if hasattr(row, "get") else None
    if low is None or (isinstance(low, float) and np.isnan(low)):
        return ""
    return f" [{low:.4f}, {row.get('ci_high'):.4f}]"


def span_sections(results: Any, tables: dict[str, pd.DataFrame]
                  ) -> tuple[str, list[tuple[str | None, Any]]]:
    """The text report's headline (one line per measure) and its sections."""
    corpus = results.corpus
    lines = [f"{len(corpus.annotators)} annotators, {len(corpus.documents)} documents, "
             f"{corpus.n_spans} spans (offsets in {corpus.unit})"]
    sections: list[tuple[str | None, Any]] = []
    if results.f1 is not None:
        pooled = results.f1[(results.f1["document"] == TOTAL)
                            & (results.f1["average"] == "micro")]
        parts = [f"{r['rule']} {_value(r['f1'])}{_ci(r)}" for r in pooled.to_dict("records")]
        pairs = int(pooled["pairs"].max()) if len(pooled) else 0
        lines.append(f"Matching F1 (micro, mean over {pairs} pair{'s' * (pairs != 1)} of "
                     f"annotators): {', '.join(parts)}")
        sections.append(("matching F1, mean over the pairs of annotators (exact: same start, "
                         "end and label; overlap: sharing a position, same label, one to one)",
                         tables["f1"]))
        pairs_table = tables["f1-pairs"]
        sections.append(("matching F1 of each pair over all labels (the first annotator as "
                         "the reference; every label in -f json and --table f1-pairs)",
                         pairs_table[pairs_table["average"] != ""]))
    if results.tokens is not None:
        pooled = results.tokens[results.tokens["document"] == TOTAL]
        for subset, what in (("all", "all"), ("annotated", "annotated")):
            rows = pooled[pooled["subset"] == subset].to_dict("records")
            if rows:
                lines.append(f"Token-level agreement ({results.settings['scheme'].upper()} "
                             f"tags, {what} {rows[0]['positions']} positions): " + ", ".join(
                                 f"{r['measure'].replace('_', ' ')} {_value(r['value'])}"
                                 f"{_ci(r)}" for r in rows))
        sections.append(("token-level agreement (all positions, and the positions some "
                         "annotator marked)", tables["tokens"]))
    if results.unitizing is not None:
        pooled = results.unitizing[results.unitizing["document"] == TOTAL]
        for coefficient, what in COEFFICIENTS.items():
            mine = pooled[pooled["coefficient"] == coefficient]
            overall = mine[mine["category"].isna()].to_dict("records")
            cats = mine[mine["category"].notna()]
            if overall:
                shown = ", ".join(f"{_label(c)} {_value(a)}" for c, a in zip(
                    cats["category"], cats["alpha"], strict=True)) if len(cats) > 1 else ""
                lines.append(f"{what}: {_value(overall[0]['alpha'])}{_ci(overall[0])}"
                             + (f" ({shown})" if shown else ""))
            elif len(cats):  # (k)u-alpha: one per category
                lines.append(f"{what}: " + ", ".join(
                    f"{_label(r['category'])} {_value(r['alpha'])}{_ci(r)}"
                    for r in cats.to_dict("records")))
        sections.append(("unitizing alphas (coefficient alpha_u: Krippendorff 1995/2004; "
                         "u_alpha, bu_alpha (|u-alpha), cu_alpha, ku_alpha: Krippendorff et "
                         "al. 2016; category all: over every category)", tables["unitizing"]))
    if results.gamma is not None:
        pooled = results.gamma[results.gamma["pooled"].astype(bool)].to_dict("records")
        for row in pooled:
            if row["measure"] == "gamma-k":
                continue
            lines.append(f"{GAMMAS[row['measure']]}: {_value(row['value'])}{_ci(row)} "
                         f"(observed disorder {_value(row['observed'])}, expected "
                         f"{_value(row['expected'])} ±{row['precision'] * 100:.1f}% from "
                         f"{row['n_samples']} sampled continua, seed {row['seed']})")
        per_category = [r for r in pooled if r["measure"] == "gamma-k"]
        if per_category:
            lines.append(f"{GAMMAS['gamma-k']}: " + ", ".join(
                f"{_label(r['category'])} {_value(r['value'])}{_ci(r)}" for r in per_category))
        sections.append(("gamma (Mathet, Widlöcher & Métivier 2015), gamma-cat and gamma-k "
                         "(Mathet 2017), pooled: 1 - the documents' weighted observed over "
                         "expected disorders (docs/gamma.md)", tables["gamma"]))
    if "alignment" in tables:
        sections.append(("gamma's best alignment: one row per unitary alignment, a column per "
                         "annotator", tables["alignment"]))
    return "\n".join(lines), sections

