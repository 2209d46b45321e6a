# dlperf — build, test, sanitize, fuzz, bench.
#
#   make            libraries (build/libdlperf.a, build/libdlperf.so) and CLI (build/dlperf)
#   make test       every tests/test_*.c, then the shell tests in tests/*.sh
#   make sanitize   the same tests built with ASan+UBSan (build-san/)
#   make fuzz       libFuzzer target for the ONNX reader (FUZZ_SECONDS, default 60)
#   make bench      benchmarks in bench/ (never fail; print ratios)
#   make install    PREFIX=/usr/local DESTDIR=: CLI, libraries, header, dlperf.pc,
#                   dlperf.1, bash completion, Python package; make uninstall
#
# Sources are found by wildcard: a new src/<module>/*.c or tests/test_*.c
# needs no edit here.

CC       ?= cc
BUILD    ?= build
OPT      ?= -O2 -g
WERROR   ?=
PKGS     := openblas libcjson libmicrohttpd sqlite3 xgboost
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# libxgboost, libmicrohttpd and OpenBLAS are not linked: the shims
# (src/learn/xgb_shim.c, src/serve/mhd_shim.c, src/nn/blas_shim.c) dlopen
# them on first use, so commands that need none start fast (lazylib.h).
PKG_LIBS   := $(shell pkg-config --libs libcjson sqlite3 2>/dev/null) -ldl
# -fPIC: the same objects make libdlperf.a and libdlperf.so.  Hidden by
# default: include/dlperf.h alone marks what the .so exports (its public
# dlp_ declarations); exports.map keeps anything else out as a second guard
# (xgboost's header marks its functions visibility("default"), and the
# shim's definitions would inherit that).
CFLAGS_ALL = -std=c11 -D_GNU_SOURCE $(OPT) $(WERROR) -fPIC -fvisibility=hidden -Wall -Wextra -Wshadow \
             -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter \
             -Iinclude -Isrc $(PKG_CFLAGS) $(SANFLAGS) $(CFLAGS)
LDLIBS_ALL = $(PKG_LIBS) -lm -lpthread $(SANFLAGS) $(LDFLAGS)

LIB_SRC  := $(sort $(filter-out src/cli/%,$(wildcard src/*/*.c)))
CLI_SRC  := $(sort $(wildcard src/cli/*.c))
TEST_SRC := $(sort $(wildcard tests/test_*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
DEPS     := $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)

# The version comes from one place, DLP_VERSION_STRING in include/dlperf.h.
VERSION  := $(shell sed -n 's/^\#define DLP_VERSION_STRING "\(.*\)"/\1/p' include/dlperf.h)
SOMAJOR  := $(firstword $(subst ., ,$(VERSION)))
SONAME   := libdlperf.so.$(SOMAJOR)

.PHONY: all test sanitize fuzz bench clean setup golden install uninstall
all: $(BUILD)/dlperf $(BUILD)/libdlperf.so $(TEST_BIN)

# The neural-net kernels (src/nn: activations, bias rows, sparse
# aggregation, readouts) are element-wise loops over runtime widths: gcc's
# -O2 cost model ("very cheap") leaves them scalar, "dynamic" vectorises
# them (2-3x on the GNN's forward, bench_python_batch).  Element-wise only:
# without -ffast-math no float sum is reordered, so the values are the same
# bits.  Probed, so a compiler without the flag (clang) builds as before.
VEC_FLAG := $(shell $(CC) -fvect-cost-model=dynamic -Werror -x c -c /dev/null -o /dev/null 2>/dev/null && echo -fvect-cost-model=dynamic)
$(BUILD)/obj/src/nn/%.o: CFLAGS_ALL += $(VEC_FLAG)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(BUILD)/libdlperf.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# libdlperf.so.VERSION with soname libdlperf.so.MAJOR and the two usual links.
# A sanitizer build's .so needs the sanitizer runtime first in whatever
# process loads it: make sanitize's t_python.sh, t_json_bytes.sh and
# t_lib.sh preload it into python3 or link their program with it
# (tests/sanenv.sh).
$(BUILD)/libdlperf.so: $(LIB_OBJ) src/exports.map
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=src/exports.map $(OPT) \
	  -o $(BUILD)/libdlperf.so.$(VERSION) $(LIB_OBJ) $(LDLIBS_ALL)
	ln -sf libdlperf.so.$(VERSION) $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $@

$(BUILD)/dlperf: $(CLI_OBJ) $(BUILD)/libdlperf.a
	$(CC) $(CFLAGS_ALL) -o $@ $(CLI_OBJ) $(BUILD)/libdlperf.a $(LDLIBS_ALL)

$(BUILD)/tests/%: tests/%.c tests/tap.h $(BUILD)/libdlperf.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(BUILD)/libdlperf.a $(LDLIBS_ALL)

test: all
	BUILD=$(BUILD) tests/run.sh

sanitize:
	$(MAKE) BUILD=build-san OPT="-O1 -g -fno-omit-frame-pointer" \
	  SANFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined" test

FUZZ_SECONDS ?= 60
fuzz:
	$(MAKE) BUILD=build-fuzz CC=clang OPT="-O1 -g" \
	  SANFLAGS="-fsanitize=fuzzer-no-link,address,undefined" build-fuzz/libdlperf.a
	clang -O1 -g -fsanitize=fuzzer,address,undefined -Iinclude -Isrc \
	  tests/fuzz/fuzz_onnx.c build-fuzz/libdlperf.a $(PKG_LIBS) -lm -lpthread -o build-fuzz/fuzz_onnx
	tests/fuzz/run.sh build-fuzz/fuzz_onnx $(FUZZ_SECONDS)

bench: all
	BUILD=$(BUILD) bench/run.sh

golden:
	/usr/bin/python3 tools/golden/make_golden.py
	/usr/bin/python3 tools/golden/make_kernels.py
	/usr/bin/python3 tools/golden/make_patterns.py
	/usr/bin/python3 tools/golden/lm_golden.py
	/usr/bin/python3 tools/golden/make_hf_tiny.py

setup:
	scripts/setup.sh

# ---- install ------------------------------------------------------------------
# The man page and the bash completion are generated from the binary's own
# --help texts and device list (scripts/gen_*.sh), so they cannot drift.
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
LIBDIR      ?= $(PREFIX)/lib
INCLUDEDIR  ?= $(PREFIX)/include
MANDIR      ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
PYTHONDIR   ?= $(PREFIX)/lib/python3/dist-packages
PY_FILES    := $(sort $(wildcard python/dlperf/*.py))

$(BUILD)/dlperf.1: $(BUILD)/dlperf scripts/gen_man.sh
	scripts/gen_man.sh $(BUILD)/dlperf >$@.tmp.$$$$ && mv $@.tmp.$$$$ $@
$(BUILD)/dlperf.bash: $(BUILD)/dlperf scripts/gen_completion.sh
	scripts/gen_completion.sh $(BUILD)/dlperf >$@.tmp.$$$$ && mv $@.tmp.$$$$ $@

install: $(BUILD)/dlperf $(BUILD)/libdlperf.so $(BUILD)/dlperf.1 $(BUILD)/dlperf.bash
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR) \
	  $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(PYTHONDIR)/dlperf
	install -m 755 $(BUILD)/dlperf $(DESTDIR)$(BINDIR)/dlperf
	install -m 755 $(BUILD)/libdlperf.so.$(VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libdlperf.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libdlperf.so
	install -m 644 $(BUILD)/libdlperf.a $(DESTDIR)$(LIBDIR)/
	install -m 644 include/dlperf.h $(DESTDIR)$(INCLUDEDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	  -e 's|@VERSION@|$(VERSION)|' dlperf.pc.in >$(DESTDIR)$(LIBDIR)/pkgconfig/dlperf.pc
	install -m 644 $(BUILD)/dlperf.1 $(DESTDIR)$(MANDIR)/man1/dlperf.1
	install -m 644 $(BUILD)/dlperf.bash $(DESTDIR)$(BASHCOMPDIR)/dlperf
	install -m 644 $(PY_FILES) $(DESTDIR)$(PYTHONDIR)/dlperf/
	printf '# written by make install: where libdlperf.so.$(SOMAJOR) is\nLIBDIR = "%s"\n' '$(LIBDIR)' \
	  >$(DESTDIR)$(PYTHONDIR)/dlperf/_config.py

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/dlperf $(DESTDIR)$(LIBDIR)/libdlperf.so.$(VERSION) \
	  $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libdlperf.so $(DESTDIR)$(LIBDIR)/libdlperf.a \
	  $(DESTDIR)$(INCLUDEDIR)/dlperf.h $(DESTDIR)$(LIBDIR)/pkgconfig/dlperf.pc \
	  $(DESTDIR)$(MANDIR)/man1/dlperf.1 $(DESTDIR)$(BASHCOMPDIR)/dlperf
	rm -rf $(DESTDIR)$(PYTHONDIR)/dlperf

clean:
	rm -rf build build-san build-fuzz

-include $(DEPS)

$(BUILD)/obj/src/hw/devices_embed.o: data/devices.json
$(BUILD)/obj/src/llm/llm_embed.o: data/llm_configs.json data/models/llm_models.bundle
$(BUILD)/obj/src/serve/assets_embed.o: src/serve/web/index.html examples/resnet18.onnx
$(BUILD)/obj/src/lm/lm_embed.o: data/models/lm/dlperf-lm.dlpm
$(BUILD)/obj/src/learn/gnnlm_embed.o: data/models/gnnlm/dlperf-gnnlm.dlpm

# Shipped learned models (docs/learned.md): every *.dlpm / *.txt of
# data/models/learned/ in one bundle that src/predict/learned_embed.c embeds;
# the directory is a prerequisite so adding or removing a file rebuilds it.
LEARNED_FILES := $(sort $(wildcard data/models/learned/*.dlpm data/models/learned/*.txt))
data/models/learned.bundle: data/models/learned $(LEARNED_FILES)
	for f in $(LEARNED_FILES); do printf 'DLPL %s %s\n' "$${f##*/}" "$$(wc -c <"$$f")"; cat "$$f"; done >$@.tmp.$$$$ && mv $@.tmp.$$$$ $@
$(BUILD)/obj/src/predict/learned_embed.o: data/models/learned.bundle
