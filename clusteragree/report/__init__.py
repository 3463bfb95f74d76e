"""Rendering: every result as text, JSON, CSV, LaTeX or an HTML page.

The module itself is callable: ``clusteragree.report(results, views=..., output=...)`` is
:func:`clusteragree.report.page.report`. Names are loaded on first use (the command line
starts without numpy and pandas)."""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

from .._lazy import attach

if TYPE_CHECKING:
    from .formats import FORMATS
    from .html import html_report
    from .page import Page, report
    from .schema import SCHEMA, alpha_records, envelope, records
    from .tables import json_object, render, table
    from .text import alpha_headline, plural, text_report

_WHERE = {
    'FORMATS': '.formats',
    'SCHEMA': '.schema',
    'alpha_headline': '.text',
    'alpha_records': '.schema',
    'html_report': '.html',
    'Page': '.page',
    'report': '.page',
    'envelope': '.schema',
    'json_object': '.tables',
    'plural': '.text',
    'records': '.schema',
    'render': '.tables',
    'table': '.tables',
    'text_report': '.text',
}
__getattr__, __dir__ = attach(__name__, _WHERE)

__all__ = [
    'FORMATS',
    'SCHEMA',
    'Page',
    'alpha_headline',
    'alpha_records',
    'envelope',
    'html_report',
    'json_object',
    'plural',
    'records',
    'render',
    'report',
    'table',
    'text_report'
]


class _CallableModule(types.ModuleType):
    """``clusteragree.report(...)``: the module called is :func:`.page.report`."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.report(*args, **kwargs)  # .page.report, loaded on first use


sys.modules[__name__].__class__ = _CallableModule
