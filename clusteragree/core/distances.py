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

    >>> float(nominal(2, 2, 2)), float(nominal(2, 3, 2))
    (0.0, 1.0)
    """
    a, b, k = _arrays(n_a, n_b, n_ab)
    return np.where((a == k) & (b == k), 0.0, 1.0)


def jaccard(n_a: ArrayLike, n_b: ArrayLike, n_ab: ArrayLike) -> FloatArray:
    """Jaccard distance ``1 - |A & B| / |A | B|``; two empty sets are at distance 0.

    >>> float(jaccard(2, 4, 2))
    0.5
    """
    a, b, k = _arrays(n_a, n_b, n_ab)
    return 1.0 - _jaccard_index(a, b, k)


def dice(n_a: ArrayLike, n_b: ArrayLike, n_ab: ArrayLike) -> FloatArray:
    """Dice distance ``1 - 2 |A & B| / (|A| + |B|)``; two empty sets are at distance 0.

    >>> round(float(dice(3, 2, 2)), 6)
    0.2
    """
    a, b, k = _arrays(n_a, n_b, n_ab)
    return 1.0 - _ratio_or(2.0 * k, a + b, 1.0)


def masi(n_a: ArrayLike, n_b: ArrayLike, n_ab: ArrayLike) -> FloatArray:
    """MASI distance ``1 - J * M`` with exact thirds (Passonneau 2006; NLTK >= 3.10.1).

    M is 1 for equal sets, 2/3 when one is a subset of the other, 1/3 when they overlap
    otherwise and 0 when they are disjoint; J is the Jaccard index.

    >>> round(float(masi(2, 4, 2)), 6)
    0.666667
    """
    a, b, k = _arrays(n_a, n_b, n_ab)
    return 1.0 - _jaccard_index(a, b, k) * _monotonicity(a, b, k, 2.0 / 3.0, 1.0 / 3.0)


def masi_nltk_legacy(n_a: ArrayLike, n_b: ArrayLike, n_ab: ArrayLike) -> FloatArray:
    """MASI with the rounded weights 0.67 and 0.33 of NLTK up to 3.10.0.

    >>> round(float(masi_nltk_legacy(2, 4, 2)), 6)
    0.665
    """
    a, b, k = _arrays(n_a, n_b, n_ab)
    return 1.0 - _jaccard_index(a, b, k) * _monotonicity(a, b, k, 0.67, 0.33)


def masi_dkpro(n_a: ArrayLike, n_b: ArrayLike, n_ab: ArrayLike) -> FloatArray:
    """DKPro Statistics' "MASI": ``(1 - J) * (1 - M)``, the Jaccard distance scaled by 1 - M.

    >>> round(float(masi_dkpro(1, 2, 1)), 6)
    0.166667
    """
    a, b, k = _arrays(n_a, n_b, n_ab)
    m = _monotonicity(a, b, k, 2.0 / 3.0, 1.0 / 3.0)
    return (1.0 - _jaccard_index(a, b, k)) * (1.0 - m)


def passonneau2004(n_a: ArrayLike, n_b: ArrayLike, n_ab: ArrayLike) -> FloatArray:
    """Passonneau (2004) set distance: 0 equal, 1/3 subset, 2/3 overlap, 1 disjoint (= 1 - M).

    The empty set is a subset of every set, so ``d({}, {x}) = 1/3``.

    >>> [round(float(passonneau2004(*c)), 4) for c in [(1, 2, 1), (2, 2, 1), (1, 1, 0)]]
    [0.3333, 0.6667, 1.0]
    """
    a, b, k = _arrays(n_a, n_b, n_ab)
    return 1.0 - _monotonicity(a, b, k, 2.0 / 3.0, 1.0 / 3.0)


def interval(x: ArrayLike, y: ArrayLike) -> FloatArray:
    """Krippendorff's interval difference ``(x - y)**2``.

    >>> float(interval(1, 4))
    9.0
    """
    return (np.asarray(x, dtype=np.float64) - np.asarray(y, dtype=np.float64)) ** 2


def ratio(x: ArrayLike, y: ArrayLike) -> FloatArray:
    """Krippendorff's ratio difference ``((x - y) / (x + y))**2``; 0 when ``x + y == 0``.

    >>> float(ratio(1, 3))
    0.25
    """
    xa, ya = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    return _ratio_or(xa - ya, xa + ya, 0.0) ** 2


def as_numbers(values: Sequence[Any]) -> FloatArray:
    """The values as finite floats (bools and non-numbers refused)."""
    out = np.empty(len(values), dtype=np.float64)
    for k, v in enumerate(values):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.number)):
            raise ParameterError(
                f"this distance needs numbers; the values include {v!r} "
                f"({type(v).__name__}). Read the values as numbers (CLI: --scalar) or choose "
                "a distance for labels (nominal) or sets (jaccard, masi)")
        out[k] = float(v)
    if not np.isfinite(out).all():
        raise ParameterError("this distance needs finite numbers; the values include NaN or inf")
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

    Examples
    --------
    >>> d = Distance("absolute", "scalar", lambda x, y: abs(x - y))
    >>> d(1, 4), d.numeric, d.embedding is None
    (3.0, True, True)
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

    Examples
    --------
    >>> @set_distance(name="overlap")
    ... def overlap(n_a, n_b, n_ab):
    ...     import numpy as np
    ...     small = np.minimum(n_a, n_b)
    ...     return np.where(small > 0, 1 - n_ab / np.maximum(small, 1), (n_a != n_b) * 1.0)
    >>> overlap({1}, {1, 2})
    0.0
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

    Raises
    ------
    ParameterError
        If a name is not one of :data:`DISTANCES` (or an alias such as ``binary``).

    Examples
    --------
    >>> get_distance("Binary").name
    'nominal'
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
