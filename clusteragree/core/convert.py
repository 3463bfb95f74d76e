"""From SCU memberships of units to a coding table: each unit's value is its class minus itself.

Policies (written down in docs/pyramids.md):

* ``overlap`` (a unit in several SCUs, allowed since DUC 2005): ``"union"`` (default) gives the
  unit the union of the other units of all its SCUs; ``"component"`` merges SCUs that share a
  unit into one class (connected components), so values stay classes and the linear-time engine
  applies.
* ``unmarked`` (a unit in no SCU of a coder): ``"empty"`` (default) gives the empty set, a
  singleton class; ``"missing"`` leaves the cell missing.

When no unit is in two SCUs, both overlap policies give the same table, built from class ids.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from ..errors import ParameterError
from .model import CodingTable

__all__ = ["memberships_table"]

IntArray = npt.NDArray[np.int64]


def _class_ids(members: IntArray, n_units: int, overlap: str, unmarked: str) -> IntArray | None:
    """Class id per unit (-1 missing), or None when union values are not classes."""
    units, scus = members[:, 0], members[:, 1]
    counts = np.bincount(units, minlength=n_units)
    ids = np.full(n_units, -1, dtype=np.int64)
    if (counts <= 1).all():
        _, scu_class = np.unique(scus, return_inverse=True)
        ids[units] = scu_class.ravel()
    elif overlap == "component":
        scu_ids, scu_index = np.unique(scus, return_inverse=True)
        n_nodes = n_units + len(scu_ids)
        graph = sp.coo_matrix((np.ones(len(units)), (units, n_units + scu_index.ravel())),
                              shape=(n_nodes, n_nodes))
        _, labels = connected_components(graph, directed=False)
        covered = counts > 0
        ids[covered] = labels[:n_units][covered]
    else:
        return None
    alone = counts == 0
    if unmarked == "empty":
        ids[alone] = ids.max(initial=-1) + 1 + np.arange(int(alone.sum()))
    return ids


def _union_values(members: IntArray, n_units: int, unmarked: str) -> list[frozenset[int] | None]:
    by_scu: dict[int, list[int]] = {}
    by_unit: dict[int, list[int]] = {}
    for unit, scu in members.tolist():
        by_scu.setdefault(scu, []).append(unit)
        by_unit.setdefault(unit, []).append(scu)
    values: list[frozenset[int] | None] = []
    for t in range(n_units):
        if t not in by_unit:
            values.append(frozenset() if unmarked == "empty" else None)
            continue
        value = frozenset(u for s in by_unit[t] for u in by_scu[s])
        values.append(value - {t})
    return values


def memberships_table(
    members: Sequence[IntArray],
    n_units: int,
    coders: Sequence[Hashable],
    *,
    overlap: str = "union",
    unmarked: str = "empty",
    meta: Mapping[str, str] | None = None,
) -> CodingTable:
    """A coding table from each coder's ``(unit, SCU)`` memberships.

    Examples
    --------
    >>> a = np.array([[0, 1], [1, 1], [2, 2]])  # units 0, 1 in SCU 1; unit 2 in SCU 2
    >>> b = np.array([[0, 5], [1, 5], [2, 5]])
    >>> t = memberships_table([a, b], 4, ["A", "B"])
    >>> sorted(t.value("A", 0)), sorted(t.value("B", 2)), t.value("A", 3)
    ([1], [0, 1], frozenset())
    """
    if overlap not in ("union", "component"):
        raise ParameterError(f"overlap must be 'union' or 'component'. Got {overlap!r}.")
    if unmarked not in ("empty", "missing"):
        raise ParameterError(f"unmarked must be 'empty' or 'missing'. Got {unmarked!r}.")
    if len(set(coders)) != len(coders):
        raise ParameterError(f"coder labels must be unique; got {list(coders)}")
    meta = {**(meta or {}), "overlap": overlap, "unmarked": unmarked}
    ids = [_class_ids(np.asarray(m).reshape(-1, 2), n_units, overlap, unmarked) for m in members]
    if all(i is not None for i in ids):
        return CodingTable.from_clusterings(dict(zip(coders, ids, strict=True)), meta=meta)
    records = []
    for coder, m in zip(coders, members, strict=True):
        for unit, value in enumerate(_union_values(np.asarray(m).reshape(-1, 2), n_units,
                                                   unmarked)):
            records.append((coder, unit, value))
    return CodingTable.from_records(records, meta=meta)
