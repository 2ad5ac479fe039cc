# SPDX-License-Identifier: Apache-2.0
"""check_failure_tables.py fails on each way a failure table and its tests can disagree."""
import pathlib
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import check_failure_tables  # noqa: E402

DOC = """| when | failure | retried | test |
| --- | --- | --- | --- |
| before | timeout | {claim} | `drills::{name}` |
"""
TEST = """Test(drills, stall_is_retried)
{{
    /* failure table: {mark} */
    cr_expect_gt(kvr_harness_metric(&h, "{metric}"), 0);
}}

Test(drills, other)
{{
}}
"""


class CheckFailureTables(unittest.TestCase):
    def run_check(self, claim="yes", name="stall_is_retried", mark="retried",
                  metric='kvroute_retries_total{cause="first_byte_timeout"}'):
        with tempfile.TemporaryDirectory() as d:
            root = pathlib.Path(d)
            (root / "docs").mkdir()
            (root / "tests").mkdir()
            (root / "docs" / "a.md").write_text(DOC.format(claim=claim, name=name))
            (root / "tests" / "test_drills.c").write_text(TEST.format(mark=mark, metric=metric))
            return check_failure_tables.check(root, ["docs/a.md"])

    def test_agreeing_row_passes(self):
        self.assertEqual(self.run_check(), [])

    def test_doc_saying_not_retried_against_a_retrying_drill_fails(self):
        self.assertIn("declares 'retried'", self.run_check(claim="no")[0])

    def test_drill_saying_not_retried_against_the_doc_fails(self):
        self.assertIn("declares 'not retried'", self.run_check(mark="not retried")[0])

    def test_missing_test_fails(self):
        self.assertIn("no test drills::gone", self.run_check(name="gone")[0])

    def test_test_without_a_marker_fails(self):
        self.assertIn("0 failure-table markers", self.run_check(name="other")[0])

    def test_retried_marker_without_an_assertion_on_retries_fails(self):
        self.assertIn("asserts nothing", self.run_check(metric="kvroute_upstream_cut_total")[0])

    def test_a_doc_without_a_table_fails(self):
        with tempfile.TemporaryDirectory() as d:
            root = pathlib.Path(d)
            (root / "tests").mkdir()
            (root / "a.md").write_text("no table here\n")
            self.assertIn("no failure table", check_failure_tables.check(root, ["a.md"])[0])


if __name__ == "__main__":
    unittest.main()
