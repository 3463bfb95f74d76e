"""``clusteragree spans``: every span-agreement measure on one reading of the data."""

# The library is imported inside the run function, so that --help and usage errors stay fast.
from __future__ import annotations

import argparse
from typing import Any

from ..errors import UsageError
from ._common import add_common, check_names, command_signature, interval_method, print_json
from .exports import add_export_options, read_exports
from .input_formats import detect, export_formats

#: The measures of ``--metrics`` (``all``: every one).
MEASURES = ("f1", "tokens", "ualpha", "ualpha2016", "gamma", "gamma-cat", "gamma-k")
#: The tables ``-f csv`` and ``-f latex`` can write.
TABLES = ("f1", "f1-pairs", "tokens", "unitizing", "gamma", "alignment")


def register(sub: Any) -> None:
    """Add the subcommand to the parser."""
    spans = sub.add_parser(
        "spans", help="agreement on spans: matching F1, token kappa, unitizing alpha, gamma",
        description="Two or more annotators' spans (document, start, end, label) of the same "
        "documents: a span table with an annotator column, one file or directory per "
        "annotator, or pygamma-agreement CSVs (one per document); coreference mentions "
        "(CoNLL, CorefUD, BRAT with --input-format brat) and pyramid or peer contributors "
        "(.pyr, .pan) too. Every measure on one reading: pairwise precision, recall and F1 "
        "by exact and overlap matching, Cohen's and Fleiss's kappa and alpha over BIO tags "
        "(all positions and those someone annotated), Krippendorff's unitizing alpha, and "
        "Mathet et al.'s gamma with its best alignment.")
    spans.add_argument("files", nargs="+", help="the annotations: one or more span tables or "
                       "pygamma CSVs, or one file or directory per annotator")
    spans.add_argument("--metrics", type=_measures, default=None,
                       help="comma-separated among " + ",".join(MEASURES) + " or all "
                       "(f1: matching F1; tokens: kappa and alpha over BIO tags; ualpha: "
                       "Krippendorff's 1995/2004 unitizing alpha; ualpha2016: u-alpha, "
                       "|u-alpha, cu-alpha and (k)u-alpha of Krippendorff et al. 2016; gamma: "
                       "Mathet et al. 2015; gamma-cat, gamma-k: Mathet 2017, the categories of "
                       "the aligned units, over all and per category; tokens and the unitizing "
                       "alphas need the documents' lengths) (default: every one the input "
                       "allows, gamma-cat and gamma-k where there are two labels or more)")
    spans.add_argument("--rules", type=_rules, default=["exact", "overlap"],
                       help="F1's matching rules, comma-separated among exact, exact-span, "
                       "overlap, overlap-span (-span: labels ignored; overlap: sharing a "
                       "position, one to one, most pairs then most overlap) "
                       "(default: exact,overlap)")
    spans.add_argument("--scheme", choices=("bio", "io"), default="bio",
                       help="the tags of the token measures (default: %(default)s)")
    spans.add_argument("--lengths", metavar="FILE",
                       help="span tables: a CSV document,length giving each document's length "
                       "in the offsets' unit (needed by tokens and ualpha; every document "
                       "listed is compared, marked or not)")
    spans.add_argument("--text-dir", metavar="DIR",
                       help="the texts DOCUMENT.txt: for BRAT where they are not beside the "
                       ".ann files; for span tables, the texts whose characters the offsets "
                       "count (their lengths are the documents' lengths)")
    spans.add_argument("--types", type=_names, default=None,
                       help="BRAT and annotation tools' exports: comma-separated entity types "
                       "(labels) read (default: every type)")
    spans.add_argument("--layer", default=None,
                       help="annotation tools' exports: the span layer compared (default: the "
                       "only one; an export with several names them)")
    spans.add_argument("--fragments", choices=("extent", "parts"), default="extent",
                       help="a discontinuous annotation (BRAT fragments, CorefUD parts, "
                       "contributors of several parts): one span from its first position to "
                       "its last, or one span per part (default: %(default)s)")
    spans.add_argument("--gamma-alpha", dest="alpha", type=_weight, default=1.0, metavar="A",
                       help="gamma: the weight of the positional dissimilarity "
                       "(default: %(default)s)")
    spans.add_argument("--gamma-beta", dest="beta", type=_weight, default=1.0, metavar="B",
                       help="gamma: the weight of the categorical dissimilarity "
                       "(default: %(default)s)")
    spans.add_argument("--delta-empty", type=_positive_weight, default=1.0, metavar="D",
                       help="gamma: the dissimilarity of a unit with no unit "
                       "(default: %(default)s)")
    spans.add_argument("--precision", type=_precision, default=0.02, metavar="P",
                       help="gamma: the relative half-width wanted for the 95%% interval of "
                       "the expected disorder, which sets how many continua are sampled "
                       "(default: %(default)s)")
    spans.add_argument("--max-candidates", type=_count, default=200_000, metavar="N",
                       help="gamma: refuse a group of units that can be aligned together with "
                       "more than N candidate unitary alignments (three annotators or more; "
                       "the exact best alignment's time and memory grow with them) "
                       "(default: %(default)s)")
    spans.add_argument("--per-doc", action=argparse.BooleanOptionalAction, default=False,
                       help="rows per document too (default: the pooled rows only)")
    spans.add_argument("--alignment", action="store_true",
                       help="gamma's best alignment, unit by unit: which span of each "
                       "annotator went with which (text: listed; JSON: alignment records)")
    spans.add_argument("--table", choices=TABLES, default=None,
                       help="-f csv/latex: the table to write (default: f1 when computed, "
                       "else the first computed)")
    add_export_options(spans)
    add_common(spans, names=True, interval=True, documents=False, diagnose=False)
    spans.set_defaults(run=_run_spans)


def _split(text: str) -> list[str]:
    return [t.strip().lower() for t in text.split(",") if t.strip()]


def _measures(text: str) -> list[str]:
    names = _split(text)
    if not names or any(n not in (*MEASURES, "all") for n in names):
        raise argparse.ArgumentTypeError(f"give measures among {','.join(MEASURES)} or all; "
                                         f"got {text!r}")
    return list(MEASURES) if "all" in names else list(dict.fromkeys(names))


def _rules(text: str) -> list[str]:
    names = _split(text)
    rules = ("exact", "exact-span", "overlap", "overlap-span")
    if not names or any(n not in rules for n in names):
        raise argparse.ArgumentTypeError(f"give rules among {','.join(rules)}; got {text!r}")
    return list(dict.fromkeys(names))


def _names(text: str) -> tuple[str, ...]:
    names = tuple(t.strip() for t in text.split(",") if t.strip())
    if not names:
        raise argparse.ArgumentTypeError("give at least one name")
    return names


def _count(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 12 or int(text) < 1:
        raise argparse.ArgumentTypeError(f"give a positive whole number; got {text!r}")
    return int(text)


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"give a number; got {text!r}")
    return value


def _weight(text: str) -> float:
    value = _number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"give a number of 0 or more; got {text!r}")
    return value


def _positive_weight(text: str) -> float:
    value = _number(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"give a number above 0; got {text!r}")
    return value


def _precision(text: str) -> float:
    value = _number(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"give a relative precision between 0 and 1, such as "
                                         f"0.02; got {text!r}")
    return value


def _read(args: argparse.Namespace) -> Any:
    """The span corpus of the inputs, whatever their format."""
    from ..core.model import unique_labels
    from ..spans.reading import SPAN_FORMATS, read_spans

    kind = args.input_format
    if kind == "auto":
        found = {detect("spans", f, args.encoding) for f in args.files}
        if len(found) > 1:
            raise UsageError(f"the inputs are of several formats ({', '.join(sorted(found))}): "
                             "give inputs of one format, or choose it with --input-format")
        kind = found.pop()
    lenient = not args.strict
    if kind in export_formats():
        from ..spans.exports import spans_from_exports
        exports = read_exports(args.files, kind, args)  # --strict: refuses validate's errors
        return spans_from_exports(exports, layer=args.layer, types=args.types,
                                  fragments=args.fragments, names=args.names)
    if kind in SPAN_FORMATS:
        lengths = None
        if args.lengths is not None:
            from ..spans.readers import read_lengths
            lengths = read_lengths(args.lengths, encoding=args.encoding)
        corpus = read_spans(args.files, kind, names=args.names, lengths=lengths,
                            text_dir=args.text_dir, types=args.types, fragments=args.fragments,
                            encoding=args.encoding)
        if args.strict and kind != "brat":  # BRAT: the checks of the coref domain
            _refuse_table_errors(corpus)
        return corpus
    names = check_names(args.names, len(args.files)) or unique_labels(args.files)
    if kind in ("conll", "corefud"):
        from ..coref.conll import read_conll
        from ..coref.corefud import read_corefud
        from ..coref.spans import mention_spans
        reader = read_corefud if kind == "corefud" else read_conll
        corpora = [reader(f, lenient=lenient, encoding=args.encoding) for f in args.files]
        return mention_spans(corpora, coders=names, lenient=lenient, fragments=args.fragments)
    if kind == "pyramid":
        from ..pyramids.reader import read_pyramid
        from ..pyramids.spans import contributor_spans
        pyramids = [read_pyramid(f, strict=args.strict, encoding=args.encoding)
                    for f in args.files]
        return contributor_spans(pyramids, coders=names, fragments=args.fragments)
    from ..pyramids.agreement import load_pans
    from ..pyramids.spans import peer_spans
    pans = load_pans(args.files, strict=args.strict, encoding=args.encoding,
                     annotators=args.names)
    return peer_spans(pans, fragments=args.fragments)


def _refuse_table_errors(corpus: Any) -> None:
    """Strict reading: refuse what ``validate`` calls an error in the span tables read."""
    from itertools import chain

    from ..incidents import refuse_errors
    from ..spans.checks import across_tables, table_incidents
    texts = corpus.texts if corpus.unit == "characters" else None
    refuse_errors(chain(table_incidents(corpus.spans, texts=texts),
                        across_tables(corpus.spans,
                                      annotators=[str(a) for a in corpus.annotators])))


def _run_spans(args: argparse.Namespace) -> int:
    from ..report.schema import envelope
    from ..spans.agreement import span_agreement
    from .spans_tables import span_records, span_sections, span_tables

    corpus = _read(args)
    if corpus.n_spans == 0:
        from ..errors import InputError
        raise InputError("nothing to compare: no annotator marked any span in "
                         f"{len(corpus.documents)} document(s)", args.files[0])
    method = interval_method(args)
    results = span_agreement(
        corpus, args.metrics, rules=args.rules, scheme=args.scheme, per_document=args.per_doc,
        alpha=args.alpha, beta=args.beta, delta_empty=args.delta_empty,
        precision=args.precision, seed=args.seed if args.seed is not None else 0,
        max_candidates=args.max_candidates,
        ci=args.ci, bootstrap=args.bootstrap, interval=method or "bca", jobs=args.jobs)
    args.span_results = results  # the report draws the strips without computing again
    signature = command_signature(args)
    if args.format == "json":
        meta = {"annotators": [str(a) for a in corpus.annotators],
                "documents": len(corpus.documents), "spans": corpus.n_spans,
                "offsets": corpus.unit, "measures": results.measures}
        print_json(envelope("spans", args.files, signature,
                            span_records(results, alignment=args.alignment), meta))
        return 0
    tables = span_tables(results, alignment=args.alignment)
    if args.format in ("csv", "latex"):
        from ..report import table as render_table
        chosen = args.table or next(iter(tables), None)
        if chosen not in tables:
            raise UsageError(f"--table {chosen}: that table was not computed (--metrics"
                             f"{', --alignment' if chosen == 'alignment' else ''})")
        print(render_table(tables[chosen], args.format))
        return 0
    from ..report.text import text_report
    headline, sections = span_sections(results, tables)
    print(text_report(headline, sections, [signature]))
    return 0
