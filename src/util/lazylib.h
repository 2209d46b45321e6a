/*
 * lazylib.h — load a shared library on first use instead of at start-up.
 *
 * libxgboost (with libstdc++, libgomp, libdmlc) and libmicrohttpd (with
 * gnutls) cost tens of milliseconds of process start-up, paid by every
 * `dlperf` command although only `llm`/`train --arch xgb` and `serve` use
 * them.  The shims (src/learn/xgb_shim.c, src/serve/mhd_shim.c) define the
 * library's functions under their own names and forward to the real ones
 * through dlsym, so call sites stay plain C API calls.
 */
#ifndef DLP_LAZYLIB_H
#define DLP_LAZYLIB_H

#include <pthread.h>

typedef struct {
    const char *const *sonames; /* tried in order, NULL-terminated */
    pthread_mutex_t lock;
    int tried;
    void *handle;
    char err[256];
    void (*before_load)(void);  /* called once, under the lock, before dlopen */
    int private_copy;           /* load a copy of its own (dlmopen, a new link
                                   namespace) rather than share one another
                                   part of the process loaded; dlopen when
                                   that fails */
} dlp__lazylib;

#define DLP__LAZYLIB_INIT(names) {(names), PTHREAD_MUTEX_INITIALIZER, 0, NULL, "", NULL, 0}
#define DLP__LAZYLIB_INIT_PRIVATE(names, hook) {(names), PTHREAD_MUTEX_INITIALIZER, 0, NULL, "", (hook), 1}

/* Address of `sym` in the library (loading it on first call), or NULL with
 * lib->err saying why. Thread-safe. */
void *dlp__lazy_sym(dlp__lazylib *lib, const char *sym);

#endif
