#!/usr/bin/env bash
# t_predict.sh — `dlperf predict` and `dlperf roofline` end to end: every
# device of the database with only the built-in data (finite, positive
# numbers), valid JSON with the documented keys, training mode, a valid SVG
# chart, and exit 2 with one line for bad input.  PASS/FAIL lines for
# tests/run.sh.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
BIN="$BUILD/dlperf"
MODEL=examples/resnet18.onnx
tmp=$(mktemp -d /tmp/dlp_t_predict.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "PASS $1"; }
bad() { echo "FAIL $1${2:+: $2}"; }

# every device id: exit 0, finite positive latency/throughput/memory/energy/power
ids=$("$BIN" devices --json 2>/dev/null | python3 -c 'import json,sys; print(" ".join(d["id"] for d in json.load(sys.stdin)["devices"]))')
if [ -z "$ids" ]; then bad predict_every_device "no device ids from 'dlperf devices --json'"; else
  failed=""
  for id in $ids; do
    if ! "$BIN" predict "$MODEL" --device "$id" --batch 8 --json >"$tmp/$id.json" 2>"$tmp/err" ||
       ! python3 - "$tmp/$id.json" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
cpu = d["device_kind"] == "cpu"
for k in ("latency_ms", "throughput_sps", "memory_mb") + (() if cpu else ("energy_j", "power_w")):
    v = d[k]
    assert isinstance(v, (int, float)) and math.isfinite(v) and v > 0, (k, v)
if cpu:   # no power data for a CPU slice: not predicted, never 0
    assert d["energy_j"] is None and d["power_w"] is None and d["co2_g"] is None, d
    assert d["energy_predicted"] is False
assert d["method"].startswith("roofline"), d["method"]
PY
    then failed="$failed $id"; fi
  done
  if [ -z "$failed" ]; then ok predict_every_device; else bad predict_every_device "failed:$failed"; fi
fi

# JSON: valid, documented keys, MIG table of an A100
if "$BIN" predict "$MODEL" --device a100-40gb --batch 32 --runs 1e6 --region eu --json >"$tmp/p.json" 2>"$tmp/err" &&
   python3 -m json.tool "$tmp/p.json" >/dev/null 2>&1 &&
   python3 - "$tmp/p.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("latency_ms", "step_ms", "throughput_sps", "memory_mb", "energy_j", "power_w", "mig", "cost_usd",
          "co2_g", "runs", "method", "device", "batch", "mode", "dtype", "band", "memory_breakdown_mb"):
    assert k in d, k
assert d["device"] == "a100-40gb" and d["batch"] == 32 and d["mode"] == "infer" and d["dtype"] == "fp32"
assert d["step_ms"] is None and d["runs"] == 1e6 and d["region"] == "eu" and d["g_per_kwh"] == 251
m = d["mig"]
assert m["recommended"] == "1g.5gb" and abs(m["margin"] - 0.1) < 1e-12, m
assert [p["name"] for p in m["profiles"]] == ["1g.5gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb"]
for p in m["profiles"]:
    assert set(p) >= {"name", "memory_gib", "used_share", "fits"}, p
    assert abs(p["used_share"] - d["memory_mb"] / (p["memory_gib"] * 1024)) < 1e-6
assert abs(d["cost_usd"] - 1.29 * d["latency_ms"] * 1e6 / 3.6e6) < 1e-9 * max(1, d["cost_usd"])
assert abs(d["co2_g"] - d["energy_j"] * 1e6 / 3.6e6 * 1.2 * 251) < 1e-6 * d["co2_g"]
b = d["memory_breakdown_mb"]
assert abs(sum(b.values()) - d["memory_mb"]) < 1e-6 * d["memory_mb"]
assert d["band"] is None or d["band"]["lower_ms"] < d["latency_ms"] < d["band"]["upper_ms"]
PY
then ok predict_json; else bad predict_json "$(head -3 "$tmp/err")"; fi

# training: step time, gradients and optimizer state, fp16
if "$BIN" predict "$MODEL" --device h100-sxm --batch 16 --mode train --dtype bf16 --steps 1000 --json >"$tmp/t.json" 2>"$tmp/err" &&
   python3 - "$tmp/t.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["mode"] == "train" and d["dtype"] == "bf16" and d["latency_ms"] is None
assert d["step_ms"] > d["forward_ms"] > 0 and d["steps"] == 1000 and d["runs"] is None
b = d["memory_breakdown_mb"]
assert b["gradients"] > 0 and abs(b["optimizer"] - 2 * b["gradients"]) < 1e-6 * b["optimizer"]
PY
then ok predict_train_json; else bad predict_train_json "$(head -3 "$tmp/err")"; fi

# text output names the parts
if "$BIN" predict "$MODEL" --device t4 --batch 4 >"$tmp/p.txt" 2>"$tmp/err" &&
   grep -q '^latency: ' "$tmp/p.txt" && grep -q '^memory: ' "$tmp/p.txt" && grep -q '^MIG: *none' "$tmp/p.txt" &&
   grep -q '^carbon: ' "$tmp/p.txt" && grep -q '^method: *roofline' "$tmp/p.txt"; then ok predict_text
else bad predict_text "$(head -3 "$tmp/err")"; fi

# --pure and --nodes
if "$BIN" predict "$MODEL" --device a100-40gb --batch 1 --pure --nodes >"$tmp/n.txt" 2>"$tmp/err" &&
   grep -q '^method: *roofline$' "$tmp/n.txt" && grep -q ' Conv ' "$tmp/n.txt"; then ok predict_nodes
else bad predict_nodes "$(head -3 "$tmp/err")"; fi

# roofline chart: valid standalone SVG
rm -f "$tmp/x.svg"
if "$BIN" roofline "$MODEL" --device a100-40gb --batch 32 --out "$tmp/x.svg" >"$tmp/out" 2>"$tmp/err" &&
   python3 - "$tmp/x.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
assert root.tag == ns + "svg", root.tag
circles = root.findall(".//" + ns + "circle")
texts = " ".join(t.text or "" for t in root.iter(ns + "text"))
assert len(circles) > 10, len(circles)
assert "FP32 vector" in texts and "TF32 tensor" in texts and "DRAM" in texts and "conv" in texts
PY
then ok roofline_svg; else bad roofline_svg "$(head -3 "$tmp/err")"; fi

# unknown device: exit 2, one line naming it with close ids, nothing on stdout
for cmd in predict roofline; do
  "$BIN" $cmd "$MODEL" --device h10 --batch 1 >"$tmp/out" 2>"$tmp/err"; rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "unknown device 'h10'" "$tmp/err" &&
     grep -q 'h100-sxm' "$tmp/err" && [ ! -s "$tmp/out" ]; then ok "${cmd}_unknown_device"
  else bad "${cmd}_unknown_device" "rc=$rc $(head -3 "$tmp/err")"; fi
done

# bad flags: exit 2
bad_cases=("--device a100-40gb --batch 1 --dtype fp64"
           "--device a100-40gb --batch 1 --mode train --runs 5"
           "--device a100-40gb --batch 1 --region atlantis"
           "--batch 1")
why=""
for c in "${bad_cases[@]}"; do
  # shellcheck disable=SC2086
  "$BIN" predict "$MODEL" $c >/dev/null 2>"$tmp/err"; rc=$?
  if [ $rc -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then why="$why ['$c' rc=$rc $(head -1 "$tmp/err")]"; fi
done
if [ -z "$why" ]; then ok predict_bad_input; else bad predict_bad_input "$why"; fi

# the measured CPU (docs/learned.md): training mode names the source of the
# step time and memory; with a shipped cpu-amd-epyc-2c train model it is
# "learned" (model and accuracy named, analytic value kept), --no-learned
# gives the analytic number; energy and MIG say "not predicted" / "none (CPU)"
# the model answering step_ms: a one-target file for it, else a multi-target one
shipped=$(ls data/models/learned/cpu-amd-epyc-2c--train--step_ms.dlpm 2>/dev/null ||
          ls data/models/learned/cpu-amd-epyc-2c--train--*.dlpm 2>/dev/null | grep -v -- '--memory_mb\.dlpm$' | head -1)
if "$BIN" predict "$MODEL" --device epyc-2c --batch 32 --mode train --json >"$tmp/cpu.json" 2>"$tmp/err" &&
   "$BIN" predict "$MODEL" --device epyc-2c --batch 32 --mode train --json --no-learned >"$tmp/cpu_a.json" 2>>"$tmp/err" &&
   python3 - "$tmp/cpu.json" "$tmp/cpu_a.json" "${shipped##*/}" <<'PY' 2>>"$tmp/err"
import json, math, sys
d, a, shipped = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
assert d["device_kind"] == "cpu" and d["method"] == "roofline-cpu", d["method"]
src = d["sources"]["step_ms"]
assert a["sources"]["step_ms"]["source"] == "analytic" and a["sources"]["memory_mb"]["source"] == "analytic"
assert a["step_ms"] == a["analytic_step_ms"] and a["memory_mb"] == a["analytic_memory_mb"]
assert abs(d["analytic_step_ms"] - a["step_ms"]) <= 1e-9 * a["step_ms"]
if shipped:
    assert src["source"] == "learned" and src["model"] == shipped and src["accuracy"], src
    assert math.isfinite(d["step_ms"]) and d["step_ms"] > 0
    assert abs(d["throughput_sps"] - 32 / (d["step_ms"] / 1e3)) <= 1e-6 * d["throughput_sps"]
else:
    assert src["source"] == "analytic" and d["step_ms"] == a["step_ms"]
assert d["energy_j"] is None and d["energy_predicted"] is False
assert d["mig"]["recommended"] is None and d["mig"]["reason"] == "none (CPU)"
assert d["memory_breakdown_mb"]["context"] == 148.7 and d["memory_breakdown_mb"]["workspace"] == 0
PY
then ok predict_cpu_train_sources
else bad predict_cpu_train_sources "$(tail -3 "$tmp/err")"; fi

# text: the learned source and the analytic value on the step line; no zeros for energy
if "$BIN" predict "$MODEL" --device cpu-amd-epyc-2c --batch 8 --mode train >"$tmp/cpu.txt" 2>"$tmp/err" &&
   grep -q '^energy: *not predicted' "$tmp/cpu.txt" && grep -q '^carbon: *not predicted' "$tmp/cpu.txt" &&
   grep -q '^MIG: *none (CPU)' "$tmp/cpu.txt" &&
   { [ -z "$shipped" ] || { grep -q "^step time:.*\[learned: ${shipped##*/}; analytic" "$tmp/cpu.txt" &&
                            grep -q "^accuracy: *${shipped##*/}: " "$tmp/cpu.txt"; }; }; then
  ok predict_cpu_text
else bad predict_cpu_text "$(head -5 "$tmp/cpu.txt") $(head -2 "$tmp/err")"; fi

# a GPU is unaffected by the learned models (none is shipped for it)
if "$BIN" predict "$MODEL" --device a100-40gb --batch 8 --mode train --json >"$tmp/g1.json" 2>"$tmp/err" &&
   "$BIN" predict "$MODEL" --device a100-40gb --batch 8 --mode train --json --no-learned >"$tmp/g2.json" 2>>"$tmp/err" &&
   python3 - "$tmp/g1.json" "$tmp/g2.json" <<'PY' 2>>"$tmp/err"
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert a["sources"]["step_ms"]["source"] == "analytic" and a["learned_note"] is None
assert a["step_ms"] == b["step_ms"] and a["memory_mb"] == b["memory_mb"] and a["energy_j"] == b["energy_j"] > 0
PY
then ok predict_gpu_not_learned
else bad predict_gpu_not_learned "$(tail -3 "$tmp/err")"; fi

# never a silent impossibility (issue 23): memory above the device is said in
# text and JSON; impossible combinations exit 2 with one line and the reason
V=data/models/torchvision/vgg16_bn.onnx; DIM="--dim height=224 --dim width=224"
if "$BIN" predict $V $DIM --device t4 --batch 4096 --mode train >"$tmp/nf.txt" 2>"$tmp/err" &&
   grep -q "DOES NOT FIT (needs [0-9.]* GiB of 16.0 GiB)" "$tmp/nf.txt" &&
   "$BIN" predict $V $DIM --device t4 --batch 4096 --mode train --json >"$tmp/nf.json" 2>>"$tmp/err" &&
   python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["fits"] is False and d["device_memory_mb"] == 16384 and d["memory_mb"] > 16384' "$tmp/nf.json" 2>>"$tmp/err" &&
   "$BIN" predict $V $DIM --device t4 --batch 1 >"$tmp/f.txt" 2>>"$tmp/err" && ! grep -q "DOES NOT FIT" "$tmp/f.txt"; then
  ok predict_does_not_fit
else bad predict_does_not_fit "$(grep -i memory "$tmp/nf.txt") $(tail -2 "$tmp/err")"; fi
failed=""
while IFS='|' read -r name args want; do
  "$BIN" predict $args >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "$want" "$tmp/err" && [ ! -s "$tmp/out" ] ||
    failed="$failed $name(rc=$rc: $(head -1 "$tmp/err"))"
done <<LIST
trt_train|$V $DIM --device h100-sxm --batch 1 --runtime tensorrt --mode train|does not train
trt_amd|$V $DIM --device mi300x --batch 1 --runtime tensorrt|NVIDIA GPUs only
fuse_train|$V $DIM --device h100-sxm --batch 1 --fuse --mode train|inference-only
fp8_eager_conv|$V $DIM --device h100-sxm --batch 1 --dtype fp8|no fp8 convolution
bert_positions|examples/bert.onnx --device a100-40gb --batch 1 --seq 1000000|has 512
power_limit_above_tdp|$V $DIM --device t4 --batch 1 --power-limit 100|power limit 100 W is outside
cudnn_7|$V $DIM --device h100-sxm --batch 1 --cudnn 7|'7' is not 8 or 9
cudnn_trt|$V $DIM --device h100-sxm --batch 1 --runtime tensorrt --cudnn 8|does not apply to TensorRT
cudnn_amd|$V $DIM --device mi300x --batch 1 --cudnn 9|NVIDIA GPUs only
LIST
if [ -z "$failed" ]; then ok predict_refused_combinations; else bad predict_refused_combinations "$failed"; fi

# --cudnn 8: PyTorch 2.x before 2.4 trains RegNet's grouped convs (2 to 27
# groups of 24..112 channels) on cuDNN 8's direct kernels, so its step is
# longer than eager's default (cuDNN 9) and equal to eager-1.x's backward
# rule; in channels_last its forward of those widths (24, not a power of
# two) runs the direct kernel too, so NHWC inference is longer, while NCHW
# inference does not change (tests/test_cudnn.c has the hand numbers)
R=data/models/torchvision/regnet_y_1_6gf.onnx
step() { "$BIN" predict $R $DIM --device rtx3090 --batch 32 --dtype fp16 --json "$@" |
         python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["step_ms"] or d["latency_ms"])'; }
if [ -f $R ]; then
  s9=$(step --layout nhwc --mode train) s8=$(step --layout nhwc --mode train --cudnn 8)
  i9=$(step --layout nhwc) i8=$(step --layout nhwc --cudnn 8) n9=$(step) n8=$(step --cudnn 8)
  if python3 -c "import sys; a,b,c,d,e,f=map(float,sys.argv[1:]); sys.exit(0 if b > 1.2*a and d > 1.1*c and e == f else 1)" \
       "$s9" "$s8" "$i9" "$i8" "$n9" "$n8" 2>/dev/null; then ok predict_cudnn8_grouped
  else bad predict_cudnn8_grouped "train $s9 -> $s8 ms, infer NHWC $i9 -> $i8 ms, NCHW $n9 -> $n8 ms"; fi
fi
