"""Agreement between coreference annotators: chance-corrected alpha and the standard metrics.

Units (Passonneau 2004, 2006: a unit's value is its chain minus itself):

* ``mentions``: the union of all annotators' mentions (by token span); an annotator who did not
  mark a mention gives it the empty set (``unmarked="empty"``, default: a disagreement with any
  annotator who put it in a chain) or leaves it missing (``unmarked="missing"``).
* ``words``: every token; a token takes the chain of its innermost mention (default), its
  outermost mention (``word_policy="outermost"``) or of the mention whose head it is
  (``"head"``, CorefUD heads); tokens in no mention are singletons.

Documents are matched by name and must have the same tokens; alpha is reported per document and
pooled (summed statistics), for all annotators together and pairwise. The metrics (MUC, B-cubed,
CEAFm, CEAFe, BLANC, LEA) are given for every ordered pair (key, response), micro-averaged over
documents.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..core.convert import memberships_table
from ..core.distances import DEFAULT_DISTANCES, DistanceLike
from ..core.frames import alpha_report, pairwise_report
from ..core.model import CodingTable, unique_labels
from ..core.text import first_difference
from ..errors import InputError, ParameterError, ParameterTypeError, notify
from .metrics import add, score
from .model import CONLL_AVERAGE, METRICS, CorefCorpus, CorefDocument

__all__ = ["coref_alpha", "coref_metrics", "coref_tables", "match_documents"]


def check_corpora(corpora: object) -> None:
    """Two or more :class:`CorefCorpus` objects, or a precise refusal."""
    if isinstance(corpora, (str, bytes)) or not isinstance(corpora, Sequence) or not all(
            isinstance(c, CorefCorpus) for c in corpora):
        raise ParameterTypeError(
            "corpora must be a list of CorefCorpus objects, one per annotator (read_conll, "
            f"read_corefud, read_brat_dir). Got {type(corpora).__name__}.")
    if len(corpora) < 2:
        raise ParameterError(f"give the annotations of two or more annotators; got "
                             f"{len(corpora)}")


def match_documents(corpora: Sequence[CorefCorpus], *, lenient: bool = False
                    ) -> tuple[list[str], list[str]]:
    """Names of the documents present in every corpus; checks tokens.

    Raises :class:`InputError` for a document in some files only (``lenient``: it is left out
    and named in the returned list of skipped documents) and for documents of different
    lengths. Tokens of the same position that are written differently (a response file whose
    words were replaced, as in the reference scorer's test cases) are compared by position, as
    the reference scorer does, and reported (kind ``mismatch``, refused under strict reading).
    """
    check_corpora(corpora)
    names = [list(c.documents) for c in corpora]
    common = [n for n in names[0] if all(n in c.documents for c in corpora)]
    skipped = sorted({n for ns in names for n in ns} - set(common))
    if skipped and not lenient:
        n = skipped[0]
        has = [c.path for c in corpora if n in c.documents]
        lacks = [c.path for c in corpora if n not in c.documents]
        raise InputError(f"document {n} is in {', '.join(has)} but not in {', '.join(lacks)}; "
                         "give every annotator the same documents (lenient reading skips it)",
                         path=lacks[0])
    if skipped:
        shown = ", ".join(skipped[:5]) + (f" and {len(skipped) - 5} more" if len(skipped) > 5
                                          else "")
        notify("skipped", f"documents not in every annotator's file left out: {shown}",
               path=next(c.path for c in corpora if skipped[0] in c.documents),
               count=len(skipped))
    if not common:
        raise InputError(
            "nothing to compare: the annotators share no document (document names: "
            + "; ".join(f"{c.path}: {', '.join(list(c.documents)[:3]) or 'none'}"
                        for c in corpora[:3])
            + "); give annotations of the same documents, named alike")
    for n in common:
        first = corpora[0].documents[n]
        for other in corpora[1:]:
            doc = other.documents[n]
            if len(doc.tokens) == len(first.tokens) and (
                    not all(first.tokens) or not all(doc.tokens) or doc.tokens == first.tokens):
                continue
            pos = first_difference(first.tokens, doc.tokens)
            line = doc.token_lines[pos] if pos < len(doc.token_lines) else None
            a = first.tokens[pos] if pos < len(first.tokens) else "(end of document)"
            b = doc.tokens[pos] if pos < len(doc.tokens) else "(end of document)"
            if len(doc.tokens) != len(first.tokens):
                raise InputError(
                    f"document {n}: {len(doc.tokens)} tokens here but {len(first.tokens)} in "
                    f"{first.path} (first difference: token {pos} is {b!r} here but {a!r} "
                    "there); the annotators must share the tokens", path=doc.path, line=line)
            differ = sum(x != y for x, y in zip(first.tokens, doc.tokens, strict=True))
            notify("mismatch", f"document {n}: tokens written differently from {first.path} "
                   f"(first: token {pos}, {b!r} here, {a!r} there) are compared by position, as "
                   "the reference scorer does", path=doc.path, line=line, count=differ)
    return common, skipped


def _mention_units(docs: Sequence[CorefDocument]):
    units: dict[tuple[tuple[int, int], ...], int] = {}
    for d in docs:
        for m in sorted(d.mentions, key=lambda m: m.spans):
            units.setdefault(m.spans, len(units))
    members = []
    for d in docs:
        entity = {e: k for k, e in enumerate(d.chains)}
        rows = [(units[m.spans], entity[m.entity]) for m in d.mentions]
        members.append(np.array(rows, dtype=np.int64).reshape(-1, 2))
    return members, len(units)


def _word_units(docs: Sequence[CorefDocument], policy: str):
    words = docs[0].word_spans
    starts = np.array([s for s, _ in words], dtype=np.int64)
    ends = np.array([e for _, e in words], dtype=np.int64)
    n = len(words)
    members = []
    for d in docs:
        entity = {e: k for k, e in enumerate(d.chains)}
        best = np.full(n, -1, dtype=np.int64)
        length = np.full(n, -1, dtype=np.int64)
        for m in d.mentions:
            size = sum(e - s for s, e in m.spans)
            if policy == "head":
                if m.head is None:
                    raise ParameterError(
                        f"{d.path}: document {d.name} has mentions without heads; the head "
                        "policy needs heads (CorefUD files), use innermost or outermost")
                spans: tuple[tuple[int, int], ...] = ((m.head, m.head + 1),)
            else:
                spans = m.spans
            for s, e in spans:
                first = int(np.searchsorted(ends, s, side="right"))
                last = int(np.searchsorted(starts, e, side="left"))
                for w in range(first, last):
                    better = (length[w] < 0 or (size < length[w] if policy == "innermost"
                                                else size > length[w]))
                    if better:
                        best[w], length[w] = entity[m.entity], size
        covered = np.flatnonzero(best >= 0)
        members.append(np.column_stack([covered, best[covered]]).astype(np.int64))
    return members, n


def coref_tables(
    corpora: Sequence[CorefCorpus],
    *,
    units: str = "mentions",
    unmarked: str = "empty",
    word_policy: str = "innermost",
    coders: Sequence[Hashable] | None = None,
    lenient: bool = False,
) -> dict[str, CodingTable]:
    """One coding table per document shared by all annotators."""
    check_corpora(corpora)
    if len(corpora) < 2:
        raise ParameterError("give the coreference annotations of at least two annotators")
    if units not in ("mentions", "words"):
        raise ParameterError(f"units must be 'mentions' or 'words'. Got {units!r}.")
    if word_policy not in ("innermost", "outermost", "head"):
        raise ParameterError(
            f"word_policy must be 'innermost', 'outermost' or 'head'. Got {word_policy!r}.")
    names = list(coders) if coders else unique_labels([c.path for c in corpora])
    common, _ = match_documents(corpora, lenient=lenient)
    tables = {}
    for n in common:
        docs = [c.documents[n] for c in corpora]
        if units == "mentions":
            members, size = _mention_units(docs)
            meta = {"units": "mentions"}
        else:
            members, size = _word_units(docs, word_policy)
            meta = {"units": "words", "word": word_policy}
        tables[n] = memberships_table(members, size, names, unmarked=unmarked, meta=meta)
    return tables


def coref_alpha(
    corpora: Sequence[CorefCorpus],
    distances: Sequence[DistanceLike] = DEFAULT_DISTANCES,
    *,
    units: str = "mentions",
    unmarked: str = "empty",
    word_policy: str = "innermost",
    coders: Sequence[Hashable] | None = None,
    lenient: bool = False,
    pairwise: bool = False,
    ci: float | None = None,
    bootstrap: int = 1000,
    seed: int | None = None,
    resample: str = "auto",
) -> pd.DataFrame:
    """Alpha per document and pooled (TOTAL); with ``pairwise``, also for every pair of
    annotators (column ``pair``; the joint rows have pair ``all``); with ``ci``, a bootstrap
    interval on the pooled rows that resamples whole documents when there are several
    (``bootstrap``, ``seed``, ``resample`` as
    :func:`clusteragree.core.frames.alpha_report`)."""
    check_corpora(corpora)
    names = list(coders) if coders else unique_labels([c.path for c in corpora])

    def tables_of(chosen: tuple[int, ...]) -> dict[str, CodingTable]:
        return coref_tables([corpora[i] for i in chosen], units=units, unmarked=unmarked,
                            word_policy=word_policy, coders=[names[i] for i in chosen],
                            lenient=lenient)

    interval: dict[str, Any] = {"ci": ci, "bootstrap": bootstrap, "seed": seed,
                                "resample": resample}
    if pairwise:
        return pairwise_report(tables_of, names, distances, **interval)
    return alpha_report(tables_of(tuple(range(len(names)))), distances,
                        **interval).assign(pair="all")


def coref_metrics(
    corpora: Sequence[CorefCorpus],
    metrics: Sequence[str] = METRICS,
    *,
    coders: Sequence[Hashable] | None = None,
    lenient: bool = False,
    singletons: str = "keep",
    per_document: bool = False,
) -> pd.DataFrame:
    """Recall, precision and F1 of each metric for every ordered pair (key, response), with
    the summed numerators and denominators (micro-average over the shared documents).

    Metrics: those of :data:`~clusteragree.coref.metrics.METRICS` (``mentions`` is mention
    identification: spans marked by both sides, as the official scorer reports it) and
    ``conll``, the CoNLL shared-task score: the mean F1 of MUC, B-cubed and CEAFe (its recall
    and precision are not defined: null). ``singletons="remove"`` leaves out the entities of
    one mention on both sides before scoring (the CoNLL-2012 evaluation); with
    ``per_document`` a row per document and metric follows the pooled rows (column
    ``document``, None for the pooled rows).
    """
    if singletons not in ("keep", "remove"):
        raise ParameterError(f"singletons must be 'keep' or 'remove'. Got {singletons!r}.")
    check_corpora(corpora)
    names = list(coders) if coders else unique_labels([c.path for c in corpora])
    common, _ = match_documents(corpora, lenient=lenient)
    rows = []
    for i, key in enumerate(corpora):
        for j, resp in enumerate(corpora):
            if i == j:
                continue
            total: dict = {}
            needed = [m for m in dict.fromkeys([*metrics, *(
                CONLL_AVERAGE if "conll" in metrics else ())]) if m != "conll"]
            per_doc: dict[str, dict] = {}
            for n in common:
                per_doc[n] = score(_entities(key.documents[n], singletons),
                                   _entities(resp.documents[n], singletons), needed)
                total = add(total, per_doc[n])
            docs = [(None, total)] + (list(per_doc.items()) if per_document else [])
            for document, counts_by_metric in docs:
                for m in metrics:
                    row = {"key": names[i], "response": names[j], "document": document,
                           "metric": m}
                    if m == "conll":
                        row.update(recall=None, precision=None, f1=sum(
                            counts_by_metric[x].rpf[2] for x in CONLL_AVERAGE) / len(CONLL_AVERAGE))
                    else:
                        r, p, f = counts_by_metric[m].rpf
                        row.update(recall=r, precision=p, f1=f, **vars(counts_by_metric[m]))
                    rows.append(row)
    frame = pd.DataFrame(rows)
    return frame if per_document else frame.drop(columns=["document"])


def _entities(doc: CorefDocument, singletons: str) -> list:
    clusters = doc.clusters()
    return clusters if singletons == "keep" else [c for c in clusters if len(c) > 1]
