"""``clusteragree coref``: agreement and the standard metrics between coreference annotators."""

# The library is imported inside the run functions, so that --help and usage errors stay
# fast (they need only argparse and the option lists).
from __future__ import annotations

import argparse
from typing import Any

from ..coref.model import CONLL_AVERAGE, METRICS
from ..errors import InputError, Ledger, Notice, UsageError
from ._common import (
    Deprecated,
    add_common,
    add_distance,
    check_names,
    command_signature,
    diagnostic_options,
    interval_method,
    interval_options,
    print_json,
)
from .exports import add_export_options, read_export_inputs
from .input_formats import EXPORTS, detect, input_formats


def register(sub: Any) -> None:
    """Add the subcommand to the parser."""
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
    add_distance(coref)
    coref.add_argument("--units", choices=("mentions", "words"), default="mentions",
                       help="coding units (default: %(default)s)")
    coref.add_argument("--metrics", type=_metric_list, default=["alpha", *METRICS, "conll"],
                       help="comma-separated among alpha," + ",".join(METRICS) + ",conll,"
                       "ualpha,f1,gamma, or all (mentions: mention identification; conll: the "
                       "mean F1 of muc, bcub and ceafe; ualpha: Krippendorff's unitizing alpha "
                       "of the mentions over the tokens, all annotators together; f1 and "
                       "gamma: the span measures of clusteragree spans on the mentions, their "
                       "chains left out: matching F1, exact and overlap, and Mathet et al.'s "
                       "gamma; all: every one of them) (default: every one but ualpha, f1 and "
                       "gamma)")
    coref.add_argument("--unmarked", choices=("empty", "missing"), default="empty",
                       help="a mention another annotator did not mark: the empty set, or "
                       "missing (default: %(default)s)")
    coref.add_argument("--word-policy", choices=("innermost", "outermost", "head"),
                       default="innermost", help="the mention a word takes its chain from "
                       "(default: %(default)s)")
    coref.add_argument("--text-dir", help="BRAT: the directory of the .txt files (default: "
                       "beside the .ann files)")
    coref.add_argument("--types", type=_names, default=None,
                       help="BRAT: comma-separated entity types read as mentions (default: "
                       "every type; the others are counted in the warnings)")
    coref.add_argument("--layer", default=None,
                       help="annotation tools' exports: the span layer of the mentions when "
                       "an export has several (default: the layers of its chains)")
    coref.add_argument("--chain-layer", dest="chain_layer", default=None,
                       help="annotation tools' exports: the chain layer, or the relation "
                       "layer whose relations link coreferent spans (default: the only one)")
    coref.add_argument("--pair-documents", dest="pair_documents", choices=("name", "order"),
                       default="name",
                       help="how the documents of the annotators are paired: by name, or the "
                       "k-th of every file together, named as the first file's (for files "
                       "that name one document differently, as INCEpTION's CoNLL-2012 export "
                       "does) (default: %(default)s)")
    coref.add_argument("--relations", type=_names, default=(),
                       help="BRAT: comma-separated relation types whose two arguments corefer "
                       "(joined to the * chains; other relations are counted)")
    coref.add_argument("--singletons", choices=("keep", "remove"), default="keep",
                       help="metrics: keep entities of one mention, or remove them on both "
                       "sides as the CoNLL-2012 evaluation does (default: %(default)s)")
    coref.add_argument("--lenient", action=Deprecated, nargs=0, const=True, default=False,
                       new="nothing (repairs are the default; --strict refuses them)",
                       help=argparse.SUPPRESS)
    coref.add_argument("--per-doc", action=argparse.BooleanOptionalAction, default=False,
                       help="alpha per document too (default: the pooled rows only)")
    coref.add_argument("--differences", action="store_true",
                       help="for every pair of annotators (the first as the key), where they "
                       "differ in the categories of Kummerfeld and Klein (2013): span errors, "
                       "missing and extra mentions and entities, divided and conflated "
                       "entities; counts (per document with --per-doc) and, in text, the "
                       "first --worst K of each category")
    coref.add_argument("--table", choices=("alpha", "metrics", "differences"), default=None,
                       help="-f csv/latex: the table to write (default: alpha when it is "
                       "computed, else metrics)")
    add_export_options(coref)
    add_common(coref, names=True, pairwise=True, interval=True, legacy_formats=INPUT_FORMATS)
    coref.set_defaults(run=_run_coref)


INPUT_FORMATS = input_formats("coref")


def _names(text: str) -> tuple[str, ...]:
    names = tuple(t.strip() for t in text.split(",") if t.strip())
    if not names:
        raise argparse.ArgumentTypeError("give at least one name")
    return names


#: What ``--metrics all`` names: every measure the command computes.
ALL_METRICS = ("alpha", *METRICS, "conll", "ualpha", "f1", "gamma")
#: The span measures of the mentions (clusteragree spans), chains left out.
SPAN_METRICS = ("f1", "gamma")


def _metric_list(text: str) -> list[str]:
    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    bad = [n for n in names if n not in (*ALL_METRICS, "all")]
    if bad or not names:
        raise argparse.ArgumentTypeError(
            f"metrics must be among {','.join(ALL_METRICS)} or all; got {text!r}")
    return list(ALL_METRICS) if "all" in names else names


def _run_coref(args: argparse.Namespace) -> int:
    from ..core.frames import pooled_rows
    from ..coref.agreement import coref_alpha, coref_metrics
    from ..coref.errors import coref_differences
    from ..coref.intervals import metric_intervals
    from ..coref.unitizing import mentions_u_alpha
    from ..report import render
    from ..report import table as render_table
    from ..report.schema import alpha_records, diagnostic_records, envelope, records
    from ..report.tables import alpha_text
    from ..report.text import alpha_headline, diagnostic_sections, text_report
    if len(args.files) < 2 and args.input_format not in EXPORTS \
            and not (args.input_format == "auto" and detect("coref", args.files[0]) in EXPORTS):
        raise UsageError("give the annotations of at least two annotators (or an export of "
                         "an annotation tool holding them)")
    if args.format in INPUT_FORMATS:  # the old spelling of --input-format
        Ledger.current().add(Notice(  # type: ignore[union-attr]
            "deprecated", f"--format {args.format} names the input format: use "
            f"--input-format {args.format}"))
        args.input_format, args.format = args.format, "text"
    if args.lenient and args.strict:
        raise UsageError("--lenient repairs what --strict refuses: choose one")
    # One reading in every command: what can be repaired is repaired and reported (the
    # warnings), and --strict refuses it, with the reader's own message at the line concerned.
    args.lenient = not args.strict
    method = interval_method(args)
    corpora, read_names = _read_all(args)
    if args.pair_documents == "order":
        from ..coref.scoring import paired_by_order
        corpora = paired_by_order(corpora)
    args.coref_corpora = corpora  # the report draws the documents without reading again
    if len(corpora) < 2:
        raise InputError(f"{args.files[0]} holds the annotation of {len(corpora)} annotator: "
                         "give the annotations of at least two annotators")
    names = check_names(args.names, len(corpora)) or read_names
    if args.strict:  # refuse what validate calls an error in these coreference files
        _refuse_check_errors(corpora, names, args.coref_plain)
    metric_names = [m for m in args.metrics if m not in ("alpha", "ualpha", *SPAN_METRICS)]
    frame = (coref_alpha(corpora, args.distance, units=args.units, unmarked=args.unmarked,
                         word_policy=args.word_policy, coders=names, lenient=args.lenient,
                         pairwise=args.pairwise, **interval_options(args),
                         **diagnostic_options(args))
             if "alpha" in args.metrics else None)
    scores = (coref_metrics(corpora, metric_names, coders=names, lenient=args.lenient,
                            singletons=args.singletons, per_document=args.per_doc,
                            jobs=args.jobs)
              if metric_names else None)
    if scores is not None and args.ci is not None:  # documents resampled, as for alpha
        needed = list(dict.fromkeys(
            [*metric_names, *(CONLL_AVERAGE if "conll" in metric_names else ())]))
        per_doc = scores if args.per_doc and needed == metric_names else coref_metrics(
            corpora, needed, coders=names, lenient=args.lenient,
            singletons=args.singletons, per_document=True, jobs=args.jobs)
        found = metric_intervals(per_doc, n=args.bootstrap, level=args.ci, seed=args.seed,
                                 interval=method or "bca")
        added = ["ci_low", "ci_high", "se", "ci_level", "ci_method", "ci_note"]
        scores = scores.merge(found[["key", "response", "metric", *added]],
                              on=["key", "response", "metric"], how="left")
        if "document" in scores:
            scores.loc[scores["document"].notna(), added] = None
        documents = int(found["documents"].max()) if len(found) else 0
        scores.attrs["bootstrap"] = {"n": args.bootstrap, "resample": "documents",
                                     "seed": args.seed, "resampled": documents}
    unitizing = (mentions_u_alpha(corpora, coders=names, lenient=args.lenient,
                                  per_document=args.per_doc)
                 if "ualpha" in args.metrics else None)
    spans = None
    if any(m in args.metrics for m in SPAN_METRICS):
        from ..coref.spans import mention_spans
        from ..spans.agreement import span_agreement
        spans = span_agreement(
            mention_spans(corpora, coders=names, lenient=args.lenient),
            [m for m in SPAN_METRICS if m in args.metrics], per_document=args.per_doc,
            seed=args.seed if args.seed is not None else 0, ci=args.ci,
            bootstrap=args.bootstrap, interval=method or "bca")
    diffs: Any = None
    diff_counts: Any = None
    if args.differences:
        diffs, diff_counts = coref_differences(corpora, coders=names, lenient=args.lenient,
                                               singletons=args.singletons)
        if not args.per_doc:
            diff_counts = diff_counts[diff_counts["document"].isna()]
    header = {"command": "coref", "files": list(args.files), "units": args.units}
    if args.format == "json":
        results = alpha_records(frame) if frame is not None else []
        if frame is not None and not args.per_doc:
            results = [r for r in results if r["pooled"]]
        if unitizing is not None:  # an alpha too: with the alpha records, before the metrics
            results += _unitizing_records(unitizing)
        if spans is not None:
            from .spans_tables import span_records
            results += span_records(spans)
        if scores is not None:
            results += records(scores, "metric")
        if frame is not None:
            results += diagnostic_records(frame.attrs.get("diagnostics", {}))
        if diffs is not None:
            results += _difference_records(diff_counts, diffs)
        print_json(envelope("coref", args.files, command_signature(args), results,
                            {"units": args.units, "annotators": names}))
        return 0
    table = args.table or ("alpha" if frame is not None else "metrics")
    if args.format in ("csv", "latex"):  # one table per output
        if table == "alpha" and frame is not None:
            shown = frame if args.per_doc else frame[pooled_rows(frame)]
            print(render(shown, args.format, header=header))
        elif table == "metrics" and scores is not None:
            print(render_table(scores, args.format))
        elif table == "differences" and diffs is not None:
            print(render_table(diffs, args.format))
        else:
            raise UsageError(f"--table {table}: that table was not computed (--metrics)")
        return 0
    headline: list[str] = []
    sections: list[tuple[str | None, Any]] = []
    footer: list[str] = []
    if frame is not None:
        headline.append(alpha_headline(frame, f"Krippendorff's alpha ({args.units} as units)"))
        body, footer = alpha_text(frame if args.per_doc else frame[pooled_rows(frame)])
        sections.append(("alpha", body))
    if unitizing is not None:
        pooled = unitizing.iloc[0]
        headline.append("Krippendorff's unitizing alpha (mentions over the tokens): "
                        + ("undefined" if pooled["alpha"] != pooled["alpha"]
                           else f"{pooled['alpha']:.4f}")
                        + f" ({pooled['coders']} annotators, {pooled['units']} mentions, "
                        f"{pooled['tokens']} tokens)")
        sections.append(("unitizing alpha of the mentions (document: all = pooled)",
                         unitizing.fillna({"document": "all"})))
    if spans is not None:
        from .spans_tables import span_sections, span_tables
        lines, span_parts = span_sections(spans, span_tables(spans))
        headline.extend(f"Mentions as spans: {line}" for line in lines.splitlines()[1:])
        sections += span_parts
    if scores is not None:
        headline.extend(_conll_lines(scores))
        shown_cols = ["key", "response", *(["document"] if "document" in scores else []),
                      "metric", "recall", "precision", "f1"]
        title = "metrics (each file in turn as the key)"
        shown = scores
        if "ci_low" in scores and scores["ci_low"].notna().any():
            from ..core.intervals import describe
            how = describe(args.ci, method or "bca", args.bootstrap, "documents",
                           scores.attrs["bootstrap"]["resampled"])
            title = f"metrics (each file in turn as the key; {how})"
            label = f"{args.ci:.0%} CI"
            shown = scores.assign(**{label: [
                "" if low != low else f"[{low:.4f}, {high:.4f}]"
                for low, high in zip(scores["ci_low"], scores["ci_high"], strict=True)]})
            shown_cols.append(label)
            methods = set(scores["ci_method"].dropna())
            if methods - {method}:  # BCa not usable on some: say which interval each is
                shown_cols.append("ci_method")
        sections.append((title, shown[shown_cols]))
    if frame is not None:
        sections += diagnostic_sections(frame.attrs.get("diagnostics", {}))
    if diffs is not None:
        sections += _difference_sections(diff_counts, diffs, args.worst)
    print(text_report("\n".join(headline), sections, footer))
    return 0


def _unitizing_records(frame: Any) -> list[dict[str, Any]]:
    """The unitizing alpha of the mentions as ``alpha`` records (distance ``unitizing``)."""
    from .._version import __version__
    out = []
    for row in frame.to_dict("records"):
        pooled = row["document"] is None
        out.append({"kind": "alpha", "document": None if pooled else str(row["document"]),
                    "pooled": pooled, "distance": "unitizing", "alpha": row["alpha"],
                    "D_o": row["D_o"], "D_e": row["D_e"],
                    "n": int(row["tokens"]) * int(row["coders"]), "units": int(row["units"]),
                    "coders": int(row["coders"]), "engine": "unitizing",
                    "signature": f"ualpha|units:mentions|tokens:{int(row['tokens'])}|"
                    f"coders:{int(row['coders'])}|v:{__version__}"})
    return out


def _difference_records(counts: Any, found: Any) -> list[dict[str, Any]]:
    """``difference_count`` records (a pair, a document or None, a category, a count) and a
    ``coref_difference`` record per difference."""
    import pandas as pd

    from ..coref.errors import ERROR_KINDS
    out: list[dict[str, Any]] = []
    for row in counts.to_dict("records"):
        document = None if pd.isna(row["document"]) else str(row["document"])
        out += [{"kind": "difference_count", "key": str(row["key"]),
                 "response": str(row["response"]), "document": document, "category": k,
                 "count": int(row[k])} for k in ERROR_KINDS]
    for row in found.to_dict("records"):
        out.append({"kind": "coref_difference", "key": str(row["key"]),
                    "response": str(row["response"]), "document": str(row["document"]),
                    "category": row["kind"], "mentions": row["mentions"],
                    "key_entity": row["key_entity"], "response_entity": row["response_entity"]})
    return out


def _difference_sections(counts: Any, found: Any, worst: int) -> list[tuple[str, Any]]:
    """Per pair: the counts by category (and document), then the first ``worst`` differences
    of each category."""
    from ..coref.errors import ERROR_KINDS
    sections: list[tuple[str, Any]] = []
    for (key, response), rows in counts.groupby(["key", "response"], sort=False):
        shown = rows.drop(columns=["key", "response"]).copy()
        shown["document"] = shown["document"].fillna("all documents")
        sections.append((f"where {key} and {response} differ ({key} as the key; Kummerfeld "
                         "and Klein's categories)", shown[["document", *ERROR_KINDS]]))
        mine = found[(found["key"] == key) & (found["response"] == response)]
        if len(mine):
            listed = mine.groupby("kind", sort=False).head(worst)
            sections.append((f"the first {worst} of each category, {key} against {response}",
                             listed[["document", "kind", "mentions", "key_entity",
                                     "response_entity"]]))
    return sections


def _read_all(args: argparse.Namespace) -> tuple[list[Any], list[str]]:
    """Every annotator's corpus, and their names: one per coreference file; those of an
    export by the annotators it names."""
    from ..core.model import unique_labels
    corpora: list[Any] = []
    names: list[str] = []
    plain = unique_labels(args.files)
    kinds = [args.input_format if args.input_format != "auto" else detect("coref", path)
             for path in args.files]
    exports = read_export_inputs(args.files, kinds, args)
    args.coref_plain = []  # per corpus: read from a coreference file (not an export)
    for i, (path, name, kind) in enumerate(zip(args.files, plain, kinds, strict=True)):
        if kind in EXPORTS:
            from ..coref.exports import corpora_from_export
            found = corpora_from_export(exports[i], layer=args.layer,
                                        chain_layer=args.chain_layer)
            corpora += found.values()
            names += [str(a) for a in found]
            args.coref_plain += [False] * len(found)
        else:
            corpora.append(_read_coref(path, args))
            names.append(str(name))
            args.coref_plain.append(True)
    if len(set(names)) < len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise InputError(f"two annotations are named {twice!r}: name them with --names")
    return corpora, names


def _refuse_check_errors(corpora: list[Any], names: list[str], plain: list[bool]) -> None:
    """``--strict``: refuse the errors ``validate`` finds in the corpora read from CoNLL,
    CorefUD and BRAT inputs (each annotation, and across them when every input is one);
    the readers have already refused the faults of the files themselves."""
    from ..coref.checks import refuse_check_errors
    ours = [c for c, p in zip(corpora, plain, strict=True) if p]
    if ours:
        refuse_check_errors(ours, [n for n, p in zip(names, plain, strict=True) if p],
                            level=3 if all(plain) else 2)


def _read_coref(path: str, args: argparse.Namespace) -> Any:
    from ..coref.brat import read_brat_dir
    from ..coref.conll import read_conll
    from ..coref.corefud import read_corefud
    kind = args.input_format
    if kind == "auto":
        kind = detect("coref", path)
    if kind == "brat":
        return read_brat_dir(path, args.text_dir, types=args.types, relations=args.relations,
                             encoding=args.encoding)
    if kind == "corefud":
        return read_corefud(path, lenient=args.lenient, encoding=args.encoding)
    return read_conll(path, lenient=args.lenient, encoding=args.encoding)


def _conll_lines(scores: Any) -> list[str]:
    """The pooled CoNLL average F1 of each pair of annotators (it does not depend on which one
    is the key), one line per pair; none when the average was not asked for."""
    rows = scores[scores["metric"] == "conll"]
    if "document" in rows:
        rows = rows[rows["document"].isna()]
    seen: set[frozenset[str]] = set()
    lines = []
    for row in rows.itertuples():
        pair = frozenset((str(row.key), str(row.response)))
        if pair in seen:
            continue
        seen.add(pair)
        lines.append(f"CoNLL F1 (mean of MUC, B3 and CEAFe F1), {row.key} and {row.response}: "
                     f"{row.f1:.4f}")
    return lines
