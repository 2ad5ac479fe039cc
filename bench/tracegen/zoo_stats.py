#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The workload statistics of every kvroute-tracegen preset, as a Markdown table.

  python3 bench/tracegen/zoo_stats.py [--seed 1] [--readme bench/tracegen/README.md]

Generates each preset with one seed and reports requests, sessions, prompt
tokens (mean, p50, p99), mean output tokens, distinct timestamps, the share
of requests that open with the trace's most common first block (the shared
prefix), the share of prompt tokens in blocks seen before (the bound of an
infinite cache) and the pooled-LRU bound: the prompt-token hit rate of one
prefix cache holding the whole fleet's KV (--fleet-kv tokens, least recently
used block evicted, a prompt hitting its leading blocks that are cached), which
no placement of requests on separate engines can beat. With --readme the
table replaces the block between the zoo-stats markers of that file.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kvrbench.paths import program  # noqa: E402
from kvrbench.records import percentile  # noqa: E402

PRESETS = ["study", "short", "mooncake", "sessionless-shared", "grouped", "ramp-burst", "long-tail", "tenants",
           "agentic"]
# The fleet KV the bound assumes: kvroute-sim's 250,000 tokens per engine, 8 engines; tenants runs its
# engines at 100,000 (bench/fleetsim/zoo.json), so that the tenants' prefixes exceed the fleet's KV.
FLEET_KV = {"tenants": 8 * 100000}
DEFAULT_FLEET_KV = 8 * 250000
BEGIN, END = "<!-- zoo-stats:begin -->", "<!-- zoo-stats:end -->"


def stats(lines, fleet_kv, block=512):
    prompts = [r["input_length"] for r in lines]
    first = collections.Counter(r["hash_ids"][0] for r in lines if r["hash_ids"])
    top = first.most_common(1)[0][1] if first else 0
    seen, reused, total = set(), 0, 0
    lru, cap, hit = collections.OrderedDict(), max(1, fleet_kv // block), 0
    for r in lines:
        ids = r["hash_ids"]
        total += r["input_length"]
        for k, h in enumerate(ids):
            tokens = min(block, r["input_length"] - k * block)
            if h in seen:
                reused += tokens
            seen.add(h)
        for k, h in enumerate(ids):
            if h not in lru:
                break
            hit += min(block, r["input_length"] - k * block)
        for h in ids:
            lru[h] = True
            lru.move_to_end(h)
        while len(lru) > cap:
            lru.popitem(last=False)
    sessions = {r.get("session_id") for r in lines if r.get("session_id") is not None}
    return {"requests": len(lines), "sessions": len(sessions) or None,
            "prompt_mean": sum(prompts) / len(prompts), "prompt_p50": percentile(prompts, 50),
            "prompt_p99": percentile(prompts, 99), "output_mean": sum(r["output_length"] for r in lines) / len(lines),
            "timestamps": len({r["timestamp"] for r in lines}), "window_s": (lines[-1]["timestamp"] -
                                                                               lines[0]["timestamp"]) / 1000.0,
            "shared_first": 100.0 * top / len(lines), "reuse_bound": 100.0 * reused / total,
            "lru_bound": 100.0 * hit / total, "fleet_kv": fleet_kv}


def table(rows):
    out = ["| preset | requests | sessions | span s | prompt mean | p50 | p99 | output mean | distinct timestamps | "
           "open with the top block % | reused tokens % | pooled-LRU hit % (fleet KV) |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, s in rows:
        out.append("| %s | %d | %s | %.0f | %.0f | %.0f | %.0f | %.0f | %d | %.1f | %.1f | %.1f (%dk) |" % (
            name, s["requests"], s["sessions"] if s["sessions"] else "none", s["window_s"], s["prompt_mean"],
            s["prompt_p50"], s["prompt_p99"], s["output_mean"], s["timestamps"], s["shared_first"],
            s["reuse_bound"], s["lru_bound"], s["fleet_kv"] // 1000))
    return "\n".join(out)


def replace_block(path, text):
    with open(path) as f:
        doc = f.read()
    a, b = doc.find(BEGIN), doc.find(END)
    if a < 0 or b < a:
        raise SystemExit("zoo_stats: %s has no %s ... %s block" % (path, BEGIN, END))
    with open(path, "w") as f:
        f.write(doc[:a + len(BEGIN)] + "\n" + text + "\n" + doc[b:])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tracegen", default=program("bench/tracegen/kvroute-tracegen"),
                    help="the kvroute-tracegen program (default: build/plain, else build/dev)")
    ap.add_argument("--seed", type=int, default=1, help="the seed of every preset (default 1)")
    ap.add_argument("--presets", default=",".join(PRESETS), help="comma-separated presets (default: all)")
    ap.add_argument("--readme", help="rewrite the table between the zoo-stats markers of this file")
    a = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for name in a.presets.split(","):
            path = os.path.join(d, name + ".jsonl")
            subprocess.run([a.tracegen, "--preset", name, "--seed", str(a.seed), "-o", path], check=True)
            with open(path) as f:
                lines = [json.loads(l) for l in f]
            rows.append((name, stats(lines, FLEET_KV.get(name, DEFAULT_FLEET_KV))))
    text = ("Seed %d, `python3 bench/tracegen/zoo_stats.py --readme bench/tracegen/README.md` wrote this table.\n\n"
            % a.seed) + table(rows)
    if a.readme:
        replace_block(a.readme, text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
