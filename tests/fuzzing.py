"""Mutations of valid inputs, and the check every reader and command must pass on them.

A mutated input must end in a result or in one of the package's errors (``ClusterAgreeError``:
``InputError`` for bad input), never in another exception, a hang or a crash; on the command
line, in exit 0, 1 or 2, never in 70 ("internal error"). The operators are those that found
failures before: byte flips, truncation, lines deleted, repeated or swapped, numbers replaced by
huge, negative or non-ASCII ones, non-UTF-8 bytes, CR line ends, a byte-order mark, very long
fields, and deep nesting where the format nests.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import tempfile
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from mutations import OPERATORS, mutate

from clusteragree.cli import EXIT_INTERNAL, main
from clusteragree.errors import AlphaUndefinedWarning, ClusterAgreeError, InputWarning

#: Seconds after which one reader call or command counts as a hang.
HANG_SECONDS = 60

@st.composite
def mutated(draw: st.DrawFn, seed: bytes) -> bytes:
    """``seed`` with one to four mutations."""
    rnd = draw(st.randoms(use_true_random=False))
    data = seed
    for op in draw(st.lists(st.sampled_from(OPERATORS), min_size=1, max_size=4)):
        data = mutate(data, op, rnd)
    return data


class Hang(Exception):
    """A call that did not return within :data:`HANG_SECONDS`."""


@contextlib.contextmanager
def time_limit(seconds: int = HANG_SECONDS) -> Iterator[None]:
    """Raise :class:`Hang` if the block runs longer than ``seconds`` (a hang guard)."""

    def alarm(signum: int, frame: Any) -> None:
        raise Hang(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def read_or_refuse(reader: Callable[[], Any]) -> str:
    """Run a reader; ``"ok"`` or ``"refused"`` (a package error). Anything else propagates."""
    with time_limit(), warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)  # reports of what was repaired
        warnings.simplefilter("ignore", AlphaUndefinedWarning)
        try:
            reader()
        except ClusterAgreeError:
            return "refused"
    return "ok"


def run_cli(argv: list[str], cwd: str | os.PathLike[str] | None = None) -> tuple[int, str]:
    """Run the command line in-process: (exit status, stderr); asserts it is 0, 1 or 2."""
    err = io.StringIO()
    here = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with time_limit(), contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(err):
            code = main(argv)
    finally:
        os.chdir(here)
    text = err.getvalue()
    assert code != EXIT_INTERNAL, f"internal error on {argv}: {text}"
    assert code in (0, 1, 2), f"exit {code} on {argv}: {text}"
    assert "Traceback" not in text, text
    return code, text


@contextlib.contextmanager
def files(contents: dict[str, bytes]) -> Iterator[Path]:
    """A temporary directory holding ``contents`` (relative name -> bytes)."""
    with tempfile.TemporaryDirectory(prefix="clusteragree-fuzz-") as tmp:
        root = Path(tmp)
        for name, data in contents.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        yield root
