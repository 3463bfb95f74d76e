"""Processes: how many a ``jobs`` asks for (:func:`resolve_jobs`), and the pool of worker
processes kept for the run (:func:`start_workers`), for the core's work and for the readers
that read a large file in parts.

The pool starts its workers with ``spawn`` (safe beside the threads of numba and of the BLAS
library, which ``fork`` is not) and is kept for the next call with the same number of workers,
so that a run pays the start-up (importing numpy, compiling numba kernels) once per worker. Each
worker pins the thread pools of OpenBLAS, MKL, OpenMP and numba to one thread, so that N workers
use N cores rather than fighting over them. This module is of the input layer, so that the
readers of :mod:`clusteragree.exports` use it without the core;
:mod:`clusteragree.core.parallel` maps work over it.

References
----------
docs/parallel.md (what runs in parallel, the pool, reading a large file in parts).
"""

from __future__ import annotations

import atexit
import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from numbers import Integral
from typing import TYPE_CHECKING, TypeVar

from ._lazy import loaded, module
from .errors import ParameterTypeError

if TYPE_CHECKING:
    import multiprocessing
    from concurrent.futures import Future
    from concurrent.futures import process as pools
    from concurrent.futures.process import ProcessPoolExecutor
else:  # loaded with the first pool: a table counted in this process needs neither
    multiprocessing = module("multiprocessing")
    pools = module("concurrent.futures.process")

__all__ = ["THREAD_VARIABLES", "forget_broken", "resolve_jobs", "shutdown", "start_workers",
           "usable_cores"]

T = TypeVar("T")
R = TypeVar("R")

#: The environment variables that size the thread pools of the numerical libraries; a worker
#: sets each to 1 before numpy loads.
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS", "NUMBA_NUM_THREADS")

#: The pools kept, by number of workers.
_POOLS: dict[int, ProcessPoolExecutor] = {}


def usable_cores() -> int:
    """The cores this process may run on.

    Returns
    -------
    int
        The size of the process's CPU affinity set where the system tells it (Linux; a
        container or ``taskset`` may allow fewer cores than the machine has), else the
        machine's count of cores; at least 1.

    References
    ----------
    docs/parallel.md.

    Examples
    --------
    >>> usable_cores() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


def resolve_jobs(jobs: int | None) -> int:
    """The number of processes that ``jobs`` asks for.

    Parameters
    ----------
    jobs : int or None
        None or 0: every usable core (:func:`usable_cores`); a positive N: N processes; a
        negative -k: every core but k - 1 (-1 all of them, -2 all but one, as joblib counts),
        at least one.

    Returns
    -------
    int
        At least 1.

    Raises
    ------
    ParameterTypeError
        If ``jobs`` is not a whole number or None (a bool, a float, a string).

    References
    ----------
    docs/parallel.md.

    Examples
    --------
    >>> resolve_jobs(1), resolve_jobs(3)
    (1, 3)
    >>> resolve_jobs(None) == resolve_jobs(0) == resolve_jobs(-1) == usable_cores()
    True
    >>> resolve_jobs(-10_000)  # never fewer than one
    1
    >>> resolve_jobs(1.5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.ParameterTypeError: jobs must be a whole number of processes ... Got 1.5.
    """
    if jobs is None:
        return usable_cores()
    if isinstance(jobs, bool) or not isinstance(jobs, Integral):
        raise ParameterTypeError(f"jobs must be a whole number of processes (0 or None: every "
                                 f"core; -k: every core but k - 1). Got {jobs!r}.")
    jobs = int(jobs)
    if jobs == 0:
        return usable_cores()
    if jobs < 0:
        return max(1, usable_cores() + 1 + jobs)
    return jobs


def _pin_threads() -> None:
    """A worker's initializer: one thread for each numerical library."""
    for name in THREAD_VARIABLES:
        os.environ[name] = "1"
    import sys

    numba = sys.modules.get("numba")
    if numba is not None:  # loaded before this (by the parent's main module): pin it now
        with contextlib.suppress(Exception):
            numba.set_num_threads(1)


@contextlib.contextmanager
def _pinned_environment() -> Iterator[None]:
    """The thread variables at 1 while workers are started, so that a worker has them from
    its first line (before its parent's main module imports numpy); restored afterwards."""
    saved = {name: os.environ.get(name) for name in THREAD_VARIABLES}
    os.environ.update(dict.fromkeys(THREAD_VARIABLES, "1"))
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _pool(jobs: int) -> ProcessPoolExecutor:
    pool = _POOLS.get(jobs)
    if pool is None:
        pool = pools.ProcessPoolExecutor(max_workers=jobs,
                                         mp_context=multiprocessing.get_context("spawn"),
                                         initializer=_pin_threads)
        _POOLS[jobs] = pool
    return pool


@atexit.register
def shutdown() -> None:
    """Stop the kept pools' workers (at exit, or to free them earlier)."""
    while _POOLS:
        _, pool = _POOLS.popitem()
        pool.shutdown(wait=True, cancel_futures=True)


def start_workers(func: Callable[[T], R], items: Sequence[T], jobs: int) -> list[Future[R]]:
    """``func(item)`` for each item, started in order on a pool of ``jobs - 1`` worker
    processes (this process is the other: it works on something else meanwhile, and may take
    back an item no worker has taken yet by cancelling its future, which then succeeds).

    Parameters
    ----------
    func : callable
        A function of one item, defined at the top level of a module (see
        :func:`map_chunks`; the same rules on the warnings ledger and ``--strict``).
    items : sequence
        The work, in order.
    jobs : int
        Processes, this one included: at least 2.

    Returns
    -------
    list of Future
        One per item, in the order of ``items``. A worker that dies breaks the pool
        (:func:`forget_broken` then drops it).

    References
    ----------
    docs/parallel.md.

    Examples
    --------
    >>> [f.result() for f in start_workers(abs, [-3, 1, -2], jobs=2)]
    [3, 1, 2]
    """
    pool = _pool(max(1, jobs - 1))
    with _pinned_environment():
        return [pool.submit(func, item) for item in items]

def forget_broken(jobs: int, err: BaseException) -> None:
    """After ``err`` from a future of :func:`start_workers`: a broken pool (a worker died)
    is dropped, so that the next call starts afresh."""
    if loaded("concurrent.futures.process") and isinstance(err, pools.BrokenProcessPool):
        _POOLS.pop(max(1, jobs - 1), None)
