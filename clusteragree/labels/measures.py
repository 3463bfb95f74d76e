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

    Parameters
    ----------
    data : MultiLabel
        The labels.
    ps : tuple of float, default=(0.5, 0.75, 1.0)
        Primary weights for augmented kappa, each in [0.5, 1]. With explicit weights only the
        first is used (the weights replace p); when a cell has two labels without ranks, the
        K' rows are NaN ("needs ranked labels").
    distances : tuple of str, default=("nominal", "jaccard", "dice", "masi")
        Set distances for Krippendorff's alpha, one row each (any name the distance registry
        knows, see docs/distances.md).
    categories : iterable of hashable, optional
        The scheme's categories for A_m (default: the labels used).

    Returns
    -------
    pandas.DataFrame
        One row per measure, with the columns ``measure`` (its name and option), ``value``,
        ``observed`` and ``expected`` (the observed and chance agreement for K' and A_m, the
        observed and expected disagreement for alpha and mv-alpha) and ``note`` (the source, or
        alpha's signature).

    References
    ----------
    Rosenberg, A. and Binkowski, E. (2004). Augmenting the kappa statistic to determine
    interannotator reliability for multiply labeled data points. HLT-NAACL 2004, short papers,
    pp. 77-80.

    Bhowmick, P. K., Mitra, P. and Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. Coling 2008 workshop on
    Human Judgements in Computational Linguistics, pp. 58-65.

    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability.

    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. LREC 2006.

    Krippendorff, K. and Craggs, R. (2016). The reliability of multi-valued coding of data.
    Communication Methods and Measures, 10(4), 181-198.

    docs/multilabel.md; docs/cli.md (``clusteragree table``).

    Examples
    --------
    Two annotators, one label per item: they agree on u1 (a), u2 (b) and u4 (c) and not on u3
    (a against b). K' is Cohen's kappa at every p: p(A) = 3/4, Freq_A = (1/2, 1/4, 1/4) and
    Freq_B = (1/4, 1/2, 1/4) give p(E) = 5/16 and K' = (7/16) / (11/16) = 7/11. For A_m, u3 agrees
    on none of the pairs ab, ac, bc, so Po = 3/4; Pe is the mean of 10/16, 8/16 and 8/16,
    13/24, and A_m = (18/24 - 13/24) / (11/24) = 5/11 (7/11 when u3's ``[1 0]`` against
    ``[0 1]`` on ab counts, Po = 5/6). Every alpha is nominal alpha on single labels: of 8
    values (a 3, b 3, c 2), D_o = 2/8 and D_e = (8 x 8 - 9 - 9 - 4) / (8 x 7) = 3/4, so
    alpha = 1 - (1/4) / (3/4) = 2/3:

    >>> data = MultiLabel.from_records([("u1", "A", "a"), ("u1", "B", "a"), ("u2", "A", "b"),
    ...                                 ("u2", "B", "b"), ("u3", "A", "a"), ("u3", "B", "b"),
    ...                                 ("u4", "A", "c"), ("u4", "B", "c")])
    >>> measures_table(data)[["measure", "value", "observed", "expected"]].round(4)
                   measure   value  observed  expected
    0           K' (p=0.5)  0.6364    0.7500    0.3125
    1          K' (p=0.75)  0.6364    0.7500    0.3125
    2             K' (p=1)  0.6364    0.7500    0.3125
    3                  A_m  0.4545    0.7500    0.5417
    4  A_m (consistent Po)  0.6364    0.8333    0.5417
    5      alpha (nominal)  0.6667    0.2500    0.7500
    6      alpha (jaccard)  0.6667    0.2500    0.7500
    7         alpha (dice)  0.6667    0.2500    0.7500
    8         alpha (masi)  0.6667    0.2500    0.7500
    9             mv-alpha  0.6667    0.2500    0.7500
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
        rows.append({"measure": name, "value": r.value, "observed": r.p_a,
                     "expected": r.p_e, "note": "Rosenberg & Binkowski; mean over pairs"})
    cats = list(categories) if categories is not None else None
    for consistent in (False, True):
        am = a_m(data, categories=cats, consistent=consistent)
        rows.append({"measure": "A_m" + (" (consistent Po)" if consistent else ""),
                     "value": am.value, "observed": am.p_a, "expected": am.p_e,
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
    rows.append({"measure": "mv-alpha", "value": mv.alpha, "observed": mv.D_o, "expected": mv.D_e,
                 "note": "Krippendorff & Craggs 2016"})
    return pd.DataFrame(rows, columns=["measure", "value", "observed", "expected", "note"])
