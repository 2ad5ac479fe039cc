#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the docs' failure tables against the tests that drill them.

A failure table is a Markdown table whose header has a `retried` and a `test`
column. Each row's test cell names a Criterion test as `suite::name`; that test
must exist under tests/ and declare, in its body, the comment
`/* failure table: retried */` or `/* failure table: not retried */`, which
must agree with the row's `retried` cell (yes / no). A test that declares
"retried" must also assert on kvroute_retries_total, so the marker stands on
an assertion. Exits 1 with one line per disagreement.

usage: check_failure_tables.py SOURCE_DIR DOC...   (DOC relative to SOURCE_DIR)
"""
import pathlib
import re
import sys

MARKER = re.compile(r"/\* failure table: (retried|not retried) \*/")
TEST = re.compile(r"^(?:Test|ParameterizedTest)\(\s*(\w+)\s*,\s*(\w+)", re.M)


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def tables(text):
    """Yields (line number, header cells, rows) for each table with retried and test columns."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("|") and i + 1 < len(lines) and re.match(r"^\|[\s:|-]+\|$", lines[i + 1]):
            header = [c.lower() for c in cells(lines[i])]
            start, rows = i + 1, []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append((i + 1, cells(lines[i])))
                i += 1
            if "retried" in header and "test" in header:
                yield start, header, rows
        else:
            i += 1


def test_bodies(source_dir):
    """suite::name -> (path, body text up to the next test)."""
    bodies = {}
    for path in sorted((source_dir / "tests").rglob("*.c")):
        text = path.read_text(errors="replace")
        found = list(TEST.finditer(text))
        for k, m in enumerate(found):
            end = found[k + 1].start() if k + 1 < len(found) else len(text)
            bodies[f"{m.group(1)}::{m.group(2)}"] = (path, text[m.start():end])
    return bodies


def check(source_dir, docs):
    bodies = test_bodies(source_dir)
    problems, n_rows = [], 0
    for doc in docs:
        text = (source_dir / doc).read_text()
        for _, header, rows in tables(text):
            col_retried, col_test = header.index("retried"), header.index("test")
            for line_no, row in rows:
                n_rows += 1
                where = f"{doc}:{line_no}"
                if len(row) != len(header):
                    problems.append(f"{where}: {len(row)} cells, the header has {len(header)}")
                    continue
                claim = row[col_retried].lower()
                if claim not in ("yes", "no"):
                    problems.append(f"{where}: retried must be yes or no, not '{row[col_retried]}'")
                    continue
                name = row[col_test].strip("`")
                if name not in bodies:
                    problems.append(f"{where}: no test {name} under tests/")
                    continue
                path, body = bodies[name]
                marks = MARKER.findall(body)
                if len(marks) != 1:
                    problems.append(f"{where}: {name} ({path.name}) declares {len(marks)} failure-table "
                                    "markers, not one")
                    continue
                declared = "yes" if marks[0] == "retried" else "no"
                if declared != claim:
                    problems.append(f"{where}: the doc says retried={claim}, {name} declares '{marks[0]}'")
                if declared == "yes" and "kvroute_retries_total" not in body:
                    problems.append(f"{where}: {name} declares 'retried' but asserts nothing on "
                                    "kvroute_retries_total")
    if n_rows == 0:
        problems.append("no failure table (columns retried and test) in " + ", ".join(docs))
    return problems


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    problems = check(pathlib.Path(argv[1]), argv[2:])
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
