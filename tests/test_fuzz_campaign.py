"""The mutation campaign of scripts/fuzz_campaign.py, small: every outcome must be a result,
an input error or a usage error (slow: forks a child per input)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "fuzz_campaign.py"


@pytest.mark.slow
def test_a_small_campaign_has_no_traceback_crash_or_hang(tmp_path: Path, capsys) -> None:
    spec = importlib.util.spec_from_file_location("fuzz_campaign", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_campaign"] = module
    spec.loader.exec_module(module)
    counts = module.campaign(list(module.READERS), 15, 7, 60.0, 2, 4096, tmp_path)
    bad = {r: {o: n for o, n in c.items() if o not in module.GOOD} for r, c in counts.items()}
    assert not any(bad.values()), (bad, capsys.readouterr().out)
    assert sum(sum(c.values()) for c in counts.values()) == 15 * len(module.READERS)
