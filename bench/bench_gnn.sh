#!/usr/bin/env bash
# bench_gnn.sh — GNN predictor speed: OpenBLAS SGEMM GFLOP/s next to PMGNS
# (GraphSAGE) training throughput on real NAS-Bench-201 graphs (graphs/s,
# share of SGEMM) and the single-graph prediction latency of ResNet-50
# (parse reported separately; goal < 1 ms).  Builds bench/bench_gnn.c
# against $BUILD/libdlperf.a (run `make` first).  One and two BLAS threads.
# Never fails: a benchmark that cannot run prints why and exits 0.
#   bench/bench_gnn.sh [graphs]
cd "$(dirname "$0")/.." || exit 0
BUILD=${BUILD:-build}
SHARED=${DLP_SHARED:-../shared}
if [ ! -f "$BUILD/libdlperf.a" ]; then
  echo "bench_gnn: $BUILD/libdlperf.a missing (run make)"; exit 0
fi
mkdir -p "$BUILD/bench"
if ! cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc $(pkg-config --cflags openblas) \
     bench/bench_gnn.c "$BUILD/libdlperf.a" \
     $(pkg-config --libs openblas libcjson libmicrohttpd sqlite3 xgboost 2>/dev/null) -lm -lpthread \
     -o "$BUILD/bench/bench_gnn"; then
  echo "bench_gnn: build failed"; exit 0
fi
echo "== bench_gnn ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
for t in 1 2; do
  "$BUILD/bench/bench_gnn" "${1:-384}" "$t" "$SHARED/models/torchvision/resnet50.onnx" || echo "bench_gnn: exited with $?"
done
exit 0
