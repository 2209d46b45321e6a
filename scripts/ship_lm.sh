#!/usr/bin/env bash
# ship_lm.sh — (re)make the language model dlperf ships
# (data/models/lm/dlperf-lm.dlpm, compiled in by `make`; docs/gnnlm.md):
# the pre-training corpus from dlperf's own text (graph summaries of the
# example ONNX files and of every HELP NAS-Bench-201 / FBNet architecture,
# device descriptions, measured-latency statements), with the measurements
# of the devices bench/bench_gnnlm.sh adapts to left out, then 45 minutes of
# next-token pre-training of the 1m configuration on one thread.
#
#   scripts/ship_lm.sh [MINUTES]      (default 45; the issue allows <= 120)
#
# The held-out list must stay the bench's HELD devices (every batch
# column of them, both NAS spaces), or the adaptation experiment would
# adapt to devices whose latencies the language model has read.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
MIN=${1:-45}
BIN=$BUILD/dlperf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
HOLDOUT=titan_rtx_1,titan_rtx_32,titan_rtx_64,gold_6240,pixel3,samsung_s7
"$BIN" lm corpus --out "$tmp/text" --graphs examples --holdout "$HOLDOUT"
OPENBLAS_NUM_THREADS=1 "$BIN" lm pretrain --corpus "$tmp/text" --out "$tmp/lm.dlpm" --config 1m --minutes "$MIN" \
  --progress lines | grep -v '^step ' || true
mkdir -p data/models/lm
cp "$tmp/lm.dlpm" data/models/lm/dlperf-lm.dlpm
ls -l data/models/lm/dlperf-lm.dlpm
