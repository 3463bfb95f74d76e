"""Where two sequences differ: the check that annotations of one text share their tokens."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["first_difference"]


def first_difference(a: Sequence[object], b: Sequence[object]) -> int:
    """Index of the first item where two sequences (strings) differ (the shorter length if none).

    The readers of pyramids and of coreference use it to say where two annotations of what should
    be the same text stop agreeing, so that the error can name that character or token.

    Parameters
    ----------
    a, b : sequence
        Two strings, or two sequences of tokens (compared item by item with ``==``).

    Returns
    -------
    int
        The 0-based index of the first position where ``a`` and ``b`` hold different items; if
        one is a prefix of the other (or they are equal), the length of the shorter one.

    References
    ----------
    docs/pyramids.md, "Units and values" (pyramids compared must have the same text; the error
    names the first differing character); docs/architecture.md (the shared-text check).

    Examples
    --------
    "abcd" and "abxd" differ at index 2 (c against x); "ab" is a prefix of "abc", so the answer is
    its length, 2:

    >>> first_difference("abcd", "abxd"), first_difference("ab", "abc")
    (2, 2)
    >>> first_difference(["I", "saw", "it"], ["I", "saw", "him"]), first_difference("ab", "ab")
    (2, 2)
    """
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                min(len(a), len(b)))
