#!/usr/bin/env bash
# SGLang attention-DP workers with EP read as --moe-a2a-backend none
# (docs/llm.md, h219; bench_serving --a2a-none all | pf | dec | none, all by
# default), on silicon rows written here: DeepSeek-R1, 8k / 1k, 128
# clients, one prefill and one decode worker of 8 GPUs (attention DP 8),
# counts in the data.
#   b8: SGLang fp8 on B200, EP 8 both sides -> read (prefill and decode)
#   h8: the same on H200                    -> read (prefill and decode)
#   g8: the same on GB200 (srt-slurm's gb200-fp8 recipes set deepep) -> not
#   gf: SGLang fp4 on GB200 (the gb200-fp4 prefill sections set none, the
#       decode ones deepep)                 -> the prefill worker only
#   b1: SGLang fp8 on B200, EP 1            -> not (no experts split)
#   t8: TensorRT-LLM fp8 on B200, EP 8      -> not (not SGLang)
# By hand: the default counts 3 prefill and 2 decode workers and equals
# --a2a-none all; none counts 0 and 0; against none, pf moves the prefill
# rows of b8, h8 and gf only, and b8's prefill_ms rises (a busy rank waits
# out all 8 ranks' prompts where the DeepEP reading kept the lone prompt:
# the library's t_sglang_a2a_none_by_hand prices both); dec moves b8's and
# h8's decode rows and their prefill rows' client TTFT with them (the
# closed loop's queue and slot wait run on the decode row's TPOT), but no
# prefill worker's own price (prefill_ms as with none); an unknown value is
# refused.
. "$(dirname "$0")/bench_fixture.sh"
build_bench_serving
silicon_fixture
run() { # id system backend ep precision gemm/moe quant mode
  echo "$1,db-dump/2026-04-27; config_id=1; silicon_concurrency=128; measured=2026-02-13T00:00:00.000Z,$3,,deepseek-ai/DeepSeek-R1,$2,$5,disagg,8192,1024,$6,$6,,,,,,,,1,1,1,8,1,$4,,1,1,1,8,1,$4,9000,30"
}
{
  echo "$h"
  run b8 b200_sxm sglang 8 fp8 fp8_block
  run h8 h200_sxm sglang 8 fp8 fp8_block
  run g8 gb200 sglang 8 fp8 fp8_block
  run gf gb200 sglang 8 fp4 nvfp4
  run b1 b200_sxm sglang 1 fp8 fp8_block
  run t8 b200_sxm trtllm 8 fp8 fp8_block
} >"$S/silicon_sample.csv"
b() { "$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none "$@" 2>&1; }
out=$(b --rows "$tmp/def.csv")
check "a2a none: the default counts 3 prefill and 2 decode workers" grep -qF "prefill workers 3, decode workers 2" <<<"$out"
out=$(b --a2a-none none --rows "$tmp/none.csv")
check "a2a none: none counts 0 and 0" grep -qF "prefill workers 0, decode workers 0" <<<"$out"
b --a2a-none all --rows "$tmp/all.csv" >/dev/null
b --a2a-none pf --rows "$tmp/pf.csv" >/dev/null
b --a2a-none dec --rows "$tmp/dec.csv" >/dev/null
check "a2a none: the default is all" cmp -s "$tmp/def.csv" "$tmp/all.csv"
# rows: prefill then decode of each run; columns 11 phase, 14 a_0, 16 a_1, 30 prefill_ms
moved() { # file: the rows whose a_0 (prefill) or a_1 (decode) differ from none's
  paste -d, <(awk -F, 'NR > 1 { print $11 "," $14 "," $16 }' "$tmp/none.csv") \
            <(awk -F, 'NR > 1 { print $14 "," $16 }' "$1") |
    awk -F, '{ n = int((NR + 1) / 2); id = substr("b8h8g8gfb1t8", 2 * n - 1, 2);
               if ($1 == 1 && $2 != $4) printf "%s-pf ", id; if ($1 == 2 && $3 != $5) printf "%s-dec ", id }'
}
got=$(moved "$tmp/pf.csv")
check "a2a none: pf moves the prefill rows of b8, h8 and gf only: got '$got'" [ "$got" = "b8-pf h8-pf gf-pf " ]
got=$(moved "$tmp/dec.csv")
check "a2a none: dec moves b8 and h8 only, decode rows and their clients' TTFT: got '$got'" \
  [ "$got" = "b8-pf b8-dec h8-pf h8-dec " ]
got=$(cmp -s <(awk -F, 'NR > 1 && $11 == 1 { print $30 }' "$tmp/none.csv") \
             <(awk -F, 'NR > 1 && $11 == 1 { print $30 }' "$tmp/dec.csv") && echo same || echo moved)
check "a2a none: dec leaves every prefill worker's prefill_ms: $got" [ "$got" = same ]
got=$(paste -d' ' <(awk -F, 'NR == 2 { print $30 }' "$tmp/none.csv") <(awk -F, 'NR == 2 { print $30 }' "$tmp/pf.csv") |
      awk '{ print ($2 > $1 ? "up" : "not up") }')
check "a2a none: b8's prefill_ms rises (the busy step of all ranks over the lone prompt): $got" [ "$got" = up ]
check "a2a none: an unknown value is refused" bash -c "! '$tmp/bench_serving' '$tmp/data' silicon --a2a-none xx >/dev/null 2>&1"
