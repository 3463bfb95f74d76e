"""What the tree readers of one run found, reported once at its end.

The readers count, per file, what they leave out or keep as it is (notices: multiword-token
lines, words of a cycle left out, ...) and the problems that an option decides (sentences with
several roots under ``roots="one"``, heads forming a cycle under ``cycles="error"``); pairing
the annotators adds mismatches (words, sent_ids). A :class:`Findings` gathers them over every
file of a run; at its end each reaches the warnings ledger once, with its file, first line and
count, and then the run is refused once: for the problems, naming every option that would
accept them; under strict reading, for the notices it refuses. An error that ends the run
early (a malformed line) first reports what was found before it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from ..errors import ClusterAgreeError, InputError, Notice, Tally, option, strict_refusal

__all__ = ["PROBLEMS", "Findings", "findings"]

#: The problems an option decides: what they are, and the option that accepts them.
PROBLEMS = {
    "roots": ("with several roots (head 0)", "roots", "many",
              "keeps several roots under the artificial root"),
    "cycles": ("whose heads form a cycle", "cycles", "drop",
               "leaves the words of a cycle out, as the reference code does"),
}

#: What a tree is, for each problem.
RULES = {"roots": "one root", "cycles": "no cycle"}


def _sentences(n: int) -> str:
    return f"{n} sentence" + ("" if n == 1 else "s")


class Findings:
    """Notices and problems of one run, by file, in the order found.

    Examples
    --------
    Two files, each with a sentence of several roots: two notices, then one refusal naming the
    option that accepts them:

    >>> from clusteragree.errors import Ledger
    >>> found = Findings()
    >>> found.problem("roots", "a.conll", 4)
    >>> found.problem("roots", "b.conll", 1)
    >>> found.note("note", "multiword-token lines", "b.conll", 2, 3)
    >>> with Ledger() as ledger:
    ...     try:
    ...         found.report()
    ...     except InputError as err:
    ...         print(err)
    a.conll:4: 2 sentences with several roots (head 0) in 2 files (the first here); a tree has \
one root: roots='many' keeps several roots under the artificial root (every \
file's first is in the warnings)
    >>> [str(n) for n in ledger.notices]  # doctest: +NORMALIZE_WHITESPACE
    ["a.conll:4: note: sentences with several roots (head 0) (refused: roots='many' keeps
    several roots under the artificial root)", "b.conll:1: note: sentences with several roots
    (head 0) (refused: roots='many' keeps several roots under the artificial root)",
    'b.conll:2: note: multiword-token lines (3 times)']
    """

    def __init__(self) -> None:
        self._notes: dict[str | None, Tally] = {}  # by file, in the order first noted
        self._problems: dict[str, dict[str, list[int]]] = {}
        self._first: tuple[str, int] | None = None

    def note(self, kind: str, message: str, path: str | None, line: int | None,
             count: int = 1) -> None:
        """Count ``count`` notices of ``kind`` in ``path``, the smallest line kept."""
        if count > 0:
            self._notes.setdefault(path, Tally(path)).add(kind, message, line, count)

    def problem(self, what: str, path: str, line: int, count: int = 1) -> None:
        """Count sentences of ``path`` with a problem of :data:`PROBLEMS` (``roots`` or
        ``cycles``) that the options refuse; the run is refused at its end."""
        text, name, value, does = PROBLEMS[what]
        self.note("note", f"sentences {text} (refused: {option(name, value)} {does})", path,
                  line, count)
        entry = self._problems.setdefault(what, {}).setdefault(path, [line, 0])
        entry[0] = min(entry[0], line)
        entry[1] += count
        if self._first is None:
            self._first = (path, line)

    def _emit(self) -> list[Notice]:
        """Every notice to the ledger (or as a warning), file by file; those strict reading
        refuses are returned, earliest file first, not raised."""
        refused = [n for tally in self._notes.values() for n in tally.emit()]
        self._notes.clear()
        return refused

    def flush(self) -> None:
        """Report the notices found so far, refusing nothing (before an error ends the run)."""
        self._emit()

    def report(self) -> None:
        """Report every notice, then refuse the run once if the options refuse a problem or
        strict reading refuses a notice.

        Raises
        ------
        InputError
            At the first problem's file and line, counting every problem and naming every
            option that would accept them; or, under strict reading, at the first notice it
            refuses, with the number of the others.
        """
        refused = self._emit()
        if self._problems:
            raise self._refusal()
        if refused:
            raise strict_refusal(refused)

    def _refusal(self) -> InputError:
        assert self._first is not None
        parts, fixes = [], []
        for what, by_file in self._problems.items():
            text, name, value, does = PROBLEMS[what]
            total = sum(count for _, count in by_file.values())
            path, (line, _) = next(iter(by_file.items()))
            files = f" in {len(by_file)} files" if len(by_file) > 1 else ""
            where = " (the first here)" if (path, line) == self._first else (
                f" (the first at {path}:{line})")
            parts.append(f"{_sentences(total)} {text}{files}{where}")
            fixes.append(f"{option(name, value)} {does}")
        rule = " and ".join(RULES[what] for what in self._problems)
        return InputError(f"{' and '.join(parts)}; a tree has {rule}: {', '.join(fixes)} "
                          "(every file's first is in the warnings)",
                          self._first[0], self._first[1])


@contextlib.contextmanager
def findings(given: Findings | None = None) -> Iterator[Findings]:
    """A run's :class:`Findings`: reported (and the run refused) at the end of the block; an
    error inside it first reports what was found. With ``given``, the block is part of that
    run, which reports at its own end.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     with findings() as found:
    ...         found.note("note", "empty nodes", "a.conllu", 7, 2)
    >>> [str(w.message) for w in caught]
    ['a.conllu:7: note: empty nodes (2 times)']
    """
    if given is not None:
        yield given
        return
    found = Findings()
    try:
        yield found
    except ClusterAgreeError:
        found.flush()
        raise
    found.report()
