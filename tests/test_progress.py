"""Progress bars: on standard error when asked (a terminal), never otherwise."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from clusteragree.progress import Progress, shown

FIX = Path(__file__).resolve().parent.parent / "corpora_fixtures"


def test_a_bar_only_inside_shown(monkeypatch) -> None:
    for on, expected in ((False, ""), (True, "steps")):
        buffer = io.StringIO()
        monkeypatch.setattr(sys, "stderr", buffer)
        with shown(on), Progress(5, "steps", delay=0) as bar:
            for _ in range(5):
                bar.update()
        assert (expected in buffer.getvalue()) and (bool(buffer.getvalue()) == on)


def test_the_command_line_draws_none_into_a_pipe(cli) -> None:
    code, _, err = cli("table", str(FIX / "krippendorff2011.csv"), "--scalar", "--distance",
                       "nominal", "--ci", "0.9", "--bootstrap", "3000", "--seed", "1")
    assert code == 0 and "\r" not in err and "it/s" not in err
