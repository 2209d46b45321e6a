/*
 * arch.c — the table of GNN architectures that carry more than layers, and
 * dlp_gnn_train, which picks a row.  It sits above both the base GNN
 * (gnn.c) and the architectures built on it (gnnlm.c), so that neither of
 * those names the other: gnn.c and model_file.c reach an architecture's
 * code only through a model's ops (gnn_internal.h).  A new architecture of
 * that kind is one more row here and one file that defines its hooks.
 */
#include "learn/gnn_internal.h"
#include "learn/gnnlm.h"
#include "util/util.h"

static const dlp__gnn_arch_ops *const rows[] = {&dlp__gnnlm_ops};

const dlp__gnn_arch_ops *dlp__gnn_arch_ops_for(int arch) {
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i]->arch == arch) return rows[i];
    return NULL;
}

dlp_status dlp_gnn_train(const dlp_dataset *ds, const int *train, int n_train, const int *val, int n_val,
                         const dlp_gnn_opts *opts, dlp_gnn **out, dlp_error *err) {
    *out = NULL;
    if (!ds || !opts || n_train < 1 || !train || (n_val > 0 && !val))
        return dlp__err(err, DLP_EINVAL, "gnn train: no training samples");
    const dlp__gnn_arch_ops *ops = dlp__gnn_arch_ops_for(opts->arch);
    if (ops && ops->train) return ops->train(ds, train, n_train, val, n_val, opts, out, err);
    return dlp__gnn_train_layers(ds, train, n_train, val, n_val, opts, out, err);
}
