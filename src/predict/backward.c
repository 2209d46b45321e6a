/*
 * backward.c — which kernels a training step's backward pass launches, and
 * their FLOPs and bytes (docs/predict.md, "Training").  roofline.c times
 * them on the unit each row names, with the device's curves.
 *
 * The rules follow what PyTorch's autograd and cuDNN do, per forward kernel:
 *  - convolution: a data-gradient kernel (dgrad: reads dY and W, writes dX;
 *    none when the input needs no gradient, as for the first conv) and a
 *    weight-gradient kernel (wgrad: reads X and dY, writes dW), each with
 *    the forward's multiply-adds.  Dense convs run both as implicit GEMMs
 *    on the forward's unit.  Grouped convs under cuDNN 8 (PyTorch 1.x, or
 *    opts.cudnn 8) run its grouped direct kernels on the CUDA cores (wgrad
 *    in both layouts, dgrad too in channels_last).  A depthwise conv's dgrad streams like its
 *    forward; its wgrad is a reduction of N x H x W products per filter tap,
 *    which PyTorch 1.x runs at a small share of the vector peak;
 *  - BatchNorm (training): a reduction pass (reads dY and X: the sums of dY
 *    and dY x-hat) and an elementwise pass (reads dY and X, writes dX): five
 *    activation-sized transfers; LayerNorm the same (dX kernel + the
 *    gamma/beta reduction);
 *  - Add passes dY to both inputs as is (no kernel; a broadcast input gets a
 *    sum of dY); Mul computes dY x other per input that needs a gradient,
 *    Div dY / other (Sub: -dY for its second input);
 *  - only tensors that require grad get one (dlp__requires_grad): a mask
 *    built from constants or the input ids has no backward kernel;
 *  - NCHW <-> NHWC conversions around a tensor-core conv: dgrad and wgrad
 *    are separate cuDNN calls and each converts what it reads;
 *  - anything else with a gradient: one kernel with the forward FLOPs
 *    reading dY and a saved tensor and writing dX (DLP__BWD_BYTES_FACTOR x
 *    the forward bytes).
 * A tensor read by k kernels gets k gradients that autograd sums: k - 1
 * adds.  Per parameter: dlp__step_param_kernels.
 */
#include "predict/backward.h"
#include "predict/roofline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const dlp_tensor_info *tensor(const dlp_graph *g, int t) {
    return t >= 0 ? dlp_graph_tensor_at(g, t) : NULL;
}

static int is_op(const dlp_node_info *ni, const char *op) {
    return ni && ni->op_type && !ni->domain[0] && !strcmp(ni->op_type, op);
}

static int is_float(const dlp_tensor_info *t) {
    return t->dtype == DLP_DT_FLOAT || t->dtype == DLP_DT_FLOAT16 || t->dtype == DLP_DT_BFLOAT16;
}

unsigned char *dlp__requires_grad(const dlp_graph *g) {
    int nt = g ? dlp_graph_tensor_count(g) : 0, n = g ? dlp_graph_node_count(g) : 0;
    unsigned char *rg = calloc((size_t)(nt > 0 ? nt : 1), 1);
    if (!rg) return NULL;
    for (int t = 0; t < nt; t++) {
        const dlp_tensor_info *ti = dlp_graph_tensor_at(g, t);
        rg[t] = ti->is_initializer && is_float(ti) && ti->numel > 1;
    }
    /* nodes come in topological order, so one pass settles it; the loop
     * only guards a graph that is not */
    for (int changed = 1, pass = 0; changed && pass < 64; pass++) {
        changed = 0;
        for (int i = 0; i < n; i++) {
            const dlp_node_info *ni = dlp_graph_node_at(g, i);
            int any = 0;
            for (int q = 0; q < ni->n_inputs && !any; q++) any = ni->inputs[q] >= 0 && rg[ni->inputs[q]];
            if (!any) continue;
            for (int o = 0; o < ni->n_outputs; o++) {
                int t = ni->outputs[o];
                if (t < 0 || rg[t]) continue;
                const dlp_tensor_info *ti = dlp_graph_tensor_at(g, t);
                if (!is_float(ti) || ti->has_value) continue;
                rg[t] = 1;
                changed = 1;
            }
        }
    }
    return rg;
}

/* Whether graph tensor t carries a gradient (dlp__requires_grad). */
static int needs_grad(const dlp__bwd_ctx *b, int t) {
    if (t < 0 || t >= dlp_graph_tensor_count(b->g)) return 0;
    if (b->rg) return b->rg[t];
    unsigned char *rg = dlp__requires_grad(b->g);
    int r = rg ? rg[t] : 0;
    free(rg);
    return r;
}

/* How many distinct tensors kernel k reads from outside itself that carry
 * a gradient (a dX kernel each): the lowering's count of produced inputs,
 * less those computed from inputs and constants alone. */
static int grad_in(const dlp__bwd_ctx *b, int k) {
    const dlp__kernel *kk = &b->L->k[k];
    unsigned char *own = b->rg ? NULL : dlp__requires_grad(b->g);
    const unsigned char *rg = b->rg ? b->rg : own;
    if (!rg) return kk->grad_inputs;
    int seen[16], ns = 0;
    for (int m = 0; m < kk->n; m++) {
        const dlp_node_info *ni = dlp_graph_node_at(b->g, b->L->members[kk->first + m]);
        for (int q = 0; ni && q < ni->n_inputs; q++) {
            int t = ni->inputs[q];
            if (t < 0 || !rg[t]) continue;
            const dlp_tensor_info *ti = tensor(b->g, t);
            if (ti->is_initializer) continue;                        /* a weight: dW, not dX */
            if (ti->producer >= 0 && b->L->node_kernel[ti->producer] == k) continue;
            int dup = 0;
            for (int j = 0; j < ns; j++) dup |= seen[j] == t;
            if (!dup && ns < 16) seen[ns++] = t;
        }
    }
    free(own);
    return ns < kk->grad_inputs ? ns : kk->grad_inputs;
}

static int put(dlp__bwd_kernel *out, int n, int max, const char *name, int unit, int count, double flops,
               double bytes) {
    if (n >= max || count <= 0) return n;
    out[n].name = name;
    out[n].unit = unit;
    out[n].count = count;
    out[n].flops = flops;
    out[n].bytes = bytes;
    out[n].bn = 0;
    return n + 1;
}

/* Convolution: dgrad + wgrad as the runtime picks them (file comment). */
static int conv_backward(const dlp__bwd_ctx *b, int k, dlp__bwd_kernel *out, int max) {
    const dlp__kernel *kk = &b->L->k[k];
    const dlp_node_info *ni = dlp_graph_node_at(b->g, kk->anchor);
    const dlp_tensor_info *x = ni && ni->n_inputs > 0 ? tensor(b->g, ni->inputs[0]) : NULL;
    const dlp_tensor_info *w = ni && ni->n_inputs > 1 ? tensor(b->g, ni->inputs[1]) : NULL;
    double in_b = x ? fmax(dlp__tensor_bytes_at(x, b->cdt), 0) : 0;
    double w_b = w ? fmax(dlp__tensor_bytes_at(w, b->cdt), 0) : 0;
    double out_b = kk->out_bytes;
    int64_t groups = 1;
    if (x && w && x->rank >= 3 && w->rank >= 3 && w->dims[1] > 0 && x->dims[1] > 0) groups = x->dims[1] / w->dims[1];
    int dw = kk->kclass == DLP_KC_CONV_DW;
    int old = b->runtime == DLP_RUNTIME_EAGER1X;
    /* cuDNN 8's grouped kernels: PyTorch 1.x's wheels, and 2.x's before 2.4
     * (opts.cudnn 8) */
    int cudnn8 = dlp__cudnn_major(b->runtime, b->cudnn) == 8;
    /* 32 or 64 groups of a power-of-two width (ResNeXt, SE-ResNeXt: the
     * configurations NVIDIA tunes cuDNN for) keep cuDNN's tensor-core
     * kernels: ResNeXt trains at the forward's speed in the same file */
    int tuned = groups >= 32 && !(groups & (groups - 1)) && w && w->rank >= 3 && w->dims[1] > 0 &&
                !(w->dims[1] & (w->dims[1] - 1));
    int grouped = !dw && groups > 1 && cudnn8 && !tuned;
    int dgrad_unit = grouped && b->memfmt == DLP_MEMFMT_NHWC ? DLP__BWD_GROUPED : DLP__BWD_FWD;
    int wgrad_unit = grouped ? DLP__BWD_GROUPED : dw && old ? DLP__BWD_DW_WGRAD : DLP__BWD_FWD;
    /* the direct kernels reuse each loaded input across the group's output
     * channels, up to DLP__GROUPED_REUSE_CH of them: a narrower group does
     * proportionally more loads per multiply-add, so its time is that of
     * (REUSE_CH / width) x its FLOPs at the kernel's full share */
    double gw = w && w->rank >= 3 ? (double)w->dims[1] : 1;
    double fl_g = kk->flops * dlp__grouped_reuse(gw);
    int n = 0;
    if (grad_in(b, k) > 0)
        n = put(out, n, max, grouped ? "cudnn::dgrad2d_grouped_direct_kernel" : DLP__CONV_DGRAD,
                dgrad_unit, 1, dgrad_unit == DLP__BWD_GROUPED ? fl_g : kk->flops, out_b + w_b + in_b);
    if (kk->has_weight)
        n = put(out, n, max,
                grouped ? "cudnn::wgrad2d_grouped_direct_kernel"
                : dw    ? "aten::convolution_backward (depthwise wgrad)"
                        : DLP__CONV_WGRAD,
                wgrad_unit, 1, grouped ? fl_g : kk->flops, in_b + out_b + w_b);
    return n;
}

/* GEMM/BMM: a data-gradient kernel (unless no input needs one) and a
 * weight-gradient kernel, each with the forward work and the forward's three
 * matrices to move; a linear layer's folded bias adds a column sum of dY.
 * The two are separate rows because they are different GEMMs: for Y = A.B
 * (M x N over K), dA = dY.B^T is M x K over N and dB = A^T.dY is K x N over
 * M (for a linear layer: over all the tokens), and the tile/wave model
 * times each on its own shape (roofline.c, DLP__MM_DGRAD/DLP__MM_WGRAD);
 * autograd's MmBackward/BmmBackward launch exactly these two. */
static int matmul_backward(const dlp__bwd_ctx *b, int k, dlp__bwd_kernel *out, int max) {
    const dlp__kernel *kk = &b->L->k[k];
    int kc = kk->kclass, gi = grad_in(b, k);
    int dx = gi > 0;
    int dw = kk->has_weight || gi >= 2;
    int n = put(out, 0, max, DLP__MM_DGRAD, DLP__BWD_FWD, dx, kk->flops, kk->bytes);
    n = put(out, n, max, DLP__MM_WGRAD, DLP__BWD_FWD, dw, kk->flops, kk->bytes);
    if (kc == DLP_KC_GEMM && kk->n > 1)
        n = put(out, n, max, "aten::sum (bias grad)", DLP__BWD_REDUCE, 1, kk->out_bytes / dlp__elem_bytes(b->cdt),
                kk->out_bytes);
    return n;
}

/* A single Add/Sub/Mul/Div node, per input that needs a gradient
 * (PyTorch's derivatives.yaml): Add passes dY through (no kernel; a
 * broadcast input gets a sum of dY); Sub the same for its first input and
 * -dY for its second (a neg kernel, or the sum when broadcast); Mul
 * computes dY x other and Div dY / other for the dividend, -dY x a / b^2
 * for the divisor (read dY and the other operand, write dX, reduced to a
 * broadcast input's shape).  Dividing by a constant scalar (the attention
 * scale) is one pass: read dY, write dX, the forward's bytes, not the
 * generic rule's 1.5x.  Returns -1 for other kernels. */
static int binary_backward(const dlp__bwd_ctx *b, const dlp__kernel *kk, dlp__bwd_kernel *out, int max) {
    if (kk->n != 1 || kk->kclass != DLP_KC_ELEMENTWISE) return -1;
    const dlp_node_info *ni = dlp_graph_node_at(b->g, kk->anchor);
    int add = is_op(ni, "Add"), sub = is_op(ni, "Sub"), mul = is_op(ni, "Mul"), div = is_op(ni, "Div");
    if ((!add && !sub && !mul && !div) || ni->n_inputs != 2 || ni->n_outputs < 1) return -1;
    const dlp_tensor_info *y = tensor(b->g, ni->outputs[0]);
    if (!y || y->numel <= 0) return -1;
    double ne = (double)y->numel, out_b = fmax(dlp__tensor_bytes_at(y, b->cdt), 0);
    int n = 0;
    for (int q = 0; q < 2; q++) {
        const dlp_tensor_info *a = tensor(b->g, ni->inputs[q]), *o = tensor(b->g, ni->inputs[1 - q]);
        if (!a || !needs_grad(b, ni->inputs[q])) continue;
        double a_b = fmax(dlp__tensor_bytes_at(a, b->cdt), 0), o_b = o ? fmax(dlp__tensor_bytes_at(o, b->cdt), 0) : 0;
        if ((add || sub) && a->numel < y->numel)
            n = put(out, n, max, "aten::sum (broadcast grad)", DLP__BWD_REDUCE, 1, ne, out_b + a_b);
        else if (sub && q == 1)
            n = put(out, n, max, "aten::neg (backward)", DLP__BWD_VECTOR, 1, ne, out_b + a_b);
        else if (mul)
            n = put(out, n, max, "aten::mul (backward)", DLP__BWD_VECTOR, 1, ne, out_b + o_b + a_b);
        else if (div && q == 0)
            n = put(out, n, max, "aten::div (backward)", DLP__BWD_VECTOR, 1, ne, out_b + o_b + a_b);
        else if (div)   /* the divisor's: dY, the dividend and the divisor read */
            n = put(out, n, max, "aten::div (divisor backward)", DLP__BWD_VECTOR, 1, 3 * ne, out_b + o_b + 2 * a_b);
    }
    return n;
}

int dlp__backward_kernels(const dlp__bwd_ctx *b, int k, dlp__bwd_kernel *out, int max) {
    if (!b || !b->L || k < 0 || k >= b->L->n || !out || max <= 0) return 0;
    const dlp__kernel *kk = &b->L->k[k];
    int kc = kk->kclass;
    if ((kc == DLP_KC_CONV || kc == DLP_KC_CONV_DW) && kk->anchor >= 0 &&
        is_op(dlp_graph_node_at(b->g, kk->anchor), "Conv") && !strncmp(kk->name, "aten::conv", 10))
        return conv_backward(b, k, out, max);
    if (kc == DLP_KC_CONV || kc == DLP_KC_CONV_DW || kc == DLP_KC_GEMM || kc == DLP_KC_BMM)
        return matmul_backward(b, k, out, max);
    if (kc == DLP_KC_ATTN)   /* flash backward: recompute + three products */
        return put(out, 0, max, "aten::_sdpa_backward", DLP__BWD_FWD, 1, 2.5 * kk->flops, 2.0 * kk->bytes);
    if (!strcmp(kk->name, "aten::batch_norm") || !strcmp(kk->name, "aten::layer_norm")) {
        int bn = !strcmp(kk->name, "aten::batch_norm");
        int n = put(out, 0, max, bn ? "aten::native_batch_norm_backward" : "aten::native_layer_norm_backward",
                    DLP__BWD_FWD, 1, kk->flops, 5.0 * kk->out_bytes);
        if (n > 0) out[0].bn = bn;
        return n;
    }
    /* an autocast cast (lower.c, "Autocast dtypes"): its backward casts the
     * gradient back, the same bytes the other way round (ToCopyBackward) */
    if (dlp__is_autocast_cast(kk))
        return kk->grad_inputs > 0 ? put(out, 0, max, "aten::_to_copy (backward)", DLP__BWD_FWD, 1, 0, kk->bytes) : 0;
    if (!strncmp(kk->name, "cudnn::nchwToNhwc", 17) || !strncmp(kk->name, "cudnn::nhwcToNchw", 17))
        return put(out, 0, max, kk->name, DLP__BWD_FWD, 2, 0, kk->bytes);
    const dlp_node_info *an = dlp_graph_node_at(b->g, kk->anchor);
    if (kk->n == 1 && is_op(an, "Gather") && an->n_inputs == 2 && an->n_outputs > 0) {
        /* an embedding lookup: the weight's gradient is the whole table,
         * zero-filled, then dY's rows added into the rows the indices name
         * (embedding_dense_backward: sort the indices, sum per row) */
        const dlp_tensor_info *w = tensor(b->g, an->inputs[0]), *y = tensor(b->g, an->outputs[0]);
        if (w && y && w->is_initializer && w->rank == 2 && needs_grad(b, an->inputs[0])) {
            double w_b = fmax(dlp__tensor_bytes_at(w, b->cdt), 0), y_b = fmax(dlp__tensor_bytes_at(y, b->cdt), 0);
            int n = put(out, 0, max, "aten::zero_ (embedding grad)", DLP__BWD_VECTOR, 1, 0, w_b);
            return put(out, n, max, "aten::embedding_dense_backward", DLP__BWD_VECTOR, 1, (double)y->numel, 2 * y_b);
        }
    }
    if (kk->n == 1 && is_op(an, "Dropout") && an->n_outputs > 0 && grad_in(b, k) > 0) {
        /* native_dropout_backward: dY x mask x 1/(1-p): reads dY and the
         * one-byte mask, writes dX (1x the forward's traffic, not 1.5x) */
        const dlp_tensor_info *y = tensor(b->g, an->outputs[0]);
        if (y && y->numel > 0) {
            double y_b = fmax(dlp__tensor_bytes_at(y, b->cdt), 0);
            return put(out, 0, max, "aten::native_dropout_backward", DLP__BWD_VECTOR, 1, (double)y->numel,
                       2 * y_b + (double)y->numel);
        }
    }
    if (kk->n == 1 && is_op(an, "Pow") && an->n_inputs == 2 && an->n_outputs > 0 && grad_in(b, k) > 0) {
        /* x ** c (a scalar c): pow_backward computes grad * (c * x.pow(c - 1))
         * as three kernels (pow, the scalar multiply, the product with dY):
         * 7 tensor transfers where the generic rule counts 3 (NeuSight's
         * GPT-2 traces: pow's backward 2.6-3x its forward) */
        const dlp_tensor_info *e = tensor(b->g, an->inputs[1]), *y = tensor(b->g, an->outputs[0]);
        if (e && e->numel == 1 && y && y->numel > 0) {
            double y_b = fmax(dlp__tensor_bytes_at(y, b->cdt), 0), ne = (double)y->numel;
            int n = put(out, 0, max, "aten::pow (backward)", DLP__BWD_VECTOR, 1, ne, 2 * y_b);
            n = put(out, n, max, "aten::mul (backward, exponent)", DLP__BWD_VECTOR, 1, ne, 2 * y_b);
            return put(out, n, max, "aten::mul (backward)", DLP__BWD_VECTOR, 1, ne, 3 * y_b);
        }
    }
    int nb = binary_backward(b, kk, out, max);
    if (nb >= 0) return nb;
    if (kk->has_weight || grad_in(b, k) > 0)
        return put(out, 0, max, kk->name, DLP__BWD_FWD, 1, kk->flops, DLP__BWD_BYTES_FACTOR * kk->bytes);
    return 0;
}

double dlp__bn_nchw_floor_s(const dlp__bwd_ctx *b, const dlp__kernel *kk, double bytes) {
    if (!b || !kk || b->memfmt != DLP_MEMFMT_NCHW || strcmp(kk->name, "aten::batch_norm") || bytes <= 0) return 0;
    const dlp_node_info *ni = dlp_graph_node_at(b->g, kk->anchor);
    if (!ni) return 0;
    double ch = 0;
    if (is_op(ni, "Conv")) {          /* the BatchNorm folded into a conv: its output channels */
        const dlp_tensor_info *w = ni->n_inputs > 1 ? tensor(b->g, ni->inputs[1]) : NULL;
        if (w && w->rank >= 3) ch = (double)w->dims[0];
    } else {
        const dlp_tensor_info *x = ni->n_inputs > 0 ? tensor(b->g, ni->inputs[0]) : NULL;
        if (x && x->rank >= 3) ch = (double)x->dims[1];
    }
    return ch > 0 ? bytes / ch / (DLP__BN_NCHW_CTA_GBS * 1e9) : 0;
}

/* Whether a view node reads a part of its input (x[:, 0], chunk, split):
 * the gradients of the parts are put together, not summed. */
static int slicing_view(const dlp_node_info *ni) {
    return is_op(ni, "Slice") || is_op(ni, "Split") || is_op(ni, "Gather");
}

/* Distinct kernels (other than k) reached from node s through views; those
 * reached through a slicing view go to set[1], the others to set[0]. */
typedef struct {
    int k[2][64], n[2];
} reach_set;

static void reach_kernels(const dlp__bwd_ctx *b, int s, int k, int sliced, reach_set *rs, int depth) {
    if (s < 0 || s >= b->L->n_nodes || depth > 6) return;
    int ks = b->L->node_kernel[s];
    if (ks >= 0) {
        if (ks == k) return;
        for (int i = 0; i < rs->n[sliced]; i++)
            if (rs->k[sliced][i] == ks) return;
        if (rs->n[sliced] < 64) rs->k[sliced][rs->n[sliced]++] = ks;
        return;
    }
    if (!b->L->node_view[s]) return;
    const dlp_node_info *ni = dlp_graph_node_at(b->g, s);
    int sl = sliced || slicing_view(ni);
    for (int j = 0; ni && j < ni->n_succs; j++) reach_kernels(b, ni->succs[j], k, sl, rs, depth + 1);
}

/* The gradient of a tensor read whole by n kernels is the sum of n
 * gradients: n - 1 adds (read two, write one).  Parts read through slicing
 * views (q, k, v chunks of one projection) are assembled into one gradient
 * (a copy: read the parts, write the whole), which then counts as one more
 * whole reader. */
int dlp__backward_fork_adds(const dlp__bwd_ctx *b, int k, double *bytes) {
    if (bytes) *bytes = 0;
    if (!b || !b->L || k < 0 || k >= b->L->n) return 0;
    const dlp__kernel *kk = &b->L->k[k];
    int adds = 0;
    for (int m = 0; m < kk->n; m++) {
        int node = b->L->members[kk->first + m];
        const dlp_node_info *ni = dlp_graph_node_at(b->g, node);
        if (!ni || ni->n_outputs < 1) continue;
        const dlp_tensor_info *t = tensor(b->g, ni->outputs[0]);
        if (!needs_grad(b, ni->outputs[0])) continue;
        double tb = fmax(dlp__tensor_bytes_at(t, b->cdt), 0);
        reach_set rs = {{{0}}, {0, 0}};
        for (int j = 0; j < ni->n_succs; j++) reach_kernels(b, ni->succs[j], k, 0, &rs, 0);
        int whole = rs.n[0] + (rs.n[1] > 0);
        if (rs.n[1] > 1) {
            adds += 1;
            if (bytes) *bytes += 2.0 * tb;
        }
        if (whole > 1) {
            adds += whole - 1;
            if (bytes) *bytes += (whole - 1) * 3.0 * tb;
        }
    }
    return adds;
}

/* Per parameter, per step (bytes per parameter, kernels per tensor):
 *  - autocast's cast backward: the fp16/bf16 weight gradient to fp32
 *    (read 2, write 4), one kernel per cast weight;
 *  - PyTorch 1.x: zero_grad() keeps the .grad tensors (set_to_none is
 *    False before 2.0), so AccumulateGrad adds the new gradient in place
 *    (read 8, write 4), and optimizers loop over tensors (foreach is off
 *    by default before 2.0): SGD 1 kernel (12 B), SGD momentum 3 (buf.mul_,
 *    buf.add_, param.add_: 32 B), Adam 8 (two moment updates of two kernels,
 *    sqrt / div / add_ for the denominator, addcdiv_: 80 B);
 *  - PyTorch 2.x: the new gradient is stolen (set_to_none), and the
 *    optimizer is the multi-tensor (foreach) step, one launch per
 *    DLP__FOREACH_TENSORS tensors: Adam 28 B, SGD 12, SGD momentum 20;
 *  - fp16 (not bf16): GradScaler unscales every gradient and checks it for
 *    inf/NaN (read 4, write 4), one multi-tensor launch per 36 tensors. */
int dlp__step_param_kernels(int runtime, int cdt, int optimizer, double params, double n_tensors,
                            double cast_params, double cast_tensors, dlp__bwd_kernel *out, int max) {
    if (!out || params <= 0 || n_tensors < 1) return 0;
    int half = cdt == DLP_DT_FLOAT16 || cdt == DLP_DT_BFLOAT16;
    int old = runtime == DLP_RUNTIME_EAGER1X;
    int nf = (int)ceil(n_tensors / DLP__FOREACH_TENSORS);
    int n = 0;
    if (half && cast_tensors >= 1)
        n = put(out, n, max, "aten::_to_copy (cast backward)", DLP__BWD_VECTOR, (int)cast_tensors, 0,
                cast_params / cast_tensors * (dlp__elem_bytes(cdt) + 4.0));
    if (half && cdt == DLP_DT_FLOAT16)
        n = put(out, n, max, "aten::_amp_foreach_non_finite_check_and_unscale_", DLP__BWD_VECTOR, nf, params / nf,
                8.0 * params / nf);
    static const char *const name1x[] = {"aten::add_ (adam, per tensor)", "aten::add_ (sgd, per tensor)",
                                         "aten::add_ (sgd momentum, per tensor)"};
    static const char *const name2x[] = {"aten::_foreach (adam)", "aten::_foreach (sgd)",
                                         "aten::_foreach (sgd momentum)"};
    static const double k1x[] = {8, 1, 3}, b1x[] = {80, 12, 32}, f1x[] = {12, 2, 3};
    static const double b2x[] = {28, 12, 20};
    int opt = optimizer >= 0 && optimizer <= 2 ? optimizer : 0;
    if (old) {
        n = put(out, n, max, "AccumulateGrad (aten::add_)", DLP__BWD_VECTOR, (int)n_tensors, params / n_tensors,
                12.0 * params / n_tensors);
        int nk = (int)(k1x[opt] * n_tensors);
        n = put(out, n, max, name1x[opt], DLP__BWD_VECTOR, nk, f1x[opt] * params / nk, b1x[opt] * params / nk);
    } else {
        n = put(out, n, max, name2x[opt], DLP__BWD_VECTOR, nf, f1x[opt] * params / nf, b2x[opt] * params / nf);
    }
    return n;
}

/* ---- what the forward pass keeps for the backward ---------------------------- */

static void mark_inputs(const dlp__bwd_ctx *b, const dlp_node_info *ni, unsigned char *mark, const int *root) {
    for (int q = 0; q < ni->n_inputs; q++) {
        const dlp_tensor_info *t = tensor(b->g, ni->inputs[q]);
        if (t && !t->is_initializer && !t->has_value) mark[root[ni->inputs[q]]] = 1;
    }
}

static void mark_output(const dlp_node_info *ni, unsigned char *mark, const int *root) {
    if (ni->n_outputs > 0 && ni->outputs[0] >= 0) mark[root[ni->outputs[0]]] = 1;
}

/* The inputs a fused group reads from outside itself. */
static void mark_group_inputs(const dlp__bwd_ctx *b, const dlp__kernel *kk, int k, unsigned char *mark,
                              const int *root) {
    for (int m = 0; m < kk->n; m++) {
        const dlp_node_info *ni = dlp_graph_node_at(b->g, b->L->members[kk->first + m]);
        for (int q = 0; ni && q < ni->n_inputs; q++) {
            const dlp_tensor_info *t = tensor(b->g, ni->inputs[q]);
            if (!t || t->is_initializer || t->has_value) continue;
            if (t->producer >= 0 && b->L->node_kernel[t->producer] == k) continue;
            mark[root[ni->inputs[q]]] = 1;
        }
    }
}

/* One kernel's saved tensors (dlp__saved_bytes); *extra gets bytes that are
 * no graph tensor (pooling indices, dropout masks). */
static void mark_saved(const dlp__bwd_ctx *b, int k, unsigned char *mark, const int *root, double *extra) {
    const dlp__kernel *kk = &b->L->k[k];
    const dlp_node_info *ni = dlp_graph_node_at(b->g, kk->anchor);
    if (!ni || kk->kclass == DLP_KC_COPY) return;
    int kc = kk->kclass;
    if (!strcmp(kk->name, "aten::batch_norm") && is_op(ni, "Conv")) {
        mark_output(ni, mark, root);            /* the BatchNorm the exporter folded reads the conv output */
    } else if (kc == DLP_KC_ATTN) {
        mark_group_inputs(b, kk, k, mark, root);
        mark_output(ni, mark, root);
    } else if (kk->n > 1 || kc == DLP_KC_CONV || kc == DLP_KC_CONV_DW || kc == DLP_KC_GEMM || kc == DLP_KC_BMM) {
        mark_group_inputs(b, kk, k, mark, root);
    } else if (is_op(ni, "Relu") || is_op(ni, "Sigmoid") || is_op(ni, "Tanh") || is_op(ni, "Softmax") ||
               is_op(ni, "LogSoftmax") || is_op(ni, "Exp") || is_op(ni, "Sqrt")) {
        mark_output(ni, mark, root);
    } else if (is_op(ni, "Add") || is_op(ni, "Sub") || is_op(ni, "Concat") || is_op(ni, "Pad") ||
               is_op(ni, "AveragePool") || is_op(ni, "GlobalAveragePool") || is_op(ni, "ReduceMean") ||
               is_op(ni, "Cast") || is_op(ni, "Neg") || is_op(ni, "Flatten") || is_op(ni, "Reshape")) {
        return;
    } else if (is_op(ni, "MaxPool") || is_op(ni, "Dropout")) {
        const dlp_tensor_info *y = ni->n_outputs > 0 ? tensor(b->g, ni->outputs[0]) : NULL;
        if (is_op(ni, "MaxPool")) mark_inputs(b, ni, mark, root);
        if (y && y->numel > 0) *extra += (double)y->numel * (is_op(ni, "MaxPool") ? 8.0 : 1.0);
    } else {
        mark_inputs(b, ni, mark, root);          /* GELU, SiLU, Mul, Div, norms, ...: their inputs */
    }
}

double dlp__saved_bytes(const dlp__bwd_ctx *b) {
    if (!b || !b->g || !b->L) return 0;
    int n = dlp_graph_node_count(b->g), nt = dlp_graph_tensor_count(b->g);
    int *root = malloc(sizeof(int) * (size_t)(nt ? nt : 1));
    unsigned char *mark = calloc((size_t)(nt ? nt : 1), 1);
    if (!root || !mark) {
        free(root), free(mark);
        return -1;
    }
    for (int t = 0; t < nt; t++) root[t] = t;
    for (int i = 0; i < n && i < b->L->n_nodes; i++) {
        const dlp_node_info *ni = dlp_graph_node_at(b->g, i);
        if (!b->L->node_view[i] || ni->n_inputs < 1 || ni->inputs[0] < 0) continue;
        for (int o = 0; o < ni->n_outputs; o++)
            if (ni->outputs[o] >= 0) root[ni->outputs[o]] = root[ni->inputs[0]];
    }
    double extra = 0, total = 0;
    for (int k = 0; k < b->L->n; k++) mark_saved(b, k, mark, root, &extra);
    for (int t = 0; t < nt; t++) {
        const dlp_tensor_info *ti = dlp_graph_tensor_at(b->g, t);
        if (ti->producer < 0 && ti->is_input && !ti->is_initializer) mark[root[t]] = 1;
    }
    for (int t = 0; t < nt; t++)
        if (mark[t]) total += fmax(dlp__tensor_bytes_at(dlp_graph_tensor_at(b->g, t), b->cdt), 0);
    free(root), free(mark);
    return total + extra;
}
