#!/usr/bin/env bash
# Efficiency curves of tensor-core kernels (fp16/bf16, fp8/int8): fit on
# aiconfigurator's TensorRT-LLM kernel tables, evaluate per GPU and
# leave-one-GPU-out, check against vidur's fp16 profiles (bench/bench_curves.c;
# docs/curves.md).
#   bench/bench_curves.sh           evaluate and print
#   bench/bench_curves.sh --emit    also rewrite src/predict/curves_table.inc
#                                   (deterministic; then rebuild)
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SHARED=${DLP_SHARED:-../shared}
AIC="$SHARED/data/aiconfigurator"
if [ ! -d "$AIC/DERIVED_csv" ]; then echo "bench_curves: no aiconfigurator data at $AIC; skipped"; exit 0; fi
cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc -Ibench bench/bench_curves.c "$BUILD/libdlperf.a" \
  $(pkg-config --libs openblas libcjson libmicrohttpd sqlite3 xgboost 2>/dev/null) -lm -lpthread -ldl -o "$BUILD/bench_curves"
ARGS=("$AIC" "$SHARED/data/vidur" "$SHARED/data/NeuSight/scripts/asplos/data/dataset")
if [ "${1:-}" = "--emit" ]; then
  "$BUILD/bench_curves" "${ARGS[@]}" --emit src/predict/curves_table.inc
else
  "$BUILD/bench_curves" "${ARGS[@]}"
fi
