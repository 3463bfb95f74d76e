"""Exceptions and warnings raised by clusteragree.

Every error derives from :class:`ValueError`, so ``except ValueError`` catches all of them.
Errors about input files carry the file and line so that a message reads
``corpus.csv:12: coder 'A' coded unit 'u3' twice (first at line 7); keep one row``.
"""

from __future__ import annotations

import os

__all__ = [
    "AlphaUndefinedWarning",
    "ClusterAgreeError",
    "InputError",
    "InputWarning",
    "ParameterError",
]


class ClusterAgreeError(ValueError):
    """Base class of every error clusteragree raises on purpose."""


class ParameterError(ClusterAgreeError):
    """A parameter of a function or a command has a value it cannot take."""


class InputError(ClusterAgreeError):
    """Input data are malformed; names the file and line when they are known.

    Parameters
    ----------
    message : str
        What is wrong and, where possible, what to do about it.
    path : str or os.PathLike, optional
        The file the bad input came from.
    line : int, optional
        The 1-based line number in ``path``.

    Examples
    --------
    >>> str(InputError("empty coder name", path="a.csv", line=3))
    'a.csv:3: empty coder name'
    """

    def __init__(
        self, message: str, path: str | os.PathLike[str] | None = None, line: int | None = None
    ) -> None:
        self.message = message
        self.path = None if path is None else os.fspath(path)
        self.line = line
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = self.path + (f":{self.line}" if self.line is not None else "") + ": "
        elif self.line is not None:
            where = f"line {self.line}: "
        return where + self.message


class AlphaUndefinedWarning(RuntimeWarning):
    """Alpha is undefined (no pairable values, or no expected disagreement); NaN is returned."""


class InputWarning(UserWarning):
    """Input was read with a fallback or repaired; the result says what was done."""
