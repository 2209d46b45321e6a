# sanenv.sh — sourced by the shell tests that load libdlperf.so into a
# process the build did not link: python3 (t_python.sh, t_json_bytes.sh) or
# a program linked against the .so (t_lib.sh).
#
# A sanitizer build's libdlperf.so (build-san*, make sanitize) needs the ASan
# runtime first in such a process: SAN_ENV is an `env` prefix that preloads
# gcc's libasan.so, with libstdc++ after it (ASan's __cxa_throw interceptor
# must find the real one at start-up, or the first C++ exception, torch's,
# aborts the process), and turns LeakSanitizer off (python3's own objects
# at exit are not dlperf's; the C tests and the CLI keep leak checking).
# UBSan's runtime comes in as a dependency of the .so.  SAN_LINK is the
# flags a program linked against the .so is built with.  Empty for a plain
# build.  A fuzz build (build-fuzz*: clang's runtime with libFuzzer) or a
# compiler without libasan.so sets san_ok=0: those callers skip.
SAN_ENV=()
SAN_LINK=
san_ok=1
case "${BUILD:-build}" in
  build-fuzz*) san_ok=0 ;;
  build-san*)
    san_asan=$(${CC:-cc} -print-file-name=libasan.so 2>/dev/null)
    san_cxx=$(${CC:-cc} -print-file-name=libstdc++.so.6 2>/dev/null)
    [ -f "$san_cxx" ] || san_cxx=
    if [ -f "$san_asan" ]; then
      SAN_ENV=(env "LD_PRELOAD=$san_asan${san_cxx:+ $san_cxx}" "ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}")
      SAN_LINK="-fsanitize=address,undefined"
    else
      san_ok=0
    fi ;;
esac
