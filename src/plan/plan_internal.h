/*
 * plan_internal.h — the plan handle shared by the LLM serving planner
 * (plan.c) and the inference planner of any ONNX model (plan_infer.c):
 * one result type, one set of accessors, two searches.
 */
#ifndef DLP_PLAN_INTERNAL_H
#define DLP_PLAN_INTERNAL_H

#include "dlperf.h"

struct dlp_plan {
    int kind;                  /* DLP_PLAN_LLM, DLP_PLAN_INFER or DLP_PLAN_TRAIN */
    dlp_plan_row *rows;
    int n, cap;
    int64_t considered, evaluations;
    int64_t missed[DLP_PLAN_MISS_COUNT_];
    int device_kinds;
    int has_closest;
    double closest_ratio;
    dlp_plan_row closest;
    char first_refusal[sizeof(((dlp_error *)0)->msg)];   /* the message of the first "refused" miss */
    /* the request, for the JSON */
    char model[96];
    int64_t prompt, gen, max_concurrency;    /* LLM */
    int64_t batch_min, batch_max;            /* inference */
    int runtime;
    int64_t train_batch, samples;            /* training */
    double epochs, deadline_hours;
    int optimizer, max_gpus;
    double ttft_ms, tpot_ms, latency_ms, rate, kwh_price;
    char region[64];
    double g_per_kwh, pue;
};

/* Append a row; DLP_ENOMEM when it cannot grow. */
dlp_status dlp__plan_add_row(dlp_plan *pl, const dlp_plan_row *r);
/* $/h of one GPU of d: the caller's price (prices[] for devices named in
 * price_devices[]), else the database's; 0 when neither has one. */
double dlp__plan_price(const char *const *price_devices, const double *prices, int n_prices, const dlp_devdb *db,
                       const dlp_device *d, int *from_caller);
/* Check a caller's price list: DLP_ENOTFOUND / DLP_EINVAL with err set. */
dlp_status dlp__plan_check_prices(const char *const *price_devices, const double *prices, int n_prices,
                                  const dlp_devdb *db, dlp_error *err);
/* The devices to search: the caller's list (each once; GPUs only) or every
 * GPU with a price (the caller's or the database's).  *out is malloc'ed,
 * *n_out its length. */
dlp_status dlp__plan_devices(const char *const *names, int n_names, const char *const *price_devices,
                             const double *prices, int n_prices, const dlp_devdb *db, const dlp_device ***out,
                             int *n_out, dlp_error *err);
/* What both kinds of plan check first: the carbon region (*g_per_kwh its
 * intensity) and the caller's price list; DLP_ENOTFOUND / DLP_EINVAL. */
dlp_status dlp__plan_check_where(const dlp_devdb *db, const char *region, const char *const *price_devices,
                                 const double *prices, int n_prices, double *g_per_kwh, dlp_error *err);
/* The setting every plan records: region (the database's default when
 * none), its intensity, PUE, energy price and how many GPU kinds. */
/* The compute dtypes a vision/training plan tries on d: the caller's list
 * (want, n_want > 0) as given, else fp16 and bf16 where the GPU has them, and
 * fp32 (mixed precision or not); fills dts (DLP_DT_COUNT_ slots), returns n. */
int dlp__plan_dtypes(const dlp_device *d, const int *want, int n_want, int *dts);
void dlp__plan_set_where(dlp_plan *pl, const dlp_devdb *db, const char *region, double g_per_kwh, double kwh_price,
                         int device_kinds);
/* Sort the rows best first (by usd_per_hour when by_fleet, else the
 * per-unit cost of the plan's kind). */
void dlp__plan_sort(dlp_plan *pl, int by_fleet);

/* An ONNX model's graphs by batch size, loaded on first use and shared by
 * every device of a search (plan_infer.c, plan_train.c). */
typedef struct {
    const void *onnx;
    size_t len;
    const char *name;
    int64_t seq;
    int n_dims;                  /* dlp_load_opts' named bindings */
    const char *const *dim_names;
    const int64_t *dim_values;
    int64_t *batch;
    dlp_graph **g;
    int n, cap;
} dlp__plan_graphs;

/* The graph at batch b (loaded now if new); the loader's errors. */
dlp_status dlp__plan_graph_at(dlp__plan_graphs *gs, int64_t b, const dlp_graph **out, dlp_error *err);
void dlp__plan_graphs_free(dlp__plan_graphs *gs);

#endif
