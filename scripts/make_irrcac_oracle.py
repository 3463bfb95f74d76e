"""Reference values of Fleiss's kappa, Gwet's AC1/AC2 and Brennan-Prediger from irrCAC.

irrCAC (the Python port of Gwet's R package) pins old versions of scipy and numpy, so it is not
a test dependency: this script, run in an environment where irrCAC is installed, draws random
ratings (several raters, some ratings missing, categories 1 to 4) and writes each data set with
irrCAC's estimates, standard errors and intervals for identity, linear and quadratic weights.
tests/test_gwet.py compares clusteragree with these values. Usage::

    python scripts/make_irrcac_oracle.py [--sets 30] [--seed 5] [--out FILE]

Without ``--out`` the JSON is printed; with ``--out corpora_fixtures/oracles/irrcac.json`` it
replaces the stored reference.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=int, default=30)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    from importlib.metadata import version

    from irrCAC.raw import CAC

    rng = np.random.default_rng(args.seed)
    cases = []
    for _ in range(args.sets):
        subjects, raters = int(rng.integers(5, 40)), int(rng.integers(2, 6))
        truth = rng.integers(1, 5, subjects)
        data = np.where(rng.random((subjects, raters)) < 0.7, truth[:, None],
                        rng.integers(1, 5, (subjects, raters))).astype(float)
        data[rng.random((subjects, raters)) < 0.15] = np.nan
        frame = pd.DataFrame(data, columns=[f"r{k}" for k in range(raters)])
        case = {"ratings": [[None if math.isnan(x) else int(x) for x in row] for row in data],
                "categories": [1, 2, 3, 4], "results": {}}
        for weights in ("identity", "linear", "quadratic"):
            cac = CAC(frame, weights=weights, categories=[1, 2, 3, 4], digits=10)
            for name in ("fleiss", "gwet", "bp"):
                est = getattr(cac, name)()["est"]
                case["results"][f"{name}/{weights}"] = {
                    "value": est["coefficient_value"], "se": est["se"],
                    "ci": list(est["confidence_interval"]), "pa": est["pa"], "pe": est["pe"]}
        cases.append(case)
    head = json.dumps({"irrCAC": version("irrCAC"), "seed": args.seed})[:-1]
    text = head + ', "cases": [\n' + ",\n".join(json.dumps(c) for c in cases) + "\n]}\n"
    if args.out is None:
        print(text)
    else:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
