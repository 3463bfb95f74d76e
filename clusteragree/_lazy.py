"""Loading on first use: re-exports of the subpackages (PEP 562), and heavy libraries.

``import clusteragree`` and the command line's ``--version`` do not pay for numpy, pandas and
scipy until something needs them; a module that needs pandas or scipy in some of its functions
only holds :func:`module` of it, so that a small table answered on the command line loads
neither (docs/performance.md, "Start-up").

Examples
--------
>>> import sys
>>> json = module("json")
>>> json.dumps([1])
'[1]'
>>> module("clusteragree.no_such_module")  # nothing is imported before an attribute is read
<module 'clusteragree.no_such_module' (imported when first used)>
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["attach", "loaded", "module"]


def attach(package: str, names: Mapping[str, str]
           ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for a package whose public ``names`` live in the
    modules given (relative to the package), imported when a name is first asked for."""

    def __getattr__(name: str) -> Any:
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(names[name], package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(names))

    return __getattr__, __dir__


class _Deferred:
    """A stand-in for a module, imported when one of its attributes is first read."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "_name", name)

    def __getattr__(self, attr: str) -> Any:
        name = object.__getattribute__(self, "_name")
        found = sys.modules.get(name)
        return getattr(found if found is not None else importlib.import_module(name), attr)

    def __repr__(self) -> str:
        return f"<module {object.__getattribute__(self, '_name')!r} (imported when first used)>"


def module(name: str) -> Any:
    """The module ``name``, imported when one of its attributes is first read.

    Parameters
    ----------
    name : str
        An absolute module name (``"pandas"``, ``"scipy.sparse"``).

    Returns
    -------
    object
        A stand-in whose attributes are those of the module. A module importing a heavy
        library this way writes ``import pandas as pd`` under ``TYPE_CHECKING`` for the type
        checker, and ``pd = module("pandas")`` otherwise.

    Examples
    --------
    >>> math = module("math")
    >>> math.sqrt(4.0)
    2.0
    """
    return _Deferred(name)


def loaded(name: str) -> bool:
    """Whether the module ``name`` has been imported (so that a type check against one of its
    classes costs nothing: a value cannot be a DataFrame if pandas was never imported).

    Examples
    --------
    >>> loaded("sys"), loaded("clusteragree.no_such_module")
    (True, False)
    """
    return name in sys.modules
