"""The rows of span F1 from the matched counts: every pair's rows, and their mean over pairs.

:func:`~clusteragree.core.span_match.span_f1_pairs` gives, for each rule, document (then the
pooled scope) and pair of annotators, a row per label the pair uses there, a micro row and,
for labelled rules, a macro row where some label is used. Here a rule's rows are laid out as
arrays of scopes x pairs x slots (the labels, then micro, then macro), a cell per possible row
and a mask of the rows that exist; read in that order, the cells are the rows in the order of
the output, so no sort is needed. :func:`~clusteragree.core.span_match.span_f1` averages the
same arrays along the pairs.

References
----------
Hripcsak, G. and Rothschild, A. S. (2005). Agreement, the F-measure, and reliability in
information retrieval. Journal of the American Medical Informatics Association 12(3):296-298.

docs/spans.md, "Matching F1".

Examples
--------
One scope, one pair, two labels; the pair marks only the first (tp 1 of 1 and 2 spans):

>>> import numpy as np
>>> cells = rule_cells(np.array([[[1, 0]]]), np.array([[[1, 0]]]), np.array([[[2, 0]]]),
...                    labelled=True)
>>> cells["present"].tolist()  # label 1 unused; micro; macro
[[[True, False, True, True]]]
>>> cells["f1"][0, 0, [0, 2, 3]].round(4).tolist()
[0.6667, 0.6667, 0.6667]
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from .frames import TOTAL

__all__ = ["OUT_COLUMNS", "over_pairs", "pair_rows", "rule_cells"]

IntArray = npt.NDArray[np.int64]

OUT_COLUMNS = ["document", "pooled", "rule", "label", "average", "reference", "other", "tp",
               "n_reference", "n_other", "precision", "recall", "f1", "labels"]
COUNTS = ("tp", "n_reference", "n_other")
RATIOS = ("precision", "recall", "f1")


def _ratios(tp: Any, n_ref: Any, n_other: Any) -> tuple[Any, Any, Any]:
    with np.errstate(divide="ignore", invalid="ignore"):
        tp, n_ref, n_other = (np.asarray(x, dtype=float) for x in (tp, n_ref, n_other))
        return tp / n_other, tp / n_ref, 2 * tp / (n_ref + n_other)


def rule_cells(tp: IntArray, n_ref: IntArray, n_other: IntArray, labelled: bool
               ) -> dict[str, Any]:
    """Every row one rule can have, as scopes x pairs x slots arrays.

    Parameters
    ----------
    tp, n_ref, n_other : ndarray of int, shape (scopes, pairs, labels)
        Matched pairs and the spans of each side (the pooled scope included).
    labelled : bool
        Whether the rule is labelled: slots are then the labels, micro and macro; else micro
        alone (``labels`` has one entry, the total).

    Returns
    -------
    dict
        ``tp, n_reference, n_other, precision, recall, f1, labels`` and ``present`` (the rows
        that exist: a label where the pair marks a span, micro always, macro where some label
        is used), each of shape (scopes, pairs, slots).

    References
    ----------
    docs/spans.md, "Matching F1".

    Examples
    --------
    An unlabelled rule has the micro slot only:

    >>> import numpy as np
    >>> one = np.ones((1, 1, 1), dtype=np.int64)
    >>> rule_cells(one, one, one, labelled=False)["f1"].tolist()
    [[[1.0]]]
    """
    p, r, f = _ratios(tp, n_ref, n_other)
    used = (n_ref + n_other) > 0
    sums = [x.sum(axis=2) for x in (tp, n_ref, n_other)]
    count = used.sum(axis=2)
    micro = [*sums, *_ratios(*sums)]
    if not labelled:
        cells = {k: x[:, :, None] for k, x in zip((*COUNTS, *RATIOS), micro, strict=True)}
        return {**cells, "labels": count[:, :, None], "present": np.ones((*count.shape, 1),
                                                                          dtype=bool)}
    with np.errstate(divide="ignore", invalid="ignore"):
        def mean(x: Any) -> Any:
            ok = used & ~np.isnan(x)
            return np.where(ok.any(axis=2), np.where(ok, x, 0).sum(axis=2) / ok.sum(axis=2),
                            np.nan)
        macro = [*sums, mean(p), mean(r), mean(f)]
    per_label = [tp, n_ref, n_other, p, r, f]
    cells = {k: np.concatenate([a, m[:, :, None], c[:, :, None]], axis=2)
             for k, a, m, c in zip((*COUNTS, *RATIOS), per_label, micro, macro, strict=True)}
    cells["labels"] = np.concatenate([np.ones_like(tp), count[:, :, None], count[:, :, None]],
                                     axis=2)
    cells["present"] = np.concatenate([used, np.ones_like(used[:, :, :1]),
                                       (count > 0)[:, :, None]], axis=2)
    return cells


def _keys(scope: IntArray, rule: IntArray, slot: IntArray, n_label_slots: IntArray,
          docs: Sequence[Hashable], rules: Sequence[str], labels: Sequence[Hashable]
          ) -> dict[str, Any]:
    """The columns naming a row: document, pooled, rule, label, average."""
    kind = np.where(slot < n_label_slots, 0, np.where(slot == n_label_slots, 1, 2))
    return {"document": _take([*docs, TOTAL], scope), "pooled": scope == len(docs),
            "rule": _take(rules, rule),
            "label": _take([*labels, TOTAL], np.where(kind == 0, slot, len(labels))),
            "average": _take(["", "micro", "macro"], kind)}


def pair_rows(blocks: list[dict[str, Any]], docs: Sequence[Hashable], rules: Sequence[str],
              labels: Sequence[Hashable], pairs: Sequence[tuple[Hashable, Hashable]]
              ) -> pd.DataFrame:
    """The rows of :func:`~clusteragree.core.span_match.span_f1_pairs` from each rule's
    :func:`rule_cells`, rule by rule, then by scope, pair and slot.

    Parameters
    ----------
    blocks : list of dict
        :func:`rule_cells` of each rule, in the order of ``rules``.
    docs, rules, labels : sequence
        The documents (scopes but the last, the pooled one), the rules, and the labels (the
        label slots of labelled rules).
    pairs : sequence of tuple
        The annotators (reference, other) of each pair, in the order of the pairs' axis.

    Returns
    -------
    DataFrame
        The columns :data:`OUT_COLUMNS`.

    References
    ----------
    docs/spans.md, "Matching F1".

    Examples
    --------
    >>> import numpy as np
    >>> one = np.ones((2, 1, 1), dtype=np.int64)  # a document and the pooled scope
    >>> cells = rule_cells(one, one, one, labelled=False)
    >>> pair_rows([cells], ["d"], ["exact-span"], ["x"], [("A", "B")])[["document", "f1"]]
      document   f1
    0        d  1.0
    1    TOTAL  1.0
    """
    parts = []
    for k, cells in enumerate(blocks):
        present = cells["present"]
        scope, pair, slot = np.nonzero(present)  # in C order: scope, then pair, then slot
        n_label_slots = present.shape[2] - 2 if present.shape[2] > 1 else 0
        parts.append({"scope": scope, "pair": pair, "slot": slot,
                      "rule": np.full(len(scope), k), "n_label_slots": n_label_slots,
                      **{c: cells[c][present] for c in (*COUNTS, *RATIOS, "labels")}})
    merged = {c: np.concatenate([np.broadcast_to(p[c], p["scope"].shape) for p in parts])
              for c in parts[0]}
    who = [[p[side] for p in pairs] for side in (0, 1)]
    return pd.DataFrame({
        **_keys(merged["scope"], merged["rule"], merged["slot"], merged["n_label_slots"],
                docs, rules, labels),
        "reference": _take(who[0], merged["pair"]), "other": _take(who[1], merged["pair"]),
        **{c: merged[c] for c in OUT_COLUMNS[7:]}}).astype(
            {"tp": np.int64, "n_reference": np.int64, "n_other": np.int64,
             "labels": np.int64, "pooled": bool})


def over_pairs(blocks: list[dict[str, Any]], docs: Sequence[Hashable], rules: Sequence[str],
               labels: Sequence[Hashable]) -> pd.DataFrame:
    """The rows of :func:`~clusteragree.core.span_match.span_f1`: for each rule, scope and
    slot that some pair has, the mean, population sd, min, max and count of the pairs'
    defined F1; in order of each group's first row among the pairs' rows.

    Parameters
    ----------
    blocks : list of dict
        :func:`rule_cells` of each rule, in the order of ``rules``.
    docs, rules, labels : sequence
        As :func:`pair_rows`.

    Returns
    -------
    DataFrame
        ``document, pooled, rule, label, average, f1, sd, min, max, pairs``.

    References
    ----------
    Hripcsak, G. and Rothschild, A. S. (2005). Agreement, the F-measure, and reliability in
    information retrieval. Journal of the American Medical Informatics Association
    12(3):296-298. (The mean pairwise F1.)

    Examples
    --------
    >>> import numpy as np
    >>> tp = np.array([[[1], [0]]])  # one scope, two pairs (F1 1 and 0)
    >>> cells = rule_cells(tp, np.ones_like(tp), np.ones_like(tp), labelled=False)
    >>> over_pairs([cells], [], ["exact-span"], [])[["f1", "sd", "min", "max", "pairs"]]
        f1   sd  min  max  pairs
    0  0.5  0.5  0.0  1.0      2
    """
    parts = []
    for k, cells in enumerate(blocks):
        present = cells["present"]
        f1 = cells["f1"]
        ok = present & ~np.isnan(f1)
        count = ok.sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = np.where(ok, f1, 0.0).sum(axis=1) / count
            dev = np.where(ok, f1 - mean[:, None, :], 0.0)
            sd = np.sqrt((dev * dev).sum(axis=1) / count)
        low = np.where(ok, f1, np.inf).min(axis=1)
        high = np.where(ok, f1, -np.inf).max(axis=1)
        low[count == 0] = high[count == 0] = np.nan
        seen = present.any(axis=1)
        first = present.argmax(axis=1)  # the first pair with the row
        scope, slot = np.nonzero(seen)
        order = np.lexsort((slot, first[scope, slot], scope))
        scope, slot = scope[order], slot[order]
        n_label_slots = present.shape[2] - 2 if present.shape[2] > 1 else 0
        parts.append({"scope": scope, "slot": slot, "rule": np.full(len(scope), k),
                      "n_label_slots": np.full(len(scope), n_label_slots),
                      "f1": mean[scope, slot], "sd": sd[scope, slot], "min": low[scope, slot],
                      "max": high[scope, slot], "pairs": count[scope, slot]})
    merged = {c: np.concatenate([p[c] for p in parts]) for c in parts[0]}
    return pd.DataFrame({
        **_keys(merged["scope"], merged["rule"], merged["slot"], merged["n_label_slots"],
                docs, rules, labels),
        **{c: merged[c] for c in ("f1", "sd", "min", "max")},
        "pairs": merged["pairs"].astype(np.int64)})


def _take(values: Sequence[Any], index: IntArray) -> Any:
    """The column of ``values[index]``, typed as pandas types the values it holds (strings as
    ``str``, a mix as ``object``) and built by taking from those values."""
    index = np.asarray(index, dtype=np.int64)
    present = np.flatnonzero(np.bincount(index, minlength=len(values)))
    held = np.empty(len(present), dtype=object)
    for k, at in enumerate(present.tolist()):
        held[k] = values[at]
    where = np.zeros(len(values), dtype=np.int64)
    where[present] = np.arange(len(present))
    return pd.Series(held).array.take(where[index])
