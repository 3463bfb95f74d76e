"""Running on a dask cluster quietly: a distributed client on a local cluster or a scheduler,
with dask's loggers and warnings kept off the terminal.

dask and distributed log to standard error, in several lines, with tracebacks; the command
line's rule is one line per message and nothing lost. :func:`dask_client` keeps the client's
loggers quiet (:func:`quiet_logs`) and the local workers' silent (what goes wrong in a task comes
back as its error); what the client's loggers report as errors while the computation runs, and
dask's warnings, go to the warnings ledger as ``other``, one line each.

References
----------
docs/scale.md ("Running it").
"""

from __future__ import annotations

import contextlib
import logging
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

from ..errors import ClusterAgreeError, notify

__all__ = ["dask_client", "one_line", "quiet_logs"]

INSTALL = 'pip install "clusteragree[dask]"'

#: How long the client tries to reach a scheduler given by its address before giving up (the
#: tests shorten it where nothing listens).
CONNECT_TIMEOUT = "20s"


#: The loggers of dask, distributed and the libraries they log through.
LOGGERS = ("distributed", "dask", "tornado", "bokeh", "asyncio")


class _Keep(logging.Handler):
    """Keeps the records it receives (instead of writing them to standard error)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def quiet_logs(names: Sequence[str] = LOGGERS) -> Iterator[list[logging.LogRecord]]:
    """Within this block the loggers ``names`` write nothing; their warnings and errors are
    kept in the list yielded (the loggers are restored at the end).

    Examples
    --------
    >>> with quiet_logs() as kept:
    ...     logging.getLogger("distributed.worker").error("Compute Failed")
    >>> [r.getMessage() for r in kept]
    ['Compute Failed']
    """
    keep = _Keep()
    saved = []
    for name in names:
        logger = logging.getLogger(name)
        saved.append((logger, list(logger.handlers), logger.propagate))
        logger.handlers = [keep]
        logger.propagate = False
    try:
        yield keep.records
    finally:
        for logger, handlers, propagate in saved:
            logger.handlers = handlers
            logger.propagate = propagate


def _quiet_worker() -> None:
    """Silence a worker process's loggers (what matters comes back as the task's error)."""
    for name in LOGGERS:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


@contextlib.contextmanager
def dask_client(address: str | None, workers: int = 1) -> Iterator[Any]:
    """A distributed client: on a local cluster of ``workers`` processes of one thread each
    (``address`` None), closed at the end, or on the scheduler at ``address``.

    The client's loggers are quiet throughout (:func:`quiet_logs`), and so are the local
    workers' (what goes wrong in a task comes back as its error). What the client's loggers
    said while the computation ran, errors and the nanny's warnings (a worker restarted), goes
    to the warnings ledger as ``other``; errors of dask's own (a scheduler that cannot be
    reached, workers that die) become :class:`~clusteragree.errors.ClusterAgreeError` in one
    line.

    Raises
    ------
    ClusterAgreeError
        dask.distributed is not installed; the scheduler cannot be reached; workers died.
    """
    try:
        from distributed import Client, LocalCluster
        from distributed.scheduler import KilledWorker
    except ImportError:
        raise ClusterAgreeError(f"the dask backend needs dask.distributed, which is not "
                                f"installed: {INSTALL}") from None
    with quiet_logs() as kept, _one_line_warnings():
        with contextlib.ExitStack() as stack:
            try:
                if address is None:  # no dashboard; its HTTP server on a free local port
                    cluster = stack.enter_context(LocalCluster(
                        n_workers=workers, threads_per_worker=1, processes=True,
                        dashboard_address=None, silence_logs=logging.CRITICAL + 1,
                        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"}))
                    client = stack.enter_context(Client(cluster))
                    client.run(_quiet_worker)
                else:
                    client = stack.enter_context(Client(address, timeout=CONNECT_TIMEOUT))
            except (OSError, TimeoutError) as err:
                where = "a local cluster" if address is None else f"the scheduler at {address}"
                raise ClusterAgreeError(f"cannot start or reach {where}: {one_line(err)}"
                                        ) from None
            try:
                yield client
            except KilledWorker as err:
                raise ClusterAgreeError(f"dask workers died while computing "
                                        f"({one_line(err)}); give the workers more memory, "
                                        "or write smaller parts") from None
            said = list(kept)  # what closing the cluster says is not the run's
        _report_logs(said)


@contextlib.contextmanager
def _one_line_warnings() -> Iterator[None]:
    """The warnings of dask and distributed (several lines, some) issued again in one line
    each; clusteragree's own as they were."""
    catcher = warnings.catch_warnings(record=True)
    caught = catcher.__enter__()
    warnings.simplefilter("always")
    try:
        yield
    finally:
        catcher.__exit__(None, None, None)
        for record in caught:
            message = record.message
            if isinstance(message, Warning) and type(message).__module__.startswith(
                    "clusteragree"):
                warnings.warn_explicit(message, record.category, record.filename,
                                       record.lineno)
            else:
                notify("other", f"{record.category.__name__}: "
                       f"{' '.join(str(message).split())}")


def _report_logs(records: Sequence[logging.LogRecord]) -> None:
    """Errors, and the nanny's warnings, as ``other`` notices (one per message)."""
    counts: dict[str, int] = {}
    for record in records:
        if record.levelno >= logging.ERROR or record.name.startswith("distributed.nanny"):
            text = f"dask ({record.name}): {one_line(Exception(record.getMessage()))}"
            counts[text] = counts.get(text, 0) + 1
    for text, count in counts.items():
        notify("other", text, count=count)


def one_line(err: BaseException) -> str:
    """The first line of a message, without its final full stop."""
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    return (lines[0] if lines else type(err).__name__).rstrip(".")
