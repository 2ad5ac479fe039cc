#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The hot-owner report on hand-made arms: throughput, completion, shares,
running max and reasons worked out by hand. ctest runs it with
PYTHONPATH=bench:bench/hot_owner."""
import io
import json
import os
import tempfile
import unittest
from contextlib import redirect_stdout

import report

S = 1_000_000_000
OWNER, PEER = "http://127.0.0.1:9000", "http://127.0.0.1:9001"


def rec(session, turn, engine, start_s, end_s, out=1000, prompt=1000, cached=800, ok=True, target=None):
    return {"session": session, "turn": turn, "engine": engine, "target": target or "http://r/v1/chat/completions",
            "send_mono_ns": int(start_s * S), "end_mono_ns": int(end_s * S), "e2e_ms": (end_s - start_s) * 1000,
            "output_tokens": out, "prompt_tokens": prompt, "cached_tokens": cached, "ok": ok}


def write_arm(run, arm, phase1, phase2, feed, decisions, scale=1):
    d = os.path.join(run, arm)
    os.makedirs(d)
    for name, recs in (("phase1.jsonl", phase1), ("phase2.jsonl", phase2)):
        with open(os.path.join(d, name), "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in recs)
    with open(os.path.join(d, "feed.txt"), "w") as f:
        f.write("\n".join(feed) + "\n")
    with open(os.path.join(d, "decisions.jsonl"), "w") as f:
        f.writelines(json.dumps({"reason": r}) + "\n" for r in decisions)
    with open(os.path.join(d, "arm.json"), "w") as f:
        json.dump({"owner": OWNER, "peer": PEER, "time_scale": scale, "turns": 2}, f)


class Report(unittest.TestCase):
    def test_figures(self):
        with tempfile.TemporaryDirectory() as run:
            # off: 2 trajectories x 2 turns over 10 s, all on the owner; one turn failed
            write_arm(run, "off",
                      [rec("a", 0, None, 0, 2, target=OWNER + "/v1/chat/completions"), rec("a", 1, OWNER, 2, 4)],
                      [rec("b", 0, OWNER, 1, 6), rec("b", 1, OWNER, 6, 10, ok=False, out=0)],
                      ["s 1 0 0 1 3 30 0 0 0 " + OWNER, "s 2 1 0 1 3 0 0 0 0 " + PEER,
                       "s 3 0 0 2 3 38 5 0 0 " + OWNER],
                      ["cache_hit", "cache_hit", "balance_shortest_queue"])
            # on: the same work in 5 s, half on the peer
            write_arm(run, "on",
                      [rec("a", 0, OWNER, 0, 2), rec("a", 1, OWNER, 2, 3)],
                      [rec("b", 0, PEER, 0, 4, cached=0), rec("b", 1, PEER, 4, 5)],
                      ["s 1 0 0 1 3 35 0 0 0 " + OWNER, "s 2 1 0 1 3 20 0 0 0 " + PEER],
                      ["owner_pressure_spill", "cache_hit"])
            with redirect_stdout(io.StringIO()):
                self.assertEqual(report.main(["report.py", run]), 0)
            off = report.arm_figures(os.path.join(run, "off"))
            on = report.arm_figures(os.path.join(run, "on"))
            self.assertAlmostEqual(off["wall_s"], 10.0)
            self.assertAlmostEqual(off["tok_s"], 300.0)           # 3,000 tokens of ok turns / 10 s
            self.assertEqual(off["complete"], 1)                  # b's second turn failed
            self.assertAlmostEqual(off["traj_per_hour"], 360.0)
            self.assertEqual(off["gen_share"], {"owner": 100.0})  # the direct turn counts for the owner
            self.assertEqual(off["running_max"], 38)
            self.assertEqual(off["reasons"], {"cache_hit": 2, "balance_shortest_queue": 1})
            self.assertAlmostEqual(on["tok_s"], 800.0)
            self.assertEqual(on["running_max"], 55)
            self.assertEqual(on["gen_share"], {"owner": 50.0, "peer": 50.0})
            self.assertAlmostEqual(on["cached_pct"], 60.0)
            with open(os.path.join(run, "results.md")) as f:
                md = f.read()
            self.assertIn("Throughput with owner pressure: 2.667x", md)
            self.assertIn("cache reuse change: -20.00 points", md)


if __name__ == "__main__":
    unittest.main()
