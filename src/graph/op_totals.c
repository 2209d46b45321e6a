/*
 * op_totals.c — dlp_graph_op_totals: the per-op-type totals that inspect's
 * table and JSON and the graph summaries of the language model's corpus
 * (lmtext.c) print, computed once here.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "util/util.h"

static int total_cmp(const void *a, const void *b) {
    const dlp_op_total *x = a, *y = b;
    if (x->flops != y->flops) return x->flops < y->flops ? 1 : -1;
    if (x->count != y->count) return x->count < y->count ? 1 : -1;
    return strcmp(x->op, y->op);
}

/* Row of op type t: by pointer first (the ONNX reader interns op types,
 * so a 13,000-node export has ~30 distinct pointers: one probe of `cache`
 * instead of hashing the string per node), then by name (graph builders
 * copy op_type per node).  -1 on OOM. */
typedef struct {
    const char *key[64];
    int row[64];
} row_cache;

static int row_for(row_cache *c, dlp__strmap *row_of, dlp_op_total *rows, int *nr, const char *t) {
    unsigned h = (unsigned)(((uintptr_t)t >> 4) ^ ((uintptr_t)t >> 10)) & 63; /* arena strings: 16-byte steps */
    if (c->key[h] == t) return c->row[h];
    int r = dlp__strmap_get(row_of, t);
    if (r < 0) {
        r = (*nr)++;
        rows[r].op = t;
        if (dlp__strmap_put(row_of, t, r)) return -1;
    }
    c->key[h] = t;
    c->row[h] = r;
    return r;
}

int dlp_graph_op_totals(const dlp_graph *g, dlp_op_total **out) {
    *out = NULL;
    int n = g->n_nodes, nr = 0;
    dlp_op_total *rows = calloc((size_t)(n ? n : 1), sizeof *rows);
    dlp__strmap row_of;   /* op type -> row: a 5,000-node graph has ~20 types */
    row_cache cache = {{0}, {0}};
    if (!rows || dlp__strmap_init(&row_of, 64)) {
        free(rows);
        return -1;
    }
    /* the nodes read directly (not through dlp_graph_node_at, which fills a
     * whole dlp_node_info per node): the same fields it would copy */
    for (int i = 0; i < n; i++) {
        const dlp__node *nd = &g->nodes[i];
        int r = row_for(&cache, &row_of, rows, &nr, nd->op_type);
        if (r < 0) {
            dlp__strmap_free(&row_of);
            free(rows);
            return -1;
        }
        rows[r].count++;
        rows[r].flops += nd->flops;
        rows[r].macs += nd->macs;
        rows[r].params += nd->params;
        rows[r].bytes += nd->bytes_read + nd->bytes_written;
    }
    dlp__strmap_free(&row_of);
    qsort(rows, (size_t)nr, sizeof *rows, total_cmp);
    *out = rows;
    return nr;
}
