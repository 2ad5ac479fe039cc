#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The replicas table: for each ablation run directory given as LABEL=DIR
(bench/ablate/run.sh output, one arm), per policy: TTFT p50/p90, cache hit,
engines per session (compare.py's summary.json) and the spread of requests in
flight over the engines at each placement (inflight.py)."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "ablate"))
import inflight  # noqa: E402


def main(argv):
    arm = "es0"
    rows = []
    for spec in argv:
        label, run_dir = spec.split("=", 1)
        for s in json.load(open(os.path.join(run_dir, "summary.json"))):
            a = s[arm]
            if not a["requests"]:
                continue
            c = inflight.cell(run_dir, s["policy"], arm)
            rows.append((s["policy"], label, a, c))
    rows.sort(key=lambda r: r[0])
    print("| policy | routers, sharing | TTFT p50 ms | TTFT p90 ms | cache hit % | engines / session |"
          " spread max-min | excess over least loaded | ok |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for policy, label, a, c in rows:
        print("| %s | %s | %.0f | %.0f | %.1f | %.2f | %.2f | %.2f | %d/%d |" % (
            policy, label, a["ttft_p50"], a["ttft_p90"], a["cache_hit"], a["inst_per_session"],
            c["spread"], c["excess"], a["ok"], a["requests"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
