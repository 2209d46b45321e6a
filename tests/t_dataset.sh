#!/usr/bin/env bash
# `dlperf dataset build|info` on the HELP tables (first 200 archs only, to
# stay fast), and its refusals: an unknown device column exits 2 with the
# valid columns listed, a corrupted .dlpd exits 2.  Skipped (PASS with a
# note) when ../shared/data/HELP is absent.
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
SHARED=${DLP_SHARED:-../shared}
D="$BUILD/dlperf"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # name, then a command that must succeed
  local name=$1; shift
  if "$@"; then echo "PASS $name"; else echo "FAIL $name"; fi
}

if [ ! -d "$SHARED/data/HELP" ]; then
  for t in dataset_build dataset_info dataset_bad_device dataset_fbnet dataset_merge dataset_merge_layout dataset_merge_missing dataset_corrupt; do
    echo "PASS $t (skipped: $SHARED/data/HELP absent)"
  done
  exit 0
fi

out=$("$D" dataset build --from help-nb201 --device titanxp_32 --limit 200 --shared "$SHARED" \
      --out "$tmp/nb.dlpd" 2>"$tmp/err"); rc=$?
check dataset_build test $rc -eq 0 -a -s "$tmp/nb.dlpd" -a ! -s "$tmp/err"
check dataset_build_summary grep -q "200 samples on 200 graphs" <<<"$out"

info=$("$D" dataset info "$tmp/nb.dlpd"); rc=$?
check dataset_info test $rc -eq 0
check dataset_info_content bash -c 'grep -q "samples 200 on 200 graphs" <<<"$1" && grep -q "latency_ms *200 *0" <<<"$1" \
  && grep -q "0 titanxp_32 200" <<<"$1" && grep -q "families: nb201 200" <<<"$1" && grep -q "batches: 32" <<<"$1" \
  && grep -q "trappm layout" <<<"$1" && grep -Eq "fingerprint [0-9a-f]{16}" <<<"$1"' _ "$info"
json=$("$D" dataset info "$tmp/nb.dlpd" --json)
check dataset_info_json bash -c '/usr/bin/python3 -c "import json,sys; d=json.loads(sys.argv[1]); \
  assert d[\"samples\"]==200 and d[\"devices\"][0][\"name\"]==\"titanxp_32\" and d[\"batches\"]=={\"32\":200}" "$1"' _ "$json"

# the same build twice gives the same fingerprint (deterministic)
"$D" dataset build --from help-nb201 --device titanxp_32 --limit 200 --shared "$SHARED" --out "$tmp/nb2.dlpd" >/dev/null
check dataset_deterministic cmp -s "$tmp/nb.dlpd" "$tmp/nb2.dlpd"

# several settings: graphs shared per batch, device ids in the given order
"$D" dataset build --from help-nb201 --device 2080ti_32,titanxp_32,titanxp_1 --limit 20 --layout dippm \
  --shared "$SHARED" --out "$tmp/multi.dlpd" >/dev/null
info=$("$D" dataset info "$tmp/multi.dlpd")
check dataset_multi bash -c 'grep -q "samples 60 on 40 graphs" <<<"$1" && grep -q "0 2080ti_32 20, 1 titanxp_32 20, 2 titanxp_1 20" <<<"$1" \
  && grep -q "dippm layout" <<<"$1"' _ "$info"

# the pruned reading is labelled as such; it has fewer nodes than the executed one
"$D" dataset build --from help-nb201 --device titanxp_1 --limit 20 --layout dippm --nb201-graph effective \
  --shared "$SHARED" --out "$tmp/eff.dlpd" >/dev/null
"$D" dataset build --from help-nb201 --device titanxp_1 --limit 20 --layout dippm \
  --shared "$SHARED" --out "$tmp/exe.dlpd" >/dev/null
eff=$("$D" dataset info "$tmp/eff.dlpd" --json); exe=$("$D" dataset info "$tmp/exe.dlpd" --json)
check dataset_nb201_modes /usr/bin/python3 -c 'import json,sys; a=json.loads(sys.argv[1]); b=json.loads(sys.argv[2]); \
assert a["families"]=={"nb201-effective":20} and b["families"]=={"nb201":20}; \
assert a["nodes"]["total"] < b["nodes"]["total"]' "$eff" "$exe"

"$D" dataset build --from help-nb201 --device titanxp_33 --limit 2 --shared "$SHARED" --out "$tmp/x.dlpd" \
  >/dev/null 2>"$tmp/err"; rc=$?
check dataset_bad_device test $rc -eq 2 -a "$(wc -l <"$tmp/err")" -eq 1
check dataset_bad_device_lists grep -q "titanxp_32" "$tmp/err"
check dataset_bad_device_no_file test ! -e "$tmp/x.dlpd"

"$D" dataset build --from help-fbnet --device titanxp_64 --limit 20 --shared "$SHARED" --out "$tmp/fb.dlpd" >/dev/null
info=$("$D" dataset info "$tmp/fb.dlpd")
check dataset_fbnet bash -c 'grep -q "families: fbnet 20" <<<"$1" && grep -q "batches: 64" <<<"$1"' _ "$info"

# merge: NB201 (200 archs on titanxp_32) + FBNet (20 on titanxp_64) in one set;
# another layout is refused (exit 2, one line, no file)
out=$("$D" dataset merge "$tmp/nb.dlpd" "$tmp/fb.dlpd" --out "$tmp/m.dlpd"); rc=$?
info=$("$D" dataset info "$tmp/m.dlpd")
check dataset_merge bash -c 'test $1 -eq 0 && grep -q "220 samples on 220 graphs from 2 files, 2 devices" <<<"$2" \
  && grep -q "samples 220 on 220 graphs" <<<"$3" && grep -q "fbnet 20" <<<"$3" && grep -q "nb201 200" <<<"$3"' _ $rc "$out" "$info"
"$D" dataset build --from help-fbnet --device titanxp_64 --limit 5 --layout dippm --shared "$SHARED" --out "$tmp/fbd.dlpd" >/dev/null
"$D" dataset merge "$tmp/nb.dlpd" "$tmp/fbd.dlpd" --out "$tmp/m2.dlpd" >/dev/null 2>"$tmp/err"; rc=$?
check dataset_merge_layout bash -c 'test $1 -eq 2 && test "$(wc -l <"$2")" -eq 1 && grep -q "fbd.dlpd" "$2" && test ! -e "$3"' _ $rc "$tmp/err" "$tmp/m2.dlpd"
"$D" dataset merge "$tmp/nb.dlpd" "$tmp/none.dlpd" --out "$tmp/m3.dlpd" >/dev/null 2>"$tmp/err"; rc=$?
check dataset_merge_missing bash -c 'test $1 -eq 2 && test "$(wc -l <"$2")" -eq 1 && grep -q "none.dlpd" "$2" && test ! -e "$3"' _ $rc "$tmp/err" "$tmp/m3.dlpd"

# a flipped byte in the middle: checksum error, exit 2
cp "$tmp/nb.dlpd" "$tmp/bad.dlpd"
size=$(stat -c %s "$tmp/bad.dlpd")
printf '\x55' | dd of="$tmp/bad.dlpd" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
"$D" dataset info "$tmp/bad.dlpd" >/dev/null 2>"$tmp/err"; rc=$?
check dataset_corrupt test $rc -eq 2
check dataset_corrupt_msg grep -q "checksum" "$tmp/err"

"$D" dataset build --from help-nb201 --device titanxp_32 --layout bogus --out "$tmp/y.dlpd" 2>/dev/null; rc=$?
check dataset_bad_layout test $rc -eq 2
"$D" dataset build --from help-nb201 --device titanxp_32 --limit 2 --shared "$tmp/nowhere" --out "$tmp/y.dlpd" 2>/dev/null; rc=$?
check dataset_bad_shared test $rc -eq 2
exit 0
