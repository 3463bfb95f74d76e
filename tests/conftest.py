"""Shared fixtures, and the order the tests run in."""

from __future__ import annotations

from collections.abc import Callable

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
