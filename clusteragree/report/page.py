"""The report from Python: ``clusteragree.report(results, views=..., output=...)`` gives the
page ``clusteragree report`` writes, from results computed in Python (alpha results, alpha
reports with their diagnostics, a command's JSON output) and the side-by-side views the
domains build (:func:`clusteragree.coref.sidebyside.chain_views` and the like)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.result import AlphaResult
from ..errors import InputError, ParameterError
from .headline import explanations, figures
from .html import html_report
from .schema import alpha_records, diagnostic_records, plain_json

__all__ = ["Page", "report"]


class Page(str):
    """A report page: the HTML text, which writes itself to a file and shows its headline in
    Jupyter.

    References
    ----------
    docs/report.md, "From Python".

    Examples
    --------
    >>> page = report({"command": "table", "inputs": [], "signature": "s", "results": [
    ...     {"kind": "alpha", "distance": "nominal", "alpha": 0.9, "pooled": True}]})
    >>> page.startswith("<!DOCTYPE html>"), "0.9000" in page._repr_html_()
    (True, True)
    """

    envelope: dict[str, Any]

    def write(self, path: str | os.PathLike[str]) -> Path:
        """Write the page to ``path`` (UTF-8) and return the path."""
        target = Path(path)
        try:
            target.write_text(str(self), encoding="utf-8")
        except OSError as err:
            raise InputError(f"cannot write the report: {err.strerror}",
                             path=str(target)) from None
        return target

    def _repr_html_(self) -> str:
        records = self.envelope.get("results", [])
        blocks = "".join(figures(records)) or "<p>no headline figure in these results</p>"
        size = f"{len(self.encode('utf-8')) // 1024:,} KB"
        return ("<div style='font-family:system-ui,sans-serif'><div style='display:flex;"
                f"flex-wrap:wrap;gap:.5em 2em'>{blocks}</div>{explanations(records)}"
                f"<p style='color:#666;font-size:.85em'>the full page ({size}): "
                "<code>page.write('report.html')</code></p></div>")


def _records(result: Any) -> tuple[list[dict[str, Any]], list[str]]:
    """The records of one result, and its signatures."""
    if isinstance(result, AlphaResult):
        record: dict[str, Any] = {"kind": "alpha", "document": None, "pooled": True,
                                  "pair": "all", **result.as_dict(),
                                  "signature": result.signature}
        if result.uncertainty:
            record.update(dict(result.uncertainty))
        return [plain_json(record)[0]], [result.signature]
    if isinstance(result, pd.DataFrame) and "alpha" in result.columns:
        found = alpha_records(result)
        found += diagnostic_records(result.attrs.get("diagnostics") or {})
        return found, sorted({str(s) for s in result.get("signature", [])})
    raise ParameterError(
        "results must be alpha results, alpha reports (DataFrames with an alpha column) or a "
        f"command's JSON output; got {type(result).__name__}", params=("results",))


def report(results: Any, *, views: Sequence[Mapping[str, Any]] = (),
           output: str | os.PathLike[str] | None = None, title: str | None = None,
           inputs: Sequence[str] = ()) -> Page:
    """The HTML page of results computed in Python, as ``clusteragree report`` writes it.

    Parameters
    ----------
    results : AlphaResult, DataFrame, mapping, path, or a sequence of them
        Alpha results (:func:`clusteragree.alpha`), alpha reports
        (:func:`clusteragree.alpha_report`, with their ``diagnostics`` when asked), or a
        command's JSON output (``-f json``: a mapping, or the path of the file).
    views : sequence of mapping, optional
        Side-by-side views (:func:`clusteragree.coref.sidebyside.chain_views`,
        :func:`clusteragree.trees.sidebyside.tree_views`, ...).
    output : path, optional
        Also write the page there.
    title : str, optional
        The page's title.
    inputs : sequence of str, optional
        What the results were computed from (named at the top of the page).

    Returns
    -------
    Page
        The HTML text; in Jupyter it shows its headline figures.

    Raises
    ------
    ParameterError
        A result of another type.
    InputError
        A JSON file that cannot be read; an output that cannot be written.

    References
    ----------
    docs/report.md, "From Python".

    Examples
    --------
    >>> from clusteragree import CodingTable, alpha
    >>> t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "y"),
    ...                               ("B", 2, "y"), ("A", 3, "x"), ("B", 3, "y")])
    >>> page = report(alpha(t, "nominal"), title="two annotators")
    >>> "<title>two annotators</title>" in page, "0.4444" in page
    (True, True)
    """
    envelope: dict[str, Any]
    if isinstance(results, (str, os.PathLike)):
        try:
            with open(results, encoding="utf-8") as handle:
                envelope = json.load(handle)
        except OSError as err:
            raise InputError(f"cannot read the results: {err.strerror}",
                             path=str(results)) from None
        except ValueError as err:
            raise InputError(f"not a command's JSON output: {err}", path=str(results)) from None
        if not isinstance(envelope, dict) or "results" not in envelope:
            raise InputError("not a command's JSON output (no results)", path=str(results))
    elif isinstance(results, Mapping):
        envelope = dict(results)
    else:
        many = results if isinstance(results, (list, tuple)) else [results]
        records: list[dict[str, Any]] = []
        signatures: list[str] = []
        for r in many:
            found, signed = _records(r)
            records += found
            signatures += signed
        envelope = {"command": "python", "inputs": list(inputs),
                    "signature": "; ".join(dict.fromkeys(signatures)), "results": records,
                    "warnings": []}
    envelope = plain_json(envelope)[0]  # NaN (undefined) as null, as the JSON output has it
    if inputs and not envelope.get("inputs"):
        envelope["inputs"] = list(inputs)
    page = Page(html_report(envelope, list(views), title=title or (
        f"clusteragree {envelope.get('command')}" if envelope.get("command") != "python"
        else "clusteragree")))
    page.envelope = envelope
    if output is not None:
        page.write(output)
    return page
