/*
 * ir.c — the lowest file of the graph layer: what a value is (dtypes, shape
 * queries, bytes), attribute reads, and the helpers shape and cost rules are
 * written against (dlp__set_out, dlp__broadcast, subgraph input binding,
 * the generic cost rules).
 *
 * It calls nothing else in src/graph, so the layer runs one way:
 * graph.c (building, shape inference, costs, totals) -> ops.c (the registry)
 * -> ops_*.c (the rules) -> ir.c.  A helper a rule needs belongs here, not in
 * graph.c, or the rules and the driver would call each other.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "graph/ops.h"

/* ---- helpers for rules ------------------------------------------------- */

/* Attribute names are short: compared inline, not through libc's strcmp. */
static inline int streq_short(const char *a, const char *b) {
    while (*a && *a == *b) a++, b++;
    return *a == *b;
}

const dlp__attr *dlp__attr_get(const dlp__node *n, const char *name) {
    for (int i = 0; i < n->n_attr; i++)
        if (n->attr[i].name[0] == name[0] && streq_short(n->attr[i].name, name)) return &n->attr[i];
    return NULL;
}

int64_t dlp__attr_i(const dlp__ictx *c, const char *name, int64_t def) {
    const dlp__attr *a = dlp__attr_get(c->node, name);
    if (!a) return def;
    if (a->type == DLP_AT_INT) return a->i;
    if (a->type == DLP_AT_FLOAT) return (int64_t)a->f;
    return def;
}

double dlp__attr_f(const dlp__ictx *c, const char *name, double def) {
    const dlp__attr *a = dlp__attr_get(c->node, name);
    if (!a) return def;
    if (a->type == DLP_AT_FLOAT) return a->f;
    if (a->type == DLP_AT_INT) return (double)a->i;
    return def;
}

const char *dlp__attr_s(const dlp__ictx *c, const char *name, const char *def) {
    const dlp__attr *a = dlp__attr_get(c->node, name);
    return a && a->type == DLP_AT_STRING && a->s ? a->s : def;
}

int dlp__attr_ints(const dlp__ictx *c, const char *name, const int64_t **v) {
    const dlp__attr *a = dlp__attr_get(c->node, name);
    if (!a || a->type != DLP_AT_INTS) return -1;
    *v = a->ints;
    return a->n;
}

int dlp__attr_floats(const dlp__ictx *c, const char *name, const double **v) {
    const dlp__attr *a = dlp__attr_get(c->node, name);
    if (!a || a->type != DLP_AT_FLOATS) return -1;
    *v = a->floats;
    return a->n;
}

dlp_status dlp__fail(const dlp__ictx *c, const char *fmt, ...) {
    char buf[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return dlp__err(c->err, DLP_ESHAPE, "%s: node '%s' (%s): %s", c->g->name,
                    c->node->name[0] ? c->node->name : "(unnamed)", c->node->op_type, buf);
}

bool dlp__shape_known(const dlp__value *v) {
    if (!v || v->rank < 0) return false;
    for (int i = 0; i < v->rank; i++)
        if (v->dims[i] < 0) return false;
    return true;
}

int64_t dlp__numel(const dlp__value *v) {
    if (!dlp__shape_known(v)) return -1;
    int64_t n = 1;
    for (int i = 0; i < v->rank; i++)
        if (!dlp__mul_ok(n, v->dims[i], &n)) return -1;
    return n;
}

bool dlp__has_ival(const dlp__value *v) { return v && v->ival && v->nval >= 0; }

int64_t dlp__value_bytes(const dlp__value *v) {
    int64_t n = dlp__numel(v), r;
    int es = dlp_dtype_size(v->dtype);
    if (n < 0 || es <= 0) return -1;
    if (v->dtype == DLP_DT_INT4 || v->dtype == DLP_DT_UINT4 || v->dtype == DLP_DT_FLOAT4E2M1)
        return (n + 1) / 2;   /* two 4-bit elements per byte */
    return dlp__mul_ok(n, es, &r) ? r : -1;
}

dlp_status dlp__set_out(const dlp__ictx *c, int i, int dtype, int rank, const int64_t *dims) {
    dlp__value *v = dlp__out(c, i);
    if (!v) return DLP_OK;
    if (rank > DLP_MAX_RANK * 4) return dlp__fail(c, "output %d has rank %d", i, rank);
    if (dtype) v->dtype = dtype;
    v->ival = NULL;
    v->fval = NULL;
    v->nval = -1;
    if (rank < 0) {
        v->rank = -1;
        v->dims = NULL;
        return DLP_OK;
    }
    int64_t n = 1;
    for (int k = 0; k < rank; k++) {
        if (dims[k] < -1) return dlp__fail(c, "output '%s' dim %d is %lld", v->name, k, (long long)dims[k]);
        if (dims[k] >= 0 && n >= 0 && !dlp__mul_ok(n, dims[k], &n))
            return dlp__fail(c, "output '%s' has more than 2^63 elements", v->name);
    }
    int64_t *d = NULL;
    if (rank > 0) {
        d = dlp__arena_memdup(&c->g->arena, dims, sizeof(int64_t) * (size_t)rank);
        if (!d) return dlp__err(c->err, DLP_ENOMEM, "%s: out of memory", c->g->name);
    }
    v->rank = rank;
    v->dims = d;
    v->shape_set = 1;
    return DLP_OK;
}

void dlp__set_out_dtype(const dlp__ictx *c, int i, int dtype) {
    dlp__value *v = dlp__out(c, i);
    if (v) v->dtype = dtype;
}

dlp_status dlp__set_out_ival(const dlp__ictx *c, int i, int64_t n, const int64_t *vals) {
    dlp__value *v = dlp__out(c, i);
    if (!v || n < 0 || n > DLP_MAX_VALUE_NUMEL) return DLP_OK;
    if (dlp__numel(v) != n) return DLP_OK; /* shape disagrees: keep value unknown */
    int64_t *p = dlp__arena_memdup(&c->g->arena, vals, sizeof(int64_t) * (size_t)(n ? n : 1));
    if (!p) return dlp__err(c->err, DLP_ENOMEM, "%s: out of memory", c->g->name);
    v->ival = p;
    v->nval = n;
    return DLP_OK;
}

dlp_status dlp__set_out_fval(const dlp__ictx *c, int i, int64_t n, const double *vals) {
    dlp__value *v = dlp__out(c, i);
    if (!v || n < 0 || n > DLP_MAX_VALUE_NUMEL) return DLP_OK;
    if (dlp__numel(v) != n) return DLP_OK;
    double *p = dlp__arena_memdup(&c->g->arena, vals, sizeof(double) * (size_t)(n ? n : 1));
    if (!p) return dlp__err(c->err, DLP_ENOMEM, "%s: out of memory", c->g->name);
    v->fval = p;
    if (!v->ival) v->nval = n;
    return DLP_OK;
}

dlp_status dlp__pass_through(const dlp__ictx *c, int i, int j) {
    dlp__value *x = dlp__in(c, j);
    if (!x) return DLP_OK;
    dlp_status s = dlp__set_out(c, i, x->dtype, x->rank, x->dims);
    if (s) return s;
    if (dlp__has_ival(x)) s = dlp__set_out_ival(c, i, x->nval, x->ival);
    if (!s && x->fval) s = dlp__set_out_fval(c, i, x->nval, x->fval);
    return s;
}

int dlp__axis(const dlp__ictx *c, int64_t axis, int rank, const char *what) {
    if (axis < -rank || axis >= rank) {
        dlp__fail(c, "%s %lld is out of range for rank %d", what, (long long)axis, rank);
        return -1;
    }
    return (int)(axis < 0 ? axis + rank : axis);
}

int dlp__broadcast(const dlp__ictx *c, const dlp__value *a, const dlp__value *b,
                   int64_t *out, dlp_status *st) {
    *st = DLP_OK;
    if (!a || !b || a->rank < 0 || b->rank < 0) return -1;
    int r = a->rank > b->rank ? a->rank : b->rank;
    if (r > DLP_MAX_RANK * 4) {
        *st = dlp__fail(c, "broadcast rank %d too large", r);
        return -1;
    }
    for (int k = 0; k < r; k++) {
        int ia = k - (r - a->rank), ib = k - (r - b->rank);
        int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
        if (da == 1) out[k] = db;
        else if (db == 1) out[k] = da;
        else if (da == -1 || db == -1) out[k] = da == -1 ? db : da;  /* one unknown: the other (not 1) wins */
        else if (da == db) out[k] = da;
        else {
            *st = dlp__fail(c, "cannot broadcast '%s' dim %lld with '%s' dim %lld", a->name,
                            (long long)da, b->name, (long long)db);
            return -1;
        }
    }
    return r;
}

/* ---- subgraph formal inputs (the bind rules of Loop/Scan, and the
 *      default shape inference uses for owners without one) ----------- */

dlp_status dlp__bind_value(const dlp__ictx *c, int vid, int dtype, int rank, const int64_t *dims) {
    if (vid < 0 || vid >= c->g->n_values) return DLP_OK;
    dlp__value *v = &c->g->values[vid];
    if (v->is_init) return DLP_OK; /* an initializer listed as an input keeps its data */
    v->ival = NULL;
    v->fval = NULL;
    v->nval = -1;
    v->dtype = dtype ? dtype : v->decl_dtype;
    if (rank < 0 || rank > DLP_MAX_RANK * 4) {
        v->rank = v->decl_rank;
        v->dims = v->decl_dims;
        v->shape_set = v->rank >= 0;
        return DLP_OK;
    }
    int64_t d[DLP_MAX_RANK * 4];
    for (int k = 0; k < rank; k++) {
        d[k] = dims[k];
        if (d[k] < 0 && v->decl_rank == rank && v->decl_dims && v->decl_dims[k] >= 0) d[k] = v->decl_dims[k];
    }
    int64_t *p = NULL;
    if (rank > 0 && !(p = dlp__arena_memdup(&c->g->arena, d, sizeof(int64_t) * (size_t)rank)))
        return dlp__err(c->err, DLP_ENOMEM, "%s: out of memory", c->g->name);
    v->rank = rank;
    v->dims = p;
    v->shape_set = 1;
    return DLP_OK;
}

dlp_status dlp__bind_declared(dlp__ictx *c, int scope) {
    if (scope <= 0 || scope >= c->g->n_scopes) return DLP_OK;
    const dlp__scope *S = &c->g->scopes[scope];
    dlp_status st = DLP_OK;
    for (int k = 0; k < S->n_inputs && !st; k++) st = dlp__bind_value(c, S->inputs[k], 0, -1, NULL);
    return st;
}

/* ---- generic cost rules (ops.h) --------------------------------------- */

void dlp__cost_none(dlp__ictx *c) {
    c->node->macs = 0;
    c->node->flops = 0;
}

void dlp__cost_elementwise(dlp__ictx *c) {
    const dlp__op_def *def = c->def;
    int64_t n = 0;
    for (int o = 0; o < c->node->n_out; o++) {
        int64_t k = dlp__numel(dlp__out(c, o));
        if (k > 0) n = dlp__sat_add(n, k);
    }
    c->node->flops = dlp__sat_mul(n, def ? def->flops_per_elem : 1);
}

/* ---- dtypes ------------------------------------------------------------ */

int dlp_dtype_size(dlp_dtype dt) {
    static const int sz[DLP_DT_COUNT_] = {0, 4, 1, 1, 2, 2, 4, 8, 0, 1, 2, 8, 4, 8, 8, 16, 2, 1, 1, 1, 1, 1, 1, 1};
    return dt >= 0 && dt < DLP_DT_COUNT_ ? sz[dt] : 0;
}

/* The names people type for a compute dtype (CLI, HTTP API, Python): one
 * table, case-insensitive; -1 when unknown. */
int dlp_dtype_parse(const char *s) {
    static const struct { const char *name; int dt; } t[] = {
        {"fp32", DLP_DT_FLOAT},          {"float32", DLP_DT_FLOAT},       {"float", DLP_DT_FLOAT},
        {"fp16", DLP_DT_FLOAT16},        {"float16", DLP_DT_FLOAT16},     {"half", DLP_DT_FLOAT16},
        {"bf16", DLP_DT_BFLOAT16},       {"bfloat16", DLP_DT_BFLOAT16},   {"int8", DLP_DT_INT8},
        {"fp8", DLP_DT_FLOAT8E4M3FN},    {"fp8-e4m3", DLP_DT_FLOAT8E4M3FN}, {"e4m3", DLP_DT_FLOAT8E4M3FN},
        {"fp8-e5m2", DLP_DT_FLOAT8E5M2}, {"e5m2", DLP_DT_FLOAT8E5M2},     {"fp4", DLP_DT_FLOAT4E2M1},
        {"nvfp4", DLP_DT_FLOAT4E2M1},    {"mxfp4", DLP_DT_FLOAT4E2M1},
    };
    if (!s) return -1;
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!strcasecmp(s, t[i].name)) return t[i].dt;
    return -1;
}

/* The short name of a compute dtype, as dlp_dtype_parse reads it back. */
const char *dlp_dtype_short(dlp_dtype dt) {
    switch (dt) {
    case DLP_DT_FLOAT: return "fp32";
    case DLP_DT_FLOAT16: return "fp16";
    case DLP_DT_BFLOAT16: return "bf16";
    case DLP_DT_INT8: return "int8";
    case DLP_DT_FLOAT8E4M3FN: return "fp8";
    case DLP_DT_FLOAT8E5M2: return "fp8-e5m2";
    case DLP_DT_FLOAT4E2M1: return "fp4";
    default: return dlp_dtype_name(dt);
    }
}

const char *dlp_dtype_name(dlp_dtype dt) {
    static const char *nm[DLP_DT_COUNT_] = {
        "undefined", "float32", "uint8", "int8", "uint16", "int16", "int32", "int64",
        "string", "bool", "float16", "float64", "uint32", "uint64", "complex64",
        "complex128", "bfloat16", "float8e4m3fn", "float8e4m3fnuz", "float8e5m2",
        "float8e5m2fnuz", "uint4", "int4", "float4e2m1"};
    return dt >= 0 && dt < DLP_DT_COUNT_ ? nm[dt] : "unknown";
}

const char *dlp_op_class_name(dlp_op_class c) {
    static const char *nm[DLP_OPC_COUNT_] = {"other", "conv", "gemm", "matmul", "elementwise",
                                              "activation", "norm", "pool", "reduce", "softmax",
                                              "data", "shape", "control"};
    return c >= 0 && c < DLP_OPC_COUNT_ ? nm[c] : "other";
}
