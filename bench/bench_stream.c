/*
 * bench_stream.c — a small STREAM-style triad, a[i] = b[i] + s * c[i], to
 * measure the sustainable DRAM bandwidth of the machine we run on (the
 * cpu-amd-epyc-2c entry of data/devices.json records its result).
 *
 * Why a triad: it is STREAM's headline kernel (two reads, one write per
 * element) and what bandwidth-bound DL ops (elementwise, BatchNorm) do.
 * Arrays are sized far beyond the last-level cache (default 64 Mi doubles
 * each = 3 x 512 MiB, 16x the 32 MiB L3) so every pass streams from DRAM.
 * Bytes counted per element: 24 (STREAM's convention: write-allocate
 * traffic is not counted, so this is comparable to published STREAM).
 * Threads: one pthread per requested thread over a contiguous slice; each
 * thread first-touches its own slice.  Best of R repetitions, as STREAM.
 *
 *   cc -O2 -march=native -pthread bench/bench_stream.c -o /tmp/bench_stream
 *   /tmp/bench_stream [threads=2] [mi_elements=64] [reps=10]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double *A, *B, *C;
static size_t N;
static int T;
static pthread_barrier_t bar;
static double best_s = 1e30, times[64];
static int REPS;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *worker(void *arg) {
    int t = (int)(size_t)arg;
    size_t lo = N * (size_t)t / (size_t)T, hi = N * (size_t)(t + 1) / (size_t)T;
    for (size_t i = lo; i < hi; i++) A[i] = 1.0, B[i] = 2.0, C[i] = 0.5;
    const double s = 3.0;
    for (int r = 0; r < REPS; r++) {
        pthread_barrier_wait(&bar);
        double t0 = now();
        for (size_t i = lo; i < hi; i++) A[i] = B[i] + s * C[i];
        pthread_barrier_wait(&bar);
        if (t == 0) times[r] = now() - t0;
    }
    return NULL;
}

int main(int argc, char **argv) {
    T = argc > 1 ? atoi(argv[1]) : 2;
    N = (size_t)(argc > 2 ? atof(argv[2]) : 64) * 1048576;
    REPS = argc > 3 ? atoi(argv[3]) : 10;
    if (T < 1 || T > 64 || REPS < 1 || REPS > 64 || N < 1024) {
        fprintf(stderr, "usage: bench_stream [threads 1..64] [mi_elements] [reps 1..64]\n");
        return 2;
    }
    A = malloc(N * sizeof *A), B = malloc(N * sizeof *B), C = malloc(N * sizeof *C);
    if (!A || !B || !C) {
        fprintf(stderr, "bench_stream: out of memory for 3 x %zu doubles\n", N);
        return 1;
    }
    pthread_barrier_init(&bar, NULL, (unsigned)T);
    pthread_t th[64];
    for (int t = 1; t < T; t++) pthread_create(&th[t], NULL, worker, (void *)(size_t)t);
    worker((void *)0);
    for (int t = 1; t < T; t++) pthread_join(th[t], NULL);
    double sum = 0, worst = 0;
    for (int r = 1; r < REPS; r++) {       /* the first pass warms TLBs and pages */
        if (times[r] < best_s) best_s = times[r];
        if (times[r] > worst) worst = times[r];
        sum += times[r];
    }
    if (REPS == 1) best_s = worst = sum = times[0];
    double bytes = 24.0 * (double)N;
    int nr = REPS > 1 ? REPS - 1 : 1;
    printf("triad threads=%d elements=%zu (%.0f MiB per array) reps=%d\n", T, N, N * 8.0 / 1048576, REPS);
    printf("best %.2f GB/s  mean %.2f GB/s  worst %.2f GB/s  (check %g)\n", bytes / best_s / 1e9,
           bytes / (sum / nr) / 1e9, bytes / worst / 1e9, A[N / 2]);
    free(A), free(B), free(C);
    return 0;
}
