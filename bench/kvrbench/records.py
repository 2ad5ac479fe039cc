# SPDX-License-Identifier: Apache-2.0
"""kvroute-replay records, decision logs and feed samples, as the bench's
reports read them."""
import json
import math
import os
import re


def load_records(path):
    """One dict per request line; a missing file is an empty list."""
    recs = []
    if not os.path.exists(path):
        return recs
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                recs.append(json.loads(line))
    return recs


def base_url(url):
    """http://host:port of an engine URL or of a full endpoint URL."""
    if not url:
        return None
    parts = url.split("/")
    return "/".join(parts[:3]) if len(parts) >= 3 else url


# SLO attainment defaults: an interactive answer's first token within 2 s, then
# a token every 100 ms at worst.
SLO_TTFT_MS = 2000.0
SLO_TPOT_MS = 100.0


def slo_met(r, ttft_ms=SLO_TTFT_MS, tpot_ms=SLO_TPOT_MS):
    """A request meets the SLO when it ended with 200, its TTFT is within ttft_ms and
    its time per output token after the first within tpot_ms; anything else (a 429,
    a 503, a timeout) is a miss."""
    if not r.get("ok") or r.get("ttft_ms") is None or r["ttft_ms"] > ttft_ms:
        return False
    n = r.get("output_tokens") or 0
    if n > 1:
        if r.get("e2e_ms") is None or (r["e2e_ms"] - r["ttft_ms"]) / (n - 1) > tpot_ms:
            return False
    return True


def slo_share(recs, ttft_ms=SLO_TTFT_MS, tpot_ms=SLO_TPOT_MS):
    """Goodput: % of all requests sent that met the SLO; None without requests."""
    return 100.0 * sum(1 for r in recs if slo_met(r, ttft_ms, tpot_ms)) / len(recs) if recs else None


def percentile(values, p):
    """Linear interpolation between closest ranks, as kvroute-replay prints it."""
    if not values:
        return None
    v = sorted(values)
    rank = p / 100.0 * (len(v) - 1)
    lo, hi = math.floor(rank), math.ceil(rank)
    return v[lo] + (v[hi] - v[lo]) * (rank - lo)


def mean(values):
    """Arithmetic mean; None for no values."""
    return sum(values) / len(values) if values else None


def ok_records(recs):
    """The requests that succeeded (2xx, no transport or stream error)."""
    return [r for r in recs if r.get("ok")]


def normalise_engines(recs, cell_dir):
    """Each arm runs a fresh fleet on fresh ports: engines are compared by their
    position in the fleet (engines.txt, one base URL per line, written by
    run.sh), not by URL. The URL stays in engine_url for the feed match."""
    path = os.path.join(cell_dir, "engines.txt")
    if not os.path.exists(path):
        return recs
    with open(path) as f:
        position = {line.strip().rstrip("/"): i for i, line in enumerate(f) if line.strip()}
    for r in recs:
        url = (r.get("engine") or "").rstrip("/")
        if url in position:
            r["engine_url"] = r["engine"]
            r["engine"] = "e%d" % position[url]
    return recs


def load_cell(run_dir, policy, arm, time_scale=1.0):
    """The records of one ablation cell (<run>/<policy>/<arm>/replay.jsonl),
    engines by fleet position, times multiplied by time_scale (simulated time)."""
    d = os.path.join(run_dir, policy, arm)
    recs = normalise_engines(load_records(os.path.join(d, "replay.jsonl")), d)
    if time_scale != 1.0:
        for r in recs:
            for k in ("ttft_ms", "e2e_ms", "first_byte_ms"):
                if r.get(k) is not None:
                    r[k] *= time_scale
    return recs


def policies_in(run_dir):
    """The policy folders of an ablation run (those holding es0 or es1), sorted."""
    out = []
    for name in sorted(os.listdir(run_dir)):
        if os.path.isdir(os.path.join(run_dir, name, "es0")) or os.path.isdir(os.path.join(run_dir, name, "es1")):
            out.append(name)
    return out


def decision_files(cell_dir):
    """A cell's decision logs: decisions.jsonl, or decisions-r<k>.jsonl per router."""
    return [os.path.join(cell_dir, name) for name in sorted(os.listdir(cell_dir))
            if re.match(r"^decisions(-r\d+)?\.jsonl$", name)]


def load_decisions(path, skip_bad=False):
    """One dict per line of a decision log; skip_bad drops lines that are not
    JSON instead of raising (a log cut short by a killed router)."""
    out = []
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            try:
                out.append(json.loads(line))
            except ValueError:
                if not skip_bad:
                    raise
    return out


def feed_lines(path):
    """kvroute-feedsample's file (format in bench/ablate/feedsample.c), as
    split lines: ("start", ns), ("end", ns), or a sample line
    "s t_seen_ns slot sample_time_ns ..." with its 11 or more fields."""
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts or parts[0].startswith("#"):
                continue
            if parts[0] in ("start", "end") or (parts[0] == "s" and len(parts) >= 11):
                yield parts
