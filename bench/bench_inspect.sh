#!/usr/bin/env bash
# inspect time per corpus model, dlperf (in-process median) beside python3-onnx
# onnx.load + infer_shapes (in-process median), and the ratio.  Goal: >= 30x
# on every file; swin_t under 30 ms.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SHARED=${DLP_SHARED:-../shared}
cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude bench/bench_inspect.c "$BUILD/libdlperf.a" \
  $(pkg-config --libs openblas libcjson libmicrohttpd sqlite3 xgboost) -lm -lpthread -o "$BUILD/bench_inspect"
files=$(ls "$SHARED"/models/torchvision/*.onnx)
"$BUILD/bench_inspect" $files > "$BUILD/bench_inspect.c.txt"
/usr/bin/python3 bench/bench_inspect_py.py $files > "$BUILD/bench_inspect.py.txt"
echo "== inspect: dlperf vs python3-onnx load+infer_shapes (ms, median, in process) =="
printf '%-24s %10s %10s %8s\n' model dlperf_ms python_ms ratio
join <(sort "$BUILD/bench_inspect.c.txt") <(sort "$BUILD/bench_inspect.py.txt") |
  awk '{r=$3/$2; printf "%-24s %10.3f %10.3f %7.1fx\n",$1,$2,$3,r; if(min==""||r<min)min=r} END{printf "min ratio %.1fx\n",min}'
