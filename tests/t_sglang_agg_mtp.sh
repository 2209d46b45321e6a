#!/usr/bin/env bash
# bench_serving --sglang-agg-mtp P (docs/llm.md, h239; off by default): SGLang
# aggregated runs of an InferenceX MTP config key priced at the script's
# drafts K (tools/inferencemax/spec_agg.csv), each accepted with probability
# P.  Silicon rows written here, Qwen3.5-397B-A17B fp8 on 4 x B200, 1k / 1k,
# 16 clients, SGLang v0.5.9-cu130:
#   m: measured 2026-03-20, TP 4 EP 1: qwen3.5-fp8-b200-sglang-mtp's entry
#      (35d4bb367: EAGLE, 3 steps, topk 1, 4 draft tokens) -> K 3
#   p: measured 2026-03-24, TP 4 EP 4: the plain key's entry -> untouched
# By hand: one step yields 1 + A(K) tokens, A(3) = P + P^2 + P^3, and the
# step does not depend on P (the verify carries 1 + K tokens a sequence
# whatever is accepted) and costs more than the plain step; TPOT is that step
# over 1 + A(3) (4 at P = 1, 1.875 at P = 0.5) plus the prompt steps' stall
# per token, the same at both P; p's answers are the same with and without
# the switch; m's TPOT at P = 1 is below the plain one.
. "$(dirname "$0")/bench_fixture.sh"
build_bench_serving
silicon_fixture
row() { # id measured tp ep
  echo "$1,source_file=2026-04-06.csv; model=Qwen3.5-397B; silicon_concurrency=16; measured=$2; wip=False; image=lmsysorg/sglang:v0.5.9-cu130,sglang,0.5.9,Qwen/Qwen3.5-397B-A17B,b200_sxm,fp8,agg,1024,1024,fp8_block,fp8_block,16,$3,1,1,$3,$4,,,,,,,,,,,,,,,600.0,10.0"
}
{
  echo "$h"
  row m 2026-03-20T22:08:23Z 4 1
  row p 2026-03-24T01:00:00Z 4 4
} >"$S/silicon_sample.csv"
b() { "$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none "$@" >/dev/null 2>&1; }
b --rows "$tmp/off.csv"
b --sglang-agg-mtp 1 --rows "$tmp/p1.csv"
b --sglang-agg-mtp 0.5 --rows "$tmp/p05.csv"
f() { awk -F, -v n="$2" -v c="$3" 'NR == n + 1 { print $c }' "$1"; } # column 16 a_1 (TPOT), 14 a_0
t1=$(f "$tmp/p1.csv" 1 16) t05=$(f "$tmp/p05.csv" 1 16) t0=$(f "$tmp/off.csv" 1 16)
d1=$(f "$tmp/p1.csv" 1 31) d05=$(f "$tmp/p05.csv" 1 31) d0=$(f "$tmp/off.csv" 1 31) # decode_step_ms
check "sglang agg mtp: the step does not depend on P: $d1 = $d05" [ "$d1" = "$d05" ]
check "sglang agg mtp: the verify step (1 + 3 tokens a sequence) costs more than plain: $d1 > $d0" \
  awk -v a="$d1" -v b="$d0" 'BEGIN { exit !(a > b) }'
# TPOT: the step over the tokens it yields, 1 + A(3) = 4 at P = 1 and 1.875 at
# P = 0.5, plus the prompt steps' stalls, the same time either way
ge() { awk -v t="$1" -v d="$2" -v y="$3" 'BEGIN { exit !(t >= d / y - 1e-6) }'; }
check "sglang agg mtp: TPOT(1) >= step / 4: $t1, $d1" ge "$t1" "$d1" 4
check "sglang agg mtp: TPOT(0.5) >= step / 1.875: $t05, $d05" ge "$t05" "$d05" 1.875
stall() { awk -v t="$1" -v d="$2" -v y="$3" 'BEGIN { printf "%.3f", t - d / y }'; }
check "sglang agg mtp: the stall per token the same at P = 1 and 0.5: $(stall "$t1" "$d1" 4), $(stall "$t05" "$d05" 1.875)" \
  [ "$(stall "$t1" "$d1" 4)" = "$(stall "$t05" "$d05" 1.875)" ]
check "sglang agg mtp: every draft accepted beats plain: $t1 < $t0" awk -v a="$t1" -v b="$t0" 'BEGIN { exit !(a < b) }'
check "sglang agg mtp: the plain key's row untouched (TPOT)" [ "$(f "$tmp/p1.csv" 2 16)" = "$(f "$tmp/off.csv" 2 16)" ]
check "sglang agg mtp: the plain key's row untouched (TTFT)" [ "$(f "$tmp/p1.csv" 2 14)" = "$(f "$tmp/off.csv" 2 14)" ]
