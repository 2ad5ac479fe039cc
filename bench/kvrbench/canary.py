# SPDX-License-Identifier: Apache-2.0
"""The fail-closed canary analyzer behind bench/canary/kvroute-canary.

An arm is a directory whose arm.json names its inputs (paths relative to the
arm directory):

    {"records": [{"file": "phase1.jsonl", "trace": "../phase1.trace.jsonl"}, ...],
     "metrics": "router-metrics.txt",          router /metrics after the run
     "feed": "feed.txt",                       kvroute-feedsample output
     "decisions": ["decisions.jsonl"],         router decision logs
     "engine_metrics": ["engine-0.txt", ...],  each engine's /metrics after the run
     "engines": ["http://...", ...],           the fleet, in order
     "roles": {"http://...": "owner"},         optional names for engines
     "time_scale": 1,                          simulated seconds per real second
     "failures": []}                           what went wrong in the run itself

Every figure is computed from those files; any file missing, unreadable or
inconsistent with the other arm refuses the comparison (InputError).
Standard library only.
"""
import hashlib
import json
import os
import random
import re

from kvrbench import records
from kvrbench.records import percentile

PRIMARY = (("tok_s_per_node", "successful output tokens/s per node"),
           ("traj_per_hour", "completed trajectories/hour"))
# Figures --no-increase accepts, with the arm key each reads.
COUNTS = {"errors": "errors", "429": "http_429", "retractions": "retractions", "retries": "retries",
          "upstream_errors": "upstream_errors"}
RETRACTION_METRICS = ("sglang:num_retracted_reqs_total", "vllm:num_preemptions_total")


class InputError(Exception):
    """An input is missing, unreadable or inconsistent: no verdict is possible."""


def _path(arm_dir, rel, what):
    if not isinstance(rel, str) or not rel:
        raise InputError("%s: arm.json names no %s" % (arm_dir, what))
    p = os.path.normpath(os.path.join(arm_dir, rel))
    if not os.path.isfile(p):
        raise InputError("%s: %s %s is missing" % (arm_dir, what, p))
    return p


def _jsonl(path, what):
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                d = json.loads(line)
            except ValueError:
                raise InputError("%s line %d: %s is not JSON" % (path, n, what)) from None
            if not isinstance(d, dict):
                raise InputError("%s line %d: %s is not an object" % (path, n, what))
            out.append(d)
    return out


def _number(v, where):
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or v < 0:
        raise InputError("%s: %r is not a non-negative number" % (where, v))
    return v


def prom_samples(path):
    """[(name, {label: value}, value)] of a Prometheus text page; a bad line refuses it."""
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            m = re.match(r'([A-Za-z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$', line)
            if not m:
                raise InputError("%s line %d: not a Prometheus sample" % (path, n))
            labels = dict(re.findall(r'([A-Za-z_]\w*)="((?:[^"\\]|\\.)*)"', m.group(2) or ""))
            try:
                value = float(m.group(3))
            except ValueError:
                raise InputError("%s line %d: value %r is not a number" % (path, n, m.group(3))) from None
            out.append((m.group(1), labels, value))
    return out


def _sum(samples, name, **match):
    return sum(v for n, labels, v in samples if n == name and all(labels.get(k) == x for k, x in match.items()))


def _engine_of(rec):
    return (rec.get("engine") or records.base_url(rec.get("target")) or "").rstrip("/")


def load_arm(arm_dir):
    """The arm's inputs, checked: records paired with their traces, metrics, feed, decisions."""
    meta_path = os.path.join(arm_dir, "arm.json")
    if not os.path.isdir(arm_dir):
        raise InputError("%s: no such arm directory" % arm_dir)
    if not os.path.isfile(meta_path):
        raise InputError("%s: arm.json is missing" % arm_dir)
    try:
        with open(meta_path) as f:
            meta = json.load(f)
    except ValueError:
        raise InputError("%s: arm.json is not JSON" % meta_path) from None
    if not isinstance(meta, dict):
        raise InputError("%s: arm.json is not an object" % meta_path)
    failures = meta.get("failures")
    if not isinstance(failures, list):
        raise InputError("%s: arm.json does not say whether the run failed (\"failures\": [...])" % arm_dir)
    if failures:
        raise InputError("%s: the run had failures: %s" % (arm_dir, "; ".join(map(str, failures))))
    engines = meta.get("engines")
    if not isinstance(engines, list) or not engines or not all(isinstance(e, str) for e in engines):
        raise InputError("%s: arm.json lists no engines" % arm_dir)
    engines = [e.rstrip("/") for e in engines]
    if len(set(engines)) != len(engines):
        raise InputError("%s: arm.json lists an engine twice" % arm_dir)
    scale = _number(meta.get("time_scale", 1), "%s: time_scale" % arm_dir)
    if scale <= 0:
        raise InputError("%s: time_scale must be above 0" % arm_dir)
    entries = meta.get("records")
    if not isinstance(entries, list) or not entries:
        raise InputError("%s: arm.json lists no replay records" % arm_dir)
    arm = {"dir": arm_dir, "meta": meta, "engines": engines, "scale": scale, "parts": [],
           "roles": {k.rstrip("/"): v for k, v in (meta.get("roles") or {}).items()}}
    for entry in entries:
        if not isinstance(entry, dict):
            raise InputError("%s: a records entry is not an object" % arm_dir)
        rec_path = _path(arm_dir, entry.get("file"), "replay records")
        trace_path = _path(arm_dir, entry.get("trace"), "trace")
        with open(trace_path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        trace = _jsonl(trace_path, "trace request")
        with open(rec_path, "rb") as f:
            rec_digest = hashlib.sha256(f.read()).hexdigest()
        recs = _jsonl(rec_path, "record")
        check_coverage(rec_path, recs, trace)
        arm["parts"].append({"name": os.path.basename(rec_path), "records": recs, "trace": trace,
                             "digest": digest, "records_digest": rec_digest})
    if not any(p["records"] for p in arm["parts"]):
        raise InputError("%s: the arm has no records" % arm_dir)
    arm["metrics"] = prom_samples(_path(arm_dir, meta.get("metrics"), "router metrics"))
    if not any(n.startswith("kvroute_") for n, _, _ in arm["metrics"]):
        raise InputError("%s: the router metrics hold no kvroute_ sample" % arm_dir)
    arm["feed"] = load_feed(_path(arm_dir, meta.get("feed"), "feed samples"))
    decisions = meta.get("decisions")
    if not isinstance(decisions, list) or not decisions:
        raise InputError("%s: arm.json lists no decision log" % arm_dir)
    arm["decisions"] = []
    for d in decisions:
        arm["decisions"] += _jsonl(_path(arm_dir, d, "decision log"), "decision")
    if not arm["decisions"]:
        raise InputError("%s: the decision logs are empty" % arm_dir)
    check_decisions(arm)
    eng_metrics = meta.get("engine_metrics")
    if not isinstance(eng_metrics, list) or len(eng_metrics) != len(engines):
        raise InputError("%s: arm.json needs one engine_metrics file per engine" % arm_dir)
    arm["engine_metrics"] = [prom_samples(_path(arm_dir, p, "engine metrics")) for p in eng_metrics]
    return arm


def check_coverage(rec_path, recs, trace):
    """Exactly one record per trace request, matching it: nothing lost, nothing extra."""
    seen = set()
    for r in recs:
        i = r.get("index")
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(trace):
            raise InputError("%s: record index %r is not a request of its trace" % (rec_path, i))
        if i in seen:
            raise InputError("%s: request %d recorded twice" % (rec_path, i))
        seen.add(i)
        t = trace[i]
        if r.get("input_length") != t.get("input_length") or r.get("session") != t.get("session_id"):
            raise InputError("%s: record %d does not match its trace request" % (rec_path, i))
        for k in ("send_mono_ns", "end_mono_ns"):
            _number(r.get(k), "%s: record %d %s" % (rec_path, i, k))
        if r["end_mono_ns"] < r["send_mono_ns"]:
            raise InputError("%s: record %d ends before it was sent" % (rec_path, i))
    if len(seen) != len(trace):
        raise InputError("%s: %d of the trace's %d requests have no record" % (rec_path, len(trace) - len(seen),
                                                                              len(trace)))


def check_decisions(arm):
    """The router logs one decision per request it routed: each names a request of the records, once.

    A log with decisions of requests the records do not hold (another run's log, two runs appended)
    or naming one request twice would mix figures of different runs: no verdict."""
    ids = {}
    for p in arm["parts"]:
        for r in p["records"]:
            rid = r.get("request_id")
            if not isinstance(rid, str) or not rid:
                raise InputError("%s: record %s of %s has no request_id: the decision log cannot be checked "
                                 "against the records" % (arm["dir"], r.get("index"), p["name"]))
            ids[rid] = r
    seen = set()
    for n, d in enumerate(arm["decisions"], 1):
        rid = d.get("request_id")
        if rid not in ids:
            raise InputError("%s: decision %d names request %r, which the records do not hold (%d decisions, "
                             "%d records)" % (arm["dir"], n, rid, len(arm["decisions"]), len(ids)))
        if rid in seen:
            raise InputError("%s: request %r has two decisions (%d decisions, %d records)"
                             % (arm["dir"], rid, len(arm["decisions"]), len(ids)))
        seen.add(rid)
    arm["decision_of"] = {d["request_id"]: d for d in arm["decisions"]}


def load_feed(path):
    """kvroute-feedsample's file, which must have started, ended and sampled."""
    lines = list(records.feed_lines(path))
    kinds = {p[0] for p in lines}
    if "start" not in kinds or "end" not in kinds:
        raise InputError("%s: the feed sampler did not run to its end (no start or end line)" % path)
    samples = [p for p in lines if p[0] == "s"]
    if not samples:
        raise InputError("%s: no feed samples" % path)
    return samples


def fleet_running_max(samples):
    """Largest sum over engines of the latest reported running count."""
    latest, best = {}, 0
    for p in samples:
        try:
            latest[p[2]] = int(p[6])
        except ValueError:
            raise InputError("feed sample %r: running is not a number" % " ".join(p)) from None
        best = max(best, sum(latest.values()))
    return best


def figures(arm):
    """Every figure of one arm."""
    scale, engines = arm["scale"], arm["engines"]
    recs = [r for p in arm["parts"] for r in p["records"]]
    ok = [r for r in recs if r.get("ok") is True]
    first = min(r["send_mono_ns"] for r in recs)
    last = max(r["end_mono_ns"] for r in recs)
    wall_s = (last - first) / 1e9 * scale
    name = {e: arm["roles"].get(e, "e%d" % i) for i, e in enumerate(engines)}
    gen = {name[e]: 0 for e in engines}
    out_tokens = prompt = cached = 0
    lat = []
    for r in ok:
        e = _engine_of(r)
        if e not in name:
            raise InputError("%s: request %s was served by %r, not an engine of the fleet"
                             % (arm["dir"], r.get("index"), e))
        tokens = _number(r.get("output_tokens") or 0, "%s: output_tokens" % arm["dir"])
        gen[name[e]] += tokens
        out_tokens += tokens
        prompt += _number(r.get("prompt_tokens") or 0, "%s: prompt_tokens" % arm["dir"])
        cached += _number(r.get("cached_tokens") or 0, "%s: cached_tokens" % arm["dir"])
        if r.get("e2e_ms") is not None:
            lat.append(_number(r["e2e_ms"], "%s: e2e_ms" % arm["dir"]) * scale / 1000.0)
    # A trajectory is complete when every one of its requests in the trace succeeded.
    done = {}
    for p in arm["parts"]:
        for r in p["records"]:
            key = r.get("session") if r.get("session") is not None else "%s#%d" % (p["name"], r["index"])
            done[key] = done.get(key, True) and r.get("ok") is True
    complete = sum(1 for v in done.values() if v)
    # Copies of a block: engines that prefilled a request holding it.
    holders = {}
    for p in arm["parts"]:
        for r in p["records"]:
            if r.get("ok") is not True:
                continue
            for h in p["trace"][r["index"]].get("hash_ids") or []:
                holders.setdefault(h, set()).add(_engine_of(r))
    reads = {labels.get("state"): v for n, labels, v in arm["metrics"] if n == "kvroute_feed_reads_total"}
    total_reads = sum(reads.values())
    decided = [d for d in arm["decisions"] if d.get("engine")]
    fresh_decisions = sum(1 for d in decided if d.get("feed") == "fresh")
    coverage_reads = reads.get("fresh", 0) / total_reads if total_reads else 0.0
    coverage_decisions = fresh_decisions / len(decided) if decided else 0.0
    reasons = {}
    for d in arm["decisions"]:
        r = d.get("reason") or "unlabelled"
        reasons[r] = reasons.get(r, 0) + 1
    m = arm["metrics"]
    return {
        "requests": len(recs), "ok": len(ok), "fleet": len(engines), "wall_s": wall_s,
        "errors": sum(1 for r in recs if r.get("ok") is not True and r.get("status") != 429),
        "http_429": sum(1 for r in recs if r.get("status") == 429),
        "tok_s_per_node": out_tokens / wall_s / len(engines) if wall_s > 0 else 0.0,
        "traj_per_hour": complete / wall_s * 3600 if wall_s > 0 else 0.0,
        "trajectories": len(done), "complete": complete,
        "lat_p50": percentile(lat, 50), "lat_p95": percentile(lat, 95),
        "running_max": fleet_running_max(arm["feed"]),
        "gen_share": {e: 100.0 * t / out_tokens if out_tokens else 0.0 for e, t in gen.items()},
        "cached_pct": 100.0 * cached / prompt if prompt else 0.0,
        "replication": max((len(s) for s in holders.values()), default=0),
        "telemetry_coverage": min(coverage_reads, coverage_decisions),
        "coverage_reads": coverage_reads, "coverage_decisions": coverage_decisions,
        "reasons": reasons,
        "retries": _sum(m, "kvroute_retries_total"),
        "upstream_errors": _sum(m, "kvroute_engine_failures_total"),
        "retractions": sum(_sum(s, n) for s in arm["engine_metrics"] for n in RETRACTION_METRICS),
    }


def check_size(arm, min_requests):
    """An arm with fewer requests than min_requests gives no verdict: its figures are noise."""
    n = sum(len(p["records"]) for p in arm["parts"])
    if n < min_requests:
        raise InputError("%s: %d requests, fewer than the %d a verdict needs (--min-requests)"
                         % (arm["dir"], n, min_requests))


# The figures a bootstrap draw recomputes; the rest are counts of the whole run.
DRAWN = ("cached_pct", "tok_s_per_node", "traj_per_hour", "lat_p95", "coverage_decisions")


def _trajectories(arm):
    """The arm's records grouped by trajectory, the unit a bootstrap draw takes: the requests of one
    trajectory share its engine and its cache, so they are not independent draws."""
    groups = {}
    for p in arm["parts"]:
        for r in p["records"]:
            key = r.get("session") if r.get("session") is not None else "%s#%d" % (p["name"], r["index"])
            groups.setdefault(key, []).append(r)
    return list(groups.values())


def _drawn_figures(arm, groups, wall_s, fleet):
    out_tokens = prompt = cached = complete = decided = fresh = 0
    lat = []
    for g in groups:
        all_ok = True
        for r in g:
            d = arm["decision_of"].get(r["request_id"])
            if d is not None and d.get("engine"):
                decided += 1
                fresh += d.get("feed") == "fresh"
            if r.get("ok") is not True:
                all_ok = False
                continue
            out_tokens += r.get("output_tokens") or 0
            prompt += r.get("prompt_tokens") or 0
            cached += r.get("cached_tokens") or 0
            if r.get("e2e_ms") is not None:
                lat.append(r["e2e_ms"] * arm["scale"] / 1000.0)
        complete += all_ok
    return {"cached_pct": 100.0 * cached / prompt if prompt else 0.0,
            "tok_s_per_node": out_tokens / wall_s / fleet if wall_s > 0 else 0.0,
            "traj_per_hour": complete / wall_s * 3600 if wall_s > 0 else 0.0,
            "lat_p95": percentile(lat, 95), "coverage_decisions": fresh / decided if decided else 0.0}


def bootstrap(arm, fig, draws, rng):
    """{figure: [value per draw]} for the figures in DRAWN: each draw takes as many trajectories as the
    arm has, with replacement, over the arm's wall time."""
    groups = _trajectories(arm)
    out = {k: [] for k in DRAWN}
    for _ in range(draws):
        pick = [groups[rng.randrange(len(groups))] for _ in groups]
        for k, v in _drawn_figures(arm, pick, fig["wall_s"], fig["fleet"]).items():
            out[k].append(v)
    return out


def draws_for(control, treatment, c, t, draws, seed):
    """Both arms' bootstrap draws, from one seeded generator: the same inputs give the same verdict."""
    rng = random.Random(seed)
    return bootstrap(control, c, draws, rng), bootstrap(treatment, t, draws, rng)


def interval(values):
    """The 95% percentile interval of a figure's draws (None draws dropped), or None."""
    v = [x for x in values if x is not None]
    if not v:
        return None
    return percentile(v, 2.5), percentile(v, 97.5)


def _ratio_draws(tv, cv):
    return [None if a is None or b is None or b <= 0 else a / b for a, b in zip(tv, cv)]


def check_pair(control, treatment):
    """The two arms must have replayed the same trace on fleets of one size and time scale."""
    a, b = control, treatment
    if os.path.realpath(a["dir"]) == os.path.realpath(b["dir"]):
        raise InputError("the control and the treatment are one arm (%s): nothing is compared" % a["dir"])
    if [p["records_digest"] for p in a["parts"]] == [p["records_digest"] for p in b["parts"]]:
        raise InputError("the arms' replay records are byte-identical (%s, %s): one run given as both arms"
                         % (a["dir"], b["dir"]))
    if [p["digest"] for p in a["parts"]] != [p["digest"] for p in b["parts"]]:
        raise InputError("the arms replayed different traces (%s vs %s)" % (a["dir"], b["dir"]))
    if len(a["engines"]) != len(b["engines"]):
        raise InputError("the arms ran fleets of %d and %d engines" % (len(a["engines"]), len(b["engines"])))
    if a["scale"] != b["scale"]:
        raise InputError("the arms ran at time scales %g and %g" % (a["scale"], b["scale"]))


def evaluate(gates, c, t, cd, td):
    """[(passed, line)] for every gate: c and t the arms' figures, cd and td their bootstrap draws.

    A gate on a figure that varies with the sample (cache loss, the primary ratios, the p95 ratio,
    telemetry coverage of the decisions) passes only when its whole 95% interval is on the passing
    side; a gate on a count of the run (active engines, replication, no-increase) compares the counts."""
    out = []

    def line(ok, gate, text):
        out.append((ok, "%s %s: %s" % ("PASS" if ok else "FAIL", gate, text)))

    def span(iv, spec):
        return "n/a" if iv is None else ("%s to %s" % (spec, spec)) % iv

    if "min_active_engines" in gates:
        need, of, share = gates["min_active_engines"]
        active = sum(1 for v in t["gen_share"].values() if v >= share)
        ok = active >= need and t["fleet"] == of
        line(ok, "min-active-engines", "treatment %d of %d engines generate >= %g%% of tokens (control %d); need "
             "%d of %d" % (active, t["fleet"], share, sum(1 for v in c["gen_share"].values() if v >= share),
                           need, of))
    if "max_replication" in gates:
        lim = gates["max_replication"]
        line(t["replication"] <= lim, "max-replication", "treatment %d engines hold one block (control %d); "
             "limit %d" % (t["replication"], c["replication"], lim))
    if "min_telemetry_coverage" in gates:
        lim = gates["min_telemetry_coverage"]
        lows = []
        for f, d in ((c, cd), (t, td)):
            iv = interval(d["coverage_decisions"])
            lows.append(min(f["coverage_reads"], iv[0] if iv else 0.0))
        line(min(lows) >= lim, "min-telemetry-coverage", "control %.4f treatment %.4f (lower 95%% bounds %.4f, "
             "%.4f); need >= %g in both" % (c["telemetry_coverage"], t["telemetry_coverage"], lows[0], lows[1],
                                            lim))
    if "max_cache_loss_pp" in gates:
        lim = gates["max_cache_loss_pp"]
        loss = c["cached_pct"] - t["cached_pct"]
        iv = interval([a - b for a, b in zip(cd["cached_pct"], td["cached_pct"])])
        line(iv is not None and iv[1] <= lim, "max-cache-loss-pp", "cached prompt fraction control %.2f%% "
             "treatment %.2f%%, loss %.2f points (95%% interval %s); limit %g"
             % (c["cached_pct"], t["cached_pct"], loss, span(iv, "%.2f"), lim))
    if "min_primary_ratio" in gates:
        lim = gates["min_primary_ratio"]
        for key, title in PRIMARY:
            ratio = t[key] / c[key] if c[key] > 0 else (float("inf") if t[key] > 0 else 0.0)
            iv = interval(_ratio_draws(td[key], cd[key]))
            line(iv is not None and iv[0] >= lim, "min-primary-ratio", "%s control %.2f treatment %.2f, ratio "
                 "%.3f (95%% interval %s); need >= %g" % (title, c[key], t[key], ratio, span(iv, "%.3f"), lim))
    if "max_p95_ratio" in gates:
        lim = gates["max_p95_ratio"]
        cp, tp = c["lat_p95"], t["lat_p95"]
        iv = interval(_ratio_draws(td["lat_p95"], cd["lat_p95"]))
        ok = cp is not None and tp is not None and cp > 0 and iv is not None and iv[1] <= lim
        line(ok, "max-p95-ratio", "latency p95 control %s treatment %s s (ratio 95%% interval %s); limit %g x "
             "control" % (_fmt(cp, "%.3f"), _fmt(tp, "%.3f"), span(iv, "%.3f"), lim))
    for name in gates.get("no_increase", []):
        key = COUNTS[name]
        line(t[key] <= c[key], "no-increase %s" % name, "control %g treatment %g" % (c[key], t[key]))
    return out


def _fmt(v, spec):
    return "n/a" if v is None else spec % v


def table(c, t):
    """The figures of both arms, as a Markdown table."""
    rows = [("successful output tokens/s per node", "tok_s_per_node", "%.1f"),
            ("completed trajectories/hour", "traj_per_hour", "%.1f"),
            ("wall time (s)", "wall_s", "%.1f"), ("latency p50 (s)", "lat_p50", "%.2f"),
            ("latency p95 (s)", "lat_p95", "%.2f"), ("fleet running max", "running_max", "%d"),
            ("cached prompt fraction (%)", "cached_pct", "%.2f"), ("engines holding one block (max)",
                                                                   "replication", "%d"),
            ("telemetry coverage", "telemetry_coverage", "%.4f"), ("requests ok / sent", None, None),
            ("terminal errors", "errors", "%d"), ("429s", "http_429", "%d"), ("retractions", "retractions", "%d"),
            ("retries", "retries", "%d"), ("upstream errors", "upstream_errors", "%d")]
    md = ["| figure | control | treatment |", "| --- | --- | --- |"]
    for title, key, spec in rows:
        if key is None:
            vals = ["%d / %d" % (f["ok"], f["requests"]) for f in (c, t)]
        else:
            vals = [_fmt(f[key], spec) for f in (c, t)]
        md.append("| %s | %s | %s |" % (title, vals[0], vals[1]))
    md.append("| generation share | %s |" % " | ".join(
        ", ".join("%s %.0f%%" % kv for kv in sorted(f["gen_share"].items())) for f in (c, t)))
    md.append("| decisions by reason | %s |" % " | ".join(
        ", ".join("%s %d" % kv for kv in sorted(f["reasons"].items(), key=lambda kv: (-kv[1], kv[0]))) or "none"
        for f in (c, t)))
    return "\n".join(md)
