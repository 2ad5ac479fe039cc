#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Bursts of 100 simultaneous requests split over 1, 2 or 4 routers, with and
# without --share, in front of 4 simulated engines (ES=0: the routers see
# only their own counters and, sharing, each other's): how far each burst's
# split over the engines is from 25 each.
#
#   bench/share_hosts/burst.sh [--build DIR] [--policies lmetric,load_only] [--repeats 3]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
orig_args="$*"
build="$root/build/plain"
policies=lmetric,load_only
repeats=3
while (($#)); do
  case $1 in
  --build) build=$2; shift 2 ;;
  --policies) policies=$2; shift 2 ;;
  --repeats) repeats=$2; shift 2 ;;
  *) echo "burst: unknown argument $1" >&2; exit 2 ;;
  esac
done
sim="$build/bench/sim/kvroute-sim"
router="$build/router/kvroute"
[[ -x $sim && -x $router ]] || { echo "burst: build kvroute and kvroute-sim in $build" >&2; exit 2; }
kvr_traps burst
dir=$(mktemp -d /tmp/kvr-burst.XXXXXX)
kvr_tmp_dirs+=("$dir")
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "machine: $(uname -srm), $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GB", $2/1048576}' /proc/meminfo)"
echo "command: bench/share_hosts/burst.sh $orig_args"
echo "each line: requests per engine, most first, for one burst of 100"
IFS=, read -r -a policy_list <<<"$policies"
for policy in "${policy_list[@]}"; do
  for routers in 1 2 4; do
    for share in off on; do
      [[ $routers == 1 && $share == on ]] && continue
      base=$(kvr_free_ports 4)
      kvr_start "$dir/sim.log" "$sim" --host 127.0.0.1 --port "$base" --engines 4 --seed 1
      sim_pid=$kvr_last_pid
      kvr_wait_port $((base + 3)) 20 "$sim_pid" || { cat "$dir/sim.log" >&2; exit 1; }
      engines=()
      for e in 0 1 2 3; do engines+=(--engine "http://127.0.0.1:$((base + e))"); done
      name="/kvr-burst-$$-$policy-$routers"
      kvr_shm_names+=("$name")
      rport=$(kvr_free_ports "$routers")
      pids=() ports=()
      for ((k = 0; k < routers; k++)); do
        args=(--listen "127.0.0.1:$((rport + k))" --admin-listen off --engine-header --es 0 --policy "$policy"
              "${engines[@]}")
        [[ $share == on ]] && args+=(--share "$name")
        kvr_start "$dir/router-$k.log" "$router" "${args[@]}"
        pids+=("$kvr_last_pid") ports+=($((rport + k)))
      done
      for ((k = 0; k < routers; k++)); do
        kvr_wait_port "${ports[$k]}" 20 "${pids[$k]}" || { cat "$dir/router-$k.log" >&2; exit 1; }
      done
      for ((k = 0; k < routers; k++)); do
        for _ in $(seq 100); do kvr_router_ready "http://127.0.0.1:${ports[$k]}" 0 && break; sleep 0.1; done
      done
      for ((r = 0; r < repeats; r++)); do
        printf '%s routers=%s share=%s: ' "$policy" "$routers" "$share"
        python3 "$root/bench/share_hosts/burst.py" 100 "$(IFS=,; echo "${ports[*]}")"
      done
      for p in "${pids[@]}"; do kvr_stop "$p"; done
      kvr_stop "$sim_pid"
      rm -f "/dev/shm/${name#/}"
    done
  done
done
