#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A grid of kvroute-fleetsim runs with seeds, and intervals on what it shows.

  python3 bench/fleetsim/sweep.py --out DIR [options]
  python3 bench/fleetsim/sweep.py --out DIR --zoo [FILE] [options]

Runs every cell of policies x ES arms x router counts x load levels, K times
with seeds 1..K, in parallel over the machine's cores (each run is one
thread). The seed moves the policies' tie-breaks, a few ms of arrival
jitter, the engines' step jitter and, with --tracegen, the trace generator's
draw (one trace per seed, shared by every cell of that seed). Reports, per
cell, the mean and 95% interval (Student t over the K seeds) of TTFT
p50/p90/p99, end-to-end p90, output tokens/s, cache hit, engines per session
and reroute (share of requests whose engine differs from the ES=0 run of the
same seed); and per policy, router count and load the paired ES effect
(ES=1 minus ES=0 with the same seed) with its interval. A verdict is given
only where the interval excludes zero.

Beside the percentiles, each cell's SLO attainment (goodput): the share of
requests with TTFT <= --slo-ttft-ms and TPOT <= --slo-tpot-ms, every
request that did not end with 200 (429, 503, a timeout) counted as a miss.

A run that would repeat another cell of the grid is not run again: its figures
are the other cell's (see DUPLICATES), and the sweep says which it skipped.

--zoo runs the grid on every regime of a regime table (bench/fleetsim/zoo.json:
a kvroute-tracegen preset, the fleet's flags, the rate) and adds each rule's
TTFT p90 ratio to the best peer rule (PEERS), paired by seed.

Writes DIR/results.md, DIR/results.json and every run's records under
DIR/runs/ (with --zoo: DIR/zoo.md, DIR/zoo.json and one such folder per
regime). Standard library only (records through the kvrbench package).
"""
import argparse
import concurrent.futures
import datetime
import json
import math
import os
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kvrbench.paths import ROOT, program  # noqa: E402
from kvrbench.records import SLO_TPOT_MS, SLO_TTFT_MS, slo_met, slo_share  # noqa: E402,F401
from kvrbench.records import load_records, mean, ok_records, percentile  # noqa: E402

# The rules of other routers that kvroute's rules are judged against: Dynamo's
# (cost), SGLang's (cache_aware), llm-d's sticky-until-saturated (llmd) and
# LMetric as published (lmetric_paper). Those the fleetsim does not know are left out.
PEERS = ["cost", "cache_aware", "llmd", "lmetric_paper"]

# Cells that would repeat another cell run for run, and why: (policy, ES arm or
# None for both, only on traces without session ids) -> (the cell it equals).
# sticky is load_only placed once per session; without session ids every
# request is a session of its own, so it is placed per request as load_only is.
# Owner pressure reads pressure from fresh feed state; at ES=0 no engine has
# any, every pressure reads 0 and cache_aware_op picks what cache_aware does.
# round_robin reads no load at all, so the feed cannot move it.
DUPLICATES = [
    ("sticky", None, True, ("load_only", None), "sticky on a trace without session ids is load_only"),
    ("cache_aware_op", 0, False, ("cache_aware", 0), "cache_aware_op at ES=0 is cache_aware (no feed, no pressure)"),
    ("round_robin", 1, False, ("round_robin", 0), "round_robin at ES=1 is round_robin at ES=0 (it reads no load)"),
]

# Two-sided 95% Student t quantiles by degrees of freedom.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
       10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110,
       18: 2.101, 19: 2.093, 20: 2.086, 25: 2.060, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}

# name, label, lower is better
METRICS = [
    ("ttft_p50", "TTFT p50 ms", True),
    ("ttft_p90", "TTFT p90 ms", True),
    ("ttft_p99", "TTFT p99 ms", True),
    ("e2e_p90", "e2e p90 ms", True),
    ("tok_s", "output tok/s", False),
    ("cache_hit", "cache hit %", False),
    ("eng_per_session", "engines/session", True),
    ("reroute", "reroute %", None),
    ("goodput", "SLO met %", False),
]

# In results.json always, in the tables with --scenario hot_owner: e2e p50,
# requests refused (429/503), 429 answers (a retried one counts each time,
# kvroute-fleetsim --retry-429-ms) and the share of output tokens generated on
# engine 0, the owner.
EXTRA = [
    ("e2e_p50", "e2e p50 ms", True),
    ("refused", "refused", True),
    ("http_429", "429s", True),
    ("gen_share_e0", "gen share e0 %", None),
]

ENGINE0 = "http://127.0.0.1:20000"

# How a cell's figure prints: whole ms and tokens/s, two decimals of engines per session.
SPEC = {"ttft_p50": "%.0f", "ttft_p90": "%.0f", "ttft_p99": "%.0f", "e2e_p50": "%.0f", "e2e_p90": "%.0f",
        "tok_s": "%.0f", "eng_per_session": "%.2f", "goodput": "%.1f"}



def t95(df):
    if df <= 0:
        return float("nan")
    keys = sorted(T95)
    for k in keys:
        if df <= k:
            return T95[k]
    return 1.96


def interval(values):
    """(mean, half width of the 95% interval, n) of the values that are not None."""
    v = [x for x in values if x is not None]
    if not v:
        return None, None, 0
    m = sum(v) / len(v)
    if len(v) < 2:
        return m, None, len(v)
    sd = math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1))
    return m, t95(len(v) - 1) * sd / math.sqrt(len(v)), len(v)


def figures(recs, slo_ttft_ms=SLO_TTFT_MS, slo_tpot_ms=SLO_TPOT_MS):
    """The per-run figures from one run's records."""
    ok = ok_records(recs)
    ttft = [r["ttft_ms"] for r in ok if r.get("ttft_ms") is not None]
    e2e = [r["e2e_ms"] for r in ok if r.get("e2e_ms") is not None]
    out_tok = sum(r.get("output_tokens") or 0 for r in ok)
    if ok:
        t0 = min(r["send_mono_ns"] for r in ok)
        t1 = max(r["end_mono_ns"] for r in ok)
    span = (t1 - t0) / 1e9 if ok and t1 > t0 else None
    prompt = sum(r.get("prompt_tokens") or 0 for r in ok)
    cached = sum(r.get("cached_tokens") or 0 for r in ok)
    sessions = {}
    for r in ok:
        if r.get("session") is not None and r.get("engine"):
            sessions.setdefault(r["session"], set()).add(r["engine"])
    gen0 = sum(r.get("output_tokens") or 0 for r in ok if r.get("engine") == ENGINE0)
    return {
        "requests": len(recs),
        "ok": len(ok),
        "refused": len(recs) - len(ok),
        "http_429": sum((r.get("retries_429") or 0) + (1 if r.get("status") == 429 else 0) for r in recs),
        "gen_share_e0": 100.0 * gen0 / out_tok if out_tok else None,
        "ttft_p50": percentile(ttft, 50),
        "ttft_p90": percentile(ttft, 90),
        "ttft_p99": percentile(ttft, 99),
        "e2e_p50": percentile(e2e, 50),
        "e2e_p90": percentile(e2e, 90),
        "tok_s": out_tok / span if span else None,
        "cache_hit": 100.0 * cached / prompt if prompt else None,
        "eng_per_session": mean([len(e) for e in sessions.values()]),
        "goodput": slo_share(recs, slo_ttft_ms, slo_tpot_ms),
    }


def reroute(recs_a, recs_b):
    a = {r["index"]: r.get("engine") for r in recs_a if r.get("engine")}
    b = {r["index"]: r.get("engine") for r in recs_b if r.get("engine")}
    common = set(a) & set(b)
    return 100.0 * sum(1 for i in common if a[i] != b[i]) / len(common) if common else None


def write_hot_owner(path, trajectories=76, held=35, turns=3, output=1000, prefix_blocks=24):
    """bench/hot_owner's scenario as tests/bench/test_fleetsim.c writes it: a warm
    request that makes engine 0 the owner of a 24-block prefix, `held` trajectories
    at 0.1 s (sent straight to engine 0 with --first-turn-engine 0), the rest at 5 s;
    each turn appends 3 blocks and asks for `output` tokens."""
    lines = [{"timestamp": 0, "input_length": prefix_blocks * 512, "output_length": 1,
              "hash_ids": list(range(prefix_blocks))}]
    for s in range(trajectories):
        base = 100 if s < held else 5000
        tail = 1000 + s * 10
        for t in range(turns):
            blocks = prefix_blocks + 1 + 3 * t
            lines.append({"timestamp": base + s * 2 + t, "input_length": blocks * 512, "output_length": output,
                          "session_id": "t%02d" % s, "turn": t,
                          "hash_ids": [b if b < prefix_blocks else tail + b - prefix_blocks for b in range(blocks)]})
    lines.sort(key=lambda r: r["timestamp"])
    with open(path, "w") as f:
        for r in lines:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")


# --scenario hot_owner: the fleet and flags of bench/hot_owner/run.sh
HOT_OWNER_FLEETSIM = ["--engine-params", "all:max_running=38", "--closed-loop", "--first-turn-engine", "0",
                      "--first-turn-sessions", "35"]
HOT_OWNER_ROUTER = ["--balance-abs", "256"]


def paired(fig, seeds, key_a, key_b, name):
    """Per seed b - a and b / a of one figure: (diff interval, ratio interval)."""
    diffs, ratios = [], []
    for s in seeds:
        xa, xb = fig[key_a + (s,)][name], fig[key_b + (s,)][name]
        diffs.append(xb - xa if xa is not None and xb is not None else None)
        ratios.append(xb / xa if xa and xb is not None else None)
    return interval(diffs), interval(ratios)


def provenance():
    """Date, machine and commit for the report's header."""
    try:
        commit = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True).stdout.strip() or "unknown"
    except OSError:
        commit = "unknown"
    u = os.uname()
    return "Written %s UTC on %s %s %s, %d cores; tree at commit %s." % (
        datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"), u.sysname, u.release, u.machine,
        os.cpu_count() or 0, commit)


FIDELITY = os.path.join(ROOT, "bench/fleetsim/fidelity.json")
FIDELITY_FIGS = [("ttft_p50", "p50"), ("ttft_p90", "p90"), ("goodput", "SLO met")]


def fidelity_lines(regimes=None, path=FIDELITY):
    """The measured gap to the real processes (fidelity.py --json), one line per regime and router count."""
    try:
        with open(path) as f:
            doc = json.load(f)
        rows, traces = doc.get("rows", []), doc.get("traces", {})
    except (OSError, ValueError, AttributeError):
        return []
    keys = []
    for r in rows:
        if (r["regime"], r["routers"]) not in keys and (regimes is None or r["regime"] in regimes):
            keys.append((r["regime"], r["routers"]))
    if not keys:
        return []
    out = ["## Fidelity: this simulator against the real processes", "",
           "Measured by bench/fleetsim/fidelity.py (bench/RESULTS.md, \"Fidelity on the workload zoo\"): the "
           "simulator's mean off the range of two real runs (A/A), in %; 0 is inside it. A figure beyond the A/A "
           "spread is named.", ""]
    for reg, nr in keys:
        mine = [r for r in rows if r["regime"] == reg and r["routers"] == nr]
        cells, off = [], []
        for r in mine:
            cells.append("%s ES=%d %s%s" % (r["policy"], r["es"], ", ".join(
                "%s %+.0f%%" % (name, r[k]["gap_pct"]) for k, name in FIDELITY_FIGS if k in r),
                " (%s)" % r["note"] if r.get("note") else ""))
            off += ["%s ES=%d %s" % (r["policy"], r["es"], k) for k, _ in FIDELITY_FIGS
                    if k in r and r[k]["beyond"]]
        tr = traces.get(reg)
        on = "; %d requests: kvroute-tracegen %s" % (tr["requests"], tr["tracegen"]) if tr else ""
        out.append("- %s, %d router%s (measured %s%s): %s; beyond A/A: %s" % (
            reg, nr, "" if nr == 1 else "s", mine[0]["date"], on, "; ".join(cells), ", ".join(off) or "none"))
    return out + [""]


def run_one(job):
    """One fleetsim run; returns (key, error text or None)."""
    cmd, rec_path, key = job["cmd"], job["records"], job["key"]
    os.makedirs(os.path.dirname(rec_path), exist_ok=True)
    log = os.path.join(os.path.dirname(rec_path), "fleetsim.txt")
    cmdline = " ".join(shlex.quote(c) for c in cmd) + "\n"
    if job.get("reuse") and os.path.exists(rec_path) and os.path.exists(log):
        with open(log) as f:
            if f.readline() == cmdline:
                return key, None
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with open(log, "w") as f:
        f.write(cmdline + p.stdout + p.stderr)
    if p.returncode not in (0, 1):
        return key, "exit %d: %s" % (p.returncode, p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "")
    return key, None


def fmt(m, h, spec="%.1f"):
    if m is None:
        return "n/a"
    if h is None:
        return spec % m
    return spec % m + " ± " + spec.replace("+", "") % h


def paired_verdict(m, h, lower_better):
    """A verdict on a paired mean difference (ES=1 - ES=0) only where its interval excludes 0."""
    if m is None or h is None or abs(m) <= h:
        return "no verdict (interval includes 0)"
    return "ES=1 %s" % ("better" if (m < 0) == lower_better else "worse")


def charts(out_dir, cells, effects, routers, loads, arms):
    """PNG charts with 95% error bars (gnuplot): TTFT p90 by policy and arm per
    router count and load, and the paired ES effect on it. Returns the files."""
    raw = os.path.join(out_dir, "raw")
    os.makedirs(raw, exist_ok=True)
    script = ["set terminal pngcairo size 900,560 noenhanced", "set grid ytics", "set key top left",
              "set style data histograms", "set style fill solid 0.7 border -1", "set xtics rotate by -30",
              "set bars 2"]
    made = []
    for nr in routers:
        for load in loads:
            dat = os.path.join(raw, "p90-r%d-load%s.dat" % (nr, load))
            with open(dat, "w") as f:
                pols = [c["policy"] for c in cells if c["routers"] == nr and c["load"] == load and c["es"] == arms[0]]
                for pol in pols:
                    vals = []
                    for es in arms:
                        c = next(c for c in cells if c["policy"] == pol and c["routers"] == nr and c["load"] == load
                                 and c["es"] == es)
                        vals += [c["ttft_p90"]["mean"] or 0, c["ttft_p90"]["ci95"] or 0]
                    f.write("%s %s\n" % (pol, " ".join("%.3f" % v for v in vals)))
            png = "ttft_p90-r%d-load%s.png" % (nr, load)
            cols = ", ".join("'%s' using %d:%d%s title 'ES=%d'" % (dat if i == 0 else "", 2 + 2 * i, 3 + 2 * i,
                                                                   ":xtic(1)" if i == 0 else "", es)
                             for i, es in enumerate(arms))
            script += ["set output '%s'" % os.path.join(out_dir, png),
                       "set title 'TTFT p90, %d router(s), load x%s: mean and 95%% interval'" % (nr, load),
                       "set style histogram errorbars gap 1 lw 1", "set ylabel 'TTFT p90 (ms)'", "set yrange [0:*]",
                       "plot " + cols]
            made.append(png)
    if effects:
        dat = os.path.join(raw, "es_effect.dat")
        with open(dat, "w") as f:
            for e in effects:
                f.write("%s-r%d-x%s %.3f %.3f %.3f %.3f\n" % (
                    e["policy"], e["routers"], e["load"], e["ttft_p90"]["mean"] or 0, e["ttft_p90"]["ci95"] or 0,
                    e["ttft_p90"].get("pct") or 0, e["ttft_p90"].get("pct_ci95") or 0))
        # One bar per policy, router count and load: a wider canvas and steeper labels.
        width = max(900, 40 * len(effects))
        for png, cols, unit in (("es_effect_ttft_p90.png", "2:3", "ms"), ("es_effect_ttft_p90_pct.png", "4:5", "%")):
            script += ["set terminal pngcairo size %d,600 noenhanced" % width, "set xtics rotate by -60 font ',9'",
                       "set output '%s'" % os.path.join(out_dir, png),
                       "set title 'Paired ES effect on TTFT p90 (ES=1 - ES=0, same seed), %s, 95%% interval'" % unit,
                       "set style histogram errorbars gap 1 lw 1", "set ylabel '%s'" % unit, "set yrange [*:*]",
                       "plot '%s' using %s:xtic(1) notitle" % (dat, cols)]
            made.append(png)
    if not shutil.which("gnuplot"):
        return []
    try:
        subprocess.run(["gnuplot"], input="\n".join(script) + "\n", text=True, check=True, capture_output=True,
                       timeout=60)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
        print("sweep: gnuplot failed: %s" % getattr(e, "stderr", e), file=sys.stderr)
        return []
    return made


def trace_has_sessions(path):
    """True when some line of the trace carries a session_id."""
    with open(path) as f:
        for line in f:
            if '"session_id"' in line and json.loads(line).get("session_id") is not None:
                return True
    return False


def duplicate_of(pol, es, sessions, policies, arms):
    """(policy, es, why) of the cell this one repeats, or None when it must run."""
    for name, arm, sessionless_only, (twin, twin_arm), why in DUPLICATES:
        if name != pol or (arm is not None and arm != es) or (sessionless_only and sessions):
            continue
        twin_es = es if twin_arm is None else twin_arm
        if twin in policies and twin_es in arms and (twin, twin_es) != (pol, es):
            return twin, twin_es, why
    return None


def main(argv=None, quiet=False):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--fleetsim", default=program("bench/fleetsim/kvroute-fleetsim"),
                    help="the kvroute-fleetsim program (default: under $KVR_BUILD_DIR, else build/plain, what "
                         "make build and make test produce, else build/dev)")
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--trace", help="one trace for every seed")
    src.add_argument("--tracegen-args", help="kvroute-tracegen flags: one trace per seed (--seed S is added)")
    ap.add_argument("--tracegen", default=program("bench/tracegen/kvroute-tracegen"),
                    help="the kvroute-tracegen program (default: found as --fleetsim is)")
    ap.add_argument("--policies", help="comma-separated policies (cache_aware_op = cache_aware --owner-pressure 1; "
                                       "default round_robin,load_only,sticky,affinity,cache_aware, with --zoo "
                                       "the table's rules)")
    ap.add_argument("--es", default="0,1", help="ES arms (default 0,1)")
    ap.add_argument("--routers", default="1", help="router counts, e.g. 1,2,4 (default 1)")
    ap.add_argument("--loads", default="1", help="arrival rate multipliers, e.g. 0.5,1,2 (default 1)")
    ap.add_argument("--seeds", type=int, default=10, help="seeds 1..K per cell (default 10)")
    ap.add_argument("--engines", type=int, default=4, help="engines (default 4)")
    ap.add_argument("--arrival-jitter-ms", default="5", help="per seed arrival jitter (default 5)")
    ap.add_argument("--step-jitter", default="0.05", help="per seed step jitter (default 0.05)")
    ap.add_argument("--fleetsim-args", default="", help="more kvroute-fleetsim flags for every run")
    ap.add_argument("--router-args", default="", help="kvroute flags for every run")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="runs at once (default: cores)")
    ap.add_argument("--scenario", choices=["hot_owner"],
                    help="hot_owner: bench/hot_owner's trace (written into DIR), 2 engines x 38 slots, closed loop, "
                         "35 first turns forced onto engine 0, --balance-abs 256 (instead of --trace)")
    ap.add_argument("--pairs", default="",
                    help="A:B,...: per seed paired B - A (and B / A for tok/s) of two policies in every cell")
    ap.add_argument("--against", metavar="DIR",
                    help="another sweep's output directory, run with the same cells and seeds but other flags: "
                         "per cell, this sweep against it paired by seed (tok/s this/that, the rest this - that)")
    ap.add_argument("--reuse", action="store_true",
                    help="keep a run whose records exist from the same command (re-report without re-running)")
    ap.add_argument("--slo-ttft-ms", type=float, default=SLO_TTFT_MS,
                    help="SLO attainment: TTFT target in ms (default %g)" % SLO_TTFT_MS)
    ap.add_argument("--slo-tpot-ms", type=float, default=SLO_TPOT_MS,
                    help="SLO attainment: time per output token after the first, target in ms (default %g)"
                         % SLO_TPOT_MS)
    ap.add_argument("--run-duplicates", action="store_true",
                    help="run the cells that repeat another cell (DUPLICATES) instead of copying its figures")
    ap.add_argument("--zoo", nargs="?", const=os.path.join(ROOT, "bench/fleetsim/zoo.json"), metavar="FILE",
                    help="run the grid on every regime of a regime table (default bench/fleetsim/zoo.json) "
                         "instead of one trace; --policies defaults to the table's rules")
    ap.add_argument("--regimes", help="with --zoo: comma-separated regimes of the table (default: all)")
    ap.add_argument("--load-scale", type=float, default=1.0,
                    help="with --zoo: multiplies every regime's rate (default 1)")
    a = ap.parse_args(argv)
    if a.zoo:
        if a.trace or a.tracegen_args or a.scenario:
            ap.error("--zoo takes its traces from the regime table: no --trace, --tracegen-args or --scenario")
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import zoo
        return zoo.run(a, argv if argv is not None else sys.argv[1:], main)

    if a.seeds < 2:
        ap.error("--seeds must be at least 2 for an interval")
    if not (a.trace or a.tracegen_args or a.scenario):
        ap.error("one of --trace, --tracegen-args or --scenario is required")
    if a.scenario and (a.trace or a.tracegen_args):
        ap.error("--scenario writes its own trace: no --trace or --tracegen-args with it")
    pairs = [tuple(x.split(":", 1)) for x in a.pairs.split(",") if x]
    if any(len(pr) != 2 for pr in pairs):
        ap.error("--pairs: expected A:B,...")
    policies = [p for p in (a.policies or "round_robin,load_only,sticky,affinity,cache_aware").split(",") if p]
    arms = [int(e) for e in a.es.split(",") if e]
    routers = [int(r) for r in a.routers.split(",") if r]
    loads = [x for x in a.loads.split(",") if x]
    seeds = list(range(1, a.seeds + 1))
    os.makedirs(a.out, exist_ok=True)
    for pr in pairs:
        for pol in pr:
            if pol not in policies:
                ap.error("--pairs: %s is not in --policies" % pol)
    scenario_fleetsim, scenario_router = [], []
    if a.scenario == "hot_owner":
        a.trace = os.path.join(a.out, "hot-owner.jsonl")
        write_hot_owner(a.trace)
        a.engines = 2
        scenario_fleetsim, scenario_router = HOT_OWNER_FLEETSIM, HOT_OWNER_ROUTER

    traces = {}
    for s in seeds:
        if a.trace:
            traces[s] = os.path.abspath(a.trace)
            continue
        path = os.path.join(a.out, "trace-seed%d.jsonl" % s)
        cmd = [a.tracegen] + shlex.split(a.tracegen_args) + ["--seed", str(s), "-o", path]
        if not (a.reuse and os.path.exists(path)):
            subprocess.run(cmd, check=True)
        traces[s] = path

    sessions = trace_has_sessions(traces[seeds[0]])
    jobs, aliases, skipped = [], {}, {}
    for pol in policies:
        for es in arms:
            twin = None if a.run_duplicates else duplicate_of(pol, es, sessions, policies, arms)
            if twin:
                skipped[(pol, es)] = twin
            for nr in routers:
                for load in loads:
                    for s in seeds:
                        key = (pol, es, nr, load, s)
                        if twin:
                            aliases[key] = (twin[0], twin[1], nr, load, s)
                            continue
                        d = os.path.join(a.out, "runs", pol, "es%d" % es, "r%d" % nr, "load%s" % load, "seed%d" % s)
                        rec = os.path.join(d, "replay.jsonl")
                        policy_flags = ["--policy", "cache_aware"] if pol == "cache_aware_op" else ["--policy", pol]
                        router = scenario_router + shlex.split(a.router_args) + \
                            (["--owner-pressure", "1"] if pol == "cache_aware_op" else [])
                        cmd = [a.fleetsim, "--trace", traces[s], "--engines", str(a.engines), "--es", str(es),
                               "--routers", str(nr), "--rate", load, "--seed", str(s),
                               "--arrival-jitter-ms", a.arrival_jitter_ms, "--step-jitter", a.step_jitter,
                               "--run-id", "%s-es%d" % (pol, es), "--out", rec, "--quiet"] + policy_flags + \
                            scenario_fleetsim + shlex.split(a.fleetsim_args) + (["--"] + router if router else [])
                        jobs.append({"key": key, "cmd": cmd, "records": rec, "reuse": a.reuse})
    for (pol, es), (tp, te, why) in skipped.items():
        print("sweep: skipped %s ES=%d (%d runs): the same runs as %s ES=%d, %s" % (
            pol, es, len(routers) * len(loads) * len(seeds), tp, te, why), file=sys.stderr)
    print("sweep: %d runs on %d workers" % (len(jobs), a.jobs), file=sys.stderr)
    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for done, (key, error) in enumerate(pool.map(run_one, jobs), 1):
            if error:
                failed.append((key, error))
            if done % 10 == 0 or done == len(jobs):
                print("sweep: %d/%d runs done" % (done, len(jobs)), file=sys.stderr)
    if failed:
        for key, error in failed[:5]:
            print("sweep: run %s failed: %s" % (key, error), file=sys.stderr)
        return 1

    recs = {j["key"]: load_records(j["records"]) for j in jobs}
    fig = {k: figures(v, a.slo_ttft_ms, a.slo_tpot_ms) for k, v in recs.items()}
    for key, twin in aliases.items():
        recs[key] = recs[twin]
        fig[key] = dict(fig[twin])
    for (pol, es, nr, load, s), f in fig.items():
        base = recs.get((pol, 0, nr, load, s))
        f["reroute"] = reroute(base, recs[(pol, es, nr, load, s)]) if es != 0 and base is not None else None

    cells, effects = [], []
    for pol in policies:
        for nr in routers:
            for load in loads:
                for es in arms:
                    row = {"policy": pol, "es": es, "routers": nr, "load": load}
                    for name, _, _ in METRICS + EXTRA:
                        m, h, n = interval([fig[(pol, es, nr, load, s)][name] for s in seeds])
                        row[name] = {"mean": m, "ci95": h, "n": n}
                    if (pol, es) in skipped:
                        row["same_as"] = {"policy": skipped[(pol, es)][0], "es": skipped[(pol, es)][1],
                                          "why": skipped[(pol, es)][2]}
                    row["ok"] = sum(fig[(pol, es, nr, load, s)]["ok"] for s in seeds)
                    row["requests"] = sum(fig[(pol, es, nr, load, s)]["requests"] for s in seeds)
                    cells.append(row)
                if 0 in arms and 1 in arms:
                    eff = {"policy": pol, "routers": nr, "load": load}
                    for name, _, lower_better in METRICS:
                        if lower_better is None:
                            continue
                        diffs = []
                        for s in seeds:
                            x0, x1 = fig[(pol, 0, nr, load, s)][name], fig[(pol, 1, nr, load, s)][name]
                            diffs.append(x1 - x0 if x0 is not None and x1 is not None else None)
                        m, h, n = interval(diffs)
                        rm, rh, _ = interval([100.0 * (fig[(pol, 1, nr, load, s)][name] / fig[(pol, 0, nr, load, s)][name]
                                                       - 1.0)
                                              if fig[(pol, 0, nr, load, s)][name] and d is not None else None
                                              for s, d in zip(seeds, diffs)])
                        b0 = mean([fig[(pol, 0, nr, load, s)][name] for s in seeds
                                   if fig[(pol, 0, nr, load, s)][name] is not None])
                        verdict = paired_verdict(m, h, lower_better)
                        eff[name] = {"mean": m, "ci95": h, "n": n, "relative": m / b0 if m is not None and b0 else None,
                                     "pct": rm, "pct_ci95": rh,
                                     "verdict": verdict}
                    effects.append(eff)

    comparisons = []
    for pa, pb in pairs:
        for nr in routers:
            for load in loads:
                for es in arms:
                    row = {"a": pa, "b": pb, "routers": nr, "load": load, "es": es}
                    for name, _, _ in METRICS + EXTRA:
                        (dm, dh, dn), (rm, rh, _) = paired(fig, seeds, (pa, es, nr, load), (pb, es, nr, load), name)
                        row[name] = {"diff": dm, "diff_ci95": dh, "ratio": rm, "ratio_ci95": rh, "n": dn}
                    comparisons.append(row)

    against = []
    if a.against:
        for (pol, es, nr, load, s), _ in list(fig.items()):
            d = os.path.join(a.against, "runs", pol, "es%d" % es, "r%d" % nr, "load%s" % load, "seed%d" % s)
            path = os.path.join(d, "replay.jsonl")
            if not os.path.exists(path):
                print("sweep: --against %s has no run %s" % (a.against, path), file=sys.stderr)
                return 1
            fig[("against:" + pol, es, nr, load, s)] = figures(load_records(path), a.slo_ttft_ms, a.slo_tpot_ms)
        for pol in policies:
            for nr in routers:
                for load in loads:
                    for es in arms:
                        row = {"policy": pol, "routers": nr, "load": load, "es": es}
                        for name, _, _ in METRICS + EXTRA:
                            if name == "reroute":
                                continue
                            (dm, dh, dn), (rm, rh, _) = paired(fig, seeds, ("against:" + pol, es, nr, load),
                                                               (pol, es, nr, load), name)
                            row[name] = {"diff": dm, "diff_ci95": dh, "ratio": rm, "ratio_ci95": rh, "n": dn}
                        against.append(row)

    with open(os.path.join(a.out, "results.json"), "w") as f:
        runs = [dict({"policy": k[0], "es": k[1], "routers": k[2], "load": k[3], "seed": k[4]}, **v)
                for k, v in fig.items() if not str(k[0]).startswith("against:")]
        json.dump({"argv": list(argv if argv is not None else sys.argv[1:]),
                   "cells": cells, "es_effects": effects, "comparisons": comparisons, "against": against,
                   "seeds": seeds, "engines": a.engines, "runs": runs,
                   "slo": {"ttft_ms": a.slo_ttft_ms, "tpot_ms": a.slo_tpot_ms},
                   "skipped": [{"policy": p, "es": e, "same_as": {"policy": t[0], "es": t[1]}, "why": t[2]}
                               for (p, e), t in skipped.items()]}, f, indent=1)

    shown = METRICS + (EXTRA if a.scenario == "hot_owner" else [])
    lines = ["# fleetsim sweep", "",
             "%d seeds per cell, %d engines; mean ± 95%% interval (Student t over seeds)." % (len(seeds), a.engines),
             "Command: `%s`" % " ".join(shlex.quote(x) for x in ["bench/fleetsim/sweep.py"] + (argv or sys.argv[1:])),
             provenance(),
             "SLO met: share of requests with TTFT <= %g ms and TPOT <= %g ms (a refused request is a miss)." % (
                 a.slo_ttft_ms, a.slo_tpot_ms),
             ""] + fidelity_lines() + ["## Cells", "",
             "| policy | ES | routers | load | " + " | ".join(label for _, label, _ in shown) + " | ok |",
             "| --- | --- | --- | --- | " + " | ".join("---" for _ in shown) + " | --- |"]
    for c in cells:
        lines.append("| %s | %d | %d | %s | %s | %d/%d |" % (
            c["policy"], c["es"], c["routers"], c["load"],
            " | ".join(fmt(c[n]["mean"], c[n]["ci95"], SPEC.get(n, "%.1f"))
                       for n, _, _ in shown), c["ok"], c["requests"]))
    if skipped:
        lines += [""] + ["Not run: %s ES=%d, the same runs as %s ES=%d (%s); its row repeats that cell's." % (
            p, e, t[0], t[1], t[2]) for (p, e), t in skipped.items()]
    if effects:
        lines += ["", "## Paired ES effect (ES=1 − ES=0, same seed)", "",
                  "| policy | routers | load | TTFT p90 ms | TTFT p90 % | TTFT p99 ms | e2e p90 ms | output tok/s | "
                  "cache hit pts | verdict (TTFT p90) |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for e in effects:
            lines.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                e["policy"], e["routers"], e["load"],
                fmt(e["ttft_p90"]["mean"], e["ttft_p90"]["ci95"], "%+.0f"),
                fmt(e["ttft_p90"]["pct"], e["ttft_p90"]["pct_ci95"], "%+.1f"),
                fmt(e["ttft_p99"]["mean"], e["ttft_p99"]["ci95"], "%+.0f"),
                fmt(e["e2e_p90"]["mean"], e["e2e_p90"]["ci95"], "%+.0f"),
                fmt(e["tok_s"]["mean"], e["tok_s"]["ci95"], "%+.1f"),
                fmt(e["cache_hit"]["mean"], e["cache_hit"]["ci95"], "%+.2f"),
                e["ttft_p90"]["verdict"]))
    if comparisons:
        lines += ["", "## Paired policy comparisons (B − A, same seed)", "",
                  "| B vs A | ES | routers | load | TTFT p90 ms | TTFT p90 B/A | TTFT p99 ms | e2e p90 ms | "
                  "output tok/s B/A | cache hit pts | refused | verdict (TTFT p90) |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for c in comparisons:
            d = c["ttft_p90"]
            if d["diff"] is None or d["diff_ci95"] is None or abs(d["diff"]) <= d["diff_ci95"]:
                verdict = "no verdict (interval includes 0)"
            else:
                verdict = "%s better" % (c["b"] if d["diff"] < 0 else c["a"])
            lines.append("| %s vs %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                c["b"], c["a"], c["es"], c["routers"], c["load"],
                fmt(d["diff"], d["diff_ci95"], "%+.0f"), fmt(d["ratio"], d["ratio_ci95"], "%.3f"),
                fmt(c["ttft_p99"]["diff"], c["ttft_p99"]["diff_ci95"], "%+.0f"),
                fmt(c["e2e_p90"]["diff"], c["e2e_p90"]["diff_ci95"], "%+.0f"),
                fmt(c["tok_s"]["ratio"], c["tok_s"]["ratio_ci95"], "%.3f"),
                fmt(c["cache_hit"]["diff"], c["cache_hit"]["diff_ci95"], "%+.2f"),
                fmt(c["refused"]["diff"], c["refused"]["diff_ci95"], "%+.1f"), verdict))
    if against:
        lines += ["", "## Against %s (this − that, same seed)" % a.against, "",
                  "| policy | ES | routers | load | output tok/s this/that | TTFT p90 ms | e2e p90 ms | "
                  "cache hit pts | refused | 429s | gen share e0 pts |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for c in against:
            lines.append("| %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                c["policy"], c["es"], c["routers"], c["load"],
                fmt(c["tok_s"]["ratio"], c["tok_s"]["ratio_ci95"], "%.3f"),
                fmt(c["ttft_p90"]["diff"], c["ttft_p90"]["diff_ci95"], "%+.0f"),
                fmt(c["e2e_p90"]["diff"], c["e2e_p90"]["diff_ci95"], "%+.0f"),
                fmt(c["cache_hit"]["diff"], c["cache_hit"]["diff_ci95"], "%+.2f"),
                fmt(c["refused"]["diff"], c["refused"]["diff_ci95"], "%+.1f"),
                fmt(c["http_429"]["diff"], c["http_429"]["diff_ci95"], "%+.1f"),
                fmt(c["gen_share_e0"]["diff"], c["gen_share_e0"]["diff_ci95"], "%+.1f")))
    made = charts(a.out, cells, effects, routers, loads, arms)
    if made:
        lines += ["", "Charts: " + ", ".join("[%s](%s)" % (m, m) for m in made)]
    with open(os.path.join(a.out, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    if not quiet:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
