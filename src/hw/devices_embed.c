/*
 * devices_embed.c — compiles data/devices.json into the library so the
 * dlperf binary needs no installed data files.
 *
 * Why .incbin: it copies the file's bytes at assembly time with no generated
 * source and no build tool beyond the compiler.  The path is relative to the
 * directory the compiler runs in, which is the repository root under make
 * (the Makefile lists data/devices.json as a prerequisite of this object so
 * editing the JSON rebuilds it).  A trailing NUL makes it a C string.
 */
#include "hw/hw.h"

__asm__(
    "    .section .rodata\n"
    "    .global dlp__devices_json\n"
    "    .type dlp__devices_json, %object\n"
    "dlp__devices_json:\n"
    "    .incbin \"data/devices.json\"\n"
    "    .byte 0\n"
    "    .size dlp__devices_json, . - dlp__devices_json\n"
    "    .previous\n");
