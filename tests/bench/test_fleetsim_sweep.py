#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The sweep's statistics: intervals over seeds and the paired ES verdict."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench", "fleetsim"))
import sweep  # noqa: E402


class Interval(unittest.TestCase):
    def test_student_t_interval_of_known_values(self):
        m, h, n = sweep.interval([1.0, 2.0, 3.0, 4.0])
        self.assertEqual(n, 4)
        self.assertAlmostEqual(m, 2.5)
        # sd = 1.2910, t(3) = 3.182, half width = 3.182 * 1.2910 / 2
        self.assertAlmostEqual(h, 3.182 * 1.2909944 / 2, places=4)

    def test_missing_values_are_left_out_and_one_value_has_no_interval(self):
        self.assertEqual(sweep.interval([None, 5.0]), (5.0, None, 1))
        self.assertEqual(sweep.interval([]), (None, None, 0))

    def test_t_quantile_falls_back_to_the_next_tabulated_df(self):
        self.assertEqual(sweep.t95(9), 2.262)
        self.assertEqual(sweep.t95(22), 2.060)
        self.assertEqual(sweep.t95(1000), 1.96)


class Verdict(unittest.TestCase):
    def test_a_verdict_only_where_the_interval_excludes_zero(self):
        self.assertEqual(sweep.paired_verdict(-10.0, 4.0, True), "ES=1 better")
        self.assertEqual(sweep.paired_verdict(10.0, 4.0, True), "ES=1 worse")
        self.assertEqual(sweep.paired_verdict(10.0, 4.0, False), "ES=1 better")
        self.assertTrue(sweep.paired_verdict(3.0, 4.0, True).startswith("no verdict"))
        self.assertTrue(sweep.paired_verdict(3.0, None, True).startswith("no verdict"))

    def test_reroute_counts_requests_whose_engine_changed(self):
        a = [{"index": 0, "engine": "e0"}, {"index": 1, "engine": "e1"}]
        b = [{"index": 0, "engine": "e0"}, {"index": 1, "engine": "e0"}]
        self.assertEqual(sweep.reroute(a, b), 50.0)


class Pairs(unittest.TestCase):
    def test_paired_difference_and_ratio_are_per_seed(self):
        fig = {("a", 1, 1, "1", 1): {"tok_s": 100.0}, ("b", 1, 1, "1", 1): {"tok_s": 150.0},
               ("a", 1, 1, "1", 2): {"tok_s": 200.0}, ("b", 1, 1, "1", 2): {"tok_s": 300.0}}
        (dm, dh, dn), (rm, rh, rn) = sweep.paired(fig, [1, 2], ("a", 1, 1, "1"), ("b", 1, 1, "1"), "tok_s")
        self.assertEqual((dm, dn), (75.0, 2))
        self.assertAlmostEqual(rm, 1.5)
        self.assertAlmostEqual(rh, 0.0)

    def test_the_hot_owner_trace_is_the_scenarios(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "hot.jsonl")
            sweep.write_hot_owner(path)
            lines = [json.loads(l) for l in open(path)]
        self.assertEqual(len(lines), 1 + 76 * 3)
        self.assertEqual([l["timestamp"] for l in lines], sorted(l["timestamp"] for l in lines))
        self.assertEqual(sum(1 for l in lines if l.get("turn") == 0 and l["timestamp"] < 5000), 35)
        self.assertTrue(all(l["hash_ids"][:24] == list(range(24)) for l in lines))
        self.assertTrue(all(l["output_length"] == 1000 for l in lines[1:]))


class Fidelity(unittest.TestCase):
    def test_beyond_means_further_outside_the_real_range_than_it_is_wide(self):
        import fidelity
        self.assertFalse(fidelity.beyond(105.0, [100.0, 110.0]), "inside the range")
        self.assertFalse(fidelity.beyond(95.0, [100.0, 110.0]), "outside by less than the range's width")
        self.assertTrue(fidelity.beyond(85.0, [100.0, 110.0]))
        self.assertTrue(fidelity.beyond(120.1, [100.0, 110.0]))
        # a single real run: 5% of its value stands for the range's width
        self.assertFalse(fidelity.beyond(96.0, [100.0]))
        self.assertTrue(fidelity.beyond(94.0, [100.0]))

    def test_two_real_runs_that_agree_closely_are_no_tolerance_of_a_hundredth(self):
        import fidelity
        # cache hit 50.00 and 50.01 in two real runs: a 0.1-point gap is far inside what a third run could show
        self.assertFalse(fidelity.beyond(50.11, [50.0, 50.01]))
        self.assertFalse(fidelity.beyond(47.6, [50.0, 50.01]))
        self.assertTrue(fidelity.beyond(47.4, [50.0, 50.01]))

    def test_the_simulators_own_interval_narrows_the_gap(self):
        import fidelity
        self.assertTrue(fidelity.beyond(125.0, [100.0, 110.0]))
        self.assertFalse(fidelity.beyond(125.0, [100.0, 110.0], sim_ci95=6.0))

    def test_the_gap_is_measured_from_the_nearer_end_of_the_real_range(self):
        import fidelity
        self.assertEqual(fidelity.gap_pct(105.0, [100.0, 110.0]), 0.0)
        self.assertAlmostEqual(fidelity.gap_pct(121.0, [100.0, 110.0]), 10.0)
        self.assertAlmostEqual(fidelity.gap_pct(90.0, [100.0, 110.0]), -10.0)

    def test_a_sweep_report_prints_the_stored_gap_of_each_regime(self):
        import fidelity
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "fidelity.json")
            row = {"policy": "load_only", "es": 0, "routers": 1, "real_runs": 2,
                   "ttft_p50": {"sim": 121.0, "sim_ci95": 1.0, "real": [100.0, 110.0], "gap_pct": 10.0,
                                "beyond": False},
                   "ttft_p90": {"sim": 300.0, "sim_ci95": 1.0, "real": [100.0, 110.0], "gap_pct": 172.7,
                                "beyond": True}}
            fidelity.store(path, "grouped", 1, [row], ["--regime", "grouped"])
            fidelity.store(path, "agentic", 1, [dict(row, ttft_p90=row["ttft_p50"], note="feed as scraped")],
                           ["--regime", "agentic"])
            # a regime measured again replaces its rows, the others stay
            trace = os.path.join(d, "t.jsonl")
            with open(trace, "w") as f:
                f.write("{}\n" * 3)
            fidelity.store(path, "grouped", 1, [row], ["--regime", "grouped"], trace=fidelity.trace_entry(trace, "-x 1"))
            self.assertEqual(len(json.load(open(path))["rows"]), 2)
            lines = sweep.fidelity_lines(path=path)
            grouped = [l for l in lines if l.startswith("- grouped, 1 router")]
            self.assertEqual(len(grouped), 1, lines)
            self.assertIn("load_only ES=0 p50 +10%, p90 +173%", grouped[0])
            self.assertIn("beyond A/A: load_only ES=0 ttft_p90", grouped[0])
            self.assertIn("; 3 requests: kvroute-tracegen -x 1)", grouped[0])
            agentic = [l for l in lines if l.startswith("- agentic")][0]
            self.assertIn("beyond A/A: none", agentic)
            self.assertIn("p90 +10% (feed as scraped)", agentic)
            self.assertEqual([l for l in sweep.fidelity_lines(["agentic"], path=path) if l.startswith("- ")],
                             [l for l in lines if l.startswith("- agentic")])
            self.assertEqual(sweep.fidelity_lines(path=os.path.join(d, "none.json")), [])


@unittest.skipUnless(os.environ.get("KVR_BIN_KVROUTE_FLEETSIM"), "kvroute-fleetsim not built")
class Grid(unittest.TestCase):
    def test_a_small_grid_reports_every_cell_and_the_paired_effect(self):
        with tempfile.TemporaryDirectory() as d:
            trace = os.path.join(d, "trace.jsonl")
            with open(trace, "w") as f:
                for s in range(12):
                    for t in range(3):
                        ids = [s % 3 * 100 + b for b in range(4)] + [1000 + s * 10 + k for k in range(t + 1)]
                        f.write(json.dumps({"timestamp": s * 300 + t * 2000, "input_length": len(ids) * 512,
                                            "output_length": 16, "hash_ids": ids, "session_id": "s%d" % s,
                                            "turn": t}) + "\n")
            # timestamps must not go backwards: sort the lines by time
            with open(trace) as f:
                lines = sorted(f, key=lambda l: json.loads(l)["timestamp"])
            with open(trace, "w") as f:
                f.writelines(lines)
            out = os.path.join(d, "sweep")
            rc = sweep.main(["--out", out, "--trace", trace, "--fleetsim", os.environ["KVR_BIN_KVROUTE_FLEETSIM"],
                             "--policies", "round_robin,affinity", "--routers", "1,2", "--seeds", "3",
                             "--engines", "2", "--jobs", "2"])
            self.assertEqual(rc, 0)
            res = json.load(open(os.path.join(out, "results.json")))
            self.assertEqual(len(res["cells"]), 2 * 2 * 2)
            self.assertEqual(len(res["es_effects"]), 2 * 2)
            for c in res["cells"]:
                self.assertEqual(c["ok"], 3 * 36, c)
                self.assertEqual(c["ttft_p90"]["n"], 3)
            rr = [e for e in res["es_effects"] if e["policy"] == "round_robin"][0]
            self.assertEqual(rr["ttft_p90"]["mean"], 0.0, "round_robin ignores the feed: no effect")
            self.assertTrue(rr["ttft_p90"]["verdict"].startswith("no verdict"))
            report = open(os.path.join(out, "results.md")).read()
            if os.path.exists(sweep.FIDELITY):
                self.assertIn("## Fidelity: this simulator against the real processes", report)


if __name__ == "__main__":
    unittest.main()
