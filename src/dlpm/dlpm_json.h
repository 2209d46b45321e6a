/*
 * dlpm_json.h — the JSON-header pieces shared by the .dlpm files of the
 * nn-based models (model_file.c: GNN / TraPPM predictors; encoder.c:
 * pre-trained encoders and their checkpoints).  Not public API.
 *
 * Reading: a dlp__dlpm_rd carries the first error.  Every getter is a no-op
 * returning a zero value ("" for strings) once an error is recorded, so a
 * parser can read a whole object and test r->st once; the message names the
 * file and the field ("<name>: <what> header field 'k' ...").
 *
 * Both kinds of file end their header with the nn size table ("tensors":
 * name, shape, offset of every tensor; "n_values"), which a loader checks
 * against the network it rebuilt from the recipe, so a file can never be
 * read into a differently shaped network.
 */
#ifndef DLP_MODELS_DLPM_JSON_H
#define DLP_MODELS_DLPM_JSON_H

#include <cJSON.h>
#include <stdint.h>

#include "dlperf.h"
#include "nn/nn.h"

typedef struct {
    const char *name;          /* file name for messages                     */
    const char *what;          /* "model" / "encoder": "<what> header field"  */
    dlp_error *err;
    dlp_status st;             /* first error, DLP_OK until then             */
} dlp__dlpm_rd;

/* ---- writing ---- */

/* v as 16 hex digits (a u64 does not survive a JSON double). */
void dlp__dlpm_add_hex(cJSON *o, const char *key, uint64_t v);
/* v, or null when it is not finite (JSON has no NaN / inf). */
void dlp__dlpm_add_num_or_null(cJSON *o, const char *key, double v);
/* The size table of ps: "tensors" [{name, shape, offset}...], "n_values". */
void dlp__dlpm_add_tensors(cJSON *o, const dlp__nn_params *ps);

/* ---- reading ---- */

/* o[key] of that cJSON type (cJSON_True: any bool), else NULL + error. */
const cJSON *dlp__dlpm_need(dlp__dlpm_rd *r, const cJSON *o, const char *key, int type);
double dlp__dlpm_num(dlp__dlpm_rd *r, const cJSON *o, const char *key);
/* A whole number in [lo, hi]. */
int64_t dlp__dlpm_inum(dlp__dlpm_rd *r, const cJSON *o, const char *key, int64_t lo, int64_t hi);
const char *dlp__dlpm_str(dlp__dlpm_rd *r, const cJSON *o, const char *key);
/* s as a hex u64 (key names the field in the message). */
uint64_t dlp__dlpm_hex_str(dlp__dlpm_rd *r, const char *s, const char *key);
uint64_t dlp__dlpm_hex64(dlp__dlpm_rd *r, const cJSON *o, const char *key);
/* v (the parse of s); an error "unknown <what> 's'" when v < 0. */
int dlp__dlpm_enum_of(dlp__dlpm_rd *r, const char *s, int v, const char *what);
/* o[key]: an array of exactly n numbers into out; 0, or -1 + error. */
int dlp__dlpm_doubles(dlp__dlpm_rd *r, const cJSON *o, const char *key, double *out, int n);

/* The stored size table of root must equal ps (the rebuilt network's),
 * tensor by tensor; returns r->st. */
dlp_status dlp__dlpm_check_tensors(dlp__dlpm_rd *r, const cJSON *root, const dlp__nn_params *ps);
/* The payload must be ps's values as float32; returns r->st. */
dlp_status dlp__dlpm_check_payload(dlp__dlpm_rd *r, uint64_t payload_len, const dlp__nn_params *ps);

#endif
