"""The real-data matrix: every command and its report on the real corpora of ../shared/corpora,
crossed with the option families (cases in ``real_matrix.py``). Each run must end in exit 0,
or 1 where the case allows it, never 2 (that is for argument parsing) nor 70 (a bug); every
message must be one line and speak the command line's words. Skipped when ../shared is absent.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import real_matrix

pytestmark = pytest.mark.skipif(not real_matrix.available(), reason="../shared/corpora absent")


def _cases() -> list[real_matrix.Case]:
    """The cases, their derived inputs written once per session (removed at exit)."""
    if not real_matrix.available():
        return []
    import atexit
    import shutil
    import tempfile

    scratch = Path(tempfile.mkdtemp(prefix="clusteragree-real-"))
    atexit.register(shutil.rmtree, scratch, True)
    return real_matrix.build(scratch)


#: How the library spells a keyword argument (``roots='many'``): never in a command's message.
LIBRARY_SPELLING = re.compile(r"\b[a-z_]+=(?:'[^']*'|\"[^\"]*\"|True|False|None|\d)")


def _check(case: real_matrix.Case, code: int, out: str, err: str) -> None:
    assert code in case.exits, f"exit {code}, expected {sorted(case.exits)}:\n{err[-2000:]}"
    errors = [line for line in err.splitlines() if not line.startswith("warning: ")]
    assert "Traceback" not in err
    if code == 1:
        message = errors[-1] if errors else ""
        assert message, "exit 1 without a message"
        assert re.match(r"^(\S+?:\d+(:\d+)?: |\S+: |clusteragree \w+: error: )", message), message
        assert not LIBRARY_SPELLING.search(message), f"library spelling: {message}"
    for line in errors:
        assert not LIBRARY_SPELLING.search(line), f"library spelling: {line}"
    for text in case.must:
        assert text in out + err, f"{text!r} not said:\n{err[-2000:]}"
    if "json" in case.argv and code == 0 and "-o" not in case.argv:
        parsed = json.loads(out)  # valid JSON, no bare NaN
        assert "warnings" in parsed


def _run(case: real_matrix.Case, cli, tmp_path: Path) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in case.argv]
    code, out, err = cli(*argv)
    _check(case, code, out, err)
    if argv[0] == "report" and code == 0:
        page = Path(argv[argv.index("-o") + 1]).read_text(encoding="utf-8")
        assert page.startswith("<!DOCTYPE html>") and "</html>" in page


_ALL = _cases()


@pytest.mark.parametrize("case", [c for c in _ALL if not c.slow and "dask" not in c.tags],
                         ids=lambda c: c.id)
def test_real_corpus(case: real_matrix.Case, cli, tmp_path: Path) -> None:
    _run(case, cli, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in _ALL if c.slow and "dask" not in c.tags],
                         ids=lambda c: c.id)
def test_real_corpus_slow(case: real_matrix.Case, cli, tmp_path: Path) -> None:
    _run(case, cli, tmp_path)


@pytest.mark.slow
@pytest.mark.cluster
@pytest.mark.parametrize("case", [c for c in _ALL if "dask" in c.tags], ids=lambda c: c.id)
def test_real_corpus_dask(case: real_matrix.Case, cli, tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed")
    _run(case, cli, tmp_path)
