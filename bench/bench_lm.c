/*
 * bench_lm.c — training and forward throughput (tokens/s) of the small
 * language model (src/lm) at two sizes, ~1 M and ~5 M parameters: one step
 * = forward + backward + clip + AdamW over B rows of T tokens (random
 * ids; speed does not depend on them).  Prints tokens/s (best step and
 * mean), ms/step and the
 * achieved GFLOP/s, counting 6 P (P = parameters, the tied head once) +
 * 12 L S D (attention scores and mixing over the full S x S, which is what
 * the code computes) FLOPs per trained token, to compare with the SGEMM
 * rate of bench_nn.sh on the same machine.
 *   bench_lm [steps] [B] [T]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lm/lm.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void run(const char *name, dlp__lm_config c, int steps, int B, int T) {
    dlp__lm m;
    dlp_error err = {0};
    if (dlp__lm_init(&m, &c, 1, &err) != DLP_OK) {
        printf("%s: %s\n", name, err.msg);
        return;
    }
    int32_t *tok = malloc((size_t)B * T * 4), *tgt = malloc((size_t)B * T * 4);
    dlp__nn_rng r;
    dlp__nn_rng_seed(&r, 1);
    for (int i = 0; i < B * T; i++) tok[i] = DLP__BPE_FIRST_MERGE + (int32_t)dlp__nn_rng_below(&r, (uint32_t)(c.vocab - DLP__BPE_FIRST_MERGE));
    dlp__lm_next_targets(tok, B, T, tgt);
    dlp__lm_batch b = {B, T, tok, tgt, NULL};
    dlp__nn_adam opt;
    dlp__nn_adam_init(&opt, &m.ps, 3e-4f, 0.9f, 0.95f, 1e-8f, 0.1f, 1);
    dlp__nn_ws ws = {0};
    double loss = 0, train = 1e30, sum = 0, fwd = 1e30;
    for (int s = 0; s < steps + 1; s++) {
        double t0 = now_s();
        dlp__nn_ws_reset(&ws);
        dlp__lm_forward(&m, &ws, &b, &loss, &err);
        dlp__nn_zero_grad(&m.ps);
        dlp__lm_backward(&m, &ws, NULL, NULL);
        dlp__nn_clip_grad_norm(&m.ps, 1.0);
        dlp__nn_adam_step(&opt, &m.ps);
        double dt = now_s() - t0;
        if (s == 0) continue; /* step 0 warms the arena and BLAS */
        sum += dt;
        train = dt < train ? dt : train;
    }
    for (int s = 0; s < steps; s++) {
        double t0 = now_s();
        dlp__nn_ws_reset(&ws);
        dlp__lm_forward(&m, &ws, &b, NULL, &err);
        double dt = now_s() - t0;
        fwd = dt < fwd ? dt : fwd;
    }
    /* best step: on a shared machine the mean mostly measures the neighbours */
    double tps = B * T / train, mean_tps = B * T * steps / sum;
    double flop_tok = 6.0 * m.ps.total + 12.0 * c.n_layers * T * c.dim;
    printf("%-4s %5.2f M params  d%d L%d H%d/%d ffn%d V%d  B%d T%d:  train %5.0f tokens/s best, %5.0f mean "
           "(%6.1f ms/step, %4.1f GFLOP/s)  forward %5.0f tokens/s  -> %.0f M tokens in 2 h  (arena %.0f MB)\n",
           name, m.ps.total / 1e6, c.dim, c.n_layers, c.n_heads, c.n_kv_heads, c.ffn, c.vocab, B, T, tps,
           mean_tps, 1e3 * train, tps * flop_tok / 1e9, B * T / fwd, tps * 7200 / 1e6, ws.peak / 1e6);
    dlp__nn_adam_free(&opt);
    dlp__nn_ws_free(&ws);
    dlp__lm_free(&m);
    free(tok);
    free(tgt);
}

int main(int argc, char **argv) {
    int steps = argc > 1 ? atoi(argv[1]) : 5, B = argc > 2 ? atoi(argv[2]) : 8, T = argc > 3 ? atoi(argv[3]) : 256;
    if (steps < 1 || B < 1 || T < 2) {
        fprintf(stderr, "usage: bench_lm [steps] [B] [T]\n");
        return 2;
    }
    run("1M", dlp__lm_config_default(4096, 128, 3, 4, 2, 344, T), steps, B, T);
    run("5M", dlp__lm_config_default(4096, 256, 5, 8, 4, 688, T), steps, B, T);
    return 0;
}
