"""Where two coreference annotations differ (Kummerfeld and Klein's categories): each category
worked by hand, the swap of key and response, and the counts against MUC's (checked against the
reference scorer), which counts the same merges and splits another way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree.coref import (
    ERROR_KINDS,
    CorefDocument,
    Mention,
    coref_differences,
    document_errors,
    error_counts,
    parse_conll,
    score,
)

FIX = Path(__file__).resolve().parent.parent / "corpora_fixtures" / "coref"
WORDS = ("Mary", "met", "John", ",", "and", "he", "said", "that", "she", "left", "the", "old",
         "house", "quickly")


def doc(*mentions: tuple, tokens: tuple[str, ...] = WORDS) -> CorefDocument:
    """Mentions as (start, end, entity) or (start, end, entity, head)."""
    made = [Mention(((m[0], m[1]),), str(m[2]), head=m[3] if len(m) > 3 else None)
            for m in mentions]
    return CorefDocument("d", tokens, tuple(sorted(made, key=lambda m: (m.start, -m.end))))


def kinds(key: CorefDocument, response: CorefDocument) -> dict[str, int]:
    return {k: v for k, v in error_counts(document_errors(key, response)).items() if v}


def test_identical_annotations_differ_nowhere() -> None:
    key = doc((0, 1, 1), (2, 3, 2), (5, 6, 2), (8, 9, 1))
    assert document_errors(key, key) == []


def test_each_category_by_hand() -> None:
    key = doc((0, 1, 1), (2, 3, 2), (5, 6, 2), (8, 9, 1), (10, 13, 3), (13, 14, 3))
    # she (8) left out of Mary's entity: a missing mention
    assert kinds(key, doc((0, 1, 1), (2, 3, 2), (5, 6, 2), (10, 13, 3), (13, 14, 3))) == {
        "missing_mention": 1}
    # the response also marks "left" (9) with Mary: an extra mention
    assert kinds(key, doc((0, 1, 1), (2, 3, 2), (5, 6, 2), (8, 9, 1), (9, 10, 1),
                          (10, 13, 3), (13, 14, 3))) == {"extra_mention": 1}
    # "the old house" and "quickly" (entity 3) not marked at all: a missing entity
    assert kinds(key, doc((0, 1, 1), (2, 3, 2), (5, 6, 2), (8, 9, 1))) == {
        "missing_entity": 1}
    # an entity of "said" and "left" the key does not have: an extra entity
    assert kinds(key, doc((0, 1, 1), (2, 3, 2), (5, 6, 2), (8, 9, 1), (10, 13, 3),
                          (13, 14, 3), (6, 7, 9), (9, 10, 9))) == {"extra_entity": 1}
    # he (5) in an entity of its own: John's entity divided in two
    assert kinds(key, doc((0, 1, 1), (2, 3, 2), (5, 6, 7), (8, 9, 1), (10, 13, 3),
                          (13, 14, 3))) == {"divided_entity": 1}
    # Mary, John, he and she in one entity: two key entities conflated, one split needed
    assert kinds(key, doc((0, 1, 1), (2, 3, 1), (5, 6, 1), (8, 9, 1), (10, 13, 3),
                          (13, 14, 3))) == {"conflated_entities": 1}
    # everything in one entity: three key entities conflated, two splits
    assert kinds(key, doc((0, 1, 1), (2, 3, 1), (5, 6, 1), (8, 9, 1), (10, 13, 1),
                          (13, 14, 1))) == {"conflated_entities": 2}


def test_span_errors_trim_punctuation_or_share_a_head() -> None:
    key = doc((0, 1, 1), (2, 3, 2), (5, 6, 2), (10, 13, 3), (13, 14, 3))
    # "John ," for "John": the same after the comma is stripped
    found = document_errors(key, doc((0, 1, 1), (2, 4, 2), (5, 6, 2), (10, 13, 3),
                                     (13, 14, 3)))
    assert [(d.kind, d.mentions) for d in found] == [("span", (((2, 4),), ((2, 3),)))]
    # "old house" for "the old house": the same last token (head)
    found = document_errors(key, doc((0, 1, 1), (2, 3, 2), (5, 6, 2), (11, 13, 3),
                                     (13, 14, 3)))
    assert [(d.kind, d.mentions) for d in found] == [("span", (((11, 13),), ((10, 13),)))]
    # a head given by the format decides (CorefUD): "the old" headed on "house"
    key = doc((10, 13, 3, 12), (13, 14, 3))
    found = document_errors(key, doc((10, 12, 3, 12), (13, 14, 3)))
    assert [d.kind for d in found] == ["span"]
    # two response mentions with one head: no span error, a missing and two extra mentions
    key = doc((10, 13, 3), (13, 14, 3))
    assert kinds(key, doc((11, 13, 3), (12, 13, 3), (13, 14, 3))) == {
        "missing_mention": 1, "extra_mention": 2}


def test_records_name_the_entities_and_the_mentions() -> None:
    key = doc((0, 1, 1), (2, 3, 2), (5, 6, 2), (8, 9, 1))
    found = document_errors(key, doc((0, 1, 1), (2, 3, 2), (5, 6, 1), (8, 9, 1)))
    assert [(d.kind, d.mentions, d.key_entity, d.response_entity) for d in found] == [
        ("divided_entity", (((5, 6),),), "2", "1"),
        ("conflated_entities", (((5, 6),),), "2", "1")]


@st.composite
def two_annotations(draw) -> tuple[CorefDocument, CorefDocument]:
    """Two partitions of subsets of the same 12 one-token mentions (no span differences)."""
    n = 12
    key = {t: draw(st.integers(0, 3)) for t in range(n) if draw(st.booleans())}
    resp = {t: draw(st.integers(0, 3)) for t in range(n) if draw(st.booleans())}
    tokens = tuple(f"w{t}" for t in range(n))
    return (doc(*[(t, t + 1, e) for t, e in key.items()], tokens=tokens),
            doc(*[(t, t + 1, e) for t, e in resp.items()], tokens=tokens))


SWAPPED = {"span": "span", "missing_entity": "extra_entity", "extra_entity": "missing_entity",
           "missing_mention": "extra_mention", "extra_mention": "missing_mention",
           "divided_entity": "conflated_entities", "conflated_entities": "divided_entity"}


@settings(max_examples=300, deadline=None)
@given(two_annotations())
def test_swapping_key_and_response_swaps_the_categories(pair) -> None:
    key, response = pair
    forward = error_counts(document_errors(key, response))
    backward = error_counts(document_errors(response, key))
    assert {SWAPPED[k]: v for k, v in forward.items()} == backward


@settings(max_examples=300, deadline=None)
@given(two_annotations())
def test_counts_match_what_muc_counts(pair) -> None:
    """MUC's recall misses sum_g (p(g) - 1) links, p(g) the pieces the response (and its
    missing mentions) cut key entity g into: the divided entities, the missing mentions of
    entities the response has, and |g| - 1 for a missing entity; the precision side likewise
    with conflated entities and extra mentions and entities."""
    key, response = pair
    found = document_errors(key, response)
    counts = error_counts(found)
    muc = score(key.clusters(), response.clusters(), ["muc"])["muc"]
    missing_entity_links = sum(len(d.mentions) - 1 for d in found if d.kind == "missing_entity")
    extra_entity_links = sum(len(d.mentions) - 1 for d in found if d.kind == "extra_entity")
    lone = {s for c in key.clusters() if len(c) == 1 for s in c}
    missing_lone = sum(1 for d in found if d.kind == "missing_mention" and d.mentions[0] in lone)
    lone_resp = {s for c in response.clusters() if len(c) == 1 for s in c}
    extra_lone = sum(1 for d in found if d.kind == "extra_mention" and d.mentions[0] in lone_resp)
    assert muc.recall_den - muc.recall_num == (
        counts["divided_entity"] + counts["missing_mention"] - missing_lone
        + missing_entity_links)
    assert muc.precision_den - muc.precision_num == (
        counts["conflated_entities"] + counts["extra_mention"] - extra_lone
        + extra_entity_links)


def test_pairs_documents_and_singletons() -> None:
    words = ["Mary", "met", "John", "and", "he", "smiled"]

    def annotator(path: str, cells: list[str]):
        rows = [f"d 0 {i} {w} {c}" for i, (w, c) in enumerate(zip(words, cells, strict=True))]
        rows2 = [f"e 0 {i} {w} {c}" for i, (w, c) in enumerate(zip(words, cells, strict=True))]
        return parse_conll(["#begin document d", *rows, "#end document",
                            "#begin document e", *rows2, "#end document"], path)

    a = annotator("a.conll", ["(1)", "-", "(2)", "-", "(2)", "-"])
    b = annotator("b.conll", ["(1)", "-", "(2)", "-", "(1)", "-"])
    c = annotator("c.conll", ["(1)", "-", "(2)", "-", "-", "-"])
    found, counts = coref_differences([a, b, c], coders=["A", "B", "C"])
    pooled = counts[counts.document.isna()].set_index(["key", "response"])
    assert list(pooled.index) == [("A", "B"), ("A", "C"), ("B", "C")]
    assert pooled.loc[("A", "B"), "divided_entity"] == 2  # he, in both documents
    assert pooled.loc[("A", "B"), "conflated_entities"] == 2
    assert pooled.loc[("A", "C"), "missing_mention"] == 2
    per_doc = counts[counts.document.notna()]
    assert set(per_doc.document) == {"d", "e"} and per_doc[list(ERROR_KINDS)].sum().sum() == (
        pooled[list(ERROR_KINDS)].sum().sum())
    assert set(found.columns) >= {"key", "response", "document", "kind", "mentions"}
    # Without singletons, A's Mary and B's John are not compared: John is missing from B and
    # Mary extra in B, in each document; he is in both, so nothing is divided or conflated
    _, counts = coref_differences([a, b], coders=["A", "B"], singletons="remove")
    pooled = counts[counts.document.isna()].iloc[0]
    assert (pooled["missing_mention"], pooled["extra_mention"]) == (2, 2)
    assert pooled["divided_entity"] == pooled["conflated_entities"] == 0


def test_command_line_lists_the_differences(cli) -> None:
    files = [str(FIX / "annotator-a.conll"), str(FIX / "annotator-b.conll")]
    code, out, err = cli("coref", *files, "--differences", "-f", "json")
    assert code == 0, err
    obj = json.loads(out)
    counts = [r for r in obj["results"] if r["kind"] == "difference_count"]
    listed = [r for r in obj["results"] if r["kind"] == "coref_difference"]
    assert counts and all(r["document"] is None for r in counts)
    by_category = {r["category"]: r["count"] for r in counts}
    assert set(by_category) == set(ERROR_KINDS)
    assert sum(by_category.values()) == len(listed) > 0
    code, text, _ = cli("coref", *files, "--differences")
    assert code == 0 and "where annotator-a.conll and annotator-b.conll differ" in text
    code, out, _ = cli("coref", *files, "--differences", "--per-doc", "-f", "json")
    counts = [r for r in json.loads(out)["results"] if r["kind"] == "difference_count"]
    assert any(r["document"] is not None for r in counts)


@pytest.mark.parametrize("name", ["missing_entity", "conflated_entities"])
def test_every_kind_is_named_in_the_docs(name: str) -> None:
    docs = (Path(__file__).resolve().parent.parent / "docs" / "coref.md").read_text()
    assert f"`{name}`" in docs
