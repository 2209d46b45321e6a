#!/usr/bin/env bash
# Replays every crasher the fuzzer ever found through the CLI: each must end
# in a clean error (exit 2) or success, never a crash (exit >= 128).
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
n=0
for f in tests/fuzz/crashers/* tests/fuzz/regress/*; do
  [ -f "$f" ] || continue
  n=$((n+1))
  "$BUILD/dlperf" inspect "$f" --batch 2 --seq 8 >/dev/null 2>&1; rc=$?
  if [ $rc -ge 128 ] || [ $rc -eq 1 ]; then echo "FAIL replay $(basename "$f") (exit $rc)"; else echo "PASS replay $(basename "$f")"; fi
done
[ $n -eq 0 ] && echo "PASS replay (no crashers recorded)"
exit 0
