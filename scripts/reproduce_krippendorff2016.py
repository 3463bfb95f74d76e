"""Krippendorff, Mathet, Bouvry & Widlöcher (2016): the unitizing alpha family (u-alpha,
|u-alpha, cu-alpha, (k)u-alpha) on worked examples, each value worked out by hand from the
definitions beside what clusteragree computes, written to docs/reproduction/krippendorff2016.md
with --docs.

The paper's own worked example could not be consulted when this script was written: no value
printed in the paper or in Krippendorff (2019, section 12.6) is claimed here. The examples are
(1) two annotators marking PER, LOC and ORG in 20 characters, (2) Krippendorff's (2004, p. 254)
example of alpha_U, category by category, against the alpha_U printed there, (3) the three
readings of cu-alpha's self-pairs on three annotators, (4) when the ``krippendorff-unitized-
alpha`` package is importable, u-alpha against it on random continua.

Usage: ``python scripts/reproduce_krippendorff2016.py [--out OUTPUT.md | --docs]``
"""

from __future__ import annotations

import sys
import warnings
from fractions import Fraction as F
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from clusteragree import __version__
from clusteragree.core.unitizing import unitizing_alpha
from clusteragree.core.unitizing_family import unitizing_family
from clusteragree.errors import InputWarning

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _cli import output_path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "reproduction" / "krippendorff2016.md"

#: Example 1: A and B, 20 characters; B starts the person one character late and calls the
#: place an organisation.
EXAMPLE1 = [("A", "t", 2, 8, "PER"), ("A", "t", 12, 16, "LOC"),
            ("B", "t", 3, 8, "PER"), ("B", "t", 12, 16, "ORG")]
#: By hand (docs/unitizing.md): l.. = 40; l_∅∅ 20, l_PER,PER 10, l_PER,∅ 1, l_LOC,ORG 4 (and
#: mirrors); margins 21, 11, 4, 4; squared sections: gaps 10 + 11, PER 36 + 25, LOC 16,
#: ORG 16, so l..^2 - sum = 1486. cu: l* margins 10, 4, 4, total 18; S* = 25 + 25, 16, 16;
#: l*.. - sum S* / l*.. = 242 / 18; e*_PER,LOC = e*_PER,ORG = 720 / 242, e*_LOC,ORG = 288 / 242,
#: e*_PER,PER = 900 / 242, e*_LOC,LOC = e*_ORG,ORG = 0.
HAND1: dict[tuple[str, str | None], tuple[F, F]] = {  # (D_o, D_e)
    ("u_alpha", None): (F(10, 40), F(1600 - 441 - 121 - 16 - 16, 1486)),
    ("bu_alpha", None): (F(2, 40), F(2 * 21 * 19, 1486)),
    ("cu_alpha", None): (F(8, 18), F(2 * (720 + 720 + 288), 242 * 18)),
    ("ku_alpha", "PER"): (F(0), F(1440, 2340)),
    ("ku_alpha", "LOC"): (F(1), F(1)),
    ("ku_alpha", "ORG"): (F(1), F(1)),
}

#: Example 2: Krippendorff (2004, p. 254) on [150, 450), shifted to start at 0, as
#: (observer, begin, end); alpha_U printed there: 0.7286 (c) and 1 (k).
BOOK = {"c": [(0, 75, 145), (0, 220, 250), (1, 70, 150), (1, 205, 225), (1, 250, 270)],
        "k": [(0, 30, 90), (0, 150, 200), (1, 30, 90), (1, 150, 200)]}
PRINTED_ALPHA_U = {"c": "0.7286", "k": "1"}
#: By hand: c is valued differently at 70 of 300 positions (D_o = 140 / 600); 220 of the 600
#: values are c; squared units 13000, gap positions 380: D_e = (600^2 - 220^2 - 380^2) /
#: (600^2 - 13380). k: the observers agree (D_o = 0).
HAND2 = {"c": (F(140, 600), F(360000 - 220 ** 2 - 380 ** 2, 360000 - 13380)),
         "k": (F(0), F(360000 - 220 ** 2 - 380 ** 2, 360000 - 12200 - 380))}

#: Example 3: three annotators; A marks x and B marks y over the same ten positions, C nothing.
EXAMPLE3 = [("A", "d", 0, 10, "x"), ("B", "d", 0, 10, "y")]
#: By hand: l*_xy = l*_yx = 5, l*.. = 10; each unit is paired with one of two others over its
#: 10 positions. mean: S* = 5^2 + 5^2, l*.. - S*/l*.. = 5, e*_xy = 25 / 5 = 5: cu-alpha 0.
#: pairwise: S* = (10^2 + 0) / 2 twice = 100: l*.. - 10 = 0, undefined. union: S* = 200:
#: l*.. - 20 = -10, undefined.
HAND3 = {"mean": "0 (D_o = D_e = 1)", "pairwise": "undefined (l*.. - S*/l*.. = 0)",
         "union": "undefined (l*.. - S*/l*.. = -10)"}


def _quiet(spans: list[Any], lengths: dict[str, int], **kw: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        return unitizing_family(spans, lengths, **kw)


def _fmt(x: float) -> str:
    return "undefined" if np.isnan(x) else f"{x:.4f}"


def example1() -> tuple[list[str], int, int]:
    out = _quiet(EXAMPLE1, {"t": 20})
    lines = ["| coefficient | D_o by hand | D_e by hand | alpha by hand | D_o | D_e | alpha | "
             "agree |", "|---|---|---|---|---|---|---|---|"]
    agree = 0
    for row in out.itertuples():
        cat = row.category if row.coefficient == "ku_alpha" else None
        d_o, d_e = HAND1[row.coefficient, cat]
        a = 1 - d_o / d_e
        ok = all(abs(float(x) - y) < 1e-12 for x, y in ((d_o, row.D_o), (d_e, row.D_e),
                                                          (a, row.alpha)))
        agree += ok
        name = row.coefficient + (f" ({cat})" if cat else "")
        lines.append(f"| {name} | {d_o} | {d_e} | {float(a):.4f} | {row.D_o:.4f} | "
                     f"{row.D_e:.4f} | {row.alpha:.4f} | {'yes' if ok else '**no**'} |")
    return lines, agree, len(out)


def example2() -> tuple[list[str], int, int]:
    lines = ["| category | alpha_U printed (2004) | alpha_U computed | 2016 u-alpha by hand | "
             "2016 u-alpha | 2016 \\|u-alpha | agree |", "|---|---|---|---|---|---|---|"]
    agree = 0
    for cat, units in BOOK.items():
        old = unitizing_alpha({"book": (300, [(r, b, e, cat) for r, b, e in units])})[cat]
        out = _quiet([(r, "book", b, e, cat) for r, b, e in units], {"book": 300})
        got = out.set_index("coefficient")["alpha"]
        d_o, d_e = HAND2[cat]
        hand = 1 - d_o / d_e
        ok = abs(float(hand) - got["u_alpha"]) < 1e-12 and got["bu_alpha"] == got["u_alpha"]
        agree += ok
        lines.append(f"| {cat} | {PRINTED_ALPHA_U[cat]} | {old:.4f} | {float(hand):.4f} | "
                     f"{got['u_alpha']:.4f} | {got['bu_alpha']:.4f} | "
                     f"{'yes' if ok else '**no**'} |")
    return lines, agree, len(BOOK)


def example3() -> tuple[list[str], int, int]:
    lines = ["| self_pairs | cu-alpha by hand | cu-alpha computed | agree |",
             "|---|---|---|---|"]
    agree = 0
    for reading, hand in HAND3.items():
        out = _quiet(EXAMPLE3, {"d": 10}, annotators=["A", "B", "C"], self_pairs=reading)
        got = float(out.set_index("coefficient").loc["cu_alpha", "alpha"])
        ok = (np.isnan(got) and hand.startswith("undefined")) or (
            not np.isnan(got) and abs(got) < 1e-12 and hand.startswith("0"))
        agree += ok
        lines.append(f"| {reading} | {hand} | {_fmt(got)} | {'yes' if ok else '**no**'} |")
    return lines, agree, len(HAND3)


def example4(runs: int = 300) -> list[str]:
    try:
        from krippendorff_unitized_alpha.krippendorffs_unitized_alpha import (  # type: ignore
            EMPTY_TAG,
            KrippendorffUnitizedAlpha,
            Segment,
        )
    except ImportError:
        return ["The `krippendorff-unitized-alpha` package is not installed here: not compared "
                "(install it, `pip install --no-deps krippendorff-unitized-alpha`, and run "
                "again)."]
    rng = np.random.default_rng(2026)
    worst, compared, nan = 0.0, 0, 0
    for _ in range(runs):
        length, m = int(rng.integers(3, 200)), int(rng.integers(2, 6))
        names = [f"a{k}" for k in range(m)]
        spans, sections = [], {}
        for a in names:
            cuts = sorted({0, length, *rng.integers(0, length + 1,
                                                    int(rng.integers(0, 12))).tolist()})
            sections[a] = []
            for s, e in pairwise(cuts):
                tag = ["x", "y", "z", None][int(rng.integers(0, 4))]
                sections[a].append(Segment(tag or EMPTY_TAG, s, e))
                if tag:
                    spans.append((a, "d", s, e, tag))
        with np.errstate(all="ignore"):
            want = float(KrippendorffUnitizedAlpha(sections).result)
        got = float(_quiet(spans, {"d": length}, annotators=names)
                    .set_index("coefficient").loc["u_alpha", "alpha"])
        if np.isnan(got) or np.isnan(want):
            nan += int(np.isnan(got) and np.isnan(want))
            continue
        compared += 1
        worst = max(worst, abs(got - want))
    return [f"u-alpha of {compared} random continua (2-5 annotators, 3-199 positions, three "
            f"categories and gaps, seed 2026) against `krippendorff-unitized-alpha` 0.1.0: "
            f"largest difference {worst:.1e}; {nan} more undefined in both."]


def main() -> None:
    out = output_path(__doc__, OUT)
    one, ok1, n1 = example1()
    two, ok2, n2 = example2()
    three, ok3, n3 = example3()
    text = [
        "# Krippendorff et al. (2016): the unitizing alpha family on worked examples",
        "",
        f"Written by `scripts/reproduce_krippendorff2016.py` (clusteragree {__version__}). "
        "Definitions, sources and choices: docs/unitizing.md.",
        "",
        "**No printed value of the 2016 paper is reproduced here.** Its worked example, and the "
        "one of Krippendorff (2019, section 12.6), could not be consulted when this was "
        "written; the values below are worked out by hand from the definitions (exact "
        "fractions in the script), and the 2004 alpha_U is the one printed in Krippendorff "
        "(2004, p. 254). A printed example, once at hand, belongs in this script beside them.",
        "",
        "## 1. Two annotators, three categories",
        "",
        "A marks PER at 2-8 and LOC at 12-16 of 20 characters; B marks PER at 3-8 and ORG at "
        "12-16 (ends exclusive).",
        "",
        *one,
        "",
        "## 2. Krippendorff (2004, p. 254), one category at a time",
        "",
        "The 2004 example of alpha_U, on [150, 450) shifted to 0. Its observer 0 marks c over "
        "225-240 inside a unit of k: alpha_U takes the categories one at a time, the 2016 family "
        "one value per position, so the family is computed on each category alone (binary "
        "data, where u-alpha and |u-alpha coincide). The two coefficients differ: alpha_U "
        "weighs a unit by the squared shifts of its ends, the 2016 family counts positions "
        "valued differently.",
        "",
        *two,
        "",
        "## 3. cu-alpha's self-pairs, three annotators",
        "",
        "A marks x and B marks y over the same 10 positions; C marks nothing.",
        "",
        *three,
        "",
        "## 4. A second implementation",
        "",
        *example4(),
        "",
        f"{ok1 + ok2 + ok3} of {n1 + n2 + n3} hand-worked values agree.",
    ]
    body = "\n".join(text) + "\n"
    print(body, end="")
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(body, encoding="utf-8")


if __name__ == "__main__":
    main()
