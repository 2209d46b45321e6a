#!/usr/bin/env bash
# h233 (docs/llm.md, issue 22): the GB200 dynamo-trt December rows scored with
# the yaml's DECODE_MTP_SIZE as K.  Writes a copy of recipes.csv whose 1,051
# recipe-less GB200 dynamo-trt rows have decode_max_batch blanked, then lets
# dynamo_settings.py --mtp refill the batch (the same values) and K; prints
# the silicon figures with it.  usage: mtp_k_whatif.sh INFERENCEX_GIT_DIR
set -eu
cd "$(dirname "$0")/../../.."
out=${TMPDIR:-/tmp}/recipes_h233_mtp.csv
python3 - "$out" <<'PY'
import csv, sys
rd = list(csv.reader(open("tools/inferencemax/recipes.csv")))
ix = {c: i for i, c in enumerate(rd[0])}
for r in rd[1:]:
    if not r[ix["recipe"]] and r[ix["gpu"]] == "gb200" and r[ix["framework"]] == "dynamo-trt":
        r[ix["decode_max_batch"]] = ""
csv.writer(open(sys.argv[1], "w"), lineterminator="\n").writerows(rd)
PY
python3 tools/inferencemax/dynamo_settings.py "$1" "$out" --mtp
bash bench/bench_llm.sh --serving silicon --analytic-only --recipes "$out"
