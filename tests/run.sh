#!/usr/bin/env bash
# Runs every test binary and shell test; prints "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
pass=0; fail=0; failed=()
for t in "$BUILD"/tests/test_*; do
  [ -x "$t" ] || continue
  out=$("$t" 2>&1); rc=$?
  p=$(grep -c '^PASS ' <<<"$out"); f=$(grep -c '^FAIL ' <<<"$out")
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; out="$out
FAIL $(basename "$t") (exit $rc)"; fi
  pass=$((pass + p)); fail=$((fail + f))
  if [ "$f" -ne 0 ]; then failed+=("$(basename "$t")"); printf '%s\n' "$out" | grep -v '^PASS ' ; fi
  echo "$(basename "$t"): $p passed, $f failed"
done
for t in tests/t_*.sh; do
  [ -f "$t" ] || continue
  out=$(BUILD="$BUILD" bash "$t" 2>&1); rc=$?
  p=$(grep -c '^PASS ' <<<"$out"); f=$(grep -c '^FAIL ' <<<"$out")
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  pass=$((pass + p)); fail=$((fail + f))
  if [ "$f" -ne 0 ]; then failed+=("$(basename "$t")"); printf '%s\n' "$out" | grep -v '^PASS '; fi
  echo "$(basename "$t"): $p passed, $f failed"
done
[ ${#failed[@]} -eq 0 ] || echo "failing: ${failed[*]}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
