"""Multi-label annotations: each annotator gives each item one or more labels, optionally ranked
(1 = primary, 2 = secondary), as in Rosenberg & Binkowski (2004) and Bhowmick et al. (2008).

Read from long records ``(item, annotator, label[, rank])``, a DataFrame with those columns, or a
CSV file with the header ``item,annotator,label[,rank]`` (one row per label). Checked: at most two
ranked labels per item and annotator, ranks 1 and 2 only and not repeated, every annotator has
items, and no two labels differ only in case or spaces (a likely typo that would split a category
in two). Errors name the file and line.

Examples
--------
>>> data = MultiLabel.from_records([("m1", "A", "q", 1), ("m1", "A", "a", 2), ("m1", "B", "q", 1)])
>>> data.cells["A", "m1"], data.categories
(('q', 'a'), ('a', 'q'))
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..core.model import CodingTable, is_missing, name_coders, require_records
from ..errors import InputError, ParameterTypeError, notify
from ..inputs import parse_int

__all__ = ["MultiLabel", "require_multilabel"]


def require_multilabel(data: Any, what: str = "data") -> None:
    """Refuse anything but a :class:`MultiLabel` (with a message naming the argument).

    The measures of :mod:`clusteragree.labels` call it first, so that a list of records or a
    DataFrame passed by mistake is refused with a message saying how to build the data.

    Parameters
    ----------
    data : object
        The value to check.
    what : str, default="data"
        The argument's name, as the message shows it.

    Returns
    -------
    None
        When ``data`` is a :class:`MultiLabel`.

    Raises
    ------
    ParameterTypeError
        When it is anything else.

    References
    ----------
    docs/multilabel.md (the input of the multi-label measures); docs/architecture.md (errors).

    Examples
    --------
    >>> data = MultiLabel.from_records([("m1", "A", "question"), ("m1", "B", "answer")])
    >>> require_multilabel(data) is None
    True
    >>> require_multilabel([("m1", "A", "question")], what="labels")
    Traceback (most recent call last):
    ...
    clusteragree.errors.ParameterTypeError: labels must be MultiLabel data
    (MultiLabel.from_records, from_dataframe or read_multilabel). Got list.
    """
    if not isinstance(data, MultiLabel):
        raise ParameterTypeError(
            f"{what} must be MultiLabel data (MultiLabel.from_records, from_dataframe or "
            f"read_multilabel). Got {type(data).__name__}.")


def _rank(rank: Any, where: dict[str, Any]) -> int | None:
    """1 (primary), 2 (secondary) or None; ``1.0`` is 1, ``1.7`` is refused, not truncated."""
    if is_missing(rank) or (isinstance(rank, str) and not rank.strip()):
        return None
    value: Any = rank
    if isinstance(rank, str):
        value = parse_int(rank, what="rank", path=where["path"], line=where["line"])
    elif isinstance(rank, (float, np.floating)) and float(rank).is_integer():
        value = int(rank)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
            or value not in (1, 2):
        shown = value if isinstance(rank, str) else rank
        raise InputError(f"rank {shown!r} is not 1 (primary) or 2 (secondary)", **where)
    return int(value)


@dataclass(frozen=True)
class MultiLabel:
    """Labels per (annotator, item), primary first.

    Build it with :meth:`from_records`, :meth:`from_weighted_records`, :meth:`from_dataframe`
    or :func:`~clusteragree.labels.read_multilabel`; the constructor takes the finished fields
    and checks nothing.

    Attributes
    ----------
    items, annotators, categories : tuple
        In order of first appearance (categories sorted).
    cells : dict
        ``(annotator, item) -> tuple of labels``, ranked labels in rank order, unranked ones sorted.
    ranked : bool, default=False
        Whether ranks were given.
    weights : dict or None, default=None
        ``(annotator, item) -> {label: weight}`` when the data were built from explicit weights
        (:meth:`from_weighted_records`; each cell's weights add up to 1); None otherwise.

    References
    ----------
    Rosenberg, A. and Binkowski, E. (2004). Augmenting the kappa statistic to determine
    interannotator reliability for multiply labeled data points. HLT-NAACL 2004, short papers,
    pp. 77-80. Section 3: one or two labels per message, primary and secondary.

    Bhowmick, P. K., Mitra, P. and Basu, A. (2008). An agreement measure for determining
    inter-annotator reliability of human judgements on affective text. Coling 2008 workshop on
    Human Judgements in Computational Linguistics, pp. 58-65. Section 2: any number of
    categories per item.

    docs/multilabel.md (the checks made on the input).

    Examples
    --------
    Annotator A gives message m1 a primary and a secondary label, B one label, and only B
    labels m2:

    >>> data = MultiLabel.from_records([("m1", "A", "question", 1), ("m1", "A", "answer", 2),
    ...                                 ("m1", "B", "question", 1), ("m2", "B", "chat", 1)])
    >>> data.items, data.annotators, data.categories
    (('m1', 'm2'), ('A', 'B'), ('answer', 'chat', 'question'))
    >>> data.labels("A", "m1"), data.labels("A", "m2")
    (('question', 'answer'), ())
    >>> data.ranked, data.complete_items()
    (True, ['m1'])

    Explicit weights instead of ranks (they must add up to 1 in each cell):

    >>> weighted = MultiLabel.from_weighted_records([("m1", "A", "question", 0.7),
    ...                                              ("m1", "A", "answer", 0.3),
    ...                                              ("m1", "B", "question", 1.0)])
    >>> sorted(weighted.weights["A", "m1"].items())
    [('answer', 0.3), ('question', 0.7)]
    """

    items: tuple[Hashable, ...]
    annotators: tuple[Hashable, ...]
    categories: tuple[Hashable, ...]
    cells: dict[tuple[Hashable, Hashable], tuple[Hashable, ...]]
    ranked: bool = False
    weights: dict[tuple[Hashable, Hashable], dict[Hashable, float]] | None = None

    @classmethod
    def from_weighted_records(
        cls, records: Iterable[tuple[Any, Any, Any, Any]], *, source: str | None = None,
        lines: Iterable[int | None] | None = None,
    ) -> MultiLabel:
        """Build from ``(item, annotator, label, weight)``: explicit weights, which must be in
        (0, 1] and add up to 1 for each item and annotator (Rosenberg & Binkowski's "one
        annotation divided between categories")."""
        recs = list(records)
        line_list = list(lines) if lines is not None else [None] * len(recs)
        weights: dict[tuple[Hashable, Hashable], dict[Hashable, float]] = {}
        first_line: dict[tuple[Hashable, Hashable], int | None] = {}
        for (item, annotator, label, weight), line in zip(recs, line_list, strict=True):
            try:
                w = float(weight)
            except (TypeError, ValueError):
                raise InputError(f"weight {weight!r} is not a number", path=source,
                                 line=line) from None
            if not 0 < w <= 1:
                raise InputError(f"weight {w} is not in (0, 1]", path=source, line=line)
            weights.setdefault((annotator, item), {})[label] = w
            first_line.setdefault((annotator, item), line)
        for key, cell in weights.items():
            if abs(sum(cell.values()) - 1) > 1e-9:
                raise InputError(f"the weights of annotator {key[0]!r} on item {key[1]!r} add "
                                 f"up to {sum(cell.values()):g}, not 1", path=source,
                                 line=first_line[key])
        ranked = [(i, a, lab, 1 + k) for (a, i), cell in weights.items()
                  for k, (lab, _) in enumerate(sorted(cell.items(), key=lambda x: -x[1]))]
        base = cls.from_records([(i, a, lab) for i, a, lab, _ in ranked], source=source)
        return cls(base.items, base.annotators, base.categories, base.cells, False, weights)

    @classmethod
    def from_records(
        cls, records: Iterable[tuple[Any, ...]], *, source: str | None = None,
        lines: Iterable[int | None] | None = None,
        annotators: Iterable[Hashable] | None = None,
    ) -> MultiLabel:
        """Build from ``(item, annotator, label)`` or ``(item, annotator, label, rank)``.

        ``annotators`` declares the annotators expected (each must label some item); by
        default they are the annotators found in the records.
        """
        require_records(records, "(item, annotator, label[, rank])", "MultiLabel")
        line_of = iter(lines) if lines is not None else None
        missing_labels = 0
        first_missing: int | None = None
        got: dict[tuple[Hashable, Hashable], list[tuple[int, Hashable, int | None]]] = {}
        items: dict[Hashable, None] = {}
        declared = dict.fromkeys(annotators) if annotators is not None else {}
        spelled: dict[str, tuple[Hashable, int | None]] = {}
        ranked = False
        for pos, record in enumerate(records, start=1):
            line = next(line_of) if line_of is not None else None
            where: dict[str, Any] = {"path": source, "line": line}
            if not isinstance(record, (tuple, list)) or len(record) not in (3, 4):
                raise InputError(f"record {pos}: expected item, annotator, label[, rank]; got "
                                 f"{str(record)[:60]}", **where)
            item, annotator, label = record[0], record[1], record[2]
            for what, value in (("item", item), ("annotator", annotator), ("label", label)):
                if is_missing(value):  # checked below (a masked cell is not hashable)
                    continue
                try:
                    hash(value)
                except TypeError:
                    raise InputError(f"record {pos}: the {what} {str(value)[:40]} is not a "
                                     "single value (str or number)", **where) from None
            if is_missing(item) or is_missing(annotator):
                raise InputError(f"record {pos}: the item or the annotator is missing", **where)
            if is_missing(label):  # a missing label gives no label
                missing_labels += 1
                first_missing = first_missing or line or pos
                continue
            rank = _rank(record[3] if len(record) == 4 else None, where)
            if rank is not None:
                ranked = True
            key = " ".join(str(label).split()).casefold()
            if key in spelled and spelled[key][0] != label:
                raise InputError(
                    f"label {label!r} differs from {spelled[key][0]!r} (line {spelled[key][1]}) "
                    "only in case or spaces; write one category one way", **where)
            spelled.setdefault(key, (label, line or pos))
            if label is None or (isinstance(label, str) and not label.strip()):
                raise InputError("empty label; leave the row out instead", **where)
            items.setdefault(item, None)
            declared.setdefault(annotator, None)
            cell = got.setdefault((annotator, item), [])
            if any(lab == label for _, lab, _ in cell):
                raise InputError(f"annotator {annotator!r} gives item {item!r} the label "
                                 f"{label!r} twice", **where)
            if rank is not None and any(r == rank for r, _, _ in cell):
                raise InputError(f"annotator {annotator!r} gives item {item!r} two labels of "
                                 f"rank {rank}", **where)
            cell.append((rank if rank is not None else 0, label, line))
            if ranked and len(cell) > 2:
                raise InputError(f"annotator {annotator!r} gives item {item!r} {len(cell)} "
                                 "ranked labels; a primary and a secondary at most", **where)
        if missing_labels:
            notify("skipped", "rows with a missing label (None, NaN, NA or NaT) give no label",
                   path=source, line=first_missing, count=missing_labels)
        cells = {k: tuple(lab for _, lab, _ in sorted(v, key=lambda x: (x[0], str(x[1]))))
                 for k, v in got.items()}
        labelled = {a for a, _ in cells}
        for annotator in declared:
            if annotator not in labelled:
                raise InputError(f"annotator {annotator!r} has no items", path=source)
        categories = tuple(sorted({lab for v in cells.values() for lab in v}, key=str))
        return cls(tuple(items), tuple(declared), categories, cells, ranked)

    @classmethod
    def from_dataframe(cls, df: pd.DataFrame) -> MultiLabel:
        """Build from a DataFrame with columns item, annotator, label[, rank]."""
        if not isinstance(df, pd.DataFrame):
            raise ParameterTypeError(f"df must be a pandas DataFrame. Got {type(df).__name__}.")
        cols = [c for c in ("item", "annotator", "label", "rank") if c in df.columns]
        if cols[:3] != ["item", "annotator", "label"]:
            raise InputError(f"the DataFrame needs the columns item, annotator and label (and "
                             f"optionally rank); it has {list(df.columns)}")
        return cls.from_records(df[cols].itertuples(index=False, name=None))

    def renamed(self, names: Sequence[Hashable]) -> MultiLabel:
        """The same labels under other annotator names, one per annotator, in order.

        Parameters
        ----------
        names : sequence
            The new names, distinct, in the order of :attr:`annotators` (the order in which the
            annotators first appear).

        Returns
        -------
        MultiLabel
            Cells and weights keyed by the new names.

        Raises
        ------
        ParameterError
            About ``names``: not one distinct name per annotator.

        References
        ----------
        docs/cli.md (``clusteragree table --names``).

        Examples
        --------
        >>> data = MultiLabel.from_records([("m1", "A", "q"), ("m1", "B", "q")])
        >>> data.renamed(["ann1", "ann2"]).labels("ann2", "m1")
        ('q',)
        """
        new = name_coders(self.annotators, names, "annotators")
        names = [new[a] for a in self.annotators]
        cells = {(new[a], i): labels for (a, i), labels in self.cells.items()}
        weights = None if self.weights is None else {
            (new[a], i): dict(w) for (a, i), w in self.weights.items()}
        return MultiLabel(self.items, tuple(names), self.categories, cells, self.ranked, weights)

    def coding_table(self) -> CodingTable:
        """The labels as a coding table: annotators x items, each cell the set of labels.

        What alpha with a set distance compares (the alpha rows of
        :func:`~clusteragree.labels.measures.measures_table`, the intervals and diagnostics of
        ``clusteragree table``); an item an annotator did not label is missing.

        Examples
        --------
        >>> data = MultiLabel.from_records([("m1", "A", "q"), ("m1", "A", "a"), ("m1", "B", "q"),
        ...                                 ("m2", "B", "c")])
        >>> t = data.coding_table()
        >>> sorted(t.value("A", "m1")), t.value("A", "m2")
        (['a', 'q'], None)
        """
        return CodingTable.from_records(
            (annotator, item, frozenset(labels))
            for (annotator, item), labels in self.cells.items())

    def labels(self, annotator: Hashable, item: Hashable) -> tuple[Hashable, ...]:
        """The labels of a cell (empty when the annotator did not label the item)."""
        return self.cells.get((annotator, item), ())

    def complete_items(self, annotators: Iterable[Hashable] | None = None) -> list[Hashable]:
        """Items labelled by every one of ``annotators`` (default: all)."""
        who = list(annotators) if annotators is not None else list(self.annotators)
        return [i for i in self.items if all((a, i) in self.cells for a in who)]
