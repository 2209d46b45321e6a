#!/usr/bin/env bash
# bench_plan.sh — how fast `dlperf plan` answers (docs/plan.md, "Speed"):
# the planner in-process (configurations/s and serving-model calls/s, one
# dlp_llm_predict call beside it; bench_plan.c), then whole-process times:
# the issue's Llama-3.1-8B command and one `dlperf llm --concurrency` call,
# a ResNet-18 inference plan,
# and what asking `dlperf llm` once per serving call of the search would
# cost.  Never fails the build.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
BIN="$BUILD/dlperf"
[ -x "$BIN" ] || { echo "bench_plan: build first (make)"; exit 0; }
cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude bench/bench_plan.c "$BUILD/libdlperf.a" \
  $(pkg-config --libs libcjson sqlite3) -ldl -lm -lpthread -o "$BUILD/bench_plan" || exit 0
"$BUILD/bench_plan" "${1:-20}"

# whole process: best of 5 each (python3 for the clock)
python3 - "$BIN" <<'PY'
import json, subprocess, sys, time
b = sys.argv[1]
def best(cmd):
    t = []
    for _ in range(5):
        t0 = time.perf_counter(); subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t.append(time.perf_counter() - t0)
    return min(t)
plan = [b, "plan", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--prompt", "1024", "--gen", "256",
        "--ttft", "500", "--tpot", "40"]
llm = [b, "llm", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--device", "h100-sxm", "--dtype", "bf16",
       "--concurrency", "64", "--prompt", "1024", "--gen", "256"]
d = json.loads(subprocess.run(plan + ["--json"], capture_output=True, text=True).stdout)
ps, ls = best(plan), best(llm)
n = d["evaluations"]
print("whole process (best of 5):")
print(f"  dlperf plan (the issue command): {ps:.3f} s for {d['considered']} configurations ({n} serving calls)")
print(f"  one dlperf llm --concurrency call: {ls:.3f} s; {n} of them one by one: {ls * n:.1f} s "
      f"({ls * n / ps:.0f}x the plan)")
rn = [b, "plan", "examples/resnet18.onnx", "--batch", "1..256", "--latency", "10"]
d = json.loads(subprocess.run(rn + ["--json"], capture_output=True, text=True).stdout)
print(f"  dlperf plan examples/resnet18.onnx --latency 10: {best(rn):.3f} s for {d['considered']} configurations "
      f"({d['evaluations']} predictions)")
PY
exit 0
