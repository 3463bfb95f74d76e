"""Document labels of annotation tools' exports (:mod:`clusteragree.exports`) as codings.

A document label (Label Studio ``choices``, doccano categories, Prodigy's accepted options, a
document-level layer of INCEpTION) codes the document as a unit: the coder is the annotator,
the unit the document, the value the set of its labels of one layer. The codings are written
as the long CSV that ``table`` reads (``coder,unit,labels``), so that every check and option of
that reader applies.

* **Layer.** The layer coded is ``layer``; when it is not given, the one layer of document labels
  of the exports, and several are refused with their names.
* **Missing.** A document an annotator did not annotate has no row (missing); one it annotated
  without a label of the layer has no row either (missing, counted in a ``note``), since the
  export cannot tell a deliberate "none of these" from a skipped question.

References
----------
docs/formats.md, "Into every measure".
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import replace

from ..errors import InputError, ParameterError, notify, option
from ..exports.model import Export
from ..exports.writers import write_codings_csv

__all__ = ["codings_from_agreement", "codings_from_exports", "label_layers"]


def label_layers(exports: Sequence[Export]) -> tuple[str, ...]:
    """The layers of the document labels, in order of first use."""
    return tuple(dict.fromkeys(lab.layer for e in exports for d in e.documents
                               for lab in d.labels))


def codings_from_exports(exports: Sequence[Export], *, layer: str | None = None,
                         sep: str = ";", names: Sequence[str] | None = None) -> str:
    """The long CSV of codings (``coder,unit,labels``) of the document labels of one layer.

    Parameters
    ----------
    exports : sequence of Export
        What the export readers read.
    layer : str, optional
        The layer of document labels (default: the only one).
    sep : str, default=";"
        The separator of the labels of a set (a label holding it is refused); ``"none"``:
        one label per document (several are refused).
    names : sequence of str, optional
        New names of the annotators, in their order of first appearance.

    Returns
    -------
    str
        The CSV text, annotators and documents in export order.

    Examples
    --------
    >>> from clusteragree.exports import AnnotatedDocument, DocumentLabel, Export
    >>> docs = (AnnotatedDocument("d1", "a", "t", labels=(DocumentLabel("topic", "sport"),)),
    ...         AnnotatedDocument("d1", "b", "t", labels=(DocumentLabel("topic", "sport"),
    ...                                                   DocumentLabel("topic", "news"))))
    >>> print(codings_from_exports([Export(docs, "x.json", "t")]), end="")
    coder,unit,labels
    a,d1,sport
    b,d1,news;sport
    """
    found = label_layers(exports)
    where = exports[0].path if exports else None
    if layer is None:
        if not found:
            raise InputError("the export holds no document label (choices, categories)", where)
        if len(found) > 1:
            raise InputError(f"the export has {len(found)} layers of document labels "
                             f"({', '.join(found)}): choose the one coded with "
                             f"{option('layer')}", where)
        layer = found[0]
    elif layer not in found:
        raise InputError(f"no document label of the layer {layer!r} (the layers: "
                         f"{', '.join(found) or 'none'}); choose one with {option('layer')}",
                         where)
    who = list(dict.fromkeys(d.annotator for e in exports for d in e.documents))
    if names is not None and len(names) != len(who):
        raise ParameterError(f"{option('names')} gives {len(names)} names for {len(who)} "
                             f"annotators ({', '.join(who)})", params=("names",))
    renamed = dict(zip(who, names, strict=True)) if names is not None else {w: w for w in who}
    docs = [replace(d, annotator=renamed[d.annotator],
                    labels=tuple(lab for lab in d.labels if lab.layer == layer))
            for e in exports for d in e.documents]
    out = io.StringIO()
    write_codings_csv(docs, out, sep=sep)
    return out.getvalue()


def codings_from_agreement(rows: Sequence[tuple[str, str, str | None]], *, sep: str = ";",
                           path: str | None = None) -> str:
    """The long CSV of codings of a table of INCEpTION's agreement page
    (:func:`clusteragree.exports.agreement_csv.read_agreement_csv`).

    A position where the page says ``<no annotation>`` (label None) is missing for that
    annotator (no row; a ``note`` counts them): the page lists every position some annotator
    annotated, so this is where the others made no annotation, which alpha over codings
    treats as not coded.

    Examples
    --------
    >>> print(codings_from_agreement([("a", "d 0-3", "PER"), ("b", "d 0-3", None)]), end="")
    coder,unit,labels
    a,d 0-3,PER
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["coder", "unit", "labels"])
    missing = 0
    for coder, unit, label in rows:
        if label is None:
            missing += 1
            continue
        if sep != "none" and sep in label:
            raise InputError(f"the label {label!r} of {unit!r} holds the separator {sep!r}: "
                             f"give {option('sep')} none (one label per field) or another "
                             "separator", path)
        writer.writerow([coder, unit, label])
    if missing:
        notify("note", "positions an annotator made no annotation at (<no annotation>) are "
               "missing for that annotator", path=path, count=missing)
    return out.getvalue()
