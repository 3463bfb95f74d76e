"""Readers: files in, model objects out (one module per format)."""

from .table import LongTable, read_long_table

__all__ = ["LongTable", "read_long_table"]
