#!/usr/bin/env bash
# STREAM-style triad bandwidth of this machine (bench/bench_stream.c): the
# measurement behind mem_bandwidth_gbs of cpu-amd-epyc-2c in data/devices.json.
# Usage: bench/bench_stream.sh [threads] [mi_elements] [reps]
set -e
cd "$(dirname "$0")/.."
bin=$(mktemp /tmp/bench_stream.XXXXXX)
trap 'rm -f "$bin"' EXIT
cc -O2 -march=native -pthread bench/bench_stream.c -o "$bin"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$bin" "${1:-2}" "${2:-64}" "${3:-10}"
"$bin" 1 "${2:-64}" "${3:-10}"
