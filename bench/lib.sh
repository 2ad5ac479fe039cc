# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# What the bench's drivers share (sourced, not run): starting programs and
# stopping every one of them on any exit, free loopback ports, waiting for a
# port or a metric, periods scaled by the time scale. Sourcing it puts bench/
# on PYTHONPATH, so the drivers' Python (compare.py, inflight.py, report.py,
# kvrbench.tool) finds the kvrbench package.
#
#   source "$root/bench/lib.sh"
#   kvr_traps ablate                  # stop everything on exit, Ctrl-C or TERM
#   kvr_start "$dir/sim.log" "$SIM" --port "$base" ...; sim_pid=$kvr_last_pid
#   kvr_wait_port "$base" 20 "$sim_pid" || die "simulator did not start"
#   kvr_stop "$sim_pid"

kvr_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export PYTHONPATH="$kvr_root/bench${PYTHONPATH:+:$PYTHONPATH}"

kvr_fleet_programs() { # name bin build(0|1): builds the fleet drivers' programs into bin when build is 1,
  # then sets SIM FEED ROUTER REPLAY TRACEGEN SAMPLER; "name: missing program ..." and exit 2 without one
  local name=$1 bin=$2 p
  if (($3)); then
    cmake -S "$kvr_root" -B "$bin" >/dev/null
    cmake --build "$bin" -j 2 --target kvroute kvroute-sim kvroute-statefeed kvroute-replay \
      kvroute-tracegen kvroute-feedsample >/dev/null
  fi
  SIM=$bin/bench/sim/kvroute-sim
  FEED=$bin/statefeed/kvroute-statefeed
  ROUTER=$bin/router/kvroute
  REPLAY=$bin/bench/replay/kvroute-replay
  TRACEGEN=$bin/bench/tracegen/kvroute-tracegen
  SAMPLER=$bin/bench/ablate/kvroute-feedsample
  for p in "$SIM" "$FEED" "$ROUTER" "$REPLAY" "$TRACEGEN" "$SAMPLER"; do
    [[ -x $p ]] || { echo "$name: missing program $p (build it, or pass --bin)" >&2; exit 2; }
  done
}

kvr_pids=()      # started and not yet stopped: stopped by kvr_cleanup
kvr_shm_names=() # segments to unlink at exit
kvr_tmp_dirs=()  # directories to remove at exit, after the processes are gone
kvr_last_pid=""

kvr_track() { # pid: stop it at exit
  kvr_pids+=("$1")
}

kvr_forget() { # pid: no longer ours to stop
  local keep=() p
  for p in "${kvr_pids[@]}"; do [[ $p == "$1" ]] || keep+=("$p"); done
  kvr_pids=("${keep[@]}")
}

kvr_start() { # logfile program args...: in the background, output to logfile; pid in kvr_last_pid
  local log=$1; shift
  "$@" >"$log" 2>&1 &
  kvr_last_pid=$!
  kvr_track "$kvr_last_pid"
}

kvr_start_append() { # logfile program args...: as kvr_start, output appended (a restarted program keeps one log)
  local log=$1; shift
  "$@" >>"$log" 2>&1 &
  kvr_last_pid=$!
  kvr_track "$kvr_last_pid"
}

kvr_stop() { # pid: TERM, wait up to 10 s, then KILL
  local pid=$1
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  kvr_forget "$pid"
}

kvr_kill_hard() { # pid: KILL at once (a crash on purpose), reap it
  kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
  kvr_forget "$1"
}

kvr_cleanup() { # TERM every tracked process, 5 s each to go, then KILL; unlink segments, remove dirs
  local pid n d
  for pid in "${kvr_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${kvr_pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  kvr_pids=()
  for n in "${kvr_shm_names[@]}"; do rm -f "/dev/shm/${n#/}"; done
  kvr_shm_names=()
  for d in "${kvr_tmp_dirs[@]}"; do rm -rf "$d"; done
  kvr_tmp_dirs=()
}

kvr_traps() { # name: kvr_cleanup on exit; on INT or TERM also "name: interrupted" and exit 130
  trap 'kvr_cleanup' EXIT
  # shellcheck disable=SC2064
  trap "echo '$1: interrupted' >&2; kvr_cleanup; exit 130" INT TERM
}

kvr_free_ports() { # n: prints the first of n consecutive free loopback ports
  python3 -m kvrbench.tool free-ports "$1"
}

kvr_scaled() { # value floor scale: value / scale, rounded, at least floor
  python3 -m kvrbench.tool scaled "$1" "$2" "$3"
}

kvr_wait_port() { # port seconds pid: 0 once 127.0.0.1:port accepts, 1 if pid exits or time runs out
  local port=$1 deadline=$((SECONDS + $2)) pid=$3
  while ((SECONDS < deadline)); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

kvr_router_ready() { # router base URL, 0|1: 0 once its /metrics counts every engine healthy
  # and, with 1, fresh in the statefeed segment
  curl -s --max-time 2 "$1/metrics" | python3 -m kvrbench.tool router-ready "$2"
}

kvr_running() { # engine base URL: running requests summed over DP ranks (SGLang /v1/loads), -1 if unknown
  curl -s --max-time 2 "$1/v1/loads?include=core" | python3 -m kvrbench.tool loads-running
}

kvr_wait_running() { # engine base URL, minimum, seconds: polls kvr_running every 50 ms until it
  # reaches the minimum; prints the last value read; 0 if reached, 1 when time ran out
  local url=$1 min=$2 deadline=$((SECONDS + $3)) running=0
  while ((SECONDS < deadline)); do
    running=$(kvr_running "$url")
    if ((running >= min)); then echo "$running"; return 0; fi
    sleep 0.05
  done
  echo "$running"
  return 1
}
