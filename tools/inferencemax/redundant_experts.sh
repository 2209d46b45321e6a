#!/usr/bin/env bash
# redundant_experts.sh SRT_SLURM_GIT_DIR [COMMIT] > tools/inferencemax/redundant_experts.csv
#
# SGLang's redundant experts (ep-num-redundant-experts) of each SGLang recipe
# that tools/inferencemax/recipes.csv names, read from NVIDIA/srt-slurm (the
# recipe files InferenceX's nvidia-master.yaml points at): one row per recipe
# that sets them on either worker (prefill_redundant, decode_redundant; 0: not
# set).  TensorRT-LLM's recipes carry theirs in the name (eplbN = num_slots)
# and are not listed.  bench_serving.c turns N redundant into expert_slots =
# the model's experts + N (docs/llm.md, "Redundant experts").
set -euo pipefail
G=${1:?usage: redundant_experts.sh SRT_SLURM_GIT_DIR [COMMIT]}
C=${2:-HEAD}
cd "$(dirname "$0")"
C=$(git --git-dir="$G" rev-parse "$C")
echo "recipe,prefill_redundant,decode_redundant,srt_slurm_commit"
awk -F, 'NR > 1 && $10 == "sglang" {print $25}' recipes.csv | sort -u | while read -r f; do
  # recipes absent at that commit (the B200 ones) give nothing
  git --git-dir="$G" show "$C:$f" 2>/dev/null | awk -v f="$f" -v c="$C" '
    /^    prefill:/ {s = "p"} /^    decode:/ {s = "d"}
    /ep-num-redundant-experts:/ {n[s] = $2 + 0}
    END {if (n["p"] + n["d"] > 0) printf "%s,%d,%d,%s\n", f, n["p"], n["d"], c}'  || true
done
