#!/usr/bin/env bash
# t_json_bytes.sh — one JSON writer (src/json/): `dlperf predict|inspect|mig|llm
# --json` (and Python's inspect) and the HTTP API's answer to the same request are the same bytes,
# not merely equal objects (t_serve.sh compares objects).  PASS/FAIL lines
# for tests/run.sh.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
BIN="$BUILD/dlperf"
MODEL=examples/resnet18.onnx
SLOW=1
case "$BUILD" in *san*) SLOW=3 ;; esac
tmp=$(mktemp -d /tmp/dlp_t_json.XXXXXX)
SPID=
cleanup() { [ -n "$SPID" ] && { kill -TERM "$SPID" 2>/dev/null; wait "$SPID" 2>/dev/null; }; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

ok() { echo "PASS $1"; }
bad() { echo "FAIL $1${2:+: $2}"; }

command -v curl >/dev/null 2>&1 || { bad json_bytes "curl is not installed (scripts/setup.sh installs it)"; exit 0; }

# a server on a random high port (retried if taken)
for try in 1 2 3 4 5 6; do
  PORT=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
  "$BIN" serve --port "$PORT" >/dev/null 2>"$tmp/server.log" &
  SPID=$!
  up=0
  for i in $(seq 1 $((100 * SLOW))); do
    kill -0 "$SPID" 2>/dev/null || break
    if [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$PORT/api/health")" = 200 ]; then up=1; break; fi
    sleep 0.1
  done
  [ $up = 1 ] && break
  kill -KILL "$SPID" 2>/dev/null; wait "$SPID" 2>/dev/null; SPID=
done
[ -n "$SPID" ] || { bad json_bytes_server "no server: $(tail -2 "$tmp/server.log")"; exit 0; }
U="http://127.0.0.1:$PORT"

# same NAME: the HTTP body $tmp/NAME.http and the CLI's stdout $tmp/NAME.cli
same() {
  if [ -s "$tmp/$1.cli" ] && cmp -s "$tmp/$1.http" "$tmp/$1.cli"; then ok "$1"
  else bad "$1" "$(cmp "$tmp/$1.http" "$tmp/$1.cli" 2>&1 | head -1) $(head -c 200 "$tmp/$1.http")"; fi
}

curl -s -o "$tmp/json_bytes_predict_upload.http" -F "model=@$MODEL" -F batch=32 -F device=h100-sxm "$U/api/predict"
"$BIN" predict "$MODEL" --batch 32 --device h100-sxm --json >"$tmp/json_bytes_predict_upload.cli" 2>/dev/null
same json_bytes_predict_upload

curl -s -o "$tmp/json_bytes_predict_train.http" -H 'Content-Type: application/json' \
  -d '{"example":"resnet18","batch":8,"device":"a100-40gb","mode":"train","dtype":"bf16","steps":1000,"region":"eu"}' \
  "$U/api/predict"
"$BIN" predict "$MODEL" --batch 8 --device a100-40gb --mode train --dtype bf16 --steps 1000 --region eu --json \
  >"$tmp/json_bytes_predict_train.cli" 2>/dev/null
same json_bytes_predict_train

# inspect: upload and shipped example against the CLI, and Python's bytes
curl -s -o "$tmp/json_bytes_inspect.http" -F "model=@$MODEL" -F batch=8 "$U/api/inspect"
"$BIN" inspect "$MODEL" --batch 8 --json >"$tmp/json_bytes_inspect.cli" 2>/dev/null
same json_bytes_inspect
curl -s -o "$tmp/json_bytes_inspect_example.http" -d '{"example":"resnet18","batch":8}' "$U/api/inspect"
cp "$tmp/json_bytes_inspect.cli" "$tmp/json_bytes_inspect_example.cli"
same json_bytes_inspect_example
# (in a sanitizer build with the ASan runtime preloaded, as t_python.sh;
# not in a fuzz build)
. tests/sanenv.sh
if [ "$san_ok" = 1 ] && [ -f "$BUILD/libdlperf.so" ] && /usr/bin/python3 -c 1 2>/dev/null; then
  DLPERF_LIB="$PWD/$BUILD/libdlperf.so.0" PYTHONPATH=python PYTHONDONTWRITEBYTECODE=1 "${SAN_ENV[@]}" /usr/bin/python3 -c \
    'import sys, dlperf; sys.stdout.write(dlperf.inspect(sys.argv[1], batch=8, raw=True))' "$MODEL" \
    >"$tmp/json_bytes_inspect_python.cli" 2>/dev/null
  cp "$tmp/json_bytes_inspect.http" "$tmp/json_bytes_inspect_python.http"
  same json_bytes_inspect_python
fi

curl -s -o "$tmp/json_bytes_mig.http" -d '{"device":"h100-sxm","memory_mb":7300,"margin":0.2,"latency_ms":10,"slo_ms":40}' "$U/api/mig"
"$BIN" mig --device h100-sxm --memory-mb 7300 --margin 0.2 --latency-ms 10 --slo-ms 40 --json >"$tmp/json_bytes_mig.cli" 2>/dev/null
same json_bytes_mig

curl -s -o "$tmp/json_bytes_llm.http" -d '{"model":"bert-base-uncased","batch":64,"seq":128,"dtype":"fp16","device":"a100-40gb"}' "$U/api/llm"
"$BIN" llm --model bert-base-uncased --batch 64 --seq 128 --dtype fp16 --device a100-40gb --json \
  >"$tmp/json_bytes_llm.cli" 2>/dev/null
same json_bytes_llm

# serving (docs/llm.md, "Serving"): the same `serving` object both ways
curl -s -o "$tmp/json_bytes_llm_serve.http" -d '{"model":"Qwen/Qwen3-30B-A3B","device":"h100-sxm","gpus":2,"ep":2,"dtype":"fp8","concurrency":128,"prompt":2048,"gen":256}' "$U/api/llm"
"$BIN" llm --model Qwen/Qwen3-30B-A3B --device h100-sxm --gpus 2 --ep 2 --dtype fp8 --concurrency 128 --prompt 2048 \
  --gen 256 --json >"$tmp/json_bytes_llm_serve.cli" 2>/dev/null
grep -q '"serving":{' "$tmp/json_bytes_llm_serve.cli" || : >"$tmp/json_bytes_llm_serve.cli"
same json_bytes_llm_serve
