"""INCEpTION's project export (clusteragree.exports.inception): the real 3.6.1 export and a
hand-written one (corpora_fixtures/exports/inception/project, zipped here)."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest

from clusteragree.errors import InputError, Ledger, ParameterTypeError
from clusteragree.exports.inception import read_inception_project, sniff_inception_project
from clusteragree.exports.webanno import sniff_webanno_tsv

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "corpora_fixtures" / "exports" / "inception" / "project"
REAL = ROOT.parent / "shared" / "corpora" / "tool-exports" / "inception" / \
    "project-export-3.6.1.zip"
needs_real = pytest.mark.skipif(not REAL.exists(), reason="the real INCEpTION export is not here")


def zipped(folder: Path, target: Path, drop: tuple[str, ...] = (),
           add: dict[str, bytes] | None = None) -> Path:
    with zipfile.ZipFile(target, "w") as z:
        for p in sorted(folder.rglob("*")):
            name = p.relative_to(folder).as_posix()
            if p.is_file() and name not in drop:
                z.write(p, name)
        for name, data in (add or {}).items():
            z.writestr(name, data)
    return target


@pytest.fixture
def project_zip(tmp_path: Path) -> Path:
    return zipped(PROJECT, tmp_path / "project.zip")


def _read(path: Path, **kw: object):  # type: ignore[no-untyped-def]
    with Ledger() as ledger:
        export = read_inception_project(path, **kw)  # type: ignore[arg-type]
    return export, ledger.notices


def test_documents_and_annotators_as_the_export_names_them(project_zip: Path) -> None:
    export, notices = _read(project_zip)
    pairs = [(d.name, d.annotator) for d in export]
    # carol (IGNORE) and INITIAL_CAS are left out; bob has no file for d2: missing, no entry
    assert sorted(pairs) == [("d1.txt", "alice"), ("d1.txt", "bob"), ("d2.txt", "alice")]
    assert export.notes == ("project 'fixture project'",)
    kinds = {(n.kind, re.sub(r"\(.*", "", n.message)[:40]) for n in notices}
    assert ("skipped", "annotation documents in state IGNORE: lo") in kinds
    assert any(n.kind == "note" and "curation" in n.message for n in notices)
    ser = [n for n in notices if "*.ser" in n.message]
    assert ser[0].kind == "ignored" and ser[0].count == len(list(PROJECT.rglob("*.ser")))
    missing = [n for n in notices if "no annotation file" in n.message]
    assert missing[0].count == 1  # bob on d2.txt
    for d in export:
        assert d.path.startswith(f"{project_zip}!annotation/{d.name}/{d.annotator}.")


def test_texts_chains_and_offsets(project_zip: Path) -> None:
    export, _ = _read(project_zip)
    docs = {(d.name, d.annotator): d for d in export}
    source = (PROJECT / "source" / "d1.txt").read_text(encoding="utf-8")
    alice, bob = docs[("d1.txt", "alice")], docs[("d1.txt", "bob")]
    assert alice.text == source  # the source's text (every token agrees with it)

    def chains(doc):  # type: ignore[no-untyped-def]
        by_id = {s.id: s for s in doc.spans}
        return sorted(tuple(doc.covered(by_id[i]) for i in c.spans) for c in doc.chains)

    assert chains(alice) == [("John", "him"), ("Mary", "She")]
    assert chains(bob) == [("John", "She"), ("Mary", "him")]
    assert [(s.label, alice.covered(s)) for s in alice.spans if s.layer == "NamedEntity"] == \
        [("PER", "Mary"), ("PER", "John"), ("LOC", "Berlin")]
    emoji = docs[("d2.txt", "alice")]
    hier = next(s for s in emoji.spans if s.label == "LOC")
    # UTF-16 22-26 in the file; one emoji before it: code points 21-25
    assert (hier.start, hier.end) == (21, 25) and emoji.covered(hier) == "hier"


def test_curation_is_one_more_annotator_on_request(project_zip: Path) -> None:
    export, notices = _read(project_zip, curation=True)
    assert export.annotators == ("alice", "bob", "curation")
    cur = next(d for d in export if d.annotator == "curation")
    ali = next(d for d in export if d.annotator == "alice" and d.name == "d1.txt")
    assert [(s.start, s.end, s.label) for s in cur.spans] == \
        [(s.start, s.end, s.label) for s in ali.spans]
    assert not any("curation" in n.message and n.kind == "note" for n in notices)
    with pytest.raises(ParameterTypeError, match="curation"):
        read_inception_project(project_zip, curation="yes")  # type: ignore[arg-type]


def test_unpacked_folder_reads_like_the_zip(project_zip: Path) -> None:
    a, _ = _read(project_zip)
    b, _ = _read(PROJECT)
    assert [(d.name, d.annotator, d.text, d.spans, d.chains) for d in a] == \
        [(d.name, d.annotator, d.text, d.spans, d.chains) for d in b]


def test_formats_without_annotation_are_refused_with_the_setting_to_choose(tmp_path: Path
                                                                            ) -> None:
    path = zipped(PROJECT, tmp_path / "p.zip", drop=("annotation/d2.txt/alice.tsv",),
                  add={"annotation/d2.txt/alice.conll": b"1\tEin\n"})
    with pytest.raises(InputError, match=r"p\.zip!annotation/d2\.txt/alice\.conll: .*"
                       "'WebAnno TSV v3.3'"):
        read_inception_project(path)
    bad = zipped(PROJECT, tmp_path / "q.zip", drop=("annotation/d2.txt/alice.tsv",),
                 add={"annotation/d2.txt/alice.tsv": b"#FORMAT=WebAnno TSV 3.3\n\n\n#Text=a\n"
                      b"1-1\t0-x\ta\t\n"})
    with pytest.raises(InputError, match=r"q\.zip!annotation/d2\.txt/alice\.tsv:5: offsets"):
        read_inception_project(bad)
    (tmp_path / "not.zip").write_bytes(b"PK\x03\x04 truncated")
    with pytest.raises(InputError, match="not a readable ZIP"):
        read_inception_project(tmp_path / "not.zip")
    empty = tmp_path / "e.zip"
    with zipfile.ZipFile(empty, "w") as z:
        z.writestr("readme.txt", "x")
    with pytest.raises(InputError, match="not an INCEpTION project export"):
        read_inception_project(empty)


def test_strict_reading_refuses_what_was_left_out(project_zip: Path) -> None:
    with Ledger(strict=True), pytest.raises(InputError, match="IGNORE"):
        read_inception_project(project_zip)


def test_sniffer(project_zip: Path, tmp_path: Path) -> None:
    assert sniff_inception_project(project_zip, project_zip.read_bytes()[:65536])
    assert sniff_inception_project(PROJECT, b"")
    tsv = PROJECT / "annotation" / "d1.txt" / "alice.tsv"
    assert not sniff_inception_project(tsv, tsv.read_bytes())
    assert sniff_webanno_tsv(tsv, tsv.read_bytes())
    assert not sniff_webanno_tsv(project_zip, project_zip.read_bytes()[:65536])
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(other, "w") as z:
        z.writestr("annotation/x.jsonl", "{}")
    assert not sniff_inception_project(other, other.read_bytes())


# ------------------------------------------------------------------ the real 3.6.1 export

@needs_real
def test_real_export_is_refused_naming_its_plain_text_annotation() -> None:
    names = zipfile.ZipFile(REAL).namelist()
    assert sniff_inception_project(REAL, REAL.read_bytes()[:65536])
    user_files = [n for n in names if n.startswith("annotation/")]
    assert user_files == ["annotation/example_sentence.txt/admin.txt"]
    with pytest.raises(InputError, match=r"admin\.txt: the annotations were exported as "
                       "plain text.*'WebAnno TSV v3.3'"):
        read_inception_project(REAL)


@needs_real
def test_real_export_with_a_tsv_annotator(tmp_path: Path) -> None:
    """The real export with admin's plain text replaced by a TSV derived from the curated
    one (one chunk moved): read with and without the curation."""
    src = zipfile.ZipFile(REAL)
    curated = src.read("curation/example_sentence.txt/CURATION_USER.tsv")
    moved = curated.replace(b"\tis\t_\t", b"\tis\t*\t").replace(b"\tThis\t*\t", b"\tThis\t_\t")
    assert moved != curated
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as out:
        for info in src.infolist():
            if info.filename.endswith("admin.txt"):
                out.writestr("annotation/example_sentence.txt/admin.tsv", moved)
            else:
                out.writestr(info.filename, src.read(info))
    path = tmp_path / "export.zip"
    path.write_bytes(buf.getvalue())
    export, notices = _read(path)
    assert export.annotators == ("admin",)
    ser = sum(1 for n in src.namelist() if n.endswith(".ser"))
    assert next(n for n in notices if "*.ser" in n.message).count == ser == 3
    export, _ = _read(path, curation=True)
    docs = {d.annotator: d for d in export}
    assert set(docs) == {"admin", "curation"}
    source = src.read("source/example_sentence.txt").decode("utf-8")
    assert docs["curation"].text == source
    assert [docs["curation"].covered(s) for s in docs["curation"].spans] == ["This"]
    assert [docs["admin"].covered(s) for s in docs["admin"].spans] == ["is"]
    assert {s.layer for s in docs["admin"].spans} == {"Chunk"}



def test_cas_members_without_cassis_say_how_to_install(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "cassis", None)  # import cassis raises ImportError
    path = zipped(PROJECT, tmp_path / "x.zip", drop=("annotation/d2.txt/alice.tsv",),
                  add={"annotation/d2.txt/alice.json": b'{"%TYPES": {}}'})
    with pytest.raises(InputError, match=r"pip install 'clusteragree\[cas\]'"):
        read_inception_project(path)
