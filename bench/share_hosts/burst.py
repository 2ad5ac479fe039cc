#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Sends one burst of N simultaneous chat requests, spread round-robin over the
given routers (distinct prompts, so no prefix is shared), and prints how many
each engine got (the X-Kvroute-Engine header)."""
import collections
import http.client
import json
import sys
import threading


def main():
    n = int(sys.argv[1])
    ports = [int(p) for p in sys.argv[2].split(",")]
    engines = collections.Counter()
    failed = [0]
    lock = threading.Lock()
    start = threading.Barrier(n)

    def one(i):
        body = json.dumps({"model": "m", "max_tokens": 400, "stream": False,
                           "messages": [{"role": "user", "content": f"burst request {i} " + "x" * (i % 7)}]})
        conn = http.client.HTTPConnection("127.0.0.1", ports[i % len(ports)], timeout=120)
        conn.connect()
        start.wait()
        try:
            conn.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
            r = conn.getresponse()
            r.read()
            with lock:
                if r.status == 200:
                    engines[r.getheader("X-Kvroute-Engine", "?")] += 1
                else:
                    failed[0] += 1
        finally:
            conn.close()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    counts = sorted(engines.values(), reverse=True)
    print(" ".join(str(c) for c in counts), f"failed={failed[0]}")


if __name__ == "__main__":
    main()
