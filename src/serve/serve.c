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
 * The number of requests in flight is counted so that dlp_server_free can
 * stop accepting, let them finish, and only then close the daemon.
 *
 * Around the requests, the connections (docs/serve.md, "Limits"): our own
 * thread accepts and hands each socket to libmicrohttpd's poll workers;
 * every connection is tracked from accept to close, shed with a 503 over the
 * caps, and cut with a 408 past its header or whole-request deadline by a
 * reaper thread.  libmicrohttpd's own HTML error pages are replaced by JSON
 * answers (on_mhd_error, through the hooks of mhd_shim.c).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "serve/serve.h"
#include "util/util.h"

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
    char err_msg[640];
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
    dlp_server_response_clear(&r->early);
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

/* ---- connections: deadlines and caps --------------------------------------------
 *
 * libmicrohttpd 0.9.75 has only an idle timeout, which never fires while a
 * client trickles one header line every few seconds, and its connection
 * limit stops accepting altogether (new clients then wait in the listen
 * backlog until they time out).  So every connection is tracked here from
 * accept to close (MHD_OPTION_NOTIFY_CONNECTION) and:
 *   - a connection over --max-connections, or over --max-per-ip for its
 *     address, is answered a JSON 503 the moment it is accepted and closed
 *     (the ones already open keep being served);
 *   - a reaper thread closes a connection whose request line and headers are
 *     not all in --header-timeout seconds after it opened (or after the
 *     previous response, on a keep-alive connection), and one whose whole
 *     request is not in --timeout seconds, answering a JSON 408 first when
 *     the client is in the middle of a request.
 * libmicrohttpd owns the sockets; we only write a complete answer to one it
 * has not written to and shutdown(2) it, which makes libmicrohttpd see the
 * end of the stream and close it itself.  The fd stays valid meanwhile:
 * libmicrohttpd tells us a connection is closed (and we unlink it under
 * conn_lock) before it closes the fd. */

enum { CUT_NONE, CUT_SHED, CUT_HEADERS, CUT_REQUEST };

struct dlp__conn {
    struct dlp__conn *prev, *next;
    dlp_server *s;
    int fd;
    unsigned char ip[16];
    int iplen;                 /* 0: address unknown (no per-address cap)     */
    char client[64];
    /* guarded by s->conn_lock: */
    double t_mark;             /* accept, or the end of the previous response */
    int in_request;            /* headers are in: the whole-request deadline  */
    int got_line;              /* the request line of this request is in      */
    int requests;              /* answered on this connection                 */
    int responded;             /* a response is queued for this request       */
    int cut;                   /* CUT_*: closed by us, and why                 */
};

struct dlp__ipcount {
    struct dlp__ipcount *next;
    unsigned char ip[16];
    int len, n;
};

static struct dlp__conn *conn_of(struct MHD_Connection *con) {
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(con, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

/* The count of this address, created at 0 when absent (NULL: out of memory). */
static struct dlp__ipcount *ip_count(dlp_server *s, const unsigned char *ip, int len, int create) {
    unsigned h = 2166136261u;
    for (int i = 0; i < len; i++) h = (h ^ ip[i]) * 16777619u;
    struct dlp__ipcount **b = &s->ips[h % DLP__SERVE_IP_BUCKETS], *e;
    for (e = *b; e; e = e->next)
        if (e->len == len && !memcmp(e->ip, ip, (size_t)len)) return e;
    if (!create || !(e = calloc(1, sizeof *e))) return NULL;
    memcpy(e->ip, ip, (size_t)len);
    e->len = len;
    e->next = *b;
    *b = e;
    return e;
}

static void ip_release(dlp_server *s, const unsigned char *ip, int len) {
    unsigned h = 2166136261u;
    for (int i = 0; i < len; i++) h = (h ^ ip[i]) * 16777619u;
    for (struct dlp__ipcount **b = &s->ips[h % DLP__SERVE_IP_BUCKETS]; *b; b = &(*b)->next)
        if ((*b)->len == len && !memcmp((*b)->ip, ip, (size_t)len)) {
            if (--(*b)->n <= 0) {
                struct dlp__ipcount *e = *b;
                *b = e->next;
                free(e);
            }
            return;
        }
}

/* A whole HTTP answer written straight to a socket libmicrohttpd has not
 * written to: {"error": msg}, then the connection is to be closed.  msg is
 * ours (ASCII, no quotes).  Non-blocking; a fresh socket's send buffer
 * always has room for these few hundred bytes. */
static void raw_answer(int fd, int status, const char *reason, int retry_after, const char *msg) {
    char body[400], buf[900], ra[32] = "";
    int bl = snprintf(body, sizeof body, "{\"error\":\"%s\"}", msg);
    if (bl < 0 || bl >= (int)sizeof body) return;
    if (retry_after > 0) snprintf(ra, sizeof ra, "Retry-After: %d\r\n", retry_after);
    int n = snprintf(buf, sizeof buf,
                     "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                     "Connection: close\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n%s\r\n%s",
                     status, reason, bl, ra, body);
    if (n > 0 && n < (int)sizeof buf && fd >= 0) {
        ssize_t w = send(fd, buf, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
        (void)w;   /* a client that is gone needs no answer */
    }
}

static void log_line(dlp_server *s, const char *client, const char *method, const char *path, const char *status,
                     size_t bytes, double ms, const char *why) {
    if (!s->o.log || s->o.quiet) return;
    char when[32], line[400];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(line, sizeof line, "%s %s %s %s %s %zuB %.2fms%s", when, client, method, path, status, bytes, ms, why);
    s->o.log(s->o.log_user, line);
}

/* Close c for its deadline (conn_lock held); 1 if an answer was written. */
static int conn_cut_locked(dlp_server *s, struct dlp__conn *c, int why) {
    int answered = 0;
    char msg[160];
    if (why == CUT_HEADERS && (c->got_line || !c->requests)) {
        /* a client in the middle of a request (or one that never sent one)
         * is told why; an idle keep-alive connection is simply closed */
        snprintf(msg, sizeof msg, "request line and headers not received within %d s (--header-timeout)",
                 s->o.header_timeout_s);
        raw_answer(c->fd, 408, "Request Timeout", 0, msg);
        answered = 1;
    } else if (why == CUT_REQUEST && !c->responded) {
        snprintf(msg, sizeof msg, "request not received within %d s of its start (--timeout)", s->o.timeout_s);
        raw_answer(c->fd, 408, "Request Timeout", 0, msg);
        answered = 1;
    }
    c->cut = why;
    if (c->fd >= 0) shutdown(c->fd, SHUT_RDWR);
    atomic_fetch_add(&s->n_reaped, 1);
    return answered;
}

static void *reaper_main(void *arg) {
    dlp_server *s = arg;
    pthread_mutex_lock(&s->conn_lock);
    while (!s->reaper_stop) {
        double now = dlp__now_s();
        struct {
            char client[64];
            double ms;
        } cut[32];
        int n_cut = 0, more = 0;
        for (struct dlp__conn *c = s->conns; c; c = c->next) {
            if (c->cut) continue;
            int hdr = !c->in_request;
            if (now - c->t_mark <= (hdr ? s->o.header_timeout_s : s->o.timeout_s)) continue;
            /* a request cut in its body is logged when libmicrohttpd ends it */
            if (conn_cut_locked(s, c, hdr ? CUT_HEADERS : CUT_REQUEST) && hdr) {
                if (n_cut < 32) {
                    memcpy(cut[n_cut].client, c->client, sizeof c->client);
                    cut[n_cut++].ms = (now - c->t_mark) * 1e3;
                } else {
                    more++;
                }
            }
        }
        pthread_mutex_unlock(&s->conn_lock);
        for (int i = 0; i < n_cut; i++) log_line(s, cut[i].client, "-", "-", "408", 0, cut[i].ms, " (header timeout)");
        if (more && s->o.log && !s->o.quiet) {
            char line[96];
            snprintf(line, sizeof line, "... and %d more connections closed for their header timeout", more);
            s->o.log(s->o.log_user, line);
        }
        pthread_mutex_lock(&s->conn_lock);
        if (s->reaper_stop) break;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += 100 * 1000 * 1000;   /* deadlines are kept to 0.1 s */
        if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&s->reaper_wake, &s->conn_lock, &ts);
    }
    pthread_mutex_unlock(&s->conn_lock);
    return NULL;
}

static void on_connection(void *cls, struct MHD_Connection *con, void **socket_context,
                          enum MHD_ConnectionNotificationCode code) {
    dlp_server *s = cls;
    struct dlp__conn *c = *socket_context;
    if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        if (!c) return;
        pthread_mutex_lock(&s->conn_lock);
        if (c->prev) c->prev->next = c->next;
        else s->conns = c->next;
        if (c->next) c->next->prev = c->prev;
        atomic_fetch_sub(&s->n_conns, 1);
        if (c->iplen) ip_release(s, c->ip, c->iplen);
        pthread_mutex_unlock(&s->conn_lock);
        *socket_context = NULL;
        free(c);
        return;
    }
    if (code != MHD_CONNECTION_NOTIFY_STARTED || c) return;
    /* untracked when out of memory: libmicrohttpd's own limits still hold */
    if (!(c = calloc(1, sizeof *c))) return;
    const union MHD_ConnectionInfo *fi = MHD_get_connection_info(con, MHD_CONNECTION_INFO_CONNECTION_FD);
    c->fd = fi ? fi->connect_fd : -1;
    c->s = s;
    client_addr(con, c->client, sizeof c->client);
    const union MHD_ConnectionInfo *ai = MHD_get_connection_info(con, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (ai && ai->client_addr && ai->client_addr->sa_family == AF_INET) {
        memcpy(c->ip, &((const struct sockaddr_in *)(const void *)ai->client_addr)->sin_addr, 4);
        c->iplen = 4;
    } else if (ai && ai->client_addr && ai->client_addr->sa_family == AF_INET6) {
        memcpy(c->ip, &((const struct sockaddr_in6 *)(const void *)ai->client_addr)->sin6_addr, 16);
        c->iplen = 16;
    }
    c->t_mark = dlp__now_s();
    char msg[200] = "";
    pthread_mutex_lock(&s->conn_lock);
    int n = atomic_fetch_add(&s->n_conns, 1) + 1, n_ip = 0;
    if (c->iplen) {
        struct dlp__ipcount *e = ip_count(s, c->ip, c->iplen, 1);
        if (e) n_ip = ++e->n;
        else c->iplen = 0;
    }
    if (n > s->o.max_connections)
        snprintf(msg, sizeof msg, "server busy: %d connections open (--max-connections %d); retry shortly", n - 1,
                 s->o.max_connections);
    else if (s->o.max_per_ip > 0 && n_ip > s->o.max_per_ip)
        snprintf(msg, sizeof msg, "too many connections from %s: %d open (--max-per-ip %d); retry shortly", c->client,
                 n_ip - 1, s->o.max_per_ip);
    if (*msg) {
        c->cut = CUT_SHED;
        raw_answer(c->fd, 503, "Service Unavailable", 1, msg);
        if (c->fd >= 0) shutdown(c->fd, SHUT_RDWR);
        atomic_fetch_add(&s->n_shed, 1);
    }
    c->next = s->conns;
    if (s->conns) s->conns->prev = c;
    s->conns = c;
    pthread_mutex_unlock(&s->conn_lock);
    *socket_context = c;
    if (*msg)
        log_line(s, c->client, "-", "-", "503", 0, 0,
                 n > s->o.max_connections ? " (shed: --max-connections)" : " (shed: --max-per-ip)");
}

/* libmicrohttpd is about to send one of its own HTML error pages (see
 * mhd_shim.c): the same status with a JSON body instead, then the connection
 * is closed. */
static const struct {
    const char *has, *json;
} mhd_errors[] = {
    {"too big for the memory", "request line and headers are too large (at most 64 KiB in all)"},
    {"Host:", "an HTTP/1.1 request needs a Host header"},
    {"chunked encoding", "malformed chunked transfer encoding in the request body"},
    {"chunk size", "a chunk of the chunked request body is too large"},
    {"too large value for <b>Content-Length", "the Content-Length header is too large"},
    {"wrong value for <b>Content-Length", "malformed Content-Length header (a decimal byte count is expected)"},
    {"too old", "HTTP version not supported: use HTTP/1.1 (or 1.0)"},
    {"version is not supported", "HTTP version not supported: use HTTP/1.1 (or 1.0)"},
    {"syntactically incorrect", "malformed HTTP request"},
    {"Internal server error", "internal server error"},
};

static int on_mhd_error(struct MHD_Connection *con, unsigned int status, const char *html, size_t len) {
    const char *msg = status == 413 ? "request too large" : status >= 500 ? "server error" : "malformed HTTP request";
    char text[256];
    size_t n = len < sizeof text - 1 ? len : sizeof text - 1;
    memcpy(text, html, n);
    text[n] = 0;
    for (size_t i = 0; i < sizeof mhd_errors / sizeof mhd_errors[0]; i++)
        if (strstr(text, mhd_errors[i].has)) {
            msg = mhd_errors[i].json;
            break;
        }
    static const struct {
        unsigned code;
        const char *reason;
    } reasons[] = {{400, "Bad Request"}, {408, "Request Timeout"}, {413, "Content Too Large"},
                   {414, "URI Too Long"}, {431, "Request Header Fields Too Large"},
                   {500, "Internal Server Error"}, {505, "HTTP Version Not Supported"}};
    const char *reason = "Error";
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if (reasons[i].code == status) reason = reasons[i].reason;
    struct dlp__conn *c = conn_of(con);
    const union MHD_ConnectionInfo *fi = MHD_get_connection_info(con, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (!fi) return 0;   /* libmicrohttpd answers (HTML) */
    int cut = 0;
    if (c) {
        pthread_mutex_lock(&c->s->conn_lock);
        cut = c->cut;
        c->responded = 1;
        pthread_mutex_unlock(&c->s->conn_lock);
    }
    if (!cut) raw_answer(fi->connect_fd, (int)status, reason, 0, msg);
    if (c && !cut) {
        char st[8], why[200];
        snprintf(st, sizeof st, "%u", status);
        snprintf(why, sizeof why, " (%s)", msg);
        log_line(c->s, c->client, "-", "-", st, 0, 0, why);
    }
    return 1;
}

/* The request line is in (the raw URI, before the headers). */
static void *on_request_line(void *cls, const char *uri, struct MHD_Connection *con) {
    dlp_server *s = cls;
    struct dlp__conn *c = conn_of(con);
    (void)uri;
    if (c) {
        pthread_mutex_lock(&s->conn_lock);
        c->got_line = 1;
        pthread_mutex_unlock(&s->conn_lock);
    }
    return NULL;
}

static int hexval(int ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* Percent-decoding of the path and query arguments, as libmicrohttpd's own,
 * except that %00 stays as it is: a decoded NUL would end the C string and
 * make "/api/health%00.html" route as "/api/health". */
static size_t unescape(void *cls, struct MHD_Connection *con, char *str) {
    (void)cls, (void)con;
    char *w = str;
    for (const char *p = str; *p; p++) {
        int h, l;
        if (p[0] == '%' && p[1] && p[2] && (h = hexval(p[1])) >= 0 && (l = hexval(p[2])) >= 0 && (h | l)) {
            *w++ = (char)(h * 16 + l);
            p += 2;
        } else {
            *w++ = *p;
        }
    }
    *w = 0;
    return (size_t)(w - str);
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
    /* the reaper may have answered (408) and closed this connection: nothing
     * more may be written to it */
    struct dlp__conn *c = conn_of(con);
    int cut = 0;
    if (c) {
        pthread_mutex_lock(&r->s->conn_lock);
        cut = c->cut;
        if (!cut) c->responded = 1;
        pthread_mutex_unlock(&r->s->conn_lock);
    }
    if (cut) {
        dlp_server_response_clear(resp);
        return MHD_NO;
    }
    struct MHD_Response *mr = MHD_create_response_from_buffer(resp->len, resp->body, MHD_RESPMEM_MUST_FREE);
    if (!mr) {
        dlp_server_response_clear(resp);
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

static int is_multipart(struct MHD_Connection *con) {
    const char *ct = MHD_lookup_connection_value(con, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    return ct && !strncasecmp(ct, "multipart/form-data", 19);
}

/* An upload over the cap is almost always an ONNX file saved with its
 * weights, which dlperf never reads (docs/serve.md, "Uploads"). */
#define WEIGHTS_HINT                                                                                              \
    ". dlperf reads only the graph: save the model without its weights and upload that, e.g. python3 -c "        \
    "\"import onnx; onnx.save(onnx.load('model.onnx'), 'graph.onnx', save_as_external_data=True, "                 \
    "location='graph.data')\" then upload graph.onnx (graph.data may be deleted)"

/* How much of a refused body is read and dropped so that its client can
 * read the answer (an answer sent under a client still sending is reset):
 * twice the upload cap, then the connection is cut. */
static unsigned long long swallow_max(const dlp_server *s) { return 2ULL * s->o.max_upload_bytes; }

/* First callback: headers are in, no body yet. */
static enum MHD_Result on_headers(dlp_server *s, struct MHD_Connection *con, const char *url, const char *method,
                                  struct conn_req *r) {
    /* a declared body over the cap is refused before it is read: reading
     * gigabytes to throw them away is what the cap is meant to prevent
     * (clients sending large bodies wait for "100 Continue" and get this
     * answer instead) */
    const char *cl = MHD_lookup_connection_value(con, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    int too_big = 0, swallow = 0;
    if (cl) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(cl, &end, 10);
        too_big = errno || *end || n > s->o.max_upload_bytes;
        /* a client that did not ask "100 Continue" is already sending: an
         * answer now is reset under it (it sees no status at all), so a body
         * up to twice the cap is read and dropped first, as on_data does for
         * any refused body; a larger one is answered at once */
        const char *ex = MHD_lookup_connection_value(con, MHD_HEADER_KIND, MHD_HTTP_HEADER_EXPECT);
        swallow = too_big && !errno && !*end && n <= swallow_max(s) && !(ex && *ex);
    }
    dlp_server_response resp;
    memset(&resp, 0, sizeof resp);
    if (dlp__serve_route_check(method, url, &resp)) {
        if (too_big && !swallow) return send_response(con, r, &resp);
        /* otherwise sent once the body is in (and discarded): an answer sent
         * before the body is read makes the kernel reset the connection
         * under a client still sending, and the client never sees it */
        r->early = resp;
        r->err_status = resp.status;
        return MHD_YES;
    }
    if (too_big) {
        req_set_error(r, 413, "request body of %.24s bytes is over the %zu-byte limit (--max-upload)%s", cl,
                      s->o.max_upload_bytes, r->kind == BODY_MULTIPART || is_multipart(con) ? WEIGHTS_HINT : "");
        return swallow ? MHD_YES : send_error(con, r);
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
static enum MHD_Result on_data(dlp_server *s, struct MHD_Connection *con, struct conn_req *r, const char *data,
                                size_t n) {
    struct dlp__conn *c = conn_of(con);
    if (c) {
        /* the whole-request deadline, checked here too so that a body that
         * keeps arriving is cut at once rather than at the reaper's next turn */
        int cut;
        pthread_mutex_lock(&s->conn_lock);
        if (!c->cut && dlp__now_s() - c->t_mark > s->o.timeout_s) conn_cut_locked(s, c, CUT_REQUEST);
        cut = c->cut;
        pthread_mutex_unlock(&s->conn_lock);
        if (cut) return MHD_NO;
    } else if (dlp__now_s() - r->t0 > s->o.timeout_s) {
        return MHD_NO;
    }
    r->total += n;
    if (r->err_status) {
        /* swallow what the client still sends so that it can read the answer,
         * but not forever */
        return r->total > swallow_max(s) ? MHD_NO : MHD_YES;
    }
    if (r->total > s->o.max_upload_bytes) {
        /* chunked upload without a Content-Length, found too big on the way */
        req_set_error(r, 413, "request body is over the %zu-byte limit (--max-upload)%s", s->o.max_upload_bytes,
                      r->kind == BODY_MULTIPART ? WEIGHTS_HINT : "");
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
    dlp__serve_input in = {NULL, NULL, 0, NULL, 0};
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
            in.params = dlp__serve_parse_json_body(r->raw ? r->raw : "", r->raw_len, msg, sizeof msg), in.json = 1;
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
        struct dlp__conn *c = conn_of(con);
        if (c) {
            int cut;
            pthread_mutex_lock(&s->conn_lock);
            cut = c->cut;
            c->in_request = 1;
            pthread_mutex_unlock(&s->conn_lock);
            if (cut) return MHD_NO;   /* shed or past its deadline: answered already */
        }
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
        r->t0 = dlp__now_s();
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
        return on_data(s, con, r, upload_data, n);
    }
    return on_complete_request(s, con, method, r);
}

/* Completion: the access-log line, then free; the connection's deadline
 * clock starts again for its next request. */
static void on_completed(void *cls, struct MHD_Connection *con, void **con_cls,
                         enum MHD_RequestTerminationCode toe) {
    dlp_server *s = cls;
    struct conn_req *r = *con_cls;
    struct dlp__conn *c = conn_of(con);
    int timed_out = 0;
    if (c) {
        pthread_mutex_lock(&s->conn_lock);
        timed_out = c->cut == CUT_REQUEST;
        c->in_request = c->got_line = c->responded = 0;
        c->requests++;
        c->t_mark = dlp__now_s();
        pthread_mutex_unlock(&s->conn_lock);
    }
    if (!r) return;
    *con_cls = NULL;
    static const char *const why[] = {"", " (client error)", " (timeout)", " (server shutdown)",
                                      " (read error)", " (client closed)"};
    char st[8];
    if (r->status) snprintf(st, sizeof st, "%d", r->status);
    else snprintf(st, sizeof st, timed_out ? "408" : "-");
    log_line(s, r->client, r->method, r->path, st, r->bytes, (dlp__now_s() - r->t0) * 1e3,
             timed_out || toe == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED ? " (timeout)"
             : (unsigned)toe < sizeof why / sizeof why[0]              ? why[toe]
                                                                       : " (aborted)");
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
    /* what the access log already says, or the consequence of our own
     * answers (on_mhd_error, the deadlines): not worth a line */
    if (strstr(msg, "failed to queue error response") || strstr(msg, "Error processing request (HTTP response code") ||
        strstr(msg, "Connection socket is closed") || strstr(msg, "Failed to parse `Content-Length'") ||
        strstr(msg, "Too large value of 'Content-Length'"))
        return;
    snprintf(line, sizeof line, "microhttpd: %s", msg);
    s->o.log(s->o.log_user, line);
}

/* ---- accepting ---------------------------------------------------------------------------- */

/* Accept every pending connection as soon as it arrives and hand it to
 * libmicrohttpd's workers (see dlp_server_new for why not theirs). */
static void *acceptor_main(void *arg) {
    dlp_server *s = arg;
    for (;;) {
        struct pollfd pf[2] = {{s->listen_fd, POLLIN, 0}, {s->accept_wake[0], POLLIN, 0}};
        if (poll(pf, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (pf[1].revents) break;   /* stopping */
        for (;;) {
            struct sockaddr_storage ss;
            socklen_t sl = sizeof ss;
            int fd = accept4(s->listen_fd, (struct sockaddr *)&ss, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd < 0) {
                if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                    /* out of descriptors: let connections close, do not spin */
                    struct timespec ts = {0, 50 * 1000 * 1000};
                    nanosleep(&ts, NULL);
                }
                break;   /* EAGAIN: all taken; ECONNABORTED & co.: that one is gone */
            }
            /* closes fd itself when it cannot take it */
            MHD_add_connection(s->mhd, fd, (struct sockaddr *)&ss, sl);
        }
    }
    return NULL;
}

/* New connections are refused from now on (the listening socket is closed). */
static void stop_accepting(dlp_server *s) {
    if (s->acceptor_running) {
        char c = 1;
        ssize_t w = write(s->accept_wake[1], &c, 1);
        (void)w;
        pthread_join(s->acceptor, NULL);
        s->acceptor_running = 0;
    }
    if (s->listen_fd >= 0) close(s->listen_fd);
    s->listen_fd = -1;
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
        /* a long backlog: a burst of connects (wrk -c400) is queued, not
         * dropped into SYN retries */
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, SOMAXCONN)) {
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

dlp_status dlp_server_new(const dlp_server_opts *opts, dlp_server **out, dlp_error *err) {
    if (!out) return dlp__err(err, DLP_EINVAL, "dlp_server_new: NULL out");
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
    if (o.header_timeout_s < 0 || o.header_timeout_s > 86400)
        return dlp__err(err, DLP_EINVAL, "serve: header timeout %d s is not 1 .. 86400", o.header_timeout_s);
    if (o.max_connections < 0 || o.max_connections > 1000000)
        return dlp__err(err, DLP_EINVAL, "serve: max connections %d is not 1 .. 1000000", o.max_connections);
    if (o.max_per_ip < -1 || o.max_per_ip > 1000000)
        return dlp__err(err, DLP_EINVAL, "serve: max connections per address %d is not 1 .. 1000000 (or -1: none)",
                        o.max_per_ip);
    if (!o.header_timeout_s) o.header_timeout_s = DLP__SERVE_HEADER_TIMEOUT_S;
    /* the headers' deadline is part of the whole request's */
    if (o.header_timeout_s > o.timeout_s) o.header_timeout_s = o.timeout_s;
    if (!o.max_connections) o.max_connections = DLP__SERVE_MAX_CONNECTIONS;
    if (!o.max_per_ip) o.max_per_ip = o.max_connections / 2 > 0 ? o.max_connections / 2 : 1;

    dlp_server *s = calloc(1, sizeof *s);
    if (!s) return dlp__err(err, DLP_ENOMEM, "serve: out of memory");
    snprintf(s->bind, sizeof s->bind, "%s", o.bind && *o.bind ? o.bind : "127.0.0.1");
    o.bind = s->bind;
    s->o = o;
    s->listen_fd = -1;
    s->accept_wake[0] = s->accept_wake[1] = -1;
    s->t_start = dlp__now_s();
    s->max_buffered = o.max_upload_bytes > SIZE_MAX / 4 ? SIZE_MAX : 4 * o.max_upload_bytes;
    atomic_init(&s->active, 0);
    atomic_init(&s->buffered, 0);
    atomic_init(&s->n_conns, 0);
    atomic_init(&s->n_shed, 0);
    atomic_init(&s->n_reaped, 0);
    pthread_mutex_init(&s->conn_lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->reaper_wake, &ca);
    pthread_condattr_destroy(&ca);
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
        /* poll, not epoll: libmicrohttpd 0.9.75's epoll loop registers
         * client sockets without EPOLLRDHUP and misses clients that hang up,
         * which then stay open (CLOSE-WAIT) until the idle timeout and count
         * against the connection limit; after a wrk -c400 run the server
         * stopped accepting (upstream bug #7192, fixed in 1.0.0).  Each
         * worker polls only its own connections.  But a polling worker
         * accepts one connection per turn of its loop, so a burst of
         * connects waited seconds in the backlog: our own thread accepts
         * instead (acceptor_main) and hands each socket over with
         * MHD_add_connection, which needs ITC to wake the worker. */
        unsigned flags = MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC | MHD_USE_ERROR_LOG | (ipv6 ? MHD_USE_IPv6 : 0);
        /* libmicrohttpd's own limit stops accepting when reached, so it sits
         * above ours, with room for the connections being shed */
        unsigned shed_room = (unsigned)o.max_connections / 4 < 64 ? 64 : (unsigned)o.max_connections / 4;
        unsigned conn_limit = (unsigned)o.max_connections + shed_room;
        if (conn_limit < (unsigned)o.threads * 4) conn_limit = (unsigned)o.threads * 4;
        /* one descriptor per connection, plus some for the process */
        struct rlimit rl;
        if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < conn_limit + 64) {
            rlim_t want = conn_limit + 64;
            if (rl.rlim_max != RLIM_INFINITY && want > rl.rlim_max) want = rl.rlim_max;
            rl.rlim_cur = want;
            setrlimit(RLIMIT_NOFILE, &rl);
            if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < conn_limit + 64) {
                st = dlp__err(err, DLP_EINVAL,
                              "serve: %d connections (--max-connections) need %u file descriptors, and this "
                              "process may open %llu (ulimit -n): lower --max-connections",
                              o.max_connections, conn_limit + 64, (unsigned long long)rl.rlim_cur);
            }
        }
        if (!st) {
            dlp__mhd_set_error_hook(on_mhd_error);
            s->mhd = MHD_start_daemon(flags, (uint16_t)s->port, NULL, NULL, on_access, s,
                                      /* first, or MHD's default logger prints to stderr */
                                      MHD_OPTION_EXTERNAL_LOGGER, mhd_log, s,
                                      MHD_OPTION_THREAD_POOL_SIZE, (unsigned)o.threads,
                                      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)o.timeout_s,
                                      /* headers + read buffer per connection; bodies are ours */
                                      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
                                      MHD_OPTION_CONNECTION_LIMIT, conn_limit,
                                      MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
                                      MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
                                      MHD_OPTION_URI_LOG_CALLBACK, on_request_line, s,
                                      MHD_OPTION_UNESCAPE_CALLBACK, unescape, s,
                                      MHD_OPTION_END);
            if (!s->mhd) st = dlp__err(err, DLP_EIO, "serve: cannot start the HTTP daemon on %s port %d", s->bind, s->port);
        }
        if (!st) {
            if (pthread_create(&s->reaper, NULL, reaper_main, s))
                st = dlp__err(err, DLP_EINTERNAL, "serve: cannot start the deadline thread");
            else
                s->reaper_running = 1;
        }
        if (!st) {
            /* non-blocking: the acceptor takes connections until EAGAIN and
             * must then get back to its poll, where a stop can reach it */
            int fl = fcntl(s->listen_fd, F_GETFL);
            if (fl < 0 || fcntl(s->listen_fd, F_SETFL, fl | O_NONBLOCK)) {
                s->accept_wake[0] = s->accept_wake[1] = -1;
                st = dlp__err(err, DLP_EINTERNAL, "serve: fcntl: %s", strerror(errno));
            } else if (pipe2(s->accept_wake, O_CLOEXEC | O_NONBLOCK)) {
                s->accept_wake[0] = s->accept_wake[1] = -1;
                st = dlp__err(err, DLP_EINTERNAL, "serve: pipe: %s", strerror(errno));
            } else if (pthread_create(&s->acceptor, NULL, acceptor_main, s)) {
                st = dlp__err(err, DLP_EINTERNAL, "serve: cannot start the accepting thread");
            } else {
                s->acceptor_running = 1;
            }
        }
    }
    if (st) {
        dlp_server_free(s);
        return st;
    }
    *out = s;
    return DLP_OK;
}

int dlp_server_port(const dlp_server *s) { return s && s->mhd ? s->port : 0; }

void dlp_server_free(dlp_server *s) {
    if (!s) return;
    if (s->mhd) {
        /* 1. stop accepting: closing the listening socket now makes new
         * connections fail at once instead of queueing in the backlog
         * unanswered */
        stop_accepting(s);
        /* 2. requests already being served finish (bounded by the timeout) */
        double deadline = dlp__now_s() + s->o.timeout_s;
        while (atomic_load(&s->active) > 0 && dlp__now_s() < deadline) {
            struct timespec ts = {0, 5 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        /* 3. close idle keep-alive connections and join the threads */
        MHD_stop_daemon(s->mhd);
        s->mhd = NULL;
    }
    stop_accepting(s);   /* when start failed half way */
    if (s->accept_wake[0] >= 0) close(s->accept_wake[0]);
    if (s->accept_wake[1] >= 0) close(s->accept_wake[1]);
    if (s->reaper_running) {
        pthread_mutex_lock(&s->conn_lock);
        s->reaper_stop = 1;
        pthread_cond_signal(&s->reaper_wake);
        pthread_mutex_unlock(&s->conn_lock);
        pthread_join(s->reaper, NULL);
    }
    for (int i = 0; i < DLP__SERVE_IP_BUCKETS; i++)
        while (s->ips[i]) {
            struct dlp__ipcount *e = s->ips[i];
            s->ips[i] = e->next;
            free(e);
        }
    pthread_mutex_destroy(&s->conn_lock);
    pthread_cond_destroy(&s->reaper_wake);
    sem_destroy(&s->parses);
    dlp_devdb_free(s->db);
    free(s->devices_json);
    free(s->models_json);
    free(s);
}
