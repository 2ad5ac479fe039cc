#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a hot-owner arm's arm.json: what report.py and kvroute-canary read.

  arm_json.py PATH OWNER PEER TIME_SCALE TURNS HELD_START_RUNNING E0 E1 [FAILURE...]

The inputs are the arm's files as run.sh writes them (format in
bench/canary/README.md); each FAILURE is something that went wrong in the
run itself, which makes the canary refuse the arm.
"""
import json
import sys


def main(argv):
    if len(argv) < 9:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    path, owner, peer, scale, turns, running, e0, e1 = argv[1:9]
    doc = {
        "owner": owner, "peer": peer, "time_scale": float(scale), "turns": int(turns),
        "held_start_running": int(running) if running.lstrip("-").isdigit() else None,
        "records": [{"file": "phase1.jsonl", "trace": "../phase1.trace.jsonl"},
                    {"file": "phase2.jsonl", "trace": "../phase2.trace.jsonl"}],
        "metrics": "router-metrics.txt", "feed": "feed.txt", "decisions": ["decisions.jsonl"],
        "engine_metrics": ["engine-0-metrics.txt", "engine-1-metrics.txt"], "engines": [e0, e1],
        "roles": {owner: "owner", peer: "peer"}, "failures": argv[9:],
    }
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
