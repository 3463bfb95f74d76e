"""Compiled kernels built on first use, with a pure Python or numpy route where they cannot be.

numba is a default dependency where it has wheels, but an install may lack it or fail to
compile; every compiled kernel of the package is then replaced by its slower route, and the
user is told once per process with a :class:`~clusteragree.errors.PerformanceWarning`.

References
----------
docs/performance.md ("How the fast paths work"); docs/parallel.md (kernels cached on disk so
that worker processes load rather than compile them).

Examples
--------
>>> calls = []
>>> loader = Compiled(lambda: calls.append(1) or "kernel", missing="m", failed="f")
>>> loader.get(), loader.get(), len(calls)
('kernel', 'kernel', 1)
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from .errors import PerformanceWarning

__all__ = ["Compiled"]


class Compiled:
    """A kernel built once by ``build``, or None where numba cannot serve.

    Parameters
    ----------
    build : callable
        Builds (compiles, or loads from numba's cache) and returns the kernel; raises
        ImportError without numba, anything else when it cannot compile.
    missing : str
        The warning when numba is not installed (what runs instead, how much slower).
    failed : str
        The start of the warning when the kernel cannot be built; the error follows.

    Examples
    --------
    >>> def no_numba():
    ...     raise ImportError("numba")
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     Compiled(no_numba, missing="slower route", failed="").get() is None
    True
    >>> [str(w.message) for w in seen]
    ['slower route']
    """

    def __init__(self, build: Callable[[], Any], *, missing: str, failed: str) -> None:
        self.build = build
        self.missing = missing
        self.failed = failed
        self.value: Any = False  # not built yet; None when numba cannot serve

    def get(self) -> Any:
        """The kernel, built on the first call; None (after one warning) where it cannot be."""
        if self.value is False:
            try:
                self.value = self.build()
            except ImportError:
                self.value = None
                warnings.warn(PerformanceWarning(self.missing), stacklevel=3)
            except Exception as err:  # a broken numba or llvmlite install, a compiler error
                self.value = None
                warnings.warn(PerformanceWarning(
                    f"{self.failed} ({type(err).__name__}: {str(err)[:120]})"), stacklevel=3)
        return self.value
