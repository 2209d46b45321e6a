#!/usr/bin/env bash
# bench_lm.sh — training / forward tokens/s of the small language model (src/lm)
# at ~1 M and ~5 M parameters (docs/gnnlm.md).  Builds bench/bench_lm.c
# against build/libdlperf.a (run `make` first).  Never fails.
#   bench/bench_lm.sh [steps] [B] [T]
cd "$(dirname "$0")/.." || exit 0
BUILD=${BUILD:-build}
if [ ! -f "$BUILD/libdlperf.a" ]; then
  echo "bench_lm: $BUILD/libdlperf.a missing (run make)"; exit 0
fi
mkdir -p "$BUILD/bench"
if ! cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc $(pkg-config --cflags openblas) \
     bench/bench_lm.c "$BUILD/libdlperf.a" \
     $(pkg-config --libs openblas libcjson libmicrohttpd sqlite3 xgboost) -lm -lpthread \
     -o "$BUILD/bench/bench_lm"; then
  echo "bench_lm: build failed"; exit 0
fi
echo "== bench_lm ($(nproc) cores)"
"$BUILD/bench/bench_lm" "$@" || echo "bench_lm: exited with $?"
exit 0
