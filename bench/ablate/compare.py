#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compares the ES=0 and ES=1 arms of an ablation run, policy by policy.

A run directory holds one folder per cell: <run>/<policy>/es0/ and
<run>/<policy>/es1/, each with replay.jsonl (kvroute-replay --out) and
optionally feed.txt (kvroute-feedsample) and router-metrics.txt (the
router's /metrics after the run). A run of one arm only (run.sh --arms 0)
gets that arm's figures per policy and no comparison. Writes <run>/results.md, raw data under
<run>/raw/ and PNG charts (gnuplot) and prints the comparison table.

Run with bench/ on PYTHONPATH (run.sh sets it through bench/lib.sh):
PYTHONPATH=bench python3 bench/ablate/compare.py RUN_DIR. Standard library
only: the bench must run wherever Debian's python3 is.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kvrbench import records  # noqa: E402
from kvrbench.records import load_records, mean, ok_records, percentile, policies_in  # noqa: E402,F401

LOAD_USE = {
    "round_robin": "ignores load",
    "random": "ignores load",
    "power_of_two": "per request: fewer eff_requests of two random",
    "load_only": "per request: lowest eff_requests",
    "sticky": "once per session (lowest eff_requests), then pinned",
    "lmetric": "per request: (pending prefill + uncached) x (running + 1)",
    "affinity": "prefix match; load as overload guard",
    "cache_aware": "prefix match unless imbalanced",
    "cache_aware_op": "prefix match + owner pressure spill",
    "cost": "uncached blocks + active decode blocks",
    "ttft": "per request: lowest predicted time to first token (speeds learned)",
    "llmd": "cache-warm engine until its queued prefill passes a bound, then token load",
    "lmetric_paper": "per request: uncached prefill tokens x batch size",
}

# A relative change smaller than this in TTFT p90 is within run-to-run noise
# of the simulator at this scale; calling it a win would be overreach.
NOISE = 0.05


def ttft_values(recs):
    return [r["ttft_ms"] for r in ok_records(recs) if r.get("ttft_ms") is not None]


def inst_per_session(recs):
    """Mean number of distinct engines that served each session; None without sessions."""
    engines = {}
    for r in recs:
        if r.get("session") is None or not r.get("engine"):
            continue
        engines.setdefault(r["session"], set()).add(r["engine"])
    if not engines:
        return None
    return sum(len(e) for e in engines.values()) / len(engines)


def reroute_pct(recs_a, recs_b):
    """Share of requests (matched by trace index) whose engine differs between arms."""
    a = {r["index"]: r.get("engine") for r in recs_a if r.get("engine")}
    b = {r["index"]: r.get("engine") for r in recs_b if r.get("engine")}
    common = set(a) & set(b)
    if not common:
        return None
    return 100.0 * sum(1 for i in common if a[i] != b[i]) / len(common)


def cache_hit(recs):
    """Cached share of prompt tokens over successful requests that reported usage."""
    prompt = cached = 0
    for r in ok_records(recs):
        if r.get("prompt_tokens"):
            prompt += r["prompt_tokens"]
            cached += r.get("cached_tokens") or 0
    return 100.0 * cached / prompt if prompt else None


def error_rate(recs):
    return 100.0 * sum(1 for r in recs if not r.get("ok")) / len(recs) if recs else None


def verdict(p90_0, p90_1, err_0, err_1, noise=None):
    """noise: the relative p90 change two identical runs can show (an A/A
    control measures it); smaller changes are not called a difference."""
    noise = NOISE if noise is None else noise
    if p90_0 is None or p90_1 is None:
        return "no data"
    if (err_0 or 0) > 1.0 or (err_1 or 0) > 1.0:
        return "errors: see cell logs"
    change = (p90_1 - p90_0) / p90_0 if p90_0 > 0 else 0.0
    if change <= -noise:
        return "ES=1 better (p90 %+.0f%%)" % (100 * change)
    if change >= noise:
        return "ES=1 worse (p90 %+.0f%%)" % (100 * change)
    if abs(change) >= 0.005:
        return "within noise (p90 %+.0f%%)" % (100 * change)
    return "no material difference"


# ---- feed freshness -------------------------------------------------------

def load_feed(path):
    """Per slot: engine id and the list of (t_seen_ns, sample_time_ns, extra) changes; start, end."""
    slots, start, end = {}, None, None
    for parts in records.feed_lines(path):
        if parts[0] == "start":
            start = int(parts[1])
        elif parts[0] == "end":
            end = int(parts[1])
        else:
            slot = int(parts[2])
            entry = slots.setdefault(slot, {"engine": parts[10], "changes": []})
            entry["engine"] = parts[10]
            entry["changes"].append((int(parts[1]), int(parts[3])))
    return slots, start, end


class AgeHistogram:
    """Ages on a grid of step_ns, counted with a difference array: an interval
    in which one sample stays current contributes consecutive ages, so adding
    it costs O(1) whatever its length."""

    def __init__(self, step_ns):
        self.step = step_ns
        self.diff = {}
        self.max_bin = -1

    def add_run(self, first_age_ns, count):
        if count <= 0:
            return
        a0 = max(0, first_age_ns) // self.step
        self.diff[a0] = self.diff.get(a0, 0) + 1
        self.diff[a0 + count] = self.diff.get(a0 + count, 0) - 1
        self.max_bin = max(self.max_bin, a0 + count - 1)

    def counts(self):
        hist, running = [], 0
        for b in range(self.max_bin + 1):
            running += self.diff.get(b, 0)
            hist.append(running)
        return hist

    def summary(self):
        hist = self.counts()
        total = sum(hist)
        if total == 0:
            return None

        def pct(p):
            target, seen = p / 100.0 * total, 0
            for b, c in enumerate(hist):
                seen += c
                if seen >= target and c:
                    return b * self.step / 1e6
            return (len(hist) - 1) * self.step / 1e6

        over = sum(c for b, c in enumerate(hist) if b * self.step > 2_000_000_000)
        top = max(b for b, c in enumerate(hist) if c)
        return {"samples": total, "p50_ms": pct(50), "p99_ms": pct(99),
                "max_ms": top * self.step / 1e6, "share_over_2s": 100.0 * over / total}


def add_interval(hist, t0, t1, sample_time, step):
    """Grid points t in [t0, t1) on the step grid; age = t - sample_time."""
    first = -(-t0 // step) * step
    if first >= t1:
        return
    count = (t1 - 1 - first) // step + 1
    hist.add_run(first - sample_time, count)


def engine_key(name):
    """Engines are matched by URL, or by port when one side names them differently."""
    name = (name or "").rstrip("/")
    m = re.search(r":(\d+)$", name) or re.search(r":(\d+)/", name)
    return name, (m.group(1) if m else None)


def freshness(feed_path, recs, step_ns=1_000_000, large_prefill=50_000, time_scale=1.0):
    """Slot ages on the sampler's 1 ms grid; reported ages are multiplied by
    time_scale (records' ttft_ms are already scaled, so windows are unscaled back)."""
    slots, start, end = load_feed(feed_path)
    overall = AgeHistogram(step_ns)
    during = AgeHistogram(step_ns)
    windows = {}
    # Prefill windows: from send to first token of requests whose uncached prompt is large.
    by_url, by_port = {}, {}
    for slot, entry in slots.items():
        url, port = engine_key(entry["engine"])
        by_url[url] = slot
        if port:
            by_port[port] = slot
    n_windows = 0
    for r in ok_records(recs):
        uncached = (r.get("prompt_tokens") or 0) - (r.get("cached_tokens") or 0)
        engine = r.get("engine_url") or r.get("engine")
        if uncached <= large_prefill or r.get("ttft_ms") is None or not engine:
            continue
        url, port = engine_key(engine)
        slot = by_url.get(url, by_port.get(port))
        if slot is None:
            continue
        t0 = r["send_mono_ns"]
        windows.setdefault(slot, []).append((t0, t0 + int(r["ttft_ms"] / time_scale * 1e6)))
        n_windows += 1
    for slot, entry in slots.items():
        ch = entry["changes"]
        stop = end if end is not None else (ch[-1][0] + step_ns)
        for i, (t_seen, sample_time) in enumerate(ch):
            if sample_time == 0:
                continue  # never sampled yet: no age to speak of
            t_next = ch[i + 1][0] if i + 1 < len(ch) else stop
            add_interval(overall, t_seen, t_next, sample_time, step_ns)
            for w0, w1 in windows.get(slot, ()):
                lo, hi = max(t_seen, w0), min(t_next, w1)
                if lo < hi:
                    add_interval(during, lo, hi, sample_time, step_ns)
    res = {"overall": overall.summary(), "during_large_prefill": during.summary(),
           "large_prefill_windows": n_windows, "engines": len(slots)}
    for key in ("overall", "during_large_prefill"):
        h = res[key]
        if h and time_scale != 1.0:
            for k in ("p50_ms", "p99_ms", "max_ms"):
                h[k] *= time_scale
            h["share_over_2s"] = overall_share(overall if key == "overall" else during, 2000 / time_scale)
    return res


def overall_share(hist, limit_ms):
    """Share of samples older than limit_ms (real time)."""
    counts = hist.counts()
    total = sum(counts)
    over = sum(c for b, c in enumerate(counts) if b * hist.step > limit_ms * 1e6)
    return 100.0 * over / total if total else 0.0


# ---- the run --------------------------------------------------------------

def cell_stats(recs):
    t = ttft_values(recs)
    return {"requests": len(recs), "ok": len(ok_records(recs)), "errors_pct": error_rate(recs),
            "ttft_p50": percentile(t, 50), "ttft_p90": percentile(t, 90), "ttft_p99": percentile(t, 99),
            "ttft_mean": mean(t), "cache_hit": cache_hit(recs), "inst_per_session": inst_per_session(recs),
            "slo_met_pct": records.slo_share(recs, *SLO)}


# Simulated seconds per real second of the run: times are reported in
# simulated time, what the same fleet of real engines would show.
TIME_SCALE = 1.0

# SLO attainment (goodput): TTFT and time-per-output-token targets in ms (--slo-ttft-ms, --slo-tpot-ms).
SLO = (records.SLO_TTFT_MS, records.SLO_TPOT_MS)


def slo_text():
    return ("SLO met: share of the requests sent with TTFT <= %g ms and TPOT <= %g ms; every request that did not "
            "end with 200 (429, 503, a timeout) is a miss." % SLO)


def load_cell(run_dir, policy, arm):
    return records.load_cell(run_dir, policy, arm, TIME_SCALE)


def compare_policy(run_dir, policy):
    r0 = load_cell(run_dir, policy, "es0")
    r1 = load_cell(run_dir, policy, "es1")
    s0, s1 = cell_stats(r0), cell_stats(r1)
    row = {"policy": policy, "load_use": LOAD_USE.get(policy, ""), "es0": s0, "es1": s1,
           "reroute_pct": reroute_pct(r0, r1),
           "verdict": verdict(s0["ttft_p90"], s1["ttft_p90"], s0["errors_pct"], s1["errors_pct"], NOISE)}
    feed = os.path.join(run_dir, policy, "es1", "feed.txt")
    row["feed"] = freshness(feed, r1, time_scale=TIME_SCALE) if os.path.exists(feed) else None
    row["reasons"] = {arm: cell_reasons(os.path.join(run_dir, policy, arm)) for arm in ("es0", "es1")}
    return row, r0, r1


def cell_reasons(cell_dir):
    """Decision counts by reason, summed over the cell's routers: router-metrics.txt
    with one router, router-metrics-r<k>.txt each with several (run.sh --routers)."""
    out = {}
    if not os.path.isdir(cell_dir):
        return out
    for name in sorted(os.listdir(cell_dir)):
        if re.match(r"^router-metrics(-r\d+)?\.txt$", name):
            for reason, n in decision_reasons(os.path.join(cell_dir, name)).items():
                out[reason] = out.get(reason, 0) + n
    return out


def decision_reasons(path):
    """Counts of decisions by reason label from a Prometheus text dump."""
    out = {}
    if not os.path.exists(path):
        return out
    pat = re.compile(r'^kvroute_(?:selections|[a-z_]*decisions?)_total\{[^}]*reason="([^"]+)"[^}]*\}\s+([0-9.eE+]+)')
    with open(path) as f:
        for line in f:
            m = pat.match(line)
            if m:
                out[m.group(1)] = out.get(m.group(1), 0) + int(float(m.group(2)))
    return out


def fmt(v, spec="%.0f", none="n/a"):
    return none if v is None else spec % v


def arrow(a, b, spec="%.0f"):
    return "%s → %s" % (fmt(a, spec), fmt(b, spec))


def arms_in(run_dir, policies):
    """The arms (es0, es1) for which some policy of the run has records."""
    return [arm for arm in ("es0", "es1")
            if any(os.path.exists(os.path.join(run_dir, p, arm, "replay.jsonl")) for p in policies)]


def single_table(rows, arm):
    """One arm's figures per policy: what a run of one arm (run.sh --arms 0) can say."""
    lines = ["| policy | how it uses load | inst/session | TTFT p50 ms | TTFT p90 ms | mean ms | cache hit % | "
             "SLO met % | ok/sent |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        c = r[arm]
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %d/%d |" % (
            r["policy"], r["load_use"], fmt(c["inst_per_session"], "%.2f"), fmt(c["ttft_p50"]), fmt(c["ttft_p90"]),
            fmt(c["ttft_mean"]), fmt(c["cache_hit"], "%.1f"), fmt(c["slo_met_pct"], "%.1f"), c["ok"], c["requests"]))
    return "\n".join(lines)


def single_arm(args, policies, arm):
    rows = []
    for p in policies:
        rows.append({"policy": p, "load_use": LOAD_USE.get(p, ""), "arm": arm,
                     arm: cell_stats(load_cell(args.run_dir, p, arm)),
                     "reasons": {arm: cell_reasons(os.path.join(args.run_dir, p, arm))}})
    with open(os.path.join(args.run_dir, "summary.json"), "w") as f:
        json.dump(rows, f, indent=1)
    text = single_table(rows, arm)
    md = ["# Ablation results", "", args.header, "",
          "ES=%s only: this run has no other arm, so there is no comparison." % arm[2:], "", text, "", slo_text(),
          ""]
    with open(os.path.join(args.run_dir, "results.md"), "w") as f:
        f.write("\n".join(md))
    print(text)
    return 0


def table(rows):
    lines = ["| policy | how it uses load | inst/session es0→es1 | reroute % | TTFT p90 ms es0→es1 | "
             "mean ms es0→es1 | cache hit % es0→es1 | SLO met % es0→es1 | verdict |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        s0, s1 = r["es0"], r["es1"]
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["policy"], r["load_use"], arrow(s0["inst_per_session"], s1["inst_per_session"], "%.2f"),
            fmt(r["reroute_pct"], "%.1f"), arrow(s0["ttft_p90"], s1["ttft_p90"]),
            arrow(s0["ttft_mean"], s1["ttft_mean"]), arrow(s0["cache_hit"], s1["cache_hit"], "%.1f"),
            arrow(s0["slo_met_pct"], s1["slo_met_pct"], "%.1f"), r["verdict"]))
    return "\n".join(lines)


def feed_table(rows):
    lines = ["| policy (ES=1) | age p50 ms | p99 ms | max ms | share > 2 s | age during prefills > 50k "
             "tokens p50/p99/max ms (windows) |", "| --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        f = r["feed"]
        if not f or not f["overall"]:
            lines.append("| %s | n/a | n/a | n/a | n/a | n/a |" % r["policy"])
            continue
        o, d = f["overall"], f["during_large_prefill"]
        dtext = ("%.0f / %.0f / %.0f (%d)" % (d["p50_ms"], d["p99_ms"], d["max_ms"], f["large_prefill_windows"])
                 if d else "none in this run")
        lines.append("| %s | %.0f | %.0f | %.0f | %.2f%% | %s |" % (
            r["policy"], o["p50_ms"], o["p99_ms"], o["max_ms"], o["share_over_2s"], dtext))
    return "\n".join(lines)


def charts(run_dir, rows, cells):
    raw = os.path.join(run_dir, "raw")
    os.makedirs(raw, exist_ok=True)
    made = []
    for r in rows:
        p = r["policy"]
        for arm in ("es0", "es1"):
            t = sorted(ttft_values(cells[(p, arm)]))
            with open(os.path.join(raw, "%s-%s.ttft.dat" % (p, arm)), "w") as f:
                for i, v in enumerate(t):
                    f.write("%.3f %.5f\n" % (v, (i + 1) / len(t)))
    with open(os.path.join(raw, "p90.dat"), "w") as f:
        for r in rows:
            f.write("%s %s %s\n" % (r["policy"], fmt(r["es0"]["ttft_p90"], "%.1f", "0"),
                                    fmt(r["es1"]["ttft_p90"], "%.1f", "0")))
    if not shutil.which("gnuplot"):
        return made
    # noenhanced: policy names carry underscores, which gnuplot would set as subscripts
    script = ["set terminal pngcairo size 900,560 noenhanced", "set grid", "set key bottom right",
              "set xlabel 'TTFT (ms)'", "set ylabel 'fraction of requests'", "set logscale x"]
    for r in rows:
        p = r["policy"]
        d0 = os.path.join(raw, "%s-es0.ttft.dat" % p)
        d1 = os.path.join(raw, "%s-es1.ttft.dat" % p)
        if os.path.getsize(d0) == 0 or os.path.getsize(d1) == 0:
            continue
        png = "ttft_cdf_%s.png" % p
        script += ["set output '%s'" % os.path.join(run_dir, png), "set title 'TTFT CDF: %s'" % p,
                   "plot '%s' using 1:2 with lines lw 2 title 'ES=0', '%s' using 1:2 with lines lw 2 title 'ES=1'"
                   % (d0, d1)]
        made.append(png)
    script += ["unset logscale x", "set output '%s'" % os.path.join(run_dir, "ttft_p90.png"),
               "set title 'TTFT p90 by policy'", "set style data histograms",
               "set style histogram clustered gap 1", "set style fill solid 0.8 border -1",
               "set xlabel ''", "set ylabel 'TTFT p90 (ms)'", "set key top left", "set xtics rotate by -30",
               "set yrange [0:*]",
               "plot '%s' using 2:xtic(1) title 'ES=0', '' using 3 title 'ES=1'" % os.path.join(raw, "p90.dat")]
    made.append("ttft_p90.png")
    try:
        subprocess.run(["gnuplot"], input="\n".join(script) + "\n", text=True, check=True,
                       capture_output=True, timeout=60)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
        print("compare: gnuplot failed: %s" % getattr(e, "stderr", e), file=sys.stderr)
        return []
    return made


def main(argv=None):
    global TIME_SCALE, NOISE, SLO
    ap = argparse.ArgumentParser(description="Compare ES=0 vs ES=1 arms of an ablation run.")
    ap.add_argument("run_dir", help="run directory holding <policy>/es0 and <policy>/es1")
    ap.add_argument("--policies", help="comma-separated order (default: every policy folder, sorted)")
    ap.add_argument("--no-charts", action="store_true", help="skip gnuplot")
    ap.add_argument("--header", default="", help="text put above the tables in results.md")
    ap.add_argument("--noise", type=float, default=NOISE,
                    help="relative TTFT p90 change below which the verdict is 'within noise' (default 0.05);"
                         " set it from an A/A control (two runs of one cell)")
    ap.add_argument("--time-scale", type=float, default=1.0,
                    help="simulated seconds per real second of the run; times are reported simulated")
    ap.add_argument("--slo-ttft-ms", type=float, default=records.SLO_TTFT_MS,
                    help="SLO attainment: TTFT target in ms (default %g)" % records.SLO_TTFT_MS)
    ap.add_argument("--slo-tpot-ms", type=float, default=records.SLO_TPOT_MS,
                    help="SLO attainment: time per output token after the first, target in ms (default %g)"
                         % records.SLO_TPOT_MS)
    args = ap.parse_args(argv)
    TIME_SCALE = args.time_scale
    SLO = (args.slo_ttft_ms, args.slo_tpot_ms)
    NOISE = args.noise
    if not os.path.isdir(args.run_dir):
        print("compare: no such run directory: %s" % args.run_dir, file=sys.stderr)
        return 2
    policies = args.policies.split(",") if args.policies else policies_in(args.run_dir)
    arms = arms_in(args.run_dir, policies)
    if len(arms) == 1:
        return single_arm(args, policies, arms[0])
    rows, cells = [], {}
    for p in policies:
        row, r0, r1 = compare_policy(args.run_dir, p)
        rows.append(row)
        cells[(p, "es0")], cells[(p, "es1")] = r0, r1
    made = [] if args.no_charts else charts(args.run_dir, rows, cells)
    with open(os.path.join(args.run_dir, "summary.json"), "w") as f:
        json.dump(rows, f, indent=1)
    note = ("Times are simulated: the fleet ran %g times faster than real time and every time "
            "below is real time x %g." % (TIME_SCALE, TIME_SCALE)) if TIME_SCALE != 1.0 else ""
    md = ["# Ablation results", "", args.header, "", note, "", "## ES=0 vs ES=1 per policy", "", table(rows), "",
          "Successful requests per cell (ok/sent): " + "; ".join(
              "%s es0 %d/%d, es1 %d/%d" % (r["policy"], r["es0"]["ok"], r["es0"]["requests"],
                                           r["es1"]["ok"], r["es1"]["requests"]) for r in rows), "",
          slo_text(), "",
          "## Feed freshness (ES=1 cells, slot ages sampled every 1 ms)", "", feed_table(rows), ""]
    reasons = [r for r in rows if r["reasons"]["es0"] or r["reasons"]["es1"]]
    if reasons:
        md += ["## Decisions by reason", ""]
        for r in reasons:
            for arm in ("es0", "es1"):
                md.append("- %s %s: %s" % (r["policy"], arm, ", ".join(
                    "%s %d" % kv for kv in sorted(r["reasons"][arm].items())) or "none"))
        md.append("")
    if made:
        md += ["## Charts", ""] + ["![%s](%s)" % (m, m) for m in made] + [""]
    with open(os.path.join(args.run_dir, "results.md"), "w") as f:
        f.write("\n".join(md))
    print(table(rows))
    print()
    print(feed_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
