/*
 * container.h — the one .dlpm container of every model file dlperf writes:
 * GNN predictors (model_file.c), encoders and checkpoints (encoder.c),
 * XGBoost models (xgb.c), language models and tokenizers (src/lm).  Each
 * reader opens it with dlp__dlpm_open and then checks its own "kind".
 *
 * Layout (little-endian):
 *   0   "DLPM"            magic
 *   4   u32 version       DLP__DLPM_VERSION
 *   8   u32 H             header bytes: a JSON object (no NUL)
 *   12  u64 N             payload bytes
 *   20  header (H bytes), payload (N bytes)
 *   end-4 u32 CRC-32 of every byte before it
 *
 * The header's "kind" names the model type ("gnn", "encoder", "xgboost",
 * "lm", "bpe", ...), so a loader refuses a file of another kind with a
 * clear message rather than misreading its payload.
 */
#ifndef DLP_MODELS_CONTAINER_H
#define DLP_MODELS_CONTAINER_H

#include <stddef.h>
#include <stdint.h>

#include "dlperf.h"

#define DLP__DLPM_MAGIC "DLPM"
#define DLP__DLPM_VERSION 1u
#define DLP__DLPM_FIXED 20u   /* magic + version + H + N */

/* Build a whole file image: *buf (malloc'ed, caller frees) of *len bytes. */
dlp_status dlp__dlpm_pack(const char *header, size_t header_len, const void *payload,
                          uint64_t payload_len, void **buf, size_t *len, dlp_error *err);

/* Validate an image and point into it.  Checks, in this order so that each
 * failure gets its own status: size and magic (DLP_EFORMAT), version
 * (DLP_EVERSION: checked before the sizes because another version may lay
 * the rest out differently), section sizes against the length (DLP_EFORMAT:
 * truncated or padded), CRC-32 (DLP_ECHECKSUM).  `name` (the file) starts
 * every message. */
dlp_status dlp__dlpm_unpack(const void *buf, size_t len, const char *name, const char **header,
                            size_t *header_len, const uint8_t **payload, uint64_t *payload_len,
                            dlp_error *err);

/* dlp__dlpm_unpack, then the header parsed as JSON (*root: the caller
 * deletes it); what every reader of a .dlpm does before its own checks
 * (kind, format, recipe).  DLP_EFORMAT "<name>: header is not valid JSON". */
struct cJSON;
dlp_status dlp__dlpm_open(const void *buf, size_t len, const char *name, struct cJSON **root,
                          const uint8_t **payload, uint64_t *payload_len, dlp_error *err);
/* The header's "kind" string, "" when it has none. */
const char *dlp__dlpm_kind(const struct cJSON *root);
/* Length of the container image starting at p (at most `left` bytes: files
 * stored back to back in a bundle), or 0 when none starts there. */
size_t dlp__dlpm_image_len(const void *p, size_t left);

#endif
