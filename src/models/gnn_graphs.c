/*
 * gnn_graphs.c — dlp_gnn_predict_graphs: loaded graphs in, predictions out,
 * for callers that keep a model loaded and score many candidates (NAS loops,
 * the Python GraphModel): features in the model's own layout, then one
 * collated dlp_gnn_predict_many instead of n single predictions.
 */
#include <stdlib.h>

#include "util/util.h"

dlp_status dlp_gnn_predict_graphs(const dlp_gnn *m, const dlp_graph *const *g, int n, float *out, dlp_error *err) {
    if (!m || (n > 0 && (!g || !out)) || n < 0) return dlp__err(err, DLP_EINVAL, "dlp_gnn_predict_graphs: bad arguments");
    if (!n) return DLP_OK;
    dlp_gnn_info inf;
    dlp_gnn_info_get(m, &inf);
    dlp_features **f = calloc((size_t)n, sizeof *f);
    if (!f) return dlp__err(err, DLP_ENOMEM, "dlp_gnn_predict_graphs: out of memory for %d graphs", n);
    dlp_status st = DLP_OK;
    for (int i = 0; i < n && !st; i++) st = dlp_features_build(g[i], inf.layout, &f[i], err);
    if (!st) st = dlp_gnn_predict_many(m, (const dlp_features *const *)f, n, out, err);
    for (int i = 0; i < n; i++) dlp_features_free(f[i]);
    free(f);
    return st;
}
