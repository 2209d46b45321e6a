#!/usr/bin/env bash
# decode_caps.sh SRT_SLURM_GIT_DIR [COMMIT] > tools/inferencemax/decode_caps.csv
#
# The decode cap and the router of each SGLang recipe that
# tools/inferencemax/recipes.csv names, read from NVIDIA/srt-slurm (the recipe
# files InferenceX's nvidia-master.yaml points at; the same commit as
# redundant_experts.sh): SGLang's recipe names carry no decode batch, so the
# decode-slot wait (docs/llm.md, "The decode-slot wait of disaggregated runs")
# needs the yaml.  One row per recipe whose decode worker sets
# max-running-requests:
#   decode_workers   resources.decode_workers (checked against recipes.csv)
#   max_running      the decode worker's max-running-requests: SGLang's cap for
#                    the whole worker, split over its attention-DP ranks
#                    (max_running_requests // dp_size a rank)
#   decode_dp        dp-size where enable-dp-attention is true, else 1
#   frontend         the recipe's frontend.type, "dynamo-default" where unset
#                    (srtctl's FrontendConfig.type defaults to "dynamo")
#   frontend_args    1 where the recipe passes frontend args (a router mode
#                    may be set: the bench then composes nothing), else 0
# Recipes absent at that commit (the B200 ones but b200-fp8/8k1k_*) give nothing.
set -euo pipefail
G=${1:?usage: decode_caps.sh SRT_SLURM_GIT_DIR [COMMIT]}
C=${2:-HEAD}
cd "$(dirname "$0")"
C=$(git --git-dir="$G" rev-parse "$C")
echo "recipe,decode_workers,max_running,decode_dp,frontend,frontend_args,srt_slurm_commit"
awk -F, 'NR > 1 && $10 == "sglang" {print $25}' recipes.csv | sort -u | while read -r f; do
  [ -n "$f" ] || continue
  git --git-dir="$G" show "$C:$f" 2>/dev/null | awk -v f="$f" -v c="$C" '
    /^[a-z_]+:/ {top = $1}
    top == "frontend:" && /^  type:/ {ft = $2; gsub(/"/, "", ft)}
    top == "frontend:" && /^  args:/ {fa = 1}
    top == "resources:" && /^  decode_workers:/ {dw = $2 + 0}
    /^    prefill:/ {s = "p"} /^    decode:/ {s = "d"}
    s == "d" && /^      max-running-requests:/ {mr = $2 + 0}
    s == "d" && /^      dp-size:/ {dp = $2 + 0}
    s == "d" && /^      enable-dp-attention:/ {da = ($2 == "true")}
    END {
      if (mr < 1 || dw < 1) exit
      r = (da && dp > 1) ? dp : 1
      printf "%s,%d,%d,%d,%s,%d,%s\n", f, dw, mr, r, (ft == "" ? "dynamo-default" : ft), fa + 0, c
    }' || true
done
