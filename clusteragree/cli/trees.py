"""``clusteragree trees``: tree alpha and accuracies between annotators."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import pandas as pd

from ..errors import ParameterError
from ..model import unique_labels
from ..readers.trees import read_conll_trees, read_tree_dirs, read_trees
from ..report import FORMATS
from ..ted import TreeCache
from ..treealpha import accuracies, tree_alpha, tree_table


def register(sub: Any) -> None:
    """Add the subcommand to the parser."""
    trees = sub.add_parser(
        "trees", help="tree alpha (tree edit distance) and accuracies between annotators",
        description="Krippendorff's alpha over sentences with squared tree edit distance "
        "(Skjaerholt 2014), for paired files of the same sentences (CoNLL-X/CoNLL-U "
        "dependencies, or bracketed trees in .tree files) or --dirs, one directory per "
        "annotator with files matched by name prefix.",
    )
    trees.add_argument("files", nargs="*", help="two or more files of the same sentences")
    trees.add_argument("--dirs", nargs="+", help="one directory per annotator")
    trees.add_argument("--metric", choices=("plain", "diff", "norm", "all"), default="plain",
                       help="distance (default: %(default)s)")
    trees.add_argument("--acc", action="store_true",
                       help="also LAS, UAS and label accuracy (dependencies) or bracket "
                       "Jaccard (phrase structure), for every pair of annotators")
    trees.add_argument("--words", action="store_true",
                       help="bracketed trees have words (bare tokens are words, not leaves)")
    trees.add_argument("--roots", choices=("one", "many"), default="one",
                       help="dependency sentences with several words headed by 0: refuse "
                       "(one) or keep under the artificial root (many) (default: %(default)s)")
    trees.add_argument("--cycles", choices=("error", "drop"), default="error",
                       help="words whose heads form a cycle: refuse, or leave them out "
                       "(default: %(default)s)")
    trees.add_argument("--unlabelled", action="store_true",
                       help="compare the structure alone (every relation label the same)")
    trees.add_argument("--unit-root", action="store_true",
                       help="the empty-labelled root costs 1 to insert or delete (default: 0, "
                       "the reproduction convention)")
    trees.add_argument("-f", dest="format", choices=FORMATS, default="text",
                       help="output format (default: %(default)s)")
    trees.set_defaults(run=_run_trees)


def _run_trees(args: argparse.Namespace) -> int:
    if args.dirs:
        by_prefix = read_tree_dirs(args.dirs, roots=args.roots, cycles=args.cycles)
        annotations: dict[str, dict[Any, Any]] = {}
        files_for_acc = None
        kind = "dependency"
        for prefix, files in by_prefix.items():
            for annotator, tf in files.items():
                kind = tf.kind
                for k, sentence in enumerate(tf.sentences):
                    annotations.setdefault(annotator, {})[(prefix, k)] = sentence.tree
    else:
        if len(args.files) < 2:
            raise ParameterError("give two or more files, or --dirs")
        names = unique_labels(args.files)
        read = [read_trees(f, words=args.words) if f.endswith(".tree")
                else read_conll_trees(f, roots=args.roots, cycles=args.cycles)
                for f in args.files]
        for tf in read:
            for what, count in tf.skipped.items():
                print(f"{tf.path}: skipped {count} {what}", file=sys.stderr)
        annotations = {n: {k: s.tree for k, s in enumerate(tf.sentences)}
                       for n, tf in zip(names, read, strict=True)}
        files_for_acc = dict(zip(names, read, strict=True))
        kind = read[0].kind
    table = tree_table(annotations)
    metrics = ["plain", "diff", "norm"] if args.metric == "all" else [args.metric]
    cache = TreeCache(free_empty=not args.unit_root)
    size_by = "nodes" if kind == "dependency" else "leaves"
    results = [(m, tree_alpha(table, m, free_empty=not args.unit_root, size_by=size_by,
                              cache=cache, labelled=not args.unlabelled)) for m in metrics]
    entries = [{"metric": m, "value": r.alpha, "D_o": r.D_o, "D_e": r.D_e, "n": r.n,
                "signature": r.signature} for m, r in results]
    if args.acc:
        if files_for_acc is None:
            raise ParameterError("--acc needs paired files (not --dirs)")
        acc = accuracies(files_for_acc)
        cols = ["las", "uas", "la"] if kind == "dependency" else ["jaccard"]
        for c in cols:
            entries.append({"metric": c, "value": float(acc[c].mean()),
                            "pairs": acc[["a", "b", c]].to_dict("records")})
    if args.format == "json":
        print(json.dumps({"command": "trees", "results": entries,
                          "ted_cache": {"hits": cache.hits, "misses": cache.misses}},
                         indent=2, default=str))
        return 0
    frame = pd.DataFrame(entries)[["metric", "value"]]
    if args.format == "csv":
        print(frame.to_csv(index=False, float_format="%.10g").rstrip("\n"))
    else:
        print(frame.to_string(index=False, float_format=lambda x: f"{x:.6f}"))
        for _, r in results:
            print(f"{r.distance}: {r.signature}")
    return 0
