#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""kvroute-canary on hand-made arms: a pair that passes every gate, a pair
that fails each gate in turn (and only that one), and each kind of missing
or inconsistent input, which must give no verdict (exit 2). The figures of
the passing pair are worked out by hand. ctest runs it with PYTHONPATH=bench."""
import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest

SOURCE_DIR = os.environ.get("KVR_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
CANARY = os.path.join(SOURCE_DIR, "bench", "canary", "kvroute-canary")
S = 1_000_000_000
ENGINES = ["http://127.0.0.1:%d" % (9000 + i) for i in range(4)]
GATES = ["--min-active-engines", "3/4", "--max-replication", "3", "--min-telemetry-coverage", "1.0",
         "--max-cache-loss-pp", "10", "--min-primary-ratio", "2.0", "--max-p95-ratio", "1.0",
         "--no-increase", "errors,429,retractions,retries,upstream_errors"]

# 4 trajectories x 2 turns; every prompt starts with the shared block 1.
TRACE = [{"timestamp": 0, "input_length": 1000 + 10 * s + t, "output_length": 100, "session_id": "s%d" % s,
          "turn": t, "hash_ids": [1, 10 + s] + ([20 + s] if t else [])} for s in range(4) for t in range(2)]


def record(index, engine, start_s, end_s, out=100, prompt=1000, cached=800, ok=True, status=200):
    t = TRACE[index]
    return {"index": index, "request_id": "r-%d" % index, "session": t["session_id"], "turn": t["turn"],
            "engine": engine,
            "target": "http://router/v1/chat/completions", "send_mono_ns": int(start_s * S),
            "end_mono_ns": int(end_s * S), "e2e_ms": (end_s - start_s) * 1000.0, "input_length": t["input_length"],
            "output_length": 100, "prompt_tokens": prompt, "cached_tokens": cached, "output_tokens": out,
            "status": status, "ok": ok}


def control_arm():
    # Everything on e0, one request after another, 2.5 s each, 20 s in all: the
    # first turns are all sent at 0 and queue, each second turn follows its first.
    recs = []
    for i, t in enumerate(TRACE):
        s = int(t["session_id"][1:])
        first_end = 2.5 * (s + 1)
        recs.append(record(i, ENGINES[0], 0.0, first_end) if t["turn"] == 0 else
                    record(i, ENGINES[0], first_end, 10.0 + first_end))
    return {"records": recs, "reasons": ["cache_hit"] * 7 + ["cache_miss"], "feed": ["fresh"] * 8,
            "reads": {"fresh": 32}, "running": [(0, 1), (0, 2)], "retractions": [0, 0, 0, 0],
            "retries": 0, "failures_metric": 0}


def treatment_arm():
    # Sessions 0,1 on e0, session 2 on e1, session 3 on e2: 4 s each, 8 s in all; e3 idle.
    place = {0: 0, 1: 0, 2: 1, 3: 2}
    recs = []
    for i, t in enumerate(TRACE):
        s = int(t["session_id"][1:])
        recs.append(record(i, ENGINES[place[s]], 4.0 * t["turn"], 4.0 * (t["turn"] + 1), cached=750))
    return {"records": recs, "reasons": ["cache_hit"] * 5 + ["owner_pressure_spill"] * 2 + ["cache_miss"],
            "feed": ["fresh"] * 8, "reads": {"fresh": 32}, "running": [(0, 2), (1, 1), (2, 1)],
            "retractions": [0, 0, 0, 0], "retries": 0, "failures_metric": 0}


def write_arm(run, name, arm, trace=None, meta=None):
    d = os.path.join(run, name)
    os.makedirs(d, exist_ok=True)
    trace_name = "trace.jsonl"
    if trace is not None:
        trace_name = "trace-%s.jsonl" % name
        with open(os.path.join(run, trace_name), "w") as f:
            f.writelines(json.dumps(x) + "\n" for x in trace)
    with open(os.path.join(d, "replay.jsonl"), "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in arm["records"])
    with open(os.path.join(d, "decisions.jsonl"), "w") as f:
        for i, (reason, feed) in enumerate(zip(arm["reasons"], arm["feed"])):
            f.write(json.dumps({"request_id": "r-%d" % i, "engine": ENGINES[0], "reason": reason, "feed": feed})
                    + "\n")
    with open(os.path.join(d, "router-metrics.txt"), "w") as f:
        f.write("# TYPE kvroute_feed_reads_total counter\n")
        for state, v in arm["reads"].items():
            f.write('kvroute_feed_reads_total{state="%s"} %d\n' % (state, v))
        f.write('kvroute_retries_total{cause="connect"} %d\n' % arm["retries"])
        f.write('kvroute_engine_failures_total{engine="%s"} %d\n' % (ENGINES[0], arm["failures_metric"]))
    with open(os.path.join(d, "feed.txt"), "w") as f:
        f.write("start 1\n")
        for n, (slot, running) in enumerate(arm["running"]):
            f.write("s %d %d %d 1 3 %d 0 0 0 %s\n" % (n + 2, slot, n + 2, running, ENGINES[slot]))
        f.write("end 99 1000 0\n")
    for i, v in enumerate(arm["retractions"]):
        with open(os.path.join(d, "engine-%d.txt" % i), "w") as f:
            f.write('sglang:num_retracted_reqs_total{engine="%d"} %d\n' % (i, v))
    m = {"records": [{"file": "replay.jsonl", "trace": "../" + trace_name}], "metrics": "router-metrics.txt",
         "feed": "feed.txt", "decisions": ["decisions.jsonl"],
         "engine_metrics": ["engine-%d.txt" % i for i in range(len(ENGINES))], "engines": ENGINES,
         "time_scale": 1, "failures": []}
    m.update(meta or {})
    with open(os.path.join(d, "arm.json"), "w") as f:
        json.dump(m, f)
    return d


class Canary(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.run_dir = self.tmp.name
        with open(os.path.join(self.run_dir, "trace.jsonl"), "w") as f:
            f.writelines(json.dumps(x) + "\n" for x in TRACE)

    def tearDown(self):
        self.tmp.cleanup()

    def canary(self, control=None, treatment=None, gates=GATES, t_meta=None, t_trace=None, extra=(),
               min_requests=len(TRACE), arms=None):
        c = write_arm(self.run_dir, "control", control or control_arm())
        t = write_arm(self.run_dir, "treatment", treatment or treatment_arm(), trace=t_trace, meta=t_meta)
        for f in extra:
            f(c, t)
        size = ["--min-requests", str(min_requests)] if min_requests is not None else []
        c, t = arms(c, t) if arms else (c, t)
        p = subprocess.run([sys.executable, CANARY, c, t] + list(gates) + size + ["--json",
                           os.path.join(self.run_dir, "out.json")], capture_output=True, text=True, timeout=60)
        return p.returncode, p.stdout, p.stderr

    def gate_lines(self, out):
        return [l for l in out.splitlines() if l.startswith(("PASS ", "FAIL "))]

    def assert_only_fails(self, out, gate):
        lines = self.gate_lines(out)
        failed = [l for l in lines if l.startswith("FAIL ")]
        self.assertTrue(failed, out)
        self.assertTrue(all(l.startswith("FAIL " + gate) for l in failed), "\n".join(failed))

    def test_passing_pair(self):
        rc, out, err = self.canary()
        self.assertEqual(rc, 0, out + err)
        self.assertIn("canary: PASS", out)
        lines = self.gate_lines(out)
        self.assertEqual(len(lines), 12, out)  # 2 primary figures, 5 no-increase counts
        self.assertTrue(all(l.startswith("PASS ") for l in lines))
        with open(os.path.join(self.run_dir, "out.json")) as f:
            figs = json.load(f)
        c, t = figs["control"], figs["treatment"]
        self.assertAlmostEqual(c["wall_s"], 20.0)
        self.assertAlmostEqual(c["tok_s_per_node"], 800 / 20.0 / 4)     # 800 tokens, 20 s, 4 nodes
        self.assertAlmostEqual(t["tok_s_per_node"], 800 / 8.0 / 4)
        self.assertAlmostEqual(c["traj_per_hour"], 4 / 20.0 * 3600)
        self.assertAlmostEqual(t["traj_per_hour"], 4 / 8.0 * 3600)
        self.assertEqual(t["gen_share"], {"e0": 50.0, "e1": 25.0, "e2": 25.0, "e3": 0.0})
        self.assertEqual(c["replication"], 1)
        self.assertEqual(t["replication"], 3)                           # block 1 on e0, e1, e2
        self.assertAlmostEqual(c["cached_pct"], 80.0)
        self.assertAlmostEqual(t["cached_pct"], 75.0)
        self.assertEqual(c["running_max"], 2)
        self.assertEqual(t["running_max"], 4)
        self.assertAlmostEqual(c["lat_p50"], 10.0)                     # 2.5 5 7.5 10 10 10 10 10
        self.assertAlmostEqual(t["lat_p95"], 4.0)
        self.assertEqual(t["reasons"], {"cache_hit": 5, "owner_pressure_spill": 2, "cache_miss": 1})
        self.assertEqual(t["telemetry_coverage"], 1.0)

    # ---- each gate fails on its own ----
    def test_fails_active_engines(self):
        t = treatment_arm()
        for r in t["records"]:
            if r["engine"] == ENGINES[2]:
                r["engine"] = ENGINES[1]
        rc, out, _ = self.canary(treatment=t)
        self.assertEqual(rc, 1, out)
        self.assert_only_fails(out, "min-active-engines")
        self.assertIn("treatment 2 of 4 engines", out)

    def test_fails_active_engines_on_another_fleet_size(self):
        gates = [g if g != "3/4" else "3/3" for g in GATES]
        rc, out, _ = self.canary(gates=gates)
        self.assertEqual(rc, 1, out)
        self.assert_only_fails(out, "min-active-engines")

    def test_fails_replication(self):
        t = treatment_arm()
        t["records"][7]["engine"] = ENGINES[3]   # s3's second turn on a fourth engine: block 1 on 4
        rc, out, _ = self.canary(treatment=t)
        self.assertEqual(rc, 1, out)
        self.assert_only_fails(out, "max-replication")
        self.assertIn("treatment 4 engines hold one block", out)

    def test_fails_telemetry_coverage_from_metrics(self):
        t = treatment_arm()
        t["reads"] = {"fresh": 31, "slot_stale": 1}
        rc, out, _ = self.canary(treatment=t)
        self.assertEqual(rc, 1, out)
        self.assert_only_fails(out, "min-telemetry-coverage")

    def test_fails_telemetry_coverage_from_decisions(self):
        c = control_arm()
        c["feed"] = ["fresh"] * 7 + ["writer_stale"]
        rc, out, _ = self.canary(control=c)
        self.assertEqual(rc, 1, out)
        self.assert_only_fails(out, "min-telemetry-coverage")

    def test_fails_cache_loss(self):
        t = treatment_arm()
        for r in t["records"]:
            r["cached_tokens"] = 600               # 80% -> 60%: 20 points lost
        rc, out, _ = self.canary(treatment=t)
        self.assertEqual(rc, 1, out)
        self.assert_only_fails(out, "max-cache-loss-pp")

    def test_fails_primary_ratio(self):
        t = treatment_arm()
        for r in t["records"]:                     # 8 s -> 12 s: 1.67x
            r["send_mono_ns"] = int(r["send_mono_ns"] * 1.5)
            r["end_mono_ns"] = int(r["end_mono_ns"] * 1.5)
            r["e2e_ms"] = (r["end_mono_ns"] - r["send_mono_ns"]) / 1e6
        c = control_arm()
        for r in c["records"]:                     # control latencies high enough that p95 stays better
            r["e2e_ms"] = 10000.0
        rc, out, _ = self.canary(treatment=t, control=c)
        self.assertEqual(rc, 1, out)
        self.assert_only_fails(out, "min-primary-ratio")
        self.assertEqual(len([l for l in out.splitlines() if l.startswith("FAIL")]), 2)

    def test_fails_p95(self):
        t = treatment_arm()
        t["records"][0]["e2e_ms"] = 30000.0
        rc, out, _ = self.canary(treatment=t)
        self.assertEqual(rc, 1, out)
        self.assert_only_fails(out, "max-p95-ratio")

    def test_fails_errors(self):
        t = treatment_arm()
        t["records"][3].update(ok=False, status=502, output_tokens=0)
        rc, out, _ = self.canary(treatment=t, gates=["--no-increase", "errors"])
        self.assertEqual(rc, 1, out)
        self.assert_only_fails(out, "no-increase errors")

    def test_fails_429(self):
        t = treatment_arm()
        t["records"][3].update(ok=False, status=429, output_tokens=0)
        rc, out, _ = self.canary(treatment=t, gates=["--no-increase", "errors,429"])
        self.assertEqual(rc, 1, out)
        self.assert_only_fails(out, "no-increase 429")

    def test_fails_retractions(self):
        t = treatment_arm()
        t["retractions"] = [0, 2, 0, 0]
        rc, out, _ = self.canary(treatment=t)
        self.assertEqual(rc, 1, out)
        self.assert_only_fails(out, "no-increase retractions")

    def test_fails_retries_and_upstream_errors(self):
        t = treatment_arm()
        t["retries"], t["failures_metric"] = 1, 3
        rc, out, _ = self.canary(treatment=t)
        self.assertEqual(rc, 1, out)
        failed = [l for l in out.splitlines() if l.startswith("FAIL")]
        self.assertEqual([l.split(":")[0] for l in failed],
                         ["FAIL no-increase retries", "FAIL no-increase upstream_errors"])

    def test_a_figure_that_passes_only_by_chance_fails(self):
        # One slow first turn in the treatment: its p95 is below the control's (9.2 s against 10 s), but a
        # draw holding that trajectory twice puts it at 12 s, so the interval reaches 1.2 x the control.
        c = control_arm()
        for r in c["records"]:
            r["e2e_ms"] = 10000.0
        t = treatment_arm()
        t["records"][0]["e2e_ms"] = 12000.0
        rc, out, _ = self.canary(control=c, treatment=t, gates=["--max-p95-ratio", "1.0"])
        self.assertEqual(rc, 1, out)
        self.assert_only_fails(out, "max-p95-ratio")
        self.assertIn("ratio 95% interval", out)
        with open(os.path.join(self.run_dir, "out.json")) as f:
            self.assertLess(json.load(f)["treatment"]["lat_p95"], 10.0)

    def test_the_same_seed_gives_the_same_verdict(self):
        outs = [self.canary()[1] for _ in range(2)]
        self.assertEqual(outs[0], outs[1])

    # ---- no verdict: inputs missing or inconsistent ----
    def test_too_few_requests(self):
        self.no_verdict("8 requests, fewer than the 200 a verdict needs", min_requests=None)

    def test_one_arm_given_twice(self):
        self.no_verdict("are one arm", arms=lambda c, t: (c, c))

    def test_identical_records(self):
        self.no_verdict("byte-identical", treatment=control_arm())

    def test_decision_log_of_another_run(self):
        def longer(c, t):
            with open(os.path.join(t, "decisions.jsonl"), "a") as f:
                for i in range(8, 32):
                    f.write(json.dumps({"request_id": "r-%d" % i, "engine": ENGINES[0], "feed": "fresh"}) + "\n")
        self.no_verdict("which the records do not hold (32 decisions, 8 records)", extra=[longer])

    def test_two_decisions_of_one_request(self):
        def twice(c, t):
            with open(os.path.join(t, "decisions.jsonl"), "a") as f:
                f.write(json.dumps({"request_id": "r-3", "engine": ENGINES[0], "feed": "fresh"}) + "\n")
        self.no_verdict("request 'r-3' has two decisions", extra=[twice])

    def test_records_without_request_ids(self):
        t = treatment_arm()
        del t["records"][2]["request_id"]
        self.no_verdict("has no request_id", treatment=t)


    def no_verdict(self, why, **kw):
        rc, out, err = self.canary(**kw)
        self.assertEqual(rc, 2, out + err)
        self.assertIn("NO VERDICT", out)
        self.assertEqual(self.gate_lines(out), [])
        self.assertIn(why, err)

    def test_different_traces(self):
        other = copy.deepcopy(TRACE)
        other[0]["output_length"] = 200
        self.no_verdict("different traces", t_trace=other)

    def test_run_with_failures(self):
        self.no_verdict("router exited before the end", t_meta={"failures": ["router exited before the end"]})

    def test_failures_not_stated(self):
        self.no_verdict("does not say whether the run failed", t_meta={"failures": None})

    def test_missing_file(self):
        self.no_verdict("feed samples", extra=[lambda c, t: os.unlink(os.path.join(t, "feed.txt"))])

    def test_missing_arm(self):
        self.no_verdict("no such arm directory",
                        extra=[lambda c, t: os.rename(t, t + "-gone")])

    def test_empty_arm(self):
        self.no_verdict("have no record", treatment=dict(treatment_arm(), records=[]))

    def test_empty_trace(self):
        def empty(c, t):
            for d in (c, t):
                open(os.path.join(d, "replay.jsonl"), "w").close()
            open(os.path.join(self.run_dir, "trace.jsonl"), "w").close()
        self.no_verdict("the arm has no records", extra=[empty])

    def test_lost_request(self):
        t = treatment_arm()
        del t["records"][5]
        self.no_verdict("1 of the trace's 8 requests have no record", treatment=t)

    def test_duplicate_request(self):
        t = treatment_arm()
        t["records"][5] = dict(t["records"][4])
        self.no_verdict("recorded twice", treatment=t)

    def test_record_of_another_trace(self):
        t = treatment_arm()
        t["records"][2]["input_length"] += 1
        self.no_verdict("does not match its trace request", treatment=t)

    def test_empty_decision_log(self):
        self.no_verdict("decision logs are empty", treatment=dict(treatment_arm(), reasons=[], feed=[]))

    def test_feed_sampler_cut(self):
        def cut(c, t):
            path = os.path.join(t, "feed.txt")
            with open(path) as f:
                lines = [l for l in f if not l.startswith("end")]
            with open(path, "w") as f:
                f.writelines(lines)
        self.no_verdict("did not run to its end", extra=[cut])

    def test_engine_outside_fleet(self):
        t = treatment_arm()
        t["records"][0]["engine"] = "http://127.0.0.1:1"
        self.no_verdict("not an engine of the fleet", treatment=t)

    def test_fleet_sizes_differ(self):
        self.no_verdict("fleets of 4 and 3 engines",
                        t_meta={"engines": ENGINES[:3], "engine_metrics": ["engine-%d.txt" % i for i in range(3)]})

    def test_bad_metrics_line(self):
        def bad(c, t):
            with open(os.path.join(t, "router-metrics.txt"), "a") as f:
                f.write("kvroute_in_flight{oops\n")
        self.no_verdict("not a Prometheus sample", extra=[bad])

    def test_no_gates(self):
        rc, _, err = self.canary(gates=[])
        self.assertEqual(rc, 2)
        self.assertIn("no gate given", err)

    def test_bad_gate_value(self):
        rc, _, err = self.canary(gates=["--min-active-engines", "5/4"])
        self.assertEqual(rc, 2)
        self.assertIn("0 < N <= M", err)


if __name__ == "__main__":
    unittest.main()
