"""What ``clusteragree validate`` checks in coreference files (CoNLL, CorefUD, BRAT).

Level 1, the file: each input is read by its reader
(:func:`~clusteragree.incidents.read_checked`, lenient, so that its repairs are reported as
``read-*`` incidents and the model is built for the next levels) and scanned line by line
(:mod:`clusteragree.coref.scan`), every malformed line reported. A file its reader read
without a notice is sound in its brackets, parts and structure, so only what such a file can
still hold is looked for (CoNLL column counts, CorefUD mentions across a sentence end), with
array operations. Level 2, one annotation: what a chain or a mention may not be (crossing
mentions, a mention marked twice, a span in two chains, a head outside its mention,
one-mention chains where the corpus should have none, a mention's text against the text).
Level 3, across the inputs (one annotator each): the same documents, the same tokens, and the
mentions only one annotator marked.

The tests and their classes are in :data:`COREF_TESTS`; docs/validate.md lists them with their
reasons. Under ``--strict`` the coreference commands run :func:`model_incidents` on the corpora
they read and refuse its errors (:func:`refuse_check_errors`), so that they
refuse exactly what ``validate`` calls an error.

References
----------
CoNLL-2012 shared task, data description (conll.cemantix.org/2012/data.html): no singletons
in OntoNotes coreference.

Nedoluzhko, A., et al. (2022). CorefUD 1.0: Coreference meets Universal Dependencies.
Proceedings of LREC 2022 (singletons allowed; mentions nested, not crossing, by design).

The coreference tests of the UD validator (``udtools``, ``level6.py``): crossing mentions of
one entity and two mentions of one span are errors there, crossing mentions of two entities a
warning.

Examples
--------
"a b c d": entity 1 is tokens 0-2 and entity 2 tokens 1-3, crossing it; each chain has one
mention (a warning in CoNLL files):

>>> from clusteragree.coref import parse_conll
>>> corpus = parse_conll(["#begin document d", "d 0 0 a (1", "d 0 1 b (2", "d 0 2 c 1)",
...                       "d 0 3 d 2)", "#end document"], "a.conll")
>>> [i.test_id for i in model_incidents([corpus], level=2)]
['coref-crossing-mentions', 'coref-singletons']
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from ..errors import InputError, option
from ..incidents import Incident, Test, read_checked, refuse_errors, register
from ..inputs import decode, line_ends, read_bytes
from .brat import read_brat, read_brat_dir
from .conll import read_conll
from .corefud import read_corefud
from .model import CorefCorpus, CorefDocument, Mention
from .scan import corefud_sentence_ends, scan_brat_ann, scan_conll_text, scan_corefud_text

__all__ = ["COREF_TESTS", "crossing_pairs", "model_incidents", "refuse_check_errors",
           "validate_inputs"]

_ALL = ("conll", "corefud", "brat")
#: The export formats whose chains are checked as coreference (:mod:`.export_checks`): those
#: with chain layers, and the others' relation layer named with ``--chain-layer``.
_EXPORTS = ("inception", "webanno-tsv", "uima-xmi", "uima-json", "label-studio", "doccano",
            "prodigy")
_CHAINS = (*_ALL, *_EXPORTS)

#: The coreference tests of ``validate``.
COREF_TESTS = (
    # level 1: the file
    Test("coref-document-structure", 1, "error", "coref", "#begin document / #end document "
         "out of order or missing, token lines outside any document", ("conll",)),
    Test("coref-comment-in-document", 1, "error", "coref", "a comment line inside a document "
         "(the official scorer reads it as a token)", ("conll",)),
    Test("coref-conll-columns", 1, "warning", "coref", "a token line whose number of columns "
         "differs from the first token line of its document", ("conll",)),
    Test("coref-bad-chunk", 1, "error", "coref", "a coreference cell that cannot be read "
         "(non-numeric id, stray characters)", ("conll",)),
    Test("coref-unopened-close", 1, "error", "coref", "a closing bracket of an entity that "
         "has no open mention", ("conll", "corefud")),
    Test("coref-unclosed-mention", 1, "error", "coref", "a mention opened and not closed by "
         "the end of its document", ("conll", "corefud")),
    Test("coref-duplicate-document", 1, "error", "coref", "two documents of one name in a "
         "file (one would replace the other)", ("conll", "corefud")),
    Test("coref-conllu-columns", 1, "error", "coref", "a CoNLL-U line that is not ten "
         "TAB-separated columns", ("corefud",)),
    Test("coref-conllu-word-id", 1, "error", "coref", "a word id that is not a number, a "
         "range or an empty node", ("corefud",)),
    Test("coref-global-entity", 1, "error", "coref", "Entity= annotations without a "
         "# global.Entity header declaring their fields", ("corefud",)),
    Test("coref-entity-syntax", 1, "error", "coref", "an Entity= value that cannot be read, "
         "or a head that is not a whole number of 1 or more", ("corefud",)),
    Test("coref-discontinuous-parts", 1, "error", "coref", "a discontinuous mention with "
         "parts missing", ("corefud",)),
    Test("coref-part-id", 1, "warning", "coref", "an entity id with brackets not of the form "
         "e3[k/n], 1 <= k <= n, n >= 2 (read as written)", ("corefud",)),
    Test("coref-multiword-entity", 1, "error", "coref", "Entity= on a multiword-token line "
         "(not read: mentions belong on word lines)", ("corefud",)),
    Test("coref-brat-line", 1, "error", "coref", "an .ann line that BRAT does not define or "
         "a text-bound line that cannot be read", ("brat",)),
    Test("coref-brat-offsets", 1, "error", "coref", "offsets empty or outside the text",
         ("brat",)),
    Test("coref-brat-id", 1, "error", "coref", "a T id defined twice, or a chain naming an id "
         "no T line defines", ("brat",)),
    Test("coref-brat-no-text", 1, "error", "coref", "an .ann file without its text (.txt "
         "beside it or in --text-dir)", ("brat",)),
    Test("coref-empty-document", 1, "warning", "coref", "a document without tokens", _ALL),
    # level 2: one annotation
    Test("coref-crossing-mentions", 2, "warning", "coref", "two mentions of different "
         "entities that overlap, neither inside the other", _CHAINS),
    Test("coref-crossing-same-entity", 2, "error", "coref", "two mentions of one entity that "
         "overlap, neither inside the other", _CHAINS),
    Test("coref-duplicate-mention", 2, "error", "coref", "the same span marked twice in one "
         "chain", _CHAINS),
    Test("coref-same-span", 2, "error", "coref", "the same span a mention of two chains",
         _CHAINS),
    Test("coref-mention-in-two-chains", 2, "error", "coref", "a mention in two chains (a BRAT "
         "id named by two equivalence lines, an export's span linked into two chains)",
         ("brat", *_EXPORTS)),
    Test("coref-empty-chain", 2, "warning", "coref", "a BRAT equivalence line naming no "
         "mention", ("brat",)),
    Test("coref-head-out-of-range", 2, "error", "coref", "a mention head outside its "
         "mention", ("corefud",)),
    Test("coref-cross-sentence-mention", 2, "warning", "coref", "a CorefUD mention still open "
         "at the end of its sentence", ("corefud",)),
    Test("coref-mention-text", 2, "error", "coref", "a BRAT mention's text that is not the "
         "text at its offsets", ("brat",)),
    Test("coref-singletons", 2, "warning", "coref", "chains of one mention in a CoNLL file "
         "(CoNLL-2012/OntoNotes marks none)", ("conll",)),
    Test("coref-singletons-allowed", 2, "information", "coref", "chains of one mention, "
         "which the format allows (CorefUD, BRAT, the tools' exports)",
         ("corefud", "brat", *_EXPORTS)),
    # level 3: across annotators
    Test("coref-missing-document", 3, "error", "coref", "a document some annotators have and "
         "this one lacks", _ALL),
    Test("coref-token-count", 3, "error", "coref", "a document with a different number of "
         "tokens than the first annotator's", _ALL),
    Test("coref-token-text", 3, "error", "coref", "a token written differently from the "
         "first annotator's at the same place", _ALL),
    Test("coref-mentions-one-annotator", 3, "information", "coref", "mentions only one "
         "annotator marked (counts per document: disagreement, not a fault)", _ALL),
)
register(*COREF_TESTS)

def _name(path: str) -> str:
    base = Path(path.rstrip("/\\"))
    return base.name if base.is_dir() else base.stem


def validate_inputs(paths: list[str], input_format: str, *, level: int,
                    encoding: str | None, names: Sequence[str] | None,
                    options: dict[str, Any]) -> Iterator[Incident]:
    """Every incident of the coreference inputs ``paths`` (one annotator each) up to
    ``level``: the line scan and the reader's notices (1), each annotation (2), across the
    annotators (3).

    Parameters
    ----------
    paths : list of str
        CoNLL or CorefUD files, or BRAT directories of ``.ann`` files.
    input_format : {"conll", "corefud", "brat"}
        Their format.
    level : int
        The highest level checked (1, 2 or 3).
    encoding : str or None
        The files' encoding (default UTF-8).
    names : sequence of str or None
        The annotators (default: each file's stem, a directory's name).
    options : dict
        ``text_dir`` (BRAT: the folder of the texts); other options are not used here.

    Yields
    ------
    Incident
        In file order: each input's scan and reading, then its model's level-2 incidents;
        last the level-3 incidents.

    References
    ----------
    docs/validate.md (the coreference tests).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> text = "#begin document d\\nd 0 0 Mary (1)\\nd 0 1 left 2)\\n#end document\\n"
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp) / "a.conll"
    ...     _ = path.write_text(text, encoding="utf-8")
    ...     found = list(validate_inputs([str(path)], "conll", level=2, encoding=None,
    ...                                  names=None, options={}))
    >>> [(i.test_id, i.line) for i in found]
    [('coref-unopened-close', 3), ('read-repaired', 3), ('coref-singletons', 2)]
    """
    corpora: list[CorefCorpus | None] = []
    for path in paths:
        if input_format == "brat":
            corpus, found = _brat_checked(path, options.get("text_dir"), encoding)
        else:
            corpus, found = _file_checked(path, input_format, encoding)
        yield from found
        if corpus is not None:
            yield from _empty_documents(corpus)
            if level >= 2:
                yield from _corpus_incidents(corpus)
        corpora.append(corpus)
    if level >= 3 and len(paths) > 1:
        given = list(names) if names else [_name(p) for p in paths]
        kept = [(c, n) for c, n in zip(corpora, given, strict=True) if c is not None]
        if len(kept) > 1:
            yield from _across([c for c, _ in kept], [n for _, n in kept])


def _file_checked(path: str, input_format: str, encoding: str | None
                  ) -> tuple[CorefCorpus | None, list[Incident]]:
    """The file read (lenient), then scanned: the whole scan, or, when the reader read it
    without a notice, only what a sound file can still hold (columns, sentence ends)."""
    reader = read_conll if input_format == "conll" else read_corefud
    corpus, read = read_checked(path, lambda: reader(path, lenient=True, encoding=encoding))
    try:
        text = line_ends(decode(read_bytes(path), path, encoding=encoding))[0]
    except InputError:
        return corpus, read  # the reader reported it
    clean = corpus is not None and not read
    found: list[Incident] | None = None
    if input_format == "conll":
        found = list(scan_conll_text(text, path, read_clean=clean))
    elif clean:
        assert corpus is not None
        found = corefud_sentence_ends(text, path, corpus.documents.values())
    if found is None:
        found = list(scan_corefud_text(text, path))
    return corpus, found + read


def _brat_checked(path: str, text_dir: str | None, encoding: str | None
                  ) -> tuple[CorefCorpus | None, list[Incident]]:
    """Each ``.ann`` file scanned and read on its own, so that a fault in one does not hide
    the others; the corpus of the files that could be read."""
    folder = Path(path)
    if not folder.is_dir():
        return read_checked(path, lambda: read_brat_dir(path, text_dir, encoding=encoding))
    found: list[Incident] = []
    docs: dict[str, CorefDocument] = {}
    files = sorted(folder.glob("*.ann"))
    if not files:
        return read_checked(path, lambda: read_brat_dir(path, text_dir, encoding=encoding))
    for ann in files:
        txt = Path(text_dir if text_dir is not None else folder) / (ann.stem + ".txt")
        if not txt.exists():
            where = (f"in {option('text_dir', os.fspath(text_dir))}" if text_dir is not None
                     else f"beside it; give the folder of the texts with {option('text_dir')}")
            found.append(Incident("coref-brat-no-text", f"no text {txt.name} for {ann.name}: "
                                  f"looked for {where}", str(ann), None, ann.stem))
            continue
        try:
            annotation = line_ends(decode(read_bytes(ann), str(ann), encoding=encoding))[0]
            content = decode(read_bytes(txt), str(txt), encoding=encoding)
        except InputError:
            pass  # the reader reports it
        else:
            found += scan_brat_ann(annotation, content, str(ann), str(txt))
        doc, read = read_checked(ann, partial(read_brat, ann, txt, encoding=encoding))
        found += read
        if doc is not None:
            docs[doc.name] = doc
    return (CorefCorpus(docs, path, {}, "brat") if docs else None), found


def _empty_documents(corpus: CorefCorpus) -> Iterator[Incident]:
    for name, doc in corpus.documents.items():
        if not doc.tokens:
            yield Incident("coref-empty-document", f"document {name} has no tokens",
                           doc.path, doc.line, name)


# --- level 2: one annotation

def model_incidents(corpora: Sequence[CorefCorpus], names: Sequence[str] | None = None, *,
                    level: int = 3) -> list[Incident]:
    """The level-2 (each corpus) and, with several corpora and ``level`` 3, level-3
    incidents of corpora already read: what ``--strict`` refuses besides the readers'
    repairs.

    Parameters
    ----------
    corpora : sequence of CorefCorpus
        One annotator's corpus each.
    names : sequence of str, optional
        The annotators (default: each corpus's file stem).
    level : int, default=3
        2: each corpus alone; 3: also across them.

    Returns
    -------
    list of Incident

    Examples
    --------
    >>> from clusteragree.coref import parse_conll
    >>> a = parse_conll(["#begin document d", "d 0 0 Mary (1)", "d 0 1 she (1)",
    ...                  "#end document"], "a.conll")
    >>> b = parse_conll(["#begin document d", "d 0 0 Mary (1)", "d 0 1 her (1)",
    ...                  "#end document"], "b.conll")
    >>> [(i.test_id, i.line, i.node) for i in model_incidents([a, b])]
    [('coref-token-text', 3, '1')]
    """
    found = [i for c in corpora for i in _corpus_incidents(c)]
    if level >= 3 and len(corpora) > 1:
        found += _across(list(corpora),
                         list(names) if names else [_name(c.path) for c in corpora])
    return found


def refuse_check_errors(corpora: Sequence[CorefCorpus], names: Sequence[str] | None = None,
                        *, level: int = 3) -> None:
    """``--strict``: refuse the first error :func:`model_incidents` finds (an
    :class:`~clusteragree.errors.InputError` naming its test id), so that the commands refuse
    exactly what ``validate`` calls an error; warnings and information pass.

    Examples
    --------
    >>> from clusteragree.coref import parse_conll
    >>> a = parse_conll(["#begin document d", "d 0 0 Mary (1)", "d 0 1 she (1)",
    ...                  "#end document"], "a.conll")
    >>> refuse_check_errors([a, a], ["x", "y"])
    """
    refuse_errors(model_incidents(corpora, names, level=level))


def _corpus_incidents(corpus: CorefCorpus) -> Iterator[Incident]:
    for doc in corpus.documents.values():
        yield from _crossing(doc)
        yield from _heads(doc)
        yield from _singletons(doc, corpus.format)


def _where(doc: CorefDocument, m: Mention) -> str:
    unit = "characters" if not doc.token_lines and doc.words else "tokens"
    return f"{unit} {','.join(f'{s}-{e - 1}' for s, e in m.spans)}"


def crossing_pairs(mentions: Sequence[Mention]) -> Iterator[tuple[Mention, Mention]]:
    """The pairs ``(a, m)`` of ``mentions`` that overlap, neither inside the other, ``a``
    before ``m``; ``mentions`` sorted by start, longest first (an earlier mention still open
    at a later one's start crosses it when it ends first; a discontinuous mention by the
    positions it covers). The positions may be tokens or characters.

    Examples
    --------
    >>> ms = [Mention(((0, 3),), "1"), Mention(((1, 4),), "2"), Mention(((1, 2),), "2")]
    >>> [(a.spans, m.spans) for a, m in crossing_pairs(ms)]
    [(((0, 3),), ((1, 4),))]
    """
    active: list[Mention] = []
    for m in mentions:
        active = [a for a in active if a.end > m.start]
        for a in active:
            if len(a.spans) == 1 and len(m.spans) == 1:
                crosses = a.start < m.start and a.end < m.end
            else:
                ta, tm = set(a.tokens), set(m.tokens)
                crosses = bool(ta & tm) and not ta <= tm and not tm <= ta
            if crosses:
                yield a, m
        active.append(m)


def _crossing(doc: CorefDocument) -> Iterator[Incident]:
    """Pairs of mentions that overlap, neither inside the other (:func:`crossing_pairs`)."""
    for a, m in crossing_pairs(doc.mentions):
        same = a.entity == m.entity
        test = "coref-crossing-same-entity" if same else "coref-crossing-mentions"
        whose = (f"two mentions of entity {m.entity}" if same else
                 f"the mention of entity {m.entity}")
        # The line where the crossing shows: two entities, where the first mention
        # closes inside the second (as the UD validator); one entity, where the second
        # is complete.
        line = _end_line(doc, m if same else a)
        yield Incident(test, f"document {doc.name}: {whose} cross: {_where(doc, a)} (line "
                       f"{a.line}) and {_where(doc, m)} (line {m.line}); overlapping "
                       "mentions nest, one inside the other", doc.path, line, doc.name,
                       str(m.start))


def _end_line(doc: CorefDocument, m: Mention) -> int | None:
    """The line of a mention's last token (its closing bracket), or its own line where the
    format has no token lines (BRAT)."""
    if doc.token_lines and m.end - 1 < len(doc.token_lines):
        return doc.token_lines[m.end - 1]
    return m.line


def _heads(doc: CorefDocument) -> Iterator[Incident]:
    for m in doc.mentions:
        if m.head is not None and not any(s <= m.head < e for s, e in m.spans):
            size = sum(e - s for s, e in m.spans)
            yield Incident("coref-head-out-of-range",
                           f"document {doc.name}: the head of the mention of {m.entity} at "
                           f"{_where(doc, m)} is word {m.head - m.start + 1} of a mention of "
                           f"{size} word(s) (opened at line {m.line})", doc.path,
                           _end_line(doc, m), doc.name, str(m.start))


def _singletons(doc: CorefDocument, fmt: str) -> Iterator[Incident]:
    single = [ms[0] for ms in doc.chains.values() if len(ms) == 1]
    if not single:
        return
    first = min(single, key=lambda m: (m.line or 0, m.start))
    if fmt == "conll":
        yield Incident("coref-singletons",
                       f"document {doc.name}: {len(single)} chain(s) of one mention (the first "
                       f"at {_where(doc, first)}); CoNLL-2012 (OntoNotes) marks none, other "
                       "corpora (LitBank) do: the metrics count them unless --singletons "
                       "says otherwise", doc.path, first.line, doc.name, str(first.start),
                       count=len(single))
    else:
        yield Incident("coref-singletons-allowed",
                       f"document {doc.name}: {len(single)} chain(s) of one mention",
                       doc.path, first.line, doc.name, str(first.start), count=len(single))


# --- level 3: across annotators

def _across(corpora: list[CorefCorpus], names: list[str]) -> Iterator[Incident]:
    every = list(dict.fromkeys(n for c in corpora for n in c.documents))
    for c, who in zip(corpora, names, strict=True):
        lacking = [n for n in every if n not in c.documents]
        for n in lacking:
            has = [w for d, w in zip(corpora, names, strict=True) if n in d.documents]
            yield Incident("coref-missing-document",
                           f"document {n} is in the annotation of {', '.join(has)} but not "
                           f"in this one; give every annotator the same documents", c.path,
                           None, n, annotator=who)
    first_of: dict[str, tuple[CorefDocument, str]] = {}
    for c, who in zip(corpora, names, strict=True):
        for n, doc in c.documents.items():
            first_of.setdefault(n, (doc, who))
    for c, who in zip(corpora, names, strict=True):
        for n, doc in c.documents.items():
            ref, ref_who = first_of[n]
            if ref is doc:
                continue
            yield from _tokens_against(doc, who, ref, ref_who)
    for n in every:
        holders = [(c.documents[n], w) for c, w in zip(corpora, names, strict=True)
                   if n in c.documents]
        if len(holders) < 2:
            continue
        marked: Counter[tuple[tuple[int, int], ...]] = Counter()
        for doc, _ in holders:
            marked.update({m.spans for m in doc.mentions})
        for doc, who in holders:
            alone = [m for m in doc.mentions if marked[m.spans] == 1]
            if alone:
                yield Incident("coref-mentions-one-annotator",
                               f"document {n}: {len(alone)} of {len(doc.mentions)} mention(s) "
                               f"only {who} marked (the first at {_where(doc, alone[0])})",
                               doc.path, alone[0].line, n, str(alone[0].start), who,
                               count=len(alone))


def _tokens_against(doc: CorefDocument, who: str, ref: CorefDocument, ref_who: str
                    ) -> Iterator[Incident]:
    if len(doc.tokens) != len(ref.tokens):
        yield Incident("coref-token-count",
                       f"document {doc.name}: {len(doc.tokens)} tokens here but "
                       f"{len(ref.tokens)} in the annotation of {ref_who} ({ref.path}); the "
                       "annotators must share the tokens", doc.path, doc.line, doc.name,
                       annotator=who)
        return
    if doc.tokens == ref.tokens or not all(doc.tokens) or not all(ref.tokens):
        return  # tokens not given (CoNLL lines of two columns) are not compared
    for k, (a, b) in enumerate(zip(ref.tokens, doc.tokens, strict=True)):
        if a != b:
            line = doc.token_lines[k] if k < len(doc.token_lines) else doc.line
            yield Incident("coref-token-text",
                           f"document {doc.name}: token {k} is {b!r} here but {a!r} in the "
                           f"annotation of {ref_who} ({ref.path})", doc.path, line, doc.name,
                           str(k), who)
