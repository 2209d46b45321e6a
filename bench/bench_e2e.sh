#!/usr/bin/env bash
# End-to-end checks of `dlperf predict` against measured whole models
# (bench/bench_e2e.c, bench/e2e_vision.c):
#   NeuSight  transformers (BERT-large, GPT-2-large, GPT-3-XL/2.7B, OPT-1.3B; fp32
#             PyTorch 2.1 eager; inference and training fw+bw) on 10 GPUs: per-row
#             table, MAPE per GPU, model, mode, pure / calibrated / curves refitted
#             without the row's GPU; per-op-class comparison with NeuSight's
#             op-level CSVs -> docs/results_e2e.md
#   timm      RTX 3090 AMP inference (NCHW/NHWC x PyTorch 1.13/2.1/2.4) and NHWC
#             training (PyTorch 1.12) of the timm models with a torchvision
#             architecture (bench/timm_map.csv, data/models/torchvision)
#   MLPerf    ResNet-50 and BERT-large offline throughput (TensorRT)
#   Zeus      ResNet-50 fp32 training step time and power
# --all/--timm write docs/results_e2e_vision.md: per-row tables and MAPE per data
# set, GPU, family, dtype, mode, memory format and PyTorch version, all-GPU
# calibration beside leave-one-GPU-out, Acc(10%), median measured/predicted.
#   bench/bench_e2e.sh            NeuSight only; print and regenerate docs/results_e2e.md
#   bench/bench_e2e.sh --all      every data set; also docs/results_e2e_vision.md
#   bench/bench_e2e.sh --timm     timm only (docs/results_e2e_vision.md)
#   bench/bench_e2e.sh --mlperf   MLPerf and Zeus only, printed (bench/bench_roofline.sh calls this)
#   --no-md                       (with any of the above) print only
# A data set whose files are missing is skipped with one line; never fails the build.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SHARED=${DLP_SHARED:-../shared}
ASPLOS="$SHARED/data/NeuSight/scripts/asplos"
TIMM="$SHARED/data/pytorch-image-models/results"
ZEUS="$SHARED/data/zeus/examples/research_reproducibility/zeus_nsdi23/trace"
RN50="$SHARED/models/torchvision/resnet50.onnx"
WHAT=neusight MD=1
for a in "$@"; do
  case "$a" in
    --all) WHAT=all ;;
    --timm) WHAT=timm ;;
    --mlperf) WHAT=mlperf MD=0 ;;
    --no-md) MD=0 ;;
    *) echo "usage: bench/bench_e2e.sh [--all|--timm|--mlperf] [--no-md]" >&2; exit 2 ;;
  esac
done
[ -f "$BUILD/libdlperf.a" ] || make -j2 >/dev/null || { echo "bench_e2e: build failed; skipped"; exit 0; }
cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc -Ibench bench/bench_e2e.c "$BUILD/libdlperf.a" \
  $(pkg-config --cflags --libs openblas libcjson libmicrohttpd sqlite3 xgboost 2>/dev/null) -lm -lpthread \
  -o "$BUILD/bench_e2e" || { echo "bench_e2e: does not compile; skipped"; exit 0; }
ARGS=()
if [ "$WHAT" = all ] || [ "$WHAT" = neusight ]; then
  if [ -d "$ASPLOS/label" ]; then
    ARGS+=("$ASPLOS" --kernels "$ASPLOS/data/dataset")
    [ "$MD" = 1 ] && ARGS+=(--md docs/results_e2e.md)
  else
    echo "bench_e2e: no NeuSight labels at $ASPLOS/label; skipped"
  fi
fi
if [ "$WHAT" = all ] || [ "$WHAT" = timm ]; then
  if ls "$TIMM"/benchmark-*-rtx3090.csv >/dev/null 2>&1; then
    ARGS+=(--timm "$TIMM" --map bench/timm_map.csv --models data/models/torchvision --models "$SHARED/models/torchvision")
  else
    echo "bench_e2e: no timm RTX 3090 files at $TIMM; skipped"
  fi
  [ "$MD" = 1 ] && ARGS+=(--md-vision docs/results_e2e_vision.md)
fi
if [ "$WHAT" = all ] || [ "$WHAT" = mlperf ]; then
  [ -f "$RN50" ] && ARGS+=(--rn50 "$RN50")
  found=0
  for f in "$SHARED"/data/inference_results_v*/DERIVED_mlperf_summary.csv; do
    [ -f "$f" ] && ARGS+=(--mlperf "$f") && found=1
  done
  [ "$found" = 1 ] || echo "bench_e2e: no MLPerf summaries under $SHARED/data; skipped"
  if [ -d "$ZEUS" ]; then ARGS+=(--zeus "$ZEUS"); else echo "bench_e2e: no Zeus traces at $ZEUS; skipped"; fi
fi
[ ${#ARGS[@]} -gt 0 ] || exit 0
"$BUILD/bench_e2e" "${ARGS[@]}" || echo "bench_e2e: exited $?"
exit 0
