#!/usr/bin/env bash
# The decode-slot wait in bench_serving's disaggregated prefill rows (docs/llm.md,
# "The decode-slot wait of disaggregated runs (h140)"), on silicon rows written
# here (the closed form, --slot-wait-closed; the default's round-robin run
# with sa-bench's output lengths, h164, is checked at the end): DeepSeek-R1 fp4 on GB200, TensorRT-LLM, 1,024 / 1,024, one prefill
# worker (4 GPUs, ep 4) and two decode workers of 8 GPUs (TP 8, ep 8) with a
# decode batch of 4: S = 2 x 4 x 1 = 8 slots.
#   w12: 12 clients, counts in the data: C / S = 1.5, so by hand the client's
#        TTFT is max(prefill TTFT, 0.5 x 1,024 x the decode row's TPOT) = 512 x
#        TPOT (the prefill of a 1k prompt is ~0.1 s, 512 TPOTs ~10 s);
#   w8:  8 clients: C = S, no wait: the prefill worker's own TTFT, far under
#        512 TPOTs (checked below 0.1 x 1,024 TPOTs);
#   u12: 12 clients, the counts blank and no recipe table: not composed.
. "$(dirname "$0")/bench_fixture.sh"
build_bench_serving
silicon_fixture
run() { # id conc pw dbs dw
  echo "$1,source_file=x.csv; model=DeepSeek-R1; silicon_concurrency=$2,trtllm,,deepseek-ai/DeepSeek-R1,gb200,fp4,disagg,1024,1024,nvfp4,nvfp4,,,,,,,,$3,4,1,1,1,4,$4,$5,8,1,1,1,8,500,20"
}
{ echo "$h"; run w12 12 1 4 2; run w8 8 1 4 2; run u12 12 "" "" ""; } >"$S/silicon_sample.csv"
out=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --slot-wait-closed --no-gen-poll --recipes none --rows "$tmp/rows.csv" 2>&1)
# --rows: 7 conc, 11 phase (1 prefill, 2 decode), 14 a_0 (TTFT), 16 a_1 (TPOT), 28 workers_unknown; rows in
# file order, each run's prefill row then its decode row
n=$(awk -F, 'NR > 1' "$tmp/rows.csv" | wc -l)
check "six rows (three runs x two workers): got $n" [ "$n" = 6 ]
read -r t12 d12 t8 d8 tu <<<"$(awk -F, 'NR > 1 { a[NR] = $11 == 1 ? $14 : $16 } END { print a[2], a[3], a[4], a[5], a[6] }' "$tmp/rows.csv")"
check "w12: TTFT $t12 = 0.5 x 1024 x TPOT $d12 (to the 6 digits written)" \
  awk -v t="$t12" -v d="$d12" 'BEGIN { w = 512 * d; exit !(t > 0 && (t - w) ^ 2 <= (2e-5 * w) ^ 2) }'
check "w8: TTFT $t8 is the prefill worker's own, under 0.1 x 1024 x TPOT $d8" \
  awk -v t="$t8" -v d="$d8" 'BEGIN { exit !(t > 0 && t < 102.4 * d) }'
check "u12 (unknown counts): TTFT $tu not composed, under 0.1 x 1024 x TPOT $d12" \
  awk -v t="$tu" -v d="$d12" 'BEGIN { exit !(t > 0 && t < 102.4 * d) }'
check "the side-by-side block names the data rows" grep -q "counts in the data, clients > decode slots *1 rows" <<<"$out"

# h175: TensorRT-LLM's generation loop before the first token (disagg_wait.h
# trtllm_gen_first_token_ms).  w8 again with it on: 8 clients over 2 decode
# workers, so a request finds its worker busy with probability 1 - (1/2)^7 =
# 0.9921875, and a busy worker adds half a step plus one step (the transfer, a
# 1k prompt's MLA latent over NVLink twice for the 4-rank context side and the
# 8-rank TP decode side, is well under a step): 0.9921875 x 1.5 = 1.48828 decode
# steps, the decode row's TPOT (no MTP); the transfer's own share within 0.5 ms.
# All three fixture runs are TensorRT-LLM prefill workers: the bench counts 3.
out=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --slot-wait-closed --recipes none --rows "$tmp/rows2.csv" 2>&1)
read -r p8 <<<"$(awk -F, 'NR == 4 { print $14 }' "$tmp/rows2.csv")"
check "w8 with the generation loop: TTFT $p8 = $t8 + 1.48828 x TPOT $d8 (within 0.5 ms)" \
  awk -v p="$p8" -v t="$t8" -v d="$d8" 'BEGIN { w = t + 0.9921875 * 1.5 * d; exit !(p > 0 && (p - w) ^ 2 <= 0.25) }'
check "the bench counts the rows given the loop" grep -q "generation loop.s poll before the first token.*: 3," <<<"$out"

# h143: counts in the data, the decode cap from the recipe entry the run is.  Two db-dump
# runs of DeepSeek (the db-dump's model_path DeepSeek-V3) on GB200 fp4, TensorRT-LLM, 1,024 /
# 1,024, 12 clients, measured 2026-02-05, one prefill worker of 4 GPUs (attention DP 4, ep 4):
#   d12:  two decode workers of TP 8 / ep 8, decode_batch_size 6 (= C / W: the data's S = 12,
#         no wait).  The fixture recipe of that date (ctx1_gen2_tep8_batch4) agrees on every
#         field: S = 2 x 4 x 1 = 8, C / S = 1.5, so by hand TTFT = 0.5 x 1,024 x TPOT = 512 TPOT;
#   d12x: three decode workers (decode_batch_size 4): no entry has them, so the data's
#         reading stays (S = 12 = C: the prefill worker's own TTFT, under 0.1 x 1,024 TPOTs).
dd() { # id dbs dw
  echo "$1,db-dump/2026-04-27; config_id=1; silicon_concurrency=12; measured=2026-02-05T00:00:00.000Z,trtllm,,deepseek-ai/DeepSeek-V3,gb200,fp4,disagg,1024,1024,nvfp4,nvfp4,,,,,,,1,1,1,1,4,1,4,$2,$3,8,1,1,1,8,500,20"
}
{ echo "$h"; dd d12 6 2; dd d12x 4 3; } >"$S/silicon_sample.csv"
{ head -1 tools/inferencemax/recipes.csv
  echo "2026-02-05,x,2026-02-05,dsr1-fp4-gb200-dynamo-trt,dsr1,m,gb200,fp4,dynamo-trt,trtllm,1024,1024,12,none,0,4,1,4,4,1,2,8,8,0,recipes/x/ctx1_gen2_tep8_batch4_eplb0_mtp0_12.yaml"
} >"$tmp/recipes.csv"
out=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --slot-wait-closed --no-gen-poll --recipes "$tmp/recipes.csv" --rows "$tmp/rows.csv" 2>&1)
read -r t12 d12 tx dx <<<"$(awk -F, 'NR > 1 { a[NR] = $11 == 1 ? $14 : $16 } END { print a[2], a[3], a[4], a[5] }' "$tmp/rows.csv")"
check "d12: TTFT $t12 = 0.5 x 1024 x TPOT $d12 with the recipe's cap of 8" \
  awk -v t="$t12" -v d="$d12" 'BEGIN { w = 512 * d; exit !(t > 0 && (t - w) ^ 2 <= (2e-5 * w) ^ 2) }'
check "d12x (no entry with three decode workers): TTFT $tx the worker's own, under 0.1 x 1024 x TPOT $dx" \
  awk -v t="$tx" -v d="$dx" 'BEGIN { exit !(t > 0 && t < 102.4 * d) }'
check "the match counts: one entry 1" grep -Eq "^  exactly one entry +1$" <<<"$out"
check "the match counts: no entry with the worker counts 1" grep -Eq "^  no entry with the run's worker counts +1$" <<<"$out"
check "the before/after line: one run given a cap, C > S" grep -q "the recipe gives a cap, clients > slots *1 rows" <<<"$out"

# h144: SGLang's recipe names give no batch; the decode cap is the yaml's max-running-requests
# (tools/inferencemax/decode_caps.csv, here a fixture table), dp x (max_running // dp) a worker.
# Three data-count SGLang runs of DeepSeek (db-dump model_path DeepSeek-V3) on GB200 fp4,
# 1,024 / 1,024, measured 2026-02-05, one prefill worker of 4 GPUs (attention DP 4, ep 4), two
# decode workers, each matched to one fixture entry by its clients:
#   s12: 12 clients, decode TP 8 / ep 8, decode_batch_size 6 (= C / W, the data's S = 12);
#        the entry's max-running-requests 4, dp 1: S = 2 x 4 = 8, C / S = 1.5, so by hand
#        TTFT = 0.5 x 1,024 x TPOT = 512 TPOT;
#   s24: 24 clients, decode attention DP 8 / ep 8 (decode_batch_size 12 = C / W); the entry's
#        max-running-requests 12 over dp 8: 12 // 8 = 1 a rank, 8 a worker, S = 16, C / S =
#        1.5: 512 TPOT again (12 a worker without the per-rank floor: S = 24 = C, no wait);
#   s16: 16 clients (decode_batch_size 8), the entry passes frontend args (the router mode is
#        not known): no cap, the data's reading S = 16 = C, no wait (under 0.1 x 1,024 TPOTs).
sg() { # id dbs dtp ddp
  echo "$1,db-dump/2026-04-27; config_id=1; silicon_concurrency=$(( $2 * 2 )); measured=2026-02-05T00:00:00.000Z,sglang,,deepseek-ai/DeepSeek-V3,gb200,fp4,disagg,1024,1024,nvfp4,nvfp4,,,,,,,1,1,1,1,4,1,4,$2,2,$3,1,$4,1,8,500,20"
}
{ echo "$h"; sg s12 6 8 1; sg s24 12 1 8; sg s16 8 8 1; } >"$S/silicon_sample.csv"
{ head -1 tools/inferencemax/recipes.csv
  e="2026-02-05,x,2026-02-05,dsr1-fp4-gb200-dynamo-sglang,dsr1,m,gb200,fp4,dynamo-sglang,sglang,1024,1024"
  echo "$e,12,none,0,,1,4,4,1,2,8,8,0,recipes/x/a.yaml"
  echo "$e,24,none,0,,1,4,4,1,2,8,8,1,recipes/x/b.yaml"
  echo "$e,16,none,0,,1,4,4,1,2,8,8,0,recipes/x/c.yaml"
} >"$tmp/recipes.csv"
{ echo "recipe,decode_workers,max_running,decode_dp,frontend,frontend_args,srt_slurm_commit"
  echo "recipes/x/a.yaml,2,4,1,dynamo,0,x"
  echo "recipes/x/b.yaml,2,12,8,dynamo-default,0,x"
  echo "recipes/x/c.yaml,2,4,1,dynamo,1,x"
} >"$tmp/caps.csv"
out=$(DLP_DECODE_CAPS="$tmp/caps.csv" "$tmp/bench_serving" "$tmp/data" silicon --analytic-only --slot-wait-closed \
  --recipes "$tmp/recipes.csv" --rows "$tmp/rows.csv" 2>&1)
n=$(awk -F, 'NR > 1' "$tmp/rows.csv" | wc -l)
check "SGLang: six rows (three runs x two workers): got $n" [ "$n" = 6 ]
read -r t12 d12 t24 d24 t16 d16 <<<"$(awk -F, 'NR > 1 { a[NR] = $11 == 1 ? $14 : $16 } END { print a[2], a[3], a[4], a[5], a[6], a[7] }' "$tmp/rows.csv")"
check "s12: TTFT $t12 = 0.5 x 1024 x TPOT $d12 with max-running-requests 4 on each of 2 workers" \
  awk -v t="$t12" -v d="$d12" 'BEGIN { w = 512 * d; exit !(t > 0 && (t - w) ^ 2 <= (2e-5 * w) ^ 2) }'
check "s24: TTFT $t24 = 0.5 x 1024 x TPOT $d24 with 12 // 8 x 8 = 8 a worker" \
  awk -v t="$t24" -v d="$d24" 'BEGIN { w = 512 * d; exit !(t > 0 && (t - w) ^ 2 <= (2e-5 * w) ^ 2) }'
check "s16 (frontend args: router unknown): TTFT $t16 the worker's own, under 0.1 x 1024 x TPOT $d16" \
  awk -v t="$t16" -v d="$d16" 'BEGIN { exit !(t > 0 && t < 102.4 * d) }'
check "SGLang match counts: one entry 2" grep -Eq "^  exactly one entry +2$" <<<"$out"
check "SGLang match counts: no batch 1" grep -Eq "^  agreeing entries give no batch \(SGLang names\) +1$" <<<"$out"
# h164: the default plays the round-robin run with sa-bench's output lengths
# (uniform over [0.8, 1] x 1,024, 10 x C requests).  By hand, the closed loop's
# steady state with the mean output 0.9 x 1,024: (12 / 8 - 1) x 921.6 = 460.8
# TPOTs for s12; the finite run (its first wave, its draw of lengths) within 10 %.
out=$(DLP_DECODE_CAPS="$tmp/caps.csv" "$tmp/bench_serving" "$tmp/data" silicon --analytic-only \
  --recipes "$tmp/recipes.csv" --rows "$tmp/rows.csv" 2>&1)
read -r t12 d12 <<<"$(awk -F, 'NR > 1 { a[NR] = $11 == 1 ? $14 : $16 } END { print a[2], a[3] }' "$tmp/rows.csv")"
check "s12, round-robin with sa-bench's lengths: TTFT $t12 within 10 % of 460.8 x TPOT $d12" \
  awk -v t="$t12" -v d="$d12" 'BEGIN { w = 460.8 * d; exit !(t > 0.9 * w && t < 1.1 * w) }'
