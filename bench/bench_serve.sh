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
# a few hundred KiB at most).  Benchmarks print; they never fail the build.
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
# still healthy, then a graceful stop
curl -s "$U/api/health"; echo
kill -TERM "$SPID"; wait "$SPID"; echo "server exit status $? after SIGTERM"; SPID=""
