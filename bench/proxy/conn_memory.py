#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Memory kvroute holds per connection: RSS growth with N streams in flight,
and with N idle pooled upstream connections, in front of 4 kvroute-sim
engines on loopback.

    bench/proxy/conn_memory.py [BUILD_DIR] [N] [streams|idle]

Prints one line: the RSS before (kvroute started, no traffic), the RSS with
the N streams open (each has had its first event; read 1 s later) or after N
whole requests left N idle upstream connections in the pools, and the
difference divided by N. The idle figure includes client-side memory freed
but not returned to the system.
"""
import asyncio
import json
import socket
import subprocess
import sys
import time
import urllib.request

ENGINES = 4
SIM_PORT = 19100
ROUTER_PORT = 19080
ADMIN_PORT = 19081  # the router's --admin-listen: /engines
CHAT = (b'{"model":"sim-30b-a3b","stream":%s,"max_tokens":%d,'
        b'"messages":[{"role":"user","content":"m"}]}')


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def wait_port(port):
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port)).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listens on {port}")


async def request(body, connection_close, first=None, done=None):
    reader, writer = await asyncio.open_connection("127.0.0.1", ROUTER_PORT)
    extra = b"Connection: close\r\n" if connection_close else b""
    writer.write(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n%sContent-Length: %d\r\n\r\n%s"
                 % (extra, len(body), body))
    if first is None:
        await reader.read()
    else:
        seen = b""
        while b"data: " not in seen:
            chunk = await reader.read(4096)
            if not chunk:
                raise SystemExit("a stream ended before its first event")
            seen += chunk
        first.append(1)
        await done.wait()
    writer.close()


async def streams(pid, n):
    first, done = [], asyncio.Event()
    tasks = [asyncio.create_task(request(CHAT % (b"true", 100000), False, first, done)) for _ in range(n)]
    while len(first) < n:
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)
    held = rss_kb(pid)
    done.set()
    await asyncio.gather(*tasks)
    return held, n


async def idle(pid, n):
    await asyncio.gather(*[request(CHAT % (b"false", 1), True) for _ in range(n)])
    await asyncio.sleep(1.0)
    with urllib.request.urlopen(f"http://127.0.0.1:{ADMIN_PORT}/engines") as r:
        doc = json.load(r)
    return rss_kb(pid), sum(e["upstream"]["idle"] for e in doc["engines"])


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build/dev"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    mode = sys.argv[3] if len(sys.argv) > 3 else "streams"
    if mode not in ("streams", "idle"):
        raise SystemExit("mode: streams or idle")
    sim = subprocess.Popen([f"{build}/bench/sim/kvroute-sim", "--engines", str(ENGINES), "--port", str(SIM_PORT),
                            "--max-running", "1024", "--step-scale", "20", "--log-level", "warn"])
    router = None
    try:
        for i in range(ENGINES):
            wait_port(SIM_PORT + i)
        args = [f"{build}/router/kvroute", "--listen", f"127.0.0.1:{ROUTER_PORT}", "--es", "0",
                "--admin-listen", f"127.0.0.1:{ADMIN_PORT}",
                "--log-level", "warn", "--keepalive", str(n)]
        for i in range(ENGINES):
            args += ["--engine", f"http://127.0.0.1:{SIM_PORT + i}"]
        router = subprocess.Popen(args)
        wait_port(ROUTER_PORT)
        time.sleep(0.5)
        base = rss_kb(router.pid)
        held, count = asyncio.run((streams if mode == "streams" else idle)(router.pid, n))
        print(f"mode={mode} n={count} rss_before_kb={base} rss_kb={held} "
              f"per_connection_kb={(held - base) / max(count, 1):.1f}")
    finally:
        for p in (router, sim):
            if p:
                p.terminate()
                p.wait()


if __name__ == "__main__":
    main()
