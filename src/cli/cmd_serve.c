/*
 * cmd_serve.c — `dlperf serve`: the JSON API and the web page over HTTP
 * (docs/serve.md).  The server lives in the library (src/serve); this file
 * turns flags into dlp_server_opts, writes the access log to stderr, and
 * owns the process's signals: SIGINT/SIGTERM stop the server gracefully
 * (requests in progress finish) and the command exits 0.
 *
 * The signal handler only writes the signal number into a pipe (the
 * self-pipe trick); the main thread sleeps in read() on the other end and
 * then calls dlp_server_free as a normal function call, free of
 * async-signal-safety limits.  A handler (rather than blocking the signals
 * and sigwait) because libraries start threads before main (OpenBLAS's
 * pool) with the signals unblocked: a process-directed SIGTERM may land on
 * any of them, and only a process-wide handler makes every landing place
 * graceful — including a second Ctrl-C during the shutdown.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

int dlp_cmd_serve(int argc, char **argv);

static void usage(FILE *f) {
    fprintf(f,
            "usage: dlperf serve [--port N] [--bind ADDR] [--threads N] [--max-upload SIZE]\n"
            "                    [--timeout S] [--header-timeout S] [--max-connections N]\n"
            "                    [--max-per-ip N] [--max-parses N] [--quiet]\n\n"
            "Serves the JSON API (/api/predict, /api/llm, /api/mig, /api/roofline.svg, /api/devices,\n"
            "/api/models, /api/health) and the web page (/) until SIGINT or SIGTERM (docs/serve.md).\n"
            "  --port N         TCP port (default 8080; 0 = any free port, printed at start)\n"
            "  --bind ADDR      address to listen on (default 127.0.0.1: this machine only;\n"
            "                   0.0.0.0 or :: exposes the server, which has no authentication)\n"
            "  --threads N      worker threads (default 4)\n"
            "  --max-upload S   largest request body: bytes, or with K, M, G (default 64M); over: 413\n"
            "  --timeout S      seconds a whole request (headers + body) may take from its first\n"
            "                   byte, however slowly it trickles (default 30); over: 408, closed\n"
            "  --header-timeout S  seconds for the request line + headers, from the connection's\n"
            "                   start or the previous answer (default 10); over: 408, closed\n"
            "  --max-connections N  open connections (default 1024); a new one over it is\n"
            "                   answered 503 at once and closed\n"
            "  --max-per-ip N   open connections from one address (default: half of\n"
            "                   --max-connections; 0 = no cap, e.g. behind a reverse proxy)\n"
            "  --max-parses N   model parses/predictions at once (default: --threads); over: 503\n"
            "                   with Retry-After\n"
            "  --quiet          no access log (one line per request on stderr)\n");
}

static int sig_pipe[2] = {-1, -1};

/* Async-signal-safe: one write(2), errno preserved. */
static void on_signal(int sig) {
    int e = errno;
    unsigned char c = (unsigned char)sig;
    ssize_t r = write(sig_pipe[1], &c, 1);   /* full pipe: a stop is already due */
    (void)r;
    errno = e;
}

/* Access-log lines to stderr; stdio's lock keeps concurrent lines whole. */
static void log_line(void *user, const char *line) {
    (void)user;
    fprintf(stderr, "%s\n", line);
}

/* "64M" -> 67108864: a size with an optional K/M/G (binary) suffix. */
static int parse_size(const char *v, size_t *out) {
    char num[32];
    size_t n = strlen(v);
    if (!n || n >= sizeof num)
        return cli_failf(DLP_EXIT_BADINPUT, "--max-upload: '%s' is not a size (e.g. 64M)", v), -1;
    memcpy(num, v, n + 1);
    int shift = 0;
    char c = num[n - 1];
    if (c == 'k' || c == 'K') shift = 10;
    else if (c == 'm' || c == 'M') shift = 20;
    else if (c == 'g' || c == 'G') shift = 30;
    if (shift) num[n - 1] = 0;
    int64_t x;
    if (cli_parse_i64("--max-upload", num, 1, ((int64_t)16 << 30) >> shift, &x)) return -1;
    x <<= shift;
    if (x < 1024) return cli_failf(DLP_EXIT_BADINPUT, "--max-upload: %s is below 1K", v), -1;
    *out = (size_t)x;
    return 0;
}

int dlp_cmd_serve(int argc, char **argv) {
    dlp_server_opts o;
    memset(&o, 0, sizeof o);
    o.port = 8080;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int r;
        int64_t x;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return DLP_EXIT_OK;
        }
        if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")) {
            o.quiet = 1;
            continue;
        }
        if ((r = cli_opt(argc, argv, &i, "--bind", &v)) != 0) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            o.bind = v;
            continue;
        }
        if ((r = cli_opt(argc, argv, &i, "--max-upload", &v)) != 0) {
            if (r < 0 || parse_size(v, &o.max_upload_bytes)) return DLP_EXIT_BADINPUT;
            continue;
        }
        static const struct { const char *flag; int64_t lo, hi; } nums[] = {
            {"--port", 0, 65535}, {"--threads", 1, 256}, {"--timeout", 1, 3600}, {"--max-parses", 1, 256},
            {"--header-timeout", 1, 3600}, {"--max-connections", 1, 100000}, {"--max-per-ip", 0, 100000}};
        int done = 0;
        for (size_t k = 0; k < sizeof nums / sizeof nums[0] && !done; k++) {
            if ((r = cli_opt(argc, argv, &i, nums[k].flag, &v)) == 0) continue;
            if (r < 0 || cli_parse_i64(nums[k].flag, v, nums[k].lo, nums[k].hi, &x)) return DLP_EXIT_BADINPUT;
            if (k == 0) o.port = (int)x;
            else if (k == 1) o.threads = (int)x;
            else if (k == 2) o.timeout_s = (int)x;
            else if (k == 3) o.max_parses = (int)x;
            else if (k == 4) o.header_timeout_s = (int)x;
            else if (k == 5) o.max_connections = (int)x;
            else o.max_per_ip = x ? (int)x : -1;   /* 0: no per-address cap */
            done = 1;
        }
        if (done) continue;
        return cli_failf(DLP_EXIT_BADINPUT, "serve: unknown argument '%s' (try 'dlperf serve --help')", argv[i]);
    }
    o.log = log_line;

    /* handlers before the server's threads exist, so no signal finds the
     * default action (termination) anywhere */
    if (pipe2(sig_pipe, O_CLOEXEC)) return cli_failf(DLP_EXIT_FAIL, "serve: pipe: %s", strerror(errno));
    fcntl(sig_pipe[1], F_SETFL, O_NONBLOCK);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
        return cli_failf(DLP_EXIT_FAIL, "serve: cannot install SIGINT/SIGTERM handlers");
    signal(SIGPIPE, SIG_IGN);   /* a client hanging up must not kill the server */

    dlp_error err = {0};
    dlp_server *srv = NULL;
    if (dlp_server_new(&o, &srv, &err)) return cli_fail(&err);
    const char *bind = o.bind && *o.bind ? o.bind : "127.0.0.1";
    int v6 = strchr(bind, ':') != NULL;
    fprintf(stderr, "dlperf: serving http://%s%s%s:%d/ (threads %d, max parses %d, max upload %zu bytes, timeout %d s)\n",
            v6 ? "[" : "", bind, v6 ? "]" : "", dlp_server_port(srv), o.threads ? o.threads : 4,
            o.max_parses ? o.max_parses : (o.threads ? o.threads : 4),
            o.max_upload_bytes ? o.max_upload_bytes : (size_t)64 << 20, o.timeout_s ? o.timeout_s : 30);
    unsigned char c = 0;
    ssize_t n;
    while ((n = read(sig_pipe[0], &c, 1)) < 0 && errno == EINTR) {
    }
    int sig = n == 1 ? c : SIGTERM;
    fprintf(stderr, "dlperf: %s, stopping (requests in progress finish)\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    dlp_server_free(srv);
    fprintf(stderr, "dlperf: stopped\n");
    return DLP_EXIT_OK;
}
