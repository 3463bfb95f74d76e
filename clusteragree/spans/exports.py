"""Spans of annotation tools' exports (:mod:`clusteragree.exports`) as a span corpus.

Each :class:`~clusteragree.exports.model.AnnotatedDocument` gives the spans of one layer:
offsets in code points of its text, the span's value as its label (``-`` when it has none).

* **Layer.** The layer compared is ``layer``; when it is not given, the one span layer of the
  exports, and several are refused with their names (the option that decides is named).
* **Documents.** A document is compared where every annotator has it; one an annotator lacks
  (an annotator without a file for it in an INCEpTION project, a task it did not annotate) is
  left out (``skipped``): missing is not empty. The texts of a document must be the same for
  every annotator.
* **Discontinuous spans** become one span from the first character to the last
  (``fragments="extent"``, a ``note``) or one span per part (``fragments="parts"``).
* **Labels.** ``types`` keeps the spans whose label is among them (the others counted,
  ``skipped``).

References
----------
docs/formats.md (what each tool's export holds); docs/spans.md, "Reading spans".
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import pandas as pd

from ..core.spans import SpanCorpus, span_corpus
from ..errors import InputError, ParameterError, notify, option
from ..exports.model import AnnotatedDocument, Export
from .brat import FRAGMENTS

__all__ = ["NO_LABEL", "export_layers", "spans_from_exports"]

#: The label of a span whose value is empty.
NO_LABEL = "-"


def export_layers(exports: Sequence[Export]) -> tuple[str, ...]:
    """The span layers of the exports, in order of first use.

    Examples
    --------
    >>> from clusteragree.exports import AnnotatedDocument, Export, Span
    >>> doc = AnnotatedDocument("d", "a", "xy", spans=(Span("1", 0, 1, "ne", "PER"),
    ...                                                Span("2", 1, 2, "pos", "N")))
    >>> export_layers([Export((doc,), "x", "t")])
    ('ne', 'pos')
    """
    return tuple(dict.fromkeys(s.layer for e in exports for d in e.documents for s in d.spans))


def _choose_layer(exports: Sequence[Export], layer: str | None) -> str:
    found = export_layers(exports)
    where = exports[0].path if exports else None
    if layer is not None:
        if layer not in found:
            raise InputError(f"no span of the layer {layer!r} (the layers: "
                             f"{', '.join(found) or 'none'}); choose one with "
                             f"{option('layer')}", where)
        return layer
    if not found:
        raise InputError("the export holds no span", where)
    if len(found) > 1:
        raise InputError(f"the export has {len(found)} span layers ({', '.join(found)}): "
                         f"choose the one compared with {option('layer')}", where)
    return found[0]


def spans_from_exports(exports: Sequence[Export], *, layer: str | None = None,
                       types: Sequence[str] | None = None, fragments: str = "extent",
                       names: Sequence[Hashable] | None = None) -> SpanCorpus:
    """The spans of one layer of one or more exports, as a span corpus over their texts.

    Parameters
    ----------
    exports : sequence of Export
        What the export readers read (:func:`clusteragree.exports.read_export`); the
        annotators of all of them are compared (an annotator in two exports is one annotator).
    layer : str, optional
        The span layer compared (default: the only one).
    types : sequence of str, optional
        The labels kept (default: every label).
    fragments : {"extent", "parts"}, default="extent"
        How a discontinuous span is read.
    names : sequence, optional
        New names of the annotators, in their order of first appearance.

    Returns
    -------
    SpanCorpus
        Offsets in characters (code points) when the exports carry the texts, else in the
        positions written (no length checked).

    Raises
    ------
    InputError
        Several span layers and no ``layer``; a document whose text differs between
        annotators; no document every annotator has.

    Examples
    --------
    >>> from clusteragree.exports import AnnotatedDocument, Export, Span
    >>> a = AnnotatedDocument("d", "ann1", "Mary met John",
    ...                       spans=(Span("1", 0, 4, "ne", "PER"), Span("2", 9, 13, "ne", "PER")))
    >>> b = AnnotatedDocument("d", "ann2", "Mary met John", spans=(Span("7", 0, 4, "ne", "PER"),))
    >>> c = spans_from_exports([Export((a, b), "x.json", "label-studio")])
    >>> c.annotators, c.n_spans, c.unit
    (('ann1', 'ann2'), 3, 'characters')
    """
    if fragments not in FRAGMENTS:
        raise ParameterError(f"{option('fragments', fragments)} must be one of "
                             f"{', '.join(FRAGMENTS)}", params=("fragments",))
    chosen = _choose_layer(exports, layer)
    docs = [d for e in exports for d in e.documents]
    who = list(dict.fromkeys(d.annotator for d in docs))
    if names is not None:
        if len(names) != len(who):
            raise ParameterError(f"{option('names')} gives {len(names)} names for "
                                 f"{len(who)} annotators ({', '.join(who)})",
                                 params=("names",))
        renamed = dict(zip(who, names, strict=True))
    else:
        renamed = {w: w for w in who}
    have: dict[str, dict[str, AnnotatedDocument]] = {}
    for d in docs:
        seen = have.setdefault(d.name, {})
        if d.annotator in seen:
            raise InputError(f"document {d.name!r} is annotated twice by {d.annotator!r}",
                             d.path, d.line)
        seen[d.annotator] = d
    shared = [n for n, by in have.items() if len(by) == len(who)]
    left = [n for n in have if n not in shared]
    if left:
        notify("skipped", f"documents that not every annotator has are left out: "
               f"{', '.join(left[:5])}{' ...' if len(left) > 5 else ''}",
               path=exports[0].path, count=len(left))
    if not shared:
        raise InputError("no document is annotated by every annotator: nothing to compare",
                         exports[0].path)
    rows: list[tuple[object, ...]] = []
    texts: dict[Hashable, str] = {}
    other_types: dict[str, int] = {}
    discontinuous = 0
    for name in shared:
        first: AnnotatedDocument | None = None
        for d in have[name].values():
            if first is None:
                first = d
            elif d.text != first.text:
                raise InputError(f"the text of document {name!r} differs between "
                                 f"{first.annotator!r} and {d.annotator!r}: annotations of "
                                 "different texts cannot be compared", d.path)
            for s in d.spans:
                if s.layer != chosen:
                    continue
                label = NO_LABEL if s.label in (None, "") else s.label
                if types is not None and label not in types:
                    other_types[label] = other_types.get(label, 0) + 1
                    continue
                parts = s.parts
                if len(parts) > 1:
                    discontinuous += 1
                pieces = parts if fragments == "parts" else ((parts[0][0], parts[-1][1]),)
                for a, b in pieces:
                    rows.append((renamed[d.annotator], name, a, b, label, s.id, d.path, s.line))
        if first is not None and first.text is not None:
            texts[name] = first.text
    if other_types:
        notify("skipped", "spans of labels not chosen are left out: " + ", ".join(
            f"{k} ({v})" for k, v in sorted(other_types.items())), path=exports[0].path,
            count=sum(other_types.values()))
    if discontinuous and fragments == "extent":
        notify("note", f"discontinuous spans read from their first character to their last "
               f"({option('fragments', 'parts')} reads each part)", path=exports[0].path,
               count=discontinuous)
    frame = pd.DataFrame(rows, columns=["annotator", "document", "start", "end", "label", "id",
                                        "file", "line"])
    whole = len(texts) == len(shared)
    return span_corpus(frame, annotators=[renamed[w] for w in who], documents=shared,
                       lengths={n: len(t) for n, t in texts.items()} if whole else None,
                       texts=texts if whole else None,
                       unit="characters" if whole else "positions",
                       sources={renamed[w]: exports[0].path for w in who})
