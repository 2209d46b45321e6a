/*
 * tap.h — the tiny test harness used by every tests/test_*.c.
 *
 * A test file defines functions `static void t_name(void)` and lists them in
 * main() with RUN(t_name).  Each prints "PASS name" or "FAIL name" and the
 * runner (tests/run.sh) totals them into "N passed, N failed".
 * CHECK* macros record failures with file:line and the values compared.
 */
#ifndef DLP_TAP_H
#define DLP_TAP_H
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_cur_fail;
static int tap_total_fail;
static int tap_total_pass;

#define CHECK(c) do { if (!(c)) { tap_cur_fail++; \
    fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c); } } while (0)
#define CHECK_I64(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); \
    if (a_ != b_) { tap_cur_fail++; fprintf(stderr, "  %s:%d: %s == %lld, expected %s == %lld\n", \
    __FILE__, __LINE__, #a, a_, #b, b_); } } while (0)
#define CHECK_NEAR(a, b, tol) do { double a_ = (double)(a), b_ = (double)(b); \
    if (!(fabs(a_ - b_) <= (tol))) { tap_cur_fail++; fprintf(stderr, \
    "  %s:%d: %s == %.9g, expected %.9g (tol %g)\n", __FILE__, __LINE__, #a, a_, b_, (double)(tol)); } } while (0)
#define CHECK_STR(a, b) do { const char *a_ = (a), *b_ = (b); \
    if (!a_ || !b_ || strcmp(a_, b_) != 0) { tap_cur_fail++; fprintf(stderr, \
    "  %s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); } } while (0)

#define RUN(fn) do { tap_cur_fail = 0; fn(); \
    if (tap_cur_fail) { tap_total_fail++; printf("FAIL %s\n", #fn); } \
    else { tap_total_pass++; printf("PASS %s\n", #fn); } fflush(stdout); } while (0)

#define TAP_DONE() (tap_total_fail ? 1 : 0)

/* Path of ../shared (the read-only data beside the checkout). */
static inline const char *tap_shared(void) {
    const char *s = getenv("DLP_SHARED");
    return s && *s ? s : "../shared";
}
/* Whole file as a NUL-terminated malloc'ed buffer (read in chunks, so
 * /proc files and pipes work too); *n (may be NULL) gets its length.
 * NULL when the file cannot be opened or memory runs out. */
static inline char *tap_slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL, tmp[4096];
    size_t len = 0, cap = 0, r;
    while ((r = fread(tmp, 1, sizeof tmp, f)) > 0) {
        if (len + r + 1 > cap) {
            cap = (len + r + 1) * 2;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        memcpy(buf + len, tmp, r);
        len += r;
    }
    fclose(f);
    if (!buf) buf = calloc(1, 1);
    else buf[len] = 0;
    if (buf && n) *n = len;
    return buf;
}

#endif
