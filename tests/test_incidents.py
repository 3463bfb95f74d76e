"""The incident model of ``validate`` (clusteragree/incidents.py) and the command's wiring that
knows no domain: format recognition, the collector's caps and counts, the level filter, the
reading under a ledger of its own, and the strict refusal of errors."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree.cli.input_formats import INPUTS, detect
from clusteragree.cli.validate import DOMAINS
from clusteragree.errors import KINDS, InputError, Notice, ParameterError, notify, strict
from clusteragree.incidents import (
    CLASSES,
    TESTS,
    Incident,
    Test,
    Validation,
    from_error,
    from_notice,
    read_checked,
    refuse_errors,
    register,
)


@pytest.fixture()
def planted():
    """Three throw-away tests, one per class, at levels 1 to 3."""
    tests = [Test("zz-error", 2, "error", "labels", "an error"),
             Test("zz-warning", 3, "warning", "labels", "a warning"),
             Test("zz-info", 1, "information", "labels", "a fact")]
    register(*tests)
    yield tests
    for t in tests:
        TESTS.pop(t.id)


def test_test_ids_and_classes_are_checked():
    with pytest.raises(ParameterError):
        Test("Upper-Case", 1, "error", "x", "")
    with pytest.raises(ParameterError):
        Test("a b", 1, "error", "x", "")
    with pytest.raises(ParameterError):
        Test("ok", 4, "error", "x", "")
    with pytest.raises(ParameterError):
        Test("ok", 1, "fatal", "x", "")


def test_an_id_cannot_name_two_tests(planted):
    register(planted[0])  # the same test again: accepted
    with pytest.raises(ParameterError, match="twice"):
        register(Test("zz-error", 2, "warning", "labels", "an error"))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["zz-error", "zz-warning", "zz-info"]),
                          st.integers(1, 4)), max_size=60),
       st.integers(0, 5), st.sampled_from([1, 2, 3]))
def test_the_collector_counts_everything_and_shows_at_most_max_err(found, max_err, level):
    tests = [Test("zz-error", 2, "error", "labels", "an error"),
             Test("zz-warning", 3, "warning", "labels", "a warning"),
             Test("zz-info", 1, "information", "labels", "a fact")]
    register(*tests)
    try:
        v = Validation(level=level, max_err=max_err)
        for k, (tid, count) in enumerate(found):
            v.add(Incident(tid, f"m{k}", "f", k + 1, count=count))
        levels = {t.id: t.level for t in tests}
        # brute force: counted by hand over the incidents at the levels asked
        kept = [(tid, c) for tid, c in found if levels[tid] <= level]
        expected = {t.id: sum(c for tid, c in kept if tid == t.id) for t in tests}
        assert v.counts() == {k: n for k, n in expected.items() if n}
        for t in tests:
            shown = [i for i in v.shown() if i.test_id == t.id]
            n = sum(1 for tid, _ in kept if tid == t.id)
            assert len(shown) == (n if max_err == 0 else min(n, max_err))
            # the ones shown are the first found, in order
            assert [i.message for i in shown] == [f"m{k}" for k, (tid, _) in enumerate(found)
                                                  if tid == t.id][:len(shown)]
        assert v.failed == (expected["zz-error"] > 0)
        assert sum(v.by_class().values()) == sum(c for _, c in kept)
        records = v.summary_records()
        assert [r["test"] for r in records] == list(v.counts())
        assert all(r["shown"] <= r["incidents"] <= r["count"] for r in records)
        for r in records:  # incidents: how many were added; count: their occurrences
            assert r["incidents"] == sum(1 for tid, _ in kept if tid == r["test"])
    finally:
        for t in tests:
            TESTS.pop(t.id)


def test_the_collector_refuses_bad_parameters():
    with pytest.raises(ParameterError):
        Validation(level=0)
    with pytest.raises(ParameterError):
        Validation(max_err=-1)


def test_incident_text_and_record(planted):
    i = Incident("zz-error", "head 7 out of range", "a.conllu", 12, sentence="s3", node="4")
    assert str(i) == "a.conllu:12: [Sent s3 Node 4]: [L2 labels zz-error] head 7 out of range"
    rec = i.as_dict()
    assert rec["kind"] == "incident" and rec["class"] == "error" and rec["level"] == 2
    assert rec["sentence"] == "s3" and rec["node"] == "4" and rec["annotator"] is None
    assert str(Incident("zz-info", "x", count=3)) == "[L1 labels zz-info] x (3 times)"


def test_every_notice_about_the_input_has_a_level_1_test_of_the_class_strict_gives_it():
    for kind, (refused, _) in KINDS.items():
        incident = from_notice(Notice(kind, "m", "a.csv", 3, 2))
        if kind in ("undefined", "performance", "deprecated", "unused", "other"):
            assert incident is None  # about computing or options, not the input
            continue
        assert incident is not None and incident.level == 1 and incident.count == 2
        assert (incident.severity == "error") == refused
    err = from_error(InputError("3 columns, 10 expected", "b.conllu", 7))
    assert (err.test_id, err.file, err.line, err.severity) == ("read-refused", "b.conllu", 7,
                                                               "error")
    assert from_error(InputError("no file named"), "c.csv").file == "c.csv"


def test_read_checked_collects_the_notices_and_the_refusal_without_strict_reading():
    def reader():
        notify("repaired", "end supplied", path="a.conll", line=9)
        notify("repaired", "end supplied", path="a.conll", line=4)
        raise InputError("bad bracket", "a.conll", 12)

    with strict():  # validate reads everything, even under a strict caller
        model, found = read_checked("a.conll", reader)
    assert model is None
    assert [(i.test_id, i.line, i.count) for i in found] == [("read-repaired", 4, 2),
                                                             ("read-refused", 12, 1)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing escapes to the caller's warnings
        assert read_checked("x", lambda: 5) == (5, [])


def test_refuse_errors_names_the_first_and_counts_the_others(planted):
    refuse_errors([Incident("zz-warning", "w"), Incident("zz-info", "i")])
    with pytest.raises(InputError) as caught:
        refuse_errors([Incident("zz-info", "i"), Incident("zz-error", "first", "a", 3,
                                                          sentence="d1"),
                       Incident("zz-error", "second", "a", 5)])
    assert caught.value.line == 3 and caught.value.path == "a"
    assert "first (sentence d1)" in str(caught.value)
    assert "1 other error(s)" in str(caught.value)


def test_every_validate_format_has_a_domain_and_a_row():
    rows = {f.name for f in INPUTS if f.command == "validate"}
    assert set(DOMAINS) <= rows
    # the formats DOMAINS does not list are the exports, validated by the spans domain
    from clusteragree.cli.input_formats import EXPORTS
    assert rows - set(DOMAINS) == set(EXPORTS)
    assert set(CLASSES) == {"error", "warning", "information"}


def test_validate_recognises_each_format(tmp_path):
    def write(name, text):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    tab = "1\tThe\tthe\tDET\t_\t_\t2\tdet\t_\t_\n"
    assert detect("validate", write("a.key", "#begin document (d); part 000\n")) == "conll"
    assert detect("validate", write("b.conllu", tab.replace("det\t_\t_", "det\t_\tEntity=(e1)")
                                    )) == "corefud"
    assert detect("validate", write("c.conllu", tab)) == "conllu"
    assert detect("validate", write("d.conll", tab)) == "conllu"  # CoNLL-X trees
    assert detect("validate", write("e.tree", "(S (NP a))\n")) == "brackets"
    assert detect("validate", write("f.pyr", "<pyramid/>")) == "pyramid"
    assert detect("validate", write("g.pan", "<annotation/>")) == "pan"
    assert detect("validate", write("h.csv", "coder,unit,labels\na,u,x\n")) == "codings"
    assert detect("validate", write("i.csv", "item,annotator,label\n1,a,x\n")) == \
        "multilabel-csv"
    assert detect("validate", write("j.csv", "document,start,end,annotator,label\n"
                                    "d,0,3,a,x\n")) == "spans-csv"
    ann = tmp_path / "ann"
    ann.mkdir()
    (ann / "x.ann").write_text("T1\tMention 0 3\tabc\n", encoding="utf-8")
    assert detect("validate", str(ann)) == "brat"
    assert detect("validate", "-") == "codings"


def test_docs_list_every_test():
    """docs/validate.md's list (written by scripts/validate_corpora.py --write-docs) names every
    test the domains register, with its level and class."""
    from pathlib import Path

    from clusteragree.cli.validate import known_tests
    docs = (Path(__file__).resolve().parent.parent / "docs" / "validate.md").read_text(
        encoding="utf-8")
    listed = docs.partition("<!-- tests: begin -->")[2].partition("<!-- tests: end -->")[0]
    for t in known_tests().values():
        assert f"| `{t.id}` | {t.level} | {t.severity} | {t.domain} |" in listed, t.id


def test_every_domain_validates_and_registers_under_its_name():
    from clusteragree.cli.validate import DOMAINS, known_tests
    tests = known_tests()
    for domain in set(DOMAINS.values()):
        prefix = {"pyramids": "pyramids-", "labels": "labels-"}.get(domain, f"{domain}-")
        assert any(t.startswith(prefix) for t in tests), domain
    for t in tests.values():  # the id starts with its domain (the level-1 reading tests: read-)
        assert t.id.startswith("read-" if t.domain == "input" else t.domain + "-"), t.id


def test_validate_reads_standard_input_as_table_does(monkeypatch, capsys):
    """``-`` is standard input (read once, checked as a file); its incidents are named ``-``;
    a second ``-`` is refused."""
    import io
    import sys

    from clusteragree.cli import main
    data = b"coder,unit,labels\na,u1,x\nb,u1,x\na,u2,x\na,u2,y\n"  # a codes u2 twice: line 5
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["validate", "-", "-f", "json"]) == 1
    import json
    records = json.loads(capsys.readouterr().out)["results"]
    twice = [r for r in records if r["kind"] == "incident" and r["test"] == "labels-coded-twice"]
    assert twice and twice[0]["file"] == "-" and twice[0]["line"] == 5
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["validate", "-", "-"]) == 1
    assert "standard input (-) can be given once" in capsys.readouterr().err
