"""What the tests of the fast paths share: a field-by-field comparison that names the first
difference, and the benchmark scripts loaded as modules (their generators make test data)."""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from clusteragree.exports.columns import PairColumns, SpanColumns

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def same(a: Any, b: Any, where: str = "export") -> None:
    """``a == b``, field by field, with the place of the first difference."""
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        assert type(a) is type(b), where
        for f in dataclasses.fields(a):
            same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, (tuple, SpanColumns, PairColumns)) and \
            isinstance(b, (tuple, SpanColumns, PairColumns)):
        # spans and tokens kept as columns are the tuple of their spans and tokens
        assert len(a) == len(b), f"{where}: {len(a)} != {len(b)} items"
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            same(x, y, f"{where}[{k}]")
    else:
        assert type(a) is type(b) and a == b, f"{where}: {a!r} != {b!r}"


def script(name: str) -> ModuleType:
    """``scripts/NAME.py`` loaded as a module (registered while it runs, as its dataclasses
    need; not left in ``sys.modules``)."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


def as_columns(spans: Any, seed: int = 0, lazy: bool = True) -> SpanColumns:
    """``spans`` (continuous, without covered text) as :class:`SpanColumns`, built as a test
    would not expect: the tables of layers, labels and features in a shuffled order, with
    values given twice and values no span uses, the ids made on demand (``lazy``) or given."""
    import random

    import numpy as np

    rng = random.Random(seed)
    spans = list(spans)

    def table(values: list[Any], extra: list[Any]) -> tuple[list[Any], list[int]]:
        distinct = list(dict.fromkeys(values)) + extra
        listed = distinct + [v for v in distinct if rng.random() < 0.3]  # repeated values
        rng.shuffle(listed)
        places: dict[Any, list[int]] = {}
        for k, v in enumerate(listed):
            places.setdefault(v, []).append(k)
        return listed, [rng.choice(places[v]) for v in values]

    layers, lc = table([s.layer for s in spans], ["unused layer"])
    labels, bc = table([s.label for s in spans], ["unused", None])
    features, fc = table([s.features for s in spans], [(("unused", "x"),)])
    ids = [s.id for s in spans]
    return SpanColumns([s.start for s in spans], [s.end for s in spans], layers, lc, labels,
                       bc, features, fc, [-1 if s.line is None else s.line for s in spans],
                       (lambda: list(ids)) if lazy else ids,
                       id_at=ids.__getitem__ if lazy and rng.random() < 0.5 else None,
                       known_ids=frozenset(x for x in ids if rng.random() < 0.5)) \
        if spans else SpanColumns(np.zeros(0), np.zeros(0), (), [], (), [], (), [], [], [])
