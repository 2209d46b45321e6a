/*
 * cli.h — shared helpers of the dlperf command-line tool.  Each subcommand
 * lives in src/cli/cmd_<name>.c as `int dlp_cmd_<name>(int argc, char **argv)`
 * (argv[0] is the subcommand name) and is listed in main.c's table.
 * Exit codes: 0 ok, 1 runtime failure, 2 bad input (file, flag, value).
 */
#ifndef DLP_CLI_H
#define DLP_CLI_H
#include <stdint.h>
#include <stdio.h>
#include "dlperf.h"
#include "util/human.h" /* numbers in text output: dlp__hu_* */

#define DLP_EXIT_OK 0
#define DLP_EXIT_FAIL 1
#define DLP_EXIT_BADINPUT 2

/* Print "dlperf: <msg>" on stderr; returns the exit code for a status. */
int cli_fail(const dlp_error *e);
int cli_failf(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A usage mistake (missing required flag, unknown option): one line
 * "dlperf: CMD: MSG (try 'dlperf CMD --help')" on stderr, never the whole
 * usage; returns DLP_EXIT_BADINPUT. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A failed write (issue 25): "dlperf: cannot write WHAT: <strerror(errno)>"
 * on stderr (WHAT is "stdout" or the path); returns DLP_EXIT_FAIL. */
int cli_write_error(const char *what);
/* A library save (dlp_*_save to an output checked by cli_check_out) that
 * failed: its message, and an I/O error is a runtime failure (a full disk,
 * exit 1), not bad input as reading a file would be.  Returns the code. */
int cli_save_fail(const dlp_error *e);
/* After a command: flush and close stdout, so that a full disk or a closed
 * descriptor turns a success into exit 1 naming stdout instead of losing
 * the output silently.  rc: the command's exit code; returns the final one
 * (a command that already failed keeps its code and message). */
int cli_finish_stdout(int rc);
/* stdout as a stream that keeps the errno of its first failed write (main) */
void cli_wrap_stdout(void);
/* Map a status to an exit code (bad input -> 2, else 1). */
int cli_exit_code(dlp_status s);
/* Monotonic clock, seconds (progress lines, --time). */
double cli_now_s(void);

/* Strict number parsing: whole string, range-checked, accepts 1e6 for ints
 * when exact.  Return 0 on success, print a one-line error and return -1. */
int cli_parse_i64(const char *flag, const char *s, int64_t lo, int64_t hi, int64_t *out);
int cli_parse_f64(const char *flag, const char *s, double lo, double hi, double *out);
/* A count too large for int64 (--runs 1e18): a whole number in [lo, hi]
 * as a double; "1.5" is refused. */
int cli_parse_count(const char *flag, const char *s, double lo, double hi, double *out);

/* A count or rate for people (text output only; JSON keeps plain numbers):
 * dlp__hu_num copied into buf — 4 significant digits, thousands separators
 * from 1000 on (1.588e4 -> "15,880", 1e6 -> "1,000,000"), never an
 * exponent.  Returns buf. */
const char *cli_count(double v, char *buf, size_t n);

/* Minimal JSON string escaping to a FILE. */
void cli_json_str(FILE *f, const char *s);
/* Print a library JSON text (dlp_*_json: st, buf, len, err as it returned
 * them) to stdout and free it; the exit code (DLP_EXIT_OK or a failure). */
int cli_print_json(dlp_status st, char *buf, size_t len, const dlp_error *err);

/* A flag given twice (issue 25): keeping the last value silently would
 * hide the mistake, so main.c refuses it for every command before the
 * command runs: "dlperf: CMD: --seq given twice (give it once)" and
 * DLP_EXIT_BADINPUT; 0 when none.  argv[0] is the command; a token that
 * starts with "--" is a flag (its name ends at '='); --dim repeats by
 * design (one binding each). */
int cli_repeated_flag(int argc, char **argv);

/* Option parsing helper: if argv[*i] is `name` (or `name=value`), store the
 * value in *val, advance *i, return 1; on a missing value print an error and
 * return -1; 0 if argv[*i] is another option. */
int cli_opt(int argc, char **argv, int *i, const char *name, const char **val);

/* A command's flags as a table instead of an if-chain of cli_opt and
 * cli_parse_* per flag (train, eval and pretrain share most of theirs).
 * Each row has one target: a word or path (s), an integer in [lo, hi]
 * (i, i64 or u64), a number in [flo, fhi] (d), or a switch without a value
 * (on, set to 1; matched only as the bare flag).  zero_none stores a given
 * 0 as -1, since the library's options read 0 as "the default" and < 0 as
 * "none"; given, when not NULL, is set to 1 when the flag is given. */
typedef struct {
    const char *flag;
    int64_t lo, hi;
    double flo, fhi;
    const char **s;
    int *i;
    int64_t *i64;
    uint64_t *u64;
    double *d;
    int *on;
    int zero_none;
    int *given;
} cli_flag;
/* If argv[*i] is a flag of t[0..n): store its value (advancing *i past
 * it) and return 1; -1 after cli_opt's or cli_parse_*'s one-line message
 * (a missing value, a number out of range); 0 when it is none of them. */
int cli_flags(int argc, char **argv, int *i, const cli_flag *t, int n);
#define CLI_NFLAGS(t) ((int)(sizeof(t) / sizeof *(t)))

/* Elapsed or remaining time for progress lines: "42s", "3m07s", "2h05m"
 * (negative or not finite: "0s"). */
void cli_fmt_duration(double s, char *buf, size_t n);

/* Shared graph-loading flags: --batch, --seq, --dim NAME=VALUE.
 * cli_graph_flag returns 1 if it consumed argv[*i], -1 on error, 0 if not
 * a graph flag.  Fill dlp_load_opts from it with cli_graph_opts. */
typedef struct {
    int64_t batch, seq;
    int n_dims;
    const char *dim_names[64];
    int64_t dim_values[64];
} cli_graph_flags;
int cli_graph_flag(int argc, char **argv, int *i, cli_graph_flags *gf);
/* Their help, one block for every command's usage. */
#define CLI_GRAPH_FLAGS_HELP                                                                          \
    "graph (every command that reads an ONNX file takes these):\n"                                    \
    "  --batch N          binds symbolic batch dims (names with 'batch', N, b, bs; else axis 0\n"   \
    "                     of the inputs); needed when the file leaves the batch symbolic\n"         \
    "  --seq N            binds symbolic sequence dims (names with seq/sequence/token, S, L, T;\n"  \
    "                     else axis 1 of rank-2 integer inputs)\n"                                   \
    "  --dim NAME=V       bind any other symbolic dimension by its name (repeatable, up to 64)\n"
void cli_graph_opts(const cli_graph_flags *gf, dlp_load_opts *o);

/* "unknown device 'x' (closest ids: a, b, c; ...)" on stderr; returns exit
 * code 2.  Shared by every command that takes --device. */
int cli_unknown_device(const dlp_devdb *db, const char *name);

/* A library warning callback (dlp_corpus_opts.warn): "dlperf: warning: <msg>"
 * on stderr; u unused. */
void cli_warn(void *u, const char *msg);

/* Split a comma list in place into out[0..]: the item count, or -1 when an
 * item is empty or there are more than max. */
int cli_split_list(char *s, const char **out, int max);

/* Check an output path before any work starts (issue 16 #6): the path is
 * not empty, not a directory or other non-regular file, and a file there
 * is writable; its folder exists (or, with CLI_OUT_MKDIRS, the nearest
 * existing ancestor is a folder, since the writer creates the rest) and
 * is writable.  "-" passes with CLI_OUT_STDOUT.  Returns 0, or prints
 * "dlperf: CMD: FLAG 'PATH': WHY" and returns DLP_EXIT_BADINPUT.  Every
 * command that writes a file calls it for each output right after parsing. */
#define CLI_OUT_STDOUT 1
#define CLI_OUT_MKDIRS 2
int cli_check_out(const char *cmd, const char *flag, const char *path, int flags);

/* Progress of long jobs on stderr (train, pretrain, dataset build).
 * --progress auto (default): a self-rewriting line on a terminal; when
 * stderr is not a terminal (CI, nohup, a log) a whole line at most every
 * DLP_PROGRESS_SECONDS seconds (default 5), so a quick run prints nothing.
 * lines: a line at every step; none: nothing. */
enum { CLI_PROGRESS_NONE, CLI_PROGRESS_TTY, CLI_PROGRESS_LINES, CLI_PROGRESS_TIMED };
typedef struct {
    int mode;
    int printed;           /* a TTY line is open: end it with a newline */
    double interval, last; /* TIMED: seconds between lines, last line (or start) */
} cli_progress;
/* Parse auto|lines|none into p (and start its clock); -1 after a one-line
 * error naming the flag. */
int cli_progress_init(cli_progress *p, const char *cmd, const char *value);
/* Whether a line is due now (TIMED: interval passed since the last one). */
int cli_progress_due(cli_progress *p);
/* Print one progress line in the mode's style ("\r" rewrite or "\n"). */
void cli_progress_line(cli_progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Finish: a newline after an open terminal line. */
void cli_progress_end(cli_progress *p);

/* `dlperf CMD SUB --help` (issue 25): the part of CMD's usage text that
 * describes SUB — its usage lines ("dlperf CMD SUB ..." and their
 * continuations) and its section (from a line "SUB:" or "  SUB  ..." up to
 * a blank line or the next sub's section); subs lists every sub of CMD,
 * NULL-terminated.  Prints to stdout; returns DLP_EXIT_OK. */
int cli_sub_help(void (*usage)(FILE *), const char *cmd, const char *sub, const char *const *subs);

/* Subcommands (src/cli/cmd_<name>.c). */
int dlp_cmd_inspect(int argc, char **argv);
int dlp_cmd_features(int argc, char **argv);

#endif
