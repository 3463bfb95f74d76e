"""Coreference documents: tokens, mentions (token spans, discontinuous allowed) and chains.

One model for every reader (CoNLL-2011/2012, SemEval-2010, CorefUD, BRAT): a mention is a tuple of
token spans ``[start, end)`` in document token positions, with the entity (chain) it belongs to;
the chains are the mentions grouped by entity.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError, Tally

__all__ = ["CONLL_AVERAGE", "METRICS", "CorefCorpus", "CorefDocument", "LazyDocuments", "Mention",
           "unique_mentions"]

Span = tuple[tuple[int, int], ...]


#: The coreference metrics, by name (``mentions``: mention identification).
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions")
#: The CoNLL-2011/2012 shared task score: the mean F1 of these three.
CONLL_AVERAGE = ("muc", "bcub", "ceafe")
#: The repair of a mention marked twice.
REPEATED = "repeated mentions removed (first kept)"

@dataclass(frozen=True, slots=True)
class Mention:
    """A mention: its token spans (sorted, end exclusive), entity id, head token and source line.

    Attributes
    ----------
    spans : tuple of (int, int)
        The token spans ``(start, end)`` of the mention in document token positions (0-based,
        end exclusive), sorted; more than one span for a discontinuous mention (CorefUD parts
        ``e3[1/2]``, BRAT fragments separated by ``;``).
    entity : str
        The id of the entity (chain) the mention belongs to, as written in the file (CoNLL
        ``12``, CorefUD ``e3``; BRAT chains are named ``chain-T<n>`` after their first mention).
    line : int or None, default=None
        The line of the file where the mention starts (its opening bracket or ``T`` line).
    head : int or None, default=None
        The document token position of the head word (CorefUD ``head``), None when the format
        gives none.

    References
    ----------
    Pradhan, S., Luo, X., Recasens, M., Hovy, E., Ng, V., Strube, M. (2014). Scoring
    coreference partitions of predicted mentions: a reference implementation. Proceedings of
    ACL 2014 (short papers), pp. 30-35. (A mention is identified by its exact token span.)

    docs/coref.md, "Reading" (how each reader maps its format onto mentions).

    Examples
    --------
    A discontinuous mention of entity ``e3`` made of token 0 and tokens 3 and 4; the head is
    token 4:

    >>> m = Mention(((0, 1), (3, 5)), "e3", head=4)
    >>> m.start, m.end, m.tokens
    (0, 5, [0, 3, 4])
    """

    spans: Span
    entity: str
    line: int | None = None
    head: int | None = None

    @property
    def start(self) -> int:
        return self.spans[0][0]

    @property
    def end(self) -> int:
        return self.spans[-1][1]

    @property
    def tokens(self) -> list[int]:
        """Token positions covered by the mention."""
        return [t for s, e in self.spans for t in range(s, e)]


def unique_mentions(document: str, mentions: list[Mention], *, lenient: bool,
                    repairs: Counter[str] | Tally, path: str, line: int | None
                    ) -> tuple[Mention, ...]:
    """The mentions in reading order with repeats (the same tokens marked twice) refused, or
    with ``lenient`` the first kept and the others counted in ``repairs``; sorted by start,
    longest first.

    Parameters
    ----------
    document : str
        The name of the document, for the error message.
    mentions : list of Mention
        The mentions of one document in reading order (the order decides which repeat is
        first).
    lenient : bool
        False: a repeated mention is an :class:`~clusteragree.errors.InputError`. True: the
        first occurrence is kept and every later one is counted.
    repairs : collections.Counter of str, or clusteragree.errors.Tally
        Updated in place under ``lenient``: the key ``"repeated mentions removed (first
        kept)"`` grows by the number of repeats removed (a tally counts them as ``repaired``
        with the line of the first repeat).
    path : str
        The file, for the error message.
    line : int or None
        The line to report when the repeated mention has no line of its own.

    Returns
    -------
    tuple of Mention
        The mentions with distinct spans, sorted by start and, for the same start, longest
        first.

    Raises
    ------
    InputError
        Without ``lenient``, for the first mention whose spans were already marked (naming
        both entities and lines).

    References
    ----------
    CoNLL reference coreference scorer v8.01 (github.com/conll/reference-coreference-scorers),
    ``lib/CorScorer.pm``: a repeated response mention is removed and the first occurrence
    kept, which the official test cases TC-A-7, TC-A-8 and TC-A-9 expect.

    docs/coref.md, "Reading" (repeated mentions are an error unless reading is lenient, for key
    and response alike).

    Examples
    --------
    Tokens 3-4 are marked twice, first for entity 1 (line 4) and then for entity 7 (line 9);
    lenient reading keeps the first and counts one repair. The three mentions left are sorted
    by start, and 0-3 (four tokens) comes before 0-1 (two tokens):

    >>> from collections import Counter
    >>> marked = [Mention(((3, 5),), "1", 4), Mention(((0, 2),), "2", 2),
    ...           Mention(((3, 5),), "7", 9), Mention(((0, 4),), "1", 2)]
    >>> repairs = Counter()
    >>> kept = unique_mentions("d", marked, lenient=True, repairs=repairs, path="d.conll",
    ...                        line=None)
    >>> [(m.start, m.end, m.entity) for m in kept]
    [(0, 4, '1'), (0, 2, '2'), (3, 5, '1')]
    >>> dict(repairs)
    {'repeated mentions removed (first kept)': 1}

    Strict reading refuses the repeat, at the line of the second mark:

    >>> unique_mentions("d", marked, lenient=False, repairs=Counter(), path="d.conll",
    ...                 line=None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: d.conll:9: document d: the mention at tokens 3-4 is ...
    """
    seen: dict[Span, Mention] = {}
    for m in mentions:
        if m.spans not in seen:
            seen[m.spans] = m
            continue
        if not lenient:
            first = seen[m.spans]
            raise InputError(f"document {document}: the mention at tokens {m.start}-{m.end - 1} "
                             f"is marked twice (entity {first.entity}, line {first.line}, and "
                             f"entity {m.entity}); keep one (lenient reading keeps the first)",
                             path=path, line=m.line or line)
        if isinstance(repairs, Tally):
            repairs.add("repaired", REPEATED, m.line or line)
        else:
            repairs[REPEATED] += 1
    return tuple(sorted(seen.values(), key=lambda m: (m.spans[0][0], -m.spans[-1][1])))


@dataclass(frozen=True)
class CorefDocument:
    """A document (or CoNLL part) with one annotator's mentions.

    Attributes
    ----------
    name : str
        The document's name: the rest of the ``#begin document`` line (CoNLL, e.g.
        ``(nw/xinhua/00/chtb_0009); part 000``), the ``# newdoc id`` (CorefUD) or the stem of
        the ``.ann`` file (BRAT).
    tokens : tuple of str
        The tokens (words; for BRAT the characters of the text), by document position.
    mentions : tuple of Mention
        The mentions, sorted by start and, for the same start, longest first.
    path : str, default="<document>"
        The file the document was read from.
    line : int or None, default=None
        The line where the document starts.
    token_lines : tuple of int, default=()
        The line of each token (empty when the format has no token lines, as BRAT).
    words : tuple of (int, int), default=()
        The word units as token spans ``(start, end)``, when they are not the tokens (BRAT: runs
        of non-space characters); empty means one word per token.
    entity_types : tuple of (str, str), default=()
        The type of each entity that has one, ``(entity, type)`` (CorefUD ``etype``); empty
        when the format gives none. Types are the annotator's own categories: the span
        measures use them as labels, the coreference metrics do not.

    References
    ----------
    CoNLL-2012 shared task, data description (conll.cemantix.org/2012/data.html): every part
    of a ``#begin document`` ... ``#end document`` block is scored as a document of its own.

    docs/coref.md, "Reading".

    Examples
    --------
    "Mary met John and he smiled": Mary is entity 1, John and he are entity 2.

    >>> doc = CorefDocument("d", ("Mary", "met", "John", "and", "he", "smiled"),
    ...                     (Mention(((0, 1),), "1"), Mention(((2, 3),), "2"),
    ...                      Mention(((4, 5),), "2")))
    >>> {entity: [m.start for m in ms] for entity, ms in doc.chains.items()}
    {'1': [0], '2': [2, 4]}
    >>> [sorted(c) for c in doc.clusters()]
    [[((0, 1),)], [((2, 3),), ((4, 5),)]]
    >>> doc.word_spans[:3]  # no words given: one word per token
    ((0, 1), (1, 2), (2, 3))
    """

    name: str
    tokens: tuple[str, ...]
    mentions: tuple[Mention, ...]
    path: str = "<document>"
    line: int | None = None
    token_lines: tuple[int, ...] = ()
    words: tuple[tuple[int, int], ...] = ()
    entity_types: tuple[tuple[str, str], ...] = ()

    @property
    def word_spans(self) -> tuple[tuple[int, int], ...]:
        """The word units as token spans: ``words`` when the reader set them (BRAT: runs of
        non-space characters), else one word per token."""
        return self.words or tuple((t, t + 1) for t in range(len(self.tokens)))

    @property
    def chains(self) -> dict[str, list[Mention]]:
        """Mentions grouped by entity, in order of first mention."""
        out: dict[str, list[Mention]] = {}
        for m in self.mentions:
            out.setdefault(m.entity, []).append(m)
        return out

    def clusters(self) -> list[set[Span]]:
        """The chains as sets of mention spans (what the coreference metrics compare)."""
        return [{m.spans for m in ms} for ms in self.chains.values()]


@dataclass(frozen=True)
class CorefCorpus:
    """The documents of one file (one annotator), with the repairs made while reading.

    Attributes
    ----------
    documents : dict of str to CorefDocument
        The documents by name, in file order.
    path : str
        The file (or, for BRAT, the directory) read; also the annotator's default name in the
        agreement tables.
    repairs : dict of str to int, default={}
        What lenient reading repaired, with counts (e.g. ``{"unclosed mentions dropped": 2}``);
        empty when nothing was repaired.
    format : str, default="conll"
        The reader that made it: ``"conll"``, ``"corefud"`` or ``"brat"``.

    References
    ----------
    docs/coref.md, "Reading" and "Input checks and warnings" (what each reader repairs under
    lenient reading).

    Examples
    --------
    A CoNLL file of one document of two tokens, Mary being a one-token mention of entity 1:

    >>> from clusteragree.coref import parse_conll
    >>> corpus = parse_conll(["#begin document (a); part 000", "a 0 0 Mary (1)",
    ...                       "a 0 1 smiled -", "#end document"], "a.conll")
    >>> list(corpus.documents), corpus.format, corpus.repairs
    (['(a); part 000'], 'conll', {})
    >>> corpus.documents["(a); part 000"].tokens
    ('Mary', 'smiled')
    """

    documents: dict[str, CorefDocument]
    path: str
    repairs: dict[str, int] = field(default_factory=dict)
    format: str = "conll"


class LazyDocuments(dict):
    """The documents of a corpus by name, made on first use: a dict whose names are known at
    once and whose :class:`CorefDocument` objects are all built by ``build`` the first time a
    value is asked for (by key, ``values``, ``items``, comparison, copying or pickling).

    A reader that has the whole corpus as arrays hands them on in ``arrays`` (the coreference
    metrics count from them without making a mention object); everything else sees an
    ordinary dict.

    Parameters
    ----------
    names : list of str
        The documents' names, in file order.
    build : callable
        Returns the documents by name (the same names, in the same order).
    arrays : object, optional
        The reader's array form of the corpus (:class:`clusteragree.coref.conll_fast.ConllArrays`).

    References
    ----------
    docs/performance.md (coreference: reading builds no object the metrics do not need).

    Examples
    --------
    >>> made = []
    >>> def build():
    ...     made.append(1)
    ...     return {"d": CorefDocument("d", ("Mary",), (Mention(((0, 1),), "1"),))}
    >>> docs = LazyDocuments(["d"], build)
    >>> list(docs), len(docs), "d" in docs, made
    (['d'], 1, True, [])
    >>> docs["d"].tokens, made
    (('Mary',), [1])
    >>> docs == {"d": CorefDocument("d", ("Mary",), (Mention(((0, 1),), "1"),))}
    True
    """

    def __init__(self, names: list[str], build: Callable[[], dict[str, CorefDocument]],
                 arrays: Any = None) -> None:
        super().__init__(dict.fromkeys(names))
        self._build: Callable[[], dict[str, CorefDocument]] | None = build
        self._lock = threading.Lock()
        self.arrays = arrays

    def _made(self) -> LazyDocuments:
        if self._build is not None:
            with self._lock:  # threads asking at once: one builds, the others wait for it
                if self._build is not None:
                    dict.update(self, self._build())
                    self._build = None
        return self

    def __getitem__(self, name: str) -> CorefDocument:
        return dict.__getitem__(self._made(), name)

    def __iter__(self) -> Iterator[str]:  # overridden so that dict(...) and {**...} ask values
        return dict.__iter__(self)

    def get(self, name: str, default: Any = None) -> Any:
        return dict.get(self._made(), name, default)

    def values(self) -> Any:
        return dict.values(self._made())

    def items(self) -> Any:
        return dict.items(self._made())

    def copy(self) -> dict[str, CorefDocument]:
        return dict(self.items())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyDocuments):
            other._made()
        return dict.__eq__(self._made(), other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None

    def __repr__(self) -> str:
        return dict.__repr__(self._made())

    def __reduce__(self) -> tuple[Any, ...]:
        return dict, (dict(self.items()),)

    def __or__(self, other: Any) -> Any:
        return dict(self.items()) | other

    def __ror__(self, other: Any) -> Any:
        return other | dict(self.items())

    def setdefault(self, *args: Any) -> Any:
        return dict.setdefault(self._made(), *args)

    def pop(self, *args: Any) -> Any:
        return dict.pop(self._made(), *args)

    def popitem(self) -> Any:
        return dict.popitem(self._made())

    def update(self, *args: Any, **kwargs: Any) -> None:
        dict.update(self._made(), *args, **kwargs)

    def __setitem__(self, name: str, value: CorefDocument) -> None:
        dict.__setitem__(self._made(), name, value)

    def __delitem__(self, name: str) -> None:
        dict.__delitem__(self._made(), name)

    def __ior__(self, other: Any) -> LazyDocuments:
        self.update(other)
        return self
