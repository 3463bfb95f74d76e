"""Bootstrap intervals from resampled values: percentile and BCa, what they rest on, and when
an interval needs a word of explanation.

Every bootstrap of the project (alpha over units or documents, the coreference metrics over
documents, the correlations of peer scores over peers) draws resampled values of a statistic
and then calls :func:`bootstrap_interval`:

* ``percentile``: the ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles of the resampled
  values (Efron & Tibshirani 1993, ch. 13);
* ``bca``, bias-corrected and accelerated (Efron 1987; Efron & Tibshirani 1993, ch. 14): the
  quantiles at ``Phi(z0 + (z0 + z) / (1 - a (z0 + z)))`` for ``z`` the normal quantiles of the
  two tails, where the bias correction ``z0 = Phi^-1(share of resamples below the estimate)``
  (ties counted half, as scipy does) and the acceleration
  ``a = sum_i (m - t_i)^3 / (6 (sum_i (m - t_i)^2)^(3/2))`` come from the jackknife values
  ``t_i`` (the statistic with block ``i`` left out, ``m`` their mean).

BCa is undefined when every resample lies on one side of the estimate (``z0`` infinite) or
when ``1 - a (z0 + z) <= 0``, and useless when the bias correction is so large that both
bounds fall among the most extreme resamples (a lower bound beyond the ``1 - 1/B`` quantile,
or an upper bound below the ``1/B`` quantile, of ``B`` resamples: a zero-width interval at the
largest or smallest resample) or on one value that many resamples tie on (few units give few
distinct resampled values); the percentile interval is then given, and the reason kept.
When the jackknife does not move the statistic (``sum (m - t_i)^2 = 0``) the acceleration is
taken as 0 (the bias-corrected interval).

References
----------
Efron, B. (1987). Better bootstrap confidence intervals. Journal of the American Statistical
Association 82(397), 171-185.

Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
(Chapter 13: percentile intervals; chapter 14: BCa, with the spatial test data of Table 14.1.)
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

from ..errors import ParameterError, option

__all__ = ["DEFAULT_INTERVAL", "FEW_BLOCKS", "INTERVALS", "Interval", "acceleration",
           "bias_correction", "bootstrap_interval", "check_interval", "check_resamples", "describe",
           "interval_method", "outside_note"]

FloatArray = npt.NDArray[np.float64]

#: The interval methods: bias-corrected and accelerated, or percentile.
INTERVALS = ("bca", "percentile")

#: The default method, chosen from the coverage study of docs/uncertainty.md.
DEFAULT_INTERVAL = "bca"

#: How each method is named in the output.
NAMES = {"bca": "BCa", "percentile": "percentile"}

#: Fewer units or documents than this to resample get a note that the interval is rough.
FEW_BLOCKS = 20

#: At most this share of the memory available is taken by the resampled values a run keeps.
MEMORY_SHARE = 0.5

_NORMAL = NormalDist()


@dataclass(frozen=True)
class Interval:
    """A bootstrap interval and how it was obtained.

    Attributes
    ----------
    low, high : float
        The bounds (NaN when no resample is defined).
    method : str
        The method that gave the bounds (``bca`` or ``percentile``).
    asked : str
        The method asked for; differs from ``method`` when BCa is undefined on these
        resamples (``reason`` says why).
    z0 : float
        The bias correction (NaN unless BCa was asked for).
    acceleration : float
        The acceleration (NaN unless BCa was asked for).
    reason : str or None
        Why BCa could not be used.

    References
    ----------
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap, ch. 13-14.

    Examples
    --------
    >>> i = bootstrap_interval(np.arange(101.0), 0.9, "percentile")
    >>> (round(i.low, 6), round(i.high, 6), i.method)
    (5.0, 95.0, 'percentile')
    """

    low: float
    high: float
    method: str
    asked: str
    z0: float = float("nan")
    acceleration: float = float("nan")
    reason: str | None = None


def check_interval(method: str) -> str:
    """The interval method, checked.

    Parameters
    ----------
    method : str
        ``bca`` or ``percentile``.

    Returns
    -------
    str
        The method.

    Raises
    ------
    ParameterError
        For any other value (about the parameter ``interval``).

    References
    ----------
    docs/uncertainty.md, "Percentile or BCa".

    Examples
    --------
    >>> check_interval("bca")
    'bca'
    """
    if method not in INTERVALS:
        raise ParameterError(f"{option('interval', method)}: the interval is one of "
                             f"{', '.join(INTERVALS)}", params=("interval",))
    return method


def interval_method(interval: str | None, resample: str) -> str:
    """The interval's method: BCa by default, percentile for KALPHA's draws (which have no
    jackknife); BCa asked with KALPHA's draws is refused.

    Parameters
    ----------
    interval : {"bca", "percentile"} or None
        The method asked for; None: the default.
    resample : str
        What a resample draws (``units``, ``documents``, ``auto``, ``krippendorff``).

    Returns
    -------
    str

    Raises
    ------
    ParameterError
        An unknown method, or BCa with ``resample="krippendorff"``.

    References
    ----------
    docs/uncertainty.md, "Percentile or BCa".

    Examples
    --------
    >>> interval_method(None, "documents"), interval_method(None, "krippendorff")
    ('bca', 'percentile')
    """
    if interval is None:
        return "percentile" if resample == "krippendorff" else DEFAULT_INTERVAL
    check_interval(interval)
    if interval == "bca" and resample == "krippendorff":
        raise ParameterError(f"{option('interval', 'bca')}: {option('resample', resample)} "
                             "draws pairs of values, which give percentile intervals (as the "
                             "KALPHA macro does); ask for the percentile interval, or resample "
                             "units or documents", params=("interval", "resample"))
    return interval


def _available_memory() -> int | None:
    """Bytes of memory available to the process (Linux: MemAvailable), else the physical
    memory, else None."""
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):
        return None


def _size(count: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB", "TB", "PB"):
        if count < 1024 or unit == "PB":
            return f"{count:,.0f} {unit}" if unit == "bytes" else f"{count:,.1f} {unit}"
        count /= 1024
    return f"{count:,.1f} PB"  # pragma: no cover


def check_resamples(n: int, values_per_resample: int = 1, *,
                    available: int | None = None) -> None:
    """Refuse, before allocating, a number of resamples whose values would not fit in memory.

    A bootstrap keeps ``n`` resampled values of each statistic (8 bytes each); the work on a
    chunk of resamples is bounded separately. The run is refused when what it keeps would
    take more than half the memory available.

    Parameters
    ----------
    n : int
        Resamples asked for.
    values_per_resample : int, default=1
        Statistics kept per resample (distances, pairs of annotators times metrics, ...).
    available : int, optional
        Bytes available (default: read from the system; no check when it cannot be read).

    Raises
    ------
    ParameterError
        About the parameter ``bootstrap`` (``--bootstrap N`` on the command line).

    References
    ----------
    docs/uncertainty.md, "Speed and workers".

    Examples
    --------
    >>> check_resamples(1000, available=10**9)
    >>> try:
    ...     check_resamples(10**12, available=10**9)
    ... except ParameterError as err:
    ...     print(str(err)[:74], err.params)
    bootstrap=1000000000000 would keep 7.3 TB of resampled values, more than h ('bootstrap',)
    """
    needed = 8.0 * float(n) * max(int(values_per_resample), 1)
    free = _available_memory() if available is None else available
    if free is not None and needed > MEMORY_SHARE * free:
        raise ParameterError(
            f"{option('bootstrap', n)} would keep {_size(needed)} of resampled values, more "
            f"than half the memory available ({_size(free)}): draw fewer resamples (1000 to "
            f"10000 are plenty for a 95% interval)", params=("bootstrap",))


def bias_correction(resampled: npt.ArrayLike, estimate: float) -> float:
    """``z0 = Phi^-1(p)``, ``p`` the share of resamples below the estimate, ties counted half.

    Parameters
    ----------
    resampled : array of float
        The resampled values (defined ones only).
    estimate : float
        The statistic on the data.

    Returns
    -------
    float
        ``z0``; infinite when every resample lies on one side of the estimate.

    References
    ----------
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap, eq. 14.14. (Ties
    counted half, as scipy.stats.bootstrap does, so that a discrete statistic is not biased
    by its ties.)

    Examples
    --------
    Half the resamples below, none tied: no correction.

    >>> bias_correction([1.0, 2.0, 4.0, 5.0], 3.0)
    0.0
    >>> bias_correction([1.0, 2.0], 3.0)
    inf
    """
    values = np.asarray(resampled, dtype=np.float64)
    share = (np.count_nonzero(values < estimate)
             + np.count_nonzero(values <= estimate)) / (2.0 * len(values))
    if share <= 0.0:
        return -math.inf
    if share >= 1.0:
        return math.inf
    return float(_NORMAL.inv_cdf(share))


def acceleration(jackknife: npt.ArrayLike) -> float:
    """The acceleration ``a`` from jackknife values (NaN ones left out).

    Parameters
    ----------
    jackknife : array of float
        The statistic with each block (unit, document, peer) left out in turn.

    Returns
    -------
    float
        ``sum (m - t_i)^3 / (6 (sum (m - t_i)^2)^(3/2))``; 0 when the values do not vary.

    References
    ----------
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap, eq. 14.15.

    Examples
    --------
    The spatial test data of Efron and Tibshirani's Table 14.1 (test A, 26 children), the
    statistic the plug-in variance (171.5): they give a = 0.061.

    >>> a = np.array([48, 36, 20, 29, 42, 42, 20, 42, 22, 41, 45, 14, 6, 0, 33, 28, 34, 4,
    ...               32, 24, 47, 41, 24, 26, 30, 41], dtype=float)
    >>> round(acceleration([np.delete(a, i).var() for i in range(len(a))]), 3)
    0.061
    """
    values = np.asarray(jackknife, dtype=np.float64)
    values = values[~np.isnan(values)]
    if len(values) < 2:
        return 0.0
    d = values.mean() - values
    spread = float((d * d).sum())
    if not spread > 0 or not math.isfinite(spread):
        return 0.0
    return float((d ** 3).sum() / (6.0 * spread ** 1.5))


def bootstrap_interval(resampled: npt.ArrayLike, level: float, method: str = DEFAULT_INTERVAL,
                       *, estimate: float | None = None,
                       jackknife: npt.ArrayLike | None = None) -> Interval:
    """A percentile or BCa interval of resampled values (NaN ones left out).

    Parameters
    ----------
    resampled : array of float
        The statistic on each resample; NaN where it is undefined (left out).
    level : float
        Confidence level, between 0 and 1.
    method : {"bca", "percentile"}, default=DEFAULT_INTERVAL
        ``bca`` needs ``estimate`` and ``jackknife``.
    estimate : float, optional
        The statistic on the data.
    jackknife : array of float, optional
        The statistic with each block left out in turn.

    Returns
    -------
    Interval
        NaN bounds when no resample is defined; a percentile interval, with the reason, when
        BCa is undefined on these resamples.

    References
    ----------
    Efron, B. (1987). Better bootstrap confidence intervals. JASA 82(397), 171-185.
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap, ch. 13-14.

    Examples
    --------
    Resamples symmetric around the estimate and a jackknife with no skew: BCa is the
    percentile interval.

    >>> values = np.linspace(-1, 1, 201)
    >>> p = bootstrap_interval(values, 0.9, "percentile")
    >>> b = bootstrap_interval(values, 0.9, "bca", estimate=0.0, jackknife=[-1.0, 0.0, 1.0])
    >>> (round(p.low, 6), round(p.high, 6)) == (round(b.low, 6), round(b.high, 6)), b.z0
    (True, 0.0)

    Every resample below the estimate: BCa is undefined, the percentile interval is given.

    >>> b = bootstrap_interval(values, 0.9, "bca", estimate=2.0, jackknife=[1.0, 2.0])
    >>> b.method, b.reason
    ('percentile', 'every resample lies below the estimate')

    96% of the resamples below the estimate and the rest tied on it (few units give few
    distinct values): BCa would be the zero-width interval [0, 0]; the percentile one is given.

    >>> tied = np.r_[np.linspace(-1.0, -0.2, 960), np.zeros(40)]
    >>> b = bootstrap_interval(tied, 0.9, "bca", estimate=0.0, jackknife=[-0.1, 0.0, 0.1])
    >>> b.method, b.low < b.high, b.reason.split(" (")[0]
    ('percentile', True, 'the bias correction')
    """
    check_interval(method)
    values = np.asarray(resampled, dtype=np.float64)
    values = values[~np.isnan(values)]
    nan = float("nan")
    if len(values) == 0:
        return Interval(nan, nan, method, method)
    tail = (1.0 - level) / 2.0
    if method == "percentile":
        low, high = np.quantile(values, [tail, 1.0 - tail])
        return Interval(float(low), float(high), "percentile", "percentile")
    if estimate is None or jackknife is None:
        raise ParameterError("a BCa interval needs the estimate and the jackknife values")
    z0 = bias_correction(values, float(estimate))
    a = acceleration(jackknife)
    reason = None
    if math.isinf(z0):
        reason = f"every resample lies {'below' if z0 > 0 else 'above'} the estimate"
    else:
        shares = []
        for z in (_NORMAL.inv_cdf(tail), _NORMAL.inv_cdf(1.0 - tail)):
            denominator = 1.0 - a * (z0 + z)
            if denominator <= 0:
                reason = (f"the acceleration ({a:.3g}) is too large for the bias correction "
                          f"({z0:.3g})")
                break
            shares.append(_NORMAL.cdf(z0 + (z0 + z) / denominator))
        if reason is None and (shares[0] > 1.0 - 1.0 / len(values)
                               or shares[1] < 1.0 / len(values)):
            reason = (f"the bias correction (z0 = {z0:.2f}) puts the whole interval among the "
                      f"{'largest' if shares[0] > 0.5 else 'smallest'} resamples")
    if reason is None:
        low, high = np.quantile(values, shares)
        if low == high and values.min() < values.max():  # ties: one resampled value
            reason = (f"the bias correction (z0 = {z0:.2f}) puts the whole interval on one "
                      f"resampled value ({low:.4g}), which {np.mean(values == low):.0%} of "
                      "the resamples take")
        else:
            return Interval(float(low), float(high), "bca", "bca", z0, a)
    low, high = np.quantile(values, [tail, 1.0 - tail])
    return Interval(float(low), float(high), "percentile", "bca", z0, a, reason)


def describe(level: float, method: str, n: int, resample: str | None = None,
             resampled: int | None = None) -> str:
    """How an interval was obtained, in words: ``95% BCa bootstrap over 22 documents, 1000
    resamples``.

    Parameters
    ----------
    level : float
        Confidence level.
    method : str
        ``bca``, ``percentile``, or several joined by ``/``.
    n : int
        Resamples.
    resample : str, optional
        What a resample draws (``units``, ``documents``, ``peers``, ``mentions``, ...;
        ``krippendorff``: pairs of values from the coincidences).
    resampled : int, optional
        How many of them there are.

    Returns
    -------
    str

    References
    ----------
    docs/uncertainty.md.

    Examples
    --------
    >>> describe(0.95, "bca", 1000, "documents", 22)
    '95% BCa bootstrap over 22 documents, 1000 resamples'
    >>> describe(0.9, "percentile", 500, "krippendorff")
    '90% percentile bootstrap of pairs of values (KALPHA), 500 resamples'
    """
    name = "/".join(NAMES.get(m, m) for m in method.split("/"))
    if resample == "krippendorff":
        what = " of pairs of values (KALPHA)"
    elif resample:
        noun = resample if resampled != 1 else resample.rstrip("s")
        what = f" over {resampled} {noun}" if resampled is not None else f" over {noun}"
    else:
        what = ""
    return f"{level:.0%} {name} bootstrap{what}, {n} resamples"


def _skewness(values: FloatArray) -> float:
    d = values - values.mean()
    spread = float((d * d).mean())
    return float((d ** 3).mean() / spread ** 1.5) if spread > 0 else 0.0


def outside_note(estimate: float, found: Interval, resampled: npt.ArrayLike, *,
                 blocks: int | None = None, what: str = "units", few: int = FEW_BLOCKS,
                 causes: Sequence[str] = ()) -> str | None:
    """Why the estimate lies outside its interval, or None when it lies inside.

    Parameters
    ----------
    estimate : float
        The statistic on the data.
    found : Interval
        Its interval.
    resampled : array of float
        The resampled values (NaN ones left out).
    blocks : int, optional
        How many units or documents a resample draws.
    what : str, default="units"
        What they are.
    few : int, default=20
        Fewer blocks than this are called few.
    causes : sequence of str
        What the caller knows of the data that biases the resamples (said after the bias).

    Returns
    -------
    str or None
        ``the estimate ... lies outside its interval [...]: ...`` with each reason found: the
        resamples biased to one side of the estimate, skewed, taking few distinct values,
        drawn from few units or documents, BCa undefined.

    References
    ----------
    docs/uncertainty.md, "When the estimate lies outside its interval".

    Examples
    --------
    >>> found = bootstrap_interval([-0.2, -0.1, -0.05], 0.95, "percentile")
    >>> outside_note(0.0, found, [-0.2, -0.1, -0.05], blocks=9)  # doctest: +NORMALIZE_WHITESPACE
    'the estimate 0.0000 lies outside its interval [-0.1950, -0.0525]: every resample lies
    below the estimate (the resampling is biased against it); the resamples take only 3
    distinct values; few units to draw from (9)'
    """
    if not (math.isfinite(found.low) and math.isfinite(estimate)):
        return None
    slack = 1e-12 * max(1.0, abs(estimate))
    if found.low - slack <= estimate <= found.high + slack:
        return None
    values = np.asarray(resampled, dtype=np.float64)
    values = values[~np.isnan(values)]
    below = float(np.mean(values < estimate))
    above = float(np.mean(values > estimate))
    reasons = []
    if below == 1.0 or above == 1.0:
        reasons.append(f"every resample lies {'below' if below == 1.0 else 'above'} the "
                       "estimate (the resampling is biased against it)")
    elif max(below, above) > 0.75:
        side = "below" if below > above else "above"
        share = max(below, above)
        shown = f"{share:.0%}" if share < 0.99 else f"{share:.1%}"
        reasons.append(f"{shown} of the resamples lie {side} the estimate (the resamples' "
                       "distribution is biased)")
    if reasons:
        reasons.extend(causes)
    skew = _skewness(values)
    if abs(skew) > 1.0:
        reasons.append(f"the resamples' distribution is skewed (skewness {skew:.2f})")
    distinct = len(np.unique(values))
    if distinct < 50:
        reasons.append(f"the resamples take only {distinct} distinct values")
    if blocks is not None and blocks < few:
        reasons.append(f"few {what} to draw from ({blocks})")
    if found.reason:
        reasons.append(f"BCa is not usable here ({found.reason}), so this is the "
                       "percentile interval")
    if not reasons:
        reasons.append("the bias correction moved the interval past it")
    return (f"the estimate {estimate:.4f} lies outside its interval [{found.low:.4f}, "
            f"{found.high:.4f}]: " + "; ".join(reasons))
