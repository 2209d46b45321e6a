#!/usr/bin/env bash
# Whole-process `dlperf predict` time on ~5,000-node graphs, the current build
# against the predictor before the kernel lowering (commit 4dd39cd, "today's"
# in the issue: "predict stays under 20 ms whole-process for a 5,000-node
# graph, as a ratio against today's").
#   graphs: swin_t.onnx (torchvision weight-free export, 6,647 nodes, half of
#           them Constant/Shape bookkeeping) and build/deep_transformer.onnx
#           (bench/gen_deep_transformer.py: 100-layer decomposed BERT-base
#           encoder, 5,001 nodes, mostly compute);
#   variants: `predict FILE --device h100-sxm --batch 32` plain, --json,
#           --mode train, --kernels >/dev/null (the baseline has no --kernels:
#           its row times the baseline's plain predict);
#   timing: N runs (default 30) interleaved A B A B per variant (order flipped
#           every other run), wall ms from `date +%s%N`, min and median;
#   load-independent: valgrind --tool=callgrind instruction counts, one run
#           of each, and the current build's inclusive share per phase.
# Usage: bench/bench_predict.sh [N]   env: BASE_BIN=path/to/baseline/dlperf,
# CUR_BIN=another build to time as "current" (default build/dlperf)
# (else built once from 4dd39cd in a temporary git worktree and cached as
# build/bench_predict_base/dlperf).  Prints; never fails the build.
cd "$(dirname "$0")/.." || exit 0
BUILD=${BUILD:-build}
SHARED=${DLP_SHARED:-../shared}
N=${1:-30}
BASE_REV=4dd39cd
CUR=${CUR_BIN:-$BUILD/dlperf}
say() { echo "bench_predict: $*"; exit 0; }
[ -x "$CUR" ] || say "no $CUR (run make first); skipped"

# ---- baseline binary -------------------------------------------------------
BASE=${BASE_BIN:-$BUILD/bench_predict_base/dlperf}
if [ ! -x "$BASE" ]; then
  if ! git rev-parse -q --verify "$BASE_REV^{commit}" >/dev/null 2>&1; then
    say "baseline commit $BASE_REV not in this repository; skipped"
  fi
  wt=$(mktemp -d /tmp/dlp-pbench-base.XXXXXX) && rmdir "$wt"
  echo "building baseline $BASE_REV in $wt (once; cached as $BASE) ..."
  if git worktree add -q --detach "$wt" "$BASE_REV" >/dev/null 2>&1 &&
     make -C "$wt" -j2 build/dlperf >"$wt.log" 2>&1; then
    mkdir -p "$(dirname "$BASE")" && cp "$wt/build/dlperf" "$BASE"
  fi
  git worktree remove --force "$wt" >/dev/null 2>&1; rm -rf "$wt" "$wt.log"
  [ -x "$BASE" ] || say "baseline build of $BASE_REV failed; skipped"
fi

# ---- graphs ----------------------------------------------------------------
graphs=()
for f in "$SHARED/models/torchvision/swin_t.onnx" data/models/torchvision/swin_t.onnx; do
  [ -f "$f" ] && { graphs+=("$f"); break; }
done
if /usr/bin/python3 -c "import onnx" 2>/dev/null &&
   /usr/bin/python3 bench/gen_deep_transformer.py "$BUILD/deep_transformer.onnx" 100 >/dev/null 2>&1; then
  graphs+=("$BUILD/deep_transformer.onnx")
fi
[ ${#graphs[@]} -gt 0 ] || say "no 5k-node graph (swin_t.onnx missing, python3-onnx missing); skipped"

variants=("plain" "--json" "--mode train" "--kernels")
args_for() { # build variant -> extra args
  case "$2" in
    plain) ;;
    --kernels) [ "$1" = cur ] && echo --kernels ;;
    *) echo "$2" ;;
  esac
}
ms() { awk '{printf "%.2f", $1/1000}'; }
stat_of() { # file -> "min median" (us in, ms out)
  sort -n "$1" | awk '{a[NR]=$1} END{m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2;
    printf "%.2f %.2f", a[1]/1000, m/1000}'
}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
echo "load before: $(uptime | sed 's/.*load average/load average/')"
for g in "${graphs[@]}"; do
  nodes=$("$CUR" inspect "$g" --batch 32 --json 2>/dev/null | sed -n 's/.*"nodes":\([0-9]*\).*/\1/p')
  echo
  echo "== $(basename "$g") ($nodes nodes): dlperf predict FILE --device h100-sxm --batch 32 [variant]; wall ms over $N interleaved runs =="
  printf '%-13s %9s %9s %9s %9s %8s %8s\n' variant base_min base_med cur_min cur_med r_min r_med
  for v in "${variants[@]}"; do
    read -r -a ea <<<"$(args_for cur "$v")"; read -r -a eb <<<"$(args_for base "$v")"
    : >"$T/a"; : >"$T/b"
    "$CUR" predict "$g" --device h100-sxm --batch 32 "${ea[@]}" >/dev/null 2>&1 || { echo "$v: current build fails on $g"; continue; }
    "$BASE" predict "$g" --device h100-sxm --batch 32 "${eb[@]}" >/dev/null 2>&1  # warm the page cache
    for ((i = 0; i < N; i++)); do
      for w in $( ((i % 2)) && echo "b a" || echo "a b"); do
        if [ "$w" = a ]; then bin=$CUR; ex=("${ea[@]}"); else bin=$BASE; ex=("${eb[@]}"); fi
        s=$(date +%s%N); "$bin" predict "$g" --device h100-sxm --batch 32 "${ex[@]}" >/dev/null 2>&1; e=$(date +%s%N)
        echo $(((e - s) / 1000)) >>"$T/$w"
      done
    done
    read -r bmin bmed <<<"$(stat_of "$T/b")"; read -r amin amed <<<"$(stat_of "$T/a")"
    printf '%-13s %9s %9s %9s %9s %7.2fx %7.2fx\n' "$v" "$bmin" "$bmed" "$amin" "$amed" \
      "$(awk -v a="$amin" -v b="$bmin" 'BEGIN{print a/b}')" "$(awk -v a="$amed" -v b="$bmed" 'BEGIN{print a/b}')"
  done
done
echo
echo "load after: $(uptime | sed 's/.*load average/load average/')"

# ---- instruction counts (load-independent) -------------------------------
command -v valgrind >/dev/null 2>&1 || say "valgrind not installed; no instruction counts"
echo
echo "== callgrind instructions (Ir), one run each; cur/base ratio =="
printf '%-24s %-13s %14s %14s %8s\n' graph variant base_Ir cur_Ir ratio
for g in "${graphs[@]}"; do
  for v in "${variants[@]}"; do
    read -r -a ea <<<"$(args_for cur "$v")"; read -r -a eb <<<"$(args_for base "$v")"
    b=$(valgrind --tool=callgrind --callgrind-out-file="$T/cg.base" "$BASE" predict "$g" --device h100-sxm --batch 32 "${eb[@]}" 2>&1 >/dev/null | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
    a=$(valgrind --tool=callgrind --callgrind-out-file="$T/cg.cur" "$CUR" predict "$g" --device h100-sxm --batch 32 "${ea[@]}" 2>&1 >/dev/null | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
    [ -n "$a" ] && [ -n "$b" ] || continue
    printf '%-24s %-13s %14s %14s %7.3fx\n' "$(basename "$g")" "$v" "$b" "$a" "$(awk -v a="$a" -v b="$b" 'BEGIN{print a/b}')"
    if [ "$v" = plain ] && command -v callgrind_annotate >/dev/null 2>&1; then
      callgrind_annotate --inclusive=yes "$T/cg.cur" 2>/dev/null |
        awk -v tot="$a" '{ f = ""; for (i = 2; i <= NF; i++) if ($i ~ /\.c:/) { split($i, p, ":"); f = p[2]; sub(/\..*/, "", f) } }
          f ~ /^(dlp_graph_load|dlp__lower|dlp__predict_analytic|dlp_devdb_load|dlp__learned_parse)$/ && !seen[f]++ {
            gsub(/,/, "", $1); s = s sprintf(" %s %.1f%%", f, 100 * $1 / tot) }
          END { if (s != "") print "    current build, inclusive share of Ir:" s }'
    fi
  done
done
exit 0
