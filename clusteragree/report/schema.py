"""One JSON shape for every command: an envelope of typed result records.

Every command's JSON output is an object

``{"schema": "clusteragree/1", "command", "signature", "inputs", "meta", "results",
"warnings"}``

where ``results`` is a list of records, each with a ``kind`` and the fields of that kind only
(``docs/schema/clusteragree-1.json`` is the JSON Schema; a test validates every command's output
against it):

=============  ==================================================================================
kind           fields
=============  ==================================================================================
alpha          document, pooled, distance, alpha, D_o, D_e, n, units, coders, engine, signature
               (and pair, with --pairwise; and ci, se, p_below, bootstrap, with --ci)
metric         key, response, metric, recall, precision, f1, and the metric's numerators and
               denominators (recall_num ... or, for BLANC, c_key ... n_both); with --ci, ci,
               se and bootstrap (level, method, n, resample, resampled, seed, note)
measure        measure, value, observed, expected, note (the multi-label measures)
accuracy       metric, value, sentences, ignored, pairs (tree accuracies)
score          peer, annotator, scus, original, modified (pyramid scores of peers)
correlation    annotator_a, annotator_b, score, peers, pearson, pearson_p, spearman, spearman_p
               (with --ci, pearson_low ... spearman_high and bootstrap)
difference_    key, response, document (null: pooled), category (span, missing_entity, ...),
count          count (coreference differences by Kummerfeld and Klein's categories)
coref_         key, response, document, category, mentions, key_entity, response_entity
difference
=============  ==================================================================================

Examples
--------
>>> from clusteragree import CodingTable, alpha_report
>>> frame = alpha_report(CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"),
...                                                ("A", 2, "y"), ("B", 2, "x")]), ["nominal"])
>>> record = alpha_records(frame)[0]
>>> record["kind"], record["distance"], record["pooled"], round(record["alpha"], 4)
('alpha', 'nominal', True, 0.0)
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .._lazy import module
from ..core.frames import pooled_row, report_rows

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = module("pandas")

__all__ = ["SCHEMA", "alpha_records", "diagnostic_records", "envelope", "plain_json",
           "records"]

#: The name and version of the JSON shape.
SCHEMA = "clusteragree/1"

_ALPHA = ("document", "pooled", "distance", "alpha", "D_o", "D_e", "n", "units", "coders",
          "engine", "signature")
_METRIC_COUNTS = ("recall_num", "recall_den", "precision_num", "precision_den", "c_key",
                  "c_resp", "c_both", "n_key", "n_resp", "n_both")


def _plain(value: Any) -> Any:
    if hasattr(value, "item") and not isinstance(value, (str, list, dict)):
        value = value.item()
    return value


def plain_json(value: Any, path: str = "") -> tuple[Any, list[str]]:
    """``value`` as JSON can hold it: numpy scalars as Python ones, NaN and infinities as None,
    tuples as lists, keys as text; and the paths of the values made None.

    Examples
    --------
    >>> import numpy as np
    >>> plain_json({"alpha": np.float64("nan"), "ci": (0.1, np.float32(0.5))})
    ({'alpha': None, 'ci': [0.1, 0.5]}, ['alpha'])
    """
    nulls: list[str] = []

    def clean(v: Any, at: str) -> Any:
        if hasattr(v, "item") and not isinstance(v, (list, dict, str)):
            with contextlib.suppress(ValueError, TypeError):
                v = v.item()
        if isinstance(v, float) and not math.isfinite(v):
            nulls.append(at)
            return None
        if isinstance(v, Mapping):
            return {str(k): clean(x, f"{at}.{k}" if at else str(k)) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [clean(x, f"{at}[{i}]") for i, x in enumerate(v)]
        return v
    return clean(value, path), nulls


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _about(run: Mapping[str, Any], row: Mapping[str, Any], **more: Any) -> dict[str, Any]:
    """The ``bootstrap`` object of a record: the run's settings (``n``, ``resample``,
    ``seed``, ``resampled``), the row's ``level`` and ``method`` (``ci_level``,
    ``ci_method``), and its ``note`` when there is one."""
    about = {k: _plain(v) for k, v in run.items() if k != "method"}
    if "ci_level" in row and not _missing(row["ci_level"]):
        about["level"] = float(row["ci_level"])
    if "ci_method" in row and not _missing(row["ci_method"]):
        about["method"] = str(row["ci_method"])
    about.update(more)
    if "ci_note" in row and not _missing(row["ci_note"]) and row["ci_note"]:
        about["note"] = str(row["ci_note"])
    return about


def alpha_records(frame: pd.DataFrame | Sequence[Mapping[str, Any]] | None
                  ) -> list[dict[str, Any]]:
    """The rows of an alpha report as ``alpha`` records, pooled rows first.

    Parameters
    ----------
    frame : DataFrame or None
        An alpha report (:func:`~clusteragree.core.frames.alpha_report`), possibly with a
        ``pair`` column (coreference pairs); None or an empty frame gives no record.

    Returns
    -------
    list of dict
        One record per row, the pooled rows first: ``kind`` (``"alpha"``), then ``document``
        (None for a pooled row, else the name as a string), ``pooled``, ``distance``, ``alpha``,
        ``D_o``, ``D_e``, ``n``, ``units``, ``coders``, ``engine``, ``signature`` (those the
        frame has) and ``pair`` when there is one; numpy scalars become Python numbers.

    References
    ----------
    docs/cli.md, "JSON output"; docs/schema/clusteragree-1.json (the ``alpha`` record).

    Examples
    --------
    The report worked out under :func:`~clusteragree.core.frames.alpha_report`: alpha 0 for
    ``d1``, 1 for ``d2``, 0.64 pooled. The pooled record comes first, with no document:

    >>> from clusteragree import CodingTable, alpha_report
    >>> d1 = CodingTable.from_records([("A", 1, "x"), ("B", 1, "y"), ("A", 2, "y"), ("B", 2, "y")])
    >>> d2 = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "x"), ("B", 2, "x"),
    ...                                ("A", 3, "y"), ("B", 3, "y")])
    >>> df = alpha_report({"d1": d1, "d2": d2}, ["nominal"])
    >>> recs = alpha_records(df)
    >>> [(r["document"], r["pooled"], round(r["alpha"], 4)) for r in recs]
    [(None, True, 0.64), ('d1', False, 0.0), ('d2', False, 1.0)]
    >>> list(recs[0])[:4]
    ['kind', 'document', 'pooled', 'distance']
    >>> alpha_records(None)
    []
    """
    if frame is None:
        return []
    rows, attrs = report_rows(frame)
    out = []
    for row in [r for r in rows if pooled_row(r)] + [r for r in rows if not pooled_row(r)]:
        rec: dict[str, Any] = {"kind": "alpha"}
        rec.update({k: _plain(row[k]) for k in _ALPHA if k in row})
        rec["pooled"] = bool(rec.get("pooled", True))
        rec["document"] = None if rec["pooled"] else str(rec["document"])
        if "pair" in row:
            rec["pair"] = str(row["pair"])
        if "ci_low" in row and not _missing(row["ci_low"]):
            rec["ci"] = [_plain(row["ci_low"]), _plain(row["ci_high"])]
            rec["se"] = _plain(row["se"])
            rec["p_below"] = {"0.667": _plain(row["p_below_0.667"]),
                              "0.8": _plain(row["p_below_0.8"])}
            rec["bootstrap"] = _about(attrs.get("bootstrap", {}), row,
                                      undefined=int(row["bootstrap_undefined"]))
        out.append(rec)
    return out


def records(frame: pd.DataFrame | Sequence[Mapping[str, Any]], kind: str
            ) -> list[dict[str, Any]]:
    """Rows as records of ``kind``. For ``metric`` records, the counts a metric does not have
    (NaN in the table of all metrics) are left out.

    Parameters
    ----------
    frame : DataFrame or sequence of mapping
        The rows, each a mapping of field to value.
    kind : str
        The record kind: ``metric``, ``measure``, ``accuracy``, ``score``, ``correlation``
        (the ``alpha`` records have :func:`alpha_records`).

    Returns
    -------
    list of dict
        One record per row: ``kind`` first, then the row's fields with string keys and numpy
        scalars as Python numbers. In ``metric`` records a missing (None or NaN) numerator or
        denominator (``recall_num`` ... ``n_both``) is left out; other fields are kept as they
        are.

    References
    ----------
    docs/cli.md, "JSON output"; docs/schema/clusteragree-1.json (the record kinds).

    Examples
    --------
    MUC has recall and precision counts and no BLANC link counts, BLANC the other way round:
    each record keeps only its own:

    >>> import pandas as pd
    >>> nan = float("nan")
    >>> frame = pd.DataFrame({"metric": ["muc", "blanc"], "f1": [0.5, 0.25],
    ...                       "recall_num": [1.0, nan], "c_key": [nan, 2.0]})
    >>> records(frame, "metric")
    [{'kind': 'metric', 'metric': 'muc', 'f1': 0.5, 'recall_num': 1.0},
     {'kind': 'metric', 'metric': 'blanc', 'f1': 0.25, 'c_key': 2.0}]
    >>> records([{"measure": "A_m", "value": None}], "measure")
    [{'kind': 'measure', 'measure': 'A_m', 'value': None}]
    """
    rows, _ = report_rows(frame)
    out = []
    for row in rows:
        rec: dict[str, Any] = {"kind": kind}
        for k, v in row.items():
            v = _plain(v)
            if kind == "metric" and k in _METRIC_COUNTS and _missing(v):
                continue
            rec[str(k)] = v
        if kind == "metric" and "ci_low" in rec:  # a bootstrap interval of F1, as for alpha
            low, high, se = rec.pop("ci_low"), rec.pop("ci_high"), rec.pop("se", None)
            if not _missing(low):
                rec["ci"], rec["se"] = [low, high], se
        if kind in ("metric", "correlation") and "ci_method" in rec:  # how it was drawn
            about = {k: rec.pop(k, None) for k in ("ci_level", "ci_method", "ci_note")}
            if not _missing(about["ci_method"]) and isinstance(frame, pd.DataFrame):
                rec["bootstrap"] = _about(frame.attrs.get("bootstrap", {}), about)
        out.append(rec)
    return out


def envelope(command: str, inputs: Sequence[str], signature: str,
             results: Sequence[Mapping[str, Any]], meta: Mapping[str, Any] | None = None
             ) -> dict[str, Any]:
    """The JSON object of a command (the ``warnings`` are added when it is printed).

    Parameters
    ----------
    command : str
        The subcommand (``table``, ``pyramid``, ``coref``, ...).
    inputs : sequence of str or path
        The input files, in the order given.
    signature : str
        The run's reproducibility signature.
    results : sequence of mapping
        The result records (:func:`alpha_records`, :func:`records`).
    meta : mapping, optional
        What concerns the run rather than a result (rows read, units, annotators, ...).

    Returns
    -------
    dict
        ``{"schema": SCHEMA, "command", "signature", "inputs", "meta", "results"}``, with the
        inputs as strings and copies of ``meta`` and of each record.

    References
    ----------
    docs/cli.md, "JSON output"; docs/schema/clusteragree-1.json.

    Examples
    --------
    >>> obj = envelope("table", ["a.csv"], "alpha|dist:nominal|v:0",
    ...                [{"kind": "measure", "measure": "A_m", "value": 0.5}], {"units": "items"})
    >>> list(obj)
    ['schema', 'command', 'signature', 'inputs', 'meta', 'results']
    >>> obj["schema"], obj["inputs"], obj["meta"], obj["results"][0]["value"]
    ('clusteragree/1', ['a.csv'], {'units': 'items'}, 0.5)
    """
    return {"schema": SCHEMA, "command": command, "signature": signature,
            "inputs": [str(i) for i in inputs], "meta": dict(meta or {}),
            "results": [dict(r) for r in results]}


#: The columns of the ``units`` diagnostics that are no annotator's value
#: (:data:`clusteragree.core.diagnostics.UNIT_COLUMNS`, with the distance and the rank).
_UNIT_FIELDS = ("distance", "rank", "key", "unit", "document", "position", "values",
                "disagreement", "share")


def diagnostic_records(found: Mapping[str, pd.DataFrame]) -> list[dict[str, Any]]:
    """The diagnostics of :func:`clusteragree.core.diagnostics.diagnostics` as records.

    Parameters
    ----------
    found : mapping of DataFrame
        The diagnostics by name.

    Returns
    -------
    list of dict
        ``unit`` records (the ``worst`` units under each distance: ``distance``, ``rank``
        within it from 1, ``unit`` as text, ``document`` or None, ``values`` (``m_u``),
        ``disagreement``, ``share``, and ``codes``: each annotator's value as text),
        ``category`` records (category, alpha, n, uses), ``annotator`` records (coder,
        alpha_without, change, and ``pairwise``: alpha with each other annotator),
        ``coincidence`` records (value, n_v, and ``row``: o_vw for each w) and ``document``
        records (document, distance, alpha, n).

    References
    ----------
    docs/schema/clusteragree-1.json; docs/uncertainty.md.

    Examples
    --------
    One unit, {PER, ORG} against {PER}: its two ordered pairs, each weighted 1 / (2 - 1),
    disagree (2):

    >>> from clusteragree import CodingTable
    >>> from clusteragree.core.diagnostics import diagnostics
    >>> t = CodingTable.from_records([("A", "u1", {"PER", "ORG"}), ("B", "u1", {"PER"})])
    >>> diagnostic_records({"units": diagnostics(t, ["nominal"])["units"]})
    [{'kind': 'unit', 'distance': 'nominal', 'rank': 1, 'unit': 'u1', 'document': None,
      'values': 2, 'disagreement': 2.0, 'share': 1.0, 'codes': {'A': 'ORG, PER', 'B': 'PER'}}]
    >>> import pandas as pd
    >>> diagnostic_records({"categories": pd.DataFrame(
    ...     {"category": ["x"], "alpha": [0.5], "n": [4], "uses": [2]})})
    [{'kind': 'category', 'category': 'x', 'alpha': 0.5, 'n': 4, 'uses': 2}]
    """
    out: list[dict[str, Any]] = []
    if "units" in found:
        for row in found["units"].to_dict("records"):
            codes = {str(k): _plain(v) for k, v in row.items() if k not in _UNIT_FIELDS}
            out.append({"kind": "unit", "distance": str(row["distance"]),
                        "rank": int(row["rank"]), "unit": str(row["unit"]),
                        "document": None if _missing(row["document"]) else str(row["document"]),
                        **({"position": [int(x) for x in row["position"]]}
                           if isinstance(row.get("position"), (tuple, list))
                           and row["position"] else {}),
                        "values": int(row["values"]),
                        **{k: _plain(row[k]) for k in ("disagreement", "share")},
                        "codes": codes})
    if "categories" in found:
        out += records(found["categories"], "category")
    if "annotators" in found:
        pairwise = found.get("pairwise")
        for entry in found["annotators"].to_dict("records"):
            rec: dict[str, Any] = {"kind": "annotator",
                                   **{str(k): _plain(v) for k, v in entry.items()}}
            rec["coder"] = str(rec["coder"])
            if pairwise is not None:
                rec["pairwise"] = {str(k): _plain(v) for k, v in pairwise.loc[entry["coder"]]
                                   .items() if k != entry["coder"]}
            out.append(rec)
    if "coincidences" in found:
        matrix = found["coincidences"]
        for value, cells in matrix.iterrows():
            out.append({"kind": "coincidence", "value": str(value),
                        "n_v": _plain(cells["n_v"]),
                        "row": {str(k): _plain(v) for k, v in cells.items() if k != "n_v"}})
    if "documents" in found:
        for doc in found["documents"].to_dict("records"):
            out.append({"kind": "document", **{str(k): _plain(v) for k, v in doc.items()},
                        "document": str(doc["document"])})
    return out
