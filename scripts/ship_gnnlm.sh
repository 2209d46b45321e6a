#!/usr/bin/env bash
# ship_gnnlm.sh — (re)make the gnnlm base model dlperf ships
# (data/models/gnnlm/dlperf-gnnlm.dlpm, compiled in by `make`; `--init
# builtin-gnnlm`; docs/gnnlm.md "The shipped base"): thesis chapter 7's
# three stages on every public HELP setting, both NAS spaces, every cell:
#   1. GraphMAE pre-training of the GIN on unlabeled NAS-Bench-201 cells;
#   2. graph-to-text (stage adapt) on public samples, the GIN frozen;
#   3. stage predict on every public sample of NAS-Bench-201 (15,625 cells x
#      16 settings) and FBNet (5,000 archs x 16 settings), as many epochs as
#      the time budget allows (train --max-minutes), 2 % of the architectures
#      held out for validation (the kept epoch) and 2 % for the test line.
#
#   scripts/ship_gnnlm.sh [MINUTES]     (default 120: the whole script's budget)
#
# The held-out devices (titan_rtx_*, gold_6240, pixel3, samsung_s7) are left
# out of every stage, as the shipped language model's corpus leaves them out
# (scripts/ship_lm.sh): bench/bench_gnnlm.sh --base adapts this base to them.
# Everything runs on one thread (OPENBLAS_NUM_THREADS=1, --threads 1).
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
MIN=${1:-120}
BIN=$BUILD/dlperf
SHARED=${DLP_SHARED:-../shared}
LM=data/models/lm/dlperf-lm.dlpm
export OPENBLAS_NUM_THREADS=1
T0=$(date +%s)
tmp=${SHIP_TMP:-$(mktemp -d)}
[ -n "${SHIP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
left_min() { echo $(( MIN - ($(date +%s) - T0) / 60 )); }
say() { echo "$(date +%H:%M:%S) ship_gnnlm: $*"; }

NB="1080ti_1,1080ti_32,1080ti_256,2080ti_1,2080ti_32,2080ti_256,titanx_1,titanx_32,titanx_256"
NB="$NB,titanxp_1,titanxp_32,titanxp_256,essential_ph_1,samsung_a50,silver_4114,silver_4210r"
FB="1080ti_1,1080ti_32,1080ti_64,2080ti_1,2080ti_32,2080ti_64,titanx_1,titanx_32,titanx_64"
FB="$FB,titanxp_1,titanxp_32,titanxp_64,essential_ph_1,samsung_a50,silver_4114,silver_4210r"
if [ ! -s "$tmp/all.dlpd" ]; then
  "$BIN" dataset build --from help-nb201 --device "$NB" --layout dippm --shared "$SHARED" --out "$tmp/nb.dlpd" | tail -n 1
  "$BIN" dataset build --from help-fbnet --device "$FB" --layout dippm --shared "$SHARED" --out "$tmp/fb.dlpd" | tail -n 1
  "$BIN" dataset merge "$tmp/nb.dlpd" "$tmp/fb.dlpd" --out "$tmp/all.dlpd"
  rm -f "$tmp/nb.dlpd" "$tmp/fb.dlpd"
fi
SPLIT="--split random:0.96:0.02 --split-by name --split-seed 1 --seed 1 --threads 1 --progress lines"

say "stage 1: GraphMAE on 3000 unlabeled NAS-Bench-201 cells"
[ -s "$tmp/s1.dlpm" ] || "$BIN" pretrain --unlabeled help-nb201 --method graphmae --layout dippm --hidden 64 --layers 3 \
  --epochs 3 --max-graphs 3000 --seed 1 --threads 1 --progress none --out "$tmp/s1.dlpm" | tail -n 2
say "stage 2: graph-to-text on 1500 public samples"
[ -s "$tmp/s2.dlpm" ] || "$BIN" train --data "$tmp/all.dlpd" $SPLIT --train-limit 1500 --val-limit 200 --arch gnnlm \
  --lm "$LM" --encoder "$tmp/s1.dlpm" --stage adapt --epochs 2 --out "$tmp/s2.dlpm" | grep -v '^epoch' | tail -n 3

# stage 3: the samples per second of this machine now (a 400-sample epoch),
# then a training subset that one epoch covers in a fifth of the time left,
# and epochs until the budget is spent (--max-minutes stops after an epoch)
say "stage 3: measuring the training rate"
"$BIN" train --data "$tmp/all.dlpd" $SPLIT --train-limit 400 --val-limit 10 --init "$tmp/s2.dlpm" --stage predict \
  --epochs 1 --out "$tmp/rate.dlpm" > "$tmp/rate.log" 2>&1
rate=$(sed -n 's/.* on 400 samples in \([0-9.]*\) s.*/\1/p' "$tmp/rate.log")
[ -n "$rate" ] || { cat "$tmp/rate.log"; echo "ship_gnnlm: could not read the training rate"; exit 1; }
left=$(( $(left_min) - 8 ))     # 8 minutes for validation, the test line and the copy
[ "$left" -ge 5 ] || { echo "ship_gnnlm: budget too small ($MIN min)"; exit 1; }
per_epoch=$(awk -v r="$rate" -v l="$left" 'BEGIN { n = int(400 / r * l * 60 / 5); print (n < 2000 ? 2000 : n) }')
say "stage 3: $rate s per 400 samples; $left min left: epochs of $per_epoch samples until the budget is spent"
"$BIN" train --data "$tmp/all.dlpd" $SPLIT --train-limit "$per_epoch" --val-limit 3000 --init "$tmp/s2.dlpm" \
  --stage predict --epochs 50 --max-minutes "$left" --out "$tmp/s3.dlpm" --report-json "$tmp/s3.json" 2>&1 |
  tee "$tmp/s3.log" | grep -v '^step '
mkdir -p data/models/gnnlm
cp "$tmp/s3.dlpm" data/models/gnnlm/dlperf-gnnlm.dlpm
cp "$tmp/s3.json" data/models/gnnlm/dlperf-gnnlm.report.json
ls -l data/models/gnnlm/
say "done in $(( ($(date +%s) - T0) / 60 )) min"
