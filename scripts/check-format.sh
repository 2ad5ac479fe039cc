#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks that every C file git tracks is formatted as .clang-format says.
# Prints each file that is not, with the first lines clang-format would
# change, and exits 1; exits 0 when the tree is clean.
#
#   scripts/check-format.sh          check
#   scripts/check-format.sh --fix    rewrite the files that are not clean
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
fix=0
case "${1:-}" in
  --fix) fix=1 ;;
  "") ;;
  *) echo "check-format.sh: unknown argument '$1' (expected --fix or nothing)" >&2; exit 2 ;;
esac
if ! command -v clang-format >/dev/null 2>&1; then
  echo "check-format.sh: clang-format not found (apt-get install clang-format)" >&2
  exit 2
fi
bad=0
while IFS= read -r -d '' f; do
  if ! clang-format --style=file "$f" | cmp -s - "$f"; then
    if ((fix)); then
      clang-format --style=file -i "$f"
      echo "formatted $f"
    else
      bad=$((bad + 1))
      echo "not formatted: $f"
      clang-format --style=file "$f" | diff -u "$f" - | sed -n '3,12p' || true
    fi
  fi
done < <(git ls-files -z '*.c' '*.h')
if ((bad)); then
  echo "check-format.sh: $bad file(s) differ from .clang-format; run scripts/check-format.sh --fix" >&2
  exit 1
fi
