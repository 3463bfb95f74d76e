"""Agreement between pyramids of the same model summaries, and between peer annotators.

* :func:`pyramid_agreement`: two or more pyramids built independently over the same model
  summaries (Passonneau 2006): units are words, spans or contributors; a unit's value is the set
  of other units in its SCU(s); alpha with each distance.
* :func:`pan_agreement`: several annotators' ``.pan`` files of the same peers against the same
  pyramid: units are peer tokens, a token's value is the set of SCU uids whose peer contributors
  cover it, pooled over all peers; plus each annotator's pyramid scores and the correlations
  between annotators' scores (the "paradigmatic reliability study").
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..core.coefficient import Engine
from ..core.convert import memberships_table
from ..core.diagnostics import diagnostics
from ..core.distances import DEFAULT_DISTANCES, DistanceLike
from ..core.frames import alpha_report, pairwise_report
from ..core.model import CodingTable, unique_labels
from ..core.text import first_difference
from ..errors import InputError, ParameterError, ParameterTypeError, option
from .model import PeerAnnotation, Pyramid, peer_of_name
from .naming import PanNames, PyramidNames
from .reader import read_pan, read_pyramid
from .units import Units, contributor_units, span_units, tokens, word_units

__all__ = [
    "PanSet",
    "load_pans",
    "pan_agreement",
    "pan_scores",
    "pyramid_agreement",
    "pyramid_score",
    "pyramid_table",
]

PyramidSource = str | os.PathLike[str] | Pyramid


def _paths(sources: object, what: str) -> list:
    """A list of sources, refusing a single path (a string is not a list of files)."""
    if isinstance(sources, (str, bytes, os.PathLike)) or not isinstance(sources, Sequence):
        raise ParameterTypeError(
            f"{what} must be a list of files. Got {type(sources).__name__}"
            + (" (one path: put it in a list with the others)"
               if isinstance(sources, (str, os.PathLike)) else "") + ".")
    return list(sources)


def _pyramids(sources: Sequence[PyramidSource], strict: bool,
              encoding: str | None = None) -> list[Pyramid]:
    sources = _paths(sources, "paths")
    if len(sources) < 2:
        raise ParameterError("give at least two pyramids of the same model summaries")
    read: dict[str, Pyramid] = {}  # a file given twice is read (and reported on) once
    out = []
    for s in sources:
        if isinstance(s, Pyramid):
            out.append(s)
            continue
        if not isinstance(s, (str, os.PathLike)):
            raise ParameterTypeError(f"a pyramid must be a path or a Pyramid. Got {s!r}.")
        key = os.path.realpath(s)
        if key not in read:
            read[key] = read_pyramid(s, strict=strict, encoding=encoding)
        out.append(read[key])
    return out


def pyramid_table(
    pyramids: Sequence[Pyramid],
    *,
    units: str = "words",
    tokenizer: str = "ws",
    overlap: str = "union",
    unmarked: str = "empty",
    coders: Sequence[str] | None = None,
) -> tuple[CodingTable, Units]:
    """The coding table of several pyramids of the same summaries, and its units.

    A unit's value for a pyramid is the set of the other units in its SCU(s): its class minus
    the unit itself.

    Parameters
    ----------
    pyramids : sequence of Pyramid
        Pyramids built independently over the same model summaries (texts must be equal).
    units : {"words", "spans", "contributors"}, default="words"
        The coding units (:func:`~clusteragree.pyramids.units.word_units`,
        :func:`~clusteragree.pyramids.units.span_units`,
        :func:`~clusteragree.pyramids.units.contributor_units`).
    tokenizer : {"ws", "ducview", "alnum"}, default="ws"
        For word units.
    overlap : {"union", "component"}, default="union"
        A unit in several SCUs of one pyramid: union of their units, or their connected
        component.
    unmarked : {"empty", "missing"}, default="empty"
        A unit in no SCU of a pyramid: the empty set, or missing.
    coders : sequence of str, optional
        The coders' names (default: from the pyramids' paths).

    Returns
    -------
    table : CodingTable
        Coders (pyramids) by units; the units are numbered 0, 1, ... as in ``units``, and
        ``meta`` names the units, tokeniser and policies.
    units : Units
        The units and each pyramid's memberships.

    Raises
    ------
    ParameterError
        An unknown ``units``, ``overlap`` or ``unmarked``.
    InputError
        The texts differ.

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006, Genoa, Italy. Section 3.3
    (the coding value of a unit is its equivalence class with the unit removed), Figure 4.

    docs/pyramids.md, "Units and values".

    Examples
    --------
    Summaries "the cat sat" and "a cat sat down" give the words 0-6: the, cat, sat, a, cat,
    sat, down. Both pyramids put the two "cat sat" (words 1, 2, 4, 5) in one SCU; X makes
    "down" (word 6) an SCU of its own, Y adds it to the "cat sat" SCU:

    >>> from clusteragree.pyramids.writers import build_pyramid
    >>> S = [("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat sat down")]
    >>> x = build_pyramid(S, [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]]),
    ...                       ("Down", [[(1, "down")]])], path="X")
    >>> y = build_pyramid(S, [("A cat sat", [[(0, "cat sat")], [(1, "cat sat down")]])],
    ...                   path="Y")
    >>> table, units = pyramid_table([x, y])
    >>> sorted(table.value("X", 1)), sorted(table.value("Y", 1))
    ([2, 4, 5], [2, 4, 5, 6])
    >>> table.value("X", 6), sorted(table.value("Y", 6))
    (frozenset(), [1, 2, 4, 5])

    "the" (word 0) is in no SCU: the empty set by default, missing with
    ``unmarked="missing"``:

    >>> table.value("X", 0), pyramid_table([x, y], unmarked="missing")[0].value("X", 0)
    (frozenset(), None)
    """
    if units == "words":
        found = word_units(pyramids, tokenizer)
    elif units == "spans":
        found = span_units(pyramids)
    elif units == "contributors":
        found = contributor_units(pyramids)
    else:
        raise ParameterError(
            f"units must be 'words', 'spans' or 'contributors'. Got {units!r}.")
    names = list(coders) if coders else unique_labels([p.path for p in pyramids])
    meta = {"units": units}
    if units == "words":
        meta["tok"] = tokenizer
    table = memberships_table(found.members, len(found), names, overlap=overlap,
                              unmarked=unmarked, meta=meta)
    return table, found


def pyramid_agreement(
    paths: Sequence[PyramidSource],
    units: str = "words",
    distances: Sequence[DistanceLike] = DEFAULT_DISTANCES,
    *,
    tokenizer: str = "ws",
    overlap: str = "union",
    unmarked: str = "empty",
    strict: bool = False,
    engine: Engine = "auto",
    encoding: str | None = None,
    coders: Sequence[str] | None = None,
    pairwise: bool = False,
    ci: float | None = None,
    bootstrap: int = 1000,
    seed: int | None = None,
    resample: str = "auto",
    jobs: int | None = 1,
    interval: str | None = None,
    diagnose: bool = False,
    worst: int = 10,
) -> pd.DataFrame:
    """Alpha between two or more pyramids of the same model summaries.

    Parameters
    ----------
    paths : sequence of paths (or Pyramid objects)
        Pyramids built independently over the same model summaries (texts must be equal).
    units : {"words", "spans", "contributors"}, default="words"
    distances : sequence, default=("nominal", "jaccard", "masi")
    tokenizer : {"ws", "ducview", "alnum"}, default="ws"
        For word units.
    overlap : {"union", "component"}, default="union"
        A unit in several SCUs of one pyramid: union of their units, or their connected component.
    unmarked : {"empty", "missing"}, default="empty"
        A unit in no SCU of a pyramid: the empty set, or missing.
    strict : bool, default=False
        Refuse files that need repairs.
    encoding : str, optional
        The files' encoding (see :func:`~clusteragree.pyramids.reader.read_pyramid`).
    coders : sequence of str, optional
        The annotators' names (default: from the file names).
    pairwise : bool, default=False
        Also alpha for every pair of pyramids (column ``pair``; all together is ``"all"``);
        span units are those of the pair compared.
    ci, bootstrap, seed, resample, jobs, interval
        A bootstrap interval of alpha: as :func:`clusteragree.core.frames.alpha_report`
        (units are resampled: one pyramid is one document).
    diagnose : bool, default=False
        Also the diagnostics of :func:`clusteragree.core.diagnostics.diagnostics` (``worst``
        units), in ``frame.attrs["diagnostics"]``.
    worst : int, default=10
        How many units the diagnostics list.

    Returns
    -------
    DataFrame
        One row per distance (``document`` = ``TOTAL``), as
        :func:`clusteragree.core.frames.alpha_report`, with the signature naming units,
        tokeniser and policies. ``attrs`` holds the repairs and notes of each file.

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006, Genoa, Italy. Sections 3
    and 4, Figure 4, Tables 1 and 2 (alpha over pyramid pairs with nominal, Jaccard and MASI
    distances, spans or words as units).

    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43.

    docs/pyramids.md, "Units and values"; docs/reproduction/passonneau2006.md.

    Examples
    --------
    Figure 5 of Passonneau (2006): spans 1, 2 and 3 of three summaries. A1 groups spans 1 and
    2 (SCU 1) and leaves 3 alone (SCU 2); A2 groups 1 and 3 (SCU 201) and leaves 2 alone:

    >>> from clusteragree.pyramids.writers import build_pyramid
    >>> S = [("D1", "61% voted yes"),
    ...      ("D2", "Unions agreed to some employee cuts with separation benefits"),
    ...      ("D3", "which it accepted two weeks later")]
    >>> s1, s2, s3 = [(k, body) for k, (_, body) in enumerate(S)]
    >>> a1 = build_pyramid(S, [("Workers agree to Estrada's terms", [[s1], [s2]]),
    ...                        ("Ground crew accepts 2 weeks after rejection", [[s3]])],
    ...                    path="A1")
    >>> a2 = build_pyramid(S, [("The settlement was finally accepted", [[s1], [s3]]),
    ...                        ("Unions agree to some employee cuts", [[s2]])],
    ...                    path="A2", first_uid=201)

    With the spans as units, the values (class minus the span) are A1: {2}, {1}, {} and A2:
    {3}, {}, {1}. Every span gets two different values, so D_o = 1. Of the 6 * 5 = 30 ordered
    pairs of the six values, 4 are equal ({1} twice, {} twice), and every unequal pair is
    disjoint or has an empty side (distance 1 under all three distances), so D_e = 26/30 and
    alpha = 1 - 30/26 = -2/13 = -0.1538:

    >>> frame = pyramid_agreement([a1, a2], units="spans")
    >>> frame[["distance", "alpha", "D_o", "D_e"]].round(4)
      distance   alpha  D_o     D_e
    0  nominal -0.1538  1.0  0.8667
    1  jaccard -0.1538  1.0  0.8667
    2     masi -0.1538  1.0  0.8667
    """
    pyramids = _pyramids(paths, strict, encoding)
    names = list(coders) if coders else unique_labels([p.path for p in pyramids])

    def table_of(chosen: tuple[int, ...]) -> CodingTable:
        return pyramid_table([pyramids[i] for i in chosen], units=units, tokenizer=tokenizer,
                             overlap=overlap, unmarked=unmarked,
                             coders=[names[i] for i in chosen])[0]

    options: dict[str, Any] = {"ci": ci, "bootstrap": bootstrap, "seed": seed,
                               "resample": resample, "jobs": jobs, "interval": interval}
    everyone = tuple(range(len(names)))
    frame = (pairwise_report(table_of, names, distances, engine=engine, **options) if pairwise
             else alpha_report(table_of(everyone), distances, engine=engine, **options))
    if diagnose:  # units by their summary, position and words; values by their SCUs
        plain, found = pyramid_table(pyramids, units=units, tokenizer=tokenizer,
                                     overlap=overlap, unmarked=unmarked, coders=names)
        naming = PyramidNames(pyramids, found, names)
        # a value is the set of the other units of its SCUs: no category of a scheme
        frame.attrs["diagnostics"] = diagnostics(plain, distances, worst=worst,
                                                 categorical=False,
                                                 describe_unit=naming.unit,
                                                 describe_value=naming.value)
    frame.attrs["repairs"] = {p.path: p.repairs for p in pyramids if p.repairs}
    frame.attrs["notes"] = {p.path: p.notes for p in pyramids if p.notes}
    return frame


# ---------------------------------------------------------------------------- peer annotations
_PAN_NAME = re.compile(r"^(?P<annotator>[^.]+)\.(?P<peer>.+)\.pan$")


def pyramid_score(
    pyramid: Pyramid, found: Sequence[int], kind: str = "original", *, average: str = "round"
) -> float:
    """Pyramid score of a peer that expresses the SCUs ``found`` (uids).

    ``original`` (Nenkova & Passonneau 2004): the sum of the weights of the SCUs found, over the
    largest sum any summary with as many SCUs could reach. ``modified`` (DUC 2006): over the
    largest sum for the average number of SCUs of a model summary, total contributors over the
    number of models, rounded half up (``average="round"``, which reproduces NIST's DUC 2006
    table) or rounded down (``"floor"``). Weights are numbers of contributors, as in DUCView.

    Parameters
    ----------
    pyramid : Pyramid
        The pyramid; an SCU's weight is its number of contributors.
    found : sequence of int
        The uids of the SCUs expressed by the peer; repeats and uids not in the pyramid (such
        as 0, the non-matching bucket) are ignored.
    kind : {"original", "modified"}, default="original"
        The score.
    average : {"round", "floor"}, default="round"
        For ``modified``: how the average number of SCUs per model summary is made whole.

    Returns
    -------
    float
        The score; NaN when the largest reachable sum is 0 (for ``original``, a peer with no
        SCU). ``modified`` can exceed 1 when the peer expresses more SCUs than the average.

    Raises
    ------
    ParameterError
        An unknown ``kind`` or ``average``.

    References
    ----------
    Nenkova, A. and Passonneau, R. (2004). Evaluating content selection in summarization: The
    pyramid method. Proceedings of HLT-NAACL 2004, Boston, MA. (The original score.)

    Passonneau, R., Nenkova, A., McKeown, K. and Sigelman, S. (2005). Applying the pyramid
    method in DUC 2005. Document Understanding Conference Workshop. (The method as applied in
    DUC.)

    DUCView 1.5 (Penn State, github.com/psunlpgroup/DucView-1.5), ``DucView.java`` (the
    average number of SCUs per model); NIST DUC 2006 pyramid scores
    (``2006_modified_scores.txt``), reproduced with the average rounded half up: see
    docs/pyramids.md, "Peer annotations".

    Examples
    --------
    Four SCUs of weights 2, 2, 1 and 1 over two model summaries (6 contributors):

    >>> from clusteragree.pyramids.model import SCU, Contributor, Part, Pyramid, Summary
    >>> def scu(uid, n):
    ...     return SCU(uid, "", tuple(Contributor("", (Part(0, 0, ""),)) for _ in range(n)))
    >>> def models(n):
    ...     return tuple(Summary(str(k), (0, 0), (0, 0)) for k in range(n))
    >>> p = Pyramid("", models(2), (scu(1, 2), scu(2, 2), scu(3, 1), scu(4, 1)))

    A peer with SCU 3 only: weight 1 against 2, the heaviest single SCU, so 1/2. A peer with
    SCUs 1 and 3: weight 2 + 1 = 3; the original score compares it with the two heaviest SCUs
    (2 + 2 = 4), 3/4; the modified score with the average number of SCUs per model,
    6 / 2 = 3, so with 2 + 2 + 1 = 5, 3/5:

    >>> pyramid_score(p, [3]), pyramid_score(p, [1, 3]), pyramid_score(p, [1, 3], "modified")
    (0.5, 0.75, 0.6)

    With four models the average is 6 / 4 = 1.5: rounded half up to 2 (the best sum is 4)
    or down to 1 (the best sum is 2), so SCU 3 alone scores 1/4 or 1/2:

    >>> p4 = Pyramid("", models(4), p.scus)
    >>> pyramid_score(p4, [3], "modified"), pyramid_score(p4, [3], "modified", average="floor")
    (0.25, 0.5)
    """
    weights = pyramid.weights("contributors")
    found = sorted({u for u in found if u in weights})
    score = float(sum(weights[u] for u in found))
    if kind == "original":
        size = len(found)
    elif kind == "modified":
        mean = pyramid.n_contributors / max(len(pyramid.summaries), 1)
        if average == "round":
            size = int(np.floor(mean + 0.5))
        elif average == "floor":
            size = int(np.floor(mean))
        else:
            raise ParameterError(f"average must be 'round' or 'floor'. Got {average!r}.")
    else:
        raise ParameterError(f"kind must be 'original' or 'modified'. Got {kind!r}.")
    best = float(sum(sorted(weights.values(), reverse=True)[:size]))
    return score / best if best else float("nan")


def _group_pans(paths: Sequence[str | os.PathLike[str]],
                annotators: Sequence[str] | None = None) -> dict[str, dict[str, str]]:
    """peer -> annotator -> path, from DUC names ANNOTATOR.DOCSET.M.LEN.SEL.PEER.pan, or with
    ``annotators`` (one per path) from them and the rest of the name."""
    groups: dict[str, dict[str, str]] = {}
    listed = list(_paths(paths, "paths"))
    if annotators is not None and len(annotators) != len(listed):
        raise ParameterError(f"{option('annotators')} gives {len(annotators)} names for "
                             f"{len(listed)} files; give one per file (names may repeat)",
                             params=("annotators",))
    for i, p in enumerate(listed):
        if not isinstance(p, (str, os.PathLike)):
            raise ParameterTypeError(f"a .pan path must be a str or PathLike. Got {p!r}.")
        annotator, peer = peer_of_name(Path(p).name, annotators is not None)
        if annotators is not None:
            annotator = str(annotators[i])
        if annotator is None:
            five = len(Path(p).name.split(".")) == 6  # DOCSET.M.LEN.SEL.PEER.pan
            raise InputError(
                ("the file name is DOCSET.M.LEN.SEL.PEER.pan (DUC 2007), with no annotator field"
                 if five else "the file name is not ANNOTATOR.DOCSET.M.LEN.SEL.PEER.pan") +
                f", so its annotator is unknown; name the annotators with "
                f"{option('annotators', 'A,B,...')} (one per file)", path=os.fspath(p))
        by_annotator = groups.setdefault(peer, {})
        earlier = by_annotator.get(annotator)
        if earlier is not None:
            same = os.path.realpath(earlier) == os.path.realpath(p)
            raise InputError(
                (f"this file is given twice (also as {earlier})" if same else
                 f"annotator {annotator!r} has two annotations of peer {peer!r}: this "
                 f"file and {earlier}") + "; give one .pan file per annotator and peer",
                path=os.fspath(p))
        by_annotator[annotator] = os.fspath(p)
    return groups


class PanSet:
    """Several annotators' peer annotations, read once: peer -> annotator -> annotation.

    Build it with :func:`load_pans`; :func:`pan_agreement` and :func:`pan_scores` take it in
    place of the paths, so that each file is read (and its repairs reported) once.

    Parameters
    ----------
    loaded : dict of str to dict of str to PeerAnnotation
        Peer id (``DOCSET.M.LEN.SEL.PEER`` from the file name) -> annotator -> annotation.
    annotators : list of str
        Every annotator, sorted.

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006, Genoa, Italy. Section 3
    (peer annotation by several annotators as a paradigmatic reliability study).

    NIST DUC 2006 pyramid data (``README.DUC2006pyramid``): docset D0631 was peer-annotated
    by two sites independently; its ``.pan`` files follow the naming read here.

    docs/pyramids.md, "Peer annotations".

    Examples
    --------
    Two annotators' ``.pan`` files of one peer, "a cat sat", who both find SCU 1:

    >>> import pathlib, tempfile
    >>> from clusteragree.pyramids.writers import build_pyramid, pan_xml
    >>> p = build_pyramid([("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat sat")],
    ...                   [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]])])
    >>> folder = tempfile.TemporaryDirectory()
    >>> paths = [pathlib.Path(folder.name, f"{who}.D1.M.100.A.7.pan") for who in "AB"]
    >>> for path in paths:
    ...     _ = path.write_text(pan_xml(p, "a cat sat", {1: [["cat sat"]]}))
    >>> pans = load_pans(paths)
    >>> pans.annotators, {peer: list(by) for peer, by in pans.loaded.items()}
    (['A', 'B'], {'D1.M.100.A.7': ['A', 'B']})
    >>> list(pans.loaded["D1.M.100.A.7"]["B"].found)
    [1]
    >>> folder.cleanup()
    """

    def __init__(self, loaded: dict[str, dict[str, PeerAnnotation]],
                 annotators: list[str]) -> None:
        self.loaded = loaded
        self.annotators = annotators


def load_pans(paths: Sequence[str | os.PathLike[str]] | PanSet, *, strict: bool = False,
              encoding: str | None = None, annotators: Sequence[str] | None = None) -> PanSet:
    """Read and check the ``.pan`` files of several annotators (see :func:`pan_agreement`).

    Parameters
    ----------
    paths : sequence of paths, or PanSet
        The ``.pan`` files, named ``ANNOTATOR.DOCSET.M.LEN.SEL.PEER.pan`` as in the NIST DUC
        data (the annotator is the first dot-field, the peer the rest). A PanSet is returned
        as it is.
    strict : bool, default=False
        Refuse files that need repairs (see :func:`~clusteragree.pyramids.reader.read_pan`).
    encoding : str, optional
        The files' encoding.
    annotators : sequence of str, optional
        The annotator of each file, in order (names repeat across peers), for names that carry
        none (DUC 2007's ``DOCSET.M.LEN.SEL.PEER.pan``) or to rename them; the peer is then the
        name without its annotator field (six fields) or the whole name.

    Returns
    -------
    PanSet
        Peer -> annotator -> :class:`~clusteragree.pyramids.model.PeerAnnotation`, and the
        sorted annotators.

    Raises
    ------
    InputError
        A name that is not ``ANNOTATOR.DOCSET.M.LEN.SEL.PEER.pan``; two files for one annotator
        and peer (or one file given twice); texts that differ; no peer annotated by two
        annotators (nothing to compare).
    ParameterError
        Files of fewer than two annotators.

    References
    ----------
    NIST DUC 2006 pyramid data (``README.DUC2006pyramid``): the ``.pan`` files and their
    names (e.g. ``114.D0631.M.250.D.1.pan``: annotator 114, peer ``D0631.M.250.D.1``),
    written by DUCView 1.4 (Columbia University, 2005).

    docs/pyramids.md, "Peer annotations".

    Examples
    --------
    A pyramid of two summaries with SCU 1 "cat sat" (weight 2) and SCU 2 "down" (weight 1),
    and annotators A and B, each with a ``.pan`` file per peer (named
    ``ANNOTATOR.DOCSET.M.LEN.SEL.PEER.pan``). They agree on peer 1; on peer 2 B's contributor
    to SCU 2 is "sat down" where A's is "down"; on peer 3 B puts "down" with the non-matching
    content (uid 0) where A finds SCU 2:

    >>> import pathlib, tempfile
    >>> from clusteragree.pyramids.writers import build_pyramid, pan_xml
    >>> p = build_pyramid([("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat sat down")],
    ...                   [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]]),
    ...                    ("Down", [[(1, "down")]])])
    >>> marks = [("A", 1, "a cat sat", {1: [["cat sat"]]}),
    ...          ("B", 1, "a cat sat", {1: [["cat sat"]]}),
    ...          ("A", 2, "it sat down", {2: [["down"]]}),
    ...          ("B", 2, "it sat down", {2: [["sat down"]]}),
    ...          ("A", 3, "the cat sat down", {1: [["cat sat"]], 2: [["down"]]}),
    ...          ("B", 3, "the cat sat down", {1: [["cat sat"]], 0: [["down"]]})]
    >>> folder = tempfile.TemporaryDirectory()
    >>> paths = [pathlib.Path(folder.name, f"{who}.D1.M.100.A.{peer}.pan")
    ...          for who, peer, _, _ in marks]
    >>> for path, (_, _, text, found) in zip(paths, marks):
    ...     _ = path.write_text(pan_xml(p, text, found))
    >>> pans = load_pans(paths)
    >>> pans.annotators, sorted(pans.loaded)
    (['A', 'B'], ['D1.M.100.A.1', 'D1.M.100.A.2', 'D1.M.100.A.3'])
    >>> folder.cleanup()

    A name without the annotator and peer fields is refused before anything is read, unless
    the annotators are named:

    >>> load_pans([pathlib.Path("summary.pan")])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: summary.pan: the file name is not ANNOTATOR.DOCSET.M.LEN...
    >>> folder = tempfile.TemporaryDirectory()
    >>> paths = [pathlib.Path(folder.name, f"{who}/D1.M.100.A.1.pan") for who in "AB"]
    >>> for path in paths:
    ...     path.parent.mkdir()
    ...     _ = path.write_text(pan_xml(p, "a cat sat", {1: [["cat sat"]]}))
    >>> sorted(load_pans(paths, annotators=["ann", "bob"]).loaded["D1.M.100.A.1"])
    ['ann', 'bob']
    >>> folder.cleanup()
    """
    if isinstance(paths, PanSet):
        return paths
    loaded, names = _load_pans(paths, strict, encoding, annotators)
    return PanSet(loaded, names)


def _load_pans(paths: Sequence[str | os.PathLike[str]], strict: bool,
               encoding: str | None = None, names: Sequence[str] | None = None
               ) -> tuple[dict[str, dict[str, PeerAnnotation]], list[str]]:
    groups = _group_pans(paths, names)
    annotators = sorted({a for g in groups.values() for a in g})
    if len(annotators) < 2:
        raise InputError(f"need peer annotations by at least two annotators; every file is "
                         f"annotator {''.join(annotators)!r}'s" + (
                             "" if names is not None else
                             f" (the first field of the names; name the annotators with "
                             f"{option('annotators', 'A,B,...')} otherwise)"))
    shared = sorted(peer for peer, g in groups.items() if len(g) >= 2)
    if not shared:
        raise InputError(
            f"nothing to compare: no peer was annotated by two annotators ({len(groups)} peers, "
            f"each in one annotator's files); give every annotator's .pan file of the same "
            "peers (the PEER part of ANNOTATOR.DOCSET.M.LEN.SEL.PEER.pan must match)")
    loaded: dict[str, dict[str, PeerAnnotation]] = {}
    reference: Pyramid | None = None
    for peer, files in sorted(groups.items()):
        loaded[peer] = {a: read_pan(f, strict=strict, encoding=encoding)
                        for a, f in sorted(files.items())}
        first = next(iter(loaded[peer].values()))
        for pan in loaded[peer].values():
            if pan.text != first.text:
                pos = first_difference(first.text, pan.text)
                raise InputError(f"peer {peer}: the peer text differs from {first.path}'s at "
                                 f"character {pos}", path=pan.path)
            if reference is None:
                reference = pan.pyramid
            elif pan.pyramid.text != reference.text:
                raise InputError("the embedded pyramid's text differs from the other files'; "
                                 "compare annotations against the same pyramid", path=pan.path)
    return loaded, annotators


def _peer_memberships(pan: PeerAnnotation, starts: np.ndarray, ends: np.ndarray,
                      nonmatching: bool) -> dict[int, set[int]]:
    out: dict[int, set[int]] = {}
    for scu in pan.peer_scus:
        if scu.uid == 0 and not nonmatching:
            continue
        for part in scu.parts:
            hit = np.flatnonzero((starts < part.end) & (ends > part.start))
            for t in hit.tolist():
                out.setdefault(t, set()).add(scu.uid)
    return out


def pan_agreement(
    paths: Sequence[str | os.PathLike[str]] | PanSet,
    distances: Sequence[DistanceLike] = DEFAULT_DISTANCES,
    *,
    tokenizer: str = "ws",
    nonmatching: bool = True,
    strict: bool = False,
    encoding: str | None = None,
    ci: float | None = None,
    bootstrap: int = 1000,
    seed: int | None = None,
    jobs: int | None = 1,
    interval: str | None = None,
    per_peer: bool = False,
    pairwise: bool = False,
    diagnose: bool = False,
    worst: int = 10,
) -> tuple[pd.DataFrame, CodingTable]:
    """Alpha between peer annotators, pooled over all peers, and the coding table.

    Units are the tokens of each peer summary (unit label ``(peer, token index)``); a token's
    value is the set of SCU uids whose peer contributors cover one of its characters (uid 0,
    DUCView's bucket of non-matching content, included unless ``nonmatching=False``); a token
    covered by none has the empty set.

    Parameters
    ----------
    paths : sequence of paths, or PanSet
        The annotators' ``.pan`` files (see :func:`load_pans`), or what it returned.
    distances : sequence, default=("nominal", "jaccard", "masi")
        The distances between values, by name or as callables.
    tokenizer : {"ws", "ducview", "alnum"}, default="ws"
        How peer texts are cut into tokens
        (:func:`~clusteragree.pyramids.units.tokens`).
    nonmatching : bool, default=True
        Count uid 0 as a value like an SCU; False leaves it out (the token's value is then
        the other SCUs covering it, or the empty set).
    strict : bool, default=False
        Refuse files that need repairs.
    encoding : str, optional
        The files' encoding.
    per_peer : bool, default=False
        Also a row per peer (``document`` = the peer) before the pooled rows.
    ci, bootstrap, seed, jobs, interval
        A bootstrap interval of alpha over peers drawn with replacement (each peer summary a
        document; the words of a single peer): as
        :func:`clusteragree.core.frames.alpha_report`.
    pairwise : bool, default=False
        With three or more annotators, the rows of every pair of annotators too (column
        ``pair``; :func:`clusteragree.core.frames.pairwise_report`).
    diagnose : bool, default=False
        Also the diagnostics of :func:`clusteragree.core.diagnostics.diagnostics`, the units
        written ``word 4: "down"`` with their peer as the document and the values as SCUs
        (:class:`~clusteragree.pyramids.naming.PanNames`), in ``report.attrs["diagnostics"]``.
    worst : int, default=10
        How many units the diagnostics list.

    Returns
    -------
    report : DataFrame
        One row per distance (``document`` = ``TOTAL``), as
        :func:`clusteragree.core.frames.alpha_report`: ``alpha``, ``D_o``, ``D_e``, ``n`` and
        the signature (``units:peer-words``, tokeniser, ``nonmatching``).
    table : CodingTable
        Annotators by units ``(peer, token index)``, values frozensets of SCU uids.

    Raises
    ------
    InputError, ParameterError
        As :func:`load_pans`.

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006, Genoa, Italy. Section 3: the
    reliability of peer annotation reported by Passonneau et al. (2005): kappa, and alpha with
    Dice as the distance.

    Passonneau, R., Nenkova, A., McKeown, K. and Sigelman, S. (2005). Applying the pyramid
    method in DUC 2005. Document Understanding Conference Workshop.

    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43.

    docs/pyramids.md, "Peer annotations".

    Examples
    --------
    A pyramid of two summaries with SCU 1 "cat sat" (weight 2) and SCU 2 "down" (weight 1),
    and annotators A and B, each with a ``.pan`` file per peer (named
    ``ANNOTATOR.DOCSET.M.LEN.SEL.PEER.pan``). They agree on peer 1; on peer 2 B's contributor
    to SCU 2 is "sat down" where A's is "down"; on peer 3 B puts "down" with the non-matching
    content (uid 0) where A finds SCU 2:

    >>> import pathlib, tempfile
    >>> from clusteragree.pyramids.writers import build_pyramid, pan_xml
    >>> p = build_pyramid([("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat sat down")],
    ...                   [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]]),
    ...                    ("Down", [[(1, "down")]])])
    >>> marks = [("A", 1, "a cat sat", {1: [["cat sat"]]}),
    ...          ("B", 1, "a cat sat", {1: [["cat sat"]]}),
    ...          ("A", 2, "it sat down", {2: [["down"]]}),
    ...          ("B", 2, "it sat down", {2: [["sat down"]]}),
    ...          ("A", 3, "the cat sat down", {1: [["cat sat"]], 2: [["down"]]}),
    ...          ("B", 3, "the cat sat down", {1: [["cat sat"]], 0: [["down"]]})]
    >>> folder = tempfile.TemporaryDirectory()
    >>> paths = [pathlib.Path(folder.name, f"{who}.D1.M.100.A.{peer}.pan")
    ...          for who, peer, _, _ in marks]
    >>> for path, (_, _, text, found) in zip(paths, marks):
    ...     _ = path.write_text(pan_xml(p, text, found))

    The 3 + 3 + 4 = 10 tokens give 20 values. The annotators differ on two tokens: "sat" of
    peer 2 ({} against {2}) and "down" of peer 3 ({2} against {0}); each gives 2 ordered
    pairs at distance 1, so D_o = 4/20 = 0.2. The values are {} 7 times, {1} 8 times, {2} 4
    times and {0} once; unequal values are disjoint or have an empty side, at distance 1
    under all three distances, so D_e = (20^2 - 7^2 - 8^2 - 4^2 - 1^2) / (20 * 19) =
    270/380, and alpha = 1 - 0.2 * 380/270 = 97/135 = 0.7185:

    >>> report, table = pan_agreement(paths)
    >>> report[["distance", "alpha", "D_o", "D_e"]].round(4)
      distance   alpha  D_o     D_e
    0  nominal  0.7185  0.2  0.7105
    1  jaccard  0.7185  0.2  0.7105
    2     masi  0.7185  0.2  0.7105
    >>> table.n_coders, table.n_units, sorted(table.value("B", ("D1.M.100.A.3", 3)))
    (2, 10, [0])

    Without uid 0, B's "down" of peer 3 is the empty set: the values are {} 8 times, {1} 8
    times and {2} 4 times, D_e = (400 - 64 - 64 - 16) / 380 = 256/380, and alpha =
    1 - 0.2 * 380/256 = 0.7031:

    >>> round(float(pan_agreement(paths, nonmatching=False)[0]["alpha"].iloc[0]), 4)
    0.7031
    >>> folder.cleanup()
    """
    pans = load_pans(paths, strict=strict, encoding=encoding)
    loaded, annotators = pans.loaded, pans.annotators
    records = []
    words: dict[tuple[str, int], str] = {}  # unit -> its word
    labels: dict[int, str] = {}  # SCU uid -> its label in the pyramid
    for peer, by_annotator in loaded.items():
        text = next(iter(by_annotator.values())).text
        starts, ends = tokens(text, [(0, len(text))], tokenizer)
        if diagnose:
            for t, (a, b) in enumerate(zip(starts.tolist(), ends.tolist(), strict=True)):
                words[(peer, t)] = " ".join(text[a:b].split())
            for read in by_annotator.values():
                labels.update({scu.uid: scu.label for scu in read.pyramid.scus
                               if scu.uid not in labels})
        for annotator in annotators:
            pan = by_annotator.get(annotator)
            if pan is None:
                continue
            memb = _peer_memberships(pan, starts, ends, nonmatching)
            for t in range(len(starts)):
                records.append((annotator, (peer, t), frozenset(memb.get(t, ()))))
    meta = {"units": "peer-words", "tok": tokenizer, "nonmatching": "yes" if nonmatching else "no"}
    table = CodingTable.from_records(records, meta=meta)
    names = list(table.coders)
    by_document = ci is not None or per_peer
    peer_of = np.array([unit[0] for unit in table.units], dtype=object)
    masks = {peer: peer_of == peer for peer in loaded} if by_document else {}

    def tables_of(chosen: tuple[int, ...]) -> CodingTable | dict[str, CodingTable]:
        some = table if len(chosen) == len(names) else table.select([names[i] for i in chosen])
        if not by_document:
            return some
        return {peer: CodingTable(some.coders, some.units[m], codes=some.codes[:, m],
                                  values=some.values, meta=meta) for peer, m in masks.items()}

    options: dict[str, Any] = ({"ci": ci, "bootstrap": bootstrap, "seed": seed,
                                "resample": "documents", "jobs": jobs,
                                "interval": interval} if by_document else {})
    if pairwise:
        frame = pairwise_report(tables_of, names, distances, per_document=per_peer, **options)
    else:
        frame = alpha_report(tables_of(tuple(range(len(names)))), distances,
                             **({"per_document": per_peer, **options} if by_document else {}))
    if diagnose:  # units by their peer, position and word; values by their SCUs
        naming = PanNames(words, labels)
        frame.attrs["diagnostics"] = diagnostics(table, distances, worst=worst,
                                                 report=None if pairwise else frame,
                                                 describe_unit=naming.unit,
                                                 describe_value=naming.value)
    return frame, table


def pan_scores(
    paths: Sequence[str | os.PathLike[str]] | PanSet, *, strict: bool = False,
    encoding: str | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Each annotator's original and modified pyramid score per peer, and the correlations.

    Parameters
    ----------
    paths : sequence of paths, or PanSet
        The annotators' ``.pan`` files (see :func:`load_pans`), or what it returned.
    strict : bool, default=False
        Refuse files that need repairs.
    encoding : str, optional
        The files' encoding.

    Returns
    -------
    scores : DataFrame
        One row per peer and annotator: ``peer, annotator, scus, original, modified``.
    correlations : DataFrame
        One row per pair of annotators and score kind: Pearson's r and Spearman's rho with their
        p-values, over the peers both annotated.

    Notes
    -----
    Scores are :func:`pyramid_score` of the SCUs found (uid 0 excluded), with the defaults
    (weights = numbers of contributors, average rounded half up). Correlations need at least
    three peers annotated by both; with fewer they are NaN. The correlations frame has the
    columns ``annotator_a, annotator_b, score, peers, pearson, pearson_p, spearman,
    spearman_p``.

    References
    ----------
    Nenkova, A. and Passonneau, R. (2004). Evaluating content selection in summarization: The
    pyramid method. Proceedings of HLT-NAACL 2004, Boston, MA.

    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006, Genoa, Italy. Sections 3 and 4
    (correlations of the original and modified scores from different annotations as evidence
    of reliability).

    docs/pyramids.md, "Peer annotations".

    Examples
    --------
    A pyramid of two summaries with SCU 1 "cat sat" (weight 2) and SCU 2 "down" (weight 1),
    and annotators A and B, each with a ``.pan`` file per peer (named
    ``ANNOTATOR.DOCSET.M.LEN.SEL.PEER.pan``). They agree on peer 1; on peer 2 B's contributor
    to SCU 2 is "sat down" where A's is "down"; on peer 3 B puts "down" with the non-matching
    content (uid 0) where A finds SCU 2:

    >>> import pathlib, tempfile
    >>> from clusteragree.pyramids.writers import build_pyramid, pan_xml
    >>> p = build_pyramid([("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat sat down")],
    ...                   [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]]),
    ...                    ("Down", [[(1, "down")]])])
    >>> marks = [("A", 1, "a cat sat", {1: [["cat sat"]]}),
    ...          ("B", 1, "a cat sat", {1: [["cat sat"]]}),
    ...          ("A", 2, "it sat down", {2: [["down"]]}),
    ...          ("B", 2, "it sat down", {2: [["sat down"]]}),
    ...          ("A", 3, "the cat sat down", {1: [["cat sat"]], 2: [["down"]]}),
    ...          ("B", 3, "the cat sat down", {1: [["cat sat"]], 0: [["down"]]})]
    >>> folder = tempfile.TemporaryDirectory()
    >>> paths = [pathlib.Path(folder.name, f"{who}.D1.M.100.A.{peer}.pan")
    ...          for who, peer, _, _ in marks]
    >>> for path, (_, _, text, found) in zip(paths, marks):
    ...     _ = path.write_text(pan_xml(p, text, found))

    The pyramid has 3 contributors over 2 models: the average 1.5 is rounded up to 2, so the
    modified score divides by the two heaviest weights, 2 + 1 = 3; the original score by the
    heaviest weights of as many SCUs as the peer has (2 for one SCU, 3 for two). Peer 1: SCU
    1, 2/2 and 2/3; peer 2: SCU 2, 1/2 and 1/3; peer 3: SCUs 1 and 2 for A (3/3, 3/3), SCU 1
    for B (2/2, 2/3):

    >>> scores, correlations = pan_scores(paths)
    >>> scores.round(4)
               peer annotator  scus  original  modified
    0  D1.M.100.A.1         A     1       1.0    0.6667
    1  D1.M.100.A.1         B     1       1.0    0.6667
    2  D1.M.100.A.2         A     1       0.5    0.3333
    3  D1.M.100.A.2         B     1       0.5    0.3333
    4  D1.M.100.A.3         A     2       1.0    1.0000
    5  D1.M.100.A.3         B     1       1.0    0.6667

    The original scores are equal, so r = 1. The modified ones are A (2/3, 1/3, 1) and B
    (2/3, 1/3, 2/3): deviations from the means (0, -1/3, 1/3) and (1/9, -2/9, 1/9), so
    r = (3/27) / sqrt(2/9 * 6/81) = sqrt(3)/2 = 0.8660:

    >>> correlations[["score", "peers", "pearson"]].round(4)
          score  peers  pearson
    0  original      3    1.000
    1  modified      3    0.866
    >>> folder.cleanup()
    """
    from scipy import stats

    pans = load_pans(paths, strict=strict, encoding=encoding)
    loaded, annotators = pans.loaded, pans.annotators
    rows = []
    for peer, by_annotator in loaded.items():
        for annotator, pan in by_annotator.items():
            found = list(pan.found)
            rows.append({
                "peer": peer, "annotator": annotator, "scus": len(found),
                "original": pyramid_score(pan.pyramid, found, "original"),
                "modified": pyramid_score(pan.pyramid, found, "modified"),
            })
    scores = pd.DataFrame(rows)
    corr = []
    for i, a in enumerate(annotators):
        for b in annotators[i + 1:]:
            for kind in ("original", "modified"):
                wide = scores.pivot(index="peer", columns="annotator", values=kind)[[a, b]].dropna()
                r, p_r = stats.pearsonr(wide[a], wide[b]) if len(wide) > 2 else (np.nan, np.nan)
                rho, p_rho = (stats.spearmanr(wide[a], wide[b]) if len(wide) > 2
                              else (np.nan, np.nan))
                corr.append({"annotator_a": a, "annotator_b": b, "score": kind,
                             "peers": len(wide), "pearson": float(r), "pearson_p": float(p_r),
                             "spearman": float(rho), "spearman_p": float(p_rho)})
    return scores, pd.DataFrame(corr)
