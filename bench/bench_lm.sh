#!/usr/bin/env bash
# bench_lm.sh — training / forward tokens/s of the small language model (src/lm)
# at ~1 M and ~5 M parameters (docs/gnnlm.md), with OpenBLAS's own kernel
# choice and, on an AVX2/AVX-512 CPU, with that core type forced.  Builds bench/bench_lm.c
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
echo "== bench_lm ($(nproc) cores, OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-<auto>})"
"$BUILD/bench/bench_lm" "$@" || echo "bench_lm: exited with $?"
# OpenBLAS's DYNAMIC_ARCH can misdetect a virtual CPU (it picked the SSE3
# "Prescott" kernels on this project's AVX-512 VM, 2-3x slower): when the
# CPU has AVX-512 / AVX2 and no core type was forced, run again with it.
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
  ct=
  if grep -qw avx512f /proc/cpuinfo 2>/dev/null; then ct=SkylakeX
  elif grep -qw avx2 /proc/cpuinfo 2>/dev/null; then ct=Haswell; fi
  if [ -n "$ct" ]; then
    echo "== bench_lm, OPENBLAS_CORETYPE=$ct"
    OPENBLAS_CORETYPE=$ct "$BUILD/bench/bench_lm" "$@" || echo "bench_lm: exited with $?"
  fi
fi
exit 0
