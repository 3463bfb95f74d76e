"""Rendering: every result as text, JSON, CSV or LaTeX."""

from __future__ import annotations

from .render import FORMATS, json_object, render

__all__ = [
    'FORMATS', 'json_object', 'render'
]
