/*
 * transformer.h — internals shared by the LLM module (src/build/transformer.c,
 * llm_embed.c, src/models/llm.c): the embedded catalogue and the
 * memory-rule helpers.  Not public API.
 */
#ifndef DLP_BUILD_TRANSFORMER_H
#define DLP_BUILD_TRANSFORMER_H

#include <stdint.h>

#include "dlperf.h"

/* data/llm_configs.json as compiled into the library, NUL-terminated. */
extern const char dlp__llm_configs_json[];
/* data/models/llm_models.bundle: concatenated .dlpm files (may be empty). */
extern const unsigned char dlp__llm_models_bundle[];
extern const uint64_t dlp__llm_models_bundle_len;

/* Bytes of one bitsandbytes NF4 weight of n elements (double quantisation). */
int64_t dlp__nf4_bytes(int64_t n);

#endif
