#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The full reference corpus for the chat-template renderer: COUNT generated
# conversations per model family (default 10000) and 5*COUNT one-construct
# templates, rendered by the reference (tests/template, @huggingface/jinja) and
# then by kvroute-template-render. Prints one summary line per family; exits
# non-zero on any mismatch. ctest runs a 300-per-family sample of the same.
#   scripts/template-corpus.sh [COUNT] [SEED]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
count=${1:-10000}
seed=${2:-20261201}
out=build/plain/tests/template/corpus
"$root/scripts/install-deps.sh" >/dev/null
cmake -S . -B build/plain -DKVR_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build/plain --target kvroute-template-render -j "$(nproc)" >/dev/null
bin=build/plain/template/kvroute-template-render
mkdir -p "$out"
rc=0
for family in qwen3 llama3_1 deepseek_v3; do
  node tests/template/gen_cases.mjs --family "$family" --count "$count" --seed "$seed" --out "$out" >/dev/null
  printf '%-12s ' "$family"
  "$bin" "$out/$family.jinja" "$out/$family.jsonl" || rc=1
done
node tests/template/gen_features.mjs --count $((count * 5)) --seed "$seed" --out "$out" >/dev/null
printf '%-12s ' features
"$bin" - "$out/features.jsonl" || rc=1
exit "$rc"
