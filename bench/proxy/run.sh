#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Proxy overhead, side by side in one run on loopback: wrk straight to an
# engine that answers at once (kvroute-bench-engine), through kvroute, and
# through nginx (proxy_pass, upstream keepalive, one worker). kvroute and
# nginx are pinned to the same single core, wrk to another. Prints
# requests/s and p50/p99 latency for a 1 KB chat request, whole and
# streamed, then the routing-key extraction costs.
#
# usage: bench/proxy/run.sh [BUILD_DIR] [SECONDS] [CONNECTIONS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/plain}
secs=${2:-5}
conns=${3:-32}
engine_bin=$build/bench/proxy/kvroute-bench-engine
kvroute_bin=$build/router/kvroute
keys_bin=$build/bench/proxy/kvroute-bench-keys
for b in "$engine_bin" "$kvroute_bin" "$keys_bin"; do
  [[ -x $b ]] || { echo "run.sh: $b missing: cmake --build $build --target kvroute kvroute-bench-engine kvroute-bench-keys" >&2; exit 2; }
done
command -v wrk >/dev/null || { echo "run.sh: wrk missing: apt-get install wrk" >&2; exit 2; }
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
[[ -x $nginx_bin ]] || { echo "run.sh: nginx missing: apt-get install nginx-light" >&2; exit 2; }

ncpu=$(nproc)
proxy_cpu=0
client_cpu=$((ncpu > 1 ? 1 : 0))
engine_cpu=$((ncpu > 2 ? 2 : client_cpu))

# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
kvr_traps proxy
tmp=$(mktemp -d /tmp/kvroute-proxy-bench.XXXXXX)
kvr_tmp_dirs+=("$tmp")

started() { # port pid log: fail unless the program started by kvr_start listens within 5 s
  kvr_wait_port "$1" 5 "$2" && return 0
  echo "run.sh: nothing listens on port $1" >&2; cat "$3" >&2; exit 1
}

base_port=$(kvr_free_ports 3)
engine_port=$base_port; kvroute_port=$((base_port + 1)); nginx_port=$((base_port + 2))

kvr_start "$tmp/engine.log" taskset -c "$engine_cpu" "$engine_bin" --port "$engine_port"
started "$engine_port" "$kvr_last_pid" "$tmp/engine.log"
kvr_start "$tmp/kvroute.log" taskset -c "$proxy_cpu" "$kvroute_bin" --listen "127.0.0.1:$kvroute_port" --engine "http://127.0.0.1:$engine_port" \
  --es 0 --policy round_robin --log-level error --keepalive 256 --health-interval-ms 1000
started "$kvroute_port" "$kvr_last_pid" "$tmp/kvroute.log"

mkdir -p "$tmp/nginx/logs"
cat > "$tmp/nginx/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/logs/error.log error;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $tmp/nginx/body;
  proxy_temp_path $tmp/nginx/proxy;
  fastcgi_temp_path $tmp/nginx/fastcgi;
  uwsgi_temp_path $tmp/nginx/uwsgi;
  scgi_temp_path $tmp/nginx/scgi;
  client_body_buffer_size 1m;
  client_max_body_size 16m;
  upstream engine { server 127.0.0.1:$engine_port; keepalive 256; }
  server {
    listen 127.0.0.1:$nginx_port;
    location / {
      proxy_pass http://engine;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
    }
  }
}
CONF
kvr_start "$tmp/nginx/stderr" taskset -c "$proxy_cpu" "$nginx_bin" -p "$tmp/nginx" -c "$tmp/nginx/nginx.conf"
started "$nginx_port" "$kvr_last_pid" "$tmp/nginx/stderr"

# A 1 KB chat request.
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
text = ("Summarise the following notes about the deployment. " * 20)[:900]
for name, stream in (("whole", False), ("stream", True)):
    body = {"model": "bench", "max_tokens": 16, "stream": stream,
            "messages": [{"role": "system", "content": "You are terse."}, {"role": "user", "content": text}]}
    open(f"{tmp}/{name}.json", "w").write(json.dumps(body, separators=(",", ":")))
PY
cat > "$tmp/post.lua" <<'LUA'
local f = io.open(os.getenv("KVR_BENCH_BODY"), "r")
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"
LUA

# wrk --latency prints "50%  1.23ms" lines; normalise to microseconds.
to_us() { awk '{v=$1; if (v ~ /us$/) {sub(/us$/,"",v); print v} else if (v ~ /ms$/) {sub(/ms$/,"",v); print v*1000} else if (v ~ /s$/) {sub(/s$/,"",v); print v*1000000}}'; }
run() { # label port body
  local out
  out=$(KVR_BENCH_BODY="$tmp/$3.json" taskset -c "$client_cpu" wrk -t 1 -c "$conns" -d "${secs}s" --latency \
        -s "$tmp/post.lua" "http://127.0.0.1:$2/v1/chat/completions")
  local rps p50 p99 errors
  rps=$(awk '/^Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out" | to_us)
  p99=$(awk '$1=="99%" {print $2}' <<<"$out" | to_us)
  errors=$(awk '/Non-2xx|Socket errors/ {print}' <<<"$out" | tr '\n' ' ')
  printf "%-8s %-8s %12.0f %10.0f %10.0f  %s\n" "$3" "$1" "$rps" "$p50" "$p99" "$errors"
  echo "$3 $1 $rps $p50 $p99" >> "$tmp/results"
}

echo "proxy overhead: wrk -t1 -c$conns -d${secs}s, 1 KB chat body, proxies pinned to cpu $proxy_cpu, wrk to cpu $client_cpu"
printf "%-8s %-8s %12s %10s %10s\n" "mode" "target" "req/s" "p50_us" "p99_us"
for mode in whole stream; do
  # warm the keep-alive pools
  for port in "$engine_port" "$kvroute_port" "$nginx_port"; do
    KVR_BENCH_BODY="$tmp/$mode.json" wrk -t 1 -c "$conns" -d 1s -s "$tmp/post.lua" "http://127.0.0.1:$port/v1/chat/completions" >/dev/null
  done
  run direct "$engine_port" "$mode"
  run kvroute "$kvroute_port" "$mode"
  run nginx "$nginx_port" "$mode"
done
echo
awk '{r[$1" "$2]=$3; p99[$1" "$2]=$5}
     END {for (m in r) if (m ~ /kvroute/) {split(m, a, " ");
            printf "%-8s kvroute/nginx req/s %.2f   kvroute/direct req/s %.2f   p99 kvroute/nginx %.2f\n",
                   a[1], r[m]/r[a[1]" nginx"], r[m]/r[a[1]" direct"], p99[m]/p99[a[1]" nginx"]}}' "$tmp/results" | sort
echo
echo "routing-key extraction (the router parses with cJSON), microseconds per body:"
"$keys_bin"
