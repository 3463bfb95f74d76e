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

import os
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .errors import InputError, ParameterTypeError, notify
from .inputs import csv_rows, decode, load_json, parse_int, read_bytes
from .model import is_missing, require_records

__all__ = ["MultiLabel", "measures_table", "read_multilabel"]


def require_multilabel(data: Any, what: str = "data") -> None:
    """Refuse anything but a :class:`MultiLabel` (with a message naming the argument)."""
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

    Attributes
    ----------
    items, annotators, categories : tuple
        In order of first appearance (categories sorted).
    cells : dict
        ``(annotator, item) -> tuple of labels``, ranked labels in rank order, unranked ones sorted.
    ranked : bool
        Whether ranks were given.
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
        lines: Iterable[int] | None = None,
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
        lines: Iterable[int] | None = None, annotators: Iterable[Hashable] | None = None,
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
            notify("skipped", "rows with a missing label (None, NaN or NA) give no label",
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

    def labels(self, annotator: Hashable, item: Hashable) -> tuple[Hashable, ...]:
        """The labels of a cell (empty when the annotator did not label the item)."""
        return self.cells.get((annotator, item), ())

    def complete_items(self, annotators: Iterable[Hashable] | None = None) -> list[Hashable]:
        """Items labelled by every one of ``annotators`` (default: all)."""
        who = list(annotators) if annotators is not None else list(self.annotators)
        return [i for i in self.items if all((a, i) in self.cells for a in who)]


def read_multilabel(path: str | os.PathLike[str], *, encoding: str | None = None
                    ) -> MultiLabel:
    """Read a long CSV with the header ``item,annotator,label[,rank]`` (or
    ``item,annotator,label,weight``), or a JSON list of objects with those keys (``.json``).

    A missing label (an empty JSON ``null``) gives no label and is reported; ranks are the
    integers 1 and 2 (``1.0`` reads as 1, ``1.7`` is refused); numbers in JSON must be finite
    and of at most 18 digits; keys or columns the format does not use are reported
    (``ignored``). Data with fewer than two annotators is refused: there is nothing to compare.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise ParameterTypeError(f"path must be a file path. Got {type(path).__name__}.")
    name = os.fspath(path)
    text = decode(read_bytes(name), name, encoding=encoding)
    data = _read_json(text, name) if name.endswith(".json") else _read_csv(text, name)
    if len(data.annotators) < 2:
        raise InputError(
            f"nothing to compare: {len(data.annotators)} annotator(s) "
            f"({', '.join(map(str, data.annotators))}); agreement needs the labels of two or "
            "more annotators on the same items", path=name)
    return data


_KEYS = ("item", "annotator", "label", "rank")


def _read_json(text: str, name: str) -> MultiLabel:
    objects = load_json(text, name)
    if not isinstance(objects, list) or not all(isinstance(o, dict) for o in objects):
        raise InputError("expected a JSON list of objects with item, annotator, label",
                         path=name, line=1)
    extra: set[str] = set()
    records = []
    for pos, o in enumerate(objects, start=1):
        missing = [k for k in _KEYS[:3] if k not in o]
        if missing:
            raise InputError(f"object {pos} lacks the key {missing[0]!r}", path=name)
        for k in ("item", "annotator", "label"):
            if isinstance(o[k], (list, dict)):
                raise InputError(f"object {pos}: the {k} is a JSON {type(o[k]).__name__}; "
                                 "give one string or number", path=name)
        extra |= set(o) - set(_KEYS)
        records.append((o["item"], o["annotator"], o["label"], o.get("rank")))
    if extra:
        notify("ignored", f"keys not used: {', '.join(sorted(map(repr, extra)))} (a record "
               "reads item, annotator, label and rank)", path=name)
    return MultiLabel.from_records(records, source=name)


def _read_csv(text: str, name: str) -> MultiLabel:
    rows = csv_rows(text, name)
    first = next(rows, None)
    header = [h.strip().lower() for h in first[1]] if first else []
    if header[:3] != ["item", "annotator", "label"] or header[3:] not in ([], ["rank"],
                                                                            ["weight"]):
        raise InputError(f"the header is {header}; expected item,annotator,label[,rank] or "
                         "item,annotator,label,weight", path=name, line=first[0] if first else 1)
    rows_read: list[tuple[Any, ...]] = []
    lines: list[int] = []
    for number, row in rows:
        if len(row) != len(header):
            raise InputError(f"{len(row)} fields, expected {len(header)}", path=name,
                             line=number)
        values: list[Any] = [c.strip() for c in row]
        if len(values) == 4 and values[3] == "":
            values[3] = None
        rows_read.append(tuple(values))
        lines.append(number)
    if header[3:] == ["weight"]:
        return MultiLabel.from_weighted_records(rows_read, source=name,
                                                lines=lines)
    return MultiLabel.from_records(rows_read, source=name, lines=lines)


def measures_table(
    data: MultiLabel,
    *,
    ps: tuple[float, ...] = (0.5, 0.75, 1.0),
    distances: tuple[str, ...] = ("nominal", "jaccard", "dice", "masi"),
    categories: Iterable[Hashable] | None = None,
) -> pd.DataFrame:
    """Every measure on the same data, one row each: augmented kappa K' at each p (when every
    cell has one label or ranked labels), A_m (the paper's and the consistent variant), alpha
    with each set distance, and multi-valued alpha. Comparing them tells more than any one.

    Returns a DataFrame with the columns ``measure, value, observed, expected, note``.
    """
    require_multilabel(data)
    from .alpha import alpha_many
    from .augmented_kappa import augmented_kappa
    from .bhowmick import a_m
    from .model import CodingTable
    from .mvalpha import mv_alpha

    rows = []
    two_unranked = (not data.ranked and data.weights is None
                    and any(len(v) > 1 for v in data.cells.values()))
    if data.weights is not None:
        ps = ps[:1]
    for p in ps:
        if two_unranked:
            rows.append({"measure": f"K' (p={p:g})", "value": float("nan"),
                         "note": "needs ranked labels"})
            continue
        r = augmented_kappa(data, p)
        name = "K' (given weights)" if data.weights is not None else f"K' (p={p:g})"
        rows.append({"measure": name, "value": r.kappa, "observed": r.p_a,
                     "expected": r.p_e, "note": "Rosenberg & Binkowski; mean over pairs"})
    cats = list(categories) if categories is not None else None
    for consistent in (False, True):
        am = a_m(data, categories=cats, consistent=consistent)
        rows.append({"measure": "A_m" + (" (consistent Po)" if consistent else ""),
                     "value": am.a_m, "observed": am.po, "expected": am.pe,
                     "note": "Bhowmick et al." + ("; [0 1] = [1 0] in Po" if consistent else "")})
    table = CodingTable.from_records(
        (annotator, item, frozenset(labels)) for (annotator, item), labels in data.cells.items())
    for res in alpha_many(table, distances):
        rows.append({"measure": f"alpha ({res.distance})", "value": res.alpha,
                     "observed": res.D_o, "expected": res.D_e, "note": res.signature})
    units: dict[Hashable, dict[Hashable, set[Hashable]]] = {}
    for (annotator, item), labels in data.cells.items():
        units.setdefault(item, {})[annotator] = set(labels)
    mv = mv_alpha(units)
    rows.append({"measure": "mv-alpha", "value": mv.alpha, "observed": mv.do, "expected": mv.de,
                 "note": "Krippendorff & Craggs 2016"})
    return pd.DataFrame(rows, columns=["measure", "value", "observed", "expected", "note"])
