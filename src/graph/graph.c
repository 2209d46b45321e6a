/*
 * graph.c — building the IR, and finalize: edges, topological order, shape
 * inference, costs, liveness and totals; the public graph queries.
 *
 * Every input format ends here: the ONNX linker and the graph builders add
 * values and nodes, then call dlp__graph_finalize once.  Nothing here knows
 * about a particular op; rules live in ops_*.c, and the helpers they use in
 * ir.c (below both, so that the driver calls the rules and never the other
 * way round).
 */
#include "graph/graph.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/ops.h"

/* ---- construction ------------------------------------------------------ */

dlp_graph *dlp__graph_new(const char *name) {
    dlp_graph *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->name = dlp__arena_strdup(&g->arena, name ? name : "graph");
    g->path = g->name;
    g->opset = 17;
    if (!g->name) {
        free(g);
        return NULL;
    }
    /* scope 0: the main graph */
    if (dlp__grow((void **)&g->scopes, g->n_scopes, &g->cap_scopes, sizeof *g->scopes)) {
        dlp_graph_free(g);
        return NULL;
    }
    memset(&g->scopes[0], 0, sizeof g->scopes[0]);
    g->scopes[0].owner = -1;
    g->scopes[0].parent_scope = -1;
    g->n_scopes = 1;
    return g;
}

void dlp_graph_free(dlp_graph *g) {
    if (!g) return;
    if (!g->nodes_in_arena) free(g->nodes);
    if (!g->values_in_arena) free(g->values);
    free(g->scopes);
    free(g->inputs);
    free(g->outputs);
    free(g->sym_names);
    free(g->sym_values);
    free(g->warnings);
    free(g->unknown_ops);
    free(atomic_load(&g->pub_nodes));
    free(atomic_load(&g->pub_tensors));
    free(atomic_load(&g->pub_symbols));
    dlp__unmap_file(&g->map);
    dlp__arena_free(&g->arena);
    free(g);
}

/* dlp__grow for an array that may live in the arena (*in_arena): there it
 * is copied to the heap when full, since the arena cannot realloc. */
static int grow_maybe_arena(void **p, int n, int *cap, size_t elem, uint8_t *in_arena) {
    if (!*in_arena) return dlp__grow(p, n, cap, elem);
    if (n < *cap) return 0;
    int nc = *cap ? *cap * 2 : 8;
    if (nc <= n) nc = n + 1;
    void *q = malloc((size_t)nc * elem);
    if (!q) return -1;
    if (n) memcpy(q, *p, (size_t)n * elem);
    *p = q;
    *cap = nc;
    *in_arena = 0;
    return 0;
}

int dlp__graph_grow_nodes(dlp_graph *g) {
    return grow_maybe_arena((void **)&g->nodes, g->n_nodes, &g->cap_nodes, sizeof *g->nodes, &g->nodes_in_arena);
}

int dlp__graph_grow_values(dlp_graph *g) {
    return grow_maybe_arena((void **)&g->values, g->n_values, &g->cap_values, sizeof *g->values, &g->values_in_arena);
}

int dlp__graph_add_value(dlp_graph *g, const char *name, int dtype, int rank,
                         const int64_t *dims) {
    const char *copy = dlp__arena_strdup(&g->arena, name);
    return copy ? dlp__graph_add_value_ref(g, copy, dtype, rank, dims) : -1;
}

int dlp__graph_add_value_ref(dlp_graph *g, const char *name, int dtype, int rank, const int64_t *dims) {
    if (dlp__graph_grow_values(g)) return -1;
    dlp__value *v = &g->values[g->n_values];
    memset(v, 0, sizeof *v);
    v->name = name;
    v->dtype = dtype;
    v->rank = rank;
    v->producer = -1;
    v->nval = -1;
    v->decl_rank = -1;
    if (!v->name) return -1;
    if (rank > 0) {
        v->dims = dlp__arena_memdup(&g->arena, dims, sizeof(int64_t) * (size_t)rank);
        if (!v->dims) return -1;
    }
    if (rank >= 0) v->shape_set = 1;
    return g->n_values++;
}

int dlp__graph_add_node(dlp_graph *g, const char *name, const char *op_type,
                        const char *domain, int n_in, const int *in, int n_out,
                        const int *out) {
    if (dlp__graph_grow_nodes(g)) return -1;
    dlp__node *n = &g->nodes[g->n_nodes];
    memset(n, 0, sizeof *n);
    n->name = dlp__arena_strdup(&g->arena, name);
    n->op_type = dlp__arena_strdup(&g->arena, op_type);
    n->domain = dlp__arena_strdup(&g->arena, domain ? domain : "");
    n->n_in = n_in;
    n->n_out = n_out;
    n->in = dlp__arena_alloc(&g->arena, sizeof(int) * (size_t)(n_in + 1));
    n->out = dlp__arena_alloc(&g->arena, sizeof(int) * (size_t)(n_out + 1));
    n->parent = -1;
    n->op = -1;
    if (!n->name || !n->op_type || !n->domain || !n->in || !n->out) return -1;
    if (n_in) memcpy(n->in, in, sizeof(int) * (size_t)n_in);
    if (n_out) memcpy(n->out, out, sizeof(int) * (size_t)n_out);
    return g->n_nodes++;
}

int dlp__graph_add_node_ref(dlp_graph *g, const char *name, const char *op_type, const char *domain) {
    if (dlp__graph_grow_nodes(g)) return -1;
    dlp__node *n = &g->nodes[g->n_nodes];
    memset(n, 0, sizeof *n);
    n->name = name;
    n->op_type = op_type;
    n->domain = domain ? domain : "";
    n->parent = -1;
    n->op = -1;
    return g->n_nodes++;
}

static dlp__attr *node_new_attr(dlp_graph *g, int node, const char *name, int type) {
    dlp__node *n = &g->nodes[node];
    dlp__attr *a = dlp__arena_alloc(&g->arena, sizeof *a * (size_t)(n->n_attr + 1));
    if (!a) return NULL;
    if (n->n_attr) memcpy(a, n->attr, sizeof *a * (size_t)n->n_attr);
    n->attr = a;
    dlp__attr *r = &a[n->n_attr++];
    memset(r, 0, sizeof *r);
    r->name = dlp__arena_strdup(&g->arena, name);
    r->type = type;
    r->sub = -1;
    return r->name ? r : NULL;
}

int dlp__node_set_int(dlp_graph *g, int node, const char *name, int64_t v) {
    dlp__attr *a = node_new_attr(g, node, name, DLP_AT_INT);
    if (!a) return -1;
    a->i = v;
    return 0;
}

int dlp__node_set_float(dlp_graph *g, int node, const char *name, double v) {
    dlp__attr *a = node_new_attr(g, node, name, DLP_AT_FLOAT);
    if (!a) return -1;
    a->f = v;
    return 0;
}

int dlp__node_set_ints(dlp_graph *g, int node, const char *name, int n, const int64_t *v) {
    dlp__attr *a = node_new_attr(g, node, name, DLP_AT_INTS);
    if (!a) return -1;
    a->n = n;
    a->ints = dlp__arena_memdup(&g->arena, v, sizeof(int64_t) * (size_t)(n ? n : 1));
    return a->ints ? 0 : -1;
}

int dlp__node_set_string(dlp_graph *g, int node, const char *name, const char *s) {
    dlp__attr *a = node_new_attr(g, node, name, DLP_AT_STRING);
    if (!a) return -1;
    a->s = dlp__arena_strdup(&g->arena, s);
    return a->s ? 0 : -1;
}

int dlp__graph_add_weight(dlp_graph *g, const char *name, int dtype, int rank,
                          const int64_t *dims) {
    int v = dlp__graph_add_value(g, name, dtype, rank, dims);
    if (v < 0) return -1;
    g->values[v].is_init = 1;
    return v;
}

int dlp__graph_add_const_ints(dlp_graph *g, const char *name, int rank,
                              const int64_t *dims, const int64_t *vals) {
    int v = dlp__graph_add_value(g, name, DLP_DT_INT64, rank, dims);
    if (v < 0) return -1;
    dlp__value *x = &g->values[v];
    x->is_init = 1;
    int64_t n = dlp__numel(x);
    if (n < 0) return -1;
    x->ival = dlp__arena_memdup(&g->arena, vals, sizeof(int64_t) * (size_t)(n ? n : 1));
    if (!x->ival) return -1;
    x->nval = n;
    return v;
}

static int push_int(int **arr, int *n, int *cap, int v) {
    if (dlp__grow((void **)arr, *n, cap, sizeof(int))) return -1;
    (*arr)[(*n)++] = v;
    return 0;
}

int dlp__graph_mark_input(dlp_graph *g, int value) {
    int cap = g->n_inputs; /* arrays grow by exact size: small */
    g->values[value].is_input = 1;
    return push_int(&g->inputs, &g->n_inputs, &cap, value);
}

int dlp__graph_mark_output(dlp_graph *g, int value) {
    int cap = g->n_outputs;
    g->values[value].is_output = 1;
    return push_int(&g->outputs, &g->n_outputs, &cap, value);
}

void dlp__graph_warn(dlp_graph *g, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (g->n_warnings >= 1000) return; /* keep pathological files bounded */
    if (dlp__grow((void **)&g->warnings, g->n_warnings, &g->cap_warnings, sizeof(char *))) return;
    const char *s = dlp__arena_strdup(&g->arena, buf);
    if (s) g->warnings[g->n_warnings++] = s;
}

/* ---- finalize: edges, order, shapes, costs ----------------------------- */

/* The edge lists finalize builds, each kind packed in one block: node i's
 * preds are a slice of pred_all (n_edges used, in node order), its succs
 * the slice [succ_off[i], succ_off[i+1]) of succ_all, a value's consumers
 * a slice of cons_all (n_cons_all, in value order).  Kept beside the
 * nodes so that counting, Kahn's algorithm and renumbering sweep these
 * small arrays instead of visiting every 152-byte node record again. */
typedef struct {
    int *pred_all, *succ_all, *cons_all;
    size_t n_cons_all;
    int *n_pred;              /* per node (malloc) */
    int *succ_off;            /* n + 1 (malloc) */
    int nested;               /* some node has a parent (subgraphs) */
} edges;

static void edges_free(edges *E) {
    free(E->n_pred);
    free(E->succ_off);
}

static dlp_status oom_g(const dlp_graph *g, dlp_error *err) {
    return dlp__err(err, DLP_ENOMEM, "%s: out of memory", g->name);
}

/* Node i's distinct preds (producers of its inputs, plus the producers of
 * its subgraphs' outputs) into out; counts every input into ccnt (its
 * value's consumers).  -1: i reads its own output (error set). */
static int node_preds(dlp_graph *g, int i, int *mark, int *out, int *ccnt, dlp_error *err) {
    const dlp__node *nd = &g->nodes[i];
    int k = 0;
    for (int j = 0; j < nd->n_in; j++) {
        if (nd->in[j] < 0) continue;
        ccnt[nd->in[j]]++;
        int p = g->values[nd->in[j]].producer;
        if (p == i) { /* Y = Relu(Y): Kahn's algorithm never sees a self edge */
            dlp__err(err, DLP_EGRAPH, "%s: node '%s' (%s) is on a cycle: it reads its own output '%s'", g->name,
                     nd->name, nd->op_type, g->values[nd->in[j]].name);
            return -1;
        }
        if (p >= 0 && mark[p] != i) {
            mark[p] = i;
            out[k++] = p;
        }
    }
    /* subgraph outputs feed the owner (only scope 0: no subgraph) */
    for (int a = 0; a < nd->n_attr && g->n_scopes > 1; a++) {
        int s = nd->attr[a].sub;
        if (s < 0) continue;
        for (int o = 0; o < g->scopes[s].n_outputs; o++) {
            int p = g->values[g->scopes[s].outputs[o]].producer;
            if (p >= 0 && p != i && mark[p] != i) {
                mark[p] = i;
                out[k++] = p;
            }
        }
    }
    return k;
}

/* Pred, succ and consumer lists in two passes over the nodes: preds (and
 * the succ and consumer counts) first, then every node's succ slice and
 * the consumer lists.  bound: the most preds all nodes can have (their
 * inputs plus their subgraphs' outputs). */
static dlp_status build_edges(dlp_graph *g, edges *E, size_t bound, dlp_error *err) {
    int n = g->n_nodes, nv = g->n_values;
    int *mark = malloc(sizeof(int) * (size_t)(n ? n : 1));
    int *scnt = calloc((size_t)n + 1, sizeof(int));
    int *ccnt = calloc((size_t)(nv ? nv : 1), sizeof(int));
    E->n_pred = malloc(sizeof(int) * (size_t)(n ? n : 1));
    E->succ_off = malloc(sizeof(int) * ((size_t)n + 1));
    E->pred_all = dlp__arena_alloc_raw(&g->arena, sizeof(int) * (bound + 1));
    dlp_status st = DLP_OK;
    if (!mark || !scnt || !ccnt || !E->n_pred || !E->succ_off || !E->pred_all) {
        st = oom_g(g, err);
        goto out;
    }
    for (int i = 0; i < n; i++) mark[i] = -1;
    g->n_edges = 0;
    int *pb = E->pred_all;
    for (int i = 0; i < n; i++) {
        int k = node_preds(g, i, mark, pb, ccnt, err);
        if (k < 0) {
            st = DLP_EGRAPH;
            goto out;
        }
        for (int q = 0; q < k; q++) scnt[pb[q]]++;
        dlp__node *nd = &g->nodes[i];
        nd->n_pred = E->n_pred[i] = k;
        nd->pred = pb;
        pb += k;
        g->n_edges += k;
    }
    /* slices: succ_off by prefix sums, then scnt and ccnt become the next
     * free position of each list */
    E->succ_off[0] = 0;
    for (int i = 0; i < n; i++) E->succ_off[i + 1] = E->succ_off[i] + scnt[i];
    size_t nc = 0;
    for (int v = 0; v < nv; v++) {
        int c = ccnt[v];
        ccnt[v] = (int)nc;
        nc += (size_t)c;
    }
    E->n_cons_all = nc;
    E->succ_all = dlp__arena_alloc_raw(&g->arena, sizeof(int) * (size_t)(g->n_edges + 1));
    E->cons_all = dlp__arena_alloc_raw(&g->arena, sizeof(int) * (nc + 1));
    if (!E->succ_all || !E->cons_all) {
        st = oom_g(g, err);
        goto out;
    }
    memcpy(scnt, E->succ_off, sizeof(int) * (size_t)n);
    /* succ lists hold i in increasing order, as do consumer lists */
    pb = E->pred_all;
    for (int i = 0; i < n; i++) {
        dlp__node *nd = &g->nodes[i];
        for (int q = 0; q < nd->n_pred; q++) E->succ_all[scnt[pb[q]]++] = i;
        pb += nd->n_pred;
        for (int j = 0; j < nd->n_in; j++)
            if (nd->in[j] >= 0) E->cons_all[ccnt[nd->in[j]]++] = i;
    }
    for (int i = 0; i < n; i++) {
        g->nodes[i].succ = E->succ_all + E->succ_off[i];
        g->nodes[i].n_succ = E->succ_off[i + 1] - E->succ_off[i];
    }
    /* ccnt[v] is now the end of v's slice */
    for (int v = 0, start = 0; v < nv; v++) {
        g->values[v].cons = E->cons_all + start;
        g->values[v].n_cons = ccnt[v] - start;
        start = ccnt[v];
    }
out:
    free(mark);
    free(scnt);
    free(ccnt);
    return st;
}

/* Kahn's algorithm over data edges plus the ordering constraints of
 * control flow (a body runs after its owner's inputs, the owner after its
 * body).  Nodes are then stored in that order. */
static dlp_status topo_sort(dlp_graph *g, const edges *E, dlp_error *err) {
    int n = g->n_nodes;
    if (n == 0) return DLP_OK;
    /* dependency lists: data preds + control constraints */
    int *indeg = malloc(sizeof(int) * (size_t)n);
    int *order = malloc(sizeof(int) * (size_t)n);
    int *newidx = malloc(sizeof(int) * (size_t)n);
    int nested = E->nested;
    int *dcount = nested ? calloc((size_t)n, sizeof(int)) : NULL;
    int **dsucc = nested ? calloc((size_t)n, sizeof(int *)) : NULL;
    int *dcap = nested ? calloc((size_t)n, sizeof(int)) : NULL;
    dlp_status st = DLP_OK;
    if (!indeg || !order || !newidx || (nested && (!dcount || !dsucc || !dcap))) {
        st = oom_g(g, err);
        goto out;
    }
#define ADD_DEP(from, to)                                                           \
    do {                                                                            \
        if (push_int(&dsucc[(from)], &dcount[(from)], &dcap[(from)], (to))) {      \
            st = oom_g(g, err);                                                     \
            goto out;                                                               \
        }                                                                           \
        indeg[(to)]++;                                                              \
    } while (0)
    /* without subgraphs the dependencies are the data edges: the succ lists
     * (build_edges made them from the preds in this very order) */
    if (!nested) memcpy(indeg, E->n_pred, sizeof(int) * (size_t)n);
    else memset(indeg, 0, sizeof(int) * (size_t)n);
    for (int i = 0; i < n && nested; i++) {
        dlp__node *nd = &g->nodes[i];
        for (int k = 0; k < nd->n_pred; k++) ADD_DEP(nd->pred[k], i);
        if (nd->parent >= 0) {
            dlp__node *own = &g->nodes[nd->parent];
            ADD_DEP(i, nd->parent); /* owner after its body (may duplicate a data edge: fine) */
            for (int j = 0; j < own->n_in; j++) {
                if (own->in[j] < 0) continue;
                int p = g->values[own->in[j]].producer;
                if (p >= 0 && p != i) ADD_DEP(p, i);
            }
        }
    }
#undef ADD_DEP
    int head = 0, tail = 0;
    for (int i = 0; i < n; i++)
        if (!indeg[i]) order[tail++] = i;
    while (head < tail) {
        int u = order[head++];
        const int *su = nested ? dsucc[u] : E->succ_all + E->succ_off[u];
        int nu = nested ? dcount[u] : E->succ_off[u + 1] - E->succ_off[u];
        for (int k = 0; k < nu; k++)
            if (--indeg[su[k]] == 0) order[tail++] = su[k];
    }
    if (tail < n) {
        int bad = -1;
        for (int i = 0; i < n && bad < 0; i++)
            if (indeg[i]) bad = i;
        st = dlp__err(err, DLP_EGRAPH, "%s: node '%s' (%s) is on a cycle", g->name,
                      g->nodes[bad].name, g->nodes[bad].op_type);
        goto out;
    }
    /* reorder physically and remap every node index (nothing to do when
     * the file's order is already topological, as exporters write it) */
    int moved = 0;
    for (int i = 0; i < n && !moved; i++) moved = order[i] != i;
    if (!moved) goto out;
    for (int i = 0; i < n; i++) newidx[order[i]] = i;
    /* permute in place, cycle by cycle (position i takes old node
     * order[i]; indeg, all zero now, marks the positions done): no second
     * array of nodes to fault in and copy */
    for (int i = 0; i < n; i++) {
        if (indeg[i]) continue;
        dlp__node tmp = g->nodes[i];
        int j = i;
        while (order[j] != i) {
            /* the next record to move, a random one: fetched while this
             * one is copied */
            const char *nx = (const char *)&g->nodes[order[order[j]]];
            __builtin_prefetch(nx);
            __builtin_prefetch(nx + 64);
            __builtin_prefetch(nx + 128);
            g->nodes[j] = g->nodes[order[j]];
            indeg[j] = 1;
            j = order[j];
        }
        g->nodes[j] = tmp;
        indeg[j] = 1;
    }
    /* every list entry is a node index: one sweep over each block */
    for (int i = 0; i < n && nested; i++)
        if (g->nodes[i].parent >= 0) g->nodes[i].parent = newidx[g->nodes[i].parent];
    for (int64_t k = 0; k < g->n_edges; k++) {
        E->pred_all[k] = newidx[E->pred_all[k]];
        E->succ_all[k] = newidx[E->succ_all[k]];
    }
    for (size_t k = 0; k < E->n_cons_all; k++) E->cons_all[k] = newidx[E->cons_all[k]];
    for (int v = 0; v < g->n_values; v++)
        if (g->values[v].producer >= 0) g->values[v].producer = newidx[g->values[v].producer];
    for (int s = 0; s < g->n_scopes; s++)
        if (g->scopes[s].owner >= 0) g->scopes[s].owner = newidx[g->scopes[s].owner];
out:
    if (dsucc)
        for (int i = 0; i < n; i++) free(dsucc[i]);
    free(dsucc);
    free(dcap);
    free(indeg);
    free(dcount);
    free(order);
    free(newidx);
    return st;
}

static void note_unknown_op(dlp_graph *g, const dlp__node *nd) {
    char buf[256];
    if (nd->domain[0]) snprintf(buf, sizeof buf, "%s:%s", nd->domain, nd->op_type);
    else snprintf(buf, sizeof buf, "%s", nd->op_type);
    for (int i = 0; i < g->n_unknown; i++)
        if (!strcmp(g->unknown_ops[i], buf)) return;
    if (dlp__grow((void **)&g->unknown_ops, g->n_unknown, &g->cap_unknown, sizeof(char *))) return;
    const char *s = dlp__arena_strdup(&g->arena, buf);
    if (s) g->unknown_ops[g->n_unknown++] = s;
}

/* When a rule leaves an output unknown, fall back on a declared
 * value_info shape (exporters often write them). */
static void use_declared(dlp__value *v) {
    if (!v->shape_set && v->decl_rank >= 0) {
        v->rank = v->decl_rank;
        v->dims = v->decl_dims;
        v->shape_set = 1;
    }
    if (!v->dtype && v->decl_dtype) v->dtype = v->decl_dtype;
}

/* Nodes in topological order; a subgraph's formal inputs are bound from
 * its owner (the owner row's bind rule, declared types without one) before
 * its first node is inferred. */
static dlp_status infer_shapes(dlp_graph *g, dlp_error *err) {
    uint8_t *bound = calloc((size_t)g->n_scopes, 1);
    if (!bound) return dlp__err(err, DLP_ENOMEM, "%s: out of memory", g->name);
    dlp_status st = DLP_OK;
    for (int i = 0; i < g->n_nodes && !st; i++) {
        dlp__node *nd = &g->nodes[i];
        const dlp__op_def *def = dlp__node_def(nd);
        dlp__ictx c = {g, nd, i, err, def};
        if (nd->scope > 0 && !bound[nd->scope]) {
            bound[nd->scope] = 1;
            int owner = g->scopes[nd->scope].owner;
            const dlp__op_def *odef = dlp__node_def(&g->nodes[owner]);
            dlp__ictx oc = {g, &g->nodes[owner], owner, err, odef};
            st = odef && odef->bind ? odef->bind(&oc, nd->scope) : dlp__bind_declared(&oc, nd->scope);
            if (st) break;
        }
        if (!def || !def->shape) {
            note_unknown_op(g, nd);
            for (int o = 0; o < nd->n_out; o++)
                if (nd->out[o] >= 0) use_declared(&g->values[nd->out[o]]);
            continue;
        }
        st = def->shape(&c);
        for (int o = 0; o < nd->n_out && !st; o++)
            if (nd->out[o] >= 0) use_declared(&g->values[nd->out[o]]);
    }
    free(bound);
    return st;
}

static int is_float_dtype(int dt) {
    return dt == DLP_DT_FLOAT || dt == DLP_DT_FLOAT16 || dt == DLP_DT_DOUBLE ||
           dt == DLP_DT_BFLOAT16 || (dt >= DLP_DT_FLOAT8E4M3FN && dt <= DLP_DT_FLOAT8E5M2FNUZ);
}

/* Bytes of value v: from vb (every value's, computed once: the cost rules
 * only read shapes) or, without it, computed here. */
static int64_t vbytes(const dlp_graph *g, const int64_t *vb, int v) {
    return vb ? vb[v] : dlp__value_bytes(&g->values[v]);
}

/* Node i's costs (its rule's MACs and FLOPs, bytes read and written,
 * parameters) and its share of the totals; seen marks the initializers
 * counted already (NULL: none counted). */
static void node_costs(dlp_graph *g, const int64_t *vb, uint8_t *seen, int i) {
    dlp_graph_stats *s = &g->stats;
    dlp__node *nd = &g->nodes[i];
    const dlp__op_def *def = dlp__node_def(nd);
    dlp__ictx c = {g, nd, i, NULL, def};
    nd->macs = nd->flops = 0;
    if (def && def->cost) def->cost(&c);
    nd->params = nd->weight_bytes = nd->bytes_read = nd->bytes_written = 0;
    for (int j = 0; j < nd->n_in; j++) {
        if (nd->in[j] < 0) continue;
        dlp__value *v = &g->values[nd->in[j]];
        int64_t b = vbytes(g, vb, nd->in[j]);
        if (b > 0) nd->bytes_read = dlp__sat_add(nd->bytes_read, b);
        if (v->is_init) {
            int64_t ne = dlp__numel(v);
            if (b > 0) nd->weight_bytes = dlp__sat_add(nd->weight_bytes, b);
            if (is_float_dtype(v->dtype) && ne > 0) nd->params = dlp__sat_add(nd->params, ne);
            if (seen && !seen[nd->in[j]]) {
                seen[nd->in[j]] = 1;
                if (b > 0) s->weight_bytes = dlp__sat_add(s->weight_bytes, b);
                if (is_float_dtype(v->dtype) && ne > 0) s->params = dlp__sat_add(s->params, ne);
            }
        }
    }
    for (int o = 0; o < nd->n_out; o++) {
        if (nd->out[o] < 0) continue;
        dlp__value *v = &g->values[nd->out[o]];
        int64_t b = vbytes(g, vb, nd->out[o]);
        s->node_outputs++;
        if (dlp__shape_known(v)) s->shapes_known++;
        if (b > 0) {
            nd->bytes_written = dlp__sat_add(nd->bytes_written, b);
            s->activation_bytes = dlp__sat_add(s->activation_bytes, b);
        }
    }
    s->macs = dlp__sat_add(s->macs, nd->macs);
    s->flops = dlp__sat_add(s->flops, nd->flops);
}

/* Node i's step of the live-activation walk (see compute_costs_peak). */
static void node_peak(dlp_graph *g, const int64_t *vb, int64_t *free_at, int i, int64_t *live, int64_t *peak) {
    dlp__node *nd = &g->nodes[i];
    for (int o = 0; o < nd->n_out; o++) {
        if (nd->out[o] < 0) continue;
        dlp__value *x = &g->values[nd->out[o]];
        int64_t b = vbytes(g, vb, nd->out[o]);
        if (b <= 0) continue;
        *live = dlp__sat_add(*live, b);
        int last = -1;
        for (int k = 0; k < x->n_cons; k++)
            if (x->cons[k] > last) last = x->cons[k];
        if (x->is_output) continue;
        free_at[last >= 0 ? last : i] = dlp__sat_add(free_at[last >= 0 ? last : i], b);
    }
    if (*live > *peak) *peak = *live;
    *live -= free_at[i];
}

/* Costs and totals, then the peak of live activations along the
 * topological order: a value is live from its producer (graph inputs: from
 * the start) to its last consumer; graph outputs stay live to the end; a
 * node's inputs and outputs coexist while it runs.  One pass over the
 * values (their bytes into vb, when given, and the graph inputs) and one
 * over the nodes for both. */
static void compute_costs_peak(dlp_graph *g, int64_t *vb) {
    int n = g->n_nodes;
    int64_t *free_at = calloc((size_t)(n + 1), sizeof(int64_t));
    uint8_t *seen = calloc((size_t)(g->n_values ? g->n_values : 1), 1);
    int64_t live = 0, peak = 0;
    for (int v = 0; v < g->n_values; v++) {
        dlp__value *x = &g->values[v];
        if (vb) vb[v] = dlp__value_bytes(x);
        if (!free_at || x->is_init || x->producer >= 0 || x->scope != 0) continue;
        int64_t b = vbytes(g, vb, v);
        if (b <= 0 || !x->is_input) continue;
        g->stats.input_bytes = dlp__sat_add(g->stats.input_bytes, b);
        live = dlp__sat_add(live, b);
        int last = -1;
        for (int k = 0; k < x->n_cons; k++)
            if (x->cons[k] > last) last = x->cons[k];
        if (last >= 0 && !x->is_output) free_at[last] = dlp__sat_add(free_at[last], b);
    }
    peak = live;
    for (int i = 0; i < n; i++) {
        node_costs(g, vb, seen, i);
        if (free_at) node_peak(g, vb, free_at, i, &live, &peak);
    }
    if (free_at) { /* (without it the peak stays 0, as it always did) */
        g->stats.peak_activation_bytes = peak;
        g->stats.peak_memory_bytes = dlp__sat_add(g->stats.weight_bytes, peak);
    }
    free(seen);
    free(free_at);
}

dlp_status dlp__graph_finalize(dlp_graph *g, const dlp_load_opts *opts, dlp_error *err) {
    dlp_status st;
    /* the ops seen so far (a graph has a few kinds, many times each):
     * found again by name, without building and hashing a key */
    struct { const char *op_type, *domain; int op; } seen[64], byptr[128] = {{0}};
    int n_seen = 0;
    edges E = {0};
    size_t bound = 0; /* for build_edges: inputs plus subgraph outputs */
    for (int i = 0; i < g->n_nodes; i++) {
        dlp__node *nd = &g->nodes[i];
        bound += (size_t)nd->n_in;
        for (int a = 0; a < nd->n_attr && g->n_scopes > 1; a++)
            if (nd->attr[a].sub >= 0) bound += (size_t)g->scopes[nd->attr[a].sub].n_outputs;
        if (nd->parent >= 0) E.nested = 1;
        /* by pointer first (the ONNX reader shares op_type and domain
         * strings: one probe), then by value (graph builders) */
        unsigned h = (unsigned)(((uintptr_t)nd->op_type >> 3) ^ ((uintptr_t)nd->domain >> 5)) & 127;
        if (byptr[h].op_type == nd->op_type && byptr[h].domain == nd->domain) {
            nd->op = byptr[h].op;
            goto have_op;
        }
        int k = 0;
        while (k < n_seen && !(seen[k].op_type[0] == nd->op_type[0] && !strcmp(seen[k].op_type, nd->op_type) &&
                               !strcmp(seen[k].domain, nd->domain)))
            k++;
        if (k < n_seen) {
            nd->op = seen[k].op;
        } else {
            nd->op = dlp__op_find(nd->domain, nd->op_type);
            if (n_seen < 64) {
                seen[n_seen].op_type = nd->op_type;
                seen[n_seen].domain = nd->domain;
                seen[n_seen++].op = nd->op;
            }
        }
        byptr[h].op_type = nd->op_type;
        byptr[h].domain = nd->domain;
        byptr[h].op = nd->op;
    have_op:
        if (!nd->opset)
            nd->opset = nd->domain[0] && !strcmp(nd->domain, "com.microsoft") ? (g->opset_ms ? g->opset_ms : 1) : g->opset;
        for (int o = 0; o < nd->n_out; o++)
            if (nd->out[o] >= 0) g->values[nd->out[o]].producer = i;
    }
    st = build_edges(g, &E, bound, err);
    if (!st) st = topo_sort(g, &E, err);
    edges_free(&E);
    if (st) return st;
    if ((st = infer_shapes(g, err))) return st;
    memset(&g->stats, 0, sizeof g->stats);
    int64_t *vb = malloc(sizeof *vb * (size_t)(g->n_values ? g->n_values : 1));
    compute_costs_peak(g, vb);
    free(vb);
    g->stats.nodes = g->n_nodes;
    g->stats.edges = g->n_edges;
    g->stats.batch = opts ? opts->batch : 0;
    if (!g->stats.batch) g->stats.batch = g->batch;
    g->stats.n_unknown_ops = g->n_unknown;
    for (int i = 0; i < g->n_unknown; i++)
        dlp__graph_warn(g, "op %s has no shape rule: its outputs are unknown", g->unknown_ops[i]);
    g->stats.n_warnings = g->n_warnings;
    return DLP_OK;
}

/* ---- public queries ---------------------------------------------------- */

void dlp_graph_stats_get(const dlp_graph *g, dlp_graph_stats *st) { *st = g->stats; }
const char *dlp_graph_name(const dlp_graph *g) { return g->name; }
int dlp_graph_node_count(const dlp_graph *g) { return g->n_nodes; }

static void fill_node(const dlp_graph *g, int i, dlp_node_info *o) {
    const dlp__node *n = &g->nodes[i];
    const dlp__op_def *def = dlp__node_def(n);
    memset(o, 0, sizeof *o);
    o->name = n->name;
    o->op_type = n->op_type;
    o->domain = n->domain;
    o->known_op = def && def->shape;
    o->op_class = def ? def->cls : DLP_OPC_OTHER;
    o->n_inputs = n->n_in;
    o->n_outputs = n->n_out;
    o->inputs = n->in;
    o->outputs = n->out;
    o->n_preds = n->n_pred;
    o->n_succs = n->n_succ;
    o->preds = n->pred;
    o->succs = n->succ;
    o->parent = n->parent;
    o->macs = n->macs;
    o->flops = n->flops;
    o->params = n->params;
    o->bytes_read = n->bytes_read;
    o->bytes_written = n->bytes_written;
    o->weight_bytes = n->weight_bytes;
}

int dlp_graph_tensor_count(const dlp_graph *g) { return g->n_values; }

static void fill_tensor(const dlp_graph *g, int i, dlp_tensor_info *o) {
    const dlp__value *v = &g->values[i];
    memset(o, 0, sizeof *o);
    o->name = v->name;
    o->dtype = v->dtype;
    o->rank = v->rank;
    o->dims = v->dims;
    o->shape_known = dlp__shape_known(v);
    o->producer = v->producer;
    o->is_initializer = v->is_init;
    o->is_input = v->is_input;
    o->is_output = v->is_output;
    o->numel = dlp__numel(v);
    o->bytes = dlp__value_bytes(v);
    o->has_value = dlp__has_ival(v);
    o->n_value = v->ival ? v->nval : 0;
    o->value = v->ival;
}

int dlp_graph_symbol_count(const dlp_graph *g) { return g->n_symbols; }
static void fill_symbol(const dlp_graph *g, int i, dlp_symbol *o) {
    o->name = g->sym_names[i];
    o->value = g->sym_values[i];
}

/* The public records of one kind, built once: every reader that finds none
 * builds a full copy and offers it; the first offer stays, the others are
 * freed.  NULL when out of memory. */
#define PUBLISH(g, field, type, count, fill)                                                  \
    do {                                                                                      \
        type *have = atomic_load(&(g)->field);                                                \
        if (have) return have;                                                                \
        type *mine = calloc((size_t)((count) > 0 ? (count) : 1), sizeof *mine);               \
        if (!mine) return NULL;                                                               \
        for (int k = 0; k < (count); k++) fill((g), k, &mine[k]);                             \
        if (atomic_compare_exchange_strong(&((dlp_graph *)(g))->field, &have, mine)) return mine; \
        free(mine);                                                                           \
        return have;                                                                          \
    } while (0)

static dlp_node_info *node_records(const dlp_graph *g) { PUBLISH(g, pub_nodes, dlp_node_info, g->n_nodes, fill_node); }
static dlp_tensor_info *tensor_records(const dlp_graph *g) {
    PUBLISH(g, pub_tensors, dlp_tensor_info, g->n_values, fill_tensor);
}
static dlp_symbol *symbol_records(const dlp_graph *g) {
    PUBLISH(g, pub_symbols, dlp_symbol, g->n_symbols, fill_symbol);
}

const dlp_node_info *dlp_graph_node_at(const dlp_graph *g, int i) {
    if (!g || i < 0 || i >= g->n_nodes) return NULL;
    const dlp_node_info *r = node_records(g);
    return r ? &r[i] : NULL;
}
const dlp_tensor_info *dlp_graph_tensor_at(const dlp_graph *g, int i) {
    if (!g || i < 0 || i >= g->n_values) return NULL;
    const dlp_tensor_info *r = tensor_records(g);
    return r ? &r[i] : NULL;
}
const dlp_symbol *dlp_graph_symbol_at(const dlp_graph *g, int i) {
    if (!g || i < 0 || i >= g->n_symbols) return NULL;
    const dlp_symbol *r = symbol_records(g);
    return r ? &r[i] : NULL;
}
int dlp_graph_warning_count(const dlp_graph *g) { return g->n_warnings; }
const char *dlp_graph_warning_at(const dlp_graph *g, int i) {
    return g && i >= 0 && i < g->n_warnings ? g->warnings[i] : NULL;
}
int dlp_graph_unknown_op_count(const dlp_graph *g) { return g->n_unknown; }
const char *dlp_graph_unknown_op_at(const dlp_graph *g, int i) {
    return g && i >= 0 && i < g->n_unknown ? g->unknown_ops[i] : NULL;
}
int dlp_graph_output_count(const dlp_graph *g) { return g->n_outputs; }
int dlp_graph_output_at(const dlp_graph *g, int i) { return i >= 0 && i < g->n_outputs ? g->outputs[i] : -1; }
