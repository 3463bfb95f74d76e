"""Syntax trees: the flat tree, the CoNLL-U and bracketed readers, the tree edit distance, tree
alpha and the accuracies."""

from __future__ import annotations

from .accuracy import accuracies, mean_pairwise_accuracy
from .alpha import METRICS, SIZES, tree_alpha, tree_table, unlabelled
from .edit_distance import MAX_CELLS, TreeCache, ted
from .model import (
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

__all__ = [
    'MAX_CELLS', 'METRICS', 'SIZES', 'Sentence', 'Tree', 'TreeAnnotations', 'TreeCache',
    'TreeFile', 'TreeLike', 'accuracies', 'as_tree', 'check_paired', 'leaves',
    'mean_pairwise_accuracy', 'parse_brackets', 'read_conll_trees', 'read_tree_annotations',
    'read_tree_dirs', 'read_trees', 'size', 'ted', 'tree_alpha', 'tree_table', 'unlabelled'
]
