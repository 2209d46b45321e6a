#!/usr/bin/env bash
# outputs.sh DIR — write what dlperf answers (predict/inspect/llm/mig/devices
# --json and text, on the shipped and ../shared models, a trained model file,
# a few bench tables) into DIR, one file per case, so that two builds can be
# compared byte for byte:
#
#   tools/refactor/outputs.sh /tmp/before      # on the old build
#   ... refactor, make ...
#   tools/refactor/outputs.sh /tmp/after
#   tools/refactor/compare.sh /tmp/before /tmp/after
#
# Fields that hold wall-clock time (predict_ms, elapsed, timings) are dropped
# with jq before writing; everything else must be identical.  Uses the build in
# $BUILD (default build/).  Run from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: outputs.sh DIR}
D=${BUILD:-build}/dlperf
mkdir -p "$OUT"
SH=../shared/models/torchvision
strip='del(.. | .predict_ms?, .elapsed_ms?, .wall_ms?, .time_ms?, .seconds?)'
# a scratch folder: model files and reports name the paths they came from
# (its own per run, so that two runs at once do not collide; its path is
# replaced by T/ in every output)
T=$(mktemp -d /tmp/dlperf-outputs.XXXXXX)
n=0
run() {   # run NAME CMD...   -> NAME.out (stdout, timing fields stripped if JSON), NAME.rc
  local name=$1; shift
  "$@" >"$OUT/$name.raw" 2>"$OUT/$name.err"; echo $? >"$OUT/$name.rc"
  if jq -e . "$OUT/$name.raw" >/dev/null 2>&1; then jq -S "$strip" "$OUT/$name.raw" | sed -e "s#$T/#T/#g" >"$OUT/$name.out"
  else sed -E -e "s#$OUT/#OUT/#g" -e "s#$T/#T/#g" -e 's/ in [0-9.]+ s:/ in X s:/' "$OUT/$name.raw" >"$OUT/$name.out"; fi
  rm -f "$OUT/$name.raw"; n=$((n+1))
}
models="examples/resnet18.onnx examples/bert.onnx"
for m in $SH/*.onnx data/models/torchvision/*.onnx; do [ -f "$m" ] && models="$models $m"; done
for m in $models; do
  b=$(basename "$m" .onnx); seq=""; [ "$b" = bert ] && seq="--seq 128"
  case $m in data/models/*) b="own_$b"; seq="--dim height=224 --dim width=224";; esac
  run "inspect_$b" "$D" inspect "$m" --batch 8 $seq --json
  run "predict_${b}_a100" "$D" predict "$m" --device a100-40gb --batch 32 $seq --json
  run "predict_${b}_h100_fp16" "$D" predict "$m" --device h100-sxm --batch 64 $seq --dtype fp16 --json
  run "predict_${b}_l4_train" "$D" predict "$m" --device l4 --batch 16 $seq --dtype fp16 --mode train --json
done
for m in examples/resnet18.onnx $SH/vit_b_16.onnx $SH/vgg16.onnx $SH/resnet50.onnx; do
  [ -f "$m" ] || continue; b=$(basename "$m" .onnx)
  run "kernels_${b}_compile" "$D" predict "$m" --device h100-sxm --batch 64 --dtype fp16 --runtime compile --kernels
  run "kernels_${b}_trt" "$D" predict "$m" --device h100-sxm --batch 1 --dtype fp16 --runtime tensorrt --json
  run "text_${b}_rtx4090" "$D" predict "$m" --device rtx4090 --batch 256 --dtype fp16 --kernels
  run "text_${b}_cpu" "$D" predict "$m" --device cpu-amd-epyc-2c --batch 8 --mode train
  run "roofline_${b}" "$D" roofline "$m" --device a100-40gb --batch 32 --out "$OUT/roofline_$b.svg"
done
run predict_text_main "$D" predict examples/resnet18.onnx --device h100-sxm --batch 32
run predict_text_bert "$D" predict examples/bert.onnx --device a100-40gb --batch 8 --seq 128 --mode train
run predict_runs "$D" predict examples/resnet18.onnx --device a100-80gb --batch 16 --runs 1e6 --region eu --json
for dev in h100-sxm a100-40gb h200; do
  for mem in 3000 7300 20000 70000; do run "mig_${dev}_$mem" "$D" mig --device $dev --memory-mb $mem --json; done
done
run devices "$D" devices --json
run llm_list "$D" llm --list
while read -r name args; do
  [ -z "$name" ] && continue
  run "llm_$name" "$D" llm $args --json
  run "llmtext_$name" "$D" llm $args
done <<'LIST'
bert --model bert-base-uncased --device h100-sxm --batch 64 --seq 128 --dtype fp16
qwen3moe --model Qwen/Qwen3-30B-A3B --device h100-sxm --gpus 2 --dtype fp8 --kv-dtype fp8 --seq 1024 --gen 256
gptoss --model openai/gpt-oss-120b --device h100-sxm --dtype mxfp4 --seq 2048 --gen 256
qwen35 --model Qwen/Qwen3.5-397B-A17B --device b200 --gpus 8 --dtype fp8 --seq 8192 --gen 1024
serve_qwen --model Qwen/Qwen3-30B-A3B-Instruct-2507 --device h100-sxm --gpus 2 --dtype bf16 --concurrency 256 --prompt 1024 --gen 400
maxfit_gptoss --model openai/gpt-oss-120b --device h100-sxm --dtype mxfp4 --max-fit
llama8 --model meta-llama/Llama-3.1-8B-Instruct --device h100-sxm --dtype bf16 --concurrency 64 --prompt 1024 --gen 256
llama8_l4 --model meta-llama/Llama-3.1-8B-Instruct --device l4 --dtype fp16 --batch 4 --seq 512 --gen 128
gemma_img --model google/gemma-3-12b-it --device h100-sxm --dtype bf16 --concurrency 16 --prompt 512 --gen 256 --image-tokens 16
LIST
# a trained model file (fixed seed, one thread): its bytes, and eval on it
SMALL="--hidden 16 --layers 2 --fc-layers 2 --lr 3e-3 --batch-size 16 --threads 1 --seed 3"
if "$D" dataset build --from help-nb201 --device titanxp_32 --limit 300 --layout dippm --out "$T/d.dlpd" >/dev/null 2>&1; then
  run train "$D" train --data "$T/d.dlpd" --arch sage --targets latency_ms --epochs 3 $SMALL --out "$T/m.dlpm" --report "$T/train.md"
  # the file without what changes from run to run: the training time in its
  # header (and so the header length and the CRC); every other byte compared
  /usr/bin/python3 -c 'import re,sys; d=open(sys.argv[1],"rb").read(); d=d[:8]+d[12:-4]
d=re.sub(rb"\"seconds\":[0-9.eE+-]+", b"\"seconds\":X", d, count=1); open(sys.argv[2],"wb").write(d)' \
    "$T/m.dlpm" "$OUT/train_model.dlpm.norm"
  jq -S 'del(.elapsed_s?)' "$T/train.json" 2>/dev/null | sed -e "s#$T/#T/#g" >"$OUT/train_targets.json"
  run eval "$D" eval --model "$T/m.dlpm" --data "$T/d.dlpd" --report "$T/e.md"
  jq -S .targets "$T/e.json" >"$OUT/eval_targets.json" 2>/dev/null
  run predict_graph "$D" predict-graph --model "$T/m.dlpm" examples/resnet18.onnx --batch 8 --json
fi
rm -rf "$T"
# bench tables (kernel-level roofline MAPE, MLPerf/Zeus rows; they print no timings)
BUILD=${BUILD:-build} bench/bench_roofline.sh >"$OUT/bench_roofline.out" 2>&1
echo "outputs.sh: $n cases in $OUT"
