# SPDX-License-Identifier: Apache-2.0
"""The shipped deploy files work with the programs as built.

Each example config under deploy/examples/, and each config file of the
Kubernetes base's ConfigMap (deploy/kubernetes/), is started with the real
binary (addresses rewritten to loopback ports chosen now, names and paths
made unique), must come up and listen, and must stop cleanly on SIGTERM; a
flag the program no longer has fails here first. The Kubernetes configs are
also asked the paths deployment.yaml's probes use, which must answer. The Prometheus files are checked
with promtool and the units with systemd-analyze when those are installed.

Run by ctest (test_deploy_examples) with KVR_SOURCE_DIR,
KVR_BIN_KVROUTE_STATEFEED and KVR_BIN_KVROUTE set.
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
import urllib.error
import urllib.request

import kvrbench.tool

try:
    import yaml
except ImportError:  # python3-yaml: only the Kubernetes probe paths need it
    yaml = None

SOURCE_DIR = os.environ.get("KVR_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
DEPLOY = os.path.join(SOURCE_DIR, "deploy")
STATEFEED = os.environ.get("KVR_BIN_KVROUTE_STATEFEED")
ROUTER = os.environ.get("KVR_BIN_KVROUTE")


def free_port():
    port = kvrbench.tool.free_ports(1)
    if port is None:
        raise RuntimeError("no free port")
    return port


def wait_port(port, proc, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return True
        except OSError:
            time.sleep(0.05)
    return False


class ExampleConfigTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="kvr-deploy-")
        self.shm = "/kvr-deploy-%d" % os.getpid()
        self.share = "kvr-deploy-share-%d" % os.getpid()
        self.ports = {}

    def tearDown(self):
        for name in (self.shm, "/" + self.share):
            try:
                os.unlink("/dev/shm" + name)
            except OSError:
                pass
        shutil.rmtree(self.tmp)

    def loopback(self, match):
        # Every non-loopback address in an example becomes a loopback port
        # nothing listens on: the programs must start with engines down.
        key = match.group(0)
        if key not in self.ports:
            self.ports[key] = "127.0.0.1:%d" % free_port()
        return self.ports[key]

    def rewrite(self, name, listen_port, folder="examples"):
        with open(os.path.join(DEPLOY, folder, name)) as f:
            text = f.read()
        text = re.sub(r"\b(?:0\.0\.0\.0|127\.0\.0\.1):(?:8080|9464)\b", "127.0.0.1:%d" % listen_port,
                      text)
        # The router's admin listener: a port of its own, so examples run side by side.
        text = re.sub(r"\b(?:0\.0\.0\.0|127\.0\.0\.1):9465\b", self.loopback, text)
        text = re.sub(r"\b10\.\d+\.\d+\.\d+:\d+\b", self.loopback, text)
        # Engines by DNS name (the Kubernetes configs): loopback ports too.
        text = re.sub(r"(?<=http://)[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*:\d+\b", self.loopback, text)
        text = text.replace("/kvroute-state", self.shm)
        # The relay (Kubernetes): its export on a loopback port, the dispatch
        # segment under a name of this run, the Secret's file made here.
        text = re.sub(r"\btcp:0\.0\.0\.0:\d+\b", lambda m: "tcp:" + self.loopback(m), text)
        text = re.sub(r"(?m)^share kvroute-share$", "share " + self.share, text)
        secret = os.path.join(self.tmp, "relay.secret")
        with open(os.open(secret, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
            f.write("a secret of this run\n")
        text = text.replace("/etc/kvroute/relay/relay.secret", secret)
        text = text.replace("/run/kvroute/push.sock", os.path.join(self.tmp, "push.sock"))
        text = text.replace("/var/log/kvroute/", self.tmp + "/")
        self.assertNotRegex(text, r"\b10\.\d+\.\d+\.\d+", "tests stay on loopback")
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def run_example(self, binary, name, folder="examples", probes=()):
        port = free_port()
        config = self.rewrite(name, port, folder)
        log_path = os.path.join(self.tmp, name + ".log")
        with open(log_path, "w") as log:
            proc = subprocess.Popen([binary, "--config", config], stdout=log, stderr=subprocess.STDOUT)
        try:
            up = wait_port(port, proc)
            with open(log_path) as f:
                log_text = f.read()[-3000:]
            self.assertTrue(up, "%s with %s did not come up:\n%s" % (os.path.basename(binary), name,
                                                                     log_text))
            for kind, path in probes:
                self.check_probe(port, kind, path)
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
            try:
                rc = proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                rc = None
        self.assertEqual(rc, 0, "%s did not stop cleanly on SIGTERM" % name)

    def check_probe(self, port, kind, path):
        # Liveness must answer 200; readiness 200 "ready" or 503 with the
        # reason (the engines are down here), never a 404.
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path), timeout=5) as resp:
                status, body = resp.status, resp.read().decode()
        except urllib.error.HTTPError as e:
            status, body = e.code, e.read().decode()
        if kind == "livenessProbe":
            self.assertEqual(status, 200, "%s %s: %s" % (kind, path, body))
        else:
            self.assertIn(status, (200, 503), "%s %s: %s" % (kind, path, body))
            self.assertIn(json.loads(body).get("status"), ("ready", "no_healthy_engine"), body)

    def kubernetes_probes(self, container):
        """(kind, path) of each HTTP probe deployment.yaml gives the container."""
        with open(os.path.join(DEPLOY, "kubernetes", "deployment.yaml")) as f:
            dep = next(d for d in yaml.safe_load_all(f) if d and d.get("kind") == "Deployment")
        c = next(c for c in dep["spec"]["template"]["spec"]["containers"] if c["name"] == container)
        probes = [(k, c[k]["httpGet"]["path"]) for k in ("livenessProbe", "readinessProbe", "startupProbe")
                  if k in c and "httpGet" in c[k]]
        self.assertTrue(probes, "container %s has HTTP probes" % container)
        return probes

    @unittest.skipUnless(ROUTER and yaml, "kvroute not built or python3-yaml missing")
    def test_kubernetes_router_config(self):
        self.run_example(ROUTER, "kvroute.conf", "kubernetes", self.kubernetes_probes("router"))

    @unittest.skipUnless(STATEFEED and yaml, "kvroute-statefeed not built or python3-yaml missing")
    def test_kubernetes_statefeed_config(self):
        self.run_example(STATEFEED, "statefeed.conf", "kubernetes", self.kubernetes_probes("statefeed"))

    @unittest.skipUnless(STATEFEED, "kvroute-statefeed not built")
    def test_statefeed_example(self):
        self.run_example(STATEFEED, "kvroute-statefeed.conf")

    @unittest.skipUnless(STATEFEED, "kvroute-statefeed not built")
    def test_statefeed_relay_example(self):
        self.run_example(STATEFEED, "kvroute-statefeed-relay.conf")

    @unittest.skipUnless(ROUTER, "kvroute not built")
    def test_router_example(self):
        self.run_example(ROUTER, "kvroute.conf")


class ToolCheckTest(unittest.TestCase):
    @unittest.skipUnless(shutil.which("promtool"), "promtool not installed")
    def test_prometheus_files(self):
        prom = os.path.join(DEPLOY, "prometheus")
        for args in (["check", "config", "prometheus.yml"], ["check", "rules", "kvroute-alerts.yml"]):
            result = subprocess.run(["promtool"] + args, cwd=prom, capture_output=True, text=True,
                                    timeout=60)
            self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    @unittest.skipUnless(shutil.which("systemd-analyze") and STATEFEED and ROUTER,
                         "systemd-analyze or binaries missing")
    def test_units_verify(self):
        tmp = tempfile.mkdtemp(prefix="kvr-units-")
        try:
            names = []
            for unit in ("kvroute-statefeed.service", "kvroute.service"):
                with open(os.path.join(DEPLOY, "systemd", unit)) as f:
                    text = f.read()
                text = text.replace("/usr/local/bin/kvroute-statefeed", STATEFEED)
                text = text.replace("/usr/local/bin/kvroute ", ROUTER + " ")
                with open(os.path.join(tmp, unit), "w") as f:
                    f.write(text)
                names.append(os.path.join(tmp, unit))
            result = subprocess.run(["systemd-analyze", "verify"] + names, capture_output=True,
                                    text=True, timeout=60)
            # Only complaints about these units' own lines count; a container
            # without a running systemd adds unrelated noise.
            ours = [l for l in (result.stdout + result.stderr).splitlines()
                    if "kvroute" in l and ("Unknown" in l or "Invalid" in l or "Failed to parse" in l)]
            self.assertEqual(ours, [], "\n".join(ours))
        finally:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    unittest.main(verbosity=2)
