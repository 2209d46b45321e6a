/*
 * nn_graph.c — graph batches for the GNN layers: CSR construction and
 * transpose, the block-diagonal batch (many graphs in one node set with a
 * graph id per node), neighbour aggregation over CSR rows and the per-graph
 * readouts, each with its backward.
 *
 * Why CSR by destination: message passing gathers, for every node, over
 * its incoming edges; with rows = destinations that is a contiguous scan
 * and the forward is race-free.  The backward of a gather is a scatter
 * (done serially here) — the transpose `out` is kept for the layers and
 * callers that want to gather over outgoing edges instead.
 */
#include "nn/nn.h"

#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* ---- CSR ------------------------------------------------------------- */

void dlp__nn_csr_free(dlp__nn_csr *a) {
    if (!a) return;
    free(a->rowptr);
    free(a->col);
    memset(a, 0, sizeof *a);
}

static dlp_status csr_alloc(dlp__nn_csr *a, int32_t n_rows, int32_t n_cols,
                            int32_t nnz) {
    memset(a, 0, sizeof *a);
    a->rowptr = calloc((size_t)n_rows + 1, sizeof *a->rowptr);
    a->col = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *a->col);
    if (!a->rowptr || !a->col) {
        dlp__nn_csr_free(a);
        return DLP_ENOMEM;
    }
    a->n_rows = n_rows;
    a->n_cols = n_cols;
    a->nnz = nnz;
    return DLP_OK;
}

dlp_status dlp__nn_csr_from_pairs(dlp__nn_csr *a, int32_t n_rows, int32_t n_cols,
                                  int32_t nnz, const int32_t *row,
                                  const int32_t *col, dlp_error *err) {
    memset(a, 0, sizeof *a);
    if (n_rows < 0 || n_cols < 0 || nnz < 0)
        return dlp__err(err, DLP_EINVAL, "csr: negative size (%d rows, %d cols, %d entries)",
                        (int)n_rows, (int)n_cols, (int)nnz);
    for (int32_t e = 0; e < nnz; e++)
        if (row[e] < 0 || row[e] >= n_rows || col[e] < 0 || col[e] >= n_cols)
            return dlp__err(err, DLP_EGRAPH,
                            "csr: entry %d (%d, %d) out of range (%d rows, %d cols)",
                            (int)e, (int)row[e], (int)col[e], (int)n_rows, (int)n_cols);
    if (csr_alloc(a, n_rows, n_cols, nnz) != DLP_OK)
        return dlp__err(err, DLP_ENOMEM, "csr: out of memory for %d entries", (int)nnz);
    /* counting sort by row, stable */
    for (int32_t e = 0; e < nnz; e++) a->rowptr[row[e] + 1]++;
    for (int32_t r = 0; r < n_rows; r++) a->rowptr[r + 1] += a->rowptr[r];
    int32_t *fill = malloc((size_t)(n_rows > 0 ? n_rows : 1) * sizeof *fill);
    if (!fill) {
        dlp__nn_csr_free(a);
        return dlp__err(err, DLP_ENOMEM, "csr: out of memory");
    }
    if (n_rows) memcpy(fill, a->rowptr, (size_t)n_rows * sizeof *fill);
    for (int32_t e = 0; e < nnz; e++) a->col[fill[row[e]]++] = col[e];
    free(fill);
    return DLP_OK;
}

dlp_status dlp__nn_csr_transpose(const dlp__nn_csr *a, dlp__nn_csr *t) {
    if (csr_alloc(t, a->n_cols, a->n_rows, a->nnz) != DLP_OK) return DLP_ENOMEM;
    for (int32_t k = 0; k < a->nnz; k++) t->rowptr[a->col[k] + 1]++;
    for (int32_t r = 0; r < t->n_rows; r++) t->rowptr[r + 1] += t->rowptr[r];
    int32_t *fill = malloc((size_t)(t->n_rows > 0 ? t->n_rows : 1) * sizeof *fill);
    if (!fill) {
        dlp__nn_csr_free(t);
        return DLP_ENOMEM;
    }
    if (t->n_rows) memcpy(fill, t->rowptr, (size_t)t->n_rows * sizeof *fill);
    /* scanning a's rows in order leaves each row of t sorted */
    for (int32_t r = 0; r < a->n_rows; r++)
        for (int32_t k = a->rowptr[r]; k < a->rowptr[r + 1]; k++)
            t->col[fill[a->col[k]]++] = r;
    free(fill);
    return DLP_OK;
}

/* in without i -> i entries, then one i -> i per row (PyG remove_self_loops
 * + add_self_loops, which is also what add_remaining_self_loops gives for
 * unweighted graphs). */
static dlp_status csr_self_loops(const dlp__nn_csr *in, dlp__nn_csr *out) {
    int32_t n = in->n_rows, keep = 0;
    for (int32_t r = 0; r < n; r++)
        for (int32_t k = in->rowptr[r]; k < in->rowptr[r + 1]; k++)
            keep += in->col[k] != r;
    if (keep > INT32_MAX - n) return DLP_EINVAL;
    if (csr_alloc(out, n, in->n_cols, keep + n) != DLP_OK) return DLP_ENOMEM;
    int32_t w = 0;
    for (int32_t r = 0; r < n; r++) {
        for (int32_t k = in->rowptr[r]; k < in->rowptr[r + 1]; k++)
            if (in->col[k] != r) out->col[w++] = in->col[k];
        out->col[w++] = r;
        out->rowptr[r + 1] = w;
    }
    return DLP_OK;
}

/* ---- graph batches ---------------------------------------------------- */

void dlp__nn_graph_free(dlp__nn_graph *g) {
    if (!g) return;
    dlp__nn_csr_free(&g->in);
    dlp__nn_csr_free(&g->out);
    dlp__nn_csr_free(&g->in_sl);
    free(g->graph_id);
    free(g->graph_size);
    memset(g, 0, sizeof *g);
}

dlp_status dlp__nn_graph_build(dlp__nn_graph *g, int32_t n_nodes,
                               int32_t n_edges, const int32_t *src,
                               const int32_t *dst, const int32_t *graph_id,
                               int32_t n_graphs, dlp_error *err) {
    memset(g, 0, sizeof *g);
    if (!graph_id) n_graphs = 1;
    if (n_nodes < 0 || n_edges < 0 || n_graphs < 1)
        return dlp__err(err, DLP_EINVAL, "graph: bad sizes (%d nodes, %d edges, %d graphs)",
                        (int)n_nodes, (int)n_edges, (int)n_graphs);
    g->n_nodes = n_nodes;
    g->n_edges = n_edges;
    g->n_graphs = n_graphs;
    g->graph_id = calloc((size_t)(n_nodes > 0 ? n_nodes : 1), sizeof *g->graph_id);
    g->graph_size = calloc((size_t)n_graphs, sizeof *g->graph_size);
    if (!g->graph_id || !g->graph_size) {
        dlp__nn_graph_free(g);
        return dlp__err(err, DLP_ENOMEM, "graph: out of memory for %d nodes", (int)n_nodes);
    }
    for (int32_t i = 0; i < n_nodes; i++) {
        int32_t gi = graph_id ? graph_id[i] : 0;
        if (gi < 0 || gi >= n_graphs) {
            dlp__nn_graph_free(g);
            return dlp__err(err, DLP_EGRAPH, "graph: node %d has graph id %d, not in [0, %d)",
                            (int)i, (int)gi, (int)n_graphs);
        }
        g->graph_id[i] = gi;
        g->graph_size[gi]++;
    }
    /* rows = destinations: row i lists the sources of i's incoming edges */
    dlp_status st = dlp__nn_csr_from_pairs(&g->in, n_nodes, n_nodes, n_edges, dst, src, err);
    if (st != DLP_OK) {
        dlp__nn_graph_free(g);
        return st;
    }
    if (dlp__nn_csr_transpose(&g->in, &g->out) != DLP_OK ||
        (st = csr_self_loops(&g->in, &g->in_sl)) != DLP_OK) {
        dlp__nn_graph_free(g);
        return dlp__err(err, st == DLP_EINVAL ? DLP_EINVAL : DLP_ENOMEM,
                        "graph: cannot build CSR for %d edges", (int)n_edges);
    }
    return DLP_OK;
}

dlp_status dlp__nn_graph_collate(dlp__nn_graph *g, int n_parts,
                                 const dlp__nn_graph_part *parts,
                                 dlp_error *err) {
    memset(g, 0, sizeof *g);
    if (n_parts < 1) return dlp__err(err, DLP_EINVAL, "graph collate: no graphs");
    int64_t nn = 0, ne = 0;
    for (int p = 0; p < n_parts; p++) {
        if (parts[p].n_nodes < 0 || parts[p].n_edges < 0)
            return dlp__err(err, DLP_EINVAL, "graph collate: graph %d has negative size", p);
        nn += parts[p].n_nodes;
        ne += parts[p].n_edges;
    }
    if (nn > INT32_MAX || ne > INT32_MAX)
        return dlp__err(err, DLP_EINVAL, "graph collate: batch too large (%lld nodes, %lld edges)",
                        (long long)nn, (long long)ne);
    int32_t *src = malloc((size_t)(ne > 0 ? ne : 1) * sizeof *src);
    int32_t *dst = malloc((size_t)(ne > 0 ? ne : 1) * sizeof *dst);
    int32_t *gid = malloc((size_t)(nn > 0 ? nn : 1) * sizeof *gid);
    dlp_status st = DLP_OK;
    if (!src || !dst || !gid) {
        st = dlp__err(err, DLP_ENOMEM, "graph collate: out of memory");
        goto done;
    }
    int32_t node0 = 0, e0 = 0;
    for (int p = 0; p < n_parts; p++) {
        const dlp__nn_graph_part *q = &parts[p];
        for (int32_t e = 0; e < q->n_edges; e++) {
            if (q->src[e] < 0 || q->src[e] >= q->n_nodes || q->dst[e] < 0 ||
                q->dst[e] >= q->n_nodes) {
                st = dlp__err(err, DLP_EGRAPH,
                              "graph collate: graph %d edge %d (%d -> %d) out of range (%d nodes)",
                              p, (int)e, (int)q->src[e], (int)q->dst[e], (int)q->n_nodes);
                goto done;
            }
            src[e0 + e] = q->src[e] + node0;
            dst[e0 + e] = q->dst[e] + node0;
        }
        for (int32_t i = 0; i < q->n_nodes; i++) gid[node0 + i] = p;
        node0 += q->n_nodes;
        e0 += q->n_edges;
    }
    st = dlp__nn_graph_build(g, (int32_t)nn, (int32_t)ne, src, dst, gid, n_parts, err);
done:
    free(src);
    free(dst);
    free(gid);
    return st;
}

/* ---- aggregation ------------------------------------------------------ */

void dlp__nn_aggregate(const dlp__nn_csr *a, dlp__nn_agg op, const float *x,
                       int f, float *y, int32_t *argmax) {
    /* sums start from zero: one clear for all rows, not a call per row */
    if (op != DLP__NN_AGG_MAX) memset(y, 0, (size_t)a->n_rows * (size_t)f * sizeof *y);
    for (int32_t r = 0; r < a->n_rows; r++) {
        float *yr = y + (size_t)r * f;
        int32_t k0 = a->rowptr[r], k1 = a->rowptr[r + 1];
        if (op == DLP__NN_AGG_MAX) {
            int32_t *am = argmax + (size_t)r * f;
            if (k0 == k1) {
                for (int c = 0; c < f; c++) { yr[c] = 0; am[c] = -1; }
                continue;
            }
            const float *x0 = x + (size_t)a->col[k0] * f;
            for (int c = 0; c < f; c++) { yr[c] = x0[c]; am[c] = a->col[k0]; }
            for (int32_t k = k0 + 1; k < k1; k++) {
                const float *xj = x + (size_t)a->col[k] * f;
                for (int c = 0; c < f; c++)
                    if (xj[c] > yr[c]) { yr[c] = xj[c]; am[c] = a->col[k]; }
            }
            continue;
        }
        for (int32_t k = k0; k < k1; k++) {
            const float *xj = x + (size_t)a->col[k] * f;
            for (int c = 0; c < f; c++) yr[c] += xj[c];
        }
        if (op == DLP__NN_AGG_MEAN && k1 - k0 > 1) {
            float s = 1.0f / (float)(k1 - k0);
            for (int c = 0; c < f; c++) yr[c] *= s;
        }
    }
}

void dlp__nn_aggregate_backward(const dlp__nn_csr *a, dlp__nn_agg op,
                                const float *dy, int f, const int32_t *argmax,
                                float *dx) {
    for (int32_t r = 0; r < a->n_rows; r++) {
        const float *dyr = dy + (size_t)r * f;
        int32_t k0 = a->rowptr[r], k1 = a->rowptr[r + 1];
        if (op == DLP__NN_AGG_MAX) {
            const int32_t *am = argmax + (size_t)r * f;
            for (int c = 0; c < f; c++)
                if (am[c] >= 0) dx[(size_t)am[c] * f + c] += dyr[c];
            continue;
        }
        float s = op == DLP__NN_AGG_MEAN && k1 - k0 > 1 ? 1.0f / (float)(k1 - k0) : 1.0f;
        for (int32_t k = k0; k < k1; k++) {
            float *dxj = dx + (size_t)a->col[k] * f;
            for (int c = 0; c < f; c++) dxj[c] += s * dyr[c];
        }
    }
}

/* ---- readouts ---------------------------------------------------------- */

void dlp__nn_pool(const dlp__nn_graph *g, dlp__nn_agg op, const float *x, int f,
                  float *y, int32_t *argmax) {
    size_t gf = (size_t)g->n_graphs * f;
    memset(y, 0, gf * sizeof *y);
    if (op == DLP__NN_AGG_MAX) {
        for (size_t k = 0; k < gf; k++) argmax[k] = -1;
        for (int32_t i = 0; i < g->n_nodes; i++) {
            const float *xi = x + (size_t)i * f;
            float *yg = y + (size_t)g->graph_id[i] * f;
            int32_t *am = argmax + (size_t)g->graph_id[i] * f;
            for (int c = 0; c < f; c++)
                if (am[c] < 0 || xi[c] > yg[c]) { yg[c] = xi[c]; am[c] = i; }
        }
        return;
    }
    for (int32_t i = 0; i < g->n_nodes; i++) {
        const float *xi = x + (size_t)i * f;
        float *yg = y + (size_t)g->graph_id[i] * f;
        for (int c = 0; c < f; c++) yg[c] += xi[c];
    }
    if (op == DLP__NN_AGG_MEAN)
        for (int32_t k = 0; k < g->n_graphs; k++) {
            if (g->graph_size[k] <= 1) continue;
            float s = 1.0f / (float)g->graph_size[k];
            for (int c = 0; c < f; c++) y[(size_t)k * f + c] *= s;
        }
}

void dlp__nn_pool_backward(const dlp__nn_graph *g, dlp__nn_agg op,
                           const float *dy, int f, const int32_t *argmax,
                           float *dx) {
    if (op == DLP__NN_AGG_MAX) {
        size_t gf = (size_t)g->n_graphs * f;
        for (size_t k = 0; k < gf; k++)
            if (argmax[k] >= 0) dx[(size_t)argmax[k] * f + k % (size_t)f] += dy[k];
        return;
    }
    for (int32_t i = 0; i < g->n_nodes; i++) {
        int32_t k = g->graph_id[i];
        float s = op == DLP__NN_AGG_MEAN && g->graph_size[k] > 1
                      ? 1.0f / (float)g->graph_size[k] : 1.0f;
        const float *dyg = dy + (size_t)k * f;
        float *dxi = dx + (size_t)i * f;
        for (int c = 0; c < f; c++) dxi[c] += s * dyg[c];
    }
}

dlp_status dlp__nn_collate_features(dlp__nn_ws *ws, const dlp_features *const *fs, int k, int nf,
                                    dlp__nn_graph *g, float **x, int32_t *off, const char *who,
                                    dlp_error *err) {
    int64_t nn = 0, ne = 0;
    for (int q = 0; q < k; q++) {
        nn += fs[q]->n_nodes;
        ne += fs[q]->n_edges;
    }
    if (nn > INT32_MAX / 2 || ne > INT32_MAX / 4)
        return dlp__err(err, DLP_EINVAL, "%s: batch too large (%lld nodes, %lld edges)", who, (long long)nn,
                        (long long)ne);
    dlp__nn_graph_part *parts = dlp__nn_ws_alloc(ws, (size_t)k * sizeof *parts);
    int32_t *src = dlp__nn_ws_ints(ws, (size_t)(ne > 0 ? ne : 1));
    float *xs = dlp__nn_ws_floats(ws, (size_t)nn * (size_t)nf);
    if (!parts || !src || !xs) return dlp__err(err, DLP_ENOMEM, "%s: out of memory (batch)", who);
    int64_t e0 = 0, r0 = 0;
    for (int q = 0; q < k; q++) {
        const dlp_features *f = fs[q];
        /* the features' CSR lists successors; the nn graph wants src/dst
         * pairs, so expand the row pointer into sources */
        for (int i = 0; i < f->n_nodes; i++)
            for (int32_t e = f->rowptr[i]; e < f->rowptr[i + 1]; e++) src[e0 + e] = i;
        parts[q] = (dlp__nn_graph_part){f->n_nodes, f->n_edges, src + e0, f->col};
        memcpy(xs + r0 * nf, f->x, sizeof(float) * (size_t)f->n_nodes * (size_t)nf);
        if (off) off[q] = (int32_t)r0;
        e0 += f->n_edges;
        r0 += f->n_nodes;
    }
    if (off) off[k] = (int32_t)r0;
    *x = xs;
    return dlp__nn_graph_collate(g, k, parts, err);
}
