/*
 * rewrap_xgb_bundle.c — rewrite a bundle of XGBoost .dlpm files (files back
 * to back, as data/models/llm_models.bundle) in the one .dlpm container:
 * every model is loaded (either layout) and saved again, trees and booster
 * untouched, so predictions are the same bits.  Used once, when xgb.c moved
 * onto dlpm/container.h (issue 21); kept to show how the bundle was made.
 *
 *   cc -std=c11 -D_GNU_SOURCE -Iinclude -Isrc tools/refactor/rewrap_xgb_bundle.c build/libdlperf.a \
 *      $(pkg-config --libs libcjson sqlite3) -ldl -lm -lpthread -o /tmp/rewrap
 *   /tmp/rewrap data/models/llm_models.bundle /tmp/new.bundle
 */
#include <stdio.h>
#include <stdlib.h>

#include "dlperf.h"
#include "learn/xgb.h"

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: rewrap_xgb_bundle IN OUT\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) return perror(argv[1]), 1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *in = malloc((size_t)n);
    if (!in || fread(in, 1, (size_t)n, f) != (size_t)n) return fprintf(stderr, "%s: read failed\n", argv[1]), 1;
    fclose(f);
    FILE *o = fopen(argv[2], "wb");
    if (!o) return perror(argv[2]), 1;
    size_t off = 0, len;
    int k = 0;
    while (off < (size_t)n && (len = dlp__xgb_file_len(in + off, (size_t)n - off)) > 0) {
        dlp_error e = {0};
        dlp_xgb *m;
        void *buf;
        size_t bl;
        if (dlp_xgb_load_mem(in + off, len, argv[1], &m, &e) || dlp_xgb_save_mem(m, &buf, &bl, &e))
            return fprintf(stderr, "model %d: %s\n", k, e.msg), 1;
        if (fwrite(buf, 1, bl, o) != bl) return fprintf(stderr, "%s: write failed\n", argv[2]), 1;
        free(buf);
        dlp_xgb_free(m);
        off += len;
        k++;
    }
    if (off != (size_t)n) return fprintf(stderr, "%s: %zu trailing bytes are no model\n", argv[1], (size_t)n - off), 1;
    if (fclose(o)) return perror(argv[2]), 1;
    fprintf(stderr, "rewrapped %d models: %ld -> %s\n", k, n, argv[2]);
    return 0;
}
