#!/usr/bin/env bash
# One-command set-up: install the Debian packages dlperf needs (only those
# missing), build everything, and run the main job on the shipped example.
set -euo pipefail
cd "$(dirname "$0")/.."
PKGS="build-essential pkg-config libopenblas-dev libxgboost-dev libsqlite3-dev libmicrohttpd-dev
      libcjson-dev libonnx-dev libonnx-testdata python3-onnx python3-torch python3-torchvision python3-pytest clang
      libclang-rt-14-dev chromium curl wrk nodejs"
missing=()
for p in $PKGS; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# playwright-core for the browser test (tests/browser; it drives Debian's chromium
# and never downloads a browser).  Debian's nodejs comes without npm (NodeSource's
# has it).  Quiet, idempotent, and not fatal: tests/t_serve.sh retries it.
if [ ! -d tests/browser/node_modules/playwright-core ]; then
  if ! command -v npm >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq npm >/dev/null 2>&1 || true
  fi
  (cd tests/browser && npm install --no-audit --no-fund --silent >/dev/null 2>&1) ||
    echo "setup: warning: npm install in tests/browser failed; the browser test will retry it"
fi
make -j"$(nproc)"
echo "setup: built build/dlperf; main job on the shipped example:"
./build/dlperf predict examples/resnet18.onnx --device a100-40gb --batch 32
