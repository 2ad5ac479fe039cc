# SPDX-License-Identifier: Apache-2.0
"""Where the bench's Python tools find the tree and its programs."""
import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# What `make build` and `make test` produce first, then the developer presets' folder.
BUILD_DIRS = ("build/plain", "build/dev")


def program(rel):
    """The path of a built program, e.g. program("bench/fleetsim/kvroute-fleetsim"): under
    $KVR_BUILD_DIR when set, else the first of BUILD_DIRS that holds it (build/plain when none)."""
    env = os.environ.get("KVR_BUILD_DIR")
    if env:
        return os.path.join(os.path.abspath(env), rel)
    for d in BUILD_DIRS:
        path = os.path.join(ROOT, d, rel)
        if os.path.exists(path):
            return path
    return os.path.join(ROOT, BUILD_DIRS[0], rel)
