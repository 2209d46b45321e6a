/*
 * dlperf.h — the one public header of libdlperf.
 *
 * dlperf predicts how a deep-learning model performs on a machine without
 * running it there.  This header is everything the CLI, the HTTP server and
 * the tests may use.  The library never prints to stdout, never exits and
 * never reads the environment.
 *
 * Conventions
 *   - Every fallible call returns dlp_status (DLP_OK == 0) and, when given a
 *     dlp_error*, fills it with a one-line human message that names the file
 *     and the thing ("resnet.onnx: node 'Conv_12' input 'w' has rank 3 ...").
 *   - Handles are opaque and typed; every *_free accepts NULL.
 *   - Units: time in ms, memory in bytes unless a name says _mb (MiB = 2^20
 *     bytes), energy in J, power in W.
 *   - Strings returned by a handle live until that handle is freed.
 *
 * Sections are owned by modules; each section's comment says which source
 * folder implements it.
 */
#ifndef DLPERF_H
#define DLPERF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLP_VERSION_STRING "0.1.0"

/* ==== BEGIN core (src/util) ==== */

typedef enum {
    DLP_OK = 0,
    DLP_EINVAL = -1,   /* bad argument or bad user input (bad CLI value)   */
    DLP_EIO = -2,      /* file could not be opened / read / written         */
    DLP_EFORMAT = -3,  /* malformed file (truncated, wrong wire type, ...)  */
    DLP_EGRAPH = -4,   /* structurally invalid graph (cycle, dangling, ...) */
    DLP_ESHAPE = -5,   /* shape inference failed (mismatch, overflow)       */
    DLP_ENOMEM = -6,   /* allocation failed                                  */
    DLP_EUNBOUND = -7, /* a symbolic dimension has no value                  */
    DLP_ENOTFOUND = -8,/* named thing (device, model, target) not found      */
    DLP_EVERSION = -9, /* file of another format version                     */
    DLP_ECHECKSUM = -10,/* file corrupted (checksum mismatch)                */
    DLP_EUNSUPPORTED = -11, /* valid input we do not handle                  */
    DLP_EINTERNAL = -12
} dlp_status;

/* A one-line error message.  Zero-initialise; calls fill msg on failure. */
typedef struct {
    dlp_status code;
    char msg[512];
} dlp_error;

/* Static string naming a status ("invalid argument", ...). */
const char *dlp_status_str(dlp_status s);

/* ==== END core ==== */

/* ==== BEGIN graph (src/onnx, src/graph) ==== */

typedef struct dlp_graph dlp_graph;

/* ONNX TensorProto.DataType values, used for every dtype in dlperf. */
typedef enum {
    DLP_DT_UNDEFINED = 0, DLP_DT_FLOAT = 1, DLP_DT_UINT8 = 2, DLP_DT_INT8 = 3,
    DLP_DT_UINT16 = 4, DLP_DT_INT16 = 5, DLP_DT_INT32 = 6, DLP_DT_INT64 = 7,
    DLP_DT_STRING = 8, DLP_DT_BOOL = 9, DLP_DT_FLOAT16 = 10, DLP_DT_DOUBLE = 11,
    DLP_DT_UINT32 = 12, DLP_DT_UINT64 = 13, DLP_DT_COMPLEX64 = 14,
    DLP_DT_COMPLEX128 = 15, DLP_DT_BFLOAT16 = 16, DLP_DT_FLOAT8E4M3FN = 17,
    DLP_DT_FLOAT8E4M3FNUZ = 18, DLP_DT_FLOAT8E5M2 = 19, DLP_DT_FLOAT8E5M2FNUZ = 20,
    DLP_DT_UINT4 = 21, DLP_DT_INT4 = 22, DLP_DT_COUNT_ = 23
} dlp_dtype;

/* Bytes per element (fractional types rounded up: int4 -> 1); 0 if unknown. */
int dlp_dtype_size(int dtype);
const char *dlp_dtype_name(int dtype);

/* How symbolic dimensions (dim_param) are bound when a graph is loaded.
 * Zero-initialise.  batch/seq of 0 mean "not given". */
typedef struct {
    int64_t batch;            /* binds batch-like dims (see docs/graph.md)   */
    int64_t seq;              /* binds sequence-like dims                     */
    int n_dims;               /* extra NAME=VALUE bindings                    */
    const char *const *dim_names;
    const int64_t *dim_values;
    int allow_unbound;        /* 1: leave unbound dims unknown, no error      */
} dlp_load_opts;

/* Read an ONNX file and run shape inference and costing.  The weights' bytes
 * are never read (the file is mmapped; only small integer tensors that shapes
 * depend on are decoded).  On failure *out is NULL and err says why. */
dlp_status dlp_graph_load(const char *path, const dlp_load_opts *opts,
                          dlp_graph **out, dlp_error *err);
/* Same from a memory buffer; `name` is used in messages.  The buffer must
 * outlive the graph. */
dlp_status dlp_graph_load_mem(const void *buf, size_t len, const char *name,
                              const dlp_load_opts *opts, dlp_graph **out,
                              dlp_error *err);
void dlp_graph_free(dlp_graph *g);

/* Whole-model totals. */
typedef struct {
    int64_t nodes;             /* operator nodes (subgraph nodes included)    */
    int64_t edges;             /* producer->consumer node pairs (true DAG)    */
    int64_t params;            /* elements of float initializers used         */
    int64_t macs;              /* Conv/ConvTranspose/Gemm/MatMul/Einsum MACs  */
    int64_t flops;             /* all ops, by the rule in docs/costs.md       */
    int64_t weight_bytes;      /* bytes of initializers used (all dtypes)     */
    int64_t activation_bytes;  /* bytes of every node output                  */
    int64_t peak_memory_bytes; /* weights + peak live activations             */
    int64_t peak_activation_bytes;
    int64_t node_outputs;      /* node output tensors                          */
    int64_t shapes_known;      /* of which with a fully known shape           */
    int64_t batch;             /* batch bound at load (0 if none)             */
    int64_t input_bytes;       /* bytes of graph inputs (not initializers)     */
    int n_unknown_ops;         /* distinct op types without a shape rule      */
    int n_warnings;
} dlp_graph_stats;

void dlp_graph_stats_get(const dlp_graph *g, dlp_graph_stats *st);
const char *dlp_graph_name(const dlp_graph *g);   /* file name or model name */

/* Per node, in topological order (0 .. stats.nodes-1). */
typedef struct {
    const char *name;
    const char *op_type;
    const char *domain;        /* "" for the default ONNX domain               */
    int known_op;              /* 1 if dlperf has a shape rule for it          */
    int op_class;              /* dlp_op_class                                 */
    int n_inputs, n_outputs;   /* node inputs / outputs (tensor ids, -1 = none)*/
    const int *inputs, *outputs;
    int n_preds, n_succs;      /* producer / consumer nodes (DAG edges)        */
    const int *preds, *succs;
    int parent;                /* enclosing If/Loop/Scan node or -1            */
    int64_t macs, flops, params;
    int64_t bytes_read;        /* inputs incl. weights                         */
    int64_t bytes_written;     /* outputs                                      */
    int64_t weight_bytes;
} dlp_node_info;

/* Classes used by the roofline and features. */
typedef enum {
    DLP_OPC_OTHER = 0, DLP_OPC_CONV, DLP_OPC_GEMM, DLP_OPC_MATMUL,
    DLP_OPC_ELEMENTWISE, DLP_OPC_ACTIVATION, DLP_OPC_NORM, DLP_OPC_POOL,
    DLP_OPC_REDUCE, DLP_OPC_SOFTMAX, DLP_OPC_DATA /* reshape/concat/... */,
    DLP_OPC_SHAPE /* shape-only arithmetic, no kernel */, DLP_OPC_CONTROL,
    DLP_OPC_COUNT_
} dlp_op_class;
const char *dlp_op_class_name(int c);

int dlp_graph_node_count(const dlp_graph *g);
void dlp_graph_node(const dlp_graph *g, int i, dlp_node_info *out);

/* Tensors (values): ids 0 .. dlp_graph_tensor_count-1. */
typedef struct {
    const char *name;
    int dtype;
    int rank;                  /* -1 if unknown                                */
    const int64_t *dims;       /* rank entries; -1 for an unknown dim          */
    int shape_known;           /* rank and every dim known                     */
    int producer;              /* node index, -1 for inputs/initializers       */
    int is_initializer, is_input, is_output;
    int64_t numel;             /* -1 if unknown                                */
    int64_t bytes;             /* -1 if unknown                                */
    int has_value;             /* small integer value known (propagated)       */
    int64_t n_value;
    const int64_t *value;
} dlp_tensor_info;

int dlp_graph_tensor_count(const dlp_graph *g);
void dlp_graph_tensor(const dlp_graph *g, int i, dlp_tensor_info *out);

/* Bound symbols, e.g. batch_size=32. */
int dlp_graph_symbol_count(const dlp_graph *g);
void dlp_graph_symbol(const dlp_graph *g, int i, const char **name, int64_t *value);

/* Non-fatal findings (unknown ops, subgraphs costed once, ...). */
int dlp_graph_warning_count(const dlp_graph *g);
const char *dlp_graph_warning(const dlp_graph *g, int i);

/* Distinct op types without a shape rule. */
int dlp_graph_unknown_op_count(const dlp_graph *g);
const char *dlp_graph_unknown_op(const dlp_graph *g, int i);

/* ==== END graph ==== */

/* ==== BEGIN hw (src/hw) ==== */

/* The hardware database: GPUs with their peak throughput, memory system,
 * per-SM limits, power, MIG profiles and a cloud price, plus grid carbon
 * intensity by region.  The built-in copy is data/devices.json compiled into
 * the library; docs/devices.md documents every field and its source.
 * Numeric fields that are not known or not applicable are 0 (null in JSON). */

typedef struct dlp_devdb dlp_devdb;

/* One MIG (Multi-Instance GPU) GPU-instance profile. */
typedef struct {
    const char *name;          /* "1g.5gb"                                      */
    double memory_gib;         /* nominal GiB: the guide's fraction of memory x
                                  device memory (the number in the name)       */
    double usable_gib;         /* GiB nvidia-smi mig -lgip reports; 0: unknown  */
    int compute_slices;        /* the "g": sevenths of the GPU's compute        */
    int sms;                   /* SMs of one instance; 0: unknown               */
    int max_instances;         /* how many fit on one GPU                        */
} dlp_mig_profile;

/* One device.  Read-only; lives until its dlp_devdb is freed. */
typedef struct {
    const char *id;            /* short id: "a100-40gb", "h100-sxm", ...         */
    const char *name;          /* what torch.cuda.get_device_name() prints       */
    const char *vendor;        /* "nvidia" or "amd"                               */
    const char *arch;          /* "ampere", "hopper", "cdna2", ...                */
    const char *chip;          /* "GA100", ...                                    */
    const char *form_factor;   /* "SXM4", "PCIe", ...                             */
    const char *memory_type;   /* "HBM2e", "GDDR6", ...                           */
    const char *host_interface;/* "PCIe 4.0 x16", "SXM4, NVLink 3 (600 GB/s)"     */
    const char *notes;         /* caveats about the values ("" if none)          */
    int n_aliases;
    const char *const *aliases;
    int cc_major, cc_minor;    /* CUDA compute capability; 0.0 for AMD           */
    int sm_count;              /* SMs (AMD: compute units)                        */
    int fp32_cores_per_sm;     /* FP32 lanes per SM (AMD: stream processors/CU)  */
    double boost_clock_mhz;    /* boost clock, MHz                                */
    double peak_fp32_gflops;   /* vector FP32, GFLOP/s (FMA = 2)                  */
    double peak_fp64_gflops;   /* vector FP64, GFLOP/s                            */
    double peak_fp16_gflops;   /* vector (non-tensor) FP16, GFLOP/s; 0: unknown   */
    double fp16_tensor_tflops; /* dense tensor-core rates, TFLOP/s; 0: none       */
    double bf16_tensor_tflops;
    double tf32_tensor_tflops;
    double fp8_tensor_tflops;
    double int8_tensor_tops;   /* TOP/s                                           */
    double fp64_tensor_tflops;
    double fp32_matrix_tflops; /* AMD matrix-core FP32; 0 for NVIDIA             */
    double memory_gib;         /* device memory, GiB                              */
    double mem_bandwidth_gbs;  /* peak DRAM bandwidth, GB/s (1e9 B/s)             */
    double l2_cache_mb;        /* MiB                                             */
    double l1_cache_kb_per_sm; /* L1 (+ shared, where unified) KiB per SM; 0: ?  */
    double shared_mem_kb_per_sm;    /* KiB                                        */
    double shared_mem_kb_per_block; /* KiB, the opt-in maximum                    */
    int max_threads_per_sm;    /* 0: unknown                                      */
    int max_threads_per_block;
    int registers_per_sm;      /* 32-bit registers; 0: unknown                    */
    int registers_per_block;   /* 0: unknown                                      */
    int warp_size;             /* 32 (AMD wavefront: 64)                          */
    double tdp_w;              /* board power limit, W                            */
    double idle_w;             /* rough idle draw, W (see docs/devices.md)        */
    int n_mig;                 /* 0: no MIG                                        */
    const dlp_mig_profile *mig;/* sorted as in the file (by memory, then slices)  */
    double price_usd_per_hour; /* on-demand, one GPU; 0: no known offer           */
    const char *price_provider;/* "" when no price                                */
    const char *price_date;
    int n_sources;
    const char *const *source_keys;  /* keys into the file's "sources"            */
    const char *const *sources;      /* the matching full texts                    */
} dlp_device;

/* Load a device database: path, or NULL for the built-in one.  The file is
 * validated strictly; a missing or wrong field gives DLP_EFORMAT with a
 * message naming the file, the device and the field. */
dlp_status dlp_devdb_load(const char *path, dlp_devdb **out, dlp_error *err);
/* Same from a NUL-terminated buffer; `name` is used in messages. */
dlp_status dlp_devdb_load_mem(const char *json, const char *name, dlp_devdb **out,
                              dlp_error *err);
void dlp_devdb_free(dlp_devdb *db);

int dlp_devdb_count(const dlp_devdb *db);
const dlp_device *dlp_devdb_at(const dlp_devdb *db, int i);   /* NULL if out of range */
/* By id, name or alias: case-insensitive, ignoring spaces, '-', '_', '.',
 * parentheses and leading "NVIDIA"/"GeForce"/"Tesla"/"AMD"/"Instinct".
 * NULL if unknown. */
const dlp_device *dlp_devdb_find(const dlp_devdb *db, const char *name_or_alias);
/* Up to max ids of devices whose names are closest to `name` (for "did you
 * mean" messages); returns how many were written. */
int dlp_devdb_suggest(const dlp_devdb *db, const char *name, const char **ids, int max);

/* Peak throughput in FLOP/s (OP/s for integer types) for a dlp_dtype, on
 * tensor/matrix cores when tensor_core != 0 and the device has them for that
 * type, otherwise on the vector units.  0 for a NULL device. */
double dlp_device_peak_flops(const dlp_device *d, int dtype, int tensor_core);

/* Grid carbon intensity, gCO2/kWh, for a region id ("world", "eu", "fr",
 * "us-west", ...; case-insensitive; NULL or "" = the default region).
 * -1 if the region is unknown. */
double dlp_carbon_intensity(const dlp_devdb *db, const char *region);
/* Default power usage effectiveness (data-centre overhead factor). */
double dlp_devdb_pue(const dlp_devdb *db);
int dlp_carbon_region_count(const dlp_devdb *db);
/* Region i: id, g/kWh and source text (any out pointer may be NULL).
 * Returns DLP_EINVAL when i is out of range. */
dlp_status dlp_carbon_region(const dlp_devdb *db, int i, const char **id,
                             double *g_per_kwh, const char **source);
const char *dlp_carbon_default_region(const dlp_devdb *db);

/* MIG recommendation (docs/devices.md, "MIG rule"). */
#define DLP_MIG_MAX_PROFILES 16
typedef struct {
    double used_share;         /* memory_mb / nominal profile memory (no margin) */
    int fits_memory;           /* need_mb <= nominal profile memory              */
    int fits_usable;           /* need_mb <= usable memory; -1: usable unknown   */
    double latency_ms;         /* full-GPU latency x slices_max / slices; -1     */
    int meets_slo;             /* 1/0; -1 when no SLO was given                  */
} dlp_mig_fit;

typedef struct {
    int index;                 /* into dev->mig; -1: none fits                   */
    const dlp_mig_profile *profile; /* NULL: none fits                           */
    double need_mb;            /* memory_mb x (1 + safety_margin), MiB           */
    double latency_ms;         /* predicted on the chosen profile; -1: not given */
    char reason[256];          /* why this profile, or why none                  */
    int n_fit;                 /* = dev->n_mig                                    */
    dlp_mig_fit fit[DLP_MIG_MAX_PROFILES];  /* per profile, in dev->mig order   */
} dlp_mig_choice;

/* The smallest profile (by nominal memory, then compute slices) that holds
 * memory_mb x (1 + safety_margin) and, when latency_slo_ms > 0, whose
 * estimated latency latency_ms_full_gpu x slices_max / slices meets it.
 * Returns DLP_OK also when nothing fits (out->index == -1, reason says why);
 * DLP_EINVAL for bad arguments (negative memory, SLO without a latency). */
dlp_status dlp_mig_recommend(const dlp_device *dev, double memory_mb,
                             double safety_margin, double latency_ms_full_gpu,
                             double latency_slo_ms, dlp_mig_choice *out);

/* ==== END hw ==== */

/* ==== BEGIN features (src/features) ==== */

/* Node-feature layouts (docs/features.md).  The version changes whenever a
 * layout's columns change; model files record the version they were
 * trained on. */
typedef enum { DLP_LAYOUT_TRAPPM = 1, DLP_LAYOUT_DIPPM = 2 } dlp_layout;
#define DLP_LAYOUT_TRAPPM_VERSION 1
#define DLP_LAYOUT_DIPPM_VERSION 1

/* Static (graph-level) features, raw values; every layout stores them all. */
enum {
    DLP_SF_BATCH = 0, DLP_SF_NODES, DLP_SF_EDGES, DLP_SF_MACS, DLP_SF_PARAMS,
    DLP_SF_MEMORY,          /* peak memory bytes (weights + live activations) */
    DLP_SF_N_CONV, DLP_SF_N_DENSE, DLP_SF_N_RELU, DLP_SF_FLOPS, DLP_SF_WEIGHT_BYTES,
    DLP_SF_COUNT
};

typedef struct {
    int layout, layout_version;
    int n_nodes, n_feat;
    float *x;               /* (n_nodes, n_feat) row-major, node = topo order  */
    int n_edges;
    int32_t *rowptr;        /* (n_nodes + 1): out-edges of node i (true DAG)   */
    int32_t *col;           /* (n_edges): successor node ids                    */
    double static_f[DLP_SF_COUNT];
    char name[128];
} dlp_features;

int dlp_layout_width(int layout);                  /* columns of X, 0 if unknown */
const char *dlp_layout_name(int layout);           /* "trappm", "dippm"          */
int dlp_layout_parse(const char *name);            /* 0 if unknown               */
const char *dlp_layout_column(int layout, int j);  /* column name                 */
const char *dlp_static_name(int k);                /* DLP_SF_* name               */

dlp_status dlp_features_build(const dlp_graph *g, int layout, dlp_features **out, dlp_error *err);
void dlp_features_free(dlp_features *f);
/* .dlpg binary file: versioned, checksummed, written atomically. */
dlp_status dlp_features_save(const dlp_features *f, const char *path, dlp_error *err);
dlp_status dlp_features_load(const char *path, dlp_features **out, dlp_error *err);

/* ==== END features ==== */

#ifdef __cplusplus
}
#endif
#endif /* DLPERF_H */
