#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# KV events on one core and the router's residency lookup (kvroute-bench-kvevents),
# then how fast a restarted engine's blocks leave the residency table with real
# processes (kvroute-bench-kvrestart: kvroute-sim's kv_restart fault, statefeed).
#   bench/kvevents/run.sh [--bin BUILD_DIR] [--restarts N] [-- kvroute-bench-kvevents flags]
# Prints machine, date, commit and command, then the figures; asserts nothing.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$root/build/plain" restarts=20
cmdline="bench/kvevents/run.sh $*"
while (($#)); do
  case $1 in
    --bin) bin=$2; shift 2 ;;
    --restarts) restarts=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
bench=$bin/bench/kvevents/kvroute-bench-kvevents
[[ -x $bench ]] || { echo "run.sh: missing $bench (cmake --build $bin --target kvroute-bench-kvevents)" >&2; exit 2; }

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$root" diff --quiet HEAD 2>/dev/null || commit="$commit+dirty"
echo "machine: $(uname -srm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "date:    $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "commit:  $commit"
echo "command: $cmdline"
echo
"$bench" "$@"
restart=$bin/bench/kvevents/kvroute-bench-kvrestart
if ((restarts > 0)); then
  if [[ -x $restart ]]; then
    "$restart" --restarts "$restarts" --sim "$bin/bench/sim/kvroute-sim" \
      --feed "$bin/statefeed/kvroute-statefeed"
  else
    echo "run.sh: no $restart (it needs the test support library): restart timing skipped" >&2
  fi
fi
