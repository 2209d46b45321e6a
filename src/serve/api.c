/*
 * api.c — what the server's requests mean: routing, field parsing, calls
 * into the library, and every error a client can cause (docs/serve.md).
 *
 * Nothing here knows about sockets: a request arrives as a method, a path
 * and a dlp__serve_input (fields as a JSON object plus an optional uploaded
 * model), and leaves as a dlp_server_response.  serve.c feeds it from
 * libmicrohttpd; dlp_server_handle feeds it from memory (tests).
 *
 * Input rules, the same for JSON bodies, form fields and query arguments:
 *   - a field is a JSON value or a string ("32", "1e6", "true"); an empty
 *     string counts as absent (that is what an empty HTML input sends);
 *   - numbers are checked strictly: whole string, finite, integral where a
 *     count is meant, inside the CLI's ranges (batch 1 .. 2^31, ...); so
 *     1e999, -1, 2^31+1 and "32abc" are 400s that name the field;
 *   - unknown fields are 400s too (a typo must not silently fall back to a
 *     default); unknown devices, models, examples, dtypes and regions are
 *     400s that list what exists.
 * Models come from an upload (parsed from memory, never written to disk) or
 * from the shipped examples compiled into the library: no field is ever
 * used as a path.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "serve/serve.h"
#include "util/util.h"

/* cJSON (1.7.15) resets a global error record at the start of every parse
 * and fills it on failure: harmless values, but concurrent parses from the
 * server's threads would race on it.  Request bodies are small, so parses
 * are simply serialised (tree walks and printing touch no globals). */
static pthread_mutex_t parse_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- responses -------------------------------------------------------------- */

static const char CT_JSON[] = "application/json";

/* Take ownership of a malloc'ed body; NULL body means OOM: 500. */
static void set_body(dlp_server_response *out, int status, const char *ct, char *body) {
    free(out->body);
    memset(out, 0, sizeof *out);
    if (!body) {
        dlp__serve_error(out, 500, "out of memory");
        return;
    }
    out->status = status;
    out->content_type = ct;
    out->body = body;
    out->len = strlen(body);
}

static char *dupstr(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* Valid UTF-8 from s, each invalid byte (and a sequence cut short by a
 * %.Ns truncation) replaced by U+FFFD: messages echo paths, field names and
 * values as the client sent them, and a JSON text must be UTF-8. */
static void utf8_clean(char *out, size_t n, const char *s) {
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p && o + 4 < n) {
        int len = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3 : (*p & 0xF8) == 0xF0 ? 4 : 0;
        int ok = len > 0;
        for (int i = 1; ok && i < len; i++) ok = (p[i] & 0xC0) == 0x80;
        if (ok && len > 1) {
            /* overlong forms, surrogates and code points past U+10FFFF */
            unsigned cp = len == 2 ? (p[0] & 0x1Fu) << 6 | (p[1] & 0x3Fu)
                        : len == 3 ? (p[0] & 0x0Fu) << 12 | (p[1] & 0x3Fu) << 6 | (p[2] & 0x3Fu)
                                   : (p[0] & 0x07u) << 18 | (p[1] & 0x3Fu) << 12 | (p[2] & 0x3Fu) << 6 | (p[3] & 0x3Fu);
            ok = cp >= (len == 2 ? 0x80u : len == 3 ? 0x800u : 0x10000u) && cp <= 0x10FFFF &&
                 !(cp >= 0xD800 && cp <= 0xDFFF);
        }
        if (ok) {
            memcpy(out + o, p, (size_t)len);
            o += (size_t)len;
            p += len;
        } else {
            memcpy(out + o, "\xEF\xBF\xBD", 3);
            o += 3;
            p++;
        }
    }
    out[o] = 0;
}

/* Library messages speak to the command line ("give --batch"); over the
 * API the same things are fields.  Each CLI flag the library may name is
 * replaced by its field. */
static void api_wording(char *out, size_t n, const char *msg) {
    static const struct {
        const char *cli, *api;
    } words[] = {
        {"give --batch, --seq or --dim ", "give the field 'batch' or 'seq', or 'dims' as "},
        {"give --batch or --dim", "give the field 'batch' or 'dims'"},
        {"--batch", "the field 'batch'"},
        {"--seq", "the field 'seq'"},
        {"--dims", "the field 'dims'"},
        {"--dim", "the field 'dims'"},
        {"--dtype", "the field 'dtype'"},
        {"--mode", "the field 'mode'"},
        {"--device", "the field 'device'"},
        {"--runs", "the field 'runs'"},
        {"--steps", "the field 'steps'"},
        {"--region", "the field 'region'"},
        {"--runtime", "the field 'runtime'"},
        {"--layout", "the field 'layout'"},
        {"--cudnn", "the field 'cudnn'"},
        {"--gpus", "the field 'gpus'"},
        {"--config", "the field 'config'"},
        /* the catalogue's listing over the API (an unknown model's hint) */
        {"'dlperf llm --list' lists all", "GET /api/models lists all"},
    };
    size_t o = 0;
    while (*msg && o + 1 < n) {
        size_t i, k = sizeof words / sizeof words[0];
        for (i = 0; i < k; i++) {
            size_t l = strlen(words[i].cli);
            /* whole flags only: "--dim" must not eat "--dims" */
            if (!strncmp(msg, words[i].cli, l) &&
                (!isalnum((unsigned char)words[i].cli[l - 1]) ||
                 !(isalnum((unsigned char)msg[l]) || msg[l] == '-' || msg[l] == '_')))
                break;
        }
        if (i < k) {
            int w = snprintf(out + o, n - o, "%s", words[i].api);
            o = w < 0 || (size_t)w >= n - o ? n - 1 : o + (size_t)w;
            msg += strlen(words[i].cli);
        } else {
            out[o++] = *msg++;
        }
    }
    out[o] = 0;
}

/* The first key that appears twice in one object of j (recursively), or
 * NULL.  cJSON keeps both copies and a lookup finds the first, so
 * {"device":"t4","device":"a100"} would silently mean t4. */
static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static const char *dup_key(const cJSON *j) {
    if (!cJSON_IsObject(j) && !cJSON_IsArray(j)) return NULL;
    const cJSON *it;
    if (cJSON_IsObject(j)) {
        int n = cJSON_GetArraySize(j), i = 0;
        if (n > 1) {
            const char **keys = malloc((size_t)n * sizeof *keys);
            if (keys) {
                cJSON_ArrayForEach(it, j) keys[i++] = it->string ? it->string : "";
                qsort(keys, (size_t)n, sizeof *keys, cmp_str);
                const char *d = NULL;
                for (i = 1; i < n && !d; i++)
                    if (!strcmp(keys[i - 1], keys[i])) d = keys[i];
                free(keys);
                if (d) return d;
            }
        }
    }
    cJSON_ArrayForEach(it, j) {
        const char *d = dup_key(it);
        if (d) return d;
    }
    return NULL;
}

void dlp__serve_error(dlp_server_response *out, int status, const char *fmt, ...) {
    char raw[1024], msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    utf8_clean(msg, sizeof msg, raw);
    free(out->body);
    memset(out, 0, sizeof *out);
    out->status = status;
    out->content_type = CT_JSON;
    cJSON *o = cJSON_CreateObject();
    if (o && cJSON_AddStringToObject(o, "error", msg)) out->body = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!out->body) {
        /* not even the error could be built: a fixed text still tells the client */
        out->status = 500;
        out->body = dupstr("{\"error\":\"out of memory\"}");
    }
    out->len = out->body ? strlen(out->body) : 0;
}

/* HTTP status for a library failure: the client's input (its model, its
 * config, its numbers) unless the server itself ran out of something. */
static int http_status(dlp_status st) {
    switch (st) {
    case DLP_ENOMEM:
    case DLP_EIO:
    case DLP_EINTERNAL: return 500;
    default: return 400;
    }
}

/* A library failure as an API error. */
static void lib_error(dlp_server_response *out, dlp_status st, const dlp_error *err) {
    char msg[1024];
    api_wording(msg, sizeof msg, err->msg[0] ? err->msg : dlp_status_str(st));
    dlp__serve_error(out, http_status(st), "%s", msg);
}

/* ---- fields ----------------------------------------------------------------- */

/* A request being answered: where its fields are and where errors go. */
typedef struct {
    dlp_server *s;
    dlp__serve_input *in;
    dlp_server_response *out;
} req;

/* The field's value, NULL when absent (missing, null or ""). */
static const cJSON *field(const req *r, const char *k) {
    const cJSON *v = r->in->params ? cJSON_GetObjectItemCaseSensitive(r->in->params, k) : NULL;
    if (!v || cJSON_IsNull(v)) return NULL;
    if (cJSON_IsString(v) && !v->valuestring[0]) return NULL;
    return v;
}

/* Refuse fields the endpoint does not know (typos must not fall back to a
 * default silently).  allowed is a NULL-terminated list. */
static int check_fields(req *r, const char *endpoint, const char *const *allowed) {
    const cJSON *it;
    cJSON_ArrayForEach(it, r->in->params) {
        int ok = 0;
        for (int i = 0; allowed[i] && !ok; i++) ok = !strcmp(it->string, allowed[i]);
        if (ok) continue;
        char list[512];
        size_t n = 0;
        for (int i = 0; allowed[i] && n < sizeof list; i++)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", allowed[i]);
        dlp__serve_error(r->out, 400, "%s: unknown field '%.64s' (fields: %s)", endpoint, it->string, list);
        return -1;
    }
    return 0;
}

static int get_str(req *r, const char *k, const char **v) {
    const cJSON *j = field(r, k);
    *v = NULL;
    if (!j) return 0;
    if (!cJSON_IsString(j)) {
        dlp__serve_error(r->out, 400, "field '%s' must be a string", k);
        return -1;
    }
    *v = j->valuestring;
    return 0;
}

/* Strict number from a field: a JSON number, or a string that is wholly a
 * number.  Non-finite values (1e999) are refused here, ranges by callers. */
static int get_num(req *r, const char *k, double *v, int *given) {
    const cJSON *j = field(r, k);
    *given = 0;
    if (!j) return 0;
    if (cJSON_IsNumber(j)) {
        *v = j->valuedouble;
    } else if (cJSON_IsString(j)) {
        const char *s = j->valuestring;
        char *end;
        errno = 0;
        while (isspace((unsigned char)*s)) s++;
        *v = strtod(s, &end);
        while (isspace((unsigned char)*end)) end++;
        if (end == s || *end) {
            dlp__serve_error(r->out, 400, "field '%s': '%.64s' is not a number", k, j->valuestring);
            return -1;
        }
        /* strtod accepts "nan", "inf" and hex: only plain decimal numbers pass */
        for (const char *c = s; c < end; c++)
            if (!strchr("0123456789+-.eE \t", *c)) {
                dlp__serve_error(r->out, 400, "field '%s': '%.64s' is not a decimal number", k, j->valuestring);
                return -1;
            }
    } else {
        dlp__serve_error(r->out, 400, "field '%s' must be a number", k);
        return -1;
    }
    if (!isfinite(*v)) {
        dlp__serve_error(r->out, 400, "field '%s' is not a finite number", k);
        return -1;
    }
    *given = 1;
    return 0;
}

static int get_f64(req *r, const char *k, double lo, double hi, double *v, int *given) {
    double x;
    int g;
    if (get_num(r, k, &x, &g)) return -1;
    if (given) *given = g;
    if (!g) return 0;
    if (x < lo || x > hi) {
        dlp__serve_error(r->out, 400, "field '%s': %g is out of range (%g .. %g)", k, x, lo, hi);
        return -1;
    }
    *v = x;
    return 0;
}

/* A count that may exceed int64 (runs, steps up to 1e18): whole, in range. */
static int get_count(req *r, const char *k, double lo, double hi, double *v, int *given) {
    double x = 0;
    int g = 0;
    if (get_f64(r, k, lo, hi, &x, &g)) return -1;
    if (given) *given = g;
    if (!g) return 0;
    if (x != floor(x)) {
        dlp__serve_error(r->out, 400, "field '%s': %.17g is not a whole number", k, x);
        return -1;
    }
    *v = x;
    return 0;
}

static int get_i64(req *r, const char *k, int64_t lo, int64_t hi, int64_t *v, int *given) {
    double x;
    int g;
    if (get_num(r, k, &x, &g)) return -1;
    if (given) *given = g;
    if (!g) return 0;
    if (x < (double)lo || x > (double)hi) {
        dlp__serve_error(r->out, 400, "field '%s': %.17g is out of range (%lld .. %lld)", k, x, (long long)lo,
                         (long long)hi);
        return -1;
    }
    if (x != floor(x)) {
        dlp__serve_error(r->out, 400, "field '%s': %.17g is not a whole number", k, x);
        return -1;
    }
    *v = (int64_t)x;
    return 0;
}

/* true/false, or from forms "1"/"0", "true"/"false", "on" (a checkbox). */
static int get_bool(req *r, const char *k, int *v) {
    const cJSON *j = field(r, k);
    if (!j) return 0;
    if (cJSON_IsBool(j)) return *v = cJSON_IsTrue(j), 0;
    /* a JSON body has real booleans: "yes" or 1 there is a mistake (issue 25);
     * forms and query strings only have text, so they keep the spellings */
    if (r->in->json) {
        dlp__serve_error(r->out, 400, "field '%s' must be true or false (a JSON boolean, not %s)", k,
                         cJSON_IsString(j) ? "a string" : cJSON_IsNumber(j) ? "a number" : "this type");
        return -1;
    }
    if (cJSON_IsNumber(j) && (j->valuedouble == 0 || j->valuedouble == 1)) return *v = j->valuedouble != 0, 0;
    if (cJSON_IsString(j)) {
        const char *s = j->valuestring;
        if (!strcasecmp(s, "true") || !strcmp(s, "1") || !strcasecmp(s, "on") || !strcasecmp(s, "yes"))
            return *v = 1, 0;
        if (!strcasecmp(s, "false") || !strcmp(s, "0") || !strcasecmp(s, "off") || !strcasecmp(s, "no"))
            return *v = 0, 0;
    }
    dlp__serve_error(r->out, 400, "field '%s' must be true or false", k);
    return -1;
}

/* ---- lookups with helpful 400s ----------------------------------------------- */

static const dlp_device *find_device(req *r, const char *endpoint) {
    const char *name;
    if (get_str(r, "device", &name)) return NULL;
    if (!name) {
        dlp__serve_error(r->out, 400, "%s: field 'device' is required (GET /api/devices lists the ids)", endpoint);
        return NULL;
    }
    const dlp_device *d = dlp_devdb_find(r->s->db, name);
    if (d) return d;
    const char *ids[4];
    int n = dlp_devdb_suggest(r->s->db, name, ids, 4);
    char list[256] = "";
    size_t len = 0;
    for (int i = 0; i < n && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", ids[i]);
    dlp__serve_error(r->out, 400, "unknown device '%.64s' (closest ids: %s; GET /api/devices lists all)", name,
                     n ? list : "none");
    return NULL;
}

/* Region field: NULL (the database default) or a known region id. */
static int get_region(req *r, const char **region) {
    if (get_str(r, "region", region)) return -1;
    if (!*region || dlp_carbon_intensity(r->s->db, *region) >= 0) return 0;
    char list[512];
    size_t n = 0;
    for (int i = 0; i < dlp_carbon_region_count(r->s->db) && n < sizeof list; i++) {
        const char *id = NULL;
        id = dlp_carbon_region_at(r->s->db, i)->id;
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", id ? id : "?");
    }
    dlp__serve_error(r->out, 400, "unknown region '%.64s' (regions: %s)", *region, list);
    return -1;
}

/* The shipped example models (compiled in by assets_embed.c). */
static const struct {
    const char *id, *file, *description;
} examples[] = {
    {"resnet18", "resnet18.onnx",
     "torchvision ResNet-18, ImageNet 224x224 input, symbolic batch (weights external, not shipped)"},
};

static int find_example(const char *name, const void **buf, size_t *len, const char **file) {
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++)
        if (!strcasecmp(name, examples[i].id) || !strcasecmp(name, examples[i].file)) {
            *buf = dlp__serve_resnet18_onnx;
            *len = (size_t)dlp__serve_resnet18_onnx_len;
            *file = examples[i].file;
            return 0;
        }
    return -1;
}

/* ---- the concurrent-parse cap ------------------------------------------------ */

int dlp__serve_parse_begin(dlp_server *s) { return sem_trywait(&s->parses) == 0; }
void dlp__serve_parse_end(dlp_server *s) { sem_post(&s->parses); }

static int busy(req *r) {
    dlp__serve_error(r->out, 503, "server busy: %d model parses already running (--max-parses); retry shortly",
                     r->s->o.max_parses);
    r->out->retry_after_s = 1;
    return -1;
}

/* ---- /api/predict and /api/roofline.svg ------------------------------------- */

static int parse_dtype(const char *s, int *out) {
    int dt = dlp_dtype_parse(s);
    return dt < 0 ? -1 : (*out = dt, 0);
}

#define MAX_DIMS 64

typedef struct {
    const char *names[MAX_DIMS];
    int64_t values[MAX_DIMS];
    int n;
    char *text;                /* owns the names when they came from a string */
    cJSON *parsed;             /* owns the names when they came from JSON text */
} dims_t;

static int dims_add(req *r, dims_t *d, const char *name, const cJSON *val, const char *sval) {
    if (!*name) return dlp__serve_error(r->out, 400, "field 'dims': empty dimension name"), -1;
    if (d->n >= MAX_DIMS) return dlp__serve_error(r->out, 400, "field 'dims': at most %d bindings", MAX_DIMS), -1;
    double x;
    if (val && cJSON_IsNumber(val)) {
        x = val->valuedouble;
    } else {
        const char *s = val ? (cJSON_IsString(val) ? val->valuestring : NULL) : sval;
        char *end;
        if (!s) return dlp__serve_error(r->out, 400, "field 'dims': value of '%.64s' must be a number", name), -1;
        x = strtod(s, &end);
        if (end == s || *end || strpbrk(s, "xXnNiI"))
            return dlp__serve_error(r->out, 400, "field 'dims': '%.64s' is not a number (for '%.64s')", s, name), -1;
    }
    if (!isfinite(x) || x != floor(x) || x < 1 || x > (double)((int64_t)1 << 40))
        return dlp__serve_error(r->out, 400, "field 'dims': '%.64s' must be a whole number in 1 .. 2^40", name), -1;
    d->names[d->n] = name;
    d->values[d->n++] = (int64_t)x;
    return 0;
}

/* dims: {"name": value, ...}, or that object as a JSON string (forms), or
 * "name=value,name=value". */
static int get_dims(req *r, dims_t *d) {
    const cJSON *j = field(r, "dims");
    if (!j) return 0;
    if (cJSON_IsString(j)) {
        const char *s = j->valuestring;
        while (isspace((unsigned char)*s)) s++;
        if (*s == '{') {
            pthread_mutex_lock(&parse_lock);
            d->parsed = cJSON_Parse(s);
            pthread_mutex_unlock(&parse_lock);
            if (!d->parsed || !cJSON_IsObject(d->parsed))
                return dlp__serve_error(r->out, 400, "field 'dims': malformed JSON object"), -1;
            const char *dup = dup_key(d->parsed);
            if (dup) return dlp__serve_error(r->out, 400, "field 'dims': '%.64s' given twice", dup), -1;
            j = d->parsed;
        } else {
            d->text = dupstr(s);
            if (!d->text) return dlp__serve_error(r->out, 500, "out of memory"), -1;
            char *save = NULL;
            for (char *tok = strtok_r(d->text, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
                char *eq = strchr(tok, '=');
                if (!eq) return dlp__serve_error(r->out, 400, "field 'dims': '%.64s' is not NAME=VALUE", tok), -1;
                *eq = 0;
                if (dims_add(r, d, tok, NULL, eq + 1)) return -1;
            }
            return 0;
        }
    }
    if (!cJSON_IsObject(j))
        return dlp__serve_error(r->out, 400, "field 'dims' must be an object {\"name\": value}"), -1;
    const cJSON *it;
    cJSON_ArrayForEach(it, j) if (dims_add(r, d, it->string, it, NULL)) return -1;
    return 0;
}

static void dims_free(dims_t *d) {
    free(d->text);
    cJSON_Delete(d->parsed);
}

/* The request's model: an upload or a shipped example, never a path; 0,
 * or -1 with the 400 answered. */
static int model_of(req *r, const char *ep, const void **bufp, size_t *lenp, const char **namep) {
    if (field(r, "model")) {
        dlp__serve_error(r->out, 400,
                         "%s: 'model' must be an ONNX file upload (multipart/form-data with a file name); "
                         "use 'example' for a shipped model",
                         ep);
        return -1;
    }
    /* the model: an upload or a shipped example, never a path */
    const char *example;
    if (get_str(r, "example", &example)) return -1;
    const void *buf = r->in->file;
    size_t len = r->in->file_len;
    const char *name = r->in->file_name && *r->in->file_name ? r->in->file_name : "upload.onnx";
    if (buf && example) {
        dlp__serve_error(r->out, 400, "%s: give either a 'model' upload or 'example', not both", ep);
        return -1;
    }
    if (example && find_example(example, &buf, &len, &name)) {
        dlp__serve_error(r->out, 400, "%s: unknown example '%.64s' (examples: resnet18; GET /api/models)", ep,
                         example);
        return -1;
    }
    if (!buf) {
        dlp__serve_error(r->out, 400,
                         "%s: no model: upload an ONNX file as multipart field 'model', or give 'example' "
                         "(e.g. \"resnet18\")",
                         ep);
        return -1;
    }
    if (!len) {
        dlp__serve_error(r->out, 400, "%s: the uploaded 'model' is empty", ep);
        return -1;
    }
    *bufp = buf;
    *lenp = len;
    *namep = name;
    return 0;
}

static void h_predict(req *r, int svg) {
    static const char *const allowed[] = {"example", "batch", "seq", "dims", "device", "mode", "dtype", "runs",
                                          "steps", "region", "optimizer", "runtime", "tf32", "fuse", "pure",
                                          "margin", "latency_slo_ms", "launch_us", "host_us", "model", "no_learned",
                                          "layout", "no_sdpa", "no_amp", "power_limit_w", "cudnn", NULL};
    const char *ep = svg ? "/api/roofline.svg" : "/api/predict";
    if (check_fields(r, ep, allowed)) return;
    const void *buf;
    size_t len;
    const char *name;
    if (model_of(r, ep, &buf, &len, &name)) return;
    const dlp_device *dev = find_device(r, ep);
    if (!dev) return;

    dlp_predict_opts o;
    memset(&o, 0, sizeof o);
    dlp_load_opts lo;
    memset(&lo, 0, sizeof lo);
    dims_t dims;
    memset(&dims, 0, sizeof dims);
    int64_t cudnn = 0;
    const char *mode, *dtype, *optim, *runtime, *tf32, *layout;
    int g_runs = 0, g_steps = 0, g_margin = 0, g_launch = 0;
    double margin = 0, launch = 0;
    if (get_i64(r, "batch", 1, (int64_t)1 << 31, &lo.batch, NULL) ||
        get_i64(r, "seq", 1, (int64_t)1 << 31, &lo.seq, NULL) || get_str(r, "mode", &mode) ||
        get_str(r, "dtype", &dtype) || get_str(r, "optimizer", &optim) || get_str(r, "runtime", &runtime) ||
        get_str(r, "tf32", &tf32) || get_str(r, "layout", &layout) || get_count(r, "runs", 1, 1e18, &o.runs, &g_runs) ||
        get_count(r, "steps", 1, 1e18, &o.steps, &g_steps) || get_f64(r, "margin", 0, 10, &margin, &g_margin) ||
        get_f64(r, "latency_slo_ms", 1e-9, 1e12, &o.latency_slo_ms, NULL) ||
        get_f64(r, "power_limit_w", 1, 1e5, &o.power_limit_w, NULL) ||
        get_f64(r, "launch_us", 0, 1e6, &launch, &g_launch) || get_f64(r, "host_us", 0, 1e6, &o.host_us, NULL) || get_region(r, &o.region) || get_dims(r, &dims) ||
        get_i64(r, "cudnn", 8, 9, &cudnn, NULL))
        goto done;
    o.cudnn = (int)cudnn;   /* 0 (absent): the runtime's own generation */
    if (mode && (o.mode = dlp_predict_mode_parse(mode)) < 0) {
        dlp__serve_error(r->out, 400, "field 'mode': '%.64s' is not infer or train", mode);
        goto done;
    }
    if (dtype && parse_dtype(dtype, &o.dtype)) {
        dlp__serve_error(r->out, 400, "field 'dtype': '%.64s' is not fp32, fp16, bf16, fp8, fp4 or int8", dtype);
        goto done;
    }
    if (optim && (o.optimizer = dlp_optimizer_parse(optim)) < 0) {
        dlp__serve_error(r->out, 400, "field 'optimizer': '%.64s' is not adam, sgd or sgd-momentum", optim);
        goto done;
    }
    /* runtime is a preset; the explicit fields below override it (as later
     * flags do on the command line) */
    if (runtime) {
        int rt = dlp_runtime_parse(runtime);
        if (rt < 0) {
            dlp__serve_error(r->out, 400,
                             "field 'runtime': '%.64s' is not eager, eager-1.x, compile, tensorrt or onnxruntime",
                             runtime);
            goto done;
        }
        dlp_predict_use_runtime(&o, rt);
    }
    if (layout && (o.memfmt = dlp_memfmt_parse(layout)) < 0) {
        dlp__serve_error(r->out, 400, "field 'layout': '%.64s' is not nchw or nhwc", layout);
        goto done;
    }
    if (tf32) {
        if (!strcmp(tf32, "default")) o.tf32 = DLP_TF32_DEFAULT;
        else if (!strcmp(tf32, "on")) o.tf32 = DLP_TF32_ON;
        else if (!strcmp(tf32, "off")) o.tf32 = DLP_TF32_OFF;
        else {
            dlp__serve_error(r->out, 400, "field 'tf32': '%.64s' is not default, on or off", tf32);
            goto done;
        }
    }
    if (get_bool(r, "fuse", &o.fuse) || get_bool(r, "pure", &o.pure_roofline) ||
        get_bool(r, "no_learned", &o.no_learned) || get_bool(r, "no_sdpa", &o.no_sdpa) ||
        get_bool(r, "no_amp", &o.no_amp))
        goto done;
    if (g_margin) o.mig_margin = margin > 0 ? margin : -1;   /* 0 given: really no margin */
    if (g_launch) o.launch_us = launch > 0 ? launch : -1;    /* 0 given: no overhead */
    if (o.mode == DLP_PREDICT_TRAIN && g_runs) {
        dlp__serve_error(r->out, 400, "%s: 'runs' counts inference passes; use 'steps' with mode train", ep);
        goto done;
    }
    if (o.mode == DLP_PREDICT_INFER && g_steps) {
        dlp__serve_error(r->out, 400, "%s: 'steps' counts training steps; add \"mode\": \"train\" (or use 'runs')", ep);
        goto done;
    }
    lo.n_dims = dims.n;
    lo.dim_names = dims.names;
    lo.dim_values = dims.values;
    o.batch = lo.batch;

    if (!dlp__serve_parse_begin(r->s)) {
        busy(r);
        goto done;
    }
    dlp_error err = {0};
    dlp_graph *g = NULL;
    dlp_prediction p;
    memset(&p, 0, sizeof p);
    dlp_status st = dlp_graph_load_mem(buf, len, name, &lo, &g, &err);
    if (!st) st = dlp_predict(g, dev, r->s->db, &o, &p, &err);
    if (st) {
        lib_error(r->out, st, &err);
    } else if (svg) {
        char *svgbuf = NULL;
        size_t n = 0;
        st = dlp_roofline_svg_mem(&p, dev, &svgbuf, &n, &err);
        if (st) lib_error(r->out, st, &err);
        else set_body(r->out, 200, "image/svg+xml", svgbuf);
    } else {
        char *body = NULL;   /* the CLI's --json bytes (src/json/results.c) */
        dlp_prediction_json(&p, dev, 0, &body, NULL, NULL);
        set_body(r->out, 200, CT_JSON, body);
    }
    dlp_prediction_clear(&p);
    dlp_graph_free(g);
    dlp__serve_parse_end(r->s);
done:
    dims_free(&dims);
}

/* ---- /api/inspect ----------------------------------------------------------------- */

/* The model's totals and per-op-type table: dlp_inspect_json's bytes, as
 * `dlperf inspect --json` and Python's dlperf.inspect print them. */
static void h_inspect(req *r) {
    static const char *const allowed[] = {"example", "batch", "seq", "dims", "model", NULL};
    const char *ep = "/api/inspect";
    if (check_fields(r, ep, allowed)) return;
    const void *buf;
    size_t len;
    const char *name;
    if (model_of(r, ep, &buf, &len, &name)) return;
    dlp_load_opts lo;
    memset(&lo, 0, sizeof lo);
    dims_t dims;
    memset(&dims, 0, sizeof dims);
    if (get_i64(r, "batch", 1, (int64_t)1 << 31, &lo.batch, NULL) ||
        get_i64(r, "seq", 1, (int64_t)1 << 31, &lo.seq, NULL) || get_dims(r, &dims))
        goto done;
    lo.n_dims = dims.n;
    lo.dim_names = dims.names;
    lo.dim_values = dims.values;
    if (!dlp__serve_parse_begin(r->s)) {
        busy(r);
        goto done;
    }
    dlp_error err = {0};
    dlp_graph *g = NULL;
    char *body = NULL;
    dlp_status st = dlp_graph_load_mem(buf, len, name, &lo, &g, &err);
    if (!st) st = dlp_inspect_json(g, &body, NULL, &err);
    if (st) lib_error(r->out, st, &err);
    else set_body(r->out, 200, CT_JSON, body);
    dlp_graph_free(g);
    dlp__serve_parse_end(r->s);
done:
    dims_free(&dims);
}

/* ---- /api/llm ---------------------------------------------------------------- */

/* 'config_name' of /api/llm: the name an uploaded config goes by, as the
 * CLI names what --model found on its disk (llm_find.c): a folder's or a
 * file's name, or a Hugging Face id ORG/NAME from the hub cache, which is
 * then also the answer's hf_id.  The client read the file, so the server
 * still never reads its own disk.  0 (*name NULL when absent), or -1 after
 * the 400. */
static int config_name_of(req *r, const char **name) {
    if (get_str(r, "config_name", name)) return -1;
    const char *s = *name;
    if (!s) return 0;
    if (!field(r, "config")) {
        dlp__serve_error(r->out, 400, "field 'config_name' names an uploaded 'config': give it with 'config'");
        return -1;
    }
    size_t n = strlen(s), slashes = 0;
    int bad = n == 0 || n >= sizeof ((dlp_llm_config *)0)->id || s[0] == '/' || s[n - 1] == '/';
    for (size_t i = 0; i < n && !bad; i++) {
        bad = (unsigned char)s[i] < 0x20 || s[i] == 0x7f;
        slashes += s[i] == '/';
    }
    if (bad || slashes > 1 || (slashes && strstr(s, ".."))) {
        dlp__serve_error(r->out, 400, "field 'config_name': '%.64s' is not a folder's name or a Hugging Face id "
                                      "ORG/NAME (1 to 95 printable bytes)", s);
        return -1;
    }
    return 0;
}

/* An LLM config from 'model' (a catalogue id) or 'config' (a config.json
 * object, or its text from a form), exactly one; /api/llm and /api/plan.
 * The catalogue only, never the server's disk.  Returns 0, or -1 with the
 * answer set. */
static int llm_config_of(req *r, const char *ep, dlp_llm_config *c) {
    const char *model, *name;
    if (get_str(r, "model", &model) || config_name_of(r, &name)) return -1;
    const cJSON *config = field(r, "config");
    if (!model == !config) {
        dlp__serve_error(r->out, 400, "%s: give exactly one of 'model' (an id of GET /api/models) and 'config' "
                                      "(a Hugging Face config.json)", ep);
        return -1;
    }
    dlp_error err = {0};
    dlp_status st;
    if (model) {
        st = dlp_llm_catalogue_get(model, c, &err);
    } else if (cJSON_IsObject(config) || cJSON_IsString(config)) {
        char *text = cJSON_IsObject(config) ? cJSON_PrintUnformatted(config) : NULL;
        if (cJSON_IsObject(config) && !text) {
            dlp__serve_error(r->out, 500, "out of memory");
            return -1;
        }
        pthread_mutex_lock(&parse_lock);   /* it calls cJSON_Parse */
        cJSON *tree = text ? NULL : cJSON_Parse(config->valuestring);
        const char *dup = tree ? dup_key(tree) : NULL;
        if (dup) dlp__serve_error(r->out, 400, "field 'config': key '%.64s' given twice", dup);
        else st = dlp_llm_config_parse(text ? text : config->valuestring, "config", c, &err);
        pthread_mutex_unlock(&parse_lock);
        cJSON_Delete(tree);
        free(text);
        if (dup) return -1;
    } else {
        dlp__serve_error(r->out, 400, "field 'config' must be a config.json object or its text");
        return -1;
    }
    if (st) {
        lib_error(r->out, st, &err);
        return -1;
    }
    if (name) {   /* as llm_find.c names a config found on disk */
        snprintf(c->id, sizeof c->id, "%s", name);
        if (strchr(name, '/')) snprintf(c->hf_id, sizeof c->hf_id, "%s", name);
    }
    return 0;
}

/* The client model and engine of /api/llm (as `dlperf llm --rate R
 * --engine E`): 'rate' > 0 requests/s, exclusive with 'concurrency' and
 * 'max_fit'; 'engine' "modern", "vllm", "vllm-v0", "sglang" or "trtllm".  0, or -1 after the 400. */
static int llm_clients(req *r, int64_t conc, int maxfit, double *rate, int *engine) {
    const char *engine_s;
    int rate_given = 0;
    if (get_num(r, "rate", rate, &rate_given) || get_str(r, "engine", &engine_s)) return -1;
    if (rate_given && !(*rate > 0 && isfinite(*rate))) {
        dlp__serve_error(r->out, 400, "field 'rate': %g is not a positive number of requests/s", *rate);
        return -1;
    }
    if (rate_given && (conc > 0 || maxfit)) {
        dlp__serve_error(r->out, 400, "fields 'rate' and '%s' are two client models: give one",
                         maxfit ? "max_fit" : "concurrency");
        return -1;
    }
    *engine = DLP_LLM_ENGINE_MODERN;
    if (engine_s && (*engine = dlp_llm_engine_parse(engine_s)) < 0) {
        dlp__serve_error(r->out, 400, "field 'engine': '%.64s' is not modern, vllm, vllm-v0, sglang or trtllm", engine_s);
        return -1;
    }
    return 0;
}

/* MTP speculative decoding, as `dlperf llm --mtp N --mtp-accepted A`: the
 * draft depth and its measured acceptance come together (no acceptance is
 * assumed for the user); the library refuses it where no engine runs it. */
static int get_mtp(req *r, int serving, int64_t *mtp, double *acc) {
    int acc_given = 0;
    if (get_i64(r, "mtp", 1, 16, mtp, NULL) || get_num(r, "mtp_accepted", acc, &acc_given)) return -1;
    if (!*mtp != !acc_given) {
        dlp__serve_error(r->out, 400, "fields 'mtp' and 'mtp_accepted' come together (accepted drafts per step, "
                                      "measured on the deployment)");
        return -1;
    }
    if (acc_given && !(*acc >= 0 && *acc <= (double)*mtp)) {
        dlp__serve_error(r->out, 400, "field 'mtp_accepted': %g is not in [0, mtp %lld]", *acc, (long long)*mtp);
        return -1;
    }
    if (*mtp && !serving) {
        dlp__serve_error(r->out, 400, "field 'mtp' is a serving field: add 'concurrency', 'rate' or 'max_fit'");
        return -1;
    }
    return 0;
}

/* TensorRT-LLM's batch waiting, as `dlperf llm --batch-wait-iters N
 * --batch-wait-tokens T`: both or neither (the engine waits only with both);
 * the library refuses it on other engines and phases. */
static int get_batch_wait(req *r, int serving, int64_t *iters, int64_t *tokens) {
    if (get_i64(r, "batch_wait_iters", 1, 1000000, iters, NULL) ||
        get_i64(r, "batch_wait_tokens", 1, (int64_t)1 << 30, tokens, NULL))
        return -1;
    if (!*iters != !*tokens) {
        dlp__serve_error(r->out, 400, "fields 'batch_wait_iters' and 'batch_wait_tokens' come together (TensorRT-LLM "
                                      "waits only with both)");
        return -1;
    }
    if (*iters && !serving) {
        dlp__serve_error(r->out, 400, "field 'batch_wait_iters' is a serving field: add 'concurrency', 'rate' or "
                                      "'max_fit'");
        return -1;
    }
    return 0;
}

/* An integer field only serving takes, as the CLI's serving options:
 * 'expert_slots' (redundant experts, `--expert-slots N`; the library checks
 * it against the model's experts and 'ep') and 'recv_interval' (SGLang's
 * --scheduler-recv-interval, `--recv-interval N`) and 'adp_balance_iters'
 * (TensorRT-LLM's attention-DP balance, `--adp-balance-iters N`) and
 * 'max_prefill_tokens' (SGLang's --max-prefill-tokens, `--max-prefill-tokens
 * N`); the library checks the engine and phase. */
static int get_serving_i64(req *r, int serving, const char *name, int64_t hi, int64_t *v) {
    int given = 0;
    if (get_i64(r, name, 1, hi, v, &given)) return -1;
    if (given && !serving) {
        dlp__serve_error(r->out, 400, "field '%s' is a serving field: add 'concurrency', 'rate' or 'max_fit'", name);
        return -1;
    }
    return 0;
}

/* The serving-only options of /api/llm past the client model, as the CLI's
 * serving options (the library refuses them on engines and phases that do
 * not run them). */
typedef struct {
    int64_t mtp, bw_iters, bw_tokens, slots, recv, adpbal, maxpf;
    double mtp_acc;
    int eager, fixed, mixed, trtgen, same;
} llm_serve_fields;

/* Parse them into *o; -1 after a 400 (one given without serving too). */
static int get_llm_serving(req *r, int serving, llm_serve_fields *o) {
    if (get_bool(r, "eager", &o->eager) || get_bool(r, "fixed_lengths", &o->fixed) ||
        get_bool(r, "mixed_chunk", &o->mixed) || get_bool(r, "trtllm_gen_moe", &o->trtgen) ||
        get_bool(r, "same_prompts", &o->same) || get_mtp(r, serving, &o->mtp, &o->mtp_acc) ||
        get_batch_wait(r, serving, &o->bw_iters, &o->bw_tokens) ||
        get_serving_i64(r, serving, "expert_slots", 1 << 20, &o->slots) ||
        get_serving_i64(r, serving, "recv_interval", 1000000, &o->recv) ||
        get_serving_i64(r, serving, "adp_balance_iters", 1000000, &o->adpbal) ||
        get_serving_i64(r, serving, "max_prefill_tokens", (int64_t)1 << 30, &o->maxpf))
        return -1;
    /* as `dlperf llm --eager`, --trtllm-gen-moe, --fixed-lengths, --mixed-chunk, --same-prompts */
    const char *bad = o->eager ? "eager" : o->trtgen ? "trtllm_gen_moe" : o->fixed ? "fixed_lengths"
                    : o->mixed ? "mixed_chunk" : o->same ? "same_prompts" : NULL;
    if (bad && !serving) {
        dlp__serve_error(r->out, 400, "field '%s' is a serving field: add 'concurrency', 'rate' or 'max_fit'", bad);
        return -1;
    }
    return 0;
}

/* The weights' format ('dtype', as `dlperf llm --dtype`; fp16 where not
 * given, which the caller replaces by the checkpoint's) and the cache's
 * ('kv_dtype', 0: the library's choice); -1 after a 400. */
static int llm_dtypes(req *r, const char *dtype, const char *kvdtype, int *quant, int *kvdt) {
    *quant = dlp_quant_parse(dtype ? dtype : "fp16");
    if (*quant < 0) {
        dlp__serve_error(r->out, 400,
                         "field 'dtype': '%.64s' is not fp32, fp16, bf16, int8, nf4, fp8, int4, mxfp4 or nvfp4", dtype);
        return -1;
    }
    *kvdt = kvdtype ? dlp_dtype_parse(kvdtype) : 0;
    if (kvdtype && *kvdt != DLP_DT_FLOAT && *kvdt != DLP_DT_FLOAT16 && *kvdt != DLP_DT_BFLOAT16 &&
        *kvdt != DLP_DT_FLOAT8E4M3FN && *kvdt != DLP_DT_FLOAT8E5M2) {
        dlp__serve_error(r->out, 400, "field 'kv_dtype': '%.64s' is not fp16, bf16, fp8 or fp32", kvdtype);
        return -1;
    }
    return 0;
}

static void h_llm(req *r) {
    static const char *const allowed[] = {"model", "config", "config_name", "device", "batch", "seq", "dtype",
                                          "gen", "gpus", "region", "samples", "analytic", "image_tokens", "kv_dtype",
                                          "concurrency", "max_fit", "ep", "attention_dp", "phase", "mem_fraction",
                                          "prompt", "images", "image_size", "video_frames", "max_seqs", "rate", "engine",
                                          "mtp", "mtp_accepted", "offline", "batch_wait_iters",
                                          "batch_wait_tokens", "expert_slots", "eager", "recv_interval",
                                          "adp_balance_iters", "fixed_lengths", "mixed_chunk",
                                          "trtllm_gen_moe", "same_prompts", "max_prefill_tokens", NULL};
    const char *ep = "/api/llm";
    if (check_fields(r, ep, allowed)) return;
    if (r->in->file) {
        dlp__serve_error(r->out, 400,
                         "/api/llm: 'model' is a catalogue or Hugging Face id; upload a config.json as 'config'");
        return;
    }
    const char *model, *dtype, *region, *kvdtype, *phase_s, *imgsize;
    int64_t batch = 1, seq = 128, gen = 0, gpus = 1, samples = 0, img = 0, conc = 0, epn = 1, adp = 1;
    int64_t images = 0, frames = 0, maxseqs = 0;
    int analytic = 0, maxfit = 0, gen_given = 0, mf_given = 0, offline = 0;
    double memfrac = 0;
    if (get_str(r, "model", &model) || get_str(r, "dtype", &dtype) || get_str(r, "kv_dtype", &kvdtype) ||
        get_i64(r, "batch", 1, 1 << 20, &batch, NULL) || get_i64(r, "seq", 1, 1 << 22, &seq, NULL) ||
        get_i64(r, "prompt", 1, 1 << 22, &seq, NULL) ||
        get_i64(r, "gen", 0, 1 << 22, &gen, &gen_given) || get_i64(r, "gpus", 1, 1024, &gpus, NULL) ||
        get_i64(r, "samples", 1, (int64_t)1 << 50, &samples, NULL) || get_bool(r, "analytic", &analytic) ||
        get_i64(r, "image_tokens", 0, 1000000, &img, NULL) || get_region(r, &region) ||
        get_i64(r, "concurrency", 1, 1 << 24, &conc, NULL) || get_bool(r, "max_fit", &maxfit) ||
        get_i64(r, "ep", 1, 1024, &epn, NULL) || get_i64(r, "attention_dp", 1, 1024, &adp, NULL) ||
        get_str(r, "phase", &phase_s) || get_num(r, "mem_fraction", &memfrac, &mf_given) ||
        get_i64(r, "images", 1, 10000, &images, NULL) || get_str(r, "image_size", &imgsize) ||
        get_i64(r, "video_frames", 1, 100000, &frames, NULL) || get_i64(r, "max_seqs", 1, 1 << 20, &maxseqs, NULL) ||
        get_bool(r, "offline", &offline))
        return;
    /* as `dlperf llm --images N --image-size WxH` (docs/llm.md, "Vision-language models") */
    long iw = 1024, ih = 768;
    if ((images || frames || imgsize) && img) {
        dlp__serve_error(r->out, 400, "field 'image_tokens' is the raw count: give it or 'images', not both");
        return;
    }
    if (imgsize) {
        char tail;
        if (sscanf(imgsize, "%ldx%ld%c", &iw, &ih, &tail) != 2 || iw < 1 || ih < 1) {
            dlp__serve_error(r->out, 400, "field 'image_size': '%.64s' is not WIDTHxHEIGHT in pixels", imgsize);
            return;
        }
    }
    if ((frames || imgsize) && !images) images = 1;
    if (maxfit && conc > 0) {
        dlp__serve_error(r->out, 400, "fields 'max_fit' and 'concurrency' are exclusive");
        return;
    }
    /* serving (docs/llm.md, "Serving"): as `dlperf llm --concurrency` or --rate */
    double rate = 0;
    int engine;
    if (llm_clients(r, conc, maxfit, &rate, &engine)) return;
    int serving = conc > 0 || maxfit || rate > 0, phase = DLP_LLM_AGG;
    /* as `dlperf llm --offline`: a batch submitted at once */
    if (offline && (rate > 0 || !serving)) {
        dlp__serve_error(r->out, 400, rate > 0 ? "fields 'offline' and 'rate' are two client modes: give one"
                                               : "field 'offline' is a serving field: add 'concurrency' or 'max_fit'");
        return;
    }
    if (phase_s && (phase = dlp_llm_phase_parse(phase_s)) < 0) {
        dlp__serve_error(r->out, 400, "field 'phase': '%.64s' is not agg, prefill or decode", phase_s);
        return;
    }
    if (mf_given && !(memfrac > 0 && memfrac <= 1)) {
        dlp__serve_error(r->out, 400, "field 'mem_fraction': %g is not in (0, 1]", memfrac);
        return;
    }
    /* as the CLI (--engine without a client model is refused there too) */
    if (!serving && (epn > 1 || adp > 1 || phase_s || mf_given || maxseqs || field(r, "engine"))) {
        dlp__serve_error(r->out, 400, "fields 'ep', 'attention_dp', 'phase', 'mem_fraction', 'max_seqs' and 'engine' are "
                                      "serving fields: add 'concurrency', 'rate' or 'max_fit'");
        return;
    }
    llm_serve_fields o = {0};
    if (get_llm_serving(r, serving, &o)) return;
    if (serving && !gen_given) gen = 128;
    if (serving && gen < 1) {
        dlp__serve_error(r->out, 400, "field 'gen': serving generates at least one token");
        return;
    }
    dlp_llm_config c;
    if (llm_config_of(r, ep, &c)) return;
    int quant, kvdt;
    if (llm_dtypes(r, dtype, kvdtype, &quant, &kvdt)) return;
    const dlp_device *dev = find_device(r, ep);
    if (!dev) return;

    dlp_error err = {0};
    dlp_status st;
    if (images && (st = dlp_llm_image_tokens(&c, images, iw, ih, frames, &img, &err))) {
        lib_error(r->out, st, &err);
        return;
    }
    c.image_tokens = img;
    if (!dlp__serve_parse_begin(r->s)) {
        busy(r);
        return;
    }
    if (!dtype) quant = dlp_llm_default_quant(&c, dev); /* as the CLI: the checkpoint's format */
    dlp_llm_workload wl = {.batch = batch, .seq = seq, .gen_tokens = gen, .quant = quant, .n_gpus = (int)gpus,
                           .kv_dtype = kvdt, .concurrency = conc, .max_fit = maxfit, .ep = (int)epn,
                           .attn_dp = (int)adp, .phase = phase, .mem_fraction = memfrac, .max_seqs = maxseqs,
                           .rate = rate, .engine = engine, .spec_tokens = (int)o.mtp, .spec_accepted = o.mtp_acc,
                           .offline = offline, .batch_wait_iters = (int)o.bw_iters,
                           .batch_wait_tokens = (double)o.bw_tokens, .expert_slots = (int)o.slots, .eager = o.eager,
                           .recv_interval = (int)o.recv, .adp_balance_iters = (int)o.adpbal,
                           .fixed_lengths = o.fixed, .mixed_chunk = o.mixed, .moe_trtllm_gen = o.trtgen,
                           .same_prompts = o.same, .max_prefill_tokens = o.maxpf};
    dlp_llm_prediction p;
    st = dlp_llm_predict(&c, dev, r->s->db, &wl, 
                         &(dlp_llm_predict_opts){.region = region, .analytic_only = analytic}, &p, &err);
    dlp__serve_parse_end(r->s);
    if (st) {
        lib_error(r->out, st, &err);
        return;
    }
    if (!samples) samples = serving ? p.concurrency : batch;
    const char *reg = region && *region ? region : dlp_carbon_default_region(r->s->db);
    char *body = NULL;   /* the CLI's --json bytes (src/json/llm_json.c) */
    dlp_llm_json(&c, dev, &wl, &p, samples, reg, &body, NULL, NULL);
    set_body(r->out, 200, CT_JSON, body);
}

/* ---- /api/plan ----------------------------------------------------------------- */

#define PLAN_API_MAX 128

/* A list field: a JSON array of strings, or (forms) one comma-separated
 * string, copied into buf.  *n items point into the request or buf. */
static int get_list(req *r, const char *k, const char **items, int max, char *buf, size_t bufsz, int *n) {
    const cJSON *j = field(r, k);
    *n = 0;
    if (!j) return 0;
    if (cJSON_IsArray(j)) {
        const cJSON *it;
        cJSON_ArrayForEach(it, j) {
            if (!cJSON_IsString(it) || !it->valuestring[0] || *n == max) {
                dlp__serve_error(r->out, 400, "field '%s' must be a list of at most %d non-empty strings", k, max);
                return -1;
            }
            items[(*n)++] = it->valuestring;
        }
        return 0;
    }
    if (!cJSON_IsString(j) || strlen(j->valuestring) >= bufsz) {
        dlp__serve_error(r->out, 400, "field '%s' must be a list of strings or one comma-separated string", k);
        return -1;
    }
    snprintf(buf, bufsz, "%s", j->valuestring);
    for (char *p = buf;;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = 0;
        if (!*p || *n == max) {
            dlp__serve_error(r->out, 400, "field '%s': '%.64s' is not a comma list of at most %d names", k,
                             j->valuestring, max);
            return -1;
        }
        items[(*n)++] = p;
        if (!comma) break;
        p = comma + 1;
    }
    return 0;
}

/* "mode": "train" and its fields (docs/plan.md, "Training") into *o;
 * *train 1 when asked.  0, or -1 after the 400 answer. */
static int plan_train_fields(req *r, const char *ep, int onnx, dlp_plan_train_opts *o, int *train) {
    memset(o, 0, sizeof *o);
    const char *mode, *optim;
    int g;
    if (get_str(r, "mode", &mode) || get_str(r, "optimizer", &optim)) return -1;
    int m = mode ? dlp_predict_mode_parse(mode) : DLP_PREDICT_INFER;
    if (m < 0) {
        dlp__serve_error(r->out, 400, "field 'mode': '%.32s' is not infer or train", mode);
        return -1;
    }
    *train = m == DLP_PREDICT_TRAIN;
    static const char *const train_only[] = {"batch", "samples", "epochs", "deadline_hours", "optimizer", NULL};
    for (const char *const *k = train_only; !*train && *k; k++)
        if (field(r, *k)) {
            dlp__serve_error(r->out, 400, "%s: field '%s' is for training plans (\"mode\": \"train\")", ep, *k);
            return -1;
        }
    if (!*train) return 0;
    if (!onnx) {
        dlp__serve_error(r->out, 400, "%s: training plans need an ONNX model (a file or \"example\")", ep);
        return -1;
    }
    if (get_i64(r, "batch", 1, 1 << 24, &o->batch, NULL) || get_i64(r, "samples", 1, INT64_C(1) << 50, &o->samples, NULL) ||
        get_f64(r, "epochs", 1e-6, 1e9, &o->epochs, &g) || get_f64(r, "deadline_hours", 1e-9, 1e9, &o->deadline_hours, &g))
        return -1;
    if (!o->batch || !o->samples) {
        dlp__serve_error(r->out, 400, "%s: training plans need 'batch' (global batch) and 'samples' (per epoch)", ep);
        return -1;
    }
    if (optim && (o->optimizer = dlp_optimizer_parse(optim)) < 0) {
        dlp__serve_error(r->out, 400, "field 'optimizer': '%.32s' is not adam, sgd or sgd-momentum", optim);
        return -1;
    }
    return 0;
}

/* LLM serving plans (docs/plan.md): dlp_plan_json's bytes, as `dlperf plan
 * --json` and Python's dlperf.plan print them. */
static void h_plan(req *r) {
    static const char *const allowed[] = {"model", "config", "config_name", "prompt", "gen", "ttft_ms", "tpot_ms",
                                          "rate", "devices", "dtypes", "max_gpus", "max_concurrency", "prices", "region",
                                          "kwh_price", "mem_fraction", "analytic", "example", "batch_min",
                                          "batch_max", "latency_ms", "throughput", "runtime", "seq", "mode",
                                          "batch", "samples", "epochs", "deadline_hours", "optimizer", NULL};
    const char *ep = "/api/plan";
    if (check_fields(r, ep, allowed)) return;
    /* an ONNX upload (or a shipped example): inference plans, or training
     * plans with "mode": "train" */
    int onnx = r->in->file != NULL || field(r, "example") != NULL;
    dlp_plan_train_opts to;
    int train = 0;
    if (plan_train_fields(r, ep, onnx, &to, &train)) return;
    int64_t prompt = 0, gen = 0, max_gpus = 0, max_conc = 0;
    double ttft = 0, tpot = 0, rate = 0, kwh = 0, memfrac = 0;
    int analytic = 0, g;
    const char *region;
    if (get_i64(r, "prompt", 1, 1 << 22, &prompt, NULL) || get_i64(r, "gen", 1, 1 << 22, &gen, NULL) ||
        get_f64(r, "ttft_ms", 1e-6, 1e9, &ttft, &g) || get_f64(r, "tpot_ms", 1e-6, 1e9, &tpot, &g) ||
        get_f64(r, "rate", 1e-9, 1e12, &rate, &g) || get_i64(r, "max_gpus", 1, 1024, &max_gpus, NULL) ||
        get_i64(r, "max_concurrency", 1, 1 << 24, &max_conc, NULL) || get_f64(r, "kwh_price", 1e-9, 1e6, &kwh, &g) ||
        get_f64(r, "mem_fraction", 1e-6, 1, &memfrac, &g) || get_bool(r, "analytic", &analytic) ||
        get_region(r, &region))
        return;
    int64_t bmin = 0, bmax = 0, seq = 0;
    double latency = 0, throughput = 0;
    const char *runtime_s;
    if (get_i64(r, "batch_min", 1, 1 << 20, &bmin, NULL) || get_i64(r, "batch_max", 1, 1 << 20, &bmax, NULL) ||
        get_i64(r, "seq", 1, 1 << 22, &seq, NULL) || get_f64(r, "latency_ms", 1e-6, 1e9, &latency, &g) ||
        get_f64(r, "throughput", 1e-9, 1e15, &throughput, &g) || get_str(r, "runtime", &runtime_s))
        return;
    static const char *const llm_only[] = {"prompt", "gen", "ttft_ms", "tpot_ms", "rate", "max_gpus",
                                           "max_concurrency", "mem_fraction", "analytic", "config", NULL};
    static const char *const onnx_only[] = {"batch_min", "batch_max", "latency_ms", "throughput", "runtime", "seq",
                                            NULL};
    static const char *const not_train[] = {"prompt", "gen", "ttft_ms", "tpot_ms", "rate", "max_concurrency",
                                            "mem_fraction", "analytic", "config", "batch_min", "batch_max",
                                            "latency_ms", "throughput", "runtime", NULL};
    for (const char *const *k = train ? not_train : onnx ? llm_only : onnx_only; *k; k++)
        if (field(r, *k)) {
            dlp__serve_error(r->out, 400, "%s: field '%s' is for %s plans", ep, *k,
                             train ? "other" : onnx ? "LLM" : "ONNX-model");
            return;
        }
    if (!onnx && (!prompt || !gen)) {
        dlp__serve_error(r->out, 400, "%s: fields 'prompt' and 'gen' (tokens per request) are required", ep);
        return;
    }
    int runtime = 0;
    if (runtime_s && (runtime = dlp_runtime_parse(runtime_s)) < 0) {
        dlp__serve_error(r->out, 400, "field 'runtime': '%.64s' is not eager, eager-1.x, compile, tensorrt or "
                                      "onnxruntime", runtime_s);
        return;
    }
    const char *devs[PLAN_API_MAX], *qn[PLAN_API_MAX], *pd[PLAN_API_MAX];
    char dbuf[4096], qbuf[512], pbuf[4096];
    int nd, nq, np = 0, quants[PLAN_API_MAX];
    double pv[PLAN_API_MAX];
    if (get_list(r, "devices", devs, PLAN_API_MAX, dbuf, sizeof dbuf, &nd) ||
        get_list(r, "dtypes", qn, PLAN_API_MAX, qbuf, sizeof qbuf, &nq))
        return;
    for (int i = 0; i < nd; i++)
        if (!dlp_devdb_find(r->s->db, devs[i])) {
            dlp__serve_error(r->out, 400, "field 'devices': unknown device '%.64s' (GET /api/devices lists the ids)",
                             devs[i]);
            return;
        }
    for (int i = 0; i < nq; i++)
        if ((quants[i] = onnx ? dlp_dtype_parse(qn[i]) : dlp_quant_parse(qn[i])) < 0) {
            dlp__serve_error(r->out, 400,
                             "field 'dtypes': '%.64s' is not fp32, fp16, bf16, int8, nf4, fp8, int4, mxfp4 or nvfp4",
                             qn[i]);
            return;
        }
    /* prices: {"h100-sxm": 2.1, ...}, or "h100-sxm=2.1,..." from a form */
    const cJSON *pj = field(r, "prices");
    if (pj && cJSON_IsObject(pj)) {
        const cJSON *it;
        cJSON_ArrayForEach(it, pj) {
            if (np == PLAN_API_MAX || !cJSON_IsNumber(it) || !(it->valuedouble > 0) || !isfinite(it->valuedouble)) {
                dlp__serve_error(r->out, 400, "field 'prices': '%.64s' must be a positive number of $/h per GPU",
                                 it->string);
                return;
            }
            pd[np] = it->string;
            pv[np++] = it->valuedouble;
        }
    } else if (pj) {
        const char *items[PLAN_API_MAX];
        int ni;
        if (get_list(r, "prices", items, PLAN_API_MAX, pbuf, sizeof pbuf, &ni)) return;
        for (int i = 0; i < ni; i++) {
            char *eq = strchr(items[i], '='), *end = NULL;
            if (eq) *eq = 0, pv[np] = strtod(eq + 1, &end);
            if (!eq || end == eq + 1 || *end || !(pv[np] > 0) || !isfinite(pv[np])) {
                dlp__serve_error(r->out, 400, "field 'prices': '%.64s' is not ID=USD", items[i]);
                return;
            }
            pd[np++] = items[i];
        }
    }
    const void *mbuf = NULL;
    size_t mlen = 0;
    const char *mname = NULL;
    dlp_llm_config c;
    if (onnx ? model_of(r, ep, &mbuf, &mlen, &mname) : llm_config_of(r, ep, &c)) return;
    if (!dlp__serve_parse_begin(r->s)) {
        busy(r);
        return;
    }
    dlp_error err = {0};
    dlp_plan *p = NULL;
    char *body = NULL;   /* the CLI's --json bytes (src/plan/plan.c) */
    dlp_status st = DLP_OK;
    if (train) {
        to.devices = nd ? devs : NULL, to.n_devices = nd, to.dtypes = nq ? quants : NULL, to.n_dtypes = nq;
        to.seq = seq, to.region = region, to.kwh_price = kwh, to.max_gpus = (int)max_gpus;
        to.price_devices = np ? pd : NULL, to.price_usd_per_hour = pv, to.n_prices = np;
        st = dlp_plan_train(mbuf, mlen, mname, r->s->db, &to, &p, &err);
    } else if (onnx) {
        dlp_plan_infer_opts io = {.batch_min = bmin, .batch_max = bmax, .latency_ms = latency,
                                  .throughput = throughput, .devices = nd ? devs : NULL, .n_devices = nd,
                                  .dtypes = nq ? quants : NULL, .n_dtypes = nq, .runtime = runtime, .seq = seq,
                                  .region = region, .kwh_price = kwh, .price_devices = np ? pd : NULL,
                                  .price_usd_per_hour = pv, .n_prices = np};
        st = dlp_plan_infer(mbuf, mlen, mname, r->s->db, &io, &p, &err);
    }
    if (onnx) {
        if (!st) st = dlp_plan_json(p, &body, NULL, &err);
        dlp_plan_free(p);
        dlp__serve_parse_end(r->s);
        if (st) lib_error(r->out, st, &err);
        else set_body(r->out, 200, CT_JSON, body);
        return;
    }
    dlp_plan_llm_opts o = {.prompt = prompt, .gen = gen, .ttft_ms = ttft, .tpot_ms = tpot, .rate = rate,
                           .devices = nd ? devs : NULL, .n_devices = nd, .quants = nq ? quants : NULL,
                           .n_quants = nq, .max_gpus = (int)max_gpus, .max_concurrency = max_conc,
                           .region = region, .mem_fraction = memfrac, .kwh_price = kwh, .analytic_only = analytic,
                           .price_devices = np ? pd : NULL, .price_usd_per_hour = pv, .n_prices = np};
    st = dlp_plan_llm(&c, r->s->db, &o, &p, &err);
    if (!st) st = dlp_plan_json(p, &body, NULL, &err);
    dlp_plan_free(p);
    dlp__serve_parse_end(r->s);
    if (st) lib_error(r->out, st, &err);
    else set_body(r->out, 200, CT_JSON, body);
}

/* ---- /api/mig ------------------------------------------------------------------ */

static void h_mig(req *r) {
    static const char *const allowed[] = {"device", "memory_mb", "margin", "latency_ms", "slo_ms", NULL};
    if (check_fields(r, "/api/mig", allowed)) return;
    double mem = -1, margin = 0.10, lat = 0, slo = 0;
    int g_mem = 0;
    if (get_f64(r, "memory_mb", 0, 1e9, &mem, &g_mem) || get_f64(r, "margin", 0, 10, &margin, NULL) ||
        get_f64(r, "latency_ms", 1e-9, 1e12, &lat, NULL) || get_f64(r, "slo_ms", 1e-9, 1e12, &slo, NULL))
        return;
    if (!g_mem) {
        dlp__serve_error(r->out, 400, "/api/mig: field 'memory_mb' is required");
        return;
    }
    if (slo > 0 && lat <= 0) {
        dlp__serve_error(r->out, 400, "/api/mig: 'slo_ms' needs 'latency_ms' (the full-GPU latency to scale)");
        return;
    }
    const dlp_device *dev = find_device(r, "/api/mig");
    if (!dev) return;
    dlp_mig_choice c;
    dlp_status st = dlp_mig_recommend(dev, mem, margin, lat, slo, &c);
    if (st) {
        dlp__serve_error(r->out, http_status(st), "/api/mig: %s", c.reason);
        return;
    }
    char *body = NULL;   /* the CLI's --json bytes (src/json/results.c) */
    dlp_mig_json(dev, mem, margin, lat, slo, &c, &body, NULL, NULL);
    set_body(r->out, 200, CT_JSON, body);
}

/* ---- /api/health, /api/devices, /api/models ----------------------------------- */

static void h_health(req *r) {
    int free_slots = 0;
    sem_getvalue(&r->s->parses, &free_slots);
    char *b = malloc(512);
    if (b)
        snprintf(b, 512,
                 "{\"status\":\"ok\",\"version\":\"%s\",\"uptime_s\":%.3f,\"active_requests\":%d,"
                 "\"max_parses\":%d,\"parses_running\":%d,\"connections\":%d,\"max_connections\":%d,"
                 "\"shed_total\":%zu,\"deadline_closed_total\":%zu}",
                 DLP_VERSION_STRING, dlp__now_s() - r->s->t_start, atomic_load(&r->s->active),
                 r->s->o.max_parses, r->s->o.max_parses - free_slots, atomic_load(&r->s->n_conns),
                 r->s->o.max_connections, atomic_load(&r->s->n_shed), atomic_load(&r->s->n_reaped));
    set_body(r->out, 200, CT_JSON, b);
}

static void h_static(req *r, const char *text, const char *ct) {
    if (!text) {
        dlp__serve_error(r->out, 500, "catalogue not built");
        return;
    }
    set_body(r->out, 200, ct, dupstr(text));
}

/* Catalogue bodies: built once at start because they never change and
 * /api/models would otherwise build every LLM graph to count parameters. */
dlp_status dlp__serve_build_catalogues(dlp_server *s, dlp_error *err) {
    cJSON *dv = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(dv, "devices");
    int oom = !dv || !arr;
    for (int i = 0; !oom && i < dlp_devdb_count(s->db); i++) {
        const dlp_device *d = dlp_devdb_at(s->db, i);
        cJSON *e = cJSON_CreateObject();
        oom |= !e || !cJSON_AddItemToArray(arr, e);
        if (oom) {
            cJSON_Delete(e);
            break;
        }
        oom |= !cJSON_AddStringToObject(e, "id", d->id) || !cJSON_AddStringToObject(e, "name", d->name) ||
               !cJSON_AddStringToObject(e, "vendor", d->vendor) || !cJSON_AddStringToObject(e, "arch", d->arch) ||
               !cJSON_AddStringToObject(e, "kind", dlp_device_kind_name(d->kind)) ||
               !cJSON_AddNumberToObject(e, "memory_gib", d->memory_gib) ||
               !cJSON_AddNumberToObject(e, "mem_bandwidth_gbs", d->mem_bandwidth_gbs) ||
               !cJSON_AddNumberToObject(e, "peak_fp32_gflops", d->peak_fp32_gflops) ||
               !(d->fp16_tensor_tflops > 0 ? cJSON_AddNumberToObject(e, "fp16_tensor_tflops", d->fp16_tensor_tflops)
                                           : cJSON_AddNullToObject(e, "fp16_tensor_tflops")) ||
               !cJSON_AddNumberToObject(e, "tdp_w", d->tdp_w);
        if (d->price_usd_per_hour > 0) oom |= !cJSON_AddNumberToObject(e, "price_usd_per_hour", d->price_usd_per_hour);
        else oom |= !cJSON_AddNullToObject(e, "price_usd_per_hour");
        if (d->n_mig) {
            cJSON *m = cJSON_AddArrayToObject(e, "mig");
            oom |= !m;
            for (int k = 0; !oom && k < d->n_mig; k++) {
                cJSON *n = cJSON_CreateString(d->mig[k].name);
                oom |= !n || !cJSON_AddItemToArray(m, n);
                if (oom) cJSON_Delete(n);
            }
        } else {
            oom |= !cJSON_AddNullToObject(e, "mig");
        }
    }
    cJSON *regs = oom ? NULL : cJSON_AddArrayToObject(dv, "regions");
    oom |= !regs;
    for (int i = 0; !oom && i < dlp_carbon_region_count(s->db); i++) {
        const char *id = NULL;
        double g = 0;
        const dlp_region *rg = dlp_carbon_region_at(s->db, i);
        id = rg->id;
        g = rg->g_per_kwh;
        cJSON *e = cJSON_CreateObject();
        oom |= !e || !cJSON_AddItemToArray(regs, e);
        if (oom) {
            cJSON_Delete(e);
            break;
        }
        oom |= !cJSON_AddStringToObject(e, "id", id ? id : "") || !cJSON_AddNumberToObject(e, "g_per_kwh", g);
    }
    if (!oom)
        oom |= !cJSON_AddStringToObject(dv, "default_region", dlp_carbon_default_region(s->db)) ||
               !cJSON_AddNumberToObject(dv, "pue", dlp_devdb_pue(s->db));
    s->devices_json = oom ? NULL : cJSON_PrintUnformatted(dv);
    cJSON_Delete(dv);
    if (!s->devices_json) return dlp__err(err, DLP_ENOMEM, "serve: out of memory building the catalogues");

    /* models: the shipped examples, the LLM catalogue (as `dlperf llm --list
     * --json` lists it) and the trained LLM models */
    cJSON *mo = cJSON_CreateObject(), *ex = cJSON_AddArrayToObject(mo, "examples");
    oom = !mo || !ex;
    for (size_t i = 0; !oom && i < sizeof examples / sizeof examples[0]; i++) {
        cJSON *e = cJSON_CreateObject();
        oom |= !e || !cJSON_AddItemToArray(ex, e);
        if (oom) {
            cJSON_Delete(e);
            break;
        }
        oom |= !cJSON_AddStringToObject(e, "id", examples[i].id) || !cJSON_AddStringToObject(e, "file", examples[i].file) ||
               !cJSON_AddNumberToObject(e, "bytes", (double)dlp__serve_resnet18_onnx_len) ||
               !cJSON_AddStringToObject(e, "description", examples[i].description);
    }
    cJSON *llm = oom ? NULL : cJSON_AddArrayToObject(mo, "llm");
    oom |= !llm;
    for (int i = 0; !oom && i < dlp_llm_catalogue_count(); i++) {
        dlp_llm_config c;
        dlp_error e2 = {0};
        if (dlp_llm_catalogue_get(dlp_llm_catalogue_at(i), &c, &e2)) continue;
        int64_t params = c.params_ref;
        if (!params) {
            dlp_graph *g;
            dlp_llm_weights w;
            if (dlp_llm_build(&c, 1, 1, DLP_QT_FP16, &g, &w, &e2) == DLP_OK) {
                params = w.params;
                dlp_graph_free(g);
            }
        }
        cJSON *e = cJSON_CreateObject();
        oom |= !e || !cJSON_AddItemToArray(llm, e);
        if (oom) {
            cJSON_Delete(e);
            break;
        }
        oom |= !cJSON_AddStringToObject(e, "id", c.id) || !cJSON_AddStringToObject(e, "hf_id", c.hf_id) ||
               !cJSON_AddStringToObject(e, "model_type", c.model_type) ||
               !cJSON_AddNumberToObject(e, "params", (double)params) ||
               !cJSON_AddNumberToObject(e, "num_hidden_layers", (double)c.num_hidden_layers) ||
               !cJSON_AddNumberToObject(e, "hidden_size", (double)c.hidden_size) ||
               !cJSON_AddNumberToObject(e, "num_attention_heads", (double)c.num_attention_heads) ||
               !cJSON_AddNumberToObject(e, "num_key_value_heads", (double)c.num_key_value_heads) ||
               !cJSON_AddNumberToObject(e, "vocab_size", (double)c.vocab_size) ||
               !cJSON_AddNumberToObject(e, "max_position_embeddings", (double)c.max_position_embeddings);
    }
    cJSON *tm = oom ? NULL : cJSON_AddArrayToObject(mo, "trained_models");
    oom |= !tm;
    for (int i = 0; !oom && i < dlp_llm_model_count(); i++) {
        const dlp_xgb *m = dlp_llm_model_at(i);
        static const char *const keys[] = {"name", "predicts", "workload", "devices", "quants", "data"};
        cJSON *e = cJSON_CreateObject();
        oom |= !e || !cJSON_AddItemToArray(tm, e);
        if (oom) {
            cJSON_Delete(e);
            break;
        }
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            const char *v = m ? dlp_xgb_get_meta(m, keys[k]) : NULL;
            oom |= !(v ? cJSON_AddStringToObject(e, keys[k], v) : cJSON_AddNullToObject(e, keys[k]));
        }
    }
    s->models_json = oom ? NULL : cJSON_PrintUnformatted(mo);
    cJSON_Delete(mo);
    if (!s->models_json) return dlp__err(err, DLP_ENOMEM, "serve: out of memory building the catalogues");
    s->devices_len = strlen(s->devices_json);
    s->models_len = strlen(s->models_json);
    return DLP_OK;
}

/* ---- routing ------------------------------------------------------------------- */

enum { R_PAGE, R_HEALTH, R_DEVICES, R_MODELS, R_PREDICT, R_INSPECT, R_LLM, R_PLAN, R_MIG, R_SVG };

static const struct {
    const char *path;
    int route;
    const char *allow;         /* methods, as the Allow header lists them */
} routes[] = {
    {"/", R_PAGE, "GET, HEAD"},
    {"/index.html", R_PAGE, "GET, HEAD"},
    {"/api/health", R_HEALTH, "GET, HEAD"},
    {"/api/devices", R_DEVICES, "GET, HEAD"},
    {"/api/models", R_MODELS, "GET, HEAD"},
    {"/api/predict", R_PREDICT, "POST"},
    {"/api/inspect", R_INSPECT, "POST"},
    {"/api/llm", R_LLM, "POST"},
    {"/api/plan", R_PLAN, "POST"},
    {"/api/mig", R_MIG, "POST"},
    {"/api/roofline.svg", R_SVG, "GET, HEAD, POST"},
};

/* Is method one of the comma-separated list? */
static int method_allowed(const char *allow, const char *method) {
    size_t n = strlen(method);
    for (const char *p = allow; (p = strstr(p, method)) != NULL; p += n)
        if ((p == allow || p[-1] == ' ') && (p[n] == ',' || p[n] == 0)) return 1;
    return 0;
}

/* The route of (method, path), or -1 with a 404/405 in *out. */
static int route_of(const char *method, const char *path, dlp_server_response *out) {
    size_t i;
    for (i = 0; i < sizeof routes / sizeof routes[0]; i++)
        if (!strcmp(path, routes[i].path)) break;
    if (i == sizeof routes / sizeof routes[0]) {
        dlp__serve_error(out, 404, "no such endpoint '%.100s' (endpoints: /api/health, /api/devices, "
                                   "/api/models, /api/predict, /api/inspect, /api/llm, /api/plan, /api/mig, /api/roofline.svg; "
                                   "docs/serve.md)",
                         path);
        return -1;
    }
    if (!method_allowed(routes[i].allow, method)) {
        dlp__serve_error(out, 405, "%s takes %s, not %.16s", path, routes[i].allow, method);
        out->allow = routes[i].allow;
        return -1;
    }
    return routes[i].route;
}

int dlp__serve_route_check(const char *method, const char *path, dlp_server_response *out) {
    return route_of(method, path, out) < 0 ? -1 : 0;
}

void dlp__serve_dispatch(dlp_server *s, const char *method, const char *path, dlp__serve_input *in,
                         dlp_server_response *out) {
    req r = {s, in, out};
    int route = route_of(method, path, out);
    if (route < 0) return;
    switch (route) {
    case R_PAGE: h_static(&r, dlp__serve_index_html, "text/html; charset=utf-8"); break;
    case R_HEALTH: h_health(&r); break;
    case R_DEVICES: h_static(&r, s->devices_json, CT_JSON); break;
    case R_MODELS: h_static(&r, s->models_json, CT_JSON); break;
    case R_PREDICT: h_predict(&r, 0); break;
    case R_SVG: h_predict(&r, 1); break;
    case R_INSPECT: h_inspect(&r); break;
    case R_LLM: h_llm(&r); break;
    case R_PLAN: h_plan(&r); break;
    case R_MIG: h_mig(&r); break;
    }
}

/* ---- body parsers ---------------------------------------------------------------- */

/* cJSON decodes the escape \u0000 into a NUL byte and so cuts the string
 * there: "h100-sxm\u0000x" would read as "h100-sxm".  Refuse such a string
 * instead (issue 25), naming its field: walk the (already valid) JSON text,
 * remembering the last key, and look for a \u0000 escape in each string.
 * Returns 0, or -1 with the message in msg. */
static int nul_escape(const char *t, size_t len, char *msg, size_t msgsz) {
    char key[65] = "";
    for (size_t i = 0; i < len; i++) {
        if (t[i] != '"') continue;
        size_t start = ++i;
        int nul = 0;
        for (; i < len && t[i] != '"'; i++)
            if (t[i] == '\\') {
                if (i + 5 < len && t[i + 1] == 'u' && !strncmp(t + i + 2, "0000", 4)) nul = 1;
                i++; /* skip the escaped character (\" among them) */
            }
        size_t end = i, k = i + 1;
        while (k < len && isspace((unsigned char)t[k])) k++;
        int is_key = k < len && t[k] == ':';
        if (nul) {
            if (is_key) snprintf(msg, msgsz, "malformed JSON body: a key contains a NUL character (\\u0000)");
            else snprintf(msg, msgsz, "field '%s': the string contains a NUL character (\\u0000)", key);
            return -1;
        }
        if (is_key) snprintf(key, sizeof key, "%.*s", (int)(end - start < 64 ? end - start : 64), t + start);
    }
    return 0;
}

cJSON *dlp__serve_parse_json_body(const char *body, size_t len, char *msg, size_t msgsz) {
    size_t i = 0;
    while (i < len && isspace((unsigned char)body[i])) i++;
    if (i == len) return cJSON_CreateObject();   /* empty body: no fields */
    /* cJSON wants a NUL terminator to reject trailing garbage */
    char *t = malloc(len + 1);
    if (!t) return snprintf(msg, msgsz, "out of memory"), NULL;
    memcpy(t, body, len);
    t[len] = 0;
    if (memchr(body, 0, len)) {
        free(t);
        snprintf(msg, msgsz, "malformed JSON body: it contains a NUL byte");
        return NULL;
    }
    const char *end = NULL;
    pthread_mutex_lock(&parse_lock);
    cJSON *j = cJSON_ParseWithLengthOpts(t, len + 1, &end, 1);
    pthread_mutex_unlock(&parse_lock);
    if (!j) {
        size_t at = end && end >= t && end <= t + len ? (size_t)(end - t) : 0;
        snprintf(msg, msgsz, "malformed JSON body at byte %zu", at);
    } else if (!cJSON_IsObject(j)) {
        cJSON_Delete(j);
        j = NULL;
        snprintf(msg, msgsz, "the JSON body must be an object of fields");
    } else if (nul_escape(t, len, msg, msgsz)) {
        cJSON_Delete(j);
        j = NULL;
    } else {
        const char *dup = dup_key(j);
        if (dup) {
            snprintf(msg, msgsz, "malformed JSON body: key '%.64s' given twice", dup);
            cJSON_Delete(j);
            j = NULL;
        }
    }
    free(t);
    return j;
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Percent-decode s[0..n) into a new string; NULL on a bad escape or NUL. */
static char *url_decode(const char *s, size_t n) {
    char *d = malloc(n + 1), *o = d;
    if (!d) return NULL;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '+') {
            *o++ = ' ';
        } else if (s[i] == '%') {
            int h, l;
            if (i + 2 >= n || (h = hexval((unsigned char)s[i + 1])) < 0 ||
                (l = hexval((unsigned char)s[i + 2])) < 0 || (h == 0 && l == 0)) {
                free(d);
                return NULL;
            }
            *o++ = (char)(h * 16 + l);
            i += 2;
        } else {
            *o++ = s[i];
        }
    }
    *o = 0;
    return d;
}

cJSON *dlp__serve_parse_urlencoded(const char *body, size_t len, char *msg, size_t msgsz) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return snprintf(msg, msgsz, "out of memory"), NULL;
    size_t i = 0;
    int n = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && body[j] != '&') j++;
        if (j > i) {
            const char *eq = memchr(body + i, '=', j - i);
            size_t klen = eq ? (size_t)(eq - (body + i)) : j - i;
            char *k = url_decode(body + i, klen);
            char *v = eq ? url_decode(eq + 1, (size_t)(body + j - (eq + 1))) : dupstr("");
            const char *why = NULL;
            if (!k || !v) why = "bad %-escape (or %00)";
            else if (!*k) why = "empty field name";
            else if (cJSON_GetObjectItemCaseSensitive(o, k)) why = "field given twice";
            else if (++n > DLP__SERVE_MAX_FIELDS) why = "too many fields";
            else if (!cJSON_AddStringToObject(o, k, v)) why = "out of memory";
            if (why) {
                snprintf(msg, msgsz, "malformed form data: %s%s%.64s%s", why, k ? " ('" : "", k ? k : "",
                         k ? "')" : "");
                free(k);
                free(v);
                cJSON_Delete(o);
                return NULL;
            }
            free(k);
            free(v);
        }
        i = j + 1;
    }
    return o;
}

/* ---- requests without a socket -------------------------------------------------- */

/* dlp_server_handle and dlp_server_handle_upload: file is the 'model'
 * upload or NULL. */
static dlp_status handle(dlp_server *s, const char *method, const char *url, const char *content_type,
                         const void *body, size_t len, const void *file, size_t file_len, const char *file_name,
                         dlp_server_response *out) {
    if (!out) return DLP_EINVAL;
    memset(out, 0, sizeof *out);
    if (!s || !method || !url || (len && !body)) {
        dlp__serve_error(out, 500, "dlp_server_handle: bad arguments");
        return out->body ? DLP_OK : DLP_ENOMEM;
    }
    const char *q = strchr(url, '?');
    size_t plen = q ? (size_t)(q - url) : strlen(url);
    char *path = malloc(plen + 1);
    if (!path) return DLP_ENOMEM;
    memcpy(path, url, plen);
    path[plen] = 0;
    atomic_fetch_add(&s->active, 1);
    char msg[256] = "";
    cJSON *params = NULL;
    int get = !strcmp(method, "GET") || !strcmp(method, "HEAD"), json = 0;
    if (get) {
        params = q ? dlp__serve_parse_urlencoded(q + 1, strlen(q + 1), msg, sizeof msg) : cJSON_CreateObject();
    } else if (content_type && !strncasecmp(content_type, "multipart/", 10)) {
        snprintf(msg, sizeof msg, "multipart bodies are parsed by the HTTP server only");
    } else {
        const char *b = body;
        size_t k = 0;
        while (k < len && isspace((unsigned char)b[k])) k++;
        int form = content_type && !strncasecmp(content_type, "application/x-www-form-urlencoded", 33);
        if (form && !(k < len && b[k] == '{')) params = dlp__serve_parse_urlencoded(b, len, msg, sizeof msg);
        else params = dlp__serve_parse_json_body(b, len, msg, sizeof msg), json = 1;
    }
    if (route_of(method, path, out) < 0) {
        /* 404 / 405 already in *out: they win over a malformed body */
    } else if (!params) {
        int st = content_type && !strncasecmp(content_type, "multipart/", 10) ? 415 : 400;
        dlp__serve_error(out, st, "%s", msg);
    } else {
        dlp__serve_input in = {params, file, file_len, file_name, json};
        dlp__serve_dispatch(s, method, path, &in, out);
    }
    cJSON_Delete(params);
    free(path);
    atomic_fetch_sub(&s->active, 1);
    return out->body ? DLP_OK : DLP_ENOMEM;
}

dlp_status dlp_server_handle(dlp_server *s, const char *method, const char *url, const char *content_type,
                             const void *body, size_t len, dlp_server_response *out) {
    return handle(s, method, url, content_type, body, len, NULL, 0, NULL, out);
}

dlp_status dlp_server_handle_upload(dlp_server *s, const char *url, const char *fields_json, const void *model,
                                    size_t model_len, const char *model_name, dlp_server_response *out) {
    if (model && !model_len) model = "";   /* an empty upload is still an upload (and a 400) */
    return handle(s, "POST", url, "application/json", fields_json, fields_json ? strlen(fields_json) : 0, model,
                  model_len, model_name && *model_name ? model_name : "upload.onnx", out);
}

void dlp_server_response_clear(dlp_server_response *r) {
    if (!r) return;
    free(r->body);
    memset(r, 0, sizeof *r);
}
