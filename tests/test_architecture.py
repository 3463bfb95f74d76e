"""The package's shape, read from its imports: a core that knows no file format and no domain,
domains that import the core and the input layer but never each other, a renderer below the
command line, an input layer that imports nothing else of the package, and no import cycle.

Every ``import`` and ``from ... import`` in every module is read with :mod:`ast`, those inside
functions included (a local import does not make a forbidden arrow allowed), and so are the
lazy re-export tables of the subpackages (checked at run time: every public name of a
subpackage is defined in that subpackage). docs/architecture.md states the rules.
"""

from __future__ import annotations

import ast
import importlib
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "clusteragree"
DOMAINS = ("pyramids", "coref", "labels", "trees", "spans")
INPUT_LAYER = ("errors", "incidents", "inputs", "progress", "_version", "_lazy", "compiled",
               "workers")

#: The parts each part may import (besides itself).
ALLOWED: dict[str, set[str]] = {
    "input": set(),
    "core": {"input"},
    "exports": {"input"},  # what tools export: the domains adapt it to their models
    **{domain: {"core", "input", "exports"} for domain in DOMAINS},
    "report": {"core", "input"},
    "cli": {"core", "input", "report", "exports", *DOMAINS},
    "root": {"core", "input"},
}


def _module_name(path: Path) -> str:
    parts = ["clusteragree", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _part(module: str) -> str:
    """The part of the house a module belongs to."""
    pieces = module.split(".")
    if len(pieces) == 1 or pieces[1] == "__main__":
        return "root" if pieces[-1] != "__main__" else "cli"
    if pieces[1] in INPUT_LAYER:
        return "input"
    return pieces[1]


def _imports(path: Path) -> list[tuple[str, int, bool]]:
    """``(module imported, line, inside a function)`` for every import of the package."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    local_lines = {node.lineno for fn in ast.walk(tree)
                   if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
                   for node in ast.walk(fn) if isinstance(node, (ast.Import, ast.ImportFrom))}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            # "from . import x" imports the submodule x when there is one
            names = [f"{stem}.{a.name}" if _exists(f"{stem}.{a.name}") else stem
                     for a in node.names]
        else:
            continue
        for name in names:
            if name == "clusteragree" or name.startswith("clusteragree."):
                found.append((name, node.lineno, node.lineno in local_lines))
    return found


def _exists(module: str) -> bool:
    relative = Path(*module.split(".")[1:])
    return (ROOT / relative).with_suffix(".py").is_file() or (ROOT / relative).is_dir()


MODULES = {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def test_the_house_is_read() -> None:
    parts = {_part(m) for m in MODULES}
    assert {"core", "report", "cli", "input", *DOMAINS} <= parts
    assert sum(len(_imports(p)) for p in MODULES.values()) > 100


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_follow_the_arrows(module: str) -> None:
    part = _part(module)
    for target, line, _ in _imports(MODULES[module]):
        other = _part(target)
        assert other == part or other in ALLOWED[part], (
            f"{module}:{line} imports {target}: {part} may import only "
            f"{sorted(ALLOWED[part] | {part})}")


def test_no_import_cycle() -> None:
    """Module-level imports form no cycle (a package's ``__init__`` re-exporting its modules
    lazily is not an import)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for module, path in MODULES.items():
        for target, _, local in _imports(path):
            if not local and target != module:
                graph[module].add(target)
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in MODULES:
                continue
            if state.get(nxt) == 1:
                cycle = [*stack[stack.index(nxt):], nxt]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for module in sorted(MODULES):
        if module not in state:
            visit(module)


def test_function_local_imports_only_where_start_up_needs_them() -> None:
    """Only the command line imports the library inside functions (so that ``--help`` and
    usage errors answer without numpy or pandas); elsewhere a local import would be hiding a
    cycle or a wrong arrow."""
    local = [(m, target, line) for m, p in MODULES.items() for target, line, is_local in
             _imports(p) if is_local and _part(m) != "cli"]
    assert not local, local


@pytest.mark.parametrize("package", ["clusteragree.core", *(f"clusteragree.{d}" for d in DOMAINS),
                                     "clusteragree.report"])
def test_public_names_live_in_their_package(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)
        home = getattr(value, "__module__", None)
        if home is None or not isinstance(home, str) or not home.startswith("clusteragree"):
            continue  # constants and aliases of builtins
        assert _part(home) == _part(package) or _part(home) in ALLOWED[_part(package)], (
            f"{package}.{name} comes from {home}")
