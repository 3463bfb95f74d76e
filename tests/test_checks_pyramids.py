"""validate on DUCView pyramids (.pyr) and peer annotations (.pan): one planted problem per
test id, the real DUC 2006/2007 files against counts made here from the raw XML, the CLI."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from clusteragree.cli import main
from clusteragree.incidents import TESTS
from clusteragree.pyramids.checks import validate_inputs
from clusteragree.pyramids.writers import build_pyramid, pan_xml, pyramid_xml

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "duc-pyramids"

SUMMARIES = [("D1.M.100.A.A", "the cat sat on the mat"),
             ("D1.M.100.A.B", "a cat sat and a dog ran")]
SCUS = [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]]),
        ("A dog ran", [[(1, "dog ran")]])]


def _pyramid(scus=SCUS, summaries=SUMMARIES):
    return build_pyramid(summaries, scus)


def _ids(paths, kind, level=3, names=None):
    found = list(validate_inputs([str(p) for p in paths], kind, level=level, encoding=None,
                                 names=names, options={}))
    return found, Counter(i.test_id for i in found)


def _planted(found):
    """The ids of the domain's tests (the reader's level-1 incidents aside)."""
    return {i.test_id for i in found if not i.test_id.startswith("read-")}


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_clean_pyramid_and_pan_find_nothing(tmp_path):
    p = _pyramid()
    pyr = _write(tmp_path, "D1.pyr", pyramid_xml(p))
    pan = _write(tmp_path, "A.D1.M.100.A.7.pan", pan_xml(p, "a cat sat", {1: [["cat sat"]]}))
    assert _ids([pyr], "pyramid")[1] == Counter()
    assert _ids([pan], "pan")[1] == Counter()


def _part_line(xml, label):
    return re.search(rf'<part label="{label}" start="(\d+)" end="(\d+)"/>', xml)


PYRAMID_PLANTS = {
    # id: (how the clean XML is changed, the ids expected besides the reader's)
    "pyramids-part-offsets": (lambda x: x.replace('end="', 'end="9', 1), set()),
    "pyramids-part-not-at-offsets": (
        lambda x: x.replace('label="dog ran"', 'label="dog rat"'), set()),
    "pyramids-empty-contributor": (
        lambda x: re.sub(r'(<contributor label="dog ran">)\s*<part [^>]*/>', r"\1", x), set()),
    "pyramids-empty-scu": (
        lambda x: x.replace("</pyramid>", '<scu uid="9" label="Nothing"></scu>\n</pyramid>'),
        set()),
    "pyramids-duplicate-uid": (lambda x: x.replace('<scu uid="2"', '<scu uid="1"'), set()),
    "pyramids-contributor-label": (
        lambda x: x.replace('<contributor label="dog ran">', '<contributor label="a dog">'),
        set()),
}


@pytest.mark.parametrize("test_id", sorted(PYRAMID_PLANTS))
def test_planted_in_the_xml(tmp_path, test_id):
    change, also = PYRAMID_PLANTS[test_id]
    clean = pyramid_xml(_pyramid())
    changed = change(clean)
    assert changed != clean
    found, _ = _ids([_write(tmp_path, "D1.pyr", changed)], "pyramid")
    assert _planted(found) == {test_id} | also


def test_empty_part(tmp_path):
    xml = pyramid_xml(_pyramid())
    m = _part_line(xml, "dog ran")
    xml = xml.replace(m.group(0), f'<part label="" start="{m.group(1)}" end="{m.group(1)}"/>')
    xml = xml.replace('<contributor label="dog ran">', '<contributor label="">')
    found, _ = _ids([_write(tmp_path, "D1.pyr", xml)], "pyramid")
    assert _planted(found) == {"pyramids-empty-part"}


BUILT = {
    # the overlap counts the same words twice; those words are in one summary, so the SCU has
    # two contributors from it and a weight above its summaries: three ids for one fault
    "pyramids-overlap-in-scu": ([("A cat sat", [[(0, "cat sat")], [(0, "cat")]])],
                                {"pyramids-same-summary-twice", "pyramids-weight-summaries"}),
    "pyramids-overlap-across-scus": ([("A cat sat", [[(0, "cat sat")]]),
                                      ("A cat", [[(0, "cat")]])], set()),
    "pyramids-same-summary-twice": ([("It sat", [[(1, "a cat")], [(1, "a dog")]])],
                                    {"pyramids-weight-summaries"}),
    "pyramids-contributor-two-summaries": ([("Cat and dog", [[(0, "cat sat"), (1, "dog")]])],
                                           {"pyramids-weight-summaries"}),
}


@pytest.mark.parametrize("test_id", sorted(BUILT))
def test_planted_by_building(tmp_path, test_id):
    scus, also = BUILT[test_id]
    found, _ = _ids([_write(tmp_path, "D1.pyr", pyramid_xml(_pyramid(scus)))], "pyramid")
    assert _planted(found) == {test_id} | also


def test_part_in_a_header_and_no_summaries(tmp_path):
    p = _pyramid()
    head = p.text.index("D1.M.100.A.B")
    xml = pyramid_xml(p).replace(
        "</pyramid>", f'<scu uid="9" label="id"><contributor label="D1"><part label="D1" '
        f'start="{head}" end="{head + 2}"/></contributor></scu>\n</pyramid>')
    found, _ = _ids([_write(tmp_path, "D1.pyr", xml)], "pyramid")
    assert _planted(found) == {"pyramids-part-outside-summaries"}
    plain = re.sub(r"<line>(-+|D1\.M\.100\.A\.[AB])</line>",  # lengths kept: offsets hold
                   lambda m: f"<line>{'x' * len(m.group(1))}</line>", pyramid_xml(p))
    plain = re.sub(r"<startDocumentRegEx>.*?</startDocumentRegEx>", "", plain, flags=re.S)
    found, _ = _ids([_write(tmp_path, "plain.pyr", plain)], "pyramid")
    assert _planted(found) == {"pyramids-no-summaries"}


def _pan(p, peer="a cat sat", found=None):
    return pan_xml(p, peer, found if found is not None else {1: [["cat sat"]]})


PAN_PLANTS = {
    "pyramids-peer-weight": lambda x: x.replace('label="(2) A cat sat"', 'label="(3) A cat sat"'),
    "pyramids-peer-label": lambda x: x.replace('label="(2) A cat sat"', 'label="(2) A cat"'),
    "pyramids-peer-missing-scu": lambda x: re.sub(r'<peerscu uid="2"[^>]*>\s*</peerscu>', "", x),
    "pyramids-peer-unknown-scu": lambda x: x.replace('<peerscu uid="2"', '<peerscu uid="7"'),
}


@pytest.mark.parametrize("test_id", sorted(PAN_PLANTS))
def test_planted_in_a_pan(tmp_path, test_id):
    clean = _pan(_pyramid())
    changed = PAN_PLANTS[test_id](clean)
    assert changed != clean
    found, _ = _ids([_write(tmp_path, "A.D1.M.100.A.7.pan", changed)], "pan")
    also = {"pyramids-peer-missing-scu"} if test_id == "pyramids-peer-unknown-scu" else set()
    assert _planted(found) == {test_id} | also


def test_peer_overlap_in_one_peer_scu(tmp_path):
    xml = _pan(_pyramid(), found={1: [["cat sat"], ["cat"]]})
    found, _ = _ids([_write(tmp_path, "A.D1.M.100.A.7.pan", xml)], "pan")
    assert _planted(found) == {"pyramids-peer-overlap-in-scu"}


def test_level_three_pyramids(tmp_path):
    a = _write(tmp_path, "a.pyr", pyramid_xml(_pyramid()))
    other = [("D1.M.100.A.A", "the cat sat on a mat"), SUMMARIES[1]]
    b = _write(tmp_path, "b.pyr", pyramid_xml(_pyramid([], other)))
    c = _write(tmp_path, "c.pyr", pyramid_xml(_pyramid([], SUMMARIES[:1])))
    d = _write(tmp_path, "d.pyr", pyramid_xml(_pyramid()).replace("</text>",
                                                                  "<line></line></text>"))
    assert _planted(_ids([a, b], "pyramid")[0]) == {"pyramids-summary-differs"}
    assert _planted(_ids([a, c], "pyramid")[0]) == {"pyramids-summary-missing"}
    assert _planted(_ids([a, d], "pyramid")[0]) == {"pyramids-text-differs"}
    assert _planted(_ids([a, b], "pyramid", level=2)[0]) == set()
    # pyramids of other docsets are not compared
    e = _write(tmp_path, "e.pyr", pyramid_xml(_pyramid([], [("D2.M.100.A.A", "x"),
                                                            ("D2.M.100.A.B", "y")])))
    assert _planted(_ids([a, e], "pyramid")[0]) == set()


def test_level_three_pans(tmp_path):
    p = _pyramid()
    files = {n: _write(tmp_path, n, _pan(p)) for n in ("A.D1.M.100.A.7.pan",
                                                        "B.D1.M.100.A.7.pan",
                                                        "A.D1.M.100.A.8.pan")}
    a7, b7, a8 = files.values()
    assert _planted(_ids([a7, b7], "pan")[0]) == set()
    assert _planted(_ids([a7, b7, a8], "pan")[0]) == {"pyramids-peer-one-annotator"}
    b7.write_text(_pan(p, peer="a cat sat today"), encoding="utf-8")
    assert _planted(_ids([a7, b7], "pan")[0]) == {"pyramids-peer-text-differs"}
    q = _pyramid(summaries=[SUMMARIES[0], ("D1.M.100.A.B", "a cat sat and a dog ran off")])
    b7.write_text(_pan(q), encoding="utf-8")
    assert _planted(_ids([a7, b7], "pan")[0]) == {"pyramids-pan-pyramid-differs"}
    twice = _write(tmp_path, "again.pan", _pan(p))
    found = _ids([a7, twice], "pan", names=["A", "A"])[0]
    assert {i.test_id for i in found} == set()  # different peers: 'again' and 'D1.M.100.A.7'
    found = _ids([a7, a7], "pan")[0]
    assert _planted(found) == {"pyramids-peer-twice"}


def test_every_pyramid_test_is_planted():
    planted = (set(PYRAMID_PLANTS) | set(BUILT) | set(PAN_PLANTS) | {
        "pyramids-empty-part", "pyramids-part-outside-summaries", "pyramids-no-summaries",
        "pyramids-peer-overlap-in-scu", "pyramids-weight-summaries",
        "pyramids-summary-differs", "pyramids-summary-missing", "pyramids-text-differs",
        "pyramids-peer-one-annotator", "pyramids-peer-text-differs",
        "pyramids-pan-pyramid-differs", "pyramids-peer-twice"})
    assert {t for t, v in TESTS.items() if v.domain == "pyramids"} == planted


# --- the real DUC 2006/2007 files, against counts made here from the XML

HEADER = re.compile(r"-+\n\s*D[0-9]+(-[A-Z])?\.M\.[0-9]+\.[A-Z]\.[A-Z]\n-+\n")


def _text(el):
    return "\n".join(line.text or "" for line in el.findall("line")) + "\n"


def _layer_counts(scus, text, starts, pyramid, out):
    """Counts of one layer by character sets (not by the sweep the checks use)."""
    n = len(text)

    def summary(pos):
        return max((k for k, s in enumerate(starts) if s <= pos), default=None)

    chars = []
    for scu in scus:
        contributors = scu.findall("contributor")
        if pyramid and not contributors:
            out["pyramids-empty-scu"] += 1
        sets, by, every = [], Counter(), set()
        for c in contributors:
            cs, placed = set(), []
            for part in c.findall("part"):
                s, e = int(part.get("start")), int(part.get("end"))
                if not 0 <= s <= e <= n:
                    out["pyramids-part-offsets"] += 1
                    continue
                if text[s:e].replace("\n", "") != part.get("label"):
                    out["pyramids-part-not-at-offsets"] += 1
                if s < e:
                    cs |= set(range(s, e))
                    placed.append(s)
            sets.append(cs)
            if pyramid and placed:
                at = {summary(s) for s in placed}
                every |= at
                by[summary(min(placed))] += 1
                if len(at) > 1:
                    out["pyramids-contributor-two-summaries"] += 1
        for i in range(len(sets)):
            for j in range(i + 1, len(sets)):
                if sets[i] & sets[j]:
                    out["pyramids-overlap-in-scu" if pyramid else
                        "pyramids-peer-overlap-in-scu"] += 1
        if pyramid:
            out["pyramids-same-summary-twice"] += any(k > 1 for k in by.values())
            out["pyramids-weight-summaries"] += bool(every) and len(every) != sum(by.values())
        chars.append(set().union(*sets) if sets else set())
    for i in range(len(chars)):
        for j in range(i + 1, len(chars)):
            if chars[i] & chars[j]:
                out["pyramids-overlap-across-scus"] += 1


def _expected(path):
    out = Counter()
    root = ET.parse(path).getroot()
    pyr = root if root.tag == "pyramid" else root.find("pyramid")
    text = _text(pyr.find("text"))
    starts = [m.start() for m in HEADER.finditer(text)]
    assert len(starts) == 4  # the NIST layout: four models in every file
    _layer_counts(pyr.findall("scu"), text, starts, True, out)
    if root.tag == "peerAnnotation":
        ann = root.find("annotation")
        _layer_counts(ann.findall("peerscu"), _text(ann.find("text")), [], False, out)
    return out


COUNTED = ("pyramids-empty-scu", "pyramids-part-offsets", "pyramids-part-not-at-offsets",
           "pyramids-contributor-two-summaries", "pyramids-overlap-in-scu",
           "pyramids-peer-overlap-in-scu", "pyramids-same-summary-twice",
           "pyramids-weight-summaries", "pyramids-overlap-across-scus")


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpora/duc-pyramids is absent")
def test_real_duc_files_against_the_raw_xml():
    files = sorted(CORPUS.glob("DUC200*/**/*.pyr")) + sorted(CORPUS.glob("DUC200*/**/*.pan"))
    assert len(files) == 73 + 49
    total = Counter()
    for path in files:
        _, got = _ids([path], "pan" if path.suffix == ".pan" else "pyramid")
        expected = _expected(path)
        assert {k: got[k] for k in COUNTED} == {k: expected[k] for k in COUNTED}, path
        assert set(got) <= set(COUNTED) | {"read-note", "read-repaired"}, (path, got)
        total.update(got)
    # the quirk catalogue of docs/pyramids.md (notes/pyramid-format.md, section 7): 7
    # contributors in two summaries, 5 SCUs with two contributors from one summary, 66
    # shifted parts and 1 part with start after end; none of them in a .pan's pyramid
    # but D0631's (uid 237, in each of the 44 files)
    assert total["pyramids-contributor-two-summaries"] == 7 + 44
    assert total["pyramids-same-summary-twice"] == 5
    assert total["pyramids-part-not-at-offsets"] == 66
    assert total["pyramids-part-offsets"] == 1
    assert total["pyramids-empty-scu"] == 0
    assert total["pyramids-overlap-in-scu"] == 2  # D0727-AFGH uid 70, D0739-DEGI uid 62


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpora/duc-pyramids is absent")
def test_real_d0631_pans_across_annotators_and_pyreval_files():
    pans = sorted(CORPUS.glob("DUC2006/**/11[45].D0631.*.pan"))
    assert len(pans) == 44
    found = [i for i in _ids(pans, "pan")[0] if i.level == 3]
    assert found == []  # same peers, same texts, the same pyramid (NIST README)
    for path in sorted(CORPUS.glob("pyreval-format/*.pyr")):
        assert _ids([path], "pyramid")[1] == Counter({"read-refused": 1})


# --- the command line


def test_cli_exit_codes_levels_and_json(tmp_path, capsys):
    clean = _write(tmp_path, "D1.pyr", pyramid_xml(_pyramid()))
    bad = _write(tmp_path, "D2.pyr", pyramid_xml(_pyramid(BUILT["pyramids-overlap-in-scu"][0])))
    assert main(["validate", str(clean)]) == 0
    assert main(["validate", str(bad)]) == 1
    assert main(["validate", str(bad), "--level", "1"]) == 0  # the overlap is level 2
    capsys.readouterr()
    assert main(["validate", str(bad), "-f", "json", "--max-err", "1"]) == 1
    records = json.loads(capsys.readouterr().out)
    text = json.dumps(records)
    assert '"kind": "incident"' in text and '"kind": "test"' in text
    assert "pyramids-overlap-in-scu" in text


def test_strict_pyramid_and_pan_refuse_what_validate_calls_an_error(tmp_path, capsys):
    good = [_write(tmp_path, f"{w}.pyr", pyramid_xml(_pyramid())) for w in "ab"]
    bad = _write(tmp_path, "c.pyr", pyramid_xml(_pyramid(BUILT["pyramids-overlap-in-scu"][0])))
    warned = _write(tmp_path, "d.pyr",
                    pyramid_xml(_pyramid(BUILT["pyramids-same-summary-twice"][0])))
    assert main(["pyramid", str(good[0]), str(bad)]) == 0
    assert main(["pyramid", str(good[0]), str(bad), "--strict"]) == 1
    assert "pyramids-overlap-in-scu" in capsys.readouterr().err
    assert main(["pyramid", str(good[0]), str(warned), "--strict"]) == 0  # a warning passes
    p = _pyramid()
    pans = [_write(tmp_path, f"{w}.D1.M.100.A.7.pan", _pan(p)) for w in "AB"]
    assert main(["pan", *map(str, pans), "--strict"]) == 0
    pans[1].write_text(PAN_PLANTS["pyramids-peer-unknown-scu"](_pan(p)), encoding="utf-8")
    assert main(["pan", *map(str, pans)]) == 0
    assert main(["pan", *map(str, pans), "--strict"]) == 1
    assert "pyramids-peer-unknown-scu" in capsys.readouterr().err


# --- a file the reader read as written is checked on what it read: the same incidents


def _both_ways(paths, kind, monkeypatch):
    """validate_inputs as it runs (the reader's model when it repaired nothing) and with the
    second, unrepaired parse of every file; and how many files took the first way."""
    from clusteragree.pyramids import checks
    taken = []
    as_written = checks._as_written

    def spy(path, model):
        taken.append(as_written(path, model))
        return taken[-1]

    monkeypatch.setattr(checks, "_as_written", spy)
    fast = list(validate_inputs([str(p) for p in paths], kind, level=3, encoding=None,
                                names=None, options={}))
    monkeypatch.setattr(checks, "_as_written", lambda path, model: False)
    slow = list(validate_inputs([str(p) for p in paths], kind, level=3, encoding=None,
                                names=None, options={}))
    monkeypatch.undo()
    return fast, slow, sum(taken)


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpora/duc-pyramids is absent")
def test_real_duc_files_the_same_with_one_parse(monkeypatch):
    files = sorted(CORPUS.glob("DUC200*/**/*.pyr")) + sorted(CORPUS.glob("DUC200*/**/*.pan"))
    read_once = 0
    for path in files:
        fast, slow, n = _both_ways([path], "pan" if path.suffix == ".pan" else "pyramid",
                                   monkeypatch)
        assert fast == slow, path
        read_once += n
    assert read_once >= 40  # most files need no repair (the others are parsed twice)
    pans = sorted(CORPUS.glob("DUC2006/**/11[45].D0631.*.pan"))[:6]
    fast, slow, n = _both_ways(pans, "pan", monkeypatch)
    assert fast == slow and n == 6


def _random_pyramid(draw, st):
    """A pyramid of two or three summaries and random SCUs whose parts lie anywhere in the
    text (headers and preamble included), labels as in the text or not, contributor labels
    as DUCView writes them or not, some SCUs without contributors."""
    from clusteragree.pyramids.model import SCU, Contributor, Part, Pyramid
    from clusteragree.pyramids.writers import NIST_REGEX, _text_of
    words = st.sampled_from(["cat", "sat", "the", "mat", "dog", "ran", "Zoë"])
    bodies = [" ".join(draw(st.lists(words, min_size=3, max_size=12)))
              for _ in range(draw(st.integers(2, 3)))]
    text, spans = _text_of([(f"D1.M.100.A.{'ABC'[k]}", b) for k, b in enumerate(bodies)])
    n = len(text)
    scus = []
    for uid in range(1, draw(st.integers(1, 6)) + 1):
        contributors = []
        for _ in range(draw(st.integers(0, 3))):
            parts = []
            for _ in range(draw(st.integers(1, 2))):
                start = draw(st.integers(0, n - 1))
                end = min(n, start + draw(st.integers(0, 12)))
                label = text[start:end].replace("\n", "")
                fault = draw(st.integers(0, 9))
                if fault == 0:
                    label = label + "x"  # in no place: the reader refuses
                elif fault == 1 and end < n - 3:  # shifted: re-anchored (a repair) or refused
                    start, end = start + 2, end + 2
                parts.append(Part(start, end, label))
            joined = "...".join(p.label for p in sorted(parts, key=lambda p: p.start))
            contributors.append(Contributor(joined if draw(st.booleans()) else "other",
                                            tuple(parts)))
        scus.append(SCU(uid, f"SCU {uid}", tuple(contributors)))
    return Pyramid(text, tuple(spans), tuple(scus), "<random>", NIST_REGEX, "stored regex")


@pytest.mark.slow
def test_random_pyramids_the_same_with_one_parse(tmp_path, monkeypatch):
    hypothesis = pytest.importorskip("hypothesis")
    st = hypothesis.strategies

    @hypothesis.settings(max_examples=60, deadline=None,
                         suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture])
    @hypothesis.given(data=st.data())
    def check(data):
        pyramids = [_random_pyramid(data.draw, st) for _ in range(2)]
        paths = []
        for k, p in enumerate(pyramids):
            xml = pyramid_xml(p)
            if k and data.draw(st.booleans()):
                xml = pyramid_xml(pyramids[0])  # the same docset: level 3 compares them
            paths.append(_write(tmp_path, f"p{k}.pyr", xml))
        fast, slow, _ = _both_ways(paths, "pyramid", monkeypatch)
        assert fast == slow

    check()
