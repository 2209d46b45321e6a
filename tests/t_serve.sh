#!/usr/bin/env bash
# t_serve.sh — `dlperf serve` end to end over real sockets (docs/serve.md):
# starts the server on a random free high port, exercises every endpoint
# with curl, checks that /api/predict, /api/llm and /api/mig answer exactly
# what `dlperf predict|llm|mig --json` print for the same input, sends every
# kind of bad request (each must be a JSON 4xx/5xx, and the server must keep
# serving), checks the limits (upload cap, parse cap, timeout), the access
# log, runs the real-browser test of the page (tests/browser/page.test.mjs,
# Debian's chromium driven by playwright-core), and stops the server with
# SIGTERM, which must exit 0 promptly.  PASS/FAIL lines for tests/run.sh.
#
# Works with the sanitized build too (make sanitize: BUILD=build-san): the
# waits scale with SLOW (3 under ASan).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
BIN="$BUILD/dlperf"
MODEL=examples/resnet18.onnx
SLOW=1
case "$BUILD" in *san*) SLOW=3 ;; esac
tmp=$(mktemp -d /tmp/dlp_t_serve.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM   # through the EXIT trap: no server outlives the test

ok() { echo "PASS $1"; }
bad() { echo "FAIL $1${2:+: $2}"; }

if ! command -v curl >/dev/null 2>&1; then
  bad serve "curl is not installed (scripts/setup.sh installs it)"
  exit 0
fi

# ---- start a server: random high port, retried if taken; sets PORT, SPID -------
# start_server LOGFILE [serve flags...]
start_server() {
  local log=$1; shift
  local try
  for try in 1 2 3 4 5 6; do
    PORT=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
    # stdout away from the caller's pipe, or a lingering process would hold it
    "$BIN" serve --port "$PORT" "$@" >/dev/null 2>"$log" &
    SPID=$!
    pids+=("$SPID")
    local i
    for i in $(seq 1 $((100 * SLOW))); do
      if ! kill -0 "$SPID" 2>/dev/null; then break; fi   # died: port taken, try another
      if [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$PORT/api/health")" = 200 ]; then
        return 0
      fi
      sleep 0.1
    done
    kill -KILL "$SPID" 2>/dev/null; wait "$SPID" 2>/dev/null
  done
  return 1
}

TIMEOUT=$((4 * SLOW))
if ! start_server "$tmp/server.log" --max-upload 2M --threads 4 --timeout "$TIMEOUT"; then
  bad serve_start "server did not answer /api/health: $(tail -3 "$tmp/server.log")"
  exit 0
fi
MAIN_PID=$SPID
MAIN_PORT=$PORT
U="http://127.0.0.1:$MAIN_PORT"
ok serve_start

# req NAME [curl args...]: body to $tmp/NAME.body, headers to $tmp/NAME.hdr, status echoed
req() {
  local name=$1 code; shift
  rm -f "$tmp/$name.hdr"
  code=$(curl -s --max-time $((30 * SLOW)) -o "$tmp/$name.body" -D "$tmp/$name.hdr" -w '%{http_code}' "$@")
  # an over-cap upload without "Expect: 100-continue" is answered (413) and the
  # connection closed while curl is still sending; curl then reports 000 for
  # its send error although the answer arrived: take the status it received
  if [ "$code" = 000 ] && [ -s "$tmp/$name.hdr" ]; then
    code=$(awk '/^HTTP\//{c=$2} END{print c}' "$tmp/$name.hdr")
  fi
  echo "${code:-000}"
}
# same_json A B [KEY_TO_IGNORE...]: the two JSON objects are equal
same_json() {
  python3 - "$@" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for k in sys.argv[3:]:
    a.pop(k, None); b.pop(k, None)
if a != b:
    diff = [k for k in set(a) | set(b) if a.get(k) != b.get(k)]
    print("differ in", sorted(diff)[:8], file=sys.stderr)
    sys.exit(1)
PY
}

# llm_equals_cli NAME ID JSON FIELD -- CLI-ARGS...: /api/llm answers JSON with 200, the same
# object as `dlperf llm CLI-ARGS --json`, and its body carries FIELD (a fixed string)
llm_equals_cli() {
  local name=$1 id=$2 json=$3 field=$4 st; shift 5
  st=$(req "$id" -d "$json" "$U/api/llm")
  "$BIN" llm "$@" --json >"$tmp/$id.cli" 2>/dev/null
  if [ "$st" = 200 ] && same_json "$tmp/$id.body" "$tmp/$id.cli" 2>"$tmp/err" && grep -q "$field" "$tmp/$id.body"
  then ok "$name"
  else bad "$name" "status $st $(head -c 300 "$tmp/$id.body") $(cat "$tmp/err")"; fi
}
# llm_refused NAME ID JSON TEXT: /api/llm answers JSON with 400 and a body naming TEXT
llm_refused() {
  local st; st=$(req "$2" -d "$3" "$U/api/llm")
  if [ "$st" = 400 ] && grep -q "$4" "$tmp/$2.body"; then ok "$1"
  else bad "$1" "status $st $(head -c 300 "$tmp/$2.body")"; fi
}

# ---- endpoints ---------------------------------------------------------------------
st=$(req health "$U/api/health")
if [ "$st" = 200 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["status"]=="ok" and d["version"]' "$tmp/health.body" 2>/dev/null
then ok serve_health; else bad serve_health "status $st"; fi

st=$(req devices "$U/api/devices")
"$BIN" devices --json >"$tmp/devices_cli.json" 2>/dev/null
if [ "$st" = 200 ] && python3 - "$tmp/devices.body" "$tmp/devices_cli.json" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert [d["id"] for d in a["devices"]] == [d["id"] for d in b["devices"]]
a100 = [d for d in a["devices"] if d["id"] == "a100-40gb"][0]
assert a100["mig"][0] == "1g.5gb" and a100["memory_gib"] == 40
# the kind of every device, as `dlperf devices --json` says it
assert [d["kind"] for d in a["devices"]] == [d["kind"] for d in b["devices"]]
assert any(d["kind"] == "cpu" for d in a["devices"]) and a100["kind"] == "gpu"
assert a["default_region"] and any(r["id"] == "eu" for r in a["regions"])
PY
then ok serve_devices; else bad serve_devices "status $st"; fi

st=$(req models "$U/api/models")
"$BIN" llm --list --json >"$tmp/models_cli.json" 2>/dev/null
if [ "$st" = 200 ] && python3 - "$tmp/models.body" "$tmp/models_cli.json" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert [e["id"] for e in a["examples"]] == ["resnet18"]
assert a["llm"] == b["models"], "llm catalogue differs from dlperf llm --list --json"
assert len(a["trained_models"]) == len(b["trained_models"])
PY
then ok serve_models; else bad serve_models "status $st"; fi

st=$(req page "$U/")
if [ "$st" = 200 ] && grep -qi '^content-type: text/html' "$tmp/page.hdr" &&
   grep -qi "^content-security-policy: default-src 'none'" "$tmp/page.hdr" &&
   grep -q 'id="form-onnx"' "$tmp/page.body" && grep -q 'id="form-llm"' "$tmp/page.body" &&
   ! grep -Eq '(src|href)="https?://' "$tmp/page.body" &&
   [ "$(curl -s -o /dev/null -w '%{http_code}' -I "$U/index.html")" = 200 ]
then ok serve_page; else bad serve_page "status $st"; fi

# /api/predict: an upload, and a shipped example by JSON, by form, with dims
st=$(req p1 -F "model=@$MODEL" -F batch=32 -F device=h100-sxm "$U/api/predict")
"$BIN" predict "$MODEL" --batch 32 --device h100-sxm --json >"$tmp/p1.cli" 2>/dev/null
if [ "$st" = 200 ] && same_json "$tmp/p1.body" "$tmp/p1.cli" 2>"$tmp/err"; then ok serve_predict_upload_equals_cli
else bad serve_predict_upload_equals_cli "status $st $(head -c 300 "$tmp/p1.body") $(cat "$tmp/err")"; fi

st=$(req p2 -H 'Content-Type: application/json' \
  -d '{"example":"resnet18","batch":8,"device":"a100-40gb","mode":"train","dtype":"bf16","steps":1000,"region":"eu"}' \
  "$U/api/predict")
"$BIN" predict "$MODEL" --batch 8 --device a100-40gb --mode train --dtype bf16 --steps 1000 --region eu --json \
  >"$tmp/p2.cli" 2>/dev/null
if [ "$st" = 200 ] && same_json "$tmp/p2.body" "$tmp/p2.cli" 2>"$tmp/err"; then ok serve_predict_example_json_equals_cli
else bad serve_predict_example_json_equals_cli "status $st $(head -c 300 "$tmp/p2.body") $(cat "$tmp/err")"; fi

st=$(req p3 -d 'example=resnet18&batch=16&device=t4&runs=1e6&dtype=fp16' "$U/api/predict")
"$BIN" predict "$MODEL" --batch 16 --device t4 --runs 1e6 --dtype fp16 --json >"$tmp/p3.cli" 2>/dev/null
if [ "$st" = 200 ] && same_json "$tmp/p3.body" "$tmp/p3.cli" 2>"$tmp/err"; then ok serve_predict_form_equals_cli
else bad serve_predict_form_equals_cli "status $st $(head -c 300 "$tmp/p3.body") $(cat "$tmp/err")"; fi

st=$(req p4 -d '{"example":"resnet18","dims":{"batch_size":4},"device":"l4","runtime":"tensorrt"}' "$U/api/predict")
"$BIN" predict "$MODEL" --dim batch_size=4 --device l4 --runtime tensorrt --json >"$tmp/p4.cli" 2>/dev/null
if [ "$st" = 200 ] && same_json "$tmp/p4.body" "$tmp/p4.cli" 2>"$tmp/err"; then ok serve_predict_dims_equals_cli
else bad serve_predict_dims_equals_cli "status $st $(head -c 300 "$tmp/p4.body") $(cat "$tmp/err")"; fi

# the cuDNN generation reaches the prediction (a grouped-conv training step
# differs between 8 and 9, so a dropped field would not match the CLI)
RG=data/models/torchvision/regnet_y_1_6gf.onnx
st=$(req p5 -F "model=@$RG" -F device=rtx3090 -F batch=8 -F mode=train -F dtype=fp16 -F cudnn=8 \
  -F 'dims={"height":224,"width":224}' "$U/api/predict")
"$BIN" predict "$RG" --dim height=224 --dim width=224 --device rtx3090 --batch 8 --mode train --dtype fp16 \
  --cudnn 8 --json >"$tmp/p5.cli" 2>/dev/null
"$BIN" predict "$RG" --dim height=224 --dim width=224 --device rtx3090 --batch 8 --mode train --dtype fp16 \
  --cudnn 9 --json >"$tmp/p5.cli9" 2>/dev/null
if [ "$st" = 200 ] && same_json "$tmp/p5.body" "$tmp/p5.cli" 2>"$tmp/err" && ! cmp -s "$tmp/p5.cli" "$tmp/p5.cli9"
then ok serve_predict_cudnn_equals_cli
else bad serve_predict_cudnn_equals_cli "status $st $(head -c 300 "$tmp/p5.body") $(cat "$tmp/err")"; fi
st=$(req p6 -d '{"example":"resnet18","device":"t4","cudnn":7}' "$U/api/predict")
if [ "$st" = 400 ] && grep -q "field 'cudnn'" "$tmp/p6.body"; then ok serve_predict_cudnn_out_of_range_400
else bad serve_predict_cudnn_out_of_range_400 "status $st $(head -c 300 "$tmp/p6.body")"; fi

# /api/llm: the issue's example, a form with more fields, and a config.json
st=$(req l1 -d '{"model":"bert-base-uncased","batch":64,"seq":128,"dtype":"fp16","device":"a100-40gb"}' "$U/api/llm")
"$BIN" llm --model bert-base-uncased --batch 64 --seq 128 --dtype fp16 --device a100-40gb --json >"$tmp/l1.cli" 2>/dev/null
if [ "$st" = 200 ] && same_json "$tmp/l1.body" "$tmp/l1.cli" 2>"$tmp/err"; then ok serve_llm_equals_cli
else bad serve_llm_equals_cli "status $st $(head -c 300 "$tmp/l1.body") $(cat "$tmp/err")"; fi

st=$(req l2 -F model=meta-llama/Llama-2-7b-hf -F batch=4 -F seq=512 -F gen=32 -F dtype=nf4 -F device=h100-sxm \
  -F region=fr -F samples=1000 -F analytic=true "$U/api/llm")
"$BIN" llm --model meta-llama/Llama-2-7b-hf --batch 4 --seq 512 --gen 32 --dtype nf4 --device h100-sxm --region fr \
  --samples 1000 --analytic --json >"$tmp/l2.cli" 2>/dev/null
if [ "$st" = 200 ] && same_json "$tmp/l2.body" "$tmp/l2.cli" 2>"$tmp/err"; then ok serve_llm_form_equals_cli
else bad serve_llm_form_equals_cli "status $st $(head -c 300 "$tmp/l2.body") $(cat "$tmp/err")"; fi

# MTP speculative decoding reaches /api/llm as --mtp/--mtp-accepted reach the CLI
llm_equals_cli serve_llm_mtp_equals_cli l3 '{"model":"meta-llama/Llama-3.1-8B-Instruct","device":"h100-sxm","concurrency":8,"prompt":1024,"gen":256,"mtp":1,"mtp_accepted":0.8}' '"mtp_tokens":1' -- --model meta-llama/Llama-3.1-8B-Instruct --device h100-sxm --concurrency 8 --prompt 1024 --gen 256 \
  --mtp 1 --mtp-accepted 0.8
llm_refused serve_llm_mtp_accepted_out_of_range_400 l4 '{"model":"meta-llama/Llama-3.1-8B-Instruct","device":"h100-sxm","concurrency":8,"mtp":2,"mtp_accepted":2.5}' "field 'mtp_accepted'"

# SGLang's receive interval reaches /api/llm as --recv-interval reaches the CLI; on another engine: 400
llm_equals_cli serve_llm_recv_interval_equals_cli l7 '{"model":"meta-llama/Llama-3.1-8B-Instruct","device":"h100-sxm","engine":"sglang","concurrency":32,"recv_interval":30}' '"recv_interval":30' -- --model meta-llama/Llama-3.1-8B-Instruct --device h100-sxm --engine sglang --concurrency 32 \
  --recv-interval 30
llm_refused serve_llm_recv_interval_other_engine_400 l8 '{"model":"meta-llama/Llama-3.1-8B-Instruct","device":"h100-sxm","engine":"vllm","concurrency":32,"recv_interval":30}' "engine sglang"

# TensorRT-LLM's attention-DP balance reaches /api/llm as --adp-balance-iters reaches the CLI; without attention DP: 400
llm_equals_cli serve_llm_adp_balance_equals_cli l9 '{"model":"deepseek-ai/DeepSeek-R1","device":"h200","gpus":8,"ep":8,"attention_dp":8,"dtype":"fp8","engine":"trtllm","concurrency":128,"adp_balance_iters":60}' '"adp_balance_iters":60' -- --model deepseek-ai/DeepSeek-R1 --device h200 --gpus 8 --ep 8 --attention-dp 8 --dtype fp8 --engine trtllm \
  --concurrency 128 --adp-balance-iters 60
llm_refused serve_llm_adp_balance_no_adp_400 l10 '{"model":"deepseek-ai/DeepSeek-R1","device":"h200","gpus":8,"ep":8,"dtype":"fp8","engine":"trtllm","concurrency":128,"adp_balance_iters":60}' "attention DP > 1"

# TensorRT-LLM's TRTLLM MoE backend reaches /api/llm as --trtllm-gen-moe reaches the CLI; another engine: 400
llm_equals_cli serve_llm_trtllm_gen_moe_equals_cli l11 '{"model":"deepseek-ai/DeepSeek-R1","device":"b200","gpus":8,"dtype":"fp8","engine":"trtllm","concurrency":4,"trtllm_gen_moe":true}' '"trtllm_gen_moe":true' -- --model deepseek-ai/DeepSeek-R1 --device b200 --gpus 8 --dtype fp8 --engine trtllm --concurrency 4 \
  --trtllm-gen-moe
llm_refused serve_llm_trtllm_gen_moe_other_engine_400 l12 '{"model":"deepseek-ai/DeepSeek-R1","device":"b200","gpus":8,"dtype":"fp8","engine":"sglang","concurrency":4,"trtllm_gen_moe":true}' "engine trtllm"

# copies of one prompt reach /api/llm as --same-prompts reaches the CLI (an MoE: the copies hit one
# token's experts); not a serving call: 400
llm_equals_cli serve_llm_same_prompts_equals_cli l13 '{"model":"Qwen/Qwen3-30B-A3B","device":"h100-sxm","dtype":"bf16","concurrency":16,"prompt":1024,"gen":256,"same_prompts":true}' '"same_prompts":true' -- --model Qwen/Qwen3-30B-A3B --device h100-sxm --dtype bf16 --concurrency 16 --prompt 1024 --gen 256 \
  --same-prompts
llm_refused serve_llm_same_prompts_not_serving_400 l14 '{"model":"Qwen/Qwen3-30B-A3B","device":"h100-sxm","same_prompts":true}' "'same_prompts' is a serving field"

# SGLang's max prefill tokens reach /api/llm as --max-prefill-tokens reaches the CLI; another engine, an
# aggregated server (where nothing models it), a count of 0: 400
llm_equals_cli serve_llm_max_prefill_tokens_equals_cli l15 '{"model":"meta-llama/Llama-3.1-8B-Instruct","device":"h100-sxm","dtype":"bf16","engine":"sglang","phase":"prefill","concurrency":16,"prompt":1024,"max_prefill_tokens":2048}' '"max_prefill_tokens":2048' -- --model meta-llama/Llama-3.1-8B-Instruct --device h100-sxm --dtype bf16 --engine sglang --phase prefill \
  --concurrency 16 --prompt 1024 --max-prefill-tokens 2048
st=$(req l16 -d '{"model":"meta-llama/Llama-3.1-8B-Instruct","device":"h100-sxm","engine":"vllm","phase":"prefill","concurrency":16,"max_prefill_tokens":2048}' "$U/api/llm")
st2=$(req l17 -d '{"model":"meta-llama/Llama-3.1-8B-Instruct","device":"h100-sxm","engine":"sglang","concurrency":16,"max_prefill_tokens":2048}' "$U/api/llm")
st3=$(req l18 -d '{"model":"meta-llama/Llama-3.1-8B-Instruct","device":"h100-sxm","engine":"sglang","phase":"prefill","concurrency":16,"max_prefill_tokens":0}' "$U/api/llm")
if [ "$st" = 400 ] && grep -q "engine sglang" "$tmp/l16.body" && [ "$st2" = 400 ] && grep -q "phase prefill" "$tmp/l17.body" &&
   [ "$st3" = 400 ] && grep -q "max_prefill_tokens" "$tmp/l18.body"
then ok serve_llm_max_prefill_tokens_refusals_400
else bad serve_llm_max_prefill_tokens_refusals_400 "status $st $st2 $st3 $(head -c 200 "$tmp/l16.body") $(head -c 200 "$tmp/l17.body") $(head -c 200 "$tmp/l18.body")"; fi

# redundant experts reach /api/llm as --expert-slots reaches the CLI; too few slots: 400 naming the field's flag
llm_equals_cli serve_llm_expert_slots_equals_cli l5 '{"model":"Qwen/Qwen3-30B-A3B-Instruct-2507","device":"h200","gpus":8,"ep":8,"attention_dp":8,"dtype":"bf16","phase":"decode","concurrency":64,"expert_slots":136}' '"expert_slots":136' -- --model Qwen/Qwen3-30B-A3B-Instruct-2507 --device h200 --gpus 8 --ep 8 --attention-dp 8 --dtype bf16 \
  --phase decode --concurrency 64 --expert-slots 136
llm_refused serve_llm_expert_slots_too_few_400 l6 '{"model":"Qwen/Qwen3-30B-A3B-Instruct-2507","device":"h200","gpus":8,"ep":8,"concurrency":8,"expert_slots":100}' "expert-slots 100: fewer than"

mkdir -p "$tmp/cfg"
python3 - "$tmp/cfg/config.json" <<'PY'
import json, sys
m = [m for m in json.load(open("data/llm_configs.json"))["models"] if m["id"] == "roberta-base"][0]
json.dump(m["config"], open(sys.argv[1], "w"))
PY
"$BIN" llm --config "$tmp/cfg/config.json" --batch 8 --seq 256 --device a10 --json >"$tmp/l3.cli" 2>/dev/null
python3 -c 'import json,sys; print(json.dumps({"config": json.load(open(sys.argv[1])), "batch": 8, "seq": 256, "device": "a10"}))' \
  "$tmp/cfg/config.json" >"$tmp/l3.req"
st=$(req l3 -H 'Content-Type: application/json' --data-binary "@$tmp/l3.req" "$U/api/llm")
st2=$(req l4 -F "config=@$tmp/cfg/config.json" -F batch=8 -F seq=256 -F device=a10 "$U/api/llm")
if [ "$st" = 200 ] && [ "$st2" = 200 ] && same_json "$tmp/l3.body" "$tmp/l3.cli" model 2>"$tmp/err" &&
   same_json "$tmp/l4.body" "$tmp/l3.cli" model 2>>"$tmp/err"; then ok serve_llm_config_equals_cli
else bad serve_llm_config_equals_cli "status $st/$st2 $(head -c 300 "$tmp/l3.body") $(cat "$tmp/err")"; fi

# /api/mig
st=$(req m1 -d '{"device":"h100-sxm","memory_mb":7300,"margin":0.2,"latency_ms":10,"slo_ms":40}' "$U/api/mig")
"$BIN" mig --device h100-sxm --memory-mb 7300 --margin 0.2 --latency-ms 10 --slo-ms 40 --json >"$tmp/m1.cli" 2>/dev/null
if [ "$st" = 200 ] && same_json "$tmp/m1.body" "$tmp/m1.cli" 2>"$tmp/err"; then ok serve_mig_equals_cli
else bad serve_mig_equals_cli "status $st $(head -c 300 "$tmp/m1.body") $(cat "$tmp/err")"; fi

# /api/roofline.svg: POST (same inputs as predict) and GET with a query
st=$(req s1 -F "model=@$MODEL" -F batch=32 -F device=a100-40gb "$U/api/roofline.svg")
st2=$(req s2 "$U/api/roofline.svg?example=resnet18&batch=32&device=a100-40gb")
"$BIN" roofline "$MODEL" --batch 32 --device a100-40gb --out "$tmp/s.cli.svg" >/dev/null 2>&1
if [ "$st" = 200 ] && [ "$st2" = 200 ] && grep -qi '^content-type: image/svg+xml' "$tmp/s1.hdr" &&
   cmp -s "$tmp/s1.body" "$tmp/s.cli.svg" && cmp -s "$tmp/s2.body" "$tmp/s.cli.svg" &&
   python3 - "$tmp/s1.body" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "{http://www.w3.org/2000/svg}svg" and len(root.findall(".//{http://www.w3.org/2000/svg}circle")) > 10
PY
then ok serve_roofline_svg_equals_cli; else bad serve_roofline_svg_equals_cli "status $st/$st2"; fi

# ---- bad requests: JSON error, right status; the server keeps serving --------------
head -c 3000000 /dev/urandom >"$tmp/big.bin"
printf 'this is not an onnx file' >"$tmp/garbage.onnx"
J='Content-Type: application/json'
MP='Content-Type: multipart/form-data; boundary=XYZ'
# a multipart body that ends inside its second part (no closing boundary)
printf -- '--XYZ\r\nContent-Disposition: form-data; name="device"\r\n\r\na100-40gb\r\n--XYZ\r\nContent-Disposition: form-data; name="model"; filename="m.onnx"\r\n\r\nabc' >"$tmp/trunc.txt"
# name|status|substring of the message|curl args (tab-separated)
cases=(
  "unknown_path|404|no such endpoint|$U/api/nope"
  "traversal_path|404|no such endpoint|--path-as-is	$U/../../etc/passwd"
  "predict_get|405|takes POST|$U/api/predict"
  "health_delete|405|takes GET|-X	DELETE	$U/api/health"
  "malformed_json|400|malformed JSON|-H	$J	-d	{\"example\":\"resnet18\",	$U/api/predict"
  "json_not_object|400|must be an object|-H	$J	-d	[1,2]	$U/api/predict"
  "json_trailing|400|malformed JSON|-H	$J	-d	{\"batch\":1} x	$U/api/predict"
  "multipart_truncated|400|malformed multipart|-H	$MP	--data-binary	@$tmp/trunc.txt	$U/api/predict"
  "multipart_no_boundary|400|boundary|-H	Content-Type: multipart/form-data	-d	x	$U/api/predict"
  "batch_over_2^31|400|batch|-d	{\"example\":\"resnet18\",\"batch\":2147483649,\"device\":\"a100-40gb\"}	$U/api/predict"
  "batch_1e999|400|finite|-d	{\"example\":\"resnet18\",\"batch\":1e999,\"device\":\"a100-40gb\"}	$U/api/predict"
  "batch_1e999_form|400|finite|-F	example=resnet18	-F	batch=1e999	-F	device=a100-40gb	$U/api/predict"
  "batch_negative|400|batch|-d	{\"example\":\"resnet18\",\"batch\":-4,\"device\":\"a100-40gb\"}	$U/api/predict"
  "batch_fraction|400|whole number|-d	{\"example\":\"resnet18\",\"batch\":1.5,\"device\":\"a100-40gb\"}	$U/api/predict"
  "batch_text|400|not a number|-F	example=resnet18	-F	batch=32abc	-F	device=a100-40gb	$U/api/predict"
  "llm_batch_huge|400|batch|-d	{\"model\":\"gpt2\",\"batch\":99999999999999999999,\"device\":\"a100-40gb\"}	$U/api/llm"
  "unknown_device|400|unknown device 'h10'|-d	{\"example\":\"resnet18\",\"batch\":1,\"device\":\"h10\"}	$U/api/predict"
  "unknown_example|400|unknown example|-d	{\"example\":\"../../etc/passwd\",\"batch\":1,\"device\":\"t4\"}	$U/api/predict"
  "unknown_model|400|unknown model|-d	{\"model\":\"no-such-llm\",\"device\":\"t4\"}	$U/api/llm"
  "unknown_dtype|400|dtype|-d	{\"example\":\"resnet18\",\"batch\":1,\"device\":\"t4\",\"dtype\":\"fp64\"}	$U/api/predict"
  "unknown_llm_dtype|400|dtype|-d	{\"model\":\"gpt2\",\"device\":\"t4\",\"dtype\":\"fp4\"}	$U/api/llm"
  "llm_gen_encoder|400|encoder-only|-d	{\"model\":\"bert-base-uncased\",\"device\":\"t4\",\"gen\":8}	$U/api/llm"
  "llm_tp_heads|400|gpus 5|-d	{\"model\":\"bert-base-uncased\",\"device\":\"t4\",\"gpus\":5}	$U/api/llm"
  "llm_not_fit|400|does not fit|-d	{\"model\":\"llama-2-70b\",\"device\":\"t4\"}	$U/api/llm"
  "llm_gen_context|400|max_position_embeddings|-d	{\"model\":\"gpt2\",\"device\":\"t4\",\"seq\":1000,\"gen\":100}	$U/api/llm"
  "llm_kv_dtype|400|kv_dtype|-d	{\"model\":\"gpt2\",\"device\":\"t4\",\"kv_dtype\":\"int4\"}	$U/api/llm"
  "unknown_region|400|unknown region|-d	{\"example\":\"resnet18\",\"batch\":1,\"device\":\"t4\",\"region\":\"atlantis\"}	$U/api/predict"
  "unknown_llm_region|400|unknown region|-d	{\"model\":\"gpt2\",\"device\":\"t4\",\"region\":\"atlantis\"}	$U/api/llm"
  "unknown_field|400|unknown field 'bacth'|-d	{\"example\":\"resnet18\",\"bacth\":1,\"device\":\"t4\"}	$U/api/predict"
  "model_as_path|400|file upload|-d	{\"model\":\"/etc/passwd\",\"batch\":1,\"device\":\"t4\"}	$U/api/predict"
  "no_model|400|no model|-d	{\"batch\":1,\"device\":\"t4\"}	$U/api/predict"
  "no_device|400|device|-d	{\"example\":\"resnet18\",\"batch\":1}	$U/api/predict"
  "garbage_onnx|400|garbage.onnx|-F	model=@$tmp/garbage.onnx	-F	batch=1	-F	device=t4	$U/api/predict"
  "unbound_batch|400|batch_size|-d	{\"example\":\"resnet18\",\"device\":\"t4\"}	$U/api/predict"
  "unbound_batch_api_words|400|give the field 'batch'|-d	{\"example\":\"resnet18\",\"device\":\"t4\"}	$U/api/predict"
  "duplicate_json_key|400|key 'device' given twice|-H	$J	-d	{\"device\":\"t4\",\"memory_mb\":1,\"device\":\"a100-40gb\"}	$U/api/mig"
  "path_nul|404|no such endpoint|$U/api/health%00.html"
  "runs_with_train|400|steps|-d	{\"example\":\"resnet18\",\"batch\":1,\"device\":\"t4\",\"mode\":\"train\",\"runs\":3}	$U/api/predict"
  "mig_no_memory|400|memory_mb|-d	{\"device\":\"a100-40gb\"}	$U/api/mig"
  "mig_slo_no_latency|400|latency_ms|-d	{\"device\":\"a100-40gb\",\"memory_mb\":100,\"slo_ms\":5}	$U/api/mig"
  "text_plain|415|Content-Type|-H	Content-Type: text/plain	-d	hi	$U/api/predict"
  "upload_over_cap|413|limit|-F	model=@$tmp/big.bin	-F	batch=1	-F	device=t4	$U/api/predict"
  "upload_over_cap_no_expect|413|limit|-H	Expect:	-F	model=@$tmp/big.bin	-F	batch=1	-F	device=t4	$U/api/predict"
)
why=""
for c in "${cases[@]}"; do
  IFS='|' read -r name want sub args <<<"$c"
  IFS=$'\t' read -r -a argv <<<"$args"
  st=$(req bad "${argv[@]}")
  if [ "$st" != "$want" ] || ! python3 - "$tmp/bad.body" "$sub" <<'PY' 2>/dev/null
import json, sys
d = json.load(open(sys.argv[1]))
assert list(d) == ["error"] and sys.argv[2] in d["error"], d
assert " --batch" not in d["error"] and " --dim" not in d["error"], d   # API wording, not CLI flags
PY
  then why="$why [$name: got $st, want $want: $(head -c 160 "$tmp/bad.body")]"; fi
done
if [ -z "$why" ]; then ok serve_bad_requests; else bad serve_bad_requests "$why"; fi
if [ "$(curl -s -o /dev/null -D - "$U/api/predict" | grep -ci '^allow: POST')" = 1 ]
then ok serve_405_allow_header; else bad serve_405_allow_header; fi

# still serving, still right
st=$(req after -F "model=@$MODEL" -F batch=32 -F device=h100-sxm "$U/api/predict")
if [ "$st" = 200 ] && same_json "$tmp/after.body" "$tmp/p1.cli" && kill -0 "$MAIN_PID" 2>/dev/null &&
   [ "$(curl -s -o /dev/null -w '%{http_code}' "$U/api/health")" = 200 ]
then ok serve_keeps_serving; else bad serve_keeps_serving "status $st"; fi

# a slow client is cut off after --timeout; the server goes on
if python3 - "$MAIN_PORT" "$((TIMEOUT + 3 * SLOW))" <<'PY'
import socket, sys, time
port, limit = int(sys.argv[1]), float(sys.argv[2])
s = socket.create_connection(("127.0.0.1", port))
s.sendall(b"POST /api/predict HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"ex")
s.settimeout(60)
t0 = time.time()
data = s.recv(4096)          # b"" when the server closes
assert data == b"" or data.startswith(b"HTTP/1.1 4"), data[:80]
assert time.time() - t0 < limit, "not closed in time"
PY
   [ "$(curl -s -o /dev/null -w '%{http_code}' "$U/api/health")" = 200 ]
then ok serve_timeout_closes_slow_client; else bad serve_timeout_closes_slow_client; fi

# the access log says a cut-off body timed out (not "client error")
if grep -Eq ' POST /api/predict (408|-) [0-9]+B [0-9.]+ms \(timeout\)$' "$tmp/server.log"
then ok serve_timeout_logged_as_timeout; else bad serve_timeout_logged_as_timeout "$(grep 'POST /api/predict' "$tmp/server.log" | tail -1)"; fi

# a body that keeps trickling is still cut at --timeout, with a JSON 408
if python3 tests/serve_hostile.py slowbody "$MAIN_PORT" "$TIMEOUT" >"$tmp/slowbody.out" 2>&1
then ok "serve_slow_body_408 ($(cut -c1-60 "$tmp/slowbody.out"))"; else bad serve_slow_body_408 "$(head -c 300 "$tmp/slowbody.out")"; fi

# every answer to a request libmicrohttpd or the API refuses is JSON
# (bad/overflowing Content-Length, HTTP/9.9, a 70 KB header, bad chunked
# encoding, invalid UTF-8 and %00 in the path, a duplicate JSON key)
if python3 tests/serve_hostile.py malformed "$MAIN_PORT" >"$tmp/malformed.out" 2>&1
then ok serve_malformed_requests_all_json; else bad serve_malformed_requests_all_json "$(grep -v '^ok' "$tmp/malformed.out" | head -c 600)"; fi

# ---- slow-header clients (slowloris): a server with short deadlines --------------
# 600 connections trickle a header line every 0.3 s and never finish their
# headers; /api/health must stay fast and every trickler must be closed at
# --header-timeout.  They all come from 127.0.0.1, like the probes, so the
# per-address cap (default 512) is lifted here; it is tested on its own below.
HT=$((2 * SLOW))
if start_server "$tmp/slow.log" --header-timeout "$HT" --timeout $((4 * SLOW)) --max-per-ip 0; then
  SLOW_PID=$SPID
  if python3 tests/serve_hostile.py slowloris "$PORT" 600 "$HT" 3 $((250 * SLOW)) >"$tmp/slowloris.out" 2>&1 &&
     [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/api/health")" = 200 ]
  then ok "serve_slowloris_600 ($(head -1 "$tmp/slowloris.out" | sed 's/^slowloris: //'))"
  else bad serve_slowloris_600 "$(head -c 600 "$tmp/slowloris.out")"; fi
  if grep -q ' 408 0B .*(header timeout)$' "$tmp/slow.log"
  then ok serve_header_timeout_logged; else bad serve_header_timeout_logged "$(tail -2 "$tmp/slow.log")"; fi
  kill -TERM "$SLOW_PID"; wait "$SLOW_PID"; rc=$?
  if [ "$rc" = 0 ]; then ok serve_slowloris_server_clean_exit
  else bad serve_slowloris_server_clean_exit "rc=$rc $(grep -m2 -E 'Sanitizer|runtime error' "$tmp/slow.log")"; fi
else
  bad serve_slowloris_600 "server did not start: $(tail -2 "$tmp/slow.log")"
fi

# ---- connection caps: one over the cap gets a JSON 503 at once -----------------
for cap in "--max-per-ip 10|10|--max-per-ip" "--max-connections 12 --max-per-ip 0|12|--max-connections"; do
  IFS='|' read -r flags n name <<<"$cap"
  # shellcheck disable=SC2086
  if start_server "$tmp/caps.log" $flags --quiet; then
    CAPS_PID=$SPID
    if python3 tests/serve_hostile.py caps "$PORT" "$n" "$name" >"$tmp/caps.out" 2>&1
    then ok "serve_cap${name#--max}_503 ($(sed 's/^caps: //' "$tmp/caps.out" | cut -c1-150))"
    else bad "serve_cap${name#--max}_503" "$(head -c 400 "$tmp/caps.out")"; fi
    kill -TERM "$CAPS_PID"; wait "$CAPS_PID"
  else
    bad "serve_cap${name#--max}_503" "server did not start: $(tail -2 "$tmp/caps.log")"
  fi
done

# ---- the concurrent-parse cap: a second server with one parse slot ---------------
if start_server "$tmp/busy.log" --threads 8 --max-parses 1 --quiet; then
  BUSY_PID=$SPID
  BU="http://127.0.0.1:$PORT"
  cpids=()
  for i in $(seq 1 24); do
    curl -s --max-time $((30 * SLOW)) -o "$tmp/busy$i.body" -D "$tmp/busy$i.hdr" -w '%{http_code}\n' \
      -d '{"model":"llama-2-70b","batch":8,"seq":4096,"gpus":4,"device":"h100-sxm"}' "$BU/api/llm" >"$tmp/busy$i.st" &
    cpids+=($!)
  done
  wait "${cpids[@]}"   # the curls only: a bare wait would wait for the servers too
  n200=0; n503=0; other=""
  for i in $(seq 1 24); do
    s=$(cat "$tmp/busy$i.st")
    if [ "$s" = 200 ]; then n200=$((n200 + 1))
    elif [ "$s" = 503 ] && grep -qi '^retry-after: [0-9]' "$tmp/busy$i.hdr" && grep -q '"error"' "$tmp/busy$i.body"
    then n503=$((n503 + 1))
    else other="$other $s"; fi
  done
  # how many overlap depends on timing: every answer must be a 200 or a proper 503
  if [ -z "$other" ] && [ "$n200" -ge 1 ] && [ "$(curl -s -o /dev/null -w '%{http_code}' "$BU/api/health")" = 200 ]
  then ok "serve_parse_cap ($n200 x 200, $n503 x 503 with Retry-After)"
  else bad serve_parse_cap "200: $n200, 503: $n503, other:$other"; fi
  kill -TERM "$BUSY_PID"; wait "$BUSY_PID"; rc=$?
  # exit 0 also means no sanitizer report (ASan/LSan/UBSan make it non-zero)
  if [ "$rc" = 0 ]; then ok serve_parse_cap_server_clean_exit
  else bad serve_parse_cap_server_clean_exit "rc=$rc $(grep -m2 -E 'Sanitizer|runtime error' "$tmp/busy.log")"; fi
else
  bad serve_parse_cap "second server did not start"
fi

# ---- the page in a real browser ------------------------------------------------------
browser_skip=""
# what is missing is installed where it can be (root + apt, npm); the test is
# skipped only where that is impossible
apt_install() {
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || { echo "not root or no apt-get" >"$tmp/apt.log"; return 1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >"$tmp/apt.log" 2>&1
}
if ! command -v node >/dev/null 2>&1 && ! apt_install nodejs; then
  browser_skip="node not installable: $(tail -1 "$tmp/apt.log")"
fi
if [ -z "$browser_skip" ] && [ ! -x /usr/bin/chromium ] && ! apt_install chromium; then
  browser_skip="chromium not installable: $(tail -1 "$tmp/apt.log")"
fi
if [ -z "$browser_skip" ] && [ ! -d tests/browser/node_modules/playwright-core ]; then
  if ! command -v npm >/dev/null 2>&1 && ! apt_install npm; then
    browser_skip="playwright-core not installable: no npm ($(tail -1 "$tmp/apt.log"))"
  elif ! (cd tests/browser && npm install --no-audit --no-fund --silent >"$tmp/npm.log" 2>&1); then
    browser_skip="playwright-core not installable: $(tail -1 "$tmp/npm.log")"
  fi
fi
if [ -n "$browser_skip" ]; then
  echo "PASS browser (skipped: $browser_skip)"
else
  mkdir -p "$BUILD/test-artifacts"
  DLP_URL="$U" DLP_BIN="$BIN" DLP_ARTIFACTS="$BUILD/test-artifacts" DLP_SLOW="$SLOW" \
    timeout $((180 * SLOW)) node tests/browser/page.test.mjs 2>"$tmp/browser.err"
  rc=$?
  if [ $rc -ne 0 ]; then bad browser "exit $rc: $(tail -5 "$tmp/browser.err")"; fi
fi

# ---- access log, then SIGTERM ---------------------------------------------------------
if grep -Eq '^[0-9T:-]+Z 127\.0\.0\.1 POST /api/predict 200 [0-9]+B [0-9.]+ms$' "$tmp/server.log" &&
   grep -Eq ' GET /api/nope 404 [0-9]+B ' "$tmp/server.log"
then ok serve_access_log; else bad serve_access_log "$(tail -2 "$tmp/server.log")"; fi

# SIGTERM with a request in flight: new connections are refused at once, the
# request in flight still gets its answer, then the server exits 0
t0=$(date +%s%N)
python3 - "$MAIN_PORT" "$MAIN_PID" "$((10 * SLOW))" >"$tmp/graceful.out" 2>&1 <<'PY'
import os, signal, socket, sys, time
port, pid, limit = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
body = b'{"example":"resnet18","batch":8,"device":"t4"}'
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(limit)
s.sendall(b"POST /api/predict HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
          % len(body) + body[:10])
time.sleep(0.3)
os.kill(pid, signal.SIGTERM)
deadline = time.time() + limit
while True:                     # once stopping, the port refuses connections
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:             # refused, or (on a loaded machine) timed out: not accepting
        break
    assert time.time() < deadline, "still accepting after SIGTERM"
    time.sleep(0.05)
s.sendall(body[10:])
data = b""
while b'"pue"' not in data:
    d = s.recv(65536)
    assert d, "connection closed without the answer: %r" % data[:80]
    data += d
assert data.startswith(b"HTTP/1.1 200"), data[:80]
PY
graceful=$?
kill -TERM "$MAIN_PID" 2>/dev/null   # in case the script above failed before its SIGTERM
# bounded: an exited child is a zombie ('Z') until waited for
for i in $(seq 1 $((300 * SLOW))); do
  st=$(awk '{print $3}' "/proc/$MAIN_PID/stat" 2>/dev/null)
  [ -z "$st" ] || [ "$st" = Z ] && break
  sleep 0.1
done
[ "$st" = Z ] || [ -z "$st" ] || kill -KILL "$MAIN_PID" 2>/dev/null
wait "$MAIN_PID"; rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
if [ "$graceful" = 0 ] && [ "$rc" = 0 ] && [ "$ms" -lt $((5000 * SLOW)) ] && grep -q 'dlperf: stopped' "$tmp/server.log"
then ok "serve_sigterm_graceful_exit_0 (${ms} ms, request in flight answered)"
else bad serve_sigterm_graceful_exit_0 "rc=$rc after ${ms} ms: $(tail -2 "$tmp/graceful.out") $(grep -m2 -E 'Sanitizer|runtime error' "$tmp/server.log")"; fi
