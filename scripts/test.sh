#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The test command: the format check, every Criterion suite through ctest, then again under
# ASan+UBSan, then the seqlock suites under TSan, then each fuzz target for a
# bounded time (scripts/fuzz.sh). Warnings are errors here.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=$(nproc)

"$root/scripts/install-deps.sh"

echo "=== format: every C file as .clang-format says (scripts/check-format.sh) ==="
"$root/scripts/check-format.sh"

run_suite() { # name cmake-flags... -- ctest-flags...
  local name=$1; shift
  local cmake_flags=() ctest_flags=()
  while (($#)) && [[ $1 != -- ]]; do cmake_flags+=("$1"); shift; done
  (($#)) && shift
  ctest_flags=("$@")
  echo "=== test suite: $name ==="
  cmake -S . -B "build/$name" -DKVR_WERROR=ON "${cmake_flags[@]}" >/dev/null
  cmake --build "build/$name" -j "$jobs" >/dev/null
  local log="build/$name/ctest.log" rc=0
  ctest --test-dir "build/$name" -V -j "$jobs" "${ctest_flags[@]}" >"$log" 2>&1 || rc=$?
  # Criterion's per-suite summaries and ctest's verdict; the whole log on failure.
  grep -E 'Synthesis: Tested|tests passed|tests failed|The following tests|\*\*\*(Failed|Timeout|Exception)' "$log" || true
  if ((rc != 0)); then
    echo "=== $name: failed; full log follows ==="
    cat "$log"
    # Each failed test's own output again, last, where a truncated log still shows it.
    local n
    for n in $(sed -n 's/^[[:space:]]*\([0-9][0-9]*\) - .*(\(Failed\|Timeout\|SEGFAULT\|Subprocess aborted\|Exception\|Child aborted\).*/\1/p' "$log"); do
      echo "=== $name: output of failed test #$n ==="
      grep -E "^$n: " "$log" | grep -vE "^$n: \[(RUN |PASS)\]" | tail -n 150
    done
    return "$rc"
  fi
}

run_suite plain -DCMAKE_BUILD_TYPE=RelWithDebInfo --
run_suite asan -DCMAKE_BUILD_TYPE=Debug -DKVR_ASAN=ON -- -LE slow
run_suite tsan -DCMAKE_BUILD_TYPE=Debug -DKVR_TSAN=ON -- -L tsan
echo "=== fuzzing: every target for ${KVR_FUZZ_SECONDS:-30}s (tests/fuzz/README.md) ==="
"$root/scripts/fuzz.sh"
echo "=== all test suites passed ==="
