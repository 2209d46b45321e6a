/*
 * learned.h — internals of the CPU estimator (src/predict/cpu.c) and of the
 * registry of shipped learned models (src/predict/learned.c, learned_embed.c;
 * docs/learned.md).  Not public API.  dlp_predict itself is
 * src/predict/predict.c (an estimator table, then derive); each step is a
 * function here so tests can check them one by one.
 */
#ifndef DLP_MODELS_LEARNED_H
#define DLP_MODELS_LEARNED_H

#include <stddef.h>
#include <stdint.h>

#include "dlperf.h"


/* ---- CPU (src/predict/cpu.c) --------------------------------------------------- */

/* Options for the analytic pass on device d: on a CPU, launch_us 0 becomes
 * the eager dispatch cost and no efficiency table means pure roofline.
 * Other devices: unchanged. */
void dlp__predict_cpu_opts(const dlp_device *d, dlp_predict_opts *o);
/* After the analytic pass: a CPU has no CUDA context, cuBLAS workspace,
 * allocator overhead, MIG or (without TDP) power; memory gets the measured
 * process base instead.  Sets device_kind and energy_known for every
 * device.  Idempotent. */
void dlp__predict_cpu_finish(const dlp_device *d, const dlp_predict_opts *o, dlp_prediction *p);

/* ---- shipped learned models (learned.c) ------------------------------------- */

/* The bundle compiled in (learned_embed.c): for every file of
 * data/models/learned/ (*.dlpm and *.txt, sorted by name) the line
 * "DLPL <name> <bytes>\n" then the file's bytes; empty when there are none.
 * Built by the Makefile rule for data/models/learned.bundle. */
extern const unsigned char dlp__learned_bundle[];
extern const uint64_t dlp__learned_bundle_len;

typedef struct {
    char file[96];             /* "cpu-amd-epyc-2c--train--step_ms.dlpm"        */
    char device[64];           /* from the name: device id                       */
    int mode;                  /* from the name: dlp_predict_mode; -1 bad name   */
    char target[32];           /* from the name: a target, or "" = all targets
                                  of the model (a name such as "all")           */
    dlp_gnn *model;            /* NULL: unusable (error says why)               */
    char accuracy[192];        /* <stem>.txt's first line, else from the header  */
    char error[160];
} dlp__learned_entry;

typedef struct {
    int n;
    dlp__learned_entry *e;
} dlp__learned_set;

/* Parse a bundle image (never fails: bad records become entries with an
 * error, a malformed tail ends the set).  Free with dlp__learned_set_free. */
void dlp__learned_parse(const unsigned char *buf, size_t len, dlp__learned_set *out);
void dlp__learned_set_free(dlp__learned_set *s);
/* 1 if the bundle image has a model record named for (device id, mode),
 * read from the record names alone (nothing unpacked), else 0. */
int dlp__learned_bundle_has(const unsigned char *buf, size_t len, const char *device, int mode);
/* The built-in set (the embedded bundle, parsed once, thread-safe). */
const dlp__learned_set *dlp__learned_builtin(void);

/* Replace latency/step time and memory of an analytic prediction p by the
 * models of `set` for (d->id, o->mode) where there are any, recording the
 * sources and, in p->learned_note, every model skipped and why.  Never
 * fails: a model that cannot be used leaves the analytic numbers. */
void dlp__learned_apply(const dlp__learned_set *set, const dlp_graph *g, const dlp_device *d,
                        const dlp_predict_opts *o, dlp_prediction *p);

#endif
