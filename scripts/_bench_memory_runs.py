"""The memory section of scripts/bench.py: the readers' peak memory on large generated files.

Each case runs ``scripts/bench_memory.py --formats FORMAT --size-mb SIZE`` (which writes the
file, reads it in a fresh interpreter and reports that interpreter's resident peak) and returns
its figures: the input's size (both files for ``pyr-pair``), the peak, the baseline (the
interpreter with the reader imported) and their ratio to the input.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from _bench_runs import SCRIPTS, tool

#: The formats measured, and what each reads.
FORMATS = {
    "csv": "a long CSV of codings, a million distinct units (read_long_table)",
    "pyr": "a DUCView pyramid (read_pyramid)",
    "pyr-pair": "two DUCView pyramids read in one process (read_pyramid of each)",
}


def _spec(n: int, params: dict[str, Any]) -> tuple[str, int, int]:
    return params["format"], n, params.get("units", 1_000_000)


def reader_memory(spec: tuple[str, int, int]) -> dict[str, Any]:
    fmt, size_mb, units = spec
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, str(SCRIPTS / "bench_memory.py"), "--formats", fmt,
                        "--size-mb", str(size_mb), "--units", str(units), "--out", tmp],
                       check=True, capture_output=True, text=True)
        row = json.loads((Path(tmp) / "memory.json").read_text())[0]
    if "error" in row:
        raise RuntimeError(f"{fmt}: {row['error']}")
    return {"value": None, **row}


for _fmt in FORMATS:
    tool("memory", f"reader: {_fmt}", _spec)(reader_memory)
