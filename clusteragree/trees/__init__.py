"""Syntax trees: the flat tree, the CoNLL-U and bracketed readers, the tree edit distance, tree
alpha and the accuracies.

Names are loaded on first use (the command line starts without numpy and pandas)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:
    from .accuracy import accuracies, mean_pairwise_accuracy
    from .alpha import tree_alpha, tree_distance, tree_table, unlabelled
    from .differences import sentence_differences
    from .edit_distance import TreeCache, ted
    from .model import (
        MAX_CELLS,
        METRICS,
        SIZES,
        Sentence,
        Tree,
        TreeAnnotations,
        TreeFile,
        TreeLike,
        as_tree,
        check_paired,
        leaves,
        size,
    )
    from .readers import (
        parse_brackets,
        read_conll_trees,
        read_tree_annotations,
        read_tree_dirs,
        read_trees,
    )

_WHERE = {
    'sentence_differences': '.differences',
    'MAX_CELLS': '.model',
    'METRICS': '.model',
    'SIZES': '.model',
    'Sentence': '.model',
    'Tree': '.model',
    'TreeAnnotations': '.model',
    'TreeCache': '.edit_distance',
    'TreeFile': '.model',
    'TreeLike': '.model',
    'accuracies': '.accuracy',
    'as_tree': '.model',
    'check_paired': '.model',
    'leaves': '.model',
    'mean_pairwise_accuracy': '.accuracy',
    'parse_brackets': '.readers',
    'read_conll_trees': '.readers',
    'read_tree_annotations': '.readers',
    'read_tree_dirs': '.readers',
    'read_trees': '.readers',
    'size': '.model',
    'ted': '.edit_distance',
    'tree_alpha': '.alpha',
    'tree_distance': '.alpha',
    'tree_table': '.alpha',
    'unlabelled': '.alpha',
}
__getattr__, __dir__ = attach(__name__, _WHERE)

__all__ = [
    'MAX_CELLS', 'METRICS', 'SIZES', 'Sentence', 'Tree', 'TreeAnnotations', 'TreeCache',
    'TreeFile', 'TreeLike', 'accuracies', 'as_tree', 'check_paired', 'leaves',
    'mean_pairwise_accuracy', 'parse_brackets', 'read_conll_trees', 'read_tree_annotations',
    'read_tree_dirs', 'read_trees', 'sentence_differences', 'size', 'ted', 'tree_alpha',
    'tree_distance', 'tree_table',
    'unlabelled'
]
