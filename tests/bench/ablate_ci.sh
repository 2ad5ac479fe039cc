#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A tiny ablation in CI: 2 policies, a 20-second trace, 2 engines, ES=0 and
# ES=1 each. Passes when every cell's requests succeed and the comparison has
# one row per policy with figures in every column.
set -euo pipefail
build=${1:?usage: ablate_ci.sh BUILD_DIR}
src=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d /tmp/kvr-ablate-ci.XXXXXX)
trap 'rm -rf "$out"' EXIT
"$src/bench/ablate/run.sh" --bin "$build" --no-build --policies sticky,affinity --preset short \
  --window 20 --engines 2 --speed 4 --time-scale 4 --quiet --out "$out" >"$out/stdout.txt" 2>&1 || {
  cat "$out/stdout.txt"; for f in "$out"/*/*/*.log; do echo "== $f"; tail -5 "$f"; done; exit 1; }
cat "$out/stdout.txt"
for p in sticky affinity; do
  row=$(grep "^| $p |" "$out/results.md") || { echo "no row for $p"; exit 1; }
  [[ $row != *"n/a"* ]] || { echo "missing figures: $row"; exit 1; }
  for arm in es0 es1; do
    [[ -s $out/$p/$arm/replay.jsonl ]] || { echo "no records for $p $arm"; exit 1; }
  done
  [[ -s $out/$p/es1/feed.txt ]] || { echo "no feed samples for $p"; exit 1; }
done
grep -q '^| sticky | [0-9]' <(sed -n '/Feed freshness/,$p' "$out/results.md") || { echo "no feed ages"; exit 1; }
echo "ablate_ci: ok"
