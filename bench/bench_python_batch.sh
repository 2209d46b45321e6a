#!/usr/bin/env bash
# bench_python_batch.sh — graphs/s of the Python batch API
# (dlperf.GraphModel.predict, docs/python.md) on NAS-Bench-201 networks next
# to one `dlperf predict-graph` process per graph (bench_python_batch.py).
#   bench/bench_python_batch.sh [distinct graphs [total graphs]]
# DLPERF_BENCH_MODEL=m.dlpm picks the GNN model.  Never fails.
cd "$(dirname "$0")/.." || exit 0
BUILD=${BUILD:-build}
[ -f "$BUILD/libdlperf.so" ] || { echo "bench_python_batch: $BUILD/libdlperf.so missing (run make)"; exit 0; }
/usr/bin/python3 -c 'import torch' 2>/dev/null || { echo "bench_python_batch: python3-torch missing"; exit 0; }
echo "== bench_python_batch ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
BUILD="$BUILD" DLPERF_LIB="$PWD/$BUILD/libdlperf.so.0" PYTHONDONTWRITEBYTECODE=1 \
  /usr/bin/python3 bench/bench_python_batch.py "${1:-16}" "${2:-2000}" 2>&1 | grep -v Warning ||
  echo "bench_python_batch: failed"
exit 0
