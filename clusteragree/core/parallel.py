"""Work over every core: a map over the kept process pool that gives back what a loop would
(:func:`map_chunks`); how many processes (:func:`resolve_jobs`) and the pool itself are of the
input layer (:mod:`clusteragree.workers`), shared with the readers that read a large file in
parts.

Results come back in the order of the items, and the caller reduces them in that order: the
values are those of ``jobs=1`` to the last bit.

References
----------
docs/parallel.md (what runs in parallel, and why the bootstrap uses threads).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .._lazy import loaded
from ..workers import (
    _POOLS,
    THREAD_VARIABLES,
    _pinned_environment,
    _pool,
    forget_broken,
    pools,
    resolve_jobs,
    shutdown,
    start_workers,
    usable_cores,
)

__all__ = ["THREAD_VARIABLES", "forget_broken", "map_chunks", "pin_threads_for", "pool_running",
           "resolve_jobs", "shutdown", "start_workers", "usable_cores"]

T = TypeVar("T")
R = TypeVar("R")

#: Chunks per worker: enough that a slow chunk does not leave the other workers idle, few
#: enough that each chunk is worth its pickling.
CHUNKS_PER_JOB = 4


def pin_threads_for(jobs: int | None) -> bool:
    """Before numpy loads, one thread for each numerical library of this process when
    ``jobs`` asks for several processes (they, not the libraries' threads, use the cores);
    variables the user set are kept.

    Parameters
    ----------
    jobs : int or None
        As :func:`resolve_jobs` reads it.

    Returns
    -------
    bool
        Whether the variables of :data:`THREAD_VARIABLES` were set (not when one process is
        asked for, nor once numpy is loaded, when they would have no effect).

    References
    ----------
    docs/parallel.md, "The pool".

    Examples
    --------
    >>> pin_threads_for(1)
    False
    """
    import sys

    if resolve_jobs(jobs) == 1 or "numpy" in sys.modules:
        return False
    for name in THREAD_VARIABLES:
        os.environ.setdefault(name, "1")
    return True


def pool_running(jobs: int | None) -> bool:
    """Whether a pool with the processes ``jobs`` asks for is already started (work too small
    to pay for starting one may still pay on a running one).

    Examples
    --------
    >>> pool_running(1)
    False
    """
    processes = resolve_jobs(jobs)
    return processes > 1 and processes in _POOLS


def _run_chunk(func: Callable[[Any], Any], chunk: Sequence[Any]) -> list[Any]:
    return [func(item) for item in chunk]


def chunked(items: Sequence[T], jobs: int, chunk_size: int | None = None) -> list[Sequence[T]]:
    """``items`` cut into consecutive chunks: ``chunk_size`` items each, or by default about
    :data:`CHUNKS_PER_JOB` chunks per process."""
    if chunk_size is None:
        chunk_size = max(1, -(-len(items) // (jobs * CHUNKS_PER_JOB)))
    return [items[k:k + chunk_size] for k in range(0, len(items), chunk_size)]


def map_chunks(func: Callable[[T], R], items: Sequence[T], jobs: int | None = 1, *,
               chunk_size: int | None = None, min_items: int = 2) -> list[R]:
    """``[func(item) for item in items]``, on ``jobs`` processes when that pays.

    Parameters
    ----------
    func : callable
        A function of one item, defined at the top level of a module (workers import it by
        name); the items and the results are pickled. It must not report to the warnings
        ledger: a worker's notices, and ``--strict``, are not the caller's.
    items : sequence
        The work, in order.
    jobs : int or None, default=1
        Processes, as :func:`resolve_jobs` reads them. With one, or fewer than ``min_items``
        items, the loop runs here, in this process.
    chunk_size : int, optional
        Items sent to a worker at once; default about :data:`CHUNKS_PER_JOB` chunks per
        process.
    min_items : int, default=2
        Fewer items than this run here (a pool would cost more than it saves).

    Returns
    -------
    list
        ``func(item)`` for each item, in the order of ``items``, whatever ``jobs``.

    Raises
    ------
    ParameterTypeError
        A ``jobs`` that :func:`resolve_jobs` refuses.
    Exception
        The first exception ``func`` raised, in the order of the items (as the loop would).

    References
    ----------
    docs/parallel.md.

    Examples
    --------
    >>> map_chunks(abs, [-3, 1, -2], jobs=1)
    [3, 1, 2]
    """
    processes = resolve_jobs(jobs)
    items = list(items)
    if processes == 1 or len(items) < max(2, min_items):
        return [func(item) for item in items]
    chunks = chunked(items, processes, chunk_size)
    pool = _pool(processes)
    with _pinned_environment():
        futures = [pool.submit(_run_chunk, func, chunk) for chunk in chunks]
    out: list[R] = []
    try:
        for future in futures:
            out.extend(future.result())
    except BaseException as err:
        if loaded("concurrent.futures.process") and isinstance(err, pools.BrokenProcessPool):
            # a worker died: start afresh next time
            _POOLS.pop(processes, None)
        for future in futures:
            future.cancel()
        raise
    return out
