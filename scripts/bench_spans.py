"""Benchmark: span agreement (matching F1 and token kappa) on up to 10^6 spans, stage by stage.

The data (:func:`make_spans`): a reference of flat spans per document (about ten labels,
widths 1 to 6, gaps of 0 to 12 positions), and each annotator a noisy copy of it: 8% of the
spans missed, 10% with a boundary moved by one or two positions, 4% with another label, and
8% extra spans in the gaps; an annotator's spans never overlap one another (so they can be
tagged). ``--nested`` gives every annotator nested and crossing spans too (a fifth of the
spans get an enclosing span and some cross their neighbour), so that chains of overlapping
spans are common: F1 only (tags cannot hold them); ``--covering`` adds a span over each whole
document for every annotator (one chain per document: F1 only). Seeded.

For each size, ``span_f1`` (each rule, then all four at once), ``span_f1_pairs`` and
``token_agreement`` (BIO and IO) are timed (best of ``--repeat``), with the peak memory of a
fresh process per size. ``--profile`` prints cProfile's top entries of one call instead.
``scripts/bench.py --only spans`` runs the same data against the peers (seqeval,
nervaluate, scikit-learn, krippendorff).

Usage: ``python scripts/bench_spans.py [--sizes 10000,100000,1000000] [--annotators 2]
[--documents 1000] [--nested] [--covering] [--repeat 3] [--profile CALL] [--out DIR]``
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench_runs import tool

LABELS = ("PER", "LOC", "ORG", "MISC", "DATE", "TIME", "MONEY", "PERCENT", "EVENT", "WORK")
RULES = ("exact", "exact-span", "overlap", "overlap-span")


def make_spans(n_spans: int, annotators: int = 2, documents: int = 1000,
               nested: bool = False, seed: int = 7, covering: bool = False
               ) -> tuple[Any, dict[str, int]]:
    """About ``n_spans`` spans in all (every annotator together) over ``documents`` documents,
    as a spans DataFrame (columns annotator, document, start, end, label; categorical
    annotator, document and label) and the documents' lengths (positions).

    Documents have about the same number of reference spans each; their lengths follow from
    the spans and gaps drawn (a few thousand positions at 10^6 spans and 1,000 documents).
    ``covering`` adds a span over each whole document for every annotator, so that each
    document is one chain of overlapping spans.
    """
    import pandas as pd

    rng = np.random.default_rng(seed)
    per_annotator = max(n_spans // annotators, 1)
    n_ref = max(int(per_annotator * (0.77 if nested else 1.05)), documents)
    doc = np.sort(rng.integers(0, documents, n_ref))
    width = rng.integers(1, 7, n_ref)
    cum = np.cumsum(rng.integers(0, 13, n_ref) + width)  # a gap, then the span
    first = np.searchsorted(doc, doc)  # the first span of each span's document
    end = cum - np.where(first > 0, cum[first - 1], 0)
    start = end - width
    label = rng.integers(0, len(LABELS), n_ref)
    length = np.zeros(documents, dtype=np.int64)
    np.maximum.at(length, doc, end + 2)
    length = np.maximum(length, 1)
    frames = []
    for a in range(annotators):
        keep = rng.random(n_ref) >= 0.08
        s, e, lab, d = start[keep].copy(), end[keep].copy(), label[keep].copy(), doc[keep]
        move = rng.random(len(s)) < 0.10
        shift = rng.choice([-2, -1, 1, 2], len(s))
        at_start = rng.random(len(s)) < 0.5
        s = np.where(move & at_start, s + shift, s)
        e = np.where(move & ~at_start, e + shift, e)
        swap = rng.random(len(s)) < 0.04
        lab = np.where(swap, rng.integers(0, len(LABELS), len(s)), lab)
        n_extra = int(0.08 * len(s))
        ed = rng.integers(0, documents, n_extra)
        es = (rng.random(n_extra) * np.maximum(length[ed] - 6, 1)).astype(np.int64)
        ee = es + rng.integers(1, 5, n_extra)
        s, e = np.concatenate([s, es]), np.concatenate([e, ee])
        d = np.concatenate([d, ed])
        lab = np.concatenate([lab, rng.integers(0, len(LABELS), n_extra)])
        s = np.clip(s, 0, length[d] - 1)
        e = np.clip(e, s + 1, length[d])
        order = np.lexsort((e, s, d))
        s, e, d, lab = s[order], e[order], d[order], lab[order]
        if nested:
            outer = np.flatnonzero(rng.random(len(s)) < 0.2)
            os_ = np.maximum(s[outer] - rng.integers(0, 4, len(outer)), 0)
            oe = np.minimum(e[outer] + rng.integers(1, 5, len(outer)), length[d[outer]])
            cross = np.flatnonzero(rng.random(len(s)) < 0.1)
            cs = np.minimum(s[cross] + 1, e[cross] - 1)
            ce = np.minimum(e[cross] + rng.integers(1, 8, len(cross)), length[d[cross]])
            s = np.concatenate([s, os_, cs])
            e = np.concatenate([e, oe, np.maximum(ce, cs + 1)])
            lab = np.concatenate([lab, lab[outer], lab[cross]])
            d = np.concatenate([d, d[outer], d[cross]])
            order = np.lexsort((e, s, d))
            s, e, d, lab = s[order], e[order], d[order], lab[order]
        else:
            # an annotator's spans never overlap: drop any that starts before an earlier end
            lift = d * (int(length.max()) + 1)
            reach = np.maximum.accumulate(e + lift) - lift
            ok = np.ones(len(s), dtype=bool)
            ok[1:] = (d[1:] != d[:-1]) | (s[1:] >= reach[:-1])
            s, e, d, lab = s[ok], e[ok], d[ok], lab[ok]
        if covering:
            s = np.concatenate([s, np.zeros(documents, dtype=np.int64)])
            e = np.concatenate([e, length])
            d = np.concatenate([d, np.arange(documents)])
            lab = np.concatenate([lab, np.zeros(documents, dtype=lab.dtype)])
        frames.append(pd.DataFrame({"annotator": np.full(len(s), a), "document": d,
                                    "start": s, "end": e, "label": lab}))
    spans = pd.concat(frames, ignore_index=True)
    names = [f"doc{i:05d}" for i in range(documents)]
    spans["annotator"] = pd.Categorical.from_codes(spans["annotator"].to_numpy(),
                                                   [f"ann{a}" for a in range(annotators)])
    spans["document"] = pd.Categorical.from_codes(spans["document"].to_numpy(), names)
    spans["label"] = pd.Categorical.from_codes(spans["label"].to_numpy(), list(LABELS))
    lengths = {name: int(n) for name, n in zip(names, length, strict=True)}
    return spans, lengths


def quiet(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call ``fn`` with the undefined-value warnings silenced (a document may lack a label)."""
    from clusteragree.errors import AlphaUndefinedWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AlphaUndefinedWarning)
        return fn(*args, **kwargs)


def calls(spans: Any, lengths: dict[str, int]) -> dict[str, Any]:
    """The calls timed, by name."""
    from clusteragree.core import span_f1, span_f1_pairs, token_agreement

    out: dict[str, Any] = {f"span_f1 {r}": (lambda r=r: quiet(span_f1, spans, r))
                           for r in RULES}
    out["span_f1 all four rules"] = lambda: quiet(span_f1, spans, RULES)
    out["span_f1_pairs all four rules"] = lambda: quiet(span_f1_pairs, spans, RULES)
    for scheme in ("bio", "io"):
        out[f"token_agreement {scheme}"] = (
            lambda scheme=scheme: quiet(token_agreement, spans, lengths, scheme=scheme))
    return out


def one_size(n: int, annotators: int, documents: int, nested: bool, repeat: int,
             only: list[str] | None, covering: bool = False) -> dict[str, Any]:
    small, small_lengths = make_spans(2000, annotators, 20, nested, covering=covering)
    spans, lengths = make_spans(n, annotators, documents, nested, covering=covering)
    nested = nested or covering  # tags cannot hold overlapping spans of one annotator
    timings = {}
    for name, fn in calls(small, small_lengths).items():  # imports and first calls
        if (only is None or name in only) and not (nested and name.startswith("token")):
            fn()
    for name, fn in calls(spans, lengths).items():
        if (only is not None and name not in only) or (nested and name.startswith("token")):
            continue
        fastest = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            fn()
            fastest = min(fastest, time.perf_counter() - start)
        timings[name] = fastest
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"spans": len(spans), "positions": sum(lengths.values()), "seconds": timings,
            "peak_mib": peak}


def profile(n: int, annotators: int, documents: int, nested: bool, what: str) -> None:
    import cProfile
    import pstats

    spans, lengths = make_spans(n, annotators, documents, nested)
    fn = calls(spans, lengths)[what]
    fn()
    prof = cProfile.Profile()
    prof.enable()
    fn()
    prof.disable()
    pstats.Stats(prof).sort_stats("cumulative").print_stats(30)


# ------------------------------------------------------------------ scripts/bench.py's section
#: The measures compared in scripts/bench.py's spans section, and what each tool computes.
KINDS = {"F1": "exact F1, micro, pooled", "kappa": "Cohen's kappa, BIO, every position",
         "alpha": "nominal alpha, BIO, every position"}


def bio_codes(spans: Any, lengths: dict[str, int]) -> tuple[np.ndarray, list[str]]:
    """Annotators x positions BIO tag codes of the generated spans (documents in order, then
    positions), and the tags; written here with numpy, apart from the package's own."""
    names = list(spans["document"].cat.categories)
    offsets = np.concatenate([[0], np.cumsum([lengths[d] for d in names])])
    ann = spans["annotator"].cat.codes.to_numpy()
    lab = spans["label"].cat.codes.to_numpy().astype(np.int64)
    begin = offsets[spans["document"].cat.codes.to_numpy()] + spans["start"].to_numpy()
    stop = begin + (spans["end"] - spans["start"]).to_numpy()
    codes = np.zeros((int(ann.max()) + 1, int(offsets[-1])), dtype=np.int64)
    for a in range(codes.shape[0]):  # the spans of one annotator do not overlap
        b, e, k = begin[ann == a], stop[ann == a], lab[ann == a]
        width = e - b
        inside = np.repeat(b - np.cumsum(width) + width, width) + np.arange(width.sum())
        codes[a, inside] = np.repeat(2 * k + 2, width)
        codes[a, b] = 2 * k + 1
    tags = ["O", *(f"{p}-{x}" for x in spans["label"].cat.categories for p in "BI")]
    return codes, tags


def _spans(n: int, params: dict[str, Any]) -> tuple[Any, dict[str, int]]:
    return make_spans(n, 2, params.get("documents", 1000))


def _tags_per_document(n: int, params: dict[str, Any]) -> tuple[list, list]:
    """seqeval's input: each annotator's tags as a list per document."""
    spans, lengths = _spans(n, params)
    codes, tags = bio_codes(spans, lengths)
    names = np.array(tags, dtype=object)
    ends = np.cumsum([lengths[d] for d in spans["document"].cat.categories])
    per_doc = [[list(part) for part in np.split(names[row], ends[:-1])] for row in codes]
    return per_doc[0], per_doc[1]


def _entities(n: int, params: dict[str, Any]) -> tuple[list, list, list[str]]:
    """nervaluate's input: each annotator's entities (end inclusive) as a list per document."""
    spans, _ = _spans(n, params)
    out = []
    for a in ("ann0", "ann1"):
        mine = spans[spans["annotator"] == a]
        docs: dict[str, list] = {d: [] for d in spans["document"].cat.categories}
        for d, s, e, lab in zip(mine["document"], mine["start"], mine["end"], mine["label"],
                                strict=True):
            docs[d].append({"label": lab, "start": int(s), "end": int(e) - 1})
        out.append(list(docs.values()))
    # nervaluate reads its input's kind from the first document's first entity: put first a
    # document where both annotators mark one (the order of documents changes no count)
    first = next(k for k in range(len(out[0])) if out[0][k] and out[1][k])
    return (*([x[first], *x[:first], *x[first + 1:]] for x in out), list(LABELS))


@tool("spans", "clusteragree", lambda n, params: (*_spans(n, params), params["kind"]))
def ours_spans(data: tuple[Any, dict[str, int], str]) -> dict[str, Any]:
    """F1 under the four rules (the value: exact, micro, pooled), or token_agreement with BIO
    tags (the value: pooled Cohen's kappa or alpha over every position)."""
    from clusteragree.core import span_f1_pairs, token_agreement

    spans, lengths, kind = data
    if kind == "F1":
        out = quiet(span_f1_pairs, spans, RULES)
        row = out[out.pooled & (out.rule == "exact") & (out.average == "micro")]
        return {"value": float(row.f1.iloc[0])}
    out = quiet(token_agreement, spans, lengths, scheme="bio")
    row = out[out.pooled & (out.subset == "all")].set_index("measure")
    return {"value": float(row.loc["cohen_kappa" if kind == "kappa" else "alpha", "value"])}


@tool("spans", "seqeval", _tags_per_document)
def seqeval_f1(data: tuple[list, list]) -> float:
    from seqeval.metrics import f1_score

    return float(f1_score(data[0], data[1]))


@tool("spans", "nervaluate", _entities)
def nervaluate_f1(data: tuple[list, list, list[str]]) -> float:
    from nervaluate import Evaluator

    result = Evaluator(data[0], data[1], tags=data[2]).evaluate()
    overall = result["overall"] if isinstance(result, dict) else result[0]
    strict = overall["strict"]
    return float(strict["f1"] if isinstance(strict, dict) else strict.f1)


def _codes(n: int, params: dict[str, Any]) -> np.ndarray:
    spans, lengths = _spans(n, params)
    return bio_codes(spans, lengths)[0]


@tool("spans", "scikit-learn", _codes)
def sklearn_kappa(codes: np.ndarray) -> float:
    from sklearn.metrics import cohen_kappa_score

    return float(cohen_kappa_score(codes[0], codes[1]))


@tool("spans", "krippendorff", lambda n, params: _codes(n, params).astype(float))
def krippendorff_tags(data: np.ndarray) -> float:
    import krippendorff

    return float(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000",
                        help="spans in all, comma-separated (default: %(default)s)")
    parser.add_argument("--annotators", type=int, default=2)
    parser.add_argument("--documents", type=int, default=1000)
    parser.add_argument("--nested", action="store_true",
                        help="nested and crossing spans (F1 only)")
    parser.add_argument("--covering", action="store_true",
                        help="a span over each whole document too: a chain per document "
                             "(F1 only)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", help="calls to time, comma-separated (default: all)")
    parser.add_argument("--profile", metavar="CALL",
                        help="print cProfile's top entries of one call at the largest size")
    parser.add_argument("--out", type=Path, help="also write DIR/bench_spans.json")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    only = args.only.split(",") if args.only else None
    if args.profile:
        profile(sizes[-1], args.annotators, args.documents, args.nested, args.profile)
        return
    if args.one:
        print(json.dumps(one_size(args.one, args.annotators, args.documents, args.nested,
                                  args.repeat, only, args.covering)))
        return
    rows = []
    for n in sizes:
        cmd = [sys.executable, __file__, "--one", str(n), "--annotators", str(args.annotators),
               "--documents", str(args.documents), "--repeat", str(args.repeat),
               *(["--nested"] if args.nested else []), *(["--covering"] if args.covering else []),
               *(["--only", args.only] if only else [])]
        row = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True
                                        ).stdout.strip().splitlines()[-1])
        rows.append(row)
        print(f"{row['spans']:,} spans, {args.annotators} annotators, {args.documents:,} "
              f"documents, {row['positions']:,} positions{', nested' if args.nested else ''}"
              f"{', covering spans' if args.covering else ''}; "
              f"peak {row['peak_mib']:,.0f} MiB")
        for name, s in row["seconds"].items():
            print(f"  {name:<32} {s:8.3f} s")
        sys.stdout.flush()
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "bench_spans.json").write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
