"""Writing DUCView pyramids: build one from summaries and SCUs, serialise it as DUCView does.

Used for the project's fixtures (the figures of Passonneau 2006, one file per quirk of the real
data) and by the second-annotator simulator. The layout follows the NIST DUC 2006 files: a
``#N`` preamble line and two blank lines, then per model summary a dashes line, the model id, a
dashes line, a blank line and the summary, one sentence per line.

Examples
--------
>>> p = build_pyramid([("D0001.M.100.A.A", "Protests continued."),
...                    ("D0001.M.100.A.B", "Protesters kept on.")],
...                   [("Protests go on", [[(0, "Protests continued")],
...                                        [(1, "Protesters kept on")]])])
>>> [s.weight for s in p.scus], p.scus[0].contributors[1].parts[0].label
([2], 'Protesters kept on')
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from xml.sax.saxutils import escape

from ..errors import ParameterError
from .model import SCU, Contributor, Part, Pyramid, Summary

__all__ = ["DTD", "NIST_REGEX", "PAN_DTD", "build_pyramid", "pan_xml", "pyramid_xml"]

#: The regex NIST's DUC 2006 files store, for headers like ``D0631.M.250.D.D``.
NIST_REGEX = r"[-]*\nD[0-9]*\.M\.[0-9]*\.[A-Z]\.[A-Z]\n[-]*\n"

DTD = """<!DOCTYPE pyramid [
 <!ELEMENT pyramid (startDocumentRegEx?,text,scu*)>
 <!ELEMENT startDocumentRegEx (#PCDATA)>
 <!ELEMENT text (line*)>
 <!ELEMENT line (#PCDATA)>
 <!ELEMENT scu (contributor)+>
 <!ATTLIST scu uid CDATA #REQUIRED
               label CDATA #REQUIRED
               comment CDATA #IMPLIED>
 <!ELEMENT contributor (part)+>
 <!ATTLIST contributor label CDATA #REQUIRED
                       comment CDATA #IMPLIED>
 <!ELEMENT part EMPTY>
 <!ATTLIST part label CDATA #REQUIRED
                start CDATA #REQUIRED
                end   CDATA #REQUIRED>
]>"""

Where = tuple[int, str] | tuple[int, str, int]


def _text_of(summaries: Sequence[tuple[str, str]]) -> tuple[str, list[Summary]]:
    text = f"#{len(summaries)}\n\n\n"
    spans = []
    for ident, body in summaries:
        header_start = len(text)
        text += "---------------\n" + ident + "\n---------------\n\n"
        start = len(text)
        text += body.rstrip("\n") + "\n"
        spans.append(Summary(ident, (header_start, start), (start, len(text))))
        text += "\n"
    return text, spans


def build_pyramid(
    summaries: Sequence[tuple[str, str]],
    scus: Sequence[tuple[str, Sequence[Sequence[Where]]]],
    *,
    path: str = "<built>",
    first_uid: int = 1,
) -> Pyramid:
    """A pyramid from model summaries and SCUs given by the words they cover.

    Parameters
    ----------
    summaries : sequence of (id, body)
        Bodies may hold several lines (sentences).
    scus : sequence of (label, contributors)
        Each contributor is a list of parts ``(summary index, phrase)`` or
        ``(summary index, phrase, occurrence)``: the phrase's first (or given) occurrence in that
        summary's body.
    path : str, default="<built>"
        The name given to the pyramid (``Pyramid.path``; the coder's name in reports).
    first_uid : int, default=1
        The uid of the first SCU; the others follow in order.

    Returns
    -------
    Pyramid
        Its text laid out as in the NIST DUC 2006 files: ``#N`` and two blank lines, then per
        summary 15 dashes, the id, 15 dashes, a blank line, the body and a blank line; the
        stored regex :data:`NIST_REGEX`. Contributor labels are their part labels in text
        order joined with ``"..."``, as DUCView writes them.

    Raises
    ------
    ParameterError
        A phrase (or the requested occurrence of it) is not in its summary's body.

    References
    ----------
    NIST DUC 2006 pyramid data (``README.DUC2006pyramid``): the text layout of its ``.pyr``
    files, produced with DUCView 1.4 (Columbia University, 2005).

    docs/pyramids.md, "Reading .pyr and .pan files" (the fixtures made with this function).

    Examples
    --------
    The preamble "#2" and two blank lines take 3 + 1 + 1 = 5 characters; a header (15 dashes,
    the id, 15 dashes, each with its newline, and a blank line) takes 16 + 13 + 16 + 1 = 46, so
    the first body starts at 5 + 46 = 51 and ends after "the cat sat" and its newline, at 63.
    A blank line follows, so the second header starts at 64 and its body at 64 + 46 = 110.
    "cat sat" follows "the " (51 + 4 = 55) and "a " (110 + 2 = 112):

    >>> p = build_pyramid([("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat sat")],
    ...                   [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]])])
    >>> [(s.header, s.body) for s in p.summaries]
    [((5, 51), (51, 63)), ((64, 110), (110, 120))]
    >>> [(part.start, part.end) for part in p.scus[0].parts]
    [(55, 62), (112, 119)]

    A discontinuous contributor, and the second occurrence of a phrase:

    >>> p = build_pyramid([("D1.M.100.A.A", "the cat sat on the mat")],
    ...                   [("A cat sat on a mat", [[(0, "cat sat"), (0, "the mat", 0)]]),
    ...                    ("The mat", [[(0, "the", 1)]])])
    >>> [c.label for scu in p.scus for c in scu.contributors]
    ['cat sat...the mat', 'the']
    >>> [(part.start - 51, part.end - 51) for part in p.scus[1].parts]  # offsets in the body
    [(15, 18)]
    """
    text, spans = _text_of(summaries)
    built = []
    for k, (label, contributors) in enumerate(scus):
        cs = []
        for contributor in contributors:
            parts = []
            for where in contributor:
                index, phrase = where[0], where[1]
                occurrence = where[2] if len(where) > 2 else 0
                lo, hi = spans[index].body
                pos = lo - 1
                for _ in range(occurrence + 1):
                    pos = text.find(phrase, pos + 1, hi)
                    if pos < 0:
                        raise ParameterError(f"{phrase!r} does not occur in summary {index}")
                end = pos + len(phrase)
                parts.append(Part(pos, end, text[pos:end].replace("\n", "")))
            ordered = sorted(parts, key=lambda p: p.start)
            cs.append(Contributor("...".join(p.label for p in ordered), tuple(parts)))
        built.append(SCU(first_uid + k, label, tuple(cs)))
    return Pyramid(text, tuple(spans), tuple(built), path, NIST_REGEX, "stored regex")


_QUOT = {'"': "&quot;"}


def _utf16_offsets(text: str) -> Callable[[int], int]:
    """The UTF-16 offset of each Python index of ``text`` (DUCView, a Java program, counts
    offsets in UTF-16 code units: a character outside the BMP counts two).

    Examples
    --------
    >>> at = _utf16_offsets("a\U0001F600b")
    >>> [at(0), at(1), at(2), at(3)]
    [0, 1, 3, 4]
    """
    astral = [k for k, ch in enumerate(text) if ord(ch) > 0xFFFF]
    if not astral:
        return int
    return lambda pos: pos + bisect_left(astral, pos)


def _attr(value: str) -> str:
    return escape(value.replace("\n", ""), _QUOT)


def pyramid_xml(pyramid: Pyramid, *, regex: str | None = NIST_REGEX, root: bool = True) -> str:
    """Serialise a pyramid as DUCView 1.4 does (``root=False``: the element only, for a .pan).

    Parameters
    ----------
    pyramid : Pyramid
        The pyramid to write.
    regex : str or None, default=NIST_REGEX
        The ``startDocumentRegEx`` to store (in CDATA, unescaped); None leaves the element out.
    root : bool, default=True
        Write the XML declaration and the DTD before ``<pyramid>``; False gives the
        ``<pyramid>`` element alone, as embedded in a ``.pan``.

    Returns
    -------
    str
        The XML, one element per line. Each line of the text is a ``<line>``; the text's
        final newline gives no empty ``<line>``. Labels, comments and lines have ``&``, ``<``,
        ``>`` and ``"`` escaped, and labels and comments have newlines deleted, as DUCView's
        ``xmlize`` does. Part offsets are in UTF-16 code units, as DUCView counts them (a
        character outside the BMP counts two), so that the reader reads them back as built.

    References
    ----------
    DUCView 1.4 (Columbia University, 2005), the tool that wrote the NIST DUC 2006 and 2007
    pyramids; its DTD is :data:`DTD`. DUCView 1.5 (Penn State,
    github.com/psunlpgroup/DucView-1.5), ``DucView.java``, ``getXML`` and ``xmlize``.

    docs/pyramids.md, "Reading .pyr and .pan files".

    Examples
    --------
    The body starts at 51 (5 characters of preamble, 46 of header, see
    :func:`build_pyramid`); the part follows "a ", so it starts at 53 and its 13 characters
    end at 66. Quotes and the ampersand are escaped:

    >>> p = build_pyramid([("D1.M.100.A.A", 'a "cat" & a dog')],
    ...                   [("Pets", [[(0, '"cat" & a dog')]])])
    >>> print(pyramid_xml(p, regex=None, root=False))
    <pyramid>
     <text>
      <line>#1</line>
      <line></line>
      <line></line>
      <line>---------------</line>
      <line>D1.M.100.A.A</line>
      <line>---------------</line>
      <line></line>
      <line>a &quot;cat&quot; &amp; a dog</line>
      <line></line>
     </text>
     <scu uid="1" label="Pets">
      <contributor label="&quot;cat&quot; &amp; a dog">
       <part label="&quot;cat&quot; &amp; a dog" start="53" end="66"/>
      </contributor>
     </scu>
    </pyramid>
    <BLANKLINE>
    """
    out = []
    if root:
        out += ['<?xml version="1.0"?>', DTD, ""]
    out.append("<pyramid>")
    if regex is not None:
        out.append(f"<startDocumentRegEx><![CDATA[{regex}]]></startDocumentRegEx>")
    out.append(" <text>")
    lines = pyramid.text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out += [f"  <line>{escape(line, _QUOT)}</line>" for line in lines]
    out.append(" </text>")
    utf16 = _utf16_offsets(pyramid.text)
    for scu in pyramid.scus:
        comment = f' comment="{_attr(scu.comment)}"' if scu.comment is not None else ""
        out.append(f' <scu uid="{scu.uid}" label="{_attr(scu.label)}"{comment}>')
        for c in scu.contributors:
            ccomment = f' comment="{_attr(c.comment)}"' if c.comment is not None else ""
            out.append(f'  <contributor label="{_attr(c.label)}"{ccomment}>')
            out += [f'   <part label="{_attr(p.label)}" start="{utf16(p.start)}" '
                    f'end="{utf16(p.end)}"/>' for p in c.parts]
            out.append("  </contributor>")
        out.append(" </scu>")
    out.append("</pyramid>")
    return "\n".join(out) + "\n"


PAN_DTD = """<!DOCTYPE peerAnnotation [
 <!ELEMENT peerAnnotation (pyramid,annotation)>
 <!ELEMENT annotation (text,peerscu+)>
 <!ELEMENT peerscu (contributor)*>
 <!ATTLIST peerscu uid CDATA #REQUIRED
                   label CDATA #REQUIRED
                   comment CDATA #IMPLIED>
""" + DTD.split("[", 1)[1].lstrip("\n")


def pan_xml(
    pyramid: Pyramid,
    peer_text: str,
    found: dict[int, Sequence[Sequence[str]]],
    *,
    regex: str | None = NIST_REGEX,
) -> str:
    """Serialise a DUCView 1.4 peer annotation.

    ``found`` maps SCU uids (0 for non-matching content) to contributors, each a list of
    phrases of ``peer_text`` (first occurrences). Every SCU of the pyramid gets a ``peerscu``,
    labelled ``"(W) label"`` as DUCView does.

    Parameters
    ----------
    pyramid : Pyramid
        The pyramid the peer is annotated against; it is embedded whole.
    peer_text : str
        The peer summary, one sentence per line (lines separated by ``"\\n"``).
    found : dict of int to sequence of sequence of str
        SCU uid -> contributors found in the peer, each a list of phrases (its parts); uid 0 is
        the bucket of non-matching content.
    regex : str or None, default=NIST_REGEX
        The ``startDocumentRegEx`` of the embedded pyramid (None leaves it out).

    Returns
    -------
    str
        The ``.pan`` XML: declaration, :data:`PAN_DTD`, ``<peerAnnotation>`` with the
        ``<pyramid>`` and the ``<annotation>`` (the peer text as ``<line>`` elements, then one
        ``<peerscu>`` per SCU in pyramid order and uid 0 last). Part offsets index into the
        peer text with a newline after every line.

    Raises
    ------
    ParameterError
        A phrase does not occur in the peer text.

    References
    ----------
    DUCView 1.4 (Columbia University, 2005), the tool that wrote the NIST DUC 2006 and 2007
    peer annotations; DUCView 1.5 (Penn State, github.com/psunlpgroup/DucView-1.5), which
    labels each ``peerscu`` ``"(W) "`` + the SCU's label and keeps uid 0 for "All
    non-matching SCUs go here".

    docs/pyramids.md, "Peer annotations".

    Examples
    --------
    The peer "a dog" expresses SCU 1 (weight 1) with "dog", characters 2-5 (after "a "):

    >>> p = build_pyramid([("D1.M.100.A.A", "the cat and a dog")], [("Pets", [[(0, "a dog")]])])
    >>> xml = pan_xml(p, "a dog", {1: [["dog"]]})
    >>> print(xml[xml.index("<annotation>"):])
    <annotation>
     <text>
      <line>a dog</line>
     </text>
     <peerscu uid="1" label="(1) Pets">
      <contributor label="dog">
       <part label="dog" start="2" end="5"/>
      </contributor>
     </peerscu>
     <peerscu uid="0" label="All non-matching SCUs go here">
     </peerscu>
    </annotation>
    </peerAnnotation>
    <BLANKLINE>
    """
    text = "".join(line + "\n" for line in peer_text.split("\n"))
    out = ['<?xml version="1.0"?>', PAN_DTD, "", "<peerAnnotation>",
           pyramid_xml(pyramid, regex=regex, root=False).rstrip("\n"), "<annotation>", " <text>"]
    out += [f"  <line>{escape(line, _QUOT)}</line>" for line in peer_text.split("\n")]
    out.append(" </text>")
    utf16 = _utf16_offsets(text)
    buckets = [(s.uid, f"({s.weight}) {s.label}") for s in pyramid.scus]
    buckets.append((0, "All non-matching SCUs go here"))
    for uid, label in buckets:
        out.append(f' <peerscu uid="{uid}" label="{_attr(label)}">')
        for phrases in found.get(uid, ()):
            parts = []
            for phrase in phrases:
                pos = text.find(phrase)
                if pos < 0:
                    raise ParameterError(f"{phrase!r} does not occur in the peer text")
                parts.append((pos, pos + len(phrase), phrase.replace("\n", "")))
            out.append(f'  <contributor label="{_attr("...".join(p[2] for p in parts))}">')
            out += [f'   <part label="{_attr(lab)}" start="{utf16(s)}" end="{utf16(e)}"/>'
                    for s, e, lab in parts]
            out.append("  </contributor>")
        out.append(" </peerscu>")
    out += ["</annotation>", "</peerAnnotation>"]
    return "\n".join(out) + "\n"
