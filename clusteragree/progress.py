"""Progress bars for long work, on standard error, only when asked (the command line asks when
standard error is a terminal) and only once the work has taken more than a second.

The library's loops report through :class:`Progress`; nothing is shown unless :func:`shown` is
active, so that library users and tests see no bars and pipes get no control characters.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from types import TracebackType
from typing import Any

__all__ = ["Progress", "shown"]

_SHOWN: ContextVar[bool] = ContextVar("clusteragree_progress", default=False)

#: Seconds of work before a bar appears.
DELAY = 1.0


@contextlib.contextmanager
def shown(on: bool = True) -> Iterator[None]:
    """Show progress bars inside the block (``on``), e.g. when standard error is a terminal.

    Examples
    --------
    >>> with shown(False):
    ...     with Progress(3, "steps") as bar:
    ...         bar.update(3)
    """
    token = _SHOWN.set(on)
    try:
        yield
    finally:
        _SHOWN.reset(token)


class Progress:
    """A bar of ``total`` steps on standard error (tqdm), or nothing.

    Parameters
    ----------
    total : int
        The steps of the work.
    what : str
        What is being done ("bootstrap resamples", "pairs of trees").
    delay : float, default=DELAY
        Seconds before the bar appears (short work shows none).

    Examples
    --------
    >>> with Progress(10, "resamples") as bar:   # not shown: no :func:`shown` block
    ...     bar.update(10)
    """

    def __init__(self, total: int, what: str, delay: float = DELAY) -> None:
        self.bar: Any = None
        if not _SHOWN.get():
            return
        try:
            from tqdm import tqdm
        except ImportError:  # the bars are a convenience
            return
        self.bar = tqdm(total=total, desc=what, file=sys.stderr, leave=False, delay=delay,
                        mininterval=0.5, dynamic_ncols=True)

    def update(self, steps: int = 1) -> None:
        """``steps`` more done."""
        if self.bar is not None:
            self.bar.update(steps)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.bar is not None:
            self.bar.close()
