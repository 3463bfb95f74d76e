"""Every multi-label measure on the same data, one row each (``clusteragree table`` on
multi-label files)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

import pandas as pd

from ..core.coefficient import alpha_many
from ..core.model import CodingTable
from .bhowmick import a_m
from .model import MultiLabel, require_multilabel
from .mvalpha import mv_alpha
from .rosenberg_binkowski import augmented_kappa

__all__ = ["measures_table"]


def measures_table(
    data: MultiLabel,
    *,
    ps: tuple[float, ...] = (0.5, 0.75, 1.0),
    distances: tuple[str, ...] = ("nominal", "jaccard", "dice", "masi"),
    categories: Iterable[Hashable] | None = None,
) -> pd.DataFrame:
    """Every measure on the same data, one row each: augmented kappa K' at each p (when every
    cell has one label or ranked labels), A_m (the paper's and the consistent variant), alpha
    with each set distance, and multi-valued alpha. Comparing them tells more than any one.

    Returns a DataFrame with the columns ``measure, value, observed, expected, note``.
    """
    require_multilabel(data)

    rows = []
    two_unranked = (not data.ranked and data.weights is None
                    and any(len(v) > 1 for v in data.cells.values()))
    if data.weights is not None:
        ps = ps[:1]
    for p in ps:
        if two_unranked:
            rows.append({"measure": f"K' (p={p:g})", "value": float("nan"),
                         "note": "needs ranked labels"})
            continue
        r = augmented_kappa(data, p)
        name = "K' (given weights)" if data.weights is not None else f"K' (p={p:g})"
        rows.append({"measure": name, "value": r.kappa, "observed": r.p_a,
                     "expected": r.p_e, "note": "Rosenberg & Binkowski; mean over pairs"})
    cats = list(categories) if categories is not None else None
    for consistent in (False, True):
        am = a_m(data, categories=cats, consistent=consistent)
        rows.append({"measure": "A_m" + (" (consistent Po)" if consistent else ""),
                     "value": am.a_m, "observed": am.po, "expected": am.pe,
                     "note": "Bhowmick et al." + ("; [0 1] = [1 0] in Po" if consistent else "")})
    table = CodingTable.from_records(
        (annotator, item, frozenset(labels)) for (annotator, item), labels in data.cells.items())
    for res in alpha_many(table, distances):
        rows.append({"measure": f"alpha ({res.distance})", "value": res.alpha,
                     "observed": res.D_o, "expected": res.D_e, "note": res.signature})
    units: dict[Hashable, dict[Hashable, set[Hashable]]] = {}
    for (annotator, item), labels in data.cells.items():
        units.setdefault(item, {})[annotator] = set(labels)
    mv = mv_alpha(units)
    rows.append({"measure": "mv-alpha", "value": mv.alpha, "observed": mv.do, "expected": mv.de,
                 "note": "Krippendorff & Craggs 2016"})
    return pd.DataFrame(rows, columns=["measure", "value", "observed", "expected", "note"])
