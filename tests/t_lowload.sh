#!/usr/bin/env bash
# bench_serving --lowload (issue 22's low-load TTFT split) on a fixture: a
# four-row silicon file whose measured TTFTs are set by hand, so the slope
# and the gap it prints can be checked against arithmetic done here.
#
#   setup A (Llama-3.1-8B-Instruct, vLLM, H100, fp8, 1 GPU, 4 clients):
#     1k prompts measured 100 and 120 ms (median 110), 8k prompts 400 ms
#     slope = (400 - 110) / (P8 - P1), gap = 110 - P1, where P1, P8 are the
#     predicted TTFTs of those rows (the prediction is an input here, read
#     from --rows; what is under test is the pairing, medians and arithmetic)
#   setup B (the same at 8 clients): 1k only, so no line for it
#   setup C (the same at 64 clients, 1k and 8k): above 4 clients, no line
. "$(dirname "$0")/bench_fixture.sh"
build_bench_serving
silicon_fixture
row() { # id isl osl batch ttft
  echo "$1,fixture,vllm,0.11,meta-llama/Llama-3.1-8B-Instruct,h100_sxm,fp8,agg,$2,$3,fp8,,$4,1,1,1,1,1,,,,,,,,,,,,,,,$5,10"
}
{
  echo "$h"
  row a1 1024 1024 4 100
  row a2 1024 1024 4 120
  row a8 8192 1024 4 400
  row b1 1024 1024 8 150
  row c1 1024 1024 64 300
  row c8 8192 1024 64 900
} >"$S/silicon_sample.csv"
out=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --lowload --rows "$tmp/rows.csv" 2>&1)
check "lowload: the table is printed" grep -q '^| family | phase | engine | GPU | weights | setups |' <<<"$out"
lines=$(grep -c '^| llama |' <<<"$out")
check "lowload: one line (setup A; B has no 8k row, C is past 4 clients): got $lines" [ "$lines" = 1 ]
# the predicted TTFTs of setup A's rows (a_0 = column 14), 1k and 8k
p1=$(awk -F, '$5 == 1024 && $7 == 4 { print $14; exit }' "$tmp/rows.csv")
p8=$(awk -F, '$5 == 8192 && $7 == 4 { print $14; exit }' "$tmp/rows.csv")
want=$(awk -v p1="$p1" -v p8="$p8" 'BEGIN { printf "%.2f | %.0f", (400 - 110) / (p8 - p1), 110 - p1 }')
got=$(grep '^| llama |' <<<"$out" | awk -F'|' '{ gsub(/ /, "", $8); gsub(/ /, "", $9); print $8 " | " $9 }')
check "lowload: slope and gap = (400 - 110) / (P8 - P1), 110 - P1 with P1 $p1, P8 $p8: want $want, got $got" \
  [ "$want" = "$got" ]
check "lowload: setup A counted once (its two 1k rows are one setup)" \
  grep -q '^| llama | aggregated | vllm | h100-sxm | fp8 | 1 |' <<<"$out"
# --split FAMILY keeps that family's lines only
out2=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --lowload --split qwen 2>&1)
check "lowload --split qwen: no llama line" bash -c "! grep -q '^| llama |' <<<\"\$1\"" _ "$out2"
# without --lowload: no table
out3=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only 2>&1)
check "no --lowload: no table" bash -c "! grep -q 'low-load TTFT' <<<\"\$1\"" _ "$out3"
