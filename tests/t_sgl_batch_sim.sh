#!/usr/bin/env bash
# SGLang's prefill worker played with its prefill batches and sa-bench's
# first wave sent at once (docs/llm.md, h235; bench_serving --sgl-batch-sim
# 0 | 1 | 2, 0 by default), on silicon rows written here: DeepSeek-R1 fp8,
# 8k / 1k, one prefill and one decode worker of 8 GPUs, counts in the data.
#   b8: SGLang on B200, attention DP 8, EP 8 (no all-to-all: h219) 128 clients
#   b1: SGLang on B200, attention DP 8, EP 1                       128 clients
#   g8: SGLang on GB200, attention DP 8, EP 8 (deepep)             128 clients
#   t8: TensorRT-LLM on B200, attention DP 8, EP 8                 128 clients
#   h1: SGLang on H200, TP 8, one client
# By hand: 0 is the default (nothing moves); 1 plays the four SGLang prefill
# rows and moves the three with clients to batch, no decode row, no
# TensorRT-LLM row; 2 plays and moves only the prefill rows
# whose rank the library prices at the ranks' lockstep step (b8, b1); with
# one client nothing is batched and nothing waits, so h1's played TTFT is the
# front end + its lone prompt + the handoff: the library's own one-client
# answer (a first wave of one prompt, then one at a time).
. "$(dirname "$0")/bench_fixture.sh"
build_bench_serving
silicon_fixture
run() { # id system backend ep pdp clients
  echo "$1,db-dump/2026-04-27; config_id=1; silicon_concurrency=$6; measured=2026-02-13T00:00:00.000Z,$3,,deepseek-ai/DeepSeek-R1,$2,fp8,disagg,8192,1024,fp8_block,fp8_block,,,,,,,,1,$((8 / $5)),1,$5,1,$4,,1,1,1,8,1,$4,9000,30"
}
{
  echo "$h"
  run b8 b200_sxm sglang 8 8 128
  run b1 b200_sxm sglang 1 8 128
  run g8 gb200 sglang 8 8 128
  run t8 b200_sxm trtllm 8 8 128
  run h1 h200_sxm sglang 1 1 1
} >"$S/silicon_sample.csv"
b() { "$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none "$@" 2>&1; }
b --rows "$tmp/def.csv" >/dev/null
b --sgl-batch-sim 0 --rows "$tmp/m0.csv" >/dev/null
out=$(b --sgl-batch-sim 1 --rows "$tmp/m1.csv")
check "sgl batch sim: 1 plays 4 rows" grep -qF "(--sgl-batch-sim 1, sgl_batch_sim_ms, h235): 4 rows" <<<"$out"
out=$(b --sgl-batch-sim 2 --rows "$tmp/m2.csv")
check "sgl batch sim: 2 plays 2 rows" grep -qF "(--sgl-batch-sim 2, sgl_batch_sim_ms, h235): 2 rows" <<<"$out"
check "sgl batch sim: 0 is the default" cmp -s "$tmp/def.csv" "$tmp/m0.csv"
# rows: prefill then decode of each run; columns 11 phase, 14 a_0, 16 a_1
moved() { # file: the rows whose a_0 (prefill) or a_1 (decode) differ from the default's
  paste -d, <(awk -F, 'NR > 1 { print $11 "," $14 "," $16 }' "$tmp/def.csv") \
            <(awk -F, 'NR > 1 { print $14 "," $16 }' "$1") |
    awk -F, '{ n = int((NR + 1) / 2); id = substr("b8b1g8t8h1", 2 * n - 1, 2);
               if ($1 == 1 && $2 != $4) printf "%s-pf ", id; if ($1 == 2 && $3 != $5) printf "%s-dec ", id }'
}
got=$(moved "$tmp/m1.csv")
check "sgl batch sim: 1 moves the SGLang prefill rows with clients to batch only: got '$got'" [ "$got" = "b8-pf b1-pf g8-pf " ]
got=$(moved "$tmp/m2.csv")
check "sgl batch sim: 2 moves the lockstep-priced prefill rows only: got '$got'" [ "$got" = "b8-pf b1-pf " ]
# h1, the last prefill row: the played one-client TTFT against the library's, within 0.5 %
got=$(paste -d' ' <(awk -F, 'NR > 1 && $11 == 1 { v = $14 } END { print v }' "$tmp/def.csv") \
                  <(awk -F, 'NR > 1 && $11 == 1 { v = $14 } END { print v }' "$tmp/m1.csv") |
      awk '{ d = $2 / $1 - 1; print (d < 0.005 && d > -0.005 ? "same" : "differs " $1 " " $2) }')
check "sgl batch sim: one client's played TTFT is the library's: $got" [ "$got" = same ]
