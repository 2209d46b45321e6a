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
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { # name, then a command that must succeed
  local name=$1; shift
  if "$@"; then echo "PASS $name"; else echo "FAIL $name"; fi
}
cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc bench/bench_serving.c "$BUILD/libdlperf.a" \
  $(pkg-config --libs libcjson sqlite3) -ldl -lm -lpthread -o "$tmp/bench_serving" || { echo "FAIL build bench_serving"; exit 1; }
S="$tmp/data/aiconfigurator/aic-core/src/aiconfigurator_core/systems"
mkdir -p "$S"
h='id,silicon_data_source,backend,backend_version,model_path,system,precision,mode,isl,osl,gemm_quant_mode,moe_quant_mode,batch_size,tp_size,pp_size,attention_dp_size,moe_tp_size,moe_ep_size,prefill_batch_size,prefill_num_workers,prefill_tp_size,prefill_pp_size,prefill_attention_dp_size,prefill_moe_tp_size,prefill_moe_ep_size,decode_batch_size,decode_num_workers,decode_tp_size,decode_pp_size,decode_attention_dp_size,decode_moe_tp_size,decode_moe_ep_size,silicon_ttft_ms,silicon_tpot_ms'
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
