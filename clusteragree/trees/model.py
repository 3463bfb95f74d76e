"""The tree model: a flat ordered labelled tree, and annotated sentences.

A :class:`Tree` holds its labels in pre-order and each node's subtree size: two flat tuples,
hashable and never traversed recursively. A :class:`Sentence` is one annotator's analysis of a
sentence (the tree, and for dependencies its words, heads and relations; for phrase structure its
brackets); :class:`TreeFile` the sentences of one file; :class:`TreeAnnotations` several
annotators' sentences, the input of tree alpha and of the accuracies.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from numbers import Integral
from typing import Any

from ..errors import InputError, ParameterError, ParameterTypeError

__all__ = ["MAX_CELLS", "METRICS", "SIZES", "Sentence", "Tree", "TreeAnnotations", "TreeFile",
           "TreeLike", "as_tree", "check_paired", "leaves", "size"]


#: Tree alpha's distances: the edit distance, less the size difference, or over the sizes.
METRICS = ("plain", "diff", "norm")
#: Zhang-Shasha fills tables of (n + 1)(m + 1) cells for trees of n and m nodes; beyond this
#: many, :func:`~clusteragree.trees.ted` refuses the pair rather than exhaust memory
#: (``max_cells``, on the command line ``--max-cells``, raises it).
MAX_CELLS = 25_000_000
#: What ``|x|`` counts in the diff and norm distances (``auto``: tokens or leaves).
SIZES = ("auto", "tokens", "nodes", "leaves")

class Tree:
    """An ordered labelled tree stored flat: its labels in pre-order and each node's subtree
    size (the node and its descendants).

    Equality, hashing, size and every traversal work on these two flat tuples, so a tree a
    hundred thousand levels deep costs what a wide one does: nothing recurses over its depth
    (nested tuples, the older form, are hashed, compared and printed recursively by Python).

    Parameters
    ----------
    labels : sequence of str
        Node labels in pre-order (a node, then its children's subtrees left to right).
    sizes : sequence of int
        Subtree sizes in the same order; ``sizes[0] == len(labels)``.

    Attributes
    ----------
    labels : tuple of str
        The node labels in pre-order.
    sizes : tuple of int
        The subtree sizes in pre-order.
    leaves : int
        The number of leaves (nodes whose subtree size is 1).

    Raises
    ------
    ParameterTypeError
        ``labels`` not a sequence of str, or ``sizes`` not a sequence of whole numbers.
    ParameterError
        No nodes, one size per label missing, ``sizes[0]`` not the number of nodes, or a
        subtree that does not fit inside its parent's.

    References
    ----------
    Zhang, K. and Shasha, D. (1989). Simple fast algorithms for the editing distance between
    trees and related problems. SIAM Journal on Computing, 18(6), 1245-1262 (ordered labelled
    trees, the trees the edit distance compares).

    docs/trees.md, "Deep trees, limits and input checks".

    Examples
    --------
    S has two children, NP (with the leaves D and N) and the leaf VP. In pre-order the labels
    are S, NP, D, N, VP; S's subtree holds all 5 nodes, NP's 3 (NP, D, N), each leaf's 1. The
    leaves are D, N and VP:

    >>> t = Tree.from_nested(("S", (("NP", (("D", ()), ("N", ()))), ("VP", ()))))
    >>> t.labels, t.sizes
    (('S', 'NP', 'D', 'N', 'VP'), (5, 3, 1, 1, 1))
    >>> t.to_nested()
    ('S', (('NP', (('D', ()), ('N', ()))), ('VP', ())))
    >>> len(t), t.leaves, t
    (5, 3, Tree('(S (NP D N) VP)'))

    The same tree from its flat form. Sizes that do not nest are refused: NP (node 1) spans
    nodes 1 to 3, so N (node 3) cannot have a subtree of 2 nodes, which would take in VP:

    >>> Tree(["S", "NP", "D", "N", "VP"], [5, 3, 1, 1, 1]) == t
    True
    >>> Tree(["S", "NP", "D", "N", "VP"], [5, 3, 1, 2, 1])
    Traceback (most recent call last):
    ...
    clusteragree.errors.ParameterError: subtree size 2 of node 3 does not fit in its parent
    """

    __slots__ = ("_hash", "labels", "sizes")

    def __init__(self, labels: Sequence[str], sizes: Sequence[int]) -> None:
        if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
            raise ParameterTypeError("labels must be a sequence of str (the node labels in "
                                     f"pre-order). Got {type(labels).__name__}.")
        if isinstance(sizes, (str, bytes)) or not isinstance(sizes, Iterable):
            raise ParameterTypeError("sizes must be a sequence of int (the subtree sizes in "
                                     f"pre-order). Got {type(sizes).__name__}.")
        self.labels: tuple[str, ...] = tuple(labels)
        sizes = tuple(sizes)
        if not all(isinstance(s, Integral) and not isinstance(s, bool) for s in sizes):
            raise ParameterTypeError("sizes must be whole numbers (the subtree sizes in "
                                     "pre-order)")
        self.sizes: tuple[int, ...] = tuple(int(s) for s in sizes)
        n = len(self.labels)
        if n == 0 or len(self.sizes) != n or self.sizes[0] != n:
            raise ParameterError("a Tree needs one label and one subtree size per node, the "
                                 "root's size being the number of nodes")
        ends: list[int] = [n]
        for p, s in enumerate(self.sizes):  # each subtree must nest inside its parent's
            while ends and ends[-1] <= p:
                ends.pop()
            if s < 1 or not ends or p + s > ends[-1]:
                raise ParameterError(f"subtree size {s} of node {p} does not fit in its parent")
            ends.append(p + s)
        if not all(isinstance(x, str) for x in self.labels):
            raise ParameterTypeError("tree labels must be str")
        self._hash = hash((self.labels, self.sizes))

    # ---------------------------------------------------------------- builders
    @classmethod
    def _known(cls, labels: tuple[str, ...], sizes: tuple[int, ...]) -> Tree:
        """A tree from pre-order labels and subtree sizes that a reader has built from a
        tree it checked (no second check, which would cost more than the reading)."""
        tree = cls.__new__(cls)
        tree.labels, tree.sizes = labels, sizes
        tree._hash = hash((labels, sizes))
        return tree

    @classmethod
    def from_children(cls, labels: Sequence[str], children: Sequence[Sequence[int]],
                      root: int = 0) -> Tree:
        """A tree from node ``labels`` and each node's ``children`` (node ids, in order).

        Nodes not reached from ``root`` are left out; a node reached twice (a cycle, or a node
        with two parents) is refused.

        >>> Tree.from_children(["S", "NP", "VP"], [[1, 2], [], []])
        Tree('(S NP VP)')
        """
        n = len(labels)
        if len(children) != n:
            raise ParameterError(f"give one list of children per label: {n} labels, "
                                 f"{len(children)} lists of children")
        if not (isinstance(root, Integral) and 0 <= root < n):
            raise ParameterError(f"root must be a node id from 0 to {n - 1}. Got {root!r}.")
        order: list[int] = []
        seen = [False] * n
        stack = [int(root)]
        while stack:
            node = stack.pop()
            if seen[node]:
                raise ParameterError(f"node {node} is reached twice from the root (a cycle, "
                                     "or two parents): the children do not form a tree")
            seen[node] = True
            order.append(node)
            kids = children[node]
            for c in kids:
                if not (isinstance(c, Integral) and 0 <= c < n):
                    raise ParameterError(f"child {c!r} of node {node} is not a node id from 0 "
                                         f"to {n - 1}")
            stack.extend(reversed(kids))
        sizes = {node: 1 for node in order}
        for node in reversed(order):
            for c in children[node]:
                sizes[node] += sizes[c]
        return cls([labels[k] for k in order], [sizes[k] for k in order])

    @classmethod
    def from_nested(cls, nested: Any) -> Tree:
        """A tree from the nested form ``(label, (child, ...))`` (read iteratively)."""
        if isinstance(nested, Tree):
            return nested
        labels: list[str] = []
        children: list[list[int]] = []
        stack: list[tuple[Any, int]] = [(nested, -1)]
        while stack:
            node, parent = stack.pop()
            if not (isinstance(node, tuple) and len(node) == 2 and isinstance(node[0], str)
                    and isinstance(node[1], tuple)):
                raise ParameterTypeError(
                    "a tree is a Tree or nested tuples (label, (child, ...)) with str labels; "
                    f"got {type(node).__name__} {str(node)[:40]}")
            k = len(labels)
            labels.append(node[0])
            children.append([])
            if parent >= 0:
                children[parent].append(k)
            stack.extend((child, k) for child in reversed(node[1]))
        for kids in children:  # children were met in pre-order: ids increase left to right
            kids.sort()
        return cls.from_children(labels, children)

    def to_nested(self) -> tuple[str, tuple[Any, ...]]:
        """The nested form ``(label, (child, ...))`` (built iteratively)."""
        built: list[Any] = [None] * len(self.labels)
        for p in range(len(self.labels) - 1, -1, -1):
            kids, q, end = [], p + 1, p + self.sizes[p]
            while q < end:
                kids.append(built[q])
                q += self.sizes[q]
            built[p] = (self.labels[p], tuple(kids))
        return built[0]

    def relabel(self, change: Callable[[str], str]) -> Tree:
        """The same shape with every label ``x`` replaced by ``change(x)``."""
        return Tree([change(x) for x in self.labels], self.sizes)

    # ---------------------------------------------------------------- properties
    @property
    def leaves(self) -> int:
        """Number of leaves.

    >>> leaves(("S", (("NP", ()), ("VP", (("V", ()),)))))
    2
    """
        return self.sizes.count(1)

    def __len__(self) -> int:
        return len(self.labels)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tree):
            return NotImplemented
        return (self._hash == other._hash and self.sizes == other.sizes
                and self.labels == other.labels)

    def __hash__(self) -> int:
        return self._hash

    def brackets(self, limit: int = 60) -> str:
        """The tree as brackets, ``(S (NP D N) VP)``, cut after ``limit`` characters."""
        out: list[str] = []
        ends: list[int] = []
        length = 0
        for p, (label, s) in enumerate(zip(self.labels, self.sizes, strict=True)):
            while ends and ends[-1] <= p:
                ends.pop()
                out.append(")")
            piece = (" " if p else "") + (f"({label or '_'}" if s > 1 else (label or "_"))
            out.append(piece)
            length += len(piece)
            if s > 1:
                ends.append(p + s)
            if length > limit:
                return "".join(out) + " ..."
        out.extend(")" * len(ends))
        return "".join(out)

    def __repr__(self) -> str:
        return f"Tree({self.brackets()!r})"


TreeLike = Tree | tuple[str, tuple[Any, ...]]


def as_tree(tree: Any) -> Tree:
    """A :class:`Tree` from a Tree or the nested form (refusing anything else).

    Parameters
    ----------
    tree : Tree or tuple
        A :class:`Tree`, returned as it is, or the nested form ``(label, (child, ...))`` with
        str labels.

    Returns
    -------
    Tree
        The tree.

    Raises
    ------
    ParameterTypeError
        Anything else (a list, a str label missing, ...).

    References
    ----------
    docs/trees.md, "Deep trees, limits and input checks" (the flat form and the nested form).

    Examples
    --------
    S with the two leaves NP and VP:

    >>> as_tree(("S", (("NP", ()), ("VP", ()))))
    Tree('(S NP VP)')
    >>> t = as_tree(("S", ()))
    >>> as_tree(t) is t
    True
    >>> as_tree(["S", []])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.ParameterTypeError: a tree is a Tree or nested tuples ...
    """
    return tree if isinstance(tree, Tree) else Tree.from_nested(tree)


def size(tree: TreeLike) -> int:
    """Number of nodes.

    Parameters
    ----------
    tree : Tree or tuple
        A :class:`Tree` or the nested form ``(label, (child, ...))``.

    Returns
    -------
    int
        The number of nodes, the root included.

    References
    ----------
    Skjaerholt, A. (2014). A chance-corrected measure of inter-annotator agreement for syntax.
    Proceedings of ACL 2014, pp. 934-944. Section 2: a size ``|x|`` in the diff and norm
    distances (for a bare tree, :func:`~clusteragree.trees.tree_alpha` counts its nodes).

    docs/trees.md, "Tree alpha".

    Examples
    --------
    S, NP and VP:

    >>> size(("S", (("NP", ()), ("VP", ()))))
    3

    Skjaerholt (2014), Figure 1, "I saw the man": the root, Pred, Subj, Obj and Det, so 5 (the
    four words and the artificial root):

    >>> size(("", (("Pred", (("Subj", ()), ("Obj", (("Det", ()),)))),)))
    5
    """
    return len(as_tree(tree))


def leaves(tree: TreeLike) -> int:
    """Number of leaves.

    Parameters
    ----------
    tree : Tree or tuple
        A :class:`Tree` or the nested form ``(label, (child, ...))``.

    Returns
    -------
    int
        The number of nodes without children (a tree of one node has one leaf).

    References
    ----------
    Skjaerholt, A. (2014). A chance-corrected measure of inter-annotator agreement for syntax.
    Proceedings of ACL 2014, pp. 934-944. Section 2: for phrase-structure trees the size
    ``|x|`` of the diff and norm distances is the number of leaves.

    docs/trees.md, "Tree alpha".

    Examples
    --------
    ``(S (NP D N) (VP V))`` has the leaves D, N and V; its nodes S, NP and VP are not leaves:

    >>> leaves(("S", (("NP", (("D", ()), ("N", ()))), ("VP", (("V", ()),)))))
    3
    >>> leaves(("S", ()))
    1
    """
    return as_tree(tree).leaves


@dataclass(frozen=True)
class Sentence:
    """One annotated sentence: its tree, and for dependencies the words, heads and relations.

    Two annotators' sentences are equal when their annotations are (the file and line, where
    the reader found the sentence, are not compared). A tree in the nested form is converted.
    ``tokens`` is the reference code's size of a dependency sentence: the words plus the
    artificial root, words left out of the tree by ``cycles="drop"`` included.

    Attributes
    ----------
    tree : Tree
        The tree compared by tree alpha (given as a :class:`Tree` or the nested form). For
        dependencies: the artificial root labelled ``""`` and one node per word labelled with
        its relation, children in surface order.
    words : tuple of str, default=()
        The word forms (dependencies); empty for phrase structure.
    heads : tuple of int, default=()
        Each word's head, 0 for the artificial root; one per word.
    deprels : tuple of str, default=()
        Each word's relation; one per word.
    line : int or None, default=None
        The line where the sentence starts in its file (not compared).
    brackets : frozenset of (str, int, int), default=frozenset()
        Phrase structure: the labelled brackets ``(label, first leaf, end leaf)``, compared by
        the bracket Jaccard of :func:`~clusteragree.trees.accuracies`.
    path : str or None, default=None
        The file the sentence was read from (not compared).
    sent_id : str or None, default=None
        Its ``# sent_id`` comment in a CoNLL-U file (not compared); the sentence's name where
        :func:`~clusteragree.trees.read_tree_annotations` names sentences.
    tokens : int
        ``len(words) + 1`` (property).

    Raises
    ------
    ParameterTypeError
        A tree that is neither a :class:`Tree` nor the nested form.
    ParameterError
        ``heads`` or ``deprels`` not one per word.

    References
    ----------
    Skjaerholt, A. (2014). A chance-corrected measure of inter-annotator agreement for syntax.
    Proceedings of ACL 2014, pp. 934-944. Section 2 and Figure 1: a dependency analysis as a
    tree whose nodes are labelled with the relations, the root with the empty label.

    docs/trees.md, "Trees".

    Examples
    --------
    Skjaerholt (2014), Figure 1, "I saw the man": "saw" is the root (head 0, Pred), "I" its
    subject and "man" its object (head 2), "the" the determiner of "man" (head 4):

    >>> s = Sentence(("", (("Pred", (("Subj", ()), ("Obj", (("Det", ()),)))),)),
    ...              words=("I", "saw", "the", "man"), heads=(2, 0, 4, 2),
    ...              deprels=("Subj", "Pred", "Det", "Obj"), line=1, path="a.conll")
    >>> s.tree, s.tokens
    (Tree('(_ (Pred Subj (Obj Det)))'), 5)

    Where a sentence was read is not part of the annotation:

    >>> s == Sentence(s.tree, s.words, s.heads, s.deprels, line=7, path="b.conll")
    True
    """

    tree: Tree
    words: tuple[str, ...] = ()
    heads: tuple[int, ...] = ()
    deprels: tuple[str, ...] = ()
    line: int | None = field(default=None, compare=False)
    brackets: frozenset[tuple[str, int, int]] = frozenset()

    path: str | None = field(default=None, compare=False)
    sent_id: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.tree, Tree):  # the nested form, converted (or refused)
            object.__setattr__(self, "tree", as_tree(self.tree))
        if len(self.heads) != len(self.words) or len(self.deprels) != len(self.words):
            raise ParameterError("a dependency Sentence needs one head and one relation per "
                                 f"word: {len(self.words)} words, {len(self.heads)} heads, "
                                 f"{len(self.deprels)} relations")

    @property
    def tokens(self) -> int:
        """Words + 1 for the artificial root (dependencies)."""
        return len(self.words) + 1


@dataclass(frozen=True)
class TreeFile:
    """The sentences of one file, and what was skipped.

    Attributes
    ----------
    sentences : tuple of Sentence
        The sentences in file order.
    path : str
        The file.
    kind : {"dependency", "phrase"}
        CoNLL dependencies (:func:`~clusteragree.trees.read_conll_trees`) or bracketed trees
        (:func:`~clusteragree.trees.read_trees`).
    skipped : dict of str to int, default={}
        What the reader left out or kept as it was, with counts, e.g.
        ``{"multiword-token lines": 2}``.

    References
    ----------
    docs/trees.md, "Trees" and "Errors and repairs".

    Examples
    --------
    Two one-word dependency sentences, the word being the root each time:

    >>> one = Sentence(("", (("Pred", ()),)), ("Go",), (0,), ("Pred",))
    >>> tf = TreeFile((one, one), "a.conll", "dependency")
    >>> len(tf.sentences), tf.kind, tf.skipped
    (2, 'dependency', {})
    """

    sentences: tuple[Sentence, ...]
    path: str
    kind: str
    skipped: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class TreeAnnotations:
    """Several annotators' sentences: ``sentences[annotator][unit]``, units being the
    sentences' names (their ``# sent_id``, or their number from 1) in paired files, or
    ``"prefix/name"`` in the directory layout; what the readers skipped, by file.

    Built by :func:`~clusteragree.trees.read_tree_annotations`; the input of
    :func:`~clusteragree.trees.tree_table` (hence tree alpha) and of the accuracies.

    Attributes
    ----------
    sentences : dict
        ``annotator -> {unit: Sentence}``; a unit missing for an annotator is a missing
        annotation.
    kind : {"dependency", "phrase"}
        The kind of every sentence.
    skipped : dict of str to dict of str to int
        ``file -> {what: count}``, for the files where the reader skipped anything.
    n_annotations : int
        The number of sentences over all annotators (property).

    References
    ----------
    Skjaerholt, A. (2014). A chance-corrected measure of inter-annotator agreement for syntax.
    Proceedings of ACL 2014, pp. 934-944: units are sentences, values the annotators' trees.

    docs/trees.md, "Accuracies" (``read_tree_annotations``).

    Examples
    --------
    Annotator A annotated sentences 0 and 1, B only sentence 0: 2 + 1 = 3 annotations.

    >>> one = Sentence(("", (("Pred", ()),)), ("Go",), (0,), ("Pred",))
    >>> ann = TreeAnnotations({"A": {0: one, 1: one}, "B": {0: one}}, "dependency", {})
    >>> ann.n_annotations
    3
    """

    sentences: dict[str, dict[Any, Sentence]]
    kind: str
    skipped: dict[str, dict[str, int]]

    @property
    def n_annotations(self) -> int:
        """Number of annotated sentences over all annotators."""
        return sum(len(s) for s in self.sentences.values())


def check_paired(files: Sequence[TreeFile]) -> None:
    """Refuse files of one text that do not hold the same number of sentences.

    Parameters
    ----------
    files : sequence of TreeFile
        The annotators' files of one text; each is compared with the first.

    Returns
    -------
    None
        When every file holds as many sentences as the first.

    Raises
    ------
    InputError
        Naming the first file whose number of sentences differs.

    References
    ----------
    docs/trees.md, "Accuracies" (paired files and ``--dirs``): the files of one text hold the
    same sentences, aligned by position.

    Examples
    --------
    ``a.conll`` holds two sentences and ``b.conll`` one, so they cannot be aligned:

    >>> one = Sentence(("", (("Pred", ()),)), ("Go",), (0,), ("Pred",))
    >>> a = TreeFile((one, one), "a.conll", "dependency")
    >>> b = TreeFile((one,), "b.conll", "dependency")
    >>> check_paired([a, a])
    >>> check_paired([a, b])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: b.conll: 1 sentences where a.conll has 2; ...
    """
    for tf in files[1:]:
        if len(tf.sentences) != len(files[0].sentences):
            raise InputError(f"{len(tf.sentences)} sentences where {files[0].path} has "
                             f"{len(files[0].sentences)}; the files of one text must hold the "
                             "same sentences", path=tf.path)
