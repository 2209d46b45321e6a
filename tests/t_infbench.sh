#!/usr/bin/env bash
# bench_serving infbench (LLM-Inference-Bench as a serving slice, issue 22) on
# a fixture whose rows are chosen by hand, so that coverage, refusals, the
# unit conversions and the MAPE can be checked against arithmetic done here.
#
# All_results.csv, 7 rows:
#   1 A100 vLLM Llama-2-7b, L 128, B 1, 1.5 s        answered (e2e 1500 ms)
#   2 H100 TensorRT-LLM Llama-2-7b, L 2048, 0.05 s    answered, faster than its
#     floor (2,047 steps x 13.5 GB / 3.35 TB/s ~ 8 s): not scored
#   3 A100 llama.cpp                                  engine not modelled
#   4 Intel PVC vLLM                                  setup unknown (stack or card)
#   5 Gaudi2 Deepspeed                                engine not modelled
#   6 MI250 vLLM, "1" GPU, B 16, 3.0 s                answered on 2 GCDs
#   7 A100 vLLM fixture/not-in-catalogue-7B           model not in the catalogue
#   8 GH200 vLLM llama-7b (2,048 positions), L 2048, B 4, 0.2 s: vLLM stops a
#     sequence once past max_model_len, so this ran a prefill and one token:
#     answered as a 2,047-token prompt + 1 (the library's rule is one token
#     stricter), tokens/s 4 x (2048 + 1) / 0.2 = 40980
#   9 Intel Max 1550 vLLM Llama-2-7b, "1", L 128, B 1, 2.0 s: answered on one
#     max1550-stack (the count is stacks: vLLM v0.5.2 on XPU in FLAT mode,
#     TP 1 = one device) with vllm-v0, whose offline CPU time per step is
#     2.26 + 0.0658 x running ms (h128) = 2.3258 ms at one sequence (the
#     modern engine's is 0.35 + 0.010 x running), eager (vLLM 0.5's
#     XPUExecutor sets enforce_eager: no graphs on XPU, h184): plus 32 layers
#     x 0.210 ms = 6.72 ms, 9.0458 ms of host time a step
#   -> 9 rows, 7 with a modelled engine (1 2 4 6 7 8 9), 5 answered: 55.6 % / 71.4 %
# Fig_22, 3 lines: A100 vLLM TTFT 1.0 s, end 14.299 s (ITL (14.299 - 1.0) s /
#   1,023 = 13.0 ms, above its floor: 16.06 GB / 1,555 GB/s = 10.3 ms); SN40L sambaflow (refused twice); GH200 TensorRT-LLM TTFT
#   0.35 s without end_latency (a TTFT row only)
#   -> TTFT 3 rows, 2 modelled, 2 answered; ITL 2 rows, 1 modelled, 1 answered
# power_results.csv: A100 TensorRT-LLM B 16, 20 s, avg_power 300000 (NVML mW)
#   -> 300 W, energy per request 300 W x 20 s / 16 = 375 J; one DeepSpeed-MII
#   row refused
# all: 9 + 3 + 2 + 2 = 16 rows, 7 + 2 + 1 + 1 = 11 modelled, 5 + 2 + 1 + 1 = 9
# answered: 56.25 % (printf rounds this exact half to even: 56.2) / 81.8 %
. "$(dirname "$0")/bench_fixture.sh"
build_bench_serving
P="$tmp/data/LLM-Inference-Bench/Plots"
mkdir -p "$P/Fig_22" "$P/Fig_16_a_b"
cat >"$P/All_results.csv" <<'EOF'
Hardware,Num of Hardware,Framework,Model,Input Output Length,Batch Size,Latency,Throughput
Nvidia A100 GPU,1,vLLM,meta-llama/Llama-2-7b-hf,128,1,1.5,170.67
Nvidia H100 GPU,1,TensorRT-LLM,meta-llama/Llama-2-7b-hf,2048,1,0.05,81920
Nvidia A100 GPU,1,llama.cpp,meta-llama/Llama-2-7b-hf,128,1,2.0,128
Intel PVC GPU,1,vLLM,meta-llama/Llama-2-7b-hf,128,1,2.0,128
Habana Gaudi2,1,Deepspeed,meta-llama/Llama-2-7b-hf,128,1,2.0,128

AMD MI250 GPU,1,vLLM,meta-llama/Llama-2-7b-hf,128,16,3.0,1365.33
Nvidia A100 GPU,1,vLLM,fixture/not-in-catalogue-7B,128,1,2.0,128
Nvidia GH200 GPU,1,vLLM,huggyllama/llama-7b,2048,4,0.2,81920
Intel Max 1550,1,vLLM,meta-llama/Llama-2-7b-hf,128,1,2.0,128
EOF
printf 'Hardware,Num of Hardware,Framework,Model,Input Length,Output Length,Batch Size,TTFT Latency,end_latency \r\n\r\n' \
  >"$P/Fig_22/all_results_TTFT_ITL.csv"
printf '%s\r\n' 'Nvidia A100 GPU,1,vLLM,meta-llama/Meta-Llama-3-8B,1024,1,16,1.0,14.299' \
  'SambaNova SN40L,8,sambaflow,meta-llama/Meta-Llama-3-8B,1024,1,16,0.42,3.54' \
  'Nvidia GH200 GPU,1,TensorRT-LLM,meta-llama/Meta-Llama-3-8B,1024,1,16,0.35' >>"$P/Fig_22/all_results_TTFT_ITL.csv"
cat >"$P/Fig_16_a_b/power_results.csv" <<'EOF'
Hardware,Num of Hardware,Framework,Model,Input Output Length,Batch Size,Latency,Throughput,avg_power
Nvidia A100 GPU,1,TensorRT-LLM,meta-llama/Llama-2-7b-hf,1024,16,20.0,1638.4,300000
Nvidia A100 GPU,1,Deepspeed-MII,meta-llama/Llama-2-7b-hf,1024,16,25.0,1310.72,330000
EOF
out=$("$tmp/bench_serving" "$tmp/data" infbench --analytic-only --rows "$tmp/rows.csv" 2>&1)
check "infbench: All_results coverage 9 / 7 / 5, 55.6 % / 71.4 %" \
  grep -q '^| All_results (e2e latency, tokens/s) | 9 | 7 | 5 | 55.6 % | 71.4 % |' <<<"$out"
check "infbench: TTFT coverage 3 / 2 / 2" grep -q '^| Fig_22 TTFT | 3 | 2 | 2 | 66.7 % | 100.0 % |' <<<"$out"
check "infbench: ITL coverage 2 / 1 / 1" grep -q '^| Fig_22 ITL | 2 | 1 | 1 | 50.0 % | 100.0 % |' <<<"$out"
check "infbench: power coverage 2 / 1 / 1" grep -q '^| Fig_16_a_b power, energy | 2 | 1 | 1 | 50.0 % | 100.0 % |' <<<"$out"
check "infbench: overall 16 / 11 / 9, 56.2 % / 81.8 %" grep -q '^| all | 16 | 11 | 9 | \*\*56.2 %\*\* | \*\*81.8 %\*\* |' <<<"$out"
check "infbench: refusals by reason" bash -c 'grep -q "^ *1  engine not modelled: llama.cpp" <<<"$1" &&
  grep -q "^ *1  engine not modelled: Deepspeed$" <<<"$1" && grep -q "^ *1  setup not in the repository, stack or card unknown: Intel PVC GPU" <<<"$1" &&
  grep -q "^ *1  model not in the catalogue: fixture/not-in-catalogue-7B" <<<"$1" && grep -q "^ *1  engine not modelled: sambaflow" <<<"$1" &&
  grep -q "^ *1  engine not modelled: Deepspeed-MII" <<<"$1"' _ "$out"
check "infbench: the row below its floor is counted, not scored" \
  grep -q '^All_results (e2e latency, tokens/s): 1 answered rows measured faster than their floor' <<<"$out"
# rows.csv: gpus is column 8; y_0 13, y_1 15, y_3 19, y_4 32, a_4 33, y_5 34, y_6 36
check "infbench: vLLM's length cap: 2048 + 2048 on 2,048 positions runs 2047 + 1, tokens/s 4 x 2049 / 0.2" \
  [ "$(awk -F, '$3 == "Nvidia GH200 GPU" && $4 == "vLLM" { print $5 "/" $6 "/" $32 "/" $34 }' "$tmp/rows.csv")" = "2047/1/200/40980" ]
check "infbench: an MI250 counts two GCDs" \
  [ "$(awk -F, '$3 == "AMD MI250 GPU" { print $8 }' "$tmp/rows.csv")" = 2 ]
# ovh_ms is column 22
check "infbench: an Intel Max 1550 counts one stack, on vllm-v0, eager (CPU 2.26 + 0.0658 + 32 x 0.210 ms at one sequence)" \
  awk -F, '$3 == "Intel Max 1550" { n++; ok = $8 == 1 && $22 > 9.04 && $22 < 9.05 } END { exit !(n == 1 && ok) }' "$tmp/rows.csv"
check "infbench: e2e 1.5 s -> 1500 ms, tokens/s as given" \
  [ "$(awk -F, '$3 == "Nvidia A100 GPU" && $5 == 128 { print $32 "/" $34 }' "$tmp/rows.csv")" = "1500/170.67" ]
check "infbench: TTFT 1.0 s -> 1000 ms, ITL (14.299 - 1.0) / 1023 s -> 13 ms" \
  [ "$(awk -F, '$3 == "Nvidia A100 GPU" && $5 == 1024 && $6 == 1 { a = $13 } $3 == "Nvidia A100 GPU" && $5 == 1024 && $6 == 1024 && $4 == "vLLM" { b = $15 } END { print a "/" b }' "$tmp/rows.csv")" = "1000/13" ]
check "infbench: 300000 mW -> 300 W, 300 W x 20 s / 16 = 375 J" \
  [ "$(awk -F, '$4 == "TensorRT-LLM" && $3 == "Nvidia A100 GPU" { print $36 "/" $19 }' "$tmp/rows.csv")" = "300/375" ]
# the e2e MAPE printed = mean |a - y| / y over the scored rows (1, 6, 8 and 9),
# from the predictions written to rows.csv
want=$(awk -F, '$32 != "nan" && $1 == "infbench" { e += ($33 - $32) / $32 * (($33 > $32) ? 1 : -1); n++ } END { printf "%d | %.1f %%", n, 100 * e / n }' "$tmp/rows.csv")
got=$(grep '^| e2e latency |' <<<"$out" | awk -F'|' '{ gsub(/^ +| +$/, "", $3); gsub(/^ +| +$/, "", $4); print $3 " | " $4 }')
check "infbench: e2e MAPE = mean |a - y| / y over the scored rows: want $want, got $got" [ "$want" = "$got" ]
# h195: the vLLM power harness (benchmark_power.py) sleeps 1 s inside the NVML
# window, so a vLLM power row is scored on (P T + idle x 1 s) / (T + 1 s): P
# the library's power (rows column 26), T its e2e (a_4, column 33, ms), idle
# A100-40GB's 55 W; energy (a_3, column 20) scaled alike.  A TensorRT-LLM row
# (its harness stops the probe at once) is scored on P itself.  E.g. P 220 W
# over 20 s: (220 x 20 + 55) / 21 = 212.14 W.
cp -r "$tmp/data" "$tmp/data2"
cat >"$tmp/data2/LLM-Inference-Bench/Plots/Fig_16_a_b/power_results.csv" <<'EOF2'
Hardware,Num of Hardware,Framework,Model,Input Output Length,Batch Size,Latency,Throughput,avg_power
Nvidia A100 GPU,1,vLLM,meta-llama/Llama-2-7b-hf,1024,16,25.0,1310.72,290000
Nvidia A100 GPU,1,TensorRT-LLM,meta-llama/Llama-2-7b-hf,1024,16,20.0,1638.4,300000
EOF2
"$tmp/bench_serving" "$tmp/data2" infbench --analytic-only --rows "$tmp/rows2.csv" >/dev/null 2>&1
"$tmp/bench_serving" "$tmp/data2" infbench --analytic-only --no-probe-tail --rows "$tmp/rows3.csv" >/dev/null 2>&1
pw() { awk -F, -v fw="$2" '$36 != "nan" && $4 == fw { printf "%.6g %.6g %.6g %.6g", $26, $33, $37, $20 }' "$1"; }
check "infbench: a vLLM power row scored over run + 1 idle second: (P T + 55) / (T + 1), energy alike" \
  awk -v t="$(pw "$tmp/rows2.csv" vLLM)" -v b="$(pw "$tmp/rows3.csv" vLLM)" 'BEGIN {
    split(t, x, " "); split(b, y, " "); P = x[1]; T = x[2] / 1000; want = (P * T + 55) / (T + 1)
    exit !(P > 150 && T > 5 && (x[3] - want) ^ 2 < 1e-4 * want ^ 2 && (y[3] - P) ^ 2 < 1e-4 * P ^ 2 &&
           (x[4] / y[4] - want / P) ^ 2 < 1e-8 && x[3] < P) }'
check "infbench: a TensorRT-LLM power row is scored on the library's power" \
  awk -v t="$(pw "$tmp/rows2.csv" TensorRT-LLM)" -v b="$(pw "$tmp/rows3.csv" TensorRT-LLM)" 'BEGIN {
    split(t, x, " "); split(b, y, " "); exit !(x[1] > 150 && (x[3] - x[1]) ^ 2 < 1e-8 && x[3] == y[3] && x[4] == y[4]) }'
check "infbench: the idle-second formula by hand: (220 x 20 + 55) / 21 = 212.14" \
  awk 'BEGIN { v = (220 * 20 + 55) / 21; exit !(v > 212.13 && v < 212.15) }'
# h222: tools/infbench/energy_split.py, the energy ratio split into power x
# time.  Two power rows by hand (the columns it reads; a_4 the e2e in ms):
#   A: B 16, 1 GPU, measured 300 W and 300 x 20 s / 16 = 375 J; predicted
#      240 W (0.8) over 22 s (1.1): 240 x 22 / 16 = 330 J, 0.88 = 0.8 x 1.1
#   B: B 1, measured 400 W and 400 x 10 s = 4,000 J; predicted 440 W (1.1)
#      over 9 s (0.9): 3,960 J, 0.99
# energy MAPE (12 + 1) / 2 = 6.5 %, power alone (20 + 10) / 2 = 15.0 %, time
# alone (10 + 10) / 2 = 10.0 %; medians (the mean of the two middle values)
# energy 0.935, power 0.95, time 1.0.  An All_results row (no power) is left out.
{
  echo "set,model,system,backend,conc,gpus,y_3,a_3,a_4,y_6,a_6"
  echo "infbench,m/A,Nvidia A100 GPU,TensorRT-LLM,16,1,375,330,22000,300,240"
  echo "infbench,m/B,Nvidia H100 GPU,vLLM,1,1,4000,3960,9000,400,440"
  echo "infbench,m/C,Nvidia H100 GPU,vLLM,1,1,nan,nan,9000,nan,440"
} >"$tmp/split.csv"
got=$(python3 tools/infbench/energy_split.py "$tmp/split.csv" | grep '^| all |')
check "energy_split: 2 rows, energy 6.5 %, power alone 15.0 %, time alone 10.0 %: got '$got'" \
  [ "$got" = "| all | 2 | 6.5 % | 15.0 % | 10.0 % | 0.94 | 0.95 | 1.00 |" ]
