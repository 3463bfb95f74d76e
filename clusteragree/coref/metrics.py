"""The standard coreference metrics between a key and a response clustering of mentions.

MUC (Vilain et al. 1995), B-cubed (Bagga & Baldwin 1998), CEAFm and CEAFe (Luo 2005), BLANC
(Recasens & Hovy 2011; Luo et al. 2014 for predicted mentions) and LEA (Moosavi & Strube 2016),
as the CoNLL reference scorer v8.01 (and its LEA branch) computes them: every metric is counts
per document (:class:`Counts`) that add over a corpus, and recall, precision and F1 come from the
summed counts (micro-average). All of them derive from one contingency table of key against
response entities; CEAF's assignment is solved per connected component of that table (scipy's
Hungarian algorithm), so long documents stay fast.

Examples
--------
>>> key = [{"a"}, {"b", "c"}, {"d", "e", "f"}]
>>> response = [{"a"}, {"d", "e"}]
>>> r = score(key, response)
>>> [round(x, 4) for x in r["ceafe"].rpf]
[0.6, 0.9, 0.72]
>>> [round(x, 4) for x in r["blanc"].rpf]
[0.2159, 1.0, 0.3538]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..core.crosstab import contingency
from ..errors import ParameterError, ParameterTypeError
from .model import METRICS

__all__ = ["BlancCounts", "Counts", "add", "score", "score_arrays", "score_documents"]



def _f1(r: float, p: float) -> float:
    return 0.0 if r + p == 0 else 2 * r * p / (r + p)


def _ratio(num: float, den: float) -> float:
    return num / den if den else 0.0


@dataclass(frozen=True)
class Counts:
    """Recall and precision numerators and denominators of a metric; they add over documents.

    Recall, precision and F1 of a corpus come from the summed counts (micro-average), as the
    CoNLL reference scorer computes them, not from the mean of per-document ratios.

    Attributes
    ----------
    recall_num, recall_den : float, default=0.0
        Numerator and denominator of recall (e.g. for MUC: the key links the response keeps,
        and the key links, sum of ``|K| - 1`` over key entities K).
    precision_num, precision_den : float, default=0.0
        Numerator and denominator of precision (the same with key and response exchanged).

    References
    ----------
    Pradhan, S., Luo, X., Recasens, M., Hovy, E., Ng, V., Strube, M. (2014). Scoring
    coreference partitions of predicted mentions: a reference implementation. Proceedings of
    ACL 2014 (short papers), pp. 30-35. (Numerators and denominators summed over the
    documents.)

    docs/coref.md, "Metrics".

    Examples
    --------
    One document with recall 1/2 and precision 1/1, another with 3/3 and 2/4; the corpus has
    recall (1 + 3)/(2 + 3) = 0.8 and precision (1 + 2)/(1 + 4) = 0.6, so F1 = 2 * 0.8 * 0.6 /
    1.4 = 0.6857:

    >>> total = Counts(1, 2, 1, 1) + Counts(3, 3, 2, 4)
    >>> total
    Counts(recall_num=4, recall_den=5, precision_num=3, precision_den=5)
    >>> [round(x, 4) for x in total.rpf]
    [0.8, 0.6, 0.6857]

    Exchanging key and response exchanges recall and precision; a zero denominator gives 0:

    >>> Counts(1, 2, 1, 1).swapped().rpf
    (1.0, 0.5, 0.6666666666666666)
    >>> Counts().rpf
    (0.0, 0.0, 0.0)
    """

    recall_num: float = 0.0
    recall_den: float = 0.0
    precision_num: float = 0.0
    precision_den: float = 0.0

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.recall_num + other.recall_num, self.recall_den + other.recall_den,
                      self.precision_num + other.precision_num,
                      self.precision_den + other.precision_den)

    @property
    def rpf(self) -> tuple[float, float, float]:
        """Recall, precision and F1 (0 where a denominator is 0)."""
        r = _ratio(self.recall_num, self.recall_den)
        p = _ratio(self.precision_num, self.precision_den)
        return r, p, _f1(r, p)

    def swapped(self) -> Counts:
        """The counts with key and response exchanged."""
        return Counts(self.precision_num, self.precision_den, self.recall_num, self.recall_den)


@dataclass(frozen=True)
class BlancCounts:
    """Link counts of BLANC: coreference (c) and non-coreference (n) links of key, response and
    both. BLANC averages the two kinds, so it is not one ratio.

    A coreference link is an unordered pair of mentions in the same entity, a non-coreference
    link a pair of mentions of one side in different entities. With R_c = c_both/c_key,
    P_c = c_both/c_resp, R_n = n_both/n_key, P_n = n_both/n_resp, BLANC recall is
    (R_c + R_n)/2, precision (P_c + P_n)/2 and F the mean of the two F1s (not the harmonic mean
    of BLANC recall and precision). When the key has no coreference link (only singletons) the
    non-coreference values are used alone; when it has no non-coreference link (one entity),
    the coreference values alone. The counts add over documents.

    Attributes
    ----------
    c_key, c_resp, c_both : float, default=0.0
        Coreference links of the key, of the response, and of both.
    n_key, n_resp, n_both : float, default=0.0
        Non-coreference links of the key, of the response, and of both.

    References
    ----------
    Recasens, M., Hovy, E. (2011). BLANC: Implementing the Rand index for coreference
    evaluation. Natural Language Engineering 17(4), pp. 485-510.

    Luo, X., Pradhan, S., Recasens, M., Hovy, E. (2014). An extension of BLANC to system
    mentions. Proceedings of ACL 2014 (short papers), pp. 24-29.

    CoNLL reference coreference scorer v8.01, ``lib/CorScorer.pm``,
    ``ComputeBLANCFromCounts`` (the conventions for a key without links of one kind).

    Examples
    --------
    Key {a} {b, c} {d, e, f}, response {a} {d, e} (test case TC-A-2 of the reference scorer).
    The key has 6 mentions, 15 pairs, 1 + 3 = 4 coreference links and 11 non-coreference links;
    the response has 3 mentions, 1 coreference link (d-e, also in the key) and 2
    non-coreference links (a-d, a-e, also in the key). R_c = 1/4, P_c = 1, R_n = 2/11, P_n = 1;
    F_c = 0.4, F_n = 4/13; recall (1/4 + 2/11)/2 = 0.2159, F (0.4 + 0.3077)/2 = 0.3538:

    >>> [round(x, 4) for x in BlancCounts(4, 1, 1, 11, 2, 2).rpf]
    [0.2159, 1.0, 0.3538]

    Key of singletons {a} {b} {c}, response {a, b} {c}: no key coreference link, so only the
    non-coreference links count: a-c and b-c of the key's 3 are kept (2 of the response's 2):

    >>> [round(x, 4) for x in BlancCounts(0, 1, 0, 3, 2, 2).rpf]
    [0.6667, 1.0, 0.8]
    """

    c_key: float = 0.0
    c_resp: float = 0.0
    c_both: float = 0.0
    n_key: float = 0.0
    n_resp: float = 0.0
    n_both: float = 0.0

    def __add__(self, other: BlancCounts) -> BlancCounts:
        return BlancCounts(self.c_key + other.c_key, self.c_resp + other.c_resp,
                           self.c_both + other.c_both, self.n_key + other.n_key,
                           self.n_resp + other.n_resp, self.n_both + other.n_both)

    @property
    def rpf(self) -> tuple[float, float, float]:
        """BLANC recall, precision and F (0 where a denominator is 0)."""
        rc, pc = _ratio(self.c_both, self.c_key), _ratio(self.c_both, self.c_resp)
        rn, pn = _ratio(self.n_both, self.n_key), _ratio(self.n_both, self.n_resp)
        fc, fn = _f1(rc, pc), _f1(rn, pn)
        if self.c_key == 0 and self.n_key == 0:
            return 0.0, 0.0, 0.0
        if self.c_key == 0:  # key of singletons only: non-coreference links alone
            return rn, pn, fn
        if self.n_key == 0:  # key of one entity: coreference links alone
            return rc, pc, fc
        return (rc + rn) / 2, (pc + pn) / 2, (fc + fn) / 2

    def swapped(self) -> BlancCounts:
        """The counts with key and response exchanged."""
        return BlancCounts(self.c_resp, self.c_key, self.c_both, self.n_resp, self.n_key,
                           self.n_both)


def _pairs(n: np.ndarray) -> np.ndarray:
    return n * (n - 1) / 2


def _index(entities: Iterable[Iterable[Hashable]], side: str
           ) -> tuple[dict[Hashable, int], list[int]]:
    """Mention -> entity number, and the entity sizes; a mention in two entities is refused."""
    if isinstance(entities, (str, bytes)) or not isinstance(entities, Iterable):
        raise ParameterTypeError(f"the {side} must be a list of entities, each a list of "
                                 f"mentions. Got {type(entities).__name__}.")
    entity_of: dict[Hashable, int] = {}
    sizes = []
    for i, entity in enumerate(entities):
        if isinstance(entity, (str, bytes)) or not isinstance(entity, Iterable):
            raise ParameterTypeError(f"{side} entity {i} must be a collection of mentions. "
                                     f"Got {type(entity).__name__}.")
        ms = set(entity)
        sizes.append(len(ms))
        for m in ms:
            if m in entity_of:
                raise ParameterError(f"mention {m!r} is in two {side} entities")
            entity_of[m] = i
    return entity_of, sizes


def _tables(pairs: Sequence[tuple[Iterable[Iterable[Hashable]], Iterable[Iterable[Hashable]]]]
            ) -> _Tables:
    """One contingency table for many documents: entities numbered across the documents (so
    no cell joins two documents), with the document of every key entity, response entity and
    cell."""
    key_sizes: list[int] = []
    resp_sizes: list[int] = []
    key_doc: list[int] = []
    resp_doc: list[int] = []
    cell_i: list[int] = []
    cell_j: list[int] = []
    for d, (key, response) in enumerate(pairs):
        key_of, ks = _index(key, "key")
        resp_of, rs = _index(response, "response")
        ko, ro = len(key_sizes), len(resp_sizes)
        for m, i in key_of.items():
            j = resp_of.get(m)
            if j is not None:
                cell_i.append(i + ko)
                cell_j.append(j + ro)
        key_sizes += ks
        resp_sizes += rs
        key_doc += [d] * len(ks)
        resp_doc += [d] * len(rs)
    ki, rj, counts, _ = contingency(np.array(cell_i, dtype=np.int64),
                                    np.array(cell_j, dtype=np.int64), max(len(resp_sizes), 1))
    kd = np.array(key_doc, dtype=np.int64)
    return _Tables(np.array(key_sizes, dtype=np.float64), np.array(resp_sizes, dtype=np.float64),
                   ki, rj, counts, kd, np.array(resp_doc, dtype=np.int64), kd[ki], len(pairs))


@dataclass(frozen=True)
class _Tables:
    k: np.ndarray  # key entity sizes
    r: np.ndarray  # response entity sizes
    ki: np.ndarray  # key entity of each cell
    rj: np.ndarray  # response entity of each cell
    n: np.ndarray  # mentions in both, per cell
    kd: np.ndarray  # document of each key entity
    rd: np.ndarray  # document of each response entity
    cd: np.ndarray  # document of each cell
    docs: int

    def per_doc(self, doc: np.ndarray, weights: np.ndarray) -> np.ndarray:
        return np.bincount(doc, weights=weights, minlength=self.docs).astype(np.float64)


def _counts(rn: np.ndarray, rd: np.ndarray, pn: np.ndarray, pd: np.ndarray
            ) -> list[np.ndarray]:
    return [rn, rd, pn, pd]


def _muc(t: _Tables) -> list[np.ndarray]:
    # Partition of K by the response: one part per intersecting response entity, one per
    # mention of K in no response entity.
    def found(sizes, own):
        hit = np.bincount(own, minlength=len(sizes)).astype(float)  # entities meeting it
        inside = np.bincount(own, weights=t.n, minlength=len(sizes))  # its mentions met
        return sizes - (hit + (sizes - inside))
    return _counts(t.per_doc(t.kd, found(t.k, t.ki)), t.per_doc(t.kd, (t.k - 1).clip(0)),
                   t.per_doc(t.rd, found(t.r, t.rj)), t.per_doc(t.rd, (t.r - 1).clip(0)))


def _bcub(t: _Tables) -> list[np.ndarray]:
    return _counts(t.per_doc(t.cd, t.n * t.n / t.k[t.ki]), t.per_doc(t.kd, t.k),
                   t.per_doc(t.cd, t.n * t.n / t.r[t.rj]), t.per_doc(t.rd, t.r))


def _ceaf(t: _Tables) -> tuple[np.ndarray, np.ndarray]:
    """The best one-to-one alignment's total similarity per document, mention-based (CEAFm)
    and entity-based (CEAFe). A cell alone in its row and column is its own block; the other
    cells are cut into connected components (never across documents, as entity ids are), each
    solved by the Hungarian algorithm."""
    phi_m, phi_e = t.n, 2 * t.n / (t.k[t.ki] + t.r[t.rj])
    deg_k = np.bincount(t.ki, minlength=len(t.k))
    deg_r = np.bincount(t.rj, minlength=len(t.r))
    alone = (deg_k[t.ki] == 1) & (deg_r[t.rj] == 1)
    total_m = t.per_doc(t.cd[alone], phi_m[alone])
    total_e = t.per_doc(t.cd[alone], phi_e[alone])
    rest = np.flatnonzero(~alone)
    if len(rest):
        # Imported here: scipy.optimize takes a quarter of a second to load, and corpora whose
        # blocks are all one-to-one (or metrics without CEAF) never need it.
        from scipy.optimize import linear_sum_assignment

        ki, rj = t.ki[rest], t.rj[rest]
        rows, ri = np.unique(ki, return_inverse=True)
        cols, ci = np.unique(rj, return_inverse=True)
        block = _components(ri, ci, len(rows), len(cols))
        order = np.lexsort((ci, ri, block))  # by block, then row and column
        block, ri, ci = block[order], ri[order], ci[order]
        pm, pe, doc = phi_m[rest][order], phi_e[rest][order], t.cd[rest][order]
        starts = np.flatnonzero(np.concatenate([[True], block[1:] != block[:-1]]))
        ends = np.append(starts[1:], len(block))
        # Rows and columns of each block numbered from 0: rank among the block's own.
        local_r = _local_rank(block, ri)
        local_c = _local_rank(block, ci)
        for a, b in zip(starts.tolist(), ends.tolist(), strict=True):
            lr, lc = local_r[a:b], local_c[a:b]
            shape = (int(lr.max()) + 1, int(lc.max()) + 1)
            d = int(doc[a])
            for weights, total in ((pm, total_m), (pe, total_e)):
                w = np.zeros(shape)
                w[lr, lc] = weights[a:b]
                x, y = linear_sum_assignment(w, maximize=True)
                total[d] += float(w[x, y].sum())
    return total_m, total_e


def _components(ri: np.ndarray, ci: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The connected component of each edge ``(ri, ci)`` of a bipartite graph, numbered in
    order of each component's smallest row (as a search from row 0 upwards numbers them): the
    smallest row of its component is propagated to every row through the columns, with
    pointer jumping, until nothing changes."""
    label = np.arange(rows)
    while True:
        col = np.full(cols, rows)
        np.minimum.at(col, ci, label[ri])
        new = label.copy()
        np.minimum.at(new, ri, col[ci])
        new = new[new]  # a row's label is a row of its component with a smaller label
        if np.array_equal(new, label):
            break
        label = new
    return np.unique(label, return_inverse=True)[1].ravel()[ri]


def _local_rank(block: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """For cells sorted by block, the rank of each cell's id among the distinct ids of its
    block (0 for the smallest)."""
    width = int(ids.max()) + 1 if len(ids) else 1
    pairs, rank = np.unique(block * width + ids, return_inverse=True)
    # The first distinct (block, id) of each cell's block: ranks start there.
    return rank.ravel() - np.searchsorted(pairs // width, block)


def _blanc(t: _Tables) -> list[np.ndarray]:
    in_k = np.bincount(t.ki, weights=t.n, minlength=len(t.k))  # mentions of K in the response
    in_r = np.bincount(t.rj, weights=t.n, minlength=len(t.r))
    c_key, c_resp = t.per_doc(t.kd, _pairs(t.k)), t.per_doc(t.rd, _pairs(t.r))
    c_both = t.per_doc(t.cd, _pairs(t.n))
    mk, mr, mb = t.per_doc(t.kd, t.k), t.per_doc(t.rd, t.r), t.per_doc(t.cd, t.n)
    n_key, n_resp = mk * (mk - 1) / 2 - c_key, mr * (mr - 1) / 2 - c_resp
    n_both = (mb * (mb - 1) / 2 - t.per_doc(t.kd, _pairs(in_k)) - t.per_doc(t.rd, _pairs(in_r))
              + c_both)
    return [c_key, c_resp, c_both, n_key, n_resp, n_both]


def _lea(t: _Tables) -> list[np.ndarray]:
    def side(sizes, own, other_sizes, other_index, doc):
        links = np.where(sizes > 1, _pairs(sizes), 1.0)
        found = np.bincount(own, weights=_pairs(t.n), minlength=len(sizes))
        # A singleton is resolved when the other side has it as a singleton too.
        single = np.zeros(len(sizes))
        both_single = (sizes[own] == 1) & (other_sizes[other_index] == 1)
        single[own[both_single]] = 1.0
        found = np.where(sizes == 1, single, found)
        return t.per_doc(doc, sizes * found / links), t.per_doc(doc, sizes)

    rn, rd = side(t.k, t.ki, t.r, t.rj, t.kd)
    pn, pd = side(t.r, t.rj, t.k, t.ki, t.rd)
    return _counts(rn, rd, pn, pd)


def score_documents(
    pairs: Iterable[tuple[Iterable[Iterable[Hashable]], Iterable[Iterable[Hashable]]]],
    metrics: Iterable[str] = METRICS,
) -> list[dict[str, Counts | BlancCounts]]:
    """:func:`score` for many documents at once: the counts of each document, computed over
    one contingency table of all of them (numpy over every document together instead of a
    Python loop over documents).

    Parameters
    ----------
    pairs : iterable of (key, response)
        One ``(key, response)`` per document, each as in :func:`score`.
    metrics : iterable of str, default=METRICS
        As in :func:`score`.

    Returns
    -------
    list of dict of str to Counts or BlancCounts
        The counts of each document, in the order of ``pairs``: what :func:`score` gives for
        that document alone.

    Raises
    ------
    ParameterError
        An unknown metric, or a mention in two entities of the same side.
    ParameterTypeError
        A key or response that is not a list of collections.

    References
    ----------
    Pradhan, S., Luo, X., Recasens, M., Hovy, E., Ng, V., Strube, M. (2014). Scoring
    coreference partitions of predicted mentions: a reference implementation. Proceedings of
    ACL 2014 (short papers), pp. 30-35.

    docs/coref.md, "Metrics"; docs/performance.md.

    Examples
    --------
    Two documents scored together give what each gives alone:

    >>> docs = [([[1, 2, 3]], [[1, 2], [3]]), ([[4, 5]], [[4, 5]])]
    >>> together = score_documents(docs, ["muc", "ceafe"])
    >>> together == [score(k, r, ["muc", "ceafe"]) for k, r in docs]
    True
    >>> together[0]["muc"]
    Counts(recall_num=1.0, recall_den=2.0, precision_num=1.0, precision_den=1.0)
    """
    names = list(dict.fromkeys(metrics))
    for name in names:
        if name not in METRICS:
            raise ParameterError(f"The metric must be one of {list(METRICS)}. Got {name!r}.")
    return _score_tables(_tables(list(pairs)), names)


def score_arrays(key: tuple[npt.ArrayLike, npt.ArrayLike, npt.ArrayLike],
                 response: tuple[npt.ArrayLike, npt.ArrayLike, npt.ArrayLike], documents: int,
                 metrics: Iterable[str] = METRICS) -> list[dict[str, Counts | BlancCounts]]:
    """:func:`score_documents` for mentions given as integer arrays, one row per mention
    (:func:`count_arrays`, made into counts per document).

    Parameters
    ----------
    key, response : (document, mention, entity), each an int array of shape (M,)
        As in :func:`count_arrays`.
    documents : int
        The number of documents.
    metrics : iterable of str, default=METRICS
        As in :func:`score`.

    Returns
    -------
    list of dict of str to Counts or BlancCounts
        The counts of each document, as :func:`score_documents` gives them for the same
        entities.

    Raises
    ------
    ParameterError
        An unknown metric.

    References
    ----------
    docs/coref.md, "Metrics"; docs/performance.md.

    Examples
    --------
    One document: key {1, 2, 3}, response {1, 2} {3} (mentions numbered 1 to 3):

    >>> key = ([0, 0, 0], [1, 2, 3], [0, 0, 0])
    >>> response = ([0, 0, 0], [1, 2, 3], [0, 0, 1])
    >>> score_arrays(key, response, 1, ["muc"])[0]["muc"]
    Counts(recall_num=1.0, recall_den=2.0, precision_num=1.0, precision_den=1.0)
    """
    return per_document(count_arrays(key, response, documents, metrics))


def count_arrays(key: tuple[npt.ArrayLike, npt.ArrayLike, npt.ArrayLike],
                 response: tuple[npt.ArrayLike, npt.ArrayLike, npt.ArrayLike], documents: int,
                 metrics: Iterable[str] = METRICS) -> dict[str, list[np.ndarray]]:
    """The counts of every document as arrays (a value per document for each count field of
    each metric), from mentions given as integer arrays, one row per mention.

    Parameters
    ----------
    key, response : (document, mention, entity), each an int array of shape (M,)
        For every mention of the side: its document (``0 .. documents - 1``), its number
        (the same number on both sides for the same mention, each mention once per side) and
        its entity (numbers that no two documents share).
    documents : int
        The number of documents.
    metrics : iterable of str, default=METRICS
        As in :func:`score`.

    Returns
    -------
    dict of str to list of arrays
        For each metric, its count fields in the order of :class:`Counts` (or
        :class:`BlancCounts`), each an array of shape (documents,): :func:`per_document` makes
        them the counts :func:`score_documents` gives for the same entities, :func:`totals`
        their sums.

    Raises
    ------
    ParameterError
        An unknown metric.

    References
    ----------
    docs/coref.md, "Metrics"; docs/performance.md.

    Examples
    --------
    Two documents: key {1, 2, 3} and {4, 5}, response {1, 2} {3} and {4, 5}; MUC recall
    numerators 1 and 1, denominators 2 and 1:

    >>> key = ([0, 0, 0, 1, 1], [1, 2, 3, 4, 5], [0, 0, 0, 1, 1])
    >>> response = ([0, 0, 0, 1, 1], [1, 2, 3, 4, 5], [0, 0, 1, 2, 2])
    >>> [c.tolist() for c in count_arrays(key, response, 2, ["muc"])["muc"][:2]]
    [[1.0, 1.0], [2.0, 1.0]]
    """
    names = list(dict.fromkeys(metrics))
    for name in names:
        if name not in METRICS:
            raise ParameterError(f"The metric must be one of {list(METRICS)}. Got {name!r}.")
    sides = []
    for doc, mention, entity in (key, response):
        d = np.asarray(doc, dtype=np.int64)
        m = np.asarray(mention, dtype=np.int64)
        ids, e = np.unique(np.asarray(entity, dtype=np.int64), return_inverse=True)
        e = e.ravel()
        entity_doc = np.zeros(len(ids), dtype=np.int64)
        entity_doc[e] = d
        sides.append((m, e, np.bincount(e, minlength=len(ids)).astype(np.float64), entity_doc))
    (km, ke, ks, kd), (rm, re_, rs, rd) = sides
    _, at_k, at_r = np.intersect1d(km, rm, assume_unique=True, return_indices=True)
    ki, rj, n, _ = contingency(ke[at_k], re_[at_r], max(len(rs), 1))
    return _columns(_Tables(ks, rs, ki, rj, n, kd, rd, kd[ki], documents), names)


def _score_tables(t: _Tables, names: list[str]) -> list[dict[str, Counts | BlancCounts]]:
    return per_document(_columns(t, names))


def per_document(columns: Mapping[str, Sequence[np.ndarray]]
                 ) -> list[dict[str, Counts | BlancCounts]]:
    """The counts of each document from the arrays of :func:`count_arrays`.

    Parameters
    ----------
    columns : mapping of str to sequence of arrays
        Each metric's count fields, one array (a value per document) per field.

    Returns
    -------
    list of dict of str to Counts or BlancCounts
        The counts of each document by metric.

    Examples
    --------
    >>> import numpy as np
    >>> per_document({"muc": [np.array([1.0, 2.0])] * 4})[1]
    {'muc': Counts(recall_num=2.0, recall_den=2.0, precision_num=2.0, precision_den=2.0)}
    """
    made = {m: [(BlancCounts if m == "blanc" else Counts)(*x)
                for x in zip(*(c.tolist() for c in cols), strict=True)]
            for m, cols in columns.items()}
    docs = len(next(iter(made.values()))) if made else 0
    return [{m: made[m][d] for m in made} for d in range(docs)]


def totals(columns: Mapping[str, Sequence[np.ndarray]]) -> dict[str, Counts | BlancCounts]:
    """The counts summed over the documents, document after document (what :func:`add` gives
    folded over :func:`per_document`, to the last bit).

    Parameters
    ----------
    columns : mapping of str to sequence of arrays
        Each metric's count fields, one array (a value per document) per field.

    Returns
    -------
    dict of str to Counts or BlancCounts
        The summed counts by metric.

    Examples
    --------
    >>> import numpy as np
    >>> cols = {"muc": [np.array([0.1, 0.2, 0.3])] * 4}
    >>> totals(cols)["muc"].recall_num == (0.1 + 0.2) + 0.3
    True
    """
    return {m: (BlancCounts if m == "blanc" else Counts)(
        *(float(np.cumsum(c)[-1]) if len(c) else 0.0 for c in cols))
        for m, cols in columns.items()}


def swapped(columns: Mapping[str, Sequence[np.ndarray]]) -> dict[str, list[np.ndarray]]:
    """The count arrays of :func:`count_arrays` with key and response exchanged (every metric
    is symmetric: the fields swap).

    Parameters
    ----------
    columns : mapping of str to sequence of arrays
        Each metric's count fields.

    Returns
    -------
    dict of str to list of arrays
        The fields of the swapped counts, as :meth:`Counts.swapped` orders them.

    Examples
    --------
    >>> import numpy as np
    >>> swapped({"muc": [np.array([1.0]), np.array([2.0]), np.array([3.0]), np.array([4.0])]})
    {'muc': [array([3.]), array([4.]), array([1.]), array([2.])]}
    """
    out = {}
    for m, c in columns.items():
        out[m] = ([c[1], c[0], c[2], c[4], c[3], c[5]] if m == "blanc"
                  else [c[2], c[3], c[0], c[1]])
    return out


def _columns(t: _Tables, names: list[str]) -> dict[str, list[np.ndarray]]:
    by_metric: dict[str, list] = {}
    if "muc" in names:
        by_metric["muc"] = _muc(t)
    if "bcub" in names:
        by_metric["bcub"] = _bcub(t)
    if "ceafm" in names or "ceafe" in names:
        total_m, total_e = _ceaf(t)
        ks, rs = t.per_doc(t.kd, t.k), t.per_doc(t.rd, t.r)
        ne_k = t.per_doc(t.kd, np.ones(len(t.k)))
        ne_r = t.per_doc(t.rd, np.ones(len(t.r)))
        by_metric["ceafm"] = _counts(total_m, ks, total_m, rs)
        by_metric["ceafe"] = _counts(total_e, ne_k, total_e, ne_r)
    if "blanc" in names:
        by_metric["blanc"] = _blanc(t)
    if "lea" in names:
        by_metric["lea"] = _lea(t)
    if "mentions" in names:  # mention identification: spans marked by both sides
        both = t.per_doc(t.cd, t.n)
        by_metric["mentions"] = _counts(both, t.per_doc(t.kd, t.k), both, t.per_doc(t.rd, t.r))
    return {name: by_metric[name] for name in names}


def score(
    key: Iterable[Iterable[Hashable]],
    response: Iterable[Iterable[Hashable]],
    metrics: Iterable[str] = METRICS,
) -> dict[str, Counts | BlancCounts]:
    """Counts of each metric for one document: key and response are lists of entities, each an
    iterable of hashable mentions (a mention in two entities of one side is an error).

    Parameters
    ----------
    key : iterable of iterables of hashable
        The key (gold, or first annotator's) entities, each a collection of mentions; a
        mention is any hashable value, e.g. a span ``((start, end),)`` or a letter. Mentions
        are matched exactly between key and response.
    response : iterable of iterables of hashable
        The response (system, or second annotator's) entities.
    metrics : iterable of str, default=METRICS
        Any of ``"muc"``, ``"bcub"``, ``"ceafm"``, ``"ceafe"``, ``"blanc"``, ``"lea"`` and
        ``"mentions"`` (mention identification: mentions in both, over the key's and over the
        response's mentions).

    Returns
    -------
    dict of str to Counts or BlancCounts
        The counts of each metric asked, in the order asked (BlancCounts for ``"blanc"``);
        ``.rpf`` gives recall, precision and F1. Counts of several documents add
        (:func:`add`).

    Raises
    ------
    ParameterError
        An unknown metric, or a mention in two entities of the same side.
    ParameterTypeError
        A key or response that is not a list of collections (a string, for instance).

    Notes
    -----
    Singletons are scored as given (remove them from both sides first to score as the
    CoNLL-2012 evaluation did). For MUC, a key entity K counts ``|K| - |p(K)|`` links found,
    p(K) being the parts the response cuts K into (a mention missing from the response is a
    part of its own); B-cubed sums ``|K & R|**2 / |K|``; CEAFm and CEAFe align key and response
    entities one to one (similarity ``|K & R|`` and ``2|K & R| / (|K| + |R|)``); LEA weighs
    each entity by its size and counts its links found, a singleton being one self-link.

    References
    ----------
    Vilain, M., Burger, J., Aberdeen, J., Connolly, D., Hirschman, L. (1995). A
    model-theoretic coreference scoring scheme. Proceedings of MUC-6, pp. 45-52.

    Bagga, A., Baldwin, B. (1998). Algorithms for scoring coreference chains. Proceedings of
    the LREC 1998 Workshop on Linguistic Coreference, pp. 563-566.

    Luo, X. (2005). On coreference resolution performance metrics. Proceedings of HLT/EMNLP
    2005, pp. 25-32.

    Recasens, M., Hovy, E. (2011). BLANC: Implementing the Rand index for coreference
    evaluation. Natural Language Engineering 17(4), pp. 485-510.

    Moosavi, N. S., Strube, M. (2016). Which coreference evaluation metric do you trust? A
    proposal for a link-based entity aware metric. Proceedings of ACL 2016, pp. 632-642.

    Pradhan, S., Luo, X., Recasens, M., Hovy, E., Ng, V., Strube, M. (2014). Scoring
    coreference partitions of predicted mentions: a reference implementation. Proceedings of
    ACL 2014 (short papers), pp. 30-35. (The CoNLL reference scorer v8.01, whose official test
    cases, and those of its LEA branch, these counts reproduce.)

    docs/coref.md, "Metrics".

    Examples
    --------
    The response splits one key chain of three mentions in two: MUC recall is 1 of the 2 links
    of the key, precision 1 of 1; every mention is identified.

    >>> counts = score([[1, 2, 3]], [[1, 2], [3]], ["muc", "mentions"])
    >>> [round(x, 4) for x in counts["muc"].rpf], counts["mentions"].rpf
    ([0.5, 1.0, 0.6667], (1.0, 1.0, 1.0))

    Test case TC-A-2 of the reference scorer: key {a} {b, c} {d, e, f}, response {a} {d, e}.
    By hand: MUC recall 1/3 (only d-e of the key's 0 + 1 + 2 links), precision 1/1. B-cubed
    recall (1 + 2**2/3)/6 = 7/18, precision (1 + 2**2/2)/3 = 1. CEAFm aligns {a}-{a} and
    {d, e, f}-{d, e}: 1 + 2 = 3 mentions, over 6 and 3. CEAFe: 1 + 2*2/5 = 1.8, over 3 and 2
    entities. LEA recall (1*1 + 2*0 + 3*(1/3))/6 = 1/3 ({a} is a singleton on both sides;
    {d, e, f} has 1 of its 3 links), precision (1*1 + 2*1)/3 = 1. BLANC: see
    :class:`BlancCounts`. Mentions: 3 of the key's 6, all 3 of the response's.

    >>> r = score([{"a"}, {"b", "c"}, {"d", "e", "f"}], [{"a"}, {"d", "e"}])
    >>> r["muc"]
    Counts(recall_num=1.0, recall_den=3.0, precision_num=1.0, precision_den=1.0)
    >>> {m: [round(x, 4) for x in c.rpf] for m, c in r.items()}
    {'muc': [0.3333, 1.0, 0.5], 'bcub': [0.3889, 1.0, 0.56], 'ceafm': [0.5, 1.0, 0.6667],
     'ceafe': [0.6, 0.9, 0.72], 'blanc': [0.2159, 1.0, 0.3538], 'lea': [0.3333, 1.0, 0.5],
     'mentions': [0.5, 1.0, 0.6667]}
    """
    return score_documents([(key, response)], metrics)[0]




def add(totals: Mapping[str, Counts | BlancCounts], more: Mapping[str, Counts | BlancCounts]
        ) -> dict[str, Counts | BlancCounts]:
    """Sum two dictionaries of counts metric by metric.

    Parameters
    ----------
    totals : mapping of str to Counts or BlancCounts
        The counts so far (may be empty).
    more : mapping of str to Counts or BlancCounts
        The counts of one more document, e.g. from :func:`score`.

    Returns
    -------
    dict of str to Counts or BlancCounts
        For every metric in either argument, the sum of its counts (a metric in one argument
        only is taken as it is). Ratios taken from the sums are micro-averages.

    References
    ----------
    Pradhan, S., Luo, X., Recasens, M., Hovy, E., Ng, V., Strube, M. (2014). Scoring
    coreference partitions of predicted mentions: a reference implementation. Proceedings of
    ACL 2014 (short papers), pp. 30-35. (Numerators and denominators summed over the
    documents.)

    docs/coref.md, "Metrics".

    Examples
    --------
    Document 1: key {1, 2, 3}, response {1, 2} {3}: MUC recall 1/2, precision 1/1.
    Document 2: key {4, 5}, response {4, 5}: recall 1/1, precision 1/1. Pooled recall is
    (1 + 1)/(2 + 1) = 2/3 (the mean of the two recalls would be 3/4), precision
    (1 + 1)/(1 + 1) = 1:

    >>> one = score([[1, 2, 3]], [[1, 2], [3]], ["muc"])
    >>> two = score([[4, 5]], [[4, 5]], ["muc"])
    >>> total = add(add({}, one), two)
    >>> total["muc"]
    Counts(recall_num=2.0, recall_den=3.0, precision_num=2.0, precision_den=2.0)
    >>> [round(x, 4) for x in total["muc"].rpf]
    [0.6667, 1.0, 0.8]
    """
    return {m: (totals[m] + more[m]) if m in totals else more[m]  # type: ignore[operator]
            for m in {**totals, **more}}
