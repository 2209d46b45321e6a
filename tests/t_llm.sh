#!/usr/bin/env bash
# t_llm.sh — `dlperf llm` end to end: the issue's example as valid JSON with
# finite positive numbers, every catalogue model answering in under 50 ms
# (each model once, on devices taken in turn so every device is used too;
# the full model x device product runs in-process in test_llm.c), a
# config.json from disk, quantised dtypes, generation, the catalogue list,
# and the one-line errors with exit 2 for a bad model id, device or dtype.
# Prints PASS/FAIL lines for tests/run.sh.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
BIN="$BUILD/dlperf"
tmp=$(mktemp -d /tmp/dlp_t_llm.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "PASS $1"; }
bad() { echo "FAIL $1${2:+: $2}"; }

# JSON numbers that must be finite and > 0
check_json='
import json, math, sys
d = json.load(open(sys.argv[1]))
for k in ("throughput_sps", "tokens_per_s", "latency_ms", "memory_mb", "weights_mb", "activations_mb",
          "power_w", "energy_j", "co2_g", "total_time_s", "total_energy_j", "total_co2_g", "params", "macs"):
    v = d[k]
    assert isinstance(v, (int, float)) and math.isfinite(v) and v > 0, (k, v)
assert d["method"] and d["methods"]["throughput"] and d["methods"]["memory"] and d["methods"]["energy"]
assert d["method"] == "analytic" or d["method"].startswith("xgb:"), d["method"]
assert d["device"] == sys.argv[2], d["device"]
'

# the issue's example
if "$BIN" llm --model bert-base-uncased --device h100-sxm --batch 64 --seq 128 --dtype fp16 --json \
     >"$tmp/bert.json" 2>"$tmp/err" &&
   python3 -c "$check_json" "$tmp/bert.json" h100-sxm 2>>"$tmp/err" &&
   python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["params"]==109482240 and d["batch"]==64 and d["seq"]==128 and d["dtype"]=="fp16" and d["samples"]==64' "$tmp/bert.json" 2>>"$tmp/err"; then
  ok llm_bert_json
else bad llm_bert_json "$(head -3 "$tmp/err")"; fi

# text output names the method on every number it predicts
if "$BIN" llm --model bert-base-uncased --device a100 --batch 8 --seq 64 >"$tmp/txt" 2>"$tmp/err" &&
   grep -q '^  throughput .*samples/s.*\[' "$tmp/txt" && grep -q '^  carbon ' "$tmp/txt"; then ok llm_text
else bad llm_text "$(head -3 "$tmp/err")"; fi
# a CPU device is refused with one line naming it (the LLM models are of GPUs)
"$BIN" llm --model gpt2 --device cpu-amd-epyc-2c >"$tmp/cpu.out" 2>"$tmp/cpu.err"; rc=$?
if [ "$rc" = 2 ] && grep -q "GPUs only" "$tmp/cpu.err" && [ "$(wc -l <"$tmp/cpu.err")" = 1 ]; then ok llm_cpu_refused
else bad llm_cpu_refused "rc $rc: $(head -2 "$tmp/cpu.err")"; fi

# every catalogue model answers, in under 100 ms (CPU time of the process)
"$BIN" llm --list --json >"$tmp/list.json" 2>"$tmp/err"
"$BIN" devices --json >"$tmp/devs.json" 2>>"$tmp/err"
python3 -c 'import json,sys; [print(m["id"]) for m in json.load(open(sys.argv[1]))["models"]]' "$tmp/list.json" >"$tmp/models" 2>>"$tmp/err"
python3 -c 'import json,sys; [print(d["id"]) for d in json.load(open(sys.argv[1]))["devices"] if d.get("kind", "gpu") == "gpu"]' "$tmp/devs.json" >"$tmp/devices" 2>>"$tmp/err"
nm=$(wc -l <"$tmp/models"); nd=$(wc -l <"$tmp/devices")
mapfile -t devices <"$tmp/devices"
TIMEFORMAT='%3U %3S %3R'
# A guard against a pathological slowdown, not the speed aim: a test checks
# correctness, and CPU time on a shared machine moves with its load (the
# MoE models' generate mode builds a second, routed-token graph since issue
# 22 and takes 35-55 ms here at load 5).  The aim (<= 50 ms per answer) is
# measured by bench/bench_llm.sh.  Sanitizer builds are several times
# slower by design and get ten times the budget.
limit=100
case "$BUILD" in *san*) limit=1000 ;; esac
fails=0; slow=0; worst=0; worst_wall=0; i=0
mkdir -p "$tmp/runs"
while read -r m; do
  d=${devices[$((i % nd))]}; i=$((i + 1))
  if ! "$BIN" llm --model "$m" --device "$d" --batch 4 --seq 128 --json >"$tmp/runs/$i.json" 2>"$tmp/one.err"; then
    # too large for this device even at batch 1: a refusal with the numbers
    # (docs/llm.md, "Refusals"); then the model answers on an H200
    if grep -q "does not fit on 1 x $d even at one request: needs" "$tmp/one.err"; then
      # (tensor-parallel degrees that divide its heads: the first that does)
      d=h200; okg=0
      for g in 8 4 2 1; do
        "$BIN" llm --model "$m" --device h200 --batch 4 --seq 128 --gpus $g --dtype fp8 --json >"$tmp/runs/$i.json" 2>"$tmp/one.err" &&
          { okg=1; break; }
      done
      [ "$okg" = 1 ] || { fails=$((fails + 1)); echo "  $m on $d: $(head -1 "$tmp/one.err")" >>"$tmp/err"; }
    else
      fails=$((fails + 1)); echo "  $m on $d: $(head -1 "$tmp/one.err")" >>"$tmp/err"
    fi
  fi
  echo "$d" >"$tmp/runs/$i.dev"
  # time only the dlperf process (python's check is not part of it): CPU
  # time (user + sys) decides, since wall time on a shared machine also
  # measures the neighbours; the slowest wall time is reported beside it
  # (the better of two runs: one run can be descheduled or evicted)
  ms=1000000; wms=1000000
  for rep in 1 2; do
    { time "$BIN" llm --model "$m" --device "$d" --batch 4 --seq 128 >/dev/null 2>&1; } 2>"$tmp/time"
    read -r u s r <"$tmp/time"
    c=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%d", (u + s) * 1000 }')
    w=$(awk -v r="$r" 'BEGIN { printf "%d", r * 1000 }')
    [ "$c" -lt "$ms" ] && ms=$c
    [ "$w" -lt "$wms" ] && wms=$w
  done
  [ "$ms" -gt "$worst" ] && worst=$ms
  [ "$wms" -gt "$worst_wall" ] && worst_wall=$wms
  [ "$ms" -ge "$limit" ] && slow=$((slow + 1)) && echo "  $m on $d: ${ms} ms CPU" >>"$tmp/err"
done <"$tmp/models"
# the remaining devices (when there are more devices than models)
while [ "$i" -lt "$nd" ]; do
  d=${devices[$i]}; i=$((i + 1))
  "$BIN" llm --model gpt2 --device "$d" --json >"$tmp/runs/$i.json" 2>/dev/null || fails=$((fails + 1))
  echo "$d" >"$tmp/runs/$i.dev"
done
# every answer checked in one python process (the same checks as check_json)
bad_runs=$(python3 - "$tmp/runs" "$check_json" 2>>"$tmp/err" <<'PY'
import glob, os, sys
code = sys.argv[2]
bad = 0
for j in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    dev = open(j[:-5] + ".dev").read().strip()
    sys.argv = ["check", j, dev]
    try:
        exec(code, {})
    except Exception as e:
        bad += 1
        print("  %s (%s): %r" % (j, dev, e), file=sys.stderr)
print(bad)
PY
)
fails=$((fails + ${bad_runs:-1}))
if [ "$nm" -ge 40 ] && [ "$nd" -ge 20 ] && [ "$fails" -eq 0 ]; then ok llm_every_model_answers
else bad llm_every_model_answers "models $nm devices $nd failures $fails $(head -3 "$tmp/err")"; fi
if [ "$slow" -eq 0 ]; then ok llm_under_100ms; echo "  (slowest llm run: ${worst} ms CPU, ${worst_wall} ms wall)"
else bad llm_under_100ms "$slow runs took $limit ms or more of CPU (slowest ${worst} ms)"; fi

# a config.json from disk (GQA + tied embeddings), every dtype, generation
cat >"$tmp/config.json" <<'EOF'
{"model_type": "qwen2", "hidden_size": 896, "num_hidden_layers": 24, "num_attention_heads": 14,
 "num_key_value_heads": 2, "intermediate_size": 4864, "vocab_size": 151936,
 "max_position_embeddings": 32768, "tie_word_embeddings": true}
EOF
okq=1
for q in fp32 fp16 bf16 int8 nf4; do
  "$BIN" llm --config "$tmp/config.json" --device a100-40gb --batch 8 --seq 2048 --dtype "$q" --json \
    >"$tmp/q_$q.json" 2>>"$tmp/err" && python3 -c "$check_json" "$tmp/q_$q.json" a100-40gb 2>>"$tmp/err" || okq=0
done
# weights shrink fp32 > fp16 = bf16 > int8 > nf4
if [ "$okq" = 1 ] && python3 -c '
import json, sys
w = {q: json.load(open(f"{sys.argv[1]}/q_{q}.json"))["weights_mb"] for q in ("fp32", "fp16", "bf16", "int8", "nf4")}
assert w["fp32"] > w["fp16"] == w["bf16"] > w["int8"] > w["nf4"] > 0, w
d = json.load(open(f"{sys.argv[1]}/q_fp16.json")); assert d["params"] == 494032768, d["params"]
' "$tmp" 2>>"$tmp/err"; then ok llm_config_dtypes
else bad llm_config_dtypes "$(tail -3 "$tmp/err")"; fi

if "$BIN" llm --model llama-2-7b --device h100 --batch 16 --seq 512 --gen 256 --gpus 2 --region fr --samples 1000 --json \
     >"$tmp/gen.json" 2>"$tmp/err" && python3 -c "$check_json" "$tmp/gen.json" h100-sxm 2>>"$tmp/err" &&
   python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["gen_tokens"]==256 and d["region"]=="fr" and d["carbon_g_per_kwh"]==56 and abs(d["total_energy_j"]-1000*d["energy_j"])<1e-6*d["total_energy_j"]' "$tmp/gen.json" 2>>"$tmp/err"; then
  ok llm_generate
else bad llm_generate "$(head -3 "$tmp/err")"; fi

# 2025-26 ids as published (issue 13): MoE total vs active parameters, MLA's
# KV cache, a nested (text_config) config.json from disk, image tokens
okn=1
for m in meta-llama/Meta-Llama-3.1-8B meta-llama/Llama-3.1-8B Qwen/Qwen3-30B-A3B-Instruct-2507 openai/gpt-oss-120b \
         deepseek-ai/DeepSeek-R1 google/gemma-3-27b-it meta-llama/Llama-4-Scout-17B-16E-Instruct \
         nvidia/Nemotron-H-8B-Base-8K Qwen/Qwen3-VL-8B-Instruct; do
  # the largest do not fit one H100 in bf16 (refused): 8 GPUs, fp8 (R1: 671e9 B / 8 on H200s), gpt-oss in mxfp4
  case "$m" in
    deepseek-ai/DeepSeek-R1) dev=h200; more="--gpus 8 --dtype fp8" ;;
    meta-llama/Llama-4-Scout-17B-16E-Instruct) dev=h100-sxm; more="--gpus 8 --dtype bf16" ;;
    openai/gpt-oss-120b) dev=h100-sxm; more="--dtype mxfp4" ;;  # as released and served
    *) dev=h100-sxm; more="--dtype bf16" ;;
  esac
  "$BIN" llm --model "$m" --device $dev $more --seq 1024 --gen 256 --json >"$tmp/new.json" 2>>"$tmp/err" &&
    python3 -c "$check_json" "$tmp/new.json" $dev 2>>"$tmp/err" || { okn=0; echo "  $m" >>"$tmp/err"; }
done
"$BIN" llm --model Qwen/Qwen3-30B-A3B-Instruct-2507 --device h100-sxm --dtype bf16 --json >"$tmp/moe.json" 2>>"$tmp/err" &&
  "$BIN" llm --model deepseek-ai/DeepSeek-V3 --device h200 --gpus 8 --dtype fp8 --seq 1000 --gen 24 --json >"$tmp/mla.json" 2>>"$tmp/err" || okn=0
cat >"$tmp/g3.json" <<'EOF'
{"model_type": "gemma3", "text_config": {"model_type": "gemma3_text", "hidden_size": 2560,
 "intermediate_size": 10240, "num_hidden_layers": 34, "sliding_window": 1024}, "vision_config": {"hidden_size": 1152}}
EOF
"$BIN" llm --config "$tmp/g3.json" --device h100-sxm --image-tokens 256 --seq 64 --json >"$tmp/g3o.json" 2>>"$tmp/err" || okn=0
if [ "$okn" = 1 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1] + "/moe.json"))
assert d["params"] == 30532122624 and d["active_params"] == 3353032704, (d["params"], d["active_params"])
m = json.load(open(sys.argv[1] + "/mla.json"))
assert m["kv_bytes_per_seq"] == 61 * 576 * 1024 * 2, m["kv_bytes_per_seq"]
g = json.load(open(sys.argv[1] + "/g3o.json"))
assert g["params"] == 3880263168 and g["image_tokens"] == 256, g
' "$tmp" 2>>"$tmp/err"; then ok llm_2025_architectures
else bad llm_2025_architectures "$(tail -3 "$tmp/err")"; fi

# the serving data set's 2026 ids (issue 13): MiniMax-M2.5, Qwen3.5 (Gated DeltaNet), Kimi-K2.5,
# GLM-5 (DSA), quantised checkpoints resolved to their base; a Qwen3.5 config.json from disk
okn=1
: >"$tmp/err"
for m in MiniMaxAI/MiniMax-M2.5 Qwen/Qwen3.5-397B-A17B moonshotai/Kimi-K2.5 zhipuai/GLM-5 \
         nvidia/DeepSeek-R1-NVFP4 nvidia/DeepSeek-V3.1-NVFP4 nvidia/Qwen3-32B-NVFP4 nvidia/Llama-3.1-8B-Instruct-FP8; do
  "$BIN" llm --model "$m" --device b200 --gpus 8 --dtype nvfp4 --seq 1024 --gen 128 --json >"$tmp/n26.json" 2>>"$tmp/err" &&
    python3 -c "$check_json" "$tmp/n26.json" b200 2>>"$tmp/err" || { okn=0; echo "  $m" >>"$tmp/err"; }
done
cat >"$tmp/q35.json" <<'EOF'
{"model_type": "qwen3_5_moe", "tie_word_embeddings": false, "text_config": {"model_type": "qwen3_5_moe_text",
 "hidden_size": 2048, "num_hidden_layers": 40, "num_attention_heads": 16, "num_key_value_heads": 2, "head_dim": 256,
 "linear_num_key_heads": 16, "linear_num_value_heads": 32, "linear_key_head_dim": 128, "linear_value_head_dim": 128,
 "moe_intermediate_size": 512, "shared_expert_intermediate_size": 512, "num_experts": 256, "num_experts_per_tok": 8,
 "full_attention_interval": 4, "vocab_size": 248320,
 "rope_parameters": {"rope_type": "default", "rope_theta": 10000000, "partial_rotary_factor": 0.25}},
 "vision_config": {"depth": 27, "hidden_size": 1152}}
EOF
"$BIN" llm --config "$tmp/q35.json" --device h100-sxm --dtype bf16 --seq 2048 --gen 64 --json >"$tmp/q35o.json" 2>>"$tmp/err" || okn=0
if [ "$okn" = 1 ] && python3 -c '
import json, sys
q = json.load(open(sys.argv[1] + "/q35o.json"))
# a Qwen3.5-35B-A3B-shaped text stack, by hand: embed 2*248320*2048; 10 full layers (q 2048*8192, k, v
# 2048*512, o 4096*2048, qk norms 512); 30 DeltaNet layers (qkv 2048*8192, z 2048*4096, b, a 2048*32,
# conv 8192*4, dt_bias, A_log 32, norm 128, out 4096*2048); 40 MoE layers (router 2048*256, 257 experts
# of 3*2048*512 incl. the shared one, shared gate 2048) + 2 norms 4096; final norm 2048
full = 2048*8192 + 2*2048*512 + 4096*2048 + 512
gdn = 2048*8192 + 2048*4096 + 2*2048*32 + 8192*4 + 64 + 128 + 4096*2048
moe = 2048*256 + 257*3*2048*512 + 2048
want = 2*248320*2048 + 10*full + 30*gdn + 40*(moe + 4096) + 2048
assert q["params"] == want, (q["params"], want)
# state: 30 layers * (8192*3 + 32*128*128) * 2 B, + 10 full layers * 2*2*256*2 B per token of 2048 + 64
assert q["kv_bytes_per_seq"] == 30*(8192*3 + 32*128*128)*2 + 10*2048*(2048 + 64), q["kv_bytes_per_seq"]
' "$tmp" 2>>"$tmp/err"; then ok llm_2026_serving_ids
else bad llm_2026_serving_ids "$(tail -3 "$tmp/err")"; fi

# the catalogue lists the thesis' models
if "$BIN" llm --list >"$tmp/list.txt" 2>"$tmp/err" && grep -q '^microsoft/deberta-v3-large ' "$tmp/list.txt" &&
   grep -q '^bert-base-uncased ' "$tmp/list.txt" && grep -q 'trained models' "$tmp/list.txt"; then ok llm_list
else bad llm_list "$(head -3 "$tmp/err")"; fi

# errors: one line, exit 2
"$BIN" llm --model no-such-model-xyz --device h100-sxm >/dev/null 2>"$tmp/err"; rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "unknown model 'no-such-model-xyz'" "$tmp/err"; then
  ok llm_bad_model_exit2
else bad llm_bad_model_exit2 "rc $rc: $(head -2 "$tmp/err")"; fi
"$BIN" llm --model gpt2 --device h1000 >/dev/null 2>"$tmp/err"; rc=$?
if [ $rc -eq 2 ] && grep -q "unknown device 'h1000'" "$tmp/err"; then ok llm_bad_device_exit2
else bad llm_bad_device_exit2 "rc $rc: $(head -2 "$tmp/err")"; fi
"$BIN" llm --model gpt2 --device h100 --dtype fp3 >/dev/null 2>"$tmp/err"; rc=$?
if [ $rc -eq 2 ] && grep -q "dtype" "$tmp/err"; then ok llm_bad_dtype_exit2
else bad llm_bad_dtype_exit2 "rc $rc: $(head -2 "$tmp/err")"; fi
echo '{"model_type": "llama", "hidden_size": 64}' >"$tmp/broken.json"
"$BIN" llm --config "$tmp/broken.json" --device h100 >/dev/null 2>"$tmp/err"; rc=$?
if [ $rc -eq 2 ] && grep -q "broken.json: field 'num_hidden_layers' is missing" "$tmp/err"; then ok llm_bad_config_exit2
else bad llm_bad_config_exit2 "rc $rc: $(head -2 "$tmp/err")"; fi
"$BIN" llm --model gpt2 --device h100 --seq 4096 >/dev/null 2>"$tmp/err"; rc=$?
if [ $rc -eq 2 ] && grep -q "max_position_embeddings" "$tmp/err"; then ok llm_seq_too_long_exit2
else bad llm_seq_too_long_exit2 "rc $rc: $(head -2 "$tmp/err")"; fi

# ---- issue 13 part 5: requests nothing could run are refused with the
# reason, exit 2, one line naming the flag and value (the old binary
# answered all of these with exit 0 and numbers)
refuse() { # name, grep pattern, dlperf llm args...
  local name=$1 pat=$2; shift 2
  "$BIN" llm "$@" >"$tmp/r.out" 2>"$tmp/r.err"; local rc=$?
  if [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/r.err")" = 1 ] && grep -q -- "$pat" "$tmp/r.err" && [ ! -s "$tmp/r.out" ]; then ok "$name"
  else bad "$name" "rc $rc: $(head -2 "$tmp/r.err")"; fi
}
# gpt2: 1024 positions; 1000 + 100 = 1100
refuse llm_refuse_gen_past_context "gen 100: prompt 1000 + 100 generated = 1100 tokens exceed .*max_position_embeddings 1024" \
  --model gpt2 --device h100-sxm --seq 1000 --gen 100
# vLLM <= 0.5 offline stops a sequence once it passes max_model_len (gpt2: 1024
# positions), so 1000 + 25 = 1025 runs there and 1000 + 26 does not; served
# (the OpenAI server's check) 1000 + 25 is refused
refuse llm_refuse_v0_offline_past_context "gen 26: prompt 1000 + 26 generated = 1026 tokens exceed" \
  --model gpt2 --device h100-sxm --seq 1000 --gen 26 --concurrency 4 --offline --engine vllm-v0
refuse llm_refuse_v0_served_past_context "gen 25: prompt 1000 + 25 generated = 1025 tokens exceed" \
  --model gpt2 --device h100-sxm --seq 1000 --gen 25 --concurrency 4 --engine vllm-v0
if "$BIN" llm --model gpt2 --device h100-sxm --seq 1000 --gen 25 --concurrency 4 --offline --engine vllm-v0 \
  >/dev/null 2>"$tmp/v0c.err"; then ok llm_v0_offline_context_plus_one; else bad llm_v0_offline_context_plus_one "$(head -1 "$tmp/v0c.err")"; fi
refuse llm_refuse_gen_encoder "gen 8: .*encoder-only model (bert)" --model bert-base-uncased --device a100 --gen 8
refuse llm_refuse_gen_encoder_roberta "encoder-only model (roberta)" --model roberta-base --device a100 --gen 1
refuse llm_refuse_tp_heads "gpus 5: .*12 attention heads.*5 does not divide 12" --model bert-base-uncased --device a100 --gpus 5
# Llama-3.1-8B: 32 heads, 8 KV heads: 4 splits them, 16 replicates (vLLM), 32/12 no
refuse llm_refuse_tp_heads_gqa "gpus 12: .*32 attention heads" --model meta-llama/Llama-3.1-8B --device h100-sxm --gpus 12
# Llama-2-70B in bf16: 68.98e9 x 2 B = 128.5 GiB on a 40 GB A100; a 128-token
# forward pass keeps no cache; its activations are small (the LM head's
# 128 x 32,000 x 2 B = 7.8 MiB of logits among them); + 1 GiB runtime
refuse llm_refuse_does_not_fit "does not fit on 1 x a100-40gb even at one request: needs 129.5 GiB per GPU (weights 128.5 + activations 0.0[0-9] + KV cache 0.00 + runtime 1.0) of 40.0 GiB" \
  --model llama-2-70b --device a100-40gb --dtype bf16
refuse llm_refuse_fp4_a100 "dtype mxfp4: a100-40gb has no FP4 or FP8 tensor cores" \
  --model openai/gpt-oss-120b --device a100-40gb --dtype fp4
refuse llm_refuse_kv_dtype "kv-dtype 'int4'" --model gpt2 --device h100-sxm --gen 8 --kv-dtype int4
# the same refusals answer once the request is sound
if "$BIN" llm --model gpt2 --device h100-sxm --seq 1000 --gen 24 >/dev/null 2>"$tmp/err" &&
   "$BIN" llm --model meta-llama/Llama-3.1-8B --device h100-sxm --gpus 16 --gen 8 >/dev/null 2>>"$tmp/err" &&
   "$BIN" llm --model llama-2-70b --device a100-40gb --dtype bf16 --gpus 4 >/dev/null 2>>"$tmp/err"; then ok llm_refusals_boundaries
else bad llm_refusals_boundaries "$(head -2 "$tmp/err")"; fi

# ---- issue 13 part 2: precisions.  gpt-oss-120b in mxfp4 on an H100 answers
# (weight-only: dequantised to bf16, as vLLM runs it); its weights are the
# released checkpoint's: experts 114.65e9 x 4.25 bits + 2.18e9 bf16 = 65.25 GB
if "$BIN" llm --model openai/gpt-oss-120b --device h100-sxm --dtype mxfp4 --json >"$tmp/oss.json" 2>"$tmp/err" &&
   python3 -c "$check_json" "$tmp/oss.json" h100-sxm 2>>"$tmp/err" && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
gb = d["weights_mb"] * 1048576 / 1e9
assert 65.0 < gb < 65.5, gb
assert d["dtype"] == "mxfp4" and d["compute_dtype"] == "bf16" and d["weight_only"] is True, d
assert d["method"] == "analytic", d["method"]
' "$tmp/oss.json" 2>>"$tmp/err"; then ok llm_gpt_oss_mxfp4_h100
else bad llm_gpt_oss_mxfp4_h100 "$(tail -3 "$tmp/err")"; fi
# Llama-3.1-8B: bytes per parameter and KV bytes per token per dtype, by hand.
# 8,030,261,248 params; 6,979,321,856 in Linear layers; 1,050,939,392 in the
# bf16 tables and norms.  Weights: bf16 2 B/param = 16.06 GB; fp8 1 + 4/16384
# B per Linear weight = 9.081 GB; int4 4.156 bits = 5.727 GB; nvfp4 4.5 bits =
# 5.9 GB.  KV per token: 2 x 32 x 8 x 128 = 65536 elements: 128 KiB bf16,
# 64 KiB fp8.  fp8 on an H100 runs on fp8 tensor cores, on an A100 weight-only.
okp=1
for q in bf16 fp8 int4 nvfp4; do
  "$BIN" llm --model meta-llama/Llama-3.1-8B --device h100-sxm --dtype "$q" --seq 1024 --gen 256 --json \
    >"$tmp/p_$q.json" 2>>"$tmp/err" && python3 -c "$check_json" "$tmp/p_$q.json" h100-sxm 2>>"$tmp/err" || okp=0
done
"$BIN" llm --model meta-llama/Llama-3.1-8B --device h100-sxm --dtype fp8 --kv-dtype fp8 --seq 1024 --gen 256 --json \
  >"$tmp/p_fp8kv.json" 2>>"$tmp/err" || okp=0
"$BIN" llm --model meta-llama/Llama-3.1-8B --device a100-40gb --dtype fp8 --seq 1024 --gen 256 --json \
  >"$tmp/p_fp8a.json" 2>>"$tmp/err" || okp=0
"$BIN" llm --model meta-llama/Llama-3.1-8B --device h100-sxm --dtype fp8 --seq 1024 --gen 256 \
  >"$tmp/p_fp8.txt" 2>>"$tmp/err" || okp=0
if [ "$okp" = 1 ] && grep -q "precision    weights fp8, compute fp8, KV cache bf16" "$tmp/p_fp8.txt" &&
   grep -q "analytic estimate: the trained models cover" "$tmp/p_fp8.txt" && python3 -c '
import json, sys
j = lambda n: json.load(open(f"{sys.argv[1]}/p_{n}.json"))
gb = {q: j(q)["weights_mb"] * 1048576 / 1e9 for q in ("bf16", "fp8", "int4", "nvfp4")}
assert abs(gb["bf16"] - 16.0605) < 1e-3, gb
assert abs(gb["fp8"] - (6979321856 * (1 + 4 / 16384) + 2 * 1050939392) / 1e9) < 1e-3, gb
assert abs(gb["int4"] - (6979321856 * 4.15625 / 8 + 2 * 1050939392) / 1e9) < 1e-3, gb
assert abs(gb["nvfp4"] - (6979321856 * 4.5 / 8 + 2 * 1050939392) / 1e9) < 2e-3, gb
assert j("bf16")["kv_bytes_per_seq"] == 1280 * 131072 and j("fp8")["kv_bytes_per_seq"] == 1280 * 131072
assert j("fp8kv")["kv_bytes_per_seq"] == 1280 * 65536 and j("fp8kv")["kv_dtype"] == "fp8"
assert j("fp8")["compute_dtype"] == "fp8" and j("fp8")["weight_only"] is False and j("fp8")["method"] == "analytic"
a = j("fp8a"); assert a["compute_dtype"] == "bf16" and a["weight_only"] is True, a
# decode reads the weights: fp8 is faster than bf16 on the same H100
assert j("fp8")["tokens_per_s"] > 1.4 * j("bf16")["tokens_per_s"], (j("fp8")["tokens_per_s"], j("bf16")["tokens_per_s"])
' "$tmp" 2>>"$tmp/err"; then ok llm_precisions
else bad llm_precisions "$(tail -3 "$tmp/err")"; fi

# --- serving (docs/llm.md, "Serving"): the JSON carries the serving block,
# text names TTFT/TPOT, bad serving flags exit 2 with one line naming them
sv_ok=1
"$BIN" llm --model Qwen/Qwen3-30B-A3B --device h100-sxm --gpus 2 --dtype bf16 --concurrency 256 --prompt 1024 \
  --gen 400 --json >"$tmp/sv.json" 2>"$tmp/sv.err" || sv_ok=0
"$BIN" llm --model openai/gpt-oss-120b --device h100-sxm --dtype mxfp4 --max-fit --json >"$tmp/sv2.json" 2>>"$tmp/sv.err" || sv_ok=0
"$BIN" llm --model meta-llama/Llama-3.1-8B-Instruct --device b200 --dtype fp8 --concurrency 8 --prompt 2048 \
  --gen 256 >"$tmp/sv.txt" 2>>"$tmp/sv.err" || sv_ok=0
grep -q "TTFT" "$tmp/sv.txt" && grep -q "TPOT" "$tmp/sv.txt" && grep -q "J per output token" "$tmp/sv.txt" || sv_ok=0
for args in "--concurrency 0" "--concurrency 8 --phase middle" "--concurrency 8 --mem-fraction 1.5" \
            "--ep 2" "--concurrency 8 --gen 0" "--concurrency 8 --ep 3 --gpus 3" "--max-fit --concurrency 4" \
            "--concurrency 8 --max-seqs 0" "--max-seqs 8"; do
  # shellcheck disable=SC2086
  "$BIN" llm --model Qwen/Qwen3-30B-A3B --device h100-sxm $args >/dev/null 2>"$tmp/sv1.err"; rc=$?
  [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/sv1.err")" = 1 ] || { sv_ok=0; echo "  '$args': exit $rc: $(head -2 "$tmp/sv1.err")" >>"$tmp/sv.err"; }
done
if [ "$sv_ok" = 1 ] && python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["serving"]
for k in ("ttft_ms", "tpot_ms", "e2e_ms", "output_tokens_per_s", "energy_per_request_j", "energy_per_token_j",
          "power_per_gpu_w", "kv_capacity_tokens", "max_concurrency", "concurrency", "analytic", "method"):
    assert k in s, k
assert s["power_per_gpu_w"] <= s["tdp_w"]
assert abs(s["e2e_ms"] - (s["ttft_ms"] + 399 * s["tpot_ms"])) < 1e-3 * s["e2e_ms"]
m = json.load(open(sys.argv[2]))["serving"]
assert m["concurrency"] == min(m["max_concurrency"], m["max_seqs"]) == m["running"] > 0, m
' "$tmp/sv.json" "$tmp/sv2.json" 2>>"$tmp/sv.err"; then ok llm_serving_cli
else bad llm_serving_cli "$(tail -4 "$tmp/sv.err")"; fi

# --- Poisson clients (--rate) and the engine (--engine): the text names the arrivals and the capacity,
# TTFT rises with the rate, the JSON says which client model; past the capacity, with --concurrency,
# a bad rate or engine: exit 2, one line (the overload names the capacity)
rt_ok=1
for r in 1 12; do
  "$BIN" llm --model meta-llama/Llama-3.1-8B-Instruct --device h100-sxm --prompt 1024 --gen 256 --rate $r --json \
    >"$tmp/rt$r.json" 2>>"$tmp/rt.err" || rt_ok=0
done
"$BIN" llm --model meta-llama/Llama-3.1-8B-Instruct --device h100-sxm --prompt 1024 --gen 256 --rate 2 \
  --engine vllm-v0 >"$tmp/rt.txt" 2>>"$tmp/rt.err" || rt_ok=0
grep -q "^  arrivals .* requests/s (Poisson; capacity .* requests/s)" "$tmp/rt.txt" &&
  grep -q "engine CPU" "$tmp/rt.txt" || rt_ok=0
"$BIN" llm --model meta-llama/Llama-3.1-8B-Instruct --device h100-sxm --prompt 1024 --gen 256 --rate 5000 \
  >/dev/null 2>"$tmp/rt1.err"; rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/rt1.err")" = 1 ] && grep -q "overloaded: capacity [0-9.]* req/s" "$tmp/rt1.err" ||
  { rt_ok=0; echo "  --rate 5000: exit $rc: $(head -2 "$tmp/rt1.err")" >>"$tmp/rt.err"; }
for args in "--rate 0" "--rate -3" "--rate nan" "--rate 2 --concurrency 8" "--rate 2 --max-fit" \
            "--concurrency 8 --engine tgi" "--engine vllm-v0" "--rate 2 --phase decode"; do
  # shellcheck disable=SC2086
  "$BIN" llm --model meta-llama/Llama-3.1-8B-Instruct --device h100-sxm $args >/dev/null 2>"$tmp/rt1.err"; rc=$?
  [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/rt1.err")" = 1 ] || { rt_ok=0; echo "  '$args': exit $rc: $(head -2 "$tmp/rt1.err")" >>"$tmp/rt.err"; }
done
if [ "$rt_ok" = 1 ] && python3 -c '
import json, sys
a, b = (json.load(open(f))["serving"] for f in sys.argv[1:3])
assert a["clients"] == b["clients"] == "poisson" and a["rate"] == 1 and b["rate"] == 12, (a, b)
assert a["engine"] == "modern" and a["capacity_rps"] > 12
assert b["ttft_ms"] > a["ttft_ms"] >= a["prefill_ms"] + a["request_ms"]
assert abs(a["requests_per_s"] - 1) < 1e-9 and abs(b["output_tokens_per_s"] - 12 * 256) < 1e-6
' "$tmp/rt1.json" "$tmp/rt12.json" 2>>"$tmp/rt.err"; then ok llm_rate_engine_cli
else bad llm_rate_engine_cli "$(tail -4 "$tmp/rt.err")"; fi

# --- the engine's scheduler and front end in TTFT (docs/llm.md, "Client models"): SGLang's
# prefill-first burst weighs a little more (0.17 against 0.14) and its front end is 149.4 ms, TensorRT-LLM's
# 46.8 against vLLM's 28.1 (h189's re-settled fit), so at 64 clients TTFT orders vLLM < TensorRT-LLM < SGLang,
# TensorRT-LLM 18.7 ms above vLLM plus, under its overlap scheduler, one decode step more in the staggered part
# (weight 1 - 0.14 = 0.86; the same burst weight); TPOT is the same CPU side
eg_ok=1
for e in modern sglang trtllm vllm; do
  "$BIN" llm --model meta-llama/Llama-3.1-8B-Instruct --device h100-sxm --dtype bf16 --prompt 1024 --gen 512 \
    --concurrency 64 --engine $e --json >"$tmp/eg_$e.json" 2>>"$tmp/eg.err" || eg_ok=0
done
if [ "$eg_ok" = 1 ] && python3 -c '
import json, sys
m, s, t, v = (json.load(open(f))["serving"] for f in sys.argv[1:5])
assert (m["engine"], s["engine"], t["engine"], v["engine"]) == ("modern", "sglang", "trtllm", "modern"), s
assert s["ttft_ms"] > t["ttft_ms"] > m["ttft_ms"] == v["ttft_ms"] > m["prefill_ms"] + m["request_ms"]
assert abs(t["ttft_ms"] - m["ttft_ms"] - (46.8 - 28.1) - 0.86 * t["decode_step_ms"]) < 1e-2, t
assert abs(t["request_ms"] - 46.8) < 1e-9 and t["decode_step_ms"] == m["decode_step_ms"], t
assert abs(s["request_ms"] - 149.4) < 1e-9 and abs(m["request_ms"] - 28.1) < 1e-9, (s, m)
assert s["tpot_ms"] == m["tpot_ms"] == t["tpot_ms"]
' "$tmp/eg_modern.json" "$tmp/eg_sglang.json" "$tmp/eg_trtllm.json" "$tmp/eg_vllm.json" 2>>"$tmp/eg.err"; then ok llm_engine_scheduler_cli
else bad llm_engine_scheduler_cli "$(tail -4 "$tmp/eg.err")"; fi

# --- offline (--offline: one batch through LLM.generate(), no API server; docs/llm.md, "Client
# models"): JSON clients "offline", no front end, TPOT = the decode step (no prompt arrives); vllm-v0
# offline takes its own CPU time a step (fitted on LLM-Inference-Bench's vLLM 0.5.3 rows, llm_serve.c
# VLLM_V0_OFFLINE_*): 64 prompts of 512 on one H100, 2.26 + 0.0658 x 64 = 6.4712 ms
# against 34.388 ms served; the text names the batch; --offline with --rate, or without a client
# count: exit 2, one line
of_ok=1
for o in "" "--offline"; do
  # shellcheck disable=SC2086
  "$BIN" llm --model meta-llama/Llama-3.1-8B-Instruct --device h100-sxm --dtype bf16 --prompt 512 --gen 256 \
    --concurrency 64 --max-seqs 64 --engine vllm-v0 $o --json >"$tmp/of$o.json" 2>>"$tmp/of.err" || of_ok=0
done
"$BIN" llm --model meta-llama/Llama-3.1-8B-Instruct --device h100-sxm --prompt 512 --gen 256 --concurrency 64 \
  --offline >"$tmp/of.txt" 2>>"$tmp/of.err" || of_ok=0
grep -q "^  concurrency  64 requests in one offline batch (no API server)" "$tmp/of.txt" || of_ok=0
for args in "--offline --rate 2" "--offline"; do
  # shellcheck disable=SC2086
  "$BIN" llm --model meta-llama/Llama-3.1-8B-Instruct --device h100-sxm $args >/dev/null 2>"$tmp/of1.err"; rc=$?
  [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/of1.err")" = 1 ] && grep -q offline "$tmp/of1.err" ||
    { of_ok=0; echo "  '$args': exit $rc: $(head -2 "$tmp/of1.err")" >>"$tmp/of.err"; }
done
if [ "$of_ok" = 1 ] && python3 -c '
import json, sys
s, o = (json.load(open(f))["serving"] for f in sys.argv[1:3])
assert s["clients"] == "closed_loop" and o["clients"] == "offline", (s["clients"], o["clients"])
assert abs(s["overhead_ms"] - 34.388) < 1e-3 and abs(o["overhead_ms"] - 6.4712) < 1e-3, (s, o)
assert o["request_ms"] == 0 < s["request_ms"] and o["tpot_ms"] == o["decode_step_ms"], o
assert abs(s["decode_step_ms"] - o["decode_step_ms"] - (34.388 - 6.4712)) < 1e-3
' "$tmp/of.json" "$tmp/of--offline.json" 2>>"$tmp/of.err"; then ok llm_offline_cli
else bad llm_offline_cli "$(tail -4 "$tmp/of.err")"; fi

# --- batch waiting (--batch-wait-iters N --batch-wait-tokens T: TensorRT-LLM's batch_wait_timeout_iters and
# batch_wait_max_tokens_ratio x max_num_tokens; docs/llm.md, "Batch waiting"): the JSON echoes both;
# Llama-3.1-8B on an H100, 4 clients of 1,024 / 1,024: the timeout binds (k = 20), mean wait
# 20 x 1.0390625 / 1.078125 = 19.2753623 decode steps in the steady TTFT, x 0.86 in TTFT (the
# steady share; test_llm_serve.c t_batch_wait_by_hand); TPOT the same; one flag without the other, or with
# another engine: exit 2, one line
bw_ok=1
for o in "" "--batch-wait-iters 20 --batch-wait-tokens 14746"; do
  # shellcheck disable=SC2086
  "$BIN" llm --model meta-llama/Llama-3.1-8B-Instruct --device h100-sxm --dtype bf16 --prompt 1024 --gen 1024 \
    --concurrency 4 --engine trtllm $o --json >"$tmp/bw${o:+1}.json" 2>>"$tmp/bw.err" || bw_ok=0
done
for args in "--engine trtllm --batch-wait-iters 20" "--engine sglang --batch-wait-iters 20 --batch-wait-tokens 100"; do
  # shellcheck disable=SC2086
  "$BIN" llm --model meta-llama/Llama-3.1-8B-Instruct --device h100-sxm --concurrency 4 $args >/dev/null \
    2>"$tmp/bw1.err"; rc=$?
  [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/bw1.err")" = 1 ] && grep -q "batch" "$tmp/bw1.err" ||
    { bw_ok=0; echo "  '$args': exit $rc: $(head -2 "$tmp/bw1.err")" >>"$tmp/bw.err"; }
done
if [ "$bw_ok" = 1 ] && python3 -c '
import json, sys
a, b = (json.load(open(f))["serving"] for f in sys.argv[1:3])
assert "batch_wait_iters" not in a and b["batch_wait_iters"] == 20 and b["batch_wait_tokens"] == 14746, b
d = b["decode_step_ms"]
assert abs(b["ttft_ms"] - a["ttft_ms"] - 0.86 * 19.2753623 * d) < 1e-3 * d and a["tpot_ms"] == b["tpot_ms"], (a, b)
' "$tmp/bw.json" "$tmp/bw1.json" 2>>"$tmp/bw.err"; then ok llm_batch_wait_cli
else bad llm_batch_wait_cli "$(tail -4 "$tmp/bw.err")"; fi

# --- redundant experts (--expert-slots N: EPLB's expert slots; docs/llm.md, "Redundant experts"):
# Qwen3-30B-A3B bf16 on 8 x H200, EP 8 = attention DP 8, 64 clients decoding: 136 slots = 17 experts a
# rank for 16, one more expert of 3 x 2048 x 768 weights x 48 layers x 2 B = 452,984,832 B = 432.0 MiB
# more weights per GPU (test_llm_serve.c t_expert_slots_by_hand); the JSON echoes the slots only where
# given; too few slots, slots not a multiple of --ep, a dense model, no client model: exit 2, one line
# naming --expert-slots
es_ok=1
ES="--model Qwen/Qwen3-30B-A3B-Instruct-2507 --device h200 --gpus 8 --ep 8 --attention-dp 8 --dtype bf16 --phase decode"
for o in "" "--expert-slots 136"; do
  # shellcheck disable=SC2086
  "$BIN" llm $ES --concurrency 64 $o --json >"$tmp/es${o:+1}.json" 2>>"$tmp/es.err" || es_ok=0
done
for args in "$ES --concurrency 64 --expert-slots 120" "$ES --concurrency 64 --expert-slots 140" \
            "--model meta-llama/Llama-3.1-8B-Instruct --device h100-sxm --concurrency 4 --expert-slots 8" \
            "--model Qwen/Qwen3-30B-A3B-Instruct-2507 --device h200 --expert-slots 136"; do
  # shellcheck disable=SC2086
  "$BIN" llm $args >/dev/null 2>"$tmp/es1.err"; rc=$?
  [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/es1.err")" = 1 ] && grep -q "expert-slots" "$tmp/es1.err" ||
    { es_ok=0; echo "  '$args': exit $rc: $(head -2 "$tmp/es1.err")" >>"$tmp/es.err"; }
done
if [ "$es_ok" = 1 ] && python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert "expert_slots" not in a["serving"] and b["serving"]["expert_slots"] == 136, b["serving"]
assert abs(b["weights_mb"] - a["weights_mb"] - 432.0) < 0.01, (a["weights_mb"], b["weights_mb"])
assert b["serving"]["tpot_ms"] > a["serving"]["tpot_ms"] and b["serving"]["comm_ms"] == a["serving"]["comm_ms"]
' "$tmp/es.json" "$tmp/es1.json" 2>>"$tmp/es.err"; then ok llm_expert_slots_cli
else bad llm_expert_slots_cli "$(tail -4 "$tmp/es.err")"; fi

# --- llm and predict agree on the same model (docs/llm.md, "llm and
# predict"): the catalogue's BERT-base against the independently exported
# examples/bert.onnx, and a Llama config against a plain-PyTorch export of
# the same dims (tools/examples/make_llama.py); time within 10 %; half
# precision as llm runs it: half weights, no torch.autocast (--no-amp).
# Memory is not compared since issue 22's one memory story: llm's is the
# serving engines' (1 GiB runtime reserve, FlashAttention-sized activations),
# predict's eager PyTorch's (512 MiB context + 10 % allocator); docs/llm.md
ag_ok=1
agree() { # name llm-args predict-args
  "$BIN" llm $2 --analytic --json >"$tmp/ag_l.json" 2>>"$tmp/ag.err" &&
  "$BIN" predict $3 --json >"$tmp/ag_p.json" 2>>"$tmp/ag.err" &&
  python3 -c '
import json, sys
l, p = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
dt = l["latency_ms"] / p["latency_ms"] - 1
assert abs(dt) <= 0.10, (sys.argv[3], l["latency_ms"], p["latency_ms"])
' "$tmp/ag_l.json" "$tmp/ag_p.json" "$1" 2>>"$tmp/ag.err" || ag_ok=0
}
# shellcheck disable=SC2086
agree bert-fp32 "--model bert-base-uncased --device a100-40gb --batch 8 --seq 128 --dtype fp32" \
  "examples/bert.onnx --device a100-40gb --batch 8 --seq 128 --dtype fp32"
agree bert-fp16 "--model bert-base-uncased --device h100-sxm --batch 32 --seq 128 --dtype fp16" \
  "examples/bert.onnx --device h100-sxm --batch 32 --seq 128 --dtype fp16 --no-amp"
agree llama-fp32 "--config tests/golden/llama/config.json --device a100-40gb --batch 8 --seq 512 --dtype fp32" \
  "tests/golden/llama/llama-small.onnx --device a100-40gb --batch 8 --seq 512 --dtype fp32"
agree llama-bf16 "--config tests/golden/llama/config.json --device h100-sxm --batch 4 --seq 1024 --dtype bf16" \
  "tests/golden/llama/llama-small.onnx --device h100-sxm --batch 4 --seq 1024 --dtype bf16 --no-amp"
if [ "$ag_ok" = 1 ]; then ok llm_predict_agree
else bad llm_predict_agree "$(tail -2 "$tmp/ag.err")"; fi

# --- no --dtype: the checkpoint's own format where the GPU runs it (fp8 weight-only on an A100,
# as vLLM's Marlin path), else fp16 (mxfp4 on an A100: no kernel; gpt-oss-20b's 39.0 GiB of fp16
# weights + its prompt's activations + 1 GiB runtime do not fit one 40 GiB A100: two GPUs)
df_ok=1
for spec in "deepseek-ai/DeepSeek-V3 h200 8 fp8" "openai/gpt-oss-120b h100-sxm 1 mxfp4" \
            "nvidia/Llama-3.1-8B-Instruct-FP8 h100-sxm 1 fp8" "meta-llama/Llama-3.1-8B-Instruct h100-sxm 1 fp16" \
            "nvidia/Llama-3.1-8B-Instruct-FP8 a100-40gb 1 fp8" "openai/gpt-oss-20b a100-40gb 2 fp16"; do
  set -- $spec
  got=$("$BIN" llm --model "$1" --device "$2" --gpus "$3" --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["dtype"])' 2>/dev/null)
  [ "$got" = "$4" ] || { df_ok=0; echo "  $1 on $2: dtype '$got', want $4" >>"$tmp/df.err"; }
done
if [ "$df_ok" = 1 ]; then ok llm_default_dtype_checkpoint
else bad llm_default_dtype_checkpoint "$(head -3 "$tmp/df.err")"; fi

# --- VLMs (issue 22): --images derives the tokens from the model's patch/merge config (Qwen3-VL:
# 32 px per token, 1024x768 -> 32 x 24 = 768), the tower shows in the JSON; a text-only model refuses
# image flags, and --images with --image-tokens is refused (exit 2 each)
vl_ok=1
"$BIN" llm --model Qwen/Qwen3-VL-8B-Instruct --device h100-sxm --concurrency 8 --prompt 256 --images 1 \
  --image-size 1024x768 --gen 64 --json >"$tmp/vl.json" 2>"$tmp/vl.err" &&
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["image_tokens"]==768 and d["vision_ms"]>0 and d["vision_params"]>5e8, d' \
    "$tmp/vl.json" 2>>"$tmp/vl.err" || vl_ok=0
for args in "--model meta-llama/Llama-3.1-8B-Instruct --images 1" "--model meta-llama/Llama-3.1-8B-Instruct --image-tokens 16" \
            "--model Qwen/Qwen3-VL-8B-Instruct --images 1 --image-tokens 16" "--model Qwen/Qwen3-VL-8B-Instruct --image-size 10by10"; do
  "$BIN" llm $args --device h100-sxm --concurrency 4 >/dev/null 2>"$tmp/vl1.err"
  rc=$?
  [ $rc = 2 ] && [ "$(wc -l <"$tmp/vl1.err")" = 1 ] || { vl_ok=0; echo "  $args: rc $rc $(head -1 "$tmp/vl1.err")" >>"$tmp/vl.err"; }
done
if [ "$vl_ok" = 1 ]; then ok llm_vlm_images
else bad llm_vlm_images "$(tail -3 "$tmp/vl.err")"; fi

# --- --model: a folder with config.json, or a Hugging Face id in the local hub cache (offline), on a
# fixture tree made here; torch_dtype bfloat16 makes bf16 the default format (issue 22)
hb_ok=1
snap="$tmp/hub/models--acme--tiny-llm/snapshots/abc123"
mkdir -p "$snap" "$tmp/hub/models--acme--tiny-llm/refs" "$tmp/home/hub/models--acme--other/snapshots/r1" "$tmp/myft"
cat >"$snap/config.json" <<'JSON'
{"model_type": "llama", "hidden_size": 1024, "intermediate_size": 4096, "num_hidden_layers": 8,
 "num_attention_heads": 16, "num_key_value_heads": 4, "vocab_size": 32000, "max_position_embeddings": 8192,
 "torch_dtype": "bfloat16"}
JSON
echo abc123 >"$tmp/hub/models--acme--tiny-llm/refs/main"
cp "$snap/config.json" "$tmp/home/hub/models--acme--other/snapshots/r1/config.json"
sed 's/"bfloat16"/"float16"/' "$snap/config.json" >"$tmp/myft/config.json"
HF_HUB_CACHE="$tmp/hub" "$BIN" llm --model acme/tiny-llm --device h100-sxm --json >"$tmp/hb1.json" 2>"$tmp/hb.err" &&
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["model"]=="acme/tiny-llm" and d["dtype"]=="bf16", d' "$tmp/hb1.json" 2>>"$tmp/hb.err" || hb_ok=0
HF_HUB_CACHE= HF_HOME="$tmp/home" "$BIN" llm --model acme/other --device h100-sxm --concurrency 4 >/dev/null 2>>"$tmp/hb.err" || hb_ok=0
"$BIN" llm --model "$tmp/myft" --device h100-sxm --json >"$tmp/hb3.json" 2>>"$tmp/hb.err" &&
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["dtype"]=="fp16", d' "$tmp/hb3.json" 2>>"$tmp/hb.err" || hb_ok=0
HF_HUB_CACHE="$tmp/hub" HF_HOME="$tmp/home" HOME="$tmp" "$BIN" llm --model acme/missing --device h100-sxm >/dev/null 2>"$tmp/hb4.err"
[ $? = 2 ] && grep -q "Hugging Face cache" "$tmp/hb4.err" || { hb_ok=0; cat "$tmp/hb4.err" >>"$tmp/hb.err"; }
if [ "$hb_ok" = 1 ]; then ok llm_model_folder_and_hub_cache
else bad llm_model_folder_and_hub_cache "$(tail -3 "$tmp/hb.err")"; fi

# --- the 2025-26 served families from a folder and from the hub cache (issue 22, scope 5): the
# catalogue's Nemotron-Nano-12B-v2-VL config (llm_config + a RADIO vision_config) as a fine-tune in
# the hub cache, and Qwen3-Omni's (thinker_config) as a folder: each parses to the catalogue model's
# counts, and the VL counts InternVL tiles: 1024x768 -> 4 x 3 tiles + a thumbnail, 256 tokens each = 3,328
nf_ok=1
nsnap="$tmp/hub2/models--acme--nano-vl-ft/snapshots/r2"
mkdir -p "$nsnap" "$tmp/omni"
jq '.models[] | select(.id == "nvidia/NVIDIA-Nemotron-Nano-12B-v2-VL-BF16") | .config' data/llm_configs.json >"$nsnap/config.json"
jq '.models[] | select(.id == "Qwen/Qwen3-Omni-30B-A3B-Instruct") | .config' data/llm_configs.json >"$tmp/omni/config.json"
for pair in "acme/nano-vl-ft nvidia/NVIDIA-Nemotron-Nano-12B-v2-VL-BF16" "$tmp/omni Qwen/Qwen3-Omni-30B-A3B-Instruct"; do
  set -- $pair
  HF_HUB_CACHE="$tmp/hub2" "$BIN" llm --model "$1" --device h100-sxm --concurrency 8 --prompt 256 --gen 64 --images 1 \
    --image-size 1024x768 --json >"$tmp/nf1.json" 2>>"$tmp/nf.err" &&
  "$BIN" llm --model "$2" --device h100-sxm --concurrency 8 --prompt 256 --gen 64 --images 1 --image-size 1024x768 \
    --json >"$tmp/nf2.json" 2>>"$tmp/nf.err" &&
  python3 -c 'import json,sys; a,b=[json.load(open(f)) for f in sys.argv[1:3]]
assert a["params"]==b["params"] and a["vision_params"]==b["vision_params"]>0 and a["image_tokens"]==b["image_tokens"], (a, b)
assert sys.argv[3]!="acme/nano-vl-ft" or a["image_tokens"]==3328, a["image_tokens"]' "$tmp/nf1.json" "$tmp/nf2.json" "$1" \
    2>>"$tmp/nf.err" || { nf_ok=0; echo "  $1" >>"$tmp/nf.err"; }
done
if [ "$nf_ok" = 1 ]; then ok llm_new_families_folder_and_hub_cache
else bad llm_new_families_folder_and_hub_cache "$(tail -3 "$tmp/nf.err")"; fi

# --- copies of one prompt (--same-prompts, docs/llm.md "Copies of one prompt") and SGLang's
# --max-prefill-tokens (docs/llm.md, h186) change the answer where they should (issue 22, scope 8):
# an MoE's copies hit one token's experts, so its TPOT is no slower at 16 clients; a dense model
# answers alike; a 1,024-token prompt under 2,048 max prefill tokens batches alone on an SGLang
# prefill worker (1,024 + 1,024 is not < 2,048), so its prefill_ms is the lone prompt's (vLLM's
# prefill worker prices every prompt alone) and above SGLang's default (8 a batch); an aggregated
# SGLang server or another engine: refused (exit 2), as is either flag without a serving client
sp_ok=1
spj() { "$BIN" llm --device h100-sxm --dtype bf16 "$@" --json 2>>"$tmp/sp.err" |
  python3 -c 'import json,sys; s=json.load(sys.stdin)["serving"]; print(s["ttft_ms"], s["tpot_ms"], s["prefill_ms"])'; }
sv="--concurrency 16 --prompt 1024 --gen 256"
read -r _ moe1 _ <<<"$(spj --model Qwen/Qwen3-30B-A3B $sv)"
read -r _ moe2 _ <<<"$(spj --model Qwen/Qwen3-30B-A3B $sv --same-prompts)"
python3 -c 'import sys; a,b=map(float,sys.argv[1:3]); assert b<=a and b<0.9*a, (a,b)' "$moe1" "$moe2" 2>>"$tmp/sp.err" || sp_ok=0
[ "$(spj --model meta-llama/Llama-3.1-8B-Instruct $sv)" = "$(spj --model meta-llama/Llama-3.1-8B-Instruct $sv --same-prompts)" ] ||
  { sp_ok=0; echo "dense model moved" >>"$tmp/sp.err"; }
pw="--model meta-llama/Llama-3.1-8B-Instruct --phase prefill --concurrency 16 --prompt 1024"
read -r _ _ pf_small <<<"$(spj $pw --engine sglang --max-prefill-tokens 2048)"
read -r _ _ pf_def <<<"$(spj $pw --engine sglang)"
read -r _ _ pf_alone <<<"$(spj $pw)"
python3 -c 'import sys; s,d,a=map(float,sys.argv[1:4]); assert s==a and d<s, (s,d,a)' "$pf_small" "$pf_def" "$pf_alone" \
  2>>"$tmp/sp.err" || sp_ok=0
for bad_args in "$pw --max-prefill-tokens 2048" "--model meta-llama/Llama-3.1-8B-Instruct --engine sglang --concurrency 16 --max-prefill-tokens 2048" \
    "--model Qwen/Qwen3-30B-A3B --same-prompts" "--model meta-llama/Llama-3.1-8B-Instruct --engine sglang --max-prefill-tokens 2048"; do
  "$BIN" llm --device h100-sxm $bad_args >/dev/null 2>"$tmp/sp1.err"
  [ $? = 2 ] || { sp_ok=0; echo "not refused: $bad_args" >>"$tmp/sp.err"; }
done
if [ "$sp_ok" = 1 ]; then ok llm_same_prompts_max_prefill_tokens
else bad llm_same_prompts_max_prefill_tokens "$(tail -3 "$tmp/sp.err")"; fi
