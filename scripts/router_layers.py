#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The router's modules as two graphs, top-down: who includes whom
(#include "router/X.h") and who calls whom (a kvr_* function one module
defines, called from another's .c). A module is router/X.c with X.h beside
it (router/router_internal.h belongs to router, router/proxy_internal.h and
router/pd_path.c, the proxy's second file, to proxy; router/policy.h, the
interface, is the module policy, and router/policies/, its implementations,
the module policies). Prints both graphs; with --check, exits 1 when either
has a cycle, naming it."""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"router/([A-Za-z0-9_/]+)\.h"', re.M)
DEFINE = re.compile(r'^(?!static\b)[A-Za-z_][\w \t\*]*?\b(kvr_\w+)\s*\([^;{]*\)\s*\{', re.M)
INLINE = re.compile(r'^static\s+inline\b[^(;]*?\b(kvr_\w+)\s*\(', re.M)
CALL = re.compile(r'\b(kvr_\w+)\s*\(')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')


def module_of(name):
    """router/X.h or X.c -> module name."""
    if name.startswith('policies/'):
        return 'policies'
    if name == 'router_internal':
        return 'router'
    if name in ('proxy_internal', 'pd_path'):
        return 'proxy'  # the proxy's second file and the header its two files share
    return name


def read(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return f.read()


def graphs(root):
    files = {}  # module -> list of (path, text)
    for dirpath, _, names in os.walk(root):
        for n in sorted(names):
            if not n.endswith(('.c', '.h')):
                continue
            path = os.path.join(dirpath, n)
            rel = os.path.relpath(path, root)[:-2]
            files.setdefault(module_of(rel), []).append((path, read(path)))
    includes = {m: set() for m in files}
    defined = {}
    for m, fs in files.items():
        for path, text in fs:
            code = COMMENT.sub(' ', text)
            for inc in INCLUDE.findall(code):
                target = module_of(inc)
                if target != m and target in files:
                    includes[m].add(target)
            for fn in DEFINE.findall(code) + INLINE.findall(code):
                defined.setdefault(fn, m)
    calls = {m: set() for m in files}
    for m, fs in files.items():
        for path, text in fs:
            if not path.endswith('.c'):
                continue
            code = STRING.sub('""', COMMENT.sub(' ', text))
            for fn in CALL.findall(code):
                target = defined.get(fn)
                if target and target != m:
                    calls[m].add(target)
    return includes, calls


def cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def layers(graph):
    """Each module's depth from the top (no module above it: 0), when the graph has no cycle."""
    depth = {}

    def below(v, seen):
        if v in depth:
            return depth[v]
        d = 0
        for w in graph:
            if v in graph[w] and w not in seen:
                d = max(d, below(w, seen | {w}) + 1)
        depth[v] = d
        return d

    for v in graph:
        below(v, {v})
    return depth


def show(title, graph):
    print(f'{title}:')
    found = cycles(graph)
    depth = layers(graph) if not found else {v: 0 for v in graph}
    for v in sorted(graph, key=lambda v: (depth[v], v)):
        targets = ', '.join(sorted(graph[v])) or '-'
        print(f'  {v:<14} -> {targets}')
    for comp in found:
        print(f'  CYCLE: {" <-> ".join(comp)}')
    return found


def main(argv):
    check = '--check' in argv
    args = [a for a in argv if a != '--check']
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'router')
    includes, calls = graphs(root)
    bad = show('includes (module -> modules whose header it includes)', includes)
    bad += show('calls (module -> modules whose kvr_* functions its .c calls)', calls)
    if check and bad:
        print('router/ modules form a cycle: each module should only reach the ones below it', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
