#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""One rule against every other rule of a sweep, paired by seed.

  python3 bench/fleetsim/versus.py DIR [--policy ttft] [--es 1] [--seeds K]

Reads the run records sweep.py left under DIR/runs/ and, per router count
and load, prints for the chosen rule the per-seed ratio (rule / other, same
seed, same trace) of TTFT p50/p90/p99, e2e p90 and output tokens/s against
each other rule, as mean ± 95% interval over the seeds; first, every rule's
figures recomputed from its records (a rule whose runs were redone after
the sweep is read as it now is). "best" is the other
rule with the lowest mean TTFT p90 in that cell. A ratio's interval that
excludes 1 is a difference; one that includes it is not. Standard library
only.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep import figures, interval  # noqa: E402  (first: it puts bench/ on the path for kvrbench)
from kvrbench.records import load_records  # noqa: E402

CELLS = [("ttft_p50", "TTFT p50 ms", "%.0f"), ("ttft_p90", "TTFT p90 ms", "%.0f"), ("ttft_p99", "TTFT p99 ms", "%.0f"),
         ("e2e_p90", "e2e p90 ms", "%.0f"), ("tok_s", "output tok/s", "%.1f"), ("cache_hit", "cache hit %", "%.1f")]
RATIOS = [("ttft_p50", "TTFT p50"), ("ttft_p90", "TTFT p90"), ("ttft_p99", "TTFT p99"),
          ("e2e_p90", "e2e p90"), ("tok_s", "tok/s")]


def fmt(m, h):
    if m is None:
        return "n/a"
    return "%.3f" % m if h is None else "%.3f ± %.3f" % (m, h)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", help="a sweep.py output directory")
    ap.add_argument("--policy", default="ttft", help="the rule compared (default ttft)")
    ap.add_argument("--es", type=int, default=1, help="ES arm (default 1)")
    ap.add_argument("--seeds", type=int, help="seeds 1..K (default: the sweep's); more than the sweep ran "
                    "reads runs added under DIR/runs with the same layout")
    a = ap.parse_args(argv)
    with open(os.path.join(a.dir, "results.json")) as f:
        res = json.load(f)
    seeds = list(range(1, a.seeds + 1)) if a.seeds else res["seeds"]
    cells = [c for c in res["cells"] if c["es"] == a.es]
    policies = list(dict.fromkeys(c["policy"] for c in cells))
    if a.policy not in policies:
        ap.error("%s is not in the sweep (%s)" % (a.policy, ", ".join(policies)))
    groups = list(dict.fromkeys((c["routers"], c["load"]) for c in cells))
    fig = {}
    for pol in policies:
        for nr, load in groups:
            for s in seeds:
                path = os.path.join(a.dir, "runs", pol, "es%d" % a.es, "r%d" % nr, "load%s" % load, "seed%d" % s,
                                    "replay.jsonl")
                fig[(pol, nr, load, s)] = figures(load_records(path))
    lines = ["| routers | load | vs | " + " | ".join(label + " ratio" for _, label in RATIOS) + " |",
             "| --- | --- | --- | " + " | ".join("---" for _ in RATIOS) + " |"]
    for nr, load in groups:
        others = [p for p in policies if p != a.policy]
        mean_p90 = {p: interval([fig[(p, nr, load, s)]["ttft_p90"] for s in seeds])[0] for p in others}
        best = min(others, key=lambda p: mean_p90[p] if mean_p90[p] is not None else float("inf"))
        for other in [best] + [p for p in others if p != best]:
            row = []
            for name, _ in RATIOS:
                vals = []
                for s in seeds:
                    x, y = fig[(a.policy, nr, load, s)][name], fig[(other, nr, load, s)][name]
                    vals.append(x / y if x is not None and y else None)
                m, h, _ = interval(vals)
                row.append(fmt(m, h))
            lines.append("| %d | %s | %s%s | %s |" % (nr, load, other, " (best)" if other == best else "",
                                                       " | ".join(row)))
    table = ["| routers | load | rule | " + " | ".join(label for _, label, _ in CELLS) + " |",
             "| --- | --- | --- | " + " | ".join("---" for _ in CELLS) + " |"]
    for nr, load in groups:
        for pol in policies:
            row = []
            for name, _, form in CELLS:
                m, h, _ = interval([fig[(pol, nr, load, s)][name] for s in seeds])
                row.append("n/a" if m is None else (form % m) + ("" if h is None else " ± " + form % h))
            table.append("| %d | %s | %s | %s |" % (nr, load, pol, " | ".join(row)))
    print("Every rule, mean ± 95%% interval over %d seeds (records under %s/runs)" % (len(seeds), a.dir))
    print()
    print("\n".join(table))
    print()
    print("%s against every other rule, ratio per seed (%d seeds), mean ± 95%% interval" % (a.policy, len(seeds)))
    print()
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
