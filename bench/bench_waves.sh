#!/usr/bin/env bash
# Tiles and waves (src/predict/waves.c) against the efficiency curves on
# NeuSight's fp32 linear + bmm kernel tables, leave-one-GPU-out
# (bench/bench_waves.c; docs/predict.md, "Tiles and waves").
#   bench/bench_waves.sh           evaluate and print
#   bench/bench_waves.sh --emit    also rewrite src/predict/waves_table.inc (deterministic; then rebuild)
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SHARED=${DLP_SHARED:-../shared}
DS="$SHARED/data/NeuSight/scripts/asplos/data/dataset"
AIC="$SHARED/data/aiconfigurator"
AICARG=""; [ -d "$AIC/DERIVED_csv" ] && AICARG="--aic $AIC"
if [ ! -d "$DS/train/collect/linear" ]; then echo "bench_waves: no NeuSight kernel tables at $DS; skipped"; exit 0; fi
[ -f "$BUILD/libdlperf.a" ] || make -j2 >/dev/null
cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc -Ibench bench/bench_waves.c "$BUILD/libdlperf.a" \
  $(pkg-config --libs openblas libcjson libmicrohttpd sqlite3 xgboost 2>/dev/null) -lm -lpthread -ldl -o "$BUILD/bench_waves"
if [ "${1:-}" = "--emit" ]; then
  "$BUILD/bench_waves" "$DS" $AICARG --emit src/predict/waves_table.inc
else
  "$BUILD/bench_waves" "$DS" $AICARG "$@"
fi
