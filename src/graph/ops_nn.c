/*
 * ops_nn.c — shape and cost rules for the neural-network ops: convolutions,
 * pools, Gemm/MatMul/Einsum, normalisations, softmax, reductions,
 * TopK/Arg*, RNNs, Resize/Upsample and the com.microsoft fused transformer
 * ops (Attention, SkipLayerNormalization, ...).
 *
 * Shapes follow the ONNX specification for opsets 7..21 (and the ONNX
 * Runtime contrib-op schemas for com.microsoft); where the spec is silent
 * the rules follow onnx's C++ shape inference, which is what the golden
 * cases are generated from.  Inconsistent known shapes fail the load with a
 * message naming the input; unknown shapes give unknown outputs.
 *
 * Costs (MACs, FLOPs) follow docs/costs.md; every constant used below is
 * explained there.  MACs are only counted for Conv*, Gemm, MatMul*, Einsum,
 * RNNs and attention; everything else has MACs = 0.
 */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "graph/ops.h"

#define MAXR DLP_MAX_RANK
/* Attribute values above this are treated as corrupt (no real kernel,
 * stride, pad or size comes near 2^40) and keep the int64 maths safe. */
#define ABSURD ((int64_t)1 << 40)

/* ======================================================================
 * small helpers
 * ====================================================================== */

static int64_t dimv(const dlp__value *v, int i) {
    return v && v->rank > i && i >= 0 && v->dims ? v->dims[i] : -1;
}

static int64_t numel0(const dlp__value *v) {
    int64_t n = dlp__numel(v);
    return n > 0 ? n : 0;
}

/* Product of known non-negative dims; -1 if any is unknown or it overflows. */
static int64_t prod_dims(const int64_t *d, int n) {
    int64_t p = 1;
    for (int i = 0; i < n; i++) {
        if (d[i] < 0 || !dlp__mul_ok(p, d[i], &p)) return -1;
    }
    return p;
}

/* a*b for dims where -1 means unknown; *ovf set when the product of two
 * known dims overflows (callers fail the node). */
static int64_t dmul(int64_t a, int64_t b, int *ovf) {
    int64_t r;
    if (a < 0 || b < 0) return -1;
    if (!dlp__mul_ok(a, b, &r)) {
        *ovf = 1;
        return -1;
    }
    return r;
}

static int64_t dadd(int64_t a, int64_t b) {
    int64_t r;
    if (a < 0 || b < 0 || !dlp__add_ok(a, b, &r)) return -1;
    return r;
}

/* Local arrays are sized for DLP_MAX_RANK (times a small factor); a rank
 * beyond that is refused up front rather than truncated silently. */
static dlp_status check_ranks(const dlp__ictx *c) {
    for (int i = 0; i < dlp__n_in(c); i++) {
        const dlp__value *v = dlp__in(c, i);
        if (v && v->rank > MAXR)
            return dlp__fail(c, "input '%s' has rank %d; ranks above %d are not supported",
                             v->name, v->rank, MAXR);
    }
    return DLP_OK;
}

#define RANKS_OK(c)                                                         \
    do {                                                                    \
        dlp_status rk_ = check_ranks(c);                                    \
        if (rk_) return rk_;                                                \
    } while (0)

static dlp_status need(const dlp__ictx *c, const dlp__value *v, const char *what) {
    return v ? DLP_OK : dlp__fail(c, "missing required input '%s'", what);
}

/* An optional input counts as absent when omitted (name "" in ONNX) or
 * when it is known to hold 0 elements: ONNX's convention for "not given"
 * in positional inputs such as Resize's roi/scales. */
static int present(const dlp__value *v) {
    return v && dlp__numel(v) != 0;
}

/* Same shape as v, with v's dtype or `dtype` when non-zero (no values:
 * these ops compute new data). */
static dlp_status same_shape(const dlp__ictx *c, int o, const dlp__value *v, int dtype) {
    if (!v) return DLP_OK;
    return dlp__set_out(c, o, dtype ? dtype : v->dtype, v->rank, v->dims);
}

static int64_t row_fpe(const dlp__ictx *c) {
    const dlp__op_def *d = c->def;
    return d && d->flops_per_elem > 0 ? d->flops_per_elem : 1;
}

static int is_op(const dlp__ictx *c, const char *name) { return !strcmp(c->node->op_type, name); }

/* ======================================================================
 * sliding windows: Conv / ConvTranspose / pools
 * ====================================================================== */

enum { PAD_NOTSET, PAD_SAME_UPPER, PAD_SAME_LOWER, PAD_VALID };

typedef struct {
    int n;                        /* spatial rank                         */
    int auto_pad;
    int64_t k[MAXR];              /* kernel, -1 unknown                   */
    int64_t s[MAXR], d[MAXR];     /* strides, dilations                   */
    int64_t pads[2 * MAXR];       /* begin[0..n), end[n..2n)              */
} win_t;

/* Read an INTS attribute of exactly n values; absent -> def everywhere.
 * Values outside [lo, ABSURD] fail the node naming the attribute. */
static dlp_status ints_n(const dlp__ictx *c, const char *name, int n, int64_t def, int64_t lo,
                         int64_t *out, int *was_present) {
    const int64_t *v = NULL;
    int k = dlp__attr_ints(c, name, &v);
    if (was_present) *was_present = k >= 0;
    if (k < 0) {
        for (int i = 0; i < n; i++) out[i] = def;
        return DLP_OK;
    }
    if (k != n)
        return dlp__fail(c, "attribute '%s' has %d values, expected %d", name, k, n);
    for (int i = 0; i < n; i++) {
        if (v[i] < lo || v[i] > ABSURD)
            return dlp__fail(c, "attribute '%s'[%d] is %lld, must be in [%lld, 2^40]", name, i,
                             (long long)v[i], (long long)lo);
        out[i] = v[i];
    }
    return DLP_OK;
}

static dlp_status read_auto_pad(const dlp__ictx *c, int *ap) {
    const char *s = dlp__attr_s(c, "auto_pad", "NOTSET");
    if (!strcmp(s, "NOTSET") || !*s) *ap = PAD_NOTSET;
    else if (!strcmp(s, "SAME_UPPER")) *ap = PAD_SAME_UPPER;
    else if (!strcmp(s, "SAME_LOWER")) *ap = PAD_SAME_LOWER;
    else if (!strcmp(s, "VALID")) *ap = PAD_VALID;
    else return dlp__fail(c, "attribute auto_pad is '%s' (NOTSET, SAME_UPPER, SAME_LOWER or VALID)", s);
    return DLP_OK;
}

/* Window attributes for n spatial axes.  The kernel comes from the
 * kernel_shape attribute or, when absent (it is optional for Conv), from
 * W's spatial dims (W is NULL for pools, where kernel_shape is required). */
static dlp_status read_window(const dlp__ictx *c, int n, const dlp__value *w, win_t *win) {
    dlp_status st;
    int has_k;
    memset(win, 0, sizeof *win);
    win->n = n;
    if ((st = read_auto_pad(c, &win->auto_pad))) return st;
    if ((st = ints_n(c, "kernel_shape", n, -1, 1, win->k, &has_k))) return st;
    if (!has_k) {
        if (!w) return dlp__fail(c, "attribute kernel_shape is required");
        for (int i = 0; i < n; i++) win->k[i] = dimv(w, i + 2);
    } else if (w && w->rank == n + 2) {
        /* an explicit kernel_shape must agree with the weights */
        for (int i = 0; i < n; i++)
            if (w->dims[i + 2] >= 0 && w->dims[i + 2] != win->k[i])
                return dlp__fail(c, "kernel_shape[%d] is %lld but input '%s' has %lld there", i,
                                 (long long)win->k[i], w->name, (long long)w->dims[i + 2]);
    }
    if ((st = ints_n(c, "strides", n, 1, 1, win->s, NULL))) return st;
    if ((st = ints_n(c, "dilations", n, 1, 1, win->d, NULL))) return st;
    if ((st = ints_n(c, "pads", 2 * n, 0, 0, win->pads, NULL))) return st;
    for (int i = 0; i < n; i++) {
        int64_t ke;
        if (win->k[i] < 0) continue;
        if (win->k[i] > ABSURD)
            return dlp__fail(c, "kernel dim %d is %lld", i, (long long)win->k[i]);
        if (!dlp__mul_ok(win->k[i] - 1, win->d[i], &ke) || ke > ABSURD)
            return dlp__fail(c, "dilated kernel extent on axis %d is absurd (kernel %lld, dilation %lld)",
                             i, (long long)win->k[i], (long long)win->d[i]);
    }
    return DLP_OK;
}

/* Dilated kernel extent (k-1)*d+1; -1 when k unknown. */
static int64_t keff(const win_t *w, int i) {
    if (w->k[i] < 0) return -1;
    return (w->k[i] - 1) * w->d[i] + 1; /* bounded by read_window */
}

/* Begin/end padding of axis i for an input extent `in` (Conv/pools).
 * SAME_*: onnx's rule — total = keff - (in mod s, or s when it divides),
 * never negative; the odd pixel goes to the end (UPPER) or the begin
 * (LOWER).  This gives ceil(in / s) outputs. */
static void win_pads(const win_t *w, int i, int64_t in, int64_t *pb, int64_t *pe) {
    if (w->auto_pad == PAD_SAME_UPPER || w->auto_pad == PAD_SAME_LOWER) {
        int64_t ke = keff(w, i), r = in % w->s[i];
        int64_t total = (r == 0 ? ke - w->s[i] : ke - r);
        if (total < 0) total = 0;
        int64_t small = total / 2, big = total - small;
        *pb = w->auto_pad == PAD_SAME_UPPER ? small : big;
        *pe = w->auto_pad == PAD_SAME_UPPER ? big : small;
    } else if (w->auto_pad == PAD_VALID) {
        *pb = *pe = 0;
    } else {
        *pb = w->pads[i];
        *pe = w->pads[i + w->n];
    }
}

/* Output extent of spatial axis i (Conv and pools). */
static dlp_status win_out(const dlp__ictx *c, const win_t *w, int i, int64_t in, int ceil_mode,
                          const char *xname, int64_t *out) {
    *out = -1;
    if (in < 0 || w->k[i] < 0) return DLP_OK;
    if (in > ABSURD * 1024) return dlp__fail(c, "input '%s' spatial dim %d is %lld", xname, i, (long long)in);
    int64_t ke = keff(w, i), pb, pe;
    win_pads(w, i, in, &pb, &pe);
    int64_t eff = in + pb + pe; /* all < 2^51: safe */
    if (eff < ke) {
        if (w->auto_pad == PAD_SAME_UPPER || w->auto_pad == PAD_SAME_LOWER) {
            *out = (in + w->s[i] - 1) / w->s[i]; /* only reachable for in == 0 */
            return DLP_OK;
        }
        return dlp__fail(c, "input '%s' spatial dim %d is %lld (%lld with padding), smaller than "
                         "the kernel extent %lld (kernel %lld, dilation %lld)", xname, i,
                         (long long)in, (long long)eff, (long long)ke, (long long)w->k[i],
                         (long long)w->d[i]);
    }
    int64_t span = eff - ke, s = w->s[i];
    int64_t pos = ceil_mode ? span / s + (span % s != 0) : span / s;
    int64_t o = pos + 1;
    /* ceil_mode: the last window must start inside the input or the left
     * padding, never entirely in the right padding (onnx reference and
     * PyTorch; onnx's C++ inference before 1.16 missed this). */
    if (ceil_mode && pos * s >= in + pb) o--;
    *out = o;
    return DLP_OK;
}

/* ---- Conv family -------------------------------------------------------- */

/* Input slots (X, W, B) of each conv-like op. */
static void conv_slots(const dlp__ictx *c, int *xi, int *wi, int *bi) {
    *xi = 0, *wi = 1, *bi = 2;
    if (is_op(c, "QLinearConv")) *wi = 3, *bi = 8;
    else if (is_op(c, "ConvInteger")) *bi = -1;
    else if (is_op(c, "DeformConv")) *bi = 3;
}

static int conv_out_dtype(const dlp__ictx *c, const dlp__value *x) {
    if (is_op(c, "ConvInteger")) return DLP_DT_INT32;
    if (is_op(c, "QLinearConv")) {
        const dlp__value *yz = dlp__in(c, 7);
        if (yz && yz->dtype) return yz->dtype;
    }
    return x ? x->dtype : 0;
}

static dlp_status shape_conv(dlp__ictx *c) {
    RANKS_OK(c);
    int xi, wi, bi;
    conv_slots(c, &xi, &wi, &bi);
    dlp__value *x = dlp__in(c, xi), *w = dlp__in(c, wi), *b = dlp__in(c, bi);
    dlp_status st;
    if ((st = need(c, x, "X")) || (st = need(c, w, "W"))) return st;
    int dt = conv_out_dtype(c, x);
    int r = x->rank >= 0 ? x->rank : w->rank;
    if (r < 0) {
        dlp__set_out_dtype(c, 0, dt);
        return DLP_OK;
    }
    if (r < 3)
        return dlp__fail(c, "input '%s' has rank %d, %s needs rank >= 3 (N, C, spatial...)",
                         x->rank >= 0 ? x->name : w->name, r, c->node->op_type);
    if (x->rank >= 0 && w->rank >= 0 && w->rank != x->rank)
        return dlp__fail(c, "input '%s' (W) has rank %d, %s needs rank %d like '%s' (X)", w->name,
                         w->rank, c->node->op_type, x->rank, x->name);
    int n = r - 2;
    win_t win;
    if ((st = read_window(c, n, w, &win))) return st;
    int64_t group = dlp__attr_i(c, "group", 1);
    if (group < 1 || group > ABSURD) return dlp__fail(c, "attribute group is %lld", (long long)group);
    int64_t cin = dimv(x, 1), wc = dimv(w, 1), m = dimv(w, 0);
    int64_t want;
    if (cin >= 0 && wc >= 0 && (!dlp__mul_ok(wc, group, &want) || cin != want))
        return dlp__fail(c, "input '%s' has %lld channels but '%s' (W) expects %lld (W dim 1) x group %lld",
                         x->name, (long long)cin, w->name, (long long)wc, (long long)group);
    if (m >= 0 && m % group)
        return dlp__fail(c, "input '%s' (W) has %lld output channels, not divisible by group %lld",
                         w->name, (long long)m, (long long)group);
    if (b && b->rank >= 0) {
        if (b->rank != 1)
            return dlp__fail(c, "input '%s' (B) has rank %d, expected 1", b->name, b->rank);
        if (m >= 0 && b->dims[0] >= 0 && b->dims[0] != m)
            return dlp__fail(c, "input '%s' (B) has %lld values for %lld output channels", b->name,
                             (long long)b->dims[0], (long long)m);
    }
    int64_t od[MAXR];
    od[0] = dimv(x, 0);
    od[1] = m;
    for (int i = 0; i < n; i++)
        if ((st = win_out(c, &win, i, dimv(x, i + 2), 0, x->name, &od[i + 2]))) return st;
    return dlp__set_out(c, 0, dt, r, od);
}

/* Kernel spatial product from W's dims or the kernel_shape attribute. */
static int64_t kernel_prod(const dlp__ictx *c, const dlp__value *w, int n) {
    if (w && w->rank == n + 2) {
        int64_t p = prod_dims(w->dims + 2, n);
        if (p >= 0) return p;
    }
    const int64_t *k;
    int nk = dlp__attr_ints(c, "kernel_shape", &k);
    if (nk != n) return -1;
    int64_t p = 1;
    for (int i = 0; i < n; i++)
        if (k[i] < 0 || !dlp__mul_ok(p, k[i], &p)) return -1;
    return p;
}

/* MACs = output elements x (C_in / group) x prod(kernel). */
static void cost_conv(dlp__ictx *c) {
    int xi, wi, bi;
    conv_slots(c, &xi, &wi, &bi);
    const dlp__value *x = dlp__in(c, xi), *w = dlp__in(c, wi), *y = dlp__out(c, 0);
    int64_t ny = numel0(y);
    if (!ny || !y || y->rank < 3) return;
    int n = y->rank - 2;
    int64_t group = dlp__attr_i(c, "group", 1);
    int64_t cpg = dimv(w, 1);
    if (cpg < 0 && dimv(x, 1) >= 0 && group > 0) cpg = dimv(x, 1) / group;
    int64_t kp = kernel_prod(c, w, n);
    c->node->macs = dlp__sat_mul(dlp__sat_mul(ny, cpg), kp);
    c->node->flops = dlp__sat_mul(c->node->macs, 2);
    if (present(dlp__in(c, bi))) c->node->flops = dlp__sat_add(c->node->flops, ny);
    /* FusedConv applies its activation (and optional Z sum) per output */
    if (is_op(c, "FusedConv")) {
        if (dlp__attr_s(c, "activation", NULL)) c->node->flops = dlp__sat_add(c->node->flops, ny);
        if (present(dlp__in(c, 3))) c->node->flops = dlp__sat_add(c->node->flops, ny);
    }
}

static dlp_status shape_conv_transpose(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0), *w = dlp__in(c, 1), *b = dlp__in(c, 2);
    dlp_status st;
    if ((st = need(c, x, "X")) || (st = need(c, w, "W"))) return st;
    int r = x->rank >= 0 ? x->rank : w->rank;
    if (r < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    if (r < 3)
        return dlp__fail(c, "input '%s' has rank %d, ConvTranspose needs rank >= 3", x->name, r);
    if (x->rank >= 0 && w->rank >= 0 && w->rank != x->rank)
        return dlp__fail(c, "input '%s' (W) has rank %d, ConvTranspose needs rank %d like '%s' (X)",
                         w->name, w->rank, x->rank, x->name);
    int n = r - 2;
    win_t win;
    if ((st = read_window(c, n, w, &win))) return st;
    int64_t group = dlp__attr_i(c, "group", 1);
    if (group < 1 || group > ABSURD) return dlp__fail(c, "attribute group is %lld", (long long)group);
    /* W is (C_in, C_out/group, k...) — the transpose of Conv's layout */
    int64_t cin = dimv(x, 1), wc = dimv(w, 0), mpg = dimv(w, 1);
    if (cin >= 0 && wc >= 0 && cin != wc)
        return dlp__fail(c, "input '%s' has %lld channels but '%s' (W) has %lld input channels",
                         x->name, (long long)cin, w->name, (long long)wc);
    if (wc >= 0 && wc % group)
        return dlp__fail(c, "input '%s' (W) has %lld input channels, not divisible by group %lld",
                         w->name, (long long)wc, (long long)group);
    int ovf = 0;
    int64_t m = dmul(mpg, group, &ovf);
    if (ovf) return dlp__fail(c, "output channels overflow");
    if (b && b->rank == 1 && m >= 0 && b->dims[0] >= 0 && b->dims[0] != m)
        return dlp__fail(c, "input '%s' (B) has %lld values for %lld output channels", b->name,
                         (long long)b->dims[0], (long long)m);
    int64_t opad[MAXR], oshape[MAXR + 2];
    if ((st = ints_n(c, "output_padding", n, 0, 0, opad, NULL))) return st;
    const int64_t *os;
    int nos = dlp__attr_ints(c, "output_shape", &os);
    if (nos >= 0) {
        /* spatial only per the spec; a full (N, C, ...) shape is also seen
         * in the wild and ONNX Runtime takes its trailing dims */
        if (nos != n && nos != n + 2)
            return dlp__fail(c, "attribute output_shape has %d values, expected %d", nos, n);
        for (int i = 0; i < n; i++) {
            oshape[i] = os[nos - n + i];
            if (oshape[i] < 0 || oshape[i] > ABSURD)
                return dlp__fail(c, "attribute output_shape[%d] is %lld", i, (long long)oshape[i]);
        }
    }
    int64_t od[MAXR];
    od[0] = dimv(x, 0);
    od[1] = m;
    for (int i = 0; i < n; i++) {
        int64_t in = dimv(x, i + 2);
        if (nos >= 0) {
            od[i + 2] = oshape[i];
            continue;
        }
        if (in < 0 || win.k[i] < 0) {
            od[i + 2] = -1;
            continue;
        }
        if (in > ABSURD) return dlp__fail(c, "input '%s' spatial dim %d is %lld", x->name, i, (long long)in);
        int64_t ke = keff(&win, i), pb, pe;
        if (win.auto_pad == PAD_SAME_UPPER || win.auto_pad == PAD_SAME_LOWER) {
            /* onnx's inference: total pad = keff - stride (>= 0), which gives
             * in * stride (+ output_padding) as the spec's SAME rule says */
            int64_t total = ke - win.s[i];
            if (total < 0) total = 0;
            int64_t small = total / 2, big = total - small;
            pb = win.auto_pad == PAD_SAME_UPPER ? small : big;
            pe = win.auto_pad == PAD_SAME_UPPER ? big : small;
        } else if (win.auto_pad == PAD_VALID) {
            pb = pe = 0;
        } else {
            pb = win.pads[i];
            pe = win.pads[i + n];
        }
        /* stride x (in-1) can overflow; every other term is < 2^41 */
        int64_t base;
        if (!dlp__mul_ok(win.s[i], in > 0 ? in - 1 : 0, &base) || base > ABSURD * 1024)
            return dlp__fail(c, "output size overflows on spatial axis %d", i);
        int64_t o = base + opad[i] + ke - pb - pe;
        if (in == 0) o = 0;
        if (o < 0)
            return dlp__fail(c, "output spatial dim %d would be %lld (pads larger than the output)",
                             i, (long long)o);
        od[i + 2] = o;
    }
    return dlp__set_out(c, 0, x->dtype, r, od);
}

/* MACs = input elements x (C_out / group) x prod(kernel): every input
 * pixel is scattered through a kernel into C_out/group channels. */
static void cost_conv_transpose(dlp__ictx *c) {
    const dlp__value *x = dlp__in(c, 0), *w = dlp__in(c, 1), *y = dlp__out(c, 0);
    int64_t nx = numel0(x);
    if (!nx || x->rank < 3) return;
    int n = x->rank - 2;
    int64_t mpg = dimv(w, 1);
    if (mpg < 0 && dimv(y, 1) >= 0) {
        int64_t g = dlp__attr_i(c, "group", 1);
        if (g > 0) mpg = dimv(y, 1) / g;
    }
    c->node->macs = dlp__sat_mul(dlp__sat_mul(nx, mpg), kernel_prod(c, w, n));
    c->node->flops = dlp__sat_mul(c->node->macs, 2);
    if (present(dlp__in(c, 2))) c->node->flops = dlp__sat_add(c->node->flops, numel0(y));
}

/* ---- pools ---------------------------------------------------------------- */

static dlp_status shape_pool(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0);
    dlp_status st;
    if ((st = need(c, x, "X"))) return st;
    dlp__set_out_dtype(c, 1, DLP_DT_INT64); /* MaxPool's Indices */
    if (x->rank < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    if (x->rank < 3)
        return dlp__fail(c, "input '%s' has rank %d, %s needs rank >= 3 (N, C, spatial...)",
                         x->name, x->rank, c->node->op_type);
    int n = x->rank - 2;
    win_t win;
    if ((st = read_window(c, n, NULL, &win))) return st;
    int ceil_mode = dlp__attr_i(c, "ceil_mode", 0) != 0;
    int64_t od[MAXR];
    od[0] = x->dims[0];
    od[1] = x->dims[1];
    for (int i = 0; i < n; i++)
        if ((st = win_out(c, &win, i, x->dims[i + 2], ceil_mode, x->name, &od[i + 2]))) return st;
    if ((st = dlp__set_out(c, 0, x->dtype, x->rank, od))) return st;
    return dlp__set_out(c, 1, DLP_DT_INT64, x->rank, od);
}

/* FLOPs = output elements x kernel window (a compare or an add each). */
static void cost_pool(dlp__ictx *c) {
    const dlp__value *y = dlp__out(c, 0);
    if (!y || y->rank < 3) return;
    c->node->flops = dlp__sat_mul(numel0(y), kernel_prod(c, NULL, y->rank - 2));
    /* LpPool: |x|^p, sum, root -> 2 per window element */
    if (is_op(c, "LpPool")) c->node->flops = dlp__sat_mul(c->node->flops, 2);
}

static dlp_status shape_global_pool(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0);
    dlp_status st;
    if ((st = need(c, x, "X"))) return st;
    if (x->rank < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    if (x->rank < 2)
        return dlp__fail(c, "input '%s' has rank %d, %s needs (N, C, ...)", x->name, x->rank,
                         c->node->op_type);
    int64_t od[MAXR];
    for (int i = 0; i < x->rank; i++) od[i] = i < 2 ? x->dims[i] : 1;
    return dlp__set_out(c, 0, x->dtype, x->rank, od);
}

/* Global pools touch every input element once. */
static void cost_in_numel(dlp__ictx *c) {
    c->node->flops = dlp__sat_mul(numel0(dlp__in(c, 0)), row_fpe(c));
}

/* MaxRoiPool: (R, C, pooled_h, pooled_w); rois is (R, 5). */
static dlp_status shape_max_roi_pool(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0), *rois = dlp__in(c, 1);
    dlp_status st;
    if ((st = need(c, x, "X")) || (st = need(c, rois, "rois"))) return st;
    int64_t ps[2];
    int has;
    if ((st = ints_n(c, "pooled_shape", 2, -1, 1, ps, &has))) return st;
    if (!has) return dlp__fail(c, "attribute pooled_shape is required");
    if (x->rank >= 0 && x->rank != 4)
        return dlp__fail(c, "input '%s' has rank %d, MaxRoiPool needs rank 4", x->name, x->rank);
    if (rois->rank >= 0 && (rois->rank != 2 || (rois->dims[1] >= 0 && rois->dims[1] != 5)))
        return dlp__fail(c, "input '%s' (rois) must be (num_rois, 5)", rois->name);
    int64_t od[4] = {dimv(rois, 0), dimv(x, 1), ps[0], ps[1]};
    return dlp__set_out(c, 0, x->dtype, 4, od);
}

/* Upper bound: a bin covers 1/(ph*pw) of the feature map when the ROI is
 * the whole map: numel(out) x ceil(H/ph) x ceil(W/pw). */
static void cost_max_roi_pool(dlp__ictx *c) {
    const dlp__value *x = dlp__in(c, 0), *y = dlp__out(c, 0);
    int64_t h = dimv(x, 2), w = dimv(x, 3), ph = dimv(y, 2), pw = dimv(y, 3);
    if (h < 0 || w < 0 || ph <= 0 || pw <= 0) return;
    int64_t bin = dlp__sat_mul((h + ph - 1) / ph, (w + pw - 1) / pw);
    c->node->flops = dlp__sat_mul(numel0(y), bin > 0 ? bin : 1);
}

/* RoiAlign: X (N, C, H, W), rois (R, 4), batch_indices (R) ->
 * (R, C, output_height, output_width). */
static dlp_status shape_roi_align(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0), *rois = dlp__in(c, 1), *bi = dlp__in(c, 2);
    dlp_status st;
    if ((st = need(c, x, "X")) || (st = need(c, rois, "rois"))) return st;
    int64_t oh = dlp__attr_i(c, "output_height", 1), ow = dlp__attr_i(c, "output_width", 1);
    if (oh < 1 || ow < 1 || oh > ABSURD || ow > ABSURD)
        return dlp__fail(c, "output_height/output_width are %lld/%lld", (long long)oh, (long long)ow);
    if (x->rank >= 0 && x->rank != 4)
        return dlp__fail(c, "input '%s' has rank %d, RoiAlign needs rank 4", x->name, x->rank);
    if (rois->rank >= 0 && (rois->rank != 2 || (rois->dims[1] >= 0 && rois->dims[1] != 4)))
        return dlp__fail(c, "input '%s' (rois) must be (num_rois, 4)", rois->name);
    int64_t r = dimv(rois, 0);
    if (bi && bi->rank >= 0) {
        if (bi->rank != 1)
            return dlp__fail(c, "input '%s' (batch_indices) has rank %d, expected 1", bi->name, bi->rank);
        if (r >= 0 && bi->dims[0] >= 0 && bi->dims[0] != r)
            return dlp__fail(c, "input '%s' has %lld entries for %lld rois", bi->name,
                             (long long)bi->dims[0], (long long)r);
        if (r < 0) r = bi->dims[0];
    }
    int64_t od[4] = {r, dimv(x, 1), oh, ow};
    return dlp__set_out(c, 0, x->dtype, 4, od);
}

/* Each output averages sr x sr bilinear samples (4 taps, ~4 FLOPs each);
 * sampling_ratio 0 (adaptive) is taken as 2, its usual value. */
static void cost_roi_align(dlp__ictx *c) {
    int64_t sr = dlp__attr_i(c, "sampling_ratio", 0);
    if (sr <= 0 || sr > 64) sr = 2;
    c->node->flops = dlp__sat_mul(numel0(dlp__out(c, 0)), sr * sr * 4);
}

/* MaxUnpool: output_shape input when given, else (in-1)*s + k - pads. */
static dlp_status shape_max_unpool(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0), *os = dlp__in(c, 2);
    dlp_status st;
    if ((st = need(c, x, "X"))) return st;
    if (present(os)) {
        if (dlp__has_ival(os)) {
            if (x->rank >= 0 && os->nval != x->rank)
                return dlp__fail(c, "input '%s' (output_shape) has %lld values for rank %d",
                                 os->name, (long long)os->nval, x->rank);
            if (os->nval > MAXR) return dlp__fail(c, "output_shape has %lld values", (long long)os->nval);
            return dlp__set_out(c, 0, x->dtype, (int)os->nval, os->ival);
        }
        int r = x->rank >= 0 ? x->rank : (int)dimv(os, 0);
        int64_t od[MAXR];
        for (int i = 0; i < r && i < MAXR; i++) od[i] = -1;
        return dlp__set_out(c, 0, x->dtype, r <= MAXR ? r : -1, od);
    }
    if (x->rank < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    if (x->rank < 3) return dlp__fail(c, "input '%s' has rank %d, MaxUnpool needs rank >= 3", x->name, x->rank);
    int n = x->rank - 2;
    win_t win;
    if ((st = read_window(c, n, NULL, &win))) return st;
    int64_t od[MAXR];
    od[0] = x->dims[0];
    od[1] = x->dims[1];
    for (int i = 0; i < n; i++) {
        int64_t in = x->dims[i + 2];
        if (in < 0) {
            od[i + 2] = -1;
            continue;
        }
        if (in > ABSURD) return dlp__fail(c, "input '%s' spatial dim %d is %lld", x->name, i, (long long)in);
        int64_t base;
        if (!dlp__mul_ok(in > 0 ? in - 1 : 0, win.s[i], &base) || base > ABSURD * 1024)
            return dlp__fail(c, "output size overflows on spatial axis %d", i);
        int64_t o = base + win.k[i] - win.pads[i] - win.pads[i + n];
        if (o < 0) return dlp__fail(c, "output spatial dim %d would be %lld", i, (long long)o);
        od[i + 2] = o;
    }
    return dlp__set_out(c, 0, x->dtype, x->rank, od);
}

/* ======================================================================
 * Gemm, MatMul, Einsum
 * ====================================================================== */

static dlp_status shape_gemm(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *a = dlp__in(c, 0), *b = dlp__in(c, 1), *cc = dlp__in(c, 2);
    dlp_status st;
    if ((st = need(c, a, "A")) || (st = need(c, b, "B"))) return st;
    int ta = dlp__attr_i(c, "transA", 0) != 0, tb = dlp__attr_i(c, "transB", 0) != 0;
    if (a->rank >= 0 && a->rank != 2)
        return dlp__fail(c, "input '%s' (A) has rank %d, Gemm needs rank 2", a->name, a->rank);
    if (b->rank >= 0 && b->rank != 2)
        return dlp__fail(c, "input '%s' (B) has rank %d, Gemm needs rank 2", b->name, b->rank);
    int64_t m = dimv(a, ta ? 1 : 0), ka = dimv(a, ta ? 0 : 1);
    int64_t kb = dimv(b, tb ? 1 : 0), n = dimv(b, tb ? 0 : 1);
    if (ka >= 0 && kb >= 0 && ka != kb)
        return dlp__fail(c, "inner dims differ: '%s' (A%s) gives K=%lld, '%s' (B%s) gives K=%lld",
                         a->name, ta ? "^T" : "", (long long)ka, b->name, tb ? "^T" : "",
                         (long long)kb);
    int64_t od[2] = {m, n};
    /* C broadcasts unidirectionally to (M, N) */
    if (cc && cc->rank >= 0) {
        if (cc->rank > 2)
            return dlp__fail(c, "input '%s' (C) has rank %d, must broadcast to (M, N)", cc->name, cc->rank);
        for (int k = 0; k < cc->rank; k++) {
            int64_t cd = cc->dims[k], t = od[2 - cc->rank + k];
            if (cd >= 0 && cd != 1 && t >= 0 && cd != t)
                return dlp__fail(c, "input '%s' (C) dim %d is %lld, cannot broadcast to (%lld, %lld)",
                                 cc->name, k, (long long)cd, (long long)m, (long long)n);
            /* an unknown M/N is pinned by a C dim that is not 1 */
            if (t < 0 && cd > 1 && cc->rank == 2) od[k] = cd;
            if (t < 0 && cd > 1 && cc->rank == 1) od[1] = cd;
        }
    }
    return dlp__set_out(c, 0, a->dtype, 2, od);
}

/* MACs = M x N x K; FLOPs = 2 MACs + M N (add C) + M N for alpha != 1 +
 * M N for beta != 1 (with C); FusedGemm adds its activation (1/elem). */
static void cost_gemm(dlp__ictx *c) {
    const dlp__value *a = dlp__in(c, 0), *y = dlp__out(c, 0);
    int ta = dlp__attr_i(c, "transA", 0) != 0;
    int64_t mn = numel0(y), k = dimv(a, ta ? 0 : 1);
    if (k < 0) {
        const dlp__value *b = dlp__in(c, 1);
        k = dimv(b, dlp__attr_i(c, "transB", 0) ? 1 : 0);
    }
    c->node->macs = dlp__sat_mul(mn, k);
    int64_t f = dlp__sat_mul(c->node->macs, 2);
    int has_c = present(dlp__in(c, 2));
    if (has_c) f = dlp__sat_add(f, mn);
    if (dlp__attr_f(c, "alpha", 1.0) != 1.0) f = dlp__sat_add(f, mn);
    if (has_c && dlp__attr_f(c, "beta", 1.0) != 1.0) f = dlp__sat_add(f, mn);
    if (is_op(c, "FusedGemm") && dlp__attr_s(c, "activation", NULL)) f = dlp__sat_add(f, mn);
    c->node->flops = f;
}

/* Slots and output dtype of the MatMul family. */
static void matmul_slots(const dlp__ictx *c, int *ai, int *bi, int *dt) {
    *ai = 0, *bi = 1;
    const dlp__value *a = dlp__in(c, 0);
    *dt = a ? a->dtype : 0;
    if (is_op(c, "MatMulInteger")) {
        *dt = DLP_DT_INT32;
    } else if (is_op(c, "QLinearMatMul")) {
        *bi = 3;
        const dlp__value *yz = dlp__in(c, 7);
        if (yz && yz->dtype) *dt = yz->dtype;
    }
}

/* numpy matmul: 1-D operands are promoted ((K) -> (1, K) for A, (K, 1)
 * for B) and the promoted dim dropped afterwards; batch dims broadcast.
 * ta/tb (FusedMatMul) transpose the last two dims of a rank >= 2 operand.
 * *kout receives K (-1 unknown). */
static dlp_status matmul_core(dlp__ictx *c, const dlp__value *a, const dlp__value *b, int ta,
                              int tb, int dt, int64_t *kout) {
    *kout = -1;
    if (a->rank < 0 || b->rank < 0) {
        dlp__set_out_dtype(c, 0, dt);
        return DLP_OK;
    }
    if (a->rank == 0 || b->rank == 0)
        return dlp__fail(c, "input '%s' is a scalar; %s needs rank >= 1", a->rank == 0 ? a->name : b->name,
                         c->node->op_type);
    int64_t ad[MAXR], bd[MAXR];
    memcpy(ad, a->dims, sizeof(int64_t) * (size_t)a->rank);
    memcpy(bd, b->dims, sizeof(int64_t) * (size_t)b->rank);
    if (ta && a->rank >= 2) {
        int64_t t = ad[a->rank - 1];
        ad[a->rank - 1] = ad[a->rank - 2];
        ad[a->rank - 2] = t;
    }
    if (tb && b->rank >= 2) {
        int64_t t = bd[b->rank - 1];
        bd[b->rank - 1] = bd[b->rank - 2];
        bd[b->rank - 2] = t;
    }
    int a1 = a->rank == 1, b1 = b->rank == 1;
    int64_t ka = ad[a->rank - 1], kb = b1 ? bd[0] : bd[b->rank - 2];
    if (ka >= 0 && kb >= 0 && ka != kb)
        return dlp__fail(c, "inner dims differ: '%s' has K=%lld, '%s' has K=%lld", a->name,
                         (long long)ka, b->name, (long long)kb);
    *kout = ka >= 0 ? ka : kb;
    /* broadcast the batch dims through the shared helper (it names the
     * operands in its message) */
    dlp__value va = *a, vb = *b;
    va.rank = a1 ? 0 : a->rank - 2;
    va.dims = ad;
    vb.rank = b1 ? 0 : b->rank - 2;
    vb.dims = bd;
    int64_t od[MAXR + 2];
    dlp_status st;
    int r = dlp__broadcast(c, &va, &vb, od, &st);
    if (st) return st;
    if (!a1) od[r++] = ad[a->rank - 2];
    if (!b1) od[r++] = bd[b->rank - 1];
    return dlp__set_out(c, 0, dt, r, od);
}

static dlp_status shape_matmul(dlp__ictx *c) {
    RANKS_OK(c);
    int ai, bi, dt;
    matmul_slots(c, &ai, &bi, &dt);
    dlp__value *a = dlp__in(c, ai), *b = dlp__in(c, bi);
    dlp_status st;
    if ((st = need(c, a, "A")) || (st = need(c, b, "B"))) return st;
    int64_t k;
    int ta = 0, tb = 0;
    if (is_op(c, "FusedMatMul")) {
        ta = dlp__attr_i(c, "transA", 0) != 0;
        tb = dlp__attr_i(c, "transB", 0) != 0;
        /* transBatch* move batch dims into the matrix: rare, not modelled */
        if (dlp__attr_i(c, "transBatchA", 0) || dlp__attr_i(c, "transBatchB", 0)) {
            dlp__set_out_dtype(c, 0, dt);
            return DLP_OK;
        }
    }
    return matmul_core(c, a, b, ta, tb, dt, &k);
}

/* K of a MatMul-family node after transposition and 1-D promotion. */
static int64_t matmul_k(const dlp__ictx *c) {
    int ai, bi, dt;
    matmul_slots(c, &ai, &bi, &dt);
    const dlp__value *a = dlp__in(c, ai), *b = dlp__in(c, bi);
    int ta = is_op(c, "FusedMatMul") && dlp__attr_i(c, "transA", 0);
    int tb = is_op(c, "FusedMatMul") && dlp__attr_i(c, "transB", 0);
    if (a && a->rank >= 1) {
        int64_t k = a->rank >= 2 && ta ? a->dims[a->rank - 2] : a->dims[a->rank - 1];
        if (k >= 0) return k;
    }
    if (b && b->rank >= 1) {
        if (b->rank == 1) return b->dims[0];
        return tb ? b->dims[b->rank - 1] : b->dims[b->rank - 2];
    }
    return -1;
}

/* MACs = output elements x K; FLOPs = 2 MACs (+1/elem for alpha != 1). */
static void cost_matmul(dlp__ictx *c) {
    int64_t ny = numel0(dlp__out(c, 0));
    c->node->macs = dlp__sat_mul(ny, matmul_k(c));
    c->node->flops = dlp__sat_mul(c->node->macs, 2);
    if (is_op(c, "FusedMatMul") && dlp__attr_f(c, "alpha", 1.0) != 1.0)
        c->node->flops = dlp__sat_add(c->node->flops, ny);
}

/* ---- Einsum ---------------------------------------------------------------- */

#define EIN_ELL 1 /* label code for "..." (letters are their ASCII codes) */
#define EIN_MAX_TERM (MAXR + 8)

typedef struct {
    int n;
    char lab[EIN_MAX_TERM]; /* letters, or EIN_ELL */
    int has_ell;
} ein_term;

/* Parse one term ("ij", "...ij", "b...k") of an equation. */
static dlp_status ein_parse_term(const dlp__ictx *c, const char *s, size_t len, ein_term *t) {
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < len;) {
        if (s[i] == '.') {
            if (i + 2 >= len || s[i + 1] != '.' || s[i + 2] != '.' || t->has_ell)
                return dlp__fail(c, "equation has a malformed or repeated '...'");
            if (t->n >= EIN_MAX_TERM) return dlp__fail(c, "equation term too long");
            t->lab[t->n++] = EIN_ELL;
            t->has_ell = 1;
            i += 3;
        } else if (isalpha((unsigned char)s[i])) {
            if (t->n >= EIN_MAX_TERM) return dlp__fail(c, "equation term too long");
            t->lab[t->n++] = s[i++];
        } else {
            return dlp__fail(c, "equation has an unexpected character '%c'", s[i]);
        }
    }
    return DLP_OK;
}

typedef struct {
    int n_in;
    ein_term in[16];
    ein_term out;
    int explicit_out;
    int64_t size[128];  /* per letter: -2 unseen, -1 unknown, else size   */
    int count[128];     /* occurrences across the inputs                   */
    int ell_rank;       /* broadcast rank of "...", -1 unknown             */
    int64_t ell[MAXR];
} ein_t;

/* Parse the equation and gather letter sizes from the inputs. */
static dlp_status ein_analyse(dlp__ictx *c, ein_t *e) {
    const char *eq = dlp__attr_s(c, "equation", NULL);
    if (!eq) return dlp__fail(c, "attribute equation is required");
    char buf[512];
    size_t bl = 0;
    for (const char *p = eq; *p; p++) {
        if (isspace((unsigned char)*p)) continue;
        if (bl + 1 >= sizeof buf) return dlp__fail(c, "equation is too long");
        buf[bl++] = *p;
    }
    buf[bl] = 0;
    memset(e, 0, sizeof *e);
    const char *arrow = strstr(buf, "->");
    size_t lhs_len = arrow ? (size_t)(arrow - buf) : bl;
    e->explicit_out = arrow != NULL;
    dlp_status st;
    size_t start = 0;
    for (size_t i = 0; i <= lhs_len; i++) {
        if (i == lhs_len || buf[i] == ',') {
            if (e->n_in >= 16) return dlp__fail(c, "equation has more than 16 operands");
            if ((st = ein_parse_term(c, buf + start, i - start, &e->in[e->n_in]))) return st;
            e->n_in++;
            start = i + 1;
        }
    }
    if (e->n_in != dlp__n_in(c))
        return dlp__fail(c, "equation '%s' has %d operands, the node has %d inputs", eq, e->n_in,
                         dlp__n_in(c));
    if (arrow && (st = ein_parse_term(c, arrow + 2, strlen(arrow + 2), &e->out))) return st;
    for (int l = 0; l < 128; l++) e->size[l] = -2;
    e->ell_rank = 0;
    for (int j = 0; j < e->n_in; j++) {
        const ein_term *t = &e->in[j];
        const dlp__value *v = dlp__in(c, j);
        if (!v) return dlp__fail(c, "input %d is missing", j);
        int nl = t->n - t->has_ell;
        for (int q = 0; q < t->n; q++)
            if (t->lab[q] != EIN_ELL) e->count[(int)t->lab[q]]++;
        if (v->rank < 0) {
            if (t->has_ell) e->ell_rank = -1;
            for (int q = 0; q < t->n; q++)
                if (t->lab[q] != EIN_ELL && e->size[(int)t->lab[q]] == -2) e->size[(int)t->lab[q]] = -1;
            continue;
        }
        if (t->has_ell ? v->rank < nl : v->rank != nl)
            return dlp__fail(c, "input '%s' has rank %d but its equation term has %d letters%s",
                             v->name, v->rank, nl, t->has_ell ? " (plus ...)" : "");
        int er = v->rank - nl, pos = 0;
        for (int q = 0; q < t->n; q++) {
            if (t->lab[q] == EIN_ELL) {
                /* "..." dims broadcast numpy-style, right-aligned */
                if (e->ell_rank >= 0) {
                    int64_t tmp[MAXR];
                    int nr = er > e->ell_rank ? er : e->ell_rank;
                    for (int k = 0; k < nr; k++) {
                        int ia = k - (nr - e->ell_rank), ib = k - (nr - er);
                        int64_t da = ia >= 0 ? e->ell[ia] : 1, db = ib >= 0 ? v->dims[pos + ib] : 1;
                        if (da == 1) tmp[k] = db;
                        else if (db == 1) tmp[k] = da;
                        else if (da < 0 || db < 0) tmp[k] = da < 0 ? db : da;
                        else if (da == db) tmp[k] = da;
                        else
                            return dlp__fail(c, "input '%s': '...' dims do not broadcast (%lld vs %lld)",
                                             v->name, (long long)da, (long long)db);
                    }
                    memcpy(e->ell, tmp, sizeof(int64_t) * (size_t)nr);
                    e->ell_rank = nr;
                }
                pos += er;
                continue;
            }
            int l = t->lab[q];
            int64_t d = v->dims[pos++], cur = e->size[l];
            if (cur == -2 || cur == -1) e->size[l] = d >= 0 ? d : -1;
            else if (d >= 0 && d != cur) {
                /* a size-1 dim broadcasts against the letter's size */
                if (d == 1) continue;
                if (cur == 1) e->size[l] = d;
                else
                    return dlp__fail(c, "letter '%c' is %lld in input '%s' but %lld elsewhere", l,
                                     (long long)d, v->name, (long long)cur);
            }
        }
    }
    return DLP_OK;
}

static dlp_status shape_einsum(dlp__ictx *c) {
    RANKS_OK(c);
    ein_t e;
    dlp_status st;
    const dlp__value *x0 = dlp__in(c, 0);
    int dt = x0 ? x0->dtype : 0;
    if ((st = ein_analyse(c, &e))) return st;
    char olab[EIN_MAX_TERM + 128];
    int no = 0;
    if (e.explicit_out) {
        for (int q = 0; q < e.out.n; q++) {
            int l = e.out.lab[q];
            if (l != EIN_ELL) {
                if (!e.count[l]) return dlp__fail(c, "output letter '%c' is not in any input", l);
                for (int p = 0; p < q; p++)
                    if (e.out.lab[p] == l) return dlp__fail(c, "output letter '%c' repeats", l);
            }
            olab[no++] = (char)l;
        }
    } else {
        /* implicit output: "..." first, then the letters used exactly once,
         * in alphabetical (ASCII) order as numpy and onnx do */
        int any_ell = 0;
        for (int j = 0; j < e.n_in; j++) any_ell |= e.in[j].has_ell;
        if (any_ell) olab[no++] = EIN_ELL;
        for (int l = 0; l < 128; l++)
            if (e.count[l] == 1) olab[no++] = (char)l;
    }
    int64_t od[MAXR * 4];
    int r = 0;
    for (int q = 0; q < no; q++) {
        if (olab[q] == EIN_ELL) {
            if (e.ell_rank < 0) {
                dlp__set_out_dtype(c, 0, dt);
                return DLP_OK;
            }
            if (r + e.ell_rank > MAXR * 4) return dlp__fail(c, "output rank too large");
            for (int k = 0; k < e.ell_rank; k++) od[r++] = e.ell[k];
        } else {
            if (r >= MAXR * 4) return dlp__fail(c, "output rank too large");
            od[r++] = e.size[(int)olab[q]] >= 0 ? e.size[(int)olab[q]] : -1;
        }
    }
    if (r > MAXR) return dlp__fail(c, "output rank %d is above %d", r, MAXR);
    return dlp__set_out(c, 0, dt, r, od);
}

/* MACs = product of every distinct letter's size (contracted ones too)
 * times the broadcast "..." dims: one multiply-add per point of the full
 * iteration space. */
static void cost_einsum(dlp__ictx *c) {
    ein_t e;
    dlp_error scratch;
    dlp__ictx cc = *c;
    memset(&scratch, 0, sizeof scratch);
    cc.err = &scratch; /* costs never fail: parse errors just give 0 */
    if (ein_analyse(&cc, &e) || e.ell_rank < 0) return;
    int64_t p = 1;
    for (int l = 0; l < 128; l++) {
        if (e.size[l] == -2) continue;
        if (e.size[l] < 0) return;
        p = dlp__sat_mul(p, e.size[l]);
        if (!p) return;
    }
    for (int k = 0; k < e.ell_rank; k++) {
        if (e.ell[k] < 0) return;
        p = dlp__sat_mul(p, e.ell[k]);
    }
    c->node->macs = p;
    c->node->flops = dlp__sat_mul(p, 2);
}

/* ======================================================================
 * normalisations
 * ====================================================================== */

/* Checks a per-channel parameter (scale, bias, mean, var) against C. */
static dlp_status check_channel_param(const dlp__ictx *c, const dlp__value *p, int64_t ch,
                                      const char *what) {
    if (!p || p->rank < 0 || ch < 0) return DLP_OK;
    if (p->rank != 1)
        return dlp__fail(c, "input '%s' (%s) has rank %d, expected 1 (C)", p->name, what, p->rank);
    if (p->dims[0] >= 0 && p->dims[0] != ch)
        return dlp__fail(c, "input '%s' (%s) has %lld values for %lld channels", p->name, what,
                         (long long)p->dims[0], (long long)ch);
    return DLP_OK;
}

/* BatchNormalization.  Outputs after Y are training statistics, shape (C):
 * opsets 7..13 have mean, var, saved_mean, saved_var (optional); opset
 * 14+ has running_mean, running_var when training_mode=1.  Opset 15 lets
 * the statistics have their own dtype (T2: that of input_mean). */
static dlp_status shape_batchnorm(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0);
    dlp_status st;
    if ((st = need(c, x, "X"))) return st;
    if (x->rank == 0) return dlp__fail(c, "input '%s' is a scalar; BatchNormalization needs (N, C, ...)", x->name);
    const dlp__value *mean = dlp__in(c, 3);
    int sdt = mean && mean->dtype ? mean->dtype : x->dtype;
    if (dlp__opset(c) < 9 && dlp__attr_i(c, "spatial", 1) == 0) {
        /* opsets 7-8, spatial=0: statistics per activation, parameters and
         * statistics shaped like X without N: (C, D1, ..., Dn) */
        if ((st = same_shape(c, 0, x, 0))) return st;
        for (int o = 1; o < dlp__n_out(c); o++) {
            if (x->rank < 1) dlp__set_out_dtype(c, o, sdt);
            else if ((st = dlp__set_out(c, o, sdt, x->rank - 1, x->dims + 1))) return st;
        }
        return DLP_OK;
    }
    int64_t ch = dimv(x, 1);
    static const char *pn[] = {"scale", "B", "input_mean", "input_var"};
    for (int i = 1; i <= 4; i++) {
        const dlp__value *p = dlp__in(c, i);
        if ((st = check_channel_param(c, p, ch, pn[i - 1]))) return st;
        if (ch < 0 && p && p->rank == 1) ch = p->dims[0];
    }
    if ((st = same_shape(c, 0, x, 0))) return st;
    for (int o = 1; o < dlp__n_out(c); o++)
        if ((st = dlp__set_out(c, o, sdt, 1, &ch))) return st;
    return DLP_OK;
}

/* Inference BatchNorm folds to y = x*a + b (2 FLOPs/elem); training also
 * computes mean and variance (5/elem, as the other norms). */
static void cost_batchnorm(dlp__ictx *c) {
    int training = dlp__attr_i(c, "training_mode", 0) != 0;
    if (dlp__opset(c) < 14)
        for (int o = 1; o < dlp__n_out(c); o++) training |= dlp__out(c, o) != NULL;
    c->node->flops = dlp__sat_mul(numel0(dlp__in(c, 0)), training ? 5 : 2);
}

/* InstanceNormalization, MeanVarianceNormalization, LpNormalization, LRN,
 * GroupNormalization: Y has X's shape. */
static dlp_status shape_norm_like(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0);
    dlp_status st;
    if ((st = need(c, x, "X"))) return st;
    if (is_op(c, "InstanceNormalization")) {
        if (x->rank >= 0 && x->rank < 2)
            return dlp__fail(c, "input '%s' has rank %d, InstanceNormalization needs (N, C, ...)", x->name, x->rank);
        if ((st = check_channel_param(c, dlp__in(c, 1), dimv(x, 1), "scale")) ||
            (st = check_channel_param(c, dlp__in(c, 2), dimv(x, 1), "B")))
            return st;
    } else if (is_op(c, "GroupNormalization")) {
        int64_t g = dlp__attr_i(c, "num_groups", 0), ch = dimv(x, 1);
        if (g < 1) return dlp__fail(c, "attribute num_groups is %lld (required, >= 1)", (long long)g);
        if (ch >= 0 && ch % g)
            return dlp__fail(c, "input '%s' has %lld channels, not divisible by num_groups %lld",
                             x->name, (long long)ch, (long long)g);
    } else if (is_op(c, "LpNormalization") || is_op(c, "Softmax") || is_op(c, "LogSoftmax") ||
               is_op(c, "Hardmax")) {
        int64_t def = is_op(c, "LpNormalization") ? -1 : (dlp__opset(c) < 13 ? 1 : -1);
        int64_t ax = dlp__attr_i(c, "axis", def);
        if (x->rank >= 0 && !(x->rank == 0 && (ax == 0 || ax == -1)) &&
            dlp__axis(c, ax, x->rank, "axis") < 0)
            return DLP_ESHAPE; /* dlp__axis has filled the error */
    } else if (is_op(c, "LRN")) {
        if (dlp__attr_i(c, "size", 1) < 1) return dlp__fail(c, "attribute size must be >= 1");
    }
    return same_shape(c, 0, x, 0);
}

/* FLOPs = X elements x the row's constant (docs/costs.md). */
static void cost_x_elem(dlp__ictx *c) {
    int64_t k = row_fpe(c);
    if (is_op(c, "LRN")) {
        int64_t sz = dlp__attr_i(c, "size", 5);
        k = sz > 0 && sz < 1024 ? sz + 3 : 8; /* window sum + square, scale, pow, div */
    }
    c->node->flops = dlp__sat_mul(numel0(dlp__in(c, 0)), k);
}

/* Shape of LayerNorm-style statistics: X's dims with every dim from `axis`
 * on set to 1 (onnx LayerNormalization-17). */
static dlp_status set_stat_out(const dlp__ictx *c, int o, const dlp__value *x, int axis, int dt) {
    if (!dlp__out(c, o)) return DLP_OK;
    if (x->rank < 0) {
        dlp__set_out_dtype(c, o, dt);
        return DLP_OK;
    }
    int64_t od[MAXR];
    for (int i = 0; i < x->rank; i++) od[i] = i < axis ? x->dims[i] : 1;
    return dlp__set_out(c, o, dt, x->rank, od);
}

/* LayerNormalization (onnx 17, and the com.microsoft / SimplifiedLayer-
 * Normalization forms): Y like X; Mean / InvStdDev (outputs 1, 2) keep
 * the dims before `axis` and have 1 after, dtype = stash_type (float). */
static dlp_status shape_layernorm(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0), *sc = dlp__in(c, 1);
    dlp_status st;
    if ((st = need(c, x, "X"))) return st;
    int sdt = (int)dlp__attr_i(c, "stash_type", DLP_DT_FLOAT);
    if (sdt <= 0 || sdt >= DLP_DT_COUNT_) sdt = DLP_DT_FLOAT;
    int axis = 0;
    if (x->rank >= 0) {
        axis = dlp__axis(c, dlp__attr_i(c, "axis", -1), x->rank, "axis");
        if (axis < 0) return DLP_ESHAPE; /* dlp__axis has filled the error */
        /* Scale is broadcast over the normalised dims: its last dim is the
         * hidden size when both are known */
        if (sc && sc->rank > 0 && x->rank > 0) {
            int64_t sl = sc->dims[sc->rank - 1], xl = x->dims[x->rank - 1];
            if (sl >= 0 && xl >= 0 && sl != xl && sl != 1)
                return dlp__fail(c, "input '%s' (Scale) ends in %lld, input '%s' in %lld", sc->name,
                                 (long long)sl, x->name, (long long)xl);
        }
    }
    if ((st = same_shape(c, 0, x, 0))) return st;
    /* LayerNormalization: (Y, Mean, InvStdDev); Simplified: (Y, inv_std_var) */
    for (int o = 1; o < dlp__n_out(c) && o <= 2; o++)
        if ((st = set_stat_out(c, o, x, axis, sdt))) return st;
    return DLP_OK;
}

/* SkipLayerNormalization / SkipSimplifiedLayerNormalization (com.microsoft):
 * input (B, S, H) or (T, H), skip, gamma, [beta], [bias] -> output like
 * input, mean and inv_std_var (.., 1) in float, input_skip_bias_sum like
 * input.  SkipSimplified has no beta: outputs are output, mean (unused),
 * inv_std_var, input_skip_bias_sum. */
static dlp_status shape_skip_layernorm(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0), *skip = dlp__in(c, 1), *gamma = dlp__in(c, 2);
    dlp_status st;
    if ((st = need(c, x, "input")) || (st = need(c, skip, "skip"))) return st;
    if (x->rank >= 0 && x->rank != 2 && x->rank != 3)
        return dlp__fail(c, "input '%s' has rank %d, expected (B, S, H) or (T, H)", x->name, x->rank);
    int64_t h = x->rank > 0 ? x->dims[x->rank - 1] : -1;
    if (skip->rank > 0 && h >= 0 && skip->dims[skip->rank - 1] >= 0 && skip->dims[skip->rank - 1] != h)
        return dlp__fail(c, "input '%s' (skip) has hidden size %lld, input '%s' %lld", skip->name,
                         (long long)skip->dims[skip->rank - 1], x->name, (long long)h);
    if (gamma && gamma->rank > 0 && h >= 0 && gamma->dims[gamma->rank - 1] >= 0 &&
        gamma->dims[gamma->rank - 1] != h)
        return dlp__fail(c, "input '%s' (gamma) has %lld values for hidden size %lld", gamma->name,
                         (long long)gamma->dims[gamma->rank - 1], (long long)h);
    if ((st = same_shape(c, 0, x, 0))) return st;
    if (x->rank >= 0) {
        if ((st = set_stat_out(c, 1, x, x->rank - 1, DLP_DT_FLOAT))) return st;
        if ((st = set_stat_out(c, 2, x, x->rank - 1, DLP_DT_FLOAT))) return st;
    } else {
        dlp__set_out_dtype(c, 1, DLP_DT_FLOAT);
        dlp__set_out_dtype(c, 2, DLP_DT_FLOAT);
    }
    return same_shape(c, 3, x, 0);
}

/* EmbedLayerNormalization (com.microsoft): input_ids (B, S), segment_ids,
 * word_embedding (V, H), position_embedding, segment_embedding, gamma,
 * beta, [mask], [position_ids] -> output (B, S, H), mask_index (B) int32,
 * [embedding_sum (B, S, H)]. */
static dlp_status shape_embed_layernorm(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *ids = dlp__in(c, 0), *we = dlp__in(c, 2);
    dlp_status st;
    if ((st = need(c, ids, "input_ids")) || (st = need(c, we, "word_embedding"))) return st;
    if (ids->rank >= 0 && ids->rank != 2)
        return dlp__fail(c, "input '%s' (input_ids) has rank %d, expected (B, S)", ids->name, ids->rank);
    if (we->rank >= 0 && we->rank != 2)
        return dlp__fail(c, "input '%s' (word_embedding) has rank %d, expected (V, H)", we->name, we->rank);
    int64_t od[3] = {dimv(ids, 0), dimv(ids, 1), dimv(we, 1)};
    if ((st = dlp__set_out(c, 0, we->dtype, 3, od))) return st;
    if ((st = dlp__set_out(c, 1, DLP_DT_INT32, 1, od))) return st;
    return dlp__set_out(c, 2, we->dtype, 3, od);
}

/* FLOPs = output 0 elements x the row's constant (EmbedLayerNormalization:
 * its input is ids, its work scales with the (B, S, H) output). */
static void cost_out_elem(dlp__ictx *c) {
    c->node->flops = dlp__sat_mul(numel0(dlp__out(c, 0)), row_fpe(c));
}

/* ======================================================================
 * softmax
 * ====================================================================== */

/* Softmax rows: before opset 13 the input is coerced to 2-D at `axis`
 * (default 1), so a row spans every dim from axis on; from opset 13 a row
 * is dims[axis] (default -1).  FLOPs = k/elem + 1 per row (the
 * reciprocal / log of the row sum). */
static void cost_softmax(dlp__ictx *c) {
    const dlp__value *x = dlp__in(c, 0);
    int64_t n = numel0(x);
    if (!n) return;
    int old = dlp__opset(c) < 13 && strcmp(c->node->domain, "com.microsoft") != 0;
    int64_t ax = dlp__attr_i(c, "axis", old ? 1 : -1);
    if (ax < 0) ax += x->rank;
    int64_t row = 1;
    if (x->rank > 0 && ax >= 0 && ax < x->rank) {
        if (old) {
            row = prod_dims(x->dims + ax, x->rank - (int)ax);
        } else {
            row = x->dims[ax];
        }
    }
    int64_t rows = row > 0 ? n / row : 0;
    int64_t f = dlp__sat_mul(n, row_fpe(c));
    if (!is_op(c, "Hardmax")) f = dlp__sat_add(f, rows);
    c->node->flops = f;
}

/* ======================================================================
 * reductions, ArgMax/ArgMin, TopK, CumSum
 * ====================================================================== */

/* Reduce*: axes from the attribute (ReduceSum before opset 13, the others
 * before 18) or from input 1 (later opsets, whose values must be known).
 * Both forms are accepted at any opset (files in the wild mix them).
 * Empty or absent axes reduce everything, unless noop_with_empty_axes=1,
 * which makes the op an identity. */
static dlp_status shape_reduce(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0), *ai = dlp__in(c, 1);
    dlp_status st;
    if ((st = need(c, x, "data"))) return st;
    int keep = dlp__attr_i(c, "keepdims", 1) != 0;
    int noop = dlp__attr_i(c, "noop_with_empty_axes", 0) != 0;
    const int64_t *axes = NULL;
    int na = dlp__attr_ints(c, "axes", &axes);
    if (na < 0 && present(ai)) {
        if (ai->rank > 1) return dlp__fail(c, "input '%s' (axes) has rank %d, expected 1", ai->name, ai->rank);
        if (!dlp__has_ival(ai)) {
            /* axes computed at run time: with keepdims the rank survives and
             * dims of 1 stay 1; without, not even the rank is known */
            if (keep && x->rank >= 0) {
                int64_t od[MAXR];
                for (int i = 0; i < x->rank; i++) od[i] = x->dims[i] == 1 ? 1 : -1;
                return dlp__set_out(c, 0, x->dtype, x->rank, od);
            }
            dlp__set_out_dtype(c, 0, x->dtype);
            return DLP_OK;
        }
        axes = ai->ival;
        na = (int)ai->nval;
        if (ai->nval > MAXR * 4) return dlp__fail(c, "input '%s' (axes) has %lld values", ai->name, (long long)ai->nval);
    }
    if (na <= 0 && noop) return same_shape(c, 0, x, 0);
    if (x->rank < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    uint8_t red[MAXR];
    memset(red, na <= 0, sizeof red); /* no axes: reduce all */
    for (int k = 0; k < na; k++) {
        int a = dlp__axis(c, axes[k], x->rank, "axes value");
        if (a < 0) return DLP_ESHAPE; /* dlp__axis has filled the error */
        red[a] = 1;
    }
    int64_t od[MAXR];
    int r = 0;
    for (int i = 0; i < x->rank; i++) {
        if (!red[i]) od[r++] = x->dims[i];
        else if (keep) od[r++] = 1;
    }
    return dlp__set_out(c, 0, x->dtype, r, od);
}

/* ArgMax / ArgMin: int64 indices; axis dim removed or kept as 1. */
static dlp_status shape_arg(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0);
    dlp_status st;
    if ((st = need(c, x, "data"))) return st;
    if (x->rank < 0) {
        dlp__set_out_dtype(c, 0, DLP_DT_INT64);
        return DLP_OK;
    }
    int a = dlp__axis(c, dlp__attr_i(c, "axis", 0), x->rank, "axis");
    if (a < 0) return DLP_ESHAPE; /* dlp__axis has filled the error */
    int keep = dlp__attr_i(c, "keepdims", 1) != 0;
    int64_t od[MAXR];
    int r = 0;
    for (int i = 0; i < x->rank; i++) {
        if (i != a) od[r++] = x->dims[i];
        else if (keep) od[r++] = 1;
    }
    return dlp__set_out(c, 0, DLP_DT_INT64, r, od);
}

/* TopK: k is an attribute before opset 10 and a 1-element input after. */
static dlp_status shape_topk(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0);
    dlp_status st;
    if ((st = need(c, x, "X"))) return st;
    dlp__set_out_dtype(c, 1, DLP_DT_INT64);
    int64_t k = -1;
    if (dlp__opset(c) < 10 || dlp__attr_get(c->node, "k")) {
        k = dlp__attr_i(c, "k", -1);
        if (k < 0 && dlp__opset(c) < 10) return dlp__fail(c, "attribute k is required before opset 10");
    } else {
        dlp__value *kv = dlp__in(c, 1);
        if ((st = need(c, kv, "K"))) return st;
        if (kv->rank > 1 || (kv->rank == 1 && kv->dims[0] >= 0 && kv->dims[0] != 1))
            return dlp__fail(c, "input '%s' (K) must hold exactly one value", kv->name);
        if (dlp__has_ival(kv) && kv->nval == 1) k = kv->ival[0];
        if (dlp__has_ival(kv) && k < 0)
            return dlp__fail(c, "input '%s' (K) is %lld, must be >= 0", kv->name, (long long)k);
    }
    if (x->rank < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    int a = dlp__axis(c, dlp__attr_i(c, "axis", -1), x->rank, "axis");
    if (a < 0) return DLP_ESHAPE; /* dlp__axis has filled the error */
    if (k >= 0 && x->dims[a] >= 0 && k > x->dims[a])
        return dlp__fail(c, "k = %lld exceeds the size %lld of axis %d of input '%s'", (long long)k,
                         (long long)x->dims[a], a, x->name);
    int64_t od[MAXR];
    if (x->rank > 0) memcpy(od, x->dims, sizeof(int64_t) * (size_t)x->rank);
    od[a] = k;
    if ((st = dlp__set_out(c, 0, x->dtype, x->rank, od))) return st;
    return dlp__set_out(c, 1, DLP_DT_INT64, x->rank, od);
}

/* A heap selection costs ~log2(k) compares per input element. */
static void cost_topk(dlp__ictx *c) {
    const dlp__value *v = dlp__out(c, 0), *x = dlp__in(c, 0);
    int64_t k = 2;
    if (v && x && v->rank == x->rank && v->rank > 0) {
        int a = (int)dlp__attr_i(c, "axis", -1);
        if (a < 0) a += v->rank;
        if (a >= 0 && a < v->rank && v->dims[a] > 2) k = v->dims[a];
    }
    int64_t lg = 1;
    while (lg < 63 && ((int64_t)1 << lg) < k) lg++;
    c->node->flops = dlp__sat_mul(numel0(x), lg);
}

static dlp_status shape_cumsum(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0), *ax = dlp__in(c, 1);
    dlp_status st;
    if ((st = need(c, x, "x"))) return st;
    if (ax && dlp__has_ival(ax) && ax->nval == 1 && x->rank >= 0 &&
        dlp__axis(c, ax->ival[0], x->rank, "axis") < 0)
        return DLP_ESHAPE; /* dlp__axis has filled the error */
    return same_shape(c, 0, x, 0);
}

/* ======================================================================
 * Resize / Upsample
 * ====================================================================== */

/* Known value k of a float-valued input (fval, or ival for ints). */
static int fval_at(const dlp__value *v, int64_t k, double *out) {
    if (!v || v->nval < 0 || k >= v->nval) return 0;
    if (v->fval) *out = v->fval[k];
    else if (v->ival) *out = (double)v->ival[k];
    else return 0;
    return 1;
}

/* floor(in x scale) as ONNX Runtime and onnx compute it: in float32, so
 * that e.g. 0.333333f x 3 floors like the runtime does. */
static int64_t scaled_dim(int64_t in, double scale) {
    if (in < 0) return -1;
    if (in < ((int64_t)1 << 24)) {
        float f = (float)in * (float)scale;
        return (int64_t)floorf(f);
    }
    double d = (double)in * scale;
    return d < 9.0e18 ? (int64_t)floor(d) : -1;
}

static dlp_status shape_resize(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0);
    dlp_status st;
    if ((st = need(c, x, "X"))) return st;
    int up = is_op(c, "Upsample");
    int64_t opset = dlp__opset(c);
    dlp__value *scales = NULL, *sizes = NULL;
    const double *ascales = NULL;
    int n_ascales = dlp__attr_floats(c, "scales", &ascales); /* Upsample-7 */
    if (up || opset < 11) scales = dlp__in(c, 1);      /* (X, scales)             */
    else scales = dlp__in(c, 2), sizes = dlp__in(c, 3); /* (X, roi, scales, sizes) */
    if (!present(scales)) scales = NULL;
    if (!present(sizes)) sizes = NULL;
    if (!scales && !sizes && n_ascales < 0)
        return dlp__fail(c, "%s needs 'scales' or 'sizes'", c->node->op_type);
    if (x->rank < 0) {
        /* sizes (without axes) give the full output shape on their own */
        if (sizes && dlp__has_ival(sizes) && !dlp__attr_get(c->node, "axes") && sizes->nval <= MAXR)
            return dlp__set_out(c, 0, x->dtype, (int)sizes->nval, sizes->ival);
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    int r = x->rank, na = r, axes[MAXR];
    const int64_t *aa;
    int naa = dlp__attr_ints(c, "axes", &aa); /* opset 18 */
    if (naa >= 0) {
        if (naa > r) return dlp__fail(c, "attribute axes has %d values for rank %d", naa, r);
        uint8_t seen[MAXR] = {0};
        na = naa;
        for (int i = 0; i < naa; i++) {
            int a = dlp__axis(c, aa[i], r, "axes value");
            if (a < 0) return DLP_ESHAPE; /* dlp__axis has filled the error */
            if (seen[a]) return dlp__fail(c, "attribute axes repeats axis %d", a);
            seen[a] = 1;
            axes[i] = a;
        }
    } else {
        for (int i = 0; i < r; i++) axes[i] = i;
    }
    int64_t od[MAXR];
    if (r > 0) memcpy(od, x->dims, sizeof(int64_t) * (size_t)r);
    if (sizes) {
        if (sizes->rank > 1) return dlp__fail(c, "input '%s' (sizes) has rank %d, expected 1", sizes->name, sizes->rank);
        if (!dlp__has_ival(sizes)) {
            for (int i = 0; i < na; i++) od[axes[i]] = -1;
            return dlp__set_out(c, 0, x->dtype, r, od);
        }
        if (sizes->nval != na)
            return dlp__fail(c, "input '%s' (sizes) has %lld values, expected %d", sizes->name,
                             (long long)sizes->nval, na);
        for (int i = 0; i < na; i++)
            if (sizes->ival[i] < 0)
                return dlp__fail(c, "input '%s' (sizes)[%d] is %lld", sizes->name, i, (long long)sizes->ival[i]);
        const char *pol = dlp__attr_s(c, "keep_aspect_ratio_policy", "stretch");
        if (!strcmp(pol, "stretch")) {
            for (int i = 0; i < na; i++) od[axes[i]] = sizes->ival[i];
        } else {
            /* not_larger / not_smaller: one scale for every axis (the min or
             * max of sizes/in), then out = round(scale x in) */
            int larger = !strcmp(pol, "not_smaller");
            if (!larger && strcmp(pol, "not_larger"))
                return dlp__fail(c, "keep_aspect_ratio_policy '%s' is unknown", pol);
            double s = larger ? 0.0 : INFINITY;
            for (int i = 0; i < na; i++) {
                int64_t in = x->dims[axes[i]];
                if (in <= 0) {
                    for (int k = 0; k < na; k++) od[axes[k]] = -1;
                    return dlp__set_out(c, 0, x->dtype, r, od);
                }
                double q = (double)sizes->ival[i] / (double)in;
                s = larger ? (q > s ? q : s) : (q < s ? q : s);
            }
            for (int i = 0; i < na; i++) {
                double d = floor(s * (double)x->dims[axes[i]] + 0.5);
                od[axes[i]] = d < 9.0e18 ? (int64_t)d : -1;
            }
        }
        return dlp__set_out(c, 0, x->dtype, r, od);
    }
    int64_t ns = scales ? (dlp__has_ival(scales) || scales->fval ? scales->nval : dimv(scales, 0)) : n_ascales;
    if (scales && scales->rank > 1)
        return dlp__fail(c, "input '%s' (scales) has rank %d, expected 1", scales->name, scales->rank);
    if (ns >= 0 && ns != na)
        return dlp__fail(c, "'scales' has %lld values, expected %d (one per %s)", (long long)ns, na,
                         naa >= 0 ? "axis in axes" : "input dim");
    for (int i = 0; i < na; i++) {
        double s = 0;
        int known = scales ? fval_at(scales, i, &s) : (s = ascales[i], 1);
        if (!known) {
            od[axes[i]] = -1;
            continue;
        }
        if (!(s > 0) || s > 1e9)
            return dlp__fail(c, "scales[%d] is %g, must be > 0", i, s);
        od[axes[i]] = scaled_dim(x->dims[axes[i]], s);
    }
    return dlp__set_out(c, 0, x->dtype, r, od);
}

/* FLOPs = output elements x taps: nearest 1, linear 2 per resized axis
 * (4 for the usual 2-D case), cubic 4 per resized axis (16 in 2-D). */
static void cost_resize(dlp__ictx *c) {
    const dlp__value *x = dlp__in(c, 0), *y = dlp__out(c, 0);
    int64_t ny = numel0(y);
    if (!ny) return;
    const char *mode = dlp__attr_s(c, "mode", "nearest");
    int64_t per = 1;
    if (!strcmp(mode, "linear") || !strcmp(mode, "bilinear") || !strcmp(mode, "trilinear")) per = 2;
    else if (!strcmp(mode, "cubic")) per = 4;
    int64_t taps = 1;
    if (x && y && x->rank == y->rank)
        for (int i = 0; i < y->rank && taps < ((int64_t)1 << 40); i++)
            if (x->dims[i] != y->dims[i]) taps *= per;
    c->node->flops = dlp__sat_mul(ny, taps);
}

/* ======================================================================
 * RNN / GRU / LSTM
 * ====================================================================== */

static int rnn_gates(const dlp__ictx *c) {
    return is_op(c, "LSTM") ? 4 : is_op(c, "GRU") ? 3 : 1;
}

static int rnn_dirs(const dlp__ictx *c) {
    const char *d = dlp__attr_s(c, "direction", "forward");
    if (!strcmp(d, "forward") || !strcmp(d, "reverse")) return 1;
    if (!strcmp(d, "bidirectional")) return 2;
    return -1;
}

/* Hidden size: the attribute, else R's last dim, else W's dim 1 / gates. */
static int64_t rnn_hidden(const dlp__ictx *c) {
    int64_t h = dlp__attr_i(c, "hidden_size", -1);
    if (h > 0) return h;
    const dlp__value *r = dlp__in(c, 2), *w = dlp__in(c, 1);
    if (dimv(r, 2) >= 0) return dimv(r, 2);
    if (dimv(w, 1) >= 0) return dimv(w, 1) / rnn_gates(c);
    return -1;
}

/* X (seq, batch, input) — or (batch, seq, input) with layout=1 (opset 14)
 * -> Y (seq, dirs, batch, hidden) / (batch, seq, dirs, hidden),
 *    Y_h and LSTM's Y_c (dirs, batch, hidden) / (batch, dirs, hidden). */
static dlp_status shape_rnn(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0), *w = dlp__in(c, 1), *rr = dlp__in(c, 2);
    dlp_status st;
    if ((st = need(c, x, "X")) || (st = need(c, w, "W")) || (st = need(c, rr, "R"))) return st;
    int dirs = rnn_dirs(c), gates = rnn_gates(c);
    if (dirs < 0)
        return dlp__fail(c, "attribute direction is '%s' (forward, reverse or bidirectional)",
                         dlp__attr_s(c, "direction", ""));
    int layout = dlp__attr_i(c, "layout", 0) != 0;
    int64_t hid = rnn_hidden(c);
    if (x->rank >= 0 && x->rank != 3)
        return dlp__fail(c, "input '%s' (X) has rank %d, expected 3", x->name, x->rank);
    if (w->rank >= 0 && w->rank != 3)
        return dlp__fail(c, "input '%s' (W) has rank %d, expected 3", w->name, w->rank);
    if (rr->rank >= 0 && rr->rank != 3)
        return dlp__fail(c, "input '%s' (R) has rank %d, expected 3", rr->name, rr->rank);
    if (dimv(w, 0) >= 0 && dimv(w, 0) != dirs)
        return dlp__fail(c, "input '%s' (W) has %lld directions, direction attribute says %d",
                         w->name, (long long)dimv(w, 0), dirs);
    if (hid >= 0 && dimv(w, 1) >= 0 && dimv(w, 1) != gates * hid)
        return dlp__fail(c, "input '%s' (W) dim 1 is %lld, expected %d gates x hidden %lld", w->name,
                         (long long)dimv(w, 1), gates, (long long)hid);
    if (dimv(x, 2) >= 0 && dimv(w, 2) >= 0 && dimv(x, 2) != dimv(w, 2))
        return dlp__fail(c, "input '%s' (X) has input size %lld, '%s' (W) expects %lld", x->name,
                         (long long)dimv(x, 2), w->name, (long long)dimv(w, 2));
    int64_t seq = dimv(x, layout ? 1 : 0), batch = dimv(x, layout ? 0 : 1);
    int64_t y[4], yh[3];
    if (layout) {
        y[0] = batch, y[1] = seq, y[2] = dirs, y[3] = hid;
        yh[0] = batch, yh[1] = dirs, yh[2] = hid;
    } else {
        y[0] = seq, y[1] = dirs, y[2] = batch, y[3] = hid;
        yh[0] = dirs, yh[1] = batch, yh[2] = hid;
    }
    if ((st = dlp__set_out(c, 0, x->dtype, 4, y))) return st;
    if ((st = dlp__set_out(c, 1, x->dtype, 3, yh))) return st;
    return dlp__set_out(c, 2, x->dtype, 3, yh);
}

/* MACs = seq x batch x dirs x gates x hidden x (input + hidden);
 * FLOPs = 2 MACs + seq x batch x dirs x hidden x E, E the per-unit
 * elementwise work (biases, activations, state update; docs/costs.md). */
static void cost_rnn(dlp__ictx *c) {
    const dlp__value *x = dlp__in(c, 0), *w = dlp__in(c, 1);
    int layout = dlp__attr_i(c, "layout", 0) != 0;
    int64_t seq = dimv(x, layout ? 1 : 0), batch = dimv(x, layout ? 0 : 1);
    int64_t in = dimv(x, 2) >= 0 ? dimv(x, 2) : dimv(w, 2), hid = rnn_hidden(c);
    int dirs = rnn_dirs(c), gates = rnn_gates(c);
    if (seq < 0 || batch < 0 || in < 0 || hid < 0 || dirs < 0) return;
    int64_t units = dlp__sat_mul(dlp__sat_mul(seq, batch), dlp__sat_mul(dirs, hid));
    c->node->macs = dlp__sat_mul(dlp__sat_mul(units, gates), dlp__sat_add(in, hid));
    int64_t e = gates == 4 ? 17 : gates == 3 ? 13 : 3;
    c->node->flops = dlp__sat_add(dlp__sat_mul(c->node->macs, 2), dlp__sat_mul(units, e));
}

/* ======================================================================
 * com.microsoft attention
 * ====================================================================== */

/* Attention: input (B, S, D_in), weights (D_in, q+k+v), bias (q+k+v),
 * [mask_index], [past (2, B, N, P, H)], ... -> output (B, S, v_hidden),
 * present (2, B, N, P+S, H).  q/k/v sizes: qkv_hidden_sizes or thirds. */
typedef struct {
    int64_t b, s, din, q, k, v, n, p;
} attn_dims;

static dlp_status attention_dims(dlp__ictx *c, attn_dims *a, int check) {
    const dlp__value *x = dlp__in(c, 0), *w = dlp__in(c, 1), *past = dlp__in(c, 4);
    memset(a, -1, sizeof *a);
    a->n = dlp__attr_i(c, "num_heads", -1);
    if (check && (a->n < 1 || a->n > ABSURD)) return dlp__fail(c, "attribute num_heads is required (>= 1)");
    if (check && x && x->rank >= 0 && x->rank != 3)
        return dlp__fail(c, "input '%s' has rank %d, Attention needs (B, S, hidden)", x->name, x->rank);
    if (check && w && w->rank >= 0 && w->rank != 2)
        return dlp__fail(c, "input '%s' (weights) has rank %d, expected 2", w->name, w->rank);
    a->b = dimv(x, 0), a->s = dimv(x, 1), a->din = dimv(x, 2);
    if (check && a->din >= 0 && dimv(w, 0) >= 0 && dimv(w, 0) != a->din)
        return dlp__fail(c, "input '%s' (weights) has %lld rows for hidden size %lld", w->name,
                         (long long)dimv(w, 0), (long long)a->din);
    if (a->din < 0) a->din = dimv(w, 0);
    const int64_t *qkv;
    if (dlp__attr_ints(c, "qkv_hidden_sizes", &qkv) == 3) {
        a->q = qkv[0], a->k = qkv[1], a->v = qkv[2];
        if (check && (a->q < 0 || a->k < 0 || a->v < 0 || a->q > ABSURD || a->k > ABSURD || a->v > ABSURD))
            return dlp__fail(c, "attribute qkv_hidden_sizes has a bad value");
    } else if (dimv(w, 1) >= 0) {
        if (check && dimv(w, 1) % 3)
            return dlp__fail(c, "input '%s' (weights) has %lld columns, not 3 x hidden", w->name,
                             (long long)dimv(w, 1));
        a->q = a->k = a->v = dimv(w, 1) / 3;
    }
    if (check && a->n > 0 && a->v >= 0 && a->v % a->n)
        return dlp__fail(c, "hidden size %lld is not divisible by num_heads %lld", (long long)a->v,
                         (long long)a->n);
    a->p = present(past) ? dimv(past, 3) : 0;
    return DLP_OK;
}

static dlp_status shape_attention(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0), *past = dlp__in(c, 4);
    dlp_status st;
    if ((st = need(c, x, "input")) || (st = need(c, dlp__in(c, 1), "weights"))) return st;
    attn_dims a;
    if ((st = attention_dims(c, &a, 1))) return st;
    int64_t od[5] = {a.b, a.s, a.v};
    if ((st = dlp__set_out(c, 0, x->dtype, 3, od))) return st;
    if (!dlp__out(c, 1)) return DLP_OK;
    if (dlp__attr_i(c, "past_present_share_buffer", 0) && past && past->rank == 5)
        return same_shape(c, 1, past, x->dtype);
    int64_t t = dadd(a.s, a.p);
    int64_t pd[5] = {2, a.b, a.n, t, a.v >= 0 && a.n > 0 ? a.v / a.n : -1};
    return dlp__set_out(c, 1, x->dtype, 5, pd);
}

/* MACs = QKV projection B S D_in (q+k+v) + Q K^T B S T q + A V B S T v,
 * T = past + S.  FLOPs = 2 MACs + bias B S (q+k+v) + softmax 4 B N S T. */
static void cost_attention(dlp__ictx *c) {
    attn_dims a;
    if (attention_dims(c, &a, 0)) return;
    int64_t t = dadd(a.s, a.p);
    if (a.b < 0 || a.s < 0 || a.din < 0 || a.q < 0 || a.k < 0 || a.v < 0 || t < 0) return;
    int64_t bs = dlp__sat_mul(a.b, a.s), qkv = dlp__sat_add(dlp__sat_add(a.q, a.k), a.v);
    int64_t proj = dlp__sat_mul(dlp__sat_mul(bs, a.din), qkv);
    int64_t att = dlp__sat_mul(dlp__sat_mul(bs, t), dlp__sat_add(a.q, a.v));
    c->node->macs = dlp__sat_add(proj, att);
    int64_t f = dlp__sat_mul(c->node->macs, 2);
    if (present(dlp__in(c, 2))) f = dlp__sat_add(f, dlp__sat_mul(bs, qkv));
    if (a.n > 0) f = dlp__sat_add(f, dlp__sat_mul(dlp__sat_mul(bs, t), dlp__sat_mul(a.n, 4)));
    c->node->flops = f;
}

/* MultiHeadAttention (com.microsoft): query (B, S, D) or packed QKV
 * (B, S, N, 3, H); key (B, L, D), (B, N, L, H) or packed KV (B, L, N, 2, H);
 * value (B, L, Dv) or (B, N, L, Hv); past_key/past_value (B, N, P, H) in
 * slots 6/7 -> output (B, S, Dv), present_key (B, N, P+L, H),
 * present_value (B, N, P+L, Hv). */
typedef struct {
    int64_t b, s, l, p, n, dqk, dv;
    int ok;
} mha_dims;

static dlp_status mha_dims_get(dlp__ictx *c, mha_dims *m, int check) {
    const dlp__value *q = dlp__in(c, 0), *k = dlp__in(c, 1), *v = dlp__in(c, 2), *pk = dlp__in(c, 6);
    memset(m, -1, sizeof *m);
    m->ok = 0;
    m->n = dlp__attr_i(c, "num_heads", -1);
    if (check && (m->n < 1 || m->n > ABSURD)) return dlp__fail(c, "attribute num_heads is required (>= 1)");
    if (!q || q->rank < 0) return DLP_OK;
    int ovf = 0;
    m->b = dimv(q, 0);
    m->s = dimv(q, 1);
    m->p = 0;
    if (q->rank == 5) { /* packed QKV */
        m->l = m->s;
        m->dqk = m->dv = dmul(q->dims[2], q->dims[4], &ovf);
    } else if (q->rank == 3) {
        m->dqk = q->dims[2];
        if (!k || k->rank < 0) return DLP_OK;
        if (k->rank == 5) { /* packed KV */
            m->l = k->dims[1];
            m->dv = dmul(k->dims[2], k->dims[4], &ovf);
        } else if (k->rank == 4) { /* already (B, N, L, H): past-format cross attention */
            m->l = k->dims[2];
            m->dv = v && v->rank == 4 ? dmul(m->n, v->dims[3], &ovf) : -1;
        } else if (k->rank == 3) {
            m->l = k->dims[1];
            if (check && k->dims[2] >= 0 && m->dqk >= 0 && k->dims[2] != m->dqk)
                return dlp__fail(c, "input '%s' (key) has hidden %lld, query has %lld", k->name,
                                 (long long)k->dims[2], (long long)m->dqk);
            m->dv = v && v->rank == 3 ? v->dims[2] : -1;
        } else if (check) {
            return dlp__fail(c, "input '%s' (key) has rank %d, expected 3, 4 or 5", k->name, k->rank);
        }
        if (k->rank != 4 && present(pk)) m->p = dimv(pk, 2);
    } else if (check) {
        return dlp__fail(c, "input '%s' (query) has rank %d, expected 3 or 5", q->name, q->rank);
    }
    if (ovf && check) return dlp__fail(c, "hidden size overflows");
    m->ok = 1;
    return DLP_OK;
}

static dlp_status shape_mha(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *q = dlp__in(c, 0);
    dlp_status st;
    if ((st = need(c, q, "query"))) return st;
    mha_dims m;
    if ((st = mha_dims_get(c, &m, 1))) return st;
    if (!m.ok) {
        for (int o = 0; o < 3; o++) dlp__set_out_dtype(c, o, q->dtype);
        return DLP_OK;
    }
    int64_t od[4] = {m.b, m.s, m.dv};
    if ((st = dlp__set_out(c, 0, q->dtype, 3, od))) return st;
    int64_t t = dadd(m.l, m.p);
    int64_t hk = m.dqk >= 0 && m.n > 0 ? m.dqk / m.n : -1, hv = m.dv >= 0 && m.n > 0 ? m.dv / m.n : -1;
    int64_t pk[4] = {m.b, m.n, t, hk}, pv[4] = {m.b, m.n, t, hv};
    if ((st = dlp__set_out(c, 1, q->dtype, 4, pk))) return st;
    return dlp__set_out(c, 2, q->dtype, 4, pv);
}

/* MACs = Q K^T + A V = B S T (Dqk + Dv); the projections are separate
 * MatMul nodes in graphs that use MultiHeadAttention. */
static void cost_mha(dlp__ictx *c) {
    mha_dims m;
    if (mha_dims_get(c, &m, 0) || !m.ok) return;
    int64_t t = dadd(m.l, m.p);
    if (m.b < 0 || m.s < 0 || t < 0 || m.dqk < 0 || m.dv < 0) return;
    int64_t bst = dlp__sat_mul(dlp__sat_mul(m.b, m.s), t);
    c->node->macs = dlp__sat_mul(bst, dlp__sat_add(m.dqk, m.dv));
    c->node->flops = dlp__sat_add(dlp__sat_mul(c->node->macs, 2), dlp__sat_mul(bst, m.n > 0 ? dlp__sat_mul(m.n, 4) : 4));
}

/* GroupQueryAttention (com.microsoft): query (B, S, N*H) [or packed
 * (B, S, (N + 2 kvN) H) with key/value omitted], key/value (B, S, kvN*H),
 * past_key/value (B, kvN, P, H), seqlens_k, total_sequence_length ->
 * output (B, S, N*H), present_key/value (B, kvN, max(P, total), H). */
typedef struct {
    int64_t b, s, n, kvn, h, p, t;
} gqa_dims;

static dlp_status gqa_dims_get(dlp__ictx *c, gqa_dims *g, int check) {
    const dlp__value *q = dlp__in(c, 0), *k = dlp__in(c, 1), *pk = dlp__in(c, 3), *tot = dlp__in(c, 6);
    memset(g, -1, sizeof *g);
    g->n = dlp__attr_i(c, "num_heads", -1);
    g->kvn = dlp__attr_i(c, "kv_num_heads", -1);
    if (check && (g->n < 1 || g->kvn < 1 || g->n > ABSURD || g->kvn > ABSURD))
        return dlp__fail(c, "attributes num_heads and kv_num_heads are required (>= 1)");
    if (check && q && q->rank >= 0 && q->rank != 3)
        return dlp__fail(c, "input '%s' (query) has rank %d, expected 3", q->name, q->rank);
    g->b = dimv(q, 0), g->s = dimv(q, 1);
    int64_t d = dimv(q, 2);
    if (d >= 0 && g->n > 0 && g->kvn > 0) {
        int64_t div = present(k) ? g->n : g->n + 2 * g->kvn;
        if (check && d % div)
            return dlp__fail(c, "input '%s' (query) hidden %lld is not divisible by %lld heads", q->name,
                             (long long)d, (long long)div);
        g->h = d / div;
    }
    g->p = present(pk) ? dimv(pk, 2) : 0;
    if (tot && dlp__has_ival(tot) && tot->nval == 1) g->t = tot->ival[0];
    return DLP_OK;
}

static dlp_status shape_gqa(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *q = dlp__in(c, 0);
    dlp_status st;
    if ((st = need(c, q, "query"))) return st;
    gqa_dims g;
    if ((st = gqa_dims_get(c, &g, 1))) return st;
    int ovf = 0;
    int64_t od[3] = {g.b, g.s, dmul(g.n, g.h, &ovf)};
    if ((st = dlp__set_out(c, 0, q->dtype, 3, od))) return st;
    int64_t pt = g.t >= 0 && g.p >= 0 ? (g.t > g.p ? g.t : g.p) : -1;
    int64_t pd[4] = {g.b, g.kvn, pt, g.h};
    if ((st = dlp__set_out(c, 1, q->dtype, 4, pd))) return st;
    return dlp__set_out(c, 2, q->dtype, 4, pd);
}

/* MACs = 2 x B N S T H (Q K^T and A V), T = total sequence length. */
static void cost_gqa(dlp__ictx *c) {
    gqa_dims g;
    if (gqa_dims_get(c, &g, 0)) return;
    int64_t t = g.t >= 0 ? g.t : dadd(g.s, g.p);
    if (g.b < 0 || g.s < 0 || g.h < 0 || g.n < 1 || t < 0) return;
    int64_t bnst = dlp__sat_mul(dlp__sat_mul(g.b, g.n), dlp__sat_mul(g.s, t));
    c->node->macs = dlp__sat_mul(bnst, dlp__sat_mul(g.h, 2));
    c->node->flops = dlp__sat_add(dlp__sat_mul(c->node->macs, 2), dlp__sat_mul(bnst, 4));
}

/* ======================================================================
 * losses, quantization, signal transforms, training optimizers
 * ====================================================================== */

/* SoftmaxCrossEntropyLoss (opset 12+) and NegativeLogLikelihoodLoss (12+):
 * scores/input (N, C, D1..Dk), labels/target (N, D1..Dk), weights (C).
 * Loss: reduction "none" -> (N, D1..Dk), "mean"/"sum" -> scalar; SCE's
 * optional second output log_prob has the scores' shape. */
static dlp_status shape_loss(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0), *t = dlp__in(c, 1);
    dlp_status st;
    if ((st = need(c, x, "scores")) || (st = need(c, t, "labels"))) return st;
    const char *red = dlp__attr_s(c, "reduction", "mean");
    int none = !strcmp(red, "none");
    if (!none && strcmp(red, "mean") && strcmp(red, "sum"))
        return dlp__fail(c, "attribute reduction is '%s' (none, mean or sum)", red);
    if (x->rank >= 0 && x->rank < 2)
        return dlp__fail(c, "input '%s' has rank %d, expected (N, C, ...)", x->name, x->rank);
    if (x->rank >= 0 && t->rank >= 0) {
        if (t->rank != x->rank - 1)
            return dlp__fail(c, "input '%s' has rank %d, expected %d (scores without C)", t->name, t->rank,
                             x->rank - 1);
        for (int k = 0; k < t->rank; k++) {
            int64_t a = x->dims[k ? k + 1 : 0], b = t->dims[k];
            if (a >= 0 && b >= 0 && a != b)
                return dlp__fail(c, "input '%s' dim %d is %lld, scores have %lld", t->name, k, (long long)b,
                                 (long long)a);
        }
    }
    if ((st = check_channel_param(c, dlp__in(c, 2), dimv(x, 1), "weights"))) return st;
    if (dlp__out(c, 1) && (st = same_shape(c, 1, x, 0))) return st; /* log_prob */
    if (!none) return dlp__set_out(c, 0, x->dtype, 0, NULL);
    int r = t->rank >= 0 ? t->rank : x->rank >= 0 ? x->rank - 1 : -1;
    if (r < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    int64_t od[MAXR];
    for (int k = 0; k < r; k++) {
        od[k] = dimv(t, k);
        if (od[k] < 0) od[k] = dimv(x, k ? k + 1 : 0);
    }
    return dlp__set_out(c, 0, x->dtype, r, od);
}

/* SCE = LogSoftmax over C (4 per score element + a log per row, rows =
 * labels' elements) then the NLL part; NLL = 2 per label element (pick and
 * weight, the reduction's add). */
static void cost_loss(dlp__ictx *c) {
    int64_t nt = numel0(dlp__in(c, 1));
    int64_t f = dlp__sat_mul(nt, 2);
    if (is_op(c, "SoftmaxCrossEntropyLoss"))
        f = dlp__sat_add(f, dlp__sat_add(dlp__sat_mul(numel0(dlp__in(c, 0)), 4), nt));
    c->node->flops = f;
}

/* QuantizeLinear: Y like X, dtype of y_zero_point, else output_dtype
 * (opset 21), else uint8.  DequantizeLinear: Y like X, dtype of x_scale
 * (float before opset 19).  DynamicQuantizeLinear: y uint8 like x, then
 * y_scale (float) and y_zero_point (uint8) scalars. */
static dlp_status shape_quantize(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0);
    dlp_status st;
    if ((st = need(c, x, "x"))) return st;
    if (is_op(c, "DynamicQuantizeLinear")) {
        if ((st = same_shape(c, 0, x, DLP_DT_UINT8))) return st;
        if ((st = dlp__set_out(c, 1, DLP_DT_FLOAT, 0, NULL))) return st;
        return dlp__set_out(c, 2, DLP_DT_UINT8, 0, NULL);
    }
    const dlp__value *scale = dlp__in(c, 1), *zp = dlp__in(c, 2);
    int dt;
    if (is_op(c, "DequantizeLinear")) {
        dt = scale && scale->dtype ? scale->dtype : DLP_DT_FLOAT;
    } else {
        int64_t od = dlp__attr_i(c, "output_dtype", 0);
        dt = zp && zp->dtype ? zp->dtype : od > 0 && od < DLP_DT_COUNT_ ? (int)od : DLP_DT_UINT8;
    }
    return same_shape(c, 0, x, dt);
}

/* DFT (opset 17: axis attribute, default 1; opset 20: axis input 2,
 * default -2): the signal (..., 1 or 2) becomes complex (..., 2); the axis
 * dim becomes dft_length when given, then n/2 + 1 when onesided. */
static int dft_axis(const dlp__ictx *c, const dlp__value *x, int *ax) {
    int64_t a = dlp__opset(c) < 20 ? dlp__attr_i(c, "axis", 1) : -2;
    const dlp__value *av = dlp__in(c, 2);
    if (dlp__opset(c) >= 20 && av) {
        if (!dlp__has_ival(av) || av->nval != 1) return 0;
        a = av->ival[0];
    }
    if (a < 0) a += x->rank;
    if (a < 0 || a >= x->rank - 1) return -1;
    *ax = (int)a;
    return 1;
}

/* Length of the transform along the axis (-1 unknown). */
static int64_t dft_len(const dlp__ictx *c, const dlp__value *x, int ax) {
    const dlp__value *l = dlp__in(c, 1);
    if (l) return dlp__has_ival(l) && l->nval == 1 && l->ival[0] > 0 ? l->ival[0] : -1;
    return x->dims[ax];
}

static dlp_status shape_dft(dlp__ictx *c) {
    RANKS_OK(c);
    dlp__value *x = dlp__in(c, 0);
    dlp_status st;
    if ((st = need(c, x, "input"))) return st;
    if (x->rank < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    if (x->rank < 2 || (x->dims[x->rank - 1] >= 0 && x->dims[x->rank - 1] != 1 && x->dims[x->rank - 1] != 2))
        return dlp__fail(c, "input '%s' must be (..., signal, 1 or 2)", x->name);
    int ax = 0, k = dft_axis(c, x, &ax);
    if (k < 0) return dlp__fail(c, "axis is out of range for rank %d", x->rank);
    int64_t od[MAXR];
    memcpy(od, x->dims, sizeof(int64_t) * (size_t)x->rank);
    od[x->rank - 1] = 2;
    if (!k) {
        /* axis given by a value not known here: every signal dim may change */
        for (int i = 1; i < x->rank - 1; i++) od[i] = -1;
    } else {
        int64_t n = dft_len(c, x, ax);
        if (n >= 0 && dlp__attr_i(c, "onesided", 0)) n = n / 2 + 1;
        od[ax] = n;
    }
    return dlp__set_out(c, 0, x->dtype, x->rank, od);
}

/* 5 n log2(n) per complex transform of length n (the radix-2 FFT count),
 * times the number of transforms. */
static void cost_dft(dlp__ictx *c) {
    const dlp__value *x = dlp__in(c, 0);
    int ax;
    if (!x || x->rank < 2 || dft_axis(c, x, &ax) != 1) return;
    int64_t n = dft_len(c, x, ax), nx = numel0(x);
    if (n < 2 || !nx || x->dims[ax] <= 0 || x->dims[x->rank - 1] <= 0) return;
    int64_t transforms = nx / (x->dims[ax] * x->dims[x->rank - 1]), lg = 0;
    while (((int64_t)1 << lg) < n && lg < 62) lg++;
    c->node->flops = dlp__sat_mul(dlp__sat_mul(transforms, n), 5 * lg);
}

/* ai.onnx.preview.training Adagrad (R, T, X.., G.., H..), Momentum
 * (R, T, X.., G.., V..), Adam (R, T, X.., G.., V.., H..): every output is
 * a new X, V or H, shaped like its X. */
static int optimizer_groups(const dlp__ictx *c) { return is_op(c, "Adam") ? 4 : 3; }

static dlp_status shape_optimizer(dlp__ictx *c) {
    RANKS_OK(c);
    int n = (dlp__n_in(c) - 2) / optimizer_groups(c);
    if (n < 1 || dlp__n_in(c) != 2 + n * optimizer_groups(c))
        return dlp__fail(c, "%d inputs: expected R, T and %d equal groups", dlp__n_in(c), optimizer_groups(c));
    for (int o = 0; o < dlp__n_out(c); o++) {
        const dlp__value *x = dlp__in(c, 2 + o % n);
        dlp_status st;
        if (x && (st = same_shape(c, o, x, 0))) return st;
    }
    return DLP_OK;
}

/* FLOPs = numel of the optimized tensors x the row's constant. */
static void cost_optimizer(dlp__ictx *c) {
    int n = (dlp__n_in(c) - 2) / optimizer_groups(c);
    int64_t f = 0;
    for (int i = 0; i < n; i++) f = dlp__sat_add(f, numel0(dlp__in(c, 2 + i)));
    c->node->flops = dlp__sat_mul(f, row_fpe(c));
}

/* ======================================================================
 * the table
 * ====================================================================== */

#define MS "com.microsoft"
#define ROW(name, dom, cls, shape, cost, f) {name, dom, cls, shape, cost, f, NULL}

const dlp__op_def dlp__ops_nn[] = {
    /* convolutions */
    ROW("Conv", "", DLP_OPC_CONV, shape_conv, cost_conv, 0),
    ROW("ConvInteger", "", DLP_OPC_CONV, shape_conv, cost_conv, 0),
    ROW("QLinearConv", "", DLP_OPC_CONV, shape_conv, cost_conv, 0),
    ROW("DeformConv", "", DLP_OPC_CONV, shape_conv, cost_conv, 0),
    ROW("ConvTranspose", "", DLP_OPC_CONV, shape_conv_transpose, cost_conv_transpose, 0),
    ROW("FusedConv", MS, DLP_OPC_CONV, shape_conv, cost_conv, 0),
    /* pools */
    ROW("MaxPool", "", DLP_OPC_POOL, shape_pool, cost_pool, 0),
    ROW("AveragePool", "", DLP_OPC_POOL, shape_pool, cost_pool, 0),
    ROW("LpPool", "", DLP_OPC_POOL, shape_pool, cost_pool, 0),
    ROW("GlobalAveragePool", "", DLP_OPC_POOL, shape_global_pool, cost_in_numel, 1),
    ROW("GlobalMaxPool", "", DLP_OPC_POOL, shape_global_pool, cost_in_numel, 1),
    ROW("GlobalLpPool", "", DLP_OPC_POOL, shape_global_pool, cost_in_numel, 2),
    ROW("MaxRoiPool", "", DLP_OPC_POOL, shape_max_roi_pool, cost_max_roi_pool, 0),
    ROW("RoiAlign", "", DLP_OPC_POOL, shape_roi_align, cost_roi_align, 0),
    ROW("MaxUnpool", "", DLP_OPC_POOL, shape_max_unpool, cost_in_numel, 1),
    /* matrix products */
    ROW("Gemm", "", DLP_OPC_GEMM, shape_gemm, cost_gemm, 0),
    ROW("FusedGemm", MS, DLP_OPC_GEMM, shape_gemm, cost_gemm, 0),
    ROW("MatMul", "", DLP_OPC_MATMUL, shape_matmul, cost_matmul, 0),
    ROW("MatMulInteger", "", DLP_OPC_MATMUL, shape_matmul, cost_matmul, 0),
    ROW("QLinearMatMul", "", DLP_OPC_MATMUL, shape_matmul, cost_matmul, 0),
    ROW("FusedMatMul", MS, DLP_OPC_MATMUL, shape_matmul, cost_matmul, 0),
    ROW("Einsum", "", DLP_OPC_MATMUL, shape_einsum, cost_einsum, 0),
    /* normalisations (FLOPs per element in the last column) */
    ROW("BatchNormalization", "", DLP_OPC_NORM, shape_batchnorm, cost_batchnorm, 2),
    ROW("InstanceNormalization", "", DLP_OPC_NORM, shape_norm_like, cost_x_elem, 5),
    ROW("LayerNormalization", "", DLP_OPC_NORM, shape_layernorm, cost_x_elem, 5),
    ROW("SimplifiedLayerNormalization", "", DLP_OPC_NORM, shape_layernorm, cost_x_elem, 4),
    ROW("GroupNormalization", "", DLP_OPC_NORM, shape_norm_like, cost_x_elem, 5),
    ROW("LRN", "", DLP_OPC_NORM, shape_norm_like, cost_x_elem, 8),
    ROW("MeanVarianceNormalization", "", DLP_OPC_NORM, shape_norm_like, cost_x_elem, 5),
    ROW("LpNormalization", "", DLP_OPC_NORM, shape_norm_like, cost_x_elem, 3),
    ROW("SkipLayerNormalization", MS, DLP_OPC_NORM, shape_skip_layernorm, cost_x_elem, 7),
    ROW("SkipSimplifiedLayerNormalization", MS, DLP_OPC_NORM, shape_skip_layernorm, cost_x_elem, 6),
    ROW("EmbedLayerNormalization", MS, DLP_OPC_NORM, shape_embed_layernorm, cost_out_elem, 7),
    /* softmax family: per element + 1 per row */
    ROW("Softmax", "", DLP_OPC_SOFTMAX, shape_norm_like, cost_softmax, 4),
    ROW("LogSoftmax", "", DLP_OPC_SOFTMAX, shape_norm_like, cost_softmax, 4),
    ROW("Hardmax", "", DLP_OPC_SOFTMAX, shape_norm_like, cost_softmax, 1),
    /* reductions: FLOPs = input elements x column */
    ROW("ReduceMean", "", DLP_OPC_REDUCE, shape_reduce, cost_in_numel, 1),
    ROW("ReduceSum", "", DLP_OPC_REDUCE, shape_reduce, cost_in_numel, 1),
    ROW("ReduceMax", "", DLP_OPC_REDUCE, shape_reduce, cost_in_numel, 1),
    ROW("ReduceMin", "", DLP_OPC_REDUCE, shape_reduce, cost_in_numel, 1),
    ROW("ReduceProd", "", DLP_OPC_REDUCE, shape_reduce, cost_in_numel, 1),
    ROW("ReduceL1", "", DLP_OPC_REDUCE, shape_reduce, cost_in_numel, 2),
    ROW("ReduceL2", "", DLP_OPC_REDUCE, shape_reduce, cost_in_numel, 2),
    ROW("ReduceSumSquare", "", DLP_OPC_REDUCE, shape_reduce, cost_in_numel, 2),
    ROW("ReduceLogSum", "", DLP_OPC_REDUCE, shape_reduce, cost_in_numel, 1),
    ROW("ReduceLogSumExp", "", DLP_OPC_REDUCE, shape_reduce, cost_in_numel, 2),
    ROW("ArgMax", "", DLP_OPC_REDUCE, shape_arg, cost_in_numel, 1),
    ROW("ArgMin", "", DLP_OPC_REDUCE, shape_arg, cost_in_numel, 1),
    ROW("TopK", "", DLP_OPC_REDUCE, shape_topk, cost_topk, 0),
    ROW("CumSum", "", DLP_OPC_REDUCE, shape_cumsum, cost_in_numel, 1),
    /* resampling: data movement with a few taps per output */
    ROW("Resize", "", DLP_OPC_DATA, shape_resize, cost_resize, 0),
    ROW("Upsample", "", DLP_OPC_DATA, shape_resize, cost_resize, 0),
    /* recurrent */
    ROW("RNN", "", DLP_OPC_OTHER, shape_rnn, cost_rnn, 0),
    ROW("GRU", "", DLP_OPC_OTHER, shape_rnn, cost_rnn, 0),
    ROW("LSTM", "", DLP_OPC_OTHER, shape_rnn, cost_rnn, 0),
    /* losses (training graphs exported with their loss) */
    ROW("SoftmaxCrossEntropyLoss", "", DLP_OPC_OTHER, shape_loss, cost_loss, 0),
    ROW("NegativeLogLikelihoodLoss", "", DLP_OPC_OTHER, shape_loss, cost_loss, 0),
    /* quantization: FLOPs = X elements x column */
    ROW("QuantizeLinear", "", DLP_OPC_ELEMENTWISE, shape_quantize, cost_x_elem, 3),
    ROW("DequantizeLinear", "", DLP_OPC_ELEMENTWISE, shape_quantize, cost_x_elem, 2),
    ROW("DynamicQuantizeLinear", "", DLP_OPC_ELEMENTWISE, shape_quantize, cost_x_elem, 5),
    /* signal */
    ROW("DFT", "", DLP_OPC_OTHER, shape_dft, cost_dft, 0),
    /* training optimizers: FLOPs per optimized element in the last column */
    ROW("Adagrad", "ai.onnx.preview.training", DLP_OPC_ELEMENTWISE, shape_optimizer, cost_optimizer, 9),
    ROW("Momentum", "ai.onnx.preview.training", DLP_OPC_ELEMENTWISE, shape_optimizer, cost_optimizer, 7),
    ROW("Adam", "ai.onnx.preview.training", DLP_OPC_ELEMENTWISE, shape_optimizer, cost_optimizer, 14),
    /* com.microsoft attention */
    ROW("Attention", MS, DLP_OPC_MATMUL, shape_attention, cost_attention, 0),
    ROW("MultiHeadAttention", MS, DLP_OPC_MATMUL, shape_mha, cost_mha, 0),
    ROW("GroupQueryAttention", MS, DLP_OPC_MATMUL, shape_gqa, cost_gqa, 0),
    {NULL, NULL, 0, NULL, NULL, 0, NULL}};
