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
from typing import Any

from .._version import __version__
from ..errors import AlphaUndefinedWarning
from .distances import Distance

__all__ = ["AlphaResult", "alpha_from_sums", "format_signature"]


def format_signature(name: str, fields: Iterable[tuple[str, object]]) -> str:
    """Join ``name`` and ``key:value`` fields with ``|``, booleans as yes/no, version last.

    Parameters
    ----------
    name : str
        The measure, first in the signature (``"alpha"``, ...).
    fields : iterable of (str, object)
        ``(key, value)`` pairs in the order they are to appear; a value is written with ``str``,
        except booleans, written ``yes`` or ``no``.

    Returns
    -------
    str
        ``name|key:value|...|v:VERSION``, with the version of clusteragree last.

    References
    ----------
    docs/alpha.md, "The signature"; docs/cli.md, "JSON output".

    Examples
    --------
    >>> format_signature("alpha", [("dist", "masi"), ("missing", True)])  # doctest: +ELLIPSIS
    'alpha|dist:masi|missing:yes|v:...'
    >>> from clusteragree import __version__
    >>> format_signature("kappa", [("coders", 2)]) == "kappa|coders:2|v:" + __version__
    True
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
    distance_fields : mapping
        The distance's own signature fields (MASI's weights: ``{"masi": "exact"}``).
    meta : mapping
        Provenance of the coding table (unit kind, tokenisation, ...), echoed in the signature.
    uncertainty : mapping, optional
        With a bootstrap (``alpha(..., ci=0.95)``): ``ci`` ([low, high]), ``se``, ``p_below``
        ({"0.667": p, "0.8": p}) and ``bootstrap`` ({"n", "resample", "seed", "level"}).

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43.

    docs/alpha.md, "Definition" and "The signature".

    Examples
    --------
    Krippendorff (2011)'s 4 coders x 12 units (``None`` where a coder gave no value). Unit 12
    has one value only, so 11 units and n = 40 values are pairable; nominal alpha is his
    113/152 = 0.743 (the sums are worked out under :func:`alpha_from_sums`):

    >>> from clusteragree import CodingTable, alpha
    >>> data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    ...         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    ...         [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    ...         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None]]
    >>> result = alpha(CodingTable.from_matrix(data, coders=list("ABCD")), distance="nominal")
    >>> round(result.alpha, 6), round(result.D_o, 6), result.n, result.units, result.coders
    (0.743421, 0.2, 40, 11, 4)
    >>> result.signature  # doctest: +ELLIPSIS
    'alpha|dist:nominal|engine:generic|coders:4|pairable:11|n:40|agg:pooled|v:...'
    >>> round(float(result), 3), sorted(result.as_dict())[:3]
    (0.743, ['D_e', 'D_o', 'alpha'])
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
    uncertainty: Mapping[str, object] | None = None

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
            **(dict(self.uncertainty) if self.uncertainty else {}),
        }

    def _repr_html_(self) -> str:
        """A small table for Jupyter: alpha (with its interval), D_o, D_e, n, the signature."""
        import html

        def number(x: object) -> str:
            return "undefined" if isinstance(x, float) and x != x else (
                f"{x:.4f}" if isinstance(x, float) else str(x))

        interval = ""
        if self.uncertainty and "ci" in self.uncertainty:
            bounds: Any = self.uncertainty["ci"]
            interval = f" [{number(float(bounds[0]))}, {number(float(bounds[1]))}]"
        rows = [("alpha", f"<b>{number(self.alpha)}</b>{interval}"), ("D_o", number(self.D_o)),
                ("D_e", number(self.D_e)), ("values (n)", str(self.n)),
                ("pairable units", str(self.units)), ("coders", str(self.coders)),
                ("signature", f"<code>{html.escape(self.signature)}</code>")]
        body = "".join(f"<tr><th style='text-align:left'>{k}</th><td>{v}</td></tr>"
                       for k, v in rows)
        return (f"<table><caption>Krippendorff's alpha ({html.escape(self.distance)})"
                f"</caption>{body}</table>")


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

    Both alpha engines end here: they sum the distances, this function divides and names the
    result.

    Parameters
    ----------
    observed : float
        ``sum over units of 1/(m_u - 1) * sum over ordered pairs of values in u of d``.
    expected : float
        Sum of ``d`` over all ordered pairs of distinct pairable values.
    n, units, coders : int
        Pairable values, pairable units, coders.
    distance : Distance
        The distance summed; its name and signature fields go into the result.
    engine : str
        The engine that made the sums (``"generic"`` or ``"classes"``).
    meta : mapping, optional
        Provenance of the coding table, echoed in the signature.

    Returns
    -------
    AlphaResult
        ``D_o = observed / n``, ``D_e = expected / (n (n - 1))``, ``alpha = 1 - D_o / D_e``;
        alpha is NaN, with an :class:`AlphaUndefinedWarning`, when ``n < 2`` or ``D_e == 0``.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43.

    docs/alpha.md, "Definition" (and the undefined cases).

    Examples
    --------
    Krippendorff (2011)'s 4 coders x 12 units, nominal: from his coincidence matrix, n = 40
    pairable values in 11 pairable units, 32 of the 40 coincidences on the diagonal
    (``observed = 40 - 32 = 8``) and marginals 9, 13, 10, 5, 3
    (``expected = 40**2 - (81 + 169 + 100 + 25 + 9) = 1216``). Then ``D_o = 8/40 = 0.2``,
    ``D_e = 1216/1560`` and ``alpha = 1 - 8 * 39 / 1216 = 113/152``, his 0.743:

    >>> from clusteragree.core.distances import get_distance
    >>> r = alpha_from_sums(8, 1216, n=40, units=11, coders=4,
    ...                     distance=get_distance("nominal"), engine="generic")
    >>> round(r.alpha, 6), round(r.D_o, 6), round(r.D_e, 6)
    (0.743421, 0.2, 0.779487)

    With fewer than two pairable values alpha is undefined:

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     r = alpha_from_sums(0.0, 0.0, n=1, units=0, coders=1,
    ...                         distance=get_distance("nominal"), engine="generic")
    >>> r.alpha, caught[0].category.__name__
    (nan, 'AlphaUndefinedWarning')
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
