"""Units and values written as a person reads them, for the diagnostics.

The engines know units by their labels in a :class:`~clusteragree.CodingTable` and values as
Python objects; a person reads ``Numbers_008, tokens 33-36: "the king of Israel"`` and
``chain of "Moses" (12 other mentions)``. Only the domain that built a table knows its units, so
the diagnostics take two functions from it (:func:`clusteragree.core.diagnostics.diagnostics`):

* ``describe_unit(unit) -> UnitText``: the unit's text, its document and its place in the
  document (for reading order);
* ``describe_value(coder, unit, value) -> str``: one annotator's value of one unit.

Where no domain gives them, :func:`plain_unit` and :func:`plain_value` write units and values as
they are (label sets as ``PER, ORG``; a class-derived value as the other units of the class).
Nothing here is ever cut with an ellipsis: a long value is written in full or summarised with a
count.

References
----------
docs/uncertainty.md, "Where the disagreement sits".
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["DescribeUnit", "DescribeValue", "UnitText", "label_set", "plain_unit",
           "plain_value", "quoted"]


@dataclass(frozen=True)
class UnitText:
    """How a person reads one unit.

    Parameters
    ----------
    text : str
        The unit, without its document (``tokens 33-36: "the king of Israel"``).
    document : str or None, default=None
        The document (or summary, or file) the unit belongs to; None when there is none.
    position : tuple of int, default=()
        Where the unit is in its document (its first token, say): the reading order that breaks
        ties between units that disagree equally. Empty: the unit's place in the table.

    References
    ----------
    docs/uncertainty.md, "Where the disagreement sits".

    Examples
    --------
    >>> UnitText('tokens 33-36: "the king"', "Numbers_008", (33, 36)).document
    'Numbers_008'
    """

    text: str
    document: str | None = None
    position: tuple[int, ...] = field(default=())


#: ``describe_unit(unit) -> UnitText``, the unit being its label in the table described.
DescribeUnit = Callable[[Hashable], UnitText]
#: ``describe_value(coder, unit, value) -> str``: one annotator's value of one unit.
DescribeValue = Callable[[Hashable, Hashable, Any], str]


def quoted(words: str) -> str:
    """Words in double quotes, as the units and values are written.

    Examples
    --------
    >>> quoted("the king")
    '"the king"'
    """
    return f'"{words}"'


def label_set(value: frozenset[Any] | set[Any]) -> str:
    """A set of labels as ``PER, ORG`` (sorted; ``(none)`` when empty).

    Parameters
    ----------
    value : set or frozenset
        The labels.

    Returns
    -------
    str
        The labels in order, joined by commas; ``(none)`` for the empty set.

    Examples
    --------
    >>> label_set(frozenset({"PER", "ORG"})), label_set(frozenset())
    ('ORG, PER', '(none)')
    """
    if not value:
        return "(none)"
    try:
        ordered = [str(v) for v in sorted(value)]
    except TypeError:
        ordered = sorted(map(str, value))
    return ", ".join(ordered)


def plain_unit(unit: Hashable, document: Hashable | None = None) -> UnitText:
    """A unit named as given, with its document when it has one.

    Parameters
    ----------
    unit : hashable
        The unit's label (its name in the input).
    document : hashable, optional
        Its document.

    Returns
    -------
    UnitText
        ``str(unit)``, and the document as a string (None when there is none).

    Examples
    --------
    >>> plain_unit("item 7", "d1")
    UnitText(text='item 7', document='d1', position=())
    """
    return UnitText(str(unit), None if document is None else str(document))


def plain_value(value: Any, *, derived: bool = False) -> str:
    """A value as it is: label sets as ``PER, ORG``; class-derived values as the other units.

    Parameters
    ----------
    value : any
        The value (a frozenset for label sets and class-derived values).
    derived : bool, default=False
        The value is a class minus its unit: written ``with 3, 5 (2 other units)`` or
        ``alone``.

    Returns
    -------
    str
        What a person reads.

    Examples
    --------
    >>> plain_value(frozenset({"b", "a"})), plain_value(3.5)
    ('a, b', '3.5')
    >>> plain_value(frozenset({2}), derived=True)
    'with 2 (1 other unit)'
    >>> plain_value(frozenset(), derived=True)
    'alone'
    """
    if derived and isinstance(value, frozenset):
        if not value:
            return "alone"
        n = len(value)
        return f"with {label_set(value)} ({n} other unit{'' if n == 1 else 's'})"
    if isinstance(value, (frozenset, set)):
        return label_set(value)
    return str(value)
