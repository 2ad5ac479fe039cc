#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A placement's delay from one host to another over the statefeed relay
# (--share): two statefeeds on loopback, each with its own state and
# dispatch segments, exporting to and importing from each other, and
# kvroute-relay-delay acting as a router on each "host".
#
#   bench/share_hosts/run.sh [--build DIR] [--periods 50,20,5] [--count 300]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
orig_args="$*"
build="$root/build/dev"
periods=50,20,5
count=300
while (($#)); do
  case $1 in
  --build) build=$2; shift 2 ;;
  --periods) periods=$2; shift 2 ;;
  --count) count=$2; shift 2 ;;
  *) echo "share_hosts: unknown argument $1" >&2; exit 2 ;;
  esac
done
feed="$build/statefeed/kvroute-statefeed"
delay="$build/bench/share_hosts/kvroute-relay-delay"
[[ -x $feed && -x $delay ]] || { echo "share_hosts: build kvroute-statefeed and kvroute-relay-delay in $build" >&2; exit 2; }
kvr_traps share_hosts
dir=$(mktemp -d /tmp/kvr-share-hosts.XXXXXX)
kvr_tmp_dirs+=("$dir")

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "machine: $(uname -srm), $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GB", $2/1048576}' /proc/meminfo)"
echo "command: bench/share_hosts/run.sh $orig_args"
IFS=, read -r -a period_list <<<"$periods"
for period in "${period_list[@]}"; do
  base=$(kvr_free_ports 2)
  tag="$$-$period"
  pids=()
  for h in 0 1; do
    other=$((1 - h))
    kvr_shm_names+=("/kvr-bench-hosts-shm-$tag-$h" "/kvr-bench-hosts-share-$tag-$h")
    kvr_start "$dir/feed-$period-$h.log" "$feed" --shm "/kvr-bench-hosts-shm-$tag-$h" \
      --share "/kvr-bench-hosts-share-$tag-$h" --export "tcp:127.0.0.1:$((base + h))" \
      --import "tcp:127.0.0.1:$((base + other))" --period-ms "$period"
    pids+=("$kvr_last_pid")
  done
  for h in 0 1; do
    kvr_wait_port $((base + h)) 10 "${pids[$h]}" || { cat "$dir/feed-$period-$h.log" >&2; exit 1; }
  done
  # Each import connects on its own backoff: the first pins wait for the link.
  until grep -q import_connected "$dir/feed-$period-0.log" && grep -q import_connected "$dir/feed-$period-1.log"; do
    sleep 0.1
  done
  printf 'period_ms=%s ' "$period"
  "$delay" --a "/kvr-bench-hosts-share-$tag-0" --b "/kvr-bench-hosts-share-$tag-1" --count "$count" |
    tr '\n' ' '
  echo
  for p in "${pids[@]}"; do kvr_stop "$p"; done
done
