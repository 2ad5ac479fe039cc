#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The soak benchmark: N minutes of mixed streaming traffic through the real
# stack on loopback (kvroute-sim processes, kvroute-statefeed, the kvroute
# router), with an engine fault injected on a schedule and, now and then, a
# simulator process or statefeed killed with SIGKILL and restarted. Every
# minute it prints the router's and statefeed's RSS and open fds (from /proc),
# the in-flight gauges, and the client's request counts by kind; at idle checks
# the client pauses and the router's in-flight counters must come back to 0;
# at the end a summary and a verdict on flatness. See bench/soak/README.md.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
orig_args="$*"
minutes=30 engines=4 sim_procs=2 concurrency=64 time_scale=2 policy=cache_aware es=1 seed=1
fault_every=60 fault_hold=20 faults="crash,stall,drop,garbage,errors,kill_sim,slow_metrics,kill_feed,slow"
sample_s=5 report_s=60 idle_every=300 rss_growth_max=10 fd_growth_max=10
out="" bin="$root/build/rel" build=1 sim_args="" router_args="" feed_args_extra="" client_args=""

usage() {
  cat <<EOF
Usage: bench/soak/run.sh [options]
Runs mixed streaming traffic through simulated engines, statefeed and the router for
--minutes, with faults on a schedule, and reports RSS, fds, in-flight counters and errors.

  --minutes N          length of the traffic (default $minutes)
  --engines N          simulated engines (default $engines)
  --sim-procs N        kvroute-sim processes they are spread over; even ones are vLLM-,
                       odd ones SGLang-flavoured (default $sim_procs)
  --concurrency N      requests the client keeps in flight (default $concurrency)
  --time-scale X       simulator time scale (default $time_scale)
  --policy NAME        router policy (default $policy)
  --es 0|1             router reads the statefeed segment (default $es)
  --seed N             seed of the client, the simulators and the router (default $seed)
  --fault-every-s S    one fault starts every S seconds, 0 = none (default $fault_every)
  --fault-hold-s S     each fault lasts S seconds, then is cleared (default $fault_hold)
  --faults LIST        faults in the order they rotate through (default
                       $faults):
                       crash, stall, drop (streams cut after 8 tokens), garbage (garbage
                       telemetry), errors (half the completions 503), slow_metrics (3 s
                       telemetry), slow (steps 8x slower) hit one engine, in turn;
                       kill_sim kills a simulator process with SIGKILL and restarts it
                       after the hold; kill_feed does the same to statefeed
  --sample-s S         seconds between samples (default $sample_s)
  --report-s S         seconds between printed lines (default $report_s)
  --idle-every-s S     pause the client every S seconds and check the in-flight counters
                       reach 0, 0 = only at the end (default $idle_every)
  --rss-growth-max P   flat when RSS grows less than P% over the last half (default $rss_growth_max)
  --fd-growth-max P    flat when fds grow less than P% (+8) over the last half (default $fd_growth_max)
  --out DIR            run directory (default build/soak/run-<date>)
  --bin DIR            build directory holding the programs (default build/rel)
  --no-build           do not run cmake --build first
  --sim-args "..."     extra flags for kvroute-sim
  --router-args "..."  extra flags for kvroute
  --feed-args "..."    extra flags for kvroute-statefeed
  --client-args "..."  extra flags for kvroute-soak-client
  -h, --help           this text
Exit status 0 when the verdict is flat, 1 when it is not, 2 on bad usage or a failed start.
Every process started is stopped on exit, also on Ctrl-C.
EOF
}

die() { echo "soak: $*" >&2; exit 2; }

while (($#)); do
  case "$1" in
    --minutes) minutes=$2; shift ;;
    --engines) engines=$2; shift ;;
    --sim-procs) sim_procs=$2; shift ;;
    --concurrency) concurrency=$2; shift ;;
    --time-scale) time_scale=$2; shift ;;
    --policy) policy=$2; shift ;;
    --es) es=$2; shift ;;
    --seed) seed=$2; shift ;;
    --fault-every-s) fault_every=$2; shift ;;
    --fault-hold-s) fault_hold=$2; shift ;;
    --faults) faults=$2; shift ;;
    --sample-s) sample_s=$2; shift ;;
    --report-s) report_s=$2; shift ;;
    --idle-every-s) idle_every=$2; shift ;;
    --rss-growth-max) rss_growth_max=$2; shift ;;
    --fd-growth-max) fd_growth_max=$2; shift ;;
    --out) out=$2; shift ;;
    --bin) bin=$2; shift ;;
    --no-build) build=0 ;;
    --sim-args) sim_args=$2; shift ;;
    --router-args) router_args=$2; shift ;;
    --feed-args) feed_args_extra=$2; shift ;;
    --client-args) client_args=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  shift
done

is_count() { [[ $1 =~ ^[0-9]+$ ]]; }
{ is_count "$minutes" && ((minutes >= 1)); } || die "--minutes must be a whole number of minutes, at least 1"
{ is_count "$engines" && ((engines >= 1)); } || die "--engines must be a positive number"
{ is_count "$sim_procs" && ((sim_procs >= 1 && sim_procs <= engines)); } || die "--sim-procs must be 1..--engines"
{ is_count "$concurrency" && ((concurrency >= 1)); } || die "--concurrency must be a positive number"
is_count "$fault_every" || die "--fault-every-s must be a whole number of seconds"
is_count "$fault_hold" || die "--fault-hold-s must be a whole number of seconds"
((fault_every == 0 || fault_hold < fault_every)) || die "--fault-hold-s must be shorter than --fault-every-s"
{ is_count "$sample_s" && ((sample_s >= 1)); } || die "--sample-s must be at least 1"
{ is_count "$report_s" && ((report_s >= sample_s)); } || die "--report-s must be at least --sample-s"
is_count "$idle_every" || die "--idle-every-s must be a whole number of seconds"
[[ $es == 0 || $es == 1 ]] || die "--es must be 0 or 1"
IFS=, read -r -a fault_list <<<"$faults"
for f in "${fault_list[@]}"; do
  case $f in crash|stall|drop|garbage|errors|slow_metrics|slow|kill_sim|kill_feed) ;;
    *) die "unknown fault '$f' in --faults (see --help)" ;; esac
done
if ((es == 0)) && [[ " ${fault_list[*]} " == *" kill_feed "* ]]; then
  die "--es 0 runs no statefeed: drop kill_feed from --faults"
fi

out=${out:-$root/build/soak/run-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

if ((build)); then
  echo "soak: building into $bin"
  cmake -S "$root" -B "$bin" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$bin" -j 2 --target kvroute kvroute-sim kvroute-statefeed kvroute-soak-client >/dev/null
fi
SIM=$bin/bench/sim/kvroute-sim
FEED=$bin/statefeed/kvroute-statefeed
ROUTER=$bin/router/kvroute
CLIENT=$bin/bench/soak/kvroute-soak-client
REPORT=$root/bench/soak/report.py
for p in "$SIM" "$FEED" "$ROUTER" "$CLIENT"; do
  [[ -x $p ]] || die "missing program $p (build it, or pass --bin)"
done

# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
kvr_traps soak

say() { echo "$*" | tee -a "$out/soak.txt"; }
now_ms() { echo $((${EPOCHREALTIME/./} / 1000)); }

# ---- the fleet: engines spread over sim_procs processes ----------------------
base=$(kvr_free_ports "$engines")
admin_base=$(kvr_free_ports "$sim_procs")
rport=$(kvr_free_ports 1)
aport=$(kvr_free_ports 1)
fport=$(kvr_free_ports 1)
shm="/kvr-soak-$$"
kvr_shm_names+=("$shm")
urls=() engine_proc=() engine_local=() proc_first=() proc_count=() proc_flavor=() sim_pid=()
for ((p = 0, i = 0; p < sim_procs; p++)); do
  n=$(((engines - i) / (sim_procs - p)))
  proc_first[p]=$i proc_count[p]=$n
  proc_flavor[p]=$([[ $((p % 2)) == 0 ]] && echo vllm || echo sglang)
  for ((k = 0; k < n; k++, i++)); do
    urls[i]="http://127.0.0.1:$((base + i))" engine_proc[i]=$p engine_local[i]=$k
  done
done

start_sim() { # process index
  local p=$1
  # shellcheck disable=SC2086
  kvr_start_append "$out/sim-$p.log" "$SIM" --host 127.0.0.1 --port $((base + proc_first[p])) --engines "${proc_count[p]}" \
    --admin-port $((admin_base + p)) --flavor "${proc_flavor[p]}" --time-scale "$time_scale" \
    --seed $((seed + p)) $sim_args
  sim_pid[p]=$kvr_last_pid
  local last=$((base + proc_first[p] + proc_count[p] - 1))
  kvr_wait_port "$last" 20 "$kvr_last_pid" && kvr_wait_port $((admin_base + p)) 20 "$kvr_last_pid"
}

feed_pid=0
start_feed() {
  local a=(--shm "$shm" --listen "127.0.0.1:$fport") i
  for ((i = 0; i < engines; i++)); do
    if [[ ${proc_flavor[engine_proc[i]]} == sglang ]]; then a+=(--engine "${urls[i]},kind=sglang")
    else a+=(--engine "${urls[i]}"); fi
  done
  # shellcheck disable=SC2086
  kvr_start_append "$out/statefeed.log" "$FEED" "${a[@]}" $feed_args_extra
  feed_pid=$kvr_last_pid
  kvr_wait_port "$fport" 20 "$feed_pid"
}

cat >"$out/run.txt" <<EOF
date: $(date -u +%Y-%m-%dT%H:%M:%SZ)
commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet HEAD 2>/dev/null || echo " (with uncommitted changes)")
machine: $(uname -srm), $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GB", $2/1048576}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg)
command: bench/soak/run.sh $orig_args
minutes: $minutes; engines: $engines in $sim_procs simulator processes; concurrency: $concurrency; time scale: $time_scale
router: --policy $policy --es $es $router_args; faults every ${fault_every} s for ${fault_hold} s: $faults
out: $out
EOF
sed 's/^/soak: /' "$out/run.txt" | tee -a "$out/soak.txt"

for ((p = 0; p < sim_procs; p++)); do
  start_sim "$p" || { tail -20 "$out/sim-$p.log" >&2; die "simulator $p did not start"; }
done
((es == 0)) || start_feed || { tail -20 "$out/statefeed.log" >&2; die "statefeed did not start"; }

# Router timeouts shorter than the fault hold, so a stalled engine is answered by
# the router (504, or a cut stream) before the fault clears; the client's own
# timeout (120 s) is far past them, so a request it times out is a lost one.
r_args=(--listen "127.0.0.1:$rport" --admin-listen "127.0.0.1:$aport" --engine-header --policy "$policy" --es "$es" --shm "$shm" --seed "$seed"
        --first-byte-timeout-ms 10000 --idle-timeout-ms 5000)
for u in "${urls[@]}"; do r_args+=(--engine "$u"); done
# shellcheck disable=SC2086
kvr_start_append "$out/router.log" "$ROUTER" "${r_args[@]}" $router_args
router_pid=$kvr_last_pid
kvr_wait_port "$rport" 20 "$router_pid" || { tail -20 "$out/router.log" >&2; die "router did not start"; }
router_url="http://127.0.0.1:$rport"
router_admin_url="http://127.0.0.1:$aport" # /metrics
# Traffic starts once the router counts every engine healthy (and, ES=1, fresh in the feed).
deadline=$((SECONDS + 30))
until kvr_router_ready "$router_admin_url" "$es"; do
  ((SECONDS < deadline)) || die "the router did not see every engine healthy within 30 s (see $out/router.log)"
  sleep 0.2
done
say "soak: fleet :$base..$((base + engines - 1)) (admin :$admin_base..), router :$rport, statefeed metrics :$fport"

# shellcheck disable=SC2086
kvr_start_append "$out/client.log" "$CLIENT" --url "$router_url" --concurrency "$concurrency" --seed "$seed" \
  --stats "$out/client-stats.json" --records "$out/records.jsonl" $client_args
client_pid=$kvr_last_pid

# ---- faults -------------------------------------------------------------------
fault_n=0 fault_engine=0 fault_sim=0 fault_active="" fault_until=0
engine_fault() { # engine json
  local i=$1 p=${engine_proc[$1]}
  curl -s --max-time 5 -X POST "http://127.0.0.1:$((admin_base + p))/admin/fault?engine=${engine_local[i]}" \
    -d "$2" >/dev/null || say "soak: fault request to engine $i failed"
}
fault_start() {
  local f=${fault_list[fault_n % ${#fault_list[@]}]} e=$((fault_engine % engines))
  fault_n=$((fault_n + 1))
  case $f in
    kill_sim)
      local p=$((fault_sim % sim_procs))
      fault_sim=$((fault_sim + 1))
      kvr_kill_hard "${sim_pid[p]}"
      fault_active="kill_sim process $p (engines ${proc_first[p]}..$((proc_first[p] + proc_count[p] - 1)))"
      fault_proc=$p ;;
    kill_feed)
      if ((feed_pid)); then kvr_kill_hard "$feed_pid"; fi
      feed_pid=0
      fault_active="kill_feed" ;;
    *)
      local doc
      case $f in
        crash) doc='{"crash":true}' ;;
        stall) doc='{"stall":true}' ;;
        drop) doc='{"drop_after_tokens":8}' ;;
        garbage) doc='{"garbage_metrics":true}' ;;
        errors) doc='{"error_rate":0.5}' ;;
        slow_metrics) doc='{"slow_metrics_ms":3000}' ;;
        slow) doc='{"step_scale":8}' ;;
      esac
      fault_engine=$((fault_engine + 1))
      engine_fault "$e" "$doc"
      fault_active="$f engine $e"
      fault_target=$e ;;
  esac
  fault_until=$(($(now_ms) + fault_hold * 1000))
  echo "$(elapsed_s) start $fault_active" >>"$out/faults.txt"
}
fault_clear() {
  [[ -n $fault_active ]] || return 0
  case $fault_active in
    kill_sim*) start_sim "$fault_proc" || say "soak: simulator $fault_proc did not come back (see $out/sim-$fault_proc.log)" ;;
    kill_feed) start_feed || say "soak: statefeed did not come back (see $out/statefeed.log)" ;;
    *) engine_fault "$fault_target" '{"clear":true}' ;;
  esac
  echo "$(elapsed_s) clear $fault_active" >>"$out/faults.txt"
  fault_active=""
}

# ---- the run --------------------------------------------------------------------
t_start=$(now_ms)
elapsed_s() { local d=$(($(now_ms) - t_start)); printf '%d.%03d' $((d / 1000)) $((d % 1000)); }
sample() { # [--print]
  python3 "$REPORT" sample --out "$out/samples.jsonl" --t "$(elapsed_s)" --router-pid "$router_pid" \
    --router-url "$router_admin_url" --feed-pid "$feed_pid" --feed-url "$([[ $feed_pid != 0 ]] && echo "http://127.0.0.1:$fport")" \
    --client-stats "$out/client-stats.json" --fault "$fault_active" "$@" | tee -a "$out/soak.txt"
  return "${PIPESTATUS[0]}"
}
idle_check() {
  fault_clear
  kill -USR1 "$client_pid" 2>/dev/null || true
  python3 "$REPORT" idle --out "$out/samples.jsonl" --t "$(elapsed_s)" --router-pid "$router_pid" \
    --router-url "$router_admin_url" --feed-pid "$feed_pid" --feed-url "$([[ $feed_pid != 0 ]] && echo "http://127.0.0.1:$fport")" \
    --client-stats "$out/client-stats.json" | tee -a "$out/soak.txt" || true
}

duration_ms=$((minutes * 60 * 1000))
next_sample=$((t_start + sample_s * 1000)) next_report=$((t_start + report_s * 1000))
next_fault=$((fault_every > 0 ? t_start + fault_every * 1000 : 1 << 62))
next_idle=$((idle_every > 0 ? t_start + idle_every * 1000 : 1 << 62))
# A simulator or statefeed that exits without being told to is logged with its
# exit status in exits.txt, and restarted so the soak goes on.
watch_exits() {
  local p rc
  for ((p = 0; p < sim_procs; p++)); do
    [[ $fault_active == "kill_sim process $p "* ]] && continue
    kill -0 "${sim_pid[p]}" 2>/dev/null && continue
    wait "${sim_pid[p]}" 2>/dev/null && rc=0 || rc=$?
    kvr_forget "${sim_pid[p]}"
    echo "$(elapsed_s) simulator-$p $rc ${fault_active:-none}" >>"$out/exits.txt"
    say "soak: SIMULATOR PROCESS $p EXITED UNASKED at $(elapsed_s) s (status $rc, 128+N = signal N) during: ${fault_active:-no fault}; restarting it"
    tail -5 "$out/sim-$p.log" | sed 's/^/soak:   sim-'"$p"'.log: /' | tee -a "$out/soak.txt"
    start_sim "$p" || say "soak: simulator $p did not come back (see $out/sim-$p.log)"
  done
  if ((feed_pid)) && ! kill -0 "$feed_pid" 2>/dev/null; then
    wait "$feed_pid" 2>/dev/null && rc=0 || rc=$?
    kvr_forget "$feed_pid"
    echo "$(elapsed_s) statefeed $rc ${fault_active:-none}" >>"$out/exits.txt"
    say "soak: STATEFEED EXITED UNASKED at $(elapsed_s) s (status $rc, 128+N = signal N) during: ${fault_active:-no fault}; restarting it"
    tail -5 "$out/statefeed.log" | sed 's/^/soak:   statefeed.log: /' | tee -a "$out/soak.txt"
    feed_pid=0
    start_feed || say "soak: statefeed did not come back (see $out/statefeed.log)"
  fi
}

router_gone=0
touch "$out/exits.txt"
while :; do
  now=$(now_ms)
  ((now - t_start < duration_ms)) || break
  if ! kill -0 "$router_pid" 2>/dev/null; then router_gone=1; break; fi
  kill -0 "$client_pid" 2>/dev/null || { say "soak: the client exited early (see $out/client.log)"; break; }
  watch_exits
  if [[ -n $fault_active ]] && ((now >= fault_until)); then fault_clear; fi
  # An idle check first: it clears the fault in force, so a fault due at the same
  # moment starts after it and keeps its whole hold.
  if ((now >= next_idle)); then
    idle_check
    kill -USR2 "$client_pid" 2>/dev/null || true
    next_idle=$((next_idle + idle_every * 1000))
    now=$(now_ms)
  fi
  if [[ -z $fault_active ]] && ((now >= next_fault)); then
    fault_start
    next_fault=$((next_fault + fault_every * 1000))
  fi
  if ((now >= next_sample)); then
    flag=()
    if ((now >= next_report)); then
      flag=(--print)
      while ((next_report <= now)); do next_report=$((next_report + report_s * 1000)); done
    fi
    sample "${flag[@]}" || { router_gone=1; break; }
    # samples missed during an idle check are skipped, not taken in a burst
    while ((next_sample <= now)); do next_sample=$((next_sample + sample_s * 1000)); done
  fi
  sleep 0.2
done
if ((router_gone)); then
  wait "$router_pid" 2>/dev/null && rc=0 || rc=$?
  kvr_forget "$router_pid"
  say "soak: THE ROUTER EXITED at $(elapsed_s) s (exit status $rc, 128+N = signal N) during: ${fault_active:-no fault}"
  tail -20 "$out/router.log" | sed 's/^/soak:   router.log: /' | tee -a "$out/soak.txt"
fi
traffic_s=$(elapsed_s)
if ((!router_gone)); then
  sample --print || true
  idle_check
fi
fault_clear
kvr_stop "$client_pid"
cp "$out/client-stats.json" "$out/client-final.json"
tail -1 "$out/client.log" | grep -q '^{' && tail -1 "$out/client.log" >"$out/client-final.json"
python3 "$REPORT" summary --samples "$out/samples.jsonl" --client-final "$out/client-final.json" \
  --duration "$traffic_s" --window "$report_s" --rss-growth-max "$rss_growth_max" --exits "$out/exits.txt" \
  --fd-growth-max "$fd_growth_max" --json "$out/summary.json" | tee -a "$out/soak.txt" && verdict=0 || verdict=1
((router_gone)) && verdict=1
say "soak: run directory $out"
exit "$verdict"
