"""Distances between coding values, for Krippendorff's alpha.

Set distances are pure functions of three cardinalities, ``(n_a, n_b, n_ab) = (|A|, |B|, |A & B|)``,
written with numpy so that one call evaluates whole arrays of pairs. That is what lets the alpha
engines sum a distance over millions of pairs of values without ever building the sets.
Two empty sets are identical, at distance 0, for every set distance here.

Scalar levels (``interval``, ``ratio``, ``ordinal``) follow Krippendorff (2011) and are already
squared differences, as in his definition. ``nominal`` serves sets and scalars alike: 0 when the
two values are equal, 1 otherwise.

Any callable ``f(x, y) -> float`` on two values is accepted wherever a distance is, as NLTK's
distance functions are; wrap a function of cardinalities with :func:`set_distance` to give it the
vectorised and linear-time paths.

References
----------
Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability.
Passonneau, R. (2004). Computing reliability for coreference annotation. LREC.
Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and pragmatic
annotation. LREC.

Examples
--------
>>> masi = get_distance("masi")
>>> round(masi({1, 2}, {1, 2, 3, 4}), 6)
0.666667
>>> round(get_distance("masi_nltk_legacy")({1, 2}, {1, 2, 3, 4}), 6)
0.665
>>> get_distance("jaccard")(set(), set())
0.0
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ..errors import ParameterError, ParameterTypeError

__all__ = [
    "DEFAULT_DISTANCES",
    "DISTANCES",
    "Distance",
    "DistanceLike",
    "as_numbers",
    "dice",
    "get_distance",
    "interval",
    "jaccard",
    "masi",
    "masi_dkpro",
    "masi_nltk_legacy",
    "nominal",
    "passonneau2004",
    "ratio",
    "set_distance",
]

ArrayLike = npt.ArrayLike
FloatArray = npt.NDArray[np.float64]
Kind = Literal["set", "scalar", "value"]


def _arrays(n_a: ArrayLike, n_b: ArrayLike, n_ab: ArrayLike) -> tuple[FloatArray, ...]:
    return tuple(np.asarray(x, dtype=np.float64) for x in (n_a, n_b, n_ab))


def _ratio_or(num: FloatArray, den: FloatArray, default: float) -> FloatArray:
    """``num / den``, and ``default`` where ``den`` is 0."""
    out = np.full(np.broadcast(num, den).shape, default, dtype=np.float64)
    np.divide(num, den, out=out, where=np.broadcast_to(den != 0, out.shape))
    return out


def _jaccard_index(a: FloatArray, b: FloatArray, k: FloatArray) -> FloatArray:
    return _ratio_or(k, a + b - k, 1.0)


def _monotonicity(
    a: FloatArray, b: FloatArray, k: FloatArray, subset: float, overlap: float
) -> FloatArray:
    """Passonneau's M: 1 equal, ``subset`` when one contains the other, ``overlap``, else 0."""
    equal = (a == k) & (b == k)
    contains = k == np.minimum(a, b)
    return np.where(equal, 1.0, np.where(contains, subset, np.where(k > 0, overlap, 0.0)))


def nominal(n_a: ArrayLike, n_b: ArrayLike, n_ab: ArrayLike) -> FloatArray:
    """Nominal distance on sets: 0 if ``A == B``, else 1.

    The sets are given by their cardinalities: they are equal exactly when ``n_a == n_b == n_ab``.
    The arguments broadcast as numpy arrays, so one call evaluates many pairs. For labels (not sets)
    use ``DISTANCES["nominal"]``, which compares any two values with ``==``.

    Parameters
    ----------
    n_a, n_b : array-like of int
        Sizes ``|A|`` and ``|B|`` of the two sets.
    n_ab : array-like of int
        Size of their intersection ``|A & B|``.

    Returns
    -------
    ndarray of float
        0.0 where the sets are equal, 1.0 elsewhere, in the broadcast shape of the arguments (a
        0-d array for single numbers).

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43. (The nominal difference: 0 for equal values, else 1.)

    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and pragmatic
    annotation. Proceedings of LREC 2006, Genoa. Tables 1 and 2, column "Nominal" (all
    non-identical sets are distinct categories).

    docs/distances.md (the table of set distances).

    Examples
    --------
    {1, 2} against itself has ``n_a = n_b = n_ab = 2``: equal. {1, 2} against {1, 2, 3} shares
    only 2 of the 3 elements: not equal.

    >>> float(nominal(2, 2, 2)), float(nominal(2, 3, 2))
    (0.0, 1.0)

    Two empty sets are equal; arrays give one distance per pair:

    >>> nominal([2, 2, 0], [2, 3, 0], [2, 2, 0])
    array([0., 1., 0.])
    >>> DISTANCES["nominal"]({1, 2}, {1, 2, 3}), DISTANCES["nominal"]("yes", "yes")
    (1.0, 0.0)
    """
    a, b, k = _arrays(n_a, n_b, n_ab)
    return np.where((a == k) & (b == k), 0.0, 1.0)


def jaccard(n_a: ArrayLike, n_b: ArrayLike, n_ab: ArrayLike) -> FloatArray:
    """Jaccard distance ``1 - |A & B| / |A | B|``; two empty sets are at distance 0.

    The union's size is ``n_a + n_b - n_ab``. NLTK's ``jaccard_distance`` divides by zero on two
    empty sets; here they are identical, at distance 0.

    Parameters
    ----------
    n_a, n_b : array-like of int
        Sizes ``|A|`` and ``|B|`` of the two sets.
    n_ab : array-like of int
        Size of their intersection ``|A & B|``.

    Returns
    -------
    ndarray of float
        ``1 - J`` with ``J = n_ab / (n_a + n_b - n_ab)`` (0 when both sets are empty), in [0, 1],
        in the broadcast shape of the arguments.

    References
    ----------
    Jaccard, P. (1908). Nouvelles recherches sur la distribution florale. Bulletin de la Societe
    Vaudoise des Sciences Naturelles 44:223-270.

    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and pragmatic
    annotation. Proceedings of LREC 2006, Genoa. Section 3.3 and Figure 2 (Jaccard as the J term
    of MASI; one minus Jaccard as alpha's distance).

    docs/distances.md.

    Examples
    --------
    {1, 2} against {1, 2, 3, 4}: 2 shared elements out of 4 in the union, J = 1/2:

    >>> float(jaccard(2, 4, 2))
    0.5

    Passonneau (2006), Figure 2: coder A3 gives units x, y, z the sets {x, y}, {x, y}, {x} and A4
    gives {x, y, z} to all three. J is 2/3, 2/3 and 1/3 (the paper's values), mean 5/9, so the mean
    distance is 4/9:

    >>> d = jaccard([2, 2, 1], [3, 3, 3], [2, 2, 1])
    >>> [round(float(x), 4) for x in d], round(float(d.mean()), 4)
    ([0.3333, 0.3333, 0.6667], 0.4444)
    >>> float(jaccard(0, 0, 0)), float(jaccard(0, 3, 0))
    (0.0, 1.0)
    """
    a, b, k = _arrays(n_a, n_b, n_ab)
    return 1.0 - _jaccard_index(a, b, k)


def dice(n_a: ArrayLike, n_b: ArrayLike, n_ab: ArrayLike) -> FloatArray:
    """Dice distance ``1 - 2 |A & B| / (|A| + |B|)``; two empty sets are at distance 0.

    This is the set difference of Krippendorff & Craggs' multi-valued alpha for nominal labels
    (mv-alpha in :mod:`clusteragree.labels`), here usable with the ordinary alpha.

    Parameters
    ----------
    n_a, n_b : array-like of int
        Sizes ``|A|`` and ``|B|`` of the two sets.
    n_ab : array-like of int
        Size of their intersection ``|A & B|``.

    Returns
    -------
    ndarray of float
        ``1 - 2 n_ab / (n_a + n_b)`` (0 when both sets are empty), in [0, 1], in the broadcast
        shape of the arguments.

    References
    ----------
    Dice, L. R. (1945). Measures of the amount of ecologic association between species. Ecology
    26:297-302.

    Krippendorff, K. and Craggs, R. (2016). The reliability of multi-valued coding of data.
    Communication Methods and Measures 10(4):181-198. (The nominal set difference of mv-alpha.)

    docs/distances.md.

    Examples
    --------
    {a, b, d} against {b, d}: 2 shared elements, sizes 3 and 2, so ``1 - 4/5 = 1/5`` (a pair of
    Krippendorff & Craggs' Table 3, unit U2):

    >>> round(float(dice(3, 2, 2)), 6)
    0.2
    >>> float(dice(0, 0, 0)), float(dice(0, 1, 0))
    (0.0, 1.0)
    """
    a, b, k = _arrays(n_a, n_b, n_ab)
    return 1.0 - _ratio_or(2.0 * k, a + b, 1.0)


def masi(n_a: ArrayLike, n_b: ArrayLike, n_ab: ArrayLike) -> FloatArray:
    """MASI distance ``1 - J * M`` with exact thirds (Passonneau 2006; NLTK >= 3.10.1).

    M is 1 for equal sets, 2/3 when one is a subset of the other, 1/3 when they overlap
    otherwise and 0 when they are disjoint; J is the Jaccard index. On cardinalities: equal when
    ``n_a == n_b == n_ab``, a subset when ``n_ab == min(n_a, n_b)``. Two empty sets are at
    distance 0 (NLTK's ``masi_distance`` divides by zero there); the empty set against a non-empty
    set is at distance 1 (J = 0).

    Parameters
    ----------
    n_a, n_b : array-like of int
        Sizes ``|A|`` and ``|B|`` of the two sets.
    n_ab : array-like of int
        Size of their intersection ``|A & B|``.

    Returns
    -------
    ndarray of float
        ``1 - J * M``, in [0, 1], in the broadcast shape of the arguments.

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and pragmatic
    annotation. Proceedings of LREC 2006, Genoa. Section 3.3 (MASI = J * M) and Figure 2.

    docs/distances.md, "Which MASI" (this variant against NLTK's older weights and DKPro's).

    Examples
    --------
    {1, 2} is a subset of {1, 2, 3, 4}: J = 2/4, M = 2/3, so ``1 - (1/2)(2/3) = 2/3``:

    >>> round(float(masi(2, 4, 2)), 6)
    0.666667

    {1, 2} against {2, 3} overlap without containment: J = 1/3, M = 1/3, ``1 - 1/9``; disjoint
    sets are at distance 1:

    >>> round(float(masi(2, 2, 1)), 6), float(masi(1, 1, 0)), float(masi(0, 0, 0))
    (0.888889, 1.0, 0.0)

    Passonneau (2006), Figure 2 (see :func:`jaccard`): every A3 set is a subset of A4's, so
    MASI = J * 2/3 = 4/9, 4/9, 2/9, and the mean MASI is the paper's 10/27 (.37):

    >>> round(1 - float(masi([2, 2, 1], [3, 3, 3], [2, 2, 1]).mean()), 4)
    0.3704
    """
    a, b, k = _arrays(n_a, n_b, n_ab)
    return 1.0 - _jaccard_index(a, b, k) * _monotonicity(a, b, k, 2.0 / 3.0, 1.0 / 3.0)


def masi_nltk_legacy(n_a: ArrayLike, n_b: ArrayLike, n_ab: ArrayLike) -> FloatArray:
    """MASI with the rounded weights 0.67 and 0.33 of NLTK up to 3.10.0.

    ``1 - J * M`` with M = 1 for equal sets, 0.67 for a subset, 0.33 for an overlap without
    containment and 0 for disjoint sets. Use it to reproduce numbers computed with NLTK <= 3.10.0
    (NLTK 3.10.1 changed to exact thirds, :func:`masi`).

    Parameters
    ----------
    n_a, n_b : array-like of int
        Sizes ``|A|`` and ``|B|`` of the two sets.
    n_ab : array-like of int
        Size of their intersection ``|A & B|``.

    Returns
    -------
    ndarray of float
        ``1 - J * M``, in [0, 1], in the broadcast shape of the arguments.

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and pragmatic
    annotation. Proceedings of LREC 2006, Genoa. Section 3.3.

    NLTK, ``nltk/metrics/distance.py``, ``masi_distance`` up to 3.10.0; exact thirds since 3.10.1
    (nltk/nltk issue #3361, pull request #3695).

    docs/distances.md, "Which MASI".

    Examples
    --------
    {1, 2} against {1, 2, 3, 4}: ``1 - (1/2)(0.67) = 0.665``, against 2/3 with exact thirds:

    >>> round(float(masi_nltk_legacy(2, 4, 2)), 6)
    0.665

    {1, 2} against {2, 3}: ``1 - (1/3)(0.33) = 0.89``:

    >>> round(float(masi_nltk_legacy(2, 2, 1)), 6)
    0.89
    """
    a, b, k = _arrays(n_a, n_b, n_ab)
    return 1.0 - _jaccard_index(a, b, k) * _monotonicity(a, b, k, 0.67, 0.33)


def masi_dkpro(n_a: ArrayLike, n_b: ArrayLike, n_ab: ArrayLike) -> FloatArray:
    """DKPro Statistics' "MASI": ``(1 - J) * (1 - M)``, the Jaccard distance scaled by 1 - M.

    This is a different measure from Passonneau's MASI (:func:`masi`): it multiplies the two
    distances instead of the two similarities. The empty set counts as a subset of every set, so
    ``d({}, {x}) = 1 * (1 - 2/3) = 1/3``.

    Parameters
    ----------
    n_a, n_b : array-like of int
        Sizes ``|A|`` and ``|B|`` of the two sets.
    n_ab : array-like of int
        Size of their intersection ``|A & B|``.

    Returns
    -------
    ndarray of float
        ``(1 - J) * (1 - M)``, in [0, 1], in the broadcast shape of the arguments.

    References
    ----------
    DKPro Statistics (dkpro/dkpro-statistics), ``MASISetAnnotationDistanceFunction.java`` in
    dkpro-statistics-agreement, and its test ``subsetIsScaledByOneThird``.

    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and pragmatic
    annotation. Proceedings of LREC 2006, Genoa. Section 3.3 (the weights M).

    docs/distances.md, "Which MASI".

    Examples
    --------
    {A} against {A, B} (DKPro's test): J = 1/2 and a subset, M = 2/3, so
    ``(1/2)(1/3) = 1/6`` (:func:`masi` gives 2/3 for the same pair):

    >>> round(float(masi_dkpro(1, 2, 1)), 6)
    0.166667

    The empty set against {x} (subset, J = 0) and two disjoint sets (M = 0):

    >>> round(float(masi_dkpro(0, 1, 0)), 6), float(masi_dkpro(1, 1, 0))
    (0.333333, 1.0)
    """
    a, b, k = _arrays(n_a, n_b, n_ab)
    m = _monotonicity(a, b, k, 2.0 / 3.0, 1.0 / 3.0)
    return (1.0 - _jaccard_index(a, b, k)) * (1.0 - m)


def passonneau2004(n_a: ArrayLike, n_b: ArrayLike, n_ab: ArrayLike) -> FloatArray:
    """Passonneau (2004) set distance: 0 equal, 1/3 subset, 2/3 overlap, 1 disjoint (= 1 - M).

    The empty set is a subset of every set, so ``d({}, {x}) = 1/3``. Unlike MASI there is no
    Jaccard factor: the sizes of the sets do not matter, only how they relate.

    Parameters
    ----------
    n_a, n_b : array-like of int
        Sizes ``|A|`` and ``|B|`` of the two sets.
    n_ab : array-like of int
        Size of their intersection ``|A & B|``.

    Returns
    -------
    ndarray of float
        0, 1/3, 2/3 or 1, in the broadcast shape of the arguments.

    References
    ----------
    Passonneau, R. (2004). Computing reliability for coreference annotation. Proceedings of LREC
    2004, Portugal.

    DKPro Statistics (dkpro/dkpro-statistics), ``SetAnnotationDistanceFunction.java``, which cites
    that paper.

    docs/distances.md.

    Examples
    --------
    {A} against {A, B} (a subset), {A, B} against {A, C} (an overlap), {A} against {B}
    (disjoint):

    >>> [round(float(passonneau2004(*c)), 4) for c in [(1, 2, 1), (2, 2, 1), (1, 1, 0)]]
    [0.3333, 0.6667, 1.0]
    >>> round(float(passonneau2004(0, 1, 0)), 4), float(passonneau2004(0, 0, 0))
    (0.3333, 0.0)
    """
    a, b, k = _arrays(n_a, n_b, n_ab)
    return 1.0 - _monotonicity(a, b, k, 2.0 / 3.0, 1.0 / 3.0)


def interval(x: ArrayLike, y: ArrayLike) -> FloatArray:
    """Krippendorff's interval difference ``(x - y)**2``.

    Already squared, as in Krippendorff's definition of alpha; vectorised over numpy arrays.

    Parameters
    ----------
    x, y : array-like of float
        The two values (numbers), broadcast against each other.

    Returns
    -------
    ndarray of float
        ``(x - y)**2`` in the broadcast shape of the arguments.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43. (The interval metric difference.)

    docs/distances.md, "Scalar levels".

    Examples
    --------
    ``(1 - 4)**2 = 9``; arrays give one difference per pair:

    >>> float(interval(1, 4))
    9.0
    >>> interval([1, 2, 5], [4, 2, 3])
    array([9., 0., 4.])
    """
    return (np.asarray(x, dtype=np.float64) - np.asarray(y, dtype=np.float64)) ** 2


def ratio(x: ArrayLike, y: ArrayLike) -> FloatArray:
    """Krippendorff's ratio difference ``((x - y) / (x + y))**2``; 0 when ``x + y == 0``.

    Each pair is first divided by the power of two just above the larger of ``|x|`` and
    ``|y|`` (exactly, and the difference does not change), so that numbers near the largest
    float (``1e308``) give their difference rather than an overflow.

    Parameters
    ----------
    x, y : array-like of float
        The two values (numbers on a ratio scale), broadcast against each other.

    Returns
    -------
    ndarray of float
        ``((x - y) / (x + y))**2``, and 0 where ``x + y == 0``, in the broadcast shape of the
        arguments.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43. (The ratio metric difference.)

    docs/distances.md, "Scalar levels".

    Examples
    --------
    ``((1 - 3) / (1 + 3))**2 = (-1/2)**2 = 1/4``; 2 against 6 is the same ratio, so the same
    difference:

    >>> float(ratio(1, 3)), float(ratio(2, 6))
    (0.25, 0.25)
    >>> float(ratio(0, 0))
    0.0
    >>> float(ratio(1e308, -0.5e308)), float(ratio(1.5e308, 1.5e308 / 3))
    (9.0, 0.25)
    """
    xa, ya = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    _, power = np.frexp(np.maximum(np.abs(xa), np.abs(ya)))
    xs, ys = np.ldexp(xa, -power), np.ldexp(ya, -power)  # exact, in (-1, 1): no overflow
    return _ratio_or(xs - ys, xs + ys, 0.0) ** 2


def checked(distance: Distance, d: ArrayLike, pair: Callable[[int], str]) -> FloatArray:
    """Distances as floats, refused where one is NaN, infinite or negative.

    Alpha weighs every pair of values by its distance; a distance that is not a number of 0 or
    more for some pair leaves alpha without meaning (a NaN would silently make alpha NaN, a
    negative one would pull D_o and D_e the wrong way). The engines call this on every
    distance they evaluate (the user's functions included), so the fault is named with the
    pair of values rather than found in the result.

    Parameters
    ----------
    distance : Distance
        The distance evaluated (its name goes into the message).
    d : array-like
        The distances of some pairs, any shape.
    pair : callable
        ``pair(k)``: the ``k``-th pair (in ``d``'s flat order), in words, for the message.

    Returns
    -------
    ndarray of float
        ``d`` as float64, when every distance is finite and not negative.

    Raises
    ------
    ParameterError
        About ``distance``, naming the first pair whose distance is NaN, infinite or negative.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. (A difference
    function is 0 for equal values and positive otherwise.) docs/distances.md, "Your own
    distance".

    Examples
    --------
    >>> d = Distance("signed", "scalar", lambda x, y: x - y)
    >>> checked(d, [0.0, 2.0], lambda k: f"pair {k}")
    array([0., 2.])
    >>> checked(d, [0.0, -1.0], lambda k: "the values 1 and 2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.ParameterError: the distance 'signed' gives -1.0 for the values 1 and 2; ...
    """
    arr = np.asarray(d, dtype=np.float64)
    bad = ~(arr >= 0) | np.isinf(arr)  # NaN is not >= 0
    if bad.any():
        k = int(np.flatnonzero(bad.reshape(-1))[0])
        value = float(arr.reshape(-1)[k])
        raise ParameterError(
            f"the distance {distance.name!r} gives {value!r} for {pair(k)}; alpha needs a "
            "distance that is a finite number of 0 or more for every pair of values (0 for "
            "equal values): correct the distance, or leave out the values it cannot compare",
            params=("distance",))
    return arr


def as_numbers(values: Sequence[Any]) -> FloatArray:
    """The values as finite floats (bools and non-numbers refused).

    The scalar distances (``interval``, ``ratio``) call this on the distinct values of a table
    before computing anything, so that a label such as ``"3"`` is reported rather than compared.

    Parameters
    ----------
    values : sequence
        The values: Python or numpy ints and floats. Bools are refused, although Python counts
        them as ints.

    Returns
    -------
    ndarray of float, shape (len(values),)
        The values as float64, in order.

    Raises
    ------
    ParameterError
        If a value is not a number (or is a bool), or is NaN or infinite; the message says what to
        do instead.

    References
    ----------
    docs/distances.md, "Scalar levels".

    Examples
    --------
    >>> as_numbers([1, 2.5, 3])
    array([1. , 2.5, 3. ])
    >>> as_numbers([1, "2"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.ParameterError: this distance needs numbers; the values include '2' (str)...
    """
    out = np.empty(len(values), dtype=np.float64)
    for k, v in enumerate(values):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.number)):
            raise ParameterError(
                f"this distance needs numbers; the values include {v!r} "
                f"({type(v).__name__}). Read the values as numbers (CLI: --scalar) or choose "
                "a distance for labels (nominal) or sets (jaccard, masi)", params=("distance",))
        out[k] = float(v)
    if not np.isfinite(out).all():
        raise ParameterError("this distance needs finite numbers; the values include NaN or inf",
                             params=("distance",))
    return out


def _ordinal_unbound(x: Any, y: Any) -> float:
    raise ParameterError(
        "the ordinal difference depends on how often every value occurs: bind it to the "
        "data first, DISTANCES['ordinal'].bind(values, counts), or pass distance='ordinal' "
        "to alpha, which binds it to the table's pairable values"
    )


def _midranks(values: Sequence[Any], counts: ArrayLike) -> dict[Any, float]:
    """Krippendorff's mid-ranks: values in order, each at the middle of its own count."""
    n_v = np.asarray(counts, dtype=np.float64)
    if n_v.ndim != 1 or len(n_v) != len(values):
        raise ParameterError(f"counts must give one count per value ({len(values)})")
    if len(n_v) and (not np.isfinite(n_v).all() or (n_v < 0).any()):
        raise ParameterError("counts must be finite and not negative")
    if any(isinstance(v, (frozenset, set, list, tuple)) for v in values):
        raise ParameterError(
            "the ordinal distance orders single values; these are sets (use a set distance "
            "such as jaccard or masi, or nominal)")
    try:
        order = sorted(range(len(values)), key=lambda k: values[k])
    except TypeError:
        raise ParameterError(
            "the ordinal distance needs values that can be ordered (all numbers, or all "
            "strings); these mix types that do not compare"
        ) from None
    ranks: dict[Any, float] = {}
    below = 0.0
    for k in order:
        ranks[values[k]] = below + float(n_v[k]) / 2.0
        below += float(n_v[k])
    return ranks


@dataclass(frozen=True)
class Distance:
    """A named distance between coding values, with the fast paths it admits.

    The alpha engines choose how to sum a distance from what it declares here, never from its
    name: a user distance called ``"interval"`` is summed pair by pair like any other.

    Parameters
    ----------
    name : str
        The name used in reports and signatures.
    kind : {"set", "scalar", "value"}
        ``"set"``: ``func(n_a, n_b, n_ab)`` of the three cardinalities, vectorised with numpy.
        ``"scalar"``: ``func(x, y)`` vectorised over numpy arrays of numbers.
        ``"value"``: ``func(x, y)`` on two values, called once per pair of distinct values.
    func : callable
        The function itself.
    description : str, default=""
        One line for reports and ``--help``.
    signature_fields : mapping, default={}
        Extra ``key:value`` fields for the reproducibility signature (e.g. MASI's weights).
    embedding : callable, optional
        ``embedding(values) -> array`` such that ``d(x, y) = (e(x) - e(y))**2``: the expected
        disagreement then has a closed form, linear in the number of distinct values
        (``interval``: the numbers themselves; a bound ``ordinal``: the mid-ranks).
    equality : bool, default=False
        ``d(x, y)`` is 0 when ``x == y`` and 1 otherwise, on any values (``nominal``).
    marginal : bool, default=False
        The distance depends on how often each value occurs in the data (``ordinal``); call
        :meth:`bind` with the values and their counts to get the distance itself (alpha does).

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43. (The difference functions; the ordinal one depends on
    the marginal counts ``n_g``.)

    docs/distances.md, "How the engines choose a path".

    Examples
    --------
    A distance of one's own on numbers; ``|1 - 4| = 3``:

    >>> d = Distance("absolute", "scalar", lambda x, y: abs(x - y))
    >>> d(1, 4), d.numeric, d.embedding is None
    (3.0, True, True)

    The ordinal distance bound to counts: values in Python's order are high (1), low (2),
    mid (1), so Krippendorff's ``(n_high + n_low - (n_high + n_low) / 2)**2 = (3 - 1.5)**2``,
    the squared difference of the mid-ranks 0.5 and 2.0:

    >>> ordinal = DISTANCES["ordinal"].bind(["low", "mid", "high"], [2, 1, 1])
    >>> ordinal("high", "low")  # sorted: high (mid-rank 0.5), low (2.0), mid (3.5)
    2.25
    """

    name: str
    kind: Kind
    func: Callable[..., Any]
    description: str = ""
    signature_fields: Mapping[str, str] = field(default_factory=dict)
    embedding: Callable[[Sequence[Any]], FloatArray] | None = None
    equality: bool = False
    marginal: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise ParameterTypeError(f"a Distance's name must be a str. Got {self.name!r}.")
        if self.kind not in ("set", "scalar", "value"):
            raise ParameterError(
                f"a Distance's kind must be 'set', 'scalar' or 'value'. Got {self.kind!r}.")
        if not callable(self.func):
            raise ParameterTypeError(f"a Distance's func must be callable. Got {self.func!r}.")

    @property
    def numeric(self) -> bool:
        """True when the distance compares numbers or orders values (read values as such)."""
        return self.kind == "scalar"

    def bind(self, values: Sequence[Any], counts: ArrayLike) -> Distance:
        """The distance for data whose distinct ``values`` occur ``counts`` times.

        Only marginal-dependent distances (``ordinal``) change; others are returned as they
        are. The bound ordinal distance is the squared difference of mid-ranks,
        Krippendorff's ``(sum_{g=c..k} n_g - (n_c + n_k) / 2)**2``.
        """
        if not self.marginal:
            return self
        ranks = _midranks(list(values), counts)

        def embed(vals: Sequence[Any]) -> FloatArray:
            try:
                return np.array([ranks[v] for v in vals], dtype=np.float64)
            except (KeyError, TypeError):
                raise ParameterError(
                    "a value is not among those the ordinal distance was bound to") from None

        def func(x: Any, y: Any) -> float:
            e = embed([x, y])
            return float((e[0] - e[1]) ** 2)

        return Distance(self.name, "value", func, self.description,
                        dict(self.signature_fields), embedding=embed)

    def __call__(self, x: Any, y: Any) -> float:
        """The distance between two values (sets for set distances, numbers for scalar levels)."""
        if self.marginal:
            _ordinal_unbound(x, y)
        if self.kind == "set":
            if self.equality and not (_set_like(x) and _set_like(y)):
                return float(x != y)
            a, b = frozenset(x), frozenset(y)
            return float(self.func(len(a), len(b), len(a & b)))
        return float(self.func(x, y))


def _set_like(x: Any) -> bool:
    return isinstance(x, (set, frozenset, list, tuple))


def set_distance(
    func: Callable[[ArrayLike, ArrayLike, ArrayLike], ArrayLike] | None = None,
    *,
    name: str | None = None,
    description: str = "",
) -> Any:
    """Declare a function of ``(|A|, |B|, |A & B|)`` as a set distance (usable as a decorator).

    The function must accept numpy arrays, return 0 for two empty sets and be symmetric in
    ``(n_a, n_b)``; alpha then uses the vectorised and the linear-time engines with it.

    Parameters
    ----------
    func : callable, optional
        ``func(n_a, n_b, n_ab) -> array`` of the three cardinalities. Without it,
        ``set_distance(name=...)`` returns a decorator.
    name : str, optional
        The name in reports and signatures (default: the function's ``__name__``).
    description : str, default=""
        One line for reports.

    Returns
    -------
    Distance or callable
        A :class:`Distance` of kind ``"set"``; or, when ``func`` is not given, a decorator that
        makes one.

    References
    ----------
    docs/distances.md, "Your own distance" and "How the engines choose a path".

    Examples
    --------
    The overlap (Szymkiewicz-Simpson) distance ``1 - |A & B| / min(|A|, |B|)``, 0 for two empty
    sets. {1} against {1, 2}: 1 shared element out of min(1, 2) = 1, distance 0; {1, 2} against
    {2, 3}: 1 out of 2, distance 1/2:

    >>> @set_distance(name="overlap")
    ... def overlap(n_a, n_b, n_ab):
    ...     import numpy as np
    ...     small = np.minimum(n_a, n_b)
    ...     return np.where(small > 0, 1 - n_ab / np.maximum(small, 1), (n_a != n_b) * 1.0)
    >>> overlap({1}, {1, 2}), overlap({1, 2}, {2, 3}), overlap.kind
    (0.0, 0.5, 'set')
    """

    def wrap(f: Callable[..., Any]) -> Distance:
        return Distance(str(name or getattr(f, "__name__", "custom")), "set", f, description)

    return wrap if func is None else wrap(func)


def _registry() -> dict[str, Distance]:
    items = [
        Distance("nominal", "set", nominal, "0 if the values are equal, else 1",
                 equality=True),
        Distance("jaccard", "set", jaccard, "1 - |A & B| / |A | B|"),
        Distance("dice", "set", dice, "1 - 2|A & B| / (|A| + |B|)"),
        Distance("masi", "set", masi, "1 - J*M, M in {1, 2/3, 1/3, 0} (Passonneau 2006)",
                 {"masi": "exact"}),
        Distance("masi_nltk_legacy", "set", masi_nltk_legacy,
                 "1 - J*M with M in {1, .67, .33, 0} (NLTK <= 3.10.0)", {"masi": "0.67/0.33"}),
        Distance("masi_dkpro", "set", masi_dkpro, "(1 - J)(1 - M) (DKPro Statistics)",
                 {"masi": "dkpro"}),
        Distance("passonneau2004", "set", passonneau2004,
                 "0 equal, 1/3 subset, 2/3 overlap, 1 disjoint (Passonneau 2004)"),
        Distance("interval", "scalar", interval, "(x - y)^2 (Krippendorff)",
                 embedding=as_numbers),
        Distance("ratio", "scalar", ratio, "((x - y) / (x + y))^2 (Krippendorff)"),
        Distance("ordinal", "scalar", _ordinal_unbound,
                 "squared difference of mid-ranks of the marginal counts (Krippendorff)",
                 marginal=True),
    ]
    return {d.name: d for d in items}


DISTANCES: Mapping[str, Distance] = _registry()
#: The distances reported when none are named: one for identity, two for overlap.
DEFAULT_DISTANCES: tuple[str, ...] = ("nominal", "jaccard", "masi")
_ALIASES = {"binary": "nominal", "masi_exact": "masi", "masi_nltk": "masi_nltk_legacy"}

DistanceLike = str | Distance | Callable[[Hashable, Hashable], float]


def get_distance(spec: DistanceLike) -> Distance:
    """Resolve a distance given by name, as a :class:`Distance`, or as a callable ``f(x, y)``.

    Names are case-insensitive, ``-`` and ``_`` are the same, and ``binary`` (nominal),
    ``masi_exact`` (masi) and ``masi_nltk`` (masi_nltk_legacy) are aliases.

    Parameters
    ----------
    spec : str, Distance or callable
        A name from :data:`DISTANCES`, a :class:`Distance` (returned as it is), or any callable
        ``f(x, y) -> float`` on two values, such as NLTK's distance functions (wrapped as a
        ``kind="value"`` distance named after the function).

    Returns
    -------
    Distance
        The distance, with the fast paths it declares.

    Raises
    ------
    ParameterError
        If a name is not one of :data:`DISTANCES` (or an alias such as ``binary``).
    ParameterTypeError
        If ``spec`` is neither a name, a Distance nor a callable.

    References
    ----------
    docs/distances.md (the names, and "Your own distance").

    Examples
    --------
    >>> get_distance("Binary").name
    'nominal'
    >>> get_distance("masi").signature_fields
    {'masi': 'exact'}
    >>> get_distance(lambda x, y: float(x != y)).kind
    'value'
    """
    if isinstance(spec, Distance):
        return spec
    if isinstance(spec, str):
        key = spec.strip().lower().replace("-", "_")
        key = _ALIASES.get(key, key)
        if key not in DISTANCES:
            raise ParameterError(
                f"The distance must be one of {sorted(DISTANCES)} or a callable. Got {spec!r}."
            )
        return DISTANCES[key]
    if callable(spec):
        return Distance(str(getattr(spec, "__name__", "custom")), "value", spec)
    raise ParameterTypeError(
        f"The distance must be a name, a Distance or a callable. Got {type(spec).__name__}."
    )
