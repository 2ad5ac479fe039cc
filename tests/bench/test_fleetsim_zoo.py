#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The workload-zoo sweep end to end on two small regimes, its goodput, the
cells it skips, the advice written from it, and how the script finds its
package and programs. ctest runs it with KVR_BIN_KVROUTE_FLEETSIM and
KVR_BIN_KVROUTE_TRACEGEN set; the statistics and advice tests need neither."""
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "fleetsim"))
import advice  # noqa: E402
import sweep  # noqa: E402
from kvrbench import paths  # noqa: E402

# Two regimes in miniature (a few hundred requests, prompts a tenth of the presets'), so that the
# whole grid runs in seconds: what is checked is the sweep's report, not the regimes' figures.
RULES = ["load_only", "sticky", "cache_aware", "cache_aware_op", "cost"]
REGIMES = [
    {"name": "sessionless-shared", "rate": 1,
     "tracegen": "--preset sessionless-shared --window 50 --session-rate 4 --first-user-tokens 900"},
    {"name": "tenants", "rate": 1, "fleetsim": "--engine-params all:kv_tokens=8000",
     "tracegen": "--preset tenants --window 50 --session-rate 1 --tenants 30 --system-tokens 1024 "
                 "--first-user-tokens 200 --output-tokens 60"},
]


def finite(x):
    return x is not None and math.isfinite(x)


class Goodput(unittest.TestCase):
    def test_a_refused_or_slow_request_is_a_miss(self):
        ok = {"ok": True, "ttft_ms": 500.0, "e2e_ms": 500.0 + 99 * 50.0, "output_tokens": 100}
        self.assertTrue(sweep.slo_met(ok, 2000, 100))
        self.assertFalse(sweep.slo_met(dict(ok, ttft_ms=2500.0, e2e_ms=2500.0 + 99 * 50), 2000, 100), "late first token")
        self.assertFalse(sweep.slo_met(dict(ok, e2e_ms=500.0 + 99 * 150.0), 2000, 100), "slow tokens")
        self.assertFalse(sweep.slo_met({"ok": False, "status": 429, "ttft_ms": 1.0}, 2000, 100), "429")
        self.assertFalse(sweep.slo_met({"ok": False, "status": 0, "error": "timeout"}, 2000, 100), "timeout")
        self.assertTrue(sweep.slo_met(dict(ok, output_tokens=1, e2e_ms=500.0), 2000, 100), "one token: no TPOT")

    def test_the_share_counts_every_record(self):
        recs = [{"ok": True, "ttft_ms": 100.0, "e2e_ms": 100.0, "output_tokens": 1, "send_mono_ns": 0,
                 "end_mono_ns": 10 ** 9}, {"ok": False, "status": 503}]
        self.assertEqual(sweep.figures(recs, 2000, 100)["goodput"], 50.0)


class Duplicates(unittest.TestCase):
    def test_only_cells_whose_twin_runs_are_skipped(self):
        pols, arms = RULES, [0, 1]
        self.assertEqual(sweep.duplicate_of("sticky", 1, False, pols, arms)[:2], ("load_only", 1))
        self.assertIsNone(sweep.duplicate_of("sticky", 1, True, pols, arms), "sessions: sticky pins them")
        self.assertEqual(sweep.duplicate_of("cache_aware_op", 0, True, pols, arms)[:2], ("cache_aware", 0))
        self.assertIsNone(sweep.duplicate_of("cache_aware_op", 1, True, pols, arms))
        self.assertIsNone(sweep.duplicate_of("sticky", 0, False, ["sticky"], arms), "no load_only in the grid")
        self.assertIsNone(sweep.duplicate_of("round_robin", 1, False, pols, [1]), "no ES=0 arm in the grid")


class Finding(unittest.TestCase):
    def test_the_script_runs_without_pythonpath(self):
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        p = subprocess.run([sys.executable, os.path.join(ROOT, "bench/fleetsim/sweep.py"), "--help"], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd="/")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("--zoo", p.stdout)

    def test_programs_come_from_build_plain_before_build_dev(self):
        old_root, old_env = paths.ROOT, os.environ.pop("KVR_BUILD_DIR", None)
        try:
            with tempfile.TemporaryDirectory() as d:
                paths.ROOT = d
                rel = "bench/fleetsim/kvroute-fleetsim"
                self.assertEqual(paths.program(rel), os.path.join(d, "build/plain", rel), "neither built")
                os.makedirs(os.path.join(d, "build/dev/bench/fleetsim"))
                open(os.path.join(d, "build/dev", rel), "w").close()
                self.assertEqual(paths.program(rel), os.path.join(d, "build/dev", rel), "only build/dev")
                os.makedirs(os.path.join(d, "build/plain/bench/fleetsim"))
                open(os.path.join(d, "build/plain", rel), "w").close()
                self.assertEqual(paths.program(rel), os.path.join(d, "build/plain", rel))
                os.environ["KVR_BUILD_DIR"] = os.path.join(d, "elsewhere")
                self.assertEqual(paths.program(rel), os.path.join(d, "elsewhere", rel))
        finally:
            paths.ROOT = old_root
            os.environ.pop("KVR_BUILD_DIR", None)
            if old_env is not None:
                os.environ["KVR_BUILD_DIR"] = old_env


class Advice(unittest.TestCase):
    def doc(self):
        cells = []
        for reg, rule, p90, ratio in (("a", "x", 100.0, 0.8), ("a", "cost", 125.0, 1.0), ("b", "x", 300.0, 1.5),
                                      ("b", "cost", 200.0, 1.0)):
            cells.append({"regime": reg, "policy": rule, "routers": 1, "es": 1,
                          "ttft_p90": {"mean": p90, "ci95": 5.0, "n": 3},
                          "peer_ratio": {"peer": "cost", "mean": ratio, "ci95": 0.1, "n": 3}})
        return {"header": {"commit": "abc", "date": "d"}, "engines": 8, "seeds": [1, 2, 3], "peers": ["cost"],
                "rules": ["x", "cost"], "regimes": [{"name": "a"}, {"name": "b"}], "cells": cells}

    def test_the_best_rule_per_regime_and_where_each_loses(self):
        body = advice.readme_text(advice.summarize(self.doc()))
        self.assertIn("| a | `x`: a 0.80× (0.70–0.90) |", body)
        self.assertIn("| b | `cost`: b 1.00× (0.90–1.10) |", body)
        self.assertIn("| `x` | fails | 1 of 2 | 1 | 0 | b (all); worst b 1r/ES1 1.50× (1.40–1.60) |", body)
        self.assertIn("**Default `--policy cost`, not proven**", body)

    def test_the_readme_block_between_the_markers_is_replaced_and_nothing_else(self):
        with tempfile.TemporaryDirectory() as d:
            zj, md = os.path.join(d, "zoo.json"), os.path.join(d, "README.md")
            with open(zj, "w") as f:
                json.dump(self.doc(), f)
            with open(md, "w") as f:
                f.write("before\n%s\nold text\n%s\nafter\n" % (advice.BEGIN, advice.END))
            self.assertEqual(advice.main([zj, "--readme", md]), 0)
            with open(md) as f:
                text = f.read()
            self.assertTrue(text.startswith("before\n%s\n" % advice.BEGIN))
            self.assertTrue(text.endswith("%s\nafter\n" % advice.END))
            self.assertNotIn("old text", text)
            self.assertIn("| a | `x`", text)


@unittest.skipUnless(os.environ.get("KVR_BIN_KVROUTE_FLEETSIM") and os.environ.get("KVR_BIN_KVROUTE_TRACEGEN"),
                     "kvroute-fleetsim and kvroute-tracegen not built")
class Zoo(unittest.TestCase):
    def test_two_regimes_report_every_cell_with_goodput_and_the_peer_ratio(self):
        with tempfile.TemporaryDirectory() as d:
            table = os.path.join(d, "zoo.json")
            with open(table, "w") as f:
                json.dump({"rules": RULES + ["no_such_rule"], "regimes": REGIMES}, f)
            out = os.path.join(d, "out")
            rc = sweep.main(["--out", out, "--zoo", table, "--fleetsim", os.environ["KVR_BIN_KVROUTE_FLEETSIM"],
                             "--tracegen", os.environ["KVR_BIN_KVROUTE_TRACEGEN"], "--routers", "1,4",
                             "--seeds", "2", "--engines", "4", "--jobs", "2"])
            self.assertEqual(rc, 0)
            with open(os.path.join(out, "zoo.json")) as f:
                res = json.load(f)
            self.assertEqual(res["rules"], RULES, "a rule the simulator does not know is left out")
            self.assertEqual(res["peers"], ["cost", "cache_aware"])
            for key in ("commit", "date", "machine", "command"):
                self.assertTrue(res["header"][key], key)
            cells = {(c["regime"], c["policy"], c["routers"], c["es"]): c for c in res["cells"]}
            self.assertEqual(len(res["cells"]), len(cells))
            for reg in REGIMES:
                for rule in RULES:
                    for nr in (1, 4):
                        for es in (0, 1):
                            c = cells[(reg["name"], rule, nr, es)]
                            for name in ("ttft_p50", "ttft_p90"):
                                self.assertTrue(finite(c[name]["mean"]) and finite(c[name]["ci95"]), (c, name))
                                self.assertEqual(c[name]["n"], 2)
                            self.assertTrue(0 <= c["goodput"]["mean"] <= 100, c)
                            self.assertTrue(finite(c["goodput"]["ci95"]), c)
                            pr = c["peer_ratio"]
                            self.assertIn(pr["peer"], ("cost", "cache_aware"))
                            self.assertTrue(finite(pr["mean"]) and finite(pr["ci95"]), c)
                            self.assertEqual(c["ok"] + 0, c["requests"], "every request served")
            # a skipped cell repeats its twin, which did run
            op0 = cells[("tenants", "cache_aware_op", 1, 0)]
            self.assertEqual(op0["same_as"]["policy"], "cache_aware")
            self.assertEqual(op0["ttft_p90"], cells[("tenants", "cache_aware", 1, 0)]["ttft_p90"])
            self.assertEqual(cells[("tenants", "sticky", 4, 1)]["same_as"]["policy"], "load_only")
            self.assertFalse(os.path.exists(os.path.join(out, "tenants", "runs", "sticky")))
            # the best peer's ratio to itself is 1 in every seed
            for c in res["cells"]:
                if c["policy"] == c["peer_ratio"]["peer"]:
                    self.assertAlmostEqual(c["peer_ratio"]["mean"], 1.0)
            with open(os.path.join(out, "zoo.md")) as f:
                md = f.read()
            self.assertIn("SLO met %", md)
            rows = [l for l in md.splitlines() if l.startswith("| sessionless-shared |") or l.startswith("| tenants |")]
            self.assertEqual(len(rows), len(REGIMES) * len(RULES) * 4)


if __name__ == "__main__":
    unittest.main()
