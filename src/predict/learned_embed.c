/*
 * learned_embed.c — compiles the shipped learned models into the library:
 * data/models/learned.bundle, which the Makefile builds from every *.dlpm
 * and *.txt file in data/models/learned/ (format in learned.h; empty when
 * there are none, and then prediction is analytic).  Same .incbin technique
 * as src/hw/devices_embed.c and src/llm/llm_embed.c: the path is relative
 * to the repository root where make runs the compiler, and the Makefile
 * lists the bundle as a prerequisite of this object.
 */
#include "predict/learned.h"

__asm__(
    "    .section .rodata\n"
    "    .balign 8\n"
    "    .global dlp__learned_bundle\n"
    "    .type dlp__learned_bundle, %object\n"
    "dlp__learned_bundle:\n"
    "    .incbin \"data/models/learned.bundle\"\n"
    "dlp__learned_bundle_end:\n"
    "    .byte 0\n"
    "    .size dlp__learned_bundle, . - dlp__learned_bundle\n"
    "    .balign 8\n"
    "    .global dlp__learned_bundle_len\n"
    "    .type dlp__learned_bundle_len, %object\n"
    "dlp__learned_bundle_len:\n"
    "    .quad dlp__learned_bundle_end - dlp__learned_bundle\n"
    "    .size dlp__learned_bundle_len, 8\n"
    "    .previous\n");
