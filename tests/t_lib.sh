#!/usr/bin/env bash
# t_lib.sh — libdlperf.so as a product: soname and version from
# DLP_VERSION_STRING, only public dlp_ symbols exported (no dlp__
# internals, no cblas/XGB/MHD shim functions that would clash with numpy's or
# xgboost's in one process), and a small C program linked against it that
# loads a model and predicts.  Prints PASS/FAIL lines for tests/run.sh.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SO="$BUILD/libdlperf.so"
tmp=$(mktemp -d /tmp/dlp_t_lib.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "PASS $1"; }
bad() { echo "FAIL $1${2:+: $2}"; }

ver=$(sed -n 's/^#define DLP_VERSION_STRING "\(.*\)"/\1/p' include/dlperf.h)
if [ -f "$BUILD/libdlperf.so.$ver" ] && [ -L "$SO" ] &&
   readelf -d "$SO" | grep -q "Library soname: \[libdlperf.so.${ver%%.*}\]"; then ok lib_soname_version
else bad lib_soname_version "version $ver, $(readelf -d "$SO" 2>&1 | grep -i soname)"; fi

nm -D --defined-only "$SO" | awk '{print $3}' >"$tmp/syms"
leaked=$(grep -v -E '^dlp_[a-z]' "$tmp/syms"; grep -E '^dlp__' "$tmp/syms")
if [ -s "$tmp/syms" ] && [ -z "$leaked" ] && grep -qx dlp_predict "$tmp/syms" &&
   grep -qx dlp_version "$tmp/syms" && grep -qx dlp_free "$tmp/syms"; then ok lib_exports_public_only
else bad lib_exports_public_only "$(head -c 300 <<<"$leaked")"; fi

# A program linked against a sanitizer build's .so is built with the
# sanitizer too, so its runtime comes first in the process (tests/sanenv.sh);
# not in a fuzz build.
. tests/sanenv.sh
[ "$san_ok" = 1 ] || { echo "# link test skipped: no ASan runtime for $BUILD"; exit 0; }

cat >"$tmp/p.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "dlperf.h"
int main(int argc, char **argv) {
    dlp_error err = {0};
    dlp_devdb *db = NULL;
    dlp_graph *g = NULL;
    dlp_load_opts lo = {0};
    lo.batch = 8;
    if (strcmp(dlp_version(), DLP_VERSION_STRING)) return 3;
    if (dlp_devdb_load(NULL, &db, &err) || dlp_graph_load(argv[1], &lo, &g, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    dlp_prediction p;
    if (dlp_predict(g, dlp_devdb_find(db, "a100-40gb"), db, NULL, &p, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    printf("%s %.3f\n", dlp_version(), p.latency_ms);
    dlp_prediction_clear(&p);
    dlp_graph_free(g);
    dlp_devdb_free(db);
    return 0;
}
C
if cc -std=c11 $SAN_LINK -Iinclude "$tmp/p.c" -L"$BUILD" -ldlperf -o "$tmp/p" 2>"$tmp/err" &&
   LD_LIBRARY_PATH="$BUILD" "$tmp/p" examples/resnet18.onnx >"$tmp/out" 2>>"$tmp/err" &&
   grep -q "^$ver [0-9]" "$tmp/out" && [ "$(readelf -d "$tmp/p" | grep -c "NEEDED.*libdlperf.so.${ver%%.*}")" = 1 ]; then
  ok lib_link_and_predict
else bad lib_link_and_predict "$(head -c 300 "$tmp/err")"; fi

# an internal name must not link
printf 'void dlp__arena_free(void *);\nint main(void) { dlp__arena_free(0); return 0; }\n' >"$tmp/q.c"
if ! cc $SAN_LINK "$tmp/q.c" -L"$BUILD" -ldlperf -o "$tmp/q" 2>/dev/null; then ok lib_internals_do_not_link
else bad lib_internals_do_not_link "dlp__arena_free linked"; fi
