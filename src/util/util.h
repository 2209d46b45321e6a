/*
 * util.h — internal helpers shared by every module: arenas, a string->int
 * hash map, error formatting, overflow-checked arithmetic, file mapping.
 * Internal names use the dlp__ prefix; nothing here is public API.
 */
#ifndef DLP_UTIL_H
#define DLP_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dlperf.h"

/* ---- errors ---------------------------------------------------------- */

/* Fill err (may be NULL) with a formatted one-line message; returns code. */
dlp_status dlp__err(dlp_error *err, dlp_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- arena ----------------------------------------------------------- */

/* Bump allocator: many small allocations, one free.  Blocks grow
 * geometrically; memory is zeroed.  Returns NULL only on OOM. */
typedef struct dlp__arena_block dlp__arena_block;
typedef struct {
    dlp__arena_block *head;
    size_t total;               /* bytes handed out, for statistics */
} dlp__arena;

void *dlp__arena_alloc(dlp__arena *a, size_t size);   /* zeroed */
void *dlp__arena_alloc_raw(dlp__arena *a, size_t size);   /* not zeroed: the caller writes it all */
char *dlp__arena_strndup(dlp__arena *a, const char *s, size_t n);
char *dlp__arena_strdup(dlp__arena *a, const char *s);
void *dlp__arena_memdup(dlp__arena *a, const void *p, size_t n);
void dlp__arena_free(dlp__arena *a);
/* About `bytes` will be allocated: from 1 MiB on, one block of that size
 * now instead of doubling up to it (fewer, huge-page-backed page faults). */
void dlp__arena_hint(dlp__arena *a, size_t bytes);
/* malloc for big arrays a load fills at once (a graph's nodes and values):
 * from 1 MiB on, 2 MiB aligned with MADV_HUGEPAGE, one page fault per
 * 2 MiB instead of per 4 KiB where the kernel allows it.  free() it. */
void *dlp__alloc_big(size_t size);

/* ---- growable array of plain structs --------------------------------- */

/* Grow *p (n used, *cap capacity, elem bytes) to hold n+1; 0 on success. */
int dlp__grow(void **p, int n, int *cap, size_t elem);

/* ---- string -> int map (open addressing) ----------------------------- */

/* One slot: key, its hash and value side by side, so that a probe reads
 * one 16-byte slot (one cache line) instead of three arrays: name lookups
 * in a 10,000-node export miss the cache on nearly every probe. */
typedef struct {
    const char *key;     /* not owned: keys must outlive the map; NULL empty */
    uint32_t hash;       /* compared before the key: most probes miss */
    int val;
} dlp__strmap_slot;

typedef struct {
    dlp__strmap_slot *slots;
    uint32_t cap;        /* power of two */
    uint32_t count;
} dlp__strmap;

int dlp__strmap_init(dlp__strmap *m, uint32_t expect);
void dlp__strmap_free(dlp__strmap *m);
/* Insert or overwrite; -1 on OOM, else 0. */
int dlp__strmap_put(dlp__strmap *m, const char *key, int val);
/* Insert when absent (one probe for the check and the insert): 0 inserted,
 * 1 already there (left as it was), -1 on OOM. */
int dlp__strmap_put_new(dlp__strmap *m, const char *key, int val);
/* Value or -1 when absent. */
int dlp__strmap_get(const dlp__strmap *m, const char *key);
/* Lookup by the n bytes at key, not NUL-terminated (a name inside a
 * file buffer: looked up without a copy); key has no NUL in its n bytes. */
int dlp__strmap_get_n(const dlp__strmap *m, const char *key, size_t n);
uint64_t dlp__hash_str(const char *s);
/* dlp__hash_str of the n bytes at p (no NUL needed): the same value. */
uint64_t dlp__hash_n(const void *p, size_t n);
uint64_t dlp__hash_bytes(const void *p, size_t n, uint64_t seed);

/* ---- checked arithmetic ---------------------------------------------- */

/* *r = a*b; false on overflow or negative operand. */
static inline bool dlp__mul_ok(int64_t a, int64_t b, int64_t *r) {
    if (a < 0 || b < 0) return false;
    return !__builtin_mul_overflow(a, b, r);
}
static inline bool dlp__add_ok(int64_t a, int64_t b, int64_t *r) {
    return !__builtin_add_overflow(a, b, r);
}
/* Saturating versions for cost totals (costs never error, they clamp). */
static inline int64_t dlp__sat_mul(int64_t a, int64_t b) {
    int64_t r;
    if (a <= 0 || b <= 0) return 0;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
static inline int64_t dlp__sat_add(int64_t a, int64_t b) {
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

/* ---- growable string ------------------------------------------------- */

/* A growable NUL-terminated string (reports, SVG, corpus text). */
typedef struct {
    char *s;
    size_t len, cap;
    int oom;                    /* an append failed: s is truncated            */
} dlp__sb;
void dlp__sb_printf(dlp__sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dlp__sb_free(dlp__sb *b);

/* ---- clock ----------------------------------------------------------- */

/* Monotonic clock, seconds (training times, ETAs, the server's deadlines
 * and uptime). */
double dlp__now_s(void);

/* ---- files ----------------------------------------------------------- */

/* Read-only mapping of a whole file (empty files map to a 1-byte dummy). */
typedef struct {
    const uint8_t *data;
    size_t len;
    int mapped;          /* 1: munmap on close, 0: nothing to free */
} dlp__mapped;

dlp_status dlp__map_file(const char *path, dlp__mapped *m, dlp_error *err);

/* Open path read-only for a whole-file read: a named pipe, device, socket
 * or directory is refused at once ("PATH: not a regular file (a named
 * pipe)") instead of blocking or reading forever.  Returns the fd (blocking
 * mode, st filled) or -1 with err set (DLP_EIO).  Every reader of a model,
 * dataset or input file opens through these. */
struct stat;
int dlp__open_regular(const char *path, struct stat *st, dlp_error *err);
/* The same as a stdio stream ("rb"); NULL with err set. */
FILE *dlp__fopen_regular(const char *path, dlp_error *err);
void dlp__unmap_file(dlp__mapped *m);

/* Write buf to path atomically (temp file in the same folder + fsync +
 * rename), so a full disk or a killed process never leaves a torn file. */
dlp_status dlp__write_file_atomic(const char *path, const void *buf, size_t len,
                                  dlp_error *err);

/* Base name of a path (pointer into the string). */
const char *dlp__basename(const char *path);

/* CRC-32 (IEEE) for file checksums. */
uint32_t dlp__crc32(uint32_t crc, const void *p, size_t n);

#endif
