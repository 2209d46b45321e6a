/*
 * graph.h — the graph IR every input becomes (ONNX files, HF configs, NAS
 * cells), and the interface shape/cost rules are written against.
 *
 * A graph is nodes and values (tensors).  Every node, value, name and shape
 * lives in the graph's arena and dies with dlp_graph_free.  After loading,
 * nodes are stored in topological order: node index == topo position.
 *
 * Dimensions are int64 with -1 meaning "unknown".  A value's rank is -1
 * when unknown.  Small integer tensors (shapes, axes, starts/ends ...) also
 * carry their values (`ival`) so that Shape -> Gather -> Concat -> Reshape
 * chains resolve exactly.
 */
#ifndef DLP_GRAPH_H
#define DLP_GRAPH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "dlperf.h"
#include "util/util.h"

#define DLP_MAX_RANK 16
/* Integer tensors up to this many elements keep their values. */
#define DLP_MAX_VALUE_NUMEL 4096

/* ONNX AttributeProto.AttributeType */
enum {
    DLP_AT_UNDEFINED = 0, DLP_AT_FLOAT = 1, DLP_AT_INT = 2, DLP_AT_STRING = 3,
    DLP_AT_TENSOR = 4, DLP_AT_GRAPH = 5, DLP_AT_FLOATS = 6, DLP_AT_INTS = 7,
    DLP_AT_STRINGS = 8, DLP_AT_TENSORS = 9, DLP_AT_GRAPHS = 10,
    DLP_AT_SPARSE_TENSOR = 11, DLP_AT_SPARSE_TENSORS = 12, DLP_AT_TYPE_PROTO = 13,
    DLP_AT_TYPE_PROTOS = 14
};

/* A TensorProto as found in the file.  Nothing is copied: `msg` points at the
 * serialized message inside the mapped file, and data is decoded on demand
 * (only for small integer tensors; weights are never touched). */
typedef struct {
    const char *name;
    int dtype;
    int rank;
    int64_t *dims;
    const uint8_t *msg;      /* the TensorProto bytes (in the mapping)    */
    size_t msg_len;
    int external;            /* data_location == EXTERNAL                 */
    int has_data;            /* any data field or raw_data present         */
    /* Small data decoded by the reader (TENSOR attributes: Constant's value,
     * ConstantOfShape's fill), so that shape rules read values from the IR:
     * nval -1 when not decoded (too big, external, unreadable). */
    int64_t nval;
    int64_t *ival;           /* integer (and bool) data                     */
    double *fval;            /* float data                                  */
} dlp__tproto;

typedef struct dlp__raw_graph dlp__raw_graph;

typedef struct {
    const char *name;
    int type;                /* DLP_AT_*                                   */
    int64_t i;
    double f;
    const char *s;           /* NUL-terminated copy (strings are short)    */
    int n;                   /* count for INTS / FLOATS / STRINGS / GRAPHS */
    int64_t *ints;
    double *floats;
    const char **strings;
    dlp__tproto *t;          /* TENSOR                                     */
    dlp__raw_graph *g;       /* GRAPH (first of GRAPHS)                     */
    int sub;                 /* GRAPH: index of the linked scope, -1       */
} dlp__attr;

/* ---- values and nodes of the linked IR --------------------------------- */

typedef struct {
    const char *name;
    int dtype;               /* dlp_dtype; 0 if unknown                    */
    int rank;                /* -1 unknown                                  */
    int64_t *dims;           /* rank entries (arena), -1 = unknown dim     */
    int producer;            /* node index, -1 for inputs/initializers     */
    int n_cons;
    int *cons;               /* consumer node indices (a node may repeat)  */
    uint8_t is_init, is_input, is_output, is_sub_input;
    uint8_t shape_set;       /* a rule (or value_info) has set the shape   */
    int scope;               /* 0 main graph, >0 subgraph scopes           */
    const dlp__tproto *init; /* initializer (or Constant's tensor)          */
    /* declared type from value_info / graph input-output (may be partial) */
    int decl_dtype, decl_rank;
    int64_t *decl_dims;
    /* small value, when known */
    int64_t nval;            /* -1: unknown                                 */
    int64_t *ival;           /* integer (and bool) values                   */
    double *fval;            /* float values (small float tensors)          */
} dlp__value;

typedef struct {
    const char *name;
    const char *op_type;
    const char *domain;      /* "" = ai.onnx                                 */
    int op;                  /* registry row, -1 when unknown                */
    int n_in, n_out;
    int n_attr;              /* (beside the counts: no padding; a record of
                              * 152 bytes, 13,715 of them fit 2 MiB)         */
    int *in, *out;           /* value ids, -1 for an omitted optional        */
    dlp__attr *attr;
    int parent;              /* control-flow node owning this one, -1        */
    int scope;               /* scope the node lives in                      */
    int n_pred, n_succ;
    int *pred, *succ;        /* distinct producer/consumer nodes (edges)     */
    int64_t macs, flops, params, bytes_read, bytes_written, weight_bytes;
    int64_t opset;           /* opset of the node's domain                   */
} dlp__node;

typedef struct {
    int parent_scope;
    int owner;               /* control-flow node, -1 for scope 0            */
    int n_inputs, n_outputs;
    int *inputs, *outputs;   /* value ids                                    */
} dlp__scope;

struct dlp_graph {
    dlp__arena arena;
    dlp__mapped map;
    const char *path;        /* as given (for messages)                      */
    const char *name;        /* base name                                    */
    int64_t ir_version;
    int64_t opset;           /* default domain                               */
    int64_t opset_ms;        /* com.microsoft, 0 if none                     */
    int n_nodes, cap_nodes;
    dlp__node *nodes;
    int n_values, cap_values;
    dlp__value *values;
    /* the ONNX reader carves the node and value arrays from the arena (its
     * huge-page block, sized from the file, so that they share pages with
     * the names and shapes instead of each faulting in its own); they
     * move to the heap if they must grow (subgraphs, builders) */
    uint8_t nodes_in_arena, values_in_arena;
    int n_scopes, cap_scopes;
    dlp__scope *scopes;
    int n_inputs, n_outputs; /* main graph inputs (non-initializer) / outputs */
    int *inputs, *outputs;
    int n_symbols, cap_symbols;
    const char **sym_names;
    int64_t *sym_values;
    int n_warnings, cap_warnings;
    const char **warnings;
    int n_unknown, cap_unknown;
    const char **unknown_ops;
    dlp_graph_stats stats;
    int64_t batch;
    int64_t n_edges;
    /* what dlp_graph_node_at / _tensor_at / _symbol_at point into: built on
     * the first call after dlp__graph_finalize (the graph no longer changes
     * then), swapped in atomically so that readers on several threads build
     * at most one copy each and keep one */
    _Atomic(dlp_node_info *) pub_nodes;
    _Atomic(dlp_tensor_info *) pub_tensors;
    _Atomic(dlp_symbol *) pub_symbols;
};

/* ---- building graphs (used by the ONNX linker and by graph builders) --- */

/* Room for one more node / value (dlp__grow, or a move to the heap for
 * an array in the arena); -1 when out of memory. */
int dlp__graph_grow_nodes(dlp_graph *g);
int dlp__graph_grow_values(dlp_graph *g);
/* Empty graph; name is copied. */
dlp_graph *dlp__graph_new(const char *name);
/* Append a value; returns its id or -1 on OOM.  name is copied. */
int dlp__graph_add_value(dlp_graph *g, const char *name, int dtype, int rank,
                         const int64_t *dims);
/* Append a node with inputs/outputs given as value ids (-1 = omitted).
 * Attributes are added with the dlp__node_set_* calls. Returns node id. */
int dlp__graph_add_node(dlp_graph *g, const char *name, const char *op_type,
                        const char *domain, int n_in, const int *in, int n_out,
                        const int *out);
/* The same without copies, for the ONNX linker: the strings are g's own
 * (in its arena) or outlive it; a node's in/out arrays are the caller's to
 * set (NULL, counts 0, until then). */
int dlp__graph_add_value_ref(dlp_graph *g, const char *name, int dtype, int rank, const int64_t *dims);
int dlp__graph_add_node_ref(dlp_graph *g, const char *name, const char *op_type, const char *domain);
int dlp__node_set_int(dlp_graph *g, int node, const char *name, int64_t v);
int dlp__node_set_float(dlp_graph *g, int node, const char *name, double v);
int dlp__node_set_ints(dlp_graph *g, int node, const char *name, int n, const int64_t *v);
int dlp__node_set_string(dlp_graph *g, int node, const char *name, const char *s);
/* Mark an initializer (weights): dims known, no data. */
int dlp__graph_add_weight(dlp_graph *g, const char *name, int dtype, int rank,
                          const int64_t *dims);
/* Constant small integer tensor (its value known). */
int dlp__graph_add_const_ints(dlp_graph *g, const char *name, int rank,
                              const int64_t *dims, const int64_t *vals);
int dlp__graph_mark_input(dlp_graph *g, int value);
int dlp__graph_mark_output(dlp_graph *g, int value);
/* Record a non-fatal warning (printf-style); never fails the load. */
void dlp__graph_warn(dlp_graph *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Link edges, sort topologically, infer shapes, compute costs and stats.
 * Called once after a graph is built (by the ONNX loader or a builder). */
dlp_status dlp__graph_finalize(dlp_graph *g, const dlp_load_opts *opts, dlp_error *err);

/* ---- the shape/cost rule interface (ir.c) ------------------------------- */

typedef struct dlp__op_def dlp__op_def;

typedef struct dlp__ictx {
    dlp_graph *g;
    dlp__node *node;
    int node_id;
    dlp_error *err;
    /* the node's registry row (NULL: unknown op), given by the caller so
     * that rules read their own row without calling the registry */
    const dlp__op_def *def;
} dlp__ictx;

/* Inputs/outputs: NULL when i is out of range or the slot is omitted. */
static inline dlp__value *dlp__in(const dlp__ictx *c, int i) {
    if (i < 0 || i >= c->node->n_in || c->node->in[i] < 0) return 0;
    return &c->g->values[c->node->in[i]];
}
static inline dlp__value *dlp__out(const dlp__ictx *c, int i) {
    if (i < 0 || i >= c->node->n_out || c->node->out[i] < 0) return 0;
    return &c->g->values[c->node->out[i]];
}
static inline int dlp__n_in(const dlp__ictx *c) { return c->node->n_in; }
static inline int dlp__n_out(const dlp__ictx *c) { return c->node->n_out; }
static inline int64_t dlp__opset(const dlp__ictx *c) { return c->node->opset; }

/* Attributes (absent -> default). */
const dlp__attr *dlp__attr_get(const dlp__node *n, const char *name);
int64_t dlp__attr_i(const dlp__ictx *c, const char *name, int64_t def);
double dlp__attr_f(const dlp__ictx *c, const char *name, double def);
const char *dlp__attr_s(const dlp__ictx *c, const char *name, const char *def);
/* INTS attribute: count (and *v), or -1 when absent. */
int dlp__attr_ints(const dlp__ictx *c, const char *name, const int64_t **v);
int dlp__attr_floats(const dlp__ictx *c, const char *name, const double **v);

/* Fail the load: "<file>: node '<name>' (<op>): <message>" -> DLP_ESHAPE. */
dlp_status dlp__fail(const dlp__ictx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Shape queries on values (v may be NULL). */
static inline bool dlp__rank_known(const dlp__value *v) { return v && v->rank >= 0; }
bool dlp__shape_known(const dlp__value *v);     /* rank and all dims known */
int64_t dlp__numel(const dlp__value *v);        /* -1 if unknown or overflow */
bool dlp__has_ival(const dlp__value *v);        /* integer values known */

/* Set an output's type and shape (dims copied; rank -1 = unknown rank).
 * Returns DLP_ESHAPE via dlp__fail on a negative dim other than -1 or an
 * element count that overflows int64. */
dlp_status dlp__set_out(const dlp__ictx *c, int i, int dtype, int rank, const int64_t *dims);
/* Set only the dtype (shape stays unknown). */
void dlp__set_out_dtype(const dlp__ictx *c, int i, int dtype);
/* Attach small integer values to output i (shape must be set; n == numel). */
dlp_status dlp__set_out_ival(const dlp__ictx *c, int i, int64_t n, const int64_t *vals);
dlp_status dlp__set_out_fval(const dlp__ictx *c, int i, int64_t n, const double *vals);
/* Copy input j's dtype, shape and values to output i (Identity-like). */
dlp_status dlp__pass_through(const dlp__ictx *c, int i, int j);

/* Normalise an axis against a rank (negative counts from the end);
 * returns -1 (and fails the node via dlp__fail) when out of range. */
int dlp__axis(const dlp__ictx *c, int64_t axis, int rank, const char *what);
/* numpy multidirectional broadcast of a and b into out (rank returned, -1 if
 * unknown); fails the node on incompatible known dims. */
int dlp__broadcast(const dlp__ictx *c, const dlp__value *a, const dlp__value *b,
                   int64_t *out_dims, dlp_status *st);

/* Subgraph formal inputs (ONNX graph attributes: Loop/Scan bodies, If
 * branches).  Set input vid of a subgraph: rank < 0 keeps the declared
 * type; a known rank fills unknown dims from the declaration.  An
 * initializer listed as an input keeps its data. */
dlp_status dlp__bind_value(const dlp__ictx *c, int vid, int dtype, int rank, const int64_t *dims);
/* Every formal input of `scope` (owned by c's node) to its declared type:
 * what an owner without a bind rule (If, unknown ops) gives its subgraph. */
dlp_status dlp__bind_declared(dlp__ictx *c, int scope);

/* A rule: set every output's dtype/shape/value; return DLP_OK or a failure
 * from dlp__fail.  An input of unknown shape gives unknown outputs (OK). */
typedef dlp_status (*dlp__shape_fn)(dlp__ictx *c);
/* Costs: set node->macs and node->flops (bytes and params are generic). */
typedef void (*dlp__cost_fn)(dlp__ictx *c);
/* Bind the formal inputs of subgraph `scope` from its owner c's inputs,
 * before the subgraph's nodes are inferred (shape inference calls it once
 * per scope; NULL: dlp__bind_declared). */
typedef dlp_status (*dlp__bind_fn)(dlp__ictx *c, int scope);

struct dlp__op_def {
    const char *name;
    const char *domain;      /* "" or "com.microsoft"                      */
    int cls;                 /* dlp_op_class                                */
    dlp__shape_fn shape;
    dlp__cost_fn cost;       /* NULL: flops = 0                              */
    int flops_per_elem;      /* for the generic elementwise cost             */
    dlp__bind_fn bind;       /* ops with subgraphs (Loop, Scan, If); NULL    */
};

extern const dlp__op_def dlp__ops[];
extern const int dlp__n_ops;
/* Registry lookup by (domain, op_type); -1 if unknown. */
int dlp__op_find(const char *domain, const char *op_type);

/* Bytes of a value (-1 unknown). */
int64_t dlp__value_bytes(const dlp__value *v);

#endif
