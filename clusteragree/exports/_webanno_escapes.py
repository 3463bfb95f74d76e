"""WebAnno TSV 3's escapes: feature values and sentence texts with their escapes undone, and
cells split at their unescaped separators (used by both paths of the reader,
:mod:`clusteragree.exports.webanno` and :mod:`clusteragree.exports._webanno_fast`).

References
----------
INCEpTION user guide, "WebAnno TSV 3.3 File format", "Escaping".
"""

from __future__ import annotations

import re

__all__ = ["split_unescaped", "unescape_text", "unescape_value"]

_VALUE_ESCAPE = re.compile(r"\\(->|[\\\[\]|_;tn*])")
_VALUE_UNESCAPED = {"\\": "\\", "[": "[", "]": "]", "|": "|", "_": "_", "->": "->", ";": ";",
                    "t": "\t", "n": "\n", "*": "*"}
_TEXT_ESCAPE = re.compile(r"\\([\x00-\x07\x0e-\x1f]|[tnfrb\\])")
_TEXT_UNESCAPED = {"t": "\t", "n": "\n", "f": "\f", "r": "\r", "b": "\b", "\\": "\\"}
_JAVA_ESCAPE = re.compile(r"\\(u+[0-9A-Fa-f]{4}|[0-3][0-7]{0,2}|[4-7][0-7]?|[btnfr'\"\\])")
_BRACKETS = re.compile(r"\[([^\[\]]*)\]\Z")


def unescape_value(value: str) -> str:
    r"""A feature value with WebAnno's escapes undone.

    Examples
    --------
    >>> unescape_value(r"NOT\[0\]") == "NOT[0]", unescape_value(r"a\|b\_c\\d") == "a|b_c\\d"
    (True, True)
    """
    if "\\" not in value:
        return value
    return _VALUE_ESCAPE.sub(lambda m: _VALUE_UNESCAPED[m.group(1)], value)


def unescape_text(text: str, minor: int) -> str:
    r"""A ``#Text=`` line with its escapes undone (``minor``: the format's minor version).

    Examples
    --------
    >>> unescape_text(r"This is\ta test", 3)
    'This is\ta test'
    >>> unescape_text(r"caf\u00e9", 1)
    'café'
    """
    if "\\" not in text:
        return text
    if minor >= 2:
        return _TEXT_ESCAPE.sub(lambda m: _TEXT_UNESCAPED.get(m.group(1), m.group(1)), text)

    def java(m: re.Match[str]) -> str:
        s = m.group(1)
        if s[0] == "u":
            return chr(int(s.lstrip("u"), 16))
        if s[0].isdigit():
            return chr(int(s, 8))
        return _TEXT_UNESCAPED.get(s, s)

    out = _JAVA_ESCAPE.sub(java, text)
    # Java writes a character outside the BMP as two \\u escapes (a surrogate pair)
    return out.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _escaped(text: str, end: int) -> bool:
    """Whether the character at ``end`` follows an odd run of backslashes."""
    n = 0
    while end - n - 1 >= 0 and text[end - n - 1] == "\\":
        n += 1
    return n % 2 == 1


def split_unescaped(value: str, sep: str) -> list[str]:
    r"""``value`` split at every ``sep`` that no backslash escapes.

    Examples
    --------
    >>> split_unescaped(r"A[1]|B\|C[2]", "|")
    ['A[1]', 'B\\|C[2]']
    """
    if sep not in value:
        return [value]
    parts, start, i = [], 0, value.find(sep)
    while i >= 0:
        if not _escaped(value, i):
            parts.append(value[start:i])
            start = i + 1
        i = value.find(sep, i + 1)
    parts.append(value[start:])
    return parts


def _suffix(value: str) -> tuple[str, str | None]:
    """``V[X]`` as ``(V, X)``; ``(value, None)`` without an unescaped bracket suffix."""
    if not value.endswith("]") or _escaped(value, len(value) - 1):
        return value, None
    m = _BRACKETS.search(value)
    if m is None or _escaped(value, m.start()):
        return value, None
    return value[:m.start()], m.group(1)
