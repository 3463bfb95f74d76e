"""Command line: ``clusteragree SUBCOMMAND ...``; wiring only, the work is in the library.

Results go to stdout, warnings and errors to stderr. Exit status: 0 success, 1 bad input
(the message starts with ``FILE:LINE:``), 2 bad usage.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import warnings
from collections.abc import Sequence
from typing import Any

import pandas as pd

from ._version import __version__
from .coref_agreement import coref_alpha, coref_metrics
from .coref_metrics import METRICS
from .distances import DISTANCES, get_distance
from .errors import ClusterAgreeError, InputError, ParameterError
from .model import unique_labels
from .multilabel import measures_table, read_multilabel
from .pyramid_agreement import pan_agreement, pan_scores, pyramid_agreement
from .readers.brat import read_brat_dir
from .readers.conll import read_conll
from .readers.corefud import read_corefud
from .readers.table import read_long_table
from .readers.trees import read_conll_trees, read_tree_dirs, read_trees
from .report import FORMATS, alpha_report, render
from .result import format_signature
from .ted import TreeCache
from .treealpha import accuracies, tree_alpha, tree_table
from .units import TOKENIZERS

NUMERIC = {"interval", "ratio", "ordinal"}


def _distance_list(text: str) -> list[str]:
    names = [t.strip() for t in text.split(",") if t.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give at least one distance")
    try:
        return [get_distance(name).name for name in names]
    except ParameterError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _add_output(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-f", "--format", choices=FORMATS,
        default=os.environ.get("CLUSTERAGREE_FORMAT", "text")
        if os.environ.get("CLUSTERAGREE_FORMAT") in FORMATS else "text",
        help="output format (default: %(default)s; env CLUSTERAGREE_FORMAT)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``clusteragree`` command."""
    parser = argparse.ArgumentParser(
        prog="clusteragree",
        description="Inter-annotator agreement on clusters, label sets and trees.",
    )
    parser.add_argument("--version", action="version", version=f"clusteragree {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    table = sub.add_parser(
        "table", help="Krippendorff's alpha of a long CSV of codings",
        description="Alpha of a long CSV with the header coder,unit,labels (and optionally "
        "document): one row per coder and unit; labels separated by --sep; an empty labels "
        "field is the empty set; a (coder, unit) pair without a row is missing.",
    )
    table.add_argument("file", help="CSV file, or - for standard input")
    table.add_argument("--sep", default=";", help="label separator (default: %(default)s)")
    table.add_argument(
        "--distance", type=_distance_list, default=["nominal", "jaccard", "masi"],
        help="comma-separated distances among " + ", ".join(DISTANCES)
        + " (default: nominal,jaccard,masi)",
    )
    table.add_argument(
        "--scalar", action="store_true",
        help="one value per field instead of a set (needed for interval, ratio, ordinal)",
    )
    table.add_argument("--engine", choices=("auto", "classes", "generic"), default="auto",
                       help="alpha engine (default: %(default)s)")
    table.add_argument("--no-per-doc", dest="per_doc", action="store_false",
                       help="with a document column, print only the pooled TOTAL rows")
    table.add_argument(
        "--measures", default="all",
        help="multi-label files (header item,annotator,label[,rank] or .json): comma-separated "
        "among kappa (augmented kappa at each --p), am (A_m), alpha (each --distance), "
        "mvalpha, or all (default: %(default)s)")
    table.add_argument("--p", default="0.5,0.75,1", help="primary weights for augmented kappa "
                       "(default: %(default)s)")
    table.add_argument("--categories", help="A_m: the scheme's categories, comma-separated "
                       "(default: the labels used)")
    _add_output(table)
    table.set_defaults(run=_run_table)

    pyr = sub.add_parser(
        "pyramid", help="alpha between pyramids of the same model summaries",
        description="Alpha between two or more DUCView pyramids (.pyr) built independently over "
        "the same model summaries. A unit's value is the set of other units in its SCU(s).",
    )
    pyr.add_argument("files", nargs="+", help="two or more .pyr files")
    _add_pyramid_options(pyr)
    pyr.add_argument("--units", choices=("words", "spans", "contributors"), default="words",
                     help="coding units (default: %(default)s)")
    pyr.add_argument("--overlap", choices=("union", "component"), default="union",
                     help="a unit in several SCUs: union of their units, or their connected "
                     "component (default: %(default)s)")
    pyr.add_argument("--unmarked", choices=("empty", "missing"), default="empty",
                     help="a unit in no SCU: the empty set, or missing (default: %(default)s)")
    pyr.set_defaults(run=_run_pyramid)

    pan = sub.add_parser(
        "pan", help="agreement between peer annotators (.pan), scores and their correlation",
        description="Several annotators' .pan files of the same peers against the same pyramid, "
        "named ANNOTATOR.DOCSET.M.LEN.SEL.PEER.pan. Alpha over peer tokens (value: the SCUs "
        "covering the token), pooled over peers; each annotator's original and modified pyramid "
        "scores; Pearson and Spearman correlations between annotators' scores.",
    )
    pan.add_argument("files", nargs="+", help=".pan files of two or more annotators")
    _add_pyramid_options(pan)
    pan.add_argument("--no-nonmatching", dest="nonmatching", action="store_false",
                     help="leave out SCU uid 0 (DUCView's bucket of non-matching content)")
    pan.add_argument("--scores", action="store_true",
                     help="also print each annotator's scores per peer (text and csv formats)")
    pan.set_defaults(run=_run_pan)

    coref = sub.add_parser(
        "coref", help="agreement between coreference annotators: alpha and MUC, B3, CEAF, "
        "BLANC, LEA",
        description="Two or more annotations of the same documents (CoNLL-2011/2012, "
        "SemEval-2010, CorefUD CoNLL-U, or BRAT directories). Alpha over mentions or words "
        "(a unit's value: its chain minus itself), per document and pooled; the standard "
        "metrics for every ordered pair of annotators.",
    )
    coref.add_argument("files", nargs="+",
                       help="two or more annotation files (CoNLL) or directories of .ann (BRAT)")
    coref.add_argument(
        "--distance", type=_distance_list, default=["nominal", "jaccard", "masi"],
        help="comma-separated distances (default: nominal,jaccard,masi)")
    coref.add_argument("--units", choices=("mentions", "words"), default="mentions",
                       help="coding units (default: %(default)s)")
    coref.add_argument("--metrics", type=_metric_list, default=["alpha", *METRICS],
                       help="comma-separated among alpha," + ",".join(METRICS)
                       + " (default: all)")
    coref.add_argument("--unmarked", choices=("empty", "missing"), default="empty",
                       help="a mention another annotator did not mark: the empty set, or "
                       "missing (default: %(default)s)")
    coref.add_argument("--word-policy", choices=("innermost", "outermost", "head"),
                       default="innermost", help="the mention a word takes its chain from "
                       "(default: %(default)s)")
    coref.add_argument("--format", dest="input_format",
                       choices=("auto", "conll", "corefud", "brat"), default="auto",
                       help="input format; auto: a directory is BRAT, a .conllu file CorefUD, "
                       "any other file CoNLL (default: %(default)s)")
    coref.add_argument("--text-dir", help="BRAT: the directory of the .txt files (default: "
                       "beside the .ann files)")
    coref.add_argument("--lenient", action="store_true",
                       help="repair what can be repaired (each repair is reported)")
    coref.add_argument("--per-doc", action="store_true", help="print alpha per document too")
    coref.add_argument("--pairwise", action="store_true",
                       help="with three or more annotators, alpha for every pair as well")
    coref.add_argument(
        "-f", dest="format", choices=FORMATS, default="text",
        help="output format (default: %(default)s)")
    coref.set_defaults(run=_run_coref)

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
    return parser


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


def _metric_list(text: str) -> list[str]:
    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    bad = [n for n in names if n not in ("alpha", *METRICS)]
    if bad or not names:
        raise argparse.ArgumentTypeError(
            f"metrics must be among alpha,{','.join(METRICS)}; got {text!r}")
    return names


def _run_coref(args: argparse.Namespace) -> int:
    if len(args.files) < 2:
        raise ParameterError("give the annotations of at least two annotators")
    corpora = [_read_coref(f, args) for f in args.files]
    for c in corpora:
        for what, count in c.repairs.items():
            print(f"{c.path}: repaired: {count} x {what}", file=sys.stderr)
    names = unique_labels(args.files)
    metric_names = [m for m in args.metrics if m != "alpha"]
    frame = (coref_alpha(corpora, args.distance, units=args.units, unmarked=args.unmarked,
                         word_policy=args.word_policy, coders=names, lenient=args.lenient,
                         pairwise=args.pairwise)
             if "alpha" in args.metrics else None)
    scores = (coref_metrics(corpora, metric_names, coders=names, lenient=args.lenient)
              if metric_names else None)
    header = {"command": "coref", "files": list(args.files), "units": args.units}
    if args.format == "json":
        obj = json.loads(render(frame, "json", header=header)) if frame is not None else {
            **header, "results": []}
        if scores is not None:
            obj["results"] += json.loads(scores.to_json(orient="records"))
        print(json.dumps(obj, indent=2))
        return 0
    if frame is not None:
        shown = frame if args.per_doc else frame[frame["document"] == "TOTAL"]
        print(render(shown, args.format, header=header))
    if scores is not None:
        if args.format == "csv":
            print(scores.to_csv(index=False, float_format="%.10g").rstrip("\n"))
        else:
            print()
            print(scores[["key", "response", "metric", "recall", "precision", "f1"]].to_string(
                index=False, float_format=lambda x: f"{x:.4f}"))
    return 0


def _read_coref(path: str, args: argparse.Namespace) -> Any:
    kind = args.input_format
    if kind == "auto":
        kind = ("brat" if os.path.isdir(path)
                else "corefud" if path.endswith(".conllu") else "conll")
    if kind == "brat":
        return read_brat_dir(path, args.text_dir)
    if kind == "corefud":
        return read_corefud(path, lenient=args.lenient)
    return read_conll(path, lenient=args.lenient)




def _add_pyramid_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--distance", type=_distance_list, default=["nominal", "jaccard", "masi"],
        help="comma-separated distances (default: nominal,jaccard,masi)")
    parser.add_argument("--tokenizer", choices=sorted(TOKENIZERS), default="ws",
                        help="word tokeniser (default: %(default)s)")
    parser.add_argument("--strict", action="store_true",
                        help="refuse files that need repairs instead of repairing them")
    _add_output(parser)


def _report_files(repairs: dict[str, dict[str, int]], notes: dict[str, dict[str, int]]) -> None:
    for path, done in repairs.items():
        for what, count in done.items():
            print(f"{path}: repaired: {count} x {what}", file=sys.stderr)
    for path, seen in notes.items():
        for what, count in seen.items():
            print(f"{path}: note: {count} {what} (kept as annotated)", file=sys.stderr)


def _run_pyramid(args: argparse.Namespace) -> int:
    if len(args.files) < 2:
        raise ParameterError("give at least two .pyr files")
    frame = pyramid_agreement(args.files, args.units, args.distance, tokenizer=args.tokenizer,
                              overlap=args.overlap, unmarked=args.unmarked, strict=args.strict)
    _report_files(frame.attrs.get("repairs", {}), frame.attrs.get("notes", {}))
    header = {"command": "pyramid", "files": list(args.files), "units": args.units,
              "repairs": frame.attrs.get("repairs", {}), "notes": frame.attrs.get("notes", {})}
    print(render(frame, args.format, header=header))
    return 0


def _run_pan(args: argparse.Namespace) -> int:
    frame, _ = pan_agreement(args.files, args.distance, tokenizer=args.tokenizer,
                                 nonmatching=args.nonmatching, strict=args.strict)
    scores, corr = pan_scores(args.files, strict=args.strict)
    header = {"command": "pan", "files": len(args.files), "peers": int(scores["peer"].nunique())}
    if args.format == "json":
        obj = json.loads(render(frame, "json", header=header))
        obj["correlations"] = json.loads(corr.to_json(orient="records"))
        obj["scores"] = json.loads(scores.to_json(orient="records"))
        print(json.dumps(obj, indent=2))
        return 0
    print(render(frame, args.format, header=header))
    if args.format == "csv":
        print(corr.to_csv(index=False, float_format="%.10g").rstrip("\n"))
        if args.scores:
            print(scores.to_csv(index=False, float_format="%.10g").rstrip("\n"))
        return 0
    print("\ncorrelation of annotators' pyramid scores over peers")
    print(corr.to_string(index=False, float_format=lambda x: f"{x:.4g}"))
    if args.scores:
        print()
        print(scores.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
    return 0


def _is_multilabel(path: str) -> bool:
    if path.endswith(".json"):
        return True
    if path == "-":
        return False
    try:
        with open(path, encoding="utf-8-sig") as handle:
            head = handle.readline().strip().lower().replace(" ", "")
    except (OSError, UnicodeDecodeError):
        return False
    return head.startswith("item,annotator,label")


def _run_multilabel(args: argparse.Namespace) -> int:
    data = read_multilabel(args.file)
    wanted = {m.strip().lower() for m in args.measures.split(",")}
    known = {"all", "kappa", "am", "alpha", "mvalpha"}
    if not wanted <= known:
        raise ParameterError(f"--measures must be among {sorted(known)}; got {args.measures!r}")
    try:
        ps = tuple(float(x) for x in args.p.split(","))
    except ValueError:
        raise ParameterError(f"--p must be numbers such as 0.5,1; got {args.p!r}") from None
    cats = args.categories.split(",") if args.categories else None
    frame = measures_table(data, ps=ps, distances=tuple(args.distance), categories=cats)
    keep = frame["measure"].map(lambda m: "all" in wanted or (
        ("kappa" in wanted and m.startswith("K'")) or ("am" in wanted and m.startswith("A_m"))
        or ("alpha" in wanted and m.startswith("alpha")) or ("mvalpha" in wanted
                                                             and m == "mv-alpha")))
    frame = frame[keep]
    if args.format == "json":
        print(json.dumps({"command": "table", "file": args.file, "items": len(data.items),
                          "annotators": [str(a) for a in data.annotators],
                          "results": json.loads(frame.to_json(orient="records"))}, indent=2))
    elif args.format == "csv":
        print(frame.to_csv(index=False, float_format="%.10g").rstrip("\n"))
    else:
        print(frame.drop(columns=["note"]).to_string(index=False, float_format=lambda x:
                                                     f"{x:.6f}"))
    return 0


def _run_table(args: argparse.Namespace) -> int:
    if _is_multilabel(args.file):
        return _run_multilabel(args)
    numeric = bool(NUMERIC & set(args.distance))
    if numeric and not args.scalar:
        raise ParameterError(
            f"the distances {sorted(NUMERIC & set(args.distance))} need --scalar values"
        )
    source: Any = sys.stdin if args.file == "-" else args.file
    data = read_long_table(source, sep=args.sep, scalar=args.scalar, numeric=numeric,
                           path="<stdin>" if args.file == "-" else args.file)
    for what, count in data.repairs.items():
        print(f"{data.path}: repaired {count} {what}", file=sys.stderr)
    tables: Any = data.tables
    if list(tables) == [None]:
        tables = tables[None]
    frame = alpha_report(tables, args.distance, engine=args.engine, per_document=args.per_doc)
    header = {
        "command": "table",
        "file": data.path,
        "rows": data.rows,
        "repairs": data.repairs,
        "signature": format_signature(
            "table", [("dist", ",".join(args.distance)), ("sep", args.sep),
                      ("values", "scalar" if args.scalar else "sets"), ("engine", args.engine)]),
    }
    print(render(frame, args.format, header=header))
    return 0


def _show_warning(message: Any, category: Any, *rest: Any, **kwargs: Any) -> None:
    print(f"warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``clusteragree`` command; returns the exit status."""
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    parser = build_parser()
    args = parser.parse_args(argv)
    warnings.showwarning = _show_warning
    try:
        return int(args.run(args))
    except InputError as err:
        print(f"{err}", file=sys.stderr)
        return 1
    except ParameterError as err:
        parser.error(str(err))
    except ClusterAgreeError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0  # pragma: no cover


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
