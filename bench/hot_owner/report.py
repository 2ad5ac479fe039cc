#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Figures of the hot-owner scenario, per arm and side by side.

Reads <run>/<arm>/ for each arm (off, on): phase1.jsonl and phase2.jsonl
(kvroute-replay records), feed.txt (kvroute-feedsample), decisions.jsonl
(router decision log) and arm.json (owner, peer, time scale). Writes
<run>/results.md and prints it. Run with bench/ on PYTHONPATH (run.sh sets
it through bench/lib.sh). Standard library only.
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kvrbench import records  # noqa: E402
from kvrbench.records import base_url, load_records, percentile  # noqa: E402


def fleet_running_max(feed_path):
    """Largest sum over engines of the latest reported running count."""
    if not os.path.exists(feed_path):
        return None
    latest, best = {}, 0
    for p in records.feed_lines(feed_path):
        if p[0] == "s":
            latest[p[2]] = int(p[6])
            best = max(best, sum(latest.values()))
    return best


def reasons(path):
    out = {}
    for d in records.load_decisions(path, skip_bad=True):
        r = d.get("reason") or "unlabelled"
        out[r] = out.get(r, 0) + 1
    return out


def arm_figures(arm_dir):
    meta = json.load(open(os.path.join(arm_dir, "arm.json")))
    scale = float(meta.get("time_scale", 1))
    recs = load_records(os.path.join(arm_dir, "phase1.jsonl")) + load_records(os.path.join(arm_dir, "phase2.jsonl"))
    ok = [r for r in recs if r.get("ok")]
    if not recs:
        return None
    first = min(r["send_mono_ns"] for r in recs)
    last = max(r["end_mono_ns"] for r in recs)
    wall_s = (last - first) / 1e9 * scale  # simulated seconds
    out_tokens = sum(r.get("output_tokens") or 0 for r in ok)
    by_session = {}
    for r in recs:
        by_session.setdefault(r["session"], []).append(r)
    turns = meta.get("turns", 3)
    complete = sum(1 for rs in by_session.values() if len(rs) == turns and all(x.get("ok") for x in rs))
    lat = [r["e2e_ms"] * scale / 1000.0 for r in ok if r.get("e2e_ms") is not None]
    gen = {}
    for r in ok:
        e = r.get("engine") or base_url(r.get("target"))
        gen[e] = gen.get(e, 0) + (r.get("output_tokens") or 0)
    prompt = sum(r.get("prompt_tokens") or 0 for r in ok)
    cached = sum(r.get("cached_tokens") or 0 for r in ok)
    return {
        "requests": len(recs), "ok": len(ok), "trajectories": len(by_session), "complete": complete,
        "wall_s": wall_s, "tok_s": out_tokens / wall_s if wall_s > 0 else 0.0,
        "traj_per_hour": complete / wall_s * 3600 if wall_s > 0 else 0.0,
        "lat_p50": percentile(lat, 50), "lat_p95": percentile(lat, 95),
        "running_max": fleet_running_max(os.path.join(arm_dir, "feed.txt")),
        "gen_share": {("owner" if e == meta.get("owner") else "peer" if e == meta.get("peer") else e):
                      100.0 * t / out_tokens if out_tokens else 0.0 for e, t in gen.items()},
        "cached_pct": 100.0 * cached / prompt if prompt else 0.0,
        "reasons": reasons(os.path.join(arm_dir, "decisions.jsonl")),
        "scale": scale,
    }


def fmt(v, spec):
    return "n/a" if v is None or (isinstance(v, float) and math.isnan(v)) else spec % v


def main(argv):
    if len(argv) != 2:
        print("usage: report.py RUN_DIR", file=sys.stderr)
        return 2
    run = argv[1]
    arms = [("off", "cache_aware"), ("on", "cache_aware --owner-pressure 1")]
    figs = {a: arm_figures(os.path.join(run, a)) for a, _ in arms if os.path.isdir(os.path.join(run, a))}
    rows = [
        ("fleet output tokens/s", "tok_s", "%.0f"), ("wall time (s)", "wall_s", "%.1f"),
        ("completed trajectories/hour", "traj_per_hour", "%.0f"), ("latency p50 (s)", "lat_p50", "%.1f"),
        ("latency p95 (s)", "lat_p95", "%.1f"), ("fleet running max", "running_max", "%d"),
        ("cached prompt fraction (%)", "cached_pct", "%.2f"), ("requests ok / sent", None, None),
    ]
    present = [(a, label) for a, label in arms if figs.get(a)]
    md = ["# Hot-owner scenario", "", "| figure | " + " | ".join(label for _, label in present) + " |",
          "| --- |" + " --- |" * len(present)]
    for title, key, spec in rows:
        if key is None:
            vals = ["%d / %d" % (figs[a]["ok"], figs[a]["requests"]) for a, _ in present]
        else:
            vals = [fmt(figs[a][key], spec) for a, _ in present]
        md.append("| %s | %s |" % (title, " | ".join(vals)))
    md.append("| generation share | %s |" % " | ".join(
        ", ".join("%s %.0f%%" % kv for kv in sorted(figs[a]["gen_share"].items())) for a, _ in present))
    md.append("| decisions by reason | %s |" % " | ".join(
        ", ".join("%s %d" % kv for kv in sorted(figs[a]["reasons"].items())) or "none" for a, _ in present))
    if figs.get("off") and figs.get("on") and figs["off"]["tok_s"] > 0:
        md += ["", "Throughput with owner pressure: %.3fx; cache reuse change: %+.2f points." % (
            figs["on"]["tok_s"] / figs["off"]["tok_s"], figs["on"]["cached_pct"] - figs["off"]["cached_pct"])]
    scale = next(iter(figs.values()))["scale"] if figs else 1
    if scale != 1:
        md += ["", "Times are simulated seconds (real seconds x time scale %g)." % scale]
    text = "\n".join(md) + "\n"
    with open(os.path.join(run, "results.md"), "w") as f:
        f.write(text)
    with open(os.path.join(run, "summary.json"), "w") as f:
        json.dump(figs, f, indent=1)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
