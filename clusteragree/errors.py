"""Errors, warnings and the warnings ledger of clusteragree.

Every error derives from :class:`ValueError`, so ``except ValueError`` catches all of them; an
argument of the wrong type raises :class:`ParameterTypeError`, which is a :class:`TypeError` too.
Errors about input files carry the file, line and (where known) column, so that a message reads
``corpus.csv:12: coder 'A' coded unit 'u3' twice (first at line 7); keep one row``.

Nothing is dropped in silence. A reader that repairs, skips, merges or ignores part of its input
calls :func:`notify`, which issues an :class:`InputWarning` carrying a :class:`Notice` (file,
line, kind, count, message); under :func:`strict` (the command line's ``--strict``) the same call
raises :class:`InputError` instead. A :class:`Ledger` collects every notice of a run: the command
line prints them on stderr at the end, or lists them under ``"warnings"`` in JSON.

Examples
--------
>>> with Ledger() as ledger:
...     notify("skipped", "2 empty nodes", path="a.conllu", line=7, count=2)
>>> [n.as_dict() for n in ledger.notices]  # doctest: +NORMALIZE_WHITESPACE
[{'file': 'a.conllu', 'line': 7, 'kind': 'skipped', 'count': 2, 'message': '2 empty nodes'}]
>>> with strict():  # doctest: +ELLIPSIS
...     notify("repaired", "part re-anchored", path="a.pyr", line=3)
Traceback (most recent call last):
...
clusteragree.errors.InputError: a.pyr:3: part re-anchored (repaired; strict reading refuses ...)
"""

from __future__ import annotations

import contextlib
import os
import warnings
from collections.abc import Hashable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from types import TracebackType
from typing import Any

__all__ = [
    "KINDS",
    "AlphaUndefinedWarning",
    "ClusterAgreeError",
    "InputError",
    "InputWarning",
    "Ledger",
    "Notice",
    "ParameterError",
    "ParameterTypeError",
    "PerformanceWarning",
    "Tally",
    "UsageError",
    "is_strict",
    "notify",
    "option",
    "spelling",
    "spelling_in_use",
    "strict",
    "strict_refusal",
]

#: Kinds of notices, and whether strict reading refuses them (they concern the input).
KINDS: dict[str, tuple[bool, str]] = {
    "repaired": (True, "the input was changed to be readable (re-anchored part, supplied end)"),
    "skipped": (True, "part of the input was left out (lines, documents, files)"),
    "merged": (True, "two pieces of the input became one (a label given twice in a cell)"),
    "ignored": (True, "part of the input was read but not used (extra columns, relations)"),
    "converted": (True, "a value was read in a way worth knowing (01 as 1, nan as missing)"),
    "mismatch": (True, "inputs that should agree differ (token text of key and response)"),
    "note": (False, "a fact about the annotation, kept as annotated"),
    "undefined": (False, "a coefficient is undefined on these data (NaN, null in JSON)"),
    "performance": (False, "a slower path was taken (numba unavailable)"),
    "deprecated": (False, "an old spelling of an option was used; it goes in a later release"),
    "unused": (False, "an option given does nothing on this run (the notice says why)"),
    "other": (False, "a warning from a library clusteragree uses"),
}


class ClusterAgreeError(ValueError):
    """Base class of every error clusteragree raises on purpose.

    It is a :class:`ValueError`, so ``except ValueError`` catches every error of the package;
    the command line turns it into exit status 1 (bad input) or 2 (bad usage) with a one-line
    message, never a traceback.

    References
    ----------
    docs/cli.md, "Exit status"; docs/reliability.md (every bad input ends in such an error).

    Examples
    --------
    A misspelt distance name is a :class:`ParameterError`, hence a ClusterAgreeError and a
    ValueError:

    >>> from clusteragree.core.distances import get_distance
    >>> try:
    ...     get_distance("jacard")
    ... except ClusterAgreeError as err:
    ...     print(type(err).__name__, isinstance(err, ValueError))
    ParameterError True
    """


class ParameterError(ClusterAgreeError):
    """A parameter of a function or a command has a value it cannot take.

    The message names the parameter, the values it can take and the value received, in the
    spelling of the interface in use (:func:`option`). ``params`` names the parameters the
    error is about: on the command line, an error about a parameter the user set through an
    option is bad input (exit 1); one about no option of the command is a bug (exit 70).

    Parameters
    ----------
    message : str
        What is wrong and what to give instead.
    params : sequence of str, optional
        The library names of the parameters concerned (``"distance"``, ``"roots"``).

    References
    ----------
    docs/cli.md, "Exit status".

    Examples
    --------
    >>> from clusteragree.core.distances import get_distance
    >>> get_distance("jacard")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.ParameterError: The distance must be one of ... Got 'jacard'.
    """

    def __init__(self, message: str = "", *, params: tuple[str, ...] | list[str] = ()) -> None:
        self.params = tuple(params)
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:  # params survive a process pool
        return (_rebuild, (type(self), str(self), self.params))


def _rebuild(cls: type[ParameterError], message: str, params: tuple[str, ...]
             ) -> ParameterError:
    return cls(message, params=params)


class UsageError(ParameterError):
    """The options of a command do not go together (the command line's own check, after
    argument parsing): exit status 2 with the usage line.

    Examples
    --------
    >>> isinstance(UsageError("give paired files or --dirs, not both"), ParameterError)
    True
    """


class ParameterTypeError(ParameterError, TypeError):
    """A parameter has a type it cannot take (also a :class:`TypeError`).

    References
    ----------
    docs/alpha.md, "Input and missing values" (wrong types are ParameterTypeError naming the
    argument).

    Examples
    --------
    >>> isinstance(ParameterTypeError("x"), TypeError), isinstance(ParameterTypeError("x"),
    ...                                                             ValueError)
    (True, True)
    """


class InputError(ClusterAgreeError):
    """Input data are malformed; names the file, line and column when they are known.

    Parameters
    ----------
    message : str
        What is wrong and, where possible, what to do about it.
    path : str or os.PathLike, optional
        The file the bad input came from.
    line : int, optional
        The 1-based line number in ``path``.
    col : int, optional
        The 1-based column (character) in that line.

    References
    ----------
    docs/cli.md, "Exit status" (bad input: exit status 1, the message as ``FILE:LINE:COL:``);
    docs/reliability.md.

    Examples
    --------
    >>> str(InputError("empty coder name", path="a.csv", line=3))
    'a.csv:3: empty coder name'
    >>> str(InputError("byte 0xe9 is not UTF-8", path="a.csv", line=3, col=9))
    'a.csv:3:9: byte 0xe9 is not UTF-8'
    """

    def __init__(
        self,
        message: str,
        path: str | os.PathLike[str] | None = None,
        line: int | None = None,
        col: int | None = None,
    ) -> None:
        self.message = message
        self.path = None if path is None else os.fspath(path)
        self.line = line
        self.col = col
        super().__init__(self.__str__())

    @property
    def where(self) -> str:
        """``FILE:LINE:COL`` (as much of it as is known), or ``""``."""
        place = "" if self.line is None else f"{self.line}" + (
            "" if self.col is None else f":{self.col}")
        if self.path is not None:
            return self.path + (f":{place}" if place else "")
        return f"line {place}" if place else ""

    def __str__(self) -> str:
        where = self.where
        return f"{where}: {self.message}" if where else self.message


class AlphaUndefinedWarning(RuntimeWarning):
    """Alpha is undefined (no pairable value, or no expected disagreement); NaN is returned.

    The message names the distance and the cause. Under a :class:`Ledger` (and on the command
    line) it becomes a notice of kind ``undefined``.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43. (Alpha needs pairable values and variation.)

    docs/alpha.md, "Definition" (undefined cases); docs/cli.md, "Undefined values and empty
    input".

    Examples
    --------
    Two coders give the same label to both units: every pairable value is the same, the
    expected disagreement D_e is 0 and alpha is undefined:

    >>> import warnings
    >>> from clusteragree import CodingTable, alpha
    >>> table = CodingTable.from_matrix([["x", "x"], ["x", "x"]])
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     result = alpha(table, distance="nominal")
    >>> result.alpha, [w.category.__name__ for w in caught]
    (nan, ['AlphaUndefinedWarning'])
    """


class PerformanceWarning(RuntimeWarning):
    """A slower code path is taken (for example numba could not be loaded)."""


@dataclass(frozen=True)
class Notice:
    """One entry of the warnings ledger.

    Attributes
    ----------
    kind : str
        One of :data:`KINDS`: ``repaired``, ``skipped``, ``merged``, ``ignored``,
        ``converted``, ``mismatch`` (strict reading refuses these), ``note``, ``undefined``,
        ``performance``, ``deprecated``, ``other``.
    message : str
        What happened, and where that is not in ``file``/``line``, which input.
    file : str or None
        The input file concerned.
    line : int or None
        Its first line concerned (1-based).
    count : int
        How many times it happened.

    Examples
    --------
    >>> str(Notice("skipped", "multiword-token lines", "a.conllu", 4, 3))
    'a.conllu:4: skipped: multiword-token lines (3 times)'
    """

    kind: str
    message: str
    file: str | None = None
    line: int | None = None
    count: int = 1

    @property
    def refused_by_strict(self) -> bool:
        """Whether strict reading turns this notice into an error."""
        return KINDS.get(self.kind, (False, ""))[0]

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: ``file``, ``line``, ``kind``, ``count``, ``message``."""
        return {"file": self.file, "line": self.line, "kind": self.kind, "count": self.count,
                "message": self.message}

    def __str__(self) -> str:
        where = "" if self.file is None else self.file + (
            "" if self.line is None else f":{self.line}") + ": "
        times = f" ({self.count} times)" if self.count > 1 else ""
        return f"{where}{self.kind}: {self.message}{times}"


class InputWarning(UserWarning):
    """Input was repaired, skipped, merged or ignored; ``.notice`` says what, where, how often.

    Parameters
    ----------
    notice : Notice or str
        A string becomes a notice of kind ``note``.

    References
    ----------
    docs/cli.md, "Warnings: nothing is lost in silence" (the kinds, and what ``--strict``
    refuses).

    Examples
    --------
    What :func:`notify` issues when a reader skips part of its input:

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     notify("skipped", "2 empty nodes", path="a.conllu", line=7, count=2)
    >>> caught[0].category is InputWarning, str(caught[0].message)
    (True, 'a.conllu:7: skipped: 2 empty nodes (2 times)')
    >>> caught[0].message.notice.count, InputWarning("kept as annotated").notice.kind
    (2, 'note')
    """

    def __init__(self, notice: Notice | str) -> None:
        self.notice = notice if isinstance(notice, Notice) else Notice("note", str(notice))
        super().__init__(str(self.notice))


_SPELLING: ContextVar[dict[str, str] | None] = ContextVar("clusteragree_spelling",
                                                         default=None)
_UNSET: Any = object()


@contextlib.contextmanager
def spelling(options: dict[str, str]) -> Iterator[None]:
    """Within this block, :func:`option` spells parameters as command-line options.

    Parameters
    ----------
    options : dict
        Library parameter name -> option string (``{"roots": "--roots"}``); a parameter not
        in it is spelt ``--name-with-dashes``.

    Examples
    --------
    >>> with spelling({"size_by": "--size"}):
    ...     option("roots", "many"), option("size_by", "tokens"), option("strict", True)
    ('--roots many', '--size tokens', '--strict')
    """
    token = _SPELLING.set(dict(options))
    try:
        yield
    finally:
        _SPELLING.reset(token)


def spelling_in_use() -> dict[str, str] | None:
    """The options of the :func:`spelling` block around this call, or None (the library's
    parameter names): a worker process given them spells its messages as its caller's.

    Examples
    --------
    >>> with spelling({"size_by": "--size"}):
    ...     spelling_in_use()
    {'size_by': '--size'}
    >>> spelling_in_use() is None
    True
    """
    options = _SPELLING.get()
    return None if options is None else dict(options)


def option(name: str, value: Any = _UNSET) -> str:
    """A parameter (with a value) as the interface in use spells it, for messages.

    In the library ``roots='many'``; on the command line (within :func:`spelling`)
    ``--roots many``. True is the bare flag on the command line.

    Examples
    --------
    >>> option("roots", "many"), option("cycles")
    ("roots='many'", 'cycles')
    """
    options = _SPELLING.get()
    if options is None:
        return name if value is _UNSET else f"{name}={value!r}"
    flag = options.get(name, "--" + name.replace("_", "-"))
    if value is _UNSET or value is True:
        return flag
    if isinstance(value, (list, tuple)):
        value = ",".join(map(str, value))
    return f"{flag} {value}"


_STRICT: ContextVar[bool] = ContextVar("clusteragree_strict", default=False)
_LEDGER: ContextVar[Ledger | None] = ContextVar("clusteragree_ledger", default=None)


@contextlib.contextmanager
def strict(on: bool = True) -> Iterator[None]:
    """Within this block, :func:`notify` raises :class:`InputError` for any notice that
    concerns the input (repairs, skips, merges, ...) instead of warning.

    Examples
    --------
    >>> with strict():
    ...     is_strict()
    True
    """
    token = _STRICT.set(on)
    try:
        yield
    finally:
        _STRICT.reset(token)


def is_strict() -> bool:
    """Whether strict reading is on (see :func:`strict`)."""
    return _STRICT.get()


def notify(
    kind: str,
    message: str,
    *,
    path: str | os.PathLike[str] | None = None,
    line: int | None = None,
    count: int = 1,
    stacklevel: int = 2,
    once: Hashable | None = None,
) -> None:
    """Report something done to the input: an :class:`InputWarning`, or under :func:`strict`
    an :class:`InputError` when the kind concerns the input. A ``count`` of 0 reports nothing.

    Parameters
    ----------
    kind : str
        One of :data:`KINDS`.
    message : str
        What was done, e.g. ``"parts re-anchored to their label (label not at its offsets)"``.
    path, line : optional
        The file and its first line concerned.
    count : int, default=1
        How many times.
    once : hashable, optional
        A key of the fact: a check run again on the same inputs within one :class:`Ledger`
        (the coreference documents matched by alpha, the metrics and the differences) reports
        it once, instead of adding its count again.
    """
    if kind not in KINDS:
        raise ParameterError(f"kind must be one of {sorted(KINDS)}. Got {kind!r}.")
    if count <= 0:
        return
    if once is not None:
        ledger = Ledger.current()
        if ledger is not None:
            if once in ledger.seen:
                return
            ledger.seen.add(once)
    file = None if path is None else os.fspath(path)
    notice = Notice(kind, message, file, line, int(count))
    if _STRICT.get() and notice.refused_by_strict:
        times = f", {count} times" if count > 1 else ""
        raise InputError(f"{message} ({kind}{times}; strict reading refuses it: correct the "
                         f"input, or read it without {option('strict')} to accept the "
                         "repair)", file, line)
    warnings.warn(InputWarning(notice), stacklevel=stacklevel + 1)


def _to_notice(record: warnings.WarningMessage) -> Notice:
    message = record.message
    if isinstance(message, InputWarning):
        return message.notice
    if isinstance(message, AlphaUndefinedWarning):
        return Notice("undefined", str(message))
    if isinstance(message, PerformanceWarning):
        return Notice("performance", str(message))
    return Notice("other", f"{record.category.__name__}: {message}")


class Ledger:
    """Collects every warning of a run as :class:`Notice` objects (a context manager).

    Inside the block every :class:`InputWarning`, :class:`AlphaUndefinedWarning` and
    :class:`PerformanceWarning` is recorded (not printed), as is any other warning that the
    active filters let through; ``strict=True`` also turns on :func:`strict`. Equal notices
    (same kind, message and file) are merged, their counts added.

    Parameters
    ----------
    strict : bool, default=False
        Refuse input that would need a repair, skip, merge, ... (see :data:`KINDS`).
    """

    def __init__(self, strict: bool = False) -> None:
        self.strict = strict
        #: Keys of the facts already reported (``notify(..., once=...)``).
        self.seen: set[Hashable] = set()
        self._records: list[warnings.WarningMessage] = []
        self._catcher: Any = None
        self._tokens: tuple[Any, Any] | None = None

    @classmethod
    def current(cls) -> Ledger | None:
        """The innermost active ledger, or None."""
        return _LEDGER.get()

    def __enter__(self) -> Ledger:
        self._catcher = warnings.catch_warnings(record=True)
        self._records = self._catcher.__enter__()
        for category in (InputWarning, AlphaUndefinedWarning, PerformanceWarning):
            warnings.simplefilter("always", category)
        self._tokens = (_STRICT.set(self.strict or _STRICT.get()), _LEDGER.set(self))
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        assert self._tokens is not None
        _STRICT.reset(self._tokens[0])
        _LEDGER.reset(self._tokens[1])
        self._records = list(self._records)
        self._catcher.__exit__(kind, value, tb)

    def add(self, notice: Notice) -> None:
        """Record a notice directly (without the warnings machinery)."""
        self._records.append(warnings.WarningMessage(InputWarning(notice), InputWarning, "", 0))

    @property
    def notices(self) -> list[Notice]:
        """The notices so far, in the order first seen, equal ones merged."""
        merged: dict[tuple[str, str, str | None], Notice] = {}
        for record in self._records:
            n = _to_notice(record)
            key = (n.kind, n.message, n.file)
            if key in merged:
                old = merged[key]
                line = old.line if n.line is None or (old.line is not None and old.line <= n.line
                                                      ) else n.line
                merged[key] = Notice(n.kind, n.message, n.file, line, old.count + n.count)
            else:
                merged[key] = n
        return list(merged.values())

    def refused(self) -> list[Notice]:
        """The notices that strict reading refuses."""
        return [n for n in self.notices if n.refused_by_strict]


class Tally:
    """Counts of what a reader did to one file, by kind and message, with the first line of
    each; :meth:`report` sends them to :func:`notify` once each.

    Examples
    --------
    >>> t = Tally("a.conll")
    >>> t.add("skipped", "comment lines inside documents", 12)
    >>> t.add("skipped", "comment lines inside documents", 30)
    >>> t.counts()
    {'comment lines inside documents': 2}
    """

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        self.path = None if path is None else os.fspath(path)
        self._seen: dict[tuple[str, str], list[int | None]] = {}

    def add(self, kind: str, message: str, line: int | None = None, count: int = 1) -> None:
        """Count ``count`` occurrences at ``line`` (the smallest line is kept)."""
        if count <= 0:
            return
        entry = self._seen.setdefault((kind, message), [None, 0])
        if line is not None and (entry[0] is None or line < entry[0]):
            entry[0] = line
        entry[1] = int(entry[1] or 0) + count

    def merge(self, other: Tally) -> None:
        """Add the counts of ``other`` (a part of the same file counted elsewhere), the
        smallest first line of each kept: as if this tally had counted them.

        Examples
        --------
        >>> a, b = Tally("x"), Tally("x")
        >>> a.add("skipped", "blank ids", 9)
        >>> b.add("skipped", "blank ids", 4, count=2)
        >>> a.merge(b)
        >>> a.counts(), a._seen[("skipped", "blank ids")][0]
        ({'blank ids': 3}, 4)
        """
        for (kind, message), (line, count) in other._seen.items():
            self.add(kind, message, line, int(count or 0))

    def counts(self) -> dict[str, int]:
        """``message -> count`` (the shape of the readers' ``repairs`` dictionaries)."""
        return {msg: int(c or 0) for (_, msg), (_, c) in self._seen.items()}

    def __bool__(self) -> bool:
        return bool(self._seen)

    def emit(self) -> list[Notice]:
        """:func:`notify` every entry, by first line; under strict reading those it refuses
        go to the ledger instead and are returned (earliest first), not raised."""
        refused: list[Notice] = []
        ledger = Ledger.current()
        ordered = sorted(self._seen.items(), key=lambda item: (
            -1 if item[1][0] is None else item[1][0]))
        for (kind, message), (line, count) in ordered:
            notice = Notice(kind, message, self.path, line, int(count or 0))
            if is_strict() and notice.refused_by_strict:
                refused.append(notice)
                if ledger is not None:
                    ledger.add(notice)
                continue
            notify(kind, message, path=self.path, line=line, count=notice.count,
                   stacklevel=4)
        self._seen.clear()
        refused.sort(key=lambda n: (n.line is None, n.line or 0))
        return refused

    def report(self) -> None:
        """:func:`notify` every entry. Under strict reading every entry reaches the ledger
        first, then the first one strict reading refuses is raised (with the number of the
        others), so that one run names every problem of the file."""
        refused = self.emit()
        if refused:
            raise strict_refusal(refused, "of this file")


def strict_refusal(refused: list[Notice], scope: str = "") -> InputError:
    """The one refusal of strict reading: the earliest of ``refused`` (notices already in the
    ledger), with the number of the others.

    Examples
    --------
    >>> print(strict_refusal([Notice("repaired", "end supplied", "a.conll", 9, 2),
    ...                       Notice("skipped", "lines", "a.conll", 12)]))  # doctest: +ELLIPSIS
    a.conll:9: end supplied (repaired, 2 times; strict reading refuses it: ... problem(s) too)
    """
    first, more = refused[0], len(refused) - 1
    where = "are in the warnings" if Ledger.current() is not None else "too"
    also = f"; {more} other problem(s) {scope + ' ' if scope else ''}{where}" if more else ""
    times = f", {first.count} times" if first.count > 1 else ""
    return InputError(f"{first.message} ({first.kind}{times}; strict reading refuses it: "
                      f"correct the input, or read it without {option('strict')} to accept "
                      f"the repair{also})", first.file, first.line)
