/*
 * jw.c — the JSON text writer (jw.h).
 */
#include "util/jw.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put(dlp__jw *w, const char *s, size_t n) {
    if (w->oom) return;
    if (w->len + n + 1 > w->cap) {
        size_t cap = w->cap ? w->cap : 1024;
        while (cap < w->len + n + 1) cap *= 2;
        char *b = realloc(w->buf, cap);
        if (!b) {
            w->oom = 1;
            return;
        }
        w->buf = b;
        w->cap = cap;
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    w->buf[w->len] = 0;
}

static void puts_(dlp__jw *w, const char *s) { put(w, s, strlen(s)); }

static void quoted(dlp__jw *w, const char *s) {
    put(w, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char t[8];
        if (*p == '"' || *p == '\\') snprintf(t, sizeof t, "\\%c", *p);
        else if (*p < 0x20) snprintf(t, sizeof t, "\\u%04x", *p);
        else t[0] = (char)*p, t[1] = 0;
        puts_(w, t);
    }
    put(w, "\"", 1);
}

/* The comma and "key": before a value. */
static void member(dlp__jw *w, const char *key) {
    if (w->has[w->depth]) put(w, ",", 1);
    w->has[w->depth] = 1;
    if (key) {
        quoted(w, key);
        put(w, ":", 1);
    }
}

static void open_(dlp__jw *w, const char *key, const char *c) {
    member(w, key);
    puts_(w, c);
    if (w->depth + 1 >= DLP__JW_DEPTH) {
        w->oom = 1;   /* a writer bug, reported as a failure rather than bad JSON */
        return;
    }
    w->has[++w->depth] = 0;
}

void dlp__jw_obj(dlp__jw *w, const char *key) { open_(w, key, "{"); }
void dlp__jw_arr(dlp__jw *w, const char *key) { open_(w, key, "["); }

void dlp__jw_end(dlp__jw *w, char close) {
    if (w->depth > 0) w->depth--;
    put(w, &close, 1);
}

void dlp__jw_str(dlp__jw *w, const char *key, const char *v) {
    member(w, key);
    if (v) quoted(w, v);
    else puts_(w, "null");
}

void dlp__jw_num(dlp__jw *w, const char *key, const char *fmt, double v) {
    member(w, key);
    if (!isfinite(v)) {
        puts_(w, "null");
        return;
    }
    char t[64];
    snprintf(t, sizeof t, fmt, v);
    puts_(w, t);
}

void dlp__jw_i64(dlp__jw *w, const char *key, long long v) {
    char t[32];
    member(w, key);
    snprintf(t, sizeof t, "%lld", v);
    puts_(w, t);
}

void dlp__jw_bool(dlp__jw *w, const char *key, int v) {
    member(w, key);
    puts_(w, v ? "true" : "false");
}

void dlp__jw_tri(dlp__jw *w, const char *key, int v) {
    if (v < 0) dlp__jw_null(w, key);
    else dlp__jw_bool(w, key, v);
}

void dlp__jw_null(dlp__jw *w, const char *key) {
    member(w, key);
    puts_(w, "null");
}

dlp_status dlp__jw_finish(dlp__jw *w, const char *what, char **out, size_t *len, dlp_error *err) {
    put(w, "\n", 1);
    *out = NULL;
    if (len) *len = 0;
    if (w->oom) {
        free(w->buf);
        w->buf = NULL;
        return dlp__err(err, DLP_ENOMEM, "%s: out of memory writing JSON", what);
    }
    *out = w->buf;
    if (len) *len = w->len;
    w->buf = NULL;
    return DLP_OK;
}
