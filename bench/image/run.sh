#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the runtime image from the Dockerfile with no registry but the
# Debian package mirror: a Debian 12 root made by debootstrap (minbase),
# imported into buildah's store as debian:bookworm and debian:bookworm-slim,
# then `buildah bud --isolation chroot`; then routes one request through the
# image: kvroute run from the image's mounted root filesystem (chroot)
# against a kvroute-sim on loopback. Prints machine, date, commit, commands,
# the image size and the times taken. Needs root.
#
#   bench/image/run.sh [WORKDIR]     (default /tmp/kvroute-image)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-/tmp/kvroute-image}
mkdir -p "$work"
mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
[[ -n "$mirror" ]] || mirror=$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list)
export DEBIAN_FRONTEND=noninteractive
for tool in debootstrap buildah; do
  command -v "$tool" >/dev/null || apt-get install -y -q --no-install-recommends "$tool"
done
echo "machine: $(uname -srm), $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB"
echo "date:    $(date -u +%FT%TZ)"
echo "commit:  $(git -C "$root" rev-parse --short HEAD)"
echo "mirror:  $mirror"
t0=$(date +%s)
if [[ ! -f "$work/rootfs.tar" ]]; then
  rm -rf "$work/rootfs"
  echo "+ debootstrap --variant=minbase bookworm $work/rootfs $mirror"
  debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1
  tar -C "$work/rootfs" -cf "$work/rootfs.tar" .
fi
t1=$(date +%s)
echo "debootstrap: $((t1 - t0)) s"
for tag in bookworm bookworm-slim; do
  buildah rmi -f "docker.io/library/debian:$tag" >/dev/null 2>&1 || true
  c=$(buildah from scratch)
  m=$(buildah mount "$c")
  tar -C "$m" -xf "$work/rootfs.tar"
  buildah umount "$c" >/dev/null
  buildah commit -q "$c" "docker.io/library/debian:$tag" >/dev/null
  buildah rm "$c" >/dev/null
done
echo "+ buildah bud --isolation chroot --pull=never -t kvroute:bench -f Dockerfile ."
t2=$(date +%s)
(cd "$root" && buildah bud --isolation chroot --pull=never --layers=false -t localhost/kvroute:bench \
   -f Dockerfile . >"$work/bud.log" 2>&1) || { echo "buildah bud failed: tail of $work/bud.log"; tail -20 "$work/bud.log"; exit 1; }
t3=$(date +%s)
echo "buildah bud: $((t3 - t2)) s"
buildah images --format '{{.Name}}:{{.Tag}} {{.Size}}' localhost/kvroute:bench | sed 's/^/image: /'

# One request through the image's kvroute, against kvroute-sim on loopback.
sim=$root/build/plain/bench/sim/kvroute-sim
[[ -x "$sim" ]] || sim=$(find "$root/build" -name kvroute-sim -type f -perm -u+x | head -1)
sim_port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
router_port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
"$sim" --host 127.0.0.1 --port "$sim_port" --log-level warn >"$work/sim.log" 2>&1 &
sim_pid=$!
c=$(buildah from localhost/kvroute:bench)
m=$(buildah mount "$c")
cleanup() {
  [[ -n "${router_pid:-}" ]] && kill "$router_pid" 2>/dev/null || true
  kill "$sim_pid" 2>/dev/null || true
  buildah umount "$c" >/dev/null 2>&1 || true
  buildah rm "$c" >/dev/null 2>&1 || true
}
trap cleanup EXIT
echo "+ chroot --userspec=10001:10001 $m /usr/local/bin/kvroute --listen 127.0.0.1:$router_port --es 0 --engine http://127.0.0.1:$sim_port"
chroot --userspec=10001:10001 "$m" /usr/local/bin/kvroute --listen "127.0.0.1:$router_port" --es 0 \
  --engine "http://127.0.0.1:$sim_port" --admin-listen 127.0.0.1:0 >"$work/router.log" 2>&1 &
router_pid=$!
for _ in $(seq 100); do
  curl -s -o /dev/null "http://127.0.0.1:$router_port/health" && break
  sleep 0.1
done
# The model the engine serves, as the router lists it.
model=$(curl -s "http://127.0.0.1:$router_port/v1/models" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"][0]["id"])')
code=$(curl -s -o "$work/answer.json" -w '%{http_code}' "http://127.0.0.1:$router_port/v1/completions" \
  -H 'content-type: application/json' -d "{\"model\":\"$model\",\"prompt\":\"hello\",\"max_tokens\":4}")
echo "request: HTTP $code, $(head -c 200 "$work/answer.json")"
echo "total:   $(($(date +%s) - t0)) s"
