"""The vectorised CoNLL reader against the line-by-line one: the same corpus, the same errors
and the same repairs in the ledger, on generated well-formed and broken files.

The line-by-line reader (``read_conll(..., fast=False)``, :func:`parse_conll`) is the
reference: every generated file is read both ways and must give equal model objects (documents,
tokens, token lines, mentions with their lines), or the same error message, and the same
warnings. Well-formed files must actually take the vectorised path (checked on
:func:`fast_conll` directly), so the comparison is not vacuous.
"""

from __future__ import annotations

import contextlib
import re
import tempfile
import warnings
from pathlib import Path

import pytest
from fuzzing import mutated
from hypothesis import HealthCheck, assume, given, settings
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


def render(docs: list[tuple[int, list[str]]], style: str, blank_every: int, end: str | bool,
           final_newline: bool) -> str:
    """CoNLL text; ``end`` is the line end (True: CRLF, False: LF, or the string itself)."""
    lines = ["# a comment before the first document"]
    for d, (n, cells) in enumerate(docs):
        # SemEval-2010 names a document without CoNLL-2012's "(NAME); part N", under which
        # no line is SemEval's (the reader decides the layout by the name)
        lines.append(f"#begin document doc{d}" if style == "semeval"
                     else f"#begin document (doc{d}); part 00{d}")
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
    text = ("\r\n" if end is True else "\n" if end is False else end).join(lines)
    return text if final_newline else text.rstrip("\r\n")


def read_both(text: str | bytes, where: str | None = None) -> tuple[object, object]:
    """What each reader gives for the file: the corpus and its warnings, or the error
    (the file written as ``x.conll`` in directory ``where``, default a new one)."""
    out = []
    with contextlib.nullcontext(where) if where else tempfile.TemporaryDirectory() as tmp:
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
       st.integers(0, 4), st.sampled_from(["\n", "\r\n", "\r"]), st.booleans())
def test_well_formed_files_take_the_fast_path_and_read_the_same(docs, style, blank, ends, end
                                                                ) -> None:
    """Lines ending in LF, CRLF or CR (old Mac files): the fast path reads them, as the
    line-by-line reader does the lines of a text-mode file (universal newlines)."""
    text = render(docs, style, blank, ends, end)
    fast = fast_conll(text, "x.conll")
    try:
        slow = parse_conll(re.split(r"\r\n|\r|\n", text), "x.conll")
    except InputError:  # crossing mentions of one entity can pair up into a repeated span
        assert fast is None
    else:
        assert fast is not None
        assert fast == slow
    fast_read, slow_read = read_both(text)
    assert fast_read == slow_read
    if ends != "\n":  # the same as the file with LF line ends, line numbers and all
        with tempfile.TemporaryDirectory() as tmp:
            assert read_both(text, tmp) == read_both(render(docs, style, blank, "\n", end),
                                                     tmp)


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


# --- The metrics counted from the vectorised reader's arrays against those of the objects.

def _padded(docs: list[tuple[int, list[str]]], n: list[int]) -> list[tuple[int, list[str]]]:
    return [(k, cells + ["-"] * (k - len(cells))) for k, (_, cells) in zip(n, docs, strict=True)]


@SETTINGS
@given(documents(), documents(), documents(), st.sampled_from(["tab", "space", "semeval"]))
def test_metrics_from_the_arrays_equal_those_from_the_documents(one, two, three, style) -> None:
    """Three annotators of the same documents (tokens padded to equal counts), read by the
    vectorised reader (the metrics count from its arrays, no document object is made) and line
    by line (the metrics count from the mention objects): the same frames, to the last bit."""
    import pandas as pd

    from clusteragree.coref import coref_metrics
    from clusteragree.coref.model import LazyDocuments

    size = min(len(one), len(two), len(three))
    one, two, three = one[:size], two[:size], three[:size]
    n = [max(d[i][0] for d in (one, two, three)) for i in range(size)]
    texts = [render(_padded(d, n), style, 3, False, True) for d in (one, two, three)]
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, text in enumerate(texts):
            paths.append(Path(tmp) / f"{i}.conll")
            paths[-1].write_text(text, encoding="utf-8")
        try:
            [read_conll(p, fast=False) for p in paths]
        except InputError:  # crossing mentions of one entity can pair up into a repeated span
            assume(False)
        for singletons in ("keep", "remove"):
            for per_document in (False, True):
                fast = [read_conll(p) for p in paths]
                slow = [read_conll(p, fast=False) for p in paths]
                got = coref_metrics(fast, singletons=singletons, per_document=per_document)
                lazy = [c.documents for c in fast if isinstance(c.documents, LazyDocuments)]
                assert all(d._build is not None for d in lazy)  # never made: the arrays served
                want = coref_metrics(slow, singletons=singletons, per_document=per_document)
                pd.testing.assert_frame_equal(got, want, check_exact=True)
                assert fast == slow


def test_lazy_documents_behave_as_a_dict() -> None:
    text = render([(3, ["(1", "1)", "(2)"]), (2, ["-", "(5)"])], "tab", 0, False, True)
    fast = fast_conll(text, "x.conll")
    slow = parse_conll(text.split("\n"), "x.conll")
    assert fast is not None
    assert list(fast.documents) == list(slow.documents) and len(fast.documents) == 2
    import copy
    import pickle

    assert pickle.loads(pickle.dumps(fast)) == slow
    assert dict(fast.documents) == slow.documents == {**fast.documents}
    assert copy.deepcopy(fast) == slow and fast.documents == slow.documents
    tokens = [d.tokens for d in slow.documents.values()]
    assert [d.tokens for d in fast.documents.values()] == tokens


# --- The metrics over many documents at once, against their definitions, document by document.

def _partition(draw: st.DrawFn, mentions: list[int]) -> list[set[int]]:
    chosen = [m for m in mentions if draw(st.booleans()) or draw(st.booleans())]
    labels = [draw(st.integers(0, 3)) for _ in chosen]
    out: dict[int, set[int]] = {}
    for m, label in zip(chosen, labels, strict=True):
        out.setdefault(label, set()).add(m)
    return list(out.values())


@st.composite
def scored_documents(draw: st.DrawFn) -> list[tuple[list[set[int]], list[set[int]]]]:
    docs = []
    for _ in range(draw(st.integers(1, 4))):
        mentions = list(range(draw(st.integers(0, 7))))
        docs.append((_partition(draw, mentions), _partition(draw, mentions)))
    return docs


def _links(entities: list[set[int]]) -> tuple[set[frozenset[int]], set[frozenset[int]]]:
    where = {m: i for i, e in enumerate(entities) for m in e}
    pairs = {frozenset((a, b)) for a in where for b in where if a < b}
    same = {p for p in pairs if len({where[m] for m in p}) == 1}
    return same, pairs - same


def _by_definition(key: list[set[int]], resp: list[set[int]]) -> dict[str, tuple[float, ...]]:
    """Recall numerator and denominator of each metric, straight from its definition (CEAF
    by trying every alignment); precision is the same with the sides exchanged."""
    from itertools import permutations

    def entity_of(side: list[set[int]], m: int) -> set[int]:
        return next((e for e in side if m in e), set())

    muc = sum(len(k) - len({frozenset(entity_of(resp, m)) or frozenset({-1 - m}) for m in k})
              for k in key)
    bcub = sum(len(entity_of(resp, m) & k) / len(k) for k in key for m in k)
    lea = 0.0
    for k in key:
        if len(k) == 1:
            (m,) = k
            lea += float(len(entity_of(resp, m)) == 1)
        else:
            lea += len(k) * sum(len(k & r) * (len(k & r) - 1) / 2 for r in resp) / (
                len(k) * (len(k) - 1) / 2)
    best = {"ceafm": 0.0, "ceafe": 0.0}
    small, large, swap = (key, resp, False) if len(key) <= len(resp) else (resp, key, True)
    for chosen in permutations(range(len(large)), len(small)):
        pairs = [(small[i], large[j]) for i, j in enumerate(chosen)]
        best["ceafm"] = max(best["ceafm"], sum(len(a & b) for a, b in pairs))
        best["ceafe"] = max(best["ceafe"], sum(2 * len(a & b) / (len(a) + len(b))
                                               for a, b in pairs))
    del swap
    ck, nk = _links(key)
    cr, nr = _links(resp)
    return {"muc": (muc, sum(len(k) - 1 for k in key)), "bcub": (bcub, sum(map(len, key))),
            "lea": (lea, sum(map(len, key))),
            "ceafm": (best["ceafm"], sum(map(len, key))), "ceafe": (best["ceafe"], len(key)),
            "blanc": (len(ck), len(cr), len(ck & cr), len(nk), len(nr), len(nk & nr))}


@SETTINGS
@given(scored_documents())
def test_metrics_of_many_documents_follow_their_definitions(docs) -> None:
    from dataclasses import astuple

    from clusteragree.coref.metrics import score_documents

    got = score_documents(docs)
    assert len(got) == len(docs)
    for (key, resp), counts in zip(docs, got, strict=True):
        ab, ba = _by_definition(key, resp), _by_definition(resp, key)
        for name in ("muc", "bcub", "lea", "ceafm", "ceafe"):
            c = counts[name]
            assert (c.recall_num, c.recall_den) == pytest.approx(ab[name])
            assert (c.precision_num, c.precision_den) == pytest.approx(ba[name])
        assert astuple(counts["blanc"]) == pytest.approx(ab["blanc"])


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), min_size=1, max_size=80,
                unique=True))
def test_ceaf_blocks_are_scipys_connected_components(edges) -> None:
    """The CEAF blocks (numpy label propagation) against scipy's connected components of the
    same bipartite graph: the same partition of the edges, numbered in the same order."""
    import numpy as np
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    from clusteragree.coref.metrics import _components

    rows, ri = np.unique([e[0] for e in edges], return_inverse=True)
    cols, ci = np.unique([e[1] for e in edges], return_inverse=True)
    nr, nc = len(rows), len(cols)
    graph = coo_matrix((np.ones(len(edges)), (ri, nr + ci)), shape=(nr + nc,) * 2)
    _, comp = connected_components(graph, directed=False)
    assert _components(ri, ci, nr, nc).tolist() == comp[ri].tolist()


# --- The long CSV of codings: the column reader against the row-by-row one.

def _table_summary(long: object) -> object:
    tables = {doc: (list(t.coders), list(t.units), t.codes.tolist(), list(t.values))
              for doc, t in long.tables.items()}  # type: ignore[attr-defined]
    return tables, long.n_rows if hasattr(long, "n_rows") else None, long.repairs  # type: ignore[attr-defined]


def read_table_both(text: str, scalar: bool, chunk: int | None = None
                    ) -> tuple[object, object]:
    """The file read by columns (``chunk`` characters parsed at a time, when given) and row
    by row."""
    from clusteragree.labels import table_fast
    from clusteragree.labels.table import read_long_table

    out = []
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as patch:
        if chunk is not None:
            patch.setattr(table_fast, "CHUNK_CHARS", chunk)
        path = Path(tmp) / "codings.csv"
        path.write_text(text, encoding="utf-8", newline="")
        for fast in (True, False):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    got: object = _table_summary(read_long_table(path, scalar=scalar,
                                                                 fast=fast))
                except InputError as err:
                    got = ("error", str(err))
            out.append((got, [str(w.message) for w in caught]))
    return out[0], out[1]


FIELD = st.sampled_from(["a", "b", " a ", "x;y", "y;x", "1", "01", "1.0", "-2", "é", "",
                         "\t3", "a;;b", "nan", "2e1"])


@st.composite
def codings(draw: st.DrawFn) -> tuple[str, bool]:
    documents = draw(st.booleans())
    extra = draw(st.booleans())
    header = ["coder", "unit", draw(st.sampled_from(["labels", "value", "label"]))]
    header = (["document"] if documents else []) + header + (["note"] if extra else [])
    rows = []
    for _ in range(draw(st.integers(0, 12))):
        row = ([draw(st.sampled_from(["d1", "d2"]))] if documents else []) + [
            draw(st.sampled_from(["A", "B", "C", " B"])), draw(st.sampled_from(["1", "2", "u3"])),
            draw(FIELD)] + (["n"] if extra else [])
        rows.append(",".join(row))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    text = end.join([",".join(header), *rows]) + draw(st.sampled_from([end, ""]))
    return text, draw(st.booleans())


@SETTINGS
@given(codings(), st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(
    ["", "\n", ",", '"', "\r", " ", "\n\n", ",,,\n", "\x0c", "A,1,z\n", "\u2028", "\ufeff",
     "\n\ufeff"])), max_size=2), st.one_of(st.none(), st.integers(1, 40)))
def test_codings_csv_reads_the_same_by_columns_and_by_rows(case, breaks, chunk) -> None:
    """Any file, parsed by columns in one piece or in chunks of a few lines, reads as row by
    row; a byte-order mark starting a row (the first or any other) included."""
    text, scalar = case
    for at, piece in breaks:
        at %= len(text) + 1
        text = text[:at] + piece + text[at:]
    fast_read, slow_read = read_table_both(text, scalar, chunk)
    assert fast_read == slow_read


@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_a_byte_order_mark_starting_a_row_is_kept_by_columns_as_by_rows(chunk) -> None:
    """pyarrow drops a U+FEFF at the start of what it parses; the row-by-row reader keeps it
    as part of the coder's name, so A and U+FEFF A are two coders either way (a duplicate
    coding, exit 1, by columns only before)."""
    text = "coder,unit,labels\n\ufeffA,1,x\nA,1,y\nB,1,x\nB,2,\ufeffy\nA,2,y\n"
    by_columns, by_rows = read_table_both(text, False, chunk)
    assert by_columns == by_rows
    tables = by_rows[0][0]  # type: ignore[index]
    assert tables[None][0] == ["\ufeffA", "A", "B"]


def test_plain_codings_are_read_by_columns_in_chunks() -> None:
    """Chunks of any size give the names in order of first appearance across chunks, the
    codes and the line where each value first appears, as one piece does."""
    from clusteragree.labels.table_fast import fast_codings

    text = "coder,unit,labels\n" + "".join(
        f"{c},u{u % 7},{'xyzw'[(u * 5 + len(c)) % 4]}\n" for u in range(30) for c in "BCA")
    rows = [line.split(",") for line in text.splitlines()[1:]]
    expected = [[], *(list(dict.fromkeys(row[k] for row in rows)) for k in range(3))]
    whole = fast_codings(text, 3, [None, 0, 1, 2])
    assert whole is not None and whole[0] == expected
    assert whole[1]["value"].tolist() == [expected[3].index(row[2]) for row in rows]
    assert whole[1]["first"].tolist() == [2 + [row[2] for row in rows].index(v)
                                          for v in expected[3]]
    for chunk in (1, 5, 23, 100):
        parts = fast_codings(text, 3, [None, 0, 1, 2], chunk_chars=chunk)
        assert parts is not None and parts[0] == expected
        for key, array in whole[1].items():
            assert parts[1][key].tolist() == array.tolist(), key
    by_columns, by_rows = read_table_both(text.replace("u", "v", 3), False, 13)
    assert by_columns == by_rows


def test_plain_codings_take_the_column_path() -> None:
    from clusteragree.labels.table_fast import fast_codings

    text = "coder,unit,labels,note\nA,1,x;y,n\nB,1, x ,n\nA,2,,n\nB,2,z,n\n"
    names, arrays = fast_codings(text, 4, [None, 0, 1, 2])  # type: ignore[misc]
    assert names == [[], ["A", "B"], ["1", "2"], ["x;y", "x", "", "z"]]
    assert arrays["line"].tolist() == [2, 3, 4, 5]
    by_columns, by_rows = read_table_both(text, False)
    assert by_columns == by_rows


@st.composite
def annotated(draw: st.DrawFn) -> list[object]:
    from clusteragree.coref.model import CorefCorpus, CorefDocument, Mention

    corpora = []
    sizes = draw(st.lists(st.integers(1, 9), min_size=1, max_size=3))
    for who in range(draw(st.integers(2, 3))):
        docs = {}
        for d, n in enumerate(sizes):
            spans = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(1, 3)),
                                  max_size=8, unique_by=lambda x: x))
            ms = sorted({(s, min(s + k, n)) for s, k in spans}, key=lambda x: (x[0], -x[1]))
            mentions = tuple(Mention(((s, e),), str(draw(st.integers(0, 3)))) for s, e in ms)
            docs[f"doc{d}"] = CorefDocument(f"doc{d}", ("w",) * n, mentions)
        corpora.append(CorefCorpus(docs, f"c{who}.conll"))
    return corpora


@SETTINGS
@given(annotated(), st.sampled_from(["keep", "remove"]))
def test_metrics_from_arrays_equal_metrics_from_entities(corpora, singletons) -> None:
    """coref_metrics numbers the mentions of whole corpora in arrays; the counts of every
    document and direction must be those of score_documents on the entities as sets."""
    from dataclasses import astuple

    from clusteragree.coref import coref_metrics
    from clusteragree.coref.metrics import score_documents

    frame = coref_metrics(corpora, singletons=singletons, per_document=True)
    names = list(corpora[0].documents)

    def entities(corpus, name):
        chains = corpus.documents[name].clusters()
        return chains if singletons == "keep" else [c for c in chains if len(c) > 1]

    rows: dict[tuple[object, ...], list[dict[str, object]]] = {}  # the frame's rows by key,
    for row in frame.to_dict("records"):  # response, document and metric (looked up, not
        rows.setdefault(  # filtered, for each: the frame is searched thousands of times)
            (row["key"], row["response"], row["document"], row["metric"]), []).append(row)
    for i, key in enumerate(corpora):
        for j, resp in enumerate(corpora):
            if i == j:
                continue
            expected = score_documents([(entities(key, n), entities(resp, n)) for n in names])
            for name, counts in zip(names, expected, strict=True):
                for metric, c in counts.items():
                    (got,) = rows[key.path, resp.path, name, metric]  # exactly one row
                    fields = (["c_key", "c_resp", "c_both", "n_key", "n_resp", "n_both"]
                              if metric == "blanc" else
                              ["recall_num", "recall_den", "precision_num", "precision_den"])
                    assert [got[f] for f in fields] == pytest.approx(list(astuple(c)))


def test_a_span_marked_twice_is_refused_as_before() -> None:
    """A reader that lets one span into two entities (BRAT under fuzzing) must meet the
    generic path's check, not the integer arrays (found by the fuzz campaign)."""
    from clusteragree.coref import coref_metrics
    from clusteragree.coref.model import CorefCorpus, CorefDocument, Mention
    from clusteragree.errors import ParameterError

    twice = (Mention(((0, 1),), "a"), Mention(((0, 1),), "b"))
    once = (Mention(((0, 1),), "a"),)
    corpora = [CorefCorpus({"d": CorefDocument("d", ("w",), ms)}, name)
               for ms, name in ((twice, "a"), (once, "b"))]
    with pytest.raises(ParameterError, match="in two key entities"):
        coref_metrics(corpora)


def test_a_digit_document_column_under_a_conll2012_name_is_not_semeval(tmp_path: Path) -> None:
    """INCEpTION writes the user name in the document column (user ``42``): under a
    ``(NAME); part N`` name such lines keep their words (fourth column); both readers agree
    (the same words and mentions)."""
    lines = ["#begin document (42); part 000", "42 0 0 Mary - - - - - * (1)",
             "42 0 1 smiled - - - - - * -", "42 0 2 she - - - - - * (1)", "#end document"]
    text = "\n".join(lines) + "\n"
    fast = fast_conll(text, "x.conll")
    assert fast is not None and fast.documents["(42); part 000"].tokens == (
        "Mary", "smiled", "she")
    slow = parse_conll(lines, "x.conll").documents["(42); part 000"]
    assert slow.tokens == ("Mary", "smiled", "she")
    path = tmp_path / "x.conll"
    path.write_text(text, encoding="utf-8")
    read = read_conll(path).documents["(42); part 000"]
    assert read.tokens == ("Mary", "smiled", "she")
    assert [m.spans for m in read.mentions] == [((0, 1),), ((2, 3),)]
