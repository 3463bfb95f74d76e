"""The CorefUD reader on random files whose mentions and repairs are known by construction.

Each file is written from a list of intended mentions (continuous and discontinuous, with heads
and entity types) and of planted defects (closes without an open, mentions left open, parts
missing, mentions marked twice). What the reader must return is computed from that list, not
from the reader: the mentions kept, their heads, the first type of each entity and the count of
each repair. The vectorised path (``fast=True``) and the line-by-line path must agree with it
and with each other, and reading without repairs must refuse a file with a defect on both paths
alike. The vectorised search for ``Entity=`` in MISC is checked against
:func:`~clusteragree.coref.corefud_fast.entity_value`, which splits a cell at ``|``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusteragree.coref import read_corefud
from clusteragree.coref.corefud import PARTS, UNCLOSED, UNOPENED
from clusteragree.coref.corefud_fast import entity_value, entity_values
from clusteragree.coref.model import REPEATED
from clusteragree.errors import InputError

TYPES = ["person", "place", "_", ""]


@dataclass
class Planned:
    """One document as written, and what reading it must give."""

    # (kind, text, opening chunks, closing chunks) per line; kind "comment", "token", "mwt"
    # (a multiword-token line, text its range) or "blank"; a token's text is its word id.
    rows: list[tuple[str, str, list[str], list[str]]] = field(default_factory=list)
    mentions: list[tuple[tuple[tuple[int, int], ...], str, int | None]] = field(
        default_factory=list)  # (spans, entity, head token) of the mentions kept
    first_types: dict[str, str] = field(default_factory=dict)
    repairs: dict[str, int] = field(default_factory=dict)


@st.composite
def documents(draw: st.DrawFn, name: str) -> tuple[str, Planned]:
    """A document of random tokens and mentions, written as CorefUD lines."""
    n = draw(st.integers(2, 14))
    plan = Planned()
    opens: dict[int, list[tuple[int, str]]] = {}  # token -> (length, chunk), longest first
    closes: dict[int, list[str]] = {}
    taken: set[tuple[tuple[int, int], ...]] = set()
    # (opening token, order at that token, entity, etype): the etype order of the file.
    typed: list[tuple[int, int, str, str]] = []

    def opening(token: int, length: int, eid: str, etype: str, head: int | None,
                closed: bool) -> None:
        fields = [eid, etype, "" if head is None else str(head), "o"]
        chunk = "(" + "-".join(fields) + (")" if closed else "")
        opens.setdefault(token, []).append((length, chunk))
        if etype not in ("", "_"):
            typed.append((token, length, eid.split("[")[0], etype))

    spans_of: dict[str, list[tuple[int, int]]] = {}
    for _ in range(draw(st.integers(0, 6))):
        a = draw(st.integers(0, n - 1))
        b = draw(st.integers(a, min(n - 1, a + 4)))
        eid = f"e{draw(st.integers(1, 3))}"
        # One entity's mentions nest or are apart: closes pair with the latest open.
        if any(s <= b and a <= e and not (s <= a and b <= e) and not (a <= s and e <= b)
               for s, e in spans_of.get(eid, [])):
            continue
        spans_of.setdefault(eid, []).append((a, b))
        etype = draw(st.sampled_from(TYPES))
        head = draw(st.one_of(st.none(), st.integers(1, b - a + 1)))
        spans = ((a, b + 1),)
        opening(a, b - a + 1, eid, etype, head, a == b)
        if a != b:
            closes.setdefault(b, []).append(eid + ")")
        if spans in taken:  # marked twice: the first kept
            plan.repairs[REPEATED] = plan.repairs.get(REPEATED, 0) + 1
        else:
            taken.add(spans)
            plan.mentions.append((spans, eid, None if head is None else a + head - 1))
    for j in range(draw(st.integers(0, 2)) if n >= 4 else 0):  # two parts, a gap between
        a = draw(st.integers(0, n - 4))
        b = draw(st.integers(a, n - 3))
        c = draw(st.integers(b + 2, n - 1))
        d = draw(st.integers(c, n - 1))
        eid = f"d{j}"
        etype = draw(st.sampled_from(TYPES))
        words = [*range(a, b + 1), *range(c, d + 1)]
        head = draw(st.one_of(st.none(), st.integers(1, len(words))))
        missing = draw(st.booleans()) and draw(st.booleans())
        spans = ((a, b + 1), (c, d + 1))
        if not missing and spans in taken:
            continue  # which of two discontinuous marks of one span is first is not planned
        for k, (s, e) in enumerate([(a, b), (c, d)], 1):
            if k == 2 and missing:
                continue
            part = f"{eid}[{k}/2]"
            opening(s, e - s + 1, part, etype, head, s == e)
            if s != e:
                closes.setdefault(e, []).append(part + ")")
        if missing:
            plan.repairs[PARTS] = plan.repairs.get(PARTS, 0) + 1
        else:
            taken.add(spans)
            plan.mentions.append((spans, eid,
                                  None if head is None else words[head - 1]))
    if draw(st.booleans()) and draw(st.booleans()):  # a close without an open
        closes.setdefault(draw(st.integers(0, n - 1)), []).append("z9)")
        plan.repairs[UNOPENED] = 1
    if draw(st.booleans()) and draw(st.booleans()):  # a mention never closed
        opening(draw(st.integers(0, n - 1)), n + 1, "u9", "place", None, False)
        plan.repairs[UNCLOSED] = 1
    present = {e for _, e, _ in plan.mentions}
    for _, _, eid, etype in sorted(typed, key=lambda t: (t[0], -t[1])):
        if eid in present:
            plan.first_types.setdefault(eid, etype)
    # Rows: sentences of tokens, with multiword-token lines and other MISC attributes.
    token = 0
    sentence = 1
    while token < n:
        plan.rows.append(("comment", f"# sent_id = {name}-{sentence}", [], []))
        word = 1
        for _ in range(draw(st.integers(1, 5))):
            if token == n:
                break
            if draw(st.integers(0, 9)) == 0:
                plan.rows.append(("mwt", f"{word}-{word + 1}", [], []))
            chunks = [c for _, c in sorted(opens.get(token, []), key=lambda o: -o[0])]
            plan.rows.append(("token", str(word), chunks, closes.get(token, [])))
            token += 1
            word += 1
        sentence += 1
        plan.rows.append(("blank", "", [], []))
    return name, plan


def write(docs: list[tuple[str, Planned]], noise: list[int]) -> str:
    """The CoNLL-U text of the documents; ``noise`` picks other MISC attributes per token."""
    lines = ["# global.Entity = eid-etype-head-other"]
    count = 0
    for name, plan in docs:
        lines.append(f"# newdoc id = {name}")
        for kind, text, chunks, closes in plan.rows:
            if kind in ("comment", "blank"):
                lines.append(text)
                continue
            if kind == "mwt":
                lines.append("\t".join([text, "wordword", *["_"] * 8]))
                continue
            attrs = []
            pick = noise[count % len(noise)]
            count += 1
            if pick & 1:
                attrs.append("SpaceAfter=No")
            if pick & 2:
                attrs.append("XEntity=(z1-person-1-)")  # not an Entity= attribute
            value = "".join(closes) + "".join(chunks)  # "e1)(e2-": an open ends at "("
            if value:
                attrs.append("Entity=" + value)
            elif pick & 4:
                attrs.append("Entity=")  # empty: nothing to read
            if pick & 8 and value:
                attrs.append("Entity=(z2-person-1-)")  # only the first is read
            form = f"w{count}" if pick & 16 else "the"
            lines.append("\t".join([text, form, "_", "X", "_", "_", "0", "dep", "_",
                                    "|".join(attrs) or "_"]))
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(docs=st.tuples(documents("d1"), documents("d2")),
       noise=st.lists(st.integers(0, 31), min_size=1, max_size=8))
def test_reader_gives_the_planned_mentions(tmp_path_factory: pytest.TempPathFactory,
                                           docs: tuple[tuple[str, Planned], ...],
                                           noise: list[int]) -> None:
    path = Path(tmp_path_factory.mktemp("cu")) / "g.conllu"
    path.write_text(write(list(docs), noise), encoding="utf-8")
    expected_repairs: dict[str, int] = {}
    for _, plan in docs:
        for what, count in plan.repairs.items():
            expected_repairs[what] = expected_repairs.get(what, 0) + count
    read = {}
    for fast in (True, False):
        corpus = read_corefud(path, lenient=True, fast=fast)
        read[fast] = corpus
        assert corpus.repairs == expected_repairs
        assert list(corpus.documents) == [name for name, _ in docs]
        for name, plan in docs:
            doc = corpus.documents[name]
            got = sorted((m.spans, m.entity, m.head) for m in doc.mentions)
            assert got == sorted(plan.mentions)
            assert [(m.start, -m.end) for m in doc.mentions] == sorted(
                (m.start, -m.end) for m in doc.mentions)
            assert dict(doc.entity_types) == plan.first_types
            assert len(doc.tokens) == len(doc.token_lines)
    assert read[True].documents == read[False].documents
    if expected_repairs:  # without repairs the first defect is refused, alike on both paths
        errors = []
        for fast in (True, False):
            with pytest.raises(InputError) as caught:
                read_corefud(path, fast=fast)
            errors.append(str(caught.value))
        assert errors[0] == errors[1]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["Entity=", "Entity=(e1-x-1-)", "Entity=e2)", "_", "X=1",
                                          "XEntity=a", "Entity", "é=Entity=b", "", "|"]),
                         max_size=4).map("|".join), min_size=1, max_size=12))
def test_entity_values_finds_what_entity_value_finds(cells: list[str]) -> None:
    # Each cell as the last column of a line, after a word that may spell "Entity=" too.
    text = "".join(f"Entity=\t{cell}\n" for cell in cells)
    buf = np.frombuffer(text.encode(), dtype=np.uint8)
    ends = np.flatnonzero(buf == 10)
    starts = ends - np.array([len(cell.encode()) for cell in cells])
    expected = [(k, v) for k, cell in enumerate(cells) if (v := entity_value(cell))]
    assert entity_values(buf, starts, ends) == expected


def test_an_entity_value_means_what_the_fields_of_its_document_say(tmp_path: Path) -> None:
    # The same value "(a-b-2-)" under two orders of fields: entity a with head 2 (its 2nd
    # word), then entity b of type a with head 2.
    row = "{}\t{}\t_\t_\t_\t_\t_\t_\t_\t{}"
    path = tmp_path / "fields.conllu"
    path.write_text("\n".join([
        "# global.Entity = eid-etype-head", "# newdoc id = one",
        row.format(1, "x", "Entity=(a-b-2-"), row.format(2, "y", "Entity=a)"),
        "", "# global.Entity = etype-eid-head", "# newdoc id = two",
        row.format(1, "x", "Entity=(a-b-2-"), row.format(2, "y", "Entity=b)"), ""]),
        encoding="utf-8")
    for fast in (True, False):
        docs = read_corefud(path, fast=fast).documents
        one, two = docs["one"], docs["two"]
        assert [(m.spans, m.entity, m.head) for m in one.mentions] == [(((0, 2),), "a", 1)]
        assert one.entity_types == (("a", "b"),)
        assert [(m.spans, m.entity, m.head) for m in two.mentions] == [(((0, 2),), "b", 1)]
        assert two.entity_types == (("b", "a"),)
