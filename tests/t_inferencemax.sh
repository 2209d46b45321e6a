#!/usr/bin/env bash
# The InferenceMAX recipes (docs/llm.md, "Worker counts from the InferenceMAX
# recipes (h129)"): tools/inferencemax/extract.py on a yaml excerpt written
# here, then bench_serving's matching of blank-count silicon runs against
# that table, every expectation worked by hand from the excerpt:
#
#   dsr1-fp4-gb200-dynamo-trt, 1024 / 1024 (the old seq-len-configs form):
#     E1 mtp,  conc 4 8   prefill 1 x tp4 ep4 dp-attn;  decode 4 x tp8 ep8 (TEP)
#                         recipe ctx1_gen4_tep8_batch8_eplb0_mtp3: K 3, batch 8
#     E2 none, conc 8 64  the same workers; recipe ..._batch16_eplb0_mtp0
#     E3 mtp,  conc 64    prefill 2 x tp4 ep4 dp-attn;  decode 1 x tp8 ep8 dp-attn
#                         recipe ctx2_gen1_dep8_batch64_eplb0_mtp1: K 1, batch 64
#   gptoss-fp4-gb200-dynamo-trt, 1024 / 8192 (the scenarios.fixed-seq-len form):
#     E4 none, conc 16    prefill 1 x tp1 ep1; decode 2 x tp2 ep1 (no recipe file)
#   dsr1-fp8-h200-vllm (not disaggregated): no rows
#   => 2 + 2 + 1 + 1 = 6 table rows
#
#   silicon runs (all blank worker counts, DeepSeek-R1 fp4 GB200 trtllm 1k/1k,
#   dumped 2026-03-25), by silicon_concurrency and layout (prefill tp/ep,
#   decode tp/ep):
#     c4  4/4 8/8    -> E1 only: exactly one; MTP 3 drafts
#     c8  4/4 8/8    -> E1 and E2: same workers, MTP differs: counts used, MTP unknown
#     c64 4/4 8/8    -> E2 and E3: different workers (and MTP): ambiguous
#     c4  36/1 36/1  -> E1 by the run's total GPUs (1 x 4 + 4 x 8 = 36): exactly one
#     c4  4/4 16/16  -> no entry with that layout
#     c5  4/4 8/8    -> no entry for conc 5
#     (and one run with its counts given: not matched at all)
. "$(dirname "$0")/bench_fixture.sh"
cat >"$tmp/master.yaml" <<'YAML'
dsr1-fp4-gb200-dynamo-trt:
  model: nvidia/DeepSeek-R1-0528-NVFP4-v2
  model-prefix: dsr1
  runner: gb200
  precision: fp4
  framework: dynamo-trt
  multinode: true
  disagg: true
  seq-len-configs:
  - isl: 1024
    osl: 1024
    search-space:
    # E1
    - spec-decoding: "mtp"
      conc-list: [ 4, 8 ]
      prefill:
        num-worker: 1
        tp: 4
        ep: 4
        dp-attn: true
        additional-settings:
        - "CONFIG_FILE=recipes/trtllm/gb200-fp4/1k1k/mtp/ctx1_gen4_tep8_batch8_eplb0_mtp3.yaml"
      decode:
        num-worker: 4
        tp: 8
        ep: 8
        dp-attn: false
    # E2
    - spec-decoding: "none"
      conc-list: [ 8, 64 ]
      prefill:
        num-worker: 1
        tp: 4
        ep: 4
        dp-attn: true
        additional-settings:
        - "CONFIG_FILE=recipes/trtllm/gb200-fp4/1k1k/stp/ctx1_gen4_tep8_batch16_eplb0_mtp0.yaml"
      decode:
        num-worker: 4
        tp: 8
        ep: 8
        dp-attn: false
    # E3
    - spec-decoding: "mtp"
      conc-list: [ 64 ]
      prefill:
        num-worker: 2
        tp: 4
        ep: 4
        dp-attn: true
        additional-settings:
        - "CONFIG_FILE=recipes/trtllm/gb200-fp4/1k1k/stp/ctx2_gen1_dep8_batch64_eplb0_mtp1.yaml"
      decode:
        num-worker: 1
        tp: 8
        ep: 8
        dp-attn: true
gptoss-fp4-gb200-dynamo-trt:
  model: openai/gpt-oss-120b
  model-prefix: gptoss
  runner: gb200
  precision: fp4
  framework: dynamo-trt
  disagg: true
  scenarios:
    fixed-seq-len:
    - isl: 1024
      osl: 8192
      search-space:
      - conc-list: [ 16 ]
        prefill: {num-worker: 1, tp: 1, ep: 1, dp-attn: false}
        decode: {num-worker: 2, tp: 2, ep: 1, dp-attn: false}
dsr1-fp8-h200-vllm:
  model: deepseek-ai/DeepSeek-R1-0528
  model-prefix: dsr1
  runner: h200
  precision: fp8
  framework: vllm
  seq-len-configs:
  - isl: 1024
    osl: 1024
    search-space:
    - {tp: 8, conc-start: 4, conc-end: 64}
YAML
python3 tools/inferencemax/extract.py --yaml "$tmp/master.yaml" --date 2026-03-25 >"$tmp/recipes.csv" ||
  { echo "FAIL extract.py on the fixture"; exit 1; }
n=$(($(wc -l <"$tmp/recipes.csv") - 1))
check "extract: 6 rows (E1 x 2 concs, E2 x 2, E3, E4; the aggregated key none): got $n" [ "$n" = 6 ]
# columns: 13 conc, 14 spec, 15 K, 16 batch, 17-20 prefill w/tp/ep/dp, 21-24 decode w/tp/ep/dp
got=$(awk -F, '$13 == 4 { print $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24 }' "$tmp/recipes.csv")
check "extract: E1 at conc 4 = mtp 3 8 1 4 4 1 4 8 8 0: got '$got'" [ "$got" = "mtp 3 8 1 4 4 1 4 8 8 0" ]
got=$(awk -F, '$13 == 64 { print $14, $15, $16, $17, $21, $24 }' "$tmp/recipes.csv" | sort | tr '\n' ';')
check "extract: conc 64 = E2 (none 0 16 1 4 0) and E3 (mtp 1 64 2 1 1): got '$got'" \
  [ "$got" = "mtp 1 64 2 1 1;none 0 16 1 4 0;" ]
got=$(awk -F, '$4 == "gptoss-fp4-gb200-dynamo-trt" { print $7, $10, $11, $12, $13, $14, $15, "[" $16 "]", $21, $22 }' "$tmp/recipes.csv")
check "extract: E4 (scenarios form, no recipe: batch blank) = gb200 trtllm 1024 8192 16 none 0 [] 2 2: got '$got'" \
  [ "$got" = "gb200 trtllm 1024 8192 16 none 0 [] 2 2" ]
check "extract: a bad yaml file is one line naming it and a non-zero exit" \
  bash -c "printf 'a: [\n' >'$tmp/bad.yaml'; ! python3 tools/inferencemax/extract.py --yaml '$tmp/bad.yaml' 2>'$tmp/err' && grep -q 'bad.yaml' '$tmp/err' && [ \$(wc -l <'$tmp/err') = 1 ]"

build_bench_serving
silicon_fixture
run() { # id conc ptp pep dtp dep [pw dw]
  echo "$1,source_file=2026-03-25.csv; model=DeepSeek-R1; silicon_concurrency=$2,trtllm,,deepseek-ai/DeepSeek-R1,gb200,fp4,disagg,1024,1024,nvfp4,nvfp4,,,,,,,,${7:-},$3,1,1,1,$4,,${8:-},$5,1,1,1,$6,500,20"
}
{
  echo "$h"
  run c4 4 4 4 8 8
  run c8 8 4 4 8 8
  run c64 64 4 4 8 8
  run t36 4 36 1 36 1
  run lay 4 4 4 16 16
  run c5 5 4 4 8 8
  run given 4 4 4 8 8 1 4
} >"$S/silicon_sample.csv"
out=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes.csv" --rows "$tmp/rows.csv" 2>&1)
for want in "2  exactly one entry" "1  several entries, same worker counts" "1  several entries, different worker counts" \
            "1  no entry with the row's layout" "1  no entry for (date" "6 disaggregated runs without worker counts"; do
  check "match: '$want'" grep -q -- "$want" <<<"$out"
done
check "match: the ambiguous one differs in MTP too" grep -q "of the ambiguous: 1 where the entries differ in MTP" <<<"$out"
# --rows: set,model,system,backend,isl,osl,conc,gpus,ep,dp,phase,...; workers_unknown is column 28, a_1 (TPOT) 16
# c4's prefill worker: 1 of 4 GPUs, dp-attn (dp 4, ep 4), all 4 clients;
# its decode worker: TEP 8 (tp 8, dp 1, ep 8), 4 clients / 4 workers = 1
got=$(awk -F, 'NR > 1 && $7 == 4 && $8 == 4 && $11 == 1 { print $8, $9, $10, $28; exit }' "$tmp/rows.csv")
check "rows: c4 prefill worker = 4 GPUs ep 4 dp 4, counts from the recipe (2): got '$got'" [ "$got" = "4 4 4 2" ]
got=$(awk -F, 'NR > 1 && $11 == 2 && $28 == 2 { print $7, $8, $9, $10 }' "$tmp/rows.csv" | sort | tr '\n' ';')
# decode workers with recipe counts: c4 (1 client each), c8 (8 / 4 = 2), t36 (1)
check "rows: recipe decode workers = 1 x 8 GPUs ep 8 dp 1 (c4, t36) and 2 clients (c8): got '$got'" \
  [ "$got" = "1 8 8 1;1 8 8 1;2 8 8 1;" ]
got=$(awk -F, 'NR > 1 && $11 == 2 && $28 == 1 { n++ } END { print n + 0 }' "$tmp/rows.csv")
check "rows: 3 decode workers still unknown (c64, layout, c5): got $got" [ "$got" = 3 ]
# h226: every TensorRT-LLM prefill (context) worker runs its steps eagerly (no
# recipe's prefill section sets torch_compile_config): with --trt-eager-scope 3
# (off by default) each step pays DeepSeek-R1's 61 layers x 0.210 ms = 12.81 ms
# of host time, so every prefill row's lone-prompt step (prefill_ms, column 30)
# is 12.81 ms longer than with --trt-eager-layer-ms 0 and no decode row moves
# (column 16, TPOT); the default counts nothing.
out_e0=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes.csv" --trt-eager-layer-ms 0 \
  --rows "$tmp/rows_e0.csv" 2>&1)
out_e3=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes.csv" --trt-eager-scope 3 \
  --rows "$tmp/rows_e3.csv" 2>&1)
check "eager layers: the 7 prefill workers counted" grep -qF "aggregated DeepSeek 0, prefill workers 7, other aggregated 0" <<<"$out_e3"
check "eager layers: nothing counted at 0 ms" bash -c '! grep -qF "trt_eager_ctx" <<<"$0"' "$out_e0"
check "eager layers: nothing counted by default" bash -c '! grep -qF "trt_eager_ctx" <<<"$0"' "$out"
got=$(paste -d, "$tmp/rows_e3.csv" "$tmp/rows_e0.csv" | awk -F, -v n=50 'NR > 1 && $11 == 1 { d = $30 - $(n + 30);
  p = p ((d > 12.80 && d < 12.82) ? "+" : "x") } NR > 1 && $11 == 2 { q = q ($16 == $(n + 16) ? "=" : "x") } END { print p, q }')
check "eager layers: prefill steps + 12.81 ms, decode TPOT same: got '$got'" [ "$got" = "+++++++ =======" ]
# h187: DLP_ROWS_TRT_STEPS=1 appends the recipe file and the library's
# context step with j = 1..16 prompts on every attention-DP rank (columns
# 51-67) to the TensorRT-LLM prefill rows; every other byte is the default's.
# c4's prefill worker (dp 4, 1k prompts) reads recipe E1.  By hand: a step
# with more prompts a rank costs more, and 16 a rank at most 16 x one a rank
# (the weights are read once a step whatever its prompts: below 16 x).
# (h237's queue, on by default since the session-23 merge, is off in these
# two runs: they are the reference the --trt-ctx-sim / --trt-ctx-mv checks
# below compare against.)
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes.csv" --no-trt-ctx-mv \
  --rows "$tmp/rows_off.csv" >/dev/null 2>&1
DLP_ROWS_TRT_STEPS=1 "$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes.csv" \
  --no-trt-ctx-mv --rows "$tmp/rows_steps.csv" >/dev/null 2>&1
check "trt steps: off by default (50 columns, no trt_step)" [ "$(head -1 "$tmp/rows_off.csv" | awk -F, '{ print NF }')" = 50 ]
check "trt steps: the first 50 columns are the default's" cmp -s <(cut -d, -f1-50 "$tmp/rows_steps.csv") "$tmp/rows_off.csv"
got=$(awk -F, 'NR > 1 && $7 == 4 && $8 == 4 && $11 == 1 { print $51; exit }' "$tmp/rows_steps.csv")
check "trt steps: c4's prefill row names its recipe: got '$got'" \
  [ "$got" = "recipes/trtllm/gb200-fp4/1k1k/mtp/ctx1_gen4_tep8_batch8_eplb0_mtp3.yaml" ]
got=$(awk -F, 'NR > 1 && $7 == 4 && $8 == 4 && $11 == 1 { ok = $52 > 0; for (j = 53; j <= 67; j++) ok = ok && $j > $(j - 1);
  print ok && $67 < 16 * $52 ? "yes" : "no " $52 " " $67; exit }' "$tmp/rows_steps.csv")
check "trt steps: c4's step rises with the prompts a rank, 16 a rank < 16 x one: got '$got'" [ "$got" = yes ]
# h200: --trt-ctx-sim plays the recipe's context worker (disagg_wait.h
# trt_ctx_sim_ms) from a context-settings table (DLP_TRT_PREFILL, the form of
# tools/inferencemax/h187/trt_prefill.csv) holding E1's recipe alone: 1
# worker, tp 4 under attention DP, max_batch_size 16, max_num_tokens 16,384,
# so 4 ranks and k = min(16, 16,384 / 1,024) = 16.  Only the prefill rows
# matched to E1 move, their TTFT and its part before the slot wait (a_0, 14;
# ttft_pw_ms, 45: the played mean replaces the worker's queue term before
# anything is composed after it); every other byte of the rows is the
# default's.  By hand for c4 (4 clients, 40 requests): the first 4 arrive
# together, one on each rank (the fewest, lowest first), one step of one a
# rank (trt_step_1); each later one finds the worker idle or a step in flight,
# so it takes between a lone prompt (prefill_ms) and two steps of one a rank:
# (4 s1 + 36 pf) / 40 <= q <= (4 s1 + 36 x 2 s1) / 40.  The library's own
# term at 4 clients (a burst of 4 x 1,024 tokens in one 8,192-token step, so
# the burst step bi = ttft_burst) is tb / 10 + 0.9 (bi / 2 + pf) = 0.55 tb +
# 0.9 pf, so q = TTFT(on) - TTFT(off) + 0.55 tb + 0.9 pf (columns 14 a_0,
# 30 prefill_ms, 38 ttft_burst_ms, 52 trt_step_1).
printf 'recipe,prefill_workers,tp,attention_dp,max_batch_size,max_num_tokens,adp_config_set,disable_overlap,chunked_prefill\nrecipes/trtllm/gb200-fp4/1k1k/mtp/ctx1_gen4_tep8_batch8_eplb0_mtp3.yaml,1,4,1,16,16384,0,1,0\n' \
  >"$tmp/trt_prefill.csv"
out_sim=$(DLP_TRT_PREFILL="$tmp/trt_prefill.csv" DLP_ROWS_TRT_STEPS=1 "$tmp/bench_serving" "$tmp/data" silicon \
  --analytic-only --recipes "$tmp/recipes.csv" --trt-ctx-sim --rows "$tmp/rows_sim.csv" 2>&1)
got=$(grep -o "played request by request (--trt-ctx-sim, trt_ctx_sim_ms, h200): [0-9]* rows" <<<"$out_sim")
# c4 and t36 (E1 exactly) and c8 (E1 and E2 agree on the workers; the row carries E1's recipe): 3
check "trt ctx sim: E1's three prefill rows played: got '$got'" [ "${got##*: }" = "3 rows" ]
got=$(paste -d'|' "$tmp/rows_steps.csv" "$tmp/rows_sim.csv" | awk -F'|' '{ split($1, a, ","); split($2, b, ",");
  d = 0; for (i = 1; i <= length(a); i++) if (a[i] != b[i] && !((i == 14 || i == 45) && a[11] == 1 && a[51] ~ /ctx1_gen4_tep8_batch8/)) d++;
  n += d } END { print n + 0 }')
check "trt ctx sim: nothing moves but E1's prefill rows' TTFT: $got other fields differ" [ "$got" = 0 ]
got=$(paste -d, "$tmp/rows_steps.csv" "$tmp/rows_sim.csv" | awk -F, -v n=67 'NR > 1 && $7 == 4 && $8 == 4 && $11 == 1 {
  q = $(n + 14) - $14 + 0.55 * $38 + 0.9 * $30; lo = (4 * $52 + 36 * $30) / 40; hi = 76 * $52 / 40;
  print (q >= lo - 1e-3 && q <= hi + 1e-3 && $(n + 14) != $14) ? "yes" : "no " q " " lo " " hi; exit }')
check "trt ctx sim: c4's played mean within the hand bounds: got '$got'" [ "$got" = yes ]
# h237: --trt-ctx-mv, the same table: E1's three prefill rows move (a_0 and
# ttft_pw_ms only, every other byte the default's).  By hand for c4 (4
# clients on 4 ranks, each away ~a second on the decode side): the step
# carries m = clamp(X T(m), 1, 4) prompts, T between the lone prompt (pf) and
# one on each rank (s1), so the steady part 0.5 b + pf (b = tb: the 4
# prompts' burst is one step) becomes 0.5 max(tb, T) + max(pf, T): the TTFT
# moves by 0.9 x that difference, between 0.45 max(0, pf - tb) (T = pf) and
# 0.9 (0.5 max(tb, s1) + s1 - 0.5 tb - pf) (T = s1).
out_mv=$(DLP_TRT_PREFILL="$tmp/trt_prefill.csv" DLP_ROWS_TRT_STEPS=1 "$tmp/bench_serving" "$tmp/data" silicon \
  --analytic-only --recipes "$tmp/recipes.csv" --trt-ctx-mv --rows "$tmp/rows_mv.csv" 2>&1)
got=$(grep -o "mean-value queue under load (--trt-ctx-mv, trt_ctx_mv_ms, h237): [0-9]* rows" <<<"$out_mv")
check "trt ctx mv: E1's three prefill rows moved: got '$got'" [ "${got##*: }" = "3 rows" ]
out_mvd=$(DLP_TRT_PREFILL="$tmp/trt_prefill.csv" DLP_ROWS_TRT_STEPS=1 "$tmp/bench_serving" "$tmp/data" silicon \
  --analytic-only --recipes "$tmp/recipes.csv" --rows "$tmp/rows_mvd.csv" 2>&1)
check "trt ctx mv: on by default (the default's rows are --trt-ctx-mv's)" cmp -s "$tmp/rows_mv.csv" "$tmp/rows_mvd.csv"
got=$(paste -d'|' "$tmp/rows_steps.csv" "$tmp/rows_mv.csv" | awk -F'|' '{ split($1, a, ","); split($2, b, ",");
  d = 0; for (i = 1; i <= length(a); i++) if (a[i] != b[i] && !((i == 14 || i == 45) && a[11] == 1 && a[51] ~ /ctx1_gen4_tep8_batch8/)) d++;
  n += d } END { print n + 0 }')
check "trt ctx mv: nothing moves but E1's prefill rows' TTFT: $got other fields differ" [ "$got" = 0 ]
got=$(paste -d, "$tmp/rows_steps.csv" "$tmp/rows_mv.csv" | awk -F, -v n=67 'NR > 1 && $7 == 4 && $8 == 4 && $11 == 1 {
  dq = $(n + 14) - $14; tb = $38; pf = $30; s1 = $52; lo = 0.45 * (pf > tb ? pf - tb : 0);
  hi = 0.9 * (0.5 * (tb > s1 ? tb : s1) + s1 - 0.5 * tb - pf);
  print (dq >= lo - 1e-3 && dq <= hi + 1e-3) ? "yes" : "no " dq " " lo " " hi; exit }')
check "trt ctx mv: c4's TTFT moves within the hand bounds: got '$got'" [ "$got" = yes ]
# MTP: the two exactly-one rows (c4, t36) run K = 3 at A(3) = 0.708 + 0.708^2 +
# 0.708^3 = 0.708 + 0.501264 + 0.354894912 = 1.564158912; c8 (MTP unknown) is scored plain.  The CLI with the same
# workload must give the bench's TPOT for c4.
a=$(awk -F, 'NR > 1 && $11 == 2 && $28 == 2 && $7 == 1 { print $16; exit }' "$tmp/rows.csv")
cli=$("$BUILD/dlperf" llm --model deepseek-ai/DeepSeek-R1 --device gb200 --concurrency 1 --max-seqs 1 --prompt 1024 \
  --gen 1024 --gpus 8 --ep 8 --phase decode --dtype nvfp4 --kv-dtype fp8 --engine trtllm --mtp 3 --mtp-accepted 1.564158912 \
  --json | python3 -c 'import json,sys; print("%.6g" % json.load(sys.stdin)["serving"]["tpot_ms"])')
check "MTP: c4's decode TPOT = the CLI's with --mtp 3 --mtp-accepted 1.564158912: bench $a, CLI $cli" [ "$a" = "$cli" ]
check "MTP: 2 decode rows scored with K drafts" grep -q "MTP K drafts at A(K) = p + ... + p^K, p 0.708: [0-9.]* % (2)" <<<"$out"
check "MTP: 1 decode row with MTP unknown" grep -q "MTP unknown (entries differ, or K not in the recipe name; scored plain) [0-9.]* % (1)" <<<"$out"
# h142: a run the dump date's yaml leaves unsettled is matched against the yaml
# in force on its own measured= date.  Table 2 = the table above plus E1's conc-4
# row re-dated 2026-02-14 with conc 5 (as if that older yaml listed conc 5).
# Runs (blank counts, dumped 2026-03-25): m5 conc 5 measured 2026-02-14 -> no key
# on 03-25, E1' on 02-14: exactly one, settled by the measured date; m9 conc 5
# measured 2026-02-15 (no table rows that date) -> still no key; c5 (no measured=)
# -> no key.  So: exactly one 1 (m5), no key 2; settled 1 (were no key 1); the
# DLP_RECIPE_MISSES listing has 2 'nokey' lines (m9, c5) and nothing else.
{
  cat "$tmp/recipes.csv"
  awk -F, -v OFS=, '$13 == 4 && $14 == "mtp" { $1 = "2026-02-14"; $13 = 5; print }' "$tmp/recipes.csv"
} >"$tmp/recipes2.csv"
{
  echo "$h"
  run m5 "5; measured=2026-02-14T01:02:03Z" 4 4 8 8
  run m9 "5; measured=2026-02-15T01:02:03Z" 4 4 8 8
  run c5 5 4 4 8 8
} >"$S/silicon_sample.csv"
out3=$(DLP_RECIPE_MISSES=1 "$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes2.csv" 2>"$tmp/miss")
for want in "1  exactly one entry" "2  no entry for (date" "3 disaggregated runs without worker counts" \
            "measured= date (h142): 1 (one entry 1, same workers 0; were ambiguous 0, no layout 0, no key 1 "; do
  check "measured date: '$want'" grep -qF -- "$want" <<<"$out3"
done
got=$(grep -c "^recipe-miss	nokey	" "$tmp/miss"; grep -c "^recipe-miss" "$tmp/miss")
check "DLP_RECIPE_MISSES: 2 nokey lines of 2: got '$(echo $got)'" [ "$(echo $got)" = "2 2" ]
# h162: the entries re-keyed on their srt-slurm recipe's benchmark clients (the
# srt-slurm runners run `srtctl apply -f "$CONFIG_FILE"`, so a run's clients are
# the recipe's benchmark.concurrencies).  A checkout on disk holds E1's recipe
# (concurrencies "12x20x64") and E2's ("20"); E3's is absent.  extract.py
# --srt-slurm: E1 -> 12, 20, 64 (once each, though E1 has two conc-list rows),
# E2 -> 20: 4 rows, no header, commit "srt-slurm@disk".  Table 3 = table 1 (dated
# 03-25) + the yaml dated 2026-02-14 + those 4 rows dated 2026-02-14.  Runs
# (dumped 03-25, layout 4/4 8/8): s12 measured 02-14 -> no key on either yaml
# date; re-keyed: E1 only -> exactly one (K 3), settled; s20 measured 02-14 ->
# E1 and E2 re-keyed, the same workers -> settled; s64 measured 02-14 ->
# ambiguous on both dates (E2, E3); re-keyed: E1 only, but E3 lists 64 on 02-14
# with the layout and its recipe was not read -> left open, ambiguous; n12 (no
# measured=) -> no key.  So: one 1, same 1, ambiguous 1, no key 1; settled 2
# (one 1, same 1; were no key 2), left open 1.  s12's decode worker: 12 / 4
# workers = 3 clients, 8 GPUs, ep 8, dp 1, counts from the recipe.
# h166 moves s64 (below): E2's recipe, read on its measured date, benchmarks 20
# clients, not 64, so E2 is set aside on both yaml dates; E3 alone then fits on
# 03-25, but the re-keyed E1 (64, the same layout) says 1 prefill + 4 decode
# workers against E3's 2 + 1 -> ambiguous (not "left open"); the classes stay.
# DLP_RECIPE_LABEL_AS_IS=1 gives h162's reading (left open 1).
mkdir -p "$tmp/srt/recipes/trtllm/gb200-fp4/1k1k/mtp" "$tmp/srt/recipes/trtllm/gb200-fp4/1k1k/stp"
printf 'name: e1\nbenchmark:\n  type: sa-bench\n  concurrencies: "12x20x64"\n' \
  >"$tmp/srt/recipes/trtllm/gb200-fp4/1k1k/mtp/ctx1_gen4_tep8_batch8_eplb0_mtp3.yaml"
printf 'name: e2\nbenchmark:\n  concurrencies: 20\n' \
  >"$tmp/srt/recipes/trtllm/gb200-fp4/1k1k/stp/ctx1_gen4_tep8_batch16_eplb0_mtp0.yaml"
python3 tools/inferencemax/extract.py --yaml "$tmp/master.yaml" --date 2026-02-14 --srt-slurm "$tmp/srt" >"$tmp/srt.csv" ||
  { echo "FAIL extract.py --srt-slurm on the fixture"; exit 1; }
got=$(awk -F, '{ print $1, $2, $13, $14, $21 }' "$tmp/srt.csv" | sort -k3n -k4 | tr '\n' ';')
check "srt-slurm: 4 rows 12/mtp, 20/mtp, 20/none, 64/mtp, 4 decode workers each: got '$got'" [ "$got" = \
  "2026-02-14 srt-slurm@disk 12 mtp 4;2026-02-14 srt-slurm@disk 20 mtp 4;2026-02-14 srt-slurm@disk 20 none 4;2026-02-14 srt-slurm@disk 64 mtp 4;" ]
{
  cat "$tmp/recipes.csv"
  python3 tools/inferencemax/extract.py --yaml "$tmp/master.yaml" --date 2026-02-14 | tail -n +2
  cat "$tmp/srt.csv"
} >"$tmp/recipes3.csv"
{
  echo "$h"
  run s12 "12; measured=2026-02-14T01:02:03Z" 4 4 8 8
  run s20 "20; measured=2026-02-14T01:02:03Z" 4 4 8 8
  run s64 "64; measured=2026-02-14T01:02:03Z" 4 4 8 8
  run n12 12 4 4 8 8
} >"$S/silicon_sample.csv"
out7=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes3.csv" --rows "$tmp/rows7.csv" 2>&1)
for want in "1  exactly one entry" "1  several entries, same worker counts" "1  several entries, different worker counts" \
            "1  no entry for (date" "4 disaggregated runs without worker counts" \
            "benchmark clients, measured= date (h162): 2 (one entry 1, same workers 1; were ambiguous 0, no layout 0, no key 2)" \
            "on the measured= date (h166): 1; then settled by another yaml entry 0, by the srt-slurm look 0, by a db-dump twin 0, unknown 1 (of which 1: the srt look that day fits other workers)"; do
  check "srt-slurm match: '$want'" grep -qF -- "$want" <<<"$out7"
done
out7=$(DLP_RECIPE_LABEL_AS_IS=1 "$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes3.csv" 2>&1)
check "srt-slurm match, DLP_RECIPE_LABEL_AS_IS=1: left open 1" grep -qF "left open: 1 whose measured date's yaml" <<<"$out7"
# h166: a run paired by its label with entries whose recipe benchmarks other
# clients that day.  Table 3 again; s8: 8 clients measured 02-14, layout 4/4
# 8/8.  By label E1 (conc-list 4, 8) and E2 (8, 64) list 8 on both yaml dates,
# the same workers (1 x tp4 prefill, 4 x tp8 decode): h162 settles it ("same
# workers", MTP unknown).  But E1's recipe benchmarks 12, 20, 64 and E2's 20
# (read on 02-14): neither ran 8 clients, both are set aside on 03-25 and 02-14
# (4 listing lines), no re-keyed row has 8 -> no key, unknown.  With s64 (1
# listing line, 03-25's E2; the guard returns on the dump date): 2 runs, 5 lines.
{
  echo "$h"
  run s8 "8; measured=2026-02-14T01:02:03Z" 4 4 8 8
  run s64 "64; measured=2026-02-14T01:02:03Z" 4 4 8 8
} >"$S/silicon_sample.csv"
out9=$(DLP_RECIPE_MISSES=1 "$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes3.csv" --rows "$tmp/rows9.csv" 2>"$tmp/miss9")
for want in "2 disaggregated runs without worker counts" "1  several entries, different worker counts" \
            "1  no entry for (date" \
            "(h166): 2; then settled by another yaml entry 0, by the srt-slurm look 0, by a db-dump twin 0, unknown 2 (of which 1:"; do
  check "label set aside: '$want'" grep -qF -- "$want" <<<"$out9"
done
got=$(grep -c "^recipe-label-off	" "$tmp/miss9"; grep -c "^recipe-label-off	entry 2026-02-14	.*clients 8" "$tmp/miss9")
check "label set aside: 5 listing lines, 2 of them s8 on 02-14: got '$(echo $got)'" [ "$(echo $got)" = "5 2" ]
got=$(awk -F, 'NR > 1 && $11 == 2 { print $28 }' "$tmp/rows9.csv" | sort | tr '\n' ' ')
check "label set aside: both decode rows scored with counts unknown: got '$got'" [ "$got" = "1 1 " ]
out9=$(DLP_RECIPE_LABEL_AS_IS=1 "$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes3.csv" 2>&1)
check "label set aside, DLP_RECIPE_LABEL_AS_IS=1: s8 settled by E1 and E2 (same workers)" \
  grep -qF "1  several entries, same worker counts" <<<"$out9"
got=$(awk -F, 'NR > 1 && $11 == 2 && $28 == 2 { print $7, $8, $9, $10 }' "$tmp/rows7.csv" | sort -n | tr '\n' ';')
check "srt-slurm rows: recipe decode workers s12 (3 clients) and s20 (5) on 8 GPUs ep 8 dp 1: got '$got'" \
  [ "$got" = "3 8 8 1;5 8 8 1;" ]
# h162: a runner group "<gpu>-multinode-slurm" reaches the table as "<gpu>-slurm"
# (extract.py drops "-multinode" only); the bench reads it as the GPU.  Table 4 =
# E1's conc-4 row alone with gpu gb200-slurm; run c4 (4/4 8/8) -> exactly one;
# with DLP_RECIPE_SLURM_AS_IS=1 (the h142 reading) -> no key.
{
  head -1 "$tmp/recipes.csv"
  awk -F, -v OFS=, '$13 == 4 && $14 == "mtp" { $7 = "gb200-slurm"; print }' "$tmp/recipes.csv"
} >"$tmp/recipes4.csv"
{
  echo "$h"
  run c4 4 4 4 8 8
} >"$S/silicon_sample.csv"
out8=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes4.csv" 2>&1)
check "-slurm runner: read as its GPU, exactly one" grep -qF "1  exactly one entry" <<<"$out8"
out8=$(DLP_RECIPE_SLURM_AS_IS=1 "$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes4.csv" 2>&1)
check "-slurm runner: DLP_RECIPE_SLURM_AS_IS=1, no key" grep -qF "1  no entry for (date" <<<"$out8"
# h170: srt-slurm recipes read on their own (--srt-recipes: no InferenceX entry
# names them).  One merged TensorRT-LLM recipe on disk: 1 prefill worker (TP 4,
# EP 4, attention DP), 4 decode workers (TP 8, EP 8), max_batch_size 128,
# concurrencies "4 180" (spaces), header "batch1(4), batch32(180)" -> 2 rows,
# commit srt-slurm@disk, key glm5-fp4-gb200-dynamo-trt (prefix glm5), decode
# batch 1 at 4 clients and 32 at 180 (the header's, not the file's 128).
mkdir -p "$tmp/srt2/recipes/G/stp"
cat >"$tmp/srt2/recipes/G/stp/ctx1dep4_gen4tep8_batch128_allconc_eplb0_mtp0.yaml" <<'YAML'
name: "g"
# Merged concurrencies: batch1(4), batch32(180)
model: {path: "/m/GLM-5-NVFP4", precision: "fp4"}
resources: {gpu_type: "gb200", prefill_workers: 1, gpus_per_prefill: 4, decode_workers: 4, gpus_per_decode: 8}
backend:
  type: trtllm
  trtllm_config:
    prefill: {tensor_parallel_size: 4, moe_expert_parallel_size: 4, enable_attention_dp: true, max_batch_size: 16}
    decode: {tensor_parallel_size: 8, moe_expert_parallel_size: 8, enable_attention_dp: false, max_batch_size: 128}
benchmark: {type: "sa-bench", isl: 1024, osl: 1024, concurrencies: "4 180"}
frontend: {type: "dynamo"}
YAML
got=$(python3 tools/inferencemax/extract.py --srt-slurm "$tmp/srt2" --srt-recipes recipes/G --date 2026-04-02 \
  --key glm5-fp4-gb200-dynamo-trt | awk -F, '{ print $1, $2, $4, $5, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24 }' |
  tr '\n' ';')
check "srt-recipes: 2 rows, batch 1 at 4 clients and 32 at 180: got '$got'" [ "$got" = \
"2026-04-02 srt-slurm@disk glm5-fp4-gb200-dynamo-trt glm5 gb200 fp4 dynamo-trt trtllm 1024 1024 4 none 0 1 1 4 4 1 4 8 8 0;\
2026-04-02 srt-slurm@disk glm5-fp4-gb200-dynamo-trt glm5 gb200 fp4 dynamo-trt trtllm 1024 1024 180 none 0 32 1 4 4 1 4 8 8 0;" ]
# h170: dynamo's TensorRT-LLM sweep script runs each conc-list value x the
# decode workers (--dynamo-sweeps).  The fixture yaml dated 2026-02-14: E1 4, 8
# (4 decode workers) -> 16, 32; E2 8, 64 (4) -> 32, 256; E3 64 (1) -> 64; E4 16
# (2) -> 32: 6 rows, commit "dynamo-sweeps@" (the yaml on disk has no commit).
python3 tools/inferencemax/extract.py --yaml "$tmp/master.yaml" --date 2026-02-14 --dynamo-sweeps >"$tmp/sweep.csv"
got=$(awk -F, '{ print $13 }' "$tmp/sweep.csv" | sort -n | tr '\n' ' '; awk -F, '{ print $2 }' "$tmp/sweep.csv" | sort -u)
check "dynamo-sweeps: 16 32 32 32 64 256, commit dynamo-sweeps@: got '$got'" [ "$got" = "16 32 32 32 64 256 dynamo-sweeps@" ]
# h170: --srt-branch-at REV.  A git srt-slurm whose first commit (2026-02-01)
# holds E2's recipe ("20") and whose second (2026-02-20) adds E1's
# ("12x20x64") and changes E2's to "24": on 2026-02-14 E1's recipe is absent
# and E2's lists 20, so at the second commit the rows that differ are E1's 12,
# 20, 64 (mtp) and E2's 24 (none), 4 decode workers each, commit
# srt-slurm@<second commit>; E2's 20 (the date's own reading) is not repeated.
g="$tmp/srtgit"
mkdir -p "$g/recipes/trtllm/gb200-fp4/1k1k/mtp" "$g/recipes/trtllm/gb200-fp4/1k1k/stp"
cp "$tmp/srt/recipes/trtllm/gb200-fp4/1k1k/stp/ctx1_gen4_tep8_batch16_eplb0_mtp0.yaml" "$g/recipes/trtllm/gb200-fp4/1k1k/stp/"
gq() { git -C "$g" -c user.name=t -c user.email=t@t "$@" >/dev/null 2>&1; }
gq init -q && gq add -A && GIT_COMMITTER_DATE="2026-02-01T00:00:00Z" GIT_AUTHOR_DATE="2026-02-01T00:00:00Z" gq commit -qm one
cp "$tmp/srt/recipes/trtllm/gb200-fp4/1k1k/mtp/ctx1_gen4_tep8_batch8_eplb0_mtp3.yaml" "$g/recipes/trtllm/gb200-fp4/1k1k/mtp/"
printf 'name: e2\nbenchmark:\n  concurrencies: 24\n' >"$g/recipes/trtllm/gb200-fp4/1k1k/stp/ctx1_gen4_tep8_batch16_eplb0_mtp0.yaml"
gq add -A && GIT_COMMITTER_DATE="2026-02-20T00:00:00Z" GIT_AUTHOR_DATE="2026-02-20T00:00:00Z" gq commit -qm two
c2=$(git -C "$g" rev-parse HEAD)
got=$(python3 tools/inferencemax/extract.py --yaml "$tmp/master.yaml" --date 2026-02-14 --srt-slurm "$g/.git" \
  --srt-branch-at "$c2" | awk -F, '{ print $2, $13, $14, $21 }' | sort -k2n -k3 | tr '\n' ';')
check "srt-branch-at: E1 12 20 64 (absent on the date) and E2 24 (changed), at the later commit: got '$got'" [ "$got" = \
  "srt-slurm@${c2:0:12} 12 mtp 4;srt-slurm@${c2:0:12} 20 mtp 4;srt-slurm@${c2:0:12} 24 none 4;srt-slurm@${c2:0:12} 64 mtp 4;" ]
# The bench: table 5 = table 1 (03-25) + the yaml dated 02-14 + the sweep rows.
# Runs dumped 03-25, layout 4/4 8/8, measured 02-14: w32 -> no key on either
# yaml date; swept: E1 x 4 and E2 x 4, the same workers -> settled (same);
# w64 -> ambiguous on both dates (E2, E3); swept: E3 x 1 only -> one, and not
# left open on E2's label 64 (every entry of the key that day was swept);
# w256 -> no key; swept: E2 x 4 -> one.  Settled 3: one 2, same 1; were
# ambiguous 1, no key 2.  w64's decode worker: E3's 1 worker, attention DP 8:
# 64 clients on 8 GPUs, ep 8, dp 8.
{
  cat "$tmp/recipes.csv"
  python3 tools/inferencemax/extract.py --yaml "$tmp/master.yaml" --date 2026-02-14 | tail -n +2
  cat "$tmp/sweep.csv"
} >"$tmp/recipes5.csv"
{
  echo "$h"
  run w32 "32; measured=2026-02-14T01:02:03Z" 4 4 8 8
  run w64 "64; measured=2026-02-14T01:02:03Z" 4 4 8 8
  run w256 "256; measured=2026-02-14T01:02:03Z" 4 4 8 8
} >"$S/silicon_sample.csv"
out9=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes5.csv" --rows "$tmp/rows9.csv" 2>&1)
check "dynamo-sweeps match: 3 settled (one 2, same 1; were ambiguous 1, no key 2)" grep -qF -- \
  "benchmark clients, measured= date (h162): 3 (one entry 2, same workers 1; were ambiguous 1, no layout 0, no key 2)" <<<"$out9"
got=$(awk -F, 'NR > 1 && $11 == 2 && $28 == 2 && $7 == 64 { print $7, $8, $9, $10 }' "$tmp/rows9.csv")
check "dynamo-sweeps rows: w64's decode worker = 64 clients, 8 GPUs, ep 8, dp 8: got '$got'" [ "$got" = "64 8 8 8" ]
# --recipes none: nothing matched, the old reading
out2=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none 2>&1)
check "--recipes none: no recipe block" bash -c "! grep -q 'InferenceMAX recipes' <<<\"\$1\"" _ "$out2"
# a --recipes file that is not there: one line naming it, non-zero exit
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/nope.csv" >"$tmp/o" 2>"$tmp/e"
rc=$?
check "--recipes missing file: exit $rc, names it" bash -c "[ $rc != 0 ] && grep -q nope.csv '$tmp/e'"

# vLLM's expert-parallel rows (docs/llm.md, "vLLM's expert-parallel rows read
# as the GPUs they ran on"): the dumps write InferenceMAX's vLLM {tp: T, ep: T}
# as tp = attention_dp = T, moe_ep T x T; the bench reads T GPUs, TP T, EP T,
# or attention DP T (TP 1) where the yaml of the run's date set dp-attn.
# Fixture, worked by hand: minimaxm2.5-fp4-b200-vllm, 1024 / 1024:
#   V1 {tp 2, ep 2, conc 128..256}         -> conc 128, 256, dp-attn 0
#   V2 {tp 2, ep 2, dp-attn, conc 256..1000} -> 256, 512, 1000 (clamped), dp-attn 1
#   V3 {tp 4, conc 4..8} (no ep)            -> no rows
#   => 5 table rows.  Runs (tp 2, adp 2, moe_ep 4, measured 2026-04-22):
#   conc 128 -> V1 only: TP (2 GPUs, ep 2, dp 1); 512 -> V2 only: dp-attn (2 GPUs,
#   ep 2, dp 2); 256 -> V1 and V2 disagree: TP; 64 -> no entry: TP.
cat >"$tmp/vllm.yaml" <<'YAML'
minimaxm2.5-fp4-b200-vllm:
  model: nvidia/MiniMax-M2.5-NVFP4
  model-prefix: minimaxm2.5
  runner: b200
  precision: fp4
  framework: vllm
  multinode: false
  scenarios:
    fixed-seq-len:
    - isl: 1024
      osl: 1024
      search-space:
      - { tp: 2, ep: 2, conc-start: 128, conc-end: 256 }
      - { tp: 2, ep: 2, dp-attn: true, conc-start: 256, conc-end: 1000 }
      - { tp: 4, conc-start: 4, conc-end: 8 }
YAML
python3 tools/inferencemax/vllm_ep.py --yaml "$tmp/vllm.yaml" --date 2026-04-22 >"$tmp/vllm_ep.csv" ||
  { echo "FAIL vllm_ep.py on the fixture"; exit 1; }
got=$(awk -F, 'NR > 1 { print $11 ":" $10 }' "$tmp/vllm_ep.csv" | tr '\n' ' ')
check "vllm_ep: 128:0 256:0 256:1 512:1 1000:1: got '$got'" [ "$got" = "128:0 256:0 256:1 512:1 1000:1 " ]
vrun() { # conc
  echo "v$1,source_file=2026-04-27.csv; measured=2026-04-22T00:00:00.000Z; silicon_concurrency=$1,vllm,0.19.0,MiniMaxAI/MiniMax-M2.5,b200_sxm,fp4,agg,1024,1024,nvfp4,nvfp4,$(($1 / 2)),2,1,2,1,4,,,,,,,,,,,,,,,100,20"
}
{
  echo "$h"
  for c in 128 512 256 64; do vrun $c; done
} >"$S/silicon_sample.csv"
out4=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --vllm-ep "$tmp/vllm_ep.csv" --rows "$tmp/rows4.csv" 2>&1)
check "vllm_ep: counts dp-attn 1, TP 1, disagree 1, no entry 1" \
  grep -qF "dp-attn 1, TP 1, entries disagree 1, no entry 1" <<<"$out4"
got=$(awk -F, 'NR > 1 { print $7 ":" $8 "/" $9 "/" $10 }' "$tmp/rows4.csv" | sort -n | tr '\n' ' ')
check "vllm_ep: rows conc:gpus/ep/dp = 64:2/2/1 128:2/2/1 256:2/2/1 512:2/2/2: got '$got'" \
  [ "$got" = "64:2/2/1 128:2/2/1 256:2/2/1 512:2/2/2 " ]
out5=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --vllm-ep none --rows "$tmp/rows5.csv" 2>&1)
got=$(awk -F, 'NR > 1 { print $7 ":" $8 "/" $9 "/" $10 }' "$tmp/rows5.csv" | sort -n | tr '\n' ' ')
check "--vllm-ep none: all TP on 2 GPUs: got '$got'" [ "$got" = "64:2/2/1 128:2/2/1 256:2/2/1 512:2/2/1 " ]

# h209: vLLM scripts that set expert parallelism for every entry (docs/llm.md,
# "vLLM runs whose script set expert parallelism for every entry").  Fixture
# scripts, worked by hand: A tests `if [ "$EP_SIZE" -ge 1 ]` (InferenceX's
# minimaxm2.5_fp8_b200.sh, 2026-03-11 .. 04-03), passes no KV dtype and
# --max-num-batched-tokens "$((ISL * 2 ))" -> ep_always 1, kv_fp8 0, mnbt 0,
# mnbt_isl 2; B tests `-gt 1`, passes --kv-cache-dtype fp8 and
# --max-num-batched-tokens 8192 -> 0, 1, 8192, 0; C serves SGLang -> no row.
cat >"$tmp/minimaxm2.5_fp8_b200.sh" <<'SH'
if [ "$EP_SIZE" -ge 1 ]; then
  EP=" --enable-expert-parallel"
else
  EP=" "
fi
vllm serve $MODEL --tensor-parallel-size=$TP $EP --block-size=32 \
--max-num-batched-tokens "$((ISL * 2 ))" --stream-interval 20
SH
cat >"$tmp/minimaxm2.5_fp8_b300.sh" <<'SH'
if [ "$EP_SIZE" -gt 1 ]; then
  EP=" --enable-expert-parallel"
fi
vllm serve $MODEL --tensor-parallel-size=$TP $EP --kv-cache-dtype fp8 --max-num-batched-tokens 8192
SH
printf 'python3 -m sglang.launch_server --model $MODEL --tp $TP\n' >"$tmp/dsr1_fp8_b200.sh"
got=""
for f in minimaxm2.5_fp8_b200 minimaxm2.5_fp8_b300 dsr1_fp8_b200; do
  got="$got$(python3 tools/inferencemax/vllm_scripts.py --script "$tmp/$f.sh" --name "$f.sh" --date 2026-03-28 |
    awk -F, 'NR > 1 { print $4 "/" $5 "/" $6 ":" $7 $8 "/" $9 "/" $10 }') "
done
check "vllm_scripts: A 10/0/2, B 01/8192/0, C none: got '$got'" \
  [ "$got" = "minimaxm2.5/fp8/b200:10/0/2 minimaxm2.5/fp8/b300:01/8192/0  " ]
# The bench: a table with A on 2026-03-28; MiniMax-M2.5 fp8 B200 vLLM rows
# recorded TP 2, ep 1: measured 03-28 at 16 clients -> 2 GPUs, ep 2; measured
# 04-03 (no entry that day) at 32 -> ep 1; TP 4 on 03-28 at 8 -> 4 GPUs, ep 4;
# the two 03-28 rows take A's budget (2 x 1,024); --vllm-scripts none -> every
# row ep 1.
python3 tools/inferencemax/vllm_scripts.py --script "$tmp/minimaxm2.5_fp8_b200.sh" \
  --name benchmarks/single_node/minimaxm2.5_fp8_b200.sh --date 2026-03-28 >"$tmp/vllm_scripts.csv"
mrun() { # conc tp measured
  echo "m$1,source_file=2026-04-06.csv; measured=$3T00:00:00.000Z; silicon_concurrency=$1,vllm,0.17.0,MiniMaxAI/MiniMax-M2.5,b200_sxm,fp8,agg,1024,1024,fp8,fp8,$1,$2,1,1,$2,1,,,,,,,,,,,,,,,100,20"
}
{
  echo "$h"
  mrun 16 2 2026-03-28
  mrun 32 2 2026-04-03
  mrun 8 4 2026-03-28
} >"$S/silicon_sample.csv"
out6=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --vllm-scripts "$tmp/vllm_scripts.csv" \
  --rows "$tmp/rows6.csv" 2>&1)
check "vllm_scripts: two rows read as EP = TP, two budgets" \
  grep -qF "read as EP = TP: 2; its --max-num-batched-tokens as the step's budget: 2" <<<"$out6"
got=$(awk -F, 'NR > 1 { print $7 ":" $8 "/" $9 }' "$tmp/rows6.csv" | sort -n | tr '\n' ' ')
check "vllm_scripts: conc:gpus/ep = 8:4/4 16:2/2 32:2/1: got '$got'" [ "$got" = "8:4/4 16:2/2 32:2/1 " ]
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --vllm-scripts none --rows "$tmp/rows6n.csv" >/dev/null 2>&1
got=$(awk -F, 'NR > 1 { print $7 ":" $8 "/" $9 }' "$tmp/rows6n.csv" | sort -n | tr '\n' ' ')
check "--vllm-scripts none: every row ep 1: got '$got'" [ "$got" = "8:4/1 16:2/1 32:2/1 " ]

# h224: the largest size a script's vLLM captures a CUDA graph for (cg_max),
# worked by hand: D passes --max-cudagraph-capture-size 2048 -> 2048; E
# writes it as a config.yaml key -> 2048; F sets --max-num-seqs 64 and no
# size -> min(2 x 64, 512) = 128; A sets neither -> 0 (vLLM's default, 512).
printf 'vllm serve $MODEL --tensor-parallel-size=$TP --max-cudagraph-capture-size 2048\n' >"$tmp/minimaxm2.5_fp4_b200.sh"
printf 'cat > config.yaml << EOF\nmax-cudagraph-capture-size: 2048\nEOF\nvllm serve $MODEL --config config.yaml\n' \
  >"$tmp/gptoss_fp4_b200.sh"
printf 'vllm serve $MODEL --max-num-seqs 64\n' >"$tmp/kimik2.5_int4_h200.sh"
got=""
for f in minimaxm2.5_fp4_b200 gptoss_fp4_b200 kimik2.5_int4_h200 minimaxm2.5_fp8_b200; do
  got="$got$(python3 tools/inferencemax/vllm_scripts.py --script "$tmp/$f.sh" --name "$f.sh" | awk -F, 'NR > 1 { print $11 }') "
done
check "vllm_scripts cg_max: D 2048, E 2048, F 128, A 0: got '$got'" [ "$got" = "2048 2048 128 0 " ]
check "vllm_scripts: the two 03-28 rows' 1,024-token prompt steps past A's 512 captured tokens, none within" \
  grep -qF "un-graphed at 0.210 ms a layer, 2; within, 0" <<<"$out6"
# One client (TP 2, 03-28, A's script): every step but the prompt's decodes
# alone, so the prompt step's host time is the TTFT's whole difference:
# MiniMax-M2.5's 62 layers x 0.210 ms = 13.02 ms (--vllm-ungraphed-ms 0:
# none).
{
  echo "$h"
  mrun 1 2 2026-03-28
} >"$S/silicon_sample.csv"
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --vllm-scripts "$tmp/vllm_scripts.csv" \
  --rows "$tmp/rows7.csv" >/dev/null 2>&1
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --vllm-scripts "$tmp/vllm_scripts.csv" \
  --vllm-ungraphed-ms 0 --rows "$tmp/rows7n.csv" >/dev/null 2>&1
got=$(paste -d, <(cut -d, -f14 "$tmp/rows7.csv") <(cut -d, -f14 "$tmp/rows7n.csv") | awk -F, 'NR == 2 { printf "%.2f", $1 - $2 }')
check "vllm_ungraphed: one client's TTFT + 62 x 0.210 = 13.02 ms: got '$got'" [ "$got" = "13.02" ]

# The runs whose clients the row does not give: InferenceX's H100 gpt-oss vLLM
# script ran --max-concurrency 512 against --max-num-seqs=$CONC from 2025-11-21
# to 12-08 (d22bf9ca9 .. 4e135fd3f).  A 512-client gpt-oss H100 vLLM row measured
# 2025-12-05 is refused with that reason; the same measured 2025-12-09 (after the
# fix) and one at 64 clients on 12-05 are scored.
grun() { # id conc measured
  echo "$1,source_file=2026-04-06.csv; model=GPT-OSS-120B; silicon_concurrency=$2; measured=$3T00:00:00.000Z,vllm,0.11.2,openai/gpt-oss-120b,h100_sxm,fp4,agg,1024,1024,nvfp4,nvfp4,$2,2,1,1,2,1,,,,,,,,,,,,,,,1000,10"
}
{
  echo "$h"
  grun g1 512 2025-12-05
  grun g2 512 2025-12-09
  grun g3 64 2025-12-05
} >"$S/silicon_sample.csv"
out6=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --rows "$tmp/rows6.csv" 2>&1)
check "clients not recorded: 1 refused with the reason" grep -q "^ *1  the run's clients are not in the row" <<<"$out6"
got=$(awk -F, 'NR > 1 { print $7 }' "$tmp/rows6.csv" | sort -n | tr '\n' ' ')
check "clients not recorded: the other two scored (64, 512): got '$got'" [ "$got" = "64 512 " ]

# SGLang's --scheduler-recv-interval (docs/llm.md, "SGLang's scheduler receive
# interval (h159)"): recv_interval.py on a script written here in the form of
# InferenceX's dsr1_fp8_b200.sh (a rule on TP and CONC inside the TP branches,
# other settings beside it, a branch left empty by the filter, an exit) and one
# passing a number.  By hand, for every sequence-length pair (so isl = osl = 0):
#   TP 8: CONC 1-8 -> 10, 16-1024 -> 30;  TP 4 -> 10 at every CONC;
#   TP 1 and 2: the script exits (unsupported) -> 0, unresolved.
#   A script passing "--scheduler-recv-interval 10": 10 everywhere.
#   A vLLM script with the flag's name in a comment: not listed.
cat >"$tmp/dsr1_fp8_b200.sh" <<'SH'
#!/usr/bin/env bash
source "$(dirname "$0")/../benchmark_lib.sh"
# Default: recv every ~10 requests; if CONC >= 16, relax to ~30
if [[ $TP -eq 8 ]]; then
  if [[ $CONC -ge 16 ]]; then
    SCHEDULER_RECV_INTERVAL=30
  else
    SCHEDULER_RECV_INTERVAL=10
  fi
  MAX_RUNNING_REQUESTS=128
elif [[ $TP -eq 4 ]]; then
  if [[ $ISL -ne 8192 ]]; then
    echo "not yet"
  fi
  SCHEDULER_RECV_INTERVAL=10
else
  echo "Unrecognized TP size $TP!"
  exit 1
fi
python3 -m sglang.launch_server --model-path $MODEL --tensor-parallel-size=$TP \
--scheduler-recv-interval $SCHEDULER_RECV_INTERVAL --disable-radix-cache
SH
python3 tools/inferencemax/recv_interval.py --script "$tmp/dsr1_fp8_b200.sh" --date 2026-03-25 >"$tmp/rcv.csv" ||
  { echo "FAIL recv_interval.py on the fixture"; exit 1; }
got=$(awk -F, 'NR > 1 { print $8 "/" $9 ":tp" $10 ":" $11 "-" $12 "=" $13 }' "$tmp/rcv.csv" | tr '\n' ' ')
check "recv_interval: the TP / CONC rule: got '$got'" \
  [ "$got" = "0/0:tp1:1-1024=0 0/0:tp2:1-1024=0 0/0:tp4:1-1024=10 0/0:tp8:1-8=10 0/0:tp8:16-1024=30 " ]
got=$(awk -F, 'NR == 2 { print $3 "," $4 "," $5 "," $6 "," $7 }' "$tmp/rcv.csv")
check "recv_interval: the script's name gives dsr1, fp8, b200, no MTP: got '$got'" \
  [ "$got" = "dsr1_fp8_b200.sh,dsr1,fp8,b200,0" ]
printf 'python3 -m sglang.launch_server --stream-interval 30 \\\n--scheduler-recv-interval 10 \\\n--tp 8\n' \
  >"$tmp/glm5_fp4_b300.sh"
got=$(python3 tools/inferencemax/recv_interval.py --script "$tmp/glm5_fp4_b300.sh" | awk -F, 'NR > 1 { print $13 }' | sort -u)
check "recv_interval: a number passed as it is: got '$got'" [ "$got" = "10" ]
printf '# --scheduler-recv-interval 30 is SGLang'"'"'s\nvllm serve $MODEL --tp 8\n' >"$tmp/gptoss_fp4_b200.sh"
got=$(python3 tools/inferencemax/recv_interval.py --script "$tmp/gptoss_fp4_b200.sh" | wc -l)
check "recv_interval: a vLLM script is not listed (header only): got $got lines" [ "$got" = 1 ]

# The bench reads the table for SGLang's aggregated rows: DeepSeek-R1 fp8 on
# 8 x B200 measured 2026-03-25 at 32 clients -> 30 (set), at 4 clients -> 10
# (set), the same at 32 clients measured 2026-03-26 (no table date) -> 1; a
# TensorRT-LLM row is not looked up.  With the rule, the 32-client row's TTFT
# is above its --recv-interval none reading, the 2026-03-26 one equal.
srun() { # id conc measured backend
  echo "$1,source_file=2026-04-06.csv; silicon_concurrency=$2; measured=$3T00:00:00.000Z,$4,0.5.9,deepseek-ai/DeepSeek-R1,b200_sxm,fp8,agg,1024,1024,fp8,fp8,$2,8,1,1,8,1,,,,,,,,,,,,,,,500,20"
}
{
  echo "$h"
  srun s1 32 2026-03-25 sglang
  srun s2 4 2026-03-25 sglang
  srun s3 32 2026-03-26 sglang
  srun s4 32 2026-03-25 trtllm
} >"$S/silicon_sample.csv"
out7=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --recv-interval "$tmp/rcv.csv" --rows "$tmp/rows7.csv" 2>&1)
check "recv_interval: counts set 2, 1 1, unresolved 0" \
  grep -qF "set by the run's script 2, 1 (the script's or SGLang's default) 1, the script's rule unresolved 0" <<<"$out7"
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --recv-interval none --rows "$tmp/rows8.csv" >/dev/null 2>&1
got=$(paste -d, <(awk -F, 'NR > 1 { print $4 ":" $7 ":" $14 }' "$tmp/rows7.csv") \
                <(awk -F, 'NR > 1 { print $14 }' "$tmp/rows8.csv") |
      awk -F, '{ split($1, a, ":"); print a[1] ":" a[2] ":" (a[3] > $2 ? "up" : a[3] == $2 ? "same" : "down") }' | tr '\n' ' ')
check "recv_interval: TTFT with the rule vs none (backend:conc): got '$got'" \
  [ "$got" = "sglang:32:up sglang:4:up sglang:32:same trtllm:32:same " ]

# Aggregated MTP runs (docs/llm.md, "Aggregated MTP runs (h159)"): spec_agg.py
# reads the drafts from a script in the form of InferenceX's
# dsr1_fp8_b200_trt_mtp.sh (MTP=3, MTP=1 under dp-attn) and SGLang's EAGLE
# steps (a number, or SPECULATIVE_NUM_STEPS=2); by hand: 3, 1, 2, 3.
cat >"$tmp/trt_mtp.sh" <<'SH'
MTP=3
if [[ "$DP_ATTENTION" == "true" ]]; then
    MOE_BACKEND="DEEPGEMM"
    MTP=1
fi
cat > x.yml << EOF2
speculative_config:
    num_nextn_predict_layers: ${MTP}
EOF2
SH
printf 'SPECULATIVE_NUM_STEPS=2\npython3 -m sglang.launch_server --speculative-num-steps $SPECULATIVE_NUM_STEPS\n' >"$tmp/sgl_a.sh"
printf 'python3 -m sglang.launch_server --speculative-num-steps 3 \\\n  --tp 8\n' >"$tmp/sgl_b.sh"
got=$(cd tools/inferencemax && python3 -c '
import sys
from spec_agg import drafts_of
t, a, b = (open(f).read() for f in sys.argv[1:4])
print(drafts_of(t, "trt", 1024, 1024, 8, 4, False), drafts_of(t, "trt", 1024, 1024, 8, 256, True),
      drafts_of(a, "sglang", 1024, 1024, 8, 4, False), drafts_of(b, "sglang", 8192, 1024, 8, 64, False))
' "$tmp/trt_mtp.sh" "$tmp/sgl_a.sh" "$tmp/sgl_b.sh")
check "spec_agg: drafts 3 1 2 3: got '$got'" [ "$got" = "3 1 2 3" ]

# The bench's reading (agg_spec), on a table written here: DeepSeek-R1 fp8 on
# 8 x B200, TensorRT-LLM, 1k / 1k, measured 2026-02-05.  At 4 clients the table
# has an MTP entry (3 drafts) on the row's image (post3) and a plain one on
# post2: MTP, so its TPOT falls below the --spec-agg none reading; at 8 clients
# an MTP and a plain entry on the row's image: mixed, plain; at 16 clients no
# entry: plain; an SGLang row on an MTP entry: not read (plain).
cat >"$tmp/spec.csv" <<'CSV'
date,commit,config_key,model_prefix,gpu,precision,framework,image,isl,osl,tp,ep,dp_attn,conc_lo,conc_hi,spec,drafts
2026-02-05,x,dsr1-fp8-b200-trt-mtp,dsr1,b200,fp8,trt,1.2.0rc6.post3,1024,1024,8,1,0,4,8,mtp,3
2026-02-05,x,dsr1-fp8-b200-trt,dsr1,b200,fp8,trt,1.2.0rc6.post2,1024,1024,8,1,0,4,4,none,0
2026-02-05,x,dsr1-fp8-b200-trt2,dsr1,b200,fp8,trt,1.2.0rc6.post3,1024,1024,8,1,0,8,8,none,0
2026-02-05,x,dsr1-fp8-b200-sglang-mtp,dsr1,b200,fp8,sglang,v0.5.9-cu130,1024,1024,8,1,0,4,4,mtp,2
CSV
trun() { # id conc backend version
  echo "$1,source_file=2026-04-06.csv; silicon_concurrency=$2; measured=2026-02-05T00:00:00.000Z; image=nvcr.io#nvidia/x:$4,$3,$4,deepseek-ai/DeepSeek-R1,b200_sxm,fp8,agg,1024,1024,fp8,fp8,$2,8,1,1,8,1,,,,,,,,,,,,,,,300,10"
}
{
  echo "$h"
  trun t1 4 trtllm 1.2.0rc6.post3
  trun t2 8 trtllm 1.2.0rc6.post3
  trun t3 16 trtllm 1.2.0rc6.post3
  trun t4 4 sglang v0.5.9-cu130
} >"$S/silicon_sample.csv"
# (the shipped changelog_runs.csv and the scripts' MoE backend left out: h188's readings are tested below)
out9=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --recv-interval none --spec-agg "$tmp/spec.csv" --changelog-runs none --no-moe-backend --rows "$tmp/rows9.csv" 2>&1)
check "agg_spec: counts MTP 1, plain 0, mixed 1, no entry 1" \
  grep -qF "MTP 1 (drafts from the script, A(K) at p 0.708), plain 0, MTP and plain entries on the same image 1 (plain), no entry 1 (plain)" <<<"$out9"
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --recv-interval none --spec-agg none --no-moe-backend --rows "$tmp/rows10.csv" >/dev/null 2>&1
got=$(paste -d, <(awk -F, 'NR > 1 { print $4 ":" $7 ":" $16 }' "$tmp/rows9.csv") \
                <(awk -F, 'NR > 1 { print $16 }' "$tmp/rows10.csv") |
      awk -F, '{ split($1, a, ":"); print a[1] ":" a[2] ":" (a[3] < $2 ? "down" : a[3] == $2 ? "same" : "up") }' | tr '\n' ' ')
check "agg_spec: TPOT with the table vs none (backend:conc): got '$got'" \
  [ "$got" = "trtllm:4:down trtllm:8:same trtllm:16:same sglang:4:same " ]

# InferenceMAX's GB200 runs recorded as aggregated: InferenceX runs GB200 only
# multi-node disaggregated, so such a row (tp = its GPUs in all) is refused with
# that reason; an aggregated GB200 row of aiconfigurator's own gap analysis is
# answered.
{
  echo "$h"
  echo "m1,source_file=2026-04-06.csv; model=DeepSeek-R1; silicon_concurrency=538; measured=2025-11-17T00:00:00.000Z; wip=False,trtllm,,deepseek-ai/DeepSeek-R1,gb200,fp4,agg,8192,1024,nvfp4,nvfp4,538,64,1,1,64,1,,,,,,,,,,,,,,,1388.7,10.07"
  echo "m2,source_file=/Users/x/aic-auto-gap-analysis/data/gb200/trtllm/1.3.0rc1/Qwen_Qwen3-32B.csv; gtl_task_id=x; silicon_concurrency=8; measured=2026-03-23,trtllm,1.3.0rc1,Qwen/Qwen3-32B,gb200,,agg,2000,500,,,8,2,1,,1,0,,,,,,,,,,,,,,,641.9,41.5"
} >"$S/silicon_sample.csv"
out11=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --rows "$tmp/rows11.csv" 2>&1)
check "GB200 multi-node runs recorded as aggregated: 1 refused with the reason" \
  grep -q "^ *1  an InferenceMAX GB200 run recorded as aggregated" <<<"$out11"
got=$(awk -F, 'NR > 1 { print $2 }' "$tmp/rows11.csv")
check "GB200: the gap-analysis row answered: got '$got'" [ "$got" = "Qwen/Qwen3-32B" ]

# SGLang's --mem-fraction-static read the same way (recv_interval.py --setting
# mem): a script in the form of dsr1_fp8_b200.sh of 2026-03 (MEM_FRAC_STATIC
# 0.82 at TP 8, 0.95 at TP 4, exit otherwise); by hand: tp4 0.95, tp8 0.82,
# tp1 / tp2 unresolved (0).  The bench gives a DeepSeek-R1 fp8 TP 4 row of that
# date the 0.95: with it, 32 clients of 8k / 1k all run (32), without it (the
# library's 0.9) fewer fit.
mkdir -p "$tmp/mem"
cat >"$tmp/mem/dsr1_fp8_b200.sh" <<'SH'
if [[ $TP -eq 8 ]]; then
  MEM_FRAC_STATIC=0.82
elif [[ $TP -eq 4 ]]; then
  MEM_FRAC_STATIC=0.95
else
  exit 1
fi
python3 -m sglang.launch_server --model-path $MODEL --tp $TP --mem-fraction-static $MEM_FRAC_STATIC
SH
python3 tools/inferencemax/recv_interval.py --setting mem --script "$tmp/mem/dsr1_fp8_b200.sh" --date 2026-03-25 >"$tmp/mem.csv" ||
  { echo "FAIL recv_interval.py --setting mem on the fixture"; exit 1; }
got=$(awk -F, 'NR > 1 { print "tp" $10 "=" $13 }' "$tmp/mem.csv" | tr '\n' ' ')
check "sglang mem: tp1=0 tp2=0 tp4=0.95 tp8=0.82: got '$got'" [ "$got" = "tp1=0 tp2=0 tp4=0.95 tp8=0.82 " ]
{
  echo "$h"
  echo "k1,source_file=2026-04-06.csv; silicon_concurrency=32; measured=2026-03-25T00:00:00.000Z,sglang,0.5.9,deepseek-ai/DeepSeek-R1,b200_sxm,fp8,agg,8192,1024,fp8,fp8,32,4,1,1,4,1,,,,,,,,,,,,,,,1479.78,34.11"
} >"$S/silicon_sample.csv"
out12=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --recv-interval none --sglang-mem "$tmp/mem.csv" --rows "$tmp/rows12.csv" 2>&1)
check "sglang mem: counts the script's 1, no entry 0" grep -qF "the run's script's 1, no entry 0, the script's rule unresolved 0" <<<"$out12"
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --recv-interval none --sglang-mem none --rows "$tmp/rows13.csv" >/dev/null 2>&1
got=$(awk -F, 'NR > 1 { print $21 }' "$tmp/rows12.csv")
got2=$(awk -F, 'NR > 1 { print $21 }' "$tmp/rows13.csv")
check "sglang mem: running 32 with the script's 0.95, fewer without: got $got / $got2" \
  [ "$got" = 32 ] && [ "$got2" -lt 32 ]
# SGLang's --enable-ep-moe (h207; recv_interval.py --setting epmoe): a script
# in the form of InferenceX's dsr1_fp4_b200_docker.sh of 2025-11 (the switch
# on the launch line, no value) gives 1 at every TP and clients, one row a TP
# (isl = osl = 0): by hand tp1 tp2 tp4 tp8 = 1; a script naming the switch in
# a comment only, or passing --enable-ep-moe-x, is not listed (header only).
mkdir -p "$tmp/epm"
cat >"$tmp/epm/dsr1_fp4_b200_docker.sh" <<'SH'
if [[ $CONC -ge 16 ]]; then
  SCHEDULER_RECV_INTERVAL=30
else
  SCHEDULER_RECV_INTERVAL=10
fi
PYTHONNOUSERSITE=1 python3 -m sglang.launch_server --model-path $MODEL --tensor-parallel-size=$TP \
--chunked-prefill-size 16384 \
--enable-ep-moe --quantization modelopt_fp4 --scheduler-recv-interval $SCHEDULER_RECV_INTERVAL
SH
python3 tools/inferencemax/recv_interval.py --setting epmoe --script "$tmp/epm/dsr1_fp4_b200_docker.sh" --date 2025-11-10 \
  >"$tmp/epm.csv" || { echo "FAIL recv_interval.py --setting epmoe on the fixture"; exit 1; }
got=$(awk -F, 'NR > 1 { print $8 "/" $9 ":tp" $10 ":" $11 "-" $12 "=" $13 }' "$tmp/epm.csv" | tr '\n' ' ')
check "sglang epmoe: the switch at every TP: got '$got'" \
  [ "$got" = "0/0:tp1:1-1024=1 0/0:tp2:1-1024=1 0/0:tp4:1-1024=1 0/0:tp8:1-1024=1 " ]
printf '# --enable-ep-moe was removed\npython3 -m sglang.launch_server --tp 8 --enable-ep-moe-x\n' >"$tmp/epm/dsr1_fp8_b200.sh"
got=$(python3 tools/inferencemax/recv_interval.py --setting epmoe --script "$tmp/epm/dsr1_fp8_b200.sh" | wc -l)
check "sglang epmoe: a comment or another flag is not the switch (header only): got $got lines" [ "$got" = 1 ]
# The bench: DeepSeek-R1 nvfp4 on 4 x B200, 1k / 1k, 32 clients, recorded
# moe_tp 4, moe_ep 1 on 2025-11-10 (e1: the table's date -> EP 4) and on
# 2025-11-11 (e2: no table date -> stays EP 1); e3 the same run recorded
# moe_tp 1, moe_ep 4 (not looked up: it has EP); e4 a TensorRT-LLM row of
# e1's date (not looked up).  By hand: count "EP = TP 1; not 1" (e1 read, e2
# looked up and not); the dump's ep column 4 1 4 1; and e1, read as EP 4,
# predicts exactly what e3 does (TTFT and TPOT), e2 not.
erun() { # id measured backend moe_tp moe_ep
  echo "$1,source_file=2026-04-06.csv; model=DeepSeek-R1; silicon_concurrency=32; measured=$2T00:00:00.000Z,$3,,deepseek-ai/DeepSeek-R1,b200_sxm,fp4,agg,1024,1024,nvfp4,nvfp4,32,4,1,1,$4,$5,,,,,,,,,,,,,,,7101.5,18.6"
}
{
  echo "$h"
  erun e1 2025-11-10 sglang 4 1
  erun e2 2025-11-11 sglang 4 1
  erun e3 2025-11-10 sglang 1 4
  erun e4 2025-11-10 trtllm 4 1
} >"$S/silicon_sample.csv"
out30=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --recv-interval none --sglang-ep-moe "$tmp/epm.csv" --rows "$tmp/rows30.csv" 2>&1)
check "sglang epmoe: counts EP = TP 1; not 1" grep -qF "read as EP = TP 1; not 1" <<<"$out30"
got=$(awk -F, 'NR > 1 { print $9 }' "$tmp/rows30.csv" | tr '\n' ' ')
check "sglang epmoe: ep e1..e4 4 1 4 1: got '$got'" [ "$got" = "4 1 4 1 " ]
got=$(awk -F, 'NR > 1 { print $14 "/" $16 }' "$tmp/rows30.csv" | tr '\n' ' ')
read -r e1 e2 e3 _ <<<"$got"
check "sglang epmoe: e1 predicts as e3 does, e2 not: got '$got'" [ "$e1" = "$e3" ] && [ "$e2" != "$e3" ]
# TensorRT-LLM's attention-DP balance (recipe_adp_balance): InferenceX's
# DeepSeek-R1 TensorRT-LLM scripts write attention_dp_config {enable_balance,
# timeout_iters 60} under DP_ATTENTION.  Fixture: an InferenceMAX-style
# DeepSeek-R1 fp4 B200 row at attention DP 8 (8 a rank, 64 clients) and the
# same layout from aiconfigurator's gap-analysis dumps (not InferenceX's runs),
# and a TP 8 row (no attention DP).  By hand: only the first is set (count 1);
# its TTFT rises over the --no-adp-balance reading, the other two stay.
{
  echo "$h"
  echo "a1,source_file=2026-03-25.csv; model=DeepSeek-R1; silicon_concurrency=64; measured=2026-02-06T17:21:58Z; image=nvcr.io#nvidia/tensorrt-llm/release:1.2.0rc6.post3,trtllm,1.2.0rc6.post3,deepseek-ai/DeepSeek-R1,b200_sxm,fp4,agg,1024,1024,nvfp4,nvfp4,8,1,1,8,1,8,,,,,,,,,,,,,,,1085.5,12.3"
  echo "a2,source_file=/Users/x/aic-auto-gap-analysis/data/b200/trtllm/1.2.0rc6.post3/DeepSeek-R1.csv; gtl_task_id=x; silicon_concurrency=64; measured=2026-03-23,trtllm,1.2.0rc6.post3,deepseek-ai/DeepSeek-R1,b200_sxm,fp4,agg,1024,1024,nvfp4,nvfp4,8,1,1,8,1,8,,,,,,,,,,,,,,,1085.5,12.3"
  echo "a3,source_file=2026-03-25.csv; model=DeepSeek-R1; silicon_concurrency=64; measured=2026-02-06T17:21:58Z; image=nvcr.io#nvidia/tensorrt-llm/release:1.2.0rc6.post3,trtllm,1.2.0rc6.post3,deepseek-ai/DeepSeek-R1,b200_sxm,fp4,agg,1024,1024,nvfp4,nvfp4,64,8,1,1,8,1,,,,,,,,,,,,,,,300,12.3"
} >"$S/silicon_sample.csv"
out14=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg none --rows "$tmp/rows14.csv" 2>&1)
check "adp balance: 1 row set" grep -qF "under the scripts' balance (recipe_adp_balance; timeout_iters 60): 1" <<<"$out14"
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg none --no-adp-balance --rows "$tmp/rows15.csv" >/dev/null 2>&1
got=$(paste -d, <(awk -F, 'NR > 1 { print $14 }' "$tmp/rows14.csv") <(awk -F, 'NR > 1 { print $14 }' "$tmp/rows15.csv") |
      awk -F, '{ print ($1 > $2 ? "up" : $1 == $2 ? "same" : "down") }' | tr '\n' ' ')
check "adp balance: TTFT with vs without (a1 a2 a3): got '$got'" [ "$got" = "up same same " ]
# The MTP scripts under attention DP (docs/llm.md, h178): dsr1_fp4_b200_trt_mtp.sh
# sets MAX_BATCH_SIZE = CONC / TP and MTP = 1 under DP_ATTENTION, and
# max_num_tokens = ((MTP + 1) * MAX_BATCH_SIZE + ISL + 64 + 63) / 64 * 64, a
# rank's own.  a1 (64 clients on 8 ranks, 1k / 1k) with a spec table naming
# an MTP entry (1 draft) at attention DP: by hand 64 / 8 = 8 a rank, (2 x 8 +
# 1024 + 127) / 64 = 18 -> 1,152 tokens: set (count 1), one 1k prompt a rank
# a step, so held prompts are left over and its TTFT rises over the
# --no-adp-max-tokens reading (8,192 a rank: eight); without it: count 0.
cat >"$tmp/spec2.csv" <<'CSV'
date,commit,config_key,model_prefix,gpu,precision,framework,image,isl,osl,tp,ep,dp_attn,conc_lo,conc_hi,spec,drafts
2026-02-06,x,dsr1-fp4-b200-trt-mtp,dsr1,b200,fp4,trt,1.2.0rc6.post3,1024,1024,8,8,1,64,64,mtp,1
CSV
out16=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg "$tmp/spec2.csv" --rows "$tmp/rows16.csv" 2>&1)
check "adp max_num_tokens: 1 row given its script's budget" grep -qF "(recipe_max_tokens, h169; --no-max-tokens: off): 1" <<<"$out16"
out17=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg "$tmp/spec2.csv" --no-adp-max-tokens --rows "$tmp/rows17.csv" 2>&1)
check "adp max_num_tokens: none with --no-adp-max-tokens (no count line)" [ -z "$(grep -F "(recipe_max_tokens, h169" <<<"$out17")" ]
got=$(paste -d, <(awk -F, 'NR > 1 { print $14 }' "$tmp/rows16.csv") <(awk -F, 'NR > 1 { print $14 }' "$tmp/rows17.csv") |
      awk -F, '{ print ($1 > $2 ? "up" : $1 == $2 ? "same" : "down") }' | tr '\n' ' ')
check "adp max_num_tokens: TTFT with vs without (a1 a2 a3): got '$got'" [ "$got" = "up same same " ]
# h189: InferenceX's gpt-oss B200 TensorRT-LLM script appends "attention_dp_config:
# enable_balance: true" under DP_ATTENTION (every version, 2025-11 to 2026-02) and no
# timeout: TensorRT-LLM's default, 50 iterations (gptoss_adp_balance).  Fixture: the
# run of 2026-02-05 at 64 clients on 4 GPUs, attention DP 4, ep 4 (g1); the same on
# H200, whose script sets no balance (g2); the B200 run at TP 4 (g3, no attention DP).
# By hand: only g1 is set (count 1) and its TTFT rises over the --no-adp-balance
# reading, the others stay.  Its steady part: 64 clients of 1,024 outputs end
# a = 64 / 1,024 = 0.0625 requests an iteration, 0.015625 a rank; all four ranks hold
# a prompt within 50 iterations with probability (1 - e^(-0.78125))^4 = 0.0864, so
# nine releases in ten are the count's at 50 and a prompt waits nearly 50 / 2 = 25
# steps, the early releases taking a little off: between 22 and 25 decode steps.
{
  echo "$h"
  echo "g1,source_file=2026-03-25.csv; model=GPT-OSS-120B; silicon_concurrency=64; measured=2026-02-05T23:18:58Z; image=nvcr.io#nvidia/tensorrt-llm/release:1.2.0rc2.post2,trtllm,1.2.0rc2.post2,openai/gpt-oss-120b,b200_sxm,fp4,agg,1024,1024,nvfp4,nvfp4,16,1,1,4,1,4,,,,,,,,,,,,,,,194.05,6.42"
  echo "g2,source_file=2026-03-25.csv; model=GPT-OSS-120B; silicon_concurrency=64; measured=2026-02-05T23:18:58Z; image=nvcr.io#nvidia/tensorrt-llm/release:1.2.0rc2.post2,trtllm,1.2.0rc2.post2,openai/gpt-oss-120b,h200_sxm,fp4,agg,1024,1024,nvfp4,nvfp4,16,1,1,4,1,4,,,,,,,,,,,,,,,194.05,6.42"
  echo "g3,source_file=2026-04-06.csv; model=GPT-OSS-120B; silicon_concurrency=64; measured=2026-02-05T00:00:00.000Z; image=nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc2.post2,trtllm,1.2.0rc2.post2,openai/gpt-oss-120b,b200_sxm,fp4,agg,1024,1024,nvfp4,nvfp4,64,4,1,1,4,1,,,,,,,,,,,,,,,69.5,4.52"
} >"$S/silicon_sample.csv"
out18=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg none --rows "$tmp/rows18.csv" 2>&1)
check "gpt-oss adp balance: 1 row set" grep -qF "(gptoss_adp_balance, h189; timeout_iters 50): 1" <<<"$out18"
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg none --no-adp-balance --rows "$tmp/rows19.csv" >/dev/null 2>&1
got=$(paste -d, <(awk -F, 'NR > 1 { print $14 }' "$tmp/rows18.csv") <(awk -F, 'NR > 1 { print $14 }' "$tmp/rows19.csv") |
      awk -F, '{ print ($1 > $2 ? "up" : $1 == $2 ? "same" : "down") }' | tr '\n' ' ')
check "gpt-oss adp balance: TTFT with vs without (g1 g2 g3): got '$got'" [ "$got" = "up same same " ]
got=$(python3 -c '
import csv, sys
a, b = (list(csv.DictReader(open(f))) for f in sys.argv[1:3])
print("%.2f" % ((float(a[0]["ttft_steady_ms"]) - float(b[0]["ttft_steady_ms"])) / float(a[0]["decode_step_ms"])))' "$tmp/rows18.csv" "$tmp/rows19.csv")
check "gpt-oss adp balance: g1's steady TTFT + 22 to 25 decode steps: got $got" \
  python3 -c "import sys; sys.exit(not 22 <= float('$got') <= 25)"
# h165: a blank-count run the recipes leave unsettled takes its worker counts
# from its own record in the db-dump (its twin: same GPU, precision, engine,
# isl, osl, clients, measured day, and TTFT and TPOT equal to 1e-9).  With the
# fixture's table above (DeepSeek-R1 fp4 GB200 trtllm 1k/1k), by hand:
#   D5  db-dump, 5 clients, measured 2026-03-20: prefill 1 worker, tp 1 x
#       attention DP 4, ep 4; decode 2 workers of tp 8 ep 8, batch 4; 500 / 20 ms
#   B1  blank, 5 clients (no entry for conc 5), p4/4 d8/8, same day, 500 / 20
#       -> D5's counts: prefill 4 GPUs (dp 4, ep 4) with all 5 clients;
#          decode 8 GPUs ep 8 dp 1 with ceil(5 / 2) = 3 clients (cap 4 x 1);
#          workers_unknown 3
#   B2  as B1, TPOT 20.0001 (not the same measurement)      -> unknown
#   B3  as B1, measured 2026-03-21 (another day)            -> unknown
#   B4  as B1, decode 16/16 (the twin's decode GPUs are 8)  -> unknown, "GPUs differ"
#   B5  blank, 4 clients, p4/4 d8/8 -> E1 settles it (1 prefill of 4 GPUs, 4
#       decode of 8); its twin D4 (1 x tp1 dp4, 4 x tp8) agrees: "agree 1"
#   B6  blank, 8 clients, p4/4 d8/8 -> E1 and E2 settle it (4 decode workers);
#       its twin D8 has 2 decode workers: "differ 1", the twin's counts used:
#       decode 8 GPUs with ceil(8 / 2) = 4 clients (cap 4 x 1), workers_unknown 3
dbrun() { # id conc dw ttft tpot
  echo "$1,db-dump/2026-04-27; config_id=$1; silicon_concurrency=$2; measured=2026-03-20T00:00:00.000Z,trtllm,,deepseek-ai/DeepSeek-V3,gb200,fp4,disagg,1024,1024,nvfp4,nvfp4,,,,,,,1,1,1,1,4,1,4,4,$3,8,1,1,1,8,$4,$5"
}
brun() { # id conc measured dtp ttft tpot
  echo "$1,source_file=2026-03-25.csv; model=DeepSeek-R1; silicon_concurrency=$2; measured=$3T13:00:07Z; wip=False,trtllm,,deepseek-ai/DeepSeek-R1,gb200,fp4,disagg,1024,1024,nvfp4,nvfp4,,,,,,,,,4,1,1,1,4,,,$4,1,1,1,$4,$5,$6"
}
{
  echo "$h"
  dbrun D5 5 2 500.25 20.125
  dbrun D4 4 4 400.5 10.5
  brun B1 5 2026-03-20 8 500.25 20.125
  brun B2 5 2026-03-20 8 500.25 20.1251
  brun B3 5 2026-03-21 8 500.25 20.125
  brun B4 5 2026-03-20 16 500.25 20.125
  brun B5 4 2026-03-20 8 400.5 10.5
  dbrun D8 8 2 450.75 12.25
  brun B6 8 2026-03-20 8 450.75 12.25
} >"$S/silicon_sample.csv"
out12=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes.csv" --rows "$tmp/rows12.csv" 2>&1)
check "twin: 1 settled, GPUs differ 1, disagree 0, from no key 1" \
  grep -qF "TTFT and TPOT): 1; twin's GPUs differ 1, twins disagree 0 (left unknown); settled were ambiguous 0, no layout 0, no key 1" <<<"$out12"
check "twin: the recipe-settled runs' twins agree 1, differ 1" grep -qF "worker counts and GPUs agree 1, differ 1 (the twin's used)" <<<"$out12"
got=$(awk -F, 'NR > 1 && $28 == 3 { print $11 ":" $7 "/" $8 "/" $9 "/" $10 }' "$tmp/rows12.csv" | sort | tr '\n' ' ')
check "twin: B1, B6 rows (phase:conc/gpus/ep/dp) = 1:5/4/4/4 1:8/4/4/4 2:3/8/8/1 2:4/8/8/1: got '$got'" \
  [ "$got" = "1:5/4/4/4 1:8/4/4/4 2:3/8/8/1 2:4/8/8/1 " ]
got=$(awk -F, 'NR > 1 && $11 == 2 { print $28 }' "$tmp/rows12.csv" | sort | uniq -c | awk '{ print $2 ":" $1 }' | tr '\n' ' ')
check "twin: decode rows by workers_unknown = 0:3 (D4, D5, D8) 1:3 (B2-B4) 2:1 (B5) 3:2 (B1, B6): got '$got'" \
  [ "$got" = "0:3 1:3 2:1 3:2 " ]

# h233: a run whose fitting entries differ in MTP only, read by its pair
# (--mtp-pair 1).  The fixture table at conc 8 holds E1 (mtp, K 3) and E2
# (none), both 1 prefill of 4 GPUs and 4 decode workers of TP 8: the counts
# settle, MTP does not.  By hand:
#   D8  db-dump, 8 clients, measured 2026-03-20: 1 prefill, 4 decode; 450.75 / 12.25 ms
#   P1  source_file 2026-03-25, 8 clients, same day, 450.75 / 12.25: D8's twin -> plain, K 0
#   P2  the same key and file, 400.5 / 6.5: no twin, P1 the twin -> the other entry, E1's K 3
#   R1  8 clients, measured 2026-03-21, alone in its key -> unknown, -1
# On (the default since the session-23 merge) the line counts plain 1, MTP 1;
# off (--mtp-pair 0) all three stay -1.
{
  echo "$h"
  dbrun D8 8 4 450.75 12.25
  brun P1 8 2026-03-20 8 450.75 12.25
  brun P2 8 2026-03-20 8 400.5 6.5
  brun R1 8 2026-03-21 8 420.25 9.5
} >"$S/silicon_sample.csv"
out13=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes.csv" --mtp-pair 1 --rows "$tmp/rows13.csv" 2>&1)
check "mtp pair: plain 1, MTP 1" grep -qF "one with a db-dump twin; --mtp-pair 0 off): plain (the twin) 1, MTP (the other) 1" <<<"$out13"
# --rows: y_1 (measured TPOT) is column 15, phase 11, workers_unknown 28; spec_k, spec_read the last two
got=$(awk -F, 'NR > 1 && $11 == 2 && $28 == 2 { print $15 ":" $(NF - 1) "/" $NF }' "$tmp/rows13.csv" | sort -n | tr '\n' ' ')
check "mtp pair: decode rows (TPOT:spec_k/spec_read) = 6.5:3/3 9.5:-1/-1 12.25:0/0: got '$got'" \
  [ "$got" = "6.5:3/3 9.5:-1/-1 12.25:0/0 " ]
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes.csv" --mtp-pair 0 --rows "$tmp/rows13off.csv" >/dev/null 2>&1
got=$(awk -F, 'NR > 1 && $11 == 2 && $28 == 2 { print $(NF - 1) }' "$tmp/rows13off.csv" | sort | uniq -c | awk '{ print $2 ":" $1 }' | tr '\n' ' ')
check "mtp pair: off (--mtp-pair 0), the three decode rows MTP unknown: got '$got'" [ "$got" = "-1:3 " ]
got=$(awk -F, 'NR > 1 && $11 == 2 && $28 == 2 { print $15, $16 }' "$tmp/rows13.csv" "$tmp/rows13off.csv" | sort -n |
      awk '$1 == 6.5 { a[n++] = $2 } END { print (a[0] < a[1] || a[1] < a[0]) && (a[0] < a[1] ? a[0] : a[1]) < 0.8 * (a[0] < a[1] ? a[1] : a[0]) }')
check "mtp pair: P2 predicted with its 3 drafts below 0.8 x plain: got '$got'" [ "$got" = 1 ]

# TensorRT-LLM's --max_num_tokens from the DeepSeek-R1 scripts (docs/llm.md,
# "h169"): dsr1_fp8_h200_trt_slurm.sh passes (CONC + ISL + 64 + 63) / 64 * 64,
# floored at 8192 from 64af5a771 (2026-01-21 23:05 UTC).  By hand:
#   M1 c64 1k / 1k, measured 2025-11-02: (64 + 1024 + 127) / 64 = 18 -> 1152 tokens: set
#   M2 the same measured 2026-01-28 (after the floor): 8192, the default: not set
#   M3 c16 8k / 1k, 2025-11-02: (16 + 8192 + 127) / 64 = 130 -> 8320 >= 8192: not set
# M1's TTFT rises against --no-max-tokens (its 64-prompt burst goes one prompt
# a step instead of eight); M2's and M3's do not move.
mrun() { # id conc measured isl
  echo "$1,source_file=2026-04-06.csv; model=DeepSeek-R1; silicon_concurrency=$2; measured=$3T00:00:00.000Z; wip=False,trtllm,,deepseek-ai/DeepSeek-R1,h200_sxm,fp8,agg,$4,1024,fp8,fp8,$2,8,1,1,8,1,,,,,,,,,,,,,,,700,30"
}
{
  echo "$h"
  mrun M1 64 2025-11-02 1024
  mrun M2 64 2026-01-28 1024
  mrun M3 16 2025-11-02 8192
} >"$S/silicon_sample.csv"
out13=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg none --rows "$tmp/rows13.csv" 2>&1)
check "max_num_tokens: 1 row given its script's budget" grep -qF "given their script's --max_num_tokens (recipe_max_tokens, h169; --no-max-tokens: off): 1" <<<"$out13"
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg none --no-max-tokens --rows "$tmp/rows14.csv" >/dev/null 2>&1
# TTFT predicted (a_0, column 14) by conc / isl / measured TTFT order: M1, M2 (1024, 64), M3
got=$(paste -d, <(awk -F, 'NR > 1 { print $5 "/" $7, $14 }' "$tmp/rows13.csv") <(awk -F, 'NR > 1 { print $14 }' "$tmp/rows14.csv") |
  awk '{ split($2, a, ","); print $1 ":" (a[1] > a[2] + 1 ? "up" : (a[1] < a[2] - 1 ? "down" : "same")) }' | sort | tr '\n' ' ')
check "max_num_tokens: 1024/64 rises once, stays once; 8192/16 stays: got '$got'" [ "$got" = "1024/64:same 1024/64:up 8192/16:same " ]
# h188: the sweep that ran a row.  InferenceX's Run Sweep runs only the config
# keys of the perf-changelog entries a push adds; on 2026-01-14 the one push
# of the DeepSeek TensorRT-LLM keys (#392) listed the MTP keys alone.
# Fixture: an H200 fp8 TP 8 / EP 8 1k / 1k row at 4 clients measured that
# day on 1.1.0rc2.post2, whose spec table holds a plain and an MTP (3 drafts)
# entry on that image (agg_spec's "mixed": plain before).  By hand: with a
# changelog listing dsr1-fp8-h200-trt-mtp that day it reads MTP (counted "the
# MTP key alone 1") and its TPOT falls below the --no-changelog reading; with
# a changelog listing both keys (the 01-28 full sweep's form) it stays plain.
cat >"$tmp/spec3.csv" <<'CSV'
date,commit,config_key,model_prefix,gpu,precision,framework,image,isl,osl,tp,ep,dp_attn,conc_lo,conc_hi,spec,drafts
2026-01-14,x,dsr1-fp8-h200-trt,dsr1,h200,fp8,trt,1.1.0rc2.post2,1024,1024,8,8,0,4,64,none,0
2026-01-14,x,dsr1-fp8-h200-trt-mtp,dsr1,h200,fp8,trt,1.1.0rc2.post2,1024,1024,8,8,0,4,64,mtp,3
CSV
printf 'date,time,commit,config_key\n2026-01-14,22:26:18,bf3456727ff5,dsr1-fp8-h200-trt-mtp\n2026-01-14,07:03:18,cc35702b36f4,dsr1-fp8-mi355x-*\n' >"$tmp/clr1.csv"
printf 'date,time,commit,config_key\n2026-01-14,06:18:41,e28c038f8a19,dsr1-fp8-h200-trt\n2026-01-14,06:18:41,e28c038f8a19,dsr1-fp8-h200-trt-mtp\n' >"$tmp/clr2.csv"
{
  echo "$h"
  echo "C1,source_file=2026-03-25.csv; model=DeepSeek-R1; silicon_concurrency=4; measured=2026-01-14T22:26:21Z; wip=False; image=nvcr.io#nvidia/tensorrt-llm/release:1.1.0rc2.post2,trtllm,,deepseek-ai/DeepSeek-R1,h200_sxm,fp8,agg,1024,1024,fp8,fp8,4,8,1,1,1,8,,,,,,,,,,,,,,,494,8.58"
} >"$S/silicon_sample.csv"
out18=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg "$tmp/spec3.csv" --changelog-runs "$tmp/clr1.csv" --rows "$tmp/rows18.csv" 2>&1)
check "changelog: the MTP key alone 1 (read MTP)" grep -qF "the MTP key alone 1 (read MTP), the plain key alone 0 (plain), both or neither 0" <<<"$out18"
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg "$tmp/spec3.csv" --changelog-runs "$tmp/clr1.csv" --no-changelog --rows "$tmp/rows19.csv" >/dev/null 2>&1
out20=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg "$tmp/spec3.csv" --changelog-runs "$tmp/clr2.csv" --rows "$tmp/rows20.csv" 2>&1)
check "changelog: both keys that day: still mixed (plain)" grep -qF "the MTP key alone 0 (read MTP), the plain key alone 0 (plain), both or neither 1" <<<"$out20"
got=$(paste -d, <(awk -F, 'NR > 1 { print $16 }' "$tmp/rows18.csv") <(awk -F, 'NR > 1 { print $16 }' "$tmp/rows19.csv") <(awk -F, 'NR > 1 { print $16 }' "$tmp/rows20.csv") |
      awk -F, '{ print ($1 < $2 ? "down" : "same") ($3 == $2 ? ",same" : ",moved") }')
check "changelog: TPOT read MTP falls, both-keys day stays plain: got '$got'" [ "$got" = "down,same" ]
# h188: TensorRT-LLM's MoE backend from the fp8 B200 scripts.  The plain
# key's dsr1_fp8_b200_trt.sh set MOE_BACKEND=TRTLLM from ec7bafaae (pushed
# 2026-01-29), DEEPGEMM before, and DEEPGEMM again at 1k / 8k with CONC >= 256.
# By hand: T1 (2026-01-29, 1k / 1k, 4 clients) takes the trtllm-gen kernel
# (count 1) and its TPOT falls under --no-moe-backend's; T2 (2026-01-28) and
# T3 (2026-01-29, 1k / 8k, 256 clients) do not move.
trun() { # id conc measured osl
  echo "$1,db-dump/2026-04-27; config_id=1; silicon_concurrency=$2; measured=$3T00:00:00.000Z; workflow_run_id=1; nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc6.post2,trtllm,1.2.0rc6.post2,deepseek-ai/DeepSeek-V3,b200_sxm,fp8,agg,1024,$4,fp8,fp8,$2,8,1,1,8,1,,,,,,,,,,,,,,,190,10.3"
}
{
  echo "$h"
  trun T1 4 2026-01-29 1024
  trun T2 4 2026-01-28 1024
  trun T3 256 2026-01-29 8192
} >"$S/silicon_sample.csv"
out21=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg none --rows "$tmp/rows21.csv" 2>&1)
check "moe backend: 1 row the trtllm-gen kernel" grep -qF "(the trtllm-gen fused MoE; recipe_moe_backend, h188): 1" <<<"$out21"
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg none --no-moe-backend --rows "$tmp/rows22.csv" >/dev/null 2>&1
got=$(paste -d, <(awk -F, 'NR > 1 { print $6 "/" $7 }' "$tmp/rows21.csv") <(awk -F, 'NR > 1 { print $16 }' "$tmp/rows21.csv") <(awk -F, 'NR > 1 { print $16 }' "$tmp/rows22.csv") |
      awk -F, '{ print $1 ":" ($2 < $3 ? "down" : $2 == $3 ? "same" : "up") }' | tr '\n' ' ')
check "moe backend: TPOT T1 down, T2 T3 same: got '$got'" [ "$got" = "1024/4:down 1024/4:same 8192/256:same " ]
# h208: the piecewise CUDA graphs of the fp8 B200 plain script (ec7bafaae,
# 2026-01-29: on at 1k / 1k with CONC >= 64; nothing before).  With
# --eager-ctx-ms 50, by hand: T1 (2026-01-29, 4 clients) and T2 (2026-01-28)
# ran their context iterations eagerly, each of their TTFTs is one prompt step
# (four 1k prompts fit the 8,192 budget's one step; the steady TTFT rides one)
# and rises by 50 ms exactly; T4 (2026-01-29, 64 clients) ran them captured
# and does not move; without the switch nothing is counted.
{
  echo "$h"
  trun T1 4 2026-01-29 1024
  trun T2 4 2026-01-28 1024
  trun T4 64 2026-01-29 1024
} >"$S/silicon_sample.csv"
out23=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg none --eager-ctx-ms 50 --rows "$tmp/rows23.csv" 2>&1)
check "eager ctx: 2 rows eager, 1 piecewise" grep -qF "recipe_eager_ctx, h208): 2, given --eager-ctx-ms 50; piecewise, left: 1" <<<"$out23"
out24=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg none --trt-eager-layer-ms 0 --rows "$tmp/rows24.csv" 2>&1)
check "eager ctx: off by default" bash -c '! grep -qF "recipe_eager_ctx" <<<"$0"' "$out24"
got=$(paste -d, <(awk -F, 'NR > 1 { print $7 }' "$tmp/rows23.csv") <(awk -F, 'NR > 1 { print $14 }' "$tmp/rows23.csv") <(awk -F, 'NR > 1 { print $14 }' "$tmp/rows24.csv") |
      awk -F, '{ d = $2 - $3; printf "%s:%s ", $1, (d > 49.99 && d < 50.01) ? "+50" : (d == 0 ? "same" : d) }')
check "eager ctx: TTFT T1 T2 + 50 ms, T4 same: got '$got'" [ "$got" = "4:+50 4:+50 64:same " ]
# h213: the same rows priced as their forward's kernel launches.  By hand
# (DeepSeek-V3 fp8, 61 layers, the first 3 dense): a dense layer's MLA 10 +
# its 4 quantize kernels + the MLP's 4 + 2 = 20; a MoE layer's MLA 14 + MoE 8
# + 1 quantize + the shared expert's 4 + 2 = 29; 3 x 20 + 58 x 29 = 1,742
# launches; at 10 us each T1 and T2 rise by 17.42 ms, T4 (piecewise) stays.
out25=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg none --eager-launch-us 10 --rows "$tmp/rows25.csv" 2>&1)
check "eager launches: 2 rows eager, 1742 launches, 1 piecewise" grep -qF "recipe_eager_launch, h213): 2, given --eager-launch-us 10 (the last row: 1742 launches); piecewise, left: 1" <<<"$out25"
got=$(paste -d, <(awk -F, 'NR > 1 { print $7 }' "$tmp/rows25.csv") <(awk -F, 'NR > 1 { print $14 }' "$tmp/rows25.csv") <(awk -F, 'NR > 1 { print $14 }' "$tmp/rows24.csv") |
      awk -F, '{ d = $2 - $3; printf "%s:%s ", $1, (d > 17.41 && d < 17.43) ? "+17.42" : (d == 0 ? "same" : d) }')
check "eager launches: TTFT T1 T2 + 17.42 ms, T4 same: got '$got'" [ "$got" = "4:+17.42 4:+17.42 64:same " ]
# h226: with --trt-eager-scope 3 the same eager rows at the eager engine's host time per
# layer (DLP__LLM_EAGER_LAYER_MS 0.210 ms) x DeepSeek-V3's 61 layers =
# 12.81 ms a prompt step: T1 and T2 + 12.81 ms (one prompt step each, as
# above), T4 (piecewise) the same; --trt-eager-layer-ms 0 (rows24) is before.
out26=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg none --trt-eager-scope 3 --rows "$tmp/rows26.csv" 2>&1)
check "eager layers: 2 aggregated DeepSeek rows, no prefill worker" grep -qF "at 0.21 ms a layer (trt_eager_ctx, h226; --trt-eager-layer-ms, --trt-eager-scope 3): aggregated DeepSeek 2, prefill workers 0, other aggregated 0" <<<"$out26"
got=$(paste -d, <(awk -F, 'NR > 1 { print $7 }' "$tmp/rows26.csv") <(awk -F, 'NR > 1 { print $14 }' "$tmp/rows26.csv") <(awk -F, 'NR > 1 { print $14 }' "$tmp/rows24.csv") |
      awk -F, '{ d = $2 - $3; printf "%s:%s ", $1, (d > 12.80 && d < 12.82) ? "+12.81" : (d == 0 ? "same" : d) }')
check "eager layers: TTFT T1 T2 + 12.81 ms, T4 same: got '$got'" [ "$got" = "4:+12.81 4:+12.81 64:same " ]

# h176: recipes.csv's blank spec_tokens from the recipe files
# (tools/inferencemax/spec_tokens.py), on a checkout written here.  Rows (every
# column but date, engine, spec, K, recipe blank or 0), worked by hand:
#   T1 trtllm mtp, K blank, recipe .../ctx1_gen1_dep32_batch8_eplb0_mtp.yaml whose
#      decode speculative_config says num_nextn_predict_layers 3 (its prefill
#      side 1: the decode side is the one read)            -> 3
#   T2 trtllm mtp, K 1 from the name                        -> 1 (not blank: kept)
#   S1 sglang mtp, K blank, decode flags EAGLE, num-steps 2, num-draft-tokens 3
#      (top-k 1: the draft tokens less the root)            -> 2
#   S2 sglang mtp, K blank, recipe absent from the checkout -> blank
#   S3 sglang none, 0                                       -> 0
mkdir -p "$tmp/srt6/recipes/trtllm/gb300-fp4/1k1k/mtp" "$tmp/srt6/recipes/h200/8k1k"
cat >"$tmp/srt6/recipes/trtllm/gb300-fp4/1k1k/mtp/ctx1_gen1_dep32_batch8_eplb0_mtp.yaml" <<'YAML'
backend:
  type: trtllm
  trtllm_config:
    prefill:
      speculative_config:
        decoding_type: MTP
        num_nextn_predict_layers: 1
    decode:
      speculative_config:
        decoding_type: MTP
        num_nextn_predict_layers: 3
YAML
cat >"$tmp/srt6/recipes/h200/8k1k/bs8-1p6d-mtp.yaml" <<'YAML'
backend:
  type: sglang
  sglang_config:
    decode:
      speculative-algorithm: EAGLE
      speculative-num-steps: 2
      speculative-eagle-topk: 1
      speculative-num-draft-tokens: 3
YAML
{
  head -1 tools/inferencemax/recipes.csv
  echo "2026-03-25,c,2026-03-25,k,dsr1,m,gb300,fp4,dynamo-trt,trtllm,1024,1024,8,mtp,,8,1,4,4,1,1,32,32,1,recipes/trtllm/gb300-fp4/1k1k/mtp/ctx1_gen1_dep32_batch8_eplb0_mtp.yaml"
  echo "2026-03-25,c,2026-03-25,k,dsr1,m,gb300,fp4,dynamo-trt,trtllm,1024,1024,8,mtp,1,8,1,4,4,1,1,32,32,1,recipes/trtllm/gb300-fp4/1k1k/mtp/x_mtp1.yaml"
  echo "2026-03-25,c,2026-03-25,k,dsr1,m,h200,fp8,dynamo-sglang,sglang,8192,1024,8,mtp,,,1,8,1,0,6,8,1,0,recipes/h200/8k1k/bs8-1p6d-mtp.yaml"
  echo "2026-03-25,c,2026-03-25,k,dsr1,m,h200,fp8,dynamo-sglang,sglang,8192,1024,8,mtp,,,1,8,1,0,6,8,1,0,recipes/h200/8k1k/absent-mtp.yaml"
  echo "2026-03-25,c,2026-03-25,k,dsr1,m,h200,fp8,dynamo-sglang,sglang,8192,1024,8,none,0,,1,8,1,0,6,8,1,0,recipes/h200/8k1k/bs8-1p6d.yaml"
} >"$tmp/spec.csv"
python3 tools/inferencemax/spec_tokens.py "$tmp/srt6" "$tmp/spec.csv" 2>"$tmp/spec.err"
got=$(awk -F, 'NR > 1 { printf "%s:%s ", $14, $15 }' "$tmp/spec.csv")
check "spec_tokens: T1 3, T2 1, S1 2, S2 blank, S3 0: got '$got'" [ "$got" = "mtp:3 mtp:1 mtp:2 mtp: none:0 " ]
check "spec_tokens: 2 rows filled" grep -q "2 rows filled" "$tmp/spec.err"
# h197: the decode worker's MoE backend of TensorRT-LLM's recipes
# (tools/inferencemax/moe_backend.py), on the checkout above plus three files.
# Worked by hand: B1 prefill DEEPGEMM, decode TRTLLM -> "B1,1,0"; B2 both
# DEEPGEMM -> absent (no TRTLLM side); B3 prefill TRTLLM, decode CUTLASS ->
# "B3,0,1"; the GB300 MTP file above (no moe_config) and the SGLang rows ->
# absent: 2 recipes written, in name order.
mkdir -p "$tmp/srt6/recipes/trtllm/b200-fp8/8k1k/stp"
for x in "B1 DEEPGEMM TRTLLM" "B2 DEEPGEMM DEEPGEMM" "B3 TRTLLM CUTLASS"; do
  set -- $x
  printf 'backend:\n  type: trtllm\n  trtllm_config:\n    prefill:\n      moe_config:\n        backend: %s\n    decode:\n      moe_config:\n        backend: %s\n' \
    "$2" "$3" >"$tmp/srt6/recipes/trtllm/b200-fp8/8k1k/stp/$1.yaml"
  echo "2026-03-25,c,2026-03-25,k,dsr1,m,b200,fp8,dynamo-trt,trtllm,8192,1024,8,none,0,8,1,8,1,1,1,8,1,0,recipes/trtllm/b200-fp8/8k1k/stp/$1.yaml" >>"$tmp/spec.csv"
done
python3 tools/inferencemax/moe_backend.py "$tmp/srt6" "$tmp/spec.csv" >"$tmp/moe_backend.csv" 2>"$tmp/moe_backend.err"
got=$(awk 'NR > 1' "$tmp/moe_backend.csv" | sed 's|recipes/trtllm/b200-fp8/8k1k/stp/||' | tr '\n' ' ')
check "moe_backend: B1 decode TRTLLM, B3 prefill TRTLLM, B2 and the rest absent: got '$got'" [ "$got" = "B1.yaml,1,0 B3.yaml,0,1 " ]
check "moe_backend: 2 recipes" grep -q "2 recipes with a TRTLLM side, 0 left out" "$tmp/moe_backend.err"
# h176: SGLang's drafts, read from its recipe, are left plain (recipe_mtp_scored;
# h159: its EAGLE passes are forwards of their own).  Table 1 with every engine
# sglang; c4 then settles on E1 alone (K 3 given).  Its decode TPOT must equal
# that with E1's K blanked (MTP unknown, plain), and the tally counts c4 and t36
# (both E1 alone) and c8 (E1 and E2) all three MTP unknown.
sed 's/,dynamo-trt,trtllm,/,dynamo-sglang,sglang,/' "$tmp/recipes.csv" >"$tmp/rec_sg.csv"
awk -F, -v OFS=, 'NR > 1 && $14 == "mtp" { $15 = "" } { print }' "$tmp/rec_sg.csv" >"$tmp/rec_sg0.csv"
{
  echo "$h"
  run c4 4 4 4 8 8
  run c8 8 4 4 8 8
  run t36 4 36 1 36 1
} | sed 's/,trtllm,,deepseek-ai/,sglang,,deepseek-ai/' >"$S/silicon_sample.csv"
outs=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/rec_sg.csv" --rows "$tmp/rows_sg.csv" 2>&1)
# h197 / h205: the bench's decode MoE backend reading is on by default, a
# TensorRT-LLM reading: these SGLang rows pass nothing (no tally line), and
# --decode-moe-backend none leaves their rows as they are
check "decode MoE backend: no TensorRT-LLM row, no tally line" bash -c '! grep -q "decode moe_config backend TRTLLM" <<<"$1"' _ "$outs"
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/rec_sg.csv" --decode-moe-backend none --rows "$tmp/rows_sgn.csv" >/dev/null 2>&1
check "decode MoE backend none: SGLang rows unchanged" cmp -s "$tmp/rows_sg.csv" "$tmp/rows_sgn.csv"
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/rec_sg0.csv" --rows "$tmp/rows_sg0.csv" >/dev/null 2>&1
a=$(awk -F, 'NR > 1 && $11 == 2 && $28 == 2 && $7 == 1 { print $16; exit }' "$tmp/rows_sg.csv")
b=$(awk -F, 'NR > 1 && $11 == 2 && $28 == 2 && $7 == 1 { print $16; exit }' "$tmp/rows_sg0.csv")
check "SGLang K read, scored plain: c4's TPOT with K 3 = with K blank: $a, $b" [ -n "$a" ] && [ "$a" = "$b" ]
check "SGLang: 3 decode rows MTP unknown, none with K" grep -q "sglang decode workers, counts from the recipe, TPOT MAPE: no MTP [a-z0-9.]* % (0); MTP unknown (entries differ, or K not in the recipe name; scored plain) [0-9.]* % (3)$" <<<"$outs"
# h182: the GB200 dynamo-trt rows with no recipe file get their decode cap
# (DECODE_MAX_BATCH_SIZE) from the yaml entries of their key, isl/osl, spec and
# layout at the row's commit (tools/inferencemax/dynamo_settings.py), the
# drafts (DECODE_MTP_SIZE) with --mtp only.  Yaml (one file: the commit is
# not read), worked by hand:
#   A: 1 x tp4 prefill, 4 x tp8 decode, mtp: two entries (conc 4, conc 8), both
#      batch 32, MTP 3 -> agree: 32 (and K 3 with --mtp)
#   B: 1 x tp4/dp prefill, 1 x tp16/dp decode, mtp: batch 64 and batch 128 -> disagree: blank
# Rows: R1 layout A, commit dynamo-sweeps@c (clients 32 = 8 x 4: not matched) -> 32, K blank;
#   R2 layout B -> blank; R3 layout A on gb300 -> untouched; R4 layout A with a
#   recipe -> untouched.  1 row filled; with --mtp R1 reads mtp:3:32.
cat >"$tmp/dyn.yaml" <<'YAML'
dsr1-fp4-gb200-dynamo-trt:
  seq-len-configs:
  - isl: 1024
    osl: 1024
    search-space:
    - spec-decoding: "mtp"
      conc-list: [ 4 ]
      prefill: { num-worker: 1, tp: 4, ep: 4, dp-attn: false }
      decode: { num-worker: 4, tp: 8, ep: 8, dp-attn: false, additional-settings: [ "DECODE_MAX_BATCH_SIZE=32", "DECODE_MTP_SIZE=3" ] }
    - spec-decoding: "mtp"
      conc-list: [ 8 ]
      prefill: { num-worker: 1, tp: 4, ep: 4, dp-attn: false }
      decode: { num-worker: 4, tp: 8, ep: 8, dp-attn: false, additional-settings: [ "DECODE_MAX_BATCH_SIZE=32", "DECODE_MTP_SIZE=3" ] }
    - spec-decoding: "mtp"
      conc-list: [ 512 ]
      prefill: { num-worker: 1, tp: 4, ep: 4, dp-attn: true }
      decode: { num-worker: 1, tp: 16, ep: 16, dp-attn: true, additional-settings: [ "DECODE_MAX_BATCH_SIZE=64", "DECODE_MTP_SIZE=3" ] }
    - spec-decoding: "mtp"
      conc-list: [ 1024 ]
      prefill: { num-worker: 1, tp: 4, ep: 4, dp-attn: true }
      decode: { num-worker: 1, tp: 16, ep: 16, dp-attn: true, additional-settings: [ "DECODE_MAX_BATCH_SIZE=128", "DECODE_MTP_SIZE=1" ] }
YAML
{
  head -1 tools/inferencemax/recipes.csv
  k="dsr1-fp4-gb200-dynamo-trt,dsr1,m"
  echo "2025-12-05,dynamo-sweeps@c,2025-12-05,$k,gb200,fp4,dynamo-trt,trtllm,1024,1024,32,mtp,,,1,4,4,0,4,8,8,0,"
  echo "2025-12-05,c,2025-12-05,$k,gb200,fp4,dynamo-trt,trtllm,1024,1024,512,mtp,,,1,4,4,1,1,16,16,1,"
  echo "2025-12-05,c,2025-12-05,$k,gb300,fp4,dynamo-trt,trtllm,1024,1024,4,mtp,,,1,4,4,0,4,8,8,0,"
  echo "2025-12-05,c,2025-12-05,$k,gb200,fp4,dynamo-trt,trtllm,1024,1024,4,mtp,,,1,4,4,0,4,8,8,0,recipes/x.yaml"
} >"$tmp/dyn.csv"
cp "$tmp/dyn.csv" "$tmp/dyn_mtp.csv"
python3 tools/inferencemax/dynamo_settings.py "$tmp/dyn.yaml" "$tmp/dyn.csv" 2>"$tmp/dyn.err"
got=$(awk -F, 'NR > 1 { printf "%s:%s:%s ", $14, $15, $16 }' "$tmp/dyn.csv")
check "dynamo_settings: R1 cap 32 K blank, R2-R4 untouched: got '$got'" [ "$got" = "mtp::32 mtp:: mtp:: mtp:: " ]
check "dynamo_settings: 1 rows filled" grep -q "1 rows filled" "$tmp/dyn.err"
python3 tools/inferencemax/dynamo_settings.py "$tmp/dyn.yaml" "$tmp/dyn_mtp.csv" --mtp 2>/dev/null
got=$(awk -F, 'NR == 2 { printf "%s:%s:%s", $14, $15, $16 }' "$tmp/dyn_mtp.csv")
check "dynamo_settings --mtp: R1 mtp:3:32: got '$got'" [ "$got" = "mtp:3:32" ]

# h183: the SGLang prefill worker's chunked-prefill-size from its recipe
# (prefill_chunks.sh).  Worked by hand: recipes/a.yaml's prefill worker sets
# 32768 with dp-size 8 under attention DP, max-running-requests 512 and
# max-prefill-tokens 65536 (the decode worker's 4096 and 8192 are not read):
# "recipes/a.yaml,2,32768,8,512,C,65536", so a 1k-prompt rank budget of
# 32768 / 8 = 4096 tokens (4 prompts a step; 65536 would allow 63, h186);
# recipes/b.yaml sets no chunk (no row); recipes/c.yaml is TensorRT-LLM's
# (not read); recipes/d.yaml's prefill has no attention DP (dp 1) and no
# max-prefill-tokens (0: SGLang's default).
g="$tmp/srt.git"
git init -q --bare "$g"
w="$tmp/srt.work"
mkdir -p "$w/recipes"
cat >"$w/recipes/a.yaml" <<'YAML'
resources:
  prefill_workers: 2
backend:
  sglang_config:
    prefill:
      chunked-prefill-size: 32768
      enable-dp-attention: true
      dp-size: 8
      max-running-requests: 512
      max-prefill-tokens: 65536
    decode:
      chunked-prefill-size: 4096
      max-prefill-tokens: 8192
YAML
printf 'resources:\n  prefill_workers: 1\nbackend:\n  sglang_config:\n    prefill:\n      dp-size: 8\n' >"$w/recipes/b.yaml"
cp "$w/recipes/a.yaml" "$w/recipes/c.yaml"
printf 'resources:\n  prefill_workers: 1\nbackend:\n  sglang_config:\n    prefill:\n      chunked-prefill-size: 16384\n      dp-size: 4\n' >"$w/recipes/d.yaml"
git --git-dir="$g" --work-tree="$w" add -A
git --git-dir="$g" --work-tree="$w" -c user.name=t -c user.email=t@t commit -qm fixture
c=$(git --git-dir="$g" rev-parse HEAD)
{
  head -1 tools/inferencemax/recipes.csv
  for f in a b d; do
    echo "2026-03-25,c,2026-03-25,k,dsr1,m,h200,fp8,sglang,sglang,1024,1024,4,,,0,1,8,8,1,1,8,8,1,recipes/$f.yaml"
  done
  echo "2026-03-25,c,2026-03-25,k,dsr1,m,h200,fp8,dynamo-trt,trtllm,1024,1024,4,,,0,1,8,8,1,1,8,8,1,recipes/c.yaml"
} >"$tmp/pc_recipes.csv"
got=$(PREFILL_RECIPES="$tmp/pc_recipes.csv" bash tools/inferencemax/prefill_chunks.sh "$g" | tr '\n' ' ')
want="recipe,prefill_workers,chunk,prefill_dp,max_running,srt_slurm_commit,max_prefill recipes/a.yaml,2,32768,8,512,$c,65536 recipes/d.yaml,1,16384,1,0,$c,0 "
check "prefill_chunks: a 32768 over dp 8, d 16384 dp 1, b and c none: got '$got'" [ "$got" = "$want" ]

# h190: the config keys each merge ran (tools/inferencemax/changelog_runs.py,
# h188's table) and the bench's --changelog narrowing.  A git history written
# here, on main: commit 1 (the root)
# (committed 2026-02-06 23:08:58 -0800 = 2026-02-07T07:08:58Z) adds an entry
# with key a-x; commit 2 (2026-02-10T01:00:00Z) keeps it and adds one with b-y
# and the glob c*; commit 3 touches another file only.  Expected by hand: the
# header, then 2026-02-07,07:08:58,<hash>,a-x and one line per added key of
# commit 2: 2026-02-10,01:00:00,<hash>,b-y and ...,c*.
cg="$tmp/cl.git"; cw="$tmp/cl"
git init -q --bare -b main "$cg"; mkdir -p "$cw"
clc() { GIT_COMMITTER_DATE="$1" GIT_AUTHOR_DATE="$1" git --git-dir="$cg" --work-tree="$cw" -c user.name=t -c user.email=t@t commit -qam x; }
printf -- '- config-keys:\n    - a-x\n  pr-link: p1\n' >"$cw/perf-changelog.yaml"
git --git-dir="$cg" --work-tree="$cw" add -A; clc "2026-02-06T23:08:58-08:00"
printf -- '- config-keys:\n    - b-y\n    - "c*"\n  pr-link: p2\n' >>"$cw/perf-changelog.yaml"; clc "2026-02-10T01:00:00Z"
echo x >"$cw/other"; git --git-dir="$cg" --work-tree="$cw" add -A; clc "2026-02-11T01:00:00Z"
h1=$(git --git-dir="$cg" rev-list --reverse HEAD | head -1 | cut -c1-12)
h2=$(git --git-dir="$cg" rev-list --reverse HEAD | sed -n 2p | cut -c1-12)
got=$(python3 tools/inferencemax/changelog_runs.py --repo "$cg" | tr '\n' ';')
check "changelog_runs: 2 merges, UTC times, added keys only: got '$got'" \
  [ "$got" = "date,time,commit,config_key;2026-02-07,07:08:58,$h1,a-x;2026-02-10,01:00:00,$h2,b-y;2026-02-10,01:00:00,$h2,c*;" ]
# The bench: table 1 with E3 (conc 64, mtp K 1, 2 prefill + 1 decode workers)
# moved to its own key ...-mtp, so E2 (plain, 1 + 4) and E3 differ in key at
# conc 64.  Merges: 2026-02-14T01:02:03Z ran only the -mtp key; 2026-02-16T10:00:00Z
# ran dsr1* (both).  Runs (conc 64, layout 4/4 8/8, dumped 03-25): n1 measured
# 5 s after the first merge -> E3 alone, exactly one, K 1 scored; n2 20 min after
# (past the 600 s lag) -> no merge, ambiguous; n3 the first merge's date only
# (T00:00:00.000Z) -> that day's merges ran -mtp only -> E3; n4 4 s after the
# dsr1* merge -> both keys ran, ambiguous.  So exactly one 2, ambiguous 2;
# narrowed 2, kept all 1, no merge 1.  With --changelog none (the default) all 4
# are ambiguous.
awk -F, -v OFS=, '$13 == 64 && $14 == "mtp" { $4 = $4 "-mtp" } { print }' "$tmp/recipes.csv" >"$tmp/recipes_cl.csv"
printf 'date,time,commit,config_key\n2026-02-14,01:02:03,aaa,dsr1-fp4-gb200-dynamo-trt-mtp\n2026-02-16,10:00:00,bbb,dsr1*\n' \
  >"$tmp/changelog.csv"
{
  echo "$h"
  run n1 "64; measured=2026-02-14T01:02:08Z" 4 4 8 8
  run n2 "64; measured=2026-02-14T01:22:08Z" 4 4 8 8
  run n3 "64; measured=2026-02-14T00:00:00.000Z" 4 4 8 8
  run n4 "64; measured=2026-02-16T10:00:04Z" 4 4 8 8
} >"$S/silicon_sample.csv"
out5=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes_cl.csv" --changelog "$tmp/changelog.csv" \
  --rows "$tmp/rows_cl.csv" 2>&1)
for want in "2  exactly one entry" "2  several entries, different worker counts" \
            "the keys the run's merge ran ($tmp/changelog.csv, h190): 2; its keys kept all 1; no merge at the stamp 1"; do
  check "changelog: '$want'" grep -qF -- "$want" <<<"$out5"
done
check "changelog: the 2 settled decode rows scored with E3's K 1" \
  grep -q "MTP K drafts at A(K) = p + ... + p^K, p 0.708: [0-9.]* % (2)" <<<"$out5"
# n1's decode worker: E3's single decode worker, dp-attn over 8 GPUs, all 64 clients
got=$(awk -F, 'NR > 1 && $11 == 2 && $28 == 2 { print $7, $8, $9, $10 }' "$tmp/rows_cl.csv" | sort | tr '\n' ';')
check "changelog: settled decode rows = 64 clients, 8 GPUs, ep 8, dp 8: got '$got'" [ "$got" = "64 8 8 8;64 8 8 8;" ]
out6=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes_cl.csv" 2>&1)
check "changelog: off by default, all 4 ambiguous" grep -qF "4  several entries, different worker counts" <<<"$out6"
check "changelog: off by default, no narrowing line" [ "$(grep -c 'merge ran' <<<"$out6")" = 0 ]

# h190: an ambiguous run whose fitting entries agree on each worker's layout.
# Table: E2 (conc 64: 1 prefill worker of 4 GPUs, ep 4, dp-attn; 4 decode workers
# of 8 GPUs, ep 8, no dp-attn) and a copy with 2 prefill and 2 decode workers.
# Run a64 (conc 64, dump layout 4/4 8/8, blank counts): the two entries differ
# in counts only -> ambiguous, counts one of each (workers_unknown 1), but the
# decode worker is E2's TEP 8 (8 GPUs, ep 8, dp 1, all 64 clients) where the
# dump's reading alone makes it wide-EP (dp 8); its prefill worker 4 GPUs ep 4
# dp 4 either way.  Worked from the table by hand.
awk -F, -v OFS=, 'NR == 1 { print; next } $13 == 64 && $14 == "none" { print; $17 = 2; $21 = 2; print }' \
  "$tmp/recipes.csv" >"$tmp/recipes_lay.csv"
{ echo "$h"; run a64 64 4 4 8 8; } >"$S/silicon_sample.csv"
out7=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes_lay.csv" --rows "$tmp/rows_lay.csv" \
  --amb-workers 0 2>&1)
check "layout: a64 ambiguous (the worker counts differ)" grep -qF "1  several entries, different worker counts" <<<"$out7"
check "layout: 1 run read with the agreed layout" grep -qF "read with it (h190): 1" <<<"$out7"
got=$(awk -F, 'NR > 1 { print $11, $7, $8, $9, $10, $28 }' "$tmp/rows_lay.csv" | sort | tr '\n' ';')
check "layout: prefill 64 clients 4/4/4, decode 64 clients 8 GPUs ep 8 dp 1, counts unknown: got '$got'" \
  [ "$got" = "1 64 4 4 4 1;2 64 8 8 1 1;" ]
# h220: the same run takes its counts from the two entries it fits (the h190
# layout kept): prefill workers {1, 2}, decode workers {4, 2}.  By hand, the
# upper median of two counts is the larger: 2 prefill workers (64 / 2 = 32
# clients each) and 4 decode workers (64 / 4 = 16); the lower median (1) the
# smaller: 1 (64) and 2 (32); --amb-workers 0 is h190's one of each (above).
out7=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes_lay.csv" --rows "$tmp/rows_amb.csv" 2>&1)
check "ambiguous counts: 1 run given the upper median (the default)" \
  grep -qF "upper median of their fitting entries' worker counts, each side (h220; --amb-workers 0: one of each): 1" <<<"$out7"
got=$(awk -F, 'NR > 1 { print $11, $7, $8, $9, $10, $28 }' "$tmp/rows_amb.csv" | sort | tr '\n' ';')
check "ambiguous counts, upper median: prefill 32 clients, decode 16, layouts h190's: got '$got'" \
  [ "$got" = "1 32 4 4 4 1;2 16 8 8 1 1;" ]
"$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes "$tmp/recipes_lay.csv" --rows "$tmp/rows_amb1.csv" \
  --amb-workers 1 >/dev/null 2>&1
got=$(awk -F, 'NR > 1 { print $11, $7, $8, $9, $10, $28 }' "$tmp/rows_amb1.csv" | sort | tr '\n' ';')
check "ambiguous counts, lower median: prefill 64 clients, decode 32: got '$got'" \
  [ "$got" = "1 64 4 4 4 1;2 32 8 8 1 1;" ]
# noise_floor.py: one configuration measured twice, TTFT 100 and 200 ms, both
# predicted 150.  By hand: the best constant is 100 (0 + 100/200 = 0.5; 200
# gives 1.0), 0.5 / 2 rows = 25.0 %; the model 50/100 + 50/200 = 0.75, 37.5 %.
# TPOT 10 and 10 predicted 10: 0.0 and 0.0.  A third row of another
# configuration is measured once and left out.
{
  echo "model,system,backend,isl,osl,conc,gpus,ep,dp,phase,quant,y_0,a_0,y_1,a_1"
  echo "m,s,trtllm,1024,1024,8,8,1,1,0,fp8,100,150,10,10"
  echo "m,s,trtllm,1024,1024,8,8,1,1,0,fp8,200,150,10,10"
  echo "m,s,trtllm,1024,1024,16,8,1,1,0,fp8,300,150,10,20"
} >"$tmp/nf.csv"
got=$(python3 tools/inferencemax/noise_floor.py "$tmp/nf.csv" | tr '\n' ';')
check "noise_floor: 25.0 / 37.5 % TTFT, 0.0 / 0.0 % TPOT on the twice-measured pair: got '$got'" \
  [ "$got" = "TTFT: 2 rows in 1 configurations measured more than once: best constant per configuration 25.0 % MAPE, the model 37.5 %;TPOT: 2 rows in 1 configurations measured more than once: best constant per configuration 0.0 % MAPE, the model 0.0 %;" ]
# cells.py: three scored rows in two cells and one unscored (no measurement).
# By hand, TTFT: cell A (trtllm) 100 -> 150 and 200 -> 150, |e| 0.5 + 0.25;
# cell B (vllm) 100 -> 100, 0.  Headline (0.75 + 0) / 3 = 25.00 %; A's points
# 0.75 / 3 = 25.00, its MAPE 37.5, its median ratio the upper of 0.75, 1.5 =
# 1.50; B 0.00 points, MAPE 0.0, median 1.00.  TPOT all exact: 0.00.
{
  echo "backend,family,system,quant,phase,src_name,y_0,a_0,y_1,a_1"
  echo "trtllm,f,s,fp8,0,x,100,150,10,10"
  echo "trtllm,f,s,fp8,0,x,200,150,10,10"
  echo "vllm,f,s,fp8,0,x,100,100,10,10"
  echo "vllm,f,s,fp8,0,x,nan,100,nan,10"
} >"$tmp/cells.csv"
got=$(python3 tools/inferencemax/cells.py "$tmp/cells.csv" 1 | tr -s ' ' | tr '\n' ';')
check "cells: TTFT 25.00 % of which trtllm's cell 25.00 points, MAPE 37.5, median 1.50: got '$got'" \
  [ "$got" = "TTFT: 3 rows, MAPE 25.00 %; 25.00 points 2 rows MAPE 37.5 % median 1.50 trtllm / f / s / fp8 / 0 / x;TPOT: 3 rows, MAPE 0.00 %; 0.00 points 2 rows MAPE 0.0 % median 1.00 trtllm / f / s / fp8 / 0 / x;" ]
# h201/prefill_bound.py: the peak-rate lower bound of a closed-loop cycle, with
# 1 G linear parameters, 1 GB of weights, 100 TFLOP/s and 1 TB/s.  By hand:
# 2 clients of 1,000-token prompts and 11 outputs on one GPU need 2 x 1000 x
# 2 x 1e9 / 1e14 = 40 ms of prompt math and 10 steps x 1e9 / 1e12 = 10 ms of
# weights, 50 ms, against a measured 50 + 10 x 10 = 150 ms: share 0.33; on two
# GPUs half of it, 25 ms, 0.17; 9 clients on one GPU 180 + 10 = 190 ms of a
# 100 + 100 = 200 ms cycle: 0.95, the one row at 0.9 or more.  A prefill worker
# (phase 1) and another model are left out.
{
  echo "model,system,phase,conc,isl,osl,gpus,y_0,y_1"
  echo "m,s,0,2,1000,11,1,50,10"
  echo "m,s,0,2,1000,11,2,50,10"
  echo "m,s,0,9,1000,11,1,100,10"
  echo "m,s,1,9,1000,11,1,100,10"
  echo "other,s,0,9,1000,11,1,100,10"
} >"$tmp/pb.csv"
got=$(python3 tools/inferencemax/h201/prefill_bound.py "$tmp/pb.csv" m s 1e9 1e9 1e14 1e12 | tr '\n' ';')
check "prefill_bound: shares 0.33 / 0.17 / 0.95, one row at 0.9 or more: got '$got'" \
  [ "$got" = "C 2 n 1 1000/11: cycle 150 ms, bound 50 ms, share 0.33;C 2 n 2 1000/11: cycle 150 ms, bound 25 ms, share 0.17;C 9 n 1 1000/11: cycle 200 ms, bound 190 ms, share 0.95;rows at share >= 0.9: 1;" ]

# h216: the prefill ep-size of srt-slurm's recipes as in force on a date
# (tools/inferencemax/h216/srt_prefill_ep.py), on a two-commit excerpt: the
# 2025-12-20 commit's recipies/gb200-fp8/8k1k/mid.yaml sets 5 prefill workers
# of tp-size 8, ep-size 8, deepep, 1 decode worker of tp-size 32, ep-size 32,
# 8192 / 1024 at 512x1024; a 2026-01-05 commit sets ep-size 1.  Read for
# 2025-12-21: the first commit's line, ep 8; for 2026-01-06: ep 1; a
# gb200 file without sglang_config (low.yaml) gives no line.
g="$tmp/srt.git"
git init -q --bare "$g"
w="$tmp/srt_wt"
mkdir -p "$w/recipies/gb200-fp8/8k1k"
mk_recipe() {
  cat >"$w/recipies/gb200-fp8/8k1k/mid.yaml" <<YAML
resources:
  prefill_workers: 5
  decode_workers: 1
  gpus_per_node: 4
backend:
  sglang_config:
    prefill:
      tp-size: 8
      dp-size: 8
      ep-size: $1
      moe-a2a-backend: "$2"
    decode:
      tp-size: 32
      ep-size: 32
benchmark:
  isl: 8192
  osl: 1024
  concurrencies: "512x1024"
YAML
  printf 'resources:\n  prefill_workers: 1\nbenchmark:\n  isl: 8192\n' >"$w/recipies/gb200-fp8/8k1k/low.yaml"
  git --git-dir="$g" --work-tree="$w" add -A
  GIT_AUTHOR_DATE="$3" GIT_COMMITTER_DATE="$3" git --git-dir="$g" --work-tree="$w" \
    -c user.name=t -c user.email=t@t commit -qm r
}
mk_recipe 8 deepep 2025-12-20T10:00:00Z
mk_recipe 1 none 2026-01-05T10:00:00Z
got=$(python3 tools/inferencemax/h216/srt_prefill_ep.py "$g" 2025-12-21 2026-01-06 | cut -d, -f1,3- | tr '\n' ';')
check "srt_prefill_ep: ep 8 deepep on 2025-12-21, ep 1 on 2026-01-06, no line for low.yaml: got '$got'" \
  [ "$got" = "date,recipe,gpu,precision,isl,osl,concs,pw,ptp,pep,pa2a,dw,dtp,dep;2025-12-21,recipies/gb200-fp8/8k1k/mid.yaml,gb200,fp8,8192,1024,512x1024,5,8,8,deepep,1,32,32;2026-01-06,recipies/gb200-fp8/8k1k/mid.yaml,gb200,fp8,8192,1024,512x1024,5,8,1,none,1,32,32;" ]

# h228: tools/inferencemax/nvfp4_cells.py part 2, the low-load composition
# measured = model - prefill + F + s prefill, on three rows built by hand with
# F = 50 ms, s = 0.5: (a 100, pf 40) -> y 130; (200, 100) -> 200; (300, 200)
# -> 250.  The fit gives them back exactly (MAPE 0.0); before it, the model's
# own MAPE is (30/130 + 0 + 50/250) / 3 = 14.4 %.
h228="$tmp/h228_rows.csv"
{
  echo "backend,family,system,quant,phase,dp,conc,src_name,isl,osl,y_0,a_0,prefill_ms"
  echo "trtllm,deepseek,b200_sxm,nvfp4,0,1,4,InferenceMAX-style dumps,1024,1024,130,100,40"
  echo "trtllm,deepseek,b200_sxm,nvfp4,0,1,8,InferenceMAX-style dumps,8192,1024,200,200,100"
  echo "trtllm,deepseek,b200_sxm,nvfp4,0,1,16,InferenceMAX-style dumps,8192,1024,250,300,200"
} >"$h228"
got=$(python3 tools/inferencemax/nvfp4_cells.py "$h228" "$tmp/no-such-dir" | grep '^   nvfp4  b200_sxm' | tr -s ' ')
check "nvfp4_cells: F 50 ms, s 0.50, MAPE 14.4 -> 0.0 on the hand-built rows: got '$got'" \
  [ "$got" = " nvfp4 b200_sxm n 3 F 50.0 ms s 0.50 MAPE 14.4 -> 0.0 %" ]

# h230: tools/inferencemax/prompt_draw_refit.py on three vLLM rows built by
# hand, burst and steady TTFT equal (the burst weights stay compiled, 0.14 and
# 0.17: nothing moves them).  Front
# end t = sum (y - (a - req)) / y^2 / sum 1 / y^2 over the aggregated rows
# (100, 90, 20) -> 30 and (200, 170, 20) -> 50: (30e-4 + 50 x 2.5e-5) /
# 1.25e-4 = 34.0 ms.  Errors compiled 10, 15 and (prefill worker 100, 80)
# 20 % -> 15.00 %; refit 104, 184, 94: 4, 8, 6 % -> 6.00 %.  Leave-one-GPU-
# out (rows 1, 3 on x, row 2 on z): t 50 on x (120, 110: 20, 10 %), t 30 on
# z (180: 10 %) -> 13.33 %; one family, nothing to fit it on: 15.00 %.
h230="$tmp/h230_rows.csv"
{
  echo "set,phase,backend,mixed,lockstep,system,family,y_0,a_0,req_ms,ttft_burst_ms,ttft_steady_ms"
  echo "silicon,0,vllm,0,0,x,llama,100,90,20,5,5"
  echo "silicon,0,vllm,0,0,z,llama,200,170,20,5,5"
  echo "silicon,1,vllm,0,0,x,llama,100,80,20,5,5"
} >"$h230"
got=$(python3 tools/inferencemax/prompt_draw_refit.py "$h230" | grep -E '^(refit|TTFT|held)' | tr -s ' ' | tr '\n' ';')
check "prompt_draw_refit: vllm 34.0 ms, 15.00 -> 6.00 %, held out 13.33 / 15.00 %: got '$got'" \
  [ "$got" = "refit: burst weights decode-first 0.14, prefill-first 0.17; front ends vllm 34.0 ms;TTFT (aggregated + prefill workers) 3 rows: compiled 15.00 %, refit in-sample 6.00 %;held out (both phases): leave-one-GPU-out 13.33 %, leave-one-family-out 15.00 %;" ]

# h237: tools/inferencemax/ctx_load.py on one prefill / decode pair built by
# hand.  Recipe r1: attention DP over 2 ranks, max_batch_size 2,
# max_num_tokens 2048, ISL 1024: k = min(2, 2048 // 1024) = 2 a rank.  The
# library's steps: lone prompt 150 ms, one prompt on each rank 250, two 400:
# cap = 2 x 2 / 0.400 s = 10 req/s.  Decode row: predicted TPOT 10 ms, osl
# 100: away 0.9 x 100 x 10 = 900 ms; C 40 >= 10 x 0.9 s: saturated.
# Part 1: measured TTFT 1000, TPOT 10: cycle 1000 + 89 x 10 = 1890 ms,
# X = 40 / 1.890 = 21.16 req/s, rho 2.12; 21.164 x 0.9 x 1024 / 2 GPUs =
# 9752 tok/s a GPU.  Part 2: burst 300 ms over ceil(40 x 1024 / 8192) = 5
# steps: b = 2 x 300 / 6 = 100 ms; old steady 0.5 x 100 + 150 = 200; at any
# TTFT near 1 s the clients send X = 40 / (TTFT + 900) > 4 / 400 ms a ms, so
# the step carries m = N k = 4 prompts, T 400: new 0.5 x 400 + 400 = 600;
# TTFT 800 + (600 - 200) x 0.9 = 1160 ms: error 20 -> 16 %.  Bound: 40 x
# 400 / 4 - 900 = 3100 ms: 210 %.
h237="$tmp/h237_rows.csv"
{
  echo "set,phase,backend,family,system,quant,isl,osl,conc,gpus,y_0,a_0,y_1,a_1,prefill_ms,ttft_burst_ms,recipe,trt_step_1,trt_step_2"
  echo "silicon,1,trtllm,deepseek,b200_sxm,fp8,1024,100,40,2,1000,800,,,150,300,r1,250,400"
  echo "silicon,2,trtllm,deepseek,b200_sxm,fp8,1024,100,20,2,,,10,10,,,,,"
} >"$h237"
printf 'recipe,prefill_workers,tp,attention_dp,max_batch_size,max_num_tokens,adp_config_set,disable_overlap,chunked_prefill\nr1,1,2,1,2,2048,0,1,0\n' >"$tmp/h237_prefill.csv"
got=$(python3 tools/inferencemax/ctx_load.py "$h237" --prefill "$tmp/h237_prefill.csv" | grep -E '^   b200_sxm|^2\.|bound|^   all' | tr -s ' ' | tr '\n' ';')
check "ctx_load: X 21.2, cap 10.0, rho 2.12, 9752 tok/s a GPU; 20.00 -> 16.00 %, bound 210.00 %: got '$got'" \
  [ "$got" = " b200_sxm fp8 1024 2 2 1 21.2 10.0 2.12 2.12 9752;2. the mean-value loaded worker (the rows as given): 1 rows moved; silicon TTFT 20.00 -> 16.00 %, prefill workers 20.00 -> 16.00 %; the saturated bound, max(TTFT, C / cap - away) instead: silicon TTFT 20.00 -> 210.00 %; all fp8 1 20.0 -> 16.0 % median 1.16;" ]

# h238: gpt-oss's InferenceX TensorRT-LLM layouts as the runs ran them
# (bench_serving.c gptoss_h200_trt / gptoss_square4, --gptoss-trt-layout).
# Fixture, 1k / 1k, by hand from the scripts and configs the comment cites:
#   k1  H200, "measured 2025-11-02", tp 8, moe_tp 8, ep 1: the script passed
#       --ep_size=$TP, so the run is k2's layout;
#   k2  the same run recorded as tp 8, moe_tp 1, ep 8 (its twin);
#   k3  H200, the 2 x 2 record tp 4, moe_tp 2, ep 2: the {tp: 2, ep: 2} entry;
#   k4  the same run recorded as tp 2, moe_tp 1, ep 2 (its twin);
#   k5  B200, attention DP: dp 4, moe_tp 2, ep 2, 64 clients: the {tp: 2,
#       ep: 2, dp-attn: true} entry;  k6  its twin, dp 2, ep 2.
# Expected: at the default (5) k1 is predicted exactly as k2 (TTFT and TPOT
# equal) and k3 apart from k4 (bit 2 off: 4 GPUs); at 7 k3 = k4 and k5 = k6,
# each on 2 GPUs; at 0 k1 apart from k2.  Counts: ep = TP on k1 alone (k2-k4
# carry ep > 1), the 2 x 2 records k3 and k5 at 7, the 16-bit cache on the
# four H200 rows.  The cache: 16 bits read twice the bytes of fp8 at every
# decode step, so k2's TPOT at 5 is above its TPOT at 1.
gk() { # id system batch tp dp moe_tp ep clients
  echo "$1,source_file=2026-04-06.csv; model=GPT-OSS-120B; silicon_concurrency=$8; measured=2025-12-15T00:00:00.000Z,trtllm,gpt-oss-dev,openai/gpt-oss-120b,$2,fp4,agg,1024,1024,nvfp4,nvfp4,$3,$4,1,$5,$6,$7,,,,,,,,,,,,,,,100,5"
}
{
  echo "$h"
  gk k1 h200_sxm 4 8 1 8 1 4
  gk k2 h200_sxm 4 8 1 1 8 4
  gk k3 h200_sxm 4 4 1 2 2 4
  gk k4 h200_sxm 4 2 1 1 2 4
  gk k5 b200_sxm 16 1 4 2 2 64
  gk k6 b200_sxm 32 1 2 1 2 64
} >"$S/silicon_sample.csv"
for L in 0 1 5 7; do
  out=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg none --gptoss-trt-layout $L \
        --rows "$tmp/rows_h238_$L.csv" 2>&1)
  printf '%s\n' "$out" | grep -F '(gptoss_h200_trt / gptoss_square4' >"$tmp/h238_count_$L.txt"
done
check "h238 counts at 5: ep = TP 1, 2 x 2 0, 16-bit cache 4" \
  grep -qF "layout 5): H200 rows given ep = TP 1, 2 x 2 records read as 2 GPUs 0, H200 KV cache 16-bit 4" "$tmp/h238_count_5.txt"
check "h238 counts at 7: ep = TP 1, 2 x 2 2, 16-bit cache 4" \
  grep -qF "layout 7): H200 rows given ep = TP 1, 2 x 2 records read as 2 GPUs 2, H200 KV cache 16-bit 4" "$tmp/h238_count_7.txt"
check "h238 counts at 0: none" \
  grep -qF "layout 0): H200 rows given ep = TP 0, 2 x 2 records read as 2 GPUs 0, H200 KV cache 16-bit 0" "$tmp/h238_count_0.txt"
h238_pairs() { # rows file -> "k1=k2 k3=k4 k5=k6" as same / apart, then k3's and k5's GPUs
  python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
eq = lambda a, b: "same" if (a["a_0"], a["a_1"]) == (b["a_0"], b["a_1"]) else "apart"
print(eq(rows[0], rows[1]), eq(rows[2], rows[3]), eq(rows[4], rows[5]), rows[2]["gpus"], rows[4]["gpus"])' "$1"
}
got=$(h238_pairs "$tmp/rows_h238_5.csv")
check "h238 at 5: k1 = k2, k3 apart from k4, k5 apart from k6, k3 / k5 on 4 GPUs: got '$got'" [ "$got" = "same apart apart 4 4" ]
got=$(h238_pairs "$tmp/rows_h238_7.csv")
check "h238 at 7: every twin the same, k3 / k5 on 2 GPUs: got '$got'" [ "$got" = "same same same 2 2" ]
got=$(h238_pairs "$tmp/rows_h238_0.csv")
check "h238 at 0: k1 apart from k2: got '$got'" [ "$got" = "apart apart apart 4 4" ]
got=$(paste -d, <(awk -F, 'NR == 3 { print $16 }' "$tmp/rows_h238_5.csv") <(awk -F, 'NR == 3 { print $16 }' "$tmp/rows_h238_1.csv") |
      awk -F, '{ print ($1 > $2 ? "up" : $1 == $2 ? "same" : "down") }')
check "h238 16-bit cache: k2's TPOT at 5 over its TPOT at 1: got '$got'" [ "$got" = "up" ]

# h242: SGLang's GLM-5 rows on Hopper read with the 16-bit KV cache SGLang's
# DSA default gives there (bench_serving.c glm5_sgl_hopper_kv, --sgl-dsa-kv).
# Fixture, 1k / 1k, 4 clients, TP 8, the "fp8" preset (the dumps' form):
#   g1 H200 (Hopper: "auto" -> bfloat16, read 16-bit);  g3 B200 (the
#   script's own fp8_e4m3: kept);  g4 a Qwen3 SGLang H200 row (not DSA:
#   kept).  (No H100 row: GLM-5's 744 GB of fp8 weights do not fit 8 x 80
#   GB, so the model refuses it.)
# Expected by hand from the rule: 1 row read 16-bit at 1, none at 0; the
# 16-bit cache reads twice fp8's bytes at each decode step, so g1's TPOT at 1
# is over its TPOT at 0, and g3's and g4's are the same at 0 and 1.
gl() { # id system model
  echo "$1,source_file=2026-03-25.csv; model=GLM-5; silicon_concurrency=4; measured=2026-03-28T06:38:24Z,sglang,glm5-hopper,$3,$2,fp8,agg,1024,1024,fp8,fp8_block,4,8,1,1,8,1,,,,,,,,,,,,,,,300,18"
}
{
  echo "$h"
  gl g1 h200_sxm zhipuai/GLM-5
  gl g3 b200_sxm zhipuai/GLM-5
  gl g4 h200_sxm Qwen/Qwen3-235B-A22B-FP8
} >"$S/silicon_sample.csv"
for L in 0 1; do
  out=$("$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none --spec-agg none --sgl-dsa-kv $L \
        --rows "$tmp/rows_h242_$L.csv" 2>&1)
  printf '%s\n' "$out" | grep -F '(glm5_sgl_hopper_kv' >"$tmp/h242_count_$L.txt"
done
check "h242 count at 1: 1 row 16-bit" grep -qF "(glm5_sgl_hopper_kv, h242; --sgl-dsa-kv 1): 1" "$tmp/h242_count_1.txt"
check "h242 count at 0: none" grep -qF "(glm5_sgl_hopper_kv, h242; --sgl-dsa-kv 0): 0" "$tmp/h242_count_0.txt"
got=$(python3 -c '
import csv, sys
a, b = (list(csv.DictReader(open(f))) for f in sys.argv[1:3])
cmp = lambda x, y: "up" if float(x) > float(y) else "same" if x == y else "down"
print(" ".join(cmp(r1["a_1"], r0["a_1"]) for r1, r0 in zip(b, a)), len(a))' "$tmp/rows_h242_0.csv" "$tmp/rows_h242_1.csv")
check "h242 TPOT at 1 against 0: g1 up, g3 g4 same: got '$got'" [ "$got" = "up same same 3" ]
