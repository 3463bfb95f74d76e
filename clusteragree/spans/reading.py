"""Several annotators' span files read into one :class:`~clusteragree.core.spans.SpanCorpus`.

The formats of this domain: the plain span table (``spans-csv``), pygamma-agreement's CSV
(``pygamma``) and BRAT directories (``brat``, one per annotator). Coreference mentions and
pyramid contributors are read by their own domains (``clusteragree.coref.spans``,
``clusteragree.pyramids.spans``).

Documents. Every annotator is taken to have annotated every document compared: one with no span
in a document marked nothing there. For tables the documents are those of ``lengths`` when given
(a document nobody marked is then compared too), else those with spans. For BRAT they are the
``.ann`` files every annotator has; a document some annotator lacks is left out (``skipped``:
that annotator did not annotate it), and the texts of one document must be the same for every
annotator.

References
----------
docs/spans.md, "Reading spans".
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.model import unique_labels
from ..core.spans import SpanCorpus, span_corpus
from ..errors import InputError, ParameterError, notify, option
from .brat import read_brat_spans
from .readers import read_pygamma_csv, read_span_table, read_texts

__all__ = ["SPAN_FORMATS", "read_spans"]

#: The formats this domain reads.
SPAN_FORMATS = ("spans-csv", "pygamma", "brat")


def read_spans(paths: Sequence[str | os.PathLike[str]], input_format: str, *,
               names: Sequence[Hashable] | None = None,
               lengths: Mapping[Any, int] | None = None,
               text_dir: str | os.PathLike[str] | None = None,
               types: Sequence[str] | None = None, fragments: str = "extent",
               encoding: str | None = None) -> SpanCorpus:
    """Read span files of one format into a corpus.

    Parameters
    ----------
    paths : sequence of paths
        ``spans-csv``: one or more tables (each with an ``annotator`` column, or one annotator
        each, named by ``names`` or the file name); ``pygamma``: one or more CSV files, each a
        document with every annotator; ``brat``: one directory per annotator.
    input_format : {"spans-csv", "pygamma", "brat"}
        The format.
    names : sequence, optional
        One name per path, for files of one annotator each (tables without an ``annotator``
        column, BRAT directories); default the file names.
    lengths : mapping, optional
        Document -> length (tables; BRAT takes the texts' lengths).
    text_dir : path, optional
        Texts ``<document>.txt``: for BRAT where they are not beside the ``.ann`` files; for
        tables, the texts the offsets count the characters of (lengths are then theirs).
    types, fragments : optional
        BRAT: the entity types read and how discontinuous annotations become spans
        (:func:`~clusteragree.spans.brat.read_brat_spans`).
    encoding : str, optional
        Of every file (default UTF-8).

    Returns
    -------
    SpanCorpus

    Raises
    ------
    InputError
        As the readers; texts of one document that differ between annotators; fewer than two
        annotators in all.
    ParameterError
        An unknown format, a number of names other than the number of paths, names given for
        files that name their annotators.

    References
    ----------
    docs/spans.md, "Reading spans".

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = pathlib.Path(tmp) / "ner.csv"
    ...     _ = p.write_text("annotator,document,start,end,label\\n"
    ...                      "A,d1,0,4,PER\\nB,d1,0,4,PER\\nB,d2,3,6,LOC\\n")
    ...     corpus = read_spans([p], "spans-csv")
    >>> corpus.annotators, corpus.documents, corpus.n_spans
    (('A', 'B'), ('d1', 'd2'), 3)
    """
    if input_format not in SPAN_FORMATS:
        raise ParameterError(f"{option('input_format', input_format)} is not a span format "
                             f"({', '.join(SPAN_FORMATS)})", params=("input_format",))
    files = [os.fspath(p) for p in paths]
    if names is not None and len(names) != len(files):
        raise ParameterError(f"{option('names')} gives {len(names)} names for {len(files)} "
                             "inputs: give one name per input", params=("names",))
    texts: dict[Hashable, str] | None = None
    unit = "positions"
    if input_format == "brat":
        who: list[Hashable] = list(names) if names is not None else list(unique_labels(files))
        frames, texts = _brat(files, who, text_dir, types, fragments, encoding)
        unit = "characters"
        lengths = {d: len(t) for d, t in texts.items()}
        frame = pd.concat(frames, ignore_index=True)
        frame = frame[frame["document"].isin(list(texts))]
        if not len(frame):
            chosen = " of the types " + ", ".join(types) if types is not None else ""
            raise InputError(f"nothing to compare: no annotator marked any entity{chosen} (the "
                             f"warnings list the types found; {option('types')} chooses them)",
                             files[0])
        return span_corpus(frame, annotators=who, documents=list(texts), lengths=lengths,
                           texts=texts, unit=unit, sources=dict(zip(who, files, strict=True)))
    if input_format == "pygamma":
        if names is not None:
            raise ParameterError(f"pygamma-agreement's CSV names its annotators in its first "
                                 f"column: {option('names')} is for files of one annotator",
                                 params=("names",))
        frame = pd.concat([read_pygamma_csv(f, encoding=encoding) for f in files],
                          ignore_index=True)
        docs = list(dict.fromkeys(Path(f).stem for f in files))
        if len(docs) < len(files):
            raise InputError("two files have one name: a pygamma-agreement CSV is a document "
                             "named by its file's stem", files[0])
        return span_corpus(frame, documents=docs, unit=unit)
    labels = unique_labels(files)
    frames = []
    for i, f in enumerate(files):
        given = names[i] if names is not None else None
        frames.append(read_span_table(f, annotator=given, encoding=encoding,
                                      fallback=labels[i] if len(files) > 1 else None))
    frame = pd.concat(frames, ignore_index=True)
    every = list(dict.fromkeys(a for f in frames for a in f.attrs["annotators"]))
    documents = list(lengths) if lengths is not None else None
    if text_dir is not None:
        documents = documents or list(dict.fromkeys(frame["document"]))
        texts = read_texts(text_dir, documents, encoding=encoding)
        unit = "characters"
        found = {d: len(t) for d, t in texts.items()}
        if lengths is not None:
            differ = [d for d in found if lengths.get(d) != found[d]]
            if differ:
                raise InputError(f"document {differ[0]!r} is {lengths.get(differ[0])} long by "
                                 f"{option('lengths')} and {found[differ[0]]} characters by "
                                 f"its text in {option('text_dir')}: give one of them")
        lengths = found
    return span_corpus(frame, annotators=every, documents=documents, lengths=lengths,
                       texts=texts, unit=unit, sources={})


def _brat(files: list[str], who: list[Hashable], text_dir: str | os.PathLike[str] | None,
          types: Sequence[str] | None, fragments: str, encoding: str | None
          ) -> tuple[list[pd.DataFrame], dict[Hashable, str]]:
    """Each annotator's spans, and the texts of the documents every annotator has."""
    frames, every = [], []
    for name, folder in zip(who, files, strict=True):
        frame, texts = read_brat_spans(folder, name, text_dir=text_dir, types=types,
                                       fragments=fragments, encoding=encoding)
        frames.append(frame)
        every.append(texts)
    shared = [d for d in every[0] if all(d in t for t in every[1:])]
    for name, folder, texts in zip(who, files, every, strict=True):
        left = [d for d in texts if d not in shared]
        if left:
            notify("skipped", f"documents that not every annotator has are left out: "
                   f"{', '.join(map(str, left[:5]))}{' ...' if len(left) > 5 else ''} (of "
                   f"{name})", path=folder, count=len(left))
    for d in shared:
        for name, folder, texts in zip(who[1:], files[1:], every[1:], strict=True):
            if texts[d] != every[0][d]:
                at = next((i for i, (a, b) in enumerate(zip(texts[d], every[0][d],
                                                             strict=False)) if a != b),
                          min(len(texts[d]), len(every[0][d])))
                raise InputError(f"the text of document {d!r} differs between {who[0]} and "
                                 f"{name} from character {at}: annotations of different texts "
                                 "cannot be compared", folder)
    if not shared:
        raise InputError("no document is annotated by every annotator: nothing to compare",
                         files[0])
    return frames, {d: every[0][d] for d in shared}
