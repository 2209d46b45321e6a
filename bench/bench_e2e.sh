#!/usr/bin/env bash
# dlperf predict vs NeuSight's measured end-to-end latencies of transformers
# (BERT-large, GPT-2-large, GPT-3-XL/2.7B, OPT-1.3B; fp32 PyTorch 2.1 eager;
# inference and training fw+bw) on 10 GPUs: per-row table, MAPE per GPU,
# model, mode and overall for the pure roofline, the calibrated default and
# curves refitted without the row's GPU; per-op-class comparison with
# NeuSight's op-level CSVs.  Writes docs/results_e2e.md (bench/bench_e2e.c).
#   bench/bench_e2e.sh            print and regenerate docs/results_e2e.md
#   bench/bench_e2e.sh --no-md    print only
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SHARED=${DLP_SHARED:-../shared}
ASPLOS="$SHARED/data/NeuSight/scripts/asplos"
if [ ! -d "$ASPLOS/label" ]; then echo "bench_e2e: no NeuSight labels at $ASPLOS/label; skipped"; exit 0; fi
[ -f "$BUILD/libdlperf.a" ] || make -j2 >/dev/null
cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc -Ibench bench/bench_e2e.c "$BUILD/libdlperf.a" \
  $(pkg-config --cflags --libs openblas libcjson libmicrohttpd sqlite3 xgboost 2>/dev/null) -lm -lpthread \
  -o "$BUILD/bench_e2e"
MD=(--md docs/results_e2e.md)
[ "${1:-}" = "--no-md" ] && MD=()
"$BUILD/bench_e2e" "$ASPLOS" --kernels "$ASPLOS/data/dataset" "${MD[@]}"
