# SPDX-License-Identifier: Apache-2.0
"""deploy/kubernetes/ holds together.

yamllint passes on every file; then a structural check of the kustomize base
(its own files, with the ConfigMap made from the configMapGenerator, and, when
kubectl is installed, what `kubectl kustomize` renders): every name a
manifest refers to exists — selectors match the pod's labels, Service target
ports and PodMonitor ports are container ports, probes use a port of their
own container, every volume mount names a volume, ConfigMap items name keys
the ConfigMap has, each `--config FILE` lies in a ConfigMap mount and names a
key, the programs listen on the container ports, both configs list the same
engines (--engine URLs and --engine-dns names), /dev/shm is one memory-backed emptyDir shared by both containers,
the grace period outlasts preStop plus the router's drain timeout, and the
relay holds together: each --import-dns NAME:PORT is a headless Service of
these pods whose PORT leads to the container port --export listens on, the
--relay-secret-file lies in a Secret mount, and --share is set in both
containers alike. The
check is shown to catch a broken reference of each kind.

Run by ctest (test_kubernetes) with KVR_SOURCE_DIR set.
"""

import copy
import os
import re
import shutil
import subprocess
import unittest

import yaml

SOURCE_DIR = os.environ.get("KVR_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
BASE = os.path.join(SOURCE_DIR, "deploy", "kubernetes")
YAMLLINT_CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "yamllint.yml")


def load_yaml_docs(path):
    with open(path) as f:
        return [d for d in yaml.safe_load_all(f) if d is not None]


def kustomization():
    docs = load_yaml_docs(os.path.join(BASE, "kustomization.yaml"))
    assert len(docs) == 1, "kustomization.yaml is one document"
    return docs[0]


def source_docs():
    """The base's resources plus the ConfigMaps its generator makes."""
    k = kustomization()
    docs = []
    for res in k.get("resources", []):
        docs += load_yaml_docs(os.path.join(BASE, res))
    for gen in k.get("configMapGenerator", []):
        data = {}
        for entry in gen.get("files", []):
            key, _, path = entry.partition("=") if "=" in entry else (os.path.basename(entry), "", entry)
            with open(os.path.join(BASE, path)) as f:
                data[key] = f.read()
        docs.append({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": gen["name"]}, "data": data})
    return docs


def config_lines(text):
    """(flag, value) pairs of a `flag value` config file, comments dropped."""
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            flag, _, value = line.partition(" ")
            out.append((flag, value.strip()))
    return out


def config_value(text, flag):
    values = [v for f, v in config_lines(text) if f == flag]
    return values[-1] if values else None


def port_of(addr):
    return int(addr.rsplit(":", 1)[1])


def labels_match(selector, labels):
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def check(docs):
    """Every broken reference found in a list of manifests, as text."""
    errors = []
    by_kind = {}
    for d in docs:
        by_kind.setdefault(d["kind"], []).append(d)
    configmaps = {d["metadata"]["name"]: d.get("data", {}) for d in by_kind.get("ConfigMap", [])}
    deployments = by_kind.get("Deployment", [])
    if not deployments:
        return ["no Deployment"]
    pods = []
    config_texts = {}  # (deployment, container) -> the text its --config names
    for dep in deployments:
        name = dep["metadata"]["name"]
        spec = dep["spec"]
        tmpl = spec["template"]
        pod_labels = tmpl["metadata"].get("labels", {})
        if not labels_match(spec["selector"].get("matchLabels"), pod_labels):
            errors.append("Deployment %s: selector does not match its pod labels" % name)
        pod = tmpl["spec"]
        pods.append((name, pod_labels, pod))
        volumes = {v["name"]: v for v in pod.get("volumes", [])}
        mounted = set()
        mounts_by_container = {}
        for c in pod["containers"]:
            cname = "%s/%s" % (name, c["name"])
            ports = {p.get("name"): p["containerPort"] for p in c.get("ports", [])}
            for probe_kind in ("livenessProbe", "readinessProbe", "startupProbe"):
                probe = c.get(probe_kind)
                if not probe:
                    continue
                port = (probe.get("httpGet") or probe.get("tcpSocket") or {}).get("port")
                if isinstance(port, int) and port not in ports.values():
                    errors.append("%s: %s port %d is not a container port" % (cname, probe_kind, port))
                elif isinstance(port, str) and port not in ports:
                    errors.append("%s: %s port %s is not a container port name" % (cname, probe_kind, port))
            mounts = {}
            for m in c.get("volumeMounts", []):
                mounted.add(m["name"])
                mounts[m["mountPath"]] = m
                if m["name"] not in volumes:
                    errors.append("%s: mounts volume %s, which the pod does not have" % (cname, m["name"]))
            mounts_by_container[c["name"]] = mounts
            args = c.get("args", [])
            for i, a in enumerate(args):
                if a != "--config":
                    continue
                if i + 1 >= len(args):
                    errors.append("%s: --config without a file" % cname)
                    continue
                path = args[i + 1]
                mount = mounts.get(os.path.dirname(path))
                vol = volumes.get(mount["name"]) if mount else None
                if not vol or "configMap" not in vol:
                    errors.append("%s: --config %s is not in a ConfigMap mount" % (cname, path))
                    continue
                cm = vol["configMap"]
                data = configmaps.get(cm["name"])
                if data is None:
                    continue  # reported with the volume below
                items = {it["path"]: it["key"] for it in cm.get("items", [])} or {k: k for k in data}
                key = items.get(os.path.basename(path))
                if key not in data:
                    errors.append("%s: --config %s names no key of ConfigMap %s" % (cname, path, cm["name"]))
                    continue
                text = data[key]
                listen = config_value(text, "listen")
                if listen is None or port_of(listen) not in ports.values():
                    errors.append("%s: listens on %s, not a container port" % (cname, listen))
                config_texts[(name, c["name"])] = text
        for vname, vol in volumes.items():
            if vname not in mounted:
                errors.append("Deployment %s: volume %s is mounted by no container" % (name, vname))
            cm = vol.get("configMap")
            if cm:
                data = configmaps.get(cm["name"])
                if data is None:
                    errors.append("volume %s: ConfigMap %s does not exist" % (vname, cm["name"]))
                    continue
                for it in cm.get("items", []):
                    if it["key"] not in data:
                        errors.append("volume %s: ConfigMap %s has no key %s" % (vname, cm["name"], it["key"]))
        # /dev/shm: one memory-backed emptyDir in every container of the pod.
        shm_volumes = {mounts.get("/dev/shm", {}).get("name") for mounts in mounts_by_container.values()}
        if len(shm_volumes) != 1 or None in shm_volumes:
            errors.append("Deployment %s: the containers do not share one /dev/shm volume" % name)
        else:
            vol = volumes.get(shm_volumes.pop(), {})
            if (vol.get("emptyDir") or {}).get("medium") != "Memory":
                errors.append("Deployment %s: /dev/shm is not a memory-backed emptyDir" % name)
        services = {d["metadata"]["name"]: d for d in by_kind.get("Service", [])}
        for c in pod["containers"]:
            text = config_texts.get((name, c["name"]))
            if not text:
                continue
            cname = "%s/%s" % (name, c["name"])
            ports = {p.get("name"): p["containerPort"] for p in c.get("ports", [])}
            export = config_value(text, "export")
            for spec in [v for f, v in config_lines(text) if f == "import-dns"]:
                svc_name, _, svc_port = spec.rpartition(":")
                svc = services.get(svc_name)
                if svc is None:
                    errors.append("%s: import-dns %s names no Service" % (cname, spec))
                    continue
                if svc["spec"].get("clusterIP") != "None":
                    errors.append("Service %s: not headless (clusterIP: None), so import-dns %s finds one "
                                  "address, not every pod" % (svc_name, spec))
                if not labels_match(svc["spec"].get("selector"), pod_labels):
                    errors.append("Service %s: import-dns %s but its selector misses the pods" % (svc_name, spec))
                sp = next((p for p in svc["spec"]["ports"] if str(p["port"]) == svc_port), None)
                if sp is None:
                    errors.append("Service %s: no port %s for import-dns" % (svc_name, svc_port))
                    continue
                target = sp.get("targetPort", sp["port"])
                target = ports.get(target) if isinstance(target, str) else target
                if export is None or target is None or port_of(export) != target or int(svc_port) != target:
                    errors.append("%s: import-dns %s does not reach the export port (%s)" % (cname, spec, export))
            secret = config_value(text, "relay-secret-file")
            if secret:
                mount = mounts_by_container[c["name"]].get(os.path.dirname(secret))
                if not mount or "secret" not in volumes.get(mount["name"], {}):
                    errors.append("%s: relay-secret-file %s is not in a Secret mount" % (cname, secret))
        shares = {config_value(t, "share") for t in config_texts.values() if t}
        if len(shares) > 1:
            errors.append("Deployment %s: the containers' configs share different segments %s" % (name, shares))
        texts = {c["name"]: config_texts.get((name, c["name"])) for c in pod["containers"]}
        # --engine URLs, and --engine-dns NAME:PORT without statefeed's ,kind=...: both name each engine alike.
        engines = [sorted([v for f, v in config_lines(t) if f == "engine"] +
                          ["dns " + v.split(",", 1)[0] for f, v in config_lines(t) if f == "engine-dns"])
                   for t in texts.values() if t]
        if len(engines) > 1 and any(e != engines[0] for e in engines):
            errors.append("Deployment %s: the containers' configs list different engines" % name)
        # Grace: preStop sleep + router drain timeout, with room to spare.
        grace = pod.get("terminationGracePeriodSeconds", 30)
        for c in pod["containers"]:
            text = config_texts.get((name, c["name"]))
            drain = config_value(text, "drain-timeout-s") if text else None
            if drain is None:
                continue
            sleep = 0
            cmd = ((c.get("lifecycle") or {}).get("preStop") or {}).get("exec", {}).get("command", [])
            if len(cmd) == 2 and cmd[0] == "sleep":
                sleep = int(cmd[1])
            if grace <= sleep + int(drain):
                errors.append("Deployment %s: terminationGracePeriodSeconds %d <= preStop %d s + drain-timeout-s %s"
                              % (name, grace, sleep, drain))

    def container_ports(labels_selector):
        for _, labels, pod in pods:
            if labels_match(labels_selector, labels):
                for c in pod["containers"]:
                    for p in c.get("ports", []):
                        yield p
    for svc in by_kind.get("Service", []):
        sel = svc["spec"].get("selector")
        if not any(labels_match(sel, labels) for _, labels, _ in pods):
            errors.append("Service %s: selector matches no pod" % svc["metadata"]["name"])
        ports = list(container_ports(sel))
        for p in svc["spec"]["ports"]:
            target = p.get("targetPort", p["port"])
            if isinstance(target, str):
                ok = any(cp.get("name") == target for cp in ports)
            else:
                ok = any(cp["containerPort"] == target for cp in ports)
            if not ok:
                errors.append("Service %s: targetPort %s is no container port" % (svc["metadata"]["name"], target))
    for mon in by_kind.get("PodMonitor", []):
        sel = mon["spec"]["selector"].get("matchLabels")
        if not any(labels_match(sel, labels) for _, labels, _ in pods):
            errors.append("PodMonitor %s: selector matches no pod" % mon["metadata"]["name"])
        ports = list(container_ports(sel))
        for ep in mon["spec"]["podMetricsEndpoints"]:
            if not any(cp.get("name") == ep.get("port") for cp in ports):
                errors.append("PodMonitor %s: port %s is no container port name" % (mon["metadata"]["name"],
                                                                                     ep.get("port")))
    return errors


def find(docs, kind):
    return next(d for d in docs if d["kind"] == kind)


def container(docs, name):
    return next(c for c in find(docs, "Deployment")["spec"]["template"]["spec"]["containers"] if c["name"] == name)


class LintTest(unittest.TestCase):
    def test_yamllint(self):
        self.assertTrue(shutil.which("yamllint"), "yamllint is not installed (scripts/install-deps.sh)")
        result = subprocess.run(["yamllint", "--strict", "-c", YAMLLINT_CONFIG, BASE], capture_output=True,
                                text=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)


class StructureTest(unittest.TestCase):
    def test_base_files_exist(self):
        k = kustomization()
        for res in k["resources"]:
            self.assertTrue(os.path.isfile(os.path.join(BASE, res)), res)
        for gen in k["configMapGenerator"]:
            for f in gen["files"]:
                self.assertTrue(os.path.isfile(os.path.join(BASE, f.split("=")[-1])), f)

    def test_base_references(self):
        self.assertEqual(check(source_docs()), [])

    def test_kinds(self):
        kinds = sorted(d["kind"] for d in source_docs())
        self.assertEqual(kinds, ["ConfigMap", "Deployment", "PodMonitor", "Service", "Service"])

    @unittest.skipUnless(shutil.which("kubectl"), "kubectl not installed")
    def test_kustomize_render(self):
        # `kubectl kustomize` works without a cluster (`apply --dry-run=client`
        # needs one for its API discovery, so it is not used).
        result = subprocess.run(["kubectl", "kustomize", BASE], capture_output=True, text=True, timeout=120)
        self.assertEqual(result.returncode, 0, result.stderr)
        docs = [d for d in yaml.safe_load_all(result.stdout) if d is not None]
        self.assertEqual(check(docs), [])
        cm = find(docs, "ConfigMap")["metadata"]["name"]
        self.assertTrue(cm.startswith("kvroute-config-"), "generated name carries the content hash: " + cm)

    # The check finds each kind of broken reference.
    def broken(self, mutate):
        docs = copy.deepcopy(source_docs())
        mutate(docs)
        return check(docs)

    def test_catches_missing_volume(self):
        def m(docs):
            container(docs, "router")["volumeMounts"][0]["name"] = "nonesuch"
        self.assertTrue(any("nonesuch" in e for e in self.broken(m)))

    def test_catches_wrong_probe_port(self):
        def m(docs):
            container(docs, "router")["readinessProbe"]["httpGet"]["port"] = "feed-metrics"
        self.assertTrue(any("readinessProbe" in e for e in self.broken(m)))

    def test_catches_wrong_service_port(self):
        def m(docs):
            find(docs, "Service")["spec"]["ports"][0]["targetPort"] = "htp"
        self.assertTrue(any("targetPort" in e for e in self.broken(m)))

    def test_catches_wrong_monitor_port(self):
        def m(docs):
            find(docs, "PodMonitor")["spec"]["podMetricsEndpoints"][1]["port"] = 9464
        self.assertTrue(any("PodMonitor" in e for e in self.broken(m)))

    def test_catches_missing_configmap_key(self):
        def m(docs):
            del find(docs, "ConfigMap")["data"]["statefeed.conf"]
        self.assertTrue(any("statefeed.conf" in e for e in self.broken(m)))

    def test_catches_listen_port_mismatch(self):
        def m(docs):
            container(docs, "statefeed")["ports"][0]["containerPort"] = 9465
        self.assertTrue(any("listens on" in e for e in self.broken(m)))

    def test_catches_selector_mismatch(self):
        def m(docs):
            find(docs, "Service")["spec"]["selector"] = {"app.kubernetes.io/name": "other"}
        self.assertTrue(any("selector" in e for e in self.broken(m)))

    def test_catches_short_grace(self):
        def m(docs):
            find(docs, "Deployment")["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] = 30
        self.assertTrue(any("terminationGracePeriodSeconds" in e for e in self.broken(m)))

    def test_catches_unshared_shm(self):
        def m(docs):
            pod = find(docs, "Deployment")["spec"]["template"]["spec"]
            pod["volumes"].append({"name": "shm2", "emptyDir": {"medium": "Memory"}})
            for mnt in container(docs, "router")["volumeMounts"]:
                if mnt["mountPath"] == "/dev/shm":
                    mnt["name"] = "shm2"
        self.assertTrue(any("/dev/shm" in e for e in self.broken(m)))

    def test_catches_engine_mismatch(self):
        def m(docs):
            cm = find(docs, "ConfigMap")["data"]
            changed = re.sub(r"(?m)^engine-dns vllm:8000", "engine-dns vllm:8001", cm["statefeed.conf"])
            self.assertNotEqual(changed, cm["statefeed.conf"])
            cm["statefeed.conf"] = changed
        self.assertTrue(any("different engines" in e for e in self.broken(m)))


    def test_catches_relay_service_with_a_cluster_ip(self):
        def m(docs):
            relay = next(d for d in docs if d["kind"] == "Service" and d["metadata"]["name"] == "kvroute-relay")
            del relay["spec"]["clusterIP"]
        self.assertTrue(any("headless" in e for e in self.broken(m)))

    def test_catches_relay_port_mismatch(self):
        def m(docs):
            cm = find(docs, "ConfigMap")["data"]
            changed = re.sub(r"(?m)^export tcp:0.0.0.0:9471", "export tcp:0.0.0.0:9472", cm["statefeed.conf"])
            self.assertNotEqual(changed, cm["statefeed.conf"])
            cm["statefeed.conf"] = changed
        self.assertTrue(any("export port" in e for e in self.broken(m)))

    def test_catches_relay_secret_outside_a_secret(self):
        def m(docs):
            mounts = container(docs, "statefeed")["volumeMounts"]
            mounts[:] = [mnt for mnt in mounts if mnt["name"] != "relay-secret"]
        self.assertTrue(any("relay-secret-file" in e for e in self.broken(m)))


if __name__ == "__main__":
    unittest.main(verbosity=2)
