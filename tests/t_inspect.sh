#!/usr/bin/env bash
# CLI tests of `dlperf inspect` and `dlperf features`: the JSON keys the
# issue promises, the human table, and bad input (truncated, random bytes,
# unbound symbol, missing file, bad flag value) -> one-line error, exit 2,
# never a crash.  Prints PASS/FAIL lines.
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
D="$BUILD/dlperf"
M=examples/resnet18.onnx
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
ok() { echo "PASS $1"; }
bad() { echo "FAIL $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

"$D" inspect $M --batch 32 --json > "$T/r.json"
check json_keys "/usr/bin/python3 - '$T/r.json' <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
need = ['nodes','edges','params','macs','flops','weight_bytes','activation_bytes','peak_memory_bytes',
        'node_outputs','shapes_known','ops','macs_by_op','unknown_ops','symbols']
missing = [k for k in need if k not in d]
assert not missing, missing
assert d['symbols'] == {'batch_size': 32}, d['symbols']
assert d['shapes_known'] == d['node_outputs'] and d['unknown_ops'] == []
assert d['ops']['Conv'] == 20 and d['macs_by_op']['Conv'] > 0
PY"
# --json --nodes: the graph outputs and each node's output shapes (resnet18
# ends in 1000 ImageNet logits per image: [32, 1000] at batch 32)
"$D" inspect $M --batch 32 --json --nodes > "$T/n.json"
check json_nodes "/usr/bin/python3 - '$T/n.json' <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert [o['shape'] for o in d['outputs']] == [[32, 1000]], d['outputs']
conv = [n for n in d['node_list'] if n['op'] == 'Conv']
assert len(d['node_list']) == d['nodes'] and len(conv) == 20, len(conv)
assert conv[0]['outputs'] == [[32, 64, 112, 112]], conv[0]  # the 7x7/2 stem on 224x224
PY"
"$D" inspect $M --batch 8 > "$T/r.txt"
check text_table "grep -q 'Layer Stats Summary' '$T/r.txt' && grep -q '^  Conv ' '$T/r.txt' && grep -q 'peak memory' '$T/r.txt'"

err_case() { # name expected_rc command...
  local name=$1 want=$2; shift 2
  "$@" > "$T/out" 2> "$T/err"; local rc=$?
  local lines; lines=$(wc -l < "$T/err")
  if [ $rc -eq "$want" ] && [ "$lines" -ge 1 ] && grep -q '^dlperf: ' "$T/err" && [ $rc -lt 128 ]; then ok "$name"; else bad "$name (rc=$rc, stderr lines=$lines)"; cat "$T/err"; fi
}
head -c 3000 $M > "$T/trunc.onnx"
err_case truncated 2 "$D" inspect "$T/trunc.onnx" --batch 1
check truncated_names_file "grep -q 'trunc.onnx' '$T/err'"
head -c 5000 /dev/urandom > "$T/rand.onnx"
"$D" inspect "$T/rand.onnx" --batch 1 > /dev/null 2> "$T/err"; rc=$?
check random_bytes "[ $rc -eq 2 ] || [ $rc -eq 0 ]"
err_case unbound_symbol 2 "$D" inspect $M
check unbound_names_symbol "grep -q batch_size '$T/err' && [ \$(wc -l < '$T/err') -eq 1 ]"
err_case missing_file 2 "$D" inspect "$T/nope.onnx" --batch 1
err_case bad_batch 2 "$D" inspect $M --batch -3
err_case huge_batch 2 "$D" inspect $M --batch 99999999999999999999
err_case bad_dim 2 "$D" inspect $M --dim nonsense
err_case unknown_flag 2 "$D" inspect $M --frobnicate
err_case bad_layout 2 "$D" features $M --batch 1 --layout nope
err_case unwritable_out 2 "$D" features $M --batch 1 --out /nonexistent-dir/g.dlpg
: > "$T/empty.onnx"
err_case empty_file 2 "$D" inspect "$T/empty.onnx" --batch 1

# absurd batch: element counts overflow int64 -> clean error, not a crash
"$D" inspect $M --batch 2147483648 > /dev/null 2> "$T/err"; rc=$?
check absurd_batch "[ $rc -eq 0 ] || [ $rc -eq 2 ]"

# features: write, read back sizes, and the trappm layout width
"$D" features $M --batch 4 --layout trappm --out "$T/g.dlpg" --json > "$T/f.json"
check features_json "/usr/bin/python3 -c \"import json; d=json.load(open('$T/f.json')); assert d['nodes']==65 and d['features']==len(d['columns'])>=135 and d['edges']==72, d\""
check dlpg_written "[ -s '$T/g.dlpg' ]"
"$D" features $M --batch 4 --layout dippm --json > "$T/f2.json"
check dippm_width "/usr/bin/python3 -c \"import json; d=json.load(open('$T/f2.json')); assert d['features']==32\""
# issue 16 #5: a named pipe as the model (or any input file) is refused at
# once with one line naming it, never waits for a writer (timeout 5 -> 124)
mkfifo "$T/pipe.onnx"
fifo_case() { # name command...
  local name=$1; shift
  timeout 5 "$@" > /dev/null 2> "$T/err" < /dev/null; local rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && grep -q 'pipe.onnx.*not a regular file' "$T/err"; then ok "$name"
  else bad "$name (rc=$rc)"; cat "$T/err"; fi
}
fifo_case fifo_inspect "$D" inspect "$T/pipe.onnx" --batch 1
fifo_case fifo_features "$D" features "$T/pipe.onnx" --batch 1
fifo_case fifo_predict "$D" predict "$T/pipe.onnx" --device h100-sxm --batch 1
fifo_case fifo_db "$D" predict $M --device h100-sxm --batch 1 --db "$T/pipe.onnx"
fifo_case fifo_dataset_info "$D" dataset info "$T/pipe.onnx"
fifo_case fifo_llm_config "$D" llm --config "$T/pipe.onnx" --device h100-sxm --batch 1 --seq 8
fifo_case fifo_train_data "$D" train --data "$T/pipe.onnx" --arch sage --epochs 1 --out "$T/m.dlpm"
fifo_case fifo_data_stats "$D" data stats "$T/pipe.onnx"
fifo_case fifo_data_import "$D" data import "$T/pipe.onnx" --into "$T/s.sqlite"
err_case dir_as_model 2 "$D" inspect "$T" --batch 1
exit 0
