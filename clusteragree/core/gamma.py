"""Mathet, Widlöcher & Métivier's gamma, ``1 - observed disorder / expected disorder``, and
Mathet's gamma-cat and gamma-k on one continuum.

The observed disorder is that of the best alignment (:mod:`clusteragree.core.alignment`,
exact). The expected disorder is the mean disorder of the best alignments of sampled continua:

Sampling (the shuffle of the paper's section 5.2). Let ``[lo, hi)`` be the span of all the
units (``L = hi - lo``) and ``m`` the mean unit length. A sampled continuum has as many
annotators as the observed one; each copies the units of an observed annotator drawn at random
(with replacement), every unit keeping its length and category, all shifted by one pivot
``t`` in ``[0, L)`` and wrapped round: a unit starting at ``s`` starts at
``lo + ((s - lo + t) mod L)``. Pivots of one sample are drawn uniformly from what is left of
``[0, L)`` once ``[t' - m/2, t' + m/2]`` is removed around the pivots already drawn (uniformly
from ``[0, L)`` when nothing is left), so that two copies of one annotator are not laid almost
on each other. A sample with no unit is drawn again. Sample ``i`` has its own generator,
numpy's PCG64 seeded by ``SeedSequence(seed, spawn_key=(*key, i))``, so the samples do not
depend on how many processes draw them.

Precision. ``min_samples`` continua are drawn; with ``cv`` their coefficient of variation, the
count is raised to ``ceil((1.96 cv / precision)^2)`` (at most ``max_samples``), and again with
the new ``cv`` until the 95% confidence interval of the expected disorder is within
``± precision`` of it, relatively, or ``max_samples`` are drawn. The precision reached,
``1.96 s / (mean sqrt(N))``, is reported with the value (a ``note`` when it is not the one asked).

gamma-cat and gamma-k (:mod:`clusteragree.core.gamma_cat`) use the same alignments: the
observed categorical disorder is that of the best alignment, the expected one the mean over
the samples of their best alignments' categorical disorders (samples with no weighted pair
left out), with its own precision (the number of samples is set by gamma's).

References
----------
Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The unified and holistic method gamma (γ)
for inter-annotator agreement measure and alignment. Computational Linguistics 41(3), 437-479.

Mathet, Y. (2017). The agreement measure γcat, a complement to γ focused on categorization of
a continuum. Computational Linguistics 43(3), 661-681.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from math import ceil

import numpy as np
import numpy.typing as npt

from ..errors import ParameterError, notify, option
from .alignment import MAX_CANDIDATES, Alignment, Continuum, best_alignment, prepare
from .gamma_cat import CategoricalSums, categorical_sums
from .parallel import map_chunks, resolve_jobs

__all__ = ["CategoryGamma", "Chance", "GammaResult", "chance", "check_sampling", "gamma",
           "precision_of", "sample_continuum", "span_length"]

FloatArray = npt.NDArray[np.float64]
NAN = float("nan")


@dataclass(frozen=True)
class CategoryGamma:
    """gamma-cat, or gamma-k for one category, and what it was computed from.

    Attributes
    ----------
    value : float
        ``1 - observed / expected`` (NaN when undefined).
    observed, expected : float
        The best alignment's categorical disorder; the mean over the samples.
    weight : float
        The sum of the pairs' weights in the best alignment (what pools it).
    precision : float
        Relative half-width of the 95% confidence interval of ``expected``.
    samples : int
        Samples in which the disorder is defined.

    References
    ----------
    Mathet (2017), Computational Linguistics 43(3), 661-681.

    Examples
    --------
    >>> CategoryGamma(0.5, 0.1, 0.2, 3.0, 0.01, 30).value
    0.5
    """

    value: float = NAN
    observed: float = NAN
    expected: float = NAN
    weight: float = 0.0
    precision: float = NAN
    samples: int = 0


@dataclass(frozen=True)
class GammaResult:
    """Gamma, gamma-cat and gamma-k, and what they were computed from.

    Attributes
    ----------
    gamma : float
        ``1 - observed / expected`` (NaN when there is no unit).
    observed, expected : float
        The best alignment's disorder and the mean disorder of the sampled continua.
    n_samples : int
        How many continua were sampled.
    precision : float
        Relative half-width of the 95% confidence interval of ``expected`` reached.
    seed : int
        The seed of the sampling.
    alignment : Alignment
        The best alignment of the observed continuum.
    cat : CategoryGamma
        gamma-cat.
    k : mapping
        gamma-k of each category (the continuum's categories).

    References
    ----------
    Mathet, Widlöcher & Métivier (2015), Computational Linguistics 41(3), section 5;
    Mathet (2017), Computational Linguistics 43(3).

    Examples
    --------
    >>> r = gamma([[(0, 4, "x"), (6, 9, "y")], [(0, 5, "x"), (6, 9, "y")]], seed=7)
    >>> r.seed, r.n_samples >= 30, round(r.observed, 4), r.gamma_cat
    (7, True, 0.0062, 1.0)
    """

    gamma: float
    observed: float
    expected: float
    n_samples: int
    precision: float
    seed: int
    alignment: Alignment
    cat: CategoryGamma = CategoryGamma()
    k: Mapping[Hashable, CategoryGamma] = field(default_factory=dict)

    @property
    def gamma_cat(self) -> float:
        """gamma-cat's value."""
        return self.cat.value


@dataclass(frozen=True)
class Chance:
    """The sampled continua of one continuum: per sample, the best alignment's disorder and
    its categorical sums (:class:`~clusteragree.core.gamma_cat.CategoricalSums`, one row per
    sample for gamma-k).

    Examples
    --------
    >>> c = Chance(np.array([1.0, 3.0]), np.array([1.0, 0.0]), np.array([2.0, 0.0]),
    ...            np.zeros((2, 1)), np.zeros((2, 1)))
    >>> c.expected()[:2], round(c.expected()[2], 6)  # 1.96 sqrt(2) / (2 sqrt(2))
    ((2.0, 2), 0.98)
    >>> c.cat_expected()  # the second sample has no weighted pair
    (0.5, 1, nan)
    """

    disorders: FloatArray
    cat_numerator: FloatArray
    cat_weight: FloatArray
    k_numerator: FloatArray
    k_weight: FloatArray

    def expected(self) -> tuple[float, int, float]:
        """Gamma's expected disorder, the samples, and the precision reached."""
        return _mean(self.disorders)

    def cat_expected(self, code: int | None = None) -> tuple[float, int, float]:
        """gamma-cat's (or for category ``code`` gamma-k's) expected categorical disorder, the
        samples where it is defined, and the precision reached."""
        num, weight = ((self.cat_numerator, self.cat_weight) if code is None else
                       (self.k_numerator[:, code], self.k_weight[:, code]))
        defined = weight > 0
        return _mean(num[defined] / weight[defined])


def _mean(values: FloatArray) -> tuple[float, int, float]:
    if not len(values):
        return NAN, 0, NAN
    mean = float(np.mean(values))
    return mean, len(values), precision_of(values)


def precision_of(values: FloatArray) -> float:
    """``1.96 s / (mean sqrt(N))``: the relative half-width of the 95% interval of a mean.

    Examples
    --------
    >>> round(precision_of(np.array([1.0, 2.0, 3.0])), 4)
    0.5658
    """
    mean = float(np.mean(values))
    if len(values) < 2 or mean == 0:
        return NAN
    return float(1.96 * np.std(values, ddof=1) / (mean * np.sqrt(len(values))))


def sample_continuum(cont: Continuum, rng: np.random.Generator) -> Continuum:
    """One sampled continuum (see the module's docstring for the sampling)."""
    n = cont.n_annotators
    starts = np.concatenate(cont.starts)
    ends = np.concatenate(cont.ends)
    lo, hi = float(starts.min()), float(ends.max())
    length = hi - lo
    gap = float(np.mean(ends - starts)) / 2
    while True:
        free = [(0.0, length)]
        new_s, new_e, new_c = [], [], []
        for _ in range(n):
            widths = np.array([b - a for a, b in free])
            if free and widths.sum() > 0:
                k = int(rng.choice(len(free), p=widths / widths.sum()))
                t = float(rng.uniform(*free[k]))
            else:
                t = float(rng.uniform(0.0, length))
            free = [piece for a, b in free for piece in ((a, min(b, t - gap)), (max(a, t + gap), b))
                    if piece[1] > piece[0]]
            src = int(rng.integers(n))
            s = lo + np.mod(cont.starts[src] - lo + t, length)
            new_s.append(s)
            new_e.append(s + (cont.ends[src] - cont.starts[src]))
            new_c.append(cont.codes[src])
        if sum(len(s) for s in new_s):
            return Continuum(tuple(new_s), tuple(new_e), tuple(new_c), cont.categories,
                             cont.category_matrix, cont.alpha, cont.beta, cont.delta_empty)


def _draw(task: tuple[Continuum, int, tuple[int, ...], int, int]
          ) -> tuple[float, float, float, FloatArray, FloatArray]:
    """One sample's disorder and categorical sums (a task of :func:`map_chunks`)."""
    cont, seed, key, index, max_candidates = task
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(
        seed, spawn_key=(*key, index))))
    sample = sample_continuum(cont, rng)
    aligned = best_alignment(sample, max_candidates=max_candidates)
    sums = categorical_sums(sample, aligned)
    return (aligned.disorder, sums.numerator, sums.weight, sums.by_category_numerator,
            sums.by_category_weight)


def check_sampling(precision: float, min_samples: int, max_samples: int) -> None:
    """Refuse a precision outside (0, 1) or sample bounds not ``2 <= min <= max``."""
    if not 0 < precision < 1:
        raise ParameterError(f"{option('precision', precision)} must be in (0, 1).",
                             params=("precision",))
    if not 2 <= min_samples <= max_samples:
        raise ParameterError(f"need 2 <= {option('min_samples', min_samples)} <= "
                             f"{option('max_samples', max_samples)}.",
                             params=("min_samples", "max_samples"))


def chance(cont: Continuum, *, seed: int = 0, key: tuple[int, ...] = (),
           precision: float = 0.02, min_samples: int = 30, max_samples: int = 1000,
           max_candidates: int = MAX_CANDIDATES, jobs: int | None = 1) -> Chance:
    """Sample continua until gamma's expected disorder is known to ``precision``.

    Parameters
    ----------
    cont : Continuum
        The observed units (at least one, not all empty at one point).
    seed, key : int, tuple of int
        Sample ``i`` is drawn with ``SeedSequence(seed, spawn_key=(*key, i))``.
    precision, min_samples, max_samples, max_candidates
        As :func:`gamma`.
    jobs : int or None, default=1
        Processes drawing the samples (:func:`~clusteragree.core.parallel.resolve_jobs`);
        the samples are the same whatever the number.

    Returns
    -------
    Chance

    References
    ----------
    Mathet, Widlöcher & Métivier (2015), Computational Linguistics 41(3), section 5.2.

    Examples
    --------
    >>> cont = prepare([[(0, 4, "x"), (6, 9, "y")], [(0, 5, "x"), (6, 9, "y")]])
    >>> c = chance(cont, min_samples=10, precision=0.2)
    >>> len(c.disorders) >= 10, c.expected()[2] <= 0.2 or len(c.disorders) == 1000
    (True, True)
    """
    check_sampling(precision, min_samples, max_samples)
    processes = resolve_jobs(jobs)
    rows: list[tuple[float, float, float, FloatArray, FloatArray]] = []

    def draw(count: int) -> None:
        tasks = [(cont, seed, key, i, max_candidates) for i in range(len(rows), len(rows) + count)]
        rows.extend(map_chunks(_draw, tasks, processes))

    draw(min_samples)
    while len(rows) < max_samples:
        values = np.array([r[0] for r in rows])
        mean, std = float(np.mean(values)), float(np.std(values, ddof=1))
        if mean == 0 or 1.96 * std / (mean * np.sqrt(len(values))) <= precision:
            break
        wanted = ceil((1.96 * std / (mean * precision)) ** 2)
        draw(min(max(wanted, len(rows) + 1), max_samples) - len(rows))
    k = len(cont.categories)
    return Chance(np.array([r[0] for r in rows]), np.array([r[1] for r in rows]),
                  np.array([r[2] for r in rows]),
                  np.array([r[3] for r in rows]).reshape(len(rows), k),
                  np.array([r[4] for r in rows]).reshape(len(rows), k))


def category_gammas(observed: CategoricalSums, sampled: Chance
                    ) -> tuple[CategoryGamma, list[CategoryGamma]]:
    """gamma-cat and gamma-k of each category code from the best alignment's sums and the
    samples (NaN where the observed or the expected disorder is undefined or the expected 0).

    Examples
    --------
    >>> obs = CategoricalSums(0.25, 1.0, np.array([0.25]), np.array([1.0]))
    >>> c = Chance(np.ones(2), np.array([1.0, 1.0]), np.array([2.0, 2.0]),
    ...            np.array([[1.0], [1.0]]), np.array([[2.0], [2.0]]))
    >>> cat, ks = category_gammas(obs, c)
    >>> cat.value, ks[0].value
    (0.5, 0.5)
    """
    def one(num: float, weight: float, code: int | None) -> CategoryGamma:
        obs = num / weight if weight > 0 else NAN
        exp, count, reached = sampled.cat_expected(code)
        value = 1 - obs / exp if weight > 0 and count and exp > 0 else NAN
        return CategoryGamma(float(value), float(obs), exp, float(weight), reached, count)

    ks = [one(float(observed.by_category_numerator[c]), float(observed.by_category_weight[c]), c)
          for c in range(len(observed.by_category_weight))]
    return one(observed.numerator, observed.weight, None), ks


def gamma(annotations: Sequence[Sequence[tuple[float, float, Hashable]]], *,
          alpha: float = 1.0, beta: float = 1.0, delta_empty: float = 1.0,
          categories: Sequence[Hashable] | None = None,
          category_matrix: np.ndarray | Sequence[Sequence[float]] | None = None,
          precision: float = 0.02, min_samples: int = 30, max_samples: int = 1000,
          seed: int = 0, max_candidates: int = MAX_CANDIDATES,
          jobs: int | None = 1) -> GammaResult:
    """Gamma, gamma-cat and gamma-k of the units of several annotators on one continuum.

    Parameters
    ----------
    annotations : sequence of sequences of (start, end, category)
        The units of each annotator (``end >= start``).
    alpha, beta, delta_empty, categories, category_matrix, max_candidates
        The dissimilarity and the cap of :func:`clusteragree.core.alignment.best_alignment`.
    precision : float, default=0.02
        Wanted relative half-width of the 95% confidence interval of the expected disorder.
    min_samples, max_samples : int, default=30, 1000
        Bounds on the number of sampled continua.
    seed : int, default=0
        Seed of the sampling.
    jobs : int or None, default=1
        Processes drawing the samples; the values do not depend on it.

    Returns
    -------
    GammaResult

    References
    ----------
    Mathet, Widlöcher & Métivier (2015), Computational Linguistics 41(3), sections 4-5;
    Mathet (2017), Computational Linguistics 43(3), section 4.

    Examples
    --------
    >>> a = [(0, 10, "x"), (20, 30, "y"), (40, 50, "x")]
    >>> r = gamma([a, a])
    >>> r.gamma, r.observed, r.gamma_cat, r.k["y"].value
    (1.0, 0.0, 1.0, 1.0)
    >>> r.expected > 0, r.precision <= 0.02 or r.n_samples == 1000
    (True, True)
    """
    check_sampling(precision, min_samples, max_samples)
    cont = prepare(annotations, alpha=alpha, beta=beta, delta_empty=delta_empty,
                   categories=categories, category_matrix=category_matrix)
    observed = best_alignment(cont, max_candidates=max_candidates)
    if cont.n_units == 0:
        notify("undefined", "gamma is undefined: no annotator marked any unit")
        return GammaResult(NAN, NAN, NAN, 0, NAN, seed, observed)
    if span_length(cont) == 0:
        notify("undefined", "gamma is undefined: every unit is empty and at one point, so "
               "there is no continuum to shift them along")
        return GammaResult(NAN, observed.disorder, NAN, 0, NAN, seed, observed)
    sampled = chance(cont, seed=seed, precision=precision, min_samples=min_samples,
                     max_samples=max_samples, max_candidates=max_candidates, jobs=jobs)
    mean, count, reached = sampled.expected()
    if reached > precision:
        notify("note", f"gamma's expected disorder is known within ±{reached:.3g} (relative, "
               f"95%), not {precision}: {option('max_samples', max_samples)} samples reached")
    if mean == 0:
        notify("undefined", "gamma is undefined: the sampled continua have no disorder")
        value = NAN
    else:
        value = 1 - observed.disorder / mean
    cat, ks = category_gammas(categorical_sums(cont, observed), sampled)
    _undefined_notices(cat, dict(zip(cont.categories, ks, strict=True)))
    return GammaResult(float(value), observed.disorder, mean, count, float(reached), seed,
                       observed, cat, dict(zip(cont.categories, ks, strict=True)))


def span_length(cont: Continuum) -> float:
    """From the first start to the last end of the units (at least one)."""
    return max(float(e.max()) for e in cont.ends if len(e)) - min(
        float(s.min()) for s in cont.starts if len(s))


def _undefined_notices(cat: CategoryGamma, ks: Mapping[Hashable, CategoryGamma],
                       stacklevel: int = 3) -> None:
    """One notice for an undefined gamma-cat, one per reason for the categories whose gamma-k
    is undefined."""
    if np.isnan(cat.value):
        notify("undefined", f"gamma-cat is undefined: {_why(cat)}", stacklevel=stacklevel)
    reasons: dict[str, list[Hashable]] = {}
    for c, g in ks.items():
        if np.isnan(g.value):
            reasons.setdefault(_why(g), []).append(c)
    for why, missing in reasons.items():
        shown = ", ".join(map(repr, missing[:5])) + (", ..." if len(missing) > 5 else "")
        notify("undefined", f"gamma-k is undefined for {len(missing)} categor"
               f"{'y' if len(missing) == 1 else 'ies'} ({shown}): {why} (pairs holding the "
               "category)", count=len(missing), stacklevel=stacklevel)


def _why(cat: CategoryGamma) -> str:
    if not cat.weight > 0:
        return ("no two units are aligned with a positive pairing confidence (1 - d_pos), so "
                "there is no categorisation to compare")
    if not cat.samples:
        return "no sampled continuum aligns two units with a positive pairing confidence"
    return "the sampled continua have no categorical disorder (expected 0)"

