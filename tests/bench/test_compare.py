#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The ablation comparator on hand-made inputs: every figure of the table is
checked against a value worked out by hand. ctest runs it with
PYTHONPATH=bench:bench/ablate."""
import json
import os
import tempfile
import unittest

import compare
import split_trace


def rec(index, session, engine, ttft=100.0, ok=True, prompt=1000, cached=500, send=0):
    return {"index": index, "session": session, "engine": engine, "ttft_ms": ttft, "ok": ok,
            "prompt_tokens": prompt, "cached_tokens": cached, "send_mono_ns": send}


class Sessions(unittest.TestCase):
    def test_inst_per_session_counts_distinct_engines(self):
        recs = [rec(0, "a", "e1"), rec(1, "a", "e1"), rec(2, "a", "e2"),  # a: 2 engines
                rec(3, "b", "e3"),                                        # b: 1 engine
                rec(4, "c", "e1"), rec(5, "c", "e2"), rec(6, "c", "e3")]  # c: 3 engines
        self.assertAlmostEqual(compare.inst_per_session(recs), 2.0)

    def test_inst_per_session_ignores_requests_without_engine_or_session(self):
        recs = [rec(0, "a", "e1"), rec(1, "a", None), rec(2, None, "e2")]
        self.assertAlmostEqual(compare.inst_per_session(recs), 1.0)
        self.assertIsNone(compare.inst_per_session([rec(0, None, "e1")]))


class Reroute(unittest.TestCase):
    def test_matched_by_trace_index(self):
        es0 = [rec(0, "a", "e1"), rec(1, "a", "e1"), rec(2, "b", "e2"), rec(3, "b", "e2")]
        # written in another order: matching must use the index, not the line
        es1 = [rec(3, "b", "e1"), rec(2, "b", "e2"), rec(1, "a", "e1"), rec(0, "a", "e3")]
        self.assertAlmostEqual(compare.reroute_pct(es0, es1), 50.0)

    def test_requests_missing_from_one_arm_are_not_counted(self):
        es0 = [rec(0, "a", "e1"), rec(1, "a", "e1")]
        es1 = [rec(0, "a", "e2"), rec(1, "a", None), rec(7, "z", "e9")]
        self.assertAlmostEqual(compare.reroute_pct(es0, es1), 100.0)
        self.assertIsNone(compare.reroute_pct([], es1))


class FleetPositions(unittest.TestCase):
    def test_arms_on_different_ports_compare_by_fleet_position(self):
        with tempfile.TemporaryDirectory() as d:
            for arm, base, engines in (("es0", 9000, [0, 1]), ("es1", 7000, [0, 0])):
                cell = os.path.join(d, "p", arm)
                os.makedirs(cell)
                with open(os.path.join(cell, "engines.txt"), "w") as f:
                    f.write("http://127.0.0.1:%d\nhttp://127.0.0.1:%d\n" % (base, base + 1))
                with open(os.path.join(cell, "replay.jsonl"), "w") as f:
                    for i, e in enumerate(engines):
                        f.write(json.dumps(rec(i, "s", "http://127.0.0.1:%d" % (base + e))) + "\n")
            r0, r1 = compare.load_cell(d, "p", "es0"), compare.load_cell(d, "p", "es1")
            self.assertEqual([r["engine"] for r in r1], ["e0", "e0"])
            self.assertEqual(r1[0]["engine_url"], "http://127.0.0.1:7000")
            self.assertAlmostEqual(compare.reroute_pct(r0, r1), 50.0)


class Figures(unittest.TestCase):
    def test_cache_hit_is_token_weighted_over_successes(self):
        recs = [rec(0, "a", "e", prompt=1000, cached=900), rec(1, "a", "e", prompt=3000, cached=100),
                rec(2, "a", "e", ok=False, prompt=5000, cached=5000)]
        self.assertAlmostEqual(compare.cache_hit(recs), 25.0)

    def test_percentile_matches_replay(self):
        self.assertAlmostEqual(compare.percentile([40, 10, 30, 20, 50], 90), 46.0)
        self.assertIsNone(compare.percentile([], 50))

    def test_verdict(self):
        self.assertTrue(compare.verdict(1000, 800, 0, 0).startswith("ES=1 better"))
        self.assertTrue(compare.verdict(1000, 1200, 0, 0).startswith("ES=1 worse"))
        self.assertEqual(compare.verdict(1000, 1020, 0, 0), "within noise (p90 +2%)")
        self.assertEqual(compare.verdict(1000, 1001, 0, 0), "no material difference")
        self.assertEqual(compare.verdict(1000, 800, 0, 0, noise=0.3), "within noise (p90 -20%)")
        self.assertEqual(compare.verdict(1000, 800, 5.0, 0), "errors: see cell logs")
        self.assertEqual(compare.verdict(None, 800, 0, 0), "no data")


MS = 1_000_000
B = 5_000_000 * MS  # monotonic clocks start far from 0; 0 means "never sampled"


class Freshness(unittest.TestCase):
    def write_feed(self, d, lines):
        path = os.path.join(d, "feed.txt")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def test_ages_rebuilt_on_the_1ms_grid(self):
        with tempfile.TemporaryDirectory() as d:
            # one engine; a sample observed at t=0 seen at 0, the next observed at
            # 100 ms seen at 100 ms, run ends at 3,100 ms: ages 0..99 ms, then
            # 0..2,999 ms (the feed stalled for 3 s).
            path = self.write_feed(d, [
                "start %d" % B,
                "s %d 0 %d 1 3 0 0 0 0 http://127.0.0.1:9000" % (B, B),
                "s %d 0 %d 2 3 0 0 0 0 http://127.0.0.1:9000" % (B + 100 * MS, B + 100 * MS),
                "end %d 3100 0" % (B + 3100 * MS)])
            f = compare.freshness(path, [])
            o = f["overall"]
            self.assertEqual(o["samples"], 3100)
            self.assertAlmostEqual(o["max_ms"], 2999)
            self.assertAlmostEqual(o["share_over_2s"], 100.0 * 999 / 3100, places=3)
            self.assertIsNone(f["during_large_prefill"])

    def test_ages_during_large_prefills_use_the_serving_engine_window(self):
        with tempfile.TemporaryDirectory() as d:
            path = self.write_feed(d, [
                "start %d" % B,
                "s %d 0 %d 1 3 0 0 0 0 http://127.0.0.1:9000" % (B, B),
                "s %d 1 %d 1 3 0 0 0 0 http://127.0.0.1:9001" % (B, B),
                "s %d 1 %d 2 3 0 0 0 0 http://127.0.0.1:9001" % (B + 10 * MS, B + 10 * MS),
                "s %d 2 %d 0 0 0 0 0 0 http://127.0.0.1:9002" % (B, 0),  # never sampled
                "end %d 1000 0" % (B + 1000 * MS)])
            recs = [
                # 60k uncached tokens on port 9001 from 500 to 600 ms: ages 490..589 ms
                dict(rec(0, "a", "http://127.0.0.1:9001/", ttft=100.0, prompt=70000, cached=10000),
                     send_mono_ns=B + 500 * MS),
                # mostly cached: not a large prefill
                dict(rec(1, "a", "http://127.0.0.1:9000", ttft=100.0, prompt=70000, cached=60000),
                     send_mono_ns=B + 500 * MS),
            ]
            f = compare.freshness(path, recs)
            self.assertEqual(f["large_prefill_windows"], 1)
            dl = f["during_large_prefill"]
            self.assertEqual(dl["samples"], 100)
            self.assertAlmostEqual(dl["max_ms"], 589)
            self.assertAlmostEqual(dl["p50_ms"], 539)


class WholeRun(unittest.TestCase):
    def test_results_md_and_table(self):
        with tempfile.TemporaryDirectory() as d:
            for arm, engines, ttft in (("es0", ["e1", "e2"], 200.0), ("es1", ["e1", "e1"], 100.0)):
                os.makedirs(os.path.join(d, "sticky", arm))
                with open(os.path.join(d, "sticky", arm, "replay.jsonl"), "w") as f:
                    for i, e in enumerate(engines):
                        f.write(json.dumps(rec(i, "s1", e, ttft=ttft)) + "\n")
            self.assertEqual(compare.main([d, "--no-charts"]), 0)
            with open(os.path.join(d, "results.md")) as f:
                md = f.read()
            row = [line for line in md.splitlines() if line.startswith("| sticky |")][0]
            cols = [c.strip() for c in row.strip("|").split("|")]
            self.assertEqual(cols[2], "2.00 → 1.00")   # inst/session
            self.assertEqual(cols[3], "50.0")          # reroute %
            self.assertEqual(cols[4], "200 → 100")     # p90
            self.assertEqual(cols[7], "100.0 → 100.0")  # SLO met %
            self.assertTrue(cols[8].startswith("ES=1 better"))
            self.assertIn("every request that did not end with 200", md)
            with open(os.path.join(d, "summary.json")) as f:
                self.assertEqual(json.load(f)[0]["policy"], "sticky")


class OneArm(unittest.TestCase):
    def test_a_run_of_es0_only_reports_its_figures_and_no_comparison(self):
        with tempfile.TemporaryDirectory() as d:
            for pol, ttft in (("sticky", 200.0), ("load_only", 300.0)):
                os.makedirs(os.path.join(d, pol, "es0"))
                with open(os.path.join(d, pol, "es0", "replay.jsonl"), "w") as f:
                    for i, e in enumerate(["e1", "e2"]):
                        f.write(json.dumps(rec(i, "s1", e, ttft=ttft)) + "\n")
                    # refused: a miss in the SLO share, not left out of it
                    f.write(json.dumps({"index": 2, "ok": False, "status": 429}) + "\n")
            self.assertEqual(compare.main([d, "--no-charts"]), 0)
            with open(os.path.join(d, "results.md")) as f:
                md = f.read()
            self.assertNotIn("no data", md)
            self.assertNotIn("→", md)
            row = [line for line in md.splitlines() if line.startswith("| load_only |")][0]
            cols = [c.strip() for c in row.strip("|").split("|")]
            self.assertEqual(cols[2], "2.00")   # inst/session
            self.assertEqual(cols[4], "300")    # TTFT p90
            self.assertEqual(cols[7], "66.7")   # SLO met %: 2 of 3 sent
            self.assertEqual(cols[8], "2/3")
            self.assertEqual(compare.main([d, "--no-charts", "--slo-ttft-ms", "250"]), 0)
            with open(os.path.join(d, "results.md")) as f:
                rows = {l.split("|")[1].strip(): [c.strip() for c in l.strip("|").split("|")]
                        for l in f if l.startswith("| load_only |") or l.startswith("| sticky |")}
            self.assertEqual((rows["sticky"][7], rows["load_only"][7]), ("66.7", "0.0"))


class SeveralRouters(unittest.TestCase):
    """run.sh --routers N: the trace split by session, the records merged back."""

    def test_split_by_session_and_merge_restores_trace_indexes(self):
        trace = [{"timestamp": 100, "session_id": "a"}, {"timestamp": 150, "session_id": "b"},
                 {"timestamp": 200, "session_id": "a"}, {"timestamp": 260, "session_id": "c"},
                 {"timestamp": 300, "session_id": "b"}, {"timestamp": 310}]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "trace.jsonl")
            with open(path, "w") as f:
                f.writelines(json.dumps(t) + "\n" for t in trace)
            # sessions round-robin by first appearance: a->0, b->1, c->0, the sessionless line->1
            self.assertEqual(split_trace.split(path, 2, d), [0, 50])
            parts = []
            for k in range(2):
                with open(os.path.join(d, "trace-r%d.jsonl" % k)) as f:
                    parts.append([json.loads(l) for l in f])
            self.assertEqual([t.get("session_id") for t in parts[0]], ["a", "a", "c"])
            self.assertEqual([t.get("session_id") for t in parts[1]], ["b", "b", None])
            # each replay indexes its own file; the merge maps back to the whole trace
            replays = []
            for k in range(2):
                rp = os.path.join(d, "replay-r%d.jsonl" % k)
                with open(rp, "w") as f:
                    for i in reversed(range(len(parts[k]))):  # written as they finish
                        f.write(json.dumps(rec(i, parts[k][i].get("session_id"), "e%d" % k)) + "\n")
                replays.append(rp)
            merged = os.path.join(d, "replay.jsonl")
            self.assertEqual(split_trace.merge(d, 2, merged, replays), 6)
            recs = compare.load_records(merged)
            by_index = {r["index"]: r for r in recs}
            self.assertEqual(sorted(by_index), list(range(6)))
            self.assertEqual([by_index[i]["router"] for i in range(6)], [0, 1, 0, 0, 1, 1])
            self.assertEqual([by_index[i]["session"] for i in range(6)], ["a", "b", "a", "c", "b", None])
            self.assertEqual(by_index[3]["router_index"], 2)

    def test_reasons_summed_over_routers(self):
        with tempfile.TemporaryDirectory() as d:
            for k, (hit, miss) in enumerate(((3, 1), (4, 0))):
                with open(os.path.join(d, "router-metrics-r%d.txt" % k), "w") as f:
                    f.write('kvroute_decisions_total{policy="sticky",reason="sticky_pin"} %d\n' % hit)
                    f.write('kvroute_decisions_total{policy="sticky",reason="least_load"} %d\n' % miss)
            self.assertEqual(compare.cell_reasons(d), {"sticky_pin": 7, "least_load": 1})


if __name__ == "__main__":
    unittest.main()
