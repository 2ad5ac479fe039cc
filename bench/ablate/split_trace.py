#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Splits a trace across several routers by session, and merges the replays'
records back into one file indexed like the whole trace.

  split_trace.py split TRACE N DIR
      writes DIR/trace-r<k>.jsonl and DIR/index-r<k>.txt (the whole trace's
      line number of each line of trace-r<k>.jsonl) for k = 0..N-1, and prints
      one line per part: k, then the ms between the whole trace's first
      timestamp and the part's first (kvroute-replay starts each file's clock at
      its own first request, so the part's replay must start that much later to
      keep the trace's timing). Sessions go to parts round-robin in order of
      first appearance, so every request of a session reaches the same router
      and the split depends on the trace only; a request without a session is
      a session of its own.
  split_trace.py merge DIR N OUT REPLAY...
      reads the N replay record files (kvroute-replay --out) in part order,
      sets each record's index to its line in the whole trace, adds "router"
      (the part) and "router_index" (the index the replay wrote), and writes
      them all to OUT. request_id stays as sent, so it still matches that
      router's decision log.

Standard library only.
"""
import json
import sys


def split(trace_path, n, out_dir):
    parts = [[] for _ in range(n)]      # per part: (whole-trace index, line, timestamp)
    owner = {}
    first_ts = None
    with open(trace_path) as f:
        lines = [l for l in f if l.strip()]
    for i, line in enumerate(lines):
        req = json.loads(line)
        key = req.get("session_id")
        key = "#%d" % i if key is None else "s:%s" % key
        if key not in owner:
            owner[key] = len(owner) % n
        ts = req.get("timestamp", 0)
        first_ts = ts if first_ts is None else min(first_ts, ts)
        parts[owner[key]].append((i, line if line.endswith("\n") else line + "\n", ts))
    offsets = []
    for k, part in enumerate(parts):
        with open("%s/trace-r%d.jsonl" % (out_dir, k), "w") as f:
            f.writelines(line for _, line, _ in part)
        with open("%s/index-r%d.txt" % (out_dir, k), "w") as f:
            f.writelines("%d\n" % i for i, _, _ in part)
        offsets.append(min(ts for _, _, ts in part) - first_ts if part else None)
    return offsets


def merge(split_dir, n, out_path, replay_paths):
    if len(replay_paths) != n:
        raise ValueError("merge: %d replay files for %d parts" % (len(replay_paths), n))
    total = 0
    with open(out_path, "w") as out:
        for k, path in enumerate(replay_paths):
            with open("%s/index-r%d.txt" % (split_dir, k)) as f:
                index = [int(l) for l in f if l.strip()]
            try:
                f = open(path)
            except FileNotFoundError:
                continue  # a part whose replay wrote nothing
            with f:
                for line in f:
                    if not line.strip():
                        continue
                    r = json.loads(line)
                    r["router"] = k
                    r["router_index"] = r["index"]
                    r["index"] = index[r["index"]]
                    out.write(json.dumps(r) + "\n")
                    total += 1
    return total


def main(argv):
    if len(argv) >= 4 and argv[0] == "split":
        for k, off in enumerate(split(argv[1], int(argv[2]), argv[3])):
            print(k, "none" if off is None else off)
        return 0
    if len(argv) >= 4 and argv[0] == "merge":
        merge(argv[1], int(argv[2]), argv[3], argv[4:])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
