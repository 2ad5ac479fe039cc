#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Two attacks on one HTTP server, measured from outside.

pipeline: one client sends N pipelined `GET /metrics` and never reads; the
server's RSS (VmRSS of --pid) is printed before, and after it stopped
growing. hold: one client address (127.0.0.2) opens --hold connections and
keeps them; then a client from another address (127.0.0.3) connects and
GETs --probe-path; prints whether it was served and how long it took, and
whether the holder got every connection it asked for.

Loopback only. Prints one "key: value" line per figure.
"""
import argparse
import errno
import os
import resource
import socket
import sys
import time


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def settle(pid, seconds):
    """RSS once it has not changed for a second (or after `seconds`)."""
    last, same, end = rss_kb(pid), 0, time.monotonic() + seconds
    while time.monotonic() < end and same < 5:
        time.sleep(0.2)
        now = rss_kb(pid)
        same = same + 1 if now == last else 0
        last = now
    return last


def pipeline(args):
    req = f"GET /metrics HTTP/1.1\r\nHost: {args.host}\r\n\r\n".encode()
    data = req * args.requests
    before = rss_kb(args.pid)
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect((args.host, args.port))
    s.setblocking(False)
    sent, stalled_since = 0, None
    while sent < len(data):
        try:
            sent += s.send(data[sent:sent + 65536])
            stalled_since = None
        except BlockingIOError:
            # The server stopped taking requests: that is the fix at work.
            stalled_since = stalled_since or time.monotonic()
            if time.monotonic() - stalled_since > 3:
                break
            time.sleep(0.01)
    after = settle(args.pid, 30)
    print(f"pipelined_requests: {args.requests}")
    print(f"pipelined_bytes_sent: {sent} of {len(data)}")
    print(f"rss_before_mb: {before / 1024:.0f}")
    print(f"rss_after_mb: {after / 1024:.0f}")
    s.close()


def hold(args):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    held, refused = [], 0
    started = time.monotonic()
    for _ in range(args.hold):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind(("127.0.0.2", 0))
        try:
            s.connect((args.host, args.port))
            held.append(s)
        except OSError:
            refused += 1
            s.close()
    # Let the server accept (and refuse) what it will; a refused one reads EOF or a reset.
    time.sleep(1.0)
    alive = 0
    for s in held:
        s.setblocking(False)
        try:
            alive += s.recv(1) != b""
        except BlockingIOError:
            alive += 1
        except OSError:
            pass
    t0 = time.monotonic()
    status, why = None, ""
    try:
        c = socket.create_connection((args.host, args.port), timeout=10, source_address=("127.0.0.3", 0))
        c.sendall(f"GET {args.probe_path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        head = c.recv(64)
        status = int(head.split()[1]) if head.startswith(b"HTTP/1.1 ") else None
        why = "" if status else "closed without a response"
        c.close()
    except OSError as e:
        why = errno.errorcode.get(e.errno, str(e)) if e.errno else str(e)
    elapsed_ms = (time.monotonic() - t0) * 1000
    print(f"holder_connections_asked: {args.hold}")
    print(f"holder_connections_kept: {alive}")
    print(f"holder_seconds: {time.monotonic() - started:.1f}")
    print(f"second_client_status: {status if status else 'none (' + why + ')'}")
    print(f"second_client_ms: {elapsed_ms:.1f}")
    for s in held:
        s.close()


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["pipeline", "hold"])
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--pid", type=int, help="server pid (pipeline: its RSS)")
    p.add_argument("--requests", type=int, default=60000)
    p.add_argument("--hold", type=int, default=4096)
    p.add_argument("--probe-path", default="/health")
    args = p.parse_args()
    if not args.host.startswith("127."):
        sys.exit("attack.py: loopback only")
    if args.mode == "pipeline":
        if not args.pid:
            sys.exit("attack.py: pipeline needs --pid")
        pipeline(args)
    else:
        hold(args)


if __name__ == "__main__":
    main()
