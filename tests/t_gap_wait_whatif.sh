#!/usr/bin/env bash
# tools/inferencemax/gap_wait_whatif.py (docs/llm.md, h221) on two dump rows
# written by hand:
#   A: aggregated TensorRT-LLM gap-analysis row, 8 clients, decode step 10 ms,
#      mean step (TPOT) 15, prefill 20, steady TTFT 35; measured 100, predicted
#      91.4 (8.60 %).
#      lb: f = (15 - 10) / 20 = 0.25 of the steps carry a prompt (30 ms long);
#          E[t] = 0.25 x 30 + 0.75 x 10 = 15, E[t^2] = 0.25 x 900 + 0.75 x 100
#          = 300; wait 300 / 30 + 15 = 25 against 0.5 x 10 + 10 = 15: +10 ms,
#          x (1 - 0.14) = +8.6 -> 100.0 (0.00 %)
#      mix3: the prompt's step 35 - 1.5 x 10 = 20; 3 x 20 - 35 = +25 ms,
#          x 0.86 = +21.5 -> 112.9 (12.90 %)
#   B: a prefill worker (phase 1), measured 100, predicted 110: neither moves.
# silicon: (8.60 + 10) / 2 = 9.30 % -> lb 5.00 %, mix3 11.45 %.
. "$(dirname "$0")/bench_fixture.sh"
{
  echo 'set,backend,family,phase,conc,lockstep,spec_k,decode_step_ms,a_1,prefill_ms,ttft_steady_ms,src_name,y_0,a_0'
  echo 'silicon,trtllm,qwen,0,8,0,0,10,15,20,35,gap-analysis dumps,100,91.4'
  echo 'silicon,trtllm,qwen,1,8,0,0,10,15,20,35,InferenceMAX-style dumps,100,110'
} >"$tmp/rows.csv"
lb=$(python3 tools/inferencemax/gap_wait_whatif.py "$tmp/rows.csv" lb 2>&1)
m3=$(python3 tools/inferencemax/gap_wait_whatif.py "$tmp/rows.csv" mix3 gap 2>&1)
check "lb: silicon 9.30 -> 5.00 %" grep -q 'silicon  *2 rows: TTFT 9.30 -> 5.00 %' <<<"$lb"
check "lb: the aggregated row 8.60 -> 0.00 %" grep -q 'trtllm gap-analysis dumps  *1 rows: TTFT 8.60 -> 0.00 %' <<<"$lb"
check "mix3 on the gap rows: 8.60 -> 12.90 %" grep -q 'trtllm gap-analysis dumps  *1 rows: TTFT 8.60 -> 12.90 %' <<<"$m3"
check "mix3: silicon 9.30 -> 11.45 %" grep -q 'silicon  *2 rows: TTFT 9.30 -> 11.45 %' <<<"$m3"
