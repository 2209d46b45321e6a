/*
 * onnx.c — ONNX ModelProto reader over an mmapped file, and the linker that
 * turns its GraphProto (and If/Loop/Scan subgraphs) into the graph IR.
 *
 * The protobuf wire format is decoded by hand (field numbers from Debian's
 * onnx.proto, cited at each message).  Weight bytes are never read: a
 * TensorProto keeps a pointer to its own serialized bytes, and raw_data /
 * float_data fields are stepped over by length without touching them, so a
 * 500 MB file with inline weights costs page faults only for its structure.
 * Small integer tensors (shape arguments) are decoded on demand.
 *
 * Every malformed input — truncated file, wrong wire type, absurd length,
 * nesting bombs — ends in a one-line DLP_EFORMAT error naming the file and
 * the message being read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "graph/graph.h"
#include "onnx/reader.h"

#define MAX_DEPTH 16          /* nested subgraphs */
#define MAX_DIMS 64           /* dims of one tensor */

/* ---- wire-format primitives -------------------------------------------- */

typedef struct {
    const uint8_t *p, *end;
} pb;

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_SGROUP = 3, WT_EGROUP = 4, WT_I32 = 5 };

static int pb_varint_slow(pb *r, uint64_t *v) {
    uint64_t x = 0;
    for (int s = 0; s < 70; s += 7) {
        if (r->p >= r->end) return -1;
        uint8_t b = *r->p++;
        if (s == 63 && b > 1) return -1;
        x |= (uint64_t)(b & 0x7f) << s;
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

/* Most varints of a model's structure (tags, lengths, small ints) are one
 * byte: that case inline, the rest in pb_varint_slow. */
static inline int pb_varint(pb *r, uint64_t *v) {
    if (r->p < r->end && *r->p < 0x80) {
        *v = *r->p++;
        return 0;
    }
    return pb_varint_slow(r, v);
}

/* Next field tag; 0 at end, -1 malformed.  Fields 1-15 (every field of
 * a node, an attribute and most of a graph) have one-byte tags: inline. */
static inline int pb_tag(pb *r, uint32_t *field, int *wt) {
    if (r->p >= r->end) return 0;
    if (*r->p < 0x80 && *r->p >= 8) {
        *field = (uint32_t)(*r->p >> 3);
        *wt = (int)(*r->p++ & 7);
        return 1;
    }
    uint64_t t;
    if (pb_varint(r, &t)) return -1;
    *field = (uint32_t)(t >> 3);
    *wt = (int)(t & 7);
    if (*field == 0 || (t >> 3) > 0x1fffffff) return -1;
    return 1;
}

static inline int pb_len(pb *r, pb *sub) {
    uint64_t n;
    if (pb_varint(r, &n)) return -1;
    if (n > (uint64_t)(r->end - r->p)) return -1;
    sub->p = r->p;
    sub->end = r->p + n;
    r->p += n;
    return 0;
}

static int pb_skip(pb *r, int wt) {
    uint64_t v;
    pb s;
    switch (wt) {
    case WT_VARINT: return pb_varint(r, &v);
    case WT_I64:
        if (r->end - r->p < 8) return -1;
        r->p += 8;
        return 0;
    case WT_I32:
        if (r->end - r->p < 4) return -1;
        r->p += 4;
        return 0;
    case WT_LEN: return pb_len(r, &s);
    default: return -1; /* groups are not used by ONNX */
    }
}

static float pb_f32(const uint8_t *p) {
    float f;
    memcpy(&f, p, 4);
    return f;
}

/* ---- reader state ------------------------------------------------------- */

typedef struct {
    const char *name;
    int elem_type;
    int rank;                 /* -1: no shape */
    int64_t *dims;            /* -1 where unknown */
    const char **params;      /* dim_param per dim or NULL */
} raw_vi;

/* Nodes are read straight into dlp__node records: the main graph's into
 * g->nodes (where the linker leaves them), a subgraph's into an arena
 * array (the linker appends them to g->nodes after the main graph's, as
 * it links each subgraph).  Until linked, a node's out[] and in[] hold
 * the file offsets of its output and input names (the length prefix of
 * each string field, checked when read; name_at decodes it; an input's as
 * ~offset): an input name is looked up without a copy, an output name is
 * copied once, for its value, and the linker overwrites each offset with
 * a value id. */
struct dlp__raw_graph {
    const char *name;
    int n_node, n_init, n_input, n_output, n_vi;
    int in_graph;             /* nodes are g->nodes[0, n_node) (main graph) */
    int has_sub;              /* some attribute of its nodes is a graph */
    dlp__node *nodes;
    dlp__tproto *inits;
    raw_vi *inputs, *outputs, *vi;
};

#define MAX_INTERN 64

/* Strings a model repeats thousands of times from a few dozen distinct
 * ones, one copy each (see rd) */
typedef struct {
    struct { const char *s; size_t n; } e[MAX_INTERN];
    int n;
    /* index + 1 by a hash of length and end bytes: one memcmp per string
     * instead of a scan of the table (0: not cached) */
    uint8_t hint[256];
} intern_tab;

typedef struct {
    dlp_graph *g;
    const char *file;
    dlp_error *err;
    const uint8_t *base, *end;  /* the file */
    /* op_type / domain strings: equal pointers let the registry lookup and
     * the per-op tables compare nodes without strcmp */
    intern_tab ops;
    /* attribute names ("value", "axes", "perm", ...): shared copies stay
     * in the cache when shape rules look attributes up by name, and cost
     * no arena bytes per attribute */
    intern_tab attrs;
    int graph_attrs;            /* GRAPH attributes read so far */
    /* nodes' in/out id lists, packed at 4-byte steps in chunks of the
     * arena apart from names and attributes: the finalize passes read
     * every node's lists, a few hundred KB in order instead of one line
     * each scattered through MBs */
    int *ids;
    size_t ids_left;
} rd;

#define IDS_CHUNK 16384 /* ints */

static int *ids_alloc(rd *R, size_t n) {
    if (n > R->ids_left) {
        size_t c = n > IDS_CHUNK ? n : IDS_CHUNK;
        if (!(R->ids = dlp__arena_alloc_raw(&R->g->arena, sizeof(int) * c))) return NULL;
        R->ids_left = c;
    }
    int *p = R->ids;
    R->ids += n;
    R->ids_left -= n;
    return p;
}

/* The name of a node whose name is absent or empty (the linker names it
 * after its op type and index: a pointer test, no string read) */
static const char no_name[1] = "";

static dlp_status bad(rd *R, const char *what) {
    return dlp__err(R->err, DLP_EFORMAT, "%s: malformed or truncated protobuf while reading %s",
                    R->file, what);
}

static dlp_status oom(rd *R) { return dlp__err(R->err, DLP_ENOMEM, "%s: out of memory", R->file); }

static const char *str_of(rd *R, pb *s) {
    return dlp__arena_strndup(&R->g->arena, (const char *)s->p, (size_t)(s->end - s->p));
}

/* a[0, n) == b[0, n) for the short strings of intern tables: two 8-byte
 * words (overlapping) from 8 to 16 bytes, no call to memcmp */
static inline int short_eq(const char *a, const uint8_t *b, size_t n) {
    if (n < 8 || n > 16) return !memcmp(a, b, n);
    uint64_t x0, y0, x1, y1;
    memcpy(&x0, a, 8);
    memcpy(&y0, b, 8);
    memcpy(&x1, a + n - 8, 8);
    memcpy(&y1, b + n - 8, 8);
    return x0 == y0 && x1 == y1;
}

/* s as a shared copy from table T; a plain copy once the table is full. */
static const char *interned(rd *R, intern_tab *T, pb *s) {
    size_t n = (size_t)(s->end - s->p);
    unsigned h = n ? (unsigned)(n * 31u + s->p[0] * 7u + s->p[n - 1]) & 255u : 0;
    int k = T->hint[h] - 1;
    if (k >= 0 && T->e[k].n == n && short_eq(T->e[k].s, s->p, n)) return T->e[k].s;
    for (int i = 0; i < T->n; i++)
        if (T->e[i].n == n && (!n || T->e[i].s[0] == (char)s->p[0]) && !memcmp(T->e[i].s, s->p, n)) {
            T->hint[h] = (uint8_t)(i + 1);
            return T->e[i].s;
        }
    const char *c = str_of(R, s);
    if (c && T->n < MAX_INTERN) {
        T->e[T->n].s = c;
        T->e[T->n++].n = n;
        T->hint[h] = (uint8_t)T->n;
    }
    return c;
}

/* ---- TensorProto (onnx.proto: dims=1 data_type=2 float_data=4 int32_data=5
 *      string_data=6 int64_data=7 name=8 raw_data=9 double_data=10
 *      uint64_data=11 external_data=13 data_location=14) ----------------- */

/* One pass: dims into a stack buffer (counted past MAX_DIMS, not kept, so
 * that the error names the file's count), the rest as it comes.  A
 * malformed field is "TensorProto.dims" in a dims field and "TensorProto"
 * in any other; the rank limit and negative dims are checked after the
 * whole message read well. */
static dlp_status read_tensor(rd *R, pb m, dlp__tproto *t) {
    memset(t, 0, sizeof *t);
    t->nval = -1;
    t->msg = m.p;
    t->msg_len = (size_t)(m.end - m.p);
    t->name = "";
    int64_t dims[MAX_DIMS];
    int ndims = 0;
    pb r = m;
    uint32_t f;
    int wt, k;
    while ((k = pb_tag(&r, &f, &wt)) > 0) {
        uint64_t v;
        pb s;
        if (f == 1 && wt == WT_VARINT) {
            if (pb_varint(&r, &v)) return bad(R, "TensorProto");
            if (ndims < MAX_DIMS) dims[ndims] = (int64_t)v;
            ndims++;
        } else if (f == 1 && wt == WT_LEN) {
            if (pb_len(&r, &s)) return bad(R, "TensorProto.dims");
            while (s.p < s.end) {
                if (pb_varint(&s, &v)) return bad(R, "TensorProto.dims");
                if (ndims < MAX_DIMS) dims[ndims] = (int64_t)v;
                ndims++;
            }
        } else if (f == 2 && wt == WT_VARINT) {
            if (pb_varint(&r, &v)) return bad(R, "TensorProto");
            t->dtype = (int)(v & 0x7fffffff);
        } else if (f == 8 && wt == WT_LEN) {
            if (pb_len(&r, &s)) return bad(R, "TensorProto");
            if (!(t->name = str_of(R, &s))) return oom(R);
        } else if (f == 14 && wt == WT_VARINT) {
            if (pb_varint(&r, &v)) return bad(R, "TensorProto");
            t->external = v == 1;
        } else if ((f == 4 || f == 5 || f == 6 || f == 7 || f == 9 || f == 10 || f == 11) ) {
            t->has_data = 1;
            if (pb_skip(&r, wt)) return bad(R, "TensorProto"); /* stepped over, never read */
        } else if (f == 13) {
            t->external = 1;
            if (pb_skip(&r, wt)) return bad(R, "TensorProto");
        } else if (pb_skip(&r, wt)) {
            return bad(R, "TensorProto");
        }
    }
    if (k < 0) return bad(R, "TensorProto");
    if (ndims > MAX_DIMS)
        return dlp__err(R->err, DLP_EFORMAT, "%s: a tensor has %d dims (at most %d)", R->file, ndims, MAX_DIMS);
    t->rank = ndims;
    t->dims = dlp__arena_alloc_raw(&R->g->arena, sizeof(int64_t) * (size_t)(ndims + 1));
    if (!t->dims) return oom(R);
    memcpy(t->dims, dims, sizeof(int64_t) * (size_t)ndims);
    t->dims[ndims] = 0;
    for (int i = 0; i < t->rank; i++)
        if (t->dims[i] < 0)
            return dlp__err(R->err, DLP_EFORMAT, "%s: tensor '%s' has negative dim %lld", R->file,
                            t->name, (long long)t->dims[i]);
    return DLP_OK;
}

static int is_int_dt(int dt) {
    return dt == DLP_DT_INT64 || dt == DLP_DT_INT32 || dt == DLP_DT_INT16 || dt == DLP_DT_INT8 ||
           dt == DLP_DT_UINT8 || dt == DLP_DT_UINT16 || dt == DLP_DT_UINT32 ||
           dt == DLP_DT_UINT64 || dt == DLP_DT_BOOL;
}

/* Small float tensors (Resize scales, ...) are decoded up to this size. */
#define MAX_SMALL_FLOAT 16

/* Decode a small integer (or float) tensor's data into v's ival/fval from
 * v->init and v's dims (only when numel <= DLP_MAX_VALUE_NUMEL, floats <=
 * MAX_SMALL_FLOAT).  Unreadable data leaves the value unknown; the only
 * failure is DLP_ENOMEM. */
static dlp_status decode_small(dlp_graph *g, dlp__value *v) {
    const dlp__tproto *t = v->init;
    if (!t || t->external) return DLP_OK;
    int64_t n = dlp__numel(v);
    if (n < 0) return DLP_OK;
    int isint = is_int_dt(t->dtype);
    int isflt = t->dtype == DLP_DT_FLOAT || t->dtype == DLP_DT_DOUBLE || t->dtype == DLP_DT_FLOAT16;
    if (!(isint && n <= DLP_MAX_VALUE_NUMEL) && !(isflt && n <= MAX_SMALL_FLOAT)) return DLP_OK;
    int64_t *iv = isint ? dlp__arena_alloc(&g->arena, sizeof(int64_t) * (size_t)(n + 1)) : NULL;
    double *fv = isflt ? dlp__arena_alloc(&g->arena, sizeof(double) * (size_t)(n + 1)) : NULL;
    if ((isint && !iv) || (isflt && !fv)) return DLP_ENOMEM;
    int64_t got = 0;
    pb r = {t->msg, t->msg + t->msg_len};
    uint32_t f;
    int wt, k;
    int es = dlp_dtype_size(t->dtype);
    while ((k = pb_tag(&r, &f, &wt)) > 0) {
        pb s;
        uint64_t u;
        if (f == 9 && wt == WT_LEN) { /* raw_data, little endian */
            if (pb_len(&r, &s)) return DLP_OK;
            size_t len = (size_t)(s.end - s.p);
            if (es <= 0 || len != (size_t)n * (size_t)es) return DLP_OK;
            for (int64_t i = 0; i < n; i++) {
                const uint8_t *p = s.p + i * es;
                uint64_t x = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                if (es == 8) memcpy(&x, p, 8); /* int64 shape data: one load */
                else
#endif
                    for (int b = 0; b < es; b++) x |= (uint64_t)p[b] << (8 * b);
                if (isint) {
                    switch (t->dtype) {
                    case DLP_DT_INT8: iv[i] = (int8_t)x; break;
                    case DLP_DT_INT16: iv[i] = (int16_t)x; break;
                    case DLP_DT_INT32: iv[i] = (int32_t)x; break;
                    default: iv[i] = (int64_t)x; break;
                    }
                } else if (t->dtype == DLP_DT_FLOAT) {
                    fv[i] = pb_f32(p);
                } else if (t->dtype == DLP_DT_DOUBLE) {
                    double d;
                    memcpy(&d, p, 8);
                    fv[i] = d;
                } else {
                    return DLP_OK; /* fp16 raw: not needed for shapes */
                }
            }
            got = n;
        } else if ((f == 7 || f == 5 || f == 11) && isint) { /* int64/int32/uint64 data */
            if (wt == WT_LEN) {
                if (pb_len(&r, &s)) return DLP_OK;
                while (s.p < s.end) {
                    if (pb_varint(&s, &u) || got >= n) return DLP_OK;
                    iv[got++] = f == 5 ? (int64_t)(int32_t)u : (int64_t)u;
                }
            } else if (wt == WT_VARINT) {
                if (pb_varint(&r, &u) || got >= n) return DLP_OK;
                iv[got++] = f == 5 ? (int64_t)(int32_t)u : (int64_t)u;
            } else if (pb_skip(&r, wt)) return DLP_OK;
        } else if (f == 4 && t->dtype == DLP_DT_FLOAT) {
            if (wt == WT_LEN) {
                if (pb_len(&r, &s) || (s.end - s.p) % 4) return DLP_OK;
                for (; s.p < s.end; s.p += 4) {
                    if (got >= n) return DLP_OK;
                    fv[got++] = pb_f32(s.p);
                }
            } else if (wt == WT_I32) {
                if (r.end - r.p < 4 || got >= n) return DLP_OK;
                fv[got++] = pb_f32(r.p);
                r.p += 4;
            } else if (pb_skip(&r, wt)) return DLP_OK;
        } else if (f == 10 && t->dtype == DLP_DT_DOUBLE && wt == WT_LEN) {
            if (pb_len(&r, &s) || (s.end - s.p) % 8) return DLP_OK;
            for (; s.p < s.end; s.p += 8) {
                if (got >= n) return DLP_OK;
                memcpy(&fv[got++], s.p, 8);
            }
        } else if (pb_skip(&r, wt)) {
            return DLP_OK;
        }
    }
    if (k < 0 || got != n) return DLP_OK; /* missing data: value stays unknown */
    if (isint) v->ival = iv;
    else v->fval = fv;
    v->nval = n;
    return DLP_OK;
}

/* A TENSOR attribute's small data, decoded at load as initializers' are
 * (read_attr), so that shape rules (Constant, ConstantOfShape) read it from
 * the IR without calling back into the reader. */
dlp_status dlp__onnx_decode_tensor(dlp_graph *g, dlp__tproto *t) {
    dlp__value tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.dtype = t->dtype;
    tmp.rank = t->rank;
    tmp.dims = t->dims;
    tmp.nval = -1;
    tmp.init = t;
    t->nval = -1;
    t->ival = NULL;
    t->fval = NULL;
    dlp_status st = decode_small(g, &tmp);
    if (st) return st;
    t->nval = tmp.nval;
    t->ival = tmp.ival;
    t->fval = tmp.fval;
    return DLP_OK;
}

/* ---- ValueInfoProto (name=1 type=2) / TypeProto (tensor_type=1,
 *      sequence_type=4, optional_type=9, sparse_tensor_type=8) /
 *      TypeProto.Tensor (elem_type=1 shape=2) / TensorShapeProto (dim=1) /
 *      Dimension (dim_value=1 dim_param=2) --------------------------------- */

static dlp_status read_shape(rd *R, pb m, raw_vi *vi) {
    pb r = m;
    uint32_t f;
    int wt, k, n = 0;
    while ((k = pb_tag(&r, &f, &wt)) > 0) {
        if (f == 1 && wt == WT_LEN) n++;
        if (pb_skip(&r, wt)) return bad(R, "TensorShapeProto");
    }
    if (k < 0) return bad(R, "TensorShapeProto");
    if (n > MAX_DIMS) return dlp__err(R->err, DLP_EFORMAT, "%s: value '%s' has rank %d (at most %d)", R->file, vi->name, n, MAX_DIMS);
    vi->dims = dlp__arena_alloc(&R->g->arena, sizeof(int64_t) * (size_t)(n + 1));
    vi->params = dlp__arena_alloc(&R->g->arena, sizeof(char *) * (size_t)(n + 1));
    if (!vi->dims || !vi->params) return oom(R);
    vi->rank = 0;
    r = m;
    while ((k = pb_tag(&r, &f, &wt)) > 0) {
        pb d;
        if (!(f == 1 && wt == WT_LEN)) {
            if (pb_skip(&r, wt)) return bad(R, "TensorShapeProto");
            continue;
        }
        if (pb_len(&r, &d)) return bad(R, "TensorShapeProto.dim");
        int64_t val = -1;
        const char *param = NULL;
        uint32_t f2;
        int wt2, k2;
        while ((k2 = pb_tag(&d, &f2, &wt2)) > 0) {
            uint64_t v;
            pb s;
            if (f2 == 1 && wt2 == WT_VARINT) {
                if (pb_varint(&d, &v)) return bad(R, "Dimension.dim_value");
                val = (int64_t)v;
                if (val < 0)
                    return dlp__err(R->err, DLP_EFORMAT, "%s: value '%s' dim %d is %lld", R->file,
                                    vi->name, vi->rank, (long long)val);
            } else if (f2 == 2 && wt2 == WT_LEN) {
                if (pb_len(&d, &s)) return bad(R, "Dimension.dim_param");
                if (s.end > s.p && !(param = str_of(R, &s))) return oom(R);
            } else if (pb_skip(&d, wt2)) {
                return bad(R, "Dimension");
            }
        }
        if (k2 < 0) return bad(R, "Dimension");
        vi->dims[vi->rank] = val;
        vi->params[vi->rank] = val >= 0 ? NULL : param;
        vi->rank++;
    }
    return k < 0 ? bad(R, "TensorShapeProto") : DLP_OK;
}

static dlp_status read_type(rd *R, pb m, raw_vi *vi, int depth);

/* TypeProto.Sequence / TypeProto.Optional: elem_type=1, a TypeProto. */
static dlp_status read_elem_type(rd *R, pb m, raw_vi *vi, int depth) {
    uint32_t f;
    int wt, k;
    while ((k = pb_tag(&m, &f, &wt)) > 0) {
        pb s;
        if (f == 1 && wt == WT_LEN) {
            if (pb_len(&m, &s)) return bad(R, "TypeProto elem_type");
            dlp_status st = read_type(R, s, vi, depth + 1);
            if (st) return st;
        } else if (pb_skip(&m, wt)) {
            return bad(R, "TypeProto elem_type");
        }
    }
    return k < 0 ? bad(R, "TypeProto elem_type") : DLP_OK;
}

static dlp_status read_type(rd *R, pb m, raw_vi *vi, int depth) {
    uint32_t f;
    int wt, k;
    if (depth > 8) return bad(R, "TypeProto (nested too deeply)");
    while ((k = pb_tag(&m, &f, &wt)) > 0) {
        pb s;
        if ((f == 1 || f == 8) && wt == WT_LEN) { /* tensor / sparse tensor */
            if (pb_len(&m, &s)) return bad(R, "TypeProto.Tensor");
            uint32_t f2;
            int wt2, k2;
            while ((k2 = pb_tag(&s, &f2, &wt2)) > 0) {
                uint64_t v;
                pb sh;
                if (f2 == 1 && wt2 == WT_VARINT) {
                    if (pb_varint(&s, &v)) return bad(R, "TypeProto.Tensor.elem_type");
                    vi->elem_type = (int)(v & 0x7fffffff);
                } else if (f2 == 2 && wt2 == WT_LEN) {
                    if (pb_len(&s, &sh)) return bad(R, "TypeProto.Tensor.shape");
                    dlp_status st = read_shape(R, sh, vi);
                    if (st) return st;
                } else if (pb_skip(&s, wt2)) {
                    return bad(R, "TypeProto.Tensor");
                }
            }
            if (k2 < 0) return bad(R, "TypeProto.Tensor");
        } else if (f == 9 && wt == WT_LEN) {
            /* optional<T>: when present it is a T, so T's type and shape */
            if (pb_len(&m, &s)) return bad(R, "TypeProto.Optional");
            dlp_status st = read_elem_type(R, s, vi, depth);
            if (st) return st;
        } else if (f == 4 && wt == WT_LEN) {
            /* sequence<T>: keep the element type, no shape (a sequence has
             * no single shape) */
            if (pb_len(&m, &s)) return bad(R, "TypeProto.Sequence");
            raw_vi tmp = {vi->name, 0, -1, NULL, NULL};
            dlp_status st = read_elem_type(R, s, &tmp, depth);
            if (st) return st;
            vi->elem_type = tmp.elem_type;
        } else if (pb_skip(&m, wt)) {
            return bad(R, "TypeProto");
        }
    }
    return k < 0 ? bad(R, "TypeProto") : DLP_OK;
}

static dlp_status read_value_info(rd *R, pb m, raw_vi *vi) {
    memset(vi, 0, sizeof *vi);
    vi->rank = -1;
    vi->name = "";
    uint32_t f;
    int wt, k;
    pb r = m, type = {0, 0};
    int has_type = 0;
    while ((k = pb_tag(&r, &f, &wt)) > 0) {
        pb s;
        if (f == 1 && wt == WT_LEN) {
            if (pb_len(&r, &s)) return bad(R, "ValueInfoProto.name");
            if (!(vi->name = str_of(R, &s))) return oom(R);
        } else if (f == 2 && wt == WT_LEN) {
            if (pb_len(&r, &type)) return bad(R, "ValueInfoProto.type");
            has_type = 1;
        } else if (pb_skip(&r, wt)) {
            return bad(R, "ValueInfoProto");
        }
    }
    if (k < 0) return bad(R, "ValueInfoProto");
    return has_type ? read_type(R, type, vi, 0) : DLP_OK;
}

/* ---- AttributeProto (name=1 f=2 i=3 s=4 t=5 g=6 floats=7 ints=8 strings=9
 *      tensors=10 graphs=11 type=20) ------------------------------------- */

static dlp_status read_graph(rd *R, pb m, dlp__raw_graph *rg, int depth);

/* A list filled in one pass over a message: the first elements in a buffer
 * on the caller's stack, more on the heap; copied into the graph's arena
 * (with one zeroed element after the last) when the message is read. */
typedef struct {
    unsigned char *p, *stack;
    int n, cap;
    size_t esz;
} svec;

#define SVEC(buf) {(unsigned char *)(buf), (unsigned char *)(buf), 0, (int)(sizeof(buf) / sizeof((buf)[0])), sizeof((buf)[0])}

/* The list is full: double it onto the heap (rare: the stack buffers hold
 * a node's usual inputs, outputs and attributes). */
static __attribute__((noinline)) void *svec_grow_push(svec *v) {
    int nc = v->cap * 2;
    unsigned char *q = v->p == v->stack ? malloc(v->esz * (size_t)nc) : realloc(v->p, v->esz * (size_t)nc);
    if (!q) return NULL;
    if (v->p == v->stack) memcpy(q, v->stack, v->esz * (size_t)v->n);
    v->p = q;
    v->cap = nc;
    return v->p + v->esz * (size_t)v->n++;
}

static inline void *svec_push(svec *v) {
    if (v->n == v->cap) return svec_grow_push(v);
    return v->p + v->esz * (size_t)v->n++;
}

static void svec_free(svec *v) {
    if (v->p != v->stack) free(v->p);
}

/* After reading into the n svecs v (status st): when st is DLP_OK each is
 * copied into the arena (out[i]; the n lists share one allocation,
 * elements are 8-byte multiples: an attribute's ints, floats, strings),
 * all freed either way.  Lists of 8-byte elements end with a zeroed one. */
static dlp_status svecs_done(rd *R, dlp_status st, svec *v, void **out, int n) {
    static const uint64_t zero = 0;
    size_t total = 0;
    for (int i = 0; i < n; i++) total += v[i].esz * (size_t)v[i].n + (v[i].esz == sizeof zero ? sizeof zero : 0);
    unsigned char *q = st ? NULL : dlp__arena_alloc_raw(&R->g->arena, total ? total : sizeof zero);
    if (!st && !q) st = oom(R);
    for (int i = 0; i < n && !st; i++) {
        size_t used = v[i].esz * (size_t)v[i].n;
        if (used) memcpy(q, v[i].p, used);
        out[i] = q;
        q += used;
        if (v[i].esz == sizeof zero) {
            memcpy(q, &zero, sizeof zero); /* inlined: most lists are pointers */
            q += sizeof zero;
        }
    }
    for (int i = 0; i < n; i++) svec_free(&v[i]);
    return st;
}

#define ATTR_MAX_VALUES (1 << 20)

/* One pass: scalars as they come, list values into svecs (counted past
 * ATTR_MAX_VALUES but not kept, so an absurd list costs no memory before
 * it is refused at the end, after every field was checked). */
static dlp_status read_attr_fields(rd *R, pb m, dlp__attr *a, int depth, svec *iv, svec *fv, svec *sv, int *n_ints,
                                   int *n_floats, int *n_strings) {
    uint32_t f;
    int wt, k;
    pb r = m;
    while ((k = pb_tag(&r, &f, &wt)) > 0) {
        pb s;
        uint64_t v;
        switch (f) {
        case 1:
            if (wt != WT_LEN || pb_len(&r, &s)) return bad(R, "AttributeProto.name");
            if (!(a->name = interned(R, &R->attrs, &s))) return oom(R);
            continue;
        case 20:
            if (wt != WT_VARINT || pb_varint(&r, &v)) return bad(R, "AttributeProto.type");
            a->type = (int)(v & 0xff);
            continue;
        case 2:
            if (wt != WT_I32 || r.end - r.p < 4) return bad(R, "AttributeProto.f");
            a->f = pb_f32(r.p);
            r.p += 4;
            if (!a->type) a->type = DLP_AT_FLOAT;
            continue;
        case 3:
            if (wt != WT_VARINT || pb_varint(&r, &v)) return bad(R, "AttributeProto.i");
            a->i = (int64_t)v;
            if (!a->type) a->type = DLP_AT_INT;
            continue;
        case 4:
            if (wt != WT_LEN || pb_len(&r, &s)) return bad(R, "AttributeProto.s");
            if (!(a->s = str_of(R, &s))) return oom(R);
            if (!a->type) a->type = DLP_AT_STRING;
            continue;
        case 5: {
            if (wt != WT_LEN || pb_len(&r, &s)) return bad(R, "AttributeProto.t");
            a->t = dlp__arena_alloc(&R->g->arena, sizeof *a->t);
            if (!a->t) return oom(R);
            dlp_status st = read_tensor(R, s, a->t);
            if (st) return st;
            if (!a->type) a->type = DLP_AT_TENSOR;
            continue;
        }
        case 6:
        case 11: {
            if (wt != WT_LEN || pb_len(&r, &s)) return bad(R, "AttributeProto.g");
            if (a->g) continue; /* GRAPHS: the first one is costed */
            if (depth >= MAX_DEPTH)
                return dlp__err(R->err, DLP_EFORMAT, "%s: subgraphs nested deeper than %d", R->file, MAX_DEPTH);
            a->g = dlp__arena_alloc(&R->g->arena, sizeof *a->g);
            if (!a->g) return oom(R);
            R->graph_attrs++;
            dlp_status st = read_graph(R, s, a->g, depth + 1);
            if (st) return st;
            if (!a->type) a->type = f == 6 ? DLP_AT_GRAPH : DLP_AT_GRAPHS;
            continue;
        }
        case 7:
            if (wt == WT_LEN) {
                if (pb_len(&r, &s) || (s.end - s.p) % 4) return bad(R, "AttributeProto.floats");
                for (; s.p < s.end; s.p += 4)
                    if ((*n_floats)++ < ATTR_MAX_VALUES) {
                        double *d = svec_push(fv);
                        if (!d) return oom(R);
                        *d = pb_f32(s.p);
                    }
            } else {
                if (wt != WT_I32 || r.end - r.p < 4) return bad(R, "AttributeProto.floats");
                if ((*n_floats)++ < ATTR_MAX_VALUES) {
                    double *d = svec_push(fv);
                    if (!d) return oom(R);
                    *d = pb_f32(r.p);
                }
                r.p += 4;
            }
            if (!a->type) a->type = DLP_AT_FLOATS;
            continue;
        case 8:
            if (wt == WT_LEN) {
                if (pb_len(&r, &s)) return bad(R, "AttributeProto.ints");
                while (s.p < s.end) {
                    if (pb_varint(&s, &v)) return bad(R, "AttributeProto.ints");
                    if ((*n_ints)++ < ATTR_MAX_VALUES) {
                        int64_t *d = svec_push(iv);
                        if (!d) return oom(R);
                        *d = (int64_t)v;
                    }
                }
            } else {
                if (wt != WT_VARINT || pb_varint(&r, &v)) return bad(R, "AttributeProto.ints");
                if ((*n_ints)++ < ATTR_MAX_VALUES) {
                    int64_t *d = svec_push(iv);
                    if (!d) return oom(R);
                    *d = (int64_t)v;
                }
            }
            if (!a->type) a->type = DLP_AT_INTS;
            continue;
        case 9:
            if (wt != WT_LEN || pb_len(&r, &s)) return bad(R, "AttributeProto.strings");
            if ((*n_strings)++ < ATTR_MAX_VALUES) {
                const char **d = svec_push(sv);
                if (!d) return oom(R);
                if (!(*d = str_of(R, &s))) return oom(R);
            }
            if (!a->type) a->type = DLP_AT_STRINGS;
            continue;
        default:
            if (pb_skip(&r, wt)) return bad(R, "AttributeProto");
        }
    }
    if (k < 0) return bad(R, "AttributeProto");
    return DLP_OK;
}

static dlp_status read_attr(rd *R, pb m, dlp__attr *a, int depth) {
    memset(a, 0, sizeof *a);
    a->sub = -1;
    a->name = "";
    int64_t ib[16];
    double fb[8];
    const char *sb[8];
    svec v[3] = {SVEC(ib), SVEC(fb), SVEC(sb)};
    void *out[3];
    int n_ints = 0, n_floats = 0, n_strings = 0;
    dlp_status st = read_attr_fields(R, m, a, depth, &v[0], &v[1], &v[2], &n_ints, &n_floats, &n_strings);
    if (!st && (n_ints > ATTR_MAX_VALUES || n_floats > ATTR_MAX_VALUES || n_strings > ATTR_MAX_VALUES))
        st = bad(R, "AttributeProto (too many values)");
    if (!st && !n_ints && !n_floats && !n_strings) {
        /* no list (most attributes): the shared empty lists, nothing
         * copied (attribute lists are only read) */
        static int64_t no_ints[1];
        static double no_floats[1];
        static const char *no_strings[1];
        out[0] = no_ints;
        out[1] = no_floats;
        out[2] = (void *)no_strings;
    } else if ((st = svecs_done(R, st, v, out, 3))) {
        return st;
    }
    a->ints = out[0];
    a->floats = out[1];
    a->strings = out[2];
    int ni = n_ints, nf = n_floats, ns = n_strings;
    if (a->type == DLP_AT_INTS) a->n = ni;
    else if (a->type == DLP_AT_FLOATS) a->n = nf;
    else if (a->type == DLP_AT_STRINGS) a->n = ns;
    else a->n = ni ? ni : nf ? nf : ns;
    if (!a->type && a->n == 0) a->type = DLP_AT_INTS; /* empty list */
    if (a->type == DLP_AT_TENSOR && a->t && dlp__onnx_decode_tensor(R->g, a->t)) return oom(R);
    return DLP_OK;
}

/* ---- NodeProto (input=1 output=2 name=3 op_type=4 attribute=5 domain=7) -- */

static dlp_status read_node_fields(rd *R, pb m, dlp__node *n, int depth, svec *in, svec *out, svec *at) {
    uint32_t f;
    int wt, k;
    pb r = m;
    while ((k = pb_tag(&r, &f, &wt)) > 0) {
        pb s;
        if (wt != WT_LEN) {
            if (pb_skip(&r, wt)) return bad(R, "NodeProto");
            continue;
        }
        const uint8_t *lenp = r.p; /* the string's length prefix */
        if (pb_len(&r, &s)) return bad(R, "NodeProto");
        const char *str = NULL;
        if (f == 3 && !(str = s.end > s.p && s.p[0] ? str_of(R, &s) : no_name)) return oom(R);
        if (f == 4 || f == 7)
            if (!(str = interned(R, &R->ops, &s))) return oom(R);
        switch (f) {
        case 1:
        case 2: {
            uint32_t *d = svec_push(f == 1 ? in : out);
            if (!d) return oom(R);
            /* read_model: files < 2 GiB; an input's offset is stored as
             * ~offset (< -1: not yet linked; -1 is an omitted input) */
            *d = f == 1 ? ~(uint32_t)(lenp - R->base) : (uint32_t)(lenp - R->base);
            break;
        }
        case 3: n->name = str; break;
        case 4: n->op_type = str; break;
        case 7: n->domain = str; break;
        case 5: {
            dlp__attr *a = svec_push(at);
            if (!a) return oom(R);
            dlp_status st = read_attr(R, s, a, depth);
            if (st) return st;
            break;
        }
        default: break;
        }
    }
    if (k < 0) return bad(R, "NodeProto");
    return DLP_OK;
}

/* The attribute list and the out/in slots (name offsets, see
 * dlp__raw_graph; one spare slot after each list; ids_alloc). */
static dlp_status node_lists(rd *R, dlp__node *n, svec *in, svec *out, svec *at) {
    static dlp__attr no_attr[1];
    size_t abytes = sizeof(dlp__attr) * (size_t)at->n;
    n->attr = abytes ? dlp__arena_alloc_raw(&R->g->arena, abytes) : no_attr; /* only read */
    n->out = ids_alloc(R, (size_t)(in->n + out->n + 2));
    if (!n->attr || !n->out) return oom(R);
    if (abytes) memcpy(n->attr, at->p, abytes);
    n->in = n->out + out->n + 1;
    if (out->n) memcpy(n->out, out->p, sizeof(int) * (size_t)out->n);
    if (in->n) memcpy(n->in, in->p, sizeof(int) * (size_t)in->n);
    n->out[out->n] = 0;
    n->in[in->n] = 0;
    n->n_in = in->n;
    n->n_out = out->n;
    n->n_attr = at->n;
    return DLP_OK;
}

static dlp_status read_node(rd *R, pb m, dlp__node *n, int depth) {
    memset(n, 0, sizeof *n);
    n->name = no_name;
    n->op_type = n->domain = "";
    n->parent = -1;
    n->op = -1;
    uint32_t ib[16], ob[8];
    dlp__attr ab[8];
    svec v[3] = {SVEC(ib), SVEC(ob), SVEC(ab)};
    dlp_status st = read_node_fields(R, m, n, depth, &v[0], &v[1], &v[2]);
    if (!st) st = node_lists(R, n, &v[0], &v[1], &v[2]);
    for (int i = 0; i < 3; i++) svec_free(&v[i]);
    if (st) return st;
    if (!n->op_type[0]) return dlp__err(R->err, DLP_EFORMAT, "%s: node '%s' has no op_type", R->file, n->name);
    return DLP_OK;
}

/* ---- GraphProto (node=1 name=2 initializer=5 input=11 output=12
 *      value_info=13 sparse_initializer=15) ------------------------------ */

static dlp_status read_graph(rd *R, pb m, dlp__raw_graph *rg, int depth) {
    memset(rg, 0, sizeof *rg);
    int graph_attrs = R->graph_attrs; /* for has_sub */
    rg->name = "";
    uint32_t f;
    int wt, k;
    pb r = m;
    while ((k = pb_tag(&r, &f, &wt)) > 0) {
        if (wt == WT_LEN) {
            if (f == 1) rg->n_node++;
            else if (f == 5 || f == 15) rg->n_init++;
            else if (f == 11) rg->n_input++;
            else if (f == 12) rg->n_output++;
            else if (f == 13) rg->n_vi++;
        }
        if (pb_skip(&r, wt)) return bad(R, "GraphProto");
    }
    if (k < 0) return bad(R, "GraphProto");
    dlp__arena *A = &R->g->arena;
    if (depth == 0) {
        /* the main graph's nodes go where the linker keeps them (a second
         * graph field replaces the first, as it always did) */
        dlp_graph *g = R->g;
        if (!g->nodes_in_arena) free(g->nodes);
        g->nodes = dlp__arena_alloc_raw(A, sizeof *g->nodes * (size_t)(rg->n_node + 1));
        g->nodes_in_arena = 1; /* (see dlp_graph) */
        g->cap_nodes = g->nodes ? rg->n_node + 1 : 0;
        g->n_nodes = 0;
        rg->nodes = g->nodes;
        rg->in_graph = 1;
    } else {
        rg->nodes = dlp__arena_alloc(A, sizeof(dlp__node) * (size_t)(rg->n_node + 1));
    }
    rg->inits = dlp__arena_alloc(A, sizeof(dlp__tproto) * (size_t)(rg->n_init + 1));
    rg->inputs = dlp__arena_alloc(A, sizeof(raw_vi) * (size_t)(rg->n_input + 1));
    rg->outputs = dlp__arena_alloc(A, sizeof(raw_vi) * (size_t)(rg->n_output + 1));
    rg->vi = dlp__arena_alloc(A, sizeof(raw_vi) * (size_t)(rg->n_vi + 1));
    if (!rg->nodes || !rg->inits || !rg->inputs || !rg->outputs || !rg->vi) return oom(R);
    int nn = 0, nini = 0, nin = 0, nout = 0, nvi = 0;
    r = m;
    while ((k = pb_tag(&r, &f, &wt)) > 0) {
        pb s;
        dlp_status st = DLP_OK;
        if (wt != WT_LEN) {
            if (pb_skip(&r, wt)) return bad(R, "GraphProto");
            continue;
        }
        if (pb_len(&r, &s)) return bad(R, "GraphProto");
        switch (f) {
        case 1: st = read_node(R, s, &rg->nodes[nn++], depth); break;
        case 2: if (!(rg->name = str_of(R, &s))) return oom(R); break;
        case 5: st = read_tensor(R, s, &rg->inits[nini++]); break;
        case 15: { /* SparseTensorProto: values=1 indices=2 dims=3 */
            dlp__tproto *t = &rg->inits[nini++];
            memset(t, 0, sizeof *t);
            t->name = "";
            uint32_t f2;
            int wt2, k2, nd = 0;
            pb q = s, vals = {0, 0};
            int64_t dims[MAX_DIMS];
            while ((k2 = pb_tag(&q, &f2, &wt2)) > 0) {
                uint64_t v;
                pb x;
                if (f2 == 1 && wt2 == WT_LEN) {
                    if (pb_len(&q, &vals)) return bad(R, "SparseTensorProto.values");
                } else if (f2 == 3 && wt2 == WT_VARINT) {
                    if (pb_varint(&q, &v) || nd >= MAX_DIMS) return bad(R, "SparseTensorProto.dims");
                    dims[nd++] = (int64_t)v;
                } else if (f2 == 3 && wt2 == WT_LEN) {
                    if (pb_len(&q, &x)) return bad(R, "SparseTensorProto.dims");
                    while (x.p < x.end) {
                        if (pb_varint(&x, &v) || nd >= MAX_DIMS) return bad(R, "SparseTensorProto.dims");
                        dims[nd++] = (int64_t)v;
                    }
                } else if (pb_skip(&q, wt2)) {
                    return bad(R, "SparseTensorProto");
                }
            }
            if (k2 < 0 || !vals.p) return bad(R, "SparseTensorProto");
            if ((st = read_tensor(R, vals, t))) return st;
            t->dims = dlp__arena_memdup(A, dims, sizeof(int64_t) * (size_t)(nd ? nd : 1));
            if (!t->dims) return oom(R);
            t->rank = nd;
            t->has_data = 0; /* sparse values are not a dense tensor */
            break;
        }
        case 11: st = read_value_info(R, s, &rg->inputs[nin++]); break;
        case 12: st = read_value_info(R, s, &rg->outputs[nout++]); break;
        case 13: st = read_value_info(R, s, &rg->vi[nvi++]); break;
        default: break;
        }
        if (st) return st;
    }
    rg->has_sub = R->graph_attrs != graph_attrs;
    return DLP_OK;
}

/* ---- linking: raw graph -> IR --------------------------------------------- */

/* A scope's names -> value ids, open addressing.  Every key is the name of
 * the value it maps to, so a slot holds the hash and the value id only (8
 * bytes: a 14,000-name export's index is 256 KB, half a core's L2, where
 * key pointers beside them made it 512 KB) and a hit compares against
 * g->values[id].name. */
typedef struct {
    uint32_t hash;
    int vid1;                 /* value id + 1; 0: empty */
} name_slot;

typedef struct {
    name_slot *s;
    uint32_t cap, count;      /* cap: a power of two */
    int in_arena;             /* s is arena memory (not freed) */
} name_index;

/* From arena A when given (the main graph's index: in the huge-page block
 * the IR fills anyway, not in pages faulted in for it alone), else the
 * heap. */
static int nix_init(name_index *x, uint32_t expect, dlp__arena *A) {
    uint32_t cap = 16;
    while (cap < expect * 2 + 2) cap <<= 1;
    x->s = A ? dlp__arena_alloc(A, cap * sizeof *x->s) : calloc(cap, sizeof *x->s);
    x->in_arena = A != NULL;
    x->cap = x->s ? cap : 0;
    x->count = 0;
    return x->s ? 0 : -1;
}

static void nix_free(name_index *x) {
    if (!x->in_arena) free(x->s);
    x->s = NULL;
    x->cap = x->count = 0;
}

/* The slot of the n bytes at p (no NUL among them; hash h): 1 found, 0
 * absent (*slot: where it would go). */
static int nix_find(const name_index *x, const dlp_graph *g, const char *p, size_t n, uint32_t h, uint32_t *slot) {
    uint32_t mask = x->cap - 1, i = h & mask;
    for (; x->s[i].vid1; i = (i + 1) & mask) {
        if (x->s[i].hash != h) continue;
        const char *k = g->values[x->s[i].vid1 - 1].name;
        if (strncmp(k, p, n) == 0 && k[n] == 0) break; /* strncmp stops at a shorter k */
    }
    *slot = i;
    return x->s[i].vid1 != 0;
}

/* Room for one more name (at most half full), rehashing by the stored
 * hashes; -1 when out of memory. */
static int nix_reserve(name_index *x) {
    if ((x->count + 1) * 2 <= x->cap) return 0;
    name_index y;
    if (nix_init(&y, x->cap, NULL)) return -1;
    for (uint32_t i = 0; i < x->cap; i++) {
        if (!x->s[i].vid1) continue;
        uint32_t j = x->s[i].hash & (y.cap - 1);
        while (y.s[j].vid1) j = (j + 1) & (y.cap - 1);
        y.s[j] = x->s[i];
    }
    y.count = x->count;
    nix_free(x);
    *x = y;
    return 0;
}

/* Value id of the n bytes at p, -1 when absent. */
static int nix_get_n(const name_index *x, const dlp_graph *g, const char *p, size_t n) {
    uint32_t slot;
    if (!x->cap || !nix_find(x, g, p, n, (uint32_t)dlp__hash_n(p, n), &slot)) return -1;
    return x->s[slot].vid1 - 1;
}

static int nix_get(const name_index *x, const dlp_graph *g, const char *name) {
    return nix_get_n(x, g, name, strlen(name));
}

/* Probe for the n bytes at p before adding a value of that name: 1 when
 * present (*vid), 0 when absent (*slot, *h for nix_set), -1 out of memory. */
static int nix_probe(name_index *x, const dlp_graph *g, const char *p, size_t n, uint32_t *h, uint32_t *slot,
                     int *vid) {
    if (nix_reserve(x)) return -1;
    *h = (uint32_t)dlp__hash_n(p, n);
    int found = nix_find(x, g, p, n, *h, slot);
    *vid = found ? x->s[*slot].vid1 - 1 : -1;
    return found;
}

/* Fill the slot nix_probe found empty with value vid (named as probed). */
static void nix_set(name_index *x, uint32_t slot, uint32_t h, int vid) {
    x->s[slot].hash = h;
    x->s[slot].vid1 = vid + 1;
    x->count++;
}

typedef struct {
    rd *R;
    const dlp_load_opts *opts;
    name_index *maps;       /* one per scope */
    int n_maps, cap_maps;
    int seq_used;           /* opts->seq bound some dimension */
} linker;

static int lookup(linker *L, int scope, const char *name) {
    dlp_graph *g = L->R->g;
    for (int s = scope; s >= 0; s = g->scopes[s].parent_scope) {
        int v = nix_get(&L->maps[s], g, name);
        if (v >= 0) return v;
    }
    return -1;
}

/* lookup of the n bytes at name (inside the file, not NUL-terminated) */
static int lookup_n(linker *L, int scope, const char *name, size_t n) {
    dlp_graph *g = L->R->g;
    for (int s = scope; s >= 0; s = g->scopes[s].parent_scope) {
        int v = nix_get_n(&L->maps[s], g, name, n);
        if (v >= 0) return v;
    }
    return -1;
}

/* A node's input or output name (raw_node.in/out: the length prefix of
 * the string in the file, checked by the reader): its bytes up to the
 * first NUL, *n of them, as a C-string copy of the field would read. */
static const char *name_at(const rd *R, const uint8_t *lenp, size_t *n) {
    pb r = {lenp, R->end}, s = {lenp, lenp};
    (void)pb_len(&r, &s);
    *n = strnlen((const char *)s.p, (size_t)(s.end - s.p));
    return (const char *)s.p;
}

static int lower_eq(const char *a, const char *b) { return strcasecmp(a, b) == 0; }

static int batch_like(const char *p) {
    return strcasestr(p, "batch") || lower_eq(p, "N") || lower_eq(p, "b") || lower_eq(p, "bs");
}

static int seq_like(const char *p) {
    if (strcasestr(p, "past")) return 0;
    return strcasestr(p, "seq") || strcasestr(p, "sequence") || lower_eq(p, "S") ||
           lower_eq(p, "L") || lower_eq(p, "T") || strcasestr(p, "token");
}

static int find_symbol(dlp_graph *g, const char *name) {
    for (int i = 0; i < g->n_symbols; i++)
        if (!strcmp(g->sym_names[i], name)) return i;
    return -1;
}

static int add_symbol(dlp_graph *g, const char *name, int64_t v) {
    int i = find_symbol(g, name);
    if (i >= 0) return 0;
    int cap = g->cap_symbols;
    if (dlp__grow((void **)&g->sym_names, g->n_symbols, &cap, sizeof(char *))) return -1;
    int cap2 = g->cap_symbols;
    if (dlp__grow((void **)&g->sym_values, g->n_symbols, &cap2, sizeof(int64_t))) return -1;
    g->cap_symbols = cap < cap2 ? cap : cap2;
    g->sym_names[g->n_symbols] = dlp__arena_strdup(&g->arena, name);
    g->sym_values[g->n_symbols] = v;
    g->n_symbols++;
    return 0;
}

/* Value of a symbolic dim of a graph input, or -1 when unbound. */
static int64_t bind_dim(linker *L, const char *param, int axis, const raw_vi *vi) {
    const dlp_load_opts *o = L->opts;
    dlp_graph *g = L->R->g;
    if (param) {
        int s = find_symbol(g, param);
        if (s >= 0) return g->sym_values[s];
        if (o) {
            for (int i = 0; i < o->n_dims; i++)
                if (o->dim_names && o->dim_names[i] && !strcmp(o->dim_names[i], param)) return o->dim_values[i];
            if (o->batch > 0 && batch_like(param)) return o->batch;
            if (o->seq > 0 && seq_like(param)) return L->seq_used = 1, o->seq;
        }
    }
    if (!o) return -1;
    /* positional conventions: axis 0 is the batch; axis 1 of an integer
     * (token-id) input of rank 2 is the sequence */
    if (axis == 0 && o->batch > 0) return o->batch;
    if (axis == 1 && o->seq > 0 && vi->rank == 2 && is_int_dt(vi->elem_type)) return L->seq_used = 1, o->seq;
    return -1;
}

static dlp_status bind_input_dims(linker *L, const raw_vi *vi, int64_t *dims, int main_graph) {
    dlp_graph *g = L->R->g;
    for (int d = 0; d < vi->rank; d++) {
        dims[d] = vi->dims[d];
        if (dims[d] >= 0) {
            if (d == 0 && main_graph && !g->batch) g->batch = dims[d];
            continue;
        }
        const char *p = vi->params[d];
        int64_t v = bind_dim(L, p, d, vi);
        if (v < 0 && main_graph && !(L->opts && L->opts->allow_unbound)) {
            if (p)
                return dlp__err(L->R->err, DLP_EUNBOUND,
                                "%s: input '%s' dim %d is the symbol '%s' with no value: give --batch, --seq or --dim %s=N",
                                L->R->file, vi->name, d, p, p);
            return dlp__err(L->R->err, DLP_EUNBOUND,
                            "%s: input '%s' dim %d has no value: give --batch or --dim", L->R->file, vi->name, d);
        }
        dims[d] = v;
        if (v >= 0 && p && add_symbol(g, p, v)) return oom(L->R);
        if (v >= 0 && d == 0 && main_graph && !g->batch) g->batch = v;
    }
    return DLP_OK;
}

/* Declared shape of a value (value_info / outputs): symbols resolve if bound. */
static void set_declared(linker *L, dlp__value *v, const raw_vi *vi) {
    dlp_graph *g = L->R->g;
    if (vi->elem_type) v->decl_dtype = vi->elem_type;
    if (vi->rank < 0) return;
    int64_t *d = dlp__arena_alloc(&g->arena, sizeof(int64_t) * (size_t)(vi->rank + 1));
    if (!d) return;
    for (int i = 0; i < vi->rank; i++) {
        d[i] = vi->dims[i];
        if (d[i] < 0 && vi->params[i]) {
            int s = find_symbol(g, vi->params[i]);
            if (s >= 0) d[i] = g->sym_values[s];
        }
    }
    v->decl_rank = vi->rank;
    v->decl_dims = d;
}

static dlp_status new_scope(linker *L, int parent, int owner, int *out) {
    dlp_graph *g = L->R->g;
    if (dlp__grow((void **)&g->scopes, g->n_scopes, &g->cap_scopes, sizeof *g->scopes)) return oom(L->R);
    if (dlp__grow((void **)&L->maps, L->n_maps, &L->cap_maps, sizeof *L->maps)) return oom(L->R);
    dlp__scope *s = &g->scopes[g->n_scopes];
    memset(s, 0, sizeof *s);
    s->parent_scope = parent;
    s->owner = owner;
    if (nix_init(&L->maps[L->n_maps], 16, NULL)) return oom(L->R);
    L->n_maps++;
    *out = g->n_scopes++;
    return DLP_OK;
}

static dlp_status dup_name(linker *L, const char *what, const char *name) {
    return dlp__err(L->R->err, DLP_EGRAPH, "%s: duplicate name: %s '%s' is defined twice", L->R->file, what, name);
}

static dlp_status link_graph(linker *L, dlp__raw_graph *rg, int scope, int owner);

/* A name of a node not yet linked: where it is in the file, its length
 * (up to a NUL) and hash. */
typedef struct {
    const char *p;
    size_t n;
    uint32_t h;
} name_ref;

#define NAME_REFS 16

/* Name k of nd (its inputs, then its outputs; offsets, not yet linked). */
static name_ref node_name(const rd *R, const dlp__node *nd, int k) {
    uint32_t off = k < nd->n_in ? ~(uint32_t)nd->in[k] : (uint32_t)nd->out[k - nd->n_in];
    name_ref r;
    r.p = name_at(R, R->base + off, &r.n);
    r.h = (uint32_t)dlp__hash_n(r.p, r.n);
    return r;
}

/* The first NAME_REFS names of nd, found and hashed, and their slots of
 * index x prefetched: done a node ahead of linking nd, so that the probes
 * (random places in a few hundred KB) wait less for memory. */
static int node_names_ahead(const rd *R, const name_index *x, const dlp__node *nd, name_ref *r) {
    int k = 0;
    for (; k < nd->n_in + nd->n_out && k < NAME_REFS; k++) {
        r[k] = node_name(R, nd, k);
        __builtin_prefetch(&x->s[r[k].h & (x->cap - 1)]);
    }
    return k;
}

/* Link nd's names in pass A (r: the first nr of them, see node_names_ahead):
 * omitted inputs to -1, inputs already in this scope's map to their value
 * (the rest keep their ~offset for pass B, which also looks in outer
 * scopes: a name found there could be shadowed by a later node of this
 * scope; *left counts them), then every output a new value. */
static dlp_status link_node_names(linker *L, name_index *map, int scope, dlp__node *nd, const name_ref *r, int nr,
                                  int *left) {
    rd *R = L->R;
    dlp_graph *g = R->g;
    for (int j = 0; j < nd->n_in; j++) {
        name_ref x = j < nr ? r[j] : node_name(R, nd, j);
        if (!x.n) {
            nd->in[j] = -1;
            continue;
        }
        uint32_t slot;
        if (nix_find(map, g, x.p, x.n, x.h, &slot)) nd->in[j] = map->s[slot].vid1 - 1;
        else ++*left;
    }
    for (int o = 0; o < nd->n_out; o++) {
        name_ref x = nd->n_in + o < nr ? r[nd->n_in + o] : node_name(R, nd, nd->n_in + o);
        if (!x.n) {
            nd->out[o] = -1;
            continue;
        }
        uint32_t slot;
        if (nix_reserve(map)) return oom(R);
        if (nix_find(map, g, x.p, x.n, x.h, &slot))
            return dlp__err(R->err, DLP_EGRAPH, "%s: duplicate name: node '%s' output '%.*s' is already defined",
                            R->file, nd->name, (int)x.n, x.p);
        const char *vname = dlp__arena_strndup(&g->arena, x.p, x.n);
        int v;
        if (!vname || (v = dlp__graph_add_value_ref(g, vname, 0, -1, NULL)) < 0) return oom(R);
        nix_set(map, slot, x.h, v);
        g->values[v].scope = scope;
        g->values[v].shape_set = 0;
        nd->out[o] = v;
    }
    return DLP_OK;
}

static dlp_status link_graph(linker *L, dlp__raw_graph *rg, int scope, int owner) {
    rd *R = L->R;
    dlp_graph *g = R->g;
    name_index *map = &L->maps[scope];
    dlp_status st;
    int main_graph = scope == 0;
    /* initializers */
    for (int i = 0; i < rg->n_init; i++) {
        dlp__tproto *t = &rg->inits[i];
        if (!t->name[0]) continue;
        uint32_t h, slot;
        int v, had = nix_probe(map, g, t->name, strlen(t->name), &h, &slot, &v);
        if (had < 0) return oom(R);
        if (had) return dup_name(L, "initializer", t->name);
        if ((v = dlp__graph_add_value_ref(g, t->name, t->dtype, t->rank, t->dims)) < 0) return oom(R);
        nix_set(map, slot, h, v);
        g->values[v].is_init = 1;
        g->values[v].init = t;
        g->values[v].scope = scope;
        if (decode_small(g, &g->values[v])) return oom(R);
    }
    /* inputs (old exporters list initializers here too: the initializer wins) */
    int *sin = dlp__arena_alloc(&g->arena, sizeof(int) * (size_t)(rg->n_input + 1));
    int n_sin = 0;
    if (!sin) return oom(R);
    for (int i = 0; i < rg->n_input; i++) {
        raw_vi *vi = &rg->inputs[i];
        int v = nix_get(map, g, vi->name);
        if (v >= 0 && g->values[v].is_init) {
            if (!main_graph) sin[n_sin++] = v;
            continue;
        }
        if (v >= 0) return dup_name(L, "graph input", vi->name);
        int64_t dims[MAX_DIMS];
        if (vi->rank >= 0 && (st = bind_input_dims(L, vi, dims, main_graph))) return st;
        v = dlp__graph_add_value(g, vi->name, vi->elem_type, vi->rank, dims);
        if (v < 0) return oom(R);
        dlp__value *x = &g->values[v];
        x->scope = scope;
        if (main_graph) {
            if (dlp__graph_mark_input(g, v)) return oom(R);
        } else {
            x->is_sub_input = 1;
            set_declared(L, x, vi);
            x->rank = -1; /* bound when the owner runs (its row's bind) */
            x->dims = NULL;
            x->shape_set = 0;
            sin[n_sin++] = v;
        }
        uint32_t h, slot;
        int had, old;
        if ((had = nix_probe(map, g, x->name, strlen(x->name), &h, &slot, &old)) < 0) return oom(R);
        if (!had) nix_set(map, slot, h, v); /* absent: nix_get found no value of this name above */
    }
    g->scopes[scope].inputs = sin;
    g->scopes[scope].n_inputs = n_sin;
    /* pass A: each node's inputs that are defined by then in this scope
     * (the names just created, still in the cache: most of them), then
     * its outputs */
    int first_node = g->n_nodes, left = 0;
    name_ref refs[2][NAME_REFS];
    int n_refs[2] = {0, 0};
    if (rg->n_node) n_refs[0] = node_names_ahead(R, map, &rg->nodes[0], refs[0]);
    for (int i = 0; i < rg->n_node; i++) {
        int nid;
        if (rg->in_graph) { /* read in place (main graph: first_node 0) */
            nid = i;
            g->n_nodes = i + 1;
        } else { /* a subgraph's nodes follow every node linked so far */
            if (dlp__graph_grow_nodes(g)) return oom(R);
            nid = g->n_nodes++;
            g->nodes[nid] = rg->nodes[i];
        }
        /* the next node's names: rg->nodes[i + 1] shares its in/out lists
         * with the copy a subgraph's node gets */
        if (i + 1 < rg->n_node) n_refs[(i + 1) & 1] = node_names_ahead(R, map, &rg->nodes[i + 1], refs[(i + 1) & 1]);
        dlp__node *nd = &g->nodes[nid];
        if (nd->name == no_name) {
            char nm[64];
            snprintf(nm, sizeof nm, "%s_%d", nd->op_type, nid);
            if (!(nd->name = dlp__arena_strdup(&g->arena, nm))) return oom(R);
        }
        nd->parent = owner;
        nd->scope = scope;
        if ((st = link_node_names(L, map, scope, nd, refs[i & 1], n_refs[i & 1], &left))) return st;
    }
    /* value_info: declared shapes */
    for (int i = 0; i < rg->n_vi; i++) {
        int v = nix_get(map, g, rg->vi[i].name);
        if (v >= 0 && g->values[v].producer == -1 && !g->values[v].is_init) set_declared(L, &g->values[v], &rg->vi[i]);
    }
    /* pass B: the inputs left (defined by a later node, or in an outer
     * scope; names are unique, so an input found in pass A is the one
     * found here), then subgraphs; nothing to do without either (an
     * exported graph in topological order, no control flow) */
    for (int i = 0; i < rg->n_node && (left || rg->has_sub); i++) {
        int nid = first_node + i;
        int n_in = g->nodes[nid].n_in, n_attr = g->nodes[nid].n_attr;
        for (int j = 0; j < n_in; j++) {
            dlp__node *nd = &g->nodes[nid];
            if (nd->in[j] >= -1) continue; /* linked, or omitted */
            size_t n;
            const char *p = name_at(R, R->base + (uint32_t)~nd->in[j], &n);
            int v = lookup_n(L, scope, p, n);
            if (v < 0)
                return dlp__err(R->err, DLP_EGRAPH,
                                "%s: node '%s' (%s) input '%.*s' is not produced by any node, input or initializer",
                                R->file, nd->name, nd->op_type, (int)n, p);
            nd->in[j] = v;
        }
        for (int a = 0; a < n_attr; a++) {
            dlp__attr *at = &g->nodes[nid].attr[a];
            if (!at->g) continue;
            int sc = -1;
            if ((st = new_scope(L, scope, nid, &sc))) return st;
            at->sub = sc;
            if ((st = link_graph(L, at->g, sc, nid))) return st;
            dlp__graph_warn(g, "node '%s' (%s): subgraph '%s' is read and costed once", g->nodes[nid].name,
                            g->nodes[nid].op_type, at->name);
        }
    }
    /* outputs */
    int *sout = dlp__arena_alloc(&g->arena, sizeof(int) * (size_t)(rg->n_output + 1));
    if (!sout) return oom(R);
    for (int i = 0; i < rg->n_output; i++) {
        int v = lookup(L, scope, rg->outputs[i].name);
        if (v < 0)
            return dlp__err(R->err, DLP_EGRAPH, "%s: graph output '%s' is not produced by any node, input or initializer",
                            R->file, rg->outputs[i].name);
        set_declared(L, &g->values[v], &rg->outputs[i]);
        sout[i] = v;
        if (main_graph && dlp__graph_mark_output(g, v)) return oom(R);
    }
    g->scopes[scope].outputs = sout;
    g->scopes[scope].n_outputs = rg->n_output;
    return DLP_OK;
}

/* ---- ModelProto (ir_version=1 producer_name=2 graph=7 opset_import=8) ---- */

static dlp_status read_model(rd *R, const uint8_t *buf, size_t len, dlp__raw_graph *rg) {
    pb r = {buf, buf + len};
    uint32_t f;
    int wt, k, have_graph = 0;
    dlp_graph *g = R->g;
    g->opset = 0;
    if (len == 0) return dlp__err(R->err, DLP_EFORMAT, "%s: empty file", R->file);
    /* nodes keep 31-bit offsets of their names until linked; a protobuf
     * message is at most 2 GiB */
    if (len > (size_t)INT32_MAX)
        return dlp__err(R->err, DLP_EFORMAT, "%s: %zu bytes: larger than an ONNX protobuf can be (2 GiB)", R->file, len);
    while ((k = pb_tag(&r, &f, &wt)) > 0) {
        pb s;
        uint64_t v;
        if (f == 1 && wt == WT_VARINT) {
            if (pb_varint(&r, &v)) return bad(R, "ModelProto.ir_version");
            g->ir_version = (int64_t)v;
        } else if (f == 8 && wt == WT_LEN) {
            if (pb_len(&r, &s)) return bad(R, "ModelProto.opset_import");
            const char *dom = "";
            int64_t ver = 0;
            uint32_t f2;
            int wt2, k2;
            while ((k2 = pb_tag(&s, &f2, &wt2)) > 0) {
                pb x;
                if (f2 == 1 && wt2 == WT_LEN) {
                    if (pb_len(&s, &x)) return bad(R, "OperatorSetIdProto.domain");
                    if (!(dom = str_of(R, &x))) return oom(R);
                } else if (f2 == 2 && wt2 == WT_VARINT) {
                    if (pb_varint(&s, &v)) return bad(R, "OperatorSetIdProto.version");
                    ver = (int64_t)v;
                } else if (pb_skip(&s, wt2)) {
                    return bad(R, "OperatorSetIdProto");
                }
            }
            if (k2 < 0) return bad(R, "OperatorSetIdProto");
            if (!dom[0] || !strcmp(dom, "ai.onnx")) g->opset = ver;
            else if (!strcmp(dom, "com.microsoft")) g->opset_ms = ver;
        } else if (f == 7 && wt == WT_LEN) {
            if (pb_len(&r, &s)) return bad(R, "ModelProto.graph");
            dlp_status st = read_graph(R, s, rg, 0);
            if (st) return st;
            have_graph = 1;
        } else if (pb_skip(&r, wt)) {
            return bad(R, "ModelProto");
        }
    }
    if (k < 0) return bad(R, "ModelProto");
    if (!have_graph) return dlp__err(R->err, DLP_EFORMAT, "%s: not an ONNX model (no graph)", R->file);
    if (g->opset == 0) {
        dlp__graph_warn(g, "no default-domain opset_import: assuming opset 7");
        g->opset = 7;
    } else if (g->opset < 7) {
        dlp__graph_warn(g, "opset %lld is older than 7: shapes follow opset 7 rules", (long long)g->opset);
    }
    return DLP_OK;
}

static dlp_status load_common(dlp_graph *g, const uint8_t *buf, size_t len, const char *path,
                              const dlp_load_opts *opts, dlp_error *err) {
    rd R = {.g = g, .file = path, .err = err, .base = buf, .end = buf + len};
    dlp__raw_graph rg;
    dlp_status st = read_model(&R, buf, len, &rg);
    if (st) return st;
    linker L = {&R, opts, NULL, 0, 0, 0};
    /* sized for the main graph's names, so it is not rehashed as it fills */
    int64_t names = (int64_t)rg.n_init + rg.n_input;
    for (int i = 0; i < rg.n_node; i++) names += rg.nodes[i].n_out;
    if (names < 64) names = 64;
    if (names > 1 << 24) names = 1 << 24;
    /* and the value array, from the arena like the node array (see
     * dlp_graph.values_in_arena), so that it is not copied as it grows */
    if (!g->cap_values) {
        g->values = dlp__arena_alloc_raw(&g->arena, sizeof *g->values * (size_t)names);
        if (!g->values) return oom(&R);
        g->values_in_arena = 1;
        g->cap_values = (int)names;
    }
    if (dlp__grow((void **)&L.maps, 0, &L.cap_maps, sizeof *L.maps) || nix_init(&L.maps[0], (uint32_t)names, &g->arena))
        return oom(&R);
    L.n_maps = 1;
    st = link_graph(&L, &rg, 0, -1);
    for (int i = 0; i < L.n_maps; i++) nix_free(&L.maps[i]);
    free(L.maps);
    if (st) return st;
    if (opts && opts->batch > 0 && g->batch > 0 && g->batch != opts->batch)
        dlp__graph_warn(g, "the batch dimension is fixed at %lld in the file; --batch %lld does not apply",
                        (long long)g->batch, (long long)opts->batch);
    /* a --seq that bound nothing (a CNN, or a file with a fixed length)
     * would be ignored silently: say so once (issue 25) */
    if (opts && opts->seq > 0 && !L.seq_used)
        dlp__graph_warn(g, "--seq %lld: the model has no symbolic sequence dimension; ignored", (long long)opts->seq);
    /* unused --dim names are worth a warning: a typo would go unnoticed */
    if (opts)
        for (int i = 0; i < opts->n_dims; i++)
            if (opts->dim_names && find_symbol(g, opts->dim_names[i]) < 0)
                dlp__graph_warn(g, "--dim %s: no input dimension has that name", opts->dim_names[i]);
    return dlp__graph_finalize(g, opts, err);
}

dlp_status dlp_graph_load_mem(const void *buf, size_t len, const char *name, const dlp_load_opts *opts,
                              dlp_graph **out, dlp_error *err) {
    *out = NULL;
    dlp_graph *g = dlp__graph_new(dlp__basename(name ? name : "model.onnx"));
    if (!g) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", name ? name : "model");
    g->path = dlp__arena_strdup(&g->arena, name ? name : "model.onnx");
    dlp_status st = load_common(g, buf, len, name ? name : "model.onnx", opts, err);
    if (st) {
        dlp_graph_free(g);
        return st;
    }
    *out = g;
    return DLP_OK;
}

dlp_status dlp_graph_load(const char *path, const dlp_load_opts *opts, dlp_graph **out, dlp_error *err) {
    *out = NULL;
    dlp_graph *g = dlp__graph_new(dlp__basename(path));
    if (!g) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", path);
    g->path = dlp__arena_strdup(&g->arena, path);
    dlp_status st = dlp__map_file(path, &g->map, err);
    /* the IR of an export without inline weights (names, shapes, the node
     * and value arrays, the name index) takes 2.5-3.5x its file: one block
     * of 4x up front (virtual memory; only what is used is touched) */
    if (!st) dlp__arena_hint(&g->arena, g->map.len < (16u << 20) ? 4 * g->map.len : 64u << 20);
    if (!st) st = load_common(g, g->map.data, g->map.len, path, opts, err);
    if (st) {
        dlp_graph_free(g);
        return st;
    }
    *out = g;
    return DLP_OK;
}
