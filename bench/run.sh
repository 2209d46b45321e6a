#!/usr/bin/env bash
# Runs every benchmark (bench/bench_*.sh); benchmarks print, never fail CI.
cd "$(dirname "$0")/.."
for b in bench/bench_*.sh; do
  echo "### $b"
  bash "$b" || echo "($b failed; benchmarks never fail the build)"
done
exit 0
