# SPDX-License-Identifier: Apache-2.0
"""Small helpers for the bench's shell scripts (bench/lib.sh calls them).

  python3 -m kvrbench.tool free-ports N            first of N consecutive free loopback ports
  python3 -m kvrbench.tool scaled VALUE FLOOR SCALE  round(VALUE / SCALE), at least FLOOR
  python3 -m kvrbench.tool loads-running           SGLang /v1/loads JSON on stdin -> running
                                                   requests summed over DP ranks, -1 if unreadable
  python3 -m kvrbench.tool first-engine FILE       "engine" of the first record of a replay file
  python3 -m kvrbench.tool router-ready 0|1        router /metrics on stdin -> exit 0 when every
                                                   engine is healthy and, with 1, feed-fresh
"""
import json
import random
import socket
import sys

from kvrbench.metrics import parse_prom


def ephemeral_first():
    """The first port the kernel hands out as the source of outgoing connections."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_ports(n):
    """First port of n consecutive loopback ports that were all free a moment ago.

    Below the ephemeral range: a connect to a port nobody listens on yet can
    otherwise be given that same port as its source and connect to itself."""
    end = ephemeral_first()
    first = 10000 if end >= 10000 + 4096 else 1024
    if end < first + n:
        end = 65536
    for _ in range(200):
        base = random.randint(first, end - n)
        socks = []
        try:
            for p in range(base, base + n):
                s = socket.socket()
                socks.append(s)
                s.bind(("127.0.0.1", p))
        except OSError:
            continue
        finally:
            for s in socks:
                s.close()
        return base
    return None


def scaled(value, floor, scale):
    """A period divided by the time scale, rounded, never below floor."""
    return max(int(floor), round(float(value) / float(scale)))


def loads_running(text):
    """Running requests summed over the DP ranks of an SGLang /v1/loads answer; -1 if unreadable."""
    try:
        d = json.loads(text)
        return sum(int(load.get("num_running_reqs", 0)) for load in d.get("loads", []))
    except Exception:
        return -1


def first_engine(path):
    """The engine that served the first record of a kvroute-replay file ("" if none)."""
    with open(path) as f:
        return json.loads(f.readline())["engine"] or ""


def router_ready(text, feed):
    """True when a router's /metrics page lists engines, every one healthy, and with
    feed also lists kvroute_engine_feed_fresh for them, every one 1."""
    healthy, fresh = [], []
    for name, _, value in parse_prom(text):
        if name == "kvroute_engine_healthy":
            healthy.append(value)
        elif name == "kvroute_engine_feed_fresh":
            fresh.append(value)
    if not healthy or any(v != 1 for v in healthy):
        return False
    return not feed or (bool(fresh) and all(v == 1 for v in fresh))


def main(argv):
    usage = __doc__.split("\n\n")[1]
    if not argv:
        print("usage:\n" + usage, file=sys.stderr)
        return 2
    cmd, args = argv[0], argv[1:]
    try:
        if cmd == "free-ports" and len(args) == 1:
            base = free_ports(int(args[0]))
            if base is None:
                print("no free port range", file=sys.stderr)
                return 1
            print(base)
        elif cmd == "scaled" and len(args) == 3:
            print(scaled(*args))
        elif cmd == "loads-running" and not args:
            print(loads_running(sys.stdin.read()))
        elif cmd == "first-engine" and len(args) == 1:
            print(first_engine(args[0]))
        elif cmd == "router-ready" and len(args) == 1 and args[0] in ("0", "1"):
            return 0 if router_ready(sys.stdin.read(), args[0] == "1") else 1
        else:
            print("usage:\n" + usage, file=sys.stderr)
            return 2
    except ValueError as e:
        print("kvrbench.tool %s: %s" % (cmd, e), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
