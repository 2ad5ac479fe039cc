# SPDX-License-Identifier: Apache-2.0
"""sweep.py --zoo: the grid on every regime of a regime table, and each rule
against the best peer rule. Imported by sweep.py; see its --help."""
import datetime
import json
import os
import shlex
import subprocess
import sys
import tempfile

import sweep


def load_table(path):
    with open(path) as f:
        table = json.load(f)
    names = [r["name"] for r in table["regimes"]]
    if len(set(names)) != len(names):
        raise SystemExit("sweep: %s names a regime twice" % path)
    return table


def known_rules(fleetsim, rules):
    """The rules kvroute-fleetsim accepts as --policy (cache_aware_op is cache_aware with a flag)."""
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "one.jsonl")
        with open(trace, "w") as f:
            f.write('{"timestamp":0,"input_length":16,"output_length":1,"hash_ids":[1]}\n')
        out = []
        for r in rules:
            pol = "cache_aware" if r == "cache_aware_op" else r
            p = subprocess.run([fleetsim, "--trace", trace, "--engines", "1", "--policy", pol, "--quiet"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if p.returncode != 2:
                out.append(r)
        return out


def header(argv):
    """Commit, date, machine and command: what the report says of itself."""
    try:
        commit = subprocess.run(["git", "-C", sweep.ROOT, "describe", "--always", "--dirty"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True).stdout.strip() or "unknown"
    except OSError:
        commit = "unknown"
    u = os.uname()
    return {"commit": commit, "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": "%s %s %s, %d cores" % (u.sysname, u.release, u.machine, os.cpu_count() or 0),
            "command": " ".join(shlex.quote(x) for x in ["bench/fleetsim/sweep.py"] + list(argv))}


def engine_flags(text, engines):
    return text.replace("{upper_half}", "%d-%d" % (engines // 2, engines - 1))


def peer_ratios(cells, runs, peers, seeds):
    """Per cell: its TTFT p90 over the best peer's (the peer of lowest mean p90 in the same
    regime, routers and ES), per seed, with the interval over seeds."""
    by_cell = {}
    for r in runs:
        by_cell[(r["regime"], r["policy"], r["routers"], r["es"], r["seed"])] = r["ttft_p90"]
    for c in cells:
        group = [p for p in cells if p["regime"] == c["regime"] and p["routers"] == c["routers"]
                 and p["es"] == c["es"] and p["policy"] in peers and p["ttft_p90"]["mean"] is not None]
        if not group:
            c["peer_ratio"] = None
            continue
        best = min(group, key=lambda p: p["ttft_p90"]["mean"])["policy"]
        ratios = []
        for s in seeds:
            x = by_cell.get((c["regime"], c["policy"], c["routers"], c["es"], s))
            b = by_cell.get((c["regime"], best, c["routers"], c["es"], s))
            ratios.append(x / b if x is not None and b else None)
        m, h, n = sweep.interval(ratios)
        c["peer_ratio"] = {"peer": best, "mean": m, "ci95": h, "n": n}


def run(a, argv, sweep_main):
    table = load_table(a.zoo)
    regimes = table["regimes"]
    if a.regimes:
        want = a.regimes.split(",")
        unknown = [w for w in want if w not in {r["name"] for r in regimes}]
        if unknown:
            raise SystemExit("sweep: --regimes: %s not in %s" % (",".join(unknown), a.zoo))
        regimes = [r for r in regimes if r["name"] in want]
    asked = a.policies.split(",") if a.policies else table["rules"]
    rules = known_rules(a.fleetsim, asked)
    for r in asked:
        if r not in rules:
            print("sweep: rule %s left out: kvroute-fleetsim does not know it" % r, file=sys.stderr)
    peers = [p for p in sweep.PEERS if p in rules]
    os.makedirs(a.out, exist_ok=True)
    head = header(argv)
    cells, runs, seeds = [], [], None
    for reg in regimes:
        rate = reg.get("rate", 1.0) * a.load_scale
        sub = ["--out", os.path.join(a.out, reg["name"]), "--tracegen-args", reg["tracegen"],
               "--tracegen", a.tracegen, "--fleetsim", a.fleetsim, "--policies", ",".join(rules), "--es", a.es,
               "--routers", a.routers, "--loads", "%g" % rate, "--seeds", str(a.seeds), "--engines", str(a.engines),
               "--arrival-jitter-ms", reg.get("arrival_jitter_ms", a.arrival_jitter_ms),
               "--step-jitter", a.step_jitter, "--router-args", a.router_args, "--jobs", str(a.jobs),
               "--slo-ttft-ms", str(a.slo_ttft_ms), "--slo-tpot-ms", str(a.slo_tpot_ms),
               "--fleetsim-args", (engine_flags(reg.get("fleetsim", ""), a.engines) + " " + a.fleetsim_args).strip()]
        sub += (["--reuse"] if a.reuse else []) + (["--run-duplicates"] if a.run_duplicates else [])
        print("sweep: regime %s" % reg["name"], file=sys.stderr)
        rc = sweep_main(sub, quiet=True)
        if rc:
            return rc
        with open(os.path.join(a.out, reg["name"], "results.json")) as f:
            res = json.load(f)
        seeds = res["seeds"]
        for c in res["cells"]:
            c["regime"] = reg["name"]
            cells.append(c)
        for r in res["runs"]:
            r["regime"] = reg["name"]
            runs.append(r)
    peer_ratios(cells, runs, peers, seeds or [])
    doc = {"header": head, "slo": {"ttft_ms": a.slo_ttft_ms, "tpot_ms": a.slo_tpot_ms}, "peers": peers,
           "rules": rules, "seeds": seeds, "engines": a.engines, "regimes": regimes, "cells": cells, "runs": runs}
    with open(os.path.join(a.out, "zoo.json"), "w") as f:
        json.dump(doc, f, indent=1)
    text = report(doc)
    with open(os.path.join(a.out, "zoo.md"), "w") as f:
        f.write(text + "\n")
    print(text)
    return 0


def ratio_text(pr):
    if not pr or pr["mean"] is None:
        return "n/a"
    return "%s (vs %s)" % (sweep.fmt(pr["mean"], pr["ci95"], "%.2f"), pr["peer"])


def report(doc):
    h = doc["header"]
    lines = ["# fleetsim workload zoo", "",
             "Commit %s, %s, %s." % (h["commit"], h["date"], h["machine"]),
             "Command: `%s`" % h["command"], "",
             "%d seeds per cell, %d engines; mean ± 95%% interval (Student t over seeds). SLO met: share of requests "
             "with TTFT <= %g ms and TPOT <= %g ms, every 429/503/timeout a miss. p90 / best peer: the cell's TTFT "
             "p90 over the best of the peer rules (%s) in the same regime, routers and ES, paired by seed." % (
                 len(doc["seeds"] or []), doc["engines"], doc["slo"]["ttft_ms"], doc["slo"]["tpot_ms"],
                 ", ".join(doc["peers"]) or "none"), ""]
    lines += summary(doc)
    lines += sweep.fidelity_lines([r["name"] for r in doc["regimes"]])
    lines += ["", "## Cells", "",
              "| regime | rule | routers | ES | TTFT p50 ms | TTFT p90 ms | SLO met % | p90 / best peer | ok |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for c in doc["cells"]:
        same = c.get("same_as")
        lines.append("| %s | %s | %d | %d | %s | %s | %s | %s | %d/%d%s |" % (
            c["regime"], c["policy"], c["routers"], c["es"],
            sweep.fmt(c["ttft_p50"]["mean"], c["ttft_p50"]["ci95"], "%.0f"),
            sweep.fmt(c["ttft_p90"]["mean"], c["ttft_p90"]["ci95"], "%.0f"),
            sweep.fmt(c["goodput"]["mean"], c["goodput"]["ci95"], "%.1f"), ratio_text(c.get("peer_ratio")),
            c["ok"], c["requests"], " (= %s ES=%d, not run)" % (same["policy"], same["es"]) if same else ""))
    return "\n".join(lines)


def summary(doc):
    """Per routers and ES: rules down, regimes across, TTFT p90 / best peer (mean)."""
    regimes = [r["name"] for r in doc["regimes"]]
    out = []
    keys = sorted({(c["routers"], c["es"]) for c in doc["cells"]})
    for nr, es in keys:
        out += ["## TTFT p90 / best peer, %d router(s), ES=%d (below 1: better than every peer rule)" % (nr, es), "",
                "| rule | " + " | ".join(regimes) + " |", "| --- |" + " --- |" * len(regimes)]
        for rule in doc["rules"]:
            row = []
            for reg in regimes:
                c = next((c for c in doc["cells"] if c["regime"] == reg and c["policy"] == rule
                          and c["routers"] == nr and c["es"] == es), None)
                pr = c.get("peer_ratio") if c else None
                row.append(sweep.fmt(pr["mean"], pr["ci95"], "%.2f") if pr and pr["mean"] is not None else "n/a")
            out.append("| %s | %s |" % (rule, " | ".join(row)))
        out.append("")
    return out
