"""Fuzzing the INCEpTION / WebAnno readers (see ``fuzzing.py``): WebAnno TSV 3, the project
export (a member mutated, then zipped) and UIMA CAS XMI. Every input ends in an Export or an
InputError, never another exception or a hang."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from fuzzing import files, mutated, read_or_refuse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusteragree.exports.inception import read_inception_project, sniff_inception_project
from clusteragree.exports.webanno import read_webanno_tsv, sniff_webanno_tsv

PROJECT = Path(__file__).resolve().parent.parent / "corpora_fixtures" / "exports" / "inception" \
    / "project"
MEMBERS = {p.relative_to(PROJECT).as_posix(): p.read_bytes()
           for p in sorted(PROJECT.rglob("*")) if p.is_file()}
ALICE = MEMBERS["annotation/d1.txt/alice.tsv"]
EMOJI = MEMBERS["annotation/d2.txt/alice.tsv"]
SLOTS = (b"#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.SimpleSpan|\n#T_SP=webanno.custom."
         b"SimpleLinkHost|ROLE_webanno.custom.SimpleLinkHost:links_webanno.custom.LinkType|"
         b"webanno.custom.SimpleSpan\n#T_RL=webanno.custom.Relation|value|BT_webanno.custom."
         b"SimpleSpan\n\n\n#Text=This is a test .\n1-1\t0-4\tThis\t_\tp1;p2\t1-2[1];1-3\t_\t_\t\n"
         b"1-1.1\t1-3\thi\t*\t_\t_\t*\t1-2[0_1]\t\n1-2\t5-7\tis\t*[1]|*[2]\t_\t_\t_\t_\t\n"
         b"1-3\t8-9\ta\t*\t_\t_\tx\\|y\t1-1.1\t\n1-4\t10-14\ttest\t_\t_\t_\t_\t_\t\n")
FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def test_seeds_read() -> None:
    with files({"a.tsv": ALICE, "e.tsv": EMOJI, "s.tsv": SLOTS, "p.zip": _zip(MEMBERS)}) as r:
        for name in ("a.tsv", "e.tsv", "s.tsv"):
            assert read_or_refuse(lambda n=name: read_webanno_tsv(r / n)) == "ok"
        assert read_or_refuse(lambda: read_inception_project(r / "p.zip", curation=True)) == "ok"


@FUZZ
@given(st.one_of(mutated(ALICE), mutated(EMOJI), mutated(SLOTS), st.binary(max_size=600)))
def test_tsv_is_read_or_refused(data: bytes) -> None:
    with files({"x.tsv": data}) as root:
        read_or_refuse(lambda: read_webanno_tsv(root / "x.tsv"))
        sniff_webanno_tsv(root / "x.tsv", data[:65536])


@FUZZ
@given(st.sampled_from(sorted(MEMBERS)), st.data())
def test_project_with_a_mutated_member_is_read_or_refused(member: str, data: st.DataObject
                                                          ) -> None:
    changed = dict(MEMBERS)
    changed[member] = data.draw(mutated(MEMBERS[member]))
    raw = _zip(changed)
    with files({"p.zip": raw}) as root:
        read_or_refuse(lambda: read_inception_project(root / "p.zip", curation=True))
        sniff_inception_project(root / "p.zip", raw[:65536])


@FUZZ
@given(mutated(_zip(MEMBERS)))
def test_mutated_zip_bytes_are_read_or_refused(raw: bytes) -> None:
    with files({"p.zip": raw}) as root:
        read_or_refuse(lambda: read_inception_project(root / "p.zip"))
        sniff_inception_project(root / "p.zip", raw[:65536])


DIAGNOSIS = (b"Type,Collection,Document,Layer,Feature,Position,Flags,alice,bob\r\n"
             b"SpanPosition,p,d.txt,x.NamedEntity,value,0-3 [Joe],\"COMPLETE, USED\",PER,"
             b"<no annotation>\r\nSpanPosition,p,d.txt,x.NamedEntity,value,\"4-9 [a\nb]\","
             b"USED,LOC,ORG\r\n")
SPANS = b"doc,user,begin,end,text,label\r\nd,alice,0,3,Joe,PER\r\nd,bob,0,3,Joe,\"a,b\"\r\n"


@FUZZ
@given(st.one_of(mutated(DIAGNOSIS), mutated(SPANS)))
def test_agreement_csv_is_read_or_refused(data: bytes) -> None:
    from clusteragree.exports.agreement_csv import read_agreement_csv, sniff_agreement_csv

    with files({"x.csv": data}) as root:
        read_or_refuse(lambda: read_agreement_csv(root / "x.csv"))
        sniff_agreement_csv(root / "x.csv", data[:65536])
