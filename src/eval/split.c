/*
 * split.c — the evaluation protocols of the thesis as pure functions of
 * (items, seed): DIPPM's random 70/15/15 (§4.4.3), TraPPM's per-family
 * 70/30 Monte Carlo splits (§5.5.4, seeds 1337..1341), chapter 6's
 * stratified k-fold, and leave-one-family-out.
 *
 * Shuffles are Fisher-Yates driven by the nn core's xoshiro256** stream
 * seeded with the split seed, so a split is reproducible across runs and
 * machines and independent of every other random stream (model init,
 * mini-batch order, dropout).  Counts are rounded to nearest (half up) so
 * that sizes are predictable: 15,625 items at 0.70/0.15 give 10,938 /
 * 2,344 / 2,343.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"
#include "util/util.h"

static void shuffle(int *v, int n, dlp__nn_rng *r) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)dlp__nn_rng_below(r, (uint32_t)i + 1), t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

static int round_count(double x) { return (int)floor(x + 0.5); }

dlp_status dlp_split_random(int n, double train_frac, double val_frac, uint64_t seed, int *part,
                            dlp_error *err) {
    if (n < 0 || !part || !(train_frac >= 0) || !(val_frac >= 0) || train_frac + val_frac > 1 + 1e-12)
        return dlp__err(err, DLP_EINVAL, "split: fractions %g/%g must be >= 0 and sum to at most 1",
                        train_frac, val_frac);
    int *idx = malloc(sizeof *idx * (size_t)(n > 0 ? n : 1));
    if (!idx) return dlp__err(err, DLP_ENOMEM, "split: out of memory");
    for (int i = 0; i < n; i++) idx[i] = i;
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, seed);
    shuffle(idx, n, &r);
    int nt = round_count(n * train_frac), nv = round_count(n * val_frac);
    if (nt > n) nt = n;
    if (nv > n - nt) nv = n - nt;
    for (int i = 0; i < n; i++)
        part[idx[i]] = i < nt ? DLP_PART_TRAIN : i < nt + nv ? DLP_PART_VAL : DLP_PART_TEST;
    free(idx);
    return DLP_OK;
}

/* Group ids for equal family strings, in order of first appearance. */
static int group_ids(const char *const *family, int n, int *gid, int *n_groups) {
    dlp__strmap map;
    if (dlp__strmap_init(&map, (uint32_t)(n > 16 ? n / 4 : 16))) return -1;
    int g = 0;
    for (int i = 0; i < n; i++) {
        const char *f = family[i] ? family[i] : "";
        int v = dlp__strmap_get(&map, f);
        if (v < 0) {
            v = g++;
            if (dlp__strmap_put(&map, f, v)) {
                dlp__strmap_free(&map);
                return -1;
            }
        }
        gid[i] = v;
    }
    dlp__strmap_free(&map);
    *n_groups = g;
    return 0;
}

dlp_status dlp_split_family(const char *const *family, int n, double train_frac, uint64_t seed,
                            int *part, dlp_error *err) {
    if (n < 0 || !part || (n > 0 && !family) || !(train_frac >= 0 && train_frac <= 1))
        return dlp__err(err, DLP_EINVAL, "split: bad per-family split arguments");
    int *gid = malloc(sizeof *gid * (size_t)(n > 0 ? n : 1) * 3);
    if (!gid) return dlp__err(err, DLP_ENOMEM, "split: out of memory");
    int *idx = gid + n, *start = idx + n, ng = 0;
    if (group_ids(family, n, gid, &ng)) {
        free(gid);
        return dlp__err(err, DLP_ENOMEM, "split: out of memory");
    }
    /* counting sort of items by group, keeping item order inside a group */
    int *cnt = calloc((size_t)ng + 1, sizeof *cnt);
    if (!cnt) {
        free(gid);
        return dlp__err(err, DLP_ENOMEM, "split: out of memory");
    }
    for (int i = 0; i < n; i++) cnt[gid[i] + 1]++;
    for (int g = 0; g < ng; g++) cnt[g + 1] += cnt[g];
    memcpy(start, cnt, sizeof *start * (size_t)(ng < n ? ng : n));
    for (int i = 0; i < n; i++) idx[start[gid[i]]++] = i;
    /* one stream for the whole split, families in first-appearance order:
     * the split of one family depends only on the seed and the families
     * listed before it */
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, seed);
    for (int g = 0; g < ng; g++) {
        int *v = idx + cnt[g], m = cnt[g + 1] - cnt[g];
        shuffle(v, m, &r);
        int nt = round_count(m * train_frac);
        for (int i = 0; i < m; i++) part[v[i]] = i < nt ? DLP_PART_TRAIN : DLP_PART_TEST;
    }
    free(cnt);
    free(gid);
    return DLP_OK;
}

typedef struct {
    double y;
    int i;
} yi_t;

static int cmp_yi(const void *a, const void *b) {
    const yi_t *p = a, *q = b;
    if (p->y != q->y) return p->y < q->y ? -1 : 1;
    return p->i - q->i;   /* total order: qsort is not stable */
}

dlp_status dlp_split_kfold(const double *y, int n, int k, uint64_t seed, int *fold, dlp_error *err) {
    if (n < 0 || k < 2 || !fold || (n > 0 && !y))
        return dlp__err(err, DLP_EINVAL, "split: k-fold needs k >= 2 (got %d)", k);
    yi_t *v = malloc(sizeof *v * (size_t)(n > 0 ? n : 1));
    int *perm = malloc(sizeof *perm * (size_t)k);
    if (!v || !perm) {
        free(v);
        free(perm);
        return dlp__err(err, DLP_ENOMEM, "split: out of memory");
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        fold[i] = -1;
        if (!isnan(y[i])) v[m++] = (yi_t){y[i], i};
    }
    qsort(v, (size_t)m, sizeof *v, cmp_yi);
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, seed);
    /* each run of k neighbours in y order goes to k different folds, so
     * every fold sees the whole range of the target (stratified on y) */
    for (int b = 0; b < m; b += k) {
        for (int f = 0; f < k; f++) perm[f] = f;
        shuffle(perm, k, &r);
        for (int j = 0; j < k && b + j < m; j++) fold[v[b + j].i] = perm[j];
    }
    free(v);
    free(perm);
    return DLP_OK;
}

dlp_status dlp_split_lofo(const char *const *family, int n, const char *held_out, int *part,
                          dlp_error *err) {
    if (n < 0 || !part || !held_out || (n > 0 && !family))
        return dlp__err(err, DLP_EINVAL, "split: leave-one-family-out needs a family");
    int hit = 0;
    for (int i = 0; i < n; i++) {
        int t = family[i] && !strcmp(family[i], held_out);
        part[i] = t ? DLP_PART_TEST : DLP_PART_TRAIN;
        hit += t;
    }
    if (!hit) return dlp__err(err, DLP_ENOTFOUND, "split: no sample of family '%s'", held_out);
    return DLP_OK;
}
