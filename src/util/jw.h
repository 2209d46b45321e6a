/*
 * jw.h — a small JSON text writer for the library's result writers
 * (src/json/): dlp_prediction_json and its siblings build their text with
 * it, and the CLI's --json, the HTTP API and the Python package all print
 * that one text, so they agree byte for byte.
 *
 * Numbers are printed with the caller's printf format; a non-finite value
 * becomes null (valid JSON where "inf" would not be).  Commas and nesting
 * are tracked here, so a writer is a flat list of calls.  An allocation
 * failure is remembered and reported once by dlp__jw_finish.
 */
#ifndef DLP_JW_H
#define DLP_JW_H

#include <stddef.h>

#include "util/util.h"

#define DLP__JW_DEPTH 16

typedef struct {
    char *buf;
    size_t len, cap;
    int oom, depth;
    unsigned char has[DLP__JW_DEPTH]; /* a value already written at this depth */
} dlp__jw;

/* key is the member name inside an object, NULL inside an array or at the top. */
void dlp__jw_obj(dlp__jw *w, const char *key);  /* opens { */
void dlp__jw_arr(dlp__jw *w, const char *key);  /* opens [ */
void dlp__jw_end(dlp__jw *w, char close);       /* '}' or ']' */
void dlp__jw_str(dlp__jw *w, const char *key, const char *v);   /* NULL -> null */
void dlp__jw_num(dlp__jw *w, const char *key, const char *fmt, double v);
void dlp__jw_i64(dlp__jw *w, const char *key, long long v);
void dlp__jw_bool(dlp__jw *w, const char *key, int v);
void dlp__jw_tri(dlp__jw *w, const char *key, int v);  /* <0 null, else bool */
void dlp__jw_null(dlp__jw *w, const char *key);

/* Hand the text (with a final newline) to the caller, who frees it with
 * dlp_free; on an earlier allocation failure, DLP_ENOMEM naming `what`. */
dlp_status dlp__jw_finish(dlp__jw *w, const char *what, char **out, size_t *len, dlp_error *err);

#endif
