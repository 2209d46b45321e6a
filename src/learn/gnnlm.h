/*
 * gnnlm.h — the GNN + language-model predictor of thesis chapter 7 as one
 * more architecture of dlp_gnn (DLP_GNN_GNNLM; docs/gnnlm.md).  gnn.c and
 * model_file.c call these hooks through the model's row of the
 * architecture table (dlp__gnnlm_ops, learn/arch.c); everything
 * else about the model (targets, scalings, static features, info, splits,
 * reports) is the dlp_gnn's.  Not public API.
 *
 * The model: the GraphMAE encoder's GIN (tensors "encoder.*" of the
 * dlp_gnn's store, trainable) -> sum over each graph's nodes x readout
 * scale, ⊕ the scaled static features = the graph vector (gdim) -> the
 * language model's graph projection fills <gslot> in the prompt
 *     <bos> {device description} \n Predict the {target} of the graph
 *     <graph><gslot></graph>
 * (soft-prompt vectors before it) -> the final hidden state at the last
 * prompt token, concatenated with the graph vector itself (a skip) -> the
 * head (FC blocks "fc_i", then "predictor") -> the scaled targets.
 */
#ifndef DLP_LM_GNNLM_H
#define DLP_LM_GNNLM_H

#include <stddef.h>
#include <stdint.h>

#include "dlperf.h"
#include "nn/nn.h"

typedef struct dlp__gnnlm dlp__gnnlm;
struct cJSON;
struct dlp__gnn_arch_ops;

/* The architecture's row in learn/arch.c's table (gnn_internal.h): the
 * hooks below, called by gnn.c and model_file.c through a model's ops. */
extern const struct dlp__gnn_arch_ops dlp__gnnlm_ops;

/* dlp_gnn_train for arch gnnlm. */
dlp_status dlp__gnnlm_train(const dlp_dataset *ds, const int *train, int n_train, const int *val, int n_val,
                            const dlp_gnn_opts *opts, dlp_gnn **out, dlp_error *err);
/* Declare the GIN and the head into m->ps and allocate it (m->lmx holds
 * the GIN recipe and the LM width). */
dlp_status dlp__gnnlm_build(dlp_gnn *m, dlp_error *err);
/* Predictions for fs[0..n) on devices dev[0..n) (NULL, or NULL entries:
 * the model's default device): out (n, n_targets) in target units. */
dlp_status dlp__gnnlm_predict(const dlp_gnn *m, const dlp_features *const *fs, const char *const *dev, int n,
                              float *out, dlp_error *err);
void dlp__gnnlm_free(dlp__gnnlm *x);
const char *dlp__gnnlm_device(const dlp__gnnlm *x);
int dlp__gnnlm_stage(const dlp__gnnlm *x);

/* ---- tests ---- */
/* One forward + backward of fs[0..k) on devices dev against scaled targets
 * t (k x n_targets) in eval mode (running statistics, no dropout): *loss,
 * and the gradients in m->ps.grad and the LM's store (zeroed first). */
dlp_status dlp__gnnlm_loss_grad(dlp_gnn *m, const dlp_features *const *fs, const char *const *dev, int k,
                                const float *t, double *loss, dlp_error *err);
/* The language model's parameter store (NULL for other architectures). */
dlp__nn_params *dlp__gnnlm_lm_params(dlp_gnn *m);

/* ---- model file (model_file.c) ---- */
/* The "gnnlm" header member (recipe, stage, device, LM image size). */
void dlp__gnnlm_header(const dlp_gnn *m, struct cJSON *root, size_t lm_bytes);
/* Parse it into a fresh m->lmx (before dlp__gnn_build); *lm_bytes gets the
 * size of the LM image at the end of the payload. */
dlp_status dlp__gnnlm_parse(dlp_gnn *m, const struct cJSON *o, const char *name, uint64_t *lm_bytes,
                            dlp_error *err);
/* The language model's image (a .dlpm of kind "lm"), appended to the
 * payload after the store's floats. */
dlp_status dlp__gnnlm_lm_image(const dlp_gnn *m, void **buf, size_t *len, dlp_error *err);
dlp_status dlp__gnnlm_load_lm(dlp_gnn *m, const void *buf, size_t len, const char *name, dlp_error *err);

#endif
