/*
 * gnnlm_embed.c — compiles the gnnlm base model dlperf ships (issue 25: "a
 * gnnlm base that ships") into the library: data/models/gnnlm/dlperf-gnnlm.dlpm,
 * a stage-3 gnnlm .dlpm made by scripts/ship_gnnlm.sh (thesis chapter 7's
 * three stages on every public HELP setting; docs/gnnlm.md "The shipped
 * base").  The model name "builtin-gnnlm" (dlp_gnn_load, so `--init`,
 * `--model` everywhere) reads it.  Same .incbin technique as lm_embed.c:
 * the path is relative to the repository root where make runs the
 * compiler, and the Makefile lists the file as a prerequisite.
 */
#include <stddef.h>
#include <stdint.h>

#include "learn/gnn_internal.h"

__asm__(
    "    .section .rodata\n"
    "    .balign 8\n"
    "    .global dlp__gnnlm_builtin_bytes\n"
    "    .type dlp__gnnlm_builtin_bytes, %object\n"
    "dlp__gnnlm_builtin_bytes:\n"
    "    .incbin \"data/models/gnnlm/dlperf-gnnlm.dlpm\"\n"
    "dlp__gnnlm_builtin_end:\n"
    "    .byte 0\n"
    "    .size dlp__gnnlm_builtin_bytes, . - dlp__gnnlm_builtin_bytes\n"
    "    .balign 8\n"
    "    .global dlp__gnnlm_builtin_len\n"
    "    .type dlp__gnnlm_builtin_len, %object\n"
    "dlp__gnnlm_builtin_len:\n"
    "    .quad dlp__gnnlm_builtin_end - dlp__gnnlm_builtin_bytes\n"
    "    .size dlp__gnnlm_builtin_len, 8\n"
    "    .previous\n");

extern const uint8_t dlp__gnnlm_builtin_bytes[];
extern const uint64_t dlp__gnnlm_builtin_len;

void dlp__gnnlm_builtin(const void **buf, size_t *len) {
    *buf = dlp__gnnlm_builtin_bytes;
    *len = (size_t)dlp__gnnlm_builtin_len;
}
