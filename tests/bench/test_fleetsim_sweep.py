#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The sweep's statistics: intervals over seeds and the paired ES verdict."""
import os
import sys
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


if __name__ == "__main__":
    unittest.main()
