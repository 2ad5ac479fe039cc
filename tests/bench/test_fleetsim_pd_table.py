#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The P:D table's figures and verdicts (bench/fleetsim/pd_table.py)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench", "fleetsim"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
import pd_table  # noqa: E402


def rec(ttft, e2e, tokens, ok=True):
    return {"ok": ok, "ttft_ms": ttft, "e2e_ms": e2e, "output_tokens": tokens}


class Figures(unittest.TestCase):
    def test_tpot_is_the_time_per_token_after_the_first(self):
        f = pd_table.figures([rec(100, 1100, 11), rec(200, 400, 3), rec(50, 50, 1)])
        # (1100-100)/10 = 100, (400-200)/2 = 100; one token has no TPOT
        self.assertEqual(f["tpot_p50"], 100)
        self.assertEqual(f["ttft_p50"], 100)
        self.assertEqual(f["ok"], 3)

    def test_failed_requests_count_in_no_percentile(self):
        f = pd_table.figures([rec(100, 200, 2), rec(9999, 99999, 2, ok=False)])
        self.assertEqual(f["ttft_p90"], 100)
        self.assertEqual(f["requests"], 2)


class Verdict(unittest.TestCase):
    def test_worse_only_when_the_whole_interval_is_above_one(self):
        self.assertIn("worse", pd_table.ratio_cell(1.5, 0.2))
        self.assertNotIn("worse", pd_table.ratio_cell(1.5, 0.6))
        self.assertIn("better", pd_table.ratio_cell(0.5, 0.2))
        self.assertEqual(pd_table.ratio_cell(None, None), "—")

    def test_split_names(self):
        self.assertEqual(pd_table.split_name(0, 4), "colocated")
        self.assertEqual(pd_table.split_name(1, 4), "1:3")


if __name__ == "__main__":
    unittest.main()
