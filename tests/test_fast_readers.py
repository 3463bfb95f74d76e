"""The vectorised CoNLL reader against the line-by-line one: the same corpus, the same errors
and the same repairs in the ledger, on generated well-formed and broken files.

The line-by-line reader (``read_conll(..., fast=False)``, :func:`parse_conll`) is the
reference: every generated file is read both ways and must give equal model objects (documents,
tokens, token lines, mentions with their lines), or the same error message, and the same
warnings. Well-formed files must actually take the vectorised path (checked on
:func:`fast_conll` directly), so the comparison is not vacuous.
"""

from __future__ import annotations

import tempfile
import warnings
from pathlib import Path

from fuzzing import mutated
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusteragree.coref import parse_conll, read_conll
from clusteragree.coref.conll_fast import fast_conll
from clusteragree.errors import InputError

FIXTURES = Path(__file__).resolve().parent.parent / "corpora_fixtures" / "coref"
SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def documents(draw: st.DrawFn) -> list[tuple[int, list[str]]]:
    """Documents as (number of tokens, coreference cell of each token), well formed: spans
    of one or more tokens, nested or crossing, one-token mentions, chunks in any order the
    format allows, no span marked twice."""
    out = []
    for _ in range(draw(st.integers(1, 3))):
        n = draw(st.integers(0, 12))
        spans = draw(st.lists(st.tuples(st.integers(0, max(n - 1, 0)), st.integers(1, 4),
                                        st.integers(0, 120)), max_size=10 if n else 0))
        opens: list[list[str]] = [[] for _ in range(n)]
        closes: list[list[str]] = [[] for _ in range(n)]
        singles: list[list[str]] = [[] for _ in range(n)]
        seen = set()
        for start, length, entity in spans:
            end = min(start + length, n)
            if (start, end) in seen:
                continue
            seen.add((start, end))
            if end - start == 1:
                singles[start].append(f"({entity})")
            else:
                opens[start].append((end, f"({entity}"))  # type: ignore[arg-type]
                closes[end - 1].append((start, f"{entity})"))  # type: ignore[arg-type]
        cells = []
        sep = draw(st.sampled_from(["|", ""]))
        for t in range(n):
            # Closes of the latest-opened first, opens of the longest first: properly nested
            # same-entity mentions match as written.
            chunks = [c for _, c in sorted(closes[t], reverse=True)]  # type: ignore[misc]
            chunks += [c for _, c in sorted(opens[t], reverse=True)]  # type: ignore[misc]
            chunks += singles[t]
            cells.append(sep.join(chunks) or draw(st.sampled_from(["-", "_", "-"])))
        out.append((n, cells))
    return out


def render(docs: list[tuple[int, list[str]]], style: str, blank_every: int, crlf: bool,
           final_newline: bool) -> str:
    lines = ["# a comment before the first document"]
    for d, (n, cells) in enumerate(docs):
        lines.append(f"#begin document (doc{d}); part 00{d}")
        for t in range(n):
            word = ["Mary", "saw", "ÿé", "x-y", "12", "a(b", "\u00e9t\u00e9"][t % 7]
            if style == "tab":
                lines.append("\t".join([f"doc{d}", "0", str(t), word, "NN", "*", cells[t]]))
            elif style == "space":
                lines.append(f"doc{d}   0 {t}  {word} NN  *   {cells[t]}  ")
            elif style == "semeval":
                lines.append("\t".join([str(t + 1), word, word, "_", cells[t]]))
            else:  # short lines: three fields, the word second
                lines.append(f"{t} {word} {cells[t]}")
            if blank_every and t % blank_every == blank_every - 1:
                lines.append("" if t % 2 else "  \t")
        lines.append("#end document")
        lines.append("")
    text = ("\r\n" if crlf else "\n").join(lines)
    return text if final_newline else text.rstrip("\r\n")


def read_both(text: str | bytes) -> tuple[object, object]:
    """What each reader gives for the file: the corpus and its warnings, or the error."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.conll"
        if isinstance(text, str):
            path.write_text(text, encoding="utf-8", newline="")
        else:
            path.write_bytes(text)
        for fast in (True, False):
            for lenient in (False, True):
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    try:
                        got: object = read_conll(path, lenient=lenient, fast=fast)
                    except InputError as err:
                        got = ("error", str(err))
                out.append((got, [str(w.message) for w in caught]))
    return out[:2], out[2:]


@SETTINGS
@given(documents(), st.sampled_from(["tab", "space", "semeval", "short"]),
       st.integers(0, 4), st.booleans(), st.booleans())
def test_well_formed_files_take_the_fast_path_and_read_the_same(docs, style, blank, crlf, end
                                                                ) -> None:
    text = render(docs, style, blank, crlf, end)
    fast = fast_conll(text, "x.conll")
    assert fast is not None
    assert fast == parse_conll(text.replace("\r\n", "\n").split("\n"), "x.conll")
    fast_read, slow_read = read_both(text)
    assert fast_read == slow_read


BREAKS = ["\n(1)\n", "1)", "(1", "(1+2)", "(01)", "(x)", "(1)(1)", "#x\n", "#begin document a\n",
          "#end document\n", "\u2028", "\x0c", "\r", " \t", "\u0663", "(99999999999999999999)",
          "||", "(", ")", "1", "-", "_", "\t\t", "  #c\n", "\n\n", "\ufeff", "\xa0"]


@SETTINGS
@given(documents(), st.sampled_from(["tab", "space", "semeval", "short"]),
       st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(BREAKS)), min_size=1,
                max_size=3))
def test_broken_files_read_the_same_or_fail_the_same(docs, style, breaks) -> None:
    """Insert pieces that break the format anywhere: both paths must agree on the corpus, or
    on the error (file, line and message), and on every repair of lenient reading."""
    text = render(docs, style, 2, False, True)
    for at, piece in breaks:
        at %= len(text) + 1
        text = text[:at] + piece + text[at:]
    fast_read, slow_read = read_both(text)
    assert fast_read == slow_read


@SETTINGS
@given(mutated((FIXTURES / "annotator-a.conll").read_bytes()))
def test_mutated_fixture_reads_the_same(data: bytes) -> None:
    """Byte mutations of a real fixture (the fuzz campaign's mutations)."""
    fast_read, slow_read = read_both(data)
    assert fast_read == slow_read


def test_fixtures_take_the_fast_path() -> None:
    for path in sorted(FIXTURES.glob("*.conll")):
        text = path.read_text(encoding="utf-8")
        fast = fast_conll(text, str(path))
        slow = read_conll(path, fast=False)
        assert fast is None or fast == slow
