/*
 * cmd_roofline.c — `dlperf roofline MODEL.onnx --device ID [--out F.svg]`:
 * the model's nodes on the device's roofline (dlp_roofline_svg), with the
 * same flags as `dlperf predict`.  Without --out the SVG goes to stdout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/predict_args.h"

int dlp_cmd_roofline(int argc, char **argv);

static void usage(FILE *f) {
    fprintf(f, "usage: dlperf roofline MODEL.onnx --device ID [--out FILE.svg] [--batch N] [--seq N]\n"
               "                       [--dim NAME=V]... [--mode infer|train] [--dtype fp32|fp16|bf16|int8]\n"
               "                       [--tf32|--no-tf32] [--launch-us US] [--runtime eager|tensorrt]\n"
               "                       [--fuse] [--pure] [--db FILE]\n\n"
               "Writes a roofline chart (SVG): arithmetic intensity vs FLOP/s, the device's FP32 vector\n"
               "and tensor ceilings and bandwidth slope, one point per node at its predicted rate, sized\n"
               "by its share of the predicted time and coloured by op class.  Flags as 'dlperf predict'.\n");
}

int dlp_cmd_roofline(int argc, char **argv) {
    cli_predict_args a;
    memset(&a, 0, sizeof a);
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        int r = cli_predict_arg(argc, argv, &i, &a);
        if (r < 0) return DLP_EXIT_BADINPUT;
        if (r) continue;
        const char *v;
        if ((r = cli_opt(argc, argv, &i, "--out", &v)) != 0) {
            if (r < 0) return DLP_EXIT_BADINPUT;
            out = v;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return DLP_EXIT_OK;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_failf(DLP_EXIT_BADINPUT, "roofline: unknown option '%s' (try 'dlperf roofline --help')", argv[i]);
        } else if (!a.path) a.path = argv[i];
        else return cli_failf(DLP_EXIT_BADINPUT, "roofline: more than one model given ('%s')", argv[i]);
    }
    if (cli_check_out("roofline", "--out", out, CLI_OUT_STDOUT)) return DLP_EXIT_BADINPUT;
    cli_predict_state s;
    int rc = cli_predict_run("roofline", &a, &s);
    if (rc) return rc;
    dlp_error err = {0};
    char *buf = NULL;
    size_t len = 0;
    /* render to memory first: a failed render never leaves a half-written file */
    if (dlp_roofline_svg_mem(&s.p, s.dev, &buf, &len, &err)) {
        cli_predict_done(&s);
        return cli_fail(&err);
    }
    if (out && strcmp(out, "-") != 0) {
        errno = 0;
        FILE *f = fopen(out, "wb");
        int bad = !f || fwrite(buf, 1, len, f) != len;
        if (f && fclose(f) != 0) bad = 1;
        if (bad) {
            rc = cli_write_error(out);
            free(buf);
            cli_predict_done(&s);
            return rc;
        }
        printf("wrote %s: %s on %s, %s, predicted %s (%s)\n", out, s.p.model, s.dev->id,
               dlp_dtype_short(s.p.dtype), dlp__hu_ms(s.p.latency_ms), s.p.method);
    } else if (fwrite(buf, 1, len, stdout) != len) {
        rc = cli_write_error("stdout");   /* now: errno is this write's */
        free(buf);
        cli_predict_done(&s);
        return rc;
    }
    free(buf);
    cli_predict_done(&s);
    if (fflush(stdout) != 0) return cli_write_error("stdout");
    return DLP_EXIT_OK;
}
