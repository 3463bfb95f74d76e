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
relations, events, attributes, normalisations, notes) is counted and reported. Offsets count the
characters of the text as written (a CRLF line end is two). Every problem is an
:class:`InputError` with the file and line: offsets outside the text or beyond any integer, a
surface that is not the text at its offsets, a chain naming an unknown mention, a mention in two
chains, a line that is not T, *, # or R/E/A/N.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from ..errors import InputError, ParameterTypeError, notify
from ..inputs import decode, iter_lines, parse_int, read_bytes
from .model import CorefCorpus, CorefDocument, Mention

__all__ = ["read_brat", "read_brat_dir"]

_T = re.compile(r"^(T[^\t ]+)\t(\S+) ([0-9]+ [0-9]+(?:;[0-9]+ [0-9]+)*)\t(.*)$")
_R = re.compile(r"^(R[^\t ]+)\t(\S+) Arg1:(\S+) Arg2:(\S+)\s*$")
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
    wanted = None if types is None else set(types)
    linking = set(relations)
    mentions: dict[str, tuple[tuple[tuple[int, int], ...], int]] = {}
    chains: list[tuple[list[str], int]] = []
    links: list[tuple[str, str, int]] = []
    other_types: Counter[str] = Counter()
    ignored: Counter[str] = Counter()
    first_line: dict[str, int] = {}
    for number, line in iter_lines(_read(ann_path, "annotation", encoding)):
        if not line.strip():
            continue
        if line.startswith("T"):
            m = _T.match(line)
            if not m:
                raise InputError(f"cannot read the text-bound annotation {line[:60]!r}", name,
                                 number)
            tid, kind, offsets, surface = m.groups()
            if wanted is not None and kind not in wanted:
                other_types[kind] += 1
                first_line.setdefault("types", number)
                continue
            pairs = (pair.split() for pair in offsets.split(";"))
            spans = tuple(sorted(
                (parse_int(a, what=f"{tid} offset", path=name, line=number),
                 parse_int(b, what=f"{tid} offset", path=name, line=number)) for a, b in pairs))
            for s, e in spans:
                if not 0 <= s < e <= len(content):
                    raise InputError(f"{tid} offsets {s}-{e} are outside the text "
                                     f"({len(content)} characters, {txt_path})", name, number)
            found = " ".join(content[s:e] for s, e in spans)
            flat = found.replace("\r\n", " ").replace("\n", " ")
            if found != surface and flat != surface:
                raise InputError(f"{tid} says {surface[:40]!r} but the text at {offsets} is "
                                 f"{found[:40]!r}; is {txt_path} the annotated text?", name,
                                 number)
            if tid in mentions:
                raise InputError(f"{tid} is defined twice (first at line {mentions[tid][1]})",
                                 name, number)
            mentions[tid] = (spans, number)
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
            ignored[what] += 1
            first_line.setdefault(what, number)
        else:
            raise InputError(f"a line BRAT does not define: {line[:40]!r}", name, number)
    if other_types:
        shown = ", ".join(f"{k} ({n})" for k, n in sorted(other_types.items()))
        notify("skipped", f"text-bound annotations of types not read as mentions: {shown} "
               "(--types chooses)", path=name, line=first_line["types"],
               count=sum(other_types.values()))
    for what, n in ignored.items():
        hint = " (--relations names coreference relations)" if what.startswith("relations") \
            else ""
        notify("ignored", f"{what} not used{hint}", path=name, line=first_line[what], count=n)
    union = _Chains()
    seen_in: dict[str, int] = {}
    for ids, number in chains:
        for tid in ids:
            if tid not in mentions:
                raise InputError(f"the chain names {tid}, which is not a mention read from "
                                 "the file (an unknown id, or a type not read)", name, number)
            if tid in seen_in:
                raise InputError(f"{tid} is in two chains (lines {seen_in[tid]} and {number})",
                                 name, number)
            seen_in[tid] = number
            union.union(ids[0], tid)
    for a, b, number in links:
        for tid in (a, b):
            if tid not in mentions:
                raise InputError(f"the relation names {tid}, which is not a mention read from "
                                 "the file", name, number)
        union.union(a, b)
    out = [Mention(spans, f"chain-{union.find(tid)}", number)
           for tid, (spans, number) in mentions.items()]
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
        No ``.ann`` file, or no mention in any of them (nothing to compare), besides the
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
        txt = Path(text_dir) / (ann.stem + ".txt") if text_dir is not None else None
        doc = read_brat(ann, txt, types=types, relations=relations, encoding=encoding)
        docs[doc.name] = doc
    if not any(doc.mentions for doc in docs.values()):
        chosen = "the types " + ", ".join(types) if types is not None else "any type"
        raise InputError(
            f"nothing to compare: no mention of {chosen} in the {len(files)} .ann file(s); "
            "the warnings list the types found (choose them with --types)", path=str(folder))
    return CorefCorpus(docs, str(folder), {}, "brat")
