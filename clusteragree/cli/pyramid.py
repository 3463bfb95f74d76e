"""``clusteragree pyramid`` and ``clusteragree pan``."""

# The library is imported inside the run functions, so that --help and usage errors stay
# fast (they need only argparse and the option lists).
from __future__ import annotations

import argparse
from typing import Any

from ..errors import UsageError
from ..pyramids.units import TOKENIZERS
from ._common import (
    add_common,
    add_distance,
    check_names,
    command_signature,
    diagnostic_options,
    interval_method,
    interval_options,
    print_json,
)


def register(sub: Any) -> None:
    """Add the subcommand to the parser."""
    pyr = sub.add_parser(
        "pyramid", help="alpha between pyramids of the same model summaries",
        description="Alpha between two or more DUCView pyramids (.pyr) built independently over "
        "the same model summaries. A unit's value is the set of other units in its SCU(s).",
    )
    pyr.add_argument("files", nargs="+", help="two or more .pyr files")
    _add_pyramid_options(pyr, names=True, pairwise=True, interval=True)
    pyr.add_argument("--units", choices=("words", "spans", "contributors"), default="words",
                     help="coding units (default: %(default)s)")
    pyr.add_argument("--overlap", choices=("union", "component"), default="union",
                     help="a unit in several SCUs: union of their units, or their connected "
                     "component (default: %(default)s)")
    pyr.add_argument("--align", action="store_true",
                     help="two pyramids: their SCUs aligned by the words they cover (matched, "
                     "split or merged, only one annotator's; words marked by one side only)")
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
    _add_pyramid_options(pan, pairwise=True, interval=True, documents=False, diagnose=True,
                         names="per-file")
    pan.add_argument("--no-nonmatching", dest="nonmatching", action="store_false",
                     help="leave out SCU uid 0 (DUCView's bucket of non-matching content)")
    pan.add_argument("--scores", action="store_true",
                     help="also print each annotator's scores per peer (text format)")
    pan.add_argument("--per-doc", action=argparse.BooleanOptionalAction, default=False,
                     help="a row per peer: alpha on that peer and each annotator's scores "
                     "(default: the pooled rows only)")
    pan.add_argument("--table", choices=("alpha", "correlations", "scores"), default="alpha",
                     help="-f csv/latex: the table to write (default: %(default)s)")
    pan.set_defaults(run=_run_pan)


def _add_pyramid_options(parser: argparse.ArgumentParser, names: bool | str = False,
                         pairwise: bool = False, interval: bool = False,
                         documents: bool = True, diagnose: bool | None = None) -> None:
    add_distance(parser)
    parser.add_argument("--tokenizer", choices=sorted(TOKENIZERS), default="ws",
                        help="word tokeniser (default: %(default)s)")
    add_common(parser, names=names, pairwise=pairwise, interval=interval, documents=documents,
               diagnose=diagnose)


def _run_pyramid(args: argparse.Namespace) -> int:
    from ..pyramids.agreement import pyramid_agreement
    from ..pyramids.alignment import align_scus
    from ..pyramids.reader import read_pyramid
    from ..report import render
    from ..report.schema import alpha_records, diagnostic_records, envelope
    from ..report.tables import alpha_text
    from ..report.text import alpha_headline, diagnostic_sections, text_report
    if len(args.files) < 2:
        raise UsageError("give at least two .pyr files")
    if args.align and len(args.files) != 2:
        raise UsageError("--align compares two pyramids; give exactly two files")
    read = args.align or args.strict
    sources: list[Any] = ([read_pyramid(f, strict=args.strict, encoding=args.encoding)
                           for f in args.files] if read else list(args.files))
    if args.strict:  # refuse what validate calls an error (docs/validate.md)
        from pathlib import Path

        from ..incidents import refuse_errors
        from ..pyramids.checks import check_across, check_pyramid
        refuse_errors([i for p in sources for i in check_pyramid(p)])
        refuse_errors(check_across(sources, [Path(f).stem for f in args.files]))
    if args.align:
        args.pyramids = sources  # the report draws the summaries without reading again
    frame = pyramid_agreement(sources, args.units, args.distance, tokenizer=args.tokenizer,
                              overlap=args.overlap, unmarked=args.unmarked, strict=args.strict,
                              encoding=args.encoding,
                              coders=check_names(args.names, len(args.files)),
                              pairwise=args.pairwise, **interval_options(args),
                              **diagnostic_options(args))
    header = {"command": "pyramid", "files": list(args.files), "units": args.units,
              "repairs": frame.attrs.get("repairs", {}), "notes": frame.attrs.get("notes", {})}
    found = frame.attrs.get("diagnostics", {})
    what = f"Krippendorff's alpha ({args.units} as units)"
    aligned = (align_scus(sources[0], sources[1], tokenizer=args.tokenizer) if args.align
               else None)
    if args.format == "json":
        print_json(envelope("pyramid", args.files, command_signature(args),
                            [*alpha_records(frame), *diagnostic_records(found),
                             *(_alignment_records(aligned) if aligned is not None else [])],
                            {"units": args.units, "repairs": header["repairs"],
                             "notes": header["notes"]}))
    elif args.format == "text" and (found or aligned is not None):
        body, signatures = alpha_text(frame)
        headline = alpha_headline(frame, what)
        sections: list[tuple[str | None, Any]] = [(None, body)]
        if aligned is not None:
            headline += (f"\nSCUs: {len(aligned.matched)} matched, "
                         f"{(aligned.linked['link'] == 'split').sum()} split on one side and "
                         f"merged on the other, {len(aligned.only)} only one annotator's")
            sections += [
                ("matched SCUs (best overlap first)", aligned.matched),
                ("unmatched SCUs and the SCU they overlap most (split: the other side merged "
                 "them)", aligned.linked),
                ("SCUs only one annotator has", aligned.only),
                ("words in an SCU on one side only", aligned.unmarked)]
        print(text_report(headline, [*sections, *diagnostic_sections(found)], signatures))
    else:
        print(render(frame, args.format, header=header, what=what))
    return 0


def _per_peer(frame: Any, scores: Any) -> Any:
    """Alpha of each peer (one column per distance) beside each annotator's scores of it."""
    rows = frame[~frame["pooled"].astype(bool)]
    if "pair" in rows:  # all the annotators together
        rows = rows[rows["pair"] == "all"]
    wide = rows.pivot(index="document", columns="distance", values="alpha")
    wide = wide[[d for d in frame.attrs.get("distances", wide.columns) if d in wide.columns]]
    wide.columns = [f"alpha {d}" for d in wide.columns]
    by_annotator = scores.pivot(index="peer", columns="annotator",
                                values=["original", "modified"])
    by_annotator.columns = [f"{annotator} {kind}" for kind, annotator in by_annotator.columns]
    return wide.join(by_annotator).reset_index(names="peer")


def _alignment_records(aligned: Any) -> list[dict[str, Any]]:
    from ..report.schema import records
    return [*records(aligned.matched, "scu_match"), *records(aligned.linked, "scu_link"),
            *records(aligned.only, "scu_only"), *records(aligned.unmarked, "unmarked_word")]


def _run_pan(args: argparse.Namespace) -> int:
    from ..pyramids.agreement import load_pans, pan_agreement, pan_scores
    from ..pyramids.intervals import score_intervals
    from ..report import render, table
    from ..report.schema import alpha_records, diagnostic_records, envelope, records
    from ..report.tables import alpha_text
    from ..report.text import alpha_headline, diagnostic_sections, text_report
    method = interval_method(args)
    pans = load_pans(args.files, strict=args.strict, encoding=args.encoding,
                     annotators=args.names)
    if args.strict:  # refuse what validate calls an error (docs/validate.md)
        from ..incidents import refuse_errors
        from ..pyramids.checks import check_across, check_pan
        read = [(peer, who, pan) for peer, by in pans.loaded.items() for who, pan in by.items()]
        refuse_errors([i for _, _, pan in read for i in check_pan(pan)])
        refuse_errors(check_across([pan for _, _, pan in read], [who for _, who, _ in read],
                                   [peer for peer, _, _ in read]))
    frame, _ = pan_agreement(pans, args.distance, tokenizer=args.tokenizer,
                             nonmatching=args.nonmatching, ci=args.ci,
                             bootstrap=args.bootstrap, seed=args.seed, jobs=args.jobs,
                             interval=method,
                             per_peer=args.per_doc, pairwise=args.pairwise,
                             **diagnostic_options(args))
    found = frame.attrs.get("diagnostics", {})
    scores, corr = pan_scores(pans)
    if args.ci is not None:  # the correlations over peers drawn with replacement
        _, bounds = score_intervals(scores, n=args.bootstrap, level=args.ci, seed=args.seed,
                                    interval=method or "bca")
        corr = corr.merge(bounds.drop(columns="peers"),
                          on=["annotator_a", "annotator_b", "score"], how="left")
        corr.attrs["bootstrap"] = {"n": args.bootstrap, "resample": "peers", "seed": args.seed,
                                   "resampled": int(scores["peer"].nunique())}
    header = {"command": "pan", "files": len(args.files), "peers": int(scores["peer"].nunique())}
    if args.format == "json":
        print_json(envelope("pan", args.files, command_signature(args),
                            [*alpha_records(frame), *records(corr, "correlation"),
                             *records(scores, "score"), *diagnostic_records(found)],
                            {"peers": header["peers"]}))
        return 0
    if args.format in ("csv", "latex"):  # one table per output
        if args.table == "alpha":
            print(render(frame, args.format, header=header))
        else:
            chosen = corr if args.table == "correlations" else scores
            print(table(chosen, args.format))
        return 0
    body, signatures = alpha_text(frame)
    title = "correlation of the annotators' pyramid scores over peers"
    shown = corr
    if args.ci is not None and "ci_method" in corr:
        from ..core.intervals import describe
        methods = set(corr["ci_method"].dropna())
        if methods:
            title += (" (" + describe(args.ci, "/".join(sorted(methods)), args.bootstrap,
                                      "peers", corr.attrs["bootstrap"]["resampled"]) + ")")
        else:
            title += " (no interval: a correlation needs three peers scored by both)"
        shown = corr.drop(columns=["ci_level", *([] if len(methods) > 1 else ["ci_method"])])
    sections: list[tuple[str | None, Any]] = [
        ("alpha (peer words as units)", body), (title, shown)]
    if args.scores:
        sections.append(("pyramid scores of each peer", scores))
    if args.per_doc:
        sections.append(("each peer: alpha on it and each annotator's scores", _per_peer(
            frame, scores)))
    print(text_report(alpha_headline(frame, "Krippendorff's alpha (peer words as units)"),
                      [*sections, *diagnostic_sections(found)], signatures))
    return 0
