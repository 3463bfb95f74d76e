"""A simulated second annotator for a pyramid, for studies where real duplicate pyramids are
missing (the DUC 2003 pairs of Passonneau 2006 are not public).

Starting from a real pyramid, the simulator changes it the ways two annotators' pyramids differ,
each with its own rate:

* ``move``: a contributor leaves its SCU for another SCU (non-monotonic differences: the sets
  overlap, neither contains the other);
* ``split``: an SCU with two or more contributors becomes two SCUs (monotonic: subsets);
* ``merge``: an SCU joins another SCU (monotonic: supersets);
* ``trim`` / ``extend``: a part boundary moves inward / outward by one word, within its summary
  (small monotonic differences in contributor extent).

Everything is drawn from one seeded :class:`numpy.random.Generator`, so a (pyramid, noise, seed)
triple always gives the same pyramid.

Examples
--------
>>> from clusteragree.pyramids.writers import build_pyramid
>>> p = build_pyramid([("D1.M.100.A.A", "a b c d"), ("D1.M.100.A.B", "e f g h")],
...                   [("s", [[(0, "a b")], [(1, "e f")]]), ("t", [[(0, "c d")], [(1, "g h")]])])
>>> q = second_annotator(p, Noise(merge=1.0), seed=1)
>>> len(q.scus), q.text == p.text
(1, True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np

from ..errors import ParameterError
from .model import SCU, Contributor, Part, Pyramid

__all__ = ["Noise", "second_annotator"]

_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class Noise:
    """Rates of each kind of change (probabilities per contributor, SCU or part boundary).

    Attributes
    ----------
    move : float, default=0.0
        Probability that a contributor moves to another SCU (drawn uniformly).
    split : float, default=0.0
        Probability that an SCU with two or more contributors is split in two.
    merge : float, default=0.0
        Probability that an SCU joins another SCU.
    trim : float, default=0.0
        Probability that a part boundary moves inward by one word (a part keeps at least one
        word).
    extend : float, default=0.0
        Probability that a part boundary moves outward by one word, within its summary.

    Raises
    ------
    ParameterError
        A rate outside [0, 1].

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006, Genoa, Italy. Figure 1 (two annotators'
    SCUs differing in weight and in contributor extent), Figures 2 and 3 (monotonic and
    non-monotonic differences), Section 2 (the five DUC 2003 pyramid pairs).

    docs/reproduction/pyramid-units-study.md (the study that uses the simulator) and
    docs/pyramids.md, "Reproductions".

    Examples
    --------
    ``Noise.level(x)`` sets moves, trims and extensions to x and splits and merges to x/2:

    >>> Noise.level(0.1).signature
    'move:0.1|split:0.05|merge:0.05|trim:0.1|extend:0.1'
    >>> Noise(move=1.5)
    Traceback (most recent call last):
    ...
    clusteragree.errors.ParameterError: The 'move' rate must be in [0, 1]. Got 1.5.
    """

    move: float = 0.0
    split: float = 0.0
    merge: float = 0.0
    trim: float = 0.0
    extend: float = 0.0

    def __post_init__(self) -> None:
        for name in ("move", "split", "merge", "trim", "extend"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ParameterError(f"The {name!r} rate must be in [0, 1]. Got {value!r}.")

    @classmethod
    def level(cls, x: float) -> Noise:
        """All kinds at once: moves, trims and extensions at rate x, splits and merges at x/2."""
        return cls(move=x, split=x / 2, merge=x / 2, trim=x, extend=x)

    @property
    def signature(self) -> str:
        """Short form for reports, e.g. ``move:0.1|split:0.05|...``."""
        return "|".join(f"{k}:{getattr(self, k):g}" for k in
                        ("move", "split", "merge", "trim", "extend"))


def _words(pyramid: Pyramid) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    starts, ends, summary = [], [], []
    for k, s in enumerate(pyramid.summaries):
        for m in _WORD.finditer(pyramid.text, *s.body):
            starts.append(m.start())
            ends.append(m.end())
            summary.append(k)
    return np.array(starts), np.array(ends), np.array(summary)


def _reshape(part: Part, pyramid: Pyramid, words: tuple[np.ndarray, np.ndarray, np.ndarray],
             rng: np.random.Generator, noise: Noise) -> Part:
    starts, ends, summary = words
    if not len(starts):
        return part
    inside = np.flatnonzero((starts < part.end) & (ends > part.start))
    if not len(inside):
        return part
    first, last = int(inside[0]), int(inside[-1])
    start, end = part.start, part.end
    for side in ("start", "end"):
        if rng.random() < noise.trim and last > first:
            if side == "start":
                first += 1
                start = int(starts[first])
            else:
                last -= 1
                end = int(ends[last])
        elif rng.random() < noise.extend:
            if side == "start" and first > 0 and summary[first - 1] == summary[first]:
                first -= 1
                start = int(starts[first])
            elif side == "end" and last + 1 < len(starts) and summary[last + 1] == summary[last]:
                last += 1
                end = int(ends[last])
    if (start, end) == (part.start, part.end):
        return part
    return Part(start, end, pyramid.text[start:end].replace("\n", ""))


def second_annotator(pyramid: Pyramid, noise: Noise, seed: int = 0) -> Pyramid:
    """A perturbed copy of ``pyramid`` (same text), as a second annotator might have built it.

    The changes are made in this order: trims and extensions of every part boundary, then
    moves of contributors, then splits, then merges. SCUs left empty are dropped.

    Parameters
    ----------
    pyramid : Pyramid
        The first annotator's pyramid.
    noise : Noise
        The rate of each kind of change.
    seed : int, default=0
        Seed of the :class:`numpy.random.Generator` that draws every change.

    Returns
    -------
    Pyramid
        The same text and summaries, the changed SCUs (kept SCUs keep their uid and label; an
        SCU split off gets a new uid and the label ``"split SCU <uid>"``), path
        ``"<path>#sim<seed>"``, no repairs and no notes.

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006, Genoa, Italy. Figure 1 (two annotators'
    SCUs differing in weight and in contributor extent), Figures 2 and 3 (monotonic and
    non-monotonic differences), Section 2 (the five DUC 2003 pyramid pairs).

    docs/reproduction/pyramid-units-study.md (the study that uses the simulator) and
    docs/pyramids.md, "Reproductions".

    Examples
    --------
    Rates of 0 and 1 make the result certain. With no noise the SCUs are unchanged:

    >>> from clusteragree.pyramids.writers import build_pyramid
    >>> p = build_pyramid([("D1.M.100.A.A", "the cat sat down"), ("D1.M.100.A.B", "a cat sat")],
    ...                   [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]])])
    >>> q = second_annotator(p, Noise(), seed=3)
    >>> q.scus == p.scus, q.text == p.text, q.path
    (True, True, '<built>#sim3')

    Trimming every boundary takes "cat" off the start of both parts (the end stays: a part
    keeps at least one word); extending every boundary adds "the" and "down" in the first
    summary, and "a" in the second, whose part already ends at the end of its summary:

    >>> [c.label for c in second_annotator(p, Noise(trim=1.0)).scus[0].contributors]
    ['sat', 'sat']
    >>> [c.label for c in second_annotator(p, Noise(extend=1.0)).scus[0].contributors]
    ['the cat sat down', 'a cat sat']
    """
    rng = np.random.default_rng(seed)
    words = _words(pyramid)
    groups: list[list[Contributor]] = []
    for scu in pyramid.scus:
        cs = []
        for c in scu.contributors:
            parts = tuple(_reshape(p, pyramid, words, rng, noise) for p in c.parts)
            ordered = sorted(parts, key=lambda p: p.start)
            cs.append(Contributor("...".join(p.label for p in ordered), parts, c.comment))
        groups.append(cs)
    # Moves: a contributor goes to another SCU.
    for i in range(len(groups)):
        for c in list(groups[i]):
            if len(groups) > 1 and rng.random() < noise.move:
                j = int(rng.integers(len(groups) - 1))
                j += j >= i
                groups[i].remove(c)
                groups[j].append(c)
    # Splits: an SCU with two or more contributors becomes two.
    for i in range(len(groups)):
        if len(groups[i]) >= 2 and rng.random() < noise.split:
            order = rng.permutation(len(groups[i]))
            cut = int(rng.integers(1, len(groups[i])))
            groups.append([groups[i][k] for k in order[cut:]])
            groups[i] = [groups[i][k] for k in order[:cut]]
    # Merges: an SCU joins another.
    for i in range(len(groups)):
        if groups[i] and len(groups) > 1 and rng.random() < noise.merge:
            j = int(rng.integers(len(groups) - 1))
            j += j >= i
            groups[j].extend(groups[i])
            groups[i] = []
    labels = [s.label for s in pyramid.scus]
    next_uid = max((s.uid for s in pyramid.scus), default=0) + 1
    scus = []
    for i, cs in enumerate(groups):
        if not cs:
            continue
        uid = pyramid.scus[i].uid if i < len(pyramid.scus) else next_uid + i
        label = labels[i] if i < len(labels) else f"split SCU {uid}"
        scus.append(SCU(uid, label, tuple(cs)))
    return replace(pyramid, scus=tuple(scus), path=f"{pyramid.path}#sim{seed}",
                   repairs={}, notes={})
