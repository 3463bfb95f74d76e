"""BRAT standoff entities as spans: one directory of ``.ann`` files per annotator.

Every text-bound annotation ``T<n>\\t<type> <start> <end>[;<start> <end>...]\\t<text>`` is a
span of its type (``types`` chooses the types read; the others are counted), at character
offsets of the ``.txt`` text (0-based, end exclusive; a CRLF line end is two characters). Its
surface must be the text at its offsets. Attributes (``A`` and ``M`` lines) become columns of
the span: a binary attribute is ``True`` where set, a valued one its value. Relations, events,
equivalences, normalisations and notes are counted and reported (``ignored``): chains are the
coreference command's business.

A discontinuous annotation (fragments separated by ``;``) is one span from its first character
to its last by default (``fragments="extent"``, a ``note``), or one span per fragment
(``fragments="parts"``, each with the annotation's id).

References
----------
Stenetorp, P., Pyysalo, S., Topić, G., Ohta, T., Ananiadou, S., Tsujii, J. (2012). brat: a
web-based tool for NLP-assisted text annotation. Proceedings of the Demonstrations at EACL
2012, pp. 102-107. brat standoff format (brat.nlplab.org/standoff.html).

docs/spans.md, "Reading spans".
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ..errors import InputError, ParameterError, ParameterTypeError, Tally, option
from ..inputs import (
    BRAT_TEXT_BOUND,
    CR_MIXED,
    brat_offsets,
    decode,
    iter_lines,
    line_ends,
    read_bytes,
)

__all__ = ["FRAGMENTS", "read_brat_spans"]

#: How a discontinuous annotation becomes spans.
FRAGMENTS = ("extent", "parts")

_FIELDS = ("annotator", "document", "start", "end", "label", "id", "file", "line")
_ATTRIBUTE = re.compile(r"^([AM][^\t ]*)\t(\S+) (T\S+)(?: (\S+))?\s*$")
_KINDS = {"R": "relations", "E": "events", "*": "equivalences", "N": "normalisations",
          "#": "notes"}


def _read(path: Path, what: str, encoding: str | None) -> str:
    return decode(read_bytes(path, what=what), str(path), encoding=encoding)


def read_brat_spans(directory: str | os.PathLike[str], annotator: Hashable, *,
                    text_dir: str | os.PathLike[str] | None = None,
                    types: Sequence[str] | None = None, fragments: str = "extent",
                    encoding: str | None = None) -> tuple[pd.DataFrame, dict[str, str]]:
    """The entities of one annotator's directory of ``.ann`` files, with their texts.

    Parameters
    ----------
    directory : str or os.PathLike
        The annotator's directory; each ``<stem>.ann`` is the document ``<stem>``.
    annotator : hashable
        The annotator's name.
    text_dir : str or os.PathLike, optional
        Where the texts are, as ``<stem>.txt`` (default: beside the ``.ann`` files).
    types : sequence of str, optional
        The entity types read (default: every type); the others are counted (``skipped``).
    fragments : {"extent", "parts"}, default="extent"
        A discontinuous annotation as one span from its first to its last character, or one
        span per fragment.
    encoding : str, optional
        Of the files (default UTF-8).

    Returns
    -------
    spans : DataFrame
        ``annotator, document, start, end, label, id, file, line`` and one column per
        attribute name.
    texts : dict
        Document -> its text.

    Raises
    ------
    InputError
        Not a directory, no ``.ann`` file, a text not found, offsets outside the text, a
        surface that is not the text at its offsets, an id defined twice, an attribute of an
        unknown annotation, a line BRAT does not define (with the file and line).
    ParameterError
        An unknown ``fragments``; ``types`` given as one string.

    References
    ----------
    brat standoff format (brat.nlplab.org/standoff.html).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     root = pathlib.Path(tmp)
    ...     _ = (root / "d1.txt").write_text("Mary met John in Rome.")
    ...     _ = (root / "d1.ann").write_text("T1\\tPER 0 4\\tMary\\nT2\\tPER 9 13\\tJohn\\n"
    ...                                       "T3\\tLOC 17 21\\tRome\\nA1\\tUnsure T2\\n")
    ...     spans, texts = read_brat_spans(root, "A")
    >>> for row in spans[["document", "start", "end", "label", "id", "Unsure"]].values:
    ...     print(list(row))
    ['d1', 0, 4, 'PER', 'T1', None]
    ['d1', 9, 13, 'PER', 'T2', True]
    ['d1', 17, 21, 'LOC', 'T3', None]
    """
    if fragments not in FRAGMENTS:
        raise ParameterError(f"{option('fragments', fragments)} must be one of "
                             f"{', '.join(FRAGMENTS)}", params=("fragments",))
    if isinstance(types, str):
        raise ParameterTypeError("types must be a list of type names, not one string",
                                 params=("types",))
    folder = Path(directory)
    if not folder.is_dir():
        raise InputError("not a directory of BRAT .ann files", str(folder))
    files = sorted(folder.glob("*.ann"))
    if not files:
        raise InputError("no .ann files in the directory", str(folder))
    records: list[dict[str, Any]] = []
    texts: dict[str, str] = {}
    for ann in files:
        txt = Path(text_dir if text_dir is not None else folder) / (ann.stem + ".txt")
        if not txt.exists():
            where = (f"in {option('text_dir', os.fspath(text_dir))}" if text_dir is not None
                     else "beside the .ann files; give the directory of the texts with "
                     f"{option('text_dir')}")
            raise InputError(f"no such text for {ann.name}: the texts are looked for {where}",
                             str(txt))
        texts[ann.stem] = _read(txt, "text", encoding)
        records += _read_one(ann, txt, texts[ann.stem], annotator, types, fragments, encoding)
    frame = pd.DataFrame.from_records(records, columns=None if records else list(_FIELDS))
    for column in frame.columns[8:]:  # attributes: None where not set
        frame[column] = frame[column].astype(object).where(frame[column].notna(), None)
    return frame, texts


def _read_one(ann: Path, txt: Path, text: str, annotator: Hashable,
              types: Sequence[str] | None, fragments: str, encoding: str | None
              ) -> list[dict[str, Any]]:
    name = str(ann)
    tally = Tally(name)
    content, cr_line, cr_count = line_ends(_read(ann, "annotation", encoding))
    tally.add("converted", CR_MIXED, cr_line, cr_count)
    wanted = None if types is None else set(types)
    found: dict[str, list[dict[str, Any]]] = {}
    other: Counter[str] = Counter()
    other_line: list[int] = []
    attributes: list[tuple[str, str, Any, int]] = []
    discontinuous: list[int] = []
    for number, line in iter_lines(content):
        if not line.strip():
            continue
        head = line[0]
        if head == "T":
            m = BRAT_TEXT_BOUND.match(line)
            if not m:
                raise InputError(f"cannot read the text-bound annotation {line[:60]!r}", name,
                                 number)
            tid, kind, offsets, surface = m.groups()
            if tid in found:
                raise InputError(f"{tid} is defined twice (first at line "
                                 f"{found[tid][0]['line']})", name, number)
            if wanted is not None and kind not in wanted:
                other[kind] += 1
                other_line[:] = other_line or [number]
                found[tid] = []
                continue
            parts = brat_offsets(tid, offsets, surface, text, path=name, line=number,
                                 text_path=txt)
            if len(parts) > 1:
                discontinuous.append(number)
            pieces = parts if fragments == "parts" else ((parts[0][0], parts[-1][1]),)
            found[tid] = [{"annotator": annotator, "document": ann.stem, "start": s, "end": e,
                           "label": kind, "id": tid, "file": name, "line": number}
                          for s, e in pieces]
        elif head in "AM":
            m = _ATTRIBUTE.match(line)
            if not m:
                raise InputError(f"cannot read the attribute {line[:60]!r}", name, number)
            _, key, target, value = m.groups()
            attributes.append((target, key, True if value is None else value, number))
        elif head in _KINDS:
            # annotator notes comment on annotations; the others are annotations left out
            tally.add("note" if head == "#" else "ignored", f"{_KINDS[head]} not used (spans "
                      "are the text-bound annotations)", number)
        else:
            raise InputError(f"a line BRAT does not define: {line[:40]!r}", name, number)
    for target, key, value, number in attributes:
        if target not in found:
            raise InputError(f"the attribute names {target}, which is not a text-bound "
                             "annotation of the file", name, number)
        for record in found[target]:
            record[key] = value
    if other:
        shown = ", ".join(f"{k} ({n})" for k, n in sorted(other.items()))
        tally.add("skipped", f"text-bound annotations of types not read: {shown} "
                  f"({option('types')} chooses)", other_line[0], sum(other.values()))
    if discontinuous and fragments == "extent":
        tally.add("note", "discontinuous annotations read as one span from their first "
                  f"character to their last ({option('fragments', 'parts')} reads each "
                  "fragment as a span)", discontinuous[0], len(discontinuous))
    tally.report()
    return [r for records in found.values() for r in records]
