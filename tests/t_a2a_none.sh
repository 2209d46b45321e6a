#!/usr/bin/env bash
# SGLang attention-DP workers with EP read as --moe-a2a-backend none
# (docs/llm.md, h219; bench_serving --a2a-none, off by default), on silicon
# rows written here: DeepSeek-R1 fp8, 8k / 1k, 128 clients, one prefill and
# one decode worker of 8 GPUs (attention DP 8), counts in the data.
#   b8: SGLang on B200, EP 8 both sides    -> read (prefill and decode)
#   h8: the same on H200                   -> read
#   g8: the same on GB200 (its srt-slurm recipes set deepep on fp8) -> not
#   b1: SGLang on B200, EP 1               -> not (no experts split)
#   t8: TensorRT-LLM on B200, EP 8         -> not (not SGLang)
# By hand: --a2a-none all counts 2 prefill and 2 decode workers; by default
# no count line and every row as with --a2a-none off; --a2a-none pf moves b8's
# and h8's prefill rows only, and b8's prefill_ms rises (a busy rank waits
# out all 8 ranks' prompts where the DeepEP reading kept the lone prompt: the
# library's t_sglang_a2a_none_by_hand prices both); --a2a-none dec moves
# b8's and h8's decode rows, and their prefill rows' client TTFT with them
# (the closed loop's queue and slot wait run on the decode row's TPOT), but
# no prefill worker's own price (prefill_ms as by default).
. "$(dirname "$0")/bench_fixture.sh"
build_bench_serving
silicon_fixture
run() { # id system backend ep
  echo "$1,db-dump/2026-04-27; config_id=1; silicon_concurrency=128; measured=2026-02-13T00:00:00.000Z,$3,,deepseek-ai/DeepSeek-R1,$2,fp8,disagg,8192,1024,fp8_block,fp8_block,,,,,,,,1,1,1,8,1,$4,,1,1,1,8,1,$4,9000,30"
}
{
  echo "$h"
  run b8 b200_sxm sglang 8
  run h8 h200_sxm sglang 8
  run g8 gb200 sglang 8
  run b1 b200_sxm sglang 1
  run t8 b200_sxm trtllm 8
} >"$S/silicon_sample.csv"
b() { "$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none "$@" 2>&1; }
out=$(b --rows "$tmp/off.csv")
check "a2a none: no count line by default" bash -c "! grep -qF 'moe-a2a-backend none' <<<\"\$1\"" _ "$out"
out=$(b --a2a-none all --rows "$tmp/all.csv")
check "a2a none: all counts 2 prefill and 2 decode workers" grep -qF "prefill workers 2, decode workers 2" <<<"$out"
b --a2a-none pf --rows "$tmp/pf.csv" >/dev/null
b --a2a-none dec --rows "$tmp/dec.csv" >/dev/null
b --a2a-none none --rows "$tmp/none.csv" >/dev/null
check "a2a none: --a2a-none none is the default" cmp -s "$tmp/off.csv" "$tmp/none.csv"
# rows: prefill then decode of each run; columns 11 phase, 14 a_0, 16 a_1, 30 prefill_ms
moved() { # file: the rows whose a_0 (prefill) or a_1 (decode) differ from the default's
  paste -d, <(awk -F, 'NR > 1 { print $11 "," $14 "," $16 }' "$tmp/off.csv") \
            <(awk -F, 'NR > 1 { print $14 "," $16 }' "$1") |
    awk -F, '{ n = int((NR + 1) / 2); id = substr("b8h8g8b1t8", 2 * n - 1, 2);
               if ($1 == 1 && $2 != $4) printf "%s-pf ", id; if ($1 == 2 && $3 != $5) printf "%s-dec ", id }'
}
got=$(moved "$tmp/pf.csv")
check "a2a none: pf moves b8 and h8's prefill rows only: got '$got'" [ "$got" = "b8-pf h8-pf " ]
got=$(moved "$tmp/dec.csv")
check "a2a none: dec moves b8 and h8 only, decode rows and their clients' TTFT: got '$got'" \
  [ "$got" = "b8-pf b8-dec h8-pf h8-dec " ]
got=$(cmp -s <(awk -F, 'NR > 1 && $11 == 1 { print $30 }' "$tmp/off.csv") \
             <(awk -F, 'NR > 1 && $11 == 1 { print $30 }' "$tmp/dec.csv") && echo same || echo moved)
check "a2a none: dec leaves every prefill worker's prefill_ms: $got" [ "$got" = same ]
got=$(paste -d' ' <(awk -F, 'NR == 2 { print $30 }' "$tmp/off.csv") <(awk -F, 'NR == 2 { print $30 }' "$tmp/pf.csv") |
      awk '{ print ($2 > $1 ? "up" : "not up") }')
check "a2a none: b8's prefill_ms rises (the busy step of all ranks over the lone prompt): $got" [ "$got" = up ]
