#!/usr/bin/env bash
# The "<model>-gap-analysis.csv" rows that are InferenceMAX runs read from
# their twin's record (docs/llm.md, h239; bench_serving gap_twin_of,
# --no-gap-twin turns it off), on silicon rows written here: Qwen3.5-397B-A17B
# fp8 on 4 x B200, SGLang, 16 clients.
#   i1: an InferenceMAX dump row, 1k / 1k, measured 2026-03-20, 600.7576 / 10.0123 ms
#   g1: the gap file's row of the same run, 600.76 / 10.01 (the file's two
#       decimals: 0.0024 and 0.0023 off, within half a hundredth) -> read as i1
#   g2: the same configuration at 600.77 (0.0124 off)             -> no twin
#   i2, i3: one 8k / 1k measurement in two dumps, measured on two days
#   g3: the gap file's row of that measurement -> twins disagree, no twin
# By hand: the counts are 1 read, 1 without a twin, 1 whose twins disagree;
# g1's predicted TTFT and TPOT are i1's, its measured TTFT its own 600.76
# and its source label the gap file's (src 1); with --no-gap-twin g1 is
# predicted as g2 (the same configuration read the same way) and nothing is
# counted.
. "$(dirname "$0")/bench_fixture.sh"
build_bench_serving
silicon_fixture
row() { # id source isl osl ttft tpot
  echo "$1,$2,sglang,0.5.9,Qwen/Qwen3.5-397B-A17B,b200_sxm,fp8,agg,$3,$4,fp8_block,fp8_block,16,4,1,1,4,1,,,,,,,,,,,,,,,$5,$6"
}
imax() { echo "source_file=2026-03-25.csv; model=Qwen3.5-397B; silicon_concurrency=16; measured=$1; wip=False; image=lmsysorg/sglang:v0.5.9-cu130"; }
gap='source_file=qwen3.5-397b-gap-analysis.csv; silicon_concurrency=16'
{
  echo "$h"
  row i1 "$(imax 2026-03-20T22:08:23Z)" 1024 1024 600.7576 10.0123
  row g1 "$gap" 1024 1024 600.76 10.01
  row g2 "$gap" 1024 1024 600.77 10.01
  row i2 "$(imax 2026-03-20T22:08:23Z)" 8192 1024 978.4412 16.3811
  row i3 "$(imax 2026-03-24T01:00:00Z)" 8192 1024 978.4412 16.3811
  row g3 "$gap" 8192 1024 978.44 16.38
} >"$S/silicon_sample.csv"
b() { "$tmp/bench_serving" "$tmp/data" silicon --analytic-only --recipes none "$@" 2>&1; }
out=$(b --rows "$tmp/on.csv")
check "gap twin: 1 read, 1 without a twin, 1 whose twins disagree" \
  grep -qF "read as their InferenceMAX twin (gap_twin_of, h239): 1, no twin 1, twins that disagree 1" <<<"$out"
out=$(b --no-gap-twin --rows "$tmp/off.csv")
none() { ! grep -qF 'read as their InferenceMAX twin' <<<"$out"; }
check "gap twin: --no-gap-twin counts nothing" none
# rows in file order (i1 g1 g2 i2 i3 g3); columns 13 y_0, 14 a_0, 16 a_1, 29 src
f() { awk -F, -v n="$2" -v c="$3" 'NR == n + 1 { print $c }' "$1"; }
check "gap twin: g1 predicted as i1 (TTFT)" [ "$(f "$tmp/on.csv" 2 14)" = "$(f "$tmp/on.csv" 1 14)" ]
check "gap twin: g1 predicted as i1 (TPOT)" [ "$(f "$tmp/on.csv" 2 16)" = "$(f "$tmp/on.csv" 1 16)" ]
check "gap twin: g1 keeps its measured TTFT: $(f "$tmp/on.csv" 2 13)" [ "$(f "$tmp/on.csv" 2 13)" = 600.76 ]
check "gap twin: g1 keeps its file's label (src 1): $(f "$tmp/on.csv" 2 29)" [ "$(f "$tmp/on.csv" 2 29)" = 1 ]
check "gap twin: off, g1 predicted as g2" [ "$(f "$tmp/off.csv" 2 14)" = "$(f "$tmp/off.csv" 3 14)" ]
check "gap twin: g2 (no twin) the same either way" [ "$(f "$tmp/off.csv" 3 14)" = "$(f "$tmp/on.csv" 3 14)" ]
check "gap twin: the twin's record moves the answer (i1 and g2 differ)" [ "$(f "$tmp/on.csv" 1 14)" != "$(f "$tmp/on.csv" 3 14)" ]
