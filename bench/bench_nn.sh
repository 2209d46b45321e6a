#!/usr/bin/env bash
# bench_nn.sh — OpenBLAS SGEMM GFLOP/s next to a 3-layer SAGEConv(512)
# forward+backward (graphs/s, share of SGEMM).  Builds bench/bench_nn.c
# against build/libdlperf.a (run `make` first).  Never fails: a benchmark
# that cannot run prints why and exits 0.
#   bench/bench_nn.sh [graphs] [nodes per graph] [iterations]
cd "$(dirname "$0")/.." || exit 0
BUILD=${BUILD:-build}
if [ ! -f "$BUILD/libdlperf.a" ]; then
  echo "bench_nn: $BUILD/libdlperf.a missing (run make)"; exit 0
fi
mkdir -p "$BUILD/bench"
if ! cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc $(pkg-config --cflags openblas) \
     bench/bench_nn.c "$BUILD/libdlperf.a" \
     $(pkg-config --libs openblas libcjson libmicrohttpd sqlite3 xgboost) -lm -lpthread \
     -o "$BUILD/bench/bench_nn"; then
  echo "bench_nn: build failed"; exit 0
fi
echo "== bench_nn ($(nproc) cores)"
"$BUILD/bench/bench_nn" "$@" || echo "bench_nn: exited with $?"
exit 0
