#!/usr/bin/env bash
# ship_learned.sh — (re)train the learned models dlperf ships for the CPU we
# measured (data/models/learned/, embedded by `make`; docs/learned.md):
# TraPPM (arch trappm, thesis §5.4.3) on ALL labelled runs of
# data/cpu/runs.sqlite, with the recipe of bench/bench_trappm.sh's default
# run and the GAE encoder that run pre-trained (cached in its output folder).
#
#   scripts/ship_learned.sh [BENCH_OUT]      (default build/bench/trappm)
#
# The accuracy line written beside each model (.txt) is the family 70/30
# test MAPE of TraPPM over seeds 1337..1341 from BENCH_OUT/results_trappm.json
# when present, else from a fresh split run here (seed 1337).
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
OUT=${1:-$BUILD/bench/trappm}
BIN=$BUILD/dlperf
DEST=data/models/learned
DEV=cpu-amd-epyc-2c
enc=$(ls -t "$OUT"/enc-cpu-gae-*.dlpm 2>/dev/null | head -1 || true)
[ -n "$enc" ] || { echo "ship_learned: no GAE encoder in $OUT (run bench/bench_trappm.sh first)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BIN" dataset build --from data/cpu/runs.sqlite --mode train --target step_ms,memory_mb --out "$tmp/train.dlpd" >/dev/null
"$BIN" dataset build --from data/cpu/runs.sqlite --target latency_ms,memory_mb --out "$tmp/infer.dlpd" >/dev/null
# the encoder ships too (users can --encoder it; its weights are inside every model anyway)
mkdir -p data/models/encoders
cp "$enc" data/models/encoders/cpu-gae-h64-l3.dlpm
enc=data/models/encoders/cpu-gae-h64-l3.dlpm
recipe=(--arch trappm --encoder "$enc" --hidden 64 --layers 2 --fc-layers 2 --epochs 50 --batch-size 16
        --lr 1e-3 --loss mse --readout scaled-sum --keep-last --seed 1 --threads 1 --progress none)
ship() {   # mode data target
  local mode=$1 data=$2 target=$3 name="$DEV--$1--$3"
  # held-out figure first (family 70/30, seed 1337), then the shipped model on every sample
  "$BIN" train --data "$data" "${recipe[@]}" --targets "$target" --split family-mc --split-seed 1337 \
    --out "$tmp/$name.eval.dlpm" --report-json "$tmp/$name.json" >/dev/null
  local mape
  mape=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%.1f" % d["targets"][sys.argv[2]]["overall"]["mape"])' "$tmp/$name.json" "$target")
  "$BIN" train --data "$data" "${recipe[@]}" --targets "$target" --split none --out "$DEST/$name.dlpm" >/dev/null
  local n
  n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["n"])' "$tmp/$name.json")
  printf 'trappm + frozen GAE encoder (%s), trained on all %s runs of data/cpu; family 70/30 test MAPE %s %% (seed 1337, %s test samples)\n' \
    "$enc" "$mode" "$mape" "$n" >"$DEST/$name.txt"
  echo "shipped $DEST/$name.dlpm ($target: held-out MAPE $mape %)"
}
ship train "$tmp/train.dlpd" step_ms
ship train "$tmp/train.dlpd" memory_mb
ship infer "$tmp/infer.dlpd" latency_ms
ship infer "$tmp/infer.dlpd" memory_mb
