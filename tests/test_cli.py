"""The command line: outputs, formats, and a FILE:LINE message with exit 1 for each bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from clusteragree import __version__

FIXTURES = Path(__file__).resolve().parent.parent / "corpora_fixtures"
EXAMPLE = FIXTURES / "multilabel_example.csv"




def test_version(cli) -> None:
    code, out, _ = cli("--version")
    assert code == 0 and out.strip() == f"clusteragree {__version__}"


def test_entry_point_runs_as_module() -> None:
    done = subprocess.run([sys.executable, "-m", "clusteragree", "table", str(EXAMPLE), "-f",
                           "json"], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["results"][0]["distance"] == "nominal"


def test_json_results_shape_and_values(cli) -> None:
    code, out, _ = cli("table", str(EXAMPLE), "-f", "json",
                       "--distance", "nominal,jaccard,dice,masi,masi_nltk_legacy")
    assert code == 0
    obj = json.loads(out)
    got = {r["distance"]: r["alpha"] for r in obj["results"]}
    # stats.stackexchange q/407453 values (notes, section 8.7)
    assert got == pytest.approx({"nominal": 0.438503, "jaccard": 0.601562, "dice": 0.661208,
                                 "masi": 0.540356, "masi_nltk_legacy": 0.540966}, abs=5e-7)
    for r in obj["results"]:
        assert {"distance", "alpha", "D_o", "D_e", "n", "signature"} <= set(r)
        assert r["n"] == 22 and r["signature"].startswith(f"alpha|dist:{r['distance']}")
    assert obj["signature"].startswith("table|dist:nominal,jaccard,dice,masi")


def test_text_csv_latex(cli) -> None:
    code, out, _ = cli("table", str(EXAMPLE))
    assert code == 0 and "0.540356" in out and "masi: alpha|dist:masi|masi:exact" in out
    code, out, _ = cli("table", str(EXAMPLE), "-f", "csv")
    lines = out.strip().splitlines()
    assert lines[0].startswith("document,distance,alpha") and len(lines) == 4
    code, out, _ = cli("table", str(EXAMPLE), "-f", "latex", "--distance", "masi")
    assert r"\toprule" in out and r"\bottomrule" in out and "0.540356" in out


def test_scalar_levels_on_krippendorff_example(cli) -> None:
    _, out, _ = cli("table", str(FIXTURES / "krippendorff2011.csv"), "--scalar",
                       "--distance", "nominal,ordinal,interval,ratio", "-f", "json")
    got = {r["distance"]: r["alpha"] for r in json.loads(out)["results"]}
    assert got == pytest.approx({"nominal": 113 / 152, "ordinal": 108577 / 133160,
                                 "interval": 951 / 1120, "ratio": 18222619 / 22852465})


def test_documents_pooled_total_is_not_a_mean(tmp_path, cli) -> None:
    nltk = pytest.importorskip("nltk.metrics.agreement")
    rows = ["document,coder,unit,labels", "d1,A,1,a", "d1,B,1,a;b", "d1,A,2,c", "d1,B,2,c",
            "d2,A,1,a", "d2,B,1,b", "d2,A,2,", "d2,B,2,"]
    path = tmp_path / "docs.csv"
    path.write_text("\n".join(rows) + "\n")
    _, out, _ = cli("table", str(path), "-f", "json", "--distance", "jaccard")
    obj = json.loads(out)
    assert [d["document"] for d in obj["results"] if not d["pooled"]] == ["d1", "d2"]
    recs = []
    for line in rows[1:]:
        doc, coder, unit, labels = line.split(",")
        recs.append((coder, (doc, unit), frozenset(x for x in labels.split(";") if x)))

    def jaccard(x, y):
        return 0.0 if not x and not y else 1 - len(x & y) / len(x | y)

    expected = nltk.AnnotationTask(recs, distance=jaccard).alpha()
    assert obj["results"][0]["alpha"] == pytest.approx(expected)


def test_other_separator_and_stdin(cli, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("coder,unit,labels\nA,1,x|y\nB,1,x|y\n"
                                                  "A,2,z\nB,2,x\n"))
    code, out, _ = cli("table", "-", "--sep", "|", "-f", "json", "--distance", "nominal")
    assert code == 0 and json.loads(out)["inputs"] == ["<stdin>"]


BAD = [
    ("", "empty.csv:1: empty file"),
    ("coder,item,labels\nA,1,x\n", "bad.csv:1: the header has the columns"),
    ("coder,unit,labels\nA,1,x\nB,1\n", "bad.csv:3: 2 fields, expected 3"),
    ("coder,unit,labels\n,1,x\n", "bad.csv:2: empty coder"),
    ("coder,unit,labels\nA,1,x\nB,1,x\nA,1,y\n",
     "bad.csv:4: coder 'A' coded unit '1' twice (first at line 2)"),
    ("coder,unit,labels\nA,1,x;;y\nB,1,x\n", "bad.csv:2: empty label in 'x;;y'"),
    ("coder,unit,labels\n", "bad.csv:1: no codings after the header"),
    ("coder,unit,labels\nA,1,x\nB,1,\xe9\n", "bad.csv:3:5: byte 0xe9 is not UTF-8"),
]


@pytest.mark.parametrize(("content", "message"), BAD)
def test_bad_input_exits_1_with_file_and_line(tmp_path, cli, content, message) -> None:
    name = message.split(":")[0]
    path = tmp_path / name
    path.write_bytes(content.encode("latin-1"))
    code, out, err = cli("table", str(path))
    assert code == 1 and out == ""
    assert err.strip().replace(str(tmp_path) + "/", "").startswith(message)


def test_non_numeric_scalar_for_interval(tmp_path, cli) -> None:
    path = tmp_path / "s.csv"
    path.write_text("coder,unit,labels\nA,1,3\nB,1,high\n")
    code, _, err = cli("table", str(path), "--scalar", "--distance", "interval")
    assert code == 1 and err.strip().endswith("s.csv:3: value 'high' is not a number")


def test_repairs_are_reported(tmp_path, cli) -> None:
    path = tmp_path / "r.csv"
    path.write_text("coder,unit,labels\nA,1,x;x\nB,1,x\n")
    code, _, err = cli("table", str(path))
    assert code == 0 and "r.csv:2: merged: a label given twice in one cell is counted once" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["table", str(EXAMPLE), "--distance", "jacard"],
        ["table", str(EXAMPLE), "--distance", "interval"],
        ["table"],
        ["table", str(EXAMPLE), "-f", "xml"],
        [],
    ],
)
def test_bad_usage_exits_2(cli, argv) -> None:
    code, _, err = cli(*argv)
    assert code == 2 and "usage:" in err


def test_undefined_alpha_is_a_warning_not_a_crash(tmp_path, cli) -> None:
    path = tmp_path / "same.csv"
    path.write_text("coder,unit,labels\nA,1,x\nB,1,x\n")
    code, out, err = cli("table", str(path), "-f", "json", "--distance", "nominal")
    obj = json.loads(out)
    assert code == 0 and obj["results"][0]["alpha"] is None and err == ""
    undefined = [w for w in obj["warnings"] if w["kind"] == "undefined"]
    assert any(w["message"].startswith("alpha (nominal) is undefined") for w in undefined)
    code, out, err = cli("table", str(path), "--distance", "nominal")
    assert code == 0 and "warning: undefined: alpha (nominal) is undefined" in err
