"""The tables of INCEpTION's agreement page (clusteragree.exports.agreement_csv), written
here in the layouts INCEpTION's source writes (AgreementServiceImpl, *ToCsvExporter)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from clusteragree.errors import InputError, Ledger
from clusteragree.exports.agreement_csv import read_agreement_csv, sniff_agreement_csv
from clusteragree.exports.webanno import sniff_webanno_tsv

NER = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"


def write(tmp_path: Path, rows: list[list[str]], name: str = "t.csv") -> Path:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerows(rows)  # RFC 4180, as INCEpTION
    path = tmp_path / name
    path.write_text(buf.getvalue(), encoding="utf-8")
    return path


def test_diagnosis_layout(tmp_path: Path) -> None:
    header = ["Type", "Collection", "Document", "Layer", "Feature", "Position", "Flags",
              "alice", "bob", "carol"]
    rows = [header,
            ["SpanPosition", "proj", "d1.txt", NER, "value", "0-3 [Joe]", "COMPLETE, USED",
             "PER", "PER", "<no annotation>"],
            ["SpanPosition", "proj", "d1.txt", NER, "value", "8-14 [Berlin\nWest]",
             "INCOMPLETE_LABEL", "LOC", "<no label>", "LOC, ORG"]]
    codings = read_agreement_csv(write(tmp_path, rows, "p-diff.csv"))
    # one coding per annotator column and row: 3 x 2
    assert len(codings) == 6
    assert codings[:3] == [("alice", "d1.txt NamedEntity:value 0-3 [Joe]", "PER"),
                           ("bob", "d1.txt NamedEntity:value 0-3 [Joe]", "PER"),
                           ("carol", "d1.txt NamedEntity:value 0-3 [Joe]", None)]
    assert [c[2] for c in codings[3:]] == ["LOC", "<no label>", "LOC, ORG"]
    assert codings[3][1] == "d1.txt NamedEntity:value 8-14 [Berlin\nWest]"


def test_csv_layouts(tmp_path: Path) -> None:
    span = [["doc", "user", "begin", "end", "text", "label"],
            ["d1.txt", "alice", "0", "3", "Joe", "PER"], ["d1.txt", "bob", "0", "3", "Joe", "ORG"]]
    assert read_agreement_csv(write(tmp_path, span)) == [
        ("alice", "d1.txt 0-3 [Joe]", "PER"), ("bob", "d1.txt 0-3 [Joe]", "ORG")]
    rel = [["doc", "user", "source-begin", "source-end", "source-text", "target-begin",
            "target-end", "target-text", "label"],
           ["d", "alice", "0", "3", "Joe", "4", "9", "Smith", "same"]]
    assert read_agreement_csv(write(tmp_path, rel)) == [
        ("alice", "d 0-3 [Joe] -> 4-9 [Smith]", "same")]
    doc = [["doc", "user", "label"], ["d1.txt", "alice", "news"], ["d1.txt", "bob", "blog"]]
    assert read_agreement_csv(write(tmp_path, doc)) == [("alice", "d1.txt", "news"),
                                                         ("bob", "d1.txt", "blog")]
    bare = [["doc", "user", "begin", "end", "text"], ["d", "alice", "0", "3", "Joe"]]
    with Ledger() as ledger:
        assert read_agreement_csv(write(tmp_path, bare)) == [("alice", "d 0-3 [Joe]",
                                                              "annotated")]
    assert [n.kind for n in ledger.notices] == ["note"]
    chain = [["doc", "user", "chain", "index", "begin", "end", "text", "label", "link_label"],
             ["d", "alice", "1", "1", "0", "3", "Joe", "PER", "coref"]]
    with Ledger():
        assert read_agreement_csv(write(tmp_path, chain)) == [("alice", "d 0-3 [Joe]", "PER")]


def test_refusals_and_sniffer(tmp_path: Path) -> None:
    other = write(tmp_path, [["coder", "unit", "label"], ["a", "u", "x"]])
    with pytest.raises(InputError, match=r"t\.csv:1: not a table of INCEpTION's agreement"):
        read_agreement_csv(other)
    short = write(tmp_path, [["doc", "user", "label"], ["d", "alice"]], "s.csv")
    with pytest.raises(InputError, match=r"s\.csv:2: a row of 2 fields"):
        read_agreement_csv(short)
    good = write(tmp_path, [["doc", "user", "begin", "end", "text", "label"]], "g.csv")
    assert sniff_agreement_csv(good, good.read_bytes())
    assert not sniff_agreement_csv(other, other.read_bytes())
    assert not sniff_webanno_tsv(good, good.read_bytes())


def test_table_reads_the_diagnosis_and_gives_krippendorffs_alpha(tmp_path: Path, capsys) -> None:
    """`table` recognises the Diagnosis download; <no annotation> is missing; nominal alpha
    equals the krippendorff package's on the same grid."""
    krippendorff = pytest.importorskip("krippendorff")
    import json

    import numpy as np

    from clusteragree.cli import main

    rng = np.random.default_rng(5)
    cats = ["PER", "LOC", "ORG"]
    grid = rng.integers(0, 3, (3, 25)).astype(float)
    grid[rng.random(grid.shape) < 0.2] = np.nan
    rows = [["Type", "Collection", "Document", "Layer", "Feature", "Position", "Flags",
             "alice", "bob", "carol"]]
    for u in range(25):
        cells = ["<no annotation>" if np.isnan(grid[c, u]) else cats[int(grid[c, u])]
                 for c in range(3)]
        rows.append(["SpanPosition", "proj", "d1.txt", NER, "value", f"{u * 5}-{u * 5 + 3}",
                     "COMPLETE", *cells])
    path = write(tmp_path, rows, "proj-diff.csv")
    code = main(["table", str(path), "-f", "json", "--distance", "nominal"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    ours = next(r["alpha"] for r in out["results"] if r.get("distance") == "nominal")
    expected = krippendorff.alpha(reliability_data=grid, level_of_measurement="nominal")
    assert ours == pytest.approx(expected, rel=1e-12)
    assert any("<no annotation>" in w["message"] for w in out["warnings"])
