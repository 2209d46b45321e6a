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
 * Sections follow the path a user takes: device -> graph -> predict ->
 * llm (and plan) -> learn -> data -> serve (and the JSON texts); each
 * section's first line names the source folder that implements it.  The
 * grammar of names is at the end of the core section.
 */
#ifndef DLPERF_H
#define DLPERF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The one version string: the Makefile reads it for the shared library's
 * file name and soname (libdlperf.so.MAJOR), dlp_version() returns it. */
#define DLP_VERSION_STRING "0.1.0"

/* Export control.  libdlperf.so is built with -fvisibility=hidden, so only
 * what this header declares between the push and the pop below is exported:
 * the public dlp_ API, never the dlp__ internals or the lazy-loading shims'
 * cblas_/XGB/MHD_ functions (which would otherwise clash with numpy's or
 * xgboost's own in one Python process).  DLP_API marks one declaration
 * outside that region, should one ever be needed. */
#if defined(__GNUC__)
#define DLP_API __attribute__((visibility("default")))
#pragma GCC visibility push(default)
#else
#define DLP_API
#endif

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

/* The library's version, DLP_VERSION_STRING of the build ("0.1.0"). */
const char *dlp_version(void);
/* Free a buffer the library handed out (JSON text, SVG, model bytes, ...):
 * the one deallocator a caller in another language needs.  NULL is fine. */
void dlp_free(void *p);

/* Handles: opaque, typed, one per thing a caller holds.  The grammar of
 * every call below:
 *   - files and stores: dlp_X_open(path, ...) / dlp_X_close(h)
 *     (dlp_store, dlp_corpus);
 *   - other handles: dlp_X_new(...) / dlp_X_free(h); a handle that comes
 *     from somewhere names it (dlp_X_load(path) reading what dlp_X_save
 *     wrote, dlp_gnn_train, dlp_llm_build, dlp_graph_from_nb201, ...) and
 *     ends in the same dlp_X_free;
 *   - structs the caller owns and a call filled: dlp_X_clear(&s) releases
 *     what they point to (dlp_prediction_clear, dlp_split_parts_clear, ...);
 *   - indexed access: dlp_X_count(h) and dlp_X_at(h, i), a const pointer
 *     into h (valid while h lives unchanged), NULL when i is out of range;
 *   - enums travel as their enum type; dlp_X_name(e) and dlp_X_parse(text)
 *     (-1 when unknown) convert them;
 *   - how to do a thing is an options struct (dlp_predict_opts,
 *     dlp_llm_predict_opts, ...): zero-initialised, NULL for all defaults.
 * docs/api-compat.md lists the calls renamed to this grammar. */
typedef struct dlp_graph dlp_graph;
typedef struct dlp_devdb dlp_devdb;
typedef struct dlp_dataset dlp_dataset;
typedef struct dlp_xgb dlp_xgb;
typedef struct dlp_server dlp_server;
typedef struct dlp_gnn dlp_gnn;
typedef struct dlp_corpus dlp_corpus;
typedef struct dlp_encoder dlp_encoder;
typedef struct dlp_store dlp_store;
typedef struct dlp_store_runs dlp_store_runs;
typedef struct dlp_plan dlp_plan;

/* ONNX TensorProto.DataType values, used for every dtype in dlperf. */
typedef enum {
    DLP_DT_UNDEFINED = 0, DLP_DT_FLOAT = 1, DLP_DT_UINT8 = 2, DLP_DT_INT8 = 3,
    DLP_DT_UINT16 = 4, DLP_DT_INT16 = 5, DLP_DT_INT32 = 6, DLP_DT_INT64 = 7,
    DLP_DT_STRING = 8, DLP_DT_BOOL = 9, DLP_DT_FLOAT16 = 10, DLP_DT_DOUBLE = 11,
    DLP_DT_UINT32 = 12, DLP_DT_UINT64 = 13, DLP_DT_COMPLEX64 = 14,
    DLP_DT_COMPLEX128 = 15, DLP_DT_BFLOAT16 = 16, DLP_DT_FLOAT8E4M3FN = 17,
    DLP_DT_FLOAT8E4M3FNUZ = 18, DLP_DT_FLOAT8E5M2 = 19, DLP_DT_FLOAT8E5M2FNUZ = 20,
    DLP_DT_UINT4 = 21, DLP_DT_INT4 = 22, DLP_DT_FLOAT4E2M1 = 23, DLP_DT_COUNT_ = 24
} dlp_dtype;

/* Bytes per element (fractional types rounded up: int4, float4e2m1 -> 1); 0 if
 * unknown. */
int dlp_dtype_size(dlp_dtype dtype);
const char *dlp_dtype_name(dlp_dtype dtype);
/* A compute dtype from its usual names ("fp32", "fp16", "bf16", "int8",
 * "fp8" = e4m3, "fp8-e5m2", "fp4" = "nvfp4" = "mxfp4" = e2m1; any case);
 * -1 if unknown. */
int dlp_dtype_parse(const char *name);
/* The short name ("fp32", "fp16", "bf16", "int8", "fp8", "fp4"; else
 * dlp_dtype_name) that dlp_dtype_parse reads back. */
const char *dlp_dtype_short(dlp_dtype dtype);

/* ==== END core ==== */

/* ==== BEGIN device (src/hw) ==== */

/* The hardware database: GPUs with their peak throughput, memory system,
 * per-SM limits, power, MIG profiles and a cloud price, plus grid carbon
 * intensity by region, and the CPUs we measured (kind "cpu").  The built-in
 * copy is data/devices.json compiled into the library; docs/devices.md
 * documents every field and its source.  Numeric fields that are not known
 * or not applicable are 0 (null in JSON). */

/* What a device is ("kind" in devices.json; absent = "gpu").  On a CPU the
 * per-SM fields describe cores: sm_count = cores, fp32_cores_per_sm = FP32
 * FMA lanes per core and cycle, l2_cache_mb = the last-level cache; GPU-only
 * fields (compute capability, shared memory, warps, registers, threads per
 * block, MIG) are 0 / none, and tdp_w / idle_w may be 0 (unknown). */
typedef enum { DLP_DEVICE_GPU = 0, DLP_DEVICE_CPU = 1 } dlp_device_kind;
const char *dlp_device_kind_name(dlp_device_kind kind);   /* "gpu", "cpu"; "?" otherwise  */

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
    const char *vendor;        /* "nvidia", "amd" or "intel"                      */
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
    double fp4_tensor_tflops;  /* FP4 (E2M1: NVFP4 / MXFP4) tensor rate; 0: none */
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
    double tdp_w;              /* board power limit, W; 0: unknown (CPU only)     */
    double idle_w;             /* rough idle draw, W (see docs/devices.md); 0:
                                  unknown (CPU only)                              */
    int n_mig;                 /* 0: no MIG                                        */
    const dlp_mig_profile *mig;/* sorted as in the file (by memory, then slices)  */
    double price_usd_per_hour; /* on-demand, one GPU; 0: no known offer           */
    const char *price_provider;/* "" when no price                                */
    const char *price_date;
    int n_sources;
    const char *const *source_keys;  /* keys into the file's "sources"            */
    const char *const *sources;      /* the matching full texts                    */
    int kind;                  /* dlp_device_kind                                 */
    double boost_power_w;      /* derived at load, not in the file: the board power
                                  a fully busy chip would draw at its boost clock
                                  with no power limit (docs/predict.md, "Clocks
                                  under a power cap"); > tdp_w: heavy kernels
                                  throttle.  0: unknown (CPU, no TDP)            */
    double l2_bandwidth_gbs;   /* L2 read bandwidth, GB/s (optional in the file,
                                  with a source); 0: unknown, no L2-residency
                                  rule (docs/predict.md, "L2 residency")       */
    double die_tdp_w;          /* the power limit the GPU's die is rated at in its
                                  own board (optional in the file, with a source)
                                  where tdp_w holds headroom beyond it: GH200's
                                  GPU is the 700 W H100 SXM's die (132 SMs at
                                  1,980 MHz) under a 900 W limit.  The serving
                                  power's floor and shares scale with it, tdp_w
                                  stays the cap (docs/llm.md, h225).  0: tdp_w */
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
 * type, otherwise on the vector units.  The four FLOAT8 types use the FP8
 * tensor rate and FLOAT4E2M1 the FP4 rate; a device without that rate
 * computes upcast data, so FP4 falls back to the FP8 path and FP8 to the
 * FLOAT16 path (docs/devices.md has the table).  0 for a NULL device. */
double dlp_device_peak_flops(const dlp_device *d, dlp_dtype dtype, int tensor_core);
/* 1 if the hardware runs `dtype` natively (tensor/matrix cores or vector
 * units), else 0: FLOAT always; DOUBLE with an FP64 rate; FLOAT16 with FP16
 * tensor cores or a vector FP16 rate; BFLOAT16 with BF16 tensor cores or on
 * NVIDIA Ampere and later (cc >= 8.0); the FLOAT8 types with an FP8 tensor
 * rate and FLOAT4E2M1 with an FP4 one (the OCP vs FNUZ encodings are not
 * told apart); 8- to 64-bit integers and BOOL always; INT4/UINT4, strings,
 * complex and unknown types never.  0 for a NULL device. */
int dlp_device_supports_dtype(const dlp_device *d, dlp_dtype dtype);

/* Grid carbon intensity, gCO2/kWh, for a region id ("world", "eu", "fr",
 * "us-west", ...; case-insensitive; NULL or "" = the default region).
 * -1 if the region is unknown. */
double dlp_carbon_intensity(const dlp_devdb *db, const char *region);
/* Default power usage effectiveness (data-centre overhead factor). */
double dlp_devdb_pue(const dlp_devdb *db);
/* A carbon region of the database: its id, g/kWh and source text. */
typedef struct {
    const char *id;
    double g_per_kwh;
    const char *source;
} dlp_region;
int dlp_carbon_region_count(const dlp_devdb *db);
const dlp_region *dlp_carbon_region_at(const dlp_devdb *db, int i);   /* NULL out of range */
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

/* ==== END device ==== */

/* ==== BEGIN graph (src/onnx, src/graph) ==== */

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

/* Totals per op type (domain-qualified for non-default domains), by FLOPs,
 * then count (both descending), then name: the order of `inspect`'s table
 * and JSON.  *out is malloc'ed (free() it; op points into the graph);
 * returns the number of rows, or -1 when out of memory. */
typedef struct {
    const char *op;
    int64_t count, flops, macs, params;
    int64_t bytes;             /* bytes read + written                        */
} dlp_op_total;
int dlp_graph_op_totals(const dlp_graph *g, dlp_op_total **out);

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
const char *dlp_op_class_name(dlp_op_class c);

/* Indexed access, here and everywhere in this header: dlp_X_count(h) and
 * dlp_X_at(h, i), a const pointer into h (valid while h lives and is not
 * changed), NULL when i is out of range. */
int dlp_graph_node_count(const dlp_graph *g);
const dlp_node_info *dlp_graph_node_at(const dlp_graph *g, int i);

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
const dlp_tensor_info *dlp_graph_tensor_at(const dlp_graph *g, int i);

/* Bound symbols, e.g. batch_size=32. */
typedef struct {
    const char *name;
    int64_t value;
} dlp_symbol;
int dlp_graph_symbol_count(const dlp_graph *g);
const dlp_symbol *dlp_graph_symbol_at(const dlp_graph *g, int i);

/* Non-fatal findings (unknown ops, subgraphs costed once, ...). */
int dlp_graph_warning_count(const dlp_graph *g);
const char *dlp_graph_warning_at(const dlp_graph *g, int i);      /* NULL out of range */

/* Distinct op types without a shape rule. */
int dlp_graph_unknown_op_count(const dlp_graph *g);
const char *dlp_graph_unknown_op_at(const dlp_graph *g, int i);   /* NULL out of range */

/* The main graph's outputs in the file's order, as tensor ids. */
int dlp_graph_output_count(const dlp_graph *g);
int dlp_graph_output_at(const dlp_graph *g, int i);                /* -1 out of range   */

/* ==== END graph ==== */

/* ==== BEGIN builders (src/builders) ==== */

/* Graph builders: networks of NAS search spaces built directly in the IR
 * (no ONNX file), shapes inferred and costed like a loaded model; weights
 * are initializers with their dims and no data.  docs/datasets.md describes
 * each network as built. */

/* NAS-Bench-201: the CIFAR TinyNetwork (C 16, N 5, 10 classes, input
 * (batch, 3, 32, 32)) with every cell given by `arch_str`, e.g.
 * "|nor_conv_3x3~0|+|nor_conv_3x3~0|avg_pool_3x3~1|+|skip_connect~0|none~1|nor_conv_1x1~2|".
 * Ops: none, skip_connect, nor_conv_1x1, nor_conv_3x3, avg_pool_3x3.  The
 * graph is named by the arch string.  A malformed string gives DLP_EINVAL
 * with a message naming the string and the (0-based) position. */
dlp_status dlp_graph_from_nb201(const char *arch_str, int64_t batch, dlp_graph **out,
                                dlp_error *err);
/* How none edges and zero nodes are built (src/builders/nb201.c):
 * EFFECTIVE (what dlp_graph_from_nb201 builds): none adds nothing, a node
 *   with no contribution is zero and edges out of it are dropped;
 * EXECUTED: the reference PyTorch module as it runs (and as HELP timed it):
 *   every op runs, none is a Mul by 0 — the better graph for latency. */
enum { DLP_NB201_EFFECTIVE = 0, DLP_NB201_EXECUTED = 1 };
dlp_status dlp_graph_from_nb201_mode(const char *arch_str, int64_t batch, int mode,
                                     dlp_graph **out, dlp_error *err);

/* FBNet space of HW-NAS-Bench (as used by HELP): CIFAR-100 (input
 * (batch, 3, 32, 32), 100 classes), 22 searchable layers, op of layer l
 * given by ops22[l] in 0..8 = k3_e1, k3_e1_g2, k3_e3, k3_e6, k5_e1,
 * k5_e1_g2, k5_e3, k5_e6, skip.  DLP_EINVAL for an op out of range. */
#define DLP_FBNET_LAYERS 22
#define DLP_FBNET_N_OPS 9
dlp_status dlp_graph_from_fbnet(const int *ops22, int64_t batch, dlp_graph **out,
                                dlp_error *err);
/* "k3_e1" ... "skip" for 0..8; NULL otherwise. */
const char *dlp_fbnet_op_name(int op);

/* ==== END builders ==== */

/* ==== BEGIN predict (src/predict) ==== */

/* Whole-model performance prediction for any device of the database
 * (docs/predict.md): latency or training step time, throughput, peak memory
 * with its breakdown, energy and power, the MIG profile, cost and carbon.
 * The built-in predictor is an analytic roofline: per node
 *   time = max(FLOPs / peak of its unit, bytes / bandwidth) x ratio + launch,
 * summed in topological order (one stream), where ratio >= 1 comes from a
 * per-op-class efficiency curve (all zero: pure roofline, ratio 1).
 * On a CPU (device kind "cpu") the same roofline runs on the CPU's peak and
 * bandwidth with PyTorch's eager per-op dispatch cost instead of the kernel
 * launch and the measured process base memory instead of the CUDA context.
 * Where a shipped learned model (TraPPM/GNN, docs/learned.md) exists for the
 * device and mode, its latency / step time / memory replace the analytic
 * ones; the analytic values stay in the prediction (dlp_pred_source). */

typedef enum { DLP_PREDICT_INFER = 0, DLP_PREDICT_TRAIN = 1 } dlp_predict_mode;

/* The parsers of user-given names share one convention: the enum value, or
 * -1 for an unknown name or NULL; case is ignored.  dlp_dtype_parse,
 * dlp_runtime_parse, dlp_memfmt_parse, dlp_layout_parse and these two. */
int dlp_predict_mode_parse(const char *name); /* "infer"/"inference", "train"/"training" */
int dlp_optimizer_parse(const char *name);    /* "adam"/"adamw", "sgd",
                                                  "sgd-momentum"/"momentum"    */

/* Runtime profiles: how a graph is lowered to the kernels that really run
 * (docs/predict.md, "Lowering").  One pattern table per profile. */
typedef enum {
    DLP_RUNTIME_EAGER = 0,     /* PyTorch 2.x eager (default): fused LayerNorm/
                                  RMSNorm/GELU/SiLU/HardSwish, SDPA attention,
                                  addmm, views launch nothing                   */
    DLP_RUNTIME_EAGER1X = 1,   /* PyTorch 1.x eager: as eager, no SDPA           */
    DLP_RUNTIME_COMPILE = 2,   /* torch.compile (inductor): pointwise/reduction
                                  chains fuse, GEMM epilogues fuse              */
    DLP_RUNTIME_TENSORRT = 3,  /* TensorRT: conv/gemm epilogues, fused MHA,
                                  no launch gaps                                */
    DLP_RUNTIME_ORT = 4,       /* onnxruntime CUDA EP: its documented fusions    */
    DLP_RUNTIME_COUNT_
} dlp_runtime;
const char *dlp_runtime_name(dlp_runtime runtime);  /* "eager", "eager-1.x", "compile",
                                                       "tensorrt", "onnxruntime"  */
int dlp_runtime_parse(const char *name);            /* -1 if unknown (any case)    */

/* Memory format of 4-D activations. */
typedef enum { DLP_MEMFMT_NCHW = 0, DLP_MEMFMT_NHWC = 1 } dlp_memfmt;
const char *dlp_memfmt_name(dlp_memfmt memfmt);     /* "nchw", "nhwc"              */
int dlp_memfmt_parse(const char *name);             /* -1 if unknown ("channels_last"
                                                       = nhwc)                     */

/* Kernel classes: what a lowered kernel is timed as.  Each has its own
 * efficiency curve per precision (docs/predict.md, "Efficiency curves"). */
typedef enum {
    DLP_KC_CONV = 0,           /* dense / grouped convolution (implicit GEMM)   */
    DLP_KC_CONV_DW,            /* depthwise convolution (groups = channels)     */
    DLP_KC_GEMM,               /* linear layers: addmm / mm with a weight       */
    DLP_KC_BMM,                /* batched matmul of two activations             */
    DLP_KC_ATTN,               /* fused attention (SDPA flash / mem-efficient)  */
    DLP_KC_ELEMENTWISE,        /* pointwise kernels, fused activations          */
    DLP_KC_NORM,               /* layer/batch/group/RMS norm                    */
    DLP_KC_SOFTMAX,
    DLP_KC_REDUCE,
    DLP_KC_POOL,
    DLP_KC_COPY,               /* contiguous copies, cat, gather, pad           */
    DLP_KC_OTHER,
    DLP_KC_COUNT_
} dlp_kernel_class;
const char *dlp_kernel_class_name(dlp_kernel_class kc);   /* "conv", "conv_dw", "gemm", ... */
typedef enum {
    DLP_OPTIM_ADAM = 0,        /* Adam/AdamW: two fp32 moments per parameter    */
    DLP_OPTIM_SGD = 1,         /* plain SGD: no state                           */
    DLP_OPTIM_SGD_MOMENTUM = 2 /* SGD with momentum: one fp32 buffer            */
} dlp_optim;
typedef enum {
    DLP_TF32_DEFAULT = 0,      /* PyTorch's defaults: fp32 convs on TF32 tensor
                                  cores (cuDNN allow_tf32), fp32 matmuls on the
                                  FP32 vector units (since PyTorch 1.12)         */
    DLP_TF32_ON = 1,           /* matmuls too (torch.backends.cuda.matmul.allow_tf32) */
    DLP_TF32_OFF = 2           /* nothing on TF32                               */
} dlp_tf32_mode;

/* Efficiency curve of one op class:
 *   ratio = exp(clamp(a + b*u + c*v + d*u*u, 0, ln 100)),
 *   u = log10(roofline time / 1 us) clamped to [-1, 5],
 *   v = log10(arithmetic intensity / device ridge point) clamped to [-3, 3].
 * Kernel time = roofline time x ratio; achieved/peak = 1 / ratio.
 * All zero: efficiency 1 (pure roofline).  A learned model may fill these. */
typedef struct {
    double a, b, c, d;
} dlp_eff_curve;

typedef struct {
    const char *name;          /* shown in the method: "roofline+<name>"       */
    dlp_eff_curve cls[DLP_OPC_COUNT_];   /* by dlp_op_class                      */
    /* Measured/predicted kernel-time quantiles (p10, p90) of this predictor,
     * leave-one-GPU-out; the prediction's band.  0, 0: no band. */
    double band_lo, band_hi;
} dlp_efficiency;

/* The calibration fitted on measured kernel times (NeuSight's data set, six
 * GPUs, fp32 PyTorch 2.1; docs/predict.md, "Efficiency curves").  Never NULL. */
const dlp_efficiency *dlp_efficiency_builtin(void);
/* Pure roofline: every curve zero, with the band measured for it. */
const dlp_efficiency *dlp_efficiency_pure(void);

#define DLP_PREDICT_MIG_MARGIN 0.10    /* default MIG safety margin           */
#define DLP_PREDICT_LAUNCH_US 5.0      /* default per-kernel launch overhead  */

/* Options; zero-initialise, 0 fields take the defaults shown. */
typedef struct {
    int mode;                  /* dlp_predict_mode: inference (0) or training  */
    int dtype;                 /* compute dtype: DLP_DT_FLOAT, _FLOAT16,
                                  _BFLOAT16 or _INT8; 0 = the file's float type.
                                  fp32/fp16/bf16 tensors of the file take its
                                  size (as autocast / .half() would)            */
    int64_t batch;             /* samples per pass, for throughput; 0 = the
                                  graph's bound batch (1 if none)               */
    double runs;               /* inference: forward passes of the batch that
                                  cost/carbon are for; 0 = 1                     */
    double steps;              /* training steps to cost; 0 = 1                 */
    const char *region;        /* carbon region; NULL or "" = the DB default    */
    double mig_margin;         /* 0 = DLP_PREDICT_MIG_MARGIN; < 0 = no margin   */
    double latency_slo_ms;     /* MIG latency objective; 0 = none               */
    int tf32;                  /* dlp_tf32_mode                                  */
    int optimizer;             /* dlp_optim (training)                           */
    double launch_us;          /* per-kernel overhead, us; 0 = default; < 0 = 0 */
    int pure_roofline;         /* 1: efficiency 1 everywhere                     */
    int fuse;                  /* 1 (inference): elementwise/activation ops and
                                  BatchNorm fed only by a conv/gemm/matmul run
                                  in its epilogue (TensorRT, torch.compile)     */
    const dlp_efficiency *eff; /* NULL = dlp_efficiency_builtin()  (on a CPU:
                                  NULL = pure roofline; the GPU calibration
                                  does not describe CPU kernels)               */
    int no_learned;            /* 1: analytic only, ignore shipped models       */
    int runtime;               /* dlp_runtime: which runtime's kernels are timed
                                  (0 = eager PyTorch 2.x)                        */
    int memfmt;                /* dlp_memfmt: NCHW (0) or channels_last         */
    int no_sdpa;               /* 1: attention runs as written (bmm, softmax,
                                  bmm), for code that does not call SDPA        */
    int no_amp;                /* 1: fp16/bf16 as model.half(); 0 (default):
                                  torch.autocast, whose fp32 ops (softmax)
                                  cast up and back                               */
    double power_limit_w;      /* board power limit, W (nvidia-smi -pl); 0 = the
                                  device's TDP; above TDP is refused.  Clocks
                                  drop where a kernel would draw more (DVFS)   */
    double host_us;            /* host CPU time to issue one kernel, us (eager
                                  runtimes): a kernel starts at the later of the
                                  previous kernel's end and its issue time, so
                                  short kernels wait for the host; 0 = the host
                                  is never the bottleneck (docs/predict.md)    */
    int cudnn;                 /* cuDNN major version the eager runtime links:
                                  0 = the runtime's own (eager-1.x: 8, eager:
                                  9), 8 (PyTorch 1.x .. 2.3 wheels) or 9 (2.4
                                  on); picks cuDNN 8's grouped-conv kernels  */
} dlp_predict_opts;

/* Per-op dispatch overhead of PyTorch eager on a CPU, us, used instead of
 * the kernel launch when launch_us is 0 (docs/learned.md says how it was
 * derived from data/cpu/runs.sqlite), and the measured process base memory
 * (Python + torch before the model, memory_base_mb in the store), MiB. */
#define DLP_PREDICT_CPU_DISPATCH_US 67.0
#define DLP_PREDICT_CPU_BASE_MIB 148.7

/* Where one predicted quantity comes from. */
typedef struct {
    int learned;               /* 1: a shipped learned model; 0: analytic        */
    double analytic;           /* the analytic value (kept when learned)         */
    char model[96];            /* the model's file name; "" when analytic        */
    char accuracy[192];        /* its measured accuracy, as the model states it  */
} dlp_pred_source;

/* One node's share of the prediction (topological order). */
typedef struct {
    int node;                  /* graph node index                              */
    int op_class;              /* dlp_op_class                                   */
    int kernels;               /* forward kernels launched; 0 = no kernel (view,
                                  shape arithmetic, constant)                    */
    int bound;                 /* 'c' compute, 'm' memory, 0 no kernel          */
    int tensor_core;           /* ran on tensor / matrix cores                   */
    int unknown;               /* cost unknown (unknown op or shape)             */
    int fused_into;            /* node whose kernel runs this one; -1: none     */
    double flops, bytes;       /* forward work after dtype scaling (a fusion
                                  root includes its fused nodes' work)         */
    double peak_flops;         /* ceiling of its unit, FLOP/s                   */
    double ratio;              /* efficiency curve's time multiplier (>= 1)     */
    double kernel_ms;          /* forward kernel time, no launch overhead        */
    double time_ms;            /* forward time incl. launch overhead             */
    double bwd_ms;             /* training: backward time incl. launches        */
    double energy_j;           /* forward + backward energy                      */
} dlp_node_pred;

/* One kernel of the lowered list (dlperf predict --kernels). */
typedef struct {
    char name[40];             /* as torch.profiler names the op that launches it:
                                  "aten::addmm", "aten::layer_norm", ...        */
    int kclass;                /* dlp_kernel_class                               */
    int phase;                 /* 0 forward, 1 backward, 2 optimizer/casts       */
    int node;                  /* anchor graph node; -1 none (optimizer)       */
    int n_nodes;               /* graph nodes it covers                          */
    int count;                 /* identical launches this row stands for        */
    int bound;                 /* 'c' compute, 'm' memory                       */
    int tensor_core;
    double flops, bytes;       /* per launch                                     */
    double peak_flops;
    double ratio;              /* efficiency curve's time multiplier (>= 1)     */
    double kernel_ms;          /* per launch, without launch overhead            */
    double time_ms;            /* all launches, with launch overhead             */
    const char *curve;         /* where the curve comes from (static string)    */
} dlp_kernel_pred;

typedef struct {
    char method[96];           /* "roofline" or "roofline+<calibration>"        */
    char model[128], device[64], region[32];
    int mode, dtype, optimizer;
    int64_t batch;
    double latency_ms;         /* one forward pass of the batch                 */
    double step_ms;            /* training: forward + backward + optimizer; 0   */
    double throughput_sps;     /* samples per second                            */
    double band_lo_ms, band_hi_ms; /* of latency (inference) or step; 0: none   */
    double memory_mb;          /* peak device memory, MiB = sum of the parts:   */
    double weights_mb, activations_mb, gradients_mb, optimizer_mb, workspace_mb,
           context_mb;         /* context: CUDA context + allocator overhead     */
    double energy_j;           /* one pass (inference) or one step (training)   */
    double power_w;            /* average board power over it                   */
    double utilisation;        /* time-weighted share of the bound resource's
                                  peak, 0..1 (launch gaps count as 0)          */
    double flops, bytes;       /* per pass / step                                */
    int kernels;               /* per pass / step                                */
    int n_unknown;             /* nodes whose cost is unknown                    */
    double mig_margin;
    dlp_mig_choice mig;        /* for memory_mb and the full-GPU time           */
    double runs, steps;        /* what cost and carbon are for                  */
    double total_hours;        /* time of all runs / steps                      */
    double price_usd_per_hour; /* 0: the device has no price                    */
    double cost_usd;           /* -1: no price                                  */
    double energy_kwh;         /* all runs / steps, at the board                */
    double pue, g_per_kwh;
    double co2_g;              /* energy_kwh x pue x g_per_kwh                  */
    int n_nodes;
    dlp_node_pred *nodes;      /* n_nodes entries; freed by dlp_prediction_clear */
    int device_kind;           /* dlp_device_kind of the device                  */
    int energy_known;          /* 0: the device has no power data (a CPU without
                                  TDP): energy_j, power_w, energy_kwh and co2_g
                                  are NaN                                        */
    dlp_pred_source time_src;  /* latency_ms (inference) or step_ms (training);
                                  throughput and cost follow it                  */
    dlp_pred_source memory_src;/* memory_mb; the breakdown stays analytic and
                                  sums to memory_src.analytic                    */
    char learned_note[256];    /* shipped models skipped and why ("" none)      */
    int runtime, memfmt;       /* the profile the kernels were lowered for      */
    int n_kernel_rows;
    dlp_kernel_pred *kernel_rows; /* the lowered kernel list with times (forward,
                                  then backward and optimizer in training);
                                  freed by dlp_prediction_clear                  */
    int fits;                  /* memory_mb <= device_memory_mb (1 when the
                                  device's memory is not in the database); a
                                  prediction that does not fit still has its
                                  times, as if it did, and says so             */
    double device_memory_mb;   /* the device's memory, MiB; 0: unknown          */
    double clock_share;        /* core clock over the kernels (time-weighted),
                                  share of boost: 1 = boost held; below 1 the
                                  board's power limit forced lower clocks (DVFS,
                                  docs/predict.md)                              */
    double power_limit_w;      /* the board limit it ran under (TDP unless
                                  opts.power_limit_w set a lower one)           */
} dlp_prediction;

/* Set opts for a runtime profile, with its presets: the profile's lowering,
 * no forced fusion, the calibrated curves and the default launch overhead;
 * TensorRT also takes the pure roofline and no launch gaps (one engine
 * enqueued at once; its kernels beat PyTorch's curves: docs/predict.md).
 * Fields set afterwards still override.  The CLI's --runtime and the HTTP
 * API's 'runtime' both go through it. */
void dlp_predict_use_runtime(dlp_predict_opts *opts, int runtime);

/* Predict graph g on device d.  db gives carbon and PUE (NULL: the built-in
 * database).  opts may be NULL (all defaults).  On failure *out is zeroed;
 * DLP_ENOTFOUND for an unknown region, DLP_EINVAL for bad options. */
dlp_status dlp_predict(const dlp_graph *g, const dlp_device *d, const dlp_devdb *db,
                       const dlp_predict_opts *opts, dlp_prediction *out, dlp_error *err);
void dlp_prediction_clear(dlp_prediction *p);

/* Cost of `count` repetitions of something taking time_ms each at
 * price_usd_per_hour: price x time_ms x count / 3.6e6. */
double dlp_cost_usd(double price_usd_per_hour, double time_ms, double count);
/* Carbon of energy_j at the board: energy_j / 3.6e6 x pue x g_per_kwh. */
double dlp_co2_g(double energy_j, double pue, double g_per_kwh);

/* Roofline chart of a prediction as a standalone SVG document: log-log
 * arithmetic intensity (FLOP/byte) vs FLOP/s, the FP32 vector and the
 * dtype's tensor ceilings, the bandwidth slope, one point per costed node
 * sized by its share of predicted time, coloured by op class.  d must be the
 * prediction's device. */
dlp_status dlp_roofline_svg(const dlp_prediction *p, const dlp_device *d, const char *path,
                            dlp_error *err);
/* Same into a malloc'ed NUL-terminated buffer (free it with dlp_free). */
dlp_status dlp_roofline_svg_mem(const dlp_prediction *p, const dlp_device *d, char **buf,
                                size_t *len, dlp_error *err);

/* ==== END predict ==== */

/* ==== BEGIN llm (src/llm) ==== */

/* Large language models (docs/llm.md): a transformer graph built from a
 * Hugging Face config.json (or the built-in catalogue of configs) into the
 * same IR as an ONNX file, the thesis' table 6.3 features, gradient-boosted
 * trees (libxgboost) in a versioned, checksummed model file, and predictions
 * of throughput, peak memory, energy and carbon. */

/* Weight formats of the memory rules (docs/llm.md, "Memory rules"). */
typedef enum {
    DLP_QT_FP32 = 0, DLP_QT_FP16, DLP_QT_BF16,
    DLP_QT_INT8,               /* bitsandbytes LLM.int8: int8 Linear weights     */
    DLP_QT_NF4,                /* bitsandbytes 4-bit NF4, double quantisation    */
    /* serving formats (docs/llm.md, "Precisions"): Linear weights of the
     * transformer blocks; embeddings, norms, biases and the LM head 16-bit */
    DLP_QT_FP8,                /* e4m3 + fp32 scale per 128x128 block: ~8.002 bits*/
    DLP_QT_INT4,               /* AWQ/GPTQ: group 128, fp16 scale + 4-bit zero   */
    DLP_QT_MXFP4,              /* OCP MX: e2m1, block 32, e8m0 scale: 4.25 bits;
                                  MoE models: routed experts only (gpt-oss)      */
    DLP_QT_NVFP4,              /* NVIDIA: e2m1, block 16, e4m3 scale + fp32 per
                                  tensor: 4.5 bits                              */
    DLP_QT_COUNT_
} dlp_quant;
const char *dlp_quant_name(dlp_quant q);   /* "fp32" ... "nvfp4"; "?" out of range     */
/* fp32|fp16|bf16|int8|nf4|fp8|int4|mxfp4|nvfp4 and float32/float16/half/
 * bfloat16/8bit/4bit/e4m3/awq/gptq/fp4 (= mxfp4); case-insensitive; -1 if
 * unknown. */
int dlp_quant_parse(const char *s);
/* dlp_dtype the activations use between kernels: FLOAT, FLOAT16 (fp16, int8,
 * nf4, int4), BFLOAT16 (bf16, fp8, mxfp4, nvfp4). */
int dlp_quant_act_dtype(dlp_quant q);

typedef enum {
    DLP_POS_NONE = 0, DLP_POS_LEARNED, DLP_POS_ROTARY,
    DLP_POS_RELATIVE,          /* DeBERTa disentangled attention                 */
    DLP_POS_ALIBI
} dlp_llm_pos;
typedef enum {
    DLP_ACT_GELU = 0, DLP_ACT_GELU_TANH, DLP_ACT_RELU, DLP_ACT_SILU,
    DLP_ACT_RELU2,             /* relu(x)^2 (Nemotron-H)                          */
    DLP_ACT_SWIGLU_OAI,        /* gpt-oss: (up + 1) * g * sigmoid(1.702 g), clamped */
    DLP_ACT_GELU_NEW           /* Hugging Face's gelu_new (NewGELUActivation): the tanh GELU
                                  written out in Python (eight tensor ops eager) */
} dlp_llm_act;

/* Layers a config may describe one by one (layer_kind). */
#define DLP_LLM_MAX_LAYERS 512
/* layer_kind bits */
enum {
    DLP_LK_SLIDING = 1,        /* attention limited to sliding_window tokens     */
    DLP_LK_DENSE = 2,          /* dense MLP in a MoE model (DeepSeek's first_k_dense)*/
    DLP_LK_MAMBA = 4,          /* Mamba-2 mixer instead of attention             */
    DLP_LK_NO_ATTN = 8,        /* no attention/mixer (Nemotron-H '-' MLP block)  */
    DLP_LK_NO_MLP = 16,        /* no MLP (Nemotron-H 'M' and '*' blocks)          */
    DLP_LK_NOPE = 32,          /* attention without rotary (Llama 4 every 4th)   */
    DLP_LK_LINEAR_ATTN = 64,   /* Gated DeltaNet linear attention instead of
                                  attention (Qwen3-Next / Qwen3.5)              */
    DLP_LK_SHARED_INDEX = 128  /* DSA layer reusing the previous layer's top-k
                                  (no indexer of its own; GLM-5.2 IndexShare)   */
};

/* A transformer, as the builder understands it.  dlp_llm_config_parse fills
 * every field from a config.json (family defaults, then the file's fields);
 * zero-initialise when filling it by hand. */
typedef struct {
    char id[96];               /* catalogue id, or the config file's base name  */
    char hf_id[96];            /* Hugging Face repo id when known, else ""      */
    char model_type[32];       /* HF model_type: "bert", "llama", ...           */
    int64_t hidden_size, num_hidden_layers, num_attention_heads;
    int64_t num_key_value_heads;   /* < heads: grouped-query attention          */
    int64_t head_dim;              /* hidden / heads unless the config says     */
    int64_t intermediate_size, vocab_size, max_position_embeddings;
    int64_t type_vocab_size;       /* token-type rows (BERT 2, RoBERTa 1, else 0)*/
    int64_t num_experts, experts_per_token;  /* MoE (Mixtral); 0: dense      */
    int64_t embed_proj_dim;        /* OPT word_embed_proj_dim != hidden; else 0 */
    int64_t position_offset;       /* first learned position row (RoBERTa, OPT 2)*/
    int64_t position_buckets;      /* DeBERTa: rel_embeddings has 2x rows       */
    int encoder_only;              /* 1: no LM head (BERT family)               */
    int tie_word_embeddings;       /* LM head reuses the token embedding        */
    int pooler;                    /* BERT/RoBERTa pooler (dense + tanh)        */
    int mlm_head;                  /* encoder with its masked-LM head (config's
                                      architectures: *ForMaskedLM, BertLMHeadModel)*/
    int pre_norm;                  /* 0: post-norm (BERT family, OPT-350m)      */
    int rms_norm;                  /* 1: RMSNorm, 0: LayerNorm                  */
    int norm_bias;                 /* LayerNorm has a bias                      */
    int embed_norm;                /* norm after the embeddings (BERT, BLOOM)   */
    int final_norm;                /* norm before the head (pre-norm models)    */
    int sandwich_norm;             /* Gemma-2: norms after attention and MLP too*/
    int parallel_residual;         /* attention and MLP read the same input     */
    int shared_parallel_norm;      /* ... through one norm (GPT-J, Phi, Falcon-7B)*/
    int gated_mlp;                 /* act(gate(x)) * up(x) -> down              */
    int fused_qkv, fused_gate_up;  /* one MatMul for q,k,v / gate,up (as HF)    */
    int qkv_bias, out_bias, mlp_bias, lm_head_bias;
    int act;                       /* dlp_llm_act                               */
    int position;                  /* dlp_llm_pos                               */
    double rotary_fraction;        /* share of head_dim rotated (Phi 0.4, NeoX .25)*/
    double rope_theta, norm_eps;
    int embed_scale;               /* Gemma: embeddings x sqrt(hidden)          */
    double attn_softcap;           /* Gemma-2 logit soft-capping; 0: none        */
    int64_t params_ref;            /* catalogue: published parameter count, 0 ?  */
    int64_t active_params_ref;     /* catalogue: published active count (MoE)    */
    /* ---- 2025-26 architectures (docs/llm.md, "Architectures") ---- */
    int qk_norm;                   /* 1: RMSNorm (head_dim weights) on q and k
                                      (Qwen3, Gemma 3); 2: weightless L2 norm
                                      (Llama 4); 3: RMSNorm over the whole q and
                                      k projections (MiniMax-M2 "per_layer")   */
    int attn_output_gate;          /* Qwen3-Next/3.5: q_proj also gives a gate,
                                      o = o_proj(attn * sigmoid(gate))          */
    int shared_expert_gate;        /* Qwen3-Next/3.5: shared expert output x
                                      sigmoid(Linear(H, 1))                     */
    int64_t sliding_window;        /* window of DLP_LK_SLIDING layers, tokens    */
    int attn_sinks;                /* gpt-oss: a learned sink logit per head     */
    int64_t moe_intermediate_size; /* routed expert width; 0: intermediate_size  */
    int64_t shared_expert_intermediate_size; /* shared experts' total width; 0 */
    int moe_router_bias, moe_expert_bias;    /* gpt-oss: biases on router/experts*/
    int moe_grouped;               /* experts as one batched (E, in, out) MatMul */
    /* MLA (DeepSeek-V3/R1): q_lora_rank 0 = plain q projection */
    int64_t q_lora_rank, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim;
    /* Mamba-2 mixer (Nemotron-H) */
    int64_t mamba_num_heads, mamba_head_dim, ssm_state_size, mamba_n_groups;
    int64_t mamba_conv_kernel, mamba_chunk_size;
    int mamba_conv_bias;
    /* Gated DeltaNet (DLP_LK_LINEAR_ATTN layers): key/value heads and dims,
     * causal conv kernel, chunk of the chunked delta rule (64) */
    int64_t linear_num_key_heads, linear_num_value_heads, linear_key_head_dim, linear_value_head_dim;
    int64_t linear_conv_kernel, linear_chunk_size;
    /* DeepSeek Sparse Attention (GLM-5, DeepSeek-V3.2): the lightning
     * indexer's heads and head dim, and the tokens each query attends to */
    int64_t index_n_heads, index_head_dim, index_topk;
    char weights_format[16];       /* the checkpoint's native weight format
                                      ("fp8", "nvfp4", "mxfp4", dlp_quant_parse
                                      names); "" = 16-bit release or not stated */
    int mlp_act;                   /* dlp_llm_act of plain MLP blocks (Nemotron-H
                                      relu2 = DLP_ACT_RELU2); act otherwise      */
    int64_t image_tokens;          /* VLM language stack: image tokens added to
                                      every sequence (a count; the vision tower's
                                      own cost is dlp_llm_vision_flops' ViT)     */
    /* VLM vision tower, from the config's vision_config (0: text-only model;
     * docs/llm.md, "Vision-language models"): a ViT of vision_layers blocks
     * of width vision_hidden (MLP vision_intermediate, SwiGLU when
     * vision_gated) over patches of vision_patch pixels, then a merger of
     * vision_merge x vision_merge patches into one token of
     * vision_out_hidden (Qwen-VL), or a fixed vision_image_size input pooled
     * to vision_tokens_per_image tokens (Gemma 3's SigLIP). */
    int64_t vision_layers, vision_hidden, vision_intermediate;
    int64_t vision_patch, vision_merge, vision_temporal_patch;
    int64_t vision_image_size, vision_tokens_per_image, vision_out_hidden;
    int vision_gated;
    int64_t vision_deepstack;      /* Qwen3-VL: extra mergers feeding early
                                      language layers (deepstack_visual_indexes) */
    int64_t vision_window;         /* Qwen2.5-VL: patches one windowed-attention
                                      layer attends to ((window_size / patch)^2);
                                      0: every layer attends to the whole image */
    int64_t vision_full_layers;    /* ... and its full-attention layers        */
    int64_t vision_max_tiles;      /* InternVL-style tiling (Nemotron Nano VL):
                                      an image is cut into at most this many
                                      vision_image_size tiles of the closest
                                      aspect ratio; 0: no tiling               */
    int vision_thumbnail;          /* ... plus one whole-image tile when cut
                                      into more than one                       */
    int64_t vision_proj_hidden;    /* projector MLP width (InternVL mlp1: norm,
                                      Linear(H m^2 -> this), act, Linear(-> out));
                                      0: the family's own merger / projector   */
    /* Per-layer exceptions to "attention + MLP (MoE when num_experts > 0)";
     * 0 everywhere for uniform stacks. */
    unsigned char layer_kind[DLP_LLM_MAX_LAYERS];
    /* KV heads of each layer where they vary (DeciLM's variable GQA, its
     * config's num_key_value_heads_per_layer); 0: num_key_value_heads,
     * which is then the largest of them.  The graph and dlp_llm_kv_bytes
     * read it per layer. */
    unsigned char kv_heads_layer[DLP_LLM_MAX_LAYERS];
    /* Dropout probabilities of the modeling code (0: none): on the attention
     * probabilities, on each sublayer's output before its residual add, on
     * the embeddings.  Kernels only in training with p > 0. */
    double attn_dropout, resid_dropout, embed_dropout;
    /* 0: the graph of Hugging Face's eager modeling code (gelu_new written
     * out, Dropout nodes, BERT's mask add, OPT's score clamp); 1: a serving
     * engine's (vLLM, TensorRT-LLM: one fused GELU kernel, no dropout, the
     * mask inside the attention kernel) */
    int engine_form;
} dlp_llm_config;

/* Parse a config.json held in a NUL-terminated buffer (`name` is used in
 * messages and as the id).  Errors are one line naming the file and the field:
 * "cfg.json: field 'hidden_size' is missing" (DLP_EFORMAT), an unknown
 * model_type gives DLP_EUNSUPPORTED. */
dlp_status dlp_llm_config_parse(const char *json, const char *name, dlp_llm_config *out,
                                dlp_error *err);
dlp_status dlp_llm_config_load(const char *path, dlp_llm_config *out, dlp_error *err);

/* The built-in catalogue (data/llm_configs.json compiled in). */
int dlp_llm_catalogue_count(void);
const char *dlp_llm_catalogue_at(int i);           /* NULL out of range */
/* By id, HF id or alias, case-insensitive ("bert-base-uncased",
 * "meta-llama/Llama-2-7b-hf", "llama-2-7b").  DLP_ENOTFOUND names the
 * closest ids. */
dlp_status dlp_llm_catalogue_get(const char *id, dlp_llm_config *out, dlp_error *err);
/* What --model names (docs/llm.md, "Models"): a catalogue id; else a
 * folder holding config.json (or a config file); else a Hugging Face id
 * ("org/name") found in the local hub cache — $HF_HUB_CACHE, $HF_HOME/hub,
 * ~/.cache/huggingface/hub, models--ORG--NAME/snapshots/<rev>/config.json
 * (refs/main's revision first).  Offline.  DLP_ENOTFOUND names where it
 * looked. */
dlp_status dlp_llm_model_find(const char *model, dlp_llm_config *out, dlp_error *err);

/* VLMs (docs/llm.md, "Vision-language models").  The vision tower's weights
 * (0 for a text-only model): patch embedding, vision_layers ViT blocks, the
 * merger / projector into the language model's width. */
int64_t dlp_llm_vision_params(const dlp_llm_config *c);
/* Image tokens `images` pictures of width x height pixels give the language
 * model: Qwen-VL-style towers resize to multiples of patch x merge within
 * 4-16,384 tokens per image and give (h / 28)(w / 28)-like counts (Qwen2.5-VL
 * 28 px per token, Qwen3-VL 32); a fixed-size tower (Gemma 3) gives its
 * tokens per image whatever the size.  frames > 0: a video of that many
 * frames per item (frames / temporal_patch groups of tokens).  DLP_EINVAL
 * naming the model when it has no vision tower, or a tower whose token count
 * the config does not give (then use image_tokens directly). */
dlp_status dlp_llm_image_tokens(const dlp_llm_config *c, int64_t images, int64_t width, int64_t height,
                                int64_t frames, int64_t *tokens, dlp_error *err);

/* What the builder counted while adding weights. */
typedef struct {
    int64_t params;                  /* parameters, tied weights once: all experts*/
    int64_t active_params;           /* used per token: params less the routed
                                        experts a token does not visit (MoE: top-k
                                        routed + shared experts); = params if dense*/
    int64_t embed_params;            /* the token-embedding table (a lookup: read
                                        one row per token)                      */
    int64_t linear_params;           /* weights a bitsandbytes quantiser converts*/
    int64_t weight_bytes[DLP_QT_COUNT_];   /* bytes per format (memory rules)   */
} dlp_llm_weights;

/* Cache bytes one sequence holds after `tokens` tokens, elem_bytes per
 * element (docs/llm.md, "KV cache"): full-attention layers 2 x kv_heads x
 * head_dim per token (MLA: kv_lora_rank + qk_rope_head_dim, + index_head_dim
 * on DSA layers with an indexer), sliding-window layers at most
 * sliding_window tokens, Mamba-2 and Gated DeltaNet layers a constant state
 * (conv + SSM / recurrent) whatever the length. */
double dlp_llm_kv_bytes(const dlp_llm_config *c, int64_t tokens, double elem_bytes);

/* Build the forward pass for input_ids (batch, seq) int64 with activations in
 * dlp_quant_act_dtype(quant), then finalize (shapes, costs, liveness).
 * Weights in the graph have the activation dtype; the quantised bytes are in
 * *w (may be NULL).  DLP_EINVAL for a config the builder cannot honour. */
dlp_status dlp_llm_build(const dlp_llm_config *c, int64_t batch, int64_t seq, dlp_quant quant,
                         dlp_graph **out, dlp_llm_weights *w, dlp_error *err);

/* Features (thesis table 6.3, plus the ones dlperf adds; docs/llm.md). */
enum {
    /* model features (MF) of table 6.3 */
    DLP_LF_BS = 0, DLP_LF_SL, DLP_LF_QT, DLP_LF_TN, DLP_LF_TE, DLP_LF_TM, DLP_LF_TP,
    DLP_LF_TMMEM, DLP_LF_MPE, DLP_LF_NHL, DLP_LF_NAH, DLP_LF_HS, DLP_LF_VS, DLP_LF_TVS,
    /* model / workload features dlperf adds */
    DLP_LF_NKV, DLP_LF_IS, DLP_LF_NE, DLP_LF_GEN, DLP_LF_NGPU, DLP_LF_WB, DLP_LF_AT,
    /* hardware features (HF) of table 6.3 (GPU part) */
    DLP_LF_PF32, DLP_LF_PBHBM, DLP_LF_CM, DLP_LF_CMIN, DLP_LF_MTPB, DLP_LF_MTPM,
    DLP_LF_RPB, DLP_LF_RPM, DLP_LF_WS, DLP_LF_SMPB, DLP_LF_SMMP, DLP_LF_SMS, DLP_LF_SMPBO,
    /* hardware features dlperf adds */
    DLP_LF_PTC, DLP_LF_MEM, DLP_LF_L2, DLP_LF_TDP,
    DLP_LF_COUNT
};
const char *dlp_llm_feature_name(int k);     /* "BS", "TM", "PF32", ...; NULL  */
int dlp_llm_feature_index(const char *name); /* -1 if unknown                   */
int dlp_llm_feature_is_hw(int k);            /* 1 for hardware features         */

/* A workload: one forward pass of (batch, seq), or with gen_tokens > 0 a
 * generation of that many tokens per sequence after the prompt (KV cache). */
typedef struct {
    int64_t batch, seq;
    int64_t gen_tokens;        /* 0: forward pass only (the thesis' protocol)  */
    int quant;                 /* dlp_quant                                    */
    int n_gpus;                /* tensor-parallel GPUs; 0 means 1              */
    int kv_dtype;              /* dlp_dtype of the KV cache: FLOAT, FLOAT16,
                                  BFLOAT16 or a FLOAT8 type (1 byte); 0 = the
                                  activation dtype                             */
    /* ---- serving (docs/llm.md, "Serving"): concurrency > 0 or max_fit turns
     * the request into a continuous-batching serving estimate: seq is the
     * prompt, gen_tokens the output of every request, batch is ignored. */
    int64_t concurrency;       /* requests in flight per replica (n_gpus)      */
    int max_fit;               /* 1: concurrency = the most the KV cache holds */
    int ep;                    /* MoE expert-parallel degree within n_gpus
                                  (experts split over ep, each expert's
                                  matrices over n_gpus / ep); 0: 1             */
    int attn_dp;               /* attention data-parallel degree within n_gpus
                                  (attention TP = n_gpus / attn_dp); 0: 1      */
    int phase;                 /* dlp_llm_phase                                 */
    double mem_fraction;       /* of device memory the engine takes (vLLM's
                                  gpu_memory_utilization, SGLang's
                                  mem_fraction_static); served TensorRT-LLM:
                                  of the memory left after the weights and
                                  activations (free_gpu_memory_fraction);
                                  0: 0.9                                       */
    int64_t max_seqs;          /* the engine's limit on running sequences
                                  (vLLM max_num_seqs); 0: the engine's default
                                  (docs/llm.md, "Engine defaults": by engine,
                                  client mode and GPU memory).  It bounds
                                  every concurrency, --max-fit's too          */
    double rate;               /* > 0: open-loop clients, Poisson arrivals of
                                  this many requests/s per replica (instead of
                                  concurrency; aggregated phase only)          */
    int engine;                /* dlp_llm_engine: the engine's CPU side per step */
    /* speculative decoding with MTP draft layers (DeepSeek-V3's multi-token
     * prediction as TensorRT-LLM and SGLang run it; docs/llm.md, "MTP"):
     * every decode step drafts spec_tokens tokens per sequence (one draft
     * layer pass each) and verifies them with 1 + spec_tokens query tokens
     * in one forward of the model; spec_accepted of the drafts are accepted
     * per step on average, a measured value of the deployment (0 <=
     * spec_accepted <= spec_tokens; there is no default).  0: none.
     * Serving, aggregated or decode workers, modern engines only. */
    int spec_tokens;
    double spec_accepted;
    /* the client mode offline (docs/llm.md, "Client models"): every request
     * submitted at once through the engine's Python entry (vLLM's
     * LLM.generate(), TensorRT-LLM's run.py), no HTTP server, no streaming:
     * no front end in TTFT (request_ms 0), TTFT = the batch's prefill
     * rounds, no prompts arriving during the decode; vllm-v0 loses the API
     * server's share of its per-step CPU time.  Not with rate.  0: served. */
    int offline;
    /* serving: prompt tokens a step takes at most (vLLM
     * max_num_batched_tokens, SGLang chunked_prefill_size, TensorRT-LLM
     * max_num_tokens); 0: the engine's default (docs/llm.md, "Engine
     * defaults") */
    int64_t chunk_tokens;
    /* SGLang's --max-prefill-tokens: the prompt tokens one prefill batch
     * takes whole prompts up to (a prompt after the first joins while its
     * tokens are under what is left; docs/llm.md, h186); SGLang prefill
     * workers only (engine sglang, phase prefill: refused elsewhere, where
     * nothing models it).  0: SGLang's default, 16,384 */
    int64_t max_prefill_tokens;
    /* TensorRT-LLM's batch waiting (its LLM API options batch_wait_timeout_iters
     * and batch_wait_max_tokens_ratio x max_num_tokens; docs/llm.md, "Batch
     * waiting"): while sequences are decoding, a new prompt is held until
     * batch_wait_iters iterations have passed or the iteration's tokens (the
     * held prompts' plus one per running sequence and draft) reach
     * batch_wait_tokens; the engine waits only with both set and not under
     * attention DP.  Aggregated serving, engine trtllm only.  0: off. */
    int batch_wait_iters;
    double batch_wait_tokens;
    /* redundant experts (EPLB's expert slots: TensorRT-LLM num_slots,
     * SGLang and vLLM experts + num_redundant_experts; docs/llm.md,
     * "Redundant experts"): the EP ranks hold expert_slots copies of the
     * experts in all, expert_slots / ep each, the hot experts replicated.
     * expert_slots >= the model's experts and a multiple of ep; MoE only.
     * The weights per GPU follow the slots, the expert time per rank the
     * slots its rows hit.  Serving only.  0: the model's experts. */
    int expert_slots;
    /* the engine runs without CUDA graphs (vLLM --enforce-eager, SGLang
     * --disable-cuda-graph, TensorRT-LLM without cuda_graph_config, and
     * vLLM before 0.2.5, which had none): every step issues each layer's
     * kernels from the host, a fixed time per layer on top of the step
     * (docs/llm.md, "Eager engines"), and attention DP pads nothing to a
     * captured size.  Serving only.  0: graphed (the engines' default). */
    int eager;
    /* SGLang's --scheduler-recv-interval (docs/llm.md, "SGLang's scheduler
     * receive interval"): the scheduler reads new requests only once its
     * counter, 1 per decode step and 1000 per prefill, reaches this, so a
     * prompt arriving while others decode waits for the next reading.
     * Aggregated serving, engine sglang only.  0 or 1: every step (SGLang's
     * default). */
    int recv_interval;
    /* TensorRT-LLM's attention-DP balance (its attention_dp_config
     * enable_balance with timeout_iters = this, batching_wait_iters 0;
     * docs/llm.md, "TensorRT-LLM's attention-DP balance"): while some
     * attention-DP rank has no prompt waiting, every rank holds its waiting
     * prompts, counting iterations, and lets them in when all ranks have one
     * or the count reaches this.  Aggregated serving, engine trtllm, attention
     * DP > 1 only.  0: no balance (the engine's default). */
    int adp_balance_iters;
    /* the benchmark sends every request with the same prompt and output
     * length (aiperf / genai-perf with the lengths' stddev 0 and ignore_eos;
     * docs/llm.md, "The gap-analysis dumps"): under a prefill-first engine
     * (SGLang without mixed chunks) a closed loop's waves then never part.
     * Aggregated served clients only.  0: lengths spread (benchmark_serving's
     * random range), as before. */
    int fixed_lengths;
    /* SGLang's --enable-mixed-chunk: a prefill batch carries the running
     * decodes, so the engine no longer runs waiting prompts in steps of their
     * own (decode-first in effect).  Engine sglang, aggregated only. */
    int mixed_chunk;
    /* every request is a copy of one prompt, decoded greedily (top_k 1), so
     * all copies emit the same tokens and an MoE router sends them to the
     * same experts: a decode step hits the experts of one token, a prompt
     * round those of one prompt, whatever the batch (LLM-Inference-Bench's
     * TensorRT-LLM harness, run_power.py generate_input; docs/llm.md,
     * "Copies of one prompt").  MoE models only move.  0: distinct requests. */
    int same_prompts;

    /* TensorRT-LLM's moe_config backend TRTLLM (docs/llm.md, "TensorRT-LLM's
     * TRTLLM MoE backend"): the trtllm-gen fused MoE kernels, which on
     * Blackwell run block-fp8 experts several times faster at decode sizes
     * than the DEEPGEMM backend the engine's fp8 fit was timed on.  Block
     * fp8 experts on Blackwell take that kernel's own fit; elsewhere (other
     * formats, Hopper) nothing moves.  Engine trtllm only.  0: the engine's
     * fitted kernel (CUTLASS on Hopper, DEEPGEMM for fp8 on Blackwell). */
    int moe_trtllm_gen;

    /* Host time, ms, that each iteration carrying prompt tokens adds when the
     * engine runs those iterations eagerly (docs/llm.md, "TensorRT-LLM's
     * DeepSeek-R1 aggregated TTFT", h208): TensorRT-LLM's CUDA graphs hold
     * generation-only iterations; a context or mixed one runs eagerly unless
     * torch_compile_config.enable_piecewise_cuda_graph captures it.  Added to
     * the engine CPU part of every step with prompt tokens (the burst's and
     * the arriving prompt's), never to a decode-only step.
     * Aggregated serving or a prefill worker (every one of its steps has
     * prompt tokens); library and bench, no CLI yet.  0: none (the default;
     * the bench sets it from the runs' scripts and recipes). */
    double ctx_host_ms;

    /* the run used TensorRT-LLM 0.11's generation attention (offline, engine
     * trtllm, multi_block_mode off): GQA decode attention on XQA's geometry,
     * one block per (KV head, sequence) in waves of one per SM at a fitted
     * per-block rate (docs/llm.md, "h210"; LLM-Inference-Bench's A100 / H100
     * rows).  0: the h173 single-block floor alone. */
    int trt_xqa_block;

    /* SGLang's --moe-a2a-backend is none (its default) under expert
     * parallelism with attention DP (docs/llm.md, h219): no all-to-all; a
     * step with prompt tokens gathers every rank's tokens to every GPU
     * (dp_gather by all-reduce, as without EP), each GPU runs its own
     * experts over all of them (StandardDispatcher only masks the others)
     * and the output is all-reduced back, so a busy prefill rank waits out
     * every rank's step as under EP 1 (h215); a decode step all-gathers.
     * Engine sglang, ep > 1, attn_dp > 1 (ignored elsewhere).  0: the
     * all-to-all the library prices for SGLang's EP steps (DeepEP normal
     * mode on prompt steps, h191). */
    int sglang_a2a_none;
} dlp_llm_workload;
#define DLP_LLM_MAX_SEQS 256

/* What a serving replica runs: both phases (aggregated, continuous batching
 * with chunked prefill), or one side of a disaggregated deployment. */
typedef enum {
    DLP_LLM_AGG = 0,           /* prefill and decode share the GPUs             */
    DLP_LLM_PREFILL_ONLY,      /* a prefill worker: TTFT only                   */
    DLP_LLM_DECODE_ONLY        /* a decode worker: TPOT only (no prefill mixed) */
} dlp_llm_phase;
#define DLP_LLM_MEM_FRACTION 0.9
/* The serving engine's CPU work per iteration (scheduling, sampling,
 * detokenising, output processing; docs/llm.md, "The iteration model").
 * MODERN overlaps it with the GPU step (vLLM >= 0.6 / V1, SGLang,
 * TensorRT-LLM: a small fixed part is left); VLLM_V0 is vLLM <= 0.5's
 * synchronous Python engine, whose per-sequence CPU time is added to every
 * step (fitted on the ML.ENERGY leaderboard v2, vLLM 0.5.4). */
typedef enum {
    DLP_LLM_ENGINE_MODERN = 0,
    DLP_LLM_ENGINE_VLLM_V0,
    /* MODERN's CPU side, each with its own scheduler (TTFT, docs/llm.md
     * "Client models"): SGLang runs waiting prompts before decodes
     * (prefill-first); TensorRT-LLM admits a request only when the cache
     * holds its whole sequence (GUARANTEED_NO_EVICT) */
    DLP_LLM_ENGINE_SGLANG,
    DLP_LLM_ENGINE_TRTLLM
} dlp_llm_engine;
/* "modern" (or "vllm"), "vllm-v0", "sglang", "trtllm" (case ignored) ->
 * dlp_llm_engine; -1 unknown or NULL. */
int dlp_llm_engine_parse(const char *name);
const char *dlp_llm_engine_name(int engine);   /* NULL out of range */
/* "agg", "prefill", "decode" (case ignored) -> dlp_llm_phase; -1 unknown or NULL. */
int dlp_llm_phase_parse(const char *name);
const char *dlp_llm_phase_name(dlp_llm_phase phase);   /* "agg", ...; NULL out of range */

/* The dtype the matrix multiplications of weight format `quant` run in on
 * device d (docs/llm.md, "Precisions"): fp32/fp16/bf16 as named; int8, nf4,
 * int4 in FLOAT16 (weight-only); fp8 on FP8 tensor cores where the device
 * has them (FLOAT8E4M3FN, W8A8), else weight-only dequantised to BFLOAT16
 * (FLOAT16 without bf16); mxfp4/nvfp4 on FP4 tensor cores (FLOAT4E2M1,
 * Blackwell), weight-only to BFLOAT16 on a device with FP8 (Hopper, Ada),
 * and -1 elsewhere (no kernel runs them), with the reason in why[n]. */
int dlp_llm_compute_dtype(const dlp_device *d, dlp_quant quant, char *why, size_t n);

/* The weight format a request without one gets: the checkpoint's own
 * (config weights_format: DeepSeek-V3 fp8, gpt-oss mxfp4, the -FP8 / -NVFP4
 * re-releases) when device d runs it (dlp_llm_compute_dtype), else fp16. */
int dlp_llm_default_quant(const dlp_llm_config *c, const dlp_device *d);

/* Fill f[DLP_LF_COUNT] for a built graph (g, w from dlp_llm_build with the
 * workload's batch/seq/quant) on device d (NULL: hardware features 0). */
void dlp_llm_features(const dlp_llm_config *c, const dlp_graph *g, const dlp_llm_weights *w,
                      const dlp_llm_workload *wl, const dlp_device *d, double *f);

/* The analytic roofline estimate (docs/llm.md) of a workload on device d:
 * latency of one batch in ms and average board power in W (all GPUs). */
void dlp_llm_analytic(const dlp_llm_config *c, const dlp_graph *g, const dlp_llm_weights *w,
                      const dlp_llm_workload *wl, const dlp_device *d, double *latency_ms,
                      double *power_w);

/* ---- predictions ---- */

/* What a workload needs per GPU, MiB, the same in generate mode and serving
 * (docs/llm.md, "One memory story"): fits = total_mb <= the device's memory. */
typedef struct {
    double weights_mb;         /* stored weights (+ the vision tower's) / GPUs  */
    double activations_mb;     /* peak live activations of the prompt's forward
                                  pass (batch x (seq + image tokens); MoE per
                                  routed token) / attention-TP GPUs            */
    double kv_mb;              /* batch caches of seq + image + gen tokens, on
                                  one GPU (split over the KV heads up to TP)   */
    double runtime_mb;         /* DLP_LLM_RUNTIME_GIB: CUDA context, libraries */
    double total_mb;           /* weights + activations + kv + runtime          */
    double workspace_mb;       /* serving only (0 in generate mode): the chunk
                                  workspace the engine reserves beside the cache
                                  (vLLM profiles max_num_batched_tokens); it
                                  sizes the KV cache, not the fits test        */
} dlp_llm_memory;

typedef struct {
    double latency_ms;         /* one batch (prompt + generated tokens)        */
    double throughput_sps;     /* sequences per second                          */
    double tokens_per_s;       /* batch x (seq + gen_tokens) / latency          */
    double memory_mb;          /* peak device memory, MiB                       */
    double weights_mb, activations_mb;
    double power_w;            /* average board power                           */
    double energy_j;           /* per sample (sequence), at the board           */
    double co2_g;              /* per sample: energy x PUE x carbon intensity   */
    double carbon_g_per_kwh, pue;
    int fits;                  /* memory_mb <= device memory                    */
    int64_t params, macs, nodes, edges;
    int64_t active_params;     /* MoE: per token (top-k routed + shared); = params*/
    double kv_bytes_per_seq;   /* KV cache (+ Mamba state) of one sequence at
                                  seq + image tokens + gen, activation dtype
                                  (dlp_llm_kv_bytes) in the KV dtype          */
    int compute_dtype;         /* dlp_llm_compute_dtype of the weights         */
    int kv_dtype;              /* the KV cache's dlp_dtype                     */
    int weight_only;           /* 1: weights dequantised in the kernel          */
    char method[128];          /* "xgb:<model name>" when a trained model gave
                                  the throughput, else "analytic"               */
    char method_throughput[128], method_memory[128], method_energy[128];
    double latency_analytic_ms;/* the analytic estimate beside a learned one    */
    /* ---- serving (workload concurrency > 0 or max_fit; else 0) ---- */
    int serving;               /* 1: the fields below are set                   */
    double ttft_ms;            /* time to first token, mean                     */
    double tpot_ms;            /* time per output token after the first (ITL)   */
    double e2e_ms;             /* ttft + (gen - 1) tpot; = latency_ms           */
    double output_tokens_per_s;/* generated tokens per second, per replica      */
    double requests_per_s;     /* = throughput_sps, per replica                 */
    double energy_per_token_j; /* energy_j / gen tokens                         */
    double power_per_gpu_w;    /* average board power of one GPU (<= TDP)       */
    int64_t concurrency;       /* requests in flight (capped to what fits)      */
    int64_t max_concurrency;   /* prompt+gen sequences the KV cache holds       */
    int64_t kv_capacity_tokens;/* tokens the KV cache holds, per replica        */
    double kv_cache_gib;       /* memory left for the KV cache, per GPU         */
    double ttft_analytic_ms, tpot_analytic_ms; /* before any learned correction */
    double energy_analytic_j;  /* per sample / request, analytic (also when not
                                  serving)                                     */
    double prefill_ms;         /* the prompt's prefill alone (no queueing)      */
    double decode_step_ms;     /* one decode step of the whole batch, no prefill*/
    double comm_ms;            /* collective time inside one mixed iteration    */
    char method_serving[128];  /* "analytic" or "analytic x xgb:<name> (bounded)"*/
    int64_t running;           /* sequences the engine runs at once: the
                                  concurrency bounded by max_seqs and by what
                                  the cache holds at the mean live context;
                                  more clients queue (their wait is in TTFT) */
    int64_t max_seqs;          /* the running limit used: the workload's, or
                                  the engine's default                       */
    int64_t chunk_tokens;      /* the prefill chunk used (tokens a step takes
                                  at most): the workload's, or the engine's  */
    double round_ms;           /* prefill worker: the time its running prompts
                                  take back to back (bounds its requests/s)    */
    double preempted;          /* share of running sequences preempted once
                                  and recomputed (cache exhausted), 0..1       */
    /* ---- VLMs (image_tokens > 0 on a model with a vision tower) ---- */
    /* ---- client model and engine ---- */
    double capacity_rps;       /* open loop (rate > 0): requests/s the replica
                                  sustains at its full running batch; else 0   */
    double queue_ms;           /* open loop: mean wait for a running slot (in
                                  TTFT); 0 for closed-loop clients             */
    double overhead_ms;        /* the engine's CPU time inside one step (in
                                  TPOT)                                        */
    double request_ms;         /* the request's way through the engine's front
                                  end (HTTP, tokenising, the first token back;
                                  in TTFT)                                     */
    double ttft_burst_ms, ttft_steady_ms; /* closed loop, aggregated: the engine's
                                  part of TTFT in the first wave's burst and in
                                  the staggered steady state, which TTFT mixes
                                  by the burst weight (C struct only: what
                                  bench/bench_serving.c refits it from)        */
    int lockstep;              /* closed loop, aggregated: 1 where every wave
                                  of clients arrives, prefills, decodes and ends
                                  together (fixed lengths under a prefill-first
                                  engine), TTFT the burst's                     */
    double kv_handoff_ms;      /* prefill worker: its prompt's KV cache sent to
                                  a decode worker, in its TTFT (the first token
                                  reaches the client from the decode side; C
                                  struct only); 0 otherwise                    */
    double mem_util, math_util;/* the step's bytes over peak bandwidth and FLOPs
                                  over peak math, per second of step (0..1):
                                  what the power follows                       */
    double vision_ms;          /* the vision tower over one request's images
                                  (in prefill_ms and the TTFT; per batch in
                                  generate mode)                               */
    int64_t vision_params;     /* the tower's weights (in weights_mb, not in
                                  params: that is the language stack)          */
    /* ---- one memory story (both modes; docs/llm.md "One memory story") ---- */
    dlp_llm_memory need;       /* what one request of the workload's prompt and
                                  output needs per GPU; fits is its test       */
} dlp_llm_prediction;

/* Predict a workload of config c on device d.  Trained models shipped with
 * the library answer when they cover the device, dtype and workload kind
 * (their metadata says which); otherwise the analytic roofline estimate does
 * (method "analytic").  opts->analytic_only forces the latter; opts->region
 * names the carbon region.  Unknown region: DLP_ENOTFOUND.
 * Requests nothing could run are DLP_EINVAL with one line naming the field
 * (docs/llm.md, "Refusals"): gen on an encoder-only model; seq + image
 * tokens + gen past max_position_embeddings; gpus that does not divide the
 * attention heads (nor divides / is divided by the KV heads, nor divides the
 * Mamba heads); a weight format the device cannot run (dlp_llm_compute_dtype);
 * a model that does not fit even at batch 1 (weights + the KV cache of one
 * sequence + DLP_LLM_RUNTIME_GIB per GPU > the device's memory). */
#define DLP_LLM_RUNTIME_GIB 1.0
/* A shipped tree corrects the analytic estimate by at most this factor
 * either way (docs/llm.md, "Learned corrections"). */
#define DLP_LLM_MAX_FACTOR 2.0
/* How to predict (not what: that is the workload).  Zero-initialise; NULL
 * options are all defaults. */
typedef struct {
    const char *region;        /* carbon region id; NULL: the database default */
    int analytic_only;         /* 1: never the shipped trees                   */
} dlp_llm_predict_opts;
dlp_status dlp_llm_predict(const dlp_llm_config *c, const dlp_device *d, const dlp_devdb *db,
                           const dlp_llm_workload *wl, const dlp_llm_predict_opts *opts,
                           dlp_llm_prediction *out, dlp_error *err);

/* Features of a serving prediction for the learned corrections (docs/llm.md,
 * "Serving"): what the request says (concurrency, lengths, parallelism,
 * dtype), the model's size, the device's rates, and the analytic TTFT/TPOT
 * and their parts.  x[DLP_LLM_SERVE_NFEAT]; p from dlp_llm_predict with
 * analytic_only (its analytic fields).  A learned correction multiplies
 * the analytic value by at most DLP_LLM_SERVE_MAX_FACTOR either way. */
#define DLP_LLM_SERVE_NFEAT 24
#define DLP_LLM_SERVE_MAX_FACTOR 3.0
void dlp_llm_serve_features(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *wl,
                            const dlp_llm_prediction *p, float *x);
const char *dlp_llm_serve_feature_name(int k);

/* Shipped trained models (the .dlpm files of data/models compiled in), loaded on first
 * use; owned by the library. */
int dlp_llm_model_count(void);
const dlp_xgb *dlp_llm_model_at(int i);

/* ==== END llm ==== */

/* ==== BEGIN plan (src/plan) ==== */

/* Capacity planning (docs/plan.md, `dlperf plan`): which GPU, how many,
 * which weight format and parallelism, at what concurrency and cost, under
 * a service level.  An LLM plan searches devices x weight formats x GPU
 * counts (tensor parallelism that divides the heads; expert parallelism and
 * attention data parallelism for MoE models) and, for each configuration,
 * the largest concurrency whose TTFT and TPOT meet the SLO, found by
 * bisection over the serving model of dlp_llm_predict (never a grid).  A
 * configuration that cannot meet the SLO even at one request in flight, or
 * whose weights and one sequence's cache do not fit, is counted by reason;
 * the closest miss is kept. */

/* What stops a plan's concurrency from growing (the "binding" column). */
typedef enum {
    DLP_PLAN_BIND_TTFT = 0,    /* one more request would break the TTFT limit    */
    DLP_PLAN_BIND_TPOT,        /* ... the TPOT limit                              */
    DLP_PLAN_BIND_KV,          /* the KV cache holds no more sequences            */
    DLP_PLAN_BIND_MAXCONC,     /* the caller's max_concurrency                    */
    DLP_PLAN_BIND_LATENCY,     /* inference: one more sample breaks the latency   */
    DLP_PLAN_BIND_MEMORY,      /* inference: one more sample does not fit         */
    DLP_PLAN_BIND_MAXBATCH,    /* inference: the caller's largest batch           */
    DLP_PLAN_BIND_MAXSEQS,     /* the engine's running limit (max_seqs): more
                                  clients only queue                              */
    DLP_PLAN_BIND_ACCUM,       /* training: the per-GPU batch does not fit, so
                                  micro-batches accumulate gradients          */
    DLP_PLAN_BIND_COMPUTE,     /* training: the GPUs' step time                  */
    DLP_PLAN_BIND_COMM,        /* training: the gradient all-reduce takes at
                                  least the compute time, or the step is no
                                  faster than on one GPU                      */
    DLP_PLAN_BIND_DEADLINE,    /* training (misses): over the deadline           */
    DLP_PLAN_BIND_COUNT_
} dlp_plan_bind;
/* "ttft", "tpot", "kv_memory", "max_concurrency", "latency", "memory",
 * "max_batch", "max_seqs", "accumulation", "compute", "communication",
 * "deadline"; "?" out of range. */
const char *dlp_plan_bind_name(dlp_plan_bind b);

/* Why a configuration has no plan (the "missed" counts). */
typedef enum {
    DLP_PLAN_MISS_TTFT = 0,    /* TTFT over the limit even at concurrency 1      */
    DLP_PLAN_MISS_TPOT,        /* TPOT over the limit at concurrency 1 (TTFT met) */
    DLP_PLAN_MISS_MEMORY,      /* weights + one sequence's cache do not fit      */
    DLP_PLAN_MISS_DTYPE,       /* the device runs no kernel for the format       */
    DLP_PLAN_MISS_REFUSED,     /* any other refusal of the serving model         */
    DLP_PLAN_MISS_LATENCY,     /* inference: over the latency at the least batch */
    DLP_PLAN_MISS_DEADLINE,    /* training: the run takes longer than the deadline*/
    DLP_PLAN_MISS_COUNT_
} dlp_plan_miss;
/* "ttft", "tpot", "memory", "dtype", "refused", "latency", "deadline"; "?"
 * out of range. */
const char *dlp_plan_miss_name(dlp_plan_miss m);

/* An LLM serving plan request.  Zero-initialise; 0 / NULL fields take the
 * defaults shown. */
typedef struct {
    int64_t prompt, gen;        /* tokens per request (gen >= 1); required     */
    double ttft_ms, tpot_ms;    /* the SLO; 0: no limit on that metric          */
    double rate;                /* requests/s to serve; 0: one replica           */
    const char *const *devices; /* ids/names/aliases; NULL: every GPU of the
                                   database with a price                        */
    int n_devices;
    const int *quants;          /* dlp_quant formats; NULL: bf16 (fp16 where the
                                   GPU has no bf16), fp8, mxfp4 ("fp4") — each
                                   where dlp_llm_compute_dtype runs it          */
    int n_quants;
    int max_gpus;               /* GPUs per replica, 1..max_gpus; 0: 8          */
    int64_t max_concurrency;    /* cap on requests in flight; 0: none            */
    const char *region;         /* carbon region; NULL: the database's           */
    double mem_fraction;        /* as dlp_llm_workload; 0: 0.9                   */
    double kwh_price;           /* $/kWh for the energy cost; 0: not priced      */
    int analytic_only;          /* as dlp_llm_predict                            */
    /* the caller's own $/h per GPU (contract prices), overriding the
     * database's; a device priced here joins the default search */
    const char *const *price_devices;  /* ids/names/aliases                     */
    const double *price_usd_per_hour;  /* > 0, one per device                   */
    int n_prices;
} dlp_plan_llm_opts;

/* One configuration's answer: a plan (meets_slo 1) or, for the closest
 * miss, its figures at concurrency 1 (meets_slo 0). */
typedef struct {
    const dlp_device *device;   /* lives as long as the dlp_devdb               */
    int gpus;                   /* GPUs per replica                              */
    int quant;                  /* dlp_quant of the weights                      */
    int tp, ep, attention_dp;   /* attention TP = gpus / attention_dp; experts
                                   over ep (1: each expert over the tp GPUs)    */
    int64_t concurrency;        /* requests in flight per replica               */
    int64_t max_concurrency;    /* what the KV cache holds                       */
    double ttft_ms, tpot_ms;
    double tokens_per_s;        /* output tokens/s of one replica                */
    double requests_per_s;      /* of one replica                                */
    int64_t replicas;           /* ceil(rate x gen / tokens_per_s); 1 without rate*/
    double usd_per_hour;        /* replicas x gpus x price; NaN without a price  */
    double usd_per_mtok;        /* gpus x price / (tokens_per_s x 3600) x 1e6:
                                   one replica at this concurrency; NaN: no price*/
    double j_per_token;         /* board energy per output token                 */
    double co2_g_per_mtok;      /* j_per_token x 1e6 / 3.6e6 x PUE x g/kWh       */
    double energy_usd_per_mtok; /* j_per_token x 1e6 / 3.6e6 x PUE x kwh_price   */
    int binding;                /* dlp_plan_bind (misses: the limit broken)      */
    int meets_slo;
    int evaluations;            /* serving-model calls this configuration took   */
    double price_usd_per_hour;  /* per GPU, as used; 0: none                     */
    int price_from_caller;      /* 1: opts price_*, 0: the database's           */
    /* ---- inference plans (dlp_plan_infer); the LLM fields above are 0 ---- */
    int dtype;                  /* dlp_dtype the model computes in               */
    int64_t batch;              /* the largest batch meeting the latency         */
    double latency_ms;          /* of one batch                                   */
    double samples_per_s;       /* of one GPU: batch / latency                    */
    double usd_per_msample;     /* price / (samples_per_s x 3600) x 1e6; NaN     */
    double j_per_sample;        /* energy of a pass / batch; NaN: no power data   */
    double co2_g_per_msample;   /* j_per_sample x 1e6 / 3.6e6 x PUE x g/kWh       */
    /* ---- training plans (dlp_plan_train): dtype, batch (the global batch),
     * samples_per_s (of all gpus) and the price fields above, and ---- */
    int64_t micro_batch;        /* samples per GPU per forward/backward          */
    int64_t accum_steps;        /* micro-batches per step: batch / gpus / micro  */
    double compute_ms;          /* accum_steps x predicted training step          */
    double comm_ms;             /* gradient all-reduce per step (not overlapped)  */
    double step_ms;             /* compute_ms + comm_ms                           */
    double hours;               /* steps x step_ms of the whole run               */
    double usd_per_run;         /* gpus x price x hours; NaN: no price            */
    double kwh;                 /* gpus x predicted board power x hours           */
    double co2_kg;              /* kwh x PUE x g/kWh / 1000                       */
    double energy_usd;          /* kwh x PUE x kwh_price; NaN: no kwh_price       */
} dlp_plan_row;

enum { DLP_PLAN_LLM = 0, DLP_PLAN_INFER = 1, DLP_PLAN_TRAIN = 2 };   /* dlp_plan_kind(p) */

/* Plan serving model c for o.  DLP_EINVAL for a bad request (gen < 1, prompt
 * + gen past the model's context, an encoder-only model, no GPU to try),
 * DLP_ENOTFOUND for an unknown device (in devices or price_devices) or
 * region.  A search where nothing
 * meets the SLO is DLP_OK with dlp_plan_count 0. */
dlp_status dlp_plan_llm(const dlp_llm_config *c, const dlp_devdb *db, const dlp_plan_llm_opts *o,
                        dlp_plan **out, dlp_error *err);
/* Inference plans of any ONNX model (vision, ...; docs/plan.md): every GPU
 * (one per replica: data parallelism is replicas) x compute dtype, at the
 * largest batch in batch_min..batch_max whose predicted latency (dlp_predict,
 * the runtime's kernels) meets latency_ms and whose memory fits, by
 * bisection over the batch.  Rows fill the inference fields; misses are
 * latency (over at batch_min), memory, dtype (the GPU lacks it) or refused. */
typedef struct {
    int64_t batch_min, batch_max;   /* 0: 1 and 256                              */
    double latency_ms;              /* per batch; 0: no limit                    */
    double throughput;              /* samples/s to serve: replicas; 0: one       */
    const char *const *devices;     /* as dlp_plan_llm_opts                      */
    int n_devices;
    const int *dtypes;              /* dlp_dtype; NULL: fp16, bf16 and fp32 where
                                       the GPU runs them                          */
    int n_dtypes;
    int runtime;                    /* dlp_runtime; 0: eager                      */
    int64_t seq;                    /* binds sequence dims (dlp_load_opts.seq)    */
    const char *region;
    double kwh_price;
    const char *const *price_devices;
    const double *price_usd_per_hour;
    int n_prices;
    int n_dims;                     /* other symbolic dims bound by name, as      */
    const char *const *dim_names;   /* dlp_load_opts (height=224 of a vision     */
    const int64_t *dim_values;      /* model whose image size is symbolic)       */
} dlp_plan_infer_opts;
/* onnx: the model's bytes (len), name for messages; or onnx NULL and name
 * the file's path.  Errors as dlp_plan_llm, plus the graph loader's for a
 * missing or malformed model. */
dlp_status dlp_plan_infer(const void *onnx, size_t len, const char *name, const dlp_devdb *db,
                          const dlp_plan_infer_opts *o, dlp_plan **out, dlp_error *err);
/* Training plans of any ONNX model (docs/plan.md, "Training"): the cheapest
 * way to train it.  Every GPU x training dtype x data-parallel GPU count
 * (powers of two up to max_gpus, and max_gpus, each dividing batch) runs
 * batch / gpus samples per GPU per step; where that does not fit, gradient
 * accumulation over the largest micro-batch that fits (found by bisection
 * over dlp_predict's training memory) and divides it.  Step = accum x
 * dlp_predict's training step at the micro-batch + the NCCL all-reduce of
 * the gradients' bytes over the GPUs, not overlapped with the backward.
 * Rows fill the training fields, sorted by usd_per_run; misses are memory
 * (no micro-batch of 1 fits), deadline, dtype or refused. */
typedef struct {
    int64_t batch;                  /* global batch per optimizer step; required */
    int64_t samples;                /* samples per epoch; required                */
    double epochs;                  /* 0: 1                                       */
    int max_gpus;                   /* data-parallel GPUs, 1..max_gpus; 0: 8      */
    double deadline_hours;          /* the run must end within; 0: no limit      */
    int optimizer;                  /* dlp_optim; 0: Adam                         */
    const char *const *devices;     /* as dlp_plan_llm_opts                      */
    int n_devices;
    const int *dtypes;              /* DLP_DT_FLOAT, _FLOAT16, _BFLOAT16; NULL:
                                       fp16, bf16 and fp32 where the GPU has them */
    int n_dtypes;
    int64_t seq;                    /* binds sequence dims (dlp_load_opts.seq)    */
    int no_learned;                 /* as dlp_predict_opts                        */
    const char *region;
    double kwh_price;
    const char *const *price_devices;
    const double *price_usd_per_hour;
    int n_prices;
    int n_dims;                     /* as dlp_plan_infer_opts                    */
    const char *const *dim_names;
    const int64_t *dim_values;
} dlp_plan_train_opts;
/* onnx / len / name as dlp_plan_infer; errors as dlp_plan_infer. */
dlp_status dlp_plan_train(const void *onnx, size_t len, const char *name, const dlp_devdb *db,
                          const dlp_plan_train_opts *o, dlp_plan **out, dlp_error *err);
int dlp_plan_kind(const dlp_plan *p);                /* DLP_PLAN_LLM, _INFER, _TRAIN */

/* Plans, sorted best first: by usd_per_hour when a rate (throughput) was
 * given, else by usd_per_mtok (usd_per_msample; training: usd_per_run,
 * unpriced last by GPU-hours, ties by hours); without a price last, by
 * GPU-seconds per token (sample), the cost at any equal price; ties by TPOT
 * (latency). */
int dlp_plan_count(const dlp_plan *p);
const dlp_plan_row *dlp_plan_at(const dlp_plan *p, int i);   /* NULL out of range */
/* Configurations searched (plans + every miss) and serving-model calls. */
int64_t dlp_plan_considered(const dlp_plan *p);
int64_t dlp_plan_evaluations(const dlp_plan *p);
int dlp_plan_device_kinds(const dlp_plan *p);                /* devices searched */
int64_t dlp_plan_missed(const dlp_plan *p, int miss);        /* dlp_plan_miss   */
/* The configuration that came closest to the SLO without meeting it (least
 * max(ttft / limit, tpot / limit) at concurrency 1); NULL when none. */
const dlp_plan_row *dlp_plan_closest_miss(const dlp_plan *p);
/* {"considered","evaluations","device_kinds","request":{...},"plans":[...],
 * "missed":{"ttft":N,...},"closest_miss":{...}|null} (docs/plan.md). */
dlp_status dlp_plan_json(const dlp_plan *p, char **out, size_t *len, dlp_error *err);
void dlp_plan_free(dlp_plan *p);

/* ==== END plan ==== */

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

int dlp_layout_width(dlp_layout layout);                  /* columns of X, 0 if unknown */
const char *dlp_layout_name(dlp_layout layout);           /* "trappm", "dippm"          */
int dlp_layout_parse(const char *name);                   /* -1 if unknown (any case)   */
const char *dlp_layout_column(dlp_layout layout, int j);  /* column name                */
const char *dlp_static_name(int k);                       /* DLP_SF_* name              */

dlp_status dlp_features_build(const dlp_graph *g, dlp_layout layout, dlp_features **out, dlp_error *err);
void dlp_features_free(dlp_features *f);
/* .dlpg binary file: versioned, checksummed, written atomically. */
dlp_status dlp_features_save(const dlp_features *f, const char *path, dlp_error *err);
dlp_status dlp_features_load(const char *path, dlp_features **out, dlp_error *err);

/* ==== END features ==== */

/* ==== BEGIN learn (src/learn/gnn.c, src/eval) ==== */

/* Graph neural predictors trained on .dlpd datasets (docs/gnn.md): DIPPM's
 * PMGNS (GraphSAGE blocks, a graph readout concatenated with the scaled
 * static features, fully connected blocks, several targets at once) and the
 * rivals of the thesis' table 4.4 (GCN, GAT, GIN, an MLP on the static
 * features), their .dlpm model file, and the evaluation toolkit: metrics,
 * split protocols, Markdown/JSON reports and parity plots. */

typedef enum {
    DLP_GNN_SAGE = 0, DLP_GNN_GCN, DLP_GNN_GAT, DLP_GNN_GIN,
    DLP_GNN_MLP,               /* no message passing: FC blocks on F_s only     */
    DLP_GNN_TRAPPM,            /* TraPPM (thesis §5.4.3): SAGE blocks summed, ⊕
                                  a frozen pre-trained encoder's pooled
                                  embedding (opts.encoder), ⊕ F_s, FC blocks    */
    DLP_GNN_GNNLM,             /* thesis ch. 7: a GIN's graph token ⊕ F_s,
                                  projected into a small language model's
                                  prompt beside the device's description; a
                                  regression head on the last hidden state
                                  (docs/gnnlm.md; needs opts.lm or opts.init) */
    DLP_GNN_ARCH_COUNT_
} dlp_gnn_arch;
typedef enum {
    DLP_GNN_READOUT_SUM = 0,   /* DIPPM, TraPPM                                  */
    DLP_GNN_READOUT_MEAN,
    DLP_GNN_READOUT_MAX,
    DLP_GNN_READOUT_SCALED_SUM /* sum / (mean node count of the training graphs):
                                  keeps graph size, O(1) magnitudes             */
} dlp_gnn_readout;
typedef enum { DLP_GNN_LOSS_HUBER = 0, DLP_GNN_LOSS_MSE, DLP_GNN_LOSS_L1 } dlp_gnn_loss;
/* How targets are scaled for training (undone on prediction). */
typedef enum {
    DLP_GNN_SCALE_LOG_STD = 0, /* ln(y), then standardised (training mean/std) */
    DLP_GNN_SCALE_STD,         /* standardised                                   */
    DLP_GNN_SCALE_LOG,         /* ln(y)                                          */
    DLP_GNN_SCALE_NONE
} dlp_gnn_scale;
typedef enum { DLP_GNN_LR_CONST = 0, DLP_GNN_LR_COSINE } dlp_gnn_lr_schedule;

/* Names ("sage", "sum", "huber", "log-std", "cosine") and parsers (-1 if
 * unknown). */
const char *dlp_gnn_arch_name(dlp_gnn_arch arch);
int dlp_gnn_arch_parse(const char *s);
const char *dlp_gnn_readout_name(dlp_gnn_readout r);
int dlp_gnn_readout_parse(const char *s);
const char *dlp_gnn_loss_name(dlp_gnn_loss l);
int dlp_gnn_loss_parse(const char *s);
const char *dlp_gnn_scale_name(dlp_gnn_scale s);
int dlp_gnn_scale_parse(const char *s);
/* DLP_SF_* index of a static-feature name (dlp_static_name), -1 if unknown. */
int dlp_static_parse(const char *name);

/* One line of training progress, after every epoch. */
typedef struct {
    int epoch, epochs;         /* 1-based epoch just finished, of epochs        */
    double train_loss;         /* mean loss of the epoch's batches (scaled)     */
    double val_mape;           /* % on the validation set (mean over targets);
                                  NaN without one                               */
    double best_val_mape;      /* best so far (NaN without validation)          */
    int best_epoch;
    double lr;                 /* learning rate used in this epoch              */
    double elapsed_s, eta_s;   /* wall time so far, estimate of what is left    */
} dlp_gnn_progress;
/* Return nonzero to stop after this epoch (the best weights are kept). */
typedef int (*dlp_gnn_progress_fn)(void *user, const dlp_gnn_progress *p);

/* Training options; zero-initialise, 0 fields take the defaults shown
 * (DIPPM's table 4.3 where the paper gives one). */
typedef struct {
    int arch;                  /* dlp_gnn_arch (SAGE)                           */
    int hidden;                /* 512: width of every conv and FC block         */
    int layers;                /* 3 conv blocks (trappm 2; trappm < 0: none, the
                                  head sees the embedding and F_s only)         */
    int block_depth;           /* 1 conv per block; DIPPM's public code uses 2
                                  (PyG GraphSAGE(num_layers=2) per block)       */
    int fc_layers;             /* 3 FC blocks (Linear-ReLU-Dropout) before the
                                  output Linear; < 0: none                      */
    double dropout;            /* 0.05; < 0: none                               */
    int readout;               /* dlp_gnn_readout (SUM)                         */
    int gat_heads;             /* 1 (PyG's default); concat, hidden/heads each  */
    int sage_normalize;        /* 1: L2-normalise SAGEConv outputs (PyG
                                  normalize=True, as DIPPM's code)              */
    double lr;                 /* 2.754e-5 (DIPPM)                              */
    double weight_decay;       /* 0                                              */
    int adamw;                 /* 1: decoupled decay (AdamW); 0: Adam + L2     */
    int lr_schedule;           /* dlp_gnn_lr_schedule (CONST)                   */
    double clip;               /* global gradient-norm clip; 0: none            */
    int batch_size;            /* 32 graphs per mini-batch                      */
    int epochs;                /* 100                                            */
    int loss;                  /* dlp_gnn_loss (HUBER)                          */
    double huber_delta;        /* 1.0 (on scaled targets)                       */
    int target_scale;          /* dlp_gnn_scale (LOG_STD)                       */
    uint64_t seed;             /* init, shuffles and dropout                     */
    int n_targets;             /* 0: the dataset's first target                 */
    const char *const *targets;/* target names (dataset's), n_targets of them   */
    int n_static;              /* 0: DIPPM's (macs, batch, n_conv, n_dense,
                                  n_relu); < 0: no static features             */
    const int *static_features;/* DLP_SF_* indices, n_static of them            */
    int keep_last;             /* 1: keep the last epoch's weights; 0: the epoch
                                  with the best validation MAPE (when a
                                  validation set is given)                      */
    int threads;               /* OpenBLAS threads; 0: leave as they are        */
    const char *split;         /* free text recorded in the model ("random
                                  70/15/15 seed 1"); NULL: ""                   */
    dlp_gnn_progress_fn progress;  /* NULL: silent                              */
    void *progress_user;
    /* TraPPM (arch DLP_GNN_TRAPPM, required there, ignored otherwise): the
     * pre-trained encoder whose sum-pooled embedding joins the readout.  The
     * model keeps a frozen copy (saved in its .dlpm); the caller keeps e. */
    const dlp_encoder *encoder;
    /* Transfer learning (§5.6.2) / warm start: start from this model's
     * weights instead of a random init.  It must have the same architecture,
     * widths, layout, static features and number of targets
     * (DLP_EINVAL naming the difference otherwise); the target scaling is
     * refitted on the new training set. */
    const dlp_gnn *init;
    /* Record the mean training loss of every epoch (scaled units) in the
     * model: dlp_gnn_loss_curve.  For convergence plots (figure 5.5). */
    int record_curve;
    /* gnnlm (arch DLP_GNN_GNNLM; ignored otherwise).  The GIN is the
     * GraphMAE encoder's network: from opts.encoder when given (stage 1,
     * `dlperf pretrain --method graphmae`), else freshly initialised with
     * hidden / layers / dropout above.  The language model comes from lm (a
     * .dlpm of kind "lm": `dlperf lm pretrain`), or with init from the init
     * model (which must then be a gnnlm model). */
    const char *lm;            /* path of the language model                     */
    int stage;                 /* dlp_gnnlm_stage (PREDICT)                      */
    int lora_rank;             /* 8; < 0: no LoRA (the base LM stays frozen)     */
    int soft_tokens;           /* 8 soft-prompt vectors; < 0: none               */
    double lm_lr;              /* 1e-3: LoRA, soft prompt, graph projection      */
    int graph_input;           /* dlp_gnnlm_input (TOKEN)                        */
    int output;                /* dlp_gnnlm_output (HEAD)                        */
} dlp_gnn_opts;
/* What a gnnlm model answers with: HEAD, a regression head on the last
 * prompt token's state; TOKENS, the target written by the language model
 * itself (3 significant digits, greedy decoding; next-token loss on the
 * digits; one target, graph-token input). */
typedef enum { DLP_GNNLM_OUTPUT_HEAD = 0, DLP_GNNLM_OUTPUT_TOKENS } dlp_gnnlm_output;
/* How a gnnlm model reads the graph (thesis table 7.2): TOKEN, the GIN's
 * graph token (and the graph vector beside the LM's state in the head);
 * TEXT, a high-level summary written in the prompt; JSON, a lossless dump
 * of nodes and edges in the prompt (both cut to the LM's window; no GIN). */
typedef enum { DLP_GNNLM_INPUT_TOKEN = 0, DLP_GNNLM_INPUT_TEXT, DLP_GNNLM_INPUT_JSON } dlp_gnnlm_input;
const char *dlp_gnnlm_input_name(dlp_gnnlm_input v);   /* "token", "text", "json"        */
int dlp_gnnlm_input_parse(const char *s);  /* -1 if unknown                  */
/* The three stages of thesis §7.4.3: stage 1 is the encoder's GraphMAE
 * pre-training (dlp_encoder_pretrain); ADAPT is stage 2, graph-to-text (the
 * GIN frozen, the graph projection + LoRA + soft prompt trained on graph
 * summaries, next-token loss); PREDICT is stage 3 and few-shot adaptation
 * (everything trained on the targets). */
typedef enum { DLP_GNNLM_STAGE_PREDICT = 0, DLP_GNNLM_STAGE_ADAPT } dlp_gnnlm_stage;

/* Train on samples train[0..n_train) of ds, selecting on val[0..n_val)
 * (n_val may be 0).  Samples whose chosen targets are all missing (NaN)
 * are skipped; a missing target of a multi-target sample adds no loss.
 * With log scaling every used target must be > 0 (DLP_EINVAL otherwise).
 * Deterministic: same data, options and seed with one thread give the
 * same model bit for bit. */
dlp_status dlp_gnn_train(const dlp_dataset *ds, const int *train, int n_train, const int *val,
                         int n_val, const dlp_gnn_opts *opts, dlp_gnn **out, dlp_error *err);
void dlp_gnn_free(dlp_gnn *m);

/* What a model is: its recipe and what it was trained on. */
typedef struct {
    int arch, hidden, layers, block_depth, fc_layers, readout, gat_heads, sage_normalize;
    double dropout;
    int loss, target_scale, lr_schedule, adamw;
    double lr, weight_decay, huber_delta, clip;
    int batch_size, epochs;    /* asked for                                      */
    int epochs_run, best_epoch;/* run; the one whose weights were kept (1-based)*/
    uint64_t seed;
    int layout, layout_version, n_feat;
    int n_static;
    int static_features[DLP_SF_COUNT];
    int n_targets;
    uint64_t data_fingerprint; /* dlp_dataset_fingerprint of the training set   */
    int64_t n_train, n_val;    /* samples used                                   */
    int64_t n_params;          /* trainable parameters                           */
    double best_val_mape;      /* NaN without validation                         */
    double train_seconds;
    const char *split;         /* as given in the options                        */
} dlp_gnn_info;
void dlp_gnn_info_get(const dlp_gnn *m, dlp_gnn_info *out);
/* Per-epoch curve of the last training (opts.record_curve): *n epochs,
 * train[e] the mean training loss (scaled units), val[e] the validation
 * MAPE (% , NaN without validation).  Pointers owned by the model; NULL and
 * 0 when not recorded (a loaded model has none). */
void dlp_gnn_loss_curve(const dlp_gnn *m, const double **train, const double **val, int *n);
/* The TraPPM encoder inside a model (NULL for other architectures): its
 * method name and embedding width, for printing. */
const char *dlp_gnn_encoder_method(const dlp_gnn *m);
int dlp_gnn_encoder_dim(const dlp_gnn *m);
/* A stand-alone copy of a TraPPM model's frozen encoder (to retrain the
 * recipe, or to embed with it); DLP_EINVAL for a model without one.  The
 * caller frees it with dlp_encoder_free. */
dlp_status dlp_gnn_encoder_copy(const dlp_gnn *m, dlp_encoder **out, dlp_error *err);
int dlp_gnn_target_count(const dlp_gnn *m);
const char *dlp_gnn_target_at(const dlp_gnn *m, int k);   /* NULL out of range */

/* Predict one graph: out[dlp_gnn_target_count] in the targets' units.  f
 * must be in the model's layout and layout version (DLP_EVERSION for
 * another version, DLP_EINVAL for another layout).  Thread-safe. */
dlp_status dlp_gnn_predict(const dlp_gnn *m, const dlp_features *f, float *out, dlp_error *err);
/* Predict one graph on a device: `device` is a device setting by name (a
 * HELP column such as "titan_rtx_32", a database id, optionally with a
 * "_<batch>" suffix) or a free-text description ("Raspberry Pi 4, 4x
 * Cortex-A72 1.5 GHz, fp32").  Only gnnlm models read it (NULL: the device
 * the model was last trained on, dlp_gnn_device); other architectures
 * ignore it.  Thread-safe (gnnlm predictions on one model are serialised). */
dlp_status dlp_gnn_predict_on(const dlp_gnn *m, const dlp_features *f, const char *device, float *out,
                              dlp_error *err);
/* A gnnlm model's default device (the training set's only or most common
 * device), "" for other architectures; and its stage (dlp_gnnlm_stage, -1
 * for other architectures). */
const char *dlp_gnn_device(const dlp_gnn *m);
int dlp_gnn_stage(const dlp_gnn *m);
/* n graphs at once (collated in mini-batches): out (n, target_count). */
dlp_status dlp_gnn_predict_many(const dlp_gnn *m, const dlp_features *const *f, int n,
                                float *out, dlp_error *err);
/* n loaded graphs: features in the model's layout, then dlp_gnn_predict
 * each; out (n, target_count).  Thread-safe. */
dlp_status dlp_gnn_predict_graphs(const dlp_gnn *m, const dlp_graph *const *g, int n, float *out,
                                  dlp_error *err);
/* n ONNX models held in memory (bufs[i], lens[i] bytes; names[i], or
 * "model.onnx" for a NULL names or entry, names the model in messages),
 * each loaded with opts (dlp_graph_load_mem), featurised in the model's
 * layout and predicted: out (n, target_count), row i for bufs[i], the very
 * values dlp_graph_load_mem + dlp_gnn_predict_graphs give one by one.  The
 * work is spread over threads workers (0: one per online CPU, at most 16;
 * the calling thread is one of them), each taking the next model when done
 * with one; while they run, dlperf's OpenBLAS (its own copy, see
 * docs/DESIGN.md) runs one thread (restored after).  On failure err is the lowest failing index's message.
 * The NAS-loop call (Python's GraphModel.predict). */
dlp_status dlp_gnn_predict_onnx(const dlp_gnn *m, const void *const *bufs, const size_t *lens,
                                const char *const *names, int n, const dlp_load_opts *opts, int threads,
                                float *out, dlp_error *err);
/* The same on a device (dlp_gnn_predict_on's `device`; NULL: the model's
 * default): only gnnlm models read it. */
dlp_status dlp_gnn_predict_onnx_on(const dlp_gnn *m, const void *const *bufs, const size_t *lens,
                                   const char *const *names, int n, const dlp_load_opts *opts, int threads,
                                   const char *device, float *out, dlp_error *err);
/* Samples idx[0..n) of a dataset (NULL idx: all): out (n, target_count). */
dlp_status dlp_gnn_predict_dataset(const dlp_gnn *m, const dlp_dataset *ds, const int *idx, int n,
                                   float *out, dlp_error *err);

/* .dlpm file (docs/gnn.md): the shared DLPM container (magic, version,
 * JSON header with architecture, hyper-parameters, layout, static-feature
 * list, scalings, target names, data fingerprint and the parameter size
 * table; the flat float32 parameter array; CRC-32), written atomically.
 * Loading: another version DLP_EVERSION, corrupted DLP_ECHECKSUM, truncated
 * or malformed DLP_EFORMAT; messages name the file. */
dlp_status dlp_gnn_save(const dlp_gnn *m, const char *path, dlp_error *err);
dlp_status dlp_gnn_save_mem(const dlp_gnn *m, void **buf, size_t *len, dlp_error *err);
/* dlp_gnn_load(DLP_GNN_BUILTIN) reads the gnnlm base compiled into the
 * library (scripts/ship_gnnlm.sh; docs/gnnlm.md "The shipped base"): a
 * stage-3 gnnlm to adapt to a new device from a few samples (--init). */
#define DLP_GNN_BUILTIN "builtin-gnnlm"
dlp_status dlp_gnn_load(const char *path, dlp_gnn **out, dlp_error *err);
dlp_status dlp_gnn_load_mem(const void *buf, size_t len, const char *name, dlp_gnn **out,
                            dlp_error *err);

/* ---- metrics (src/eval/metrics.c) ---- */

/* Over pairs with finite y, yhat and y != 0:
 *   mape  = 100/n sum |yhat - y| / |y|         (percent)
 *   rmse  = sqrt(1/n sum (yhat - y)^2),  mae likewise
 *   tau   = Kendall's tau-b of (y, yhat), O(n log n) (NaN when n < 2 or
 *           either side is constant)
 *   spearman = Spearman's rho (Pearson on average ranks; what HELP and
 *           BRP-NAS report), NaN likewise
 *   acc5, acc10 = share (0..1) with |yhat - y| / |y| <= 0.05 / 0.10 */
typedef struct {
    int64_t n;
    double mape, rmse, mae, tau, acc5, acc10, spearman;
} dlp_metrics;
void dlp_metrics_compute(const double *y, const double *yhat, int64_t n, dlp_metrics *m);
double dlp_metric_mape(const double *y, const double *yhat, int64_t n);
double dlp_metric_rmse(const double *y, const double *yhat, int64_t n);
double dlp_metric_kendall_tau(const double *x, const double *y, int64_t n);
double dlp_metric_spearman(const double *x, const double *y, int64_t n);
/* Share of pairs with relative error <= delta (0.1 = Acc(10%)). */
double dlp_metric_acc(const double *y, const double *yhat, int64_t n, double delta);

/* ---- splits (src/eval/split.c) ---- */

/* A split assigns each of n items a part: DLP_PART_TRAIN, _VAL, _TEST, or
 * DLP_PART_NONE (unused).  Every split is a pure function of its inputs
 * and seed. */
enum { DLP_PART_NONE = -1, DLP_PART_TRAIN = 0, DLP_PART_VAL = 1, DLP_PART_TEST = 2 };

/* Random: a seeded shuffle; the first round(n*train_frac) train, the next
 * round(n*val_frac) val, the rest test (DIPPM: 0.70/0.15). */
dlp_status dlp_split_random(int n, double train_frac, double val_frac, uint64_t seed, int *part,
                            dlp_error *err);
/* Per family: within each family (items with equal family[i]) a seeded
 * shuffle, round(n_f*train_frac) train, the rest test (TraPPM: 0.70,
 * Monte Carlo over seeds 1337..1341). */
dlp_status dlp_split_family(const char *const *family, int n, double train_frac, uint64_t seed,
                            int *part, dlp_error *err);
/* Stratified k-fold: items sorted by y, each run of k consecutive items
 * spread over the k folds in a seeded order; fold[i] in 0..k-1 (NaN y:
 * -1).  Fold f's test set is {i : fold[i] == f}. */
dlp_status dlp_split_kfold(const double *y, int n, int k, uint64_t seed, int *fold,
                           dlp_error *err);
/* Leave one family out: items of `held_out` test, the others train.
 * DLP_ENOTFOUND when no item has that family. */
dlp_status dlp_split_lofo(const char *const *family, int n, const char *held_out, int *part,
                          dlp_error *err);

/* ---- protocols (src/eval/protocol.c; docs/gnn.md "Splits") ---- */

/* Samples chosen by device and family (comma lists; NULL or "": all),
 * then parted: random (train_frac/val_frac of a seeded shuffle; DIPPM
 * 0.70/0.15), family Monte Carlo (train_frac per family; TraPPM 0.70),
 * stratified k-fold on the first target (k folds, fold = the test one),
 * leave one family out (lofo), or none (everything trains).  train_limit /
 * val_limit (0: all) keep a seeded subset of those parts, drawn from their
 * own streams so a limit never changes the split. */
typedef enum {
    DLP_SPLIT_RANDOM = 0, DLP_SPLIT_FAMILY_MC, DLP_SPLIT_KFOLD, DLP_SPLIT_LOFO, DLP_SPLIT_NONE,
    DLP_SPLIT_MODEL           /* the model's own recorded split (the caller resolves it) */
} dlp_split_kind;
typedef struct {
    dlp_split_kind kind;
    double train_frac, val_frac;
    int k, fold;
    const char *lofo;                 /* the held-out family                            */
    const char *devices, *families;   /* comma lists; NULL or "": all                   */
    int64_t train_limit, val_limit;
    int by_name;                      /* random only: part the distinct sample names
                                         (architectures) instead of the samples, so
                                         every sample of a name, on every device, is
                                         in the same part; the parts of a name do not
                                         depend on which devices are selected       */
} dlp_split_spec;
/* Sample indices of each part, malloc'ed (dlp_split_parts_clear); n_selected
 * samples passed the selection. */
typedef struct {
    int *train, *val, *test;
    int n_train, n_val, n_test, n_selected;
} dlp_split_parts;
/* DLP_EINVAL naming a device or family the dataset lacks, for an empty
 * selection, or a fold out of range. */
dlp_status dlp_dataset_split(const dlp_dataset *ds, const dlp_split_spec *s, uint64_t seed, dlp_split_parts *p,
                             dlp_error *err);
void dlp_split_parts_clear(dlp_split_parts *p);
/* Keep, in order, the samples idx[0..*n) of the devices and families
 * (names checked as dlp_dataset_split does). */
dlp_status dlp_dataset_select(const dlp_dataset *ds, const char *devices, const char *families, int *idx, int *n,
                              dlp_error *err);

/* A pool of predictions over dataset samples, with their measured values
 * (NaN where the dataset lacks a target): n rows of T targets (the
 * model's).  Zero-initialise; fam/dev point into the dataset. */
#define DLP_EVAL_MAX_TARGETS 16
typedef struct {
    int n, cap, T;
    char tnames[DLP_EVAL_MAX_TARGETS][64];
    double *y, *yhat;
    const char **fam, **dev;
} dlp_eval_preds;
/* Predict samples idx[0..n) of ds with m and append them. */
dlp_status dlp_eval_preds_add(dlp_eval_preds *p, const dlp_gnn *m, const dlp_dataset *ds, const int *idx, int n,
                              dlp_error *err);
void dlp_eval_preds_clear(dlp_eval_preds *p);
/* Metrics of target k over the pool. */
void dlp_eval_preds_metrics(const dlp_eval_preds *p, int k, dlp_metrics *out);

/* ---- reports (src/eval/report.c) ---- */

/* Predictions to report: n samples, y and yhat (n, n_targets) row-major;
 * family/device per sample (may be NULL).  Strings are the caller's. */
typedef struct {
    const char *title;         /* "# <title>"                                    */
    const char *command;       /* the command line that produced it (or NULL)   */
    const char *notes;         /* Markdown paragraph(s) placed under the title  */
    int n_targets;
    const char *const *target_names;
    int n;
    const double *y, *yhat;
    const char *const *family, *const *device;
    const char *parity_svg;    /* file name to link from the Markdown, or NULL */
} dlp_eval_input;

/* Markdown: overall metrics per target, then per family (thesis tables
 * 5.2/5.3: MAPE, RMSE, tau, Acc(5%), Acc(10%), n) and per device when there
 * are several.  *buf is malloc'ed and NUL-terminated. */
dlp_status dlp_eval_report_md(const dlp_eval_input *in, char **buf, size_t *len, dlp_error *err);
/* The same numbers as JSON. */
dlp_status dlp_eval_report_json(const dlp_eval_input *in, char **buf, size_t *len, dlp_error *err);
/* Parity plot of target k as a standalone SVG: measured vs predicted,
 * log-log, the y = x line and the +-10% band, points coloured by family. */
dlp_status dlp_eval_parity_svg(const dlp_eval_input *in, int k, char **buf, size_t *len,
                               dlp_error *err);

/* ==== END learn ==== */

/* ==== BEGIN trees (src/learn/xgb.c) ==== */

/* ---- gradient-boosted trees (libxgboost) and the .dlpm model file ---- */

/* Zero-initialise; 0 fields take the defaults shown. */
typedef struct {
    int n_estimators;          /* 500                                          */
    double learning_rate;      /* 0.1                                          */
    int max_depth;             /* 6                                            */
    double subsample;          /* 1.0                                          */
    double min_child_weight;   /* 1.0                                          */
    int nthread;               /* 1                                            */
    uint64_t seed;             /* 0                                            */
    int log_target;            /* 1: fit log(y), predict exp (y must be > 0)   */
} dlp_xgb_params;

/* Train on x (n, n_feat) row-major; feature names and the target name are
 * stored in the model.  NaN in x means missing. */
dlp_status dlp_xgb_train(const float *x, const float *y, int64_t n, int n_feat,
                         const char *const *feature_names, const char *target,
                         const dlp_xgb_params *p, dlp_xgb **out, dlp_error *err);
/* Predict n rows of x (n, n_feat) into out[n], in the target's units.
 * Walks the flattened trees (XGBoost's exact rule, no libxgboost call):
 * about 7 us per row for 500 trees of depth 6.  Thread-safe. */
dlp_status dlp_xgb_predict(const dlp_xgb *m, const float *x, int64_t n, double *out,
                           dlp_error *err);
void dlp_xgb_free(dlp_xgb *m);

int dlp_xgb_feature_count(const dlp_xgb *m);
const char *dlp_xgb_feature_at(const dlp_xgb *m, int i);  /* NULL out of range */
const char *dlp_xgb_target(const dlp_xgb *m);
int dlp_xgb_log_target(const dlp_xgb *m);
/* FNV-1a 64 of the training matrix and targets (which data made the model). */
uint64_t dlp_xgb_fingerprint(const dlp_xgb *m);
/* Free-form metadata stored in the file ("name", "devices", "quants", ...).
 * set copies both strings; get returns NULL when absent. */
dlp_status dlp_xgb_set_meta(dlp_xgb *m, const char *key, const char *value);
const char *dlp_xgb_get_meta(const dlp_xgb *m, const char *key);

/* .dlpm file (docs/llm.md): magic "DLPM", version, a JSON header (feature
 * names, target, log flag, fingerprint, metadata), the booster (XGBoost
 * UBJSON), the flattened trees predictions walk, CRC-32; written atomically.
 * Corruption gives DLP_ECHECKSUM, another version DLP_EVERSION. */
dlp_status dlp_xgb_save(const dlp_xgb *m, const char *path, dlp_error *err);
/* The same bytes in memory; *buf is malloc'ed (free it with dlp_free). */
dlp_status dlp_xgb_save_mem(const dlp_xgb *m, void **buf, size_t *len, dlp_error *err);
dlp_status dlp_xgb_load(const char *path, dlp_xgb **out, dlp_error *err);
dlp_status dlp_xgb_load_mem(const void *buf, size_t len, const char *name, dlp_xgb **out,
                            dlp_error *err);

/* Out-of-fold predictions: k-fold cross-validation stratified on quantile
 * bins of y (groups == NULL), or leave-one-group-out (groups[i] >= 0 names
 * row i's group; rows with -1 are always in training).  oof[i] is NaN for a
 * row never tested. */
dlp_status dlp_xgb_cv(const float *x, const float *y, int64_t n, int n_feat,
                      const dlp_xgb_params *p, int k, uint64_t seed, const int *groups,
                      double *oof, dlp_error *err);

/* Metrics of cross-validated predictions: dlp_metrics_compute (one API for
 * every predictor; NaN where a metric is undefined). */

/* ==== END trees ==== */

/* ==== BEGIN pretrain (src/learn/encoder.c, src/eval/tsne.c) ==== */

/* Self-supervised graph encoders (docs/pretrain.md): TraPPM's graph
 * autoencoder (GAE, thesis §5.4.2) and GraphMAE (§7.4.3, table 7.7), pre-
 * trained on unlabeled graphs streamed from disk.  A pre-trained encoder
 * maps a graph to one vector (its node embeddings summed); TraPPM models
 * (dlp_gnn arch DLP_GNN_TRAPPM) take it frozen as an extra input. */

/* ---- encoders (src/learn/encoder.c) ---- */

typedef enum { DLP_PRETRAIN_GAE = 0, DLP_PRETRAIN_GRAPHMAE } dlp_pretrain_method;
const char *dlp_pretrain_method_name(dlp_pretrain_method method);   /* "gae", "graphmae" */
int dlp_pretrain_method_parse(const char *s);       /* -1 if unknown     */

/* 0 fields take the defaults shown: the thesis' where it gives one. */
typedef struct {
    int method;                /* DLP_PRETRAIN_GAE                               */
    int hidden;                /* GAE 512 (§5.4.2); GraphMAE 1024 (table 7.7)    */
    int layers;                /* GAE 4; GraphMAE 5                              */
    double dropout;            /* GAE 0.5 (after each inner layer); GraphMAE 0.2;
                                  < 0: none                                      */
    double mask_rate;          /* GraphMAE: share of nodes masked (0.5)          */
    double replace_rate;       /* GraphMAE: of the masked, share given another
                                  node's features instead of the token (0.1);
                                  < 0: none                                      */
    double alpha;              /* GraphMAE: SCE exponent (2)                     */
    int neg_ratio;             /* GAE: negative pairs per edge (1, PyG)          */
    double lr;                 /* 5e-4 (both)                                    */
    double weight_decay;       /* 0                                              */
    int epochs;                /* GAE 400; GraphMAE 500                          */
    int batch_size;            /* graphs per step: GAE 32, GraphMAE 128          */
    uint64_t seed;             /* init, shuffles, dropout, negatives, masks       */
    int threads;               /* OpenBLAS threads; 0: leave as they are         */
    int64_t holdout;           /* graphs kept out of training (the last ones of a
                                  seeded shuffle) whose loss is reported as
                                  val_loss; 0: none                               */
    const char *checkpoint;    /* written (atomically) every checkpoint_every
                                  epochs and at the end: weights, optimizer state,
                                  epoch, rng states; NULL: none                   */
    int checkpoint_every;      /* 1                                              */
    int resume;                /* 1: continue from `checkpoint` when it exists
                                  (its recipe and corpus must match: DLP_EINVAL
                                  naming the difference); same result as an
                                  uninterrupted run with one BLAS thread         */
    int (*progress)(void *user, int epoch, int epochs, double loss, double val_loss,
                    double elapsed_s);   /* after every epoch; nonzero stops     */
    void *progress_user;
} dlp_pretrain_opts;

/* Pre-train on every corpus graph (but the holdout). */
dlp_status dlp_encoder_pretrain(const dlp_corpus *c, const dlp_pretrain_opts *opts,
                                dlp_encoder **out, dlp_error *err);
/* The same recipe, randomly initialised and not trained (the ablation of
 * §5.5.9), for graphs of `layout`. */
dlp_status dlp_encoder_new(const dlp_pretrain_opts *opts, dlp_layout layout, dlp_encoder **out,
                           dlp_error *err);
void dlp_encoder_free(dlp_encoder *e);

typedef struct {
    int method, hidden, layers, neg_ratio, batch_size, epochs, epochs_run;
    double dropout, mask_rate, replace_rate, alpha, lr, weight_decay;
    uint64_t seed;
    int layout, layout_version, n_feat;
    int64_t n_graphs, n_holdout;   /* trained on / held out                      */
    int64_t n_params;              /* trainable, decoder included                 */
    double final_loss, val_loss;   /* last epoch's (NaN when not trained / none)  */
    double train_seconds;
} dlp_encoder_info;
void dlp_encoder_info_get(const dlp_encoder *e, dlp_encoder_info *out);
int dlp_encoder_dim(const dlp_encoder *e);          /* graph-vector width (= hidden) */

/* Graph vector: the encoder's (eval mode) node embeddings summed; out has
 * dlp_encoder_dim floats.  f must be in the encoder's layout and version.
 * Thread-safe. */
dlp_status dlp_encoder_embed(const dlp_encoder *e, const dlp_features *f, float *out,
                             dlp_error *err);
/* Mean pre-training loss (BCE for GAE, SCE for GraphMAE) of the encoder on
 * corpus graphs idx[0..n) (NULL idx: all), with negatives / masks drawn
 * from `seed`: the same seed gives the same number. */
dlp_status dlp_encoder_loss(const dlp_encoder *e, const dlp_corpus *c, const int64_t *idx,
                            int64_t n, uint64_t seed, double *loss, dlp_error *err);

/* .dlpm file (container kind "encoder"): recipe, provenance, parameters. */
dlp_status dlp_encoder_save(const dlp_encoder *e, const char *path, dlp_error *err);
dlp_status dlp_encoder_load(const char *path, dlp_encoder **out, dlp_error *err);

/* ---- t-SNE (src/eval/tsne.c) ---- */

/* Exact t-SNE (van der Maaten & Hinton 2008): x (n, d) -> y (n, 2).
 * perplexity 0 = 30 (clamped to (n-1)/3), iters 0 = 1000, seeded. */
dlp_status dlp_tsne(const float *x, int n, int d, double perplexity, int iters, uint64_t seed,
                    float *y, dlp_error *err);
/* Scatter plot of y (n, 2) coloured by label (legend), standalone SVG. */
dlp_status dlp_tsne_svg(const float *y, int n, const char *const *label, const char *title,
                        char **buf, size_t *len, dlp_error *err);

/* ==== END pretrain ==== */

/* ==== BEGIN data (src/data) ==== */

/* A dataset: N samples, each a feature graph (dlp_features, in one layout
 * for the whole set), named float targets (NaN = missing), a family
 * ("nb201", "fbnet", "resnet", ...), a device setting ("titanxp_32"), a
 * sample name (arch string, model name), the batch (from the graph's
 * static features) and a numeric device id (index into the dataset's
 * device list).  Samples may share a graph: the same architecture measured
 * on several devices at one batch is stored once.  File format .dlpd:
 * docs/datasets.md. */

dlp_status dlp_dataset_new(dlp_layout layout, int n_targets, const char *const *target_names,
                           dlp_dataset **out, dlp_error *err);
void dlp_dataset_free(dlp_dataset *ds);

/* Add a graph; the dataset takes ownership of f (and frees it on failure).
 * f must be in the dataset's layout and current layout version.  *graph_id
 * (may be NULL) receives its index. */
dlp_status dlp_dataset_add_graph(dlp_dataset *ds, dlp_features *f, int *graph_id, dlp_error *err);
/* Add a sample on graph graph_id; targets has dlp_dataset_target_count
 * values (NULL: all missing).  Strings are copied; family/device/name may
 * be NULL (stored as ""). */
dlp_status dlp_dataset_add_sample(dlp_dataset *ds, int graph_id, const float *targets,
                                  const char *family, const char *device, const char *name,
                                  dlp_error *err);
/* One graph with one sample (ownership of f transferred, as add_graph). */
dlp_status dlp_dataset_add(dlp_dataset *ds, dlp_features *f, const float *targets,
                           const char *family, const char *device, const char *name,
                           dlp_error *err);
/* Register a device so that ids follow the caller's order (samples add
 * unknown devices themselves).  Returns its id, -1 on OOM. */
int dlp_dataset_add_device(dlp_dataset *ds, const char *device);

int dlp_dataset_count(const dlp_dataset *ds);          /* samples */
int dlp_dataset_graph_count(const dlp_dataset *ds);
int dlp_dataset_layout(const dlp_dataset *ds);
int dlp_dataset_target_count(const dlp_dataset *ds);
const char *dlp_dataset_target_at(const dlp_dataset *ds, int k);     /* NULL out of range */
int dlp_dataset_target_index(const dlp_dataset *ds, const char *name); /* -1 if absent */
int dlp_dataset_device_count(const dlp_dataset *ds);
const char *dlp_dataset_device_at(const dlp_dataset *ds, int id);    /* NULL out of range */
const dlp_features *dlp_dataset_graph_at(const dlp_dataset *ds, int graph_id); /* NULL out of range */

typedef struct {
    const dlp_features *features;  /* owned by the dataset; shared between samples */
    int graph;                     /* graph index                                   */
    const float *targets;          /* target_count values, NaN = missing            */
    const char *family, *device, *name;
    int device_id;
    int64_t batch;                 /* features->static_f[DLP_SF_BATCH]              */
} dlp_dataset_sample;

/* Sample i (0 .. count-1); NULL out of range.  Adding a sample makes
 * earlier pointers stale. */
const dlp_dataset_sample *dlp_dataset_at(const dlp_dataset *ds, int i);

/* 64-bit hash of the content (layout, target names, and every sample's
 * graph, targets and strings, in order) — independent of how graphs are
 * shared or of the file's byte layout.  Model files record it to say what
 * they were trained on. */
uint64_t dlp_dataset_fingerprint(const dlp_dataset *ds);

/* Append every sample of src to dst (graphs copied, shared ones once; the
 * layouts must match and every src target must be a dst target, by name; a
 * dst target src lacks is NaN).  `dlperf dataset merge` is a thin client. */
dlp_status dlp_dataset_append(dlp_dataset *dst, const dlp_dataset *src, dlp_error *err);

/* .dlpd file: versioned, checksummed, written atomically.  Loading checks
 * magic, version (DLP_EVERSION), sizes and bounds (DLP_EFORMAT) and the
 * CRC-32 (DLP_ECHECKSUM). */
dlp_status dlp_dataset_save(const dlp_dataset *ds, const char *path, dlp_error *err);
dlp_status dlp_dataset_load(const char *path, dlp_dataset **out, dlp_error *err);

/* Building datasets from measurements (src/data/dataset_build.c; `dlperf
 * dataset build` is a thin client).  Progress, when set, is called after
 * every row with (done, total); messages start "dataset build:". */
typedef void (*dlp_progress_fn)(void *user, int64_t done, int64_t total);

/* From a dlperf-profile store (docs/store.md): one sample per ok first
 * measurement of the device and mode, its graph loaded at the run's batch
 * and seq, its targets the metric means (NaN where not measured), family
 * from the store, name = variant. */
typedef struct {
    const char *store;                /* STORE.sqlite                                   */
    const char *device;               /* a store device or database alias; NULL: the
                                         store's only device                            */
    const char *mode;                 /* infer (NULL), train or llm                     */
    const char *family;               /* NULL: every family                             */
    const char *const *targets;       /* metric names; n_targets 0: step_ms for train,
                                         else latency_ms                                 */
    int n_targets;
    dlp_layout layout;
    int64_t limit;                    /* 0: every run                                   */
    dlp_progress_fn progress;
    void *user;
} dlp_store_dataset_opts;
typedef struct {
    int64_t models;                   /* distinct models among the samples              */
    char device[128];                 /* the device used                                */
} dlp_store_dataset_info;
dlp_status dlp_dataset_from_store(const dlp_store_dataset_opts *o, dlp_dataset **out,
                                  dlp_store_dataset_info *info, dlp_error *err);

/* From HELP's latency tables: <shared>/data/HELP/DERIVED_csv/
 * {nasbench201,fbnet}_latency_ms.csv.  Every architecture's graph is built
 * once per batch among the chosen device columns (the batch is the
 * column's "_N" suffix when N is a power of two up to 4096, else 1), one
 * sample per column with target latency_ms; family nb201, nb201-effective
 * (nb201_mode DLP_NB201_EFFECTIVE) or fbnet. */
typedef struct {
    const char *table;                /* help-nb201 or help-fbnet                       */
    const char *shared;               /* folder holding data/HELP (NULL: ../shared)     */
    const char *devices;              /* a column, a comma list, or "all"               */
    dlp_layout layout;
    int nb201_mode;                   /* DLP_NB201_EXECUTED or DLP_NB201_EFFECTIVE      */
    int64_t limit;                    /* 0: every architecture                          */
    dlp_progress_fn progress;
    void *user;
} dlp_help_dataset_opts;
typedef struct {
    int64_t architectures;            /* rows read                                      */
    int batches, devices;             /* distinct batches, device columns               */
} dlp_help_dataset_info;
dlp_status dlp_dataset_from_help(const dlp_help_dataset_opts *o, dlp_dataset **out,
                                 dlp_help_dataset_info *info, dlp_error *err);

/* ==== END data ==== */

/* ==== BEGIN corpus (src/data/corpus.c) ==== */

/* ---- corpus of unlabeled graphs (src/data/corpus.c) ---- */

/* Sources: .onnx, .dlpg and .dlpd files, directories (searched recursively
 * for those three; a manifest.jsonl as written by dlperf-profile
 * --unlabeled names each graph's family), and the word "help-nb201" (the
 * 15,625 NAS-Bench-201 cells, built, executed graphs).  Opening converts
 * every graph once into a pack file (pack_path, .dlpc: a header, the graph
 * records as .dlpg bytes, an index of offsets, families and names, CRC per
 * record; written atomically) and keeps only the index in memory: graphs
 * are read back from disk one at a time, so a corpus larger than memory
 * trains.  An existing pack whose recorded sources and options match is
 * reused as it is (no conversion).  A file that cannot be read is skipped
 * with a warning naming it (warn callback); none readable is an error. */
typedef struct {
    int layout;                /* DLP_LAYOUT_TRAPPM (0 = trappm)                 */
    int64_t batch;             /* binds symbolic batch dims of ONNX files (1)    */
    int64_t max_graphs;        /* stop after this many graphs; 0: all            */
    int64_t max_nodes;         /* skip graphs with more nodes; 0: no limit       */
    void (*warn)(void *user, const char *msg);  /* NULL: silent                  */
    void *warn_user;
} dlp_corpus_opts;

dlp_status dlp_corpus_pack(const char *const *sources, int n_sources, const char *pack_path,
                           const dlp_corpus_opts *opts, dlp_corpus **out, dlp_error *err);
/* Open an existing pack file only (no sources). */
dlp_status dlp_corpus_open(const char *pack_path, dlp_corpus **out, dlp_error *err);
void dlp_corpus_close(dlp_corpus *c);
int64_t dlp_corpus_count(const dlp_corpus *c);
int dlp_corpus_layout(const dlp_corpus *c);
int64_t dlp_corpus_skipped(const dlp_corpus *c);   /* sources that could not be read */
const char *dlp_corpus_name(const dlp_corpus *c, int64_t i);    /* NULL out of range */
const char *dlp_corpus_family(const dlp_corpus *c, int64_t i);  /* "" when unknown   */
int64_t dlp_corpus_nodes(const dlp_corpus *c, int64_t i);       /* from the index    */
/* Read graph i from disk (caller frees with dlp_features_free).  A damaged
 * record is DLP_ECHECKSUM / DLP_EFORMAT naming the pack and the graph.
 * Thread-safe (pread). */
dlp_status dlp_corpus_read(const dlp_corpus *c, int64_t i, dlp_features **out, dlp_error *err);

/* ==== END corpus ==== */

/* ==== BEGIN store (src/data/store.c) ==== */

/* The measurement store (docs/store.md): an SQLite file written by the
 * measuring harness tools/profile/dlperf-profile (models with their variant
 * spec and weight-stripped ONNX graph, devices with hardware features, runs
 * with configuration, versions, load and outcome, measurements with
 * n/mean/median/std/min/max per metric).  The library reads it, exports and
 * imports CSV, and merges shards.  Versioned by PRAGMA user_version
 * (DLP_STORE_SCHEMA_VERSION; another version gives DLP_EVERSION) and marked
 * by PRAGMA application_id 0x444C5053 ("DLPS"). */

#define DLP_STORE_SCHEMA_VERSION 1

enum {
    DLP_STORE_READ = 0,        /* read only; the file must exist              */
    DLP_STORE_WRITE = 1,       /* read and write; the file must exist         */
    DLP_STORE_CREATE = 3       /* read and write; created (schema) if missing */
};

/* 1 when path looks like a store: a *.sqlite or *.db name, or a regular
 * file that starts with SQLite's magic (a named pipe is not read); else 0. */
int dlp_store_probe(const char *path);
/* Open a store.  A missing file gives DLP_EIO naming it; a file that is not
 * SQLite or not a dlperf store DLP_EFORMAT; another schema version
 * DLP_EVERSION ("runs.sqlite: store schema version 2; this dlperf reads
 * version 1"). */
dlp_status dlp_store_open(const char *path, int flags, dlp_store **out, dlp_error *err);
/* Close; a store opened for writing is checkpointed back to one file. */
void dlp_store_close(dlp_store *s);
const char *dlp_store_path(const dlp_store *s);
const char *dlp_store_dir(const dlp_store *s);   /* what onnx_path is relative to */

typedef struct {
    int64_t id;
    const char *name;          /* "cpu-amd-epyc-2c", "nvidia-h100-80gb-hbm3"      */
    const char *kind;          /* "cpu" or "cuda"                                 */
    const char *model;         /* CPU model name / torch device name              */
    const char *features;      /* JSON object of hardware features                */
    const char *host;          /* "" when unknown                                 */
} dlp_store_device;

int dlp_store_device_count(const dlp_store *s);
const dlp_store_device *dlp_store_device_at(const dlp_store *s, int i);   /* NULL out of range */
/* The store device a user's name means: its name (case-insensitive), or a
 * name that dlp_devdb_find resolves to the same database device as the
 * user's (db NULL: the built-in database), e.g. "h100-sxm" for a device
 * stored as "nvidia-h100-80gb-hbm3".  NULL when none matches. */
const dlp_store_device *dlp_store_find_device(const dlp_store *s, const char *name,
                                              const dlp_devdb *db);

/* One metric of a run; values are NaN where the store has NULL. */
typedef struct {
    const char *name;          /* "latency_ms", "memory_mb", "energy_j", ...       */
    const char *unit;          /* "ms", "MiB", "J", "W", "1/s", ...                */
    int64_t n;                 /* values behind the statistics; 0: not measurable */
    double mean, median, std, min, max;
    const char *source;        /* how it was measured, or why it could not be     */
} dlp_store_metric;

/* One run with its model, device and metrics.  Strings are never NULL
 * ("" for a NULL column); numbers NaN (doubles) or 0 (integers) for NULL. */
typedef struct {
    int64_t id;
    const char *uid;           /* identity across stores                          */
    int64_t model_id;
    const char *model_hash;    /* SHA-256 of the stripped ONNX file                */
    const char *family, *variant, *spec;   /* spec: JSON                          */
    const char *onnx_path;     /* relative to dlp_store_dir                       */
    int64_t params;
    int64_t device_id;
    const char *device, *device_kind;
    const char *mode;          /* "infer", "train" or "llm"                       */
    const char *dtype;         /* "float32", ...                                  */
    const char *config;        /* "mode=infer,batch=8,seq=0,dtype=float32"        */
    int64_t batch, seq;
    int64_t warmup, iters;     /* iterations actually run                         */
    double loadavg;            /* 1-minute load average when it started            */
    const char *started;       /* ISO-8601 UTC                                     */
    double wall_s;
    const char *outcome;       /* "ok", "oom" or "error"                           */
    const char *message;
    int64_t repeat_of;         /* run this one repeats; 0: a first measurement    */
    int n_metrics;
    const dlp_store_metric *metrics;   /* sorted by name                         */
} dlp_store_run;

/* Which runs a query returns; zero-initialise (all runs, repeats too). */
typedef struct {
    const char *device;        /* a store device name (exact); NULL: all          */
    const char *mode;          /* NULL: all                                        */
    const char *family;        /* NULL: all                                        */
    int ok_only;               /* 1: outcome ok only                               */
    int first_only;            /* 1: no repeats (repeat_of set)                    */
} dlp_store_filter;

/* Runs matching f (NULL: all), in id order, with their metrics. */
dlp_status dlp_store_query(dlp_store *s, const dlp_store_filter *f, dlp_store_runs **out,
                           dlp_error *err);
int dlp_store_runs_count(const dlp_store_runs *r);
const dlp_store_run *dlp_store_runs_at(const dlp_store_runs *r, int i);  /* NULL out of range */
void dlp_store_runs_free(dlp_store_runs *r);
/* A run's metric by name; NULL when the run has no such row. */
const dlp_store_metric *dlp_store_run_metric(const dlp_store_run *run, const char *name);

/* Noise floor of one (device, mode, metric), from ok runs: the median over
 * runs of the within-run coefficient of variation std/mean (runs with
 * n >= 2), and over (first measurement, repeat) pairs of the repeat CV
 * sqrt(2) |a - b| / (a + b) of the two means.  NaN where there is none. */
typedef struct {
    char device[96], mode[16], metric[48];
    int64_t runs;              /* runs with n >= 2 and mean > 0                   */
    double cv_within_median, cv_within_p90;
    int64_t pairs;
    double cv_repeat_median, cv_repeat_p90;
} dlp_store_noise;

/* Every (device, mode, metric) with measured values, sorted; *out is
 * malloc'ed (free it with dlp_free). */
dlp_status dlp_store_noise_get(dlp_store *s, dlp_store_noise **out, int *n, dlp_error *err);

/* What a store holds (`dlperf data stats`), computed from its runs:
 * totals over first measurements and repeats; per (device, mode, family)
 * the outcomes and batch sizes; per (device, mode, metric) how many ok
 * first measurements have a value; per device the runs, the time spent
 * measuring and the load average at the start of its runs; the noise floor
 * (dlp_store_noise_get).  Strings point into the object; free it with
 * dlp_store_stats_free. */
typedef struct {
    const char *device, *mode, *family;
    int64_t models, configs, ok, oom, error, repeats;
    int64_t batches[16];       /* distinct batch sizes, ascending (first 16)     */
    int n_batches;
} dlp_store_group;
typedef struct {
    const char *device, *mode, *metric;
    int64_t with_value, without;
    const char *why_without;   /* the source recorded for a row without value;
                                  NULL when every row has one                    */
} dlp_store_metric_count;
typedef struct {
    const dlp_store_device *device;
    int64_t runs;
    double measuring_s;        /* wall time of the measuring children            */
    const char *first, *last;  /* start times of its first and last run; NULL   */
    double loadavg_median, loadavg_min, loadavg_max;   /* NaN without           */
} dlp_store_device_stats;
typedef struct {
    int64_t runs, first, ok, oom, error, repeats;   /* outcomes of first ones   */
    int64_t models, graphs_present;
    int families;
    int n_groups, n_metrics, n_devices, n_noise;
    const dlp_store_group *groups;                 /* by device, mode, family   */
    const dlp_store_metric_count *metrics;         /* by device, mode, metric   */
    const dlp_store_device_stats *devices;         /* the store's device order  */
    const dlp_store_noise *noise;
} dlp_store_stats;
dlp_status dlp_store_stats_get(dlp_store *s, dlp_store_stats **out, dlp_error *err);
void dlp_store_stats_free(dlp_store_stats *st);

/* What a merge or an import did. */
typedef struct {
    int64_t runs_added;        /* first measurements added                        */
    int64_t runs_duplicate;    /* same run (uid) already there, or the same model
                                  hash + config + device measured earlier there   */
    int64_t runs_replaced;     /* the incoming measurement was earlier: it won     */
    int64_t repeats_added, repeats_duplicate, repeats_orphan;
    int64_t models_added, devices_added;
    int64_t graphs_copied;     /* ONNX files copied beside the destination        */
    int64_t graphs_missing;    /* ONNX files the source names but does not have   */
} dlp_store_merge_counts;

/* Merge the store at src_path into dst (opened for writing), in one
 * transaction: runs already there by uid are skipped; two first
 * measurements of the same model hash + config + device keep the earlier
 * one (by start time); repeats follow the kept first measurement; graphs
 * are copied beside dst when missing.  c may be NULL. */
dlp_status dlp_store_merge(dlp_store *dst, const char *src_path, dlp_store_merge_counts *c,
                           dlp_error *err);

/* CSV of every run, one row each: run, model and device columns, then
 * <metric>_n, _mean, _median, _std, _min, _max, _source for each metric
 * (docs/store.md, "CSV").  Per-iteration samples are not exported.  To a
 * path (written atomically), or into a malloc'ed buffer (free it with
 * dlp_free). */
dlp_status dlp_store_export_csv(dlp_store *s, const char *path, dlp_error *err);
dlp_status dlp_store_export_csv_mem(dlp_store *s, char **buf, size_t *len, dlp_error *err);
/* Import such a CSV into dst (opened for writing), with the merge rules.
 * Malformed input gives DLP_EFORMAT naming the file and line. */
dlp_status dlp_store_import_csv(dlp_store *dst, const char *csv_path, dlp_store_merge_counts *c,
                                dlp_error *err);

/* ==== END store ==== */

/* ==== BEGIN serve (src/serve) ==== */

/* The HTTP server of `dlperf serve` (docs/serve.md): a JSON API on
 * libmicrohttpd — /api/health, /api/devices, /api/models, /api/predict,
 * /api/llm, /api/mig, /api/roofline.svg — and the web page at /, both
 * compiled into the library.  Uploaded models are parsed from memory
 * (dlp_graph_load_mem) and never written to disk; no request can name a
 * server-side path.  The server never prints: access-log lines go to the
 * caller's callback. */

/* One line of the access log, "127.0.0.1 POST /api/predict 200 5234B 3.12ms"
 * (client, method, path, status, response bytes, time from the first byte
 * of the request to the last of the response), or a message from
 * libmicrohttpd prefixed "microhttpd: ".  No trailing newline.  Called from
 * the server's threads, possibly concurrently. */
typedef void (*dlp_server_log_fn)(void *user, const char *line);

/* Options; zero-initialise, 0 fields take the defaults shown. */
typedef struct {
    const char *bind;          /* address to listen on (IPv4/IPv6 literal or host
                                  name); NULL or "" = "127.0.0.1"               */
    int port;                  /* TCP port; 0 = any free one (dlp_server_port)  */
    int threads;               /* worker threads (libmicrohttpd pool); 0 = 4    */
    size_t max_upload_bytes;   /* largest request body; 0 = 64 MiB; over: 413    */
    int timeout_s;             /* a request (or an idle keep-alive connection)
                                  taking longer is closed; 0 = 30                */
    int max_parses;            /* model parses/predictions at once; 0 = threads;
                                  over: 503 with Retry-After                      */
    int quiet;                 /* 1: no access-log lines (errors still logged) */
    dlp_server_log_fn log;     /* NULL: nothing is logged                        */
    void *log_user;
    int no_listen;             /* 1: open no socket; only dlp_server_handle
                                  answers (tests, embedding)                      */
    int header_timeout_s;      /* request line + headers must arrive within this
                                  many seconds of the connection opening (or of
                                  the previous response on a keep-alive
                                  connection), however slowly bytes trickle;
                                  0 = 10; over: 408 and closed                   */
    int max_connections;       /* open connections; 0 = 1024; a new one over it
                                  is answered 503 at once and closed             */
    int max_per_ip;            /* open connections from one client address;
                                  0 = max_connections / 2, -1 = no cap; over:
                                  503 at once and closed                         */
} dlp_server_opts;

/* Load the device database and catalogues, bind and start serving in the
 * background (the caller's thread returns at once).  DLP_EIO when the
 * address cannot be bound (message names it and why), DLP_EINVAL for bad
 * options. */
dlp_status dlp_server_new(const dlp_server_opts *opts, dlp_server **out, dlp_error *err);
/* The bound port (the chosen one when opts.port was 0); 0 with no_listen. */
int dlp_server_port(const dlp_server *s);
/* Graceful stop: refuse new connections, let requests in progress finish
 * (up to the request timeout), close everything and free s.  NULL is fine.
 * Safe to call from the thread that called dlp_server_new, never from a
 * log callback or a signal handler. */
void dlp_server_free(dlp_server *s);

/* A response, as the server would send it. */
typedef struct {
    int status;                /* HTTP status: 200, 400, 404, 405, 413, 503...  */
    const char *content_type;  /* static string                                  */
    char *body;                /* malloc'ed, NUL-terminated; len bytes          */
    size_t len;
    int retry_after_s;         /* > 0: the Retry-After header (503)             */
    const char *allow;         /* 405: the Allow header; else NULL              */
} dlp_server_response;

/* Answer one request without a socket, exactly as the server would: url is
 * the path with an optional "?query" (GET fields), body a JSON or
 * application/x-www-form-urlencoded text (multipart bodies need the real
 * server: 415 here).  Thread-safe.  Returns DLP_OK when *out holds a
 * response (any status), DLP_ENOMEM when not even an error could be built. */
dlp_status dlp_server_handle(dlp_server *s, const char *method, const char *url,
                             const char *content_type, const void *body, size_t len,
                             dlp_server_response *out);
void dlp_server_response_clear(dlp_server_response *r);
/* The same for a POST of JSON fields plus an uploaded 'model' file (what a
 * multipart form carries over HTTP): model_len bytes named model_name (a
 * plain file name, used in messages and as "model").  The Python package
 * answers through it, so its JSON is the HTTP API's and the CLI's. */
dlp_status dlp_server_handle_upload(dlp_server *s, const char *url, const char *fields_json,
                                    const void *model, size_t model_len, const char *model_name,
                                    dlp_server_response *out);

/* ==== END serve ==== */

/* ==== BEGIN json (src/json) ==== */

/* The one JSON text of each result.  The CLI's --json, the HTTP API and the
 * Python package print exactly these bytes: one object, keys in a fixed
 * order, then a newline.  Non-finite numbers are null.  *out is malloc'ed
 * (free it with dlp_free), *len its length (len may be NULL); on failure
 * *out is NULL and err says why (DLP_ENOMEM).  Keys: docs/serve.md. */

#define DLP_JSON_KERNELS 1   /* dlp_prediction_json: add "kernel_list"  */

dlp_status dlp_prediction_json(const dlp_prediction *p, const dlp_device *d, int flags,
                               char **out, size_t *len, dlp_error *err);
/* A dlp_mig_recommend result for its inputs (latency_ms, slo_ms <= 0: none). */
dlp_status dlp_mig_json(const dlp_device *d, double memory_mb, double margin, double latency_ms,
                        double slo_ms, const dlp_mig_choice *c, char **out, size_t *len,
                        dlp_error *err);
/* One device; the whole database {"devices":[...],"carbon":{...}}; the
 * carbon table alone. */
dlp_status dlp_device_json(const dlp_device *d, char **out, size_t *len, dlp_error *err);
dlp_status dlp_devices_json(const dlp_devdb *db, char **out, size_t *len, dlp_error *err);
dlp_status dlp_carbon_json(const dlp_devdb *db, char **out, size_t *len, dlp_error *err);
/* An LLM prediction for config c on d with workload wl (`dlperf llm
 * --json`), with totals for `samples` sequences (<= 0: wl->batch); region is
 * the carbon region the prediction used (NULL: null). */
dlp_status dlp_llm_json(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *wl,
                        const dlp_llm_prediction *p, int64_t samples, const char *region, char **out,
                        size_t *len, dlp_error *err);
/* A loaded graph's totals, per-op-type counts/MACs/FLOPs, unknown ops,
 * symbols and warnings (`dlperf inspect --json`). */
dlp_status dlp_inspect_json(const dlp_graph *g, char **out, size_t *len, dlp_error *err);
/* The same object plus "outputs" (the graph outputs in the file's order:
 * name, dtype, shape) and "node_list" (per node in topological order: name,
 * op, the shape of each output); a shape is an array with -1 for an unknown
 * dim, or null when the rank is unknown (`dlperf inspect --json --nodes`). */
dlp_status dlp_inspect_nodes_json(const dlp_graph *g, char **out, size_t *len, dlp_error *err);

/* ==== END json ==== */

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif /* DLPERF_H */
