/*
 * lm_embed.c — compiles the language model dlperf ships (issue 14: "the
 * language model we ship") into the library: data/models/lm/dlperf-lm.dlpm,
 * a .dlpm of kind "lm" made by scripts/ship_lm.sh (`dlperf lm corpus` +
 * `dlperf lm pretrain`; its recipe is in the file's header and in
 * docs/gnnlm.md).  `--lm builtin` (and a gnnlm training without --lm or
 * --init) reads it.  Same .incbin technique as src/predict/learned_embed.c:
 * the path is relative to the repository root where make runs the
 * compiler, and the Makefile lists the file as a prerequisite.
 */
#include <stddef.h>
#include <stdint.h>

#include "lm/lm.h"

__asm__(
    "    .section .rodata\n"
    "    .balign 8\n"
    "    .global dlp__lm_builtin_bytes\n"
    "    .type dlp__lm_builtin_bytes, %object\n"
    "dlp__lm_builtin_bytes:\n"
    "    .incbin \"data/models/lm/dlperf-lm.dlpm\"\n"
    "dlp__lm_builtin_end:\n"
    "    .byte 0\n"
    "    .size dlp__lm_builtin_bytes, . - dlp__lm_builtin_bytes\n"
    "    .balign 8\n"
    "    .global dlp__lm_builtin_len\n"
    "    .type dlp__lm_builtin_len, %object\n"
    "dlp__lm_builtin_len:\n"
    "    .quad dlp__lm_builtin_end - dlp__lm_builtin_bytes\n"
    "    .size dlp__lm_builtin_len, 8\n"
    "    .previous\n");

extern const uint8_t dlp__lm_builtin_bytes[];
extern const uint64_t dlp__lm_builtin_len;

void dlp__lm_builtin(const void **buf, size_t *len) {
    *buf = dlp__lm_builtin_bytes;
    *len = (size_t)dlp__lm_builtin_len;
}
