"""Shared fixtures, and the order the tests run in."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from clusteragree.cli import main


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """Run the command line in-process: ``cli(*argv) -> (exit status, stdout, stderr)``."""

    def run(*argv: str) -> tuple[int, str, str]:
        try:
            code = main(list(argv))
        except SystemExit as exit_:
            code = int(exit_.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    return run


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` first, each group in the order collected: with the suite
    spread over processes (pytest-xdist, ``-n``), the long tests start early and the last
    ones to finish are short, so that no process waits long for another at the end."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """How many processes ``-n auto`` (in addopts) starts: pytest-xdist's count of the cores
    for the whole suite or for folders, none (the tests run here) when every argument names a
    file or a test, whose workers would cost more than they save. ``-n N`` and
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` decide otherwise."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    named = [arg.split("::", 1)[0] for arg in config.args]
    if named and all(Path(config.invocation_params.dir, arg).is_file() for arg in named):
        return 0
    return None
