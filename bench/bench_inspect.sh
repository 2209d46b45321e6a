#!/usr/bin/env bash
# `inspect` speed per model, dlperf beside python3-onnx, with the ratio of
# each model and the minimum (issue 26: >= 30x on every model of
# ../shared/models/torchvision and data/models/torchvision, the ViT, MaxViT
# and Swin exports included):
#  1. whole command, as the issue puts it: `dlperf inspect FILE --batch 1
#     --json` vs `python3 -c "onnx.load + shape_inference.infer_shapes"`,
#     median of 5 runs each: wall clock and, where perf is allowed, CPU time
#     (perf task-clock: unlike wall time it does not count waiting for a
#     core, so it holds on a loaded shared machine), side by side;
#     The header also gives `dlperf --version`'s times: the floor of every
#     dlperf run (exec, dynamic loading, exit; on a loaded machine its wall
#     time is mostly waiting for a core);
#  2. in process: dlp_graph_load (read + link + shapes + costs) vs onnx.load +
#     infer_shapes inside one python process (medians) — the stricter view.
# data/models/torchvision files have symbolic height/width: both tools get
# 224 (dlperf by --dim, python infers symbolically; the work is the same).
# MODELS="a.onnx b.onnx" limits the run to those files.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SHARED=${DLP_SHARED:-../shared}
PY=/usr/bin/python3
cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude bench/bench_inspect.c "$BUILD/libdlperf.a" \
  $(pkg-config --libs libcjson sqlite3) -ldl -lm -lpthread -o "$BUILD/bench_inspect"
files=${MODELS:-$(ls "$SHARED"/models/torchvision/*.onnx data/models/torchvision/*.onnx 2>/dev/null)}
PYCMD="import onnx,sys; m=onnx.load(sys.argv[1], load_external_data=False); onnx.shape_inference.infer_shapes(m)"
DIMS="--dim height=224 --dim width=224"
perf_ok=0
perf stat -e task-clock true >/dev/null 2>&1 && perf_ok=1

med() { sort -n | sed -n 3p; }
wall_ms() { # command... ; the median wall ms of 5 runs
  for _ in 1 2 3 4 5; do
    local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N)
    echo $(( (e - s) / 1000 ))
  done | med | awk '{printf "%.2f", $1/1000}'
}
cpu_ms() { # command... ; the median task-clock ms of 5 runs
  for _ in 1 2 3 4 5; do
    perf stat -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/{printf "%d\n", $1*1000}'
  done | med | awk '{printf "%.2f", $1/1000}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (a > 0) printf "%.1f", b/a; else print "inf" }'; }

echo "== 1. whole command: dlperf inspect vs python3 onnx.load+infer_shapes (ms, median of 5) =="
echo "   (machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
# the floor of every dlperf run: exec, dynamic loading and exit, no model
floor="wall $(wall_ms "$BUILD/dlperf" --version) ms"
[ $perf_ok = 1 ] && floor="$floor, CPU $(cpu_ms "$BUILD/dlperf" --version) ms"
echo "   (dlperf --version, the startup floor: $floor)"
if [ $perf_ok = 1 ]; then
  printf '%-26s %9s %9s %7s   %9s %9s %7s\n' model dlp_wall py_wall ratio dlp_cpu py_cpu ratio
else
  printf '%-26s %9s %9s %7s\n' model dlp_wall py_wall ratio
fi
minw=""; minc=""; minw_m=""; minc_m=""
for f in $files; do
  extra=""; case $f in data/models/*) extra=$DIMS;; esac
  name=$(basename "$f"); case $f in data/models/*) name="own/$name";; esac
  a=$(wall_ms "$BUILD/dlperf" inspect "$f" --batch 1 $extra --json)
  b=$(wall_ms $PY -c "$PYCMD" "$f")
  rw=$(ratio "$a" "$b")
  if [ -z "$minw" ] || awk -v r="$rw" -v m="$minw" 'BEGIN{exit !(r < m)}'; then minw=$rw; minw_m=$name; fi
  if [ $perf_ok = 1 ]; then
    c=$(cpu_ms "$BUILD/dlperf" inspect "$f" --batch 1 $extra --json)
    d=$(cpu_ms $PY -c "$PYCMD" "$f")
    rc=$(ratio "$c" "$d")
    if [ -z "$minc" ] || awk -v r="$rc" -v m="$minc" 'BEGIN{exit !(r < m)}'; then minc=$rc; minc_m=$name; fi
    printf '%-26s %9s %9s %6sx   %9s %9s %6sx\n' "$name" "$a" "$b" "$rw" "$c" "$d" "$rc"
  else
    printf '%-26s %9s %9s %6sx\n' "$name" "$a" "$b" "$rw"
  fi
done
echo "min ratio, wall: ${minw}x ($minw_m)"
[ $perf_ok = 1 ] && echo "min ratio, CPU:  ${minc}x ($minc_m)"
goal() { awk -v r="$1" 'BEGIN{exit !(r >= 30)}' && echo "met" || echo "NOT met"; }
echo "goal >= 30x on every model: wall $(goal "$minw")$([ $perf_ok = 1 ] && echo ", CPU $(goal "$minc")")"
echo
"$BUILD/bench_inspect" $files > "$BUILD/bench_inspect.c.txt"
$PY bench/bench_inspect_py.py $files > "$BUILD/bench_inspect.py.txt"
echo "== 2. in process: dlp_graph_load vs onnx.load+infer_shapes (ms, median) =="
printf '%-26s %10s %10s %8s\n' model dlperf_ms python_ms ratio
join <(sort "$BUILD/bench_inspect.c.txt") <(sort "$BUILD/bench_inspect.py.txt") |
  awk '{r=$3/$2; printf "%-26s %10.3f %10.3f %7.1fx\n",$1,$2,$3,r; if(min==""||r<min)min=r} END{printf "min ratio %.1fx\n",min}'
