/*
 * cli.c — argument parsing and error printing shared by every subcommand.
 */
#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int cli_exit_code(dlp_status s) {
    switch (s) {
    case DLP_OK: return DLP_EXIT_OK;
    case DLP_EINVAL: case DLP_EIO: case DLP_EFORMAT: case DLP_EGRAPH:
    case DLP_ESHAPE: case DLP_EUNBOUND: case DLP_ENOTFOUND: case DLP_EVERSION:
    case DLP_ECHECKSUM: case DLP_EUNSUPPORTED:
        return DLP_EXIT_BADINPUT;
    default: return DLP_EXIT_FAIL;
    }
}

int cli_fail(const dlp_error *e) {
    fprintf(stderr, "dlperf: %s\n", e->msg[0] ? e->msg : dlp_status_str(e->code));
    return cli_exit_code(e->code);
}

int cli_failf(int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("dlperf: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

int cli_usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "dlperf: %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    /* "dataset build" -> dlperf dataset --help */
    int n = (int)strcspn(cmd, " ");
    fprintf(stderr, " (try 'dlperf %.*s --help')\n", n, cmd);
    return DLP_EXIT_BADINPUT;
}

int cli_repeated_flag(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0 || !a[2]) continue;
        size_t n = strcspn(a, "=");
        if (n == 5 && !strncmp(a, "--dim", 5)) continue; /* one binding each */
        for (int j = 1; j < i; j++)
            if (!strncmp(argv[j], a, n) && (argv[j][n] == 0 || argv[j][n] == '=')) {
                /* "lm pretrain", "data export": name the sub-subcommand too */
                int sub = argc > 1 && argv[1][0] != '-' && i > 1 && (!strcmp(argv[0], "lm") || !strcmp(argv[0], "data") ||
                                                                     !strcmp(argv[0], "dataset"));
                return cli_failf(DLP_EXIT_BADINPUT, "%s%s%s: %.*s given twice (give it once)", argv[0], sub ? " " : "",
                                 sub ? argv[1] : "", (int)n, a);
            }
    }
    return 0;
}

int cli_write_error(const char *what) {
    int e = errno;
    return cli_failf(DLP_EXIT_FAIL, "cannot write %s: %s", what, e ? strerror(e) : "I/O error");
}

int cli_save_fail(const dlp_error *e) {
    int rc = cli_fail(e);
    return e->code == DLP_EIO ? DLP_EXIT_FAIL : rc;
}

/* stdout through a cookie that remembers the first failed write's errno:
 * glibc drops a buffer whose write failed, so once a command has printed
 * more than one buffer (a long --help, a JSON with kernels) onto a full
 * disk, the final fflush succeeds with errno 0 and the error flag alone
 * would say "I/O error" instead of "No space left on device". */
static int stdout_errno;

static ssize_t stdout_write(void *cookie, const char *buf, size_t n) {
    int fd = *(int *)cookie;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, buf + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (!stdout_errno) stdout_errno = w < 0 ? errno : ENOSPC;
            /* a short count is the error (fopencookie(3): never negative) */
            return (ssize_t)done;
        }
        done += (size_t)w;
    }
    return (ssize_t)done;
}

static int stdout_close(void *cookie) {
    int r = close(*(int *)cookie);
    if (r && !stdout_errno) stdout_errno = errno;
    return r;
}

void cli_wrap_stdout(void) {
    static int fd = 1;
    cookie_io_functions_t io = {.read = NULL, .write = stdout_write, .seek = NULL, .close = stdout_close};
    FILE *f = fopencookie(&fd, "w", io);
    if (!f) return;   /* keep the plain stream: only the message is less exact */
    /* the buffering stdio gives fd 1: lines on a terminal, blocks elsewhere */
    setvbuf(f, NULL, isatty(fd) ? _IOLBF : _IOFBF, BUFSIZ);
    stdout = f;
}

int cli_finish_stdout(int rc) {
    errno = 0;
    int bad = fflush(stdout) != 0;
    int e = errno ? errno : stdout_errno;
    /* an earlier failed write leaves the error flag even when this flush
     * had nothing left to write */
    if (ferror(stdout)) bad = 1;
    if (fclose(stdout) != 0 && !bad) {
        bad = 1;
        e = errno ? errno : stdout_errno;
    }
    if (!bad || rc != DLP_EXIT_OK) return rc;
    errno = e;
    return cli_write_error("stdout");
}

int cli_parse_f64(const char *flag, const char *s, double lo, double hi, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (!*s || *end || errno || !isfinite(v) || v < lo || v > hi) {
        fprintf(stderr, "dlperf: %s: '%s' is not a number in [%g, %g]\n", flag, s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_parse_count(const char *flag, const char *s, double lo, double hi, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (!*s || *end || errno || !isfinite(v) || v < lo || v > hi || v != floor(v)) {
        fprintf(stderr, "dlperf: %s: '%s' is not a whole number in [%s, %s]\n", flag, s, dlp__hu_count(lo),
                dlp__hu_count(hi));
        return -1;
    }
    *out = v;
    return 0;
}

int cli_parse_i64(const char *flag, const char *s, int64_t lo, int64_t hi, int64_t *out) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*s && !*end && !errno && v >= lo && v <= hi) {
        *out = v;
        return 0;
    }
    /* 1e6 style: accept when it is an exact integer in range */
    double d;
    errno = 0;
    d = strtod(s, &end);
    if (*s && !*end && !errno && isfinite(d) && d == floor(d) && d >= (double)lo &&
        d <= (double)hi && fabs(d) < 9.0e15) {
        *out = (int64_t)d;
        return 0;
    }
    fprintf(stderr, "dlperf: %s: '%s' is not an integer in [%lld, %lld]\n", flag, s,
            (long long)lo, (long long)hi);
    return -1;
}

void cli_json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

int cli_print_json(dlp_status st, char *buf, size_t len, const dlp_error *err) {
    if (st) return cli_fail(err);
    errno = 0;
    int ok = fwrite(buf, 1, len, stdout) == len && fflush(stdout) == 0;
    dlp_free(buf);
    return ok ? DLP_EXIT_OK : cli_write_error("stdout");
}

/* Whether argv[j] is the option name, as "name" or "name=value". */
static int is_opt(const char *a, const char *name, size_t n) {
    return !strncmp(a, name, n) && (a[n] == 0 || a[n] == '=');
}

int cli_opt(int argc, char **argv, int *i, const char *name, const char **val) {
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (!is_opt(a, name, n)) return 0;
    if (a[n] == '=') {
        *val = a + n + 1;
        return 1;
    }
    if (*i + 1 >= argc) {
        fprintf(stderr, "dlperf: %s needs a value\n", name);
        return -1;
    }
    *val = argv[++*i];
    return 1;
}

/* Store v in f's target: 0, or -1 after cli_parse_*'s message. */
static int flag_store(const cli_flag *f, const char *v) {
    if (f->s) {
        *f->s = v;
        return 0;
    }
    if (f->d) {
        double x;
        if (cli_parse_f64(f->flag, v, f->flo, f->fhi, &x)) return -1;
        *f->d = f->zero_none && !(x > 0) ? -1 : x;
        return 0;
    }
    int64_t x;
    if (cli_parse_i64(f->flag, v, f->lo, f->hi, &x)) return -1;
    if (f->zero_none && x == 0) x = -1;
    if (f->i) *f->i = (int)x;
    else if (f->i64) *f->i64 = x;
    else *f->u64 = (uint64_t)x;
    return 0;
}

int cli_flags(int argc, char **argv, int *i, const cli_flag *t, int n) {
    for (const cli_flag *f = t; f < t + n; f++) {
        if (f->on) {
            if (strcmp(argv[*i], f->flag)) continue;
            *f->on = 1;
        } else {
            const char *v;
            int r = cli_opt(argc, argv, i, f->flag, &v);
            if (r == 0) continue;
            if (r < 0 || flag_store(f, v)) return -1;
        }
        if (f->given) *f->given = 1;
        return 1;
    }
    return 0;
}

void cli_fmt_duration(double s, char *buf, size_t n) {
    if (!isfinite(s) || s < 0) s = 0;
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(buf, n, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60) snprintf(buf, n, "%ldm%02lds", t / 60, t % 60);
    else snprintf(buf, n, "%lds", t);
}

int cli_graph_flag(int argc, char **argv, int *i, cli_graph_flags *gf) {
    const char *v;
    int r;
    if ((r = cli_opt(argc, argv, i, "--batch", &v)) != 0) {
        if (r < 0 || cli_parse_i64("--batch", v, 1, (int64_t)1 << 31, &gf->batch)) return -1;
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--seq", &v)) != 0) {
        if (r < 0 || cli_parse_i64("--seq", v, 1, (int64_t)1 << 31, &gf->seq)) return -1;
        return 1;
    }
    if ((r = cli_opt(argc, argv, i, "--dim", &v)) != 0) {
        if (r < 0) return -1;
        const char *eq = strchr(v, '=');
        if (!eq || eq == v) {
            fprintf(stderr, "dlperf: --dim: '%s' is not NAME=VALUE\n", v);
            return -1;
        }
        if (gf->n_dims >= 64) {
            fprintf(stderr, "dlperf: --dim: at most 64 bindings\n");
            return -1;
        }
        int64_t val;
        if (cli_parse_i64("--dim", eq + 1, 1, (int64_t)1 << 40, &val)) return -1;
        /* argv strings live for the whole run: cut the name in place */
        ((char *)eq)[0] = 0;
        gf->dim_names[gf->n_dims] = v;
        gf->dim_values[gf->n_dims++] = val;
        return 1;
    }
    return 0;
}

void cli_graph_opts(const cli_graph_flags *gf, dlp_load_opts *o) {
    memset(o, 0, sizeof *o);
    o->batch = gf->batch;
    o->seq = gf->seq;
    o->n_dims = gf->n_dims;
    o->dim_names = gf->dim_names;
    o->dim_values = gf->dim_values;
}

int cli_unknown_device(const dlp_devdb *db, const char *name) {
    const char *ids[4];
    int n = dlp_devdb_suggest(db, name, ids, 4);
    char list[256] = "";
    size_t len = 0;
    for (int i = 0; i < n && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", ids[i]);
    return cli_failf(DLP_EXIT_BADINPUT, "unknown device '%s' (closest ids: %s; 'dlperf devices' lists all)", name,
                     n ? list : "none");
}

void cli_warn(void *u, const char *msg) {
    (void)u;
    fprintf(stderr, "dlperf: warning: %s\n", msg);
}

int cli_split_list(char *s, const char **out, int max) {
    int n = 0;
    for (char *p = s;;) {
        char *c = strchr(p, ',');
        if (c) *c = 0;
        if (!*p || n == max) return -1;
        out[n++] = p;
        if (!c) break;
        p = c + 1;
    }
    return n;
}

int cli_check_out(const char *cmd, const char *flag, const char *path, int flags) {
    if (!path) return 0;
    const char *why = NULL;
    char dir[4096];
    struct stat sb;
    if (!*path) why = "empty path";
    else if ((flags & CLI_OUT_STDOUT) && !strcmp(path, "-")) return 0;
    else if (strlen(path) >= sizeof dir) why = "path too long";
    else if (path[strlen(path) - 1] == '/') why = "names a directory, not a file";
    else if (stat(path, &sb) == 0) {
        if (S_ISDIR(sb.st_mode)) why = "is a directory, not a file";
        else if (!S_ISREG(sb.st_mode)) why = "not a regular file";
        else if (access(path, W_OK) != 0) why = "exists and is not writable";
    } else if (errno == ENOTDIR) {
        why = "a part of the path is a file, not a folder";
    } else if (errno != ENOENT) {
        why = strerror(errno);
    }
    if (!why) {
        /* the folder: files are written to a temporary name there and renamed */
        snprintf(dir, sizeof dir, "%s", path);
        char *slash = strrchr(dir, '/');
        if (!slash) snprintf(dir, sizeof dir, ".");
        else if (slash == dir) dir[1] = 0;
        else *slash = 0;
        for (;;) {
            if (stat(dir, &sb) == 0) {
                if (!S_ISDIR(sb.st_mode)) why = "a part of the path is a file, not a folder";
                else if (access(dir, W_OK | X_OK) != 0) why = "its folder is not writable";
                break;
            }
            if (errno == ENOTDIR) {
                why = "a part of the path is a file, not a folder";
                break;
            }
            if (errno != ENOENT) {
                why = strerror(errno);
                break;
            }
            if (!(flags & CLI_OUT_MKDIRS)) {
                why = "its folder does not exist";
                break;
            }
            char *s = strrchr(dir, '/');  /* go up one level: the writer creates the rest */
            if (!s) snprintf(dir, sizeof dir, ".");
            else if (s == dir) dir[1] = 0;
            else *s = 0;
        }
    }
    if (!why) return 0;
    return cli_failf(DLP_EXIT_BADINPUT, "%s: %s '%s': %s", cmd, flag, path, why);
}

double cli_now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int cli_progress_init(cli_progress *p, const char *cmd, const char *value) {
    memset(p, 0, sizeof *p);
    if (!strcmp(value, "auto")) p->mode = isatty(STDERR_FILENO) ? CLI_PROGRESS_TTY : CLI_PROGRESS_TIMED;
    else if (!strcmp(value, "lines")) p->mode = CLI_PROGRESS_LINES;
    else if (!strcmp(value, "none")) p->mode = CLI_PROGRESS_NONE;
    else {
        cli_usage_error(cmd, "--progress '%s': expected auto, lines or none", value);
        return -1;
    }
    p->interval = 5.0;
    const char *env = getenv("DLP_PROGRESS_SECONDS");
    if (env && *env) {
        char *end;
        double v = strtod(env, &end);
        if (!*end && isfinite(v) && v >= 0) p->interval = v;
    }
    p->last = cli_now_s();
    return 0;
}

int cli_progress_due(cli_progress *p) {
    if (p->mode != CLI_PROGRESS_TIMED) return p->mode != CLI_PROGRESS_NONE;
    double now = cli_now_s();
    if (now - p->last < p->interval) return 0;
    p->last = now;
    return 1;
}

void cli_progress_line(cli_progress *p, const char *fmt, ...) {
    if (p->mode == CLI_PROGRESS_NONE) return;
    va_list ap;
    va_start(ap, fmt);
    if (p->mode == CLI_PROGRESS_TTY) fputs("\r\033[K", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (p->mode == CLI_PROGRESS_TTY) p->printed = 1;
    else fputc('\n', stderr);
    fflush(stderr);
}

void cli_progress_end(cli_progress *p) {
    if (p->printed) fputc('\n', stderr);
    p->printed = 0;
}

const char *cli_count(double v, char *buf, size_t n) {
    snprintf(buf, n, "%s", dlp__hu_num(v));
    return buf;
}

/* A section of sub starts on this line: "sub:" at column 0 (lm, dataset)
 * or "  sub " indented (data). */
static int sub_starts(const char *line, size_t len, const char *sub) {
    size_t n = strlen(sub);
    if (len > n && !strncmp(line, sub, n) && line[n] == ':') return 1;
    return len > n + 3 && !strncmp(line, "  ", 2) && !strncmp(line + 2, sub, n) && line[n + 2] == ' ';
}

int cli_sub_help(void (*usage)(FILE *), const char *cmd, const char *sub, const char *const *subs) {
    char *text = NULL;
    size_t tlen = 0;
    FILE *m = open_memstream(&text, &tlen);
    if (!m) return usage(stdout), DLP_EXIT_OK;
    usage(m);
    fclose(m);
    char want[128];
    snprintf(want, sizeof want, "dlperf %s %s ", cmd, sub);
    int in_usage = 1, in_match = 0, in_section = 0, printed = 0;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (in_usage) {
            if (len == 0) {
                in_usage = 0;
                if (printed) fputc('\n', stdout);
            } else {
                /* a line naming a command starts a usage form: it is SUB's when
                 * it reads "dlperf CMD SUB ..." or ends right after SUB; the
                 * continuation lines that follow belong to the same form */
                const char *d = memmem(p, len, "dlperf ", 7);
                if (d) {
                    size_t rest = len - (size_t)(d - p), wl = strlen(want);
                    in_match = (rest >= wl && !strncmp(d, want, wl)) || (rest == wl - 1 && !strncmp(d, want, wl - 1));
                }
                if (in_match) {
                    /* "usage: " on the first printed line, the others aligned under it */
                    if (d && !printed) printf("usage: %.*s\n", (int)(len - (size_t)(d - p)), d);
                    else if (d) printf("       %.*s\n", (int)(len - (size_t)(d - p)), d);
                    else printf("%.*s\n", (int)len, p);
                    printed = 1;
                }
            }
        } else {
            if (sub_starts(p, len, sub)) in_section = 1;
            else if (in_section) {
                int other = len == 0;
                for (int k = 0; subs[k] && !other; k++)
                    if (strcmp(subs[k], sub) && sub_starts(p, len, subs[k])) other = 1;
                if (other) in_section = 0;
            }
            if (in_section) printf("%.*s\n", (int)len, p);
        }
        p = e ? e + 1 : p + len;
    }
    free(text);
    return DLP_EXIT_OK;
}
