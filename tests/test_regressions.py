"""Regression inputs: one small file (or command line) per failure found, with the error or
warning it must give.

Each directory under ``corpora_fixtures/regressions/`` holds input files and a ``cases.json``:
a list of cases ``{"name", "argv", "exit", "stderr": [...], "stdout": [...], "warnings":
[{"kind", "message"}], "why"}``. ``argv`` is run in-process with that directory as the working
directory, so messages name the files as written there. ``stderr`` and ``stdout`` are substrings
that must appear; ``warnings`` must match entries of the JSON ``"warnings"`` list (the message
as a substring); ``why`` says what used to go wrong.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent / "corpora_fixtures" / "regressions"


def _cases() -> list[Any]:
    out = []
    for manifest in sorted(ROOT.glob("*/cases.json")):
        for case in json.loads(manifest.read_text(encoding="utf-8")):
            out.append(pytest.param(manifest.parent, case,
                                    id=f"{manifest.parent.name}/{case['name']}"))
    return out


def test_every_case_is_documented() -> None:
    names: set[str] = set()
    for manifest in sorted(ROOT.glob("*/cases.json")):
        for case in json.loads(manifest.read_text(encoding="utf-8")):
            key = f"{manifest.parent.name}/{case['name']}"
            assert key not in names, f"two cases named {key}"
            names.add(key)
            assert case.get("why"), f"{key}: say what used to go wrong"
            assert {"argv", "exit"} <= set(case), key


@pytest.mark.parametrize(("folder", "case"), _cases())
def test_regression(folder: Path, case: dict[str, Any], cli, monkeypatch) -> None:
    monkeypatch.chdir(folder)
    code, out, err = cli(*case["argv"])
    assert code == case["exit"], f"exit {code}; stderr: {err}"
    for text in case.get("stderr", []):
        assert text in err, f"{text!r} not in stderr: {err}"
    for text in case.get("stdout", []):
        assert text in out, f"{text!r} not in stdout: {out}"
    if "warnings" in case:
        got = json.loads(out)["warnings"]
        for want in case["warnings"]:
            assert any(w["kind"] == want["kind"] and want["message"] in w["message"]
                       for w in got), f"{want} not in {got}"
    assert "Traceback" not in err
