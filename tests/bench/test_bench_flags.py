# SPDX-License-Identifier: Apache-2.0
"""The bench tools that once read their numbers with atoi take them through the option table:
a value that is not wholly a number in range is refused before anything runs, with the one
error line every program uses, and --help prints each flag."""
import os
import subprocess
import unittest

# (binary env var, program name, bad argv, the error line)
CASES = [
    ("KVR_BIN_FEED_BENCH", "kvroute-feed-bench", ["--seconds", "5x"],
     "--seconds: expected an integer in [1, 86400], got '5x'"),
    ("KVR_BIN_FEED_BENCH", "kvroute-feed-bench", ["--engines", "8,1001"],
     "--engines: expected fleet sizes 1 to 1000, comma separated, got '1001'"),
    ("KVR_BIN_RELAY_DELAY", "kvroute-relay-delay", ["--a", "x", "--b", "y", "--count", "12x"],
     "--count: expected an integer in [1, 100000], got '12x'"),
    ("KVR_BIN_BENCH_ENGINE", "kvroute-bench-engine", ["--port", "12abc"],
     "--port: expected an integer in [1, 65535], got '12abc'"),
    ("KVR_BIN_BENCH_ENGINE", "kvroute-bench-engine", ["--port", "1", "--chunks", "-1"],
     "--chunks: expected an integer in [0, 200], got '-1'"),
]


def run(env_var, argv):
    return subprocess.run([os.environ[env_var]] + argv, capture_output=True, text=True, timeout=30)


class BenchFlags(unittest.TestCase):
    def test_bad_numbers_are_refused_with_the_one_error_line(self):
        for env_var, name, argv, line in CASES:
            with self.subTest(argv=argv):
                p = run(env_var, argv)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertEqual(p.stderr, f"{name}: {line}\n")
                self.assertEqual(p.stdout, "")

    def test_help_lists_every_flag(self):
        flags = {
            "KVR_BIN_FEED_BENCH": ["--sim", "--statefeed", "--engines", "--sources", "--period-ms",
                                   "--seconds", "--prefill-tokens", "--push-idle-ms", "--base-port"],
            "KVR_BIN_RELAY_DELAY": ["--a", "--b", "--count", "--interval-ms"],
            "KVR_BIN_BENCH_ENGINE": ["--port", "--chunks"],
        }
        for env_var, names in flags.items():
            with self.subTest(env_var=env_var):
                p = run(env_var, ["--help"])
                self.assertEqual(p.returncode, 0, p.stderr)
                for flag in names:
                    self.assertIn(f"  {flag} ", p.stdout)


if __name__ == "__main__":
    unittest.main()
