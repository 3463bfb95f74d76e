"""The output formats every command writes."""

from __future__ import annotations

__all__ = ["FORMATS"]

FORMATS = ("text", "json", "csv", "latex")
