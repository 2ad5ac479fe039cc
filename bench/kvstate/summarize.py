#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Figures of bench/kvstate/run.sh.

  summarize.py run DIR MODE N     one run's figures into DIR/figures.json (and a line on stdout)
  summarize.py table OUT MODES    the table over OUT/<mode>/run*/figures.json, as markdown

Hit rate: the simulator's own counters, vllm:prefix_cache_hits_total over
vllm:prefix_cache_queries_total summed over every engine. TTFT: the replays'
records (send to the first content chunk) of successful requests. Standard
library plus bench/kvrbench.
"""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kvrbench.metrics import parse_prom  # noqa: E402


def percentile(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    at = q * (len(values) - 1)
    lo = int(at)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (at - lo)


def prom_sum(paths, name):
    total = 0.0
    for path in paths:
        with open(path) as f:
            for n, _, v in parse_prom(f.read()):
                if n == name:
                    total += v
    return total


def run(d, mode, n):
    sims = sorted(glob.glob(os.path.join(d, "sim-metrics-*.txt")))
    routers = sorted(glob.glob(os.path.join(d, "router-metrics-r*.txt")))
    hits = prom_sum(sims, "vllm:prefix_cache_hits_total")
    queries = prom_sum(sims, "vllm:prefix_cache_queries_total")
    ttft, ok, total = [], 0, 0
    with open(os.path.join(d, "replay.jsonl")) as f:
        for line in f:
            if not line.strip():
                continue
            rec = json.loads(line)
            total += 1
            if rec.get("ok") and rec.get("ttft_ms") is not None:
                ok += 1
                ttft.append(float(rec["ttft_ms"]))
    decisions = 0
    for path in glob.glob(os.path.join(d, "decisions-r*.jsonl")):
        with open(path) as f:
            decisions += sum(1 for line in f if line.strip())
    fig = {
        "mode": mode,
        "run": int(n),
        "requests": total,
        "ok": ok,
        "hit_rate": hits / queries if queries else float("nan"),
        "ttft_p50_ms": percentile(ttft, 0.5),
        "ttft_p90_ms": percentile(ttft, 0.9),
        "decisions": decisions,
        "lookups": prom_sum(routers, "kvroute_cache_state_lookups_total"),
        "untrusted": prom_sum(routers, "kvroute_cache_state_untrusted_total"),
        "no_token_hashes": sum(v for p in routers for nm, lab, v in parse_prom(open(p).read())
                               if nm == "kvroute_cache_state_fallbacks_total"
                               and lab.get("reason") == "no_token_hashes"),
    }
    looked = fig["lookups"] * len(sims)
    fig["untrusted_share"] = fig["untrusted"] / looked if looked else 0.0
    with open(os.path.join(d, "figures.json"), "w") as f:
        json.dump(fig, f)
    print("kvstate: %s run %s: %d/%d ok, hit rate %.3f, TTFT p50 %.0f ms p90 %.0f ms, "
          "%d decisions, %d table lookups, %.1f%% of their candidates untrusted" % (
              mode, n, ok, total, fig["hit_rate"],
                                             fig["ttft_p50_ms"], fig["ttft_p90_ms"], decisions,
                                             fig["lookups"], 100 * fig["untrusted_share"]))


def spread(values, fmt):
    if not values:
        return "-"
    mean = sum(values) / len(values)
    return (fmt + " (" + fmt + "–" + fmt + ")") % (mean, min(values), max(values))


def table(out, modes):
    with open(os.path.join(out, "run.txt")) as f:
        header = f.read().strip().splitlines()
    lines = ["    " + h for h in header] + [""]
    lines.append("| --cache-state | runs | hit rate, mean (min–max) | TTFT p50 ms | TTFT p90 ms "
                 "| untrusted candidates | per run: hit rate / p50 / p90 |")
    lines.append("| --- | --: | --: | --: | --: | --: | --- |")
    for mode in modes.split(","):
        figs = []
        for path in sorted(glob.glob(os.path.join(out, mode, "run*", "figures.json"))):
            with open(path) as f:
                figs.append(json.load(f))
        figs.sort(key=lambda x: x["run"])
        per = "; ".join("%.3f / %.0f / %.0f" % (x["hit_rate"], x["ttft_p50_ms"], x["ttft_p90_ms"])
                        for x in figs)
        untrusted = [100 * x.get("untrusted_share", 0) for x in figs if x.get("lookups")]
        lines.append("| %s | %d | %s | %s | %s | %s | %s |" % (
            mode, len(figs), spread([x["hit_rate"] for x in figs], "%.3f"),
            spread([x["ttft_p50_ms"] for x in figs], "%.0f"),
            spread([x["ttft_p90_ms"] for x in figs], "%.0f"),
            spread(untrusted, "%.0f%%") if untrusted else "-", per))
    print("\n".join(lines))


def main(argv):
    if len(argv) == 4 and argv[0] == "run":
        run(argv[1], argv[2], argv[3])
    elif len(argv) == 3 and argv[0] == "table":
        table(argv[1], argv[2])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
