#!/usr/bin/env bash
# tests/fuzz/run.sh sorts libFuzzer's artifacts (issue 16 #12): crashes go to
# tests/fuzz/crashers/ (replayed by make test), a timeout is re-checked alone
# and dropped when it then runs in time (a loaded machine), kept apart in
# tests/fuzz/timeouts/ when it times out again; t_fuzz_replay.sh never fails
# on a timeout.  A stand-in for the fuzzer binary plays libFuzzer's part, in
# a copy of the scripts under a temporary folder (the tree is not touched).
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
ok() { echo "PASS $1"; }
bad() { echo "FAIL $1"; }
R="$T/repo"
mkdir -p "$R/tests/fuzz"
cp tests/fuzz/run.sh "$R/tests/fuzz/"
cp tests/t_fuzz_replay.sh "$R/tests/"
# the stand-in: a fuzzing run writes three artifacts; a run on one file
# (the re-check) passes, times out (libFuzzer's exit 70) or crashes by name
cat > "$T/fake_fuzzer" <<'SH'
#!/usr/bin/env bash
prefix=""; files=()
for a in "$@"; do
  case "$a" in -artifact_prefix=*) prefix=${a#-artifact_prefix=} ;; -*) ;; *) files+=("$a") ;; esac
done
if [ -n "$prefix" ]; then
  printf 'x' > "${prefix}timeout-loaded"; printf 'y' > "${prefix}timeout-real"
  printf 'z' > "${prefix}crash-abc"; printf 'w' > "${prefix}slow-unit-1"
  echo "stat::number_of_executed_units: 10"; exit 0
fi
case "$(basename "${files[0]}")" in
  timeout-real) echo "==1== ERROR: libFuzzer: timeout after 10 seconds"; exit 70 ;;
  *) echo "Executed ${files[0]} in 3 ms"; exit 0 ;;
esac
SH
chmod +x "$T/fake_fuzzer"
FUZZ_IDLE_WAIT=0 bash "$R/tests/fuzz/run.sh" "$T/fake_fuzzer" 1 > "$T/log" 2>&1
crashers=$(cd "$R/tests/fuzz/crashers" 2>/dev/null && ls | tr '\n' ' ')
timeouts=$(cd "$R/tests/fuzz/timeouts" 2>/dev/null && ls | tr '\n' ' ')
if [ "$crashers" = "crash-abc " ]; then ok fuzz_crash_kept_timeouts_apart; else bad "fuzz_crash_kept_timeouts_apart (crashers: $crashers)"; cat "$T/log"; fi
if [ "$timeouts" = "timeout-real " ]; then ok fuzz_timeout_rechecked; else bad "fuzz_timeout_rechecked (timeouts: $timeouts)"; fi
if grep -q 'timeout-loaded ran within' "$T/log"; then ok fuzz_timeout_dropped_note; else bad fuzz_timeout_dropped_note; fi
# a timeout left in crashers/ by an older run: not a failure of make test
mkdir -p "$R/build"; printf '#!/bin/sh\nsleep 0\nexit 1\n' > "$R/build/dlperf"; chmod +x "$R/build/dlperf"
printf 'q' > "$R/tests/fuzz/crashers/timeout-old"
BUILD=build bash "$R/tests/t_fuzz_replay.sh" > "$T/replay" 2>&1
if grep -q '^PASS replay timeout-old' "$T/replay" && grep -q '^FAIL replay crash-abc' "$T/replay"; then ok fuzz_replay_skips_timeouts
else bad fuzz_replay_skips_timeouts; cat "$T/replay"; fi
exit 0
