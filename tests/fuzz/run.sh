#!/usr/bin/env bash
# Run the ONNX fuzzer for N seconds over a corpus seeded from ../shared/models
# (small files only; big inline-weight files slow the fuzzer down without
# adding structure).  libFuzzer's artifacts land in build-fuzz/artifacts/
# first and are sorted afterwards:
#   crash-*, leak-*, oom-*  -> tests/fuzz/crashers/ (replayed by
#                              tests/t_fuzz_replay.sh in `make test`)
#   timeout-*               -> re-checked alone once the fuzzing is over (after
#                              waiting up to FUZZ_IDLE_WAIT s, default 60, for the
#                              load to fall below the core count): one that runs
#                              within the limit was the machine's load and is
#                              dropped; one that times out again is kept in
#                              tests/fuzz/timeouts/ (never replayed as a failure);
#                              one that crashes on the re-check is a crasher
#   slow-unit-*             -> dropped
set -u
bin=$1; secs=${2:-60}
limit=${FUZZ_TIMEOUT:-10}
idle_wait=${FUZZ_IDLE_WAIT:-60}
cd "$(dirname "$0")/../.."
corpus=build-fuzz/corpus; art=build-fuzz/artifacts
mkdir -p "$corpus" "$art" tests/fuzz/crashers tests/fuzz/timeouts
for f in ../shared/models/torchvision/*.onnx examples/*.onnx; do
  [ -f "$f" ] || continue
  [ "$(stat -c %s "$f")" -le 400000 ] && cp -n "$f" "$corpus/" 2>/dev/null
done
"$bin" "$corpus" -max_total_time="$secs" -max_len=400000 -timeout="$limit" -rss_limit_mb=2048 \
  -artifact_prefix="$art/" -print_final_stats=1 2>&1 | tail -25

wait_idle() { # until the 1-minute load is below the core count, at most idle_wait s
  local cores; cores=$(nproc 2>/dev/null || echo 1)
  for _ in $(seq "$idle_wait"); do
    awk -v c="$cores" '{ exit !($1 < c) }' /proc/loadavg 2>/dev/null && return
    sleep 1
  done
}

for f in "$art"/*; do
  [ -f "$f" ] || continue
  name=$(basename "$f")
  case "$name" in
    crash-*|leak-*|oom-*)
      mv -f "$f" tests/fuzz/crashers/ && echo "fuzz: crasher tests/fuzz/crashers/$name" ;;
    timeout-*)
      wait_idle
      out=$(timeout $((limit * 3 + 5)) "$bin" -timeout="$limit" -rss_limit_mb=2048 -runs=1 "$f" 2>&1); rc=$?
      if [ $rc -eq 0 ]; then
        rm -f "$f"; echo "fuzz: $name ran within ${limit} s when re-checked alone: the machine's load, dropped"
      elif [ $rc -eq 124 ] || [ $rc -eq 70 ] || grep -q 'libFuzzer: timeout' <<<"$out"; then
        mv -f "$f" tests/fuzz/timeouts/ && echo "fuzz: $name times out again: kept in tests/fuzz/timeouts/ (not a crash)"
      else
        mv -f "$f" "tests/fuzz/crashers/crash-from-$name"
        echo "fuzz: $name crashes when re-checked (exit $rc): tests/fuzz/crashers/crash-from-$name"
      fi ;;
    *)
      rm -f "$f" ;;
  esac
done
exit 0
