#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job in one command (make demo): build, then on a 4-engine simulated
# fleet with statefeed and router, replay a short agentic trace for the
# default --policy (the one router/policy_advice.h names, written from the
# workload-zoo sweep) and `sticky` with the feed off (ES=0) and on (ES=1), and
# print the comparison table. One real run per cell has no interval, so the
# demo then asks the same question of kvroute-fleetsim (the routers' own
# decision code in virtual time) over many seeds: the default rule against
# Dynamo's cost rule and plain load balancing, 1 and 4 routers, ES=0 and 1,
# on the zoo's multi-turn regime, each figure with its 95% interval.
# Every process it starts is stopped on exit or Ctrl-C.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# The short preset is a minute of agentic sessions; the simulator and the
# replay both run it SPEED times faster, so four cells fit in well under two
# minutes; figures are reported in simulated time.
SPEED=${SPEED:-3}
default_policy=$(sed -n 's/^#define KVR_POLICY_ADVICE_DEFAULT "\(.*\)"$/\1/p' router/policy_advice.h)
[[ -n $default_policy ]] || { echo "demo: no KVR_POLICY_ADVICE_DEFAULT in router/policy_advice.h" >&2; exit 1; }
POLICIES=${POLICIES:-$default_policy,sticky}
SEEDS=${SEEDS:-8}
out="build/demo/run-$(date -u +%Y%m%dT%H%M%SZ)"

child=""
on_exit() {
  # run.sh stops its fleet itself; this only makes sure it is gone.
  if [[ -n $child ]] && kill -0 "$child" 2>/dev/null; then
    kill -TERM "$child" 2>/dev/null || true
    wait "$child" 2>/dev/null || true
  fi
}
trap on_exit EXIT
trap 'echo "demo: interrupted" >&2; exit 130' INT TERM

echo "demo: building into build/plain"
cmake -S . -B build/plain >/dev/null
cmake --build build/plain -j "$(nproc)" --target kvroute kvroute-sim kvroute-statefeed kvroute-replay \
  kvroute-tracegen kvroute-feedsample kvroute-shm kvroute-fleetsim >/dev/null

started=$SECONDS
echo "demo: 4 simulated engines, statefeed, router; policies $POLICIES; ES=0 vs ES=1 (speed x$SPEED)"
bench/ablate/run.sh --bin build/plain --no-build --policies "$POLICIES" --engines 4 --preset short \
  --speed "$SPEED" --time-scale "$SPEED" --quiet --out "$out" &
child=$!
rc=0
wait "$child" || rc=$?
child=""
echo
echo "demo: real processes done in $((SECONDS - started)) s; results, raw records and charts in $out/"
echo "      (times are simulated: the fleet ran $SPEED times faster than real time)"

echo
echo "demo: the same question with intervals: kvroute-fleetsim, zoo regime 'study' (multi-turn"
echo "      sessions), 8 engines, $SEEDS seeds per cell; $default_policy against cost (Dynamo's rule)"
echo "      and load_only, 1 and 4 routers, ES=0 and ES=1"
fs_started=$SECONDS
fs_rc=0
python3 bench/fleetsim/sweep.py --out "$out/fleetsim" --zoo --regimes study --seeds "$SEEDS" \
  --engines 8 --routers 1,4 --es 0,1 --policies "$default_policy,cost,load_only" \
  --fleetsim build/plain/bench/fleetsim/kvroute-fleetsim \
  --tracegen build/plain/bench/tracegen/kvroute-tracegen >"$out/fleetsim.log" 2>&1 || fs_rc=$?
if ((fs_rc == 0)); then
  # The report from its first table on: the ratios to the best peer rule, then every cell.
  sed -n '/^## /,$p' "$out/fleetsim/zoo.md"
  echo
  echo "demo: fleetsim done in $((SECONDS - fs_started)) s; report in $out/fleetsim/zoo.md"
else
  echo "demo: the fleetsim sweep failed (exit $fs_rc); see $out/fleetsim.log" >&2
  tail -5 "$out/fleetsim.log" >&2
fi
((rc != 0)) || rc=$fs_rc
exit "$rc"
