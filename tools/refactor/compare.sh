#!/usr/bin/env bash
# compare.sh BEFORE AFTER — every file of outputs.sh's BEFORE identical in
# AFTER (and no file only on one side); prints the differing cases, exit 1 if any.
set -uo pipefail
a=${1:?usage: compare.sh BEFORE AFTER}; b=${2:?usage: compare.sh BEFORE AFTER}
bad=0; total=0
for f in "$a"/* "$b"/*; do
  n=$(basename "$f"); [ -e "$a/$n" ] && [ -e "$b/$n" ] && continue
  echo "only on one side: $n"; bad=$((bad+1))
done
for f in "$a"/*; do
  n=$(basename "$f"); [ -e "$b/$n" ] || continue; total=$((total+1))
  cmp -s "$f" "$b/$n" || { echo "differs: $n"; bad=$((bad+1)); }
done
echo "compare: $total files, $bad differences"
[ $bad -eq 0 ]
