/*
 * fuzz_onnx.c — libFuzzer target for the ONNX reader, linker, shape
 * inference and feature builder.  Any crash, leak, or sanitizer report is a
 * finding; errors returned cleanly are the expected outcome for bad input.
 */
#include <stddef.h>
#include <stdint.h>

#include "dlperf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    dlp_load_opts o = {0};
    o.batch = 2;
    o.seq = 8;
    o.allow_unbound = 1;
    dlp_graph *g = NULL;
    dlp_error e = {0};
    if (dlp_graph_load_mem(data, size, "fuzz.onnx", &o, &g, &e) == DLP_OK) {
        dlp_features *f = NULL;
        if (dlp_features_build(g, DLP_LAYOUT_TRAPPM, &f, &e) == DLP_OK) dlp_features_free(f);
        dlp_graph_free(g);
    }
    return 0;
}
