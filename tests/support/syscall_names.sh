#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Prints {"name", __NR_name}, for every syscall <sys/syscall.h> defines with
# compiler $1: kvr-seccomp-run's table of names a profile may use.
set -eu
echo '#include <sys/syscall.h>' | "$1" -dM -E - |
  sed -n 's/^#define __NR_\([a-z0-9_]*\) .*/{"\1", __NR_\1},/p' | sort
