"""Where two sequences differ: the check that annotations of one text share their tokens."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["first_difference"]


def first_difference(a: Sequence[object], b: Sequence[object]) -> int:
    """Index of the first item where two sequences (strings) differ (the shorter length if none).

    >>> first_difference("abcd", "abxd"), first_difference("ab", "abc")
    (2, 2)
    """
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                min(len(a), len(b)))
