#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""kvroute-fleetsim against the stored real runs (bench/fleetsim/fidelity.json).

The simulator of this tree, run again on the ES=0 cells of the three stored
regimes (grouped arrivals at 1 and 4 routers, sessionless-shared, agentic:
five seeds each, a few hundred requests, a few seconds), must stay within the
A/A spread of the real processes' runs; a change to the engine model, the
replay or these rules that moves it off fails here, and the check itself is
shown to fail on the read order the simulator had before it was fixed and on
a trace that is not the one measured. bench/RESULTS.md's fidelity block must be what fidelity.py
writes from the stored figures. ctest sets KVR_BIN_KVROUTE_FLEETSIM and
KVR_BIN_KVROUTE_TRACEGEN; the file checks need neither."""
import copy
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "fleetsim"))
import fidelity  # noqa: E402

FLEETSIM = os.environ.get("KVR_BIN_KVROUTE_FLEETSIM")
TRACEGEN = os.environ.get("KVR_BIN_KVROUTE_TRACEGEN")


class Stored(unittest.TestCase):
    def test_results_block_is_what_the_stored_figures_give(self):
        p = subprocess.run([sys.executable, os.path.join(ROOT, "bench/fleetsim/fidelity.py"), "--results-check"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.assertEqual(p.returncode, 0, p.stdout)

    def test_a_hand_edit_of_the_block_fails_the_check(self):
        with open(fidelity.RESULTS) as f:
            text = f.read()
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "RESULTS.md")
            with open(path, "w") as f:
                f.write(text.replace("| grouped | 4 | load_only | 0 |", "| grouped | 4 | load_only | 1 |", 1))
            self.assertEqual(fidelity.main(["--results-check", path]), 1)
            self.assertEqual(fidelity.main(["--write-results", path]), 0)
            self.assertEqual(fidelity.main(["--results-check", path]), 0)

    def test_three_regimes_grouped_at_four_routers_two_real_runs_each(self):
        doc = fidelity.load()
        cells = {(r["regime"], r["routers"], r["es"]) for r in doc["rows"]}
        self.assertLessEqual({("grouped", 1, 0), ("grouped", 4, 0), ("sessionless-shared", 1, 0), ("agentic", 1, 0)},
                             cells)
        for r in doc["rows"]:
            self.assertGreaterEqual(r["real_runs"], 2, r)
            self.assertIn(r["regime"], doc["traces"])
            self.assertTrue(r["sweep"], r)

    def test_a_row_keeps_how_its_simulator_runs_were_made_not_which_cells(self):
        argv = ["--out", "x", "--trace", "t.jsonl", "--engines", "4", "--policies", "a,b", "--es", "0,1", "--seeds",
                "5", "--routers=4", "--arrival-jitter-ms", "0", "--reuse", "--jobs", "2",
                "--fleetsim-args", "--engine-params all:source=scrape"]
        self.assertEqual(fidelity.sweep_flags(argv), ["--engines", "4", "--seeds", "5", "--arrival-jitter-ms", "0",
                                                      "--fleetsim-args", "--engine-params all:source=scrape"])

    def test_storing_a_regime_keeps_its_trace_by_digest(self):
        with tempfile.TemporaryDirectory() as d:
            trace, path = os.path.join(d, "t.jsonl"), os.path.join(d, "fidelity.json")
            with open(trace, "w") as f:
                f.write('{"timestamp": 0}\n{"timestamp": 1}\n')
            row = {"policy": "load_only", "es": 0, "routers": 1, "real_runs": 2,
                   "ttft_p50": {"sim": 1.0, "sim_ci95": 0.0, "real": [1.0, 1.0], "gap_pct": 0.0, "beyond": False}}
            fidelity.store(path, "grouped", 1, [row], ["--regime", "grouped"], (0,),
                           fidelity.trace_entry(trace, "--preset grouped"))
            tr = fidelity.load(path)["traces"]["grouped"]
            self.assertEqual((tr["tracegen"], tr["requests"]), ("--preset grouped", 2))
            self.assertEqual(tr["sha256"], fidelity.digest(trace))


@unittest.skipUnless(FLEETSIM and TRACEGEN, "kvroute-fleetsim and kvroute-tracegen not built")
class Simulator(unittest.TestCase):
    def test_the_simulator_stays_within_the_real_spread_on_the_stored_regimes(self):
        lines, problems = fidelity.check(fidelity.load(), FLEETSIM, TRACEGEN, arms=[0], jobs=2)
        self.assertEqual(problems, [], "\n".join(lines))
        regimes = {tuple(l.split(" | ")[0:2]) for l in lines[2:]}
        self.assertEqual(regimes, {("| grouped", "1"), ("| grouped", "4"), ("| sessionless-shared", "1"),
                                   ("| agentic", "1")})

    def test_the_check_fails_on_the_old_read_order_and_on_another_trace(self):
        # --read-round-ms 0 routes a group's bodies in trace order, as the simulator did before it modelled the
        # router's 64 KiB reads: at 4 routers on grouped arrivals it was 9-15% above the real runs
        doc = copy.deepcopy(fidelity.load())
        doc["rows"] = [r for r in doc["rows"] if (r["regime"], r["routers"], r["es"]) == ("grouped", 4, 0)]
        for r in doc["rows"]:
            r["sweep"] += " --fleetsim-args '--read-round-ms 0'"
        _, problems = fidelity.check(doc, FLEETSIM, TRACEGEN, jobs=2)
        self.assertTrue(problems, "the old read order passed")
        self.assertTrue(all(p.startswith("grouped 4 routers ") for p in problems), problems)
        self.assertTrue(any(" p90: " in p for p in problems), problems)
        doc["traces"]["grouped"] = dict(doc["traces"]["grouped"], sha256="0" * 64)
        _, problems = fidelity.check(doc, FLEETSIM, TRACEGEN, jobs=2)
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("no longer writes the trace", problems[0])

if __name__ == "__main__":
    unittest.main()
