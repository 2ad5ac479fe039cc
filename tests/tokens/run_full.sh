#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The full comparison: 10,000 texts per family (COUNT to change), each family's
# line "checked N texts, T tokens, M mismatches, F failures"; exits 1 on any mismatch.
#   tests/tokens/run_full.sh [BUILD_DIR] [COUNT] [SEED]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build/plain}
count=${2:-10000}
seed=${3:-20261201}
cmake --build "$build" --target kvroute-tokenize >/dev/null
status=0
for family in qwen3 llama3_1 deepseek_v3 gptoss; do
  "$here/check.sh" "$build/tokens/kvroute-tokenize" "$family" "$count" "$seed" || status=1
done
exit $status
