#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""kvroute-fleetsim against the real processes on one trace, side by side.

  python3 bench/fleetsim/fidelity.py --sim SWEEP_DIR --real RUN_DIR --real RUN_DIR2 [...]

SWEEP_DIR is a bench/fleetsim/sweep.py run with --trace (the trace the real
runs replayed), RUN_DIR a bench/ablate/run.sh run directory (two or more: the
real processes' A/A control, every run with the same trace, seed and flags).
For each policy and figure: the simulator's mean and 95% interval over its
seeds, each real run's value, and whether the simulator is beyond the real
runs' own spread. The gap is the distance from the simulator's interval (mean
± its 95% half width) to [min, max] of the real runs; it counts only when it
exceeds the A/A spread, which is that range's width but never less than 5% of
the real runs' largest value: two or three real runs that happen to agree
closely say little about how far a third could fall, so a near-zero width is
not a tolerance.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep  # noqa: E402
from kvrbench.records import load_records  # noqa: E402

FIGS = [("ttft_p50", "TTFT p50 ms", "%.0f"), ("ttft_p90", "TTFT p90 ms", "%.0f"), ("e2e_p50", "e2e p50 ms", "%.0f"),
        ("cache_hit", "cache hit %", "%.1f"), ("eng_per_session", "engines/session", "%.2f")]


# The least A/A spread, as a share of the real runs' largest value.
MIN_SPREAD = 0.05


def beyond(sim_mean, real, sim_ci95=None):
    """True when the simulator's interval lies further from the real runs' range than the A/A spread."""
    lo, hi = min(real), max(real)
    spread = max(hi - lo, MIN_SPREAD * max(abs(lo), abs(hi)))
    half = sim_ci95 or 0.0
    gap = lo - (sim_mean + half) if sim_mean < lo else (sim_mean - half) - hi if sim_mean > hi else 0.0
    return gap > spread


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sim", required=True, help="sweep.py output directory (results.json)")
    ap.add_argument("--real", action="append", required=True, help="bench/ablate/run.sh run directory (repeat)")
    ap.add_argument("--es", type=int, default=0, help="the arm to compare (default 0)")
    ap.add_argument("--routers", type=int, default=1, help="the sweep's router count to compare (default 1)")
    ap.add_argument("--time-scale", type=float, default=1.0,
                    help="the real runs' --time-scale: their times are multiplied by it (default 1)")
    a = ap.parse_args(argv)
    res = json.load(open(os.path.join(a.sim, "results.json")))
    cells = [c for c in res["cells"] if c["es"] == a.es and c["routers"] == a.routers]
    head = "| policy | " + " | ".join("%s sim / real" % label for _, label, _ in FIGS) + " | beyond A/A |"
    lines = [head, "|" + " --- |" * (len(FIGS) + 2)]
    for c in cells:
        real = []
        for d in a.real:
            path = os.path.join(d, c["policy"], "es%d" % a.es, "replay.jsonl")
            if os.path.exists(path):
                f = sweep.figures(load_records(path))
                for name in ("ttft_p50", "ttft_p90", "e2e_p50"):
                    f[name] = f[name] * a.time_scale if f[name] is not None else None
                real.append(f)
        if not real:
            continue
        cols, off = [], []
        for name, label, spec in FIGS:
            m, h = c[name]["mean"], c[name]["ci95"]
            vals = [r[name] for r in real if r[name] is not None]
            cols.append("%s / %s" % (sweep.fmt(m, h, spec), " · ".join(spec % v for v in vals)))
            if m is not None and vals and beyond(m, vals, h):
                off.append(label)
        lines.append("| %s | %s | %s |" % (c["policy"], " | ".join(cols), ", ".join(off) or "none"))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
