/*
 * ops_tensor.c — shape-manipulating ops with value propagation, constants,
 * data movement (Reshape/Concat/Slice/Gather/Pad/Tile/Expand ...), a few
 * odd ops with data-dependent shapes, and control flow (If/Loop/Scan, whose
 * rows' bind rules bind their bodies' inputs).
 *
 * Shape arithmetic in exported transformers happens at run time (Shape ->
 * Gather -> Unsqueeze -> Concat -> Reshape); every rule here computes the
 * output values whenever the inputs' values are known (ival for integer and
 * bool tensors, fval for small float tensors, up to DLP_MAX_VALUE_NUMEL
 * elements, row-major), so later rules see exact numbers.
 * Costs: data movement only (dlp__cost_none); bytes are generic.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/ops.h"

#define MAXD (DLP_MAX_RANK * 4)      /* largest rank a rule accepts      */
#define MAXV DLP_MAX_VALUE_NUMEL     /* largest tensor that keeps values */

/* ---- helpers ----------------------------------------------------------- */

static int is_int_dt(int dt) {
    return dt == DLP_DT_INT64 || dt == DLP_DT_INT32 || dt == DLP_DT_INT16 || dt == DLP_DT_INT8 ||
           dt == DLP_DT_UINT8 || dt == DLP_DT_UINT16 || dt == DLP_DT_UINT32 ||
           dt == DLP_DT_UINT64 || dt == DLP_DT_BOOL;
}

/* Values known and consistent with the (known) shape. */
static int has_vals(const dlp__value *v) {
    if (!v || !(v->ival || v->fval) || v->nval < 0) return 0;
    return dlp__numel(v) == v->nval;
}

/* Integer values of a small tensor (ival, or integral fval); count or -1. */
static int64_t get_ints(const dlp__value *v, int64_t *out, int64_t max) {
    if (!has_vals(v) || v->nval > max) return -1;
    for (int64_t i = 0; i < v->nval; i++) {
        if (v->ival) {
            out[i] = v->ival[i];
        } else {
            double d = v->fval[i];
            if (!(d > -9.2e18 && d < 9.2e18) || d != floor(d)) return -1;
            out[i] = (int64_t)d;
        }
    }
    return v->nval;
}

/* Scalar (or one-element) value as double; 1 if known. */
static int get_scalar(const dlp__value *v, double *out) {
    if (!has_vals(v) || v->nval != 1) return 0;
    *out = v->ival ? (double)v->ival[0] : v->fval[0];
    return 1;
}

/* Output i = input elements src[idx[k]] (ival and/or fval), n elements. */
static dlp_status set_vals_map(const dlp__ictx *c, int i, const dlp__value *src, int64_t n,
                               const int64_t *idx) {
    if (!has_vals(src) || n < 0 || n > MAXV) return DLP_OK;
    dlp_status st = DLP_OK;
    if (src->ival) {
        int64_t buf[MAXV];
        for (int64_t k = 0; k < n; k++) {
            if (idx[k] < 0 || idx[k] >= src->nval) return DLP_OK;
            buf[k] = src->ival[idx[k]];
        }
        st = dlp__set_out_ival(c, i, n, buf);
    }
    if (!st && src->fval) {
        double buf[MAXV];
        for (int64_t k = 0; k < n; k++) {
            if (idx[k] < 0 || idx[k] >= src->nval) return DLP_OK;
            buf[k] = src->fval[idx[k]];
        }
        st = dlp__set_out_fval(c, i, n, buf);
    }
    return st;
}

/* dlp__set_out_ival/fval that accept an empty (possibly NULL) array. */
static dlp_status put_ival(const dlp__ictx *c, int i, int64_t n, const int64_t *v) {
    int64_t zero = 0;
    return dlp__set_out_ival(c, i, n, n > 0 && v ? v : &zero);
}
static dlp_status put_fval(const dlp__ictx *c, int i, int64_t n, const double *v) {
    double zero = 0;
    return dlp__set_out_fval(c, i, n, n > 0 && v ? v : &zero);
}

/* Row-major strides of dims (numel must be known and small). */
static void strides_of(int r, const int64_t *dims, int64_t *st) {
    int64_t s = 1;
    for (int k = r - 1; k >= 0; k--) {
        st[k] = s;
        s *= dims[k];
    }
}

/* Product of dims; -1 when one is unknown or on overflow. */
static int64_t prod(int n, const int64_t *d) {
    int64_t p = 1;
    for (int k = 0; k < n; k++) {
        if (d[k] < 0 || !dlp__mul_ok(p, d[k], &p)) return -1;
    }
    return p;
}

/* Copy n dims (src may be NULL when n == 0). */
static void copy_dims(int64_t *dst, const int64_t *src, int n) {
    if (n > 0) memcpy(dst, src, sizeof(int64_t) * (size_t)n);
}

/* Input of rank too large for the fixed-size buffers: fail the node. */
static dlp_status check_rank(const dlp__ictx *c, const dlp__value *v) {
    if (v && v->rank > MAXD) return dlp__fail(c, "input '%s' has rank %d", v->name, v->rank);
    return DLP_OK;
}

/* Axes/ints from an optional input (opset >= 13 style) or an attribute.
 * Returns count, -1 when absent, -2 when present but values unknown. */
static int ints_from(const dlp__ictx *c, int input, const char *attr, int64_t *out, int max) {
    dlp__value *v = input >= 0 ? dlp__in(c, input) : NULL;
    if (v) {
        int64_t n = get_ints(v, out, max);
        return n < 0 ? -2 : (int)n;
    }
    if (attr) {
        const int64_t *a;
        int n = dlp__attr_ints(c, attr, &a);
        if (n < 0) return -1;
        if (n > max) return -2;
        if (n) memcpy(out, a, sizeof(int64_t) * (size_t)n);
        return n;
    }
    return -1;
}

/* ---- group 1: Shape, Size, Constant, ConstantOfShape, Range ------------ */

static dlp_status shape_shape(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    if (!x) return dlp__fail(c, "missing input 0");
    int64_t unk = -1;
    if (x->rank < 0) return dlp__set_out(c, 0, DLP_DT_INT64, 1, &unk);
    int r = x->rank;
    int64_t s = 0, e = r;
    if (dlp__opset(c) >= 15) {
        s = dlp__attr_i(c, "start", 0);
        e = dlp__attr_i(c, "end", r);
    }
    if (s < 0) s += r;
    if (e < 0) e += r;
    s = s < 0 ? 0 : s > r ? r : s;
    e = e < 0 ? 0 : e > r ? r : e;
    int64_t n = e > s ? e - s : 0;
    dlp_status st = dlp__set_out(c, 0, DLP_DT_INT64, 1, &n);
    if (st) return st;
    for (int64_t k = s; k < e; k++)
        if (x->dims[k] < 0) return DLP_OK;
    return put_ival(c, 0, n, n ? x->dims + s : NULL);
}

static dlp_status shape_size(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    if (!x) return dlp__fail(c, "missing input 0");
    dlp_status st = dlp__set_out(c, 0, DLP_DT_INT64, 0, NULL);
    int64_t n = dlp__numel(x);
    if (st || n < 0) return st;
    return dlp__set_out_ival(c, 0, 1, &n);
}

static dlp_status shape_constant(dlp__ictx *c) {
    const dlp__attr *a = NULL;
    static const char *names[] = {"value", "value_int", "value_ints", "value_float",
                                  "value_floats", "value_string", "value_strings", "sparse_value"};
    for (size_t k = 0; k < sizeof names / sizeof names[0] && !a; k++)
        a = dlp__attr_get(c->node, names[k]);
    if (!a) return dlp__fail(c, "Constant has no value attribute");
    dlp_status st;
    int64_t n = a->n;
    if (a->type == DLP_AT_TENSOR && a->t) {
        const dlp__tproto *t = a->t;
        if ((st = dlp__set_out(c, 0, t->dtype, t->rank, t->dims))) return st;
        dlp__value *o = dlp__out(c, 0);
        if (!o) return DLP_OK;
        o->init = t;
        /* the reader decoded small data at load (nval -1 otherwise) */
        o->ival = t->ival;
        o->fval = t->fval;
        o->nval = t->nval;
        return DLP_OK;
    }
    switch (a->type) {
    case DLP_AT_INT:
        if ((st = dlp__set_out(c, 0, DLP_DT_INT64, 0, NULL))) return st;
        return dlp__set_out_ival(c, 0, 1, &a->i);
    case DLP_AT_FLOAT:
        if ((st = dlp__set_out(c, 0, DLP_DT_FLOAT, 0, NULL))) return st;
        return dlp__set_out_fval(c, 0, 1, &a->f);
    case DLP_AT_INTS:
        if ((st = dlp__set_out(c, 0, DLP_DT_INT64, 1, &n))) return st;
        return put_ival(c, 0, n, a->ints);
    case DLP_AT_FLOATS:
        if ((st = dlp__set_out(c, 0, DLP_DT_FLOAT, 1, &n))) return st;
        return put_fval(c, 0, n, a->floats);
    case DLP_AT_STRING: return dlp__set_out(c, 0, DLP_DT_STRING, 0, NULL);
    case DLP_AT_STRINGS: return dlp__set_out(c, 0, DLP_DT_STRING, 1, &n);
    default: break;
    }
    return DLP_OK; /* sparse or odd attribute: shape unknown */
}

/* Fill value of a `value` TENSOR attribute (ConstantOfShape): dtype and the
 * first element; *known = 0 when the data cannot be read. */
static int attr_fill(const dlp__ictx *c, const char *name, int def_dtype, double *val, int *known) {
    const dlp__attr *a = dlp__attr_get(c->node, name);
    *val = 0;
    *known = 1;
    if (!a || a->type != DLP_AT_TENSOR || !a->t) return def_dtype;
    const dlp__tproto *t = a->t;
    *known = 0;
    /* one element, decoded by the reader at load */
    if (t->rank <= MAXD && t->nval == 1) {
        *val = t->ival ? (double)t->ival[0] : t->fval ? t->fval[0] : 0;
        *known = t->ival || t->fval;
    }
    return t->dtype;
}

static dlp_status shape_constant_of_shape(dlp__ictx *c) {
    dlp__value *s = dlp__in(c, 0);
    if (!s) return dlp__fail(c, "missing input 0");
    double fill;
    int known;
    int dt = attr_fill(c, "value", DLP_DT_FLOAT, &fill, &known);
    int64_t dims[MAXD];
    int64_t r = get_ints(s, dims, MAXD);
    if (r < 0) {
        if (s->rank == 1 && s->dims[0] >= 0 && s->dims[0] <= MAXD) {
            int64_t unk[MAXD];
            for (int k = 0; k < s->dims[0]; k++) unk[k] = -1;
            return dlp__set_out(c, 0, dt, (int)s->dims[0], unk);
        }
        dlp__set_out_dtype(c, 0, dt);
        return DLP_OK;
    }
    for (int k = 0; k < r; k++)
        if (dims[k] < 0) return dlp__fail(c, "shape input '%s' has negative dim %lld", s->name, (long long)dims[k]);
    dlp_status st = dlp__set_out(c, 0, dt, (int)r, dims);
    int64_t n = prod((int)r, dims);
    if (st || !known || n < 0 || n > MAXV) return st;
    if (is_int_dt(dt)) {
        int64_t buf[MAXV];
        if (!(fill > -9.2e18 && fill < 9.2e18)) return DLP_OK;
        for (int64_t k = 0; k < n; k++) buf[k] = (int64_t)fill;
        return dlp__set_out_ival(c, 0, n, buf);
    }
    double buf[MAXV];
    for (int64_t k = 0; k < n; k++) buf[k] = fill;
    return dlp__set_out_fval(c, 0, n, buf);
}

static dlp_status shape_range(dlp__ictx *c) {
    dlp__value *s = dlp__in(c, 0), *l = dlp__in(c, 1), *d = dlp__in(c, 2);
    if (!s || !l || !d) return dlp__fail(c, "Range needs start, limit and delta");
    int dt = s->dtype;
    int64_t unk = -1;
    if (is_int_dt(dt) && dlp__has_ival(s) && dlp__has_ival(l) && dlp__has_ival(d) &&
        s->nval == 1 && l->nval == 1 && d->nval == 1) {
        __int128 a = s->ival[0], b = l->ival[0], dd = d->ival[0];
        if (dd == 0) return dlp__fail(c, "Range delta '%s' is 0", d->name);
        __int128 span = b - a, cnt;
        if (dd > 0) cnt = span > 0 ? (span + dd - 1) / dd : 0;
        else cnt = span < 0 ? (-span + (-dd) - 1) / (-dd) : 0;
        if (cnt > INT64_MAX) return dlp__fail(c, "Range has more than 2^63 elements");
        int64_t n = (int64_t)cnt;
        dlp_status st = dlp__set_out(c, 0, dt, 1, &n);
        if (st || n > MAXV) return st;
        int64_t buf[MAXV];
        for (int64_t k = 0; k < n; k++) buf[k] = (int64_t)(a + dd * k);
        return dlp__set_out_ival(c, 0, n, buf);
    }
    double a, b, dd;
    if (get_scalar(s, &a) && get_scalar(l, &b) && get_scalar(d, &dd)) {
        if (dd == 0) return dlp__fail(c, "Range delta '%s' is 0", d->name);
        double cnt = ceil((b - a) / dd);
        if (!(cnt >= 0)) cnt = 0; /* also NaN */
        if (cnt > 9.2e18) return dlp__fail(c, "Range has more than 2^63 elements");
        int64_t n = (int64_t)cnt;
        dlp_status st = dlp__set_out(c, 0, dt, 1, &n);
        if (st || n > MAXV) return st;
        if (is_int_dt(dt)) {
            int64_t buf[MAXV];
            for (int64_t k = 0; k < n; k++) buf[k] = (int64_t)(a + dd * (double)k);
            return dlp__set_out_ival(c, 0, n, buf);
        }
        double buf[MAXV];
        for (int64_t k = 0; k < n; k++) buf[k] = a + dd * (double)k;
        return dlp__set_out_fval(c, 0, n, buf);
    }
    return dlp__set_out(c, 0, dt, 1, &unk);
}

/* ---- group 2: reshapes and data movement ------------------------------- */

/* "[a,b,c]" into buf. */
static const char *fmt_dims(char *buf, size_t size, int n, const int64_t *d) {
    size_t k = 0;
    buf[0] = 0;
    k += (size_t)snprintf(buf, size, "[");
    for (int i = 0; i < n && k < size; i++)
        k += (size_t)snprintf(buf + k, size - k, "%s%lld", i ? "," : "", (long long)d[i]);
    if (k < size) snprintf(buf + k, size - k, "]");
    return buf;
}

/* Output i gets x's values unchanged (reshape-like ops). */
static dlp_status copy_vals(const dlp__ictx *c, int i, const dlp__value *x) {
    if (!has_vals(x)) return DLP_OK;
    dlp_status st = DLP_OK;
    if (x->ival) st = put_ival(c, i, x->nval, x->ival);
    if (!st && x->fval) st = put_fval(c, i, x->nval, x->fval);
    return st;
}

/* Rank-n output of unknown dims (shape tensor of known length, no values). */
static dlp_status set_unknown_dims(const dlp__ictx *c, int i, int dtype, int64_t n) {
    int64_t d[MAXD];
    if (n < 0 || n > MAXD) {
        dlp__set_out_dtype(c, i, dtype);
        return DLP_OK;
    }
    for (int k = 0; k < n; k++) d[k] = -1;
    return dlp__set_out(c, i, dtype, (int)n, d);
}

/* Length of a 1-D tensor (-1 unknown). */
static int64_t len1(const dlp__value *v) { return v && v->rank == 1 ? v->dims[0] : -1; }

static dlp_status shape_reshape(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0), *s = dlp__in(c, 1);
    dlp_status st;
    if (!x) return dlp__fail(c, "missing input 0");
    if ((st = check_rank(c, x))) return st;
    int64_t sh[MAXD], od[MAXD];
    int k = dlp__opset(c) < 5 ? ints_from(c, -1, "shape", sh, MAXD) : ints_from(c, 1, NULL, sh, MAXD);
    if (k == -1) return dlp__fail(c, "missing shape");
    if (k == -2) return set_unknown_dims(c, 0, x->dtype, len1(s));
    int allowzero = dlp__opset(c) >= 14 ? (int)dlp__attr_i(c, "allowzero", 0) : 0;
    int neg = -1, has_zero = 0;
    uint8_t copied[MAXD] = {0};
    char b1[256], b2[256];
    for (int i = 0; i < k; i++) {
        int64_t v = sh[i];
        od[i] = v;
        if (v == -1) {
            if (neg >= 0) return dlp__fail(c, "shape %s has two -1 entries", fmt_dims(b1, sizeof b1, k, sh));
            neg = i;
        } else if (v < -1) {
            return dlp__fail(c, "shape %s has negative entry %lld", fmt_dims(b1, sizeof b1, k, sh), (long long)v);
        } else if (v == 0 && !allowzero) {
            if (x->rank >= 0 && i >= x->rank)
                return dlp__fail(c, "shape %s copies dim %d of '%s', which has rank %d",
                                 fmt_dims(b1, sizeof b1, k, sh), i, x->name, x->rank);
            od[i] = x->rank >= 0 ? x->dims[i] : -1;
            copied[i] = 1;
        } else if (v == 0) {
            has_zero = 1;
        }
    }
    if (has_zero && neg >= 0)
        return dlp__fail(c, "shape %s has both 0 and -1 with allowzero=1", fmt_dims(b1, sizeof b1, k, sh));
    if (x->rank >= 0) {
        /* dims copied by 0 cancel on both sides */
        int64_t in_rest = 1, out_rest = 1;
        for (int j = 0; j < x->rank && in_rest >= 0; j++) {
            if (j < k && copied[j]) continue;
            if (x->dims[j] < 0 || !dlp__mul_ok(in_rest, x->dims[j], &in_rest)) in_rest = -1;
        }
        for (int i = 0; i < k && out_rest >= 0; i++) {
            if (copied[i] || i == neg) continue;
            if (!dlp__mul_ok(out_rest, od[i], &out_rest)) out_rest = -1;
        }
        if (neg >= 0 && in_rest >= 0 && out_rest > 0) {
            if (in_rest % out_rest)
                return dlp__fail(c, "cannot reshape '%s' %s to shape %s", x->name,
                                 fmt_dims(b2, sizeof b2, x->rank, x->dims), fmt_dims(b1, sizeof b1, k, sh));
            od[neg] = in_rest / out_rest;
        } else if (neg < 0 && in_rest >= 0 && out_rest >= 0 && in_rest != out_rest) {
            return dlp__fail(c, "cannot reshape '%s' %s to shape %s", x->name,
                             fmt_dims(b2, sizeof b2, x->rank, x->dims), fmt_dims(b1, sizeof b1, k, sh));
        }
    }
    if ((st = dlp__set_out(c, 0, x->dtype, k, od))) return st;
    return copy_vals(c, 0, x);
}

static dlp_status shape_flatten(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    if (!x) return dlp__fail(c, "missing input 0");
    int64_t od[2] = {-1, -1};
    if (x->rank < 0) return dlp__set_out(c, 0, x->dtype, 2, od);
    int r = x->rank;
    int64_t axis = dlp__attr_i(c, "axis", 1);
    if (axis < 0) axis += r;
    if (axis < 0 || axis > r) return dlp__fail(c, "axis %lld is out of range for rank %d", (long long)dlp__attr_i(c, "axis", 1), r);
    od[0] = prod((int)axis, x->dims);
    od[1] = prod(r - (int)axis, x->dims + axis);
    dlp_status st = dlp__set_out(c, 0, x->dtype, 2, od);
    return st ? st : copy_vals(c, 0, x);
}

static dlp_status shape_squeeze(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    dlp_status st;
    if (!x) return dlp__fail(c, "missing input 0");
    if ((st = check_rank(c, x))) return st;
    int64_t ax[MAXD], od[MAXD];
    int na = dlp__opset(c) >= 13 ? ints_from(c, 1, "axes", ax, MAXD) : ints_from(c, -1, "axes", ax, MAXD);
    if (x->rank < 0 || na == -2) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    int r = x->rank, n = 0;
    uint8_t drop[MAXD] = {0};
    if (na >= 0) {
        for (int i = 0; i < na; i++) {
            int a = dlp__axis(c, ax[i], r, "axis");
            if (a < 0) return DLP_ESHAPE;
            if (drop[a]) return dlp__fail(c, "axis %d repeated", a);
            if (x->dims[a] >= 0 && x->dims[a] != 1)
                return dlp__fail(c, "cannot squeeze dim %d of '%s': size %lld", a, x->name, (long long)x->dims[a]);
            drop[a] = 1;
        }
    } else {
        for (int a = 0; a < r; a++) {
            if (x->dims[a] < 0) {
                dlp__set_out_dtype(c, 0, x->dtype);
                return DLP_OK;
            }
            drop[a] = x->dims[a] == 1;
        }
    }
    for (int a = 0; a < r; a++)
        if (!drop[a]) od[n++] = x->dims[a];
    if ((st = dlp__set_out(c, 0, x->dtype, n, od))) return st;
    return copy_vals(c, 0, x);
}

static dlp_status shape_unsqueeze(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    dlp_status st;
    if (!x) return dlp__fail(c, "missing input 0");
    if ((st = check_rank(c, x))) return st;
    int64_t ax[MAXD], od[MAXD];
    int na = dlp__opset(c) >= 13 ? ints_from(c, 1, "axes", ax, MAXD) : ints_from(c, -1, "axes", ax, MAXD);
    if (na == -1) return dlp__fail(c, "missing axes");
    if (x->rank < 0 || na == -2) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    int r = x->rank + na;
    if (r > MAXD) return dlp__fail(c, "output rank %d is too large", r);
    uint8_t ins[MAXD] = {0};
    for (int i = 0; i < na; i++) {
        int a = dlp__axis(c, ax[i], r, "axis");
        if (a < 0) return DLP_ESHAPE;
        if (ins[a]) return dlp__fail(c, "axis %d repeated", a);
        ins[a] = 1;
    }
    for (int a = 0, j = 0; a < r; a++) od[a] = ins[a] ? 1 : x->dims[j++];
    if ((st = dlp__set_out(c, 0, x->dtype, r, od))) return st;
    return copy_vals(c, 0, x);
}

static dlp_status shape_transpose(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    dlp_status st;
    if (!x) return dlp__fail(c, "missing input 0");
    if ((st = check_rank(c, x))) return st;
    if (x->rank < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    int r = x->rank;
    int64_t perm[MAXD], od[MAXD];
    const int64_t *p;
    int np = dlp__attr_ints(c, "perm", &p);
    if (np >= 0) {
        if (np != r) return dlp__fail(c, "perm has %d entries for rank %d", np, r);
        uint8_t seen[MAXD] = {0};
        for (int i = 0; i < r; i++) {
            if (p[i] < 0 || p[i] >= r || seen[p[i]])
                return dlp__fail(c, "perm is not a permutation of 0..%d", r - 1);
            seen[p[i]] = 1;
            perm[i] = p[i];
        }
    } else {
        for (int i = 0; i < r; i++) perm[i] = r - 1 - i;
    }
    for (int i = 0; i < r; i++) od[i] = x->dims[perm[i]];
    if ((st = dlp__set_out(c, 0, x->dtype, r, od))) return st;
    int64_t n = dlp__numel(x);
    if (!has_vals(x) || n > MAXV) return DLP_OK;
    int64_t is[MAXD], idx[MAXV];
    strides_of(r, x->dims, is);
    for (int64_t k = 0; k < n; k++) {
        int64_t rem = k, off = 0;
        for (int i = r - 1; i >= 0; i--) {
            off += (rem % od[i]) * is[perm[i]];
            rem /= od[i];
        }
        idx[k] = off;
    }
    return set_vals_map(c, 0, x, n, idx);
}

static dlp_status shape_concat(dlp__ictx *c) {
    int n = dlp__n_in(c), r = -1, dt = 0, unknown = 0;
    dlp_status st;
    for (int j = 0; j < n; j++) {
        dlp__value *v = dlp__in(c, j);
        if (!v) continue;
        if ((st = check_rank(c, v))) return st;
        if (!dt) dt = v->dtype;
        if (v->rank < 0) unknown = 1;
        else if (r < 0) r = v->rank;
    }
    if (r < 0) {
        dlp__set_out_dtype(c, 0, dt);
        return DLP_OK;
    }
    const dlp__attr *aa = dlp__attr_get(c->node, "axis");
    if (!aa && dlp__opset(c) >= 4) return dlp__fail(c, "missing attribute 'axis'");
    int a = dlp__axis(c, aa ? dlp__attr_i(c, "axis", 1) : 1, r, "axis");
    if (a < 0) return DLP_ESHAPE;
    int64_t od[MAXD];
    for (int k = 0; k < r; k++) od[k] = -1;
    od[a] = 0;
    for (int j = 0; j < n; j++) {
        dlp__value *v = dlp__in(c, j);
        if (!v || v->rank < 0) continue;
        if (v->rank != r)
            return dlp__fail(c, "input '%s' has rank %d, expected %d", v->name, v->rank, r);
        for (int k = 0; k < r; k++) {
            int64_t d = v->dims[k];
            if (k == a) {
                if (od[a] >= 0 && (d < 0 || !dlp__add_ok(od[a], d, &od[a]))) od[a] = -1;
            } else if (od[k] < 0) {
                od[k] = d;
            } else if (d >= 0 && d != od[k]) {
                return dlp__fail(c, "input '%s' dim %d is %lld, expected %lld", v->name, k,
                                 (long long)d, (long long)od[k]);
            }
        }
    }
    if (unknown) od[a] = -1;
    if ((st = dlp__set_out(c, 0, dt, r, od))) return st;
    /* values: every input known (empty inputs count as known) */
    int64_t total = prod(r, od);
    if (unknown || total < 0 || total > MAXV) return DLP_OK;
    int all_i = 1, all_f = 1;
    for (int j = 0; j < n; j++) {
        dlp__value *v = dlp__in(c, j);
        if (!v || dlp__numel(v) == 0) continue;
        if (!has_vals(v)) return DLP_OK;
        if (!v->ival) all_i = 0;
        if (!v->fval) all_f = 0;
    }
    if (!all_i && !all_f) return DLP_OK;
    int64_t outer = prod(a, od), inner = prod(r - a - 1, od + a + 1), k = 0;
    int64_t ib[MAXV];
    double fb[MAXV];
    for (int64_t o = 0; o < outer; o++)
        for (int j = 0; j < n; j++) {
            dlp__value *v = dlp__in(c, j);
            if (!v || dlp__numel(v) == 0) continue;
            int64_t chunk = v->dims[a] * inner;
            for (int64_t t = 0; t < chunk && k < total; t++, k++) {
                if (all_i) ib[k] = v->ival[o * chunk + t];
                else fb[k] = v->fval[o * chunk + t];
            }
        }
    if (k != total) return DLP_OK;
    return all_i ? put_ival(c, 0, total, ib) : put_fval(c, 0, total, fb);
}

/* Values of output i = the slab [lo, lo+len) along axis a of x. */
static dlp_status slab_vals(const dlp__ictx *c, int i, const dlp__value *x, int a, int64_t lo, int64_t len) {
    int64_t n = dlp__numel(x);
    if (!has_vals(x) || n < 0 || n > MAXV) return DLP_OK;
    int r = x->rank;
    int64_t outer = prod(a, x->dims), inner = prod(r - a - 1, x->dims + a + 1), d = x->dims[a], k = 0;
    int64_t idx[MAXV];
    for (int64_t o = 0; o < outer; o++)
        for (int64_t t = 0; t < len * inner; t++) idx[k++] = (o * d + lo) * inner + t;
    return set_vals_map(c, i, x, k, idx);
}

static dlp_status shape_split(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    dlp_status st;
    int no = dlp__n_out(c);
    if (!x) return dlp__fail(c, "missing input 0");
    if ((st = check_rank(c, x))) return st;
    if (no > MAXV) return dlp__fail(c, "%d outputs", no);
    if (x->rank < 0) {
        for (int i = 0; i < no; i++) dlp__set_out_dtype(c, i, x->dtype);
        return DLP_OK;
    }
    int r = x->rank;
    int a = dlp__axis(c, dlp__attr_i(c, "axis", 0), r, "axis");
    if (a < 0) return DLP_ESHAPE;
    int64_t d = x->dims[a], sp[MAXV];
    int ns = dlp__opset(c) >= 13 ? ints_from(c, 1, NULL, sp, MAXV) : ints_from(c, 1, "split", sp, MAXV);
    const dlp__attr *na = dlp__opset(c) >= 18 ? dlp__attr_get(c->node, "num_outputs") : NULL;
    if (ns >= 0) {
        int64_t sum = 0;
        if (ns != no) return dlp__fail(c, "split has %d entries for %d outputs", ns, no);
        for (int i = 0; i < ns; i++) {
            if (sp[i] < 0) return dlp__fail(c, "split entry %d is %lld", i, (long long)sp[i]);
            if (!dlp__add_ok(sum, sp[i], &sum)) return dlp__fail(c, "split sizes overflow");
        }
        if (d >= 0 && sum != d)
            return dlp__fail(c, "split sizes sum to %lld but '%s' dim %d is %lld", (long long)sum, x->name, a,
                             (long long)d);
    } else if (ns == -1) {
        if (na && na->i != no) return dlp__fail(c, "num_outputs %lld but %d outputs", (long long)na->i, no);
        if (no < 1) return dlp__fail(c, "no outputs");
        for (int i = 0; i < no; i++) sp[i] = -1;
        if (d >= 0 && na) {
            int64_t chunk = d / no + (d % no != 0);
            for (int i = 0; i < no; i++) sp[i] = chunk;
            sp[no - 1] = d - chunk * (no - 1);
            if (sp[no - 1] < 0)
                return dlp__fail(c, "cannot split dim %lld of '%s' into %d outputs", (long long)d, x->name, no);
        } else if (d >= 0) {
            if (d % no)
                return dlp__fail(c, "dim %lld of '%s' does not split evenly into %d outputs", (long long)d, x->name, no);
            for (int i = 0; i < no; i++) sp[i] = d / no;
        }
    } else {
        for (int i = 0; i < no; i++) sp[i] = -1;
    }
    int64_t od[MAXD], lo = 0;
    copy_dims(od, x->dims, r);
    for (int i = 0; i < no; i++) {
        od[a] = sp[i];
        if ((st = dlp__set_out(c, i, x->dtype, r, od))) return st;
        if (lo >= 0 && sp[i] >= 0 && (st = slab_vals(c, i, x, a, lo, sp[i]))) return st;
        lo = lo >= 0 && sp[i] >= 0 ? lo + sp[i] : -1;
    }
    return DLP_OK;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

static dlp_status shape_slice(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    dlp_status st;
    if (!x) return dlp__fail(c, "missing input 0");
    if ((st = check_rank(c, x))) return st;
    if (x->rank < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    int r = x->rank, old = dlp__opset(c) < 10;
    int64_t sv[MAXD], ev[MAXD], av[MAXD], pv[MAXD], od[MAXD], first[MAXD], step[MAXD];
    int ns = old ? ints_from(c, -1, "starts", sv, MAXD) : ints_from(c, 1, NULL, sv, MAXD);
    int ne = old ? ints_from(c, -1, "ends", ev, MAXD) : ints_from(c, 2, NULL, ev, MAXD);
    int na = old ? ints_from(c, -1, "axes", av, MAXD) : ints_from(c, 3, NULL, av, MAXD);
    int np = old ? -1 : ints_from(c, 4, NULL, pv, MAXD);
    if (ns == -1 || ne == -1) return dlp__fail(c, "missing starts or ends");
    copy_dims(od, x->dims, r);
    if (ns == -2 || ne == -2 || na == -2 || np == -2) {
        /* values unknown: the sliced axes are unknown (all of them when axes are) */
        if (na >= 0) {
            for (int i = 0; i < na; i++) {
                int a = dlp__axis(c, av[i], r, "axis");
                if (a < 0) return DLP_ESHAPE;
                od[a] = -1;
            }
        } else {
            for (int k = 0; k < r; k++) od[k] = -1;
        }
        return dlp__set_out(c, 0, x->dtype, r, od);
    }
    if (ns != ne) return dlp__fail(c, "%d starts but %d ends", ns, ne);
    if (na >= 0 && na != ns) return dlp__fail(c, "%d axes for %d starts", na, ns);
    if (np >= 0 && np != ns) return dlp__fail(c, "%d steps for %d starts", np, ns);
    uint8_t seen[MAXD] = {0};
    for (int k = 0; k < r; k++) {
        first[k] = 0;
        step[k] = 1;
    }
    for (int i = 0; i < ns; i++) {
        int a = dlp__axis(c, na >= 0 ? av[i] : i, r, "axis");
        if (a < 0) return DLP_ESHAPE;
        if (seen[a]) return dlp__fail(c, "axis %d repeated", a);
        seen[a] = 1;
        int64_t s = sv[i], e = ev[i], p = np >= 0 ? pv[i] : 1, d = x->dims[a];
        if (p == 0) return dlp__fail(c, "step of axis %d is 0", a);
        step[a] = p;
        if (d < 0) {
            od[a] = -1;
            continue;
        }
        if (s < 0) s += d;
        if (e < 0) e += d;
        int64_t cnt;
        if (d == 0) {
            s = 0;
            cnt = 0;
        } else if (p > 0) {
            s = clamp64(s, 0, d);
            e = clamp64(e, 0, d);
            cnt = e > s ? (e - s - 1) / p + 1 : 0;
        } else {
            s = clamp64(s, 0, d - 1);
            e = clamp64(e, -1, d - 1);
            uint64_t ap = (uint64_t)0 - (uint64_t)p;
            cnt = s > e ? (int64_t)((uint64_t)(s - e - 1) / ap) + 1 : 0;
        }
        first[a] = s;
        od[a] = cnt;
    }
    if ((st = dlp__set_out(c, 0, x->dtype, r, od))) return st;
    int64_t n = prod(r, od);
    if (!has_vals(x) || n < 0 || n > MAXV) return DLP_OK;
    int64_t is[MAXD], idx[MAXV];
    strides_of(r, x->dims, is);
    for (int64_t k = 0; k < n; k++) {
        int64_t rem = k, off = 0;
        for (int j = r - 1; j >= 0; j--) {
            off += (first[j] + (rem % od[j]) * step[j]) * is[j];
            rem /= od[j];
        }
        idx[k] = off;
    }
    return set_vals_map(c, 0, x, n, idx);
}

static dlp_status shape_gather(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0), *ind = dlp__in(c, 1);
    dlp_status st;
    if (!x || !ind) return dlp__fail(c, "Gather needs data and indices");
    if ((st = check_rank(c, x)) || (st = check_rank(c, ind))) return st;
    if (x->rank < 0 || ind->rank < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    int r = x->rank, q = ind->rank;
    int a = dlp__axis(c, dlp__attr_i(c, "axis", 0), r, "axis");
    if (a < 0) return DLP_ESHAPE;
    if (r - 1 + q > MAXD) return dlp__fail(c, "output rank %d is too large", r - 1 + q);
    int64_t od[MAXD], d = x->dims[a];
    int o = 0;
    for (int k = 0; k < a; k++) od[o++] = x->dims[k];
    for (int k = 0; k < q; k++) od[o++] = ind->dims[k];
    for (int k = a + 1; k < r; k++) od[o++] = x->dims[k];
    if ((st = dlp__set_out(c, 0, x->dtype, o, od))) return st;
    int64_t ni = dlp__numel(ind), iv[MAXV];
    if (ni < 0 || ni > MAXV || get_ints(ind, iv, MAXV) != ni) return DLP_OK;
    for (int64_t j = 0; j < ni; j++) {
        if (d >= 0 && (iv[j] < -d || iv[j] >= d))
            return dlp__fail(c, "index %lld is out of range for dim %lld of '%s'", (long long)iv[j],
                             (long long)d, x->name);
        if (iv[j] < 0 && d >= 0) iv[j] += d;
    }
    int64_t n = prod(o, od);
    if (!has_vals(x) || n < 0 || n > MAXV) return DLP_OK;
    int64_t outer = prod(a, x->dims), inner = prod(r - a - 1, x->dims + a + 1), k = 0, idx[MAXV];
    for (int64_t b = 0; b < outer; b++)
        for (int64_t j = 0; j < ni; j++)
            for (int64_t t = 0; t < inner; t++) idx[k++] = (b * d + iv[j]) * inner + t;
    return set_vals_map(c, 0, x, k, idx);
}

static dlp_status shape_gather_elements(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0), *ind = dlp__in(c, 1);
    dlp_status st;
    if (!x || !ind) return dlp__fail(c, "GatherElements needs data and indices");
    if ((st = check_rank(c, x)) || (st = check_rank(c, ind))) return st;
    if (ind->rank < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    if (x->rank >= 0 && x->rank != ind->rank)
        return dlp__fail(c, "indices '%s' have rank %d, data '%s' rank %d", ind->name, ind->rank, x->name, x->rank);
    int a = dlp__axis(c, dlp__attr_i(c, "axis", 0), ind->rank, "axis");
    if (a < 0) return DLP_ESHAPE;
    if ((st = dlp__set_out(c, 0, x->dtype, ind->rank, ind->dims))) return st;
    int64_t n = dlp__numel(ind), iv[MAXV], idx[MAXV], xs[MAXD];
    if (!has_vals(x) || n < 0 || n > MAXV || get_ints(ind, iv, MAXV) != n) return DLP_OK;
    int r = ind->rank;
    strides_of(r, x->dims, xs);
    for (int64_t k = 0; k < n; k++) {
        int64_t rem = k, off = 0;
        for (int j = r - 1; j >= 0; j--) {
            int64_t cj = rem % ind->dims[j];
            rem /= ind->dims[j];
            if (j == a) {
                cj = iv[k] < 0 ? iv[k] + x->dims[a] : iv[k];
                if (cj < 0 || cj >= x->dims[a]) return dlp__fail(c, "index %lld is out of range", (long long)iv[k]);
            } else if (cj >= x->dims[j]) {
                return DLP_OK;
            }
            off += cj * xs[j];
        }
        idx[k] = off;
    }
    return set_vals_map(c, 0, x, n, idx);
}

static dlp_status shape_gather_nd(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0), *ind = dlp__in(c, 1);
    dlp_status st;
    if (!x || !ind) return dlp__fail(c, "GatherND needs data and indices");
    if ((st = check_rank(c, x)) || (st = check_rank(c, ind))) return st;
    if (x->rank < 0 || ind->rank < 1 || ind->dims[ind->rank - 1] < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    int64_t b = dlp__attr_i(c, "batch_dims", 0), k = ind->dims[ind->rank - 1];
    int r = x->rank, q = ind->rank;
    if (b < 0 || b >= q || b >= r) return dlp__fail(c, "batch_dims %lld for ranks %d and %d", (long long)b, r, q);
    if (k < 1 || k > r - b) return dlp__fail(c, "indices '%s' last dim %lld for data rank %d", ind->name, (long long)k, r);
    int64_t od[MAXD];
    int o = 0;
    for (int j = 0; j < q - 1; j++) od[o++] = ind->dims[j];
    for (int64_t j = b + k; j < r; j++) od[o++] = x->dims[j];
    return dlp__set_out(c, 0, x->dtype, o, od);
}

static dlp_status shape_scatter(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    if (!x) return dlp__fail(c, "missing input 0");
    return dlp__set_out(c, 0, x->dtype, x->rank, x->dims);
}

/* Broadcast values of x into output 0 (dims od, rank r). */
static dlp_status bcast_vals(const dlp__ictx *c, const dlp__value *x, int r, const int64_t *od) {
    int64_t n = prod(r, od);
    if (!has_vals(x) || n < 0 || n > MAXV) return DLP_OK;
    int64_t idx[MAXV];
    for (int64_t k = 0; k < n; k++) {
        int64_t rem = k, off = 0, stride = 1;
        for (int j = r - 1; j >= 0; j--) {
            int64_t cj = rem % od[j];
            rem /= od[j];
            int ix = j - (r - x->rank);
            if (ix < 0) continue;
            off += (x->dims[ix] == 1 ? 0 : cj) * stride;
            stride *= x->dims[ix];
        }
        idx[k] = off;
    }
    return set_vals_map(c, 0, x, n, idx);
}

static dlp_status shape_expand(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0), *s = dlp__in(c, 1);
    dlp_status st;
    if (!x || !s) return dlp__fail(c, "Expand needs input and shape");
    if ((st = check_rank(c, x))) return st;
    int64_t sh[MAXD], od[MAXD];
    int64_t k = get_ints(s, sh, MAXD);
    if (k < 0) {
        int64_t n = len1(s);
        if (x->rank < 0 || n < 0 || n > MAXD) {
            dlp__set_out_dtype(c, 0, x->dtype);
            return DLP_OK;
        }
        int r = (int)n > x->rank ? (int)n : x->rank;
        for (int j = 0; j < r; j++) {
            int ix = j - (r - x->rank);
            od[j] = ix >= 0 && x->dims[ix] > 1 ? x->dims[ix] : -1;
        }
        return dlp__set_out(c, 0, x->dtype, r, od);
    }
    for (int j = 0; j < k; j++)
        if (sh[j] < 0) return dlp__fail(c, "shape '%s' entry %d is %lld", s->name, j, (long long)sh[j]);
    if (x->rank < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    dlp__value t;
    memset(&t, 0, sizeof t);
    t.name = s->name;
    t.rank = (int)k;
    t.dims = sh;
    int r = dlp__broadcast(c, x, &t, od, &st);
    if (st) return st;
    if ((st = dlp__set_out(c, 0, x->dtype, r, od))) return st;
    return bcast_vals(c, x, r, od);
}

static dlp_status shape_tile(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0), *rp = dlp__in(c, 1);
    dlp_status st;
    if (!x || !rp) return dlp__fail(c, "Tile needs input and repeats");
    if ((st = check_rank(c, x))) return st;
    if (x->rank < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    int r = x->rank;
    int64_t rep[MAXD], od[MAXD];
    int64_t k = dlp__opset(c) >= 6 ? get_ints(rp, rep, MAXD) : -1;
    double tiles, axis;
    if (dlp__opset(c) < 6 && get_scalar(rp, &tiles) && get_scalar(dlp__in(c, 2), &axis)) {
        /* Tile-1: scalar `tiles` along scalar `axis` */
        int a = dlp__axis(c, (int64_t)axis, r, "axis");
        if (a < 0) return DLP_ESHAPE;
        if (!(tiles >= 0 && tiles < 9.2e18)) return dlp__fail(c, "tiles is %g", tiles);
        for (int j = 0; j < r; j++) rep[j] = j == a ? (int64_t)tiles : 1;
        k = r;
    }
    if (k < 0) return set_unknown_dims(c, 0, x->dtype, r);
    if (k != r) return dlp__fail(c, "repeats has %lld entries for rank %d", (long long)k, r);
    for (int j = 0; j < r; j++) {
        if (rep[j] < 0) return dlp__fail(c, "repeats entry %d is %lld", j, (long long)rep[j]);
        if (x->dims[j] < 0) od[j] = -1;
        else if (!dlp__mul_ok(x->dims[j], rep[j], &od[j])) return dlp__fail(c, "tiled dim %d overflows", j);
    }
    if ((st = dlp__set_out(c, 0, x->dtype, r, od))) return st;
    int64_t n = prod(r, od), idx[MAXV], xs[MAXD];
    if (!has_vals(x) || n < 0 || n > MAXV) return DLP_OK;
    strides_of(r, x->dims, xs);
    for (int64_t q = 0; q < n; q++) {
        int64_t rem = q, off = 0;
        for (int j = r - 1; j >= 0; j--) {
            off += (rem % od[j]) % x->dims[j] * xs[j];
            rem /= od[j];
        }
        idx[q] = off;
    }
    return set_vals_map(c, 0, x, n, idx);
}

static dlp_status shape_pad(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    dlp_status st;
    if (!x) return dlp__fail(c, "missing input 0");
    if ((st = check_rank(c, x))) return st;
    if (x->rank < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    int r = x->rank;
    int64_t op = dlp__opset(c), pads[2 * MAXD], ax[MAXD], od[MAXD];
    int np = op >= 11 ? ints_from(c, 1, NULL, pads, 2 * MAXD)
                      : ints_from(c, -1, op < 2 ? "paddings" : "pads", pads, 2 * MAXD);
    int na = op >= 18 ? ints_from(c, 3, NULL, ax, MAXD) : -1;
    if (np == -1) return dlp__fail(c, "missing pads");
    copy_dims(od, x->dims, r);
    if (np == -2 || na == -2) {
        if (na >= 0)
            for (int i = 0; i < na; i++) {
                int a = dlp__axis(c, ax[i], r, "axis");
                if (a < 0) return DLP_ESHAPE;
                od[a] = -1;
            }
        else
            for (int j = 0; j < r; j++) od[j] = -1;
        return dlp__set_out(c, 0, x->dtype, r, od);
    }
    if (na < 0) {
        na = r;
        for (int j = 0; j < r; j++) ax[j] = j;
    }
    if (np != 2 * na) return dlp__fail(c, "%d pads for %d axes", np, na);
    uint8_t seen[MAXD] = {0};
    for (int i = 0; i < na; i++) {
        int a = dlp__axis(c, ax[i], r, "axis");
        if (a < 0) return DLP_ESHAPE;
        if (seen[a]) return dlp__fail(c, "axis %d repeated", a);
        seen[a] = 1;
        int64_t d = x->dims[a], t;
        if (d < 0) continue;
        if (!dlp__add_ok(d, pads[i], &t) || !dlp__add_ok(t, pads[i + na], &t))
            return dlp__fail(c, "padded dim %d overflows", a);
        if (t < 0) return dlp__fail(c, "pads make dim %d of '%s' negative (%lld)", a, x->name, (long long)t);
        od[a] = t;
    }
    return dlp__set_out(c, 0, x->dtype, r, od);
}

/* ---- group 3: ops with odd or data-dependent shapes ------------------- */

/* TfIdfVectorizer: X (C) or (N, C) of n-gram tokens -> float (D) or (N, D),
 * D = max(ngram_indexes) + 1 (the output slot of every pooled n-gram). */
static dlp_status shape_tfidf(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    if (!x) return dlp__fail(c, "missing input 0");
    const int64_t *ix;
    int n = dlp__attr_ints(c, "ngram_indexes", &ix);
    if (n < 1) return dlp__fail(c, "attribute ngram_indexes is missing or empty");
    int64_t d = -1;
    for (int i = 0; i < n; i++) {
        if (ix[i] < 0 || ix[i] >= ((int64_t)1 << 40)) return dlp__fail(c, "ngram_indexes[%d] is %lld", i, (long long)ix[i]);
        if (ix[i] + 1 > d) d = ix[i] + 1;
    }
    if (x->rank < 0) {
        dlp__set_out_dtype(c, 0, DLP_DT_FLOAT);
        return DLP_OK;
    }
    if (x->rank != 1 && x->rank != 2) return dlp__fail(c, "input '%s' has rank %d, expected 1 or 2", x->name, x->rank);
    int64_t od[2] = {x->rank == 2 ? x->dims[0] : d, d};
    return dlp__set_out(c, 0, DLP_DT_FLOAT, x->rank, od);
}

static dlp_status shape_onehot(dlp__ictx *c) {
    dlp__value *ind = dlp__in(c, 0), *dep = dlp__in(c, 1), *vals = dlp__in(c, 2);
    dlp_status st;
    if (!ind || !dep || !vals) return dlp__fail(c, "OneHot needs indices, depth and values");
    if ((st = check_rank(c, ind))) return st;
    int dt = vals->dtype;
    if (ind->rank < 0) {
        dlp__set_out_dtype(c, 0, dt);
        return DLP_OK;
    }
    int r = ind->rank + 1;
    if (r > MAXD) return dlp__fail(c, "output rank %d is too large", r);
    int a = dlp__axis(c, dlp__attr_i(c, "axis", -1), r, "axis");
    if (a < 0) return DLP_ESHAPE;
    double depth;
    int64_t dv = -1, od[MAXD];
    if (get_scalar(dep, &depth)) {
        if (!(depth >= 0 && depth < 9.2e18)) return dlp__fail(c, "depth '%s' is %g", dep->name, depth);
        dv = (int64_t)depth;
    }
    for (int k = 0, j = 0; k < r; k++) od[k] = k == a ? dv : ind->dims[j++];
    return dlp__set_out(c, 0, dt, r, od);
}

/* Output 0 has input 0's shape; dtype from attribute `dtype` when given. */
static dlp_status shape_like(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    if (!x) return dlp__fail(c, "missing input 0");
    int dt = (int)dlp__attr_i(c, "dtype", x->dtype);
    if (dt < 0 || dt >= DLP_DT_COUNT_) return dlp__fail(c, "dtype %d is unknown", dt);
    return dlp__set_out(c, 0, dt, x->rank, x->dims);
}

static dlp_status shape_eyelike(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    if (!x) return dlp__fail(c, "missing input 0");
    if (x->rank >= 0 && x->rank != 2) return dlp__fail(c, "input '%s' has rank %d, expected 2", x->name, x->rank);
    return shape_like(c);
}

static dlp_status shape_random(dlp__ictx *c) {
    int dt = (int)dlp__attr_i(c, "dtype", DLP_DT_FLOAT);
    const int64_t *sh;
    int n = dlp__attr_ints(c, "shape", &sh);
    if (dt < 0 || dt >= DLP_DT_COUNT_) return dlp__fail(c, "dtype %d is unknown", dt);
    if (n < 0) return dlp__fail(c, "missing attribute 'shape'");
    if (n > MAXD) return dlp__fail(c, "shape has %d entries", n);
    for (int k = 0; k < n; k++)
        if (sh[k] < 0) return dlp__fail(c, "shape entry %d is %lld", k, (long long)sh[k]);
    return dlp__set_out(c, 0, dt, n, sh);
}

static dlp_status shape_multinomial(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    if (!x) return dlp__fail(c, "missing input 0");
    int dt = (int)dlp__attr_i(c, "dtype", DLP_DT_INT32);
    int64_t ss = dlp__attr_i(c, "sample_size", 1);
    if (ss < 0) return dlp__fail(c, "sample_size %lld", (long long)ss);
    if (x->rank >= 0 && x->rank != 2) return dlp__fail(c, "input '%s' has rank %d, expected 2", x->name, x->rank);
    int64_t od[2] = {x->rank == 2 ? x->dims[0] : -1, ss};
    return dlp__set_out(c, 0, dt, 2, od);
}

static dlp_status shape_depth_space(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    if (!x) return dlp__fail(c, "missing input 0");
    int64_t b = dlp__attr_i(c, "blocksize", 0), bb, od[4];
    if (b < 1 || !dlp__mul_ok(b, b, &bb)) return dlp__fail(c, "blocksize %lld", (long long)b);
    if (x->rank < 0) {
        int64_t u[4] = {-1, -1, -1, -1};
        return dlp__set_out(c, 0, x->dtype, 4, u);
    }
    if (x->rank != 4) return dlp__fail(c, "input '%s' has rank %d, expected 4", x->name, x->rank);
    const int64_t *d = x->dims;
    int to_space = !strcmp(c->node->op_type, "DepthToSpace");
    od[0] = d[0];
    for (int k = 1; k < 4; k++) {
        int64_t f = k == 1 ? bb : b;
        int shrink = (k == 1) == to_space;
        if (d[k] < 0) od[k] = -1;
        else if (shrink) {
            if (d[k] % f) return dlp__fail(c, "dim %d of '%s' (%lld) is not a multiple of %lld", k, x->name,
                                           (long long)d[k], (long long)f);
            od[k] = d[k] / f;
        } else if (!dlp__mul_ok(d[k], f, &od[k])) {
            return dlp__fail(c, "dim %d overflows", k);
        }
    }
    return dlp__set_out(c, 0, x->dtype, 4, od);
}

static dlp_status shape_nonzero(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    if (!x) return dlp__fail(c, "missing input 0");
    int64_t od[2] = {x->rank, -1};
    if (x->rank < 0) return dlp__set_out(c, 0, DLP_DT_INT64, 2, od);
    int64_t n = dlp__numel(x), cnt = 0;
    if (!has_vals(x) || n > MAXV) return dlp__set_out(c, 0, DLP_DT_INT64, 2, od);
    for (int64_t k = 0; k < n; k++) cnt += x->ival ? x->ival[k] != 0 : x->fval[k] != 0;
    od[1] = cnt;
    dlp_status st = dlp__set_out(c, 0, DLP_DT_INT64, 2, od);
    int64_t total;
    if (st || !dlp__mul_ok(cnt, x->rank, &total) || total > MAXV) return st;
    int64_t buf[MAXV], xs[MAXD], j = 0;
    strides_of(x->rank, x->dims, xs);
    for (int64_t k = 0; k < n; k++) {
        if (!(x->ival ? x->ival[k] != 0 : x->fval[k] != 0)) continue;
        for (int a = 0; a < x->rank; a++) buf[a * cnt + j] = k / xs[a] % x->dims[a];
        j++;
    }
    return put_ival(c, 0, total, buf);
}

static dlp_status shape_nms(dlp__ictx *c) {
    int64_t od[2] = {-1, 3};
    return dlp__set_out(c, 0, DLP_DT_INT64, 2, od);
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static dlp_status shape_unique(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    dlp_status st;
    if (!x) return dlp__fail(c, "missing input 0");
    if ((st = check_rank(c, x))) return st;
    const dlp__attr *aa = dlp__attr_get(c->node, "axis");
    int64_t u = -1, nin = dlp__numel(x), od[MAXD];
    if (aa) {
        if (x->rank < 0) {
            dlp__set_out_dtype(c, 0, x->dtype);
        } else {
            int a = dlp__axis(c, aa->i, x->rank, "axis");
            if (a < 0) return DLP_ESHAPE;
            copy_dims(od, x->dims, x->rank);
            od[a] = -1;
            if ((st = dlp__set_out(c, 0, x->dtype, x->rank, od))) return st;
            nin = x->dims[a];
        }
    } else {
        if (dlp__has_ival(x) && nin >= 0 && nin <= MAXV) {
            int64_t buf[MAXV];
            copy_dims(buf, x->ival, (int)nin);
            qsort(buf, (size_t)nin, sizeof buf[0], cmp_i64);
            u = 0;
            for (int64_t k = 0; k < nin; k++) u += !k || buf[k] != buf[k - 1];
        }
        if ((st = dlp__set_out(c, 0, x->dtype, 1, &u))) return st;
    }
    if ((st = dlp__set_out(c, 1, DLP_DT_INT64, 1, &u))) return st;
    if ((st = dlp__set_out(c, 2, DLP_DT_INT64, 1, &nin))) return st;
    return dlp__set_out(c, 3, DLP_DT_INT64, 1, &u);
}

static dlp_status shape_compress(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0), *cond = dlp__in(c, 1);
    dlp_status st;
    if (!x || !cond) return dlp__fail(c, "Compress needs input and condition");
    if ((st = check_rank(c, x))) return st;
    int64_t cnt = -1, od[MAXD];
    if (has_vals(cond)) {
        cnt = 0;
        for (int64_t k = 0; k < cond->nval; k++) cnt += cond->ival ? cond->ival[k] != 0 : cond->fval[k] != 0;
    }
    const dlp__attr *aa = dlp__attr_get(c->node, "axis");
    if (!aa) return dlp__set_out(c, 0, x->dtype, 1, &cnt);
    if (x->rank < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    int a = dlp__axis(c, aa->i, x->rank, "axis");
    if (a < 0) return DLP_ESHAPE;
    copy_dims(od, x->dims, x->rank);
    od[a] = cnt;
    return dlp__set_out(c, 0, x->dtype, x->rank, od);
}

static dlp_status shape_same(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    if (!x) return dlp__fail(c, "missing input 0");
    return dlp__set_out(c, 0, x->dtype, x->rank, x->dims);
}

static dlp_status shape_grid_sample(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0), *grid = dlp__in(c, 1);
    dlp_status st;
    if (!x || !grid) return dlp__fail(c, "GridSample needs input and grid");
    if ((st = check_rank(c, grid))) return st;
    if (grid->rank < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    int gr = grid->rank;
    if (gr < 3) return dlp__fail(c, "grid '%s' has rank %d", grid->name, gr);
    if (x->rank >= 0 && x->rank != gr) return dlp__fail(c, "input '%s' rank %d, grid rank %d", x->name, x->rank, gr);
    int64_t od[MAXD];
    od[0] = grid->dims[0] >= 0 ? grid->dims[0] : x->rank >= 0 ? x->dims[0] : -1;
    od[1] = x->rank >= 0 ? x->dims[1] : -1;
    for (int k = 1; k < gr - 1; k++) od[k + 1] = grid->dims[k];
    return dlp__set_out(c, 0, x->dtype, gr, od);
}

static dlp_status shape_det(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    if (!x) return dlp__fail(c, "missing input 0");
    if (x->rank < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    int r = x->rank;
    if (r < 2) return dlp__fail(c, "input '%s' has rank %d, expected >= 2", x->name, r);
    int64_t m = x->dims[r - 1], n = x->dims[r - 2];
    if (m >= 0 && n >= 0 && m != n) return dlp__fail(c, "input '%s' is not square (%lld x %lld)", x->name, (long long)n, (long long)m);
    return dlp__set_out(c, 0, x->dtype, r - 2, x->dims);
}

static dlp_status shape_center_crop_pad(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0), *s = dlp__in(c, 1);
    dlp_status st;
    if (!x || !s) return dlp__fail(c, "CenterCropPad needs input and shape");
    if ((st = check_rank(c, x))) return st;
    if (x->rank < 0) {
        dlp__set_out_dtype(c, 0, x->dtype);
        return DLP_OK;
    }
    int r = x->rank;
    int64_t sh[MAXD], ax[MAXD], od[MAXD];
    copy_dims(od, x->dims, r);
    int64_t n = get_ints(s, sh, MAXD);
    const int64_t *a;
    int na = dlp__attr_ints(c, "axes", &a);
    if (na > MAXD) return dlp__fail(c, "%d axes", na);
    if (na < 0) {
        na = r;
        for (int k = 0; k < r; k++) ax[k] = k;
    } else {
        copy_dims(ax, a, na);
    }
    for (int i = 0; i < na; i++) {
        int k = dlp__axis(c, ax[i], r, "axis");
        if (k < 0) return DLP_ESHAPE;
        if (n >= 0 && n != na) return dlp__fail(c, "shape has %lld entries for %d axes", (long long)n, na);
        if (n >= 0 && sh[i] < 0) return dlp__fail(c, "shape entry %d is %lld", i, (long long)sh[i]);
        od[k] = n >= 0 ? sh[i] : -1;
    }
    return dlp__set_out(c, 0, x->dtype, r, od);
}

/* ---- sequences and optionals (best effort: no sequence type in the IR) - */

static const dlp__node *producer_of(const dlp__ictx *c, const dlp__value *v) {
    return v && v->producer >= 0 && v->producer < c->g->n_nodes ? &c->g->nodes[v->producer] : NULL;
}

static dlp_status shape_seq_unknown(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    int dt = (int)dlp__attr_i(c, "dtype", x ? x->dtype : 0);
    for (int i = 0; i < dlp__n_out(c); i++) dlp__set_out_dtype(c, i, dt >= 0 && dt < DLP_DT_COUNT_ ? dt : 0);
    return DLP_OK;
}

/* SequenceAt on a SequenceConstruct whose elements share a shape. */
static dlp_status shape_sequence_at(dlp__ictx *c) {
    dlp__value *sq = dlp__in(c, 0);
    const dlp__node *p = producer_of(c, sq);
    if (!p || strcmp(p->op_type, "SequenceConstruct") || p->n_in < 1 || p->in[0] < 0) return shape_seq_unknown(c);
    const dlp__value *e0 = &c->g->values[p->in[0]];
    for (int j = 1; j < p->n_in; j++) {
        const dlp__value *e = p->in[j] >= 0 ? &c->g->values[p->in[j]] : NULL;
        if (!e || e->rank != e0->rank || (e0->rank > 0 && memcmp(e->dims, e0->dims, sizeof(int64_t) * (size_t)e0->rank)))
            return shape_seq_unknown(c);
    }
    return dlp__set_out(c, 0, e0->dtype, e0->rank, e0->dims);
}

static dlp_status shape_sequence_length(dlp__ictx *c) {
    dlp_status st = dlp__set_out(c, 0, DLP_DT_INT64, 0, NULL);
    const dlp__node *p = producer_of(c, dlp__in(c, 0));
    if (st || !p) return st;
    int64_t n = -1;
    if (!strcmp(p->op_type, "SequenceConstruct")) n = p->n_in;
    else if (!strcmp(p->op_type, "SequenceEmpty")) n = 0;
    return n >= 0 ? dlp__set_out_ival(c, 0, 1, &n) : DLP_OK;
}

static dlp_status shape_optional_has(dlp__ictx *c) { return dlp__set_out(c, 0, DLP_DT_BOOL, 0, NULL); }

static dlp_status shape_optional_get(dlp__ictx *c) {
    const dlp__node *p = producer_of(c, dlp__in(c, 0));
    if (p && !strcmp(p->op_type, "Optional") && p->n_in == 1 && p->in[0] >= 0) {
        const dlp__value *e = &c->g->values[p->in[0]];
        return dlp__set_out(c, 0, e->dtype, e->rank, e->dims);
    }
    dlp__value *x = dlp__in(c, 0);
    /* a plain tensor passed where an optional is accepted */
    if (x && x->rank >= 0 && !p) return dlp__set_out(c, 0, x->dtype, x->rank, x->dims);
    return shape_seq_unknown(c);
}

/* ---- group 4: control flow -------------------------------------------- */

/* Bind from value x (NULL: unknown) with dims skip and skip2 removed
 * (-1: none). */
static dlp_status bind_from(const dlp__ictx *c, int vid, const dlp__value *x, int skip, int skip2) {
    if (!x || x->rank < 0 || x->rank > MAXD) return dlp__bind_value(c, vid, x ? x->dtype : 0, -1, NULL);
    int64_t d[MAXD];
    int r = 0;
    for (int k = 0; k < x->rank; k++)
        if (k != skip && k != skip2) d[r++] = x->dims[k];
    return dlp__bind_value(c, vid, x->dtype, r, d);
}

static int scan_axis(const dlp__ictx *c, const char *attr, int j, int rank) {
    const int64_t *a;
    int n = dlp__attr_ints(c, attr, &a);
    int64_t ax = n > j ? a[j] : 0;
    if (rank < 0) return ax >= 0 ? (int)(ax < MAXD ? ax : MAXD) : -1;
    return dlp__axis(c, ax, rank, attr);
}

/* The bind rules of the table (dlp__bind_fn).  Only the standard ops bind
 * their bodies from their inputs; a com.microsoft node that falls back on
 * the standard row keeps the declared types. */
static dlp_status bind_loop(dlp__ictx *c, int scope) {
    if (scope <= 0 || scope >= c->g->n_scopes) return DLP_OK;
    if (c->node->domain[0]) return dlp__bind_declared(c, scope);
    const dlp__scope *S = &c->g->scopes[scope];
    dlp_status st = DLP_OK;
    /* body(iteration_num, cond, v_initial...) */
    for (int k = 0; k < S->n_inputs && !st; k++) {
        if (k == 0) st = dlp__bind_value(c, S->inputs[k], DLP_DT_INT64, 0, NULL);
        else if (k == 1) st = dlp__bind_value(c, S->inputs[k], DLP_DT_BOOL, 0, NULL);
        else st = bind_from(c, S->inputs[k], dlp__in(c, k), -1, -1);
    }
    return st;
}

static dlp_status bind_scan(dlp__ictx *c, int scope) {
    if (scope <= 0 || scope >= c->g->n_scopes) return DLP_OK;
    if (c->node->domain[0]) return dlp__bind_declared(c, scope);
    const dlp__scope *S = &c->g->scopes[scope];
    dlp_status st = DLP_OK;
    /* body(states..., one slice of each scan input...) */
    int64_t m = dlp__attr_i(c, "num_scan_inputs", 0);
    int old = dlp__opset(c) < 9, first = old ? 1 : 0;
    int64_t n = dlp__n_in(c) - first - m; /* states */
    for (int k = 0; k < S->n_inputs && !st; k++) {
        dlp__value *x = dlp__in(c, first + k);
        if (m < 1 || n < 0) st = dlp__bind_value(c, S->inputs[k], 0, -1, NULL);
        else if (k < n) st = bind_from(c, S->inputs[k], x, old ? 0 : -1, -1);
        else if (old) st = bind_from(c, S->inputs[k], x, 0, 1);
        else {
            int a = scan_axis(c, "scan_input_axes", k - (int)n, x ? x->rank : -1);
            if (a < 0 && x && x->rank >= 0) return DLP_ESHAPE;
            st = bind_from(c, S->inputs[k], x, a, -1);
        }
    }
    return st;
}

/* Scope of a GRAPH attribute, -1 when absent. */
static int sub_of(const dlp__ictx *c, const char *name) {
    const dlp__attr *a = dlp__attr_get(c->node, name);
    return a && a->type == DLP_AT_GRAPH && a->sub > 0 && a->sub < c->g->n_scopes ? a->sub : -1;
}

static const dlp__value *scope_out(const dlp__ictx *c, int scope, int i) {
    const dlp__scope *S = &c->g->scopes[scope];
    if (i < 0 || i >= S->n_outputs || S->outputs[i] < 0 || S->outputs[i] >= c->g->n_values) return NULL;
    return &c->g->values[S->outputs[i]];
}

/* Output i from two candidate types: equal dims kept, differing dims -1.
 * lenient: when one side has unknown rank, the other one is used. */
static dlp_status set_merged(const dlp__ictx *c, int i, const dlp__value *a, const dlp__value *b, int lenient) {
    int dt = a && a->dtype ? a->dtype : b ? b->dtype : 0;
    int ka = a && a->rank >= 0, kb = b && b->rank >= 0;
    if (lenient && ka != kb) {
        const dlp__value *x = ka ? a : b;
        return dlp__set_out(c, i, dt, x->rank, x->dims);
    }
    if (!ka || !kb || a->rank != b->rank || a->rank > MAXD) {
        dlp__set_out_dtype(c, i, dt);
        return DLP_OK;
    }
    int64_t d[MAXD];
    for (int k = 0; k < a->rank; k++) d[k] = a->dims[k] == b->dims[k] ? a->dims[k] : -1;
    dlp_status st = dlp__set_out(c, i, dt, a->rank, d);
    if (!st && dlp__has_ival(a) && dlp__has_ival(b) && a->nval == b->nval &&
        !memcmp(a->ival, b->ival, sizeof(int64_t) * (size_t)a->nval))
        st = put_ival(c, i, a->nval, a->ival);
    return st;
}

/* Copy a value's type, shape and values to output i. */
static dlp_status set_from(const dlp__ictx *c, int i, const dlp__value *x) {
    if (!x) return DLP_OK;
    dlp_status st = dlp__set_out(c, i, x->dtype, x->rank, x->dims);
    if (!st) st = copy_vals(c, i, x);
    return st;
}

static dlp_status shape_if(dlp__ictx *c) {
    dlp__value *cond = dlp__in(c, 0);
    int ts = sub_of(c, "then_branch"), es = sub_of(c, "else_branch"), no = dlp__n_out(c);
    if (ts < 0 || es < 0) return dlp__fail(c, "missing then_branch or else_branch");
    if (c->g->scopes[ts].n_outputs != no || c->g->scopes[es].n_outputs != no)
        return dlp__fail(c, "branches have %d and %d outputs, the node %d", c->g->scopes[ts].n_outputs,
                         c->g->scopes[es].n_outputs, no);
    double cv;
    int known = get_scalar(cond, &cv);
    for (int i = 0; i < no; i++) {
        dlp_status st;
        if (known) st = set_from(c, i, scope_out(c, cv != 0 ? ts : es, i));
        else st = set_merged(c, i, scope_out(c, ts, i), scope_out(c, es, i), 0);
        if (st) return st;
    }
    return DLP_OK;
}

/* Output i = [n] + body value shape (n = -1 unknown); axis: where n goes. */
static dlp_status set_stacked(const dlp__ictx *c, int i, const dlp__value *b, int64_t n, int64_t axis) {
    if (!b || b->rank < 0 || b->rank >= MAXD) {
        dlp__set_out_dtype(c, i, b ? b->dtype : 0);
        return DLP_OK;
    }
    int r = b->rank + 1;
    int a = dlp__axis(c, axis, r, "scan_output_axes");
    if (a < 0) return DLP_ESHAPE;
    int64_t d[MAXD], nb = dlp__numel(b), t;
    if (n >= 0 && nb >= 0 && !dlp__mul_ok(n, nb, &t)) n = -1;
    for (int k = 0, j = 0; k < r; k++) d[k] = k == a ? n : b->dims[j++];
    return dlp__set_out(c, i, b->dtype, r, d);
}

static dlp_status shape_loop(dlp__ictx *c) {
    int bs = sub_of(c, "body"), no = dlp__n_out(c), n = dlp__n_in(c) - 2;
    dlp_status st;
    if (bs < 0) return dlp__fail(c, "missing body");
    if (n < 0 || n > no) return dlp__fail(c, "%d inputs for %d outputs", dlp__n_in(c), no);
    if ((st = bind_loop(c, bs))) return st;
    const dlp__scope *S = &c->g->scopes[bs];
    if (S->n_outputs != 1 + no) return dlp__fail(c, "body has %d outputs, expected %d", S->n_outputs, 1 + no);
    /* trip count: exact when M is known and the loop cannot stop early */
    dlp__value *m = dlp__in(c, 0), *cond = dlp__in(c, 1);
    const dlp__value *bc = scope_out(c, bs, 0);
    double mv, cv, bv;
    int64_t trips = -1;
    int m_known = get_scalar(m, &mv), c_known = get_scalar(cond, &cv);
    int body_true = bc && get_scalar(bc, &bv) && bv != 0;
    if (bc && !body_true && S->n_inputs > 1) {
        /* the body passes its cond input through (directly or by Identity) */
        const dlp__node *p = producer_of(c, bc);
        body_true = S->outputs[0] == S->inputs[1] ||
                    (p && !strcmp(p->op_type, "Identity") && p->n_in == 1 && p->in[0] == S->inputs[1]);
    }
    if (c_known && cv == 0) trips = 0;
    else if (m_known && mv <= 0) trips = 0;
    else if (m_known && mv < 9.2e18 && (!cond || (c_known && body_true))) trips = (int64_t)mv;
    for (int i = 0; i < n; i++) {
        const dlp__value *x = dlp__in(c, 2 + i), *b = scope_out(c, bs, 1 + i);
        st = trips == 0 ? set_from(c, i, x) : set_merged(c, i, x, b, 1);
        if (st) return st;
    }
    for (int k = n; k < no; k++)
        if ((st = set_stacked(c, k, scope_out(c, bs, 1 + k), trips, 0))) return st;
    return DLP_OK;
}

static dlp_status shape_scan(dlp__ictx *c) {
    int bs = sub_of(c, "body"), no = dlp__n_out(c);
    dlp_status st;
    if (bs < 0) return dlp__fail(c, "missing body");
    int64_t m = dlp__attr_i(c, "num_scan_inputs", 0);
    int old = dlp__opset(c) < 9, first = old ? 1 : 0;
    int64_t n = dlp__n_in(c) - first - m;
    if (m < 1 || n < 0 || n > no) return dlp__fail(c, "num_scan_inputs %lld for %d inputs", (long long)m, dlp__n_in(c));
    if ((st = bind_scan(c, bs))) return st;
    const dlp__scope *S = &c->g->scopes[bs];
    if (S->n_outputs != no) return dlp__fail(c, "body has %d outputs, expected %d", S->n_outputs, no);
    /* sequence length (and batch for opset 8) */
    int64_t len = -1, batch = -1;
    for (int j = 0; j < m; j++) {
        dlp__value *x = dlp__in(c, first + (int)n + j);
        if (!x || x->rank < 0) continue;
        int a = old ? 1 : scan_axis(c, "scan_input_axes", j, x->rank);
        if (a < 0) return DLP_ESHAPE;
        if (a >= x->rank) return dlp__fail(c, "scan input '%s' has rank %d", x->name, x->rank);
        int64_t l = x->dims[a];
        if (len >= 0 && l >= 0 && l != len)
            return dlp__fail(c, "scan input '%s' has length %lld, expected %lld", x->name, (long long)l, (long long)len);
        if (l >= 0) len = l;
        if (old && x->dims[0] >= 0) batch = x->dims[0];
    }
    for (int i = 0; i < n; i++) {
        const dlp__value *x = dlp__in(c, first + i);
        if (old) st = set_from(c, i, x);
        else st = set_merged(c, i, x, scope_out(c, bs, i), 1);
        if (st) return st;
    }
    for (int k = (int)n; k < no; k++) {
        const dlp__value *b = scope_out(c, bs, k);
        if (old) {
            if (!b || b->rank < 0 || b->rank + 2 > MAXD) {
                dlp__set_out_dtype(c, k, b ? b->dtype : 0);
                continue;
            }
            int64_t d[MAXD];
            d[0] = batch;
            d[1] = len;
            copy_dims(d + 2, b->dims, b->rank);
            st = dlp__set_out(c, k, b->dtype, b->rank + 2, d);
        } else {
            const int64_t *ax;
            int na = dlp__attr_ints(c, "scan_output_axes", &ax);
            st = set_stacked(c, k, b, len, na > k - n ? ax[k - n] : 0);
        }
        if (st) return st;
    }
    return DLP_OK;
}

/* ---- the table ----------------------------------------------------------- */

#define ROW(name, cls, fn) {name, "", cls, fn, dlp__cost_none, 0, NULL}
/* ops with subgraphs: bind binds the body's formal inputs (dlp__bind_fn) */
#define ROWB(name, cls, fn, bind) {name, "", cls, fn, dlp__cost_none, 0, bind}

const dlp__op_def dlp__ops_tensor[] = {
    /* group 1: shapes and constants */
    ROW("Shape", DLP_OPC_SHAPE, shape_shape),
    ROW("Size", DLP_OPC_SHAPE, shape_size),
    ROW("Constant", DLP_OPC_SHAPE, shape_constant),
    ROW("ConstantOfShape", DLP_OPC_SHAPE, shape_constant_of_shape),
    ROW("Range", DLP_OPC_SHAPE, shape_range),
    /* group 2: reshapes and data movement */
    ROW("Reshape", DLP_OPC_DATA, shape_reshape),
    ROW("Flatten", DLP_OPC_DATA, shape_flatten),
    ROW("Squeeze", DLP_OPC_DATA, shape_squeeze),
    ROW("Unsqueeze", DLP_OPC_DATA, shape_unsqueeze),
    ROW("Transpose", DLP_OPC_DATA, shape_transpose),
    ROW("Concat", DLP_OPC_DATA, shape_concat),
    ROW("Split", DLP_OPC_DATA, shape_split),
    ROW("Slice", DLP_OPC_DATA, shape_slice),
    ROW("Gather", DLP_OPC_DATA, shape_gather),
    ROW("GatherElements", DLP_OPC_DATA, shape_gather_elements),
    ROW("GatherND", DLP_OPC_DATA, shape_gather_nd),
    ROW("ScatterND", DLP_OPC_DATA, shape_scatter),
    ROW("ScatterElements", DLP_OPC_DATA, shape_scatter),
    ROW("Scatter", DLP_OPC_DATA, shape_scatter),
    ROW("Expand", DLP_OPC_DATA, shape_expand),
    ROW("Tile", DLP_OPC_DATA, shape_tile),
    ROW("Pad", DLP_OPC_DATA, shape_pad),
    /* group 3: odd and data-dependent shapes */
    ROW("OneHot", DLP_OPC_OTHER, shape_onehot),
    ROW("Trilu", DLP_OPC_OTHER, shape_same),
    ROW("DepthToSpace", DLP_OPC_DATA, shape_depth_space),
    ROW("SpaceToDepth", DLP_OPC_DATA, shape_depth_space),
    ROW("EyeLike", DLP_OPC_OTHER, shape_eyelike),
    ROW("RandomNormal", DLP_OPC_OTHER, shape_random),
    ROW("RandomUniform", DLP_OPC_OTHER, shape_random),
    ROW("RandomNormalLike", DLP_OPC_OTHER, shape_like),
    ROW("RandomUniformLike", DLP_OPC_OTHER, shape_like),
    ROW("Bernoulli", DLP_OPC_OTHER, shape_like),
    ROW("Multinomial", DLP_OPC_OTHER, shape_multinomial),
    ROW("NonZero", DLP_OPC_OTHER, shape_nonzero),
    ROW("NonMaxSuppression", DLP_OPC_OTHER, shape_nms),
    ROW("Unique", DLP_OPC_OTHER, shape_unique),
    ROW("Compress", DLP_OPC_OTHER, shape_compress),
    ROW("ReverseSequence", DLP_OPC_OTHER, shape_same),
    ROW("GridSample", DLP_OPC_OTHER, shape_grid_sample),
    ROW("Det", DLP_OPC_OTHER, shape_det),
    ROW("CenterCropPad", DLP_OPC_OTHER, shape_center_crop_pad),
    ROW("TfIdfVectorizer", DLP_OPC_OTHER, shape_tfidf),
    ROW("SequenceConstruct", DLP_OPC_OTHER, shape_seq_unknown),
    ROW("SequenceEmpty", DLP_OPC_OTHER, shape_seq_unknown),
    ROW("SequenceInsert", DLP_OPC_OTHER, shape_seq_unknown),
    ROW("SequenceErase", DLP_OPC_OTHER, shape_seq_unknown),
    ROW("SequenceMap", DLP_OPC_OTHER, shape_seq_unknown),
    ROW("SplitToSequence", DLP_OPC_OTHER, shape_seq_unknown),
    ROW("ConcatFromSequence", DLP_OPC_OTHER, shape_seq_unknown),
    ROW("SequenceAt", DLP_OPC_OTHER, shape_sequence_at),
    ROW("SequenceLength", DLP_OPC_OTHER, shape_sequence_length),
    ROW("Optional", DLP_OPC_OTHER, shape_seq_unknown),
    ROW("OptionalHasElement", DLP_OPC_OTHER, shape_optional_has),
    ROW("OptionalGetElement", DLP_OPC_OTHER, shape_optional_get),
    /* group 4: control flow (bodies are costed by their own nodes) */
    ROWB("If", DLP_OPC_CONTROL, shape_if, dlp__bind_declared), /* branches take no inputs */
    ROWB("Loop", DLP_OPC_CONTROL, shape_loop, bind_loop),
    ROWB("Scan", DLP_OPC_CONTROL, shape_scan, bind_scan),
    {NULL, NULL, 0, NULL, NULL, 0, NULL}};
