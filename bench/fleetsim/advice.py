#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Which rule to pick, written from one workload-zoo sweep and nothing else.

  python3 bench/fleetsim/advice.py DIR/zoo.json --write-all     # after a new sweep
  python3 bench/fleetsim/advice.py bench/fleetsim/zoo-summary.json --check
  python3 bench/fleetsim/advice.py DIR/zoo.json --verdict

The zoo.json of `sweep.py --zoo` (every cell and run, ~1.5 MB) is first cut to
a summary: the sweep's commit, date and command, and per cell (regime, rule,
routers, ES) the mean and 95% interval of its TTFT p90 over the best peer
rule's and of its goodput, and per (regime, rule, routers) the ES=1 over ES=0
TTFT p90 ratio, paired by seed. Everything below is written from that summary
alone, so a claim cannot say more than the sweep measured:

- the verdict: per rule, the cells where it is worse than the best peer beyond
  the interval, where its ES=1 is worse than its ES=0 beyond the interval, and
  whether it meets the default's criterion (neither, and <= 0.90x the best
  peer in at least half its cells); the recommended rule is the one that meets
  it, else the one that loses least, named as not proven;
- README.md's "which rule to pick" block (zoo-advice markers), bench/RESULTS.md's
  zoo tables (zoo-results markers) and router/policy_advice.h, the default and
  help text of kvroute --policy.

--write-all writes bench/fleetsim/zoo-summary.json (from a zoo.json) and the
three files; --check compares the three with what the summary generates and
exits 1 on any difference (tests/bench/test_zoo_advice.py runs it). Standard
library only.
"""
import argparse
import difflib
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
SUMMARY = "bench/fleetsim/zoo-summary.json"
README, RESULTS, HEADER = "README.md", "bench/RESULTS.md", "router/policy_advice.h"
BEGIN, END = "<!-- zoo-advice:begin -->", "<!-- zoo-advice:end -->"
RBEGIN, REND = "<!-- zoo-results:begin -->", "<!-- zoo-results:end -->"
KIND = "kvroute-zoo-summary"
WIN = 0.90  # a cell counts as a win at or below this ratio to the best peer

# The zoo's regimes by the workload they stand for (bench/tracegen/README.md); a regime not
# listed is a family of its own.
FAMILIES = [
    ("sessions", "multi-turn sessions (coding agents, chat)", ["study", "agentic"]),
    ("shared prefixes", "shared prefixes, no session ids (system prompts, tenants)",
     ["mooncake", "sessionless-shared", "tenants"]),
    ("bursts", "grouped or bursty arrivals", ["grouped", "ramp-burst"]),
    ("long prompts", "very long prompts (p99 past 100k tokens)", ["long-tail"]),
    ("unequal engines", "unequal engines (half at half speed)", ["hetero"]),
]


# ---------------------------------------------------------------------------------------------
# zoo.json -> summary


def interval(values):
    """Mean and 95% Student-t half width of the values that are not None: (mean, ci95)."""
    v = [x for x in values if x is not None]
    if len(v) < 2:
        return (v[0] if v else None), None
    m = sum(v) / len(v)
    sd = math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1))
    t = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
         9: 2.262}.get(len(v) - 1, 2.0)
    return m, t * sd / math.sqrt(len(v))


def rnd(x, digits):
    return None if x is None else round(x, digits)


def family_of(regime):
    return next((f for f, _, regs in FAMILIES if regime in regs), regime)


def summarize(doc):
    """The summary of a zoo.json: what the claims need, rounded, a few tens of kB as JSON."""
    h = doc.get("header", {})
    cells = {}
    for c in doc["cells"]:
        pr, gp = c.get("peer_ratio") or {}, c.get("goodput") or {}
        if pr.get("mean") is None:
            continue
        cells["%s %s %d %d" % (c["regime"], c["policy"], c["routers"], c["es"])] = [
            rnd(pr["mean"], 4), rnd(pr.get("ci95"), 4), pr.get("peer"), rnd(gp.get("mean"), 2),
            rnd(gp.get("ci95"), 2)]
    es_ratio = {}
    p90 = {}
    for r in doc.get("runs", []):
        if r.get("ttft_p90"):
            p90[(r["regime"], r["policy"], r["routers"], r["es"], r["seed"])] = r["ttft_p90"]
    for reg, rule, nr in sorted({(k[0], k[1], k[2]) for k in p90}):
        vals = [p90[(reg, rule, nr, 1, s)] / p90[(reg, rule, nr, 0, s)]
                if p90.get((reg, rule, nr, 1, s)) and p90.get((reg, rule, nr, 0, s)) else None
                for s in doc.get("seeds") or []]
        m, ci = interval(vals)
        if m is not None:
            es_ratio["%s %s %d" % (reg, rule, nr)] = [rnd(m, 4), rnd(ci, 4)]
    return {"kind": KIND, "commit": h.get("commit"), "date": h.get("date"), "machine": h.get("machine"),
            "command": h.get("command"), "engines": doc.get("engines"), "seeds": len(doc.get("seeds") or []),
            "slo": doc.get("slo"), "peers": doc.get("peers", []), "rules": doc["rules"], "win": WIN,
            "regimes": [{"name": r["name"], "family": family_of(r["name"])} for r in doc["regimes"]],
            "routers": sorted({c["routers"] for c in doc["cells"]}),
            "es": sorted({c["es"] for c in doc["cells"]}),
            "cells": cells, "es_ratio": es_ratio}


def dump_summary(s):
    """JSON with one cell per line, so that a new sweep's diff reads cell by cell."""
    head = {k: v for k, v in s.items() if k not in ("cells", "es_ratio")}
    out = json.dumps(head, indent=1, ensure_ascii=False)[:-2] + ",\n"
    for key in ("cells", "es_ratio"):
        rows = ["  %s: %s" % (json.dumps(k), json.dumps(v)) for k, v in sorted(s[key].items())]
        out += ' "%s": {\n%s\n }%s\n' % (key, ",\n".join(rows), "," if key == "cells" else "")
    return out + "}\n"


def load(path):
    with open(path) as f:
        doc = json.load(f)
    return doc if doc.get("kind") == KIND else summarize(doc)


# ---------------------------------------------------------------------------------------------
# the verdict


def cell(s, regime, rule, routers, es):
    """(mean, ci95, peer, goodput, goodput_ci95) or None."""
    return s["cells"].get("%s %s %d %d" % (regime, rule, routers, es))


def regime_names(s):
    return [r["name"] for r in s["regimes"]]


def verdict(s):
    """Per rule (in the sweep's order): its cells, the cells it loses beyond the interval, its wins
    (<= win), the (regime, routers, ratio) where ES=1 is worse than ES=0 beyond the interval, its
    worst ratio, and ok when it meets the criterion."""
    out = {}
    for rule in s["rules"]:
        mine = [(reg, nr, es, c) for reg in regime_names(s) for nr in s["routers"] for es in s["es"]
                for c in [cell(s, reg, rule, nr, es)] if c]
        if not mine:
            continue
        loses = [m for m in mine if m[3][0] - (m[3][1] or 0) > 1]
        wins = [m for m in mine if m[3][0] <= s["win"]]
        es_worse = [(reg, nr, r) for reg in regime_names(s) for nr in s["routers"]
                    for r in [s["es_ratio"].get("%s %s %d" % (reg, rule, nr))] if r and r[0] - (r[1] or 0) > 1]
        out[rule] = {"cells": mine, "loses": loses, "wins": wins, "es_worse": es_worse,
                     "worst": max(mine, key=lambda m: m[3][0]),
                     "ok": not loses and not es_worse and 2 * len(wins) >= len(mine)}
    return out


def rank_key(s, v, rule):
    """Fewest cells lost (to the best peer or to its own ES=0), then the lowest worst ratio."""
    return (len(v["loses"]) + len(v["es_worse"]), v["worst"][3][0], -len(v["wins"]), s["rules"].index(rule))


def recommend(s):
    """(rule, proven, verdict): the rule meeting the criterion (the best ranked if several), else the
    one that loses least, with proven False."""
    v = verdict(s)
    ranked = sorted(v, key=lambda r: rank_key(s, v[r], r))
    ok = [r for r in ranked if v[r]["ok"]]
    return (ok[0], True, v) if ok else (ranked[0], False, v)


def ratio_text(c):
    if not c or c[0] is None:
        return "n/a"
    if c[1] is None:
        return "%.2f×" % c[0]
    return "%.2f× (%.2f–%.2f)" % (c[0], c[0] - c[1], c[0] + c[1])


def arm(nr, es):
    return "%d router%s, ES=%d" % (nr, "" if nr == 1 else "s", es)


def verdict_text(s):
    lines = []
    for rule, v in verdict(s).items():
        lines.append("%s: %s; worse than the best peer beyond the interval in %d of %d cells, <= %.2fx in %d, "
                     "ES=1 worse than ES=0 in %d" % (rule, "MEETS the criterion" if v["ok"] else "fails",
                                                     len(v["loses"]), len(v["cells"]), s["win"], len(v["wins"]),
                                                     len(v["es_worse"])))
        for reg, nr, es, c in v["loses"]:
            lines.append("  loses: %s, %d router(s), ES=%d: %s `%s`" % (reg, nr, es, ratio_text(c), c[2]))
        for reg, nr, (m, h) in v["es_worse"]:
            lines.append("  ES=1/ES=0: %s, %d router(s): %.2f ± %.2f" % (reg, nr, m, h or 0))
    rule, proven, _ = recommend(s)
    lines.append("recommended: %s (%s)" % (rule, "meets the criterion" if proven else
                                           "no rule meets the criterion; the one that loses least, not proven"))
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# the generated text


def families(s):
    """[(family, label, [regimes])]: the summary's families in the order of their first regime."""
    labels = {f: label for f, label, _ in FAMILIES}
    out = []
    for r in s["regimes"]:
        f = next((x for x in out if x[0] == r["family"]), None)
        if f is None:
            f = (r["family"], labels.get(r["family"], r["family"]), [])
            out.append(f)
        f[2].append(r["name"])
    return out


def family_pick(s, regs, nr, es):
    """The rule of lowest worst ratio over the regimes at (nr, es), and its cells: (rule, [cells])."""
    best = None
    for rule in s["rules"]:
        cs = [cell(s, reg, rule, nr, es) for reg in regs]
        if any(c is None for c in cs):
            continue
        key = (max(c[0] for c in cs), sum(c[0] for c in cs))
        if best is None or key < best[0]:
            best = (key, rule, cs)
    return (best[1], best[2]) if best else (None, [])


def es_pick(s):
    return 1 if 1 in s["es"] else s["es"][-1]


def peers_text(s):
    return ", ".join("`%s`" % p for p in s["peers"])


def short_arm(nr, es):
    return "%dr/ES%d" % (nr, es)


def loses_text(s, v):
    """Where a rule loses: each regime with the arms it loses in, the worst cell's figure."""
    if not v["loses"]:
        return "nowhere"
    parts = []
    for reg in regime_names(s):
        arms = [short_arm(nr, es) for r, nr, es, _ in v["loses"] if r == reg]
        if arms:
            full = len(arms) == len(s["routers"]) * len(s["es"])
            parts.append("%s (%s)" % (reg, "all" if full else ", ".join(arms)))
    reg, nr, es, c = max(v["loses"], key=lambda m: m[3][0])
    return "%s; worst %s %s" % ("; ".join(parts), reg, short_arm(nr, es)) + " " + ratio_text(c)


def default_text(s, rule, proven, v):
    w = v[rule]
    if proven:
        return ("**Default `--policy %s`**: it meets the default's criterion in this sweep (never worse than the "
                "best peer rule beyond the interval in any cell, ES=1 never worse than its ES=0 beyond the "
                "interval, at or below %.2f× the best peer in %d of its %d cells)."
                % (rule, s["win"], len(w["wins"]), len(w["cells"])))
    return ("**Default `--policy %s`, not proven**: no rule meets the default's criterion in this sweep (never "
            "worse than the best peer rule beyond the interval in any cell, ES=1 never worse than its ES=0 beyond "
            "the interval, at or below %.2f× the best peer in at least half its cells). `%s` is the rule that "
            "loses least: worse than the best peer beyond the interval in %d of its %d cells, ES=1 worse than "
            "ES=0 in %d, at or below %.2f× in %d."
            % (rule, s["win"], rule, len(w["loses"]), len(w["cells"]), len(w["es_worse"]), s["win"],
               len(w["wins"])))


def sweep_line(s):
    return ("one sweep of the workload zoo in the simulated fleet: commit `%s`, %s, %d engines, %d seeds per "
            "cell, %s router%s, ES=%s" % (s["commit"], s["date"], s["engines"], s["seeds"],
                                            " and ".join(str(n) for n in s["routers"]),
                                            "" if s["routers"] == [1] else "s",
                                          " and ".join(str(e) for e in s["es"])))


def readme_text(s):
    rule, proven, v = recommend(s)
    es = es_pick(s)
    lines = ["Which rule to pick, from %s (`%s`; bench/RESULTS.md, \"The workload zoo\", has every cell and the "
             "command). A figure is a rule's TTFT p90 over the best peer rule's (%s) in the same regime, router "
             "count and ES arm, paired by seed: mean and 95%% interval; below 1 is better than every peer rule."
             % (sweep_line(s), SUMMARY, peers_text(s)), "", default_text(s, rule, proven, v), "",
             "Per workload at ES=%d, the rule whose worst figure over the workload's regimes is lowest:" % es, "",
             "| workload | " + " | ".join("%d router%s" % (nr, "" if nr == 1 else "s") for nr in s["routers"]) + " |",
             "| --- |" + " --- |" * len(s["routers"])]
    for _, label, regs in families(s):
        cols = []
        for nr in s["routers"]:
            pick, cs = family_pick(s, regs, nr, es)
            cols.append("`%s`: " % pick + ", ".join("%s %s" % (reg, ratio_text(c)) for reg, c in zip(regs, cs))
                        if pick else "n/a")
        lines.append("| %s | %s |" % (label, " | ".join(cols)))
    lines += ["", "Where each rule is worse than the best peer rule beyond the interval (cells: regime × "
                  "routers × ES; `4r/ES1` = 4 routers, ES=1):", "",
              "| rule | criterion | cells lost | at or below %.2f× | ES=1 worse than ES=0 | where it loses |" % s["win"],
              "| --- | --- | --- | --- | --- | --- |"]
    for r, w in v.items():
        lines.append("| `%s` | %s | %d of %d | %d | %d | %s |" % (
            r, "meets" if w["ok"] else "fails", len(w["loses"]), len(w["cells"]), len(w["wins"]),
            len(w["es_worse"]), loses_text(s, w)))
    return "\n".join(lines)


def results_text(s):
    rule, proven, v = recommend(s)
    regs = regime_names(s)
    lines = ["Written by `bench/fleetsim/advice.py` from `%s`, the summary of %s; %s." % (
        SUMMARY, sweep_line(s), s.get("machine") or "machine not recorded"), "", "```",
        s.get("command") or "(command not recorded)", "python3 bench/fleetsim/advice.py DIR/zoo.json --write-all",
        "```", "",
        "Each figure is a rule's TTFT p90 over the best peer rule's (%s: the peer of lowest mean p90 in that "
        "regime, router count and ES arm), taken seed by seed, mean ± 95%% interval; below 1 is better than "
        "every peer rule." % peers_text(s)]
    for nr in s["routers"]:
        for es in s["es"]:
            lines += ["", "#### TTFT p90 / best peer, %s" % arm(nr, es), "",
                      "| rule | " + " | ".join(regs) + " |", "| --- |" + " --- |" * len(regs)]
            for r in s["rules"]:
                cs = [cell(s, reg, r, nr, es) for reg in regs]
                if any(cs):
                    lines.append("| %s | %s |" % (r, " | ".join(
                        "%.2f ± %.2f" % (c[0], c[1] or 0) if c else "n/a" for c in cs)))
    if s.get("slo"):
        slo = "TTFT <= %g ms and TPOT <= %g ms" % (s["slo"]["ttft_ms"], s["slo"]["tpot_ms"])
    else:
        slo = "the sweep's SLO"
    es = es_pick(s)
    for nr in s["routers"]:
        lines += ["", "#### SLO met (%%), %s (requests with %s, every refusal a miss)" % (arm(nr, es), slo), "",
                  "| rule | " + " | ".join(regs) + " |", "| --- |" + " --- |" * len(regs)]
        for r in s["rules"]:
            cs = [cell(s, reg, r, nr, es) for reg in regs]
            if any(cs):
                lines.append("| %s | %s |" % (r, " | ".join(
                    "%.0f ± %.0f" % (c[3], c[4] or 0) if c and c[3] is not None else "n/a" for c in cs)))
    lines += ["", "Verdict (`advice.py --verdict`): " + default_text(s, rule, proven, v).replace("**", ""), ""]
    for r, w in v.items():
        lines.append("- `%s`: %s; worse than the best peer beyond the interval in %d of %d cells (%s), ES=1 worse "
                     "than ES=0 in %d%s." % (
                         r, "meets the criterion" if w["ok"] else "fails", len(w["loses"]), len(w["cells"]),
                         loses_text(s, w), len(w["es_worse"]),
                         " (%s)" % ", ".join("%s %dr %.2f ± %.2f" % (reg, nr, m, h or 0)
                                             for reg, nr, (m, h) in w["es_worse"]) if w["es_worse"] else ""))
    return "\n".join(lines)


def c_string_lines(text, width=88):
    """The text as C string literals of at most width characters each, split between words."""
    words, lines, cur = text.split(" "), [], ""
    for i, w in enumerate(words):
        piece = w + (" " if i < len(words) - 1 else "")
        if cur and len(cur) + len(piece) > width:
            lines.append(cur)
            cur = ""
        cur += piece
    lines.append(cur)
    return ['"%s"' % x.replace("\\", "\\\\").replace('"', '\\"') for x in lines]


def c_define(name, text):
    """#define name "..." in .clang-format's shape: continuation lines, backslashes in column 100."""
    first = "#define %s" % name
    lit = c_string_lines(text)
    if len(first) + 1 + len(lit[0]) <= 100 and len(lit) == 1:
        return ["%s %s" % (first, lit[0])]
    rows = [first] + ["    " + x for x in lit]
    return ["%-99s\\" % r for r in rows[:-1]] + [rows[-1]]


def help_text(s):
    """The --policy help after its first sentence: short, the rule, when to pick another, the commit."""
    rule, proven, v = recommend(s)
    es = es_pick(s)
    if proven:
        head = "Default from the workload zoo (fleetsim sweep at %s): %s meets the default's criterion." % (
            s["commit"], rule)
    else:
        head = ("Default from the workload zoo (fleetsim sweep at %s): %s, the rule that loses least; not proven, "
                "no rule meets the default's criterion." % (s["commit"], rule))
    other = {}
    for fam, _, regs in families(s):
        for nr in s["routers"]:
            pick, cs = family_pick(s, regs, nr, es)
            mine = [cell(s, reg, rule, nr, es) for reg in regs]
            if not pick or pick == rule or not all(mine):
                continue
            # Only where the pick's worst figure is below the default's beyond both intervals.
            p, d = max(cs, key=lambda c: c[0]), max(mine, key=lambda c: c[0])
            if p[0] + (p[1] or 0) < d[0] - (d[1] or 0):
                other.setdefault(pick, []).append("%s (%d router%s)" % (fam, nr, "" if nr == 1 else "s"))
    tail = ""
    if other:
        tail = " At ES=%d pick " % es + "; ".join("%s on %s" % (p, ", ".join(w)) for p, w in other.items()) + "."
    return head + tail + " README.md, \"Policies\", has the figures."


def header_text(s):
    rule, proven, _ = recommend(s)
    return "\n".join([
        "/* SPDX-License-Identifier: Apache-2.0 */",
        "/*",
        " * Generated by bench/fleetsim/advice.py from %s (workload zoo sweep" % SUMMARY,
        " * at commit %s): do not edit; after a new sweep run" % s["commit"],
        " *   python3 bench/fleetsim/advice.py DIR/zoo.json --write-all",
        " * tests/bench/test_zoo_advice.py fails when this file, README.md's or bench/RESULTS.md's",
        " * generated blocks differ from what the summary gives.",
        " */",
        "#ifndef KVR_ROUTER_POLICY_ADVICE_H",
        "#define KVR_ROUTER_POLICY_ADVICE_H",
        "",
        "/* The --policy default: the rule meeting the default's criterion, else the one that loses",
        " * least. */",
        '#define KVR_POLICY_ADVICE_DEFAULT "%s"' % rule,
        "/* 1: it meets the criterion; 0: no rule does. */",
        "#define KVR_POLICY_ADVICE_PROVEN %d" % (1 if proven else 0),
        "/* The --policy help after its first sentence. */"] + c_define("KVR_POLICY_ADVICE_HELP", help_text(s)) + [
        "",
        "#endif",
        ""])


# ---------------------------------------------------------------------------------------------
# files


def with_block(text, begin, end, body, path):
    a, b = text.find(begin), text.find(end)
    if a < 0 or b < a:
        raise SystemExit("advice: %s has no %s ... %s block" % (path, begin, end))
    return text[:a + len(begin)] + "\n" + body + "\n" + text[b:]


def generated(s, root):
    """{relative path: the content the summary gives it}."""
    out = {}
    for rel, begin, end, body in ((README, BEGIN, END, readme_text(s)), (RESULTS, RBEGIN, REND, results_text(s))):
        with open(os.path.join(root, rel)) as f:
            out[rel] = with_block(f.read(), begin, end, body, rel)
    out[HEADER] = header_text(s)
    return out


def check(s, root):
    """The files that differ from what the summary generates, each with a unified diff."""
    bad = []
    for rel, want in generated(s, root).items():
        try:
            with open(os.path.join(root, rel)) as f:
                have = f.read()
        except OSError:
            have = ""
        if have != want:
            bad.append((rel, "".join(difflib.unified_diff(have.splitlines(True), want.splitlines(True),
                                                          "%s (in the tree)" % rel, "%s (generated)" % rel))))
    return bad


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input", help="zoo.json written by sweep.py --zoo, or a summary (bench/fleetsim/zoo-summary.json)")
    ap.add_argument("--root", default=ROOT, help="source tree the files are in (default: this script's)")
    ap.add_argument("--verdict", action="store_true",
                    help="print, per rule, where it is worse than the best peer or than its own ES=0 beyond the "
                         "interval, whether it meets the default's criterion, and the recommended rule")
    ap.add_argument("--summary", metavar="FILE", help="write the summary of the input to FILE")
    ap.add_argument("--write-all", action="store_true",
                    help="write %s (from a zoo.json), then README.md's and bench/RESULTS.md's blocks and %s from it"
                         % (SUMMARY, HEADER))
    ap.add_argument("--check", action="store_true",
                    help="exit 1, printing the differences, when README.md, bench/RESULTS.md or %s differ from what "
                         "the summary generates" % HEADER)
    ap.add_argument("--readme", metavar="FILE", help="rewrite the zoo-advice block of FILE only")
    a = ap.parse_args(argv)
    s = load(a.input)
    if a.summary:
        with open(a.summary, "w") as f:
            f.write(dump_summary(s))
    if a.write_all:
        path = os.path.join(a.root, SUMMARY)
        if os.path.abspath(a.input) != os.path.abspath(path):
            with open(path, "w") as f:
                f.write(dump_summary(s))
        s = load(path)  # what is generated comes from the committed file, rounding included
        for rel, text in generated(s, a.root).items():
            with open(os.path.join(a.root, rel), "w") as f:
                f.write(text)
        print(verdict_text(s).splitlines()[-1])
        return 0
    if a.check:
        bad = check(s, a.root)
        for rel, diff in bad:
            sys.stdout.write("advice: %s differs from what %s generates; run advice.py --write-all\n%s"
                             % (rel, os.path.basename(a.input), diff))
        return 1 if bad else 0
    if a.verdict:
        print(verdict_text(s))
        return 0
    body = readme_text(s)
    if a.readme:
        with open(a.readme) as f:
            text = f.read()
        with open(a.readme, "w") as f:
            f.write(with_block(text, BEGIN, END, body, a.readme))
    print(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
