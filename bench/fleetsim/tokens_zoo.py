#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What exact token counts change on the workload zoo, with 95% intervals.

  python3 bench/fleetsim/tokens_zoo.py --out DIR --tokenizer MODEL_DIR [options]

Runs `sweep.py --zoo` twice with the same seeds (so the same traces, arrival
and step jitter), both with `kvroute-fleetsim --tokenizer MODEL_DIR`: the
engines prefill and cache every prompt in the model's tokens in both. In one
the routers estimate bytes/4 and key on 64-byte text blocks
(`--router-tokens estimate`, kvroute without --tokenizer); in the other they
count and key on the same tokens as the engines (`--router-tokens exact`,
kvroute --tokenizer --block-tokens 16). Reports, per regime, rule, router
count and ES arm, the paired difference exact - estimate over the seeds
(TTFT p50/p90, SLO met, cache hit; output tok/s as exact / estimate), with a
verdict only where the interval excludes zero, and per regime the prompts'
tokens over their bytes/4.

Writes DIR/tokens_zoo.md and DIR/tokens_zoo.json; the two sweeps' runs stay
under DIR/estimate and DIR/exact (--reuse keeps them when their commands
match). Standard library only.
"""
import argparse
import datetime
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sweep  # noqa: E402
from kvrbench.records import load_records  # noqa: E402

ARMS = ["estimate", "exact"]
# (figure, column, format, True: exact / estimate rather than exact - estimate, lower is better)
SHOWN = [("ttft_p50", "TTFT p50 ms", "%+.0f", False, True), ("ttft_p90", "TTFT p90 ms", "%+.0f", False, True),
         ("goodput", "SLO met pts", "%+.1f", False, False), ("cache_hit", "cache hit pts", "%+.1f", False, False),
         ("tok_s", "output tok/s exact/estimate", "%.3f", True, False)]


def header(argv):
    commit = subprocess.run(["git", "-C", sweep.ROOT, "describe", "--always", "--dirty"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True).stdout.strip() or "unknown"
    u = os.uname()
    load = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else []
    return {"commit": commit, "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": "%s %s %s, %d cores, load %s" % (u.sysname, u.release, u.machine, os.cpu_count() or 0,
                                                          " ".join(load)),
            "command": " ".join(shlex.quote(x) for x in ["bench/fleetsim/tokens_zoo.py"] + list(argv))}


def token_ratio(out, regime):
    """The prompts' tokens over their bytes/4 (input_length), over every run of a regime's exact arm."""
    tokens = estimate = 0
    for d, _, files in os.walk(os.path.join(out, "exact", regime, "runs")):
        if "replay.jsonl" in files:
            for r in load_records(os.path.join(d, "replay.jsonl")):
                if r.get("ok") and r.get("prompt_tokens") and r.get("input_length"):
                    tokens += r["prompt_tokens"]
                    estimate += r["input_length"]
    return tokens / estimate if estimate else None


def verdict(m, h, lower_better):
    if m is None or h is None or abs(m) <= h:
        return None
    return "exact better" if (m < 0) == lower_better else "exact worse"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--tokenizer", required=True, help="the model's tokenizer.json and tokenizer_config.json")
    ap.add_argument("--zoo", default=os.path.join(HERE, "zoo.json"), help="regime table (default the zoo)")
    ap.add_argument("--regimes", default="study,mooncake,sessionless-shared,tenants", help="regimes of the table")
    ap.add_argument("--policies", default="ttft,cost,cache_aware", help="rules (default ttft,cost,cache_aware)")
    ap.add_argument("--routers", default="1,4", help="router counts (default 1,4)")
    ap.add_argument("--es", default="1", help="ES arms (default 1)")
    ap.add_argument("--seeds", type=int, default=5, help="seeds 1..K (default 5)")
    ap.add_argument("--engines", type=int, default=8, help="engines (default 8, the zoo's calibration)")
    ap.add_argument("--load-scale", type=float, default=1.0, help="multiplies every regime's rate (default 1)")
    ap.add_argument("--jobs", type=int, default=1, help="runs at once (default 1)")
    ap.add_argument("--fleetsim", default=sweep.program("bench/fleetsim/kvroute-fleetsim"))
    ap.add_argument("--tracegen", default=sweep.program("bench/tracegen/kvroute-tracegen"))
    ap.add_argument("--reuse", action="store_true", help="keep runs made by the same command")
    a = ap.parse_args(argv)
    tokenizer = os.path.abspath(a.tokenizer)
    head = header(argv)
    for arm in ARMS:
        sub = ["--out", os.path.join(a.out, arm), "--zoo", a.zoo, "--regimes", a.regimes, "--policies", a.policies,
               "--routers", a.routers, "--es", a.es, "--seeds", str(a.seeds), "--engines", str(a.engines),
               "--load-scale", "%g" % a.load_scale, "--jobs", str(a.jobs), "--fleetsim", a.fleetsim,
               "--tracegen", a.tracegen,
               "--fleetsim-args", "--tokenizer %s --router-tokens %s" % (shlex.quote(tokenizer), arm)]
        print("tokens_zoo: %s arm" % arm, file=sys.stderr)
        p = subprocess.run([sys.executable, os.path.join(HERE, "sweep.py")] + sub + (["--reuse"] if a.reuse else []),
                           stdout=subprocess.DEVNULL)
        if p.returncode:
            print("tokens_zoo: the %s sweep failed (%d)" % (arm, p.returncode), file=sys.stderr)
            return p.returncode
    docs = {}
    for arm in ARMS:
        with open(os.path.join(a.out, arm, "zoo.json")) as f:
            docs[arm] = json.load(f)
    runs = {arm: {(r["regime"], r["policy"], r["routers"], r["es"], r["seed"]): r for r in docs[arm]["runs"]}
            for arm in ARMS}
    seeds = docs["exact"]["seeds"]
    cells = sorted({k[:4] for k in runs["exact"]}, key=lambda k: (a.regimes.split(",").index(k[0]),
                                                                   a.policies.split(",").index(k[1]), k[2], k[3]))
    rows = []
    for key in cells:
        row = {"regime": key[0], "policy": key[1], "routers": key[2], "es": key[3]}
        for name, _, _, ratio, _ in SHOWN:
            vals, base = [], []
            for s in seeds:
                x, y = runs["estimate"].get(key + (s,), {}).get(name), runs["exact"].get(key + (s,), {}).get(name)
                base.append(x)
                if x is None or y is None or (ratio and not x):
                    vals.append(None)
                else:
                    vals.append(y / x if ratio else y - x)
            m, h, n = sweep.interval(vals)
            bm, bh, _ = sweep.interval(base)
            row[name] = {"mean": m, "ci95": h, "n": n, "estimate_mean": bm}
        rows.append(row)
    ratios = {reg: token_ratio(a.out, reg) for reg in a.regimes.split(",")}
    doc = {"header": head, "seeds": seeds, "engines": a.engines, "load_scale": a.load_scale, "token_ratio": ratios,
           "rows": rows}
    with open(os.path.join(a.out, "tokens_zoo.json"), "w") as f:
        json.dump(doc, f, indent=1)
    text = report(doc)
    with open(os.path.join(a.out, "tokens_zoo.md"), "w") as f:
        f.write(text + "\n")
    print(text)
    return 0


def report(doc):
    h = doc["header"]
    lines = ["Commit %s, %s, %s." % (h["commit"], h["date"], h["machine"]),
             "Command: `%s`" % h["command"], "",
             "%d seeds per cell, %d engines, zoo rates x %g. Engines prefill and cache the model's tokens in both "
             "arms; the routers count bytes/4 (estimate) or those tokens (exact). Each figure: exact - estimate "
             "(tok/s: exact / estimate), mean ± 95%% interval over seeds paired by seed; the estimate arm's own mean "
             "in brackets. A verdict only where the interval excludes zero (no difference: 1 for the ratio)." % (
                 len(doc["seeds"]), doc["engines"], doc["load_scale"]), "",
             "Prompt tokens over bytes/4 (exact arm, every run): " + ", ".join(
                 "%s %s" % (k, "%.3f" % v if v else "n/a") for k, v in doc["token_ratio"].items()), "",
             "| regime | rule | routers | ES | " + " | ".join(c for _, c, _, _, _ in SHOWN) + " | verdict |",
             "| --- | --- | --- | --- |" + " --- |" * len(SHOWN) + " --- |"]
    for r in doc["rows"]:
        cols, verdicts = [], []
        for name, col, spec, ratio, lower in SHOWN:
            c = r[name]
            base = c["estimate_mean"]
            cols.append("%s [%s]" % (sweep.fmt(c["mean"], c["ci95"], spec),
                                     "n/a" if base is None else ("%.0f" if abs(base) >= 100 else "%.1f") % base))
            m = c["mean"] - 1 if ratio and c["mean"] is not None else c["mean"]
            v = verdict(m, c["ci95"], lower if not ratio else False)
            if v:
                verdicts.append("%s: %s" % (col.split(" exact")[0], v))
        lines.append("| %s | %s | %d | %d | %s | %s |" % (r["regime"], r["policy"], r["routers"], r["es"],
                                                          " | ".join(cols), "; ".join(verdicts) or "none"))
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
