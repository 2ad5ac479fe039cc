# SPDX-License-Identifier: Apache-2.0
"""deploy/grafana/kvroute.json cannot drift from the code.

A real fleet runs on loopback: two kvroute-sim engines, kvroute-statefeed
writing their state into a segment, and kvroute reading it (ES=1), with
cache_aware, owner pressure and shadow admission, so that decision, feed and
admission series exist. Once the router sees both feed slots fresh, a few
requests go through it. Then every metric name in every panel's PromQL (and
in the template variables' label_values) must be a sample name on the
router's or statefeed's /metrics (so a histogram is used through its
_bucket, _sum or _count), and every label a query groups by or matches on
must be a label of a metric that query reads.

Run by ctest (test_grafana) with KVR_SOURCE_DIR, KVR_BIN_KVROUTE,
KVR_BIN_KVROUTE_STATEFEED and KVR_BIN_KVROUTE_SIM set.
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import unittest
import urllib.request

import kvrbench.tool

SOURCE_DIR = os.environ.get("KVR_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
DASHBOARD = os.path.join(SOURCE_DIR, "deploy", "grafana", "kvroute.json")
ROUTER = os.environ.get("KVR_BIN_KVROUTE")
STATEFEED = os.environ.get("KVR_BIN_KVROUTE_STATEFEED")
SIM = os.environ.get("KVR_BIN_KVROUTE_SIM")

# PromQL words that are not metric names: aggregations, functions (always
# followed by "(", but listed so a space before it changes nothing), keywords.
PROMQL_WORDS = {
    "sum", "min", "max", "avg", "count", "stddev", "stdvar", "topk", "bottomk", "quantile", "count_values",
    "group", "by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "bool",
    "offset", "rate", "irate", "increase", "delta", "idelta", "deriv", "histogram_quantile", "abs", "ceil",
    "floor", "round", "clamp_min", "clamp_max", "clamp", "label_replace", "label_join", "vector", "scalar",
    "time", "timestamp", "absent", "absent_over_time", "changes", "resets", "sort", "sort_desc",
    "avg_over_time", "min_over_time", "max_over_time", "sum_over_time", "count_over_time",
    "quantile_over_time", "last_over_time", "predict_linear", "inf", "nan",
}
# Labels Prometheus adds to every scraped series.
TARGET_LABELS = {"instance", "job", "le", "__name__"}


def strip_strings(expr):
    return re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)


def metric_names(expr):
    """Metric names of a PromQL expression: identifiers followed by {, [, ),
    a space or the end, that are not PromQL words, label lists or matchers."""
    e = strip_strings(expr)
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", r"\1 ", e)
    e = re.sub(r"\{[^}]*\}", "{}", e)
    e = re.sub(r"\[[^\]]*\]", "[]", e)
    names = set()
    for m in re.finditer(r"(?<![\w.$])([A-Za-z_:][\w:]*)(?=[{\[)\s]|$)", e):
        word = m.group(1)
        rest = e[m.end():].lstrip()
        if word.lower() in PROMQL_WORDS or rest.startswith("("):
            continue
        names.add(word)
    return names


def label_names(expr):
    """Labels an expression groups by (by/without/on/ignoring) or matches on."""
    e = strip_strings(expr)
    labels = set()
    for m in re.finditer(r"\b(?:by|without|on|ignoring)\s*\(([^)]*)\)", e):
        labels |= {x.strip() for x in m.group(1).split(",") if x.strip()}
    for m in re.finditer(r"\{([^}]*)\}", e):
        labels |= {x.group(1) for x in re.finditer(r"([A-Za-z_]\w*)\s*(?:=~|!~|!=|=)", m.group(1))}
    return labels


def exposition(text):
    """{sample name: set of label names} of a Prometheus text page."""
    out = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = re.match(r"([A-Za-z_:][\w:]*)(\{(.*)\})?\s", line)
        if not m:
            continue
        labels = set(re.findall(r'([A-Za-z_]\w*)="', m.group(3) or ""))
        out.setdefault(m.group(1), set()).update(labels)
    return out


def dashboard_queries(dash):
    """(where, PromQL) for every panel target and every query variable."""
    out = []
    def walk(panels):
        for p in panels:
            for t in p.get("targets", []):
                out.append(("panel '%s' %s" % (p.get("title"), t.get("refId")), t["expr"]))
            walk(p.get("panels", []))
    walk(dash.get("panels", []))
    for v in dash.get("templating", {}).get("list", []):
        if v.get("type") != "query":
            continue
        q = v["query"]["query"] if isinstance(v["query"], dict) else v["query"]
        m = re.match(r"label_values\(\s*(.*?)\s*,\s*(\w+)\s*\)$", q)
        assert m, "variable %s: only label_values(metric, label) queries are checked" % v["name"]
        out.append(("variable %s" % v["name"], m.group(1) + "{%s=\"\"}" % m.group(2)))
    return out


def drift(dash, series):
    """Every metric or label of the dashboard that the exposed series lack."""
    problems = []
    for where, expr in dashboard_queries(dash):
        names = metric_names(expr)
        if not names:
            problems.append("%s: no metric in %r" % (where, expr))
        missing = sorted(n for n in names if n not in series)
        if missing:
            problems.append("%s: %s not exposed" % (where, ", ".join(missing)))
        have = set(TARGET_LABELS)
        for n in names:
            have |= series.get(n, set())
        bad = sorted(label_names(expr) - have)
        if bad:
            problems.append("%s: label %s on none of %s" % (where, ", ".join(bad), ", ".join(sorted(names))))
    return problems


def free_ports(n):
    base = kvrbench.tool.free_ports(n)
    if base is None:
        raise RuntimeError("no free port range")
    return base


def get(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as resp:
        return resp.read().decode()


def wait_until(what, check, procs, timeout=20.0):
    """Poll check() until it is true; fail if a process exits or time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for p in procs:
            if p.poll() is not None:
                raise AssertionError("%s exited (%d) waiting for %s" % (p.args[0], p.returncode, what))
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


class ParserTest(unittest.TestCase):
    def test_names_and_labels(self):
        expr = ('histogram_quantile(0.95, sum by (le, engine) (rate(kvroute_ttft_seconds_bucket'
                '{instance=~"$router",kind="x"}[$__rate_interval]))) / sum(kvroute_in_flight) or vector(0)')
        self.assertEqual(metric_names(expr), {"kvroute_ttft_seconds_bucket", "kvroute_in_flight"})
        self.assertEqual(label_names(expr), {"le", "engine", "instance", "kind"})
        self.assertEqual(metric_names("max(up)"), {"up"})
        self.assertEqual(metric_names('sum without (a) (x_total) and on (b) y offset 5m'), {"x_total", "y"})

    def test_drift_is_reported(self):
        dash = {"panels": [{"title": "p", "targets": [
            {"refId": "A", "expr": "sum by (reason) (rate(kvroute_selections_total[5m]))"},
            {"refId": "B", "expr": "rate(kvroute_ttft_seconds[5m])"},
            {"refId": "C", "expr": "sum by (model) (rate(kvroute_requests_total[5m]))"}]}]}
        series = {"kvroute_selections_total": {"reason", "engine"}, "kvroute_ttft_seconds_bucket": {"le"},
                  "kvroute_requests_total": {"status"}}
        problems = drift(dash, series)
        self.assertEqual(len(problems), 2, problems)
        self.assertIn("kvroute_ttft_seconds not exposed", problems[0])
        self.assertIn("label model", problems[1])


@unittest.skipUnless(ROUTER and STATEFEED and SIM, "kvroute, kvroute-statefeed or kvroute-sim not built")
class DashboardTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="kvr-grafana-")
        self.shm = "/kvr-grafana-%d" % os.getpid()
        self.procs = []

    def tearDown(self):
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        try:
            os.unlink("/dev/shm" + self.shm)
        except OSError:
            pass
        shutil.rmtree(self.tmp)

    def start(self, name, args, env=None):
        log = open(os.path.join(self.tmp, name + ".log"), "w")
        p = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env)
        log.close()
        self.procs.append(p)
        return p

    def test_every_metric_is_exposed(self):
        base = free_ports(2)
        engines = ["http://127.0.0.1:%d" % (base + i) for i in range(2)]
        feed_port, router_port, admin_port = free_ports(1), free_ports(1), free_ports(1)
        sim = self.start("sim", [SIM, "--host", "127.0.0.1", "--port", str(base), "--engines", "2",
                                 "--time-scale", "20"])
        wait_until("the simulator", lambda: get(engines[1] + "/health") is not None, [sim])
        feed_args = [STATEFEED, "--shm", self.shm, "--listen", "127.0.0.1:%d" % feed_port]
        for e in engines:
            feed_args += ["--engine", e]
        feed = self.start("statefeed", feed_args)
        env = dict(os.environ, ES="1")
        router_args = [ROUTER, "--listen", "127.0.0.1:%d" % router_port,
                       "--admin-listen", "127.0.0.1:%d" % admin_port, "--shm", self.shm,
                       "--policy", "cache_aware", "--owner-pressure", "1", "--admission", "shadow"]
        for e in engines:
            router_args += ["--engine", e]
        router = self.start("router", router_args, env)
        url = "http://127.0.0.1:%d" % router_port
        admin_url = "http://127.0.0.1:%d" % admin_port
        procs = [sim, feed, router]

        def both_fresh():
            page = get(admin_url + "/metrics")
            return all('kvroute_engine_feed_fresh{engine="%s"} 1' % e in page for e in engines)
        wait_until("both feed slots fresh at the router", both_fresh, procs)
        for i in range(4):
            body = json.dumps({"model": "sim-30b-a3b", "max_tokens": 4,
                               "messages": [{"role": "user", "content": "dashboard check %d" % (i % 2)}]})
            req = urllib.request.Request(url + "/v1/chat/completions", data=body.encode(),
                                         headers={"Content-Type": "application/json",
                                                  "X-Session-ID": "s%d" % (i % 2)})
            with urllib.request.urlopen(req, timeout=30) as resp:
                self.assertEqual(resp.status, 200)
                resp.read()
        wait_until("the statefeed's /metrics", lambda: "kvroute_statefeed_slot_age_seconds" in
                   get("http://127.0.0.1:%d/metrics" % feed_port), procs)
        series = exposition(get(admin_url + "/metrics"))
        for name, labels in exposition(get("http://127.0.0.1:%d/metrics" % feed_port)).items():
            series.setdefault(name, set()).update(labels)

        with open(DASHBOARD) as f:
            dash = json.load(f)
        self.assertEqual(drift(dash, series), [])
        queries = dashboard_queries(dash)
        self.assertGreater(len(queries), 20)
        used = set().union(*(metric_names(q) for _, q in queries))
        # The panels the dashboard promises read these families.
        for family in ("kvroute_selections_total", "kvroute_ttft_seconds_bucket", "kvroute_engine_requests",
                       "kvroute_engine_feed_age_seconds", "kvroute_statefeed_slot_age_seconds",
                       "kvroute_feed_stale_fallbacks_total", "kvroute_admission_total", "kvroute_retries_total",
                       "kvroute_engine_failures_total"):
            self.assertIn(family, used)


class StructureTest(unittest.TestCase):
    def test_panels(self):
        with open(DASHBOARD) as f:
            dash = json.load(f)
        ids = [p["id"] for p in dash["panels"]]
        self.assertEqual(len(ids), len(set(ids)), "panel ids are unique")
        names = {v["name"] for v in dash["templating"]["list"]}
        self.assertIn("datasource", names)
        for p in dash["panels"]:
            if p["type"] == "row":
                continue
            self.assertTrue(p.get("targets"), "panel %s has queries" % p["title"])
            self.assertEqual(p["datasource"]["uid"], "${datasource}")
            for t in p["targets"]:
                for var in re.findall(r"\$(\w+)", t["expr"]):
                    self.assertTrue(var.startswith("__") or var in names, "%s uses $%s" % (p["title"], var))


if __name__ == "__main__":
    unittest.main(verbosity=2)
