/*
 * bench_csv.h — the comma-separated readers the benchmarks share
 * (bench_llm.c, bench_serving.c): public measurement CSVs without quoted
 * commas.  Header-only; each bench is one program.
 */
#ifndef DLP_BENCH_CSV_H
#define DLP_BENCH_CSV_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Split line in place at commas into f[0..max); returns the field count
 * (the last field loses its line end). */
static inline int csv_split(char *line, char **f, int max) {
    int n = 0;
    char *s = line;
    while (n < max) {
        f[n++] = s;
        char *c = strchr(s, ',');
        if (!c) break;
        *c = 0;
        s = c + 1;
    }
    char *nl = strpbrk(f[n - 1], "\r\n");
    if (nl) *nl = 0;
    return n;
}

/* Index of a header column (trailing spaces in the header ignored:
 * LLM-Inference-Bench writes "end_latency "); a missing one ends the bench
 * with its name. */
static inline int csv_col(char **h, int n, const char *name) {
    size_t k = strlen(name);
    for (int i = 0; i < n; i++) {
        size_t m = strlen(h[i]);
        while (m > 0 && h[i][m - 1] == ' ') m--;
        if (m == k && !strncmp(h[i], name, k)) return i;
    }
    fprintf(stderr, "column '%s' missing\n", name);
    exit(1);
}

/* Open root/rel and split its header into h (hl holds the text); a
 * missing file ends the bench with its path. */
static inline FILE *csv_open(const char *root, const char *rel, char *hl, int hl_size, char **h, int max, int *nh) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "r");
    if (!f || !fgets(hl, hl_size, f)) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    *nh = csv_split(hl, h, max);
    return f;
}

#endif
