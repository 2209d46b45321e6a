#!/usr/bin/env bash
# The measurement store end to end, on the CPU (no GPU needed): the harness
# tools/profile/dlperf-profile measures two tiny ResNets into a temp store,
# a second run skips them (resumable), a sweep killed with kill -9 leaves a
# store that opens, passes integrity_check and keeps its completed runs;
# then `dlperf data stats|export|import|merge` and `dataset build --from
# STORE.sqlite`; plus the Python unit tests of the samplers and measuring
# code.  Skipped (PASS with a note) when Debian's python3-torch is missing.
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
D="$BUILD/dlperf"
P=tools/profile/dlperf-profile
PY=/usr/bin/python3
tmp=$(mktemp -d)
bg=
cleanup() { [ -n "$bg" ] && kill -9 "$bg" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
export PYTHONDONTWRITEBYTECODE=1

check() { # name, then a command that must succeed
  local name=$1; shift
  if "$@"; then echo "PASS $name"; else echo "FAIL $name"; fi
}
q() { # store, SQL -> first column of the first row
  "$PY" -c 'import sqlite3,sys; r=sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone(); print(r[0] if r else "")' "$1" "$2"
}

if ! "$PY" -c 'import torch, torchvision, onnx' 2>/dev/null; then
  for t in store_unit store_measure store_resume store_kill9 store_stats store_export store_import \
           store_merge store_dataset store_schema_same; do
    echo "PASS $t (skipped: python3-torch/torchvision/onnx not installed)"
  done
  exit 0
fi

# ---- Python unit tests: samplers, weight stripping, store writer, measuring (CUDA path on stubs)
out=$("$PY" -B -m unittest discover -s tools/profile -p 'test_*.py' 2>&1); rc=$?
check store_unit test $rc -eq 0 || printf '%s\n' "$out" | tail -20
[ $rc -eq 0 ] || printf '%s\n' "$out" | tail -20

# ---- two tiny variants, measured on the CPU
cat >"$tmp/specs.jsonl" <<'EOF'
{"family":"resnet","ctor":"ResNet","resolution":32,"args":{"block":"BasicBlock","layers":[1,1,1,1],"groups":1,"width_per_group":64}}
{"family":"resnet","ctor":"ResNet","resolution":32,"args":{"block":"BasicBlock","layers":[1,1,2,1],"groups":1,"width_per_group":64}}
EOF
A="$tmp/a/runs.sqlite"
"$P" --specs "$tmp/specs.jsonl" --batch 1,2 --mode infer --warmup 1 --iters 3 --threads 1 \
  --store "$A" >"$tmp/a.log" 2>&1; rc=$?
check store_measure test $rc -eq 0
check store_measure_rows test "$(q "$A" "SELECT count(*) FROM runs WHERE outcome='ok'")" = 4 \
  -a "$(q "$A" "SELECT count(*) FROM models")" = 2 \
  -a "$(q "$A" "SELECT count(*) FROM measurements WHERE metric='latency_ms' AND n=3")" = 4
check store_measure_null_energy test "$(q "$A" "SELECT count(*) FROM measurements WHERE metric='energy_j' AND mean IS NULL AND n=0")" = 4
check store_measure_graphs bash -c 'for f in "$1"/graphs/*.onnx; do n=$(basename "$f" .onnx); \
  [ "$(sha256sum <"$f" | cut -c1-64)" = "$n" ] || exit 1; done; [ "$(ls "$1"/graphs/*.onnx | wc -l)" = 2 ]' _ "$tmp/a"
check store_measure_closed test ! -e "$A-wal" -a "$(q "$A" "PRAGMA journal_mode")" = delete
[ $rc -eq 0 ] || tail -5 "$tmp/a.log"

# ---- resumable: the same sweep again measures nothing
"$P" --specs "$tmp/specs.jsonl" --batch 1,2 --mode infer --warmup 1 --iters 3 --threads 1 \
  --store "$A" >"$tmp/a2.log" 2>&1
check store_resume bash -c 'grep -q "measured 0 .*skipped 4 already in the store" "$1" && \
  [ "$(grep -c "^\[" "$1")" = 0 ]' _ "$tmp/a2.log"
check store_resume_rows test "$(q "$A" "SELECT count(*) FROM runs")" = 4

# ---- kill -9 in the middle of a sweep: completed runs intact, the store opens
B="$tmp/b/runs.sqlite"
"$P" --specs "$tmp/specs.jsonl" --batch 1,2,3,4,5,6 --mode infer --warmup 1 --iters 40 --threads 1 \
  --store "$B" >"$tmp/b.log" 2>&1 &
bg=$!
for _ in $(seq 1 120); do
  n=$(q "$B" "SELECT count(*) FROM runs" 2>/dev/null)
  [ "${n:-0}" -ge 2 ] && break
  sleep 0.5
done
kids=$(pgrep -P "$bg" | tr '\n' ' ')   # its fork server and resource tracker
kill -9 "$bg"; wait "$bg" 2>/dev/null; bg=
for _ in $(seq 1 20); do alive=0; for k in $kids; do kill -0 "$k" 2>/dev/null && alive=1; done; [ $alive = 0 ] && break; sleep 0.5; done
check store_kill9_integrity test "$(q "$B" "PRAGMA integrity_check")" = ok
nb=$(q "$B" "SELECT count(*) FROM runs")
check store_kill9_runs test "${nb:-0}" -ge 2 -a "${nb:-0}" -lt 12
check store_kill9_complete test "$(q "$B" "SELECT count(*) FROM runs r WHERE NOT EXISTS \
  (SELECT 1 FROM measurements m WHERE m.run_id = r.id AND m.metric = 'latency_ms' AND m.n >= 3)")" = 0
check store_kill9_no_orphans test -n "$kids" -a $alive = 0
"$D" data stats "$B" >"$tmp/b.stats" 2>&1
check store_kill9_c_reads grep -q "$nb runs" "$tmp/b.stats"

# ---- data stats
"$D" data stats "$A" >"$tmp/stats" 2>&1; rc=$?
check store_stats bash -c '[ $1 -eq 0 ] && grep -q "4 runs: 4 first measurements (ok 4, oom 0, error 0)" "$2" && \
  grep -Eq "infer +resnet +2 +4 +4 +0 +0 +0 +1,2" "$2" && grep -q "noise floor" "$2" && \
  grep -Eq "energy_j +0 / 4 +unavailable" "$2"' _ $rc "$tmp/stats"
"$D" data stats "$A" --json >"$tmp/stats.json"
check store_stats_json "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); \
  assert d["runs"]==4 and d["ok"]==4 and d["devices"][0]["kind"]=="cpu" and d["devices"][0]["noise"]' "$tmp/stats.json"

# ---- export / import round trip
"$D" data export "$A" --out "$tmp/a.csv" 2>/dev/null
check store_export test "$(wc -l <"$tmp/a.csv")" = 5
check store_export_columns bash -c 'head -1 "$1" | grep -q "^run_uid,repeat_of_uid,model_hash,.*,latency_ms_n,latency_ms_mean,"' _ "$tmp/a.csv"
"$D" data import "$tmp/a.csv" --into "$tmp/c/runs.sqlite" >"$tmp/imp" 2>&1; rc=$?
"$D" data export "$tmp/c/runs.sqlite" --out "$tmp/c.csv" 2>/dev/null
check store_import bash -c '[ $1 -eq 0 ] && grep -q "runs added 4" "$2" && cmp -s "$3" "$4"' _ $rc "$tmp/imp" "$tmp/a.csv" "$tmp/c.csv"

# ---- merge shards: no duplicates, the earlier measurement kept, graphs copied
M="$tmp/m/merged.sqlite"
"$D" data merge "$M" "$A" "$B" >"$tmp/merge" 2>&1; rc=$?
keys=$("$PY" -c 'import sqlite3,sys
s=set()
for p in sys.argv[1:]:
    s |= set(sqlite3.connect(p).execute("SELECT m.hash||r.config FROM runs r JOIN models m ON m.id=r.model_id").fetchall())
print(len(s))' "$A" "$B")
check store_merge bash -c '[ $1 -eq 0 ] && [ "$2" = "$3" ]' _ $rc "$(q "$M" "SELECT count(*) FROM runs")" "$keys"
dup=$(q "$M" "SELECT count(*) FROM (SELECT model_id, device_id, config FROM runs GROUP BY 1,2,3 HAVING count(*)>1)")
check store_merge_no_duplicates test "$dup" = 0
# A measured batches 1 and 2 before B: A's runs are the ones kept
check store_merge_earlier_kept test "$(q "$M" "SELECT count(*) FROM runs WHERE uid IN ($("$PY" -c 'import sqlite3,sys; \
  print(",".join("\x27%s\x27" % r[0] for r in sqlite3.connect(sys.argv[1]).execute("SELECT uid FROM runs")))' "$A"))")" = 4
check store_merge_graphs test "$(ls "$tmp/m/graphs"/*.onnx 2>/dev/null | wc -l)" = 2
"$D" data merge "$M" "$A" >"$tmp/merge2" 2>&1
check store_merge_again grep -q "runs added 0, duplicates skipped 4" "$tmp/merge2"

# ---- both sides create the same schema
check store_schema_same bash -c '[ "$("$3" -c "$4" "$1")" = "$("$3" -c "$4" "$2")" ]' _ "$A" "$M" "$PY" \
  'import sqlite3,sys; d=sqlite3.connect(sys.argv[1]); print(d.execute("SELECT group_concat(sql, char(10)) FROM (SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name)").fetchone()[0], d.execute("PRAGMA user_version").fetchone()[0], d.execute("PRAGMA application_id").fetchone()[0])'

# ---- a store of another schema version: both sides refuse it clearly
cp "$A" "$tmp/v2.sqlite"
"$PY" -c 'import sqlite3,sys; d=sqlite3.connect(sys.argv[1]); d.execute("PRAGMA user_version = 2"); d.commit()' "$tmp/v2.sqlite"
"$D" data stats "$tmp/v2.sqlite" >/dev/null 2>"$tmp/err"; rc=$?
check store_version_c bash -c '[ $1 -ne 0 ] && grep -q "schema version 2; this dlperf reads version 1" "$2"' _ $rc "$tmp/err"
"$P" --specs "$tmp/specs.jsonl" --store "$tmp/v2.sqlite" >/dev/null 2>"$tmp/err"; rc=$?
check store_version_py bash -c '[ $1 -eq 1 ] && grep -q "schema version 2" "$2"' _ $rc "$tmp/err"
"$D" data stats "$tmp/none.sqlite" >/dev/null 2>"$tmp/err"; rc=$?
check store_missing_file bash -c '[ $1 -ne 0 ] && grep -q "none.sqlite" "$2"' _ $rc "$tmp/err"

# ---- dataset build --from the store
"$D" dataset build --from "$A" --target latency_ms,memory_mb,energy_j --layout dippm --out "$tmp/a.dlpd" >"$tmp/ds" 2>&1; rc=$?
check store_dataset bash -c '[ $1 -eq 0 ] && grep -q "4 samples on 4 graphs (2 models)" "$2"' _ $rc "$tmp/ds"
"$D" dataset info "$tmp/a.dlpd" --json >"$tmp/ds.json"
check store_dataset_content "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); t={x["name"]:x for x in d["targets"]}; \
  assert d["samples"]==4 and d["families"]=={"resnet":4} and d["batches"]=={"1":2,"2":2}; \
  assert t["latency_ms"]["n"]==4 and t["energy_j"]["missing"]==4' "$tmp/ds.json"
"$D" dataset build --from "$A" --device nosuch --out "$tmp/x.dlpd" >/dev/null 2>"$tmp/err"; rc=$?
check store_dataset_bad_device bash -c '[ $1 -eq 2 ] && grep -q "cpu-" "$2"' _ $rc "$tmp/err"

# ---- planning only (no torch in the parent): shards partition the plan, Slurm script
"$P" --family resnet,vit --variants 5 --dry-run | cut -f1 | sort >"$tmp/all"
{ "$P" --family resnet,vit --variants 5 --shard 0/2 --dry-run; "$P" --family resnet,vit --variants 5 --shard 1/2 --dry-run; } \
  2>/dev/null | cut -f1 | sort >"$tmp/shards"
check store_shards cmp -s "$tmp/all" "$tmp/shards"
"$P" --family resnet --variants 50 --device cuda:0 --store "$tmp/s/runs.sqlite" --shards 4 --emit-slurm "$tmp/job.sh" >/dev/null
check store_slurm bash -c 'bash -n "$1" && grep -q "#SBATCH --array=0-3" "$1" && grep -q -- "--shard \"\$i/4\"" "$1" && \
  grep -q "gres=gpu:1" "$1" && grep -q "dlperf data merge" "$1"' _ "$tmp/job.sh"
exit 0
