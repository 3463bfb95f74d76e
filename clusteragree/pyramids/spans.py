"""Pyramid and peer contributors as spans, for the span measures (matching F1, token kappa,
unitizing alpha, gamma): where the annotators marked content, whatever SCU they put it in.

Pyramids built independently over the same model summaries: each model summary (its body) is a
document, and each contributor a span of it, its offsets in characters from the start of the
body. SCU ids are each annotator's own (SCU 12 of one pyramid has nothing to do with SCU 12 of
another), so every contributor has the label ``contributor``.

Peer annotations (``.pan``) of the same peers against one pyramid: each peer summary is a
document; a contributor to a pyramid SCU has the label ``contributor``, and content the
annotator put in DUCView's uid-0 bucket ("All non-matching SCUs go here") the label
``non-matching``, a category every annotator shares.

A contributor of several parts is one span from its first character to its last by default (a
``note``), or one span per part (``fragments="parts"``); the parts of one contributor that lie
in two summaries (DUCView lets that happen) are a span in each (a ``note``).

References
----------
Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
pragmatic annotation. Proceedings of LREC 2006 (contributors as spans of model summaries).

docs/spans.md, "Coreference mentions and pyramid contributors".
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import pandas as pd

from ..core.model import unique_labels
from ..core.spans import SpanCorpus, span_corpus
from ..errors import ParameterError, notify, option
from .agreement import PanSet
from .model import SCU, Pyramid
from .units import check_same_text

__all__ = ["CONTRIBUTOR", "NON_MATCHING", "contributor_spans", "peer_spans"]

CONTRIBUTOR = "contributor"
NON_MATCHING = "non-matching"


def _check(fragments: str) -> None:
    if fragments not in ("extent", "parts"):
        raise ParameterError(f"{option('fragments', fragments)} must be extent or parts",
                             params=("fragments",))


def _spans(scus: Sequence[SCU], place: Any, fragments: str, counts: dict[str, int]
           ) -> list[tuple[Any, int, int, str, str, int | None]]:
    """``(document, start, end, label, id, line)`` of every contributor; ``place`` maps a
    text position to ``(document, offset of the document)``."""
    out = []
    for scu in scus:
        label = NON_MATCHING if scu.uid == 0 else CONTRIBUTOR
        for contributor in scu.contributors:
            by_doc: dict[Any, list[tuple[int, int]]] = {}
            for s, e in contributor.extent:
                doc, offset = place(s)
                by_doc.setdefault(doc, []).append((s - offset, e - offset))
            if len(by_doc) > 1:
                counts["split"] += 1
            if len(contributor.extent) > 1:
                counts["joined"] += 1
            for doc, parts in by_doc.items():
                pieces = parts if fragments == "parts" else [(parts[0][0], parts[-1][1])]
                out += [(doc, s, e, label, f"SCU {scu.uid}", contributor.line)
                        for s, e in pieces]
    return out


def _report(counts: dict[str, int], fragments: str) -> None:
    if counts["joined"] and fragments == "extent":
        notify("note", "contributors of several parts read as one span from their first "
               f"character to their last ({option('fragments', 'parts')} takes each part as a "
               "span)", count=counts["joined"])
    notify("note", "contributors with parts in two summaries read as a span in each",
           count=counts["split"])


def contributor_spans(pyramids: Sequence[Pyramid], *, coders: Sequence[Hashable] | None = None,
                      fragments: str = "extent") -> SpanCorpus:
    """The contributors of pyramids of the same model summaries as a span corpus.

    Parameters
    ----------
    pyramids : sequence of Pyramid
        Two or more pyramids built independently over the same model summaries.
    coders : sequence, optional
        Their annotators' names (default: the files' names, made unique).
    fragments : {"extent", "parts"}, default="extent"
        A contributor of several parts as one span, or one span per part.

    Returns
    -------
    SpanCorpus
        One document per model summary (named by its id, made unique), its text the summary's
        body; offsets in characters from the body's start; ``id`` the contributor's SCU
        (``SCU 12``, that annotator's own) and ``line`` its line.

    Raises
    ------
    InputError
        The summaries' texts differ.
    ParameterError
        Fewer than two pyramids; an unknown ``fragments``.

    References
    ----------
    docs/spans.md, "Coreference mentions and pyramid contributors".

    Examples
    --------
    >>> from clusteragree.pyramids.writers import build_pyramid
    >>> texts = [("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat sat down")]
    >>> x = build_pyramid(texts, [("cat sat", [[(0, "cat sat")], [(1, "cat sat")]])])
    >>> y = build_pyramid(texts, [("cat", [[(0, "cat")], [(1, "cat")]]),
    ...                           ("down", [[(1, "down")]])])
    >>> c = contributor_spans([x, y], coders=["X", "Y"])
    >>> for row in c.spans[["annotator", "document", "start", "end"]].values:
    ...     print(list(row))
    ['X', 'D1.M.100.A.A', 4, 11]
    ['X', 'D1.M.100.A.B', 2, 9]
    ['Y', 'D1.M.100.A.A', 4, 7]
    ['Y', 'D1.M.100.A.B', 2, 5]
    ['Y', 'D1.M.100.A.B', 10, 14]
    >>> c.texts["D1.M.100.A.B"], c.lengths["D1.M.100.A.A"]
    ('a cat sat down\\n', 12)
    """
    _check(fragments)
    if len(pyramids) < 2:
        raise ParameterError("give at least two pyramids of the same model summaries",
                             params=("pyramids",))
    check_same_text(pyramids)
    names = list(coders) if coders else unique_labels([p.path for p in pyramids])
    first = pyramids[0]
    ids = unique_labels([s.id for s in first.summaries])
    bodies = [s.body for s in first.summaries]

    def place(pos: int) -> tuple[str, int]:
        k = first.summary_at(pos)
        k = 0 if k is None else k
        return ids[k], bodies[k][0]

    counts = {"joined": 0, "split": 0}
    rows = []
    for name, pyramid in zip(names, pyramids, strict=True):
        rows += [(name, *r, pyramid.path) for r in _spans(pyramid.scus, place, fragments,
                                                          counts)]
    _report(counts, fragments)
    frame = pd.DataFrame(rows, columns=["annotator", "document", "start", "end", "label", "id",
                                        "line", "file"])
    texts = {d: first.text[b:e] for d, (b, e) in zip(ids, bodies, strict=True)}
    # a contributor may reach into the blank lines after a body: the document is at least as
    # long as what its contributors cover
    lengths = {d: max(len(t), int(frame.loc[frame["document"] == d, "end"].max())
                      if (frame["document"] == d).any() else 0) for d, t in texts.items()}
    return span_corpus(frame, annotators=names, documents=ids, lengths=lengths, texts=texts,
                       unit="characters",
                       sources={n: p.path for n, p in zip(names, pyramids, strict=True)})


def peer_spans(pans: PanSet, *, fragments: str = "extent") -> SpanCorpus:
    """The contributors of several annotators' peer annotations as a span corpus.

    Parameters
    ----------
    pans : PanSet
        :func:`~clusteragree.pyramids.agreement.load_pans`.
    fragments : {"extent", "parts"}, default="extent"
        A contributor of several parts as one span, or one span per part.

    Returns
    -------
    SpanCorpus
        One document per peer annotated by every annotator (the others are left out,
        ``skipped``), its text the peer summary; labels ``contributor`` and ``non-matching``.

    References
    ----------
    docs/spans.md, "Coreference mentions and pyramid contributors".

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from clusteragree.pyramids.agreement import load_pans
    >>> from clusteragree.pyramids.writers import build_pyramid, pan_xml
    >>> p = build_pyramid([("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat sat")],
    ...                   [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]])])
    >>> folder = tempfile.TemporaryDirectory()
    >>> found = {"A": {1: [["cat sat"]]}, "B": {1: [["cat"]], 0: [["sat"]]}}
    >>> paths = [pathlib.Path(folder.name, f"{who}.D1.M.100.A.7.pan") for who in "AB"]
    >>> for who, path in zip("AB", paths):
    ...     _ = path.write_text(pan_xml(p, "a cat sat", found[who]))
    >>> c = peer_spans(load_pans(paths))
    >>> c.spans[["annotator", "start", "end", "label"]].values.tolist()
    [['A', 2, 9, 'contributor'], ['B', 2, 5, 'contributor'], ['B', 6, 9, 'non-matching']]
    >>> folder.cleanup()
    """
    _check(fragments)
    names = list(pans.annotators)
    peers = [p for p, by in pans.loaded.items() if all(a in by for a in names)]
    left = [p for p in pans.loaded if p not in peers]
    notify("skipped", "peers that not every annotator annotated are left out: "
           f"{', '.join(left[:5])}{' ...' if len(left) > 5 else ''}", count=len(left))
    if not peers:
        raise ParameterError("no peer was annotated by every annotator: nothing to compare",
                             params=("pans",))
    counts = {"joined": 0, "split": 0}
    rows = []
    for name in names:
        for peer in peers:
            pan = pans.loaded[peer][name]
            rows += [(name, *r, pan.path) for r in _spans(pan.peer_scus, lambda _, p=peer:
                                                          (p, 0), fragments, counts)]
    _report(counts, fragments)
    frame = pd.DataFrame(rows, columns=["annotator", "document", "start", "end", "label", "id",
                                        "line", "file"])
    texts = {p: next(iter(pans.loaded[p].values())).text for p in peers}
    return span_corpus(frame, annotators=names, documents=peers,
                       lengths={p: len(t) for p, t in texts.items()}, texts=texts,
                       unit="characters")
