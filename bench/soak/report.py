#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Samples and verdict of the soak benchmark (bench/soak/run.sh).

  report.py sample  one sample of the router, statefeed and client, appended to
                    samples.jsonl; with --print also the minute's line on stdout
  report.py idle    waits until the client has nothing in flight, then until the
                    router's in-flight gauges read 0; appends an "idle" sample
  report.py summary first/last/max of RSS and fds, request counts and the
                    flatness verdict from samples.jsonl and the client's final line

Standard library and the kvrbench package (bench/ on PYTHONPATH, as bench/lib.sh
sets it).
"""
import argparse
import json
import os
import statistics
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kvrbench.metrics import parse_prom  # noqa: E402
from kvrbench.records import load_records  # noqa: E402

# client kinds that are failures a client sees (gave_up is the client's own choice, ok is ok)
FAIL_KINDS = ("http_4xx", "http_5xx", "http_other", "stream_error", "cut", "no_done", "short",
              "bad_body", "stalled")
LOST_KINDS = ("lost_timeout", "lost_closed", "lost_pending")


def fetch(url, timeout=3.0):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.read().decode("utf-8", "replace")
    except Exception:  # a process being restarted or killed: the sample says so
        return None


def proc_figures(pid):
    """(RSS in kB, open fds) of a live pid, or (None, None)."""
    if not pid:
        return None, None
    try:
        rss = None
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
        fds = len(os.listdir(f"/proc/{pid}/fd"))
        return rss, fds
    except (OSError, ValueError):
        return None, None


def router_figures(base):
    text = fetch(base + "/metrics")
    if text is None:
        return None
    r = {"in_flight": None, "shadow": 0, "status": {}, "healthy": 0, "engines": 0, "retries": 0,
         "timeouts": 0, "cut": 0, "client_aborts": 0, "no_candidate": 0, "feed_opens": 0,
         "stale_fallbacks": 0}
    for name, labels, v in parse_prom(text):
        if name == "kvroute_in_flight":
            r["in_flight"] = int(v)
        elif name == "kvroute_engine_requests" and labels.get("kind") == "shadow":
            r["shadow"] += int(v)
        elif name == "kvroute_requests_total":
            r["status"][labels.get("status", "?")] = int(v)
        elif name == "kvroute_engine_healthy":
            r["engines"] += 1
            r["healthy"] += int(v)
        elif name == "kvroute_retries_total":
            r["retries"] += int(v)
        elif name == "kvroute_upstream_timeouts_total":
            r["timeouts"] += int(v)
        elif name == "kvroute_upstream_cut_total":
            r["cut"] = int(v)
        elif name == "kvroute_client_aborts_total":
            r["client_aborts"] = int(v)
        elif name == "kvroute_no_candidate_total":
            r["no_candidate"] = int(v)
        elif name == "kvroute_feed_opens_total":
            r["feed_opens"] = int(v)
        elif name == "kvroute_feed_stale_fallbacks_total":
            r["stale_fallbacks"] = int(v)
    return r


def feed_figures(base):
    text = fetch(base + "/metrics") if base else None
    if text is None:
        return None
    f = {"polls_ok": 0, "polls_failed": 0, "polls_garbage": 0, "healthy": 0}
    for name, labels, v in parse_prom(text):
        if name == "kvroute_statefeed_polls_total":
            key = "polls_" + labels.get("result", "")
            if key in f:
                f[key] += int(v)
        elif name == "kvroute_statefeed_slot_healthy":
            f["healthy"] += int(v)
    return f


def client_figures(path):
    try:
        with open(path) as f:
            return json.loads(f.readline())
    except (OSError, ValueError):
        return None


def take_sample(a, kind="tick"):
    rss, fds = proc_figures(a.router_pid)
    frss, ffds = proc_figures(a.feed_pid)
    return {"t": round(a.t, 1), "kind": kind, "fault": a.fault or "",
            "router": {"pid": a.router_pid, "rss_kb": rss, "fds": fds, "metrics": router_figures(a.router_url)},
            "feed": {"pid": a.feed_pid, "rss_kb": frss, "fds": ffds, "metrics": feed_figures(a.feed_url)},
            "client": client_figures(a.client_stats)}


def mb(kb):
    return "-" if kb is None else f"{kb / 1024:.1f} MB"


def dash(v):
    return "-" if v is None else str(v)


def kinds_text(client):
    kinds = client.get("kinds", {})
    parts = [f"{k} {kinds[k]}" for k in FAIL_KINDS + LOST_KINDS if kinds.get(k)]
    return ", ".join(parts)


def minute_line(s):
    t = int(s["t"])
    r, f, c = s["router"], s["feed"], s["client"] or {}
    rm = r["metrics"] or {}
    line = (f"soak {t // 60:3d}:{t % 60:02d}  router rss {mb(r['rss_kb'])} fds {dash(r['fds'])}"
            f" | statefeed rss {mb(f['rss_kb'])} fds {dash(f['fds'])}"
            f" | in flight router {dash(rm.get('in_flight'))} engines {dash(rm.get('shadow'))}"
            f" client {dash(c.get('inflight'))}"
            f" | healthy {dash(rm.get('healthy'))}/{dash(rm.get('engines'))}"
            f" | sent {dash(c.get('sent'))} ok {dash(c.get('ok'))} gave up {dash(c.get('gave_up'))}"
            f" failed {dash(c.get('failed'))} lost {dash(c.get('lost'))}")
    kt = kinds_text(c)
    if kt:
        line += f" ({kt})"
    if s["fault"]:
        line += f" | fault: {s['fault']}"
    return line


def append(path, rec):
    with open(path, "a") as f:
        f.write(json.dumps(rec, sort_keys=True) + "\n")


def cmd_sample(a):
    s = take_sample(a)
    append(a.out, s)
    if a.print:
        print(minute_line(s), flush=True)
    # the router gone is what the soak exists to find: say so at once
    return 0 if s["router"]["rss_kb"] is not None else 3


def cmd_idle(a):
    """Client first (its requests are what the router holds), then the router's gauges."""
    t0 = time.monotonic()
    deadline = t0 + a.client_timeout
    c = None
    while time.monotonic() < deadline:
        c = client_figures(a.client_stats)
        if c and c.get("paused") and c.get("inflight") == 0:
            break
        time.sleep(0.2)
    client_idle = bool(c and c.get("inflight") == 0)
    deadline = time.monotonic() + a.router_timeout
    rm = None
    while time.monotonic() < deadline:
        rm = router_figures(a.router_url)
        if rm and rm["in_flight"] == 0 and rm["shadow"] == 0:
            break
        time.sleep(0.2)
    router_idle = bool(rm and rm["in_flight"] == 0 and rm["shadow"] == 0)
    a.t += time.monotonic() - t0
    s = take_sample(a, "idle")
    s["idle"] = {"client": client_idle, "router": router_idle, "waited_s": round(time.monotonic() - t0, 1)}
    append(a.out, s)
    r = s["router"]
    verdict = "at zero" if client_idle and router_idle else "NOT AT ZERO"
    print(f"soak idle check: {verdict} after {s['idle']['waited_s']} s: client in flight "
          f"{dash(c and c.get('inflight'))}, router in flight {dash(rm and rm['in_flight'])}, engines "
          f"{dash(rm and rm['shadow'])} | router rss {mb(r['rss_kb'])} fds {dash(r['fds'])}"
          f" | statefeed rss {mb(s['feed']['rss_kb'])} fds {dash(s['feed']['fds'])}", flush=True)
    return 0 if client_idle and router_idle else 1


def window_median(samples, key, t_from, t_to):
    vals = [key(s) for s in samples if t_from <= s["t"] < t_to and key(s) is not None]
    return statistics.median(vals) if vals else None


def growth(samples, key, duration, window):
    """(median near the half-way point, median of the last window, relative growth) of key;
    all None when the two windows would overlap (a run shorter than two windows)."""
    if duration < 2 * window:
        return None, None, None
    half = window_median(samples, key, duration / 2, duration / 2 + window)
    last = window_median(samples, key, duration - window, duration + 1e9)
    if half is None or last is None or half <= 0:
        return half, last, None
    return half, last, (last - half) / half


def span(samples, key):
    vals = [key(s) for s in samples if key(s) is not None]
    return (vals[0], vals[-1], max(vals)) if vals else (None, None, None)


def load_exits(path):
    """[(t, who, status, fault)] from exits.txt lines "t who status fault..."."""
    out = []
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                parts = line.split(maxsplit=3)
                if len(parts) >= 3:
                    out.append((float(parts[0]), parts[1], int(parts[2]), parts[3].strip() if len(parts) > 3 else ""))
    return out


def verdict(samples, final, duration, window, rss_max_pct, fd_max_pct, fd_slack, exits=()):
    """The summary dict: figures and the list of reasons the run is not flat (empty = flat)."""
    ticks = [s for s in samples if s["kind"] == "tick"]
    rk = lambda s: s["router"]["rss_kb"]  # noqa: E731
    rf = lambda s: s["router"]["fds"]  # noqa: E731
    # statefeed is killed on purpose: its flatness is judged on its last process only
    last_feed = next((s["feed"]["pid"] for s in reversed(samples) if s["feed"]["rss_kb"] is not None), None)
    feed_ticks = [s for s in ticks if s["feed"]["pid"] == last_feed]
    fk = lambda s: s["feed"]["rss_kb"]  # noqa: E731
    ff = lambda s: s["feed"]["fds"]  # noqa: E731
    res = {"duration_s": duration, "samples": len(ticks)}
    why = []
    for name, key, sel, pct, slack in (("router_rss_kb", rk, ticks, rss_max_pct, 0),
                                       ("router_fds", rf, ticks, fd_max_pct, fd_slack),
                                       ("feed_rss_kb", fk, feed_ticks, rss_max_pct, 0),
                                       ("feed_fds", ff, feed_ticks, fd_max_pct, fd_slack)):
        first, last, top = span(sel, key)
        # judged over the process's own life: times shifted to start at its first sample
        t0 = sel[0]["t"] if sel else 0
        shifted = [dict(s, t=s["t"] - t0) for s in sel]
        half, end, g = growth(shifted, key, duration - t0, window) if sel else (None, None, None)
        res[name] = {"first": first, "last": last, "max": top, "half": half, "end": end,
                     "growth": g}
        if g is None:
            if name.startswith("feed"):
                # a statefeed restarted late in the run: reported, not judged
                res[name]["note"] = "too few samples since its last start to judge"
            else:
                why.append(f"{name}: too few samples to judge the last half")
        elif end > half * (1 + pct / 100.0) + slack:
            why.append(f"{name} grew {g * 100:.1f}% over the last half ({half:g} -> {end:g})")
    idles = [s for s in samples if s["kind"] == "idle"]
    # Under load the router's fds follow the connections the faults leave open; with the
    # client paused they are comparable: judged on idle checks when the first half had one.
    early = [s["router"]["fds"] for s in idles if s["t"] <= duration / 2 and s["router"]["fds"] is not None]
    if len(idles) >= 2 and early and idles[-1]["router"]["fds"] is not None:
        why = [w for w in why if not w.startswith("router_fds")]
        ref, end = max(early), idles[-1]["router"]["fds"]
        res["router_fds"].update(half=ref, end=end, growth=(end - ref) / ref, judged_on="idle checks")
        if end > ref * (1 + fd_max_pct / 100.0) + fd_slack:
            why.append(f"router_fds at idle grew {(end - ref) / ref * 100:.1f}% ({ref:g} -> {end:g})")
    res["idle_checks"] = len(idles)
    res["idle_at_zero"] = sum(1 for s in idles if s["idle"]["client"] and s["idle"]["router"])
    res["idle_router_fds"] = [s["router"]["fds"] for s in idles]
    res["idle_router_rss_kb"] = [s["router"]["rss_kb"] for s in idles]
    if not idles:
        why.append("no idle check ran")
    elif res["idle_at_zero"] != len(idles):
        why.append(f"in-flight counters not back to 0 at {len(idles) - res['idle_at_zero']} of "
                   f"{len(idles)} idle checks")
    if any(s["router"]["rss_kb"] is None for s in samples):
        why.append("the router was not running at some sample")
    # statefeed is under test; a simulator is the test's own equipment: reported, not judged
    res["unasked_exits"] = [{"t": t, "who": who, "status": st, "fault": f} for t, who, st, f in exits]
    for t, who, st, f in exits:
        if who == "statefeed":
            why.append(f"statefeed exited unasked at {t:g} s (status {st}) during {f}")
    c = final or {}
    kinds = c.get("kinds", {})
    res["client"] = {k: c.get(k) for k in ("sent", "answered", "ok", "gave_up", "failed", "lost")}
    res["client"]["kinds"] = {k: v for k, v in kinds.items() if v}
    if not final:
        why.append("the client's final counters are missing")
    elif c.get("lost"):
        why.append(f"{c['lost']} requests lost (sent, never answered)")
    elif c.get("sent") != c.get("answered"):
        why.append(f"sent {c.get('sent')} but answered {c.get('answered')}")
    res["why_not_flat"] = why
    return res


def summary_text(res, rss_max_pct):
    def fig(name, unit_mb):
        d = res[name]
        conv = (lambda v: "-" if v is None else f"{v / 1024:.1f}") if unit_mb else dash
        g = d.get("note", "-") if d["growth"] is None else f"{d['growth'] * 100:+.1f}%"
        if d.get("judged_on"):
            g += f" at {d['judged_on']}"
        return f"first {conv(d['first'])} last {conv(d['last'])} max {conv(d['max'])} (last-half {g})"
    c = res["client"]
    kinds = ", ".join(f"{k} {v}" for k, v in c["kinds"].items() if k != "ok")
    lines = [
        f"soak summary: {res['duration_s'] / 60:.1f} min, {res['samples']} samples",
        f"  router rss MB {fig('router_rss_kb', True)}; fds {fig('router_fds', False)}",
        f"  statefeed (last process) rss MB {fig('feed_rss_kb', True)}; fds {fig('feed_fds', False)}",
        f"  requests sent {c['sent']} completed {c['ok']} failed {c['failed']} gave up {c['gave_up']}"
        f" lost {c['lost']}" + (f" ({kinds})" if kinds else ""),
        f"  idle checks at zero: {res['idle_at_zero']}/{res['idle_checks']}; router fds at idle "
        f"{res['idle_router_fds']}",
        "  unasked exits: " + (", ".join(f"{e['who']} at {e['t']:g} s (status {e['status']}, during {e['fault']})"
                                         for e in res.get("unasked_exits", [])) or "none"),
        ("  verdict: FLAT (RSS and fds within " + f"{rss_max_pct:g}% over the last half, no lost request, "
         "counters back to 0)") if not res["why_not_flat"] else
        "  verdict: NOT FLAT: " + "; ".join(res["why_not_flat"]),
    ]
    return "\n".join(lines)


def cmd_summary(a):
    samples = load_records(a.samples)
    final = client_figures(a.client_final) if a.client_final else None
    res = verdict(samples, final, a.duration, a.window, a.rss_growth_max, a.fd_growth_max, a.fd_slack,
                  load_exits(a.exits))
    with open(a.json, "w") if a.json else open(os.devnull, "w") as f:
        json.dump(res, f, indent=1, sort_keys=True)
    print(summary_text(res, a.rss_growth_max), flush=True)
    return 0 if not res["why_not_flat"] else 1


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("sample", "idle"):
        q = sub.add_parser(name)
        q.add_argument("--out", required=True, help="samples.jsonl to append to")
        q.add_argument("--t", type=float, required=True, help="seconds since the traffic started")
        q.add_argument("--router-pid", type=int, required=True)
        q.add_argument("--router-url", required=True, help="the router's admin listener, http://127.0.0.1:PORT")
        q.add_argument("--feed-pid", type=int, default=0, help="0 while statefeed is down")
        q.add_argument("--feed-url", default="", help="statefeed's --listen address as a URL")
        q.add_argument("--client-stats", required=True, help="the client's --stats file")
        q.add_argument("--fault", default="", help="the fault in force, for the line")
        if name == "sample":
            q.add_argument("--print", action="store_true", help="print the minute's line")
        else:
            q.add_argument("--client-timeout", type=float, default=180, help="longest wait for the client")
            q.add_argument("--router-timeout", type=float, default=10, help="longest wait for the router")
    q = sub.add_parser("summary")
    q.add_argument("--samples", required=True)
    q.add_argument("--client-final", help="the client's final stats line")
    q.add_argument("--duration", type=float, required=True, help="seconds of traffic")
    q.add_argument("--window", type=float, default=60, help="seconds each median is taken over")
    q.add_argument("--rss-growth-max", type=float, default=10, help="percent")
    q.add_argument("--fd-growth-max", type=float, default=10, help="percent")
    q.add_argument("--fd-slack", type=float, default=8, help="fds allowed on top of the percentage")
    q.add_argument("--json", help="write the figures here")
    q.add_argument("--exits", help="exits.txt: processes that exited unasked")
    a = p.parse_args(argv)
    return {"sample": cmd_sample, "idle": cmd_idle, "summary": cmd_summary}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
