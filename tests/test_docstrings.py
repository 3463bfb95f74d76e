"""Every public class and function carries a numpy-style docstring with the sections a reader
needs: Parameters (when it takes any), Returns (functions), References and Examples.

Public means exported in ``__all__`` by ``clusteragree`` or one of its subpackages. The examples
themselves run as doctests (``--doctest-modules``); this test checks that they are there.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import pytest

PACKAGES = ["clusteragree", "clusteragree.core", "clusteragree.pyramids", "clusteragree.coref",
            "clusteragree.labels", "clusteragree.trees", "clusteragree.report"]


def public_objects() -> dict[str, Any]:
    """Public classes and functions by the name of the module that defines them."""
    found: dict[int, tuple[str, Any]] = {}
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            value = getattr(module, name)
            if not (inspect.isclass(value) or inspect.isfunction(value)):
                continue  # constants and type aliases are described in their module
            home = f"{value.__module__}.{value.__qualname__}"
            found.setdefault(id(value), (home, value))
    return dict(sorted(found.values()))


OBJECTS = public_objects()


def sections(doc: str) -> set[str]:
    """Names of the numpy-style sections of ``doc`` (a title over a line of dashes)."""
    lines = doc.splitlines()
    return {lines[i].strip() for i in range(len(lines) - 1)
            if lines[i].strip() and set(lines[i + 1].strip()) == {"-"}
            and len(lines[i + 1].strip()) >= len(lines[i].strip())}


def takes_parameters(value: Any) -> bool:
    target = value.__init__ if inspect.isclass(value) else value
    if inspect.isclass(value) and target is object.__init__:
        return False
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        return False
    return any(name not in ("self", "cls") for name in signature.parameters)


@pytest.mark.parametrize("home", list(OBJECTS))
def test_public_object_has_a_complete_docstring(home: str) -> None:
    value = OBJECTS[home]
    doc = inspect.getdoc(value) or ""
    assert doc, f"{home} has no docstring"
    have = sections(doc)
    wanted = {"References", "Examples"}
    if inspect.isfunction(value):
        wanted.add("Returns")
    if takes_parameters(value) and not issubclass_warning_or_error(value):
        wanted.add("Parameters" if inspect.isfunction(value) else
                   "Attributes" if "Attributes" in have else "Parameters")
    missing = sorted(wanted - have)
    assert not missing, f"{home}: docstring lacks {', '.join(missing)}"
    assert ">>>" in doc, f"{home}: the Examples section holds no runnable example"


def issubclass_warning_or_error(value: Any) -> bool:
    return inspect.isclass(value) and issubclass(value, (Warning, Exception))


def test_the_check_finds_sections() -> None:
    doc = "Title.\n\nParameters\n----------\nx : int\n\nExamples\n--------\n>>> 1\n1\n"
    assert sections(doc) == {"Parameters", "Examples"}
    assert len(OBJECTS) > 100
