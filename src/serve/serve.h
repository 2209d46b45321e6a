/*
 * serve.h — internals shared by the files of src/serve (the HTTP server of
 * `dlperf serve`, docs/serve.md).  Nothing here is public API; the public
 * part is the serve section of include/dlperf.h.
 *
 * The split: serve.c owns the sockets (libmicrohttpd daemon, body
 * collection, limits, access log); api.c owns what a request means (routing,
 * field parsing, calling the library); json.c turns library results into the
 * same JSON the CLI prints; assets_embed.c holds the web page and the shipped
 * example model.  api.c never sees a socket, which is what makes
 * dlp_server_handle (requests without a network) possible.
 */
#ifndef DLP_SERVE_H
#define DLP_SERVE_H

#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stddef.h>

#include <cJSON.h>

#include "dlperf.h"

struct MHD_Daemon;

/* Defaults of dlp_server_opts (docs/serve.md, "Limits"). */
#define DLP__SERVE_THREADS 4
#define DLP__SERVE_MAX_UPLOAD ((size_t)64 << 20)
#define DLP__SERVE_TIMEOUT_S 30
#define DLP__SERVE_MAX_CONNECTIONS 1024
#define DLP__SERVE_HEADER_TIMEOUT_S 10
/* A non-file form field (or a JSON body's text value) longer than this is
 * refused: only 'model' uploads are large, and a config.json is a few KiB. */
#define DLP__SERVE_MAX_FIELD ((size_t)1 << 20)
#define DLP__SERVE_MAX_FIELDS 64

struct dlp__conn;
struct dlp__ipcount;
#define DLP__SERVE_IP_BUCKETS 256

struct dlp_server {
    dlp_server_opts o;            /* with the defaults filled in              */
    char bind[128];               /* o.bind points here                        */
    struct MHD_Daemon *mhd;       /* NULL with no_listen                       */
    int listen_fd;                /* ours: acceptor_main accepts (serve.c)    */
    pthread_t acceptor;
    int acceptor_running;
    int accept_wake[2];           /* a byte here stops the acceptor            */
    int port;
    dlp_devdb *db;                /* built-in database, read-only once loaded  */
    sem_t parses;                 /* counting semaphore: free parse slots      */
    atomic_int active;            /* requests between first byte and completion */
    atomic_size_t buffered;       /* body bytes held in memory, all connections */
    size_t max_buffered;          /* above this a new body chunk gets 503      */
    double t_start;               /* monotonic seconds at start (uptime)       */
    char *devices_json, *models_json;   /* built once: they never change       */
    /* open connections (serve.c): the deadlines and the caps */
    pthread_mutex_t conn_lock;    /* guards everything below                   */
    pthread_cond_t reaper_wake;
    pthread_t reaper;
    int reaper_running, reaper_stop;
    struct dlp__conn *conns;      /* every open connection, a list             */
    atomic_int n_conns;
    struct dlp__ipcount *ips[DLP__SERVE_IP_BUCKETS];   /* per-address counts */
    atomic_size_t n_shed, n_reaped;  /* totals, for /api/health                */
    size_t devices_len, models_len;
};

/* What a request brings, however it was encoded: `params` is a JSON object
 * (field -> value; form fields and query arguments are strings, JSON bodies
 * keep their types), plus the bytes of an uploaded 'model' file. */
typedef struct {
    cJSON *params;                /* owned by the caller                        */
    const char *file;             /* 'model' upload; NULL when none             */
    size_t file_len;
    const char *file_name;        /* the upload's file name (sanitised)         */
    int json;                     /* params came from a JSON body: typed, so a
                                     boolean field must be true or false       */
} dlp__serve_input;

/* Route a request to its handler and fill *out (status, body).  method is
 * "GET", "HEAD", "POST", ...; path has no query string. */
void dlp__serve_dispatch(dlp_server *s, const char *method, const char *path, dlp__serve_input *in,
                         dlp_server_response *out);
/* 0 if (method, path) is a known route; else -1 with a 404 or 405 in *out
 * (checked before a body is read, so these win over a malformed body). */
int dlp__serve_route_check(const char *method, const char *path, dlp_server_response *out);

/* {"error": msg} with an HTTP status. */
void dlp__serve_error(dlp_server_response *out, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Parse a JSON text or an application/x-www-form-urlencoded text into an
 * object of fields.  NULL with a message in msg on malformed input. */
cJSON *dlp__serve_parse_json_body(const char *body, size_t len, char *msg, size_t msgsz);
cJSON *dlp__serve_parse_urlencoded(const char *body, size_t len, char *msg, size_t msgsz);

/* The concurrent-parse cap: take a slot without waiting (1) or not (0). */
int dlp__serve_parse_begin(dlp_server *s);
void dlp__serve_parse_end(dlp_server *s);

/* Build the cached /api/devices and /api/models bodies (at start). */
dlp_status dlp__serve_build_catalogues(dlp_server *s, dlp_error *err);


/* Embedded assets (assets_embed.c). */
extern const char dlp__serve_index_html[];      /* NUL-terminated              */
extern const unsigned char dlp__serve_resnet18_onnx[];
extern const unsigned long long dlp__serve_resnet18_onnx_len;

/* libmicrohttpd's own error answers (mhd_shim.c): the hook is called with
 * the page libmicrohttpd was about to send and returns 1 when it answered
 * the client itself. */
struct MHD_Connection;
typedef int (*dlp__mhd_error_hook)(struct MHD_Connection *c, unsigned int status, const char *html, size_t len);
void dlp__mhd_set_error_hook(dlp__mhd_error_hook fn);

#endif
