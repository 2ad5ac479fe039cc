# SPDX-License-Identifier: Apache-2.0
"""deploy/prometheus/kvroute-alerts.yml catches outages.

promtool test rules runs kvroute-alerts.test.yml beside this file: a router
that stops answering, no router target at all, a statefeed down, a router
with no healthy engine and a dead model pool each fire their alert, and
nothing fires early. Then every job an alert matches (job="...") must be a
job both shipped scrape configs produce: a job_name of
deploy/prometheus/prometheus.yml and the job label a
deploy/kubernetes/podmonitor.yaml endpoint sets (without a relabeling the
operator's job is NAMESPACE/NAME, which no rule matches). The name check is
shown to catch a PodMonitor endpoint without its relabeling.

Run by ctest (test_deploy_alerts) with KVR_SOURCE_DIR set; needs promtool
(Debian's prometheus package, scripts/install-deps.sh) and python3-yaml.
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
HERE = os.path.dirname(os.path.abspath(__file__))
ALERTS = os.path.join(SOURCE_DIR, "deploy", "prometheus", "kvroute-alerts.yml")
PROMETHEUS = os.path.join(SOURCE_DIR, "deploy", "prometheus", "prometheus.yml")
PODMONITOR = os.path.join(SOURCE_DIR, "deploy", "kubernetes", "podmonitor.yaml")


def load(path):
    with open(path) as f:
        return [d for d in yaml.safe_load_all(f) if d is not None]


def alert_jobs(rules_doc):
    """alert name -> the job names its expression matches with job="..."."""
    out = {}
    for group in rules_doc["groups"]:
        for rule in group["rules"]:
            if "alert" in rule:
                out[rule["alert"]] = set(re.findall(r'\bjob\s*=\s*"([^"]*)"', rule["expr"]))
    return out


def static_jobs(prom_doc):
    return {c["job_name"] for c in prom_doc.get("scrape_configs", [])}


def podmonitor_jobs(monitor):
    """The job label of each endpoint's targets, as the operator sets it."""
    default = "NAMESPACE/" + monitor["metadata"]["name"]
    jobs = set()
    for ep in monitor["spec"]["podMetricsEndpoints"]:
        job = default
        for r in ep.get("relabelings", []):
            if r.get("targetLabel") == "job" and r.get("action", "replace") == "replace" \
                    and not r.get("sourceLabels"):
                job = r.get("replacement", "$1")
        jobs.add(job)
    return jobs


def unmatched(alerts, produced):
    return {name: sorted(jobs - produced) for name, jobs in alerts.items() if jobs - produced}


class AlertRulesTest(unittest.TestCase):
    def test_promtool_unit_tests(self):
        self.assertIsNotNone(shutil.which("promtool"),
                             "promtool not found: apt-get install prometheus (scripts/install-deps.sh)")
        result = subprocess.run(["promtool", "test", "rules", "kvroute-alerts.test.yml"], cwd=HERE,
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_alerts_match_jobs_the_scrape_configs_produce(self):
        alerts = alert_jobs(load(ALERTS)[0])
        self.assertTrue(alerts["KvrouteRouterDown"] and alerts["KvrouteStatefeedDown"])
        self.assertEqual(unmatched(alerts, static_jobs(load(PROMETHEUS)[0])), {},
                         "jobs that prometheus.yml has no job_name for")
        (monitor,) = [d for d in load(PODMONITOR) if d.get("kind") == "PodMonitor"]
        self.assertEqual(unmatched(alerts, podmonitor_jobs(monitor)), {},
                         "jobs no PodMonitor endpoint produces")

    def test_check_catches_an_endpoint_without_its_job(self):
        alerts = alert_jobs(load(ALERTS)[0])
        (monitor,) = [d for d in load(PODMONITOR) if d.get("kind") == "PodMonitor"]
        for i in range(len(monitor["spec"]["podMetricsEndpoints"])):
            broken = copy.deepcopy(monitor)
            broken["spec"]["podMetricsEndpoints"][i].pop("relabelings", None)
            self.assertNotEqual(unmatched(alerts, podmonitor_jobs(broken)), {}, f"endpoint {i}")


if __name__ == "__main__":
    unittest.main(verbosity=2)
