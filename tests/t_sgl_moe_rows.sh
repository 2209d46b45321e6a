#!/usr/bin/env bash
# SGLang's routed-rows term in the MoE prompt step (docs/llm.md, h244;
# llm_serve.c MOE_PF_ROWS_SGL, dlp__llm_knob.sgl_moe_rows, bench
# --sgl-moe-rows; off by default), on one silicon row written here:
# Qwen3.5-397B-A17B fp8 on 8 x B200, SGLang, TP 8 (moe_tp 8, EP 1), 8k / 1k.
# By hand, one MoE layer of the 8,192-token prompt on one GPU (60 layers,
# all MoE; hidden 4,096, experts of 1,024, top 10; B200 fp8 4,500 TFLOPS,
# 8,000 GB/s, data/devices.json): routed rows R = 8192 x 1.1512 (MOE_PF's
# imbalance at EP 1) x 10 = 94,306.3; F = 2 R x 3 x 4096 x 1024 / 8
# = 2.96662e11.
#   off (MOE_PF {99.5 us, 0.173}):  99.5 + F / (0.173 x 4.5e15) = 480.569 us
#   on  ({60.8 us, 0.198, 9.78}):   60.8 + F / (0.198 x 4.5e15)
#                                   + 9.78 x R x 4096 / 8e12      = 865.980 us
# so the prompt step grows 60 x 385.411 us = 23.125 ms; TP 4 x EP 2 of the
# same row (an EP layout, outside the fit) does not move.
. "$(dirname "$0")/bench_fixture.sh"
build_bench_serving
silicon_fixture
row() { # tp ep
  echo "x,source_file=/x/b200_sxm/sglang/0.5.9/qwen.csv; silicon_concurrency=4,sglang,0.5.9,Qwen/Qwen3.5-397B-A17B-FP8,b200_sxm,fp8,agg,8192,1024,fp8_block,fp8_block,4,$1,1,1,$(($1 / $2)),$2,,,,,,,,,,,,,,,387.7,8.63"
}
{ echo "$h"; row 8 1; row 4 2; } >"$S/silicon_sample.csv"
b() { "$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none "$@" >/dev/null 2>&1; }
b --rows "$tmp/def.csv"
b --sgl-moe-rows 0 --rows "$tmp/off.csv"
b --sgl-moe-rows 1 --rows "$tmp/on.csv"
# column 30 prefill_ms; rows in file order
f() { awk -F, -v n="$2" 'NR == n + 1 { print $30 }' "$1"; }
check "sgl moe rows: off by default" cmp -s "$tmp/def.csv" "$tmp/off.csv"
d=$(awk -v a="$(f "$tmp/off.csv" 1)" -v b="$(f "$tmp/on.csv" 1)" 'BEGIN { printf "%.3f", b - a }')
check "sgl moe rows: TP 8 prompt step +23.125 ms by hand, got +$d" \
  awk -v d="$d" 'BEGIN { exit !(d > 23.125 * 0.995 && d < 23.125 * 1.005) }'
check "sgl moe rows: EP 2 row unmoved" [ "$(f "$tmp/off.csv" 2)" = "$(f "$tmp/on.csv" 2)" ]
