/*
 * ops_ew.c — elementwise ops: unary, binary and variadic with numpy
 * broadcasting, Where, Cast/CastLike, Identity, Dropout, Clip.
 *
 * Besides shapes, these rules propagate small known values (integer shape
 * arithmetic such as Shape -> Gather -> Mul -> Concat -> Reshape, and float
 * scale arithmetic before Resize) so later shape rules see exact numbers.
 * Costs: FLOPs = output elements x the row's flops_per_elem (docs/costs.md).
 */
#include <math.h>
#include <string.h>

#include "graph/ops.h"

static int is_int_dtype(int dt) {
    return dt == DLP_DT_INT64 || dt == DLP_DT_INT32 || dt == DLP_DT_INT16 || dt == DLP_DT_INT8 ||
           dt == DLP_DT_UINT8 || dt == DLP_DT_UINT16 || dt == DLP_DT_UINT32 ||
           dt == DLP_DT_UINT64 || dt == DLP_DT_BOOL;
}

/* Known value of element k (double), from ival or fval. */
static int val_at(const dlp__value *v, int64_t k, double *out) {
    if (v->ival && k < v->nval) {
        *out = (double)v->ival[k];
        return 1;
    }
    if (v->fval && k < v->nval) {
        *out = v->fval[k];
        return 1;
    }
    return 0;
}

static int has_val(const dlp__value *v) { return v && (v->ival || v->fval) && v->nval >= 0; }

/* Offset in input x of output element `lin` (output has rank r, dims od),
 * with numpy broadcasting. */
static int64_t bcast_offset(const dlp__value *x, int r, const int64_t *od, int64_t lin) {
    int64_t off = 0, stride = 1;
    for (int k = r - 1; k >= 0; k--) {
        int64_t coord = lin % od[k];
        lin /= od[k];
        int ix = k - (r - x->rank);
        if (ix < 0) continue;
        int64_t d = x->dims[ix];
        off += (d == 1 ? 0 : coord) * stride;
        stride *= d;
    }
    return off;
}

typedef double (*ew_fn)(const double *a, int n, int op);

enum { E_ADD, E_SUB, E_MUL, E_DIV, E_MOD, E_POW, E_MAX, E_MIN, E_EQ, E_LT, E_GT, E_LE, E_GE,
       E_AND, E_OR, E_XOR, E_NEG, E_ABS, E_NOT, E_FLOOR, E_CEIL, E_SQRT, E_ROUND, E_SIGN,
       E_RECIP, E_EXP, E_LOG, E_RELU, E_WHERE, E_SUM, E_MEAN, E_NONE };

static double apply(int op, const double *a, int n, int int_mode) {
    double x = a[0], y = n > 1 ? a[1] : 0;
    switch (op) {
    case E_ADD: return x + y;
    case E_SUB: return x - y;
    case E_MUL: return x * y;
    case E_DIV:
        if (int_mode) return y == 0 ? 0 : trunc(x / y);
        return x / y;
    case E_MOD:
        if (y == 0) return 0;
        return int_mode ? x - y * floor(x / y) : fmod(x, y);
    case E_POW: return pow(x, y);
    case E_MAX: { double m = x; for (int i = 1; i < n; i++) if (a[i] > m) m = a[i]; return m; }
    case E_MIN: { double m = x; for (int i = 1; i < n; i++) if (a[i] < m) m = a[i]; return m; }
    case E_SUM: { double s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
    case E_MEAN: { double s = 0; for (int i = 0; i < n; i++) s += a[i]; return s / n; }
    case E_EQ: return x == y;
    case E_LT: return x < y;
    case E_GT: return x > y;
    case E_LE: return x <= y;
    case E_GE: return x >= y;
    case E_AND: return (x != 0) && (y != 0);
    case E_OR: return (x != 0) || (y != 0);
    case E_XOR: return (x != 0) != (y != 0);
    case E_NEG: return -x;
    case E_ABS: return fabs(x);
    case E_NOT: return x == 0;
    case E_FLOOR: return floor(x);
    case E_CEIL: return ceil(x);
    case E_SQRT: return sqrt(x);
    case E_ROUND: return nearbyint(x);
    case E_SIGN: return (x > 0) - (x < 0);
    case E_RECIP: return 1.0 / x;
    case E_EXP: return exp(x);
    case E_LOG: return log(x);
    case E_RELU: return x > 0 ? x : 0;
    case E_WHERE: return x != 0 ? a[1] : a[2];
    }
    return 0;
}

/* Which value-propagation op a node computes (E_NONE: shapes only). */
static int ew_kind(const char *op) {
    static const struct { const char *n; int k; } m[] = {
        {"Add", E_ADD}, {"Sub", E_SUB}, {"Mul", E_MUL}, {"Div", E_DIV}, {"Mod", E_MOD},
        {"Pow", E_POW}, {"Max", E_MAX}, {"Min", E_MIN}, {"Sum", E_SUM}, {"Mean", E_MEAN},
        {"Equal", E_EQ}, {"Less", E_LT}, {"Greater", E_GT}, {"LessOrEqual", E_LE},
        {"GreaterOrEqual", E_GE}, {"And", E_AND}, {"Or", E_OR}, {"Xor", E_XOR},
        {"Neg", E_NEG}, {"Abs", E_ABS}, {"Not", E_NOT}, {"Floor", E_FLOOR}, {"Ceil", E_CEIL},
        {"Sqrt", E_SQRT}, {"Round", E_ROUND}, {"Sign", E_SIGN}, {"Reciprocal", E_RECIP},
        {"Exp", E_EXP}, {"Log", E_LOG}, {"Relu", E_RELU}, {"Where", E_WHERE}};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (m[i].n[0] == op[0] && !strcmp(m[i].n, op)) return m[i].k;
    return E_NONE;
}

static int out_is_bool(int k) {
    return k == E_EQ || k == E_LT || k == E_GT || k == E_LE || k == E_GE || k == E_AND ||
           k == E_OR || k == E_XOR || k == E_NOT;
}

/* Compute output values of an elementwise node whose inputs all have known
 * values; out_dims/r describe the (broadcast) output. */
static dlp_status propagate(dlp__ictx *c, int kind, int first, int n_args, int r,
                            const int64_t *od, int out_dtype) {
    if (kind == E_NONE) return DLP_OK;
    dlp__value *args[8];
    if (n_args > 8) return DLP_OK;
    for (int j = 0; j < n_args; j++) {
        args[j] = dlp__in(c, first + j);
        if (!has_val(args[j]) || !dlp__shape_known(args[j])) return DLP_OK;
    }
    int64_t n = 1;
    for (int k = 0; k < r; k++) n *= od[k];
    if (n > DLP_MAX_VALUE_NUMEL) return DLP_OK;
    int int_mode = is_int_dtype(out_dtype) && !out_is_bool(kind);
    if (kind == E_WHERE) int_mode = is_int_dtype(out_dtype);
    /* compare in the inputs' domain */
    if (out_is_bool(kind)) int_mode = is_int_dtype(args[0]->dtype);
    int64_t iv[DLP_MAX_VALUE_NUMEL];
    double fv[DLP_MAX_VALUE_NUMEL];
    for (int64_t i = 0; i < n; i++) {
        double a[8] = {0};
        for (int j = 0; j < n_args; j++)
            if (!val_at(args[j], bcast_offset(args[j], r, od, i), &a[j])) return DLP_OK;
        if (int_mode && (kind == E_DIV || kind == E_MOD) && a[1] == 0)
            return dlp__fail(c, "integer %s by zero in shape arithmetic", kind == E_DIV ? "division" : "modulo");
        double y = apply(kind, a, n_args, int_mode);
        if (is_int_dtype(out_dtype)) {
            if (!(y > -9.2e18 && y < 9.2e18)) return DLP_OK; /* not representable */
            iv[i] = (int64_t)y;
        } else {
            fv[i] = y;
        }
    }
    return is_int_dtype(out_dtype) ? dlp__set_out_ival(c, 0, n, iv) : dlp__set_out_fval(c, 0, n, fv);
}

/* Exact int64 arithmetic for the common shape ops (double loses precision
 * above 2^53, e.g. INT64_MAX used as "to the end" in Slice). */
static dlp_status propagate_int_exact(dlp__ictx *c, int kind, int r, const int64_t *od) {
    dlp__value *a = dlp__in(c, 0), *b = dlp__in(c, 1);
    if (!dlp__has_ival(a) || !dlp__has_ival(b) || !dlp__shape_known(a) || !dlp__shape_known(b))
        return DLP_OK;
    int64_t n = 1;
    for (int k = 0; k < r; k++) n *= od[k];
    if (n > DLP_MAX_VALUE_NUMEL) return DLP_OK;
    int64_t out[DLP_MAX_VALUE_NUMEL];
    for (int64_t i = 0; i < n; i++) {
        int64_t x = a->ival[bcast_offset(a, r, od, i)], y = b->ival[bcast_offset(b, r, od, i)], z;
        switch (kind) {
        case E_ADD: if (__builtin_add_overflow(x, y, &z)) return DLP_OK; break;
        case E_SUB: if (__builtin_sub_overflow(x, y, &z)) return DLP_OK; break;
        case E_MUL: if (__builtin_mul_overflow(x, y, &z)) return DLP_OK; break;
        case E_DIV:
            /* both are undefined behaviour in every runtime: refuse, never guess */
            if (y == 0) return dlp__fail(c, "integer division by zero (%lld / 0) in shape arithmetic", (long long)x);
            if (x == INT64_MIN && y == -1)
                return dlp__fail(c, "integer overflow: INT64_MIN / -1 in shape arithmetic");
            z = x / y;
            break;
        case E_MAX: z = x > y ? x : y; break;
        case E_MIN: z = x < y ? x : y; break;
        default: return DLP_OK;
        }
        out[i] = z;
    }
    return dlp__set_out_ival(c, 0, n, out);
}

/* Shape of a broadcast over inputs [first, first+n). */
static dlp_status bcast_all(dlp__ictx *c, int first, int n, int64_t *od, int *rank) {
    dlp__value *acc = dlp__in(c, first);
    *rank = -1;
    if (!dlp__rank_known(acc)) return DLP_OK;
    dlp__value tmp = *acc;
    int64_t buf[DLP_MAX_RANK * 4];
    if (acc->rank > 0) memcpy(od, acc->dims, sizeof(int64_t) * (size_t)acc->rank);
    tmp.dims = od;
    for (int j = first + 1; j < first + n; j++) {
        dlp__value *b = dlp__in(c, j);
        if (!b) continue;
        if (!dlp__rank_known(b)) return DLP_OK;
        dlp_status st;
        int r = dlp__broadcast(c, &tmp, b, buf, &st);
        if (st) return st;
        memcpy(od, buf, sizeof(int64_t) * (size_t)r);
        tmp.rank = r;
    }
    *rank = tmp.rank;
    return DLP_OK;
}

static dlp_status shape_ew(dlp__ictx *c) {
    int kind = ew_kind(c->node->op_type);
    int n = dlp__n_in(c);
    int first = 0;
    dlp__value *x0 = dlp__in(c, 0);
    if (!x0) return dlp__fail(c, "missing input 0");
    int out_dtype = out_is_bool(kind) || !strcmp(c->node->op_type, "IsNaN") ||
                    !strcmp(c->node->op_type, "IsInf") ? DLP_DT_BOOL : x0->dtype;
    if (kind == E_WHERE) {
        dlp__value *x1 = dlp__in(c, 1);
        out_dtype = x1 ? x1->dtype : 0;
    }
    /* Clip (opset 11+) and PRelu-style ops: inputs after the first are
     * parameters; their shapes do not widen the output. */
    if (!strcmp(c->node->op_type, "Clip")) n = 1;
    /* PRelu before opset 7: slope (C) is per channel (axis 1), not numpy
     * broadcast; Y is X's shape */
    if (dlp__opset(c) < 7 && !strcmp(c->node->op_type, "PRelu")) n = 1;
    int64_t od[DLP_MAX_RANK * 4];
    int r;
    dlp_status st = bcast_all(c, first, n, od, &r);
    if (st) return st;
    if (r < 0) {
        dlp__set_out_dtype(c, 0, out_dtype);
        return DLP_OK;
    }
    if ((st = dlp__set_out(c, 0, out_dtype, r, od))) return st;
    if (is_int_dtype(out_dtype) && n == 2 &&
        (kind == E_ADD || kind == E_SUB || kind == E_MUL || kind == E_DIV || kind == E_MAX || kind == E_MIN)) {
        st = propagate_int_exact(c, kind, r, od);
        if (st || dlp__has_ival(dlp__out(c, 0))) return st;
    }
    return propagate(c, kind, first, n, r, od, out_dtype);
}

static dlp_status shape_identity(dlp__ictx *c) {
    dlp_status st = dlp__pass_through(c, 0, 0);
    /* Dropout's optional mask output */
    if (!st && dlp__out(c, 1)) {
        dlp__value *x = dlp__in(c, 0);
        st = dlp__set_out(c, 1, DLP_DT_BOOL, x ? x->rank : -1, x ? x->dims : NULL);
    }
    return st;
}

static dlp_status shape_cast(dlp__ictx *c) {
    dlp__value *x = dlp__in(c, 0);
    int to;
    if (!strcmp(c->node->op_type, "CastLike")) {
        dlp__value *t = dlp__in(c, 1);
        to = t ? t->dtype : 0;
    } else {
        to = (int)dlp__attr_i(c, "to", 0);
    }
    if (!x) return dlp__fail(c, "missing input 0");
    if (to < 0 || to >= DLP_DT_COUNT_) return dlp__fail(c, "cast to unknown dtype %d", to);
    dlp_status st = dlp__set_out(c, 0, to, x->rank, x->dims);
    if (st || !has_val(x) || !dlp__shape_known(x)) return st;
    int64_t n = x->nval;
    if (n > DLP_MAX_VALUE_NUMEL) return DLP_OK;
    if (is_int_dtype(to)) {
        int64_t iv[DLP_MAX_VALUE_NUMEL];
        for (int64_t i = 0; i < n; i++) {
            if (x->ival) iv[i] = x->ival[i];
            else {
                double d = x->fval[i];
                if (!(d > -9.2e18 && d < 9.2e18)) return DLP_OK;
                iv[i] = (int64_t)d; /* truncation toward zero, as C and numpy */
            }
            if (to == DLP_DT_BOOL) iv[i] = iv[i] != 0;
        }
        return dlp__set_out_ival(c, 0, n, iv);
    }
    double fv[DLP_MAX_VALUE_NUMEL];
    for (int64_t i = 0; i < n; i++) fv[i] = x->ival ? (double)x->ival[i] : x->fval[i];
    return dlp__set_out_fval(c, 0, n, fv);
}

#define EW(name, f) {name, "", DLP_OPC_ELEMENTWISE, shape_ew, dlp__cost_elementwise, f, NULL}
#define ACT(name, f) {name, "", DLP_OPC_ACTIVATION, shape_ew, dlp__cost_elementwise, f, NULL}
#define DATA(name, fn) {name, "", DLP_OPC_DATA, fn, dlp__cost_none, 0, NULL}

const dlp__op_def dlp__ops_ew[] = {
    /* binary / variadic arithmetic: 1 FLOP per output element */
    EW("Add", 1), EW("Sub", 1), EW("Mul", 1), EW("Div", 1), EW("Mod", 1), EW("Pow", 1),
    EW("Max", 1), EW("Min", 1), EW("Sum", 1), EW("Mean", 1),
    EW("Equal", 1), EW("Less", 1), EW("Greater", 1), EW("LessOrEqual", 1),
    EW("GreaterOrEqual", 1), EW("And", 1), EW("Or", 1), EW("Xor", 1), EW("Not", 1),
    EW("BitShift", 1), EW("BitwiseAnd", 1), EW("BitwiseOr", 1), EW("BitwiseXor", 1),
    EW("BitwiseNot", 1), EW("Where", 1),
    /* unary math: transcendental functions count 1 */
    EW("Neg", 1), EW("Abs", 1), EW("Floor", 1), EW("Ceil", 1), EW("Round", 1), EW("Sign", 1),
    EW("Sqrt", 1), EW("Reciprocal", 1), EW("Exp", 1), EW("Log", 1), EW("Erf", 1),
    EW("Sin", 1), EW("Cos", 1), EW("Tan", 1), EW("Asin", 1), EW("Acos", 1), EW("Atan", 1),
    EW("Sinh", 1), EW("Cosh", 1), EW("Asinh", 1), EW("Acosh", 1), EW("Atanh", 1),
    EW("IsNaN", 1), EW("IsInf", 1),
    /* activations: primitive operations per element */
    ACT("Relu", 1), ACT("LeakyRelu", 2), ACT("PRelu", 2), ACT("ThresholdedRelu", 1),
    ACT("Clip", 2), ACT("Sigmoid", 3), ACT("HardSigmoid", 3), ACT("HardSwish", 4),
    ACT("Tanh", 5), ACT("Elu", 3), ACT("Selu", 4), ACT("Celu", 4), ACT("Softplus", 3),
    ACT("Softsign", 3), ACT("Mish", 6), ACT("Gelu", 8), ACT("Shrink", 2),
    /* com.microsoft contrib activations on the same rule */
    {"FastGelu", "com.microsoft", DLP_OPC_ACTIVATION, shape_ew, dlp__cost_elementwise, 8, NULL},
    {"BiasGelu", "com.microsoft", DLP_OPC_ACTIVATION, shape_ew, dlp__cost_elementwise, 9, NULL},
    {"QuickGelu", "com.microsoft", DLP_OPC_ACTIVATION, shape_ew, dlp__cost_elementwise, 4, NULL},
    {"BiasAdd", "com.microsoft", DLP_OPC_ELEMENTWISE, shape_ew, dlp__cost_elementwise, 2, NULL},
    DATA("Identity", shape_identity), DATA("Dropout", shape_identity),
    DATA("Cast", shape_cast), DATA("CastLike", shape_cast),
    {NULL, NULL, 0, NULL, NULL, 0, NULL}};
