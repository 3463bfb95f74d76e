"""The tables INCEpTION's agreement page downloads, read as codings ``(coder, unit, label)``.

The agreement page (Project > Agreement) has an *Export...* menu. Its layouts, as INCEpTION
writes them (snapshot 55ba8ba of inception-project/inception):

* **Diagnosis** (``PROJECT-diff.csv``; ``AgreementServiceImpl.exportDiff``): one row per
  position of the chosen layer and feature, one column per annotator::

      Type,Collection,Document,Layer,Feature,Position,Flags,ANNOTATOR1,ANNOTATOR2,...
      SpanPosition,proj,doc1.txt,...NamedEntity,value,0-3 [Joe],"COMPLETE, USED",PER,LOC

  ``Position`` is ``BEGIN-END [TEXT]`` (spans; ``-> ...`` for slot links),
  ``(SB-SE)[ST] -> (TB-TE) [TT]`` (relations) or ``Document``; ``Flags`` the agreement
  step's tags (``USED``, ``COMPLETE``, ``INCOMPLETE_POSITION``, ``INCOMPLETE_LABEL``,
  ``STACKED``, ``DIFFERENCE``, ``IRRELEVANT``); a cell is the annotator's label,
  ``<no annotation>`` (none at this position), ``<no label>`` (an annotation without a
  label), or, outside the ``USED`` rows, several labels joined by ``, ``.
* **CSV** (``SpanLayerToCsvExporter`` and its siblings), one row per annotation:
  spans ``doc,user,begin,end,text[,label]``; relations ``doc,user,source-begin,source-end,
  source-text,target-begin,target-end,target-text[,label]``; document metadata
  ``doc,user[,label]``; chains ``doc,user,chain,index,begin,end,text,label[,link_label]``.
  (The JSON export is not read here.)

Each row becomes codings ``(coder, unit, label)``:

* coder: the annotator as the export names them (a user name; the diagnosis uses the
  display name);
* unit: a name a person can find: ``DOCUMENT LAYER:FEATURE POSITION`` (diagnosis),
  ``DOCUMENT BEGIN-END [TEXT]`` (spans, chain mentions), ``DOCUMENT SB-SE [ST] -> TB-TE [TT]``
  (relations), ``DOCUMENT`` (document metadata). Offsets are INCEpTION's (UTF-16 code
  units of the document's text);
* label: the label; ``None`` for the diagnosis' ``<no annotation>`` (the annotator made no
  annotation there: missing, or a category of its own, as the caller decides); the literal
  ``<no label>`` for an annotation without a label; for a CSV exported without a feature
  (no ``label`` column) the label ``annotated`` (presence only), with a note. Chain ids are
  the annotator's own and are not a coding: chain mentions are coded by their label.

References
----------
INCEpTION user guide, "Agreement" (the Export... menu: CSV, JSON, Diagnosis);
inception-project/inception, ``inception-agreement/.../AgreementServiceImpl.java``
(``configurationSetsWithItemsToCsv``) and ``inception-layer-*/.../export/*ToCsvExporter.java``.
docs/formats.md, "INCEpTION's agreement page".
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterator
from pathlib import Path

from ..errors import InputError, notify
from ..inputs import decode, read_bytes

__all__ = ["read_agreement_csv", "sniff_agreement_csv"]

NO_ANNOTATION = "<no annotation>"
DIAGNOSIS = ["Type", "Collection", "Document", "Layer", "Feature", "Position", "Flags"]
SPAN = ["doc", "user", "begin", "end", "text"]
RELATION = ["doc", "user", "source-begin", "source-end", "source-text", "target-begin",
            "target-end", "target-text"]
DOCUMENT = ["doc", "user"]
CHAIN = ["doc", "user", "chain", "index", "begin", "end", "text", "label"]
PRESENT = "annotated"


def _layout(header: list[str]) -> str | None:
    if header[:7] == DIAGNOSIS and len(header) > 7:
        return "diagnosis"
    if header in (CHAIN, [*CHAIN, "link_label"]):
        return "chain"
    for name, cols in (("relation", RELATION), ("span", SPAN), ("document", DOCUMENT)):
        if header in (cols, [*cols, "label"]):
            return name
    return None


def _records(text: str, path: str) -> Iterator[tuple[int, list[str]]]:
    """CSV records (RFC 4180: quoted fields may hold line breaks) with their first line."""
    reader = csv.reader(text.splitlines(keepends=True) if "\r" in text else
                        (line + "\n" for line in text.split("\n")), strict=True)
    old = csv.field_size_limit()
    csv.field_size_limit(1 << 30)
    try:
        last = 0
        while True:
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as err:
                raise InputError(f"cannot read the CSV: {err}", path, reader.line_num) from None
            first, last = last + 1, reader.line_num
            if any(f.strip() for f in row):
                yield first, row
    finally:
        csv.field_size_limit(old)


def _short(type_name: str) -> str:
    return type_name.rsplit(".", 1)[-1]


def read_agreement_csv(path: str | os.PathLike[str], *, encoding: str | None = None
                       ) -> list[tuple[str, str, str | None]]:
    """Read a table downloaded from INCEpTION's agreement page as codings.

    Parameters
    ----------
    path : str or os.PathLike
        The Diagnosis (``...-diff.csv``) or CSV export.
    encoding : str, optional
        Default UTF-8 (what INCEpTION writes).

    Returns
    -------
    list of (coder, unit, label)
        In file order; ``label`` None where the diagnosis says ``<no annotation>``.

    Raises
    ------
    InputError
        An unknown header (the message lists the layouts read), a row with the wrong number of
        fields, a malformed CSV.

    References
    ----------
    INCEpTION user guide, "Agreement". docs/formats.md.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "proj-diff.csv"
    >>> _ = p.write_text("Type,Collection,Document,Layer,Feature,Position,Flags,ann1,ann2\\r\\n"
    ...     "SpanPosition,proj,d.txt,de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity,"
    ...     "value,0-3 [Joe],\\"COMPLETE, USED\\",PER,<no annotation>\\r\\n", encoding="utf-8")
    >>> for coding in read_agreement_csv(p):
    ...     print(coding)
    ('ann1', 'd.txt NamedEntity:value 0-3 [Joe]', 'PER')
    ('ann2', 'd.txt NamedEntity:value 0-3 [Joe]', None)
    """
    name = os.fspath(path)
    text = decode(read_bytes(Path(path)), name, encoding=encoding)
    rows = _records(text, name)
    first = next(rows, None)
    if first is None:
        raise InputError("empty file", name, 1)
    layout = _layout(first[1])
    if layout is None:
        raise InputError(
            "not a table of INCEpTION's agreement page: the header should be "
            f"{','.join(DIAGNOSIS)},ANNOTATOR... (Diagnosis) or one of "
            f"{','.join(SPAN)}[,label]; {','.join(RELATION)}[,label]; "
            f"{','.join(DOCUMENT)}[,label]; {','.join(CHAIN)}[,link_label] (CSV)", name, 1)
    header = first[1]
    out: list[tuple[str, str, str | None]] = []
    has_label = "label" in header
    for line, row in rows:
        if len(row) != len(header):
            raise InputError(f"a row of {len(row)} fields under a header of {len(header)}",
                             name, line)
        if layout == "diagnosis":
            unit = f"{row[2]} {_short(row[3])}:{row[4]} {row[5]}".strip()
            for coder, cell in zip(header[7:], row[7:], strict=True):
                out.append((coder, unit, None if cell == NO_ANNOTATION else cell))
            continue
        doc, user = row[0], row[1]
        if layout == "span":
            unit = f"{doc} {row[2]}-{row[3]} [{row[4]}]"
        elif layout == "relation":
            unit = f"{doc} {row[2]}-{row[3]} [{row[4]}] -> {row[5]}-{row[6]} [{row[7]}]"
        elif layout == "chain":
            unit = f"{doc} {row[4]}-{row[5]} [{row[6]}]"
        else:
            unit = doc
        label = row[header.index("label")] if has_label else PRESENT
        out.append((user, unit, label))
    if not has_label and layout != "diagnosis":
        notify("note", "the table has no label column (exported without a feature): every "
               f"annotation is coded {PRESENT!r}, so only presence is compared", path=name)
    if layout == "chain":
        notify("note", "chain mentions are coded by their label; the chains themselves "
               "(ids of each annotator's own) are not a coding: read the project export for "
               "coreference", path=name)
    return out


def sniff_agreement_csv(path: Path, head: bytes) -> bool:
    """Whether ``head`` starts with one of the agreement page's headers."""
    try:
        start = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
        line = start.split(b"\n", 1)[0].rstrip(b"\r").decode("utf-8")
        return _layout(next(csv.reader([line]))) is not None
    except Exception:  # a recogniser never raises
        return False
