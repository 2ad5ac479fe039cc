#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""kvroute-fleetsim against the real processes on one trace, side by side.

  python3 bench/fleetsim/fidelity.py --sim SWEEP_DIR --real RUN_DIR --real RUN_DIR2 [...]
  python3 bench/fleetsim/fidelity.py ... --es 0,1 --routers 4 --regime grouped --json bench/fleetsim/fidelity.json

SWEEP_DIR is a bench/fleetsim/sweep.py run with --trace (the trace the real
runs replayed), RUN_DIR a bench/ablate/run.sh run directory (two or more: the
real processes' A/A control, every run with the same trace, seed and flags;
a cell is read from every RUN_DIR that has it, so runs of one arm each may be
given together). For each policy and figure: the simulator's mean and 95%
interval over its seeds, each real run's value, and whether the simulator is
beyond the real runs' own spread. The gap is the distance from the
simulator's interval (mean ± its 95% half width) to [min, max] of the real
runs; it counts only when it exceeds the A/A spread, which is that range's
width but never less than 5% of the real runs' largest value: two or three
real runs that happen to agree closely say little about how far a third
could fall, so a near-zero width is not a tolerance.

With --json FILE the TTFT figures of every compared cell are stored in FILE
under --regime (rows of the same regime, router count and arm are replaced,
the rest kept): sweep.py prints them in every report as the measured gap.
With --tracegen-args (the kvroute-tracegen flags that wrote the sweep's
trace) the regime's trace is stored too, by its flags and digest, and each
row keeps the sweep's flags, so that the simulator side can be run again:

  python3 bench/fleetsim/fidelity.py --check [--regimes grouped,agentic] [--es 0]

writes each stored regime's trace again, runs the stored cells through
sweep.py and compares the simulator of this tree with the stored real runs
(exit 1 when a figure is beyond the A/A spread or a trace is not the one
measured): a change to the engine model, the replay or a rule that moves the
simulator off the real processes shows without running them.

  python3 bench/fleetsim/fidelity.py --write-results [bench/RESULTS.md]

writes the stored table, with its commands, between the fidelity markers of
bench/RESULTS.md (--results-check: exit 1 when that block differs).
"""
import argparse
import datetime
import hashlib
import json
import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep  # noqa: E402
from kvrbench.records import load_cell  # noqa: E402

FIGS = [("ttft_p50", "TTFT p50 ms", "%.0f"), ("ttft_p90", "TTFT p90 ms", "%.0f"), ("e2e_p50", "e2e p50 ms", "%.0f"),
        ("cache_hit", "cache hit %", "%.1f"), ("goodput", "SLO met %", "%.1f"), ("eng_per_session", "engines/session", "%.2f")]
STORED = ("ttft_p50", "ttft_p90", "goodput")
# stored figure -> (table heading, number format, short name)
STORED_AS = {"ttft_p50": ("TTFT p50", "%.0f", "p50"), "ttft_p90": ("TTFT p90", "%.0f", "p90"),
             "goodput": ("SLO met %", "%.1f", "SLO met")}

# The least A/A spread, as a share of the real runs' largest value.
MIN_SPREAD = 0.05

FIDELITY = sweep.FIDELITY
RESULTS = os.path.join(sweep.ROOT, "bench", "RESULTS.md")
BEGIN, END = "<!-- fidelity:begin -->", "<!-- fidelity:end -->"
# sweep.py flags that name the cells, the output or the trace: a stored row keeps the others (how its runs were made)
CELL_FLAGS = {"--out": 1, "--trace": 1, "--tracegen-args": 1, "--policies": 1, "--es": 1, "--routers": 1, "--jobs": 1,
              "--fleetsim": 1, "--tracegen": 1, "--reuse": 0, "--pairs": 1, "--against": 1}


def beyond(sim_mean, real, sim_ci95=None):
    """True when the simulator's interval lies further from the real runs' range than the A/A spread."""
    lo, hi = min(real), max(real)
    spread = max(hi - lo, MIN_SPREAD * max(abs(lo), abs(hi)))
    half = sim_ci95 or 0.0
    gap = lo - (sim_mean + half) if sim_mean < lo else (sim_mean - half) - hi if sim_mean > hi else 0.0
    return gap > spread


def gap_pct(sim_mean, real):
    """The simulator's mean off the real runs' range, in % of the nearer end (0 inside the range)."""
    lo, hi = min(real), max(real)
    if sim_mean < lo:
        return 100.0 * (sim_mean - lo) / lo if lo else None
    if sim_mean > hi:
        return 100.0 * (sim_mean - hi) / hi if hi else None
    return 0.0


def compare(res, reals, es, routers, time_scale):
    """(table lines, stored rows) for the sweep's cells of one ES arm and router count."""
    cells = [c for c in res["cells"] if c["es"] == es and c["routers"] == routers]
    lines, rows = [], []
    for c in cells:
        real = []
        for d in reals:
            if os.path.exists(os.path.join(d, c["policy"], "es%d" % es, "replay.jsonl")):
                # times in simulated time before any figure, the SLO share included
                real.append(sweep.figures(load_cell(d, c["policy"], "es%d" % es, time_scale)))
        if not real:
            continue
        cols, off = [], []
        row = {"policy": c["policy"], "es": es, "routers": routers, "real_runs": len(real)}
        for name, label, spec in FIGS:
            m, h = c[name]["mean"], c[name]["ci95"]
            vals = [r[name] for r in real if r[name] is not None]
            cols.append("%s / %s" % (sweep.fmt(m, h, spec), " · ".join(spec % v for v in vals)))
            out = m is not None and bool(vals) and beyond(m, vals, h)
            if out:
                off.append(label)
            if name in STORED and m is not None and vals:
                row[name] = {"sim": round(m, 1), "sim_ci95": round(h or 0.0, 1), "real": [round(v, 1) for v in vals],
                             "gap_pct": round(gap_pct(m, vals), 1), "beyond": out}
        lines.append("| %s | %d | %s | %s |" % (c["policy"], es, " | ".join(cols), ", ".join(off) or "none"))
        rows.append(row)
    return lines, rows


def commit(stored=FIDELITY):
    """The tree's commit, -dirty when a tracked file other than the stored figures differs from it."""
    def git(*args):
        p = subprocess.run(["git", "-C", sweep.ROOT] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
        if p.returncode != 0:
            raise OSError(p.returncode)
        return p.stdout.strip()
    rel = os.path.relpath(os.path.abspath(stored), sweep.ROOT)
    try:
        head = git("rev-parse", "--short", "HEAD")
        changed = git("status", "--porcelain", "--untracked-files=no", "--", ".",
                      *([] if rel.startswith("..") else [":(exclude)" + rel]))
    except OSError:
        return "unknown"
    return head + ("-dirty" if changed else "")


def sweep_flags(argv):
    """The flags of a sweep's command line that say how its runs were made (not which cells, nor where)."""
    out, i = [], 0
    while i < len(argv):
        name = argv[i].split("=", 1)[0]
        if name in CELL_FLAGS:
            i += 1 + (CELL_FLAGS[name] if "=" not in argv[i] else 0)
            continue
        out.append(argv[i])
        i += 1
    return out


def digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def trace_entry(path, tracegen_args):
    """How a regime's trace is written again and known to be the same: its tracegen flags, size and digest."""
    with open(path, "rb") as f:
        n = sum(1 for line in f if line.strip())
    return {"tracegen": tracegen_args, "requests": n, "sha256": digest(path)}


def store(path, regime, routers, rows, argv, arms=(0, 1), trace=None):
    doc = {"about": "kvroute-fleetsim's TTFT against the real processes (bench/fleetsim/fidelity.py --json); "
                    "gap_pct: the simulator's mean off the real runs' range in % of its nearer end, 0 inside it",
           "rows": []}
    if os.path.exists(path):
        with open(path) as f:
            doc = json.load(f)
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    doc["rows"] = [r for r in doc.get("rows", [])
                   if not (r["regime"] == regime and r["routers"] == routers and r["es"] in arms)]
    for r in rows:
        doc["rows"].append(dict({"regime": regime, "date": when, "commit": commit(path),
                                 "command": "bench/fleetsim/fidelity.py " + " ".join(shlex.quote(x) for x in argv)}, **r))
    if trace:
        doc.setdefault("traces", {})[regime] = trace
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def load(path=FIDELITY):
    with open(path) as f:
        return json.load(f)


# ---------------------------------------------------------------------------------------------
# the stored table, and the simulator of this tree against the stored real runs


def unique(items):
    """The items in first-seen order, each once."""
    out = []
    for x in items:
        if x not in out:
            out.append(x)
    return out


def real_text(row, name):
    if name not in row:
        return "n/a"
    return " · ".join(STORED_AS[name][1] % v for v in row[name]["real"])


def sim_text(name, mean, ci95, real, out):
    spec = STORED_AS[name][1]
    return (spec + " ± " + spec + " (%+.0f%%%s)") % (mean, ci95, gap_pct(mean, real), ", beyond" if out else "")


def table_head(what):
    return ["| regime | routers | policy | ES | " + " | ".join("%s real (A/A) | %s" % (STORED_AS[n][0], what)
                                                            for n in STORED) + " |",
            "| --- | --: | --- | --: |" + " --: |" * (2 * len(STORED))]


def cell_name(r):
    return "%s %d router%s" % (r["regime"], r["routers"], "" if r["routers"] == 1 else "s")


def sim_groups(rows):
    """(regime, routers, sweep flags, policies, arms): one sweep.py run per group of stored rows."""
    out = []
    for reg, nr, flags in unique((r["regime"], r["routers"], r.get("sweep", "")) for r in rows):
        cells = [r for r in rows if (r["regime"], r["routers"], r.get("sweep", "")) == (reg, nr, flags)]
        out.append((reg, nr, flags, unique(r["policy"] for r in cells), sorted({r["es"] for r in cells})))
    return out


def row_line(row, sims):
    """One table line: sims maps each stored figure the row has to (mean, ci95, beyond)."""
    cols = []
    for name in STORED:
        if name not in row or name not in sims or sims[name][0] is None:
            cols += [real_text(row, name), "n/a"]
            continue
        m, h, out = sims[name]
        cols += [real_text(row, name), sim_text(name, m, h, row[name]["real"], out)]
    return "| %s | %d | %s | %d | %s |" % (row["regime"], row["routers"], row["policy"], row["es"], " | ".join(cols))


def results_text(doc):
    """bench/RESULTS.md's fidelity block: the stored rows, their conditions and the commands that made them."""
    order = list(doc.get("traces", {}))
    rows = sorted(doc["rows"], key=lambda r: (r["es"], order.index(r["regime"]) if r["regime"] in order else len(order),
                                              r["regime"], r["routers"]))
    lines = ["*Generated by `python3 bench/fleetsim/fidelity.py --write-results` from "
             "`bench/fleetsim/fidelity.json`.* Simulator: mean ± 95%% interval over its seeds; in brackets its "
             "mean off the real runs' range in %% of the nearer end (0: inside it); \"beyond\": further off than "
             "the A/A spread (the range's width, at least %d%% of the real value), net of the simulator's "
             "interval. TTFT in ms; SLO met: %% of the requests sent with TTFT <= %g ms and TPOT <= %g ms, "
             "every refusal a miss." % (round(MIN_SPREAD * 100), sweep.SLO_TTFT_MS, sweep.SLO_TPOT_MS), ""] + table_head("sim")
    for r in rows:
        lines.append(row_line(r, {n: (r[n]["sim"], r[n]["sim_ci95"], r[n]["beyond"]) for n in STORED if n in r}))
    off = ["%s %s ES=%d %s" % (cell_name(r), r["policy"], r["es"], STORED_AS[n][2]) for r in rows for n in STORED
           if n in r and r[n]["beyond"]]
    lines += ["", "- Beyond the A/A spread: %s." % (", ".join(off) or "nothing")]
    for n in unique(r["note"] for r in rows if r.get("note")):
        which = unique("%s %s ES=%d" % (cell_name(r), r["policy"], r["es"]) for r in rows if r.get("note") == n)
        lines.append("- Condition of %s: %s." % (", ".join(which), n.rstrip(".")))
    lines += ["- Measured %s." % ", ".join(unique("%s at %s" % (r["date"], r["commit"]) for r in rows)), "",
              "The traces (stored by digest), the simulator's sweeps and the comparisons with the real runs "
              "(`bench/ablate/run.sh`, as above):", "", "```"]
    for reg, tr in sorted(doc.get("traces", {}).items()):
        lines.append("kvroute-tracegen %s -o %s.jsonl    # %d requests" % (tr["tracegen"], reg, tr["requests"]))
    for reg, nr, flags, pols, es in sim_groups(rows):
        lines.append("python3 bench/fleetsim/sweep.py --out sim/%s-r%d --trace %s.jsonl --routers %d --policies %s "
                     "--es %s %s" % (reg, nr, reg, nr, ",".join(pols), ",".join(map(str, es)), flags))
    lines += ["python3 " + c for c in unique(r["command"] for r in rows)] + [
        "```", "", "The simulator of a later tree against these real runs: `python3 bench/fleetsim/fidelity.py --check`."]
    return "\n".join(lines)


def with_block(text, body, path):
    a, b = text.find(BEGIN), text.find(END)
    if a < 0 or b < a:
        raise SystemExit("fidelity: %s has no %s ... %s block" % (path, BEGIN, END))
    return text[:a + len(BEGIN)] + "\n" + body + "\n" + text[b:]


def check(doc, fleetsim, tracegen, regimes=None, arms=None, policies=None, jobs=1, workdir=None):
    """(table lines, problems): the stored rows' cells run again by this tree's simulator, against their real runs."""
    lines, problems = table_head("sim now"), []
    rows = [r for r in doc["rows"] if (regimes is None or r["regime"] in regimes) and (arms is None or r["es"] in arms)
            and (policies is None or r["policy"] in policies)]
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        for reg in unique(r["regime"] for r in rows):
            tr = doc.get("traces", {}).get(reg)
            if not tr:
                problems.append("%s: no stored trace (store one with --tracegen-args)" % reg)
                continue
            path = os.path.join(tmp, reg + ".jsonl")
            subprocess.run([tracegen] + shlex.split(tr["tracegen"]) + ["-o", path], check=True,
                           stdout=subprocess.DEVNULL)
            if digest(path) != tr["sha256"]:
                problems.append("%s: kvroute-tracegen %s no longer writes the trace that was measured (%d requests "
                                "stored): measure the regime again" % (reg, tr["tracegen"], tr["requests"]))
                continue
            for k, (_, nr, flags, pols, es) in enumerate(g for g in sim_groups(rows) if g[0] == reg):
                cells = [r for r in rows if (r["regime"], r["routers"], r.get("sweep", "")) == (reg, nr, flags)]
                out = os.path.join(tmp, "%s-r%d-%d" % (reg, nr, k))
                rc = sweep.main(["--out", out, "--trace", path, "--policies", ",".join(pols), "--es",
                                 ",".join(map(str, es)), "--routers", str(nr), "--jobs", str(jobs),
                                 "--fleetsim", fleetsim] + shlex.split(flags), quiet=True)
                if rc != 0:
                    problems.append("%s: sweep.py failed" % cell_name(cells[0]))
                    continue
                with open(os.path.join(out, "results.json")) as f:
                    got = {(c["policy"], c["es"]): c for c in json.load(f)["cells"] if c["routers"] == nr}
                for r in cells:
                    c = got[(r["policy"], r["es"])]
                    sims = {}
                    for n in STORED:
                        if n not in r or c.get(n, {}).get("mean") is None:
                            continue
                        m, h = c[n]["mean"], c[n]["ci95"] or 0.0
                        sims[n] = (m, h, beyond(m, r[n]["real"], h))
                        if sims[n][2]:
                            spec = STORED_AS[n][1]
                            problems.append(("%s %s ES=%d %s: simulator " + spec + ", real %s (measured %s at %s, "
                                             "simulator then " + spec + ")") % (
                                                cell_name(r), r["policy"], r["es"], STORED_AS[n][2], m,
                                                real_text(r, n), r["date"], r["commit"], r[n]["sim"]))
                    lines.append(row_line(r, sims))
    return lines, problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sim", help="sweep.py output directory (results.json)")
    ap.add_argument("--real", action="append", help="bench/ablate/run.sh run directory (repeat)")
    ap.add_argument("--es", help="the arms to compare, e.g. 0,1 (default 0; with --check every stored arm)")
    ap.add_argument("--routers", type=int, default=1, help="the sweep's router count to compare (default 1)")
    ap.add_argument("--time-scale", type=float, default=1.0,
                    help="the real runs' --time-scale: their times are multiplied by it (default 1)")
    ap.add_argument("--regime", help="the trace's regime name (zoo.json's), for --json")
    ap.add_argument("--json", metavar="FILE", help="store the TTFT figures in FILE under --regime")
    ap.add_argument("--note", help="with --json: a condition of the measurement, printed beside its cells "
                                   "(e.g. the feed source both sides used)")
    ap.add_argument("--tracegen-args", help="with --json: the kvroute-tracegen flags that wrote the sweep's trace, "
                                            "stored with its digest so that --check can write it again")
    ap.add_argument("--check", action="store_true",
                    help="run the stored cells again with this tree's simulator against the stored real runs; "
                         "exit 1 when one is beyond the A/A spread or a trace differs")
    ap.add_argument("--regimes", help="with --check: comma-separated regimes (default: all stored)")
    ap.add_argument("--policies", help="with --check: comma-separated policies (default: all stored)")
    ap.add_argument("--jobs", type=int, default=1, help="with --check: simulator runs at once (default 1)")
    ap.add_argument("--fleetsim", default=sweep.program("bench/fleetsim/kvroute-fleetsim"),
                    help="with --check: the kvroute-fleetsim program (default: as sweep.py finds it)")
    ap.add_argument("--tracegen", default=sweep.program("bench/tracegen/kvroute-tracegen"),
                    help="with --check: the kvroute-tracegen program (default: as sweep.py finds it)")
    ap.add_argument("--stored", default=FIDELITY, metavar="FILE",
                    help="with --check, --write-results, --results-check: the stored figures (default %s)"
                         % os.path.relpath(FIDELITY, sweep.ROOT))
    ap.add_argument("--write-results", nargs="?", const=RESULTS, metavar="FILE",
                    help="write the stored table into the fidelity block of FILE (default bench/RESULTS.md)")
    ap.add_argument("--results-check", nargs="?", const=RESULTS, metavar="FILE",
                    help="exit 1 when the fidelity block of FILE (default bench/RESULTS.md) is not the stored table")
    a = ap.parse_args(argv)
    arms = [int(e) for e in a.es.split(",") if e] if a.es else None

    if a.write_results or a.results_check:
        path = a.write_results or a.results_check
        with open(path) as f:
            text = f.read()
        want = with_block(text, results_text(load(a.stored)), path)
        if a.write_results:
            with open(path, "w") as f:
                f.write(want)
            return 0
        if text != want:
            print("fidelity: the fidelity block of %s is not what %s gives; run fidelity.py --write-results"
                  % (path, a.stored))
            return 1
        return 0

    if a.check:
        split = (lambda s: s.split(",") if s else None)
        lines, problems = check(load(a.stored), a.fleetsim, a.tracegen, split(a.regimes), arms, split(a.policies),
                                a.jobs)
        print("\n".join(lines))
        for p in problems:
            print("fidelity: " + p)
        print("fidelity: %s" % ("%d figure(s) or trace(s) off the stored real runs" % len(problems) if problems
                                else "every stored cell within the real runs' A/A spread"))
        return 1 if problems else 0

    if not a.sim or not a.real:
        ap.error("--sim and --real are required (or --check, --write-results, --results-check)")
    if a.json and not a.regime:
        ap.error("--json needs --regime")
    res = json.load(open(os.path.join(a.sim, "results.json")))
    head = ("| policy | ES | " + " | ".join("%s sim / real" % label for _, label, _ in FIGS) + " | beyond A/A |")
    lines, rows = [head, "|" + " --- |" * (len(FIGS) + 3)], []
    arms = arms or [0]
    for es in arms:
        ls, rs = compare(res, a.real, es, a.routers, a.time_scale)
        lines += ls
        rows += rs
    print("\n".join(lines))
    if a.json:
        trace = None
        if a.tracegen_args:
            sim_argv = res.get("argv") or []
            path = next((sim_argv[i + 1] for i, x in enumerate(sim_argv[:-1]) if x == "--trace"), None)
            if not path:
                ap.error("--tracegen-args: the sweep in --sim has no --trace to store")
            trace = trace_entry(path, a.tracegen_args)
        for r in rows:
            if a.note:
                r["note"] = a.note
            if "argv" in res:
                r["sweep"] = " ".join(shlex.quote(x) for x in sweep_flags(res["argv"]))
        store(a.json, a.regime, a.routers, rows, argv if argv is not None else sys.argv[1:], arms, trace)
    return 0


if __name__ == "__main__":
    sys.exit(main())
