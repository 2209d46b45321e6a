#!/usr/bin/env bash
# tools/inferencemax/gap_ttft_in_g.py (docs/llm.md, h221) on dump rows written
# by hand, in aiconfigurator's silicon_sample.csv layout:
#   file A (Llama-like), TP 1, 8 clients, 1,024-token prompts, TPOT 8 ms,
#     TTFT = 50 + G x 8 / 8 at G 128, 256, 512: 178, 306, 562 ms
#     -> the line through them: b 1.00, a 50.0 ms
#   file B (Qwen-like), same grid, TPOT 10 ms, TTFT 200 ms at every G
#     -> b 0.00, a 200.0 ms
#   file C, one task (T1) of 2 workers: 1 client TPOT 8 ms (its row's batch
#     1 = its clients: not a several-worker row); 8 clients, batch 4
#     -> 8 / 4 = 2.0 workers, TPOT 40 ms = 40 / 8 = 5.00 x the one client's
. "$(dirname "$0")/bench_fixture.sh"
silicon_fixture
a='source_file=/x/aic-auto-gap-analysis/data/h100_sxm/trtllm/1.0.0rc3/A.csv'
b='source_file=/x/aic-auto-gap-analysis/data/h100_sxm/trtllm/1.0.0rc3/B.csv'
c='source_file=/x/aic-auto-gap-analysis/data/gb200/trtllm/1.3.0rc1/C.csv'
row() { # id, source, osl, batch, tp, ttft, tpot
  echo "$1,$2,trtllm,1.0.0rc3,m/M,h100_sxm,,agg,1024,$3,,,$4,$5,1,,1,1,,,,,,,,,,,,,,,$6,$7"
}
{
  echo "$h"
  row a1 "$a; silicon_concurrency=8" 128 8 1 178 8
  row a2 "$a; silicon_concurrency=8" 256 8 1 306 8
  row a3 "$a; silicon_concurrency=8" 512 8 1 562 8
  row b1 "$b; silicon_concurrency=8" 128 8 1 200 10
  row b2 "$b; silicon_concurrency=8" 256 8 1 200 10
  row b3 "$b; silicon_concurrency=8" 512 8 1 200 10
  row c1 "$c; gtl_task_id=T1; silicon_concurrency=1" 500 1 2 100 8
  row c2 "$c; gtl_task_id=T1; silicon_concurrency=8" 500 4 2 500 40
} >"$tmp/s.csv"
out=$(python3 tools/inferencemax/gap_ttft_in_g.py "$tmp/s.csv" 2>&1)
check "A: the first token waits one end-spacing (b 1.00, a 50.0)" \
  grep -q 'TTFT = a + b G TPOT / C: h100_sxm/trtllm/1.0.0rc3/A.csv C 8: 1 groups, b 1.00, a 50.0 ms' <<<"$out"
check "B: flat in G (b 0.00, a 200.0)" \
  grep -q 'TTFT = a + b G TPOT / C: h100_sxm/trtllm/1.0.0rc3/B.csv C 8: 1 groups, b 0.00, a 200.0 ms' <<<"$out"
check "C: 2 workers, 5.00 x the one client's TPOT" \
  grep -q 'workers gb200/trtllm/1.3.0rc1/C.csv task T1: clients 8 batch 4 -> 2.0 workers, TP 2, 1024x500, TPOT 40.0 ms = 5.00 x one client.s 8.0 ms' <<<"$out"
check "C's one-client row is no several-worker row" bash -c '! grep -q "clients 1 batch" <<<"$1"' _ "$out"
