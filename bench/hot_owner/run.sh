#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The hot-owner scenario: 2 engines x 38 slots, 76 growing-prefix trajectories
# x 3 turns x 1,000 output tokens, all sharing one long prefix. Both arms are
# forced to the same start — the prefix's owner runs 35 trajectories, the peer
# is idle — before the other 41 are released through the router. The arms
# differ in one flag: cache_aware without and with --owner-pressure.
#
# Forcing the start: one warm request through the router makes an engine the
# prefix's owner in the router's index; the first turns of 35 trajectories
# then go straight to that engine (so no policy decides them), their later
# turns through the router. The other 41 are released when the owner reports
# 35 running.
#
# At the end kvroute-canary (bench/canary/) compares the arms, off as the
# control and on as the treatment, against the gates of --canary-args; the
# script exits non-zero when a gate fails or the arms cannot be compared.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
orig_args="$*"
bin="$root/build/plain" build=1 out="" seed=1 time_scale=10 slots=38 trajectories=76 held=35
turns=3 output_tokens=1000 prefix_tokens=12000 sim_args="" router_args="" arms="off,on"
canary_args="--min-active-engines 2/2 --max-replication 3 --min-telemetry-coverage 1.0 --max-cache-loss-pp 10"
canary_args+=" --min-primary-ratio 1.0 --no-increase errors,429,retractions"

usage() {
  cat <<EOF
Usage: bench/hot_owner/run.sh [options]
Runs the hot-owner scenario for cache_aware without (off) and with (on) --owner-pressure.

  --time-scale X      simulated seconds per real second (default $time_scale)
  --slots N           max running requests per engine (default $slots)
  --trajectories N    trajectories in all (default $trajectories)
  --held N            trajectories placed on the owner before the rest are released (default $held)
  --turns N           turns per trajectory (default $turns)
  --output-tokens N   output tokens per turn (default $output_tokens)
  --prefix-tokens N   shared prefix length in tokens (default $prefix_tokens)
  --seed N            trace and simulator seed (default 1)
  --arms LIST         off, on or both (default off,on)
  --out DIR           run directory (default build/hot_owner/run-<date>)
  --bin DIR           build directory with the programs (default build/plain)
  --no-build          do not run cmake --build first
  --sim-args "..."    extra flags for kvroute-sim
  --router-args "..." extra flags for kvroute
  --canary-args "..." gates for kvroute-canary, off vs on (default: $canary_args)
  -h, --help          this text
Every process started is stopped on exit, also on Ctrl-C.
EOF
}
die() { echo "hot_owner: $*" >&2; exit 2; }

while (($#)); do
  case "$1" in
    --time-scale) time_scale=$2; shift ;;
    --slots) slots=$2; shift ;;
    --trajectories) trajectories=$2; shift ;;
    --held) held=$2; shift ;;
    --turns) turns=$2; shift ;;
    --output-tokens) output_tokens=$2; shift ;;
    --prefix-tokens) prefix_tokens=$2; shift ;;
    --seed) seed=$2; shift ;;
    --arms) arms=$2; shift ;;
    --out) out=$2; shift ;;
    --bin) bin=$2; shift ;;
    --no-build) build=0 ;;
    --sim-args) sim_args=$2; shift ;;
    --router-args) router_args=$2; shift ;;
    --canary-args) canary_args=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  shift
done
((held < trajectories)) || die "--held must be below --trajectories"
out=${out:-$root/build/hot_owner/run-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
kvr_fleet_programs hot_owner "$bin" "$build"
kvr_traps hot_owner

# ---- the trajectories: one tenant, so every trajectory shares the prefix ----
"$TRACEGEN" --tenants 1 --system-tokens "$prefix_tokens" --sessions "$trajectories" --turns "$turns" \
  --session-rate 1000 --window 100000 --think 0 --decode-ms 0 --output-tokens "$output_tokens" \
  --output-max "$output_tokens" --first-user-tokens 400 --user-tokens 300 --length-sigma 0.3 \
  --seed "$seed" -o "$out/trace.jsonl"
python3 "$root/bench/hot_owner/phases.py" "$out" "$held" "$output_tokens"

run_arm() { # off|on
  local arm=$1 dir=$out/$1
  rm -rf "$dir"
  mkdir -p "$dir"
  local base rport shm="/kvr-hot-$$-$arm"
  base=$(kvr_free_ports 2)
  rport=$(kvr_free_ports 1)
  kvr_shm_names+=("$shm")
  local e0="http://127.0.0.1:$base" e1="http://127.0.0.1:$((base + 1))"
  # shellcheck disable=SC2086
  kvr_start "$dir/sim.log" "$SIM" --host 127.0.0.1 --port "$base" --engines 2 --flavor sglang \
    --max-running "$slots" --seed "$seed" --time-scale "$time_scale" $sim_args
  local sim_pid=$kvr_last_pid
  kvr_wait_port $((base + 1)) 20 "$sim_pid" || { cat "$dir/sim.log" >&2; die "simulator did not start"; }
  # Router and feed periods shrink with the time scale, so that in simulated
  # time they are what they would be against real engines.
  local period cooldown
  period=$(kvr_scaled 50 10 "$time_scale")
  cooldown=$(kvr_scaled 1000 1 "$time_scale")
  kvr_start "$dir/statefeed.log" "$FEED" --shm "$shm" --period-ms "$period" \
    --engine "$e0,kind=sglang" --engine "$e1,kind=sglang"
  local feed_pid=$kvr_last_pid
  kvr_start "$dir/sampler.log" "$SAMPLER" --shm "$shm" --out "$dir/feed.txt" --wait 10
  local sampler_pid=$kvr_last_pid
  local op=0
  [[ $arm == on ]] && op=1
  # shellcheck disable=SC2086
  local aport
  aport=$(kvr_free_ports 1)
  kvr_start "$dir/router.log" "$ROUTER" --listen "127.0.0.1:$rport" --engine "$e0" --engine "$e1" \
    --admin-listen "127.0.0.1:$aport" --engine-header \
    --policy cache_aware --owner-pressure "$op" --es 1 --shm "$shm" --decision-log "$dir/decisions.jsonl" \
    --seed "$seed" --spill-cooldown-ms "$cooldown" $router_args
  local router_pid=$kvr_last_pid
  kvr_wait_port "$rport" 20 "$router_pid" || { cat "$dir/router.log" >&2; die "router did not start"; }
  sleep 1
  local url="http://127.0.0.1:$rport/v1/chat/completions"

  "$REPLAY" --url "$url" --trace "$out/warm.trace.jsonl" --out "$dir/warm.jsonl" --run-id "warm-$arm" --quiet || true
  local owner peer
  owner=$(python3 -m kvrbench.tool first-engine "$dir/warm.jsonl")
  [[ -n $owner ]] || die "the warm request named no engine"
  peer=$e0
  [[ $owner == "$e0" ]] && peer=$e1
  echo "hot_owner: arm $arm: owner $owner, peer $peer"

  "$REPLAY" --url "$url" --first-turn-url "$owner/v1/chat/completions" --closed-loop \
    --trace "$out/phase1.trace.jsonl" --out "$dir/phase1.jsonl" --run-id "p1-$arm" --quiet &
  local p1=$!
  kvr_track "$p1"
  local running failures=()
  running=$(kvr_wait_running "$owner" "$held" 120) ||
    failures+=("the owner reached $running running, not the $held of the forced start")
  echo "hot_owner: arm $arm: owner running $running, peer running $(kvr_running "$peer"); releasing the rest"
  local rc=0
  "$REPLAY" --url "$url" --closed-loop --trace "$out/phase2.trace.jsonl" --out "$dir/phase2.jsonl" \
    --run-id "p2-$arm" --quiet &
  local p2=$!
  kvr_track "$p2"
  wait "$p2" || rc=$?
  wait "$p1" || rc=$?
  kvr_forget "$p1"
  kvr_forget "$p2"
  # Exit 1 is failed requests, which the canary counts; more is a replay that could not run.
  ((rc <= 1)) || failures+=("kvroute-replay exited $rc")
  local name pid
  for name in sampler router feed sim; do
    pid=${name}_pid
    kill -0 "${!pid}" 2>/dev/null || failures+=("$name exited before the end of the run")
  done
  curl -sf --max-time 5 "http://127.0.0.1:$aport/metrics" >"$dir/router-metrics.txt" ||
    failures+=("the router's /metrics could not be read")
  curl -sf --max-time 5 "$e0/metrics" >"$dir/engine-0-metrics.txt" || failures+=("$e0/metrics could not be read")
  curl -sf --max-time 5 "$e1/metrics" >"$dir/engine-1-metrics.txt" || failures+=("$e1/metrics could not be read")
  # What report.py and kvroute-canary read (bench/canary/README.md).
  python3 "$root/bench/hot_owner/arm_json.py" "$dir/arm.json" "$owner" "$peer" "$time_scale" "$turns" \
    "$running" "$e0" "$e1" "${failures[@]}"
  kvr_stop "$sampler_pid"
  kvr_stop "$router_pid"
  kvr_stop "$feed_pid"
  kvr_stop "$sim_pid"
  rm -f "/dev/shm/${shm#/}"
  return "$rc"
}

cat >"$out/run.txt" <<EOF
date: $(date -u +%Y-%m-%dT%H:%M:%SZ)
commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
machine: $(uname -srm), $(nproc) cores
command: bench/hot_owner/run.sh $orig_args
EOF
IFS=, read -r -a arm_list <<<"$arms"
failed=0
for arm in "${arm_list[@]}"; do
  run_arm "$arm" || { echo "hot_owner: arm $arm had failed requests" >&2; failed=1; }
done
python3 "$root/bench/hot_owner/report.py" "$out"

canary_rc=0
if [[ -f $out/off/arm.json && -f $out/on/arm.json && ,$arms, == *,off,* && ,$arms, == *,on,* ]]; then
  echo "hot_owner: kvroute-canary off (control) vs on (treatment): $canary_args"
  # shellcheck disable=SC2086
  "$root/bench/canary/kvroute-canary" "$out/off" "$out/on" $canary_args --json "$out/canary.json" \
    | tee "$out/canary.txt" || canary_rc=${PIPESTATUS[0]}
else
  echo "hot_owner: the canary compares both arms (--arms off,on); skipped"
fi
((failed)) && exit "$failed"
exit "$canary_rc"
