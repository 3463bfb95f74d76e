"""Rendering: every result as text, JSON, CSV or LaTeX."""

from __future__ import annotations

from .records import SCHEMA, alpha_records, envelope, records
from .render import FORMATS, json_object, render, table

__all__ = [
    'FORMATS',
    'SCHEMA',
    'alpha_records',
    'envelope',
    'json_object',
    'records',
    'render', 'table'
]
