"""Hripcsak & Rothschild (2005): F1 is positive specific agreement, and kappa over positions
approaches it as the positions nobody marked grow in number.

For two annotators and one label, with ``a`` positions both marked, ``b`` and ``c`` marked by
one only and ``d`` by neither, the paper gives ``F1 = 2a / (2a + b + c)`` and Cohen's
``kappa = 2 (ad - bc) / ((a + c)(c + d) + (a + b)(b + d))``, which tends to F1 as ``d`` grows.
This script builds spans of one position each that realise such a table, computes F1 by
matching and kappa over IO tags with clusteragree's engines, and prints them beside the
paper's formulas for growing ``d``; then the three figures the paper puts side by side (F1,
kappa over every position, kappa over the positions someone marked) on a real doubly annotated
corpus (participant-analysis, BRAT, when ../shared/corpora is beside the project).

Usage::

    python scripts/reproduce_hripcsak2005.py [--out FILE | --docs]

``--docs`` writes docs/reproduction/hripcsak2005.md.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _cli import output_path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "reproduction" / "hripcsak2005.md"
PA = ROOT.parent / "shared" / "corpora" / "coref-multi-annotator" / "participant-analysis"


def table_spans(a: int, b: int, c: int) -> list[tuple[str, str, int, int, str]]:
    """Spans of one position each, one after another: ``a`` marked by both, ``b`` by A only,
    ``c`` by B only (the tags of the token measures are per position, so adjacent spans of one
    label do not matter to them; matching F1 takes the spans themselves)."""
    spans = []
    for pos, who in enumerate(["AB"] * a + ["A"] * b + ["B"] * c):
        spans += [(x, "d", pos, pos + 1, "x") for x in who]
    return spans


def formulas(a: int, b: int, c: int, d: int) -> tuple[float, float]:
    """The paper's F1 and Cohen's kappa of the 2 x 2 table."""
    f1 = 2 * a / (2 * a + b + c)
    kappa = 2 * (a * d - b * c) / ((a + c) * (c + d) + (a + b) * (b + d))
    return f1, kappa


def limit_table() -> pd.DataFrame:
    from clusteragree.core.span_match import span_f1_pairs
    from clusteragree.core.span_tokens import token_agreement

    a, b, c = 40, 10, 6
    spans = table_spans(a, b, c)
    rows = []
    f1 = span_f1_pairs(spans, "exact").query("pooled and average == 'micro'").f1.iloc[0]
    for d in (10, 100, 1_000, 10_000, 100_000):
        length = a + b + c + d  # every position after the spans is one nobody marked
        kappa = token_agreement(spans, {"d": length}, scheme="io").query(
            "pooled and subset == 'all' and measure == 'cohen_kappa'").value.iloc[0]
        paper_f1, paper_kappa = formulas(a, b, c, d)
        rows.append({"d (unmarked positions)": d, "F1 (matching)": f1,
                     "F1 (paper)": paper_f1, "kappa (IO tags)": kappa,
                     "kappa (paper)": paper_kappa, "F1 - kappa": f1 - kappa})
    return pd.DataFrame(rows)


def corpus_table() -> pd.DataFrame | None:
    if not PA.is_dir():
        return None
    from clusteragree.spans import read_spans
    from clusteragree.spans.agreement import span_agreement

    with warnings.catch_warnings():  # the notes and chains BRAT holds are not spans
        warnings.simplefilter("ignore")
        corpus = read_spans([PA / "A", PA / "B"], "brat", text_dir=PA / "text")
        found = span_agreement(corpus, ["f1", "tokens"], rules=["exact"], scheme="io")
    f1 = found.f1.query("average == 'micro'").f1.iloc[0]
    tokens = found.tokens.query("measure == 'cohen_kappa'").set_index("subset")
    return pd.DataFrame([
        {"figure": "F1, exact matching (positive specific agreement)", "value": f1,
         "positions": None},
        {"figure": "Cohen's kappa over every character (IO tags)",
         "value": tokens.loc["all", "value"], "positions": tokens.loc["all", "positions"]},
        {"figure": "Cohen's kappa over the characters someone marked",
         "value": tokens.loc["annotated", "value"],
         "positions": tokens.loc["annotated", "positions"]}])


def markdown(frame: pd.DataFrame, digits: int) -> str:
    """A pipe table of ``frame`` (numbers to ``digits`` decimals, whole numbers as they are)."""
    def cell(v: object) -> str:
        if v is None or (isinstance(v, float) and v != v):
            return ""
        if isinstance(v, float) and not float(v).is_integer():
            return f"{v:.{digits}f}"
        return str(int(v)) if isinstance(v, float) else str(v)
    head = "| " + " | ".join(map(str, frame.columns)) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(
        index=False)]
    return "\n".join([head, rule, *body])


def report() -> str:
    limit = limit_table()
    lines = [
        "# Hripcsak & Rothschild (2005): F1, kappa and the unmarked positions",
        "",
        "Written by `scripts/reproduce_hripcsak2005.py --docs`.",
        "",
        "Hripcsak, G. and Rothschild, A. S. (2005). Agreement, the F-measure, and reliability in",
        "information retrieval. JAMIA 12(3):296-298.",
        "",
        "## The limit",
        "",
        "Two annotators, one label, spans of one position: 40 marked by both (a), 10 by A only",
        "(b), 6 by B only (c), and d positions marked by neither. F1 by exact matching and",
        "Cohen's kappa over IO tags, computed by clusteragree's engines (`span_f1_pairs`,",
        "`token_agreement`), beside the paper's formulas F1 = 2a / (2a + b + c) and",
        "kappa = 2(ad - bc) / ((a + c)(c + d) + (a + b)(b + d)):",
        "",
        markdown(limit, 6),
        "",
        "Both columns of each pair agree to the last digit, and kappa approaches F1 as d grows:",
        "F1 needs no count of the negatives, which are often undefined for spans.",
        "",
        "## On a real corpus",
        "",
    ]
    real = corpus_table()
    if real is None:
        lines.append("(../shared/corpora is not beside the project: not computed.)")
    else:
        f1, every, marked = real["value"].tolist()
        lines += [
            "participant-analysis (two annotators' BRAT mentions over 13 texts, character",
            "offsets): the three figures the paper puts side by side.",
            "",
            markdown(real, 4),
            "",
            f"Kappa over every character ({every:.4f}) is "
            f"{'above' if every > f1 else 'below'} F1 ({f1:.4f}): exact matching counts a "
            "mention whose ends differ by one character as two misses, while the characters "
            "it shares still agree. Over the characters someone marked, nearly every one is "
            f"marked by both, so chance agreement is close to 1 and kappa ({marked:.4f}) says "
            "little: the prevalence problem that makes the paper prefer F1 for spans.",
        ]
    return "\n".join(lines) + "\n"


def main() -> int:
    path = output_path(__doc__, DOC)
    text = report()
    print(text, end="")
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
