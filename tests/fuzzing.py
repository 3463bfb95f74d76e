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
import re
import signal
import tempfile
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from clusteragree.cli import EXIT_INTERNAL, main
from clusteragree.errors import ClusterAgreeError

#: Seconds after which one reader call or command counts as a hang.
HANG_SECONDS = 60

_NUMBER = re.compile(rb"\d+")
NUMBERS = [b"0", b"-1", b"-7", b"99999999999999999999999999999", b"1e999", b"\xc2\xb2",
           b"\xd9\xa1", b"1.7", b"NaN", b"Infinity", b"", b"007"]
JUNK = [b"\xff", b"\xe9", b"\x00", b"\r", b"\r\n", b"\xef\xbb\xbf", b'"', b"'", b",", b";",
        b"\t", b"(", b")", b"[", b"]", b"{", b"}", b"<", b">", b"&", b"#", b"*", b"_", b"-",
        b"|", b"=", b"\\", b" ", b"\n", b"x" * 200_000]


def _mutate(data: bytes, op: str, rnd: Any) -> bytes:
    lines = data.split(b"\n")
    pos = rnd.randrange(len(data) + 1) if data else 0
    if op == "flip" and data:
        i = rnd.randrange(len(data))
        return data[:i] + bytes([data[i] ^ (1 << rnd.randrange(8))]) + data[i + 1:]
    if op == "insert":
        return data[:pos] + rnd.choice(JUNK) + data[pos:]
    if op == "delete" and data:
        return data[:pos] + data[pos + rnd.randrange(1, 20):]
    if op == "truncate":
        return data[:pos]
    if op == "drop-line" and len(lines) > 1:
        del lines[rnd.randrange(len(lines))]
        return b"\n".join(lines)
    if op == "repeat-line":
        i = rnd.randrange(len(lines))
        lines.insert(i, lines[i])
        return b"\n".join(lines)
    if op == "swap-lines" and len(lines) > 1:
        i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return b"\n".join(lines)
    if op == "number":
        found = list(_NUMBER.finditer(data))
        if found:
            m = rnd.choice(found)
            return data[:m.start()] + rnd.choice(NUMBERS) + data[m.end():]
    if op == "crlf":
        return data.replace(b"\n", rnd.choice([b"\r\n", b"\r"]))
    if op == "bom":
        return b"\xef\xbb\xbf" + data
    if op == "latin1":
        return data[:pos] + b"\xe9" + data[pos:]
    return data


OPERATORS = ["flip", "insert", "delete", "truncate", "drop-line", "repeat-line", "swap-lines",
             "number", "crlf", "bom", "latin1"]


@st.composite
def mutated(draw: st.DrawFn, seed: bytes) -> bytes:
    """``seed`` with one to four mutations."""
    rnd = draw(st.randoms(use_true_random=False))
    data = seed
    for op in draw(st.lists(st.sampled_from(OPERATORS), min_size=1, max_size=4)):
        data = _mutate(data, op, rnd)
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
        warnings.simplefilter("ignore")
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
