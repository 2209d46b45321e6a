#!/usr/bin/env bash
# tools/inferencemax/moe_tp_growth.py (docs/llm.md, h243) on rows written by
# hand (TTFT y_0 / a_0, TPOT y_1 / a_1, ms):
#   TensorRT-LLM DeepSeek-R1 B200 fp8, 1k, 4 clients: 4 GPUs EP 1 excess
#   200 - 180 = +20 (TPOT +1.00), 8 GPUs EP 1 200 - 140 = +60 (+0.50), 8 GPUs
#   EP 8 300 - 180 = +120 -> growth (60 - 20) / log2(8 / 4) = +40.0 ms and
#   (0.5 - 1) / 1 = -0.50 ms a doubling; EP step at 8 GPUs 120 - 60 = +60.0.
#   TensorRT-LLM Llama-3.1-70B H200 fp8: 1 GPU +10 (+1.00), 8 GPUs -20
#   (-0.50) -> (-20 - 10) / 3 = -10.0 and (-0.5 - 1) / 3 = -0.50; dense.
#   Qwen3-235B-A22B (MoE by its name) H100: 4 GPUs EP 4 +10, 8 GPUs EP 8 +30
#   -> the EP = GPUs reading, +20.0.
#   Summary: TensorRT-LLM MoE median(40, 20) = +30.0 over 2 groups, EP step
#   +60.0 over 1; dense -10.0 over 1.  Left out: 16 clients, attention DP 8,
#   a gap-analysis row (kept with --gap), a prefill worker.
#   --m: Llama 8 GPUs 16 clients, outputs 1,024 and 8,192: TPOT 10 + m 15 /
#   1,023 and 10 + m 15 / 8,191 with m 50 measured and 20 on the library:
#   m +50.0 / +20.0, excess +30.0.
. "$(dirname "$0")/bench_fixture.sh"
{
  echo 'backend,model,family,system,quant,isl,osl,conc,gpus,ep,dp,phase,src_name,y_0,a_0,y_1,a_1'
  echo 'trtllm,deepseek-ai/DeepSeek-R1,deepseek,b200_sxm,fp8,1024,1024,4,4,1,1,0,db-dump,200,180,10,9'
  echo 'trtllm,deepseek-ai/DeepSeek-R1,deepseek,b200_sxm,fp8,1024,1024,4,8,1,1,0,db-dump,200,140,8,7.5'
  echo 'trtllm,deepseek-ai/DeepSeek-R1,deepseek,b200_sxm,fp8,1024,1024,4,8,8,1,0,db-dump,300,180,9,8'
  echo 'trtllm,meta-llama/Llama-3.1-70B,llama,h200_sxm,fp8,1024,1024,4,1,1,1,0,db-dump,110,100,20,19'
  echo 'trtllm,meta-llama/Llama-3.1-70B,llama,h200_sxm,fp8,1024,1024,4,8,1,1,0,db-dump,80,100,6,6.5'
  echo 'trtllm,Qwen/Qwen3-235B-A22B-FP8,qwen,h100_sxm,fp8,1024,1024,4,4,4,1,0,db-dump,110,100,9,9'
  echo 'trtllm,Qwen/Qwen3-235B-A22B-FP8,qwen,h100_sxm,fp8,1024,1024,4,8,8,1,0,db-dump,130,100,9,9'
  echo 'trtllm,deepseek-ai/DeepSeek-R1,deepseek,b200_sxm,fp8,1024,1024,64,4,1,1,0,db-dump,900,100,30,20'
  echo 'trtllm,deepseek-ai/DeepSeek-R1,deepseek,b200_sxm,fp8,1024,1024,4,8,8,8,0,db-dump,900,100,30,20'
  echo 'trtllm,deepseek-ai/DeepSeek-R1,deepseek,b200_sxm,fp8,1024,1024,4,4,1,1,0,gap-analysis dumps,900,100,30,20'
  echo 'trtllm,deepseek-ai/DeepSeek-R1,deepseek,b200_sxm,fp8,1024,1024,4,4,1,1,1,db-dump,900,100,nan,nan'
  echo 'trtllm,meta-llama/Llama-3.1-70B,llama,h200_sxm,fp8,1024,1024,16,8,1,1,0,db-dump,500,100,10.7331378,10.2932551'
  echo 'trtllm,meta-llama/Llama-3.1-70B,llama,h200_sxm,fp8,1024,8192,16,8,1,1,0,db-dump,500,100,10.0915639,10.0366256'
} >"$tmp/rows.csv"
out=$(python3 tools/inferencemax/moe_tp_growth.py "$tmp/rows.csv" --m 2>&1)
check "DeepSeek: +40.0 ms and -0.50 ms a doubling, 4 -> 8" grep -q 'growth 4 -> 8 GPUs: TTFT +40.0 ms, TPOT -0.50 ms a doubling' <<<"$out"
check "DeepSeek: EP step +60.0 at 8 GPUs" grep -q 'EP step at 8 GPUs: TTFT +60.0 ms' <<<"$out"
check "Llama: -10.0 and -0.50 a doubling, 1 -> 8" grep -q 'growth 1 -> 8 GPUs: TTFT -10.0 ms, TPOT -0.50 ms a doubling' <<<"$out"
check "Qwen3-235B read as MoE, EP = GPUs, +20.0" grep -q 'growth 4 -> 8 GPUs: TTFT +20.0 ms' <<<"$out"
check "Qwen3-235B tagged MoE" grep -q 'Qwen3-235B-A22B-.*MoE' <<<"$out"
check "summary MoE +30.0 over 2, EP step +60.0 over 1" grep -q 'trtllm  MoE   growth +30.0 ms a doubling (2 groups)  EP step +60.0 ms (1 groups)' <<<"$out"
check "summary dense -10.0 over 1" grep -q 'trtllm  dense growth -10.0 ms a doubling (1 groups)' <<<"$out"
check "left-out rows: DeepSeek's 4-GPU EP 1 median stays +20.0" grep -q '4/ep1 +20.0 (+1.00)' <<<"$out"
check "m +50.0 / +20.0, excess +30.0" grep -q 'C16    m +50.0 / +20.0  (excess +30.0)' <<<"$out"
gap=$(python3 tools/inferencemax/moe_tp_growth.py "$tmp/rows.csv" --gap 2>&1)
check "--gap keeps the gap-analysis row: 4-GPU EP 1 median (20 + 800) / 2" grep -q '4/ep1 +410.0' <<<"$gap"
# --sample: three silicon_sample rows of one model; the 4-client run is kept
# with its date (2026-01-14) and image (1.1.0rc2.post2), the 16-client and the
# attention-DP runs are left out.
{
  echo 'id,silicon_data_source,backend,backend_version,model_path,system,precision,isl,osl,batch_size,tp_size,attention_dp_size,moe_ep_size,silicon_ttft_ms,silicon_tpot_ms'
  echo 'a,source_file=x.csv; model=DeepSeek-R1; silicon_concurrency=4; measured=2026-01-14T22:26:21Z; wip=False; image=nvcr.io#nvidia/tensorrt-llm/release:1.1.0rc2.post2,trtllm,1.1.0rc2.post2,deepseek-ai/DeepSeek-R1,h200_sxm,fp8,1024,1024,4,8,1,8,494.0,8.58'
  echo 'b,source_file=x.csv; model=DeepSeek-R1; silicon_concurrency=16; measured=2026-01-14T22:26:21Z,trtllm,,deepseek-ai/DeepSeek-R1,h200_sxm,fp8,1024,1024,16,8,1,8,918.0,14.19'
  echo 'c,source_file=x.csv; model=DeepSeek-R1; silicon_concurrency=4; measured=2026-01-14T22:26:21Z,trtllm,,deepseek-ai/DeepSeek-R1,h200_sxm,fp8,1024,1024,4,8,8,8,600.0,9.00'
} >"$tmp/sample.csv"
smp=$(python3 tools/inferencemax/moe_tp_growth.py --sample "$tmp/sample.csv" DeepSeek 2>&1)
check "--sample: the 4-client run with its date and image" grep -q 'h200_sxm  fp8     1024 / 1024  tp 8   ep 8  c4  2026-01-14 1.1.0rc2.post2     494.0   8.58' <<<"$smp"
check "--sample: one run kept" test "$(grep -c '^  h200' <<<"$smp")" = 1
