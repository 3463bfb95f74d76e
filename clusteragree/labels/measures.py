"""Every multi-label measure on the same data, one row each (``clusteragree table`` on
multi-label files)."""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Iterable

import pandas as pd

from ..core.coefficient import Engine, alpha_many
from ..errors import AlphaUndefinedWarning, ParameterError, option
from .bhowmick import a_m
from .model import MultiLabel, require_multilabel
from .mvalpha import mv_alpha
from .rosenberg_binkowski import augmented_kappa

__all__ = ["MEASURES", "measures_table"]

#: The families of measures, as ``--metrics`` names them.
MEASURES = ("kappa", "am", "alpha", "mvalpha")


def measures_table(
    data: MultiLabel,
    *,
    ps: tuple[float, ...] = (0.5, 0.75, 1.0),
    distances: tuple[str, ...] = ("nominal", "jaccard", "dice", "masi"),
    categories: Iterable[Hashable] | None = None,
    engine: Engine = "auto",
    metrics: Iterable[str] = MEASURES,
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
    engine : {"auto", "classes", "generic"}, default="auto"
        Alpha's engine (:func:`~clusteragree.core.coefficient.alpha`).
    metrics : iterable of str, default=MEASURES
        The families computed, among ``kappa`` (K'), ``am`` (A_m), ``alpha`` and
        ``mvalpha``; the others are not computed at all.

    Returns
    -------
    pandas.DataFrame
        One row per measure, with the columns ``measure`` (its name and option), ``value``,
        ``observed`` and ``expected`` (the observed and chance agreement for K' and A_m, the
        observed and expected disagreement for alpha and mv-alpha) and ``note`` (the source, or
        alpha's signature). K' where a cell holds two unranked labels, and A_m with fewer
        than two categories, are undefined: NaN, with an
        :class:`~clusteragree.errors.AlphaUndefinedWarning` (kind ``undefined``).

    Raises
    ------
    ParameterError
        About ``metrics``: mv-alpha's expected disagreement would enumerate too many sets
        (the message says how to leave it out); about ``categories``: a label not among them.

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
    chosen = set(metrics)
    if not chosen <= set(MEASURES):
        raise ParameterError(f"metrics must be among {', '.join(MEASURES)}. Got "
                             f"{sorted(chosen)!r}.", params=("metrics",))
    rows = []
    two_unranked = (not data.ranked and data.weights is None
                    and any(len(v) > 1 for v in data.cells.values()))
    if data.weights is not None:
        ps = ps[:1]
    if "kappa" in chosen and two_unranked:
        warnings.warn(AlphaUndefinedWarning(
            "K' is undefined: a cell holds two labels without ranks, and augmented kappa "
            "weighs a primary and a secondary label (give a rank column)"), stacklevel=2)
    for p in ps if "kappa" in chosen else ():
        if two_unranked:
            rows.append({"measure": f"K' (p={p:g})", "value": float("nan"),
                         "note": "needs ranked labels"})
            continue
        r = augmented_kappa(data, p)
        name = "K' (given weights)" if data.weights is not None else f"K' (p={p:g})"
        if r.value != r.value:
            warnings.warn(AlphaUndefinedWarning(
                f"{name} is undefined: the agreement expected by chance is 1 (the "
                "annotators use one and the same label)"), stacklevel=2)
        rows.append({"measure": name, "value": r.value, "observed": r.p_a,
                     "expected": r.p_e, "note": "Rosenberg & Binkowski; mean over pairs"})
    cats = list(categories) if categories is not None else None
    few = len(cats if cats is not None else data.categories) < 2
    if "am" in chosen and few:
        warnings.warn(AlphaUndefinedWarning(
            "A_m is undefined: it needs two categories at least (one label is used: every "
            "agreement is expected by chance)"), stacklevel=2)
    for consistent in (False, True) if "am" in chosen else ():
        name = "A_m" + (" (consistent Po)" if consistent else "")
        note = "Bhowmick et al." + ("; [0 1] = [1 0] in Po" if consistent else "")
        if few:
            rows.append({"measure": name, "value": float("nan"),
                         "note": "needs two categories"})
            continue
        am = a_m(data, categories=cats, consistent=consistent)
        rows.append({"measure": name, "value": am.value, "observed": am.p_a,
                     "expected": am.p_e, "note": note})
    if "alpha" in chosen:
        for res in alpha_many(data.coding_table(), distances, engine=engine):
            rows.append({"measure": f"alpha ({res.distance})", "value": res.alpha,
                         "observed": res.D_o, "expected": res.D_e, "note": res.signature})
    if "mvalpha" in chosen:
        units: dict[Hashable, dict[Hashable, set[Hashable]]] = {}
        for (annotator, item), labels in data.cells.items():
            units.setdefault(item, {})[annotator] = set(labels)
        try:
            mv = mv_alpha(units)
        except ParameterError as err:
            if "too many to enumerate" not in str(err):
                raise
            rest = ",".join(m for m in MEASURES if m in chosen and m != "mvalpha") or "alpha"
            raise ParameterError(f"{err}: leave mv-alpha out ({option('metrics', rest)})",
                                 params=("metrics",)) from None
        if mv.alpha != mv.alpha:
            warnings.warn(AlphaUndefinedWarning(
                "mv-alpha is undefined: "
                + ("its expected disagreement is 0 (every label set the same)"
                   if mv.D_e == 0 else "fewer than two pairable label sets")), stacklevel=2)
        rows.append({"measure": "mv-alpha", "value": mv.alpha, "observed": mv.D_o,
                     "expected": mv.D_e, "note": "Krippendorff & Craggs 2016"})
    return pd.DataFrame(rows, columns=["measure", "value", "observed", "expected", "note"])
