#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds every fuzz target with clang's libFuzzer (ASan+UBSan) into build/fuzz
# and runs each for a bounded time on a copy of its seed corpus, two at a time.
# Prints one line per target (executions, coverage, corpus size) and exits
# non-zero when any target crashes, leaks, times out on one input or goes past
# its memory limit; the input that did it is kept under build/fuzz/artifacts/.
#
#   scripts/fuzz.sh [SECONDS]      (default: $KVR_FUZZ_SECONDS, else 30)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
seconds=${1:-${KVR_FUZZ_SECONDS:-30}}
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: SECONDS: expected a positive integer, got '$seconds'" >&2; exit 2; }
if ! command -v clang >/dev/null 2>&1; then
  echo "fuzz.sh: clang not found (apt-get install clang libclang-rt-dev); the corpus replays under gcc still run in ctest" >&2
  exit 2
fi
build=build/fuzz
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DKVR_FUZZ=ON -DKVR_WERROR=ON >/dev/null
cmake --build "$build" --target kvr-fuzz-all -j "$(nproc)" >/dev/null
mkdir -p "$build/artifacts" "$build/logs"

run_one() { # name
  local name=$1 bin="$build/tests/fuzz/kvr-fuzz-$1" work="$build/corpus/$1" log="$build/logs/$1.log"
  rm -rf "$work" && mkdir -p "$work" && cp -r "tests/fuzz/corpus/$name/." "$work/"
  local rc=0
  "$bin" "$work" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 -malloc_limit_mb=512 \
    -print_final_stats=1 -artifact_prefix="$build/artifacts/$name-" >"$log" 2>&1 || rc=$?
  local execs cov corp
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
  corp=$(ls "$work" | wc -l)
  if ((rc != 0)); then
    echo "fuzz $name: FAILED (exit $rc) after ${execs:-?} executions; log follows"
    tail -n 60 "$log"
    return 1
  fi
  echo "fuzz $name: ${seconds}s, ${execs:-0} executions, coverage ${cov:-0} edges, corpus ${corp} inputs"
}
export -f run_one
export build seconds

targets=()
for bin in "$build"/tests/fuzz/kvr-fuzz-*; do
  [[ -x $bin ]] && targets+=("${bin##*/kvr-fuzz-}")
done
((${#targets[@]})) || { echo "fuzz.sh: no fuzz targets were built" >&2; exit 1; }
printf '%s\n' "${targets[@]}" | xargs -P 2 -I{} bash -c 'run_one "$@"' _ {}
