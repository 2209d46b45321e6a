#!/usr/bin/env bash
# t_python.sh — the Python package (python/dlperf, docs/python.md) under
# Debian's python3 and python3-pytest: python/tests/*.py, one PASS/FAIL line
# per pytest test for tests/run.sh.  In a sanitizer build python3 runs with
# the ASan runtime preloaded (tests/sanenv.sh), so the library's paths behind
# the Python API (the batch API's worker threads included) run under ASan
# and UBSan too; skipped in a fuzz build.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
PY=/usr/bin/python3
. tests/sanenv.sh
[ "$san_ok" = 1 ] || { echo "# python tests skipped: no ASan runtime to preload for $BUILD"; exit 0; }
if ! "$PY" -c 'import pytest' 2>/dev/null; then
  echo "FAIL python_pytest: python3-pytest is not installed (scripts/setup.sh installs it)"
  exit 0
fi
export BUILD DLPERF_LIB="$PWD/$BUILD/libdlperf.so.0" PYTHONDONTWRITEBYTECODE=1
out=$("${SAN_ENV[@]}" "$PY" -m pytest -p no:cacheprovider -rA -q python/tests 2>&1); rc=$?
# -rA summary lines: "PASSED python/tests/test_x.py::test_name", "FAILED ...::name - why"
printf '%s\n' "$out" | sed -n -e 's/^PASSED [^:]*::\([^ ]*\).*/PASS python_\1/p' \
                              -e 's/^SKIPPED .*::\([^ ]*\).*/PASS python_\1 (skipped)/p' \
                              -e 's/^FAILED [^:]*::\([^ ]*\)\(.*\)/FAIL python_\1\2/p' \
                              -e 's/^ERROR [^:]*::\([^ ]*\)\(.*\)/FAIL python_\1\2/p'
if [ $rc -ne 0 ] && ! grep -q '^FAILED\|^ERROR' <<<"$out"; then
  echo "FAIL python_pytest: exit $rc: $(tail -5 <<<"$out" | tr '\n' ' ')"
fi
