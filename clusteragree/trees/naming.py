"""Sentences and trees as a person reads them, for the diagnostics.

A unit is a sentence: its name (``# sent_id``, or its number; docs/trees.md, "Sentences and
their names") and its first words (``sentence 12: "I saw the man"``, with ``(+15 words)`` when
it is longer). A value is an annotator's tree of it: for dependencies every word's head and
relation (``2 Subj, 0 Pred, 4 Det, 2 Obj``), for phrase structure its brackets, in full.

References
----------
docs/trees.md, "Sentences and their names"; docs/uncertainty.md, "Where the disagreement sits".
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Mapping
from typing import Any

from ..core.readable import UnitText, quoted

__all__ = ["SHOWN_WORDS", "TreeNames", "tree_text"]

#: A sentence's name shows this many of its words, then how many more it has.
SHOWN_WORDS = 8


def tree_text(value: Any) -> str:
    """An annotator's tree: heads and relations of a dependency sentence, else the brackets.

    Examples
    --------
    >>> from clusteragree.trees import Sentence, Tree
    >>> s = Sentence(("", (("Pred", (("Subj", ()), ("Obj", (("Det", ()),)))),)),
    ...              words=("I", "saw", "the", "man"), heads=(2, 0, 4, 2),
    ...              deprels=("Subj", "Pred", "Det", "Obj"))
    >>> tree_text(s)
    '2 Subj, 0 Pred, 4 Det, 2 Obj'
    >>> tree_text(Tree.from_nested(("S", (("NP", ()), ("VP", ())))))
    '(S NP VP)'
    """
    heads = getattr(value, "heads", ())
    if heads:
        relations = getattr(value, "deprels", ()) or ("",) * len(heads)
        return ", ".join(f"{h} {r}".strip() for h, r in zip(heads, relations, strict=True))
    tree = getattr(value, "tree", value)
    return tree.brackets(limit=sys.maxsize) if hasattr(tree, "brackets") else str(value)


class TreeNames:
    """``describe_unit`` and ``describe_value`` for the table of :func:`tree_table`.

    Parameters
    ----------
    sentences : mapping
        ``annotator -> {sentence name: Sentence}`` (:attr:`TreeAnnotations.sentences`).

    References
    ----------
    docs/trees.md, "Sentences and their names".

    Examples
    --------
    >>> from clusteragree.trees import Sentence
    >>> s = Sentence(("", (("Pred", (("Subj", ()), ("Obj", (("Det", ()),)))),)),
    ...              words=("I", "saw", "the", "man"), heads=(2, 0, 4, 2),
    ...              deprels=("Subj", "Pred", "Det", "Obj"))
    >>> names = TreeNames({"A": {"s1": s}})
    >>> names.unit("s1").text, names.value("A", "s1", s)
    ('sentence s1: "I saw the man"', '2 Subj, 0 Pred, 4 Det, 2 Obj')
    """

    def __init__(self, sentences: Mapping[Any, Mapping[Any, Any]]) -> None:
        self._sentences = sentences

    def unit(self, unit: Any) -> UnitText:
        """The sentence: its name and its first words (those of the first annotator who has
        words for it)."""
        words: tuple[str, ...] = ()
        for by_name in self._sentences.values():
            words = tuple(getattr(by_name.get(unit), "words", ()) or ())
            if words:
                break
        text = f"sentence {unit}"
        if words:
            text += ": " + quoted(" ".join(words[:SHOWN_WORDS]))
            if len(words) > SHOWN_WORDS:
                text += f" (+{len(words) - SHOWN_WORDS} words)"
        return UnitText(text)

    def value(self, coder: Hashable, unit: Any, value: Any) -> str:
        """The annotator's tree (:func:`tree_text`)."""
        return tree_text(value)
