/*
 * test_onnx.c — the ONNX reader on hand-encoded models: symbol binding,
 * initializers as inputs, inline vs external data, subgraphs, and every
 * kind of bad input (truncation, random bytes, wrong wire types, absurd or
 * negative dims, cycles, dangling inputs, duplicate names).  The encoder
 * below writes protobuf by the wire-format rules, independently of the
 * reader under test.
 */
#include <stdint.h>
#include <unistd.h>

#include "dlperf.h"
#include "tap.h"

/* ---- a minimal protobuf writer --------------------------------------- */

typedef struct {
    uint8_t *p;
    size_t n, cap;
} buf;

static void b_byte(buf *b, uint8_t c) {
    if (b->n == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 256;
        b->p = realloc(b->p, b->cap);
    }
    b->p[b->n++] = c;
}
static void b_varint(buf *b, uint64_t v) {
    while (v >= 0x80) {
        b_byte(b, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    b_byte(b, (uint8_t)v);
}
static void b_tag(buf *b, int f, int wt) { b_varint(b, ((uint64_t)f << 3) | (uint64_t)wt); }
static void b_int(buf *b, int f, int64_t v) {
    b_tag(b, f, 0);
    b_varint(b, (uint64_t)v);
}
static void b_bytes(buf *b, int f, const void *p, size_t n) {
    b_tag(b, f, 2);
    b_varint(b, n);
    for (size_t i = 0; i < n; i++) b_byte(b, ((const uint8_t *)p)[i]);
}
static void b_str(buf *b, int f, const char *s) { b_bytes(b, f, s, strlen(s)); }
static void b_msg(buf *b, int f, buf *m) {
    b_bytes(b, f, m->p, m->n);
    free(m->p);
    memset(m, 0, sizeof *m);
}

/* TensorProto with dims and optional int64 data (packed) */
static void tensor(buf *t, const char *name, int dtype, int rank, const int64_t *dims, int n_data,
                   const int64_t *data, int external) {
    buf d = {0};
    for (int i = 0; i < rank; i++) b_varint(&d, (uint64_t)dims[i]);
    if (rank) b_msg(t, 1, &d);
    b_int(t, 2, dtype);
    b_str(t, 8, name);
    if (n_data) {
        buf v = {0};
        for (int i = 0; i < n_data; i++) b_varint(&v, (uint64_t)data[i]);
        b_msg(t, 7, &v);
    }
    if (external) b_int(t, 14, 1);
}

/* ValueInfoProto: dims >= 0 are values, -1 uses the symbol name */
static void value_info(buf *vi, const char *name, int dtype, int rank, const int64_t *dims, const char **syms) {
    buf shape = {0}, tt = {0}, type = {0};
    for (int i = 0; i < rank; i++) {
        buf dim = {0};
        if (dims[i] >= 0) b_int(&dim, 1, dims[i]);
        else if (syms && syms[i]) b_str(&dim, 2, syms[i]);
        b_msg(&shape, 1, &dim);
    }
    b_int(&tt, 1, dtype);
    if (rank >= 0) b_msg(&tt, 2, &shape);
    b_msg(&type, 1, &tt);
    b_str(vi, 1, name);
    b_msg(vi, 2, &type);
}

static void node(buf *g, const char *name, const char *op, int nin, const char **in, int nout, const char **out,
                 buf *attrs /* already-encoded AttributeProto fields, may be NULL */) {
    buf n = {0};
    for (int i = 0; i < nin; i++) b_str(&n, 1, in[i]);
    for (int i = 0; i < nout; i++) b_str(&n, 2, out[i]);
    b_str(&n, 3, name);
    b_str(&n, 4, op);
    if (attrs && attrs->n) {
        for (size_t i = 0; i < attrs->n; i++) b_byte(&n, attrs->p[i]);
        free(attrs->p);
        memset(attrs, 0, sizeof *attrs);
    }
    b_msg(g, 1, &n);
}

static void attr_int(buf *a, const char *name, int64_t v) {
    buf m = {0};
    b_str(&m, 1, name);
    b_int(&m, 3, v);
    b_int(&m, 20, 2);
    b_msg(a, 5, &m);
}

static buf model(buf *graph, int opset) {
    buf m = {0}, os = {0};
    b_int(&m, 1, 8);
    b_str(&os, 1, "");
    b_int(&os, 2, opset);
    b_msg(&m, 8, &os);
    b_msg(&m, 7, graph);
    return m;
}

/* X (batch_size, 4) -> Relu -> Y ; W initializer used by Add */
static buf simple_model(int with_external_w, int w_as_input) {
    buf g = {0}, t = {0}, vi = {0};
    int64_t xd[2] = {-1, 4};
    const char *xs[2] = {"batch_size", NULL};
    int64_t wd[1] = {4};
    tensor(&t, "W", 1, 1, wd, 0, NULL, with_external_w);
    b_msg(&g, 5, &t);
    value_info(&vi, "X", 1, 2, xd, xs);
    b_msg(&g, 11, &vi);
    if (w_as_input) {
        value_info(&vi, "W", 1, 1, wd, NULL);
        b_msg(&g, 11, &vi);
    }
    const char *in1[2] = {"X", "W"}, *o1[1] = {"A"}, *in2[1] = {"A"}, *o2[1] = {"Y"};
    node(&g, "add", "Add", 2, in1, 1, o1, NULL);
    node(&g, "relu", "Relu", 1, in2, 1, o2, NULL);
    value_info(&vi, "Y", 1, 2, xd, xs);
    b_msg(&g, 12, &vi);
    b_str(&g, 2, "simple");
    return model(&g, 13);
}

static dlp_status load(buf *m, const dlp_load_opts *o, dlp_graph **g, dlp_error *e) {
    memset(e, 0, sizeof *e);
    return dlp_graph_load_mem(m->p, m->n, "t.onnx", o, g, e);
}

static void t_symbol_binding(void) {
    buf m = simple_model(0, 0);
    dlp_graph *g;
    dlp_error e;
    dlp_load_opts o = {0};
    /* unbound -> error naming the symbol */
    CHECK_I64(load(&m, &o, &g, &e), DLP_EUNBOUND);
    CHECK(strstr(e.msg, "batch_size") != NULL);
    CHECK(strstr(e.msg, "t.onnx") != NULL);
    /* --batch binds it */
    o.batch = 16;
    CHECK_I64(load(&m, &o, &g, &e), DLP_OK);
    dlp_graph_stats st;
    dlp_graph_stats_get(g, &st);
    CHECK_I64(st.nodes, 2);
    CHECK_I64(st.edges, 1);
    CHECK_I64(st.params, 4);
    CHECK_I64(st.shapes_known, 2);
    CHECK_I64(st.batch, 16);
    const char *nm;
    int64_t v;
    CHECK_I64(dlp_graph_symbol_count(g), 1);
    const dlp_symbol *sy = dlp_graph_symbol_at(g, 0);
    nm = sy->name;
    v = sy->value;
    CHECK_STR(nm, "batch_size");
    CHECK_I64(v, 16);
    /* indexed access: NULL (or -1) out of range, the same record twice;
     * two nodes, so 2 is past the end */
    CHECK(dlp_graph_symbol_at(g, 1) == NULL && dlp_graph_symbol_at(g, -1) == NULL);
    CHECK(dlp_graph_node_at(g, 2) == NULL && dlp_graph_node_at(g, -1) == NULL);
    CHECK(dlp_graph_node_at(g, 1) != NULL && dlp_graph_node_at(g, 1) == dlp_graph_node_at(g, 1));
    CHECK(dlp_graph_tensor_at(g, dlp_graph_tensor_count(g)) == NULL);
    CHECK(dlp_graph_warning_at(g, dlp_graph_warning_count(g)) == NULL);
    CHECK(dlp_graph_unknown_op_at(g, 0) == NULL);
    CHECK_I64(dlp_graph_output_at(g, dlp_graph_output_count(g)), -1);
    /* activations: A and Y, 16*4 floats each; peak = X + A live at node 0 = 2*256 B, then A + Y */
    CHECK_I64(st.activation_bytes, 2 * 16 * 4 * 4);
    CHECK_I64(st.peak_memory_bytes, 16 + 2 * 256);
    dlp_graph_free(g);
    /* --dim binds it by name */
    const char *names[1] = {"batch_size"};
    int64_t vals[1] = {3};
    dlp_load_opts o2 = {0};
    o2.n_dims = 1;
    o2.dim_names = names;
    o2.dim_values = vals;
    CHECK_I64(load(&m, &o2, &g, &e), DLP_OK);
    dlp_graph_stats_get(g, &st);
    CHECK_I64(st.batch, 3);
    dlp_graph_free(g);
    free(m.p);
}

static void t_initializer_as_input_and_external(void) {
    /* old exporters list initializers among graph inputs; external data
     * (no bytes present) must not matter */
    buf m = simple_model(1, 1);
    dlp_graph *g;
    dlp_error e;
    dlp_load_opts o = {.batch = 2};
    CHECK_I64(load(&m, &o, &g, &e), DLP_OK);
    if (g) {
        dlp_graph_stats st;
        dlp_graph_stats_get(g, &st);
        CHECK_I64(st.params, 4);
        CHECK_I64(st.shapes_known, 2);
        dlp_graph_free(g);
    }
    free(m.p);
}

static void t_truncations_never_crash(void) {
    buf m = simple_model(0, 0);
    dlp_load_opts o = {.batch = 1};
    int errors = 0;
    for (size_t len = 0; len < m.n; len++) {
        dlp_graph *g = NULL;
        dlp_error e = {0};
        dlp_status s = dlp_graph_load_mem(m.p, len, "trunc.onnx", &o, &g, &e);
        if (s != DLP_OK) {
            errors++;
            CHECK(g == NULL);
            CHECK(e.msg[0] != 0);
            CHECK(strchr(e.msg, '\n') == NULL);
        }
        dlp_graph_free(g);
    }
    /* almost every prefix is malformed; a prefix ending on a field boundary
     * may be a valid smaller model, which is fine */
    CHECK(errors > (int)m.n / 2);
    free(m.p);
}

static void t_random_bytes(void) {
    uint64_t s = 0x9e3779b97f4a7c15ULL;
    dlp_load_opts o = {.batch = 1, .allow_unbound = 1};
    for (int trial = 0; trial < 2000; trial++) {
        uint8_t b[256];
        size_t n = 1 + (size_t)(trial % 255);
        for (size_t i = 0; i < n; i++) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            b[i] = (uint8_t)s;
        }
        dlp_graph *g = NULL;
        dlp_error e = {0};
        dlp_status st = dlp_graph_load_mem(b, n, "rand.onnx", &o, &g, &e);
        CHECK(st == DLP_OK || (g == NULL && e.msg[0]));
        dlp_graph_free(g);
    }
}

static void t_wrong_wire_type(void) {
    /* graph field (7) sent as a varint */
    buf m = {0};
    b_int(&m, 1, 8);
    b_int(&m, 7, 5);
    dlp_graph *g;
    dlp_error e;
    CHECK(load(&m, NULL, &g, &e) != DLP_OK);
    CHECK(strstr(e.msg, "not an ONNX model") || strstr(e.msg, "malformed"));
    free(m.p);
    /* a length beyond the end */
    buf m2 = {0};
    b_tag(&m2, 7, 2);
    b_varint(&m2, 1000);
    b_byte(&m2, 0);
    CHECK_I64(load(&m2, NULL, &g, &e), DLP_EFORMAT);
    CHECK(strstr(e.msg, "t.onnx") != NULL);
    free(m2.p);
    /* empty file */
    buf m3 = {0};
    b_byte(&m3, 0);
    CHECK(dlp_graph_load_mem(m3.p, 0, "empty.onnx", NULL, &g, &e) == DLP_EFORMAT);
    free(m3.p);
}

static void t_negative_and_absurd_dims(void) {
    /* initializer with a negative dim */
    buf g = {0}, t = {0}, vi = {0};
    int64_t wd[1] = {-3};
    tensor(&t, "W", 1, 1, wd, 0, NULL, 0);
    b_msg(&g, 5, &t);
    int64_t xd[1] = {4};
    value_info(&vi, "X", 1, 1, xd, NULL);
    b_msg(&g, 11, &vi);
    const char *in[2] = {"X", "W"}, *out[1] = {"Y"};
    node(&g, "add", "Add", 2, in, 1, out, NULL);
    buf m = model(&g, 13);
    dlp_graph *gr;
    dlp_error e;
    CHECK_I64(load(&m, NULL, &gr, &e), DLP_EFORMAT);
    CHECK(strstr(e.msg, "negative") != NULL);
    free(m.p);
    /* dims whose product overflows int64 */
    buf g2 = {0}, t2 = {0}, vi2 = {0};
    int64_t big[3] = {(int64_t)1 << 40, (int64_t)1 << 40, 4};
    tensor(&t2, "W", 1, 3, big, 0, NULL, 0);
    b_msg(&g2, 5, &t2);
    value_info(&vi2, "X", 1, 3, big, NULL);
    b_msg(&g2, 11, &vi2);
    node(&g2, "add", "Add", 2, in, 1, out, NULL);
    buf m2 = model(&g2, 13);
    dlp_status st = load(&m2, NULL, &gr, &e);
    CHECK(st == DLP_ESHAPE || st == DLP_EFORMAT);
    CHECK(strstr(e.msg, "2^63") != NULL || strstr(e.msg, "overflow") != NULL);
    if (!st) dlp_graph_free(gr);
    free(m2.p);
}

static void t_cycle_dangling_duplicate(void) {
    int64_t xd[1] = {4};
    dlp_graph *gr;
    dlp_error e;
    /* cycle: A = Relu(B), B = Relu(A) */
    {
        buf g = {0}, vi = {0};
        value_info(&vi, "X", 1, 1, xd, NULL);
        b_msg(&g, 11, &vi);
        const char *i1[1] = {"B"}, *o1[1] = {"A"}, *i2[1] = {"A"}, *o2[1] = {"B"};
        node(&g, "n1", "Relu", 1, i1, 1, o1, NULL);
        node(&g, "n2", "Relu", 1, i2, 1, o2, NULL);
        buf m = model(&g, 13);
        CHECK_I64(load(&m, NULL, &gr, &e), DLP_EGRAPH);
        CHECK(strstr(e.msg, "cycle") != NULL);
        CHECK(strstr(e.msg, "'n1'") || strstr(e.msg, "'n2'"));
        free(m.p);
    }
    /* dangling input / missing initializer */
    {
        buf g = {0}, vi = {0};
        value_info(&vi, "X", 1, 1, xd, NULL);
        b_msg(&g, 11, &vi);
        const char *i1[2] = {"X", "W_missing"}, *o1[1] = {"Y"};
        node(&g, "conv_7", "Add", 2, i1, 1, o1, NULL);
        buf m = model(&g, 13);
        CHECK_I64(load(&m, NULL, &gr, &e), DLP_EGRAPH);
        CHECK(strstr(e.msg, "conv_7") && strstr(e.msg, "W_missing"));
        free(m.p);
    }
    /* duplicate output name */
    {
        buf g = {0}, vi = {0};
        value_info(&vi, "X", 1, 1, xd, NULL);
        b_msg(&g, 11, &vi);
        const char *i1[1] = {"X"}, *o1[1] = {"Y"};
        node(&g, "a", "Relu", 1, i1, 1, o1, NULL);
        node(&g, "b", "Relu", 1, i1, 1, o1, NULL);
        buf m = model(&g, 13);
        CHECK_I64(load(&m, NULL, &gr, &e), DLP_EGRAPH);
        CHECK(strstr(e.msg, "duplicate") && strstr(e.msg, "'b'") && strstr(e.msg, "'Y'"));
        free(m.p);
    }
}

static void t_unknown_op_keeps_graph(void) {
    int64_t xd[2] = {2, 3};
    buf g = {0}, vi = {0}, a = {0};
    value_info(&vi, "X", 1, 2, xd, NULL);
    b_msg(&g, 11, &vi);
    const char *i1[1] = {"X"}, *o1[1] = {"A"}, *i2[1] = {"A"}, *o2[1] = {"B"};
    attr_int(&a, "whatever", 3);
    node(&g, "mystery", "TotallyCustomOp", 1, i1, 1, o1, &a);
    node(&g, "relu", "Relu", 1, i2, 1, o2, NULL);
    buf m = model(&g, 13);
    dlp_graph *gr;
    dlp_error e;
    CHECK_I64(load(&m, NULL, &gr, &e), DLP_OK);
    if (gr) {
        CHECK_I64(dlp_graph_unknown_op_count(gr), 1);
        CHECK_STR(dlp_graph_unknown_op_at(gr, 0), "TotallyCustomOp");
        dlp_graph_stats st;
        dlp_graph_stats_get(gr, &st);
        CHECK_I64(st.node_outputs, 2);
        CHECK_I64(st.shapes_known, 0);
        dlp_graph_free(gr);
    }
    free(m.p);
}

static void t_file_errors(void) {
    dlp_graph *g;
    dlp_error e = {0};
    CHECK_I64(dlp_graph_load("/nonexistent/dir/m.onnx", NULL, &g, &e), DLP_EIO);
    CHECK(strstr(e.msg, "/nonexistent/dir/m.onnx") != NULL);
    CHECK_I64(dlp_graph_load("/tmp", NULL, &g, &e), DLP_EIO);
}

static void t_subgraph_if(void) {
    /* If(cond) { then: Relu(X) } else { Neg(X) } — both branches read the
     * outer X; the If output takes their shape */
    int64_t xd[2] = {2, 5};
    buf g = {0}, vi = {0}, ct = {0};
    value_info(&vi, "X", 1, 2, xd, NULL);
    b_msg(&g, 11, &vi);
    int64_t one = 1;
    tensor(&ct, "cond", 9, 0, NULL, 1, &one, 0);
    b_msg(&g, 5, &ct);
    buf thenb = {0}, elseb = {0};
    const char *bi[1] = {"X"}, *to[1] = {"T"}, *eo[1] = {"E"};
    node(&thenb, "t_relu", "Relu", 1, bi, 1, to, NULL);
    value_info(&vi, "T", 1, -1, NULL, NULL);
    b_msg(&thenb, 12, &vi);
    node(&elseb, "e_neg", "Neg", 1, bi, 1, eo, NULL);
    value_info(&vi, "E", 1, -1, NULL, NULL);
    b_msg(&elseb, 12, &vi);
    buf attrs = {0}, at = {0}, ae = {0};
    b_str(&at, 1, "then_branch");
    b_msg(&at, 6, &thenb);
    b_int(&at, 20, 5);
    b_msg(&attrs, 5, &at);
    b_str(&ae, 1, "else_branch");
    b_msg(&ae, 6, &elseb);
    b_int(&ae, 20, 5);
    b_msg(&attrs, 5, &ae);
    const char *ii[1] = {"cond"}, *io[1] = {"Y"};
    node(&g, "if0", "If", 1, ii, 1, io, &attrs);
    value_info(&vi, "Y", 1, -1, NULL, NULL);
    b_msg(&g, 12, &vi);
    buf m = model(&g, 13);
    dlp_graph *gr;
    dlp_error e;
    CHECK_I64(load(&m, NULL, &gr, &e), DLP_OK);
    if (gr) {
        dlp_graph_stats st;
        dlp_graph_stats_get(gr, &st);
        CHECK_I64(st.nodes, 3);           /* If + one node per branch */
        CHECK(dlp_graph_warning_count(gr) >= 1);
        /* the If node comes after its branches in topological order */
        dlp_node_info ni;
        ni = *dlp_graph_node_at(gr, 2);
        CHECK_STR(ni.op_type, "If");
        dlp_graph_free(gr);
    }
    free(m.p);
}

/* issue 16 #8: a one-node cycle, an integer division by zero and
 * INT64_MIN / -1 in shape arithmetic are refused, naming the node */
static buf shape_div_model(int64_t num, int64_t den, const char *op) {
    /* X (1, 6) float; Q = op(N, D) on int64 constants; Y = Reshape(X, Concat(Q, [-1])) */
    buf g = {0}, vi = {0}, t = {0};
    int64_t xd[2] = {1, 6}, one[1] = {1}, minus1 = -1;
    value_info(&vi, "X", 1, 2, xd, NULL);
    b_msg(&g, 11, &vi);
    tensor(&t, "N", 7, 1, one, 1, &num, 0);
    b_msg(&g, 5, &t);
    tensor(&t, "D", 7, 1, one, 1, &den, 0);
    b_msg(&g, 5, &t);
    tensor(&t, "M1", 7, 1, one, 1, &minus1, 0);
    b_msg(&g, 5, &t);
    const char *i1[2] = {"N", "D"}, *o1[1] = {"Q"};
    node(&g, "shape_div", op, 2, i1, 1, o1, NULL);
    buf at = {0};
    attr_int(&at, "axis", 0);
    const char *i2[2] = {"Q", "M1"}, *o2[1] = {"S"};
    node(&g, "cat", "Concat", 2, i2, 1, o2, &at);
    const char *i3[2] = {"X", "S"}, *o3[1] = {"Y"};
    node(&g, "reshape", "Reshape", 2, i3, 1, o3, NULL);
    value_info(&vi, "Y", 1, -1, NULL, NULL);
    b_msg(&g, 12, &vi);
    return model(&g, 13);
}

static void t_self_cycle_and_shape_arith(void) {
    dlp_graph *gr = NULL;
    dlp_error e;
    {   /* Y = Relu(Y): a one-node cycle */
        int64_t xd[1] = {4};
        buf g = {0}, vi = {0};
        value_info(&vi, "X", 1, 1, xd, NULL);
        b_msg(&g, 11, &vi);
        const char *i1[1] = {"Y"}, *o1[1] = {"Y"};
        node(&g, "self_loop", "Relu", 1, i1, 1, o1, NULL);
        value_info(&vi, "Y", 1, 1, xd, NULL);
        b_msg(&g, 12, &vi);
        buf m = model(&g, 13);
        dlp_status st = load(&m, NULL, &gr, &e);
        CHECK_I64(st, DLP_EGRAPH);
        CHECK(strstr(e.msg, "'self_loop'") && strstr(e.msg, "cycle"));
        if (!st) dlp_graph_free(gr);
        free(m.p);
    }
    {   /* the sane case still loads: 6 / 2 = 3 -> Y (3, 2) */
        buf m = shape_div_model(6, 2, "Div");
        dlp_status st = load(&m, NULL, &gr, &e);
        CHECK_I64(st, DLP_OK);
        if (!st) {
            dlp_tensor_info ti;
            dlp_node_info ni;
            ni = *dlp_graph_node_at(gr, dlp_graph_node_count(gr) - 1);
            ti = *dlp_graph_tensor_at(gr, ni.outputs[0]);
            CHECK_I64(ti.rank, 2);
            CHECK(ti.rank == 2 && ti.dims[0] == 3 && ti.dims[1] == 2);
            dlp_graph_free(gr);
        }
        free(m.p);
    }
    const struct { int64_t n, d; const char *op, *want; } bad[] = {
        {6, 0, "Div", "division by zero"},
        {6, 0, "Mod", "by zero"},
        {INT64_MIN, -1, "Div", "overflow"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        buf m = shape_div_model(bad[k].n, bad[k].d, bad[k].op);
        gr = NULL;
        dlp_status st = load(&m, NULL, &gr, &e);
        CHECK_I64(st, DLP_ESHAPE);
        CHECK(strstr(e.msg, "'shape_div'") != NULL);
        CHECK(strstr(e.msg, bad[k].want) != NULL);
        if (st) fprintf(stderr, "# %s %lld/%lld: %s\n", bad[k].op, (long long)bad[k].n, (long long)bad[k].d, e.msg);
        if (!st) {
            dlp_node_info ni;
            dlp_tensor_info ti;
            ni = *dlp_graph_node_at(gr, dlp_graph_node_count(gr) - 1);
            ti = *dlp_graph_tensor_at(gr, ni.outputs[0]);
            fprintf(stderr, "# accepted %s %lld/%lld: Y rank %d dims[0] %lld\n", bad[k].op, (long long)bad[k].n,
                    (long long)bad[k].d, ti.rank, ti.rank > 0 ? (long long)ti.dims[0] : 0LL);
            dlp_graph_free(gr);
        }
        free(m.p);
    }
}

int main(void) {
    RUN(t_symbol_binding);
    RUN(t_initializer_as_input_and_external);
    RUN(t_truncations_never_crash);
    RUN(t_random_bytes);
    RUN(t_wrong_wire_type);
    RUN(t_negative_and_absurd_dims);
    RUN(t_cycle_dangling_duplicate);
    RUN(t_unknown_op_keeps_graph);
    RUN(t_file_errors);
    RUN(t_subgraph_if);
    RUN(t_self_cycle_and_shape_arith);
    return TAP_DONE();
}
