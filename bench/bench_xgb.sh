#!/usr/bin/env bash
# XGBoost prediction latency per sample (goal < 10 us): one row per call and
# batches of 1000, for boosters of the shipped size and of the chapter's
# optimum, and for the shipped models.  Prints; never fails the build.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc bench/bench_xgb.c "$BUILD/libdlperf.a" \
  $(pkg-config --libs openblas libcjson libmicrohttpd sqlite3 xgboost) -lm -lpthread -o "$BUILD/bench_xgb"
"$BUILD/bench_xgb"
