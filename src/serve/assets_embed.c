/*
 * assets_embed.c — compiles the server's files into the library so that
 * `dlperf serve` needs no installed data and never opens a file:
 *   src/serve/web/index.html  the web page (inline CSS and JS), NUL-terminated
 *   examples/resnet18.onnx    the shipped example model ('example': "resnet18");
 *                             its weights are external and absent, which is
 *                             fine: dlperf never reads weights
 * Same .incbin technique as src/hw/devices_embed.c: paths are relative to the
 * repository root where make runs the compiler, and the Makefile lists both
 * files as prerequisites of this object so editing the page rebuilds it.
 * The model is 16-byte aligned because the ONNX reader parses it in place.
 */
#include "serve/serve.h"

__asm__(
    "    .section .rodata\n"
    "    .global dlp__serve_index_html\n"
    "    .type dlp__serve_index_html, %object\n"
    "dlp__serve_index_html:\n"
    "    .incbin \"src/serve/web/index.html\"\n"
    "    .byte 0\n"
    "    .size dlp__serve_index_html, . - dlp__serve_index_html\n"
    "    .balign 16\n"
    "    .global dlp__serve_resnet18_onnx\n"
    "    .type dlp__serve_resnet18_onnx, %object\n"
    "dlp__serve_resnet18_onnx:\n"
    "    .incbin \"examples/resnet18.onnx\"\n"
    "dlp__serve_resnet18_onnx_end:\n"
    "    .size dlp__serve_resnet18_onnx, . - dlp__serve_resnet18_onnx\n"
    "    .balign 8\n"
    "    .global dlp__serve_resnet18_onnx_len\n"
    "    .type dlp__serve_resnet18_onnx_len, %object\n"
    "dlp__serve_resnet18_onnx_len:\n"
    "    .quad dlp__serve_resnet18_onnx_end - dlp__serve_resnet18_onnx\n"
    "    .size dlp__serve_resnet18_onnx_len, 8\n"
    "    .previous\n");
