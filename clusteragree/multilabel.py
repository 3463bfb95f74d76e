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

import csv
import json
import os
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from .errors import InputError

__all__ = ["MultiLabel", "measures_table", "read_multilabel"]


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
        line_of = iter(lines) if lines is not None else None
        got: dict[tuple[Hashable, Hashable], list[tuple[int, Hashable, int | None]]] = {}
        items: dict[Hashable, None] = {}
        declared = dict.fromkeys(annotators) if annotators is not None else {}
        spelled: dict[str, tuple[Hashable, int | None]] = {}
        ranked = False
        for pos, record in enumerate(records, start=1):
            line = next(line_of) if line_of is not None else None
            where: dict[str, Any] = {"path": source, "line": line}
            if len(record) not in (3, 4):
                raise InputError(f"record {pos}: expected item, annotator, label[, rank]", **where)
            item, annotator, label = record[0], record[1], record[2]
            rank = record[3] if len(record) == 4 else None
            if rank is not None and not (isinstance(rank, float) and pd.isna(rank)):
                try:
                    rank = int(rank)
                except (TypeError, ValueError):
                    raise InputError(f"rank {rank!r} is not 1 (primary) or 2 (secondary)",
                                     **where) from None
                if rank not in (1, 2):
                    raise InputError(f"rank {rank} is not 1 (primary) or 2 (secondary)", **where)
                ranked = True
            else:
                rank = None
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


def read_multilabel(path: str | os.PathLike[str]) -> MultiLabel:
    """Read a long CSV with the header ``item,annotator,label[,rank]``, or a JSON list of
    objects with those keys (``.json``)."""
    name = os.fspath(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as err:
        raise InputError(f"cannot open: {err.strerror}", path=name) from None
    if name.endswith(".json"):
        try:
            objects = json.loads(text)
        except json.JSONDecodeError as err:
            raise InputError(f"not JSON: {err.msg}", path=name, line=err.lineno) from None
        if not isinstance(objects, list) or not all(isinstance(o, dict) for o in objects):
            raise InputError("expected a JSON list of objects with item, annotator, label",
                             path=name, line=1)
        try:
            records = [(o["item"], o["annotator"], o["label"], o.get("rank")) for o in objects]
        except KeyError as err:
            raise InputError(f"an object lacks the key {err.args[0]!r}", path=name) from None
        return MultiLabel.from_records(records, source=name)
    rows = csv.reader(text.splitlines())
    header = [h.strip().lower() for h in next(rows, [])]
    if header[:3] != ["item", "annotator", "label"] or header[3:] not in ([], ["rank"],
                                                                            ["weight"]):
        raise InputError(f"the header is {header}; expected item,annotator,label[,rank] or "
                         "item,annotator,label,weight", path=name, line=1)
    rows_read: list[tuple[Any, ...]] = []
    lines: list[int] = []
    for number, row in enumerate(rows, start=2):
        if not row or not any(c.strip() for c in row):
            continue
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
