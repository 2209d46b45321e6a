/*
 * llm_embed.c — compiles the LLM module's data into the library so the
 * binary needs no data files:
 *   data/llm_configs.json         the catalogue of Hugging Face configs
 *   data/models/llm_models.bundle the shipped trained models: .dlpm files
 *                                 concatenated (each is self-delimiting)
 * Same .incbin technique as src/hw/devices_embed.c: paths are relative to
 * the repository root where make runs the compiler, the Makefile lists both
 * files as prerequisites of this object, and the JSON gets a trailing NUL so
 * cJSON can parse it in place.
 */
#include "llm/transformer.h"

__asm__(
    "    .section .rodata\n"
    "    .global dlp__llm_configs_json\n"
    "    .type dlp__llm_configs_json, %object\n"
    "dlp__llm_configs_json:\n"
    "    .incbin \"data/llm_configs.json\"\n"
    "    .byte 0\n"
    "    .size dlp__llm_configs_json, . - dlp__llm_configs_json\n"
    "    .balign 8\n"
    "    .global dlp__llm_models_bundle\n"
    "    .type dlp__llm_models_bundle, %object\n"
    "dlp__llm_models_bundle:\n"
    "    .incbin \"data/models/llm_models.bundle\"\n"
    "dlp__llm_models_bundle_end:\n"
    "    .size dlp__llm_models_bundle, . - dlp__llm_models_bundle\n"
    "    .balign 8\n"
    "    .global dlp__llm_models_bundle_len\n"
    "    .type dlp__llm_models_bundle_len, %object\n"
    "dlp__llm_models_bundle_len:\n"
    "    .quad dlp__llm_models_bundle_end - dlp__llm_models_bundle\n"
    "    .size dlp__llm_models_bundle_len, 8\n"
    "    .previous\n");
