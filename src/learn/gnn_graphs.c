/*
 * gnn_graphs.c — many graphs through one loaded GNN, for callers that keep a
 * model loaded and score many candidates (NAS loops, the Python GraphModel):
 *
 *   dlp_gnn_predict_graphs  loaded graphs in, predictions out;
 *   dlp_gnn_predict_onnx    ONNX bytes in: parse, features and prediction in
 *                           worker threads, all in one call (no per-graph
 *                           round trip through the caller).
 *
 * One graph at a time through the GNN, not dlp_gnn_predict_many: for
 * NAS-sized graphs (~240 nodes, a hidden-64 SAGE model, one BLAS thread) its
 * collated mini-batches measured 460 us per graph against 240 us for single
 * predictions, and one graph at a time keeps one graph's features alive, not
 * n.  Each worker keeps one workspace for all its graphs.  Results are those
 * of dlp_graph_load_mem + dlp_gnn_predict per graph, bit for bit: the same
 * code runs on the same inputs, only on other threads.
 */
#include <cblas.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "learn/gnn_internal.h"
#include "util/util.h"

/* Features in the model's layout, then the prediction, in workspace ws. */
static dlp_status predict_one(const dlp_gnn *m, dlp_layout layout, const dlp_graph *g, const char *device,
                              dlp__nn_ws *ws, float *out, dlp_error *err) {
    dlp_features *f = NULL;
    dlp_status st = dlp_features_build(g, layout, &f, err);
    /* a device only matters to gnnlm, whose predictions take their own path */
    if (!st) st = device && m->ops ? dlp_gnn_predict_on(m, f, device, out, err) : dlp__gnn_predict_ws(m, f, ws, out, err);
    dlp_features_free(f);
    return st;
}

dlp_status dlp_gnn_predict_graphs(const dlp_gnn *m, const dlp_graph *const *g, int n, float *out, dlp_error *err) {
    if (!m || (n > 0 && (!g || !out)) || n < 0) return dlp__err(err, DLP_EINVAL, "dlp_gnn_predict_graphs: bad arguments");
    if (!n) return DLP_OK;
    dlp_gnn_info inf;
    dlp_gnn_info_get(m, &inf);
    size_t T = (size_t)dlp_gnn_target_count(m);
    dlp__nn_ws ws = {0};
    dlp_status st = DLP_OK;
    for (int i = 0; i < n && !st; i++) st = predict_one(m, inf.layout, g[i], NULL, &ws, out + (size_t)i * T, err);
    dlp__nn_ws_free(&ws);
    return st;
}

/* ---- dlp_gnn_predict_onnx: worker threads over a shared counter ---------------- */

typedef struct {
    const dlp_gnn *m;
    dlp_layout layout;
    const void *const *bufs;
    const size_t *lens;
    const char *const *names;
    const dlp_load_opts *opts;
    const char *device;
    int n;
    size_t T;
    float *out;
    pthread_mutex_t lock;
    int next;       /* the next index to take (under lock)                        */
    int fail;       /* the lowest failing index so far, n when none (under lock)  */
    dlp_status st;  /* its status and message                                     */
    dlp_error err;
} batch_job;

/* Indices are taken in increasing order, so when index i fails every index
 * below it has been taken and will finish: the error kept is the lowest
 * failing index's whatever the threads' timing. */
static void *batch_worker(void *arg) {
    batch_job *J = arg;
    dlp__nn_ws ws = {0};
    for (;;) {
        pthread_mutex_lock(&J->lock);
        int i = J->next < J->fail ? J->next++ : J->n;
        pthread_mutex_unlock(&J->lock);
        if (i >= J->n) break;
        dlp_error e = {0};
        dlp_graph *g = NULL;
        const char *name = J->names && J->names[i] ? J->names[i] : "model.onnx";
        dlp_status st = J->bufs[i] ? dlp_graph_load_mem(J->bufs[i], J->lens[i], name, J->opts, &g, &e)
                                   : dlp__err(&e, DLP_EINVAL, "%s: no bytes", name);
        if (!st) st = predict_one(J->m, J->layout, g, J->device, &ws, J->out + (size_t)i * J->T, &e);
        dlp_graph_free(g);
        if (st) {
            pthread_mutex_lock(&J->lock);
            if (i < J->fail) {
                J->fail = i;
                J->st = st;
                J->err = e;
            }
            pthread_mutex_unlock(&J->lock);
        }
    }
    dlp__nn_ws_free(&ws);
    return NULL;
}

dlp_status dlp_gnn_predict_onnx(const dlp_gnn *m, const void *const *bufs, const size_t *lens,
                                const char *const *names, int n, const dlp_load_opts *opts, int threads,
                                float *out, dlp_error *err) {
    return dlp_gnn_predict_onnx_on(m, bufs, lens, names, n, opts, threads, NULL, out, err);
}

dlp_status dlp_gnn_predict_onnx_on(const dlp_gnn *m, const void *const *bufs, const size_t *lens,
                                   const char *const *names, int n, const dlp_load_opts *opts, int threads,
                                   const char *device, float *out, dlp_error *err) {
    if (!m || n < 0 || (n > 0 && (!bufs || !lens || !out)) || threads < 0)
        return dlp__err(err, DLP_EINVAL, "dlp_gnn_predict_onnx: bad arguments");
    if (!n) return DLP_OK;
    batch_job J = {.m = m, .bufs = bufs, .lens = lens, .names = names, .opts = opts, .device = device, .n = n,
                   .out = out, .fail = n, .st = DLP_OK};
    dlp_gnn_info inf;
    dlp_gnn_info_get(m, &inf);
    J.layout = inf.layout;
    J.T = (size_t)dlp_gnn_target_count(m);
    if (!threads) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        threads = c < 1 ? 1 : c > 16 ? 16 : (int)c;
    }
    if (threads > n) threads = n;
    if (pthread_mutex_init(&J.lock, NULL)) return dlp__err(err, DLP_ENOMEM, "dlp_gnn_predict_onnx: no mutex");
    /* the workers are the parallelism: on small per-graph products BLAS's
     * own threads only contend with them, and spin between calls (with one
     * worker too: its CPU time per graph measured up to 2.6x) */
    int blas = openblas_get_num_threads();
    openblas_set_num_threads(1);
    pthread_t *tid = malloc(sizeof *tid * (size_t)threads);
    int started = 0;
    for (int t = 1; tid && t < threads; t++, started++)
        if (pthread_create(&tid[started], NULL, batch_worker, &J)) break;
    batch_worker(&J);    /* the caller's thread is worker 0 */
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
    free(tid);
    if (blas > 0) openblas_set_num_threads(blas);
    pthread_mutex_destroy(&J.lock);
    if (J.st) {
        if (err) *err = J.err;
        return J.st;
    }
    return DLP_OK;
}
