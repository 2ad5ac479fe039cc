#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Splits the hot-owner trace into its phases.

  phases.py RUN_DIR HELD OUTPUT_TOKENS

Reads RUN_DIR/trace.jsonl (kvroute-tracegen, one tenant) and writes
phase1.trace.jsonl (the first HELD trajectories, placed on the owner),
phase2.trace.jsonl (the rest, released through the router later) and
warm.trace.jsonl (one request of the blocks every trajectory shares, which
makes an engine the prefix's owner). Every turn generates OUTPUT_TOKENS.
"""
import json
import sys


def main(argv):
    if len(argv) != 4:
        print("usage: phases.py RUN_DIR HELD OUTPUT_TOKENS", file=sys.stderr)
        return 2
    out, held, output_tokens = argv[1], int(argv[2]), int(argv[3])
    lines = [json.loads(line) for line in open(out + "/trace.jsonl")]
    for d in lines:
        d["output_length"] = output_tokens  # every turn generates exactly this many tokens
    with open(out + "/phase1.trace.jsonl", "w") as p1, open(out + "/phase2.trace.jsonl", "w") as p2:
        for d in lines:
            (p1 if int(d["session_id"][1:]) < held else p2).write(json.dumps(d) + "\n")
    # the warm request: the blocks every trajectory shares, one output token, its own session
    firsts = [d["hash_ids"] for d in lines if d["turn"] == 0]
    shared = 0
    while all(len(h) > shared and h[shared] == firsts[0][shared] for h in firsts):
        shared += 1
    warm = {"timestamp": 0, "input_length": shared * 512, "output_length": 1,
            "hash_ids": firsts[0][:shared], "session_id": "warm", "turn": 0}
    with open(out + "/warm.trace.jsonl", "w") as f:
        f.write(json.dumps(warm) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
