# SPDX-License-Identifier: Apache-2.0
"""Prometheus text pages, as the router and statefeed serve on /metrics."""
import re

SAMPLE_RE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)')
LABEL_RE = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse_prom(text):
    """[(name, {label: value}, float)] of a Prometheus text page; unparseable lines are skipped."""
    out = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = SAMPLE_RE.match(line)
        if not m:
            continue
        try:
            value = float(m.group(3))
        except ValueError:
            continue
        labels = dict(LABEL_RE.findall(m.group(2) or ""))
        out.append((m.group(1), labels, value))
    return out
