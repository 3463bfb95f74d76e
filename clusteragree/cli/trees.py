"""``clusteragree trees``: tree alpha and accuracies between annotators."""

# The library is imported inside the run functions, so that --help and usage errors stay
# fast (they need only argparse and the option lists).
from __future__ import annotations

import argparse
from typing import Any

from ..errors import UsageError
from ..trees.model import MAX_CELLS, METRICS, SIZES
from ._common import (
    Deprecated,
    add_common,
    check_names,
    command_signature,
    interval_method,
    print_json,
)


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
    trees.add_argument("--distance", type=_metric_list, default=["plain"],
                       help="comma-separated tree distances among plain, diff, norm, or all "
                       "(default: plain)")
    trees.add_argument("--metric", dest="distance", type=_metric_list, action=Deprecated,
                       new="--distance", help=argparse.SUPPRESS)
    trees.add_argument("--metrics", type=_measure_list, default=["alpha"],
                       help="comma-separated among alpha (each --distance; always reported), "
                       "accuracy (LAS, UAS and label accuracy for dependencies, bracket "
                       "Jaccard for phrase structure: the mean over pairs of annotators per "
                       "sentence, weighted by sentence length, Skjaerholt 2014, eq. 3, with "
                       "every pair's pooled value in JSON), or all (default: alpha)")
    trees.add_argument("--acc", dest="metrics", action=Deprecated, nargs=0,
                       const=["alpha", "accuracy"], new="--metrics accuracy",
                       help=argparse.SUPPRESS)
    trees.add_argument("--size", choices=SIZES, default="auto",
                       help="|x| for the diff and norm distances: auto = words + root for "
                       "dependencies (words left out of a cycle count), leaves for bracketed "
                       "trees (default: %(default)s)")
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
    trees.add_argument("--max-cells", type=_positive, default=MAX_CELLS, metavar="N",
                       help="refuse a pair of different trees whose edit distance needs more "
                       "than N table cells ((n + 1)(m + 1) for trees of n and m nodes, 8 to 16 "
                       "bytes each) rather than exhaust memory (default: %(default)s)")
    trees.add_argument("--differences", action="store_true",
                       help="for every pair of annotators, the --worst K sentences where their "
                       "trees differ most: edit distance, normalised distance, the words "
                       "whose head or relation differs (or the brackets), both trees")
    add_common(trees, names=True, pairwise=True, interval=True, documents=False, diagnose=True)
    trees.set_defaults(run=_run_trees)


def _positive(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 18 or int(text) < 1:
        raise argparse.ArgumentTypeError(f"give a positive whole number; got {text!r}")
    return int(text)


def _metric_list(text: str) -> list[str]:
    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    if not names or any(n not in (*METRICS, "all") for n in names):
        raise argparse.ArgumentTypeError(
            f"give tree distances among {', '.join(METRICS)} or all; got {text!r}")
    return list(METRICS) if "all" in names else list(dict.fromkeys(names))


def _measure_list(text: str) -> list[str]:
    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    if not names or any(n not in ("alpha", "accuracy", "all") for n in names):
        raise argparse.ArgumentTypeError(
            f"give measures among alpha, accuracy or all; got {text!r}")
    return ["alpha", "accuracy"] if "all" in names else ["alpha", *names]


def _run_trees(args: argparse.Namespace) -> int:
    import pandas as pd

    from ..core.diagnostics import diagnostics
    from ..report.schema import diagnostic_records, envelope, records
    from ..report.text import diagnostic_sections, plural, text_report
    from ..trees.accuracy import accuracies, mean_pairwise_accuracy
    from ..trees.alpha import tree_alpha, tree_distance, tree_table
    from ..trees.differences import sentence_differences
    from ..trees.edit_distance import TreeCache
    from ..trees.naming import TreeNames
    from ..trees.readers import read_tree_annotations
    if args.dirs and args.files:
        raise UsageError("give paired files or --dirs, not both")
    if not args.dirs and len(args.files) < 2:
        raise UsageError("give two or more files, or --dirs")
    if args.dirs and len(args.dirs) < 2:
        raise UsageError(f"give two or more directories to --dirs, one per annotator; got "
                         f"{len(args.dirs)}")
    names = check_names(args.names, len(args.dirs or args.files))
    annotations = read_tree_annotations(
        args.files, dirs=args.dirs or (), names=names, roots=args.roots, cycles=args.cycles,
        words=args.words, encoding=args.encoding, input_format=args.input_format)
    args.tree_annotations = annotations  # the report draws the sentences without reading again
    if args.strict:  # refuse what validate calls an error, on the trees already read
        from ..incidents import refuse_errors
        from ..trees.checks import annotation_incidents
        refuse_errors(annotation_incidents(annotations, dirs=bool(args.dirs)))
    table = tree_table(annotations)
    metrics = args.distance
    cache = TreeCache(free_empty=not args.unit_root, max_cells=args.max_cells)
    args.tree_cache = cache  # the report's view reuses the edit distances already computed
    method = interval_method(args)
    results = [(m, tree_alpha(table, m, free_empty=not args.unit_root, size_by=args.size,
                              cache=cache, labelled=not args.unlabelled, ci=args.ci,
                              bootstrap=args.bootstrap, seed=args.seed, jobs=args.jobs,
                              interval=method))
               for m in metrics]
    pairs_of: list[tuple[str, str, Any]] = []  # (pair, metric, result)
    if args.pairwise and table.n_coders > 2:
        coders = list(table.coders)
        for i, a in enumerate(coders):
            for b in coders[i + 1:]:
                pair = table.select([a, b])
                for m in metrics:
                    pairs_of.append((f"{a} | {b}", m, tree_alpha(
                        pair, m, free_empty=not args.unit_root, size_by=args.size,
                        cache=cache, labelled=not args.unlabelled, ci=args.ci,
                        bootstrap=args.bootstrap, seed=args.seed, jobs=args.jobs,
                        interval=method)))
    found: dict[str, Any] = {}
    if args.diagnostics:  # the sentences that disagree most under each distance asked for
        chosen = [tree_distance(table, m, free_empty=not args.unit_root, size_by=args.size,
                                cache=cache, labelled=not args.unlabelled) for m in metrics]
        naming = TreeNames(annotations.sentences)
        found = diagnostics(chosen[0][0], [d for _, d in chosen], worst=args.worst,
                            categorical=False, describe_unit=naming.unit,
                            describe_value=naming.value)
    differences: list[tuple[str, str, Any]] = []
    if args.differences:
        annotators = list(annotations.sentences)
        for i, a in enumerate(annotators):
            for b in annotators[i + 1:]:
                differences.append((a, b, sentence_differences(
                    annotations, a, b, free_empty=not args.unit_root, cache=cache
                ).head(args.worst)))
    entries: list[dict[str, Any]] = [
        {"metric": m, "value": r.alpha, "D_o": r.D_o, "D_e": r.D_e, "n": r.n,
         "signature": r.signature} for m, r in results]
    if "accuracy" in args.metrics:
        mean = mean_pairwise_accuracy(annotations)
        pairs = accuracies(annotations)
        cols = ["las", "uas", "la"] if annotations.kind == "dependency" else ["jaccard"]
        for c in cols:
            entries.append({"metric": c, "value": mean[c], "sentences": mean["sentences"],
                            "ignored": mean["ignored"],
                            "pairs": pairs[["a", "b", c]].to_dict("records")})
    if args.format == "json":
        alphas = [{"kind": "alpha", "document": None, "pooled": True, **r.as_dict(),
                   **({"pair": "all"} if pairs_of else {})} for _, r in results]
        alphas += [{"kind": "alpha", "document": None, "pooled": True, **r.as_dict(),
                    "pair": pair} for pair, _, r in pairs_of]
        accuracy = [{"kind": "accuracy", **e} for e in entries[len(results):]]
        print_json(envelope("trees", args.dirs or args.files, command_signature(args),
                            [*alphas, *accuracy, *diagnostic_records(found),
                             *[{**_difference(rec), "first": a, "second": b,
                                "sentence": str(rec["sentence"])}
                               for a, b, frame_ab in differences
                               for rec in records(frame_ab, "sentence_difference")]],
                            {"skipped": annotations.skipped,
                             "ted_cache": {"hits": cache.hits, "misses": cache.misses}}))
        return 0
    frame = pd.DataFrame(entries)[["metric", "value"]]
    if args.format == "csv":
        print(frame.to_csv(index=False, float_format="%.10g").rstrip("\n"))
        return 0
    first = results[0][1]
    headline = ("tree alpha (Skjaerholt 2014): "
                + ", ".join(f"{m} {_figure(r.alpha)}{_interval(r)}" for m, r in results)
                + _how(results)
                + f" ({plural(first.coders, 'annotator')}, {plural(first.units, 'sentence')})")
    accuracy = entries[len(results):]
    if accuracy:
        headline += ("\naccuracy (the mean over pairs of annotators per sentence, weighted by "
                     "its length): " + ", ".join(f"{_ACCURACY[e['metric']]} {_figure(e['value'])}"
                                                 for e in accuracy))
    sections: list[tuple[str | None, Any]] = [(None, frame)]
    if pairs_of:
        by_pair = pd.DataFrame([{"pair": pair, "metric": m, "alpha": r.alpha}
                                for pair, m, r in pairs_of]).pivot(
            index="pair", columns="metric", values="alpha")[list(metrics)].reset_index()
        sections.append(("tree alpha of every pair of annotators", by_pair))
    sections += diagnostic_sections(found)
    for a, b, frame_ab in differences:
        sections.append((f"sentences where {a} and {b} differ most", frame_ab))
    print(text_report(headline, sections, [f"{r.distance}: {r.signature}"
                                           for _, r in results], digits=6))
    return 0


def _difference(record: dict[str, Any]) -> dict[str, Any]:
    """A sentence_difference record without the fields its sentence has not (the word by word
    ones where two annotations are tokenised differently), counts as whole numbers."""
    out = {}
    for key, value in record.items():
        if (value is None or value != value) and key not in ("ted", "norm", "words"):
            continue  # None or NaN
        if isinstance(value, float) and key in _COUNTS and value.is_integer():
            value = int(value)
        out[key] = value
    return out


_COUNTS = ("words", "attachments", "labels", "brackets_only_first", "brackets_only_second")
_ACCURACY = {"las": "LAS", "uas": "UAS", "la": "label accuracy", "jaccard": "bracket Jaccard"}


def _interval(result: Any) -> str:
    found = result.uncertainty
    if not found:
        return ""
    low, high = found["ci"]
    p = found["p_below"]
    return (f" [{_figure(low)}, {_figure(high)}; P(<0.667) {_figure(p['0.667'])}, "
            f"P(<0.8) {_figure(p['0.8'])}]")


def _how(results: list[tuple[str, Any]]) -> str:
    """`` (95% BCa bootstrap over 120 sentences, 1000 resamples)``: how the intervals were
    drawn (the methods of all, when BCa was not usable for some)."""
    from ..core.intervals import INTERVALS, describe
    found = [r.uncertainty["bootstrap"] for _, r in results if r.uncertainty]
    if not found:
        return ""
    methods = "/".join(sorted({f["method"] for f in found}, key=INTERVALS.index))
    return " (" + describe(found[0]["level"], methods, found[0]["n"], "sentences",
                           found[0]["resampled"]) + ")"


def _figure(value: float) -> str:
    return "undefined" if value != value else f"{value:.4f}"
