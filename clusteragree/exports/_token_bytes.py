"""Tokens read from the bytes of a JSON array of objects, checked against a text, compiled.

A Prodigy line lists its tokens as objects (``{"text": "court", "start": 0, "end": 5, "id": 0,
"ws": true}``); the annotators of one text repeat them byte for byte, and the reader checks them
once per text: their offsets within the text, and the number whose ``text`` is not the text at
their offsets. Made from the parsed objects, that costs some thirty microseconds a text, more
than parsing them; :func:`token_offsets` makes it from the array's bytes in compiled code.

It answers only where the answer is certain, and None elsewhere (the reader then parses the
array and checks the objects as always):

* the bytes are a JSON array orjson has parsed (the caller's promise: the scan relies on the
  bytes being JSON, it does not check them);
* every element is an object whose ``start`` and ``end`` are written once, as whole numbers of
  at most 18 digits without sign, fraction or exponent, with ``start <= end <=`` the text's
  length in code points; its ``text``, if written, is written once, as a string without escapes,
  or as ``null``; no key written with an escape (so that no key is one of these written
  otherwise);
* a token's text is compared with the text's UTF-8 bytes at its offsets (the text encoded with
  its lone surrogates, which no unescaped string of the file can hold): equal bytes, equal
  strings.

References
----------
RFC 8259 (objects, numbers, strings). Prodigy documentation, "Annotation task formats"
(tokens with ``text``, ``start``, ``end`` in characters). docs/formats.md, "Prodigy".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._lazy import module
from ..compiled import Compiled

_kernels = module("clusteragree.exports._kernels")

__all__ = ["token_offsets"]


def _build() -> Any:
    offsets = _kernels.offsets
    # run once, so that a failure is seen here
    offsets(np.frombuffer(b'[{"k": 0}]', np.uint8), np.frombuffer(b"ab", np.uint8),
            np.zeros((2, 2), dtype=np.int64))
    return offsets


KERNEL = Compiled(
    _build,
    missing="numba is not installed (a default dependency where it has wheels); tokens are "
            "checked object by object",
    failed="the numba check of tokens could not be loaded; checking object by object")


def token_offsets(raw: bytes, text: str
                  ) -> tuple[tuple[tuple[int, int], ...], int] | None:
    """The ``(start, end)`` of the tokens written as the JSON array ``raw`` (bytes orjson has
    parsed), and the number whose ``text`` is not ``text`` at their offsets; None where that
    is not certain from the bytes (see the module's text), or where numba cannot serve.

    Examples
    --------
    >>> token_offsets(b'[{"text": "Mary", "start": 0, "end": 4}, {"start": 5, "end": 8}]',
    ...               "Mary met")
    (((0, 4), (5, 8)), 0)
    >>> token_offsets(b'[{"text": "Mary", "start": 0, "end": 4, "text": "M"}]', "Mary") is None
    True
    """
    kernel = KERNEL.get()
    if kernel is None:
        return None
    out = np.empty((2, len(raw) // 8 + 1), dtype=np.int64)
    n, wrong = kernel(np.frombuffer(raw, np.uint8),
                      np.frombuffer(text.encode("utf-8", "surrogatepass"), np.uint8), out)
    if n < 0:
        return None
    return tuple(zip(*out[:, :n].tolist(), strict=True)), wrong
