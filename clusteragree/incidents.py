"""What ``validate`` finds: tests with a stable id, and the incidents they report.

A *test* (:class:`Test`) is one thing a corpus can get wrong, with a stable id (``coref-crossing-
mentions``), a level and a class:

* level 1, the file: its encoding, columns and syntax (what a reader refuses, repairs or skips);
* level 2, one annotation: what its format or its kind of structure forbids (crossing mentions,
  a contributor outside its summary, a cycle in a tree, a coder coding a unit twice);
* level 3, across annotators: the same documents and tokens, the same label vocabulary, units or
  documents only some annotators have.

Its class is ``error`` (the corpus is wrong: ``validate`` fails, and ``--strict`` on the other
commands refuses it), ``warning`` (probably wrong, or wrong for some uses) or ``information`` (a
fact worth knowing, such as a non-projective arc). Each domain registers its tests in its
``checks`` module (:func:`register`); :data:`TESTS` holds them all.

An *incident* (:class:`Incident`) is one finding of one test at one place: file, line, sentence or
document, node (token, mention, contributor) and annotator where they apply. It is the ledger's
notice with a level and an id: what a reader reports into the warnings ledger becomes an incident
of a level-1 test named after the notice's kind (:func:`from_notice`), and a refusal the incident
``read-refused`` (:func:`from_error`), so ``validate`` reports what the other commands would
report, and more.

:class:`Validation` gathers the incidents of a run: it keeps every count, shows at most
``max_err`` incidents per test id, and says whether the run failed (an error at or below the
level asked).

References
----------
The incident object and its printed form follow the Universal Dependencies validator
(``validate.py`` of UD tools): level, class, test id, place, message, capped per class, a
summary with counts. docs/validate.md lists every test of this project.

Examples
--------
>>> t = Test("demo-twice", 2, "error", "labels", "a coder codes a unit twice")
>>> register(t)
>>> v = Validation(level=2, max_err=1)
>>> v.add(Incident("demo-twice", "coder 'a' codes unit 'u1' twice", "a.csv", 4))
>>> v.add(Incident("demo-twice", "coder 'a' codes unit 'u2' twice", "a.csv", 9))
>>> print(v.shown()[0])
a.csv:4: [L2 labels demo-twice] coder 'a' codes unit 'u1' twice
>>> v.counts()["demo-twice"], v.failed
(2, True)
>>> _ = TESTS.pop("demo-twice")
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from .errors import KINDS, InputError, Ledger, Notice, ParameterError, option, strict

T = TypeVar("T")

__all__ = ["CLASSES", "LEVELS", "TESTS", "Incident", "Test", "Validation", "from_error",
           "from_notice", "lookup", "read_checked", "refuse_errors", "register"]

#: The levels: 1 the file, 2 one annotation, 3 across annotators.
LEVELS = (1, 2, 3)
#: The classes of a test, the gravest first.
CLASSES = ("error", "warning", "information")


@dataclass(frozen=True)
class Test:
    """One thing ``validate`` checks.

    Attributes
    ----------
    id : str
        Stable, lower-case words joined by hyphens, the domain first (``coref-crossing-mentions``).
    level : int
        1 the file, 2 one annotation, 3 across annotators.
    severity : str
        ``error``, ``warning`` or ``information`` (:data:`CLASSES`).
    domain : str
        ``input`` (every reader), ``coref``, ``pyramids``, ``trees``, ``labels``, ``spans``,
        ``exports``.
    summary : str
        What it finds, in one line (docs/validate.md lists them).
    formats : tuple of str
        The formats where it applies, when not every format of the domain.
    """

    id: str
    level: int
    severity: str
    domain: str
    summary: str
    formats: tuple[str, ...] = ()

    __test__ = False  # not a test case for pytest

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ParameterError(f"level must be one of {LEVELS}. Got {self.level!r}.")
        if self.severity not in CLASSES:
            raise ParameterError(f"severity must be one of {CLASSES}. Got {self.severity!r}.")
        if not self.id or self.id != self.id.lower() or " " in self.id:
            raise ParameterError(f"a test id is lower-case words joined by hyphens. Got "
                                 f"{self.id!r}.")


#: Every registered test, by id.
TESTS: dict[str, Test] = {}


def register(*tests: Test) -> None:
    """Add tests to :data:`TESTS` (a domain's ``checks`` module does it when imported); an id
    registered again must name the same test."""
    for t in tests:
        old = TESTS.get(t.id)
        if old is not None and old != t:
            raise ParameterError(f"the test id {t.id!r} is registered twice, differently")
        TESTS[t.id] = t


def lookup(test_id: str) -> Test:
    """The registered test ``test_id``."""
    try:
        return TESTS[test_id]
    except KeyError:
        raise ParameterError(f"no test {test_id!r} is registered") from None


@dataclass(frozen=True)
class Incident:
    """One finding of one test at one place.

    Attributes
    ----------
    test_id : str
        A registered test (:data:`TESTS`).
    message : str
        What is wrong and, where it helps, what to do.
    file : str or None
        The input concerned.
    line : int or None
        Its first line concerned (1-based).
    sentence : str or None
        The sentence, document or SCU concerned (its id in the file).
    node : str or None
        The token, mention, contributor or unit concerned.
    annotator : str or None
        The annotator concerned (level 3).
    count : int
        How many times it happened at this place (a reader's notice counts its repeats).
    """

    test_id: str
    message: str
    file: str | None = None
    line: int | None = None
    sentence: str | None = None
    node: str | None = None
    annotator: str | None = None
    count: int = 1

    @property
    def test(self) -> Test:
        """The test that found it."""
        return lookup(self.test_id)

    @property
    def level(self) -> int:
        return self.test.level

    @property
    def severity(self) -> str:
        return self.test.severity

    def as_dict(self) -> dict[str, Any]:
        """The JSON record (kind ``incident``)."""
        t = self.test
        return {"kind": "incident", "test": t.id, "level": t.level, "class": t.severity,
                "domain": t.domain, "file": self.file, "line": self.line,
                "sentence": self.sentence, "node": self.node, "annotator": self.annotator,
                "count": self.count, "message": self.message}

    def __str__(self) -> str:
        t = self.test
        where = "" if self.file is None else self.file + (
            "" if self.line is None else f":{self.line}") + ": "
        at = " ".join(f"{name} {value}" for name, value in (
            ("Sent", self.sentence), ("Node", self.node), ("Annotator", self.annotator))
            if value is not None)
        times = f" ({self.count} times)" if self.count > 1 else ""
        return (f"{where}{'[' + at + ']: ' if at else ''}[L{t.level} {t.domain} {t.id}] "
                f"{self.message}{times}")


# --- level 1: what the readers report

register(
    Test("read-refused", 1, "error", "input", "the file cannot be read (encoding, columns, "
         "syntax): the reader's refusal, with its line and what to do"),
    *(Test(f"read-{kind}", 1, "error" if strict else "information", "input",
           f"the reader reported it ({kind}: {what})")
      for kind, (strict, what) in KINDS.items()
      if kind in ("repaired", "skipped", "merged", "ignored", "converted", "mismatch", "note")),
)


def from_notice(notice: Notice) -> Incident | None:
    """The level-1 incident of a reader's notice (None for notices about computing, not the
    input: undefined coefficients, slower paths).

    Examples
    --------
    >>> str(from_notice(Notice("repaired", "end supplied", "a.conll", 9, 2)))
    'a.conll:9: [L1 input read-repaired] end supplied (2 times)'
    """
    if f"read-{notice.kind}" not in TESTS:
        return None
    return Incident(f"read-{notice.kind}", notice.message, notice.file, notice.line,
                    count=notice.count)


def from_error(error: InputError, path: str | os.PathLike[str] | None = None) -> Incident:
    """The incident ``read-refused`` of a reader's refusal (``path`` where the error names no
    file)."""
    file = error.path if error.path is not None else (
        None if path is None else os.fspath(path))
    return Incident("read-refused", error.message, file, error.line)


def read_checked(path: str | os.PathLike[str] | None, read: Callable[[], T]
                 ) -> tuple[T | None, list[Incident]]:
    """Run ``read`` (a reader on ``path``) under a ledger of its own, without strict reading:
    its result (None when it refused) and its level-1 incidents, the notices and the refusal.

    Examples
    --------
    >>> from clusteragree.errors import notify
    >>> def reader():
    ...     notify("skipped", "comment lines inside documents", path="a.conll", line=3)
    ...     return "model"
    >>> model, found = read_checked("a.conll", reader)
    >>> model, [str(i) for i in found]
    ('model', ['a.conll:3: [L1 input read-skipped] comment lines inside documents'])
    >>> def refuses():
    ...     raise InputError("3 columns, 10 expected", "b.conllu", 7)
    >>> read_checked("b.conllu", refuses)[1][0].test_id
    'read-refused'
    """
    found: list[Incident] = []
    result: T | None = None
    with strict(False), Ledger() as ledger:
        try:
            result = read()
        except InputError as err:
            found.append(from_error(err, path))
    for notice in ledger.notices:
        incident = from_notice(notice)
        if incident is not None:
            found.append(incident)
    if found and found[0].test_id == "read-refused":  # the refusal after what came before it
        found = found[1:] + found[:1]
    return result, found


def refuse_errors(incidents: Iterable[Incident]) -> None:
    """Strict reading's refusal of the errors a domain's checks find (the other commands call
    it under ``--strict``, so that they refuse exactly what ``validate`` calls an error): the
    first error is raised as an :class:`~clusteragree.errors.InputError`, with the number of the
    others; warnings and information pass.

    Examples
    --------
    >>> refuse_errors([Incident("read-note", "kept as annotated", "a.conll", 2)])
    >>> refuse_errors([Incident("read-refused", "bad line", "a.conll", 5)])
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: a.conll:5: bad line ([L1 input read-refused]; strict ...
    """
    errors = [i for i in incidents if i.severity == "error"]
    if not errors:
        return
    first, more = errors[0], len(errors) - 1
    t = first.test
    also = f"; {more} other error(s) too" if more else ""
    at = " ".join(f"{name} {value}" for name, value in (
        ("sentence", first.sentence), ("node", first.node), ("annotator", first.annotator))
        if value is not None)
    raise InputError(f"{first.message}{' (' + at + ')' if at else ''} ([L{t.level} "
                     f"{t.domain} {t.id}]; strict reading refuses it: correct the input "
                     "(clusteragree validate lists every problem), or read it without "
                     f"{option('strict')}{also})", first.file, first.line)


class Validation:
    """The incidents of one run: every count kept, at most ``max_err`` shown per test id.

    Parameters
    ----------
    level : int, default=3
        The highest level checked; an error at this level or below fails the run.
    max_err : int, default=20
        Incidents shown per test id (0: all); the others are counted.
    """

    def __init__(self, level: int = 3, max_err: int = 20) -> None:
        if level not in LEVELS:
            raise ParameterError(f"level must be one of {LEVELS}. Got {level!r}.",
                                 params=("level",))
        if max_err < 0:
            raise ParameterError(f"max_err must be 0 (all) or more. Got {max_err!r}.",
                                 params=("max_err",))
        self.level, self.max_err = level, max_err
        self._shown: list[Incident] = []
        self._counts: Counter[str] = Counter()  # occurrences (an incident counts its repeats)
        self._found: Counter[str] = Counter()  # incidents
        self._shown_counts: Counter[str] = Counter()
        self._inputs: list[str] = []

    def add(self, incident: Incident) -> None:
        """Count an incident, and keep it when its test has shown fewer than ``max_err``."""
        t = incident.test
        if t.level > self.level:
            return
        self._counts[t.id] += incident.count
        self._found[t.id] += 1
        if self.max_err == 0 or self._shown_counts[t.id] < self.max_err:
            self._shown_counts[t.id] += 1
            self._shown.append(incident)

    def extend(self, incidents: Iterable[Incident]) -> None:
        """:meth:`add` each."""
        for incident in incidents:
            self.add(incident)

    def checked(self, path: str) -> None:
        """Note an input as validated (the summary lists them)."""
        self._inputs.append(path)

    @property
    def inputs(self) -> list[str]:
        return list(self._inputs)

    def shown(self) -> list[Incident]:
        """The incidents kept, in the order found."""
        return list(self._shown)

    def __iter__(self) -> Iterator[Incident]:
        return iter(self._shown)

    def counts(self) -> dict[str, int]:
        """``test id -> count`` of every incident (shown or not), in :data:`TESTS` order."""
        return {k: self._counts[k] for k in TESTS if self._counts[k]}

    def by_class(self) -> dict[str, int]:
        """``class -> count`` (errors, warnings, information)."""
        out = dict.fromkeys(CLASSES, 0)
        for k, n in self._counts.items():
            out[TESTS[k].severity] += n
        return out

    @property
    def failed(self) -> bool:
        """Whether an error at or below the level was found."""
        return self.by_class()["error"] > 0

    def summary_records(self) -> list[dict[str, Any]]:
        """One record per test that found something (kind ``test``): id, level, class, domain,
        ``count`` (occurrences: an incident at one place may count several), ``incidents``
        and ``shown`` (incidents listed, at most ``max_err``)."""
        shown = self._shown_counts
        return [{"kind": "test", "test": k, "level": TESTS[k].level,
                 "class": TESTS[k].severity, "domain": TESTS[k].domain, "count": n,
                 "incidents": self._found[k], "shown": shown[k], "summary": TESTS[k].summary}
                for k, n in self.counts().items()]
