#!/usr/bin/env bash
# `dlperf lm corpus | pretrain | device-text | convert` end to end in seconds: a corpus
# from examples/resnet18.onnx and the device database (plus 20 HELP
# architectures with their statements when ../shared is there), built twice
# with the same bytes; a tiny model pre-trained for 24 steps, and the same run
# stopped after 10 steps and resumed giving identical files; progress lines;
# the tiny Hugging Face model of tests/golden/hf_tiny converted to our .dlpm;
# refusals exiting 2 with one line naming the file.
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
D="$BUILD/dlperf"
SHARED=${DLP_SHARED:-../shared}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # name, then a command that must succeed
  local name=$1; shift
  if "$@"; then echo "PASS $name"; else echo "FAIL $name"; fi
}
exit2() { # name, pattern the message must contain, then the command (exit 2, one line)
  local name=$1 pat=$2; shift 2
  "$@" >/dev/null 2>"$tmp/err2"; local rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err2")" -eq 1 ] && grep -q -- "$pat" "$tmp/err2"; then echo "PASS $name"
  else echo "FAIL $name (exit $rc)"; cat "$tmp/err2"; fi
}

# ---- corpus ----
SH="--shared none"
[ -f "$SHARED/data/HELP/DERIVED_csv/nasbench201_latency_ms.csv" ] && SH="--shared $SHARED --nas-limit 20"
out=$("$D" lm corpus --out "$tmp/c1" --graphs examples/resnet18.onnx $SH); rc=$?
"$D" lm corpus --out "$tmp/c2" --graphs examples/resnet18.onnx $SH >/dev/null
check lm_corpus bash -c '[ $1 -eq 0 ] && grep -q "^graphs.txt" <<<"$2" && grep -q "^total" <<<"$2" \
  && grep -q "Q: Summarise the graph of resnet18" "$3/c1/graphs.txt" && grep -q "Device: NVIDIA GeForce RTX 3090" "$3/c1/devices.txt" \
  && cmp -s "$3/c1/graphs.txt" "$3/c2/graphs.txt" && cmp -s "$3/c1/devices.txt" "$3/c2/devices.txt" \
  && cmp -s "$3/c1/perf.txt" "$3/c2/perf.txt"' _ $rc "$out" "$tmp"
if [ "$SH" != "--shared none" ]; then
  check lm_corpus_help bash -c 'grep -q "NAS-Bench-201 cell" "$1/c1/graphs.txt" && grep -q "FBNet architecture" "$1/c1/graphs.txt" \
    && grep -q "runs in .* ms (HELP, " "$1/c1/perf.txt" && grep -q "samples/s" "$1/c1/perf.txt" \
    && grep -q "at batch 1 on the Intel Xeon Gold 6240 runs in .* (HELP, gold_6240)" "$1/c1/perf.txt" \
    && grep -q "at batch 32 on the NVIDIA TITAN RTX runs in .* (HELP, titan_rtx_32)" "$1/c1/perf.txt" \
    && ! grep -q "on the [a-z0-9_]* runs in" "$1/c1/perf.txt"' _ "$tmp"
fi
check lm_device_text bash -c '"$1" lm device-text a100-40gb --precision bf16 --batch 8 | grep -q "^Device: NVIDIA A100-SXM4-40GB, a GPU (ampere architecture, GA100). 108 SMs.*Setting: precision bf16, batch 8.$"' _ "$D"

# ---- pretrain ----
P="--corpus $tmp/c1 --config tiny --steps 24 --seq 32 --checkpoint-every 5 --bpe-mb 0.05"
out=$("$D" lm pretrain $P --out "$tmp/a.dlpm" --progress lines 2>"$tmp/err"); rc=$?
check lm_pretrain bash -c '[ $1 -eq 0 ] && [ -s "$3/a.dlpm" ] && [ -s "$3/a.dlpm.ckpt" ] && grep -q "steps      24 of 24" <<<"$2" \
  && grep -q "held out   loss .* perplexity" <<<"$2" && grep -q "^step 24/24  loss" "$3/err" && grep -q "^tokenizer: " "$3/err"' _ $rc "$out" "$tmp"
out=$("$D" lm pretrain $P --out "$tmp/b.dlpm" --progress none --stop-after 10); rc=$?
check lm_pretrain_stop bash -c '[ $1 -eq 0 ] && grep -q "steps      10 of 24 (stopped early" <<<"$2"' _ $rc "$out"
"$D" lm pretrain --corpus "$tmp/c1" --out "$tmp/b.dlpm" --resume --progress none >/dev/null
check lm_pretrain_resume_identical bash -c 'cmp -s "$1/a.dlpm" "$1/b.dlpm" && cmp -s "$1/a.dlpm.ckpt" "$1/b.dlpm.ckpt"' _ "$tmp"

# ---- convert a Hugging Face folder ----
out=$("$D" lm convert --hf tests/golden/hf_tiny/bf16 --out "$tmp/hf.dlpm"); rc=$?
check lm_convert bash -c '[ $1 -eq 0 ] && [ -s "$3/hf.dlpm" ] && grep -q "^model      llama: 2 layers, dim 16, heads 4/2, ffn 40, max_seq 64, untied head" <<<"$2" \
  && grep -q "^tokenizer  196 merges of 196 kept" <<<"$2" && grep -q "^wrote      $3/hf.dlpm" <<<"$2"' _ $rc "$out" "$tmp"
out=$("$D" lm convert --hf tests/golden/hf_tiny/f32_sharded --out "$tmp/hf2.dlpm"); rc=$?
check lm_convert_sharded bash -c '[ $1 -eq 0 ] && grep -q "^model      mistral: .*max_seq 32 (sliding window), tied head" <<<"$2" \
  && grep -q "^weights    2 safetensors files" <<<"$2"' _ $rc "$out"
exit2 lm_convert_missing "$tmp/nohf/config.json" "$D" lm convert --hf "$tmp/nohf" --out "$tmp/x.dlpm"
mkdir -p "$tmp/sp" && cp tests/golden/hf_tiny/bf16/config.json "$tmp/sp/" && echo x >"$tmp/sp/tokenizer.model"
exit2 lm_convert_sentencepiece "$tmp/sp/tokenizer.model: SentencePiece" "$D" lm convert --hf "$tmp/sp" --out "$tmp/x.dlpm"

# ---- refusals ----
exit2 lm_no_corpus_dir "$tmp/none" "$D" lm pretrain --corpus "$tmp/none" --out "$tmp/x.dlpm" --steps 2
mkdir -p "$tmp/bin" && printf 'ab\0cd' >"$tmp/bin/x.txt"
exit2 lm_binary_corpus "$tmp/bin/x.txt" "$D" lm pretrain --corpus "$tmp/bin" --out "$tmp/x.dlpm" --steps 2
echo junk >"$tmp/bad.ckpt"
exit2 lm_bad_checkpoint "$tmp/bad.ckpt" "$D" lm pretrain --corpus "$tmp/c1" --out "$tmp/x.dlpm" --checkpoint "$tmp/bad.ckpt" --resume
exit2 lm_bad_config "--config 'huge'" "$D" lm pretrain --corpus "$tmp/c1" --out "$tmp/x.dlpm" --config huge --steps 2
exit2 lm_no_steps "--steps" "$D" lm pretrain --corpus "$tmp/c1" --out "$tmp/x.dlpm"
exit2 lm_corpus_bad_graphs "$tmp/nope.onnx" "$D" lm corpus --out "$tmp/c3" --graphs "$tmp/nope.onnx" --shared none
exit2 lm_unknown_device "h1000" "$D" lm device-text h1000

# ---- gnnlm: the three stages, few-shot, predict-graph with a device text (docs/gnnlm.md) ----
if [ -f "$SHARED/data/HELP/DERIVED_csv/nasbench201_latency_ms.csv" ]; then
  "$D" dataset build --from help-nb201 --device titanxp_32,gold_6240 --limit 40 --layout dippm --shared "$SHARED" \
    --out "$tmp/h.dlpd" >/dev/null
  G="--data $tmp/h.dlpd --threads 1 --progress none --split random:0.8:0 --split-by name --hidden 8 --layers 1"
  out=$("$D" train $G --arch gnnlm --lm "$tmp/a.dlpm" --stage adapt --epochs 1 --lora-rank 2 --soft-tokens 2 \
        --out "$tmp/s2.dlpm" 2>&1); rc=$?
  check gnnlm_stage_adapt bash -c '[ $1 -eq 0 ] && grep -q "^trained gnnlm" <<<"$2" && grep -q "stage adapt (graph-to-text): no test evaluation" <<<"$2"' _ $rc "$out"
  out=$("$D" train $G --init "$tmp/s2.dlpm" --stage predict --epochs 2 --out "$tmp/s3.dlpm" 2>&1); rc=$?
  check gnnlm_stage_predict bash -c '[ $1 -eq 0 ] && grep -q "initialised from" <<<"$2" && grep -q "^test latency_ms (16 samples)" <<<"$2"' _ $rc "$out"
  out=$("$D" train $G --init "$tmp/s3.dlpm" --device gold_6240 --train-limit 8 --keep-last --epochs 2 --out "$tmp/s4.dlpm" 2>&1); rc=$?
  check gnnlm_few_shot bash -c '[ $1 -eq 0 ] && grep -q "on 8 samples" <<<"$2" && grep -q "^test latency_ms (8 samples)" <<<"$2"' _ $rc "$out"
  out=$("$D" predict-graph --model "$tmp/s4.dlpm" examples/resnet18.onnx --batch 1 --json); rc=$?
  out2=$("$D" predict-graph --model "$tmp/s4.dlpm" examples/resnet18.onnx --batch 1 --json --device-text "Raspberry Pi 4, 4x Cortex-A72 1.5 GHz, fp32"); rc2=$?
  check gnnlm_predict_graph bash -c '[ $1 -eq 0 ] && [ $3 -eq 0 ] && grep -q "\"arch\":\"gnnlm\",.*\"device\":\"gold_6240\"" <<<"$2" \
    && grep -q "\"device\":\"Raspberry Pi 4, 4x Cortex-A72 1.5 GHz, fp32\",\"predictions\":{\"latency_ms\":[0-9]" <<<"$4"' _ $rc "$out" $rc2 "$out2"
  out=$("$D" eval --model "$tmp/s3.dlpm" --data "$tmp/h.dlpd" 2>&1); rc=$?
  check gnnlm_eval_own_split bash -c '[ $1 -eq 0 ] && grep -q "latency_ms (16 predictions): MAPE" <<<"$2"' _ $rc "$out"
  out=$("$D" train $G --arch gnnlm --epochs 1 --train-limit 8 --out "$tmp/b.dlpm" 2>&1); rc=$?
  check gnnlm_builtin_lm bash -c '[ $1 -eq 0 ] && grep -q "^trained gnnlm" <<<"$2"' _ $rc "$out"
  out=$("$D" train $G --arch gnnlm --lm tests/golden/hf_tiny/bf16 --epochs 1 --train-limit 8 --out "$tmp/hf.dlpm" 2>&1); rc=$?
  check gnnlm_hf_folder bash -c '[ $1 -eq 0 ] && grep -q "^trained gnnlm" <<<"$2"' _ $rc "$out"
  "$D" train $G --arch sage --epochs 1 --out "$tmp/sage.dlpm" >/dev/null 2>&1
  exit2 gnnlm_device_text_not_gnnlm "is for gnnlm models" "$D" predict-graph --model "$tmp/sage.dlpm" examples/resnet18.onnx --batch 1 --device-text pixel3
  exit2 gnnlm_stage_not_gnnlm "are for --arch gnnlm" "$D" train $G --arch sage --stage adapt --out "$tmp/x.dlpm"
  exit2 gnnlm_graph_input_bad "--graph-input 'xml'" "$D" train $G --arch gnnlm --graph-input xml --out "$tmp/x.dlpm"
  exit2 gnnlm_split_by_bad "--split-by 'cell'" "$D" train ${G/--split-by name/} --arch gnnlm --split-by cell --out "$tmp/x.dlpm"
else
  echo "SKIP gnnlm CLI cases ($SHARED/data/HELP missing)"
fi
