"""The DUCView reader's two ways (the SCUs read by regular expressions, or every element by
lxml) give the same pyramid, the same notices and the same errors: on every real DUCView file,
on random pyramids and peer annotations, and on files altered in the ways the fast way must
leave to lxml (comments, entities, attribute order, carriage returns, ...)."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusteragree import InputError
from clusteragree.errors import strict
from clusteragree.pyramids import reader, reader_fast
from clusteragree.pyramids.writers import build_pyramid, pan_xml, pyramid_xml

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "corpora" / "duc-pyramids"
WORDS = ["the", "storm", "hit", "Florida", "on", "Monday", "and", "people", "fled", "Zoë",
         "naïve", "R&D", 'said "no"', "x<y", "it's", "😀", "a😀b"]


def _read(path: Path, fast: bool, monkeypatch: pytest.MonkeyPatch, is_strict: bool = False
          ) -> tuple[object, list[tuple[str, str]]]:
    """What the reader gives (the model, or the error) and its notices, one way."""
    with monkeypatch.context() as m:
        if not fast:
            m.setattr(reader, "fast_frame", lambda raw: None)
        with warnings.catch_warnings(record=True) as caught, strict(is_strict):
            warnings.simplefilter("always")
            try:
                out: object = reader.read_ducview(path)
            except InputError as err:
                out = ("InputError", str(err))
    return out, [(type(w.message).__name__, str(w.message)) for w in caught]


def _same(path: Path, monkeypatch: pytest.MonkeyPatch, is_strict: bool = False) -> object:
    fast = _read(path, True, monkeypatch, is_strict)
    general = _read(path, False, monkeypatch, is_strict)
    assert fast == general
    return fast[0]


def _used(path: Path) -> bool:
    """Whether the fast way read the file's SCUs (no fallback)."""
    try:
        raw, name, offset, repairs = reader._load(path, None)
    except InputError:
        return False
    frame = reader_fast.fast_frame(raw)
    return frame is not None and reader._walk_fast(frame, name, offset, 200,
                                                   repairs) is not None


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/corpora absent")
def test_every_real_file_reads_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted([*SHARED.rglob("*.pyr"), *SHARED.rglob("*.pan")])
    assert len(files) > 100
    used = 0
    for path in files:
        _same(path, monkeypatch)
        used += _used(path)
    assert used > 100  # (PyrEval's files and those with re-anchored parts are read by lxml)


def _random_pyramid(rng: random.Random) -> tuple[str, str]:
    """A pyramid's XML, and the XML of a peer annotation against it."""
    summaries = []
    for k in range(rng.randint(1, 3)):
        lines = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9)))
                 for _ in range(rng.randint(1, 4))]
        summaries.append((f"D0001.M.100.A.{'ABC'[k]}", "\n".join(lines)))
    scus = []
    for _ in range(rng.randint(0, 6)):
        contributors = []
        for s in rng.sample(range(len(summaries)), rng.randint(1, len(summaries))):
            words = summaries[s][1].split()
            first = rng.randrange(len(words))
            part = [(s, " ".join(words[first:first + rng.randint(1, 2)]).split("\n")[0])]
            if rng.random() < 0.3:
                part.append((s, words[rng.randrange(len(words))]))
            contributors.append(part)
        scus.append((rng.choice(["A storm", "R&D <3", 'said "no"', "it's", " spaced "]),
                     contributors))
    try:
        pyramid = build_pyramid(summaries, scus)
    except Exception:  # (a phrase across a line break: keep the summaries alone)
        pyramid = build_pyramid(summaries, [])
    peer = " ".join(rng.choice(WORDS) for _ in range(6))
    found = {scu.uid: [[peer.split()[0]]] for scu in pyramid.scus[:2]}
    return pyramid_xml(pyramid), pan_xml(pyramid, peer, found)


def _at_random(xml: str, needle: str, rng: random.Random) -> int:
    places = [i for i in range(len(xml)) if xml.startswith(needle, i)]
    return rng.choice(places) if places else -1


def _insert(needle: str, what: str, before: bool = True):
    def change(xml: str, rng: random.Random) -> str:
        i = _at_random(xml, needle, rng)
        if i < 0:
            return xml
        j = i if before else i + len(needle)
        return xml[:j] + what + xml[j:]
    return change


def _replace(old: str, new: str):
    def change(xml: str, rng: random.Random) -> str:
        i = _at_random(xml, old, rng)
        return xml if i < 0 else xml[:i] + new + xml[i + len(old):]
    return change


def _crlf(xml: str, rng: random.Random) -> str:
    return xml.replace("\n", "\r\n")


def _truncate(xml: str, rng: random.Random) -> str:
    return xml[:rng.randrange(len(xml))]


def _shift_part(xml: str, rng: random.Random) -> str:
    i = _at_random(xml, ' start="', rng)
    if i < 0:
        return xml
    j = xml.index('"', i + 8)
    return xml[:i + 8] + str(int(xml[i + 8:j]) + rng.choice([1, 2, 50])) + xml[j:]


def _repeat_scu(xml: str, rng: random.Random) -> str:
    i = _at_random(xml, " <scu ", rng)
    if i < 0:
        return xml
    j = xml.index("</scu>", i) + len("</scu>")
    return xml[:j] + "\n" + xml[i:j] + xml[j:]


CHANGES = {
    "crlf": _crlf,
    "lone cr": _replace("\n", "\r"),
    "comment after text": _insert("</text>", "\n<!-- a comment -->", before=False),
    "comment before an scu": _insert(" <scu ", "<!-- </pyramid> -->"),
    "comment in the prolog": _insert("<pyramid>", "<!-- note -->\n"),
    "processing instruction": _insert(" <scu ", "<?pi data?>"),
    "cdata": _insert("</scu>", "<![CDATA[x]]>", before=False),
    "amp entity in a label": _replace('label="', 'label="&amp;'),
    "lt gt quot apos in a label": _replace('label="', 'label="&lt;&gt;&quot;&apos;'),
    "character reference": _replace('label="', 'label="&#65;'),
    "tab in a label": _replace('label="', 'label="\t'),
    "newline in a label": _replace('label="', 'label="a\nb'),
    "attribute order": _replace('" start="', '" start="0" x="'),
    "single quotes": _replace('uid="', "uid='1' x=\""),
    "comment attribute": _replace('<contributor label="', '<contributor comment="c" label="'),
    "comment attribute after": _replace('">\n   <part', '" comment="a &amp; b">\n   <part'),
    "scu comment": _replace('">\n  <contributor', '" comment="why">\n  <contributor'),
    "space before />": _replace('"/>', '" />'),
    "space before >": _replace('">\n  <contributor', '" >\n  <contributor'),
    "shifted part": _shift_part,
    "repeated uid": _repeat_scu,
    "empty scu self-closing": _insert("</pyramid>", ' <scu uid="9999" label="e"/>\n'),
    "empty scu": _insert("</pyramid>", ' <scu uid="9998" label="e">\n </scu>\n'),
    "contributor without part": _insert("</scu>", '<contributor label="x"/>'),
    "empty contributor": _insert("</scu>", '<contributor label="x"></contributor>'),
    "mismatched close": _replace("</scu>", "</peerscu>"),
    "peerscu in a pyramid": _replace("<scu ", "<peerscu "),
    "text between scus": _insert(" <scu ", "junk"),
    "element between scus": _insert(" <scu ", "<foo/>"),
    "uid leading zeros": _replace('uid="', 'uid="007'),
    "uid too long": _replace('uid="', 'uid="1234567890123456789'),
    "negative start": _replace(' start="', ' start="-'),
    "declared latin-1": _replace('<?xml version="1.0"?>',
                                 '<?xml version="1.0" encoding="ISO-8859-1"?>'),
    "declared utf-8": _replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="UTF-8"?>'),
    "entity declaration": _replace("]>", '<!ENTITY e "x">]>'),
    "second text": _insert("</pyramid>", "<text><line>x</line></text>"),
    "second regex": _insert("</pyramid>", "<startDocumentRegEx>x</startDocumentRegEx>"),
    "two documents": lambda xml, rng: xml + "\n" + xml,
    "truncated": _truncate,
    "after the root": lambda xml, rng: xml + "<x/>",
    "bom": lambda xml, rng: "\ufeff" + xml,
}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1),
       changes=st.lists(st.sampled_from(sorted(CHANGES)), max_size=3),
       pan=st.booleans(), is_strict=st.booleans())
def test_random_and_altered_files_read_the_same(tmp_path_factory: pytest.TempPathFactory,
                                                seed: int, changes: list[str], pan: bool,
                                                is_strict: bool) -> None:
    rng = random.Random(seed)
    pyr, pan_text = _random_pyramid(rng)
    xml = pan_text if pan else pyr
    for name in changes:
        xml = CHANGES[name](xml, rng)
    path = tmp_path_factory.mktemp("fast") / ("a.pan" if pan else "a.pyr")
    path.write_bytes(xml.encode("utf-8"))
    with pytest.MonkeyPatch.context() as monkeypatch:
        _same(path, monkeypatch, is_strict)


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_each_alteration_reads_the_same(tmp_path: Path, name: str,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every alteration, at several places of several files, pyramids and peer annotations."""
    rng = random.Random(name)
    altered = 0
    for k in range(12):
        pyr, pan = _random_pyramid(rng)
        for kind, xml in (("pyr", pyr), ("pan", pan)):
            changed = CHANGES[name](xml, rng)
            altered += changed != xml
            path = tmp_path / f"{k}.{kind}"
            path.write_bytes(changed.encode("utf-8"))
            _same(path, monkeypatch, is_strict=k % 3 == 0)
    assert altered >= 6


def test_clean_files_are_read_the_fast_way(tmp_path: Path) -> None:
    rng = random.Random(7)
    for k in range(20):
        pyr, pan = _random_pyramid(rng)
        for name, xml in (("a.pyr", pyr), ("a.pan", pan)):
            path = tmp_path / f"{k}{name}"
            path.write_text(xml, encoding="utf-8")
            # (a file without SCUs has nothing for the fast way to read)
            assert _used(path) == ("<scu " in xml or "<peerscu " in xml), xml


@pytest.mark.parametrize("name", ["comment before an scu", "character reference",
                                  "tab in a label", "lone cr", "entity declaration",
                                  "declared latin-1", "attribute order", "repeated uid",
                                  "shifted part", "text between scus"])
def test_what_the_fast_way_leaves_to_lxml(tmp_path: Path, name: str,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    pyr = ""
    while "<part " not in pyr:
        pyr, _ = _random_pyramid(rng)
    xml = CHANGES[name](pyr, rng)
    assert xml != pyr
    path = tmp_path / "a.pyr"
    path.write_bytes(xml.encode("utf-8"))
    assert not _used(path)
    _same(path, monkeypatch)


def test_lines_past_65535_are_the_lines_of_the_file(tmp_path: Path) -> None:
    """lxml gives lines past 65,535 one too many (libxml2 keeps 16 bits per node); the fast
    way counts the newlines: its lines are checked against the file itself."""
    body = "\n".join(f"w{k}" for k in range(66_000))
    pyramid = build_pyramid([("D0001.M.100.A.A", body), ("D0001.M.100.A.B", "w1 w2")],
                            [("One", [[(0, "w65990")], [(1, "w2")]])])
    xml = pyramid_xml(pyramid)
    path = tmp_path / "big.pyr"
    path.write_text(xml, encoding="utf-8")
    assert _used(path)
    scu = reader.read_pyramid(path).scus[0]
    lines = xml.split("\n")
    assert scu.line > 65_535
    assert lines[scu.line - 1].startswith(' <scu uid="1"')
    first, second = scu.contributors
    assert lines[first.line - 1].startswith("  <contributor")
    assert lines[first.parts[0].line - 1].startswith('   <part label="w65990"')
    assert lines[second.parts[0].line - 1].startswith('   <part label="w2"')


def test_chunks_split_at_scu_ends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of a few characters: every SCU whole in one chunk, the lines as read whole."""
    rng = random.Random(5)
    pyr = pan = ""
    while pyr.count("<scu ") < 3:
        pyr, pan = _random_pyramid(rng)
    for name, xml in (("a.pyr", pyr), ("a.pan", pan)):
        path = tmp_path / name
        path.write_text(xml, encoding="utf-8")
        whole = reader.read_ducview(path)
        monkeypatch.setattr(reader_fast, "CHUNK", 10)
        frame = reader_fast.fast_frame(xml.encode("utf-8"))
        assert all(len(run.chunks) > 1 for run in frame.runs)
        assert all(text.rstrip().endswith(("</scu>", "</peerscu>"))
                   for run in frame.runs for text, _ in run.chunks[:-1])
        assert _used(path)
        assert reader.read_ducview(path) == whole
        monkeypatch.undo()


def test_frame_keeps_every_line_in_place() -> None:
    rng = random.Random(11)
    pyr = pan = ""
    while "<scu " not in pyr:
        pyr, pan = _random_pyramid(rng)
    for xml in (pyr, pan):
        frame = reader_fast.fast_frame(xml.encode("utf-8"))
        assert frame is not None
        assert frame.xml.decode("utf-8").count("\n") == xml.count("\n")
        assert "<scu" not in frame.xml.decode("utf-8")


def test_offsets_past_the_bmp_are_written_and_read_in_utf16(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """The writers give DUCView's UTF-16 offsets, so that a text with characters outside the
    BMP is read back without a repair, both ways."""
    pyramid = build_pyramid([("D0001.M.100.A.A", "\U0001F600 the cat sat \U0001F600 down"),
                             ("D0001.M.100.A.B", "a \U0001F600cat sat")],
                            [("Cat sat", [[(0, "cat sat")], [(1, "cat sat")]]),
                             ("Down", [[(0, "down")]])])
    xml = pyramid_xml(pyramid)
    first = pyramid.scus[0].contributors[0].parts[0]
    astral_before = pyramid.text[:first.start].count("\U0001F600")
    assert astral_before == 1
    assert f'start="{first.start + astral_before}"' in xml
    path = tmp_path / "a.pyr"
    path.write_text(xml, encoding="utf-8")
    read = _same(path, monkeypatch)
    assert not read.repairs
    assert [[(p.start, p.end) for c in s.contributors for p in c.parts] for s in read.scus] == \
        [[(p.start, p.end) for c in s.contributors for p in c.parts] for s in pyramid.scus]
    pan = tmp_path / "a.pan"
    pan.write_text(pan_xml(pyramid, "\U0001F600 a cat sat", {1: [["cat sat"]]}),
                   encoding="utf-8")
    peer = _same(pan, monkeypatch)
    assert not peer.repairs
    assert peer.peer_scus[0].contributors[0].parts[0].start == 4
