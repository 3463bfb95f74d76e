"""BRAT standoff coreference: ``.ann`` files over a ``.txt`` text.

As in the doubly annotated corpus of ../shared/corpora/coref-multi-annotator/participant-analysis:
``T<n>\\tMention <start> <end>[;<start> <end>...]\\t<surface>`` marks a mention by 0-based,
end-exclusive character offsets (discontinuous fragments separated by ``;``), and
``*\\tCoreference T<a> T<b> ...`` puts mentions in one chain (one line per chain; ids may be
defined later in the file). ``#`` lines are notes. A mention in no chain is a singleton.

The document's tokens are its characters (mentions are often parts of words, such as
morphemes), and its words are the runs of non-space characters; word units take the chain of the
mention that covers a word (see clusteragree.coref_agreement).

Every problem is an :class:`InputError` with the file and line: offsets outside the text, a
surface that is not the text at its offsets, a chain naming an unknown mention, a mention in two
chains, a line that is not T, *, # or R/E/A/N.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..coref_model import CorefCorpus, CorefDocument, Mention
from ..errors import InputError

__all__ = ["read_brat", "read_brat_dir"]

_T = re.compile(r"^(T\d+)\t(\S+) (\d+ \d+(?:;\d+ \d+)*)\t(.*)$")


def _read(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as err:
        raise InputError(f"cannot open the {what}: {err.strerror}", path=str(path)) from None
    except UnicodeDecodeError:
        raise InputError(f"the {what} is not UTF-8", path=str(path)) from None


def read_brat(
    ann: str | os.PathLike[str], text: str | os.PathLike[str] | None = None, *,
    types: tuple[str, ...] = ("Mention",),
) -> CorefDocument:
    """Read one BRAT ``.ann`` file and its text (default: the ``.txt`` beside it)."""
    ann_path = Path(ann)
    txt_path = Path(text) if text is not None else ann_path.with_suffix(".txt")
    content = _read(txt_path, "text")
    name = str(ann_path)
    mentions: dict[str, tuple[tuple[tuple[int, int], ...], int]] = {}
    chains: list[tuple[list[str], int]] = []
    for number, line in enumerate(_read(ann_path, "annotation").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("T"):
            m = _T.match(line)
            if not m:
                raise InputError(f"cannot read the text-bound annotation {line!r}", name, number)
            tid, kind, offsets, surface = m.groups()
            if kind not in types:
                continue
            spans = tuple(sorted((int(a), int(b)) for a, b in
                                 (pair.split() for pair in offsets.split(";"))))
            for s, e in spans:
                if not 0 <= s < e <= len(content):
                    raise InputError(f"{tid} offsets {s}-{e} are outside the text "
                                     f"({len(content)} characters, {txt_path})", name, number)
            found = " ".join(content[s:e] for s, e in spans)
            if found != surface and found.replace("\n", " ") != surface:
                raise InputError(f"{tid} says {surface!r} but the text at {offsets} is "
                                 f"{found!r}; is {txt_path} the annotated text?", name, number)
            mentions[tid] = (spans, number)
        elif line.startswith("*"):
            fields = line.split("\t")
            ids = fields[1].split()[1:] if len(fields) > 1 else []
            chains.append((ids, number))
        elif line[0] in "REAN":
            continue  # relations, events, attributes, normalisations: not coreference chains
        else:
            raise InputError(f"a line BRAT does not define: {line[:40]!r}", name, number)
    entity: dict[str, str] = {}
    for k, (ids, number) in enumerate(chains):
        for tid in ids:
            if tid not in mentions:
                raise InputError(f"the chain names {tid}, which is not a mention of the file",
                                 name, number)
            if tid in entity:
                raise InputError(f"{tid} is in two chains (lines of chains "
                                 f"{entity[tid]} and {k + 1})", name, number)
            entity[tid] = str(k + 1)
    out = []
    for tid, (spans, number) in mentions.items():
        out.append(Mention(spans, entity.get(tid, f"single-{tid}"), number))
    out.sort(key=lambda m: (m.start, -m.end))
    words = tuple((m.start(), m.end()) for m in re.finditer(r"\S+", content))
    return CorefDocument(ann_path.stem, tuple(content), tuple(out), name, 1, (), words)


def read_brat_dir(
    directory: str | os.PathLike[str], text_dir: str | os.PathLike[str] | None = None
) -> CorefCorpus:
    """Every ``.ann`` file of a directory; texts beside them or in ``text_dir`` (same stem)."""
    folder = Path(directory)
    files = sorted(folder.glob("*.ann"))
    if not files:
        raise InputError("no .ann files in the directory", path=str(folder))
    docs = {}
    for ann in files:
        txt = Path(text_dir) / (ann.stem + ".txt") if text_dir is not None else None
        doc = read_brat(ann, txt)
        docs[doc.name] = doc
    return CorefCorpus(docs, str(folder), {}, "brat")
