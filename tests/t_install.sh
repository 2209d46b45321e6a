#!/usr/bin/env bash
# t_install.sh — `make install` and `make uninstall` (Makefile, issue 15):
# install under a temporary PREFIX, then use it as a user would: a C program
# built with pkg-config's flags, `import dlperf` from the installed package
# (predicting from a path and from a torch module), the man page, the bash
# completion; a DESTDIR install and its uninstall leave no file behind.
# PASS/FAIL lines for tests/run.sh.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
case "$BUILD" in build-san*|build-fuzz*) echo "# install test skipped in a sanitizer build"; exit 0 ;; esac
tmp=$(mktemp -d /tmp/dlp_t_install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "PASS $1"; }
bad() { echo "FAIL $1${2:+: $2}"; }
P="$tmp/prefix"
ver=$(sed -n 's/^#define DLP_VERSION_STRING "\(.*\)"/\1/p' include/dlperf.h)

if make -s BUILD="$BUILD" install PREFIX="$P" >"$tmp/make.log" 2>&1 &&
   [ -x "$P/bin/dlperf" ] && [ -f "$P/lib/libdlperf.so.$ver" ] && [ -L "$P/lib/libdlperf.so.${ver%%.*}" ] &&
   [ -L "$P/lib/libdlperf.so" ] && [ -f "$P/lib/libdlperf.a" ] && [ -f "$P/include/dlperf.h" ] &&
   [ -f "$P/lib/pkgconfig/dlperf.pc" ] && [ -f "$P/share/man/man1/dlperf.1" ] &&
   [ -f "$P/share/bash-completion/completions/dlperf" ] && [ -f "$P/lib/python3/dist-packages/dlperf/__init__.py" ]
then ok install_files; else bad install_files "$(tail -3 "$tmp/make.log")"; fi

# C: pkg-config's flags compile and link a program against the installed .so
cat >"$tmp/v.c" <<'C'
#include <stdio.h>
#include <dlperf.h>
int main(void) { printf("%s\n", dlp_version()); return 0; }
C
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
if [ "$(pkg-config --modversion dlperf 2>&1)" = "$ver" ] &&
   cc -std=c11 $(pkg-config --cflags dlperf) "$tmp/v.c" $(pkg-config --libs dlperf) -o "$tmp/v" 2>"$tmp/err" &&
   [ "$(LD_LIBRARY_PATH="$P/lib" "$tmp/v")" = "$ver" ]; then ok install_pkgconfig_link
else bad install_pkgconfig_link "$(head -c 300 "$tmp/err")"; fi

# Python from the installed package, the library found through _config.py
cat >"$tmp/use.py" <<'PY'
import os, sys
import dlperf
prefix = sys.argv[1]
assert dlperf.__file__.startswith(prefix), dlperf.__file__
maps = open("/proc/self/maps").read()
assert os.path.join(prefix, "lib", "libdlperf.so") in maps, "libdlperf.so not loaded from the prefix"
r = dlperf.predict("examples/resnet18.onnx", device="h100-sxm", batch=32)
assert r["latency_ms"] > 0
try:
    import torch
except ImportError:
    torch = None
if torch is not None:
    m = torch.nn.Sequential(torch.nn.Linear(64, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    t = dlperf.predict(m, torch.randn(1, 64), device="a100-40gb", batch=256)
    assert t["batch"] == 256 and t["latency_ms"] > 0
print("ok")
PY
if [ "$(env -u DLPERF_LIB PYTHONPATH="$P/lib/python3/dist-packages" /usr/bin/python3 "$tmp/use.py" "$P" 2>"$tmp/err")" = ok ]
then ok install_python_predicts; else bad install_python_predicts "$(tail -c 400 "$tmp/err")"; fi

# the man page: every command's --help is a section
man1="$P/share/man/man1/dlperf.1"
n_cmds=$("$BUILD/dlperf" --help | awk '/^commands:/{on=1; next} on && /^  [a-z]/{n++} on && /^$/{on=0} END{print n}')
if [ "$(grep -c '^\.SS ' "$man1")" = "$n_cmds" ] && grep -q "^\.TH DLPERF 1 .*dlperf $ver" "$man1" &&
   { ! command -v man >/dev/null || man -l "$man1" 2>/dev/null | grep -q -- '--device'; }
then ok install_man_page; else bad install_man_page "$(grep -c '^\.SS ' "$man1") sections for $n_cmds commands"; fi

# bash completion: commands, a command's flags, device ids after --device
comp() {   # comp WORD... : the completions of the last word
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _dlperf; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$P/share/bash-completion/completions/dlperf" "$@"
}
if comp dlperf pre | grep -qx predict && comp dlperf pre | grep -qx predict-graph &&
   comp dlperf predict --dt | grep -qx -- --dtype && comp dlperf predict x.onnx --device h100- | grep -qx h100-sxm &&
   comp dlperf mig --device a100-4 | grep -qx a100-40gb; then ok install_bash_completion
else bad install_bash_completion "$(comp dlperf pre | tr '\n' ' ')"; fi

# DESTDIR staging, then uninstall: nothing left but directories
D="$tmp/stage"
if make -s BUILD="$BUILD" install PREFIX=/usr/local DESTDIR="$D" >"$tmp/make2.log" 2>&1 &&
   [ -f "$D/usr/local/lib/libdlperf.so.$ver" ] && grep -q '^libdir=/usr/local/lib$' "$D/usr/local/lib/pkgconfig/dlperf.pc" &&
   make -s BUILD="$BUILD" uninstall PREFIX=/usr/local DESTDIR="$D" >>"$tmp/make2.log" 2>&1 &&
   [ -z "$(find "$D" ! -type d)" ]; then ok install_destdir_uninstall
else bad install_destdir_uninstall "$(find "$D" ! -type d | head -3) $(tail -2 "$tmp/make2.log")"; fi
