#!/usr/bin/env bash
# prefill_chunks.sh SRT_SLURM_GIT_DIR [COMMIT...] > tools/inferencemax/prefill_chunks.csv
#
# The prefill worker's chunked-prefill-size of each SGLang recipe that
# tools/inferencemax/recipes.csv names (issue 22, h183), read from
# NVIDIA/srt-slurm: the first COMMIT (default HEAD, then decode_caps.csv's
# 896eabe8071d) holding the file.  One row per recipe whose prefill worker
# sets chunked-prefill-size:
#   prefill_workers  resources.prefill_workers
#   chunk            the prefill worker's chunked-prefill-size (SGLang's
#                    budget for the worker; server_args.py divides it by
#                    dp_size under attention DP)
#   prefill_dp       dp-size where enable-dp-attention is true, else 1
#   max_running      the prefill worker's max-running-requests (0: unset)
#   srt_slurm_commit the commit read (HEAD was c88ef731 for the shipped csv)
#   max_prefill      the prefill worker's max-prefill-tokens (0: unset, SGLang's
#                    default 16384; the prompt tokens one prefill batch takes
#                    whole prompts up to, not divided by dp_size; h186)
set -euo pipefail
G=${1:?usage: prefill_chunks.sh SRT_SLURM_GIT_DIR [COMMIT...]}
shift
[ $# -gt 0 ] || set -- HEAD 896eabe8071d6d93056e0172d5a244fc8f92a39b
R=$(realpath "${PREFILL_RECIPES:-$(dirname "$0")/recipes.csv}") # PREFILL_RECIPES: a test's own table
echo "recipe,prefill_workers,chunk,prefill_dp,max_running,srt_slurm_commit,max_prefill"
awk -F, 'NR > 1 && $10 == "sglang" {print $25}' "$R" | sort -u | while read -r f; do
  [ -n "$f" ] || continue
  for c in "$@"; do
    c=$(git --git-dir="$G" rev-parse "$c")
    t=$(git --git-dir="$G" show "$c:$f" 2>/dev/null) || continue
    printf '%s\n' "$t" | awk -v f="$f" -v c="$c" '
      /^[a-z_]+:/ {top = $1}
      top == "resources:" && /^  prefill_workers:/ {pw = $2 + 0}
      /^    prefill:/ {s = "p"} /^    decode:/ {s = "d"}
      s == "p" && /^      chunked-prefill-size:/ {ck = $2 + 0}
      s == "p" && /^      max-running-requests:/ {mr = $2 + 0}
      s == "p" && /^      max-prefill-tokens:/ {mp = $2 + 0}
      s == "p" && /^      dp-size:/ {dp = $2 + 0}
      s == "p" && /^      enable-dp-attention:/ {da = ($2 == "true")}
      END {
        if (ck < 1 || pw < 1) exit
        printf "%s,%d,%d,%d,%d,%s,%d\n", f, pw, ck, (da && dp > 1) ? dp : 1, mr, c, mp
      }' || true
    break
  done
done
