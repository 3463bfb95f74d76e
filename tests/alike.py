"""What the tests of the fast paths share: a field-by-field comparison that names the first
difference, and the benchmark scripts loaded as modules (their generators make test data)."""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from clusteragree.exports.columns import SpanColumns

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def same(a: Any, b: Any, where: str = "export") -> None:
    """``a == b``, field by field, with the place of the first difference."""
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        assert type(a) is type(b), where
        for f in dataclasses.fields(a):
            same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, (tuple, SpanColumns)) and isinstance(b, (tuple, SpanColumns)):
        # spans kept as columns are the tuple of their spans
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
