"""Pyramids and peer annotations as read from DUCView files.

A pyramid is the text of its model summaries (one string, as DUCView builds it: every ``<line>``
followed by ``"\\n"``), the spans of the model summaries within it, and the Summary Content Units
(SCUs). An SCU has contributors, one per model summary in principle; a contributor is a list of
parts, each a span ``[start, end)`` of the text (0-based, end exclusive, UTF-16 units as in Java).
A peer annotation (``.pan``) adds a peer summary's text and, for each SCU of the pyramid, the
contributors found in the peer.

Everything keeps its uid, label, comment and source line so that files can be reported on
precisely.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

__all__ = ["SCU", "Contributor", "Part", "PeerAnnotation", "Pyramid", "Summary", "peer_of_name"]


@dataclass(frozen=True, slots=True)
class Part:
    """A span ``[start, end)`` of the text; ``label`` is the text of the span without newlines.

    Attributes
    ----------
    start : int
        Offset of the first character of the span in the pyramid (or peer) text, 0-based.
    end : int
        Offset just after the last character (end exclusive), so the span is
        ``text[start:end]``.
    label : str
        The text of the span with its newlines removed, as DUCView stores it (a part may run
        across the end of a line; DUCView deletes ``"\\n"`` from every label).
    line : int or None, default=None
        The line of the ``<part>`` element in the file it was read from.

    References
    ----------
    DUCView 1.4 (Columbia University, 2005), the annotation tool that wrote the NIST DUC 2006
    and DUC 2007 pyramids; DUCView 1.5 (Penn State, github.com/psunlpgroup/DucView-1.5).

    A part is the text selected in DUCView's text pane: ``start`` and ``end`` are the
    selection's indices, so ``label == text[start:end]`` with newlines removed.

    docs/pyramids.md, "Reading .pyr and .pan files".

    Examples
    --------
    "Protests continued" has 18 characters, so it is the span 0-18 of the text:

    >>> text = "Protests continued.\\n"
    >>> part = Part(0, 18, "Protests continued")
    >>> text[part.start:part.end] == part.label
    True

    A part across a line break ("the " is 4 characters; the span holds "U.N.", the newline and
    the 13 characters of "Bureau called", 4 + 1 + 13 = 18, so it ends at 4 + 18 = 22); its
    label has no newline:

    >>> text = "the U.N.\\nBureau called for it\\n"
    >>> part = Part(4, 22, "U.N.Bureau called")
    >>> text[part.start:part.end].replace("\\n", "") == part.label
    True
    """

    start: int
    end: int
    label: str
    line: int | None = None


@dataclass(frozen=True, slots=True)
class Contributor:
    """The parts of one summary that express an SCU (often discontinuous).

    Attributes
    ----------
    label : str
        The contributor's label: in DUCView files the labels of its parts, sorted by start and
        joined with ``"..."``.
    parts : tuple of Part
        The spans of the contributor, in file order (which is the order in which the annotator
        selected them, not always text order).
    comment : str or None, default=None
        The ``comment`` attribute of the ``<contributor>`` element, if any.
    line : int or None, default=None
        The line of the ``<contributor>`` element in the file it was read from.

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006, Genoa, Italy. Section 2 (a contributor
    is a span of words, possibly discontinuous, from one summary).

    DUCView 1.4 (Columbia University, 2005), the annotation tool that wrote the NIST DUC 2006
    and DUC 2007 pyramids; DUCView 1.5 (Penn State, github.com/psunlpgroup/DucView-1.5).

    Examples
    --------
    A contributor whose second part was selected first: ``extent`` sorts the spans, and the
    label joins the part labels in text order:

    >>> c = Contributor("cat...sat", (Part(10, 13, "sat"), Part(4, 7, "cat")))
    >>> c.extent
    ((4, 7), (10, 13))
    """

    label: str
    parts: tuple[Part, ...]
    comment: str | None = None
    line: int | None = None

    @property
    def extent(self) -> tuple[tuple[int, int], ...]:
        """The parts as sorted ``(start, end)`` pairs: the contributor's identity in the text."""
        return tuple(sorted({(p.start, p.end) for p in self.parts}))


@dataclass(frozen=True, slots=True)
class SCU:
    """A Summary Content Unit: contributors from several summaries that express the same content.

    Attributes
    ----------
    uid : int
        The SCU's id in the file (``uid`` attribute). In a peer annotation it is the uid of the
        pyramid's SCU, and 0 is DUCView's bucket of content that matches no SCU.
    label : str
        The annotator's label for the content (kept as written, surrounding spaces included).
    contributors : tuple of Contributor
        One per model summary in principle (real files sometimes have two from one summary).
    comment : str or None, default=None
        The ``comment`` attribute of the ``<scu>`` element, if any.
    line : int or None, default=None
        The line of the ``<scu>`` element in the file it was read from.

    References
    ----------
    Nenkova, A. and Passonneau, R. (2004). Evaluating content selection in summarization: The
    pyramid method. Proceedings of HLT-NAACL 2004, Boston, MA.

    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006. Section 2 (an SCU is a set of
    contributors; its weight is how many model summaries express it).

    DUCView 1.4 (Columbia University, 2005), the annotation tool that wrote the NIST DUC 2006
    and DUC 2007 pyramids; DUCView 1.5 (Penn State, github.com/psunlpgroup/DucView-1.5).
    DUCView counts an SCU's weight as its number of contributors.

    Examples
    --------
    An SCU with a contributor of one part and a contributor of two parts: weight 2, three
    parts in all:

    >>> scu = SCU(1, "A cat sat", (
    ...     Contributor("cat sat", (Part(4, 11, "cat sat"),)),
    ...     Contributor("cat...sat", (Part(20, 23, "cat"), Part(28, 31, "sat")))))
    >>> scu.weight, [p.label for p in scu.parts]
    (2, ['cat sat', 'cat', 'sat'])
    """

    uid: int
    label: str
    contributors: tuple[Contributor, ...]
    comment: str | None = None
    line: int | None = None

    @property
    def weight(self) -> int:
        """The weight as DUCView computes it: the number of contributors."""
        return len(self.contributors)

    @property
    def parts(self) -> Iterator[Part]:
        """All parts of all contributors."""
        for contributor in self.contributors:
            yield from contributor.parts


@dataclass(frozen=True, slots=True)
class Summary:
    """A model summary inside the pyramid text: its header and its body spans.

    Attributes
    ----------
    id : str
        The model's id, from its header (e.g. ``D0631.M.250.D.D``), or ``summary1``,
        ``summary2``, ... when the header holds none.
    header : (int, int)
        The span ``[start, end)`` of the header: from the start of the header match to the
        start of the body. DUCView starts a model at the start of its header match.
    body : (int, int)
        The span of the summary itself, without the lines around it that are blank or only
        dashes.

    References
    ----------
    DUCView 1.4 (Columbia University, 2005), the annotation tool that wrote the NIST DUC 2006
    and DUC 2007 pyramids; DUCView 1.5 (Penn State, github.com/psunlpgroup/DucView-1.5).
    DUCView finds the models with the file's ``startDocumentRegEx``: each match starts a
    model.

    docs/pyramids.md, "Reading .pyr and .pan files" (model summaries).

    Examples
    --------
    A header of three lines ("---" and the newline: 4 characters; the id and its newline: 13;
    "---" again: 4) takes characters 0-21; the body follows:

    >>> text = "---\\nD1.M.100.A.A\\n---\\nthe cat sat\\n"
    >>> s = Summary("D1.M.100.A.A", (0, 21), (21, 33))
    >>> text[slice(*s.header)], text[slice(*s.body)]
    ('---\\nD1.M.100.A.A\\n---\\n', 'the cat sat\\n')
    """

    id: str
    header: tuple[int, int]
    body: tuple[int, int]


@dataclass(frozen=True)
class Pyramid:
    """A pyramid as read from a ``.pyr`` file (or embedded in a ``.pan``).

    Attributes
    ----------
    text : str
        The text of the model summaries, lines joined as DUCView does.
    summaries : tuple of Summary
        The model summaries, in text order.
    scus : tuple of SCU
        In file order.
    path : str
        The file it was read from.
    regex : str or None
        The stored ``startDocumentRegEx``.
    summaries_found_by : str
        ``"stored regex"``, ``"header pattern"`` (fallback) or ``"whole text"``.
    repairs : dict
        What was repaired, by kind, with counts (empty when the file was clean).
    notes : dict
        Facts about the annotation that are kept as they are (contributors spanning two summaries,
        SCUs with two contributors from one summary), by kind, with counts.

    References
    ----------
    Nenkova, A. and Passonneau, R. (2004). Evaluating content selection in summarization: The
    pyramid method. Proceedings of HLT-NAACL 2004, Boston, MA.

    DUCView 1.4 (Columbia University, 2005), the annotation tool that wrote the NIST DUC 2006
    and DUC 2007 pyramids; DUCView 1.5 (Penn State, github.com/psunlpgroup/DucView-1.5).
    Its ``.pyr`` files hold the text (``<line>`` elements), the ``startDocumentRegEx`` and
    the SCUs.

    docs/pyramids.md (reading, notes and repairs; weights).

    Examples
    --------
    Two model summaries; the SCU has three contributors, two of them from the first summary
    (both occurrences of "cat sat" in it). DUCView's weight counts contributors (3), the weight
    by summaries counts distinct summaries (2):

    >>> from clusteragree.pyramids.writers import build_pyramid
    >>> p = build_pyramid([("D1.M.100.A.A", "The cat sat. Yes, the cat sat."),
    ...                    ("D1.M.100.A.B", "A cat sat.")],
    ...                   [("A cat sat", [[(0, "cat sat")], [(0, "cat sat", 1)],
    ...                                   [(1, "cat sat")]])])
    >>> p.weights(), p.weights("summaries")
    ({1: 3}, {1: 2})
    >>> [s.id for s in p.summaries], p.n_contributors, p.n_parts
    (['D1.M.100.A.A', 'D1.M.100.A.B'], 3, 3)

    The text starts with the ``#2`` preamble, which is in no summary; "A cat" is in the
    second:

    >>> p.text[:3], p.summary_at(0), p.summary_at(p.text.index("A cat"))
    ('#2\\n', None, 1)
    """

    text: str
    summaries: tuple[Summary, ...]
    scus: tuple[SCU, ...]
    path: str = "<pyramid>"
    regex: str | None = None
    summaries_found_by: str = "stored regex"
    repairs: dict[str, int] = field(default_factory=dict)
    notes: dict[str, int] = field(default_factory=dict)

    @property
    def n_contributors(self) -> int:
        """Number of contributors over all SCUs."""
        return sum(len(s.contributors) for s in self.scus)

    @property
    def n_parts(self) -> int:
        """Number of parts over all SCUs."""
        return sum(1 for s in self.scus for _ in s.parts)

    def summary_at(self, pos: int) -> int | None:
        """Index of the summary whose header or body contains ``pos`` (None before the first)."""
        k = bisect.bisect_right(self._summary_starts, pos)
        return k - 1 if k else None

    @cached_property
    def _summary_starts(self) -> list[int]:
        return [s.header[0] for s in self.summaries]

    def weights(self, by: str = "contributors") -> dict[int, int]:
        """SCU weights: ``"contributors"`` (DUCView) or ``"summaries"`` (distinct summaries)."""
        if by == "contributors":
            return {s.uid: s.weight for s in self.scus}
        return {s.uid: len({self.summary_at(p.start) for p in s.parts}) for s in self.scus}


@dataclass(frozen=True)
class PeerAnnotation:
    """A peer annotation (``.pan``): the pyramid, the peer text and the SCUs found in it.

    ``peer_scus`` holds every ``peerscu`` element, including the uid-0 bucket of non-matching
    content; only SCUs with at least one contributor were found in the peer.

    Attributes
    ----------
    pyramid : Pyramid
        The pyramid the peer was annotated against (a ``.pan`` embeds it whole).
    text : str
        The peer summary's text, every ``<line>`` followed by ``"\\n"``; the peer's parts
        index into it.
    peer_scus : tuple of SCU
        One per ``<peerscu>`` element, in file order: the pyramid's SCUs (labelled
        ``"(W) label"`` by DUCView, W the SCU's weight) with the contributors found in the
        peer, usually none, and uid 0, ``"All non-matching SCUs go here"``.
    path : str, default="<pan>"
        The file it was read from.
    repairs : dict, default={}
        What was repaired, by kind, with counts.

    References
    ----------
    DUCView 1.4 (Columbia University, 2005), the annotation tool that wrote the NIST DUC 2006
    and DUC 2007 pyramids; DUCView 1.5 (Penn State, github.com/psunlpgroup/DucView-1.5).
    Its ``.pan`` files (root ``<peerAnnotation>``) hold the pyramid and an ``<annotation>``
    with the peer's text and the ``<peerscu>`` elements.

    docs/pyramids.md, "Peer annotations".

    Examples
    --------
    A peer "A cat sat." that expresses SCU 1 ("cat sat" is characters 2-9: "A" and a space
    come first) and not SCU 2; the empty uid-0 bucket is not an SCU found:

    >>> from clusteragree.pyramids.writers import build_pyramid
    >>> p = build_pyramid([("D1.M.100.A.A", "The cat sat down."), ("D1.M.100.A.B", "A cat sat.")],
    ...                   [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]]),
    ...                    ("It sat down", [[(0, "sat down")]])])
    >>> found = SCU(1, "(2) A cat sat", (Contributor("cat sat", (Part(2, 9, "cat sat"),)),))
    >>> pan = PeerAnnotation(p, "A cat sat.\\n", (found, SCU(2, "(1) It sat down", ()),
    ...                                          SCU(0, "All non-matching SCUs go here", ())))
    >>> list(pan.found), pan.text[2:9]
    ([1], 'cat sat')
    """

    pyramid: Pyramid
    text: str
    peer_scus: tuple[SCU, ...]
    path: str = "<pan>"
    repairs: dict[str, int] = field(default_factory=dict)

    @property
    def found(self) -> dict[int, SCU]:
        """SCUs of the pyramid matched in the peer (uid 0 excluded), by uid."""
        return {s.uid: s for s in self.peer_scus if s.uid != 0 and s.contributors}


def peer_of_name(name: str, named: bool) -> tuple[str | None, str]:
    """(annotator, peer) of a ``.pan`` file name. DUC 2006 names are
    ``ANNOTATOR.DOCSET.M.LEN.SEL.PEER.pan`` (six fields); DUC 2007 names carry no annotator
    (``DOCSET.M.LEN.SEL.PEER.pan``, five). With ``named`` (the annotator given by the caller)
    a six-field name loses its annotator field and any other name is the peer whole.

    Examples
    --------
    >>> peer_of_name("115.D0631.M.250.D.14.pan", False)
    ('115', 'D0631.M.250.D.14')
    >>> peer_of_name("D0701.M.250.A.B.pan", False)
    (None, '')
    """
    stem = name[:-4] if name.lower().endswith(".pan") else name
    fields = stem.split(".")
    if len(fields) >= 6 and all(fields):
        return fields[0], ".".join(fields[1:])
    return None, stem if named else ""
