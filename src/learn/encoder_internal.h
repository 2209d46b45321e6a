/*
 * encoder_internal.h — what gnn.c needs from encoder.c to hold a frozen
 * copy of a pre-trained encoder inside a TraPPM model.  Not public API.
 *
 * The encoder *network* (the node-level layers that produce embeddings,
 * without any decoder, mask token or projection used only by pre-training)
 * can be declared into any parameter store under a prefix.  A TraPPM model
 * declares it into its own store under "encoder" with trainable = 0, copies
 * the pre-trained values in by name (dlp__enc_copy_weights), and saves and
 * loads them with the rest of its parameters; its JSON header records the
 * recipe so that loading rebuilds the same layers.
 *
 * Tensor names: inside a dlp_encoder's own store the network's tensors are
 * named "encoder.<layer>..." exactly as dlp__enc_declare(prefix "encoder")
 * names them, so copying is a by-name match of every "encoder." tensor.
 */
#ifndef DLP_MODELS_ENCODER_INTERNAL_H
#define DLP_MODELS_ENCODER_INTERNAL_H

#include "dlperf.h"
#include "nn/nn.h"

/* What it takes to rebuild the network's layers. */
typedef struct {
    int method;                 /* dlp_pretrain_method                        */
    int n_feat;                 /* input node-feature width                   */
    int hidden;                 /* width of every layer and of the embedding  */
    int layers;
    double dropout;             /* kept for the record; inactive when frozen  */
    int layout, layout_version;
} dlp__enc_recipe;

/* The node-level network as an nn sequence (no readout). */
typedef struct {
    dlp__enc_recipe r;
    dlp__nn_seq seq;
} dlp__enc_net;

/* The recipe of a pre-trained encoder. */
void dlp__enc_recipe_get(const dlp_encoder *e, dlp__enc_recipe *r);

/* Declare the network's layers into ps (before dlp__nn_params_alloc),
 * tensor names "<prefix>.…"; with trainable == 0 every tensor it declares
 * is a buffer (never optimised).  DLP_EINVAL for a bad recipe. */
dlp_status dlp__enc_declare(dlp__enc_net *net, dlp__nn_params *ps, const char *prefix,
                            const dlp__enc_recipe *r, int trainable, dlp_error *err);

/* Copy the pre-trained values of e's network into ps, whose tensors were
 * declared by dlp__enc_declare with prefix "encoder".  DLP_EINVAL when a
 * tensor is missing or has another size. */
dlp_status dlp__enc_copy_weights(const dlp_encoder *e, dlp__nn_params *ps, dlp_error *err);

/* Sum-pooled embeddings of a batch of graphs in eval mode (cx->training is
 * ignored: BatchNorm uses running statistics, dropout is off):
 * out (g->n_graphs, r.hidden).  x is (g->n_nodes, r.n_feat). */
dlp_status dlp__enc_pool(dlp__enc_net *net, dlp__nn_ctx *cx, const dlp__nn_graph *g,
                         const float *x, float *out);

void dlp__enc_net_free(dlp__enc_net *net);

/* An encoder of recipe r whose network weights are the "encoder.*" tensors
 * of ps (a TraPPM model's frozen copy): what retraining a TraPPM model
 * needs.  The decoder side is freshly initialised (not used by TraPPM). */
dlp_status dlp__encoder_from_params(const dlp__enc_recipe *r, const dlp__nn_params *ps, dlp_encoder **out,
                                    dlp_error *err);

/* ---- the training loop without a corpus (tests, in-memory graphs) ---- */

/* dlp_encoder_pretrain over fs[0..n) instead of a corpus file: the same
 * loop (holdout, shuffles, checkpoints); the corpus fingerprint comes from
 * the graphs' names and node counts as it does for a corpus.  The graphs
 * must share one layout. */
dlp_status dlp__encoder_pretrain_feats(const dlp_features *const *fs, int64_t n,
                                       const dlp_pretrain_opts *opts, dlp_encoder **out,
                                       dlp_error *err);
/* dlp_encoder_loss over fs[0..n). */
dlp_status dlp__encoder_loss_feats(const dlp_encoder *e, const dlp_features *const *fs,
                                   int64_t n, uint64_t seed, double *loss, dlp_error *err);
/* One pre-training step on the batch fs[0..k): negatives / mask and the
 * dropout masks drawn from streams seeded by `seed` (the same seed gives the
 * same draws), BatchNorm on batch statistics when training (it then also
 * moves the running statistics).  With backward the store's gradients are
 * zeroed and then hold d loss / d parameter; no optimiser step.  *skipped
 * is 1 (loss 0) for a batch a step cannot use: fewer than 2 nodes in
 * training, no edges (GAE), no masked node (GraphMAE). */
dlp_status dlp__encoder_step(dlp_encoder *e, const dlp_features *const *fs, int k, uint64_t seed,
                             int training, int backward, double *loss, int *skipped,
                             dlp_error *err);
/* The encoder's whole parameter store (network, decoder, mask token). */
dlp__nn_params *dlp__encoder_params(dlp_encoder *e);
/* Its node-level network (tensors "encoder.*"). */
dlp__enc_net *dlp__encoder_net(dlp_encoder *e);

#endif
