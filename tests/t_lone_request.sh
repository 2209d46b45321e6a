#!/usr/bin/env bash
# tools/inferencemax/lone_request.py (docs/llm.md, h232) on rows written by
# hand.  Part 1 keeps the aggregated TensorRT-LLM DeepSeek rows at <= 16
# clients without attention DP and not from the gap-analysis dumps:
#   H200 fp8 1k / 1k, 4 clients: 300 - 150 = 150 ms, 150 / 15 = 10 TPOTs
#   H200 fp8 1k / 1k, 8 clients: 320 - 200 = 120 ms, 120 / 20 = 6 TPOTs
#   -> 2 rows, median +135.0 ms, +8.0 TPOTs; left out: 64 clients, attention
#   DP 8, a gap-analysis row, a vLLM row.
# Part 2, the prefill workers (phase 1), H200 fp8 1k:
#   |360 - 600| / 600 = 0.40 (ratio 0.60), |550 - 500| / 500 = 0.10 (1.10)
#   -> MAPE 25.0 %, median 0.85.
. "$(dirname "$0")/bench_fixture.sh"
{
  echo 'system,backend,family,src_name,quant,isl,osl,conc,dp,phase,y_0,a_0,y_1'
  echo 'h200_sxm,trtllm,deepseek,InferenceMAX-style dumps,fp8,1024,1024,4,1,0,300,150,15'
  echo 'h200_sxm,trtllm,deepseek,db-dump,fp8,1024,1024,8,1,0,320,200,20'
  echo 'h200_sxm,trtllm,deepseek,db-dump,fp8,1024,1024,64,1,0,900,100,30'
  echo 'h200_sxm,trtllm,deepseek,db-dump,fp8,1024,1024,4,8,0,900,100,30'
  echo 'h200_sxm,trtllm,deepseek,gap-analysis dumps,fp8,1024,1024,4,1,0,900,100,30'
  echo 'h200_sxm,vllm,deepseek,db-dump,fp8,1024,1024,4,1,0,900,100,30'
  echo 'h200_sxm,trtllm,deepseek,InferenceMAX-style dumps,fp8,1024,1024,36,8,1,600,360,nan'
  echo 'h200_sxm,trtllm,deepseek,db-dump,fp8,1024,1024,72,8,1,500,550,nan'
} >"$tmp/rows.csv"
out=$(python3 tools/inferencemax/lone_request.py "$tmp/rows.csv" 2>&1)
check "part 1: two rows, +135.0 ms, +8.0 TPOTs" grep -q 'h200_sxm  fp8     1024 / 1024  rows   2  median  +135.0 ms    +8.0 TPOTs' <<<"$out"
check "one group each in parts 1 and 2" test "$(grep -c 'rows' <<<"$out")" = 2
check "part 2: MAPE 25.0 %, median 0.85" grep -q 'h200_sxm  fp8     1024  rows   2  MAPE  25.0 %  median 0.85' <<<"$out"
if [ -x "$BUILD/dlperf" ]; then
  out3=$(python3 tools/inferencemax/lone_request.py "$tmp/rows.csv" --cli "$BUILD/dlperf" 2>&1)
  check "part 3: the twelve configurations of TensorRT-LLM #5929 run" grep -q 'MAPE over the 12:' <<<"$out3"
fi
