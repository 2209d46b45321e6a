/*
 * test_tsne.c — exact t-SNE and its SVG scatter (src/eval/tsne.c).
 *   - three well-separated Gaussian blobs in 20-D (60 points): in the 2-D
 *     map a point's 5 nearest neighbours carry its label (>= 95%), within
 *     2 s, and the same seed gives the same map bit for bit;
 *   - refusals: too many points, non-finite input;
 *   - the SVG: standalone, one <circle> per point, legend sorted by label.
 */
#include <time.h>

#include "dlperf.h"
#include "tap.h"

#define NB 60
#define DIM 20

static uint64_t rs = 12345;
static double urand(void) {
    rs = rs * 6364136223846793005ull + 1442695040888963407ull;
    return ((rs >> 11) + 0.5) / 9007199254740992.0;
}
static double nrand(void) { return sqrt(-2 * log(urand())) * cos(6.283185307179586 * urand()); }

static float X[NB * DIM];
static int lab[NB];

static void make_blobs(void) {
    for (int i = 0; i < NB; i++) {
        lab[i] = i % 3;
        for (int k = 0; k < DIM; k++)
            X[i * DIM + k] = (float)(nrand() + (k == lab[i] ? 12.0 : 0.0));
    }
}

static double knn_agreement(const float *y, int n, int kk) {
    int agree = 0;
    for (int i = 0; i < n; i++) {
        int used[NB] = {0};
        for (int t = 0; t < kk; t++) {
            int best = -1;
            double bd = INFINITY;
            for (int j = 0; j < n; j++) {
                if (j == i || used[j]) continue;
                double a = y[2 * i] - y[2 * j], b = y[2 * i + 1] - y[2 * j + 1], d = a * a + b * b;
                if (d < bd) {
                    bd = d;
                    best = j;
                }
            }
            used[best] = 1;
            agree += lab[best] == lab[i];
        }
    }
    return (double)agree / (n * kk);
}

static void t_blobs(void) {
    make_blobs();
    float y1[2 * NB], y2[2 * NB];
    dlp_error e = {0};
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    CHECK_I64(dlp_tsne(X, NB, DIM, 10, 0, 7, y1, &e), DLP_OK);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double secs = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
    CHECK(secs < 2.0);
    double agr = knn_agreement(y1, NB, 5);
    CHECK(agr >= 0.95);
    if (agr < 0.95) fprintf(stderr, "  5-NN agreement %.3f\n", agr);
    CHECK_I64(dlp_tsne(X, NB, DIM, 10, 0, 7, y2, &e), DLP_OK);
    CHECK(!memcmp(y1, y2, sizeof y1));
    /* another seed: another map (the seed is used) */
    CHECK_I64(dlp_tsne(X, NB, DIM, 10, 0, 8, y2, &e), DLP_OK);
    CHECK(memcmp(y1, y2, sizeof y1) != 0);
    /* the map is spread out, not collapsed: blobs far apart vs their size */
    double spread = 0;
    for (int k = 0; k < 2 * NB; k++) spread += fabs(y1[k]);
    CHECK(spread / (2 * NB) > 1.0);
}

static void t_refusals(void) {
    dlp_error e = {0};
    float y[8];
    static float big[1];
    CHECK_I64(dlp_tsne(big, 6000, 1, 30, 0, 1, y, &e), DLP_EINVAL);
    CHECK(strstr(e.msg, "6000") != NULL);
    float bad[4 * 2] = {0, 1, 2, 3, NAN, 5, 6, 7};
    CHECK_I64(dlp_tsne(bad, 4, 2, 0, 0, 1, y, &e), DLP_EINVAL);
    CHECK_I64(dlp_tsne(bad, 4, 2, -1, 0, 1, y, &e), DLP_EINVAL);
    /* one point: the origin, no iteration needed */
    float one[3] = {1, 2, 3};
    CHECK_I64(dlp_tsne(one, 1, 3, 0, 0, 1, y, &e), DLP_OK);
    CHECK(y[0] == 0 && y[1] == 0);
}

static int count(const char *s, const char *w) {
    int n = 0;
    for (const char *p = s; (p = strstr(p, w)); p += strlen(w)) n++;
    return n;
}

static void t_svg(void) {
    float y[2 * 5] = {0, 0, 1, 1, 2, 0.5f, -1, 3, 0.5f, 0.5f};
    const char *labels[5] = {"resnet", "nb201", "resnet", "a<b&c", NULL};
    char *buf = NULL;
    size_t len = 0;
    dlp_error e = {0};
    CHECK_I64(dlp_tsne_svg(y, 5, labels, "map \"x\"", &buf, &len, &e), DLP_OK);
    if (!buf) return;
    CHECK_I64(strlen(buf), len);
    CHECK(!strncmp(buf, "<svg", 4));
    CHECK(strstr(buf, "</svg>") != NULL);
    CHECK_I64(count(buf, "<circle"), 5);
    CHECK_I64(count(buf, "</circle>"), 5);
    CHECK(strstr(buf, "http://www.w3.org/2000/svg") != NULL);
    CHECK(count(buf, "href") == 0);   /* standalone: nothing external */
    CHECK(strstr(buf, "a&lt;b&amp;c") != NULL && !strstr(buf, "a<b"));
    CHECK(strstr(buf, "map &quot;x&quot;") != NULL);
    /* legend sorted: (none) < a<b&c < nb201 < resnet (byte order), counts */
    const char *p0 = strstr(buf, ">(none) (1)<"), *p1 = strstr(buf, ">a&lt;b&amp;c (1)<"),
               *p2 = strstr(buf, ">nb201 (1)<"), *p3 = strstr(buf, ">resnet (2)<");
    CHECK(p0 && p1 && p2 && p3 && p0 < p1 && p1 < p2 && p2 < p3);
    /* the two resnet points share a colour, the others differ */
    char c0[8], c2[8], c1[8];
    const char *q = buf;
    char *cols[5];
    for (int i = 0; i < 5; i++) {
        q = strstr(q, "<circle");
        const char *f = strstr(q, "fill=\"#");
        cols[i] = (char *)f + 6;
        q = f;
    }
    memcpy(c0, cols[0], 7);
    memcpy(c2, cols[2], 7);
    memcpy(c1, cols[1], 7);
    c0[7] = c2[7] = c1[7] = 0;
    CHECK_STR(c0, c2);
    CHECK(strcmp(c0, c1) != 0);
    free(buf);
}

int main(void) {
    RUN(t_blobs);
    RUN(t_refusals);
    RUN(t_svg);
    return TAP_DONE();
}
