/*
 * gnn_graphs.c — dlp_gnn_predict_graphs: loaded graphs in, predictions out,
 * for callers that keep a model loaded and score many candidates (NAS loops,
 * the Python GraphModel): features in the model's own layout, one graph at a
 * time.  Not dlp_gnn_predict_many: for NAS-sized graphs (~240 nodes, a
 * hidden-64 SAGE model, one BLAS thread) its collated mini-batches measured
 * 460 us per graph against 240 us for single predictions, and one graph at a
 * time keeps one graph's features alive, not n.  Thread-safe: callers split a batch
 * over threads (GraphModel does).
 */
#include "util/util.h"

dlp_status dlp_gnn_predict_graphs(const dlp_gnn *m, const dlp_graph *const *g, int n, float *out, dlp_error *err) {
    if (!m || (n > 0 && (!g || !out)) || n < 0) return dlp__err(err, DLP_EINVAL, "dlp_gnn_predict_graphs: bad arguments");
    if (!n) return DLP_OK;
    dlp_gnn_info inf;
    dlp_gnn_info_get(m, &inf);
    int T = dlp_gnn_target_count(m);
    dlp_status st = DLP_OK;
    for (int i = 0; i < n && !st; i++) {
        dlp_features *f = NULL;
        st = dlp_features_build(g[i], inf.layout, &f, err);
        if (!st) st = dlp_gnn_predict(m, f, out + (size_t)i * (size_t)T, err);
        dlp_features_free(f);
    }
    return st;
}
