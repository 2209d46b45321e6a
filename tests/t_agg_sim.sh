#!/usr/bin/env bash
# bench_serving --agg-sim (docs/llm.md, "The harness played ... (issue 22, h203)";
# bench/agg_sim.h): aggregated TensorRT-LLM rows of aiconfigurator's harness
# (equal lengths) played step by step, on silicon rows written here: Llama-3.1-8B
# bf16 on one H100, 1,024-token prompts, 128 outputs, the generator's budget
# max_num_tokens = C + 1,024 + 1,500.
#   c1: one client.  Each request reaches an idle executor and runs alone: TTFT =
#       the front end + one prompt's step, the rows' req_ms + prefill_ms;
#   c2: two clients.  Both reach the idle executor together and the budget (2 +
#       1,024 + 1,500) holds both prompts: one step of 2,048 prompt tokens; they
#       decode together, end together and come back together, so every request's
#       TTFT is the front end + that step, which is also the library's first-wave
#       burst at two clients (ttft_burst_ms: one step of both prompts).
# Without the switch the rows carry no agg_sim column and the switch moves only
# the played rows' a_0 (lib_ttft_ms is the answer without it).
. "$(dirname "$0")/bench_fixture.sh"
build_bench_serving
silicon_fixture
row() { # id clients
  echo "$1,source_file=aic-auto-gap-analysis/data/h100_sxm/trtllm/1.0.0rc3/x.csv,trtllm,1.0.0rc3,meta-llama/Llama-3.1-8B-Instruct,h100_sxm,bf16,agg,1024,128,bf16,bf16,$2,1,1,1,1,1,,,,,,,,,,,,,,,100,10"
}
{ echo "$h"; row c1 1; row c2 2; } >"$S/silicon_sample.csv"
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --rows "$tmp/off.csv" >/dev/null 2>&1
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --agg-sim --rows "$tmp/on.csv" >/dev/null 2>&1
col() { # file, row (1 = first data row), column name
  awk -F, -v r="$2" -v n="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i } NR == r + 1 { print $c }' "$1"
}
check "without the switch no agg_sim column" bash -c "! head -1 '$tmp/off.csv' | grep -q agg_sim"
check "both rows played" [ "$(col "$tmp/on.csv" 1 agg_sim)$(col "$tmp/on.csv" 2 agg_sim)" = 11 ]
t1=$(col "$tmp/on.csv" 1 a_0) q1=$(col "$tmp/on.csv" 1 req_ms) p1=$(col "$tmp/on.csv" 1 prefill_ms)
check "c1: TTFT $t1 = front end $q1 + one prompt's step $p1" \
  awk -v t="$t1" -v q="$q1" -v p="$p1" 'BEGIN { w = q + p; exit !(t > 0 && (t - w) ^ 2 <= (1e-4 * w) ^ 2) }'
t2=$(col "$tmp/on.csv" 2 a_0) q2=$(col "$tmp/on.csv" 2 req_ms) b2=$(col "$tmp/on.csv" 2 ttft_burst_ms)
check "c2: TTFT $t2 = front end $q2 + the two prompts' step $b2" \
  awk -v t="$t2" -v q="$q2" -v b="$b2" 'BEGIN { w = q + b; exit !(t > 0 && (t - w) ^ 2 <= (1e-4 * w) ^ 2) }'
for r in 1 2; do
  check "row $r: lib_ttft_ms is the answer without the switch, TPOT unmoved" \
    [ "$(col "$tmp/on.csv" $r lib_ttft_ms) $(col "$tmp/on.csv" $r a_1)" = "$(col "$tmp/off.csv" $r a_0) $(col "$tmp/off.csv" $r a_1)" ]
done
# h234's what-if DLP_AGG_SIM_HOST_LAYER_MS=h: a step with prompt tokens lasts
# at least h ms x layers (the host issuing an eager context step ahead of the
# GPU).  At 5 ms x Llama-3.1-8B's 32 layers = 160 ms, longer than either
# step above (one prompt ~30 ms, two ~60 ms): c1's and c2's TTFT = the front
# end + 160 ms; the decode-only steps, and so nothing else, unchanged.
DLP_AGG_SIM_HOST_LAYER_MS=5 "$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --agg-sim \
  --rows "$tmp/host.csv" >/dev/null 2>&1
for r in 1 2; do
  th=$(col "$tmp/host.csv" $r a_0) qh=$(col "$tmp/host.csv" $r req_ms)
  check "row $r, host floor 5 ms x 32 layers: TTFT $th = front end $qh + 160 ms" \
    awk -v t="$th" -v q="$qh" 'BEGIN { w = q + 160; exit !(t > 0 && (t - w) ^ 2 <= (1e-4 * w) ^ 2) }'
done
