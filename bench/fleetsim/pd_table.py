#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Disaggregated prefill and decode against colocated engines, in kvroute-fleetsim.

  python3 bench/fleetsim/pd_table.py --out DIR [--regimes A,B,C] [--seeds 5] [--jobs 1]
  python3 bench/fleetsim/pd_table.py --out DIR --write-results   # also into bench/RESULTS.md

For each regime of the workload zoo (bench/fleetsim/zoo.json: its
kvroute-tracegen preset, fleet flags and rate), each seed (one trace per
seed, shared by every cell) and each ES arm, runs the same four engines
colocated and split P:D (--prefill-engines P: engines 0..P-1 prefill, the
rest decode), every request routed by kvroute's decision core (--policy the
router's default for the prefill or colocated choice, --pd-decode-policy's
default for the decode one). The rate is the regime's times --load-scale
(0.5: the zoo's rates keep 8 engines about half busy, so 4 engines are as
busy at half of it).

Reports per cell the mean and 95% interval over seeds (Student t) of TTFT
and TPOT (time per output token after the first) p50 and p90; per split its
p90s over colocated's paired by seed (a ratio whose interval lies above 1 is
a loss, below 1 a win); and per split the ES effect on the pair choice: the
share of requests answered by another decode engine at ES=1 than at ES=0 of
the same seed, and the ES=1 / ES=0 ratio of the p90s.

Writes DIR/pd_table.md and DIR/pd_table.json; with --write-results replaces
what is between the pd-table markers in bench/RESULTS.md. Standard library only.
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kvrbench.paths import ROOT, program  # noqa: E402
from kvrbench.records import load_records, ok_records, percentile  # noqa: E402
from sweep import interval, provenance  # noqa: E402

DEFAULT_REGIMES = "sessionless-shared,study,agentic"
BEGIN, END = "<!-- pd-table:begin -->", "<!-- pd-table:end -->"
METRICS = [("ttft_p50", "TTFT p50 ms"), ("ttft_p90", "TTFT p90 ms"), ("tpot_p50", "TPOT p50 ms"),
           ("tpot_p90", "TPOT p90 ms")]


def split_name(p, engines):
    return "colocated" if p == 0 else "%d:%d" % (p, engines - p)


def figures(recs):
    ok = ok_records(recs)
    ttft = [r["ttft_ms"] for r in ok if r.get("ttft_ms") is not None]
    tpot = [(r["e2e_ms"] - r["ttft_ms"]) / (r["output_tokens"] - 1) for r in ok
            if r.get("e2e_ms") is not None and r.get("ttft_ms") is not None and (r.get("output_tokens") or 0) > 1]
    return {"ok": len(ok), "requests": len(recs),
            "ttft_p50": percentile(ttft, 50), "ttft_p90": percentile(ttft, 90),
            "tpot_p50": percentile(tpot, 50), "tpot_p90": percentile(tpot, 90)}


def run(job):
    cmd, log = job
    if not os.path.exists(os.path.dirname(log)):
        os.makedirs(os.path.dirname(log), exist_ok=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with open(log, "w") as f:
        f.write(" ".join(shlex.quote(c) for c in cmd) + "\n" + p.stdout + p.stderr)
    if p.returncode != 0:
        raise SystemExit("pd_table: exit %d, see %s" % (p.returncode, log))


def fmt(m, h, spec="%.0f"):
    if m is None:
        return "—"
    return (spec % m) + ("" if h is None else " ± " + (spec % h))


def ratio_cell(m, h):
    if m is None:
        return "—"
    spec = "%.3f" if h is not None and h < 0.01 else "%.2f"
    text = (spec + "× (" + spec + "–" + spec + ")") % (m, m - h, m + h) if h is not None else "%.2f×" % m
    if h is not None and m - h > 1:
        return "**" + text + " worse**"
    if h is not None and m + h < 1:
        return text + " better"
    return text


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="output directory (runs, traces, the table)")
    ap.add_argument("--zoo", default=os.path.join(ROOT, "bench/fleetsim/zoo.json"), help="regime table")
    ap.add_argument("--regimes", default=DEFAULT_REGIMES, help="comma-separated regimes (default %(default)s)")
    ap.add_argument("--seeds", type=int, default=5, help="seeds 1..K per cell (default 5)")
    ap.add_argument("--engines", type=int, default=4, help="engines (default 4)")
    ap.add_argument("--splits", default="0,1,2,3",
                    help="prefill engine counts, 0 = colocated (default 0,1,2,3: colocated, 1:3, 2:2, 3:1)")
    ap.add_argument("--es", default="0,1", help="ES arms (default 0,1)")
    ap.add_argument("--load-scale", type=float, default=0.5, help="multiplies each regime's rate (default 0.5)")
    ap.add_argument("--step-jitter", type=float, default=0.05, help="per seed step jitter (default 0.05)")
    ap.add_argument("--arrival-jitter-ms", type=float, default=5, help="unless the regime sets it (default 5)")
    ap.add_argument("--fleetsim-args", default="", help="more kvroute-fleetsim flags for every run")
    ap.add_argument("--jobs", type=int, default=1, help="runs at once (default 1)")
    ap.add_argument("--fleetsim", default=None, help="the kvroute-fleetsim program")
    ap.add_argument("--tracegen", default=None, help="the kvroute-tracegen program")
    ap.add_argument("--write-results", action="store_true", help="replace the table in bench/RESULTS.md")
    a = ap.parse_args(argv)
    fleetsim = a.fleetsim or program("bench/fleetsim/kvroute-fleetsim")
    tracegen = a.tracegen or program("bench/tracegen/kvroute-tracegen")
    with open(a.zoo) as f:
        zoo = {r["name"]: r for r in json.load(f)["regimes"]}
    regimes = [r for r in a.regimes.split(",") if r]
    for r in regimes:
        if r not in zoo:
            ap.error("regime %s is not in %s" % (r, a.zoo))
    splits = [int(x) for x in a.splits.split(",")]
    if 0 not in splits:
        ap.error("--splits must hold 0: the colocated baseline")
    if any(p < 0 or p >= a.engines for p in splits):
        ap.error("--splits: each prefill count must leave a decode engine of the %d" % a.engines)
    arms = [int(x) for x in a.es.split(",")]
    seeds = list(range(1, a.seeds + 1))

    jobs, traces = [], []
    for reg in regimes:
        z = zoo[reg]
        for s in seeds:
            trace = os.path.join(a.out, reg, "trace-%d.jsonl" % s)
            if not os.path.exists(trace):
                os.makedirs(os.path.dirname(trace), exist_ok=True)
                traces.append(([tracegen] + shlex.split(z["tracegen"]) + ["--seed", str(s), "-o", trace],
                               trace + ".log"))
            for p in splits:
                for es in arms:
                    rec = os.path.join(a.out, reg, split_name(p, a.engines).replace(":", "-"),
                                       "es%d" % es, "seed%d.jsonl" % s)
                    cmd = [fleetsim, "--trace", trace, "--engines", str(a.engines),
                           "--rate", "%g" % (z["rate"] * a.load_scale), "--seed", str(s),
                           "--step-jitter", "%g" % a.step_jitter,
                           "--arrival-jitter-ms", str(z.get("arrival_jitter_ms", a.arrival_jitter_ms)),
                           "--es", str(es), "--prefill-engines", str(p), "--out", rec, "--quiet"]
                    cmd += shlex.split(z.get("fleetsim", "").replace(
                        "{upper_half}", "%d-%d" % (a.engines // 2, a.engines - 1)))
                    cmd += shlex.split(a.fleetsim_args)
                    jobs.append(((reg, p, es, s), cmd, rec))
    for cmd, log in traces:
        run((cmd, log))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        list(ex.map(run, [(cmd, rec + ".log") for _, cmd, rec in jobs]))

    fig, engines_of = {}, {}
    for key, _, rec in jobs:
        recs = load_records(rec)
        fig[key] = figures(recs)
        engines_of[key] = {r["index"]: r.get("engine") for r in ok_records(recs)}

    doc = {"regimes": regimes, "splits": splits, "es": arms, "seeds": seeds, "engines": a.engines,
           "load_scale": a.load_scale, "cells": []}
    cmdline = "python3 bench/fleetsim/pd_table.py " + " ".join(shlex.quote(x) for x in (argv or sys.argv[1:]))
    lines = [provenance(), "", "Command: `%s`" % cmdline, "",
             "%d engines, %d seeds per cell, mean ± 95%% interval over seeds; rate: each regime's zoo rate × %g. "
             "P:D = prefill:decode engines. Ratios: the split's p90 over colocated's at the same ES, paired by seed "
             "(**worse** where the whole interval is above 1)." % (a.engines, len(seeds), a.load_scale), ""]
    for reg in regimes:
        lines += ["### %s" % reg, "",
                  "| split | ES | " + " | ".join(t for _, t in METRICS) +
                  " | TTFT p90 vs colocated | TPOT p90 vs colocated |",
                  "|---|---|" + "---|" * (len(METRICS) + 2)]
        for p in splits:
            for es in arms:
                cell = {"regime": reg, "split": split_name(p, a.engines), "es": es}
                row = ["%s" % cell["split"], str(es)]
                for k, _ in METRICS:
                    m, h, _n = interval([fig[(reg, p, es, s)][k] for s in seeds])
                    cell[k] = [m, h]
                    row.append(fmt(m, h, "%.0f" if k.startswith("ttft") else "%.1f"))
                for k in ("ttft_p90", "tpot_p90"):
                    if p == 0:
                        row.append("—")
                        continue
                    vals = []
                    for s in seeds:
                        base, this = fig[(reg, 0, es, s)][k], fig[(reg, p, es, s)][k]
                        vals.append(this / base if base and this is not None else None)
                    m, h, _n = interval(vals)
                    cell[k + "_vs_colocated"] = [m, h]
                    row.append(ratio_cell(m, h))
                doc["cells"].append(cell)
                lines.append("| " + " | ".join(row) + " |")
        lines.append("")
        if 0 in arms and 1 in arms:
            lines += ["ES effect on the pair choice (%s): requests answered by another decode engine at ES=1 than "
                      "at ES=0 of the same seed, and the ES=1 / ES=0 ratio of the p90s." % reg, "",
                      "| split | answering engine moved (the decode engine; colocated: the engine) | TTFT p90 ES=1/ES=0 | "
                      "TPOT p90 ES=1/ES=0 |", "|---|---|---|---|"]
            for p in splits:
                moved = []
                for s in seeds:
                    e0, e1 = engines_of[(reg, p, 0, s)], engines_of[(reg, p, 1, s)]
                    both = [i for i in e0 if i in e1]
                    moved.append(100.0 * sum(1 for i in both if e0[i] != e1[i]) / len(both) if both else None)
                mm, mh, _n = interval(moved)
                row = [split_name(p, a.engines), fmt(mm, mh, "%.1f") + "%"]
                for k in ("ttft_p90", "tpot_p90"):
                    vals = []
                    for s in seeds:
                        x0, x1 = fig[(reg, p, 0, s)][k], fig[(reg, p, 1, s)][k]
                        vals.append(x1 / x0 if x0 and x1 is not None else None)
                    m, h, _n = interval(vals)
                    row.append(ratio_cell(m, h))
                lines.append("| " + " | ".join(row) + " |")
            lines.append("")
    text = "\n".join(lines)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "pd_table.md"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(a.out, "pd_table.json"), "w") as f:
        json.dump(doc, f, indent=1)
    print(text)
    if a.write_results:
        path = os.path.join(ROOT, "bench/RESULTS.md")
        with open(path) as f:
            results = f.read()
        if BEGIN not in results or END not in results:
            raise SystemExit("pd_table: %s has no %s ... %s markers" % (path, BEGIN, END))
        head, rest = results.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        with open(path, "w") as f:
            f.write(head + BEGIN + "\n" + text + "\n" + END + tail)
    return 0


if __name__ == "__main__":
    sys.exit(main())
