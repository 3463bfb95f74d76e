"""The second-annotator simulator, and alpha on the pyramid pairs it makes."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from clusteragree import alpha, alpha_many
from clusteragree.core.distances import get_distance
from clusteragree.errors import ParameterError
from clusteragree.pyramids import Noise, pyramid_table, read_pyramid, second_annotator

ROOT = Path(__file__).resolve().parent.parent
QUIRKS = ROOT / "corpora_fixtures" / "pyramid-quirks"
SHARED = ROOT.parent / "shared" / "corpora" / "duc-pyramids"


def _base():
    return read_pyramid(QUIRKS / "line-break-part.pyr")


def test_no_noise_is_the_same_pyramid_and_alpha_one() -> None:
    p = _base()
    q = second_annotator(p, Noise(), seed=3)
    def shape(pyr):
        return [(s.uid, s.label, [c.extent for c in s.contributors]) for s in pyr.scus]

    assert shape(q) == shape(p) and q.text == p.text
    table, _ = pyramid_table([p, q])
    assert alpha(table, "masi").alpha == pytest.approx(1.0)


def test_seeded_and_labels_stay_true_to_the_text() -> None:
    p = read_pyramid(QUIRKS / "contributor-two-summaries.pyr")
    a = second_annotator(p, Noise.level(0.5), seed=11)
    b = second_annotator(p, Noise.level(0.5), seed=11)
    assert a.scus == b.scus
    assert any(second_annotator(p, Noise.level(0.5), seed=s).scus != a.scus for s in range(5))
    for scu in a.scus:
        for part in scu.parts:
            assert a.text[part.start:part.end].replace("\n", "") == part.label
            assert part.start < part.end


def test_each_kind_of_change() -> None:
    p = _base()
    n_contributors = p.n_contributors
    merged = second_annotator(p, Noise(merge=1.0), seed=0)
    assert len(merged.scus) < len(p.scus) and merged.n_contributors == n_contributors
    split = second_annotator(p, Noise(split=1.0), seed=0)
    assert len(split.scus) > len(p.scus) and split.n_contributors == n_contributors
    moved = second_annotator(p, Noise(move=1.0), seed=0)
    assert moved.n_contributors == n_contributors
    trimmed = second_annotator(p, Noise(trim=1.0), seed=0)
    assert sum(q.end - q.start for s in trimmed.scus for q in s.parts) < sum(
        q.end - q.start for s in p.scus for q in s.parts)
    extended = second_annotator(p, Noise(extend=1.0), seed=0)
    assert sum(q.end - q.start for s in extended.scus for q in s.parts) > sum(
        q.end - q.start for s in p.scus for q in s.parts)
    with pytest.raises(ParameterError, match="'move' rate must be in"):
        Noise(move=1.5)


def _dense_alpha(table, name: str) -> float:
    """Alpha computed directly from a dense matrix of all pairs of values (no engine)."""
    values = [v for _, _, v in table.records()]
    units = {}
    for _, u, v in table.records():
        units.setdefault(u, []).append(v)
    labels = sorted({x for v in values for x in v})
    index = {x: i for i, x in enumerate(labels)}
    incidence = np.zeros((len(values), max(len(labels), 1)))
    for i, v in enumerate(values):
        incidence[i, [index[x] for x in v]] = 1
    sizes = incidence.sum(1)
    inter = incidence @ incidence.T
    d = get_distance(name).func(sizes[:, None], sizes[None, :], inter)
    n = len(values)
    expected = (d.sum() - np.trace(d)) / (n * (n - 1))
    observed = 0.0
    for vals in units.values():
        if len(vals) < 2:
            continue
        for i, a in enumerate(vals):
            for j, b in enumerate(vals):
                if i != j:
                    observed += get_distance(name)(a, b) / (len(vals) - 1)
    return 1 - (observed / n) / expected


#: The DUC pyramids (none when ../shared/corpora is absent), each a test of its own below.
PYRAMIDS = sorted(SHARED.glob("DUC20*/**/allpyramids/*.pyr"))


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/corpora absent")
def test_every_real_pyramid_is_simulated() -> None:
    assert len(PYRAMIDS) == 73


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/corpora absent")
@pytest.mark.parametrize("k", range(len(PYRAMIDS)),
                         ids=[p.relative_to(SHARED).as_posix() for p in PYRAMIDS])
def test_word_alpha_equals_generic_path_on_every_simulated_real_pair(k: int) -> None:
    """Pyramid ``k`` of the sorted list, its second annotator seeded with ``k``."""
    names = ["nominal", "jaccard", "masi"]
    path = PYRAMIDS[k]
    p = read_pyramid(path)
    q = second_annotator(p, Noise.level(0.1), seed=k)
    # Component policy: class-derived values, so the pipeline takes the linear engine.
    component, _ = pyramid_table([p, q], units="words", overlap="component")
    assert component.is_class_derived
    fast = alpha_many(component, names)
    slow = alpha_many(component, names, engine="generic")
    for f, s in zip(fast, slow, strict=True):
        assert f.engine == "classes" and s.engine == "generic"
        assert (math.isnan(f.alpha) and math.isnan(s.alpha)) or f.alpha == pytest.approx(
            s.alpha, abs=1e-9)
    if k % 12 == 0:  # union values (generic engine) against a dense direct computation
        union, _ = pyramid_table([p, q], units="words")
        for name, r in zip(names, alpha_many(union, names), strict=True):
            assert r.alpha == pytest.approx(_dense_alpha(union, name), abs=1e-9)
