/*
 * gnn_internal.h — the dlp_gnn struct, shared by gnn.c (build, train,
 * predict) and model_file.c (save/load).  Not public API.
 *
 * A model is two nn sequences around a concatenation:
 *   gnn   conv blocks over the node rows of a batch, then the readout
 *         (graph rows, width `hidden`); empty for the MLP;
 *   enc   TraPPM only: a frozen pre-trained encoder network (its tensors
 *         are buffers "encoder.*" of the model's own store), whose
 *         sum-pooled, standardised embedding joins the concatenation;
 *   head  FC blocks on [readout | embedding | scaled static features],
 *         then the output Linear (n_targets columns, scaled units).
 * Everything a prediction needs besides the weights (layout, static-feature
 * list and statistics, target scaling) lives here too, so a loaded model
 * predicts exactly what the trained one did.
 */
#ifndef DLP_MODELS_GNN_INTERNAL_H
#define DLP_MODELS_GNN_INTERNAL_H

#include <pthread.h>

#include "dlperf.h"
#include "learn/encoder_internal.h"
#include "nn/nn.h"

struct cJSON;
struct dlp__gnn_arch_ops;

#define DLP__GNN_FORMAT 1     /* version of the "gnn" header inside a DLPM file */
#define DLP__GNN_MAX_TARGETS 16
#define DLP__GNN_NAME_MAX 64

struct dlp_gnn {
    dlp_gnn_info info;        /* recipe + provenance (info.split -> split[])    */
    char split[128];
    int layout, layout_version, n_feat;
    int n_static;
    int sf[DLP_SF_COUNT];     /* static-feature indices                          */
    double sf_mean[DLP_SF_COUNT], sf_std[DLP_SF_COUNT];   /* of log1p(value)     */
    int n_targets;
    char target[DLP__GNN_MAX_TARGETS][DLP__GNN_NAME_MAX];
    double t_mean[DLP__GNN_MAX_TARGETS], t_std[DLP__GNN_MAX_TARGETS];
    dlp__nn_params ps;
    dlp__nn_seq gnn, head;
    int emb;                  /* width of the readout (0 for the MLP)           */
    double ro_scale;          /* readout multiplier: 1, or 1/mean nodes for
                                 DLP_GNN_READOUT_SCALED_SUM                    */
    /* TraPPM: the frozen encoder (has_enc; its recipe in enc.r before
     * dlp__gnn_build) and the per-column standardisation of its pooled
     * embedding over the training graphs (enc_dim values each) */
    int has_enc, enc_dim;
    dlp__enc_net enc;
    double *u_mean, *u_std;
    /* per-epoch curve of the last training (record_curve); NULL otherwise */
    double *curve_train, *curve_val;
    int curve_n;
    char src[256];            /* file it was loaded from ("" when trained)     */
    /* a cached workspace for predictions: taken with trylock, so concurrent
     * callers fall back to a private one instead of waiting */
    pthread_mutex_t ws_lock;
    dlp__nn_ws ws_cache;
    /* an architecture with more than the layers (gnnlm): its hooks, NULL
     * for every other arch; and gnnlm's state (the language model, the
     * GIN's recipe, the prompt: src/learn/gnnlm.c) */
    const struct dlp__gnn_arch_ops *ops;
    struct dlp__gnnlm *lmx;
};

/* The hooks of an architecture whose model carries more than the GNN's
 * layers (gnnlm: a language model and a prompt), one row per such
 * architecture in learn/arch.c's table, as SQLite picks a VFS.  The base
 * code (gnn.c, model_file.c) calls them through m->ops and never names the
 * architecture's file, so the dependencies run one way: gnnlm.c uses
 * gnn.c; arch.c (the public dlp_gnn_train and the table) uses both;
 * model_file.c finds a loaded model's row through arch.c.  A NULL hook
 * means "as the base does". */
typedef struct dlp__gnn_arch_ops {
    int arch;   /* dlp_gnn_arch */
    dlp_status (*train)(const dlp_dataset *ds, const int *train, int n_train, const int *val, int n_val,
                        const dlp_gnn_opts *opts, dlp_gnn **out, dlp_error *err);
    /* declare and allocate m->ps for the recipe (instead of the layers) */
    dlp_status (*build)(dlp_gnn *m, dlp_error *err);
    /* fs[0..n) on devices dev (NULL: the model's own) -> out (n, n_targets) */
    dlp_status (*predict)(const dlp_gnn *m, const dlp_features *const *fs, const char *const *dev, int n,
                          float *out, dlp_error *err);
    void (*free)(dlp_gnn *m);                /* the architecture's own state  */
    const char *(*device)(const dlp_gnn *m);
    int (*stage)(const dlp_gnn *m);
    /* model file: its member of the header; parse it from the header root
     * before the build (*tail_bytes: the bytes it appended to the payload
     * after the floats); those bytes, written and read back */
    void (*header)(const dlp_gnn *m, struct cJSON *root, size_t tail_bytes);
    dlp_status (*parse)(dlp_gnn *m, const struct cJSON *root, const char *name, uint64_t *tail_bytes,
                        dlp_error *err);
    dlp_status (*tail_image)(const dlp_gnn *m, void **buf, size_t *len, dlp_error *err);
    dlp_status (*load_tail)(dlp_gnn *m, const void *buf, size_t len, const char *name, dlp_error *err);
} dlp__gnn_arch_ops;

/* arch.c: the row of architecture arch, NULL for the plain GNNs. */
const dlp__gnn_arch_ops *dlp__gnn_arch_ops_for(int arch);
/* gnn.c: dlp_gnn_train for the architectures made of layers alone (the
 * arguments checked by dlp_gnn_train). */
dlp_status dlp__gnn_train_layers(const dlp_dataset *ds, const int *train, int n_train, const int *val, int n_val,
                                 const dlp_gnn_opts *opts, dlp_gnn **out, dlp_error *err);

/* Declare the layers and allocate the parameters for m->info's recipe and
 * m->n_feat / n_static / n_targets (values not initialised). */
dlp_status dlp__gnn_build(dlp_gnn *m, dlp_error *err);

/* The gnnlm base dlperf ships (gnnlm_embed.c): the bytes of
 * data/models/gnnlm/dlperf-gnnlm.dlpm, read by dlp_gnn_load(DLP_GNN_BUILTIN). */
void dlp__gnnlm_builtin(const void **buf, size_t *len);
/* A zeroed model with its mutex ready; NULL on OOM. */
dlp_gnn *dlp__gnn_alloc(void);
/* Width of the head's input: readout + embedding + static features. */
static inline int dlp__gnn_zw(const dlp_gnn *m) { return m->emb + m->enc_dim + m->n_static; }

/* dlp_gnn_predict of one graph in the caller's workspace ws (reset after;
 * one per thread, kept across calls so batch workers allocate once). */
dlp_status dlp__gnn_predict_ws(const dlp_gnn *m, const dlp_features *f, dlp__nn_ws *ws, float *out,
                               dlp_error *err);

/* One forward and backward pass over graphs fs[0..k) in eval mode (no
 * dropout; the encoder's embedding computed on the fly) against scaled
 * targets t (k x n_targets; NaN = missing), with the model's loss:
 * *loss gets its value, m->ps.grad the gradients (zeroed first).  For
 * finite-difference checks (tests/test_trappm.c). */
dlp_status dlp__gnn_loss_grad(dlp_gnn *m, const dlp_features *const *fs, int k, const float *t,
                              double *loss, dlp_error *err);

/* What gnnlm.c shares with gnn.c's own training (same rules, one copy). */
/* Fit the static-feature and target scalings on samples train[0..n). */
dlp_status dlp__gnn_fit_scalings(dlp_gnn *m, const dlp_dataset *ds, const int *tcol, const int *train,
                                 int n_train, dlp_error *err);
/* The masked loss of info.loss over n scaled values; g (n) its gradient. */
double dlp__gnn_loss_vec(const dlp_gnn *m, const float *p, const float *t, int n, float *g);
/* Target k from scaled units to its own, and a raw target to ln / itself. */
double dlp__gnn_unscale(const dlp_gnn *m, int k, double v);
double dlp__gnn_prescale(int scale, double v);
/* The scaled static features of f (n_static values). */
void dlp__gnn_scale_static(const dlp_gnn *m, const dlp_features *f, float *out);
/* The recipe-independent fields of m->info from the options (loss,
 * scaling, optimiser, schedule, batch, epochs, seed, input contract,
 * targets count, data fingerprint, split); m's layout, static features and
 * n_targets must be set. */
void dlp__gnn_info_common(dlp_gnn *m, const dlp_gnn_opts *o, const dlp_dataset *ds);
/* The samples of in[0..n_in) with at least one of the targets tcol[0..n_t)
 * present, into *out (malloc'ed, the caller frees it even on failure);
 * DLP_EINVAL naming a sample out of range.  who starts messages. */
dlp_status dlp__gnn_present(const dlp_dataset *ds, const int *tcol, int n_t, const int *in, int n_in, int **out,
                            int *n_out, const char *who, dlp_error *err);
/* f fits the model's layout and is a valid graph (message names it). */
dlp_status dlp__gnn_check_features(const dlp_gnn *m, const dlp_features *f, dlp_error *err);

#endif
