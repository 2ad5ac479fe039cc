#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The ablation driver: for each policy, a matched pair of runs that differ in
# one flag only (--es 0 vs --es 1): the same trace, the same seeds, and a fresh
# simulated fleet, statefeed and router for each arm, so no cache, pin or
# counter survives from one arm into the other. Then the comparator writes
# results.md, charts and the table.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
orig_args="$*"
policies="sticky,affinity,load_only,lmetric,cache_aware,cost,power_of_two,round_robin,random"
trace="" preset="study" window="" engines=4 seed=1 speed=1 time_scale=1 duration=""
out="" bin="$root/build/plain" build=1 quiet=0 sim_args="" router_args="" arms="0,1"
max_inflight=512 routers=1 flavor=vllm

usage() {
  cat <<EOF
Usage: bench/ablate/run.sh [options]
Runs ES=0 and ES=1 for each policy on a fresh simulated fleet and compares them.

  --policies LIST     comma-separated policies (default: $policies)
                      "sticky" is oneshot placement + load_only; "cache_aware_op" is
                      cache_aware with --owner-pressure 1
  --trace FILE        trace to replay (default: kvroute-tracegen --preset PRESET --seed SEED)
  --preset NAME       tracegen preset when no --trace is given: study or short (default study)
  --window S          tracegen window in seconds (overrides the preset's)
  --engines N         simulated engines (default 4)
  --seed N            seed of the trace, the simulator and the router's policies (default 1)
  --speed X           replay time scale (default 1)
  --time-scale X      simulator time scale: simulated seconds per real second (default 1);
                      use the same value as --speed to replay a trace faster
  --duration S        replay only the first S seconds of the trace
  --max-inflight N    replay concurrency bound (default 512)
  --arms LIST         ES values to run (default 0,1)
  --routers N         kvroute processes in front of the one fleet (default 1): same flags,
                      same engines, same statefeed segment, each its own port and decision
                      log; the trace is split by session (round-robin in order of first
                      appearance, the same split in every cell) and one replay per router
                      sends its part; the records are merged with the whole trace's indexes
  --out DIR           run directory (default build/ablate/run-<date>)
  --bin DIR           build directory holding the programs (default build/plain)
  --no-build          do not run cmake --build first
  --flavor NAME       vllm or sglang (default vllm): kvroute-sim's --flavor and the kind
                      statefeed polls it as (vllm: /metrics, no caps or pending prefill;
                      sglang: /v1/loads, kvroute-fleetsim's default feed source)
  --sim-args "..."    extra flags for kvroute-sim
  --router-args "..." extra flags for kvroute
  --quiet             less output
  -h, --help          this text
Every process started is stopped on exit, also on Ctrl-C.
EOF
}

die() { echo "ablate: $*" >&2; exit 2; }

while (($#)); do
  case "$1" in
    --policies) policies=$2; shift ;;
    --trace) trace=$2; shift ;;
    --preset) preset=$2; shift ;;
    --window) window=$2; shift ;;
    --engines) engines=$2; shift ;;
    --seed) seed=$2; shift ;;
    --speed) speed=$2; shift ;;
    --time-scale) time_scale=$2; shift ;;
    --duration) duration=$2; shift ;;
    --max-inflight) max_inflight=$2; shift ;;
    --arms) arms=$2; shift ;;
    --routers) routers=$2; shift ;;
    --out) out=$2; shift ;;
    --bin) bin=$2; shift ;;
    --no-build) build=0 ;;
    --flavor) flavor=$2; shift ;;
    --sim-args) sim_args=$2; shift ;;
    --router-args) router_args=$2; shift ;;
    --quiet) quiet=1 ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  shift
done

[[ $engines =~ ^[0-9]+$ && $engines -ge 1 ]] || die "--engines must be a positive number"
[[ $routers =~ ^[0-9]+$ && $routers -ge 1 ]] || die "--routers must be a positive number"
[[ $flavor == vllm || $flavor == sglang ]] || die "--flavor must be vllm or sglang"
out=${out:-$root/build/ablate/run-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

say() { ((quiet)) || echo "ablate: $*"; }

# ---- processes: bench/lib.sh stops everything started, on any exit ---------
# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
if ((build)); then say "building into $bin"; fi
kvr_fleet_programs ablate "$bin" "$build"
kvr_traps ablate

# ---- the trace --------------------------------------------------------------
if [[ -z $trace ]]; then
  trace=$out/trace.jsonl
  tg=(--preset "$preset" --seed "$seed" -o "$trace")
  [[ -n $window ]] && tg+=(--window "$window")
  "$TRACEGEN" "${tg[@]}" --summary 2>"$out/tracegen.txt"
  say "$(cat "$out/tracegen.txt")"
fi
[[ -s $trace ]] || die "trace $trace is empty or missing"

# ---- several routers: the trace split by session, once for every cell ----
split_offsets=()
if ((routers > 1)); then
  mkdir -p "$out/split"
  while read -r k off; do
    [[ $off == none ]] && die "--routers $routers: part $k of the trace has no request (fewer sessions than routers)"
    split_offsets[k]=$off
  done < <(python3 "$root/bench/ablate/split_trace.py" split "$trace" "$routers" "$out/split")
  say "trace split by session over $routers routers: $(for ((k = 0; k < routers; k++)); do
    printf 'r%d %d requests, ' "$k" "$(wc -l <"$out/split/trace-r$k.jsonl")"; done)"
fi

# ---- one cell ---------------------------------------------------------------
run_cell() { # policy es
  local policy=$1 es=$2 dir=$out/$1/es$2
  rm -rf "$dir"
  mkdir -p "$dir"
  local base rport shm="/kvr-ablate-$$-${policy}-es${es}"
  base=$(kvr_free_ports "$engines")
  rport=$(kvr_free_ports 1)
  kvr_shm_names+=("$shm")
  local urls=() i
  for ((i = 0; i < engines; i++)); do urls+=("http://127.0.0.1:$((base + i))"); done
  printf '%s\n' "${urls[@]}" >"$dir/engines.txt"

  # shellcheck disable=SC2086
  kvr_start "$dir/sim.log" "$SIM" --host 127.0.0.1 --port "$base" --engines "$engines" --seed "$seed" \
    --time-scale "$time_scale" --flavor "$flavor" $sim_args
  local sim_pid=$kvr_last_pid
  kvr_wait_port $((base + engines - 1)) 20 "$sim_pid" || { cat "$dir/sim.log" >&2; die "simulator did not start"; }

  # At a time scale above 1 the feed period, the router's max age, reconcile
  # period and cooldowns shrink by it, so in simulated time they are what they
  # would be against real engines.
  local feed_args=(--shm "$shm" --period-ms "$(kvr_scaled 50 10 "$time_scale")")
  for i in "${urls[@]}"; do feed_args+=(--engine "$i,kind=$flavor"); done
  kvr_start "$dir/statefeed.log" "$FEED" "${feed_args[@]}"
  local feed_pid=$kvr_last_pid
  local sampler_pid=""
  if [[ $es == 1 ]]; then
    kvr_start "$dir/sampler.log" "$SAMPLER" --shm "$shm" --out "$dir/feed.txt" --wait 10
    sampler_pid=$kvr_last_pid
  fi

  local r_args=(--es "$es" --shm "$shm" --seed "$seed" --max-age-ms "$(kvr_scaled 2000 50 "$time_scale")"
                --reconcile-s "$(kvr_scaled 30 1 "$time_scale")" --spill-cooldown-ms "$(kvr_scaled 1000 1 "$time_scale")"
                --index-ttl-ms "$(kvr_scaled 300000 1000 "$time_scale")" --session-ttl-s "$(kvr_scaled 600 10 "$time_scale")")
  case $policy in
    cache_aware_op) r_args+=(--policy cache_aware --owner-pressure 1) ;;
    *) r_args+=(--policy "$policy") ;;
  esac
  for i in "${urls[@]}"; do r_args+=(--engine "$i"); done
  # One router, or several reading the same segment, each its own port and decision log.
  local rports=() router_pids=() sfx=() k
  if ((routers == 1)); then rports=("$rport"); sfx=("")
  else
    rport=$(kvr_free_ports "$routers")
    for ((k = 0; k < routers; k++)); do rports+=($((rport + k))); sfx+=("-r$k"); done
  fi
  # /metrics and /engines are on each router's admin listener; replay reads X-Kvroute-Engine.
  local aport
  aport=$(kvr_free_ports "$routers")
  for ((k = 0; k < routers; k++)); do
    # shellcheck disable=SC2086
    kvr_start "$dir/router${sfx[k]}.log" "$ROUTER" --listen "127.0.0.1:${rports[k]}" \
      --admin-listen "127.0.0.1:$((aport + k))" --engine-header \
      --decision-log "$dir/decisions${sfx[k]}.jsonl" "${r_args[@]}" $router_args
    router_pids+=("$kvr_last_pid")
  done
  for ((k = 0; k < routers; k++)); do
    kvr_wait_port "${rports[k]}" 20 "${router_pids[k]}" || { cat "$dir/router${sfx[k]}.log" >&2; die "router did not start"; }
  done
  # The feed must be live before an ES=1 arm starts, or its first decisions are shadow-only.
  sleep 1

  local rc=0
  if ((routers == 1)); then
    local rp=(--url "http://127.0.0.1:$rport/v1/chat/completions" --trace "$trace" --out "$dir/replay.jsonl"
              --speed "$speed" --run-id "$policy-es$es" --max-inflight "$max_inflight")
    [[ -n $duration ]] && rp+=(--duration "$duration")
    say "cell $policy es=$es: fleet :$base..$((base + engines - 1)), router :$rport"
    # In the background and waited for, so a TERM or Ctrl-C reaches the trap at once.
    # The summary always goes to replay.txt; the progress line only to a terminal that asked for it.
    if ((quiet)); then "$REPLAY" "${rp[@]}" >"$dir/replay.txt" 2>"$dir/replay.err" &
    else "$REPLAY" "${rp[@]}" >"$dir/replay.txt" & fi
    local replay_pid=$!
    kvr_track "$replay_pid"
    wait "$replay_pid" || rc=$?
    kvr_forget "$replay_pid"
    ((quiet)) || sed 's/^/    /' "$dir/replay.txt"
  else
    say "cell $policy es=$es: fleet :$base..$((base + engines - 1)), routers :$rport..$((rport + routers - 1))"
    # One replay per router, each sending its part of the trace. A replay's clock
    # starts at its file's first request, so part k starts offset_k / speed later
    # than the earliest part: launched in order of offset, sleeping in between.
    local replay_pids=() t0 now due delay schedule
    # "<ns after the first launch> <part>" lines, earliest first; worked out before
    # the clock starts so the first replay is not late by it
    schedule=$(for ((k = 0; k < routers; k++)); do
                 awk -v o="${split_offsets[k]}" -v s="$speed" -v k="$k" 'BEGIN { printf "%.0f %d\n", o / s * 1e6, k }'
               done | sort -n)
    t0=$(date +%s%N)
    while read -r delay k; do
      due=$((t0 + delay))
      now=$(date +%s%N)
      if ((due > now)); then sleep "$(printf '%d.%09d' $(((due - now) / 1000000000)) $(((due - now) % 1000000000)))"; fi
      local rp=(--url "http://127.0.0.1:${rports[k]}/v1/chat/completions" --trace "$out/split/trace-r$k.jsonl"
                --out "$dir/replay-r$k.jsonl" --speed "$speed" --run-id "$policy-es$es-r$k"
                --max-inflight "$max_inflight")
      [[ -n $duration ]] && rp+=(--duration "$duration")
      "$REPLAY" "${rp[@]}" >"$dir/replay-r$k.txt" 2>"$dir/replay-r$k.err" &
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
    for ((k = 0; k < routers; k++)); do echo "== router $k"; cat "$dir/replay-r$k.txt"; done >"$dir/replay.txt"
    ((quiet)) || sed 's/^/    /' "$dir/replay.txt"
  fi
  for ((k = 0; k < routers; k++)); do
    curl -s --max-time 5 "http://127.0.0.1:$((aport + k))/metrics" >"$dir/router-metrics${sfx[k]}.txt" || true
    curl -s --max-time 5 "http://127.0.0.1:$((aport + k))/engines" >"$dir/engines${sfx[k]}.json" || true
  done

  [[ -n $sampler_pid ]] && kvr_stop "$sampler_pid"
  for k in "${router_pids[@]}"; do kvr_stop "$k"; done
  kvr_stop "$feed_pid"
  kvr_stop "$sim_pid"
  rm -f "/dev/shm/${shm#/}"
  return "$rc"
}

cat >"$out/run.txt" <<EOF
date: $(date -u +%Y-%m-%dT%H:%M:%SZ)
commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
machine: $(uname -srm), $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GB", $2/1048576}' /proc/meminfo)
command: bench/ablate/run.sh $orig_args
policies: $policies; engines: $engines ($flavor); routers: $routers; seed: $seed; speed: $speed; time scale: $time_scale
trace: $trace ($(wc -l <"$trace") requests)
EOF

IFS=, read -r -a policy_list <<<"$policies"
IFS=, read -r -a arm_list <<<"$arms"
failed=0
for policy in "${policy_list[@]}"; do
  for es in "${arm_list[@]}"; do
    run_cell "$policy" "$es" || { echo "ablate: cell $policy es=$es had failed requests" >&2; failed=1; }
  done
done

header="$(sed 's/$/  /' "$out/run.txt")"
python3 "$root/bench/ablate/compare.py" "$out" --policies "$policies" --header "$header" \
  --time-scale "$time_scale"
say "results: $out/results.md"
exit "$failed"
