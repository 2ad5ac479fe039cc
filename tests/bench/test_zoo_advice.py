#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The routing advice is what the committed sweep summary gives, and nothing more.

README.md's zoo-advice block, bench/RESULTS.md's zoo-results block and
router/policy_advice.h must equal what bench/fleetsim/advice.py writes from
bench/fleetsim/zoo-summary.json; kvroute's compiled default --policy must be
the rule the summary recommends (KVR_BIN_KVROUTE, set by ctest); and the
verdict on a small synthetic sweep is checked line for line."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
ADVICE = os.path.join(ROOT, "bench", "fleetsim", "advice.py")
SUMMARY = os.path.join(ROOT, "bench", "fleetsim", "zoo-summary.json")
sys.path.insert(0, os.path.join(ROOT, "bench", "fleetsim"))
import advice  # noqa: E402


def run(*args):
    return subprocess.run([sys.executable, ADVICE] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)


class Committed(unittest.TestCase):
    def test_readme_results_and_the_header_are_what_the_summary_generates(self):
        p = run(SUMMARY, "--check")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)

    def test_the_summary_is_small_and_names_its_sweep(self):
        self.assertLess(os.path.getsize(SUMMARY), 64 * 1024)
        with open(SUMMARY) as f:
            s = json.load(f)
        self.assertEqual(s["kind"], advice.KIND)
        for key in ("commit", "date", "command"):
            self.assertTrue(s[key], key)

    def test_a_hand_edit_of_any_generated_text_fails_the_check(self):
        edits = {advice.README: ("| workload |", "| work load |"),
                 advice.RESULTS: ("#### TTFT p90 / best peer", "#### TTFT p90 over the best peer"),
                 advice.HEADER: ("#define KVR_POLICY_ADVICE_PROVEN", "#define KVR_POLICY_ADVICE_PROVEN 1 //")}
        for rel, (old, new) in edits.items():
            with self.subTest(rel), tempfile.TemporaryDirectory() as d:
                for other in edits:
                    os.makedirs(os.path.dirname(os.path.join(d, other)), exist_ok=True)
                    shutil.copy(os.path.join(ROOT, other), os.path.join(d, other))
                with open(os.path.join(d, rel)) as f:
                    text = f.read()
                self.assertIn(old, text)
                with open(os.path.join(d, rel), "w") as f:
                    f.write(text.replace(old, new, 1))
                p = run(SUMMARY, "--check", "--root", d)
                self.assertEqual(p.returncode, 1, p.stdout)
                self.assertIn("advice: %s differs" % rel, p.stdout)
                for other in edits:
                    if other != rel:
                        self.assertNotIn("advice: %s differs" % other, p.stdout)

    def test_the_text_says_not_proven_exactly_when_no_rule_meets_the_criterion(self):
        s = advice.load(SUMMARY)
        rule, proven, v = advice.recommend(s)
        self.assertEqual(proven, any(w["ok"] for w in v.values()))
        with open(os.path.join(ROOT, advice.HEADER)) as f:
            header = f.read()
        self.assertIn('#define KVR_POLICY_ADVICE_DEFAULT "%s"' % rule, header)
        self.assertIn("#define KVR_POLICY_ADVICE_PROVEN %d" % proven, header)
        readme = advice.readme_text(s)
        self.assertEqual("not proven" in readme, not proven)
        self.assertEqual("not proven" in advice.help_text(s), not proven)

    @unittest.skipUnless(os.environ.get("KVR_BIN_KVROUTE"), "kvroute not built")
    def test_the_compiled_default_policy_is_the_recommended_rule(self):
        rule, proven, _ = advice.recommend(advice.load(SUMMARY))
        p = subprocess.run([os.environ["KVR_BIN_KVROUTE"], "--help"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=20)
        self.assertEqual(p.returncode, 0, p.stdout)
        m = re.search(r"^  --policy NAME (.*?)\(default ([a-z_0-9]+)\)", p.stdout, re.S | re.M)
        self.assertIsNotNone(m, p.stdout)
        self.assertEqual(m.group(2), rule)
        words = " ".join(m.group(1).split())
        self.assertIn(advice.load(SUMMARY)["commit"], words)
        self.assertEqual("not proven" in words, not proven)


def synthetic_zoo(y_loses=False):
    """Rules x, y and the peer cost on two regimes, 1 router, ES 0 and 1, 3 seeds. x loses to the best
    peer in (b, ES=0) and its ES=1 is worse than its ES=0 in a; y is at 0.85x everywhere (or loses in
    (b, ES=1) with y_loses); cost is the peer itself."""
    ratios = {("x", "a", 0): (0.80, 0.05), ("x", "a", 1): (0.85, 0.05), ("x", "b", 0): (1.30, 0.10),
              ("x", "b", 1): (0.95, 0.10)}
    for reg in "ab":
        for es in (0, 1):
            ratios[("y", reg, es)] = (0.85, 0.02)
            ratios[("cost", reg, es)] = (1.00, 0.00)
    if y_loses:
        ratios[("y", "b", 1)] = (1.20, 0.05)
    cells = [{"regime": reg, "policy": rule, "routers": 1, "es": es, "goodput": {"mean": 90.0, "ci95": 2.0},
              "peer_ratio": {"peer": "cost", "mean": m, "ci95": h, "n": 3}}
             for (rule, reg, es), (m, h) in sorted(ratios.items())]
    p90 = {("x", "a", 0): [100, 100, 100], ("x", "a", 1): [120, 125, 130],
           ("x", "b", 0): [200, 210, 190], ("x", "b", 1): [200, 200, 200]}
    for rule in ("y", "cost"):
        for reg in "ab":
            p90[(rule, reg, 0)] = p90[(rule, reg, 1)] = [300, 310, 320]
    runs = [{"regime": reg, "policy": rule, "routers": 1, "es": es, "seed": seed + 1, "ttft_p90": v}
            for (rule, reg, es), vals in sorted(p90.items()) for seed, v in enumerate(vals)]
    return {"header": {"commit": "abc1234", "date": "2026-12-02 00:00 UTC", "command": "sweep.py --zoo"},
            "engines": 8, "seeds": [1, 2, 3], "peers": ["cost"], "rules": ["x", "y", "cost"],
            "slo": {"ttft_ms": 2000.0, "tpot_ms": 100.0}, "regimes": [{"name": "a"}, {"name": "b"}],
            "cells": cells, "runs": runs}


class Verdict(unittest.TestCase):
    def verdict(self, doc):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "zoo.json")
            with open(path, "w") as f:
                json.dump(doc, f)
            p = run(path, "--verdict")
            self.assertEqual(p.returncode, 0, p.stderr)
            return p.stdout

    def test_a_rule_losing_one_cell_and_worse_at_es1_in_one_fails_and_the_clean_one_meets(self):
        self.assertEqual(self.verdict(synthetic_zoo()), "\n".join([
            "x: fails; worse than the best peer beyond the interval in 1 of 4 cells, <= 0.90x in 2, "
            "ES=1 worse than ES=0 in 1",
            "  loses: b, 1 router(s), ES=0: 1.30× (1.20–1.40) `cost`",
            "  ES=1/ES=0: a, 1 router(s): 1.25 ± 0.12",
            "y: MEETS the criterion; worse than the best peer beyond the interval in 0 of 4 cells, <= 0.90x in 4, "
            "ES=1 worse than ES=0 in 0",
            "cost: fails; worse than the best peer beyond the interval in 0 of 4 cells, <= 0.90x in 0, "
            "ES=1 worse than ES=0 in 0",
            "recommended: y (meets the criterion)", ""]))

    def test_when_no_rule_meets_it_the_least_losing_is_named_not_proven(self):
        # cost, the peer, is never worse than the best peer: it loses least, with no cell won.
        out = self.verdict(synthetic_zoo(y_loses=True))
        self.assertIn("y: fails; worse than the best peer beyond the interval in 1 of 4 cells, <= 0.90x in 3", out)
        self.assertIn("  loses: b, 1 router(s), ES=1: 1.20× (1.15–1.25) `cost`", out)
        self.assertTrue(out.endswith(
            "recommended: cost (no rule meets the criterion; the one that loses least, not proven)\n"), out)

    def test_the_generated_text_claims_the_criterion_only_when_the_summary_shows_it(self):
        for y_loses, rule, proven in ((False, "y", True), (True, "cost", False)):
            with self.subTest(y_loses=y_loses):
                s = advice.summarize(synthetic_zoo(y_loses))
                readme, header = advice.readme_text(s), advice.header_text(s)
                self.assertIn("#define KVR_POLICY_ADVICE_DEFAULT \"%s\"" % rule, header)
                self.assertIn("#define KVR_POLICY_ADVICE_PROVEN %d" % proven, header)
                self.assertEqual("not proven" in readme, not proven)
                self.assertEqual("it meets the default's criterion" in readme, proven)
                self.assertIn("commit `abc1234`", readme)
                self.assertIn("abc1234", header)

    def test_the_summary_round_trips_and_gives_the_same_verdict(self):
        s = advice.summarize(synthetic_zoo())
        again = json.loads(advice.dump_summary(s))
        self.assertEqual(again, json.loads(json.dumps(s)))
        self.assertEqual(advice.verdict_text(again), advice.verdict_text(s))


if __name__ == "__main__":
    unittest.main()
