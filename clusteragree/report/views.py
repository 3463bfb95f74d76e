"""Side-by-side views of two annotations, as self-contained HTML fragments (inline SVG, no
script): coreference chains coloured over the text, two dependency trees with their differing
arcs marked. The views take plain data (tokens, spans, heads), never a domain's model, so that
the renderer knows no file format.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from ..errors import ParameterError

__all__ = ["chains_view", "dependency_view"]

#: Colours of entities (a colour-blind safe palette, cycled).
PALETTE = ("#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb",
           "#ee8866", "#44bb99", "#99ddff", "#ffaabb", "#77aadd")


def _colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def chains_view(tokens: Sequence[str], annotations: Mapping[str, Sequence[tuple[int, int, str]]],
                *, title: str = "", joiner: str = " ") -> str:
    """Each annotator's mentions over the same text, one row per annotator, coloured by entity.

    Mentions are underlined in their entity's colour (nested mentions stack their lines); a
    mention only one annotator marked has a dashed red frame (class ``only-one``), and an
    entity's colour is chosen by its first mention, so that the same chain on both sides gets
    the same colour where the first mentions agree.

    Parameters
    ----------
    tokens : sequence of str
        The document's tokens.
    annotations : mapping
        Annotator -> mentions ``(start, end, entity)``, token positions, end exclusive.
    title : str, optional
        A heading (the document's name).
    joiner : str, default=" "
        Between tokens (``""`` where the tokens are characters).

    Returns
    -------
    str
        An HTML ``<div class="chains">`` with one ``<div class="annotator">`` per annotator,
        each mention a ``<span class="mention">`` with ``data-entity``.

    References
    ----------
    docs/report.md, "Coreference".

    Examples
    --------
    >>> page = chains_view(["Mary", "met", "John"], {"A": [(0, 1, "1"), (2, 3, "2")],
    ...                                              "B": [(0, 1, "7")]})
    >>> page.count('class="mention'), page.count("only-one")
    (3, 1)
    """
    marked = {name: {(s, e) for s, e, _ in ms} for name, ms in annotations.items()}
    colour_of: dict[tuple[int, int], str] = {}
    rows = []
    for name, mentions in annotations.items():
        first: dict[str, tuple[int, int]] = {}
        for s, e, entity in sorted(mentions):
            first.setdefault(entity, (s, e))
        for span in sorted(first.values()):
            colour_of.setdefault(span, _colour(len(colour_of)))
        colours = {entity: colour_of[span] for entity, span in first.items()}
        opening: dict[int, list[tuple[int, int, str]]] = {}
        closing: dict[int, int] = {}
        for s, e, entity in mentions:
            opening.setdefault(s, []).append((s, e, entity))
            closing[e] = closing.get(e, 0) + 1
        parts = []
        for t, token in enumerate(tokens):
            for _ in range(closing.get(t, 0)):
                parts.append("</span>")
            for s, e, entity in sorted(opening.get(t, []), key=lambda m: -m[1]):
                alone = any((s, e) not in spans for other, spans in marked.items()
                            if other != name)
                parts.append(f'<span class="mention{" only-one" if alone else ""}" '
                             f'data-entity="{html.escape(entity)}" '
                             f'style="border-bottom-color:{colours[entity]}" '
                             f'title="entity {html.escape(entity)}">')
            parts.append(html.escape(token) + joiner)
        parts.append("</span>" * closing.get(len(tokens), 0))
        rows.append(f'<div class="annotator"><div class="who">{html.escape(name)}</div>'
                    f'<div class="text">{"".join(parts)}</div></div>')
    head = f"<h4>{html.escape(title)}</h4>" if title else ""
    return f'<div class="chains">{head}{"".join(rows)}</div>'


def dependency_view(words: Sequence[str],
                    trees: Mapping[str, tuple[Sequence[int], Sequence[str]]
                                   | tuple[Sequence[int], Sequence[str], Sequence[str]]],
                    *, title: str = "") -> str:
    """Two or more dependency trees of one sentence as arcs over its words (inline SVG); an
    arc whose head or relation differs from the first annotator's is red (class ``differs``).

    Annotators may have tokenised the sentence differently (``loudly.`` against ``loudly``
    ``.``): each tree is then drawn over its own words, and the arcs of an annotation with
    another number of words than the first are not compared (none is red; the annotator's row
    says so).

    Parameters
    ----------
    words : sequence of str
        The sentence's words (of every annotation that does not give its own).
    trees : mapping
        Annotator -> ``(heads, relations)`` or ``(heads, relations, words)``, one head and
        relation per word, heads 1-based (0: the root).
    title : str, optional
        A heading.

    Returns
    -------
    str
        A ``<div class="trees">`` with one ``<svg>`` per annotator, one ``<path class="arc">``
        per word.

    Raises
    ------
    ParameterError
        An annotation whose heads, relations and words are not one per word, or a head outside
        its sentence.

    References
    ----------
    docs/report.md, "Trees".

    Examples
    --------
    >>> view = dependency_view(["I", "saw", "her"], {"A": ([2, 0, 2], ["Subj", "Pred", "Obj"]),
    ...                                              "B": ([2, 0, 2], ["Obj", "Pred", "Obj"])})
    >>> view.count('class="arc'), view.count('class="arc differs"')
    (6, 1)

    B splits "her." in two words: its four arcs are drawn over its own words, not compared:

    >>> view = dependency_view(["I", "saw", "her."], {
    ...     "A": ([2, 0, 2], ["Subj", "Pred", "Obj"]),
    ...     "B": ([2, 0, 2, 2], ["Subj", "Pred", "Obj", "Punct"], ["I", "saw", "her", "."])})
    >>> view.count('class="arc'), view.count('class="arc differs"'), view.count("tokenised")
    (7, 0, 1)
    """
    drawn: list[tuple[str, Sequence[int], Sequence[str], Sequence[str]]] = []
    for name, tree in trees.items():
        heads, rels = tree[0], tree[1]
        own = tree[2] if len(tree) > 2 else words
        if not len(heads) == len(rels) == len(own):
            raise ParameterError(f"trees: {name}: {len(heads)} heads and {len(rels)} relations "
                                 f"for {len(own)} words; give one of each per word")
        if any(not 0 <= h <= len(own) for h in heads):
            raise ParameterError(f"trees: {name}: a head outside the sentence of {len(own)} "
                                 "words")
        drawn.append((name, heads, rels, own))
    step = 70
    width = step * (max((len(own) for *_, own in drawn), default=0) + 1)
    reference = drawn[0] if drawn else None

    def rise(i: int, h: int) -> int:
        return 14 + 10 * (abs(i - h) if h else i)

    base = 30 + max((rise(i, h) for _, heads, _, _ in drawn
                     for i, h in enumerate(heads, start=1)), default=0)
    blocks = []
    for name, heads, rels, own in drawn:
        assert reference is not None
        compared = len(own) == len(reference[3])
        items = []
        for i, (h, rel) in enumerate(zip(heads, rels, strict=True), start=1):
            differs = compared and (h, rel) != (reference[1][i - 1], reference[2][i - 1])
            x1, x2 = step * i, step * h if h else 20
            height = rise(i, h)
            mid = (x1 + x2) / 2
            cls = "arc differs" if differs else "arc"
            items.append(f'<path class="{cls}" d="M{x2},{base} Q{mid},{base - 2 * height} '
                         f'{x1},{base}"/><text class="rel{" differs" if differs else ""}" '
                         f'x="{mid}" y="{base - height - 4}">{html.escape(rel)}</text>')
        labels = "".join(f'<text class="word" x="{step * i}" y="{base + 18}">'
                         f"{html.escape(w)}</text>" for i, w in enumerate(own, start=1))
        note = "" if compared else (
            f" (tokenised differently: {len(own)} words against {len(reference[3])}; arcs "
            "not compared)")
        blocks.append(f'<div class="who">{html.escape(name)}{html.escape(note)}</div>'
                      f'<svg class="tree" width="{width}" height="{base + 30}" '
                      f'viewBox="0 0 {width} {base + 30}">{"".join(items)}{labels}</svg>')
    head = f"<h4>{html.escape(title)}</h4>" if title else ""
    return f'<div class="trees">{head}{"".join(blocks)}</div>'
