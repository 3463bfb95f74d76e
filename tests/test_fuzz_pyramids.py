"""Fuzzing the DUCView reader and the ``pyramid`` and ``pan`` commands (see ``fuzzing.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fuzzing import files, mutated, read_or_refuse, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusteragree.pyramids.reader import _TextIndex, read_ducview

FIXTURES = Path(__file__).resolve().parent.parent / "corpora_fixtures"
SEEDS = {name: (FIXTURES / name).read_bytes() for name in [
    "passonneau2006/fig1-A1.pyr", "pyramid-quirks/peer.pan", "pyramid-quirks/shifted-offsets.pyr",
    "pyramid-quirks/astral-utf16.pyr", "pyramid-quirks/cp1252.pyr",
    "pyramid-quirks/appended-documents.pyr"]}
PYR = SEEDS["passonneau2006/fig1-A1.pyr"]
PAN = SEEDS["pyramid-quirks/peer.pan"]
FUZZ = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ------------------------------------------------------------ the position index, by brute force
def _naive_python_offset(text: str, pos: int) -> int:
    units = [i for i, c in enumerate(text) for _ in range(2 if ord(c) > 0xFFFF else 1)]
    units.append(len(text))
    return units[pos] if 0 <= pos < len(units) else pos


def _naive_near(text: str, label: str, start: int, window: int) -> object:
    """The per-character definition: positions of the non-newline characters, one by one."""
    keep = [i for i, c in enumerate(text) if c != "\n"]
    to_flat = {orig: k for k, orig in enumerate(keep)}
    flat = "".join(text[i] for i in keep)
    if not label or not keep:
        return None
    lo = max(0, start - window)
    first = next((k for k in range(lo, min(len(text), start + window) + 1) if k in to_flat),
                 None)
    if first is None:
        return None
    found = []
    pos = flat.find(label, to_flat[first])
    while pos != -1:
        s = keep[pos]
        if s > start + window:
            break
        found.append((abs(s - start), s, keep[pos + len(label) - 1] + 1))
        pos = flat.find(label, pos + 1)
    if not found:
        return None
    found.sort()
    if len(found) > 1 and found[1][0] == found[0][0] and found[1][1] != found[0][1]:
        return "ambiguous"
    return found[0][1], found[0][2]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab\n\U0001f600c", max_size=40), st.integers(-3, 50),
       st.text(alphabet="abc\U0001f600", min_size=1, max_size=3), st.integers(0, 12))
def test_text_index_equals_the_per_character_definition(text: str, pos: int, label: str,
                                                        window: int) -> None:
    index = _TextIndex(text)
    assert index.python_offset(pos) == _naive_python_offset(text, pos)
    start = min(max(pos, 0), len(text))
    assert index.near(label, start, window) == _naive_near(text, label, start, window)


# ------------------------------------------------------------ the reader
@FUZZ
@given(st.binary(max_size=2000))
def test_any_bytes_are_read_or_refused(data: bytes) -> None:
    with files({"x.pyr": data}) as root:
        read_or_refuse(lambda: read_ducview(root / "x.pyr"))


@FUZZ
@given(st.sampled_from(sorted(SEEDS)).flatmap(lambda name: mutated(SEEDS[name])))
def test_mutated_files_are_read_or_refused(data: bytes) -> None:
    with files({"x.pyr": data}) as root:
        read_or_refuse(lambda: read_ducview(root / "x.pyr"))
        read_or_refuse(lambda: read_ducview(root / "x.pyr", strict=True))


@FUZZ
@given(st.text(alphabet="()[]{}|*+?.-\\^$aX0123456789,:<>=!", max_size=24))
def test_any_stored_pattern_is_used_ignored_or_refused(pattern: str) -> None:
    cdata = pattern.replace("]]>", "")
    data = PYR.replace(rb"[-]*\nD[0-9]*\.M\.[0-9]*\.[A-Z]\.[A-Z]\n[-]*\n",
                       cdata.encode("utf-8"), 1)
    with files({"x.pyr": data}) as root:
        read_or_refuse(lambda: read_ducview(root / "x.pyr"))


@pytest.mark.parametrize("pattern", ["a{99999999999}", "(-|-)+X", "(?P<a>", "\\", "[",
                                     "(?<=a+)b", "(a|a)+$", "x{2,1}", "(?P<a>x)(?P=b)"])
def test_known_bad_stored_patterns_are_ignored_or_refused(pattern: str) -> None:
    data = PYR.replace(rb"[-]*\nD[0-9]*\.M\.[0-9]*\.[A-Z]\.[A-Z]\n[-]*\n",
                       pattern.encode("utf-8"), 1)
    data = data.replace(b"</text>", b" <line>" + b"-" * 60 + b"</line>\n </text>", 1)
    with files({"x.pyr": data}) as root:
        read_or_refuse(lambda: read_ducview(root / "x.pyr"))


@pytest.mark.parametrize("depth", [100, 10_000, 100_000])
def test_deep_markup_inside_a_line_is_read_or_refused(depth: int) -> None:
    deep = b"<b>" * depth + b"x" + b"</b>" * depth
    data = PYR.replace(b"<line></line>", b"<line>" + deep + b"</line>", 1)
    with files({"x.pyr": data}) as root:
        read_or_refuse(lambda: read_ducview(root / "x.pyr"))


# ------------------------------------------------------------ the commands
@FUZZ
@given(mutated(PYR), st.sampled_from([[], ["--strict"], ["-f", "json"], ["--units", "spans"],
                                      ["--units", "contributors", "--unmarked", "missing"]]))
def test_pyramid_command_on_mutated_files(data: bytes, options: list[str]) -> None:
    with files({"a.pyr": data, "b.pyr": PYR}) as root:
        run_cli(["pyramid", "a.pyr", "b.pyr", *options], cwd=root)


@FUZZ
@given(mutated(PAN), st.sampled_from([[], ["--strict"], ["-f", "json", "--scores"]]))
def test_pan_command_on_mutated_files(data: bytes, options: list[str]) -> None:
    with files({"A.D0901.M.100.A.1.pan": data, "B.D0901.M.100.A.1.pan": PAN}) as root:
        run_cli(["pan", "A.D0901.M.100.A.1.pan", "B.D0901.M.100.A.1.pan", *options], cwd=root)
