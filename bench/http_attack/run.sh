#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Two attacks on the HTTP server every program shares (common/http_server.c),
# against kvroute, kvroute-statefeed --listen and a kvroute-sim engine, one
# after another on loopback:
#   pipeline: one client sends 60,000 pipelined GET /metrics (2 MB) and never
#             reads; the program's RSS before, and after it settled.
#   hold:     one address (127.0.0.2) opens 1,000 connections more than the
#             program's default cap and keeps what it gets; then a client from
#             127.0.0.3 connects and GETs /health: served or not, and how long
#             it took; and how many refusal lines the program logged.
# Prints machine, date, commit and command first. Runs the same command on
# any build, old or new (it passes no flag the programs may not have; the
# router's admin flags only when its --help lists them).
#
# usage: bench/http_attack/run.sh [BUILD_DIR] [REQUESTS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/plain}
requests=${2:-60000}
router_bin=$build/router/kvroute
feed_bin=$build/statefeed/kvroute-statefeed
sim_bin=$build/bench/sim/kvroute-sim
for b in "$router_bin" "$feed_bin" "$sim_bin"; do
  [[ -x $b ]] || { echo "run.sh: $b missing: cmake --build $build --target kvroute kvroute-statefeed kvroute-sim" >&2; exit 2; }
done
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
src=${src:-$root}

# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
kvr_traps http_attack
tmp=$(mktemp -d /tmp/kvroute-http-attack.XXXXXX)
kvr_tmp_dirs+=("$tmp")
attack=$root/bench/http_attack/attack.py

echo "# http_attack"
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "machine: $(uname -srm), $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GB", $2/1048576}' /proc/meminfo)"
echo "commit: $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown) ($src)"
echo "command: bench/http_attack/run.sh $build $requests"
echo "nofile (this shell): soft $(ulimit -Sn), hard $(ulimit -Hn)"

read -r port_sim port_router port_feed port_victim < <(p=$(kvr_free_ports 4); echo "$p $((p + 1)) $((p + 2)) $((p + 3))")

start_sim() { # port log: one engine; pid in kvr_last_pid
  kvr_start "$2" "$sim_bin" --port "$1" --engines 1
  kvr_wait_port "$1" 10 "$kvr_last_pid" || { echo "run.sh: kvroute-sim did not start" >&2; cat "$2" >&2; exit 1; }
}
start_sim "$port_sim" "$tmp/sim.log"

# kind port pid log cap: both attacks on one program
measure() {
  echo
  echo "## $1 (port $2, default connection cap $5)"
  python3 "$attack" pipeline --port "$2" --pid "$3" --requests "$requests"
  local before
  before=$(grep -c 'http_connection.*refused' "$4" || true)
  python3 "$attack" hold --port "$2" --hold "$(($5 + 1000))" --probe-path /health
  local after
  after=$(grep -c 'http_connection.*refused' "$4" || true)
  echo "refusal_log_lines: $((after - before))"
  echo "rss_end_mb: $(awk '/VmRSS/ {printf "%.0f", $2/1024}' "/proc/$3/status")"
}

# A build with an admin listener serves /metrics there: put it back on the
# client port for the attack, which pipelines GET /metrics to one port.
router_admin=()
if "$router_bin" --help 2>&1 | grep -q -- --admin-on-client-port; then
  router_admin=(--admin-listen off --admin-on-client-port)
fi
kvr_start "$tmp/kvroute.log" "$router_bin" --listen "127.0.0.1:$port_router" --es 0 \
  --engine "http://127.0.0.1:$port_sim" "${router_admin[@]}"
router_pid=$kvr_last_pid
kvr_wait_port "$port_router" 10 "$router_pid" || { cat "$tmp/kvroute.log" >&2; exit 1; }
measure kvroute "$port_router" "$router_pid" "$tmp/kvroute.log" 4096
kvr_stop "$router_pid"

shm=/kvr-http-attack-$$
kvr_shm_names+=("$shm")
kvr_start "$tmp/statefeed.log" "$feed_bin" --shm "$shm" --engine "http://127.0.0.1:$port_sim" \
  --listen "127.0.0.1:$port_feed"
feed_pid=$kvr_last_pid
kvr_wait_port "$port_feed" 10 "$feed_pid" || { cat "$tmp/statefeed.log" >&2; exit 1; }
measure kvroute-statefeed "$port_feed" "$feed_pid" "$tmp/statefeed.log" 64
kvr_stop "$feed_pid"

start_sim "$port_victim" "$tmp/victim.log"
victim_pid=$kvr_last_pid
measure kvroute-sim "$port_victim" "$victim_pid" "$tmp/victim.log" 4096
kvr_stop "$victim_pid"
