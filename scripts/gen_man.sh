#!/usr/bin/env bash
# gen_man.sh BIN — print dlperf(1) in roff, made from the --help texts of
# BIN and of each of its commands, so the man page cannot drift from them
# (the Makefile regenerates it whenever the binary changes).
set -euo pipefail
BIN=$1
ver=$("$BIN" --version | awk '{print $2}')
# roff: a backslash is \e; a line starting with . or ' would be a request
esc() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }
cmds=$("$BIN" --help | awk '/^commands:/{on=1; next} on && /^  [a-z]/{print $1} on && /^$/{on=0}')
echo ".TH DLPERF 1 \"\" \"dlperf $ver\" \"User Commands\""
echo ".SH NAME"
echo "dlperf \\- predict deep-learning performance without running the model"
echo ".SH SYNOPSIS"
echo ".B dlperf"
echo ".I command"
echo "[options]"
echo ".SH DESCRIPTION"
echo ".nf"
"$BIN" --help | esc
echo ".fi"
echo ".SH COMMANDS"
for c in $cmds; do
  echo ".SS $c"
  echo ".nf"
  "$BIN" "$c" --help | esc
  echo ".fi"
done
cat <<'ROFF'
.SH EXIT STATUS
0 success, 1 runtime failure, 2 bad input (file, flag or value); errors are one
line on standard error naming the file and the thing.  A write that fails
(a full disk, standard output closed) is 1: "cannot write stdout: ..." or
"cannot write PATH: ...".  A flag given twice is 2 (only \-\-dim repeats).
.SH NOTES
Text output writes numbers for people (ms, s, min, h, days; $ and "< $0.01";
W, kW; J, kJ, MJ, kWh; g, kg, t; thousands separators; never an exponent);
\-\-json keeps every digit.
"dlperf help COMMAND [SUB]" is "dlperf COMMAND [SUB] \-\-help".
.SH FILES
.TP
.I dlperf.h, libdlperf.so, dlperf.pc
the C library (pkg-config --cflags --libs dlperf).  One grammar:
dlp_X_open/dlp_X_close for files and stores (dlp_store, dlp_corpus),
dlp_X_new/dlp_X_free for handles, dlp_X_clear for structs the caller owns,
dlp_X_count and dlp_X_at (a const pointer, NULL out of range) for indexed
access, options structs for how to predict (dlp_predict_opts,
dlp_llm_predict_opts).
.TP
.I dlperf (Python package)
import dlperf; dlperf.predict("model.onnx", device="h100-sxm", batch=32)
.SH SEE ALSO
The documentation in the source tree: docs/DESIGN.md, docs/predict.md, docs/python.md,
docs/api-compat.md (calls renamed to the one grammar).
ROFF
