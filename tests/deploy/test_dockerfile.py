# SPDX-License-Identifier: Apache-2.0
"""The Dockerfile builds the way the README says, and ships what runs.

- The builder stage's RUN lines are exactly the README's "Building by hand"
  build commands (the lines before its first ctest), so an image build is
  not a second way to build.
- The runtime stage copies the three programs from the build directory those
  commands use, runs as a non-root user, and installs exactly the Debian
  packages that own the shared libraries the built programs link (ldd on the
  binaries of this build tree, dpkg -S on each library), when they are given.
- .dockerignore keeps build trees and installed node modules out.

Run by ctest (test_dockerfile) with KVR_SOURCE_DIR and, for the library
check, KVR_BIN_KVROUTE, KVR_BIN_KVROUTE_STATEFEED and KVR_BIN_KVROUTE_SHM.
"""

import os
import re
import shlex
import shutil
import subprocess
import unittest

SOURCE_DIR = os.environ.get("KVR_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
PROGRAMS = {"kvroute": "KVR_BIN_KVROUTE", "kvroute-statefeed": "KVR_BIN_KVROUTE_STATEFEED",
            "kvroute-shm": "KVR_BIN_KVROUTE_SHM"}
# What the C library and the toolchain bring: in every Debian image already.
BASE_LIBS = {"libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1", "libgcc_s.so.1",
             "libresolv.so.2"}


def dockerfile_stages(path):
    """[(stage name or None, [(instruction, argument text)])], continuations joined."""
    with open(path) as f:
        text = f.read()
    text = re.sub(r"\\\n", " ", text)
    stages = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        instr, _, arg = line.partition(" ")
        instr = instr.upper()
        arg = " ".join(arg.split())
        if instr == "FROM":
            m = re.match(r"(\S+)(?:\s+AS\s+(\S+))?$", arg, re.I)
            stages.append((m.group(2), [("FROM", m.group(1))]))
        else:
            stages[-1][1].append((instr, arg))
    return stages


def readme_build_commands(path):
    """The "Building by hand" block's commands up to its first ctest line."""
    with open(path) as f:
        text = f.read()
    m = re.search(r"^## Building by hand\n.*?```sh\n(.*?)```", text, re.S | re.M)
    assert m, "README has a 'Building by hand' section with a sh block"
    commands = []
    for line in m.group(1).splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("ctest"):
            break
        commands.append(" ".join(line.split()))
    return commands


class DockerfileTest(unittest.TestCase):
    def setUp(self):
        self.stages = dockerfile_stages(os.path.join(SOURCE_DIR, "Dockerfile"))
        self.assertEqual(len(self.stages), 2, "a builder and a runtime stage")
        self.builder, self.runtime = self.stages

    def test_debian_12(self):
        for _, instrs in self.stages:
            image = instrs[0][1]
            self.assertRegex(image, r"^debian:bookworm(-slim)?$")

    def test_builder_runs_the_readme_commands(self):
        runs = [arg for instr, arg in self.builder[1] if instr == "RUN"]
        self.assertEqual(runs, readme_build_commands(os.path.join(SOURCE_DIR, "README.md")))

    def test_runtime_copies_the_three_programs_from_that_build(self):
        build_dir = None
        for cmd in readme_build_commands(os.path.join(SOURCE_DIR, "README.md")):
            m = re.search(r"cmake -S \. -B (\S+)", cmd)
            if m:
                build_dir = m.group(1)
        self.assertIsNotNone(build_dir)
        workdir = next(arg for instr, arg in self.builder[1] if instr == "WORKDIR")
        copied = []
        for instr, arg in self.runtime[1]:
            if instr == "COPY" and arg.startswith("--from=%s " % self.builder[0]):
                copied += shlex.split(arg)[1:-1]
        names = sorted(os.path.basename(p) for p in copied)
        self.assertEqual(names, sorted(PROGRAMS))
        for p in copied:
            self.assertTrue(p.startswith(os.path.join(workdir, build_dir) + "/"), p)
            # The path inside the build tree is where CMake puts the target.
            rel = os.path.relpath(p, os.path.join(workdir, build_dir))
            cmake = os.path.join(SOURCE_DIR, os.path.dirname(rel), "CMakeLists.txt")
            with open(cmake) as f:
                self.assertRegex(f.read(), r"add_executable\(%s\b" % re.escape(os.path.basename(rel)), rel)

    def test_runtime_is_not_root(self):
        users = [arg for instr, arg in self.runtime[1] if instr == "USER"]
        self.assertTrue(users, "the runtime stage sets USER")
        user = users[-1].split(":")[0]
        self.assertNotIn(user, ("root", "0"))

    def runtime_packages(self):
        for instr, arg in self.runtime[1]:
            if instr == "RUN" and "apt-get install" in arg:
                words = arg.split("apt-get install", 1)[1].split("&&")[0].split()
                return sorted(w for w in words if not w.startswith("-"))
        return []

    @unittest.skipUnless(all(os.environ.get(v) for v in PROGRAMS.values()) and shutil.which("ldd")
                         and shutil.which("dpkg"), "binaries or ldd/dpkg missing")
    def test_runtime_packages_are_the_linked_libraries(self):
        libs = set()
        for var in PROGRAMS.values():
            out = subprocess.run(["ldd", os.environ[var]], capture_output=True, text=True, check=True).stdout
            for line in out.splitlines():
                m = re.match(r"\s*(\S+) => (\S+)", line)
                if m:
                    libs.add((m.group(1), m.group(2)))
        if any(name.startswith(("libasan", "libubsan", "libtsan")) for name, _ in libs):
            self.skipTest("a sanitizer build links its runtime; the plain build is checked")
        packages = set()
        for name, path in libs:
            if name in BASE_LIBS:
                continue
            owner = subprocess.run(["dpkg", "-S", os.path.realpath(path)], capture_output=True, text=True)
            if owner.returncode != 0:
                owner = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True)
            self.assertEqual(owner.returncode, 0, "no Debian package owns %s" % path)
            packages.add(owner.stdout.split(":")[0])
        self.assertEqual(self.runtime_packages(), sorted(packages))


class DockerignoreTest(unittest.TestCase):
    def test_keeps_build_trees_out(self):
        with open(os.path.join(SOURCE_DIR, ".dockerignore")) as f:
            patterns = {l.strip() for l in f if l.strip() and not l.startswith("#")}
        for p in ("build", ".git", "**/node_modules"):
            self.assertIn(p, patterns)


if __name__ == "__main__":
    unittest.main(verbosity=2)
