"""One benchmark: clusteragree and its peers side by side on the same data, in one run.

Sections (``--only``, comma-separated; default all):

* ``alpha-classes``: class-derived MASI alpha against NLTK at 1,000 to 4,000 units, then ours
  alone at 10^4 to 10^7 units (growth exponents);
* ``alpha-int``: nominal alpha of 5 coders' integer labels (10% missing) against krippendorff
  and simpledorff at 10^4 to 10^6 units, ours alone up to 10^7;
* ``alpha-sets``: class-derived sets of 5 coders, 10^4 to 10^7 units (NLTK at 1,000 units only,
  as a check of the value);
* ``coref``: a synthetic CoNLL-2012 pair of 10^6 tokens read and scored, against scorch and the
  reference Perl scorer (``--perl-scorer PATH``);
* ``trees``: tree edit distance per pair against zss and apted on Skjaerholt's NDT1 trees, and
  the wall time of scripts/reproduce_skjaerholt2014.py;
* ``pyramids``: the wall time of scripts/study_pyramid_units.py;
* ``dataframe``: alpha from a long DataFrame against the krippendorff route;
* ``startup``: ``clusteragree table`` on a small CSV as a whole process against a script
  calling krippendorff (and the interpreter alone), and the first ``alpha`` on 1,000 units in
  a fresh process (scripts/_bench_startup.py);
* ``memory``: the readers' peak memory on a long CSV of a million distinct units and on
  DUCView pyramids, one and a pair, of ``--memory-mb`` each (scripts/bench_memory.py);
* ``spans``: span F1 (four rules) against seqeval and nervaluate, and token kappa and alpha
  over BIO tags against scikit-learn and krippendorff, at 10^4 to 10^6 spans of two
  annotators (``--spans``; the data of scripts/bench_spans.py).
* ``gamma``: gamma's best alignment and gamma against pygamma-agreement on its 5by100 and
  2by5000 test files (``--pygamma-python PATH``: an interpreter where pygamma-agreement is
  installed; ``--pygamma-data DIR``: its tests/data, for 2by5000), then ours alone on
  realistic continua of 5 and 10 annotators (scripts/_bench_gamma.py).

Every case (a tool at a size) runs in a fresh process, so that its peak memory is its own and
a slow peer can be stopped (``--timeout``; reported as "> T s"). Each table gives the seconds,
the peak memory, the value each tool computes, the speed-up (peer's seconds over ours) and
|diff|, the largest difference between the peer's values and ours; the run fails when a
|diff| passes 1e-9. ``--quick`` runs small sizes (a smoke test). The report is printed;
``--out DIR`` also writes DIR/performance.md and DIR/bench.json (the raw figures), and
``--write-docs`` writes docs/performance.md; nothing is written otherwise.

Usage: ``python scripts/bench.py [--quick] [--only SECTIONS] [--out DIR] [--write-docs]``
``[--pygamma-python PATH] [--pygamma-data DIR]``
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench_doc import SECTIONS, render
from _bench_runs import PYRAMIDS, ROOT, SYNTAX
from _bench_startup import QUICK_RUNS as STARTUP_QUICK_RUNS

DOCS = ROOT / "docs" / "performance.md"


def _case(section: str, tool: str, size: int, **kw: Any) -> dict[str, Any]:
    return {"section": section, "tool": tool, "size": size, "params": kw.pop("params", {}),
            "warm": kw.pop("warm", None), **kw}


def plan(args: argparse.Namespace, coref: tuple[Path, Path] | None) -> list[dict[str, Any]]:
    """Every case of the sections asked for, in the order they run."""
    q = args.quick
    decades = [10**k for k in ((2, 3, 4) if q else (4, 5, 6, 7)) if 10**k <= args.max_size]
    cases: list[dict[str, Any]] = []
    only = args.only
    if "alpha-classes" in only:
        for n in ([100, 400] if q else [1000, 2000, 4000]):
            cases.append(_case("alpha-classes", "clusteragree", n, warm=100))
            cases.append(_case("alpha-classes", "NLTK", n, warm=20))
        cases += [_case("alpha-classes", "clusteragree", n, warm=100, scale=True)
                  for n in decades]
    if "alpha-int" in only:
        params = {"coders": 5, "labels": args.labels}
        for n in decades:
            cases.append(_case("alpha-int", "clusteragree", n, params=params, warm=100,
                               scale=True))
            if n <= (10**3 if q else 10**6):
                cases += [_case("alpha-int", peer, n, params=params, warm=100)
                          for peer in ("krippendorff", "simpledorff")]
    if "alpha-sets" in only:
        n = 100 if q else 1000
        cases += [_case("alpha-sets", "clusteragree", n, warm=100),
                  _case("alpha-sets", "NLTK", n, warm=20)]
        cases += [_case("alpha-sets", "clusteragree", n, warm=100, scale=True)
                  for n in decades]
    if "coref" in only and coref is not None:
        tokens = args.tokens or (5_000 if q else 1_000_000)
        files = {"a": str(coref[0]), "b": str(coref[1])}
        cases += [_case("coref", "clusteragree", tokens, params=files),
                  _case("coref", "scorch", tokens, params=files)]
        if args.perl_scorer:
            cases.append(_case("coref", "reference scorer (Perl)", tokens,
                               params={**files, "perl_scorer": str(args.perl_scorer)}))
    if "trees" in only and SYNTAX.is_dir():
        pairs = args.pairs or (20 if q else 300)
        cases += [_case("trees", tool, pairs, warm=2) for tool in (
            "clusteragree (numba kernel)", "clusteragree (python kernel)", "zss", "apted")]
        if not q:
            cases.append(_case("trees", "Table 2 reproduction, whole script", 1))
        if args.syn_agreement:
            cases.append(_case("trees", "syn-agreement, NDT1", 1,
                               params={"syn_agreement": str(args.syn_agreement)}))
    if "pyramids" in only and PYRAMIDS.is_dir():
        extra = ["--limit", "1", "--levels", "0.1"] if q else []
        cases.append(_case("pyramids", "pyramid units study, whole script", 1,
                           params={"extra": extra}))
    if "startup" in only:
        runs = {"runs": STARTUP_QUICK_RUNS} if q else {}  # processes per case
        cases += [_case("startup", tool, 1, warm=1, repeat=1, params=dict(runs)) for tool in (
            "clusteragree table, whole process", "script calling krippendorff, whole process",
            "the interpreter alone (python -c pass)",
            "clusteragree table, whole process, package compiled at each start")]
        cases += [_case("startup", "first alpha, 1,000 units, fresh process", 1000,
                        params={"kind": kind, **runs}, repeat=1)
                  for kind in ("integer", "class-derived")]
    if "memory" in only:
        mb = args.memory_mb or (5 if q else 100)
        units = {"units": 10_000 if q else 1_000_000}
        cases += [_case("memory", f"reader: {fmt}", mb,
                        params={"format": fmt, **(units if fmt == "csv" else {})}, repeat=1)
                  for fmt in ("csv", "pyr", "pyr-pair")]
    if "gamma" in only:
        cases += gamma_cases(args)
    if "dataframe" in only:
        rows = args.rows or (1_000 if q else 1_000_000)
        for shape in args.df_shapes.split(","):
            coders, labels = (int(x) for x in shape.split("x"))
            for kind in args.df_kinds.split(","):
                params = {"coders": coders, "labels": labels, "kind": kind}
                cases += [_case("dataframe", tool, rows, params=params, warm=100)
                          for tool in ("clusteragree", "krippendorff")]
    if "spans" in only:
        cases += _spans_cases(args)
    return cases


def _spans_cases(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Each size's blocks: F1 against seqeval and nervaluate, Cohen's kappa against
    scikit-learn, alpha against krippendorff (its units x values x values array passes 10 GB
    past 10^5 spans: not run there)."""
    sizes = [int(x) for x in args.spans.split(",")] if args.spans else (
        [1_000] if args.quick else [10_000, 100_000, 1_000_000])
    peers = {"F1": ("seqeval", "nervaluate"), "kappa": ("scikit-learn",),
             "alpha": ("krippendorff",)}
    cases = []
    for n in sizes:
        for kind, tools in peers.items():
            params = {"kind": kind, "documents": 1000}
            cases.append(_case("spans", "clusteragree", n, params=params, warm=500))
            cases += [_case("spans", peer, n, params=params, warm=500) for peer in tools
                      if peer != "krippendorff" or n <= 100_000]
    return cases


def gamma_cases(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The gamma section: each data set's best alignment and gamma, ours and pygamma's (run
    under ``--pygamma-python``), then ours alone on realistic continua."""
    from _bench_gamma import units_of

    compared = ["AlexPaulSuzan", "3x30"] if args.quick else ["5by100", "2by5000"]
    # 10x20: the best alignment alone, with room for its candidates (189,754, near the default
    # cap); 10x1000: under the default cap
    alone = ["4x100"] if args.quick else ["5x1000", "10x20", "10x1000"]
    cases: list[dict[str, Any]] = []
    for data in compared + alone:
        params: dict[str, Any] = {"data": data}
        if data == "2by5000":
            if not args.pygamma_data:
                continue
            params["file"] = str(Path(args.pygamma_data) / "2by5000.csv")
        if data == "10x20":
            params["max_candidates"] = 5_000_000
        size = sum(map(len, units_of(2, params)))
        for kind in ("alignment",) if data == "10x20" else ("alignment", "gamma"):
            tools = ["clusteragree"] + (["pygamma-agreement"] if data in compared else [])
            for name in tools:
                case = _case("gamma", name, size, params={**params, "kind": kind}, warm=1)
                if name == "pygamma-agreement":
                    case["python"] = str(args.pygamma_python)
                cases.append(case)
    return cases


PEER_MODULES = {"NLTK": "nltk", "krippendorff": "krippendorff", "simpledorff": "simpledorff",
                "scorch": "scorch", "zss": "zss", "apted": "apted",
                "script calling krippendorff, whole process": "krippendorff",
                "seqeval": "seqeval", "nervaluate": "nervaluate", "scikit-learn": "sklearn"}


def missing_peers(cases: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """The cases whose peer is installed, and a note for each peer that is not."""
    absent = {tool for tool, module in PEER_MODULES.items()
              if importlib.util.find_spec(module) is None}
    notes = sorted({f"{c['section']}: {c['tool']} is not installed: skipped" for c in cases
                    if c["tool"] in absent})
    python = next((c["python"] for c in cases if c["tool"] == "pygamma-agreement"), None)
    if python is not None and not _imports(python, "pygamma_agreement"):
        absent.add("pygamma-agreement")
        if python != "None":  # given, but it does not import pygamma_agreement
            notes.append(f"gamma: {python} does not import pygamma_agreement: skipped")
    return [c for c in cases if c["tool"] not in absent], notes


def _imports(python: str, module: str) -> bool:
    """Whether the interpreter ``python`` imports ``module``."""
    if not Path(python).exists():
        return False
    return subprocess.run([python, "-c", f"import {module}"], capture_output=True).returncode == 0



def run_case(case: dict[str, Any], timeout: float, repeat: int) -> dict[str, Any]:
    """Run one case in a fresh process (under the case's own interpreter, if it names one);
    the figures, or why there are none."""
    spec = json.dumps({"repeat": repeat, **case})  # a case may set its own
    start = time.perf_counter()
    env = None
    if case.get("python"):  # another interpreter: it finds the package of this checkout
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    try:
        done = subprocess.run([case.get("python") or sys.executable, __file__, "--child", spec],
                              capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired as stopped:
        # The timed call ran at least from the moment the child said it started to now.
        out = stopped.stdout.decode() if isinstance(stopped.stdout, bytes) else stopped.stdout
        started = [json.loads(line)["timing_from"] for line in (out or "").splitlines()
                   if line.startswith('{"timing_from"')]
        bound = time.time() - started[0] if started else None
        return {**case, "status": "timeout", "timeout": timeout, "at_least": bound}
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        return {**case, "status": "failed", "error": tail}
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return {**case, "status": "ok", "wall": time.perf_counter() - start, **out}


def _absent(args: argparse.Namespace) -> list[str]:
    """Messages for peers and data this run cannot use."""
    notes = []
    if "coref" in args.only and not args.perl_scorer:
        notes.append("coref: the reference Perl scorer was not given (--perl-scorer PATH, or "
                     "CLUSTERAGREE_PERL_SCORER): skipped")
    if "trees" in args.only:
        if not SYNTAX.is_dir():
            notes.append("trees: ../shared/corpora/syntax is absent: section skipped")
        if not args.syn_agreement:
            notes.append("trees: syn-agreement (Skjaerholt's own tool) was not found on the "
                         "PATH nor given (--syn-agreement PATH): skipped")
        if args.quick:
            notes.append("trees: the whole Table 2 reproduction is not run with --quick")
    if "pyramids" in args.only and not PYRAMIDS.is_dir():
        notes.append("pyramids: ../shared/corpora/duc-pyramids is absent: section skipped")
    if "gamma" in args.only:
        if not args.pygamma_python:
            notes.append("gamma: pygamma-agreement's interpreter was not given "
                         "(--pygamma-python PATH, or CLUSTERAGREE_PYGAMMA_PYTHON): skipped")
        if not args.quick and not args.pygamma_data:
            notes.append("gamma: pygamma-agreement's test data were not given (--pygamma-data "
                         "DIR, or CLUSTERAGREE_PYGAMMA_DATA: a checkout's tests/data): 2by5000 "
                         "skipped")
    return notes


def command_line(argv: list[str]) -> str:
    """The command as run, with paths of this machine replaced by placeholders."""
    words, hide = ["python", "scripts/bench.py"], False
    for word in argv:
        if hide:
            words.append("PATH" if not word.startswith("-") else word)
            hide = False
            continue
        name = word.split("=", 1)[0]
        if name in ("--out", "--perl-scorer", "--syn-agreement", "--pygamma-python",
                    "--pygamma-data"):
            words.append(f"{name}=PATH" if "=" in word else name)
            hide = "=" not in word
        else:
            words.append(word)
    return " ".join(words)


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join(SECTIONS),
                        help="sections to run, comma-separated (default: %(default)s)")
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    parser.add_argument("--out", type=Path,
                        help="write DIR/performance.md and DIR/bench.json (raw figures)")
    parser.add_argument("--write-docs", action="store_true",
                        help=f"write the report to {DOCS.relative_to(ROOT)} (tracked)")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds before a case is stopped (default: 900, 120 with --quick)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="best of this many runs where a run takes under 10 s "
                             "(default: %(default)s)")
    parser.add_argument("--perl-scorer", type=Path,
                        default=os.environ.get("CLUSTERAGREE_PERL_SCORER") or None,
                        help="the reference coreference scorer's scorer.pl (default: "
                             "$CLUSTERAGREE_PERL_SCORER; skipped when absent)")
    found = shutil.which("syn-agreement.py") or shutil.which("syn-agreement")
    parser.add_argument("--syn-agreement", type=Path, default=found and Path(found),
                        help="Skjaerholt's syn-agreement.py, timed on NDT1 (default: the one "
                             "on the PATH; skipped when absent)")
    parser.add_argument("--labels", type=int, default=5,
                        help="labels of the integer data (default: %(default)s)")
    parser.add_argument("--max-size", type=float, default=1e7,
                        help="largest number of units of the alpha sections (default: 10^7)")
    parser.add_argument("--tokens", type=int, default=None,
                        help="tokens of the coreference pair (default: 10^6, 5,000 --quick)")
    parser.add_argument("--pairs", type=int, default=None,
                        help="tree pairs (default: 300, 20 with --quick)")
    parser.add_argument("--rows", type=int, default=None,
                        help="rows of the DataFrames (default: 10^6, 1,000 with --quick)")
    parser.add_argument("--df-shapes", default=None,
                        help="CODERSxLABELS of the DataFrame section (default: 3x5,3x20,10x5; "
                             "3x5 with --quick)")
    parser.add_argument("--df-kinds", default=None,
                        help="label columns: object, category, number (default: all three; "
                             "object with --quick)")
    parser.add_argument("--memory-mb", type=int, default=None,
                        help="size of each file of the memory section, MB (default: 100, 5 "
                             "with --quick)")
    parser.add_argument("--spans", default=None,
                        help="spans in all of the spans section, comma-separated (default: "
                             "10000,100000,1000000; 1000 with --quick)")
    parser.add_argument("--pygamma-python", type=Path,
                        default=os.environ.get("CLUSTERAGREE_PYGAMMA_PYTHON") or None,
                        help="an interpreter where pygamma-agreement is installed (default: "
                             "$CLUSTERAGREE_PYGAMMA_PYTHON; its cases are skipped without one)")
    parser.add_argument("--pygamma-data", type=Path,
                        default=os.environ.get("CLUSTERAGREE_PYGAMMA_DATA") or None,
                        help="pygamma-agreement's tests/data directory, for 2by5000.csv "
                             "(default: $CLUSTERAGREE_PYGAMMA_DATA; skipped when absent)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in args.only if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose among "
                     f"{', '.join(SECTIONS)}")
    if args.perl_scorer is not None and not args.perl_scorer.is_file():
        print(f"the Perl scorer {args.perl_scorer} is absent: skipped", file=sys.stderr)
        args.perl_scorer = None
    if args.pygamma_data is not None and not (args.pygamma_data / "2by5000.csv").is_file():
        print(f"{args.pygamma_data}/2by5000.csv is absent: skipped", file=sys.stderr)
        args.pygamma_data = None
    if args.syn_agreement is not None and not args.syn_agreement.is_file():
        print(f"syn-agreement {args.syn_agreement} is absent: skipped", file=sys.stderr)
        args.syn_agreement = None
    args.timeout = args.timeout or (120.0 if args.quick else 900.0)
    args.df_shapes = args.df_shapes or ("3x5" if args.quick else "3x5,3x20,10x5")
    args.df_kinds = args.df_kinds or ("object" if args.quick else "object,category,number")
    return args


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse(argv)
    if args.child:
        from _bench_child import main as child

        child(args.child)
        return 0
    started = time.time()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        coref = None
        if "coref" in args.only:
            from bench_coref import write_pair

            coref = write_pair(Path(tmp), args.tokens or (5_000 if args.quick else 1_000_000),
                               seed=7)
        cases, absent = missing_peers(plan(args, coref))
        notes = _absent(args) + absent
        for note in notes:
            print(note, file=sys.stderr)
        done: dict[tuple[str, str, int, str], dict[str, Any]] = {}
        given_up: set[tuple[str, str, str]] = set()
        for case in cases:
            params = json.dumps(case["params"], sort_keys=True)
            key = (case["section"], case["tool"], case["size"], params)
            if key in done:  # measured already (a size both compared and in the growth table)
                done[key]["scale"] = done[key].get("scale") or case.get("scale")
                continue
            if (*key[:2], params) in given_up:
                done[key] = {**case, "status": "skipped"}
            else:
                done[key] = run_case(case, args.timeout, args.repeat)
                if done[key]["status"] == "timeout":
                    given_up.add((*key[:2], params))
            print(_progress(done[key]), file=sys.stderr, flush=True)
        results = list(done.values())
    text, failures = render(results, notes=notes, quick=args.quick,
                            command=command_line(argv), started=started, load=load,
                            perl_scorer=args.perl_scorer, timeout=args.timeout,
                            repeat=args.repeat, labels=args.labels)
    print(text)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "performance.md").write_text(text, encoding="utf-8")
        (args.out / "bench.json").write_text(json.dumps(results, indent=1) + "\n",
                                             encoding="utf-8")
    if args.write_docs:
        DOCS.write_text(text, encoding="utf-8")
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


def _progress(r: dict[str, Any]) -> str:
    what = f"{r['section']:>13} {r['tool']:<36} {r['size']:>10,}"
    if r["status"] == "ok":
        return f"{what} {r['seconds']:10.4f} s {r['peak_mib']:9.1f} MiB"
    return f"{what} {r['status']} {r.get('error', '')}"


if __name__ == "__main__":
    raise SystemExit(main())
