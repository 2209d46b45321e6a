/*
 * features_internal.h — .dlpg bytes in memory, for the corpus pack
 * (src/data/corpus.c), whose records are .dlpg files stored back to back.
 * Not public API.
 */
#ifndef DLP_FEATURES_INTERNAL_H
#define DLP_FEATURES_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "dlperf.h"

/* The bytes dlp_features_save writes, malloc'ed (*out, *len); `name` names
 * the thing in messages. */
dlp_status dlp__features_save_mem(const dlp_features *f, const char *name, uint8_t **out, size_t *len,
                                  dlp_error *err);
/* Parse .dlpg bytes with the checks of dlp_features_load (magic, versions,
 * sizes, CRC-32, CSR bounds); messages start with `name`. */
dlp_status dlp__features_load_mem(const void *buf, size_t len, const char *name, dlp_features **out,
                                  dlp_error *err);

#endif
