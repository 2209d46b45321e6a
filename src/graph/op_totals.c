/*
 * op_totals.c — dlp_graph_op_totals: the per-op-type totals that inspect's
 * table and JSON and the graph summaries of the language model's corpus
 * (lmtext.c) print, computed once here.
 */
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

int dlp_graph_op_totals(const dlp_graph *g, dlp_op_total **out) {
    *out = NULL;
    int n = dlp_graph_node_count(g), nr = 0;
    dlp_op_total *rows = calloc((size_t)(n ? n : 1), sizeof *rows);
    dlp__strmap row_of;   /* op type -> row: a 5,000-node graph has ~20 types */
    if (!rows || dlp__strmap_init(&row_of, 64)) {
        free(rows);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        dlp_node_info ni;
        ni = *dlp_graph_node_at(g, i);
        int r = dlp__strmap_get(&row_of, ni.op_type);
        if (r < 0) {
            r = nr++;
            rows[r].op = ni.op_type;
            if (dlp__strmap_put(&row_of, ni.op_type, r)) {
                dlp__strmap_free(&row_of);
                free(rows);
                return -1;
            }
        }
        rows[r].count++;
        rows[r].flops += ni.flops;
        rows[r].macs += ni.macs;
        rows[r].params += ni.params;
        rows[r].bytes += ni.bytes_read + ni.bytes_written;
    }
    dlp__strmap_free(&row_of);
    qsort(rows, (size_t)nr, sizeof *rows, total_cmp);
    *out = rows;
    return nr;
}
