#!/usr/bin/env bash
# The InferenceMAX "2 x 2" record outside gpt-oss (docs/llm.md, h244; bench
# imax_square4, --imax-square4 1 on, off by default), on silicon rows written
# here: Qwen3.5-397B-A17B nvfp4 on B300, SGLang, 1k / 1k, 8 clients.
#   q1: db-dump, "tp 4, moe_tp 2, moe_ep 2" (the {tp: 2, ep: 2} entry's record)
#   q2: db-dump, the same run recorded "tp 2, moe_tp 1, moe_ep 2"
#   q3: db-dump, "tp 4, moe_tp 4, moe_ep 1" (the {tp: 4, ep: 1} entry)
#   g1: an aiconfigurator gap file (not InferenceMAX), "tp 4, moe_tp 2, moe_ep 2"
#   o1: db-dump gpt-oss-120b "tp 4, moe_tp 2, moe_ep 2" (h238's gptoss_square4)
# By hand: on, only q1 is read (count 1), as 2 GPUs, EP 2: the rows file's
# gpus / ep columns 2 / 2, and its predicted TTFT and TPOT are q2's (the same
# workload); q3 stays 4 GPUs with ep 1, g1 and o1 4 GPUs with ep 2.  Off
# (the default), nothing is counted and q1 is 4 GPUs, EP 2.
. "$(dirname "$0")/bench_fixture.sh"
build_bench_serving
silicon_fixture
src='db-dump/2026-04-27; config_id=736; silicon_concurrency=8; measured=2026-04-18T00:00:00.000Z; workflow_run_id=765; lmsysorg/sglang:v0.5.10.post1-cu130'
row() { # id model tp moe_tp ep source
  echo "$1,$6,sglang,0.5.10,$2,b300_sxm,fp4,agg,1024,1024,nvfp4,nvfp4,8,$3,1,1,$4,$5,,,,,,,,,,,,,,,173.7273,8.7851"
}
{
  echo "$h"
  row q1 Qwen/Qwen3.5-397B-A17B 4 2 2 "$src"
  row q2 Qwen/Qwen3.5-397B-A17B 2 1 2 "$src"
  row q3 Qwen/Qwen3.5-397B-A17B 4 4 1 "$src"
  row g1 Qwen/Qwen3.5-397B-A17B 4 2 2 "source_file=/x/b300_sxm/sglang/0.5.10/qwen.csv; silicon_concurrency=8"
  row o1 openai/gpt-oss-120b 4 2 2 "$src"
} >"$S/silicon_sample.csv"
b() { "$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none "$@" 2>&1; }
out=$(b --imax-square4 1 --rows "$tmp/on.csv")
check "imax square4: on, 1 row read" \
  grep -qF "InferenceMAX 2 x 2 records outside gpt-oss read as 2 GPUs (imax_square4, h244; --imax-square4 1): 1" <<<"$out"
off=$(b --rows "$tmp/off.csv")
check "imax square4: off by default, 0 read" \
  grep -qF "InferenceMAX 2 x 2 records outside gpt-oss read as 2 GPUs (imax_square4, h244; --imax-square4 0): 0" <<<"$off"
# rows in file order (q1 q2 q3 g1 o1); columns 8 gpus, 9 ep, 14 a_0, 16 a_1
f() { awk -F, -v n="$2" -v c="$3" 'NR == n + 1 { print $c }' "$1"; }
check "imax square4: on, q1 on 2 GPUs, EP 2" [ "$(f "$tmp/on.csv" 1 8)/$(f "$tmp/on.csv" 1 9)" = 2/2 ]
check "imax square4: on, q1 predicted as q2 (TTFT)" [ "$(f "$tmp/on.csv" 1 14)" = "$(f "$tmp/on.csv" 2 14)" ]
check "imax square4: on, q1 predicted as q2 (TPOT)" [ "$(f "$tmp/on.csv" 1 16)" = "$(f "$tmp/on.csv" 2 16)" ]
check "imax square4: q3 stays 4 GPUs, ep 1" [ "$(f "$tmp/on.csv" 3 8)/$(f "$tmp/on.csv" 3 9)" = 4/1 ]
check "imax square4: gap-file row stays 4 GPUs" [ "$(f "$tmp/on.csv" 4 8)/$(f "$tmp/on.csv" 4 9)" = 4/2 ]
check "imax square4: gpt-oss row not read here" [ "$(f "$tmp/on.csv" 5 8)" = 4 ]
check "imax square4: off, q1 on 4 GPUs, EP 2" [ "$(f "$tmp/off.csv" 1 8)/$(f "$tmp/off.csv" 1 9)" = 4/2 ]
check "imax square4: off, q1 not q2's answer" [ "$(f "$tmp/off.csv" 1 14)" != "$(f "$tmp/off.csv" 2 14)" ]
