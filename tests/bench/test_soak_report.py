#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The soak verdict on hand-made samples: a flat run passes; RSS or fds that
grow over the last half, a lost request, counters left charged at an idle
check or a router that went away each fail it, with the reason said. ctest
runs it with PYTHONPATH=bench:bench/soak."""
import unittest

import report


def sample(t, rss=50_000, fds=150, feed_pid=200, feed_rss=3_000, feed_fds=18, kind="tick", idle=None):
    s = {"t": t, "kind": kind, "fault": "",
         "router": {"pid": 100, "rss_kb": rss, "fds": fds, "metrics": {"in_flight": 0, "shadow": 0}},
         "feed": {"pid": feed_pid, "rss_kb": feed_rss, "fds": feed_fds, "metrics": None},
         "client": None}
    if idle is not None:
        s["idle"] = {"client": idle, "router": idle, "waited_s": 1.0}
    return s


def run(n=48, step=5, **kw):
    """n samples every step seconds, then one idle sample; kw: a function of t for any field."""
    out = []
    for i in range(1, n + 1):
        t = i * step
        out.append(sample(t, **{k: f(t) for k, f in kw.items()}))
    t = n * step + 1
    out.append(sample(t, kind="idle", idle=True, **{k: f(t) for k, f in kw.items()}))
    return out, n * step


FINAL = {"sent": 1000, "answered": 1000, "ok": 990, "gave_up": 5, "failed": 5, "lost": 0,
         "kinds": {"ok": 990, "gave_up": 5, "no_done": 5}}


class Verdict(unittest.TestCase):
    def verdict(self, samples, duration, final=FINAL):
        return report.verdict(samples, final, duration, 60, 10, 10, 8)

    def test_a_flat_run_passes(self):
        samples, d = run(rss=lambda t: 50_000 + (t % 20) * 10)
        res = self.verdict(samples, d)
        self.assertEqual(res["why_not_flat"], [])
        self.assertEqual(res["router_rss_kb"]["first"], 50_050)
        self.assertEqual(res["idle_at_zero"], 1)
        self.assertIn("verdict: FLAT", report.summary_text(res, 10))

    def test_warm_up_growth_in_the_first_half_is_not_a_leak(self):
        samples, d = run(rss=lambda t: min(50_000, 30_000 + t * 500))
        self.assertEqual(self.verdict(samples, d)["why_not_flat"], [])

    def test_rss_that_keeps_growing_fails(self):
        samples, d = run(rss=lambda t: 50_000 + t * 200)
        why = self.verdict(samples, d)["why_not_flat"]
        self.assertEqual(len(why), 1)
        self.assertTrue(why[0].startswith("router_rss_kb grew"), why)

    def test_fds_that_keep_growing_fail(self):
        samples, d = run(fds=lambda t: 150 + t)
        why = self.verdict(samples, d)["why_not_flat"]
        self.assertTrue(any(w.startswith("router_fds grew") for w in why), why)

    def test_fds_are_judged_at_idle_checks_when_the_first_half_had_one(self):
        samples, d = run(fds=lambda t: 150 + t)  # grows under load ...
        idle = sample(100, kind="idle", idle=True, fds=120)
        samples.insert(20, idle)
        samples[-1]["router"]["fds"] = 125  # ... but not between idle checks
        res = self.verdict(samples, d)
        self.assertEqual(res["why_not_flat"], [])
        self.assertEqual(res["router_fds"]["judged_on"], "idle checks")
        samples[-1]["router"]["fds"] = 180
        why = self.verdict(samples, d)["why_not_flat"]
        self.assertEqual(why, ["router_fds at idle grew 50.0% (120 -> 180)"])

    def test_a_few_more_fds_are_within_the_slack(self):
        samples, d = run(fds=lambda t: 150 + (6 if t > 120 else 0))
        self.assertEqual(self.verdict(samples, d)["why_not_flat"], [])

    def test_statefeed_is_judged_on_its_last_process_only(self):
        # killed at 100 s: a new process with a smaller RSS that is flat afterwards
        samples, d = run(feed_pid=lambda t: 200 if t < 100 else 300,
                         feed_rss=lambda t: 9_000 if t < 100 else 3_000)
        res = self.verdict(samples, d)
        self.assertEqual(res["why_not_flat"], [])
        self.assertEqual(res["feed_rss_kb"]["first"], 3_000)

    def test_a_statefeed_restarted_just_before_the_end_is_reported_not_judged(self):
        samples, d = run(feed_pid=lambda t: 200 if t < 230 else 300)
        res = self.verdict(samples, d)
        self.assertEqual(res["why_not_flat"], [])
        self.assertIn("note", res["feed_rss_kb"])

    def test_a_lost_request_fails(self):
        samples, d = run()
        res = self.verdict(samples, d, dict(FINAL, lost=1, kinds={"lost_timeout": 1}))
        self.assertEqual(res["why_not_flat"], ["1 requests lost (sent, never answered)"])

    def test_counters_left_charged_at_an_idle_check_fail(self):
        samples, d = run()
        samples[-1]["idle"]["router"] = False
        why = self.verdict(samples, d)["why_not_flat"]
        self.assertEqual(why, ["in-flight counters not back to 0 at 1 of 1 idle checks"])

    def test_a_router_gone_at_a_sample_fails(self):
        samples, d = run()
        samples[10]["router"]["rss_kb"] = None
        why = self.verdict(samples, d)["why_not_flat"]
        self.assertIn("the router was not running at some sample", why)

    def test_statefeed_exiting_unasked_fails_a_simulator_is_only_reported(self):
        samples, d = run()
        res = report.verdict(samples, FINAL, d, 60, 10, 10, 8, [(173.0, "simulator-1", 137, "none")])
        self.assertEqual(res["why_not_flat"], [])
        self.assertEqual(res["unasked_exits"][0]["status"], 137)
        self.assertIn("simulator-1 at 173 s (status 137, during none)", report.summary_text(res, 10))
        res = report.verdict(samples, FINAL, d, 60, 10, 10, 8, [(90.5, "statefeed", 139, "garbage engine 3")])
        self.assertEqual(res["why_not_flat"], ["statefeed exited unasked at 90.5 s (status 139) during garbage engine 3"])

    def test_missing_final_counters_fail(self):
        samples, d = run()
        self.assertIn("the client's final counters are missing", self.verdict(samples, d, None)["why_not_flat"])


class Prometheus(unittest.TestCase):
    def test_samples_with_and_without_labels(self):
        text = ('# HELP x y\nkvroute_in_flight 3\n'
                'kvroute_engine_requests{engine="http://a:1",kind="shadow"} 2\n'
                'broken line\nkvroute_requests_total{status="200"} 1e3\n')
        self.assertEqual(report.parse_prom(text), [
            ("kvroute_in_flight", {}, 3.0),
            ("kvroute_engine_requests", {"engine": "http://a:1", "kind": "shadow"}, 2.0),
            ("kvroute_requests_total", {"status": "200"}, 1000.0)])


if __name__ == "__main__":
    unittest.main()
