#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The bench's shared Python (bench/kvrbench): the helpers bench/lib.sh calls
and the readers the reports share. ctest runs it with PYTHONPATH=bench."""
import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import unittest
import unittest.mock
from contextlib import redirect_stderr, redirect_stdout

from kvrbench import metrics, records, tool


class Tool(unittest.TestCase):
    def test_scaled_divides_rounds_and_keeps_the_floor(self):
        self.assertEqual(tool.scaled("50", "10", "3"), 17)
        self.assertEqual(tool.scaled(50, 10, 10), 10)      # 5 is below the floor
        self.assertEqual(tool.scaled(2000, 50, 1), 2000)
        self.assertEqual(tool.scaled(300000, 1000, 4), 75000)

    def test_loads_running_sums_ranks_and_reports_garbage_as_minus_one(self):
        doc = {"loads": [{"num_running_reqs": 3}, {"num_running_reqs": 4}, {}]}
        self.assertEqual(tool.loads_running(json.dumps(doc)), 7)
        self.assertEqual(tool.loads_running("not json"), -1)
        self.assertEqual(tool.loads_running(""), -1)
        self.assertEqual(tool.loads_running('{"loads": [{"num_running_reqs": "x"}]}'), -1)

    def test_free_ports_are_bindable(self):
        base = tool.free_ports(3)
        self.assertIsNotNone(base)
        socks = []
        try:
            for p in range(base, base + 3):
                s = socket.socket()
                socks.append(s)
                s.bind(("127.0.0.1", p))
        finally:
            for s in socks:
                s.close()

    def test_first_engine_of_a_replay_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "warm.jsonl")
            with open(path, "w") as f:
                f.write(json.dumps({"engine": "http://127.0.0.1:9000"}) + "\n" + json.dumps({"engine": "x"}) + "\n")
            self.assertEqual(tool.first_engine(path), "http://127.0.0.1:9000")
            with open(path, "w") as f:
                f.write(json.dumps({"engine": None}) + "\n")
            self.assertEqual(tool.first_engine(path), "")

    def test_router_ready_wants_every_engine_healthy_and_with_the_feed_fresh(self):
        def page(healthy, fresh=None):
            lines = ["# HELP kvroute_engine_healthy 1 when the engine answers"]
            lines += ['kvroute_engine_healthy{engine="http://127.0.0.1:900%d"} %s' % (i, v) for i, v in enumerate(healthy)]
            lines += ['kvroute_engine_feed_fresh{engine="http://127.0.0.1:900%d"} %s' % (i, v)
                      for i, v in enumerate(fresh or [])]
            return "\n".join(lines) + "\n"
        self.assertTrue(tool.router_ready(page([1, 1], [1, 1]), True))
        self.assertFalse(tool.router_ready(page([1, 1], [1, 0]), True))
        self.assertTrue(tool.router_ready(page([1, 1], [1, 0]), False))  # the feed is not read at ES=0
        self.assertFalse(tool.router_ready(page([1, 0], [1, 1]), False))
        self.assertTrue(tool.router_ready(page([1, 1]), False))
        self.assertFalse(tool.router_ready(page([1, 1]), True))          # ES=1 but no feed figures yet
        self.assertFalse(tool.router_ready(page([]), False))             # no engine listed: not ready
        self.assertFalse(tool.router_ready(page(["garbage"]), False))
        self.assertFalse(tool.router_ready(page([1, 2]), False))

    def test_main_router_ready_answers_by_exit_status(self):
        page = 'kvroute_engine_healthy{engine="e"} 1\nkvroute_engine_feed_fresh{engine="e"} 0\n'
        with unittest.mock.patch("sys.stdin", io.StringIO(page)):
            self.assertEqual(tool.main(["router-ready", "0"]), 0)
        with unittest.mock.patch("sys.stdin", io.StringIO(page)):
            self.assertEqual(tool.main(["router-ready", "1"]), 1)
        with redirect_stderr(io.StringIO()):
            self.assertEqual(tool.main(["router-ready", "yes"]), 2)
            self.assertEqual(tool.main(["router-ready"]), 2)

    def test_main_prints_and_refuses_bad_arguments(self):
        out = io.StringIO()
        with redirect_stdout(out):
            self.assertEqual(tool.main(["scaled", "1000", "1", "4"]), 0)
        self.assertEqual(out.getvalue(), "250\n")
        with redirect_stdout(io.StringIO()):
            self.assertEqual(tool.main(["scaled", "x", "1", "4"]), 2)
            self.assertEqual(tool.main(["nonsense"]), 2)
            self.assertEqual(tool.main([]), 2)


class Metrics(unittest.TestCase):
    def test_parse_prom_reads_names_labels_and_values_and_skips_the_rest(self):
        page = ('# TYPE kvroute_in_flight gauge\nkvroute_in_flight 3\n'
                'kvroute_requests_total{status="200",path="/v1/x"} 12\n'
                'kvroute_bad{a="b"} notanumber\n{broken} 1\n\n')
        self.assertEqual(metrics.parse_prom(page),
                         [("kvroute_in_flight", {}, 3.0),
                          ("kvroute_requests_total", {"status": "200", "path": "/v1/x"}, 12.0)])


class Records(unittest.TestCase):
    def test_load_cell_numbers_engines_by_fleet_position_and_scales_times(self):
        with tempfile.TemporaryDirectory() as run:
            cell = os.path.join(run, "p", "es1")
            os.makedirs(cell)
            with open(os.path.join(cell, "engines.txt"), "w") as f:
                f.write("http://127.0.0.1:9000\nhttp://127.0.0.1:9001\n")
            with open(os.path.join(cell, "replay.jsonl"), "w") as f:
                f.write(json.dumps({"engine": "http://127.0.0.1:9001/", "ttft_ms": 10.0, "e2e_ms": None}) + "\n\n")
            recs = records.load_cell(run, "p", "es1", 4.0)
            self.assertEqual(len(recs), 1)
            self.assertEqual(recs[0]["engine"], "e1")
            self.assertEqual(recs[0]["engine_url"], "http://127.0.0.1:9001/")
            self.assertEqual(recs[0]["ttft_ms"], 40.0)
            self.assertIsNone(recs[0]["e2e_ms"])
            self.assertEqual(records.policies_in(run), ["p"])

    def test_decisions_of_every_router_and_bad_lines(self):
        with tempfile.TemporaryDirectory() as d:
            for name in ("decisions.jsonl", "decisions-r1.jsonl", "decisions.txt", "decisions-rx.jsonl"):
                open(os.path.join(d, name), "w").close()
            self.assertEqual([os.path.basename(p) for p in records.decision_files(d)],
                             ["decisions-r1.jsonl", "decisions.jsonl"])
            path = os.path.join(d, "decisions.jsonl")
            with open(path, "w") as f:
                f.write('{"reason": "a"}\n\n{"reason": "b"\n')
            self.assertEqual(records.load_decisions(path, skip_bad=True), [{"reason": "a"}])
            with self.assertRaises(ValueError):
                records.load_decisions(path)
            self.assertEqual(records.load_decisions(os.path.join(d, "missing.jsonl")), [])

    def test_feed_lines_keep_start_end_and_whole_samples(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "feed.txt")
            with open(path, "w") as f:
                f.write("# comment\nstart 5\ns 1 0 1 1 3 2 0 4 0 http://e0\ns 1 2 3\n\nend 9\n")
            lines = list(records.feed_lines(path))
            self.assertEqual([p[0] for p in lines], ["start", "s", "end"])
            self.assertEqual(lines[1][10], "http://e0")

    def test_percentile_and_mean(self):
        self.assertAlmostEqual(records.percentile([40, 10, 30, 20, 50], 90), 46.0)
        self.assertIsNone(records.percentile([], 50))
        self.assertIsNone(records.mean([]))
        self.assertEqual(records.mean([1, 2, 3]), 2)


class Scripts(unittest.TestCase):
    def test_every_bench_script_finds_the_package_without_pythonpath(self):
        bench = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
        scripts = []
        for d, _, names in os.walk(bench):
            if os.path.basename(d) == "kvrbench":
                continue
            for n in names:
                if n.endswith(".py"):
                    with open(os.path.join(d, n)) as f:
                        if "kvrbench" in f.read():
                            scripts.append(os.path.join(d, n))
        self.assertGreater(len(scripts), 3)
        # -I: no PYTHONPATH, no current folder on the path; the module runs up to its __main__ guard
        load = ("import importlib.util, sys; s = importlib.util.spec_from_file_location('m', sys.argv[1]); "
                "s.loader.exec_module(importlib.util.module_from_spec(s))")
        for path in scripts:
            with self.subTest(os.path.relpath(path, bench)):
                p = subprocess.run([sys.executable, "-I", "-c", load, path], cwd="/", stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
                self.assertEqual(p.returncode, 0, p.stderr)


if __name__ == "__main__":
    unittest.main()
