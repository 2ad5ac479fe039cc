#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How well placement spread the fleet's real load, per cell of a run.

  inflight.py RUN_DIR [--policies LIST]

From a cell's replay.jsonl (every router's requests, merged): at each
request's send instant, the requests in flight (sent, not yet ended) on every
engine of the fleet. Reports the mean excess of the chosen engine over the
least loaded one (0 = every request went to a least loaded engine, as the
whole fleet saw it) and the mean spread max - min, over all requests and over
first turns (a session's placement). From the decision logs (decisions.jsonl
or decisions-r<k>.jsonl): over decisions that placed a request (reason other
than sticky_pin), the mean in-flight count the router used for the chosen
engine (eff.requests) and its own shadow count (shadow_requests); with ES=1
their difference is load the feed showed and the router's own counters missed.

Run with bench/ on PYTHONPATH: PYTHONPATH=bench python3 bench/ablate/inflight.py
RUN_DIR. Standard library only.
"""
import argparse
import bisect
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kvrbench import records  # noqa: E402


def excess(recs):
    """Per request: (in flight on its engine, min over engines, max over engines) at its send."""
    engines = sorted({r["engine"] for r in recs if r.get("engine")})
    spans = {e: ([], []) for e in engines}
    for r in recs:
        if r.get("engine") and r.get("send_mono_ns") and r.get("end_mono_ns"):
            spans[r["engine"]][0].append(r["send_mono_ns"])
            spans[r["engine"]][1].append(r["end_mono_ns"])
    for e in engines:
        spans[e][0].sort()
        spans[e][1].sort()
    out = []
    for r in recs:
        if not r.get("engine") or not r.get("send_mono_ns"):
            continue
        t = r["send_mono_ns"]
        # in flight at t, the request itself excluded: sent before t, ended after t
        load = {e: bisect.bisect_left(s, t) - bisect.bisect_right(en, t) for e, (s, en) in spans.items()}
        out.append((r, load[r["engine"]], min(load.values()), max(load.values())))
    return out


def decisions(cell_dir):
    placed = []
    for path in records.decision_files(cell_dir):
        for d in records.load_decisions(path):
            if d.get("reason") != "sticky_pin" and d.get("eff") and d.get("shadow_requests") is not None:
                placed.append((d["eff"]["requests"], d["shadow_requests"]))
    return placed


def mean(v):
    m = records.mean(v)
    return float("nan") if m is None else m


def cell(run_dir, policy, arm):
    d = os.path.join(run_dir, policy, arm)
    recs = records.load_cell(run_dir, policy, arm)
    ex = excess(recs)
    first = [x for x in ex if x[0].get("turn") == 0]
    placed = decisions(d)
    return {"excess": mean([c - lo for _, c, lo, _ in ex]), "spread": mean([hi - lo for _, _, lo, hi in ex]),
            "excess_first": mean([c - lo for _, c, lo, _ in first]),
            "placements": len(placed), "eff": mean([e for e, _ in placed]), "shadow": mean([s for _, s in placed])}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run_dir")
    ap.add_argument("--policies")
    args = ap.parse_args(argv)
    pols = args.policies.split(",") if args.policies else records.policies_in(args.run_dir)
    print("| policy | arm | excess over least loaded (all / first turns) | spread max-min | placements |"
          " eff.requests / shadow at placement |")
    print("| --- | --- | --- | --- | --- | --- |")
    for p in pols:
        for arm in ("es0", "es1"):
            if not os.path.isdir(os.path.join(args.run_dir, p, arm)):
                continue
            c = cell(args.run_dir, p, arm)
            print("| %s | %s | %.2f / %.2f | %.2f | %d | %.2f / %.2f |" % (
                p, arm, c["excess"], c["excess_first"], c["spread"], c["placements"], c["eff"], c["shadow"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
