#!/usr/bin/env bash
# `inspect` speed per corpus model, two ways, with ratios:
#  1. whole command, as the issue puts it: `dlperf inspect FILE --batch 1 --json`
#     vs `python3 -c "onnx.load + shape_inference.infer_shapes"` (median of 5
#     runs each, wall clock, process start and imports included);
#  2. in process: dlp_graph_load (read + link + shapes + costs) vs onnx.load +
#     infer_shapes inside one python process (medians) — the stricter view.
# Goal from the issue: >= 30x on every file; swin_t under 30 ms.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SHARED=${DLP_SHARED:-../shared}
PY=/usr/bin/python3
cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude bench/bench_inspect.c "$BUILD/libdlperf.a" \
  $(pkg-config --libs libcjson sqlite3) -ldl -lm -lpthread -o "$BUILD/bench_inspect"
files=$(ls "$SHARED"/models/torchvision/*.onnx)

median_ms() { # command... ; prints the median wall ms of 5 runs
  local t=()
  for _ in 1 2 3 4 5; do
    local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N)
    t+=($(( (e - s) / 1000 )))
  done
  printf '%s\n' "${t[@]}" | sort -n | sed -n 3p | awk '{printf "%.3f", $1/1000}'
}
echo "== 1. whole command: dlperf inspect vs python3 -c onnx.load+infer_shapes (ms, median of 5) =="
printf '%-24s %10s %10s %8s\n' model dlperf_ms python_ms ratio
minr=""
for f in $files; do
  a=$(median_ms "$BUILD/dlperf" inspect "$f" --batch 1 --json)
  b=$(median_ms $PY -c "import onnx,sys; m=onnx.load(sys.argv[1], load_external_data=False); onnx.shape_inference.infer_shapes(m)" "$f")
  r=$(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.1f", b/a}')
  printf '%-24s %10s %10s %7sx\n' "$(basename "$f")" "$a" "$b" "$r"
  minr=$(awk -v m="$minr" -v r="$r" 'BEGIN{if(m==""||r<m)print r; else print m}')
done
echo "min ratio ${minr}x"
echo
if perf stat -e task-clock true >/dev/null 2>&1; then
  # CPU time of the same whole commands (perf task-clock): unlike wall time it
  # does not count waiting for a core, so it holds on a loaded shared machine.
  cpu_ms() { local t=(); for _ in 1 2 3 4 5; do
      t+=($(perf stat -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/{printf "%d", $1*1000}'))
    done; printf '%s\n' "${t[@]}" | sort -n | sed -n 3p | awk '{printf "%.3f", $1/1000}'; }
  echo "== 1b. whole command, CPU time (perf task-clock, ms, median of 5) =="
  printf '%-24s %10s %10s %8s\n' model dlperf_ms python_ms ratio
  minr=""
  for f in $files; do
    a=$(cpu_ms "$BUILD/dlperf" inspect "$f" --batch 1 --json)
    b=$(cpu_ms $PY -c "import onnx,sys; m=onnx.load(sys.argv[1], load_external_data=False); onnx.shape_inference.infer_shapes(m)" "$f")
    r=$(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.1f", b/a}')
    printf '%-24s %10s %10s %7sx\n' "$(basename "$f")" "$a" "$b" "$r"
    minr=$(awk -v m="$minr" -v r="$r" 'BEGIN{if(m==""||r<m)print r; else print m}')
  done
  echo "min ratio ${minr}x"
  echo
fi
"$BUILD/bench_inspect" $files > "$BUILD/bench_inspect.c.txt"
$PY bench/bench_inspect_py.py $files > "$BUILD/bench_inspect.py.txt"
echo "== 2. in process: dlp_graph_load vs onnx.load+infer_shapes (ms, median) =="
printf '%-24s %10s %10s %8s\n' model dlperf_ms python_ms ratio
join <(sort "$BUILD/bench_inspect.c.txt") <(sort "$BUILD/bench_inspect.py.txt") |
  awk '{r=$3/$2; printf "%-24s %10.3f %10.3f %7.1fx\n",$1,$2,$3,r; if(min==""||r<min)min=r} END{printf "min ratio %.1fx\n",min}'
