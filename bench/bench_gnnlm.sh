#!/usr/bin/env bash
# bench_gnnlm.sh — thesis chapter 7 on dlperf's data (issue 14, docs/gnnlm.md):
# the GNN + LM predictor (arch gnnlm) trained in three stages on public HELP
# NAS-Bench-201 devices, then adapted to held-out devices from 8..100
# samples, beside a GraphSAGE model fine-tuned from the nearest public
# device and one trained from scratch (fig. 7.3), the pre-training ablation
# (table 7.5), one gnnlm for all public devices vs one GNN per device
# (table 7.4's question on our data) and the prediction time (< 5 ms).
# Report: docs/results_gnnlm.md (--quick: $OUT/results_quick.md).
#
#   bench/bench_gnnlm.sh [--lm FILE.dlpm] [--quick] [--cells N] [--seeds N] [--jobs N] [--out DIR]
#                        [--base FILE.dlpm|builtin-gnnlm]  (only the shipped base's adaptation:
#                         docs/results_gnnlm_base.md; see "--base" below)
#                        [--no-tables]   (leave out tables 7.2 / 7.3: six more stage-3 runs)
#                        [--no-newarch]  (leave out the new-architecture experiment on the CPU set)
#
# Devices.  Public (stages 1-3): the 16 NAS-Bench-201 settings of the GPUs
# 1080 Ti, 2080 Ti, Titan X, Titan Xp, the Xeon Silver CPUs, the Essential
# PH-1 and the Galaxy A50.  Held out (adaptation): titan_rtx_1,
# titan_rtx_32, gold_6240, pixel3, samsung_s7 — no sample of theirs is seen
# before adaptation, and the shipped language model's corpus leaves their
# measurements out (`dlperf lm corpus --holdout`).  The nearest public
# device of each, for the fine-tuned GNN, is chosen from the spec sheet, as
# a user without measurements would: Titan RTX -> 2080 Ti (same TU102
# family, same batch), Gold 6240 -> Silver 4210R (Cascade Lake), Pixel 3
# (Snapdragon 845) -> Essential PH-1 (Snapdragon 835), Galaxy S7 -> A50.
#
# Split: the first --cells NB201 cells, parted 85/15 by architecture
# (--split-by name, seed = the run's seed): the 15 % test cells are never
# trained on, on any device; stage 3 and the public GNNs train on the 85 %;
# a few-shot run draws its N samples from the held-out device's 85 %.
# Never fails the build: a step that cannot run says why and exits 0.
set -u
cd "$(dirname "$0")/.." || exit 0
BUILD=${BUILD:-build}
OUT=build/bench/gnnlm
LM=""
CELLS=2000
SEEDS=1
JOBS=2
QUICK=0
TABLES=1
NEWARCH=1
E_NA3=20
OUT_GIVEN=0
BASE=""
NS="8 10 16 32 64 100"
E_S1=3; E_S2=2; E_S3=4; S3_LIMIT=6000; E_FT=20; E_GNN=40; E_GFT=100; E_GSC=200
ARGS="$*"
while [ $# -gt 0 ]; do
  case "$1" in
    --lm) LM=$2; shift;;
    --quick) QUICK=1;;
    --cells) CELLS=$2; shift;;
    --seeds) SEEDS=$2; shift;;
    --jobs) JOBS=$2; shift;;
    --no-tables) TABLES=0;;
    --no-newarch) NEWARCH=0;;
    --out) OUT=$2; OUT_GIVEN=1; shift;;
    --base) BASE=$2; shift;;
    *) echo "bench_gnnlm: unknown option $1"; exit 0;;
  esac
  shift
done
PUBLIC="1080ti_1,1080ti_32,1080ti_256,2080ti_1,2080ti_32,2080ti_256,titanx_1,titanx_32,titanx_256,titanxp_1,titanxp_32,titanxp_256,essential_ph_1,samsung_a50,silver_4114,silver_4210r"
HELD="titan_rtx_1 titan_rtx_32 gold_6240 pixel3 samsung_s7"
declare -A NEAR=([titan_rtx_1]=2080ti_1 [titan_rtx_32]=2080ti_32 [gold_6240]=silver_4210r [pixel3]=essential_ph_1 [samsung_s7]=samsung_a50)
if [ "$QUICK" = 1 ]; then
  CELLS=400; NS="10 32"; HELD="titan_rtx_32 pixel3"; E_S1=1; E_S2=1; E_S3=1; S3_LIMIT=800; E_FT=5; E_GNN=10
  NEWARCH=0
  E_GFT=20; E_GSC=40
  PUBLIC="2080ti_32,titanxp_32,essential_ph_1,samsung_a50"
  [ "$OUT_GIVEN" = 0 ] && OUT=build/bench/gnnlm-quick
fi
SHARED=${DLP_SHARED:-../shared}
[ -x "$BUILD/dlperf" ] || { echo "bench_gnnlm: $BUILD/dlperf missing (run make)"; exit 0; }
[ -f "$SHARED/data/HELP/DERIVED_csv/nasbench201_latency_ms.csv" ] || { echo "bench_gnnlm: $SHARED/data/HELP missing"; exit 0; }
command -v jq >/dev/null || { echo "bench_gnnlm: needs jq"; exit 0; }
if [ -z "$LM" ]; then LM=$(ls data/models/lm/*.dlpm 2>/dev/null | head -n 1); fi
[ -n "$LM" ] && [ -f "$LM" ] || { echo "bench_gnnlm: no language model (--lm FILE.dlpm; dlperf lm pretrain makes one)"; exit 0; }
mkdir -p "$OUT/res" "$OUT/log"
cp "$BUILD/dlperf" "$OUT/dlperf"   # a private copy: rebuilding during the run changes nothing
DL="$OUT/dlperf"
T0=$(date +%s)
ALLDEV="$PUBLIC,${HELD// /,}"
DATA="$OUT/nb201_c$CELLS.dlpd"
if [ ! -f "$DATA" ] || [ "$(cat "$DATA.cols" 2>/dev/null)" != "$ALLDEV" ]; then
  "$DL" dataset build --from help-nb201 --device "$ALLDEV" --layout dippm --limit "$CELLS" --shared "$SHARED" \
    --out "$DATA" > "$OUT/log/dataset.log" 2>&1 || { echo "bench_gnnlm: dataset build failed"; cat "$OUT/log/dataset.log"; exit 0; }
  echo "$ALLDEV" > "$DATA.cols"
fi

# run TAG ARGS...: one dlperf call, cached by its arguments
run() {
  local tag=$1; shift
  if [ -s "$OUT/res/$tag.done" ] && [ "$(cat "$OUT/res/$tag.args")" = "$*" ]; then return 0; fi
  /usr/bin/time -f "%e %U" -o "$OUT/log/$tag.time" "$DL" "$@" > "$OUT/log/$tag.log" 2>&1 &&
    { echo "$*" > "$OUT/res/$tag.args"; echo ok > "$OUT/res/$tag.done"; }
  echo "$(date +%H:%M:%S) $tag: $(tail -n 1 "$OUT/log/$tag.log")"
}
export -f run
export OUT DL
SPLIT="--split random:0.85:0 --split-by name"
GL="--threads 1 --progress none"
SAGE="--arch sage --hidden 64 --layers 3 --fc-layers 3 --dropout 0.05 --readout scaled-sum --static-features dippm \
--loss huber --lr 2e-3 --lr-schedule cosine --threads 1 --progress none"

val() {  # json-file metric -> number or empty
  jq -r ".targets.latency_ms.overall.$2 // empty" "$1" 2>/dev/null
}
fmt() {  # metric value
  [ -z "$2" ] && { echo "–"; return; }
  case $1 in acc10) printf '%.1f' "$(echo "$2*100" | bc -l)";; mape) printf '%.1f' "$2";; *) printf '%.3f' "$2";; esac
}

# ---- --base: the shipped gnnlm base (scripts/ship_gnnlm.sh) adapted to each
#      held-out device from N samples, beside GraphSAGE fine-tuned from the
#      nearest public device (chosen by hand from the spec sheet, as above)
#      and GraphSAGE from scratch; seed 1; no stage 1-3 run here.  The base saw
#      every public HELP setting of every cell (these test cells included, on
#      the public devices) and no sample of a held-out device. ----
if [ -n "$BASE" ]; then
  S="$SPLIT --split-seed 1"
  for d in $(for h in $HELD; do echo "${NEAR[$h]}"; done | sort -u); do
    echo "pub_${d}_1 train --data $DATA --device $d $S $SAGE --epochs $E_GNN --batch-size 32 --seed 1 --out $OUT/res/pub_${d}_1.dlpm --report-json $OUT/res/pub_${d}_1.json"
  done | xargs -P "$JOBS" -L 1 bash -c 'run "$@"' _
  for d in $HELD; do
    echo "zb_${d}_0_1 eval --model $BASE --data $DATA --device $d $S --json $OUT/res/base_${d}_0_1.json"
    echo "z_gft_${d}_0_1 eval --model $OUT/res/pub_${NEAR[$d]}_1.dlpm --data $DATA --device $d $S --json $OUT/res/gft_${d}_0_1.json"
    for n in $NS; do
      F="--data $DATA --device $d $S --train-limit $n --keep-last --seed 1"
      echo "base_${d}_${n}_1 train $F --init $BASE --epochs $E_FT --batch-size 8 $GL --out $OUT/res/base_${d}_${n}_1.dlpm --report-json $OUT/res/base_${d}_${n}_1.json"
      echo "gft_${d}_${n}_1 train $F $SAGE --init $OUT/res/pub_${NEAR[$d]}_1.dlpm --epochs $E_GFT --batch-size 8 --out $OUT/res/gft_${d}_${n}_1.dlpm --report-json $OUT/res/gft_${d}_${n}_1.json"
      echo "gsc_${d}_${n}_1 train $F $SAGE --epochs $E_GSC --batch-size 8 --out $OUT/res/gsc_${d}_${n}_1.dlpm --report-json $OUT/res/gsc_${d}_${n}_1.json"
    done
  done | xargs -P "$JOBS" -L 1 bash -c 'run "$@"' _
  if [ "$QUICK" = 1 ]; then REPORT="$OUT/results_base_quick.md"; else REPORT=docs/results_gnnlm_base.md; fi
  bmean() {  # prefix metric n: mean over the held-out devices
    local s=0 c=0 v
    for d in $HELD; do v=$(val "$OUT/res/${1}_${d}_${3}_1.json" "$2"); [ -n "$v" ] && { s=$(echo "$s+$v" | bc -l); c=$((c+1)); }; done
    [ $c -gt 0 ] && echo "$s/$c" | bc -l
  }
  {
    echo "# The shipped gnnlm base adapted to held-out devices"
    echo
    echo "Produced by \`bench/bench_gnnlm.sh${ARGS:+ $ARGS}\` on $(date -u +%Y-%m-%d) ($(nproc) cores, $JOBS job(s) at a time, one BLAS thread each, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end). Base: \`$BASE\` (scripts/ship_gnnlm.sh: stages 1-3 on every public HELP setting, NAS-Bench-201 and FBNet, every cell; no held-out device seen)."
    echo
    echo "Data: the first $CELLS NAS-Bench-201 cells of each held-out device (${HELD// /, }), split 85/15 by architecture (seed 1); N samples drawn from the 85 %, metrics on the 15 % ($((CELLS * 15 / 100)) cells). The base saw these test architectures on the public devices, never on a held-out device. gnnlm: $E_FT epochs from the base, batch 8, the last epoch kept. GraphSAGE fine-tuned: $E_GFT epochs from the nearest public device's model ($E_GNN epochs on its training cells; nearest by spec sheet: ${!NEAR[*]} → ${NEAR[*]}); from scratch: $E_GSC epochs. N = 0: the base reads only the device's name/description; the GNN column is the nearest device's model as it is."
    echo
    for metric in acc10 spearman mape; do
      case $metric in acc10) title="Acc(10%) (%) ↑";; mape) title="MAPE (%) ↓";; spearman) title="Spearman ρ ↑";; esac
      echo "### $title, mean over the held-out devices"
      echo
      echo "| N | gnnlm base | GNN fine-tuned (nearest device) | GNN from scratch |"
      echo "|---:|---:|---:|---:|"
      for n in 0 $NS; do
        echo "| $n | $(fmt $metric "$(bmean base $metric $n)") | $(fmt $metric "$(bmean gft $metric $n)") | $(fmt $metric "$(bmean gsc $metric $n)") |"
      done
      echo
    done
    echo "### Per device at N = 32: Acc(10%) / MAPE / Spearman ρ"
    echo
    echo "| device | gnnlm base | GNN fine-tuned | GNN from scratch |"
    echo "|---|---|---|---|"
    for d in $HELD; do
      row="| $d |"
      for p in base gft gsc; do f="$OUT/res/${p}_${d}_32_1.json"
        row="$row $(fmt acc10 "$(val "$f" acc10)") / $(fmt mape "$(val "$f" mape)") / $(fmt spearman "$(val "$f" spearman)") |"; done
      echo "$row"
    done
    echo
    echo "Aim (issue 25): at N = 32, mean Acc(10%) ≥ 78 % and Spearman ≥ 0.95 with no device picked by hand."
  } > "$REPORT"
  echo "bench_gnnlm: wrote $REPORT ($(( ($(date +%s) - T0) / 60 )) min)"
  exit 0
fi

for seed in $(seq 1 "$SEEDS"); do
  S="$SPLIT --split-seed $seed"
  # ---- stage 1: GraphMAE on the GIN (unlabeled NB201 graphs) ----
  run "s1_$seed" pretrain --unlabeled help-nb201 --method graphmae --layout dippm --hidden 64 --layers 3 \
    --epochs $E_S1 --max-graphs $((CELLS > 3000 ? CELLS : 3000)) --seed "$seed" --threads 1 --progress none \
    --pack "$OUT/s1.dlpc" --out "$OUT/res/s1_$seed.dlpm"
  # ---- stage 2: graph-to-text, with and without the stage-1 GIN ----
  {
    run "s2_gin_$seed" train --data "$DATA" --device "$PUBLIC" $S --train-limit 1500 --arch gnnlm --lm "$LM" \
      --encoder "$OUT/res/s1_$seed.dlpm" --stage adapt --epochs $E_S2 --seed "$seed" $GL --out "$OUT/res/s2_gin_$seed.dlpm" &
    run "s2_rnd_$seed" train --data "$DATA" --device "$PUBLIC" $S --train-limit 1500 --arch gnnlm --lm "$LM" \
      --stage adapt --epochs $E_S2 --seed "$seed" $GL --out "$OUT/res/s2_rnd_$seed.dlpm" &
    wait
  }
  # ---- stage 3 on the public devices: the 2x2 ablation (table 7.5) ----
  S3="--data $DATA --device $PUBLIC $S --train-limit $S3_LIMIT --stage predict --epochs $E_S3 --seed $seed $GL"
  {
    run "s3_both_$seed" train $S3 --init "$OUT/res/s2_gin_$seed.dlpm" --out "$OUT/res/s3_both_$seed.dlpm" \
      --report-json "$OUT/res/s3_both_$seed.json" &
    run "s3_none_$seed" train $S3 --arch gnnlm --lm "$LM" --out "$OUT/res/s3_none_$seed.dlpm" \
      --report-json "$OUT/res/s3_none_$seed.json" &
    wait
    run "s3_gin_$seed" train $S3 --arch gnnlm --lm "$LM" --encoder "$OUT/res/s1_$seed.dlpm" \
      --out "$OUT/res/s3_gin_$seed.dlpm" --report-json "$OUT/res/s3_gin_$seed.json" &
    run "s3_adapt_$seed" train $S3 --init "$OUT/res/s2_rnd_$seed.dlpm" --out "$OUT/res/s3_adapt_$seed.dlpm" \
      --report-json "$OUT/res/s3_adapt_$seed.json" &
    wait
  }
  # ---- table 7.2 (graph as token / text / JSON) and 7.3 (LoRA rank), no pre-training ----
  if [ "$TABLES" = 1 ]; then
    {
      run "s3_text_$seed" train $S3 --arch gnnlm --lm "$LM" --graph-input text --out "$OUT/res/s3_text_$seed.dlpm" \
        --report-json "$OUT/res/s3_text_$seed.json" &
      run "s3_json_$seed" train $S3 --arch gnnlm --lm "$LM" --graph-input json --out "$OUT/res/s3_json_$seed.dlpm" \
        --report-json "$OUT/res/s3_json_$seed.json" &
      wait
    }
    run "s3_tok_$seed" train $S3 --arch gnnlm --lm "$LM" --output tokens --out "$OUT/res/s3_tok_$seed.dlpm" \
      --report-json "$OUT/res/s3_tok_$seed.json"
    for r in 0 4 16; do
      echo "s3_r${r}_$seed train $S3 --arch gnnlm --lm $LM --lora-rank $r --out $OUT/res/s3_r${r}_$seed.dlpm --report-json $OUT/res/s3_r${r}_$seed.json"
    done | xargs -P "$JOBS" -L 1 bash -c 'run "$@"' _
  fi
  # ---- one GraphSAGE per public device (the fine-tuning sources) ----
  for d in ${PUBLIC//,/ }; do
    echo "pub_${d}_$seed train --data $DATA --device $d $S $SAGE --epochs $E_GNN --batch-size 32 --seed $seed --out $OUT/res/pub_${d}_$seed.dlpm --report-json $OUT/res/pub_${d}_$seed.json"
  done | xargs -P "$JOBS" -L 1 bash -c 'run "$@"' _
  # ---- zero-shot (N = 0: the device only described / the nearest device's GNN as is) and the
  #      ceiling (a GNN on every training cell of the held-out device) ----
  for d in $HELD; do
    Z="--data $DATA --device $d $S"
    echo "z_pre_${d}_0_$seed eval --model $OUT/res/s3_both_$seed.dlpm $Z --json $OUT/res/ft_pre_${d}_0_$seed.json"
    echo "z_nopre_${d}_0_$seed eval --model $OUT/res/s3_none_$seed.dlpm $Z --json $OUT/res/ft_nopre_${d}_0_$seed.json"
    echo "z_gft_${d}_0_$seed eval --model $OUT/res/pub_${NEAR[$d]}_$seed.dlpm $Z --json $OUT/res/gft_${d}_0_$seed.json"
    echo "gall_${d}_$seed train $Z $SAGE --epochs $E_GNN --batch-size 32 --seed $seed --out $OUT/res/gall_${d}_$seed.dlpm --report-json $OUT/res/gall_${d}_$seed.json"
  done | xargs -P "$JOBS" -L 1 bash -c 'run "$@"' _
  # ---- few-shot on the held-out devices ----
  for d in $HELD; do
    for n in $NS; do
      F="--data $DATA --device $d $S --train-limit $n --keep-last --seed $seed"
      echo "ft_pre_${d}_${n}_$seed train $F --init $OUT/res/s3_both_$seed.dlpm --epochs $E_FT --batch-size 8 $GL --out $OUT/res/ft_pre_${d}_${n}_$seed.dlpm --report-json $OUT/res/ft_pre_${d}_${n}_$seed.json"
      echo "ft_nopre_${d}_${n}_$seed train $F --init $OUT/res/s3_none_$seed.dlpm --epochs $E_FT --batch-size 8 $GL --out $OUT/res/ft_nopre_${d}_${n}_$seed.dlpm --report-json $OUT/res/ft_nopre_${d}_${n}_$seed.json"
      echo "gft_${d}_${n}_$seed train $F $SAGE --init $OUT/res/pub_${NEAR[$d]}_$seed.dlpm --epochs $E_GFT --batch-size 8 --out $OUT/res/gft_${d}_${n}_$seed.dlpm --report-json $OUT/res/gft_${d}_${n}_$seed.json"
      echo "gsc_${d}_${n}_$seed train $F $SAGE --epochs $E_GSC --batch-size 8 --out $OUT/res/gsc_${d}_${n}_$seed.dlpm --report-json $OUT/res/gsc_${d}_${n}_$seed.json"
    done
  done | xargs -P "$JOBS" -L 1 bash -c 'run "$@"' _
done
# ---- new architecture (the thesis' ViT experiment on our CPU set): vit left out of stage 3,
#      then N of its samples; test on the other vit samples ----
NEWARCH_OUT=""
CPU_STORE=data/cpu/runs.sqlite
if [ "$NEWARCH" = 1 ] && [ -f "$CPU_STORE" ]; then
  CPUD="$OUT/cpu_infer.dlpd"
  [ -f "$CPUD" ] || "$DL" dataset build --from "$CPU_STORE" --target latency_ms --layout dippm --out "$CPUD" \
    > "$OUT/log/cpu_dataset.log" 2>&1
  C3="--data $CPUD --split lofo:vit --stage predict --epochs $E_NA3 $GL"
  run "na_s3_both" train $C3 --init "$OUT/res/s2_gin_1.dlpm" --out "$OUT/res/na_s3_both.dlpm" \
    --report-json "$OUT/res/na_s3_both.json" &
  run "na_s3_none" train $C3 --arch gnnlm --lm "$LM" --out "$OUT/res/na_s3_none.dlpm" --report-json "$OUT/res/na_s3_none.json" &
  wait
  run "na_pub" train --data "$CPUD" --split lofo:vit $SAGE --epochs $E_GNN --batch-size 16 --out "$OUT/res/na_pub.dlpm" \
    --report-json "$OUT/res/na_pub.json"
  for seed in 1 2 3; do
    V="--data $CPUD --family vit --split random:0.6:0 --split-seed $seed"
    echo "na_z_pre_0_$seed eval --model $OUT/res/na_s3_both.dlpm $V --json $OUT/res/na_pre_0_$seed.json"
    echo "na_z_nopre_0_$seed eval --model $OUT/res/na_s3_none.dlpm $V --json $OUT/res/na_nopre_0_$seed.json"
    echo "na_z_gft_0_$seed eval --model $OUT/res/na_pub.dlpm $V --json $OUT/res/na_gft_0_$seed.json"
    for n in 4 8 12; do
      F="$V --train-limit $n --keep-last --seed $seed"
      echo "na_pre_${n}_$seed train $F --init $OUT/res/na_s3_both.dlpm --epochs $E_FT --batch-size 4 $GL --out $OUT/res/na_pre_${n}_$seed.dlpm --report-json $OUT/res/na_pre_${n}_$seed.json"
      echo "na_nopre_${n}_$seed train $F --init $OUT/res/na_s3_none.dlpm --epochs $E_FT --batch-size 4 $GL --out $OUT/res/na_nopre_${n}_$seed.dlpm --report-json $OUT/res/na_nopre_${n}_$seed.json"
      echo "na_gft_${n}_$seed train $F $SAGE --init $OUT/res/na_pub.dlpm --epochs $E_GFT --batch-size 4 --out $OUT/res/na_gft_${n}_$seed.dlpm --report-json $OUT/res/na_gft_${n}_$seed.json"
      echo "na_gsc_${n}_$seed train $F $SAGE --epochs $E_GSC --batch-size 4 --out $OUT/res/na_gsc_${n}_$seed.dlpm --report-json $OUT/res/na_gsc_${n}_$seed.json"
    done
  done | xargs -P "$JOBS" -L 1 bash -c 'run "$@"' _
fi
T1=$(date +%s)

# ---- prediction time ----
SPEED=""
if cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude bench/bench_gnnlm.c "$BUILD/libdlperf.a" \
     $(pkg-config --cflags --libs openblas libcjson libmicrohttpd sqlite3 xgboost) -lm -lpthread \
     -o "$OUT/bench_gnnlm" 2> "$OUT/log/speed_build.log"; then
  d1=${HELD%% *}
  SPEED=$("$OUT/bench_gnnlm" "$OUT/res/ft_pre_${d1}_32_1.dlpm" "$OUT/res/gft_${d1}_32_1.dlpm" "$DATA" "$d1" 300 2>&1)
else
  SPEED="(bench_gnnlm.c did not build: $(head -n 3 "$OUT/log/speed_build.log"))"
fi

# ---- the report ----
if [ "$QUICK" = 1 ]; then REPORT="$OUT/results_quick.md"; else REPORT=docs/results_gnnlm.md; fi
mean_over() {  # prefix metric n: mean over held-out devices and seeds
  local p=$1 m=$2 n=$3 s=0 c=0 v
  for d in $HELD; do for seed in $(seq 1 "$SEEDS"); do
    v=$(val "$OUT/res/${p}_${d}_${n}_$seed.json" "$m"); [ -n "$v" ] && { s=$(echo "$s+$v" | bc -l); c=$((c+1)); }
  done; done
  [ $c -gt 0 ] && echo "$s/$c" | bc -l
}
mean_seeds() {  # file-pattern-with-SEED metric
  local s=0 c=0 v
  for seed in $(seq 1 "$SEEDS"); do v=$(val "${1//SEED/$seed}" "$2"); [ -n "$v" ] && { s=$(echo "$s+$v" | bc -l); c=$((c+1)); }; done
  [ $c -gt 0 ] && echo "$s/$c" | bc -l
}
{
  echo "# GNN + LM predictor (thesis ch. 7) on HELP NAS-Bench-201"
  echo
  WALL=$(( (T1 - T0) / 60 ))
  echo "Produced by \`bench/bench_gnnlm.sh${ARGS:+ $ARGS}\` on $(date -u +%Y-%m-%d) ($(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $JOBS job(s) at a time, one BLAS thread each, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; this run: $WALL min, cached steps not rerun). Language model: \`$LM\`."
  echo
  echo "Data: HELP's NAS-Bench-201 latency table (\`$SHARED/data/HELP\`), the first $CELLS cells, built as executed, DIPPM node layout, target latency_ms. Public devices (stages 1-3): ${PUBLIC//,/, }. Held out: ${HELD// /, } (never seen before adaptation; the language model's corpus leaves out their measurements). Split: 85/15 of the architectures (\`--split random:0.85:0 --split-by name\`, seed = run seed, $SEEDS seed(s)): the test cells ($((CELLS * 15 / 100)) per device) are never trained on, on any device."
  echo
  echo "Recipes. gnnlm: GIN 3×64 (GraphMAE recipe: BatchNorm, PReLU) → graph token + 5 DIPPM static features → the language model's graph projection; LoRA rank 8 on every projection, 8 soft-prompt vectors, head 1 FC block of 64 on the last prompt token; Adam 1e-3 for the GIN/head and for the adapters; Huber loss on standardised ln latency. Stage 1: GraphMAE on $((CELLS > 3000 ? CELLS : 3000)) unlabeled cells, $E_S1 epoch(s). Stage 2: $E_S2 epoch(s) of graph-to-text over the distinct graphs of 1,500 public samples. Stage 3: $E_S3 epoch(s) over $S3_LIMIT public samples. Few-shot: $E_FT epochs, batch 8, the last epoch kept (no validation labels). GraphSAGE: 3 blocks of 64, 3 FC blocks, scaled-sum readout, Huber, Adam 2e-3 cosine; public models $E_GNN epochs on every training cell of their device; fine-tuned $E_GFT epochs from the nearest public device's model (a spec-sheet choice: ${!NEAR[*]} → ${NEAR[*]}); from scratch $E_GSC epochs."
  echo
  echo "## Adaptation to a held-out device (fig. 7.3)"
  echo
  echo "Mean over the held-out devices (and seeds) of the test-set metric after adapting on N samples of the device."
  for metric in acc10 mape spearman; do
    case $metric in acc10) title="Acc(10%) (%) ↑";; mape) title="MAPE (%) ↓";; spearman) title="Spearman ρ ↑";; esac
    echo
    echo "### $title"
    echo
    echo "| N | gnnlm, pre-trained | gnnlm, no pre-training | GNN fine-tuned | GNN from scratch |"
    echo "|---:|---:|---:|---:|---:|"
    for n in 0 $NS; do
      echo "| $n | $(fmt $metric "$(mean_over ft_pre $metric $n)") | $(fmt $metric "$(mean_over ft_nopre $metric $n)") | $(fmt $metric "$(mean_over gft $metric $n)") | $(fmt $metric "$(mean_over gsc $metric $n)") |"
    done
  done
  echo
  echo "### Per held-out device: Acc(10%) / MAPE / Spearman ρ (seed 1)"
  echo
  echo "| device | N | gnnlm, pre-trained | gnnlm, no pre-training | GNN fine-tuned | GNN from scratch |"
  echo "|---|---:|---|---|---|---|"
  for d in $HELD; do for n in 0 $NS; do
    row="| $d | $n |"
    for p in ft_pre ft_nopre gft gsc; do
      f="$OUT/res/${p}_${d}_${n}_1.json"
      row="$row $(fmt acc10 "$(val "$f" acc10)") / $(fmt mape "$(val "$f" mape)") / $(fmt spearman "$(val "$f" spearman)") |"
    done
    echo "$row"
  done; done
  echo
  echo "N = 0: no sample of the device; gnnlm reads only its description, the GNN column is the nearest public device's model as it is."
  echo
  echo "Ceiling: GraphSAGE trained on every training cell of the held-out device ($((CELLS * 85 / 100)) cells, $E_GNN epochs; what the few-shot runs could reach with all the data):"
  echo
  echo "| device | MAPE (%) | Acc(10%) (%) | Spearman ρ |"
  echo "|---|---:|---:|---:|"
  for d in $HELD; do
    f="$OUT/res/gall_${d}_SEED.json"
    echo "| $d | $(fmt mape "$(mean_seeds "$f" mape)") | $(fmt acc10 "$(mean_seeds "$f" acc10)") | $(fmt spearman "$(mean_seeds "$f" spearman)") |"
  done
  echo
  echo "Thesis (fig. 7.3, NNLQP devices, 32 samples): hi3519A-nnie12-int8 70 % and atlas300-acl-fp16 29 % Acc(10%) for the pre-trained GNN+LLM (Llama3-8B), 0 % for the GNN and GNN-NF; pre-training adds up to 50 points. Issue 14's aim here: mean Acc(10%) ≥ 85 % at 32 samples and Spearman ρ ≥ 0.94 at 10."
  echo
  echo "## Pre-training ablation on the public devices (table 7.5)"
  echo
  echo "One gnnlm for all public devices, test cells of every public device."
  echo
  echo "| GIN pre-training (stage 1) | graph-to-text (stage 2) | MAPE (%) | Acc(10%) (%) | Spearman ρ |"
  echo "|---|---|---:|---:|---:|"
  for v in none:no:no gin:yes:no adapt:no:yes both:yes:yes; do
    IFS=: read -r tag g a <<< "$v"
    f="$OUT/res/s3_${tag}_SEED.json"
    echo "| $g | $a | $(fmt mape "$(mean_seeds "$f" mape)") | $(fmt acc10 "$(mean_seeds "$f" acc10)") | $(fmt spearman "$(mean_seeds "$f" spearman)") |"
  done
  echo
  if [ "$TABLES" = 1 ]; then
    echo "## The graph as a token, a text summary or JSON (table 7.2)"
    echo
    echo "Stage 3 only (no pre-training), the same recipe, public devices' test cells. Text and JSON are written in the prompt after the device description and cut to the language model's window (no GIN, no graph vector in the head); the token run is the 'no / no' row above. Prompt tokens: the device description is the same for all three; a NB201 cell is 1 graph token, its summary ~60 tokens, its JSON several hundred (cut)."
    echo
    echo "| graph input | MAPE (%) | Acc(10%) (%) | Spearman ρ | training s (wall, one run) |"
    echo "|---|---:|---:|---:|---:|"
    for v in token:none text:text json:json; do
      IFS=: read -r nm tag <<< "$v"
      f="$OUT/res/s3_${tag}_SEED.json"
      tm=$(cut -d' ' -f1 "$OUT/log/s3_${tag}_1.time" 2>/dev/null)
      echo "| $nm | $(fmt mape "$(mean_seeds "$f" mape)") | $(fmt acc10 "$(mean_seeds "$f" acc10)") | $(fmt spearman "$(mean_seeds "$f" spearman)") | ${tm:-–} |"
    done
    echo
    echo "## Regression head or numeric tokens"
    echo
    echo "The same stage-3 recipe (no pre-training, graph token), answered by the regression head or written by the language model as digits (greedy decoding; unreadable answers get the training geometric mean)."
    echo
    echo "| output | MAPE (%) | Acc(10%) (%) | Spearman ρ | training s (wall, one run) |"
    echo "|---|---:|---:|---:|---:|"
    for v in head:none tokens:tok; do
      IFS=: read -r nm tag <<< "$v"
      f="$OUT/res/s3_${tag}_SEED.json"
      tm=$(cut -d' ' -f1 "$OUT/log/s3_${tag}_1.time" 2>/dev/null)
      echo "| $nm | $(fmt mape "$(mean_seeds "$f" mape)") | $(fmt acc10 "$(mean_seeds "$f" acc10)") | $(fmt spearman "$(mean_seeds "$f" spearman)") | ${tm:-–} |"
    done
    echo
    echo "## LoRA rank (table 7.3)"
    echo
    echo "| LoRA rank | MAPE (%) | Acc(10%) (%) | Spearman ρ |"
    echo "|---:|---:|---:|---:|"
    for r in 0 4 8 16; do
      tag=r$r; [ $r = 8 ] && tag=none
      f="$OUT/res/s3_${tag}_SEED.json"
      echo "| $r | $(fmt mape "$(mean_seeds "$f" mape)") | $(fmt acc10 "$(mean_seeds "$f" acc10)") | $(fmt spearman "$(mean_seeds "$f" spearman)") |"
    done
    echo
  fi
  echo "## One gnnlm for all public devices vs one GraphSAGE per device (table 7.4's question)"
  echo
  s=0; c=0; sa=0
  for d in ${PUBLIC//,/ }; do
    v=$(mean_seeds "$OUT/res/pub_${d}_SEED.json" mape); w=$(mean_seeds "$OUT/res/pub_${d}_SEED.json" acc10)
    [ -n "$v" ] && { s=$(echo "$s+$v" | bc -l); sa=$(echo "$sa+$w" | bc -l); c=$((c+1)); }
  done
  if [ $c -gt 0 ]; then
    echo "| model | MAPE (%) | Acc(10%) (%) |"
    echo "|---|---:|---:|"
    echo "| GraphSAGE, one per public device ($c models, every training cell of its device), mean | $(fmt mape "$(echo "$s/$c" | bc -l)") | $(fmt acc10 "$(echo "$sa/$c" | bc -l)") |"
    echo "| gnnlm, one model for the $c devices ($S3_LIMIT samples), both pre-trainings | $(fmt mape "$(mean_seeds "$OUT/res/s3_both_SEED.json" mape)") | $(fmt acc10 "$(mean_seeds "$OUT/res/s3_both_SEED.json" acc10)") |"
  fi
  echo
  if [ "$NEWARCH" = 1 ] && [ -f "$OUT/res/na_s3_none.json" ]; then
    echo "## A new architecture: ViT left out (the thesis' ViT experiment, on our CPU set)"
    echo
    echo "Data: dlperf's own CPU measurements (\`$CPU_STORE\`, inference latency on cpu-amd-epyc-2c, 20 torchvision families, DIPPM layout). Stage 3 on the 19 other families (\`--split lofo:vit\`, $E_NA3 epochs; 'pre-trained' continues from the HELP stage-2 model, whose GIN had GraphMAE on NB201 cells); GraphSAGE likewise ($E_GNN epochs). Then N of the 21 ViT samples (\`--family vit --split random:0.6:0\`, seeds 1-3: 13 in the training part, 8 test); 32 samples, the thesis' count, do not exist for one family here. Mean over the three seeds."
    echo
    for metric in acc10 mape spearman; do
      case $metric in acc10) title="Acc(10%) (%) ↑";; mape) title="MAPE (%) ↓";; spearman) title="Spearman ρ ↑";; esac
      echo "| N ($title) | gnnlm, pre-trained | gnnlm, no pre-training | GNN fine-tuned | GNN from scratch |"
      echo "|---:|---:|---:|---:|---:|"
      for n in 0 4 8 12; do
        row="| $n |"
        for p in pre nopre gft gsc; do
          if [ $n = 0 ] && [ $p = gsc ]; then row="$row – |"; continue; fi
          s=0; c=0
          for sd in 1 2 3; do v=$(val "$OUT/res/na_${p}_${n}_$sd.json" $metric); [ -n "$v" ] && { s=$(echo "$s+$v" | bc -l); c=$((c+1)); }; done
          if [ $c -gt 0 ]; then row="$row $(fmt $metric "$(echo "$s/$c" | bc -l)") |"; else row="$row – |"; fi
        done
        echo "$row"
      done
      echo
    done
  fi
  echo "## Prediction time"
  echo
  echo "$SPEED"
  echo
  echo "## Training time (seconds of one run, mean)"
  echo
  echo "| step | wall s | CPU s |"
  echo "|---|---:|---:|"
  for p in s1 s2_gin s2_rnd s3_both s3_none s3_gin s3_adapt s3_text s3_json s3_tok s3_r0 s3_r4 s3_r16 pub ft_pre ft_nopre gft gsc na_s3_both na_s3_none na_pub; do
    cat "$OUT"/log/${p}_*.time 2>/dev/null | awk -v p="$p" '{w+=$1; u+=$2; n++} END {if (n) printf "| %s | %.1f | %.1f |\n", p, w/n, u/n}'
  done
} > "$REPORT"
echo "bench_gnnlm: wrote $REPORT ($(( (T1 - T0) / 60 )) min)"
exit 0
