#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Before/after tables of `kvroute-bench-decision --fleet` runs, medians over runs.

    compare_fleet.py --before b1.txt b2.txt b3.txt --after a1.txt a2.txt a3.txt

Prints, per policy and fleet size, p50 / p99 of the wall clock and of the
thread's CPU time (median over the runs of each side), and the min-max of
p99 over the runs, as Markdown tables.
"""
import argparse
import statistics


def load(path):
    """(policy, engines) -> (pick_p50, pick_p99, cpu_p50, cpu_p99) of one run's output."""
    rows = {}
    with open(path) as f:
        for line in f:
            p = line.split()
            # policy engines sessions blocks | mean p50 p99 max | cpu_p50 cpu_p99 | dispatch | matched
            if len(p) >= 12 and p[1].isdigit() and p[4] == "|":
                rows[(p[0], int(p[1]))] = (float(p[6]), float(p[7]), float(p[10]), float(p[11]))
    return rows


def fmt(x):
    return f"{x:.3g}" if x < 100 else f"{x:.0f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", nargs="+", required=True)
    ap.add_argument("--after", nargs="+", required=True)
    args = ap.parse_args()
    before = [load(p) for p in args.before]
    after = [load(p) for p in args.after]
    keys = [k for k in before[0] if all(k in r for r in before + after)]
    policies = list(dict.fromkeys(k[0] for k in keys))
    sizes = sorted({k[1] for k in keys})

    def med(runs, key, col):
        return statistics.median(r[key][col] for r in runs)

    for col, name in ((0, "wall clock"), (2, "CPU time")):
        print(f"\nµs per pick, {name}, p50 / p99, median of {len(before)} / {len(after)} runs, "
              "before → after:\n")
        print("| policy | " + " | ".join(f"{s:,} engines" for s in sizes) + " |")
        print("| --- |" + " --- |" * len(sizes))
        for pol in policies:
            cells = []
            for s in sizes:
                k = (pol, s)
                cells.append(f"{fmt(med(before, k, col))} / {fmt(med(before, k, col + 1))} → "
                             f"{fmt(med(after, k, col))} / {fmt(med(after, k, col + 1))}")
            print(f"| {pol} | " + " | ".join(cells) + " |")
    print("\nwall-clock p99, min–max over the runs, before → after:\n")
    print("| policy | " + " | ".join(f"{s:,} engines" for s in sizes) + " |")
    print("| --- |" + " --- |" * len(sizes))
    for pol in policies:
        cells = []
        for s in sizes:
            b = [r[(pol, s)][1] for r in before]
            a = [r[(pol, s)][1] for r in after]
            cells.append(f"{fmt(min(b))}–{fmt(max(b))} → {fmt(min(a))}–{fmt(max(a))}")
        print(f"| {pol} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
