#!/usr/bin/env bash
# Command-line behaviour shared by every subcommand (issue 16 #6, #7, #9):
# output paths checked before any work, one-line errors for missing flags,
# --help that describes the flags, progress lines when stderr is not a
# terminal.  Prints PASS/FAIL lines.
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
SHARED=${DLP_SHARED:-../shared}
D="$BUILD/dlperf"
M=examples/resnet18.onnx
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
ok() { echo "PASS $1"; }
bad() { echo "FAIL $1"; }

# ---- #6: every output path is checked before work starts ----------------
# name, pattern the one-line error must match, command...
out_case() {
  local name=$1 pat=$2; shift 2
  "$@" > "$T/out" 2> "$T/err"; local rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && grep -Eq -- "$pat" "$T/err" && [ ! -s "$T/out" ]; then ok "$name"
  else bad "$name (rc=$rc)"; cat "$T/err"; fi
}
mkdir "$T/dir"; : > "$T/file"
# the inputs here do not exist: the output is refused first, naming the flag
out_case out_train "train: --out '.*nodir/m.dlpm': its folder does not exist" \
  "$D" train --data "$T/none.dlpd" --out "$T/nodir/m.dlpm"
out_case out_train_dir "train: --out '.*/dir': is a directory" "$D" train --data "$T/none.dlpd" --out "$T/dir"
out_case out_train_curve "train: --curve" "$D" train --data "$T/none.dlpd" --out "$T/m.dlpm" --curve "$T/file/c.csv"
out_case out_train_report "train: --report" "$D" train --data "$T/none.dlpd" --out "$T/m.dlpm" --report "$T/dir"
mkdir "$T/r.svg"
out_case out_train_report_svg "train: --report \(its .svg\) '.*r.svg': is a directory" \
  "$D" train --data "$T/none.dlpd" --out "$T/m.dlpm" --report "$T/r.md"
rmdir "$T/r.svg"
out_case out_pretrain "pretrain: --out" "$D" pretrain --unlabeled "$T/none.onnx" --out "$T/nodir/e.dlpm"
out_case out_pretrain_ckpt "pretrain: --checkpoint" "$D" pretrain --unlabeled "$T/none.onnx" --out "$T/e.dlpm" \
  --checkpoint "$T/dir"
out_case out_dataset "dataset build: --out" "$D" dataset build --from help-nb201 --device all --out "$T/dir" --shared "$SHARED"
out_case out_features "features: --out '.*nodir/g.dlpg'" "$D" features "$T/none.onnx" --batch 1 --out "$T/nodir/g.dlpg"
out_case out_embed_csv "embed: --csv" "$D" embed --corpus "$T/none" --encoder "$T/none.dlpm" --csv "$T/dir"
out_case out_embed_tsne "embed: --tsne" "$D" embed --corpus "$T/none" --encoder "$T/none.dlpm" --tsne "$T/file/t.svg"
out_case out_roofline "roofline: --out" "$D" roofline "$T/none.onnx" --device h100-sxm --batch 1 --out "$T/nodir/r.svg"
out_case out_eval_report "eval: --report" "$D" eval --model "$T/none.dlpm" --data "$T/none.dlpd" --report "$T/nodir/r.md"
out_case out_eval_json "eval: --json" "$D" eval --model "$T/none.dlpm" --data "$T/none.dlpd" --json "$T/dir"
out_case out_data_import "data import: --into" "$D" data import "$T/none.csv" --into "$T/file/s.sqlite"
out_case out_data_export "data export: --out" "$D" data export "$T/none.sqlite" --out "$T/dir"
out_case out_data_merge "data merge: OUT" "$D" data merge "$T/dir" "$T/none.sqlite"
# creatable outputs still pass: '-' is stdout, missing folders of a store are made
"$D" roofline $M --device h100-sxm --batch 1 --out - > "$T/r.svg" 2> "$T/err"
if [ $? -eq 0 ] && grep -q '<svg' "$T/r.svg"; then ok out_stdout_dash; else bad out_stdout_dash; cat "$T/err"; fi

# with a real dataset: the refusal comes at once, not after the training
if [ -d "$SHARED/data/HELP" ]; then
  "$D" dataset build --from help-nb201 --device titanxp_32 --limit 60 --layout dippm --shared "$SHARED" \
    --out "$T/d.dlpd" > /dev/null 2>&1
  s=$(date +%s%N)
  out_case out_train_before_work "train: --out" timeout 30 "$D" train --data "$T/d.dlpd" --epochs 100000 --hidden 16 \
    --out "$T/nodir/m.dlpm"
  ms=$(( ($(date +%s%N) - s) / 1000000 ))
  if [ "$ms" -lt 5000 ]; then ok "out_train_before_work_fast (${ms} ms)"; else bad "out_train_before_work_fast (${ms} ms)"; fi
else
  ok "out_train_before_work (skipped: $SHARED/data/HELP absent)"
fi

# ---- issue 25: a write error is exit 1 naming the output ------------------
# stdout on /dev/full: every command that prints
full_case() {
  local name=$1; shift
  "$@" > /dev/full 2> "$T/err"; local rc=$?
  if [ $rc -eq 1 ] && grep -q '^dlperf: cannot write stdout: No space left on device$' "$T/err"; then ok "full_$name"
  else bad "full_$name (rc=$rc)"; cat "$T/err"; fi
}
full_case help "$D" --help
full_case help_word "$D" help
full_case version "$D" --version
full_case predict_help "$D" predict --help
# past one 4096-byte buffer (plan's and train's help are 4.5-4.8 kB): glibc
# drops the failed buffer, so the errno must come from the failed write itself
full_case plan_help "$D" plan --help
full_case train_help "$D" train --help
full_case predict "$D" predict $M --device h100-sxm --batch 8
full_case predict_json "$D" predict $M --device h100-sxm --batch 8 --json
full_case predict_kernels "$D" predict $M --device h100-sxm --batch 8 --kernels
full_case inspect "$D" inspect $M --batch 1
full_case inspect_json "$D" inspect $M --batch 1 --json
full_case features "$D" features $M --batch 1
full_case devices "$D" devices
full_case devices_one "$D" devices h100-sxm
full_case devices_json "$D" devices --json
full_case mig "$D" mig --device a100-40gb --memory-mb 9000
full_case mig_json "$D" mig --device a100-40gb --memory-mb 9000 --json
full_case roofline "$D" roofline $M --device h100-sxm --batch 1
full_case llm "$D" llm --model bert-base-uncased --device h100-sxm --batch 8 --seq 128
full_case llm_json "$D" llm --model bert-base-uncased --device h100-sxm --batch 8 --seq 128 --json
full_case llm_list "$D" llm --list
full_case llm_list_json "$D" llm --list --json
full_case lm_device_text "$D" lm device-text h100-sxm
if [ -f "$T/d.dlpd" ]; then
  full_case dataset_info "$D" dataset info "$T/d.dlpd"
  "$D" train --data "$T/d.dlpd" --epochs 2 --hidden 8 --out "$T/w.dlpm" > /dev/null 2>&1
  full_case eval "$D" eval --model "$T/w.dlpm" --data "$T/d.dlpd"
  full_case eval_report_stdout "$D" eval --model "$T/w.dlpm" --data "$T/d.dlpd" --report -
  # "--report -" is stdout: no "-.json" / "-.svg" left in the working directory
  mkdir -p "$T/cwd" && D_ABS=$(realpath "$D"); (cd "$T/cwd" && "$D_ABS" eval --model "$T/w.dlpm" --data "$T/d.dlpd" --report - > "$T/rep.md")
  if [ -s "$T/rep.md" ] && [ -z "$(ls -A "$T/cwd")" ]; then ok eval_report_dash_no_files
  else bad "eval_report_dash_no_files: $(ls -A "$T/cwd")"; fi
fi
# files: a file-size limit makes write() fail with EFBIG (SIGXFSZ ignored)
fsize_case() {
  local name=$1 path=$2; shift 2
  ( trap '' XFSZ; ulimit -f 1; "$@" ) > /dev/null 2> "$T/err"; local rc=$?
  if [ $rc -ne 0 ] && grep -qF "cannot write $path: File too large" "$T/err"; then ok "fsize_$name"
  else bad "fsize_$name (rc=$rc)"; cat "$T/err"; fi
}
# the library's writers (features --out, train --out, ...) word it their way,
# naming the path; a failed save is a runtime failure, exit 1
fsize_lib_case() {
  local name=$1 path=$2; shift 2
  ( trap '' XFSZ; ulimit -f 1; "$@" ) > /dev/null 2> "$T/err"; local rc=$?
  if [ $rc -eq 1 ] && grep -qF "$path: write failed: File too large" "$T/err" && [ ! -e "$path" ]; then ok "fsize_$name"
  else bad "fsize_$name (rc=$rc)"; cat "$T/err"; fi
}
fsize_lib_case features_out "$T/big.dlpg" "$D" features examples/bert.onnx --batch 8 --seq 128 --out "$T/big.dlpg"
if [ -f "$T/d.dlpd" ]; then
  fsize_lib_case train_out "$T/big.dlpm" "$D" train --data "$T/d.dlpd" --epochs 1 --hidden 64 --out "$T/big.dlpm"
fi
fsize_case roofline_out "$T/big.svg" "$D" roofline examples/bert.onnx --device h100-sxm --batch 1 --seq 128 --out "$T/big.svg"
if [ -f "$T/w.dlpm" ]; then
  fsize_case eval_report "$T/big.md" "$D" eval --model "$T/w.dlpm" --data "$T/d.dlpd" --report "$T/big.md"
fi

# ---- issue 25: text output never shows an exponent ------------------------
# the README's quick commands and extreme inputs (batch 1 and 65536, --runs 1
# and 1e12, a tiny and a huge model); stdout and stderr both
SH=$SHARED/models/torchvision
exp_scan() {
  local name=$1; shift
  "$@" > "$T/x.txt" 2>&1; local rc=$?
  if [ $rc -ne 0 ]; then bad "noexp_$name (rc=$rc)"; tail -3 "$T/x.txt"; return; fi
  if grep -Eq '[0-9][eE][+-]?[0-9]' "$T/x.txt"; then bad "noexp_$name"; grep -E '[0-9][eE][+-]?[0-9]' "$T/x.txt" | head -5
  else ok "noexp_$name"; fi
}
exp_scan predict_readme "$D" predict $M --device h100-sxm --batch 32
exp_scan predict_b1_runs1 "$D" predict $M --device h100-sxm --batch 1 --runs 1 --kernels --nodes
exp_scan predict_b65536_runs1e12 "$D" predict $M --device h100-sxm --batch 65536 --runs 1e12 --kernels
exp_scan predict_train_steps1e12 "$D" predict $M --device a100-40gb --batch 4096 --mode train --steps 1e12
exp_scan predict_cpu "$D" predict $M --device cpu-amd-epyc-2c --batch 8 --mode train
exp_scan predict_cpu_b1 "$D" predict $M --device cpu-amd-epyc-2c --batch 1 --runs 1e12
exp_scan predict_bert "$D" predict examples/bert.onnx --device a100-40gb --batch 8 --seq 128 --mode train --nodes
exp_scan predict_bert_fp8_b1 "$D" predict examples/bert.onnx --device b200 --batch 1 --seq 1 --dtype fp8 --kernels
exp_scan predict_slo "$D" predict $M --device a100-40gb --batch 1 --latency-slo 0.000001
[ -f "$SH/vit_b_16.onnx" ] && exp_scan predict_vit "$D" predict "$SH/vit_b_16.onnx" --device rtx4090 --batch 256 --dtype fp16 --kernels
exp_scan mig "$D" mig --device h100-sxm --memory-mb 7300
exp_scan mig_lat "$D" mig --device h100-sxm --memory-mb 1 --latency-ms 0.00001 --slo-ms 1e9
exp_scan inspect "$D" inspect $M --batch 32
exp_scan roofline_out "$D" roofline $M --device h100-sxm --batch 1 --out "$T/r.svg"
exp_scan llm_bert "$D" llm --model bert-base-uncased --device h100-sxm --batch 64 --seq 128 --dtype fp16
exp_scan llm_bert_tiny "$D" llm --model bert-base-uncased --device h100-sxm --batch 1 --seq 1 --samples 1
exp_scan llm_bert_huge "$D" llm --model bert-base-uncased --device t4 --batch 65536 --seq 512 --samples 1e12
exp_scan llm_moe "$D" llm --model Qwen/Qwen3-30B-A3B --device h100-sxm --gpus 2 --dtype fp8 --kv-dtype fp8 --seq 1024 --gen 256
exp_scan llm_serving "$D" llm --model Qwen/Qwen3-30B-A3B-Instruct-2507 --device h100-sxm --gpus 2 --dtype bf16 --concurrency 256 --prompt 1024 --gen 400
exp_scan llm_serving_1 "$D" llm --model Qwen/Qwen3-30B-A3B-Instruct-2507 --device h100-sxm --gpus 2 --dtype bf16 --concurrency 1 --prompt 1 --gen 1
exp_scan llm_maxfit "$D" llm --model openai/gpt-oss-120b --device h100-sxm --dtype mxfp4 --max-fit
exp_scan llm_huge "$D" llm --model Qwen/Qwen3.5-397B-A17B --device b200 --gpus 8 --dtype fp8 --seq 8192 --gen 1024
exp_scan llm_list "$D" llm --list
exp_scan devices "$D" devices
exp_scan devices_one "$D" devices h100-sxm
exp_scan lm_device_text "$D" lm device-text rtx3090 --precision fp16 --runtime "PyTorch 2.4" --batch 32
if [ -f "$T/w.dlpm" ]; then
  exp_scan dataset_info "$D" dataset info "$T/d.dlpd"
  exp_scan eval "$D" eval --model "$T/w.dlpm" --data "$T/d.dlpd" --split random --report "$T/rep.md"
  exp_scan eval_report_md cat "$T/rep.md"
  exp_scan predict_graph "$D" predict-graph --model "$T/w.dlpm" $M --batch 8
  exp_scan train "$D" train --data "$T/d.dlpd" --epochs 3 --hidden 8 --progress lines --out "$T/w2.dlpm"
fi

# ---- issue 25: flags ---------------------------------------------------------
# a repeated flag is exit 2 naming it (not the last one silently)
rep_case() {
  local name=$1 flag=$2; shift 2
  "$@" > "$T/out" 2> "$T/err"; local rc=$?
  if [ $rc -eq 2 ] && grep -qF -- "$flag given twice" "$T/err" && [ ! -s "$T/out" ]; then ok "repeat_$name"
  else bad "repeat_$name (rc=$rc)"; cat "$T/err"; fi
}
rep_case predict_seq --seq "$D" predict examples/bert.onnx --device h100-sxm --batch 1 --seq 128 --seq 256
rep_case predict_eq --batch "$D" predict $M --device h100-sxm --batch=1 --batch 2
rep_case llm_device --device "$D" llm --model gpt2 --device t4 --device h100-sxm
rep_case mig --memory-mb "$D" mig --device a100-40gb --memory-mb 1 --memory-mb 2
rep_case train_epochs --epochs "$D" train --data x.dlpd --epochs 1 --epochs 2 --out "$T/m.dlpm"
rep_case data_export --out "$D" data export x.sqlite --out "$T/a.csv" --out "$T/b.csv"
rep_case lm_pretrain "lm pretrain: --lr" "$D" lm pretrain --corpus x --out "$T/x.dlpm" --lr 1 --lr 2
rep_case data_export_sub "data export: --out" "$D" data export x.sqlite --out "$T/a.csv" --out "$T/b.csv"
rep_case predict_bool "predict: --json" "$D" predict $M --device h100-sxm --batch 1 --json --json
rep_case devices_bool "devices: --json" "$D" devices --json --json
# --dim repeats by design (one binding each)
"$D" predict $M --device h100-sxm --batch 1 --dim a=1 --dim b=2 > /dev/null 2>&1
if [ $? -eq 0 ]; then ok repeat_dim_allowed; else bad repeat_dim_allowed; fi
# counts refuse fractions
for f in "--runs 1.5" "--runs 0.5" "--mode train --steps 2.5"; do
  "$D" predict $M --device h100-sxm --batch 1 $f > "$T/out" 2> "$T/err"; rc=$?
  if [ $rc -eq 2 ] && grep -q "is not a whole number" "$T/err"; then ok "count_fraction '$f'"
  else bad "count_fraction '$f' (rc=$rc)"; cat "$T/err"; fi
done
"$D" predict $M --device h100-sxm --batch 1 --seq 128 > /dev/null 2> "$T/err"
if [ $? -eq 0 ] && [ "$(grep -c -- '--seq 128: the model has no symbolic sequence dimension; ignored' "$T/err")" -eq 1 ]
then ok warn_seq_on_cnn; else bad warn_seq_on_cnn; cat "$T/err"; fi
"$D" predict examples/bert.onnx --device h100-sxm --batch 1 --seq 128 > /dev/null 2> "$T/err"
if [ ! -s "$T/err" ]; then ok warn_seq_bert_silent; else bad warn_seq_bert_silent; cat "$T/err"; fi
# dlperf help X [SUB] = dlperf X [SUB] --help
for c in predict llm mig devices train "lm pretrain" "data export" "dataset info"; do
  if "$D" help $c > "$T/h1" 2>&1 && "$D" $c --help > "$T/h2" 2>&1 && cmp -s "$T/h1" "$T/h2" && grep -q "^usage: dlperf $c" "$T/h1"
  then ok "help_word '$c'"; else bad "help_word '$c'"; head -3 "$T/h1"; fi
done
"$D" help nope > /dev/null 2> "$T/err"
if [ $? -eq 2 ] && grep -q "unknown command 'nope'" "$T/err"; then ok help_word_unknown; else bad help_word_unknown; fi
# each sub-subcommand prints its own usage and nothing of its siblings
sub_help() {
  local cmd=$1 sub=$2; shift 2
  "$D" $cmd $sub --help > "$T/h" 2>&1; local rc=$?
  local others=0
  for o in "$@"; do grep -q "dlperf $cmd $o\b" "$T/h" && others=1; done
  if [ $rc -eq 0 ] && head -1 "$T/h" | grep -q "^usage: dlperf $cmd $sub" && [ $others -eq 0 ]; then ok "sub_help '$cmd $sub'"
  else bad "sub_help '$cmd $sub'"; head -3 "$T/h"; fi
}
sub_help lm corpus pretrain device-text convert
sub_help lm pretrain corpus device-text convert
sub_help lm device-text corpus pretrain convert
sub_help lm convert corpus pretrain device-text
sub_help data stats export import merge
sub_help data export stats import merge
sub_help data import stats export merge
sub_help data merge stats export import
sub_help dataset build info
sub_help dataset info build
if "$D" lm pretrain --help | grep -q -- "--minutes M" && "$D" data export --help | grep -q "stdout without --out"
then ok sub_help_sections; else bad sub_help_sections; fi

# ---- #7: a missing required flag is one line naming it, plus a hint -----
# name, the flag or thing the line must name, command...
miss_case() {
  local name=$1 what=$2; shift 2
  "$@" > "$T/out" 2> "$T/err"; local rc=$?
  local cmd=$2
  if [ $rc -eq 2 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && grep -qF -- "$what" "$T/err" \
     && grep -qF "(try 'dlperf $cmd --help')" "$T/err"; then ok "$name"
  else bad "$name (rc=$rc, $(wc -l < "$T/err") lines)"; head -n 3 "$T/err"; fi
}
miss_case miss_train_data --data "$D" train
miss_case miss_train_out --out "$D" train --data x.dlpd
miss_case miss_train_unknown "unknown option '--bogus'" "$D" train --bogus
miss_case miss_eval_model --model "$D" eval
miss_case miss_eval_data --data "$D" eval --model m.dlpm
miss_case miss_eval_unknown "unknown option '--bogus'" "$D" eval --bogus
miss_case miss_predict_graph --model "$D" predict-graph
miss_case miss_predict_graph_unknown "unknown option '--bogus'" "$D" predict-graph --bogus
miss_case miss_llm_model --model "$D" llm
miss_case miss_llm_device --device "$D" llm --model bert-base-uncased
miss_case miss_llm_unknown "unknown option '--bogus'" "$D" llm --bogus
miss_case miss_dataset "build, merge or info" "$D" dataset
miss_case miss_dataset_from --from "$D" dataset build
miss_case miss_data "stats, export, import or merge" "$D" data
miss_case miss_data_import --into "$D" data import x.csv
miss_case miss_predict --device "$D" predict $M
miss_case miss_roofline --device "$D" roofline $M
miss_case miss_mig --device "$D" mig
miss_case miss_pretrain --out "$D" pretrain
miss_case miss_embed --encoder "$D" embed
miss_case miss_inspect "no model given" "$D" inspect
miss_case miss_features "no model given" "$D" features

# --help of inspect and features describes every flag (a line "  --flag ... text")
help_case() { # name, command, flags...
  local name=$1 cmd=$2; shift 2
  "$D" $cmd --help > "$T/help" 2>&1; local rc=$? missing=""
  for f in "$@"; do grep -Eq -- "^  $f( [A-Za-z.=_]+)? +[a-z(]" "$T/help" || missing="$missing $f"; done
  if [ $rc -eq 0 ] && [ -z "$missing" ]; then ok "$name"; else bad "$name (undescribed:$missing)"; fi
}
help_case help_inspect inspect --batch --seq --dim --json --nodes
help_case help_features features --batch --seq --dim --layout --out --json

# ---- #9: progress when stderr is not a terminal: a line every
# DLP_PROGRESS_SECONDS (default 5 s), nothing for a quicker run ----------
if [ -d "$SHARED/data/HELP" ]; then
  DLP_PROGRESS_SECONDS=0 "$D" dataset build --from help-nb201 --device titanxp_32 --limit 30 --layout trappm \
    --shared "$SHARED" --out "$T/p.dlpd" > /dev/null 2> "$T/err"
  if grep -q '^dataset build: [0-9]*/30 architectures$' "$T/err" && ! grep -q $'\r' "$T/err"; then ok progress_dataset_log
  else bad progress_dataset_log; head -n 3 "$T/err"; fi
  "$D" dataset build --from help-nb201 --device titanxp_32 --limit 30 --layout trappm \
    --shared "$SHARED" --out "$T/p.dlpd" > /dev/null 2> "$T/err"
  if [ ! -s "$T/err" ]; then ok progress_dataset_quick_silent; else bad progress_dataset_quick_silent; fi
  TR="--data $T/p.dlpd --hidden 8 --layers 1 --fc-layers 1 --epochs 6 --threads 1 --out $T/pm.dlpm"
  DLP_PROGRESS_SECONDS=0 "$D" train $TR > /dev/null 2> "$T/err"
  n=$(grep -c '^epoch [1-6]/6  loss' "$T/err")
  if [ "$n" -eq 6 ] && ! grep -q $'\r' "$T/err"; then ok progress_train_log; else bad "progress_train_log ($n lines)"; head -n 3 "$T/err"; fi
  DLP_PROGRESS_SECONDS=1000 "$D" train $TR > /dev/null 2> "$T/err"   # rate-limited: none within 1000 s
  if [ ! -s "$T/err" ]; then ok progress_train_rate_limited; else bad progress_train_rate_limited; head -n 3 "$T/err"; fi
  DLP_PROGRESS_SECONDS=0 "$D" pretrain --unlabeled "$T/p.dlpd" --out "$T/enc.dlpm" --hidden 8 --layers 1 --epochs 3 \
    --threads 1 > /dev/null 2> "$T/err"
  n=$(grep -c '^epoch [1-3]/3  loss' "$T/err")
  if [ "$n" -eq 3 ]; then ok progress_pretrain_log; else bad "progress_pretrain_log ($n lines)"; head -n 3 "$T/err"; fi
  "$D" pretrain --unlabeled "$T/p.dlpd" --out "$T/enc2.dlpm" --hidden 8 --layers 1 --epochs 3 --threads 1 \
    > /dev/null 2> "$T/err"
  if [ ! -s "$T/err" ]; then ok progress_pretrain_quick_silent; else bad progress_pretrain_quick_silent; head -n 3 "$T/err"; fi
else
  for t in progress_dataset_log progress_dataset_quick_silent progress_train_log progress_train_rate_limited \
           progress_pretrain_log progress_pretrain_quick_silent; do ok "$t (skipped: $SHARED/data/HELP absent)"; done
fi

# ---- #10: human output: separators for counts and rates, singular for 1;
# JSON keeps plain numbers; the README's example files exist -------------
"$D" predict $M --device h100-sxm --batch 32 > "$T/p.txt" 2>&1
if grep -Eq '^throughput: +[0-9]{1,3}(,[0-9]{3})+ samples/s$' "$T/p.txt" && ! grep -q 'e+0' "$T/p.txt" \
   && grep -q ' for 1 forward pass (' "$T/p.txt"; then ok human_predict
else bad human_predict; grep -E 'throughput|cost' "$T/p.txt"; fi
"$D" predict $M --device h100-sxm --batch 32 --runs 1e6 > "$T/p.txt" 2>&1
if grep -q ' for 1,000,000 forward passes (' "$T/p.txt"; then ok human_predict_runs; else bad human_predict_runs; grep cost "$T/p.txt"; fi
"$D" predict $M --device h100-sxm --batch 32 --mode train > "$T/p.txt" 2>&1
if grep -q ' for 1 step (' "$T/p.txt"; then ok human_predict_step; else bad human_predict_step; grep cost "$T/p.txt"; fi
"$D" predict $M --device h100-sxm --batch 32 --json > "$T/p.json"
if /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert isinstance(d['throughput_sps'], float) and d['throughput_sps'] > 1000 and d['runs'] == 1" "$T/p.json"
then ok human_predict_json_numeric; else bad human_predict_json_numeric; fi
"$D" llm --model bert-base-uncased --device h100-sxm --batch 64 --seq 128 --samples 1e6 > "$T/l.txt" 2>&1
if grep -Eq '^  throughput +[0-9]{1,3}(,[0-9]{3})+ samples/s, [0-9]{1,3}(,[0-9]{3})+ tokens/s ' "$T/l.txt" \
   && grep -Eq '^  1,000,000 samples: [0-9.]+ (s|min), [0-9.]+ (J|kJ|MJ), [0-9.]+ (g|kg) CO2$' "$T/l.txt"; then ok human_llm
else bad human_llm; grep -E 'throughput|samples:' "$T/l.txt"; fi
# every ONNX file a README command names ships (examples/), is in the corpus
# (../shared/models/torchvision) or is the placeholder model.onnx
missing=""
for f in $(grep -E '^    dlperf ' README.md | grep -oE '[A-Za-z0-9_./-]+\.onnx' | sort -u); do
  [ "$f" = model.onnx ] && continue
  [ -f "$f" ] || [ -f "$SHARED/models/torchvision/$(basename "$f")" ] || missing="$missing $f"
done
if [ -z "$missing" ]; then ok readme_models_exist; else bad "readme_models_exist (missing:$missing)"; fi
"$D" predict examples/bert.onnx --device a100-40gb --batch 8 --seq 128 --mode train --json > "$T/b.json" 2> "$T/err"
if [ $? -eq 0 ] && /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['step_ms'] > 0" "$T/b.json" \
   && [ "$(stat -c %s examples/bert.onnx)" -lt 2000000 ]; then ok readme_bert_runs
else bad readme_bert_runs; cat "$T/err"; fi

exit 0
