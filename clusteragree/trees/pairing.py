"""Paired files of the same sentences: the sentences' names, and where the annotators' files
disagree on what the sentences are.

Sentences are paired by position (the k-th sentence of every annotator's file of one text).
A sentence is named by its ``# sent_id`` (the first annotator's that gives one) or, where no
file gives one, by its number counted from 1. Two kinds of disagreement are reported as
``mismatch`` notices, each once per file with its first line and the number of sentences (the
file is the later annotator's, compared with the first annotator's file of the text):

* words: the sentence is tokenised differently (another number of words: ``loudly.`` against
  ``loudly`` ``.``), or has the same number of words with other forms;
* sent_ids: the sentence paired with it gives another ``# sent_id``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import InputError
from .findings import Findings
from .model import TreeFile

__all__ = ["TOKENISED", "WORDS_DIFFER", "compare_words", "name_sentences"]

#: The mismatch notice of sentences tokenised differently, and what is computed for them.
TOKENISED = ("sentences tokenised differently from those of {} (another number of words): "
             "tree alpha compares their trees as annotated, the accuracies and the word by "
             "word differences leave them out")
#: The mismatch notice of sentences with the same number of words but other forms.
WORDS_DIFFER = ("sentences whose words differ from those of {} (the same number of words): "
                "compared word by word, by position")
#: The mismatch notice of paired sentences whose sent_ids differ.
SENT_IDS_DIFFER = ("sentences whose # sent_id differs from that of the sentence paired with "
                   "them by position (named by the first annotator's)")


def name_sentences(files: Sequence[TreeFile], found: Findings) -> list[str]:
    """The name of each sentence of paired files: the first ``# sent_id`` given at its
    position, in the files' order, or its number from 1; sent_ids that differ are reported.

    Parameters
    ----------
    files : sequence of TreeFile
        The annotators' files of one text, holding the same number of sentences.
    found : Findings
        Receives a ``mismatch`` notice per file whose sent_ids differ from the names.

    Returns
    -------
    list of str
        One name per position.

    Raises
    ------
    InputError
        Two sentences of one text with the same name (a sent_id given twice, or a sent_id
        equal to the number of a sentence that has none), naming the file and both lines.

    References
    ----------
    Universal Dependencies, the CoNLL-U format (universaldependencies.org/format.html): every
    sentence's ``# sent_id``, unique in the treebank.

    docs/trees.md, "Sentences and their names".

    Examples
    --------
    >>> from clusteragree.trees import Sentence
    >>> def tf(path, *ids):
    ...     one = [Sentence(("", ()), ("Go",), (0,), ("Pred",), line=k, sent_id=i)
    ...            for k, i in enumerate(ids, start=1)]
    ...     return TreeFile(tuple(one), path, "dependency")
    >>> name_sentences([tf("a", None, None), tf("b", None, None)], Findings())
    ['1', '2']
    >>> name_sentences([tf("a", "s1", None), tf("b", "x1", "s2")], Findings())
    ['s1', 's2']
    """
    names: list[str] = []
    seen: dict[str, tuple[str | None, int | None]] = {}
    for k, paired in enumerate(zip(*(tf.sentences for tf in files), strict=True)):
        given = [s for s in paired if s.sent_id is not None]
        source = given[0] if given else paired[0]
        name = source.sent_id if source.sent_id is not None else str(k + 1)
        if name in seen:
            path, line = seen[name]
            raise InputError(f"two sentences of this text are named {name!r} (the other at "
                             f"{path}:{line}): sentences are named by their # sent_id, or "
                             "their number where they have none; give each a distinct sent_id",
                             path=source.path, line=source.line)
        seen[name] = (source.path, source.line)
        names.append(name)
        for s in given:
            if s.sent_id != name:
                found.note("mismatch", SENT_IDS_DIFFER, s.path, s.line)
    return names


def compare_words(files: Sequence[TreeFile], found: Findings) -> None:
    """Report the sentences of each file whose words differ from those of the first file
    (``mismatch``, once per file and kind with the first line and the number of sentences).

    Parameters
    ----------
    files : sequence of TreeFile
        The annotators' files of one text, holding the same number of sentences; bracketed
        trees have no words and are not compared.
    found : Findings
        Receives the notices.

    References
    ----------
    docs/trees.md, "Sentences and their names".

    Examples
    --------
    >>> from clusteragree.trees import Sentence
    >>> from clusteragree.errors import Ledger
    >>> a = Sentence(("", ()), ("loudly.",), (0,), ("Adv",), line=1, path="a.conll")
    >>> b = Sentence(("", ()), ("loudly", "."), (0, 1), ("Adv", "Punct"), line=1, path="b.conll")
    >>> found = Findings()
    >>> compare_words([TreeFile((a,), "a.conll", "dependency"),
    ...                TreeFile((b,), "b.conll", "dependency")], found)
    >>> with Ledger() as ledger:
    ...     found.flush()
    >>> [(n.kind, n.file, n.line, n.count) for n in ledger.notices]
    [('mismatch', 'b.conll', 1, 1)]
    """
    if not files or files[0].kind != "dependency":
        return
    reference = files[0]
    for tf in files[1:]:
        for mine, theirs in zip(reference.sentences, tf.sentences, strict=True):
            if mine.words == theirs.words:
                continue
            message = TOKENISED if len(mine.words) != len(theirs.words) else WORDS_DIFFER
            found.note("mismatch", message.format(reference.path), tf.path, theirs.line)
