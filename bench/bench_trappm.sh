#!/usr/bin/env bash
# bench_trappm.sh — the thesis' chapter-5 (TraPPM) protocol on dlperf's own
# CPU measurements, one command: tables 5.2-5.4 (TraPPM, NNLQP, MLP, GBoost;
# per-family 70/30 splits, seeds 1337..1341), figure 5.5 (convergence, SVG),
# the weight-initialisation ablation (§5.5.9), transfer inference -> training
# mode with 32 labels (table 5.5), "does pre-training pay" (no encoder / GAE /
# GraphMAE at 100/30/10 % labels) on the CPU sets and on HELP NB201.
# Builds bench/bench_trappm.c against $BUILD/libdlperf.a (run `make` first).
# Report: docs/results_trappm.md + docs/results_trappm_convergence.svg,
# rewritten after every section (a killed run keeps what it finished).
#
#   bench/bench_trappm.sh [--quick | --full] [--unlabeled DIR] [--jobs N]
#                         [--sections main,ablation,transfer,pays,help]
#                         [--out DIR] [-- extra bench_trappm options]
#
#   default  GNN hidden 64, 50 epochs, batch 16, scaled-sum readout (the
#            thesis' plain sum made NNLQP's predictions diverge on these
#            20-6,107-node graphs: step_ms MAPE 74 % vs 33 % with scaled-sum,
#            30 epochs, seed 1337); encoders 64 wide x 3 layers, 30 epochs on
#            at most 2,000 corpus graphs of <= 3,000 nodes; 5 splits (ablation
#            3).  Measured CPU cost: one 50-epoch NNLQP/TraPPM training ~41
#            CPU-s, GBoost grid ~9 CPU-s, GAE ~3.2 ms and GraphMAE ~6 ms per
#            graph-epoch: ~3,800 CPU-s in all for a ~1,000-graph corpus, i.e.
#            ~32 min on the quiet 2-vCPU VM with --jobs 2 (twice that when the
#            two cores are shared); the report's last table gives wall and CPU
#            time per part.
#   --quick  tiny settings, a few minutes, report to $OUT/results_trappm.md
#            (not docs/): a smoke test; its numbers mean nothing.
#   --full   the thesis' values (hidden 512, 100 epochs, GAE 512x4 for 400
#            epochs on the whole corpus, the thesis' XGBoost grid (colsample
#            fixed at 1, lr 0.1 added), sum readout, 5 seeds
#            everywhere, all 15,625 NB201 cells): days on this machine.
#
# Data: $OUT/cpu-train.dlpd and $OUT/cpu-infer.dlpd are built from the
# committed store data/cpu/runs.sqlite when missing; the labelled NB201 set
# from ../shared/data/HELP (skipped when absent).  Unlabeled graphs: --unlabeled
# DIR (default build/bench/trappm/unlabeled), a directory of ONNX graphs with manifest.jsonl;
# regenerate it (torch needed; ~1-2 h) with
#   tools/profile/dlperf-profile --family all --unlabeled 2000 --out build/bench/trappm/unlabeled \
#       --max-params 60e6 --resolutions 48,64,96
# Without it the encoders pre-train on the labelled graphs alone (said in the
# report).  Encoders, corpus packs and transfer sources are cached in $OUT.
# Never fails: what cannot run prints why and the script exits 0.
set -u
cd "$(dirname "$0")/.." || exit 0
BUILD=${BUILD:-build}
OUT=""
MODE=default
JOBS=2
UNL=""
SECTIONS=all
EXTRA=()
ARGS="$*"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) MODE=quick;;
    --full) MODE=full;;
    --jobs) JOBS=$2; shift;;
    --unlabeled) UNL=$2; shift;;
    --sections) SECTIONS=$2; shift;;
    --out) OUT=$2; shift;;
    --) shift; EXTRA=("$@"); break;;
    *) echo "bench_trappm: unknown option $1 (see the header of $0)"; exit 0;;
  esac
  shift
done
[ -z "$OUT" ] && OUT=$BUILD/bench/trappm
[ "$MODE" = quick ] && [ "$OUT" = "$BUILD/bench/trappm" ] && OUT=$BUILD/bench/trappm-quick
[ -z "$UNL" ] && UNL=$BUILD/bench/trappm/unlabeled
if [ "$MODE" = quick ]; then
  MD=$OUT/results_trappm.md; SVG=$OUT/results_trappm_convergence.svg
else
  MD=docs/results_trappm.md; SVG=docs/results_trappm_convergence.svg
fi
SHARED=${DLP_SHARED:-../shared}
if [ ! -f "$BUILD/libdlperf.a" ] || [ ! -x "$BUILD/dlperf" ]; then
  echo "bench_trappm: $BUILD/libdlperf.a or $BUILD/dlperf missing (run make)"; exit 0
fi
mkdir -p "$OUT" || exit 0

# The encoder, corpus and TraPPM parts of the library may not exist yet
# (other modules land separately): compile what the library has.
DEFS=()
SYMS=$(nm -g --defined-only "$BUILD/libdlperf.a" 2>/dev/null)
for s in dlp_encoder_pretrain dlp_encoder_new dlp_corpus_pack dlp_encoder_load; do
  grep -q " T $s\$" <<<"$SYMS" || { DEFS+=(-DBENCH_NO_PRETRAIN); echo "bench_trappm: library lacks $s: no pre-training, no TraPPM"; break; }
done
grep -q " T dlp_gnn_loss_curve\$" <<<"$SYMS" || { DEFS+=(-DBENCH_NO_CURVE); echo "bench_trappm: library lacks dlp_gnn_loss_curve: no loss curves"; }
if ! cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Iinclude -Isrc "${DEFS[@]}" $(pkg-config --cflags openblas) \
     bench/bench_trappm.c "$BUILD/libdlperf.a" \
     $(pkg-config --libs openblas libcjson libmicrohttpd sqlite3 xgboost 2>/dev/null) -lm -lpthread \
     -o "$OUT/bench_trappm"; then
  echo "bench_trappm: build failed"; exit 0
fi
# a private copy of the CLI: rebuilding dlperf during the run does not change it
cp "$BUILD/dlperf" "$OUT/dlperf"
DL=$OUT/dlperf

# ---- labelled sets, built from the committed store (dlperf dataset build) ----
STORE=data/cpu/runs.sqlite
if [ ! -f "$OUT/cpu-train.dlpd" ]; then
  "$DL" dataset build --from "$STORE" --mode train --target step_ms,memory_mb --out "$OUT/cpu-train.dlpd" \
    || { echo "bench_trappm: could not build the training set from $STORE"; exit 0; }
fi
if [ ! -f "$OUT/cpu-infer.dlpd" ]; then
  "$DL" dataset build --from "$STORE" --target latency_ms,memory_mb --out "$OUT/cpu-infer.dlpd" \
    || { echo "bench_trappm: could not build the inference set from $STORE"; exit 0; }
fi
# measured noise floor of the store (repeat CV medians); the datasheet's
# values when the stats cannot be read
NOISE=$("$DL" data stats "$STORE" 2>/dev/null | awk '
  $1=="infer" && $2=="latency_ms" && NF==8 {lat=$7} $1=="train" && $2=="step_ms" && NF==8 {st=$7}
  $1=="train" && $2=="memory_mb" && NF==8 {mt=$7} $1=="infer" && $2=="memory_mb" && NF==8 {mi=$7}
  END { if (st!="" && lat!="" && mt!="" && mi!="") print st "," lat "," mt "," mi }')
[ -z "$NOISE" ] && NOISE=22.81,22.60,0.07,0.02

# ---- HELP NB201: one device's latency, the first cells of the table ----
HELP_ARGS=()
case "$MODE" in quick) CELLS=100;; full) CELLS=1000;; *) CELLS=300;; esac
HDEV=gold_6240
HELP_DS=$OUT/help-nb201-$HDEV-$CELLS.dlpd
if [ -f "$SHARED/data/HELP/DERIVED_csv/nasbench201_latency_ms.csv" ]; then
  if [ -f "$HELP_DS" ] || "$DL" dataset build --from help-nb201 --device $HDEV --limit $CELLS \
       --shared "$SHARED" --out "$HELP_DS" >/dev/null; then
    HELP_ARGS=(--help-data "$HELP_DS" --help-cells $CELLS --help-device $HDEV)
  else
    echo "bench_trappm: could not build $HELP_DS (HELP section skipped)"
  fi
else
  echo "bench_trappm: $SHARED/data/HELP missing (HELP section skipped)"
fi

echo "== bench_trappm ($MODE, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), jobs $JOBS)"
T0=$(date +%s)
"$OUT/bench_trappm" --mode "$MODE" --jobs "$JOBS" --sections "$SECTIONS" \
  --train "$OUT/cpu-train.dlpd" --infer "$OUT/cpu-infer.dlpd" --unlabeled "$UNL" \
  --work "$OUT" --out-md "$MD" --out-svg "$SVG" --noise "$NOISE" \
  --command "bench/bench_trappm.sh${ARGS:+ $ARGS}" "${HELP_ARGS[@]}" "${EXTRA[@]}" 2>&1 | tee "$OUT/log.txt" \
  || echo "bench_trappm: driver exited abnormally (partial report kept in $MD)"
echo "bench_trappm: $(( ($(date +%s) - T0) / 60 )) min; report $MD, log $OUT/log.txt"
exit 0
