#!/usr/bin/env bash
# Run the ONNX fuzzer for N seconds over a corpus seeded from ../shared/models
# (small files only; big inline-weight files slow the fuzzer down without
# adding structure).  Crashers land in tests/fuzz/crashers/ and are replayed
# by tests/t_fuzz_replay.sh in `make test`.
set -u
bin=$1; secs=${2:-60}
cd "$(dirname "$0")/../.."
corpus=build-fuzz/corpus; mkdir -p "$corpus" tests/fuzz/crashers
for f in ../shared/models/torchvision/*.onnx examples/*.onnx; do
  [ -f "$f" ] || continue
  [ "$(stat -c %s "$f")" -le 400000 ] && cp -n "$f" "$corpus/" 2>/dev/null
done
"$bin" "$corpus" -max_total_time="$secs" -max_len=400000 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix=tests/fuzz/crashers/ -print_final_stats=1 2>&1 | tail -25
