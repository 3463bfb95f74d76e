"""Where two annotators' trees differ, sentence by sentence.

For every sentence both annotated: the tree edit distance, the distance normalised by the two
trees' sizes (Skjaerholt's norm, unsquared), and, for dependencies, the words whose head
differs (attachments) and the words with the same head but another relation (labels); for
phrase structure, the brackets only one of them has. Sentences are ranked by the edit
distance, most edits first, ties in the order of the sentences.

References
----------
Skjaerholt, A. (2014). A chance-corrected measure of inter-annotator agreement for syntax.
Proceedings of ACL 2014, pp. 934-944 (the normalised distance, section 2).
Zhang, K. & Shasha, D. (1989). Simple fast algorithms for the editing distance between trees
and related problems. SIAM Journal on Computing 18(6), 1245-1262.
"""

from __future__ import annotations

import pandas as pd

from ..errors import ParameterError, ParameterTypeError
from .edit_distance import TreeCache
from .model import Sentence, TreeAnnotations

__all__ = ["sentence_differences"]


def _attachments(a: Sentence, b: Sentence) -> tuple[list[str], list[str]]:
    heads, labels = [], []
    for i, (word, ha, hb, la, lb) in enumerate(zip(a.words, a.heads, b.heads, a.deprels,
                                                 b.deprels, strict=True), start=1):
        if ha != hb:
            heads.append(f"{i} {word}: {ha}->{hb}")
        elif la != lb:
            labels.append(f"{i} {word}: {la}->{lb}")
    return heads, labels


def sentence_differences(annotations: TreeAnnotations, first: str, second: str, *,
                         free_empty: bool = True, cache: TreeCache | None = None
                         ) -> pd.DataFrame:
    """Every sentence two annotators both annotated, by edit distance, most edits first (ties
    in the order of the sentences).

    Parameters
    ----------
    annotations : TreeAnnotations
        Read by :func:`~clusteragree.trees.read_tree_annotations`.
    first, second : str
        Two annotators' names.
    free_empty : bool, default=True
        As :func:`~clusteragree.trees.tree_alpha` (the empty root label is free).
    cache : TreeCache, optional
        Reuse edit distances already computed.

    Returns
    -------
    DataFrame
        ``sentence``, ``words``, ``ted`` (edits), ``norm`` (``ted`` over the two trees' node
        counts),
        then for dependencies ``attachments`` and ``labels`` (how many words differ in head,
        and in relation only) with ``heads_differ`` and ``labels_differ`` listing them as
        ``"i word: a->b"`` (missing where the two are tokenised differently: another number
        of words); for phrase structure ``brackets_only_first`` and
        ``brackets_only_second``; and ``first_tree``, ``second_tree`` (heads, or brackets).

    Raises
    ------
    ParameterError
        An annotator that is not in the annotations.

    References
    ----------
    Skjaerholt, A. (2014). Proceedings of ACL 2014, section 2.

    Examples
    --------
    "I saw him" (heads 2 0 2): the second annotator attaches "him" to "I" and calls "I" obj.
    Two words differ: "him" in its head, "I" in its relation only.

    >>> from clusteragree.trees import Sentence, TreeAnnotations
    >>> words = ("I", "saw", "him")
    >>> a = Sentence(("", (("root", (("nsubj", ()), ("obj", ()))),)), words, (2, 0, 2),
    ...              ("nsubj", "root", "obj"))
    >>> b = Sentence(("", (("root", (("obj", (("obj", ()),)),)),)), words, (2, 0, 1),
    ...              ("obj", "root", "obj"))
    >>> found = sentence_differences(TreeAnnotations({"A": {1: a}, "B": {1: b}},
    ...                                              "dependency", {}), "A", "B")
    >>> found[["attachments", "labels"]].values.tolist()
    [[1, 1]]

    Each tree has 4 nodes (the root and three words). The edit distance sees labels, not words:
    a's "obj" node can stay as b's "obj" node for "I" (below "saw" in both), a's "nsubj" is
    deleted and b's lower "obj" inserted: 2 edits, so norm = 2/8:

    >>> float(found.loc[0, "ted"]), float(found.loc[0, "norm"])
    (2.0, 0.25)
    >>> found.loc[0, "heads_differ"], found.loc[0, "labels_differ"]
    (['3 him: 2->1'], ['1 I: nsubj->obj'])
    """
    if not isinstance(annotations, TreeAnnotations):
        raise ParameterTypeError("sentence_differences takes TreeAnnotations "
                                 "(read_tree_annotations)")
    for name in (first, second):
        if name not in annotations.sentences:
            raise ParameterError(f"no annotator {name!r}; there are "
                                 f"{list(annotations.sentences)}")
    distance = cache if cache is not None else TreeCache(free_empty)
    mine, theirs = annotations.sentences[first], annotations.sentences[second]
    rows = []
    for key in (k for k in mine if k in theirs):
        a, b = mine[key], theirs[key]
        edits = float(distance(a.tree, b.tree))
        sizes = len(a.tree) + len(b.tree)
        row: dict[str, object] = {"sentence": key, "words": len(a.words) or None,
                                  "ted": edits, "norm": edits / sizes if sizes else 0.0}
        if annotations.kind == "dependency":
            if len(a.words) == len(b.words):
                heads, labels = _attachments(a, b)
                row.update({"attachments": len(heads), "labels": len(labels),
                            "heads_differ": heads, "labels_differ": labels})
            row.update({"first_tree": " ".join(map(str, a.heads)),
                        "second_tree": " ".join(map(str, b.heads))})
        elif annotations.kind != "dependency":
            row.update({"brackets_only_first": len(a.brackets - b.brackets),
                        "brackets_only_second": len(b.brackets - a.brackets),
                        "first_tree": a.tree.brackets(limit=80),
                        "second_tree": b.tree.brackets(limit=80)})
        rows.append(row)
    frame = pd.DataFrame(rows)
    if frame.empty:
        return frame
    return frame.sort_values("ted", ascending=False, kind="stable").reset_index(drop=True)
