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
from ..errors import InputError, ParameterError, ParameterTypeError
from .model import PeerAnnotation, Pyramid
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
    """The coding table of several pyramids of the same summaries, and its units."""
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
    ci, bootstrap, seed, resample
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
    """
    pyramids = _pyramids(paths, strict, encoding)
    names = list(coders) if coders else unique_labels([p.path for p in pyramids])

    def table_of(chosen: tuple[int, ...]) -> CodingTable:
        return pyramid_table([pyramids[i] for i in chosen], units=units, tokenizer=tokenizer,
                             overlap=overlap, unmarked=unmarked,
                             coders=[names[i] for i in chosen])[0]

    interval: dict[str, Any] = {"ci": ci, "bootstrap": bootstrap, "seed": seed,
                                "resample": resample}
    everyone = tuple(range(len(names)))
    frame = (pairwise_report(table_of, names, distances, engine=engine, **interval) if pairwise
             else alpha_report(table_of(everyone), distances, engine=engine, **interval))
    if diagnose:
        frame.attrs["diagnostics"] = diagnostics(table_of(everyone), distances, worst=worst)
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

    Examples
    --------
    >>> from clusteragree.pyramids.model import SCU, Contributor, Part, Pyramid, Summary
    >>> def scu(uid, n):
    ...     return SCU(uid, "", tuple(Contributor("", (Part(0, 0, ""),)) for _ in range(n)))
    >>> p = Pyramid("", (Summary("a", (0, 0), (0, 0)), Summary("b", (0, 0), (0, 0))),
    ...             (scu(1, 2), scu(2, 2), scu(3, 1), scu(4, 1)))
    >>> pyramid_score(p, [3]), pyramid_score(p, [1, 3], "modified")
    (0.5, 0.5)
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


def _group_pans(paths: Sequence[str | os.PathLike[str]]) -> dict[str, dict[str, str]]:
    """peer -> annotator -> path, from DUC names ANNOTATOR.DOCSET.M.LEN.SEL.PEER.pan."""
    groups: dict[str, dict[str, str]] = {}
    for p in _paths(paths, "paths"):
        if not isinstance(p, (str, os.PathLike)):
            raise ParameterTypeError(f"a .pan path must be a str or PathLike. Got {p!r}.")
        m = _PAN_NAME.match(Path(p).name)
        if not m:
            raise InputError("the file name is not ANNOTATOR.DOCSET.M.LEN.SEL.PEER.pan, so its "
                             "annotator and peer are unknown", path=os.fspath(p))
        by_annotator = groups.setdefault(m["peer"], {})
        earlier = by_annotator.get(m["annotator"])
        if earlier is not None:
            same = os.path.realpath(earlier) == os.path.realpath(p)
            raise InputError(
                (f"this file is given twice (also as {earlier})" if same else
                 f"annotator {m['annotator']!r} has two annotations of peer {m['peer']!r}: this "
                 f"file and {earlier}") + "; give one .pan file per annotator and peer",
                path=os.fspath(p))
        by_annotator[m["annotator"]] = os.fspath(p)
    return groups


class PanSet:
    """Several annotators' peer annotations, read once: peer -> annotator -> annotation.

    Build it with :func:`load_pans`; :func:`pan_agreement` and :func:`pan_scores` take it in
    place of the paths, so that each file is read (and its repairs reported) once.
    """

    def __init__(self, loaded: dict[str, dict[str, PeerAnnotation]],
                 annotators: list[str]) -> None:
        self.loaded = loaded
        self.annotators = annotators


def load_pans(paths: Sequence[str | os.PathLike[str]] | PanSet, *, strict: bool = False,
              encoding: str | None = None) -> PanSet:
    """Read and check the ``.pan`` files of several annotators (see :func:`pan_agreement`).

    Raises
    ------
    InputError
        A name that is not ``ANNOTATOR.DOCSET.M.LEN.SEL.PEER.pan``; two files for one annotator
        and peer (or one file given twice); texts that differ; no peer annotated by two
        annotators (nothing to compare).
    """
    if isinstance(paths, PanSet):
        return paths
    loaded, annotators = _load_pans(paths, strict, encoding)
    return PanSet(loaded, annotators)


def _load_pans(paths: Sequence[str | os.PathLike[str]], strict: bool,
               encoding: str | None = None
               ) -> tuple[dict[str, dict[str, PeerAnnotation]], list[str]]:
    groups = _group_pans(paths)
    annotators = sorted({a for g in groups.values() for a in g})
    if len(annotators) < 2:
        raise ParameterError(f"need peer annotations by at least two annotators; got "
                             f"{annotators}")
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
) -> tuple[pd.DataFrame, CodingTable]:
    """Alpha between peer annotators, pooled over all peers, and the coding table.

    Units are the tokens of each peer summary (unit label ``(peer, token index)``); a token's
    value is the set of SCU uids whose peer contributors cover one of its characters (uid 0,
    DUCView's bucket of non-matching content, included unless ``nonmatching=False``); a token
    covered by none has the empty set.
    """
    pans = load_pans(paths, strict=strict, encoding=encoding)
    loaded, annotators = pans.loaded, pans.annotators
    records = []
    for peer, by_annotator in loaded.items():
        text = next(iter(by_annotator.values())).text
        starts, ends = tokens(text, [(0, len(text))], tokenizer)
        for annotator in annotators:
            pan = by_annotator.get(annotator)
            if pan is None:
                continue
            memb = _peer_memberships(pan, starts, ends, nonmatching)
            for t in range(len(starts)):
                records.append((annotator, (peer, t), frozenset(memb.get(t, ()))))
    meta = {"units": "peer-words", "tok": tokenizer, "nonmatching": "yes" if nonmatching else "no"}
    table = CodingTable.from_records(records, meta=meta)
    return alpha_report(table, distances), table


def pan_scores(
    paths: Sequence[str | os.PathLike[str]] | PanSet, *, strict: bool = False,
    encoding: str | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Each annotator's original and modified pyramid score per peer, and the correlations.

    Returns
    -------
    scores : DataFrame
        One row per peer and annotator: ``peer, annotator, scus, original, modified``.
    correlations : DataFrame
        One row per pair of annotators and score kind: Pearson's r and Spearman's rho with their
        p-values, over the peers both annotated.
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
