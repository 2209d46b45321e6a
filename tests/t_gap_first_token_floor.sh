#!/usr/bin/env bash
# tools/inferencemax/gap_first_token_floor.py (docs/llm.md, h234) on dump rows
# written by hand (TensorRT-LLM, gap-analysis, h100_sxm, aggregated):
#   X1, X2: TP 4, 512-token prompts, 5 clients, G 101 and 201
#     x = (C - 1) / (G - 1) = 4 / 100 = 0.04 and 4 / 200 = 0.02
#     measured TPOT 10 + 20 x: 10.8, 10.4 -> m = 0.4 / 0.02 = 20.0 ms
#     library TPOT 10 + 50 x: 12.0, 11.0 -> m = 1.0 / 0.02 = 50.0 ms
#     TTFT measured 170, 170, library 120, 130 -> excess (50 + 40) / 2 = 45.0
#     ride = 170 - req 40 - 1.5 x decode 10 = 115 ms, prefill 30.0 (2 rows)
#   Y: TP 8, 1,024-token prompts, 5 clients, G 101 (one output length: no
#     slope); ride = 171 - 40 - 1.5 x 8 = 119 ms
#   Z: TP 4, 256-token prompts, 5 clients, G 101, TTFT 200 > 1.1 x X1's 170:
#     the one neighbouring prompt pair, flagged (1 of 1)
#   ignored: a prefill worker (phase 1) and an InferenceMAX row, which would
#     bend X's slope and add pairs if read.
. "$(dirname "$0")/bench_fixture.sh"
{
  echo 'set,backend,model,system,phase,src_name,gpus,isl,osl,conc,y_0,a_0,y_1,a_1,req_ms,decode_step_ms,prefill_ms'
  echo 'silicon,trtllm,m/X,h100_sxm,0,gap-analysis dumps,4,512,101,5,170,120,10.8,12.0,40,10,30'
  echo 'silicon,trtllm,m/X,h100_sxm,0,gap-analysis dumps,4,512,201,5,170,130,10.4,11.0,40,10,30'
  echo 'silicon,trtllm,m/X,h100_sxm,0,gap-analysis dumps,8,1024,101,5,171,150,9.0,9.5,40,8,45'
  echo 'silicon,trtllm,m/X,h100_sxm,0,gap-analysis dumps,4,256,101,5,200,110,10.5,11.5,40,10,20'
  echo 'silicon,trtllm,m/X,h100_sxm,1,gap-analysis dumps,4,512,401,5,900,120,99,12.0,40,10,30'
  echo 'silicon,trtllm,m/X,h100_sxm,0,InferenceMAX-style dumps,4,1024,101,5,50,120,30,12.0,40,10,30'
} >"$tmp/rows.csv"
out=$(python3 tools/inferencemax/gap_first_token_floor.py "$tmp/rows.csv" 2>&1)
check "X: m measured 20.0, library 50.0, TTFT excess 45.0" \
  grep -q 'prompt step trtllm X TP 4 prompt 512 C 5: m measured 20.0 ms, library 50.0 ms; TTFT excess 45.0 ms' <<<"$out"
check "one group in the summary, none above the library" \
  grep -q "prompt step summary trtllm X: 1 groups, median m measured 20.0 ms, library 50.0 ms, groups with m above the library's 0; median TTFT excess 45.0 ms" <<<"$out"
check "X's floor: ride 115 ms over 2 rows" \
  grep -q 'floor trtllm X C 5 TP 4 prompt 512: TTFT 170 ms, ride 115 ms, library prefill 30.0 ms (2 rows)' <<<"$out"
check "Y's floor: ride 119 ms" \
  grep -q 'floor trtllm X C 5 TP 8 prompt 1024: TTFT 171 ms, ride 119 ms, library prefill 45.0 ms (1 rows)' <<<"$out"
check "Z: the shorter prompt slower, 1 of 1 pairs" \
  bash -c 'grep -q "shorter prompt slower trtllm X TP 4 C 5 G 101: prompt 256 200 ms > prompt 512 170 ms" <<<"$1" &&
           grep -q "shorter prompt slower: 1 of 1 neighbouring prompt pairs" <<<"$1"' _ "$out"
check "Y has one output length: no slope" bash -c '! grep -q "prompt step trtllm X TP 8" <<<"$1"' _ "$out"
