/*
 * lazylib.c — dlopen a shared library on first use (see lazylib.h).
 */
#include "util/lazylib.h"

#include <dlfcn.h>
#include <stdio.h>

void *dlp__lazy_sym(dlp__lazylib *lib, const char *sym) {
    pthread_mutex_lock(&lib->lock);
    if (!lib->tried) {
        lib->tried = 1;
        if (lib->before_load) lib->before_load();
        for (const char *const *n = lib->sonames; *n && !lib->handle; n++) {
#if !defined(__SANITIZE_ADDRESS__)
            if (lib->private_copy) lib->handle = dlmopen(LM_ID_NEWLM, *n, RTLD_NOW | RTLD_LOCAL);
#endif
            if (!lib->handle) lib->handle = dlopen(*n, RTLD_NOW | RTLD_LOCAL);
            if (!lib->handle) snprintf(lib->err, sizeof lib->err, "cannot load %s: %s", *n, dlerror());
        }
    }
    void *p = NULL;
    if (lib->handle) {
        p = dlsym(lib->handle, sym);
        if (!p) snprintf(lib->err, sizeof lib->err, "symbol %s missing from %s", sym, lib->sonames[0]);
    }
    pthread_mutex_unlock(&lib->lock);
    return p;
}
