"""The standard coreference metrics between annotators (MUC, B-cubed, CEAFm, CEAFe, BLANC,
LEA, mention identification and the CoNLL score) for every ordered pair (key, response),
micro-averaged over the documents they share, and the matching of those documents.

This module needs neither the alpha machinery nor its resampling, so scoring a pair of files
loads only numpy, pandas and the solver of the CEAF alignment.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..core.model import unique_labels
from ..core.text import first_difference
from ..errors import InputError, ParameterError, ParameterTypeError, notify, option
from ..inputs import objects_in_bulk
from .metrics import add, count_arrays, score_documents, swapped, totals
from .metrics import per_document as by_document
from .model import CONLL_AVERAGE, METRICS, CorefCorpus, CorefDocument, LazyDocuments

__all__ = ["check_corpora", "coref_metrics", "match_documents", "paired_by_order"]


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

    Parameters
    ----------
    corpora : sequence of CorefCorpus
        Two or more annotators' corpora (:func:`read_conll`, :func:`read_corefud`,
        :func:`read_brat_dir`).
    lenient : bool, default=False
        Leave out, and report (kind ``skipped``), the documents missing from some corpora
        instead of raising.

    Returns
    -------
    common : list of str
        The documents of every corpus, in the order of the first corpus.
    skipped : list of str
        The documents left out (in some corpora only), sorted; empty without ``lenient``.

    Raises
    ------
    InputError
        A document missing from some corpus (without ``lenient``), no document shared by all,
        or a shared document with a different number of tokens in some corpus.
    ParameterError, ParameterTypeError
        Fewer than two corpora, or something that is not a list of CorefCorpus.

    References
    ----------
    CoNLL reference coreference scorer v8.01 (github.com/conll/reference-coreference-scorers),
    ``lib/CorScorer.pm``: documents are matched by name and mentions by token position, the
    tokens themselves being never compared.

    docs/coref.md, "Reading" (documents present in some files only, tokens written
    differently).

    Examples
    --------
    Annotator A has documents ``d`` and ``e``, annotator B only ``d``:

    >>> from clusteragree.coref import parse_conll
    >>> a = parse_conll(["#begin document d", "d 0 0 Mary (1)", "#end document",
    ...                  "#begin document e", "e 0 0 John (1)", "#end document"], "a.conll")
    >>> b = parse_conll(["#begin document d", "d 0 0 Mary -", "#end document"], "b.conll")
    >>> match_documents([a, b])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: b.conll: document e is in a.conll but not in b.conll; ...
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     match_documents([a, b], lenient=True)
    (['d'], ['e'])
    >>> for w in caught:
    ...     print(w.message)
    a.conll: skipped: documents not in every annotator's file left out: e
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
               count=len(skipped), once=("skipped", *map(id, corpora)))
    if not common:
        single = all(len(c.documents) == 1 for c in corpora)
        raise InputError(
            "nothing to compare: the annotators share no document (document names: "
            + "; ".join(f"{c.path}: {', '.join(list(c.documents)[:3]) or 'none'}"
                        for c in corpora[:3])
            + "); give annotations of the same documents, named alike"
            + (f", or pair the documents in file order with {option('pair_documents', 'order')}"
               " (INCEpTION names the document of a CoNLL-2012 export after its user)"
               if single else ""))
    if _same_tokens(corpora, common):
        return common, skipped
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
                   "the reference scorer does", path=doc.path, line=line, count=differ,
                   once=("mismatch", n, id(first), id(doc)))
    return common, skipped


def coref_metrics(
    corpora: Sequence[CorefCorpus],
    metrics: Sequence[str] = METRICS,
    *,
    coders: Sequence[Hashable] | None = None,
    lenient: bool = False,
    singletons: str = "keep",
    per_document: bool = False,
    jobs: int | None = 1,
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

    Parameters
    ----------
    corpora : sequence of CorefCorpus
        Two or more annotators' corpora; each is key against each other as response.
    metrics : sequence of str, default=METRICS
        Among ``"muc"``, ``"bcub"``, ``"ceafm"``, ``"ceafe"``, ``"blanc"``, ``"lea"``,
        ``"mentions"`` and ``"conll"``.
    coders : sequence of hashable, optional
        The annotators' names (default: the corpora's paths, made unique).
    lenient : bool, default=False
        Leave out documents missing from some corpora (see :func:`match_documents`).
    singletons : {"keep", "remove"}, default="keep"
        Score the entities of one mention, or leave them out on both sides.
    per_document : bool, default=False
        Add a row per document and metric after the pooled rows.
    jobs : int or None, default=1
        Accepted as by every measure (:func:`~clusteragree.core.parallel.resolve_jobs`) and
        not used: the metrics of all documents are counted at once from corpus-wide integer
        arrays, which takes less time than starting a pool of processes would (docs/parallel.md).

    Returns
    -------
    DataFrame
        One row per ordered pair and metric; columns ``key, response, metric, recall,
        precision, f1`` and the counts behind them (``recall_num, recall_den, precision_num,
        precision_den``; BLANC's link counts ``c_key, c_resp, c_both, n_key, n_resp,
        n_both``), NaN where a metric has no such count; ``document`` with
        ``per_document``.

    Raises
    ------
    ParameterError
        An unknown metric or singletons policy, fewer than two corpora.
    InputError
        As in :func:`match_documents`.

    References
    ----------
    Pradhan, S., Luo, X., Recasens, M., Hovy, E., Ng, V., Strube, M. (2014). Scoring
    coreference partitions of predicted mentions: a reference implementation. Proceedings of
    ACL 2014 (short papers), pp. 30-35. (The CoNLL score as the mean F1 of MUC, B-cubed and
    CEAFe; counts summed over documents.)

    The papers of each metric: see :func:`clusteragree.coref.metrics.score`.

    docs/coref.md, "Metrics".

    Examples
    --------
    "Mary met John and he smiled", document ``d``: annotator A puts he with John, annotator B
    puts he with Mary.

    >>> from clusteragree.coref import parse_conll
    >>> words = "Mary met John and he smiled".split()
    >>> def annotator(path, cells):
    ...     rows = [f"d 0 {i} {w} {c}" for i, (w, c) in enumerate(zip(words, cells))]
    ...     return parse_conll(["#begin document d", *rows, "#end document"], path)
    >>> a = annotator("a.conll", ["(1)", "-", "(2)", "-", "(2)", "-"])
    >>> b = annotator("b.conll", ["(1)", "-", "(2)", "-", "(1)", "-"])

    With A as key, the entities are {Mary} {John, he} against {Mary, he} {John}. MUC: the
    key's one link (John-he) is cut, and so is the response's (Mary-he): 0 and 0. B-cubed
    recall, per mention: Mary 1/1, John 1/2, he 1/2, mean 2/3; precision: Mary 1/2, John 1/1,
    he 1/2, also 2/3. CEAFe aligns {Mary}-{Mary, he} (2*1/3) and {John, he}-{John} (2*1/3):
    4/3 over 2 entities on each side, 2/3. CoNLL: (0 + 2/3 + 2/3)/3 = 4/9.

    >>> frame = coref_metrics([a, b], ["muc", "bcub", "ceafe", "conll"], coders=["A", "B"])
    >>> [(r.metric, round(r.recall, 4), round(r.f1, 4))
    ...  for r in frame[frame.key == "A"].itertuples()]
    [('muc', 0.0, 0.0), ('bcub', 0.6667, 0.6667), ('ceafe', 0.6667, 0.6667),
     ('conll', nan, 0.4444)]
    """
    if singletons not in ("keep", "remove"):
        raise ParameterError(f"singletons must be 'keep' or 'remove'. Got {singletons!r}.")
    check_corpora(corpora)
    names = list(coders) if coders else unique_labels([c.path for c in corpora])
    common, _ = match_documents(corpora, lenient=lenient)
    rows = []
    needed = [m for m in dict.fromkeys([*metrics, *(
        CONLL_AVERAGE if "conll" in metrics else ())]) if m != "conll"]
    arrays = _mention_arrays(corpora, common, singletons)
    entities: list[dict[str, list[list[int]]]] = []
    if arrays is None:  # discontinuous mentions: numbered one by one
        # Mentions as small integers, one numbering per document shared by all the corpora:
        # the metrics compare them many times, and an integer hashes faster than a span.
        numbering: dict[str, dict] = {n: {} for n in common}
        with objects_in_bulk():
            entities = [{n: _numbered(c.documents[n], numbering[n], singletons)
                         for n in common} for c in corpora]
    scored: dict[tuple[int, int], Any] = {}
    for i in range(len(corpora)):
        for j in range(len(corpora)):
            if i == j:
                continue
            counts: dict | list
            if (j, i) in scored:  # every metric is symmetric: the counts swap key and response
                earlier = scored[j, i]
                counts = (swapped(earlier) if isinstance(earlier, dict) else
                          [{m: c.swapped() for m, c in doc.items()} for doc in earlier])
            elif arrays is not None:
                counts = count_arrays(arrays[i], arrays[j], len(common), needed)
            else:
                with objects_in_bulk():
                    counts = score_documents([(entities[i][n], entities[j][n])
                                              for n in common], needed)
            scored[i, j] = counts
            total: dict = {}
            per_doc: dict[str, dict] = {}
            if isinstance(counts, dict):  # arrays: summed in document order, as add does
                total = totals(counts)
                if per_document:
                    per_doc = dict(zip(common, by_document(counts), strict=True))
            else:
                for n, doc_counts in zip(common, counts, strict=True):
                    per_doc[n] = doc_counts
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


def _mention_arrays(corpora: Sequence[CorefCorpus], common: Sequence[str], singletons: str
                    ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]] | None:
    """For each corpus, (document, mention, entity) of every mention of the ``common``
    documents as integer arrays: a mention's number is its span's, the same in every corpus,
    and an entity's number is never shared by two documents; the entities of one mention
    left out with ``singletons="remove"``. None when a mention has several spans (the numbers
    come from one span), a span is marked twice in a document, or the numbers would not fit
    in 63 bits."""
    given = [_arrays_of(c, common) for c in corpora]
    if all(a is not None for a in given):
        return _arrays_mentions(given, len(common), singletons)
    rows = []
    for c in corpora:
        docs = [c.documents[n] for n in common]
        if any(len(m.spans) != 1 for d in docs for m in d.mentions):
            return None
        rows.append(([d for d, doc in enumerate(docs) for _ in doc.mentions],
                     [m.spans[0] for doc in docs for m in doc.mentions],
                     [m.entity for doc in docs for m in doc.mentions]))
    top = 1 + max((e for _, spans, _ in rows for _, e in spans), default=0)
    if len(common) * top * top >= 2**62:
        return None
    out = []
    for doc_of, spans, entity in rows:
        d = np.array(doc_of, dtype=np.int64)
        span = np.array(spans, dtype=np.int64).reshape(-1, 2)
        mention = (d * top + span[:, 0]) * top + span[:, 1]
        if len(np.unique(mention)) != len(mention):
            return None  # a span marked twice in a document: the generic path decides
        e, names = pd.factorize(pd.Series(entity, dtype=object), use_na_sentinel=False)
        entity_id = d * max(len(names), 1) + e.astype(np.int64)
        out.append(_kept(d, mention, entity_id, singletons))
    return out


def _kept(d: np.ndarray, mention: np.ndarray, entity_id: np.ndarray, singletons: str
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The mention rows, without the entities of one mention when ``singletons="remove"``."""
    if singletons == "remove":
        _, inverse, sizes = np.unique(entity_id, return_inverse=True, return_counts=True)
        keep = sizes[inverse.ravel()] > 1
        d, mention, entity_id = d[keep], mention[keep], entity_id[keep]
    return d, mention, entity_id


def _numbered(doc: CorefDocument, ids: dict, singletons: str) -> list[list[int]]:
    """The chains of a document as lists of mention numbers (``ids``: span -> number, shared
    by the corpora compared, extended here); the entities of one mention left out with
    ``singletons="remove"``."""
    chains = [[ids.setdefault(m.spans, len(ids)) for m in ms] for ms in doc.chains.values()]
    return chains if singletons == "keep" else [c for c in chains if len(set(c)) > 1]


def _arrays_of(corpus: CorefCorpus, common: Sequence[str]) -> Any:
    """The array form of a corpus read by the vectorised CoNLL reader when its documents are
    exactly ``common`` in that order, else None."""
    docs = corpus.documents
    arrays = docs.arrays if isinstance(docs, LazyDocuments) else None
    return arrays if arrays is not None and arrays.names == list(common) else None


def _same_tokens(corpora: Sequence[CorefCorpus], common: Sequence[str]) -> bool:
    """Whether every corpus has, from its arrays, the very tokens of the first in every
    document (False when some corpus has no arrays: the documents are compared one by one)."""
    given = [_arrays_of(c, common) for c in corpora]
    if any(a is None for a in given):
        return False
    first = given[0]
    return all(np.array_equal(a.doc_first, first.doc_first) and a.words == first.words
               for a in given[1:])


def _arrays_mentions(given: Sequence[Any], documents: int, singletons: str
                     ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]] | None:
    """:func:`_mention_arrays` from the reader's arrays (documents in the same order in every
    corpus): the same numbers, without a mention object."""
    top = 1 + max((int(a.m_end.max()) for a in given if len(a.m_end)), default=0)
    if documents * top * top >= 2**62:
        return None
    out = []
    for a in given:
        d = a.m_doc.astype(np.int64)
        mention = (d * top + a.m_start) * top + a.m_end
        # Sorted by document, start and longest first: a span marked twice would be adjacent.
        if (mention[1:] == mention[:-1]).any():
            return None
        # Entities numbered in order of first appearance, as pandas.factorize numbers them.
        ids, first, inverse = np.unique(a.m_entity, return_index=True, return_inverse=True)
        rank = np.empty(len(ids), dtype=np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(len(ids))
        entity_id = d * max(len(ids), 1) + rank[inverse.ravel()]
        out.append(_kept(d, mention, entity_id, singletons))
    return out


def paired_by_order(corpora: Sequence[CorefCorpus]) -> list[CorefCorpus]:
    """The corpora with their documents named after the first corpus's, in file order: the
    k-th document of every file is one document (``pair_documents="order"``).

    For files whose documents are the same but named differently (INCEpTION writes the user's
    name as the document name of its CoNLL-2012 export). Every corpus must hold as many
    documents as the first; the renaming is said once (a ``note``).

    Examples
    --------
    >>> from clusteragree.coref import parse_conll
    >>> a = parse_conll(["#begin document (alice); part 000", "x 0 0 Mary (1)",
    ...                  "#end document"], "alice.conll")
    >>> b = parse_conll(["#begin document (bob); part 000", "x 0 0 Mary -",
    ...                  "#end document"], "bob.conll")
    >>> import warnings
    >>> with warnings.catch_warnings(record=True):
    ...     [list(c.documents) for c in paired_by_order([a, b])]
    [['(alice); part 000'], ['(alice); part 000']]
    """
    from dataclasses import replace
    check_corpora(corpora)
    names = list(corpora[0].documents)
    out = [corpora[0]]
    renamed = 0
    for c in corpora[1:]:
        if len(c.documents) != len(names):
            raise InputError(f"{option('pair_documents', 'order')} pairs the documents of the "
                             f"files in order, but {c.path} holds {len(c.documents)} and "
                             f"{corpora[0].path} {len(names)}", c.path)
        docs = {}
        for new, (old, doc) in zip(names, c.documents.items(), strict=True):
            docs[new] = doc if new == old else replace(doc, name=new)
            renamed += new != old
        out.append(replace(c, documents=docs))
    if renamed:
        notify("note", f"documents paired in file order ({option('pair_documents', 'order')}): "
               f"{renamed} document(s) take the names of {corpora[0].path}'s",
               path=corpora[0].path, count=renamed)
    return out
