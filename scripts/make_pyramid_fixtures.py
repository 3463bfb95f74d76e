"""Write the pyramid fixtures of corpora_fixtures/: the figures of Passonneau (2006) and one small
file per quirk of the DUC data (and per kind of bad input).

Run ``python scripts/make_pyramid_fixtures.py`` to (re)write them; tests/test_pyramid_fixtures.py
checks that the committed files are what this script writes. Every text here is written for this
project (the figures' words are the contributors printed in the paper).
"""

from __future__ import annotations

import sys
from pathlib import Path

from clusteragree.pyramids import build_pyramid, pan_xml, pyramid_xml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _cli import output_path

ROOT = Path(__file__).resolve().parent.parent / "corpora_fixtures"


def _ids(n: int, docset: str = "D0000", length: int = 100) -> list[str]:
    return [f"{docset}.M.{length}.A.{chr(ord('A') + i)}" for i in range(n)]


# ------------------------------------------------------------------ Passonneau (2006) figures
def figures() -> dict[str, str]:
    out = {}
    # Figure 1: five of the seven model summaries hold the spans 1-7 (words as printed).
    s1 = "Saudi Arabian officials, under American pressure, asked Afghan leaders"
    bodies = [s1, "U.S. and Saudi officials then attempted",
              "sought help from Saudi officials, who tried to convince Taliban leaders",
              "Through the Saudis, the United States asked", "U.S. and Saudi Arabian requests"]
    summaries = list(zip(_ids(5, "D31038"), bodies, strict=True))
    span = {1: (0, "Saudi Arabian officials, under American pressure"),
            5: (0, "asked Afghan leaders"), 6: (1, "U.S. and Saudi officials then attempted"),
            2: (2, "sought help from Saudi officials"),
            7: (2, "who tried to convince Taliban leaders"),
            3: (3, "Through the Saudis, the United States asked"),
            4: (4, "U.S. and Saudi Arabian requests")}
    a1 = [("Americans asked Saudi officials for help",
           [[span[1]], [span[2]], [span[3]], [span[4]]]),
          ("Saudi officials asked Afghan leaders to release Bin Laden", [[span[5]], [span[7]]]),
          ("U.S. and Saudi officials attempted", [[span[6]]])]
    a2_one = [[(0, "Saudi Arabian officials, under American pressure,"), span[5]], [span[6]],
              [span[2], span[7]], [span[3]], [span[4]]]
    a2 = [("Through the Saudis, the U.S. tried to get cooperation from the Taliban", a2_one)]
    out["passonneau2006/fig1-A1.pyr"] = pyramid_xml(build_pyramid(summaries, a1))
    out["passonneau2006/fig1-A2.pyr"] = pyramid_xml(build_pyramid(summaries, a2, first_uid=201))
    # Figure 4: the same SCUs with A2's first span cut as A1's, so the spans are exactly 1-7.
    a2_aligned = [("Through the Saudis, the U.S. tried to get cooperation from the Taliban",
                   [[span[1], span[5]], [span[6]], [span[2], span[7]], [span[3]], [span[4]]])]
    out["passonneau2006/fig4-A1.pyr"] = out["passonneau2006/fig1-A1.pyr"]
    out["passonneau2006/fig4-A2.pyr"] = pyramid_xml(build_pyramid(summaries, a2_aligned,
                                                                  first_uid=201))
    # Figures 2 and 3: units x, y, z, one word per summary. Figure 3's sets are classes:
    # A3 {x, y} {z}, A4 {x} {y, z}. Figure 2's A4 is one class {x, y, z}; its A3 gives z the set
    # {x}, which no partition gives, so the nearest partition {x, y} {z} is written.
    xyz = list(zip(_ids(3, "D00002"), ["x", "y", "z"], strict=True))
    one = {u: [(i, u)] for i, u in enumerate("xyz")}
    out["passonneau2006/fig2-A3.pyr"] = pyramid_xml(build_pyramid(
        xyz, [("x and y", [one["x"], one["y"]]), ("z", [one["z"]])]))
    out["passonneau2006/fig2-A4.pyr"] = pyramid_xml(build_pyramid(
        xyz, [("x, y and z", [one["x"], one["y"], one["z"]])]))
    out["passonneau2006/fig3-A3.pyr"] = out["passonneau2006/fig2-A3.pyr"]
    out["passonneau2006/fig3-A4.pyr"] = pyramid_xml(build_pyramid(
        xyz, [("x", [one["x"]]), ("y and z", [one["y"], one["z"]])]))
    # Figure 5: three summaries; A1 SCU-101 {1, 2}, SCU-102 {3}; A2 SCU-201 {1, 3}, SCU-202 {2}.
    b5 = ["61% voted yes", "Unions agreed to some employee cuts with separation benefits",
          "which it accepted two weeks later"]
    s5 = list(zip(_ids(3, "D00005"), b5, strict=True))
    w = {i + 1: [(i, b)] for i, b in enumerate(b5)}
    out["passonneau2006/fig5-A1.pyr"] = pyramid_xml(build_pyramid(s5, [
        ("Worker's agree to Estrada's terms", [w[1], w[2]]),
        ("Ground crew accepts 2 weeks after initial rejection", [w[3]])], first_uid=101))
    out["passonneau2006/fig5-A2.pyr"] = pyramid_xml(build_pyramid(s5, [
        ("The settlement was finally accepted", [w[1], w[3]]),
        ("Unions agree to some employee cuts", [w[2]])], first_uid=201))
    return out


# ------------------------------------------------------------------ quirks of the DUC data
BASE_SUMMARIES = [
    ("D0901.M.100.A.A", "Protests continued against the Jabiluka uranium mine.\n"
                        "A month later, the U.N.\nBureau called for closing the mine."),
    ("D0901.M.100.A.B", "Protesters blockaded the mine site.\n"
                        "The U.N. report recommended that the mine be stopped."),
]
BASE_SCUS = [
    ("Protests against the mine", [[(0, "Protests continued against the Jabiluka uranium mine")],
                                   [(1, "Protesters blockaded the mine site")]]),
    ("UN called for closing the mine", [[(0, "the U.N.\nBureau called for closing the mine")],
                                        [(1, "The U.N. report recommended that the mine be "
                                          "stopped")]]),
    ("A month later", [[(0, "A month later")]]),
]


def base() -> str:
    return pyramid_xml(build_pyramid(BASE_SUMMARIES, BASE_SCUS))


def quirks() -> dict[str, str | bytes]:
    b = base()
    p = build_pyramid(BASE_SUMMARIES, BASE_SCUS)
    out: dict[str, str | bytes] = {}
    out["pyramid-quirks/line-break-part.pyr"] = b
    out["pyramid-quirks/no-regex.pyr"] = pyramid_xml(p, regex=None)
    out["pyramid-quirks/unescaped-dot-regex.pyr"] = pyramid_xml(
        p, regex=r"-*D[0-9]+.[A-Z].100.[A-Z].[A-Z]")
    out["pyramid-quirks/docset-regex.pyr"] = pyramid_xml(
        p, regex=r"[-]*\nD0901\.M\.100\.A\.[A-Z]\n[-]*")
    spaced = [(" " + i, t) for i, t in BASE_SUMMARIES]
    out["pyramid-quirks/regex-space-variant.pyr"] = pyramid_xml(
        build_pyramid(spaced, BASE_SCUS), regex=r"[-]*\n\s*D[0-9]*\.M\.100\.[A-Z]\.[A-Z]\n[-]*\n")
    out["pyramid-quirks/crlf.pyr"] = b.replace("\n", "\r\n").encode("utf-8")
    fffd = [(BASE_SUMMARIES[0][0], "Chr\ufffdtien resigned.\n" + BASE_SUMMARIES[0][1]),
            BASE_SUMMARIES[1]]
    out["pyramid-quirks/replacement-char.pyr"] = pyramid_xml(build_pyramid(
        fffd, [*BASE_SCUS, ("Chretien resigned", [[(0, "Chr\ufffdtien resigned")]])]))
    out["pyramid-quirks/parts-out-of-order.pyr"] = pyramid_xml(build_pyramid(
        BASE_SUMMARIES, [("Mine protests and closing", [[(0, "closing the mine"),
                                                         (0, "Protests continued")]])]))
    out["pyramid-quirks/contributor-two-summaries.pyr"] = pyramid_xml(build_pyramid(
        BASE_SUMMARIES, [*BASE_SCUS, ("Mine", [[(0, "uranium mine"), (1, "mine site")]])]))
    out["pyramid-quirks/two-contributors-one-summary.pyr"] = pyramid_xml(build_pyramid(
        BASE_SUMMARIES, [("The mine", [[(0, "Jabiluka uranium mine")],
                                       [(0, "closing the mine")]])]))
    # A part written with start after end (DUC 2007 update D0726-A: start 368, end 367).
    stopped = b.index('label="stopped"') if 'label="stopped"' in b else -1
    assert stopped == -1
    rev = build_pyramid(BASE_SUMMARIES, [*BASE_SCUS, ("Stopped", [[(1, "stopped")]])])
    xml = pyramid_xml(rev)
    part = rev.scus[-1].contributors[0].parts[0]
    out["pyramid-quirks/start-after-end.pyr"] = xml.replace(
        f'start="{part.start}" end="{part.end}"', f'start="{part.end}" end="{part.end - 1}"')
    # Offsets shifted by +1 for the parts of one summary (DUC 2007 main D0740-DHIJ).
    shifted = b
    for scu in p.scus:
        for c in scu.contributors:
            for q in c.parts:
                if q.start >= p.summaries[1].body[0]:
                    shifted = shifted.replace(f'start="{q.start}" end="{q.end}"',
                                              f'start="{q.start + 1}" end="{q.end + 1}"')
    out["pyramid-quirks/shifted-offsets.pyr"] = shifted
    out["pyramid-quirks/label-whitespace.pyr"] = b.replace(
        'label="A month later">', 'label="  A month later ">', 1)
    out["pyramid-quirks/uids-unsorted.pyr"] = (
        b.replace('uid="1"', 'uid="17"').replace('uid="2"', 'uid="4"')
        .replace('uid="3"', 'uid="9"'))
    out["pyramid-quirks/appended-documents.pyr"] = pyramid_xml(
        build_pyramid(BASE_SUMMARIES, BASE_SCUS[:1])) + b
    latin = [(BASE_SUMMARIES[0][0], "Chr\u00e9tien resigned.\n" + BASE_SUMMARIES[0][1]),
             BASE_SUMMARIES[1]]
    out["pyramid-quirks/cp1252.pyr"] = pyramid_xml(build_pyramid(
        latin, [*BASE_SCUS, ("Chretien resigned", [[(0, "Chr\u00e9tien resigned")]])])
    ).encode("cp1252")
    # Offsets count UTF-16 units: an emoji before the parts shifts them by two, not one.
    astral = build_pyramid([(BASE_SUMMARIES[0][0], "\U0001F642 " + BASE_SUMMARIES[0][1]),
                            BASE_SUMMARIES[1]], BASE_SCUS)
    xml = pyramid_xml(astral)
    cut = astral.text.index("\U0001F642")
    for scu in astral.scus:
        for c in scu.contributors:
            for q in c.parts:
                if q.start > cut:
                    xml = xml.replace(f'start="{q.start}" end="{q.end}"',
                                      f'start="{q.start + 1}" end="{q.end + 1}"')
    out["pyramid-quirks/astral-utf16.pyr"] = xml
    peer = "The protests against the mine continued.\nIt rained all week."
    out["pyramid-quirks/peer.pan"] = pan_xml(
        p, peer, {1: [["The protests against the mine continued"]], 0: [["It rained all week"]]})
    auto = pan_xml(p, peer, {1: [["protests against the mine"]]}, regex=None)
    out["pyramid-quirks/autopan.pan"] = auto.replace(
        " <!ELEMENT pyramid (startDocumentRegEx?,text,scu*)>",
        " <!ELEMENT pyramid (text,scu*)>\n <!ATTLIST pyramid numModels CDATA \"0\">").replace(
        "<pyramid>", '<pyramid numModels="2">')
    score = ("<score><totalscu>1</totalscu><uniquescu>1</uniquescu><scusNotInPyr>1"
             "</scusNotInPyr><totalWeight>2</totalWeight><maxScoreTotalscu>2</maxScoreTotalscu>"
             "<qualityScore>1.0</qualityScore></score>\n</peerAnnotation>")
    out["pyramid-quirks/ducview15-score.pan"] = out["pyramid-quirks/peer.pan"].replace(
        "</peerAnnotation>", score)
    return out


def bad() -> dict[str, str | bytes]:
    b = base()
    p = build_pyramid(BASE_SUMMARIES, BASE_SCUS)
    first = p.scus[0].contributors[0].parts[0]
    span = f'start="{first.start}" end="{first.end}"'
    n = len(p.text)
    long_body = BASE_SUMMARIES[0][1] + "\n" + " ".join(["filler words here"] * 40)
    far = build_pyramid([(BASE_SUMMARIES[0][0], long_body), BASE_SUMMARIES[1]], BASE_SCUS)
    far_part = far.scus[2].contributors[0].parts[0]
    return {
        "pyramid-bad/empty.pyr": "",
        "pyramid-bad/not-xml.pyr": "Protests continued against the mine.\n",
        "pyramid-bad/broken-xml.pyr": b.replace("</scu>", "</sku>", 1),
        "pyramid-bad/wrong-root.pyr": '<?xml version="1.0"?>\n<summary>\n <text/>\n</summary>\n',
        "pyramid-bad/no-text.pyr": '<?xml version="1.0"?>\n<pyramid>\n <scu uid="1" label="a">'
                                   '\n </scu>\n</pyramid>\n',
        "pyramid-bad/offsets-out-of-range.pyr": b.replace(
            span, f'start="{n + 5}" end="{n + 40}"').replace(
            f'label="{first.label}" start', 'label="Nowhere in this text" start', 1),
        "pyramid-bad/start-after-end.pyr": b.replace(
            span, f'start="{first.end}" end="{first.start}"').replace(
            f'label="{first.label}" start', 'label="Nowhere in this text" start', 1),
        "pyramid-bad/label-far-away.pyr": pyramid_xml(far).replace(
            f'start="{far_part.start}" end="{far_part.end}"',
            f'start="{far_part.start + 400}" end="{far_part.end + 400}"'),
        "pyramid-bad/not-a-number.pyr": b.replace(
            span, f'start="x{first.start}" end="{first.end}"'),
        "pyramid-bad/other-text.pyr": b.replace("<line>A month later, the U.N.",
                                                "<line>A month later; the U.N."),
        "pyramid-bad/pyreval.pyr": '<Pyramid><scu uid="0"><contributor label="Lopez was chief" />'
                                   "</scu></Pyramid>\n",
        "pyramid-bad/pyreval-readable.pyr": "SCU\t0\t4\tLopez was procurement chief\n",
    }


def all_fixtures() -> dict[str, str | bytes]:
    return {**figures(), **quirks(), **bad()}


def main() -> None:
    root = output_path(__doc__, ROOT, "the fixtures (a directory)")
    if root is None:  # check the committed fixtures against what this script writes
        stale = [rel for rel, content in all_fixtures().items()
                 if not (ROOT / rel).is_file() or (ROOT / rel).read_bytes() != (
                     content if isinstance(content, bytes) else content.encode("utf-8"))]
        print(f"{len(all_fixtures())} fixtures; {len(stale)} differ from what this script "
              f"writes{': ' + ', '.join(stale) if stale else ''} (--docs rewrites them)")
        return
    for rel, content in all_fixtures().items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    print(f"wrote {len(all_fixtures())} files under {root}")


if __name__ == "__main__":
    main()
