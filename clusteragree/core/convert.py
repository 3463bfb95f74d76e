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
    """Each unit's union of the other units of its SCUs (None or the empty set for a unit in
    none): the rows of the sparse units x units product of the memberships, which holds only
    the pairs of units that share an SCU."""
    units, scus = members[:, 0], members[:, 1]
    _, scu_index = np.unique(scus, return_inverse=True)
    incidence = sp.csr_matrix((np.ones(len(units)), (units, scu_index.ravel())),
                              shape=(n_units, int(scu_index.max(initial=-1)) + 1))
    together = (incidence @ incidence.T).tocsr()
    together.sort_indices()
    indptr, indices = together.indptr.tolist(), together.indices.tolist()
    alone: frozenset[int] | None = frozenset() if unmarked == "empty" else None
    values: list[frozenset[int] | None] = []
    for t in range(n_units):
        start, stop = indptr[t], indptr[t + 1]
        if start == stop:
            values.append(alone)
            continue
        value = frozenset(indices[start:stop])
        values.append(value - {t})
    return values


def _union_table(members: Sequence[IntArray], n_units: int, coders: Sequence[Hashable],
                 unmarked: str, meta: Mapping[str, str]) -> CodingTable:
    """The table of union values, its distinct values numbered in the order the records
    ``(coder, unit, value)`` would meet them (what :meth:`CodingTable.from_records` gives, without
    checking labels that are unit indices)."""
    index: dict[frozenset[int], int] = {}
    codes = np.full((len(coders), n_units), -1, dtype=np.int64)
    for row, m in enumerate(members):
        values = _union_values(np.asarray(m).reshape(-1, 2), n_units, unmarked)
        codes[row] = [-1 if v is None else index.setdefault(v, len(index)) for v in values]
    return CodingTable(list(coders), list(range(n_units)), codes=codes, values=list(index),
                       meta=meta)


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

    A unit's value for a coder is the set of the other units in its SCU (its class minus itself).
    The two policies below say what happens to units in several SCUs and to units in none; both
    are recorded in the table's ``meta`` and so in every signature.

    Parameters
    ----------
    members : sequence of ndarray of int, shape (k, 2)
        One array per coder, a row ``(unit, scu)`` for each membership: ``unit`` in
        ``0..n_units-1``, ``scu`` any int id (ids are per coder).
    n_units : int
        Number of units; the table's units are ``0..n_units-1``.
    coders : sequence of hashable
        One unique label per coder, in the order of ``members``.
    overlap : {"union", "component"}, default="union"
        A unit in several SCUs: ``"union"`` gives it the union of the other units of all its SCUs
        (values that are no longer classes, so alpha uses the generic engine); ``"component"``
        merges SCUs that share a unit into one class (connected components).
    unmarked : {"empty", "missing"}, default="empty"
        A unit in no SCU of a coder: the empty set (a singleton class, which agrees with another
        coder who also left the unit out), or a missing cell.
    meta : mapping, optional
        Provenance to keep in the table (``units``, ``tok``, ...); ``overlap`` and ``unmarked``
        are added.

    Returns
    -------
    CodingTable
        Coders x ``n_units`` units. It is class-derived (built from class ids, for the linear-time
        alpha engine) when no coder has a unit in two SCUs or ``overlap="component"``; otherwise
        its values are frozensets of unit indices.

    Raises
    ------
    ParameterError
        If ``overlap`` or ``unmarked`` is not one of its choices, or coder labels repeat.

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and pragmatic
    annotation. Proceedings of LREC 2006, Genoa. Section 3.3 (SCUs as equivalence classes;
    ungrouped words form singleton sets; the unit is removed from its own value).

    Nenkova, A. and Passonneau, R. (2004). Evaluating content selection in summarization: the
    pyramid method. Proceedings of HLT-NAACL 2004, Boston.

    docs/pyramids.md, "Units and values" (the policies).

    Examples
    --------
    Coder A puts units 0 and 1 in SCU 1 and unit 2 in SCU 2, and leaves unit 3 out; B puts 0, 1
    and 2 in SCU 5. A's unit 0 has value {1}; B's unit 2 has {0, 1}; A's unit 3 is the empty set:

    >>> a = np.array([[0, 1], [1, 1], [2, 2]])  # units 0, 1 in SCU 1; unit 2 in SCU 2
    >>> b = np.array([[0, 5], [1, 5], [2, 5]])
    >>> t = memberships_table([a, b], 4, ["A", "B"])
    >>> sorted(t.value("A", 0)), sorted(t.value("B", 2)), t.value("A", 3)
    ([1], [0, 1], frozenset())
    >>> t.is_class_derived, memberships_table([a, b], 4, ["A", "B"], unmarked="missing").value(
    ...     "A", 3) is None
    (True, True)

    Coder C puts unit 1 in SCU 1 (with unit 0) and in SCU 2 (with unit 2). Under ``union`` unit 1
    gets ``{0, 1} | {1, 2}`` minus itself, ``{0, 2}``, while unit 0 keeps ``{1}``; under
    ``component`` the two SCUs become one class ``{0, 1, 2}``, so unit 0 gets ``{1, 2}``:

    >>> c = np.array([[0, 1], [1, 1], [1, 2], [2, 2]])
    >>> u = memberships_table([c, b], 3, ["C", "B"])
    >>> sorted(u.value("C", 1)), sorted(u.value("C", 0)), u.is_class_derived
    ([0, 2], [1], False)
    >>> sorted(memberships_table([c, b], 3, ["C", "B"], overlap="component").value("C", 0))
    [1, 2]
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
    return _union_table(members, n_units, coders, unmarked, meta)
