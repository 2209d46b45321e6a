#!/usr/bin/env bash
# bench_serve.sh — load test of `dlperf serve` on loopback with wrk: POST
# /api/llm (bert-base-uncased, batch 64 x seq 128, fp16, A100) and POST
# /api/predict with {"example":"resnet18",...} (batch 32, H100), each for
# BENCH_SECONDS (default 10) with 2 wrk threads and 16 connections against
# the server's defaults (4 threads, 4 parse slots, access log off).  Prints
# requests/s, p50/p99 latency, errors (non-2xx + socket errors; must be 0)
# and the server's RSS (VmRSS) before and after each run.  Each endpoint runs
# twice: the first run warms allocator pools and caches, so RSS growth from
# the first run's end to the second's is the leak signal (it should be noise,
# a few hundred KiB at most).  Then three back-to-back wrk -c400 runs
# (below: throughput of each, third/first, time-outs, CLOSE-WAIT left).
# Benchmarks print; they never fail the build.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
BIN="$BUILD/dlperf"
SECS=${BENCH_SECONDS:-10}
if ! command -v wrk >/dev/null 2>&1; then echo "bench_serve: wrk is not installed (apt-get install wrk); skipped"; exit 0; fi
if [ ! -x "$BIN" ]; then echo "bench_serve: $BIN missing (make); skipped"; exit 0; fi
tmp=$(mktemp -d /tmp/dlp_bench_serve.XXXXXX)
SPID=""
trap '[ -n "$SPID" ] && kill -KILL "$SPID" 2>/dev/null; rm -rf "$tmp"' EXIT

for try in 1 2 3 4 5; do
  PORT=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
  "$BIN" serve --port "$PORT" --quiet 2>"$tmp/server.log" &
  SPID=$!
  for i in $(seq 1 100); do
    kill -0 "$SPID" 2>/dev/null || break
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/api/health")" = 200 ] && break 2
    sleep 0.1
  done
  kill -KILL "$SPID" 2>/dev/null; wait "$SPID" 2>/dev/null; SPID=""
done
if [ -z "$SPID" ]; then echo "bench_serve: server did not start: $(tail -2 "$tmp/server.log")"; exit 0; fi
U="http://127.0.0.1:$PORT"

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$SPID/status"; }

cat >"$tmp/llm.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"model":"bert-base-uncased","batch":64,"seq":128,"dtype":"fp16","device":"a100-40gb"}'
LUA
cat >"$tmp/predict.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"example":"resnet18","batch":32,"device":"h100-sxm"}'
LUA

# both bodies must be answered 200 before we time them
for ep in llm predict; do
  st=$(curl -s -o "$tmp/$ep.out" -w '%{http_code}' -H 'Content-Type: application/json' \
       --data-binary "$(sed -n "s/^wrk.body = '\(.*\)'$/\1/p" "$tmp/$ep.lua")" "$U/api/$ep")
  if [ "$st" != 200 ]; then echo "bench_serve: /api/$ep answered $st: $(head -c 200 "$tmp/$ep.out")"; exit 0; fi
done

echo "dlperf serve on loopback: wrk -t2 -c16 -d${SECS}s --latency; server: 4 threads, 4 parse slots, quiet"
echo "$(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
printf '%-13s %-5s %10s %9s %9s %7s %10s %10s %9s\n' endpoint run "req/s" "p50" "p99" errors "RSS before" "RSS after" growth
rss0=$(rss_kib)
for ep in llm predict; do
  for run in 1 2; do
    before=$(rss_kib)
    wrk -t2 -c16 -d"${SECS}s" --latency -s "$tmp/$ep.lua" "$U/api/$ep" >"$tmp/$ep.$run.txt" 2>&1
    after=$(rss_kib)
    rps=$(awk '/^Requests\/sec:/ {print $2}' "$tmp/$ep.$run.txt")
    p50=$(awk '$1 == "50%" {print $2}' "$tmp/$ep.$run.txt")
    p99=$(awk '$1 == "99%" {print $2}' "$tmp/$ep.$run.txt")
    non2xx=$(awk '/Non-2xx or 3xx responses:/ {print $NF}' "$tmp/$ep.$run.txt")
    sock=$(awk '/Socket errors:/ {gsub(",", ""); print $4 + $6 + $8 + $10}' "$tmp/$ep.$run.txt")
    errors=$(( ${non2xx:-0} + ${sock:-0} ))
    printf '%-13s %-5s %10s %9s %9s %7s %7s KiB %6s KiB %+6d KiB\n' "/api/$ep" "$run" "${rps:-?}" "${p50:-?}" \
      "${p99:-?}" "$errors" "$before" "$after" $((after - before))
    if [ "$errors" != 0 ]; then sed -n '1,20p' "$tmp/$ep.$run.txt"; fi
  done
done
echo "RSS: $rss0 KiB idle after start, $(rss_kib) KiB at the end"

# Heavy load, three times in a row (issue 16): wrk -c400 on /api/llm for
# BENCH_C400_SECONDS (default 5) each, back to back.  A server that leaks
# connections (clients gone, sockets left in CLOSE-WAIT) slows down or stops
# accepting from one run to the next; the third run must keep >= 80% of the
# first's throughput, with no wrk time-outs, and no socket of the server's
# port may be left in CLOSE-WAIT 2 s after the last run.
C400=${BENCH_C400_SECONDS:-5}
echo
echo "back-to-back: wrk -t2 -c400 -d${C400}s /api/llm, three runs (default server limits)"
printf '%-5s %10s %9s %9s %9s %8s %11s\n' run "req/s" "p50" "p99" timeouts errors "CLOSE-WAIT"
r1=""; r3=""; tmo_all=0; cw=0
for run in 1 2 3; do
  wrk -t2 -c400 -d"${C400}s" --latency -s "$tmp/llm.lua" "$U/api/llm" >"$tmp/c400.$run.txt" 2>&1
  rps=$(awk '/^Requests\/sec:/ {print $2}' "$tmp/c400.$run.txt")
  p50=$(awk '$1 == "50%" {print $2}' "$tmp/c400.$run.txt")
  p99=$(awk '$1 == "99%" {print $2}' "$tmp/c400.$run.txt")
  tmo=$(awk '/Socket errors:/ {gsub(",", ""); print $NF}' "$tmp/c400.$run.txt")
  non2xx=$(awk '/Non-2xx or 3xx responses:/ {print $NF}' "$tmp/c400.$run.txt")
  sock=$(awk '/Socket errors:/ {gsub(",", ""); print $4 + $6 + $8}' "$tmp/c400.$run.txt")
  # sockets of the server's port left half-closed by clients that are gone
  sleep 2
  cw=$(ss -tan state close-wait "( sport = :$PORT )" 2>/dev/null | tail -n +2 | wc -l)
  printf '%-5s %10s %9s %9s %9s %8s %11s\n' "$run" "${rps:-?}" "${p50:-?}" "${p99:-?}" "${tmo:-0}" \
    $(( ${non2xx:-0} + ${sock:-0} )) "$cw"
  tmo_all=$((tmo_all + ${tmo:-0}))
  [ "$run" = 1 ] && r1=$rps
  [ "$run" = 3 ] && r3=$rps
done
ratio=$(awk -v a="$r1" -v b="$r3" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "?" }')
verdict=$(awk -v r="$ratio" -v t="$tmo_all" -v c="$cw" 'BEGIN { print (r >= 0.8 && t == 0 && c == 0) ? "ok" : "NOT MET" }')
echo "third/first throughput: $ratio (want >= 0.80); time-outs: $tmo_all (want 0); CLOSE-WAIT 2 s after the last run: $cw (want 0): $verdict"
# still healthy, then a graceful stop
curl -s "$U/api/health"; echo
kill -TERM "$SPID"; wait "$SPID"; echo "server exit status $? after SIGTERM"; SPID=""
