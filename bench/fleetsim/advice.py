#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Which rule to pick, written from a workload-zoo sweep's results.

  python3 bench/fleetsim/advice.py DIR/zoo.json [--es 1] [--readme README.md]

Reads the zoo.json of `sweep.py --zoo` and prints, per regime and router
count, the rule with the lowest mean TTFT p90 and its TTFT p90 over the best
peer rule's (paired by seed, with its 95% interval), then the rule whose
worst ratio to the best peer over every regime is lowest: the safe default
when the workload is not known. With --readme it replaces the block between
the zoo-advice markers of that file (README.md's "which to pick" section)
with the same text as a table. Standard library only.
"""
import argparse
import json
import sys

BEGIN, END = "<!-- zoo-advice:begin -->", "<!-- zoo-advice:end -->"


def cell(doc, regime, rule, routers, es):
    return next((c for c in doc["cells"] if c["regime"] == regime and c["policy"] == rule
                 and c["routers"] == routers and c["es"] == es), None)


def ratio_text(pr):
    if not pr or pr["mean"] is None:
        return "n/a"
    if pr["ci95"] is None:
        return "%.2f× `%s`" % (pr["mean"], pr["peer"])
    return "%.2f× (%.2f–%.2f) `%s`" % (pr["mean"], pr["mean"] - pr["ci95"], pr["mean"] + pr["ci95"], pr["peer"])


def advice(doc, es):
    """(rows, safe): per regime the best rule per router count; the rule of lowest worst-case ratio."""
    routers = sorted({c["routers"] for c in doc["cells"] if c["es"] == es})
    rows = []
    for reg in [r["name"] for r in doc["regimes"]]:
        picks = []
        for nr in routers:
            cands = [c for c in (cell(doc, reg, rule, nr, es) for rule in doc["rules"])
                     if c and c["ttft_p90"]["mean"] is not None]
            best = min(cands, key=lambda c: c["ttft_p90"]["mean"]) if cands else None
            picks.append((nr, best))
        rows.append((reg, picks))
    worst = {}
    for rule in doc["rules"]:
        vals = [c["peer_ratio"]["mean"] for c in doc["cells"] if c["policy"] == rule and c["es"] == es
                and c.get("peer_ratio") and c["peer_ratio"]["mean"] is not None]
        if vals:
            worst[rule] = max(vals)
    safe = min(worst.items(), key=lambda kv: kv[1]) if worst else None
    return routers, rows, safe


def text(doc, es):
    routers, rows, safe = advice(doc, es)
    h = doc["header"]
    lines = ["From the workload zoo in the simulated fleet (%d engines, ES=%d, %d seeds per cell; commit %s, %s). "
             "Per regime, the rule with the lowest TTFT p90 and its p90 over the best peer rule (%s), paired by "
             "seed, with the 95%% interval:" % (doc["engines"], es, len(doc["seeds"] or []), h["commit"], h["date"],
                                               ", ".join("`%s`" % p for p in doc["peers"])), "",
             "| regime | " + " | ".join("%d router%s" % (nr, "" if nr == 1 else "s") for nr in routers) + " |",
             "| --- |" + " --- |" * len(routers)]
    for reg, picks in rows:
        cols = []
        for nr, c in picks:
            cols.append("`%s`: %s" % (c["policy"], ratio_text(c.get("peer_ratio"))) if c else "n/a")
        lines.append("| %s | %s |" % (reg, " | ".join(cols)))
    if safe:
        lines += ["", "Not knowing the workload: `%s`, whose TTFT p90 is at worst %.2f× the best peer rule's over "
                      "every regime and router count, the lowest worst case of any rule." % safe]
    return "\n".join(lines)


def es_ratio(doc, rule, routers, regime):
    """ES=1 TTFT p90 over ES=0's for one rule, paired by seed: (mean, ci95) or None."""
    p90 = {(r["es"], r["seed"]): r["ttft_p90"] for r in doc["runs"] if r["regime"] == regime
           and r["policy"] == rule and r["routers"] == routers}
    vals = [p90[(1, s)] / p90[(0, s)] if p90.get((1, s)) and p90.get((0, s)) else None for s in doc["seeds"] or []]
    m, h, n = sweep_interval(vals)
    return (m, h) if m is not None else None


def sweep_interval(values):
    import math
    v = [x for x in values if x is not None]
    if len(v) < 2:
        return (v[0] if v else None), None, len(v)
    m = sum(v) / len(v)
    sd = math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1))
    t = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}.get(len(v) - 1, 2.0)
    return m, t * sd / math.sqrt(len(v)), len(v)


def verdict(doc, win=0.90):
    """Per rule: the cells where it is worse than the best peer beyond the interval, the cells
    where its ES=1 is worse than its ES=0 beyond the interval, and the share of cells at <= win."""
    out = {}
    for rule in doc["rules"]:
        mine = [c for c in doc["cells"] if c["policy"] == rule and c.get("peer_ratio")
                and c["peer_ratio"]["mean"] is not None]
        if not mine:
            continue
        loses = [c for c in mine if c["peer_ratio"]["mean"] - (c["peer_ratio"]["ci95"] or 0) > 1]
        wins = [c for c in mine if c["peer_ratio"]["mean"] <= win]
        es_worse = []
        for reg in {c["regime"] for c in mine}:
            for nr in {c["routers"] for c in mine}:
                r = es_ratio(doc, rule, nr, reg)
                if r and r[0] - (r[1] or 0) > 1:
                    es_worse.append((reg, nr, r))
        out[rule] = {"cells": len(mine), "loses": loses, "wins": wins, "es_worse": es_worse,
                     "ok": not loses and not es_worse and 2 * len(wins) >= len(mine)}
    return out


def verdict_text(doc):
    lines = []
    for rule, v in verdict(doc).items():
        lines.append("%s: %s; worse than the best peer beyond the interval in %d of %d cells, <= 0.90x in %d, "
                     "ES=1 worse than ES=0 in %d" % (rule, "MEETS the criterion" if v["ok"] else "fails",
                                                     len(v["loses"]), v["cells"], len(v["wins"]),
                                                     len(v["es_worse"])))
        for c in v["loses"]:
            lines.append("  loses: %s, %d router(s), ES=%d: %s" % (c["regime"], c["routers"], c["es"],
                                                                  ratio_text(c["peer_ratio"])))
        for reg, nr, (m, h) in v["es_worse"]:
            lines.append("  ES=1/ES=0: %s, %d router(s): %.2f ± %.2f" % (reg, nr, m, h or 0))
    return "\n".join(lines)


def replace_block(path, body):
    with open(path) as f:
        doc = f.read()
    a, b = doc.find(BEGIN), doc.find(END)
    if a < 0 or b < a:
        raise SystemExit("advice: %s has no %s ... %s block" % (path, BEGIN, END))
    with open(path, "w") as f:
        f.write(doc[:a + len(BEGIN)] + "\n" + body + "\n" + doc[b:])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("zoo_json", help="zoo.json written by sweep.py --zoo")
    ap.add_argument("--es", type=int, default=1, help="the ES arm the advice is for (default 1)")
    ap.add_argument("--verdict", action="store_true",
                    help="print, per rule, where it is worse than the best peer or than its own ES=0 beyond the "
                         "interval, and whether it meets the default's criterion")
    ap.add_argument("--readme", help="rewrite the block between the zoo-advice markers of this file")
    a = ap.parse_args(argv)
    with open(a.zoo_json) as f:
        doc = json.load(f)
    if a.verdict:
        print(verdict_text(doc))
        return 0
    body = text(doc, a.es)
    if a.readme:
        replace_block(a.readme, body)
    print(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
