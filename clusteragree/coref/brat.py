"""BRAT standoff coreference: ``.ann`` files over a ``.txt`` text.

As in the doubly annotated corpus of ../shared/corpora/coref-multi-annotator/participant-analysis:
``T<n>\\tMention <start> <end>[;<start> <end>...]\\t<surface>`` marks a mention by 0-based,
end-exclusive character offsets (discontinuous fragments separated by ``;``), and
``*\\tCoreference T<a> T<b> ...`` puts mentions in one chain (one line per chain; ids may be
defined later in the file). ``#`` lines are notes. A mention in no chain is a singleton.

The document's tokens are its characters (mentions are often parts of words, such as
morphemes), and its words are the runs of non-space characters; word units take the chain of the
mention that covers a word (see clusteragree.coref.agreement).

Every entity type is read as mentions unless ``types`` chooses; relations whose type is named
by ``relations`` link their two arguments into one chain; everything else (other types,
relations, events, attributes, normalisations, notes) is counted and reported. Two text-bound
annotations of the same characters are one mention (the first id kept; LitBank marks every
mention once with its type and again with its chain): reported as ``repaired``, and the chains
naming either id are one chain (``merged`` where that joins two chains as written). Offsets count
the characters of the text as written (a CRLF line end is two); the ``.ann`` lines may end in LF,
CRLF or CR. Every other problem is an :class:`InputError` with the file and line: offsets outside
the text or beyond any integer, a surface that is not the text at its offsets, a chain naming an
unknown mention, a mention in two chains, a line that is not T, *, # or R/E/A/N. Under strict
reading every kind of notice of a file goes to the ledger before the file is refused.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from ..errors import InputError, ParameterTypeError, Tally, option
from ..inputs import (
    BRAT_TEXT_BOUND,
    CR_MIXED,
    brat_offsets,
    decode,
    iter_lines,
    line_ends,
    read_bytes,
)
from .model import CorefCorpus, CorefDocument, Mention
from .reading import refusal

__all__ = ["read_brat", "read_brat_dir"]

_R = re.compile(r"^(R[^\t ]+)\t(\S+) Arg1:(\S+) Arg2:(\S+)\s*$")
#: The repair of two text-bound annotations of the same characters, and the merge it can make.
_SAME_SPANS = ("text-bound annotations of characters marked before read as that mention (the "
               "first id kept; a chain naming either id names it)")
_JOINED = ("chains joined: they name the same characters under two ids (text-bound "
           "annotations of the same characters)")
_KINDS = {"R": "relations", "E": "events", "A": "attributes", "N": "normalisations",
          "#": "notes"}


def _read(path: Path, what: str, encoding: str | None) -> str:
    raw = read_bytes(path, what=what)
    return decode(raw, str(path), encoding=encoding)  # no newline translation: offsets hold


class _Chains:
    """Union-find over mention ids."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        root = x
        while self.parent.get(root, root) != root:
            root = self.parent[root]
        while x != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def read_brat(
    ann: str | os.PathLike[str], text: str | os.PathLike[str] | None = None, *,
    types: Sequence[str] | None = None, relations: Sequence[str] = (),
    encoding: str | None = None,
) -> CorefDocument:
    """Read one BRAT ``.ann`` file and its text (default: the ``.txt`` beside it).

    Parameters
    ----------
    ann : str or os.PathLike
        The ``.ann`` standoff file; its stem names the document.
    text : str or os.PathLike, optional
        The annotated text (default: the ``.txt`` file of the same stem beside ``ann``).
    types : sequence of str, optional
        The entity types that are mentions (default: every type). Text-bound annotations of
        other types are counted and reported (``skipped``).
    relations : sequence of str, default=()
        Relation types (``R`` lines) whose two arguments corefer: they join the chains of the
        ``*`` equivalence lines. Other relations, events, attributes, normalisations and notes
        are counted and reported (``ignored``).
    encoding : str, optional
        Of both files (default UTF-8). Offsets are in characters of the text as written: a
        CRLF line end is two characters.

    Returns
    -------
    CorefDocument
        Its tokens are the characters of the text and its words the runs of non-space
        characters; each mention's entity is ``chain-<first id>`` of its chain (the smallest
        id in string order), a mention in no chain being a chain of its own.

        Two text-bound annotations of the same characters are one mention, named by the first
        id (``repaired``); chains naming either id are one chain (``merged`` where that joins
        two).

    Raises
    ------
    InputError
        Offsets outside the text, a surface that is not the text at its offsets, a mention id
        defined twice, a chain or relation naming an unknown mention, a mention in two chains,
        a line that BRAT does not define; each with the file and line.
    ParameterTypeError
        ``types`` or ``relations`` given as one string.

    References
    ----------
    Stenetorp, P., Pyysalo, S., Topić, G., Ohta, T., Ananiadou, S., Tsujii, J. (2012). brat:
    a web-based tool for NLP-assisted text annotation. Proceedings of the Demonstrations at
    EACL 2012, pp. 102-107.

    brat standoff format (brat.nlplab.org/standoff.html): ``T`` text-bound annotations with
    character offsets, ``*`` equivalence lines, ``R`` relations, ``#`` notes.

    docs/coref.md, "Reading" and "Input checks and warnings".

    Examples
    --------
    "Mary met John. He smiled.": Mary is characters 0-3, John 9-12 and He 15-16 (offsets
    end exclusive); the ``*`` line puts He and John in one chain, and Mary is alone:

    >>> import pathlib, tempfile
    >>> ann = "\\n".join(["T1\\tMention 0 4\\tMary", "T2\\tMention 9 13\\tJohn",
    ...                  "T3\\tMention 15 17\\tHe", "*\\tCoreference T3 T2", ""])
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = (pathlib.Path(tmp) / "a.txt").write_text("Mary met John. He smiled.")
    ...     _ = (pathlib.Path(tmp) / "a.ann").write_text(ann)
    ...     doc = read_brat(pathlib.Path(tmp) / "a.ann")
    >>> doc.name, len(doc.tokens)
    ('a', 25)
    >>> [(m.start, m.end, m.entity) for m in doc.mentions]
    [(0, 4, 'chain-T1'), (9, 13, 'chain-T2'), (15, 17, 'chain-T2')]
    >>> doc.word_spans  # Mary, met, John., He, smiled.
    ((0, 4), (5, 8), (9, 14), (15, 17), (18, 25))
    """
    for what, value in (("types", types), ("relations", relations)):
        if isinstance(value, str):
            raise ParameterTypeError(f"{what} must be a list of type names, not one string")
    ann_path = Path(ann)
    txt_path = Path(text) if text is not None else ann_path.with_suffix(".txt")
    content = _read(txt_path, "text", encoding)
    name = str(ann_path)
    tally = Tally(name)
    annotation, cr_line, cr_count = line_ends(_read(ann_path, "annotation", encoding))
    tally.add("converted", CR_MIXED, cr_line, cr_count)
    wanted = None if types is None else set(types)
    linking = set(relations)
    mentions: dict[str, tuple[tuple[tuple[int, int], ...], int]] = {}
    first_of: dict[tuple[tuple[int, int], ...], str] = {}  # spans -> the id that marked them
    alias: dict[str, str] = {}  # an id marking spans marked before -> the first id
    chains: list[tuple[list[str], int]] = []
    links: list[tuple[str, str, int]] = []
    other_types: Counter[str] = Counter()
    types_line: list[int] = []  # the first line of a type not read

    def skipped_types() -> None:
        """Count the annotations of types not read (once, their types known)."""
        if other_types:
            shown = ", ".join(f"{k} ({n})" for k, n in sorted(other_types.items()))
            tally.add("skipped", f"text-bound annotations of types not read as mentions: "
                      f"{shown} ({option('types')} chooses)", types_line[0],
                      sum(other_types.values()))
            other_types.clear()

    def fail(message: str, line: int) -> InputError:
        skipped_types()
        return refusal(tally, InputError(message, name, line))
    for number, line in iter_lines(annotation):
        if not line.strip():
            continue
        if line.startswith("T"):
            m = BRAT_TEXT_BOUND.match(line)
            if not m:
                raise fail(f"cannot read the text-bound annotation {line[:60]!r}", number)
            tid, kind, offsets, surface = m.groups()
            if wanted is not None and kind not in wanted:
                other_types[kind] += 1
                types_line[:] = types_line or [number]
                continue
            try:
                spans = brat_offsets(tid, offsets, surface, content, path=name, line=number,
                                     text_path=txt_path)
            except InputError as err:
                skipped_types()
                raise refusal(tally, err) from None
            if tid in mentions:
                raise fail(f"{tid} is defined twice (first at line {mentions[tid][1]})", number)
            mentions[tid] = (spans, number)
            if spans in first_of:
                alias[tid] = first_of[spans]
                tally.add("repaired", _SAME_SPANS, number)
            else:
                first_of[spans] = tid
        elif line.startswith("*"):
            fields = line.split("\t")
            ids = fields[1].split()[1:] if len(fields) > 1 else []
            chains.append((ids, number))
        elif line.startswith("R") and (m := _R.match(line)) and m.group(2) in linking:
            links.append((m.group(3), m.group(4), number))
        elif line[0] in _KINDS:
            what = _KINDS[line[0]]
            if line[0] == "R":
                m = _R.match(line)
                what = f"relations of type {m.group(2)}" if m else "relations"
            hint = (f" ({option('relations')} names coreference relations)"
                    if what.startswith("relations") else "")
            # annotator notes comment on annotations; the others are annotations left out
            tally.add("note" if line[0] == "#" else "ignored", f"{what} not used{hint}", number)
        else:
            raise fail(f"a line BRAT does not define: {line[:40]!r}", number)
    del annotation
    plain, union = _Chains(), _Chains()  # the chains as written; joined through repeated spans
    seen_in: dict[str, int] = {}
    for ids, number in chains:
        for tid in ids:
            if tid not in mentions:
                raise fail(f"the chain names {tid}, which is not a mention read from the file "
                           "(an unknown id, or a type not read)", number)
            if tid in seen_in:
                raise fail(f"{tid} is in two chains (lines {seen_in[tid]} and {number})",
                           number)
            seen_in[tid] = number
            plain.union(ids[0], tid)
            union.union(alias.get(ids[0], ids[0]), alias.get(tid, tid))
    for a, b, number in links:
        for tid in (a, b):
            if tid not in mentions:
                raise fail(f"the relation names {tid}, which is not a mention read from the "
                           "file", number)
        plain.union(a, b)
        union.union(alias.get(a, a), alias.get(b, b))
    # Two chains (as written) that name the same characters under two ids become one.
    in_chain = set(seen_in) | {t for a, b, _ in links for t in (a, b)}
    joined = _Chains()
    for tid, first in alias.items():
        if tid in in_chain and first in in_chain:
            x, y = joined.find(plain.find(tid)), joined.find(plain.find(first))
            if x != y:
                joined.union(x, y)
                tally.add("merged", _JOINED, mentions[tid][1])
    skipped_types()
    tally.report()
    out = [Mention(spans, f"chain-{union.find(tid)}", number)
           for tid, (spans, number) in mentions.items() if tid not in alias]
    out.sort(key=lambda m: (m.start, -m.end))
    words = tuple((m.start(), m.end()) for m in re.finditer(r"\S+", content))
    return CorefDocument(ann_path.stem, tuple(content), tuple(out), name, 1, (), words)


def read_brat_dir(
    directory: str | os.PathLike[str], text_dir: str | os.PathLike[str] | None = None, *,
    types: Sequence[str] | None = None, relations: Sequence[str] = (),
    encoding: str | None = None,
) -> CorefCorpus:
    """Every ``.ann`` file of a directory; texts beside them or in ``text_dir`` (same stem).
    ``types``, ``relations`` and ``encoding`` as in :func:`read_brat`.

    Parameters
    ----------
    directory : str or os.PathLike
        One annotator's directory of ``.ann`` files (files with other suffixes are not read).
    text_dir : str or os.PathLike, optional
        Where the texts are, as ``<stem>.txt`` (default: beside each ``.ann``); lets several
        annotators' directories share one directory of texts.
    types : sequence of str, optional
        As in :func:`read_brat`.
    relations : sequence of str, default=()
        As in :func:`read_brat`.
    encoding : str, optional
        As in :func:`read_brat`.

    Returns
    -------
    CorefCorpus
        One document per ``.ann`` file, named by its stem, in file-name order; format
        ``"brat"``, named by ``directory``.

    Raises
    ------
    InputError
        No ``.ann`` file, a text not found (the message names ``text_dir``, on the command
        line ``--text-dir``), or no mention in any of them (nothing to compare), besides the
        errors of :func:`read_brat`.

    References
    ----------
    brat standoff format (brat.nlplab.org/standoff.html).

    The doubly annotated corpus github.com/cmerwich/participant-analysis: one directory of
    ``.ann`` files per annotator (``A/``, ``B/``) over one directory of texts (``text/``).

    docs/coref.md, "Reading".

    Examples
    --------
    Two annotators' directories over one shared text directory; annotator A puts both
    mentions in one chain, annotator B leaves them apart:

    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     root = pathlib.Path(tmp)
    ...     for d in ("text", "A", "B"):
    ...         (root / d).mkdir()
    ...     _ = (root / "text" / "p1.txt").write_text("Mary said she left.")
    ...     marks = "T1\\tMention 0 4\\tMary\\nT2\\tMention 10 13\\tshe\\n"
    ...     _ = (root / "A" / "p1.ann").write_text(marks + "*\\tCoreference T1 T2\\n")
    ...     _ = (root / "B" / "p1.ann").write_text(marks)
    ...     a = read_brat_dir(root / "A", root / "text")
    ...     b = read_brat_dir(root / "B", root / "text")
    >>> list(a.documents), a.format
    (['p1'], 'brat')
    >>> [[len(c) for c in x.documents["p1"].clusters()] for x in (a, b)]
    [[2], [1, 1]]
    """
    folder = Path(directory)
    if not folder.is_dir():
        raise InputError("not a directory of BRAT .ann files", path=str(folder))
    try:
        files = sorted(folder.glob("*.ann"))
    except OSError as err:
        raise InputError(f"cannot list the directory: {err.strerror}", path=str(folder)) \
            from None
    if not files:
        raise InputError("no .ann files in the directory", path=str(folder))
    docs = {}
    for ann in files:
        txt = Path(text_dir if text_dir is not None else folder) / (ann.stem + ".txt")
        if not txt.exists():
            where = (f"in {option('text_dir', os.fspath(text_dir))}" if text_dir is not None
                     else f"beside the .ann files; give the directory of the texts with "
                     f"{option('text_dir')}")
            raise InputError(f"no such text for {ann.name}: the texts are looked for {where}",
                             path=str(txt))
        doc = read_brat(ann, txt, types=types, relations=relations, encoding=encoding)
        docs[doc.name] = doc
    if not any(doc.mentions for doc in docs.values()):
        chosen = "the types " + ", ".join(types) if types is not None else "any type"
        raise InputError(
            f"nothing to compare: no mention of {chosen} in the {len(files)} .ann file(s); "
            "the warnings list the types found (choose them with --types)", path=str(folder))
    return CorefCorpus(docs, str(folder), {}, "brat")
