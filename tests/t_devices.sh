#!/usr/bin/env bash
# t_devices.sh — the `dlperf devices` and `dlperf mig` commands end to end:
# the table, one device as valid JSON, the whole database as valid JSON, a
# MIG recommendation, and the one-line error (exit 2) for an unknown device
# or a broken database file.  Prints PASS/FAIL lines for tests/run.sh.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
BIN="$BUILD/dlperf"
tmp=$(mktemp -d /tmp/dlp_t_devices.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "PASS $1"; }
bad() { echo "FAIL $1${2:+: $2}"; }

# the table: a header and one line per GPU
if "$BIN" devices >"$tmp/list" 2>"$tmp/err" && grep -q '^h100-sxm ' "$tmp/list" &&
   grep -q '^a100-40gb .* yes$' "$tmp/list" && grep -q '^t4 .* no$' "$tmp/list" &&
   [ "$(grep -c -E '^[a-z0-9.-]+ ' "$tmp/list")" -ge 30 ]; then ok devices_table
else bad devices_table "$(head -3 "$tmp/err")"; fi

# one device, JSON
if "$BIN" devices h100-sxm --json >"$tmp/h100.json" 2>"$tmp/err" &&
   python3 -m json.tool "$tmp/h100.json" >/dev/null 2>&1 &&
   python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["id"]=="h100-sxm" and d["sm_count"]==132 and len(d["mig"])==6 and d["compute_capability"]=="9.0"' "$tmp/h100.json"; then
  ok devices_one_json
else bad devices_one_json "$(head -3 "$tmp/err")"; fi

# the L2 bandwidth the L2-residency rule uses is shown where devices.json gives
# it (L4: 14.7 B/clk/SM x 58 SMs x 2.04 GHz = 1,739 GB/s, docs/devices.md) and
# is null in JSON / absent in text where it does not (H100 SXM)
if "$BIN" devices l4 --json 2>"$tmp/err" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert 1700 < d["l2_bandwidth_gbs"] < 1780' &&
   "$BIN" devices l4 2>>"$tmp/err" | grep -q '^L2 bandwidth: *1740 GB/s' &&
   python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["l2_bandwidth_gbs"] is None' "$tmp/h100.json" &&
   ! "$BIN" devices h100-sxm 2>>"$tmp/err" | grep -q '^L2 bandwidth'; then ok devices_l2_bandwidth
else bad devices_l2_bandwidth "$(head -3 "$tmp/err")"; fi

# alias lookup from the command line (what torch prints)
if "$BIN" devices 'NVIDIA A100-SXM4-40GB' 2>"$tmp/err" | grep -q '^id: *a100-40gb$'; then ok devices_alias
else bad devices_alias "$(head -3 "$tmp/err")"; fi

# today's GPUs (issue 12): FP4 in JSON and text, torch names, 4-slice MIG
if "$BIN" devices b200 --json >"$tmp/b200.json" 2>"$tmp/err" &&
   python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["fp4_tensor_tflops"]==9000 and d["fp8_tensor_tflops"]==4500 and d["compute_capability"]=="10.0" and len(d["mig"])==6' "$tmp/b200.json" &&
   "$BIN" devices h100-sxm --json | python3 -c 'import json,sys; assert json.load(sys.stdin)["fp4_tensor_tflops"] is None' &&
   "$BIN" devices 'NVIDIA GeForce RTX 5090' 2>>"$tmp/err" | grep -q '^tensor TF32 / FP8 / FP4: *104.8 / 419 / 1676 TFLOP/s$' &&
   "$BIN" devices 'AMD Instinct MI355X' 2>>"$tmp/err" | grep -q '^id: *mi355x$'; then ok devices_fp4
else bad devices_fp4 "$(head -3 "$tmp/err")"; fi
if "$BIN" mig --device rtx-pro-6000 --memory-mb 30000 >"$tmp/pro" 2>"$tmp/err" &&
   grep -q '^recommendation: *2g.48gb$' "$tmp/pro"; then ok mig_rtx_pro_6000
else bad mig_rtx_pro_6000 "$(head -3 "$tmp/err")"; fi

# the whole database, JSON
if "$BIN" devices --json >"$tmp/all.json" 2>"$tmp/err" && python3 -m json.tool "$tmp/all.json" >/dev/null 2>&1 &&
   python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["devices"])>=49 and d["carbon"]["pue"]>0' "$tmp/all.json"; then
  ok devices_all_json
else bad devices_all_json "$(head -3 "$tmp/err")"; fi

# carbon table
if "$BIN" devices --carbon 2>"$tmp/err" | grep -q '^world *475 '; then ok devices_carbon
else bad devices_carbon "$(head -3 "$tmp/err")"; fi

# MIG: 7300 MiB + 10% on an H100 -> 1g.10gb
if "$BIN" mig --device h100-sxm --memory-mb 7300 --margin 0.1 >"$tmp/mig" 2>"$tmp/err" &&
   grep -q '^recommendation: *1g.10gb$' "$tmp/mig" && grep -q '^7g.80gb ' "$tmp/mig"; then ok mig_text
else bad mig_text "$(head -3 "$tmp/err")"; fi

if "$BIN" mig --device a100-40gb --memory-mb 15000 --json >"$tmp/mig.json" 2>"$tmp/err" &&
   python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["recommendation"]=="3g.20gb" and len(d["profiles"])==5' "$tmp/mig.json"; then
  ok mig_json
else bad mig_json "$(head -3 "$tmp/err")"; fi

# nothing fits: an answer ("none" + reason), not an error
if "$BIN" mig --device a100-80gb --memory-mb 92160 >"$tmp/none" 2>"$tmp/err" &&
   grep -q '^recommendation: *none$' "$tmp/none" && grep -q '7g.80gb' "$tmp/none"; then ok mig_none
else bad mig_none "$(head -3 "$tmp/err")"; fi

# unknown device: exit 2 and one line on stderr naming it, with close ids
for cmd in "devices h10" "mig --device h10 --memory-mb 100"; do
  name="unknown_device_${cmd%% *}"
  # shellcheck disable=SC2086
  "$BIN" $cmd >"$tmp/out" 2>"$tmp/err"; rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "unknown device 'h10'" "$tmp/err" &&
     grep -q 'h100-sxm' "$tmp/err" && [ ! -s "$tmp/out" ]; then ok "$name"
  else bad "$name" "rc=$rc $(head -3 "$tmp/err")"; fi
done

# missing flag: exit 2
"$BIN" mig --device h100 >/dev/null 2>"$tmp/err"; rc=$?
if [ $rc -eq 2 ] && grep -q 'memory-mb' "$tmp/err"; then ok mig_missing_flag; else bad mig_missing_flag "rc=$rc"; fi

# a broken database file: exit 2, one line naming the file, device and field
sed '0,/"sm_count": 108/s//"sm_count": "108"/' data/devices.json >"$tmp/bad.json"
"$BIN" devices --db "$tmp/bad.json" >/dev/null 2>"$tmp/err"; rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "bad.json: device 'a100-40gb': field 'sm_count'" "$tmp/err"; then
  ok devices_bad_db
else bad devices_bad_db "rc=$rc $(head -3 "$tmp/err")"; fi

# the measured CPU: in the table as kind cpu, JSON with null GPU-only fields,
# and `dlperf mig` refuses it with one line (exit 2)
if "$BIN" devices 2>"$tmp/err" | grep -q '^cpu-amd-epyc-2c .* cpu ' &&
   "$BIN" devices epyc-2c --json >"$tmp/cpu.json" 2>>"$tmp/err" &&
   python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["kind"]=="cpu" and d["tdp_w"] is None and d["warp_size"] is None and d["mig"] is None and d["sm_count"]==2 and d["mem_bandwidth_gbs"]>0' "$tmp/cpu.json" &&
   "$BIN" devices epyc-2c 2>>"$tmp/err" | grep -q '^cores x FP32 lanes: *2 x 16'; then ok devices_cpu
else bad devices_cpu "$(head -3 "$tmp/err")"; fi
"$BIN" mig --device epyc-2c --memory-mb 100 >/dev/null 2>"$tmp/err"; rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "is a CPU" "$tmp/err"; then ok mig_cpu
else bad mig_cpu "rc=$rc $(head -2 "$tmp/err")"; fi
