"""Writers of what other tools read: CoNLL-2012, CorefUD, BRAT and the long CSV of ``table``.

Each writer takes :class:`~clusteragree.exports.model.AnnotatedDocument` objects (one
annotator's, except the CSV, which holds every annotator) and reports in the warnings ledger
everything its format cannot hold, with counts: nothing is left out in silence, and strict
reading (``--strict``) refuses a conversion that loses anything.

* :func:`write_conll2012`: the coreference of each document on tokens
  (:mod:`clusteragree.exports.tokens`), the columns of the CoNLL-2012 data, coreference in the
  last column (``(N``, ``N)``, ``(N)``, joined by ``|``), as the official scorer reads it.
  Discontinuous mentions are written as their extent (default) or left out; chains of one
  mention are written (default; CoNLL-2012 data have none) or left out.
* :func:`write_corefud`: CoNLL-U with ``Entity=`` in MISC (CorefUD 1.0 brackets, discontinuous
  parts ``e3[1/2]``, the entity type from the labels), every mention and singleton kept.
* :func:`write_brat`: ``NAME.txt`` and ``NAME.ann`` per document: every span (``T``), chains
  (``*`` lines) and relations (``R``); document labels and features are left out.
* :func:`write_codings_csv`: ``coder,unit,labels`` from document labels.

References
----------
CoNLL-2012 shared task, data description (conll.cemantix.org/2012/data.html).
CoNLL reference coreference scorer v8.01 (github.com/conll/reference-coreference-scorers).
CorefUD 1.x format (ufal.mff.cuni.cz/corefud); Udapi ``udapi/core/coref.py`` (the order of
brackets on a word: closing first, then opening, longer first, then one-word mentions).
brat standoff format (brat.nlplab.org/standoff.html).
docs/formats.md, "Writing".
"""

from __future__ import annotations

import csv
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from ..errors import InputError, ParameterError, Tally, option
from .coreference import (
    Sources,
    TokenDocument,
    TokenMention,
    chain_sources,
    chains_of,
    token_documents,
)
from .model import AnnotatedDocument

__all__ = ["Written", "safe_name", "write_brat", "write_codings_csv", "write_conll2012",
           "write_corefud"]

_PART = re.compile(r"^\(.*\); part [0-9]+$")
_UNSAFE = re.compile(r"[^\w.@+=,-]")
#: Characters an entity type of CorefUD cannot hold (field and bracket syntax, MISC, columns).
_ETYPE_UNSAFE = re.compile(r"[-=|()\[\]\s]")


@dataclass(frozen=True)
class Written:
    """What a writer wrote: documents, tokens (CoNLL, CorefUD), spans or mentions, chains of
    two or more mentions (CoNLL, CorefUD, BRAT), rows (CSV)."""

    documents: int = 0
    tokens: int = 0
    mentions: int = 0
    chains: int = 0
    rows: int = 0


def _name(handle: IO[str]) -> str:
    return str(getattr(handle, "name", "") or "")


def write_conll2012(documents: Sequence[AnnotatedDocument], handle: IO[str], *,
                    layer: str | None = None, chain_layer: str | None = None,
                    singletons: str = "keep", discontinuous: str = "extent",
                    tokens_from: Sequence[AnnotatedDocument] | None = None) -> Written:
    """Write one annotator's coreference as CoNLL-2012.

    Each document is ``#begin document (NAME); part 000`` (a name already of that form, or of a
    document read from CoNLL, is kept),
    a line per token with the twelve columns of the CoNLL-2012 data (document, part, word
    number, word, then ``-`` for POS, parse, lemma, frameset, sense and speaker, ``*`` for
    named entities) and the coreference column last, a blank line after each sentence, and
    ``#end document``. Chains are numbered 1, 2, ... in each document by first mention.

    Parameters
    ----------
    documents : sequence of AnnotatedDocument
        One annotator's documents.
    handle : text file
        Where to write (open it with ``newline=""`` or ``"\\n"``).
    layer, chain_layer : str, optional
        Which spans are mentions and what links them
        (:func:`clusteragree.exports.coreference.select`).
    singletons : {"keep", "remove"}, default="keep"
        Chains of one mention: written as ``(N)`` (the official scorer reads and scores them;
        ``coref --singletons remove`` leaves them out of the metrics as the CoNLL-2012
        evaluation did), or left out here (``skipped``, counted). Either way the count is said.
    discontinuous : {"extent", "drop"}, default="extent"
        CoNLL-2012 has no discontinuous mentions: written from their first token to their
        last (``converted``; the chain keeps its mention), or left out (``skipped``).
    tokens_from : sequence of AnnotatedDocument, optional
        Every annotator's documents, so that each annotator's file has the same tokens.

    Returns
    -------
    Written

    References
    ----------
    CoNLL-2012 shared task, data description (conll.cemantix.org/2012/data.html).
    CoNLL reference coreference scorer v8.01, ``lib/CorScorer.pm`` (reads the last column).

    Examples
    --------
    >>> import io, warnings
    >>> from clusteragree.exports.model import Span, Relation
    >>> doc = AnnotatedDocument("d", "a", "Mary met John. He smiled.",
    ...     spans=(Span("1", 0, 4, "m", None), Span("2", 9, 13, "m", None),
    ...            Span("3", 15, 17, "m", None)), relations=(Relation("3", "2", "r", None),))
    >>> out = io.StringIO()
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     written = write_conll2012([doc], out)
    >>> print(out.getvalue())  # doctest: +NORMALIZE_WHITESPACE
    #begin document (d); part 000
    d 0 0 Mary - - - - - - * (1)
    d 0 1 met - - - - - - * -
    d 0 2 John - - - - - - * (2)
    d 0 3 . - - - - - - * -
    d 0 4 He - - - - - - * (2)
    d 0 5 smiled. - - - - - - * -
    <BLANKLINE>
    #end document
    >>> written.mentions, written.chains
    (3, 1)
    """
    if discontinuous not in ("extent", "drop"):
        raise ParameterError(f"{option('discontinuous')} must be extent or drop (CoNLL-2012 "
                             f"has no discontinuous mentions). Got {discontinuous!r}.",
                             params=("discontinuous",))
    tally = Tally(_name(handle))
    docs = token_documents(documents, layer=layer, chain_layer=chain_layer,
                           discontinuous=discontinuous, singletons=singletons, crossing="drop",
                           tokens_from=tokens_from, tally=tally)
    tokens = mentions = chains = alone = 0
    for tdoc in docs:
        name, column, part = _conll_name(tdoc.doc)
        handle.write(f"#begin document {name}\n")
        cells = _cells(tdoc, len(tdoc.layout.words), lambda m, k: str(m.chain + 1), "|")
        for first, last in tdoc.layout.sentences:
            for k in range(first, last):
                handle.write(f"{column}\t{part}\t{k - first}\t{tdoc.layout.words[k]}\t-\t-\t-"
                             f"\t-\t-\t-\t*\t{cells[k] or '-'}\n")
            handle.write("\n")
        handle.write("#end document\n")
        tokens += len(tdoc.layout.words)
        mentions += len(tdoc.mentions)
        sizes = _sizes(tdoc)
        chains += sum(n > 1 for n in sizes)
        alone += sum(n == 1 for n in sizes)
    if singletons == "keep":
        tally.add("note", "chains of one mention written as (N) (CoNLL-2012 data have none; "
                  f"{option('singletons', 'remove')} leaves them out)", count=alone)
    tally.report()
    return Written(len(docs), tokens, mentions, chains)


def _conll_name(doc: AnnotatedDocument) -> tuple[str, str, int]:
    """The name on the ``#begin document`` line, the document column and the part number: a
    document read from CoNLL keeps its name; any other is named ``(NAME); part 000``."""
    name = " ".join(doc.name.split())
    if doc.tool != "conll" and not _PART.match(name):
        name = f"({name}); part 000"
    found = _PART.match(name)
    inner = name[1:name.rindex(");")] if found else name.split(";")[0]
    column = re.sub(r"\s", "_", inner) or "-"
    part = int(name.rsplit(" ", 1)[1]) if found else 0
    return name, "_" + column if column.startswith("#") else column, part


def _sizes(tdoc: TokenDocument) -> list[int]:
    sizes = [0] * len(tdoc.labels)
    for m in tdoc.mentions:
        sizes[m.chain] += 1
    return sizes


def _cells(tdoc: TokenDocument, n: int, eid: Callable[[TokenMention, int], str], sep: str,
           opening: Callable[[TokenMention, int], str] | None = None) -> list[str]:
    """The bracket cell of every token: closing brackets (shorter mention first), then opening
    ones (longer first), then one-token mentions. ``eid(m, k)`` names part ``k`` of mention
    ``m`` in a closing bracket; ``opening(m, k)`` in an opening one (default: the same)."""
    closes: list[list[tuple[int, str]]] = [[] for _ in range(n)]
    opens: list[list[tuple[int, str]]] = [[] for _ in range(n)]
    singles: list[list[str]] = [[] for _ in range(n)]
    for m in tdoc.mentions:
        for k, (s, e) in enumerate(m.parts):
            name = eid(m, k)
            body = opening(m, k) if opening is not None else name
            if e - s == 1:
                singles[s].append(f"({body})")
            else:
                opens[s].append((e - s, f"({body}"))
                closes[e - 1].append((e - s, f"{name})"))
    out = []
    for k in range(n):
        chunks = [c for _, c in sorted(closes[k], key=lambda x: x[0])]
        chunks += [c for _, c in sorted(opens[k], key=lambda x: -x[0])]
        chunks += singles[k]
        out.append(sep.join(chunks))
    return out


def write_corefud(documents: Sequence[AnnotatedDocument], handle: IO[str], *,
                  layer: str | None = None, chain_layer: str | None = None,
                  tokens_from: Sequence[AnnotatedDocument] | None = None) -> Written:
    """Write one annotator's coreference as CorefUD (CoNLL-U, ``Entity=`` in MISC).

    The file starts with ``# global.Entity = eid-etype-head-other``; each document with
    ``# newdoc id = NAME``, each sentence with ``# sent_id`` (unique in the file) and
    ``# text``; a token line has its FORM, ``_`` in the other columns but MISC, which holds
    ``Entity=`` and ``SpaceAfter=No`` where the next token follows without a space. Entities are
    ``e1``, ``e2``, ... through the file; the entity type is the chain's label (or the label all
    its spans share), its characters that CorefUD cannot hold (``-``, brackets, ``|``, ``=``,
    spaces) written ``_`` (``converted``); the head is not written (the format makes it optional;
    Udapi then takes the first word). Discontinuous mentions are written in parts
    (``e3[1/2]``), singletons kept; a mention crossing another of its entity cannot be written
    and is left out (``skipped``).

    Parameters
    ----------
    documents : sequence of AnnotatedDocument
        One annotator's documents.
    handle : text file
        Where to write.
    layer, chain_layer : str, optional
        As in :func:`write_conll2012`.
    tokens_from : sequence of AnnotatedDocument, optional
        As in :func:`write_conll2012`.

    Returns
    -------
    Written

    References
    ----------
    Nedoluzhko, A. et al. (2022). CorefUD 1.0: Coreference meets Universal Dependencies.
    Proceedings of LREC 2022. Udapi, ``udapi/core/coref.py`` (the CorefUD 1.0 brackets).

    Examples
    --------
    >>> import io, warnings
    >>> from clusteragree.exports.model import Span, Chain
    >>> doc = AnnotatedDocument("d1", "a", "Mary saw her cat.",
    ...     spans=(Span("1", 0, 4, "m", "PER"), Span("2", 9, 12, "m", "PER"),
    ...            Span("3", 9, 16, "m", "ANIMAL")), chains=(Chain("c", "k", ("1", "2")),))
    >>> out = io.StringIO()
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     _ = write_corefud([doc], out)
    >>> print(out.getvalue().replace("\\t", " "), end="")
    # global.Entity = eid-etype-head-other
    # newdoc id = d1
    # sent_id = d1-1
    # text = Mary saw her cat.
    1 Mary _ _ _ _ _ _ _ Entity=(e1-PER)
    2 saw _ _ _ _ _ _ _ _
    3 her _ _ _ _ _ _ _ Entity=(e2-ANIMAL(e1-PER)
    4 cat _ _ _ _ _ _ _ Entity=e2)|SpaceAfter=No
    5 . _ _ _ _ _ _ _ _
    <BLANKLINE>
    """
    tally = Tally(_name(handle))
    docs = token_documents(documents, layer=layer, chain_layer=chain_layer,
                           discontinuous="keep", singletons="keep", crossing="drop",
                           tokens_from=tokens_from, tally=tally)
    handle.write("# global.Entity = eid-etype-head-other\n")
    offset = 0
    tokens = mentions = chains = changed = 0
    sent_ids: set[str] = set()
    for tdoc in docs:
        types = []
        for label in tdoc.labels:
            clean = _ETYPE_UNSAFE.sub("_", label) if label else ""
            changed += clean != (label or "")
            types.append(clean)
        eid, opening = _corefud_names(offset, types)
        cells = _cells(tdoc, len(tdoc.layout.words), eid, "", opening)
        name = " ".join(tdoc.doc.name.split()) or "-"
        handle.write(f"# newdoc id = {name}\n")
        lay = tdoc.layout
        for number, (first, last) in enumerate(lay.sentences, start=1):
            sent_id = f"{name.replace(' ', '_')}-{number}"
            while sent_id in sent_ids:
                sent_id += "_"
            sent_ids.add(sent_id)
            glued = [lay.tokens[k][1] == lay.tokens[k + 1][0] if k + 1 < last else True
                     for k in range(first, last)]
            text = "".join(lay.words[k] + ("" if glued[k - first] else " ")
                           for k in range(first, last))
            handle.write(f"# sent_id = {sent_id}\n# text = {text}\n")
            for k in range(first, last):
                misc = []
                if cells[k]:
                    misc.append(f"Entity={cells[k]}")
                if glued[k - first] and k + 1 < last:
                    misc.append("SpaceAfter=No")
                handle.write(f"{k - first + 1}\t{lay.words[k]}\t_\t_\t_\t_\t_\t_\t_\t"
                             f"{'|'.join(misc) or '_'}\n")
            handle.write("\n")
        offset += len(tdoc.labels)
        tokens += len(lay.words)
        mentions += len(tdoc.mentions)
        chains += sum(n > 1 for n in _sizes(tdoc))
    tally.add("converted", "entity types with characters CorefUD cannot hold (- ( ) [ ] | = "
              "spaces) written with _ for them", count=changed)
    tally.report()
    return Written(len(docs), tokens, mentions, chains)


def _corefud_names(offset: int, types: list[str]
                   ) -> tuple[Callable[[TokenMention, int], str],
                              Callable[[TokenMention, int], str]]:
    """How a part of a mention is named in a closing bracket (``e7``, ``e7[1/2]``) and in an
    opening one (with the entity type: ``e7-PER``)."""
    def eid(m: TokenMention, k: int) -> str:
        tail = f"[{k + 1}/{len(m.parts)}]" if len(m.parts) > 1 else ""
        return f"e{offset + m.chain + 1}{tail}"

    def opening(m: TokenMention, k: int) -> str:
        etype = types[m.chain]
        return eid(m, k) + (f"-{etype}" if etype else "")
    return eid, opening


def safe_name(name: str) -> str:
    """A file name for ``name``: characters other than letters, digits and ``. @ + = , -``
    written ``_``, and no leading dot.

    Examples
    --------
    >>> safe_name("news/part 1.txt"), safe_name(".hidden"), safe_name("anna@example.org")
    ('news_part_1.txt', '_hidden', 'anna@example.org')
    """
    out = _UNSAFE.sub("_", name) or "_"
    return "_" + out[1:] if out.startswith(".") else out


def write_brat(documents: Sequence[AnnotatedDocument], directory: str | os.PathLike[str], *,
               chain_layer: str | None = None,
               decided_from: Sequence[AnnotatedDocument] | None = None) -> Written:
    """Write one annotator's documents as BRAT standoff: ``NAME.txt`` and ``NAME.ann`` each.

    Every span of every layer is a text-bound annotation ``T<n>`` whose type is its label
    (``Mention`` without one; whitespace written ``_``), with its fragments separated by ``;``
    and its covered text (line ends written as spaces, as BRAT shows them). Chains (the
    export's, or the connected components of its relations:
    :func:`clusteragree.exports.coreference.select`) are ``*\\tCoreference T.. T..`` lines,
    relations ``R<n>\\tLABEL Arg1:T.. Arg2:T..``. Zero-length spans and fragments cannot be
    written (``skipped``); document labels, span features and relation attributes are left out
    (``ignored``). A document's name becomes its file stem (:func:`safe_name`).

    Parameters
    ----------
    documents : sequence of AnnotatedDocument
        One annotator's documents (a document without text is left out, ``skipped``).
    directory : str or os.PathLike
        Created if needed; files already there are replaced.
    chain_layer : str, optional
        As in :func:`write_conll2012`.
    decided_from : sequence of AnnotatedDocument, optional
        The export's documents, over which the chain layer is decided (default:
        ``documents``).

    Returns
    -------
    Written

    Raises
    ------
    InputError
        Two documents whose names give the same file name, or a directory that cannot be
        written.

    References
    ----------
    brat standoff format (brat.nlplab.org/standoff.html).

    Examples
    --------
    >>> import pathlib, tempfile, warnings
    >>> from clusteragree.exports.model import Span, Relation
    >>> doc = AnnotatedDocument("d", "a", "Mary met John.\\nHe smiled.",
    ...     spans=(Span("1", 0, 4, "m", "PER"), Span("2", 9, 13, "m", "PER"),
    ...            Span("3", 15, 17, "m", None)), relations=(Relation("3", "2", "coref", None),))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     with warnings.catch_warnings():
    ...         warnings.simplefilter("ignore")
    ...         _ = write_brat([doc], tmp)
    ...     print((pathlib.Path(tmp) / "d.ann").read_text())
    T1\tPER 0 4\tMary
    T2\tPER 9 13\tJohn
    T3\tMention 15 17\tHe
    *\tCoreference T2 T3
    R1\tcoref Arg1:T3 Arg2:T2
    <BLANKLINE>
    """
    folder = Path(directory)
    tally = Tally(os.fspath(folder))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(f"cannot make the directory: {err.strerror}", folder) from None
    source = chain_sources(list(decided_from) if decided_from is not None else documents,
                           chain_layer)
    stems: dict[str, str] = {}
    written = spans_n = chains_n = 0
    for doc in documents:
        if doc.text is None:
            tally.add("skipped", "documents without text left out (BRAT needs the text)")
            continue
        stem = safe_name(doc.name)
        if stem in stems:
            raise InputError(f"documents {stems[stem]!r} and {doc.name!r} would both be written "
                             f"as {stem}.ann; rename one", folder)
        stems[stem] = doc.name
        lines, n_spans, n_chains = _brat_lines(doc, source, tally)
        _write_text(folder / f"{stem}.txt", doc.text)
        _write_text(folder / f"{stem}.ann", "".join(f"{line}\n" for line in lines))
        written += 1
        spans_n += n_spans
        chains_n += n_chains
    tally.add("converted", "documents whose names were changed to make file names",
              count=sum(stem != name for stem, name in stems.items()))
    tally.report()
    return Written(written, 0, spans_n, chains_n)


def _write_text(path: Path, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    except OSError as err:
        raise InputError(f"cannot write: {err.strerror}", path) from None


def _brat_lines(doc: AnnotatedDocument, source: Sources, tally: Tally
                ) -> tuple[list[str], int, int]:
    assert doc.text is not None
    text = doc.text
    ids: dict[str, str] = {}
    lines = []
    renamed = 0
    for span in sorted(doc.spans, key=lambda s: (s.start, -s.end)):
        parts = [(s, e) for s, e in span.parts if e > s]
        if len(parts) < len(span.parts) and parts:
            tally.add("skipped", "zero-length fragments left out (BRAT cannot hold them)",
                      count=len(span.parts) - len(parts))
        if not parts:
            tally.add("skipped", "zero-length spans left out (BRAT cannot hold them)")
            continue
        kind = re.sub(r"\s", "_", span.label) if span.label else "Mention"
        renamed += bool(span.label) and kind != span.label
        tid = f"T{len(ids) + 1}"
        ids[span.id] = tid
        offsets = ";".join(f"{s} {e}" for s, e in parts)
        surface = " ".join(text[s:e] for s, e in parts)
        surface = surface.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
        lines.append(f"{tid}\t{kind} {offsets}\t{surface}")
        tally.add("ignored", "span features left out (BRAT attributes are not written)",
                  count=bool(span.features))
    tally.add("converted", "span labels with whitespace written with _ for it (BRAT types)",
              count=renamed)
    n_chains = 0
    for members, _ in chains_of(doc, source, Tally("")):
        kept = [ids[i] for i in members if i in ids]
        if len(kept) > 1:
            lines.append("*\tCoreference " + " ".join(kept))
            n_chains += 1
    for k, rel in enumerate(doc.relations, start=1):
        if rel.source not in ids or rel.target not in ids:
            tally.add("skipped", "relations whose spans were left out, left out")
            continue
        kind = re.sub(r"\s", "_", rel.label or rel.layer) or "Relation"
        lines.append(f"R{k}\t{kind} Arg1:{ids[rel.source]} Arg2:{ids[rel.target]}")
    tally.add("ignored", "document labels left out (BRAT has no labels of a whole document)",
              count=len(doc.labels))
    return lines, len(ids), n_chains


def write_codings_csv(documents: Iterable[AnnotatedDocument], handle: IO[str], *,
                      sep: str = ";", unlabelled: str = "missing") -> Written:
    """Write the document labels of every annotator as the long CSV that ``table`` reads.

    One row per annotator (``coder``), document (``unit``) and label layer: ``labels`` holds the
    layer's labels of that document, sorted, joined by ``sep``. With several label layers the
    file has a ``document`` column holding the layer, so that ``table`` gives alpha per layer
    (its rows "per document") and pooled; with one layer it has none.

    Parameters
    ----------
    documents : iterable of AnnotatedDocument
        Every annotator's documents.
    handle : text file
        Where to write (open it with ``newline=""``).
    sep : str, default=";"
        The separator of a set of labels (``table --sep``); ``"none"``: one label per field
        (a document with several labels of a layer is refused).
    unlabelled : {"missing", "empty"}, default="missing"
        A document an annotator gave no label of a layer: no row (missing, counted in a
        ``note``), or a row with the empty set (an empty ``labels`` field).

    Returns
    -------
    Written

    Raises
    ------
    InputError
        A label that holds ``sep`` (choose another separator), or a document given twice for
        one annotator.

    References
    ----------
    docs/cli.md, ``table`` and its input format ``codings``.

    Examples
    --------
    >>> import io
    >>> from clusteragree.exports.model import DocumentLabel
    >>> docs = [AnnotatedDocument("t1", "ann", None, labels=(DocumentLabel("topic", "sport"),)),
    ...         AnnotatedDocument("t1", "bob", None, labels=(DocumentLabel("topic", "news"),
    ...                                                      DocumentLabel("topic", "sport")))]
    >>> out = io.StringIO()
    >>> write_codings_csv(docs, out).rows
    2
    >>> print(out.getvalue().replace("\\r", ""))
    coder,unit,labels
    ann,t1,sport
    bob,t1,news;sport
    <BLANKLINE>
    """
    if not isinstance(sep, str) or not sep:
        raise ParameterError(f"{option('sep')} must be a non-empty string", params=("sep",))
    if unlabelled not in ("missing", "empty"):
        raise ParameterError(f"{option('unlabelled')} must be missing or empty. Got "
                             f"{unlabelled!r}.", params=("unlabelled",))
    docs = list(documents)
    tally = Tally(_name(handle))
    layers = list(dict.fromkeys(lab.layer for d in docs for lab in d.labels))
    seen: dict[tuple[str, str], str] = {}
    writer = csv.writer(handle, lineterminator="\n")
    writer.writerow(["coder", "unit", "labels", *(["document"] if len(layers) > 1 else [])])
    rows = missing = stripped = 0
    for doc in docs:
        key = (doc.annotator.strip(), doc.name.strip())
        if key in seen:
            raise InputError(f"annotator {doc.annotator!r} has document {doc.name!r} twice "
                             f"(also in {seen[key] or 'the export'})", doc.path or None,
                             doc.line)
        seen[key] = doc.path
        stripped += key != (doc.annotator, doc.name)
        for layer in layers:
            values = []
            for lab in doc.labels:
                if lab.layer != layer:
                    continue
                if sep != "none" and sep in lab.label:
                    raise InputError(f"the label {lab.label!r} holds the separator {sep!r}; "
                                     f"choose another with {option('sep')}",
                                     doc.path or None, lab.line)
                value = lab.label.strip()
                stripped += value != lab.label
                if value:
                    values.append(value)
                else:
                    tally.add("skipped", "empty labels left out", lab.line)
            if not values and unlabelled == "missing":
                missing += 1
                continue
            values = sorted(set(values))
            if sep == "none" and len(values) > 1:
                raise InputError(f"document {doc.name!r} has {len(values)} labels of the layer "
                                 f"{layer!r} by {doc.annotator!r} ({', '.join(values)}): a "
                                 f"field read whole holds one; give a separator with "
                                 f"{option('sep')}", doc.path or None, doc.line)
            row = [key[0], key[1], values[0] if sep == "none" and values else sep.join(values)]
            writer.writerow(row + ([layer] if len(layers) > 1 else []))
            rows += 1
    tally.add("note", "documents without a label of a layer written as missing (no row)",
              count=missing)
    tally.add("converted", "names or labels with spaces at their ends written without them "
              "(table reads them so)", count=stripped)
    tally.report()
    return Written(len({d.name for d in docs}), 0, 0, 0, rows)
