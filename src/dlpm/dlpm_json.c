/*
 * dlpm_json.c — JSON-header helpers shared by model_file.c and encoder.c
 * (see dlpm_json.h).
 */
#include "dlpm/dlpm_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* ---- writing ---------------------------------------------------------------- */

void dlp__dlpm_add_hex(cJSON *o, const char *key, uint64_t v) {
    char b[24];
    snprintf(b, sizeof b, "%016llx", (unsigned long long)v);
    cJSON_AddStringToObject(o, key, b);
}

void dlp__dlpm_add_num_or_null(cJSON *o, const char *key, double v) {
    if (isfinite(v)) cJSON_AddNumberToObject(o, key, v);
    else cJSON_AddNullToObject(o, key);
}

void dlp__dlpm_add_tensors(cJSON *o, const dlp__nn_params *ps) {
    cJSON *ts = cJSON_AddArrayToObject(o, "tensors");
    for (int i = 0; i < ps->n; i++) {
        const dlp__nn_ptensor *t = &ps->t[i];
        cJSON *to = cJSON_CreateObject();
        cJSON_AddStringToObject(to, "name", t->name);
        cJSON *sh = cJSON_AddArrayToObject(to, "shape");
        for (int d = 0; d < t->ndim; d++) cJSON_AddItemToArray(sh, cJSON_CreateNumber(t->dims[d]));
        cJSON_AddNumberToObject(to, "offset", (double)t->offset);
        cJSON_AddItemToArray(ts, to);
    }
    cJSON_AddNumberToObject(o, "n_values", (double)ps->total);
}

/* ---- reading ---------------------------------------------------------------- */

const cJSON *dlp__dlpm_need(dlp__dlpm_rd *r, const cJSON *o, const char *key, int type) {
    if (r->st != DLP_OK) return NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    int ok = v && ((type == cJSON_Number && cJSON_IsNumber(v)) || (type == cJSON_String && cJSON_IsString(v)) ||
                   (type == cJSON_Object && cJSON_IsObject(v)) || (type == cJSON_Array && cJSON_IsArray(v)) ||
                   (type == cJSON_True && cJSON_IsBool(v)));
    if (!ok) {
        r->st = dlp__err(r->err, DLP_EFORMAT, "%s: %s header field '%s' is missing or of the wrong type", r->name,
                         r->what, key);
        return NULL;
    }
    return v;
}

double dlp__dlpm_num(dlp__dlpm_rd *r, const cJSON *o, const char *key) {
    const cJSON *v = dlp__dlpm_need(r, o, key, cJSON_Number);
    return v ? v->valuedouble : 0;
}

int64_t dlp__dlpm_inum(dlp__dlpm_rd *r, const cJSON *o, const char *key, int64_t lo, int64_t hi) {
    double d = dlp__dlpm_num(r, o, key);
    if (r->st == DLP_OK && (d != floor(d) || d < (double)lo || d > (double)hi)) {
        r->st = dlp__err(r->err, DLP_EFORMAT, "%s: %s header field '%s' = %g is out of range", r->name, r->what,
                         key, d);
        return 0;
    }
    return (int64_t)d;
}

const char *dlp__dlpm_str(dlp__dlpm_rd *r, const cJSON *o, const char *key) {
    const cJSON *v = dlp__dlpm_need(r, o, key, cJSON_String);
    return v ? v->valuestring : "";
}

uint64_t dlp__dlpm_hex_str(dlp__dlpm_rd *r, const char *s, const char *key) {
    char *end;
    unsigned long long v = strtoull(s, &end, 16);
    if (r->st == DLP_OK && (!*s || *end))
        r->st = dlp__err(r->err, DLP_EFORMAT, "%s: %s header field '%s' is not hex", r->name, r->what, key);
    return (uint64_t)v;
}

uint64_t dlp__dlpm_hex64(dlp__dlpm_rd *r, const cJSON *o, const char *key) {
    return dlp__dlpm_hex_str(r, dlp__dlpm_str(r, o, key), key);
}

int dlp__dlpm_enum_of(dlp__dlpm_rd *r, const char *s, int v, const char *what) {
    if (r->st == DLP_OK && v < 0) r->st = dlp__err(r->err, DLP_EFORMAT, "%s: unknown %s '%s'", r->name, what, s);
    return v;
}

int dlp__dlpm_doubles(dlp__dlpm_rd *r, const cJSON *o, const char *key, double *out, int n) {
    const cJSON *a = dlp__dlpm_need(r, o, key, cJSON_Array);
    if (!a) return -1;
    if (cJSON_GetArraySize(a) != n) {
        r->st = dlp__err(r->err, DLP_EFORMAT, "%s: %s header field '%s' has %d values, expected %d", r->name,
                         r->what, key, cJSON_GetArraySize(a), n);
        return -1;
    }
    int i = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, a) {
        if (!cJSON_IsNumber(v)) {
            r->st = dlp__err(r->err, DLP_EFORMAT, "%s: %s header field '%s' holds a non-number", r->name, r->what,
                             key);
            return -1;
        }
        out[i++] = v->valuedouble;
    }
    return 0;
}

dlp_status dlp__dlpm_check_tensors(dlp__dlpm_rd *r, const cJSON *root, const dlp__nn_params *ps) {
    const cJSON *ts = dlp__dlpm_need(r, root, "tensors", cJSON_Array);
    double nv = dlp__dlpm_num(r, root, "n_values");
    if (r->st != DLP_OK) return r->st;
    if (cJSON_GetArraySize(ts) != ps->n || nv != (double)ps->total)
        return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: %d tensors / %.0f values stored, the recipe has %d / %lld",
                                r->name, cJSON_GetArraySize(ts), nv, ps->n, (long long)ps->total);
    int i = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, ts) {
        const dlp__nn_ptensor *pt = &ps->t[i++];
        const char *nm = cJSON_IsObject(t) ? dlp__dlpm_str(r, t, "name") : "";
        double off = cJSON_IsObject(t) ? dlp__dlpm_num(r, t, "offset") : -1;
        const cJSON *sh = cJSON_IsObject(t) ? dlp__dlpm_need(r, t, "shape", cJSON_Array) : NULL;
        int same = r->st == DLP_OK && sh && !strcmp(nm, pt->name) && off == (double)pt->offset &&
                   cJSON_GetArraySize(sh) == pt->ndim;
        for (int d = 0; same && d < pt->ndim; d++) {
            const cJSON *dv = cJSON_GetArrayItem(sh, d);
            same = cJSON_IsNumber(dv) && dv->valuedouble == pt->dims[d];
        }
        if (!same) {
            if (r->st != DLP_OK) return r->st;
            return r->st = dlp__err(r->err, DLP_EFORMAT, "%s: tensor %d ('%s') does not match the recipe's '%s'",
                                    r->name, i - 1, nm, pt->name);
        }
    }
    return r->st;
}

dlp_status dlp__dlpm_check_payload(dlp__dlpm_rd *r, uint64_t payload_len, const dlp__nn_params *ps) {
    if (r->st == DLP_OK && payload_len != (uint64_t)ps->total * sizeof(float))
        r->st = dlp__err(r->err, DLP_EFORMAT, "%s: payload of %llu bytes, the size table needs %llu", r->name,
                         (unsigned long long)payload_len, (unsigned long long)ps->total * sizeof(float));
    return r->st;
}
