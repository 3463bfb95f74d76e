"""Mathet, Widlöcher & Métivier's gamma: ``1 - observed disorder / expected disorder``.

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
on each other. A sample with no unit is drawn again. The generator is numpy's PCG64 seeded
with ``seed``.

Precision. ``min_samples`` continua are drawn; with ``cv`` their coefficient of variation, the
count is raised to ``ceil((1.96 cv / precision)^2)`` (at most ``max_samples``), and again with
the new ``cv`` until the 95% confidence interval of the expected disorder is within
``± precision`` of it, relatively, or ``max_samples`` are drawn. The precision reached,
``1.96 s / (mean sqrt(N))``, is reported with the value (a ``note`` when it is not the one asked).

References
----------
Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The unified and holistic method gamma (γ)
for inter-annotator agreement measure and alignment. Computational Linguistics 41(3), 437-479.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from math import ceil

import numpy as np

from ..errors import ParameterError, notify, option
from .alignment import MAX_CANDIDATES, Alignment, Continuum, best_alignment, prepare

__all__ = ["GammaResult", "gamma", "sample_continuum"]


@dataclass(frozen=True)
class GammaResult:
    """Gamma and what it was computed from.

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

    References
    ----------
    Mathet, Widlöcher & Métivier (2015), Computational Linguistics 41(3), section 5.

    Examples
    --------
    >>> r = gamma([[(0, 4, "x"), (6, 9, "y")], [(0, 5, "x"), (6, 9, "y")]], seed=7)
    >>> r.seed, r.n_samples >= 30, round(r.observed, 4)
    (7, True, 0.0062)
    """

    gamma: float
    observed: float
    expected: float
    n_samples: int
    precision: float
    seed: int
    alignment: Alignment


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


def gamma(annotations: Sequence[Sequence[tuple[float, float, Hashable]]], *,
          alpha: float = 1.0, beta: float = 1.0, delta_empty: float = 1.0,
          categories: Sequence[Hashable] | None = None,
          category_matrix: np.ndarray | Sequence[Sequence[float]] | None = None,
          precision: float = 0.02, min_samples: int = 30, max_samples: int = 1000,
          seed: int = 0, max_candidates: int = MAX_CANDIDATES) -> GammaResult:
    """Gamma of the units of several annotators on one continuum.

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

    Returns
    -------
    GammaResult

    References
    ----------
    Mathet, Widlöcher & Métivier (2015), Computational Linguistics 41(3), sections 4-5.

    Examples
    --------
    >>> a = [(0, 10, "x"), (20, 30, "y"), (40, 50, "x")]
    >>> r = gamma([a, a])
    >>> r.gamma, r.observed
    (1.0, 0.0)
    >>> r.expected > 0, r.precision <= 0.02 or r.n_samples == 1000
    (True, True)
    """
    if not 0 < precision < 1:
        raise ParameterError(f"{option('precision', precision)} must be in (0, 1).",
                             params=("precision",))
    if not 2 <= min_samples <= max_samples:
        raise ParameterError(f"need 2 <= {option('min_samples', min_samples)} <= "
                             f"{option('max_samples', max_samples)}.",
                             params=("min_samples", "max_samples"))
    cont = prepare(annotations, alpha=alpha, beta=beta, delta_empty=delta_empty,
                   categories=categories, category_matrix=category_matrix)
    observed = best_alignment(cont, max_candidates=max_candidates)
    if cont.n_units == 0:
        notify("undefined", "gamma is undefined: no annotator marked any unit")
        nan = float("nan")
        return GammaResult(nan, nan, nan, 0, nan, seed, observed)
    span = max(float(e.max()) for e in cont.ends if len(e)) - min(
        float(s.min()) for s in cont.starts if len(s))
    if span == 0:
        notify("undefined", "gamma is undefined: every unit is empty and at one point, so "
               "there is no continuum to shift them along")
        nan = float("nan")
        return GammaResult(nan, observed.disorder, nan, 0, nan, seed, observed)
    rng = np.random.Generator(np.random.PCG64(seed))

    def draw(count: int) -> list[float]:
        return [best_alignment(sample_continuum(cont, rng), max_candidates=max_candidates
                               ).disorder for _ in range(count)]

    chance = draw(min_samples)
    while True:
        mean, std = float(np.mean(chance)), float(np.std(chance, ddof=1))
        if mean == 0:
            reached = float("nan")
            break
        reached = 1.96 * std / (mean * np.sqrt(len(chance)))
        if reached <= precision or len(chance) >= max_samples:
            break
        wanted = ceil((1.96 * std / (mean * precision)) ** 2)
        chance += draw(min(max(wanted, len(chance) + 1), max_samples) - len(chance))
    if reached > precision:
        notify("note", f"gamma's expected disorder is known within ±{reached:.3g} (relative, "
               f"95%), not {precision}: {option('max_samples', max_samples)} samples reached")
    if mean == 0:
        notify("undefined", "gamma is undefined: the sampled continua have no disorder")
        value = float("nan")
    else:
        value = 1 - observed.disorder / mean
    return GammaResult(float(value), observed.disorder, mean, len(chance), float(reached), seed,
                       observed)
