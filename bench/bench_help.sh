#!/usr/bin/env bash
# bench_help.sh — the first real benchmark of the GNN predictors: HELP's
# NAS-Bench-201 (or, with --space fbnet, FBNet) latency tables, every device
# setting of the shared copy,
# SAGE / GCN / GAT / GIN / MLP, (a) DIPPM's fixed random 70/15/15 split and
# (b) only 1,000 training graphs (+150 validation) tested on the same 15%
# test split.  Results: docs/results_help.md (with the command and the
# settings), raw JSON per training under $OUT/res.
#
#   bench/bench_help.sh [--space nb201|fbnet] [--quick] [--jobs N] [--epochs-a N]
#                       [--epochs-b N] [--hidden N] [--devices a,b,...] [--out DIR]
# FBNet results go to docs/results_help_fbnet.md (default out build/bench/help-fbnet).
#
# Budget (2 cores): 21 devices x 5 archs x 2 settings = 210 trainings, one
# BLAS thread each, --jobs (default 2) at once.  One SAGE epoch over the
# 10,938 training graphs (+2,344 validation) at hidden 32 takes ~7 s of CPU
# here, so the defaults (hidden 32, 5 epochs for (a), 25 over 1,000 graphs
# for (b)) keep the whole run near an hour; DIPPM's hidden 512 would cost
# ~60x more per epoch.  --quick: 2 devices, 2 / 10 epochs (a few minutes),
# results to $OUT/results_quick.md instead of docs/.
# Never fails the build: a benchmark that cannot run says why and exits 0.
set -u
cd "$(dirname "$0")/.." || exit 0
BUILD=${BUILD:-build}
OUT=build/bench/help
JOBS=2
EA=5
EB=25
HID=32
QUICK=0
OUT_GIVEN=0
SPACE=nb201
DEVICES=""
ARGS="$*"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1; EA=2; EB=10;;
    --space) SPACE=$2; shift;;
    --jobs) JOBS=$2; shift;;
    --epochs-a) EA=$2; shift;;
    --epochs-b) EB=$2; shift;;
    --hidden) HID=$2; shift;;
    --devices) DEVICES=$2; DEVICES_GIVEN=1; shift;;
    --out) OUT=$2; OUT_GIVEN=1; shift;;
    *) echo "bench_help: unknown option $1"; exit 0;;
  esac
  shift
done
case "$SPACE" in
  nb201) CSV=nasbench201_latency_ms.csv; CELLS=15625
    ALL="1080ti_1,1080ti_32,1080ti_256,2080ti_1,2080ti_32,2080ti_256,titan_rtx_1,titan_rtx_32,titanx_1,titanx_32,titanx_256,titanxp_1,titanxp_32,titanxp_256,essential_ph_1,gold_6240,pixel3,samsung_a50,samsung_s7,silver_4114,silver_4210r";;
  fbnet) CSV=fbnet_latency_ms.csv; CELLS=5000
    ALL="1080ti_1,1080ti_32,1080ti_64,2080ti_1,2080ti_32,2080ti_64,titan_rtx_1,titan_rtx_32,titan_rtx_64,titanx_1,titanx_32,titanx_64,titanxp_1,titanxp_32,titanxp_64,essential_ph_1,gold_6240,pixel3,samsung_a50,samsung_s7,silver_4114,silver_4210r"
    [ "$OUT_GIVEN" = 0 ] && OUT=build/bench/help-fbnet;;
  *) echo "bench_help: --space nb201 or fbnet"; exit 0;;
esac
[ -z "$DEVICES" ] && DEVICES=$ALL
[ "$QUICK" = 1 ] && [ -z "${DEVICES_GIVEN:-}" ] && DEVICES="titanxp_32,pixel3"
[ "$QUICK" = 1 ] && [ "$OUT_GIVEN" = 0 ] && OUT=build/bench/help-quick-$SPACE
SHARED=${DLP_SHARED:-../shared}
if [ ! -x "$BUILD/dlperf" ]; then echo "bench_help: $BUILD/dlperf missing (run make)"; exit 0; fi
if [ ! -f "$SHARED/data/HELP/DERIVED_csv/$CSV" ]; then
  echo "bench_help: $SHARED/data/HELP missing"; exit 0
fi
command -v jq >/dev/null || { echo "bench_help: needs jq"; exit 0; }
mkdir -p "$OUT/res" "$OUT/log"
# a private copy: rebuilding dlperf during the run does not change it
cp "$BUILD/dlperf" "$OUT/dlperf"
DL="$OUT/dlperf"
T0=$(date +%s)

# ---- data: one DIPPM-layout file per batch (the graph depends on the batch) ----
batch_of() {  # the dataset build rule: a power-of-two suffix up to 4096, else 1
  local s=${1##*_}
  case "$s" in 1|2|4|8|16|32|64|128|256|512|1024|2048|4096) echo "$s";; *) echo 1;; esac
}
declare -A COLS
for d in ${DEVICES//,/ }; do b=$(batch_of "$d"); COLS[$b]="${COLS[$b]:+${COLS[$b]},}$d"; done
for b in "${!COLS[@]}"; do
  f="$OUT/${SPACE}_b$b.dlpd"
  # rebuilt only when it lacks a requested column (a subset of devices reuses
  # the file, so cached results keep matching their data's fingerprint)
  have=",$(cat "$f.cols" 2>/dev/null),"; missing=0
  for c in ${COLS[$b]//,/ }; do [[ "$have" == *",$c,"* ]] || missing=1; done
  if [ ! -f "$f" ] || [ $missing = 1 ]; then
    "$DL" dataset build --from "help-$SPACE" --device "${COLS[$b]}" --layout dippm --shared "$SHARED" \
      --out "$f" > "$OUT/log/dataset_b$b.log" 2>&1 || { echo "bench_help: dataset build failed"; cat "$OUT/log/dataset_b$b.log"; exit 0; }
    echo "${COLS[$b]}" > "$f.cols"
  fi
done
# ---- the trainings ----
COMMON="--hidden $HID --layers 3 --fc-layers 3 --dropout 0.05 --readout scaled-sum --static-features dippm \
--loss huber --lr 2e-3 --lr-schedule cosine --batch-size 32 --seed 1 --threads 1 --progress none \
--split random:0.7:0.15 --split-seed 1"
ARCHS="sage gcn gat gin mlp"
jobs_file="$OUT/jobs.txt"
: > "$jobs_file"
for d in ${DEVICES//,/ }; do
  data="$OUT/${SPACE}_b$(batch_of "$d").dlpd"
  for arch in $ARCHS; do
    echo "$d a $arch $data --device $d --epochs $EA" >> "$jobs_file"
    echo "$d b $arch $data --device $d --epochs $EB --train-limit 1000 --val-limit 150" >> "$jobs_file"
  done
done
run_one() {  # device setting arch data flags...
  local d=$1 s=$2 arch=$3 data=$4; shift 4
  local tag="${d}_${s}_${arch}"
  if [ -s "$OUT/res/$tag.json" ] && [ "$(cat "$OUT/res/$tag.args" 2>/dev/null)" = "$COMMON $*" ]; then return 0; fi
  /usr/bin/time -f "%e %U" -o "$OUT/log/$tag.time" "$DL" train --data "$data" --arch "$arch" $COMMON "$@" \
    --out "$OUT/res/$tag.dlpm" --report-json "$OUT/res/$tag.json" > "$OUT/log/$tag.log" 2>&1 \
    && echo "$COMMON $*" > "$OUT/res/$tag.args"
  echo "$(date +%H:%M:%S) $tag $(tail -n 1 "$OUT/log/$tag.log")"
}
export -f run_one
export OUT DL COMMON
echo "bench_help: $(wc -l < "$jobs_file") trainings, $JOBS at a time, hidden $HID, epochs $EA / $EB"
xargs -P "$JOBS" -L 1 bash -c 'run_one "$@"' _ < "$jobs_file"
T1=$(date +%s)

# ---- Spearman rho for results written by a dlperf that did not report it ----
add_rho() {  # tag data: the model's own test part again, by a dlperf that reports rho
  "$DL" eval --model "$OUT/res/$1.dlpm" --data "$2" --json "$OUT/res/$1.json.new" >/dev/null 2>&1 &&
    mv "$OUT/res/$1.json.new" "$OUT/res/$1.json"
}
export -f add_rho
for f in "$OUT"/res/*.json; do
  [ -f "$f" ] || continue
  jq -e '.targets.latency_ms.overall.spearman != null' "$f" >/dev/null 2>&1 && continue
  tag=$(basename "$f" .json); d=${tag%_[ab]_*}
  echo "$tag $OUT/${SPACE}_b$(batch_of "$d").dlpd"
done | xargs -P "$JOBS" -L 1 bash -c 'add_rho "$@"' _

# ---- the report ----
if [ "$QUICK" = 1 ]; then REPORT="$OUT/results_quick.md"
elif [ "$SPACE" = fbnet ]; then REPORT=docs/results_help_fbnet.md
else REPORT=docs/results_help.md; fi
NTR=$(( (CELLS * 70 + 50) / 100 )); NVA=$(( (CELLS * 15 + 50) / 100 )); NTE=$(( CELLS - NTR - NVA ))
if [ "$SPACE" = nb201 ]; then SNAME="NAS-Bench-201"; GDESC="NB201 cells built as executed (docs/datasets.md)"
else SNAME="FBNet"; GDESC="FBNet networks of HW-NAS-Bench's space at 32×32 (docs/datasets.md)"; fi
num() { jq -r "$2" "$1" 2>/dev/null; }
{
  echo "# HELP $SNAME latency: GraphSAGE (DIPPM) vs GCN, GAT, GIN, MLP"
  echo
  # wall time of the trainings themselves (a re-run that only re-renders
  # the report reuses cached results), as the sum of per-training walls / jobs
  WALL=$(cat "$OUT"/log/*.time 2>/dev/null | awk -v j="$JOBS" '{w+=$1} END {printf "%.0f", w/j/60}')
  echo "Produced by \`bench/bench_help.sh${ARGS:+ $ARGS}\` on $(date -u +%Y-%m-%d) ($(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $JOBS training(s) at a time, one BLAS thread each, the machine shared with other work): about $WALL min of wall time for $(wc -l < "$jobs_file") trainings (sum of the trainings' wall times / $JOBS)."
  echo
  echo "Data: HELP's latency tables (\`../shared/data/HELP\`), $GDESC, DIPPM 32-column node layout, target \`latency_ms\`, one model per device setting. Split: random 70/15/15 (seed 1) of the $CELLS architectures: $NTR train / $NVA validation / $NTE test, the same for every device and architecture. (a) trains on all $NTR; (b) on a seeded random 1,000 of them with 150 of the validation set, tested on the same $NTE."
  echo
  echo "Settings (all models): \`$COMMON\`; (a) $EA epochs, (b) $EB epochs; the weights of the epoch with the best validation MAPE are kept. Budgeted for this 2-core machine (see below); DIPPM's own recipe is hidden 512, lr 2.754e-5, 500 epochs."
  for s in a b; do
    echo
    if [ $s = a ]; then echo "## (a) 70/15/15 split: $NTR training graphs"; else echo "## (b) 1,000 training graphs"; fi
    for metric in mape acc10 tau spearman; do
      case $metric in mape) title="MAPE (%) ↓";; acc10) title="Acc(10%) (%) ↑";; tau) title="Kendall τ ↑";;
        spearman) title="Spearman ρ ↑";; esac
      echo
      echo "### $title"
      echo
      echo "| device | sage | gcn | gat | gin | mlp |"
      echo "|---|---:|---:|---:|---:|---:|"
      declare -A SUM=() CNT=()
      for d in ${DEVICES//,/ }; do
        row="| $d |"
        best=""
        for arch in $ARCHS; do
          f="$OUT/res/${d}_${s}_${arch}.json"
          v=$(num "$f" ".targets.latency_ms.overall.$metric // empty")
          if [ -z "$v" ]; then row="$row – |"; continue; fi
          case $metric in mape) x=$(printf '%.2f' "$v");; acc10) x=$(printf '%.1f' "$(echo "$v*100" | bc -l)");;
            *) x=$(printf '%.3f' "$v");; esac
          SUM[$arch]=$(echo "${SUM[$arch]:-0}+$x" | bc -l); CNT[$arch]=$(( ${CNT[$arch]:-0} + 1 ))
          row="$row $x |"
        done
        echo "$row"
      done
      row="| **median** |"
      for arch in $ARCHS; do
        case $metric in mape) fmt='%.2f'; sel='.mape';; acc10) fmt='%.1f'; sel='.acc10*100';; tau) fmt='%.3f'; sel='.tau';;
          *) fmt='%.3f'; sel='.spearman';; esac
        med=$(for d in ${DEVICES//,/ }; do num "$OUT/res/${d}_${s}_${arch}.json" ".targets.latency_ms.overall | $sel // empty"; done |
              sort -g | awk '{v[NR]=$1} END {if (NR) {m=(NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2; print m}}')
        if [ -n "$med" ]; then row="$row **$(printf "$fmt" "$med")** |"; else row="$row – |"; fi
      done
      echo "$row"
      row="| **mean** |"
      for arch in $ARCHS; do
        case $metric in mape) fmt='%.2f';; acc10) fmt='%.1f';; *) fmt='%.3f';; esac
        if [ "${CNT[$arch]:-0}" -gt 0 ]; then row="$row **$(printf "$fmt" "$(echo "${SUM[$arch]}/${CNT[$arch]}" | bc -l)")** |"; else row="$row – |"; fi
      done
      echo "$row"
      unset SUM CNT
    done
  done
  echo
  echo "## Training time (CPU seconds of one training, one thread; mean over devices)"
  echo
  echo "| setting | sage | gcn | gat | gin | mlp |"
  echo "|---|---:|---:|---:|---:|---:|"
  for s in a b; do
    row="| ($s) |"
    for arch in $ARCHS; do
      t=$(cat "$OUT"/log/*_${s}_${arch}.time 2>/dev/null | awk '{u+=$2; n++} END {if (n) printf "%.0f", u/n; else printf "–"}')
      row="$row $t |"
    done
    echo "$row"
  done
  if [ "$QUICK" = 0 ] && [ -f "bench/help_reference_$SPACE.md" ]; then echo; cat "bench/help_reference_$SPACE.md"; fi
} > "$REPORT.tmp" && mv "$REPORT.tmp" "$REPORT"
echo "bench_help: wrote $REPORT ($(( (T1 - T0) / 60 )) min)"
exit 0
