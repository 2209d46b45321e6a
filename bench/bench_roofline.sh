#!/usr/bin/env bash
# Roofline kernel-time model, pure vs calibrated, leave-one-GPU-out on
# NeuSight's measured kernel tables (fp32 PyTorch 2.1): kernel-level MAPE per
# op class and held-out GPU, side by side (bench/bench_roofline.c).
#   bench/bench_roofline.sh           evaluate and print
#   bench/bench_roofline.sh --emit    also refit on all GPUs and rewrite
#                                     src/predict/calib_table.inc (then rebuild)
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SHARED=${DLP_SHARED:-../shared}
DATA="$SHARED/data/NeuSight/scripts/asplos/data/dataset"
if [ ! -d "$DATA" ]; then echo "bench_roofline: no NeuSight data at $DATA; skipped"; exit 0; fi
cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc bench/bench_roofline.c "$BUILD/libdlperf.a" \
  $(pkg-config --libs openblas libcjson libmicrohttpd sqlite3 xgboost 2>/dev/null) -lm -lpthread -o "$BUILD/bench_roofline"
if [ "${1:-}" = "--emit" ]; then
  "$BUILD/bench_roofline" "$DATA" --emit src/predict/calib_table.inc
else
  "$BUILD/bench_roofline" "$DATA"
fi

# ---- whole models: ResNet-50 and BERT-large against MLPerf Inference (closed,
# Offline, TensorRT; tensorrt preset and eager default at batch 256) and
# ResNet-50 fp32 training step time and power against Zeus (NSDI'23).  One
# implementation, in bench/e2e_vision.c: `bench/bench_e2e.sh --all` pools these
# rows with NeuSight's and timm's (docs/results_e2e_vision.md).
echo
bench/bench_e2e.sh --mlperf
