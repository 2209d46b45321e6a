/*
 * serve.c — the sockets of `dlperf serve`: a libmicrohttpd daemon with an
 * internal thread pool, request-body collection under limits, the access
 * log, and graceful start/stop (docs/serve.md).  What a request means is
 * api.c's business; this file only gets its bytes there safely.
 *
 * Why libmicrohttpd: it is in Debian, does HTTP/1.1 parsing, keep-alive,
 * timeouts and a thread pool itself, and hands us the body in chunks, so
 * limits can be enforced while bytes arrive rather than after.
 *
 * Request life (one struct conn_req per request, in *con_cls):
 *   1st callback   headers are in: route check (404/405), Content-Length
 *                  against the upload cap (413), body kind from Content-Type
 *                  (multipart -> MHD post processor; anything else -> raw
 *                  bytes).  An error found here is answered at once, before
 *                  any body is read (libmicrohttpd then closes the connection).
 *   data callbacks bytes are appended to memory only — never to disk — while
 *                  counting them against the per-request cap and against a
 *                  server-wide cap on buffered bytes (4 x the upload cap, so
 *                  many concurrent uploads cannot exhaust memory); a request
 *                  that runs past the timeout is cut off.
 *   last callback  fields -> dlp__serve_input -> dlp__serve_dispatch ->
 *                  response, with security headers.
 *   completion     one access-log line, free.
 * The number of requests in flight is counted so that dlp_server_stop can
 * stop accepting, let them finish, and only then close the daemon.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "serve/serve.h"
#include "util/util.h"

double dlp__serve_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- per-request state ---------------------------------------------------------- */

enum { BODY_RAW = 0, BODY_MULTIPART = 1 };

typedef struct {
    char *name, *filename;     /* filename NULL for a plain field            */
    char *data;
    size_t len, cap;
} field_t;

struct conn_req {
    dlp_server *s;
    double t0;
    char method[16];
    char path[160];            /* for the log: printable, truncated          */
    char *url;                 /* for routing                                  */
    char client[64];
    int kind;
    struct MHD_PostProcessor *pp;
    char *raw;                 /* BODY_RAW bytes                               */
    size_t raw_len, raw_cap;
    field_t *fields;
    int n_fields, cap_fields;
    size_t total;              /* body bytes received                          */
    size_t held;               /* of them counted in s->buffered               */
    int err_status, retry_after;
    char err_msg[256];
    dlp_server_response early; /* a 404/405 decided from the headers alone  */
    int responded;             /* a response is queued                         */
    int status;                /* what was sent, for the log                  */
    size_t bytes;
};

static void req_set_error(struct conn_req *r, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void req_set_error(struct conn_req *r, int status, const char *fmt, ...) {
    if (r->err_status) return;   /* the first error is the one to report */
    r->err_status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err_msg, sizeof r->err_msg, fmt, ap);
    va_end(ap);
}

/* Drop body bytes held in memory (after an error nothing more is kept). */
static void req_release(struct conn_req *r) {
    for (int i = 0; i < r->n_fields; i++) {
        free(r->fields[i].name);
        free(r->fields[i].filename);
        free(r->fields[i].data);
    }
    free(r->fields);
    r->fields = NULL;
    r->n_fields = r->cap_fields = 0;
    free(r->raw);
    r->raw = NULL;
    r->raw_len = r->raw_cap = 0;
    atomic_fetch_sub(&r->s->buffered, r->held);
    r->held = 0;
}

static void req_free(struct conn_req *r) {
    if (!r) return;
    if (r->pp) MHD_destroy_post_processor(r->pp);
    dlp_server_response_free(&r->early);
    req_release(r);
    free(r->url);
    free(r);
}

/* Append n bytes to a growable buffer, doubling (amortised O(1)). */
static int buf_append(char **buf, size_t *len, size_t *cap, const char *data, size_t n) {
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap : 4096;
        while (c < *len + n + 1) c *= 2;
        char *b = realloc(*buf, c);
        if (!b) return -1;
        *buf = b;
        *cap = c;
    }
    if (n) memcpy(*buf + *len, data, n);
    *len += n;
    (*buf)[*len] = 0;
    return 0;
}

/* The client's address, for the log. */
static void client_addr(struct MHD_Connection *con, char *out, size_t n) {
    snprintf(out, n, "-");
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(con, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!ci || !ci->client_addr) return;
    const struct sockaddr *sa = ci->client_addr;
    if (sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, out, (socklen_t)n);
    else if (sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, out, (socklen_t)n);
}

/* Printable copy for the log: a request path must not be able to forge log
 * lines (control characters) or flood them (length). */
static void log_safe(char *out, size_t n, const char *s) {
    size_t i = 0;
    for (; s && *s && i + 4 < n; s++) out[i++] = (*s >= 0x20 && *s < 0x7f) ? *s : '?';
    if (s && *s) out[i++] = '.', out[i++] = '.', out[i++] = '.';
    out[i] = 0;
}

/* ---- multipart fields ---------------------------------------------------------- */

/* Only a file named 'model' is binary and may be large; everything else is
 * a small text field. */
static int is_model_file(const field_t *f) { return f->filename && !strcmp(f->name, "model"); }

static enum MHD_Result post_iter(void *cls, enum MHD_ValueKind kind, const char *key, const char *filename,
                                 const char *content_type, const char *transfer_encoding, const char *data,
                                 uint64_t off, size_t size) {
    struct conn_req *r = cls;
    (void)kind, (void)content_type, (void)transfer_encoding;
    if (r->err_status) return MHD_YES;
    if (!key) key = "";
    field_t *f = r->n_fields ? &r->fields[r->n_fields - 1] : NULL;
    /* a new value starts at offset 0; an empty first call of the same key is
     * followed by its data, also at offset 0 */
    if (!f || strcmp(f->name, key) || (off == 0 && f->len > 0)) {
        if (r->n_fields >= DLP__SERVE_MAX_FIELDS) {
            req_set_error(r, 400, "malformed form: more than %d fields", DLP__SERVE_MAX_FIELDS);
            return MHD_YES;
        }
        if (dlp__grow((void **)&r->fields, r->n_fields, &r->cap_fields, sizeof *r->fields)) {
            req_set_error(r, 500, "out of memory");
            return MHD_YES;
        }
        f = &r->fields[r->n_fields++];
        memset(f, 0, sizeof *f);
        size_t kl = strlen(key) + 1;
        f->name = malloc(kl);
        if (f->name) memcpy(f->name, key, kl);
        if (filename) {
            size_t fl = strlen(filename) + 1;
            f->filename = malloc(fl);
            if (f->filename) memcpy(f->filename, filename, fl);
        }
        if (!f->name || (filename && !f->filename)) {
            req_set_error(r, 500, "out of memory");
            return MHD_YES;
        }
    }
    if (!is_model_file(f) && f->len + size > DLP__SERVE_MAX_FIELD) {
        req_set_error(r, 413, "form field '%.64s' is longer than %zu bytes", key, (size_t)DLP__SERVE_MAX_FIELD);
        return MHD_YES;
    }
    if (buf_append(&f->data, &f->len, &f->cap, data, size)) req_set_error(r, 500, "out of memory");
    return MHD_YES;
}

/* Upload file name as the model's name: base name, harmless characters. */
static void safe_name(char *out, size_t n, const char *fn) {
    const char *b = fn;
    for (const char *p = fn; *p; p++)
        if (*p == '/' || *p == '\\') b = p + 1;
    size_t i = 0;
    for (; *b && i + 1 < n; b++) {
        unsigned char c = (unsigned char)*b;
        out[i++] = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' ||
                           c == '-' || c == '_' || c == '+'
                       ? (char)c
                       : '_';
    }
    out[i] = 0;
    if (!i) snprintf(out, n, "upload.onnx");
}

/* Multipart fields -> params object + the 'model' file. */
static cJSON *fields_to_params(struct conn_req *r, dlp__serve_input *in, char *name, size_t name_sz) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return req_set_error(r, 500, "out of memory"), NULL;
    for (int i = 0; i < r->n_fields; i++) {
        field_t *f = &r->fields[i];
        if (is_model_file(f)) {
            if (in->file) goto dup;
            in->file = f->data ? f->data : "";
            in->file_len = f->len;
            safe_name(name, name_sz, f->filename);
            in->file_name = name;
            continue;
        }
        if (cJSON_GetObjectItemCaseSensitive(o, f->name)) goto dup;
        if (f->len && memchr(f->data, 0, f->len)) {
            req_set_error(r, 400, "form field '%.64s' is not text (contains a NUL byte)", f->name);
            cJSON_Delete(o);
            return NULL;
        }
        if (!cJSON_AddStringToObject(o, f->name, f->data ? f->data : "")) {
            req_set_error(r, 500, "out of memory");
            cJSON_Delete(o);
            return NULL;
        }
        continue;
    dup:
        req_set_error(r, 400, "malformed form: field '%.64s' given twice", f->name);
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* Query arguments (GET) -> params object. */
typedef struct {
    cJSON *o;
    const char *bad;
    char key[64];
} args_t;

static enum MHD_Result add_arg(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    args_t *a = cls;
    (void)kind;
    if (a->bad) return MHD_NO;
    if (!key || !*key) a->bad = "empty field name";
    else if (cJSON_GetObjectItemCaseSensitive(a->o, key)) a->bad = "field given twice";
    else if (cJSON_GetArraySize(a->o) >= DLP__SERVE_MAX_FIELDS) a->bad = "too many fields";
    else if (!cJSON_AddStringToObject(a->o, key, value ? value : "")) a->bad = "out of memory";
    if (a->bad) snprintf(a->key, sizeof a->key, "%s", key ? key : "");
    return a->bad ? MHD_NO : MHD_YES;
}

/* ---- responses ----------------------------------------------------------------------- */

/* Send resp (its body is handed to libmicrohttpd, which frees it). */
static enum MHD_Result send_response(struct MHD_Connection *con, struct conn_req *r, dlp_server_response *resp) {
    struct MHD_Response *mr = MHD_create_response_from_buffer(resp->len, resp->body, MHD_RESPMEM_MUST_FREE);
    if (!mr) {
        dlp_server_response_free(resp);
        return MHD_NO;
    }
    resp->body = NULL;
    int html = !strncmp(resp->content_type, "text/html", 9);
    MHD_add_response_header(mr, MHD_HTTP_HEADER_CONTENT_TYPE, resp->content_type);
    /* answers are computed per request; a cache would show stale numbers */
    MHD_add_response_header(mr, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    MHD_add_response_header(mr, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(mr, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(mr, "X-Frame-Options", "DENY");
    /* the page needs its own inline script and style and talks only to this
     * origin; every other answer (JSON, the SVG opened on its own) may run
     * nothing at all */
    MHD_add_response_header(mr, "Content-Security-Policy",
                            html ? "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                                   "img-src data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
                                   "frame-ancestors 'none'"
                                 : "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
    if (resp->allow) MHD_add_response_header(mr, MHD_HTTP_HEADER_ALLOW, resp->allow);
    if (resp->retry_after_s > 0) {
        char ra[16];
        snprintf(ra, sizeof ra, "%d", resp->retry_after_s);
        MHD_add_response_header(mr, MHD_HTTP_HEADER_RETRY_AFTER, ra);
    }
    enum MHD_Result ret = MHD_queue_response(con, (unsigned)resp->status, mr);
    MHD_destroy_response(mr);
    r->responded = 1;
    r->status = resp->status;
    r->bytes = resp->len;
    return ret;
}

static enum MHD_Result send_error(struct MHD_Connection *con, struct conn_req *r) {
    if (r->early.body) {
        dlp_server_response e = r->early;
        memset(&r->early, 0, sizeof r->early);
        return send_response(con, r, &e);
    }
    dlp_server_response resp;
    memset(&resp, 0, sizeof resp);
    dlp__serve_error(&resp, r->err_status, "%s", r->err_msg);
    resp.retry_after_s = r->retry_after;
    return send_response(con, r, &resp);
}

/* ---- the access handler ----------------------------------------------------------------- */

static int is_get(const char *m) { return !strcmp(m, "GET") || !strcmp(m, "HEAD"); }

/* First callback: headers are in, no body yet. */
static enum MHD_Result on_headers(dlp_server *s, struct MHD_Connection *con, const char *url, const char *method,
                                  struct conn_req *r) {
    /* a declared body over the cap is refused before it is read: reading
     * gigabytes to throw them away is what the cap is meant to prevent
     * (clients sending large bodies wait for "100 Continue" and get this
     * answer instead) */
    const char *cl = MHD_lookup_connection_value(con, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    int too_big = 0;
    if (cl) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(cl, &end, 10);
        too_big = errno || *end || n > s->o.max_upload_bytes;
    }
    dlp_server_response resp;
    memset(&resp, 0, sizeof resp);
    if (dlp__serve_route_check(method, url, &resp)) {
        if (too_big) return send_response(con, r, &resp);
        /* otherwise sent once the body is in (and discarded): an answer sent
         * before the body is read makes the kernel reset the connection
         * under a client still sending, and the client never sees it */
        r->early = resp;
        r->err_status = resp.status;
        return MHD_YES;
    }
    if (too_big) {
        req_set_error(r, 413, "request body of %s bytes is over the %zu-byte limit (--max-upload)", cl,
                      s->o.max_upload_bytes);
        return send_error(con, r);
    }
    if (is_get(method)) return MHD_YES;
    const char *ct = MHD_lookup_connection_value(con, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    if (ct && !strncasecmp(ct, "multipart/form-data", 19)) {
        r->kind = BODY_MULTIPART;
        /* 64 KiB: the post processor's buffer for one field name/header */
        r->pp = MHD_create_post_processor(con, 64 * 1024, post_iter, r);
        if (!r->pp) {
            req_set_error(r, 400, "malformed multipart/form-data Content-Type (no boundary?)");
            return MHD_YES;   /* answered after the body, as above */
        }
    } else if (ct && *ct && strncasecmp(ct, "application/json", 16) &&
               strncasecmp(ct, "application/x-www-form-urlencoded", 33)) {
        req_set_error(r, 415,
                      "unsupported Content-Type '%.64s': send application/json, multipart/form-data or "
                      "application/x-www-form-urlencoded",
                      ct);
    }
    return MHD_YES;
}

/* A chunk of body. */
static enum MHD_Result on_data(dlp_server *s, struct conn_req *r, const char *data, size_t n) {
    if (dlp__serve_now() - r->t0 > s->o.timeout_s) return MHD_NO;   /* slow client: cut off */
    r->total += n;
    if (r->err_status) {
        /* swallow what the client still sends so that it can read the answer,
         * but not forever */
        return r->total > 2 * s->o.max_upload_bytes ? MHD_NO : MHD_YES;
    }
    if (r->total > s->o.max_upload_bytes) {
        /* chunked upload without a Content-Length, found too big on the way */
        req_set_error(r, 413, "request body is over the %zu-byte limit (--max-upload)", s->o.max_upload_bytes);
        req_release(r);
        return MHD_YES;
    }
    size_t now_held = atomic_fetch_add(&s->buffered, n) + n;
    r->held += n;
    if (now_held > s->max_buffered) {
        req_set_error(r, 503, "server busy: too many uploads in memory at once; retry shortly");
        r->retry_after = 2;
        req_release(r);
        return MHD_YES;
    }
    if (r->kind == BODY_MULTIPART) {
        if (MHD_post_process(r->pp, data, n) != MHD_YES) req_set_error(r, 400, "malformed multipart/form-data body");
    } else if (buf_append(&r->raw, &r->raw_len, &r->raw_cap, data, n)) {
        req_set_error(r, 500, "out of memory");
    }
    if (r->err_status) req_release(r);
    return MHD_YES;
}

/* Last callback: the whole request is in. */
static enum MHD_Result on_complete_request(dlp_server *s, struct MHD_Connection *con, const char *method,
                                           struct conn_req *r) {
    if (r->err_status) return send_error(con, r);
    dlp__serve_input in = {NULL, NULL, 0, NULL};
    char name[128];
    char msg[256] = "";
    if (is_get(method)) {
        args_t a = {cJSON_CreateObject(), NULL, ""};
        if (!a.o) req_set_error(r, 500, "out of memory");
        else MHD_get_connection_values(con, MHD_GET_ARGUMENT_KIND, add_arg, &a);
        if (a.bad) req_set_error(r, 400, "malformed query: %s ('%s')", a.bad, a.key);
        if (a.bad || !a.o) cJSON_Delete(a.o);
        else in.params = a.o;
    } else if (r->kind == BODY_MULTIPART) {
        /* NO here means the body ended inside a part (truncated upload) */
        enum MHD_Result ok = MHD_destroy_post_processor(r->pp);
        r->pp = NULL;
        if (ok != MHD_YES) req_set_error(r, 400, "malformed multipart/form-data body (truncated?)");
        else in.params = fields_to_params(r, &in, name, sizeof name);
    } else {
        const char *ct = MHD_lookup_connection_value(con, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
        size_t k = 0;
        while (k < r->raw_len && (r->raw[k] == ' ' || r->raw[k] == '\t' || r->raw[k] == '\r' || r->raw[k] == '\n'))
            k++;
        /* `curl -d '{...}'` labels JSON as a form: the first byte decides */
        if (ct && !strncasecmp(ct, "application/x-www-form-urlencoded", 33) && !(k < r->raw_len && r->raw[k] == '{'))
            in.params = dlp__serve_parse_urlencoded(r->raw ? r->raw : "", r->raw_len, msg, sizeof msg);
        else
            in.params = dlp__serve_parse_json_body(r->raw ? r->raw : "", r->raw_len, msg, sizeof msg);
        if (!in.params) req_set_error(r, 400, "%s", msg);
    }
    if (r->err_status) {
        cJSON_Delete(in.params);
        return send_error(con, r);
    }
    dlp_server_response resp;
    memset(&resp, 0, sizeof resp);
    dlp__serve_dispatch(s, method, r->url, &in, &resp);
    cJSON_Delete(in.params);
    req_release(r);   /* the upload is not needed once answered */
    return send_response(con, r, &resp);
}

static enum MHD_Result on_access(void *cls, struct MHD_Connection *con, const char *url, const char *method,
                                 const char *version, const char *upload_data, size_t *upload_data_size,
                                 void **con_cls) {
    dlp_server *s = cls;
    struct conn_req *r = *con_cls;
    (void)version;
    if (!r) {
        r = calloc(1, sizeof *r);
        if (!r) return MHD_NO;
        size_t ul = strlen(url) + 1;
        r->url = malloc(ul);
        if (!r->url) {
            free(r);
            return MHD_NO;
        }
        memcpy(r->url, url, ul);
        r->s = s;
        r->t0 = dlp__serve_now();
        log_safe(r->method, sizeof r->method, method);
        log_safe(r->path, sizeof r->path, url);
        client_addr(con, r->client, sizeof r->client);
        atomic_fetch_add(&s->active, 1);
        *con_cls = r;
        return on_headers(s, con, url, method, r);
    }
    if (r->responded) {
        /* answered early: discard whatever body still arrives */
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (*upload_data_size) {
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        return on_data(s, r, upload_data, n);
    }
    return on_complete_request(s, con, method, r);
}

/* Completion: the access-log line, then free. */
static void on_completed(void *cls, struct MHD_Connection *con, void **con_cls,
                         enum MHD_RequestTerminationCode toe) {
    dlp_server *s = cls;
    struct conn_req *r = *con_cls;
    (void)con;
    if (!r) return;
    *con_cls = NULL;
    if (s->o.log && !s->o.quiet) {
        static const char *const why[] = {"", " (client error)", " (timeout)", " (server shutdown)",
                                          " (read error)", " (client closed)"};
        char when[32], st[8], line[400];
        time_t t = time(NULL);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
        if (r->status) snprintf(st, sizeof st, "%d", r->status);
        else snprintf(st, sizeof st, "-");
        snprintf(line, sizeof line, "%s %s %s %s %s %zuB %.2fms%s", when, r->client, r->method, r->path, st,
                 r->bytes, (dlp__serve_now() - r->t0) * 1e3,
                 (unsigned)toe < sizeof why / sizeof why[0] ? why[toe] : " (aborted)");
        s->o.log(s->o.log_user, line);
    }
    req_free(r);
    atomic_fetch_sub(&s->active, 1);
}

/* libmicrohttpd's own messages (bad requests it rejects itself, resource
 * limits): through the same callback, even when quiet. */
static void mhd_log(void *cls, const char *fmt, va_list ap) {
    dlp_server *s = cls;
    if (!s->o.log) return;
    char msg[512], line[540];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r')) msg[--n] = 0;
    snprintf(line, sizeof line, "microhttpd: %s", msg);
    s->o.log(s->o.log_user, line);
}

/* ---- start / stop ------------------------------------------------------------------------ */

/* Bind and listen ourselves (rather than letting libmicrohttpd do it) so
 * that host names and IPv6 work and a failure names the address and the
 * reason. */
static dlp_status open_listener(dlp_server *s, int *ipv6, dlp_error *err) {
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    char port[8];
    snprintf(port, sizeof port, "%d", s->o.port);
    int gai = getaddrinfo(s->bind, port, &hints, &res);
    if (gai) return dlp__err(err, DLP_EINVAL, "serve: cannot use bind address '%s': %s", s->bind, gai_strerror(gai));
    int fd = -1, e = 0;
    for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            e = errno;
            continue;
        }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 128)) {
            e = errno;
            close(fd);
            fd = -1;
            continue;
        }
        *ipv6 = ai->ai_family == AF_INET6;
    }
    freeaddrinfo(res);
    if (fd < 0)
        return dlp__err(err, DLP_EIO, "serve: cannot listen on %s port %d: %s", s->bind, s->o.port,
                        strerror(e ? e : EADDRNOTAVAIL));
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    if (!getsockname(fd, (struct sockaddr *)&ss, &sl))
        s->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                                 : ((struct sockaddr_in *)&ss)->sin_port);
    s->listen_fd = fd;
    return DLP_OK;
}

dlp_status dlp_server_start(const dlp_server_opts *opts, dlp_server **out, dlp_error *err) {
    if (!out) return dlp__err(err, DLP_EINVAL, "dlp_server_start: NULL out");
    *out = NULL;
    dlp_server_opts o;
    if (opts) o = *opts;
    else memset(&o, 0, sizeof o);
    if (o.port < 0 || o.port > 65535) return dlp__err(err, DLP_EINVAL, "serve: port %d is not 0 .. 65535", o.port);
    if (o.threads < 0 || o.threads > 1024)
        return dlp__err(err, DLP_EINVAL, "serve: %d threads is not 1 .. 1024", o.threads);
    if (o.max_parses < 0 || o.max_parses > 1024)
        return dlp__err(err, DLP_EINVAL, "serve: max parses %d is not 1 .. 1024", o.max_parses);
    if (o.timeout_s < 0 || o.timeout_s > 86400)
        return dlp__err(err, DLP_EINVAL, "serve: timeout %d s is not 1 .. 86400", o.timeout_s);
    if (!o.threads) o.threads = DLP__SERVE_THREADS;
    if (!o.max_parses) o.max_parses = o.threads;
    if (!o.max_upload_bytes) o.max_upload_bytes = DLP__SERVE_MAX_UPLOAD;
    if (!o.timeout_s) o.timeout_s = DLP__SERVE_TIMEOUT_S;

    dlp_server *s = calloc(1, sizeof *s);
    if (!s) return dlp__err(err, DLP_ENOMEM, "serve: out of memory");
    snprintf(s->bind, sizeof s->bind, "%s", o.bind && *o.bind ? o.bind : "127.0.0.1");
    o.bind = s->bind;
    s->o = o;
    s->listen_fd = -1;
    s->t_start = dlp__serve_now();
    s->max_buffered = o.max_upload_bytes > SIZE_MAX / 4 ? SIZE_MAX : 4 * o.max_upload_bytes;
    atomic_init(&s->active, 0);
    atomic_init(&s->buffered, 0);
    if (sem_init(&s->parses, 0, (unsigned)o.max_parses)) {
        free(s);
        return dlp__err(err, DLP_EINTERNAL, "serve: sem_init: %s", strerror(errno));
    }
    dlp_status st = dlp_devdb_load(NULL, &s->db, err);
    /* builds the catalogues and, through them, loads the shipped LLM models
     * now rather than inside the first request */
    if (!st) st = dlp__serve_build_catalogues(s, err);
    int ipv6 = 0;
    if (!st && !o.no_listen) st = open_listener(s, &ipv6, err);
    if (!st && !o.no_listen) {
        /* AUTO picks epoll on Linux; ITC lets dlp_server_stop quiesce */
        unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG | (ipv6 ? MHD_USE_IPv6 : 0);
        unsigned conn_limit = DLP__SERVE_MAX_CONNECTIONS;
        if (conn_limit < (unsigned)o.threads * 4) conn_limit = (unsigned)o.threads * 4;
        s->mhd = MHD_start_daemon(flags, (uint16_t)s->port, NULL, NULL, on_access, s,
                                  /* first, or MHD's default logger prints to stderr */
                                  MHD_OPTION_EXTERNAL_LOGGER, mhd_log, s,
                                  MHD_OPTION_LISTEN_SOCKET, (MHD_socket)s->listen_fd,
                                  MHD_OPTION_THREAD_POOL_SIZE, (unsigned)o.threads,
                                  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)o.timeout_s,
                                  /* headers + read buffer per connection; bodies are ours */
                                  MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
                                  MHD_OPTION_CONNECTION_LIMIT, conn_limit,
                                  MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
                                  MHD_OPTION_END);
        if (!s->mhd) st = dlp__err(err, DLP_EIO, "serve: cannot start the HTTP daemon on %s port %d", s->bind, s->port);
    }
    if (st) {
        if (s->listen_fd >= 0) close(s->listen_fd);
        s->listen_fd = -1;
        s->mhd = NULL;
        dlp_server_stop(s);
        return st;
    }
    *out = s;
    return DLP_OK;
}

int dlp_server_port(const dlp_server *s) { return s && s->mhd ? s->port : 0; }

void dlp_server_stop(dlp_server *s) {
    if (!s) return;
    if (s->mhd) {
        /* 1. stop accepting: the listening socket comes back to us, and
         * closing it now makes new connections fail at once instead of
         * queueing in the backlog unanswered */
        MHD_socket ls = MHD_quiesce_daemon(s->mhd);
        if (ls != MHD_INVALID_SOCKET) close(ls);
        /* 2. requests already being served finish (bounded by the timeout) */
        double deadline = dlp__serve_now() + s->o.timeout_s;
        while (atomic_load(&s->active) > 0 && dlp__serve_now() < deadline) {
            struct timespec ts = {0, 5 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        /* 3. close idle keep-alive connections and join the threads */
        MHD_stop_daemon(s->mhd);
        s->mhd = NULL;
    }
    sem_destroy(&s->parses);
    dlp_devdb_free(s->db);
    free(s->devices_json);
    free(s->models_json);
    free(s);
}
