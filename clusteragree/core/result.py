"""The result of an alpha computation and its reproducibility signature.

A result carries what a reader needs to check it: alpha, the observed and expected disagreements
``D_o`` and ``D_e``, the number ``n`` of pairable values, the number of pairable units and of
coders, the distance and the engine; and a signature such as
``alpha|dist:masi|masi:exact|units:words|engine:classes|coders:2|pairable:1450|n:2900|agg:pooled|v:0.1.0``
that says how to get the same number again.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .._version import __version__
from ..errors import AlphaUndefinedWarning
from .distances import Distance

__all__ = ["AlphaResult", "alpha_from_sums", "format_signature"]


def format_signature(name: str, fields: Iterable[tuple[str, object]]) -> str:
    """Join ``name`` and ``key:value`` fields with ``|``, booleans as yes/no, version last.

    >>> format_signature("alpha", [("dist", "masi"), ("missing", True)])  # doctest: +ELLIPSIS
    'alpha|dist:masi|missing:yes|v:...'
    """
    parts = [name]
    for key, value in fields:
        if isinstance(value, bool):
            value = "yes" if value else "no"
        parts.append(f"{key}:{value}")
    parts.append(f"v:{__version__}")
    return "|".join(parts)


@dataclass(frozen=True)
class AlphaResult:
    """Krippendorff's alpha with its components.

    Attributes
    ----------
    alpha : float
        ``1 - D_o / D_e``; NaN when undefined (no pairable value, or ``D_e == 0``).
    D_o, D_e : float
        Observed and expected disagreement, each a mean over pairs of values.
    n : int
        Number of pairable values (values in units coded by at least two coders).
    units : int
        Number of pairable units.
    coders : int
        Number of coders with at least one value.
    distance : str
        Name of the distance.
    engine : str
        ``"classes"`` (linear-time, class-derived values) or ``"generic"`` (value types).
    meta : mapping
        Provenance of the coding table (unit kind, tokenisation, ...), echoed in the signature.
    """

    alpha: float
    D_o: float
    D_e: float
    n: int
    units: int
    coders: int
    distance: str
    engine: str
    distance_fields: Mapping[str, str] = field(default_factory=dict)
    meta: Mapping[str, str] = field(default_factory=dict)

    def __float__(self) -> float:
        return float(self.alpha)

    @property
    def signature(self) -> str:
        """The reproducibility signature of this result."""
        fields: list[tuple[str, object]] = [("dist", self.distance)]
        fields += list(self.distance_fields.items())
        fields += list(self.meta.items())
        fields += [
            ("engine", self.engine),
            ("coders", self.coders),
            ("pairable", self.units),
            ("n", self.n),
            ("agg", "pooled"),
        ]
        return format_signature("alpha", fields)

    def as_dict(self) -> dict[str, object]:
        """The result as a flat dictionary (the JSON shape of the command line)."""
        return {
            "distance": self.distance,
            "alpha": self.alpha,
            "D_o": self.D_o,
            "D_e": self.D_e,
            "n": self.n,
            "units": self.units,
            "coders": self.coders,
            "engine": self.engine,
            "signature": self.signature,
        }


def alpha_from_sums(
    observed: float,
    expected: float,
    n: int,
    units: int,
    coders: int,
    distance: Distance,
    engine: str,
    meta: Mapping[str, str] | None = None,
) -> AlphaResult:
    """Turn summed disagreements into an :class:`AlphaResult`.

    Parameters
    ----------
    observed : float
        ``sum over units of 1/(m_u - 1) * sum over ordered pairs of values in u of d``.
    expected : float
        Sum of ``d`` over all ordered pairs of distinct pairable values.
    n, units, coders : int
        Pairable values, pairable units, coders.

    Returns
    -------
    AlphaResult
        ``D_o = observed / n``, ``D_e = expected / (n (n - 1))``, ``alpha = 1 - D_o / D_e``;
        alpha is NaN, with an :class:`AlphaUndefinedWarning`, when ``n < 2`` or ``D_e == 0``.
    """
    if n < 2:
        warnings.warn(
            f"alpha ({distance.name}) is undefined: there are {n} pairable values; at least "
            "one unit needs values from two coders. Returning NaN.",
            AlphaUndefinedWarning,
            stacklevel=3,
        )
        d_o = d_e = value = math.nan
    else:
        d_o = observed / n
        d_e = expected / (n * (n - 1.0))
        # Sums of many terms leave rounding dust; treat |D_e| below that as zero.
        if abs(d_e) <= 1e-12 * max(1.0, abs(d_o)):
            warnings.warn(
                f"alpha ({distance.name}) is undefined: the expected disagreement D_e is 0 "
                "(every pairable value is the same under this distance). Returning NaN.",
                AlphaUndefinedWarning,
                stacklevel=3,
            )
            value = math.nan
        else:
            value = 1.0 - d_o / d_e
    return AlphaResult(
        alpha=float(value),
        D_o=float(d_o),
        D_e=float(d_e),
        n=int(n),
        units=int(units),
        coders=int(coders),
        distance=distance.name,
        engine=engine,
        distance_fields=dict(distance.signature_fields),
        meta=dict(meta or {}),
    )
