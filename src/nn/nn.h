/*
 * nn.h — the neural-network core: float32 layers with hand-written backward
 * passes, for the GNN performance regressors (GraphSAGE / GCN / GIN / GAT
 * with PyTorch-Geometric semantics) and graph autoencoders (GraphMAE).
 *
 * Pieces, bottom up:
 *   rng      xoshiro256** seeded through splitmix64: every random draw in
 *            training (init, dropout, shuffles) is reproducible from a seed.
 *   params   a parameter store.  Layers *declare* tensors (a size table with
 *            PyTorch state_dict names); dlp__nn_params_alloc then makes ONE
 *            allocation for all values and ONE for all gradients, so the
 *            optimizer, clipping and a model file walk flat arrays (llm.c
 *            style).  Layers keep integer tensor ids, never pointers, so the
 *            store can be loaded/saved without rebinding anything.
 *   ws       a workspace arena for activations, caches and gradients of one
 *            training step; dlp__nn_ws_reset frees everything at once and
 *            coalesces the blocks so a steady-state step does no malloc.
 *   graph    a block-diagonal batch of many graphs as CSR adjacency plus a
 *            graph id per node; aggregation (sum/mean/max) over CSR rows and
 *            per-graph readouts, each with a backward.
 *   layers   Linear, SAGEConv, GCNConv, GINConv, GATConv, BatchNorm1d,
 *            LayerNorm, ReLU, PReLU, ELU, Dropout, graph readout.  Every layer
 *            is an explicit forward/backward pair; forward caches exactly
 *            what backward needs.  dlp__nn_layer wraps them in a tagged union
 *            and dlp__nn_seq runs a sequence of them, which is what a GNN
 *            model is.
 *   losses   MSE, Huber, L1, BCE-with-logits, scaled cosine error: value and
 *            gradient with respect to the prediction (mean reduction).
 *   optim    Adam / AdamW with PyTorch semantics, global-norm clipping.
 *
 * Conventions (every layer follows them):
 *   - Row-major float32.  A buffer comment "(N, F)" means N rows of F.
 *   - forward(layer, ctx, graph, x, n, y): x is (n, in), y is (rows_out, out)
 *     and is overwritten.  Layers cache *pointers* to x (and sometimes y),
 *     not copies: x and y must stay unchanged until the matching backward.
 *     Scratch the layer needs comes from ctx->ws and lives until ws reset.
 *   - backward(layer, ctx, graph, dy, dx): ACCUMULATES into dx (+=) so a
 *     tensor feeding several consumers gets the sum; dx == NULL means "the
 *     input gradient is not needed" and skips that work.  Parameter
 *     gradients always accumulate into ctx->ps->grad (call zero_grad).
 *   - Graph layers need n == g->n_nodes; readouts produce g->n_graphs rows.
 *   - Functions that may allocate return dlp_status (DLP_ENOMEM on OOM,
 *     DLP_EINVAL on bad dimensions); nothing here prints or exits.
 *   - OpenBLAS cblas_sgemm does every dense matmul.
 *
 * Ownership: the caller owns every struct here; *_free releases what the
 * struct owns (never the struct itself) and accepts a zeroed struct.
 * Layer structs own nothing (their parameters live in the store, their
 * caches in the workspace).
 */
#ifndef DLP_NN_H
#define DLP_NN_H

#include <stddef.h>
#include <stdint.h>

#include "dlperf.h"

/* ==== random numbers ================================================== */

typedef struct {
    uint64_t s[4];              /* xoshiro256** state, never all zero */
} dlp__nn_rng;

void dlp__nn_rng_seed(dlp__nn_rng *r, uint64_t seed);
uint64_t dlp__nn_rng_u64(dlp__nn_rng *r);
/* Uniform in [0, 1) with 24 random bits (exactly representable floats). */
float dlp__nn_rng_uniform(dlp__nn_rng *r);
/* Standard normal (Box-Muller). */
float dlp__nn_rng_normal(dlp__nn_rng *r);
/* Uniform integer in [0, n); n > 0.  Unbiased (rejection). */
uint32_t dlp__nn_rng_below(dlp__nn_rng *r, uint32_t n);

/* ==== parameter store ================================================= */

typedef enum {
    DLP__NN_INIT_ZEROS = 0,
    DLP__NN_INIT_CONST,         /* every element = arg                       */
    DLP__NN_INIT_UNIFORM,       /* U(-arg, arg)                              */
    DLP__NN_INIT_GLOROT,        /* U(±sqrt(6/(fan_in+fan_out))) (PyG glorot) */
    DLP__NN_INIT_KAIMING        /* He uniform for ReLU: U(±sqrt(6/fan_in))   */
} dlp__nn_init;

#define DLP__NN_NAME_MAX 64

/* One tensor of the store.  2-D tensors use PyTorch layout: a Linear weight
 * is (out, in), so fan_in = dims[1], fan_out = dims[0]. */
typedef struct {
    char name[DLP__NN_NAME_MAX]; /* state_dict style, "conv1.lin_l.weight"   */
    int64_t offset;             /* first element in data[] and grad[]        */
    int64_t numel;
    int ndim;                   /* 1 or 2                                    */
    int32_t dims[2];            /* dims[1] == 1 when ndim == 1               */
    dlp__nn_init init;
    float init_arg;
    uint8_t trainable;          /* 0: a buffer (BatchNorm running stats, a
                                   fixed GIN eps): saved, never optimized    */
    uint8_t no_decay;           /* 1: excluded from weight decay             */
} dlp__nn_ptensor;

typedef struct {
    dlp__nn_ptensor *t;         /* (n) size table, declaration order          */
    int n, cap;
    int64_t total;              /* elements over all tensors                  */
    float *data;                /* (total) all values, one allocation         */
    float *grad;                /* (total) all gradients, one allocation      */
} dlp__nn_params;

/* Declare a tensor of shape (d0) [ndim 1] or (d0, d1) [ndim 2] named
 * "<prefix>.<name>" (or "<name>" when prefix is NULL/empty; names are cut
 * at DLP__NN_NAME_MAX-1 bytes).  Returns its id (>= 0), or -1 on OOM, bad
 * shape, or when called after alloc.  Set t[id].no_decay afterwards to
 * keep a tensor out of weight decay. */
int dlp__nn_params_add(dlp__nn_params *ps, const char *prefix, const char *name,
                       int ndim, int32_t d0, int32_t d1, dlp__nn_init init,
                       float init_arg, int trainable);
/* Allocate data and grad (zeroed) for every declared tensor. */
dlp_status dlp__nn_params_alloc(dlp__nn_params *ps);
/* Fill every tensor by its init rule from one stream seeded by `seed`,
 * in declaration order: same model + same seed = same numbers. */
void dlp__nn_params_init(dlp__nn_params *ps, uint64_t seed);
void dlp__nn_params_free(dlp__nn_params *ps);
/* Id of the tensor with that full name, or -1. */
int dlp__nn_params_find(const dlp__nn_params *ps, const char *name);
/* Elements over trainable tensors only. */
int64_t dlp__nn_params_trainable(const dlp__nn_params *ps);
void dlp__nn_zero_grad(dlp__nn_params *ps);

static inline float *dlp__nn_pv(const dlp__nn_params *ps, int id) {
    return ps->data + ps->t[id].offset;
}
static inline float *dlp__nn_pg(const dlp__nn_params *ps, int id) {
    return ps->grad + ps->t[id].offset;
}

/* ==== workspace arena ================================================= */

typedef struct dlp__nn_ws_block dlp__nn_ws_block;
typedef struct {
    dlp__nn_ws_block *head;     /* newest block first                         */
    size_t used;                /* bytes handed out since the last reset      */
    size_t peak;                /* largest `used` seen: the coalesce size     */
} dlp__nn_ws;

/* 64-byte aligned, uninitialised; never NULL unless out of memory (a zero
 * size still returns a valid pointer). */
void *dlp__nn_ws_alloc(dlp__nn_ws *ws, size_t bytes);
float *dlp__nn_ws_floats(dlp__nn_ws *ws, size_t n);
float *dlp__nn_ws_zeros(dlp__nn_ws *ws, size_t n);
int32_t *dlp__nn_ws_ints(dlp__nn_ws *ws, size_t n);
/* Forget every allocation (all pointers become invalid).  Keeps one block
 * big enough for the peak so the next step does not allocate. */
void dlp__nn_ws_reset(dlp__nn_ws *ws);
/* Stack discipline for scratch: everything allocated after a mark is
 * released by dlp__nn_ws_release(ws, mark); older allocations stay valid. */
typedef struct {
    dlp__nn_ws_block *block;
    size_t block_used, used;
} dlp__nn_ws_mark;
dlp__nn_ws_mark dlp__nn_ws_get_mark(const dlp__nn_ws *ws);
void dlp__nn_ws_release(dlp__nn_ws *ws, dlp__nn_ws_mark mark);
void dlp__nn_ws_free(dlp__nn_ws *ws);

/* What every forward/backward needs besides its inputs. */
typedef struct {
    dlp__nn_params *ps;         /* values read, gradients accumulated         */
    dlp__nn_ws *ws;             /* caches and scratch                         */
    dlp__nn_rng rng;            /* dropout masks                              */
    int training;               /* 1: batch statistics, dropout active        */
} dlp__nn_ctx;

/* Fill cx and seed its rng (an unseeded all-zero xoshiro state would make
 * every dropout draw 0). */
void dlp__nn_ctx_init(dlp__nn_ctx *cx, dlp__nn_params *ps, dlp__nn_ws *ws,
                      uint64_t seed, int training);

/* ==== dense helpers =================================================== */

/* C (m,n) = alpha op(A) op(B) + beta C, row-major; op = transpose when
 * ta/tb is nonzero.  Handles empty dimensions (cblas may not). */
void dlp__nn_gemm(int ta, int tb, int m, int n, int k, float alpha,
                  const float *A, int lda, const float *B, int ldb,
                  float beta, float *C, int ldc);

/* ==== graphs ========================================================== */

/* Compressed sparse rows: row r lists column indices col[rowptr[r] ..
 * rowptr[r+1]-1].  In a dlp__nn_graph the rows of `in` are destination
 * nodes and the columns their sources, so aggregating a row gathers over a
 * node's incoming edges. */
typedef struct {
    int32_t n_rows, n_cols, nnz;
    int32_t *rowptr;            /* (n_rows + 1), rowptr[0] = 0                */
    int32_t *col;               /* (nnz)                                      */
} dlp__nn_csr;

/* Build from nnz (row, col) pairs (stable: entries of a row keep input
 * order).  Rows/cols must be in range (DLP_EGRAPH otherwise). */
dlp_status dlp__nn_csr_from_pairs(dlp__nn_csr *a, int32_t n_rows, int32_t n_cols,
                                  int32_t nnz, const int32_t *row,
                                  const int32_t *col, dlp_error *err);
/* t = transpose of a (columns become rows; entries sorted by column). */
dlp_status dlp__nn_csr_transpose(const dlp__nn_csr *a, dlp__nn_csr *t);
void dlp__nn_csr_free(dlp__nn_csr *a);

/* A batch of one or more graphs stacked block-diagonally: directed edges
 * src -> dst over n_nodes nodes, graph_id naming each node's graph. */
typedef struct {
    int32_t n_nodes, n_edges, n_graphs;
    dlp__nn_csr in;             /* row dst: its sources (incoming edges)      */
    dlp__nn_csr out;            /* transpose of in, row src: its targets      */
    dlp__nn_csr in_sl;          /* in without self loops plus exactly one
                                   i -> i per row, placed last: what PyG's
                                   GCNConv / GATConv (add_self_loops) see     */
    int32_t *graph_id;          /* (n_nodes) in [0, n_graphs)                 */
    int32_t *graph_size;        /* (n_graphs) nodes per graph                 */
} dlp__nn_graph;

/* graph_id may be NULL (one graph, n_graphs forced to 1). */
dlp_status dlp__nn_graph_build(dlp__nn_graph *g, int32_t n_nodes,
                               int32_t n_edges, const int32_t *src,
                               const int32_t *dst, const int32_t *graph_id,
                               int32_t n_graphs, dlp_error *err);
void dlp__nn_graph_free(dlp__nn_graph *g);

/* One graph of a batch, node ids local (0 .. n_nodes-1). */
typedef struct {
    int32_t n_nodes, n_edges;
    const int32_t *src, *dst;   /* (n_edges) each                             */
} dlp__nn_graph_part;

/* A mini-batch of feature graphs fs[0..k) (nf columns each): their node
 * rows stacked into *x (ws), the successor CSR of each expanded into
 * src/dst pairs and collated block-diagonally into g; off (k + 1, may be
 * NULL) gets each graph's first row.  `who` starts the messages ("gnn",
 * "encoder").  The one collation of gnn.c, encoder.c and gnnlm.c. */
dlp_status dlp__nn_collate_features(dlp__nn_ws *ws, const dlp_features *const *fs, int k, int nf,
                                    dlp__nn_graph *g, float **x, int32_t *off, const char *who,
                                    dlp_error *err);

/* Stack parts block-diagonally (node ids offset, graph_id = part index). */
dlp_status dlp__nn_graph_collate(dlp__nn_graph *g, int n_parts,
                                 const dlp__nn_graph_part *parts,
                                 dlp_error *err);

typedef enum {
    DLP__NN_AGG_SUM = 0,
    DLP__NN_AGG_MEAN,           /* empty rows give 0 (torch_scatter)          */
    DLP__NN_AGG_MAX             /* empty rows give 0; argmax -1               */
} dlp__nn_agg;

/* y[r] = agg over c in row r of x[c].  x (a->n_cols, f), y (a->n_rows, f),
 * argmax (a->n_rows, f) required for MAX (index of the winning column, -1
 * for an empty row), ignored otherwise.  Pass g->in to gather over
 * incoming edges, g->out over outgoing ones. */
void dlp__nn_aggregate(const dlp__nn_csr *a, dlp__nn_agg op, const float *x,
                       int f, float *y, int32_t *argmax);
/* dx (a->n_cols, f) += d agg / dx applied to dy (a->n_rows, f). */
void dlp__nn_aggregate_backward(const dlp__nn_csr *a, dlp__nn_agg op,
                                const float *dy, int f, const int32_t *argmax,
                                float *dx);

/* Per-graph readout: y (g->n_graphs, f) = op over the nodes of each graph of
 * x (g->n_nodes, f).  argmax (n_graphs, f) required for MAX. */
void dlp__nn_pool(const dlp__nn_graph *g, dlp__nn_agg op, const float *x, int f,
                  float *y, int32_t *argmax);
void dlp__nn_pool_backward(const dlp__nn_graph *g, dlp__nn_agg op,
                           const float *dy, int f, const int32_t *argmax,
                           float *dx);

/* ==== layers ========================================================== */
/* Each layer: *_init declares its parameters (before params_alloc); the
 * `name` prefix gives state_dict names.  forward/backward follow the
 * conventions at the top of this file. */

/* Linear: y = x W^T + b.  W (out, in), b (out). */
typedef struct {
    int in, out;
    int w, b;                   /* tensor ids; b = -1 without bias            */
    /* cache */
    const float *x;             /* (n, in) forward input                      */
    int n;
} dlp__nn_linear;

dlp_status dlp__nn_linear_init(dlp__nn_linear *l, dlp__nn_params *ps,
                               const char *name, int in, int out, int bias);
dlp_status dlp__nn_linear_forward(dlp__nn_linear *l, dlp__nn_ctx *cx,
                                  const float *x, int n, float *y);
dlp_status dlp__nn_linear_backward(dlp__nn_linear *l, dlp__nn_ctx *cx,
                                   const float *dy, float *dx);

/* SAGEConv (PyG): y = lin_l(agg_{j in N(i)} x_j) + lin_r(x_i), lin_r without
 * bias, agg mean by default; normalize: y_i / max(||y_i||_2, 1e-12). */
typedef struct {
    int in, out;
    dlp__nn_agg aggr;
    int normalize;
    dlp__nn_linear lin_l;       /* (out, in) + bias, on aggregated neighbours */
    dlp__nn_linear lin_r;       /* (out, in), on the node itself              */
    /* cache */
    int n;
    const float *x;             /* (N, in)                                    */
    float *agg;                 /* (N, in) aggregated neighbours              */
    int32_t *argmax;            /* (N, in) only for AGG_MAX                   */
    const float *y;             /* (N, out) output (normalize only)           */
    float *norm;                /* (N) row norms before normalising           */
} dlp__nn_sage;

dlp_status dlp__nn_sage_init(dlp__nn_sage *l, dlp__nn_params *ps,
                             const char *name, int in, int out, dlp__nn_agg aggr,
                             int normalize);
dlp_status dlp__nn_sage_forward(dlp__nn_sage *l, dlp__nn_ctx *cx,
                                const dlp__nn_graph *g, const float *x, int n,
                                float *y);
dlp_status dlp__nn_sage_backward(dlp__nn_sage *l, dlp__nn_ctx *cx,
                                 const dlp__nn_graph *g, const float *dy,
                                 float *dx);

/* GCNConv (PyG): y = D^-1/2 (A + I) D^-1/2 X W^T + b with deg from in_sl
 * (in-degree without self loops, plus one). */
typedef struct {
    int in, out;
    dlp__nn_linear lin;         /* (out, in), no bias, glorot                 */
    int bias;                   /* (out) tensor id                            */
    /* cache */
    int n;
    float *h;                   /* (N, out) x W^T                             */
    float *dinv;                /* (N) deg^-1/2                               */
} dlp__nn_gcn;

dlp_status dlp__nn_gcn_init(dlp__nn_gcn *l, dlp__nn_params *ps, const char *name,
                            int in, int out);
dlp_status dlp__nn_gcn_forward(dlp__nn_gcn *l, dlp__nn_ctx *cx,
                               const dlp__nn_graph *g, const float *x, int n,
                               float *y);
dlp_status dlp__nn_gcn_backward(dlp__nn_gcn *l, dlp__nn_ctx *cx,
                                const dlp__nn_graph *g, const float *dy,
                                float *dx);

/* BatchNorm1d over rows: train uses batch statistics (biased variance to
 * normalise, unbiased into the running variance) and updates the running
 * stats with momentum; eval uses the running stats. */
typedef struct {
    int f;
    float eps, momentum;        /* 1e-5, 0.1 like PyTorch                     */
    int gamma, beta;            /* (f) trainable                              */
    int rmean, rvar;            /* (f) buffers                                */
    /* cache */
    int n, train;
    const float *x;             /* (N, f)                                     */
    float *mean;                /* (f) statistics used by forward             */
    float *invstd;              /* (f) 1/sqrt(var + eps)                      */
} dlp__nn_batchnorm;

dlp_status dlp__nn_batchnorm_init(dlp__nn_batchnorm *l, dlp__nn_params *ps,
                                  const char *name, int f);
/* Train mode needs n >= 2 (DLP_EINVAL otherwise, like PyTorch). */
dlp_status dlp__nn_batchnorm_forward(dlp__nn_batchnorm *l, dlp__nn_ctx *cx,
                                     const float *x, int n, float *y);
dlp_status dlp__nn_batchnorm_backward(dlp__nn_batchnorm *l, dlp__nn_ctx *cx,
                                      const float *dy, float *dx);

/* LayerNorm over the feature dim of each row (torch.nn.LayerNorm(f)). */
typedef struct {
    int f;
    float eps;                  /* 1e-5                                       */
    int gamma, beta;            /* (f)                                        */
    /* cache */
    int n;
    const float *x;             /* (N, f)                                     */
    float *mean, *rstd;         /* (N) each                                   */
} dlp__nn_layernorm;

dlp_status dlp__nn_layernorm_init(dlp__nn_layernorm *l, dlp__nn_params *ps,
                                  const char *name, int f);
dlp_status dlp__nn_layernorm_forward(dlp__nn_layernorm *l, dlp__nn_ctx *cx,
                                     const float *x, int n, float *y);
dlp_status dlp__nn_layernorm_backward(dlp__nn_layernorm *l, dlp__nn_ctx *cx,
                                      const float *dy, float *dx);

/* GINConv (PyG): y = MLP((1 + eps) x_i + sum_{j in N(i)} x_j),
 * MLP = Linear(in, hidden) [-> BatchNorm] -> ReLU -> Linear(hidden, out).
 * eps is a tensor either way: trainable (train_eps) or a fixed buffer. */
typedef struct {
    int in, hidden, out;
    int use_bn;
    int eps;                    /* (1) tensor id                              */
    dlp__nn_linear lin1;        /* (hidden, in)                               */
    dlp__nn_batchnorm bn;       /* (hidden), used when use_bn                 */
    dlp__nn_linear lin2;        /* (out, hidden)                              */
    /* cache */
    int n;
    const float *x;             /* (N, in)                                    */
    float *sum;                 /* (N, in) neighbour sum                      */
    float *z;                   /* (N, in) MLP input                          */
    float *a1;                  /* (N, hidden) lin1 output                    */
    float *b1;                  /* (N, hidden) BatchNorm output (== a1 w/o)   */
    float *r;                   /* (N, hidden) ReLU output                    */
} dlp__nn_gin;

dlp_status dlp__nn_gin_init(dlp__nn_gin *l, dlp__nn_params *ps, const char *name,
                            int in, int hidden, int out, float eps,
                            int train_eps, int use_bn);
dlp_status dlp__nn_gin_forward(dlp__nn_gin *l, dlp__nn_ctx *cx,
                               const dlp__nn_graph *g, const float *x, int n,
                               float *y);
dlp_status dlp__nn_gin_backward(dlp__nn_gin *l, dlp__nn_ctx *cx,
                                const dlp__nn_graph *g, const float *dy,
                                float *dx);

/* GATConv (PyG, add_self_loops): h = x W^T viewed (N, H, C);
 * e_ji = LeakyReLU(<h_j, att_src> + <h_i, att_dst>, 0.2) per head over the
 * edges j -> i of in_sl; a = softmax of e over each node's incoming edges;
 * out_i = sum_j a_ji h_j, concatenated (N, H*C) or averaged (N, C), + bias.
 * Attention dropout is not implemented (dropout = 0). */
typedef struct {
    int in, heads, ch, concat;
    float neg_slope;            /* 0.2                                        */
    dlp__nn_linear lin;         /* (H*C, in), no bias, glorot                 */
    int att_src, att_dst;       /* (H, C) glorot                              */
    int bias;                   /* (H*C) if concat else (C)                   */
    /* cache */
    int n;
    float *h;                   /* (N, H*C)                                   */
    float *asrc, *adst;         /* (N, H) per-node attention logits           */
    float *alpha;               /* (in_sl.nnz, H) softmax coefficients        */
} dlp__nn_gat;

dlp_status dlp__nn_gat_init(dlp__nn_gat *l, dlp__nn_params *ps, const char *name,
                            int in, int ch, int heads, int concat);
static inline int dlp__nn_gat_out(const dlp__nn_gat *l) {
    return l->concat ? l->heads * l->ch : l->ch;
}
dlp_status dlp__nn_gat_forward(dlp__nn_gat *l, dlp__nn_ctx *cx,
                               const dlp__nn_graph *g, const float *x, int n,
                               float *y);
dlp_status dlp__nn_gat_backward(dlp__nn_gat *l, dlp__nn_ctx *cx,
                                const dlp__nn_graph *g, const float *dy,
                                float *dx);

/* Element-wise activations.  PReLU: slope tensor of 1 or f entries
 * (PyTorch num_parameters), init 0.25.  ELU: alpha > 0 (1.0 in PyTorch). */
typedef enum { DLP__NN_ACT_RELU = 0, DLP__NN_ACT_PRELU, DLP__NN_ACT_ELU } dlp__nn_act_kind;

typedef struct {
    dlp__nn_act_kind kind;
    int f;
    float alpha;                /* ELU alpha                                  */
    int slope, n_slope;         /* PReLU tensor id and its length (1 or f)    */
    /* cache */
    int n;
    const float *x;             /* (N, f) PReLU input                         */
    const float *y;             /* (N, f) ReLU / ELU output                   */
} dlp__nn_act;

dlp_status dlp__nn_act_init(dlp__nn_act *l, dlp__nn_params *ps, const char *name,
                            dlp__nn_act_kind kind, int f, float alpha,
                            int n_slope);
dlp_status dlp__nn_act_forward(dlp__nn_act *l, dlp__nn_ctx *cx, const float *x,
                               int n, float *y);
dlp_status dlp__nn_act_backward(dlp__nn_act *l, dlp__nn_ctx *cx,
                                const float *dy, float *dx);

/* Dropout: in training zero each element with probability p (ctx rng) and
 * scale survivors by 1/(1-p); identity in eval. */
typedef struct {
    int f;
    float p;
    /* cache */
    int n, active;
    uint8_t *mask;              /* (N, f) 1 = kept                            */
} dlp__nn_dropout;

dlp_status dlp__nn_dropout_init(dlp__nn_dropout *l, int f, float p);
dlp_status dlp__nn_dropout_forward(dlp__nn_dropout *l, dlp__nn_ctx *cx,
                                   const float *x, int n, float *y);
dlp_status dlp__nn_dropout_backward(dlp__nn_dropout *l, dlp__nn_ctx *cx,
                                    const float *dy, float *dx);

/* Readout: (n_nodes, f) -> (n_graphs, f) by sum / mean / max per graph. */
typedef struct {
    int f;
    dlp__nn_agg op;
    /* cache */
    int32_t *argmax;            /* (G, f) only for MAX                        */
} dlp__nn_readout;

dlp_status dlp__nn_readout_init(dlp__nn_readout *l, int f, dlp__nn_agg op);
dlp_status dlp__nn_readout_forward(dlp__nn_readout *l, dlp__nn_ctx *cx,
                                   const dlp__nn_graph *g, const float *x,
                                   int n, float *y);
dlp_status dlp__nn_readout_backward(dlp__nn_readout *l, dlp__nn_ctx *cx,
                                    const dlp__nn_graph *g, const float *dy,
                                    float *dx);

/* ==== composition ===================================================== */

typedef enum {
    DLP__NN_L_LINEAR = 0, DLP__NN_L_SAGE, DLP__NN_L_GCN, DLP__NN_L_GIN,
    DLP__NN_L_GAT, DLP__NN_L_BATCHNORM, DLP__NN_L_LAYERNORM, DLP__NN_L_ACT,
    DLP__NN_L_DROPOUT, DLP__NN_L_READOUT
} dlp__nn_kind;

/* Any layer.  Initialise the member matching `kind` with its *_init. */
typedef struct {
    dlp__nn_kind kind;
    union {
        dlp__nn_linear linear;
        dlp__nn_sage sage;
        dlp__nn_gcn gcn;
        dlp__nn_gin gin;
        dlp__nn_gat gat;
        dlp__nn_batchnorm bn;
        dlp__nn_layernorm ln;
        dlp__nn_act act;
        dlp__nn_dropout drop;
        dlp__nn_readout ro;
    } u;
} dlp__nn_layer;

int dlp__nn_layer_in(const dlp__nn_layer *l);      /* input features      */
int dlp__nn_layer_out(const dlp__nn_layer *l);     /* output features     */
/* Output rows for n input rows (readouts: the number of graphs). */
int dlp__nn_layer_rows(const dlp__nn_layer *l, const dlp__nn_graph *g, int n);
/* Graph layers and readouts need g; the others ignore it (may be NULL). */
dlp_status dlp__nn_layer_forward(dlp__nn_layer *l, dlp__nn_ctx *cx,
                                 const dlp__nn_graph *g, const float *x, int n,
                                 float *y);
dlp_status dlp__nn_layer_backward(dlp__nn_layer *l, dlp__nn_ctx *cx,
                                  const dlp__nn_graph *g, const float *dy,
                                  float *dx);

/* A sequence of layers run one after another; activations come from the
 * workspace and stay there for backward, which needs only two gradient
 * buffers (ping-pong) plus one layer's scratch at a time. */
typedef struct {
    dlp__nn_layer *l;           /* (n) layers                                 */
    int n, cap;
    int *rows;                  /* (cap + 1) rows of each activation, last run */
    const float **act;          /* (cap + 1) activations of the last forward   */
} dlp__nn_seq;

/* Append a zeroed layer of that kind; returns it for its *_init, or NULL on
 * OOM.  The pointer is valid until the next push. */
dlp__nn_layer *dlp__nn_seq_push(dlp__nn_seq *s, dlp__nn_kind kind);
/* Runs every layer on x (n, in of the first layer).  *y gets the output
 * (in ws), *rows its row count.  DLP_EINVAL when dims do not chain. */
dlp_status dlp__nn_seq_forward(dlp__nn_seq *s, dlp__nn_ctx *cx,
                               const dlp__nn_graph *g, const float *x, int n,
                               const float **y, int *rows);
/* dy (rows, out of the last layer); dx (n, in) accumulated, may be NULL. */
dlp_status dlp__nn_seq_backward(dlp__nn_seq *s, dlp__nn_ctx *cx,
                                const dlp__nn_graph *g, const float *dy,
                                float *dx);
void dlp__nn_seq_free(dlp__nn_seq *s);
/* A private copy of s's layer list into c (zeroed first): the layers keep
 * their forward caches in their structs, so concurrent runs over one set of
 * parameters need one each.  Parameters are shared, not copied.  0, or -1
 * on OOM with c empty; free with dlp__nn_seq_free. */
int dlp__nn_seq_clone(const dlp__nn_seq *s, dlp__nn_seq *c);

/* ==== losses ========================================================== */
/* Mean over the n elements (rows for SCE) like PyTorch's default
 * reduction='mean'.  Return the loss; grad (same shape as pred) is
 * overwritten with d loss / d pred unless NULL. */

double dlp__nn_loss_mse(const float *pred, const float *target, int n,
                        float *grad);
double dlp__nn_loss_l1(const float *pred, const float *target, int n,
                       float *grad);
/* 0.5 d^2 for |d| <= delta, else delta (|d| - 0.5 delta). */
double dlp__nn_loss_huber(const float *pred, const float *target, int n,
                          float delta, float *grad);
/* pred are logits, target in [0, 1]. */
double dlp__nn_loss_bce_logits(const float *pred, const float *target, int n,
                               float *grad);
/* GraphMAE scaled cosine error: mean over rows of (1 - cos(x_r, y_r))^alpha
 * with x, y (rows, f); gradient only with respect to x. */
double dlp__nn_loss_sce(const float *x, const float *y, int rows, int f,
                        float alpha, float *grad);

/* ==== optimizers ====================================================== */

typedef struct {
    float lr, beta1, beta2, eps;
    float weight_decay;
    int decoupled;              /* 0: Adam (L2 into the gradient), 1: AdamW   */
    int64_t t;                  /* steps taken                                */
    int64_t n;                  /* = params total                             */
    float *m;                   /* (n) first moments  } one allocation,       */
    float *v;                   /* (n) second moments } parallel to data      */
} dlp__nn_adam;

/* lr, betas (0.9, 0.999), eps 1e-8 as in PyTorch. */
dlp_status dlp__nn_adam_init(dlp__nn_adam *o, const dlp__nn_params *ps,
                             float lr, float beta1, float beta2, float eps,
                             float weight_decay, int decoupled);
/* One step over every trainable tensor (tensors marked no_decay skip the
 * weight decay). */
void dlp__nn_adam_step(dlp__nn_adam *o, dlp__nn_params *ps);
void dlp__nn_adam_free(dlp__nn_adam *o);

/* Scale all trainable gradients so their global L2 norm is at most
 * max_norm (PyTorch clip_grad_norm_); returns the norm before clipping. */
double dlp__nn_clip_grad_norm(dlp__nn_params *ps, double max_norm);

/* ==== self-supervised pre-training pieces (nn_pretrain.c) ============ */
/* What graph autoencoders need besides the layers above: the GAE's
 * inner-product decoder and reconstruction loss, GraphMAE's feature masking
 * (mask token / noise rows), re-masking and row gathers.  Same conventions:
 * forward overwrites its output, backward ACCUMULATES (+=). */

/* out[k] = <z[pairs[2k]], z[pairs[2k+1]]> for z (N, f): the logits of
 * sigmoid(Z Z^T) at n_pairs node pairs (u, v) given as (u, v) ints. */
void dlp__nn_inner_product(const float *z, int f, const int32_t *pairs, int n_pairs,
                           float *out);
/* dz (N, f) += d/dz of sum_k dout[k] out[k]. */
void dlp__nn_inner_product_backward(const float *z, int f, const int32_t *pairs,
                                    int n_pairs, const float *dout, float *dz);

/* PyG GAE.recon_loss on logits s: mean_k -log(sigmoid(pos_k) + eps) +
 * mean_k -log(1 - sigmoid(neg_k) + eps) (eps 1e-15 in PyG); an empty side
 * adds 0.  grad_pos / grad_neg (may be NULL) are overwritten with the
 * derivative with respect to each score, the eps kept inside the log. */
double dlp__nn_loss_gae_bce(const float *pos, int n_pos, const float *neg, int n_neg,
                            double eps, float *grad_pos, float *grad_neg);

/* GraphMAE input masking: y (n, f) row r = token (1, f) when src[r] < 0,
 * else x[src[r]] (src[r] == r keeps a row, another node's index replaces it
 * with that node's features, the "noise" rows). */
void dlp__nn_mask_token_forward(const float *x, int n, int f, const int32_t *src,
                                const float *token, float *y);
/* dtoken (f) += sum of dy over the token rows; dx (n, f; may be NULL)
 * += dy routed back to each row's source. */
void dlp__nn_mask_token_backward(const float *dy, int n, int f, const int32_t *src,
                                 float *dtoken, float *dx);

/* Re-mask: y (n, f) = x with the rows where masked[r] != 0 set to zero. */
void dlp__nn_remask_forward(const float *x, int n, int f, const uint8_t *masked,
                            float *y);
/* dx += dy on the rows that were not masked. */
void dlp__nn_remask_backward(const float *dy, int n, int f, const uint8_t *masked,
                             float *dx);

/* y (m, f) = x[rows[k]]; backward dx[rows[k]] += dy[k]. */
void dlp__nn_gather_rows(const float *x, int f, const int32_t *rows, int m, float *y);
void dlp__nn_gather_rows_backward(const float *dy, int f, const int32_t *rows, int m,
                                  float *dx);

#endif /* DLP_NN_H */
