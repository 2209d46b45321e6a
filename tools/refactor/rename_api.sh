#!/usr/bin/env bash
# rename_api.sh — the pure renames of issue 21's "one grammar in dlperf.h",
# applied with word-boundary sed over the sources, tests, bindings, benches,
# tools, docs, examples and scripts (never build/, node_modules/, this script
# or docs/api-compat.md, whose table keeps the old names on purpose).
#
#   tools/refactor/rename_api.sh            # rename in place
#   tools/refactor/rename_api.sh --check    # list files that still use an old name (exit 1 if any)
#
# Idempotent: no new name is an old name (checked below), so running it again
# — e.g. after merging a branch written against the old names — renames only
# what is still old.  The one exception is the corpus pair, a swap (the old
# dlp_corpus_open packed sources, the old dlp_corpus_load opened a pack): it
# runs only while include/dlperf.h still declares dlp_corpus_load; after
# that, any remaining dlp_corpus_load is reported for a hand edit.
#
# The grammar (docs/api-compat.md): _open/_close for files and stores,
# _new/_free for handles (other constructors name where a handle comes from:
# _load, _train, _build, _from_*, and end in _free too), _clear for structs
# the caller owns, _count/_at for indexed access.
set -euo pipefail
cd "$(dirname "$0")/../.."

# old -> new; '#' lines are comments
TABLE=$(cat <<'EOF'
# start/stop -> new/free: a server is a handle (free stops it, then frees)
dlp_server_start            dlp_server_new
dlp_server_stop             dlp_server_free
# _free on a struct the caller owns -> _clear
dlp_prediction_free         dlp_prediction_clear
dlp_split_parts_free        dlp_split_parts_clear
dlp_eval_preds_free         dlp_eval_preds_clear
dlp_server_response_free    dlp_server_response_clear
# indexed access: X_count(h) and X_at(h, i)
dlp_graph_node              dlp_graph_node_at
dlp_graph_tensor            dlp_graph_tensor_at
dlp_graph_symbol            dlp_graph_symbol_at
dlp_graph_warning           dlp_graph_warning_at
dlp_graph_unknown_op        dlp_graph_unknown_op_at
dlp_graph_output            dlp_graph_output_at
dlp_carbon_region           dlp_carbon_region_at
dlp_dataset_get             dlp_dataset_at
dlp_dataset_graph           dlp_dataset_graph_at
dlp_dataset_target_name     dlp_dataset_target_at
dlp_dataset_device_name     dlp_dataset_device_at
dlp_llm_catalogue_id        dlp_llm_catalogue_at
dlp_xgb_feature_name        dlp_xgb_feature_at
dlp_gnn_target_name         dlp_gnn_target_at
# one metrics API (src/eval/metrics.c; NaN where a metric is undefined)
dlp_llm_metrics_compute     dlp_metrics_compute
dlp_llm_metrics             dlp_metrics
EOF
)
# the swap, guarded (see above): applied in this order
SWAP=$(cat <<'EOF'
dlp_corpus_open             dlp_corpus_pack
dlp_corpus_load             dlp_corpus_open
EOF
)

rows() { printf '%s\n' "$1" | sed -e 's/#.*//' -e '/^[[:space:]]*$/d'; }
olds=$(rows "$TABLE" | awk '{print $1}')
news=$(rows "$TABLE" | awk '{print $2}')
# a new name that is also an old one would make a second run rename again
for n in $news; do
  if printf '%s\n' $olds | grep -qx "$n"; then echo "rename_api.sh: $n is both old and new" >&2; exit 2; fi
done

files() {   # text files under the renamed folders that name any dlp_ word
  grep -rlI --exclude-dir=build --exclude-dir=node_modules --exclude-dir=__pycache__ \
       --exclude=rename_api.sh --exclude=api-compat.md -e 'dlp_' \
       include src tests python bench tools docs examples scripts README.md 2>/dev/null || true
}

if [ "${1:-}" = --check ]; then
  bad=0
  for o in $olds dlp_corpus_load; do
    hits=$(files | xargs -r grep -lw -- "$o" || true)
    [ -n "$hits" ] && { echo "$o still in: $(echo $hits)"; bad=1; }
  done
  exit $bad
fi

script=$(rows "$TABLE" | awk '{printf "s/\\<%s\\>/%s/g\n", $1, $2}')
if grep -q '\<dlp_corpus_load\>' include/dlperf.h; then
  script="$script
$(rows "$SWAP" | awk '{printf "s/\\<%s\\>/%s/g\n", $1, $2}')"
fi
n=0
for f in $(files); do
  tmp=$(mktemp)
  sed -e "$script" "$f" >"$tmp"
  if cmp -s "$f" "$tmp"; then rm -f "$tmp"; else cat "$tmp" >"$f"; rm -f "$tmp"; n=$((n+1)); fi
done
echo "rename_api.sh: $n files changed"
left=$(files | xargs -r grep -lw dlp_corpus_load || true)
if [ -n "$left" ]; then
  echo "rename_api.sh: dlp_corpus_load (now dlp_corpus_open) still in: $(echo $left) — rename by hand;" \
       "a dlp_corpus_open(sources, ...) call there means dlp_corpus_pack" >&2
fi
