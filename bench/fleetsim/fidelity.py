#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""kvroute-fleetsim against the real processes on one trace, side by side.

  python3 bench/fleetsim/fidelity.py --sim SWEEP_DIR --real RUN_DIR --real RUN_DIR2 [...]
  python3 bench/fleetsim/fidelity.py ... --es 0,1 --routers 4 --regime grouped --json bench/fleetsim/fidelity.json

SWEEP_DIR is a bench/fleetsim/sweep.py run with --trace (the trace the real
runs replayed), RUN_DIR a bench/ablate/run.sh run directory (two or more: the
real processes' A/A control, every run with the same trace, seed and flags;
a cell is read from every RUN_DIR that has it, so runs of one arm each may be
given together). For each policy and figure: the simulator's mean and 95%
interval over its seeds, each real run's value, and whether the simulator is
beyond the real runs' own spread. The gap is the distance from the
simulator's interval (mean ± its 95% half width) to [min, max] of the real
runs; it counts only when it exceeds the A/A spread, which is that range's
width but never less than 5% of the real runs' largest value: two or three
real runs that happen to agree closely say little about how far a third
could fall, so a near-zero width is not a tolerance.

With --json FILE the TTFT figures of every compared cell are stored in FILE
under --regime (rows of the same regime, router count and arm are replaced,
the rest kept): sweep.py prints them in every report as the measured gap.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep  # noqa: E402
from kvrbench.records import load_records  # noqa: E402

FIGS = [("ttft_p50", "TTFT p50 ms", "%.0f"), ("ttft_p90", "TTFT p90 ms", "%.0f"), ("e2e_p50", "e2e p50 ms", "%.0f"),
        ("cache_hit", "cache hit %", "%.1f"), ("eng_per_session", "engines/session", "%.2f")]
STORED = ("ttft_p50", "ttft_p90")

# The least A/A spread, as a share of the real runs' largest value.
MIN_SPREAD = 0.05


def beyond(sim_mean, real, sim_ci95=None):
    """True when the simulator's interval lies further from the real runs' range than the A/A spread."""
    lo, hi = min(real), max(real)
    spread = max(hi - lo, MIN_SPREAD * max(abs(lo), abs(hi)))
    half = sim_ci95 or 0.0
    gap = lo - (sim_mean + half) if sim_mean < lo else (sim_mean - half) - hi if sim_mean > hi else 0.0
    return gap > spread


def gap_pct(sim_mean, real):
    """The simulator's mean off the real runs' range, in % of the nearer end (0 inside the range)."""
    lo, hi = min(real), max(real)
    if sim_mean < lo:
        return 100.0 * (sim_mean - lo) / lo if lo else None
    if sim_mean > hi:
        return 100.0 * (sim_mean - hi) / hi if hi else None
    return 0.0


def compare(res, reals, es, routers, time_scale):
    """(table lines, stored rows) for the sweep's cells of one ES arm and router count."""
    cells = [c for c in res["cells"] if c["es"] == es and c["routers"] == routers]
    lines, rows = [], []
    for c in cells:
        real = []
        for d in reals:
            path = os.path.join(d, c["policy"], "es%d" % es, "replay.jsonl")
            if os.path.exists(path):
                f = sweep.figures(load_records(path))
                for name in ("ttft_p50", "ttft_p90", "e2e_p50"):
                    f[name] = f[name] * time_scale if f[name] is not None else None
                real.append(f)
        if not real:
            continue
        cols, off = [], []
        row = {"policy": c["policy"], "es": es, "routers": routers, "real_runs": len(real)}
        for name, label, spec in FIGS:
            m, h = c[name]["mean"], c[name]["ci95"]
            vals = [r[name] for r in real if r[name] is not None]
            cols.append("%s / %s" % (sweep.fmt(m, h, spec), " · ".join(spec % v for v in vals)))
            out = m is not None and bool(vals) and beyond(m, vals, h)
            if out:
                off.append(label)
            if name in STORED and m is not None and vals:
                row[name] = {"sim": round(m, 1), "sim_ci95": round(h or 0.0, 1), "real": [round(v, 1) for v in vals],
                             "gap_pct": round(gap_pct(m, vals), 1), "beyond": out}
        lines.append("| %s | %d | %s | %s |" % (c["policy"], es, " | ".join(cols), ", ".join(off) or "none"))
        rows.append(row)
    return lines, rows


def commit():
    try:
        return subprocess.run(["git", "-C", sweep.ROOT, "describe", "--always", "--dirty"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True).stdout.strip() or "unknown"
    except OSError:
        return "unknown"


def store(path, regime, routers, rows, argv, arms=(0, 1)):
    doc = {"about": "kvroute-fleetsim's TTFT against the real processes (bench/fleetsim/fidelity.py --json); "
                    "gap_pct: the simulator's mean off the real runs' range in % of its nearer end, 0 inside it",
           "rows": []}
    if os.path.exists(path):
        with open(path) as f:
            doc = json.load(f)
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    doc["rows"] = [r for r in doc.get("rows", [])
                   if not (r["regime"] == regime and r["routers"] == routers and r["es"] in arms)]
    for r in rows:
        doc["rows"].append(dict({"regime": regime, "date": when, "commit": commit(),
                                 "command": "bench/fleetsim/fidelity.py " + " ".join(argv)}, **r))
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sim", required=True, help="sweep.py output directory (results.json)")
    ap.add_argument("--real", action="append", required=True, help="bench/ablate/run.sh run directory (repeat)")
    ap.add_argument("--es", default="0", help="the arms to compare, e.g. 0,1 (default 0)")
    ap.add_argument("--routers", type=int, default=1, help="the sweep's router count to compare (default 1)")
    ap.add_argument("--time-scale", type=float, default=1.0,
                    help="the real runs' --time-scale: their times are multiplied by it (default 1)")
    ap.add_argument("--regime", help="the trace's regime name (zoo.json's), for --json")
    ap.add_argument("--json", metavar="FILE", help="store the TTFT figures in FILE under --regime")
    ap.add_argument("--note", help="with --json: a condition of the measurement, printed beside its cells "
                                   "(e.g. the feed source both sides used)")
    a = ap.parse_args(argv)
    if a.json and not a.regime:
        ap.error("--json needs --regime")
    res = json.load(open(os.path.join(a.sim, "results.json")))
    head = ("| policy | ES | " + " | ".join("%s sim / real" % label for _, label, _ in FIGS) + " | beyond A/A |")
    lines, rows = [head, "|" + " --- |" * (len(FIGS) + 3)], []
    arms = [int(e) for e in a.es.split(",") if e]
    for es in arms:
        ls, rs = compare(res, a.real, es, a.routers, a.time_scale)
        lines += ls
        rows += rs
    print("\n".join(lines))
    if a.json:
        if a.note:
            for r in rows:
                r["note"] = a.note
        store(a.json, a.regime, a.routers, rows, argv if argv is not None else sys.argv[1:], arms)
    return 0


if __name__ == "__main__":
    sys.exit(main())
