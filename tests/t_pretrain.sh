#!/usr/bin/env bash
# `dlperf pretrain | embed` end to end on tiny inputs (40 NAS-Bench-201
# cells, width 16, a few epochs): both methods, the pack reused, a finished
# run resumed, Ctrl-C then --resume giving the uninterrupted result, graph
# vectors of examples/resnet18.onnx (ONNX, .dlpg and JSON agree), a corpus
# CSV and t-SNE SVG, a folder source with a corrupt file, and refusals
# (missing --out, unknown method, nonexistent source, truncated encoder)
# exiting 2 with a message naming the thing.
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
D="$BUILD/dlperf"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # name, then a command that must succeed
  local name=$1; shift
  if "$@"; then echo "PASS $name"; else echo "FAIL $name"; fi
}
exit2() { # name, pattern the message must contain, then the command (exit 2, one line)
  local name=$1 pat=$2; shift 2
  "$@" >/dev/null 2>"$tmp/err2"; local rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err2")" -eq 1 ] && grep -q -- "$pat" "$tmp/err2"; then echo "PASS $name"
  else echo "FAIL $name (exit $rc)"; cat "$tmp/err2"; fi
}

SMALL="--unlabeled help-nb201 --max-graphs 40 --hidden 16 --layers 2 --threads 1 --seed 1"

# ---- refusals ----
exit2 pretrain_no_out "--out" "$D" pretrain --unlabeled help-nb201
exit2 pretrain_bad_method "--method 'vae'" "$D" pretrain --unlabeled help-nb201 --out "$tmp/x.dlpm" --method vae
exit2 pretrain_bad_number "--epochs" "$D" pretrain --unlabeled help-nb201 --out "$tmp/x.dlpm" --epochs -3
exit2 pretrain_no_source "$tmp/none" "$D" pretrain --unlabeled "$tmp/none" --out "$tmp/x.dlpm"
exit2 pretrain_bad_source "notes.txt" bash -c 'echo hi > "$1/notes.txt"; "$2" pretrain --unlabeled "$1/notes.txt" --out "$1/x.dlpm"' _ "$tmp" "$D"
exit2 embed_no_encoder "--encoder" "$D" embed examples/resnet18.onnx

# ---- GAE ----
out=$("$D" pretrain $SMALL --epochs 3 --out "$tmp/gae.dlpm" 2>"$tmp/err"); rc=$?
check pretrain_gae bash -c '[ $1 -eq 0 ] && [ -s "$2/gae.dlpm" ] && [ -s "$2/gae.dlpm.dlpc" ] && [ -s "$2/gae.dlpm.ckpt" ] \
  && grep -q "pretrained gae encoder" <<<"$3" && grep -q "40 trained" <<<"$3" && grep -q "epochs     3 of 3" <<<"$3" \
  && grep -q "wrote      $2/gae.dlpm" <<<"$3" && [ ! -s "$2/err" ]' _ $rc "$tmp" "$out"
loss1=$(grep '^loss' <<<"$out")
ino1=$(stat -c %i "$tmp/gae.dlpm.dlpc")
out=$("$D" pretrain $SMALL --epochs 3 --out "$tmp/gae.dlpm" --resume 2>&1); rc=$?
check pretrain_resume_finished bash -c '[ $1 -eq 0 ] && grep -q "epochs     3 of 3" <<<"$2" && [ "$(grep "^loss" <<<"$2")" = "$3" ]' \
  _ $rc "$out" "$loss1"
check pretrain_pack_reused test "$(stat -c %i "$tmp/gae.dlpm.dlpc")" = "$ino1"

# ---- GraphMAE with a holdout ----
out=$("$D" pretrain $SMALL --epochs 2 --method graphmae --holdout 8 --out "$tmp/mae.dlpm" --pack "$tmp/gae.dlpm.dlpc" 2>&1); rc=$?
check pretrain_graphmae bash -c '[ $1 -eq 0 ] && grep -q "pretrained graphmae encoder" <<<"$2" && grep -q "32 trained, 8 held out" <<<"$2" \
  && grep -q "held out (SCE)" <<<"$2"' _ $rc "$out"

# ---- Ctrl-C after an epoch, then --resume: the uninterrupted result ----
"$D" pretrain $SMALL --epochs 25 --out "$tmp/full.dlpm" --pack "$tmp/gae.dlpm.dlpc" >"$tmp/full.out" 2>&1
"$D" pretrain $SMALL --epochs 25 --out "$tmp/int.dlpm" --pack "$tmp/gae.dlpm.dlpc" --progress lines 2>"$tmp/int.err" >/dev/null &
pid=$!
for _ in $(seq 200); do grep -q '^epoch 2/' "$tmp/int.err" && break; sleep 0.05; done
kill -INT $pid; wait $pid; rc=$?
check pretrain_interrupted bash -c '[ $1 -eq 1 ] && grep -q "stopped by Ctrl-C after epoch" "$2/int.err" && [ -s "$2/int.dlpm.ckpt" ] \
  && [ ! -e "$2/int.dlpm" ]' _ $rc "$tmp"
out=$("$D" pretrain $SMALL --epochs 25 --out "$tmp/int.dlpm" --pack "$tmp/gae.dlpm.dlpc" --resume 2>&1); rc=$?
check pretrain_resumed_same bash -c '[ $1 -eq 0 ] && grep -q "epochs     25 of 25" <<<"$2" \
  && [ "$(grep "^loss" <<<"$2")" = "$(grep "^loss" "$3/full.out")" ]' _ $rc "$out" "$tmp"

# ---- embed one graph ----
vec=$("$D" embed examples/resnet18.onnx --encoder "$tmp/gae.dlpm"); rc=$?
check embed_onnx bash -c '[ $1 -eq 0 ] && [ "$(wc -l <<<"$2")" -eq 1 ] && [ "$(wc -w <<<"$2")" -eq 16 ]' _ $rc "$vec"
"$D" features examples/resnet18.onnx --batch 1 --out "$tmp/r.dlpg" >/dev/null
check embed_dlpg_same test "$("$D" embed "$tmp/r.dlpg" --encoder "$tmp/gae.dlpm")" = "$vec"
js=$("$D" embed examples/resnet18.onnx --encoder "$tmp/gae.dlpm" --json)
check embed_json /usr/bin/python3 -c 'import json,sys; d=json.loads(sys.argv[1]); v=sys.argv[2].split()
assert d["dim"]==16 and len(d["vector"])==16 and d["encoder"].endswith("gae.dlpm") and "resnet18" in d["model"]
assert all(abs(a-float(b))<=1e-6*max(1,abs(a)) for a,b in zip(d["vector"],v))' "$js" "$vec"
head -c 4000 "$tmp/gae.dlpm" >"$tmp/trunc.dlpm"
exit2 embed_truncated_encoder "trunc.dlpm" "$D" embed examples/resnet18.onnx --encoder "$tmp/trunc.dlpm"

# ---- embed a corpus: CSV and t-SNE map ----
"$D" embed --corpus help-nb201 --max-graphs 40 --encoder "$tmp/gae.dlpm" --pack "$tmp/gae.dlpm.dlpc" \
  --csv "$tmp/v.csv" --tsne "$tmp/map.svg" --perplexity 10 2>"$tmp/err"; rc=$?
check embed_corpus_csv bash -c '[ $1 -eq 0 ] && [ "$(wc -l <"$2/v.csv")" -eq 41 ] && head -1 "$2/v.csv" | grep -q "^name,family,v0,.*,v15$" \
  && [ "$(sed -n 2p "$2/v.csv" | awk -F, "{print NF}")" -eq 18 ] && sed -n 2p "$2/v.csv" | grep -q "^|.*~2|,nb201,"' _ $rc "$tmp"
check embed_corpus_tsne bash -c 'head -c 4 "$1/map.svg" | grep -q "<svg" && [ "$(grep -o "<circle" "$1/map.svg" | wc -l)" -eq 40 ] \
  && tail -1 "$1/map.svg" | grep -q "</svg>" && grep -q "nb201 (40)" "$1/map.svg"' _ "$tmp"

# ---- a folder source with a corrupt file: skipped with a warning naming it ----
mkdir -p "$tmp/dir"
cp "$tmp/r.dlpg" "$tmp/dir/a.dlpg"
printf 'not onnx' >"$tmp/dir/broken.onnx"
printf '{"hash":"a","family":"resnet","variant":"resnet18"}\n' >"$tmp/dir/manifest.jsonl"
"$D" embed --corpus "$tmp/dir" --encoder "$tmp/gae.dlpm" --pack "$tmp/dir.dlpc" --csv "$tmp/d.csv" 2>"$tmp/err"; rc=$?
check embed_dir_skip bash -c '[ $1 -eq 0 ] && grep -q "warning: .*broken.onnx" "$2/err" && grep -q "1 sources skipped" "$2/err" \
  && [ "$(sed -n 2p "$2/d.csv" | cut -d, -f1,2)" = "resnet18,resnet" ]' _ $rc "$tmp"
