"""The input layer's byte columns against their definitions in plain Python, on random lines
(hypothesis): ``tab_columns`` against ``line.split("\\t")`` (lines of the wanted number of
fields or not, tabs between the lines given, blocks of several lines), and ``ascii_naturals``
against ``int`` of ASCII digits."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree import inputs
from clusteragree.inputs import ascii_naturals, tab_columns

_FIELD = st.text(alphabet="ab1\u00e9", max_size=3)


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(st.lists(_FIELD, min_size=1, max_size=4), min_size=1, max_size=12),
       count=st.integers(1, 4), junk=st.lists(st.booleans(), min_size=12, max_size=12),
       block=st.sampled_from([1, 2, 1 << 16]), data=st.data())
def test_tab_columns_split_as_python_does(rows: list[list[str]], count: int,
                                          junk: list[bool], block: int,
                                          data: st.DataObject) -> None:
    text, starts, ends = b"", [], []
    for k, fields in enumerate(rows):
        if junk[k]:  # a line not given, with a tab, between the lines given
            text += b"#\tx\n"
        line = "\t".join(fields).encode()
        starts.append(len(text))
        text += line
        ends.append(len(text))
        text += b"\n"
    buf = np.frombuffer(text, dtype=np.uint8)
    wanted = sorted(data.draw(st.sets(st.integers(0, count - 1), min_size=1)))
    old = inputs.BLOCK
    inputs.BLOCK = block
    try:
        found = tab_columns(buf, np.asarray(starts), np.asarray(ends), count, wanted)
    finally:
        inputs.BLOCK = old
    if any(len(fields) != count for fields in rows):
        assert found is None
        return
    assert found is not None
    for k, col in enumerate(wanted):
        got = [text[a:b].decode() for a, b in zip(found[k][0].tolist(), found[k][1].tolist(),
                                                   strict=True)]
        assert got == [fields[col] for fields in rows]


@settings(max_examples=300, deadline=None)
@given(words=st.lists(st.text(alphabet="0123456789a/:-", max_size=20), min_size=1,
                      max_size=20))
def test_ascii_naturals_read_as_int(words: list[str]) -> None:
    text = " ".join(words).encode()
    starts, at = [], 0
    for w in words:
        starts.append(at)
        at += len(w) + 1
    s = np.asarray(starts)
    e = s + np.asarray([len(w) for w in words])
    values, ok = ascii_naturals(np.frombuffer(text, dtype=np.uint8), s, e)
    for w, v, good in zip(words, values.tolist(), ok.tolist(), strict=True):
        expected = bool(w) and w.isdigit() and len(w) <= inputs.MAX_INT_DIGITS
        assert good == expected, w
        if expected:
            assert v == int(w)
