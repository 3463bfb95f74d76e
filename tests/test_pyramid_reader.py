"""The DUCView reader: every quirk of the DUC data on our own fixtures, bad input, real files."""

from __future__ import annotations

import importlib.util
import warnings
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from clusteragree import InputError
from clusteragree.errors import InputWarning
from clusteragree.pyramids import read_ducview, read_pan, read_pyramid, word_units

ROOT = Path(__file__).resolve().parent.parent
QUIRKS = ROOT / "corpora_fixtures" / "pyramid-quirks"
BAD = ROOT / "corpora_fixtures" / "pyramid-bad"
SHARED = ROOT.parent / "shared" / "corpora" / "duc-pyramids"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/corpora absent")


def _load_generator():
    spec = importlib.util.spec_from_file_location(
        "make_pyramid_fixtures", ROOT / "scripts" / "make_pyramid_fixtures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_fixtures_are_what_the_script_writes() -> None:
    for rel, content in _load_generator().all_fixtures().items():
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        assert (ROOT / "corpora_fixtures" / rel).read_bytes() == data, rel


def _texts_of_parts(pyr):
    return [pyr.text[p.start:p.end].replace("\n", "") for s in pyr.scus for p in s.parts]


def _labels(pyr):
    return [p.label for s in pyr.scus for p in s.parts]


def test_clean_file_with_a_part_across_a_line_break() -> None:
    p = read_pyramid(QUIRKS / "line-break-part.pyr")
    assert (len(p.scus), p.n_contributors, p.n_parts) == (3, 5, 5)
    assert [s.id for s in p.summaries] == ["D0901.M.100.A.A", "D0901.M.100.A.B"]
    assert p.summaries_found_by == "stored regex" and not p.repairs and not p.notes
    assert _texts_of_parts(p) == _labels(p)
    across = p.scus[1].contributors[0].parts[0]
    assert "\n" in p.text[across.start:across.end] and "\n" not in across.label
    assert p.text.startswith("#2\n\n\n---------------\nD0901.M.100.A.A\n")


@pytest.mark.parametrize(
    ("name", "found_by"),
    [("no-regex.pyr", "header pattern"), ("unescaped-dot-regex.pyr", "stored regex"),
     ("docset-regex.pyr", "stored regex"), ("regex-space-variant.pyr", "stored regex"),
     ("autopan.pan", "header pattern")],
)
def test_summaries_are_found_and_bodies_exclude_headers(name: str, found_by: str) -> None:
    p = read_pyramid(QUIRKS / name)
    assert p.summaries_found_by == found_by
    assert [s.id.strip() for s in p.summaries] == ["D0901.M.100.A.A", "D0901.M.100.A.B"]
    first_words = [p.text[s.body[0]:s.body[1]].split()[0] for s in p.summaries]
    assert first_words == ["Protests", "Protesters"]
    units = word_units([p])
    assert not any(set(w) <= {"-"} for w in units.labels)  # no dashes from the headers
    assert len(units) == 18 + 14  # whitespace tokens of the two bodies, counted by hand


def test_same_words_whatever_the_header_detection() -> None:
    base = word_units([read_pyramid(QUIRKS / "line-break-part.pyr")])
    for name in ("no-regex.pyr", "unescaped-dot-regex.pyr", "docset-regex.pyr"):
        assert word_units([read_pyramid(QUIRKS / name)]).labels == base.labels


def test_crlf_and_replacement_character_and_whitespace_labels() -> None:
    assert read_pyramid(QUIRKS / "crlf.pyr").text == read_pyramid(
        QUIRKS / "line-break-part.pyr").text
    fffd = read_pyramid(QUIRKS / "replacement-char.pyr")
    assert fffd.scus[-1].contributors[0].parts[0].label == "Chr\ufffdtien resigned"
    assert _texts_of_parts(fffd) == _labels(fffd)
    spaced = read_pyramid(QUIRKS / "label-whitespace.pyr")
    assert spaced.scus[2].label == "  A month later "


def test_utf16_offsets_with_an_astral_character() -> None:
    p = read_pyramid(QUIRKS / "astral-utf16.pyr")
    assert not p.repairs and _texts_of_parts(p) == _labels(p)


def test_parts_out_of_order_and_unsorted_uids_are_kept() -> None:
    p = read_pyramid(QUIRKS / "parts-out-of-order.pyr")
    parts = p.scus[0].contributors[0].parts
    assert parts[0].start > parts[1].start
    assert p.scus[0].contributors[0].extent == tuple(sorted((q.start, q.end) for q in parts))
    assert [s.uid for s in read_pyramid(QUIRKS / "uids-unsorted.pyr").scus] == [17, 4, 9]


def test_annotation_facts_are_noted_not_changed() -> None:
    two = read_pyramid(QUIRKS / "contributor-two-summaries.pyr")
    assert two.notes == {"contributors with parts in two summaries": 1}
    same = read_pyramid(QUIRKS / "two-contributors-one-summary.pyr")
    assert same.notes == {"SCUs with two contributors from one summary": 1}
    assert same.weights("contributors") == {1: 2} and same.weights("summaries") == {1: 1}


@pytest.mark.parametrize(
    ("name", "repair", "count"),
    [("start-after-end.pyr", "part re-anchored (start after end)", 1),
     ("shifted-offsets.pyr", "part re-anchored (label not at its offsets)", 2),
     ("appended-documents.pyr", "earlier XML documents dropped (DUCView 1.5 appends on save)", 1)],
)
def test_repairs_are_counted_and_strict_refuses_them(name: str, repair: str, count: int) -> None:
    p = read_pyramid(QUIRKS / name)
    assert p.repairs == {repair: count}
    assert _texts_of_parts(p) == _labels(p)
    with pytest.raises(InputError, match=name):
        read_pyramid(QUIRKS / name, strict=True)


def test_appended_documents_keep_the_last() -> None:
    assert len(read_pyramid(QUIRKS / "appended-documents.pyr").scus) == 3


def test_legacy_encoding_is_read_with_a_warning() -> None:
    with pytest.warns(InputWarning, match=r"cp1252.pyr:\d+: repaired: decoded as cp1252, not "
                      "UTF-8"):
        p = read_pyramid(QUIRKS / "cp1252.pyr")
    assert "Chrétien" in p.text and list(p.repairs.values()) == [1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the encoding named: nothing to report
        named = read_pyramid(QUIRKS / "cp1252.pyr", encoding="cp1252")
    assert named.text == p.text and named.repairs == {}


def test_peer_annotations() -> None:
    pan = read_pan(QUIRKS / "peer.pan")
    assert pan.text == "The protests against the mine continued.\nIt rained all week.\n"
    assert [s.uid for s in pan.peer_scus] == [1, 2, 3, 0]
    assert pan.peer_scus[0].label == "(2) Protests against the mine"
    assert set(pan.found) == {1}
    assert len(pan.pyramid.scus) == 3
    auto = read_pan(QUIRKS / "autopan.pan")
    assert auto.pyramid.regex is None and set(auto.found) == {1}
    scored = read_pan(QUIRKS / "ducview15-score.pan")
    assert scored.found.keys() == pan.found.keys()
    with pytest.raises(InputError, match="not a peer annotation"):
        read_pan(QUIRKS / "line-break-part.pyr")


BAD_CASES = [
    ("empty.pyr", 1, "empty file"),
    ("not-xml.pyr", 1, "not well-formed XML"),
    ("broken-xml.pyr", 49, "not well-formed XML: Opening and ending tag mismatch"),
    ("wrong-root.pyr", 2, "the root element is <summary>"),
    ("no-text.pyr", 2, "<pyramid> has no <text> element"),
    ("offsets-out-of-range.pyr", 44, "part 'Nowhere in this text' at 314-349: offsets outside "
                                     "the text, and the label does not occur"),
    ("start-after-end.pyr", 44, "part 'Nowhere in this text' at 106-54: start after end, and "
                                "the label does not occur"),
    ("label-far-away.pyr", 61, "part 'A month later' at 508-521: label not at its offsets (the "
                               "text there is 'e filler word'), and the label does not occur "
                               "within 200 characters"),
    ("not-a-number.pyr", 44, "<part> start 'x54' is not a whole number"),
    ("pyreval.pyr", 1, "this is a PyrEval pyramid (root <Pyramid>"),
    ("pyreval-readable.pyr", 1, "this is PyrEval's readable pyramid"),
]


@pytest.mark.parametrize(("name", "line", "message"), BAD_CASES)
def test_bad_input_names_file_and_line(name: str, line: int, message: str) -> None:
    with pytest.raises(InputError) as err:
        read_ducview(BAD / name)
    assert str(err.value).startswith(f"{BAD / name}:{line}: {message}")


def test_missing_file() -> None:
    with pytest.raises(InputError, match="no such file"):
        read_pyramid(BAD / "no-such-file.pyr")


# ---------------------------------------------------------------------------- real DUC data
@needs_shared
def test_all_73_pyramids_and_49_pans_load_with_counts_and_repairs() -> None:
    pyramids = sorted(SHARED.glob("DUC20*/**/*.pyr"))
    pans = sorted(SHARED.glob("DUC20*/**/*.pan"))
    assert (len(pyramids), len(pans)) == (73, 49)
    totals: Counter[str] = Counter()
    repairs: Counter[str] = Counter()
    notes: Counter[str] = Counter()
    found_by: Counter[str] = Counter()
    for path in pyramids:
        p = read_pyramid(path)
        xml = path.read_text(encoding="utf-8")
        assert len(p.scus) == xml.count("<scu ")
        assert p.n_contributors == xml.count("<contributor ")
        assert p.n_parts == xml.count("<part ")
        assert len(p.summaries) == 4
        totals.update(scus=len(p.scus), contributors=p.n_contributors, parts=p.n_parts)
        repairs.update({f"{path.name}: {k}": v for k, v in p.repairs.items()})
        notes.update(p.notes)
        found_by[p.summaries_found_by] += 1
    assert totals == {"scus": 3936, "contributors": 6416, "parts": 8881}
    assert repairs == {"D0740-DHIJ.pyr: part re-anchored (label not at its offsets)": 66,
                       "D0726-A-AEFG.pyr: part re-anchored (start after end)": 1}
    assert notes == {"contributors with parts in two summaries": 7,
                     "SCUs with two contributors from one summary": 5}
    assert found_by == {"stored regex": 65, "header pattern": 8}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for path in pans:
            pan = read_pan(path)
            assert len(pan.peer_scus) == len(pan.pyramid.scus) + 1
            assert not pan.repairs


@needs_shared
def test_word_coverage_of_duc_2006_matches_the_notes() -> None:
    tokens = uncovered = multi = 0
    for path in sorted(SHARED.glob("DUC2006/DUC2006pyramiddata/allpyramids/*.pyr")):
        units = word_units([read_pyramid(path)])
        counts = np.bincount(units.members[0][:, 0], minlength=len(units))
        tokens += len(units)
        uncovered += int((counts == 0).sum())
        multi += int((counts >= 2).sum())
    assert (tokens, uncovered, multi) == (19790, 575, 3446)


def test_strict_names_every_repair_of_a_file(tmp_path, cli) -> None:
    """Issue 21: under --strict a pyramid that needs two kinds of repair (an earlier XML
    document dropped, a part re-anchored) reports both in one run, each with its first line,
    then refuses the first, in the command line's words."""
    quirks = Path(__file__).resolve().parent.parent / "corpora_fixtures" / "pyramid-quirks"
    shifted = (quirks / "shifted-offsets.pyr").read_text(encoding="utf-8")
    both = tmp_path / "both.pyr"
    both.write_text(shifted + "\n" + shifted, encoding="utf-8")  # DUCView 1.5 appends on save
    code, _, err = cli("pyramid", str(both), str(quirks / "shifted-offsets.pyr"), "--strict")
    assert code == 1
    warned = [line for line in err.splitlines() if line.startswith("warning: ")]
    kinds = {line.split(": repaired: ")[1].split(",")[0].split(" (")[0] for line in warned
             if ": repaired: " in line}
    assert kinds == {"earlier XML documents dropped", "part re-anchored"}, err
    refusal = err.splitlines()[-1]
    assert refusal.startswith(f"{both}:") and "1 other problem(s)" in refusal
    assert "without --strict" in refusal and "strict=" not in refusal


@pytest.mark.parametrize("element", ["text", "startDocumentRegEx"])
def test_a_second_text_or_pattern_is_refused_not_one_kept(tmp_path: Path, element: str) -> None:
    """Two <text> (or <startDocumentRegEx>) elements in one pyramid: which one is meant cannot
    be told, so the file is refused at the second instead of one being kept in silence."""
    from clusteragree.pyramids.reader import read_pyramid
    second = ("<text><line>x y z</line></text>" if element == "text"
              else "<startDocumentRegEx><![CDATA[[=]{10}]]></startDocumentRegEx>")
    path = tmp_path / "two.pyr"
    path.write_text('<?xml version="1.0"?>\n<pyramid>\n'
                    "<startDocumentRegEx><![CDATA[[-]{10}]]></startDocumentRegEx>\n"
                    "<text><line>a b c</line></text>\n" + second + "\n"
                    '<scu uid="1" label="a"><contributor label="a">'
                    '<part label="a" start="0" end="1"/></contributor></scu>\n</pyramid>\n',
                    encoding="utf-8")
    with pytest.raises(InputError, match=rf"two.pyr:5: a second <{element}> element"):
        read_pyramid(path)
