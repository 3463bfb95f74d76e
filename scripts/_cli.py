"""What the scripts share: where to write, if anywhere, and how to time.

Every report script prints its report; it writes a file only when asked: ``--out PATH`` writes
there, ``--docs`` writes the tracked file the documentation quotes (the path the script names).
An old positional path still works as ``--out``. Benchmarks time with :func:`best`.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The shortest wall-clock time of ``repeat`` runs of ``fn``, and the last result."""
    fastest, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest, out


def output_path(doc: str | None, tracked: Path, what: str = "the report") -> Path | None:
    """Parse ``--out``/``--docs`` (and ``--help``) for a script; None: print only."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    parser.add_argument("path", nargs="?", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=f"write {what} to this path")
    parser.add_argument("--docs", action="store_true",
                        help=f"write {what} to {tracked} (tracked by the repository)")
    args = parser.parse_args()
    if args.docs and (args.out or args.path):
        parser.error("give --out or --docs, not both")
    return args.out or args.path or (tracked if args.docs else None)


class _Tee:
    """Standard output that is also kept, to be written to a file at the end."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.kept = stream, io.StringIO()

    def write(self, text: str) -> int:
        self.kept.write(text)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()


@contextlib.contextmanager
def printed_to(path: Path | None, name: str) -> Iterator[None]:
    """Print as usual; with ``path`` (a directory), also write what was printed to
    ``path/name``."""
    if path is None:
        yield
        return
    tee = _Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):  # type: ignore[type-var]
        yield
    path.mkdir(parents=True, exist_ok=True)
    (path / name).write_text(tee.kept.getvalue(), encoding="utf-8")
