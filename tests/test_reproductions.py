"""The reproduction scripts run and report what the paper prints beside what we compute."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_passonneau2006_reproduction(tmp_path: Path) -> None:
    out = tmp_path / "report.md"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "reproduce_passonneau2006.py"),
                    str(out)], check=True, capture_output=True, text=True)
    text = out.read_text()
    assert "| Figure 2 | 5/9 (0.5556) | 5/9 (same) | 10/27 (0.3704) | 10/27 (same) |" in text
    assert "| Figure 3 | 4/9 (0.4444) | 4/9 (same) | 7/27 (0.2593) | 2/9 (**differs**) |" in text
    assert "| spans (7, Figure 4) | 0.000 (+0.00) |" in text
    assert "## Figure 5" in text


def test_benchmark_scripts_run_on_small_sizes() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_coref.py"), "--tokens",
                          "5000"], check=True, capture_output=True, text=True).stdout
    assert "read and scored, total" in out and "F1 (A key): muc" in out
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_alpha.py"),
                          "--skip-nltk", "--max-exp", "4"], check=True, capture_output=True,
                         text=True).stdout
    assert "10000" in out


def test_multilabel_study_runs(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(ROOT / "scripts" / "study_multilabel.py"), "--items",
                    "60", "--out", str(tmp_path)], check=True, capture_output=True, text=True)
    text = (tmp_path / "multilabel-study.md").read_text()
    assert "## swaps s" in text and "K' at p = 0.5 by 0.000" in text
    assert (tmp_path / "multilabel-study.csv").exists()


@pytest.mark.skipif(not (ROOT.parent / "shared" / "corpora" / "syntax").is_dir(),
                    reason="../shared/corpora absent")
def test_tree_noise_study_runs(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(ROOT / "scripts" / "study_tree_noise.py"), "--runs", "1",
                    "--sentences", "10", "--out", str(tmp_path)], check=True,
                   capture_output=True, text=True)
    text = (tmp_path / "tree-noise-study.md").read_text()
    assert "| 0 | 1.000 | 1.000 | 1.000 | 1.000 |" in text


@pytest.mark.parametrize("script", sorted(p.name for p in (ROOT / "scripts").glob("*.py")
                                          if not p.name.startswith("_")))
def test_every_script_is_a_tool_with_help(script: str, tmp_path: Path) -> None:
    """--help answers (exit 0) and writes nothing, wherever it is run from."""
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / script), "--help"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage:") and "--out" in done.stdout
    assert not list(tmp_path.iterdir())


def test_contingency_choices_agree_on_small_sizes() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_choices.py"),
                           "--sizes", "2000,20000", "--repeat", "1"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout + done.stderr  # the three tables are equal
    assert "20,000" in done.stdout and "another table" not in done.stdout
