/*
 * bench_inspect.c — time dlp_graph_load (read + link + shape inference +
 * costs) in process, median of repeated loads, for each file given.
 * Prints "name ms" lines for bench/bench_inspect.sh to put beside python.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dlperf.h"

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    int reps = 21;
    for (int i = 1; i < argc; i++) {
        double t[64];
        /* data/models/torchvision files have symbolic height/width */
        static const char *const dn[] = {"height", "width"};
        static const int64_t dv[] = {224, 224};
        dlp_load_opts o = {0};
        o.batch = 1;
        o.n_dims = 2;
        o.dim_names = dn;
        o.dim_values = dv;
        for (int r = 0; r < reps; r++) {
            dlp_graph *g;
            dlp_error e = {0};
            double t0 = now_ms();
            if (dlp_graph_load(argv[i], &o, &g, &e)) {
                fprintf(stderr, "%s\n", e.msg);
                return 1;
            }
            t[r] = now_ms() - t0;
            dlp_graph_free(g);
        }
        qsort(t, (size_t)reps, sizeof t[0], cmp);
        const char *b = strrchr(argv[i], '/');
        /* the same name can be in both model folders */
        printf("%s%s %.3f\n", strstr(argv[i], "data/models/") ? "own/" : "", b ? b + 1 : argv[i], t[reps / 2]);
    }
    return 0;
}
