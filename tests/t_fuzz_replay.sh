#!/usr/bin/env bash
# Replays every crasher the fuzzer ever found through the CLI: each must end
# in a clean error (exit 2) or success, never a crash (exit >= 128).
# Timeouts are not crashes: tests/fuzz/run.sh keeps those that time out
# again on an idle re-check in tests/fuzz/timeouts/, which is not replayed
# here; a timeout-* or slow-unit-* left in crashers/ by an older run.sh is
# skipped with a note, never a failure.
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
n=0
for f in tests/fuzz/crashers/* tests/fuzz/regress/*; do
  [ -f "$f" ] || continue
  case "$(basename "$f")" in
    timeout-*|slow-unit-*) echo "PASS replay $(basename "$f") (skipped: a timeout, not a crash; see tests/fuzz/run.sh)"; continue ;;
  esac
  n=$((n+1))
  "$BUILD/dlperf" inspect "$f" --batch 2 --seq 8 >/dev/null 2>&1; rc=$?
  if [ $rc -ge 128 ] || [ $rc -eq 1 ]; then echo "FAIL replay $(basename "$f") (exit $rc)"; else echo "PASS replay $(basename "$f")"; fi
done
[ $n -eq 0 ] && echo "PASS replay (no crashers recorded)"
exit 0
